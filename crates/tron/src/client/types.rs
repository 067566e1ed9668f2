//! What a FullNode and TronGrid answer, as typed values.
//!
//! java-tron leaves out every field at its proto3 default, so almost everything here defaults
//! (a zero balance is an absent `balance`). Addresses are accepted in either `visible` form.

use std::collections::BTreeMap;

use serde::{Deserialize, Deserializer};
use serde_json::Value;

use crate::address::Address;
use crate::hexutil::decode_node_text;
use crate::transaction::{RefBlock, Transaction, TxId};

/// A block as `getnowblock`, `getblock` and `getblockbynum` print it.
#[derive(Debug, Clone, Deserialize)]
pub struct Block {
    #[serde(rename = "blockID", deserialize_with = "hex32")]
    pub block_id: [u8; 32],
    pub block_header: BlockHeader,
    /// The block's transactions in java-tron's JSON (absent when empty or not asked for).
    #[serde(default)]
    pub transactions: Vec<Value>,
}

#[derive(Debug, Clone, Deserialize)]
pub struct BlockHeader {
    pub raw_data: BlockHeaderRaw,
    #[serde(default)]
    pub witness_signature: Option<String>,
}

#[derive(Debug, Clone, Default, Deserialize)]
pub struct BlockHeaderRaw {
    #[serde(default)]
    pub number: i64,
    #[serde(default)]
    pub timestamp: i64,
    #[serde(default, rename = "txTrieRoot")]
    pub tx_trie_root: Option<String>,
    #[serde(default, rename = "parentHash")]
    pub parent_hash: Option<String>,
    #[serde(default)]
    pub witness_address: Option<Address>,
    #[serde(default)]
    pub version: i32,
}

impl Block {
    pub fn number(&self) -> i64 {
        self.block_header.raw_data.number
    }

    /// Block time in ms.
    pub fn timestamp(&self) -> i64 {
        self.block_header.raw_data.timestamp
    }

    /// The reference a transaction built on this block carries.
    pub fn ref_block(&self) -> RefBlock {
        RefBlock {
            number: self.number(),
            id: self.block_id,
            timestamp: self.timestamp(),
        }
    }
}

/// `getaccount`: an account that exists on chain (the node answers `{}` for one that does not).
#[derive(Debug, Clone, Default, Deserialize)]
pub struct Account {
    #[serde(default)]
    pub address: Option<Address>,
    /// TRX balance in sun.
    #[serde(default)]
    pub balance: i64,
    #[serde(default)]
    pub create_time: i64,
    /// Stake 2.0: TRX staked per resource (java-tron always lists BANDWIDTH, ENERGY and
    /// TRON_POWER, leaving out zero amounts and BANDWIDTH's type).
    #[serde(default, rename = "frozenV2")]
    pub frozen_v2: Vec<FrozenV2>,
    #[serde(default)]
    pub account_resource: AccountResourceFields,
}

/// One `frozenV2` entry of an account.
#[derive(Debug, Clone, Default, Deserialize)]
#[serde(default)]
pub struct FrozenV2 {
    /// `ENERGY`, `TRON_POWER`; absent for BANDWIDTH.
    #[serde(rename = "type")]
    pub kind: Option<String>,
    /// Sun.
    pub amount: i64,
}

/// The energy part of an account's `account_resource`.
#[derive(Debug, Clone, Default, Deserialize)]
#[serde(default)]
pub struct AccountResourceFields {
    /// Sun of its energy stake lent to others.
    #[serde(rename = "delegated_frozenV2_balance_for_energy")]
    pub delegated_energy: i64,
    /// Sun others lent it for energy.
    #[serde(rename = "acquired_delegated_frozenV2_balance_for_energy")]
    pub acquired_energy: i64,
}

impl Account {
    /// Sun staked for energy and not lent.
    pub fn staked_for_energy(&self) -> i64 {
        self.frozen_v2
            .iter()
            .filter(|f| f.kind.as_deref() == Some("ENERGY"))
            .map(|f| f.amount)
            .sum()
    }
}

/// `getaccountresource`: bandwidth and energy. Absent fields are zero.
#[derive(Debug, Clone, Default, Deserialize)]
#[serde(default)]
pub struct AccountResource {
    #[serde(rename = "freeNetUsed")]
    pub free_net_used: i64,
    #[serde(rename = "freeNetLimit")]
    pub free_net_limit: i64,
    #[serde(rename = "NetUsed")]
    pub net_used: i64,
    #[serde(rename = "NetLimit")]
    pub net_limit: i64,
    #[serde(rename = "EnergyUsed")]
    pub energy_used: i64,
    #[serde(rename = "EnergyLimit")]
    pub energy_limit: i64,
    #[serde(rename = "TotalEnergyLimit")]
    pub total_energy_limit: i64,
    #[serde(rename = "TotalEnergyWeight")]
    pub total_energy_weight: i64,
}

