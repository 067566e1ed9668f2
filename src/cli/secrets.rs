//! `tronpool secrets status | encrypt`: the stored secrets (every network's notes, the stored
//! key, the mnemonic) sealed with a passphrase, or whether they are (`store::vault`).

use std::path::{Path, PathBuf};
use std::sync::Arc;

use clap::Subcommand;
use serde::Serialize;

use crate::error::{Error, Result};
use crate::store::keystore::{file_sealed, seal_key_file, seal_mnemonic_file};
use crate::store::notes::{NoteStore, SealCount};
use crate::store::vault::Vault;

use super::context::Context;
use super::input::new_passphrase;

#[derive(Debug, Subcommand)]
pub enum SecretsCommand {
    /// Whether the secrets are encrypted: the vault, the key, the mnemonic, each network's notes
    Status,
    /// Encrypt the stored secrets with a passphrase (argon2id, XChaCha20-Poly1305), converting
    /// what is stored in the clear; run again to finish a conversion that was interrupted
    ///
    /// The passphrase is read from the file TRONPOOL_PASSPHRASE_FILE names, or typed twice at
    /// a hidden prompt. Every later command that reads or writes a secret asks for it the
    /// same way; a wrong one is exit 6 and changes nothing. Without it the notes are lost
    /// unless the mnemonic recovers them: keep both.
    Encrypt,
}

/// A secret file's state.
#[derive(Serialize)]
#[serde(rename_all = "lowercase")]
enum FileState {
    Missing,
    Plain,
    Sealed,
}

fn file_state(path: &Path) -> Result<FileState> {
    Ok(match file_sealed(path)? {
        None => FileState::Missing,
        Some(false) => FileState::Plain,
        Some(true) => FileState::Sealed,
    })
}

#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
struct NetworkNotes {
    network: String,
    #[serde(flatten)]
    count: SealCount,
}

#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
struct Status {
    /// Whether the vault exists: secrets are written sealed.
    encrypted: bool,
    /// Whether anything is still stored in the clear.
    complete: bool,
    vault: PathBuf,
    key: FileState,
    mnemonic: FileState,
    notes: Vec<NetworkNotes>,
}

/// Every network database in the data folder.
fn databases(data_dir: &Path) -> Result<Vec<(String, PathBuf)>> {
    let mut found = Vec::new();
    let entries = match std::fs::read_dir(data_dir) {
        Ok(entries) => entries,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(found),
        Err(e) => return Err(Error::io(data_dir, e)),
    };
    for entry in entries {
        let entry = entry.map_err(|e| Error::io(data_dir, e))?;
        let network = entry.file_name().to_string_lossy().into_owned();
        let db = crate::store::db::path(data_dir, &network);
        if db.is_file() {
            found.push((network, db));
        }
    }
    found.sort();
    Ok(found)
}

fn status(data_dir: &Path, dirs: &crate::store::paths::Dirs, vault: &Arc<Vault>) -> Result<Status> {
    let mut notes = Vec::new();
    for (network, db) in databases(data_dir)? {
        let count = NoteStore::open(&db, vault.clone())?.seal_count()?;
        notes.push(NetworkNotes { network, count });
    }
    let key = file_state(&dirs.default_key_file())?;
    let mnemonic = file_state(&dirs.mnemonic_file())?;
    let complete = vault.enabled()
        && !matches!(key, FileState::Plain)
        && !matches!(mnemonic, FileState::Plain)
        && notes.iter().all(|n| n.count.plain == 0);
    Ok(Status {
        encrypted: vault.enabled(),
        complete,
        vault: vault.file().to_path_buf(),
        key,
        mnemonic,
        notes,
    })
}

fn describe(status: &Status) -> String {
    let state = |s: &FileState| match s {
        FileState::Missing => "none stored",
        FileState::Plain => "in the clear",
        FileState::Sealed => "encrypted",
    };
    let mut text = if status.encrypted {
        format!("encrypted (vault {})\n", status.vault.display())
    } else {
        "not encrypted (`tronpool secrets encrypt` turns it on)\n".to_owned()
    };
    text.push_str(&format!("key: {}\n", state(&status.key)));
    text.push_str(&format!("mnemonic: {}\n", state(&status.mnemonic)));
    for n in &status.notes {
        text.push_str(&format!(
            "notes on {}: {} encrypted, {} in the clear\n",
            n.network, n.count.sealed, n.count.plain
        ));
    }
    if status.encrypted && !status.complete {
        text.push_str("some secrets are still in the clear: run `tronpool secrets encrypt`\n");
    }
    text
}

impl SecretsCommand {
    pub fn run(self, ctx: &Context) -> Result<()> {
        let dirs = ctx.locate()?.0;
        let data_dir = dirs.data_dir.clone();
        match self {
            SecretsCommand::Status => {
                let status = status(&data_dir, &dirs, &ctx.vault()?)?;
                ctx.out.result(&status, || describe(&status))
            }
            SecretsCommand::Encrypt => {
                let existing = ctx.vault()?;
                let vault = if existing.enabled() {
                    // Finishing a conversion: the passphrase must open the vault first.
                    existing.key()?;
                    existing
                } else {
                    let passphrase = new_passphrase(ctx, "the secrets")?;
                    Arc::new(Vault::create(&data_dir, &passphrase)?)
                };
                let mut sealed = 0u64;
                sealed += u64::from(seal_key_file(&dirs.default_key_file(), &vault)?);
                sealed += u64::from(seal_mnemonic_file(&dirs.mnemonic_file(), &vault)?);
                for (_, db) in databases(&data_dir)? {
                    sealed += NoteStore::open(&db, vault.clone())?.seal_all()?;
                }
                ctx.out.note(format!(
                    "sealed {sealed} secret(s); from now on they are read and written encrypted"
                ));
                let status = status(&data_dir, &dirs, &vault)?;
                ctx.out.result(&status, || describe(&status))
            }
        }
    }
}
