//! `config.toml`: read strictly, never written behind the user's back.
//!
//! Unknown keys are errors (a typo must not silently fall back to a default), every error
//! names the file, line and column, and loading never writes: only `config init` creates the
//! file, and only when there is none.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use serde::Deserialize;
use tron::Address;
use url::Url;

/// The file as written by the user.
#[derive(Debug, Clone, Default, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ConfigFile {
    /// The network used when neither `--network` nor `TRONPOOL_NETWORK` says.
    pub network: Option<String>,
    /// TronGrid API key for every network that has none of its own.
    pub api_key: Option<String>,
    /// Key file to sign with.
    pub key_file: Option<PathBuf>,
    /// Overrides of the presets, and custom networks.
    #[serde(default)]
    pub networks: BTreeMap<String, NetworkFile>,
}

/// One `[networks.NAME]` table.
#[derive(Debug, Clone, Default, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct NetworkFile {
    /// FullNode HTTP URL.
    pub node: Option<Url>,
    /// Where TronGrid's `/v1/…/events` API is served (the node URL when absent).
    pub events: Option<Url>,
    /// The USDT (TRC-20) contract.
    pub usdt: Option<Address>,
    pub api_key: Option<String>,
    /// The relayer `tronpool relay` uses when `--relayer` is not given (its base URL).
    pub relayer: Option<Url>,
}

#[derive(Debug, thiserror::Error)]
pub enum ConfigError {
    #[error("config file {} does not exist", path.display())]
    Missing { path: PathBuf },
    #[error("cannot read config file {}: {source}", path.display())]
    Read {
        path: PathBuf,
        #[source]
        source: std::io::Error,
    },
    #[error("config file {}, line {line}, column {column}: {message}", path.display())]
    Parse {
        path: PathBuf,
        line: usize,
        column: usize,
        message: String,
    },
}

impl ConfigFile {
    /// Reads `path`. A missing file is `Ok(None)` unless `required` (named explicitly).
    pub fn load(path: &Path, required: bool) -> Result<Option<Self>, ConfigError> {
        let text = match std::fs::read_to_string(path) {
            Ok(text) => text,
            Err(e) if e.kind() == std::io::ErrorKind::NotFound && !required => return Ok(None),
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => {
                return Err(ConfigError::Missing {
                    path: path.to_path_buf(),
                });
            }
            Err(source) => {
                return Err(ConfigError::Read {
                    path: path.to_path_buf(),
                    source,
                });
            }
        };
        Self::parse(path, &text).map(Some)
    }

    pub fn parse(path: &Path, text: &str) -> Result<Self, ConfigError> {
        toml::from_str(text).map_err(|e| {
            let (line, column) = e
                .span()
                .map(|span| line_and_column(text, span.start))
                .unwrap_or((1, 1));
            ConfigError::Parse {
                path: path.to_path_buf(),
                line,
                column,
                message: e.message().trim().replace('\n', "; "),
            }
        })
    }
}

/// 1-based line and column of a byte offset.
fn line_and_column(text: &str, offset: usize) -> (usize, usize) {
    let before = &text[..offset.min(text.len())];
    let line = before.matches('\n').count() + 1;
    let column = before.rsplit('\n').next().map_or(0, |l| l.chars().count()) + 1;
    (line, column)
}

/// What `config init` writes: every setting, commented, with its default.
pub fn template(network: Option<&str>) -> String {
    let network_line = match network {
        Some(name) => format!("network = \"{name}\"\n"),
        None => "# network = \"devnet\"\n".to_owned(),
    };
    format!(
        r#"# tronpool configuration.
# Precedence: command-line flags > TRONPOOL_* environment variables > this file > defaults.
# `tronpool config show` prints every value and where it came from.

# The network to use: devnet (default), nile, shasta, mainnet, or one defined below.
{network_line}
# TronGrid API key, sent as TRON-PRO-API-KEY (or set TRONPOOL_API_KEY).
# api_key = "00000000-0000-0000-0000-000000000000"

# The private key file to sign with (default: the key stored by `tronpool key new|import`).
# key_file = "~/secrets/tron.key"

# Override a preset...
# [networks.nile]
# node = "https://nile.trongrid.io"
# events = "https://nile.trongrid.io"
# api_key = "..."
# relayer = "https://relayer.example.org"   # for `tronpool relay` without --relayer

# ...or define your own network.
# [networks.private]
# node = "http://10.0.0.5:8090"
# usdt = "TR7NHqjeKQxGTCi8q8ZY4pL8otSzgjLj6t"
"#
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn template_parses() {
        let file = ConfigFile::parse(Path::new("c.toml"), &template(Some("nile"))).unwrap();
        assert_eq!(file.network.as_deref(), Some("nile"));
        ConfigFile::parse(Path::new("c.toml"), &template(None)).unwrap();
    }

    #[test]
    fn errors_name_file_line_and_column() {
        let text = "network = \"nile\"\n\n[networks.nile]\nnode = \"not a url\"\n";
        let err = ConfigFile::parse(Path::new("/x/config.toml"), text).unwrap_err();
        let msg = err.to_string();
        assert!(
            msg.starts_with("config file /x/config.toml, line 4, column 8: "),
            "{msg}"
        );

        let err = ConfigFile::parse(Path::new("c.toml"), "netwrok = 1\n").unwrap_err();
        assert!(err.to_string().contains("line 1"), "{err}");
        assert!(err.to_string().contains("netwrok"), "{err}");

        let err =
            ConfigFile::parse(Path::new("c.toml"), "[networks.x]\nusdt = \"Tbad\"\n").unwrap_err();
        assert!(err.to_string().contains("line 2"), "{err}");
    }
}
