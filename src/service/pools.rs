//! The pools as the chain reports them: balance, root and deposit count (cached for about a
//! block), and whether a nullifier is spent or a withdrawal could go through.

use alloy_primitives::B256;
use contracts::{QueuedPool, TronPool};
use serde::Serialize;
use tron::Address;
use tron::abi::Trc20;

use crate::error::Result;
use crate::service::chain::Chain;
use crate::service::format::{six_decimals, word_hex};
use crate::service::pool_state::PoolState;
use crate::service::relayer_fees::Terms;
use crate::service::sponsor;
use crate::service::wire::NextBatch;

/// A pool as the API and `tronpool pools` show it.
#[derive(Debug, Clone, Serialize, utoipa::ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct Pool {
    /// In whole USDT.
    pub denomination: u64,
    /// In base units.
    #[schema(schema_with = crate::service::wire::schema::raw)]
    pub denomination_raw: String,
    #[schema(schema_with = crate::service::wire::schema::address)]
    pub address: Address,
    /// USDT the pool holds.
    pub pool_balance: f64,
    #[schema(schema_with = crate::service::wire::schema::raw)]
    pub pool_balance_raw: String,
    #[schema(schema_with = crate::service::wire::schema::word)]
    pub current_root: String,
    /// A relay's fee from this pool at today's prices (see `GET /api/relayer/status`);
    /// `null` without a TRX/USDT price.
    pub relayer_fee: Option<f64>,
    #[schema(schema_with = crate::service::wire::schema::raw_or_null)]
    pub relayer_fee_raw: Option<String>,
    /// Deposits in the pool's tree: the ones a withdrawal can prove.
    pub deposit_count: u32,
    /// Deposits waiting for a batch to insert them (`docs/batches.md`); always 0 in a pool
    /// that inserts each deposit at once.
    pub queued: u32,
    /// What each deposit pays besides the denomination, in USDT, for the batch that
    /// inserts it (its submitter collects it).
    pub insertion_fee: f64,
    #[schema(schema_with = crate::service::wire::schema::raw)]
    pub insertion_fee_raw: String,
    /// When this server's batcher inserts the waiting deposits, as of its last look at the
    /// pool (every `--batch-poll`); `null` when none wait, or no batcher runs here.
    pub next_batch: Option<NextBatch>,
}

/// A pool as read for its listing ([`pool_read`]).
#[derive(Debug, Clone)]
pub(crate) struct PoolRead {
    pub denomination: u64,
    pub state: std::sync::Arc<PoolState>,
    /// The relay fee in USDT base units; `None` without a price.
    pub fee: Option<alloy_primitives::U256>,
    /// The next batch, from a server's batcher ([`PoolRead::with_next_batch`]).
    pub next_batch: Option<NextBatch>,
}

impl PoolRead {
    /// Whether `other` makes the same listing: the same state read and the same fee.
    pub(crate) fn same(&self, other: &PoolRead) -> bool {
        self.denomination == other.denomination
            && std::sync::Arc::ptr_eq(&self.state, &other.state)
            && self.fee == other.fee
            && self.next_batch == other.next_batch
    }

    /// With the batcher's view of the next batch, kept only while it still describes the
    /// pool as read: deposits still wait, and none of the batch's is in the tree yet.
    pub(crate) fn with_next_batch(mut self, next: Option<NextBatch>) -> Self {
        self.next_batch =
            next.filter(|n| n.still_ahead(self.state.deposit_count, self.state.queued()));
        self
    }
}

/// `GET /api/pools/:denom/root`.
#[derive(Debug, Clone, Serialize, utoipa::ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct PoolRoot {
    pub denomination: u64,
    #[schema(schema_with = crate::service::wire::schema::word)]
    pub root: String,
    pub deposit_count: u32,
}

/// `POST /api/pools/:denom/check-spent`.
#[derive(Debug, Clone, Serialize, utoipa::ToSchema)]
#[serde(rename_all = "camelCase")]
pub(crate) struct SpentStatus {
    #[schema(schema_with = crate::service::wire::schema::word)]
    pub nullifier_hash: String,
    pub spent: bool,
}

/// `POST /api/pools/:denom/can-withdraw`.
#[derive(Debug, Clone, Serialize, utoipa::ToSchema)]
#[serde(rename_all = "camelCase")]
pub(crate) struct Withdrawable {
    pub can_withdraw: bool,
    pub spent: bool,
    pub known_root: bool,
    /// Why not, when it cannot.
    #[serde(skip_serializing_if = "Option::is_none")]
    #[schema(nullable = false)]
    pub reason: Option<String>,
}

/// Balance, root and deposit count, read together from the chain at most once a block.
pub async fn pool_state(chain: &Chain, denomination: u64) -> Result<std::sync::Arc<PoolState>> {
    let pool = chain.pool_address(denomination)?;
    let usdt = chain.deployment.usdt;
    chain
        .pool_cache(denomination)?
        .get(|| async move {
            let (balance, root, count, deposits) = tokio::try_join!(
                chain.view(usdt, Trc20::balanceOfCall { owner: pool.into() }),
                chain.view(pool, TronPool::getLastRootCall {}),
                chain.view(pool, TronPool::nextIndexCall {}),
                deposits(chain, pool),
            )?;
            Ok(PoolState {
                balance,
                root,
                deposit_count: count,
                deposits: deposits.unwrap_or(count),
            })
        })
        .await
}

/// Every deposit a queued pool has taken, inserted or not (`queued()`); `None` for a pool
/// that inserts each deposit at once.
pub(crate) async fn deposits(chain: &Chain, pool: Address) -> Result<Option<u32>> {
    if !chain.queued() {
        return Ok(None);
    }
    Ok(Some(chain.view(pool, QueuedPool::queuedCall {}).await?))
}

