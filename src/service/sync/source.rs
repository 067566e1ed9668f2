//! What every sync source (the events API, a block scan, a sync server) hands back, and the
//! page limits they share: below the sources and the sync that runs them, so neither imports
//! the other.

use zk::tree::MerkleTree;

use crate::store::trees::{Leaf, Withdrawal};

/// Enough pages for a full pool (2^20 deposits at 200 a page), with room to spare.
pub(super) const MAX_PAGES: usize = 6_000;
/// The most leaves or withdrawals one page of `GET /api/pools/{denom}/leaves` carries.
pub(crate) const MAX_PAGE: u32 = 1_000;
/// The most leaves one packed page carries (`format=packed`, about 9 MB): a full pool's
/// 2^20 leaves in 16 requests, well inside the general limit of 120 a minute.
pub(crate) const MAX_PACKED_PAGE: u32 = 65_536;
/// How far a sync has come, for a progress bar.
#[derive(Debug, Clone, Copy)]
pub struct SyncProgress {
    pub have: u64,
    /// The pool's deposit count when the sync started.
    pub target: u64,
}

/// What one source brought.
#[derive(Default)]
pub(super) struct Fetched {
    /// Leaves from the cached count on, in order (earlier ones may be included; they are
    /// skipped).
    pub(super) leaves: Vec<Leaf>,
    pub(super) withdrawals: Vec<Withdrawal>,
    /// Where a block scan continues next time.
    pub(super) next_block: Option<u64>,
    /// The cached tree extended with `leaves`, when the source built it while fetching.
    pub(super) tree: Option<MerkleTree>,
}
