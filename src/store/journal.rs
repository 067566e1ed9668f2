//! The submit journal's table: one row per transaction we signed and mean to see on chain
//! (a deposit, a relayed withdrawal, a contract creation), written with its signed bytes
//! before it is broadcast and moved along as it goes:
//!
//! ```text
//! signed ──▶ broadcast ──▶ included ──▶ confirmed
//!    │           │            │
//!    └───────────┴────────────┴──────▶ failed
//! ```
//!
//! `included` is in a block that is not solidified yet; `confirmed` is in a solidified block
//! and succeeded; `failed` is refused, expired, or executed and failed (its burned energy
//! recorded). Every move is a compare-and-set from the states it may leave, so a slow task
//! can never move an entry back (a first broadcast answering after a watcher saw the
//! receipt).
//!
//! An entry names what it is for (`purpose`, and a `reference` inside it: a note's id, a
//! relayed note, a contract). For deposits and relays the pair is exclusive: a partial unique
//! index allows one live entry per (purpose, reference), so not even two processes on one
//! database can send a note's deposit or relay it twice. What follows an entry (broadcasting,
//! reading the node's answer, receipts, resuming) is `service::journal`.

use std::path::Path;
use std::sync::Arc;

use rusqlite::{OptionalExtension, params};
use serde::{Deserialize, Serialize};

use crate::error::{Error, Result, StoreError};
use crate::store::db::Shared;

/// Where an entry stands. Relayer jobs show it as their `state` (`GET /api/relayer/jobs/…`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, utoipa::ToSchema)]
#[serde(rename_all = "lowercase")]
#[schema(as = JobState)]
pub enum State {
    /// Signed and recorded; maybe not broadcast yet.
    Signed,
    /// The node accepted it.
    Broadcast,
    /// In a block that is not solidified yet.
    Included,
    /// In a solidified block, and it succeeded.
    Confirmed,
    /// Refused, expired, or failed on chain.
    Failed,
}

impl State {
    pub fn as_str(self) -> &'static str {
        match self {
            State::Signed => "signed",
            State::Broadcast => "broadcast",
            State::Included => "included",
            State::Confirmed => "confirmed",
            State::Failed => "failed",
        }
    }

    pub(crate) fn parse(text: &str) -> Result<Self> {
        Ok(match text {
            "signed" => State::Signed,
            "broadcast" => State::Broadcast,
            "included" => State::Included,
            "confirmed" => State::Confirmed,
            "failed" => State::Failed,
            other => {
                return Err(StoreError::damaged(
                    "submit journal",
                    format!("state `{other}`"),
                ));
            }
        })
    }

    pub(crate) fn is_finished(self) -> bool {
        matches!(self, State::Confirmed | State::Failed)
    }

    /// The states an entry may move to this one from.
    fn predecessors(self) -> &'static [State] {
        use State::*;
        match self {
            Signed => &[],
            Broadcast => &[Signed],
            Included => &[Signed, Broadcast],
            Confirmed => &[Signed, Broadcast, Included],
            Failed => &[Signed, Broadcast, Included],
        }
    }
}

/// What a journalled transaction is for.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Purpose {
    /// A note's deposit; the reference is the note's id.
    Deposit,
    /// A relayed withdrawal; the reference is `"{pool} {nullifier hash}"`.
    Relay,
    /// A contract of `tronpool deploy`; the reference is its name (`hasher`, `pool 100`).
    Deploy,
    /// A batch of `serve`'s batcher; the reference is `"{pool} {start}"`: one live batch
    /// from each position.
    Batch,
}

impl Purpose {
    pub fn as_str(self) -> &'static str {
        match self {
            Purpose::Deposit => "deposit",
            Purpose::Relay => "relay",
            Purpose::Deploy => "deploy",
            Purpose::Batch => "batch",
        }
    }

    fn parse(text: &str) -> Result<Self> {
        Ok(match text {
            "deposit" => Purpose::Deposit,
            "relay" => Purpose::Relay,
            "deploy" => Purpose::Deploy,
            "batch" => Purpose::Batch,
            other => {
                return Err(StoreError::damaged(
                    "submit journal",
                    format!("purpose `{other}`"),
                ));
            }
        })
    }

    /// Whether one reference may have only one live entry: a note is deposited once and
    /// relayed once; a deployment started afresh creates its contracts again.
    fn exclusive(self) -> bool {
        matches!(self, Purpose::Deposit | Purpose::Relay | Purpose::Batch)
    }
}

