//! The independent implementations the interop tests check against, as
//! `tests/interop/install.sh` installs them: TronWeb, circomlibjs and snarkjs from npm into
//! `tests/interop/node_modules`, tronpy from PyPI into `.tools/venv`.

use std::path::PathBuf;
use std::process::{Command, Output};

use crate::repo_root;

/// `tests/interop`: the scripts and their `node_modules`.
pub fn dir() -> PathBuf {
    repo_root().join("tests/interop")
}

/// Whether the tools are installed (for a bench, which skips what it cannot run).
pub fn installed() -> bool {
    dir().join("node_modules/snarkjs").is_dir() && python().is_file()
}

/// Panics, saying how to install them, unless `package` is in `tests/interop/node_modules`.
pub fn require_node_package(package: &str) {
    let path = dir().join("node_modules").join(package);
    assert!(
        path.is_dir(),
        "{} is missing: run `bash tests/interop/install.sh` (needs node 20)",
        path.display()
    );
}

/// `node tests/interop/<script>` (node resolves `require` from the script's folder).
pub fn node(script: &str) -> Command {
    require_node_package("tronweb");
    let mut cmd = Command::new("node");
    cmd.arg(dir().join(script));
    cmd
}

/// The venv's python, with tronpy.
pub fn python() -> PathBuf {
    repo_root().join(".tools/venv/bin/python")
}

/// `python tests/interop/<script>` in the venv.
pub fn python_script(script: &str) -> Command {
    let python = python();
    assert!(
        python.is_file(),
        "{} is missing: run `bash tests/interop/install.sh` (needs python3)",
        python.display()
    );
    let mut cmd = Command::new(python);
    cmd.arg(dir().join(script));
    cmd
}

/// Runs the snarkjs CLI from `tests/interop/node_modules`.
pub fn snarkjs(args: &[&str]) -> Output {
    require_node_package("snarkjs");
    let cli = dir().join("node_modules/snarkjs/build/cli.cjs");
    Command::new("node")
        .arg(&cli)
        .args(args)
        .output()
        .unwrap_or_else(|e| panic!("cannot run node ({e}): install node 20"))
}

/// stdout and stderr of a run, for assertions and failure messages.
pub fn text(out: &Output) -> String {
    format!(
        "{}{}",
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    )
}

/// Runs `node script` with `input` as JSON on its stdin (where notes and keys go: never in
/// arguments or the environment), its stderr passed through, its stdout to `stdout`; waits.
pub fn node_with_input(
    script: &std::path::Path,
    input: &serde_json::Value,
    stdout: std::process::Stdio,
) -> Output {
    use std::io::Write;
    let mut child = Command::new("node")
        .arg(script)
        .stdin(std::process::Stdio::piped())
        .stdout(stdout)
        .stderr(std::process::Stdio::inherit())
        .spawn()
        .unwrap_or_else(|e| panic!("cannot run node ({e}): install node 20"));
    child
        .stdin
        .take()
        .expect("piped above")
        .write_all(input.to_string().as_bytes())
        .expect("node reads its input");
    child.wait_with_output().expect("node runs to its end")
}
