//! `config.toml`: read strictly, never written behind the user's back.
//!
//! Unknown keys are errors (a typo must not silently fall back to a default), every error
//! names the file, line and column, and loading never writes: only `config init` creates the
//! file, and only when there is none.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use serde::{Deserialize, Serialize};
use tron::Address;
use url::Url;

use crate::error::{ConfigError, Error, Result};

/// The file as written by the user.
#[derive(Debug, Clone, Default, Deserialize)]
#[serde(deny_unknown_fields)]
pub(crate) struct ConfigFile {
    /// The network used when neither `--network` nor `TRONPOOL_NETWORK` says.
    pub network: Option<String>,
    /// TronGrid API key for every network that has none of its own.
    pub api_key: Option<String>,
    /// Key file to sign with.
    pub key_file: Option<PathBuf>,
    /// Every request to a node, relayer or sync server goes through this proxy
    /// (`socks5h://HOST:PORT`, or an `http://` CONNECT proxy).
    pub proxy: Option<Url>,
    /// Overrides of the presets, and custom networks.
    #[serde(default)]
    pub networks: BTreeMap<String, NetworkFile>,
}

/// One `[networks.NAME]` table.
#[derive(Debug, Clone, Default, Deserialize)]
#[serde(deny_unknown_fields)]
pub(crate) struct NetworkFile {
    /// FullNode HTTP URL.
    pub node: Option<Url>,
    /// Where TronGrid's `/v1/…/events` API is served (the node URL when absent).
    pub events: Option<Url>,
    /// The USDT (TRC-20) contract.
    pub usdt: Option<Address>,
    /// Wrapped TRX: the other token of a `pair:` price source.
    pub wtrx: Option<Address>,
    pub api_key: Option<String>,
    /// The relayer `tronpool relay` uses when `--relayer` is not given (its base URL).
    pub relayer: Option<Url>,
    /// Where the TRX/USDT rate comes from: `fixed:USDT_PER_TRX` or `pair:ADDRESS` (a SunSwap
    /// V2 WTRX/USDT pair). A relayer prices its fee with it; a client checks quotes with it.
    pub price_source: Option<String>,
    /// The least USDT per TRX a relayer prices at, whatever its source says (e.g. `"0.2"`).
    pub price_floor: Option<String>,
    /// The PostgreSQL database `serve`'s replicas share (`postgres://user:password@host/db`);
    /// none: the network's SQLite file.
    pub database: Option<String>,
    /// The most relayer fee `tronpool relay withdraw` accepts without `--max-fee`, in USDT
    /// (e.g. `"5"`). Needed where the client cannot price a relay (no `price_source`).
    pub max_fee: Option<String>,
    /// Where a pool's deposits and withdrawals are synced from, tried in this order: a
    /// tronpool server's URL, `events` (TronGrid's events API), `scan` (the node's blocks).
    pub sync_from: Option<Vec<String>>,
    /// Where tronpool's contracts are on this network: written by `tronpool deploy`, or
    /// copied from an operator's published record.
    pub deployment: Option<DeploymentRecord>,
}

/// A `[networks.NAME.deployment]` table. `tronpool deploy` writes it after every contract,
/// so an interrupted deployment resumes from it instead of paying for a contract twice.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct DeploymentRecord {
    /// `block.chainid` of the network deployed to.
    pub chain_id: u64,
    pub usdt: Address,
    pub deployer: Address,
    /// SHA-256 of the verifying key the verifier holds: the ceremony's.
    pub verifying_key_sha256: String,
    /// The pools asked for, in whole USDT.
    pub denominations: Vec<u64>,
    /// The first block holding one of the contracts.
    pub block: Option<u64>,
    pub hasher: Option<Address>,
    pub verifier: Option<Address>,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub pools: Vec<PoolRecord>,
    /// A contract broadcast but not yet seen in a block. On resume its receipt is looked
    /// up before anything is sent again.
    pub pending: Option<PendingRecord>,
    /// The percent of each pool call's energy the callers pay (`consume_user_resource_percent`;
    /// the deployer's stake pays the rest). Absent in records from before pools were
    /// sponsored, whose pools make their callers pay it all.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub caller_energy_percent: Option<i64>,
    /// The most energy the deployer pays for one pool call (`origin_energy_limit`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub origin_energy_limit: Option<i64>,
    /// Batch insertion's contracts, when the pools are queued pools.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub batches: Option<BatchRecord>,
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct PoolRecord {
    /// In whole USDT.
    pub denomination: u64,
    pub address: Address,
    /// What a deposit escrows for its insertion, in USDT base units (a queued pool's
    /// `insertionFee`; absent for a pool that inserts at once).
    #[serde(default, skip_serializing_if = "is_zero")]
    pub insertion_fee: u64,
}

