//! Keys from a Phase 2 ceremony: the circuit handed to snarkjs as an `.r1cs`, and the
//! resulting `.zkey` taken back in.
//!
//! Imported keys are kept under the data folder named by their verifying key's hash, which is
//! what a deployment pins, so a chain finds its keys without any path in the configuration
//! and a key can never be used for a verifier made with another.

use std::path::{Path, PathBuf};

use zk::keys::Keys;

use crate::error::{Error, Result};

/// Where the keys whose verifying key hashes to `vk_sha256` are kept.
pub fn zkey_path(keys_dir: &Path, vk_sha256: &str) -> PathBuf {
    keys_dir.join(format!("{}.zkey", vk_sha256.trim_start_matches("0x")))
}

/// A zkey taken in.
#[derive(Debug)]
pub struct Imported {
    pub keys: Keys,
    pub path: PathBuf,
    /// The same keys were imported before (the file was left as it was).
    pub already: bool,
}

/// Reads a snarkjs zkey, checks it is for our withdraw circuit (the reader refuses any other
/// constraint system) and not the development setup, and keeps a copy in `keys_dir`.
pub fn import_zkey(source: &Path, keys_dir: &Path) -> Result<Imported> {
    let bytes = std::fs::read(source).map_err(|e| Error::io(source, e))?;
    let keys = Keys::from_zkey(&bytes).map_err(|e| {
        Error::usage(format!(
            "{} is not a zkey for tronpool's withdraw circuit: {e}",
            source.display()
        ))
    })?;
    if keys.is_insecure_dev() {
        return Err(Error::Refused(
            "these are the insecure development keys: anyone can forge their proofs".into(),
        ));
    }
    let problems = zk::zkey::unsafe_key(&bytes, &keys.proving);
    if !problems.is_empty() {
        return Err(Error::Refused(format!(
            "{} is a key nobody contributed to ({}): anyone holding one valid proof could \
             forge others and empty the pools; run the Phase 2 contributions and the beacon \
             (docs/ceremony.md) and import the final zkey",
            source.display(),
            problems.join(", ")
        )));
    }
    let path = zkey_path(keys_dir, &keys.verifying_key_sha256());
    let already = std::fs::read(&path).is_ok_and(|existing| existing == bytes);
    if !already {
        crate::store::fs::write_private(&path, &bytes, true)?;
    }
    Ok(Imported {
        keys,
        path,
        already,
    })
}
