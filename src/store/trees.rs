//! Each pool's deposit leaves, cached in the network's database so a sync only fetches what
//! is new, with every tree node beside them so loading a busy pool's tree does not hash it
//! again.
//!
//! The nodes are kept in pieces ([`CHUNK`] consecutive nodes of one level a row), so a sync
//! that adds `n` leaves rewrites the few pieces on their paths, about `n / CHUNK + 1` a level,
//! not the whole tree (64 MB at 2^20 deposits). The leaves are the truth; the nodes are a
//! shortcut, used only when they hold exactly the stored leaves' shape and their right edge
//! hashes (`MerkleTree::from_levels`), and otherwise rebuilt from the leaves.
//!
//! Beside the leaves: each pool's withdrawals (from its `Withdrawal` events), so whether a
//! note is spent is answered here without asking a node about its nullifier, and the block a
//! block scan continues from.

use std::path::Path;

use rusqlite::{OptionalExtension, params};
use zk::tree::{MerklePath, MerkleTree};

use crate::error::{Error, Result, StoreError};

/// One deposit, as its event reported it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Leaf {
    pub index: u32,
    pub commitment: [u8; 32],
    pub block_timestamp: i64,
    pub txid: String,
}

/// One withdrawal, as its `Withdrawal` event reported it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Withdrawal {
    pub nullifier_hash: [u8; 32],
    pub txid: String,
    /// The block it is in, when the source said.
    pub block: Option<i64>,
    pub block_timestamp: i64,
    /// Base58.
    pub recipient: String,
    /// Base58; `None` for a withdrawal without a relayer.
    pub relayer: Option<String>,
    /// The relayer's fee in USDT base units, decimal.
    pub fee: String,
}

/// What is cached of a pool's withdrawals.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct WithdrawalsHead {
    pub count: u32,
    /// The block time of the newest: the next sync asks for events from here.
    pub last_timestamp: Option<i64>,
}

/// What one sync adds to a pool's cache, written in one transaction.
#[derive(Default)]
pub struct Update<'a> {
    /// New leaves, in order, following the cached ones: every deposit the pool took,
    /// queued ones included.
    pub leaves: &'a [Leaf],
    /// The tree of the pool's first leaves, as far as they are inserted (all of them in a
    /// pool that inserts at once; a queued pool's `nextIndex`), when it grew: it was loaded
    /// with [`TreeCache::load_tail`] and extended.
    pub tree: Option<&'a MerkleTree>,
    /// Withdrawals; ones already cached (by nullifier hash) are skipped.
    pub withdrawals: &'a [Withdrawal],
    /// The block a block scan continues from next time.
    pub next_block: Option<u64>,
}

/// What is cached for a pool.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct CacheHead {
    pub count: u32,
    /// The block time of the newest cached leaf: the next sync asks for events from here.
    pub last_timestamp: Option<i64>,
}

/// Nodes of one level a stored piece holds (8 KiB). A node is stored as it is held in memory
/// (`zk::field::to_montgomery_le`), so loading a tree converts nothing: the pieces are this
/// machine's cache, never sent anywhere.
pub(crate) const CHUNK: usize = 256;

/// From this many leaves in one save, the index of commitments is made again rather than
/// kept up to date leaf by leaf ([`TreeCache::save`]).
const BULK_LEAVES: usize = 50_000;

/// Clones share the database (a server's batcher and its API read one cache).
#[derive(Clone)]
pub struct TreeCache {
    db: std::sync::Arc<crate::store::db::Shared>,
}

fn db_error(e: rusqlite::Error) -> Error {
    StoreError::sqlite("tree cache", e)
}

impl TreeCache {
    pub fn open(path: &Path) -> Result<Self> {
        Ok(Self::over(std::sync::Arc::new(
            crate::store::db::Shared::new(crate::store::db::open(path, "the tree cache")?),
        )))
    }

    pub fn in_memory() -> Result<Self> {
        Ok(Self::over(std::sync::Arc::new(
            crate::store::db::Shared::new(crate::store::db::in_memory("the tree cache")?),
        )))
    }

    /// The trees on a database's connection; the tables are the database's
    /// (`store::schema`), made or migrated when it opened.
    pub(crate) fn over(db: std::sync::Arc<crate::store::db::Shared>) -> Self {
        TreeCache { db }
    }

