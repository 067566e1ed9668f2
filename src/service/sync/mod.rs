//! Rebuilding a pool's Merkle tree on the client from its `Deposit` events, so a withdrawal
//! can prove membership without telling anyone which leaf is its own, and keeping its
//! `Withdrawal` events beside it, so whether a note is spent is known here without asking a
//! node about its nullifier ([`SyncedTree::is_spent`]).
//!
//! The leaves and withdrawals are cached per network. A sync asks its sources, in the
//! operator's order ([`SyncSource`]), only for what is newer than the cache: another tronpool
//! server (`GET /api/pools/{denom}/leaves` and `…/withdrawals`), TronGrid's events API
//! (paging with fingerprints), or a scan of the node's blocks from the pool's deployment
//! (`gettransactioninfobyblocknum`, all a bare java-tron node serves). A source that cannot be
//! reached, does not serve the API or is behind the pool is passed over for the next. The
//! leaves must arrive in order without gaps, and the tree they make must have a root the pool
//! knows (`isKnownRoot`): only a tree the chain recognises is saved or used, whoever supplied
//! it. A mismatch is an error naming the source, never a proof against a root the contract
//! never had.
//!
//! Withdrawals cannot be checked against a root. A source that leaves one out makes a spent
//! note look unspent here; the contract still refuses it, so a self-withdrawal's simulation
//! fails and a relayer (which asks its node) refuses it, and nothing is paid.

use std::time::{Duration, Instant};

use alloy_primitives::B256;
use contracts::TronPool;
use serde::Serialize;
use tron::{Address, NodeError};
use zk::tree::MerklePath;

use crate::error::{Error, Result};
use crate::service::chain::{Chain, LastSync};
use crate::service::format::word_hex;
use crate::service::inputs::LeafFormat;
use crate::service::pools;
use crate::service::server_client::ServerClient;
use crate::service::wire::{
    LeafEntry, LeavesPage, LeavesReply, PackedLeavesPage, WithdrawalEntry, WithdrawalsPage,
};
use crate::settings::SyncSource;
/// The synced pools' leaves and withdrawals: what sync writes and `serve` pages out. The API
/// holds it as the service's, never opening the store itself.
pub use crate::store::trees::TreeCache;

mod events;
mod grow;
mod queue;
mod scan;
mod server;
mod source;

use crate::store::trees::{CacheHead, Leaf, Update, Withdrawal};
pub use events::InsertedBy;
use events::{batch_event, deposit_leaf, withdrawal_event};
use queue::{commitments_between, queue_holds, tree_base};
use server::fetch_from_server;
pub use source::SyncProgress;
use source::{Fetched, MAX_PAGES};
pub(crate) use source::{MAX_PACKED_PAGE, MAX_PAGE};

/// Blocks a scan asks for at once.
const SCAN_CONCURRENCY: usize = 8;
/// A sync server's answer takes at most this long.
const SERVER_TIMEOUT: Duration = Duration::from_secs(30);

/// A pool's tree, checked against the chain, and its withdrawals as of the same sync. The
/// tree's nodes stay in the cache: a proof reads the one path it needs from there
/// ([`path`](Self::path)), so a sync holds no more of a million-leaf tree than its tail.
pub struct SyncedTree {
    pub denomination: u64,
    pub pool: Address,
    /// How many leaves the tree has (the pool's `nextIndex` when it synced): the deposits
    /// a withdrawal can prove.
    pub leaves: u32,
    /// Every deposit the pool had taken (its `queued()` for a queued pool): the ones past
    /// `leaves` wait for a batch.
    pub deposits: u32,
    /// The root, as the contract stores it.
    pub root: B256,
    /// Leaves fetched by this sync (the rest came from the cache).
    pub fetched: usize,
    /// Withdrawals the pool has had, as far as the sync's source knew.
    pub withdrawals: u32,
    /// Where this sync's news came from (`events`, `scan`, a server's URL).
    pub source: String,
}

/// What `pool sync` reports.
#[derive(Debug, Clone, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct SyncReport {
    pub denomination: u64,
    /// The deposits in the pool's tree.
    pub leaves: usize,
    /// The deposits waiting for a batch to insert them.
    pub queued: u32,
    pub fetched: usize,
    pub withdrawals: u32,
    pub root: String,
    pub source: String,
}

