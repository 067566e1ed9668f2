//! What a relayer charges, and the most it will spend: the fee is the TRX a relay burns,
//! turned into USDT at the current rate, plus a margin; the ceiling is the energy of a normal
//! relay plus a little, and no relay may cost more.
//!
//! ```text
//! ours(energy)        = energy − what the pool's sponsor pays of it (counted below)
//! cost(energy, bytes) = (ours(energy) − staked energy) × energy price
//!                     + bytes × bandwidth price   (unless staked bandwidth alone, or the
//!                                                  free allowance alone, covers them all)
//! fee(pool)          = max(floor(pool),
//!                          usdt(cost(expected energy, relay bytes)) × (100 + margin) / 100)
//! fee(request)      ≥ fee(pool) + usdt(refund) × (100 + margin) / 100
//! ```
//!
//! `usdt(sun)` is the rate from the operator's price source, the prices are the chain's
//! `getEnergyFee` and `getTransactionFee`, and what the relayer's stake covers is not burned.
//!
//! Bandwidth is charged as java-tron charges it (`BandwidthProcessor.consume`, java-tron's
//! `chainbase/src/main/java/org/tron/core/db/BandwidthProcessor.java`): a transaction's bytes
//! go wholly to the staked bandwidth if it holds them all (`useAccountNet`), else wholly to
//! the free daily allowance if that holds them all (`useFreeNet`), else every byte is burned
//! (`useTransactionFee`). 500 staked and 600 free bytes do not cover an 800-byte relay.
//!
//! The staked energy and bandwidth, the TRX and the sponsor's energy a quote counts on are
//! what is left after the reservations of the relayer's unfinished jobs
//! ([`crate::store::jobs::Reservation`], applied by [`Resources::less`] and
//! [`Terms::with_sponsor_reserved`]): relays signed but not yet in a block draw on the same
//! stake, and must not be sold twice.
//!
//! A sponsored pool's deployer pays its callers' energy from its stake (see
//! [`crate::service::sponsor`]), and the relayer passes that on: it charges only for its own
//! share. It counts on the sponsor only for what the sponsor's stake would still hold after
//! [`SPONSOR_RESERVE_CALLS`] other calls drew their most on it first, since other deposits
//! and withdrawals can land between our check and our transaction. The fee limit then covers
//! only our share at the ceiling: if the sponsor's stake is drained in that moment anyway
//! (anyone can spend it with calls that revert), the relay runs out of energy and fails, and
//! the relayer loses what its share would have cost, never the sponsor's part.
//! A request must also pass two checks on its own simulation: its energy is within the
//! ceiling, and its fee covers what that energy, its bytes and the refund actually cost. The fee limit of every
//! relayed transaction is the ceiling's price, so even a recipient that behaves differently
//! on chain than in the simulation cannot make the relayer pay more.

use std::collections::BTreeMap;

use alloy_primitives::U256;

use crate::error::{Error, Result};
use crate::service::chain::Chain;
use crate::service::format::six_decimals;
use crate::service::inputs::{USDT_DECIMALS, USDT_UNIT, parse_units};
use crate::service::pool_state::SponsorShare;
use crate::service::price::{PriceFeed, PriceQuote, PriceSource};
use crate::service::wire::FeeQuote;

/// The energy of a normal relayed withdrawal under the devnet's mainnet model (TVM's energy
/// table, USDT at ×4.4): a fresh recipient activated by a TRX refund, and the relayer's first
/// fee in the pool, whose credit fills an empty slot (429,510 measured by
/// `crates/devnet/tests/pool.rs`; `tests/it/relayer.rs` fails when a relay no longer fits).
/// Later credits cost 15,000 less, a relay without a refund about 32,000 less.
pub const NORMAL_RELAY_ENERGY: i64 = 430_000;
/// The default ceiling over [`NORMAL_RELAY_ENERGY`]: room for the few thousand energy a
/// tree's state moves a withdrawal (an older root is looked up further back), and nothing
/// more. The fee goes to no USDT balance of the relayer's, so there is no costlier first fee.
pub(crate) const DEFAULT_CEILING_PERCENT: i64 = 110;
/// The default margin on the relayer's costs.
pub(crate) const DEFAULT_MARGIN_PERCENT: u32 = 20;
/// How many other calls at its per-call cap a pool's sponsor must be able to pay for besides
/// a relay before the relayer counts on it: deposits and withdrawals landing in the same
/// block as ours draw on the same stake.
pub(crate) const SPONSOR_RESERVE_CALLS: i64 = 10;
/// The bandwidth a relayed withdrawal takes: its signed transaction (the 516 bytes of
/// `withdraw` calldata, the raw data and one signature) plus the 64 bytes java-tron adds per
/// transaction; 799 measured with a refund (`tests/it/relayer.rs` checks a real one fits).
pub const RELAY_BYTES: i64 = 800;

