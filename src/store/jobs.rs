//! The relayer's jobs, in SQLite: one row per withdrawal we signed, with what the client
//! asked (pool, note, recipient, fee, refund). The transaction itself, its state and its
//! receipt are the submit journal's (`store::journal`): the job and its journal entry are
//! written in one transaction before the broadcast, and a job's `state` is its entry's:
//!
//! ```text
//! signed ──▶ broadcast ──▶ included ──▶ confirmed
//!    │           │            │
//!    └───────────┴────────────┴──────▶ failed
//! ```
//!
//! The journal's partial unique index allows one live entry per (purpose, reference); a
//! relay's reference is its pool and nullifier hash, so not even two server processes on one
//! database can relay a note twice.
//!
//! Each job also has a [`Reservation`] row (`relayer_reservations`): the most it may still
//! draw from the relayer's energy, bandwidth and TRX, and from its pool's sponsor's energy.
//! It counts while the job is `signed` or `broadcast` and stops counting once the job is
//! `included` (the node's figures then carry what it really drew) or `failed` (it drew
//! nothing more): [`JobStore::reserved`] derives the totals from the job rows every time, so
//! a restarted relayer, or another process on the same database, sees them.

use std::collections::BTreeMap;
use std::path::Path;

use serde::{Deserialize, Serialize};

use crate::error::{Error, Result, StoreError};
use crate::store::journal::{NewEntry, Submissions};
use crate::store::sql::{Db, DbError, Row, Value, params};

/// Where a job stands: its journal entry's state.
pub use crate::store::journal::State as JobState;

/// One relayed withdrawal.
#[derive(Debug, Clone, Serialize, Deserialize, utoipa::ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct Job {
    pub txid: String,
    /// The pool's address (base58).
    pub pool: String,
    pub denomination: u64,
    /// `0x` + 64 hex.
    #[schema(pattern = "^0x[0-9a-fA-F]{64}$")]
    pub nullifier_hash: String,
    pub recipient: String,
    /// USDT base units.
    #[schema(pattern = "^[0-9]+$")]
    pub fee: String,
    /// Sun sent along to the recipient.
    #[serde(default)]
    #[schema(pattern = "^[0-9]+$")]
    pub refund: String,
    pub state: JobState,
    /// ms since the epoch.
    pub expiration: i64,
    /// When it was signed, ms: the journal entry's time (the job row keeps only what the
    /// journal does not).
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
}

/// What one job may still draw before it is in a block: its ceilings, not its expectations.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Reservation {
    /// The relayer's staked energy it may use (its share of the energy ceiling).
    pub energy: i64,
    /// Bytes charged to the relayer's staked bandwidth (when that is where they go).
    pub staked_bandwidth: i64,
    /// Bytes charged to the free daily allowance (when that is where they go).
    pub free_bandwidth: i64,
    /// Sun it may take from the balance: fee limit, refund, and its bytes' burn.
    pub trx_sun: i64,
    /// The pool's sponsor (base58) the relayer counted on, if any.
    pub sponsor: Option<String>,
    /// The sponsor's energy the relayer counted on for it.
    pub sponsor_energy: i64,
}

/// The totals of the reservations of unfinished jobs.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize, Deserialize, utoipa::ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct Reserved {
    /// Jobs that hold a reservation (`signed` or `broadcast`).
    pub jobs: u64,
    pub energy: i64,
    pub staked_bandwidth: i64,
    pub free_bandwidth: i64,
    pub trx_sun: i64,
}

/// The states in which a job's reservation counts: not yet in a block.
const RESERVING: &str = "('signed', 'broadcast')";

/// The relayer's jobs, sharing one connection with the journal their transactions are in.
pub struct JobStore {
    journal: Submissions,
}

fn db_error(e: DbError) -> Error {
    e.at("relayer job store")
}

impl JobStore {
    /// Opens (creating) the network's database at `path`.
    pub fn open(path: &Path) -> Result<Self> {
        Ok(Self::over(Submissions::open(path)?))
    }

    /// A database that lives as long as the process (a throwaway in-process devnet).
    pub fn in_memory() -> Result<Self> {
        Ok(Self::over(Submissions::in_memory()?))
    }

