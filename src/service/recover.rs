//! Notes back from the mnemonic alone (`tronpool notes recover`), and what became of a note
//! (`tronpool notes report`).
//!
//! Recovery syncs each pool's tree (every `Deposit` event, not a question about one
//! commitment), derives the mnemonic's notes for the pool in index order and looks for their
//! commitments among the synced leaves, locally. It stops after `gap_limit` indices in a row
//! that were never deposited. Each note found is stored with its leaf and deposit txid; then
//! its nullifier hash is looked up among the pool's withdrawals the same sync cached
//! ([`crate::service::sync::SyncedTree::is_spent`]), which also gives the withdrawal's txid and recipient for
//! `notes report`. The node is asked about neither the commitment nor the nullifier.

use alloy_primitives::B256;
use alloy_sol_types::SolEvent;
use contracts::TronPool;
use serde::Serialize;
use tron::{Address, TxId};
use zk::note::NoteMeta;

use crate::error::{Error, Result};
use crate::service::chain::Chain;
use crate::service::format::{six_decimals_text, word_hex};
use crate::service::notes;
use crate::service::notes::{NoteHashes, nullifier_hash_of};
use crate::service::seed::Seed;
use crate::service::sync;
use crate::service::sync::SyncProgress;
use crate::store::notes::{NoteRecord, NoteState, NoteStore};
use crate::store::trees::TreeCache;

/// Indices in a row with no deposit after which recovery stops looking in a pool.
pub(crate) const DEFAULT_GAP_LIMIT: u32 = 20;

/// One note recovery found.
#[derive(Debug, Clone, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct FoundNote {
    pub id: i64,
    pub index: u32,
    pub leaf_index: u32,
    pub state: NoteState,
    /// False when the note was stored here already.
    pub restored: bool,
}

/// What recovery did in one pool.
#[derive(Debug, Clone, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct PoolRecovery {
    pub denomination: u64,
    pub pool: Address,
    /// Indices derived and looked for.
    pub scanned: u32,
    pub found: Vec<FoundNote>,
    /// The index the next deposit into this pool takes.
    pub next_index: u32,
}

/// Recovers the notes `seed` made in every pool of this network into `store`.
pub async fn recover(
    chain: &Chain,
    store: &NoteStore,
    trees: &TreeCache,
    seed: &Seed,
    gap_limit: u32,
    progress: &(dyn Fn(u64, SyncProgress) + Sync),
) -> Result<Vec<PoolRecovery>> {
    if gap_limit == 0 {
        return Err(Error::usage("the gap limit must be at least 1"));
    }
    let seed_id = seed.id();
    let mut pools = Vec::new();
    for denomination in chain.denominations() {
        let pool = chain.pool_address(denomination)?;
        let key = pool.to_base58();
        let synced =
            sync::sync_tree(chain, denomination, trees, &|p| progress(denomination, p)).await?;
        let meta = NoteMeta::usdt(denomination, &chain.network)
            .map_err(|e| Error::caused("cannot make a note", e))?;
        let mut found = Vec::new();
        let (mut index, mut gap) = (0u32, 0u32);
        while gap < gap_limit {
            let note = seed.note(meta.clone(), &key, index);
            let hashes = NoteHashes::of(&note);
            let commitment = hashes.commitment;
            let Some(leaf) = trees.index_of(&key, &commitment.0)? else {
                gap += 1;
                index += 1;
                continue;
            };
            gap = 0;
            let (record, restored) = match store.by_commitment(&word_hex(&commitment))? {
                Some(record) => (record, false),
                None => {
                    let id = notes::store_note_from(
                        store,
                        pool,
                        (&note, &hashes),
                        "recover",
                        Some((&seed_id, index)),
                    )?;
                    store.mark_deposited(id, leaf.index, Some(&leaf.txid))?;
                    (stored(store, id)?, true)
                }
            };
            found.push((
                record,
                index,
                leaf.index,
                restored,
                nullifier_hash_of(&note),
            ));
            index += 1;
        }
        let next_index = found.last().map_or(0, |f| f.1 + 1);
        store.advance_index(&seed_id, &key, next_index)?;
        // Spentness last, after every commitment was matched locally.
        let mut notes = Vec::new();
        for (record, index, leaf_index, restored, nullifier_hash) in found {
            let mut state = record.state;
            let spent = synced.is_spent(trees, nullifier_hash)?;
            if let (false, Some(withdrawal)) = (state == NoteState::Withdrawn, &spent) {
                store.mark_withdrawn(
                    record.id,
                    Some(&withdrawal.txid),
                    Some(&withdrawal.recipient),
                )?;
                state = NoteState::Withdrawn;
            } else if state != NoteState::Withdrawn && state != NoteState::Deposited {
                store.mark_deposited(record.id, leaf_index, None)?;
                state = NoteState::Deposited;
            }
            notes.push(FoundNote {
                id: record.id,
                index,
                leaf_index,
                state,
                restored,
            });
        }
        pools.push(PoolRecovery {
            denomination,
            pool,
            scanned: index,
            found: notes,
            next_index: store.next_index(&seed_id, &key)?,
        });
    }
    Ok(pools)
}

