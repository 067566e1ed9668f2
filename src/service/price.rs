//! What TRX is worth in USDT: the rate a relayer turns the TRX it burns into the USDT fee it
//! asks, and a client checks a relayer's quote against.
//!
//! The operator chooses the source: a fixed rate from the configuration, or a SunSwap V2
//! WTRX/USDT pair read on chain (`token0`, `token1`, `getReserves` and the cumulative prices
//! through `triggerconstantcontract`, so any node will do). A pair's answer is cached briefly
//! and trusted only while the pair itself is fresh: `blockTimestampLast` moves with every
//! swap, so a pair nobody has traded for longer than the maximum age is a stale price.
//! Without a usable price there is no quote: callers refuse work rather than guess.
//!
//! A pair's spot price can be pushed by a swap, and a stranger who pushes TRX down in the
//! block before their relay would make the relayer burn TRX its fee does not cover. So a pair
//! is priced at the larger of its spot price and its time-weighted average over a window (30
//! minutes by default), taken from SunSwap V2's cumulative prices (Uniswap V2's oracle: each
//! price times the seconds it held, summed on chain at the first trade of each block). The
//! feed remembers a reading of the cumulative price at least every time it reads the pair; two
//! readings a window apart give the average between them exactly, however the price moved in
//! between. A swap can then only raise the fee. An operator's floor (`price_floor`) bounds the
//! price from below whatever the pair says, which also covers a relayer's first minutes, before
//! its readings span a window.

use std::collections::VecDeque;
use std::fmt;
use std::sync::Mutex;
use std::time::{Duration, Instant};

use alloy_primitives::U256;
use tron::Address;
use tron::abi::SunswapV2Pair;

use crate::error::{Error, Result};
use crate::service::chain::Chain;
use crate::service::inputs::parse_units;

/// How long a pair's reserves are reused before they are read again, by default.
const PAIR_TTL: Duration = Duration::from_secs(10);
/// How long a pair may go without a trade before its price is stale.
pub const DEFAULT_MAX_AGE: Duration = Duration::from_secs(30 * 60);
/// How far back a pair's price is averaged, by default.
pub(crate) const DEFAULT_WINDOW: Duration = Duration::from_secs(30 * 60);
/// The most readings of a pair's cumulative price kept (half of them span a window).
const MAX_READINGS: usize = 64;

/// Where the TRX/USDT rate comes from.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum PriceSource {
    /// A rate the operator states: `fixed:0.28` is 0.28 USDT per TRX.
    Fixed(TrxPrice),
    /// A SunSwap V2 pair of WTRX and USDT: `pair:T…`.
    Pair(Address),
}

impl PriceSource {
    /// `fixed:USDT_PER_TRX` or `pair:ADDRESS`.
    pub fn parse(text: &str) -> Result<Self> {
        let bad = || {
            Error::usage(format!(
                "price source `{text}`: expected fixed:USDT_PER_TRX (like fixed:0.28) or \
                 pair:ADDRESS (a SunSwap V2 WTRX/USDT pair)"
            ))
        };
        let (kind, value) = text.split_once(':').ok_or_else(bad)?;
        match kind.trim() {
            "fixed" => TrxPrice::parse(value)
                .map(PriceSource::Fixed)
                .ok_or_else(bad),
            "pair" => value
                .trim()
                .parse()
                .map(PriceSource::Pair)
                .map_err(|_| bad()),
            _ => Err(bad()),
        }
    }
}

impl PriceSource {
    /// The configured source, else the pair the deployment names (the devnet's own).
    pub fn resolve(configured: Option<&str>, chain: &Chain) -> Result<Option<Self>> {
        match configured {
            Some(text) => Self::parse(text).map(Some),
            None => Ok(chain.deployment.price_pair.map(PriceSource::Pair)),
        }
    }
}

impl fmt::Display for PriceSource {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            PriceSource::Fixed(price) => write!(f, "fixed:{}", price.usdt_per_trx_text()),
            PriceSource::Pair(address) => write!(f, "pair:{address}"),
        }
    }
}

/// An exchange rate as a ratio of base units: `usdt` USDT base units buy `sun` sun. Both
/// tokens have 6 decimals, so a pair's reserves are such a ratio as they stand.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct TrxPrice {
    pub usdt: u128,
    pub sun: u128,
}

