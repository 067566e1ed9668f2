//! The relayer: submits other people's withdrawals with its own key, pays the energy, and
//! earns the pool's fee — never less than the relay costs it.
//!
//! Nothing is broadcast until every check has passed, cheapest first: the note is not
//! relayed by us (checked again once the request has its turn, so a copy that waited behind
//! the first is refused naming the first's transaction); the refund is within our limit;
//! there is a price (else 503); the fee covers our quote for this refund; the note is
//! unspent, the root known, the proof valid for *our* address and this fee; a refund does
//! not go to a contract if the operator refuses that; the simulation succeeds within the
//! energy ceiling and its real cost is covered by the fee; we can pay the ceiling. The
//! transaction's fee limit is the ceiling's price, so a withdrawal that behaves worse on
//! chain than in the simulation costs at most that.
//!
//! Approvals take turns ([`Relayer::approving`], and on a database several servers share the
//! database's turn, `store::coordination`): pricing, the checks and recording the job
//! happen one request at a time across every replica, each priced against what the relayer has *after* the
//! reservations of its unfinished jobs (`store::jobs::Reservation`): five requests in one
//! block against a stake that covers one relay are not all sold that stake. The turn ends
//! once the job is recorded; the broadcast and the wait for a block are outside it.
//!
//! What is assumed of a transaction not yet in a block: the node's figures (energy,
//! bandwidth, balance) may or may not carry it already (java-tron's pending state deducts the
//! balance when it validates; our devnet seals on broadcast), so its reservation counts until
//! the watcher has seen its receipt (`included`) or it failed. Between its block and the
//! watcher's next look (one poll) it is counted twice: a quote is then too high or a request
//! is turned away (503, nothing spent), never under-priced. Once `included`, the node's
//! figures carry what it really drew and the reservation is gone, so it is never counted
//! twice for longer than that.
//!
//! The job is recorded (with the signed transaction) before the broadcast, and the broadcast
//! is detached from the request: a client whose request runs out of time still gets the txid
//! and can follow the job (`GET /api/relayer/jobs/{txid}`). The watcher follows each job to a
//! solidified receipt, broadcasting again what a crash or a node dropped, retrying what a
//! busy node turned away, and recording what a failed transaction burned. On a shared
//! database each job is leased to the replica that follows it (first the one that recorded
//! it), and another takes it over when the lease runs out: a replica killed between recording
//! and broadcasting loses nothing. Fee collection and the batcher each run on one replica at
//! a time, the one holding their named lease.

use std::collections::{BTreeMap, VecDeque};
use std::sync::{Mutex, OnceLock};
use std::time::{Duration, Instant};

use alloy_primitives::{B256, U256};
use tron::{Address, PrivateKey, TxId};

use crate::error::{Error, Result, StoreError};
use crate::service::balances;
use crate::service::cache::Cached;
use crate::service::chain::Chain;
use crate::service::format::{six_decimals, word_hex};
use crate::service::inputs::USDT_UNIT;
use crate::service::journal::Journal;
use crate::service::relayer_fees::{Pricing, Resources, Terms};
use crate::service::sponsor;
use crate::service::wire::{FeeQuote, RelayerStatus};
use crate::store::coordination::Coordination;
/// A relayed withdrawal as the relayer records and reports it.
pub use crate::store::jobs::Job;
use crate::store::jobs::{JobStore, Reserved};

mod batch;
mod relay;
mod watch;

/// A relayed transaction is broadcast at once; a short validity bounds how long a job can
/// stay undecided after a crash.
const RELAY_EXPIRATION_MS: i64 = 2 * 60 * 1000;

/// The database turn relay approvals take (an advisory lock's key on PostgreSQL).
const APPROVAL_TURN: i64 = 0x7265_6c61_7900; // "relay"

/// How long a replica's look at a job leases it (renewed at every look, one poll apart): far
/// inside [`RELAY_EXPIRATION_MS`], so a dead replica's recorded job is broadcast by another
/// long before it expires.
const JOB_LEASE: Duration = Duration::from_secs(10);

/// How long the fee collector's and the batcher's leases last; renewed at every pass.
const ROLE_LEASE: Duration = Duration::from_secs(30);

/// How often the shared rate budgets of clients whose budget is full again are dropped.
const BUDGET_SWEEP: Duration = Duration::from_secs(10);

