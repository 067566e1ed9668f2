//! Blocks as a TRON producer makes them, over HTTP: with a block time, broadcasts wait in the
//! pending pool and share a block in arrival order; reads see the pending state, receipts
//! and `/walletsolidity/*` only sealed blocks; a transaction a block-mate or the clock made
//! invalid is dropped when the block is produced, one that merely reverts is packed and pays.
#![allow(clippy::unwrap_used)] // a test fails by panicking: unwrapping is how it says so

mod support;

use std::time::{Duration, Instant};

use alloy_primitives::U256;
use alloy_sol_types::SolCall;
use devnet::{DevnetConfig, DevnetHandle};
use serde_json::{Value, json};
use support::{client, post, signed};
use tron::abi::Trc20;
use tron::client::{NodeClient, NodeError};
use tron::{Action, Address, PrivateKey, Transaction, TransactionBuilder, Trigger, TxId};

/// A devnet that makes a block only when asked (`/devnet/mine`): an hour's block time.
async fn pooling_devnet() -> DevnetHandle {
    devnet::spawn(DevnetConfig::ephemeral().with_block_time(Duration::from_secs(3600)))
        .await
        .expect("devnet starts")
}

async fn mine(devnet: &DevnetHandle) -> i64 {
    let answer = post(&format!("{}/devnet/mine", devnet.url()), json!({})).await;
    answer["head"].as_i64().expect("a head")
}

async fn info_json(devnet: &DevnetHandle, path: &str, txid: &TxId) -> Value {
    post(
        &format!("{}/{path}", devnet.url()),
        json!({ "value": txid.to_hex() }),
    )
    .await
}

async fn pending(devnet: &DevnetHandle) -> i64 {
    let info = post(&format!("{}/devnet/info", devnet.url()), json!({})).await;
    info["pending"].as_i64().expect("a pending count")
}

async fn balance(client: &NodeClient, who: Address) -> i64 {
    client
        .get_account(&who)
        .await
        .unwrap()
        .map_or(0, |a| a.balance)
}

async fn solid_balance(devnet: &DevnetHandle, who: Address) -> i64 {
    let account = post(
        &format!("{}/walletsolidity/getaccount", devnet.url()),
        json!({ "address": who.to_base58(), "visible": true }),
    )
    .await;
    account["balance"].as_i64().unwrap_or(0)
}

fn transfer(from: &PrivateKey, to: Address, amount: i64) -> Action {
    Action::Transfer {
        owner: from.address(),
        to,
        amount,
    }
}

