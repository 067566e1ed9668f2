//! The user's notes, in the network's SQLite database. A note is the only way to its money,
//! so it is written (and synced to disk) before its deposit is broadcast, never deleted, and
//! every change of its state is appended to its history.

use std::path::Path;
use std::sync::Arc;

use rusqlite::{Connection, OptionalExtension, Row, params};
use serde::Serialize;
use zeroize::Zeroizing;

use crate::error::{Error, Result, StoreError};
use crate::store::db::Shared;
use crate::store::vault::{Vault, is_sealed};

/// Where a note stands.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum NoteState {
    /// Made and stored; its deposit may be unsent, in flight, or landed unseen (a crash).
    Created,
    /// Its commitment is in the pool: the money can be withdrawn with it.
    Deposited,
    /// Its nullifier is spent.
    Withdrawn,
    /// Its deposit failed or expired unincluded; no money went in.
    Failed,
}

impl NoteState {
    pub fn as_str(self) -> &'static str {
        match self {
            NoteState::Created => "created",
            NoteState::Deposited => "deposited",
            NoteState::Withdrawn => "withdrawn",
            NoteState::Failed => "failed",
        }
    }

    fn parse(text: &str) -> Result<Self> {
        Ok(match text {
            "created" => NoteState::Created,
            "deposited" => NoteState::Deposited,
            "withdrawn" => NoteState::Withdrawn,
            "failed" => NoteState::Failed,
            other => {
                return Err(StoreError::damaged(
                    "note store",
                    format!("state `{other}`"),
                ));
            }
        })
    }
}

/// A stored note without its secret.
#[derive(Debug, Clone, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct NoteRecord {
    pub id: i64,
    pub denomination: u64,
    /// The pool's address (base58).
    pub pool: String,
    /// `0x` + 64 hex.
    pub commitment: String,
    pub nullifier_hash: String,
    pub state: NoteState,
    pub leaf_index: Option<u32>,
    pub deposit_txid: Option<String>,
    /// When the deposit transaction stops being valid (ms), while it is undecided.
    pub deposit_expiration: Option<i64>,
    pub withdraw_txid: Option<String>,
    pub recipient: Option<String>,
    pub error: Option<String>,
    /// How the note got here: `deposit`, `import` or `recover`.
    pub origin: String,
    /// Its index among the notes its mnemonic made for this pool, when it came from one.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub seed_index: Option<u32>,
    pub created_at: i64,
    pub updated_at: i64,
}

/// One line of a note's history.
#[derive(Debug, Clone, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct NoteChange {
    pub at: i64,
    pub state: NoteState,
    pub detail: String,
}

/// What a new note is stored with.
pub struct NewNote<'a> {
    pub text: &'a str,
    pub denomination: u64,
    pub pool: &'a str,
    pub commitment: &'a str,
    pub nullifier_hash: &'a str,
    pub origin: &'a str,
    /// The mnemonic's id and the note's index, for a derived note.
    pub seed: Option<(&'a str, u32)>,
}

/// How many notes are sealed and how many are not.
#[derive(Debug, Clone, Copy, Serialize)]
pub(crate) struct SealCount {
    pub sealed: u64,
    pub plain: u64,
}

pub struct NoteStore {
    db: Arc<Shared>,
    vault: Arc<Vault>,
}

/// How long `seal_all` retries emptying the write-ahead log while another connection reads
/// (each try also waits out SQLite's own busy timeout).
const CHECKPOINT_PATIENCE: std::time::Duration = std::time::Duration::from_secs(30);

const COLUMNS: &str = "id, denomination, pool, commitment, nullifier_hash, state, leaf_index,
    deposit_txid, deposit_expiration, withdraw_txid, recipient, error, origin, created_at,
    updated_at, seed_index";

/// What a note's sealed text is bound to: its commitment.
fn note_aad(commitment: &str) -> String {
    format!("note {commitment}")
}

fn db_error(e: rusqlite::Error) -> Error {
    StoreError::sqlite("note store", e)
}