/// A signed transaction about to be recorded.
#[derive(Debug, Clone)]
pub struct NewEntry {
    pub txid: String,
    pub purpose: Purpose,
    pub reference: String,
    /// The signed transaction's protobuf, hex.
    pub signed_hex: String,
    /// ms since the epoch.
    pub expiration: i64,
}

/// One journalled transaction.
#[derive(Debug, Clone)]
pub struct Entry {
    pub txid: String,
    pub purpose: Purpose,
    pub reference: String,
    pub signed_hex: String,
    pub expiration: i64,
    pub state: State,
    pub error: Option<String>,
    pub block: Option<i64>,
    pub energy_used: Option<i64>,
    pub fee_sun: Option<i64>,
    /// Broadcasts the node turned away for a passing reason (`SERVER_BUSY`).
    pub attempts: i64,
    /// Not broadcast again before this time (ms since the epoch).
    pub retry_at: i64,
    pub created_at: i64,
    pub updated_at: i64,
}

/// What a receipt says, recorded with the move it causes.
#[derive(Debug, Clone, Copy, Default)]
pub struct Execution {
    pub block: i64,
    pub energy_used: i64,
    pub fee_sun: i64,
}

/// The journal's table in the network's database. Clones share one connection.
#[derive(Clone)]
pub struct Submissions {
    db: Arc<Shared>,
}

pub(crate) fn db_error(e: rusqlite::Error) -> Error {
    StoreError::sqlite("submit journal", e)
}

fn is_constraint(e: &rusqlite::Error) -> bool {
    matches!(e, rusqlite::Error::SqliteFailure(e, _)
        if e.code == rusqlite::ErrorCode::ConstraintViolation)
}

impl Submissions {
    /// Opens (creating) the network's database at `path`.
    pub fn open(path: &Path) -> Result<Self> {
        Ok(Self::over(Arc::new(Shared::new(crate::store::db::open(
            path,
            "the submit journal",
        )?))))
    }

    /// A journal that lives as long as the process (a throwaway in-process devnet).
    pub fn in_memory() -> Result<Self> {
        Ok(Self::over(Arc::new(Shared::new(
            crate::store::db::in_memory("the submit journal")?,
        ))))
    }

    /// The journal on a connection another store of the same database uses (the relayer's
    /// jobs, which are recorded together with their entries).
    pub(crate) fn over(db: Arc<Shared>) -> Self {
        Submissions { db }
    }

    pub(crate) fn db(&self) -> &Shared {
        &self.db
    }

    /// Records a new entry in state `signed`; a live entry for an exclusive reference is a
    /// conflict. On disk when this returns.
    pub fn record(&self, entry: &NewEntry) -> Result<()> {
        self.record_with(entry, |_| Ok(()))
    }

    /// [`Submissions::record`] with `detail` written in the same transaction (a relayer
    /// job's row): both are on disk, or neither.
    pub(crate) fn record_with(
        &self,
        entry: &NewEntry,
        detail: impl FnOnce(&rusqlite::Transaction<'_>) -> rusqlite::Result<()>,
    ) -> Result<()> {
        let result = self.db.with(|db| {
            let tx = db.transaction()?;
            let now = tron::transaction::now_ms();
            tx.execute(
                "INSERT INTO submissions (txid, purpose, reference, exclusive, signed_hex,
                     expiration, state, created_at, updated_at)
                 VALUES (?1, ?2, ?3, ?4, ?5, ?6, 'signed', ?7, ?7)",
                params![
                    entry.txid,
                    entry.purpose.as_str(),
                    entry.reference,
                    entry.purpose.exclusive(),
                    entry.signed_hex,
                    entry.expiration,
                    now,
                ],
            )?;
            detail(&tx)?;
            tx.commit()
        });
        match result {
            Ok(()) => Ok(()),
            Err(e) if is_constraint(&e) => Err(Error::Conflict(format!(
                "{} {} already has a transaction under way or done",
                entry.purpose.as_str(),
                entry.reference
            ))),
            Err(e) => Err(db_error(e)),
        }
    }

