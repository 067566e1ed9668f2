use predicates::prelude::*;

use crate::support::{TestEnv, json_run, mode};

const K: &str = "2d8f68944bdbfbc0769542fba8fc2d2a3de67393334471624364c7006da2aa54";
const K_ADDR: &str = "TJRyWwFs9wTFGZg3JbrVriFbNfCug5tDeC";

fn no_secret(output: &std::process::Output) {
    for stream in [&output.stdout, &output.stderr] {
        let text = String::from_utf8_lossy(stream);
        assert!(!text.contains(&K[..20]), "the key leaked: {text}");
    }
}

#[test]
fn new_stores_a_private_key_once() {
    let env = TestEnv::new();
    let (code, out) = json_run(env.cmd().args(["key", "new"]));
    assert_eq!(code, 0, "{out}");
    let address = out["data"]["address"].as_str().unwrap().to_owned();
    assert!(address.starts_with('T'));
    let path = env.home().join("keys/default.key");
    assert_eq!(out["data"]["path"], path.display().to_string());
    assert_eq!(mode(&path), 0o600);
    assert_eq!(mode(&env.home().join("keys")), 0o700);
    let stored = std::fs::read_to_string(&path).unwrap();
    assert_eq!(
        tron::PrivateKey::from_hex(&stored)
            .unwrap()
            .address()
            .to_base58(),
        address
    );

    env.cmd()
        .args(["key", "new"])
        .assert()
        .code(1)
        .stderr(predicate::str::contains("already stored"));
    assert_eq!(std::fs::read_to_string(&path).unwrap(), stored);

    env.cmd()
        .args(["key", "address"])
        .assert()
        .success()
        .stdout(format!("{address}\n"));
}

#[test]
fn import_from_file_stdin_and_env() {
    let env = TestEnv::new();
    let key_file = env.write("k.txt", &format!("0x{K}\n"));
    let out = env
        .cmd()
        .args(["key", "import", "--from"])
        .arg(&key_file)
        .output()
        .unwrap();
    assert!(out.status.success());
    assert_eq!(String::from_utf8_lossy(&out.stdout), format!("{K_ADDR}\n"));
    no_secret(&out);
    // Importing the same key again is fine; a different one is refused.
    env.cmd()
        .args(["key", "import", "--from", "-"])
        .write_stdin(K)
        .assert()
        .success();
    let other = tron::PrivateKey::generate();
    env.cmd()
        .args(["key", "import"])
        .write_stdin(other.to_hex().as_str())
        .assert()
        .code(1)
        .stderr(predicate::str::contains("different key"));

    let env2 = TestEnv::new();
    let out = env2
        .cmd()
        .env("TRONPOOL_PRIVATE_KEY", K)
        .args(["key", "import", "--out"])
        .arg(env2.path("elsewhere/my.key"))
        .output()
        .unwrap();
    assert!(out.status.success(), "{out:?}");
    no_secret(&out);
    assert_eq!(mode(&env2.path("elsewhere/my.key")), 0o600);
}

#[test]
fn bad_keys_are_refused_without_echo() {
    let env = TestEnv::new();
    for (input, expected) in [
        (&K[..63], "64 hex digits"),
        ("zz", "not hex"),
        (
            "0000000000000000000000000000000000000000000000000000000000000000",
            "curve order",
        ),
    ] {
        let out = env
            .cmd()
            .args(["key", "import"])
            .write_stdin(input)
            .output()
            .unwrap();
        assert_eq!(out.status.code(), Some(2), "{input}");
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert!(stderr.contains(expected), "{stderr}");
        assert_eq!(stderr.lines().count(), 1);
        no_secret(&out);
    }
    assert!(!env.home().join("keys/default.key").exists());
}

#[test]
fn a_key_given_as_an_argument_is_refused_and_not_echoed() {
    let env = TestEnv::new();
    let out = env.cmd().args(["key", "import", K]).output().unwrap();
    assert_eq!(out.status.code(), Some(2));
    no_secret(&out);
    let out = env
        .cmd()
        .args(["--json", "key", "import", K])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
    no_secret(&out);
}

#[test]
fn address_follows_key_precedence() {
    let env = TestEnv::new();
    env.cmd().args(["key", "new"]).assert().success();
    let key_file = env.write("k.txt", K);
    let other = tron::PrivateKey::generate();

    // Stored key only.
    let (_, out) = json_run(env.cmd().args(["key", "address"]));
    assert!(
        out["data"]["source"]
            .as_str()
            .unwrap()
            .starts_with("stored key"),
        "{out}"
    );

    // The environment beats the stored key.
    let (_, out) = json_run(
        env.cmd()
            .env("TRONPOOL_PRIVATE_KEY", other.to_hex().as_str())
            .args(["key", "address"]),
    );
    assert_eq!(out["data"]["address"], other.address().to_base58());
    assert_eq!(out["data"]["source"], "env TRONPOOL_PRIVATE_KEY");

    // A key file beats both.
    let (_, out) = json_run(
        env.cmd()
            .env("TRONPOOL_PRIVATE_KEY", other.to_hex().as_str())
            .arg("--key-file")
            .arg(&key_file)
            .args(["key", "address"]),
    );
    assert_eq!(out["data"]["address"], K_ADDR);
    assert_eq!(
        out["data"]["addressHex"],
        "415cd0fb0ab3ce40f3051414c604b27756e69e43db"
    );
}

#[test]
fn no_key_without_a_terminal_is_a_usage_error() {
    let env = TestEnv::new();
    env.cmd()
        .args(["--network", "nile", "key", "address"])
        .assert()
        .code(2)
        .stderr(predicate::str::contains("no signing key"));
    // The devnet's default key is its well-known dev account 0.
    let (code, out) = json_run(env.cmd().args(["key", "address"]));
    assert_eq!(code, 0, "{out}");
    assert_eq!(
        out["data"]["address"],
        devnet::genesis::dev_key(0).address().to_base58()
    );
    env.cmd()
        .args(["--key-file", "/nonexistent/key", "key", "address"])
        .assert()
        .code(2)
        .stderr(predicate::str::contains("/nonexistent/key"));
    let bad = env.write("bad.key", "nothex");
    env.cmd()
        .arg("--key-file")
        .arg(&bad)
        .args(["key", "address"])
        .assert()
        .code(2)
        .stderr(predicate::str::contains("bad.key"));
}
