//! The pool's Merkle tree of deposit commitments, as the client rebuilds it from `Deposit`
//! events, to prove that a note's commitment is *some* leaf without saying which.
//!
//! The roots must be bit-identical to the contract's (tornado-core's `MerkleTreeWithHistory`):
//! nodes are [`hash2`]`(left, right)`, a missing subtree at level `i` is [`zeros`]`()[i]`, and
//! leaves fill up from index 0. The contract only keeps the frontier; a client keeps every
//! level (in its cache), because a prover needs the sibling path of an arbitrary (usually old)
//! leaf, and a relayer or indexer serves many such paths; re-hashing a million leaves per path
//! (~15 s) is not an option, keeping every node (~64 MB at 2^20 leaves) is. In memory, a sync
//! holds only the tree's tail ([`MerkleTree::from_tail`]): what appending changes.

use std::fmt;
use std::sync::OnceLock;

use ark_ff::MontFp;
use rayon::prelude::*;

use crate::Fr;
use crate::field::{self, FieldError};
use crate::poseidon::{hash2, hash2_pairs};

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
    #[error("the tree cache is damaged: level {level} holds {found} nodes where {expected} belong")]
    BadShape {
        level: usize,
        expected: usize,
        found: usize,
    },
    #[error("the tree cache is damaged: node {index} of level {level} is not its children's hash")]
    NotItsChildrensHash { level: usize, index: usize },
    #[error(
        "the tree cache is damaged: level {level} is kept from node {from}, which cannot \
         extend a tree of {count} leaves"
    )]
    BadTail {
        level: usize,
        from: usize,
        count: usize,
    },
    #[error("node {index} of level {level} is not held: this tree holds only its last nodes")]
    NotHeld { level: usize, index: usize },
}

/// Nodes per rayon task: below this, splitting costs more than it gains (a hash is 3–30 µs,
/// a task hand-off ~1 µs). A multiple of the vector hash's eight lanes.
const PAR_MIN_LEN: usize = 64;

/// An append-only Merkle tree holding every node, or only its tail.
///
/// `levels[l]` holds nodes of height `l` (the leaves at 0, the root alone at `depth` once a
/// leaf exists) that have at least one real leaf below them: a node whose right child does not
/// exist yet is hashed with `zeros()[l]`, exactly as the contract does, and nodes covering only
/// empty leaves are never stored (they are `zeros()[l]`).
///
/// A whole tree ([`new`](Self::new), [`from_leaves`](Self::from_leaves)) holds every such
/// node. A *tail* ([`from_tail`](Self::from_tail)) holds each level only from `offsets[l]` on:
/// enough of its right edge to append leaves and compute the new root and every changed node,
/// which is all a sync needs, without holding (or reading from a cache) the million nodes
/// nothing will change. Paths and leaves before a level's offset are not held and say so.
#[derive(Clone, PartialEq, Eq)]
pub struct MerkleTree {
    depth: usize,
    /// The index, among the nodes of height `l`, of `levels[l][0]`: 0 in a whole tree.
    offsets: Vec<usize>,
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
            .field("held_leaves_from", &self.offsets[0])
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
            offsets: vec![0; depth + 1],
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
    /// `nextIndex`), whether or not they are all held.
    pub fn len(&self) -> usize {
        self.offsets[0] + self.levels[0].len()
    }

    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// Leaf `index`, when it exists and is held.
    pub fn leaf(&self, index: u32) -> Option<Fr> {
        self.node(0, index as usize)
    }

    /// Node `index` of height `level`, when it exists and is held.
    fn node(&self, level: usize, index: usize) -> Option<Fr> {
        let held = index.checked_sub(self.offsets[level])?;
        self.levels[level].get(held).copied()
    }