fn is_zero(value: &u64) -> bool {
    *value == 0
}

/// `[networks.NAME.deployment.batches]`: the contracts behind a deployment's queued pools
/// (`docs/batches.md`), each recorded as it is deployed; absent in a record from before
/// queued pools, whose pools inserted each deposit at once.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct BatchRecord {
    /// `PoseidonT5`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub hasher4: Option<Address>,
    /// The `Groth16Verifier` holding the batch circuit's verifying key.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub verifier: Option<Address>,
    /// SHA-256 of that key: the batch ceremony's.
    pub verifying_key_sha256: String,
    /// The `BatchInserter`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub inserter: Option<Address>,
    /// What each deposit into the pools still to deploy escrows for its insertion, in USDT
    /// base units (each deployed pool's own is in its `[[pools]]` entry).
    #[serde(default = "default_insertion_fee")]
    pub insertion_fee: u64,
}

fn default_insertion_fee() -> u64 {
    contracts::batches::DEFAULT_INSERTION_FEE
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct PendingRecord {
    /// What is being deployed: `hasher`, `verifier` or `pool 100`.
    pub contract: String,
    pub txid: String,
    /// When the transaction expires (ms): after that it can never be included.
    pub expiration: i64,
    /// The signed transaction (protobuf, hex), sent again on resume: a run stopped before
    /// its broadcast reached the node must not leave the contract waiting for nothing.
    pub transaction: String,
}

/// Why a recorded deployment cannot be used yet: the contracts still missing, or the one
/// whose deployment was sent and not yet seen to land.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum Incomplete {
    #[error("{}", .0.join(", "))]
    Missing(Vec<String>),
    #[error("{0} is still pending")]
    Pending(String),
}

impl DeploymentRecord {
    pub fn pool(&self, denomination: u64) -> Option<Address> {
        self.pools
            .iter()
            .find(|p| p.denomination == denomination)
            .map(|p| p.address)
    }

    /// What is still missing, or `Ok` when every contract is in place.
    pub(crate) fn check_complete(&self) -> std::result::Result<(), Incomplete> {
        let mut missing = Vec::new();
        if self.hasher.is_none() {
            missing.push("the hasher".to_owned());
        }
        if self.verifier.is_none() {
            missing.push("the verifier".to_owned());
        }
        if let Some(b) = &self.batches {
            for (address, name) in [
                (b.hasher4, "the four-input hasher"),
                (b.verifier, "the batch verifier"),
                (b.inserter, "the inserter"),
            ] {
                if address.is_none() {
                    missing.push(name.to_owned());
                }
            }
        }
        for denomination in &self.denominations {
            if self.pool(*denomination).is_none() {
                missing.push(format!("the {denomination} USDT pool"));
            }
        }
        if missing.is_empty() && self.pools.is_empty() {
            missing.push("any pool".into());
        }
        match (missing.is_empty(), &self.pending) {
            (true, None) => Ok(()),
            (true, Some(pending)) => Err(Incomplete::Pending(pending.contract.clone())),
            (false, _) => Err(Incomplete::Missing(missing)),
        }
    }

