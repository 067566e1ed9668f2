//! Secrets sealed at rest, opt-in: the notes' text, the stored key and the mnemonic.
//!
//! A passphrase unlocks a random 32-byte data key kept in `<data>/vault.json`; the data key
//! seals each secret on its own. The passphrase is stretched with argon2id (parameters kept
//! in the file, so they can grow), and everything is sealed with XChaCha20-Poly1305 with a
//! random 24-byte nonce and associated data naming what it is (a note's commitment, "key",
//! "mnemonic"), so a sealed value moved to another place does not open there.
//!
//! - a sealed value, in a database column or a file: `tronpool-sealed-v1:` + hex(nonce ‖
//!   ciphertext and tag), sealed with the data key;
//! - a passphrase file ([`PassphraseSealed`], JSON): argon2id parameters, salt, nonce and the
//!   ciphertext; the vault file holds the data key so, and an encrypted backup its notes.
//!
//! A wrong passphrase fails the AEAD tag check: [`Error::Locked`], and nothing is written.
//! The vault file's existence is what "encrypted" means: once it exists, every secret is
//! written sealed, and a store with no way to ask for the passphrase refuses to write one.

use std::path::{Path, PathBuf};
use std::sync::OnceLock;

use chacha20poly1305::aead::{Aead, KeyInit, Payload};
use chacha20poly1305::{XChaCha20Poly1305, XNonce};
use rand_core::{OsRng, RngCore};
use serde::{Deserialize, Serialize};
use zeroize::Zeroizing;

use crate::error::{Error, Result, StoreError};

/// What a sealed value starts with.
pub(crate) const SEALED_PREFIX: &str = "tronpool-sealed-v1:";
/// The format name a passphrase-sealed file carries.
pub(crate) const FILE_FORMAT: &str = "tronpool-sealed-file-v1";

const NONCE_LEN: usize = 24;
const KEY_LEN: usize = 32;
const SALT_LEN: usize = 16;

/// argon2id, RFC 9106's second recommended option with one lane: 64 MiB, 3 passes.
const ARGON_M_KIB: u32 = 64 * 1024;
const ARGON_T: u32 = 3;
const ARGON_P: u32 = 1;

/// The vault file in the data folder.
pub(crate) fn vault_file(data_dir: &Path) -> PathBuf {
    data_dir.join("vault.json")
}

/// Whether `text` is a sealed value.
pub(crate) fn is_sealed(text: &str) -> bool {
    text.starts_with(SEALED_PREFIX)
}

/// A data key, unlocked.
pub struct DataKey(Zeroizing<[u8; KEY_LEN]>);

impl DataKey {
    fn cipher(&self) -> XChaCha20Poly1305 {
        XChaCha20Poly1305::new((&*self.0).into())
    }

    /// Seals `plain` for the place `aad` names.
    pub fn seal(&self, aad: &str, plain: &[u8]) -> String {
        let mut nonce = [0u8; NONCE_LEN];
        OsRng.fill_bytes(&mut nonce);
        let sealed = self
            .cipher()
            .encrypt(
                &XNonce::from(nonce),
                Payload {
                    msg: plain,
                    aad: aad.as_bytes(),
                },
            )
            .expect("XChaCha20-Poly1305 seals any length this program writes");
        let mut out = String::with_capacity(SEALED_PREFIX.len() + 2 * (NONCE_LEN + sealed.len()));
        out.push_str(SEALED_PREFIX);
        out.push_str(&hex::encode(nonce));
        out.push_str(&hex::encode(sealed));
        out
    }

    /// Opens a sealed value made for `aad`.
    pub fn open(&self, aad: &str, sealed: &str) -> Result<Zeroizing<Vec<u8>>> {
        let body = sealed
            .trim()
            .strip_prefix(SEALED_PREFIX)
            .ok_or_else(|| StoreError::damaged(aad, "not a sealed value"))?;
        let bytes = hex::decode(body)
            .ok()
            .filter(|b| b.len() > NONCE_LEN)
            .ok_or_else(|| StoreError::damaged(aad, "the sealed value is damaged"))?;
        let (nonce, ciphertext) = bytes.split_at(NONCE_LEN);
        let nonce: [u8; NONCE_LEN] = nonce.try_into().expect("split at its length");
        self.cipher()
            .decrypt(
                &XNonce::from(nonce),
                Payload {
                    msg: ciphertext,
                    aad: aad.as_bytes(),
                },
            )
            .map(Zeroizing::new)
            .map_err(|_| {
                StoreError::crypto(
                    aad,
                    "the sealed value does not open with this vault's key (damaged, or sealed \
                     by another vault)",
                )
            })
    }

