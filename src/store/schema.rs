//! The network database's schema, as numbered migrations: notes, their history, the tree
//! caches and the relayer's jobs live in one SQLite file, and `PRAGMA user_version` says which
//! migrations it has had. Notes are money: a schema change is a new migration here, run in a
//! transaction on open, tested from a database made by the release before it; an existing
//! migration never changes.
//!
//! Version 0 is a database made before versions existed (the first release): its tables are
//! exactly what migration 1 creates, and `CREATE … IF NOT EXISTS` lets it adopt them as they
//! are.

use rusqlite::{Connection, Transaction};

use crate::error::{Result, StoreError};

/// One step: what it does, and the change.
pub(crate) struct Migration {
    pub what: &'static str,
    pub apply: fn(&Transaction<'_>) -> rusqlite::Result<()>,
}

/// Every migration, oldest first: a database at version N has had the first N.
pub(crate) const MIGRATIONS: &[Migration] = &[
    Migration {
        what: "notes and their history, tree caches, relayer jobs (the first release)",
        apply: first_release,
    },
    Migration {
        what: "relayer jobs: refund, block, energy, burn and retries; the open-jobs index \
               covers `included`",
        apply: relayer_job_receipts,
    },
    Migration {
        what: "each pool's withdrawals (nullifier hash, txid, block, time, recipient, relayer, \
               fee) and its block-scan cursor, beside the cached leaves",
        apply: pool_withdrawals,
    },
    Migration {
        what: "notes from a mnemonic: each note's seed and index, the next index per seed and pool",
        apply: seed_indices,
    },
    Migration {
        what: "the submit journal: every transaction we sign before it is broadcast (deposits, \
               relays, deployments); relayer jobs keep their own fields and take their \
               transaction, state and receipt from it",
        apply: submit_journal,
    },
    Migration {
        what: "relayer reservations: what each relayed transaction may still draw (energy, \
               bandwidth, TRX, its pool's sponsor's energy) while it is signed or broadcast; \
               jobs recorded before this count nothing (they expire within minutes)",
        apply: relayer_reservations,
    },
    Migration {
        what: "relayer jobs keep only what the journal does not: their creation time is the \
               journal's",
        apply: relayer_jobs_without_times,
    },
    Migration {
        what: "tree caches keep their nodes in pieces of 256 a level, and a sync rewrites only \
               the pieces it changed (the whole-tree snapshots are dropped: the next load \
               rebuilds them from the cached leaves once)",
        apply: tree_node_chunks,
    },
    Migration {
        what: "tree caches find a commitment's leaf by an index, not by reading every leaf of \
               the pool",
        apply: tree_leaf_commitments,
    },
    Migration {
        what: "what replicas share on PostgreSQL, kept in SQLite too so both run one SQL: a \
               lease on each journal entry (which process follows it), rate budgets kept in \
               the database, named leases (who collects fees, who batches), and what the \
               batcher spent against its daily budget",
        apply: shared_state,
    },
];

/// The version a database has once every migration ran.
pub fn latest() -> i64 {
    MIGRATIONS.len() as i64
}

fn first_release(tx: &Transaction<'_>) -> rusqlite::Result<()> {
    tx.execute_batch(
        "
CREATE TABLE IF NOT EXISTS notes (
    id                  INTEGER PRIMARY KEY AUTOINCREMENT,
    note                TEXT NOT NULL,
    denomination        INTEGER NOT NULL,
    pool                TEXT NOT NULL,
    commitment          TEXT NOT NULL UNIQUE,
    nullifier_hash      TEXT NOT NULL,
    state               TEXT NOT NULL,
    leaf_index          INTEGER,
    deposit_txid        TEXT,
    deposit_expiration  INTEGER,
    withdraw_txid       TEXT,
    recipient           TEXT,
    error               TEXT,
    origin              TEXT NOT NULL,
    created_at          INTEGER NOT NULL,
    updated_at          INTEGER NOT NULL
);
CREATE TABLE IF NOT EXISTS note_history (
    id       INTEGER PRIMARY KEY AUTOINCREMENT,
    note_id  INTEGER NOT NULL REFERENCES notes (id),
    at       INTEGER NOT NULL,
    state    TEXT NOT NULL,
    detail   TEXT NOT NULL
);
CREATE TABLE IF NOT EXISTS tree_leaves (
    pool             TEXT NOT NULL,
    leaf_index       INTEGER NOT NULL,
    commitment       BLOB NOT NULL,
    block_timestamp  INTEGER NOT NULL,
    txid             TEXT NOT NULL,
    PRIMARY KEY (pool, leaf_index)
) WITHOUT ROWID;
CREATE TABLE IF NOT EXISTS tree_nodes (
    pool        TEXT PRIMARY KEY,
    leaf_count  INTEGER NOT NULL,
    nodes       BLOB NOT NULL
);
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
",
    )
}

fn relayer_job_receipts(tx: &Transaction<'_>) -> rusqlite::Result<()> {
    for (column, definition) in [
        ("refund", "TEXT NOT NULL DEFAULT '0'"),
        ("block", "INTEGER"),
        ("energy_used", "INTEGER"),
        ("fee_sun", "INTEGER"),
        ("attempts", "INTEGER NOT NULL DEFAULT 0"),
        ("retry_at", "INTEGER NOT NULL DEFAULT 0"),
    ] {
        tx.execute_batch(&format!(
            "ALTER TABLE relayer_jobs ADD COLUMN {column} {definition}"
        ))?;
    }
    tx.execute_batch(
        "
DROP INDEX IF EXISTS relayer_jobs_unfinished;
CREATE INDEX relayer_jobs_open
    ON relayer_jobs (state) WHERE state IN ('signed', 'broadcast', 'included');
CREATE INDEX relayer_jobs_nullifier ON relayer_jobs (nullifier_hash);
",
    )
}

fn pool_withdrawals(tx: &Transaction<'_>) -> rusqlite::Result<()> {
    tx.execute_batch(
        "
CREATE TABLE pool_withdrawals (
    pool             TEXT NOT NULL,
    seq              INTEGER NOT NULL,
    nullifier_hash   BLOB NOT NULL,
    txid             TEXT NOT NULL,
    block            INTEGER,
    block_timestamp  INTEGER NOT NULL,
    recipient        TEXT NOT NULL,
    relayer          TEXT,
    fee              TEXT NOT NULL,
    PRIMARY KEY (pool, seq)
) WITHOUT ROWID;
CREATE UNIQUE INDEX pool_withdrawals_nullifier ON pool_withdrawals (pool, nullifier_hash);
CREATE TABLE pool_scans (
    pool        TEXT PRIMARY KEY,
    next_block  INTEGER NOT NULL
);
",
    )
}

fn seed_indices(tx: &Transaction<'_>) -> rusqlite::Result<()> {
    tx.execute_batch(
        "
ALTER TABLE notes ADD COLUMN seed_id TEXT;
ALTER TABLE notes ADD COLUMN seed_index INTEGER;
CREATE TABLE seed_indices (
    seed_id     TEXT NOT NULL,
    pool        TEXT NOT NULL,
    next_index  INTEGER NOT NULL,
    PRIMARY KEY (seed_id, pool)
) WITHOUT ROWID;
",
    )
}

fn submit_journal(tx: &Transaction<'_>) -> rusqlite::Result<()> {
    tx.execute_batch(
        "
CREATE TABLE submissions (
    txid         TEXT PRIMARY KEY,
    purpose      TEXT NOT NULL,
    reference    TEXT NOT NULL,
    exclusive    INTEGER NOT NULL,
    signed_hex   TEXT NOT NULL,
    expiration   INTEGER NOT NULL,
    state        TEXT NOT NULL,
    error        TEXT,
    block        INTEGER,
    energy_used  INTEGER,
    fee_sun      INTEGER,
    attempts     INTEGER NOT NULL DEFAULT 0,
    retry_at     INTEGER NOT NULL DEFAULT 0,
    created_at   INTEGER NOT NULL,
    updated_at   INTEGER NOT NULL
);
CREATE UNIQUE INDEX submissions_live
    ON submissions (purpose, reference) WHERE exclusive AND state != 'failed';
CREATE INDEX submissions_open
    ON submissions (purpose, state) WHERE state IN ('signed', 'broadcast', 'included');
INSERT INTO submissions (txid, purpose, reference, exclusive, signed_hex, expiration, state,
        error, block, energy_used, fee_sun, attempts, retry_at, created_at, updated_at)
    SELECT txid, 'relay', pool || ' ' || nullifier_hash, 1, signed_hex, expiration, state,
        error, block, energy_used, fee_sun, attempts, retry_at, created_at, updated_at
    FROM relayer_jobs;
CREATE TABLE relayer_jobs_details (
    txid            TEXT PRIMARY KEY REFERENCES submissions (txid),
    pool            TEXT NOT NULL,
    denomination    INTEGER NOT NULL,
    nullifier_hash  TEXT NOT NULL,
    recipient       TEXT NOT NULL,
    fee             TEXT NOT NULL,
    refund          TEXT NOT NULL,
    created_at      INTEGER NOT NULL
);
INSERT INTO relayer_jobs_details
    SELECT txid, pool, denomination, nullifier_hash, recipient, fee, refund, created_at
    FROM relayer_jobs;
DROP TABLE relayer_jobs;
ALTER TABLE relayer_jobs_details RENAME TO relayer_jobs;
CREATE INDEX relayer_jobs_nullifier ON relayer_jobs (nullifier_hash);
CREATE INDEX relayer_jobs_note ON relayer_jobs (pool, nullifier_hash);
",
    )
}

fn relayer_reservations(tx: &Transaction<'_>) -> rusqlite::Result<()> {
    tx.execute_batch(
        "
CREATE TABLE relayer_reservations (
    txid              TEXT PRIMARY KEY REFERENCES submissions (txid),
    energy            INTEGER NOT NULL,
    staked_bandwidth  INTEGER NOT NULL,
    free_bandwidth    INTEGER NOT NULL,
    trx_sun           INTEGER NOT NULL,
    sponsor           TEXT,
    sponsor_energy    INTEGER NOT NULL
);
CREATE INDEX relayer_reservations_sponsor
    ON relayer_reservations (sponsor) WHERE sponsor IS NOT NULL;
",
    )
}

fn relayer_jobs_without_times(tx: &Transaction<'_>) -> rusqlite::Result<()> {
    tx.execute_batch("ALTER TABLE relayer_jobs DROP COLUMN created_at;")
}

fn tree_node_chunks(tx: &Transaction<'_>) -> rusqlite::Result<()> {
    tx.execute_batch(
        "
DELETE FROM tree_nodes;
CREATE TABLE tree_chunks (
    pool    TEXT NOT NULL,
    level   INTEGER NOT NULL,
    chunk   INTEGER NOT NULL,
    nodes   BLOB NOT NULL,
    PRIMARY KEY (pool, level, chunk)
) WITHOUT ROWID;
CREATE TABLE tree_shapes (
    pool        TEXT PRIMARY KEY,
    leaf_count  INTEGER NOT NULL
);
",
    )
}

/// The index of the tree caches' commitments (migration 9). A save of many leaves drops it
/// and makes it again with this statement (`store::trees::TreeCache::save`).
pub(crate) const TREE_LEAVES_COMMITMENT_INDEX: &str =
    "CREATE INDEX tree_leaves_commitment ON tree_leaves (pool, commitment);";

fn tree_leaf_commitments(tx: &Transaction<'_>) -> rusqlite::Result<()> {
    tx.execute_batch(TREE_LEAVES_COMMITMENT_INDEX)
}

fn shared_state(tx: &Transaction<'_>) -> rusqlite::Result<()> {
    tx.execute_batch(
        "
ALTER TABLE submissions ADD COLUMN lease_owner TEXT;
ALTER TABLE submissions ADD COLUMN lease_until INTEGER NOT NULL DEFAULT 0;
CREATE TABLE rate_budgets (
    budget  TEXT NOT NULL,
    client  TEXT NOT NULL,
    tat     INTEGER NOT NULL,
    PRIMARY KEY (budget, client)
) WITHOUT ROWID;
CREATE TABLE leases (
    name   TEXT PRIMARY KEY,
    owner  TEXT NOT NULL,
    until  INTEGER NOT NULL
);
CREATE TABLE budget_spent (
    budget  TEXT NOT NULL,
    at      INTEGER NOT NULL,
    sun     INTEGER NOT NULL
);
CREATE INDEX budget_spent_at ON budget_spent (budget, at);
",
    )
}

/// Brings the database up to [`latest`], each migration in its own transaction with the
/// version it reaches; refuses a database a newer tronpool wrote, and changes nothing then.
pub(crate) fn migrate(conn: &mut Connection) -> Result<()> {
    let fail = |e: rusqlite::Error| StoreError::sqlite("migrating the database", e);
    loop {
        // IMMEDIATE: two processes opening one file at once migrate it once, in turn.
        let tx = conn
            .transaction_with_behavior(rusqlite::TransactionBehavior::Immediate)
            .map_err(fail)?;
        let version: i64 = tx
            .query_row("PRAGMA user_version", [], |row| row.get(0))
            .map_err(fail)?;
        if version > latest() {
            return Err(StoreError::Newer {
                found: version,
                known: latest(),
            }
            .into());
        }
        let Some(migration) = MIGRATIONS.get(version as usize) else {
            return Ok(());
        };
        (migration.apply)(&tx).map_err(|e| {
            StoreError::sqlite(
                format!(
                    "migrating the database to version {} ({})",
                    version + 1,
                    migration.what
                ),
                e,
            )
        })?;
        tx.pragma_update(None, "user_version", version + 1)
            .map_err(fail)?;
        tx.commit().map_err(fail)?;
        tracing::debug!(
            version = version + 1,
            what = migration.what,
            "database migrated"
        );
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::store::jobs::{JobState, JobStore};
    use crate::store::notes::{NoteState, NoteStore};
    use crate::store::trees::TreeCache;

    /// A database exactly as the first release (no `user_version`) wrote it, with a note
    /// withdrawn, a cached leaf and a relayer job in flight.
    fn first_release_database(path: &std::path::Path) {
        std::fs::create_dir_all(path.parent().unwrap()).unwrap();
        let conn = Connection::open(path).unwrap();
        conn.execute_batch(
            "CREATE TABLE notes (
                id INTEGER PRIMARY KEY AUTOINCREMENT, note TEXT NOT NULL,
                denomination INTEGER NOT NULL, pool TEXT NOT NULL,
                commitment TEXT NOT NULL UNIQUE, nullifier_hash TEXT NOT NULL,
                state TEXT NOT NULL, leaf_index INTEGER, deposit_txid TEXT,
                deposit_expiration INTEGER, withdraw_txid TEXT, recipient TEXT, error TEXT,
                origin TEXT NOT NULL, created_at INTEGER NOT NULL, updated_at INTEGER NOT NULL);
             CREATE TABLE note_history (
                id INTEGER PRIMARY KEY AUTOINCREMENT, note_id INTEGER NOT NULL REFERENCES notes (id),
                at INTEGER NOT NULL, state TEXT NOT NULL, detail TEXT NOT NULL);
             CREATE TABLE tree_leaves (
                pool TEXT NOT NULL, leaf_index INTEGER NOT NULL, commitment BLOB NOT NULL,
                block_timestamp INTEGER NOT NULL, txid TEXT NOT NULL,
                PRIMARY KEY (pool, leaf_index)) WITHOUT ROWID;
             CREATE TABLE tree_nodes (
                pool TEXT PRIMARY KEY, leaf_count INTEGER NOT NULL, nodes BLOB NOT NULL);
             CREATE TABLE relayer_jobs (
                txid TEXT PRIMARY KEY, pool TEXT NOT NULL, denomination INTEGER NOT NULL,
                nullifier_hash TEXT NOT NULL, recipient TEXT NOT NULL, fee TEXT NOT NULL,
                state TEXT NOT NULL, signed_hex TEXT NOT NULL, expiration INTEGER NOT NULL,
                created_at INTEGER NOT NULL, updated_at INTEGER NOT NULL, error TEXT);
             CREATE UNIQUE INDEX relayer_jobs_live
                ON relayer_jobs (pool, nullifier_hash) WHERE state != 'failed';
             CREATE INDEX relayer_jobs_unfinished
                ON relayer_jobs (state) WHERE state IN ('signed', 'broadcast');
             INSERT INTO notes VALUES (1, 'tronpool-usdt-100-devnet-0xsecret', 100, 'TPool',
                '0xc0', '0xn1', 'withdrawn', 0, 'dtx', 5, 'wtx', 'TRecipient', NULL, 'deposit',
                1, 2);
             INSERT INTO note_history VALUES (1, 1, 1, 'created', 'made here');
             INSERT INTO note_history VALUES (2, 1, 2, 'withdrawn', 'wtx');
             INSERT INTO tree_leaves VALUES ('TPool', 0, x'00', 7, 'dtx');
             INSERT INTO relayer_jobs VALUES ('aa', 'TPool', 100, '0x01', 'TRecipient',
                '1000000', 'broadcast', '0a02', 9, 1, 1, NULL);",
        )
        .unwrap();
    }

    fn version(path: &std::path::Path) -> i64 {
        Connection::open(path)
            .unwrap()
            .query_row("PRAGMA user_version", [], |row| row.get(0))
            .unwrap()
    }

    #[test]
    fn a_first_release_database_is_migrated_with_every_row_kept() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("devnet/tronpool.sqlite3");
        first_release_database(&path);
        assert_eq!(version(&path), 0);

        // Whichever store opens it first migrates the whole file.
        let notes = NoteStore::open(
            &path,
            std::sync::Arc::new(crate::store::vault::Vault::plain()),
        )
        .unwrap();
        assert_eq!(version(&path), latest());
        let note = notes.get(1).unwrap().expect("the note survived");
        assert_eq!(note.state, NoteState::Withdrawn);
        assert_eq!(note.withdraw_txid.as_deref(), Some("wtx"));
        assert_eq!(notes.history(1).unwrap().len(), 2);
        let trees = TreeCache::open(&path).unwrap();
        assert_eq!(trees.head("TPool").unwrap().count, 1);
        let jobs = JobStore::open(&path).unwrap();
        let job = jobs.get("aa").unwrap().expect("the job survived");
        assert_eq!(job.state, JobState::Broadcast);
        assert_eq!(
            (job.refund.as_str(), job.attempts, job.block),
            ("0", 0, None)
        );
        assert_eq!(jobs.unfinished().unwrap().len(), 1);
        assert!(
            jobs.journal()
                .advance("aa", JobState::Included, None, None)
                .unwrap()
        );
        assert_eq!(
            jobs.unfinished().unwrap().len(),
            1,
            "included is still open"
        );

        // Opening again changes nothing.
        drop((notes, trees, jobs));
        let jobs = JobStore::open(&path).unwrap();
        assert_eq!(jobs.get("aa").unwrap().unwrap().state, JobState::Included);
        assert_eq!(version(&path), latest());
    }

