//! A contract's resource settings, which only its origin (deployer) may change: the share of
//! each call's energy its callers pay (`UpdateSettingContract`) and the most energy the origin
//! pays for one call (`UpdateEnergyLimitContract`).

use prost::Message;

use crate::proto::{self, contract_type, type_url};
use crate::{Address, TxError};

#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ContractSetting {
    /// `consume_user_resource_percent`: callers pay this percent (0–100) of each call's
    /// energy; the origin pays the rest from its stake.
    CallerEnergyPercent {
        owner: Address,
        contract: Address,
        percent: i64,
    },
    /// `origin_energy_limit`: the most energy the origin pays for one call.
    OriginEnergyLimit {
        owner: Address,
        contract: Address,
        limit: i64,
    },
}

impl ContractSetting {
    pub fn owner(&self) -> Address {
        match self {
            ContractSetting::CallerEnergyPercent { owner, .. }
            | ContractSetting::OriginEnergyLimit { owner, .. } => *owner,
        }
    }

    pub fn contract(&self) -> Address {
        match self {
            ContractSetting::CallerEnergyPercent { contract, .. }
            | ContractSetting::OriginEnergyLimit { contract, .. } => *contract,
        }
    }

    pub fn type_name(&self) -> &'static str {
        match self {
            ContractSetting::CallerEnergyPercent { .. } => "UpdateSettingContract",
            ContractSetting::OriginEnergyLimit { .. } => "UpdateEnergyLimitContract",
        }
    }

    /// `(ContractType, type_url, protobuf bytes)`.
    pub(crate) fn encode(&self) -> (i32, &'static str, Vec<u8>) {
        match self {
            ContractSetting::CallerEnergyPercent {
                owner,
                contract,
                percent,
            } => (
                contract_type::UPDATE_SETTING,
                type_url::UPDATE_SETTING,
                proto::UpdateSettingContract {
                    owner_address: owner.tron_bytes().to_vec(),
                    contract_address: contract.tron_bytes().to_vec(),
                    consume_user_resource_percent: *percent,
                }
                .encode_to_vec(),
            ),
            ContractSetting::OriginEnergyLimit {
                owner,
                contract,
                limit,
            } => (
                contract_type::UPDATE_ENERGY_LIMIT,
                type_url::UPDATE_ENERGY_LIMIT,
                proto::UpdateEnergyLimitContract {
                    owner_address: owner.tron_bytes().to_vec(),
                    contract_address: contract.tron_bytes().to_vec(),
                    origin_energy_limit: *limit,
                }
                .encode_to_vec(),
            ),
        }
    }

    /// Reads a contract of type `kind`; `None` when `kind` is neither setting.
    pub(crate) fn decode(kind: i32, bytes: &[u8]) -> Option<Result<Self, TxError>> {
        let bad = |e: prost::DecodeError| TxError::BadProtobuf(e.to_string());
        let address = crate::error::address_field;
        match kind {
            contract_type::UPDATE_SETTING => Some((|| {
                let c = proto::UpdateSettingContract::decode(bytes).map_err(bad)?;
                Ok(ContractSetting::CallerEnergyPercent {
                    owner: address("owner_address", &c.owner_address)?,
                    contract: address("contract_address", &c.contract_address)?,
                    percent: c.consume_user_resource_percent,
                })
            })()),
            contract_type::UPDATE_ENERGY_LIMIT => Some((|| {
                let c = proto::UpdateEnergyLimitContract::decode(bytes).map_err(bad)?;
                Ok(ContractSetting::OriginEnergyLimit {
                    owner: address("owner_address", &c.owner_address)?,
                    contract: address("contract_address", &c.contract_address)?,
                    limit: c.origin_energy_limit,
                })
            })()),
            _ => None,
        }
    }
}
