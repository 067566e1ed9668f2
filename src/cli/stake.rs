//! `tronpool stake energy|release|withdraw|delegate|undelegate`: TRX staked for energy
//! (Stake 2.0), so that energy is paid for once instead of burned per transaction.

use clap::{Args, Subcommand};
use serde::Serialize;
use tron::{Address, TxId};

use crate::error::{Error, Result};
use crate::service::inputs::parse_units;
use crate::service::stake;
use crate::service::stake::{AccountResources, StakeRequest};
use crate::units::trx_text;

use super::context::Context;
use super::input::confirm;
use super::open::{connect, key};
use super::output::rows;
use super::signing::sign_and_confirm;

#[derive(Debug, Subcommand)]
pub enum StakeCommand {
    /// Stake TRX for energy: energy from stake is spent before any TRX is burned
    Energy(AmountArgs),
    /// Start releasing staked TRX (it can be withdrawn after the network's unfreeze delay,
    /// 14 days on mainnet)
    Release(AmountArgs),
    /// Take back released TRX whose delay has passed
    Withdraw,
    /// Lend the energy of staked TRX to another account (a relayer, say)
    Delegate(LoanArgs),
    /// Take back energy lent to an account
    Undelegate(ReclaimArgs),
}

#[derive(Debug, Args)]
pub struct AmountArgs {
    /// TRX (e.g. 1000 or 0.5)
    #[arg(value_name = "TRX")]
    amount: String,
}

#[derive(Debug, Args)]
pub struct LoanArgs {
    /// TRX of staked energy to lend
    #[arg(value_name = "TRX")]
    amount: String,
    /// The account that gets the energy
    #[arg(long, value_name = "ADDRESS")]
    to: Address,
}

#[derive(Debug, Args)]
pub struct ReclaimArgs {
    /// TRX of lent energy to take back
    #[arg(value_name = "TRX")]
    amount: String,
    /// The account it was lent to
    #[arg(long, value_name = "ADDRESS")]
    from: Address,
}

#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
struct Staked {
    txid: TxId,
    owner: Address,
    action: &'static str,
    resource: &'static str,
    amount_raw: String,
    #[serde(skip_serializing_if = "Option::is_none")]
    counterparty: Option<Address>,
    /// TRX returned from expired releases, in sun.
    withdrawn_raw: String,
    /// The owner's energy and bandwidth afterwards.
    resources: AccountResources,
}

fn sun(text: &str) -> Result<i64> {
    parse_units(text, 6)
        .and_then(|v| i64::try_from(v).ok())
        .ok_or_else(|| Error::usage(format!("`{text}` is not an amount of TRX")))
}

impl StakeCommand {
    pub async fn run(self, ctx: &Context) -> Result<()> {
        let request = match &self {
            StakeCommand::Energy(a) => StakeRequest::Stake {
                amount: sun(&a.amount)?,
            },
            StakeCommand::Release(a) => StakeRequest::Release {
                amount: sun(&a.amount)?,
            },
            StakeCommand::Withdraw => StakeRequest::Withdraw,
            StakeCommand::Delegate(a) => StakeRequest::Delegate {
                amount: sun(&a.amount)?,
                to: a.to,
            },
            StakeCommand::Undelegate(a) => StakeRequest::Undelegate {
                amount: sun(&a.amount)?,
                from: a.from,
            },
        };
        let chain = connect(ctx).await?;
        let key = key(ctx)?;
        let owner = key.address();
        let tx = stake::stake_transaction(&chain, owner, request).await?;
        let amount = trx_text(request.amount());
        let question = match request {
            StakeRequest::Stake { .. } => {
                format!(
                    "Stake {amount} TRX of {owner} for energy on {}?",
                    chain.network
                )
            }
            StakeRequest::Release { .. } => format!(
                "Release {amount} TRX staked for energy by {owner} on {} (withdrawable after \
                 the network's unfreeze delay)?",
                chain.network
            ),
            StakeRequest::Withdraw => format!(
                "Withdraw the released TRX of {owner} whose delay has passed on {}?",
                chain.network
            ),
            StakeRequest::Delegate { to, .. } => format!(
                "Lend the energy of {amount} staked TRX from {owner} to {to} on {}?",
                chain.network
            ),
            StakeRequest::Undelegate { from, .. } => format!(
                "Take back the energy of {amount} TRX that {owner} lent to {from} on {}?",
                chain.network
            ),
        };
        confirm(ctx, "stake", &question)?;
        let txid = sign_and_confirm(&chain, tx, &key, &format!("the {}", request.verb())).await?;
        let withdrawn = chain
            .node
            .get_transaction_info(&txid)
            .await?
            .map_or(0, |info| info.withdraw_expire_amount);
        let resources = stake::resources(&chain, owner).await?;
        let out = Staked {
            txid,
            owner,
            action: request.verb(),
            resource: "ENERGY",
            amount_raw: request.amount().to_string(),
            counterparty: request.counterparty(),
            withdrawn_raw: withdrawn.to_string(),
            resources,
        };
        ctx.out.result(&out, || {
            let done = match request {
                StakeRequest::Withdraw => {
                    format!("withdrew {} TRX", trx_text(withdrawn))
                }
                _ => format!("{}d {amount} TRX", request.verb()),
            };
            let r = &out.resources;
            rows(&[
                ("done", format!("{done}: {txid}")),
                (
                    "energy",
                    format!("{} available of {}", r.energy_available, r.energy_limit),
                ),
            ])
        })
    }
}
