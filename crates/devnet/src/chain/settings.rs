//! A contract's resource settings, changed by its origin (java-tron
//! `UpdateSettingContractActuator`, `UpdateEnergyLimitContractActuator`): checked in
//! java-tron's order with its messages.

use tron::{Address, ContractSetting};

use super::{Ledger, Rejection};

impl Ledger {
    /// Checks a setting change as java-tron's actuator validates it.
    pub fn validate_setting(&self, setting: &ContractSetting) -> Result<(), Rejection> {
        let owner = setting.owner();
        let readable = hex::encode(owner.tron_bytes());
        if self.account(&owner).is_none() {
            return Err(Rejection::validate(format!(
                "Account[{readable}] does not exist"
            )));
        }
        match setting {
            ContractSetting::CallerEnergyPercent { percent, .. } => {
                if !(0..=100).contains(percent) {
                    return Err(Rejection::validate("percent not in [0, 100]"));
                }
            }
            ContractSetting::OriginEnergyLimit { limit, .. } => {
                if *limit <= 0 {
                    return Err(Rejection::validate("origin energy limit must be > 0"));
                }
            }
        }
        let Some(contract) = self.data.contracts.get(&setting.contract()) else {
            return Err(Rejection::validate("Contract does not exist"));
        };
        if Address::from_tron_bytes(&contract.origin_address).ok() != Some(owner) {
            return Err(Rejection::validate(format!(
                "Account[{readable}] is not the owner of the contract"
            )));
        }
        Ok(())
    }

    /// Applies a validated setting change.
    pub(crate) fn apply_setting(&mut self, setting: &ContractSetting) {
        if let Some(contract) = self.data.contracts.get_mut(&setting.contract()) {
            match setting {
                ContractSetting::CallerEnergyPercent { percent, .. } => {
                    contract.consume_user_resource_percent = *percent;
                }
                ContractSetting::OriginEnergyLimit { limit, .. } => {
                    contract.origin_energy_limit = *limit;
                }
            }
        }
    }
}
