//! TRON account addresses.
//!
//! One account has three spellings: base58check (`T…`, what people see), 21-byte hex with the
//! `0x41` network prefix (what java-tron's JSON carries when `visible` is false, and what goes
//! into protobuf), and the bare 20 bytes the TVM works with (what ABI words and log topics hold).
//! [`Address`] stores the 20 bytes and converts at the edges, so a prefix can never be lost or
//! doubled in between.

use std::fmt;
use std::str::FromStr;

use sha2::{Digest, Sha256};

/// The byte every mainnet, Nile and Shasta address starts with.
pub const ADDRESS_PREFIX: u8 = 0x41;

/// A TRON account or contract address.
#[derive(Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Default)]
pub struct Address([u8; 20]);

/// Why a string or byte slice is not a TRON address.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum AddressError {
    #[error("address is empty")]
    Empty,
    #[error("'{character}' at position {position} is not a base58 character")]
    BadBase58Character { character: char, position: usize },
    #[error("'{character}' at position {position} is not a hex digit")]
    BadHexCharacter { character: char, position: usize },
    #[error("bad checksum: the address is mistyped")]
    BadChecksum,
    #[error("wrong prefix 0x{found:02x}: TRON addresses start with 0x41 (T… in base58)")]
    WrongPrefix { found: u8 },
    #[error("wrong length: {found} {unit}, expected {expected}")]
    WrongLength {
        found: usize,
        expected: usize,
        unit: &'static str,
    },
}

impl Address {
    /// The all-zero address (`T9yD14Nj9j7xAB4dbGeiX9h8unkKHxuWwb`).
    pub const ZERO: Address = Address([0; 20]);

    /// Wraps the 20-byte form the TVM sees.
    pub const fn from_evm(bytes: [u8; 20]) -> Self {
        Address(bytes)
    }

    /// The 20-byte form the TVM sees (ABI words, log topics, `msg.sender`).
    pub const fn evm_bytes(&self) -> [u8; 20] {
        self.0
    }

    /// The 21-byte form with the `0x41` prefix, as stored in transactions.
    pub fn tron_bytes(&self) -> [u8; 21] {
        let mut out = [0u8; 21];
        out[0] = ADDRESS_PREFIX;
        out[1..].copy_from_slice(&self.0);
        out
    }

    /// Reads the 21-byte prefixed form found in protobuf messages.
    pub fn from_tron_bytes(bytes: &[u8]) -> Result<Self, AddressError> {
        if bytes.len() != 21 {
            return Err(AddressError::WrongLength {
                found: bytes.len(),
                expected: 21,
                unit: "bytes",
            });
        }
        if bytes[0] != ADDRESS_PREFIX {
            return Err(AddressError::WrongPrefix { found: bytes[0] });
        }
        let mut evm = [0u8; 20];
        evm.copy_from_slice(&bytes[1..]);
        Ok(Address(evm))
    }

    /// `41…` hex, lower case, as java-tron prints it when `visible` is false.
    pub fn to_hex(&self) -> String {
        hex::encode(self.tron_bytes())
    }

    /// Base58check (`T…`).
    pub fn to_base58(&self) -> String {
        bs58::encode(self.tron_bytes()).with_check().into_string()
    }

    /// Parses base58check only.
    pub fn from_base58(s: &str) -> Result<Self, AddressError> {
        if s.is_empty() {
            return Err(AddressError::Empty);
        }
        // Length first: base58 decoding is quadratic in the input, and 25 bytes never take
        // more than 35 characters, so a long string is refused before any decoding.
        if s.len() > 35 {
            return Err(AddressError::WrongLength {
                found: s.len(),
                expected: 34,
                unit: "base58 characters",
            });
        }
        if let Some((position, character)) =
            s.chars().enumerate().find(|(_, c)| !is_base58_char(*c))
        {
            return Err(AddressError::BadBase58Character {
                character,
                position,
            });
        }
        let raw = bs58::decode(s)
            .into_vec()
            .map_err(|_| AddressError::BadChecksum)?;
        if raw.len() != 25 {
            return Err(AddressError::WrongLength {
                found: s.len(),
                expected: 34,
                unit: "base58 characters",
            });
        }
        let (payload, checksum) = raw.split_at(21);
        let digest = Sha256::digest(Sha256::digest(payload));
        if digest[..4] != *checksum {
            return Err(AddressError::BadChecksum);
        }
        Self::from_tron_bytes(payload)
    }

