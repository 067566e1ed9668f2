//! Reading what a caller typed or sent (addresses, 32-byte words, proofs, amounts) into
//! checked values, each refusal naming the field and what was expected.

use alloy_primitives::{B256, U256};
use tron::Address;
use zk::proof::EncodedProof;

use crate::error::{Error, Result};

/// USDT has 6 decimals, on TRON and on the devnet.
pub(crate) const USDT_DECIMALS: u32 = 6;
pub(crate) const USDT_UNIT: u64 = 1_000_000;

/// The longest an address can be: `0x41` and 40 hex digits (base58 is 34).
pub(crate) const MAX_ADDRESS_LEN: usize = 44;

/// A base58 (`T…`) or hex (`41…`) address. Anything longer than an address can be is refused
/// by its length alone, before any decoding.
pub fn address(text: &str, field: &str) -> Result<Address> {
    let text = text.trim();
    if text.len() > MAX_ADDRESS_LEN {
        return Err(Error::usage(format!(
            "{field}: not a TRON address: {} characters, more than any address has",
            text.len()
        )));
    }
    text.parse()
        .map_err(|e| Error::usage(format!("{field}: {e}")))
}

/// A field element as the contracts take it: `0x` and 64 hex digits, below the BN254 scalar
/// field's modulus r (a value ≥ r would be a second name for the same element).
pub fn word(text: &str, field: &str) -> Result<B256> {
    let digits = text
        .strip_prefix("0x")
        .or_else(|| text.strip_prefix("0X"))
        .filter(|d| d.len() == 64 && d.bytes().all(|b| b.is_ascii_hexdigit()))
        .ok_or_else(|| {
            Error::usage(format!(
                "{field} must be 0x followed by 64 hex digits, got {}",
                describe(text)
            ))
        })?;
    let bytes: [u8; 32] = hex::decode(digits)
        .expect("checked hex")
        .try_into()
        .expect("checked length");
    zk::field::from_be_bytes(&bytes, field).map_err(|e| Error::usage(e.to_string()))?;
    Ok(B256::from(bytes))
}

/// A transaction id: 64 hex digits, with or without `0x`.
pub fn txid(text: &str) -> Result<tron::TxId> {
    let digits = text
        .strip_prefix("0x")
        .or_else(|| text.strip_prefix("0X"))
        .unwrap_or(text);
    Some(digits)
        .filter(|d| d.len() == 64)
        .and_then(|d| d.parse().ok())
        .ok_or_else(|| {
            Error::usage(format!(
                "txid must be 64 hex digits, got {}",
                describe(text)
            ))
        })
}

/// A Groth16 proof as the pool takes it: `0x` and 512 hex digits (eight words). Only the
/// form is checked here; whether it verifies is the caller's next step.
pub fn proof(text: &str) -> Result<EncodedProof> {
    let digits = text
        .strip_prefix("0x")
        .or_else(|| text.strip_prefix("0X"))
        .filter(|d| d.len() == 512 && d.bytes().all(|b| b.is_ascii_hexdigit()))
        .ok_or_else(|| {
            Error::usage(format!(
                "proof must be 0x followed by 512 hex digits (8 words), got {}",
                describe(text)
            ))
        })?;
    let bytes = hex::decode(digits).expect("checked hex");
    EncodedProof::from_bytes(&bytes).map_err(|e| Error::usage(format!("proof: {e}")))
}

/// A denomination as a path segment or a string field: whole USDT, digits only, at most 12
/// of them (`None` for anything else, checked by length and alphabet before parsing).
pub fn denomination(text: &str) -> Option<u64> {
    let text = text.trim();
    if text.is_empty() || text.len() > 12 || !text.bytes().all(|b| b.is_ascii_digit()) {
        return None;
    }
    text.parse().ok()
}

/// A page's position or size from a query parameter: digits only, at most 10 of them, below
/// 2^32 (checked by length and alphabet before parsing).
pub fn count(text: &str, field: &str) -> Result<u32> {
    let bad = || Error::usage(format!("{field} must be a whole number below 4294967296"));
    if text.is_empty() || text.len() > 10 || !text.bytes().all(|b| b.is_ascii_digit()) {
        return Err(bad());
    }
    text.parse().map_err(|_| bad())
}