    /// Moves an entry to `state` if it is in a state that may move there; answers whether it
    /// moved. A receipt's figures are recorded with the move.
    pub fn advance(
        &self,
        txid: &str,
        state: State,
        error: Option<&str>,
        execution: Option<Execution>,
    ) -> Result<bool> {
        let from: Vec<&str> = state.predecessors().iter().map(|s| s.as_str()).collect();
        let placeholders = vec!["?"; from.len()].join(", ");
        let sql = format!(
            "UPDATE submissions SET state = ?, error = ?, updated_at = ?,
                 block = COALESCE(?, block), energy_used = COALESCE(?, energy_used),
                 fee_sun = COALESCE(?, fee_sun)
             WHERE txid = ? AND state IN ({placeholders})"
        );
        let mut values: Vec<rusqlite::types::Value> = vec![
            state.as_str().to_owned().into(),
            error.map(str::to_owned).into(),
            tron::transaction::now_ms().into(),
            execution.map(|e| e.block).into(),
            execution.map(|e| e.energy_used).into(),
            execution.map(|e| e.fee_sun).into(),
            txid.to_owned().into(),
        ];
        values.extend(from.iter().map(|s| (*s).to_owned().into()));
        let changed = self
            .db
            .with(|db| db.execute(&sql, rusqlite::params_from_iter(values)))
            .map_err(db_error)?;
        Ok(changed == 1)
    }

    /// Fails an entry the node refused, if no node has accepted it yet (still `signed`);
    /// answers whether it moved. One a node accepted is decided by its receipt or expiry.
    pub fn refuse(&self, txid: &str, reason: &str) -> Result<bool> {
        let changed = self
            .db
            .with(|db| {
                db.execute(
                    "UPDATE submissions SET state = 'failed', error = ?2, updated_at = ?3
                     WHERE txid = ?1 AND state = 'signed'",
                    params![txid, reason, tron::transaction::now_ms()],
                )
            })
            .map_err(db_error)?;
        Ok(changed == 1)
    }

    /// Counts a broadcast the node turned away for a passing reason, and when to try again.
    pub(crate) fn defer(&self, txid: &str, retry_at: i64, reason: &str) -> Result<()> {
        self.db
            .with(|db| {
                db.execute(
                    "UPDATE submissions SET attempts = attempts + 1, retry_at = ?2, error = ?3,
                         updated_at = ?4
                     WHERE txid = ?1 AND state IN ('signed', 'broadcast')",
                    params![txid, retry_at, reason, tron::transaction::now_ms()],
                )
            })
            .map_err(db_error)?;
        Ok(())
    }

    /// Not to be broadcast again before `retry_at` (a node holds it; a new copy would only
    /// be answered as a duplicate).
    pub fn hold(&self, txid: &str, retry_at: i64) -> Result<()> {
        self.db
            .with(|db| {
                db.execute(
                    "UPDATE submissions SET retry_at = ?2
                     WHERE txid = ?1 AND state IN ('signed', 'broadcast')",
                    params![txid, retry_at],
                )
            })
            .map_err(db_error)?;
        Ok(())
    }

    pub fn get(&self, txid: &str) -> Result<Option<Entry>> {
        self.db
            .with(|db| {
                db.query_row(&format!("{SELECT} WHERE txid = ?1"), [txid], row_to_entry)
                    .optional()
            })
            .map_err(db_error)?
            .transpose()
    }

    /// Entries of `purpose` not finished yet, oldest first.
    pub fn unfinished(&self, purpose: Purpose) -> Result<Vec<Entry>> {
        self.db.with(|db| {
            let mut statement = db
                .prepare(&format!(
                    "{SELECT} WHERE purpose = ?1 AND state IN ('signed', 'broadcast', 'included')
                     ORDER BY created_at, rowid"
                ))
                .map_err(db_error)?;
            let rows = statement
                .query_map([purpose.as_str()], row_to_entry)
                .map_err(db_error)?
                .collect::<std::result::Result<Vec<_>, _>>()
                .map_err(db_error)?;
            rows.into_iter().collect()
        })
    }
}

const SELECT: &str = "SELECT txid, purpose, reference, signed_hex, expiration, state, error,
    block, energy_used, fee_sun, attempts, retry_at, created_at, updated_at FROM submissions";