    /// Parses `41…` hex (42 digits), with or without `0x`.
    pub fn from_hex(s: &str) -> Result<Self, AddressError> {
        let digits = s
            .strip_prefix("0x")
            .or_else(|| s.strip_prefix("0X"))
            .unwrap_or(s);
        if digits.is_empty() {
            return Err(AddressError::Empty);
        }
        let offset = s.len() - digits.len();
        if let Some((i, character)) = digits
            .chars()
            .enumerate()
            .find(|(_, c)| !c.is_ascii_hexdigit())
        {
            return Err(AddressError::BadHexCharacter {
                character,
                position: i + offset,
            });
        }
        if digits.len() != 42 {
            return Err(AddressError::WrongLength {
                found: digits.len(),
                expected: 42,
                unit: "hex digits",
            });
        }
        let bytes = hex::decode(digits).expect("checked hex digits of even length");
        Self::from_tron_bytes(&bytes)
    }

    /// The address of the contract a `CreateSmartContract` transaction deploys:
    /// `keccak256(txID ‖ owner21)[12..]`, as java-tron and TronWeb derive it.
    pub fn contract_address(txid: &[u8; 32], owner: &Address) -> Address {
        use sha3::Keccak256;
        let mut hasher = Keccak256::new();
        hasher.update(txid);
        hasher.update(owner.tron_bytes());
        let digest = hasher.finalize();
        let mut evm = [0u8; 20];
        evm.copy_from_slice(&digest[12..]);
        Address(evm)
    }
}

fn is_base58_char(c: char) -> bool {
    c.is_ascii_alphanumeric() && !matches!(c, '0' | 'O' | 'I' | 'l')
}

impl FromStr for Address {
    type Err = AddressError;

    /// Accepts base58check (`T…`) and `41…` hex (with or without `0x`), the two forms java-tron
    /// prints depending on `visible`.
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        let s = s.trim();
        // Base58 addresses start with `T`, which is not a hex digit, so all-hex input is hex.
        let looks_hex = s.starts_with("0x")
            || s.starts_with("0X")
            || (!s.is_empty() && s.chars().all(|c| c.is_ascii_hexdigit()));
        if looks_hex {
            Self::from_hex(s)
        } else {
            Self::from_base58(s)
        }
    }
}

impl fmt::Display for Address {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.to_base58())
    }
}

impl fmt::Debug for Address {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "Address({})", self.to_base58())
    }
}

impl From<alloy_primitives::Address> for Address {
    fn from(a: alloy_primitives::Address) -> Self {
        Address(a.into_array())
    }
}

impl From<Address> for alloy_primitives::Address {
    fn from(a: Address) -> Self {
        alloy_primitives::Address::from(a.0)
    }
}

impl serde::Serialize for Address {
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.serialize_str(&self.to_base58())
    }
}

impl<'de> serde::Deserialize<'de> for Address {
    fn deserialize<D: serde::Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        let s = <std::borrow::Cow<'de, str>>::deserialize(deserializer)?;
        s.parse().map_err(serde::de::Error::custom)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const K_B58: &str = "TJRyWwFs9wTFGZg3JbrVriFbNfCug5tDeC";
    const K_HEX: &str = "415cd0fb0ab3ce40f3051414c604b27756e69e43db";

    #[test]
    fn base58_and_hex_agree() {
        let a: Address = K_B58.parse().unwrap();
        assert_eq!(a.to_hex(), K_HEX);
        assert_eq!(a.to_base58(), K_B58);
        assert_eq!(Address::from_hex(K_HEX).unwrap(), a);
        assert_eq!(format!("0x{K_HEX}").parse::<Address>().unwrap(), a);
        assert_eq!(K_HEX.to_uppercase().parse::<Address>().unwrap(), a);
    }