    /// The jobs beside `journal`, in its database; the tables are the database's
    /// (`store::schema`, `store::pg`), made or migrated when it opened.
    pub(crate) fn over(journal: Submissions) -> Self {
        JobStore { journal }
    }

    /// The jobs in `db`, whichever engine it is.
    pub fn on(db: Db) -> Self {
        Self::over(Submissions::on(db))
    }

    /// The submit journal the jobs' transactions are in (the same connection).
    pub fn journal(&self) -> &Submissions {
        &self.journal
    }

    /// The database both live in.
    pub fn db(&self) -> &Db {
        self.journal.db()
    }

    /// How many jobs are in each state (for `GET /metrics`).
    pub(crate) fn count_by_state(&self) -> Result<Vec<(String, u64)>> {
        self.db()
            .query(
                "SELECT s.state, COUNT(*) FROM relayer_jobs j JOIN submissions s
                     ON s.txid = j.txid
                 GROUP BY s.state ORDER BY s.state",
                Vec::new(),
            )
            .and_then(|rows| {
                rows.iter()
                    .map(|row| Ok((row.text(0)?, row.int(1)?.max(0) as u64)))
                    .collect()
            })
            .map_err(db_error)
    }

    /// Whether the database takes writes now: for SQLite a write transaction is begun (which
    /// takes the write lock, and is refused on a read-only file) and rolled back; for
    /// PostgreSQL a connection answers a query. Nothing is written, so a readiness probe may
    /// ask as often as it likes.
    pub(crate) fn check_writable(&self) -> Result<()> {
        match self.db() {
            Db::Sqlite(shared) => shared.with(|db| {
                let tx = db
                    .transaction_with_behavior(rusqlite::TransactionBehavior::Immediate)
                    .map_err(|e| db_error(e.into()))?;
                tx.rollback().map_err(|e| db_error(e.into()))
            }),
            db @ Db::Postgres(_) => db
                .query(
                    "SELECT CASE WHEN pg_is_in_recovery() THEN 1 ELSE 0 END",
                    Vec::new(),
                )
                .map_err(db_error)
                .and_then(|rows| match rows.first().map(|r| r.int(0)) {
                    Some(Ok(0)) => Ok(()),
                    _ => Err(Error::Store(StoreError::Unreachable {
                        what: "relayer job store".into(),
                        detail: "the server is a read-only standby".into(),
                    })),
                }),
        }
    }