impl AccountResource {
    /// Staked energy left to spend before TRX is burned.
    pub fn energy_available(&self) -> i64 {
        (self.energy_limit - self.energy_used).max(0)
    }

    /// Bandwidth left (free allowance plus staked) before TRX is burned.
    pub fn bandwidth_available(&self) -> i64 {
        (self.free_net_limit - self.free_net_used).max(0) + (self.net_limit - self.net_used).max(0)
    }
}

/// `getchainparameters`, as a map from key (`getEnergyFee`) to value.
#[derive(Debug, Clone, Default)]
pub struct ChainParameters(pub BTreeMap<String, i64>);

impl ChainParameters {
    pub fn get(&self, key: &str) -> Option<i64> {
        self.0.get(key).copied()
    }

    /// Sun burned per unit of energy (100 on mainnet at the time of writing).
    pub fn energy_fee(&self) -> Option<i64> {
        self.get("getEnergyFee")
    }

    /// The largest `fee_limit` the chain accepts, in sun.
    pub fn max_fee_limit(&self) -> Option<i64> {
        self.get("getMaxFeeLimit")
    }

    /// Sun burned per byte of bandwidth.
    pub fn transaction_fee(&self) -> Option<i64> {
        self.get("getTransactionFee")
    }
}

impl<'de> Deserialize<'de> for ChainParameters {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        #[derive(Deserialize)]
        struct Entry {
            key: String,
            #[serde(default)]
            value: i64,
        }
        #[derive(Deserialize)]
        struct Wire {
            #[serde(default, rename = "chainParameter")]
            chain_parameter: Vec<Entry>,
        }
        let wire = Wire::deserialize(d)?;
        Ok(ChainParameters(
            wire.chain_parameter
                .into_iter()
                .map(|e| (e.key, e.value))
                .collect(),
        ))
    }
}

/// `Return`, the status object of builder, constant-call and broadcast answers.
#[derive(Debug, Clone, Default, Deserialize)]
pub struct NodeReturn {
    #[serde(default)]
    pub result: bool,
    #[serde(default)]
    pub code: Option<String>,
    #[serde(default, deserialize_with = "node_text")]
    pub message: Option<String>,
}

/// The outcome of `triggerconstantcontract`: a call run against the head block and discarded.
#[derive(Debug, Clone)]
pub struct ConstantCall {
    /// Return data, or revert data when `reverted`.
    pub output: Vec<u8>,
    pub energy_used: i64,
    pub energy_penalty: i64,
    /// The call reverted or failed at run time; `message` says how.
    pub reverted: bool,
    pub message: Option<String>,
    pub logs: Vec<Log>,
    /// The CPU time a tronpool devnet modeled for the call (its `devnet_cpu_time_us`, µs, as a
    /// java-tron producer would take it); TRON's nodes do not report one.
    pub devnet_cpu_time_us: Option<i64>,
}

impl ConstantCall {
    /// The reason a reverted call gave, decoded from `Error(string)`/`Panic(uint256)`, or the
    /// node's message when the revert carried none.
    pub fn revert_reason(&self) -> Option<String> {
        if !self.reverted {
            return None;
        }
        crate::abi::revert_reason(&self.output).or_else(|| self.message.clone())
    }
}

/// A log entry of a transaction receipt.
#[derive(Debug, Clone, Deserialize)]
pub struct Log {
    #[serde(deserialize_with = "log_address")]
    pub address: Address,
    #[serde(default, deserialize_with = "hex32_list")]
    pub topics: Vec<[u8; 32]>,
    #[serde(default, deserialize_with = "hex_bytes")]
    pub data: Vec<u8>,
}

/// `ResourceReceipt`.
#[derive(Debug, Clone, Default, Deserialize)]
#[serde(default)]
pub struct Receipt {
    pub energy_usage: i64,
    pub energy_fee: i64,
    pub origin_energy_usage: i64,
    pub energy_usage_total: i64,
    pub net_usage: i64,
    pub net_fee: i64,
    /// `SUCCESS`, `REVERT`, `OUT_OF_ENERGY`, … (absent for a plain transfer).
    pub result: Option<String>,
    pub energy_penalty_total: i64,
}