impl TrxPrice {
    /// USDT per TRX as text (`0.28`): above zero, to six decimals.
    pub fn parse(text: &str) -> Option<Self> {
        let usdt = parse_units(text.trim(), 6)
            .and_then(|v| u128::try_from(v).ok())
            .filter(|v| *v > 0)?;
        Some(TrxPrice {
            usdt,
            sun: 1_000_000,
        })
    }

    /// A UQ112x112 fixed-point price (Uniswap V2's: USDT base units per sun, times 2^112),
    /// as a ratio that fits in `u128`s.
    fn from_uq112(value: U256) -> Option<Self> {
        if value.is_zero() {
            return None;
        }
        // Drop low bits of both sides until the numerator fits; the ratio keeps ≥ 14 bits.
        let shift = value.bit_len().saturating_sub(127).min(98);
        let usdt = u128::try_from(value >> shift).ok()?;
        Some(TrxPrice {
            usdt,
            sun: 1u128 << (112 - shift),
        })
    }

    /// Whether this rate prices TRX above `other`.
    pub fn above(&self, other: &TrxPrice) -> bool {
        U256::from(self.usdt) * U256::from(other.sun)
            > U256::from(other.usdt) * U256::from(self.sun)
    }

    /// USDT base units worth `sun`, rounded up (a relayer never rounds in its own disfavour),
    /// scaled by `percent` (100 for the plain rate).
    pub(crate) fn usdt_for_sun(&self, sun: u128, percent: u128) -> U256 {
        let numerator = U256::from(sun) * U256::from(self.usdt) * U256::from(percent);
        let denominator = U256::from(self.sun) * U256::from(100u8);
        numerator.div_ceil(denominator)
    }

    /// The sun `usdt` (base units) buy at this rate, rounded down.
    pub(crate) fn sun_for_usdt(&self, usdt: U256) -> u128 {
        let sun = usdt * U256::from(self.sun) / U256::from(self.usdt.max(1));
        u128::try_from(sun).unwrap_or(u128::MAX)
    }

    /// USDT per TRX, for people.
    pub fn usdt_per_trx(&self) -> f64 {
        self.usdt as f64 / self.sun as f64
    }

    /// USDT per TRX to six decimals, rounded down.
    pub(crate) fn usdt_per_trx_text(&self) -> String {
        let micro = U256::from(self.usdt) * U256::from(1_000_000u32) / U256::from(self.sun);
        crate::service::format::six_decimals_text(micro)
    }
}

/// Which reading a quote's rate is.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum PriceBasis {
    /// The operator's fixed rate.
    Fixed,
    /// The pair's current reserves.
    Spot,
    /// The pair's time-weighted average over this many seconds, above its spot price.
    Average(u64),
    /// The operator's floor, above everything the pair says.
    Floor,
}

impl fmt::Display for PriceBasis {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            PriceBasis::Fixed => f.write_str("fixed"),
            PriceBasis::Spot => f.write_str("spot"),
            PriceBasis::Average(seconds) => write!(f, "average over {seconds} s"),
            PriceBasis::Floor => f.write_str("floor"),
        }
    }
}

/// A rate as it was read.
#[derive(Debug, Clone, PartialEq)]
pub struct PriceQuote {
    /// The rate to price with: the largest of the readings below.
    pub price: TrxPrice,
    /// The source, as configured (`fixed:0.28`, `pair:T…`).
    pub source: String,
    /// Seconds since the rate last moved: 0 for a fixed rate, the time since the pair's
    /// last trade otherwise.
    pub age_seconds: u64,
    /// Which reading `price` is.
    pub basis: PriceBasis,
    /// The pair's spot price (a fixed rate's own).
    pub spot: TrxPrice,
}

/// One reading of a pair's cumulative USDT-per-TRX price.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
struct Reading {
    /// The chain's time, in seconds, the cumulative price is brought up to.
    at: u64,
    /// Σ price × seconds (UQ112x112, wrapping), as of `at`.
    cumulative: U256,
}

/// The readings a feed remembers, oldest first, and the average they give.
#[derive(Debug, Default)]
struct Readings {
    kept: VecDeque<Reading>,
}