impl SyncedTree {
    pub fn report(&self) -> SyncReport {
        SyncReport {
            denomination: self.denomination,
            leaves: self.leaves as usize,
            queued: self.deposits - self.leaves,
            fetched: self.fetched,
            withdrawals: self.withdrawals,
            root: word_hex(&self.root),
            source: self.source.clone(),
        }
    }

    /// Whether `nullifier_hash` is spent, by the pool's withdrawals as this sync cached them:
    /// the one place the client decides it, without asking a node (asking would tell the
    /// node which nullifier the session holds, and so link it to the deposit it also reads).
    /// `Some` names the withdrawal that spent it.
    pub(crate) fn is_spent(
        &self,
        cache: &TreeCache,
        nullifier_hash: B256,
    ) -> Result<Option<Withdrawal>> {
        cache.spent(&self.pool.to_base58(), &nullifier_hash.0)
    }

    /// The queue position of `commitment` (its leaf index to be), when it was deposited,
    /// inserted or not.
    pub(crate) fn position_of(&self, cache: &TreeCache, commitment: B256) -> Result<Option<u32>> {
        let leaf = cache.index_of(&self.pool.to_base58(), &commitment.0)?;
        Ok(leaf.map(|l| l.index).filter(|&i| i < self.deposits))
    }

    /// The queue position of the deposit of `commitment` while it waits for a batch
    /// (deposited, not yet in the tree); `None` once inserted, or when never deposited.
    pub(crate) fn queue_position(
        &self,
        cache: &TreeCache,
        commitment: B256,
    ) -> Result<Option<u32>> {
        Ok(self
            .position_of(cache, commitment)?
            .filter(|&position| position >= self.leaves))
    }

    /// The sibling path of leaf `index`, read from the cache and checked to lead from
    /// `commitment` to this sync's root (which the pool knows). Nodes that do not are
    /// rebuilt from the cached leaves once; a path that still does not is an error, never a
    /// proof against a root the contract never had.
    pub(crate) fn path(
        &self,
        cache: &TreeCache,
        index: u32,
        commitment: B256,
    ) -> Result<MerklePath> {
        let pool = self.pool.to_base58();
        let leaf = zk::field::from_be_bytes(&commitment.0, "a commitment")
            .map_err(|e| Error::Failed(e.to_string()))?;
        let root = zk::field::from_be_bytes(&self.root.0, "a root")
            .map_err(|e| Error::Failed(e.to_string()))?;
        if let Some(path) = cache.path(&pool, self.leaves, index)?
            && path.root(leaf) == root
        {
            return Ok(path);
        }
        tracing::warn!(pool = %pool, index, "the cached path does not lead to the root; rebuilding the tree's nodes");
        let tree = cache.rebuild(&pool, self.leaves)?;
        let path = tree.path(index).map_err(|e| Error::Failed(e.to_string()))?;
        if tree.len() != self.leaves as usize || path.root(leaf) != root {
            return Err(Error::Failed(format!(
                "the cached tree of the {} USDT pool does not lead leaf {index} to the root \
                 {}: sync again",
                self.denomination,
                word_hex(&self.root)
            )));
        }
        Ok(path)
    }
}

/// Why a source was passed over: the next one is tried.
struct PassOver(String);

/// One pass of a sync: a checked tree, or why the cache cannot be right.
enum Attempt {
    Done(SyncedTree),
    Stale(String),
}

/// Brings the cached tree and withdrawals of a pool up to date from the first source that
/// answers, and checks the tree's root against the chain. A cache the chain does not
/// recognise (a devnet started afresh) is dropped and the pool fetched again from the
/// start, once. Syncs of one pool take turns.
pub async fn sync_tree(
    chain: &Chain,
    denomination: u64,
    cache: &TreeCache,
    progress: &(dyn Fn(SyncProgress) + Sync),
) -> Result<SyncedTree> {
    let gate = chain.sync_gate(denomination)?;
    let mut last = gate.last.lock().await;
    let (at, changes) = (Instant::now(), gate.changes());
    let synced = sync_unlocked(chain, denomination, cache, progress).await?;
    *last = Some(LastSync {
        at,
        head: None,
        changes,
    });
    Ok(synced)
}