/// An operator's terms.
#[derive(Debug, Clone)]
pub struct FeePolicy {
    /// Energy a normal relay costs: what the quote is for.
    pub expected_energy: i64,
    /// No relay whose simulation needs more is signed, and every relay's fee limit is this
    /// energy's price.
    pub max_energy: i64,
    /// Percent over cost, on the energy and on the refund.
    pub margin_percent: u32,
    /// The least fee per pool, in USDT base units, whatever the costs.
    pub floors: BTreeMap<u64, u64>,
}

impl Default for FeePolicy {
    fn default() -> Self {
        FeePolicy {
            expected_energy: NORMAL_RELAY_ENERGY,
            max_energy: NORMAL_RELAY_ENERGY * DEFAULT_CEILING_PERCENT / 100,
            margin_percent: DEFAULT_MARGIN_PERCENT,
            floors: BTreeMap::new(),
        }
    }
}

impl FeePolicy {
    /// Sets the least fee per pool from `DENOM=FEE` settings (`100=0.5`: half a USDT on the
    /// 100 pool).
    pub fn with_floors(mut self, specs: &[String]) -> Result<Self> {
        for spec in specs {
            let bad = || {
                Error::usage(format!(
                    "relayer fee `{spec}`: expected DENOMINATION=FEE in USDT, like 100=0.5"
                ))
            };
            let (denom, fee) = spec.split_once('=').ok_or_else(bad)?;
            let denom: u64 = denom.trim().parse().map_err(|_| bad())?;
            let fee = parse_units(fee.trim(), USDT_DECIMALS).ok_or_else(bad)?;
            let fee = u64::try_from(fee).map_err(|_| bad())?;
            if fee > denom.saturating_mul(USDT_UNIT) {
                return Err(Error::usage(format!(
                    "relayer fee `{spec}`: the fee cannot exceed the denomination"
                )));
            }
            self.floors.insert(denom, fee);
        }
        Ok(self)
    }

    /// Checks the energy figures make sense together.
    pub fn validate(&self) -> Result<()> {
        if self.expected_energy <= 0 || self.max_energy < self.expected_energy {
            return Err(Error::usage(format!(
                "the relayer's energy ceiling ({}) must be at least the energy it expects a \
                 relay to cost ({}), which must be positive",
                self.max_energy, self.expected_energy
            )));
        }
        Ok(())
    }

    pub fn floor(&self, denomination: u64) -> u64 {
        self.floors.get(&denomination).copied().unwrap_or(0)
    }
}

/// A policy and where its prices come from.
pub struct Pricing {
    pub policy: FeePolicy,
    pub feed: PriceFeed,
}

impl Pricing {
    pub fn new(policy: FeePolicy, feed: PriceFeed) -> Self {
        Pricing { policy, feed }
    }

    /// The default policy with `source` and the default maximum age.
    pub fn with_source(source: Option<PriceSource>) -> Self {
        Pricing::new(
            FeePolicy::default(),
            PriceFeed::new(source, crate::service::price::DEFAULT_MAX_AGE),
        )
    }

    /// The prices of this moment, for a relayer with this much energy and bandwidth of its
    /// own (staked, or free).
    pub async fn terms(&self, chain: &Chain, own: Resources) -> Result<Terms<'_>> {
        let (prices, price) = tokio::try_join!(chain.prices(), self.feed.current(chain))?;
        Ok(Terms {
            policy: &self.policy,
            energy_fee: prices.energy_fee,
            bandwidth_fee: prices.bandwidth_fee,
            max_fee_limit: prices.max_fee_limit,
            own,
            price,
            sponsor_reserved: BTreeMap::new(),
        })
    }
}

/// What a relayer has of its own before it burns TRX.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Resources {
    /// Energy staked (or delegated to it) and not used yet.
    pub energy: i64,
    /// Staked (or delegated) bandwidth not used yet, in bytes.
    pub staked_bandwidth: i64,
    /// The free daily allowance not used yet, in bytes.
    pub free_bandwidth: i64,
}