impl Readings {
    /// Remembers `now`, keeping the newest reading at least `window` old and nothing older.
    /// Readings closer together than a window's share of [`MAX_READINGS`] are not kept: an
    /// average needs one reading about a window old, not every one.
    fn record(&mut self, now: Reading, window: u64) {
        let gap = window / (MAX_READINGS as u64 / 2);
        if self
            .kept
            .back()
            .is_some_and(|last| last.at + gap.max(1) > now.at)
        {
            return;
        }
        self.kept.push_back(now);
        while self.kept.len() > MAX_READINGS
            || (self.kept.len() > 1 && self.kept[1].at + window <= now.at)
        {
            self.kept.pop_front();
        }
    }

    /// The average price from the newest reading at least `window` before `now` (else the
    /// oldest) up to `now`, and over how many seconds; `None` without an earlier reading.
    fn average(&self, now: Reading, window: u64) -> Option<(U256, u64)> {
        let from = self
            .kept
            .iter()
            .rev()
            .find(|r| r.at + window <= now.at)
            .or_else(|| self.kept.front())
            .filter(|r| r.at < now.at)?;
        let seconds = now.at - from.at;
        let sum = now.cumulative.wrapping_sub(from.cumulative);
        Some((sum / U256::from(seconds), seconds))
    }
}

/// A source and its cache.
pub struct PriceFeed {
    source: Option<PriceSource>,
    max_age: Duration,
    refresh: Duration,
    window: Duration,
    floor: Option<TrxPrice>,
    last: Mutex<Option<(Instant, PriceQuote)>>,
    readings: Mutex<Readings>,
}

impl PriceFeed {
    /// `source` `None`: no price, so no quote (a relayer answers 503).
    pub fn new(source: Option<PriceSource>, max_age: Duration) -> Self {
        PriceFeed {
            source,
            max_age,
            refresh: PAIR_TTL,
            window: DEFAULT_WINDOW,
            floor: None,
            last: Mutex::new(None),
            readings: Mutex::new(Readings::default()),
        }
    }

    /// Reads a pair again once its last reading is this old (zero: on every use).
    pub fn refresh_every(mut self, refresh: Duration) -> Self {
        self.refresh = refresh;
        self
    }

    /// Averages a pair's price over `window`.
    pub(crate) fn average_over(mut self, window: Duration) -> Self {
        self.window = window;
        self
    }

    /// Never prices TRX below `floor`, whatever the source says.
    pub fn floor(mut self, floor: Option<TrxPrice>) -> Self {
        self.floor = floor;
        self
    }

    pub fn source(&self) -> Option<&PriceSource> {
        self.source.as_ref()
    }

    /// How often a server reads a pair so that its average always has a reading about a
    /// window old; `None` for a source that is not a pair.
    pub(crate) fn sample_interval(&self) -> Option<Duration> {
        matches!(self.source, Some(PriceSource::Pair(_))).then(|| {
            (self.window / (MAX_READINGS as u32 / 2)).clamp(Duration::from_secs(3), PAIR_TTL * 6)
        })
    }

