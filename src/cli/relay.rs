//! `tronpool relay withdraw | status`: withdrawing through a relayer, which signs and pays
//! for the transaction, so the recipient needs no TRX and nothing links it to the depositor.
//!
//! The relayer is a remote one (`--relayer URL`, or `relayer` in the network's config), or
//! on the devnet without either, the devnet's own: its dev account 1 running this crate's
//! relayer in-process, with the same checks a server makes.

use alloy_primitives::U256;
use clap::{Args, Subcommand};
use serde_json::Value;
use tron::{Address, TxId};
use url::Url;

use crate::error::{Error, Result};
use crate::service::builders::withdraw_calldata;
use crate::service::chain::Chain;
use crate::service::inputs::USDT_UNIT;
use crate::service::notes::Payout;
use crate::service::relayer::{RelayRequest, Relayer, RelayerConfig};
use crate::service::relayer_client::RelayerClient;
use crate::service::relayer_fees::RelayerFees;
use crate::service::submit::Outcome;
use crate::store::jobs::JobStore;

use super::Context;
use super::input::confirm;
use super::session::{connect, given_note, notes, remember, trees};
use super::withdraw::{DryRun, Withdrawn, prove, refund_sun};

/// How long to follow a relayed transaction: relayers sign for a couple of minutes.
const FOLLOW_MS: i64 = 3 * 60 * 1000;

#[derive(Debug, Subcommand)]
pub enum RelayCommand {
    /// Withdraw a note through a relayer, which pays the energy and takes its fee
    Withdraw(RelayWithdrawArgs),
    /// A relayer's address, balance and fees
    Status(RelayStatusArgs),
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
        }
    }
}

/// The relayer a command talks to.
enum Target {
    Remote(RelayerClient),
    Devnet(Box<Relayer>),
}

fn target(ctx: &Context, url: Option<Url>) -> Result<Target> {
    let settings = ctx.settings()?;
    if let Some(url) = url.or_else(|| settings.relayer.value.clone()) {
        return Ok(Target::Remote(RelayerClient::new(url)?));
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
    Ok(Target::Devnet(Box::new(relayer)))
}

impl Target {
    fn describe(&self) -> String {
        match self {
            Target::Remote(client) => format!("the relayer at {}", client.url()),
            Target::Devnet(relayer) => format!("the devnet's relayer {}", relayer.address()),
        }
    }

    /// The relayer's address and its fee for a pool, after checking it serves our network.
    async fn terms(&self, chain: &Chain, denomination: u64) -> Result<(Address, U256)> {
        match self {
            Target::Remote(client) => {
                let (status, _) = client.status().await?;
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
                Ok((address, U256::from(status.fee(denomination)?)))
            }
            Target::Devnet(relayer) => Ok((
                relayer.address(),
                U256::from(RelayerFees::default().fee(denomination)),
            )),
        }
    }
}

impl RelayWithdrawArgs {
    pub async fn run(self, ctx: &Context) -> Result<()> {
        let chain = connect(ctx).await?;
        let store = notes(ctx)?;
        let trees = trees(ctx)?;
        let mut given = given_note(ctx, &store, &self.note)?;
        let denomination = given.note.meta().denomination();
        let pool = chain.pool_address(denomination)?;
        let refund = refund_sun(self.refund.as_deref())?;
        let relayer = target(ctx, self.relayer.clone())?;
        let (address, fee) = relayer.terms(&chain, denomination).await?;
        ctx.out.note(format!(
            "relaying through {} for a fee of {} USDT",
            relayer.describe(),
            crate::service::pools::six_decimals_text(fee)
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
        let refund_sun = chain.check_withdrawal(&proved.request).await?;
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
                crate::service::pools::six_decimals_text(fee)
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
        let txid: TxId = match &relayer {
            Target::Remote(client) => {
                let txid = client.withdraw(&request).await?;
                txid.parse().map_err(|_| {
                    Error::Failed(format!("the relayer answered with a bad txid `{txid}`"))
                })?
            }
            Target::Devnet(relayer) => {
                relayer
                    .relay(&chain, &RelayerFees::default(), &request)
                    .await?
                    .txid
            }
        };
        ctx.out
            .note(format!("the relayer sent {txid}; waiting for it"));
        let deadline = tron::transaction::now_ms() + FOLLOW_MS;
        let outcome = chain.wait_for(&txid, deadline).await?;
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
        let received = U256::from(denomination * USDT_UNIT) - fee;
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
                crate::service::pools::six_decimals_text(received),
                self.to,
                crate::service::pools::six_decimals_text(fee)
            )
        })
    }
}

impl RelayStatusArgs {
    pub async fn run(self, ctx: &Context) -> Result<()> {
        let relayer = target(ctx, self.relayer)?;
        let data: Value = match &relayer {
            Target::Remote(client) => client.status().await?.1,
            Target::Devnet(r) => {
                let chain = connect(ctx).await?;
                serde_json::to_value(r.status(&chain, &RelayerFees::default()).await?)
                    .expect("statuses serialize")
            }
        };
        ctx.out.result(&data, || describe_status(&relayer, &data))
    }
}

fn describe_status(relayer: &Target, data: &Value) -> String {
    let text = |key: &str| match &data[key] {
        Value::Null => "-".to_owned(),
        Value::String(s) => s.clone(),
        other => other.to_string(),
    };
    let mut lines = vec![
        ("relayer", relayer.describe()),
        ("enabled", text("enabled")),
        ("address", text("address")),
        ("network", text("network")),
        ("TRX", text("balanceTrx")),
        ("pending", text("pending")),
    ];
    let fees: Vec<String> = data["fees"]
        .as_array()
        .into_iter()
        .flatten()
        .map(|f| {
            let fee = f["relayerFee"].as_f64().unwrap_or(f64::NAN);
            format!("{} USDT pool: {fee} USDT", f["denomination"])
        })
        .collect();
    for fee in &fees {
        lines.push(("fee", fee.clone()));
    }
    super::output::rows(&lines)
}
