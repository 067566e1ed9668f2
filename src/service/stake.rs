//! Staking TRX for energy (TRON's Stake 2.0): stake, release, withdraw what was released, lend
//! to another account and take it back. Energy from stake is spent before any TRX is burned,
//! so a relayer or a pool's sponsor that stakes pays for energy once, not per transaction.
//!
//! Each operation is checked here first against what the account holds, so that a bad amount
//! is a clear error and nothing is sent; the node checks again (java-tron's actuators) and its
//! refusal is passed on as it words it.

use serde::Serialize;
use tron::{Action, Address, Resource, Stake, Transaction, TransactionBuilder};

use crate::error::{Error, Result};
use crate::service::chain::Chain;

/// Sun per TRX.
const TRX: i64 = 1_000_000;
/// How long a built stake transaction stays valid, in ms.
const EXPIRATION_MS: i64 = 60_000;

/// One Stake 2.0 operation on energy, as a user asks it. Amounts in sun.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum StakeRequest {
    /// Stake TRX for energy.
    Stake { amount: i64 },
    /// Start releasing staked TRX (it comes back after the network's unfreeze delay).
    Release { amount: i64 },
    /// Take back released TRX whose delay has passed.
    Withdraw,
    /// Lend the energy of staked TRX to another account.
    Delegate { amount: i64, to: Address },
    /// Take back energy lent to an account.
    Undelegate { amount: i64, from: Address },
}

impl StakeRequest {
    /// The word for it in messages and output.
    pub(crate) fn verb(&self) -> &'static str {
        match self {
            StakeRequest::Stake { .. } => "stake",
            StakeRequest::Release { .. } => "release",
            StakeRequest::Withdraw => "withdraw",
            StakeRequest::Delegate { .. } => "delegate",
            StakeRequest::Undelegate { .. } => "undelegate",
        }
    }

    /// The amount, in sun (0 for a withdrawal, which takes whatever is due).
    pub fn amount(&self) -> i64 {
        match self {
            StakeRequest::Stake { amount }
            | StakeRequest::Release { amount }
            | StakeRequest::Delegate { amount, .. }
            | StakeRequest::Undelegate { amount, .. } => *amount,
            StakeRequest::Withdraw => 0,
        }
    }

    /// The other account, for a loan.
    pub fn counterparty(&self) -> Option<Address> {
        match self {
            StakeRequest::Delegate { to, .. } => Some(*to),
            StakeRequest::Undelegate { from, .. } => Some(*from),
            _ => None,
        }
    }

    fn action(&self, owner: Address) -> Stake {
        let resource = Resource::Energy;
        match *self {
            StakeRequest::Stake { amount } => Stake::Freeze {
                owner,
                resource,
                amount,
            },
            StakeRequest::Release { amount } => Stake::Unfreeze {
                owner,
                resource,
                amount,
            },
            StakeRequest::Withdraw => Stake::WithdrawExpired { owner },
            StakeRequest::Delegate { amount, to } => Stake::Delegate {
                owner,
                receiver: to,
                resource,
                amount,
                lock: false,
                lock_period: 0,
            },
            StakeRequest::Undelegate { amount, from } => Stake::Undelegate {
                owner,
                receiver: from,
                resource,
                amount,
            },
        }
    }
}

/// An account's energy and bandwidth (part of `GET /api/balance/:address`).
#[derive(Debug, Clone, Serialize, utoipa::ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct AccountResources {
    /// Energy from stake (own and lent to it) not used yet today.
    pub energy_available: i64,
    /// Energy its stake gives a day.
    pub energy_limit: i64,
    /// Bandwidth (free and staked) not used yet today, in bytes.
    pub bandwidth_available: i64,
    pub bandwidth_limit: i64,
    /// TRX staked for energy and not lent, in sun.
    #[schema(schema_with = crate::service::wire::schema::raw)]
    pub staked_for_energy_raw: String,
    /// TRX of its energy stake lent to others, in sun.
    #[schema(schema_with = crate::service::wire::schema::raw)]
    pub lent_raw: String,
    /// TRX others lent it for energy, in sun.
    #[schema(schema_with = crate::service::wire::schema::raw)]
    pub borrowed_raw: String,
}

impl AccountResources {
    /// From the node's two answers about one account (`getaccountresource`, `getaccount`).
    pub fn of(resource: &tron::client::AccountResource, account: &tron::client::Account) -> Self {
        AccountResources {
            energy_available: resource.energy_available(),
            energy_limit: resource.energy_limit,
            bandwidth_available: resource.bandwidth_available(),
            bandwidth_limit: resource.free_net_limit + resource.net_limit,
            staked_for_energy_raw: account.staked_for_energy().to_string(),
            lent_raw: account.account_resource.delegated_energy.to_string(),
            borrowed_raw: account.account_resource.acquired_energy.to_string(),
        }
    }
}

/// What `address` has of its own before it burns TRX.
pub async fn resources(chain: &Chain, address: Address) -> Result<AccountResources> {
    let (resource, account) = tokio::try_join!(
        async { Ok::<_, Error>(chain.node.get_account_resource(&address).await?) },
        async { Ok::<_, Error>(chain.node.get_account(&address).await?) },
    )?;
    Ok(AccountResources::of(
        &resource,
        &account.unwrap_or_default(),
    ))
}

/// Checks `request` for `owner` against what it holds and builds the transaction.
pub(crate) async fn stake_transaction(
    chain: &Chain,
    owner: Address,
    request: StakeRequest,
) -> Result<Transaction> {
    let amount = request.amount();
    let trx = crate::units::trx_text;
    if !matches!(request, StakeRequest::Withdraw) && amount <= 0 {
        return Err(Error::usage(format!(
            "the amount to {} must be more than 0 TRX",
            request.verb()
        )));
    }
    if matches!(
        request,
        StakeRequest::Stake { .. } | StakeRequest::Delegate { .. }
    ) && amount < TRX
    {
        return Err(Error::usage(format!(
            "TRON lets you {} at least 1 TRX at a time",
            request.verb()
        )));
    }
    if request.counterparty() == Some(owner) {
        return Err(Error::usage(format!(
            "{owner} cannot lend energy to itself or take it back from itself"
        )));
    }
    let account = chain.node.get_account(&owner).await?.ok_or_else(|| {
        Error::Refused(format!("{owner} does not exist on {} yet", chain.network))
    })?;
    let staked = account.staked_for_energy();
    match request {
        StakeRequest::Stake { amount } if amount > account.balance => {
            return Err(Error::Refused(format!(
                "{owner} holds {} TRX, less than the {} TRX to stake",
                trx(account.balance),
                trx(amount)
            )));
        }
        StakeRequest::Release { amount } | StakeRequest::Delegate { amount, .. }
            if amount > staked =>
        {
            return Err(Error::Refused(format!(
                "{owner} has {} TRX staked for energy (not lent), less than the {} TRX to {}",
                trx(staked),
                trx(amount),
                request.verb()
            )));
        }
        StakeRequest::Undelegate { amount, .. }
            if amount > account.account_resource.delegated_energy =>
        {
            return Err(Error::Refused(format!(
                "{owner} has lent {} TRX of energy in all, less than the {} TRX to take back",
                trx(account.account_resource.delegated_energy),
                trx(amount)
            )));
        }
        _ => {}
    }
    let reference = chain.head().await?.block.ref_block();
    Ok(
        TransactionBuilder::new(Action::Stake(request.action(owner)), reference)
            .expiration(reference.timestamp + EXPIRATION_MS)
            .build(),
    )
}
