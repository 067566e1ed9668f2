//! Stake 2.0: staking TRX for energy or bandwidth, releasing it, and lending it
//! (java-tron's `FreezeBalanceV2Contract`, `UnfreezeBalanceV2Contract`,
//! `WithdrawExpireUnfreezeContract`, `DelegateResourceContract`, `UnDelegateResourceContract`;
//! `core/contract/balance_contract.proto`).

use prost::Message;

use crate::proto::{self, contract_type, type_url};
use crate::{Address, TxError};

/// `ResourceCode`: what staked TRX buys. java-tron also has `TRON_POWER` (2), for voting only.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, serde::Serialize, serde::Deserialize)]
pub enum Resource {
    Bandwidth,
    Energy,
}

impl Resource {
    /// The protobuf value.
    pub fn code(self) -> i32 {
        match self {
            Resource::Bandwidth => 0,
            Resource::Energy => 1,
        }
    }

    pub fn from_code(code: i32) -> Result<Self, TxError> {
        match code {
            0 => Ok(Resource::Bandwidth),
            1 => Ok(Resource::Energy),
            other => Err(TxError::Invalid(format!(
                "resource {other} is not BANDWIDTH (0) or ENERGY (1)"
            ))),
        }
    }

    /// The name java-tron prints.
    pub fn name(self) -> &'static str {
        match self {
            Resource::Bandwidth => "BANDWIDTH",
            Resource::Energy => "ENERGY",
        }
    }
}

/// One Stake 2.0 operation. Amounts are in sun.
#[derive(Clone, Debug, PartialEq)]
pub enum Stake {
    /// Stake `amount` for `resource` (`FreezeBalanceV2Contract`).
    Freeze {
        owner: Address,
        resource: Resource,
        amount: i64,
    },
    /// Start releasing `amount` staked for `resource` (`UnfreezeBalanceV2Contract`).
    Unfreeze {
        owner: Address,
        resource: Resource,
        amount: i64,
    },
    /// Take back every release whose delay has passed (`WithdrawExpireUnfreezeContract`).
    WithdrawExpired { owner: Address },
    /// Lend the `resource` of `amount` staked sun to `receiver` (`DelegateResourceContract`);
    /// `lock` keeps it lent for `lock_period` blocks.
    Delegate {
        owner: Address,
        receiver: Address,
        resource: Resource,
        amount: i64,
        lock: bool,
        lock_period: i64,
    },
    /// Take back `amount` lent to `receiver` (`UnDelegateResourceContract`).
    Undelegate {
        owner: Address,
        receiver: Address,
        resource: Resource,
        amount: i64,
    },
}

impl Stake {
    pub fn owner(&self) -> Address {
        match self {
            Stake::Freeze { owner, .. }
            | Stake::Unfreeze { owner, .. }
            | Stake::WithdrawExpired { owner }
            | Stake::Delegate { owner, .. }
            | Stake::Undelegate { owner, .. } => *owner,
        }
    }

