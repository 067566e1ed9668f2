//! Where the contracts are deployed on a network: one type for the record `tronpool deploy`
//! writes, the devnet's genesis deployment and what the client reads, so they cannot drift.

use serde::{Deserialize, Serialize};
use tron::Address;

/// Where a deployment of the contracts is: the record `tronpool deploy` writes for a network,
/// and what the devnet reports of its genesis deployment (`/devnet/info`).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct Deployment {
    pub network: String,
    pub chain_id: u64,
    pub usdt: Address,
    pub hasher: Address,
    pub verifier: Address,
    pub pools: Vec<PoolDeployment>,
    /// The block the contracts were deployed in.
    pub block: u64,
    /// SHA-256 of the verifying key the verifier was deployed with (the insecure dev key).
    pub verifying_key_sha256: String,
    pub deployer: Address,
    /// The TRX/USDT price pair (a `DevSunswapPair`: SunSwap V2's `token0`/`token1`/
    /// `getReserves`, token0 the devnet's WTRX stand-in, token1 the USDT). `None` in a state file
    /// written before the devnet had one, and in deployments on real networks.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub price_pair: Option<Address>,
    /// Wrapped TRX: the token a price pair must hold beside the USDT (on the devnet, its
    /// stand-in; on a real network, the configuration's).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub wtrx: Option<Address>,
    /// What queued pools insert their deposits with (`docs/batches.md`). `None` in a state
    /// file or record written before there were any.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub batches: Option<BatchDeployment>,
}

/// The contracts behind batch insertion, shared by every queued pool of a deployment.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct BatchDeployment {
    /// `PoseidonT5`: the four-input hasher that binds a batch's public input.
    pub hasher4: Address,
    /// A `Groth16Verifier` deployed with the batch circuit's verifying key.
    pub verifier: Address,
    /// SHA-256 of that verifying key.
    pub verifying_key_sha256: String,
    /// The `BatchInserter`: the unsponsored door every batch goes through.
    pub inserter: Address,
}

/// One pool.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct PoolDeployment {
    /// In whole USDT.
    pub denomination: u64,
    pub address: Address,
    /// What a deposit escrows for its insertion, in USDT base units, besides the
    /// denomination: a queued pool's `insertionFee` (0 for a pool that inserts at once).
    #[serde(default, rename = "insertionFee", skip_serializing_if = "is_zero")]
    pub insertion_fee: u64,
}

fn is_zero(value: &u64) -> bool {
    *value == 0
}

impl Deployment {
    /// Whether the pools queue their deposits for batch insertion (`QueuedPool`), which a
    /// deployment with batch insertion's contracts has; otherwise each deposit is inserted
    /// at once (`TronPool`).
    pub fn queued(&self) -> bool {
        self.batches.is_some()
    }

    pub fn pool(&self, denomination: u64) -> Option<&PoolDeployment> {
        self.pools.iter().find(|p| p.denomination == denomination)
    }
}