    /// How many leaves are cached and the newest one's block time, from the last leaf alone
    /// (they are kept from 0 without gaps, in block order), so asking costs the same at a
    /// million leaves as at ten.
    pub fn head(&self, pool: &str) -> Result<CacheHead> {
        self.db.with(|db| {
            let last: Option<(i64, i64)> = db
                .query_row(
                    "SELECT leaf_index, block_timestamp FROM tree_leaves WHERE pool = ?1
                     ORDER BY leaf_index DESC LIMIT 1",
                    [pool],
                    |r| Ok((r.get(0)?, r.get(1)?)),
                )
                .optional()
                .map_err(db_error)?;
            Ok(CacheHead {
                count: last.map_or(0, |(index, _)| index as u32 + 1),
                last_timestamp: last.map(|(_, time)| time),
            })
        })
    }

    /// The whole tree from its stored nodes, for tests to compare with the tree they built
    /// (a sync reads only the tail); `None` when the nodes were stored for another leaf
    /// count (or never), an error when they are damaged.
    #[cfg(test)]
    fn stored_tree(&self, pool: &str, count: u32) -> Result<Option<MerkleTree>> {
        self.db.with(|db| {
            if !Self::nodes_hold(db, pool, count)? {
                return Ok(None);
            }
            let depth = zk::circuit::DEPTH;
            let mut levels = Vec::with_capacity(depth + 1);
            for level in 0..=depth {
                let count = (count as usize).div_ceil(1 << level);
                let mut nodes = Vec::with_capacity(count);
                for chunk in 0..count.div_ceil(CHUNK) {
                    nodes.extend(read_piece(db, pool, level, chunk)?);
                }
                levels.push(nodes);
            }
            MerkleTree::from_levels(depth, levels)
                .map(Some)
                .map_err(|e| nodes_damaged(pool, e.to_string()))
        })
    }

    /// The pool's tree of its first `count` leaves as far as a sync needs it: the last stored
    /// piece of each level (21 reads of 8 KiB whatever the pool's size), enough to append
    /// leaves and to rewrite the pieces they change ([`MerkleTree::from_tail`]). The whole
    /// tree, rebuilt from those leaves, when the stored nodes are not for `count` leaves or
    /// are damaged.
    pub fn load_tail(&self, pool: &str, count: u32) -> Result<MerkleTree> {
        match self.stored_tail(pool, count) {
            Ok(Some(tail)) => return Ok(tail),
            Ok(None) => {}
            Err(e) => tracing::warn!(pool, error = %e, "stored tree nodes unusable"),
        }
        self.rebuild(pool, count)
    }

    /// How many leaves the stored nodes are for (0 when none are stored): the pool's
    /// inserted leaves as of the last sync, which may be fewer than the cached leaves.
    pub fn tree_count(&self, pool: &str) -> Result<u32> {
        self.db.with(|db| Ok(stored_shape(db, pool)?.unwrap_or(0)))
    }

    /// Whether the stored nodes are for `count` leaves.
    fn nodes_hold(db: &rusqlite::Connection, pool: &str, count: u32) -> Result<bool> {
        Ok(stored_shape(db, pool)? == Some(count))
    }

    fn stored_tail(&self, pool: &str, count: u32) -> Result<Option<MerkleTree>> {
        self.db.with(|db| {
            if !Self::nodes_hold(db, pool, count)? {
                return Ok(None);
            }
            let depth = zk::circuit::DEPTH;
            let mut parts = Vec::with_capacity(depth + 1);
            for level in 0..=depth {
                let nodes = (count as usize).div_ceil(1 << level);
                let Some(last) = nodes.checked_sub(1) else {
                    parts.push((0, Vec::new()));
                    continue;
                };
                let chunk = last / CHUNK;
                parts.push((chunk * CHUNK, read_piece(db, pool, level, chunk)?));
            }
            MerkleTree::from_tail(depth, count as usize, parts)
                .map(Some)
                .map_err(|e| nodes_damaged(pool, e.to_string()))
        })
    }

