//! Shared helpers: a devnet on an ephemeral port and a node client for it.
#![allow(dead_code)] // each test binary uses a different part

use std::time::Duration;

use devnet::{DevnetConfig, DevnetHandle};
use tron::client::{NodeClient, NodeConfig};
use tron::{Action, PrivateKey, Transaction, TransactionBuilder, TxId};
use url::Url;

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
    let owner = devnet.accounts()[0].clone();
    let built = post(
        &format!("{}/wallet/deploycontract", devnet.url()),
        serde_json::json!({
            "owner_address": owner.address().to_base58(), "abi": "[]",
            "bytecode": hex::encode(&init), "name": "Runtime",
            "fee_limit": 1_000_000_000, "origin_energy_limit": origin_energy_limit,
            "consume_user_resource_percent": percent, "visible": true,
        }),
    )
    .await;
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