    /// The index of the first held leaf equal to `leaf`: how a wallet finds its deposit when
    /// it only kept the note. A linear scan (a few ms at 2^20 leaves); the contract refuses
    /// duplicate commitments, so the first is the only one. A tail finds only its own leaves.
    pub fn index_of(&self, leaf: &Fr) -> Option<u32> {
        self.levels[0]
            .iter()
            .position(|l| l == leaf)
            .map(|i| (i + self.offsets[0]) as u32)
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
        self.extend(&[leaf])
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
    /// pool take seconds instead of minutes. All or nothing: a batch that does not fit leaves
    /// the tree unchanged. A tail extends like a whole tree: what changes is always held.
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
            let (children, from) = (&below[level], self.offsets[level]);
            let (parents, parents_from) = (&mut above[0], self.offsets[level + 1]);
            first /= 2;
            // The old last parent may have been hashed with a zero right child that now exists,
            // so everything from `first` is recomputed rather than patched. A tail holds both
            // children of it: `from_tail` keeps every offset even and at or before the last
            // node, and `first` is at or after the old last parent.
            parents.truncate(first - parents_from);
            // Whole pairs go through `hash2_pairs` in parallel chunks (eight at a time on the
            // vector unit where the CPU has one); an odd last child is paired with the zero.
            let pairs = &children[2 * first - from..];
            let whole = pairs.len() / 2;
            parents.resize(first - parents_from + whole, zero);
            parents[first - parents_from..]
                .par_chunks_mut(PAR_MIN_LEN)
                .zip(pairs.par_chunks(2 * PAR_MIN_LEN))
                .for_each(|(out, pairs)| hash2_pairs(&pairs[..2 * out.len()], out));
            if pairs.len() % 2 == 1 {
                parents.push(hash2(pairs[pairs.len() - 1], zero));
            }
        }
        Ok(start as u32)
    }

    /// The sibling path of leaf `index`, for the withdraw proof. A tail has the paths of its
    /// last leaves only; for another, a cache reads the path's nodes where it keeps them.
    pub fn path(&self, index: u32) -> Result<MerklePath, TreeError> {
        let i = index as usize;
        if i >= self.len() {
            return Err(TreeError::NoSuchLeaf {
                index,
                len: self.len(),
            });
        }
        let siblings = self.siblings_above(0, i)?;
        Ok(MerklePath { siblings, index })
    }

    /// The siblings on the way from node `index` of height `from` to the root, height `from`
    /// first: a leaf's path when `from` is 0, and what a batch that fills the subtree under
    /// that node needs to climb from it. The node itself need not exist yet: siblings past
    /// the last leaf are the empty subtrees' roots.
    pub fn siblings_above(&self, from: usize, index: usize) -> Result<Vec<Fr>, TreeError> {
        (from..self.depth)
            .map(|level| {
                let sibling = (index >> (level - from)) ^ 1;
                if sibling >= self.len().div_ceil(1 << level) {
                    Ok(zeros()[level])
                } else {
                    self.node(level, sibling).ok_or(TreeError::NotHeld {
                        level,
                        index: sibling,
                    })
                }
            })
            .collect()
    }

    fn full(&self) -> TreeError {
        TreeError::Full {
            depth: self.depth,
            capacity: self.capacity(),
        }
    }
}

impl MerkleTree {
    /// The held nodes of height `level`, from [`held_from`](Self::held_from)`(level)` on:
    /// every node that has a real leaf below it in a whole tree; the root alone at
    /// [`depth`](Self::depth) (none while the tree is empty).
    pub fn level(&self, level: usize) -> &[Fr] {
        &self.levels[level]
    }

    /// The index of the first held node of height `level` (0 in a whole tree).
    pub fn held_from(&self, level: usize) -> usize {
        self.offsets[level]
    }

    /// A whole tree from its levels as [`level`](Self::level) gives them; see
    /// [`from_tail`](Self::from_tail).
    pub fn from_levels(depth: usize, levels: Vec<Vec<Fr>>) -> Result<Self, TreeError> {
        let count = levels.first().map_or(0, Vec::len);
        Self::from_tail(depth, count, levels.into_iter().map(|l| (0, l)).collect())
    }