/// Where java-tron takes a transaction's bytes from.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum BandwidthSource {
    /// The account's staked bandwidth holds them all (`useAccountNet`).
    Staked,
    /// Else the free daily allowance holds them all (`useFreeNet`).
    Free,
    /// Else every byte is paid for in burned TRX (`useTransactionFee`).
    Burned,
}

impl Resources {
    pub fn of(resources: &tron::client::AccountResource) -> Self {
        Resources {
            energy: resources.energy_available(),
            staked_bandwidth: (resources.net_limit - resources.net_used).max(0),
            free_bandwidth: (resources.free_net_limit - resources.free_net_used).max(0),
        }
    }

    /// Where a transaction of `bytes` is charged: one source for all of them, never a mix
    /// (java-tron's `BandwidthProcessor.consume`: staked first, then free, then burned).
    pub(crate) fn bandwidth_source(&self, bytes: i64) -> BandwidthSource {
        if bytes <= self.staked_bandwidth {
            BandwidthSource::Staked
        } else if bytes <= self.free_bandwidth {
            BandwidthSource::Free
        } else {
            BandwidthSource::Burned
        }
    }

    /// What is left once unfinished jobs have drawn what they reserved.
    pub fn less(self, reserved: &crate::store::jobs::Reserved) -> Self {
        Resources {
            energy: (self.energy - reserved.energy.max(0)).max(0),
            staked_bandwidth: (self.staked_bandwidth - reserved.staked_bandwidth.max(0)).max(0),
            free_bandwidth: (self.free_bandwidth - reserved.free_bandwidth.max(0)).max(0),
        }
    }
}

/// The policy at this moment's prices.
#[derive(Debug, Clone)]
pub struct Terms<'a> {
    pub policy: &'a FeePolicy,
    /// Sun per energy.
    pub energy_fee: i64,
    /// Sun per byte of bandwidth.
    pub bandwidth_fee: i64,
    /// The highest fee limit the chain accepts (`getMaxFeeLimit`).
    pub max_fee_limit: i64,
    /// What the relayer's stake and free allowance cover before TRX is burned (net of what
    /// unfinished jobs reserved, when the relayer asks).
    pub own: Resources,
    pub price: PriceQuote,
    /// Energy of each sponsor (by address) that unfinished relays count on.
    pub sponsor_reserved: BTreeMap<tron::Address, i64>,
}

