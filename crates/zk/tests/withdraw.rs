//! A deposit's whole life in the privacy core: a note, its commitment in a tree among others,
//! a proof of withdrawal for a recipient, and what verification makes of changed inputs.
#![allow(clippy::unwrap_used)] // a test fails by panicking: unwrapping is how it says so

use zk::Fr;
use zk::circuit::PublicInputs;
use zk::field;
use zk::keys::Keys;
use zk::note::{Note, NoteMeta};
use zk::proof::{EncodedProof, ProofError, Witness, prove, verify};
use zk::tree::MerkleTree;

#[test]
fn deposit_then_withdraw_through_a_relayer() {
    let keys = Keys::insecure_dev();
    let meta = NoteMeta::usdt(100, "devnet").unwrap();
    let mut tree = MerkleTree::new();
    let others: Vec<Fr> = (0..37)
        .map(|_| Note::generate(meta.clone()).commitment())
        .collect();
    tree.extend(&others).unwrap();
    let note = Note::generate(meta.clone());
    let text = note.to_text();
    let index = tree.insert(note.commitment()).unwrap();
    tree.extend(&others[..5]).unwrap();

    // The user keeps only the text; everything else is rebuilt from it and the chain.
    let note = Note::parse(&text).unwrap();
    let path = tree.path(index).unwrap();
    let public = PublicInputs {
        root: tree.root(),
        nullifier_hash: note.nullifier_hash(),
        recipient: field::from_address(&[0xab; 20]),
        relayer: field::from_address(&[0xcd; 20]),
        fee: Fr::from(2_000_000u64),
        refund: Fr::from(500_000u64),
    };
    let witness = Witness::new(&note, &path).unwrap();
    let mut rng = rand_core::OsRng;
    let proof = prove(keys, &public, &witness, &mut rng).unwrap();
    let onchain = EncodedProof::from_proof(&proof).to_hex();
    let back = EncodedProof::from_hex(&onchain)
        .unwrap()
        .to_proof()
        .unwrap();
    assert!(verify(keys, &public, &back));

    // A relayer that swaps itself or the recipient, or raises the fee, holds a dead proof.
    let mut redirected = public;
    redirected.recipient = field::from_address(&[0xee; 20]);
    assert!(!verify(keys, &redirected, &back));
    let mut greedy = public;
    greedy.fee = Fr::from(3_000_000u64);
    assert!(!verify(keys, &greedy, &back));

    // A later root (more deposits) still has the note, but this proof is for the old one.
    tree.insert(Note::generate(meta.clone()).commitment())
        .unwrap();
    let mut newer = public;
    newer.root = tree.root();
    assert!(!verify(keys, &newer, &back));

    // Someone else's note cannot use this path.
    let stranger = Note::generate(meta);
    let mut stolen = public;
    stolen.nullifier_hash = stranger.nullifier_hash();
    let witness = Witness::new(&stranger, &path).unwrap();
    assert!(matches!(
        prove(keys, &stolen, &witness, &mut rng),
        Err(ProofError::NotInTree { .. })
    ));
}
