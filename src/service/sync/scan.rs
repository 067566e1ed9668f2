//! A scan of the node's blocks as a sync source: every block from the pool's deployment
//! (`gettransactioninfobyblocknum`, all a bare java-tron node serves), read for the pool's
//! events in log order.

use alloy_primitives::B256;
use alloy_sol_types::SolEvent;
use contracts::TronPool;
use futures_util::StreamExt;
use tron::Address;
use tron::client::TransactionInfo;

use super::events::relayer_name;
use super::{Fetched, SCAN_CONCURRENCY, SyncProgress};
use crate::error::{Error, Result};
use crate::service::chain::Chain;
use crate::service::wire::Malformed;
use crate::store::trees::{CacheHead, Leaf, Withdrawal};

/// Reads every block from `from` to the head for the pool's events. The head is read
/// after the deposit count, so every counted deposit is in a block the scan reads.
pub(super) async fn scan(
    chain: &Chain,
    pool: Address,
    from: u64,
    head: CacheHead,
    target: u32,
    progress: &(dyn Fn(SyncProgress) + Sync),
) -> Result<Fetched> {
    let last = chain.node.get_now_block().await?.number().max(0) as u64;
    let mut fetched = Fetched {
        next_block: Some(last + 1),
        ..Fetched::default()
    };
    let node = &chain.node;
    let mut blocks = futures_util::stream::iter(from..=last)
        .map(|n| async move { (n, node.get_transaction_infos_by_block(n as i64).await) })
        .buffered(SCAN_CONCURRENCY);
    while let Some((number, infos)) = blocks.next().await {
        for info in infos? {
            let events = pool_events(&info, pool).map_err(|why| {
                Error::Refused(format!(
                    "block {number} of {} holds an unreadable event of the pool {pool}: \
                     {why}",
                    chain.node.url()
                ))
            })?;
            for event in events {
                match event {
                    PoolEvent::Deposit(leaf) => fetched.leaves.push(leaf),
                    PoolEvent::Withdrawal(w) => fetched.withdrawals.push(w),
                }
            }
        }
        if number % 100 == 0 || number == last {
            progress(SyncProgress {
                have: u64::from(head.count) + fetched.leaves.len() as u64,
                target: target.into(),
            });
        }
    }
    Ok(fetched)
}

/// A pool event read from a transaction's logs.
#[derive(Debug, PartialEq, Eq)]
pub(super) enum PoolEvent {
    Deposit(Leaf),
    Withdrawal(Withdrawal),
}

/// The `Deposit` and `Withdrawal` events `pool` emitted in a successful transaction, in log
/// order, as a block scan reads them. Logs of other contracts and other events are ignored;
/// a log of the pool that claims to be one of the two but does not decode is an error.
pub(super) fn pool_events(
    info: &TransactionInfo,
    pool: Address,
) -> std::result::Result<Vec<PoolEvent>, Malformed> {
    if !info.succeeded() {
        return Ok(Vec::new());
    }
    let mut events = Vec::new();
    for log in info.log.iter().filter(|l| l.address == pool) {
        let topics: Vec<B256> = log.topics.iter().map(|t| B256::from(*t)).collect();
        match topics.first() {
            Some(t) if *t == TronPool::Deposit::SIGNATURE_HASH => {
                let e = TronPool::Deposit::decode_raw_log(topics, &log.data).map_err(|e| {
                    Malformed::Log {
                        event: "Deposit",
                        detail: e.to_string(),
                    }
                })?;
                events.push(PoolEvent::Deposit(Leaf {
                    index: e.leafIndex,
                    commitment: e.commitment.0,
                    block_timestamp: info.block_timestamp,
                    txid: info.id.to_hex(),
                }));
            }
            Some(t) if *t == TronPool::Withdrawal::SIGNATURE_HASH => {
                let e = TronPool::Withdrawal::decode_raw_log(topics, &log.data).map_err(|e| {
                    Malformed::Log {
                        event: "Withdrawal",
                        detail: e.to_string(),
                    }
                })?;
                events.push(PoolEvent::Withdrawal(Withdrawal {
                    nullifier_hash: e.nullifierHash.0,
                    txid: info.id.to_hex(),
                    block: Some(info.block_number),
                    block_timestamp: info.block_timestamp,
                    recipient: Address::from(e.to).to_base58(),
                    relayer: relayer_name(Address::from(e.relayer)),
                    fee: e.fee.to_string(),
                }));
            }
            _ => {}
        }
    }
    Ok(events)
}
