//! One network's database handle: opened once per command, it lends its connection to every
//! store (notes, journal, trees) the command works with.

use std::path::Path;
use std::sync::Arc;

use crate::error::Result;
use crate::store::db::{self, Shared};
use crate::store::journal::Submissions;
use crate::store::notes::NoteStore;
use crate::store::trees::TreeCache;
use crate::store::vault::Vault;

/// One network's database, opened (and migrated) once: every store a command uses is a view
/// over its one connection, so a session costs one open however many stores it reads.
/// (`serve` opens its stores with their own connections, so the tree cache never waits on
/// the relayer's jobs.)
#[derive(Clone)]
pub(crate) struct Database {
    db: Arc<Shared>,
}

impl Database {
    /// Opens (creating) the database at `path`.
    pub fn open(path: &Path) -> Result<Self> {
        Ok(Database {
            db: Arc::new(Shared::new(db::open(path, "the database")?)),
        })
    }

    /// The notes, their texts sealed with `vault` when it is on.
    pub fn notes(&self, vault: Arc<Vault>) -> NoteStore {
        NoteStore::over(self.db.clone(), vault)
    }

    /// The submit journal.
    pub fn journal(&self) -> Submissions {
        Submissions::over(self.db.clone())
    }

    /// The synced trees.
    pub fn trees(&self) -> TreeCache {
        TreeCache::over(self.db.clone())
    }
}
