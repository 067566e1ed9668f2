//! The per-network SQLite database (`<data>/<network>/tronpool.sqlite3`): notes, the tree
//! caches and the relayer's jobs, each store with its own tables and connection, one schema
//! brought up to date on every open (`store::schema`).

use std::path::{Path, PathBuf};

use rusqlite::Connection;

use crate::error::{Error, Result};

/// The database file of a network.
pub fn path(data_dir: &Path, network: &str) -> PathBuf {
    data_dir.join(network).join("tronpool.sqlite3")
}

/// Opens (creating) the database at `path`, in a private folder, as a private file: it holds
/// notes, which are money.
pub fn open(path: &Path, what: &str) -> Result<Connection> {
    if let Some(dir) = path.parent() {
        crate::store::fs::create_private_dir(dir)?;
    }
    let conn = Connection::open(path)
        .map_err(|e| Error::Failed(format!("cannot open {what} at {}: {e}", path.display())))?;
    #[cfg(unix)]
    {
        use std::os::unix::fs::PermissionsExt;
        for file in [
            path.to_path_buf(),
            wal_file(path, "-wal"),
            wal_file(path, "-shm"),
        ] {
            if file.exists() {
                let _ = std::fs::set_permissions(&file, std::fs::Permissions::from_mode(0o600));
            }
        }
    }
    configure(conn, what)
}

fn wal_file(path: &Path, suffix: &str) -> PathBuf {
    let mut name = path.as_os_str().to_owned();
    name.push(suffix);
    PathBuf::from(name)
}

/// A database that lives as long as the process.
pub fn in_memory(what: &str) -> Result<Connection> {
    configure(
        Connection::open_in_memory().map_err(|e| Error::Failed(format!("{what}: {e}")))?,
        what,
    )
}

fn configure(conn: Connection, what: &str) -> Result<Connection> {
    let fail = |e: rusqlite::Error| Error::Failed(format!("{what}: {e}"));
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
