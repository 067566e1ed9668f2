//! What the terminal and the environment hand us: a secret typed at a hidden prompt, and the
//! passphrase in the file `TRONPOOL_PASSPHRASE_FILE` names. Below the context and the prompts,
//! so both can use it.

use crate::error::{Error, Result};

/// Reads a secret at a hidden prompt.
pub(crate) fn hidden(prompt: &str) -> Result<zeroize::Zeroizing<String>> {
    dialoguer::Password::new()
        .with_prompt(prompt)
        .interact()
        .map(zeroize::Zeroizing::new)
        .map_err(|dialoguer::Error::IO(e)| Error::os("cannot read from the terminal", e))
}

/// The passphrase in the file `TRONPOOL_PASSPHRASE_FILE` names (its first line), if it is set.
pub(crate) fn passphrase_from_file() -> Result<Option<zeroize::Zeroizing<String>>> {
    let Some(path) = std::env::var_os(crate::env_vars::PASSPHRASE_FILE).filter(|p| !p.is_empty())
    else {
        return Ok(None);
    };
    let path = std::path::PathBuf::from(path);
    let text =
        zeroize::Zeroizing::new(std::fs::read_to_string(&path).map_err(|e| Error::io(&path, e))?);
    let line = text.lines().next().unwrap_or_default();
    if line.is_empty() {
        return Err(Error::usage(format!(
            "{} names {}, which holds no passphrase",
            crate::env_vars::PASSPHRASE_FILE,
            path.display()
        )));
    }
    Ok(Some(zeroize::Zeroizing::new(line.to_owned())))
}
