//! `BatchInsert(5, 20)`: "these queued commitments, in queue order, appended to the tree whose
//! root is `oldRoot` at leaf `start`, give `newRoot`", the proof that lets a pool take a
//! deposit without hashing it into its tree on chain.
//!
//! ## The queue it reads
//!
//! A deposit only records its commitment in a running Poseidon chain, one hash on chain:
//!
//! ```text
//! queueHash[-1] = 0
//! queueHash[i]  = Poseidon(queueHash[i - 1], commitment[i])     i = the deposit's position
//! ```
//!
//! and a pool keeps recent `queueHash` values by position. A position is the leaf index the
//! commitment gets, so a batch never reorders anything: it inserts positions
//! `start .. start + count` where `start` is the pool's `nextIndex`.
//!
//! The chain's value *before* the batch is not a public input. Poseidon's collision
//! resistance pins it anyway: walking `count` steps back from `queueHash[start + count - 1]`,
//! each step `Poseidon(x, y) = h` has only the pair of hashes the deposits made, so the only
//! `count` commitments that end the chain there are the queued ones, in their order. That
//! saves the pool one Poseidon call per batch (≈ 0.4 ms of TRON's 80 ms) and lets it keep one
//! value per position instead of two.
//!
//! ## The one public input
//!
//! As in the withdraw circuit, a Groth16 verifier pays an elliptic-curve multiplication and an
//! addition per public input, so everything is hashed into one, with one call of the pool's
//! four-input Poseidon over its own state and the call's arguments:
//!
//! ```text
//! packed      = start + 2^32 · count + 2^64 · submitter           (< 2^224, so unique)
//! publicHash  = Poseidon(oldRoot, newRoot, queueHash[start + count - 1], packed)
//! ```
//!
//! Three two-input calls would bind the same, at about 1.2 ms of java-tron's time against the
//! four-input call's 0.7 ms: past TRON's budget once the verification's 62.65 ms are added,
//! on a producer 20% slower than the calibration. Each value is a whole input of the hash:
//! folding one into another's input (say `newRoot + k·submitter`) would let a prover grind a
//! free value into a match far below 128 bits of work, or let a copier pick a root to suit.
//!
//! The submitter's address is bound so a proof seen in the pending pool cannot be sent by
//! someone else to take what a batch earns.
//!
//! ## What the circuit proves
//!
//! A batch fills part of one aligned block of [`BATCH_SIZE`] leaves (a subtree of height
//! `levels`): it never crosses a multiple of the block size, so a partial batch is followed by
//! one that starts mid-block. Privately it holds the block's leaves already in the tree, the
//! new commitments in their slots, the block's siblings up to the root, and the chain value
//! before the batch. With flags `before[j]` (slot `j` was filled, `j < start mod size`) and
//! `upTo[j]` (`j < start mod size + count`), both prefixes:
//!
//! - the old block is the filled slots and the tree's zero leaf after them; the new block is
//!   the old one with the new commitments in the slots `upTo ∧ ¬before`;
//! - both blocks hash up through the same siblings, along the block index's bits, to `oldRoot`
//!   and `newRoot`;
//! - the chain from the private start over the new slots, in slot order, ends at the public
//!   `queueHash`;
//! - `0 < count`, `start mod size + count ≤ size` (the flags are `size` booleans), `start` is
//!   below `2^20` (its block index has `20 − levels` bits), the submitter has 160 bits.
//!
//! The zero leaf and the hash are the live tree's ([`crate::tree::ZERO`], Poseidon t=3).

use std::sync::OnceLock;

use alloy_primitives::U256;
use ark_ff::{BigInteger, PrimeField};
use ark_r1cs_std::fields::fp::FpVar;
use ark_r1cs_std::prelude::*;
use ark_relations::gr1cs::{ConstraintSynthesizer, ConstraintSystemRef, SynthesisError};

