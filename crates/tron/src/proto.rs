//! The protobuf messages of java-tron's `protocol` package that tronpool signs and reads.
//!
//! Written by hand from `core/Tron.proto` and `core/contract/*.proto` rather than generated, so
//! the build needs no `protoc`. Fields are declared in ascending tag order: the encoding must be
//! byte-identical with java-tron, TronWeb and tronpy, or the txID (a hash of these bytes) differs
//! and the node rejects the signature. The test vectors in `transaction.rs` pin that down.

use prost::Message;

/// `google.protobuf.Any`.
#[derive(Clone, PartialEq, Message)]
pub struct Any {
    #[prost(string, tag = "1")]
    pub type_url: String,
    #[prost(bytes = "vec", tag = "2")]
    pub value: Vec<u8>,
}

/// `protocol.Transaction`.
#[derive(Clone, PartialEq, Message)]
pub struct Transaction {
    #[prost(message, optional, tag = "1")]
    pub raw_data: Option<TransactionRaw>,
    #[prost(bytes = "vec", repeated, tag = "2")]
    pub signature: Vec<Vec<u8>>,
    #[prost(message, repeated, tag = "5")]
    pub ret: Vec<TransactionResult>,
}

/// `protocol.Transaction.raw`: the bytes whose SHA-256 is the txID.
#[derive(Clone, PartialEq, Message)]
pub struct TransactionRaw {
    #[prost(bytes = "vec", tag = "1")]
    pub ref_block_bytes: Vec<u8>,
    #[prost(int64, tag = "3")]
    pub ref_block_num: i64,
    #[prost(bytes = "vec", tag = "4")]
    pub ref_block_hash: Vec<u8>,
    #[prost(int64, tag = "8")]
    pub expiration: i64,
    #[prost(message, repeated, tag = "9")]
    pub auths: Vec<Authority>,
    #[prost(bytes = "vec", tag = "10")]
    pub data: Vec<u8>,
    #[prost(message, repeated, tag = "11")]
    pub contract: Vec<Contract>,
    #[prost(bytes = "vec", tag = "12")]
    pub scripts: Vec<u8>,
    #[prost(int64, tag = "14")]
    pub timestamp: i64,
    #[prost(int64, tag = "18")]
    pub fee_limit: i64,
}

/// `protocol.authority` (unused by validation, kept so decoding a foreign transaction and
/// encoding it again gives back the same bytes).
#[derive(Clone, PartialEq, Message)]
pub struct Authority {
    #[prost(message, optional, tag = "1")]
    pub account: Option<AccountId>,
    #[prost(bytes = "vec", tag = "2")]
    pub permission_name: Vec<u8>,
}

/// `protocol.AccountId`.
#[derive(Clone, PartialEq, Message)]
pub struct AccountId {
    #[prost(bytes = "vec", tag = "1")]
    pub name: Vec<u8>,
    #[prost(bytes = "vec", tag = "2")]
    pub address: Vec<u8>,
}

/// `protocol.Transaction.Contract`.
#[derive(Clone, PartialEq, Message)]
pub struct Contract {
    #[prost(int32, tag = "1")]
    pub r#type: i32,
    #[prost(message, optional, tag = "2")]
    pub parameter: Option<Any>,
    #[prost(bytes = "vec", tag = "3")]
    pub provider: Vec<u8>,
    #[prost(bytes = "vec", tag = "4")]
    pub contract_name: Vec<u8>,
    #[prost(int32, tag = "5")]
    pub permission_id: i32,
}

/// `protocol.Transaction.Result`, present on transactions read back from a node.
#[derive(Clone, PartialEq, Message)]
pub struct TransactionResult {
    #[prost(int64, tag = "1")]
    pub fee: i64,
    #[prost(int32, tag = "2")]
    pub ret: i32,
    #[prost(int32, tag = "3")]
    pub contract_ret: i32,
}

/// `protocol.TransferContract`: a plain TRX transfer.
#[derive(Clone, PartialEq, Message)]
pub struct TransferContract {
    #[prost(bytes = "vec", tag = "1")]
    pub owner_address: Vec<u8>,
    #[prost(bytes = "vec", tag = "2")]
    pub to_address: Vec<u8>,
    #[prost(int64, tag = "3")]
    pub amount: i64,
}

/// `protocol.TriggerSmartContract`: a contract call.
#[derive(Clone, PartialEq, Message)]
pub struct TriggerSmartContract {
    #[prost(bytes = "vec", tag = "1")]
    pub owner_address: Vec<u8>,
    #[prost(bytes = "vec", tag = "2")]
    pub contract_address: Vec<u8>,
    #[prost(int64, tag = "3")]
    pub call_value: i64,
    #[prost(bytes = "vec", tag = "4")]
    pub data: Vec<u8>,
    #[prost(int64, tag = "5")]
    pub call_token_value: i64,
    #[prost(int64, tag = "6")]
    pub token_id: i64,
}

