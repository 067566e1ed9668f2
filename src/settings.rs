//! Resolving every setting from flags, environment, config file and defaults, in that order,
//! and remembering where each value came from so `config show` can say.

use std::fmt;
use std::path::PathBuf;

use serde::Serialize;
use tron::Address;
use url::Url;

use crate::env_vars;
use crate::error::{Error, Result};
use crate::network::{self, DEFAULT_NETWORK};
use crate::store::config::{ConfigFile, DeploymentRecord};
use crate::store::paths::{Dirs, expand_tilde};

/// Where a value came from.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Source {
    Flag,
    Env(&'static str),
    File(PathBuf),
    Preset(&'static str),
    Default,
}

impl fmt::Display for Source {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Source::Flag => f.write_str("flag"),
            Source::Env(var) => write!(f, "env {var}"),
            Source::File(path) => write!(f, "file {}", path.display()),
            Source::Preset(name) => write!(f, "preset {name}"),
            Source::Default => f.write_str("default"),
        }
    }
}

impl Serialize for Source {
    fn serialize<S: serde::Serializer>(&self, s: S) -> std::result::Result<S::Ok, S::Error> {
        s.collect_str(self)
    }
}

/// A value and its origin.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Setting<T> {
    pub value: T,
    pub source: Source,
}

impl<T> Setting<T> {
    fn new(value: T, source: Source) -> Self {
        Setting { value, source }
    }
}

/// What the command line (flag or environment, as clap merged them) says.
#[derive(Debug, Clone, Default)]
pub struct Overrides {
    pub config: Option<(PathBuf, Source)>,
    pub network: Option<(String, Source)>,
    pub node: Option<(Url, Source)>,
    pub key_file: Option<(PathBuf, Source)>,
    pub api_key: Option<(String, Source)>,
    pub proxy: Option<(Url, Source)>,
    /// `--sync-from`'s comma-separated list, unparsed.
    pub sync_from: Option<(String, Source)>,
}

/// Where a pool's deposits and withdrawals are read from. Whatever the source, the leaves are
/// used only when they rebuild a root the pool knows (`service::sync`).
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum SyncSource {
    /// Another tronpool server's `GET /api/pools/{denom}/leaves` and `…/withdrawals`.
    Server(Url),
    /// TronGrid's `/v1/contracts/{address}/events` (at the network's `events` URL).
    EventsApi,
    /// Every block from the pool's deployment on, read with java-tron's
    /// `gettransactioninfobyblocknum`: needs only a node.
    BlockScan,
}

impl SyncSource {
    /// What syncing reads when nothing says: the events API, then the node's blocks.
    pub fn defaults() -> Vec<SyncSource> {
        vec![SyncSource::EventsApi, SyncSource::BlockScan]
    }

    /// A comma-separated list (`--sync-from`, `TRONPOOL_SYNC_FROM`).
    pub(crate) fn parse_list(text: &str) -> std::result::Result<Vec<SyncSource>, BadSyncSource> {
        let sources = text
            .split(',')
            .map(str::trim)
            .filter(|s| !s.is_empty())
            .map(str::parse)
            .collect::<std::result::Result<Vec<SyncSource>, BadSyncSource>>()?;
        if sources.is_empty() {
            return Err(BadSyncSource::Empty);
        }
        Ok(sources)
    }
}

/// A sync source list that names something else, or nothing.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum BadSyncSource {
    #[error("`{0}` is not a sync source: `events`, `scan`, or a tronpool server's http(s) URL")]
    Unknown(String),
    #[error("names no source (events, scan, or a tronpool server's URL)")]
    Empty,
}

impl std::str::FromStr for SyncSource {
    type Err = BadSyncSource;

    fn from_str(text: &str) -> std::result::Result<Self, BadSyncSource> {
        match text {
            "events" => Ok(SyncSource::EventsApi),
            "scan" => Ok(SyncSource::BlockScan),
            _ => match Url::parse(text) {
                Ok(url) if matches!(url.scheme(), "http" | "https") && url.has_host() => {
                    Ok(SyncSource::Server(url))
                }
                _ => Err(BadSyncSource::Unknown(text.to_owned())),
            },
        }
    }
}

impl fmt::Display for SyncSource {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            SyncSource::Server(url) => write!(f, "{url}"),
            SyncSource::EventsApi => f.write_str("events"),
            SyncSource::BlockScan => f.write_str("scan"),
        }
    }
}

impl Serialize for SyncSource {
    fn serialize<S: serde::Serializer>(&self, s: S) -> std::result::Result<S::Ok, S::Error> {
        s.collect_str(self)
    }
}

