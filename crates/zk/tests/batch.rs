//! `BatchInsert(5, 20)` with real Groth16 proofs: a batch proof verifies for the pool state and
//! the sender it was made for, and for nothing else.
#![allow(clippy::unwrap_used)] // a test fails by panicking: unwrapping is how it says so

use ark_bn254::Bn254;
use ark_groth16::Groth16;
use ark_snark::SNARK;
use rand_chacha::ChaCha20Rng;
use rand_core::SeedableRng;
use zk::Fr;
use zk::batch::{BATCH_LEVELS, BATCH_SIZE, BatchCircuit, BatchPublic, chain};
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
    let proof = Groth16::<Bn254>::prove(&pk, circuit, &mut rng).unwrap();
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
    let proof = Groth16::<Bn254>::prove(&pk, circuit, &mut rng).unwrap();
    assert!(verifies(&vk, &public, &proof));
    tree.extend(&rest).unwrap();
    assert_eq!(public.new_root, tree.root());
}
