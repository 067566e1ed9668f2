//! Notes that cannot be lost, through the binary against a devnet: deposits derived from a
//! mnemonic recovered in a fresh home (spent and unspent), secrets encrypted at rest with no
//! note, key or mnemonic left in the clear in any file (the SQLite WAL included), a wrong
//! passphrase refused with exit 6 and every file unchanged, the compliance report, and an
//! encrypted export restored elsewhere.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use assert_cmd::Command;
use serde_json::Value;
use tron::PrivateKey;

use crate::support::{TestChain, TestEnv, json_run, mode};

/// BIP-39's test mnemonic: fine for a devnet.
const MNEMONIC: &str = "abandon abandon abandon abandon abandon abandon abandon abandon \
                        abandon abandon abandon about";

fn run(env: &TestEnv, chain: &TestChain, args: &[&str]) -> Command {
    let mut cmd = env.cmd();
    cmd.args(["--node", &chain.url()]).args(args);
    cmd
}

/// `run` with `TRONPOOL_PASSPHRASE_FILE` holding `passphrase`.
fn unlocked(env: &TestEnv, chain: &TestChain, passphrase: &str, args: &[&str]) -> Command {
    let file = env.write("passphrase", &format!("{passphrase}\n"));
    let mut cmd = run(env, chain, args);
    cmd.env("TRONPOOL_PASSPHRASE_FILE", file);
    cmd
}

fn expect(cmd: &mut Command, code: i32) -> Value {
    let (got, out) = json_run(cmd);
    assert_eq!(got, code, "{out}");
    if code == 0 { out["data"].clone() } else { out }
}

fn ok(env: &TestEnv, chain: &TestChain, args: &[&str]) -> Value {
    expect(&mut run(env, chain, args), 0)
}

/// The secret part of a note's text: `0x` + 124 hex.
fn secret_of(note: &str) -> String {
    let start = note.find("-0x").unwrap() + 3;
    note[start..start + 124].to_owned()
}

/// Every file under `dir`, with its bytes.
fn files(dir: &Path) -> BTreeMap<PathBuf, Vec<u8>> {
    let mut out = BTreeMap::new();
    let mut stack = vec![dir.to_path_buf()];
    while let Some(d) = stack.pop() {
        for entry in std::fs::read_dir(&d).unwrap() {
            let path = entry.unwrap().path();
            if path.is_dir() {
                stack.push(path);
            } else {
                out.insert(path.clone(), std::fs::read(&path).unwrap());
            }
        }
    }
    out
}

fn holding(dir: &Path, needle: &str) -> Vec<PathBuf> {
    files(dir)
        .into_iter()
        .filter(|(_, bytes)| bytes.windows(needle.len()).any(|w| w == needle.as_bytes()))
        .map(|(path, _)| path)
        .collect()
}