/// The role of the replica that collects the pools' fees.
const FEES_ROLE: &str = "fees";
/// The role of the replica that inserts batches.
const BATCHER_ROLE: &str = "batcher";

/// How long a fee the relayer published (`GET /api/relayer/status`, `GET /api/pools`) is
/// honoured: a request whose fee is at least a quote shown within this time is not refused
/// for being below the price of the moment, so a client who proved against a quote (the fee
/// is bound into the proof) is not turned away because other requests came first or the
/// rate moved. The quote is honoured only while it still covers what the relay costs the
/// relayer now (its break-even, no margin): honouring a quote whose stake others have since
/// taken would sell that stake twice, so such a request is refused with the fee it needs,
/// and nothing is spent. Quotes are not reservations: anyone may ask for a quote, and a
/// quote that locked stake would let anyone lock it all.
pub(crate) const QUOTE_HOLD: Duration = Duration::from_secs(60);
/// How long after making a pool listing the API may answer it again as it was, without
/// reading anything (`api::hot`, for a flood of identical reads). A quote is therefore held
/// for `QUOTE_HOLD` plus this from when it was made, so a client shown it a moment later
/// still has its whole `QUOTE_HOLD`.
pub(crate) const LISTING_REPEAT: Duration = Duration::from_millis(250);
/// How long a quote is kept after it was made.
const HELD_FOR: Duration = QUOTE_HOLD.saturating_add(LISTING_REPEAT);
/// The most distinct quotes kept per pool within [`QUOTE_HOLD`] (the oldest go first).
const HELD_QUOTES: usize = 16;

#[derive(Debug, Clone)]
pub struct RelayerConfig {
    /// Work is refused (503) below this balance, in sun.
    pub min_balance: i64,
    /// The most TRX (sun) we forward to a recipient as a refund.
    pub max_refund: i64,
    /// Whether a refund may go to an address that holds contract code (the default). The
    /// pool hands the recipient at most `TronPool.REFUND_ENERGY` + the 2,300 stipend with a
    /// refund, and a recipient that wants more fails alone: the refund returns to us and the
    /// withdrawal stands, a few thousand energy dearer than to a fresh account, within the
    /// ceiling and the margin. An operator may still refuse them (one `getcontract` more per
    /// request, and a check a contract created after it escapes anyway).
    pub allow_contract_refund: bool,
    /// How often the watcher looks at unfinished jobs.
    pub poll: Duration,
    /// Collect a pool's fees once they reach this many base units; `None`: never by itself
    /// (see [`crate::service::fees`]).
    pub collect_above: Option<U256>,
    /// How often to look at the fees due.
    pub collect_every: Duration,
    /// The longest a deposit waits in a queued pool before the batcher inserts it in a
    /// batch that is not full (a full block of 32 goes at once); `None`: no batcher.
    pub batch_max_wait: Option<Duration>,
    /// How often the batcher looks at the queues.
    pub batch_poll: Duration,
    /// The most TRX (sun) the batcher loses in 24 hours: what batches burn beyond what their
    /// insertion fees are worth at the relay price. A batch sent because a deposit waited the
    /// longest wait earns only its deposits' fees, and a stranger depositing once per wait
    /// could otherwise make the relayer pay a batch each time; a full batch pays for itself
    /// at the default fee until TRX's price rises past about 0.32 USDT.
    pub batch_loss_budget: i64,
}

/// How long a deposit waits at most for `serve`'s batcher by default: 30 minutes.
pub const DEFAULT_BATCH_MAX_WAIT: Duration = Duration::from_secs(30 * 60);

/// What the batcher may burn a day on batches that are not full, by default: 300 TRX, about
/// twelve batches of one at 100 sun per energy (each earns 0.25 USDT, about 0.9 TRX).
pub const DEFAULT_BATCH_LOSS_BUDGET: i64 = 300 * 1_000_000;

/// The default threshold for collecting a pool's fees: 100 USDT, so that a collection's
/// transfer (about 7.8 TRX of energy at 100 sun, unsponsored) is under 3% of what it collects.
pub(crate) const DEFAULT_COLLECT_ABOVE: u64 = 100 * USDT_UNIT;