fn now() -> i64 {
    tron::transaction::now_ms()
}

fn record(row: &Row<'_>) -> rusqlite::Result<(NoteRecord, String)> {
    let state: String = row.get(5)?;
    let leaf: Option<i64> = row.get(6)?;
    Ok((
        NoteRecord {
            id: row.get(0)?,
            denomination: row.get::<_, i64>(1)? as u64,
            pool: row.get(2)?,
            commitment: row.get(3)?,
            nullifier_hash: row.get(4)?,
            state: NoteState::Created,
            leaf_index: leaf.map(|l| l as u32),
            deposit_txid: row.get(7)?,
            deposit_expiration: row.get(8)?,
            withdraw_txid: row.get(9)?,
            recipient: row.get(10)?,
            error: row.get(11)?,
            origin: row.get(12)?,
            created_at: row.get(13)?,
            updated_at: row.get(14)?,
            seed_index: row.get::<_, Option<i64>>(15)?.map(|i| i as u32),
        },
        state,
    ))
}

fn finish((mut record, state): (NoteRecord, String)) -> Result<NoteRecord> {
    record.state = NoteState::parse(&state)?;
    Ok(record)
}

impl NoteStore {
    /// Opens (creating) the network's database at `path`; notes' texts are sealed with
    /// `vault` when it is on.
    pub fn open(path: &Path, vault: Arc<Vault>) -> Result<Self> {
        Ok(Self::over(
            Arc::new(Shared::new(crate::store::db::open(path, "the note store")?)),
            vault,
        ))
    }

    pub fn in_memory() -> Result<Self> {
        Ok(Self::over(
            Arc::new(Shared::new(crate::store::db::in_memory("the note store")?)),
            Arc::new(Vault::plain()),
        ))
    }

    /// The notes on a database's connection (`Database::notes`); the tables are the
    /// database's (`store::schema`), made or migrated when it opened.
    pub(crate) fn over(db: Arc<Shared>, vault: Arc<Vault>) -> Self {
        NoteStore { db, vault }
    }

    pub fn vault(&self) -> &Vault {
        &self.vault
    }

