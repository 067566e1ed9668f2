//! A pool's tree filled from a list of commitments without depositing them: for benchmarks
//! that need a pool of a million deposits (real ones take about half an hour to execute
//! here), never for anything a user runs.
//!
//! Two layouts: the queued pool the devnet deploys (`QueuedPool`, [`Ledger::fill_queued_pool`],
//! below, and [`Ledger::insert_queued`], which inserts real deposits without batch proofs),
//! and the direct-insert `TronPool` ([`Ledger::fill_pool_tree`]). For the latter it
//! writes what `MerkleTreeWithHistory` keeps (`contracts/src/MerkleTreeWithHistory.sol`)
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

/// `QueuedPool`'s storage (`contracts/src/QueuedPool.sol`; constants and immutables take
/// none): the `Counters` word at 0 (`queued`, `nextIndex`, `rootIndex` as `uint32`s from the
/// low end, then `bool live`), `bytes32[100] roots` at 1–100, `bytes32[128] queueHashes` at
/// 101–228.
mod queued {
    use super::ROOT_HISTORY_SIZE;

    pub const COUNTERS: u64 = 0;
    pub const ROOTS: u64 = 1;
    pub const QUEUE_HASHES: u64 = ROOTS + ROOT_HISTORY_SIZE as u64;
    pub const QUEUE_RING: usize = 128;
}

impl Ledger {
    /// Makes `pool`, an empty queued pool (`QueuedPool`), hold `leaves` as if each had been
    /// deposited in order and inserted in batches of 32 (one per block of the tree, the last
    /// one partial), and answers the tree they make. Written as those deposits and batches
    /// leave it: the counters (`queued = nextIndex = n`), the ring of the last 100 batch
    /// roots, and the queue chain of the last 128 positions (`chain_p = Poseidon(chain_{p-1},
    /// commitment_p)`, `chain_{-1} = 0`, all `n` hashed in order), so the next real deposit
    /// extends the chain and the next batch proves against the root and chain a client
    /// computes. Nothing waits, so no checkpoint is written. Not written, as for the
    /// direct-insert fill: events, the USDT.
    pub fn fill_queued_pool(&mut self, pool: Address, leaves: &[Fr]) -> Result<MerkleTree, String> {
        use queued::{QUEUE_HASHES, QUEUE_RING};
        let counters = self.queued_counters(pool)?;
        if counters.queued != 0 {
            return Err(format!(
                "the pool {} already has deposits",
                pool.to_base58()
            ));
        }
        let n = leaves.len();
        let ring_from = n.saturating_sub(QUEUE_RING);
        let mut chain = zk::batch::chain(Fr::from(0u64), &leaves[..ring_from]);
        for (position, leaf) in leaves.iter().enumerate().skip(ring_from) {
            chain = zk::batch::chain(chain, &[*leaf]);
            let slot = QUEUE_HASHES + (position % QUEUE_RING) as u64;
            self.set_storage(pool, U256::from(slot), word(&chain))?;
        }
        self.write_batches(pool, leaves)
    }

    /// Inserts every deposit waiting in `pool`, a queued pool none of whose deposits is in its
    /// tree yet, as batches of 32 (one per block of the tree, the last one partial) would,
    /// without proving them; answers the tree. For benchmarks whose deposits are real (their
    /// events, queue chain and USDT) but whose thousands of batch proofs would take an hour
    /// here. `leaves` must be the queued commitments in order: their chain is checked against
    /// the one the pool's deposits wrote, so nothing but what was deposited goes in. Written
    /// as those batches leave it: the ring of the last 100 batch roots and the counters
    /// (`nextIndex = queued`, `rootIndex`). Not written: the `BatchInserted` events, and the
    /// insertion fees a batcher would be credited.
    pub fn insert_queued(&mut self, pool: Address, leaves: &[Fr]) -> Result<MerkleTree, String> {
        use queued::{QUEUE_HASHES, QUEUE_RING};
        let counters = self.queued_counters(pool)?;
        if counters.next_index != 0 {
            return Err(format!(
                "the pool {} already has deposits in its tree",
                pool.to_base58()
            ));
        }
        if counters.queued as usize != leaves.len() || leaves.is_empty() {
            return Err(format!(
                "the pool {} has {} deposits waiting, not {}",
                pool.to_base58(),
                counters.queued,
                leaves.len()
            ));
        }
        let last = (leaves.len() - 1) % QUEUE_RING;
        let kept = self.storage(&pool, U256::from(QUEUE_HASHES + last as u64));
        if word(&zk::batch::chain(Fr::from(0u64), leaves)) != kept {
            return Err("the leaves are not the deposits the pool queued".to_owned());
        }
        self.write_batches(pool, leaves)
    }

    /// A queued pool's counters, refusing anything else.
    fn queued_counters(&self, pool: Address) -> Result<QueuedCounters, String> {
        let word = self.storage(&pool, U256::from(queued::COUNTERS));
        // A queued pool's counters word has `live` set and nothing above it.
        if word >> 96 != U256::from(1) {
            return Err(format!("{} is not a queued pool", pool.to_base58()));
        }
        let field = |shift: usize| (word >> shift).as_limbs()[0] as u32;
        Ok(QueuedCounters {
            queued: field(0),
            next_index: field(32),
        })
    }

    /// Writes what inserting `leaves` (all of the pool's deposits, the queue chain already in
    /// place) in batches of 32 from an empty tree leaves: the roots of the last 100 batches in
    /// their ring (batch 0's empty root, which the constructor wrote, stays where it is) and
    /// the counters `queued = nextIndex = n`, `rootIndex`.
    fn write_batches(&mut self, pool: Address, leaves: &[Fr]) -> Result<MerkleTree, String> {
        use queued::{COUNTERS, ROOTS};
        use zk::batch::BATCH_SIZE;
        let n = leaves.len();
        let batches = n.div_ceil(BATCH_SIZE);
        let first_batch = batches.saturating_sub(ROOT_HISTORY_SIZE - 1).max(1);
        let prefix = ((first_batch - 1) * BATCH_SIZE).min(n);
        let mut tree = MerkleTree::from_leaves(&leaves[..prefix]).map_err(|e| e.to_string())?;
        for batch in first_batch..=batches {
            let end = (batch * BATCH_SIZE).min(n);
            tree.extend(&leaves[tree.len()..end])
                .map_err(|e| e.to_string())?;
            let slot = ROOTS + (batch % ROOT_HISTORY_SIZE) as u64;
            self.set_storage(pool, U256::from(slot), word(&tree.root()))?;
        }
        let n_word = U256::from(n as u64);
        let root_index = U256::from((batches % ROOT_HISTORY_SIZE) as u64);
        let counters = n_word | (n_word << 32) | (root_index << 64) | (U256::from(1) << 96);
        self.set_storage(pool, U256::from(COUNTERS), counters)?;
        Ok(tree)
    }
}

/// The two counters of a queued pool the fills read.
struct QueuedCounters {
    queued: u32,
    next_index: u32,
}

fn word(node: &Fr) -> U256 {
    U256::from_be_bytes(zk::field::to_be_bytes(node))
}
