//! Rebuilding a pool's Merkle tree on the client from its `Deposit` events, so a withdrawal
//! can prove membership without telling anyone which leaf is its own.
//!
//! The leaves are cached per network; a sync asks the events API only for what is newer than
//! the cache (paging with fingerprints; the node client retries transient failures), checks
//! the leaves arrive in order without gaps, and then asks the pool whether the resulting root
//! is one of its recent roots. Only a tree the chain recognises is saved or used: a mismatch
//! is an error naming the pool, never a proof against a root the contract never had.

use alloy_primitives::B256;
use contracts::TronPool;
use serde::Serialize;
use tron::client::{Event, EventQuery};
use zk::tree::MerkleTree;

use crate::error::{Error, Result};
use crate::service::chain::Chain;
use crate::service::pools::word_hex;
use crate::store::trees::{Leaf, TreeCache};

/// Enough pages for a full pool (2^20 deposits at 200 a page), with room to spare.
const MAX_PAGES: usize = 6_000;

/// How far a sync has come, for a progress bar.
#[derive(Debug, Clone, Copy)]
pub struct SyncProgress {
    pub have: u64,
    /// The pool's deposit count when the sync started.
    pub target: u64,
}

/// A pool's tree, checked against the chain.
pub struct SyncedTree {
    pub denomination: u64,
    pub tree: MerkleTree,
    /// The root, as the contract stores it.
    pub root: B256,
    /// Leaves fetched by this sync (the rest came from the cache).
    pub fetched: usize,
}

/// What `sync` reports.
#[derive(Debug, Clone, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct SyncReport {
    pub denomination: u64,
    pub leaves: usize,
    pub fetched: usize,
    pub root: String,
}

impl SyncedTree {
    pub fn report(&self) -> SyncReport {
        SyncReport {
            denomination: self.denomination,
            leaves: self.tree.len(),
            fetched: self.fetched,
            root: word_hex(&self.root),
        }
    }
}

impl Chain {
    /// Brings the cached tree of a pool up to date and checks its root against the chain.
    /// A cache the chain does not recognise (a devnet started afresh) is dropped and the
    /// tree fetched again from the start, once.
    pub async fn sync_tree(
        &self,
        denomination: u64,
        cache: &TreeCache,
        progress: &(dyn Fn(SyncProgress) + Sync),
    ) -> Result<SyncedTree> {
        let pool = self.pool_address(denomination)?;
        let key = pool.to_base58();
        let cached = cache.head(&key)?.count;
        let why = match self.sync_once(denomination, cache, progress).await? {
            Attempt::Done(synced) => return Ok(synced),
            Attempt::Stale(why) if cached > 0 => why,
            Attempt::Stale(why) => return Err(Error::Refused(why)),
        };
        tracing::warn!(pool = %key, reason = %why, "dropping the tree cache");
        cache.clear(&key)?;
        match self.sync_once(denomination, cache, progress).await? {
            Attempt::Done(synced) => Ok(synced),
            Attempt::Stale(why) => Err(Error::Refused(why)),
        }
    }