    /// Records a new job with its journal entry (state `signed`) and its reservation,
    /// together; a live job for the same note is a conflict that names it. The entry is
    /// leased to `owner` for `lease_ms` when given: the process about to broadcast it.
    pub fn insert(
        &self,
        job: &Job,
        reservation: &Reservation,
        entry: &NewEntry,
        lease: Option<(&str, i64)>,
    ) -> Result<()> {
        if entry.txid != job.txid {
            return Err(Error::Failed(format!(
                "relayer job store: job {} is not transaction {}",
                job.txid, entry.txid
            )));
        }
        let details = vec![
            (
                "INSERT INTO relayer_jobs (txid, pool, denomination, nullifier_hash, recipient,
                     fee, refund)
                 VALUES ($1, $2, $3, $4, $5, $6, $7)",
                params![
                    job.txid.as_str(),
                    job.pool.as_str(),
                    job.denomination as i64,
                    job.nullifier_hash.as_str(),
                    job.recipient.as_str(),
                    job.fee.as_str(),
                    job.refund.as_str(),
                ],
            ),
            (
                "INSERT INTO relayer_reservations (txid, energy, staked_bandwidth,
                     free_bandwidth, trx_sun, sponsor, sponsor_energy)
                 VALUES ($1, $2, $3, $4, $5, $6, $7)",
                params![
                    job.txid.as_str(),
                    reservation.energy,
                    reservation.staked_bandwidth,
                    reservation.free_bandwidth,
                    reservation.trx_sun,
                    reservation.sponsor.as_deref(),
                    reservation.sponsor_energy,
                ],
            ),
        ];
        match self.journal.record_leased(entry, lease, details) {
            Err(Error::Conflict(_)) => {
                // Another request (here or on another replica) recorded this note first:
                // name its transaction, so every copy of one relay answers with one txid.
                let holder = self.live(&job.pool, &job.nullifier_hash)?;
                Err(Error::Conflict(match holder {
                    Some(held) => format!(
                        "nullifier hash {} is already being relayed: transaction {} ({})",
                        job.nullifier_hash,
                        held.txid,
                        held.state.as_str()
                    ),
                    None => format!(
                        "nullifier hash {} is already being relayed",
                        job.nullifier_hash
                    ),
                }))
            }
            other => other,
        }
    }

    /// What unfinished jobs may still draw from the relayer, summed from their rows.
    pub fn reserved(&self) -> Result<Reserved> {
        let row = self
            .db()
            .query_one(
                &format!(
                    "SELECT COUNT(*), CAST(COALESCE(SUM(r.energy), 0) AS BIGINT),
                         CAST(COALESCE(SUM(r.staked_bandwidth), 0) AS BIGINT),
                         CAST(COALESCE(SUM(r.free_bandwidth), 0) AS BIGINT),
                         CAST(COALESCE(SUM(r.trx_sun), 0) AS BIGINT)
                     FROM relayer_reservations r JOIN submissions s ON s.txid = r.txid
                     WHERE s.state IN {RESERVING}"
                ),
                Vec::new(),
            )
            .map_err(db_error)?;
        let Some(row) = row else {
            return Ok(Reserved::default());
        };
        (|| {
            Ok(Reserved {
                jobs: row.int(0)?.max(0) as u64,
                energy: row.int(1)?,
                staked_bandwidth: row.int(2)?,
                free_bandwidth: row.int(3)?,
                trx_sun: row.int(4)?,
            })
        })()
        .map_err(db_error)
    }

    /// The energy of each pool sponsor (base58) that unfinished jobs count on.
    pub(crate) fn reserved_sponsor_energy(&self) -> Result<BTreeMap<String, i64>> {
        self.db()
            .query(
                &format!(
                    "SELECT r.sponsor, CAST(SUM(r.sponsor_energy) AS BIGINT)
                     FROM relayer_reservations r JOIN submissions s ON s.txid = r.txid
                     WHERE r.sponsor IS NOT NULL AND s.state IN {RESERVING}
                     GROUP BY r.sponsor"
                ),
                Vec::new(),
            )
            .and_then(|rows| {
                rows.iter()
                    .map(|row| Ok((row.text(0)?, row.int(1)?)))
                    .collect()
            })
            .map_err(db_error)
    }

    /// The job that holds this note, unless it failed.
    pub fn live(&self, pool: &str, nullifier_hash: &str) -> Result<Option<Job>> {
        self.one(
            &format!(
                "{SELECT} WHERE j.pool = $1 AND j.nullifier_hash = $2 AND s.state <> 'failed'"
            ),
            params![pool, nullifier_hash],
        )
    }

    pub fn get(&self, txid: &str) -> Result<Option<Job>> {
        self.one(&format!("{SELECT} WHERE j.txid = $1"), params![txid])
    }

    /// The newest job for a nullifier hash, in any pool: a live one if there is one.
    pub(crate) fn by_nullifier(&self, nullifier_hash: &str) -> Result<Option<Job>> {
        self.one(
            &format!(
                "{SELECT} WHERE j.nullifier_hash = $1
                 ORDER BY CASE WHEN s.state <> 'failed' THEN 1 ELSE 0 END DESC,
                     s.created_at DESC LIMIT 1"
            ),
            params![nullifier_hash],
        )
    }

    fn one(&self, sql: &str, values: Vec<Value>) -> Result<Option<Job>> {
        self.db()
            .query_one(sql, values)
            .map_err(db_error)?
            .map(|row| row_to_job(&row))
            .transpose()
    }

    /// Jobs not finished yet, oldest first.
    pub fn unfinished(&self) -> Result<Vec<Job>> {
        self.db()
            .query(
                &format!(
                    "{SELECT} WHERE s.state IN ('signed', 'broadcast', 'included')
                     ORDER BY s.created_at, s.txid"
                ),
                Vec::new(),
            )
            .map_err(db_error)?
            .iter()
            .map(row_to_job)
            .collect()
    }
}