    /// The sibling path of leaf `index` in the pool's tree of `count` leaves, read from the
    /// one stored piece that holds each sibling (20 reads, not the tree). `None` when the
    /// stored nodes are not for `count` leaves; the caller checks the path against the root
    /// the chain knows, and [`rebuild`](Self::rebuild)s when it does not lead there.
    pub fn path(&self, pool: &str, count: u32, index: u32) -> Result<Option<MerklePath>> {
        if index >= count {
            return Err(nodes_damaged(pool, format!("leaf {index} of {count}")));
        }
        self.db.with(|db| {
            if !Self::nodes_hold(db, pool, count)? {
                return Ok(None);
            }
            let depth = zk::circuit::DEPTH;
            let mut siblings = Vec::with_capacity(depth);
            for level in 0..depth {
                let sibling = (index as usize >> level) ^ 1;
                if sibling >= (count as usize).div_ceil(1 << level) {
                    siblings.push(zk::tree::zeros()[level]);
                    continue;
                }
                let chunk = sibling / CHUNK;
                let node = read_piece(db, pool, level, chunk)?
                    .get(sibling % CHUNK)
                    .copied()
                    .ok_or_else(|| {
                        nodes_damaged(pool, format!("piece {chunk} of level {level} is short"))
                    })?;
                siblings.push(node);
            }
            Ok(Some(MerklePath { siblings, index }))
        })
    }

    /// Builds the pool's tree of its first `count` cached leaves and stores every node
    /// again: for a cache whose nodes are missing, for other leaves, or damaged.
    pub fn rebuild(&self, pool: &str, count: u32) -> Result<MerkleTree> {
        let leaves = self.leaves(pool, count)?;
        let tree = MerkleTree::from_leaves(&leaves)
            .map_err(|e| StoreError::damaged(format!("tree cache of {pool}"), e.to_string()))?;
        self.db.with(|db| {
            let tx = db.transaction().map_err(db_error)?;
            write_nodes(&tx, pool, &tree, 0)?;
            tx.commit().map_err(db_error)
        })?;
        Ok(tree)
    }

    fn leaves(&self, pool: &str, count: u32) -> Result<Vec<zk::Fr>> {
        self.db.with(|db| {
            let mut query = db
                .prepare(
                    "SELECT leaf_index, commitment FROM tree_leaves WHERE pool = ?1
                 AND leaf_index < ?2 ORDER BY leaf_index",
                )
                .map_err(db_error)?;
            let rows = query
                .query_map(params![pool, i64::from(count)], |r| {
                    Ok((r.get::<_, i64>(0)?, r.get::<_, Vec<u8>>(1)?))
                })
                .map_err(db_error)?;
            let mut leaves = Vec::new();
            for (expected, row) in rows.enumerate() {
                let (index, bytes) = row.map_err(db_error)?;
                let word: [u8; 32] = bytes.as_slice().try_into().map_err(|_| {
                    StoreError::damaged(
                        format!("tree cache of {pool}"),
                        format!("leaf {index} is not 32 bytes"),
                    )
                })?;
                if index != expected as i64 {
                    return Err(StoreError::damaged(
                        format!("tree cache of {pool}"),
                        format!("leaf {expected} is missing"),
                    ));
                }
                leaves.push(
                    zk::field::from_be_bytes(&word, "a cached leaf").map_err(|e| {
                        StoreError::damaged(format!("tree cache of {pool}"), e.to_string())
                    })?,
                );
            }
            Ok(leaves)
        })
    }