/// The txids of a block, in its order, as `getblockbynum` lists them.
async fn block_txids(devnet: &DevnetHandle, number: i64) -> Vec<String> {
    let block = post(
        &format!("{}/wallet/getblockbynum", devnet.url()),
        json!({ "num": number }),
    )
    .await;
    block["transactions"]
        .as_array()
        .map(|txs| {
            txs.iter()
                .map(|t| t["txID"].as_str().unwrap().to_owned())
                .collect()
        })
        .unwrap_or_default()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn transfers_broadcast_between_blocks_share_one_block_in_arrival_order() {
    let devnet = pooling_devnet().await;
    let client = client(&devnet);
    let alice = devnet.accounts()[0].clone();
    let bob = devnet.accounts()[1].clone();
    let head = client.get_now_block().await.unwrap().number();
    let carol = devnet.accounts()[2].address();
    let first = signed(&client, &alice, transfer(&alice, carol, 1_000_000), 0).await;
    let second = signed(&client, &bob, transfer(&bob, carol, 2_000_000), 0).await;
    let first = client.broadcast_transaction(&first).await.unwrap();
    let second = client.broadcast_transaction(&second).await.unwrap();
    assert_eq!(pending(&devnet).await, 2);
    // Nothing is sealed until the producer's turn.
    assert_eq!(client.get_now_block().await.unwrap().number(), head);

    let block = mine(&devnet).await;
    assert_eq!(block, head + 1);
    assert_eq!(pending(&devnet).await, 0);
    assert_eq!(
        block_txids(&devnet, block).await,
        vec![first.to_hex(), second.to_hex()]
    );
    for txid in [first, second] {
        let info = client.get_transaction_info(&txid).await.unwrap().unwrap();
        assert_eq!(info.block_number, block);
        assert!(info.succeeded());
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_pending_transfer_is_read_at_once_and_receipted_with_its_block() {
    let devnet = pooling_devnet().await;
    let client = client(&devnet);
    let alice = devnet.accounts()[0].clone();
    let to = PrivateKey::generate().address();
    let before = balance(&client, alice.address()).await;
    let tx = signed(&client, &alice, transfer(&alice, to, 5_000_000), 0).await;
    let txid = client.broadcast_transaction(&tx).await.unwrap();

    // The FullNode's reads see the pending state (java-tron's `pushTransaction` applies it
    // to the pending session): the new account and both balances.
    assert_eq!(balance(&client, to).await, 5_000_000);
    let spent = before - balance(&client, alice.address()).await;
    assert_eq!(
        spent,
        5_000_000 + 1_000_000 + 100_000,
        "amount, activation, bandwidth"
    );
    // Receipts, the transaction store and the solidity node know only sealed blocks.
    for path in [
        "wallet/gettransactioninfobyid",
        "wallet/gettransactionbyid",
        "walletsolidity/gettransactioninfobyid",
    ] {
        assert_eq!(info_json(&devnet, path, &txid).await, json!({}), "{path}");
    }
    assert_eq!(solid_balance(&devnet, to).await, 0);
    assert_eq!(solid_balance(&devnet, alice.address()).await, before);

    let block = mine(&devnet).await;
    let info = client.get_transaction_info(&txid).await.unwrap().unwrap();
    assert_eq!(info.block_number, block);
    assert_eq!(info.fee, 1_100_000);
    assert_eq!(solid_balance(&devnet, to).await, 5_000_000);
    assert_eq!(balance(&client, to).await, 5_000_000);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_duplicate_of_a_pending_transaction_is_refused() {
    let devnet = pooling_devnet().await;
    let client = client(&devnet);
    let alice = devnet.accounts()[0].clone();
    let tx = signed(
        &client,
        &alice,
        transfer(&alice, PrivateKey::generate().address(), 1),
        0,
    )
    .await;
    client.broadcast_transaction(&tx).await.unwrap();
    match client.broadcast_transaction(&tx).await.unwrap_err() {
        NodeError::Refused { code, message, .. } => {
            assert_eq!(
                (code.as_str(), message.as_str()),
                ("DUP_TRANSACTION_ERROR", "Dup transaction.")
            );
        }
        other => panic!("expected a refusal, got {other:?}"),
    }
    assert_eq!(pending(&devnet).await, 1);
    mine(&devnet).await;
    assert!(matches!(
        client.broadcast_transaction(&tx).await,
        Err(NodeError::Refused { code, .. }) if code == "DUP_TRANSACTION_ERROR"
    ));
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_reverting_call_is_packed_and_pays() {
    let devnet = pooling_devnet().await;
    let client = client(&devnet);
    let usdt = devnet.deployment().usdt;
    let bob = devnet.accounts()[1].clone();
    let before = balance(&client, bob.address()).await;
    let call = Action::Trigger(Trigger {
        owner: bob.address(),
        contract: usdt,
        data: Trc20::transferCall {
            to: PrivateKey::generate().address().into(),
            value: U256::from(devnet::genesis::DEV_ACCOUNT_USDT + 1),
        }
        .abi_encode(),
        ..Trigger::default()
    });
    let tx = signed(&client, &bob, call, 100_000_000).await;
    let txid = client.broadcast_transaction(&tx).await.unwrap();
    let block = mine(&devnet).await;
    assert_eq!(block_txids(&devnet, block).await, vec![txid.to_hex()]);
    let info = client.get_transaction_info(&txid).await.unwrap().unwrap();
    assert_eq!(info.receipt.result.as_deref(), Some("REVERT"));
    assert!(info.fee > 0, "a revert burns its energy");
    assert_eq!(balance(&client, bob.address()).await, before - info.fee);
}

/// Runtime code that takes the TRX sent to it only from `unlock` (seconds) on, and reverts
/// before: `TIMESTAMP < unlock ? REVERT : STOP`.
fn time_lock(unlock: u32) -> Vec<u8> {
    let mut code = vec![0x63]; // PUSH4 unlock
    code.extend_from_slice(&unlock.to_be_bytes());
    // TIMESTAMP LT PUSH1 0x0b JUMPI STOP JUMPDEST PUSH1 0 DUP1 REVERT
    code.extend_from_slice(&[
        0x42, 0x10, 0x60, 0x0b, 0x57, 0x00, 0x5b, 0x60, 0x00, 0x80, 0xfd,
    ]);
    code
}

/// A transaction on the head block that expires in `hours`.
async fn lasting(client: &NodeClient, key: &PrivateKey, action: Action, fee: i64) -> Transaction {
    let head = client.get_now_block().await.unwrap();
    let mut tx = TransactionBuilder::new(action, head.ref_block())
        .expiration(head.timestamp() + 20 * 3_600_000)
        .fee_limit(fee)
        .build();
    tx.sign(key).unwrap();
    tx
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_transaction_its_block_mate_made_unaffordable_is_dropped() {
    let devnet = pooling_devnet().await;
    let client = client(&devnet);
    let alice = devnet.accounts()[0].clone();
    let head_secs = client.get_now_block().await.unwrap().timestamp() / 1000;
    let lock = support::deploy_runtime(&devnet, &time_lock(head_secs as u32 + 1800)).await;

    // Dave has 20 TRX, and staked nothing: each transaction pays its bandwidth in TRX
    // once his free bandwidth is gone, so give him little to spare.
    let dave = PrivateKey::generate();
    let tx = signed(
        &client,
        &alice,
        transfer(&alice, dave.address(), 20_000_000),
        0,
    )
    .await;
    client.broadcast_transaction(&tx).await.unwrap();
    mine(&devnet).await;

    // First, 15 TRX into the lock: now, it reverts and Dave keeps them (paying its fee).
    let pay = Action::Trigger(Trigger {
        owner: dave.address(),
        contract: lock,
        call_value: 15_000_000,
        ..Trigger::default()
    });
    let first = lasting(&client, &dave, pay, 3_000_000).await;
    let first = client.broadcast_transaction(&first).await.unwrap();
    // Then 15 TRX to Alice: affordable in the pending state, where the first reverted.
    let second = lasting(
        &client,
        &dave,
        transfer(&dave, alice.address(), 15_000_000),
        0,
    )
    .await;
    let second = client.broadcast_transaction(&second).await.unwrap();
    assert_eq!(pending(&devnet).await, 2);

    // The block is produced an hour later, when the lock takes the TRX: the first spends
    // them, and the second, run against what the block has reached, cannot pay.
    post(
        &format!("{}/devnet/increase_time", devnet.url()),
        json!({ "seconds": 3600 }),
    )
    .await;
    let block = mine(&devnet).await;
    assert_eq!(block_txids(&devnet, block).await, vec![first.to_hex()]);
    let info = client.get_transaction_info(&first).await.unwrap().unwrap();
    assert!(info.succeeded(), "{:?}", info.failure_reason());
    assert_eq!(balance(&client, lock).await, 15_000_000);
    // Dropped: no receipt, now or later, and its TRX never moved.
    assert_eq!(
        info_json(&devnet, "wallet/gettransactioninfobyid", &second).await,
        json!({})
    );
    mine(&devnet).await;
    assert_eq!(
        info_json(&devnet, "wallet/gettransactioninfobyid", &second).await,
        json!({})
    );
    assert_eq!(
        balance(&client, dave.address()).await,
        20_000_000 - 15_000_000 - info.fee
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_transaction_expired_by_its_block_time_is_dropped() {
    let devnet = pooling_devnet().await;
    let client = client(&devnet);
    let alice = devnet.accounts()[0].clone();
    let to = PrivateKey::generate().address();
    // Expires 60 s after the head block (the builder's default).
    let tx = signed(&client, &alice, transfer(&alice, to, 1_000_000), 0).await;
    let txid = client.broadcast_transaction(&tx).await.unwrap();
    assert_eq!(balance(&client, to).await, 1_000_000);
    post(
        &format!("{}/devnet/increase_time", devnet.url()),
        json!({ "seconds": 120 }),
    )
    .await;
    let block = mine(&devnet).await;
    assert!(block_txids(&devnet, block).await.is_empty());
    assert_eq!(
        info_json(&devnet, "wallet/gettransactioninfobyid", &txid).await,
        json!({})
    );
    assert_eq!(
        balance(&client, to).await,
        0,
        "the pending state is gone too"
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn with_a_block_time_blocks_come_every_interval_empty_or_not() {
    let interval = Duration::from_millis(500);
    let devnet = devnet::spawn(DevnetConfig::ephemeral().with_block_time(interval))
        .await
        .unwrap();
    let client = client(&devnet);
    let alice = devnet.accounts()[0].clone();
    let start = client.get_now_block().await.unwrap().number();
    tokio::time::sleep(interval * 4 + interval / 2).await;
    let head = client.get_now_block().await.unwrap().number();
    assert!(
        (start + 3..=start + 5).contains(&head),
        "{} blocks in 4.5 intervals",
        head - start
    );
    for number in start + 1..=head {
        assert!(block_txids(&devnet, number).await.is_empty());
    }

    // A broadcast waits for the next block, and its receipt comes with it.
    let tx = signed(
        &client,
        &alice,
        transfer(&alice, PrivateKey::generate().address(), 1),
        0,
    )
    .await;
    let txid = client.broadcast_transaction(&tx).await.unwrap();
    let sent = Instant::now();
    let info = loop {
        if let Some(info) = client.get_transaction_info(&txid).await.unwrap() {
            break info;
        }
        assert!(
            sent.elapsed() < interval * 4,
            "no receipt after 4 intervals"
        );
        tokio::time::sleep(Duration::from_millis(50)).await;
    };
    assert!(info.block_number > head);
    assert_eq!(
        block_txids(&devnet, info.block_number).await,
        vec![txid.to_hex()]
    );
}
