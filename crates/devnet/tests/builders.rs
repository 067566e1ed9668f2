//! The node-side builders and helpers (`deploycontract`, `triggersmartcontract`,
//! `estimateenergy`, `getsignweight`) and the `/devnet/*` controls.
#![allow(clippy::unwrap_used)] // a test fails by panicking: unwrapping is how it says so

mod support;

use alloy_primitives::U256;
use alloy_sol_types::SolCall;
use serde_json::json;
use support::{client, devnet, post, send};
use tron::abi::Trc20;
use tron::{Action, Address, PrivateKey, Transaction, Trigger};

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn deploycontract_builds_a_deployment_at_tron_s_address() {
    let devnet = devnet().await;
    let client = client(&devnet);
    let url = devnet.url();
    let owner = devnet.accounts()[0].clone();
    let artifact: serde_json::Value =
        serde_json::from_str(contracts::artifact("DevUSDT").unwrap().json).unwrap();
    let args = hex::encode(alloy_sol_types::SolConstructor::abi_encode(
        &contracts::DevUSDT::constructorCall {
            initialSupply: U256::from(5u64),
        },
    ));
    let built = post(
        &format!("{url}/wallet/deploycontract"),
        json!({
            "owner_address": owner.address().to_base58(),
            "abi": artifact["abi"].to_string(),
            "bytecode": artifact["bytecode"].as_str().unwrap().trim_start_matches("0x"),
            "parameter": args,
            "name": "Mine",
            "fee_limit": 1_000_000_000,
            "origin_energy_limit": 10_000_000,
            "consume_user_resource_percent": 100,
            "visible": true,
        }),
    )
    .await;
    let expected: Address = built["contract_address"].as_str().unwrap().parse().unwrap();
    let mut tx = Transaction::from_json(&built).expect("a consistent transaction");
    assert_eq!(
        expected,
        Address::contract_address(&tx.txid().0, &owner.address())
    );
    tx.sign(&owner).unwrap();
    let txid = client.broadcast_transaction(&tx).await.unwrap();
    let info = client.get_transaction_info(&txid).await.unwrap().unwrap();
    assert!(info.succeeded(), "{:?}", info.failure_reason());
    assert_eq!(info.contract_address, Some(expected));
    let contract = client
        .get_contract(&expected)
        .await
        .unwrap()
        .expect("stored");
    assert_eq!(contract.name, "Mine");
    assert_eq!(contract.origin_address, Some(owner.address()));
    assert!(contract.abi["entrys"].as_array().unwrap().len() > 10);
    let info = post(
        &format!("{url}/wallet/getcontractinfo"),
        json!({ "value": expected.to_base58(), "visible": true }),
    )
    .await;
    assert!(!info["runtimecode"].as_str().unwrap().is_empty());

    // A view through triggersmartcontract runs as a constant call (the ABI says `view`).
    let view = post(
        &format!("{url}/wallet/triggersmartcontract"),
        json!({ "owner_address": owner.address().to_base58(), "contract_address": expected.to_base58(),
                "function_selector": "totalSupply()", "visible": true }),
    )
    .await;
    assert_eq!(view["constant_result"][0], format!("{:064x}", 5));
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn estimateenergy_is_enough_and_matches_the_receipt() {
    let devnet = devnet().await;
    let client = client(&devnet);
    let usdt = devnet.deployment().usdt;
    let alice = devnet.accounts()[0].clone();
    let to = PrivateKey::generate().address();
    let call = Trigger {
        owner: alice.address(),
        contract: usdt,
        data: Trc20::transferCall {
            to: to.into(),
            value: U256::from(3u64),
        }
        .abi_encode(),
        ..Trigger::default()
    };
    let estimate = client.estimate_energy(&call).await.unwrap();
    let (_, info) = send(
        &client,
        &alice,
        Action::Trigger(call.clone()),
        estimate * 100,
    )
    .await;
    assert!(info.succeeded(), "{:?}", info.failure_reason());
    assert_eq!(info.receipt.energy_usage_total, estimate);

    // A call that reverts cannot be estimated.
    let bad = Trigger {
        data: Trc20::transferCall {
            to: to.into(),
            value: U256::MAX,
        }
        .abi_encode(),
        ..call
    };
    match client.estimate_energy(&bad).await.unwrap_err() {
        tron::NodeError::Refused { code, .. } => assert_eq!(code, "CONTRACT_EXE_ERROR"),
        other => panic!("{other:?}"),
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn getsignweight_reports_the_txid_and_who_signed() {
    let devnet = devnet().await;
    let url = devnet.url();
    let alice = devnet.accounts()[0].clone();
    let head = client(&devnet).get_now_block().await.unwrap();
    let mut tx = tron::TransactionBuilder::new(
        Action::Transfer {
            owner: alice.address(),
            to: PrivateKey::generate().address(),
            amount: 9,
        },
        head.ref_block(),
    )
    .build();
    let mut body = tx.to_json(false);
    body["txID"] = "".into();
    let weight = post(&format!("{url}/wallet/getsignweight"), body).await;
    assert_eq!(weight["result"]["code"], "NOT_ENOUGH_PERMISSION");
    assert_eq!(
        weight["transaction"]["transaction"]["txID"],
        tx.txid().to_hex()
    );
    assert_eq!(
        weight["permission"]["keys"][0]["address"],
        alice.address().to_hex()
    );
    tx.sign(&alice).unwrap();
    let weight = post(&format!("{url}/wallet/getsignweight"), tx.to_json(true)).await;
    assert_eq!(
        weight["approved_list"],
        json!([alice.address().to_base58()])
    );
    assert_eq!(weight["current_weight"], 1);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn devnet_controls_mine_set_balances_and_move_time() {
    let devnet = devnet().await;
    let client = client(&devnet);
    let url = devnet.url();
    let head = client.get_now_block().await.unwrap();
    let mined = post(&format!("{url}/devnet/mine"), json!({ "blocks": 3 })).await;
    assert_eq!(mined["head"], head.number() + 3);

    let who = PrivateKey::generate().address();
    let set = post(
        &format!("{url}/devnet/set_balance"),
        json!({ "address": who.to_base58(), "balance": 777 }),
    )
    .await;
    assert_eq!(set["balance"], 777);
    assert_eq!(
        client.get_account(&who).await.unwrap().unwrap().balance,
        777
    );

    let before = client.get_now_block().await.unwrap().timestamp();
    post(
        &format!("{url}/devnet/increase_time"),
        json!({ "seconds": 3600 }),
    )
    .await;
    post(&format!("{url}/devnet/mine"), json!({})).await;
    let after = client.get_now_block().await.unwrap().timestamp();
    assert!(after - before >= 3_600_000, "{before} → {after}");

    let bad = support::http()
        .post(format!("{url}/devnet/revert"))
        .json(&json!({ "id": 99 }))
        .send()
        .await
        .unwrap();
    assert_eq!(bad.status(), 400);
    let accounts = support::get(&format!("{url}/devnet/accounts"))
        .await
        .json::<serde_json::Value>()
        .await
        .unwrap();
    assert_eq!(accounts["accounts"].as_array().unwrap().len(), 10);
    assert_eq!(
        accounts["accounts"][0]["address"],
        devnet.accounts()[0].address().to_base58()
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_trx_transfer_to_a_contract_runs_no_code() {
    let devnet = devnet().await;
    let client = client(&devnet);
    let pool = devnet.deployment().pools[0].address;
    let alice = devnet.accounts()[0].clone();
    // The pool has no receive function: a call with TRX would revert, a transfer does not run it.
    let (_, info) = send(
        &client,
        &alice,
        Action::Transfer {
            owner: alice.address(),
            to: pool,
            amount: 10,
        },
        0,
    )
    .await;
    assert!(info.succeeded());
    assert_eq!(
        client.get_account(&pool).await.unwrap().unwrap().balance,
        10
    );
    let (_, info) = send(
        &client,
        &alice,
        Action::Trigger(Trigger {
            owner: alice.address(),
            contract: pool,
            call_value: 10,
            ..Trigger::default()
        }),
        100_000_000,
    )
    .await;
    assert!(!info.succeeded());
    assert_eq!(
        client.get_account(&pool).await.unwrap().unwrap().balance,
        10
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn malformed_requests_get_java_tron_s_answers() {
    let devnet = devnet().await;
    let url = devnet.url();
    // Builders and broadcast have no GET: java-tron's empty doGet answers 200 with nothing.
    let get = support::get(&format!("{url}/wallet/broadcasttransaction")).await;
    assert_eq!(get.status(), 200);
    assert!(get.text().await.unwrap().is_empty());

    // A signature of the wrong length is a SIGERROR naming its size.
    let alice = devnet.accounts()[0].clone();
    let head = client(&devnet).get_now_block().await.unwrap();
    let tx = tron::TransactionBuilder::new(
        Action::Transfer {
            owner: alice.address(),
            to: PrivateKey::generate().address(),
            amount: 1,
        },
        head.ref_block(),
    )
    .build();
    let mut body = tx.to_json(true);
    body["signature"] = json!([hex::encode([7u8; 64])]);
    let refused = post(&format!("{url}/wallet/broadcasttransaction"), body).await;
    assert_eq!(refused["code"], "SIGERROR");
    assert_eq!(
        refused["message"],
        "Validate signature error: Signature size is 64"
    );
    assert_eq!(refused["txid"], tx.txid().to_hex());
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_corrupt_state_file_is_refused_with_its_path() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("state.json");
    std::fs::write(&path, "{\"version\": 1").unwrap();
    let config = devnet::DevnetConfig {
        state: Some(path.clone()),
        ..devnet::DevnetConfig::ephemeral()
    };
    let error = devnet::spawn(config)
        .await
        .err()
        .expect("refused")
        .to_string();
    assert!(error.contains("is not a devnet state file"), "{error}");
    assert!(error.contains(&path.display().to_string()), "{error}");
}
