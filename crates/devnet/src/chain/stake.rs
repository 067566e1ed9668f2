//! Stake 2.0 energy, and who pays a contract run's energy, as java-tron decides it.
//!
//! - **Staked energy** (`EnergyProcessor.calculateGlobalEnergyLimit`, Stake 2.0 formula): an
//!   account's daily energy is `(own staked + lent to it) / 1 TRX × TotalEnergyCurrentLimit /
//!   TotalEnergyWeight`, where the weight is every account's staked TRX (lent or not). Used
//!   energy recovers linearly over 24 hours (`ResourceProcessor.increase`, a window of 28,800
//!   3-second slots). The devnet recovers each account's usage over 24 hours from its latest
//!   use; java-tron keeps a usage-weighted window instead, which recovers older usage a little
//!   sooner.
//! - **The network's other stake.** A devnet has no other stakers, so one staked TRX would buy
//!   the whole network's energy. [`ChainParams::energy_weight_base`] stands for the rest of the
//!   network (mainnet-like: about 10.6 energy per TRX a day), added to the devnet's own stake.
//! - **Who pays** (`VMActuator.getTotalEnergyLimitWithFixRatio`, `ReceiptCapsule.payEnergyBill`,
//!   `TransactionTrace.pay`): a call's energy limit is the caller's (staked energy left + TRX
//!   balance ÷ energy price, at most fee limit ÷ energy price) plus what the contract's deployer
//!   (origin) can give: with `consume_user_resource_percent` p below 100, the origin's staked
//!   energy left, at most `origin_energy_limit`, and for 0 < p < 100 at most the caller's limit
//!   × (100 − p) / p. After the run the origin pays (100 − p)% of the energy, but only from its
//!   stake and never more than it had or `origin_energy_limit`; the caller pays the rest, from
//!   its own stake first and then by burning TRX. The origin never burns TRX.
//! - **The operations** (`FreezeBalanceV2Actuator`, `UnfreezeBalanceV2Actuator`,
//!   `WithdrawExpireUnfreezeActuator`, `DelegateResourceActuator`,
//!   `UnDelegateResourceActuator`): validated in java-tron's order with its messages. Released
//!   TRX comes back after `getUnfreezeDelayDays` (14); at most 32 releases may be pending; a
//!   release or a withdrawal first returns every release whose delay has passed. Lending moves
//!   no usage; taking a loan back moves the receiver's share of its usage to the lender.
//!
//! The devnet models staking for ENERGY. Staking for BANDWIDTH is refused with a message that
//! says so (transactions use the free 600 bytes a day, then burn TRX).

use tron::{Address, Resource, Stake};

use super::rejection::Rejection;
use super::stake_state::{
    BLOCK_MS, DEFAULT_LOCK_PERIOD, EnergyBill, EnergyBudget, Loan, MAX_DELEGATE_LOCK_PERIOD,
    MAX_PENDING_RELEASES, Release, StakeState, TOTAL_ENERGY_LIMIT, TRX, UNFREEZE_DELAY_DAYS,
};
use super::{Ledger, decayed};

fn validate(detail: impl std::fmt::Display) -> Rejection {
    Rejection::validate(detail)
}

fn readable(address: &Address) -> String {
    hex::encode(address.tron_bytes())
}

impl Ledger {
    fn stake(&self, address: &Address) -> StakeState {
        self.data
            .accounts
            .get(address)
            .map(|m| m.stake.clone())
            .unwrap_or_default()
    }

    fn stake_mut(&mut self, address: &Address) -> &mut StakeState {
        &mut self.data.accounts.entry(*address).or_default().stake
    }

    /// `TotalEnergyWeight`: every staked TRX on the devnet (lent or not, each account's
    /// rounded down as java-tron adds them) plus the rest of the network's.
    pub fn total_energy_weight(&self) -> i64 {
        let own: i64 = self
            .data
            .accounts
            .values()
            .map(|m| (m.stake.frozen + m.stake.delegated) / TRX)
            .sum();
        self.data.params.energy_weight_base + own
    }

    /// The account's daily energy from stake (`EnergyLimit`).
    pub fn energy_limit(&self, address: &Address) -> i64 {
        let s = self.stake(address);
        let weight = self.total_energy_weight();
        if weight <= 0 {
            return 0;
        }
        (((s.frozen + s.acquired) as f64 / TRX as f64)
            * (TOTAL_ENERGY_LIMIT as f64 / weight as f64)) as i64
    }

