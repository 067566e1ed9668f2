use predicates::prelude::*;
use serde_json::Value;
use tron::{Action, PrivateKey, RefBlock, Transaction, TransactionBuilder, Trigger};

use crate::support::{StubNode, TestEnv, json_run};

const K: &str = "2d8f68944bdbfbc0769542fba8fc2d2a3de67393334471624364c7006da2aa54";

/// Vector G of the tests in crates/tron/src/transaction.rs: a signed USDT transfer (long
/// expired).
const G_RAW: &str = "0a027b3b2208b21ace8d6ac20e7e40b8dea7a9e62c5aae01081f12a9010a31747970652e676f6f676c65617069732e636f6d2f70726f746f636f6c2e54726967676572536d617274436f6e747261637412740a15415cd0fb0ab3ce40f3051414c604b27756e69e43db121541a614f803b6fd780986a42c78ec9c7f77e6ded13c2244a9059cbb000000000000000000000000521ea197907927725ef36d70f25f850d1659c7c700000000000000000000000000000000000000000000000000000000000f424070d889a4a9e62c900180c2d72f";
const G_SIG: &str = "2ab5d790e26ea09263debc397f70dbad1b4e13dcdc8c87705c0e3432f9a2f1437c1ffc666375bbf43f6b805478720d278ae19006d65595c4f52b62f0e4383d4001";

fn key() -> PrivateKey {
    PrivateKey::from_hex(K).unwrap()
}

fn signed_g() -> Transaction {
    let bytes = hex::decode(G_RAW).unwrap();
    let mut tx = Transaction::from_raw_bytes(&bytes).unwrap();
    tx.push_signature(G_SIG.parse().unwrap());
    tx
}

/// An unsigned transfer from K that is still valid.
fn fresh_transfer(amount: i64) -> Transaction {
    let now = tron::transaction::now_ms();
    let mut id = [0u8; 32];
    id[8..16].copy_from_slice(&now.to_be_bytes());
    TransactionBuilder::new(
        Action::Transfer {
            owner: key().address(),
            to: "THTR75o8xXAgCTQqpiot2AFRAjvW1tSbVV".parse().unwrap(),
            amount,
        },
        RefBlock {
            number: 1,
            id,
            timestamp: now,
        },
    )
    .build()
}

#[test]
fn decode_reads_every_form_and_explains_the_call() {
    let env = TestEnv::new();
    let g = signed_g();
    let forms = [
        serde_json::to_string(&g.to_json(false)).unwrap(),
        serde_json::to_string(&g.to_json(true)).unwrap(),
        hex::encode(g.to_protobuf()),
    ];
    for form in forms {
        let (code, out) = json_run(env.cmd().args(["tx", "decode"]).write_stdin(form.clone()));
        assert_eq!(code, 0, "{out}");
        let d = &out["data"];
        assert_eq!(
            d["txId"],
            "4e39cf0004583361661fbede929ebefeab4857b91ba653bed5a096e5b05b8bb4"
        );
        assert_eq!(d["type"], "TriggerSmartContract");
        assert_eq!(d["contract"], "TR7NHqjeKQxGTCi8q8ZY4pL8otSzgjLj6t");
        assert_eq!(
            d["call"],
            "transfer(THTR75o8xXAgCTQqpiot2AFRAjvW1tSbVV, 1000000)"
        );
        assert_eq!(d["feeLimitSun"], 100_000_000);
        assert_eq!(d["expired"], true);
        assert_eq!(d["signedByOwner"], true);
        assert_eq!(
            d["signatures"][0]["signer"],
            "TJRyWwFs9wTFGZg3JbrVriFbNfCug5tDeC"
        );
    }
    // Unsigned raw_data_hex, and the text form.
    env.cmd()
        .args(["tx", "decode"])
        .write_stdin(G_RAW)
        .assert()
        .success()
        .stdout(
            predicate::str::contains("transfer(THTR75o8xXAgCTQqpiot2AFRAjvW1tSbVV, 1000000)")
                .and(predicate::str::contains("fee limit   100 TRX"))
                .and(predicate::str::contains("(unsigned)"))
                .and(predicate::str::contains(
                    "2018-10-11T22:05:39Z (1539295539000), expired",
                )),
        );
    let file = env.write("g.json", &serde_json::to_string(&g.to_json(false)).unwrap());
    env.cmd()
        .args(["tx", "decode"])
        .arg(&file)
        .assert()
        .success()
        .stdout(predicate::str::contains("(the owner)"));
}

