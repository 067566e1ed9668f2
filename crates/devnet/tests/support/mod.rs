//! Shared helpers: a devnet on an ephemeral port and a node client for it.
#![allow(dead_code)] // each test binary uses a different part

use std::time::Duration;

use alloy_primitives::{B256, U256};
use alloy_sol_types::SolCall;
use devnet::{DevnetConfig, DevnetHandle};
use tron::abi::Trc20;
use tron::client::{NodeClient, NodeConfig};
use tron::{Action, Address, PrivateKey, Transaction, TransactionBuilder, Trigger, TxId};
use url::Url;
use zk::Fr;

pub async fn devnet() -> DevnetHandle {
    devnet::spawn(DevnetConfig::ephemeral())
        .await
        .expect("devnet starts")
}

pub fn client(devnet: &DevnetHandle) -> NodeClient {
    let mut config = NodeConfig::new(Url::parse(&devnet.url()).expect("url"));
    config.retries = 0;
    config.timeout = Duration::from_secs(30);
    NodeClient::new(config).expect("client")
}

/// Builds a transaction on the head block, signs it with `key`.
pub async fn signed(
    client: &NodeClient,
    key: &PrivateKey,
    action: Action,
    fee_limit: i64,
) -> Transaction {
    let head = client.get_now_block().await.expect("head");
    let mut tx = TransactionBuilder::new(action, head.ref_block())
        .fee_limit(fee_limit)
        .build();
    tx.sign(key).expect("sign");
    tx
}

/// Broadcasts and returns the receipt (the devnet mines instantly).
pub async fn send(
    client: &NodeClient,
    key: &PrivateKey,
    action: Action,
    fee_limit: i64,
) -> (TxId, tron::client::TransactionInfo) {
    let tx = signed(client, key, action, fee_limit).await;
    let txid = client.broadcast_transaction(&tx).await.expect("broadcast");
    let info = client
        .get_transaction_info(&txid)
        .await
        .expect("info")
        .expect("mined at once");
    (txid, info)
}

/// A plain HTTP client (reqwest needs a TLS provider installed even for plain HTTP).
pub fn http() -> reqwest::Client {
    let _ = rustls::crypto::ring::default_provider().install_default();
    reqwest::Client::new()
}

pub async fn get(url: &str) -> reqwest::Response {
    http().get(url).send().await.expect("request")
}

pub async fn post(url: &str, body: serde_json::Value) -> serde_json::Value {
    http()
        .post(url)
        .json(&body)
        .send()
        .await
        .expect("request")
        .json()
        .await
        .expect("json")
}

/// Deploys `runtime` (plain EVM bytecode) from dev account 0 through the node's
/// `deploycontract`, behind an 11-byte init code that copies it out; answers its address.
pub async fn deploy_runtime(devnet: &DevnetHandle, runtime: &[u8]) -> tron::Address {
    deploy_runtime_with(devnet, runtime, 100, 10_000_000).await
}

/// [`deploy_runtime`] with the contract's `consume_user_resource_percent` and
/// `origin_energy_limit`: who pays its callers' energy.
pub async fn deploy_runtime_with(
    devnet: &DevnetHandle,
    runtime: &[u8],
    percent: i64,
    origin_energy_limit: i64,
) -> tron::Address {
    let len = u8::try_from(runtime.len()).expect("a short runtime");
    let mut init = vec![
        0x60, len, 0x80, 0x60, 0x0b, 0x60, 0x00, 0x39, 0x60, 0x00, 0xf3,
    ];
    init.extend_from_slice(runtime);
    deploy(
        devnet,
        serde_json::json!({
            "abi": "[]", "bytecode": hex::encode(&init), "name": "Runtime",
            "origin_energy_limit": origin_energy_limit, "consume_user_resource_percent": percent,
        }),
    )
    .await
}

