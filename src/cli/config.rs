//! `tronpool config init | show | path`.

use clap::Subcommand;
use serde::Serialize;

use crate::error::{Result, StoreError};
use crate::settings::Setting;
use crate::store::config::{ConfigFile, template};
use crate::store::fs::write_private;

use super::context::Context;
use super::output::rows;

#[derive(Debug, Subcommand)]
pub enum ConfigCommand {
    /// Write a commented config.toml (never replaces an existing one)
    ///
    /// With --network, that network becomes the default in the new file.
    Init,
    /// Print every setting, its value and where it came from
    Show,
    /// Print where the config file and the data folder are
    Path,
}

impl ConfigCommand {
    pub fn run(self, ctx: &Context) -> Result<()> {
        match self {
            ConfigCommand::Init => init(ctx),
            ConfigCommand::Show => show(ctx),
            ConfigCommand::Path => path(ctx),
        }
    }
}

fn init(ctx: &Context) -> Result<()> {
    // Locate only: a broken file must be left alone, not parsed and replaced.
    let (_, config_file) = ctx.locate()?;
    let path = &config_file.value;
    if path.exists() {
        return Err(StoreError::occupied(format!(
            "{} already exists; edit it, or move it away to start over",
            path.display()
        )));
    }
    let network = ctx.global.network.as_deref();
    let text = template(network);
    // The file may come to hold an API key: private like every file with a secret.
    ConfigFile::parse(path, &text)?;
    write_private(path, text.as_bytes(), false)?;
    #[derive(Serialize)]
    struct Out<'a> {
        path: &'a std::path::Path,
    }
    ctx.out
        .result(&Out { path }, || format!("wrote {}", path.display()))
}

#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
struct Shown<'a> {
    config_file: &'a Setting<std::path::PathBuf>,
    config_file_exists: bool,
    data_dir: &'a std::path::Path,
    network: &'a Setting<String>,
    node: &'a Setting<url::Url>,
    events: &'a Setting<url::Url>,
    usdt: &'a Setting<Option<tron::Address>>,
    wtrx: &'a Setting<Option<tron::Address>>,
    /// Never the key itself: only whether one is set.
    api_key: Setting<&'static str>,
    key_file: &'a Setting<Option<std::path::PathBuf>>,
    relayer: &'a Setting<Option<url::Url>>,
    price_source: &'a Setting<Option<String>>,
    price_floor: &'a Setting<Option<String>>,
    max_fee: &'a Setting<Option<String>>,
    /// Without its password.
    database: Setting<Option<String>>,
    /// Without its password.
    proxy: Setting<Option<String>>,
    sync_from: &'a Setting<Vec<crate::settings::SyncSource>>,
    deployment: Setting<String>,
}

/// The deployment in one phrase: where the pools come from, and whether they are all there.
fn deployment_summary(s: &crate::settings::Settings) -> String {
    match &s.deployment.value {
        Some(record) => match record.check_complete() {
            Ok(()) => format!(
                "{} pools, verifying key {}",
                record.pools.len(),
                &record.verifying_key_sha256[..record.verifying_key_sha256.len().min(16)]
            ),
            Err(missing) => format!("incomplete: {missing}; `tronpool deploy` resumes"),
        },
        None if s.network.value == crate::network::DEFAULT_NETWORK => {
            "(the devnet's own, from the node)".into()
        }
        None => "(none: `tronpool deploy`, or copy an operator's record)".into(),
    }
}

/// A URL as `config show` prints it: without a password.
fn redacted(url: &url::Url) -> String {
    let mut url = url.clone();
    if url.password().is_some() {
        let _ = url.set_password(Some("***"));
    }
    url.to_string()
}

/// A URL given as text (the database's), without a password; text that is not a URL is not
/// shown at all, since it may be one mistyped.
fn redacted_text(text: &str) -> String {
    url::Url::parse(text).map_or_else(|_| "(set; not a URL)".to_owned(), |url| redacted(&url))
}