/// The deposit of a stored note and the withdrawal it funded, as far as they are known:
/// read from the chain by their txids. Never includes the note's secret.
pub async fn report(chain: &Chain, record: &NoteRecord) -> Result<Report> {
    let denomination = chain.denomination(record.denomination)?;
    let deposit = match parse_txid(record.deposit_txid.as_deref()) {
        Some(txid) => {
            let (info, tx) = tokio::try_join!(
                chain.node.get_transaction_info(&txid),
                chain.node.get_transaction_by_id(&txid),
            )?;
            Some(DepositReport {
                txid: txid.to_hex(),
                from: tx.and_then(|t| t.transaction.owner().ok()),
                time: info.as_ref().map(|i| i.block_timestamp),
                block: info.as_ref().map(|i| i.block_number),
                amount: six_decimals_text(denomination.base_units()),
                amount_raw: denomination.base_units().to_string(),
                leaf_index: record.leaf_index,
            })
        }
        None => None,
    };
    let withdrawal = match parse_txid(record.withdraw_txid.as_deref()) {
        Some(txid) => {
            let info = chain.node.get_transaction_info(&txid).await?;
            let pool = chain.pool_address(record.denomination)?;
            let event = info.as_ref().and_then(|i| withdrawal_event(i, pool));
            let fee = event.as_ref().map(|e| e.fee);
            let received = fee.map(|f| denomination.base_units().saturating_sub(f));
            Some(WithdrawalReport {
                txid: txid.to_hex(),
                time: info.as_ref().map(|i| i.block_timestamp),
                block: info.as_ref().map(|i| i.block_number),
                recipient: event
                    .as_ref()
                    .map(|e| Address::from_evm(e.to.into_array()).to_base58())
                    .or_else(|| record.recipient.clone()),
                relayer: event
                    .as_ref()
                    .map(|e| Address::from_evm(e.relayer.into_array()))
                    .filter(|a| *a != Address::from_evm([0; 20]))
                    .map(|a| a.to_base58()),
                fee: fee.map(six_decimals_text),
                fee_raw: fee.map(|f| f.to_string()),
                received: received.map(six_decimals_text),
                received_raw: received.map(|r| r.to_string()),
            })
        }
        None => None,
    };
    // Which batch put a queued deposit into the tree, where the node serves events; the
    // report says nothing of it rather than fail without them.
    let inserted_by = match (record.leaf_index, &deposit) {
        (Some(index), Some(d)) if chain.queued() => {
            sync::batch_of(chain, record.denomination, index, d.time)
                .await
                .unwrap_or_else(|e| {
                    tracing::info!(error = %e, "the batch of a deposit is unknown");
                    None
                })
        }
        _ => None,
    };
    Ok(Report {
        id: record.id,
        network: chain.network.clone(),
        denomination: record.denomination,
        pool: record.pool.clone(),
        state: record.state,
        commitment: record.commitment.clone(),
        nullifier_hash: record.nullifier_hash.clone(),
        deposit,
        inserted_by,
        withdrawn: record.state == NoteState::Withdrawn,
        withdrawal,
    })
}

fn stored(store: &NoteStore, id: i64) -> Result<NoteRecord> {
    store
        .get(id)?
        .ok_or_else(|| Error::Failed("the note store lost a note just stored".into()))
}

fn parse_txid(text: Option<&str>) -> Option<TxId> {
    text.and_then(|t| t.parse::<TxId>().ok())
}

fn withdrawal_event(
    info: &tron::client::TransactionInfo,
    pool: Address,
) -> Option<TronPool::Withdrawal> {
    info.log.iter().find_map(|log| {
        if log.address != pool {
            return None;
        }
        let topics: Vec<B256> = log.topics.iter().map(|t| B256::from(*t)).collect();
        TronPool::Withdrawal::decode_raw_log(topics, &log.data).ok()
    })
}

/// A note's deposit and withdrawal, for an auditor: no secret, only what is on chain.
#[derive(Debug, Clone, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct Report {
    pub id: i64,
    pub network: String,
    pub denomination: u64,
    pub pool: String,
    pub state: NoteState,
    pub commitment: String,
    pub nullifier_hash: String,
    pub deposit: Option<DepositReport>,
    /// The batch that put a queued pool's deposit into its tree (from the events API).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub inserted_by: Option<sync::InsertedBy>,
    /// Whether the note is spent (its withdrawal may have been made elsewhere, unknown here).
    pub withdrawn: bool,
    pub withdrawal: Option<WithdrawalReport>,
}

#[derive(Debug, Clone, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct DepositReport {
    pub txid: String,
    /// The account that signed the deposit.
    pub from: Option<Address>,
    /// Block time (ms).
    pub time: Option<i64>,
    pub block: Option<i64>,
    pub amount: String,
    pub amount_raw: String,
    pub leaf_index: Option<u32>,
}

#[derive(Debug, Clone, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct WithdrawalReport {
    pub txid: String,
    pub time: Option<i64>,
    pub block: Option<i64>,
    pub recipient: Option<String>,
    /// The relayer that sent it, if one did.
    pub relayer: Option<String>,
    pub fee: Option<String>,
    pub fee_raw: Option<String>,
    /// What the recipient received (the denomination less the fee).
    pub received: Option<String>,
    pub received_raw: Option<String>,
}
