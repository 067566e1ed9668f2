//! `/devnet/*`: controls a real node does not have, for tests and development.
//!
//! - `POST /devnet/mine {"blocks": n}` produces a block now from the pending pool (a new
//!   block even if the pool is empty) and `n - 1` empty ones after it.
//! - `POST /devnet/snapshot` → `{"id"}`; `POST /devnet/revert {"id"}` restores the state,
//!   blocks and clock of that snapshot. The snapshot stays usable (revert to it again later);
//!   snapshots taken after it are dropped, since they describe a future that no longer exists.
//! - `POST /devnet/set_balance {"address", "balance"}` sets a TRX balance in sun.
//! - `POST /devnet/increase_time {"seconds"}` moves the clock of future blocks forward.
//! - `POST /devnet/set_energy_fee {"energyFee"}` sets the energy price in sun per energy
//!   (1..=10000): `getEnergyFee`, what transactions burn from now on and what fee limits
//!   buy; saved with the chain. → `{"energyFee"}`.
//! - `POST /devnet/set_energy_factor {"contract", "energyFactor"}` sets a contract's
//!   dynamic-energy factor in 1/10,000 (0 to `getDynamicEnergyMaxFactor`; 34000 is ×4.4, the
//!   devnet USDT's at genesis): `getcontractinfo`'s `contract_state.energy_factor` and what
//!   every opcode in that contract costs from now on; saved with the chain.
//!   → `{"contract", "energyFactor"}`.
//! - `POST /devnet/set_price_reserves {"trx", "usdt"}` moves the TRX price: the genesis
//!   deployer calls the price pair's `setReserves(trx, usdt)` in a transaction sealed into a
//!   block like any other. Base units (6 decimals), each above 0 and below 2^112, as JSON
//!   numbers or decimal strings. → `{"reserve0", "reserve1", "txid"}`, the reserves read back
//!   from the pair (numbers; decimal strings above 2^53, where JSON numbers lose precision in
//!   JavaScript). Refused when the deployment has no price pair. The pair reports a trade in
//!   every block, as a busy pair would; with `"quietSeconds": n` it says instead that it last
//!   traded n seconds before the head block (its `setLastTrade`), so its price looks stale.
//! - `GET /devnet/accounts`, `GET /devnet/deployment`, `GET /devnet/info` (the head, and
//!   `pending`: how many transactions wait in the pending pool for the next block).

use std::collections::HashMap;
use std::sync::Arc;

use axum::body::Bytes;
use axum::extract::{Path, Query, State};
use axum::http::{Method, StatusCode};
use axum::response::Response;
use serde_json::{Value, json};
use tron::{Action, TransactionBuilder, Trigger};

use super::{Params, json, json_status};
use crate::Shared;
use crate::chain::recover_signers;

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
    let writes = [
        "mine",
        "snapshot",
        "revert",
        "set_balance",
        "increase_time",
        "set_energy_fee",
        "set_energy_factor",
        "set_price_reserves",
    ];
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
        "set_energy_fee" => set_energy_fee(&shared, &params),
        "set_energy_factor" => set_energy_factor(&shared, &params),
        "set_price_reserves" => set_price_reserves(&shared, &params),
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
        // What makes this node a tronpool devnet: clients compare it, and block 0 itself,
        // with `genesis::genesis_block_id` before they accept the development keys.
        "genesisBlockId": chain.block(0).map(|b| hex::encode(b.id)),
        "head": chain.head().number,
        "headTimestamp": chain.head().timestamp,
        "pending": chain.pending_count(),
        "witness": chain.witness().to_base58(),
        // The CPU-time model (chain::cpu): the limit, the producer's speed, and the modeled
        // time of the latest contract run.
        "maxCpuTimeOfOneTxMs": chain.params().max_cpu_time_of_one_tx_ms,
        "cpuSpeed": chain.cpu_speed(),
        "lastCpuTimeUs": chain.last_cpu_time_us(),
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

fn set_energy_fee(shared: &Shared, p: &Params) -> Result<Value, String> {
    let fee = int(p, "energyFee")?.ok_or("energyFee (sun per energy) is required")?;
    let mut chain = shared.lock();
    chain
        .set_energy_fee(fee)
        .map_err(|e| format!("energyFee: {e}"))?;
    Ok(json!({ "energyFee": chain.params().energy_fee }))
}

