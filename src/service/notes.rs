//! Notes against the chain: reading one, finding its deposit, asking whether it is spent,
//! and proving a withdrawal with it.

use alloy_primitives::{B256, U256};
use alloy_sol_types::SolEvent;
use contracts::TronPool;
use serde::Serialize;
use tron::client::TransactionInfo;
use tron::{Address, TxId};
use zk::note::Note;
use zk::proof::{EncodedProof, Witness};

use crate::error::{Error, Result};
use crate::service::builders::{WithdrawRequest, public_inputs};
use crate::service::chain::Chain;
use crate::service::format::word_hex;
use crate::service::submit::Outcome;
use crate::service::sync;
use crate::service::sync::SyncedTree;
use crate::store::notes::{NewNote, NoteRecord, NoteState, NoteStore};
use crate::store::trees::TreeCache;

/// Reads a note's text; a malformed or mistyped note is exit 5, and the message never
/// repeats the secret.
pub(crate) fn parse_note(text: &str) -> Result<Note> {
    Note::parse(text.trim()).map_err(|e| Error::BadNote(format!("bad note: {e}")))
}

/// A note's two public hashes, computed once when the note is read and handed to every step
/// that needs them.
#[derive(Debug, Clone, Copy)]
pub struct NoteHashes {
    pub commitment: B256,
    pub nullifier_hash: B256,
}

impl NoteHashes {
    pub fn of(note: &Note) -> Self {
        NoteHashes {
            commitment: commitment_of(note),
            nullifier_hash: nullifier_hash_of(note),
        }
    }
}

pub(crate) fn commitment_of(note: &Note) -> B256 {
    B256::from(zk::field::to_be_bytes(&note.commitment()))
}

pub(crate) fn nullifier_hash_of(note: &Note) -> B256 {
    B256::from(zk::field::to_be_bytes(&note.nullifier_hash()))
}

/// The leaf index a deposit's receipt reports for `commitment` in `pool`.
pub(crate) fn deposit_leaf_index(
    info: &TransactionInfo,
    pool: Address,
    commitment: B256,
) -> Option<u32> {
    info.log.iter().find_map(|log| {
        if log.address != pool {
            return None;
        }
        let topics: Vec<B256> = log.topics.iter().map(|t| B256::from(*t)).collect();
        let event = TronPool::Deposit::decode_raw_log(topics, &log.data).ok()?;
        (event.commitment == commitment).then_some(event.leafIndex)
    })
}

/// What `notes check` found out about a note.
#[derive(Debug, Clone, Serialize)]
#[serde(rename_all = "camelCase")]
pub(crate) struct NoteCheck {
    pub id: i64,
    pub denomination: u64,
    pub state: NoteState,
    /// The state before this check, when it changed.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub was: Option<NoteState>,
    pub deposited: bool,
    pub spent: bool,
    pub withdrawable: bool,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub leaf_index: Option<u32>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub detail: Option<String>,
}

