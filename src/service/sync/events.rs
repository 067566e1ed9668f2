//! The TronGrid events API as a sync source: a pool's `Deposit` and `Withdrawal` events,
//! paged with fingerprints, and how one event of each reads.

use alloy_primitives::U256;
use tron::Address;
use tron::client::{Event, EventQuery};

use super::MAX_PAGES;
use crate::error::{Error, Result};
use crate::service::chain::Chain;
use crate::service::wire::{Malformed, word};
use crate::store::trees::{Leaf, Withdrawal};

/// The batch that inserted a queued deposit, as its `BatchInserted` event tells it.
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize)]
#[serde(rename_all = "camelCase")]
pub struct InsertedBy {
    pub txid: String,
    pub block: i64,
    pub time: i64,
    /// The leaves it inserted: `start` to `start + count - 1`.
    pub start: u32,
    pub count: u32,
    /// Who sent it (and was credited its insertion fees).
    pub submitter: Address,
}

/// Every event `name` of `pool` from `since` (ms) on, from the events API, read by `read`.
pub(super) async fn events<T>(
    chain: &Chain,
    pool: Address,
    name: &str,
    since: Option<i64>,
    read: impl Fn(&Event) -> std::result::Result<Option<T>, Malformed>,
    progress: &(dyn Fn(usize) + Sync),
) -> Result<Vec<T>> {
    let query = EventQuery {
        event_name: Some(name.into()),
        limit: Some(200),
        ascending: true,
        // Events of the newest cached block again: more may share it.
        min_block_timestamp: since,
        ..Default::default()
    };
    let mut out = Vec::new();
    let mut fingerprint: Option<String> = None;
    for _ in 0..MAX_PAGES {
        let page = chain
            .node
            .contract_events(&pool, &query, fingerprint.as_deref())
            .await?;
        for event in &page.events {
            let item = read(event).map_err(|why| {
                Error::Refused(format!(
                    "a {name} event of the pool {pool} from the events API is unreadable: \
                     {why}"
                ))
            })?;
            out.extend(item);
        }
        progress(out.len());
        match page.fingerprint {
            Some(next) if fingerprint.as_ref() != Some(&next) => fingerprint = Some(next),
            Some(_) => {
                return Err(Error::Failed(
                    "the events API returned the same page twice".into(),
                ));
            }
            None => return Ok(out),
        }
    }
    Err(Error::Failed(format!(
        "the {name} events of the pool {pool} are still paging after {MAX_PAGES} pages"
    )))
}

/// The leaf a `Deposit(bytes32 indexed commitment, uint32 leafIndex, uint256 timestamp)`
/// event reports, from the events API.
pub(super) fn deposit_leaf(event: &Event) -> std::result::Result<Leaf, Malformed> {
    let commitment = word(&event_text(event, "commitment")?, "commitment")?;
    let index = event_text(event, "leafIndex")?;
    let index: u32 = index
        .parse()
        .map_err(|_| Malformed::value("leafIndex", &index))?;
    Ok(Leaf {
        index,
        commitment,
        block_timestamp: event.block_timestamp,
        txid: event.transaction_id.to_hex(),
    })
}

/// An address argument of an event: `0x` and 20 bytes of hex, or base58.
fn event_address(event: &Event, name: &str) -> std::result::Result<Address, Malformed> {
    let text = event_text(event, name)?;
    let digits = text.trim_start_matches("0x");
    match hex::decode(digits) {
        Ok(bytes) if bytes.len() == 20 => {
            let mut raw = [0u8; 20];
            raw.copy_from_slice(&bytes);
            Ok(Address::from_evm(raw))
        }
        _ => text.parse().map_err(|_| Malformed::value(name, &text)),
    }
}

/// A `BatchInserted(uint32 start, uint32 count, bytes32 root, address indexed submitter)`
/// event from the events API.
pub(super) fn batch_event(event: &Event) -> std::result::Result<InsertedBy, Malformed> {
    let number = |name: &str| -> std::result::Result<u32, Malformed> {
        let text = event_text(event, name)?;
        text.parse().map_err(|_| Malformed::value(name, &text))
    };
    Ok(InsertedBy {
        txid: event.transaction_id.to_hex(),
        block: event.block_number,
        time: event.block_timestamp,
        start: number("start")?,
        count: number("count")?,
        submitter: event_address(event, "submitter")?,
    })
}

/// A `Withdrawal(address to, bytes32 nullifierHash, address indexed relayer, uint256 fee)`
/// event from the events API.
pub(super) fn withdrawal_event(event: &Event) -> std::result::Result<Withdrawal, Malformed> {
    let address = |name: &str| event_address(event, name);
    let fee = event_text(event, "fee")?;
    let fee: U256 = fee.parse().map_err(|_| Malformed::value("fee", &fee))?;
    let relayer = address("relayer")?;
    Ok(Withdrawal {
        nullifier_hash: word(&event_text(event, "nullifierHash")?, "nullifierHash")?,
        txid: event.transaction_id.to_hex(),
        block: Some(event.block_number),
        block_timestamp: event.block_timestamp,
        recipient: address("to")?.to_base58(),
        relayer: relayer_name(relayer),
        fee: fee.to_string(),
    })
}

pub(super) fn event_text(event: &Event, name: &str) -> std::result::Result<String, Malformed> {
    match event.result.get(name) {
        Some(serde_json::Value::String(s)) => Ok(s.clone()),
        Some(serde_json::Value::Number(n)) => Ok(n.to_string()),
        _ => Err(Malformed::Missing(name.to_owned())),
    }
}

/// A relayer as cached: `None` for the zero address (a self-withdrawal).
pub(super) fn relayer_name(relayer: Address) -> Option<String> {
    (relayer != Address::ZERO).then(|| relayer.to_base58())
}