/// For a server: syncs the pool unless it was synced within the pool-state TTL and this
/// process has not changed the pool since (a relay or a batch of ours broadcast or found in a
/// block: [`SyncGate::changed`](crate::service::chain::SyncGate::changed)). Within it, a
/// client asking for more than the cache holds (`past_end`: it is syncing itself, and its
/// pool may have deposits the cache has not) gets a sync too, unless no block has come since
/// the last one.
///
/// Without the first rule's second half, a client told by our relayer that its withdrawal
/// was confirmed, and asking at once whether its note is spent, was answered from a sync up
/// to a TTL old that predates the withdrawal (the browser test's second look at a spent note
/// failed so, once in CI).
///
/// Without the second rule a server answered from a cache up to a TTL behind the chain, so a
/// client syncing just after new deposits found the server behind and fell back to the node;
/// with it, the first such client's request brings the server up to date, and every other
/// request in the same block costs one read of the head. That read is kept for up to a
/// second, so the rule can miss a block that second old: the server is then behind as it
/// could be before, never more. Past the TTL the pool is synced whatever the head says.
pub(crate) async fn sync_if_stale(
    chain: &Chain,
    denomination: u64,
    cache: &TreeCache,
    past_end: bool,
) -> Result<()> {
    let gate = chain.sync_gate(denomination)?;
    let mut last = gate.last.lock().await;
    let changes = gate.changes();
    let fresh = last.is_some_and(|l| l.at.elapsed() < chain.sync_ttl() && l.changes == changes);
    if fresh && !past_end {
        return Ok(());
    }
    // Read before the sync, so the sync has seen at least this block (a head kept from
    // before makes the next comparison differ: one sync more, never one less). Without it
    // (the node unreachable) a cache within its TTL is still served, as before.
    let head = match chain.head().await {
        Ok(head) => Some(head.block.block_id),
        Err(e) if fresh => {
            tracing::debug!(error = %e, "reading the head block; serving the cache");
            return Ok(());
        }
        Err(_) => None,
    };
    // (Within the TTL the head was read: a failed read returned above.)
    if fresh && last.is_some_and(|l| l.head == head) {
        return Ok(());
    }
    let at = Instant::now();
    sync_unlocked(chain, denomination, cache, &|_| {}).await?;
    *last = Some(LastSync { at, head, changes });
    Ok(())
}

/// The pool of `denomination` (its base58 address, the cache's key), synced first
/// ([`sync_if_stale`]; `past_end` says from the cache whether the page asked for ends past
/// what it holds): what a page served to another client is read from.
async fn synced_pool(
    chain: &Chain,
    cache: &TreeCache,
    denomination: u64,
    past_end: impl FnOnce(&TreeCache, &str) -> Result<bool>,
) -> Result<String> {
    let pool = chain.pool_address(denomination)?.to_base58();
    let past_end = past_end(cache, &pool)?;
    sync_if_stale(chain, denomination, cache, past_end).await?;
    Ok(pool)
}

/// A page of the pool's leaves from `from` on, for another client to sync from
/// ([`synced_pool`]): at most [`MAX_PAGE`] leaf objects, or [`MAX_PACKED_PAGE`] packed.
pub(crate) async fn leaves_page(
    chain: &Chain,
    cache: &TreeCache,
    denomination: u64,
    (from, limit): (u32, u32),
    format: LeafFormat,
) -> Result<LeavesReply> {
    let cap = match format {
        LeafFormat::Entries => MAX_PAGE,
        LeafFormat::Packed => MAX_PACKED_PAGE,
    };
    let limit = limit.clamp(1, cap);
    let pool = synced_pool(chain, cache, denomination, |cache, pool| {
        Ok(u64::from(from) + u64::from(limit) > u64::from(cache.head(pool)?.count))
    })
    .await?;
    let leaves = cache.leaves_from(&pool, from, limit)?;
    let total = cache.head(&pool)?.count;
    Ok(match format {
        LeafFormat::Entries => LeavesReply::Entries(LeavesPage {
            denomination,
            from,
            total,
            leaves: leaves.iter().map(LeafEntry::from_leaf).collect(),
        }),
        LeafFormat::Packed => LeavesReply::Packed(
            PackedLeavesPage::pack(denomination, from, total, &leaves).map_err(|e| {
                Error::Failed(format!(
                    "the cached leaves of the {denomination} USDT pool cannot be packed: {e}"
                ))
            })?,
        ),
    })
}

