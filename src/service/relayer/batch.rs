//! `serve`'s batcher: the relayer's key inserts the queued pools' waiting deposits, so a
//! depositor who does nothing is withdrawable within the longest wait (`batch_max_wait`).
//!
//! A pool's next batch is due when its block of 32 is full (the batch that pays best: 32
//! insertion fees for one verification) or when its oldest waiting deposit has waited the
//! longest wait. A due batch is proved and simulated (`service::insert`), recorded in the
//! submit journal before it is sent, and followed to its receipt; an entry left by a stopped
//! server is settled on the next pass before anything new is sent. A batch someone else
//! got in first fails its simulation and costs nothing.
//!
//! A batch is paid in USDT (its insertion fees) for TRX (its energy): at the relay price
//! source's rate, what it burns beyond what its fees are worth is a loss, and losses come
//! out of a 24-hour budget (`batch_loss_budget`); past it, a batch that loses waits. A full
//! batch at the default fee pays for itself at 0.28 USDT per TRX, but not if TRX's price
//! rises far enough, and then it waits too rather than spend more than it earns. Without a
//! price source, a full batch is taken to pay and any other to lose all it burns. Nor does a
//! batch take the relayer's TRX below `--relayer-min-trx` or into what unfinished relays
//! reserved.

use std::sync::Arc;
use std::time::Duration;

use super::Relayer;
use crate::error::Result;
use crate::service::chain::Chain;
use crate::service::insert;
use crate::service::journal::Purpose;
use crate::service::pools;
use crate::service::price::TrxPrice;
use crate::service::relayer_fees::Pricing;
use crate::service::wire::NextBatch;
use crate::store::trees::TreeCache;

/// The batcher never looks more often than this, whatever it is told (each look reads every
/// pool's state from the node).
const MIN_POLL: Duration = Duration::from_millis(200);
/// The window of the batcher's budget for losses.
const BUDGET_WINDOW: Duration = Duration::from_secs(24 * 60 * 60);