use crate::Fr;
use crate::poseidon::{self, gadget};
use crate::r1cs::{self, Matrix, R1cs};
use crate::tree::{DEPTH, MerklePath, MerkleTree, TreeError, ZERO};

/// The default block height: batches of up to 32 deposits.
pub const BATCH_LEVELS: usize = 5;

/// The most deposits one batch inserts, at [`BATCH_LEVELS`].
pub const BATCH_SIZE: usize = 1 << BATCH_LEVELS;

/// TVM addresses are 20 bytes.
const ADDRESS_BITS: usize = 160;

/// What a batch proves, as the pool's `insertBatch` call and state give it. The proof's one
/// public input is their [`public_hash`](BatchPublic::public_hash).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub struct BatchPublic {
    /// The pool's current root.
    pub old_root: Fr,
    /// The root after the batch, pushed into the pool's root history.
    pub new_root: Fr,
    /// The queue chain's value at the batch's last position, `start + count − 1`.
    pub queue_hash: Fr,
    /// The first position inserted: the pool's `nextIndex`.
    pub start: u32,
    pub count: u32,
    /// The sender's 20-byte TVM address as a number: who may send this proof.
    pub submitter: Fr,
}

impl BatchPublic {
    /// `start + 2^32·count + 2^64·submitter`.
    pub fn packed(&self) -> Fr {
        let submitter = crate::field::to_u256(&self.submitter);
        let packed: U256 =
            U256::from(self.start) + (U256::from(self.count) << 32) + (submitter << 64);
        Fr::from_be_bytes_mod_order(&packed.to_be_bytes::<32>())
    }

    /// `Poseidon(oldRoot, newRoot, queueHash, packed)`.
    pub fn public_hash(&self) -> Fr {
        poseidon::hash4(self.old_root, self.new_root, self.queue_hash, self.packed())
    }

    /// The verifier's public inputs: the one hash.
    pub fn instance(&self) -> Vec<Fr> {
        vec![self.public_hash()]
    }
}

/// The queue chain after `commitments`, from `start` (the value before the first of them).
pub fn chain(start: Fr, commitments: &[Fr]) -> Fr {
    commitments
        .iter()
        .fold(start, |acc, commitment| poseidon::hash2(acc, *commitment))
}

/// Why a batch cannot be made.
#[derive(Debug, thiserror::Error, PartialEq, Eq)]
pub enum BatchError {
    #[error("a batch inserts at least one deposit")]
    Empty,
    #[error(
        "a batch of {count} from position {start} would cross the block boundary at {boundary}: \
         a batch fills at most the rest of one block of {size}"
    )]
    CrossesBlock {
        start: u32,
        count: usize,
        size: usize,
        boundary: u64,
    },
    #[error("a block of 2^{levels} leaves does not fit a tree of depth {depth}")]
    BadLevels { levels: usize, depth: usize },
    #[error("the submitter is not a 20-byte address")]
    BadSubmitter,
    #[error(transparent)]
    Tree(#[from] TreeError),
    #[error("the proving key is not for BatchInsert({BATCH_LEVELS}, {DEPTH}): {0}")]
    WrongKey(String),
    #[error("the batch does not hold: constraint {0} of the circuit is not satisfied")]
    Unsatisfied(usize),
    #[error("the prover failed: {0}")]
    Prover(String),
    #[error("the proof does not verify against the key it was made with")]
    SelfCheckFailed,
}

/// Everything the prover knows.
#[derive(Clone, Debug)]
pub struct BatchCircuit {
    /// The block height (the batch holds up to `2^levels`).
    pub levels: usize,
    pub public: BatchPublic,
    /// The queue chain's value before the batch's first position.
    pub chain_start: Fr,
    /// The block's leaves before the batch: the filled slots, then anything (the circuit
    /// puts the zero leaf there).
    pub old_leaves: Vec<Fr>,
    /// The new commitments in the slots they fill; anything in the other slots.
    pub slots: Vec<Fr>,
    /// The block's siblings from its own height to the root's child.
    pub siblings: Vec<Fr>,
}