    /// The java-tron name of the contract type.
    pub fn type_name(&self) -> &'static str {
        match self {
            Stake::Freeze { .. } => "FreezeBalanceV2Contract",
            Stake::Unfreeze { .. } => "UnfreezeBalanceV2Contract",
            Stake::WithdrawExpired { .. } => "WithdrawExpireUnfreezeContract",
            Stake::Delegate { .. } => "DelegateResourceContract",
            Stake::Undelegate { .. } => "UnDelegateResourceContract",
        }
    }

    /// `(ContractType, type_url, protobuf bytes)`.
    pub(crate) fn encode(&self) -> (i32, &'static str, Vec<u8>) {
        let bytes = |a: &Address| a.tron_bytes().to_vec();
        match self {
            Stake::Freeze {
                owner,
                resource,
                amount,
            } => (
                contract_type::FREEZE_BALANCE_V2,
                type_url::FREEZE_BALANCE_V2,
                proto::FreezeBalanceV2Contract {
                    owner_address: bytes(owner),
                    frozen_balance: *amount,
                    resource: resource.code(),
                }
                .encode_to_vec(),
            ),
            Stake::Unfreeze {
                owner,
                resource,
                amount,
            } => (
                contract_type::UNFREEZE_BALANCE_V2,
                type_url::UNFREEZE_BALANCE_V2,
                proto::UnfreezeBalanceV2Contract {
                    owner_address: bytes(owner),
                    unfreeze_balance: *amount,
                    resource: resource.code(),
                }
                .encode_to_vec(),
            ),
            Stake::WithdrawExpired { owner } => (
                contract_type::WITHDRAW_EXPIRE_UNFREEZE,
                type_url::WITHDRAW_EXPIRE_UNFREEZE,
                proto::WithdrawExpireUnfreezeContract {
                    owner_address: bytes(owner),
                }
                .encode_to_vec(),
            ),
            Stake::Delegate {
                owner,
                receiver,
                resource,
                amount,
                lock,
                lock_period,
            } => (
                contract_type::DELEGATE_RESOURCE,
                type_url::DELEGATE_RESOURCE,
                proto::DelegateResourceContract {
                    owner_address: bytes(owner),
                    resource: resource.code(),
                    balance: *amount,
                    receiver_address: bytes(receiver),
                    lock: *lock,
                    lock_period: *lock_period,
                }
                .encode_to_vec(),
            ),
            Stake::Undelegate {
                owner,
                receiver,
                resource,
                amount,
            } => (
                contract_type::UNDELEGATE_RESOURCE,
                type_url::UNDELEGATE_RESOURCE,
                proto::UnDelegateResourceContract {
                    owner_address: bytes(owner),
                    resource: resource.code(),
                    balance: *amount,
                    receiver_address: bytes(receiver),
                }
                .encode_to_vec(),
            ),
        }
    }

    /// Reads a contract of type `kind` from its protobuf bytes; `None` when `kind` is not a
    /// Stake 2.0 type.
    pub(crate) fn decode(kind: i32, bytes: &[u8]) -> Option<Result<Self, TxError>> {
        let bad = |e: prost::DecodeError| TxError::BadProtobuf(e.to_string());
        let address = crate::error::address_field;
        let read = || -> Result<Self, TxError> {
            Ok(match kind {
                contract_type::FREEZE_BALANCE_V2 => {
                    let c = proto::FreezeBalanceV2Contract::decode(bytes).map_err(bad)?;
                    Stake::Freeze {
                        owner: address("owner_address", &c.owner_address)?,
                        resource: Resource::from_code(c.resource)?,
                        amount: c.frozen_balance,
                    }
                }
                contract_type::UNFREEZE_BALANCE_V2 => {
                    let c = proto::UnfreezeBalanceV2Contract::decode(bytes).map_err(bad)?;
                    Stake::Unfreeze {
                        owner: address("owner_address", &c.owner_address)?,
                        resource: Resource::from_code(c.resource)?,
                        amount: c.unfreeze_balance,
                    }
                }
                contract_type::WITHDRAW_EXPIRE_UNFREEZE => {
                    let c = proto::WithdrawExpireUnfreezeContract::decode(bytes).map_err(bad)?;
                    Stake::WithdrawExpired {
                        owner: address("owner_address", &c.owner_address)?,
                    }
                }
                contract_type::DELEGATE_RESOURCE => {
                    let c = proto::DelegateResourceContract::decode(bytes).map_err(bad)?;
                    Stake::Delegate {
                        owner: address("owner_address", &c.owner_address)?,
                        receiver: address("receiver_address", &c.receiver_address)?,
                        resource: Resource::from_code(c.resource)?,
                        amount: c.balance,
                        lock: c.lock,
                        lock_period: c.lock_period,
                    }
                }
                _ => {
                    let c = proto::UnDelegateResourceContract::decode(bytes).map_err(bad)?;
                    Stake::Undelegate {
                        owner: address("owner_address", &c.owner_address)?,
                        receiver: address("receiver_address", &c.receiver_address)?,
                        resource: Resource::from_code(c.resource)?,
                        amount: c.balance,
                    }
                }
            })
        };
        matches!(
            kind,
            contract_type::FREEZE_BALANCE_V2
                | contract_type::UNFREEZE_BALANCE_V2
                | contract_type::WITHDRAW_EXPIRE_UNFREEZE
                | contract_type::DELEGATE_RESOURCE
                | contract_type::UNDELEGATE_RESOURCE
        )
        .then(read)
    }
}
