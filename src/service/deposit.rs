//! One deposit, the way every caller makes it (`tronpool deposit`, and `deploy`'s test
//! deposit): the note is stored (synced to disk) before its deposit is signed, and the signed
//! deposit is recorded in the submit journal (`service::journal`) and its txid with the note
//! before it is broadcast. Whatever stops the run (Ctrl-C, a crash, the node), the note is on
//! disk and `tronpool notes check` can settle it against the chain; the next `deposit` run
//! finishes what the journal holds ([`resume`]): it sends a deposit that was signed but maybe
//! never sent while it is valid, and records how each ended.

use alloy_primitives::{B256, U256};
use serde::Serialize;
use tron::{Address, PrivateKey, TxId};
use zk::note::{Note, NoteMeta};

use crate::error::{Error, Result, StoreError};
use crate::service::balances;
use crate::service::builders;
use crate::service::builders::{Built, Unsigned};
use crate::service::chain::Chain;
pub use crate::service::desk::Desk;
use crate::service::format::{six_decimals_text, word_hex};
use crate::service::journal::Purpose;
use crate::service::notes;
use crate::service::notes::NoteHashes;
use crate::service::notes::commitment_of;
use crate::service::pools;
use crate::service::progress::Progress;
use crate::service::seed::Seed;
use crate::service::submit;
use crate::service::submit::Broadcast;
use crate::store::notes::NoteState;

/// One command deposits at most this many notes: each is a transaction to wait for.
pub(crate) const MAX_COUNT: u64 = 100;

/// `count` deposits into the pool of `denomination`, as the user asked for them.
pub struct Deposits {
    pub denomination: u64,
    pub count: u64,
    /// Notes derived from the mnemonic; `None`: random notes.
    pub seed: Option<Seed>,
}

/// Who signs the deposits.
pub enum DepositSigner<'a> {
    /// Store the notes and build unsigned deposits from `from`, for another wallet to sign.
    Unsigned { from: Address },
    /// Approve when needed, sign, send and follow each deposit into a block.
    Key(&'a PrivateKey),
}

/// A deposited (or, unsigned, prepared) note.
#[derive(Debug, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct Deposited {
    pub id: i64,
    /// The secret: the only way to withdraw.
    pub note: String,
    pub denomination: u64,
    pub pool: Address,
    pub commitment: String,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub leaf_index: Option<u32>,
    pub txid: TxId,
    /// The unsigned transaction (the API's JSON), for another wallet to sign.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub transaction: Option<serde_json::Value>,
}

impl Deposited {
    fn new(id: i64, note: &Note, pool: Address, txid: TxId) -> Self {
        Deposited {
            id,
            note: note.to_text().to_string(),
            denomination: note.meta().denomination(),
            pool,
            commitment: word_hex(&commitment_of(note)),
            leaf_index: None,
            txid,
            transaction: None,
        }
    }
}

/// How a run of deposits ended: every note it deposited (or prepared), and the error that
/// stopped it before the last, if one did. The notes are the user's money either way.
#[derive(Debug, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct DepositRun {
    #[serde(skip_serializing_if = "Option::is_none")]
    pub approve_txid: Option<TxId>,
    pub notes: Vec<Deposited>,
    /// The batches that inserted them (`deposit --insert` into a queued pool).
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub inserted: Vec<crate::service::insert::Inserted>,
    #[serde(skip)]
    pub stopped: Option<Error>,
}

impl Deposits {
    /// `count` deposits into the pool of `denomination` with random notes (set `seed` to
    /// derive them); a count out of range is refused before anything is opened.
    pub fn new(denomination: u64, count: u64) -> Result<Self> {
        if !(1..=MAX_COUNT).contains(&count) {
            return Err(Error::usage(format!("--count must be 1 to {MAX_COUNT}")));
        }
        Ok(Deposits {
            denomination,
            count,
            seed: None,
        })
    }