/// Deploys the committed artifact `name` with the ABI-encoded constructor `args` from dev
/// account 0, with the contract's `consume_user_resource_percent` and `origin_energy_limit`;
/// answers its address.
pub async fn deploy_artifact(
    devnet: &DevnetHandle,
    name: &str,
    args: &[u8],
    percent: i64,
    origin_energy_limit: i64,
) -> tron::Address {
    let artifact: serde_json::Value =
        serde_json::from_str(contracts::artifact(name).expect("bound").json).expect("json");
    deploy(
        devnet,
        serde_json::json!({
            "abi": artifact["abi"].to_string(),
            "bytecode": artifact["bytecode"].as_str().expect("hex").trim_start_matches("0x"),
            "parameter": hex::encode(args), "name": name,
            "origin_energy_limit": origin_energy_limit, "consume_user_resource_percent": percent,
        }),
    )
    .await
}

/// `deploycontract` with `fields` (abi, bytecode, name, ...) from dev account 0, signed,
/// broadcast and sealed; answers the new contract's address.
async fn deploy(devnet: &DevnetHandle, mut fields: serde_json::Value) -> tron::Address {
    let owner = devnet.accounts()[0].clone();
    fields["owner_address"] = owner.address().to_base58().into();
    fields["fee_limit"] = 1_000_000_000.into();
    fields["visible"] = true.into();
    let built = post(&format!("{}/wallet/deploycontract", devnet.url()), fields).await;
    let mut tx = Transaction::from_json(&built).expect("a deployment");
    tx.sign(&owner).expect("sign");
    let client = client(devnet);
    let txid = client.broadcast_transaction(&tx).await.expect("broadcast");
    // Sealed at once on a devnet that seals on broadcast; on one that makes blocks every
    // interval it waits in the pending pool, and `/devnet/mine` seals it now.
    let info = match client.get_transaction_info(&txid).await.expect("info") {
        Some(info) => info,
        None => {
            post(
                &format!("{}/devnet/mine", devnet.url()),
                serde_json::json!({}),
            )
            .await;
            client
                .get_transaction_info(&txid)
                .await
                .expect("info")
                .expect("sealed by /devnet/mine")
        }
    };
    assert!(info.succeeded(), "{:?}", info.failure_reason());
    info.contract_address.expect("deployed")
}

/// One chain parameter as `getchainparameters` lists it (`null` for a zero, which java-tron
/// leaves out).
pub async fn chain_parameter(devnet: &DevnetHandle, key: &str) -> serde_json::Value {
    let params = post(
        &format!("{}/wallet/getchainparameters", devnet.url()),
        serde_json::json!({}),
    )
    .await;
    params["chainParameter"]
        .as_array()
        .expect("a list")
        .iter()
        .find(|p| p["key"] == key)
        .unwrap_or_else(|| panic!("no {key}"))["value"]
        .clone()
}

/// The fee limit every test transaction carries: 1,000 TRX.
pub const FEE_LIMIT: i64 = 1_000_000_000;
/// The 100 USDT pool's denomination, in base units.
pub const DENOMINATION: u64 = 100_000_000;

/// A field element as a contract's 32-byte word.
pub fn word(f: &Fr) -> B256 {
    B256::from(zk::field::to_be_bytes(f))
}

/// A contract call of `owner`'s.
pub fn call(owner: Address, contract: Address, data: Vec<u8>, call_value: i64) -> Action {
    Action::Trigger(Trigger {
        owner,
        contract,
        data,
        call_value,
        ..Trigger::default()
    })
}

/// A constant call of `c`; it must not revert.
pub async fn view<C: SolCall>(client: &NodeClient, contract: Address, c: C) -> C::Return {
    let out = client
        .trigger_constant_contract(&Trigger {
            owner: contract,
            contract,
            data: c.abi_encode(),
            ..Trigger::default()
        })
        .await
        .expect("view");
    assert!(!out.reverted, "view reverted: {:?}", out.revert_reason());
    C::abi_decode_returns(&out.output).expect("decodes")
}

/// `who`'s USDT, in base units.
pub async fn usdt_balance(client: &NodeClient, usdt: Address, who: Address) -> U256 {
    view(client, usdt, Trc20::balanceOfCall { owner: who.into() }).await
}

/// The modeled java-tron CPU time of a transaction (the devnet's `devnet_cpu_time_us`).
/// `owner` approves `amount` base units of USDT to `pool`; the approval must succeed.
pub async fn approve(
    client: &NodeClient,
    owner: &PrivateKey,
    usdt: Address,
    pool: Address,
    amount: u64,
) {
    let data = Trc20::approveCall {
        spender: pool.into(),
        value: U256::from(amount),
    }
    .abi_encode();
    succeed(client, owner, usdt, data, "approve").await;
}

