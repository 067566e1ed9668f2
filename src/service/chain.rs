//! One network's chain as the service sees it: the node, the pool deployment, and the caches
//! that keep a burst of reads from becoming a burst of node calls.

use std::collections::BTreeMap;
use std::path::PathBuf;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, OnceLock};
use std::time::{Duration, Instant};

use alloy_sol_types::SolCall;
use contracts::Deployment;
use tron::client::{Block, ConstantCall};
use tron::{Address, NodeClient, NodeError, Trigger};

use crate::error::{Error, Result};
use crate::service::cache::Cached;
use crate::service::pool_state::PoolState;
use crate::service::pool_state::SponsorShare;
use crate::settings::SyncSource;
use url::Url;
use zk::circuits::Circuit;
use zk::keys::Keys;

/// How long the head block (for health and for transaction references) is kept.
const HEAD_TTL: Duration = Duration::from_secs(1);
/// Chain parameters (the energy price) change by committee vote, rarely; kept at most this
/// long, and no longer than the pool reads.
const PARAMS_TTL: Duration = Duration::from_secs(600);

/// The head block and how long the node took to give it.
#[derive(Debug, Clone)]
pub struct Head {
    pub block: Block,
    pub latency: Duration,
}

/// The keys a chain's verifier was made with: the development keys, or a ceremony's.
#[derive(Clone)]
pub(crate) enum KeysHandle {
    InsecureDev(&'static Keys),
    Ceremony(Arc<Keys>),
}

impl std::ops::Deref for KeysHandle {
    type Target = Keys;
    fn deref(&self) -> &Keys {
        match self {
            KeysHandle::InsecureDev(keys) => keys,
            KeysHandle::Ceremony(keys) => keys,
        }
    }
}

/// A connection to one network and its tronpool deployment.
pub struct Chain {
    pub network: String,
    pub node: NodeClient,
    pub deployment: Deployment,
    /// Where imported ceremony keys are.
    pub(crate) keys_dir: Option<PathBuf>,
    keys: OnceLock<KeysHandle>,
    batch_keys: OnceLock<KeysHandle>,
    /// The node proved to be a tronpool devnet (by `service::open`, which asks it), where
    /// the development keys and rehearsal ceremony keys may be used.
    pub(crate) devnet: bool,
    pool_states: BTreeMap<u64, Cached<PoolState>>,
    pool_sponsors: BTreeMap<u64, Cached<SponsorShare>>,
    head: Cached<Head>,
    prices: Cached<Prices>,
    /// Where pools are synced from, in order ([`crate::service::sync`]).
    sync_sources: Vec<SyncSource>,
    proxy: Option<Url>,
    /// How long a server's sync of a pool is good for (the pool-state TTL).
    sync_ttl: Duration,
    /// One per pool: syncs take turns, and when the last was.
    sync_gates: BTreeMap<u64, SyncGate>,
}

/// A pool's syncs: they take turns (`last`, the last one's facts, behind a lock held through
/// a sync), and a count of what this process did to the pool since (`changes`), which a
/// sync kept for the pool-state TTL must not outlive.
pub(crate) struct SyncGate {
    pub last: tokio::sync::Mutex<Option<LastSync>>,
    changes: AtomicU64,
}

impl SyncGate {
    fn new() -> Self {
        SyncGate {
            last: tokio::sync::Mutex::new(None),
            changes: AtomicU64::new(0),
        }
    }

    /// How many times this process has changed the pool so far ([`SyncGate::changed`]).
    pub fn changes(&self) -> u64 {
        self.changes.load(Ordering::Acquire)
    }