    /// Finishes what an earlier run left unfinished, then makes the deposits: refused before
    /// anything is stored when the sender lacks the USDT; the approval (when the allowance is
    /// short) and the deposits each confirmed first; every note on disk before its deposit
    /// is signed. A failure after the first note is stored ends the run with the notes made
    /// so far in [`DepositRun::stopped`], not as an error that would hide them. Ends with a
    /// warning to keep the notes it stored secret.
    pub async fn run(
        self,
        desk: Desk<'_>,
        signer: DepositSigner<'_>,
        progress: &Progress,
    ) -> Result<DepositRun> {
        let pool = desk.chain.pool_address(self.denomination)?;
        for done in resume(desk).await? {
            match done.result {
                Ok(leaf) => progress.note(format!(
                    "note {}'s deposit from an earlier run went in as leaf {leaf}: {}",
                    done.note, done.txid
                )),
                Err(e) => progress.warn(format!(
                    "note {}'s deposit from an earlier run ({}) did not go in: {e}",
                    done.note, done.txid
                )),
            }
        }
        if self.seed.is_some() {
            progress
                .note("notes are derived from the stored mnemonic (`notes recover` finds them)");
        }
        let run = match signer {
            DepositSigner::Unsigned { from } => self.prepare(desk, from, pool).await?,
            DepositSigner::Key(key) => self.send(desk, key, pool, progress).await?,
        };
        if !run.notes.is_empty() {
            let ids: Vec<String> = run.notes.iter().map(|n| n.id.to_string()).collect();
            progress.warn(format!(
                "each note is the only way to withdraw its deposit: keep it secret and safe. A \
                 copy is stored as note {} (`tronpool notes show ID`); back it up with \
                 `tronpool notes export`.",
                ids.join(", ")
            ));
        }
        Ok(run)
    }

    /// Stores the notes and builds their deposits for `from` to sign elsewhere.
    async fn prepare(self, desk: Desk<'_>, from: Address, pool: Address) -> Result<DepositRun> {
        let mut prepared = Vec::new();
        for _ in 0..self.count {
            let (id, note) = new_note(desk, self.denomination, "deposit", self.seed.as_ref())?;
            let tx = builders::deposit_transaction(
                desk.chain,
                from,
                self.denomination,
                commitment_of(&note),
            )
            .await;
            let tx = match tx {
                Ok(built) => built.transaction,
                Err(e) => {
                    desk.store.mark_failed(id, &format!("not sent: {e}"))?;
                    return Ok(DepositRun {
                        inserted: Vec::new(),
                        approve_txid: None,
                        notes: prepared,
                        stopped: Some(e),
                    });
                }
            };
            // The txid does not depend on the signature: `notes check` can look it up.
            desk.store
                .set_deposit_tx(id, &tx.txid().to_hex(), tx.expiration())?;
            prepared.push(Deposited {
                transaction: Some(Unsigned::new(&tx).transaction),
                ..Deposited::new(id, &note, pool, tx.txid())
            });
        }
        Ok(DepositRun {
            inserted: Vec::new(),
            approve_txid: None,
            notes: prepared,
            stopped: None,
        })
    }

