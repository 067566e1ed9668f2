//! An embedded TRON-compatible chain for development and tests: revm behind java-tron's
//! FullNode HTTP API, with funded dev accounts and, deployed at genesis (see [`genesis`]):
//! tronpool's hasher, verifier, a USDT that behaves like TRON's, six pools, and a TRX/USDT
//! price pair with SunSwap V2's read ABI (`token0`, `token1`, `getReserves`; token0 a WTRX
//! stand-in, token1 the USDT; 0.28 USDT per TRX until `/devnet/set_price_reserves` moves it).
//!
//! It is spoken to over HTTP exactly like a real node, by tronpool and by unmodified tronpy and
//! TronWeb. [`spawn`] starts one on any address (port 0 for an ephemeral one in tests);
//! `tronpool devnet` runs one in the foreground.
//!
//! # How it differs from a java-tron node
//!
//! - One block producer, and the solidified head is the head: `/walletsolidity/*` sees every
//!   block at once, and events are never `_unconfirmed`.
//! - Blocks: with a block time (`tronpool devnet`'s default, TRON's 3 s), accepted broadcasts
//!   wait in a pending pool and a block every interval, empty or not, seals them in arrival
//!   order, each run again against the state the block has reached ([`chain::pool`], after
//!   java-tron's `Manager.generateBlock`): one that no longer passes is dropped without a
//!   receipt, one that reverts is packed and pays. Reads see the pending state, as on
//!   java-tron's FullNode; receipts, blocks, events and `/walletsolidity/*` see sealed blocks
//!   only. With block time 0 (what [`DevnetConfig::ephemeral`] uses, for fast tests) every
//!   accepted transaction is sealed into its own block before `broadcasttransaction`
//!   answers, and an empty block after [`DevnetConfig::keep_alive`] idle keeps the head's
//!   time current.
//! - Transactions are checked when broadcast against the pending state, as java-tron does; a
//!   refused transaction gets java-tron's code and message.
//! - Contract runs are timed as java-tron would take them ([`chain::cpu`]): past
//!   `getMaxCpuTimeOfOneTx` (80 ms) of modeled time a transaction ends `OUT_OF_TIME`, burning
//!   its whole fee limit, and a constant call is refused with java-tron's `OTHER_ERROR`. The
//!   model's producer speed is [`DevnetConfig::cpu_speed`]; receipts carry the modeled time as
//!   `devnet_cpu_time_us`.
//! - TVM upgrades are chain parameters ([`chain::evm::TvmSwitches`]): without Cancun, TLOAD,
//!   TSTORE and MCOPY are invalid opcodes; without Shanghai, PUSH0 is (genesis always deploys
//!   with both on; the contracts are built for Shanghai, so they run without Cancun).
//! - Energy follows TVM's table and dynamic energy ([`chain::energy`]): SSTORE by the slot's
//!   current value (re-writes 5,000), TVM's memory, copy and EXP prices, the new-account
//!   charge by existence, 63/64 only in version-1 contracts, call depth 64, and every opcode
//!   in a contract at its `energy_factor` (the USDT at mainnet's 3.4, i.e. ×4.4; factors stay
//!   where they are set, without mainnet's 6-hour cycles). Energy is bought with TRX at 100
//!   sun (`/devnet/set_energy_fee` changes the price), or staked for with Stake 2.0
//!   ([`chain::stake`]: freeze, release, withdraw, lend, take back; ENERGY only), and a
//!   contract's `consume_user_resource_percent` and `origin_energy_limit` split each run's
//!   energy between caller and deployer as on TRON. Bandwidth: 600 free bytes per account per day, then 1,000 sun per byte;
//!   activating an account by a transfer burns 1.1 TRX.
//! - Permissions are the default single-key owner permission; multi-signature accounts,
//!   staking for bandwidth, voting, TRC-10 and the TVM's TRON-only opcodes and precompiles do
//!   not exist here.