    /// Staked energy used, recovered to `now` (`EnergyUsed`).
    pub fn energy_used(&self, address: &Address, now: i64) -> i64 {
        let s = self.stake(address);
        decayed(s.usage, s.usage_time, now)
    }

    /// Staked energy still available at `now` (`getAccountLeftEnergyFromFreeze`).
    pub fn energy_left(&self, address: &Address, now: i64) -> i64 {
        (self.energy_limit(address) - self.energy_used(address, now)).max(0)
    }

    /// An account's Stake 2.0 state (for `getaccount`).
    pub fn stake_state(&self, address: &Address) -> StakeState {
        self.stake(address)
    }

    fn use_energy(&mut self, address: &Address, energy: i64, now: i64) {
        if energy <= 0 {
            return;
        }
        let s = self.stake_mut(address);
        s.usage = decayed(s.usage, s.usage_time, now) + energy;
        s.usage_time = now;
    }

    /// The energy budget of a run by `caller` with `spendable` sun to burn, under `fee_limit`;
    /// `contract` (`None` for a deployment) decides what its origin gives.
    pub(crate) fn energy_budget(
        &self,
        caller: &Address,
        contract: Option<&Address>,
        spendable: i64,
        fee_limit: i64,
        now: i64,
    ) -> EnergyBudget {
        let price = self.data.params.energy_fee.max(1);
        let caller_left = self.energy_left(caller, now);
        let caller_limit = (caller_left + spendable.max(0) / price).min(fee_limit / price);
        let origin = contract
            .and_then(|c| self.data.contracts.get(c))
            .and_then(|sc| {
                let origin = Address::from_tron_bytes(&sc.origin_address).ok()?;
                (origin != *caller && sc.consume_user_resource_percent < 100)
                    .then_some((origin, sc))
            })
            .map(|(origin, sc)| {
                let p = sc.consume_user_resource_percent.clamp(0, 100);
                let most = self
                    .energy_left(&origin, now)
                    .min(sc.origin_energy_limit.max(0));
                let gives = if p > 0 {
                    most.min(
                        (i128::from(caller_limit) * i128::from(100 - p) / i128::from(p)) as i64,
                    )
                } else {
                    most
                };
                (origin, p, gives, most)
            });
        EnergyBudget {
            limit: caller_limit + origin.map_or(0, |(_, _, gives, _)| gives),
            caller_left,
            origin: origin.map(|(o, p, _, most)| (o, 100 - p, most)),
        }
    }

    /// Pays `energy` (a run's `energy_usage_total`) as java-tron's receipt does: the origin
    /// its share from stake, the caller the rest from stake, then burning TRX.
    pub(crate) fn pay_energy(
        &mut self,
        caller: &Address,
        budget: &EnergyBudget,
        energy: i64,
        now: i64,
    ) -> EnergyBill {
        let mut bill = EnergyBill::default();
        let mut rest = energy;
        if let Some((origin, origin_percent, most)) = budget.origin {
            let share =
                ((i128::from(energy) * i128::from(origin_percent)) / 100).min(i128::from(most));
            bill.origin_staked = (share as i64).max(0);
            self.use_energy(&origin, bill.origin_staked, now);
            rest -= bill.origin_staked;
        }
        bill.caller_staked = rest.min(budget.caller_left).max(0);
        self.use_energy(caller, bill.caller_staked, now);
        bill.burned_sun = (rest - bill.caller_staked) * self.data.params.energy_fee;
        bill
    }

