//! The user's notes, in the network's SQLite database. A note is the only way to its money,
//! so it is written (and synced to disk) before its deposit is broadcast, never deleted, and
//! every change of its state is appended to its history.

use std::path::Path;
use std::sync::Mutex;

use rusqlite::{Connection, OptionalExtension, Row, params};
use serde::Serialize;
use zeroize::Zeroizing;

use crate::error::{Error, Result};

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
            other => return Err(Error::Failed(format!("note store: state `{other}`"))),
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
    /// How the note got here: `deposit` or `import`.
    pub origin: String,
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
}

pub struct NoteStore {
    db: Mutex<Connection>,
}

const COLUMNS: &str = "id, denomination, pool, commitment, nullifier_hash, state, leaf_index,
    deposit_txid, deposit_expiration, withdraw_txid, recipient, error, origin, created_at,
    updated_at";

fn db_error(e: rusqlite::Error) -> Error {
    Error::Failed(format!("note store: {e}"))
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
        },
        state,
    ))
}

fn finish((mut record, state): (NoteRecord, String)) -> Result<NoteRecord> {
    record.state = NoteState::parse(&state)?;
    Ok(record)
}

impl NoteStore {
    /// Opens (creating) the network's database at `path`.
    pub fn open(path: &Path) -> Result<Self> {
        Self::init(crate::store::db::open(path, "the note store")?)
    }

    pub fn in_memory() -> Result<Self> {
        Self::init(crate::store::db::in_memory("the note store")?)
    }

    /// The tables are the database's (`store::schema`), made or migrated when it opened.
    fn init(conn: Connection) -> Result<Self> {
        Ok(NoteStore {
            db: Mutex::new(conn),
        })
    }

    fn db(&self) -> std::sync::MutexGuard<'_, Connection> {
        self.db.lock().unwrap_or_else(|e| e.into_inner())
    }

    /// Stores a new note (state `created`) and returns its id. It is on disk when this returns.
    pub fn insert(&self, note: &NewNote<'_>) -> Result<i64> {
        let mut db = self.db();
        let tx = db.transaction().map_err(db_error)?;
        let at = now();
        let inserted = tx.execute(
            "INSERT INTO notes (note, denomination, pool, commitment, nullifier_hash, state,
                 origin, created_at, updated_at)
             VALUES (?1, ?2, ?3, ?4, ?5, 'created', ?6, ?7, ?7)",
            params![
                note.text,
                note.denomination as i64,
                note.pool,
                note.commitment,
                note.nullifier_hash,
                note.origin,
                at
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
        history(&tx, id, NoteState::Created, note.origin)?;
        tx.commit().map_err(db_error)?;
        Ok(id)
    }

    /// Records the deposit transaction before it is broadcast, so a crash after the
    /// broadcast leaves a txid to look up.
    pub fn set_deposit_tx(&self, id: i64, txid: &str, expiration: i64) -> Result<()> {
        self.update(
            id,
            NoteState::Created,
            "UPDATE notes SET deposit_txid = ?2, deposit_expiration = ?3, error = NULL,
                 updated_at = ?4 WHERE id = ?1",
            params![id, txid, expiration, now()],
            &format!("deposit {txid} signed"),
        )
    }

    pub fn mark_deposited(&self, id: i64, leaf_index: u32, txid: Option<&str>) -> Result<()> {
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

    pub fn mark_withdrawn(
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

    pub fn mark_failed(&self, id: i64, reason: &str) -> Result<()> {
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

    pub fn by_commitment(&self, commitment: &str) -> Result<Option<NoteRecord>> {
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

    /// The note's text: its secret.
    pub fn text(&self, id: i64) -> Result<Zeroizing<String>> {
        self.db()
            .query_row("SELECT note FROM notes WHERE id = ?1", [id], |r| {
                r.get::<_, String>(0)
            })
            .optional()
            .map_err(db_error)?
            .map(Zeroizing::new)
            .ok_or_else(|| Error::NotFound(format!("no note {id} (see `tronpool notes list`)")))
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
}
