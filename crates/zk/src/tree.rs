//! The pool's Merkle tree of deposit commitments, as the client rebuilds it from `Deposit`
//! events, to prove that a note's commitment is *some* leaf without saying which.
//!
//! The roots must be bit-identical to the contract's (tornado-core's `MerkleTreeWithHistory`):
//! nodes are [`hash2`]`(left, right)`, a missing subtree at level `i` is [`zeros`]`()[i]`, and
//! leaves fill up from index 0. The contract only keeps the frontier; we keep every level,
//! because a prover needs the sibling path of an arbitrary (usually old) leaf, and a relayer or
//! indexer serves many such paths; re-hashing a million leaves per path (~15 s) is not an
//! option, keeping every node (~64 MB at 2^20 leaves) is.

use std::fmt;
use std::sync::OnceLock;

use ark_ff::MontFp;
use rayon::prelude::*;

use crate::Fr;
use crate::field::{self, FieldError};
use crate::poseidon::hash2;

/// The depth of every tronpool tree: 2^20 (about a million) deposits per pool, 20 Poseidon
/// hashes per on-chain insert (the dominant energy cost of a deposit: about 245k of its 355k
/// energy, see BENCHMARKS.md), and the `Withdraw(20)` circuit's path length.
pub const DEPTH: usize = 20;

/// What [`ZERO`] is derived from: `keccak256(ZERO_TAG) mod r`.
pub const ZERO_TAG: &[u8] = b"tronpool";

/// The value of an empty leaf: `keccak256("tronpool") mod r`
/// (`0x1650b105aa4710fa13476f6753c8bb214a688a150fe64fe946d317d60dc5db0b`).
///
/// It only has to be a field element nobody can open as a commitment (a hash output nobody
/// chose), and project-specific so a tornado-core table is never mistaken for ours. It is a
/// pinned constant rather than computed here: the contract hard-codes the same number, so the
/// derivation (keccak, then the one reduction mod r in this crate, since keccak's output is ≥
/// r) is checked by a test against an independent Keccak instead of being trusted at run time.
pub const ZERO: Fr =
    MontFp!("10093452195849571126427406160204504389679029695594962762283317876457839385355");

/// The root of an empty subtree of each height: `zeros()[0] = ZERO`,
/// `zeros()[i + 1] = hash2(zeros()[i], zeros()[i])`, so `zeros()[DEPTH]` is the empty root.
///
/// Exposed because the contract hard-codes the same table (its `zeros(i)`), and a test on the
/// contract side should compare against this one rather than a copy.
pub fn zeros() -> &'static [Fr; DEPTH + 1] {
    static ZEROS: OnceLock<[Fr; DEPTH + 1]> = OnceLock::new();
    ZEROS.get_or_init(|| zero_chain(ZERO))
}

/// The root of the empty depth-[`DEPTH`] tree
/// (`0x2cc4d3ec97f54f0a4241bb83db7eac052bf3d4296343d08294c2da46602238f1`).
pub fn empty_root() -> Fr {
    zeros()[DEPTH]
}

fn zero_chain(zero: Fr) -> [Fr; DEPTH + 1] {
    let mut table = [zero; DEPTH + 1];
    for i in 0..DEPTH {
        table[i + 1] = hash2(table[i], table[i]);
    }
    table
}

#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum TreeError {
    #[error("the Merkle tree is full: a depth-{depth} tree holds {capacity} leaves")]
    Full { depth: usize, capacity: usize },
    #[error("leaf {index} does not exist: the tree has {len} leaves")]
    NoSuchLeaf { index: u32, len: usize },
    #[error("unsupported tree depth {depth}: it must be 1 to {DEPTH}")]
    UnsupportedDepth { depth: usize },
    #[error(transparent)]
    Field(#[from] FieldError),
    #[error("not a tronpool tree state (it does not start with \"TPTREE\")")]
    BadMagic,
    #[error("unsupported tree state version {found} (this build reads version {STATE_VERSION})")]
    UnsupportedVersion { found: u8 },
    #[error("the tree state is truncated: {found} bytes, expected {expected}")]
    Truncated { expected: u64, found: usize },
    #[error("the tree state has {extra} unexpected bytes after the root")]
    TrailingBytes { extra: u64 },
    #[error("the tree state holds {count} leaves, more than a depth-{depth} tree can")]
    TooManyLeaves { count: u32, depth: usize },
    #[error("the tree state is corrupt: its leaves give root {computed}, but it records {stored}")]
    RootMismatch { stored: String, computed: String },
    #[error("the tree cache is damaged: level {level} holds {found} nodes where {expected} belong")]
    BadShape {
        level: usize,
        expected: usize,
        found: usize,
    },
    #[error("the tree cache is damaged: node {index} of level {level} is not its children's hash")]
    NotItsChildrensHash { level: usize, index: usize },
}

/// Below this many nodes per rayon task, splitting costs more than it gains (a hash is
/// ~10–30 µs, a task hand-off ~1 µs).
const PAR_MIN_LEN: usize = 64;

