//! The relayer's jobs, in SQLite: one row per withdrawal we signed, written before it is
//! broadcast and updated as it goes (signed → broadcast → confirmed | failed).
//!
//! The row holds the signed transaction, so after a crash the watcher can finish what was
//! started: broadcast it again (same bytes, same txid: the node drops a duplicate) or learn
//! its receipt. A partial unique index allows one live job per (pool, nullifier hash), so
//! not even two server processes on one database can relay a note twice.

use std::path::Path;
use std::sync::Mutex;

use rusqlite::{Connection, OptionalExtension, params};
use serde::Serialize;

use crate::error::{Error, Result};

/// Where a job stands.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum JobState {
    /// Signed and recorded; maybe not broadcast yet.
    Signed,
    /// The node accepted it.
    Broadcast,
    /// In a block, and it succeeded.
    Confirmed,
    /// Refused, reverted or expired. The note may still be unspent.
    Failed,
}

impl JobState {
    pub fn as_str(self) -> &'static str {
        match self {
            JobState::Signed => "signed",
            JobState::Broadcast => "broadcast",
            JobState::Confirmed => "confirmed",
            JobState::Failed => "failed",
        }
    }

    fn parse(text: &str) -> Result<Self> {
        Ok(match text {
            "signed" => JobState::Signed,
            "broadcast" => JobState::Broadcast,
            "confirmed" => JobState::Confirmed,
            "failed" => JobState::Failed,
            other => return Err(Error::Failed(format!("relayer job store: state `{other}`"))),
        })
    }

    pub fn is_finished(self) -> bool {
        matches!(self, JobState::Confirmed | JobState::Failed)
    }
}

/// One relayed withdrawal.
#[derive(Debug, Clone, Serialize)]
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
    pub state: JobState,
    /// The signed transaction's protobuf, hex.
    #[serde(skip)]
    pub signed_hex: String,
    /// ms since the epoch.
    pub expiration: i64,
    pub created_at: i64,
    pub updated_at: i64,
    pub error: Option<String>,
}

pub struct JobStore {
    db: Mutex<Connection>,
}

const SCHEMA: &str = "
CREATE TABLE IF NOT EXISTS relayer_jobs (
    txid            TEXT PRIMARY KEY,
    pool            TEXT NOT NULL,
    denomination    INTEGER NOT NULL,
    nullifier_hash  TEXT NOT NULL,
    recipient       TEXT NOT NULL,
    fee             TEXT NOT NULL,
    state           TEXT NOT NULL,
    signed_hex      TEXT NOT NULL,
    expiration      INTEGER NOT NULL,
    created_at      INTEGER NOT NULL,
    updated_at      INTEGER NOT NULL,
    error           TEXT
);
CREATE UNIQUE INDEX IF NOT EXISTS relayer_jobs_live
    ON relayer_jobs (pool, nullifier_hash) WHERE state != 'failed';
CREATE INDEX IF NOT EXISTS relayer_jobs_unfinished
    ON relayer_jobs (state) WHERE state IN ('signed', 'broadcast');
";

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

    fn init(conn: Connection) -> Result<Self> {
        conn.execute_batch(SCHEMA).map_err(db_error)?;
        Ok(JobStore {
            db: Mutex::new(conn),
        })
    }

    fn db(&self) -> std::sync::MutexGuard<'_, Connection> {
        self.db.lock().unwrap_or_else(|e| e.into_inner())
    }

    /// Records a new job; a live job for the same note is a conflict.
    pub fn insert(&self, job: &Job) -> Result<()> {
        let result = self.db().execute(
            "INSERT INTO relayer_jobs (txid, pool, denomination, nullifier_hash, recipient, fee,
                 state, signed_hex, expiration, created_at, updated_at, error)
             VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11, ?12)",
            params![
                job.txid,
                job.pool,
                job.denomination as i64,
                job.nullifier_hash,
                job.recipient,
                job.fee,
                job.state.as_str(),
                job.signed_hex,
                job.expiration,
                job.created_at,
                job.updated_at,
                job.error,
            ],
        );
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

    pub fn set_state(&self, txid: &str, state: JobState, error: Option<&str>) -> Result<()> {
        self.db()
            .execute(
                "UPDATE relayer_jobs SET state = ?2, error = ?3, updated_at = ?4 WHERE txid = ?1",
                params![txid, state.as_str(), error, tron::transaction::now_ms()],
            )
            .map_err(db_error)?;
        Ok(())
    }

    /// The job that holds this note, unless it failed.
    pub fn live(&self, pool: &str, nullifier_hash: &str) -> Result<Option<Job>> {
        self.db()
            .query_row(
                &format!("{SELECT} WHERE pool = ?1 AND nullifier_hash = ?2 AND state != 'failed'"),
                params![pool, nullifier_hash],
                row_to_job,
            )
            .optional()
            .map_err(db_error)?
            .transpose()
    }

    pub fn get(&self, txid: &str) -> Result<Option<Job>> {
        self.db()
            .query_row(
                &format!("{SELECT} WHERE txid = ?1"),
                params![txid],
                row_to_job,
            )
            .optional()
            .map_err(db_error)?
            .transpose()
    }

    /// Jobs still signed or broadcast, oldest first.
    pub fn unfinished(&self) -> Result<Vec<Job>> {
        let db = self.db();
        let mut statement = db
            .prepare(&format!(
                "{SELECT} WHERE state IN ('signed', 'broadcast') ORDER BY created_at"
            ))
            .map_err(db_error)?;
        let rows = statement
            .query_map([], row_to_job)
            .map_err(db_error)?
            .collect::<std::result::Result<Vec<_>, _>>()
            .map_err(db_error)?;
        rows.into_iter().collect()
    }
}

const SELECT: &str = "SELECT txid, pool, denomination, nullifier_hash, recipient, fee, state,
    signed_hex, expiration, created_at, updated_at, error FROM relayer_jobs";

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
            state: JobState::Signed,
            signed_hex: "0a02".into(),
            expiration: 1,
            created_at: 1,
            updated_at: 1,
            error: None,
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
            store
                .set_state("aa", JobState::Failed, Some("expired"))
                .unwrap();
            // A failed job frees the note for another try.
            store.insert(&job("bb", "0x01")).unwrap();
            store.set_state("bb", JobState::Broadcast, None).unwrap();
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
        #[cfg(unix)]
        {
            use std::os::unix::fs::PermissionsExt;
            let mode = std::fs::metadata(&path).unwrap().permissions().mode();
            assert_eq!(mode & 0o777, 0o600);
        }
    }
}
