//! What an account's Stake 2.0 energy is made of (staked, lent, borrowed, used, released), what
//! a contract run may spend and how it was paid, and the network constants they follow: the
//! records [`super::stake`]'s operations change, below the ledger that keeps one per account.

use serde::{Deserialize, Serialize};
use tron::Address;

/// Sun per TRX.
pub const TRX: i64 = 1_000_000;
/// `getUnfreezeDelayDays` on mainnet.
pub const UNFREEZE_DELAY_DAYS: i64 = 14;
/// `UnfreezeBalanceV2Actuator.UNFREEZE_MAX_TIMES`.
pub const MAX_PENDING_RELEASES: usize = 32;
/// `getMaxDelegateLockPeriod` on mainnet, in 3-second blocks (30 days).
pub const MAX_DELEGATE_LOCK_PERIOD: i64 = 864_000;
/// The lock period java-tron uses when a locked delegation names none: 86,400 blocks (3 days).
pub(super) const DEFAULT_LOCK_PERIOD: i64 = 86_400;
pub(super) const BLOCK_MS: i64 = 3_000;
/// `getTotalEnergyCurrentLimit`: the network's energy per day (mainnet's 180,000,000,000;
/// not verified on chain).
pub const TOTAL_ENERGY_LIMIT: i64 = 180_000_000_000;
/// The rest of mainnet's energy stake in TRX, for [`ChainParams::energy_weight_base`]: with
/// [`TOTAL_ENERGY_LIMIT`], about 10.6 energy per staked TRX a day, the rate reported for 2025
/// (not verified on chain).
pub const MAINNET_ENERGY_WEIGHT: i64 = 17_000_000_000;

/// An account's Stake 2.0 state for energy.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct StakeState {
    /// Sun staked for energy and not lent (`frozenV2` ENERGY).
    #[serde(default)]
    pub frozen: i64,
    /// Sun staked for energy and lent to others (`delegated_frozenV2_balance_for_energy`).
    #[serde(default)]
    pub delegated: i64,
    /// Sun others lent it for energy (`acquired_delegated_frozenV2_balance_for_energy`).
    #[serde(default)]
    pub acquired: i64,
    /// Energy used as of `usage_time` (`energy_usage`); recovers over 24 hours.
    #[serde(default)]
    pub usage: i64,
    /// When `usage` was last brought up to date, ms (`latest_consume_time_for_energy`).
    #[serde(default)]
    pub usage_time: i64,
    /// Releases under way (`unfrozenV2`).
    #[serde(default)]
    pub releases: Vec<Release>,
    /// What it lends, by receiver.
    #[serde(default)]
    pub loans: Vec<Loan>,
}

/// TRX on its way back from staking.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Release {
    pub amount: i64,
    /// When it can be withdrawn, ms (`unfreeze_expire_time`).
    pub expire_time: i64,
}

/// Energy lent to one receiver: an unlocked and a locked part (java-tron's two
/// `DelegatedResource` records).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Loan {
    pub receiver: Address,
    pub unlocked: i64,
    pub locked: i64,
    /// Until when the locked part stays lent, ms (`expire_time_for_energy`).
    pub lock_until: i64,
}

impl Loan {
    /// What can be taken back at `now`: the unlocked part, and the locked part once its lock
    /// has passed.
    pub(super) fn available(&self, now: i64) -> i64 {
        self.unlocked
            + if self.lock_until < now {
                self.locked
            } else {
                0
            }
    }
}

/// How a contract run's energy was paid.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct EnergyBill {
    /// From the caller's stake (`receipt.energy_usage`).
    pub caller_staked: i64,
    /// From the origin's stake (`receipt.origin_energy_usage`).
    pub origin_staked: i64,
    /// Burned by the caller, in sun (`receipt.energy_fee`).
    pub burned_sun: i64,
}

/// What a contract run may spend, worked out before it runs.
#[derive(Clone, Copy, Debug)]
pub struct EnergyBudget {
    /// The run's energy limit: the caller's and the origin's together.
    pub limit: i64,
    pub(super) caller_left: i64,
    /// The origin and the most it pays: (100 − p)%, its stake left, `origin_energy_limit`.
    pub(super) origin: Option<(Address, i64, i64)>,
}