    /// Saves what a sync found, in one transaction: the stored nodes never hold a leaf the
    /// cache does not, nor is a scan cursor past what was saved. (The cache may hold leaves
    /// the nodes do not: a queued pool's deposits not inserted yet.)
    ///
    /// Many leaves at once (a first sync of a busy pool) are written without the index of
    /// commitments, which is made again afterwards in the same transaction: inserting a
    /// million random keys into the index one by one took 4 to 5 times as long as the rows
    /// themselves, sorting them once takes about as long as the rows.
    pub fn save(&self, pool: &str, update: &Update<'_>) -> Result<()> {
        let bulk = update.leaves.len() >= BULK_LEAVES;
        self.db.with(|db| {
            let tx = db.transaction().map_err(db_error)?;
            if bulk {
                tx.execute_batch("DROP INDEX IF EXISTS tree_leaves_commitment")
                    .map_err(db_error)?;
            }
            {
                let mut insert = tx
                .prepare(
                    "INSERT INTO tree_leaves (pool, leaf_index, commitment, block_timestamp, txid)
                     VALUES (?1, ?2, ?3, ?4, ?5)",
                )
                .map_err(db_error)?;
                for leaf in update.leaves {
                    insert
                        .execute(params![
                            pool,
                            i64::from(leaf.index),
                            leaf.commitment.as_slice(),
                            leaf.block_timestamp,
                            leaf.txid
                        ])
                        .map_err(db_error)?;
                }
                let mut insert = tx
                    .prepare(
                        "INSERT OR IGNORE INTO pool_withdrawals (pool, seq, nullifier_hash, txid,
                         block, block_timestamp, recipient, relayer, fee)
                     VALUES (?1, (SELECT COALESCE(MAX(seq) + 1, 0) FROM pool_withdrawals
                                  WHERE pool = ?1),
                             ?2, ?3, ?4, ?5, ?6, ?7, ?8)",
                    )
                    .map_err(db_error)?;
                for w in update.withdrawals {
                    insert
                        .execute(params![
                            pool,
                            w.nullifier_hash.as_slice(),
                            w.txid,
                            w.block,
                            w.block_timestamp,
                            w.recipient,
                            w.relayer,
                            w.fee
                        ])
                        .map_err(db_error)?;
                }
            }
            if let Some(tree) = update.tree {
                // The nodes from the leaves past the stored tree's on changed; the ones
                // before did not (the tree was loaded from them).
                let first = stored_shape(&tx, pool)?
                    .map_or(0, |count| count as usize)
                    .min(tree.len());
                write_nodes(&tx, pool, tree, first)?;
            }
            if let Some(next) = update.next_block {
                tx.execute(
                    "INSERT OR REPLACE INTO pool_scans (pool, next_block) VALUES (?1, ?2)",
                    params![pool, next as i64],
                )
                .map_err(db_error)?;
            }
            if bulk {
                tx.execute_batch(crate::store::schema::TREE_LEAVES_COMMITMENT_INDEX)
                    .map_err(db_error)?;
            }
            tx.commit().map_err(db_error)
        })
    }

    /// Up to `limit` cached leaves from index `from` on.
    pub(crate) fn leaves_from(&self, pool: &str, from: u32, limit: u32) -> Result<Vec<Leaf>> {
        self.db.with(|db| {
            let mut query = db
                .prepare(
                    "SELECT leaf_index, commitment, block_timestamp, txid FROM tree_leaves
                 WHERE pool = ?1 AND leaf_index >= ?2 ORDER BY leaf_index LIMIT ?3",
                )
                .map_err(db_error)?;
            let rows = query
                .query_map(params![pool, i64::from(from), i64::from(limit)], |r| {
                    Ok((
                        r.get::<_, i64>(0)?,
                        r.get::<_, Vec<u8>>(1)?,
                        r.get::<_, i64>(2)?,
                        r.get::<_, String>(3)?,
                    ))
                })
                .map_err(db_error)?;
            let mut leaves = Vec::new();
            for row in rows {
                let (index, bytes, block_timestamp, txid) = row.map_err(db_error)?;
                let commitment: [u8; 32] = bytes.as_slice().try_into().map_err(|_| {
                    StoreError::damaged(
                        format!("tree cache of {pool}"),
                        format!("leaf {index} is not 32 bytes"),
                    )
                })?;
                leaves.push(Leaf {
                    index: index as u32,
                    commitment,
                    block_timestamp,
                    txid,
                });
            }
            Ok(leaves)
        })
    }

    /// How many withdrawals are cached and the newest one's block time, from the last one
    /// alone (they are numbered from 0 without gaps, in the order they were cached), so
    /// asking costs the same at a million withdrawals as at ten. A source that reported an
    /// older withdrawal last makes the next sync ask from that older time: it reads a few
    /// events again, and the ones already cached are skipped.
    pub(crate) fn withdrawals_head(&self, pool: &str) -> Result<WithdrawalsHead> {
        self.db.with(|db| {
            let last: Option<(i64, i64)> = db
                .query_row(
                    "SELECT seq, block_timestamp FROM pool_withdrawals WHERE pool = ?1
                     ORDER BY seq DESC LIMIT 1",
                    [pool],
                    |r| Ok((r.get(0)?, r.get(1)?)),
                )
                .optional()
                .map_err(db_error)?;
            Ok(WithdrawalsHead {
                count: last.map_or(0, |(seq, _)| seq as u32 + 1),
                last_timestamp: last.map(|(_, time)| time),
            })
        })
    }

    /// Up to `limit` cached withdrawals, in the order they were cached, from the `from`th on.
    pub(crate) fn withdrawals_from(
        &self,
        pool: &str,
        from: u32,
        limit: u32,
    ) -> Result<Vec<Withdrawal>> {
        self.db.with(|db| {
            let mut query = db
                .prepare(
                    "SELECT nullifier_hash, txid, block, block_timestamp, recipient, relayer, fee
                 FROM pool_withdrawals WHERE pool = ?1 AND seq >= ?2 ORDER BY seq LIMIT ?3",
                )
                .map_err(db_error)?;
            let rows = query
                .query_map(
                    params![pool, i64::from(from), i64::from(limit)],
                    withdrawal_row,
                )
                .map_err(db_error)?;
            rows.collect::<rusqlite::Result<Vec<_>>>()
                .map_err(db_error)?
                .into_iter()
                .collect()
        })
    }

    /// The cached withdrawal that spent `nullifier_hash`, if any. What the cache knows only:
    /// `SyncedTree::is_spent` asks it right after a sync.
    pub fn spent(&self, pool: &str, nullifier_hash: &[u8; 32]) -> Result<Option<Withdrawal>> {
        self.db.with(|db| {
            db.query_row(
                "SELECT nullifier_hash, txid, block, block_timestamp, recipient, relayer, fee
                 FROM pool_withdrawals WHERE pool = ?1 AND nullifier_hash = ?2",
                params![pool, nullifier_hash.as_slice()],
                withdrawal_row,
            )
            .optional()
            .map_err(db_error)?
            .transpose()
        })
    }

    /// The block a block scan of the pool continues from, if one ran.
    pub(crate) fn scan_cursor(&self, pool: &str) -> Result<Option<u64>> {
        self.db.with(|db| {
            let next: Option<i64> = db
                .query_row(
                    "SELECT next_block FROM pool_scans WHERE pool = ?1",
                    [pool],
                    |r| r.get(0),
                )
                .optional()
                .map_err(db_error)?;
            Ok(next.map(|n| n.max(0) as u64))
        })
    }

    /// Forgets a pool's cache (the chain does not know its root: a devnet started afresh).
    pub fn clear(&self, pool: &str) -> Result<()> {
        self.db.with(|db| {
            let tx = db.transaction().map_err(db_error)?;
            tx.execute("DELETE FROM tree_leaves WHERE pool = ?1", [pool])
                .map_err(db_error)?;
            tx.execute("DELETE FROM tree_chunks WHERE pool = ?1", [pool])
                .map_err(db_error)?;
            tx.execute("DELETE FROM tree_shapes WHERE pool = ?1", [pool])
                .map_err(db_error)?;
            tx.execute("DELETE FROM pool_withdrawals WHERE pool = ?1", [pool])
                .map_err(db_error)?;
            tx.execute("DELETE FROM pool_scans WHERE pool = ?1", [pool])
                .map_err(db_error)?;
            tx.commit().map_err(db_error)
        })
    }

    /// The leaf of a commitment, if cached.
    pub fn index_of(&self, pool: &str, commitment: &[u8; 32]) -> Result<Option<Leaf>> {
        self.db.with(|db| {
            db.query_row(
                "SELECT leaf_index, block_timestamp, txid FROM tree_leaves
                 WHERE pool = ?1 AND commitment = ?2",
                params![pool, commitment.as_slice()],
                |r| {
                    Ok(Leaf {
                        index: r.get::<_, i64>(0)? as u32,
                        commitment: *commitment,
                        block_timestamp: r.get(1)?,
                        txid: r.get(2)?,
                    })
                },
            )
            .optional()
            .map_err(db_error)
        })
    }
}

