//! Keys from a Phase 2 ceremony: the circuit handed to snarkjs as an `.r1cs`, and the
//! resulting `.zkey` verified and taken back in.
//!
//! Imported keys are kept under the data folder named by their verifying key's hash, which is
//! what a deployment pins, so a chain finds its keys without any path in the configuration
//! and a key can never be used for a verifier made with another. Next to each, a
//! `<hash>.json` records what was verified at import ([`KeyRecord`]); a key verified against a
//! transcript the network accepts and ending in a beacon may guard money, any other is a
//! *rehearsal* key, usable on a tronpool devnet only.

use std::path::{Path, PathBuf};

use serde::{Deserialize, Serialize};
use zk::circuits::Circuit;
use zk::keys::Keys;
use zk::zkey_verify::{self, Report, VerifyError};

use crate::error::{Error, Result};
use crate::network::AcceptedPtau;

/// Where the keys whose verifying key hashes to `vk_sha256` are kept.
pub(crate) fn zkey_path(keys_dir: &Path, vk_sha256: &str) -> PathBuf {
    keys_dir.join(format!("{}.zkey", vk_sha256.trim_start_matches("0x")))
}

/// Where what was verified of a kept zkey is recorded: `<vk sha256>.json` next to it.
pub(crate) fn record_path(zkey: &Path) -> PathBuf {
    zkey.with_extension("json")
}

/// One Phase 2 contribution, as verified.
#[derive(Debug, Clone, Serialize, Deserialize, PartialEq, Eq)]
#[serde(rename_all = "camelCase")]
pub struct ContributionRecord {
    pub index: usize,
    pub name: Option<String>,
    /// BLAKE2b-512 of the contribution, hexadecimal: what snarkjs printed to its contributor.
    pub hash: String,
    /// A beacon's public randomness (hexadecimal) and its 2^n SHA-256 rounds.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub beacon_hash: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub beacon_iterations_exp: Option<u8>,
}

/// What an import established about a key, kept next to it.
#[derive(Debug, Clone, Serialize, Deserialize, PartialEq, Eq)]
#[serde(rename_all = "camelCase")]
pub(crate) struct KeyRecord {
    pub verifying_key_sha256: String,
    /// The circuit the key proves (records from before the batch circuit are all withdraw
    /// keys).
    #[serde(default = "Circuit::withdraw")]
    pub circuit: Circuit,
    /// Not shown to derive from an accepted transcript through contributions ending in a
    /// beacon: insecure, for rehearsals on a tronpool devnet.
    pub rehearsal: bool,
    /// Why it is a rehearsal key, when it is.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub insecure_because: Vec<String>,
    /// The ptau the key was verified against (none: imported without `--ptau`).
    pub ptau_blake2b: Option<String>,
    pub ptau_power: Option<u32>,
    /// The accepted transcript the ptau is, by file name.
    pub ptau_accepted: Option<String>,
    /// The circuit hash snarkjs prints, hexadecimal.
    pub circuit_hash: Option<String>,
    /// The verified contributions, first to last (empty when not verified).
    pub contributions: Vec<ContributionRecord>,
    /// The last contribution is a beacon.
    pub beacon: bool,
}

impl KeyRecord {
    /// How the key is named wherever it is shown.
    pub fn status(&self) -> &'static str {
        if self.rehearsal {
            "INSECURE rehearsal key"
        } else {
            "verified"
        }
    }
}

/// Whether the key kept here for `pinned` was verified at import (not a rehearsal key, nor
/// one imported before keys were verified): only such a key may guard money, so only for
/// the others is the node asked whether it is a devnet.
pub(crate) fn verified(keys_dir: Option<&Path>, pinned: &str) -> bool {
    keys_dir
        .map(|dir| record_path(&zkey_path(dir, pinned)))
        .and_then(|sidecar| read_record(&sidecar).ok().flatten())
        .is_some_and(|r| !r.rehearsal)
}

/// What `ceremony verify` found.
#[derive(Debug)]
pub(crate) struct Verified {
    pub report: Report,
    pub ptau_blake2b: String,
    pub verifying_key_sha256: String,
}

fn read(path: &Path) -> Result<Vec<u8>> {
    std::fs::read(path).map_err(|e| Error::io(path, e))
}