    /// The deployment as the service layer uses it, once complete.
    pub(crate) fn to_deployment(
        &self,
        network: &str,
    ) -> std::result::Result<contracts::Deployment, Incomplete> {
        self.check_complete()?;
        let (Some(hasher), Some(verifier)) = (self.hasher, self.verifier) else {
            unreachable!("check_complete requires both");
        };
        let mut pools: Vec<contracts::PoolDeployment> = self
            .pools
            .iter()
            .map(|p| contracts::PoolDeployment {
                denomination: p.denomination,
                address: p.address,
                insertion_fee: p.insertion_fee,
            })
            .collect();
        pools.sort_by_key(|p| p.denomination);
        Ok(contracts::Deployment {
            network: network.to_owned(),
            chain_id: self.chain_id,
            usdt: self.usdt,
            hasher,
            verifier,
            pools,
            block: self.block.unwrap_or(0),
            verifying_key_sha256: self.verifying_key_sha256.clone(),
            deployer: self.deployer,
            price_pair: None,
            wtrx: None,
            batches: self.batches.as_ref().map(|b| {
                let (Some(hasher4), Some(verifier), Some(inserter)) =
                    (b.hasher4, b.verifier, b.inserter)
                else {
                    unreachable!("check_complete requires all three");
                };
                contracts::BatchDeployment {
                    hasher4,
                    verifier,
                    verifying_key_sha256: b.verifying_key_sha256.clone(),
                    inserter,
                }
            }),
        })
    }
}