impl BatchCircuit {
    /// A circuit of the right shape with all-zero values: what a setup needs.
    pub fn blank(levels: usize) -> Self {
        let size = 1 << levels;
        BatchCircuit {
            levels,
            public: BatchPublic {
                count: 1,
                ..BatchPublic::default()
            },
            chain_start: Fr::from(0u64),
            old_leaves: vec![Fr::from(0u64); size],
            slots: vec![Fr::from(0u64); size],
            siblings: vec![Fr::from(0u64); DEPTH.saturating_sub(levels)],
        }
    }

    /// The batch that appends `commitments` to `tree` (a whole tree, or a tail that holds its
    /// last block), whose queue chain stood at `chain_start` before them, sent by
    /// `submitter`. The new root is computed here, not by extending `tree`.
    pub fn new(
        levels: usize,
        tree: &MerkleTree,
        chain_start: Fr,
        commitments: &[Fr],
        submitter: Fr,
    ) -> Result<Self, BatchError> {
        let depth = tree.depth();
        if depth != DEPTH || levels == 0 || levels > depth {
            return Err(BatchError::BadLevels { levels, depth });
        }
        if crate::field::to_u256(&submitter).bit_len() > ADDRESS_BITS {
            return Err(BatchError::BadSubmitter);
        }
        let size = 1usize << levels;
        let start = tree.len();
        let count = commitments.len();
        if count == 0 {
            return Err(BatchError::Empty);
        }
        let offset = start % size;
        if offset + count > size {
            return Err(BatchError::CrossesBlock {
                start: start as u32,
                count,
                size,
                boundary: (start - offset + size) as u64,
            });
        }
        if start + count > tree.capacity() {
            return Err(TreeError::Full {
                depth,
                capacity: tree.capacity(),
            }
            .into());
        }
        let block = start >> levels;
        let first = start - offset;
        let mut old_leaves = vec![ZERO; size];
        for (j, leaf) in old_leaves.iter_mut().enumerate().take(offset) {
            let index = (first + j) as u32;
            *leaf = tree.leaf(index).ok_or(TreeError::NotHeld {
                level: 0,
                index: index as usize,
            })?;
        }
        let mut slots = vec![ZERO; size];
        slots[offset..offset + count].copy_from_slice(commitments);
        let new_leaves: Vec<Fr> = (0..size)
            .map(|j| if j < offset { old_leaves[j] } else { slots[j] })
            .collect();
        // The block's path to the root: its siblings, its index's bits.
        let above = MerklePath {
            siblings: tree.siblings_above(levels, block)?,
            index: block as u32,
        };
        let new_root = above.root(block_root(&new_leaves));
        debug_assert_eq!(
            above.root(block_root(&old_leaves)),
            tree.root(),
            "the tree's own nodes make its root"
        );
        Ok(BatchCircuit {
            levels,
            public: BatchPublic {
                old_root: tree.root(),
                new_root,
                queue_hash: chain(chain_start, commitments),
                start: start as u32,
                count: count as u32,
                submitter,
            },
            chain_start,
            old_leaves,
            slots,
            siblings: above.siblings,
        })
    }
}

/// The root of a block's leaves.
fn block_root(leaves: &[Fr]) -> Fr {
    let mut level = leaves.to_vec();
    while level.len() > 1 {
        level = level
            .chunks_exact(2)
            .map(|pair| poseidon::hash2(pair[0], pair[1]))
            .collect();
    }
    level[0]
}

/// The root of a block in the circuit.
fn block_root_var(leaves: Vec<FpVar<Fr>>) -> Result<FpVar<Fr>, SynthesisError> {
    let mut level = leaves;
    while level.len() > 1 {
        level = level
            .chunks_exact(2)
            .map(|pair| gadget::hash2(&pair[0], &pair[1]))
            .collect::<Result<_, _>>()?;
    }
    Ok(level.swap_remove(0))
}