    fn db(&self) -> std::sync::MutexGuard<'_, Connection> {
        self.db.lock()
    }

    /// Stores a new note (state `created`) and returns its id. It is on disk when this returns.
    pub fn insert(&self, note: &NewNote<'_>) -> Result<i64> {
        // Sealed (asking for the passphrase) before anything is written.
        let text = self
            .vault
            .seal_text(&note_aad(note.commitment), note.text)?;
        let mut db = self.db();
        let tx = db.transaction().map_err(db_error)?;
        let at = now();
        let inserted = tx.execute(
            "INSERT INTO notes (note, denomination, pool, commitment, nullifier_hash, state,
                 origin, created_at, updated_at, seed_id, seed_index)
             VALUES (?1, ?2, ?3, ?4, ?5, 'created', ?6, ?7, ?7, ?8, ?9)",
            params![
                text.as_str(),
                note.denomination as i64,
                note.pool,
                note.commitment,
                note.nullifier_hash,
                note.origin,
                at,
                note.seed.map(|(id, _)| id),
                note.seed.map(|(_, index)| i64::from(index)),
            ],
        );
        match inserted {
            Err(rusqlite::Error::SqliteFailure(e, _))
                if e.code == rusqlite::ErrorCode::ConstraintViolation =>
            {
                let id: i64 = tx
                    .query_row(
                        "SELECT id FROM notes WHERE commitment = ?1",
                        [note.commitment],
                        |r| r.get(0),
                    )
                    .map_err(db_error)?;
                return Err(Error::Conflict(format!(
                    "that note is already stored (note {id})"
                )));
            }
            other => other.map_err(db_error)?,
        };
        let id = tx.last_insert_rowid();
        if let Some((seed, index)) = note.seed {
            advance_index(&tx, seed, note.pool, index + 1)?;
        }
        history(&tx, id, NoteState::Created, note.origin)?;
        tx.commit().map_err(db_error)?;
        Ok(id)
    }

    /// The index the next note of `seed` for `pool` takes.
    pub fn next_index(&self, seed: &str, pool: &str) -> Result<u32> {
        let next: Option<i64> = self
            .db()
            .query_row(
                "SELECT next_index FROM seed_indices WHERE seed_id = ?1 AND pool = ?2",
                [seed, pool],
                |r| r.get(0),
            )
            .optional()
            .map_err(db_error)?;
        Ok(next.unwrap_or(0) as u32)
    }

    /// Moves the next index of `seed` for `pool` up to `next` (never down).
    pub(crate) fn advance_index(&self, seed: &str, pool: &str, next: u32) -> Result<()> {
        let mut db = self.db();
        let tx = db.transaction().map_err(db_error)?;
        advance_index(&tx, seed, pool, next)?;
        tx.commit().map_err(db_error)
    }

    /// How many stored notes are sealed.
    pub(crate) fn seal_count(&self) -> Result<SealCount> {
        let db = self.db();
        let mut query = db.prepare("SELECT note FROM notes").map_err(db_error)?;
        let texts = query
            .query_map([], |r| r.get::<_, String>(0))
            .map_err(db_error)?
            .collect::<rusqlite::Result<Vec<_>>>()
            .map_err(db_error)?;
        let sealed = texts.iter().filter(|t| is_sealed(t)).count() as u64;
        Ok(SealCount {
            sealed,
            plain: texts.len() as u64 - sealed,
        })
    }

    /// Seals every note stored in the clear, in one transaction, then rewrites the file so no
    /// old page keeps a plain note (`VACUUM`, and the write-ahead log emptied). Returns how
    /// many it sealed.
    pub(crate) fn seal_all(&self) -> Result<u64> {
        let mut db = self.db();
        let tx = db.transaction().map_err(db_error)?;
        let plain = {
            let mut query = tx
                .prepare("SELECT id, commitment, note FROM notes")
                .map_err(db_error)?;
            query
                .query_map([], |r| {
                    Ok((
                        r.get::<_, i64>(0)?,
                        r.get::<_, String>(1)?,
                        Zeroizing::new(r.get::<_, String>(2)?),
                    ))
                })
                .map_err(db_error)?
                .collect::<rusqlite::Result<Vec<_>>>()
                .map_err(db_error)?
        };
        let mut count = 0;
        for (id, commitment, text) in plain.iter().filter(|(_, _, t)| !is_sealed(t)) {
            let sealed = self.vault.seal_text(&note_aad(commitment), text)?;
            if !is_sealed(&sealed) {
                return Err(Error::Failed("encryption is not on".into()));
            }
            tx.execute(
                "UPDATE notes SET note = ?2 WHERE id = ?1",
                params![id, sealed.as_str()],
            )
            .map_err(db_error)?;
            count += 1;
        }
        tx.commit().map_err(db_error)?;
        db.execute_batch("VACUUM").map_err(db_error)?;
        crate::store::db::checkpoint_truncate(&db, "the note store", CHECKPOINT_PATIENCE)?;
        Ok(count)
    }

    /// Records the deposit transaction before it is broadcast, so a crash after the
    /// broadcast leaves a txid to look up.
    pub(crate) fn set_deposit_tx(&self, id: i64, txid: &str, expiration: i64) -> Result<()> {
        self.update(
            id,
            NoteState::Created,
            "UPDATE notes SET deposit_txid = ?2, deposit_expiration = ?3, error = NULL,
                 updated_at = ?4 WHERE id = ?1",
            params![id, txid, expiration, now()],
            &format!("deposit {txid} signed"),
        )
    }

    pub(crate) fn mark_deposited(
        &self,
        id: i64,
        leaf_index: u32,
        txid: Option<&str>,
    ) -> Result<()> {
        self.update(
            id,
            NoteState::Deposited,
            "UPDATE notes SET state = 'deposited', leaf_index = ?2,
                 deposit_txid = COALESCE(?3, deposit_txid), deposit_expiration = NULL,
                 error = NULL, updated_at = ?4 WHERE id = ?1",
            params![id, leaf_index as i64, txid, now()],
            &format!("leaf {leaf_index}"),
        )
    }

    pub(crate) fn mark_withdrawn(
        &self,
        id: i64,
        txid: Option<&str>,
        recipient: Option<&str>,
    ) -> Result<()> {
        self.update(
            id,
            NoteState::Withdrawn,
            "UPDATE notes SET state = 'withdrawn', withdraw_txid = COALESCE(?2, withdraw_txid),
                 recipient = COALESCE(?3, recipient), error = NULL, updated_at = ?4 WHERE id = ?1",
            params![id, txid, recipient, now()],
            txid.map_or("spent", |t| t),
        )
    }

    pub(crate) fn mark_failed(&self, id: i64, reason: &str) -> Result<()> {
        self.update(
            id,
            NoteState::Failed,
            "UPDATE notes SET state = 'failed', error = ?2, deposit_expiration = NULL,
                 updated_at = ?3 WHERE id = ?1",
            params![id, reason, now()],
            reason,
        )
    }

    /// Runs one change of a note and appends it to the note's history, together.
    fn update(
        &self,
        id: i64,
        state: NoteState,
        sql: &str,
        values: impl rusqlite::Params,
        detail: &str,
    ) -> Result<()> {
        let mut db = self.db();
        let tx = db.transaction().map_err(db_error)?;
        let changed = tx.execute(sql, values).map_err(db_error)?;
        if changed == 0 {
            return Err(Error::NotFound(format!("no note {id}")));
        }
        history(&tx, id, state, detail)?;
        tx.commit().map_err(db_error)
    }

    pub fn get(&self, id: i64) -> Result<Option<NoteRecord>> {
        self.db()
            .query_row(
                &format!("SELECT {COLUMNS} FROM notes WHERE id = ?1"),
                [id],
                record,
            )
            .optional()
            .map_err(db_error)?
            .map(finish)
            .transpose()
    }

    pub(crate) fn by_commitment(&self, commitment: &str) -> Result<Option<NoteRecord>> {
        self.db()
            .query_row(
                &format!("SELECT {COLUMNS} FROM notes WHERE commitment = ?1"),
                [commitment],
                record,
            )
            .optional()
            .map_err(db_error)?
            .map(finish)
            .transpose()
    }

    /// Every note, oldest first.
    pub fn list(&self) -> Result<Vec<NoteRecord>> {
        let db = self.db();
        let mut query = db
            .prepare(&format!("SELECT {COLUMNS} FROM notes ORDER BY id"))
            .map_err(db_error)?;
        let rows = query
            .query_map([], record)
            .map_err(db_error)?
            .collect::<rusqlite::Result<Vec<_>>>()
            .map_err(db_error)?;
        rows.into_iter().map(finish).collect()
    }

    /// The note's text: its secret (opened, when it is sealed).
    pub fn text(&self, id: i64) -> Result<Zeroizing<String>> {
        let (commitment, stored) = self
            .db()
            .query_row(
                "SELECT commitment, note FROM notes WHERE id = ?1",
                [id],
                |r| {
                    Ok((
                        r.get::<_, String>(0)?,
                        Zeroizing::new(r.get::<_, String>(1)?),
                    ))
                },
            )
            .optional()
            .map_err(db_error)?
            .ok_or_else(|| Error::NotFound(format!("no note {id} (see `tronpool notes list`)")))?;
        self.vault.open_text(&note_aad(&commitment), &stored)
    }

    pub fn history(&self, id: i64) -> Result<Vec<NoteChange>> {
        let db = self.db();
        let mut query = db
            .prepare("SELECT at, state, detail FROM note_history WHERE note_id = ?1 ORDER BY id")
            .map_err(db_error)?;
        let rows = query
            .query_map([id], |r| {
                Ok((r.get::<_, i64>(0)?, r.get::<_, String>(1)?, r.get(2)?))
            })
            .map_err(db_error)?
            .collect::<rusqlite::Result<Vec<_>>>()
            .map_err(db_error)?;
        rows.into_iter()
            .map(|(at, state, detail)| {
                Ok(NoteChange {
                    at,
                    state: NoteState::parse(&state)?,
                    detail,
                })
            })
            .collect()
    }
}

