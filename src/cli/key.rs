//! `tronpool key new | import | address`.

use std::io::IsTerminal;
use std::path::PathBuf;

use clap::{Args, Subcommand};
use serde::Serialize;
use tron::{Address, PrivateKey};
use zeroize::Zeroizing;

use crate::env_vars;
use crate::error::{Error, Result};
use crate::store::keystore::{KeyOrigin, load_signing_key, store_key};

use super::context::Context;
use super::input::read_text;
use super::terminal::hidden;

#[derive(Debug, Subcommand)]
pub enum KeyCommand {
    /// Generate a key from the operating system's random source and store it (mode 0600)
    New(NewArgs),
    /// Store an existing key (mode 0600), never taking it as an argument
    ///
    /// The key is read from --from FILE, from standard input (`--from -`, or piped),
    /// from TRONPOOL_PRIVATE_KEY, or at a hidden prompt, in that order.
    Import(ImportArgs),
    /// Print the address of the key that signing commands use, and where it comes from
    Address,
}

#[derive(Debug, Args)]
pub struct NewArgs {
    /// Write the key to this file instead of the data folder
    #[arg(long, value_name = "PATH")]
    out: Option<PathBuf>,
}

#[derive(Debug, Args)]
pub struct ImportArgs {
    /// Read the key from this file (`-` for standard input)
    #[arg(long, value_name = "FILE")]
    from: Option<PathBuf>,
    /// Store the key in this file instead of the data folder
    #[arg(long, value_name = "PATH")]
    out: Option<PathBuf>,
}

#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
struct Stored<'a> {
    address: Address,
    address_hex: String,
    path: &'a std::path::Path,
}

impl KeyCommand {
    pub fn run(self, ctx: &Context) -> Result<()> {
        match self {
            KeyCommand::New(args) => {
                let path = target(ctx, args.out)?;
                let key = PrivateKey::generate();
                store_key(&path, &key, &*ctx.vault()?)?;
                report_stored(ctx, &key, &path, "new key")
            }
            KeyCommand::Import(args) => {
                let path = target(ctx, args.out)?;
                let key = read_import(ctx, args.from)?;
                store_key(&path, &key, &*ctx.vault()?)?;
                report_stored(ctx, &key, &path, "imported key")
            }
            KeyCommand::Address => {
                let (key, origin) = signing_key(ctx)?;
                #[derive(Serialize)]
                #[serde(rename_all = "camelCase")]
                struct Out {
                    address: Address,
                    address_hex: String,
                    source: String,
                }
                let address = key.address();
                let out = Out {
                    address,
                    address_hex: address.to_hex(),
                    source: origin.to_string(),
                };
                ctx.out.result(&out, || {
                    ctx.out.note(format!("from {origin}"));
                    address.to_base58()
                })
            }
        }
    }
}

fn target(ctx: &Context, out: Option<PathBuf>) -> Result<PathBuf> {
    match out {
        Some(path) => Ok(path),
        None => Ok(ctx.locate()?.0.default_key_file()),
    }
}

fn report_stored(
    ctx: &Context,
    key: &PrivateKey,
    path: &std::path::Path,
    what: &str,
) -> Result<()> {
    let address = key.address();
    let out = Stored {
        address,
        address_hex: address.to_hex(),
        path,
    };
    ctx.out.result(&out, || {
        ctx.out.note(format!(
            "{what} stored in {} (keep a backup: it is the only way to its funds)",
            path.display()
        ));
        address.to_base58()
    })
}

fn parse_key(text: &str, origin: &str) -> Result<PrivateKey> {
    PrivateKey::from_hex(text).map_err(|e| Error::usage(format!("{origin}: {e}")))
}

fn read_import(ctx: &Context, from: Option<PathBuf>) -> Result<PrivateKey> {
    if let Some(path) = from {
        let text = Zeroizing::new(read_text(Some(&path), "the key")?);
        let origin = if path.as_os_str() == "-" {
            "standard input".to_owned()
        } else {
            path.display().to_string()
        };
        return parse_key(&text, &origin);
    }
    if let Some(text) = std::env::var_os(env_vars::PRIVATE_KEY) {
        let text = Zeroizing::new(text.to_string_lossy().into_owned());
        return parse_key(&text, env_vars::PRIVATE_KEY);
    }
    if ctx.interactive() {
        let text = hidden("Private key (64 hex digits, hidden)")?;
        return parse_key(&text, "the prompt");
    }
    if !std::io::stdin().is_terminal() {
        let text = Zeroizing::new(read_text(None, "the key")?);
        return parse_key(&text, "standard input");
    }
    Err(Error::usage(format!(
        "no key to import: use --from FILE, pipe it on standard input, or set {}",
        env_vars::PRIVATE_KEY
    )))
}

/// The relayer's key: from `file` (`--relayer-key-file`), else `TRONPOOL_RELAYER_PRIVATE_KEY`,
/// else on the devnet its dev account 1; `None` elsewhere without either.
pub(crate) fn relayer_key(
    file: Option<&std::path::Path>,
    network: &str,
) -> Result<Option<PrivateKey>> {
    if let Some(path) = file {
        return Ok(Some(crate::store::keystore::read_key_file(path, None)?));
    }
    if let Some(hex) = std::env::var_os(env_vars::RELAYER_PRIVATE_KEY) {
        let hex = zeroize::Zeroizing::new(hex.to_string_lossy().into_owned());
        let key = PrivateKey::from_hex(&hex)
            .map_err(|e| Error::usage(format!("{}: {e}", env_vars::RELAYER_PRIVATE_KEY)))?;
        return Ok(Some(key));
    }
    Ok((network == crate::network::DEFAULT_NETWORK).then(|| devnet::genesis::dev_key(1)))
}

/// The key to sign with: key file, `TRONPOOL_PRIVATE_KEY`, the stored key, on the devnet its
/// dev account 0, or a hidden prompt when a person is at the terminal.
pub(crate) fn signing_key(ctx: &Context) -> Result<(PrivateKey, KeyOrigin)> {
    signing_key_from(ctx.settings()?, &*ctx.vault()?, ctx.interactive())
}

/// [`signing_key`] from settings and a vault already opened; `ask` when there is a terminal
/// to prompt on.
pub(crate) fn signing_key_from(
    settings: &crate::settings::Settings,
    vault: &crate::store::vault::Vault,
    ask: bool,
) -> Result<(PrivateKey, KeyOrigin)> {
    if let Some(found) = load_signing_key(settings, vault)? {
        return Ok(found);
    }
    if settings.network.value == crate::network::DEFAULT_NETWORK {
        return Ok((devnet::genesis::dev_key(0), KeyOrigin::DevAccount));
    }
    if ask {
        let text = hidden("Private key to sign with (64 hex digits, hidden)")?;
        return Ok((parse_key(&text, "the prompt")?, KeyOrigin::Prompt));
    }
    Err(Error::usage(format!(
        "no signing key: run `tronpool key new` or `tronpool key import`, pass --key-file, or set {}",
        env_vars::PRIVATE_KEY
    )))
}