pub mod chain;
pub mod genesis;

mod api;
mod serde_hex;

use std::net::{IpAddr, Ipv4Addr, SocketAddr};
use std::path::PathBuf;
use std::sync::{Arc, Mutex, MutexGuard};
use std::time::Duration;

use tokio::sync::oneshot;
use tokio::task::JoinHandle;
use tron::PrivateKey;

pub use chain::Ledger;
pub use contracts::{Deployment, PoolDeployment};

/// How to run a devnet.
#[derive(Clone, Debug)]
pub struct DevnetConfig {
    pub host: IpAddr,
    /// 0 picks a free port.
    pub port: u16,
    /// A block every this long, empty or not, sealing the transactions broadcast since the
    /// last one in arrival order, as a TRON producer does every 3 s; reads see the pending
    /// ones at once, receipts come with the block. Zero: every transaction is sealed into
    /// its own block before the broadcast answers (see `keep_alive` for empty blocks).
    pub block_time: Duration,
    /// With `block_time` zero: when no block has been made for this long, an empty one is,
    /// so the head's time keeps up with the clock. Zero: no empty blocks. Unused with a
    /// block time (blocks come every interval anyway).
    pub keep_alive: Duration,
    /// How many funded dev accounts to create (at most [`genesis::MAX_ACCOUNTS`]).
    pub accounts: usize,
    /// Load the chain from this file when it exists, and save it there on shutdown.
    pub state: Option<PathBuf>,
    /// How fast the modeled block producer runs java-tron's VM ([`chain::cpu`]): 1 is a
    /// producer-class node with a warm JIT (a 4-pair pairing in 61 ms), 2 one twice as fast.
    pub cpu_speed: f64,
    /// The TVM upgrades on from block 2 (genesis always deploys with all of them: the
    /// contracts it deploys are compiled for Shanghai). Off, an upgrade's opcodes are invalid.
    pub tvm: chain::evm::TvmSwitches,
    /// The devnet USDT's dynamic-energy factor in 1/10,000, set after genesis or loading;
    /// `None` keeps the chain's (genesis starts it at mainnet USDT's 34,000, ×4.4).
    pub usdt_energy_factor: Option<i64>,
    /// Whether genesis stakes the deployer's energy so the pools' callers pay none
    /// ([`genesis::SPONSOR_STAKE_TRX_SUN`]). The pools are sponsored either way; without the
    /// stake their callers pay all, as under a deployer that staked nothing. Only a new chain
    /// is affected: a state file keeps whatever it has.
    pub sponsor: bool,
    /// Whether TronGrid's indexed API (`/v1/*`) is served. Off, those routes answer 404 as a
    /// plain java-tron node's do: a client must find events another way (a block scan with
    /// `gettransactioninfobyblocknum`).
    pub events_api: bool,
}

impl DevnetConfig {
    /// A devnet for a test: loopback, a free port, every transaction sealed on broadcast
    /// and an empty block after 3 idle seconds, ten accounts, no state file.
    ///
    /// The environment variable [`BLOCK_TIME_ENV`] (milliseconds) gives it a block time
    /// instead, so that a whole test suite can be run once against blocks made every
    /// interval, as on TRON.
    pub fn ephemeral() -> Self {
        let block_time = std::env::var(BLOCK_TIME_ENV)
            .ok()
            .and_then(|ms| ms.trim().parse::<u64>().ok())
            .map_or(Duration::ZERO, Duration::from_millis);
        DevnetConfig {
            host: IpAddr::V4(Ipv4Addr::LOCALHOST),
            port: 0,
            block_time,
            keep_alive: Duration::from_secs(3),
            accounts: 10,
            state: None,
            cpu_speed: 1.0,
            tvm: chain::evm::TvmSwitches::default(),
            usdt_energy_factor: None,
            sponsor: true,
            events_api: true,
        }
    }
}

