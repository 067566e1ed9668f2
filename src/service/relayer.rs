//! The relayer: submits other people's withdrawals with its own key, pays the energy, and
//! earns the pool's fee — never less than the relay costs it.
//!
//! Nothing is broadcast until every check has passed, cheapest first: the note is not in
//! flight or relayed by us; the refund is within our limit; there is a price (else 503); the
//! fee covers our quote for this refund; the note is unspent, the root known, the proof valid
//! for *our* address and this fee; a refund does not go to a contract if the operator refuses
//! that; the simulation succeeds within the energy ceiling and its real cost is covered
//! by the fee; we can pay the ceiling. The transaction's fee limit is the ceiling's price, so
//! a withdrawal that behaves worse on chain than in the simulation costs at most that.
//!
//! Approvals take turns ([`Relayer::approving`]): pricing, the checks and recording the job
//! happen one request at a time, each priced against what the relayer has *after* the
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
//! busy node turned away, and recording what a failed transaction burned.

use std::collections::{BTreeMap, HashSet, VecDeque};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use alloy_primitives::{B256, U256};
use tron::{Address, PrivateKey, TxId};

use crate::error::{Error, Kind, Result, StoreError};
use crate::service::builders::{WithdrawRequest, withdraw_calldata};
use crate::service::chain::Chain;
use crate::service::format::{six_decimals, six_decimals_text, word_hex};
use crate::service::inputs::USDT_UNIT;
use crate::service::journal::{Journal, Look, Purpose};
use crate::service::pool_state::SponsorShare;
use crate::service::relayer_fees::{BandwidthSource, Pricing, Resources, Terms};
use crate::service::submit::Broadcast;
use crate::service::wire::{FeeQuote, RelayRequest, Relayed, RelayerStatus};
use crate::store::jobs::{Job, JobState, JobStore, Reservation, Reserved};
use crate::units::format_trx;

/// A relayed transaction is broadcast at once; a short validity bounds how long a job can
/// stay undecided after a crash.
const RELAY_EXPIRATION_MS: i64 = 2 * 60 * 1000;

/// How long a fee the relayer published (`GET /api/relayer/status`, `GET /api/pools`) is
/// honoured: a request whose fee is at least a quote shown within this time is not refused
/// for being below the price of the moment, so a client who proved against a quote (the fee
/// is bound into the proof) is not turned away because other requests came first or the
/// rate moved. The quote is honoured only while it still covers what the relay costs the
/// relayer now (its break-even, no margin): honouring a quote whose stake others have since
/// taken would sell that stake twice, so such a request is refused with the fee it needs,
/// and nothing is spent. Quotes are not reservations: anyone may ask for a quote, and a
/// quote that locked stake would let anyone lock it all.
pub const QUOTE_HOLD: Duration = Duration::from_secs(60);
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
}

/// The default threshold for collecting a pool's fees: 100 USDT, so that a collection's
/// transfer (about 7.8 TRX of energy at 100 sun, unsponsored) is under 3% of what it collects.
pub const DEFAULT_COLLECT_ABOVE: u64 = 100 * USDT_UNIT;

impl Default for RelayerConfig {
    fn default() -> Self {
        RelayerConfig {
            min_balance: 100_000_000,
            max_refund: 10_000_000,
            allow_contract_refund: true,
            poll: Duration::from_secs(1),
            collect_above: Some(U256::from(DEFAULT_COLLECT_ABOVE)),
            collect_every: Duration::from_secs(600),
        }
    }
}

impl RelayerStatus {
    /// The status of a server that does not relay: its quotes as they would be.
    pub async fn off(chain: &Chain, pricing: &Pricing) -> Self {
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
                    let sponsor = chain.quoted_sponsor(d).await;
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
    /// Notes between "accepted for checking" and "recorded": concurrent copies of one
    /// request meet here, and all but the first are turned away.
    in_flight: Mutex<HashSet<(u64, B256)>>,
    /// When the watcher last began a pass over the jobs: how readiness knows it is alive.
    watched: Mutex<Option<Instant>>,
    /// Held from pricing a request to recording its job, so that each approval sees the
    /// reservations of the ones before it. Not held while a broadcast waits for the node.
    /// One process's lock: several servers on one database would need the database's
    /// (a PostgreSQL advisory lock) around the same steps.
    approving: tokio::sync::Mutex<()>,
    /// The quotes published within [`QUOTE_HOLD`], per pool.
    shown: Mutex<BTreeMap<u64, VecDeque<Shown>>>,
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
pub struct Standing<'a> {
    pub terms: Terms<'a>,
    pub reserved: Reserved,
    /// The node's figures, before reservations.
    pub node: tron::client::AccountResource,
}

/// How long past its poll interval the watcher may go without a pass before it counts as
/// dead: a pass over many jobs against a slow node takes a while.
const WATCHER_GRACE: Duration = Duration::from_secs(60);

/// Takes a note out of the in-flight set when its request ends, however it ends.
struct InFlight<'a> {
    set: &'a Mutex<HashSet<(u64, B256)>>,
    note: (u64, B256),
}

