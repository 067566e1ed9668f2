//! `tronpool relay withdraw | status | collect`: withdrawing through a relayer, which signs
//! and pays for the transaction, so the recipient needs no TRX and nothing links it to the
//! depositor; and, for a relayer's operator, collecting the fees it earned
//! (`super::relay_collect`).
//!
//! The relayer is a remote one (`--relayer URL`, or `relayer` in the network's config), or
//! on the devnet without either, the devnet's own: its dev account 1 running this crate's
//! relayer in-process, with the same checks a server makes.

use std::sync::Arc;
use std::time::Duration;

use alloy_primitives::U256;
use clap::{Args, Subcommand};
use tron::{Address, TxId};
use url::Url;

use crate::error::{Error, Kind, Result};
use crate::service::builders::{SpentCheck, withdraw_calldata};
use crate::service::chain::Chain;
use crate::service::inputs::{USDT_DECIMALS, parse_units};
use crate::service::notes::Payout;
use crate::service::pools::six_decimals_text;
use crate::service::relayer::{RelayRequest, Relayer, RelayerConfig, RelayerStatus};
use crate::service::relayer_client::RelayerClient;
use crate::service::relayer_fees::{FeeQuote, RELAY_BYTES, Resources};
use crate::service::sponsor::SponsorShare;
use crate::service::submit::Outcome;
use crate::store::jobs::{JobState, JobStore};

use super::Context;
use super::input::confirm;
use super::session::{connect, given_note, notes, pricing, remember, trees};
use super::withdraw::{DryRun, Withdrawn, prove, refund_sun};

/// The default cap on a relayer's fee, as a share of the pool's denomination.
const DEFAULT_MAX_FEE_PERCENT: u64 = 25;
/// How often to ask a relayer about its job: a block is 3 s, and a server allows a client
/// 120 requests a minute.
const FOLLOW_POLL: Duration = Duration::from_secs(1);

/// How long to follow a relayed transaction: relayers sign for a couple of minutes.
const FOLLOW_MS: i64 = 3 * 60 * 1000;
/// How long the devnet's in-process relayer waits for its broadcast before answering.
const FOLLOW_WAIT: Duration = Duration::from_secs(30);

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
    /// The most fee to accept, in USDT (default: 25% of the pool, and never more than twice
    /// what the relay costs at the chain's prices)
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

/// The relayer a command talks to.
enum Target {
    Remote(RelayerClient),
    Devnet(Arc<Relayer>),
}

fn target(ctx: &Context, url: Option<Url>) -> Result<Target> {
    let settings = ctx.settings()?;
    if let Some(url) = url.or_else(|| settings.relayer.value.clone()) {
        return Ok(Target::Remote(RelayerClient::new(
            url,
            settings.proxy.value.as_ref(),
        )?));
    }
    if settings.network.value != crate::network::DEFAULT_NETWORK {
        return Err(Error::usage(format!(
            "no relayer is configured for network `{}`: pass --relayer URL or set `relayer` \
             under [networks.{}] in the config file",
            settings.network.value, settings.network.value
        )));
    }
    let relayer = Relayer::new(
        devnet::genesis::dev_key(1),
        RelayerConfig::default(),
        JobStore::in_memory()?,
    );
    Ok(Target::Devnet(Arc::new(relayer)))
}

impl Target {
    fn describe(&self) -> String {
        match self {
            Target::Remote(client) => format!("the relayer at {}", client.url()),
            Target::Devnet(relayer) => format!("the devnet's relayer {}", relayer.address()),
        }
    }

    /// The status of a remote relayer, or of the devnet's (which needs the chain).
    async fn status(&self, ctx: &Context, chain: Option<&Chain>) -> Result<RelayerStatus> {
        match (self, chain) {
            (Target::Remote(client), _) => client.status().await,
            (Target::Devnet(relayer), Some(chain)) => {
                relayer.status(chain, &pricing(ctx, chain)?).await
            }
            (Target::Devnet(relayer), None) => {
                let chain = connect(ctx).await?;
                relayer.status(&chain, &pricing(ctx, &chain)?).await
            }
        }
    }

    /// The relayer's address and its quote for a pool, after checking it serves our network.
    async fn terms(
        &self,
        ctx: &Context,
        chain: &Chain,
        denomination: u64,
    ) -> Result<(Address, FeeQuote)> {
        let status = self.status(ctx, Some(chain)).await?;
        if status.network != chain.network {
            return Err(Error::usage(format!(
                "{} serves network `{}`, not `{}`",
                self.describe(),
                status.network,
                chain.network
            )));
        }
        let address = match (status.enabled, status.address) {
            (true, Some(address)) => address,
            _ => {
                return Err(Error::Disabled(format!(
                    "{} does not relay withdrawals",
                    self.describe()
                )));
            }
        };
        Ok((address, status.quote(denomination)?.clone()))
    }