    /// Counts a change this process made to the pool: a transaction it sent, or one of its
    /// transactions found in a block. A server's next read of the pool's leaves or
    /// withdrawals then syncs whatever the TTL says, so a client told by this server that its
    /// withdrawal went through finds it in this server's list at once.
    pub fn changed(&self) {
        self.changes.fetch_add(1, Ordering::AcqRel);
    }
}

/// A pool's last sync: when it began, the chain's head block then, when it was read (a
/// server's syncs read it; a client's do not need it), and the pool's count of changes
/// ([`SyncGate::changes`]) then. Both are read before the sync, so a block or a change that
/// comes during it makes one sync more, never one less.
#[derive(Debug, Clone, Copy)]
pub(crate) struct LastSync {
    pub at: Instant,
    pub head: Option<[u8; 32]>,
    pub changes: u64,
}

/// What energy costs on this chain.
#[derive(Debug, Clone, Copy)]
pub struct Prices {
    /// Sun per unit of energy (`getEnergyFee`; 100 on TRON since 2024).
    pub energy_fee: i64,
    /// The highest fee limit a transaction may carry (`getMaxFeeLimit`).
    pub max_fee_limit: i64,
    /// Sun per byte of bandwidth beyond an account's free and staked allowance
    /// (`getTransactionFee`).
    pub bandwidth_fee: i64,
}

impl Chain {
    /// Uses `deployment` on `node`, with pool reads cached for `ttl` (zero: not cached).
    pub fn new(network: String, node: NodeClient, deployment: Deployment, ttl: Duration) -> Self {
        let pool_states = deployment
            .pools
            .iter()
            .map(|p| (p.denomination, Cached::new("pool_state", ttl)))
            .collect();
        let pool_sponsors = deployment
            .pools
            .iter()
            .map(|p| (p.denomination, Cached::new("pool_sponsor", ttl)))
            .collect();
        let sync_gates = deployment
            .pools
            .iter()
            .map(|p| (p.denomination, SyncGate::new()))
            .collect();
        Chain {
            sync_sources: SyncSource::defaults(),
            proxy: None,
            sync_ttl: ttl,
            sync_gates,
            pool_sponsors,
            network,
            node,
            deployment,
            pool_states,
            head: Cached::new("head", HEAD_TTL.min(ttl.max(Duration::from_millis(1)))),
            // Kept no longer than the pools: a relayer's quote follows the energy price.
            prices: Cached::new("prices", PARAMS_TTL.min(ttl)),
            keys_dir: None,
            batch_keys: OnceLock::new(),
            keys: OnceLock::new(),
            devnet: false,
        }
    }

    /// Syncs pools from `sources`, in order (none: [`SyncSource::defaults`]), reaching a
    /// sync server through `proxy`.
    pub fn with_sync_sources(mut self, sources: Vec<SyncSource>, proxy: Option<Url>) -> Self {
        if !sources.is_empty() {
            self.sync_sources = sources;
        }
        self.proxy = proxy;
        self
    }

    pub(crate) fn sync_sources(&self) -> &[SyncSource] {
        &self.sync_sources
    }

    pub fn proxy(&self) -> Option<&Url> {
        self.proxy.as_ref()
    }

    pub(crate) fn sync_ttl(&self) -> Duration {
        self.sync_ttl
    }

    pub(crate) fn sync_gate(&self, denomination: u64) -> Result<&SyncGate> {
        self.sync_gates
            .get(&denomination)
            .ok_or_else(|| self.unknown_pool(&denomination.to_string()))
    }

    /// Takes the node for a tronpool devnet without asking it: for a chain whose devnet the
    /// caller started itself, in process (tests), or already asked (`deploy`).
    pub fn assume_devnet(mut self) -> Self {
        self.devnet = true;
        self
    }

    /// The refusal of the development keys on a node that is not a tronpool devnet.
    pub(crate) fn insecure_dev_key(&self) -> Error {
        Error::Refused(format!(
            "the verifier on {} holds tronpool's insecure development key, whose proofs anyone \
             can forge, and its node is not a tronpool devnet (its genesis block is not a \
             devnet's): refusing to use its pools",
            self.network
        ))
    }

    /// Looks for ceremony keys in `dir` (see [`Chain::verifying_keys`]).
    pub(crate) fn with_keys_dir(mut self, dir: Option<PathBuf>) -> Self {
        self.keys_dir = dir;
        self
    }

    /// The keys the deployment's verifier was made with, found by the hash the deployment
    /// pins: the development keys on the devnet, an imported ceremony's zkey elsewhere. The
    /// development keys are refused on every other network: anyone can forge their proofs.
    pub(crate) fn verifying_keys(&self) -> Result<KeysHandle> {
        if let Some(keys) = self.keys.get() {
            return Ok(keys.clone());
        }
        let keys = self.load_keys(Circuit::Withdraw, &self.deployment.verifying_key_sha256)?;
        Ok(self.keys.get_or_init(|| keys).clone())
    }

