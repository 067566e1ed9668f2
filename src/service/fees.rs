//! A relayer's fees. A relayed withdrawal does not pay the relayer: the pool credits the fee
//! to it (`TronPool.relayerFees`), which saves the relay a USDT transfer (64,000 energy or
//! more at mainnet USDT's ×4.4). The relayer collects a pool's credit in one transfer
//! (`collectFees`), whenever it likes; collecting costs about what a relay saved (78,007
//! energy under the devnet's mainnet model), so it pays to let fees build up. `serve`
//! collects a pool's fees once they reach `--relayer-collect-above`; `tronpool relay collect`
//! does it by hand.

use alloy_primitives::U256;
use contracts::TronPool;
use serde::Serialize;
use tron::{Address, PrivateKey, TxId};

use crate::error::{Error, Result};
use crate::service::builders;
use crate::service::builders::Built;
use crate::service::chain::Chain;
use crate::service::format::{six_decimals, six_decimals_text};
use crate::service::pools;
use crate::service::submit;

/// Fees a relayer can collect from one pool.
#[derive(Debug, Clone, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct Accrued {
    pub denomination: u64,
    pub pool: Address,
    /// In USDT.
    pub collectable: f64,
    /// In base units.
    pub collectable_raw: String,
    #[serde(skip)]
    pub amount: U256,
}

/// One pool's fees, collected.
#[derive(Debug, Clone, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct Collected {
    pub denomination: u64,
    pub amount: f64,
    pub amount_raw: String,
    pub txid: TxId,
}

/// What `relayer` can collect from each pool (pools it has no fees in included, at zero).
pub(crate) async fn accrued_fees(chain: &Chain, relayer: Address) -> Result<Vec<Accrued>> {
    let reads = chain
        .denominations()
        .into_iter()
        .map(|denomination| async move {
            let pool = chain.pool_address(denomination)?;
            let amount = chain
                .view(
                    pool,
                    TronPool::collectableFeesCall {
                        relayer: relayer.into(),
                    },
                )
                .await?;
            Ok::<_, Error>(Accrued {
                denomination,
                pool,
                collectable: six_decimals(amount),
                collectable_raw: amount.to_string(),
                amount,
            })
        });
    futures_util::future::try_join_all(reads).await
}

/// The `collectFees` transaction for `relayer`'s fees in the `denomination` pool, checked
/// by simulation.
pub(crate) async fn collect_transaction(
    chain: &Chain,
    relayer: Address,
    denomination: u64,
) -> Result<Built> {
    let pool = chain.pool_address(denomination)?;
    let data = alloy_sol_types::SolCall::abi_encode(&TronPool::collectFeesCall {});
    builders::build_call(
        chain,
        relayer,
        pool,
        0,
        data,
        &format!("collecting the fees of the {denomination} USDT pool"),
    )
    .await
}

/// The pools where `relayer`'s fees reach `threshold` base units (and at least one), all of
/// them or only `only`.
pub async fn due(
    chain: &Chain,
    relayer: Address,
    threshold: U256,
    only: Option<u64>,
) -> Result<Vec<Accrued>> {
    if let Some(denomination) = only {
        chain.pool_address(denomination)?;
    }
    Ok(accrued_fees(chain, relayer)
        .await?
        .into_iter()
        .filter(|a| only.is_none_or(|d| d == a.denomination))
        .filter(|a| a.amount >= threshold.max(U256::from(1u8)))
        .collect())
}

/// Collects `key`'s fees from the pools of `due` (what [`due`] found); each collection is
/// sent and followed to its receipt before the next.
pub async fn collect(chain: &Chain, key: &PrivateKey, due: Vec<Accrued>) -> Result<Vec<Collected>> {
    let relayer = key.address();
    let mut collected = Vec::new();
    for accrued in due {
        let denomination = accrued.denomination;
        let mut tx = collect_transaction(chain, relayer, denomination)
            .await?
            .transaction;
        tx.sign(key)?;
        let what = format!("collecting the fees of the {denomination} USDT pool");
        let info = submit::send_and_confirm(chain, &tx, &what).await?;
        pools::pool_changed(chain, denomination);
        tracing::info!(
            denomination,
            amount = %six_decimals_text(accrued.amount),
            txid = %info.id,
            "collected relayer fees"
        );
        collected.push(Collected {
            denomination,
            amount: accrued.collectable,
            amount_raw: accrued.collectable_raw,
            txid: info.id,
        });
    }
    Ok(collected)
}