fn show(ctx: &Context) -> Result<()> {
    let s = ctx.settings()?;
    let shown = Shown {
        config_file: &s.config_file,
        config_file_exists: s.config_loaded,
        data_dir: &s.dirs.data_dir,
        network: &s.network,
        node: &s.node,
        events: &s.events,
        usdt: &s.usdt,
        wtrx: &s.wtrx,
        api_key: Setting {
            value: if s.api_key.value.is_some() {
                "(set)"
            } else {
                "(not set)"
            },
            source: s.api_key.source.clone(),
        },
        key_file: &s.key_file,
        relayer: &s.relayer,
        price_source: &s.price_source,
        price_floor: &s.price_floor,
        max_fee: &s.max_fee,
        database: Setting {
            value: s.database.value.as_deref().map(redacted_text),
            source: s.database.source.clone(),
        },
        proxy: Setting {
            value: s.proxy.value.as_ref().map(redacted),
            source: s.proxy.source.clone(),
        },
        sync_from: &s.sync_from,
        deployment: Setting {
            value: deployment_summary(s),
            source: s.deployment.source.clone(),
        },
    };
    ctx.out.result(&shown, || {
        let line = |v: String, source: &crate::settings::Source| format!("{v}  ({source})");
        let config_note = if s.config_loaded { "" } else { ", not present" };
        rows(&[
            (
                "config",
                format!(
                    "{}  ({}{config_note})",
                    s.config_file.value.display(),
                    s.config_file.source
                ),
            ),
            ("data", s.dirs.data_dir.display().to_string()),
            ("network", line(s.network.value.clone(), &s.network.source)),
            ("node", line(s.node.value.to_string(), &s.node.source)),
            ("events", line(s.events.value.to_string(), &s.events.source)),
            (
                "usdt",
                line(
                    s.usdt.value.map_or("(none)".to_owned(), |a| a.to_base58()),
                    &s.usdt.source,
                ),
            ),
            (
                "wtrx",
                line(
                    s.wtrx.value.map_or("(none)".to_owned(), |a| a.to_base58()),
                    &s.wtrx.source,
                ),
            ),
            (
                "api_key",
                line(shown.api_key.value.to_owned(), &s.api_key.source),
            ),
            (
                "key_file",
                line(
                    s.key_file
                        .value
                        .as_ref()
                        .map_or("(none)".to_owned(), |p| p.display().to_string()),
                    &s.key_file.source,
                ),
            ),
            (
                "relayer",
                line(
                    s.relayer.value.as_ref().map_or_else(
                        || "(none; the devnet's own on the devnet)".to_owned(),
                        ToString::to_string,
                    ),
                    &s.relayer.source,
                ),
            ),
            (
                "price_source",
                line(
                    s.price_source.value.clone().unwrap_or_else(|| {
                        "(none; the devnet's own pair on the devnet)".to_owned()
                    }),
                    &s.price_source.source,
                ),
            ),
            (
                "price_floor",
                line(
                    s.price_floor.value.as_ref().map_or_else(
                        || "(none)".to_owned(),
                        |usdt| format!("{usdt} USDT per TRX"),
                    ),
                    &s.price_floor.source,
                ),
            ),
            (
                "database",
                line(
                    shown.database.value.clone().unwrap_or_else(|| {
                        "(none; `serve` keeps its jobs in the network's SQLite file)".to_owned()
                    }),
                    &s.database.source,
                ),
            ),
            (
                "max_fee",
                line(
                    s.max_fee.value.as_ref().map_or_else(
                        || "(none; priced by price_source)".to_owned(),
                        |usdt| format!("{usdt} USDT"),
                    ),
                    &s.max_fee.source,
                ),
            ),
            (
                "proxy",
                line(
                    s.proxy
                        .value
                        .as_ref()
                        .map_or_else(|| "(none)".to_owned(), redacted),
                    &s.proxy.source,
                ),
            ),
            (
                "sync_from",
                line(
                    s.sync_from
                        .value
                        .iter()
                        .map(ToString::to_string)
                        .collect::<Vec<_>>()
                        .join(","),
                    &s.sync_from.source,
                ),
            ),
            (
                "deployment",
                line(shown.deployment.value.clone(), &s.deployment.source),
            ),
        ])
    })
}

fn path(ctx: &Context) -> Result<()> {
    let (dirs, config_file) = ctx.locate()?;
    #[derive(Serialize)]
    #[serde(rename_all = "camelCase")]
    struct Out<'a> {
        config_file: &'a std::path::Path,
        config_file_exists: bool,
        data_dir: &'a std::path::Path,
    }
    let out = Out {
        config_file: &config_file.value,
        config_file_exists: config_file.value.exists(),
        data_dir: &dirs.data_dir,
    };
    ctx.out
        .result(&out, || config_file.value.display().to_string())
}