fn row_to_entry(row: &rusqlite::Row<'_>) -> rusqlite::Result<Result<Entry>> {
    let purpose: String = row.get(1)?;
    let state: String = row.get(5)?;
    let entry = Entry {
        txid: row.get(0)?,
        purpose: Purpose::Deposit,
        reference: row.get(2)?,
        signed_hex: row.get(3)?,
        expiration: row.get(4)?,
        state: State::Signed,
        error: row.get(6)?,
        block: row.get(7)?,
        energy_used: row.get(8)?,
        fee_sun: row.get(9)?,
        attempts: row.get(10)?,
        retry_at: row.get(11)?,
        created_at: row.get(12)?,
        updated_at: row.get(13)?,
    };
    Ok(Purpose::parse(&purpose)
        .and_then(|purpose| Ok((purpose, State::parse(&state)?)))
        .map(|(purpose, state)| Entry {
            purpose,
            state,
            ..entry
        }))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn entry(txid: &str, purpose: Purpose, reference: &str) -> NewEntry {
        NewEntry {
            txid: txid.into(),
            purpose,
            reference: reference.into(),
            signed_hex: "0a02".into(),
            expiration: 1,
        }
    }

    #[test]
    fn entries_survive_a_reopen_and_only_exclusive_references_are_unique() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("devnet/tronpool.sqlite3");
        {
            let journal = Submissions::open(&path).unwrap();
            journal.record(&entry("aa", Purpose::Deposit, "1")).unwrap();
            let again = journal
                .record(&entry("bb", Purpose::Deposit, "1"))
                .unwrap_err();
            assert_eq!(again.http_status(), 409, "{again}");
            // A failed entry frees its reference; deploy steps are never exclusive.
            assert!(
                journal
                    .advance("aa", State::Failed, Some("expired"), None)
                    .unwrap()
            );
            journal.record(&entry("bb", Purpose::Deposit, "1")).unwrap();
            journal
                .record(&entry("cc", Purpose::Deploy, "hasher"))
                .unwrap();
            journal
                .record(&entry("dd", Purpose::Deploy, "hasher"))
                .unwrap();
            assert!(journal.advance("bb", State::Broadcast, None, None).unwrap());
        }
        let journal = Submissions::open(&path).unwrap();
        let open = journal.unfinished(Purpose::Deposit).unwrap();
        assert_eq!(open.len(), 1);
        assert_eq!(
            (open[0].txid.as_str(), open[0].state),
            ("bb", State::Broadcast)
        );
        assert_eq!(journal.unfinished(Purpose::Deploy).unwrap().len(), 2);
        assert!(journal.unfinished(Purpose::Relay).unwrap().is_empty());
        let failed = journal.get("aa").unwrap().unwrap();
        assert_eq!(failed.error.as_deref(), Some("expired"));
        assert_eq!(failed.signed_hex, "0a02");
    }

    #[test]
    fn moves_are_compare_and_set_and_never_go_back() {
        let journal = Submissions::in_memory().unwrap();
        journal.record(&entry("aa", Purpose::Relay, "p n")).unwrap();
        let receipt = Execution {
            block: 7,
            energy_used: 330_000,
            fee_sun: 33_000_000,
        };
        assert!(
            journal
                .advance("aa", State::Included, None, Some(receipt))
                .unwrap()
        );
        assert!(!journal.advance("aa", State::Broadcast, None, None).unwrap());
        assert!(journal.advance("aa", State::Confirmed, None, None).unwrap());
        for late in [State::Failed, State::Included, State::Signed] {
            assert!(!journal.advance("aa", late, Some("late"), None).unwrap());
        }
        let done = journal.get("aa").unwrap().unwrap();
        assert_eq!(done.state, State::Confirmed);
        assert_eq!(
            (done.block, done.energy_used, done.fee_sun),
            (Some(7), Some(330_000), Some(33_000_000))
        );

        journal.record(&entry("bb", Purpose::Relay, "p m")).unwrap();
        journal.defer("bb", 5_000, "SERVER_BUSY").unwrap();
        journal.defer("bb", 9_000, "SERVER_BUSY").unwrap();
        let deferred = journal.get("bb").unwrap().unwrap();
        assert_eq!((deferred.attempts, deferred.retry_at), (2, 9_000));
        assert_eq!(deferred.state, State::Signed);
        journal.hold("bb", 12_000).unwrap();
        assert!(journal.advance("bb", State::Broadcast, None, None).unwrap());
        assert!(
            !journal.refuse("bb", "SIGERROR").unwrap(),
            "accepted before"
        );
        journal.record(&entry("cc", Purpose::Relay, "p o")).unwrap();
        assert!(journal.refuse("cc", "SIGERROR").unwrap());
        assert_eq!(journal.get("cc").unwrap().unwrap().state, State::Failed);
        assert_eq!(journal.get("bb").unwrap().unwrap().attempts, 2);
        assert_eq!(journal.get("bb").unwrap().unwrap().retry_at, 12_000);
    }
}