    /// Follows a relayed transaction to its receipt: through the relayer's job while it is
    /// not in a block (a relayer that cannot say is skipped), then on our own node, which
    /// alone decides whether the note was spent.
    async fn follow(&self, chain: &Chain, txid: &TxId, deadline: i64) -> Result<Outcome> {
        if let Target::Remote(client) = self {
            while tron::transaction::now_ms() < deadline {
                match client.job(txid).await {
                    Ok(job) if job.state == JobState::Failed => {
                        return Err(Error::Refused(format!(
                            "the relayed withdrawal {txid} failed: {}",
                            job.error.unwrap_or_else(|| "no reason given".into())
                        )));
                    }
                    Ok(job) if matches!(job.state, JobState::Included | JobState::Confirmed) => {
                        break;
                    }
                    Ok(_) => {}
                    // An older relayer without the jobs endpoint: watch the chain instead.
                    Err(e) if e.kind() == Kind::NotFound || e.kind() == Kind::Disabled => break,
                    Err(e) => tracing::debug!(error = %e, "asking the relayer about its job"),
                }
                tokio::time::sleep(FOLLOW_POLL).await;
            }
        }
        chain.wait_for(txid, deadline).await
    }
}

/// The most fee to accept: `--max-fee`, else a share of the pool capped at twice what the
/// relay costs at the chain's prices (when this client can price it).
async fn fee_cap(
    ctx: &Context,
    chain: &Chain,
    denomination: u64,
    refund: i64,
    max_fee: Option<&str>,
) -> Result<(U256, String)> {
    if let Some(text) = max_fee {
        let cap = parse_units(text, USDT_DECIMALS)
            .ok_or_else(|| Error::usage(format!("--max-fee `{text}` is not an amount of USDT")))?;
        return Ok((cap, "--max-fee".into()));
    }
    let share = chain
        .denomination(denomination)?
        .percent(DEFAULT_MAX_FEE_PERCENT);
    let why = format!("{DEFAULT_MAX_FEE_PERCENT}% of the pool");
    let pricing = pricing(ctx, chain)?;
    match pricing.terms(chain, Resources::default()).await {
        Ok(terms) => {
            // What a relay costs a relayer with no stake in a pool nobody sponsors: the cap
            // guards against greed, it is not the price, so it allows for any honest one.
            let cost = terms.break_even(
                terms.policy.expected_energy,
                RELAY_BYTES,
                refund,
                &SponsorShare::NONE,
            );
            let twice = cost * U256::from(2u8);
            Ok(if twice < share {
                (
                    twice,
                    format!(
                        "twice the {} USDT a relay costs at {} sun per energy and {} USDT \
                         per TRX",
                        six_decimals_text(cost),
                        terms.energy_fee,
                        terms.price.price.usdt_per_trx_text()
                    ),
                )
            } else {
                (share, why)
            })
        }
        Err(e) => {
            ctx.out.note(format!(
                "cannot price the relay here ({e}); accepting a fee up to {why}"
            ));
            Ok((share, why))
        }
    }
}