/// `protocol.CreateSmartContract`: a deployment.
#[derive(Clone, PartialEq, Message)]
pub struct CreateSmartContract {
    #[prost(bytes = "vec", tag = "1")]
    pub owner_address: Vec<u8>,
    #[prost(message, optional, tag = "2")]
    pub new_contract: Option<SmartContract>,
    #[prost(int64, tag = "3")]
    pub call_token_value: i64,
    #[prost(int64, tag = "4")]
    pub token_id: i64,
}

/// `protocol.SmartContract`.
#[derive(Clone, PartialEq, Message)]
pub struct SmartContract {
    #[prost(bytes = "vec", tag = "1")]
    pub origin_address: Vec<u8>,
    #[prost(bytes = "vec", tag = "2")]
    pub contract_address: Vec<u8>,
    #[prost(message, optional, tag = "3")]
    pub abi: Option<Abi>,
    #[prost(bytes = "vec", tag = "4")]
    pub bytecode: Vec<u8>,
    #[prost(int64, tag = "5")]
    pub call_value: i64,
    #[prost(int64, tag = "6")]
    pub consume_user_resource_percent: i64,
    #[prost(string, tag = "7")]
    pub name: String,
    #[prost(int64, tag = "8")]
    pub origin_energy_limit: i64,
    #[prost(bytes = "vec", tag = "9")]
    pub code_hash: Vec<u8>,
    #[prost(bytes = "vec", tag = "10")]
    pub trx_hash: Vec<u8>,
    #[prost(int32, tag = "11")]
    pub version: i32,
}

/// `protocol.SmartContract.ABI`.
#[derive(Clone, PartialEq, Message)]
pub struct Abi {
    #[prost(message, repeated, tag = "1")]
    pub entrys: Vec<AbiEntry>,
}

/// `protocol.SmartContract.ABI.Entry`.
#[derive(Clone, PartialEq, Message)]
pub struct AbiEntry {
    #[prost(bool, tag = "1")]
    pub anonymous: bool,
    #[prost(bool, tag = "2")]
    pub constant: bool,
    #[prost(string, tag = "3")]
    pub name: String,
    #[prost(message, repeated, tag = "4")]
    pub inputs: Vec<AbiParam>,
    #[prost(message, repeated, tag = "5")]
    pub outputs: Vec<AbiParam>,
    #[prost(int32, tag = "6")]
    pub r#type: i32,
    #[prost(bool, tag = "7")]
    pub payable: bool,
    #[prost(int32, tag = "8")]
    pub state_mutability: i32,
}

/// `protocol.SmartContract.ABI.Entry.Param`.
#[derive(Clone, PartialEq, Message)]
pub struct AbiParam {
    #[prost(bool, tag = "1")]
    pub indexed: bool,
    #[prost(string, tag = "2")]
    pub name: String,
    #[prost(string, tag = "3")]
    pub r#type: String,
}

/// `protocol.FreezeBalanceV2Contract` (Stake 2.0): stake TRX for a resource
/// (`core/contract/balance_contract.proto`).
#[derive(Clone, PartialEq, Message)]
pub struct FreezeBalanceV2Contract {
    #[prost(bytes = "vec", tag = "1")]
    pub owner_address: Vec<u8>,
    #[prost(int64, tag = "2")]
    pub frozen_balance: i64,
    /// `ResourceCode`: 0 BANDWIDTH, 1 ENERGY, 2 TRON_POWER.
    #[prost(int32, tag = "3")]
    pub resource: i32,
}

/// `protocol.UnfreezeBalanceV2Contract`: start releasing staked TRX (it returns after the
/// network's unfreeze delay).
#[derive(Clone, PartialEq, Message)]
pub struct UnfreezeBalanceV2Contract {
    #[prost(bytes = "vec", tag = "1")]
    pub owner_address: Vec<u8>,
    #[prost(int64, tag = "2")]
    pub unfreeze_balance: i64,
    #[prost(int32, tag = "3")]
    pub resource: i32,
}

/// `protocol.WithdrawExpireUnfreezeContract`: take back released TRX whose delay has passed.
#[derive(Clone, PartialEq, Message)]
pub struct WithdrawExpireUnfreezeContract {
    #[prost(bytes = "vec", tag = "1")]
    pub owner_address: Vec<u8>,
}

