//! The binary at a real terminal, as a person uses it: what only shows when standard input
//! is a TTY. util-linux's `script` gives the binary a pseudo-terminal and passes what the test
//! types into it.

use std::io::{Read, Write};
use std::process::{Child, Command, Stdio};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use crate::support::{TestChain, TestEnv};

/// A program running on a pseudo-terminal: what it printed so far, and a keyboard.
struct Terminal {
    child: Child,
    screen: Arc<Mutex<String>>,
}

impl Terminal {
    fn run(env: &TestEnv, key: &str, args: &[&str]) -> Terminal {
        let line = std::iter::once(env!("CARGO_BIN_EXE_tronpool"))
            .chain(args.iter().copied())
            .map(|a| format!("'{a}'"))
            .collect::<Vec<_>>()
            .join(" ");
        let mut child = Command::new("script")
            .args(["-q", "-e", "-c", &line, "/dev/null"])
            .env_clear()
            .env("PATH", std::env::var_os("PATH").unwrap_or_default())
            .env("TRONPOOL_HOME", env.home())
            .env("HOME", env.dir.path())
            .env("NO_COLOR", "1")
            .env("TERM", "dumb")
            .env("TRONPOOL_PRIVATE_KEY", key)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::null())
            .spawn()
            .expect("util-linux's script");
        let screen = Arc::new(Mutex::new(String::new()));
        let mut out = child.stdout.take().unwrap();
        let shown = screen.clone();
        std::thread::spawn(move || {
            let mut buf = [0u8; 4096];
            while let Ok(n) = out.read(&mut buf) {
                if n == 0 {
                    break;
                }
                shown
                    .lock()
                    .unwrap()
                    .push_str(&String::from_utf8_lossy(&buf[..n]));
            }
        });
        Terminal { child, screen }
    }

    fn screen(&self) -> String {
        self.screen.lock().unwrap().clone()
    }

    /// Waits until `text` is on the screen.
    fn expect(&self, text: &str) {
        let started = Instant::now();
        while !self.screen().contains(text) {
            assert!(
                started.elapsed() < Duration::from_secs(60),
                "waited for {text:?}; the screen shows {:?}",
                self.screen()
            );
            std::thread::sleep(Duration::from_millis(20));
        }
    }

    fn type_keys(&mut self, keys: &str) {
        let stdin = self.child.stdin.as_mut().unwrap();
        stdin.write_all(keys.as_bytes()).unwrap();
        stdin.flush().unwrap();
    }
}

/// A confirmation takes its answer on Enter, not on the first key. A deposit without an
/// allowance asks twice (approve, then deposit); someone typing `y⏎` at the first must not
/// have that ⏎ answer the second with its default ("no"), cancelling after the approval.
#[test]
fn a_confirmation_waits_for_enter() {
    let chain = TestChain::start();
    let env = TestEnv::new();
    let key = chain.devnet.accounts()[2].to_hex();
    let mut tty = Terminal::run(
        &env,
        key.as_str(),
        &["--node", &chain.url(), "deposit", "--denom", "100"],
    );
    // The deposit and the 0.25 USDT that pays for its insertion.
    tty.expect("approve exactly 100.25 USDT first?");
    // A key alone answers nothing yet.
    tty.type_keys("y");
    std::thread::sleep(Duration::from_millis(1_500));
    let shown = tty.screen();
    assert!(
        !shown.contains("approved") && !shown.contains("Deposit 1"),
        "the prompt moved on before Enter: {shown:?}"
    );
    tty.type_keys("\r");
    tty.expect("Deposit 1 × 100 USDT");
    // The Enter typed for the first question did not answer this one.
    std::thread::sleep(Duration::from_millis(500));
    assert!(!tty.screen().contains("cancelled"), "{:?}", tty.screen());
    tty.type_keys("y\r");
    tty.expect("deposited 100 USDT as leaf");
    let status = tty.child.wait().unwrap();
    assert!(status.success(), "{status}: {:?}", tty.screen());
}
