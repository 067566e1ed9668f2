//! A pool's tree filled from a list of commitments without depositing them: for benchmarks
//! that need a pool of a million deposits (real ones take about half an hour to execute
//! here), never for anything a user runs.
//!
//! It writes what `MerkleTreeWithHistory` keeps (`contracts/src/MerkleTreeWithHistory.sol`)
//! exactly as a million `_insert`s would have left it: `filledSubtrees`, the ring of the last
//! 100 roots, and `nextIndex`. So the pool's views (`nextIndex`, `getLastRoot`,
//! `isKnownRoot`), a client's root check, and the next real deposit behave as on a chain that
//! took every deposit; `tests/pool.rs` checks the next deposit's root. What it does not
//! write: the `Deposit` events (a sync must get the leaves elsewhere: a tronpool server whose
//! cache holds them), the `commitments` entries (re-depositing a filled commitment is not
//! refused), and the USDT (the pool holds none of it, so only real deposits withdraw).

use alloy_primitives::U256;
use tron::Address;
use zk::Fr;
use zk::tree::{DEPTH, MerkleTree, zeros};

use super::Ledger;

/// Storage slots, in `MerkleTreeWithHistory`'s declaration order (its immutables take
/// none): `bytes32[20] filledSubtrees` at 0–19, `bytes32[100] roots` at 20–119, `uint32
/// nextIndex` alone at 120.
const FILLED_SUBTREES: u64 = 0;
const ROOTS: u64 = FILLED_SUBTREES + DEPTH as u64;
const ROOT_HISTORY_SIZE: usize = 100;
const NEXT_INDEX: u64 = ROOTS + ROOT_HISTORY_SIZE as u64;

impl Ledger {
    /// Makes `pool`, an empty genesis pool, hold `leaves` as if each had been deposited in
    /// order, and answers the tree they make. The pool must be empty: the fill writes the
    /// whole state of its tree.
    pub fn fill_pool_tree(&mut self, pool: Address, leaves: &[Fr]) -> Result<MerkleTree, String> {
        if self.storage(&pool, U256::from(NEXT_INDEX)) != U256::ZERO {
            return Err(format!(
                "the pool {} already has deposits",
                pool.to_base58()
            ));
        }
        let n = leaves.len();
        // The roots of the last 100 counts, oldest first: the tree of n - 99 leaves, then
        // one insert at a time.
        let first = n.saturating_sub(ROOT_HISTORY_SIZE - 1);
        let mut tree = MerkleTree::from_leaves(&leaves[..first]).map_err(|e| e.to_string())?;
        let mut roots = vec![(first, tree.root())];
        for leaf in &leaves[first..] {
            tree.insert(*leaf).map_err(|e| e.to_string())?;
            roots.push((tree.len(), tree.root()));
        }
        // `_insert` stores the node of level i when its subtree completes and its index there
        // is even; later inserts read it as their left sibling. So level i holds the last
        // complete even node, or its zero while there is none.
        for level in 0..DEPTH {
            let complete = n >> level;
            let last_even = complete.checked_sub(1).map(|last| last & !1);
            let node = last_even.map_or(zeros()[level], |index| tree.level(level)[index]);
            self.set_storage(
                pool,
                U256::from(FILLED_SUBTREES + level as u64),
                word(&node),
            )?;
        }
        for (count, root) in roots {
            let slot = ROOTS + (count % ROOT_HISTORY_SIZE) as u64;
            self.set_storage(pool, U256::from(slot), word(&root))?;
        }
        self.set_storage(pool, U256::from(NEXT_INDEX), U256::from(n))?;
        Ok(tree)
    }
}

fn word(node: &Fr) -> U256 {
    U256::from_be_bytes(zk::field::to_be_bytes(node))
}