    /// Opens a sealed value as text.
    pub(crate) fn open_text(&self, aad: &str, sealed: &str) -> Result<Zeroizing<String>> {
        let bytes = self.open(aad, sealed)?;
        String::from_utf8(bytes.to_vec())
            .map(Zeroizing::new)
            .map_err(|_| StoreError::damaged(aad, "the sealed value is not text"))
    }
}

/// A value sealed under a passphrase: the vault's data key, or an encrypted backup.
#[derive(Debug, Clone, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub(crate) struct PassphraseSealed {
    pub format: String,
    /// What it holds (`vault`, `notes-backup`); also the associated data.
    pub holds: String,
    pub kdf: Argon2Params,
    /// 24 bytes, hex.
    pub nonce: String,
    /// XChaCha20-Poly1305 ciphertext and tag, hex.
    pub ciphertext: String,
}

#[derive(Debug, Clone, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub(crate) struct Argon2Params {
    /// Always `argon2id` (version 0x13).
    pub algorithm: String,
    pub memory_kib: u32,
    pub iterations: u32,
    pub parallelism: u32,
    /// 16 bytes, hex.
    pub salt: String,
}

fn stretch(passphrase: &str, params: &Argon2Params) -> Result<Zeroizing<[u8; KEY_LEN]>> {
    if params.algorithm != "argon2id" {
        return Err(StoreError::damaged(
            "the sealed file",
            format!("unknown key derivation `{}`", params.algorithm),
        ));
    }
    let salt = hex::decode(&params.salt)
        .map_err(|_| StoreError::damaged("the sealed file", "its salt is damaged"))?;
    let argon = argon2::Argon2::new(
        argon2::Algorithm::Argon2id,
        argon2::Version::V0x13,
        argon2::Params::new(
            params.memory_kib,
            params.iterations,
            params.parallelism,
            Some(KEY_LEN),
        )
        .map_err(|e| StoreError::crypto("argon2id parameters", e.to_string()))?,
    );
    let mut key = Zeroizing::new([0u8; KEY_LEN]);
    argon
        .hash_password_into(passphrase.as_bytes(), &salt, &mut *key)
        .map_err(|e| StoreError::crypto("argon2id", e.to_string()))?;
    Ok(key)
}

impl PassphraseSealed {
    /// Seals `plain` under `passphrase`, with a fresh salt and nonce.
    pub fn seal(passphrase: &str, holds: &str, plain: &[u8]) -> Result<Self> {
        let mut salt = [0u8; SALT_LEN];
        OsRng.fill_bytes(&mut salt);
        let kdf = Argon2Params {
            algorithm: "argon2id".into(),
            memory_kib: ARGON_M_KIB,
            iterations: ARGON_T,
            parallelism: ARGON_P,
            salt: hex::encode(salt),
        };
        let key = DataKey(stretch(passphrase, &kdf)?);
        let mut nonce = [0u8; NONCE_LEN];
        OsRng.fill_bytes(&mut nonce);
        let ciphertext = key
            .cipher()
            .encrypt(
                &XNonce::from(nonce),
                Payload {
                    msg: plain,
                    aad: holds.as_bytes(),
                },
            )
            .map_err(|_| StoreError::crypto("sealing", "the cipher refused"))?;
        Ok(PassphraseSealed {
            format: FILE_FORMAT.into(),
            holds: holds.into(),
            kdf,
            nonce: hex::encode(nonce),
            ciphertext: hex::encode(ciphertext),
        })
    }

