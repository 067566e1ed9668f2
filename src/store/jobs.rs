//! The relayer's jobs, in SQLite: one row per withdrawal we signed, written before it is
//! broadcast and moved along as it goes:
//!
//! ```text
//! signed ──▶ broadcast ──▶ included ──▶ confirmed
//!    │           │            │
//!    └───────────┴────────────┴──────▶ failed
//! ```
//!
//! `included` is in a block that is not solidified yet; `confirmed` is solidified and
//! succeeded; `failed` is refused, expired, or executed and failed (its burned energy
//! recorded). Every move is a compare-and-set from the states it may leave, so a slow task
//! can never move a job back (a first broadcast answering after the watcher saw the receipt).
//!
//! The row holds the signed transaction, so after a crash the watcher can finish what was
//! started: broadcast it again (same bytes, same txid: the node drops a duplicate) or learn
//! its receipt. A partial unique index allows one live job per (pool, nullifier hash), so
//! not even two server processes on one database can relay a note twice.

use std::path::Path;

use rusqlite::{Connection, OptionalExtension, params};
use serde::{Deserialize, Serialize};

use crate::error::{Error, Result};

/// Where a job stands.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum JobState {
    /// Signed and recorded; maybe not broadcast yet.
    Signed,
    /// The node accepted it.
    Broadcast,
    /// In a block that is not solidified yet.
    Included,
    /// In a solidified block, and it succeeded.
    Confirmed,
    /// Refused, expired, or failed on chain. The note may still be unspent.
    Failed,
}

impl JobState {
    pub fn as_str(self) -> &'static str {
        match self {
            JobState::Signed => "signed",
            JobState::Broadcast => "broadcast",
            JobState::Included => "included",
            JobState::Confirmed => "confirmed",
            JobState::Failed => "failed",
        }
    }

    fn parse(text: &str) -> Result<Self> {
        Ok(match text {
            "signed" => JobState::Signed,
            "broadcast" => JobState::Broadcast,
            "included" => JobState::Included,
            "confirmed" => JobState::Confirmed,
            "failed" => JobState::Failed,
            other => return Err(Error::Failed(format!("relayer job store: state `{other}`"))),
        })
    }

    pub fn is_finished(self) -> bool {
        matches!(self, JobState::Confirmed | JobState::Failed)
    }

    /// The states a job may move to this one from.
    fn predecessors(self) -> &'static [JobState] {
        use JobState::*;
        match self {
            Signed => &[],
            Broadcast => &[Signed],
            Included => &[Signed, Broadcast],
            Confirmed => &[Signed, Broadcast, Included],
            Failed => &[Signed, Broadcast, Included],
        }
    }
}

/// One relayed withdrawal.
#[derive(Debug, Clone, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct Job {
    pub txid: String,
    /// The pool's address (base58).
    pub pool: String,
    pub denomination: u64,
    /// `0x` + 64 hex.
    pub nullifier_hash: String,
    pub recipient: String,
    /// USDT base units.
    pub fee: String,
    /// Sun sent along to the recipient.
    #[serde(default)]
    pub refund: String,
    pub state: JobState,
    /// The signed transaction's protobuf, hex.
    #[serde(skip)]
    pub signed_hex: String,
    /// ms since the epoch.
    pub expiration: i64,
    pub created_at: i64,
    pub updated_at: i64,
    pub error: Option<String>,
    /// The block it is in, once it is.
    #[serde(default)]
    pub block: Option<i64>,
    /// Energy it used (all of its fee limit for `OUT_OF_ENERGY` or `OUT_OF_TIME`).
    #[serde(default)]
    pub energy_used: Option<i64>,
    /// Sun it burned.
    #[serde(default)]
    pub fee_sun: Option<i64>,
    /// Broadcasts the node turned away for a passing reason (`SERVER_BUSY`).
    #[serde(default)]
    pub attempts: i64,
    /// Not broadcast again before this time (ms since the epoch).
    #[serde(skip)]
    pub retry_at: i64,
}

/// What a receipt says, recorded with the move it causes.
#[derive(Debug, Clone, Copy, Default)]
pub struct Execution {
    pub block: i64,
    pub energy_used: i64,
    pub fee_sun: i64,
}

pub struct JobStore {
    db: crate::store::db::Shared,
}

fn db_error(e: rusqlite::Error) -> Error {
    Error::Failed(format!("relayer job store: {e}"))
}

impl JobStore {
    /// Opens (creating) the network's database at `path`.
    pub fn open(path: &Path) -> Result<Self> {
        Self::init(crate::store::db::open(path, "the relayer's jobs")?)
    }

    /// A database that lives as long as the process (a throwaway in-process devnet).
    pub fn in_memory() -> Result<Self> {
        Self::init(crate::store::db::in_memory("the relayer's jobs")?)
    }

    /// The table is the database's (`store::schema`), made or migrated when it opened.
    fn init(conn: Connection) -> Result<Self> {
        Ok(JobStore {
            db: crate::store::db::Shared::new(conn),
        })
    }

