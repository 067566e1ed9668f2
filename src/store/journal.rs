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

use serde::{Deserialize, Serialize};

use crate::error::{Error, Result, StoreError};
use crate::store::db::Shared;
use crate::store::sql::{Db, DbError, Row, Statement, Value, params};

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

/// The journal's table, in the network's SQLite database or the replicas' PostgreSQL
/// (`store::sql`). Clones share one connection (or pool).
#[derive(Clone)]
pub struct Submissions {
    db: Db,
}

const WHAT: &str = "submit journal";

/// A journal statement's failure.
pub(crate) fn db_error(e: DbError) -> Error {
    e.at(WHAT)
}

/// The states in which an entry is still being followed.
pub(crate) const OPEN: &str = "('signed', 'broadcast', 'included')";

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

    /// The journal on a connection another store of the same SQLite database uses.
    pub(crate) fn over(db: Arc<Shared>) -> Self {
        Submissions { db: Db::Sqlite(db) }
    }

    /// The journal in `db`, whichever engine it is.
    pub fn on(db: Db) -> Self {
        Submissions { db }
    }

    pub(crate) fn db(&self) -> &Db {
        &self.db
    }

    /// Records a new entry in state `signed`; a live entry for an exclusive reference is a
    /// conflict. On disk when this returns.
    pub fn record(&self, entry: &NewEntry) -> Result<()> {
        self.record_leased(entry, None, Vec::new())
    }

    /// The statement that records `entry`, taken for `lease` ms by `owner` when given (the
    /// process that broadcasts it first), for [`Submissions::record_leased`].
    fn insert_statement(entry: &NewEntry, lease: Option<(&str, i64)>) -> Statement<'static> {
        let now = tron::transaction::now_ms();
        (
            "INSERT INTO submissions (txid, purpose, reference, exclusive, signed_hex,
                 expiration, state, created_at, updated_at, lease_owner, lease_until)
             VALUES ($1, $2, $3, $4, $5, $6, 'signed', $7, $7, $8, $9)",
            params![
                entry.txid.as_str(),
                entry.purpose.as_str(),
                entry.reference.as_str(),
                entry.purpose.exclusive(),
                entry.signed_hex.as_str(),
                entry.expiration,
                now,
                lease.map(|(owner, _)| owner),
                lease.map_or(0, |(_, ms)| now + ms),
            ],
        )
    }

    /// [`Submissions::record`] with `details` written in the same transaction (a relayer
    /// job's rows: all are on disk, or none), the entry leased to `owner` for `ms` when given:
    /// no other process follows it before the lease runs out.
    pub(crate) fn record_leased(
        &self,
        entry: &NewEntry,
        lease: Option<(&str, i64)>,
        details: Vec<Statement<'_>>,
    ) -> Result<()> {
        let mut statements = vec![Self::insert_statement(entry, lease)];
        statements.extend(details);
        match self.db.transaction(statements) {
            Ok(()) => Ok(()),
            Err(e) if e.is_constraint() => Err(Error::Conflict(format!(
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
        if from.is_empty() {
            // Nothing moves back to `signed`.
            return Ok(false);
        }
        let placeholders: Vec<String> = (0..from.len()).map(|i| format!("${}", i + 8)).collect();
        let sql = format!(
            "UPDATE submissions SET state = $1, error = $2, updated_at = $3,
                 block = COALESCE($4, block), energy_used = COALESCE($5, energy_used),
                 fee_sun = COALESCE($6, fee_sun)
             WHERE txid = $7 AND state IN ({})",
            placeholders.join(", ")
        );
        let mut values = params![
            state.as_str(),
            error,
            tron::transaction::now_ms(),
            execution.map(|e| e.block),
            execution.map(|e| e.energy_used),
            execution.map(|e| e.fee_sun),
            txid,
        ];
        values.extend(from.iter().map(|s| Value::from(*s)));
        let changed = self.db.execute(&sql, values).map_err(db_error)?;
        Ok(changed == 1)
    }

    /// Fails an entry the node refused, if no node has accepted it yet (still `signed`);
    /// answers whether it moved. One a node accepted is decided by its receipt or expiry.
    pub fn refuse(&self, txid: &str, reason: &str) -> Result<bool> {
        let changed = self
            .db
            .execute(
                "UPDATE submissions SET state = 'failed', error = $2, updated_at = $3
                 WHERE txid = $1 AND state = 'signed'",
                params![txid, reason, tron::transaction::now_ms()],
            )
            .map_err(db_error)?;
        Ok(changed == 1)
    }

    /// Counts a broadcast the node turned away for a passing reason, and when to try again.
    pub(crate) fn defer(&self, txid: &str, retry_at: i64, reason: &str) -> Result<()> {
        self.db
            .execute(
                "UPDATE submissions SET attempts = attempts + 1, retry_at = $2, error = $3,
                     updated_at = $4
                 WHERE txid = $1 AND state IN ('signed', 'broadcast')",
                params![txid, retry_at, reason, tron::transaction::now_ms()],
            )
            .map_err(db_error)?;
        Ok(())
    }

    /// Not to be broadcast again before `retry_at` (a node holds it; a new copy would only
    /// be answered as a duplicate).
    pub fn hold(&self, txid: &str, retry_at: i64) -> Result<()> {
        self.db
            .execute(
                "UPDATE submissions SET retry_at = $2
                 WHERE txid = $1 AND state IN ('signed', 'broadcast')",
                params![txid, retry_at],
            )
            .map_err(db_error)?;
        Ok(())
    }

    pub fn get(&self, txid: &str) -> Result<Option<Entry>> {
        self.db
            .query_one(
                &format!("SELECT {COLUMNS} FROM submissions WHERE txid = $1"),
                params![txid],
            )
            .map_err(db_error)?
            .map(|row| row_to_entry(&row))
            .transpose()
    }

    /// Entries of `purpose` not finished yet, oldest first.
    pub fn unfinished(&self, purpose: Purpose) -> Result<Vec<Entry>> {
        self.db
            .query(
                &format!(
                    "SELECT {COLUMNS} FROM submissions
                     WHERE purpose = $1 AND state IN {OPEN} ORDER BY created_at, txid"
                ),
                params![purpose.as_str()],
            )
            .map_err(db_error)?
            .iter()
            .map(row_to_entry)
            .collect()
    }

    /// Entries of `purpose` not finished yet whose lease is `owner`'s or has run out, oldest
    /// first, each leased to `owner` for `lease_ms` as it is taken: with several processes
    /// on one database, each open entry is followed by one of them, and by another once the
    /// one following it stops renewing (it died). Rows another process is taking at the same
    /// moment are passed over (PostgreSQL's `SKIP LOCKED`), not waited for.
    pub fn claim_unfinished(
        &self,
        purpose: Purpose,
        owner: &str,
        lease_ms: i64,
    ) -> Result<Vec<Entry>> {
        let now = tron::transaction::now_ms();
        let skip_locked = if self.db.is_postgres() {
            "FOR UPDATE SKIP LOCKED"
        } else {
            ""
        };
        let mut entries = self
            .db
            .query(
                &format!(
                    "UPDATE submissions SET lease_owner = $1, lease_until = $2
                     WHERE txid IN (
                         SELECT txid FROM submissions
                         WHERE purpose = $3 AND state IN {OPEN}
                             AND (lease_owner = $1 OR lease_owner IS NULL OR lease_until < $4)
                         {skip_locked})
                     RETURNING {COLUMNS}"
                ),
                params![owner, now + lease_ms, purpose.as_str(), now],
            )
            .map_err(db_error)?
            .iter()
            .map(row_to_entry)
            .collect::<Result<Vec<_>>>()?;
        entries.sort_by(|a, b| (a.created_at, &a.txid).cmp(&(b.created_at, &b.txid)));
        Ok(entries)
    }
}

const COLUMNS: &str = "txid, purpose, reference, signed_hex, expiration, state, error,
    block, energy_used, fee_sun, attempts, retry_at, created_at, updated_at";

fn row_to_entry(row: &Row) -> Result<Entry> {
    let read = || -> std::result::Result<_, DbError> {
        Ok((
            Entry {
                txid: row.text(0)?,
                purpose: Purpose::Deposit,
                reference: row.text(2)?,
                signed_hex: row.text(3)?,
                expiration: row.int(4)?,
                state: State::Signed,
                error: row.opt_text(6)?,
                block: row.opt_int(7)?,
                energy_used: row.opt_int(8)?,
                fee_sun: row.opt_int(9)?,
                attempts: row.int(10)?,
                retry_at: row.int(11)?,
                created_at: row.int(12)?,
                updated_at: row.int(13)?,
            },
            row.text(1)?,
            row.text(5)?,
        ))
    };
    let (entry, purpose, state) = read().map_err(db_error)?;
    Ok(Entry {
        purpose: Purpose::parse(&purpose)?,
        state: State::parse(&state)?,
        ..entry
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::store::sql::testing::{Place, places};

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
        for place in places("entries_survive_a_reopen") {
            entries_survive_a_reopen_on(place);
        }
    }

    fn entries_survive_a_reopen_on(place: Place) {
        {
            let journal = Submissions::on(place.open());
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
        let journal = Submissions::on(place.open());
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
        for place in places("moves_are_compare_and_set") {
            moves_are_compare_and_set_on(Submissions::on(place.open()));
        }
    }

    fn moves_are_compare_and_set_on(journal: Submissions) {
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

    #[test]
    fn each_open_entry_is_followed_by_one_process_until_its_lease_runs_out() {
        for place in places("leases_of_entries") {
            let db = place.open();
            let journal = Submissions::on(db.clone());
            let other = Submissions::on(db);
            journal
                .record_leased(
                    &entry("aa", Purpose::Relay, "p 1"),
                    Some(("one", 60_000)),
                    vec![],
                )
                .unwrap();
            journal.record(&entry("bb", Purpose::Relay, "p 2")).unwrap();
            journal.record(&entry("cc", Purpose::Deposit, "7")).unwrap();
            let claim = |by: &Submissions, owner: &str, ms: i64| -> Vec<String> {
                by.claim_unfinished(Purpose::Relay, owner, ms)
                    .unwrap()
                    .into_iter()
                    .map(|e| e.txid)
                    .collect()
            };
            // The recorder's lease keeps `aa` from the other process; `bb` was free.
            assert_eq!(claim(&other, "two", 60_000), ["bb"]);
            assert_eq!(
                claim(&journal, "one", 1),
                ["aa"],
                "renewed by its owner, for 1 ms"
            );
            std::thread::sleep(std::time::Duration::from_millis(5));
            // `one` stopped renewing (it died): `two` takes `aa` over, oldest first.
            assert_eq!(claim(&other, "two", 60_000), ["aa", "bb"]);
            assert!(journal.advance("aa", State::Failed, None, None).unwrap());
            assert_eq!(
                other
                    .claim_unfinished(Purpose::Relay, "two", 60_000)
                    .unwrap()
                    .len(),
                1,
                "a finished entry is nobody's to follow"
            );
        }
    }
}
