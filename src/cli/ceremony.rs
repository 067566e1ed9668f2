//! `tronpool ceremony r1cs|verify|import|keys`: each of tronpool's circuits (withdraw and
//! batch) out to a snarkjs Phase 2 ceremony, and its keys verified and back in
//! (docs/ceremony.md walks through it). A zkey says which circuit it is for by its sizes, so
//! only `r1cs` is told.

use std::io::{IsTerminal, Write};
use std::path::PathBuf;

use clap::Subcommand;
use serde::Serialize;
use sha2::{Digest, Sha256};
use zk::circuits::Circuit;

use crate::error::{Error, Result};
use crate::service::ceremony::{
    ContributionRecord, ImportRequest, KeyRecord, import_zkey, read_record, record_path,
    verify_zkey,
};
use crate::settings::Settings;

use super::context::Context;
use super::output::table;
use super::progress::spinner;

#[derive(Debug, Subcommand)]
pub enum CeremonyCommand {
    /// Write a circuit's constraint system in circom's .r1cs format, for `snarkjs groth16
    /// setup`
    R1cs {
        /// Which circuit: withdraw (needs a ptau of power 13 or more) or batch (15 or more)
        #[arg(long, value_name = "NAME", default_value = "withdraw", value_parser = parse_circuit)]
        circuit: Circuit,
        /// The file to write (default: standard output, when it is not a terminal)
        #[arg(short, long, value_name = "FILE")]
        output: Option<PathBuf>,
    },
    /// Check that a .zkey derives from its circuit (withdraw or batch) and a Phase 1
    /// transcript through the contributions it records, as `snarkjs zkey verify` does; exit 4
    /// if it does not
    Verify {
        /// The .zkey to check
        #[arg(value_name = "ZKEY")]
        zkey: PathBuf,
        /// The Phase 1 transcript the ceremony started from, prepared for Phase 2
        #[arg(long, value_name = "FILE")]
        ptau: PathBuf,
    },
    /// Verify a ceremony's .zkey and keep it, named by its verifying key, for withdrawals,
    /// batches and `deploy`. Off a devnet the key must verify against a transcript the network accepts
    /// (--ptau) and end in a beacon
    Import {
        /// The final .zkey of the ceremony
        #[arg(value_name = "FILE")]
        zkey: PathBuf,
        /// The Phase 1 transcript to verify it against (a *_final_*.ptau the network accepts)
        #[arg(long, value_name = "FILE")]
        ptau: Option<PathBuf>,
        /// On a tronpool devnet: accept a key short of that (unverified, another transcript,
        /// no beacon) as an INSECURE rehearsal key
        #[arg(long)]
        rehearsal: bool,
    },
    /// List the imported keys
    Keys,
}

#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
struct R1cs {
    circuit: Circuit,
    constraints: usize,
    /// The smallest Phase 1 transcript that fits it (2^power powers of τ).
    ptau_power: u32,
    path: Option<PathBuf>,
    bytes: usize,
    sha256: String,
}

#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
struct Verified {
    ok: bool,
    circuit: Circuit,
    verifying_key_sha256: String,
    ptau_blake2b: String,
    ptau_power: u32,
    circuit_hash: String,
    /// Whether the circuit hash was recomputed from the circuit and the ptau, or taken as
    /// recorded (snarkjs hashes bytes past a ptau of the batch circuit's own power).
    circuit_hash_recomputed: bool,
    contributions: Vec<ContributionRecord>,
    beacon: bool,
}

#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
struct Imported {
    verifying_key_sha256: String,
    path: PathBuf,
    already_imported: bool,
    /// An INSECURE rehearsal key: usable on a tronpool devnet only.
    insecure: bool,
    record: KeyRecord,
}

#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
struct KeyFile {
    verifying_key_sha256: String,
    /// The circuit it proves (unknown for a key imported by an older tronpool without a
    /// record).
    circuit: Option<Circuit>,
    path: PathBuf,
    /// `verified`, `INSECURE rehearsal key`, or `unverified (imported by an older tronpool)`.
    status: String,
    insecure: bool,
    record: Option<KeyRecord>,
}