    /// Checks a Stake 2.0 operation as java-tron's actuator validates it.
    pub fn validate_stake(&self, stake: &Stake, now: i64) -> Result<(), Rejection> {
        let owner = stake.owner();
        let Some(account) = self.account(&owner) else {
            return Err(validate(format!(
                "Account[{}] not exists",
                readable(&owner)
            )));
        };
        let s = self.stake(&owner);
        let energy_only = |resource: &Resource| {
            if *resource == Resource::Energy {
                Ok(())
            } else {
                Err(validate(
                    "the devnet models Stake 2.0 for ENERGY only; stake for BANDWIDTH is not supported",
                ))
            }
        };
        match stake {
            Stake::Freeze {
                resource, amount, ..
            } => {
                if *amount <= 0 {
                    return Err(validate("frozenBalance must be positive"));
                }
                if *amount < TRX {
                    return Err(validate(
                        "frozenBalance must be greater than or equal to 1 TRX",
                    ));
                }
                if *amount > account.balance {
                    return Err(validate(
                        "frozenBalance must be less than or equal to accountBalance",
                    ));
                }
                energy_only(resource)
            }
            Stake::Unfreeze {
                resource, amount, ..
            } => {
                energy_only(resource)?;
                if s.frozen <= 0 {
                    return Err(validate("no frozenBalance(Energy)"));
                }
                if *amount <= 0 || *amount > s.frozen {
                    return Err(validate(format!(
                        "Invalid unfreeze_balance, [{amount}] is error"
                    )));
                }
                let pending = s.releases.iter().filter(|r| r.expire_time > now).count();
                if pending >= MAX_PENDING_RELEASES {
                    return Err(validate(
                        "Invalid unfreeze operation, unfreezing times is over limit",
                    ));
                }
                Ok(())
            }
            Stake::WithdrawExpired { .. } => {
                if s.releases.iter().all(|r| r.expire_time > now) {
                    return Err(validate("no unFreeze balance to withdraw "));
                }
                Ok(())
            }
            Stake::Delegate {
                receiver,
                resource,
                amount,
                lock,
                lock_period,
                ..
            } => {
                if *amount < TRX {
                    return Err(validate(
                        "delegateBalance must be greater than or equal to 1 TRX",
                    ));
                }
                energy_only(resource)?;
                // The part of its stake the owner's own usage occupies cannot be lent
                // (`FreezeV2Util.getV2EnergyUsage`).
                let occupied = ((self.energy_used(&owner, now) as f64)
                    * TRX as f64
                    * (self.total_energy_weight() as f64 / TOTAL_ENERGY_LIMIT as f64))
                    as i64;
                let occupied = (occupied - s.acquired).max(0);
                if s.frozen - occupied < *amount {
                    return Err(validate(
                        "delegateBalance must be less than or equal to available FreezeEnergyV2 balance",
                    ));
                }
                if receiver == &owner {
                    return Err(validate(
                        "receiverAddress must not be the same as ownerAddress",
                    ));
                }
                let Some(to) = self.account(receiver) else {
                    return Err(validate(format!(
                        "Account[{}] not exists",
                        readable(receiver)
                    )));
                };
                if *lock {
                    let period = if *lock_period == 0 {
                        DEFAULT_LOCK_PERIOD
                    } else {
                        *lock_period
                    };
                    if !(0..=MAX_DELEGATE_LOCK_PERIOD).contains(&period) {
                        return Err(validate(format!(
                            "The lock period of delegate resource cannot be less than 0 and cannot exceed {MAX_DELEGATE_LOCK_PERIOD}!"
                        )));
                    }
                    if let Some(loan) = s.loans.iter().find(|l| l.receiver == *receiver) {
                        let remaining = loan.lock_until - now;
                        if loan.locked > 0 && remaining > 0 && period * BLOCK_MS < remaining {
                            return Err(validate(format!(
                                "The lock period for ENERGY this time cannot be less than the remaining time[{remaining}ms] of the last lock period for ENERGY!"
                            )));
                        }
                    }
                }
                if to.is_contract {
                    return Err(validate(
                        "Do not allow delegate resources to contract addresses",
                    ));
                }
                Ok(())
            }
            Stake::Undelegate {
                receiver,
                resource,
                amount,
                ..
            } => {
                if receiver == &owner {
                    return Err(validate(
                        "receiverAddress must not be the same as ownerAddress",
                    ));
                }
                let Some(loan) = s.loans.iter().find(|l| l.receiver == *receiver) else {
                    return Err(validate("delegated Resource does not exist"));
                };
                if *amount <= 0 {
                    return Err(validate("unDelegateBalance must be more than 0 TRX"));
                }
                energy_only(resource)?;
                let available = loan.available(now);
                if available < *amount {
                    return Err(validate(format!(
                        "insufficient delegateFrozenBalance(Energy), request={amount}, unlock_balance={available}"
                    )));
                }
                Ok(())
            }
        }
    }

