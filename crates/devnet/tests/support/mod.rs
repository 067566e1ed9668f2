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
