//! The batch circuit's keys from a real snarkjs ceremony (`tests/interop/ceremony.sh` on the
//! exported `batch.r1cs`, from a power-15 ptau), checked against snarkjs both ways, as the
//! withdraw circuit's are in `ceremony.rs`: our reader tells the zkey is the batch circuit's
//! and verifies it natively, the verifying key snarkjs exports is the one we load, our batch
//! proof verifies in snarkjs, and snarkjs's proof from our witness verifies in Rust.
//!
//! The ceremony is cached in `<target>/ceremony` (its ptau takes minutes the first time).
//! Needs node and `bash tests/interop/install.sh`, so these tests are ignored by a plain
//! `cargo test` and run by `scripts/test`.
#![allow(clippy::unwrap_used)] // a test fails by panicking: unwrapping is how it says so

use std::sync::OnceLock;

use ark_bn254::Bn254;
use ark_groth16::Groth16;
use ark_snark::SNARK;
use test_support::ceremony::{Ceremony, arg, batch_ceremony, ceremony, snarkjs, text};
use test_support::snarkjs_json::{
    instance_json, proof_from_json, read_json, snarkjs_groth16_verify, vk_json,
};
use zk::Fr;
use zk::batch::{BATCH_LEVELS, BatchCircuit, BatchPublic, chain};
use zk::circuits::Circuit;
use zk::field;
use zk::keys::{Keys, Setup};
use zk::poseidon::hash2;
use zk::tree::MerkleTree;
use zk::zkey_verify::VerifyError;

fn keys() -> &'static Keys {
    static KEYS: OnceLock<Keys> = OnceLock::new();
    KEYS.get_or_init(|| Keys::read_zkey(&batch_ceremony().zkey).unwrap())
}

/// A partial batch starting mid-block, after 40 inserted deposits.
fn batch() -> BatchCircuit {
    let leaf = |i: u64| hash2(Fr::from(23u64), Fr::from(i));
    let existing: Vec<Fr> = (0..40).map(leaf).collect();
    let queued: Vec<Fr> = (40..47).map(leaf).collect();
    let tree = MerkleTree::from_leaves(&existing).unwrap();
    BatchCircuit::new(
        BATCH_LEVELS,
        &tree,
        chain(Fr::from(0u64), &existing),
        &queued,
        field::from_address(&[0x41; 20]),
    )
    .unwrap()
}

fn verifies(public: &BatchPublic, proof: &ark_groth16::Proof<Bn254>) -> bool {
    Groth16::<Bn254>::verify_with_processed_vk(keys().prepared(), &public.instance(), proof)
        .unwrap()
}

fn scratch(c: &Ceremony) -> tempfile::TempDir {
    tempfile::tempdir_in(&c.dir).expect("a scratch directory in the ceremony's")
}

#[test]
#[ignore = "needs node: bash tests/interop/install.sh (scripts/test runs it)"]
fn the_batch_zkey_is_known_as_the_batch_circuits_and_verifies_natively() {
    let c = batch_ceremony();
    let keys = keys();
    assert_eq!(keys.circuit(), Circuit::Batch);
    assert_eq!(keys.setup(), Setup::Snarkjs);
    assert!(!keys.is_insecure_dev());

    let bytes = std::fs::read(&c.zkey).unwrap();
    let report = zk::zkey_verify::verify(&bytes, &std::fs::read(&c.ptau).unwrap()).unwrap();
    assert_eq!(report.circuit, Circuit::Batch);
    assert_eq!(report.ptau_power, test_support::ceremony::PTAU_POWER);
    assert_eq!(report.contributions.len(), 3);
    assert!(report.ends_with_beacon());
    // From a ptau of the circuit's own power, snarkjs hashed bytes past its powers of τ
    // into the circuit hash: it is taken as recorded, and the key is checked all the same.
    assert!(!report.circuit_hash_recomputed);

    // The verifying key snarkjs exported is the one we read.
    let exported = read_json(&c.verification_key);
    let ours = vk_json(&keys.verifying);
    for field in [
        "nPublic",
        "vk_alpha_1",
        "vk_beta_2",
        "vk_gamma_2",
        "vk_delta_2",
        "IC",
    ] {
        assert_eq!(exported[field], ours[field], "{field}");
    }

    // And the withdraw circuit's zkey is the withdraw circuit's.
    let withdraw = Keys::read_zkey(&ceremony().zkey).unwrap();
    assert_eq!(withdraw.circuit(), Circuit::Withdraw);
}