/// An append-only Merkle tree holding every node.
///
/// `levels[0]` are the leaves, `levels[l]` the `ceil(len / 2^l)` nodes of height `l` that have
/// at least one real leaf below them (a node whose right child does not exist yet is hashed with
/// `zeros()[l]`, exactly as the contract does), and `levels[depth]` is `[root]` once a leaf
/// exists. Nodes covering only empty leaves are never stored: they are `zeros()[l]`.
#[derive(Clone, PartialEq, Eq)]
pub struct MerkleTree {
    depth: usize,
    levels: Vec<Vec<Fr>>,
}

impl Default for MerkleTree {
    fn default() -> Self {
        Self::new()
    }
}

impl fmt::Debug for MerkleTree {
    /// The leaves can be a million lines; the shape and root identify a tree well enough.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("MerkleTree")
            .field("depth", &self.depth)
            .field("len", &self.len())
            .field("root", &field::to_hex(&self.root()))
            .finish()
    }
}

impl MerkleTree {
    /// An empty depth-[`DEPTH`] tree, the shape of every pool.
    pub fn new() -> Self {
        Self::empty(DEPTH)
    }

    /// An empty tree of another depth (1 to [`DEPTH`]), for tests that need to fill a tree or
    /// cross a boundary cheaply. Same zero table, so it matches a contract built with
    /// `levels = depth`.
    pub fn with_depth(depth: usize) -> Result<Self, TreeError> {
        if !(1..=DEPTH).contains(&depth) {
            return Err(TreeError::UnsupportedDepth { depth });
        }
        Ok(Self::empty(depth))
    }

    /// A depth-[`DEPTH`] tree holding `leaves`, built in parallel.
    pub fn from_leaves(leaves: &[Fr]) -> Result<Self, TreeError> {
        let mut tree = Self::new();
        tree.extend(leaves)?;
        Ok(tree)
    }

    fn empty(depth: usize) -> Self {
        Self {
            depth,
            levels: vec![Vec::new(); depth + 1],
        }
    }

    pub fn depth(&self) -> usize {
        self.depth
    }

    /// 2^depth leaves.
    pub fn capacity(&self) -> usize {
        1 << self.depth
    }

    /// The number of leaves, which is also the index the next one gets (the contract's
    /// `nextIndex`).
    pub fn len(&self) -> usize {
        self.levels[0].len()
    }

    pub fn is_empty(&self) -> bool {
        self.levels[0].is_empty()
    }

    pub fn leaf(&self, index: u32) -> Option<Fr> {
        self.levels[0].get(index as usize).copied()
    }

    pub fn leaves(&self) -> &[Fr] {
        &self.levels[0]
    }

    /// The index of the first leaf equal to `leaf`: how a wallet finds its deposit when it only
    /// kept the note. A linear scan (a few ms at 2^20 leaves); the contract refuses duplicate
    /// commitments, so the first is the only one.
    pub fn index_of(&self, leaf: &Fr) -> Option<u32> {
        self.levels[0]
            .iter()
            .position(|l| l == leaf)
            .map(|i| i as u32)
    }

    /// The current root; `zeros()[depth]` while empty.
    pub fn root(&self) -> Fr {
        self.levels[self.depth]
            .first()
            .copied()
            .unwrap_or(zeros()[self.depth])
    }

    /// Appends one leaf and returns its index, hashing `depth` nodes on the way up (the
    /// contract's `_insert`, but writing every node instead of only the frontier).
    pub fn insert(&mut self, leaf: Fr) -> Result<u32, TreeError> {
        let index = self.len();
        if index >= self.capacity() {
            return Err(self.full());
        }
        self.levels[0].push(leaf);
        let mut i = index;
        let mut node = leaf;
        for level in 0..self.depth {
            // The new leaf is the last one, so at every level its node is the last node and an
            // even one has no right sibling yet.
            node = if i & 1 == 0 {
                hash2(node, zeros()[level])
            } else {
                hash2(self.levels[level][i - 1], node)
            };
            i >>= 1;
            let parents = &mut self.levels[level + 1];
            if i < parents.len() {
                parents[i] = node;
            } else {
                parents.push(node);
            }
        }
        Ok(index as u32)
    }

    /// Appends a commitment as it appears in a `Deposit` event or a database (`bytes32`,
    /// big-endian).
    ///
    /// Refuses a word ≥ r instead of reducing it: the contract refuses such a leaf in
    /// `hashLeftRight`, so a source that yields one is broken or lying, and reducing would
    /// silently compute a root the contract never had.
    pub fn insert_commitment_bytes(&mut self, commitment: &[u8; 32]) -> Result<u32, TreeError> {
        let leaf = field::from_be_bytes(commitment, "commitment")?;
        self.insert(leaf)
    }