impl Default for RelayerConfig {
    fn default() -> Self {
        RelayerConfig {
            min_balance: 100_000_000,
            max_refund: 10_000_000,
            allow_contract_refund: true,
            poll: Duration::from_secs(1),
            collect_above: Some(U256::from(DEFAULT_COLLECT_ABOVE)),
            collect_every: Duration::from_secs(600),
            batch_max_wait: Some(DEFAULT_BATCH_MAX_WAIT),
            batch_poll: Duration::from_secs(30),
            batch_loss_budget: DEFAULT_BATCH_LOSS_BUDGET,
        }
    }
}

/// The status of a server that does not relay: its quotes as they would be.
pub async fn status_off(chain: &Chain, pricing: &Pricing) -> RelayerStatus {
    let terms = pricing.terms(chain, Resources::default()).await;
    let (fees, price_error) = quotes(chain, terms, None).await;
    RelayerStatus {
        enabled: false,
        address: None,
        network: chain.network.clone(),
        balance_trx: None,
        energy_available: None,
        fees,
        price_error,
        pending: 0,
        reserved: None,
        quote_valid_seconds: 0,
        version: env!("CARGO_PKG_VERSION").to_owned(),
    }
}

/// Every pool's quote under `terms` for the relayer at `address`, or why there is none.
async fn quotes(
    chain: &Chain,
    terms: Result<Terms<'_>>,
    address: Option<Address>,
) -> (Vec<FeeQuote>, Option<String>) {
    match terms {
        Ok(terms) => {
            let quotes = chain.denominations().into_iter().map(|d| {
                let terms = &terms;
                async move {
                    let sponsor = sponsor::quoted_sponsor(chain, d).await;
                    let sponsor = match address {
                        Some(relayer) => sponsor.for_caller(relayer),
                        None => sponsor,
                    };
                    terms.quote(d, &sponsor)
                }
            });
            (futures_util::future::join_all(quotes).await, None)
        }
        Err(e) => (Vec::new(), Some(e.public_message())),
    }
}

pub struct Relayer {
    key: PrivateKey,
    config: RelayerConfig,
    jobs: JobStore,
    /// The jobs' transactions: recorded, sent and followed (the jobs' connection).
    journal: Journal,
    /// The database's part when several servers share it: turns, leases, rate budgets.
    coordination: Coordination,
    /// When the watcher last began a pass over the jobs: how readiness knows it is alive.
    watched: Mutex<Option<Instant>>,
    /// Held from pricing a request to recording its job, so that each approval sees the
    /// reservations of the ones before it. Not held while a broadcast waits for the node.
    /// This process's lock; servers sharing a database also take the database's turn.
    approving: tokio::sync::Mutex<()>,
    /// The quotes published within [`QUOTE_HOLD`], per pool.
    shown: Mutex<BTreeMap<u64, VecDeque<Shown>>>,
    /// What the last batch proved would burn (sun): a batch that is not full is not proved
    /// while that would not fit the budget.
    batch_cost: Mutex<Option<i64>>,
    /// Each queued pool's next batch as the batcher last saw it, for the pool listings.
    next_batches: Mutex<BTreeMap<u64, crate::service::wire::NextBatch>>,
    /// What pool listings price fees by, read at most once per chain cache period (made on
    /// first use, with the chain's period).
    listing: OnceLock<Cached<Holding>>,
}

/// What the relayer holds to relay with: its own resources less what its unfinished jobs
/// reserved, and the sponsors' energy those jobs count on. A relay prices from a fresh one
/// ([`Relayer::standing`]); pool listings from one kept for the chain's cache period (about a
/// block) and dropped when a job is recorded, so a burst of `GET /api/pools` is not a burst
/// of node and database reads. A fee shown from it may be a block old; a relay honours a
/// shown fee only while it still pays for the relay.
struct Holding {
    own: Resources,
    sponsor_reserved: BTreeMap<Address, i64>,
}

impl Holding {
    /// The terms these holdings price at this moment's prices.
    async fn terms<'p>(&self, chain: &Chain, pricing: &'p Pricing) -> Result<Terms<'p>> {
        Ok(pricing
            .terms(chain, self.own)
            .await?
            .with_sponsor_reserved(self.sponsor_reserved.clone()))
    }
}

