//! TronGrid's indexed API: `/v1/contracts/{address}/events` and `/v1/accounts/{address}`.

use std::collections::HashMap;
use std::sync::Arc;

use axum::extract::{Path, Query, State};
use axum::http::{StatusCode, Uri};
use axum::response::Response;
use serde_json::{Value, json};
use tron::Address;
use tron::transaction::now_ms;

use super::events::{decode, event_abis};
use super::{json, json_status, render};
use crate::Shared;
use crate::chain::EventRef;

/// TronGrid's page size cap.
const MAX_LIMIT: usize = 200;
const DEFAULT_LIMIT: usize = 20;

fn bad_request(message: impl Into<String>) -> Response {
    json_status(
        StatusCode::BAD_REQUEST,
        json!({ "success": false, "error": message.into(), "statusCode": 400 }),
    )
}

pub(crate) async fn healthcheck() -> Response {
    json(json!({ "status": "OK" }))
}

/// Where an event sits in the chain: block, transaction position in it, log position.
type Position = (u64, usize, usize);

fn fingerprint(p: Position) -> String {
    format!("{:x}-{:x}-{:x}", p.0, p.1, p.2)
}

fn parse_fingerprint(text: &str) -> Option<Position> {
    let mut parts = text.split('-').map(|p| usize::from_str_radix(p, 16).ok());
    let block = parts.next()?? as u64;
    let tx = parts.next()??;
    let log = parts.next()??;
    parts.next().is_none().then_some((block, tx, log))
}

fn number(q: &HashMap<String, String>, keys: &[&str]) -> Result<Option<i64>, Response> {
    for key in keys {
        if let Some(text) = q.get(*key).filter(|t| !t.is_empty()) {
            return text
                .parse()
                .map(Some)
                .map_err(|_| bad_request(format!("{key} must be an integer")));
        }
    }
    Ok(None)
}

fn flag(q: &HashMap<String, String>, keys: &[&str]) -> bool {
    keys.iter()
        .any(|k| q.get(*k).is_some_and(|v| v.eq_ignore_ascii_case("true")))
}

pub(crate) async fn events(
    State(shared): State<Arc<Shared>>,
    Path(address): Path<String>,
    Query(q): Query<HashMap<String, String>>,
    uri: Uri,
) -> Response {
    match events_page(&shared, &address, &q, &uri) {
        Ok(value) => json(value),
        Err(response) => response,
    }
}