/// Every setting, resolved.
#[derive(Debug, Clone)]
pub struct Settings {
    pub dirs: Dirs,
    pub config_file: Setting<PathBuf>,
    /// Whether the config file exists and was read.
    pub config_loaded: bool,
    pub network: Setting<String>,
    pub node: Setting<Url>,
    pub events: Setting<Url>,
    pub usdt: Setting<Option<Address>>,
    /// Wrapped TRX (a `pair:` price source's other token).
    pub wtrx: Setting<Option<Address>>,
    pub api_key: Setting<Option<String>>,
    pub key_file: Setting<Option<PathBuf>>,
    /// The relayer `tronpool relay` uses by default (none: on the devnet, its dev relayer).
    pub relayer: Setting<Option<Url>>,
    /// The TRX/USDT price source (`fixed:…` or `pair:…`; none: on the devnet, its pair).
    pub price_source: Setting<Option<String>>,
    /// The least USDT per TRX a relayer prices at (text; none: no floor).
    pub price_floor: Setting<Option<String>>,
    /// The PostgreSQL URL `serve` keeps its shared state in (none: the SQLite file).
    pub database: Setting<Option<String>>,
    /// The most relayer fee `relay withdraw` accepts without `--max-fee`, in USDT (text).
    pub max_fee: Setting<Option<String>>,
    /// Where tronpool's contracts are (none: the devnet's own, or not deployed yet).
    pub deployment: Setting<Option<DeploymentRecord>>,
    /// The `block.chainid` the preset expects, to catch a node on the wrong network.
    pub chain_id: Option<u64>,
    /// The proxy every node, relayer and sync request goes through.
    pub proxy: Setting<Option<Url>>,
    /// Where pools are synced from, in order.
    pub sync_from: Setting<Vec<SyncSource>>,
}

impl Settings {
    /// The folders and the config file's path, without reading the file (so `config path`
    /// and `config init` work when the file is broken).
    pub(crate) fn locate(overrides: &Overrides) -> Result<(Dirs, Setting<PathBuf>)> {
        let dirs = Dirs::resolve()?;
        let config_file = match &overrides.config {
            Some((path, source)) => Setting::new(path.clone(), source.clone()),
            None if std::env::var_os(env_vars::HOME).is_some_and(|h| !h.is_empty()) => {
                Setting::new(dirs.default_config_file(), Source::Env(env_vars::HOME))
            }
            None => Setting::new(dirs.default_config_file(), Source::Default),
        };
        Ok((dirs, config_file))
    }