    /// The current rate, or [`Error::Disabled`] (503) saying why there is none.
    pub async fn current(&self, chain: &Chain) -> Result<PriceQuote> {
        let source = self.source.as_ref().ok_or_else(|| {
            Error::Disabled(
                "no TRX/USDT price source is configured (--price-source fixed:USDT_PER_TRX or \
                 pair:ADDRESS): without a price there is no fee"
                    .into(),
            )
        })?;
        let pair = match source {
            PriceSource::Fixed(price) => {
                return Ok(self.floored(PriceQuote {
                    price: *price,
                    source: source.to_string(),
                    age_seconds: 0,
                    basis: PriceBasis::Fixed,
                    spot: *price,
                }));
            }
            PriceSource::Pair(pair) => *pair,
        };
        if let Some((at, quote)) = self.cached()
            && at.elapsed() < self.refresh
        {
            return Ok(quote);
        }
        // The reason is the node's failure as a client may read it: this message reaches the
        // API's answers, where the node's URL must not.
        let state = read_pair(chain, pair).await.map_err(|e| {
            tracing::debug!(error = %e, "reading the TRX/USDT pair");
            Error::Disabled(format!(
                "the TRX/USDT price from pair {pair} is unavailable: {}",
                e.public_message()
            ))
        })?;
        if state.age_seconds > self.max_age.as_secs() {
            return Err(Error::Disabled(format!(
                "the TRX/USDT price from pair {pair} is stale: its last trade was {} s ago, \
                 more than the {} s allowed (--price-max-age)",
                state.age_seconds,
                self.max_age.as_secs()
            )));
        }
        let window = self.window.as_secs();
        let average = {
            let mut readings = self.readings.lock().unwrap_or_else(|e| e.into_inner());
            let average = readings.average(state.reading, window);
            readings.record(state.reading, window);
            average
        };
        let mut quote = PriceQuote {
            price: state.spot,
            source: source.to_string(),
            age_seconds: state.age_seconds,
            basis: PriceBasis::Spot,
            spot: state.spot,
        };
        if let Some((uq, seconds)) = average
            && let Some(average) = TrxPrice::from_uq112(uq).filter(|a| a.above(&state.spot))
        {
            quote.price = average;
            quote.basis = PriceBasis::Average(seconds);
        }
        let quote = self.floored(quote);
        *self.last.lock().unwrap_or_else(|e| e.into_inner()) =
            Some((Instant::now(), quote.clone()));
        Ok(quote)
    }

    /// `quote`, raised to the floor when it is below it.
    fn floored(&self, mut quote: PriceQuote) -> PriceQuote {
        if let Some(floor) = self.floor.filter(|f| f.above(&quote.price)) {
            quote.price = floor;
            quote.basis = PriceBasis::Floor;
        }
        quote
    }

    fn cached(&self) -> Option<(Instant, PriceQuote)> {
        self.last.lock().unwrap_or_else(|e| e.into_inner()).clone()
    }
}

/// What one read of a pair says.
struct PairState {
    spot: TrxPrice,
    age_seconds: u64,
    /// The cumulative USDT-per-TRX price brought up to the head block's time.
    reading: Reading,
}

