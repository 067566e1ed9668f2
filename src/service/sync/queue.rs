//! A queued pool's deposits past its tree (`docs/batches.md`): the tree a sync builds holds
//! the inserted leaves only, and the waiting ones, which its root does not vouch for, are
//! checked against the pool's queue chain instead.

use alloy_primitives::B256;
use contracts::QueuedPool;
use tron::Address;

use crate::error::{Error, Result};
use crate::service::chain::Chain;
use crate::store::trees::{CacheHead, Leaf, TreeCache};

/// How many positions of its queue chain a queued pool keeps (`QUEUE_RING`).
const QUEUE_RING: usize = 128;

/// Whether the leaves from `from` to `to` (the deposits a queued pool has not inserted: the
/// root does not vouch for them) are the pool's: hashed onto the pool's queue chain where it
/// stood before them, they must give the chain where it stands now (`queueHash`). When the
/// pool no longer keeps the chain before `from` (more than its ring of 128 positions waits),
/// the last 127 deposits, whose chain before them the ring holds, are checked; a batch of the
/// earlier ones is checked by its simulation before it is sent.
pub(super) async fn queue_holds(
    chain: &Chain,
    pool: Address,
    cache: &TreeCache,
    (head, new_leaves): (&CacheHead, &[Leaf]),
    (from, to): (usize, usize),
) -> Result<bool> {
    if to <= from || !chain.queued() {
        return Ok(true);
    }
    let view = |position: usize| async move {
        chain
            .view(
                pool,
                QueuedPool::queueHashCall {
                    position: position as u32,
                },
            )
            .await
    };
    let end = view(to - 1).await?;
    let mut start = from;
    let before = loop {
        match start.checked_sub(1) {
            None => break B256::ZERO,
            Some(position) => match view(position).await {
                Ok(kept) => break kept,
                Err(Error::Node(e)) if e.is_unavailable() => return Err(Error::Node(e)),
                // Not kept: try from the first deposit whose chain before it the ring still
                // holds. The ring holds positions `to - 128 .. to`, so that is `to - 127`.
                Err(_) if start < to.saturating_sub(QUEUE_RING - 1) => {
                    start = to.saturating_sub(QUEUE_RING - 1);
                }
                Err(e) => return Err(e),
            },
        }
    };
    let key = pool.to_base58();
    let commitments = commitments_between(cache, &key, (head, new_leaves), (start, to))?;
    let Ok(commitments) = commitments else {
        return Ok(false);
    };
    let Ok(before) = zk::field::from_be_bytes(&before.0, "a queue hash") else {
        return Ok(false);
    };
    let hashed = zk::batch::chain(before, &commitments);
    Ok(commitments.len() == to - start && B256::from(zk::field::to_be_bytes(&hashed)) == end)
}

/// The commitments of leaves `from` up to `to` (or as many as there are): the cached ones,
/// then the ones this sync fetched. A commitment that is not a field element is the source's
/// fault, told apart from the cache's own errors.
pub(super) fn commitments_between(
    cache: &TreeCache,
    key: &str,
    (head, new_leaves): (&CacheHead, &[Leaf]),
    (from, to): (usize, usize),
) -> Result<std::result::Result<Vec<zk::Fr>, zk::field::FieldError>> {
    let cached = match (head.count as usize).checked_sub(from) {
        Some(n) if n > 0 => cache.leaves_from(key, from as u32, n as u32)?,
        _ => Vec::new(),
    };
    Ok(cached
        .iter()
        .chain(new_leaves)
        .skip_while(|l| (l.index as usize) < from)
        .take(to.saturating_sub(from))
        .map(|l| zk::field::from_be_bytes(&l.commitment, "a deposit's commitment"))
        .collect())
}

/// How many leaves the stored nodes can be loaded for, toward a tree of `inserted` leaves:
/// what they hold, unless that is more (a cache from a chain since started afresh), when the
/// tree is rebuilt from the cached leaves.
pub(super) fn tree_base(cache: &TreeCache, key: &str, inserted: usize) -> Result<u32> {
    let stored = cache.tree_count(key)?;
    let cached = cache.head(key)?.count;
    Ok(if stored as usize > inserted || stored > cached {
        (inserted as u32).min(cached)
    } else {
        stored
    })
}