/// `gettransactioninfobyid`: what happened when the transaction was executed in a block.
#[derive(Debug, Clone, Deserialize)]
pub struct TransactionInfo {
    pub id: TxId,
    /// Total sun burned.
    #[serde(default)]
    pub fee: i64,
    #[serde(default, rename = "blockNumber")]
    pub block_number: i64,
    #[serde(default, rename = "blockTimeStamp")]
    pub block_timestamp: i64,
    #[serde(default, rename = "contractResult", deserialize_with = "hex_list")]
    pub contract_result: Vec<Vec<u8>>,
    #[serde(default)]
    pub contract_address: Option<Address>,
    #[serde(default)]
    pub receipt: Receipt,
    #[serde(default)]
    pub log: Vec<Log>,
    /// `FAILED` when the transaction failed; absent on success.
    #[serde(default)]
    pub result: Option<String>,
    #[serde(default, rename = "resMessage", deserialize_with = "node_text")]
    pub res_message: Option<String>,
    /// Released TRX a Stake 2.0 transaction returned to the balance, in sun.
    #[serde(default)]
    pub withdraw_expire_amount: i64,
}

impl TransactionInfo {
    pub fn succeeded(&self) -> bool {
        self.result.as_deref() != Some("FAILED")
    }

    /// Why it failed: the revert reason when there is one, else the node's message.
    pub fn failure_reason(&self) -> Option<String> {
        if self.succeeded() {
            return None;
        }
        self.contract_result
            .first()
            .and_then(|d| crate::abi::revert_reason(d))
            .or_else(|| self.res_message.clone())
            .or_else(|| self.receipt.result.clone())
    }
}

/// A transaction as `gettransactionbyid` returns it, with its execution status.
#[derive(Debug, Clone)]
pub struct NodeTransaction {
    pub transaction: Transaction,
    /// `contractRet` of `ret[0]`: `SUCCESS`, `REVERT`, … (absent while unexecuted).
    pub contract_ret: Option<String>,
}

/// `getcontract`: a deployed contract as the node stores it.
#[derive(Debug, Clone, Deserialize)]
pub struct ContractInfo {
    #[serde(default)]
    pub origin_address: Option<Address>,
    #[serde(default)]
    pub contract_address: Option<Address>,
    /// The stored ABI in java-tron's shape (`{"entrys":[…]}`).
    #[serde(default)]
    pub abi: Value,
    #[serde(default, deserialize_with = "hex_bytes")]
    pub bytecode: Vec<u8>,
    #[serde(default)]
    pub name: String,
    #[serde(default)]
    pub origin_energy_limit: i64,
    #[serde(default)]
    pub consume_user_resource_percent: i64,
    #[serde(default)]
    pub code_hash: Option<String>,
}

/// `getcontractinfo`, the part read here.
#[derive(Debug, Clone, Default, Deserialize)]
pub struct ContractRuntime {
    #[serde(default, deserialize_with = "hex_bytes")]
    pub runtimecode: Vec<u8>,
}

/// One event from TronGrid's `/v1/contracts/{address}/events`.
#[derive(Debug, Clone, Deserialize)]
pub struct Event {
    pub block_number: i64,
    pub block_timestamp: i64,
    #[serde(default)]
    pub contract_address: Option<Address>,
    #[serde(default)]
    pub event_index: i64,
    pub event_name: String,
    /// Arguments by position and by name: addresses as `0x` + 20-byte hex, numbers as decimal
    /// strings.
    #[serde(default)]
    pub result: BTreeMap<String, Value>,
    #[serde(default)]
    pub result_type: BTreeMap<String, String>,
    pub transaction_id: TxId,
    /// Not yet solidified: it may still vanish in a fork.
    #[serde(default, rename = "_unconfirmed")]
    pub unconfirmed: bool,
}

/// A page of events and the fingerprint that continues it.
#[derive(Debug, Clone)]
pub struct EventPage {
    pub events: Vec<Event>,
    /// `None` on the last page.
    pub fingerprint: Option<String>,
}

/// Which events to ask for.
#[derive(Debug, Clone, Default)]
pub struct EventQuery {
    pub event_name: Option<String>,
    /// Up to 200 per page (TronGrid's cap); default 200.
    pub limit: Option<u32>,
    /// Oldest first when true (what a syncing client wants).
    pub ascending: bool,
    pub min_block_timestamp: Option<i64>,
    pub max_block_timestamp: Option<i64>,
    pub only_confirmed: bool,
}