/// Maps a verification failure: a file that cannot be read is a usage error, a key that does
/// not derive from the circuit and the transcript is refused.
fn verify_error(zkey: &Path, ptau: &Path, e: VerifyError) -> Error {
    match e {
        VerifyError::Key(zk::keys::KeyError::WrongCircuit(reason)) => Error::Refused(format!(
            "{} is not a key for tronpool's withdraw or batch circuit: {reason}",
            zkey.display()
        )),
        VerifyError::Key(zk::keys::KeyError::Malformed { what, reason }) => {
            let file = if what == zkey_verify::PTAU {
                ptau
            } else {
                zkey
            };
            Error::usage(format!("{}: {reason}", file.display()))
        }
        VerifyError::Key(e) => Error::usage(format!("{}: {e}", zkey.display())),
        VerifyError::PtauTooSmall { .. } => Error::usage(format!("{}: {e}", ptau.display())),
        VerifyError::Mismatch(reason) => Error::Refused(format!(
            "{} does not verify against {}: {reason}",
            zkey.display(),
            ptau.display()
        )),
    }
}

/// The refusals every key meets, verified or not: the development keys, and a key nobody
/// contributed to.
fn refuse_unsafe(source: &Path, bytes: &[u8], keys: &Keys) -> Result<()> {
    if keys.is_insecure_dev() {
        return Err(Error::Refused(
            "these are the insecure development keys: anyone can forge their proofs".into(),
        ));
    }
    let problems = zk::zkey::unsafe_key(bytes, &keys.proving);
    if !problems.is_empty() {
        return Err(Error::Refused(format!(
            "{} is a key nobody contributed to ({}): anyone holding one valid proof could \
             forge others and empty the pools; run the Phase 2 contributions and the beacon \
             (docs/ceremony.md) and import the final zkey",
            source.display(),
            problems.join(", ")
        )));
    }
    Ok(())
}

fn read_keys(source: &Path, bytes: &[u8]) -> Result<Keys> {
    Keys::from_zkey(bytes).map_err(|e| {
        Error::usage(format!(
            "{} is not a zkey for tronpool's withdraw or batch circuit: {e}",
            source.display()
        ))
    })
}

/// `ceremony verify`: the refusals of [`import_zkey`] that do not depend on the network (a key
/// nobody contributed to would verify, but guards nothing), then what `snarkjs zkey verify`
/// checks, natively (see [`zk::zkey_verify`]).
pub(crate) fn verify_zkey(zkey: &Path, ptau: &Path) -> Result<Verified> {
    let bytes = read(zkey)?;
    let ptau_bytes = read(ptau)?;
    let keys = read_keys(zkey, &bytes)?;
    refuse_unsafe(zkey, &bytes, &keys)?;
    let report =
        zkey_verify::verify(&bytes, &ptau_bytes).map_err(|e| verify_error(zkey, ptau, e))?;
    Ok(Verified {
        report,
        ptau_blake2b: hex::encode(zk::ptau::blake2b512(&ptau_bytes)),
        verifying_key_sha256: keys.verifying_key_sha256(),
    })
}

/// What `ceremony import` is asked to do.
#[derive(Debug, Clone)]
pub(crate) struct ImportRequest<'a> {
    pub zkey: &'a Path,
    /// The Phase 1 transcript to verify the key against.
    pub ptau: Option<&'a Path>,
    /// Accept a key short of the policy as an insecure rehearsal key.
    pub rehearsal: bool,
    /// The network's node is a tronpool devnet, by its identity (never by its name).
    pub on_devnet: bool,
    pub network: &'a str,
    /// The transcripts the network accepts.
    pub accepted: &'static [AcceptedPtau],
}

/// A zkey taken in.
#[derive(Debug)]
pub(crate) struct Imported {
    pub keys: Keys,
    pub path: PathBuf,
    /// The same keys were imported before (the file was left as it was).
    pub already: bool,
    pub record: KeyRecord,
}