fn parse_circuit(s: &str) -> std::result::Result<Circuit, String> {
    s.parse()
}

/// Whether the configured network's node is a tronpool devnet, by what the node is, never
/// by the network's name. The one place the CLI decides it.
pub(super) async fn on_devnet(settings: &Settings) -> Result<bool> {
    let node = settings.node_client()?;
    crate::service::devnet_identity::is_tronpool_devnet(&node).await
}

/// Contributions as snarkjs lists them, with the beacon's parameters.
fn contributions_text(list: &[ContributionRecord]) -> String {
    let mut out = String::new();
    for c in list {
        let name = c.name.as_deref().unwrap_or("");
        out.push_str(&format!("contribution #{} {name}:\n", c.index));
        if let Ok(bytes) = <[u8; 64]>::try_from(hex::decode(&c.hash).unwrap_or_default()) {
            for line in zk::zkey_verify::format_hash(&bytes).lines() {
                out.push_str(&format!("    {line}\n"));
            }
        }
        if let (Some(hash), Some(exp)) = (&c.beacon_hash, c.beacon_iterations_exp) {
            out.push_str(&format!("    beacon: {hash}, 2^{exp} SHA-256 rounds\n"));
        }
    }
    out
}

impl CeremonyCommand {
    pub async fn run(self, ctx: &Context) -> Result<()> {
        match self {
            CeremonyCommand::R1cs { circuit, output } => r1cs(ctx, circuit, output),
            CeremonyCommand::Verify { zkey, ptau } => {
                let checking = spinner(ctx, "verifying the zkey against the circuit and the ptau");
                let verified = tokio::task::block_in_place(|| verify_zkey(&zkey, &ptau));
                checking.finish_and_clear();
                let verified = verified?;
                let report = &verified.report;
                let out = Verified {
                    ok: true,
                    circuit: report.circuit,
                    verifying_key_sha256: verified.verifying_key_sha256.clone(),
                    ptau_blake2b: verified.ptau_blake2b.clone(),
                    ptau_power: report.ptau_power,
                    circuit_hash: hex::encode(report.circuit_hash),
                    circuit_hash_recomputed: report.circuit_hash_recomputed,
                    contributions: crate::service::ceremony::contributions(report),
                    beacon: report.ends_with_beacon(),
                };
                ctx.out.result(&out, || {
                    format!(
                        "{} circuit\nptau: 2^{} powers, blake2b {}\ncircuit hash{}:\n{}{}{}\
                         verifying key {}\nok",
                        out.circuit,
                        out.ptau_power,
                        out.ptau_blake2b,
                        if out.circuit_hash_recomputed {
                            ""
                        } else {
                            " (as recorded: snarkjs hashed bytes past this ptau's powers, so \
                             it cannot be recomputed; the key is checked all the same)"
                        },
                        indent(&zk::zkey_verify::format_hash(&report.circuit_hash)),
                        contributions_text(&out.contributions),
                        if out.beacon {
                            ""
                        } else {
                            "the last contribution is not a beacon\n"
                        },
                        out.verifying_key_sha256
                    )
                })
            }
            CeremonyCommand::Import {
                zkey,
                ptau,
                rehearsal,
            } => {
                let settings = ctx.settings()?;
                let network = settings.network.value.clone();
                // Only --rehearsal depends on what the node is: the policy's other path holds
                // on every network, so an import without it needs no node.
                let devnet = if rehearsal {
                    on_devnet(settings).await?
                } else {
                    false
                };
                let keys_dir = settings.keys_dir();
                let request = ImportRequest {
                    zkey: &zkey,
                    ptau: ptau.as_deref(),
                    rehearsal,
                    on_devnet: devnet,
                    network: &network,
                    accepted: crate::network::accepted_ptau(&network),
                };
                let reading = spinner(ctx, "verifying the zkey against the circuit and the ptau");
                let imported = tokio::task::block_in_place(|| import_zkey(&request, &keys_dir));
                reading.finish_and_clear();
                let imported = imported?;
                let record = imported.record;
                let out = Imported {
                    verifying_key_sha256: imported.keys.verifying_key_sha256(),
                    path: imported.path,
                    already_imported: imported.already,
                    insecure: record.rehearsal,
                    record,
                };
                if out.insecure {
                    ctx.out.warn(format!(
                        "an INSECURE rehearsal key ({}): usable on a tronpool devnet only, never \
                         for money",
                        out.record.insecure_because.join("; ")
                    ));
                }
                ctx.out.result(&out, || {
                    format!(
                        "{}{} {} circuit's keys with verifying key {} ({}): {}",
                        contributions_text(&out.record.contributions),
                        if out.already_imported {
                            "already have the"
                        } else {
                            "imported the"
                        },
                        out.record.circuit,
                        out.verifying_key_sha256,
                        out.record.status(),
                        out.path.display()
                    )
                })
            }
            CeremonyCommand::Keys => {
                let dir = ctx.settings()?.keys_dir();
                let mut found = Vec::new();
                if let Ok(entries) = std::fs::read_dir(&dir) {
                    for entry in entries.flatten() {
                        let path = entry.path();
                        if path.extension().is_some_and(|e| e == "zkey")
                            && let Some(stem) = path.file_stem()
                        {
                            let record = read_record(&record_path(&path)).ok().flatten();
                            let status = record.as_ref().map_or(
                                "unverified (imported by an older tronpool)".to_owned(),
                                |r| r.status().to_owned(),
                            );
                            found.push(KeyFile {
                                verifying_key_sha256: stem.to_string_lossy().into_owned(),
                                circuit: record.as_ref().map(|r| r.circuit),
                                path,
                                insecure: record.as_ref().is_none_or(|r| r.rehearsal),
                                status,
                                record,
                            });
                        }
                    }
                }
                found.sort_by(|a, b| a.verifying_key_sha256.cmp(&b.verifying_key_sha256));
                ctx.out.result(&found, || {
                    if found.is_empty() {
                        return format!(
                            "no imported keys in {}; `tronpool ceremony import FILE.zkey`",
                            dir.display()
                        );
                    }
                    let mut rows = vec![[
                        "verifying key".to_owned(),
                        "circuit".to_owned(),
                        "status".to_owned(),
                        "file".to_owned(),
                    ]];
                    rows.extend(found.iter().map(|k| {
                        [
                            k.verifying_key_sha256.clone(),
                            k.circuit.map_or("?".to_owned(), |c| c.to_string()),
                            k.status.clone(),
                            k.path.display().to_string(),
                        ]
                    }));
                    table(&rows)
                })
            }
        }
    }
}

