//! `tronpool relay withdraw | status | collect`: withdrawing through a relayer, which signs
//! and pays for the transaction, so the recipient needs no TRX and nothing links it to the
//! depositor; and, for a relayer's operator, collecting the fees it earned
//! (`super::relay_collect`).
//!
//! The relayer is a remote one (`--relayer URL`, or `relayer` in the network's config), or
//! on the devnet without either, the devnet's own: its dev account 1 running this crate's
//! relayer in-process, with the same checks a server makes. The withdrawal itself is
//! `service::relay_withdraw`; this file asks, confirms and renders.

use std::sync::Arc;

use alloy_primitives::U256;
use clap::{Args, Subcommand};
use tron::Address;
use url::Url;

use crate::error::{Error, Result};
use crate::service::chain::Chain;
use crate::service::format::six_decimals_text;
use crate::service::inputs::{USDT_DECIMALS, parse_units};
use crate::service::progress::Progress;
use crate::service::relay_withdraw::{RelayTarget, RelayWithdrawal, RelayWithdrawn};
use crate::service::relayer::{Relayer, RelayerConfig};
use crate::service::relayer_client::RelayerClient;
use crate::service::wire::RelayerStatus;
use crate::settings::Settings;
use crate::store::jobs::JobStore;

use super::context::Context;
use super::input::refund_sun;
use super::open::{Session, connect, pricing};
use super::progress::Steps;

#[derive(Debug, Subcommand)]
pub enum RelayCommand {
    /// Withdraw a note through a relayer, which pays the energy and takes its fee
    Withdraw(RelayWithdrawArgs),
    /// A relayer's address, balance and fees
    Status(RelayStatusArgs),
    /// Collect the fees a relayer earned (they stay in the pools until collected)
    Collect(super::relay_collect::RelayCollectArgs),
}

#[derive(Debug, Args)]
pub struct RelayWithdrawArgs {
    /// The note: its id (`tronpool notes list`), `-` to read its text from stdin, or the text
    #[arg(value_name = "NOTE")]
    note: String,
    /// Who receives the USDT (less the relayer's fee)
    #[arg(long, value_name = "ADDRESS")]
    to: Address,
    /// The relayer's base URL (default: the network's configured relayer; on the devnet, its own)
    #[arg(long, value_name = "URL")]
    relayer: Option<Url>,
    /// TRX the relayer sends along to the recipient (its fee must cover it), e.g. 2
    #[arg(long, value_name = "TRX")]
    refund: Option<String>,
    /// The most fee to accept, in USDT (default: `max_fee` in the config, else twice what the
    /// relay costs at the chain's prices and never more than 25% of the pool; needed when
    /// this client cannot price a relay)
    #[arg(long, value_name = "USDT")]
    max_fee: Option<String>,
    /// Sync, prove, verify and simulate, but send nothing
    #[arg(long)]
    dry_run: bool,
}

#[derive(Debug, Args)]
pub struct RelayStatusArgs {
    /// The relayer's base URL (default: the network's configured relayer; on the devnet, its own)
    #[arg(long, value_name = "URL")]
    relayer: Option<Url>,
}

impl RelayCommand {
    pub async fn run(self, ctx: &Context) -> Result<()> {
        match self {
            RelayCommand::Withdraw(args) => args.run(ctx).await,
            RelayCommand::Status(args) => args.run(ctx).await,
            RelayCommand::Collect(args) => args.run(ctx).await,
        }
    }
}

/// The relayer a command talks to when one is named: `url`, else the network's configured
/// relayer; `None` on the devnet without one (it relays itself, [`in_process`]).
fn remote(settings: &Settings, url: Option<Url>) -> Result<Option<RelayTarget>> {
    if let Some(url) = url.or_else(|| settings.relayer.value.clone()) {
        return Ok(Some(RelayTarget::Remote(RelayerClient::new(
            url,
            settings.proxy.value.as_ref(),
        )?)));
    }
    if settings.network.value != crate::network::DEFAULT_NETWORK {
        return Err(Error::usage(format!(
            "no relayer is configured for network `{}`: pass --relayer URL or set `relayer` \
             under [networks.{}] in the config file",
            settings.network.value, settings.network.value
        )));
    }
    Ok(None)
}

/// The devnet's dev account 1 relaying in this process on `chain`.
fn in_process(chain: Arc<Chain>) -> Result<RelayTarget> {
    let relayer = Relayer::new(
        devnet::genesis::dev_key(1),
        RelayerConfig::default(),
        JobStore::in_memory()?,
    );
    Ok(RelayTarget::InProcess {
        relayer: Arc::new(relayer),
        chain,
    })
}

