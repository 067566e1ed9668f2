//! `/devnet/*`: controls a real node does not have, for tests and development.
//!
//! - `POST /devnet/mine {"blocks": n}` seals the block being built and `n - 1` empty ones.
//! - `POST /devnet/snapshot` → `{"id"}`; `POST /devnet/revert {"id"}` restores the state,
//!   blocks and clock of that snapshot. The snapshot stays usable (revert to it again later);
//!   snapshots taken after it are dropped, since they describe a future that no longer exists.
//! - `POST /devnet/set_balance {"address", "balance"}` sets a TRX balance in sun.
//! - `POST /devnet/increase_time {"seconds"}` moves the clock of future blocks forward.
//! - `GET /devnet/accounts`, `GET /devnet/deployment`, `GET /devnet/info`.

use std::collections::HashMap;
use std::sync::Arc;

use axum::body::Bytes;
use axum::extract::{Path, Query, State};
use axum::http::{Method, StatusCode};
use axum::response::Response;
use serde_json::{Value, json};

use super::{Params, json, json_status};
use crate::Shared;

fn error(status: StatusCode, message: impl Into<String>) -> Response {
    json_status(status, json!({ "error": message.into() }))
}

pub(crate) async fn dispatch(
    State(shared): State<Arc<Shared>>,
    Path(action): Path<String>,
    method: Method,
    Query(query): Query<HashMap<String, String>>,
    body: Bytes,
) -> Response {
    let params = match Params::parse(&query, &body) {
        Ok(p) => p,
        Err(_) => return error(StatusCode::BAD_REQUEST, "the body must be a JSON object"),
    };
    let reads = ["accounts", "deployment", "info"];
    let writes = ["mine", "snapshot", "revert", "set_balance", "increase_time"];
    let allowed = if reads.contains(&action.as_str()) {
        method == Method::GET || method == Method::POST
    } else if writes.contains(&action.as_str()) {
        method == Method::POST
    } else {
        return error(
            StatusCode::NOT_FOUND,
            format!("no devnet control `{action}`; try one of {reads:?} {writes:?}"),
        );
    };
    if !allowed {
        return error(
            StatusCode::METHOD_NOT_ALLOWED,
            format!("use POST for /devnet/{action}"),
        );
    }
    let result = match action.as_str() {
        "accounts" => Ok(accounts(&shared)),
        "deployment" => Ok(serde_json::to_value(&shared.deployment).expect("serialisable")),
        "info" => Ok(info(&shared)),
        "mine" => mine(&shared, &params),
        "snapshot" => Ok(snapshot(&shared)),
        "revert" => revert(&shared, &params),
        "set_balance" => set_balance(&shared, &params),
        "increase_time" => increase_time(&shared, &params),
        _ => unreachable!("checked above"),
    };
    match result {
        Ok(value) => json(value),
        Err(message) => error(StatusCode::BAD_REQUEST, message),
    }
}

fn int(p: &Params, key: &str) -> Result<Option<i64>, String> {
    match p.get(key) {
        None => Ok(None),
        Some(Value::Number(n)) => n
            .as_i64()
            .map(Some)
            .ok_or_else(|| format!("{key} must be an integer")),
        Some(Value::String(s)) => s
            .parse()
            .map(Some)
            .map_err(|_| format!("{key} must be an integer")),
        Some(_) => Err(format!("{key} must be an integer")),
    }
}

fn accounts(shared: &Shared) -> Value {
    let chain = shared.lock();
    let list: Vec<Value> = shared
        .accounts
        .iter()
        .map(|key| {
            let address = key.address();
            json!({
                "address": address.to_base58(),
                "privateKey": key.to_hex().as_str(),
                "balance": chain.balance(&address),
            })
        })
        .collect();
    json!({ "accounts": list })
}

fn info(shared: &Shared) -> Value {
    let chain = shared.lock();
    json!({
        "chainId": chain.chain_id(),
        "head": chain.head().number,
        "headTimestamp": chain.head().timestamp,
        "pending": chain.pending_count(),
        "witness": chain.witness().to_base58(),
    })
}

fn mine(shared: &Shared, p: &Params) -> Result<Value, String> {
    let blocks = int(p, "blocks")?.unwrap_or(1);
    if !(1..=10_000).contains(&blocks) {
        return Err("blocks must be between 1 and 10000".into());
    }
    let mut chain = shared.lock();
    let mined: Vec<u64> = (0..blocks).map(|_| chain.mine()).collect();
    Ok(json!({ "blocks": mined, "head": chain.head().number }))
}

fn snapshot(shared: &Shared) -> Value {
    let snapshot = shared.lock().snapshot();
    let mut snapshots = shared.snapshots.lock().unwrap_or_else(|e| e.into_inner());
    snapshots.push(snapshot);
    json!({ "id": snapshots.len() - 1 })
}

fn revert(shared: &Shared, p: &Params) -> Result<Value, String> {
    let id = int(p, "id")?.ok_or("id is required")?;
    let mut snapshots = shared.snapshots.lock().unwrap_or_else(|e| e.into_inner());
    let index = usize::try_from(id)
        .ok()
        .filter(|i| *i < snapshots.len())
        .ok_or_else(|| format!("no snapshot {id}"))?;
    snapshots.truncate(index + 1);
    let mut chain = shared.lock();
    chain.restore(snapshots[index].clone());
    Ok(json!({ "reverted": true, "head": chain.head().number }))
}

fn set_balance(shared: &Shared, p: &Params) -> Result<Value, String> {
    let address = p
        .address("address")
        .map_err(|_| "address is not a TRON address".to_owned())?
        .ok_or("address is required")?;
    let balance = int(p, "balance")?.ok_or("balance (in sun) is required")?;
    if balance < 0 {
        return Err("balance must not be negative".into());
    }
    let mut chain = shared.lock();
    chain.set_balance(address, balance);
    Ok(json!({ "address": address.to_base58(), "balance": chain.balance(&address) }))
}

fn increase_time(shared: &Shared, p: &Params) -> Result<Value, String> {
    let seconds = int(p, "seconds")?.ok_or("seconds is required")?;
    if !(0..=10 * 365 * 86_400).contains(&seconds) {
        return Err("seconds must be between 0 and ten years".into());
    }
    let mut chain = shared.lock();
    chain.increase_time(seconds * 1000);
    Ok(json!({ "offsetMs": chain.data().time_offset_ms }))
}
