//! The tree's frontier rule, as a model: `MerkleTreeWithHistory._insert` stores a left node in
//! `filledSubtrees` only once its subtree is complete (at most one word per insert), where
//! Tornado stores every left node on the path. Both are transcribed here over a small depth
//! with a cheap, non-commutative stand-in for Poseidon, and must give the same root after
//! every insert until the tree is full. (The contract itself is checked against
//! `zk::tree::MerkleTree` in revm by `pool.rs`, over its first 300 leaves.)
#![allow(clippy::unwrap_used)] // a test fails by panicking: unwrapping is how it says so

use alloy_primitives::{B256, keccak256};

const LEVELS: usize = 10;

/// Non-commutative, so a left/right mix-up changes the root.
fn hash(left: B256, right: B256) -> B256 {
    let mut buf = [0u8; 64];
    buf[..32].copy_from_slice(left.as_slice());
    buf[32..].copy_from_slice(right.as_slice());
    keccak256(buf)
}

fn zeros() -> Vec<B256> {
    let mut z = vec![keccak256(b"zero")];
    for i in 0..LEVELS {
        z.push(hash(z[i], z[i]));
    }
    z
}

struct Tree {
    filled: Vec<B256>,
    next: u32,
    /// Frontier words written by the last insert.
    writes: usize,
}

impl Tree {
    fn new(zeros: &[B256]) -> Self {
        Tree {
            filled: zeros[..LEVELS].to_vec(),
            next: 0,
            writes: 0,
        }
    }

    /// Tornado's `_insert`: every left node on the path is stored.
    #[allow(clippy::needless_range_loop)] // the Solidity loop, line for line
    fn insert_tornado(&mut self, leaf: B256, zeros: &[B256]) -> B256 {
        assert!(self.next < 1 << LEVELS, "full");
        let (mut position, mut node) = (self.next, leaf);
        self.writes = 0;
        for i in 0..LEVELS {
            if position & 1 == 0 {
                self.filled[i] = node;
                self.writes += 1;
                node = hash(node, zeros[i]);
            } else {
                node = hash(self.filled[i], node);
            }
            position >>= 1;
        }
        self.next += 1;
        node
    }

    /// tronpool's `_insert`: only the lowest left node, whose subtree this leaf completes.
    #[allow(clippy::needless_range_loop)] // the Solidity loop, line for line
    fn insert_tronpool(&mut self, leaf: B256, zeros: &[B256]) -> B256 {
        assert!(self.next < 1 << LEVELS, "full");
        let (mut position, mut node) = (self.next, leaf);
        let mut complete = true;
        self.writes = 0;
        for i in 0..LEVELS {
            if position & 1 == 0 {
                if complete {
                    self.filled[i] = node;
                    self.writes += 1;
                    complete = false;
                }
                node = hash(node, zeros[i]);
            } else {
                node = hash(self.filled[i], node);
            }
            position >>= 1;
        }
        self.next += 1;
        node
    }
}

#[test]
fn storing_only_complete_left_nodes_gives_tornados_roots_until_full() {
    let zeros = zeros();
    let mut tornado = Tree::new(&zeros);
    let mut tronpool = Tree::new(&zeros);
    let mut total_writes = 0;
    for n in 0u32..1 << LEVELS {
        let leaf = keccak256(n.to_be_bytes());
        let want = tornado.insert_tornado(leaf, &zeros);
        let got = tronpool.insert_tronpool(leaf, &zeros);
        assert_eq!(got, want, "root after leaf {n}");
        // One word, at the level of the lowest 0 bit of the index; none for the last leaf.
        let expected_writes = usize::from(n.trailing_ones() < LEVELS as u32);
        assert_eq!(tronpool.writes, expected_writes, "writes at leaf {n}");
        assert_eq!(tornado.writes, LEVELS - n.count_ones() as usize);
        total_writes += tronpool.writes;
    }
    assert_eq!(total_writes, (1 << LEVELS) - 1);
    // Full: the complete tree's root, computed directly.
    let mut level: Vec<B256> = (0u32..1 << LEVELS)
        .map(|n| keccak256(n.to_be_bytes()))
        .collect();
    while level.len() > 1 {
        level = level.chunks(2).map(|p| hash(p[0], p[1])).collect();
    }
    let mut again = Tree::new(&zeros);
    let mut root = B256::ZERO;
    for n in 0u32..1 << LEVELS {
        root = again.insert_tronpool(keccak256(n.to_be_bytes()), &zeros);
    }
    assert_eq!(root, level[0]);
}
