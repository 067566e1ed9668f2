//! `tronpool approve --denom N [--amount X | --unlimited]`: let a pool take USDT for deposits.

use alloy_primitives::U256;
use clap::Args;
use serde::Serialize;
use tron::{Address, TxId};

use crate::error::{Error, Result};
use crate::service::builders;
use crate::service::format::six_decimals_text;
use crate::service::inputs::{USDT_DECIMALS, parse_units};

use super::context::Context;
use super::input::confirm;
use super::open::{connect, key, owner};
use super::signing::{print_unsigned, sign_and_confirm};

#[derive(Debug, Args)]
pub struct ApproveArgs {
    /// The pool: its denomination in USDT (100, 500, 1000, 3000, 5000, 10000)
    #[arg(long, value_name = "N")]
    denom: u64,
    /// How many deposits to allow (the default amount is what they take and 0.000001 USDT
    /// more, so the allowance never falls back to zero and the next approval costs less)
    #[arg(long, value_name = "K", default_value_t = 1, conflicts_with_all = ["amount", "unlimited"])]
    count: u64,
    /// Allow this much USDT instead (e.g. 250.5)
    #[arg(long, value_name = "USDT", conflicts_with = "unlimited")]
    amount: Option<String>,
    /// Allow any amount (the largest uint256), so later deposits need no approval
    #[arg(long)]
    unlimited: bool,
    /// Print the unsigned transaction (the API's JSON) for an external signer instead
    #[arg(long)]
    unsigned: bool,
    /// With --unsigned: the address that will sign (default: the signing key's)
    #[arg(long, value_name = "ADDRESS", requires = "unsigned")]
    from: Option<Address>,
}

#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
struct Approved {
    txid: TxId,
    owner: Address,
    spender: Address,
    denomination: u64,
    amount_raw: String,
}

impl ApproveArgs {
    pub async fn run(self, ctx: &Context) -> Result<()> {
        let given = if self.unlimited {
            Some(U256::MAX)
        } else if let Some(text) = &self.amount {
            Some(parse_units(text, USDT_DECIMALS).ok_or_else(|| {
                Error::usage(format!("--amount `{text}` is not an amount of USDT"))
            })?)
        } else {
            None
        };
        let chain = connect(ctx).await?;
        let pool = chain.pool_address(self.denom)?;
        let amount = match given {
            Some(amount) => amount,
            None => builders::approval_for(&chain, self.denom, self.count)?,
        };
        if self.unsigned {
            let from = owner(ctx, self.from)?;
            let built =
                builders::approve_transaction(&chain, from, self.denom, Some(amount)).await?;
            return print_unsigned(ctx, &built.transaction);
        }
        let key = key(ctx)?;
        let built =
            builders::approve_transaction(&chain, key.address(), self.denom, Some(amount)).await?;
        confirm(
            ctx,
            "approve",
            &format!(
                "Allow the {} USDT pool {pool} to take {} USDT from {} on {}? ({})",
                self.denom,
                describe_amount(amount),
                key.address(),
                chain.network,
                built.estimate.describe()
            ),
        )?;
        let txid = sign_and_confirm(&chain, built.transaction, &key, "the approval").await?;
        let out = Approved {
            txid,
            owner: key.address(),
            spender: pool,
            denomination: self.denom,
            amount_raw: amount.to_string(),
        };
        ctx.out.result(&out, || {
            format!(
                "approved {} USDT for the {} USDT pool: {txid}",
                describe_amount(amount),
                self.denom
            )
        })
    }
}

pub(crate) fn describe_amount(amount: U256) -> String {
    if amount == U256::MAX {
        "unlimited".into()
    } else {
        six_decimals_text(amount)
    }
}