/// Settles a stored note against the chain: a deposit that landed unseen becomes
/// `deposited` (with its leaf), one that expired unincluded `failed`, a spent note
/// `withdrawn`. Whether the commitment is in the pool and whether the nullifier is spent
/// are read from the pool's synced leaves and withdrawals, never asked of the node, so the
/// node never sees the two together; the store only remembers the answers.
pub(crate) async fn check_note(
    chain: &Chain,
    store: &NoteStore,
    trees: &TreeCache,
    record: &NoteRecord,
) -> Result<NoteCheck> {
    let note = parse_note(&store.text(record.id)?)?;
    let denomination = record.denomination;
    let commitment = commitment_of(&note);
    let nullifier_hash = nullifier_hash_of(&note);
    let synced = sync::sync_tree(chain, denomination, trees, &|_| {}).await?;
    // A deposit waiting in a queued pool's queue is made: its position is its leaf index.
    let leaf = synced.position_of(trees, commitment)?;
    let withdrawal = synced.is_spent(trees, nullifier_hash)?;
    let (deposited, spent) = (leaf.is_some(), withdrawal.is_some());
    let mut detail = leaf
        .filter(|&index| index >= synced.leaves && !spent)
        .map(|index| queued_detail(&synced, index));
    let leaf_index = record.leaf_index.or(leaf);
    let state = match (deposited, &withdrawal, record.state) {
        (_, Some(_), NoteState::Withdrawn) => NoteState::Withdrawn,
        (_, Some(w), _) => {
            store.mark_withdrawn(record.id, Some(&w.txid), Some(&w.recipient))?;
            detail = Some(format!(
                "spent: withdrawn to {} by {}, a transaction not made here",
                w.recipient, w.txid
            ));
            NoteState::Withdrawn
        }
        (true, None, NoteState::Deposited) => NoteState::Deposited,
        (true, None, _) => {
            let index = leaf_index.ok_or_else(|| {
                Error::Failed(format!(
                    "note {}'s commitment is in the {denomination} USDT pool, but not at a \
                     leaf",
                    record.id
                ))
            })?;
            store.mark_deposited(record.id, index, None)?;
            NoteState::Deposited
        }
        (false, None, NoteState::Created) => match undecided_deposit(chain, record).await? {
            Some(reason) => {
                store.mark_failed(record.id, &reason)?;
                detail = Some(reason);
                NoteState::Failed
            }
            None => {
                detail = Some(match &record.deposit_txid {
                    Some(txid) => format!("deposit {txid} is not in a block yet"),
                    None => "never deposited".into(),
                });
                NoteState::Created
            }
        },
        (false, None, state) => state,
    };
    Ok(NoteCheck {
        id: record.id,
        denomination,
        was: (state != record.state).then_some(record.state),
        state,
        deposited,
        spent,
        // A queued deposit is not in the tree yet: nothing can prove it.
        withdrawable: deposited && !spent && leaf.is_some_and(|index| index < synced.leaves),
        leaf_index,
        detail,
    })
}

/// For a note whose commitment is not on chain: why its deposit can no longer land, or
/// `None` while it still might.
async fn undecided_deposit(chain: &Chain, record: &NoteRecord) -> Result<Option<String>> {
    let (Some(txid), Some(expiration)) = (&record.deposit_txid, record.deposit_expiration) else {
        return Ok(None);
    };
    let Ok(id) = txid.parse::<TxId>() else {
        return Ok(None);
    };
    if let Some(info) = chain.node.get_transaction_info(&id).await? {
        return Ok((!info.succeeded()).then(|| {
            format!(
                "deposit {txid} failed: {}",
                info.failure_reason().unwrap_or_else(|| "no reason".into())
            )
        }));
    }
    let head = chain.head().await?;
    Ok((head.block.timestamp() > expiration)
        .then(|| format!("deposit {txid} expired before it was included in a block")))
}

/// Stores `note` for `pool` and returns its id; it is on disk when this returns. A note
/// stored before is a conflict. `hashes` are the note's ([`NoteHashes::of`]), computed once
/// by whoever read or made it.
pub(crate) fn store_note(
    store: &NoteStore,
    pool: Address,
    note: (&Note, &NoteHashes),
    origin: &str,
) -> Result<i64> {
    store_note_from(store, pool, note, origin, None)
}

/// [`store_note`] for a note derived from a mnemonic: `seed` is its id and the note's index,
/// and the pool's next index moves past it in the same write.
pub(crate) fn store_note_from(
    store: &NoteStore,
    pool: Address,
    (note, hashes): (&Note, &NoteHashes),
    origin: &str,
    seed: Option<(&str, u32)>,
) -> Result<i64> {
    store.insert(&NewNote {
        text: &note.to_text(),
        denomination: note.meta().denomination(),
        pool: &pool.to_base58(),
        commitment: &word_hex(&hashes.commitment),
        nullifier_hash: &word_hex(&hashes.nullifier_hash),
        origin,
        seed,
    })
}

/// A note as a command was given it: the note, its hashes, and its record when it is stored.
pub struct GivenNote {
    pub note: Note,
    pub hashes: NoteHashes,
    pub record: Option<NoteRecord>,
}

impl GivenNote {
    pub fn new(note: Note, record: Option<NoteRecord>) -> Self {
        GivenNote {
            hashes: NoteHashes::of(&note),
            note,
            record,
        }
    }

