//! Each pool's deposit leaves, cached in the network's database so a sync only fetches what
//! is new, with a snapshot of every tree node beside them so loading a busy pool's tree does
//! not hash it again.
//!
//! The leaves are the truth; the snapshot is a shortcut, used only when it holds exactly the
//! stored leaves and its checksum matches, and otherwise rebuilt from them.

use std::path::Path;
use std::sync::Mutex;

use rusqlite::{Connection, OptionalExtension, params};
use zk::tree::MerkleTree;

use crate::error::{Error, Result};

/// One deposit, as its event reported it.
#[derive(Debug, Clone)]
pub struct Leaf {
    pub index: u32,
    pub commitment: [u8; 32],
    pub block_timestamp: i64,
    pub txid: String,
}

/// What is cached for a pool.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct CacheHead {
    pub count: u32,
    /// The block time of the newest cached leaf: the next sync asks for events from here.
    pub last_timestamp: Option<i64>,
}

pub struct TreeCache {
    db: Mutex<Connection>,
}

fn db_error(e: rusqlite::Error) -> Error {
    Error::Failed(format!("tree cache: {e}"))
}

impl TreeCache {
    pub fn open(path: &Path) -> Result<Self> {
        Self::init(crate::store::db::open(path, "the tree cache")?)
    }

    pub fn in_memory() -> Result<Self> {
        Self::init(crate::store::db::in_memory("the tree cache")?)
    }

    /// The tables are the database's (`store::schema`), made or migrated when it opened.
    fn init(conn: Connection) -> Result<Self> {
        Ok(TreeCache {
            db: Mutex::new(conn),
        })
    }