    async fn sync_once(
        &self,
        denomination: u64,
        cache: &TreeCache,
        progress: &(dyn Fn(SyncProgress) + Sync),
    ) -> Result<Attempt> {
        let pool = self.pool_address(denomination)?;
        let key = pool.to_base58();
        let head = cache.head(&key)?;
        let target: u32 = self.view(pool, TronPool::nextIndexCall {}).await?;
        if head.count > target {
            return Ok(Attempt::Stale(format!(
                "the cache holds {} leaves of the {denomination} USDT pool {pool}, but the \
                 pool has {target} deposits",
                head.count
            )));
        }
        let mut tree = cache.load(&key)?;
        progress(SyncProgress {
            have: head.count.into(),
            target: target.into(),
        });
        let mut new_leaves: Vec<Leaf> = Vec::new();
        if head.count < target {
            let query = EventQuery {
                event_name: Some("Deposit".into()),
                limit: Some(200),
                ascending: true,
                // Events of the newest cached block again: more deposits may share it.
                min_block_timestamp: head.last_timestamp,
                ..Default::default()
            };
            let mut fingerprint: Option<String> = None;
            let mut pages = 0;
            loop {
                pages += 1;
                if pages > MAX_PAGES {
                    return Err(Error::Failed(format!(
                        "the events of the {denomination} USDT pool are still paging after \
                         {MAX_PAGES} pages"
                    )));
                }
                let page = self
                    .node
                    .contract_events(&pool, &query, fingerprint.as_deref())
                    .await?;
                for event in &page.events {
                    let leaf = deposit_leaf(event).map_err(|why| {
                        Error::Failed(format!(
                            "a Deposit event of the {denomination} USDT pool {pool} is \
                             unreadable: {why}"
                        ))
                    })?;
                    let next = head.count + new_leaves.len() as u32;
                    if leaf.index < next {
                        continue;
                    }
                    if leaf.index > next {
                        return Err(Error::Failed(format!(
                            "the events API skipped deposits of the {denomination} USDT pool \
                             {pool}: leaf {} arrived when {next} was next",
                            leaf.index
                        )));
                    }
                    new_leaves.push(leaf);
                }
                progress(SyncProgress {
                    have: u64::from(head.count) + new_leaves.len() as u64,
                    target: target.into(),
                });
                match page.fingerprint {
                    Some(next) if fingerprint.as_ref() != Some(&next) => fingerprint = Some(next),
                    Some(_) => {
                        return Err(Error::Failed(
                            "the events API returned the same page twice".into(),
                        ));
                    }
                    None => break,
                }
            }
            let fresh = new_leaves
                .iter()
                .map(|l| zk::field::from_be_bytes(&l.commitment, "a deposit's commitment"))
                .collect::<std::result::Result<Vec<_>, _>>()
                .map_err(|e| Error::Failed(format!("the {denomination} USDT pool: {e}")))?;
            let extend = tokio::task::spawn_blocking(move || tree.extend(&fresh).map(|_| tree));
            tree = extend
                .await
                .map_err(|e| Error::Failed(format!("building the tree stopped: {e}")))?
                .map_err(|e| Error::Failed(format!("the {denomination} USDT pool: {e}")))?;
        }
        if (tree.len() as u64) < u64::from(target) {
            return Err(Error::Failed(format!(
                "the events API knows {} deposits of the {denomination} USDT pool {pool}; \
                 the pool has {target} (the indexer is behind: try again shortly)",
                tree.len()
            )));
        }
        let root = B256::from(zk::field::to_be_bytes(&tree.root()));
        if !tree.is_empty() && !self.is_known_root(denomination, root).await? {
            return Ok(Attempt::Stale(format!(
                "the tree rebuilt from the deposits of the {denomination} USDT pool {pool} \
                 has root {}, which the pool does not know; refusing to prove against it",
                word_hex(&root)
            )));
        }
        if !new_leaves.is_empty() {
            cache.append(&key, &new_leaves, &tree)?;
        }
        Ok(Attempt::Done(SyncedTree {
            denomination,
            tree,
            root,
            fetched: new_leaves.len(),
        }))
    }
}

/// One pass of a sync: a checked tree, or why the cache cannot be right.
enum Attempt {
    Done(SyncedTree),
    Stale(String),
}

/// The leaf a `Deposit(bytes32 indexed commitment, uint32 leafIndex, uint256 timestamp)`
/// event reports.
fn deposit_leaf(event: &Event) -> std::result::Result<Leaf, String> {
    let text = |name: &str| -> std::result::Result<String, String> {
        match event.result.get(name) {
            Some(serde_json::Value::String(s)) => Ok(s.clone()),
            Some(serde_json::Value::Number(n)) => Ok(n.to_string()),
            _ => Err(format!("no `{name}`")),
        }
    };
    let commitment = text("commitment")?;
    let digits = commitment.trim_start_matches("0x");
    let bytes = hex::decode(digits).map_err(|_| format!("commitment `{commitment}`"))?;
    let commitment: [u8; 32] = bytes
        .try_into()
        .map_err(|_| format!("commitment `{commitment}` is not 32 bytes"))?;
    let index = text("leafIndex")?;
    let index: u32 = index.parse().map_err(|_| format!("leafIndex `{index}`"))?;
    Ok(Leaf {
        index,
        commitment,
        block_timestamp: event.block_timestamp,
        txid: event.transaction_id.to_hex(),
    })
}