fn indent(text: &str) -> String {
    text.lines().map(|l| format!("    {l}\n")).collect()
}

fn r1cs(ctx: &Context, circuit: Circuit, output: Option<PathBuf>) -> Result<()> {
    let bytes = circuit.r1cs_file();
    let system = circuit.constraint_system();
    let sha256 = hex::encode(Sha256::digest(&bytes));
    let described = format!(
        "the {circuit} circuit ({} constraints, needs a ptau of power {} or more; {} bytes, \
         sha256 {sha256})",
        system.num_constraints(),
        system.domain_size().trailing_zeros(),
        bytes.len()
    );
    match &output {
        Some(path) => {
            std::fs::write(path, &bytes).map_err(|e| Error::io(path, e))?;
            let out = R1cs {
                circuit,
                constraints: system.num_constraints(),
                ptau_power: system.domain_size().trailing_zeros(),
                path: Some(path.clone()),
                bytes: bytes.len(),
                sha256,
            };
            ctx.out
                .result(&out, || format!("wrote {described} to {}", path.display()))
        }
        None => {
            let mut stdout = std::io::stdout();
            if ctx.out.json {
                return Err(Error::usage(
                    "--json prints the result on standard output: pass -o FILE for the .r1cs",
                ));
            }
            if stdout.is_terminal() {
                return Err(Error::usage(
                    "the .r1cs file is binary: pass -o FILE or redirect standard output",
                ));
            }
            stdout
                .write_all(&bytes)
                .and_then(|()| stdout.flush())
                .map_err(|e| Error::os("writing to standard output", e))?;
            ctx.out.note(format!("wrote {described}"));
            Ok(())
        }
    }
}