    /// The database at `path` (made if missing) brought up to `version` by the first
    /// `version` migrations, as the release that stopped there left it.
    fn migrated_to(path: &std::path::Path, version: usize) -> Connection {
        std::fs::create_dir_all(path.parent().unwrap()).unwrap();
        let mut conn = Connection::open(path).unwrap();
        for (i, migration) in MIGRATIONS[..version].iter().enumerate() {
            let tx = conn.transaction().unwrap();
            (migration.apply)(&tx).unwrap();
            tx.pragma_update(None, "user_version", i as i64 + 1)
                .unwrap();
            tx.commit().unwrap();
        }
        conn
    }

    /// A database as the release before withdrawals were cached wrote it (version 2), with
    /// two cached leaves.
    fn version_two_database(path: &std::path::Path) {
        let conn = migrated_to(path, 2);
        conn.execute_batch(
            "INSERT INTO tree_leaves VALUES ('TPool', 0, x'01', 7, 'dtx0');
             INSERT INTO tree_leaves VALUES ('TPool', 1, x'02', 8, 'dtx1');",
        )
        .unwrap();
    }

    #[test]
    fn a_version_two_database_gains_the_withdrawals_and_keeps_its_leaves() {
        use crate::store::trees::{Update, Withdrawal};
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("devnet/tronpool.sqlite3");
        version_two_database(&path);
        assert_eq!(version(&path), 2);
        let trees = TreeCache::open(&path).unwrap();
        assert_eq!(version(&path), latest());
        assert_eq!(trees.head("TPool").unwrap().count, 2);
        assert_eq!(trees.withdrawals_head("TPool").unwrap().count, 0);
        assert_eq!(trees.scan_cursor("TPool").unwrap(), None);
        let withdrawal = Withdrawal {
            nullifier_hash: [9; 32],
            txid: "wtx".into(),
            block: Some(12),
            block_timestamp: 9,
            recipient: "TRecipient".into(),
            relayer: None,
            fee: "0".into(),
        };
        trees
            .save(
                "TPool",
                &Update {
                    withdrawals: std::slice::from_ref(&withdrawal),
                    next_block: Some(13),
                    ..Update::default()
                },
            )
            .unwrap();
        drop(trees);
        let trees = TreeCache::open(&path).unwrap();
        let spent = trees.spent("TPool", &[9; 32]).unwrap().expect("recorded");
        assert_eq!((spent.txid.as_str(), spent.block), ("wtx", Some(12)));
        assert_eq!(trees.scan_cursor("TPool").unwrap(), Some(13));
        assert_eq!(trees.head("TPool").unwrap().count, 2, "the leaves are kept");
    }

