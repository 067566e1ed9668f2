//! `tronpool pools`: every pool of the network, as `GET /api/pools` shows them.

use clap::Args;

use crate::error::Result;
use crate::service::relayer_fees::RelayerFees;

use super::Context;
use super::session::connect;

#[derive(Debug, Args)]
pub struct PoolsArgs {}

impl PoolsArgs {
    pub async fn run(self, ctx: &Context) -> Result<()> {
        let chain = connect(ctx).await?;
        let pools = chain.pools(&RelayerFees::default()).await?;
        ctx.out.result(&pools, || {
            let mut rows = vec![[
                "DENOM".to_owned(),
                "POOL".into(),
                "BALANCE".into(),
                "DEPOSITS".into(),
                "ROOT".into(),
                "RELAYER FEE".into(),
            ]];
            for p in &pools {
                rows.push([
                    format!("{} USDT", p.denomination),
                    p.address.to_base58(),
                    format!("{} USDT", p.pool_balance),
                    p.deposit_count.to_string(),
                    format!("{}…", &p.current_root[..12]),
                    format!("{} USDT", p.relayer_fee),
                ]);
            }
            super::output::table(&rows)
        })
    }
}
