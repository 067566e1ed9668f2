//! What executing a transaction produced: java-tron's `TransactionInfo` and `ResourceReceipt`.

use serde::{Deserialize, Serialize};
use tron::{Address, TxId};

use crate::serde_hex;

/// `Transaction.Result.contractResult`: how the contract run ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum ContractRet {
    Success,
    Revert,
    BadJumpDestination,
    OutOfMemory,
    PrecompiledContract,
    StackTooSmall,
    StackTooLarge,
    IllegalOperation,
    StackOverflow,
    OutOfEnergy,
    OutOfTime,
    Unknown,
    TransferFailed,
    InvalidCode,
}

impl ContractRet {
    /// The enum name java-tron prints.
    pub fn name(self) -> &'static str {
        match self {
            ContractRet::Success => "SUCCESS",
            ContractRet::Revert => "REVERT",
            ContractRet::BadJumpDestination => "BAD_JUMP_DESTINATION",
            ContractRet::OutOfMemory => "OUT_OF_MEMORY",
            ContractRet::PrecompiledContract => "PRECOMPILED_CONTRACT",
            ContractRet::StackTooSmall => "STACK_TOO_SMALL",
            ContractRet::StackTooLarge => "STACK_TOO_LARGE",
            ContractRet::IllegalOperation => "ILLEGAL_OPERATION",
            ContractRet::StackOverflow => "STACK_OVERFLOW",
            ContractRet::OutOfEnergy => "OUT_OF_ENERGY",
            ContractRet::OutOfTime => "OUT_OF_TIME",
            ContractRet::Unknown => "UNKNOWN",
            ContractRet::TransferFailed => "TRANSFER_FAILED",
            ContractRet::InvalidCode => "INVALID_CODE",
        }
    }
}

/// `TransactionInfo.Log`: the emitting contract in its 20-byte EVM form.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct LogEntry {
    #[serde(with = "serde_hex::array")]
    pub address: [u8; 20],
    #[serde(with = "serde_hex::arrays")]
    pub topics: Vec<[u8; 32]>,
    #[serde(with = "serde_hex::bytes")]
    pub data: Vec<u8>,
}

/// `TransactionInfo` with its `ResourceReceipt`.
#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct TxInfo {
    pub id: TxId,
    /// Total sun burned: energy, bandwidth and account creation.
    pub fee: i64,
    pub block_number: u64,
    pub block_timestamp: i64,
    /// Return or revert data; `None` for transactions that run no contract.
    #[serde(with = "opt_bytes", default)]
    pub contract_result: Option<Vec<u8>>,
    pub contract_address: Option<Address>,
    pub energy_usage_total: i64,
    pub energy_fee: i64,
    pub net_usage: i64,
    pub net_fee: i64,
    /// `receipt.result`; `None` for transactions that run no contract.
    pub result: Option<ContractRet>,
    pub logs: Vec<LogEntry>,
    /// Why it failed (`resMessage`); `None` when it succeeded.
    pub failure: Option<String>,
    /// The contract run's modeled java-tron CPU time, µs (not in java-tron's receipt; the
    /// devnet adds it as `devnet_cpu_time_us`).
    #[serde(default)]
    pub cpu_time_us: i64,
    /// The energy dynamic energy added (`receipt.energy_penalty_total`).
    #[serde(default)]
    pub energy_penalty_total: i64,
    /// Energy the caller paid from its stake (`receipt.energy_usage`).
    #[serde(default)]
    pub energy_usage: i64,
    /// Energy the contract's origin paid from its stake (`receipt.origin_energy_usage`).
    #[serde(default)]
    pub origin_energy_usage: i64,
    /// Released TRX returned to the balance (`withdraw_expire_amount`), in sun.
    #[serde(default)]
    pub withdraw_expire_amount: i64,
}

impl TxInfo {
    /// The receipt of a transaction in block `block_number`, before anything is charged.
    pub fn new(id: TxId, block_number: u64, block_timestamp: i64) -> Self {
        TxInfo {
            id,
            fee: 0,
            block_number,
            block_timestamp,
            contract_result: None,
            contract_address: None,
            energy_usage_total: 0,
            energy_fee: 0,
            net_usage: 0,
            net_fee: 0,
            result: None,
            logs: Vec::new(),
            failure: None,
            cpu_time_us: 0,
            energy_penalty_total: 0,
            energy_usage: 0,
            origin_energy_usage: 0,
            withdraw_expire_amount: 0,
        }
    }

    pub fn failed(&self) -> bool {
        self.failure.is_some()
    }
}

mod opt_bytes {
    use serde::{Deserialize, Deserializer, Serialize, Serializer};

    pub fn serialize<S: Serializer>(bytes: &Option<Vec<u8>>, s: S) -> Result<S::Ok, S::Error> {
        bytes.as_ref().map(hex::encode).serialize(s)
    }

    pub fn deserialize<'de, D: Deserializer<'de>>(d: D) -> Result<Option<Vec<u8>>, D::Error> {
        Option::<String>::deserialize(d)?
            .map(|t| hex::decode(t).map_err(serde::de::Error::custom))
            .transpose()
    }
}
