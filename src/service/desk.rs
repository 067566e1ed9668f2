//! What a user's workflow works with, opened once by the caller and lent to every step: the
//! chain, the notes, the journal of what was signed here, and the synced trees.

use crate::service::chain::Chain;
use crate::service::journal::Journal;
use crate::store::notes::NoteStore;
use crate::store::trees::TreeCache;

/// The parts of a session a deposit or a withdrawal uses; each workflow takes what it needs.
#[derive(Clone, Copy)]
pub struct Desk<'a> {
    pub chain: &'a Chain,
    pub store: &'a NoteStore,
    pub journal: &'a Journal,
    pub trees: &'a TreeCache,
}