/// Stores the pieces of `tree` that hold a node changed by the leaves from `first` on (all
/// of them for 0), and the leaf count they are for.
fn write_nodes(
    tx: &rusqlite::Transaction<'_>,
    pool: &str,
    tree: &MerkleTree,
    first: usize,
) -> Result<()> {
    let mut write = tx
        .prepare_cached(
            "INSERT OR REPLACE INTO tree_chunks (pool, level, chunk, nodes) VALUES (?1, ?2, ?3, ?4)",
        )
        .map_err(db_error)?;
    if first == 0 {
        // Whatever was stored before is replaced whole, pieces past the new shape included.
        tx.execute("DELETE FROM tree_chunks WHERE pool = ?1", [pool])
            .map_err(db_error)?;
    }
    let mut bytes = Vec::with_capacity(32 * CHUNK);
    for level in 0..=tree.depth() {
        // A tail holds the level from `held` on, from the start of a piece.
        let (held, nodes) = (tree.held_from(level), tree.level(level));
        let count = held + nodes.len();
        // A leaf from `first` on changes its ancestors from `first >> level` on.
        let changed = (first >> level).min(count);
        for chunk in changed / CHUNK..count.div_ceil(CHUNK) {
            let start = chunk * CHUNK;
            let Some(from) = start.checked_sub(held) else {
                return Err(StoreError::damaged(
                    format!("tree cache of {pool}"),
                    format!("piece {chunk} of level {level} changed but is not held"),
                ));
            };
            bytes.clear();
            let end = (start + CHUNK).min(count) - held;
            for node in &nodes[from..end] {
                bytes.extend_from_slice(&zk::field::to_montgomery_le(node));
            }
            write
                .execute(params![pool, level as i64, chunk as i64, bytes.as_slice()])
                .map_err(db_error)?;
        }
    }
    tx.execute(
        "INSERT OR REPLACE INTO tree_shapes (pool, leaf_count) VALUES (?1, ?2)",
        params![pool, tree.len() as i64],
    )
    .map_err(db_error)?;
    Ok(())
}