/// `a · (1 − b) = 0`: flag `a` set only where flag `b` is.
fn enforce_implies(a: &Boolean<Fr>, b: &Boolean<Fr>) -> Result<(), SynthesisError> {
    let a = FpVar::from(a.clone());
    let not_b = FpVar::one() - FpVar::from(b.clone());
    a.mul_equals(&not_b, &FpVar::zero())
}

/// Allocates `value` (below `2^bits`) as `bits` boolean witnesses and returns them with their
/// weighted sum.
fn bits_witness(
    cs: &ConstraintSystemRef<Fr>,
    value: Fr,
    bits: usize,
) -> Result<(Vec<Boolean<Fr>>, FpVar<Fr>), SynthesisError> {
    let le = value.into_bigint().to_bits_le();
    let vars = (0..bits)
        .map(|i| Boolean::new_witness(cs.clone(), || Ok(le[i])))
        .collect::<Result<Vec<_>, _>>()?;
    let sum = Boolean::le_bits_to_fp(&vars)?;
    Ok((vars, sum))
}

/// A prefix of `size` flags, `count` of them set: booleans, each set only if the one before
/// is. Returns them with their sum (the prefix's length).
fn prefix_flags(
    cs: &ConstraintSystemRef<Fr>,
    size: usize,
    count: usize,
) -> Result<(Vec<Boolean<Fr>>, FpVar<Fr>), SynthesisError> {
    let flags = (0..size)
        .map(|j| Boolean::new_witness(cs.clone(), || Ok(j < count)))
        .collect::<Result<Vec<_>, _>>()?;
    for pair in flags.windows(2) {
        enforce_implies(&pair[1], &pair[0])?;
    }
    let sum = flags
        .iter()
        .fold(FpVar::zero(), |sum, flag| sum + FpVar::from(flag.clone()));
    Ok((flags, sum))
}

impl ConstraintSynthesizer<Fr> for BatchCircuit {
    fn generate_constraints(self, cs: ConstraintSystemRef<Fr>) -> Result<(), SynthesisError> {
        let levels = self.levels;
        let size = 1usize << levels;
        let p = self.public;
        let public_hash = FpVar::new_input(cs.clone(), || Ok(p.public_hash()))?;

        // Where the batch goes: `start = offset + size · block`, the offset a prefix of
        // filled slots and the block index `DEPTH − levels` bits.
        let offset = p.start as usize % size;
        let (before, offset_var) = prefix_flags(&cs, size, offset)?;
        let (up_to, end_var) = prefix_flags(&cs, size, offset + p.count as usize)?;
        for (b, u) in before.iter().zip(&up_to) {
            enforce_implies(b, u)?;
        }
        let (block_bits, block_var) =
            bits_witness(&cs, Fr::from(p.start as u64 >> levels), DEPTH - levels)?;
        let start_var = offset_var.clone() + block_var * Fr::from(size as u64);
        let count_var = end_var - offset_var;
        count_var.enforce_not_equal(&FpVar::zero())?;
        let (_, submitter_var) = bits_witness(&cs, p.submitter, ADDRESS_BITS)?;
        let packed =
            start_var + count_var * Fr::from(1u64 << 32) + submitter_var * Fr::from(1u128 << 64);

        // The blocks before and after, and the chain over the new slots.
        let zero = FpVar::constant(ZERO);
        let mut chain_var = FpVar::new_witness(cs.clone(), || Ok(self.chain_start))?;
        let mut old_leaves = Vec::with_capacity(size);
        let mut new_leaves = Vec::with_capacity(size);
        for j in 0..size {
            let filled = FpVar::from(before[j].clone());
            let new = FpVar::from(up_to[j].clone()) - &filled;
            let leaf = FpVar::new_witness(cs.clone(), || Ok(self.old_leaves[j]))?;
            let slot = FpVar::new_witness(cs.clone(), || Ok(self.slots[j]))?;
            let old = &zero + filled * (leaf - &zero);
            // A new slot was empty before, so `old` is the zero leaf there.
            let added = &new * (&slot - &zero);
            new_leaves.push(&old + added);
            old_leaves.push(old);
            let next = gadget::hash2(&chain_var, &slot)?;
            chain_var = &chain_var + new * (next - &chain_var);
        }
        let mut old_root = block_root_var(old_leaves)?;
        let mut new_root = block_root_var(new_leaves)?;
        for (bit, sibling) in block_bits.iter().zip(&self.siblings) {
            let sibling = FpVar::new_witness(cs.clone(), || Ok(*sibling))?;
            for node in [&mut old_root, &mut new_root] {
                let left = bit.select(&sibling, node)?;
                let right = bit.select(node, &sibling)?;
                *node = gadget::hash2(&left, &right)?;
            }
        }

        let bound = gadget::hash4([&old_root, &new_root, &chain_var, &packed])?;
        bound.enforce_equal(&public_hash)?;
        Ok(())
    }
}

