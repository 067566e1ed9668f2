//! The web page end to end, in a real browser: `serve` and a devnet as processes, Chromium
//! driven by `tests/web/page.mjs` (playwright-core) with a stand-in TronLink that is real
//! TronWeb holding a devnet key. A note made in the page is withdrawn by `tronpool withdraw`,
//! and a note made by `tronpool deposit` is withdrawn in the page through the relayer; the
//! recipients' balances are read from the chain.
//!
//! It needs what `scripts/test` installs: Chromium (`TRONPOOL_TEST_BROWSER`, its path), the
//! npm packages of `tests/web`, and a `tronpool` built with the browser's prover
//! (`scripts/web-prover`). A plain `cargo test` skips it with a message.
#![cfg(unix)]

use std::io::Write;
use std::path::Path;
use std::process::{Command, Stdio};

use serde_json::{Value, json};

use crate::relayer::start;
use crate::support::TestEnv;

const BROWSER_VAR: &str = "TRONPOOL_TEST_BROWSER";

fn tronpool(env: &TestEnv, node: &str, key: &Path) -> assert_cmd::Command {
    let mut cmd = env.cmd();
    cmd.args(["--node", node, "--key-file"]).arg(key);
    cmd
}

async fn api(url: &str) -> Value {
    let response = reqwest::get(url).await.unwrap();
    let value: Value = response.json().await.unwrap();
    assert_eq!(value["ok"], true, "{url}: {value}");
    value["data"].clone()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_page_deposits_and_withdraws_with_a_wallet_and_trades_notes_with_the_cli() {
    let Some(chromium) = std::env::var_os(BROWSER_VAR) else {
        eprintln!(
            "skipped: the web page's browser test needs Chromium and tests/web's npm packages \
             ({BROWSER_VAR}; scripts/test installs and sets them)"
        );
        return;
    };
    let web = test_support::repo_root().join("tests/web");
    assert!(
        web.join("node_modules/playwright-core").is_dir(),
        "run `npm ci` in tests/web (scripts/test does)"
    );
    let _ = rustls::crypto::ring::default_provider().install_default();

    let chain_env = TestEnv::new();
    let (mut chain, devnet) = start(
        &chain_env,
        &[
            "devnet",
            "--port",
            "0",
            "--accounts",
            "5",
            "--block-time",
            "0",
        ],
    );
    let node = devnet["url"].as_str().unwrap().to_owned();
    let key = |i: usize| {
        devnet["accounts"][i]["privateKey"]
            .as_str()
            .unwrap()
            .to_owned()
    };
    let server_env = TestEnv::new();
    let (mut server, announced) = start(
        &server_env,
        &[
            "--node",
            &node,
            "serve",
            "--listen",
            "127.0.0.1:0",
            "--rate-limit",
            "100000",
            "--relayer-poll",
            "200ms",
            "--batch-max-wait",
            "1s",
            "--batch-poll",
            "500ms",
        ],
    );
    let url = announced["url"].as_str().unwrap().to_owned();
    let deployment = api(&format!("{url}/web/deployment.json")).await;
    assert_eq!(
        deployment["prover"], true,
        "this tronpool was built without the browser's prover: run scripts/web-prover, then build \
         again"
    );

    // A note made by the CLI, for the page to withdraw.
    let cli = TestEnv::new();
    let cli_key = cli.write("cli.key", &key(4));
    std::fs::set_permissions(
        &cli_key,
        std::os::unix::fs::PermissionsExt::from_mode(0o600),
    )
    .unwrap();
    let out = tronpool(&cli, &node, &cli_key)
        .args(["deposit", "--denom", "100", "--yes"])
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let out = tronpool(&cli, &node, &cli_key)
        .args(["notes", "export"])
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    // One note, under a comment line naming it.
    let exported = String::from_utf8(out.stdout).unwrap();
    let notes: Vec<&str> = exported.lines().filter(|l| !l.starts_with('#')).collect();
    assert_eq!(notes.len(), 1, "one note exported");
    let cli_note = notes[0].to_owned();

    // The browser. The notes and keys go on stdin, never in arguments or the environment.
    let artifacts = test_support::repo_root().join("target/web-test");
    let poor = tron::PrivateKey::from_bytes(&[0x5a; 32]).unwrap();
    let input = json!({
        "url": url,
        "node": node,
        "chromium": chromium.to_string_lossy(),
        "artifacts": artifacts,
        "depositor": key(3),
        "poor": poor.to_hex().as_str(),
        "cliNote": cli_note,
    });
    let page = tokio::task::spawn_blocking(move || {
        let mut child = Command::new("node")
            .arg(web.join("page.mjs"))
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::inherit())
            .spawn()
            .expect("node runs");
        child
            .stdin
            .take()
            .unwrap()
            .write_all(input.to_string().as_bytes())
            .unwrap();
        child.wait_with_output().unwrap()
    })
    .await
    .unwrap();
    assert!(
        page.status.success(),
        "the browser test failed (its log is above)"
    );
    let report: Value = serde_json::from_slice(&page.stdout).expect("the page test's report");
    eprintln!("web page: {report}");

    // The CLI's note, withdrawn in the page through the relayer: 100 USDT less the fee shown.
    let recipient = report["recipient"].as_str().unwrap();
    let fee: f64 = report["fee"].as_str().unwrap().parse().unwrap();
    let balance = api(&format!("{url}/api/balance/{recipient}")).await;
    let received: u64 = balance["balanceRaw"].as_str().unwrap().parse().unwrap();
    assert_eq!(
        received,
        100_000_000 - (fee * 1e6).round() as u64,
        "{balance}"
    );
    let job = api(&format!(
        "{url}/api/relayer/jobs/{}",
        report["withdrawTxid"].as_str().unwrap()
    ))
    .await;
    assert_eq!(job["state"], "confirmed", "{job}");

    // The page's note, withdrawn by the CLI (read from stdin).
    let to = tron::PrivateKey::from_bytes(&[0x6b; 32]).unwrap().address();
    let out = tronpool(&cli, &node, &cli_key)
        .args(["withdraw", "-", "--to", &to.to_base58(), "--yes"])
        .write_stdin(report["pageNote"].as_str().unwrap())
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "tronpool withdraw takes the page's note: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    let balance = api(&format!("{url}/api/balance/{}", to.to_base58())).await;
    assert_eq!(balance["balanceRaw"], "100000000", "{balance}");

    let _ = server.kill();
    let _ = chain.kill();
    let _ = (server.wait(), chain.wait());
}
