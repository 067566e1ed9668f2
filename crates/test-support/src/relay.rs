//! Notes into a devnet pool and relay requests out of them, as a wallet would make them: the
//! tests of the relayer and the replica benchmark share these.

use std::time::Duration;

use serde_json::{Value, json};
use tron::{NodeClient, PrivateKey, Transaction, TxId};
use zk::circuit::PublicInputs;
use zk::keys::Keys;
use zk::note::{Note, NoteMeta};
use zk::proof::{EncodedProof, Witness, prove};
use zk::tree::MerkleTree;

/// A field element as the API writes it: `0x` and 64 hex digits.
pub fn hex32(f: &ark_bn254::Fr) -> String {
    format!("0x{}", hex::encode(zk::field::to_be_bytes(f)))
}

/// A real withdrawal proof for leaf `index` of `tree`, as the API takes it; the recipient and
/// relayer are their 20-byte (EVM) addresses.
pub fn withdrawal_proof(
    note: &Note,
    tree: &MerkleTree,
    index: u32,
    recipient: [u8; 20],
    relayer: Option<[u8; 20]>,
    (fee, refund): (u64, u64),
) -> String {
    let public = PublicInputs {
        root: tree.root(),
        nullifier_hash: note.nullifier_hash(),
        recipient: zk::field::from_address(&recipient),
        relayer: relayer.map_or(ark_bn254::Fr::from(0u64), |r| zk::field::from_address(&r)),
        fee: ark_bn254::Fr::from(fee),
        refund: ark_bn254::Fr::from(refund),
    };
    let witness = Witness::new(note, &tree.path(index).unwrap()).unwrap();
    let proof = prove(
        Keys::insecure_dev(),
        &public,
        &witness,
        &mut rand_core::OsRng,
    )
    .unwrap();
    EncodedProof::from_proof(&proof).to_hex()
}

/// Signs the unsigned transaction `json` (as the API builds it) with `key`, broadcasts it and
/// waits for its receipt, which must be a success.
pub async fn send(node: &NodeClient, key: &PrivateKey, json: &Value) -> TxId {
    let mut tx = Transaction::from_json(json).unwrap();
    tx.sign(key).unwrap();
    let txid = node.broadcast_hex(&tx).await.expect("accepted");
    // Sealed at once on a devnet that seals on broadcast; within a block or two on one that
    // makes blocks every interval.
    let deadline = std::time::Instant::now() + Duration::from_secs(30);
    let info = loop {
        if let Some(info) = node.get_transaction_info(&txid).await.unwrap() {
            break info;
        }
        assert!(std::time::Instant::now() < deadline, "{txid} never sealed");
        tokio::time::sleep(Duration::from_millis(100)).await;
    };
    assert!(info.succeeded(), "{:?}", info.failure_reason());
    txid
}

/// Approves and deposits `count` fresh notes into the pool of `denomination` through the
/// tronpool API at `api`, signed by `key`; the deposits stay queued (insert them with
/// [`insert_queued`]). Answers the notes and the tree they make once inserted.
pub async fn deposit_queued(
    api: &str,
    node: &NodeClient,
    key: &PrivateKey,
    denomination: u64,
    count: usize,
) -> (Vec<Note>, MerkleTree) {
    let http = reqwest::Client::new();
    let build = |path: &str, body: Value| {
        let request = http.post(format!("{api}{path}")).json(&body).send();
        async move {
            let value: Value = request.await.unwrap().json().await.unwrap();
            assert_eq!(value["ok"], true, "{value}");
            value["data"]["transaction"].clone()
        }
    };
    let from = key.address().to_base58();
    let approve = build(
        "/api/tx/approve",
        json!({ "from": from, "denomination": denomination, "amount": 1_000_000 }),
    )
    .await;
    send(node, key, &approve).await;
    let mut notes = Vec::new();
    let mut tree = MerkleTree::new();
    for _ in 0..count {
        let note = Note::generate(NoteMeta::usdt(denomination, "devnet").unwrap());
        let body = json!({
            "from": from, "denomination": denomination, "commitment": hex32(&note.commitment()),
        });
        send(node, key, &build("/api/tx/deposit", body).await).await;
        tree.insert(note.commitment()).unwrap();
        notes.push(note);
    }
    (notes, tree)
}

/// Inserts every deposit queued in the pool of `denomination` on the devnet at `node` with
/// `tronpool pool insert` (the `tronpool` binary at `binary`, in a throwaway home, signed by
/// dev account 0, the devnet's default key): what a depositor who does not wait for a batcher
/// runs. Answers the batches' reports.
pub fn insert_queued(binary: &str, node: &str, denomination: u64) -> Value {
    let home = tempfile::tempdir().unwrap();
    let mut cmd = std::process::Command::new(binary);
    for (key, _) in std::env::vars_os() {
        let key = key.to_string_lossy();
        if key.starts_with("TRONPOOL_") || key == "CI" {
            cmd.env_remove(key.as_ref());
        }
    }
    let output = cmd
        .env("TRONPOOL_HOME", home.path())
        .args([
            "--json", "--node", node, "--yes", "pool", "insert", "--denom",
        ])
        .arg(denomination.to_string())
        .output()
        .expect("tronpool runs");
    let value: Value = serde_json::from_slice(&output.stdout).unwrap_or_else(|e| {
        panic!(
            "pool insert printed no JSON ({e}): {}",
            String::from_utf8_lossy(&output.stderr)
        )
    });
    assert!(output.status.success(), "{value}");
    value["data"].clone()
}