/// Reads a WTRX/USDT pair: which side is USDT, the reserves, how long since they moved, and
/// the cumulative price as of now. A pair whose tokens are not this network's WTRX and USDT
/// is refused: any contract can answer `getReserves`.
async fn read_pair(chain: &Chain, pair: Address) -> Result<PairState> {
    let usdt = chain.deployment.usdt;
    let wtrx = chain.deployment.wtrx.ok_or_else(|| {
        Error::usage(format!(
            "this network's WTRX is unknown, so pair {pair}'s tokens cannot be checked: set \
             `wtrx` under [networks.{}] in the config file",
            chain.network
        ))
    })?;
    let (token0, token1, reserves, cumulative0, cumulative1, head) = tokio::try_join!(
        chain.view(pair, SunswapV2Pair::token0Call {}),
        chain.view(pair, SunswapV2Pair::token1Call {}),
        chain.view(pair, SunswapV2Pair::getReservesCall {}),
        chain.view(pair, SunswapV2Pair::price0CumulativeLastCall {}),
        chain.view(pair, SunswapV2Pair::price1CumulativeLastCall {}),
        chain.head(),
    )?;
    let (token0, token1) = (Address::from(token0), Address::from(token1));
    let (r0, r1) = (
        u128::try_from(reserves.reserve0).unwrap_or(u128::MAX),
        u128::try_from(reserves.reserve1).unwrap_or(u128::MAX),
    );
    // priceNCumulativeLast sums the other token per token N: USDT per WTRX is the WTRX side's.
    let (usdt_reserve, trx_reserve, cumulative) = if (token0, token1) == (wtrx, usdt) {
        (r1, r0, cumulative0)
    } else if (token0, token1) == (usdt, wtrx) {
        (r0, r1, cumulative1)
    } else {
        // The operator named the wrong pair: say so in the answers (nothing here is secret).
        return Err(Error::usage(format!(
            "its tokens ({token0}, {token1}) are not this network's WTRX {wtrx} and USDT {usdt}"
        )));
    };
    if usdt_reserve == 0 || trx_reserve == 0 {
        return Err(Error::usage("its reserves are empty"));
    }
    let now = u64::try_from(head.block.timestamp() / 1000).unwrap_or(0);
    let last = u64::from(reserves.blockTimestampLast);
    // As Uniswap V2's oracle library: since the last trade the price held at the reserves. A
    // last trade "after" the head (a node ahead of its own head block) adds nothing.
    let elapsed = now.saturating_sub(last);
    let spot_uq: U256 = (U256::from(usdt_reserve) << 112usize) / U256::from(trx_reserve);
    Ok(PairState {
        spot: TrxPrice {
            usdt: usdt_reserve,
            sun: trx_reserve,
        },
        age_seconds: elapsed,
        reading: Reading {
            at: now,
            cumulative: cumulative.wrapping_add(spot_uq.wrapping_mul(U256::from(elapsed))),
        },
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sources_parse_and_print_back() {
        let fixed = PriceSource::parse("fixed:0.28").unwrap();
        assert_eq!(
            fixed,
            PriceSource::Fixed(TrxPrice {
                usdt: 280_000,
                sun: 1_000_000
            })
        );
        assert_eq!(fixed.to_string(), "fixed:0.28");
        let address = "TR7NHqjeKQxGTCi8q8ZY4pL8otSzgjLj6t";
        let pair = PriceSource::parse(&format!("pair:{address}")).unwrap();
        assert_eq!(pair.to_string(), format!("pair:{address}"));
        for bad in [
            "0.28", "fixed:", "fixed:0", "fixed:-1", "fixed:x", "pair:T1", "oracle:1",
        ] {
            assert_eq!(PriceSource::parse(bad).unwrap_err().exit_code(), 2, "{bad}");
        }
    }

    #[test]
    fn conversions_round_up_and_scale() {
        let price = TrxPrice {
            usdt: 280_000,
            sun: 1_000_000,
        };
        // 32 TRX at 0.28 = 8.96 USDT; +20% = 10.752 USDT.
        assert_eq!(price.usdt_for_sun(32_000_000, 100), U256::from(8_960_000));
        assert_eq!(price.usdt_for_sun(32_000_000, 120), U256::from(10_752_000));
        // One sun is worth 0.28 base units: rounded up to 1.
        assert_eq!(price.usdt_for_sun(1, 100), U256::from(1));
        assert_eq!(price.usdt_for_sun(0, 100), U256::ZERO);
        // A pair's reserves near uint112's top do not overflow.
        let huge = TrxPrice {
            usdt: (1u128 << 112) - 1,
            sun: (1u128 << 112) - 1,
        };
        assert_eq!(
            huge.usdt_for_sun(i64::MAX as u128, 100),
            U256::from(i64::MAX)
        );
        assert_eq!(price.usdt_per_trx_text(), "0.28");
    }

    #[test]
    fn a_floor_raises_a_lower_price_and_leaves_a_higher_one() {
        let at = |text: &str| TrxPrice::parse(text).unwrap();
        let quote = |price: TrxPrice, basis| PriceQuote {
            price,
            source: "pair:T".into(),
            age_seconds: 0,
            basis,
            spot: price,
        };
        let feed = PriceFeed::new(None, DEFAULT_MAX_AGE).floor(Some(at("0.2")));
        let low = feed.floored(quote(at("0.14"), PriceBasis::Spot));
        assert_eq!((low.price, low.basis), (at("0.2"), PriceBasis::Floor));
        assert_eq!(low.spot, at("0.14"), "the spot price is still shown");
        let high = feed.floored(quote(at("0.28"), PriceBasis::Average(1_800)));
        assert_eq!(
            (high.price, high.basis),
            (at("0.28"), PriceBasis::Average(1_800))
        );
        assert_eq!(
            PriceBasis::Average(1_800).to_string(),
            "average over 1800 s"
        );
        for bad in ["0", "-1", "x", ""] {
            assert_eq!(TrxPrice::parse(bad), None, "{bad}");
        }
    }

    #[test]
    fn a_server_reads_a_pair_often_enough_for_its_window_and_nothing_else() {
        let pair = || Some(PriceSource::Pair(Address::ZERO));
        let feed = PriceFeed::new(pair(), DEFAULT_MAX_AGE);
        // 30 minutes over 32 readings, so a reading about a window old is always kept.
        assert_eq!(feed.sample_interval(), Some(Duration::from_millis(56_250)));
        let short = PriceFeed::new(pair(), DEFAULT_MAX_AGE).average_over(Duration::from_secs(10));
        assert_eq!(short.sample_interval(), Some(Duration::from_secs(3)));
        let long = PriceFeed::new(pair(), DEFAULT_MAX_AGE).average_over(Duration::from_secs(7200));
        assert_eq!(long.sample_interval(), Some(PAIR_TTL * 6));
        let fixed = PriceFeed::new(
            Some(PriceSource::parse("fixed:0.28").unwrap()),
            DEFAULT_MAX_AGE,
        );
        assert_eq!(fixed.sample_interval(), None);
        assert_eq!(
            PriceFeed::new(None, DEFAULT_MAX_AGE).sample_interval(),
            None
        );
    }

    /// 0.28 USDT per TRX as Uniswap V2's UQ112x112.
    fn uq(usdt: u64, sun: u64) -> U256 {
        (U256::from(usdt) << 112) / U256::from(sun)
    }

    fn reading(at: u64, cumulative: U256) -> Reading {
        Reading { at, cumulative }
    }

    #[test]
    fn a_uq112_price_reads_back_as_the_same_rate() {
        let price = TrxPrice::from_uq112(uq(280_000, 1_000_000)).unwrap();
        assert_eq!(price.usdt_per_trx_text(), "0.279999");
        assert!(!price.above(&TrxPrice::parse("0.28").unwrap()));
        assert!(price.above(&TrxPrice::parse("0.279998").unwrap()));
        // A price whose fixed point needs more than 127 bits keeps its ratio.
        let dear = TrxPrice::from_uq112(uq(1 << 40, 1)).unwrap();
        assert_eq!(dear.usdt_per_trx(), (1u64 << 40) as f64);
        assert_eq!(TrxPrice::from_uq112(U256::ZERO), None);
    }

    /// Two readings of the cumulative price give the average between them, however the price
    /// moved in between: a swap in the last block moves it by one block's share.
    #[test]
    fn the_average_spans_the_window_from_the_readings_kept() {
        let window = 1_800;
        let mut readings = Readings::default();
        let high = uq(280_000, 1_000_000);
        let low = uq(140_000, 1_000_000);
        // No earlier reading: no average.
        let first = reading(10_000, U256::from(7u8));
        assert_eq!(readings.average(first, window), None);
        readings.record(first, window);
        // 0.28 for 1,797 s, then 0.14 for the last 3.
        let now = reading(
            11_800,
            U256::from(7u8) + high * U256::from(1_797) + low * U256::from(3),
        );
        let (average, seconds) = readings.average(now, window).unwrap();
        assert_eq!(seconds, 1_800);
        let price = TrxPrice::from_uq112(average).unwrap();
        assert_eq!(price.usdt_per_trx_text(), "0.279766");
        readings.record(now, window);

        // Readings a minute apart for an hour: the average starts at the newest one at least
        // a window old, and what is older is forgotten.
        let mut readings = Readings::default();
        for minute in 0..=60u64 {
            readings.record(reading(minute * 60, high * U256::from(minute * 60)), window);
        }
        assert_eq!(readings.kept.front().unwrap().at, 30 * 60);
        assert!(readings.kept.len() <= MAX_READINGS);
        let now = reading(3_630, high * U256::from(3_630u64));
        assert_eq!(readings.average(now, window).unwrap().1, 1_830);
        // A reading that is not newer than the last changes nothing.
        let before = readings.kept.len();
        readings.record(reading(3_600, U256::ZERO), window);
        assert_eq!(readings.kept.len(), before);
        // The cumulative price wraps by design: the difference still holds.
        let mut readings = Readings::default();
        readings.record(reading(0, U256::MAX - high + U256::from(1u8)), window);
        let (average, _) = readings
            .average(reading(100, high * U256::from(99u8)), window)
            .unwrap();
        assert_eq!(average, high);

        // Read every second, the feed keeps at most MAX_READINGS.
        let mut readings = Readings::default();
        for second in 0..5_000u64 {
            readings.record(reading(second, high * U256::from(second)), window);
        }
        assert!(readings.kept.len() <= MAX_READINGS);
        assert!(readings.kept.front().unwrap().at + window <= 4_999);
    }
}