    /// Opens it; a wrong passphrase is [`Error::Locked`].
    pub fn open(&self, passphrase: &str) -> Result<Zeroizing<Vec<u8>>> {
        let key = DataKey(stretch(passphrase, &self.kdf)?);
        let nonce: [u8; NONCE_LEN] = hex::decode(&self.nonce)
            .ok()
            .and_then(|n| n.try_into().ok())
            .ok_or_else(|| StoreError::damaged("the sealed file", "its nonce is damaged"))?;
        let ciphertext = hex::decode(&self.ciphertext)
            .map_err(|_| StoreError::damaged("the sealed file", "its ciphertext is damaged"))?;
        key.cipher()
            .decrypt(
                &XNonce::from(nonce),
                Payload {
                    msg: &ciphertext,
                    aad: self.holds.as_bytes(),
                },
            )
            .map(Zeroizing::new)
            .map_err(|_| Error::Locked("wrong passphrase; nothing was changed".into()))
    }

    /// Reads one from its JSON text, if it is one.
    pub fn parse(text: &str) -> Option<Self> {
        serde_json::from_str::<Self>(text)
            .ok()
            .filter(|s| s.format == FILE_FORMAT)
    }

    pub fn to_json(&self) -> String {
        let mut text = serde_json::to_string_pretty(self).expect("plain data serializes");
        text.push('\n');
        text
    }
}

/// Where the passphrase comes from when it is needed: a prompt, a file. Called at most once.
pub(crate) type PassphraseSource = Box<dyn Fn() -> Result<Zeroizing<String>> + Send + Sync>;

/// The vault of a data folder, unlocked on first use.
pub struct Vault {
    file: PathBuf,
    sealed: Option<PassphraseSealed>,
    passphrase: Option<PassphraseSource>,
    key: OnceLock<DataKey>,
}

impl Vault {
    /// The vault of `data_dir`, if encryption is on there; `passphrase` is asked when a
    /// secret must be sealed or opened.
    pub fn open(data_dir: &Path, passphrase: Option<PassphraseSource>) -> Result<Self> {
        let file = vault_file(data_dir);
        let sealed = match std::fs::read_to_string(&file) {
            Ok(text) => Some(PassphraseSealed::parse(&text).ok_or_else(|| {
                StoreError::damaged(file.display().to_string(), "not a tronpool vault")
            })?),
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => None,
            Err(e) => return Err(Error::io(&file, e)),
        };
        Ok(Vault {
            file,
            sealed,
            passphrase,
            key: OnceLock::new(),
        })
    }

    /// No encryption (tests, in-memory stores).
    pub fn plain() -> Self {
        Vault {
            file: PathBuf::new(),
            sealed: None,
            passphrase: None,
            key: OnceLock::new(),
        }
    }

    /// Whether secrets here are sealed.
    pub fn enabled(&self) -> bool {
        self.sealed.is_some()
    }

    pub fn file(&self) -> &Path {
        &self.file
    }

    /// The data key, asking for the passphrase the first time.
    pub fn key(&self) -> Result<&DataKey> {
        if let Some(key) = self.key.get() {
            return Ok(key);
        }
        let sealed = self
            .sealed
            .as_ref()
            .ok_or_else(|| Error::Failed("secrets are not encrypted here".into()))?;
        let ask = self.passphrase.as_ref().ok_or_else(|| {
            Error::Locked(format!(
                "the secrets are encrypted and there is no passphrase: set {} or run at a \
                 terminal",
                crate::env_vars::PASSPHRASE_FILE
            ))
        })?;
        let passphrase = ask()?;
        let bytes = sealed.open(&passphrase)?;
        let key: [u8; KEY_LEN] = bytes
            .as_slice()
            .try_into()
            .map_err(|_| StoreError::damaged("the vault", "its data key is damaged"))?;
        Ok(self.key.get_or_init(|| DataKey(Zeroizing::new(key))))
    }

    /// `plain` as it is stored: sealed when the vault is on.
    pub(crate) fn seal_text(&self, aad: &str, plain: &str) -> Result<Zeroizing<String>> {
        if !self.enabled() {
            return Ok(Zeroizing::new(plain.to_owned()));
        }
        Ok(Zeroizing::new(self.key()?.seal(aad, plain.as_bytes())))
    }

