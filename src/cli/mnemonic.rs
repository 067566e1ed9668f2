//! `tronpool mnemonic new | import`: the BIP-39 mnemonic deposits derive their notes from,
//! so that `tronpool notes recover` can find them again with the mnemonic alone.

use std::io::IsTerminal;
use std::path::PathBuf;

use clap::{Args, Subcommand};
use serde::Serialize;
use zeroize::Zeroizing;

use crate::error::{Error, Result};
use crate::service::seed::{Seed, new_mnemonic, normalize_mnemonic};
use crate::store::keystore::{read_mnemonic, store_mnemonic};

use super::context::Context;
use super::input::read_text;
use super::terminal::hidden;

#[derive(Debug, Subcommand)]
pub enum MnemonicCommand {
    /// Create a 24-word mnemonic, store it (mode 0600) and print it once: write it down
    New,
    /// Store an existing mnemonic, read from --from FILE, standard input or a hidden prompt
    /// (never an argument)
    Import(ImportArgs),
    /// Whether a mnemonic is stored, and its id (which reveals nothing of it)
    Status,
}

#[derive(Debug, Args)]
pub struct ImportArgs {
    /// Read the mnemonic from this file (`-` for standard input)
    #[arg(long, value_name = "FILE")]
    from: Option<PathBuf>,
}

#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
struct Stored {
    id: String,
    path: PathBuf,
    #[serde(skip_serializing_if = "Option::is_none")]
    mnemonic: Option<String>,
}

impl MnemonicCommand {
    pub fn run(self, ctx: &Context) -> Result<()> {
        let path = ctx.locate()?.0.mnemonic_file();
        let vault = ctx.vault()?;
        match self {
            MnemonicCommand::New => {
                if path.exists() {
                    return Err(Error::Conflict(format!(
                        "a mnemonic is already stored at {}; it is not replaced",
                        path.display()
                    )));
                }
                let words = new_mnemonic();
                store_mnemonic(&path, &words, &vault)?;
                let out = Stored {
                    id: Seed::from_mnemonic(&words)?.id(),
                    path,
                    mnemonic: Some(words.to_string()),
                };
                ctx.out.warn(
                    "this is the only time the mnemonic is shown: write it down and keep it \
                     offline. With it, `tronpool notes recover` finds every deposit made from it.",
                );
                ctx.out.result(&out, || {
                    format!("{}\n", out.mnemonic.as_deref().unwrap_or(""))
                })
            }
            MnemonicCommand::Import(args) => {
                let text = read_words(ctx, args.from)?;
                let words = normalize_mnemonic(&text)?;
                store_mnemonic(&path, &words, &vault)?;
                let out = Stored {
                    id: Seed::from_mnemonic(&words)?.id(),
                    path,
                    mnemonic: None,
                };
                ctx.out.result(&out, || {
                    format!(
                        "mnemonic {} stored in {}; `tronpool notes recover` finds its deposits\n",
                        out.id,
                        out.path.display()
                    )
                })
            }
            MnemonicCommand::Status => {
                #[derive(Serialize)]
                #[serde(rename_all = "camelCase")]
                struct Status {
                    stored: bool,
                    #[serde(skip_serializing_if = "Option::is_none")]
                    id: Option<String>,
                    path: PathBuf,
                }
                let id = match read_mnemonic(&path, &vault)? {
                    Some(words) => Some(Seed::from_mnemonic(&words)?.id()),
                    None => None,
                };
                let out = Status {
                    stored: id.is_some(),
                    id,
                    path,
                };
                ctx.out.result(&out, || match &out.id {
                    Some(id) => format!("mnemonic {id} stored in {}\n", out.path.display()),
                    None => "no mnemonic stored (`tronpool mnemonic new` or `import`)\n".into(),
                })
            }
        }
    }
}

fn read_words(ctx: &Context, from: Option<PathBuf>) -> Result<Zeroizing<String>> {
    if let Some(path) = from {
        return Ok(Zeroizing::new(read_text(Some(&path), "the mnemonic")?));
    }
    if ctx.interactive() {
        return hidden("Mnemonic (12 to 24 words, hidden)");
    }
    if !std::io::stdin().is_terminal() {
        return Ok(Zeroizing::new(read_text(None, "the mnemonic")?));
    }
    Err(Error::usage(
        "no mnemonic to import: use --from FILE or pipe it on standard input",
    ))
}
