//! What an address holds: USDT to deposit, TRX to pay for energy, and what it has allowed a
//! pool to take.

use alloy_primitives::U256;
use serde::Serialize;
use tron::Address;
use tron::abi::Trc20;

use crate::error::Result;
use crate::service::chain::Chain;
use crate::service::format::six_decimals;
use crate::service::stake::AccountResources;

/// `GET /api/balance/:address`.
#[derive(Debug, Clone, Serialize, utoipa::ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct Balance {
    #[schema(schema_with = crate::service::wire::schema::address)]
    pub address: Address,
    /// USDT.
    pub balance: f64,
    #[schema(schema_with = crate::service::wire::schema::raw)]
    pub balance_raw: String,
    pub trx: f64,
    /// Sun.
    #[schema(schema_with = crate::service::wire::schema::raw)]
    pub trx_raw: String,
    /// Energy and bandwidth: what the account has before it burns TRX.
    pub resources: AccountResources,
}

/// `GET /api/allowance/:address/:denom`.
#[derive(Debug, Clone, Serialize, utoipa::ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct Allowance {
    #[schema(schema_with = crate::service::wire::schema::address)]
    pub address: Address,
    pub denomination: u64,
    #[schema(schema_with = crate::service::wire::schema::address)]
    pub pool: Address,
    pub allowance: f64,
    #[schema(schema_with = crate::service::wire::schema::raw)]
    pub allowance_raw: String,
    /// Enough for one deposit.
    pub sufficient: bool,
}

pub async fn usdt_balance(chain: &Chain, owner: Address) -> Result<U256> {
    chain
        .view(
            chain.deployment.usdt,
            Trc20::balanceOfCall {
                owner: owner.into(),
            },
        )
        .await
}

/// TRX in sun; zero for an account the chain has never seen.
pub async fn trx_balance(chain: &Chain, owner: Address) -> Result<i64> {
    Ok(chain
        .node
        .get_account(&owner)
        .await?
        .map_or(0, |a| a.balance))
}

pub(crate) async fn usdt_allowance(
    chain: &Chain,
    owner: Address,
    spender: Address,
) -> Result<U256> {
    chain
        .view(
            chain.deployment.usdt,
            Trc20::allowanceCall {
                owner: owner.into(),
                spender: spender.into(),
            },
        )
        .await
}

pub async fn balance(chain: &Chain, address: Address) -> Result<Balance> {
    // One `getaccount` serves both the TRX balance and the stake figures.
    let (usdt, resource, account) = tokio::try_join!(
        usdt_balance(chain, address),
        async { Ok(chain.node.get_account_resource(&address).await?) },
        async { Ok(chain.node.get_account(&address).await?.unwrap_or_default()) },
    )?;
    let trx = account.balance;
    let resources = AccountResources::of(&resource, &account);
    Ok(Balance {
        address,
        balance: six_decimals(usdt),
        balance_raw: usdt.to_string(),
        trx: six_decimals(U256::from(trx.max(0))),
        trx_raw: trx.to_string(),
        resources,
    })
}

pub async fn allowance(chain: &Chain, address: Address, denomination: u64) -> Result<Allowance> {
    let pool = chain.pool_address(denomination)?;
    let allowance = usdt_allowance(chain, address, pool).await?;
    Ok(Allowance {
        address,
        denomination,
        pool,
        allowance: six_decimals(allowance),
        allowance_raw: allowance.to_string(),
        sufficient: allowance >= chain.denomination(denomination)?.deposit_units(),
    })
}