    /// Appends many leaves at once and returns the index of the first, giving exactly the tree
    /// that inserting them one by one would.
    ///
    /// One by one, a batch of n leaves costs n × depth hashes; here each changed node is hashed
    /// once (≈ 2n + depth), and every level's changed nodes are independent of each other, so
    /// they are spread over all cores with rayon. That is what makes a first sync of a busy
    /// pool, or loading a cached tree, take seconds instead of minutes. All or nothing: a batch
    /// that does not fit leaves the tree unchanged.
    pub fn extend(&mut self, leaves: &[Fr]) -> Result<u32, TreeError> {
        let start = self.len();
        if leaves.len() > self.capacity() - start {
            return Err(self.full());
        }
        if leaves.is_empty() {
            return Ok(start as u32);
        }
        self.levels[0].extend_from_slice(leaves);
        // `first` is the first node of `level` that changed; every node after it changed too.
        let mut first = start;
        for level in 0..self.depth {
            let zero = zeros()[level];
            let (below, above) = self.levels.split_at_mut(level + 1);
            let children = &below[level];
            let parents = &mut above[0];
            first /= 2;
            // The old last parent may have been hashed with a zero right child that now exists,
            // so everything from `first` is recomputed rather than patched.
            parents.truncate(first);
            parents.par_extend(
                (first..children.len().div_ceil(2))
                    .into_par_iter()
                    .with_min_len(PAR_MIN_LEN)
                    .map(|p| {
                        hash2(
                            children[2 * p],
                            children.get(2 * p + 1).copied().unwrap_or(zero),
                        )
                    }),
            );
        }
        Ok(start as u32)
    }

    /// The sibling path of leaf `index`, for the withdraw proof.
    pub fn path(&self, index: u32) -> Result<MerklePath, TreeError> {
        let i = index as usize;
        if i >= self.len() {
            return Err(TreeError::NoSuchLeaf {
                index,
                len: self.len(),
            });
        }
        let siblings = (0..self.depth)
            .map(|level| {
                self.levels[level]
                    .get((i >> level) ^ 1)
                    .copied()
                    .unwrap_or(zeros()[level])
            })
            .collect();
        Ok(MerklePath { siblings, index })
    }

    fn full(&self) -> TreeError {
        TreeError::Full {
            depth: self.depth,
            capacity: self.capacity(),
        }
    }
}

impl MerkleTree {
    /// The nodes of height `level` that have a real leaf below them: the leaves at 0, the root
    /// alone at [`depth`](Self::depth) (none while the tree is empty).
    pub fn level(&self, level: usize) -> &[Fr] {
        &self.levels[level]
    }

    /// A tree from its levels as [`level`](Self::level) gives them, for a cache that keeps
    /// them in pieces and rewrites only the pieces a sync changed. The shape must be what
    /// `levels[0].len()` leaves give, and the right edge is hashed again (one hash a level),
    /// so pieces of two different trees, or of a tree and a longer one, are refused. Other
    /// nodes are taken as they are: the caller compares the root with the chain, and the
    /// prover checks each path against that root.
    pub fn from_levels(depth: usize, levels: Vec<Vec<Fr>>) -> Result<Self, TreeError> {
        let mut tree = Self::with_depth(depth)?;
        if levels.len() != depth + 1 {
            return Err(TreeError::BadShape {
                level: levels.len().min(depth + 1),
                expected: depth + 1,
                found: levels.len(),
            });
        }
        let count = levels[0].len();
        if count > tree.capacity() {
            return Err(tree.full());
        }
        for (level, nodes) in levels.iter().enumerate() {
            let expected = count.div_ceil(1 << level);
            if nodes.len() != expected {
                return Err(TreeError::BadShape {
                    level,
                    expected,
                    found: nodes.len(),
                });
            }
        }
        for level in 0..depth {
            let (children, parents) = (&levels[level], &levels[level + 1]);
            let Some(last) = parents.len().checked_sub(1) else {
                break;
            };
            let right = children
                .get(2 * last + 1)
                .copied()
                .unwrap_or(zeros()[level]);
            if hash2(children[2 * last], right) != parents[last] {
                return Err(TreeError::NotItsChildrensHash {
                    level: level + 1,
                    index: last,
                });
            }
        }
        tree.levels = levels;
        Ok(tree)
    }
}

/// The proof that a leaf is in a tree with a given root: what the circuit takes privately.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct MerklePath {
    /// `siblings[l]` is the other child at height `l` on the way from the leaf to the root.
    pub siblings: Vec<Fr>,
    /// The leaf's index; bit `l` says whether the path's node at height `l` is a right child
    /// (`1`: `hash2(sibling, node)`) or a left one (`0`: `hash2(node, sibling)`), the circuit's
    /// `pathIndices`.
    pub index: u32,
}

impl MerklePath {
    pub fn depth(&self) -> usize {
        self.siblings.len()
    }

    /// Bit `l` of the index, level 0 first: `true` where the node is the right child.
    pub fn bits(&self) -> Vec<bool> {
        (0..self.depth())
            .map(|level| (self.index >> level) & 1 == 1)
            .collect()
    }

    /// The root `leaf` hashes up to along this path, as the circuit computes it.
    pub fn root(&self, leaf: Fr) -> Fr {
        self.siblings
            .iter()
            .zip(self.bits())
            .fold(leaf, |node, (sibling, is_right)| {
                if is_right {
                    hash2(*sibling, node)
                } else {
                    hash2(node, *sibling)
                }
            })
    }
}

const MAGIC: &[u8; 6] = b"TPTREE";
const STATE_VERSION: u8 = 1;
/// magic (6) ‖ version (1) ‖ depth (1) ‖ leaf count (4, big-endian).
const HEADER_LEN: usize = 12;