/// A page of the pool's withdrawals from the `from`th on, at most [`MAX_PAGE`].
pub(crate) async fn withdrawals_page(
    chain: &Chain,
    cache: &TreeCache,
    denomination: u64,
    from: u32,
    limit: u32,
) -> Result<WithdrawalsPage> {
    let limit = limit.clamp(1, MAX_PAGE);
    let pool = synced_pool(chain, cache, denomination, |cache, pool| {
        Ok(u64::from(from) + u64::from(limit) > u64::from(cache.withdrawals_head(pool)?.count))
    })
    .await?;
    let withdrawals = cache.withdrawals_from(&pool, from, limit)?;
    Ok(WithdrawalsPage {
        denomination,
        from,
        total: cache.withdrawals_head(&pool)?.count,
        withdrawals: withdrawals
            .iter()
            .zip(from..)
            .map(|(w, i)| WithdrawalEntry::from_withdrawal(i, w))
            .collect(),
    })
}

async fn sync_unlocked(
    chain: &Chain,
    denomination: u64,
    cache: &TreeCache,
    progress: &(dyn Fn(SyncProgress) + Sync),
) -> Result<SyncedTree> {
    let pool = chain.pool_address(denomination)?;
    let key = pool.to_base58();
    let cached = cache.head(&key)?.count;
    let why = match sync_once(chain, denomination, cache, progress).await? {
        Attempt::Done(synced) => return Ok(synced),
        Attempt::Stale(why) if cached > 0 => why,
        Attempt::Stale(why) => return Err(Error::Refused(why)),
    };
    tracing::warn!(pool = %key, reason = %why, "dropping the tree cache");
    cache.clear(&key)?;
    match sync_once(chain, denomination, cache, progress).await? {
        Attempt::Done(synced) => Ok(synced),
        Attempt::Stale(why) => Err(Error::Refused(why)),
    }
}

/// What one pass of a sync knows before it asks a source: the chain, the pool, what its
/// cache holds, and how many deposits the pool has.
#[derive(Clone, Copy)]
struct Pass<'a> {
    chain: &'a Chain,
    denomination: u64,
    cache: &'a TreeCache,
    head: CacheHead,
    /// Every deposit the pool has taken: the leaves to fetch.
    target: u32,
    /// The deposits in its tree (`nextIndex`): the leaves the root is rebuilt from.
    inserted: u32,
}

async fn sync_once(
    chain: &Chain,
    denomination: u64,
    cache: &TreeCache,
    progress: &(dyn Fn(SyncProgress) + Sync),
) -> Result<Attempt> {
    let pool = chain.pool_address(denomination)?;
    let key = pool.to_base58();
    let head = cache.head(&key)?;
    // `nextIndex` first: a batch or deposits landing in between make `queued()` larger,
    // never smaller than it.
    let inserted: u32 = chain.view(pool, TronPool::nextIndexCall {}).await?;
    let target = pools::deposits(chain, pool)
        .await?
        .unwrap_or(inserted)
        .max(inserted);
    if head.count > target {
        return Ok(Attempt::Stale(format!(
            "the cache holds {} leaves of the {denomination} USDT pool {pool}, but the \
             pool has {target} deposits",
            head.count
        )));
    }
    progress(SyncProgress {
        have: head.count.into(),
        target: target.into(),
    });
    let pass = Pass {
        chain,
        denomination,
        cache,
        head,
        target,
        inserted,
    };
    let mut passed = Vec::new();
    for source in chain.sync_sources() {
        let name = describe_source(chain, source);
        let fetched = match fetch(pass, source, progress).await {
            Ok(fetched) => fetched,
            Err(e) => match passes_over(&e) {
                Some(PassOver(why)) => {
                    tracing::info!(source = %name, reason = %why, "sync source passed over");
                    passed.push(format!("{name}: {why}"));
                    continue;
                }
                None => return Err(e),
            },
        };
        match settle(pass, fetched, source).await? {
            Ok(attempt) => return Ok(attempt),
            Err(PassOver(why)) => {
                tracing::info!(source = %name, reason = %why, "sync source passed over");
                passed.push(format!("{name}: {why}"));
            }
        }
    }
    Err(Error::Unavailable(format!(
        "no source could sync the {denomination} USDT pool: {}",
        passed.join("; ")
    )))
}