/// The environment variable [`DevnetConfig::ephemeral`] reads a block time from, in
/// milliseconds (absent, empty or 0: seal on broadcast).
pub const BLOCK_TIME_ENV: &str = "TRONPOOL_TEST_DEVNET_BLOCK_MS";

impl DevnetConfig {
    /// This configuration with blocks every `interval` (zero: sealed on broadcast).
    pub fn with_block_time(mut self, interval: Duration) -> Self {
        self.block_time = interval;
        self
    }
}

/// Why a devnet could not start or stop cleanly.
#[derive(Debug, thiserror::Error)]
pub enum DevnetError {
    #[error("cannot listen on {addr}: {source}")]
    Bind {
        addr: SocketAddr,
        source: std::io::Error,
    },
    #[error(transparent)]
    Genesis(#[from] genesis::GenesisError),
    #[error(transparent)]
    State(#[from] chain::state::StateError),
    #[error("the state file {path} has no deployment record: {detail}")]
    Deployment { path: String, detail: String },
    #[error("devnet configuration: {0}")]
    Config(String),
}

/// What the HTTP handlers share.
pub(crate) struct Shared {
    chain: Mutex<Ledger>,
    deployment: Deployment,
    accounts: Vec<PrivateKey>,
    snapshots: Mutex<Vec<chain::Snapshot>>,
}

impl Shared {
    /// The chain, even if a handler panicked while holding it: every chain operation leaves
    /// it consistent before it can panic.
    pub(crate) fn lock(&self) -> MutexGuard<'_, Ledger> {
        self.chain.lock().unwrap_or_else(|e| e.into_inner())
    }
}

/// A running devnet. Dropping it stops the server without saving; call
/// [`DevnetHandle::shutdown`] to stop cleanly and save the state file.
pub struct DevnetHandle {
    addr: SocketAddr,
    shared: Arc<Shared>,
    stop: Option<oneshot::Sender<()>>,
    server: Option<JoinHandle<()>>,
    miner: Option<JoinHandle<()>>,
    state: Option<PathBuf>,
}

/// Starts a devnet: loads the state file if there is one, otherwise builds genesis (which
/// deploys the contracts; it takes a second or two), then serves HTTP in the background.
pub async fn spawn(config: DevnetConfig) -> Result<DevnetHandle, DevnetError> {
    let accounts: Vec<PrivateKey> = (0..config.accounts.min(genesis::MAX_ACCOUNTS))
        .map(genesis::dev_key)
        .collect();
    let state = config.state.clone();
    let count = config.accounts;
    let sponsor = config.sponsor;
    let (mut chain, deployment) = tokio::task::spawn_blocking(move || open(state, count, sponsor))
        .await
        .expect("genesis does not panic")?;
    // Genesis is dated 2026-01-01 and a loaded chain stopped some time ago: produce a block
    // now, so clients that date their transactions from the head block are not in the past.
    chain.mine();
    chain.set_pooling(!config.block_time.is_zero());
    chain.set_cpu_speed(config.cpu_speed);
    chain.set_tvm_switches(config.tvm);
    if let Some(factor) = config.usdt_energy_factor {
        chain
            .set_energy_factor(deployment.usdt, factor)
            .map_err(DevnetError::Config)?;
    }
    let addr = SocketAddr::new(config.host, config.port);
    let listener = tokio::net::TcpListener::bind(addr)
        .await
        .map_err(|source| DevnetError::Bind { addr, source })?;
    let addr = listener
        .local_addr()
        .map_err(|source| DevnetError::Bind { addr, source })?;
    let shared = Arc::new(Shared {
        chain: Mutex::new(chain),
        deployment,
        accounts,
        snapshots: Mutex::new(Vec::new()),
    });
    let (stop, stopped) = oneshot::channel::<()>();
    let router = api::router(shared.clone(), config.events_api);
    let server = tokio::spawn(async move {
        let serve = axum::serve(listener, router).with_graceful_shutdown(async {
            let _ = stopped.await;
        });
        if let Err(e) = serve.await {
            tracing::error!("devnet server failed: {e}");
        }
    });
    let miner = producer(&shared, config.block_time, config.keep_alive);
    Ok(DevnetHandle {
        addr,
        shared,
        stop: Some(stop),
        server: Some(server),
        miner,
        state: config.state,
    })
}

/// The block producer: with a block time, a block every interval, empty or not (java-tron's
/// `DposTask` produces in every 3-second slot); without, an empty block when the chain has
/// been idle for `keep_alive`, the broadcasts sealing their own.
fn producer(
    shared: &Arc<Shared>,
    block_time: Duration,
    keep_alive: Duration,
) -> Option<JoinHandle<()>> {
    let (period, every) = if !block_time.is_zero() {
        (block_time, true)
    } else if !keep_alive.is_zero() {
        (keep_alive, false)
    } else {
        return None;
    };
    let shared = shared.clone();
    let period_ms = period.as_millis() as i64;
    Some(tokio::spawn(async move {
        let mut ticks = tokio::time::interval_at(tokio::time::Instant::now() + period, period);
        ticks.set_missed_tick_behavior(tokio::time::MissedTickBehavior::Delay);
        loop {
            ticks.tick().await;
            let shared = shared.clone();
            // Producing re-runs the pool's contract calls: off the async workers.
            let _ = tokio::task::spawn_blocking(move || {
                let mut chain = shared.lock();
                if every || chain.now() - chain.head().timestamp >= period_ms {
                    chain.mine();
                }
            })
            .await;
        }
    }))
}

fn open(
    state: Option<PathBuf>,
    accounts: usize,
    sponsor: bool,
) -> Result<(Ledger, Deployment), DevnetError> {
    if let Some(path) = state.filter(|p| p.exists()) {
        let (chain, extra) = Ledger::load(&path, genesis::witness_key())?;
        let deployment = serde_json::from_value(extra).map_err(|e| DevnetError::Deployment {
            path: path.display().to_string(),
            detail: e.to_string(),
        })?;
        return Ok((chain, deployment));
    }
    Ok(genesis::build(accounts, sponsor)?)
}

impl DevnetHandle {
    /// The base URL, e.g. `http://127.0.0.1:8090`.
    pub fn url(&self) -> String {
        format!("http://{}", self.addr)
    }

