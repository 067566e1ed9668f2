//! secp256k1 keys and TRON's 65-byte recoverable signatures.
//!
//! TRON signs the 32-byte txID directly (no message prefix), RFC 6979 deterministic nonces and
//! low-s, as java-tron, tronpy and TronWeb do, so the same key over the same transaction gives
//! the same `r‖s` everywhere; only the `v` byte differs between clients (0/1 or 27/28).

use std::fmt;
use std::str::FromStr;

use k256::ecdsa::{RecoveryId, Signature as EcdsaSignature, SigningKey, VerifyingKey};
use sha3::{Digest, Keccak256};
use zeroize::Zeroizing;

use crate::address::Address;

/// Why a key or signature could not be used.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum KeyError {
    #[error("a private key is 64 hex digits, got {0} characters")]
    KeyLength(usize),
    #[error("the private key is not hex (character {0})")]
    KeyNotHex(usize),
    #[error("the private key is zero or not below the curve order")]
    KeyOutOfRange,
    #[error("a signature is 65 bytes (r‖s‖v), got {0}")]
    SignatureLength(usize),
    #[error("signature recovery byte {0} is not 0, 1, 27 or 28")]
    BadRecoveryId(u8),
    #[error("the signature is not a valid secp256k1 signature")]
    BadSignature,
    #[error("no public key can be recovered from this signature")]
    RecoveryFailed,
}

/// A secp256k1 private key. Zeroized when dropped; `Debug` never shows it.
#[derive(Clone)]
pub struct PrivateKey(SigningKey);

impl PrivateKey {
    /// A fresh key from the operating system's random source.
    pub fn generate() -> Self {
        PrivateKey(SigningKey::random(&mut rand_core::OsRng))
    }

    /// Reads 32 big-endian bytes.
    pub fn from_bytes(bytes: &[u8; 32]) -> Result<Self, KeyError> {
        SigningKey::from_bytes(bytes.into())
            .map(PrivateKey)
            .map_err(|_| KeyError::KeyOutOfRange)
    }

    /// Reads 64 hex digits, with or without `0x`, ignoring surrounding white space (keys pasted
    /// into a prompt or a file usually end with a newline).
    pub fn from_hex(s: &str) -> Result<Self, KeyError> {
        let s = s.trim();
        let digits = s
            .strip_prefix("0x")
            .or_else(|| s.strip_prefix("0X"))
            .unwrap_or(s);
        if let Some(i) = digits.chars().position(|c| !c.is_ascii_hexdigit()) {
            return Err(KeyError::KeyNotHex(i + 1));
        }
        if digits.len() != 64 {
            return Err(KeyError::KeyLength(digits.len()));
        }
        let mut bytes = Zeroizing::new([0u8; 32]);
        hex::decode_to_slice(digits, bytes.as_mut()).map_err(|_| KeyError::KeyNotHex(0))?;
        Self::from_bytes(&bytes)
    }

    /// The key as 64 lower-case hex digits, in memory that is wiped when dropped.
    pub fn to_hex(&self) -> Zeroizing<String> {
        Zeroizing::new(hex::encode(self.0.to_bytes()))
    }

    /// The uncompressed public key without its `04` tag, as TRON hashes it.
    pub fn public_key(&self) -> [u8; 64] {
        public_key_bytes(self.0.verifying_key())
    }

    pub fn address(&self) -> Address {
        address_of(self.0.verifying_key())
    }

    /// Signs a 32-byte digest (a txID) with a low-s RFC 6979 signature; `v` is 0 or 1.
    pub fn sign_digest(&self, digest: &[u8; 32]) -> Signature {
        let (sig, recid) = self
            .0
            .sign_prehash_recoverable(digest)
            .expect("a 32-byte prehash is always signable");
        let mut out = [0u8; 65];
        out[..64].copy_from_slice(&sig.to_bytes());
        out[64] = recid.to_byte();
        Signature(out)
    }
}

impl fmt::Debug for PrivateKey {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "PrivateKey({}, secret redacted)", self.address())
    }
}

/// A 65-byte `r‖s‖v` signature, kept as given (v may be 0/1 or 27/28).
#[derive(Clone, Copy, PartialEq, Eq, Hash)]
pub struct Signature([u8; 65]);

impl Signature {
    pub fn from_slice(bytes: &[u8]) -> Result<Self, KeyError> {
        let arr: [u8; 65] = bytes
            .try_into()
            .map_err(|_| KeyError::SignatureLength(bytes.len()))?;
        Ok(Signature(arr))
    }

    pub fn as_bytes(&self) -> &[u8; 65] {
        &self.0
    }