/// Checks what a source brought and, when it rebuilds a root the pool knows, saves it.
async fn settle(
    pass: Pass<'_>,
    fetched: Fetched,
    source: &SyncSource,
) -> Result<std::result::Result<Attempt, PassOver>> {
    let Pass {
        chain,
        denomination,
        cache,
        head,
        target,
        inserted,
    } = pass;
    let name = &describe_source(chain, source);
    let pool = chain.pool_address(denomination)?;
    let key = pool.to_base58();
    let Fetched {
        leaves,
        withdrawals,
        next_block,
        tree: grown,
    } = fetched;
    let mut new_leaves: Vec<Leaf> = Vec::new();
    for leaf in leaves {
        let next = head.count + new_leaves.len() as u32;
        if leaf.index < next {
            continue;
        }
        if leaf.index > next {
            return Err(Error::Refused(format!(
                "{name} skipped deposits of the {denomination} USDT pool {pool}: leaf {} \
                 arrived when {next} was next",
                leaf.index
            )));
        }
        new_leaves.push(leaf);
    }
    let total = head.count as u64 + new_leaves.len() as u64;
    if total < u64::from(target) {
        return Ok(Err(PassOver(format!(
            "it knows {total} deposits of the pool; the pool has {target} (behind)"
        ))));
    }
    // The tree holds the inserted leaves only: a queued pool's root is the root of its
    // first `nextIndex` deposits.
    let inserted = inserted as usize;
    let base = tree_base(cache, &key, inserted)?;
    let mut tree = match grown {
        Some(tree) if tree.len() == inserted => tree,
        _ => cache.load_tail(&key, base)?,
    };
    if tree.len() < inserted {
        let fresh = commitments_between(cache, &key, (&head, &new_leaves), (tree.len(), inserted))?
            .map_err(|e| Error::Refused(format!("{name}, the {denomination} USDT pool: {e}")))?;
        let extend = tokio::task::spawn_blocking(move || tree.extend(&fresh).map(|_| tree));
        tree = extend
            .await
            .map_err(|e| Error::task("building the tree", e))?
            .map_err(|e| Error::caused(format!("the {denomination} USDT pool"), e))?;
    }
    if !queue_holds(
        chain,
        pool,
        cache,
        (&head, &new_leaves),
        (inserted, total as usize),
    )
    .await?
    {
        return Ok(Ok(Attempt::Stale(format!(
            "the deposits queued in the {denomination} USDT pool {pool} (from {name}) do not \
             hash to the pool's queue: they are not the pool's"
        ))));
    }
    if tree.len() != inserted {
        return Err(Error::Failed(format!(
            "the tree of the {denomination} USDT pool has {} leaves where the pool has \
             inserted {inserted}",
            tree.len()
        )));
    }
    let root = B256::from(zk::field::to_be_bytes(&tree.root()));
    if !tree.is_empty() && !pools::is_known_root(chain, denomination, root).await? {
        return Ok(Ok(Attempt::Stale(format!(
            "the tree rebuilt from the deposits of the {denomination} USDT pool {pool} \
             (from {name}) has root {}, which the pool does not know; refusing to prove \
             against it{}",
            word_hex(&root),
            if new_leaves.is_empty() {
                ""
            } else {
                ": the source sent leaves that are not the pool's"
            }
        ))));
    }
    let grew = cache.tree_count(&key)? as usize != tree.len();
    cache.save(
        &key,
        &Update {
            leaves: &new_leaves,
            tree: grew.then_some(&tree),
            withdrawals: &withdrawals,
            next_block,
        },
    )?;
    Ok(Ok(Attempt::Done(SyncedTree {
        denomination,
        pool,
        leaves: tree.len() as u32,
        deposits: total as u32,
        root,
        fetched: new_leaves.len(),
        withdrawals: cache.withdrawals_head(&key)?.count,
        source: source.to_string(),
    })))
}