/// The circuit's constraint system at the default block ([`BATCH_LEVELS`]), synthesized once
/// per process.
pub fn constraint_system() -> &'static R1cs {
    static R1CS: OnceLock<R1cs> = OnceLock::new();
    R1CS.get_or_init(|| {
        r1cs::synthesize(BatchCircuit::blank(BATCH_LEVELS))
            .expect("the blank batch circuit synthesizes")
    })
}

/// Its matrices, made once per process, for a prover that is handed them.
pub fn constraint_matrices() -> &'static [Matrix; 3] {
    static MATRICES: OnceLock<[Matrix; 3]> = OnceLock::new();
    MATRICES.get_or_init(|| r1cs::matrices(constraint_system()))
}

/// The circuit's `.r1cs` file, for snarkjs.
pub fn r1cs_file() -> Vec<u8> {
    r1cs::encode_r1cs(constraint_system())
}

/// The `.wtns` file of a concrete batch, for `snarkjs wtns check` and `groth16 prove`.
pub fn wtns_file(circuit: BatchCircuit) -> Result<Vec<u8>, SynthesisError> {
    Ok(r1cs::encode_wtns(&r1cs::full_assignment(circuit)?))
}

/// The seed of the batch circuit's insecure development setup: public, like the withdraw
/// circuit's (`crate::keys::INSECURE_DEV_SEED`), so keys made from it must never guard money.
pub const INSECURE_DEV_SEED: &[u8] = b"tronpool insecure development setup, BatchInsert(5, 20) v1";

/// SHA-256 of the development setup's verifying key (`keys::verifying_key_bytes`), so a
/// deployment that pins it is recognized without running the setup (a test keeps it equal).
pub const INSECURE_DEV_VK_SHA256: &str =
    "64cbfcbd6fcfa116db1bb4fbea3b2bcbe25a76a60f39e2d422ad533eec3962c0";

/// The development setup's verifying key (`keys::verifying_key_bytes`, hex), so a devnet's
/// genesis deploys the batch verifier without the seconds of setup the proving key takes (a
/// test keeps it equal to `batch_proof::insecure_dev_keys`'s).
pub const INSECURE_DEV_VERIFYING_KEY_HEX: &str = concat!(
    "caf93d956fe151d86c4c18098a41e8831d1717f40813decb30726ad0242271152cdaeb3411ba6a3d",
    "501a9a450db323ea38dfec494b003484ccb10fea5f50650002d7045fa08e5d05c284e9a75f232b99",
    "e323552f3a319b29feab85207c6bde2a5135402c1680e0560e7b9a7201bfa346016bb64f05e49d11",
    "e4f713b8f8b74d26e639c969ff932ed75dc96b59667736794e1131175782b7eaa1c238245c69328d",
    "102f02b05b166815362a5eb2062198926a770895712debb54d78db0495da79161fadef17a34b741a",
    "0b44d96f2430ffba2dad5cca158d37a2586b9f1c735399a4020000000000000037bb0e45ce87681c",
    "a02727bc0c17ec18a933255c64db27a5a462da7ded479292a3500d25d1e8d8d0803bdb2b65f568a8",
    "6f894cdab580182919bd8aada8a69810",
);

