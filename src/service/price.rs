//! What TRX is worth in USDT: the rate a relayer turns the TRX it burns into the USDT fee it
//! asks, and a client checks a relayer's quote against.
//!
//! The operator chooses the source: a fixed rate from the configuration, or the reserves of a
//! SunSwap V2 WTRX/USDT pair read on chain (`getReserves`, `token0`, `token1` through
//! `triggerconstantcontract`, so any node will do). A pair's answer is cached briefly and
//! trusted only while the pair itself is fresh: `blockTimestampLast` moves with every swap,
//! so a pair nobody has traded for longer than the maximum age is a stale price. Without a
//! usable price there is no quote: callers refuse work rather than guess.
//!
//! A pair's spot price can be pushed by a large swap. A relayer that worries about that
//! sets a fixed rate (or a floor fee per pool, see `relayer_fees`), which no trade moves.

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
            "fixed" => {
                let usdt = parse_units(value.trim(), 6)
                    .and_then(|v| u128::try_from(v).ok())
                    .filter(|v| *v > 0)
                    .ok_or_else(bad)?;
                Ok(PriceSource::Fixed(TrxPrice {
                    usdt,
                    sun: 1_000_000,
                }))
            }
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
    /// USDT base units worth `sun`, rounded up (a relayer never rounds in its own disfavour),
    /// scaled by `percent` (100 for the plain rate).
    pub fn usdt_for_sun(&self, sun: u128, percent: u128) -> U256 {
        let numerator = U256::from(sun) * U256::from(self.usdt) * U256::from(percent);
        let denominator = U256::from(self.sun) * U256::from(100u8);
        numerator.div_ceil(denominator)
    }

    /// USDT per TRX, for people.
    pub fn usdt_per_trx(&self) -> f64 {
        self.usdt as f64 / self.sun as f64
    }

    /// USDT per TRX to six decimals, rounded down.
    pub fn usdt_per_trx_text(&self) -> String {
        let micro = U256::from(self.usdt) * U256::from(1_000_000u32) / U256::from(self.sun);
        crate::service::pools::six_decimals_text(micro)
    }
}

/// A rate as it was read.
#[derive(Debug, Clone, PartialEq)]
pub struct PriceQuote {
    pub price: TrxPrice,
    /// The source, as configured (`fixed:0.28`, `pair:T…`).
    pub source: String,
    /// Seconds since the rate last moved: 0 for a fixed rate, the time since the pair's
    /// last trade otherwise.
    pub age_seconds: u64,
}

/// A source and its cache.
pub struct PriceFeed {
    source: Option<PriceSource>,
    max_age: Duration,
    refresh: Duration,
    last: Mutex<Option<(Instant, PriceQuote)>>,
}

impl PriceFeed {
    /// `source` `None`: no price, so no quote (a relayer answers 503).
    pub fn new(source: Option<PriceSource>, max_age: Duration) -> Self {
        PriceFeed {
            source,
            max_age,
            refresh: PAIR_TTL,
            last: Mutex::new(None),
        }
    }

    /// Reads a pair again once its last reading is this old (zero: on every use).
    pub fn refresh_every(mut self, refresh: Duration) -> Self {
        self.refresh = refresh;
        self
    }

    pub fn source(&self) -> Option<&PriceSource> {
        self.source.as_ref()
    }

    pub fn max_age(&self) -> Duration {
        self.max_age
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
                return Ok(PriceQuote {
                    price: *price,
                    source: source.to_string(),
                    age_seconds: 0,
                });
            }
            PriceSource::Pair(pair) => *pair,
        };
        if let Some((at, quote)) = self.cached() {
            if at.elapsed() < self.refresh {
                return Ok(quote);
            }
        }
        // The reason is the node's failure as a client may read it: this message reaches the
        // API's answers, where the node's URL must not.
        let quote = read_pair(chain, pair, source).await.map_err(|e| {
            tracing::debug!(error = %e, "reading the TRX/USDT pair");
            Error::Disabled(format!(
                "the TRX/USDT price from pair {pair} is unavailable: {}",
                e.public_message()
            ))
        })?;
        if quote.age_seconds > self.max_age.as_secs() {
            return Err(Error::Disabled(format!(
                "the TRX/USDT price from pair {pair} is stale: its last trade was {} s ago, \
                 more than the {} s allowed (--price-max-age)",
                quote.age_seconds,
                self.max_age.as_secs()
            )));
        }
        *self.last.lock().unwrap_or_else(|e| e.into_inner()) =
            Some((Instant::now(), quote.clone()));
        Ok(quote)
    }

    fn cached(&self) -> Option<(Instant, PriceQuote)> {
        self.last.lock().unwrap_or_else(|e| e.into_inner()).clone()
    }
}

/// Reads a WTRX/USDT pair: which side is USDT, the reserves, and how long since they moved.
async fn read_pair(chain: &Chain, pair: Address, source: &PriceSource) -> Result<PriceQuote> {
    let usdt = chain.deployment.usdt;
    let (token0, token1, reserves, head) = tokio::try_join!(
        chain.view(pair, SunswapV2Pair::token0Call {}),
        chain.view(pair, SunswapV2Pair::token1Call {}),
        chain.view(pair, SunswapV2Pair::getReservesCall {}),
        chain.head(),
    )?;
    let (token0, token1) = (Address::from(token0), Address::from(token1));
    let (r0, r1) = (
        u128::try_from(reserves.reserve0).unwrap_or(u128::MAX),
        u128::try_from(reserves.reserve1).unwrap_or(u128::MAX),
    );
    let (usdt_reserve, trx_reserve) = if token1 == usdt {
        (r1, r0)
    } else if token0 == usdt {
        (r0, r1)
    } else {
        return Err(Error::Failed(format!(
            "neither of its tokens ({token0}, {token1}) is this network's USDT {usdt}"
        )));
    };
    if usdt_reserve == 0 || trx_reserve == 0 {
        return Err(Error::Failed("its reserves are empty".into()));
    }
    let head_seconds = u64::try_from(head.block.timestamp() / 1000).unwrap_or(0);
    let age_seconds = head_seconds.saturating_sub(u64::from(reserves.blockTimestampLast));
    Ok(PriceQuote {
        price: TrxPrice {
            usdt: usdt_reserve,
            sun: trx_reserve,
        },
        source: source.to_string(),
        age_seconds,
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
}
