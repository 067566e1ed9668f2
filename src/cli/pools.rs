//! `tronpool pools`: every pool of the network, as `GET /api/pools` shows them. A queued
//! pool's next batch is the configured relayer's (its batcher's view), when one is
//! configured and answers.

use clap::Args;

use super::context::Context;
use super::open::{connect, pricing};
use crate::error::Result;
use crate::service::pools;
use crate::service::relayer_client::RelayerClient;
use crate::service::wire::NextBatch;

#[derive(Debug, Args)]
pub struct PoolsArgs {}

impl PoolsArgs {
    pub async fn run(self, ctx: &Context) -> Result<()> {
        let chain = connect(ctx).await?;
        // The fee a relayer with the default terms asks at today's prices (each relayer
        // quotes its own: `tronpool relay status`).
        let pricing = pricing(ctx.settings()?, &chain)?;
        let terms = pricing.terms(&chain, Default::default()).await.ok();
        let mut pools = pools::pools(&chain, terms.as_ref()).await?;
        let settings = ctx.settings()?;
        if let (true, Some(url)) = (chain.queued(), &settings.relayer.value) {
            // Best effort: a relayer that does not answer leaves the column empty, and the
            // listing is the chain's either way.
            let asked = match RelayerClient::new(url.clone(), settings.proxy.value.as_ref()) {
                Ok(relayer) => relayer.next_batches().await,
                Err(e) => Err(e),
            };
            match asked {
                Ok(next) => {
                    for pool in &mut pools {
                        pool.next_batch = next
                            .get(&pool.denomination)
                            .copied()
                            .filter(|n| n.still_ahead(pool.deposit_count, pool.queued));
                    }
                }
                Err(e) => ctx.out.warn(format!(
                    "the relayer at {url} did not say when it batches: {e}"
                )),
            }
        }
        let now = std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .map_or(0, |d| d.as_millis() as i64);
        // `--json` prints exactly the `data` of `GET /api/pools`: `{pools: [...]}`.
        let listed = serde_json::json!({ "pools": &pools });
        ctx.out.result(&listed, || {
            let mut rows = vec![[
                "DENOM".to_owned(),
                "POOL".into(),
                "BALANCE".into(),
                "DEPOSITS".into(),
                "QUEUED".into(),
                "NEXT BATCH".into(),
                "ROOT".into(),
                "RELAYER FEE".into(),
            ]];
            for p in &pools {
                rows.push([
                    format!("{} USDT", p.denomination),
                    p.address.to_base58(),
                    format!("{} USDT", p.pool_balance),
                    p.deposit_count.to_string(),
                    p.queued.to_string(),
                    next_batch_text(p.next_batch.as_ref(), now),
                    format!("{}…", &p.current_root[..12]),
                    p.relayer_fee
                        .map_or_else(|| "-".to_owned(), |f| format!("{f} USDT")),
                ]);
            }
            super::output::table(&rows)
        })
    }
}

/// When the relayer's batcher sends a pool's next batch, for the table: `in 12m`, `now`,
/// `held (budget)`, or `-` when nothing is known.
fn next_batch_text(next: Option<&NextBatch>, now_ms: i64) -> String {
    match next {
        None => "-".to_owned(),
        Some(next) => match next.due_at {
            None => "held (budget)".to_owned(),
            Some(at) if at <= now_ms => "now".to_owned(),
            Some(at) => {
                // Whole minutes (rounded up) once it is a minute or more away.
                let secs = ((at - now_ms) as u64).div_ceil(1000);
                let secs = if secs >= 60 {
                    secs.div_ceil(60) * 60
                } else {
                    secs
                };
                let wait = std::time::Duration::from_secs(secs);
                format!("in {}", humantime::format_duration(wait))
            }
        },
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_next_batch_reads_as_a_wait() {
        let next = |due_at| NextBatch {
            start: 3,
            count: 2,
            waiting_since: 0,
            due_at,
        };
        assert_eq!(next_batch_text(None, 0), "-");
        assert_eq!(next_batch_text(Some(&next(None)), 0), "held (budget)");
        assert_eq!(next_batch_text(Some(&next(Some(5_000))), 5_000), "now");
        assert_eq!(next_batch_text(Some(&next(Some(720_500))), 500), "in 12m");
    }
}
