//! Where things live. `TRONPOOL_HOME` puts everything in one folder (tests, portable installs);
//! otherwise the platform's config and data folders from `directories`.

use std::path::{Path, PathBuf};

use crate::env_vars;
use crate::error::{Error, Result};

/// The folders tronpool uses.
#[derive(Debug, Clone)]
pub struct Dirs {
    /// Holds `config.toml`.
    pub config_dir: PathBuf,
    /// Holds keys and, per network, notes, tree caches and relayer jobs.
    pub data_dir: PathBuf,
}

impl Dirs {
    pub fn resolve() -> Result<Self> {
        if let Some(home) = std::env::var_os(env_vars::HOME).filter(|h| !h.is_empty()) {
            let home = PathBuf::from(home);
            return Ok(Dirs {
                config_dir: home.clone(),
                data_dir: home,
            });
        }
        let project = directories::ProjectDirs::from("", "", "tronpool").ok_or_else(|| {
            Error::usage(format!(
                "cannot find a home folder for tronpool's files; set {}",
                env_vars::HOME
            ))
        })?;
        Ok(Dirs {
            config_dir: project.config_dir().to_path_buf(),
            data_dir: project.data_dir().to_path_buf(),
        })
    }

    pub(crate) fn default_config_file(&self) -> PathBuf {
        self.config_dir.join("config.toml")
    }

    pub(crate) fn keys_dir(&self) -> PathBuf {
        self.data_dir.join("keys")
    }

    /// The key `key new` and `key import` store and signing commands use by default.
    pub(crate) fn default_key_file(&self) -> PathBuf {
        self.keys_dir().join("default.key")
    }

    /// The mnemonic `mnemonic new` and `mnemonic import` store; deposits derive notes from it.
    pub(crate) fn mnemonic_file(&self) -> PathBuf {
        self.keys_dir().join("mnemonic")
    }
}

/// `~/x` → `$HOME/x`, for paths written in the config file.
pub(crate) fn expand_tilde(path: &Path) -> PathBuf {
    if let Ok(rest) = path.strip_prefix("~")
        && let Some(home) = directories::BaseDirs::new()
    {
        return home.home_dir().join(rest);
    }
    path.to_path_buf()
}