fn advance_index(tx: &rusqlite::Transaction<'_>, seed: &str, pool: &str, next: u32) -> Result<()> {
    tx.execute(
        "INSERT INTO seed_indices (seed_id, pool, next_index) VALUES (?1, ?2, ?3)
         ON CONFLICT (seed_id, pool) DO UPDATE SET next_index = max(next_index, ?3)",
        params![seed, pool, i64::from(next)],
    )
    .map_err(db_error)?;
    Ok(())
}

fn history(tx: &rusqlite::Transaction<'_>, id: i64, state: NoteState, detail: &str) -> Result<()> {
    tx.execute(
        "INSERT INTO note_history (note_id, at, state, detail) VALUES (?1, ?2, ?3, ?4)",
        params![id, now(), state.as_str(), detail],
    )
    .map_err(db_error)?;
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn new_note<'a>(commitment: &'a str) -> NewNote<'a> {
        NewNote {
            text: "tronpool-v1-usdt-100-devnet-0xsecret",
            denomination: 100,
            pool: "TPool",
            commitment,
            nullifier_hash: "0xnh",
            origin: "deposit",
            seed: None,
        }
    }

    #[test]
    fn notes_move_through_their_states_with_a_history() {
        let store = NoteStore::in_memory().unwrap();
        let id = store.insert(&new_note("0xc1")).unwrap();
        assert!(matches!(
            store.insert(&new_note("0xc1")),
            Err(Error::Conflict(_))
        ));
        store.set_deposit_tx(id, "ab", 99).unwrap();
        store.mark_deposited(id, 7, None).unwrap();
        let note = store.get(id).unwrap().unwrap();
        assert_eq!(note.state, NoteState::Deposited);
        assert_eq!(note.leaf_index, Some(7));
        assert_eq!(note.deposit_txid.as_deref(), Some("ab"));
        store
            .mark_withdrawn(id, Some("cd"), Some("TRecipient"))
            .unwrap();
        let states: Vec<NoteState> = store.history(id).unwrap().iter().map(|c| c.state).collect();
        assert_eq!(
            states,
            [
                NoteState::Created,
                NoteState::Created,
                NoteState::Deposited,
                NoteState::Withdrawn
            ]
        );
        assert_eq!(
            store.text(id).unwrap().as_str(),
            "tronpool-v1-usdt-100-devnet-0xsecret"
        );
        assert!(matches!(store.text(42), Err(Error::NotFound(_))));
        assert!(matches!(
            store.mark_failed(42, "x"),
            Err(Error::NotFound(_))
        ));
        assert_eq!(store.list().unwrap().len(), 1);
    }

    fn files_contain(dir: &std::path::Path, needle: &str) -> bool {
        std::fs::read_dir(dir).unwrap().any(|entry| {
            let bytes = std::fs::read(entry.unwrap().path()).unwrap_or_default();
            bytes.windows(needle.len()).any(|w| w == needle.as_bytes())
        })
    }

    #[test]
    fn a_plain_store_is_sealed_in_place_and_no_page_keeps_a_note() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("devnet/tronpool.sqlite3");
        let plain = NoteStore::open(&path, Arc::new(Vault::plain())).unwrap();
        let id = plain.insert(&new_note("0xc1")).unwrap();
        drop(plain);
        assert!(files_contain(path.parent().unwrap(), "0xsecret"));

        let vault = Arc::new(Vault::create(dir.path(), "pw").unwrap());
        let store = NoteStore::open(&path, vault.clone()).unwrap();
        let count = store.seal_count().unwrap();
        assert_eq!((count.sealed, count.plain), (0, 1));
        assert_eq!(store.seal_all().unwrap(), 1);
        let mut seeded = new_note("0xc2");
        seeded.seed = Some(("seed1", 4));
        store.insert(&seeded).unwrap();
        assert_eq!(store.next_index("seed1", "TPool").unwrap(), 5);
        store.advance_index("seed1", "TPool", 3).unwrap();
        assert_eq!(store.next_index("seed1", "TPool").unwrap(), 5, "never down");
        assert_eq!(store.next_index("seed2", "TPool").unwrap(), 0);
        let count = store.seal_count().unwrap();
        assert_eq!((count.sealed, count.plain), (2, 0));
        assert_eq!(
            store.text(id).unwrap().as_str(),
            "tronpool-v1-usdt-100-devnet-0xsecret"
        );
        drop(store);
        assert!(!files_contain(path.parent().unwrap(), "0xsecret"));

        // Without the passphrase nothing opens, and nothing is written.
        let locked =
            NoteStore::open(&path, Arc::new(Vault::open(dir.path(), None).unwrap())).unwrap();
        assert_eq!(
            locked.text(id).err().unwrap().kind(),
            crate::error::Kind::Locked
        );
        assert_eq!(
            locked.insert(&new_note("0xc3")).err().unwrap().kind(),
            crate::error::Kind::Locked
        );
        assert_eq!(locked.list().unwrap().len(), 2);
    }

    /// `secrets encrypt` is done only when the write-ahead log is empty: a second connection
    /// holding a read transaction keeps the checkpoint busy, and sealing waits for it instead
    /// of saying "sealed" over a log that still holds the plain note. The reader holds on past
    /// SQLite's own busy timeout (5 s), where a checkpoint whose answer is not read returns.
    #[test]
    fn sealing_waits_for_a_reader_before_it_says_the_log_is_empty() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("devnet/tronpool.sqlite3");
        let plain = NoteStore::open(&path, Arc::new(Vault::plain())).unwrap();
        plain.insert(&new_note("0xc1")).unwrap();
        drop(plain);

        let reader = Connection::open(&path).unwrap();
        reader
            .execute_batch("BEGIN; SELECT count(*) FROM notes;")
            .unwrap();
        let vault = Arc::new(Vault::create(dir.path(), "pw").unwrap());
        let store = NoteStore::open(&path, vault).unwrap();
        let released = std::thread::spawn(move || {
            std::thread::sleep(std::time::Duration::from_millis(6_500));
            reader.execute_batch("COMMIT").unwrap();
            reader
        });
        let started = std::time::Instant::now();
        assert_eq!(store.seal_all().unwrap(), 1);
        assert!(
            started.elapsed() >= std::time::Duration::from_secs(6),
            "it waited for the reader"
        );
        let _reader = released.join().unwrap();
        let wal = std::fs::metadata(dir.path().join("devnet/tronpool.sqlite3-wal")).unwrap();
        assert_eq!(wal.len(), 0, "the write-ahead log is truncated");
        drop(store);
        assert!(!files_contain(path.parent().unwrap(), "0xsecret"));
    }

    #[test]
    fn a_reader_that_never_lets_go_is_an_error_not_a_silent_success() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("devnet/tronpool.sqlite3");
        let store = NoteStore::open(&path, Arc::new(Vault::plain())).unwrap();
        store.insert(&new_note("0xc1")).unwrap();
        let reader = Connection::open(&path).unwrap();
        reader
            .execute_batch("BEGIN; SELECT count(*) FROM notes;")
            .unwrap();
        // Pages the reader still needs: written after its snapshot began.
        store.insert(&new_note("0xc2")).unwrap();
        let db = store.db();
        db.busy_timeout(std::time::Duration::from_millis(50))
            .unwrap();
        let err = crate::store::db::checkpoint_truncate(
            &db,
            "the note store",
            std::time::Duration::from_millis(200),
        )
        .unwrap_err();
        assert!(
            err.to_string().contains("kept the write-ahead log"),
            "{err}"
        );
        drop(db);
        reader.execute_batch("COMMIT").unwrap();
        crate::store::db::checkpoint_truncate(
            &store.db(),
            "the note store",
            std::time::Duration::from_secs(5),
        )
        .unwrap();
    }
}