    /// The keys of the batch verifier, as [`Chain::verifying_keys`] finds the withdraw
    /// verifier's; `None` when the pools do not queue.
    pub(crate) fn batch_keys(&self) -> Result<Option<KeysHandle>> {
        let Some(batches) = &self.deployment.batches else {
            return Ok(None);
        };
        if let Some(keys) = self.batch_keys.get() {
            return Ok(Some(keys.clone()));
        }
        let keys = self.load_keys(Circuit::Batch, &batches.verifying_key_sha256)?;
        Ok(Some(self.batch_keys.get_or_init(|| keys).clone()))
    }

    /// The keys of `circuit` whose verifying key hashes to `pinned`.
    fn load_keys(&self, circuit: Circuit, pinned: &str) -> Result<KeysHandle> {
        let network = &self.network;
        if pinned == circuit.insecure_dev_vk_sha256() {
            // Decided by the node's genesis block, never by the network's name: a config that
            // calls a real network "devnet" gets no development keys.
            if !self.devnet {
                return Err(self.insecure_dev_key());
            }
            return Ok(KeysHandle::InsecureDev(match circuit {
                Circuit::Withdraw => Keys::insecure_dev(),
                Circuit::Batch => zk::batch_proof::insecure_dev_keys(),
            }));
        }
        let path = self
            .keys_dir
            .as_ref()
            .map(|dir| crate::service::ceremony::zkey_path(dir, pinned));
        let Some(path) = path.filter(|p| p.exists()) else {
            return Err(Error::usage(format!(
                "the {circuit} verifier on {network} holds verifying key {pinned}, which is not \
                 imported here; import the {circuit} ceremony's zkey with `tronpool ceremony \
                 import FILE.zkey`"
            )));
        };
        let keys = Keys::read_zkey(&path).map_err(|e| Error::caused("the imported keys", e))?;
        if keys.verifying_key_sha256() != pinned || keys.circuit() != circuit {
            return Err(crate::error::StoreError::damaged(
                path.display().to_string(),
                format!(
                    "holds the {} circuit's verifying key {}, not the {circuit} circuit's \
                     {pinned}: the file was changed after import; import the ceremony's zkey \
                     again",
                    keys.circuit(),
                    keys.verifying_key_sha256()
                ),
            ));
        }
        crate::service::ceremony::check_usable(&path, network, self.devnet)?;
        Ok(KeysHandle::Ceremony(Arc::new(keys)))
    }

    /// The verifying keys the deployment pins, by circuit: the withdraw verifier's, then
    /// the batch verifier's when the pools queue.
    pub(crate) fn pinned_keys(&self) -> Vec<(Circuit, &str)> {
        let mut pinned = vec![(
            Circuit::Withdraw,
            self.deployment.verifying_key_sha256.as_str(),
        )];
        if let Some(batches) = &self.deployment.batches {
            pinned.push((Circuit::Batch, batches.verifying_key_sha256.as_str()));
        }
        pinned
    }

    /// The denominations, smallest first.
    pub fn denominations(&self) -> Vec<u64> {
        self.pool_states.keys().copied().collect()
    }

    /// The pool of a denomination (in whole USDT), or a 404 listing the ones there are.
    /// `denomination` as a pool this network has, or the error that names the pools it has.
    pub fn denomination(&self, denomination: u64) -> Result<Denomination> {
        let pool = self
            .deployment
            .pool(denomination)
            .ok_or_else(|| self.unknown_pool(&denomination.to_string()))?;
        Ok(Denomination {
            whole: denomination,
            insertion_fee: pool.insertion_fee,
        })
    }

    /// Whether this deployment's pools queue deposits for batch insertion
    /// ([`contracts::Deployment::queued`]).
    pub fn queued(&self) -> bool {
        self.deployment.queued()
    }

    pub(crate) fn pool_address(&self, denomination: u64) -> Result<Address> {
        self.deployment
            .pool(denomination)
            .map(|p| p.address)
            .ok_or_else(|| self.unknown_pool(&denomination.to_string()))
    }

    /// The error for a denomination that has no pool.
    pub(crate) fn unknown_pool(&self, asked: &str) -> Error {
        let known: Vec<String> = self
            .denominations()
            .iter()
            .map(ToString::to_string)
            .collect();
        Error::NotFound(format!(
            "no {asked} USDT pool on {}; pools: {}",
            self.network,
            known.join(", ")
        ))
    }