/// `from` and `limit` from a query string (`?from=N&limit=M`, both optional: 0 and
/// `default_limit`); any other parameter, or one given twice, is refused.
pub(crate) fn page_query(query: Option<&str>, default_limit: u32) -> Result<(u32, u32)> {
    let page = query_params(query, &["from", "limit"])?;
    Ok(page.page(default_limit))
}

/// How a page of a pool's leaves is written (`?format=`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum LeafFormat {
    /// One object a leaf (the default).
    Entries,
    /// Each field of the page as one string or array (`format=packed`), for syncs.
    Packed,
}

/// `from`, `limit` and `format` for a page of leaves; `limits` are the default (and cap) of
/// each format, entries first.
pub(crate) fn leaves_query(
    query: Option<&str>,
    limits: (u32, u32),
) -> Result<(u32, u32, LeafFormat)> {
    let page = query_params(query, &["from", "limit", "format"])?;
    let format = match page.format.as_deref() {
        None | Some("entries") => LeafFormat::Entries,
        Some("packed") => LeafFormat::Packed,
        Some(other) => {
            return Err(Error::usage(format!(
                "format `{}` is not one of entries, packed",
                other.chars().take(32).collect::<String>()
            )));
        }
    };
    let default = match format {
        LeafFormat::Entries => limits.0,
        LeafFormat::Packed => limits.1,
    };
    let (from, limit) = page.page(default);
    Ok((from, limit, format))
}

/// A page's parameters as given.
#[derive(Default)]
struct PageParams {
    from: Option<u32>,
    limit: Option<u32>,
    format: Option<String>,
}

impl PageParams {
    fn page(&self, default_limit: u32) -> (u32, u32) {
        (self.from.unwrap_or(0), self.limit.unwrap_or(default_limit))
    }
}

/// Reads the parameters an endpoint takes (`allowed`); any other, or one given twice, is
/// refused.
fn query_params(query: Option<&str>, allowed: &[&str]) -> Result<PageParams> {
    let mut page = PageParams::default();
    let mut seen = Vec::new();
    for (key, value) in url::form_urlencoded::parse(query.unwrap_or("").as_bytes()) {
        if !allowed.contains(&key.as_ref()) {
            return Err(Error::usage(format!(
                "unknown query parameter `{}` (this endpoint takes {})",
                key.chars().take(32).collect::<String>(),
                allowed.join(", ")
            )));
        }
        if seen.contains(&key) {
            return Err(Error::usage(format!("`{key}` is given twice")));
        }
        match key.as_ref() {
            "from" => page.from = Some(count(&value, &key)?),
            "limit" => page.limit = Some(count(&value, &key)?),
            _ => page.format = Some(value.to_string()),
        }
        seen.push(key);
    }
    Ok(page)
}

/// A USDT amount in whole units with up to 6 decimals (`"12.5"`, `100`), as base units.
pub(crate) fn usdt_amount(value: &serde_json::Value, field: &str) -> Result<U256> {
    let text = match value {
        serde_json::Value::String(s) => s.trim().to_owned(),
        serde_json::Value::Number(n) => n.to_string(),
        _ => {
            return Err(Error::usage(format!(
                "{field} must be a number of USDT (like 100 or \"12.5\")"
            )));
        }
    };
    parse_units(&text, USDT_DECIMALS)
        .ok_or_else(|| Error::usage(format!("{field}: `{text}` is not an amount of USDT")))
}

/// An amount in base units (USDT's 6 decimals, or sun): a non-negative integer, as a JSON
/// number or a decimal string (for values past 2^53).
pub(crate) fn base_units(value: &serde_json::Value, field: &str) -> Result<U256> {
    let parsed = match value {
        serde_json::Value::Number(n) => n.as_u64().map(U256::from),
        serde_json::Value::String(s) if !s.is_empty() && s.bytes().all(|b| b.is_ascii_digit()) => {
            s.parse::<U256>().ok()
        }
        _ => None,
    };
    parsed.ok_or_else(|| {
        Error::usage(format!(
            "{field} must be a whole number of base units (a number or a decimal string)"
        ))
    })
}

