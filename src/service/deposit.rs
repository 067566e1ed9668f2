//! One deposit, the way every caller makes it (`tronpool deposit`, and `deploy`'s test
//! deposit): the note is stored (synced to disk) before its deposit is signed, and the signed
//! deposit is recorded in the submit journal (`service::journal`) and its txid with the note
//! before it is broadcast. Whatever stops the run (Ctrl-C, a crash, the node), the note is on
//! disk and `tronpool notes check` can settle it against the chain; the next `deposit` run
//! finishes what the journal holds ([`resume`]): it sends a deposit that was signed but maybe
//! never sent while it is valid, and records how each ended.

use alloy_primitives::{B256, U256};
use tron::{Address, TxId};
use zk::note::{Note, NoteMeta};

use crate::error::{Error, Result};
use crate::service::builders::Built;
use crate::service::chain::Chain;
use crate::service::format::six_decimals_text;
use crate::service::journal::{Journal, Purpose};
use crate::service::notes::commitment_of;
use crate::service::seed::Seed;
use crate::service::submit::Broadcast;
use crate::store::notes::{NoteState, NoteStore};

/// What deposits need from their sender before the first is made.
pub struct Funding {
    /// USDT base units the deposits take.
    pub needed: U256,
    /// What the pool may take from the sender now.
    pub allowance: U256,
    /// When the allowance is short: the approval of exactly `needed`, to sign and confirm
    /// before the first deposit.
    pub approval: Option<Built>,
}

/// Checks that `from` holds the USDT for `count` deposits into the pool of `denomination`
/// (refused otherwise, before anything is stored or sent), and builds the approval the pool
/// needs first, if it does.
pub async fn funding(
    chain: &Chain,
    from: Address,
    denomination: u64,
    count: u64,
) -> Result<Funding> {
    let pool = chain.pool_address(denomination)?;
    let needed = chain.denomination(denomination)?.times(count);
    let (balance, allowance) =
        tokio::try_join!(chain.usdt_balance(from), chain.usdt_allowance(from, pool))?;
    if balance < needed {
        return Err(Error::Refused(format!(
            "{from} holds {} USDT; {count} deposit(s) of {denomination} USDT need {}",
            six_decimals_text(balance),
            six_decimals_text(needed)
        )));
    }
    let approval = if allowance < needed {
        Some(
            chain
                .approve_transaction(from, denomination, Some(needed))
                .await?,
        )
    } else {
        None
    };
    Ok(Funding {
        needed,
        allowance,
        approval,
    })
}

/// Makes a note for `denomination`'s pool and stores it; it is on disk when this returns.
/// With `seed`, the note is the pool's next one derived from the mnemonic (and the next index
/// moves on in the same write); without, it is random. `origin` says in the store what made
/// it.
pub fn new_note(
    chain: &Chain,
    store: &NoteStore,
    denomination: u64,
    origin: &str,
    seed: Option<&Seed>,
) -> Result<(i64, Note)> {
    let meta = NoteMeta::usdt(denomination, &chain.network)
        .map_err(|e| Error::Failed(format!("cannot make a note: {e}")))?;
    let Some(seed) = seed else {
        let note = Note::generate(meta);
        let id = chain.store_note(store, &note, origin)?;
        return Ok((id, note));
    };
    let pool = chain.pool_address(denomination)?.to_base58();
    let seed_id = seed.id();
    let mut index = store.next_index(&seed_id, &pool)?;
    // An index already stored (recovered, or taken by another process) is skipped.
    for _ in 0..1000 {
        let note = seed.note(meta.clone(), &pool, index);
        match chain.store_note_from(store, &note, origin, Some((&seed_id, index))) {
            Ok(id) => return Ok((id, note)),
            Err(Error::Conflict(_)) => index += 1,
            Err(e) => return Err(e),
        }
    }
    Err(Error::Failed(format!(
        "the mnemonic's notes for the {denomination} USDT pool up to index {index} are all \
         stored already"
    )))
}

