//! `tronpool serve`: the REST API and the relayer as a long-running daemon.

use std::net::SocketAddr;
use std::path::PathBuf;
use std::sync::Arc;
use std::time::Duration;

use axum::http::HeaderValue;
use clap::Args;
use serde::Serialize;

use crate::api::{self, ApiConfig, App};
use crate::error::{Error, Result};
use crate::service::inputs::{USDT_DECIMALS, parse_units};
use crate::service::open::NetworkSpec;
use crate::service::price::{PriceFeed, PriceSource, TrxPrice};
use crate::service::relayer::{Relayer, RelayerConfig};
use crate::service::relayer_fees::{
    DEFAULT_CEILING_PERCENT, DEFAULT_MARGIN_PERCENT, FeePolicy, NORMAL_RELAY_ENERGY, Pricing,
};
use crate::settings::Source;
use crate::shutdown::Shutdown;
use crate::store::jobs::JobStore;
use crate::store::trees::TreeCache;

use super::context::Context;

#[derive(Debug, Args)]
pub struct ServeArgs {
    /// Address and port to listen on (port 0 picks a free one)
    #[arg(
        long,
        env = "TRONPOOL_LISTEN",
        default_value = "127.0.0.1:8787",
        value_name = "ADDR"
    )]
    listen: SocketAddr,
    /// Threads that answer requests and run the relayer (default: one per core). Fewer than
    /// the cores suits a machine whose cores other busy processes share (a proxy in front,
    /// the node): the threads then wake each other less
    #[arg(long, env = "TRONPOOL_WORKERS", value_name = "N",
          value_parser = clap::value_parser!(u16).range(1..=1024))]
    workers: Option<u16>,
    /// Requests per client per minute on the general endpoints
    #[arg(long, env = "TRONPOOL_RATE_LIMIT", default_value_t = 120, value_name = "N",
          value_parser = clap::value_parser!(u32).range(1..))]
    rate_limit: u32,
    /// Requests per client per minute on /api/relayer/status, and as many on
    /// /api/relayer/withdraw (each its own budget)
    #[arg(long, env = "TRONPOOL_RELAYER_RATE_LIMIT", default_value_t = 5, value_name = "N",
          value_parser = clap::value_parser!(u32).range(1..))]
    relayer_rate_limit: u32,
    /// A reverse proxy, by address or CIDR range, whose Forwarded or X-Forwarded-For names
    /// the client (repeatable)
    #[arg(long = "trusted-proxy", value_name = "IP|CIDR", value_parser = api::limits::parse_proxy)]
    trusted_proxies: Vec<ipnet::IpNet>,
    /// An origin browsers may call the API from (repeatable; default: any)
    #[arg(long = "cors-origin", value_name = "ORIGIN")]
    cors_origins: Vec<String>,
    /// Largest request body in bytes
    #[arg(long, default_value_t = 64 * 1024, value_name = "BYTES")]
    body_limit: usize,
    /// Most requests in flight at once; past it a request is answered 503 at once
    #[arg(long, default_value_t = 512, value_name = "N",
          value_parser = clap::value_parser!(u64).range(1..))]
    max_in_flight: u64,
    /// Longest a connection may take to send a request's headers, or sit idle between
    /// requests, before it is closed
    #[arg(long, default_value = "10s", value_name = "DURATION", value_parser = humantime::parse_duration)]
    header_read_timeout: Duration,
    /// Longest a request may take before it is answered 504
    #[arg(long, default_value = "30s", value_name = "DURATION", value_parser = humantime::parse_duration)]
    request_timeout: Duration,
    /// How long pool reads are cached (about a block)
    #[arg(long, default_value = "3s", value_name = "DURATION", value_parser = humantime::parse_duration)]
    cache_ttl: Duration,
    /// The least relayer fee for a pool, in USDT, whatever the prices (repeatable)
    #[arg(long = "relayer-fee", value_name = "DENOM=USDT")]
    relayer_fees: Vec<String>,
    /// Percent over the relay's cost (its energy and refund at today's prices) in the fee
    #[arg(long, default_value_t = DEFAULT_MARGIN_PERCENT, value_name = "PERCENT",
          value_parser = clap::value_parser!(u32).range(0..=1000))]
    relayer_margin: u32,
    /// Energy a normal relay costs: what the fee is quoted for
    #[arg(long, default_value_t = NORMAL_RELAY_ENERGY, value_name = "ENERGY",
          value_parser = clap::value_parser!(i64).range(1..))]
    relayer_expected_energy: i64,
    /// The most energy one relay may use, and its fee limit (default: the expected energy
    /// + 15%, room for the relayer's first fee into a USDT balance it did not have)
    #[arg(long, value_name = "ENERGY", value_parser = clap::value_parser!(i64).range(1..))]
    relayer_max_energy: Option<i64>,
    /// Refuse refunds to recipients that hold contract code (by default they are sent: the
    /// pool gives a recipient at most 22,300 energy to spend on receiving one)
    #[arg(long)]
    relayer_refuse_contract_refund: bool,
    /// What refunds to contracts needed before the pool capped their energy; now the default
    #[arg(long, hide = true, conflicts_with = "relayer_refuse_contract_refund")]
    relayer_allow_contract_refund: bool,
    /// Where the TRX/USDT rate comes from: fixed:USDT_PER_TRX or pair:ADDRESS (a SunSwap V2
    /// WTRX/USDT pair; default: price_source in the config, on the devnet its own pair)
    #[arg(long, env = "TRONPOOL_PRICE_SOURCE", value_name = "SOURCE")]
    price_source: Option<String>,
    /// A pair's price is stale when it has not traded for this long
    #[arg(long, default_value = "30m", value_name = "DURATION", value_parser = humantime::parse_duration)]
    price_max_age: Duration,
    /// A pair is priced at the larger of its spot price and its average over this long, so a
    /// swap can raise the fee but not lower it
    #[arg(long, default_value = "30m", value_name = "DURATION", value_parser = humantime::parse_duration)]
    price_window: Duration,
    /// Never price TRX below this many USDT, whatever the source says (default: price_floor
    /// in the config; none)
    #[arg(long, value_name = "USDT_PER_TRX")]
    price_floor: Option<String>,
    /// Keep the relayer's jobs, journal, leases and rate budgets in this PostgreSQL database
    /// (postgres://user@host:port/database), shared by every replica of this server; else
    /// TRONPOOL_DATABASE_URL, `database` in the config, or the network's SQLite file. The
    /// password goes in TRONPOOL_DATABASE_PASSWORD, the variable or the config, never here:
    /// any user of the machine can read a process's arguments. `?sslmode=require` for TLS,
    /// the certificate checked against the system's roots and TRONPOOL_DATABASE_CA
    #[arg(long, value_name = "URL")]
    database: Option<String>,
    /// Do not relay withdrawals, even with a relayer key
    #[arg(long)]
    no_relayer: bool,
    /// Do not serve the web page at / (the API only)
    #[arg(long)]
    no_web: bool,
    /// The relayer's private key file (else TRONPOOL_RELAYER_PRIVATE_KEY; on the devnet, dev
    /// account 1)
    #[arg(long, env = crate::env_vars::RELAYER_KEY_FILE, hide_env_values = true, value_name = "PATH")]
    relayer_key_file: Option<PathBuf>,
    /// Refuse relaying below this TRX balance
    #[arg(long, default_value = "100", value_name = "TRX")]
    relayer_min_trx: String,
    /// The most TRX the relayer forwards to a recipient as a refund
    #[arg(long, default_value = "10", value_name = "TRX")]
    relayer_max_refund: String,
    /// How often the relayer checks its unfinished jobs
    #[arg(long, default_value = "1s", value_name = "DURATION", value_parser = humantime::parse_duration)]
    relayer_poll: Duration,
    /// Collect a pool's fees once they reach this much USDT (the fees stay in the pools until
    /// collected); 0 never collects by itself (`tronpool relay collect` does it by hand)
    #[arg(long, default_value = "100", value_name = "USDT")]
    relayer_collect_above: String,
    /// How often the relayer looks at the fees due
    #[arg(long, default_value = "10m", value_name = "DURATION", value_parser = humantime::parse_duration)]
    relayer_collect_every: Duration,
    /// The longest a deposit waits in a queued pool before the relayer's batcher inserts it
    /// in a batch that is not full (a full block of 32 goes at once); 0 runs no batcher
    #[arg(long, default_value = "30m", value_name = "DURATION", value_parser = humantime::parse_duration)]
    batch_max_wait: Duration,
    /// How often the batcher looks at the queued pools
    #[arg(long, default_value = "30s", value_name = "DURATION", value_parser = humantime::parse_duration)]
    batch_poll: Duration,
    /// The most TRX the batcher loses in 24 hours on batches that burn more than their
    /// insertion fees are worth at the relay price (a batch sent because a deposit waited
    /// --batch-max-wait, or any batch when TRX is dear); past it such batches wait
    #[arg(long, default_value = "300", value_name = "TRX")]
    batch_loss_budget: String,
}

