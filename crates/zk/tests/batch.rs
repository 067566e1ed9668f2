//! `BatchInsert(5, 20)` with real Groth16 proofs: a batch proof verifies for the pool state and
//! the sender it was made for, and for nothing else; a false batch is refused before proving;
//! snarkjs reads the circuit's `.r1cs` and checks its witnesses (those two need node and
//! `bash tests/interop/install.sh`, so they are ignored by a plain `cargo test` and run by
//! `scripts/test`).
#![allow(clippy::unwrap_used)] // a test fails by panicking: unwrapping is how it says so

use ark_bn254::Bn254;
use ark_groth16::Groth16;
use ark_snark::SNARK;
use rand_chacha::ChaCha20Rng;
use rand_core::SeedableRng;
use zk::Fr;
use zk::batch::{BATCH_LEVELS, BATCH_SIZE, BatchCircuit, BatchError, BatchPublic, chain};
use zk::batch_proof::prove;
use zk::field;
use zk::poseidon::hash2;
use zk::tree::MerkleTree;

fn commitments(from: u64, count: usize) -> Vec<Fr> {
    (0..count as u64)
        .map(|i| hash2(Fr::from(11u64), Fr::from(from + i)))
        .collect()
}

fn verifies(
    vk: &ark_groth16::PreparedVerifyingKey<Bn254>,
    public: &BatchPublic,
    proof: &ark_groth16::Proof<Bn254>,
) -> bool {
    Groth16::<Bn254>::verify_with_processed_vk(vk, &public.instance(), proof).unwrap()
}

#[test]
fn a_batch_proof_binds_the_pool_state_and_its_sender() {
    let mut rng = ChaCha20Rng::seed_from_u64(32);
    let (pk, vk) =
        Groth16::<Bn254>::circuit_specific_setup(BatchCircuit::blank(BATCH_LEVELS), &mut rng)
            .unwrap();
    let vk = Groth16::<Bn254>::process_vk(&vk).unwrap();

    // 45 deposits inserted, then a partial batch of 6 from the middle of the second block.
    let existing = commitments(0, 45);
    let mut tree = MerkleTree::from_leaves(&existing).unwrap();
    let queued = commitments(45, 6);
    let sender = field::from_address(&[0x41; 20]);
    let circuit = BatchCircuit::new(
        BATCH_LEVELS,
        &tree,
        chain(Fr::from(0u64), &existing),
        &queued,
        sender,
    )
    .unwrap();
    let public = circuit.public;
    let proof = prove(&pk, &circuit, &mut rng).unwrap();
    assert!(verifies(&vk, &public, &proof));
    tree.extend(&queued).unwrap();
    assert_eq!(public.new_root, tree.root());
    assert_eq!(public.start, 45);
    assert_eq!(public.count, 6);

    // Copied from the pending pool by someone else, it is worthless.
    let thief = BatchPublic {
        submitter: field::from_address(&[0x42; 20]),
        ..public
    };
    assert!(!verifies(&vk, &thief, &proof), "another sender");
    // Nor does it fit any other pool state.
    for (what, other) in [
        ("a longer batch", BatchPublic { count: 7, ..public }),
        (
            "a later start",
            BatchPublic {
                start: 46,
                ..public
            },
        ),
        (
            "another new root",
            BatchPublic {
                new_root: public.old_root,
                ..public
            },
        ),
        (
            "another old root",
            BatchPublic {
                old_root: public.new_root,
                ..public
            },
        ),
        (
            "another queue position",
            BatchPublic {
                queue_hash: chain(public.queue_hash, &commitments(51, 1)),
                ..public
            },
        ),
    ] {
        assert!(!verifies(&vk, &other, &proof), "{what}");
    }

    // The next batch fills the block to its end, and the one after starts the next block.
    let start = chain(Fr::from(0u64), &[existing.clone(), queued.clone()].concat());
    let rest = commitments(51, 2 * BATCH_SIZE - 51);
    let circuit = BatchCircuit::new(BATCH_LEVELS, &tree, start, &rest, sender).unwrap();
    let public = circuit.public;
    let proof = prove(&pk, &circuit, &mut rng).unwrap();
    assert!(verifies(&vk, &public, &proof));
    tree.extend(&rest).unwrap();
    assert_eq!(public.new_root, tree.root());

    // A false batch (a commitment the queue does not have) is refused before proving.
    let tail = commitments(64, 3);
    let start = chain(Fr::from(0u64), &[existing, queued, rest].concat());
    let mut false_batch = BatchCircuit::new(BATCH_LEVELS, &tree, start, &tail, sender).unwrap();
    false_batch.slots[1] = Fr::from(7u64);
    assert!(matches!(
        prove(&pk, &false_batch, &mut rng),
        Err(BatchError::Unsatisfied(_))
    ));
    // And the withdraw circuit's keys are not taken for a batch's.
    let withdraw_keys = zk::keys::Keys::insecure_dev();
    assert!(matches!(
        prove(&withdraw_keys.proving, &false_batch, &mut rng),
        Err(BatchError::WrongKey(_))
    ));
}

/// A batch in the second block, as the interop tests hand it to snarkjs.
fn sample() -> BatchCircuit {
    let existing = commitments(0, 40);
    let tree = MerkleTree::from_leaves(&existing).unwrap();
    BatchCircuit::new(
        BATCH_LEVELS,
        &tree,
        chain(Fr::from(0u64), &existing),
        &commitments(40, 9),
        field::from_address(&[0x41; 20]),
    )
    .unwrap()
}

#[test]
#[ignore = "needs node: bash tests/interop/install.sh (scripts/test runs it)"]
fn snarkjs_reads_the_batch_r1cs_and_checks_its_witness() {
    use test_support::interop::{snarkjs, text};
    let dir = tempfile::tempdir().unwrap();
    let r = zk::batch::constraint_system();
    let r1cs = dir.path().join("batch.r1cs");
    std::fs::write(&r1cs, zk::batch::r1cs_file()).unwrap();
    let path = |p: &std::path::Path| p.to_str().unwrap().to_owned();
    let out = snarkjs(&["r1cs", "info", &path(&r1cs)]);
    let said = text(&out);
    assert!(out.status.success(), "{said}");
    for expected in [
        format!("# of Wires: {}", r.num_wires()),
        format!("# of Constraints: {}", r.num_constraints()),
        "# of Public Inputs: 1".to_string(),
    ] {
        assert!(said.contains(&expected), "no {expected:?} in:\n{said}");
    }
    assert_eq!(r.num_constraints(), 30_548);

    let good = dir.path().join("good.wtns");
    std::fs::write(&good, zk::batch::wtns_file(sample()).unwrap()).unwrap();
    let out = snarkjs(&["wtns", "check", &path(&r1cs), &path(&good)]);
    assert!(text(&out).contains("WITNESS IS CORRECT"), "{}", text(&out));
    // A commitment the queue does not have: snarkjs finds the broken constraint too.
    let mut false_batch = sample();
    false_batch.slots[9] = Fr::from(5u64);
    let bad = dir.path().join("bad.wtns");
    std::fs::write(&bad, zk::batch::wtns_file(false_batch).unwrap()).unwrap();
    let out = snarkjs(&["wtns", "check", &path(&r1cs), &path(&bad)]);
    assert!(
        text(&out).contains("WITNESS IS NOT CORRECT"),
        "{}",
        text(&out)
    );
}
