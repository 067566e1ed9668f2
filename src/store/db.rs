//! The per-network SQLite database (`<data>/<network>/tronpool.sqlite3`): notes, the tree
//! caches, the submit journal and the relayer's jobs, each store with its own tables, one
//! schema brought up to date on every open (`store::schema`). `store::database` opens it
//! once and lends the one connection to every store a command uses.

use std::path::{Path, PathBuf};
use std::sync::{Mutex, MutexGuard};
use std::time::{Duration, Instant};

use rusqlite::Connection;

use crate::error::{Error, Result, StoreError};

/// The database file of a network.
pub fn path(data_dir: &Path, network: &str) -> PathBuf {
    data_dir.join(network).join("tronpool.sqlite3")
}

/// Opens (creating) the database at `path`, in a private folder, as a private file: it holds
/// notes, which are money.
pub fn open(path: &Path, what: &str) -> Result<Connection> {
    // SQLite's write-ahead log and shared-memory files sit beside the database and hold the
    // same data, so they get the same 0600.
    #[cfg(unix)]
    let files = [
        path.to_path_buf(),
        wal_file(path, "-wal"),
        wal_file(path, "-shm"),
    ];
    if let Some(dir) = path.parent() {
        crate::store::fs::create_private_dir(dir)?;
    }
    let conn = Connection::open(path)
        .map_err(|e| StoreError::sqlite(format!("cannot open {what} at {}", path.display()), e))?;
    #[cfg(unix)]
    {
        use std::os::unix::fs::PermissionsExt;
        for file in files {
            if file.exists() {
                let _ = std::fs::set_permissions(&file, std::fs::Permissions::from_mode(0o600));
            }
        }
    }
    configure(conn, what)
}

#[cfg(unix)]
fn wal_file(path: &Path, suffix: &str) -> PathBuf {
    let mut name = path.as_os_str().to_owned();
    name.push(suffix);
    PathBuf::from(name)
}

/// A database that lives as long as the process.
pub fn in_memory(what: &str) -> Result<Connection> {
    configure(
        Connection::open_in_memory().map_err(|e| StoreError::sqlite(what, e))?,
        what,
    )
}

fn configure(conn: Connection, what: &str) -> Result<Connection> {
    let fail = |e: rusqlite::Error| StoreError::sqlite(what, e);
    // WAL: a crash never leaves a half-written row. FULL: a committed row is on the disk
    // before the call returns, which is what "the note is stored before the broadcast" means.
    conn.pragma_update(None, "journal_mode", "WAL")
        .map_err(fail)?;
    conn.pragma_update(None, "synchronous", "FULL")
        .map_err(fail)?;
    conn.busy_timeout(std::time::Duration::from_secs(5))
        .map_err(fail)?;
    let mut conn = conn;
    crate::store::schema::migrate(&mut conn)?;
    Ok(conn)
}

/// Copies the whole write-ahead log into the database file and truncates the log to nothing,
/// retrying for up to `patience` while another connection's read transaction holds old frames.
///
/// `PRAGMA wal_checkpoint(TRUNCATE)` does not fail when it cannot finish: it answers one row,
/// `(busy, log frames, checkpointed frames)`, and `busy = 1` means a reader (another process,
/// or another connection of ours) kept it from copying every frame or from truncating the log
/// after SQLite's busy handler gave up waiting (SQLite's documentation of the pragma). The log
/// then still holds whatever pages it was meant to erase: after `secrets encrypt`, plain notes.
/// So this reads the row, and is done only when nothing was busy and every frame was copied.
pub(crate) fn checkpoint_truncate(conn: &Connection, what: &str, patience: Duration) -> Result<()> {
    let deadline = Instant::now() + patience;
    let mut pause = Duration::from_millis(20);
    loop {
        let (busy, log, copied): (i64, i64, i64) = conn
            .query_row("PRAGMA wal_checkpoint(TRUNCATE)", [], |r| {
                Ok((r.get(0)?, r.get(1)?, r.get(2)?))
            })
            .map_err(|e| StoreError::sqlite(format!("{what}: emptying the write-ahead log"), e))?;
        if busy == 0 && log == copied {
            return Ok(());
        }
        if Instant::now() >= deadline {
            return Err(Error::Failed(format!(
                "{what}: another connection kept the write-ahead log from being emptied \
                 ({copied} of {log} pages copied); close other tronpool processes using this \
                 data folder and run the command again"
            )));
        }
        std::thread::sleep(pause);
        pause = (pause * 2).min(Duration::from_millis(500));
    }
}

/// A store's connection, used by one caller at a time and never on an async worker's own
/// time: `synchronous = FULL` makes every write wait for the disk, and `busy_timeout` lets a
/// write wait up to 5 s for another process's lock, which must not stall every request that
/// worker would have served meanwhile.
pub struct Shared {
    conn: Mutex<Connection>,
}

impl Shared {
    pub fn new(conn: Connection) -> Self {
        Shared {
            conn: Mutex::new(conn),
        }
    }

    /// Runs `f` with the connection. On a multi-threaded tokio runtime (`serve`'s) the
    /// calling worker first hands its queued tasks to the other workers
    /// (`tokio::task::block_in_place`), so only this request waits for the database; outside
    /// one (a current-thread runtime, plain threads) it simply runs.
    pub fn with<T>(&self, f: impl FnOnce(&mut Connection) -> T) -> T {
        let run = || {
            let mut conn = self.conn.lock().unwrap_or_else(|e| e.into_inner());
            f(&mut conn)
        };
        match tokio::runtime::Handle::try_current() {
            Ok(handle) if handle.runtime_flavor() == tokio::runtime::RuntimeFlavor::MultiThread => {
                tokio::task::block_in_place(run)
            }
            _ => run(),
        }
    }

    /// The connection, held by the caller on its own thread (the CLI's note store, whose
    /// calls are short and never on a server's worker).
    pub fn lock(&self) -> MutexGuard<'_, Connection> {
        self.conn.lock().unwrap_or_else(|e| e.into_inner())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[tokio::test(flavor = "multi_thread", worker_threads = 1)]
    async fn database_work_on_a_worker_is_handed_off_first() {
        let db = std::sync::Arc::new(Shared::new(in_memory("test").unwrap()));
        // Blocking on a future is allowed only in a thread that is not an async worker (or
        // has handed its work off): here it proves `with` did the hand-off.
        let inside = db.clone();
        tokio::spawn(async move {
            inside.with(|conn| {
                tokio::runtime::Handle::current()
                    .block_on(async { tokio::task::yield_now().await });
                conn.execute_batch("SELECT 1").unwrap()
            })
        })
        .await
        .expect("the closure may block: it runs off the worker");
        // It runs on a current-thread runtime too, where handing off is impossible.
        std::thread::spawn(move || {
            tokio::runtime::Builder::new_current_thread()
                .build()
                .unwrap()
                .block_on(async { db.with(|conn| conn.execute_batch("SELECT 1")).unwrap() })
        })
        .join()
        .unwrap();
    }
}