/// A quote as it was published: when, its fee without a refund and per TRX of refund.
#[derive(Debug, Clone, Copy)]
struct Shown {
    at: Instant,
    fee: U256,
    per_trx: U256,
}

impl Shown {
    /// The fee this quote asks with `refund_sun` of refund ([`FeeQuote::fee_with_refund`]).
    fn with_refund(&self, refund_sun: i64) -> U256 {
        self.fee + (U256::from(refund_sun.max(0)) * self.per_trx).div_ceil(U256::from(1_000_000u32))
    }
}

/// What the relayer has to work with right now: its node's figures less its reservations.
pub(crate) struct Standing<'a> {
    pub terms: Terms<'a>,
    pub reserved: Reserved,
}

/// How long past its poll interval the watcher may go without a pass before it counts as
/// dead: a pass over many jobs against a slow node takes a while.
const WATCHER_GRACE: Duration = Duration::from_secs(60);

impl Relayer {
    pub fn new(key: PrivateKey, config: RelayerConfig, jobs: JobStore) -> Self {
        let owner = crate::store::coordination::process_owner();
        let mut journal = Journal::new(jobs.journal().clone()).retry_after(config.poll);
        // Leases only where processes share the database: alone on its SQLite file, a
        // restarted server follows its jobs at once, not after its old self's lease.
        if jobs.db().is_postgres() {
            journal = journal.leased(owner.clone(), JOB_LEASE.max(config.poll * 5));
        }
        Relayer {
            key,
            config,
            coordination: Coordination::new(jobs.db().clone(), owner),
            jobs,
            journal,
            watched: Mutex::new(None),
            approving: tokio::sync::Mutex::new(()),
            shown: Mutex::new(BTreeMap::new()),
            next_batches: Mutex::new(BTreeMap::new()),
            batch_cost: Mutex::new(None),
            listing: OnceLock::new(),
        }
    }

    pub fn address(&self) -> Address {
        self.key.address()
    }

    pub fn jobs(&self) -> &JobStore {
        &self.jobs
    }

    /// The balance (sun) below which relaying is refused.
    pub fn min_balance(&self) -> i64 {
        self.config.min_balance
    }

    /// Whether the watcher began a pass within its poll interval (times three) and a grace.
    pub(crate) fn watcher_alive(&self) -> bool {
        let watched = *self.watched.lock().unwrap_or_else(|e| e.into_inner());
        watched.is_some_and(|at| at.elapsed() <= self.config.poll * 3 + WATCHER_GRACE)
    }

    /// Counts one request of `client` against the relayer budget `name` (`per_minute`, in a
    /// burst of as many) kept in the database, when servers share one: `None` when it is
    /// allowed (always, alone on a database: the per-process limiter is the budget then),
    /// else the ms until the next is.
    pub(crate) fn take_shared_budget(
        &self,
        name: &str,
        client: &str,
        per_minute: u32,
    ) -> Result<Option<i64>> {
        if !self.coordination.is_shared() {
            return Ok(None);
        }
        let limit = i64::from(per_minute.max(1));
        let interval = (60_000 / limit).max(1);
        Ok(
            match self.coordination.take(name, client, interval, limit)? {
                crate::store::coordination::Budget::Allowed => None,
                crate::store::coordination::Budget::Wait(ms) => Some(ms),
            },
        )
    }

    /// Forgets, every [`BUDGET_SWEEP`] until the server stops, the clients whose shared budget
    /// is full again, so the database holds the clients of the last minute or so and not every
    /// client ever seen (as the per-process limiters are swept). Alone on its database a server
    /// keeps no shared budgets, and this returns at once.
    pub(crate) async fn sweep_shared_budgets(self: std::sync::Arc<Self>) {
        if !self.coordination.is_shared() {
            return;
        }
        loop {
            tokio::time::sleep(BUDGET_SWEEP).await;
            if let Err(e) = self.coordination.sweep_budgets() {
                tracing::warn!(error = %e, "forgetting the shared rate budgets of past clients");
            }
        }
    }

    /// The shared database's pool: connections open and idle (`None` on SQLite).
    pub(crate) fn database_connections(&self) -> Option<(usize, usize)> {
        match self.jobs.db() {
            crate::store::sql::Db::Postgres(pg) => Some(pg.connections()),
            crate::store::sql::Db::Sqlite(_) => None,
        }
    }