/// Reads a snarkjs zkey, checks it is for our withdraw circuit and not the development setup
/// or a key nobody contributed to, verifies it against the ptau, applies the network's policy
/// (an accepted transcript, a final beacon; or `--rehearsal` on a devnet) and keeps a copy
/// with its [`KeyRecord`] in `keys_dir`.
pub(crate) fn import_zkey(req: &ImportRequest<'_>, keys_dir: &Path) -> Result<Imported> {
    let network = req.network;
    if req.rehearsal && !req.on_devnet {
        return Err(Error::usage(format!(
            "--rehearsal is for a devnet: {network}'s node is not a tronpool devnet, and a key \
             that guards money must be verified (--ptau with an accepted transcript, ending in \
             a beacon)"
        )));
    }
    let source = req.zkey;
    let bytes = read(source)?;
    let keys = read_keys(source, &bytes)?;
    refuse_unsafe(source, &bytes, &keys)?;
    let vk = keys.verifying_key_sha256();

    let mut record = KeyRecord {
        verifying_key_sha256: vk.clone(),
        circuit: keys.circuit(),
        rehearsal: false,
        insecure_because: Vec::new(),
        ptau_blake2b: None,
        ptau_power: None,
        ptau_accepted: None,
        circuit_hash: None,
        contributions: Vec::new(),
        beacon: false,
    };
    let mut short = Vec::new();
    match req.ptau {
        None => short.push("it was not verified (no --ptau)".to_owned()),
        Some(ptau) => {
            let ptau_bytes = read(ptau)?;
            let hash = hex::encode(zk::ptau::blake2b512(&ptau_bytes));
            record.ptau_accepted = req
                .accepted
                .iter()
                .find(|a| a.blake2b == hash)
                .map(|a| a.file.to_owned());
            if record.ptau_accepted.is_none() {
                short.push(format!(
                    "its ptau (blake2b {}…) is not a transcript {network} accepts ({})",
                    &hash[..16],
                    req.accepted
                        .iter()
                        .map(|a| a.file)
                        .collect::<Vec<_>>()
                        .join(", ")
                ));
                // Refused whatever the key holds: no need to verify it first.
                if !req.rehearsal {
                    return Err(refusal(source, network, &short));
                }
            }
            let report = zkey_verify::verify(&bytes, &ptau_bytes)
                .map_err(|e| verify_error(source, ptau, e))?;
            record.beacon = report.ends_with_beacon();
            if !record.beacon {
                short.push("its last contribution is not a beacon".to_owned());
            }
            record.ptau_blake2b = Some(hash);
            record.ptau_power = Some(report.ptau_power);
            record.circuit_hash = Some(hex::encode(report.circuit_hash));
            record.contributions = contributions(&report);
        }
    }
    if !short.is_empty() {
        if !req.rehearsal {
            return Err(refusal(source, network, &short));
        }
        record.rehearsal = true;
        record.insecure_because = short;
    }

    let path = zkey_path(keys_dir, &vk);
    let sidecar = record_path(&path);
    let already = std::fs::read(&path).is_ok_and(|existing| existing == bytes);
    if !already {
        crate::store::fs::write_private(&path, &bytes, true)?;
    }
    // The same key verified before keeps its better record: a rehearsal import of a key
    // already verified for real does not make it insecure, nor an unverified one forget
    // what a verified one found.
    let kept = already
        .then(|| read_record(&sidecar).ok().flatten())
        .flatten()
        .filter(|old| {
            (record.rehearsal && !old.rehearsal)
                || (record.ptau_blake2b.is_none() && old.ptau_blake2b.is_some())
        });
    let record = match kept {
        Some(old) => old,
        None => {
            let json = serde_json::to_vec_pretty(&record)
                .map_err(|e| Error::json("recording the key", e))?;
            crate::store::fs::write_private(&sidecar, &json, true)?;
            record
        }
    };
    Ok(Imported {
        keys,
        path,
        already,
        record,
    })
}

fn refusal(source: &Path, network: &str, short: &[String]) -> Error {
    Error::Refused(format!(
        "refusing {} for {network}: {}. A key that guards money must verify against an \
         accepted Phase 1 transcript (--ptau FILE) and end in a beacon (docs/ceremony.md); on \
         a tronpool devnet, --rehearsal imports it as an INSECURE rehearsal key",
        source.display(),
        short.join("; ")
    ))
}

pub fn contributions(report: &Report) -> Vec<ContributionRecord> {
    report
        .contributions
        .iter()
        .map(|c| ContributionRecord {
            index: c.index,
            name: c.name.clone(),
            hash: hex::encode(c.hash),
            beacon_hash: c.beacon.as_ref().map(|b| hex::encode(&b.hash)),
            beacon_iterations_exp: c.beacon.as_ref().map(|b| b.iterations_exp),
        })
        .collect()
}

/// The record kept next to a zkey, or `None` when it has none (imported by a tronpool that
/// kept none).
pub(crate) fn read_record(sidecar: &Path) -> Result<Option<KeyRecord>> {
    match std::fs::read(sidecar) {
        Ok(bytes) => serde_json::from_slice(&bytes)
            .map(Some)
            .map_err(|e| Error::json(format!("{}: not a key record", sidecar.display()), e)),
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => Ok(None),
        Err(e) => Err(Error::io(sidecar, e)),
    }
}