#[test]
fn decode_refuses_bad_input_in_one_line() {
    let env = TestEnv::new();
    let mut tampered = signed_g().to_json(false);
    tampered["raw_data"]["fee_limit"] = 1.into();
    let mut wrong_id = signed_g().to_json(false);
    wrong_id["txID"] = "11".repeat(32).into();
    for (input, expected) in [
        (String::new(), "empty input"),
        ("hello".to_owned(), "neither JSON nor hex"),
        ("{\"raw_data\": 5}".to_owned(), "raw_data"),
        ("{not json".to_owned(), "not valid JSON"),
        ("0a02".to_owned(), "cannot decode"),
        (tampered.to_string(), "raw_data_hex does not match raw_data"),
        (
            wrong_id.to_string(),
            "does not match the transaction's hash",
        ),
    ] {
        let out = env
            .cmd()
            .args(["tx", "decode"])
            .write_stdin(input.clone())
            .output()
            .unwrap();
        assert_eq!(out.status.code(), Some(2), "{input}");
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert_eq!(stderr.lines().count(), 1, "{stderr}");
        assert!(stderr.contains(expected), "{input}: {stderr}");
    }
    env.cmd()
        .args(["tx", "decode", "/nonexistent.json"])
        .assert()
        .code(1)
        .stderr(predicate::str::contains("/nonexistent.json"));
}

#[test]
fn sign_keeps_the_visible_mode_and_checks_the_owner() {
    let env = TestEnv::new();
    let key_file = env.write("k", K);
    let tx = fresh_transfer(1_000_000);
    for visible in [false, true] {
        let input = tx.to_json(visible).to_string();
        let out = env
            .cmd()
            .arg("--key-file")
            .arg(&key_file)
            .args(["tx", "sign"])
            .write_stdin(input)
            .output()
            .unwrap();
        assert!(
            out.status.success(),
            "{}",
            String::from_utf8_lossy(&out.stderr)
        );
        let signed: Value = serde_json::from_slice(&out.stdout).unwrap();
        assert_eq!(signed["visible"], visible);
        let owner_text = signed["raw_data"]["contract"][0]["parameter"]["value"]["owner_address"]
            .as_str()
            .unwrap()
            .to_owned();
        assert_eq!(owner_text.starts_with('T'), visible);
        let parsed = Transaction::from_json(&signed).unwrap();
        assert_eq!(parsed.txid(), tx.txid());
        assert_eq!(parsed.signers().unwrap(), vec![key().address()]);
    }

    // --out, and --json wraps it in the envelope.
    let out_file = env.path("signed.json");
    let (code, out) = json_run(
        env.cmd()
            .arg("--key-file")
            .arg(&key_file)
            .args(["tx", "sign", "--out"])
            .arg(&out_file)
            .write_stdin(tx.to_json(false).to_string()),
    );
    assert_eq!(code, 0, "{out}");
    assert_eq!(out["data"]["txId"], tx.txid().to_hex());
    let from_file: Value =
        serde_json::from_str(&std::fs::read_to_string(&out_file).unwrap()).unwrap();
    assert_eq!(from_file, out["data"]["transaction"]);

    // Someone else's key.
    let other = env.write("other", PrivateKey::generate().to_hex().as_str());
    env.cmd()
        .arg("--key-file")
        .arg(&other)
        .args(["tx", "sign"])
        .write_stdin(tx.to_json(false).to_string())
        .assert()
        .code(2)
        .stderr(predicate::str::contains("is not the owner"));

    // Expired.
    env.cmd()
        .arg("--key-file")
        .arg(&key_file)
        .args(["tx", "sign"])
        .write_stdin(G_RAW)
        .assert()
        .code(2)
        .stderr(predicate::str::contains("expired"));
}