    /// Whether this server plays `role` (`fees`, `batcher`) now: always when it is alone on
    /// its database; on a shared one, while it holds the role's lease (taken, or renewed, by
    /// this call). A database that cannot be asked counts as no.
    pub(crate) fn holds_role(&self, role: &str) -> bool {
        if !self.coordination.is_shared() {
            return true;
        }
        match self
            .coordination
            .hold_lease(role, ROLE_LEASE.as_millis() as i64)
        {
            Ok(held) => held,
            Err(e) => {
                tracing::warn!(role, error = %e, "asking the database who plays a role");
                false
            }
        }
    }

    /// Gives this server's roles up (a clean stop), so another replica takes them at once.
    pub(crate) fn release_roles(&self) {
        if self.coordination.is_shared() {
            for role in [FEES_ROLE, BATCHER_ROLE] {
                if let Err(e) = self.coordination.release_lease(role) {
                    tracing::warn!(role, error = %e, "giving a role up");
                }
            }
        }
    }

    pub async fn status(&self, chain: &Chain, pricing: &Pricing) -> Result<RelayerStatus> {
        let address = self.address();
        let (trx, resources) = tokio::try_join!(balances::trx_balance(chain, address), async {
            Ok(chain.node.get_account_resource(&address).await?)
        })?;
        let reserved = self.jobs.reserved()?;
        let terms = match pricing
            .terms(chain, Resources::of(&resources).less(&reserved))
            .await
        {
            Ok(terms) => self.with_sponsor_reservations(terms),
            Err(e) => Err(e),
        };
        let (fees, price_error) = quotes(chain, terms, Some(address)).await;
        self.remember(&fees);
        Ok(RelayerStatus {
            enabled: true,
            address: Some(address),
            network: chain.network.clone(),
            balance_trx: Some(six_decimals(U256::from(trx.max(0)))),
            energy_available: Some(resources.energy_available()),
            fees,
            price_error,
            pending: self.jobs.unfinished()?.len(),
            reserved: Some(reserved),
            quote_valid_seconds: QUOTE_HOLD.as_secs(),
            version: env!("CARGO_PKG_VERSION").to_owned(),
        })
    }