    /// A tree of `count` leaves from the nodes a cache kept of each level: `(from, nodes)`
    /// holds the level's nodes from index `from` to its last one. `from` must be even and at
    /// or before the level's last node (the start of the last stored piece is), so the tail
    /// can be extended; `from = 0` everywhere is the whole tree.
    ///
    /// For a cache that keeps the nodes in pieces and rewrites only the pieces a sync
    /// changed. The shape must be what `count` leaves give, and the right edge is hashed
    /// again (one hash a level), so pieces of two different trees, or of a tree and a longer
    /// one, are refused. Other nodes are taken as they are: the caller compares the root with
    /// the chain, and the prover checks each path against that root.
    pub fn from_tail(
        depth: usize,
        count: usize,
        parts: Vec<(usize, Vec<Fr>)>,
    ) -> Result<Self, TreeError> {
        let mut tree = Self::with_depth(depth)?;
        if parts.len() != depth + 1 {
            return Err(TreeError::BadShape {
                level: parts.len().min(depth + 1),
                expected: depth + 1,
                found: parts.len(),
            });
        }
        if count > tree.capacity() {
            return Err(tree.full());
        }
        for (level, (from, nodes)) in parts.iter().enumerate() {
            let expected = count.div_ceil(1 << level);
            if from + nodes.len() != expected {
                return Err(TreeError::BadShape {
                    level,
                    expected,
                    found: from + nodes.len(),
                });
            }
            if from % 2 != 0 || *from > expected.saturating_sub(1) {
                return Err(TreeError::BadTail {
                    level,
                    from: *from,
                    count,
                });
            }
        }
        let (offsets, levels) = parts.into_iter().unzip();
        tree.offsets = offsets;
        tree.levels = levels;
        for level in 0..depth {
            let Some(last) = tree.len().div_ceil(1 << (level + 1)).checked_sub(1) else {
                break;
            };
            let left = tree.node(level, 2 * last);
            let right = tree.node(level, 2 * last + 1).unwrap_or(zeros()[level]);
            if left.map(|l| hash2(l, right)) != tree.node(level + 1, last) {
                return Err(TreeError::NotItsChildrensHash {
                    level: level + 1,
                    index: last,
                });
            }
        }
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

    /// The tail of `tree` a cache in pieces of `piece` nodes keeps: each level from the
    /// start of the piece that holds its last node.
    fn tail_of(tree: &MerkleTree, piece: usize) -> Vec<(usize, Vec<Fr>)> {
        (0..=tree.depth())
            .map(|l| {
                let nodes = tree.level(l);
                let from = nodes.len().saturating_sub(1) / piece * piece;
                (from, nodes[from..].to_vec())
            })
            .collect()
    }

    #[test]
    fn a_tail_extends_to_exactly_the_tree_a_whole_one_does() {
        // Counts around piece boundaries, at every level, with batches of several sizes.
        for (count, more) in [(0, 5), (1, 1), (7, 9), (8, 1), (9, 100), (63, 1), (64, 64)] {
            for piece in [2, 4, 8] {
                let leaves = random_leaves(count as u64, count + more);
                let mut whole = MerkleTree::with_depth(8).unwrap();
                whole.extend(&leaves[..count]).unwrap();
                let mut tail = MerkleTree::from_tail(8, count, tail_of(&whole, piece)).unwrap();
                assert_eq!((tail.len(), tail.root()), (whole.len(), whole.root()));
                whole.extend(&leaves[count..count + more / 2]).unwrap();
                tail.extend(&leaves[count..count + more / 2]).unwrap();
                whole.extend(&leaves[count + more / 2..]).unwrap();
                for leaf in &leaves[count + more / 2..] {
                    tail.insert(*leaf).unwrap();
                }
                assert_eq!(
                    tail.root(),
                    whole.root(),
                    "{count} + {more}, pieces of {piece}"
                );
                for l in 0..=8 {
                    let from = tail.held_from(l);
                    assert_eq!(tail.level(l), &whole.level(l)[from..], "level {l}");
                }
                // The newest leaf's path is held; the first leaf's is not, unless held.
                let last = (count + more - 1) as u32;
                assert_eq!(tail.path(last).unwrap(), whole.path(last).unwrap());
                if tail.held_from(0) > 1 {
                    assert!(matches!(
                        tail.path(0),
                        Err(TreeError::NotHeld { level: 0, index: 1 })
                    ));
                    assert_eq!(tail.index_of(&leaves[0]), None);
                }
                assert_eq!(tail.index_of(&leaves[count + more - 1]), Some(last));
            }
        }
    }

    #[test]
    fn a_tail_that_cannot_extend_is_refused() {
        let tree = MerkleTree::from_leaves(&random_leaves(3, 37)).unwrap();
        let tail = tail_of(&tree, 8);
        assert!(MerkleTree::from_tail(DEPTH, 37, tail.clone()).is_ok());
        // Level 0 kept from an odd node: node 35's parent would lose its left child.
        let mut odd = tail.clone();
        odd[0] = (35, tree.level(0)[35..].to_vec());
        assert!(matches!(
            MerkleTree::from_tail(DEPTH, 37, odd),
            Err(TreeError::BadTail {
                level: 0,
                from: 35,
                ..
            })
        ));
        // Level 2 (10 nodes) kept from past its last node.
        let mut past = tail.clone();
        past[2] = (10, Vec::new());
        assert!(matches!(
            MerkleTree::from_tail(DEPTH, 37, past),
            Err(TreeError::BadTail {
                level: 2,
                from: 10,
                ..
            })
        ));
        // A tail for another count.
        assert!(matches!(
            MerkleTree::from_tail(DEPTH, 36, tail),
            Err(TreeError::BadShape { level: 0, .. })
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

    #[test]
    fn debug_is_short() {
        let tree = MerkleTree::from_leaves(&random_leaves(5, 3)).unwrap();
        let debug = format!("{tree:?}");
        assert!(
            debug.starts_with("MerkleTree { depth: 20, len: 3, held_leaves_from: 0, root: \"0x"),
            "{debug}"
        );
    }
}