/// How many leaves the stored nodes are for, when any are stored.
fn stored_shape(db: &rusqlite::Connection, pool: &str) -> Result<Option<u32>> {
    let stored: Option<i64> = db
        .query_row(
            "SELECT leaf_count FROM tree_shapes WHERE pool = ?1",
            [pool],
            |r| r.get(0),
        )
        .optional()
        .map_err(db_error)?;
    Ok(stored.map(|count| count as u32))
}

/// The cache's stored nodes are damaged: the caller rebuilds them from the leaves.
fn nodes_damaged(pool: &str, detail: String) -> Error {
    StoreError::damaged(format!("tree nodes of {pool}"), detail)
}

/// The nodes of one stored piece, as they were held in memory; a piece that is missing or
/// not whole nodes is damage.
fn read_piece(
    db: &rusqlite::Connection,
    pool: &str,
    level: usize,
    chunk: usize,
) -> Result<Vec<zk::Fr>> {
    let damaged = |detail: String| nodes_damaged(pool, detail);
    let mut query = db
        .prepare_cached(
            "SELECT nodes FROM tree_chunks WHERE pool = ?1 AND level = ?2 AND chunk = ?3",
        )
        .map_err(db_error)?;
    let mut rows = query
        .query(params![pool, level as i64, chunk as i64])
        .map_err(db_error)?;
    let Some(row) = rows.next().map_err(db_error)? else {
        return Err(damaged(format!(
            "piece {chunk} of level {level} is missing"
        )));
    };
    let bytes = row
        .get_ref(0)
        .map_err(db_error)?
        .as_blob()
        .map_err(|e| damaged(e.to_string()))?;
    if bytes.len() % 32 != 0 || bytes.len() > 32 * CHUNK {
        return Err(damaged(format!(
            "piece {chunk} of level {level} is {} bytes",
            bytes.len()
        )));
    }
    bytes
        .chunks_exact(32)
        .map(|word| {
            let word: &[u8; 32] = word.try_into().expect("32-byte chunks");
            zk::field::from_montgomery_le(word)
                .ok_or_else(|| damaged(format!("a node of piece {chunk} of level {level}")))
        })
        .collect()
}

