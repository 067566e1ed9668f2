//! Reading input that may be a file or standard input, and asking the person at the terminal.

use std::io::{IsTerminal, Read};
use std::path::Path;

use crate::error::{Error, Result};

use super::context::Context;
use super::terminal::passphrase_from_file;

/// Reads `path`, or standard input for `-` or no path. Refuses to wait on an interactive
/// terminal for input that was meant to be piped.
pub(crate) fn read_text(path: Option<&Path>, what: &str) -> Result<String> {
    match path {
        Some(p) if p != Path::new("-") => std::fs::read_to_string(p).map_err(|e| Error::io(p, e)),
        _ => {
            let stdin = std::io::stdin();
            if stdin.is_terminal() {
                return Err(Error::usage(format!(
                    "give {what} as a FILE argument or pipe it on standard input"
                )));
            }
            let mut text = String::new();
            stdin
                .lock()
                .read_to_string(&mut text)
                .map_err(|e| Error::io("<stdin>", e))?;
            Ok(text)
        }
    }
}

/// Asks before something that spends. `--yes` answers for the person; without a terminal and
/// without `--yes` the command refuses rather than guessing.
pub(crate) fn confirm(ctx: &Context, command: &str, question: &str) -> Result<()> {
    if ctx.global.yes {
        return Ok(());
    }
    if !ctx.interactive() {
        return Err(Error::usage(format!(
            "`{command}` needs confirmation and there is no terminal to ask on; pass --yes"
        )));
    }
    // The answer takes effect on Enter, not on the first key: someone who types `y⏎` out of
    // habit must not have the ⏎ answer the next prompt with its default.
    let yes = dialoguer::Confirm::new()
        .with_prompt(question)
        .default(false)
        .wait_for_newline(true)
        .interact()
        .map_err(|dialoguer::Error::IO(e)| Error::os("cannot ask for confirmation", e))?;
    if yes {
        Ok(())
    } else {
        Err(Error::Failed("cancelled; nothing was sent".into()))
    }
}

/// `--refund TRX` in sun.
pub(crate) fn refund_sun(text: Option<&str>) -> Result<alloy_primitives::U256> {
    match text {
        None => Ok(alloy_primitives::U256::ZERO),
        Some(text) => crate::service::inputs::parse_units(text, 6)
            .ok_or_else(|| Error::usage(format!("--refund `{text}` is not an amount of TRX"))),
    }
}

/// A new passphrase: from `TRONPOOL_PASSPHRASE_FILE`, or typed twice at a hidden prompt.
pub(crate) fn new_passphrase(ctx: &Context, what: &str) -> Result<zeroize::Zeroizing<String>> {
    let passphrase = if let Some(p) = passphrase_from_file()? {
        p
    } else if ctx.interactive() {
        dialoguer::Password::new()
            .with_prompt(format!("New passphrase for {what}"))
            .with_confirmation("Again", "the two did not match")
            .interact()
            .map(zeroize::Zeroizing::new)
            .map_err(|dialoguer::Error::IO(e)| Error::os("cannot read from the terminal", e))?
    } else {
        return Err(Error::usage(format!(
            "no passphrase: set {} to a file holding it, or run at a terminal",
            crate::env_vars::PASSPHRASE_FILE
        )));
    };
    if passphrase.chars().count() < 8 {
        return Err(Error::usage(
            "the passphrase is too short (8 characters at least)",
        ));
    }
    Ok(passphrase)
}