/// Builds, signs, records, broadcasts and follows the deposit of stored note `id`; returns
/// its txid and the note's leaf index. The pool must already be allowed to take the USDT.
#[allow(clippy::too_many_arguments)]
pub async fn deposit_one(
    chain: &Chain,
    store: &NoteStore,
    journal: &Journal,
    key: &tron::PrivateKey,
    id: i64,
    note: &Note,
    denomination: u64,
    pool: Address,
) -> Result<(TxId, u32)> {
    let commitment = commitment_of(note);
    let mut tx = match chain
        .deposit_transaction(key.address(), denomination, commitment)
        .await
    {
        Ok(built) => built.transaction,
        Err(e) => {
            store.mark_failed(id, &format!("not sent: {e}"))?;
            return Err(e);
        }
    };
    tx.sign(key)?;
    let txid = tx.txid();
    // The signed bytes first (what a crash must not lose), then the note's txid.
    let entry = journal.record(&tx, Purpose::Deposit, id.to_string())?;
    store.set_deposit_tx(id, &txid.to_hex(), tx.expiration())?;
    let settle = |e: Error| match e.kind() {
        crate::error::Kind::Unavailable => e.with_hint(format!(
            "note {id} is stored and its deposit {txid} may have been sent: run \
             `tronpool notes check {id}` once the node answers"
        )),
        _ => e,
    };
    match journal.broadcast(&chain.node, &entry).await? {
        Broadcast::Accepted => {}
        // Busy: following sends it again after a backoff.
        Broadcast::Retry(_) => {}
        Broadcast::Refused(reason) => {
            store.mark_failed(id, &format!("refused: {reason}"))?;
            return Err(Error::Refused(reason));
        }
        Broadcast::Unknown(e) => return Err(settle(e.into())),
    }
    tracing::info!(%txid, note = id, "deposit broadcast");
    let leaf = follow(chain, store, journal, id, pool, commitment, &txid)
        .await
        .map_err(settle)?;
    chain.pool_changed(denomination);
    Ok((txid, leaf))
}

/// Follows a journalled deposit to its receipt or expiry and records the note's end.
async fn follow(
    chain: &Chain,
    store: &NoteStore,
    journal: &Journal,
    id: i64,
    pool: Address,
    commitment: B256,
    txid: &TxId,
) -> Result<u32> {
    let outcome = match journal.follow(&chain.node, &txid.to_hex()).await {
        Ok(outcome) => outcome,
        Err(Error::Refused(reason)) => {
            store.mark_failed(id, &format!("refused: {reason}"))?;
            return Err(Error::Refused(reason));
        }
        Err(e) => return Err(e),
    };
    chain.record_deposit(store, id, pool, commitment, txid, outcome)
}

/// How a deposit an earlier run left unfinished ended.
#[derive(Debug)]
pub struct Resumed {
    pub note: i64,
    pub txid: String,
    /// The note's leaf index, or why the deposit failed.
    pub result: Result<u32>,
}

/// Finishes the deposits an earlier run signed and recorded but did not see to the end (a
/// crash, Ctrl-C, the node gone): each is sent again while it is valid and followed to its
/// receipt or expiry, and its note is marked `deposited` or `failed`. A note settled
/// meanwhile (by `notes check`) is left as it is. Only a failure to read the journal is an
/// error; each deposit's own end is in its [`Resumed`].
pub async fn resume(chain: &Chain, store: &NoteStore, journal: &Journal) -> Result<Vec<Resumed>> {
    let mut resumed = Vec::new();
    for entry in journal.unfinished(Purpose::Deposit)? {
        let note = entry
            .reference
            .parse::<i64>()
            .ok()
            .map(|id| store.get(id))
            .transpose()?
            .flatten();
        let Some(note) = note.filter(|n| n.state == NoteState::Created) else {
            // Its note is settled (or gone): the journal's entry is only brought up to date.
            if let Err(e) = journal.check(&chain.node, &entry).await {
                tracing::debug!(txid = entry.txid, error = %e, "checking a settled deposit");
            }
            continue;
        };
        let result = async {
            let txid: TxId = entry
                .txid
                .parse()
                .map_err(|_| Error::Failed(format!("submit journal: bad txid {}", entry.txid)))?;
            let pool: Address = note.pool.parse().map_err(|_| {
                Error::Failed(format!("note {}: bad pool address {}", note.id, note.pool))
            })?;
            let commitment: B256 = note.commitment.parse().map_err(|_| {
                Error::Failed(format!(
                    "note {}: bad commitment {}",
                    note.id, note.commitment
                ))
            })?;
            let leaf = follow(chain, store, journal, note.id, pool, commitment, &txid).await?;
            chain.pool_changed(note.denomination);
            Ok(leaf)
        }
        .await;
        resumed.push(Resumed {
            note: note.id,
            txid: entry.txid,
            result,
        });
    }
    Ok(resumed)
}