/// `owner` calls `contract` with `data`; the call (named `what` if it fails) must succeed.
pub async fn succeed(
    client: &NodeClient,
    owner: &PrivateKey,
    contract: Address,
    data: Vec<u8>,
    what: &str,
) -> (tron::TxId, tron::client::TransactionInfo) {
    let (txid, info) = send(
        client,
        owner,
        call(owner.address(), contract, data, 0),
        FEE_LIMIT,
    )
    .await;
    assert!(info.succeeded(), "{what}: {:?}", info.failure_reason());
    (txid, info)
}

pub async fn modeled_cpu_us(devnet: &devnet::DevnetHandle, txid: &tron::TxId) -> i64 {
    let info = post(
        &format!("{}/wallet/gettransactioninfobyid", devnet.url()),
        serde_json::json!({ "value": txid.to_hex() }),
    )
    .await;
    info["devnet_cpu_time_us"]
        .as_i64()
        .expect("the modeled time")
}

/// Prints a run's modeled CPU time and checks it fits TRON's 80 ms (at the model's default
/// speed: a producer-class node, warm).
pub fn cpu_line(op: &str, micros: i64) {
    println!(
        r#"{{"bench":"cpu","model":"devnet default speed","op":"{op}","modeled_ms":{}}}"#,
        micros as f64 / 1000.0
    );
    assert!(
        micros < 80_000,
        "{op}: {micros} µs of modeled CPU, past TRON's 80 ms"
    );
}

/// Prints an energy figure as a JSON line.
pub fn energy_line(op: &str, energy: i64) {
    println!(r#"{{"bench":"energy","schedule":"tron","op":"{op}","energy":{energy}}}"#);
}

/// One TRX in sun.
pub const TRX: i64 = 1_000_000;

/// Builds a Stake 2.0 transaction through the node's own endpoint, signs and sends it.
pub async fn stake(
    devnet: &devnet::DevnetHandle,
    key: &PrivateKey,
    endpoint: &str,
    mut body: serde_json::Value,
) -> Result<tron::client::TransactionInfo, String> {
    body["owner_address"] = key.address().to_base58().into();
    body["visible"] = true.into();
    let built = post(&format!("{}/wallet/{endpoint}", devnet.url()), body).await;
    if let Some(error) = built.get("Error") {
        return Err(error.as_str().unwrap().to_owned());
    }
    let mut tx = Transaction::from_json(&built).unwrap();
    tx.sign(key).unwrap();
    let node = client(devnet);
    let txid = node
        .broadcast_transaction(&tx)
        .await
        .map_err(|e| e.to_string())?;
    Ok(node.get_transaction_info(&txid).await.unwrap().unwrap())
}

/// `key` stakes `trx` TRX for energy.
pub async fn freeze(devnet: &devnet::DevnetHandle, key: &PrivateKey, trx: i64) {
    let info = stake(
        devnet,
        key,
        "freezebalancev2",
        serde_json::json!({ "frozen_balance": trx * TRX, "resource": "ENERGY" }),
    )
    .await
    .unwrap();
    assert!(info.succeeded());
}

/// A `TronPool` of 100 USDT (the pool that inserts each deposit at once, which `tronpool
/// deploy` still deploys) over the genesis hasher, withdraw verifier and USDT, deployed by
/// dev account 0 with its callers paying all of its energy. The genesis pools queue their
/// deposits instead (`QueuedPool`).
pub async fn deploy_tron_pool(devnet: &DevnetHandle) -> tron::Address {
    use alloy_sol_types::SolConstructor;
    let d = devnet.deployment();
    let args = contracts::TronPool::constructorCall {
        verifier_: d.verifier.into(),
        hasher_: d.hasher.into(),
        token_: d.usdt.into(),
        denomination_: U256::from(DENOMINATION),
    }
    .abi_encode();
    deploy_artifact(devnet, "TronPool", &args, 100, 10_000_000).await
}