    /// A stored value as text: opened when sealed, as it is when plain.
    pub(crate) fn open_text(&self, aad: &str, stored: &str) -> Result<Zeroizing<String>> {
        if !is_sealed(stored) {
            return Ok(Zeroizing::new(stored.to_owned()));
        }
        if !self.enabled() {
            return Err(StoreError::damaged(
                aad,
                format!("sealed, but {} is missing", self.file.display()),
            ));
        }
        self.key()?.open_text(aad, stored)
    }

    /// Turns encryption on: a new data key sealed under `passphrase`, written 0600. Returns
    /// the unlocked vault. Refuses when there is one already.
    pub fn create(data_dir: &Path, passphrase: &str) -> Result<Self> {
        let file = vault_file(data_dir);
        if file.exists() {
            return Err(Error::Conflict(format!(
                "the secrets are already encrypted ({})",
                file.display()
            )));
        }
        let mut key = Zeroizing::new([0u8; KEY_LEN]);
        OsRng.fill_bytes(&mut *key);
        let sealed = PassphraseSealed::seal(passphrase, "vault", &*key)?;
        crate::store::fs::write_private(&file, sealed.to_json().as_bytes(), false)?;
        let vault = Vault {
            file,
            sealed: Some(sealed),
            passphrase: None,
            key: OnceLock::new(),
        };
        let _ = vault.key.set(DataKey(key));
        Ok(vault)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn values_seal_and_open_only_for_their_place_and_key() {
        let dir = tempfile::tempdir().unwrap();
        let vault = Vault::create(dir.path(), "correct horse").unwrap();
        let sealed = vault.seal_text("note 0xc1", "the secret").unwrap();
        assert!(is_sealed(&sealed));
        assert!(!sealed.contains("the secret"));
        assert_eq!(
            vault.open_text("note 0xc1", &sealed).unwrap().as_str(),
            "the secret"
        );
        assert!(
            vault.open_text("note 0xc2", &sealed).is_err(),
            "bound to its place"
        );
        // Plain values stay readable (a store made before encryption).
        assert_eq!(vault.open_text("x", "plain").unwrap().as_str(), "plain");

        // Reopened from disk: the right passphrase opens it, a wrong one is `Locked`.
        let good = Vault::open(
            dir.path(),
            Some(Box::new(|| Ok(Zeroizing::new("correct horse".into())))),
        )
        .unwrap();
        assert!(good.enabled());
        assert_eq!(
            good.open_text("note 0xc1", &sealed).unwrap().as_str(),
            "the secret"
        );
        let bad = Vault::open(
            dir.path(),
            Some(Box::new(|| Ok(Zeroizing::new("wrong".into())))),
        )
        .unwrap();
        let e = bad.open_text("note 0xc1", &sealed).err().unwrap();
        assert_eq!(e.kind(), crate::error::Kind::Locked, "{e}");
        let none = Vault::open(dir.path(), None).unwrap();
        assert_eq!(none.key().err().unwrap().kind(), crate::error::Kind::Locked);
        assert!(matches!(
            Vault::create(dir.path(), "again"),
            Err(Error::Conflict(_))
        ));
        // The vault file holds no key in the clear, and is private.
        let text = std::fs::read_to_string(vault_file(dir.path())).unwrap();
        assert!(text.contains("argon2id"), "{text}");
        assert!(!crate::store::fs::readable_by_others(&vault_file(
            dir.path()
        )));
    }

    #[test]
    fn a_passphrase_sealed_file_round_trips_and_a_changed_byte_fails() {
        let sealed = PassphraseSealed::seal("pw", "notes-backup", b"tronpool-v1-...").unwrap();
        let json = sealed.to_json();
        let back = PassphraseSealed::parse(&json).unwrap();
        assert_eq!(back.open("pw").unwrap().as_slice(), b"tronpool-v1-...");
        assert_eq!(
            back.open("pW").err().unwrap().kind(),
            crate::error::Kind::Locked
        );
        let mut tampered = back.clone();
        tampered.holds = "vault".into();
        assert!(tampered.open("pw").is_err(), "the label is bound");
        assert!(PassphraseSealed::parse("tronpool-v1-usdt").is_none());
    }
}