    /// Carries out a validated Stake 2.0 operation; answers the TRX it returned from expired
    /// releases (`withdraw_expire_amount`).
    pub(crate) fn apply_stake(&mut self, stake: &Stake, now: i64) -> i64 {
        let owner = stake.owner();
        let mut withdrawn = 0;
        match stake {
            Stake::Freeze { amount, .. } => {
                let balance = self.balance(&owner);
                self.write_balance(owner, balance - amount);
                self.stake_mut(&owner).frozen += amount;
            }
            Stake::Unfreeze { amount, .. } => {
                withdrawn = self.withdraw_expired(&owner, now);
                let s = self.stake_mut(&owner);
                s.frozen -= amount;
                s.releases.push(Release {
                    amount: *amount,
                    expire_time: now + UNFREEZE_DELAY_DAYS * 86_400_000,
                });
            }
            Stake::WithdrawExpired { .. } => withdrawn = self.withdraw_expired(&owner, now),
            Stake::Delegate {
                receiver,
                amount,
                lock,
                lock_period,
                ..
            } => {
                let s = self.stake_mut(&owner);
                s.frozen -= amount;
                s.delegated += amount;
                let index = match s.loans.iter().position(|l| l.receiver == *receiver) {
                    Some(i) => i,
                    None => {
                        s.loans.push(Loan {
                            receiver: *receiver,
                            unlocked: 0,
                            locked: 0,
                            lock_until: 0,
                        });
                        s.loans.len() - 1
                    }
                };
                let loan = &mut s.loans[index];
                if loan.locked > 0 && loan.lock_until < now {
                    loan.unlocked += loan.locked;
                    loan.locked = 0;
                }
                if *lock {
                    let period = if *lock_period == 0 {
                        DEFAULT_LOCK_PERIOD
                    } else {
                        *lock_period
                    };
                    loan.locked += amount;
                    loan.lock_until = now + period * BLOCK_MS;
                } else {
                    loan.unlocked += amount;
                }
                self.stake_mut(receiver).acquired += amount;
            }
            Stake::Undelegate {
                receiver, amount, ..
            } => {
                // The receiver gives back its share of its usage with the energy
                // (`UnDelegateResourceActuator`): at most what the returned stake buys.
                let weight = self.total_energy_weight().max(1);
                let r = self.stake(receiver);
                let used = decayed(r.usage, r.usage_time, now);
                let mut moved = 0;
                if r.acquired >= *amount && r.frozen + r.acquired > 0 {
                    let most = ((*amount as f64 / TRX as f64)
                        * (TOTAL_ENERGY_LIMIT as f64 / weight as f64))
                        as i64;
                    let share =
                        (used as f64 * (*amount as f64 / (r.frozen + r.acquired) as f64)) as i64;
                    moved = most.min(share);
                }
                let to = self.stake_mut(receiver);
                to.acquired = (to.acquired - amount).max(0);
                to.usage = (used - moved).max(0);
                to.usage_time = now;
                let s = self.stake_mut(&owner);
                s.delegated -= amount;
                s.frozen += amount;
                if let Some(i) = s.loans.iter().position(|l| l.receiver == *receiver) {
                    let loan = &mut s.loans[i];
                    if loan.locked > 0 && loan.lock_until < now {
                        loan.unlocked += loan.locked;
                        loan.locked = 0;
                    }
                    loan.unlocked -= amount;
                    if loan.unlocked == 0 && loan.locked == 0 {
                        s.loans.remove(i);
                    }
                }
                if moved > 0 {
                    let s = self.stake_mut(&owner);
                    s.usage = decayed(s.usage, s.usage_time, now) + moved;
                    s.usage_time = now;
                }
            }
        }
        withdrawn
    }

    /// Returns every release whose delay has passed to the balance; answers the sun returned.
    fn withdraw_expired(&mut self, owner: &Address, now: i64) -> i64 {
        let s = self.stake_mut(owner);
        let (due, pending): (Vec<Release>, Vec<Release>) =
            s.releases.drain(..).partition(|r| r.expire_time <= now);
        s.releases = pending;
        let amount: i64 = due.iter().map(|r| r.amount).sum();
        if amount > 0 {
            let balance = self.balance(owner);
            self.write_balance(*owner, balance + amount);
        }
        amount
    }
}