const SELECT: &str = "SELECT j.txid, j.pool, j.denomination, j.nullifier_hash, j.recipient,
    j.fee, s.state, s.expiration, s.created_at, s.updated_at, s.error, j.refund, s.block,
    s.energy_used, s.fee_sun, s.attempts
    FROM relayer_jobs j JOIN submissions s ON s.txid = j.txid";

fn row_to_job(row: &Row) -> Result<Job> {
    let read = || -> std::result::Result<_, DbError> {
        Ok((
            Job {
                txid: row.text(0)?,
                pool: row.text(1)?,
                denomination: row.int(2)? as u64,
                nullifier_hash: row.text(3)?,
                recipient: row.text(4)?,
                fee: row.text(5)?,
                state: JobState::Signed,
                expiration: row.int(7)?,
                created_at: row.int(8)?,
                updated_at: row.int(9)?,
                error: row.opt_text(10)?,
                refund: row.text(11)?,
                block: row.opt_int(12)?,
                energy_used: row.opt_int(13)?,
                fee_sun: row.opt_int(14)?,
                attempts: row.int(15)?,
            },
            row.text(6)?,
        ))
    };
    let (job, state) = read().map_err(db_error)?;
    Ok(Job {
        state: JobState::parse(&state)?,
        ..job
    })
}

#[cfg(test)]
pub(crate) mod tests {
    use super::*;
    use crate::store::journal::{Execution, Purpose};
    use crate::store::sql::testing::{Place, places};

    /// A relay job for `nullifier` in pool `TPool`, and its journal entry.
    pub(crate) fn job(txid: &str, nullifier: &str) -> (Job, NewEntry) {
        let job = Job {
            txid: txid.into(),
            pool: "TPool".into(),
            denomination: 100,
            nullifier_hash: nullifier.into(),
            recipient: "TRecipient".into(),
            fee: "1000000".into(),
            refund: "0".into(),
            state: JobState::Signed,
            expiration: 1,
            created_at: 1,
            updated_at: 1,
            error: None,
            block: None,
            energy_used: None,
            fee_sun: None,
            attempts: 0,
        };
        let entry = NewEntry {
            txid: txid.into(),
            purpose: Purpose::Relay,
            reference: format!("TPool {nullifier}"),
            signed_hex: "0a02".into(),
            expiration: 1,
        };
        (job, entry)
    }

    fn insert(store: &JobStore, txid: &str, nullifier: &str) -> Result<()> {
        let (job, entry) = job(txid, nullifier);
        store.insert(&job, &Reservation::default(), &entry, None)
    }

    #[test]
    fn one_live_job_per_note_and_jobs_survive_a_reopen() {
        for place in places("jobs_survive_a_reopen") {
            one_live_job_per_note_and_jobs_survive_a_reopen_on(place);
        }
    }

    fn one_live_job_per_note_and_jobs_survive_a_reopen_on(place: Place) {
        {
            let store = JobStore::on(place.open());
            insert(&store, "aa", "0x01").unwrap();
            let again = insert(&store, "bb", "0x01").unwrap_err();
            assert_eq!(again.http_status(), 409, "{again}");
            assert!(
                again
                    .to_string()
                    .contains("already being relayed: transaction aa (signed)"),
                "the conflict names the job that holds the note: {again}"
            );
            assert!(store.get("bb").unwrap().is_none(), "nothing half-written");
            assert!(
                store
                    .journal()
                    .advance("aa", JobState::Failed, Some("expired"), None)
                    .unwrap()
            );
            // A failed job frees the note for another try.
            insert(&store, "bb", "0x01").unwrap();
            assert!(
                store
                    .journal()
                    .advance("bb", JobState::Broadcast, None, None)
                    .unwrap()
            );
        }
        let store = JobStore::on(place.open());
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
        assert_eq!(
            store.count_by_state().unwrap(),
            vec![("broadcast".to_owned(), 1), ("failed".to_owned(), 1)]
        );
        #[cfg(unix)]
        if let Some(path) = place.sqlite_path() {
            use std::os::unix::fs::PermissionsExt;
            let mode = std::fs::metadata(path).unwrap().permissions().mode();
            assert_eq!(mode & 0o777, 0o600);
        }
    }