fn events_page(
    shared: &Shared,
    address: &str,
    q: &HashMap<String, String>,
    uri: &Uri,
) -> Result<Value, Response> {
    let contract: Address = address
        .parse()
        .map_err(|e| bad_request(format!("invalid address {address}: {e}")))?;
    let limit = match number(q, &["limit"])? {
        None => DEFAULT_LIMIT,
        Some(n) if n >= 1 && n as usize <= MAX_LIMIT => n as usize,
        Some(_) => {
            return Err(bad_request(format!(
                "limit must be between 1 and {MAX_LIMIT}"
            )));
        }
    };
    let ascending = match q
        .get("order_by")
        .or_else(|| q.get("orderBy"))
        .map(String::as_str)
    {
        None | Some("") | Some("block_timestamp,desc") => false,
        Some("block_timestamp,asc") => true,
        Some(other) => return Err(bad_request(format!("unsupported order_by `{other}`"))),
    };
    let only_confirmed = flag(q, &["only_confirmed", "onlyConfirmed"]);
    let only_unconfirmed = flag(q, &["only_unconfirmed", "onlyUnconfirmed"]);
    if only_confirmed && only_unconfirmed {
        return Err(bad_request(
            "only_confirmed and only_unconfirmed cannot both be true",
        ));
    }
    let name = q
        .get("event_name")
        .or_else(|| q.get("eventName"))
        .filter(|n| !n.is_empty());
    let block_number = number(q, &["block_number", "blockNumber"])?;
    let min_ts = number(
        q,
        &["min_block_timestamp", "min_timestamp", "minBlockTimestamp"],
    )?;
    let max_ts = number(
        q,
        &["max_block_timestamp", "max_timestamp", "maxBlockTimestamp"],
    )?;
    let after = match q.get("fingerprint").filter(|f| !f.is_empty()) {
        Some(f) => Some(parse_fingerprint(f).ok_or_else(|| bad_request("invalid fingerprint"))?),
        None => None,
    };

    let chain = shared.lock();
    let mut items: Vec<(Position, Value)> = Vec::new();
    let mut more = false;
    // Every event here is solidified: the devnet's solid head is its head.
    if !only_unconfirmed && let Some(stored) = chain.contract(&contract) {
        let abi = stored.abi.clone().unwrap_or_default();
        let mut abis = event_abis(&abi);
        // Asked for one event, only its ABI stays: a log of any other is passed over by its
        // first topic, before its transaction is looked up or anything decoded (TronGrid
        // indexes events by name; a client syncing one kind of event from a pool with
        // 100,000 of another would otherwise pay to decode them all).
        if let Some(name) = name {
            abis.retain(|a| a.name == name.as_str());
        }
        // The references are in chain order: the page starts by binary search after the
        // fingerprint and walks only as far as it needs, so paging through a contract with
        // many events costs each page its own size, not the whole history.
        let refs = chain.event_refs(&contract);
        // Block times only grow along the chain, so the time bounds are a range of the
        // references too, found the same way: a client that asks from its newest block's time
        // costs the page it gets, not a walk over every older event (TronGrid indexes them).
        let time = |r: &EventRef| chain.block(r.block).map_or(i64::MAX, |b| b.timestamp);
        let from = min_ts.map_or(0, |t| refs.partition_point(|r| time(r) < t));
        let to = max_ts.map_or(refs.len(), |t| refs.partition_point(|r| time(r) <= t));
        let refs = &refs[from..to.max(from)];
        let walk: Box<dyn Iterator<Item = &EventRef>> = match (ascending, after) {
            (true, None) => Box::new(refs.iter()),
            (true, Some(a)) => Box::new(refs[refs.partition_point(|r| r.position() <= a)..].iter()),
            (false, None) => Box::new(refs.iter().rev()),
            (false, Some(a)) => Box::new(
                refs[..refs.partition_point(|r| r.position() < a)]
                    .iter()
                    .rev(),
            ),
        };
        for r in walk {
            // A log of no event asked for (or of none in the ABI) is passed over here.
            if !abis.iter().any(|a| a.is(r.topic0.as_ref())) {
                continue;
            }
            let Some((mined, log, log_index)) = chain.event(r) else {
                continue;
            };
            let info = &mined.info;
            if block_number.is_some_and(|n| n != info.block_number as i64) {
                continue;
            }
            let Some((event, result, types)) = decode(&abis, log) else {
                continue;
            };
            if items.len() == limit {
                more = true;
                break;
            }
            items.push((
                r.position(),
                json!({
                    "block_number": info.block_number,
                    "block_timestamp": info.block_timestamp,
                    "caller_contract_address": contract.to_base58(),
                    "contract_address": contract.to_base58(),
                    "event_index": log_index,
                    "event_name": event.name,
                    "result": result,
                    "result_type": types,
                    "event": event.signature_text(),
                    "transaction_id": info.id.to_hex(),
                }),
            ));
        }
    }
    drop(chain);
    let mut meta = serde_json::Map::new();
    meta.insert("at".into(), now_ms().into());
    meta.insert("page_size".into(), items.len().into());
    if more && let Some((last, _)) = items.last() {
        let print = fingerprint(*last);
        let mut next: Vec<String> = uri
            .query()
            .unwrap_or_default()
            .split('&')
            .filter(|p| !p.is_empty() && !p.starts_with("fingerprint="))
            .map(str::to_owned)
            .collect();
        next.push(format!("fingerprint={print}"));
        meta.insert(
            "links".into(),
            json!({ "next": format!("{}?{}", uri.path(), next.join("&")) }),
        );
        meta.insert("fingerprint".into(), print.into());
    }
    let data: Vec<Value> = items.into_iter().map(|(_, v)| v).collect();
    Ok(json!({ "data": data, "success": true, "meta": meta }))
}

pub(crate) async fn account(
    State(shared): State<Arc<Shared>>,
    Path(address): Path<String>,
) -> Response {
    let address: Address = match address.parse() {
        Ok(a) => a,
        Err(e) => return bad_request(format!("invalid address {address}: {e}")),
    };
    let mut chain = shared.lock();
    let Some(view) = chain.account(&address) else {
        return json(json!({ "data": [], "success": true,
                            "meta": { "at": now_ms(), "page_size": 0 } }));
    };
    let mut value = render::account(&view, true);
    let tokens: Vec<Address> = chain
        .data()
        .contracts
        .iter()
        .filter(|(_, c)| is_trc20(c))
        .map(|(a, _)| *a)
        .collect();
    let mut trc20 = Vec::new();
    for token in tokens {
        let data = alloy_sol_types::SolCall::abi_encode(&tron::abi::Trc20::balanceOfCall {
            owner: address.into(),
        });
        let Ok(outcome) = chain.call(address, Some(token), data, 0) else {
            continue;
        };
        if outcome.output.len() == 32 {
            let balance = alloy_primitives::U256::from_be_slice(&outcome.output);
            if !balance.is_zero() {
                trc20.push(json!({ token.to_base58(): balance.to_string() }));
            }
        }
    }
    value["trc20"] = trc20.into();
    json(json!({ "data": [value], "success": true, "meta": { "at": now_ms(), "page_size": 1 } }))
}

/// A contract whose ABI has TRC-20's `balanceOf` and `Transfer`.
fn is_trc20(contract: &tron::proto::SmartContract) -> bool {
    let Some(abi) = &contract.abi else {
        return false;
    };
    let has = |name: &str, kind: i32| {
        abi.entrys
            .iter()
            .any(|e| e.name == name && e.r#type == kind)
    };
    has("balanceOf", 2) && has("Transfer", 3)
}