    pub fn addr(&self) -> SocketAddr {
        self.addr
    }

    /// The funded dev accounts, in order (0: tronpool's default key, 1: its relayer key).
    pub fn accounts(&self) -> &[PrivateKey] {
        &self.shared.accounts
    }

    pub fn deployment(&self) -> &Deployment {
        &self.shared.deployment
    }

    /// Direct access to the chain, for tests and benchmarks that need to look inside.
    pub fn with_chain<R>(&self, f: impl FnOnce(&mut Ledger) -> R) -> R {
        f(&mut self.shared.lock())
    }

    /// Stops serving (requests in flight finish), stops the miner, and saves the state file.
    pub async fn shutdown(mut self) -> Result<(), DevnetError> {
        if let Some(stop) = self.stop.take() {
            let _ = stop.send(());
        }
        if let Some(server) = self.server.take() {
            let _ = server.await;
        }
        if let Some(miner) = self.miner.take() {
            miner.abort();
        }
        if let Some(path) = self.state.take() {
            let shared = self.shared.clone();
            let extra = serde_json::to_value(&shared.deployment).expect("serialisable");
            tokio::task::spawn_blocking(move || shared.lock().save(&path, extra))
                .await
                .expect("saving does not panic")?;
        }
        Ok(())
    }
}

impl Drop for DevnetHandle {
    fn drop(&mut self) {
        if let Some(stop) = self.stop.take() {
            let _ = stop.send(());
        }
        if let Some(miner) = self.miner.take() {
            miner.abort();
        }
    }
}