fn set_energy_factor(shared: &Shared, p: &Params) -> Result<Value, String> {
    let contract = p
        .address("contract")
        .map_err(|_| "contract is not a TRON address".to_owned())?
        .ok_or("contract is required")?;
    let factor = int(p, "energyFactor")?.ok_or("energyFactor (in 1/10,000) is required")?;
    let mut chain = shared.lock();
    chain.set_energy_factor(contract, factor)?;
    Ok(json!({
        "contract": contract.to_base58(),
        "energyFactor": chain.energy_factor(&contract),
    }))
}

/// A reserve: a positive integer below 2^112 (`uint112`), as a JSON number or a decimal
/// string (for values a JSON number cannot carry exactly).
fn reserve(p: &Params, key: &str) -> Result<u128, String> {
    let bad = || format!("{key} must be an integer above 0 and below 2^112 (base units)");
    let value = match p.get(key).ok_or_else(|| format!("{key} is required"))? {
        Value::Number(n) => n.as_u64().map(u128::from).ok_or_else(bad)?,
        Value::String(s) => s.trim().parse::<u128>().map_err(|_| bad())?,
        _ => return Err(bad()),
    };
    if value == 0 || value >= 1 << 112 {
        return Err(bad());
    }
    Ok(value)
}

/// A reserve for JSON: a number while JavaScript holds it exactly, a decimal string beyond.
fn reserve_json(value: u128) -> Value {
    match u64::try_from(value) {
        Ok(v) if v < 1 << 53 => json!(v),
        _ => json!(value.to_string()),
    }
}

fn set_price_reserves(shared: &Shared, p: &Params) -> Result<Value, String> {
    use alloy_primitives::aliases::U112;
    use alloy_sol_types::SolCall;
    use contracts::DevSunswapPair::{getReservesCall, setLastTradeCall, setReservesCall};

    let pair = shared.deployment.price_pair.ok_or(
        "this devnet's deployment has no price pair (its state file predates it); \
         start a devnet with a fresh state file to get one",
    )?;
    let trx = reserve(p, "trx")?;
    let usdt = reserve(p, "usdt")?;
    let quiet = int(p, "quietSeconds")?;
    if quiet.is_some_and(|q| !(0..=10 * 365 * 86_400).contains(&q)) {
        return Err("quietSeconds must be between 0 and ten years".into());
    }
    let deployer = crate::genesis::deployer_key();
    if deployer.address() != shared.deployment.deployer {
        return Err("the price pair's owner is not the devnet's genesis deployer".into());
    }
    // token0 is the WTRX stand-in and token1 the USDT, as on mainnet's WTRX/USDT pair.
    let mut calls = vec![
        setReservesCall {
            reserve0_: U112::from(trx),
            reserve1_: U112::from(usdt),
        }
        .abi_encode(),
    ];
    let mut chain = shared.lock();
    if let Some(quiet) = quiet {
        let last = (chain.head().timestamp / 1000 - quiet).max(0);
        calls.push(
            setLastTradeCall {
                timestamp: u32::try_from(last).unwrap_or(u32::MAX),
            }
            .abi_encode(),
        );
    }
    let mut txids = Vec::new();
    for data in calls {
        let action = Action::Trigger(Trigger {
            owner: deployer.address(),
            contract: pair,
            data,
            ..Trigger::default()
        });
        let mut tx = TransactionBuilder::new(action, chain.head().ref_block())
            .timestamp(chain.now())
            .fee_limit(chain.params().max_fee_limit)
            .build();
        tx.push_signature(deployer.sign_digest(&tx.txid().0));
        let signers = recover_signers(&tx);
        txids.push(
            chain
                .submit(tx, signers)
                .map_err(|e| format!("the pair refused the change: {e}"))?,
        );
    }
    chain.mine();
    for txid in &txids {
        let info = &chain
            .transaction(txid)
            .ok_or_else(|| format!("the block left out the change {}", txid.to_hex()))?
            .info;
        if let Some(reason) = &info.failure {
            return Err(format!(
                "changing the pair failed ({}): {reason}",
                txid.to_hex()
            ));
        }
    }
    let txid = txids[0];
    let out = chain
        .call(
            deployer.address(),
            Some(pair),
            getReservesCall {}.abi_encode(),
            0,
        )
        .map_err(|e| format!("getReserves: {e}"))?;
    let reserves = getReservesCall::abi_decode_returns(&out.output)
        .map_err(|e| format!("getReserves: {e}"))?;
    Ok(json!({
        "reserve0": reserve_json(reserves._reserve0.to::<u128>()),
        "reserve1": reserve_json(reserves._reserve1.to::<u128>()),
        "txid": txid.to_hex(),
    }))
}