#[test]
fn broadcast_submits_only_what_a_node_would_accept() {
    let env = TestEnv::new();
    let node = StubNode::start();
    let mut tx = fresh_transfer(2_000_000);
    tx.sign(&key()).unwrap();
    let signed = tx.to_json(false).to_string();

    // Without a terminal and without --yes: refused before any network traffic.
    env.cmd()
        .args(["--node", &node.url, "tx", "broadcast"])
        .write_stdin(signed.clone())
        .assert()
        .code(2)
        .stderr(predicate::str::contains("pass --yes"));
    assert!(node.seen.lock().unwrap().requests.is_empty());

    let (code, out) = json_run(
        env.cmd()
            .args(["--node", &node.url, "--yes", "tx", "broadcast"])
            .write_stdin(signed),
    );
    assert_eq!(code, 0, "{out}");
    assert_eq!(out["data"]["txId"], tx.txid().to_hex());
    {
        let seen = node.seen.lock().unwrap();
        assert_eq!(seen.requests.len(), 1);
        assert_eq!(
            seen.requests[0].1["transaction"],
            hex::encode(tx.to_protobuf())
        );
    }

    // Unsigned, or signed by someone else: never sent.
    let unsigned = fresh_transfer(3);
    let mut foreign = fresh_transfer(4);
    foreign.push_signature(PrivateKey::generate().sign_digest(&foreign.txid().0));
    for (t, expected) in [(unsigned, "not signed"), (foreign, "by its owner")] {
        env.cmd()
            .args(["--node", &node.url, "--yes", "tx", "broadcast"])
            .write_stdin(t.to_json(false).to_string())
            .assert()
            .code(2)
            .stderr(predicate::str::contains(expected));
    }
    assert_eq!(node.seen.lock().unwrap().requests.len(), 1);

    // The node says no: its decoded message, exit 4.
    let mut refused = fresh_transfer(13);
    refused.sign(&key()).unwrap();
    env.cmd()
        .args(["--node", &node.url, "--yes", "tx", "broadcast"])
        .write_stdin(refused.to_json(true).to_string())
        .assert()
        .code(4)
        .stderr(predicate::str::contains("TAPOS_ERROR: Tapos check error."));
}

#[test]
fn broadcast_to_a_dead_node_exits_3() {
    let env = TestEnv::new();
    let port = {
        let listener = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
        listener.local_addr().unwrap().port()
    };
    let mut tx = fresh_transfer(5);
    tx.sign(&key()).unwrap();
    let (code, out) = json_run(
        env.cmd()
            .args([
                "--node",
                &format!("http://127.0.0.1:{port}"),
                "--yes",
                "tx",
                "broadcast",
            ])
            .write_stdin(tx.to_json(false).to_string()),
    );
    assert_eq!(code, 3, "{out}");
    assert!(
        out["error"]
            .as_str()
            .unwrap()
            .contains("cannot reach the TRON node"),
        "{out}"
    );
}

#[test]
fn trigger_with_data_round_trips_through_sign() {
    let env = TestEnv::new();
    let key_file = env.write("k", K);
    let now = tron::transaction::now_ms();
    let tx = TransactionBuilder::new(
        Action::Trigger(Trigger {
            owner: key().address(),
            contract: "TR7NHqjeKQxGTCi8q8ZY4pL8otSzgjLj6t".parse().unwrap(),
            data: vec![0xa9, 0x05, 0x9c, 0xbb, 1, 2, 3],
            call_value: 7,
            ..Default::default()
        }),
        RefBlock {
            number: 9,
            id: [3; 32],
            timestamp: now,
        },
    )
    .fee_limit(50_000_000)
    .memo(b"hello".to_vec())
    .build();
    let out = env
        .cmd()
        .arg("--key-file")
        .arg(&key_file)
        .args(["tx", "sign"])
        .write_stdin(
            serde_json::json!({"result": {"result": true}, "transaction": tx.to_json(false)})
                .to_string(),
        )
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let signed = Transaction::from_json(&serde_json::from_slice(&out.stdout).unwrap()).unwrap();
    assert_eq!(signed.txid(), tx.txid());
    assert_eq!(signed.raw().data, b"hello");
}