    pub fn resolve(overrides: Overrides) -> Result<Self> {
        let (dirs, config_file) = Self::locate(&overrides)?;
        // A file named explicitly must exist; the default one is optional.
        let explicit = overrides.config.is_some();
        let file = ConfigFile::load(&config_file.value, explicit)?;
        let config_loaded = file.is_some();
        let file = file.unwrap_or_default();
        let from_file = Source::File(config_file.value.clone());

        let network = match (overrides.network, &file.network) {
            (Some((name, source)), _) => Setting::new(name, source),
            (None, Some(name)) => Setting::new(name.clone(), from_file.clone()),
            (None, None) => Setting::new(DEFAULT_NETWORK.to_owned(), Source::Default),
        };
        let preset = network::preset(&network.value);
        let table = file.networks.get(&network.value);
        if preset.is_none() && table.is_none() {
            let mut known: Vec<&str> = network::PRESETS.iter().map(|p| p.name).collect();
            known.extend(file.networks.keys().map(String::as_str));
            return Err(Error::usage(format!(
                "unknown network `{}` (from {}); known: {}",
                network.value,
                network.source,
                known.join(", ")
            )));
        }
        let table = table.cloned().unwrap_or_default();
        let preset_source = || Source::Preset(preset.map_or("", |p| p.name));

        let node = match (overrides.node, &table.node, preset) {
            (Some((url, source)), _, _) => Setting::new(url, source),
            (None, Some(url), _) => Setting::new(url.clone(), from_file.clone()),
            (None, None, Some(p)) => Setting::new(
                Url::parse(p.node).expect("presets are valid URLs"),
                preset_source(),
            ),
            (None, None, None) => {
                return Err(Error::usage(format!(
                    "network `{}` in {} has no `node` URL",
                    network.value,
                    config_file.value.display()
                )));
            }
        };
        let events = match (&table.events, preset) {
            (Some(url), _) => Setting::new(url.clone(), from_file.clone()),
            // The preset's events service goes with the preset's node only.
            (None, Some(p)) if matches!(node.source, Source::Preset(_)) => Setting::new(
                Url::parse(p.events).expect("presets are valid URLs"),
                preset_source(),
            ),
            (None, _) => node.clone(),
        };
        let usdt = match (&table.usdt, preset.and_then(|p| p.usdt)) {
            (Some(a), _) => Setting::new(Some(*a), from_file.clone()),
            (None, Some(a)) => Setting::new(
                Some(a.parse().expect("presets hold valid addresses")),
                preset_source(),
            ),
            (None, None) => Setting::new(None, Source::Default),
        };
        let wtrx = match (&table.wtrx, preset.and_then(|p| p.wtrx)) {
            (Some(a), _) => Setting::new(Some(*a), from_file.clone()),
            (None, Some(a)) => Setting::new(
                Some(a.parse().expect("presets hold valid addresses")),
                preset_source(),
            ),
            (None, None) => Setting::new(None, Source::Default),
        };
        let api_key = match (overrides.api_key, table.api_key.as_ref(), &file.api_key) {
            (Some((key, source)), _, _) => Setting::new(Some(key), source),
            (None, Some(key), _) | (None, None, Some(key)) => {
                Setting::new(Some(key.clone()), from_file.clone())
            }
            (None, None, None) => Setting::new(None, Source::Default),
        };
        let key_file = match (overrides.key_file, &file.key_file) {
            (Some((path, source)), _) => Setting::new(Some(path), source),
            (None, Some(path)) => Setting::new(Some(expand_tilde(path)), from_file.clone()),
            (None, None) => Setting::new(None, Source::Default),
        };
        let proxy = match (overrides.proxy, &file.proxy) {
            (Some((url, source)), _) => Setting::new(Some(url), source),
            (None, Some(url)) => Setting::new(Some(url.clone()), from_file.clone()),
            (None, None) => Setting::new(None, Source::Default),
        };
        if let Some(url) = &proxy.value {
            tron::client::check_proxy(url)
                .map_err(|e| Error::usage(format!("{e} (from {})", proxy.source)))?;
        }
        let sync_from = match (overrides.sync_from, &table.sync_from) {
            (Some((text, source)), _) => {
                let sources = SyncSource::parse_list(&text)
                    .map_err(|e| Error::usage(format!("--sync-from: {e} (from {source})")))?;
                Setting::new(sources, source)
            }
            (None, Some(list)) => {
                let sources = SyncSource::parse_list(&list.join(","))
                    .map_err(|e| Error::usage(format!("sync_from: {e} (from {from_file})")))?;
                Setting::new(sources, from_file.clone())
            }
            (None, None) => Setting::new(SyncSource::defaults(), Source::Default),
        };
        let relayer = match &table.relayer {
            Some(url) => Setting::new(Some(url.clone()), from_file.clone()),
            None => Setting::new(None, Source::Default),
        };
        let price_source = match &table.price_source {
            Some(text) => Setting::new(Some(text.clone()), from_file.clone()),
            None => Setting::new(None, Source::Default),
        };
        let price_floor = match &table.price_floor {
            Some(text) => Setting::new(Some(text.clone()), from_file.clone()),
            None => Setting::new(None, Source::Default),
        };
        let database = match &table.database {
            Some(text) => Setting::new(Some(text.clone()), from_file.clone()),
            None => Setting::new(None, Source::Default),
        };
        let max_fee = match &table.max_fee {
            Some(text) => Setting::new(Some(text.clone()), from_file.clone()),
            None => Setting::new(None, Source::Default),
        };
        let deployment = match (&table.deployment, preset.and_then(|p| p.deployment)) {
            (Some(record), _) => Setting::new(Some(record.clone()), from_file.clone()),
            (None, Some(published)) => Setting::new(
                Some(toml::from_str(published.record).expect("presets hold valid records")),
                preset_source(),
            ),
            (None, None) => Setting::new(None, Source::Default),
        };
        Ok(Settings {
            proxy,
            sync_from,
            relayer,
            price_source,
            price_floor,
            database,
            max_fee,
            deployment,
            chain_id: preset.and_then(|p| p.chain_id),
            dirs,
            config_file,
            config_loaded,
            network,
            node,
            events,
            usdt,
            wtrx,
            api_key,
            key_file,
        })
    }

    /// How to reach this network's node.
    pub(crate) fn node_config(&self) -> tron::NodeConfig {
        let mut config = tron::NodeConfig::new(self.node.value.clone());
        if self.events.value != self.node.value {
            config.events_url = Some(self.events.value.clone());
        }
        config.api_key = self.api_key.value.clone();
        config.proxy = self.proxy.value.clone();
        config
    }

    /// Where imported ceremony keys are kept, each named by its verifying key's hash. Keys
    /// belong to the circuit, not to a network: one ceremony can serve them all.
    pub(crate) fn keys_dir(&self) -> PathBuf {
        self.dirs.data_dir.join("keys")
    }

    /// Where the deployment records whose contracts were checked against tronpool's are
    /// remembered (`service::code_check`), one file per network.
    pub(crate) fn verified_dir(&self) -> PathBuf {
        self.dirs.data_dir.join("verified")
    }

    /// The network's database: notes, tree caches, relayer jobs.
    pub fn database(&self) -> PathBuf {
        crate::store::db::path(&self.dirs.data_dir, &self.network.value)
    }

    pub(crate) fn node_client(&self) -> Result<tron::NodeClient> {
        Ok(tron::NodeClient::new(self.node_config())?)
    }
}
