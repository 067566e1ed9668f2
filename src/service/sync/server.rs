//! Another tronpool server as a sync source: `GET /api/pools/{denom}/leaves` and
//! `…/withdrawals`, paged from where the cache ends.

use super::source::{Fetched, MAX_PAGE, MAX_PAGES, SyncProgress};
use crate::error::{Error, Result};
use crate::service::server_client::ServerClient;
use crate::service::wire::{LeavesPage, WithdrawalsPage};
use crate::store::trees::CacheHead;

pub(super) async fn fetch_from_server(
    server: &ServerClient,
    denomination: u64,
    head: CacheHead,
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
    let mut from = head.count;
    for _ in 0..MAX_PAGES {
        let path = format!("api/pools/{denomination}/leaves?from={from}&limit={MAX_PAGE}");
        let data = server.call(reqwest::Method::GET, &path, None).await?;
        let page: LeavesPage =
            serde_json::from_value(data).map_err(|e| bad(format!("an unreadable page: {e}")))?;
        for entry in &page.leaves {
            fetched.leaves.push(
                entry
                    .to_leaf()
                    .map_err(|e| bad(format!("a bad leaf: {e}")))?,
            );
        }
        progress(SyncProgress {
            have: u64::from(head.count) + fetched.leaves.len() as u64,
            target: target.into(),
        });
        let Some(last) = page.leaves.last() else {
            break;
        };
        if last.index < from {
            return Err(bad("leaves it was not asked for".into()));
        }
        from = last.index + 1;
        if from >= page.total {
            break;
        }
    }
    let mut from = withdrawals_from;
    for _ in 0..MAX_PAGES {
        let path = format!("api/pools/{denomination}/withdrawals?from={from}&limit={MAX_PAGE}");
        let data = server.call(reqwest::Method::GET, &path, None).await?;
        let page: WithdrawalsPage =
            serde_json::from_value(data).map_err(|e| bad(format!("an unreadable page: {e}")))?;
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