    /// How many jobs are in each state (for `GET /metrics`).
    pub fn count_by_state(&self) -> Result<Vec<(String, u64)>> {
        self.db.with(|db| {
            let mut statement = db
                .prepare("SELECT state, COUNT(*) FROM relayer_jobs GROUP BY state")
                .map_err(db_error)?;
            let rows = statement
                .query_map([], |row| {
                    Ok((row.get::<_, String>(0)?, row.get::<_, i64>(1)?))
                })
                .map_err(db_error)?;
            rows.map(|row| {
                row.map(|(state, n)| (state, n.max(0) as u64))
                    .map_err(db_error)
            })
            .collect()
        })
    }

    /// Whether the database takes writes now: a write transaction is begun (which takes the
    /// write lock, and is refused on a read-only file) and rolled back, so nothing is written
    /// and nothing is synced: a readiness probe may ask as often as it likes.
    pub fn check_writable(&self) -> Result<()> {
        self.db.with(|db| {
            let tx = db
                .transaction_with_behavior(rusqlite::TransactionBehavior::Immediate)
                .map_err(db_error)?;
            tx.rollback().map_err(db_error)
        })
    }

    /// Records a new job; a live job for the same note is a conflict.
    pub fn insert(&self, job: &Job) -> Result<()> {
        let result = self.db.with(|db| {
            db.execute(
            "INSERT INTO relayer_jobs (txid, pool, denomination, nullifier_hash, recipient, fee,
                 refund, state, signed_hex, expiration, created_at, updated_at, error)
             VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11, ?12, ?13)",
            params![
                job.txid,
                job.pool,
                job.denomination as i64,
                job.nullifier_hash,
                job.recipient,
                job.fee,
                job.refund,
                job.state.as_str(),
                job.signed_hex,
                job.expiration,
                job.created_at,
                job.updated_at,
                job.error,
            ],
        )
        });
        match result {
            Ok(_) => Ok(()),
            Err(rusqlite::Error::SqliteFailure(e, _))
                if e.code == rusqlite::ErrorCode::ConstraintViolation =>
            {
                Err(Error::Conflict(format!(
                    "nullifier hash {} is already being relayed",
                    job.nullifier_hash
                )))
            }
            Err(e) => Err(db_error(e)),
        }
    }

    /// Moves a job to `state` if it is in a state that may move there; answers whether it
    /// moved. A receipt's figures are recorded with the move.
    pub fn advance(
        &self,
        txid: &str,
        state: JobState,
        error: Option<&str>,
        execution: Option<Execution>,
    ) -> Result<bool> {
        let from: Vec<&str> = state.predecessors().iter().map(|s| s.as_str()).collect();
        let placeholders = vec!["?"; from.len()].join(", ");
        let sql = format!(
            "UPDATE relayer_jobs SET state = ?, error = ?, updated_at = ?,
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

    /// Counts a broadcast the node turned away for a passing reason, and when to try again.
    pub fn defer(&self, txid: &str, retry_at: i64, reason: &str) -> Result<()> {
        self.db
            .with(|db| {
                db.execute(
                    "UPDATE relayer_jobs SET attempts = attempts + 1, retry_at = ?2, error = ?3,
                         updated_at = ?4
                     WHERE txid = ?1 AND state IN ('signed', 'broadcast')",
                    params![txid, retry_at, reason, tron::transaction::now_ms()],
                )
            })
            .map_err(db_error)?;
        Ok(())
    }

    /// The job that holds this note, unless it failed.
    pub fn live(&self, pool: &str, nullifier_hash: &str) -> Result<Option<Job>> {
        self.one(
            &format!("{SELECT} WHERE pool = ?1 AND nullifier_hash = ?2 AND state != 'failed'"),
            params![pool, nullifier_hash],
        )
    }

    pub fn get(&self, txid: &str) -> Result<Option<Job>> {
        self.one(&format!("{SELECT} WHERE txid = ?1"), params![txid])
    }

    /// The newest job for a nullifier hash, in any pool: a live one if there is one.
    pub fn by_nullifier(&self, nullifier_hash: &str) -> Result<Option<Job>> {
        self.one(
            &format!(
                "{SELECT} WHERE nullifier_hash = ?1
                 ORDER BY state != 'failed' DESC, created_at DESC LIMIT 1"
            ),
            params![nullifier_hash],
        )
    }

    fn one(&self, sql: &str, values: impl rusqlite::Params) -> Result<Option<Job>> {
        self.db
            .with(|db| db.query_row(sql, values, row_to_job).optional())
            .map_err(db_error)?
            .transpose()
    }

    /// Jobs not finished yet, oldest first.
    pub fn unfinished(&self) -> Result<Vec<Job>> {
        self.db.with(|db| {
            let mut statement = db
            .prepare(&format!(
                "{SELECT} WHERE state IN ('signed', 'broadcast', 'included') ORDER BY created_at"
            ))
            .map_err(db_error)?;
            let rows = statement
                .query_map([], row_to_job)
                .map_err(db_error)?
                .collect::<std::result::Result<Vec<_>, _>>()
                .map_err(db_error)?;
            rows.into_iter().collect()
        })
    }
}

const SELECT: &str = "SELECT txid, pool, denomination, nullifier_hash, recipient, fee, state,
    signed_hex, expiration, created_at, updated_at, error, refund, block, energy_used, fee_sun,
    attempts, retry_at FROM relayer_jobs";

fn row_to_job(row: &rusqlite::Row<'_>) -> rusqlite::Result<Result<Job>> {
    let state: String = row.get(6)?;
    let denomination: i64 = row.get(2)?;
    let job = Job {
        txid: row.get(0)?,
        pool: row.get(1)?,
        denomination: denomination as u64,
        nullifier_hash: row.get(3)?,
        recipient: row.get(4)?,
        fee: row.get(5)?,
        state: JobState::Signed,
        signed_hex: row.get(7)?,
        expiration: row.get(8)?,
        created_at: row.get(9)?,
        updated_at: row.get(10)?,
        error: row.get(11)?,
        refund: row.get(12)?,
        block: row.get(13)?,
        energy_used: row.get(14)?,
        fee_sun: row.get(15)?,
        attempts: row.get(16)?,
        retry_at: row.get(17)?,
    };
    Ok(JobState::parse(&state).map(|state| Job { state, ..job }))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn job(txid: &str, nullifier: &str) -> Job {
        Job {
            txid: txid.into(),
            pool: "TPool".into(),
            denomination: 100,
            nullifier_hash: nullifier.into(),
            recipient: "TRecipient".into(),
            fee: "1000000".into(),
            refund: "0".into(),
            state: JobState::Signed,
            signed_hex: "0a02".into(),
            expiration: 1,
            created_at: 1,
            updated_at: 1,
            error: None,
            block: None,
            energy_used: None,
            fee_sun: None,
            attempts: 0,
            retry_at: 0,
        }
    }

    #[test]
    fn one_live_job_per_note_and_jobs_survive_a_reopen() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("devnet/tronpool.sqlite3");
        {
            let store = JobStore::open(&path).unwrap();
            store.insert(&job("aa", "0x01")).unwrap();
            let again = store.insert(&job("bb", "0x01")).unwrap_err();
            assert_eq!(again.http_status(), 409, "{again}");
            assert!(
                store
                    .advance("aa", JobState::Failed, Some("expired"), None)
                    .unwrap()
            );
            // A failed job frees the note for another try.
            store.insert(&job("bb", "0x01")).unwrap();
            assert!(
                store
                    .advance("bb", JobState::Broadcast, None, None)
                    .unwrap()
            );
        }
        let store = JobStore::open(&path).unwrap();
        let unfinished = store.unfinished().unwrap();
        assert_eq!(unfinished.len(), 1);
        assert_eq!(unfinished[0].txid, "bb");
        assert_eq!(unfinished[0].state, JobState::Broadcast);
        assert_eq!(
            store.get("aa").unwrap().unwrap().error.as_deref(),
            Some("expired")
        );
        assert_eq!(store.live("TPool", "0x01").unwrap().unwrap().txid, "bb");
        assert_eq!(store.by_nullifier("0x01").unwrap().unwrap().txid, "bb");
        assert!(store.by_nullifier("0x02").unwrap().is_none());
        #[cfg(unix)]
        {
            use std::os::unix::fs::PermissionsExt;
            let mode = std::fs::metadata(&path).unwrap().permissions().mode();
            assert_eq!(mode & 0o777, 0o600);
        }
    }

    #[test]
    fn moves_are_compare_and_set_and_never_go_back() {
        let store = JobStore::in_memory().unwrap();
        store.insert(&job("aa", "0x01")).unwrap();
        let receipt = Execution {
            block: 7,
            energy_used: 330_000,
            fee_sun: 33_000_000,
        };
        assert!(
            store
                .advance("aa", JobState::Included, None, Some(receipt))
                .unwrap()
        );
        // A first broadcast that answers late finds the job past it: no move back.
        assert!(
            !store
                .advance("aa", JobState::Broadcast, None, None)
                .unwrap()
        );
        assert!(
            store
                .advance("aa", JobState::Confirmed, None, None)
                .unwrap()
        );
        // Finished is final, whatever answers later.
        for late in [JobState::Failed, JobState::Included, JobState::Signed] {
            assert!(!store.advance("aa", late, Some("late"), None).unwrap());
        }
        let done = store.get("aa").unwrap().unwrap();
        assert_eq!(done.state, JobState::Confirmed);
        assert_eq!(
            (done.block, done.energy_used, done.fee_sun),
            (Some(7), Some(330_000), Some(33_000_000))
        );
        assert_eq!(done.error, None);
        assert!(store.unfinished().unwrap().is_empty());

        store.insert(&job("bb", "0x02")).unwrap();
        store.defer("bb", 5_000, "SERVER_BUSY").unwrap();
        store.defer("bb", 9_000, "SERVER_BUSY").unwrap();
        let deferred = store.get("bb").unwrap().unwrap();
        assert_eq!((deferred.attempts, deferred.retry_at), (2, 9_000));
        assert_eq!(deferred.state, JobState::Signed);
    }
}
