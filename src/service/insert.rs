//! Inserting a queued pool's waiting deposits into its tree (`tronpool pool insert`,
//! `tronpool deposit --insert`): one batch proof (`zk::batch`) for the deposits from the
//! pool's `nextIndex` to the end of its block of 32, sent through the deployment's
//! `BatchInserter`, which makes its sender pay the batch's energy and credits them the
//! batch's insertion fees (`docs/batches.md`).
//!
//! Everything that can fail is found before anything is signed: the batch is proved here and
//! the proof verified, then the call is simulated on the node, so a batch another sender got
//! in first (the pool's `nextIndex` moved) is refused for nothing.

use alloy_primitives::B256;
use alloy_sol_types::SolCall;
use contracts::{BatchInserter, QueuedPool};
use serde::Serialize;
use tron::Address;
use zk::batch::{BATCH_LEVELS, BATCH_SIZE, BatchCircuit};
use zk::proof::EncodedProof;

use crate::error::{Error, Result};
use crate::service::builders::{self, Built};
use crate::service::chain::{Chain, KeysHandle};
use crate::service::format::word_hex;
use crate::service::sync::{self, SyncedTree};
use crate::store::trees::TreeCache;

/// A batch ready to sign: the deposits it inserts and its transaction.
pub struct PreparedBatch {
    pub denomination: u64,
    /// The first deposit it inserts (the pool's `nextIndex`).
    pub start: u32,
    pub count: u32,
    /// The pool's root once it lands.
    pub new_root: B256,
    /// The insertion fees it earns its sender, in USDT base units.
    pub fees: alloy_primitives::U256,
    /// The `BatchInserter` call, simulated: its energy and its sender's share.
    pub built: Built,
}

/// What a batch did, as `pool insert` reports it.
#[derive(Debug, Clone, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct Inserted {
    pub denomination: u64,
    pub start: u32,
    pub count: u32,
    /// The pool's deposits still queued after it.
    pub queued: u32,
    pub root: String,
    /// The insertion fees credited to the sender (`tronpool relay collect` collects them).
    pub fees_raw: String,
    pub txid: Option<tron::TxId>,
}

impl PreparedBatch {
    pub fn inserted(&self, synced: &SyncedTree, txid: Option<tron::TxId>) -> Inserted {
        Inserted {
            denomination: self.denomination,
            start: self.start,
            count: self.count,
            queued: synced.deposits - (self.start + self.count),
            root: word_hex(&self.new_root),
            fees_raw: self.fees.to_string(),
            txid,
        }
    }
}

/// The deposits a pool's next batch inserts: from its `nextIndex` to the end of their block
/// of 32, or the last deposit if that comes first.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Pending {
    pub start: u32,
    pub count: u32,
}

impl Pending {
    /// Whether the batch fills its block: 32 insertion fees for one verification, the batch
    /// that pays best.
    pub fn fills_its_block(&self) -> bool {
        self.start % BATCH_SIZE as u32 + self.count == BATCH_SIZE as u32
    }
}

/// The next batch of the pool of `denomination`, sent by `submitter`: `None` when nothing
/// waits. Syncs the pool first ([`pending`]), then proves the batch ([`prove`]).
pub async fn prepare(
    stores: (&Chain, &TreeCache),
    denomination: u64,
    submitter: Address,
) -> Result<(SyncedTree, Option<PreparedBatch>)> {
    let (synced, next) = pending(stores, denomination).await?;
    let Some(next) = next else {
        return Ok((synced, None));
    };
    let batch = prove(stores, &synced, next, submitter).await?;
    Ok((synced, Some(batch)))
}

/// What the pool's next batch would insert, by a sync of the pool: `None` when nothing waits.
/// Cheap next to [`prove`], so a caller can decide whether the batch is worth sending first.
pub async fn pending(
    (chain, trees): (&Chain, &TreeCache),
    denomination: u64,
) -> Result<(SyncedTree, Option<Pending>)> {
    if !chain.queued() {
        return Err(nothing_to_insert(chain));
    }
    let synced = sync::sync_tree(chain, denomination, trees, &|_| {}).await?;
    let start = synced.leaves;
    let block_end = (start / BATCH_SIZE as u32 + 1) * BATCH_SIZE as u32;
    let end = synced.deposits.min(block_end);
    let next = (end > start).then_some(Pending {
        start,
        count: end - start,
    });
    Ok((synced, next))
}