/// The batch that inserted leaf `index` of the pool of `denomination`, from the events API
/// (`BatchInserted` events from `since`, ms, on): `None` while the deposit waits, or in a pool
/// that inserts each deposit at once. An error where the node serves no events API.
pub(crate) async fn batch_of(
    chain: &Chain,
    denomination: u64,
    index: u32,
    since: Option<i64>,
) -> Result<Option<InsertedBy>> {
    if !chain.queued() {
        return Ok(None);
    }
    let pool = chain.pool_address(denomination)?;
    let batches = events::events(
        chain,
        pool,
        "BatchInserted",
        since,
        |e| batch_event(e).map(Some),
        &|_| {},
    )
    .await?;
    Ok(batches
        .into_iter()
        .find(|b| (b.start..b.start.saturating_add(b.count)).contains(&index)))
}

/// A source as messages name it.
fn describe_source(chain: &Chain, source: &SyncSource) -> String {
    match source {
        SyncSource::Server(url) => format!("the tronpool server at {url}"),
        SyncSource::EventsApi => format!(
            "the events API at {}",
            chain
                .node
                .config()
                .events_url
                .as_ref()
                .unwrap_or(chain.node.url())
        ),
        SyncSource::BlockScan => format!("the block scan of {}", chain.node.url()),
    }
}

async fn fetch(
    pass: Pass<'_>,
    source: &SyncSource,
    progress: &(dyn Fn(SyncProgress) + Sync),
) -> Result<Fetched> {
    let Pass {
        chain,
        denomination,
        cache,
        head,
        target,
        inserted,
    } = pass;
    let pool = chain.pool_address(denomination)?;
    let key = pool.to_base58();
    let withdrawals = cache.withdrawals_head(&key)?;
    match source {
        SyncSource::Server(url) => {
            let server =
                ServerClient::new(url.clone(), "sync server", SERVER_TIMEOUT, chain.proxy())?;
            // The tree grows while pages arrive, up to the inserted leaves; the cached
            // leaves it does not hold yet (deposits that were queued) go in first.
            let base = tree_base(cache, &key, inserted as usize)?;
            let tail = cache.load_tail(&key, base)?;
            let pending = cache.leaves_from(&key, base, head.count.saturating_sub(base))?;
            fetch_from_server(
                &server,
                denomination,
                (head, tail, &pending, inserted),
                withdrawals.count,
                target,
                progress,
            )
            .await
        }
        SyncSource::EventsApi => {
            let leaves = events::events(
                chain,
                pool,
                "Deposit",
                head.last_timestamp,
                |event| deposit_leaf(event).map(Some),
                &|n| {
                    progress(SyncProgress {
                        have: u64::from(head.count) + n as u64,
                        target: target.into(),
                    })
                },
            )
            .await?;
            let withdrawals = events::events(
                chain,
                pool,
                "Withdrawal",
                withdrawals.last_timestamp,
                |event| withdrawal_event(event).map(Some),
                &|_| {},
            )
            .await?;
            Ok(Fetched {
                leaves,
                withdrawals,
                next_block: None,
                tree: None,
            })
        }
        SyncSource::BlockScan => {
            let from = cache
                .scan_cursor(&key)?
                .unwrap_or(chain.deployment.block)
                .max(1);
            scan::scan(chain, pool, from, head, target, progress).await
        }
    }
}