    /// Stores the note for `pool` when it is not stored yet (it was given as text), so its
    /// history is kept; answers its id.
    pub(crate) fn remember(
        &mut self,
        store: &NoteStore,
        pool: Address,
        origin: &str,
    ) -> Result<i64> {
        if let Some(record) = &self.record {
            return Ok(record.id);
        }
        let id = store_note(store, pool, (&self.note, &self.hashes), origin)?;
        self.record = store.get(id)?;
        Ok(id)
    }
}

/// Records how a deposit we sent ended.
pub(crate) fn record_deposit(
    store: &NoteStore,
    id: i64,
    pool: Address,
    commitment: B256,
    txid: &TxId,
    outcome: Outcome,
) -> Result<u32> {
    let info = match outcome.settle("deposit", txid) {
        Ok(info) => info,
        Err(e) => {
            store.mark_failed(id, &e.to_string())?;
            return Err(e);
        }
    };
    let index = deposit_leaf_index(&info, pool, commitment).ok_or_else(|| {
        Error::Failed(format!(
            "deposit {txid} succeeded but its receipt has no Deposit event for the note; \
             run `tronpool notes check {id}`"
        ))
    })?;
    store.mark_deposited(id, index, Some(&txid.to_hex()))?;
    Ok(index)
}

/// A withdrawal proof and the public inputs it was made for.
pub struct Proved {
    pub request: WithdrawRequest,
    pub leaf_index: u32,
}

/// What a deposit still in its pool's queue waits for, and how to end the wait.
pub(crate) fn queued_detail(synced: &SyncedTree, position: u32) -> String {
    format!(
        "queued for insertion at position {position} of the {} USDT pool, which has inserted \
         its first {} deposits; a batch inserts it (`tronpool pool insert --denom {}` sends \
         one now, at your energy's cost, as does `tronpool withdraw --insert`)",
        synced.denomination, synced.leaves, synced.denomination
    )
}

/// Who gets what from a withdrawal.
pub struct Payout {
    pub from: Address,
    pub recipient: Address,
    pub relayer: Option<Address>,
    pub fee: U256,
    pub refund: U256,
}

/// Proves that `note` is a leaf of the synced tree, for exactly this payout. Runs on a
/// blocking thread (about 200 ms); the proof is verified before it is returned.
pub async fn prove_withdrawal(
    chain: &Chain,
    trees: &TreeCache,
    synced: &SyncedTree,
    note: &Note,
    hashes: NoteHashes,
    payout: Payout,
) -> Result<Proved> {
    let denomination = synced.denomination;
    let index = match synced.position_of(trees, hashes.commitment)? {
        Some(index) if index < synced.leaves => index,
        Some(index) => {
            return Err(Error::Refused(format!(
                "the note's deposit is {}; it can be withdrawn once inserted",
                queued_detail(synced, index)
            )));
        }
        None => {
            return Err(Error::Refused(format!(
                "the note's commitment {} is not among the {} deposits of the {denomination} \
                 USDT pool: it was never deposited, or the deposit has not landed yet",
                word_hex(&hashes.commitment),
                synced.deposits
            )));
        }
    };
    let path = synced.path(trees, index, hashes.commitment)?;
    let witness = Witness::new(note, &path).map_err(|e| Error::BadNote(e.to_string()))?;
    let mut request = WithdrawRequest {
        from: payout.from,
        denomination,
        // Replaced by the real proof below; the public inputs are computed first.
        proof: EncodedProof([U256::ZERO; 8]),
        root: synced.root,
        nullifier_hash: hashes.nullifier_hash,
        recipient: payout.recipient,
        relayer: payout.relayer,
        fee: payout.fee,
        refund: payout.refund,
    };
    let public = public_inputs(&request)?;
    let keys = chain.verifying_keys()?;
    let proof = tokio::task::spawn_blocking(move || {
        zk::proof::prove(&keys, &public, &witness, &mut rand_core::OsRng)
    })
    .await
    .map_err(|e| Error::task("proving", e))?
    .map_err(|e| Error::BadNote(format!("cannot prove the withdrawal: {e}")))?;
    request.proof = EncodedProof::from_proof(&proof);
    Ok(Proved {
        request,
        leaf_index: index,
    })
}
