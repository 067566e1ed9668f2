//! The BN254 scalar field as the outside world writes it: 32-byte big-endian words (ABI
//! `uint256`, `bytes32`), `0x` hex and decimal. Every way in rejects values ≥ r instead of
//! reducing them: `x` and `x + r` are the same field element, and a contract that keyed spent
//! notes by the raw word would let the second one spend again.

use alloy_primitives::U256;
use ark_ff::{BigInteger, PrimeField};

use crate::Fr;

/// r, the order of BN254's scalar field.
pub const MODULUS: U256 = U256::from_limbs([
    0x43e1f593f0000001,
    0x2833e84879b97091,
    0xb85045b68181585d,
    0x30644e72e131a029,
]);

#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum FieldError {
    #[error("{what} is not below the field modulus r")]
    NotCanonical { what: String },
    #[error("{what} is not a 32-byte hex value: {reason}")]
    BadHex { what: String, reason: String },
    #[error("{what} is not a decimal number")]
    BadDecimal { what: String },
}

/// A 256-bit word as a field element, refusing words ≥ r.
pub fn from_u256(value: U256, what: &str) -> Result<Fr, FieldError> {
    if value >= MODULUS {
        return Err(FieldError::NotCanonical { what: what.into() });
    }
    Ok(Fr::from_be_bytes_mod_order(&value.to_be_bytes::<32>()))
}

pub fn to_u256(value: &Fr) -> U256 {
    U256::from_be_bytes(to_be_bytes(value))
}

/// 32 big-endian bytes as a field element, refusing values ≥ r.
pub fn from_be_bytes(bytes: &[u8; 32], what: &str) -> Result<Fr, FieldError> {
    from_u256(U256::from_be_bytes(*bytes), what)
}

/// The element as it is held in memory (Montgomery form, little-endian limbs), for a cache
/// on this machine that must reload millions of nodes without a multiplication each. Not a
/// wire format: every other reader wants [`to_be_bytes`].
pub fn to_montgomery_le(value: &Fr) -> [u8; 32] {
    let mut out = [0u8; 32];
    for (bytes, limb) in out.chunks_exact_mut(8).zip(value.0.0) {
        bytes.copy_from_slice(&limb.to_le_bytes());
    }
    out
}

/// Reads [`to_montgomery_le`] back; `None` for bytes no element has (not below the modulus).
pub fn from_montgomery_le(bytes: &[u8; 32]) -> Option<Fr> {
    let mut limbs = [0u64; 4];
    for (limb, chunk) in limbs.iter_mut().zip(bytes.chunks_exact(8)) {
        *limb = u64::from_le_bytes(chunk.try_into().expect("8 bytes"));
    }
    let raw = ark_ff::BigInt(limbs);
    (raw < Fr::MODULUS).then(|| Fr::new_unchecked(raw))
}

pub fn to_be_bytes(value: &Fr) -> [u8; 32] {
    let bytes = value.into_bigint().to_bytes_be();
    let mut out = [0u8; 32];
    out[32 - bytes.len()..].copy_from_slice(&bytes);
    out
}

/// `0x` + 64 lower-case hex digits.
pub fn to_hex(value: &Fr) -> String {
    format!("0x{}", hex::encode(to_be_bytes(value)))
}

/// Hex with or without `0x`, up to 64 digits, below r.
pub fn from_hex(s: &str, what: &str) -> Result<Fr, FieldError> {
    let digits = s.trim().trim_start_matches("0x").trim_start_matches("0X");
    let bad = |reason: &str| FieldError::BadHex {
        what: what.into(),
        reason: reason.into(),
    };
    if digits.is_empty() {
        return Err(bad("empty"));
    }
    if digits.len() > 64 {
        return Err(bad("more than 64 digits"));
    }
    if !digits.chars().all(|c| c.is_ascii_hexdigit()) {
        return Err(bad("not hex"));
    }
    let value = U256::from_str_radix(digits, 16).map_err(|e| bad(&e.to_string()))?;
    from_u256(value, what)
}

pub fn to_decimal(value: &Fr) -> String {
    to_u256(value).to_string()
}

pub fn from_decimal(s: &str, what: &str) -> Result<Fr, FieldError> {
    let s = s.trim();
    if s.is_empty() || !s.chars().all(|c| c.is_ascii_digit()) {
        return Err(FieldError::BadDecimal { what: what.into() });
    }
    let value =
        U256::from_str_radix(s, 10).map_err(|_| FieldError::NotCanonical { what: what.into() })?;
    from_u256(value, what)
}

/// A 20-byte account (the TVM's `address`) as the field element the circuit binds.
pub fn from_address(address: &[u8; 20]) -> Fr {
    Fr::from_be_bytes_mod_order(address)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn montgomery_bytes_round_trip_and_refuse_what_is_not_an_element() {
        for value in [
            Fr::from(0u64),
            Fr::from(1u64),
            -Fr::from(1u64),
            Fr::from(u64::MAX),
        ] {
            assert_eq!(from_montgomery_le(&to_montgomery_le(&value)), Some(value));
        }
        // Not the canonical bytes: the in-memory form of 1 is R mod r.
        assert_ne!(to_montgomery_le(&Fr::from(1u64))[0..8], 1u64.to_le_bytes());
        let mut modulus = [0u8; 32];
        for (bytes, limb) in modulus.chunks_exact_mut(8).zip(Fr::MODULUS.0) {
            bytes.copy_from_slice(&limb.to_le_bytes());
        }
        assert_eq!(from_montgomery_le(&modulus), None);
        assert_eq!(from_montgomery_le(&[0xff; 32]), None);
    }

    #[test]
    fn modulus_is_r() {
        assert_eq!(
            MODULUS.to_string(),
            "21888242871839275222246405745257275088548364400416034343698204186575808495617"
        );
        assert_eq!(
            Fr::MODULUS.to_bytes_be(),
            MODULUS.to_be_bytes::<32>().to_vec()
        );
    }

    #[test]
    fn refuses_values_at_or_above_r() {
        assert!(from_u256(MODULUS, "x").is_err());
        assert!(from_u256(MODULUS - U256::from(1), "x").is_ok());
        assert!(
            from_hex(
                "0x30644e72e131a029b85045b68181585d2833e84879b9709143e1f593f0000001",
                "x"
            )
            .is_err()
        );
        assert!(from_decimal(&MODULUS.to_string(), "x").is_err());
        assert!(from_decimal("12a", "x").is_err());
        assert!(from_hex("0x", "x").is_err());
    }

    #[test]
    fn round_trips() {
        let x = Fr::from(123_456_789u64);
        assert_eq!(from_hex(&to_hex(&x), "x").unwrap(), x);
        assert_eq!(from_decimal(&to_decimal(&x), "x").unwrap(), x);
        assert_eq!(from_be_bytes(&to_be_bytes(&x), "x").unwrap(), x);
        assert_eq!(to_decimal(&x), "123456789");
        let a = [0xffu8; 20];
        assert_eq!(to_u256(&from_address(&a)), U256::from_be_slice(&a));
    }
}
