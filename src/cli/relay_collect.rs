//! `tronpool relay collect`: a relayer operator collects the fees its relays earned. They stay
//! in each pool, credited to the relayer, until collected (see `service::fees`); `serve`
//! collects them by itself above `--relayer-collect-above`.

use std::path::PathBuf;

use alloy_primitives::U256;
use clap::Args;
use serde::Serialize;
use tron::Address;

use crate::error::{Error, Result};
use crate::service::fees::{self, Accrued, Collected};
use crate::service::format::six_decimals_text;
use crate::service::inputs::{USDT_DECIMALS, parse_units};

use super::context::Context;
use super::input::confirm;
use super::open::connect;

#[derive(Debug, Args)]
pub struct RelayCollectArgs {
    /// Only the pool of this many USDT
    #[arg(long, value_name = "USDT")]
    denom: Option<u64>,
    /// Only pools holding at least this much USDT for the relayer (default: any amount)
    #[arg(long, value_name = "USDT")]
    min: Option<String>,
    /// The relayer's private key file (else TRONPOOL_RELAYER_PRIVATE_KEY; on the devnet, dev
    /// account 1)
    #[arg(long, env = crate::env_vars::RELAYER_KEY_FILE, hide_env_values = true, value_name = "PATH")]
    relayer_key_file: Option<PathBuf>,
    /// Show what is due, send nothing
    #[arg(long)]
    dry_run: bool,
}

#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
struct Out {
    relayer: Address,
    dry_run: bool,
    /// What each pool holds for the relayer (before collecting).
    due: Vec<Accrued>,
    collected: Vec<Collected>,
}

impl RelayCollectArgs {
    pub async fn run(self, ctx: &Context) -> Result<()> {
        let settings = ctx.settings()?;
        let key =
            super::key::relayer_key(self.relayer_key_file.as_deref(), &settings.network.value)?
                .ok_or_else(|| {
                    Error::usage(format!(
                        "no relayer key for network `{}`: pass --relayer-key-file or set {}",
                        settings.network.value,
                        crate::env_vars::RELAYER_PRIVATE_KEY
                    ))
                })?;
        let threshold = match &self.min {
            Some(text) => parse_units(text, USDT_DECIMALS)
                .ok_or_else(|| Error::usage(format!("--min `{text}` is not an amount of USDT")))?,
            None => U256::from(1u8),
        };
        let chain = connect(ctx).await?;
        let relayer = key.address();
        let due = fees::due(&chain, relayer, threshold, self.denom).await?;
        let total: U256 = due.iter().map(|a| a.amount).sum();
        let mut out = Out {
            relayer,
            dry_run: self.dry_run,
            due,
            collected: Vec::new(),
        };
        if out.due.is_empty() || self.dry_run {
            if out.due.is_empty() {
                ctx.out.note(format!("{relayer} has no fees to collect"));
            }
            return ctx.out.result(&out, || describe(&out));
        }
        confirm(
            ctx,
            "relay collect",
            &format!(
                "Collect {} USDT of fees for {relayer} from {} pool(s) on {}, one transaction each?",
                six_decimals_text(total),
                out.due.len(),
                chain.network
            ),
        )?;
        out.collected = fees::collect(&chain, &key, out.due.clone()).await?;
        ctx.out.result(&out, || describe(&out))
    }
}

fn describe(out: &Out) -> String {
    let mut lines: Vec<String> = out
        .due
        .iter()
        .map(|a| {
            format!(
                "{:>6} USDT pool: {} USDT due",
                a.denomination,
                six_decimals_text(a.amount)
            )
        })
        .collect();
    lines.extend(out.collected.iter().map(|c| {
        format!(
            "{:>6} USDT pool: collected {} USDT: {}",
            c.denomination, c.amount_raw, c.txid
        )
    }));
    lines.join("\n")
}