impl RelayWithdrawArgs {
    pub async fn run(self, ctx: &Context) -> Result<()> {
        let chain = Arc::new(connect(ctx).await?);
        let store = notes(ctx)?;
        let trees = trees(ctx)?;
        let mut given = given_note(ctx, &store, &self.note)?;
        let denomination = given.note.meta().denomination();
        let pool = chain.pool_address(denomination)?;
        let refund = refund_sun(self.refund.as_deref())?;
        let refund_i64 =
            i64::try_from(refund).map_err(|_| Error::usage("--refund is more TRX than exists"))?;
        let relayer = target(ctx, self.relayer.clone())?;
        let (address, quote) = relayer.terms(ctx, &chain, denomination).await?;
        let fee = quote.fee_with_refund(refund_i64)?;
        let (cap, why) = fee_cap(
            ctx,
            &chain,
            denomination,
            refund_i64,
            self.max_fee.as_deref(),
        )
        .await?;
        if fee > cap {
            return Err(Error::Refused(format!(
                "{} asks a fee of {} USDT for the {denomination} USDT pool, more than the {} \
                 USDT accepted ({why}); pass --max-fee to accept more, or use another relayer",
                relayer.describe(),
                six_decimals_text(fee),
                six_decimals_text(cap)
            )));
        }
        ctx.out.note(format!(
            "relaying through {} for a fee of {} USDT (at most {} accepted)",
            relayer.describe(),
            six_decimals_text(fee),
            six_decimals_text(cap)
        ));
        let payout = Payout {
            from: address,
            recipient: self.to,
            relayer: Some(address),
            fee,
            refund,
        };
        let proved = prove(ctx, &chain, &store, &trees, &given, payout).await?;
        // Verified here too, before a relayer sees it: a bad proof is our bug, not theirs.
        let refund_sun = chain
            .check_withdrawal(&proved.request, SpentCheck::CheckedLocally)
            .await?;
        if self.dry_run {
            let call = chain
                .prepare_call(
                    address,
                    pool,
                    refund_sun,
                    withdraw_calldata(&proved.request),
                )
                .await?;
            call.check_succeeds("the withdrawal")?;
            let out = DryRun::new(&proved, &call);
            return ctx.out.result(&out, || out.describe());
        }
        let id = remember(&chain, &store, &mut given, "withdraw")?;
        confirm(
            ctx,
            "relay withdraw",
            &format!(
                "Withdraw {denomination} USDT with note {id} to {} through {} (fee {} USDT)?",
                self.to,
                relayer.describe(),
                six_decimals_text(fee)
            ),
        )?;
        let request = RelayRequest {
            denomination,
            proof: proved.request.proof,
            root: proved.request.root,
            nullifier_hash: proved.request.nullifier_hash,
            recipient: self.to,
            fee: Some(fee),
            refund: Some(refund),
        };
        let relayed = match &relayer {
            Target::Remote(client) => client.withdraw(&request).await?,
            Target::Devnet(relayer) => {
                let pricing = pricing(ctx, &chain)?;
                relayer
                    .relay(&chain, &pricing, &request, FOLLOW_WAIT)
                    .await?
            }
        };
        let txid = relayed.txid;
        ctx.out
            .note(format!("the relayer sent {txid}; waiting for it"));
        let deadline = tron::transaction::now_ms() + FOLLOW_MS;
        let outcome = relayer.follow(&chain, &txid, deadline).await?;
        // Our deadline, not the transaction's expiry (the relayer chose that): say so.
        if matches!(outcome, Outcome::Expired) {
            return Err(Error::Refused(format!(
                "the relayed withdrawal {txid} is not in a block after {} s; `tronpool notes \
                 check {id}` tells whether the note was spent",
                FOLLOW_MS / 1000
            )));
        }
        outcome.settle("the relayed withdrawal", &txid)?;
        store.mark_withdrawn(id, Some(&txid.to_hex()), Some(&self.to.to_base58()))?;
        chain.pool_changed(denomination);
        let received = chain.denomination(denomination)?.base_units() - fee;
        let out = Withdrawn {
            txid,
            note_id: id,
            denomination,
            recipient: self.to,
            relayer: Some(address),
            received_raw: received.to_string(),
            fee_raw: fee.to_string(),
            refund_sun: refund.to_string(),
        };
        ctx.out.result(&out, || {
            format!(
                "withdrew {} USDT to {} (note {id}, fee {} USDT): {txid}",
                six_decimals_text(received),
                self.to,
                six_decimals_text(fee)
            )
        })
    }
}

impl RelayStatusArgs {
    pub async fn run(self, ctx: &Context) -> Result<()> {
        let relayer = target(ctx, self.relayer)?;
        let status = relayer.status(ctx, None).await?;
        ctx.out
            .result(&status, || describe_status(&relayer, &status))
    }
}

fn describe_status(relayer: &Target, status: &RelayerStatus) -> String {
    let or_dash = |v: Option<String>| v.unwrap_or_else(|| "-".into());
    let mut lines = vec![
        ("relayer", relayer.describe()),
        ("enabled", status.enabled.to_string()),
        ("address", or_dash(status.address.map(|a| a.to_base58()))),
        ("network", status.network.clone()),
        ("TRX", or_dash(status.balance_trx.map(|t| t.to_string()))),
        ("pending", status.pending.to_string()),
    ];
    if let Some(reason) = &status.price_error {
        lines.push(("no fees", reason.clone()));
    }
    if let Some(first) = status.fees.first() {
        lines.push((
            "prices",
            format!(
                "{} sun per energy, {} USDT per TRX ({}, {} s old)",
                first.energy_price,
                first.trx_price,
                first.trx_price_source,
                first.trx_price_age_seconds
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