    /// The release before notes from a mnemonic: migrations 1 to 3 only.
    fn version_three_database(path: &std::path::Path) {
        first_release_database(path);
        migrated_to(path, 3);
    }

    #[test]
    fn a_version_three_database_gets_seed_indices_with_its_notes_kept() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("devnet/tronpool.sqlite3");
        version_three_database(&path);
        assert_eq!(version(&path), 3);
        let notes = NoteStore::open(
            &path,
            std::sync::Arc::new(crate::store::vault::Vault::plain()),
        )
        .unwrap();
        assert_eq!(version(&path), latest());
        let note = notes.get(1).unwrap().expect("the note survived");
        assert_eq!(note.state, NoteState::Withdrawn);
        assert_eq!(note.seed_index, None);
        assert_eq!(
            notes.text(1).unwrap().as_str(),
            "tronpool-usdt-100-devnet-0xsecret"
        );
        assert_eq!(notes.next_index("s", "TPool").unwrap(), 0);
        notes.advance_index("s", "TPool", 3).unwrap();
        assert_eq!(notes.next_index("s", "TPool").unwrap(), 3);
    }

    /// The release before the submit journal: migrations 1 to 4, with relayer jobs in every
    /// state (two for one note: a failed try and the live one).
    fn version_four_database(path: &std::path::Path) {
        let conn = migrated_to(path, 4);
        conn.execute_batch(
            "INSERT INTO relayer_jobs (txid, pool, denomination, nullifier_hash, recipient, fee,
                 state, signed_hex, expiration, created_at, updated_at, error, refund, block,
                 energy_used, fee_sun, attempts, retry_at)
             VALUES
             ('aa', 'TPool', 100, '0x01', 'TR1', '1000', 'failed', '0a01', 9, 1, 2,
                 'expired before it was included in a block', '0', NULL, NULL, NULL, 0, 0),
             ('bb', 'TPool', 100, '0x01', 'TR1', '1000', 'signed', '0a02', 99, 3, 4,
                 'SERVER_BUSY', '5', NULL, NULL, NULL, 2, 77),
             ('cc', 'TPool', 100, '0x02', 'TR2', '2000', 'confirmed', '0a03', 99, 5, 6, NULL,
                 '0', 12, 330000, 33000000, 0, 0);",
        )
        .unwrap();
    }

    #[test]
    fn a_version_four_database_moves_its_jobs_transactions_into_the_journal() {
        use crate::store::journal::{Purpose, Submissions};
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("devnet/tronpool.sqlite3");
        version_four_database(&path);
        assert_eq!(version(&path), 4);
        let jobs = JobStore::open(&path).unwrap();
        assert_eq!(version(&path), latest());

        // Every job reads as it did, from the job and its journal entry.
        let busy = jobs.get("bb").unwrap().expect("the job survived");
        assert_eq!(busy.state, JobState::Signed);
        assert_eq!(
            (busy.refund.as_str(), busy.attempts, busy.error.as_deref()),
            ("5", 2, Some("SERVER_BUSY"))
        );
        assert_eq!(
            (busy.expiration, busy.created_at, busy.updated_at),
            (99, 3, 4)
        );
        let done = jobs.get("cc").unwrap().unwrap();
        assert_eq!(done.state, JobState::Confirmed);
        assert_eq!(
            (done.block, done.energy_used, done.fee_sun),
            (Some(12), Some(330_000), Some(33_000_000))
        );
        assert_eq!(jobs.get("aa").unwrap().unwrap().state, JobState::Failed);
        assert_eq!(jobs.live("TPool", "0x01").unwrap().unwrap().txid, "bb");
        assert_eq!(jobs.by_nullifier("0x01").unwrap().unwrap().txid, "bb");
        let open = jobs.unfinished().unwrap();
        assert_eq!(open.len(), 1);

        // The journal holds the signed bytes and when to send them again, for the watcher.
        let journal = Submissions::open(&path).unwrap();
        let entries = journal.unfinished(Purpose::Relay).unwrap();
        assert_eq!(entries.len(), 1);
        let entry = &entries[0];
        assert_eq!(
            (
                entry.txid.as_str(),
                entry.signed_hex.as_str(),
                entry.retry_at
            ),
            ("bb", "0a02", 77)
        );
        assert_eq!(entry.reference, "TPool 0x01");

        // One live job per note still holds, now through the journal.
        let mut job = busy.clone();
        job.txid = "dd".into();
        let refused = jobs
            .insert(
                &job,
                &crate::store::jobs::Reservation::default(),
                &crate::store::journal::NewEntry {
                    txid: "dd".into(),
                    purpose: Purpose::Relay,
                    reference: "TPool 0x01".into(),
                    signed_hex: "0a04".into(),
                    expiration: 99,
                },
                None,
            )
            .unwrap_err();
        assert_eq!(refused.http_status(), 409, "{refused}");
        assert!(jobs.get("dd").unwrap().is_none());
    }

    #[test]
    fn a_version_five_database_gains_reservations_and_its_open_jobs_count_nothing() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("devnet/tronpool.sqlite3");
        version_four_database(&path);
        {
            let mut conn = Connection::open(&path).unwrap();
            let tx = conn.transaction().unwrap();
            (MIGRATIONS[4].apply)(&tx).unwrap();
            tx.pragma_update(None, "user_version", 5).unwrap();
            tx.commit().unwrap();
        }
        assert_eq!(version(&path), 5);
        let jobs = JobStore::open(&path).unwrap();
        assert_eq!(version(&path), latest());
        // Job `bb` is still signed, but its release recorded no reservation.
        assert_eq!(jobs.unfinished().unwrap().len(), 1);
        assert_eq!(
            jobs.reserved().unwrap(),
            crate::store::jobs::Reserved::default()
        );
    }

    #[test]
    fn a_version_six_database_keeps_its_jobs_and_their_times_come_from_the_journal() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("devnet/tronpool.sqlite3");
        version_four_database(&path);
        {
            let mut conn = Connection::open(&path).unwrap();
            for (i, migration) in MIGRATIONS.iter().enumerate().take(6).skip(4) {
                let tx = conn.transaction().unwrap();
                (migration.apply)(&tx).unwrap();
                tx.pragma_update(None, "user_version", i as i64 + 1)
                    .unwrap();
                tx.commit().unwrap();
            }
        }
        assert_eq!(version(&path), 6);
        let signed_at: Vec<(String, i64)> = {
            let conn = Connection::open(&path).unwrap();
            let mut rows = conn
                .prepare("SELECT txid, created_at FROM submissions ORDER BY txid")
                .unwrap();
            rows.query_map([], |row| Ok((row.get(0)?, row.get(1)?)))
                .unwrap()
                .collect::<rusqlite::Result<_>>()
                .unwrap()
        };
        let jobs = JobStore::open(&path).unwrap();
        assert_eq!(version(&path), latest());
        for (txid, at) in &signed_at {
            let job = jobs.get(txid).unwrap().expect("the job survived");
            assert_eq!(job.created_at, *at, "{txid} is dated by its journal entry");
        }
        assert!(!signed_at.is_empty());
        let columns: Vec<String> = {
            let conn = Connection::open(&path).unwrap();
            let mut rows = conn
                .prepare("SELECT name FROM pragma_table_info('relayer_jobs')")
                .unwrap();
            rows.query_map([], |row| row.get(0))
                .unwrap()
                .collect::<rusqlite::Result<_>>()
                .unwrap()
        };
        assert!(!columns.iter().any(|c| c == "created_at"), "{columns:?}");
    }

    #[test]
    fn a_database_from_a_newer_tronpool_is_refused_untouched() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("devnet/tronpool.sqlite3");
        first_release_database(&path);
        Connection::open(&path)
            .unwrap()
            .pragma_update(None, "user_version", latest() + 1)
            .unwrap();
        let refused = NoteStore::open(
            &path,
            std::sync::Arc::new(crate::store::vault::Vault::plain()),
        )
        .err()
        .expect("refused");
        assert!(refused.to_string().contains("newer tronpool"), "{refused}");
        assert_eq!(version(&path), latest() + 1);
        let columns: i64 = Connection::open(&path)
            .unwrap()
            .query_row(
                "SELECT count(*) FROM pragma_table_info('relayer_jobs')",
                [],
                |row| row.get(0),
            )
            .unwrap();
        assert_eq!(columns, 12, "nothing was added");
    }

    #[test]
    fn a_new_database_starts_at_the_latest_version() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("nile/tronpool.sqlite3");
        JobStore::open(&path).unwrap();
        assert_eq!(version(&path), latest());
        assert!(latest() >= 3);
    }
}