/// Proves the batch `next` of the synced pool for `submitter` (verified before it is
/// returned) and simulates its call through the inserter.
pub async fn prove(
    (chain, trees): (&Chain, &TreeCache),
    synced: &SyncedTree,
    next: Pending,
    submitter: Address,
) -> Result<PreparedBatch> {
    let Pending { start, count } = next;
    let denomination = synced.denomination;
    let (keys, inserter) = tokio::task::block_in_place(|| batch_keys(chain))?;
    let key = synced.pool.to_base58();
    let commitments = trees
        .leaves_from(&key, start, count)?
        .iter()
        .map(|l| zk::field::from_be_bytes(&l.commitment, "a cached commitment"))
        .collect::<std::result::Result<Vec<_>, _>>()
        .map_err(|e| Error::Failed(e.to_string()))?;
    if commitments.len() != count as usize {
        return Err(Error::Failed(format!(
            "the cache of the {denomination} USDT pool is missing queued deposits from {start}"
        )));
    }
    let chain_start = chain_before(chain, synced, trees, start).await?;
    let tree = trees.load_tail(&key, start)?;
    let submitter_fr = zk::field::from_address(&submitter.evm_bytes());
    let proved = tokio::task::spawn_blocking(move || {
        let circuit =
            BatchCircuit::new(BATCH_LEVELS, &tree, chain_start, &commitments, submitter_fr)?;
        let proof = zk::batch_proof::prove(&keys.proving, &circuit, &mut rand_core::OsRng)?;
        Ok::<_, zk::batch::BatchError>((circuit.public.new_root, proof))
    })
    .await
    .map_err(|e| Error::task("proving the batch", e))?
    .map_err(|e| Error::Failed(format!("the batch of the {denomination} USDT pool: {e}")))?;
    let (new_root, proof) = proved;
    let new_root = B256::from(zk::field::to_be_bytes(&new_root));
    let data = BatchInserter::insertBatchCall {
        pool: synced.pool.into(),
        proof: EncodedProof::from_proof(&proof).to_bytes().to_vec().into(),
        newRoot: new_root,
        start,
        count,
    }
    .abi_encode();
    let built = builders::build_call(chain, submitter, inserter, 0, data, "the batch").await?;
    let fees =
        chain.denomination(denomination)?.insertion_fee() * alloy_primitives::U256::from(count);
    Ok(PreparedBatch {
        denomination,
        start,
        count,
        new_root,
        fees,
        built,
    })
}

/// Whether the deposit of `commitment` waits in the queue of the pool of `denomination`
/// (deposited, not yet inserted), by a sync of the pool.
pub async fn is_queued(
    (chain, trees): (&Chain, &TreeCache),
    denomination: u64,
    commitment: B256,
) -> Result<bool> {
    if !chain.queued() {
        return Ok(false);
    }
    let synced = sync::sync_tree(chain, denomination, trees, &|_| {}).await?;
    Ok(synced.queue_position(trees, commitment)?.is_some())
}

/// The refusal for a deployment whose pools are not queued.
fn nothing_to_insert(chain: &Chain) -> Error {
    Error::usage(format!(
        "the pools on {} insert each deposit as it is made: there is nothing to insert",
        chain.network
    ))
}

/// The batch circuit's keys and the inserter to send batches through: the development keys
/// on a tronpool devnet, an imported ceremony's keys elsewhere ([`Chain::batch_keys`]).
fn batch_keys(chain: &Chain) -> Result<(KeysHandle, Address)> {
    let Some(batches) = &chain.deployment.batches else {
        return Err(nothing_to_insert(chain));
    };
    let keys = chain
        .batch_keys()?
        .ok_or_else(|| nothing_to_insert(chain))?;
    Ok((keys, batches.inserter))
}

/// The pool's queue chain before position `start` (zero before the first deposit): read
/// from the pool while it keeps it (its ring, or a block's checkpoint), else hashed from the
/// cached commitments. The circuit takes it as a private input; the contract checks only the
/// chain's end, which pins it.
async fn chain_before(
    chain: &Chain,
    synced: &SyncedTree,
    trees: &TreeCache,
    start: u32,
) -> Result<zk::Fr> {
    let Some(position) = start.checked_sub(1) else {
        return Ok(zk::Fr::from(0u64));
    };
    if let Ok(kept) = chain
        .view(synced.pool, QueuedPool::queueHashCall { position })
        .await
    {
        return zk::field::from_be_bytes(&kept.0, "a queue hash")
            .map_err(|e| Error::Failed(e.to_string()));
    }
    let leaves = trees.leaves_from(&synced.pool.to_base58(), 0, start)?;
    tokio::task::spawn_blocking(move || {
        let commitments = leaves
            .iter()
            .map(|l| zk::field::from_be_bytes(&l.commitment, "a cached commitment"))
            .collect::<std::result::Result<Vec<_>, _>>()
            .map_err(|e| Error::Failed(e.to_string()))?;
        Ok(zk::batch::chain(zk::Fr::from(0u64), &commitments))
    })
    .await
    .map_err(|e| Error::task("hashing the queue", e))?
}