    pub fn to_hex(&self) -> String {
        hex::encode(self.0)
    }

    /// The recovery id, accepting both conventions the node accepts (0/1 and 27/28).
    pub fn recovery_id(&self) -> Result<u8, KeyError> {
        match self.0[64] {
            v @ (0 | 1) => Ok(v),
            v @ (27 | 28) => Ok(v - 27),
            v => Err(KeyError::BadRecoveryId(v)),
        }
    }

    /// The address whose key made this signature over `digest`.
    pub fn recover(&self, digest: &[u8; 32]) -> Result<Address, KeyError> {
        let recid = RecoveryId::from_byte(self.recovery_id()?).ok_or(KeyError::RecoveryFailed)?;
        let sig = EcdsaSignature::from_slice(&self.0[..64]).map_err(|_| KeyError::BadSignature)?;
        let key = VerifyingKey::recover_from_prehash(digest, &sig, recid)
            .map_err(|_| KeyError::RecoveryFailed)?;
        Ok(address_of(&key))
    }
}

impl FromStr for Signature {
    type Err = KeyError;

    fn from_str(s: &str) -> Result<Self, Self::Err> {
        let digits = s.trim().trim_start_matches("0x");
        let bytes = hex::decode(digits).map_err(|_| KeyError::BadSignature)?;
        Self::from_slice(&bytes)
    }
}

impl fmt::Debug for Signature {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "Signature({})", self.to_hex())
    }
}

fn public_key_bytes(key: &VerifyingKey) -> [u8; 64] {
    let point = key.to_encoded_point(false);
    let mut out = [0u8; 64];
    out.copy_from_slice(&point.as_bytes()[1..]);
    out
}

fn address_of(key: &VerifyingKey) -> Address {
    let digest = Keccak256::digest(public_key_bytes(key));
    let mut evm = [0u8; 20];
    evm.copy_from_slice(&digest[12..]);
    Address::from_evm(evm)
}

#[cfg(test)]
mod tests {
    use super::*;

    const K: &str = "2d8f68944bdbfbc0769542fba8fc2d2a3de67393334471624364c7006da2aa54";

    #[test]
    fn reference_key_vector() {
        let key = PrivateKey::from_hex(K).unwrap();
        assert_eq!(
            hex::encode(key.public_key()),
            "1f3ea174cafbe4e8f21893d0c4604ff79e2539c91fd2419e0b347a61a5020a06ff413d68cf6705b4ecfd1a9db131cff54bb614f8cbf6367f46c250267e541b49"
        );
        assert_eq!(
            key.address().to_base58(),
            "TJRyWwFs9wTFGZg3JbrVriFbNfCug5tDeC"
        );
        assert_eq!(*key.to_hex(), K);
        assert_eq!(
            PrivateKey::from_hex(&format!(" 0x{K}\n"))
                .unwrap()
                .address(),
            key.address()
        );
    }

    #[test]
    fn bad_keys_say_why() {
        assert_eq!(
            PrivateKey::from_hex("abc").err(),
            Some(KeyError::KeyLength(3))
        );
        assert_eq!(
            PrivateKey::from_hex(&format!("{}g", &K[..63])).err(),
            Some(KeyError::KeyNotHex(64))
        );
        assert_eq!(
            PrivateKey::from_hex(&"0".repeat(64)).err(),
            Some(KeyError::KeyOutOfRange)
        );
        assert_eq!(
            PrivateKey::from_hex(&"f".repeat(64)).err(),
            Some(KeyError::KeyOutOfRange)
        );
    }

    #[test]
    fn debug_hides_the_secret() {
        let key = PrivateKey::from_hex(K).unwrap();
        let shown = format!("{key:?}");
        assert!(!shown.contains(&K[..16]), "{shown}");
        assert!(shown.contains("TJRyWw"));
    }

    #[test]
    fn sign_and_recover_in_both_v_conventions() {
        let key = PrivateKey::generate();
        let digest = [7u8; 32];
        let sig = key.sign_digest(&digest);
        assert!(sig.as_bytes()[64] <= 1);
        assert_eq!(sig.recover(&digest).unwrap(), key.address());
        let mut high = *sig.as_bytes();
        high[64] += 27;
        assert_eq!(Signature(high).recover(&digest).unwrap(), key.address());
        high[64] = 29;
        assert_eq!(
            Signature(high).recover(&digest),
            Err(KeyError::BadRecoveryId(29))
        );
        // s is in the lower half of the order.
        let s = EcdsaSignature::from_slice(&sig.as_bytes()[..64]).unwrap();
        assert!(s.normalize_s().is_none());
    }
}
