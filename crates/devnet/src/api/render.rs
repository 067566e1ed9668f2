//! java-tron's JSON shapes (`JsonFormat` rules): proto3 defaults left out, bytes as hex,
//! address fields base58 when `visible` and `41…` hex otherwise, text fields hex-encoded
//! UTF-8 unless `visible`.

use serde_json::{Map, Value, json};
use tron::{Address, Transaction};

use crate::chain::block::{BLOCK_VERSION, Block};
use crate::chain::receipt::{LogEntry, TxInfo};
use crate::chain::{AccountView, Ledger, Mined};

/// An address field.
pub fn addr(address: &Address, visible: bool) -> Value {
    if visible {
        address.to_base58().into()
    } else {
        address.to_hex().into()
    }
}

/// A text field (`message`, `resMessage`, ...).
pub fn text(s: &str, visible: bool) -> Value {
    if visible {
        s.into()
    } else {
        hex::encode(s.as_bytes()).into()
    }
}

fn put_int(map: &mut Map<String, Value>, key: &str, n: i64) {
    if n != 0 {
        map.insert(key.into(), n.into());
    }
}

/// A transaction as blocks and `gettransactionbyid` show it: with `ret` when executed.
pub fn transaction(mined: &Mined, visible: bool) -> Value {
    let mut value = mined.tx.to_json(visible);
    let obj = value.as_object_mut().expect("a transaction is an object");
    obj.remove("visible");
    let ret = mined.info.result.map(|r| r.name()).unwrap_or("SUCCESS");
    obj.insert("ret".into(), json!([{ "contractRet": ret }]));
    value
}

/// A transaction a builder endpoint made (unsigned, with `visible`).
pub fn built(tx: &Transaction, visible: bool) -> Value {
    tx.to_json(visible)
}

pub fn block(chain: &Ledger, block: &Block, visible: bool, detail: bool) -> Value {
    let mut raw = Map::new();
    put_int(&mut raw, "number", block.number as i64);
    raw.insert("txTrieRoot".into(), hex::encode(block.tx_root).into());
    raw.insert("witness_address".into(), addr(&block.witness, visible));
    raw.insert("parentHash".into(), hex::encode(block.parent).into());
    raw.insert("version".into(), BLOCK_VERSION.into());
    put_int(&mut raw, "timestamp", block.timestamp);
    let mut out = Map::new();
    out.insert("blockID".into(), hex::encode(block.id).into());
    out.insert(
        "block_header".into(),
        json!({ "raw_data": raw, "witness_signature": hex::encode(&block.signature) }),
    );
    if detail && !block.txs.is_empty() {
        let txs: Vec<Value> = block
            .txs
            .iter()
            .filter_map(|id| chain.transaction(id))
            .map(|m| transaction(m, visible))
            .collect();
        out.insert("transactions".into(), txs.into());
    }
    Value::Object(out)
}

fn log(entry: &LogEntry, visible: bool) -> Value {
    let mut out = Map::new();
    let address = if visible {
        Address::from_evm(entry.address).to_base58()
    } else {
        hex::encode(entry.address)
    };
    out.insert("address".into(), address.into());
    out.insert(
        "topics".into(),
        entry
            .topics
            .iter()
            .map(hex::encode)
            .collect::<Vec<_>>()
            .into(),
    );
    if !entry.data.is_empty() {
        out.insert("data".into(), hex::encode(&entry.data).into());
    }
    Value::Object(out)
}

pub fn logs(entries: &[LogEntry], visible: bool) -> Value {
    entries
        .iter()
        .map(|l| log(l, visible))
        .collect::<Vec<_>>()
        .into()
}

