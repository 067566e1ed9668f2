//! The verifier contract with keys from a snarkjs ceremony: `Groth16Verifier` deployed on an
//! in-process devnet with the ceremony zkey's verifying key accepts a proof made in Rust with
//! that zkey, and refuses it for a changed public input.
//!
//! Shares `<target>/ceremony` with `crates/zk/tests/ceremony.rs` (see `test_support::ceremony`):
//! the ceremony runs once, minutes the first time. Needs node and
//! `bash tests/interop/install.sh`, so it is ignored by a plain `cargo test` and run by
//! `scripts/test`.
#![allow(clippy::unwrap_used)] // a test fails by panicking: unwrapping is how it says so

mod support;

use alloy_primitives::U256;
use alloy_sol_types::SolCall;
use contracts::Groth16Verifier;
use support::{client, deploy_artifact, devnet};
use tron::{Address, NodeClient, Trigger};
use zk::Fr;
use zk::circuit::PublicInputs;
use zk::keys::{Keys, Setup};
use zk::note::{Note, NoteMeta};
use zk::proof::{EncodedProof, Witness, prove};
use zk::tree::MerkleTree;

async fn verify_on_chain(
    client: &NodeClient,
    verifier: Address,
    proof: &EncodedProof,
    public: &PublicInputs,
) -> (bool, i64) {
    let out = client
        .trigger_constant_contract(&Trigger {
            owner: verifier,
            contract: verifier,
            data: Groth16Verifier::verifyProofCall {
                proof: proof.0,
                input: [zk::field::to_u256(&public.public_hash())],
            }
            .abi_encode(),
            ..Trigger::default()
        })
        .await
        .expect("constant call");
    assert!(
        !out.reverted,
        "verifyProof reverted: {:?}",
        out.revert_reason()
    );
    let ok = Groth16Verifier::verifyProofCall::abi_decode_returns(&out.output).expect("a bool");
    (ok, out.energy_used)
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
#[ignore = "needs node and python: bash tests/interop/install.sh (scripts/test runs it)"]
async fn the_verifier_deployed_with_ceremony_keys_accepts_their_proofs() {
    let ceremony = tokio::task::spawn_blocking(test_support::ceremony::ceremony)
        .await
        .expect("ceremony thread");
    let keys = Keys::read_zkey(&ceremony.zkey).expect("the ceremony zkey loads");
    assert_eq!(keys.setup(), Setup::Snarkjs);
    assert!(!keys.is_insecure_dev());

    let devnet = devnet().await;
    let client = client(&devnet);
    let verifier = deploy_artifact(
        &devnet,
        "Groth16Verifier",
        &keys.verifier_args().abi_encode(),
        100,
        10_000_000,
    )
    .await;

    let meta = NoteMeta::usdt(100, "devnet").unwrap();
    let mut tree = MerkleTree::new();
    let others: Vec<Fr> = (0..9)
        .map(|_| Note::generate(meta.clone()).commitment())
        .collect();
    tree.extend(&others).unwrap();
    let note = Note::generate(meta);
    let index = tree.insert(note.commitment()).unwrap();
    let public = PublicInputs {
        root: tree.root(),
        nullifier_hash: note.nullifier_hash(),
        recipient: zk::field::from_address(&[0x5a; 20]),
        relayer: zk::field::from_address(&[0x42; 20]),
        fee: Fr::from(1_000_000u64),
        refund: Fr::from(0u64),
    };
    let witness = Witness::new(&note, &tree.path(index).unwrap()).unwrap();
    let proof = prove(&keys, &public, &witness, &mut rand_core::OsRng).expect("a proof");
    let encoded = EncodedProof::from_proof(&proof);

    let (ok, energy) = verify_on_chain(&client, verifier, &encoded, &public).await;
    assert!(
        ok,
        "the ceremony-keyed verifier refused a proof made with its zkey"
    );
    assert!(energy < 300_000, "verifyProof took {energy} energy");
    println!(
        r#"{{"bench":"energy","schedule":"tron","op":"verify_ceremony_keys","energy":{energy}}}"#
    );

    for i in 0..6 {
        let mut words = public.to_words();
        words[i] ^= U256::from(1);
        let tampered = PublicInputs::from_words(&words).unwrap();
        let (ok, _) = verify_on_chain(&client, verifier, &encoded, &tampered).await;
        assert!(!ok, "a proof verified for a changed value {i}");
    }
    // The development verifier at genesis refuses it: the keys really differ.
    let dev_ok = zk::proof::verify(Keys::insecure_dev(), &public, &proof);
    assert!(!dev_ok);
}
