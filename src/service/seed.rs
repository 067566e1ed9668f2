//! Notes from one secret: a BIP-39 mnemonic, from which every note's nullifier and secret are
//! derived per network, pool and index, so the mnemonic alone recovers every deposit made
//! with it. The derivation, exactly (also in `docs/notes.md`, fixed by the test vector below):
//!
//! 1. `seed` = the mnemonic's BIP-39 seed with an empty BIP-39 passphrase (PBKDF2-HMAC-SHA512,
//!    2048 rounds, salt `"mnemonic"`), 64 bytes;
//! 2. `prk` = HKDF-SHA256-Extract(salt = `"tronpool-notes-v1"`, ikm = `seed`);
//! 3. for the note at `index` (0, 1, 2 …) of pool `pool` (the pool contract's base58 address)
//!    on network `network` (its name, as notes carry it):
//!    `okm` = HKDF-SHA256-Expand(`prk`, info = `"tronpool-note-v1:{network}:{pool}:{index}"`
//!    with `index` in decimal, 62 bytes);
//! 4. nullifier = `okm[0..31]`, secret = `okm[31..62]`, each big-endian as in a note's text.
//!    31 bytes are below 2^248, so both are already field elements the circuit accepts.
//!
//! The seed's id, which names it in the database without revealing it, is the first 8 bytes
//! of HKDF-SHA256-Expand(`prk`, info = `"tronpool-seed-id-v1"`), hex.

use hkdf::Hkdf;
use rand_core::{OsRng, RngCore};
use sha2::Sha256;
use zeroize::Zeroizing;
use zk::note::{Note, NoteMeta, SECRET_BYTES};

use crate::error::{Error, Result};
use crate::store::keystore::read_mnemonic;
use crate::store::vault::Vault;

const SALT: &[u8] = b"tronpool-notes-v1";
const NOTE_INFO: &str = "tronpool-note-v1";
const ID_INFO: &[u8] = b"tronpool-seed-id-v1";

/// A new 24-word mnemonic (256 bits from the operating system).
pub(crate) fn new_mnemonic() -> Zeroizing<String> {
    let mut entropy = Zeroizing::new([0u8; 32]);
    OsRng.fill_bytes(&mut *entropy);
    let mnemonic =
        bip39::Mnemonic::from_entropy(&*entropy).expect("32 bytes are a valid BIP-39 entropy");
    Zeroizing::new(mnemonic.to_string())
}

/// Checks a mnemonic (English word list, 12 to 24 words, its checksum) and returns it in its
/// one normal form: lower case, single spaces. The error never repeats the words.
pub(crate) fn normalize_mnemonic(text: &str) -> Result<Zeroizing<String>> {
    let words = Zeroizing::new(
        text.split_whitespace()
            .map(str::to_lowercase)
            .collect::<Vec<_>>()
            .join(" "),
    );
    let mnemonic =
        bip39::Mnemonic::parse_in_normalized(bip39::Language::English, &words).map_err(|e| {
            Error::usage(format!(
                "not a BIP-39 mnemonic: {}",
                match e {
                    bip39::Error::BadWordCount(n) =>
                        format!("{n} words (12, 15, 18, 21 or 24 are)"),
                    bip39::Error::UnknownWord(i) =>
                        format!("word {} is not in the English list", i + 1),
                    bip39::Error::InvalidChecksum => "the checksum does not match".into(),
                    _ => "unreadable".into(),
                }
            ))
        })?;
    Ok(Zeroizing::new(mnemonic.to_string()))
}

/// The derivation key of a mnemonic.
pub struct Seed {
    hkdf: Hkdf<Sha256>,
}

impl Seed {
    /// The seed of the mnemonic stored at `file`, if one is (opening it asks for the
    /// passphrase when the secrets are encrypted).
    pub fn stored(file: &std::path::Path, vault: &Vault) -> Result<Option<Seed>> {
        match read_mnemonic(file, vault)? {
            Some(words) => Ok(Some(Seed::from_mnemonic(&words)?)),
            None => Ok(None),
        }
    }