    /// Approves when needed, then deposits note after note, each followed into a block.
    async fn send(
        self,
        desk: Desk<'_>,
        key: &PrivateKey,
        pool: Address,
        progress: &Progress,
    ) -> Result<DepositRun> {
        let chain = desk.chain;
        let from = key.address();
        let funding = funding(chain, from, self.denomination, self.count).await?;
        let mut approve_txid = None;
        if let Some(built) = funding.approval {
            progress
                .confirm(format!(
                    "The pool may take {} USDT from {from}; approve exactly {} USDT first? ({})",
                    six_decimals_text(funding.allowance),
                    six_decimals_text(funding.needed),
                    built.estimate.describe()
                ))
                .await?;
            let mut tx = built.transaction;
            tx.sign(key)?;
            let txid = submit::send_and_confirm(chain, &tx, "the approval")
                .await?
                .id;
            progress.note(format!(
                "approved {} USDT: {txid}",
                six_decimals_text(funding.needed)
            ));
            approve_txid = Some(txid);
        }
        // What one deposit would cost now, priced on a throwaway commitment (never stored or
        // sent); every deposit of the run costs about the same.
        let sample = Note::generate(note_meta(chain, self.denomination)?);
        let estimate =
            builders::deposit_transaction(chain, from, self.denomination, commitment_of(&sample))
                .await?
                .estimate;
        let denom = chain.denomination(self.denomination)?;
        let fee = if denom.insertion_fee().is_zero() {
            String::new()
        } else {
            format!(
                " and {} USDT each for the batch that inserts it",
                six_decimals_text(denom.insertion_fee())
            )
        };
        progress
            .confirm(format!(
                "Deposit {} × {} USDT{fee} from {from} into {pool} on {}? (each: {})",
                self.count,
                self.denomination,
                chain.network,
                estimate.describe()
            ))
            .await?;
        let mut run = DepositRun {
            inserted: Vec::new(),
            approve_txid,
            notes: Vec::new(),
            stopped: None,
        };
        for _ in 0..self.count {
            let made = new_note(desk, self.denomination, "deposit", self.seed.as_ref());
            let (id, note) = match made {
                Ok(made) => made,
                Err(e) => return Ok(run.stopped_by(e)),
            };
            progress.note(format!("note {id} stored"));
            let (txid, leaf) = match deposit_one(desk, key, id, &note).await {
                Ok(done) => done,
                Err(e) => return Ok(run.stopped_by(e)),
            };
            progress.note(if desk.chain.queued() {
                format!(
                    "deposited {} USDT as leaf {leaf}, queued until a batch inserts it: {txid}",
                    self.denomination
                )
            } else {
                format!(
                    "deposited {} USDT as leaf {leaf}: {txid}",
                    self.denomination
                )
            });
            run.notes.push(Deposited {
                leaf_index: Some(leaf),
                ..Deposited::new(id, &note, pool, txid)
            });
        }
        Ok(run)
    }
}

impl DepositRun {
    /// The run for a person: a note per line, then each unsigned transaction as JSON.
    pub fn describe(&self) -> String {
        let mut text = self.note_lines();
        for transaction in self.notes.iter().filter_map(|d| d.transaction.as_ref()) {
            text.push_str(&serde_json::to_string(transaction).expect("JSON values serialize"));
            text.push('\n');
        }
        text
    }

    /// The notes made, one per line.
    pub fn note_lines(&self) -> String {
        self.notes.iter().map(|n| format!("{}\n", n.note)).collect()
    }

    fn stopped_by(mut self, error: Error) -> Self {
        self.stopped = Some(error);
        self
    }
}

/// Refuses a commitment the pool of `denomination` already holds, before anyone pays for a
/// deposit whose note could be withdrawn only once. A pool that inserts at once refuses it
/// itself (its `commitments` slot, read when the deposit is built); a queued pool keeps no
/// slot per commitment (it would cost every deposit 20,000 energy), so a server asks its
/// synced deposits, queued ones included (synced at most once per pool-state TTL).
pub async fn refuse_known_commitment(
    chain: &Chain,
    trees: &crate::store::trees::TreeCache,
    denomination: u64,
    commitment: B256,
) -> Result<()> {
    if !chain.queued() {
        return Ok(());
    }
    crate::service::sync::sync_if_stale(chain, denomination, trees, false).await?;
    let pool = chain.pool_address(denomination)?.to_base58();
    if trees.index_of(&pool, &commitment.0)?.is_some() {
        return Err(Error::Refused(format!(
            "commitment {commitment} is already in the {denomination} USDT pool; make a new \
             note"
        )));
    }
    Ok(())
}

fn note_meta(chain: &Chain, denomination: u64) -> Result<NoteMeta> {
    NoteMeta::usdt(denomination, &chain.network).map_err(|e| Error::caused("cannot make a note", e))
}