#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
struct Started {
    url: String,
    network: String,
    node: String,
    /// Whether `serve` started its own devnet.
    in_process_devnet: bool,
    pools: Vec<u64>,
    /// The relayer's address, when relaying is on.
    relayer: Option<tron::Address>,
    /// The async runtime's worker threads (`--workers`, or one per core).
    workers: usize,
}

impl ServeArgs {
    /// How many threads the async runtime should have, when `--workers` says.
    pub(super) fn workers(&self) -> Option<usize> {
        self.workers.map(usize::from)
    }

    pub async fn run(self, ctx: &Context) -> Result<()> {
        let shutdown =
            Shutdown::register().map_err(|e| Error::os("cannot listen for Ctrl-C", e))?;
        let settings = ctx.settings()?;
        let policy = FeePolicy {
            expected_energy: self.relayer_expected_energy,
            max_energy: self.relayer_max_energy.unwrap_or(
                self.relayer_expected_energy
                    .saturating_mul(DEFAULT_CEILING_PERCENT)
                    / 100,
            ),
            margin_percent: self.relayer_margin,
            ..FeePolicy::default()
        }
        .with_floors(&self.relayer_fees)?;
        policy.validate()?;
        let cors_origins = self
            .cors_origins
            .iter()
            .map(|o| {
                HeaderValue::from_str(o.trim_end_matches('/'))
                    .map_err(|_| Error::usage(format!("--cors-origin `{o}` is not an origin")))
            })
            .collect::<Result<Vec<_>>>()?;

        // On the devnet with no node configured, run one in-process (docs/ARCHITECTURE.md).
        let network = settings.network.value.clone();
        let own_devnet = network == crate::network::DEFAULT_NETWORK
            && matches!(settings.node.source, Source::Preset(_) | Source::Default);
        let devnet = if own_devnet {
            let handle = devnet::spawn(devnet::DevnetConfig::ephemeral())
                .await
                .map_err(|e| Error::caused("starting the in-process devnet", e))?;
            tracing::info!(
                url = %handle.url(),
                "no node configured for the devnet: started an in-process devnet"
            );
            Some(handle)
        } else {
            None
        };
        let mut node_config = settings.node_config();
        if let Some(handle) = &devnet {
            node_config.url = handle
                .url()
                .parse()
                .map_err(|e| Error::caused("the devnet's URL", e))?;
            node_config.events_url = None;
            // It is on this machine's loopback: no proxy reaches it.
            node_config.proxy = None;
        }
        // A server answers its own clients within its timeout: fewer retries than the CLI.
        node_config.retries = 1;
        let node_url = node_config.url.to_string();
        let node = tron::NodeClient::new(node_config)?;
        let chain = crate::service::open::chain_for(
            &NetworkSpec::from_settings(settings),
            node,
            self.cache_ttl,
        )
        .await?;
        // Proofs are verified before anything is paid for them: without the keys there is
        // nothing to serve, so find out now rather than at the first withdrawal.
        let keys = tokio::task::block_in_place(|| chain.verifying_keys())?;
        tracing::info!(verifying_key = %keys.verifying_key_sha256(), "keys loaded");
        let configured = self
            .price_source
            .as_deref()
            .or(settings.price_source.value.as_deref());
        let source = PriceSource::resolve(configured, &chain)?;
        match &source {
            Some(source) => tracing::info!(%source, "TRX/USDT price source"),
            None => tracing::warn!(
                "no TRX/USDT price source (--price-source): relayed withdrawals are refused"
            ),
        }
        let floor = price_floor(
            self.price_floor
                .as_deref()
                .or(settings.price_floor.value.as_deref()),
        )?;
        if matches!(source, Some(PriceSource::Pair(_))) && floor.is_none() {
            tracing::warn!(
                "no price floor (--price-floor): until this relayer's readings of the pair \
                 span the {} s window, a swap can push its first quotes down",
                self.price_window.as_secs()
            );
        }
        // A pair is read again about once a block, like the pools.
        let feed = PriceFeed::new(source, self.price_max_age)
            .refresh_every(self.cache_ttl.min(Duration::from_secs(10)))
            .average_over(self.price_window)
            .floor(floor);
        let pricing = Pricing::new(policy, feed);
        let relayer = self.relayer(settings, devnet.is_some())?;
        let config = ApiConfig {
            rate_limit: self.rate_limit,
            relayer_rate_limit: self.relayer_rate_limit,
            trusted_proxies: self.trusted_proxies,
            cors_origins,
            body_limit: self.body_limit,
            request_timeout: self.request_timeout,
            max_in_flight: usize::try_from(self.max_in_flight).unwrap_or(usize::MAX),
            header_read_timeout: self.header_read_timeout,
            web: !self.no_web,
        };
        // The pools' leaves and withdrawals it serves: in the network's database, except for
        // an in-process devnet's, which die with the process.
        let trees = if devnet.is_some() {
            TreeCache::in_memory()?
        } else {
            TreeCache::open(&settings.database())?
        };
        let mut app = App::new(chain, pricing, config).with_trees(trees);
        if let Some(relayer) = relayer {
            app = app.with_relayer(relayer);
        }
        let app = Arc::new(app);

        let listener = tokio::net::TcpListener::bind(self.listen)
            .await
            .map_err(|e| Error::usage(format!("cannot listen on {}: {e}", self.listen)))?;
        let addr = listener
            .local_addr()
            .map_err(|e| Error::os("the listening socket", e))?;
        let started = Started {
            url: format!("http://{addr}"),
            network,
            node: node_url,
            in_process_devnet: devnet.is_some(),
            pools: app.chain.denominations(),
            relayer: app.relayer.as_ref().map(|r| r.address()),
            workers: tokio::runtime::Handle::current().metrics().num_workers(),
        };
        tracing::info!(url = %started.url, network = %started.network, node = %started.node, workers = started.workers, "serving the API");
        match started.relayer {
            Some(address) => tracing::info!(%address, "relaying withdrawals"),
            None => tracing::info!("not relaying withdrawals (no relayer key)"),
        }
        ctx.out.result(&started, || {
            format!(
                "tronpool API on {} (network {}, node {}{})\nOpenAPI: {}/api/openapi.json",
                started.url,
                started.network,
                started.node,
                if started.in_process_devnet {
                    ", in-process devnet"
                } else {
                    ""
                },
                started.url
            )
        })?;

        api::serve(listener, app, shutdown.wait())
            .await
            .map_err(|e| Error::os("the server stopped", e))?;
        tracing::info!("stopped: requests in flight were finished");
        if let Some(handle) = devnet {
            handle
                .shutdown()
                .await
                .map_err(|e| Error::Failed(e.to_string()))?;
        }
        Ok(())
    }
}