#[cfg(test)]
mod tests {
    use super::*;
    use ark_relations::gr1cs::ConstraintSystem;

    fn satisfied(circuit: BatchCircuit) -> bool {
        // A witness the gadgets cannot even compute (count = 0 has no inverse) is refused too.
        let cs = ConstraintSystem::<Fr>::new_ref();
        circuit.generate_constraints(cs.clone()).is_ok() && cs.is_satisfied().unwrap()
    }

    fn leaves(from: u64, count: usize) -> Vec<Fr> {
        (0..count as u64)
            .map(|i| poseidon::hash2(Fr::from(7u64), Fr::from(from + i)))
            .collect()
    }

    const SUBMITTER: u64 = 0x41_4242;

    #[test]
    fn constraint_count() {
        let cs = ConstraintSystem::<Fr>::new_ref();
        BatchCircuit::blank(BATCH_LEVELS)
            .generate_constraints(cs.clone())
            .unwrap();
        assert_eq!(cs.num_instance_variables(), 2);
        let size = BATCH_SIZE;
        let above = DEPTH - BATCH_LEVELS;
        let hashes = size + 2 * (size - 1) + 2 * above;
        let binding = (8 * 5 + 60 - 1) * 3;
        // Per slot: two flags (booleanity), their links (each prefix's, and before ⇒ upTo),
        // the old and the new leaf and the chain's select. Per level above the block: the
        // index bit and two selects per node. The submitter's bits (their sum, like the
        // block index's, is linear), count ≠ 0 and the final equality.
        let flags = 2 * size + 2 * (size - 1) + size;
        let slots = 3 * size;
        let path = above * (1 + 4);
        let rest = ADDRESS_BITS + 1 + 1;
        assert_eq!(
            cs.num_constraints(),
            hashes * 240 + binding + flags + slots + path + rest
        );
        assert_eq!(cs.num_constraints(), 30_548);
    }

    #[test]
    fn a_batch_gives_the_root_the_tree_gets() {
        // Whole blocks, a first partial batch, one that starts mid-block, one that ends a
        // block, and one in the next block.
        let mut tree = MerkleTree::new();
        let mut chain_value = Fr::from(0u64);
        let mut next = 0u64;
        for count in [1usize, 31, 32, 5, 3, 24, 7] {
            let commitments = leaves(next, count);
            let circuit = BatchCircuit::new(
                BATCH_LEVELS,
                &tree,
                chain_value,
                &commitments,
                Fr::from(SUBMITTER),
            )
            .unwrap();
            let public = circuit.public;
            assert_eq!(public.start as u64, next);
            assert_eq!(public.old_root, tree.root());
            tree.extend(&commitments).unwrap();
            assert_eq!(public.new_root, tree.root(), "batch of {count} at {next}");
            chain_value = chain(chain_value, &commitments);
            assert_eq!(public.queue_hash, chain_value);
            assert!(satisfied(circuit), "batch of {count} at {next}");
            next += count as u64;
        }
    }

    fn tree_of(count: usize) -> (MerkleTree, Fr) {
        let existing = leaves(0, count);
        (
            MerkleTree::from_leaves(&existing).unwrap(),
            chain(Fr::from(0u64), &existing),
        )
    }