fn hex_str(s: &str) -> Result<Vec<u8>, String> {
    hex::decode(s.trim_start_matches("0x")).map_err(|e| format!("bad hex `{s}`: {e}"))
}

fn hex32<'de, D: Deserializer<'de>>(d: D) -> Result<[u8; 32], D::Error> {
    let s = String::deserialize(d)?;
    hex_str(&s)
        .map_err(serde::de::Error::custom)?
        .try_into()
        .map_err(|_| serde::de::Error::custom("expected 32 bytes of hex"))
}

fn hex_bytes<'de, D: Deserializer<'de>>(d: D) -> Result<Vec<u8>, D::Error> {
    let s = String::deserialize(d)?;
    hex_str(&s).map_err(serde::de::Error::custom)
}

fn hex_list<'de, D: Deserializer<'de>>(d: D) -> Result<Vec<Vec<u8>>, D::Error> {
    let v = Vec::<String>::deserialize(d)?;
    v.iter()
        .map(|s| hex_str(s).map_err(serde::de::Error::custom))
        .collect()
}

fn hex32_list<'de, D: Deserializer<'de>>(d: D) -> Result<Vec<[u8; 32]>, D::Error> {
    hex_list(d)?
        .into_iter()
        .map(|b| {
            b.try_into()
                .map_err(|_| serde::de::Error::custom("a topic is 32 bytes"))
        })
        .collect()
}

fn node_text<'de, D: Deserializer<'de>>(d: D) -> Result<Option<String>, D::Error> {
    Ok(Option::<String>::deserialize(d)?.map(|s| decode_node_text(&s)))
}

/// Log addresses are the bare 20-byte EVM form when `visible` is false, base58 otherwise.
fn log_address<'de, D: Deserializer<'de>>(d: D) -> Result<Address, D::Error> {
    let s = String::deserialize(d)?;
    let digits = s.trim_start_matches("0x");
    if digits.len() == 40 {
        let bytes: [u8; 20] = hex_str(digits)
            .map_err(serde::de::Error::custom)?
            .try_into()
            .map_err(|_| serde::de::Error::custom("expected 20 bytes"))?;
        return Ok(Address::from_evm(bytes));
    }
    s.parse().map_err(serde::de::Error::custom)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn nile_transaction_info_capture() {
        let json = serde_json::json!({ "id": "01b4cde4e3a3b1d0f0d1f6dcbd7cb3a4aa8a1e7c6c5a1b2f3e4d5c6b7a8fe4ca", "fee": 5254500, "blockNumber": 66985120, "blockTimeStamp": 1777437762000_i64,
          "contractResult": [""], "contract_address": "419ff8fc48fb114ccd5bbdc24a86f0c73082f08825",
          "receipt": { "energy_fee": 4458500, "energy_usage_total": 44585, "net_fee": 796000, "result": "SUCCESS" },
          "log": [ { "address": "9ff8fc48fb114ccd5bbdc24a86f0c73082f08825",
                     "topics": ["c666c666c666c666c666c666c666c666c666c666c666c666c666c666c6663083", "000000000000000000000000dd791d6b49e190062d650e6a23c575510d35f2f9"],
                     "data": "0000000000000000000000000000000000000000000000000000000000000007" } ] });
        let info: TransactionInfo = serde_json::from_value(json).unwrap();
        assert!(info.succeeded());
        assert_eq!(info.receipt.energy_usage_total, 44585);
        assert_eq!(
            info.log[0].address.to_hex(),
            "419ff8fc48fb114ccd5bbdc24a86f0c73082f08825"
        );
        assert_eq!(info.contract_result, vec![Vec::<u8>::new()]);
    }

    #[test]
    fn failed_info_decodes_hex_message() {
        let json = serde_json::json!({"id": "00".repeat(32), "result": "FAILED",
            "resMessage": "524556455254206f70636f6465206578656375746564",
            "receipt": {"result": "REVERT"}, "contractResult": [""]});
        let info: TransactionInfo = serde_json::from_value(json).unwrap();
        assert!(!info.succeeded());
        assert_eq!(info.failure_reason().unwrap(), "REVERT opcode executed");
    }

    #[test]
    fn chain_parameters_omit_zero_values() {
        let json = serde_json::json!({"chainParameter": [{"key": "getEnergyFee", "value": 100}, {"key": "getAllowTvmBlob"}]});
        let p: ChainParameters = serde_json::from_value(json).unwrap();
        assert_eq!(p.energy_fee(), Some(100));
        assert_eq!(p.get("getAllowTvmBlob"), Some(0));
        assert_eq!(p.get("nope"), None);
    }
}