/// Forgets a pool's cached state, and has a server's next page of its leaves or withdrawals
/// sync first (after we sent it a transaction, or found one of ours in a block).
pub(crate) fn pool_changed(chain: &Chain, denomination: u64) {
    if let Ok(gate) = chain.sync_gate(denomination) {
        gate.changed();
    }
    if let Ok(cache) = chain.pool_cache(denomination) {
        cache.invalidate();
    }
    if let Ok(cache) = chain.sponsor_cache(denomination) {
        cache.invalidate();
    }
}

/// One pool, with the relayer fee `fees` quotes for it (none without a price).
pub async fn pool(chain: &Chain, denomination: u64, fees: Option<&Terms<'_>>) -> Result<Pool> {
    let read = pool_read(chain, denomination, fees).await?;
    pool_view(chain, &read)
}

/// What a pool's listing is made of: its state as last read (the same `Arc` until the
/// cache reads it again) and the fee `fees` quotes for it. Two equal reads make the same
/// [`Pool`], which lets a server keep the listing's bytes.
pub(crate) async fn pool_read(
    chain: &Chain,
    denomination: u64,
    fees: Option<&Terms<'_>>,
) -> Result<PoolRead> {
    let state = pool_state(chain, denomination).await?;
    let fee = match fees {
        Some(terms) => Some(terms.relay_fee(
            denomination,
            &sponsor::quoted_sponsor(chain, denomination).await,
        )),
        None => None,
    };
    Ok(PoolRead {
        denomination,
        state,
        fee,
        next_batch: None,
    })
}

/// The listing a [`PoolRead`] makes.
pub(crate) fn pool_view(chain: &Chain, read: &PoolRead) -> Result<Pool> {
    let (denomination, state, fee) = (read.denomination, &read.state, read.fee);
    let denom = chain.denomination(denomination)?;
    Ok(Pool {
        denomination,
        denomination_raw: denom.base_units().to_string(),
        address: chain.pool_address(denomination)?,
        pool_balance: six_decimals(state.balance),
        pool_balance_raw: state.balance.to_string(),
        current_root: word_hex(&state.root),
        relayer_fee: fee.map(six_decimals),
        relayer_fee_raw: fee.map(|f| f.to_string()),
        deposit_count: state.deposit_count,
        queued: state.queued(),
        insertion_fee: six_decimals(denom.insertion_fee()),
        insertion_fee_raw: denom.insertion_fee().to_string(),
        next_batch: read.next_batch,
    })
}

/// Every pool, smallest first, read concurrently.
pub async fn pools(chain: &Chain, fees: Option<&Terms<'_>>) -> Result<Vec<Pool>> {
    let reads = chain
        .denominations()
        .into_iter()
        .map(|d| pool(chain, d, fees));
    futures_util::future::try_join_all(reads).await
}

pub async fn root(chain: &Chain, denomination: u64) -> Result<PoolRoot> {
    let state = pool_state(chain, denomination).await?;
    Ok(PoolRoot {
        denomination,
        root: word_hex(&state.root),
        deposit_count: state.deposit_count,
    })
}

/// Asked of the chain every time: a stale "unspent" could send a relayer after a note
/// that is gone. For servers only (the relayer, `check-spent`): a client decides its own
/// notes' spentness locally ([`crate::service::sync::SyncedTree::is_spent`]), so its node
/// never learns which nullifier it holds.
pub(crate) async fn is_spent(
    chain: &Chain,
    denomination: u64,
    nullifier_hash: B256,
) -> Result<bool> {
    let pool = chain.pool_address(denomination)?;
    chain
        .view(
            pool,
            TronPool::isSpentCall {
                nullifierHash: nullifier_hash,
            },
        )
        .await
}

pub(crate) async fn check_spent(
    chain: &Chain,
    denomination: u64,
    nullifier_hash: B256,
) -> Result<SpentStatus> {
    Ok(SpentStatus {
        nullifier_hash: word_hex(&nullifier_hash),
        spent: is_spent(chain, denomination, nullifier_hash).await?,
    })
}

pub(crate) async fn is_known_root(chain: &Chain, denomination: u64, root: B256) -> Result<bool> {
    let pool = chain.pool_address(denomination)?;
    chain.view(pool, TronPool::isKnownRootCall { root }).await
}

pub(crate) async fn can_withdraw(
    chain: &Chain,
    denomination: u64,
    nullifier_hash: B256,
    root: B256,
) -> Result<Withdrawable> {
    let (spent, known_root) = tokio::try_join!(
        is_spent(chain, denomination, nullifier_hash),
        is_known_root(chain, denomination, root),
    )?;
    Ok(Withdrawable::new(spent, known_root))
}

/// [`can_withdraw`] for a nullifier already known unspent from the synced
/// withdrawals: only the root is asked of the node.
pub(crate) async fn root_withdrawable(
    chain: &Chain,
    denomination: u64,
    root: B256,
) -> Result<Withdrawable> {
    let known_root = is_known_root(chain, denomination, root).await?;
    Ok(Withdrawable::new(false, known_root))
}

impl Withdrawable {
    fn new(spent: bool, known_root: bool) -> Self {
        let reason = match (spent, known_root) {
            (true, _) => Some("the note is already spent".to_owned()),
            (false, false) => Some(format!(
                "the root is not one of the pool's last {ROOT_HISTORY} roots (sync the tree \
                 and prove again)"
            )),
            (false, true) => None,
        };
        Withdrawable {
            can_withdraw: reason.is_none(),
            spent,
            known_root,
            reason,
        }
    }
}

/// How many recent roots a pool accepts (`ROOT_HISTORY_SIZE`).
pub(crate) const ROOT_HISTORY: u32 = 100;
