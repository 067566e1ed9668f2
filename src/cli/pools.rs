//! `tronpool pools`: every pool of the network, as `GET /api/pools` shows them.

use clap::Args;

use super::context::Context;
use super::open::{connect, pricing};
use crate::error::Result;
use crate::service::pools;

#[derive(Debug, Args)]
pub struct PoolsArgs {}

impl PoolsArgs {
    pub async fn run(self, ctx: &Context) -> Result<()> {
        let chain = connect(ctx).await?;
        // The fee a relayer with the default terms asks at today's prices (each relayer
        // quotes its own: `tronpool relay status`).
        let pricing = pricing(ctx.settings()?, &chain)?;
        let terms = pricing.terms(&chain, Default::default()).await.ok();
        let pools = pools::pools(&chain, terms.as_ref()).await?;
        // `--json` prints exactly the `data` of `GET /api/pools`: `{pools: [...]}`.
        let listed = serde_json::json!({ "pools": &pools });
        ctx.out.result(&listed, || {
            let mut rows = vec![[
                "DENOM".to_owned(),
                "POOL".into(),
                "BALANCE".into(),
                "DEPOSITS".into(),
                "QUEUED".into(),
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
                    format!("{}…", &p.current_root[..12]),
                    p.relayer_fee
                        .map_or_else(|| "-".to_owned(), |f| format!("{f} USDT")),
                ]);
            }
            super::output::table(&rows)
        })
    }
}