/// Writes `record` as `[networks.NETWORK.deployment]` in the config file at `path`, keeping
/// everything else in the file (comments included) as the user wrote it. The file is
/// replaced atomically and stays 0600: it may hold API keys.
pub(crate) fn write_deployment(
    path: &Path,
    network: &str,
    record: &DeploymentRecord,
) -> Result<()> {
    let text = match std::fs::read_to_string(path) {
        Ok(text) => text,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => String::new(),
        Err(e) => return Err(Error::io(path, e)),
    };
    let mut doc: toml_edit::DocumentMut = text.parse().map_err(|e: toml_edit::TomlError| {
        Error::usage(format!(
            "config file {}: {}",
            path.display(),
            e.message().trim()
        ))
    })?;
    let rendered =
        toml::to_string(record).map_err(|e| Error::caused("writing the deployment record", e))?;
    let table = rendered
        .parse::<toml_edit::DocumentMut>()
        .map_err(|e| Error::caused("writing the deployment record", e))?
        .as_table()
        .clone();
    let networks = doc
        .entry("networks")
        .or_insert_with(|| {
            let mut t = toml_edit::Table::new();
            t.set_implicit(true);
            toml_edit::Item::Table(t)
        })
        .as_table_mut()
        .ok_or_else(|| {
            Error::usage(format!(
                "config file {}: `networks` is not a table",
                path.display()
            ))
        })?;
    let entry = networks
        .entry(network)
        .or_insert_with(|| toml_edit::Item::Table(toml_edit::Table::new()))
        .as_table_mut()
        .ok_or_else(|| {
            Error::usage(format!(
                "config file {}: `networks.{network}` is not a table",
                path.display()
            ))
        })?;
    entry.insert("deployment", toml_edit::Item::Table(table));
    let out = doc.to_string();
    // What we write must read back as what we meant.
    let back = ConfigFile::parse(path, &out)?;
    if back
        .networks
        .get(network)
        .and_then(|n| n.deployment.as_ref())
        != Some(record)
    {
        return Err(Error::Failed(format!(
            "the deployment record did not survive a round trip through {}",
            path.display()
        )));
    }
    crate::store::fs::write_private(path, out.as_bytes(), true)
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

# Send every node, relayer and sync request through a proxy (or set TRONPOOL_PROXY). Use
# socks5h:// (the proxy resolves names) for Tor: socks5:// would ask the local DNS.
# proxy = "socks5h://127.0.0.1:9050"

# Override a preset...
# [networks.nile]
# node = "https://nile.trongrid.io"
# events = "https://nile.trongrid.io"
# api_key = "..."
# relayer = "https://relayer.example.org"   # for `tronpool relay` without --relayer
# price_source = "fixed:0.28"   # USDT per TRX, or "pair:T..." (a SunSwap V2 WTRX/USDT pair)
# wtrx = "T..."                 # the pair's other token (known on mainnet)
# price_floor = "0.2"           # a relayer never prices TRX below this many USDT
# database = "postgres://tronpool:...@db.internal/tronpool"   # `serve` replicas share it
# max_fee = "5"                 # the most relayer fee `relay withdraw` accepts, in USDT
# sync_from = ["https://pool.example.org", "events", "scan"]   # where pools are synced from
#
# `tronpool deploy` records its contracts here, as [networks.nile.deployment]; to use an
# operator's pools, copy the deployment table they publish.

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

    fn record() -> DeploymentRecord {
        let a: Address = "TR7NHqjeKQxGTCi8q8ZY4pL8otSzgjLj6t".parse().unwrap();
        DeploymentRecord {
            chain_id: 0xcd86_90dc,
            usdt: a,
            deployer: a,
            verifying_key_sha256: "ab".repeat(32),
            denominations: vec![100, 500],
            block: Some(7),
            hasher: Some(a),
            verifier: None,
            pools: vec![PoolRecord {
                denomination: 100,
                address: a,
                insertion_fee: 0,
            }],
            pending: Some(PendingRecord {
                contract: "verifier".into(),
                txid: "00".repeat(32),
                expiration: 1,
                transaction: "0a00".into(),
            }),
            caller_energy_percent: Some(0),
            origin_energy_limit: Some(600_000),
            batches: None,
        }
    }

    #[test]
    fn deployment_records_are_written_into_the_users_file() {
        let dir = std::env::temp_dir().join(format!("tronpool-config-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let path = dir.join("config.toml");
        let user = "# mine\nnetwork = \"nile\" # keep this\n\n[networks.nile]\napi_key = \"k\"\n";
        std::fs::write(&path, user).unwrap();

        let mut r = record();
        write_deployment(&path, "nile", &r).unwrap();
        let text = std::fs::read_to_string(&path).unwrap();
        assert!(
            text.starts_with("# mine\nnetwork = \"nile\" # keep this\n"),
            "{text}"
        );
        assert!(text.contains("[networks.nile.deployment]"), "{text}");
        let file = ConfigFile::load(&path, true).unwrap().unwrap();
        let nile = &file.networks["nile"];
        assert_eq!(nile.api_key.as_deref(), Some("k"));
        assert_eq!(nile.deployment.as_ref(), Some(&r));
        assert!(
            r.check_complete()
                .unwrap_err()
                .to_string()
                .contains("the verifier")
        );
        assert!(r.to_deployment("nile").is_err());

        // The next write replaces the table, and a complete record converts.
        r.verifier = Some(r.usdt);
        r.pending = None;
        r.pools.push(PoolRecord {
            denomination: 500,
            address: r.usdt,
            insertion_fee: 0,
        });
        write_deployment(&path, "nile", &r).unwrap();
        let file = ConfigFile::load(&path, true).unwrap().unwrap();
        let back = file.networks["nile"].deployment.clone().unwrap();
        assert_eq!(back, r);
        let deployment = back.to_deployment("nile").unwrap();
        assert_eq!(deployment.pools.len(), 2);
        assert_eq!(deployment.block, 7);
        #[cfg(unix)]
        {
            use std::os::unix::fs::PermissionsExt;
            let mode = std::fs::metadata(&path).unwrap().permissions().mode();
            assert_eq!(mode & 0o777, 0o600);
        }

        // A new file, and another network next to it.
        let fresh = dir.join("fresh.toml");
        write_deployment(&fresh, "shasta", &record()).unwrap();
        write_deployment(&fresh, "private", &r).unwrap();
        let file = ConfigFile::load(&fresh, true).unwrap().unwrap();
        assert_eq!(file.networks.len(), 2);
        std::fs::remove_dir_all(&dir).unwrap();
    }
}