impl Terms<'_> {
    /// These terms with `reserved` energy of each sponsor counted on by unfinished relays.
    pub(crate) fn with_sponsor_reserved(mut self, reserved: BTreeMap<tron::Address, i64>) -> Self {
        self.sponsor_reserved = reserved;
        self
    }

    /// The part of a pool's sponsorship the relayer counts on: the sponsor's share from what
    /// its stake would hold once our unfinished relays drew what they count on, and then
    /// [`SPONSOR_RESERVE_CALLS`] other calls at its cap.
    pub(crate) fn relied_on(&self, sponsor: &SponsorShare) -> SponsorShare {
        let ours = sponsor
            .sponsor
            .and_then(|s| self.sponsor_reserved.get(&s).copied())
            .unwrap_or(0);
        sponsor
            .after(ours)
            .after(SPONSOR_RESERVE_CALLS.saturating_mul(sponsor.per_call))
    }

    /// The energy of a relay of `energy` that is ours to pay: what the sponsor does not.
    pub(crate) fn our_energy(&self, energy: i64, sponsor: &SponsorShare) -> i64 {
        energy.max(0) - self.relied_on(sponsor).of(energy)
    }

    /// Sun burned by a relay of `energy` in a transaction of `bytes`: the energy beyond the
    /// staked energy, and the bytes unless staked bandwidth alone or the free allowance
    /// alone holds them all ([`Resources::bandwidth_source`]).
    pub fn burned_sun(&self, energy: i64, bytes: i64) -> u128 {
        let energy = (energy - self.own.energy).max(0) as u128 * self.energy_fee.max(0) as u128;
        energy + self.bandwidth_burn(bytes)
    }

    /// Sun burned for a transaction of `bytes`.
    pub(crate) fn bandwidth_burn(&self, bytes: i64) -> u128 {
        match self.own.bandwidth_source(bytes) {
            BandwidthSource::Burned => bytes.max(0) as u128 * self.bandwidth_fee.max(0) as u128,
            BandwidthSource::Staked | BandwidthSource::Free => 0,
        }
    }

    fn with_margin(&self) -> u128 {
        100 + u128::from(self.policy.margin_percent)
    }

    /// The fee for relaying from a pool with no refund.
    pub(crate) fn relay_fee(&self, denomination: u64, sponsor: &SponsorShare) -> U256 {
        let ours = self.our_energy(self.policy.expected_energy, sponsor);
        let burned = self.burned_sun(ours, RELAY_BYTES);
        let cost = self.price.price.usdt_for_sun(burned, self.with_margin());
        cost.max(U256::from(self.policy.floor(denomination)))
    }

    /// What a refund of `refund_sun` adds to the fee.
    pub(crate) fn refund_fee(&self, refund_sun: i64) -> U256 {
        self.price
            .price
            .usdt_for_sun(refund_sun.max(0) as u128, self.with_margin())
    }

    /// The fee a request with this refund must carry.
    pub(crate) fn required_fee(
        &self,
        denomination: u64,
        refund_sun: i64,
        sponsor: &SponsorShare,
    ) -> U256 {
        self.relay_fee(denomination, sponsor) + self.refund_fee(refund_sun)
    }

    /// What a relay of `energy` and `bytes` with this refund costs the relayer, in USDT,
    /// with no margin: a fee below this is a loss.
    pub(crate) fn break_even(
        &self,
        energy: i64,
        bytes: i64,
        refund_sun: i64,
        sponsor: &SponsorShare,
    ) -> U256 {
        let ours = self.our_energy(energy, sponsor);
        let sun = self.burned_sun(ours, bytes) + refund_sun.max(0) as u128;
        self.price.price.usdt_for_sun(sun, 100)
    }

    /// The fee limit of a relayed transaction: our share of the ceiling's energy at the
    /// energy price, within what the chain accepts. The sponsor's part is not in it: the
    /// chain adds what the sponsor pays to the energy a fee limit buys
    /// (`VMActuator.getTotalEnergyLimitWithFixRatio`).
    pub fn fee_limit(&self, sponsor: &SponsorShare) -> i64 {
        self.our_energy(self.policy.max_energy, sponsor)
            .saturating_mul(self.energy_fee)
            .min(self.max_fee_limit)
    }

    /// Everything a client needs to check a pool's fee.
    pub fn quote(&self, denomination: u64, sponsor: &SponsorShare) -> FeeQuote {
        let fee = self.relay_fee(denomination, sponsor);
        let refund_price = self.refund_fee(1_000_000);
        FeeQuote {
            denomination,
            relayer_fee: six_decimals(fee),
            relayer_fee_raw: fee.to_string(),
            expected_energy: self.policy.expected_energy,
            max_energy: self.policy.max_energy,
            energy_price: self.energy_fee,
            staked_energy: self.own.energy,
            sponsor_energy: self.relied_on(sponsor).of(self.policy.expected_energy),
            bandwidth_sun: self.burned_sun(0, RELAY_BYTES) as i64,
            trx_price: self.price.price.usdt_per_trx(),
            trx_price_source: self.price.source.clone(),
            trx_price_age_seconds: self.price.age_seconds,
            trx_price_basis: self.price.basis.to_string(),
            trx_spot_price: self.price.spot.usdt_per_trx(),
            refund_price: six_decimals(refund_price),
            refund_price_raw: refund_price.to_string(),
            margin_percent: self.policy.margin_percent,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::service::price::TrxPrice;

    const NONE: SponsorShare = SponsorShare::NONE;

    /// A pool whose deployer pays all its callers' energy, up to 600,000 a call, with
    /// `available` energy staked.
    fn sponsored(available: i64) -> SponsorShare {
        SponsorShare {
            sponsor: Some(tron::Address::ZERO),
            percent: 100,
            per_call: 600_000,
            available,
        }
    }

    fn terms(policy: &FeePolicy, energy_fee: i64, staked: i64, usdt_per_trx: u128) -> Terms<'_> {
        Terms {
            policy,
            energy_fee,
            bandwidth_fee: 1_000,
            max_fee_limit: 15_000_000_000,
            own: Resources {
                energy: staked,
                staked_bandwidth: 0,
                free_bandwidth: 600,
            },
            price: PriceQuote {
                price: TrxPrice {
                    usdt: usdt_per_trx,
                    sun: 1_000_000,
                },
                source: "fixed".into(),
                age_seconds: 0,
                basis: crate::service::price::PriceBasis::Fixed,
                spot: TrxPrice {
                    usdt: usdt_per_trx,
                    sun: 1_000_000,
                },
            },
            sponsor_reserved: BTreeMap::new(),
        }
    }

    #[test]
    fn the_fee_pays_for_the_energy_the_refund_and_the_margin() {
        let policy = FeePolicy::default();
        let t = terms(&policy, 100, 0, 280_000);
        // 430,000 energy × 100 sun + 800 bytes × 1,000 sun (600 free bytes do not cover
        // them) = 43.8 TRX × 0.28 = 12.264 USDT, +20% = 14.7168.
        assert_eq!(t.relay_fee(100, &NONE), U256::from(14_716_800));
        // 2 TRX of refund = 0.56 USDT, +20% = 0.672.
        assert_eq!(t.refund_fee(2_000_000), U256::from(672_000));
        assert_eq!(
            t.required_fee(100, 2_000_000, &NONE),
            U256::from(15_388_800)
        );
        assert_eq!(
            t.break_even(325_000, 800, 2_000_000, &NONE),
            U256::from(9_884_000)
        );
        assert_eq!(t.fee_limit(&NONE), 473_000 * 100);
        let quote = t.quote(100, &NONE);
        assert_eq!(quote.relayer_fee_raw, "14716800");
        assert_eq!(quote.refund_price_raw, "336000");
        assert_eq!(quote.bandwidth_sun, 800_000);
        assert_eq!(
            quote.fee_with_refund(2_000_000).unwrap(),
            t.required_fee(100, 2_000_000, &NONE)
        );
        // The price moves, the quote follows: (90.3 + 0.8) TRX × 0.28 × 1.2.
        assert_eq!(
            terms(&policy, 210, 0, 280_000).relay_fee(100, &NONE),
            U256::from(30_609_600)
        );
        assert_eq!(
            terms(&policy, 100, 0, 140_000).relay_fee(100, &NONE),
            U256::from(7_358_400)
        );
        // Staked energy is not burned: the quote drops by what it covers.
        assert_eq!(
            terms(&policy, 100, 430_000, 280_000).relay_fee(100, &NONE),
            U256::from(268_800)
        );
        assert_eq!(
            terms(&policy, 100, 290_000, 280_000).relay_fee(100, &NONE),
            U256::from(4_972_800)
        );
        // Bandwidth the account has covers the bytes.
        let mut staked_bandwidth = terms(&policy, 100, 430_000, 280_000);
        staked_bandwidth.own.staked_bandwidth = 5_000;
        assert_eq!(staked_bandwidth.relay_fee(100, &NONE), U256::ZERO);
    }

    #[test]
    fn a_sponsor_with_stake_to_spare_pays_the_energy_and_the_fee_limit_leaves_it_out() {
        let policy = FeePolicy::default();
        let t = terms(&policy, 100, 0, 280_000);
        // Stake for eleven relays and more: the sponsor pays all 430,000; what is left is
        // the 800 bytes (0.8 TRX × 0.28 × 1.2), and the fee limit buys no energy at all:
        // the chain adds the sponsor's share to it.
        let ample = sponsored(100_000_000);
        assert_eq!(t.our_energy(430_000, &ample), 0);
        assert_eq!(t.relay_fee(100, &ample), U256::from(268_800));
        assert_eq!(t.fee_limit(&ample), 0);
        assert_eq!(t.quote(100, &ample).sponsor_energy, 430_000);
        assert_eq!(
            t.break_even(489_571, 800, 2_000_000, &ample),
            U256::from(784_000)
        );
        // Ten calls at its 600,000 cap are kept back: 6,200,000 left counts as 200,000.
        let low = sponsored(6_200_000);
        assert_eq!(t.our_energy(430_000, &low), 230_000);
        assert_eq!(t.relay_fee(100, &low), U256::from(7_996_800));
        assert_eq!(t.fee_limit(&low), (473_000 - 200_000) * 100);
        // No more than the reserve: the relayer counts on nothing and charges in full.
        let drained = sponsored(6_000_000);
        assert_eq!(t.relay_fee(100, &drained), t.relay_fee(100, &NONE));
        assert_eq!(t.fee_limit(&drained), 473_000 * 100);
        // A sponsor paying half of each call, up to its cap.
        let half = SponsorShare {
            percent: 50,
            ..ample
        };
        assert_eq!(t.our_energy(430_000, &half), 215_000);
        assert_eq!(t.fee_limit(&half), (473_000 - 236_500) * 100);
        let capped = SponsorShare {
            per_call: 100_000,
            ..ample
        };
        assert_eq!(t.our_energy(430_000, &capped), 330_000);
    }

    #[test]
    fn floors_and_their_refusals() {
        let policy = FeePolicy::default()
            .with_floors(&["100=50".into()])
            .unwrap();
        let t = terms(&policy, 100, 0, 280_000);
        assert_eq!(t.relay_fee(100, &NONE), U256::from(50_000_000));
        assert_eq!(t.relay_fee(1000, &NONE), U256::from(14_716_800));
        for bad in ["100", "x=1", "100=-1", "100=101", "100=0.0000001"] {
            assert!(
                FeePolicy::default().with_floors(&[bad.into()]).is_err(),
                "{bad}"
            );
        }
        let upside_down = FeePolicy {
            max_energy: 1,
            ..FeePolicy::default()
        };
        assert_eq!(upside_down.validate().unwrap_err().exit_code(), 2);
        FeePolicy::default().validate().unwrap();
    }

    #[test]
    fn bandwidth_comes_wholly_from_one_source_or_is_burned() {
        let policy = FeePolicy::default();
        // 500 staked and 600 free bytes: together 1,100, but neither alone holds an 800-byte
        // relay, so java-tron burns TRX for all 800 (`BandwidthProcessor.consume`).
        let mut t = terms(&policy, 100, 430_000, 280_000);
        t.own.staked_bandwidth = 500;
        t.own.free_bandwidth = 600;
        assert_eq!(t.own.bandwidth_source(RELAY_BYTES), BandwidthSource::Burned);
        assert_eq!(t.burned_sun(0, RELAY_BYTES), 800_000);
        assert_eq!(t.quote(100, &NONE).bandwidth_sun, 800_000);
        // 0.8 TRX × 0.28 USDT, +20%: quoted as burned.
        assert_eq!(t.relay_fee(100, &NONE), U256::from(268_800));
        // Either source alone holding them all is free; staked is used first.
        t.own.staked_bandwidth = 800;
        assert_eq!(t.own.bandwidth_source(800), BandwidthSource::Staked);
        assert_eq!(t.burned_sun(0, 800), 0);
        t.own.staked_bandwidth = 0;
        t.own.free_bandwidth = 800;
        assert_eq!(t.own.bandwidth_source(800), BandwidthSource::Free);
        assert_eq!(t.relay_fee(100, &NONE), U256::ZERO);
        // Read from the node's figures the same way.
        let node = tron::client::AccountResource {
            free_net_limit: 600,
            free_net_used: 0,
            net_limit: 700,
            net_used: 200,
            ..Default::default()
        };
        let own = Resources::of(&node);
        assert_eq!((own.staked_bandwidth, own.free_bandwidth), (500, 600));
        assert_eq!(own.bandwidth_source(800), BandwidthSource::Burned);
    }

    #[test]
    fn reservations_of_unfinished_jobs_come_off_the_stake_and_the_sponsor() {
        use crate::store::jobs::Reserved;
        let policy = FeePolicy::default();
        // Staked energy for one relay: a second, while the first is unfinished, pays in full.
        let t = terms(&policy, 100, 473_000, 280_000);
        assert_eq!(t.relay_fee(100, &NONE), U256::from(268_800));
        let reserved = Reserved {
            jobs: 1,
            energy: 473_000,
            staked_bandwidth: 0,
            free_bandwidth: 0,
            trx_sun: 48_100_000,
        };
        let mut net = t.clone();
        net.own = t.own.less(&reserved);
        assert_eq!(net.own.energy, 0);
        assert_eq!(net.relay_fee(100, &NONE), U256::from(14_716_800));
        // The sponsor's energy other relays count on is not counted twice: 6,600,000 left,
        // 400,000 of it counted on by an unfinished relay, leaves 200,000 after the reserve.
        let sponsor = sponsored(6_600_000);
        assert_eq!(t.our_energy(430_000, &sponsor), 0);
        let who = sponsor.sponsor.unwrap();
        let net = t
            .clone()
            .with_sponsor_reserved(BTreeMap::from([(who, 400_000)]));
        assert_eq!(net.our_energy(430_000, &sponsor), 230_000);
        assert_eq!(net.quote(100, &sponsor).sponsor_energy, 200_000);
        // Another sponsor's reservations do not touch this one.
        let stranger = tron::Address::from(alloy_primitives::Address::repeat_byte(7));
        let other = t.with_sponsor_reserved(BTreeMap::from([(stranger, 9_000_000)]));
        assert_eq!(other.our_energy(430_000, &sponsor), 0);
    }
}