pub fn transaction_info(info: &TxInfo, visible: bool) -> Value {
    let mut out = Map::new();
    out.insert("id".into(), info.id.to_hex().into());
    put_int(&mut out, "fee", info.fee);
    put_int(&mut out, "blockNumber", info.block_number as i64);
    put_int(&mut out, "blockTimeStamp", info.block_timestamp);
    let result = info.contract_result.as_deref().unwrap_or_default();
    out.insert("contractResult".into(), json!([hex::encode(result)]));
    if let Some(contract) = &info.contract_address {
        out.insert("contract_address".into(), addr(contract, visible));
    }
    let mut receipt = Map::new();
    put_int(&mut receipt, "energy_usage", info.energy_usage);
    put_int(&mut receipt, "energy_fee", info.energy_fee);
    put_int(
        &mut receipt,
        "origin_energy_usage",
        info.origin_energy_usage,
    );
    put_int(&mut receipt, "energy_usage_total", info.energy_usage_total);
    put_int(
        &mut receipt,
        "energy_penalty_total",
        info.energy_penalty_total,
    );
    put_int(&mut receipt, "net_usage", info.net_usage);
    put_int(&mut receipt, "net_fee", info.net_fee);
    if let Some(ret) = info.result {
        receipt.insert("result".into(), ret.name().into());
    }
    out.insert("receipt".into(), Value::Object(receipt));
    put_int(
        &mut out,
        "withdraw_expire_amount",
        info.withdraw_expire_amount,
    );
    if info.result.is_some() {
        // The devnet's own: the contract run's modeled java-tron CPU time.
        out.insert("devnet_cpu_time_us".into(), info.cpu_time_us.into());
    }
    if !info.logs.is_empty() {
        out.insert("log".into(), logs(&info.logs, visible));
    }
    if let Some(reason) = &info.failure {
        out.insert("result".into(), "FAILED".into());
        out.insert("resMessage".into(), text(reason, visible));
    }
    Value::Object(out)
}

/// The operations an active permission allows by default (every contract type java-tron has).
const ACTIVE_OPERATIONS: &str = "7fff1fc0033efb0f000000000000000000000000000000000000000000000000";

pub fn account(view: &AccountView, visible: bool) -> Value {
    let mut out = Map::new();
    out.insert("address".into(), addr(&view.address, visible));
    put_int(&mut out, "balance", view.balance);
    put_int(&mut out, "create_time", view.meta.create_time);
    put_int(
        &mut out,
        "latest_opration_time",
        view.meta.latest_operation_time,
    );
    put_int(&mut out, "free_net_usage", view.meta.free_net_used);
    put_int(
        &mut out,
        "latest_consume_free_time",
        view.meta.latest_consume_free_time,
    );
    if view.is_contract {
        out.insert("type".into(), "Contract".into());
        return Value::Object(out);
    }
    out.insert("net_window_size".into(), 28_800_000.into());
    let owner = owner_permission(&view.address, visible);
    let key = owner["keys"].clone();
    out.insert("owner_permission".into(), owner);
    out.insert(
        "active_permission".into(),
        json!([{ "type": "Active", "id": 2, "permission_name": "active", "threshold": 1,
                 "operations": ACTIVE_OPERATIONS, "keys": key }]),
    );
    // Stake 2.0 (`Wallet.getAccount`): always the three frozenV2 entries, zeros left out.
    let stake = &view.meta.stake;
    let mut energy = Map::new();
    energy.insert("type".into(), "ENERGY".into());
    put_int(&mut energy, "amount", stake.frozen);
    out.insert(
        "frozenV2".into(),
        json!([{}, Value::Object(energy), { "type": "TRON_POWER" }]),
    );
    if !stake.releases.is_empty() {
        let releases: Vec<Value> = stake
            .releases
            .iter()
            .map(|r| {
                json!({ "type": "ENERGY", "unfreeze_amount": r.amount,
                        "unfreeze_expire_time": r.expire_time })
            })
            .collect();
        out.insert("unfrozenV2".into(), releases.into());
    }
    let mut resource = Map::new();
    put_int(&mut resource, "energy_usage", view.energy_used);
    put_int(
        &mut resource,
        "latest_consume_time_for_energy",
        stake.usage_time,
    );
    resource.insert("energy_window_size".into(), 28_800_000.into());
    resource.insert("energy_window_optimized".into(), true.into());
    put_int(
        &mut resource,
        "delegated_frozenV2_balance_for_energy",
        stake.delegated,
    );
    put_int(
        &mut resource,
        "acquired_delegated_frozenV2_balance_for_energy",
        stake.acquired,
    );
    out.insert("account_resource".into(), Value::Object(resource));
    Value::Object(out)
}

/// The owner permission of an account with java-tron's defaults.
pub fn owner_permission(owner: &Address, visible: bool) -> Value {
    json!({ "permission_name": "owner", "threshold": 1,
            "keys": [{ "address": addr(owner, visible), "weight": 1 }] })
}