/// A ptau too small for a circuit is refused before anything is compared, naming the
/// circuit and the power it needs: a power-8 one, made and prepared by snarkjs in seconds.
#[test]
#[ignore = "needs node: bash tests/interop/install.sh (scripts/test runs it)"]
fn a_ptau_too_small_names_the_circuit_and_the_power_it_needs() {
    let c = batch_ceremony();
    let dir = scratch(c);
    let (raw, small) = (dir.path().join("p8_0.ptau"), dir.path().join("p8.ptau"));
    for args in [
        &["powersoftau", "new", "bn128", "8", arg(&raw)][..],
        &["powersoftau", "prepare", "phase2", arg(&raw), arg(&small)],
    ] {
        let out = snarkjs(args);
        assert!(out.status.success(), "{}", text(&out));
    }
    let small = std::fs::read(&small).unwrap();
    for (zkey, needed, circuit) in [
        (&c.zkey, 15, Circuit::Batch),
        (&ceremony().zkey, 13, Circuit::Withdraw),
    ] {
        match zk::zkey_verify::verify(&std::fs::read(zkey).unwrap(), &small) {
            Err(e @ VerifyError::PtauTooSmall { .. }) => {
                assert!(
                    matches!(e, VerifyError::PtauTooSmall { power: 8, needed: n, circuit: k } if n == needed && k == circuit),
                    "{e:?}"
                );
                assert_eq!(
                    e.to_string(),
                    format!("the ptau has 2^8 powers; the {circuit} circuit needs 2^{needed}")
                );
            }
            other => panic!("expected a ptau too small for the {circuit} circuit, got {other:?}"),
        }
    }
}

#[test]
#[ignore = "needs node: bash tests/interop/install.sh (scripts/test runs it)"]
fn a_rust_batch_proof_with_ceremony_keys_verifies_in_snarkjs() {
    let c = batch_ceremony();
    let dir = scratch(c);
    let circuit = batch();
    let public = circuit.public;
    let proof = zk::batch_proof::prove(&keys().proving, &circuit, &mut rand_core::OsRng).unwrap();
    assert!(verifies(&public, &proof));

    let snarkjs_verify = |public: &BatchPublic| {
        snarkjs_groth16_verify(dir.path(), &keys().verifying, &public.instance(), &proof)
    };
    let out = snarkjs_verify(&public);
    assert!(
        out.status.success() && text(&out).contains("OK!"),
        "{}",
        text(&out)
    );
    // Sent by someone else, snarkjs refuses it too.
    let thief = BatchPublic {
        submitter: field::from_address(&[0x42; 20]),
        ..public
    };
    let out = snarkjs_verify(&thief);
    assert!(
        !out.status.success() && text(&out).contains("Invalid proof"),
        "{}",
        text(&out)
    );
}

#[test]
#[ignore = "needs node: bash tests/interop/install.sh (scripts/test runs it)"]
fn a_snarkjs_batch_proof_from_our_witness_verifies_in_rust() {
    let c = batch_ceremony();
    let dir = scratch(c);
    let circuit = batch();
    let public = circuit.public;
    let wtns = dir.path().join("batch.wtns");
    std::fs::write(&wtns, zk::batch::wtns_file(circuit).unwrap()).unwrap();
    let (proof_path, public_path) = (
        dir.path().join("proof.json"),
        dir.path().join("public.json"),
    );
    let out = snarkjs(&[
        "groth16",
        "prove",
        arg(&c.zkey),
        arg(&wtns),
        arg(&proof_path),
        arg(&public_path),
    ]);
    assert!(out.status.success(), "{}", text(&out));
    assert_eq!(read_json(&public_path), instance_json(&public.instance()));
    let proof = proof_from_json(&read_json(&proof_path));
    assert!(verifies(&public, &proof));
    let longer = BatchPublic {
        count: public.count + 1,
        ..public
    };
    assert!(!verifies(&longer, &proof));
}