/// `protocol.DelegateResourceContract`: lend the resource of staked TRX to another account.
#[derive(Clone, PartialEq, Message)]
pub struct DelegateResourceContract {
    #[prost(bytes = "vec", tag = "1")]
    pub owner_address: Vec<u8>,
    #[prost(int32, tag = "2")]
    pub resource: i32,
    #[prost(int64, tag = "3")]
    pub balance: i64,
    #[prost(bytes = "vec", tag = "4")]
    pub receiver_address: Vec<u8>,
    #[prost(bool, tag = "5")]
    pub lock: bool,
    #[prost(int64, tag = "6")]
    pub lock_period: i64,
}

/// `protocol.UnDelegateResourceContract`: take a loan back.
#[derive(Clone, PartialEq, Message)]
pub struct UnDelegateResourceContract {
    #[prost(bytes = "vec", tag = "1")]
    pub owner_address: Vec<u8>,
    #[prost(int32, tag = "2")]
    pub resource: i32,
    #[prost(int64, tag = "3")]
    pub balance: i64,
    #[prost(bytes = "vec", tag = "4")]
    pub receiver_address: Vec<u8>,
}

/// `protocol.UpdateSettingContract`: a contract's origin sets the share of each call's energy
/// its callers pay (`core/contract/smart_contract.proto`).
#[derive(Clone, PartialEq, Message)]
pub struct UpdateSettingContract {
    #[prost(bytes = "vec", tag = "1")]
    pub owner_address: Vec<u8>,
    #[prost(bytes = "vec", tag = "2")]
    pub contract_address: Vec<u8>,
    #[prost(int64, tag = "3")]
    pub consume_user_resource_percent: i64,
}

/// `protocol.UpdateEnergyLimitContract`: the most energy the origin pays for one call.
#[derive(Clone, PartialEq, Message)]
pub struct UpdateEnergyLimitContract {
    #[prost(bytes = "vec", tag = "1")]
    pub owner_address: Vec<u8>,
    #[prost(bytes = "vec", tag = "2")]
    pub contract_address: Vec<u8>,
    #[prost(int64, tag = "3")]
    pub origin_energy_limit: i64,
}

/// `Transaction.Contract.ContractType` values tronpool builds or reads.
pub mod contract_type {
    pub const TRANSFER: i32 = 1;
    pub const CREATE_SMART_CONTRACT: i32 = 30;
    pub const TRIGGER_SMART_CONTRACT: i32 = 31;
    pub const UPDATE_SETTING: i32 = 33;
    pub const UPDATE_ENERGY_LIMIT: i32 = 45;
    pub const FREEZE_BALANCE_V2: i32 = 54;
    pub const UNFREEZE_BALANCE_V2: i32 = 55;
    pub const WITHDRAW_EXPIRE_UNFREEZE: i32 = 56;
    pub const DELEGATE_RESOURCE: i32 = 57;
    pub const UNDELEGATE_RESOURCE: i32 = 58;
}

/// The `type_url` java-tron's `Any.pack` writes for each contract type.
pub mod type_url {
    pub const TRANSFER: &str = "type.googleapis.com/protocol.TransferContract";
    pub const CREATE_SMART_CONTRACT: &str = "type.googleapis.com/protocol.CreateSmartContract";
    pub const TRIGGER_SMART_CONTRACT: &str = "type.googleapis.com/protocol.TriggerSmartContract";
    pub const UPDATE_SETTING: &str = "type.googleapis.com/protocol.UpdateSettingContract";
    pub const UPDATE_ENERGY_LIMIT: &str = "type.googleapis.com/protocol.UpdateEnergyLimitContract";
    pub const FREEZE_BALANCE_V2: &str = "type.googleapis.com/protocol.FreezeBalanceV2Contract";
    pub const UNFREEZE_BALANCE_V2: &str = "type.googleapis.com/protocol.UnfreezeBalanceV2Contract";
    pub const WITHDRAW_EXPIRE_UNFREEZE: &str =
        "type.googleapis.com/protocol.WithdrawExpireUnfreezeContract";
    pub const DELEGATE_RESOURCE: &str = "type.googleapis.com/protocol.DelegateResourceContract";
    pub const UNDELEGATE_RESOURCE: &str = "type.googleapis.com/protocol.UnDelegateResourceContract";
}

/// `ABI.Entry.EntryType` names, indexed by value.
pub const ENTRY_TYPES: [&str; 7] = [
    "UnknownEntryType",
    "Constructor",
    "Function",
    "Event",
    "Fallback",
    "Receive",
    "Error",
];

/// `ABI.Entry.StateMutabilityType` names, indexed by value.
pub const STATE_MUTABILITIES: [&str; 5] = [
    "UnknownMutabilityType",
    "Pure",
    "View",
    "Nonpayable",
    "Payable",
];