    #[test]
    fn a_batch_that_cannot_be_made_is_refused_before_proving() {
        let (tree, start) = tree_of(30);
        let submitter = Fr::from(SUBMITTER);
        assert_eq!(
            BatchCircuit::new(BATCH_LEVELS, &tree, start, &[], submitter).unwrap_err(),
            BatchError::Empty
        );
        assert!(matches!(
            BatchCircuit::new(BATCH_LEVELS, &tree, start, &leaves(30, 3), submitter),
            Err(BatchError::CrossesBlock { boundary: 32, .. })
        ));
        let wide = Fr::from_be_bytes_mod_order(&(U256::from(1u64) << 160usize).to_be_bytes::<32>());
        assert_eq!(
            BatchCircuit::new(BATCH_LEVELS, &tree, start, &leaves(30, 2), wide).unwrap_err(),
            BatchError::BadSubmitter
        );
        assert!(BatchCircuit::new(BATCH_LEVELS, &tree, start, &leaves(30, 2), submitter).is_ok());
    }

    /// An honest batch of 3 at 37 (mid-block), for the tampering tests.
    fn honest() -> BatchCircuit {
        let (tree, start) = tree_of(37);
        BatchCircuit::new(
            BATCH_LEVELS,
            &tree,
            start,
            &leaves(37, 3),
            Fr::from(SUBMITTER),
        )
        .unwrap()
    }

    #[test]
    fn a_false_batch_does_not_satisfy_the_circuit() {
        assert!(satisfied(honest()));
        let offset = 37 % BATCH_SIZE;

        // The queue's commitments reordered, one skipped, or another put in.
        let mut reordered = honest();
        reordered.slots.swap(offset, offset + 1);
        assert!(!satisfied(reordered), "reordered");
        let mut skipped = honest();
        skipped.slots[offset] = skipped.slots[offset + 1];
        skipped.slots[offset + 1] = skipped.slots[offset + 2];
        skipped.slots[offset + 2] = leaves(40, 1)[0];
        assert!(!satisfied(skipped), "skipped");
        let mut swapped_in = honest();
        swapped_in.slots[offset + 1] = Fr::from(99u64);
        assert!(!satisfied(swapped_in), "another commitment");

        // The public values the pool supplies, each wrong.
        let mut wrong_root = honest();
        wrong_root.public.old_root = tree_of(36).0.root();
        assert!(!satisfied(wrong_root), "an old root");
        let mut wrong_new = honest();
        wrong_new.public.new_root += Fr::from(1u64);
        assert!(!satisfied(wrong_new), "a new root");
        let mut more = honest();
        more.public.count = 4;
        assert!(!satisfied(more), "a count beyond what is proved");
        let mut fewer = honest();
        fewer.public.count = 2;
        assert!(!satisfied(fewer), "a count short of what is proved");
        let mut elsewhere = honest();
        elsewhere.public.start = 36;
        assert!(!satisfied(elsewhere), "another position");
        let mut other_block = honest();
        other_block.public.start = 37 + BATCH_SIZE as u32;
        assert!(!satisfied(other_block), "the same offset in another block");
        let mut chain_end = honest();
        chain_end.public.queue_hash = chain(chain_end.public.queue_hash, &[Fr::from(1u64)]);
        assert!(!satisfied(chain_end), "another queue position's hash");

        // An old leaf the tree does not have.
        let mut leaf = honest();
        leaf.old_leaves[offset - 1] = Fr::from(5u64);
        assert!(!satisfied(leaf), "an old leaf changed");
    }

    #[test]
    fn a_batch_of_nothing_or_past_its_block_has_no_witness() {
        // count = 0: the flags can only say so, and the circuit refuses it.
        let mut empty = honest();
        empty.public.count = 0;
        empty.public.queue_hash = empty.chain_start;
        assert!(!satisfied(empty), "an empty batch");
        // offset 30 + count 3 needs 33 flags of 32: the last commitment has no slot, so the
        // circuit cannot make the count the pool names.
        let (tree, start) = tree_of(30);
        let mut past = BatchCircuit::new(
            BATCH_LEVELS,
            &tree,
            start,
            &leaves(30, 2),
            Fr::from(SUBMITTER),
        )
        .unwrap();
        past.public.count = 3;
        past.public.queue_hash = chain(start, &leaves(30, 3));
        assert!(!satisfied(past), "a batch across the block boundary");
    }
}