impl MerkleTree {
    /// A compact snapshot, so a client resumes syncing where it stopped instead of replaying
    /// every `Deposit` event: `"TPTREE" ‖ version u8 ‖ depth u8 ‖ leaf count u32 BE ‖
    /// leaves (32-byte BE words) ‖ root (32-byte BE)`.
    ///
    /// Only the leaves are stored (32 B each; the inner nodes would triple the size and are
    /// rebuilt in parallel by [`from_bytes`](Self::from_bytes)). The trailing root is the
    /// checksum: any damaged leaf changes it, and it is also what a client compares with the
    /// contract's `getLastRoot()`.
    pub fn to_bytes(&self) -> Vec<u8> {
        let mut out = Vec::with_capacity(HEADER_LEN + 32 * (self.len() + 1));
        out.extend_from_slice(MAGIC);
        out.push(STATE_VERSION);
        out.push(self.depth as u8);
        out.extend_from_slice(&(self.len() as u32).to_be_bytes());
        for leaf in self.leaves() {
            out.extend_from_slice(&field::to_be_bytes(leaf));
        }
        out.extend_from_slice(&field::to_be_bytes(&self.root()));
        out
    }

    /// Rebuilds a tree from [`to_bytes`](Self::to_bytes) with [`extend`](Self::extend) and checks
    /// the recorded root, so a damaged cache is an error rather than a proof against a root the
    /// contract never had.
    pub fn from_bytes(bytes: &[u8]) -> Result<Self, TreeError> {
        let magic_len = bytes.len().min(MAGIC.len());
        if bytes[..magic_len] != MAGIC[..magic_len] {
            return Err(TreeError::BadMagic);
        }
        if bytes.len() < HEADER_LEN {
            return Err(TreeError::Truncated {
                expected: HEADER_LEN as u64,
                found: bytes.len(),
            });
        }
        let version = bytes[6];
        if version != STATE_VERSION {
            return Err(TreeError::UnsupportedVersion { found: version });
        }
        let mut tree = Self::with_depth(bytes[7] as usize)?;
        let count = u32::from_be_bytes(bytes[8..12].try_into().expect("4 bytes"));
        if count as u64 > tree.capacity() as u64 {
            return Err(TreeError::TooManyLeaves {
                count,
                depth: tree.depth,
            });
        }
        let expected = HEADER_LEN as u64 + 32 * (count as u64 + 1);
        let found = bytes.len() as u64;
        if found < expected {
            return Err(TreeError::Truncated {
                expected,
                found: bytes.len(),
            });
        }
        if found > expected {
            return Err(TreeError::TrailingBytes {
                extra: found - expected,
            });
        }
        let words: Vec<&[u8; 32]> = bytes[HEADER_LEN..]
            .chunks_exact(32)
            .map(|w| w.try_into().expect("32-byte chunks"))
            .collect();
        let (stored_root, leaf_words) = words.split_last().expect("the root word is there");
        let leaves = leaf_words
            .iter()
            .enumerate()
            .map(|(i, w)| field::from_be_bytes(w, &format!("leaf {i} of the tree state")))
            .collect::<Result<Vec<Fr>, _>>()?;
        let stored = field::from_be_bytes(stored_root, "the tree state's root")?;
        tree.extend(&leaves)?;
        let computed = tree.root();
        if computed != stored {
            return Err(TreeError::RootMismatch {
                stored: field::to_hex(&stored),
                computed: field::to_hex(&computed),
            });
        }
        Ok(tree)
    }
}

/// Serialized as the [`to_bytes`](MerkleTree::to_bytes) snapshot: `0x`-hex in human-readable
/// formats (JSON, TOML), raw bytes otherwise. Deserializing verifies it like
/// [`from_bytes`](MerkleTree::from_bytes).
impl serde::Serialize for MerkleTree {
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        let bytes = self.to_bytes();
        if serializer.is_human_readable() {
            serializer.serialize_str(&format!("0x{}", hex::encode(bytes)))
        } else {
            serializer.serialize_bytes(&bytes)
        }
    }
}

impl<'de> serde::Deserialize<'de> for MerkleTree {
    fn deserialize<D: serde::Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        struct Visitor;
        impl<'de> serde::de::Visitor<'de> for Visitor {
            type Value = MerkleTree;

            fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                f.write_str("a tronpool tree state (TPTREE bytes, or them as 0x-hex)")
            }

            fn visit_str<E: serde::de::Error>(self, s: &str) -> Result<MerkleTree, E> {
                let digits = s.strip_prefix("0x").unwrap_or(s);
                let bytes = hex::decode(digits)
                    .map_err(|e| E::custom(format!("the tree state is not hex: {e}")))?;
                self.visit_bytes(&bytes)
            }

            fn visit_bytes<E: serde::de::Error>(self, bytes: &[u8]) -> Result<MerkleTree, E> {
                MerkleTree::from_bytes(bytes).map_err(E::custom)
            }