/// Whether the kept zkey at `zkey` may be used on `network`: off a tronpool devnet
/// (`on_devnet` comes from the node's identity), only a key whose record shows it verified
/// against an accepted transcript and ending in a beacon; a rehearsal key, or one imported
/// before keys were verified, is refused with what to do. On a devnet anything imported goes,
/// and a rehearsal key is logged as insecure.
pub(crate) fn check_usable(
    zkey: &Path,
    network: &str,
    on_devnet: bool,
) -> Result<Option<KeyRecord>> {
    let record = read_record(&record_path(zkey))?;
    let reimport = "re-import the ceremony's final zkey with `tronpool ceremony import FILE.zkey \
                    --ptau FILE.ptau`";
    match &record {
        Some(r) if !r.rehearsal => {}
        _ if on_devnet => {
            tracing::warn!(
                network,
                key = %zkey.display(),
                "using an INSECURE rehearsal key (not verified against an accepted transcript \
                 ending in a beacon): fine for a devnet, never for money"
            );
        }
        Some(r) => {
            return Err(Error::Refused(format!(
                "the keys for {network} ({}) are an INSECURE rehearsal key ({}): refusing to use \
                 them off a devnet; {reimport}",
                zkey.display(),
                r.insecure_because.join("; ")
            )));
        }
        None => {
            return Err(Error::Refused(format!(
                "the keys for {network} ({}) were imported without verification (by an older \
                 tronpool): refusing to use them off a devnet; {reimport}",
                zkey.display()
            )));
        }
    }
    Ok(record)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn record(rehearsal: bool) -> KeyRecord {
        KeyRecord {
            verifying_key_sha256: "ab".repeat(32),
            circuit: Circuit::Withdraw,
            rehearsal,
            insecure_because: if rehearsal {
                vec!["its last contribution is not a beacon".to_owned()]
            } else {
                Vec::new()
            },
            ptau_blake2b: Some("cd".repeat(64)),
            ptau_power: Some(14),
            ptau_accepted: (!rehearsal).then(|| "powersOfTau28_hez_final_14.ptau".to_owned()),
            circuit_hash: Some("ef".repeat(64)),
            contributions: Vec::new(),
            beacon: !rehearsal,
        }
    }

    /// Off a devnet only a verified key is used; a rehearsal key, or one kept without a
    /// record, is refused with how to re-import it. On a devnet everything imported goes.
    #[test]
    fn only_verified_keys_are_used_off_a_devnet() {
        let dir = tempfile::tempdir().unwrap();
        let zkey = zkey_path(dir.path(), &"ab".repeat(32));
        std::fs::write(&zkey, b"zkey").unwrap();

        // No record: imported by an older tronpool.
        let err = check_usable(&zkey, "nile", false).unwrap_err();
        assert_eq!(err.kind(), crate::error::Kind::Refused);
        assert!(err.to_string().contains("--ptau"), "{err}");
        assert_eq!(check_usable(&zkey, "rehearsal", true).unwrap(), None);

        let sidecar = record_path(&zkey);
        assert_eq!(sidecar.extension().unwrap(), "json");
        std::fs::write(&sidecar, serde_json::to_vec(&record(true)).unwrap()).unwrap();
        let err = check_usable(&zkey, "nile", false).unwrap_err();
        assert_eq!(err.kind(), crate::error::Kind::Refused);
        assert!(
            err.to_string().contains("INSECURE rehearsal key")
                && err.to_string().contains("not a beacon")
                && err.to_string().contains("--ptau"),
            "{err}"
        );
        assert!(
            check_usable(&zkey, "rehearsal", true)
                .unwrap()
                .unwrap()
                .rehearsal
        );

        std::fs::write(&sidecar, serde_json::to_vec(&record(false)).unwrap()).unwrap();
        let kept = check_usable(&zkey, "nile", false).unwrap().unwrap();
        assert_eq!(kept, record(false));
        assert_eq!(kept.status(), "verified");

        std::fs::write(&sidecar, b"not json").unwrap();
        assert!(check_usable(&zkey, "nile", false).is_err());
    }

    #[test]
    fn rehearsal_off_a_devnet_is_a_usage_error() {
        let dir = tempfile::tempdir().unwrap();
        let req = ImportRequest {
            zkey: Path::new("/nonexistent.zkey"),
            ptau: None,
            rehearsal: true,
            on_devnet: false,
            network: "nile",
            accepted: crate::network::HERMEZ_PTAU,
        };
        let err = import_zkey(&req, dir.path()).unwrap_err();
        assert_eq!(err.kind(), crate::error::Kind::Usage);
        assert!(err.to_string().contains("not a tronpool devnet"), "{err}");
    }
}
