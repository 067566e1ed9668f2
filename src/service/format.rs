//! How amounts and words read in answers and messages: one owner for the formats that the
//! API, the CLI and the errors all print.

use alloy_primitives::{B256, U256};

use crate::service::inputs::USDT_DECIMALS;
use crate::units::format_units;

/// An amount in base units of a 6-decimal token (USDT, or TRX in sun) as the API's number
/// in whole units; exact up to 2^53 base units, past which the `…Raw` string is the truth.
pub(crate) fn six_decimals(raw: U256) -> f64 {
    six_decimals_text(raw).parse().unwrap_or(f64::MAX)
}

/// The same amount as exact decimal text (`"12.5"`), for messages.
pub(crate) fn six_decimals_text(raw: U256) -> String {
    let raw = u128::try_from(raw).unwrap_or(u128::MAX);
    format_units(raw.min(i128::MAX as u128) as i128, USDT_DECIMALS)
}

/// `0x` + 64 hex digits.
pub(crate) fn word_hex(word: &B256) -> String {
    format!("0x{}", hex::encode(word))
}