impl ServeArgs {
    /// The relayer, if it is on: a key from `--relayer-key-file`, the environment, or (on
    /// the devnet) dev account 1. Jobs go to the network's database in the data folder; an
    /// in-process devnet's chain dies with the process, and so do its jobs.
    fn relayer(
        &self,
        settings: &crate::settings::Settings,
        in_process_devnet: bool,
    ) -> Result<Option<Relayer>> {
        if self.no_relayer {
            return Ok(None);
        }
        let network = &settings.network.value;
        let Some(key) = super::key::relayer_key(self.relayer_key_file.as_deref(), network)? else {
            return Ok(None);
        };
        let trx = |text: &str, flag: &str| {
            parse_units(text, 6)
                .and_then(|v| i64::try_from(v).ok())
                .ok_or_else(|| Error::usage(format!("{flag} `{text}` is not an amount of TRX")))
        };
        let config = RelayerConfig {
            min_balance: trx(&self.relayer_min_trx, "--relayer-min-trx")?,
            max_refund: trx(&self.relayer_max_refund, "--relayer-max-refund")?,
            allow_contract_refund: !self.relayer_refuse_contract_refund,
            poll: self.relayer_poll,
            collect_above: Some(
                parse_units(&self.relayer_collect_above, USDT_DECIMALS).ok_or_else(|| {
                    Error::usage(format!(
                        "--relayer-collect-above `{}` is not an amount of USDT",
                        self.relayer_collect_above
                    ))
                })?,
            )
            .filter(|threshold| !threshold.is_zero()),
            collect_every: self.relayer_collect_every,
            batch_max_wait: Some(self.batch_max_wait).filter(|wait| !wait.is_zero()),
            batch_poll: self.batch_poll,
            batch_loss_budget: trx(&self.batch_loss_budget, "--batch-loss-budget")?,
        };
        let jobs = match self.shared_database(settings)? {
            Some(db) => JobStore::on(db),
            None if in_process_devnet => JobStore::in_memory()?,
            None => JobStore::open(&crate::store::db::path(&settings.dirs.data_dir, network))?,
        };
        Ok(Some(Relayer::new(key, config, jobs)))
    }
}