/// A `pool_withdrawals` row; a nullifier hash of the wrong length is the cache's error.
fn withdrawal_row(r: &rusqlite::Row<'_>) -> rusqlite::Result<Result<Withdrawal>> {
    let bytes: Vec<u8> = r.get(0)?;
    let txid: String = r.get(1)?;
    let Ok(nullifier_hash) = <[u8; 32]>::try_from(bytes.as_slice()) else {
        return Ok(Err(StoreError::damaged(
            "tree cache",
            format!("the nullifier hash of withdrawal {txid} is not 32 bytes"),
        )));
    };
    Ok(Ok(Withdrawal {
        nullifier_hash,
        txid,
        block: r.get(2)?,
        block_timestamp: r.get(3)?,
        recipient: r.get(4)?,
        relayer: r.get(5)?,
        fee: r.get(6)?,
    }))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn leaf(index: u32) -> Leaf {
        let mut commitment = [0u8; 32];
        commitment[28..].copy_from_slice(&(index + 1).to_be_bytes());
        Leaf {
            index,
            commitment,
            block_timestamp: 1000 + i64::from(index),
            txid: format!("tx{index}"),
        }
    }

    #[test]
    fn leaves_and_nodes_round_trip_and_damaged_nodes_are_rebuilt() {
        let cache = TreeCache::in_memory().unwrap();
        assert_eq!(
            cache
                .load_tail("P", cache.head("P").unwrap().count)
                .unwrap()
                .len(),
            0
        );
        let leaves: Vec<Leaf> = (0..5).map(leaf).collect();
        let fr: Vec<zk::Fr> = leaves
            .iter()
            .map(|l| zk::field::from_be_bytes(&l.commitment, "t").unwrap())
            .collect();
        let tree = MerkleTree::from_leaves(&fr).unwrap();
        cache
            .save(
                "P",
                &Update {
                    leaves: &leaves,
                    tree: Some(&tree),
                    ..Update::default()
                },
            )
            .unwrap();
        assert_eq!(
            cache.head("P").unwrap(),
            CacheHead {
                count: 5,
                last_timestamp: Some(1004)
            }
        );
        assert_eq!(cache.stored_tree("P", 5).unwrap().unwrap(), tree);
        assert_eq!(
            cache
                .index_of("P", &leaves[3].commitment)
                .unwrap()
                .unwrap()
                .index,
            3
        );
        // Damaged nodes are rebuilt from the leaves.
        cache
            .db
            .with(|db| db.execute("UPDATE tree_chunks SET nodes = x'00' WHERE level = 1", []))
            .unwrap();
        assert_eq!(
            cache
                .load_tail("P", cache.head("P").unwrap().count)
                .unwrap()
                .root(),
            tree.root()
        );
        assert_eq!(cache.stored_tree("P", 5).unwrap().unwrap(), tree);
        assert_eq!(cache.leaves_from("P", 3, 10).unwrap().len(), 2);
        assert_eq!(cache.leaves_from("P", 1, 1).unwrap()[0].index, 1);
        cache.clear("P").unwrap();
        assert_eq!(cache.head("P").unwrap().count, 0);
    }

    /// A sync that adds a few leaves to a big cached tree rewrites the pieces on their
    /// paths (a piece or two a level), not the tree; the tree loads back the same.
    #[test]
    fn a_sync_rewrites_only_the_pieces_its_leaves_changed() {
        let cache = TreeCache::in_memory().unwrap();
        let save = |leaves: &[Leaf], tree: &MerkleTree| {
            cache
                .save(
                    "P",
                    &Update {
                        leaves,
                        tree: Some(tree),
                        ..Update::default()
                    },
                )
                .unwrap()
        };
        let pieces = || -> i64 {
            cache
                .db
                .with(|db| db.query_row("SELECT COUNT(*) FROM tree_chunks", [], |r| r.get(0)))
                .unwrap()
        };
        let all: Vec<Leaf> = (0..20_010).map(leaf).collect();
        let fr = |leaves: &[Leaf]| -> Vec<zk::Fr> {
            leaves
                .iter()
                .map(|l| zk::field::from_be_bytes(&l.commitment, "t").unwrap())
                .collect()
        };
        let mut tree = MerkleTree::from_leaves(&fr(&all[..20_000])).unwrap();
        save(&all[..20_000], &tree);
        // 20,000 leaves: 79 pieces of leaves, 40 of level 1, ... and one a level above 2^16.
        let stored = pieces();
        assert!(stored > 150, "{stored} pieces");
        // The sync holds the tail only: the last piece of each level.
        let mut tail = cache
            .load_tail("P", cache.head("P").unwrap().count)
            .unwrap();
        assert_eq!((tail.len(), tail.root()), (tree.len(), tree.root()));
        assert_eq!(tail.held_from(0), 19_968);
        assert!(tail.level(0).len() <= CHUNK);
        tail.extend(&fr(&all[20_000..])).unwrap();
        tree.extend(&fr(&all[20_000..])).unwrap();
        let before = cache.db.with(|db| db.total_changes());
        save(&all[20_000..], &tail);
        let changes = cache.db.with(|db| db.total_changes()) - before;
        // 10 leaves, at most two pieces on each of the 21 levels, the shape.
        assert!(changes <= 10 + 2 * 21 + 1, "{changes} rows written");
        assert_eq!(pieces(), stored, "no new piece was needed");
        assert_eq!(cache.stored_tree("P", 20_010).unwrap().unwrap(), tree);
        // A proof's path is read from the pieces, one a level.
        for index in [0, 1, 255, 256, 9_999, 19_999, 20_009] {
            assert_eq!(
                cache.path("P", 20_010, index).unwrap().unwrap(),
                tree.path(index).unwrap(),
                "leaf {index}"
            );
        }
        assert!(cache.path("P", 20_010, 20_010).is_err());
        // Pieces stored for another leaf count are not used: the leaves rebuild the tree.
        assert_eq!(cache.path("P", 20_000, 0).unwrap(), None);
        cache
            .db
            .with(|db| db.execute("UPDATE tree_shapes SET leaf_count = 5", []))
            .unwrap();
        assert_eq!(cache.path("P", 20_010, 0).unwrap(), None);
        let rebuilt = cache
            .load_tail("P", cache.head("P").unwrap().count)
            .unwrap();
        assert_eq!((rebuilt.len(), rebuilt.root()), (tree.len(), tree.root()));
        assert_eq!(cache.stored_tree("P", 20_010).unwrap().unwrap(), tree);
        assert_eq!(
            cache.path("P", 20_010, 0).unwrap().unwrap(),
            tree.path(0).unwrap()
        );
    }

    /// A first sync of a busy pool writes its leaves without the index of commitments and
    /// makes the index again before it commits: commitments are found as before.
    #[test]
    fn a_bulk_save_keeps_the_index_of_commitments() {
        let cache = TreeCache::in_memory().unwrap();
        let leaves: Vec<Leaf> = (0..BULK_LEAVES as u32).map(leaf).collect();
        let fr: Vec<zk::Fr> = leaves
            .iter()
            .map(|l| zk::field::from_be_bytes(&l.commitment, "t").unwrap())
            .collect();
        let tree = MerkleTree::from_leaves(&fr).unwrap();
        let update = Update {
            leaves: &leaves,
            tree: Some(&tree),
            ..Update::default()
        };
        cache.save("P", &update).unwrap();
        let indexed: i64 = cache
            .db
            .with(|db| {
                db.query_row(
                    "SELECT COUNT(*) FROM sqlite_master WHERE name = 'tree_leaves_commitment'",
                    [],
                    |r| r.get(0),
                )
            })
            .unwrap();
        assert_eq!(indexed, 1);
        let last = &leaves[BULK_LEAVES - 1];
        assert_eq!(
            cache
                .index_of("P", &last.commitment)
                .unwrap()
                .unwrap()
                .index,
            last.index
        );
        // A failed bulk save (the same leaves again) changes nothing, the index included.
        assert!(cache.save("P", &update).is_err());
        assert_eq!(cache.head("P").unwrap().count, BULK_LEAVES as u32);
        assert!(
            cache
                .index_of("P", &leaves[7].commitment)
                .unwrap()
                .is_some()
        );
    }

    fn withdrawal(n: u8) -> Withdrawal {
        Withdrawal {
            nullifier_hash: [n; 32],
            txid: format!("w{n}"),
            block: Some(i64::from(n)),
            block_timestamp: 2000 + i64::from(n),
            recipient: "TRecipient".into(),
            relayer: n.is_multiple_of(2).then(|| "TRelayer".into()),
            fee: (u32::from(n) * 1000).to_string(),
        }
    }

    #[test]
    fn withdrawals_are_kept_once_each_in_order_with_the_scan_cursor() {
        let cache = TreeCache::in_memory().unwrap();
        let first = [withdrawal(1), withdrawal(2)];
        let update = Update {
            withdrawals: &first,
            next_block: Some(40),
            ..Update::default()
        };
        cache.save("P", &update).unwrap();
        // A source that sends the newest again (events of the same block) adds nothing twice.
        let again = [withdrawal(2), withdrawal(3)];
        let update = Update {
            withdrawals: &again,
            ..Update::default()
        };
        cache.save("P", &update).unwrap();
        assert_eq!(
            cache.withdrawals_head("P").unwrap(),
            WithdrawalsHead {
                count: 3,
                last_timestamp: Some(2003)
            }
        );
        let page = cache.withdrawals_from("P", 1, 5).unwrap();
        assert_eq!(page, vec![withdrawal(2), withdrawal(3)]);
        assert_eq!(cache.spent("P", &[2; 32]).unwrap(), Some(withdrawal(2)));
        assert_eq!(cache.spent("P", &[7; 32]).unwrap(), None);
        assert_eq!(cache.spent("Q", &[2; 32]).unwrap(), None, "per pool");
        assert_eq!(cache.scan_cursor("P").unwrap(), Some(40));
        // An update that fails halfway (a leaf twice) is refused, and nothing of it is kept.
        let leaves = [leaf(0), leaf(0)];
        let bad = Update {
            leaves: &leaves,
            next_block: Some(99),
            ..Update::default()
        };
        assert!(cache.save("P", &bad).is_err());
        assert_eq!(cache.scan_cursor("P").unwrap(), Some(40));
        cache.clear("P").unwrap();
        assert_eq!(cache.withdrawals_head("P").unwrap().count, 0);
        assert_eq!(cache.scan_cursor("P").unwrap(), None);
    }
}