impl Relayer {
    /// Sends the due batches every `batch_poll`, until the server stops; a failure is logged
    /// and the pool tried again next time.
    pub(crate) async fn batch_when_due(
        self: Arc<Self>,
        chain: Arc<Chain>,
        trees: TreeCache,
        pricing: &Pricing,
    ) {
        let Some(max_wait) = self.config.batch_max_wait else {
            return;
        };
        if !chain.queued() {
            return;
        }
        loop {
            tokio::time::sleep(self.config.batch_poll.max(MIN_POLL)).await;
            // One batcher across replicas: two would race to insert the same batch.
            if !self.holds_role(super::BATCHER_ROLE) {
                continue;
            }
            if let Err(e) = self.journal.resume(&chain.node, Purpose::Batch).await {
                tracing::warn!(error = %e, "settling the batcher's earlier batches");
                continue;
            }
            for denomination in chain.denominations() {
                // The relay price source's rate, if there is one (its own cache decides how
                // often the pair is read).
                let price = pricing.feed.current(&chain).await.ok().map(|q| q.price);
                match self
                    .batch_if_due(&chain, &trees, (denomination, price), max_wait)
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
        (denomination, price): (u64, Option<TrxPrice>),
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
        // Past the budget at the last batch's cost, a batch that would lose is not even
        // proved: seconds of CPU at every look for a batch that would not be sent.
        let fees = chain.denomination(denomination)?.insertion_fee()
            * alloy_primitives::U256::from(next.count);
        let last_cost = *self.batch_cost.lock().unwrap_or_else(|e| e.into_inner());
        if let Some(sun) = last_cost
            && (!self.within_budget(loss(sun, fees, price, full))
                || !self.can_afford(chain, sun).await?)
        {
            self.saw_next_batch(denomination, Some(seen(None)));
            return Ok(None);
        }
        let batch = insert::prove((chain, trees), &synced, next, self.address()).await?;
        let burns = batch.built.estimate.burned_sun;
        *self.batch_cost.lock().unwrap_or_else(|e| e.into_inner()) = Some(burns);
        let losing = loss(burns, batch.fees, price, full);
        if !self.within_budget(losing) {
            tracing::warn!(
                denomination,
                start = batch.start,
                count = batch.count,
                burns,
                losing,
                "a batch is due, but it would lose more than what is left of the day's budget \
                 for losses: it waits for a fuller block, a lower TRX price, the depositor, or \
                 tomorrow's budget"
            );
            self.saw_next_batch(denomination, Some(seen(None)));
            return Ok(None);
        }
        let worst = batch.built.estimate.fee_limit_sun.max(burns);
        if !self.can_afford(chain, worst).await? {
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
        // What it burned, failed or not (energy and bandwidth), less what its fees are worth
        // if it landed.
        let burned = info.as_ref().map_or(burns, |i| i.fee);
        let earned = if info.is_ok() {
            batch.fees
        } else {
            alloy_primitives::U256::ZERO
        };
        self.spent_on_batch(loss(burned, earned, price, full && info.is_ok()));
        info?;
        self.saw_next_batch(denomination, None);
        pools::pool_changed(chain, denomination);
        Ok(Some(batch.count))
    }

    /// Whether a batch that may burn `sun` leaves the relays what they need: it never takes
    /// the TRX an unfinished relay counted on, nor the balance below the relayer's minimum
    /// (`--relayer-min-trx`). The relays come first.
    async fn can_afford(&self, chain: &Chain, sun: i64) -> Result<bool> {
        let balance = chain
            .node
            .get_account(&self.address())
            .await?
            .map_or(0, |a| a.balance);
        let reserved = self.jobs.reserved()?.trx_sun.max(0);
        let left = balance.saturating_sub(reserved).saturating_sub(sun.max(0));
        if left < self.config.min_balance {
            tracing::warn!(
                balance_sun = balance,
                reserved_sun = reserved,
                needed_sun = sun,
                "a batch is due, but it would take the relayer below its minimum TRX or into \
                 what its relays reserved: it waits"
            );
            return Ok(false);
        }
        Ok(true)
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

    /// Whether a batch losing `sun` fits the last 24 hours' budget (a batch that loses
    /// nothing always does).
    fn within_budget(&self, sun: i64) -> bool {
        if sun <= 0 {
            return true;
        }
        // Kept in the database, so the budget holds across a restart and whichever replica
        // batches. A database that cannot say counts as a spent budget: hold the batch back.
        match self
            .coordination
            .spent_within(BATCH_BUDGET, BUDGET_WINDOW.as_millis() as i64)
        {
            Ok(total) => total + sun.max(0) <= self.config.batch_loss_budget,
            Err(e) => {
                tracing::warn!(error = %e, "reading the batcher's spending");
                false
            }
        }
    }

    fn spent_on_batch(&self, sun: i64) {
        if let Err(e) = self.coordination.spend(BATCH_BUDGET, sun.max(0)) {
            tracing::warn!(error = %e, sun, "recording what a batch lost");
        }
    }
}

/// The batcher's spending budget's name in the database.
const BATCH_BUDGET: &str = "batch_loss";

/// What a batch burning `burned` sun loses once its `fees` (USDT base units) are counted at
/// `price`: never below zero. Without a price a full batch is taken to pay for itself (the
/// default fee is set so that it does at today's prices) and any other to lose it all.
fn loss(burned: i64, fees: alloy_primitives::U256, price: Option<TrxPrice>, full: bool) -> i64 {
    let burned = burned.max(0);
    match price {
        Some(price) => {
            let covered = price.sun_for_usdt(fees);
            burned
                .saturating_sub(i64::try_from(covered).unwrap_or(i64::MAX))
                .max(0)
        }
        None if full => 0,
        None => burned,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use alloy_primitives::U256;

    #[test]
    fn a_batch_loses_what_it_burns_beyond_what_its_fees_are_worth() {
        let at = |usdt_per_trx: &str| TrxPrice::parse(usdt_per_trx);
        let fees = U256::from(32 * 250_000u64); // a full block at 0.25 USDT: 8 USDT
        let burned = 25_053_600; // 250,536 energy at 100 sun
        // At 0.28 USDT per TRX 8 USDT buy 28.57 TRX: the batch pays.
        assert_eq!(loss(burned, fees, at("0.28"), true), 0);
        // At 0.40 they buy 20 TRX: it loses the other 5.05 TRX.
        assert_eq!(loss(burned, fees, at("0.40"), true), 5_053_600);
        // A batch of one at 0.28: 0.25 USDT buy 0.89 TRX of its 25.05.
        let one = U256::from(250_000u64);
        assert_eq!(loss(burned, one, at("0.28"), false), 25_053_600 - 892_857);
        // Without a price: a full batch pays, any other loses all it burns.
        assert_eq!(loss(burned, fees, None, true), 0);
        assert_eq!(loss(burned, one, None, false), burned);
    }
}