    /// The terms a new request is priced by now: this moment's prices, for what the
    /// relayer's stake and its pools' sponsors have left once its unfinished jobs drew what
    /// they reserved.
    pub(crate) async fn standing<'p>(
        &self,
        chain: &Chain,
        pricing: &'p Pricing,
    ) -> Result<Standing<'p>> {
        let (holding, reserved) = self.holding(chain).await?;
        Ok(Standing {
            terms: holding.terms(chain, pricing).await?,
            reserved,
        })
    }

    /// What the relayer holds now ([`Holding`]), and the reservations it is net of.
    async fn holding(&self, chain: &Chain) -> Result<(Holding, Reserved)> {
        let node = chain.node.get_account_resource(&self.address()).await?;
        let reserved = self.jobs.reserved()?;
        let holding = Holding {
            own: Resources::of(&node).less(&reserved),
            sponsor_reserved: self.sponsor_reservations()?,
        };
        Ok((holding, reserved))
    }

    /// `terms` with the sponsors' energy our unfinished jobs count on.
    fn with_sponsor_reservations<'p>(&self, terms: Terms<'p>) -> Result<Terms<'p>> {
        Ok(terms.with_sponsor_reserved(self.sponsor_reservations()?))
    }

    /// The energy of each sponsor that unfinished relays count on.
    fn sponsor_reservations(&self) -> Result<BTreeMap<Address, i64>> {
        let mut by_sponsor = BTreeMap::new();
        for (sponsor, energy) in self.jobs.reserved_sponsor_energy()? {
            let address = Address::from_base58(&sponsor).map_err(|e| {
                StoreError::damaged("relayer job store", format!("sponsor `{sponsor}`: {e}"))
            })?;
            by_sponsor.insert(address, energy);
        }
        Ok(by_sponsor)
    }

    /// The terms a pool listing shows fees by ([`Holding`]): [`Relayer::standing`]'s, from
    /// inputs at most one chain cache period old.
    pub(crate) async fn listing_terms<'p>(
        &self,
        chain: &Chain,
        pricing: &'p Pricing,
    ) -> Result<Terms<'p>> {
        let cache = self
            .listing
            .get_or_init(|| Cached::new("relayer_listing", chain.sync_ttl()));
        let listing = cache
            .get(|| async { Ok(self.holding(chain).await?.0) })
            .await?;
        listing.terms(chain, pricing).await
    }

    /// A job was recorded: the next listing reads the reservations again.
    fn listing_changed(&self) {
        if let Some(cache) = self.listing.get() {
            cache.invalidate();
        }
    }

    /// Keeps the quotes just published, for [`QUOTE_HOLD`].
    fn remember(&self, fees: &[FeeQuote]) {
        let parsed = fees.iter().filter_map(|quote| {
            Some((
                quote.denomination,
                quote.relayer_fee_raw.parse::<U256>().ok()?,
                quote.refund_price_raw.parse::<U256>().ok()?,
            ))
        });
        self.remember_fees(parsed);
    }

    /// Keeps fees just published (pool, fee without a refund, fee per TRX of refund), for
    /// [`QUOTE_HOLD`]: `GET /api/pools` shows the first.
    pub(crate) fn remember_fees(&self, fees: impl IntoIterator<Item = (u64, U256, U256)>) {
        let now = Instant::now();
        let mut shown = self.shown.lock().unwrap_or_else(|e| e.into_inner());
        for (denomination, fee, per_trx) in fees {
            let held = shown.entry(denomination).or_default();
            held.retain(|s| {
                now.duration_since(s.at) <= HELD_FOR && (s.fee, s.per_trx) != (fee, per_trx)
            });
            held.push_back(Shown {
                at: now,
                fee,
                per_trx,
            });
            while held.len() > HELD_QUOTES {
                held.pop_front();
            }
        }
    }

    /// The lowest fee, with this refund, of the quotes published for the pool within
    /// [`QUOTE_HOLD`].
    fn honoured(&self, denomination: u64, refund_sun: i64) -> Option<U256> {
        let shown = self.shown.lock().unwrap_or_else(|e| e.into_inner());
        shown
            .get(&denomination)?
            .iter()
            .filter(|s| s.at.elapsed() <= HELD_FOR)
            .map(|s| s.with_refund(refund_sun))
            .min()
    }

    /// A job by its txid (64 hex digits).
    pub fn job(&self, txid: &TxId) -> Result<Job> {
        self.jobs
            .get(&txid.to_hex())?
            .ok_or_else(|| Error::NotFound(format!("this relayer has no job {txid}")))
    }

    /// The newest job for a nullifier hash.
    pub(crate) fn job_for_note(&self, nullifier_hash: &B256) -> Result<Job> {
        let hex = word_hex(nullifier_hash);
        self.jobs
            .by_nullifier(&hex)?
            .ok_or_else(|| Error::NotFound(format!("this relayer has no job for {hex}")))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::store::sql::Db;

    fn relayer(jobs: JobStore) -> Relayer {
        Relayer::new(
            PrivateKey::from_hex(&"11".repeat(32)).unwrap(),
            RelayerConfig::default(),
            jobs,
        )
    }

    /// Alone on its database a server plays every role; on a shared one, one replica
    /// collects fees and one batches, until it gives the role up (or stops renewing it).
    #[test]
    fn each_role_is_played_by_one_replica_at_a_time() {
        let alone = relayer(JobStore::in_memory().unwrap());
        assert!(alone.holds_role(FEES_ROLE) && alone.holds_role(BATCHER_ROLE));
        let Some(pg) = crate::store::pg::testing::fresh("roles") else {
            return;
        };
        let one = relayer(JobStore::on(Db::Postgres(pg.clone())));
        let two = relayer(JobStore::on(Db::Postgres(pg)));
        assert!(one.holds_role(FEES_ROLE));
        assert!(!two.holds_role(FEES_ROLE), "one fee collector");
        assert!(two.holds_role(BATCHER_ROLE));
        assert!(!one.holds_role(BATCHER_ROLE), "one batcher");
        assert!(one.holds_role(FEES_ROLE), "renewed by its holder");
        one.release_roles();
        assert!(two.holds_role(FEES_ROLE), "given up on a clean stop");
        assert!(two.holds_role(BATCHER_ROLE));
    }
}
