//! `serve`'s batcher: the relayer's key inserts the queued pools' waiting deposits, so a
//! depositor who does nothing is withdrawable within the longest wait (`batch_max_wait`).
//!
//! A pool's next batch is due when its block of 32 is full (the batch that pays best: 32
//! insertion fees for one verification) or when its oldest waiting deposit has waited the
//! longest wait. A due batch is proved and simulated (`service::insert`), recorded in the
//! submit journal before it is sent, and followed to its receipt; an entry left by a stopped
//! server is settled on the next pass before anything new is sent. A batch someone else
//! got in first fails its simulation and costs nothing.

use std::sync::Arc;
use std::time::Duration;

use super::Relayer;
use crate::error::Result;
use crate::service::chain::Chain;
use crate::service::insert;
use crate::service::journal::Purpose;
use crate::service::pools::{self, NextBatch};
use crate::store::trees::TreeCache;

/// The batcher never looks more often than this, whatever it is told (each look reads every
/// pool's state from the node).
const MIN_POLL: Duration = Duration::from_millis(200);
/// The window of the batcher's budget for batches that are not full.
const BUDGET_WINDOW: Duration = Duration::from_secs(24 * 60 * 60);

impl Relayer {
    /// Sends the due batches every `batch_poll`, until the server stops; a failure is logged
    /// and the pool tried again next time.
    pub(crate) async fn batch_when_due(self: Arc<Self>, chain: Arc<Chain>, trees: TreeCache) {
        let Some(max_wait) = self.config.batch_max_wait else {
            return;
        };
        if !chain.queued() {
            return;
        }
        loop {
            tokio::time::sleep(self.config.batch_poll.max(MIN_POLL)).await;
            if let Err(e) = self.journal.resume(&chain.node, Purpose::Batch).await {
                tracing::warn!(error = %e, "settling the batcher's earlier batches");
                continue;
            }
            for denomination in chain.denominations() {
                match self
                    .batch_if_due(&chain, &trees, denomination, max_wait)
                    .await
                {
                    Ok(Some(count)) => {
                        tracing::info!(denomination, count, "batch inserted");
                    }
                    Ok(None) => {}
                    Err(e) => tracing::warn!(denomination, error = %e, "inserting a batch"),
                }
            }
        }
    }

    /// Inserts the next batch of the pool of `denomination` when it is due; the number of
    /// deposits it inserted, or `None` when nothing was due.
    pub(crate) async fn batch_if_due(
        &self,
        chain: &Chain,
        trees: &TreeCache,
        denomination: u64,
        max_wait: Duration,
    ) -> Result<Option<u32>> {
        let state = pools::pool_state(chain, denomination).await?;
        if state.queued() == 0 {
            self.saw_next_batch(denomination, None);
            return Ok(None);
        }
        // Whether the batch is due is decided before it is proved: a proof takes seconds,
        // and most looks at a quiet pool find a batch that is not due yet.
        let (synced, next) = insert::pending((chain, trees), denomination).await?;
        let Some(next) = next else {
            self.saw_next_batch(denomination, None);
            return Ok(None);
        };
        let full = next.fills_its_block();
        let oldest = trees
            .leaves_from(&synced.pool.to_base58(), next.start, 1)?
            .first()
            .map(|leaf| leaf.block_timestamp);
        // Block times follow the wall clock (TRON makes a block every 3 s; the devnet stamps
        // a block with the time it seals it), so the wait is measured on this machine's
        // clock, not on a head block that may not move while nothing is sent.
        let now = std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .map_or(0, |d| d.as_millis() as i64);
        let waited = oldest.is_some_and(|t| now - t >= max_wait.as_millis() as i64);
        let seen = |due_at: Option<i64>| NextBatch {
            start: next.start,
            count: next.count,
            waiting_since: oldest.unwrap_or(now),
            due_at,
        };
        let due_at = if full {
            now
        } else {
            oldest.unwrap_or(now) + max_wait.as_millis() as i64
        };
        if !full && !waited {
            self.saw_next_batch(denomination, Some(seen(Some(due_at))));
            return Ok(None);
        }
        // Past the budget at the last batch's price, a batch that is not full is not even
        // proved: seconds of CPU at every look for a batch that would not be sent.
        let last_cost = *self.batch_cost.lock().unwrap_or_else(|e| e.into_inner());
        if !full && last_cost.is_some_and(|sun| !self.within_budget(sun)) {
            self.saw_next_batch(denomination, Some(seen(None)));
            return Ok(None);
        }
        let batch = insert::prove((chain, trees), &synced, next, self.address()).await?;
        *self.batch_cost.lock().unwrap_or_else(|e| e.into_inner()) =
            Some(batch.built.estimate.burned_sun);
        if !full && !self.within_budget(batch.built.estimate.burned_sun) {
            tracing::warn!(
                denomination,
                start = batch.start,
                count = batch.count,
                "a batch that is not full is due, but the day's budget for them is spent: it \
                 waits for a full block, the depositor, or tomorrow's budget"
            );
            self.saw_next_batch(denomination, Some(seen(None)));
            return Ok(None);
        }
        let mut tx = batch.built.transaction.clone();
        tx.sign(&self.key)?;
        let reference = format!("{} {}", synced.pool, batch.start);
        let entry = self.journal.record(&tx, Purpose::Batch, reference)?;
        self.journal.broadcast(&chain.node, &entry).await?;
        let outcome = self.journal.follow(&chain.node, &entry.txid).await?;
        let info = outcome.settle("the batch", &tx.txid());
        if !full {
            // What it burned, failed or not (energy and bandwidth).
            let burned = info
                .as_ref()
                .map_or(batch.built.estimate.burned_sun, |i| i.fee);
            self.spent_on_batch(burned);
        }
        info?;
        self.saw_next_batch(denomination, None);
        pools::pool_changed(chain, denomination);
        Ok(Some(batch.count))
    }

    /// Records what the batcher saw of a pool's next batch, for the pool listings.
    fn saw_next_batch(&self, denomination: u64, next: Option<NextBatch>) {
        let mut seen = self.next_batches.lock().unwrap_or_else(|e| e.into_inner());
        match next {
            Some(next) => seen.insert(denomination, next),
            None => seen.remove(&denomination),
        };
    }

    /// The pool's next batch as the batcher last saw it (`GET /api/pools`).
    pub(crate) fn next_batch(&self, denomination: u64) -> Option<NextBatch> {
        self.next_batches
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .get(&denomination)
            .copied()
    }

    /// Whether a batch that is not full, burning about `sun`, fits the last 24 hours' budget.
    fn within_budget(&self, sun: i64) -> bool {
        let mut spent = self.batch_spent.lock().unwrap_or_else(|e| e.into_inner());
        while spent
            .front()
            .is_some_and(|(at, _)| at.elapsed() >= BUDGET_WINDOW)
        {
            spent.pop_front();
        }
        let total: i64 = spent.iter().map(|(_, sun)| sun).sum();
        total + sun.max(0) <= self.config.batch_loss_budget
    }

    fn spent_on_batch(&self, sun: i64) {
        self.batch_spent
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .push_back((std::time::Instant::now(), sun.max(0)));
    }
}