    #[test]
    fn known_addresses() {
        assert_eq!(
            Address::ZERO.to_base58(),
            "T9yD14Nj9j7xAB4dbGeiX9h8unkKHxuWwb"
        );
        let usdt: Address = "TR7NHqjeKQxGTCi8q8ZY4pL8otSzgjLj6t".parse().unwrap();
        assert_eq!(usdt.to_hex(), "41a614f803b6fd780986a42c78ec9c7f77e6ded13c");
        let nile: Address = "TXYZopYRdj2D9XRtbG411XZZ3kM5VkAeBf".parse().unwrap();
        assert_eq!(nile.to_hex(), "41eca9bc828a3005b9a3b909f2cc5c2a54794de05f");
    }

    #[test]
    fn errors_name_the_problem() {
        // Last character changed: checksum fails.
        assert_eq!(
            "TJRyWwFs9wTFGZg3JbrVriFbNfCug5tDeD".parse::<Address>(),
            Err(AddressError::BadChecksum)
        );
        assert_eq!(
            "TJRyWwFs9wTFGZg3JbrVriFbN0Cug5tDeC".parse::<Address>(),
            Err(AddressError::BadBase58Character {
                character: '0',
                position: 25
            })
        );
        assert!(matches!(
            "TJRyWwFs9wTFGZg3JbrVriFbNfCug5tDe".parse::<Address>(),
            Err(AddressError::WrongLength { .. }) | Err(AddressError::BadChecksum)
        ));
        assert_eq!(
            "425cd0fb0ab3ce40f3051414c604b27756e69e43db".parse::<Address>(),
            Err(AddressError::WrongPrefix { found: 0x42 })
        );
        assert_eq!(
            "0x5cd0fb0ab3ce40f3051414c604b27756e69e43db".parse::<Address>(),
            Err(AddressError::WrongLength {
                found: 40,
                expected: 42,
                unit: "hex digits"
            })
        );
        assert_eq!(
            "0x41zcd0fb0ab3ce40f3051414c604b27756e69e43db".parse::<Address>(),
            Err(AddressError::BadHexCharacter {
                character: 'z',
                position: 4
            })
        );
        assert_eq!("".parse::<Address>(), Err(AddressError::Empty));
        // A valid base58check payload with another prefix (a Bitcoin address).
        assert!(matches!(
            "1BvBMSEYstWetqTFn5Au4m4GFg7xJaNVN2".parse::<Address>(),
            Err(AddressError::WrongLength { .. }) | Err(AddressError::WrongPrefix { .. })
        ));
    }

    #[test]
    fn a_long_base58_string_is_refused_by_its_length_before_decoding() {
        // `T` and 59,999 `z`s: base58 decoding that would take seconds of CPU.
        let long = format!("T{}", "z".repeat(59_999));
        assert_eq!(
            Address::from_base58(&long),
            Err(AddressError::WrongLength {
                found: 60_000,
                expected: 34,
                unit: "base58 characters",
            })
        );
        assert!(long.parse::<Address>().is_err());
    }

    #[test]
    fn serde_accepts_both_forms_and_writes_base58() {
        let a: Address = serde_json::from_str(&format!("\"{K_HEX}\"")).unwrap();
        assert_eq!(serde_json::to_string(&a).unwrap(), format!("\"{K_B58}\""));
        assert!(serde_json::from_str::<Address>("\"Tnope\"").is_err());
    }

    #[test]
    fn contract_address_matches_java_tron() {
        // deploycontract capture: txID + owner → contract_address.
        let txid: [u8; 32] =
            hex::decode("7fe721c3f85b6c1c9491df43778c98903b565bc4210592f449f41342041729b3")
                .unwrap()
                .try_into()
                .unwrap();
        let owner = Address::from_hex("41dd791d6b49e190062d650e6a23c575510d35f2f9").unwrap();
        assert_eq!(
            Address::contract_address(&txid, &owner).to_hex(),
            "41584587b353166787b37d1b05a4a91e59c5370bcf"
        );
    }
}
