//! What the chain says about a pool, as [`crate::service::chain::Chain`] caches it: its
//! balance, root and deposit count, and who pays its callers' energy. Plain values below the
//! chain, so the chain's caches need nothing from the workflows that read them.

use alloy_primitives::{B256, U256};
use tron::Address;

/// What the chain says about a pool (cached per pool).
#[derive(Debug, Clone)]
pub struct PoolState {
    pub balance: U256,
    pub root: B256,
    /// The leaves in its tree (`nextIndex`): the deposits a withdrawal can prove.
    pub deposit_count: u32,
    /// Every deposit made, inserted or still queued (a pool that inserts at once has none
    /// queued: this equals `deposit_count`).
    pub deposits: u32,
}

impl PoolState {
    /// Deposits waiting for a batch to insert them.
    pub fn queued(&self) -> u32 {
        self.deposits.saturating_sub(self.deposit_count)
    }
}

/// What a contract's sponsor (its origin) pays of one call's energy, as java-tron's receipt
/// works it out (`ReceiptCapsule.payEnergyBill` and `getOriginUsage`): its share of the
/// energy, at most `origin_energy_limit`, and only from its staked energy left; never by
/// burning TRX. Whatever it does not pay is the caller's.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct SponsorShare {
    /// Who pays: the contract's origin; `None` when nobody sponsors the call.
    pub sponsor: Option<Address>,
    /// The percent of each call's energy the sponsor pays (100 − the contract's
    /// `consume_user_resource_percent`); 0 when the caller pays all or is the origin.
    pub percent: i64,
    /// The most it pays for one call (`origin_energy_limit`).
    pub per_call: i64,
    /// Its staked energy left now.
    pub available: i64,
}

impl SponsorShare {
    /// A call whose caller pays all of its energy.
    pub(crate) const NONE: SponsorShare = SponsorShare {
        sponsor: None,
        percent: 0,
        per_call: 0,
        available: 0,
    };

    /// The energy the sponsor pays of a call that uses `energy`.
    pub fn of(&self, energy: i64) -> i64 {
        let share = i128::from(energy.max(0)) * i128::from(self.percent.clamp(0, 100)) / 100;
        (share as i64)
            .min(self.per_call.max(0))
            .min(self.available.max(0))
    }

    /// The share for calls by `caller`: none when the caller is the sponsor itself (java-tron
    /// then bills the whole call to it as a caller).
    pub(crate) fn for_caller(self, caller: Address) -> SponsorShare {
        if self.sponsor == Some(caller) {
            SponsorShare::NONE
        } else {
            self
        }
    }

    /// The same sponsor with `energy` less of its stake left: what a later call finds after
    /// others have drawn on it.
    pub fn after(&self, energy: i64) -> SponsorShare {
        SponsorShare {
            available: (self.available - energy.max(0)).max(0),
            ..*self
        }
    }
}
