//! The module's operations, run natively: each answers as the `zk` crate does.

use serde_json::{Value, json};
use web_prover::ops;
use zk::keys::Keys;
use zk::note::Note;

fn ask(request: Value) -> Result<Value, String> {
    ops::handle(request.to_string().as_bytes()).map_err(|e| e.to_string())
}

#[test]
fn a_new_note_is_the_cli_format_and_parses_back() {
    let randomness = hex::encode([7u8; 62]);
    let made = ask(json!({"op": "newNote", "denomination": 100, "network": "devnet", "randomness": randomness})).unwrap();
    let text = made["note"].as_str().unwrap();
    let note = Note::parse(text).unwrap();
    assert_eq!(note.nullifier_bytes(), &[7u8; 31]);
    assert_eq!(made["commitment"], zk::field::to_hex(&note.commitment()));
    let parsed = ask(json!({"op": "parseNote", "note": text})).unwrap();
    assert_eq!(parsed["denomination"], 100);
    assert_eq!(parsed["network"], "devnet");
    assert_eq!(
        parsed["nullifierHash"],
        zk::field::to_hex(&note.nullifier_hash())
    );
    let short =
        ask(json!({"op": "newNote", "denomination": 100, "network": "devnet", "randomness": "00"}));
    assert!(short.unwrap_err().contains("62 random bytes"));
}

#[test]
fn a_proof_made_by_the_module_verifies_with_the_dev_keys() {
    let keys = Keys::insecure_dev();
    let loaded = ops::load_key(&keys.proving_key_bytes()).unwrap();
    assert_eq!(loaded["verifyingKeySha256"], keys.verifying_key_sha256());

    let made = ask(json!({"op": "newNote", "denomination": 100, "network": "devnet", "randomness": hex::encode([3u8; 62])})).unwrap();
    let other = zk::field::to_hex(&zk::Fr::from(12345u64));
    let leaves = vec![
        other.clone(),
        made["commitment"].as_str().unwrap().to_string(),
        other,
    ];
    let root = ask(json!({"op": "root", "leaves": leaves})).unwrap()["root"].clone();
    // The module reads addresses as `tron::Address` does.
    let recipient_text = tron::Address::from_evm([0x11; 20]).to_string();
    let relayer_text = tron::Address::from_evm([0x22; 20]).to_string();
    let request = |root: &Value| {
        json!({"op": "prove", "note": made["note"], "leaves": leaves, "root": root,
            "recipient": recipient_text, "relayer": relayer_text,
            "fee": "1000000", "refund": "0", "seed": hex::encode([9u8; 32])})
    };
    let proved = ask(request(&root)).unwrap();
    assert_eq!(proved["leafIndex"], 1);
    let proof = zk::proof::EncodedProof::from_hex(proved["proof"].as_str().unwrap()).unwrap();
    let recipient = |text: &str| {
        let bytes = ask(json!({"op": "address", "address": text})).unwrap();
        alloy_primitives::U256::from_str_radix(
            bytes["hex"].as_str().unwrap().trim_start_matches("0x"),
            16,
        )
        .unwrap()
    };
    assert_eq!(
        recipient(&recipient_text),
        alloy_primitives::U256::from_be_slice(&[0x11; 20])
    );
    assert!(
        ask(json!({"op": "address", "address": "T9yD14Nj9j7xAB4dbGeiX9h8unkKHxuWwc"})).is_err()
    );
    let words = [
        alloy_primitives::U256::from_str_radix(root.as_str().unwrap().trim_start_matches("0x"), 16)
            .unwrap(),
        alloy_primitives::U256::from_str_radix(
            proved["nullifierHash"]
                .as_str()
                .unwrap()
                .trim_start_matches("0x"),
            16,
        )
        .unwrap(),
        recipient(&recipient_text),
        recipient(&relayer_text),
        alloy_primitives::U256::from(1_000_000u64),
        alloy_primitives::U256::ZERO,
    ];
    let public = zk::circuit::PublicInputs::from_words(&words).unwrap();
    assert!(zk::proof::verify(keys, &public, &proof.to_proof().unwrap()));

    let wrong = ask(request(&json!(zk::field::to_hex(&zk::Fr::from(1u64))))).unwrap_err();
    assert!(wrong.contains("wrong list"), "{wrong}");
}