impl ServeArgs {
    /// The PostgreSQL database replicas share, connected and migrated, if one is named:
    /// `--database`, else TRONPOOL_DATABASE_URL, else `database` in the config.
    fn shared_database(
        &self,
        settings: &crate::settings::Settings,
    ) -> Result<Option<crate::store::sql::Db>> {
        use crate::env_vars::{DATABASE_PASSWORD, DATABASE_URL};
        let from_flag = self.database.clone();
        if let Some(url) = &from_flag
            && url::Url::parse(url).is_ok_and(|u| u.password().is_some())
        {
            return Err(Error::usage(format!(
                "--database carries a password, which any user of this machine can read in \
                 the process list; give it in {DATABASE_PASSWORD}, or the whole URL in \
                 {DATABASE_URL} or the config file's `database`"
            )));
        }
        let Some(url) = from_flag
            .or_else(|| std::env::var(DATABASE_URL).ok().filter(|u| !u.is_empty()))
            .or_else(|| settings.database.value.clone())
        else {
            return Ok(None);
        };
        let password = std::env::var(DATABASE_PASSWORD)
            .ok()
            .filter(|p| !p.is_empty());
        let ca = std::env::var_os(crate::env_vars::DATABASE_CA).map(PathBuf::from);
        let pg = crate::store::pg::Pg::connect_with(&url, password.as_deref(), ca.as_deref())?;
        tracing::info!(database = pg.target(), "keeping shared state in PostgreSQL");
        Ok(Some(crate::store::sql::Db::Postgres(pg)))
    }
}

/// `--price-floor` or `price_floor` in the config: USDT per TRX, above zero.
fn price_floor(text: Option<&str>) -> Result<Option<TrxPrice>> {
    text.map(|text| {
        TrxPrice::parse(text).ok_or_else(|| {
            Error::usage(format!(
                "price floor `{text}` is not an amount of USDT per TRX above zero (like 0.2)"
            ))
        })
    })
    .transpose()
}