#[test]
fn a_fresh_home_recovers_spent_and_unspent_deposits_from_the_mnemonic_and_reports_them() {
    let chain = TestChain::start();
    let first = TestEnv::new();
    let words = first.write("mnemonic.txt", MNEMONIC);
    let imported = ok(
        &first,
        &chain,
        &["mnemonic", "import", "--from", words.to_str().unwrap()],
    );
    assert_eq!(imported["id"], "adeefa5ab4373336", "{imported}");
    assert!(imported.get("mnemonic").is_none(), "never shown again");
    // The mnemonic is never an argument.
    let (code, _) = json_run(&mut run(&first, &chain, &["mnemonic", "import", MNEMONIC]));
    assert_eq!(code, 2);

    let derived = ok(
        &first,
        &chain,
        &[
            "deposit", "--denom", "100", "--count", "2", "--insert", "--yes",
        ],
    );
    let random = ok(
        &first,
        &chain,
        &["deposit", "--denom", "100", "--random", "--insert", "--yes"],
    );
    // Left in the 500 pool's queue: recovery finds a queued deposit too.
    let other_pool = ok(&first, &chain, &["deposit", "--denom", "500", "--yes"]);
    let notes: Vec<String> = derived["notes"]
        .as_array()
        .unwrap()
        .iter()
        .map(|n| n["note"].as_str().unwrap().to_owned())
        .collect();
    let spent_id = derived["notes"][0]["id"].as_i64().unwrap().to_string();
    let recipient = PrivateKey::generate().address().to_base58();
    let relayed = ok(
        &first,
        &chain,
        &["relay", "withdraw", &spent_id, "--to", &recipient, "--yes"],
    );
    let listed = ok(&first, &chain, &["notes", "list"]);
    assert_eq!(listed[0]["seedIndex"], 0, "{listed}");
    assert_eq!(listed[1]["seedIndex"], 1);
    assert!(listed[2].get("seedIndex").is_none(), "a random note");

    // The report: deposit and withdrawal, amounts, times, txids, recipient; no secret.
    let report = ok(&first, &chain, &["notes", "report", &spent_id]);
    assert_eq!(report["deposit"]["txid"], derived["notes"][0]["txid"]);
    assert_eq!(report["deposit"]["amountRaw"], "100000000");
    assert!(report["deposit"]["time"].as_i64().unwrap() > 0, "{report}");
    assert_eq!(report["withdrawal"]["txid"], relayed["txid"]);
    assert_eq!(report["withdrawal"]["recipient"], recipient.as_str());
    assert_eq!(report["withdrawal"]["receivedRaw"], relayed["receivedRaw"]);
    assert_eq!(report["withdrawal"]["feeRaw"], relayed["feeRaw"]);
    assert_eq!(report["withdrawal"]["relayer"], relayed["relayer"]);
    // The batch that put the deposit into the tree: the depositor's own (`--insert`).
    let batch = &report["insertedBy"];
    assert_eq!(batch["txid"], derived["inserted"][0]["txid"], "{report}");
    assert_eq!(
        (batch["start"].as_u64(), batch["count"].as_u64()),
        (Some(0), Some(2))
    );
    let depositor = report["deposit"]["from"].as_str().unwrap();
    assert_eq!(batch["submitter"].as_str(), Some(depositor), "{report}");
    let json = report.to_string();
    assert!(!json.contains(&secret_of(&notes[0])), "{json}");
    let text = run(&first, &chain, &["notes", "report", &spent_id])
        .output()
        .unwrap();
    assert!(text.status.success());
    let text = String::from_utf8(text.stdout).unwrap();
    for expected in [
        relayed["txid"].as_str().unwrap(),
        derived["notes"][0]["txid"].as_str().unwrap(),
        recipient.as_str(),
        "100 USDT",
    ] {
        assert!(text.contains(expected), "{expected} in {text}");
    }
    assert!(!text.contains(&secret_of(&notes[0])), "{text}");
    let unspent = derived["notes"][1]["id"].as_i64().unwrap().to_string();
    let report = ok(&first, &chain, &["notes", "report", &unspent]);
    assert_eq!(report["withdrawn"], false);
    assert!(report["withdrawal"].is_null(), "{report}");

    // A fresh home with only the mnemonic, on standard input.
    let fresh = TestEnv::new();
    let (code, out) =
        json_run(run(&fresh, &chain, &["notes", "recover", "--from", "-"]).write_stdin(MNEMONIC));
    assert_eq!(code, 0, "{out}");
    let pools = out["data"].as_array().unwrap();
    let hundred = pools.iter().find(|p| p["denomination"] == 100).unwrap();
    let found = hundred["found"].as_array().unwrap();
    assert_eq!(
        found.len(),
        2,
        "the random note is not the mnemonic's: {out}"
    );
    assert_eq!(found[0]["state"], "withdrawn");
    assert_eq!(found[1]["state"], "deposited");
    assert_eq!(found[1]["leafIndex"], derived["notes"][1]["leafIndex"]);
    assert_eq!(hundred["nextIndex"], 2);
    let five = pools.iter().find(|p| p["denomination"] == 500).unwrap();
    assert_eq!(five["found"].as_array().unwrap().len(), 1);
    assert_eq!(
        five["found"][0]["state"], "deposited",
        "queued, and found: {out}"
    );
    assert_eq!(five["found"][0]["leafIndex"], 0);
    let restored = ok(&fresh, &chain, &["notes", "list"]);
    assert_eq!(restored.as_array().unwrap().len(), 3, "{restored}");
    for (i, note) in notes.iter().enumerate() {
        let id = found[i]["id"].as_i64().unwrap().to_string();
        assert_eq!(ok(&fresh, &chain, &["notes", "show", &id])["note"], *note);
    }
    assert_eq!(
        restored[0]["depositTxid"].as_str(),
        derived["notes"][0]["txid"].as_str()
    );
    assert!(
        !restored
            .to_string()
            .contains(random["notes"][0]["commitment"].as_str().unwrap())
    );
    let _ = other_pool;
    // The recovered unspent note withdraws from the fresh home.
    let to = PrivateKey::generate().address().to_base58();
    let id = found[1]["id"].as_i64().unwrap().to_string();
    ok(
        &fresh,
        &chain,
        &["relay", "withdraw", &id, "--to", &to, "--yes"],
    );
    // A spent note recovered elsewhere reports the withdrawal the sync found for it.
    let id = found[0]["id"].as_i64().unwrap().to_string();
    let report = ok(&fresh, &chain, &["notes", "report", &id]);
    assert_eq!(report["withdrawn"], true, "{report}");
    assert_eq!(report["withdrawal"]["txid"], relayed["txid"], "{report}");
    assert_eq!(report["withdrawal"]["recipient"], recipient.as_str());
    // Recovering again restores nothing new; the next deposit continues the sequence.
    let again = ok(&fresh, &chain, &["notes", "recover"]);
    for pool in again.as_array().unwrap() {
        assert!(
            pool["found"]
                .as_array()
                .unwrap()
                .iter()
                .all(|f| f["restored"] == false),
            "{again}"
        );
    }
    let next = ok(
        &fresh,
        &chain,
        &["deposit", "--denom", "100", "--insert", "--yes"],
    );
    let listed = ok(&fresh, &chain, &["notes", "list"]);
    let new = listed
        .as_array()
        .unwrap()
        .iter()
        .find(|n| n["id"] == next["notes"][0]["id"])
        .unwrap();
    assert_eq!(new["seedIndex"], 2, "{listed}");
    // A gap limit of 0 is bad usage.
    let (code, _) = json_run(&mut run(
        &fresh,
        &chain,
        &["notes", "recover", "--gap-limit", "0"],
    ));
    assert_eq!(code, 2);
}

