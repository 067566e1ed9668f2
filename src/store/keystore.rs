//! Private keys and the mnemonic on disk, and keys in the environment. A key never comes from
//! a plain argument (it would sit in shell history and in every process listing). With
//! encryption on (`store::vault`), the stored files hold sealed text.

use std::path::{Path, PathBuf};

use tron::PrivateKey;
use zeroize::Zeroizing;

use crate::env_vars;
use crate::error::{Error, Result, StoreError};
use crate::settings::{Settings, Source};
use crate::store::fs::{readable_by_others, write_private};
use crate::store::vault::{Vault, is_sealed};

/// What a sealed key file is bound to.
const KEY_AAD: &str = "key";
/// What the sealed mnemonic is bound to.
const MNEMONIC_AAD: &str = "mnemonic";

/// Where the signing key came from.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) enum KeyOrigin {
    /// A key file named by `--key-file`, `TRONPOOL_KEY_FILE` or the config file.
    File { path: PathBuf, named_by: Source },
    /// `TRONPOOL_PRIVATE_KEY`.
    Env,
    /// The key `key new`/`key import` stored in the data folder.
    Stored(PathBuf),
    /// Typed at a hidden prompt.
    Prompt,
    /// The devnet's well-known dev account 0, when nothing else is configured (devnet only).
    DevAccount,
}

impl std::fmt::Display for KeyOrigin {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            KeyOrigin::File { path, named_by } => {
                write!(f, "key file {} ({named_by})", path.display())
            }
            KeyOrigin::Env => write!(f, "env {}", env_vars::PRIVATE_KEY),
            KeyOrigin::Stored(path) => write!(f, "stored key {}", path.display()),
            KeyOrigin::Prompt => f.write_str("prompt"),
            KeyOrigin::DevAccount => f.write_str("devnet dev account 0, a well-known key"),
        }
    }
}

/// Reads a key file: 64 hex digits, optionally `0x`, surrounding white space ignored; or,
/// with `vault`, the same sealed.
pub(crate) fn read_key_file(path: &Path, vault: Option<&Vault>) -> Result<PrivateKey> {
    let text = Zeroizing::new(std::fs::read_to_string(path).map_err(|e| {
        if e.kind() == std::io::ErrorKind::NotFound {
            Error::usage(format!("key file {} does not exist", path.display()))
        } else {
            Error::io(path, e)
        }
    })?);
    if readable_by_others(path) {
        tracing::warn!(
            "key file {} can be read by other users; run `chmod 600 {}`",
            path.display(),
            path.display()
        );
    }
    let text = if is_sealed(&text) {
        let vault = vault.ok_or_else(|| {
            Error::usage(format!(
                "key file {} is sealed; only the stored key may be",
                path.display()
            ))
        })?;
        vault.open_text(KEY_AAD, &text)?
    } else {
        text
    };
    PrivateKey::from_hex(&text)
        .map_err(|e| Error::usage(format!("key file {}: {e}", path.display())))
}

/// Stores a key 0600 in a 0700 folder. Never replaces a different key: losing a key loses
/// the money it holds.
pub(crate) fn store_key(path: &Path, key: &PrivateKey, vault: &Vault) -> Result<()> {
    if path.exists() {
        let existing = read_key_file(path, Some(vault)).ok();
        if existing.is_some_and(|k| k.address() == key.address()) {
            return Ok(());
        }
        return Err(StoreError::occupied(format!(
            "a different key is already stored at {}; move it away first (it may hold funds)",
            path.display()
        )));
    }
    let mut text = vault.seal_text(KEY_AAD, &key.to_hex())?;
    text.push('\n');
    write_private(path, text.as_bytes(), false)
}

/// Seals a plain secret file in place (the stored key: `aad` "key"; the mnemonic:
/// "mnemonic"). Returns whether it changed anything.
fn seal_file(path: &Path, aad: &str, vault: &Vault) -> Result<bool> {
    let text = match std::fs::read_to_string(path) {
        Ok(text) => Zeroizing::new(text),
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(false),
        Err(e) => return Err(Error::io(path, e)),
    };
    if is_sealed(&text) {
        return Ok(false);
    }
    let mut sealed = vault.key()?.seal(aad, text.trim().as_bytes());
    sealed.push('\n');
    write_private(path, sealed.as_bytes(), true)?;
    Ok(true)
}

/// Seals the stored key file, if there is one in the clear.
pub(crate) fn seal_key_file(path: &Path, vault: &Vault) -> Result<bool> {
    seal_file(path, KEY_AAD, vault)
}

/// Seals the stored mnemonic, if there is one in the clear.
pub(crate) fn seal_mnemonic_file(path: &Path, vault: &Vault) -> Result<bool> {
    seal_file(path, MNEMONIC_AAD, vault)
}

/// Whether a stored secret file is sealed (`None`: there is no such file).
pub(crate) fn file_sealed(path: &Path) -> Result<Option<bool>> {
    match std::fs::read_to_string(path) {
        Ok(text) => Ok(Some(is_sealed(&Zeroizing::new(text)))),
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => Ok(None),
        Err(e) => Err(Error::io(path, e)),
    }
}

/// Stores the mnemonic (normalized words), 0600, sealed when encryption is on. Never replaces
/// a different one: notes made from it would be lost with it.
pub(crate) fn store_mnemonic(path: &Path, words: &str, vault: &Vault) -> Result<()> {
    if let Some(existing) = read_mnemonic(path, vault)? {
        if existing.as_str() == words {
            return Ok(());
        }
        return Err(Error::Conflict(format!(
            "a different mnemonic is already stored at {}; its notes can only be recovered \
             with it, so it is not replaced",
            path.display()
        )));
    }
    let mut text = vault.seal_text(MNEMONIC_AAD, words)?;
    text.push('\n');
    write_private(path, text.as_bytes(), false)
}

/// The stored mnemonic, if there is one.
pub(crate) fn read_mnemonic(path: &Path, vault: &Vault) -> Result<Option<Zeroizing<String>>> {
    let text = match std::fs::read_to_string(path) {
        Ok(text) => Zeroizing::new(text),
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(None),
        Err(e) => return Err(Error::io(path, e)),
    };
    let words = vault.open_text(MNEMONIC_AAD, text.trim())?;
    Ok(Some(Zeroizing::new(words.trim().to_owned())))
}

/// The key to sign with, from the sources that need no typing, in order: key file (flag, env,
/// config), `TRONPOOL_PRIVATE_KEY`, the stored key. `None` when there is none.
pub(crate) fn load_signing_key(
    settings: &Settings,
    vault: &Vault,
) -> Result<Option<(PrivateKey, KeyOrigin)>> {
    if let Some(path) = &settings.key_file.value {
        let key = read_key_file(path, Some(vault))?;
        return Ok(Some((
            key,
            KeyOrigin::File {
                path: path.clone(),
                named_by: settings.key_file.source.clone(),
            },
        )));
    }
    if let Some(text) = std::env::var_os(env_vars::PRIVATE_KEY) {
        let text = Zeroizing::new(text.to_string_lossy().into_owned());
        let key = PrivateKey::from_hex(&text)
            .map_err(|e| Error::usage(format!("{}: {e}", env_vars::PRIVATE_KEY)))?;
        return Ok(Some((key, KeyOrigin::Env)));
    }
    let stored = settings.dirs.default_key_file();
    if stored.exists() {
        let key = read_key_file(&stored, Some(vault))?;
        return Ok(Some((key, KeyOrigin::Stored(stored))));
    }
    Ok(None)
}
