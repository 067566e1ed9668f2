//! Another tronpool server as a sync source: `GET /api/pools/{denom}/leaves` and
//! `…/withdrawals`, paged from where the cache ends. Leaves come in packed pages
//! (`format=packed`, 65,536 a page) from a server that serves them, and a page of objects at
//! a time from one that does not (it refuses the parameter with a 400).

use zk::tree::MerkleTree;

use super::grow::Growing;
use super::source::{Fetched, MAX_PACKED_PAGE, MAX_PAGE, MAX_PAGES, SyncProgress};
use crate::error::{Error, Kind, Result};
use crate::service::server_client::ServerClient;
use crate::service::wire::{LeavesPage, PackedLeavesPage, WithdrawalsPage};
use crate::store::trees::{CacheHead, Leaf};

/// Leaves from where the cache ends (`head`), with the cached tree's `tail` grown by the
/// cached leaves it does not hold (`pending`) and then by each page while the next is
/// fetched, up to the pool's `inserted` leaves; and withdrawals from `withdrawals_from`.
pub(super) async fn fetch_from_server(
    server: &ServerClient,
    denomination: u64,
    (head, tail, pending, inserted): (CacheHead, MerkleTree, &[Leaf], u32),
    withdrawals_from: u32,
    target: u32,
    progress: &(dyn Fn(SyncProgress) + Sync),
) -> Result<Fetched> {
    let bad = |what: String| {
        Error::Refused(format!(
            "the tronpool server at {} sent {what}",
            server.url()
        ))
    };
    let mut fetched = Fetched::default();
    let mut growing = Growing::new(tail, inserted);
    growing.push(pending).await?;
    let mut from = head.count;
    let mut packed = true;
    for _ in 0..MAX_PAGES {
        let (leaves, total) = if packed {
            match packed_page(server, denomination, from).await {
                Ok(page) => page,
                Err(e) if e.kind() == Kind::Usage => {
                    tracing::info!(server = %server.url(), "no packed pages; paging leaf by leaf");
                    packed = false;
                    continue;
                }
                Err(e) => return Err(e),
            }
        } else {
            entries_page(server, denomination, from).await?
        };
        if leaves.first().is_some_and(|l| l.index != from) {
            return Err(bad(format!(
                "leaves from {} when asked from {from}",
                leaves[0].index
            )));
        }
        let Some(last) = leaves.last().map(|l| l.index) else {
            break;
        };
        growing.push(&leaves).await?;
        fetched.leaves.extend(leaves);
        progress(SyncProgress {
            have: u64::from(head.count) + fetched.leaves.len() as u64,
            target: target.into(),
        });
        from = last + 1;
        if from >= total {
            break;
        }
    }
    fetched.tree = growing.finish().await.map_err(|e| match e {
        Error::Refused(why) => bad(format!("a bad leaf: {why}")),
        other => other,
    })?;
    let mut from = withdrawals_from;
    for _ in 0..MAX_PAGES {
        let path = format!("api/pools/{denomination}/withdrawals?from={from}&limit={MAX_PAGE}");
        let page: WithdrawalsPage = server.call_as(reqwest::Method::GET, &path, None).await?;
        for entry in &page.withdrawals {
            fetched.withdrawals.push(
                entry
                    .to_withdrawal()
                    .map_err(|e| bad(format!("a bad withdrawal: {e}")))?,
            );
        }
        from += page.withdrawals.len() as u32;
        if page.withdrawals.is_empty() || from >= page.total {
            break;
        }
    }
    Ok(fetched)
}

/// One packed page of leaves from `from` on, and how many the server holds.
async fn packed_page(
    server: &ServerClient,
    denomination: u64,
    from: u32,
) -> Result<(Vec<Leaf>, u32)> {
    let path = format!(
        "api/pools/{denomination}/leaves?from={from}&limit={MAX_PACKED_PAGE}&format=packed"
    );
    let page: PackedLeavesPage = server.call_as(reqwest::Method::GET, &path, None).await?;
    let leaves = page.unpack().map_err(|e| {
        Error::Refused(format!(
            "the tronpool server at {} sent a bad page of leaves: {e}",
            server.url()
        ))
    })?;
    if !leaves.is_empty() && page.from != from {
        return Err(Error::Refused(format!(
            "the tronpool server at {} sent leaves from {} when asked from {from}",
            server.url(),
            page.from
        )));
    }
    Ok((leaves, page.total))
}

/// One page of leaf objects from `from` on, and how many the server holds.
async fn entries_page(
    server: &ServerClient,
    denomination: u64,
    from: u32,
) -> Result<(Vec<Leaf>, u32)> {
    let path = format!("api/pools/{denomination}/leaves?from={from}&limit={MAX_PAGE}");
    let page: LeavesPage = server.call_as(reqwest::Method::GET, &path, None).await?;
    let leaves = page
        .leaves
        .iter()
        .map(|entry| entry.to_leaf())
        .collect::<std::result::Result<Vec<_>, _>>()
        .map_err(|e| {
            Error::Refused(format!(
                "the tronpool server at {} sent a bad leaf: {e}",
                server.url()
            ))
        })?;
    Ok((leaves, page.total))
}