/// Whether a source's failure means "try the next one": nothing answered, or it does not
/// serve what a sync needs (a node without the events API answers 404).
fn passes_over(e: &Error) -> Option<PassOver> {
    match e {
        Error::Node(n) if n.is_unavailable() => Some(PassOver(n.to_string())),
        Error::Node(n @ (NodeError::Http { .. } | NodeError::NotFound(_))) => {
            Some(PassOver(n.to_string()))
        }
        Error::Unavailable(why) | Error::NotFound(why) => Some(PassOver(why.clone())),
        Error::Shared(inner) => passes_over(inner),
        _ => None,
    }
}

#[cfg(test)]
mod tests {
    use alloy_primitives::U256;
    use alloy_sol_types::SolEvent;
    use tron::client::{Event, TransactionInfo};

    use super::events::*;
    use super::scan::*;
    use super::*;
    use alloy_primitives::LogData;

    fn pool() -> Address {
        Address::from_evm([0x11; 20])
    }

    fn log(address: Address, data: &LogData) -> serde_json::Value {
        serde_json::json!({
            "address": address.to_base58(),
            "topics": data.topics().iter().map(hex::encode).collect::<Vec<_>>(),
            "data": hex::encode(&data.data),
        })
    }

    fn info(logs: Vec<serde_json::Value>, failed: bool) -> TransactionInfo {
        let mut value = serde_json::json!({
            "id": "ab".repeat(32),
            "blockNumber": 42,
            "blockTimeStamp": 1_700_000_000_000_i64,
            "log": logs,
        });
        if failed {
            value["result"] = "FAILED".into();
        }
        serde_json::from_value(value).unwrap()
    }

    fn deposit(index: u32) -> LogData {
        TronPool::Deposit {
            commitment: B256::repeat_byte(index as u8 + 1),
            leafIndex: index,
            timestamp: U256::from(1_700_000_000u64),
        }
        .encode_log_data()
    }

    fn withdrawal(relayer: Address, fee: u64) -> LogData {
        TronPool::Withdrawal {
            to: Address::from_evm([0x22; 20]).into(),
            nullifierHash: B256::repeat_byte(0x33),
            relayer: relayer.into(),
            fee: U256::from(fee),
        }
        .encode_log_data()
    }

    /// A synced tree whose cached nodes are not the leaves' (here: saved from other
    /// leaves) gives the path from the leaves rebuilt; one whose leaves do not make the synced
    /// root is an error, never a path to prove with.
    #[test]
    fn a_path_that_misses_the_root_is_rebuilt_once_then_refused() {
        let cache = TreeCache::in_memory().unwrap();
        let key = pool().to_base58();
        let leaves: Vec<Leaf> = (0..40u32)
            .map(|index| Leaf {
                index,
                commitment: zk::field::to_be_bytes(&zk::Fr::from(u64::from(index) + 1)),
                block_timestamp: 0,
                txid: String::new(),
            })
            .collect();
        let tree_of = |offset: u64| {
            let fr: Vec<zk::Fr> = (0..40u64).map(|i| zk::Fr::from(i + offset)).collect();
            zk::tree::MerkleTree::from_leaves(&fr).unwrap()
        };
        let (right, wrong) = (tree_of(1), tree_of(1_000));
        let update = Update {
            leaves: &leaves,
            tree: Some(&wrong),
            ..Update::default()
        };
        cache.save(&key, &update).unwrap();
        let word = |tree: &zk::tree::MerkleTree| B256::from(zk::field::to_be_bytes(&tree.root()));
        let mut synced = SyncedTree {
            denomination: 100,
            pool: pool(),
            leaves: 40,
            deposits: 40,
            root: word(&right),
            fetched: 40,
            withdrawals: 0,
            source: "test".into(),
        };
        let commitment = B256::from(leaves[7].commitment);
        assert_eq!(
            synced.path(&cache, 7, commitment).unwrap(),
            right.path(7).unwrap()
        );
        // The rebuilt nodes are stored: the next path comes from the cache as it is.
        assert_eq!(
            cache.path(&key, 40, 7).unwrap().unwrap(),
            right.path(7).unwrap()
        );
        synced.root = word(&wrong);
        let refused = synced.path(&cache, 7, commitment).unwrap_err();
        assert!(refused.to_string().contains("sync again"), "{refused}");
    }

