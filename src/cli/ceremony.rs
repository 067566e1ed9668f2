//! `tronpool ceremony r1cs|import|keys`: the withdraw circuit out to a snarkjs Phase 2
//! ceremony, and its keys back in (docs/ceremony.md walks through it).

use std::io::{IsTerminal, Write};
use std::path::PathBuf;

use clap::Subcommand;
use serde::Serialize;
use sha2::{Digest, Sha256};

use crate::error::{Error, Result};
use crate::service::ceremony::import_zkey;

use super::Context;
use super::output::table;
use super::session::spinner;

#[derive(Debug, Subcommand)]
pub enum CeremonyCommand {
    /// Write the withdraw circuit's constraint system in circom's .r1cs format, for
    /// `snarkjs groth16 setup`
    R1cs {
        /// The file to write (default: standard output, when it is not a terminal)
        #[arg(short, long, value_name = "FILE")]
        output: Option<PathBuf>,
    },
    /// Check a ceremony's .zkey against the withdraw circuit and keep it, named by its
    /// verifying key, for withdrawals and `deploy`
    Import {
        /// The final .zkey of the ceremony
        #[arg(value_name = "FILE")]
        zkey: PathBuf,
    },
    /// List the imported keys
    Keys,
}

#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
struct R1cs {
    path: Option<PathBuf>,
    bytes: usize,
    sha256: String,
}

#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
struct Imported {
    verifying_key_sha256: String,
    path: PathBuf,
    already_imported: bool,
}

#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
struct KeyFile {
    verifying_key_sha256: String,
    path: PathBuf,
}

impl CeremonyCommand {
    pub fn run(self, ctx: &Context) -> Result<()> {
        match self {
            CeremonyCommand::R1cs { output } => r1cs(ctx, output),
            CeremonyCommand::Import { zkey } => {
                let keys_dir = ctx.settings()?.keys_dir();
                let reading = spinner(ctx, "checking the zkey against the withdraw circuit");
                let imported = import_zkey(&zkey, &keys_dir);
                reading.finish_and_clear();
                let imported = imported?;
                let out = Imported {
                    verifying_key_sha256: imported.keys.verifying_key_sha256(),
                    path: imported.path,
                    already_imported: imported.already,
                };
                ctx.out.result(&out, || {
                    format!(
                        "{} keys with verifying key {}: {}",
                        if out.already_imported {
                            "already have the"
                        } else {
                            "imported the"
                        },
                        out.verifying_key_sha256,
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
                            found.push(KeyFile {
                                verifying_key_sha256: stem.to_string_lossy().into_owned(),
                                path,
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
                    let mut rows = vec![["verifying key".to_owned(), "file".to_owned()]];
                    rows.extend(
                        found.iter().map(|k| {
                            [k.verifying_key_sha256.clone(), k.path.display().to_string()]
                        }),
                    );
                    table(&rows)
                })
            }
        }
    }
}

fn r1cs(ctx: &Context, output: Option<PathBuf>) -> Result<()> {
    let bytes = zk::r1cs::withdraw_r1cs();
    let sha256 = hex::encode(Sha256::digest(&bytes));
    match &output {
        Some(path) => {
            std::fs::write(path, &bytes).map_err(|e| Error::io(path, e))?;
            let out = R1cs {
                path: Some(path.clone()),
                bytes: bytes.len(),
                sha256,
            };
            ctx.out.result(&out, || {
                format!(
                    "wrote the withdraw circuit to {} ({} bytes, sha256 {})",
                    path.display(),
                    out.bytes,
                    out.sha256
                )
            })
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
                .map_err(|e| Error::Failed(format!("writing to standard output: {e}")))?;
            ctx.out.note(format!(
                "wrote the withdraw circuit ({} bytes, sha256 {sha256})",
                bytes.len()
            ));
            Ok(())
        }
    }
}
