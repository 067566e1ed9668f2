//! The fee a relayer asks per pool, in USDT base units.
//!
//! A relayed withdrawal burns about 325k energy (≈ 32 TRX at 100 sun per unit without staked
//! energy), so the default is 1 USDT or 0.3% of the denomination, whichever is more; an
//! operator sets their own per denomination.

use std::collections::BTreeMap;

use crate::error::{Error, Result};
use crate::service::inputs::{USDT_DECIMALS, USDT_UNIT, parse_units};

#[derive(Debug, Clone, Default)]
pub struct RelayerFees {
    overrides: BTreeMap<u64, u64>,
}

impl RelayerFees {
    /// The default fee for a pool of `denomination` whole USDT.
    pub fn default_fee(denomination: u64) -> u64 {
        let base = denomination.saturating_mul(USDT_UNIT);
        (base / 1000 * 3).max(USDT_UNIT).min(base)
    }

    /// Reads `DENOM=FEE` settings (`100=0.5`: half a USDT on the 100 pool).
    pub fn parse(specs: &[String]) -> Result<Self> {
        let mut overrides = BTreeMap::new();
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
            overrides.insert(denom, fee);
        }
        Ok(RelayerFees { overrides })
    }

    /// The fee for a pool, in base units.
    pub fn fee(&self, denomination: u64) -> u64 {
        self.overrides
            .get(&denomination)
            .copied()
            .unwrap_or_else(|| Self::default_fee(denomination))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn defaults_and_overrides() {
        assert_eq!(RelayerFees::default_fee(100), 1_000_000);
        assert_eq!(RelayerFees::default_fee(10_000), 30_000_000);
        let fees = RelayerFees::parse(&["100=0.5".into()]).unwrap();
        assert_eq!(fees.fee(100), 500_000);
        assert_eq!(fees.fee(1000), 3_000_000);
        for bad in ["100", "x=1", "100=-1", "100=101", "100=0.0000001"] {
            assert!(RelayerFees::parse(&[bad.into()]).is_err(), "{bad}");
        }
    }
}