    #[test]
    fn a_job_shows_its_journal_entry() {
        for place in places("a_job_shows_its_journal_entry") {
            a_job_shows_its_journal_entry_on(JobStore::on(place.open()));
        }
    }

    fn a_job_shows_its_journal_entry_on(store: JobStore) {
        insert(&store, "aa", "0x01").unwrap();
        let receipt = Execution {
            block: 7,
            energy_used: 330_000,
            fee_sun: 33_000_000,
        };
        let journal = store.journal();
        assert!(
            journal
                .advance("aa", JobState::Included, None, Some(receipt))
                .unwrap()
        );
        assert!(
            journal
                .advance("aa", JobState::Confirmed, None, None)
                .unwrap()
        );
        let done = store.get("aa").unwrap().unwrap();
        assert_eq!(done.state, JobState::Confirmed);
        assert_eq!(
            (done.block, done.energy_used, done.fee_sun),
            (Some(7), Some(330_000), Some(33_000_000))
        );
        assert!(store.unfinished().unwrap().is_empty());

        insert(&store, "bb", "0x02").unwrap();
        journal.defer("bb", 5_000, "SERVER_BUSY").unwrap();
        journal.defer("bb", 9_000, "SERVER_BUSY").unwrap();
        let deferred = store.get("bb").unwrap().unwrap();
        assert_eq!(deferred.attempts, 2);
        assert_eq!(deferred.state, JobState::Signed);
        assert_eq!(deferred.error.as_deref(), Some("SERVER_BUSY"));
    }

    #[test]
    fn reservations_count_until_the_job_is_in_a_block_or_failed() {
        for place in places("reservations_count") {
            reservations_count_until_the_job_is_in_a_block_or_failed_on(place);
        }
    }

    fn reservations_count_until_the_job_is_in_a_block_or_failed_on(place: Place) {
        let reservation = |energy, sponsor: Option<&str>| Reservation {
            energy,
            staked_bandwidth: 0,
            free_bandwidth: 0,
            trx_sun: energy * 100 + 800_000,
            sponsor: sponsor.map(str::to_owned),
            sponsor_energy: if sponsor.is_some() { 200_000 } else { 0 },
        };
        {
            let store = JobStore::on(place.open());
            assert_eq!(store.reserved().unwrap(), Reserved::default());
            for (txid, nullifier, energy, sponsor) in [
                ("aa", "0x01", 473_000, None),
                ("bb", "0x02", 273_000, Some("TSponsor")),
                ("cc", "0x03", 273_000, Some("TSponsor")),
            ] {
                let (job, entry) = job(txid, nullifier);
                store
                    .insert(&job, &reservation(energy, sponsor), &entry, None)
                    .unwrap();
            }
            let journal = store.journal();
            assert!(
                journal
                    .advance("bb", JobState::Broadcast, None, None)
                    .unwrap()
            );
            // Included: the node's figures now carry what it drew; failed: it draws no more.
            assert!(
                journal
                    .advance("cc", JobState::Included, None, None)
                    .unwrap()
            );
        }
        // Reopened, as a restarted relayer: the unfinished jobs still count.
        let store = JobStore::on(place.open());
        assert_eq!(
            store.reserved().unwrap(),
            Reserved {
                jobs: 2,
                energy: 746_000,
                staked_bandwidth: 0,
                free_bandwidth: 0,
                trx_sun: 74_600_000 + 1_600_000,
            }
        );
        assert_eq!(
            store.reserved_sponsor_energy().unwrap(),
            BTreeMap::from([("TSponsor".to_owned(), 200_000)])
        );
        assert!(
            store
                .journal()
                .advance("aa", JobState::Failed, Some("expired"), None)
                .unwrap()
        );
        assert_eq!(store.reserved().unwrap().jobs, 1);
        assert_eq!(store.reserved().unwrap().energy, 273_000);
        assert!(
            store
                .journal()
                .advance("bb", JobState::Included, None, None)
                .unwrap()
        );
        assert_eq!(store.reserved().unwrap(), Reserved::default());
        assert!(store.reserved_sponsor_energy().unwrap().is_empty());
    }
}