/// `"12.5"` with 6 decimals → 12500000. No sign, no exponent, no more decimals than the
/// token has.
pub(crate) fn parse_units(text: &str, decimals: u32) -> Option<U256> {
    let (whole, frac) = text.split_once('.').unwrap_or((text, ""));
    if whole.is_empty() && frac.is_empty() {
        return None;
    }
    let digits = |s: &str| s.bytes().all(|b| b.is_ascii_digit());
    if !digits(whole) || !digits(frac) || frac.len() > decimals as usize || whole.len() > 60 {
        return None;
    }
    let whole: U256 = if whole.is_empty() {
        U256::ZERO
    } else {
        whole.parse().ok()?
    };
    let frac_value: U256 = if frac.is_empty() {
        U256::ZERO
    } else {
        format!("{frac:0<width$}", width = decimals as usize)
            .parse()
            .ok()?
    };
    whole
        .checked_mul(U256::from(10u64).pow(U256::from(decimals)))?
        .checked_add(frac_value)
}

/// A short, safe rendering of bad input for an error message (its length in bytes: counting
/// the characters of a 64 KB string would be work an attacker chose for us).
fn describe(text: &str) -> String {
    let shown: String = text.chars().take(24).collect();
    let more = if text.len() > shown.len() { "…" } else { "" };
    format!("`{shown}{more}` ({} bytes)", text.len())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn page_queries_take_from_and_limit_only_as_small_whole_numbers() {
        assert_eq!(page_query(None, 1000).unwrap(), (0, 1000));
        assert_eq!(page_query(Some("from=5&limit=20"), 1000).unwrap(), (5, 20));
        assert_eq!(page_query(Some("limit=7"), 1000).unwrap(), (0, 7));
        for bad in [
            "from=-1",
            "from=1.5",
            "from=",
            "from=99999999999",
            "from=4294967296",
            "limit=0x10",
            "from=1&from=2",
            "offset=3",
        ] {
            assert!(page_query(Some(bad), 1000).is_err(), "{bad}");
        }
        // Only the leaves take a format, and each format has its own default page.
        assert!(page_query(Some("format=packed"), 1000).is_err());
        let limits = (1000, 65_536);
        assert_eq!(
            leaves_query(None, limits).unwrap(),
            (0, 1000, LeafFormat::Entries)
        );
        assert_eq!(
            leaves_query(Some("format=packed&from=3"), limits).unwrap(),
            (3, 65_536, LeafFormat::Packed)
        );
        assert_eq!(
            leaves_query(Some("format=entries&limit=9"), limits).unwrap(),
            (0, 9, LeafFormat::Entries)
        );
        for bad in [
            "format=",
            "format=hex",
            "format=packed&format=packed",
            "offset=1",
        ] {
            assert!(leaves_query(Some(bad), limits).is_err(), "{bad}");
        }
    }

    #[test]
    fn words_are_checked_for_form_and_range() {
        let ok = format!("0x{}", "0".repeat(63) + "1");
        assert_eq!(word(&ok, "root").unwrap(), B256::with_last_byte(1));
        for bad in [
            "",
            "0x",
            "0x12",
            &"f".repeat(64),
            &format!("0x{}", "g".repeat(64)),
        ] {
            let e = word(bad, "root").unwrap_err().to_string();
            assert!(e.starts_with("root must be 0x"), "{e}");
        }
        // r itself is out of range.
        let r = "0x30644e72e131a029b85045b68181585d2833e84879b9709143e1f593f0000001";
        assert!(word(r, "root").unwrap_err().to_string().contains("root"));
    }

    #[test]
    fn amounts_parse_exactly() {
        assert_eq!(parse_units("12.5", 6), Some(U256::from(12_500_000u64)));
        assert_eq!(parse_units("100", 6), Some(U256::from(100_000_000u64)));
        assert_eq!(parse_units(".5", 6), Some(U256::from(500_000u64)));
        for bad in ["", ".", "1.0000001", "-1", "1e6", "1,5", " 1"] {
            assert_eq!(parse_units(bad, 6), None, "{bad}");
        }
        assert_eq!(denomination("100"), Some(100));
        assert_eq!(denomination("1e2"), None);
        assert_eq!(denomination("-100"), None);
    }
}