            fn visit_seq<A: serde::de::SeqAccess<'de>>(
                self,
                mut seq: A,
            ) -> Result<MerkleTree, A::Error> {
                let mut bytes = Vec::with_capacity(seq.size_hint().unwrap_or(0));
                while let Some(b) = seq.next_element::<u8>()? {
                    bytes.push(b);
                }
                self.visit_bytes(&bytes)
            }
        }
        if deserializer.is_human_readable() {
            deserializer.deserialize_str(Visitor)
        } else {
            deserializer.deserialize_bytes(Visitor)
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use ark_ff::PrimeField;
    use rand_chacha::ChaCha8Rng;
    use rand_core::{RngCore, SeedableRng};

    fn hex_of(x: &Fr) -> String {
        field::to_hex(x)
    }

    #[test]
    fn a_tree_comes_back_from_its_levels_and_mismatched_pieces_are_refused() {
        let tree = MerkleTree::from_leaves(&random_leaves(11, 37)).unwrap();
        let levels = |t: &MerkleTree| (0..=DEPTH).map(|l| t.level(l).to_vec()).collect::<Vec<_>>();
        assert_eq!(MerkleTree::from_levels(DEPTH, levels(&tree)).unwrap(), tree);
        assert_eq!(
            MerkleTree::from_levels(DEPTH, levels(&MerkleTree::new())).unwrap(),
            MerkleTree::new()
        );
        // A level one node short: the shape is wrong.
        let mut short = levels(&tree);
        short[3].pop();
        assert!(matches!(
            MerkleTree::from_levels(DEPTH, short),
            Err(TreeError::BadShape { level: 3, .. })
        ));
        // The leaves of a longer tree under this tree's inner nodes: the edge does not hash.
        let longer = MerkleTree::from_leaves(&random_leaves(11, 38)).unwrap();
        let mut mixed = levels(&tree);
        mixed[0] = longer.level(0)[..37].to_vec();
        mixed[0][36] = longer.level(0)[37];
        assert!(matches!(
            MerkleTree::from_levels(DEPTH, mixed),
            Err(TreeError::NotItsChildrensHash {
                level: 1,
                index: 18
            })
        ));
        let mut root = levels(&tree);
        root[DEPTH][0] = Fr::from(1u64);
        assert!(matches!(
            MerkleTree::from_levels(DEPTH, root),
            Err(TreeError::NotItsChildrensHash {
                level: DEPTH,
                index: 0
            })
        ));
    }

    fn random_leaves(seed: u64, n: usize) -> Vec<Fr> {
        let mut rng = ChaCha8Rng::seed_from_u64(seed);
        (0..n)
            .map(|_| {
                let mut b = [0u8; 32];
                rng.fill_bytes(&mut b);
                Fr::from_be_bytes_mod_order(&b)
            })
            .collect()
    }

    /// tornado-core's `MerkleTreeWithHistory._insert`, transcribed: only the frontier
    /// (`filledSubtrees`) and the zeros, no stored tree.
    struct ContractTree {
        levels: usize,
        filled_subtrees: Vec<Fr>,
        next_index: u32,
        last_root: Fr,
    }

    impl ContractTree {
        fn new(levels: usize) -> Self {
            Self {
                levels,
                filled_subtrees: (0..levels).map(|i| zeros()[i]).collect(),
                next_index: 0,
                // tornado-core's constructor starts the ring at `zeros(levels - 1)`, not at the
                // empty root `zeros(levels)` (a harmless quirk our MerkleTreeWithHistory.sol
                // does not copy); the first insert overwrites it, and we only compare after
                // inserts.
                last_root: zeros()[levels - 1],
            }
        }

        fn insert(&mut self, leaf: Fr) -> u32 {
            let next_index = self.next_index;
            assert!(
                (next_index as u64) < 1u64 << self.levels,
                "Merkle tree is full"
            );
            let mut current_index = next_index;
            let mut current_level_hash = leaf;
            for i in 0..self.levels {
                let (left, right);
                if current_index % 2 == 0 {
                    left = current_level_hash;
                    right = zeros()[i];
                    self.filled_subtrees[i] = current_level_hash;
                } else {
                    left = self.filled_subtrees[i];
                    right = current_level_hash;
                }
                current_level_hash = hash2(left, right);
                current_index /= 2;
            }
            self.last_root = current_level_hash;
            self.next_index = next_index + 1;
            next_index
        }
    }

    /// Both the Keccak and the reduction, with implementations other than the ones the pinned
    /// value came from (@noble/hashes keccak_256 and a BigInt `%` in Node).
    #[test]
    fn zero_is_keccak_of_the_tag_mod_r() {
        use sha3::{Digest, Keccak256};
        let digest: [u8; 32] = Keccak256::digest(ZERO_TAG).into();
        assert_eq!(
            hex::encode(digest),
            "46b4ff788b78b123cb97b51dd54a137e729c725d899fc07a8ab50d69fdc5db0c"
        );
        // The digest is ≥ r, so the reduction is real, not a no-op.
        assert!(field::from_be_bytes(&digest, "digest").is_err());
        assert_eq!(Fr::from_be_bytes_mod_order(&digest), ZERO);
        let alloy = alloy_primitives::keccak256(ZERO_TAG);
        let reduced = alloy_primitives::U256::from_be_bytes(alloy.0) % field::MODULUS;
        assert_eq!(field::from_u256(reduced, "zero").unwrap(), ZERO);
        assert_eq!(
            hex_of(&ZERO),
            "0x1650b105aa4710fa13476f6753c8bb214a688a150fe64fe946d317d60dc5db0b"
        );
        assert_eq!(zeros()[0], ZERO);
    }

    /// The same recipe with tornado's zero (`keccak256("tornado") mod r`) reproduces the
    /// chain `z[i+1] = poseidon([z[i], z[i]])` as circomlibjs computes it (the values below,
    /// re-checked with light-poseidon): the chain (not just the hash) is right.
    #[test]
    fn zero_chain_matches_circomlibjs_with_tornados_zero() {
        use sha3::{Digest, Keccak256};
        let tornado = Fr::from_be_bytes_mod_order(&Keccak256::digest(b"tornado"));
        let table = zero_chain(tornado);
        for (i, expected) in [
            (
                0,
                "0x2fe54c60d3acabf3343a35b6eba15db4821b340f76e741e2249685ed4899af6c",
            ),
            (
                1,
                "0x13e37f2d6cb86c78ccc1788607c2b199788c6bb0a615a21f2e7a8e88384222f8",
            ),
            (
                2,
                "0x217126fa352c326896e8c2803eec8fd63ad50cf65edfef27a41a9e32dc622765",
            ),
            (
                10,
                "0x2eecc0de814cfd8c57ce882babb2e30d1da56621aef7a47f3291cffeaec26ad7",
            ),
            (
                19,
                "0x11cf2e2887aa21963a6ec14289183efe4d4c60f14ecd3d6fe0beebdf855a9b63",
            ),
            (
                20,
                "0x2b0f6fc0179fa65b6f73627c0e1e84c7374d2eaec44c9a48f2571393ea77bcbb",
            ),
        ] {
            assert_eq!(hex_of(&table[i]), expected, "z[{i}]");
        }
    }

    /// Pinned so a change to the zero, the hash or the chain shows up here before it shows up
    /// as "unknown root" from the contract.
    #[test]
    fn empty_root_is_pinned() {
        let z = zeros();
        for i in 0..DEPTH {
            assert_eq!(z[i + 1], hash2(z[i], z[i]));
        }
        assert_eq!(hex_of(&empty_root()), EMPTY_ROOT_HEX);
        assert_eq!(MerkleTree::new().root(), empty_root());
        assert_eq!(MerkleTree::with_depth(3).unwrap().root(), z[3]);
    }

    const EMPTY_ROOT_HEX: &str =
        "0x2cc4d3ec97f54f0a4241bb83db7eac052bf3d4296343d08294c2da46602238f1";

    #[test]
    fn roots_match_the_contract_after_every_insert() {
        for (depth, n, seed) in [
            (DEPTH, 300, 1),
            (1, 2, 2),
            (2, 4, 3),
            (3, 8, 4),
            (5, 32, 5),
            (8, 200, 6),
        ] {
            let mut tree = MerkleTree::with_depth(depth).unwrap();
            let mut contract = ContractTree::new(depth);
            for (i, leaf) in random_leaves(seed, n).into_iter().enumerate() {
                assert_eq!(tree.insert(leaf).unwrap(), contract.insert(leaf));
                assert_eq!(
                    tree.root(),
                    contract.last_root,
                    "depth {depth}, after leaf {i}"
                );
                assert_eq!(tree.len(), i + 1);
            }
        }
    }

    #[test]
    fn a_full_tree_refuses_more_leaves() {
        let mut tree = MerkleTree::with_depth(2).unwrap();
        let leaves = random_leaves(7, 5);
        tree.extend(&leaves[..3]).unwrap();
        let before = tree.clone();
        assert_eq!(
            tree.extend(&leaves[3..5]),
            Err(TreeError::Full {
                depth: 2,
                capacity: 4
            })
        );
        assert_eq!(tree, before, "a batch that does not fit changes nothing");
        assert_eq!(tree.insert(leaves[3]).unwrap(), 3);
        assert!(matches!(
            tree.insert(leaves[4]),
            Err(TreeError::Full { .. })
        ));
        assert!(matches!(
            tree.extend(&leaves[4..5]),
            Err(TreeError::Full { .. })
        ));
        assert_eq!(tree.extend(&[]).unwrap(), 4, "an empty batch always fits");
        assert!(
            tree.insert(leaves[4])
                .unwrap_err()
                .to_string()
                .contains("full")
        );
    }

    #[test]
    fn depth_must_be_supported() {
        assert_eq!(
            MerkleTree::with_depth(0),
            Err(TreeError::UnsupportedDepth { depth: 0 })
        );
        assert!(MerkleTree::with_depth(DEPTH + 1).is_err());
        assert_eq!(MerkleTree::with_depth(DEPTH).unwrap(), MerkleTree::new());
    }

    #[test]
    fn extend_gives_the_same_tree_as_inserting() {
        // Several batches per tree, crossing power-of-two boundaries at different offsets.
        let splits: &[&[usize]] = &[
            &[0],
            &[1],
            &[2],
            &[3],
            &[7],
            &[8],
            &[9],
            &[1000],
            &[0, 1, 0, 2],
            &[1, 1, 1, 1, 1],
            &[3, 5, 1, 7, 16],
            &[63, 1, 64, 65, 129],
            &[500, 1, 499],
            &[257, 255, 256, 256],
        ];
        for (case, split) in splits.iter().enumerate() {
            let total: usize = split.iter().sum();
            let leaves = random_leaves(100 + case as u64, total);
            for depth in [10, DEPTH] {
                let mut one_by_one = MerkleTree::with_depth(depth).unwrap();
                for leaf in &leaves {
                    one_by_one.insert(*leaf).unwrap();
                }
                let mut batched = MerkleTree::with_depth(depth).unwrap();
                let mut at = 0;
                for &n in *split {
                    assert_eq!(batched.extend(&leaves[at..at + n]).unwrap() as usize, at);
                    at += n;
                }
                assert_eq!(
                    batched.root(),
                    one_by_one.root(),
                    "{split:?} at depth {depth}"
                );
                assert!(
                    batched == one_by_one,
                    "every level equal, {split:?} at depth {depth}"
                );
            }
        }
    }

    #[test]
    fn extend_fills_a_small_tree_exactly() {
        let leaves = random_leaves(9, 16);
        let mut batched = MerkleTree::with_depth(4).unwrap();
        batched.extend(&leaves[..5]).unwrap();
        batched.extend(&leaves[5..]).unwrap();
        let mut contract = ContractTree::new(4);
        for leaf in &leaves {
            contract.insert(*leaf);
        }
        assert_eq!(batched.root(), contract.last_root);
        assert_eq!(batched.len(), batched.capacity());
    }

    #[test]
    fn every_path_leads_to_the_root() {
        for (depth, n) in [(1, 1), (1, 2), (3, 5), (4, 16), (DEPTH, 37)] {
            let leaves = random_leaves(depth as u64 * 1000 + n as u64, n);
            let mut tree = MerkleTree::with_depth(depth).unwrap();
            tree.extend(&leaves).unwrap();
            for (i, leaf) in leaves.iter().enumerate() {
                let path = tree.path(i as u32).unwrap();
                assert_eq!(path.depth(), depth);
                assert_eq!(path.index, i as u32);
                assert_eq!(
                    path.root(*leaf),
                    tree.root(),
                    "leaf {i} of {n} at depth {depth}"
                );
                assert_ne!(path.root(*leaf + Fr::from(1u64)), tree.root());
                assert_eq!(tree.leaf(i as u32), Some(*leaf));
                assert_eq!(tree.index_of(leaf), Some(i as u32));
            }
            assert_eq!(
                tree.path(n as u32),
                Err(TreeError::NoSuchLeaf {
                    index: n as u32,
                    len: n
                })
            );
            assert_eq!(tree.leaf(n as u32), None);
        }
        assert!(MerkleTree::new().path(0).is_err());
        assert_eq!(MerkleTree::new().index_of(&ZERO), None);
    }

    #[test]
    fn path_bits_are_the_index_low_bit_first() {
        let mut tree = MerkleTree::with_depth(4).unwrap();
        tree.extend(&random_leaves(11, 12)).unwrap();
        let path = tree.path(0b1011).unwrap();
        assert_eq!(path.bits(), vec![true, true, false, true]);
        // A path taken before later inserts still proves the old root (what a prover racing new
        // deposits relies on: the contract accepts the last roots).
        let old_root = tree.root();
        let old_path = tree.path(3).unwrap();
        tree.insert(Fr::from(5u64)).unwrap();
        assert_eq!(old_path.root(tree.leaf(3).unwrap()), old_root);
        assert_ne!(tree.root(), old_root);
    }

    #[test]
    fn commitment_bytes_must_be_canonical() {
        let mut tree = MerkleTree::with_depth(3).unwrap();
        let leaf = Fr::from(42u64);
        assert_eq!(
            tree.insert_commitment_bytes(&field::to_be_bytes(&leaf))
                .unwrap(),
            0
        );
        assert_eq!(tree.leaf(0), Some(leaf));
        let r = field::MODULUS.to_be_bytes::<32>();
        assert!(matches!(
            tree.insert_commitment_bytes(&r),
            Err(TreeError::Field(FieldError::NotCanonical { .. }))
        ));
        assert_eq!(tree.len(), 1);
    }

    fn sample_state(depth: usize, n: usize) -> (MerkleTree, Vec<u8>) {
        let mut tree = MerkleTree::with_depth(depth).unwrap();
        tree.extend(&random_leaves(12, n)).unwrap();
        let bytes = tree.to_bytes();
        (tree, bytes)
    }

    #[test]
    fn state_round_trips() {
        for (depth, n) in [(DEPTH, 0), (DEPTH, 1), (DEPTH, 77), (3, 8), (1, 1)] {
            let (tree, bytes) = sample_state(depth, n);
            assert_eq!(bytes.len(), HEADER_LEN + 32 * (n + 1));
            assert_eq!(&bytes[..6], b"TPTREE");
            assert_eq!(bytes[6], 1);
            assert_eq!(bytes[7] as usize, depth);
            assert_eq!(bytes[8..12], (n as u32).to_be_bytes());
            let back = MerkleTree::from_bytes(&bytes).unwrap();
            assert!(back == tree);
            assert_eq!(back.root(), tree.root());
        }
    }

    #[test]
    fn state_header_of_the_empty_tree_is_pinned() {
        let bytes = MerkleTree::new().to_bytes();
        assert_eq!(
            hex::encode(&bytes[..HEADER_LEN]),
            format!("{}011400000000", hex::encode(b"TPTREE"))
        );
        assert_eq!(bytes[HEADER_LEN..], field::to_be_bytes(&empty_root()));
    }

    #[test]
    fn state_errors_say_what_is_wrong() {
        let (_, good) = sample_state(5, 6);
        let with = |f: &dyn Fn(&mut Vec<u8>)| {
            let mut b = good.clone();
            f(&mut b);
            MerkleTree::from_bytes(&b)
        };
        assert_eq!(with(&|b| b[0] = b'X'), Err(TreeError::BadMagic));
        assert_eq!(MerkleTree::from_bytes(b"hello"), Err(TreeError::BadMagic));
        assert_eq!(
            MerkleTree::from_bytes(b""),
            Err(TreeError::Truncated {
                expected: 12,
                found: 0
            })
        );
        assert_eq!(
            MerkleTree::from_bytes(b"TPTR"),
            Err(TreeError::Truncated {
                expected: 12,
                found: 4
            })
        );
        assert_eq!(
            with(&|b| b[6] = 2),
            Err(TreeError::UnsupportedVersion { found: 2 })
        );
        assert_eq!(
            with(&|b| b[7] = 0),
            Err(TreeError::UnsupportedDepth { depth: 0 })
        );
        assert_eq!(
            with(&|b| b[7] = 21),
            Err(TreeError::UnsupportedDepth { depth: 21 })
        );
        assert_eq!(
            with(&|b| b[8..12].copy_from_slice(&33u32.to_be_bytes())),
            Err(TreeError::TooManyLeaves {
                count: 33,
                depth: 5
            })
        );
        assert_eq!(
            with(&|b| b[8..12].copy_from_slice(&u32::MAX.to_be_bytes())),
            Err(TreeError::TooManyLeaves {
                count: u32::MAX,
                depth: 5
            })
        );
        let len = good.len();
        assert_eq!(
            with(&|b| b.truncate(len - 1)),
            Err(TreeError::Truncated {
                expected: len as u64,
                found: len - 1
            })
        );
        assert_eq!(
            with(&|b| b.truncate(HEADER_LEN)),
            Err(TreeError::Truncated {
                expected: len as u64,
                found: HEADER_LEN
            })
        );
        assert_eq!(
            with(&|b| b.push(0)),
            Err(TreeError::TrailingBytes { extra: 1 })
        );
        // A leaf count that disagrees with the data: one fewer leaf leaves 32 bytes over.
        assert_eq!(
            with(&|b| b[8..12].copy_from_slice(&5u32.to_be_bytes())),
            Err(TreeError::TrailingBytes { extra: 32 })
        );
        // A flipped bit in a leaf, or in the root itself.
        let damaged_leaf = with(&|b| b[HEADER_LEN + 32 * 2 + 31] ^= 1);
        assert!(
            matches!(damaged_leaf, Err(TreeError::RootMismatch { .. })),
            "{damaged_leaf:?}"
        );
        let message = damaged_leaf.unwrap_err().to_string();
        assert!(
            message.contains("corrupt") && message.contains("0x"),
            "{message}"
        );
        assert!(matches!(
            with(&|b| b[len - 1] ^= 1),
            Err(TreeError::RootMismatch { .. })
        ));
        // A leaf ≥ r.
        let r = field::MODULUS.to_be_bytes::<32>();
        let bad_leaf = with(&|b| b[HEADER_LEN + 32..HEADER_LEN + 64].copy_from_slice(&r));
        let Err(TreeError::Field(FieldError::NotCanonical { what })) = &bad_leaf else {
            panic!("{bad_leaf:?}");
        };
        assert!(what.contains("leaf 1"), "{what}");
        for error in [
            TreeError::BadMagic,
            TreeError::UnsupportedVersion { found: 9 },
            TreeError::Truncated {
                expected: 44,
                found: 3,
            },
        ] {
            assert!(!error.to_string().is_empty());
        }
    }

    #[test]
    fn serde_round_trips_through_json_as_hex() {
        let (tree, bytes) = sample_state(4, 9);
        let json = serde_json::to_string(&tree).unwrap();
        assert_eq!(json, format!("\"0x{}\"", hex::encode(&bytes)));
        let back: MerkleTree = serde_json::from_str(&json).unwrap();
        assert!(back == tree);
        let no_prefix: MerkleTree =
            serde_json::from_str(&format!("\"{}\"", hex::encode(&bytes))).unwrap();
        assert!(no_prefix == tree);
        let mut damaged = bytes.clone();
        damaged[HEADER_LEN] ^= 1;
        let error = serde_json::from_str::<MerkleTree>(&format!("\"0x{}\"", hex::encode(damaged)))
            .unwrap_err()
            .to_string();
        assert!(error.contains("corrupt"), "{error}");
        assert!(serde_json::from_str::<MerkleTree>("\"0xzz\"").is_err());
    }

    #[test]
    fn debug_is_short() {
        let (tree, _) = sample_state(DEPTH, 3);
        let debug = format!("{tree:?}");
        assert!(
            debug.starts_with("MerkleTree { depth: 20, len: 3, root: \"0x"),
            "{debug}"
        );
    }
}