    pub(crate) fn from_mnemonic(text: &str) -> Result<Seed> {
        let words = normalize_mnemonic(text)?;
        let mnemonic = bip39::Mnemonic::parse_in_normalized(bip39::Language::English, &words)
            .map_err(|_| Error::usage("not a BIP-39 mnemonic"))?;
        let seed = Zeroizing::new(mnemonic.to_seed(""));
        Ok(Seed {
            hkdf: Hkdf::<Sha256>::new(Some(SALT), &*seed),
        })
    }

    /// Names the seed in the database; reveals nothing of it.
    pub fn id(&self) -> String {
        let mut id = [0u8; 8];
        self.hkdf
            .expand(ID_INFO, &mut id)
            .expect("8 bytes is a valid HKDF-SHA256 length");
        hex::encode(id)
    }

    /// The note at `index` of the pool at `pool` (base58), for `meta`'s network.
    pub fn note(&self, meta: NoteMeta, pool: &str, index: u32) -> Note {
        let info = format!("{NOTE_INFO}:{}:{pool}:{index}", meta.network());
        let mut okm = Zeroizing::new([0u8; 2 * SECRET_BYTES]);
        self.hkdf
            .expand(info.as_bytes(), &mut *okm)
            .expect("62 bytes is a valid HKDF-SHA256 length");
        let mut nullifier = Zeroizing::new([0u8; SECRET_BYTES]);
        let mut secret = Zeroizing::new([0u8; SECRET_BYTES]);
        nullifier.copy_from_slice(&okm[..SECRET_BYTES]);
        secret.copy_from_slice(&okm[SECRET_BYTES..]);
        Note::from_bytes(meta, &nullifier, &secret)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// BIP-39's own test mnemonic.
    const ABANDON: &str = "abandon abandon abandon abandon abandon abandon abandon abandon \
                           abandon abandon abandon about";
    const POOL: &str = "TXYZopYRdj2D9XRtbG411XZZ3kM5VkAeBf";

    /// The vector: checked against an independent implementation (Python's hashlib PBKDF2 and
    /// HMAC), see `docs/notes.md`.
    #[test]
    fn the_derivation_matches_its_vector() {
        let seed = Seed::from_mnemonic(ABANDON).unwrap();
        let meta = || NoteMeta::usdt(100, "devnet").unwrap();
        let n0 = seed.note(meta(), POOL, 0);
        assert_eq!(
            hex::encode(n0.nullifier_bytes()),
            "e2fc9e9cd85c949df3307bacdbd664f9879fd926624020f86143dc6b98fcf6",
        );
        assert_eq!(
            hex::encode(n0.secret_bytes()),
            "9cbc9b684d1f0cb359ed622d710629ec9d9fb5a86e9da42107d642115584d2"
        );
        assert_eq!(
            zk::field::to_hex(&n0.commitment()),
            "0x04c60af5835ff08fec410b8f326f8bba1f8df38547107a888cf68083bb1fda37"
        );
        let n1 = seed.note(meta(), POOL, 1);
        assert_eq!(
            hex::encode(n1.nullifier_bytes()),
            "cb7d9beeff47575041feea971a090c7938941feb466bd1da74cbf18b2e6621"
        );
        assert_eq!(seed.id(), "adeefa5ab4373336");
        // Another network or pool is another note.
        let other = seed.note(NoteMeta::usdt(100, "nile").unwrap(), POOL, 0);
        assert_ne!(other.nullifier_bytes(), n0.nullifier_bytes());
    }

    #[test]
    fn mnemonics_are_checked_and_normalized_without_echoing_them() {
        let loose = ABANDON.to_uppercase().replace(' ', "  \n");
        assert_eq!(normalize_mnemonic(&loose).unwrap().as_str(), ABANDON);
        let bad = ABANDON.replace("about", "abandon");
        let e = normalize_mnemonic(&bad).err().unwrap().to_string();
        assert!(e.contains("checksum") && !e.contains("abandon"), "{e}");
        let e = normalize_mnemonic("abandon zzzz")
            .err()
            .unwrap()
            .to_string();
        assert!(!e.contains("zzzz"), "{e}");
        let fresh = new_mnemonic();
        assert_eq!(fresh.split(' ').count(), 24);
        assert!(Seed::from_mnemonic(&fresh).is_ok());
        assert_ne!(*fresh, *new_mnemonic());
    }
}