    fn db(&self) -> std::sync::MutexGuard<'_, Connection> {
        self.db.lock().unwrap_or_else(|e| e.into_inner())
    }

    pub fn head(&self, pool: &str) -> Result<CacheHead> {
        let (count, last): (i64, Option<i64>) = self
            .db()
            .query_row(
                "SELECT COUNT(*), MAX(block_timestamp) FROM tree_leaves WHERE pool = ?1",
                [pool],
                |r| Ok((r.get(0)?, r.get(1)?)),
            )
            .map_err(db_error)?;
        Ok(CacheHead {
            count: count as u32,
            last_timestamp: last,
        })
    }

    /// The pool's tree as cached: from the node snapshot when it is current, else rebuilt
    /// from the leaves (and the snapshot refreshed).
    pub fn load(&self, pool: &str) -> Result<MerkleTree> {
        let count = self.head(pool)?.count;
        let snapshot: Option<(i64, Vec<u8>)> = self
            .db()
            .query_row(
                "SELECT leaf_count, nodes FROM tree_nodes WHERE pool = ?1",
                [pool],
                |r| Ok((r.get(0)?, r.get(1)?)),
            )
            .optional()
            .map_err(db_error)?;
        if let Some((cached, bytes)) = snapshot
            && cached == i64::from(count)
        {
            match MerkleTree::from_nodes_bytes(&bytes) {
                Ok(tree) if tree.len() == count as usize => return Ok(tree),
                Ok(_) => tracing::warn!(pool, "tree snapshot disagrees with the leaves"),
                Err(e) => tracing::warn!(pool, error = %e, "tree snapshot unreadable"),
            }
        }
        let leaves = self.leaves(pool)?;
        let tree = MerkleTree::from_leaves(&leaves)
            .map_err(|e| Error::Failed(format!("tree cache of {pool}: {e}")))?;
        self.save_snapshot(pool, &tree)?;
        Ok(tree)
    }

    fn leaves(&self, pool: &str) -> Result<Vec<zk::Fr>> {
        let db = self.db();
        let mut query = db
            .prepare(
                "SELECT leaf_index, commitment FROM tree_leaves WHERE pool = ?1
                 ORDER BY leaf_index",
            )
            .map_err(db_error)?;
        let rows = query
            .query_map([pool], |r| {
                Ok((r.get::<_, i64>(0)?, r.get::<_, Vec<u8>>(1)?))
            })
            .map_err(db_error)?;
        let mut leaves = Vec::new();
        for (expected, row) in rows.enumerate() {
            let (index, bytes) = row.map_err(db_error)?;
            let word: [u8; 32] = bytes.as_slice().try_into().map_err(|_| {
                Error::Failed(format!(
                    "tree cache of {pool}: leaf {index} is not 32 bytes"
                ))
            })?;
            if index != expected as i64 {
                return Err(Error::Failed(format!(
                    "tree cache of {pool}: leaf {expected} is missing"
                )));
            }
            leaves.push(
                zk::field::from_be_bytes(&word, "a cached leaf")
                    .map_err(|e| Error::Failed(format!("tree cache of {pool}: {e}")))?,
            );
        }
        Ok(leaves)
    }

    /// Appends new leaves and the tree they make, in one transaction: the cache never holds
    /// leaves its snapshot does not know about, or the reverse.
    pub fn append(&self, pool: &str, leaves: &[Leaf], tree: &MerkleTree) -> Result<()> {
        let nodes = tree.to_nodes_bytes();
        let mut db = self.db();
        let tx = db.transaction().map_err(db_error)?;
        {
            let mut insert = tx
                .prepare(
                    "INSERT INTO tree_leaves (pool, leaf_index, commitment, block_timestamp, txid)
                     VALUES (?1, ?2, ?3, ?4, ?5)",
                )
                .map_err(db_error)?;
            for leaf in leaves {
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
        }
        tx.execute(
            "INSERT OR REPLACE INTO tree_nodes (pool, leaf_count, nodes) VALUES (?1, ?2, ?3)",
            params![pool, tree.len() as i64, nodes],
        )
        .map_err(db_error)?;
        tx.commit().map_err(db_error)
    }

    fn save_snapshot(&self, pool: &str, tree: &MerkleTree) -> Result<()> {
        self.db()
            .execute(
                "INSERT OR REPLACE INTO tree_nodes (pool, leaf_count, nodes) VALUES (?1, ?2, ?3)",
                params![pool, tree.len() as i64, tree.to_nodes_bytes()],
            )
            .map_err(db_error)?;
        Ok(())
    }

    /// Forgets a pool's cache (the chain does not know its root: a devnet started afresh).
    pub fn clear(&self, pool: &str) -> Result<()> {
        let mut db = self.db();
        let tx = db.transaction().map_err(db_error)?;
        tx.execute("DELETE FROM tree_leaves WHERE pool = ?1", [pool])
            .map_err(db_error)?;
        tx.execute("DELETE FROM tree_nodes WHERE pool = ?1", [pool])
            .map_err(db_error)?;
        tx.commit().map_err(db_error)
    }

    /// The leaf of a commitment, if cached.
    pub fn index_of(&self, pool: &str, commitment: &[u8; 32]) -> Result<Option<Leaf>> {
        self.db()
            .query_row(
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
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn leaf(index: u32) -> Leaf {
        let mut commitment = [0u8; 32];
        commitment[31] = index as u8 + 1;
        Leaf {
            index,
            commitment,
            block_timestamp: 1000 + i64::from(index),
            txid: format!("tx{index}"),
        }
    }

    #[test]
    fn leaves_and_snapshot_round_trip_and_a_bad_snapshot_is_rebuilt() {
        let cache = TreeCache::in_memory().unwrap();
        assert_eq!(cache.load("P").unwrap().len(), 0);
        let leaves: Vec<Leaf> = (0..5).map(leaf).collect();
        let fr: Vec<zk::Fr> = leaves
            .iter()
            .map(|l| zk::field::from_be_bytes(&l.commitment, "t").unwrap())
            .collect();
        let tree = MerkleTree::from_leaves(&fr).unwrap();
        cache.append("P", &leaves, &tree).unwrap();
        assert_eq!(
            cache.head("P").unwrap(),
            CacheHead {
                count: 5,
                last_timestamp: Some(1004)
            }
        );
        assert_eq!(cache.load("P").unwrap().root(), tree.root());
        assert_eq!(
            cache
                .index_of("P", &leaves[3].commitment)
                .unwrap()
                .unwrap()
                .index,
            3
        );
        // A damaged snapshot is rebuilt from the leaves.
        cache
            .db()
            .execute("UPDATE tree_nodes SET nodes = x'00'", [])
            .unwrap();
        assert_eq!(cache.load("P").unwrap().root(), tree.root());
        cache.clear("P").unwrap();
        assert_eq!(cache.head("P").unwrap().count, 0);
    }
}
