//! `tronpool balance [ADDRESS] [--allowance]`: USDT, TRX, energy and bandwidth, and what each
//! pool may take.

use clap::Args;
use serde::Serialize;
use tron::Address;

use crate::error::Result;
use crate::service::balances;
use crate::service::balances::{Allowance, Balance};

use super::context::Context;
use super::open::{connect, owner};
use super::output::rows;

#[derive(Debug, Args)]
pub struct BalanceArgs {
    /// The account (default: the signing key's address)
    #[arg(value_name = "ADDRESS")]
    address: Option<Address>,
    /// Also show the allowance each pool has from this account
    #[arg(long)]
    allowance: bool,
}

#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
struct Out {
    #[serde(flatten)]
    balance: Balance,
    #[serde(skip_serializing_if = "Option::is_none")]
    allowances: Option<Vec<Allowance>>,
}

impl BalanceArgs {
    pub async fn run(self, ctx: &Context) -> Result<()> {
        let address = owner(ctx, self.address)?;
        let chain = connect(ctx).await?;
        let balance = balances::balance(&chain, address).await?;
        let allowances = if self.allowance {
            let reads = chain
                .denominations()
                .into_iter()
                .map(|d| balances::allowance(&chain, address, d));
            Some(futures_util::future::try_join_all(reads).await?)
        } else {
            None
        };
        let out = Out {
            balance,
            allowances,
        };
        ctx.out.result(&out, || {
            let mut lines = vec![
                ("address", out.balance.address.to_base58()),
                ("USDT", out.balance.balance.to_string()),
                ("TRX", out.balance.trx.to_string()),
                (
                    "energy",
                    format!(
                        "{} available of {} a day",
                        out.balance.resources.energy_available, out.balance.resources.energy_limit
                    ),
                ),
                (
                    "bandwidth",
                    format!(
                        "{} bytes available of {} a day",
                        out.balance.resources.bandwidth_available,
                        out.balance.resources.bandwidth_limit
                    ),
                ),
            ];
            if out.balance.resources.staked_for_energy_raw != "0" {
                lines.push((
                    "staked",
                    format!(
                        "{} TRX for energy",
                        crate::units::trx_text(
                            out.balance
                                .resources
                                .staked_for_energy_raw
                                .parse()
                                .unwrap_or(0)
                        )
                    ),
                ));
            }
            let labels: Vec<String> = out
                .allowances
                .iter()
                .flatten()
                .map(|a| format!("allowance {} pool", a.denomination))
                .collect();
            for (label, a) in labels.iter().zip(out.allowances.iter().flatten()) {
                lines.push((label.as_str(), format!("{} USDT", a.allowance)));
            }
            rows(&lines)
        })
    }
}
