//! What the relayer does in the background: follows its unfinished jobs to a solidified
//! receipt (broadcasting again, retrying, recording what a failure burned) and collects the
//! pools' fees when they are due.

use std::sync::Arc;
use std::time::Instant;

use super::Relayer;
use crate::service::chain::Chain;
use crate::service::journal::{Look, Purpose};
use crate::service::pools;

impl Relayer {
    /// Follows every unfinished job until the server stops; after a restart this picks up
    /// where the last process left off. The watcher counts as alive from the moment it is
    /// started, not from its first pass: a spawned task may wait for a worker, and readiness
    /// asked right after `serve` announces itself must not read that wait as a dead watcher.
    pub(crate) fn watch(self: Arc<Self>, chain: Arc<Chain>) -> impl Future<Output = ()> {
        self.mark_watched();
        async move {
            loop {
                self.mark_watched();
                self.check_jobs(&chain).await;
                tokio::time::sleep(self.config.poll).await;
            }
        }
    }

    fn mark_watched(&self) {
        *self.watched.lock().unwrap_or_else(|e| e.into_inner()) = Some(Instant::now());
    }

    /// Collects the pools' fees once they reach the threshold, every `collect_every`, until
    /// the server stops; a failure is logged and tried again next time. Apart from
    /// [`Relayer::watch`], so a collection waiting for its block never holds up a job.
    pub(crate) async fn collect_when_due(self: Arc<Self>, chain: Arc<Chain>) {
        let Some(threshold) = self.config.collect_above else {
            return;
        };
        loop {
            tokio::time::sleep(self.config.collect_every).await;
            if !self.holds_role(super::FEES_ROLE) {
                continue;
            }
            let due = crate::service::fees::due(&chain, self.address(), threshold, None);
            let collected = match due.await {
                Ok(due) => crate::service::fees::collect(&chain, &self.key, due).await,
                Err(e) => Err(e),
            };
            match collected {
                Ok(collected) if !collected.is_empty() => {
                    tracing::info!(pools = collected.len(), "relayer fees collected");
                }
                Ok(_) => {}
                Err(e) => tracing::warn!(error = %e, "collecting the relayer's fees"),
            }
        }
    }

    /// One pass over the unfinished jobs (the journal's relays). A job that cannot be checked
    /// now (the node is down, its row is damaged) is logged and skipped: it never holds up
    /// the others. A job found in a block has its pool's caches forgotten at once, before
    /// the next job is looked at: a client shown the job's new state and asking for the
    /// pool's withdrawals then finds it (`pools::pool_changed`).
    pub(crate) async fn check_jobs(&self, chain: &Chain) {
        let resumed = self
            .journal
            .resume_with(&chain.node, Purpose::Relay, |entry, checked| {
                let Ok(checked) = checked else { return };
                if !(checked.moved && matches!(checked.look, Look::Receipt(_))) {
                    return;
                }
                match self.jobs.get(&entry.txid) {
                    Ok(Some(job)) => pools::pool_changed(chain, job.denomination),
                    Ok(None) => {}
                    Err(e) => {
                        tracing::warn!(txid = %entry.txid, error = %e, "reading a relayer job")
                    }
                }
            })
            .await;
        let looked = match resumed {
            Ok(looked) => looked,
            Err(e) => {
                tracing::warn!(error = %e, "reading the relayer's jobs");
                return;
            }
        };
        for (entry, checked) in looked {
            match checked {
                Ok(checked) if checked.moved => {
                    tracing::info!(
                        txid = %entry.txid,
                        state = checked.state.as_str(),
                        "relayer job moved"
                    );
                    if let Look::Receipt(info) = &checked.look {
                        tracing::info!(
                            txid = %entry.txid,
                            energy = info.receipt.energy_usage_total,
                            burned_sun = info.fee,
                            "relayer job executed"
                        );
                    }
                }
                Ok(_) => {}
                Err(e) => tracing::warn!(txid = %entry.txid, error = %e, "checking a relayer job"),
            }
        }
    }
}
