//! What every command is handed: the global options, the output, and the settings and the
//! vault, each read on first use and at most once a run.

use std::io::IsTerminal;

use crate::error::{Error, Result};
use crate::settings::{Overrides, Settings};

use super::global::GlobalArgs;
use super::output::Output;
use super::terminal::{hidden, passphrase_from_file};

/// What every command gets: the global options and, on first use, the resolved settings.
pub struct Context {
    pub global: GlobalArgs,
    pub out: Output,
    overrides: Overrides,
    settings: std::cell::OnceCell<Settings>,
    vault: std::cell::OnceCell<std::sync::Arc<crate::store::vault::Vault>>,
}

impl Context {
    pub(crate) fn new(overrides: Overrides, global: GlobalArgs, out: Output) -> Self {
        Context {
            global,
            out,
            overrides,
            settings: std::cell::OnceCell::new(),
            vault: std::cell::OnceCell::new(),
        }
    }

    /// Whether a person can answer a prompt: standard input and error are terminals, no JSON
    /// output was asked for, and this is not CI.
    pub(crate) fn interactive(&self) -> bool {
        std::io::stdin().is_terminal()
            && std::io::stderr().is_terminal()
            && !self.global.json
            && std::env::var_os("CI").is_none_or(|v| v.is_empty() || v == "false" || v == "0")
    }

    /// The folders and the config file's path, without reading the file.
    pub(crate) fn locate(
        &self,
    ) -> Result<(
        crate::store::paths::Dirs,
        crate::settings::Setting<std::path::PathBuf>,
    )> {
        Settings::locate(&self.overrides)
    }

    pub fn settings(&self) -> Result<&Settings> {
        if let Some(s) = self.settings.get() {
            return Ok(s);
        }
        let resolved = Settings::resolve(self.overrides.clone())?;
        Ok(self.settings.get_or_init(|| resolved))
    }

    /// The data folder's vault (encryption of the secrets), asking for its passphrase at most
    /// once a run and only when a secret is read or written.
    pub fn vault(&self) -> Result<std::sync::Arc<crate::store::vault::Vault>> {
        if let Some(v) = self.vault.get() {
            return Ok(v.clone());
        }
        let source = passphrase_source(self.interactive());
        let data_dir = self.locate()?.0.data_dir;
        let vault = std::sync::Arc::new(crate::store::vault::Vault::open(&data_dir, Some(source))?);
        Ok(self.vault.get_or_init(|| vault).clone())
    }
}

/// Where the passphrase of the encrypted secrets comes from: the file `TRONPOOL_PASSPHRASE_FILE`
/// names, else a hidden prompt when a person is at the terminal.
fn passphrase_source(interactive: bool) -> crate::store::vault::PassphraseSource {
    Box::new(move || {
        if let Some(passphrase) = passphrase_from_file()? {
            return Ok(passphrase);
        }
        if interactive {
            return hidden("Passphrase of the encrypted secrets");
        }
        Err(Error::Locked(format!(
            "the secrets are encrypted: set {} to a file holding the passphrase, or run at a \
             terminal",
            crate::env_vars::PASSPHRASE_FILE
        )))
    })
}