    pub(crate) fn pool_cache(&self, denomination: u64) -> Result<&Cached<PoolState>> {
        self.pool_states
            .get(&denomination)
            .ok_or_else(|| self.unknown_pool(&denomination.to_string()))
    }

    pub(crate) fn sponsor_cache(&self, denomination: u64) -> Result<&Cached<SponsorShare>> {
        self.pool_sponsors
            .get(&denomination)
            .ok_or_else(|| self.unknown_pool(&denomination.to_string()))
    }

    /// The head block, from the cache when it is at most a second old.
    pub async fn head(&self) -> Result<Arc<Head>> {
        self.head
            .get(|| async {
                let started = Instant::now();
                let block = self.node.get_now_block().await?;
                Ok(Head {
                    block,
                    latency: started.elapsed(),
                })
            })
            .await
    }

    pub async fn prices(&self) -> Result<Prices> {
        let prices = self
            .prices
            .get(|| async {
                let params = self.node.get_chain_parameters().await?;
                Ok(Prices {
                    energy_fee: params.energy_fee().unwrap_or(100),
                    max_fee_limit: params.max_fee_limit().unwrap_or(15_000_000_000),
                    bandwidth_fee: params.transaction_fee().unwrap_or(1_000),
                })
            })
            .await?;
        Ok(*prices)
    }

    /// Calls a view function and decodes its answer.
    pub async fn view<C: SolCall>(&self, contract: Address, call: C) -> Result<C::Return> {
        let result = self
            .simulate(contract, contract, 0, call.abi_encode())
            .await?;
        if result.reverted {
            return Err(Error::Failed(format!(
                "{} on {contract} reverted: {}",
                C::SIGNATURE,
                result.revert_reason().unwrap_or_else(|| "no reason".into())
            )));
        }
        C::abi_decode_returns(&result.output).map_err(|e| {
            Error::Node(NodeError::Decode {
                endpoint: "wallet/triggerconstantcontract".into(),
                reason: format!("{} returned something else: {e}", C::SIGNATURE),
            })
        })
    }

    /// Runs a call against the head state without a transaction: exactly what a broadcast
    /// would execute now, so its revert is the one the caller would pay for.
    pub(crate) async fn simulate(
        &self,
        owner: Address,
        contract: Address,
        call_value: i64,
        data: Vec<u8>,
    ) -> Result<ConstantCall> {
        let trigger = Trigger {
            owner,
            contract,
            call_value,
            data,
            ..Default::default()
        };
        Ok(self.node.trigger_constant_contract(&trigger).await?)
    }
}

/// A pool's denomination in whole USDT, known to be one the network has a pool for (made by
/// [`Chain::denomination`]), with what each deposit escrows for its insertion; the one place
/// a denomination becomes base units.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Denomination {
    whole: u64,
    /// USDT base units a deposit pays besides the denomination, for the batch that inserts
    /// it (0 where deposits are inserted at once).
    insertion_fee: u64,
}

impl Denomination {
    /// In whole USDT.
    pub fn whole(self) -> u64 {
        self.whole
    }

    /// In USDT base units (6 decimals): what a withdrawal pays out, fee included.
    pub(crate) fn base_units(self) -> alloy_primitives::U256 {
        alloy_primitives::U256::from(self.whole)
            * alloy_primitives::U256::from(crate::service::inputs::USDT_UNIT)
    }

    /// The insertion fee, in base units.
    pub fn insertion_fee(self) -> alloy_primitives::U256 {
        alloy_primitives::U256::from(self.insertion_fee)
    }

    /// What one deposit takes from its sender, in base units: the denomination and the
    /// insertion fee.
    pub fn deposit_units(self) -> alloy_primitives::U256 {
        self.base_units() + self.insertion_fee()
    }

    /// What `count` deposits take, in base units (a U256: no count overflows it).
    pub fn times(self, count: u64) -> alloy_primitives::U256 {
        self.deposit_units() * alloy_primitives::U256::from(count)
    }

    /// `percent` of one deposit's denomination, in base units, rounded down.
    pub fn percent(self, percent: u64) -> alloy_primitives::U256 {
        self.base_units() * alloy_primitives::U256::from(percent)
            / alloy_primitives::U256::from(100u8)
    }
}

impl std::fmt::Display for Denomination {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{}", self.whole)
    }
}