    #[test]
    fn a_block_scan_reads_the_pools_deposits_and_withdrawals_in_log_order() {
        let relayer = Address::from_evm([0x44; 20]);
        let other = Address::from_evm([0x55; 20]);
        let tx = info(
            vec![
                log(pool(), &deposit(7)),
                // The same events from another contract are not the pool's.
                log(other, &deposit(8)),
                log(pool(), &withdrawal(relayer, 2_500_000)),
                log(other, &withdrawal(relayer, 1)),
            ],
            false,
        );
        let events = pool_events(&tx, pool()).unwrap();
        assert_eq!(
            events,
            vec![
                PoolEvent::Deposit(Leaf {
                    index: 7,
                    commitment: [8; 32],
                    block_timestamp: 1_700_000_000_000,
                    txid: "ab".repeat(32),
                }),
                PoolEvent::Withdrawal(Withdrawal {
                    nullifier_hash: [0x33; 32],
                    txid: "ab".repeat(32),
                    block: Some(42),
                    block_timestamp: 1_700_000_000_000,
                    recipient: Address::from_evm([0x22; 20]).to_base58(),
                    relayer: Some(relayer.to_base58()),
                    fee: "2500000".into(),
                }),
            ]
        );
    }

    #[test]
    fn a_self_withdrawal_has_no_relayer_and_a_failed_transaction_no_events() {
        let tx = info(vec![log(pool(), &withdrawal(Address::ZERO, 0))], false);
        match pool_events(&tx, pool()).unwrap().as_slice() {
            [PoolEvent::Withdrawal(w)] => {
                assert_eq!((w.relayer.as_deref(), w.fee.as_str()), (None, "0"))
            }
            other => panic!("{other:?}"),
        }
        let failed = info(vec![log(pool(), &deposit(0))], true);
        assert!(pool_events(&failed, pool()).unwrap().is_empty());
    }

    #[test]
    fn a_pool_log_that_claims_an_event_but_does_not_decode_is_refused() {
        let mut bad = withdrawal(Address::ZERO, 0);
        bad = LogData::new_unchecked(bad.topics().to_vec(), bad.data[..32].to_vec().into());
        let tx = info(vec![log(pool(), &bad)], false);
        let why = pool_events(&tx, pool()).unwrap_err();
        assert!(why.to_string().contains("Withdrawal"), "{why}");
        // An event the pool has that a sync does not read is skipped.
        let collected = TronPool::FeesCollected {
            relayer: Address::ZERO.into(),
            amount: U256::from(1),
        }
        .encode_log_data();
        let tx = info(vec![log(pool(), &collected)], false);
        assert!(pool_events(&tx, pool()).unwrap().is_empty());
    }

    #[test]
    fn events_api_withdrawals_read_hex_addresses_and_wire_entries_round_trip() {
        let event: Event = serde_json::from_value(serde_json::json!({
            "block_number": 9,
            "block_timestamp": 5000,
            "event_name": "Withdrawal",
            "result": {
                "to": format!("0x{}", "22".repeat(20)),
                "nullifierHash": "33".repeat(32),
                "relayer": format!("0x{}", "00".repeat(20)),
                "fee": "0",
            },
            "transaction_id": "cd".repeat(32),
        }))
        .unwrap();
        let w = withdrawal_event(&event).unwrap();
        assert_eq!(w.recipient, Address::from_evm([0x22; 20]).to_base58());
        assert_eq!((w.relayer, w.block), (None, Some(9)));
        let entry = WithdrawalEntry::from_withdrawal(4, &withdrawal_event(&event).unwrap());
        assert_eq!(
            entry.to_withdrawal().unwrap(),
            withdrawal_event(&event).unwrap()
        );
        let leaf = Leaf {
            index: 3,
            commitment: [9; 32],
            block_timestamp: 1,
            txid: "t".into(),
        };
        assert_eq!(LeafEntry::from_leaf(&leaf).to_leaf().unwrap(), leaf);
        let short = LeafEntry {
            commitment: "0x1234".into(),
            ..LeafEntry::from_leaf(&leaf)
        };
        assert!(
            short
                .to_leaf()
                .unwrap_err()
                .to_string()
                .contains("not 32 bytes")
        );
    }
}
