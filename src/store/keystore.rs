//! Private keys on disk and in the environment. A key never comes from a plain argument (it
//! would sit in shell history and in every process listing).

use std::path::{Path, PathBuf};

use tron::PrivateKey;
use zeroize::Zeroizing;

use crate::env_vars;
use crate::error::{Error, Result};
use crate::settings::{Settings, Source};
use crate::store::fs::{readable_by_others, write_private};

/// Where the signing key came from.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum KeyOrigin {
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

/// Reads a key file: 64 hex digits, optionally `0x`, surrounding white space ignored.
pub fn read_key_file(path: &Path) -> Result<PrivateKey> {
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
    PrivateKey::from_hex(&text)
        .map_err(|e| Error::usage(format!("key file {}: {e}", path.display())))
}

/// Stores a key 0600 in a 0700 folder. Never replaces a different key: losing a key loses
/// the money it holds.
pub fn store_key(path: &Path, key: &PrivateKey) -> Result<()> {
    if path.exists() {
        let existing = read_key_file(path).ok();
        if existing.is_some_and(|k| k.address() == key.address()) {
            return Ok(());
        }
        return Err(Error::Failed(format!(
            "a different key is already stored at {}; move it away first (it may hold funds)",
            path.display()
        )));
    }
    let mut text = key.to_hex();
    text.push('\n');
    write_private(path, text.as_bytes(), false)
}

/// The key to sign with, from the sources that need no typing, in order: key file (flag, env,
/// config), `TRONPOOL_PRIVATE_KEY`, the stored key. `None` when there is none.
pub fn load_signing_key(settings: &Settings) -> Result<Option<(PrivateKey, KeyOrigin)>> {
    if let Some(path) = &settings.key_file.value {
        let key = read_key_file(path)?;
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
        let key = read_key_file(&stored)?;
        return Ok(Some((key, KeyOrigin::Stored(stored))));
    }
    Ok(None)
}
