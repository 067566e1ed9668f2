//! Options every command takes.

use std::path::PathBuf;

use clap::parser::ValueSource;
use clap::{ArgAction, ArgMatches, Args, builder::BoolishValueParser};
use url::Url;

use crate::env_vars;
use crate::settings::{Overrides, Source};

const HEADING: &str = "Global options";

#[derive(Debug, Clone, Args)]
pub struct GlobalArgs {
    /// Network: devnet, nile, shasta, mainnet, or one defined in the config file
    #[arg(long, global = true, env = env_vars::NETWORK, hide_env_values = true, value_name = "NAME", help_heading = HEADING)]
    pub network: Option<String>,

    /// TRON node URL, overriding the network's
    #[arg(long, global = true, env = env_vars::NODE, hide_env_values = true, value_name = "URL", help_heading = HEADING)]
    pub node: Option<Url>,

    /// Send every node, relayer and sync request through this proxy: socks5h://HOST:PORT
    /// (names resolved by the proxy, as Tor needs) or http://HOST:PORT
    #[arg(long, global = true, env = env_vars::PROXY, hide_env_values = true, value_name = "URL", help_heading = HEADING)]
    pub proxy: Option<Url>,

    /// Where pools are synced from, in order, comma-separated: a tronpool server's URL,
    /// `events` (TronGrid's events API), `scan` (the node's blocks) [default: events,scan]
    #[arg(long, global = true, env = env_vars::SYNC_FROM, hide_env_values = true, value_name = "SOURCES", help_heading = HEADING)]
    pub sync_from: Option<String>,

    /// Config file to read instead of the default one
    #[arg(long, global = true, env = env_vars::CONFIG, hide_env_values = true, value_name = "PATH", help_heading = HEADING)]
    pub config: Option<PathBuf>,

    /// File holding the private key to sign with (64 hex digits)
    #[arg(long, global = true, env = env_vars::KEY_FILE, hide_env_values = true, value_name = "PATH", help_heading = HEADING)]
    pub key_file: Option<PathBuf>,

    /// Print the result as JSON: {"ok":true,"data":…} or {"ok":false,"error":…}
    #[arg(long, global = true, env = env_vars::JSON, hide_env_values = true, action = ArgAction::SetTrue,
          value_parser = BoolishValueParser::new(), help_heading = HEADING)]
    pub json: bool,

    /// Answer yes to every confirmation (needed to spend without a terminal)
    #[arg(short = 'y', long, global = true, help_heading = HEADING)]
    pub yes: bool,

    /// More logging on stderr (-v, -vv, -vvv)
    #[arg(short, long, global = true, action = ArgAction::Count, conflicts_with = "quiet",
          help_heading = HEADING)]
    pub verbose: u8,

    /// Print only results and errors
    #[arg(short, long, global = true, action = ArgAction::Count, help_heading = HEADING)]
    pub quiet: u8,

    /// Log lines as text or as JSON objects (for a log collector)
    #[arg(long, global = true, env = env_vars::LOG_FORMAT, hide_env_values = true, value_enum,
          default_value_t = LogFormat::Text, help_heading = HEADING)]
    pub log_format: LogFormat,

    /// Never color the output (NO_COLOR is honoured too)
    #[arg(long, global = true, help_heading = HEADING)]
    pub no_color: bool,
}

/// How log lines on stderr are written.
#[derive(Debug, Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
pub enum LogFormat {
    Text,
    Json,
}

fn source_of(matches: &ArgMatches, id: &str, var: &'static str) -> Source {
    match matches.value_source(id) {
        Some(ValueSource::EnvVariable) => Source::Env(var),
        _ => Source::Flag,
    }
}

impl GlobalArgs {
    /// The values the command line fixes, and whether each came from a flag or the
    /// environment (clap merges the two; its matches remember which).
    pub fn overrides(&self, matches: &ArgMatches) -> Overrides {
        let api_key = std::env::var(env_vars::API_KEY)
            .ok()
            .filter(|k| !k.trim().is_empty())
            .map(|k| (k.trim().to_owned(), Source::Env(env_vars::API_KEY)));
        Overrides {
            config: self
                .config
                .clone()
                .map(|p| (p, source_of(matches, "config", env_vars::CONFIG))),
            network: self
                .network
                .clone()
                .map(|n| (n, source_of(matches, "network", env_vars::NETWORK))),
            node: self
                .node
                .clone()
                .map(|u| (u, source_of(matches, "node", env_vars::NODE))),
            key_file: self
                .key_file
                .clone()
                .map(|p| (p, source_of(matches, "key_file", env_vars::KEY_FILE))),
            api_key,
            proxy: self
                .proxy
                .clone()
                .map(|u| (u, source_of(matches, "proxy", env_vars::PROXY))),
            sync_from: self
                .sync_from
                .clone()
                .map(|t| (t, source_of(matches, "sync_from", env_vars::SYNC_FROM))),
        }
    }
}