impl RelayWithdrawArgs {
    pub async fn run(self, ctx: &Context) -> Result<()> {
        let (session, given) = Session::with_note(ctx, &self.note, false).await?;
        let refund = refund_sun(self.refund.as_deref())?;
        let settings = session.settings;
        let relayer = match remote(settings, self.relayer.clone())? {
            Some(remote) => remote,
            None => in_process(session.chain.clone())?,
        };
        let configured = &settings.max_fee.value;
        let max_fee = match (&self.max_fee, &configured) {
            (Some(text), _) => Some(parse_units(text, USDT_DECIMALS).ok_or_else(|| {
                Error::usage(format!("--max-fee `{text}` is not an amount of USDT"))
            })?),
            (None, Some(text)) => Some(parse_units(text, USDT_DECIMALS).ok_or_else(|| {
                Error::usage(format!(
                    "max_fee `{text}` in the config is not an amount of USDT"
                ))
            })?),
            (None, None) => None,
        };
        let pricing = pricing(settings, &session.chain)?;
        let withdrawal = RelayWithdrawal {
            note: given,
            recipient: self.to,
            refund,
            max_fee,
            dry_run: self.dry_run,
        };
        let (progress, steps) = Progress::channel();
        let work = withdrawal.run(session.desk(), &relayer, &pricing, &progress);
        let view = Steps::new(ctx, "relay withdraw");
        let done = view.show(steps, work).await?;
        match done {
            RelayWithdrawn::DryRun(out) => ctx.out.result(&out, || out.describe()),
            RelayWithdrawn::Withdrawn(out) => ctx.out.result(&out, || out.describe()),
        }
    }
}

impl RelayStatusArgs {
    pub async fn run(self, ctx: &Context) -> Result<()> {
        let settings = ctx.settings()?;
        let relayer = match remote(settings, self.relayer)? {
            Some(remote) => remote,
            None => in_process(Arc::new(connect(ctx).await?))?,
        };
        let status = match &relayer {
            RelayTarget::Remote(client) => client.status().await?,
            RelayTarget::InProcess { chain, .. } => {
                relayer.status(chain, &pricing(settings, chain)?).await?
            }
        };
        ctx.out
            .result(&status, || describe_status(&relayer, &status))
    }
}

fn describe_status(relayer: &RelayTarget, status: &RelayerStatus) -> String {
    let or_dash = |v: Option<String>| v.unwrap_or_else(|| "-".into());
    let mut lines = vec![
        ("relayer", relayer.describe()),
        ("enabled", status.enabled.to_string()),
        ("address", or_dash(status.address.map(|a| a.to_base58()))),
        ("network", status.network.clone()),
        ("TRX", or_dash(status.balance_trx.map(|t| t.to_string()))),
        ("pending", status.pending.to_string()),
    ];
    if let Some(reserved) = &status.reserved {
        lines.push((
            "reserved",
            format!(
                "{} jobs hold {} energy, {} staked and {} free bytes, {} TRX",
                reserved.jobs,
                reserved.energy,
                reserved.staked_bandwidth,
                reserved.free_bandwidth,
                six_decimals_text(U256::from(reserved.trx_sun.max(0)))
            ),
        ));
    }
    if status.quote_valid_seconds > 0 {
        lines.push((
            "quotes",
            format!("honoured for {} s", status.quote_valid_seconds),
        ));
    }
    if let Some(reason) = &status.price_error {
        lines.push(("no fees", reason.clone()));
    }
    if let Some(first) = status.fees.first() {
        lines.push((
            "prices",
            format!(
                "{} sun per energy, {} USDT per TRX ({}, {}, {} s old; spot {})",
                first.energy_price,
                first.trx_price,
                first.trx_price_source,
                first.trx_price_basis,
                first.trx_price_age_seconds,
                first.trx_spot_price
            ),
        ));
        lines.push((
            "energy",
            format!(
                "{} expected per relay, at most {} ({} staked)",
                first.expected_energy, first.max_energy, first.staked_energy
            ),
        ));
        lines.push((
            "refund",
            format!("{} USDT per TRX refunded", first.refund_price),
        ));
    }
    for fee in &status.fees {
        lines.push((
            "fee",
            format!("{} USDT pool: {} USDT", fee.denomination, fee.relayer_fee),
        ));
    }
    super::output::rows(&lines)
}