impl Drop for InFlight<'_> {
    fn drop(&mut self) {
        self.set
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .remove(&self.note);
    }
}

impl Relayer {
    pub fn new(key: PrivateKey, config: RelayerConfig, jobs: JobStore) -> Self {
        let journal = Journal::new(jobs.journal().clone()).retry_after(config.poll);
        Relayer {
            key,
            config,
            jobs,
            journal,
            in_flight: Mutex::new(HashSet::new()),
            watched: Mutex::new(None),
            approving: tokio::sync::Mutex::new(()),
            shown: Mutex::new(BTreeMap::new()),
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
    pub fn watcher_alive(&self) -> bool {
        let watched = *self.watched.lock().unwrap_or_else(|e| e.into_inner());
        watched.is_some_and(|at| at.elapsed() <= self.config.poll * 3 + WATCHER_GRACE)
    }

    fn claim(&self, note: (u64, B256)) -> Result<InFlight<'_>> {
        let mut set = self.in_flight.lock().unwrap_or_else(|e| e.into_inner());
        if !set.insert(note) {
            return Err(Error::Conflict(format!(
                "nullifier hash {} is already being relayed",
                word_hex(&note.1)
            )));
        }
        Ok(InFlight {
            set: &self.in_flight,
            note,
        })
    }

    pub async fn status(&self, chain: &Chain, pricing: &Pricing) -> Result<RelayerStatus> {
        let address = self.address();
        let (trx, resources) = tokio::try_join!(chain.trx_balance(address), async {
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
    pub async fn standing<'p>(&self, chain: &Chain, pricing: &'p Pricing) -> Result<Standing<'p>> {
        let node = chain.node.get_account_resource(&self.address()).await?;
        let reserved = self.jobs.reserved()?;
        let terms = pricing
            .terms(chain, Resources::of(&node).less(&reserved))
            .await?;
        Ok(Standing {
            terms: self.with_sponsor_reservations(terms)?,
            reserved,
            node,
        })
    }

    /// `terms` with the sponsors' energy our unfinished jobs count on.
    fn with_sponsor_reservations<'p>(&self, terms: Terms<'p>) -> Result<Terms<'p>> {
        let mut by_sponsor = BTreeMap::new();
        for (sponsor, energy) in self.jobs.reserved_sponsor_energy()? {
            let address = Address::from_base58(&sponsor).map_err(|e| {
                StoreError::damaged("relayer job store", format!("sponsor `{sponsor}`: {e}"))
            })?;
            by_sponsor.insert(address, energy);
        }
        Ok(terms.with_sponsor_reserved(by_sponsor))
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
    pub fn remember_fees(&self, fees: impl IntoIterator<Item = (u64, U256, U256)>) {
        let now = Instant::now();
        let mut shown = self.shown.lock().unwrap_or_else(|e| e.into_inner());
        for (denomination, fee, per_trx) in fees {
            let held = shown.entry(denomination).or_default();
            held.retain(|s| {
                now.duration_since(s.at) <= QUOTE_HOLD && (s.fee, s.per_trx) != (fee, per_trx)
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
            .filter(|s| s.at.elapsed() <= QUOTE_HOLD)
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
    pub fn job_for_note(&self, nullifier_hash: &B256) -> Result<Job> {
        let hex = word_hex(nullifier_hash);
        self.jobs
            .by_nullifier(&hex)?
            .ok_or_else(|| Error::NotFound(format!("this relayer has no job for {hex}")))
    }

    /// Checks, signs, records and broadcasts one withdrawal; answers with its txid once the
    /// node has taken it, or after `wait` with the broadcast still under way (it carries on
    /// without us: the job is recorded and the watcher finishes it).
    pub async fn relay(
        self: &Arc<Self>,
        chain: &Arc<Chain>,
        pricing: &Pricing,
        request: &RelayRequest,
        wait: Duration,
    ) -> Result<Relayed> {
        // Without its node the relayer cannot work at all: that is the relayer being
        // unavailable (503), whatever the node's failure, and nothing was sent.
        self.relay_checked(chain, pricing, request, wait)
            .await
            .map_err(|e| match e.kind() {
                // The client is told what failed, not where: the node's URL stays in the log.
                Kind::Unavailable => {
                    tracing::warn!(error = %e, "the relayer's node is unavailable");
                    Error::Disabled(format!(
                        "the relayer cannot reach its node, so nothing was sent; try later: {}",
                        e.public_message()
                    ))
                }
                _ => e,
            })
    }

    async fn relay_checked(
        self: &Arc<Self>,
        chain: &Arc<Chain>,
        pricing: &Pricing,
        request: &RelayRequest,
        wait: Duration,
    ) -> Result<Relayed> {
        let denomination = request.denomination;
        let pool = chain.pool_address(denomination)?;
        let _claim = self.claim((denomination, request.nullifier_hash))?;
        let nullifier_hex = word_hex(&request.nullifier_hash);
        if let Some(job) = self.jobs.live(&pool.to_base58(), &nullifier_hex)? {
            return Err(Error::Conflict(format!(
                "nullifier hash {nullifier_hex} was already relayed by us: transaction {} \
                 ({})",
                job.txid,
                job.state.as_str()
            )));
        }
        let refund = request.refund.unwrap_or(U256::ZERO);
        let refund_sun = i64::try_from(refund)
            .ok()
            .filter(|r| *r <= self.config.max_refund)
            .ok_or_else(|| {
                Error::Refused(format!(
                    "refund {refund} sun is more than this relayer forwards ({})",
                    format_trx(self.config.max_refund)
                ))
            })?;

        // One approval at a time, from pricing to the recorded job (with its reservation).
        let turn = self.approving.lock().await;
        let Standing {
            terms, reserved, ..
        } = self.standing(chain, pricing).await?;
        // The fee asked is the quote's, from the sponsorship as quoted; what the relay will
        // really cost is checked below against the sponsor's stake as it is now.
        let quoted_sponsor = chain
            .quoted_sponsor(denomination)
            .await
            .for_caller(self.address());
        let payout = U256::from(denomination) * U256::from(USDT_UNIT);
        let required = terms.required_fee(denomination, refund_sun, &quoted_sponsor);
        if required > payout {
            return Err(Error::Disabled(format!(
                "relaying from the {denomination} USDT pool costs {} USDT at today's prices, \
                 more than it pays out",
                six_decimals_text(required)
            )));
        }
        let fee = request.fee.unwrap_or(required);
        // A quote published within QUOTE_HOLD is honoured as long as it pays for the relay
        // (`check_cost` below); otherwise the price of this moment.
        let asked = self
            .honoured(denomination, refund_sun)
            .map_or(required, |held| held.min(required));
        if fee < asked {
            return Err(Error::Refused(format!(
                "fee {fee} is below this relayer's fee of {required} for the {denomination} USDT \
                 pool with a refund of {refund} sun; prove again with fee {required}"
            )));
        }
        let withdrawal = WithdrawRequest {
            from: self.address(),
            denomination,
            proof: request.proof,
            root: request.root,
            nullifier_hash: request.nullifier_hash,
            recipient: request.recipient,
            relayer: Some(self.address()),
            fee,
            refund,
        };
        // Spent (409), unknown root (422), and the proof for our address and this fee (422).
        chain
            .check_withdrawal(&withdrawal, crate::service::builders::SpentCheck::AskNode)
            .await?;
        if refund_sun > 0 && !self.config.allow_contract_refund {
            self.refuse_contract_recipient(chain, request.recipient)
                .await?;
        }
        let mut call = chain
            .prepare_call(
                self.address(),
                pool,
                refund_sun,
                withdraw_calldata(&withdrawal),
            )
            .await?;
        call.check_succeeds("the withdrawal")?;
        let (energy, sponsor) = (call.energy, call.sponsor);
        // The balance as the node has it, less what unfinished jobs may still take from it.
        let owner_trx = call.owner_trx.saturating_sub(reserved.trx_sun.max(0));
        call.fee_limit = terms.fee_limit(&sponsor);
        let fee_limit = call.fee_limit;
        let mut tx = chain.transaction(call, RELAY_EXPIRATION_MS).await?;
        tx.sign(&self.key)?;
        // java-tron charges a transaction's protobuf plus 64 bytes of bandwidth.
        let bytes = tx.to_protobuf().len() as i64 + 64;
        check_cost(&terms, energy, bytes, fee, refund_sun, &sponsor, required)?;
        let bandwidth_burn = terms.bandwidth_burn(bytes) as i64;
        let worst_case = fee_limit
            .saturating_add(refund_sun)
            .saturating_add(bandwidth_burn);
        if owner_trx < self.config.min_balance.max(worst_case) {
            tracing::warn!(
                balance_sun = owner_trx,
                reserved_sun = reserved.trx_sun,
                needed_sun = worst_case,
                "the relayer is short of TRX"
            );
            return Err(Error::Disabled(
                "the relayer cannot pay for energy right now; try later or another relayer".into(),
            ));
        }
        let txid = tx.txid();
        let now = tron::transaction::now_ms();
        let job = Job {
            txid: txid.to_hex(),
            pool: pool.to_base58(),
            denomination,
            nullifier_hash: nullifier_hex,
            recipient: request.recipient.to_base58(),
            fee: fee.to_string(),
            refund: refund_sun.to_string(),
            state: JobState::Signed,
            expiration: tx.expiration(),
            created_at: now,
            updated_at: now,
            error: None,
            block: None,
            energy_used: None,
            fee_sun: None,
            attempts: 0,
        };
        let reference = format!("{} {}", job.pool, job.nullifier_hash);
        let relied_on = terms.relied_on(&sponsor);
        let source = terms.own.bandwidth_source(bytes);
        let reservation = Reservation {
            // The most of our stake it may use: our share of the ceiling, at most the stake.
            energy: terms
                .our_energy(terms.policy.max_energy, &sponsor)
                .min(terms.own.energy),
            staked_bandwidth: if source == BandwidthSource::Staked {
                bytes
            } else {
                0
            },
            free_bandwidth: if source == BandwidthSource::Free {
                bytes
            } else {
                0
            },
            trx_sun: worst_case,
            sponsor: relied_on
                .sponsor
                .filter(|_| relied_on.percent > 0)
                .map(|s| s.to_base58()),
            sponsor_energy: relied_on.of(terms.policy.max_energy),
        };
        self.jobs.insert(
            &job,
            &reservation,
            &Journal::entry(&tx, Purpose::Relay, reference),
        )?;
        drop(turn);
        tracing::info!(txid = %job.txid, denomination, "relaying a withdrawal");
        // Detached: a request that gives up does not take the broadcast with it.
        let broadcast = tokio::spawn({
            let (relayer, chain) = (Arc::clone(self), Arc::clone(chain));
            async move {
                let state = relayer.first_broadcast(&chain, &job.txid).await;
                chain.pool_changed(denomination);
                state
            }
        });
        match tokio::time::timeout(wait, broadcast).await {
            Ok(Ok(state)) => Ok(Relayed {
                txid,
                state: state?,
            }),
            Ok(Err(stopped)) => Err(Error::Failed(format!(
                "relaying {txid}: the broadcast stopped: {stopped}"
            ))),
            Err(_) => Ok(Relayed {
                txid,
                state: JobState::Signed,
            }),
        }
    }

    /// Refuses a refund to an address that holds code, for an operator who wants none (see
    /// [`RelayerConfig::allow_contract_refund`]).
    async fn refuse_contract_recipient(&self, chain: &Chain, recipient: Address) -> Result<()> {
        let contract = chain.node.get_contract(&recipient).await?;
        if contract.is_some_and(|c| !c.bytecode.is_empty()) {
            return Err(Error::Refused(format!(
                "{recipient} is a contract: this relayer sends no refund to a contract (ask \
                 without a refund, or withdraw to an ordinary address)"
            )));
        }
        Ok(())
    }

    /// The first broadcast of a recorded job, and the state it leaves the job in.
    async fn first_broadcast(&self, chain: &Chain, txid: &str) -> Result<JobState> {
        let entry = self.journal.get(txid)?;
        match self.journal.broadcast(&chain.node, &entry).await? {
            Broadcast::Accepted => Ok(JobState::Broadcast),
            // Busy: the watcher sends it again after a backoff. No answer: maybe sent, maybe
            // not; the watcher sends it again until it lands or expires. The client has the
            // txid either way.
            Broadcast::Retry(_) | Broadcast::Unknown(_) => Ok(JobState::Signed),
            Broadcast::Refused(reason) => Err(Error::Refused(reason)),
        }
    }

    /// Follows every unfinished job until the server stops; after a restart this picks up
    /// where the last process left off.
    pub async fn watch(self: Arc<Self>, chain: Arc<Chain>) {
        loop {
            *self.watched.lock().unwrap_or_else(|e| e.into_inner()) = Some(Instant::now());
            self.check_jobs(&chain).await;
            tokio::time::sleep(self.config.poll).await;
        }
    }

    /// Collects the pools' fees once they reach the threshold, every `collect_every`, until
    /// the server stops; a failure is logged and tried again next time. Apart from
    /// [`Relayer::watch`], so a collection waiting for its block never holds up a job.
    pub async fn collect_when_due(self: Arc<Self>, chain: Arc<Chain>) {
        let Some(threshold) = self.config.collect_above else {
            return;
        };
        loop {
            tokio::time::sleep(self.config.collect_every).await;
            let due = crate::service::fees::due(&chain, self.address(), threshold, None);
            let collected = match due.await {
                Ok(due) => crate::service::fees::collect(&chain, &self.key, due).await,
                Err(e) => Err(e),
            };
            match collected {
                Ok(collected) if !collected.is_empty() => {
                    tracing::info!(pools = collected.len(), "relayer fees collected");
                }
                Ok(_) => {}
                Err(e) => tracing::warn!(error = %e, "collecting the relayer's fees"),
            }
        }
    }

    /// One pass over the unfinished jobs (the journal's relays). A job that cannot be checked
    /// now (the node is down, its row is damaged) is logged and skipped: it never holds up
    /// the others.
    pub async fn check_jobs(&self, chain: &Chain) {
        let looked = match self.journal.resume(&chain.node, Purpose::Relay).await {
            Ok(looked) => looked,
            Err(e) => {
                tracing::warn!(error = %e, "reading the relayer's jobs");
                return;
            }
        };
        for (entry, checked) in looked {
            match checked {
                Ok(checked) if checked.moved => {
                    tracing::info!(
                        txid = %entry.txid,
                        state = checked.state.as_str(),
                        "relayer job moved"
                    );
                    if let Look::Receipt(info) = &checked.look {
                        tracing::info!(
                            txid = %entry.txid,
                            energy = info.receipt.energy_usage_total,
                            burned_sun = info.fee,
                            "relayer job executed"
                        );
                        match self.jobs.get(&entry.txid) {
                            Ok(Some(job)) => chain.pool_changed(job.denomination),
                            Ok(None) => {}
                            Err(e) => {
                                tracing::warn!(txid = %entry.txid, error = %e, "reading a relayer job")
                            }
                        }
                    }
                }
                Ok(_) => {}
                Err(e) => tracing::warn!(txid = %entry.txid, error = %e, "checking a relayer job"),
            }
        }
    }
}

/// The checks on a simulated relay: within the ceiling, and paid for by its fee with what the
/// pool's `sponsor` pays now.
fn check_cost(
    terms: &Terms<'_>,
    energy: i64,
    bytes: i64,
    fee: U256,
    refund_sun: i64,
    sponsor: &SponsorShare,
    required: U256,
) -> Result<()> {
    let ceiling = terms.policy.max_energy;
    if energy > ceiling {
        return Err(Error::Refused(format!(
            "the withdrawal would use {energy} energy, more than the {ceiling} this relayer \
             pays for one relay (does the recipient run code?)"
        )));
    }
    let break_even = terms.break_even(energy, bytes, refund_sun, sponsor);
    if fee < break_even {
        return Err(Error::Refused(format!(
            "fee {fee} does not cover this withdrawal's {energy} energy, {bytes} bytes and \
             refund with what this relayer has left after its unfinished relays; it needs fee \
             {break_even} (its quote is now {required})"
        )));
    }
    Ok(())
}
