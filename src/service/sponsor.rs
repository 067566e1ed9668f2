//! Who pays a pool's callers' energy: the pool's `consume_user_resource_percent` (the share its
//! callers pay) and `origin_energy_limit` (the most its deployer pays for one call, from its
//! staked energy, never by burning TRX). Only the deployer (the contract's origin) can change
//! them, with java-tron's `UpdateSettingContract` and `UpdateEnergyLimitContract`.

use serde::Serialize;
use tron::{Action, Address, ContractSetting, Transaction, TransactionBuilder};

use crate::error::{Error, Result};
use crate::service::chain::Chain;
use crate::service::pool_state::SponsorShare;

const EXPIRATION_MS: i64 = 60_000;

/// A pool's energy sponsorship as the chain has it.
#[derive(Debug, Clone, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct Sponsorship {
    pub denomination: u64,
    pub pool: Address,
    /// The deployer, who pays the rest from its stake.
    pub sponsor: Address,
    /// The percent of each call's energy its callers pay.
    pub caller_energy_percent: i64,
    /// The most energy the sponsor pays for one call.
    pub origin_energy_limit: i64,
}

/// What `contract`'s sponsor pays of a call by `caller` now, read from the node (the
/// contract's settings and its origin's energy left).
pub(crate) async fn sponsor_share(
    chain: &Chain,
    contract: Address,
    caller: Address,
) -> Result<SponsorShare> {
    Ok(sponsor_share_now(chain, contract).await?.for_caller(caller))
}

/// What the `denomination` pool's sponsor pays of a call by anyone but itself, kept for
/// a block like the pool's state: for quotes, which many clients ask for. What a
/// transaction is checked against is read fresh ([`sponsor_share`]).
pub(crate) async fn pool_sponsor_share(chain: &Chain, denomination: u64) -> Result<SponsorShare> {
    let pool = chain.pool_address(denomination)?;
    let share = chain
        .sponsor_cache(denomination)?
        .get(|| sponsor_share_now(chain, pool))
        .await?;
    Ok(*share)
}

/// [`pool_sponsor_share`] for a quote: when the node cannot say, no sponsorship,
/// so a quote is never lower than the costs it cannot check.
pub(crate) async fn quoted_sponsor(chain: &Chain, denomination: u64) -> SponsorShare {
    pool_sponsor_share(chain, denomination)
        .await
        .unwrap_or_else(|e| {
            tracing::debug!(denomination, error = %e, "no sponsorship for the quote");
            SponsorShare::NONE
        })
}

async fn sponsor_share_now(chain: &Chain, contract: Address) -> Result<SponsorShare> {
    let Some(info) = chain.node.get_contract(&contract).await? else {
        return Ok(SponsorShare::NONE);
    };
    let percent = 100 - info.consume_user_resource_percent.clamp(0, 100);
    match info.origin_address {
        Some(origin) if percent > 0 => {
            let available = chain
                .node
                .get_account_resource(&origin)
                .await?
                .energy_available();
            Ok(SponsorShare {
                sponsor: Some(origin),
                percent,
                per_call: info.origin_energy_limit.max(0),
                available,
            })
        }
        _ => Ok(SponsorShare::NONE),
    }
}

/// The pool's current sponsorship.
pub async fn sponsorship(chain: &Chain, denomination: u64) -> Result<Sponsorship> {
    let pool = chain.pool_address(denomination)?;
    let contract = chain.node.get_contract(&pool).await?.ok_or_else(|| {
        Error::Refused(format!(
            "the {denomination} USDT pool {pool} has no contract on {}",
            chain.network
        ))
    })?;
    Ok(Sponsorship {
        denomination,
        pool,
        sponsor: contract.origin_address.unwrap_or(Address::ZERO),
        caller_energy_percent: contract.consume_user_resource_percent,
        origin_energy_limit: contract.origin_energy_limit,
    })
}

/// The transactions that change the pool's sponsorship as asked, from `owner`, which must
/// be the pool's deployer.
pub(crate) async fn sponsor_transactions(
    chain: &Chain,
    owner: Address,
    denomination: u64,
    caller_energy_percent: Option<i64>,
    origin_energy_limit: Option<i64>,
) -> Result<Vec<Transaction>> {
    if caller_energy_percent.is_none() && origin_energy_limit.is_none() {
        return Err(Error::usage(
            "nothing to change: give --caller-energy-percent, --origin-energy-limit or both",
        ));
    }
    if let Some(p) = caller_energy_percent
        && !(0..=100).contains(&p)
    {
        return Err(Error::usage(format!(
            "--caller-energy-percent {p} is not a percent from 0 to 100"
        )));
    }
    if let Some(limit) = origin_energy_limit
        && limit <= 0
    {
        return Err(Error::usage(format!(
            "--origin-energy-limit {limit} must be more than 0"
        )));
    }
    let current = sponsorship(chain, denomination).await?;
    if current.sponsor != owner {
        return Err(Error::Refused(format!(
            "{owner} did not deploy the {denomination} USDT pool {}: only its deployer {} \
             can change who pays its callers' energy",
            current.pool, current.sponsor
        )));
    }
    let reference = chain.head().await?.block.ref_block();
    let settings = [
        caller_energy_percent.map(|percent| ContractSetting::CallerEnergyPercent {
            owner,
            contract: current.pool,
            percent,
        }),
        origin_energy_limit.map(|limit| ContractSetting::OriginEnergyLimit {
            owner,
            contract: current.pool,
            limit,
        }),
    ];
    Ok(settings
        .into_iter()
        .flatten()
        .map(|setting| {
            TransactionBuilder::new(Action::Setting(setting), reference)
                .expiration(reference.timestamp + EXPIRATION_MS)
                .build()
        })
        .collect())
}