/// What deposits need from their sender before the first is made.
pub struct Funding {
    /// USDT base units the deposits take.
    pub needed: U256,
    /// What the pool may take from the sender now.
    pub allowance: U256,
    /// When the allowance is short: the approval of `needed` and one base unit more
    /// ([`crate::service::builders::ALLOWANCE_KEPT`]), to sign and confirm before the first
    /// deposit.
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
    let (balance, allowance) = tokio::try_join!(
        balances::usdt_balance(chain, from),
        balances::usdt_allowance(chain, from, pool)
    )?;
    if balance < needed {
        return Err(Error::Refused(format!(
            "{from} holds {} USDT; {count} deposit(s) of {denomination} USDT need {}",
            six_decimals_text(balance),
            six_decimals_text(needed)
        )));
    }
    let approval = if allowance < needed {
        Some(
            builders::approve_transaction(
                chain,
                from,
                denomination,
                Some(builders::approval_for(chain, denomination, count)?),
            )
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
pub(crate) fn new_note(
    desk: Desk<'_>,
    denomination: u64,
    origin: &str,
    seed: Option<&Seed>,
) -> Result<(i64, Note)> {
    let Desk { chain, store, .. } = desk;
    let meta = note_meta(chain, denomination)?;
    let pool = chain.pool_address(denomination)?;
    let Some(seed) = seed else {
        let note = Note::generate(meta);
        let id = notes::store_note(store, pool, (&note, &NoteHashes::of(&note)), origin)?;
        return Ok((id, note));
    };
    let key = pool.to_base58();
    let seed_id = seed.id();
    let mut index = store.next_index(&seed_id, &key)?;
    // An index already stored (recovered, or taken by another process) is skipped.
    for _ in 0..1000 {
        let note = seed.note(meta.clone(), &key, index);
        let hashes = NoteHashes::of(&note);
        let stored = notes::store_note_from(
            store,
            pool,
            (&note, &hashes),
            origin,
            Some((&seed_id, index)),
        );
        match stored {
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
pub(crate) async fn deposit_one(
    desk: Desk<'_>,
    key: &PrivateKey,
    id: i64,
    note: &Note,
) -> Result<(TxId, u32)> {
    let Desk {
        chain,
        store,
        journal,
        ..
    } = desk;
    let denomination = note.meta().denomination();
    let pool = chain.pool_address(denomination)?;
    let commitment = commitment_of(note);
    let mut tx =
        match builders::deposit_transaction(chain, key.address(), denomination, commitment).await {
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
    let leaf = follow(desk, id, Leaf { pool, commitment }, &txid)
        .await
        .map_err(settle)?;
    pools::pool_changed(chain, denomination);
    Ok((txid, leaf))
}

/// Where a deposit's commitment goes.
struct Leaf {
    pool: Address,
    commitment: B256,
}

/// Follows a journalled deposit to its receipt or expiry and records the note's end.
async fn follow(desk: Desk<'_>, id: i64, leaf: Leaf, txid: &TxId) -> Result<u32> {
    let Desk {
        chain,
        store,
        journal,
        ..
    } = desk;
    let outcome = match journal.follow(&chain.node, &txid.to_hex()).await {
        Ok(outcome) => outcome,
        Err(Error::Refused(reason)) => {
            store.mark_failed(id, &format!("refused: {reason}"))?;
            return Err(Error::Refused(reason));
        }
        Err(e) => return Err(e),
    };
    notes::record_deposit(store, id, leaf.pool, leaf.commitment, txid, outcome)
}

/// How a deposit an earlier run left unfinished ended.
#[derive(Debug)]
pub(crate) struct Resumed {
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
pub(crate) async fn resume(desk: Desk<'_>) -> Result<Vec<Resumed>> {
    let Desk {
        chain,
        store,
        journal,
        ..
    } = desk;
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
            let txid: TxId = entry.txid.parse().map_err(|_| {
                StoreError::damaged("submit journal", format!("bad txid {}", entry.txid))
            })?;
            let pool: Address = note.pool.parse().map_err(|_| {
                StoreError::damaged(
                    format!("note {}", note.id),
                    format!("bad pool address {}", note.pool),
                )
            })?;
            let commitment: B256 = note.commitment.parse().map_err(|_| {
                StoreError::damaged(
                    format!("note {}", note.id),
                    format!("bad commitment {}", note.commitment),
                )
            })?;
            let leaf = follow(desk, note.id, Leaf { pool, commitment }, &txid).await?;
            pools::pool_changed(chain, note.denomination);
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