#[test]
fn encrypted_secrets_are_nowhere_in_the_clear_and_a_wrong_passphrase_changes_nothing() {
    let chain = TestChain::start();
    let env = TestEnv::new();
    let home = env.home();
    // A stored key (the devnet's funded account 0), a mnemonic, and a plain note first.
    let key = devnet::genesis::dev_key(0).to_hex().to_string();
    let key_file = env.write("key.txt", &key);
    ok(
        &env,
        &chain,
        &["key", "import", "--from", key_file.to_str().unwrap()],
    );
    std::fs::remove_file(&key_file).unwrap();
    let words = env.write("mnemonic.txt", MNEMONIC);
    ok(
        &env,
        &chain,
        &["mnemonic", "import", "--from", words.to_str().unwrap()],
    );
    std::fs::remove_file(&words).unwrap();
    let plain = ok(
        &env,
        &chain,
        &["deposit", "--denom", "100", "--random", "--insert", "--yes"],
    );
    let plain_note = plain["notes"][0]["note"].as_str().unwrap().to_owned();
    assert!(!holding(&home, &secret_of(&plain_note)).is_empty());
    let status = ok(&env, &chain, &["secrets", "status"]);
    assert_eq!(status["encrypted"], false, "{status}");
    assert_eq!(status["key"], "plain");

    // A short passphrase is refused; then the store is converted.
    let (code, _) = json_run(&mut unlocked(
        &env,
        &chain,
        "short",
        &["secrets", "encrypt"],
    ));
    assert_eq!(code, 2);
    assert!(!home.join("vault.json").exists());
    let pass = "correct horse battery";
    let encrypted = expect(
        &mut unlocked(&env, &chain, pass, &["secrets", "encrypt"]),
        0,
    );
    assert_eq!(encrypted["encrypted"], true, "{encrypted}");
    assert_eq!(encrypted["complete"], true);
    assert_eq!(encrypted["key"], "sealed");
    assert_eq!(encrypted["mnemonic"], "sealed");
    assert_eq!(encrypted["notes"][0]["sealed"], 1);
    assert_eq!(mode(&home.join("vault.json")), 0o600);
    // Status needs no passphrase.
    assert_eq!(ok(&env, &chain, &["secrets", "status"])["complete"], true);

    // A derived deposit with the store encrypted, then the notes are read back.
    let derived = expect(
        &mut unlocked(
            &env,
            &chain,
            pass,
            &["deposit", "--denom", "100", "--insert", "--yes"],
        ),
        0,
    );
    let derived_note = derived["notes"][0]["note"].as_str().unwrap().to_owned();
    let id = derived["notes"][0]["id"].as_i64().unwrap().to_string();
    let shown = expect(
        &mut unlocked(&env, &chain, pass, &["notes", "show", &id]),
        0,
    );
    assert_eq!(shown["note"], derived_note.as_str());
    let shown = expect(
        &mut unlocked(&env, &chain, pass, &["notes", "show", "1"]),
        0,
    );
    assert_eq!(shown["note"], plain_note.as_str());

    // No note, key or mnemonic in the clear in any file (database, WAL, key, vault).
    for secret in [
        secret_of(&plain_note),
        secret_of(&derived_note),
        plain_note.clone(),
        key.clone(),
        MNEMONIC.to_owned(),
        "abandon abandon".to_owned(),
    ] {
        assert_eq!(holding(&home, &secret), Vec::<PathBuf>::new(), "{secret}");
    }

    // A wrong or missing passphrase: exit 6, and not one byte of any file changes.
    let before = files(&home);
    for args in [
        &["notes", "show", "1"][..],
        &["deposit", "--denom", "100", "--insert", "--yes"],
        &["key", "address"],
        &["mnemonic", "status"],
        &["secrets", "encrypt"],
        &["notes", "export", "--out", "x.txt"],
    ] {
        let out = expect(&mut unlocked(&env, &chain, "wrong passphrase", args), 6);
        assert_eq!(out["kind"], "locked", "{args:?}: {out}");
        assert!(
            out["error"].as_str().unwrap().contains("wrong passphrase"),
            "{out}"
        );
        let out = expect(&mut run(&env, &chain, args), 6);
        assert!(
            out["error"]
                .as_str()
                .unwrap()
                .contains("TRONPOOL_PASSPHRASE_FILE"),
            "{out}"
        );
    }
    assert_eq!(files(&home), before, "a refused command changed a file");
    assert!(!env.path("x.txt").exists());
    // The right one signs with the sealed key.
    let address = expect(&mut unlocked(&env, &chain, pass, &["key", "address"]), 0);
    assert_eq!(
        address["address"],
        devnet::genesis::dev_key(0).address().to_base58().as_str()
    );

    // An encrypted export, restored in another home; a wrong passphrase restores nothing.
    let backup = env.path("backup.json");
    let backup_arg = backup.to_str().unwrap();
    let written = expect(
        &mut unlocked(
            &env,
            &chain,
            pass,
            &["notes", "export", "--encrypted", "--out", backup_arg],
        ),
        0,
    );
    assert_eq!(written["count"], 2, "{written}");
    assert_eq!(mode(&backup), 0o600);
    let bytes = std::fs::read_to_string(&backup).unwrap();
    assert!(!bytes.contains(&secret_of(&plain_note)) && !bytes.contains("tronpool-v1"));
    let other = TestEnv::new();
    let out = expect(
        &mut unlocked(
            &other,
            &chain,
            "not it at all",
            &["notes", "import", backup_arg],
        ),
        6,
    );
    assert_eq!(out["kind"], "locked");
    assert_eq!(
        ok(&other, &chain, &["notes", "list"]),
        serde_json::json!([])
    );
    let imported = expect(
        &mut unlocked(&other, &chain, pass, &["notes", "import", backup_arg]),
        0,
    );
    let states: Vec<&str> = imported
        .as_array()
        .unwrap()
        .iter()
        .map(|c| c["state"].as_str().unwrap())
        .collect();
    assert_eq!(states, ["deposited", "deposited"], "{imported}");
    let shown = ok(&other, &chain, &["notes", "show", "2"]);
    assert_eq!(shown["note"], derived_note.as_str());
}
