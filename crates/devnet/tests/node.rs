//! The devnet over HTTP, through tronpool's own node client: genesis, transfers, the broadcast
//! pipeline's refusals, receipts, events, the pools, and state that survives a restart.
#![allow(clippy::unwrap_used)] // a test fails by panicking: unwrapping is how it says so

mod support;

use alloy_primitives::U256;
use alloy_sol_types::SolCall;
use serde_json::json;
use support::{client, devnet, post, send, signed};
use tron::abi::Trc20;
use tron::client::{EventQuery, NodeError};
use tron::{Action, Address, PrivateKey, Trigger};

fn usdt_transfer(owner: Address, usdt: Address, to: Address, amount: u64) -> Action {
    Action::Trigger(Trigger {
        owner,
        contract: usdt,
        data: Trc20::transferCall {
            to: to.into(),
            value: U256::from(amount),
        }
        .abi_encode(),
        ..Trigger::default()
    })
}

async fn usdt_balance(client: &tron::NodeClient, usdt: Address, who: Address) -> U256 {
    let call = Trigger {
        owner: who,
        contract: usdt,
        data: Trc20::balanceOfCall { owner: who.into() }.abi_encode(),
        ..Trigger::default()
    };
    let out = client
        .trigger_constant_contract(&call)
        .await
        .expect("balanceOf");
    assert!(!out.reverted, "balanceOf reverted: {:?}", out.message);
    U256::from_be_slice(&out.output)
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn genesis_deploys_the_contracts_and_funds_the_dev_accounts() {
    let devnet = devnet().await;
    let client = client(&devnet);
    let d = devnet.deployment().clone();
    assert_eq!(d.pools.len(), 6);
    assert_eq!(d.block, 1);
    // Block 1 holds the deployments; block 2 was made at start, so the head's time is now.
    let head = client.get_now_block().await.unwrap();
    assert_eq!(head.number(), 2);
    assert!((head.timestamp() - tron::transaction::now_ms()).abs() < 60_000);
    for address in [d.usdt, d.hasher, d.verifier, d.pools[0].address] {
        let contract = client
            .get_contract(&address)
            .await
            .unwrap()
            .expect("deployed");
        assert_eq!(contract.contract_address, Some(address));
    }
    let alice = devnet.accounts()[0].address();
    let account = client.get_account(&alice).await.unwrap().expect("exists");
    assert_eq!(account.balance, devnet::genesis::DEV_ACCOUNT_TRX_SUN);
    assert_eq!(
        usdt_balance(&client, d.usdt, alice).await,
        U256::from(devnet::genesis::DEV_ACCOUNT_USDT)
    );
    // Deterministic: the same addresses on every start.
    let again = devnet::spawn(devnet::DevnetConfig::ephemeral())
        .await
        .unwrap();
    assert_eq!(again.deployment(), devnet.deployment());
    assert_eq!(
        client
            .get_account(&PrivateKey::generate().address())
            .await
            .unwrap()
            .map(|a| a.balance),
        None
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn trx_and_usdt_transfers_execute_and_charge_fees() {
    let devnet = devnet().await;
    let client = client(&devnet);
    let usdt = devnet.deployment().usdt;
    let alice = devnet.accounts()[0].clone();
    let fresh = PrivateKey::generate().address();

    // A TRX transfer to a new account burns 1.1 TRX for activating it.
    let before = client
        .get_account(&alice.address())
        .await
        .unwrap()
        .unwrap()
        .balance;
    let (_, info) = send(
        &client,
        &alice,
        Action::Transfer {
            owner: alice.address(),
            to: fresh,
            amount: 5_000_000,
        },
        0,
    )
    .await;
    assert!(info.succeeded());
    assert_eq!(info.fee, 1_100_000);
    let after = client
        .get_account(&alice.address())
        .await
        .unwrap()
        .unwrap()
        .balance;
    assert_eq!(before - after, 5_000_000 + 1_100_000);
    assert_eq!(
        client.get_account(&fresh).await.unwrap().unwrap().balance,
        5_000_000
    );

    // A USDT transfer: energy charged at 100 sun, bandwidth from the free allowance.
    let (_, info) = send(
        &client,
        &alice,
        usdt_transfer(alice.address(), usdt, fresh, 7),
        100_000_000,
    )
    .await;
    assert!(info.succeeded(), "{:?}", info.failure_reason());
    assert!(
        info.receipt.energy_usage_total > 10_000,
        "{:?}",
        info.receipt
    );
    assert_eq!(
        info.receipt.energy_fee,
        info.receipt.energy_usage_total * 100
    );
    assert_eq!(info.receipt.result.as_deref(), Some("SUCCESS"));
    assert_eq!(info.log.len(), 1, "one Transfer event");
    assert_eq!(info.log[0].address, usdt);
    // TRON's USDT returns false from transfer even when it moves the tokens.
    assert_eq!(info.contract_result[0], vec![0u8; 32]);
    assert_eq!(usdt_balance(&client, usdt, fresh).await, U256::from(7));

    let tx = client
        .get_transaction_by_id(&info.id)
        .await
        .unwrap()
        .expect("in a block");
    assert_eq!(tx.contract_ret.as_deref(), Some("SUCCESS"));
    assert_eq!(tx.transaction.txid(), info.id);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn reverts_and_out_of_energy_are_recorded_like_java_tron() {
    let devnet = devnet().await;
    let client = client(&devnet);
    let usdt = devnet.deployment().usdt;
    let bob = devnet.accounts()[1].clone();
    let too_much = devnet::genesis::DEV_ACCOUNT_USDT + 1;
    let (_, info) = send(
        &client,
        &bob,
        usdt_transfer(
            bob.address(),
            usdt,
            PrivateKey::generate().address(),
            too_much,
        ),
        100_000_000,
    )
    .await;
    assert!(!info.succeeded());
    assert_eq!(info.receipt.result.as_deref(), Some("REVERT"));
    assert!(
        info.failure_reason().unwrap().contains("balance"),
        "{:?}",
        info.failure_reason()
    );

    // 0.2 TRX buys 2,000 energy, too little for a transfer: all of it is burned.
    let to = PrivateKey::generate().address();
    let (_, info) = send(
        &client,
        &bob,
        usdt_transfer(bob.address(), usdt, to, 1),
        200_000,
    )
    .await;
    assert!(!info.succeeded());
    assert_eq!(info.receipt.result.as_deref(), Some("OUT_OF_ENERGY"));
    assert_eq!(info.receipt.energy_usage_total, 2_000);
    assert_eq!(info.receipt.energy_fee, 200_000);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_broadcast_pipeline_refuses_with_java_tron_codes() {
    let devnet = devnet().await;
    let client = client(&devnet);
    let alice = devnet.accounts()[0].clone();
    let mallory = devnet.accounts()[2].clone();
    let to = PrivateKey::generate().address();
    let transfer = Action::Transfer {
        owner: alice.address(),
        to,
        amount: 1,
    };
    let refused = |e: NodeError| match e {
        NodeError::Refused { code, message, .. } => (code, message),
        other => panic!("expected a refusal, got {other:?}"),
    };

    // Signed by a key that is not the owner's.
    let head = client.get_now_block().await.unwrap();
    let mut tx = tron::TransactionBuilder::new(transfer.clone(), head.ref_block()).build();
    tx.push_signature(mallory.sign_digest(&tx.txid().0));
    let (code, message) = refused(client.broadcast_transaction(&tx).await.unwrap_err());
    assert_eq!(code, "SIGERROR");
    assert!(
        message.contains(&mallory.address().to_base58()),
        "{message}"
    );

    // Unsigned.
    let tx = tron::TransactionBuilder::new(transfer.clone(), head.ref_block()).build();
    let (code, _) = refused(client.broadcast_transaction(&tx).await.unwrap_err());
    assert_eq!(code, "SIGERROR");

    // Expired (expiration at or before the head block's time).
    let mut tx = tron::TransactionBuilder::new(transfer.clone(), head.ref_block())
        .expiration(head.timestamp())
        .build();
    tx.push_signature(alice.sign_digest(&tx.txid().0));
    let (code, message) = refused(client.broadcast_transaction(&tx).await.unwrap_err());
    assert_eq!(
        (code.as_str(), message.as_str()),
        ("TRANSACTION_EXPIRATION_ERROR", "Transaction expired")
    );

    // A reference block this chain never had.
    let mut fake = head.ref_block();
    fake.id[10] ^= 0xff;
    let mut tx = tron::TransactionBuilder::new(transfer.clone(), fake).build();
    tx.sign(&alice).unwrap();
    let (code, _) = refused(client.broadcast_transaction(&tx).await.unwrap_err());
    assert_eq!(code, "TAPOS_ERROR");

    // The same transaction twice.
    let tx = signed(&client, &alice, transfer.clone(), 0).await;
    client.broadcast_hex(&tx).await.unwrap();
    let (code, _) = refused(client.broadcast_transaction(&tx).await.unwrap_err());
    assert_eq!(code, "DUP_TRANSACTION_ERROR");

    // More TRX than the account has.
    let broke = PrivateKey::generate();
    let tx = signed(
        &client,
        &broke,
        Action::Transfer {
            owner: broke.address(),
            to,
            amount: 1,
        },
        0,
    )
    .await;
    let (code, message) = refused(client.broadcast_transaction(&tx).await.unwrap_err());
    assert_eq!(code, "CONTRACT_VALIDATE_ERROR");
    assert!(message.contains("no OwnerAccount"), "{message}");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn events_page_with_fingerprints_in_both_orders() {
    let devnet = devnet().await;
    let client = client(&devnet);
    let usdt = devnet.deployment().usdt;
    let carol = devnet.accounts()[3].clone();
    let to = PrivateKey::generate().address();
    for amount in 1..=5u64 {
        send(
            &client,
            &carol,
            usdt_transfer(carol.address(), usdt, to, amount),
            100_000_000,
        )
        .await;
    }
    let query = EventQuery {
        event_name: Some("Transfer".into()),
        limit: Some(2),
        ascending: true,
        ..EventQuery::default()
    };
    let events = client
        .all_contract_events(&usdt, &query, 100)
        .await
        .unwrap();
    // The mint at deployment, genesis funding ten accounts, then our five transfers.
    assert_eq!(events.len(), 16);
    let ours: Vec<&str> = events[11..]
        .iter()
        .map(|e| e.result["value"].as_str().unwrap())
        .collect();
    assert_eq!(ours, ["1", "2", "3", "4", "5"]);
    let first = &events[11];
    assert_eq!(
        first.result["to"],
        json!(format!("0x{}", hex::encode(to.evm_bytes())))
    );
    assert_eq!(first.result["0"], first.result["from"]);
    assert_eq!(first.result_type["value"], "uint256");

    let newest_first = client
        .all_contract_events(
            &usdt,
            &EventQuery {
                ascending: false,
                ..query.clone()
            },
            100,
        )
        .await
        .unwrap();
    let mut reversed: Vec<_> = newest_first
        .iter()
        .map(|e| (e.transaction_id, e.event_index))
        .collect();
    reversed.reverse();
    assert_eq!(
        reversed,
        events
            .iter()
            .map(|e| (e.transaction_id, e.event_index))
            .collect::<Vec<_>>()
    );

    // A time range is a range of the chain's events, in either order and across pages: from
    // the third transfer's block on, and up to the second's.
    let (third, second) = (events[13].block_timestamp, events[12].block_timestamp);
    for (min, max) in [
        (Some(third), None),
        (None, Some(second)),
        (Some(second), Some(third)),
    ] {
        let expected: Vec<_> = events
            .iter()
            .filter(|e| min.is_none_or(|t| e.block_timestamp >= t))
            .filter(|e| max.is_none_or(|t| e.block_timestamp <= t))
            .map(|e| (e.transaction_id, e.event_index))
            .collect();
        assert!(!expected.is_empty() && expected.len() < events.len());
        for ascending in [true, false] {
            let bounded = EventQuery {
                ascending,
                min_block_timestamp: min,
                max_block_timestamp: max,
                ..query.clone()
            };
            let got = client
                .all_contract_events(&usdt, &bounded, 100)
                .await
                .unwrap();
            let mut got: Vec<_> = got
                .iter()
                .map(|e| (e.transaction_id, e.event_index))
                .collect();
            if !ascending {
                got.reverse();
            }
            assert_eq!(got, expected, "{min:?}..{max:?}, ascending {ascending}");
        }
    }

    let page = client
        .contract_events(
            &usdt,
            &EventQuery {
                event_name: Some("Approval".into()),
                ..query
            },
            None,
        )
        .await
        .unwrap();
    assert!(page.events.is_empty() && page.fingerprint.is_none());

    let too_many = support::get(&format!(
        "{}/v1/contracts/{}/events?limit=500",
        devnet.url(),
        usdt
    ))
    .await;
    assert_eq!(too_many.status(), 400);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn accounts_api_lists_trc20_balances() {
    let devnet = devnet().await;
    let alice = devnet.accounts()[0].address();
    let body: serde_json::Value = support::get(&format!("{}/v1/accounts/{}", devnet.url(), alice))
        .await
        .json()
        .await
        .unwrap();
    assert_eq!(body["success"], true);
    let trc20 = &body["data"][0]["trc20"];
    assert_eq!(
        trc20,
        &json!([{ devnet.deployment().usdt.to_base58(): devnet::genesis::DEV_ACCOUNT_USDT.to_string() }])
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn java_tron_shapes_in_both_visible_modes() {
    let devnet = devnet().await;
    let url = devnet.url();
    let alice = devnet.accounts()[0].address();
    let hex_account = post(
        &format!("{url}/wallet/getaccount"),
        json!({ "address": alice.to_hex() }),
    )
    .await;
    assert_eq!(hex_account["address"], alice.to_hex());
    let b58_account = post(
        &format!("{url}/walletsolidity/getaccount"),
        json!({ "address": alice.to_base58(), "visible": true }),
    )
    .await;
    assert_eq!(b58_account["address"], alice.to_base58());
    assert_eq!(b58_account["balance"], hex_account["balance"]);
    assert_eq!(
        post(
            &format!("{url}/wallet/getaccount"),
            json!({ "address": PrivateKey::generate().address().to_hex() })
        )
        .await,
        json!({})
    );

    // Refusals carry hex-encoded messages unless visible.
    let built = post(
        &format!("{url}/wallet/triggersmartcontract"),
        json!({ "owner_address": alice.to_hex(), "contract_address": PrivateKey::generate().address().to_hex(),
                "function_selector": "transfer(address,uint256)", "parameter": "" }),
    )
    .await;
    assert_eq!(built["result"]["code"], "CONTRACT_VALIDATE_ERROR");
    assert_eq!(
        built["result"]["message"],
        hex::encode("No contract or not a valid smart contract")
    );

    // Node-built transactions are byte-exact: raw_data re-encodes to raw_data_hex.
    let built = post(
        &format!("{url}/wallet/createtransaction"),
        json!({ "owner_address": alice.to_base58(), "to_address": PrivateKey::generate().address().to_base58(),
                "amount": 1000, "visible": true }),
    )
    .await;
    let tx = tron::Transaction::from_json(&built).expect("consistent txID and raw_data_hex");
    assert_eq!(built["visible"], true);
    assert_eq!(tx.owner().unwrap(), alice);

    let node = post(&format!("{url}/wallet/getnodeinfo"), json!({})).await;
    assert!(node["block"].as_str().unwrap().starts_with("Num:2,ID:"));
    let params = post(&format!("{url}/wallet/getchainparameters"), json!({})).await;
    assert!(
        params["chainParameter"]
            .as_array()
            .unwrap()
            .iter()
            .any(|p| p == &json!({"key": "getEnergyFee", "value": 100}))
    );

    let unknown = support::get(&format!("{url}/wallet/nosuchthing")).await;
    assert_eq!(unknown.status(), 404);
    let bad = support::http()
        .post(format!("{url}/wallet/getaccount"))
        .body("{not json")
        .send()
        .await
        .unwrap();
    assert_eq!(bad.status(), 200);
    let body: serde_json::Value = bad.json().await.unwrap();
    assert!(
        body["Error"].as_str().unwrap().starts_with("class "),
        "{body}"
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn state_survives_a_restart_and_snapshots_revert() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("state.json");
    let config = devnet::DevnetConfig {
        state: Some(path.clone()),
        ..devnet::DevnetConfig::ephemeral()
    };
    let first = devnet::spawn(config.clone()).await.unwrap();
    let client1 = client(&first);
    let alice = first.accounts()[0].clone();
    let to = PrivateKey::generate().address();
    let (txid, _) = send(
        &client1,
        &alice,
        Action::Transfer {
            owner: alice.address(),
            to,
            amount: 42,
        },
        0,
    )
    .await;
    let head = client1.get_now_block().await.unwrap().number();
    first.shutdown().await.unwrap();
    assert!(path.exists());

    let second = devnet::spawn(config).await.unwrap();
    let client = client(&second);
    // One more block: the one made at start.
    assert_eq!(client.get_now_block().await.unwrap().number(), head + 1);
    assert_eq!(client.get_account(&to).await.unwrap().unwrap().balance, 42);
    assert!(
        client
            .get_transaction_info(&txid)
            .await
            .unwrap()
            .unwrap()
            .succeeded()
    );
    // The chain goes on from where it stopped: new transactions refer to the loaded head.
    send(
        &client,
        &alice,
        Action::Transfer {
            owner: alice.address(),
            to,
            amount: 1,
        },
        0,
    )
    .await;
    assert_eq!(client.get_account(&to).await.unwrap().unwrap().balance, 43);

    // Snapshots do not survive a restart; take one here and go back to it.
    let id = post(&format!("{}/devnet/snapshot", second.url()), json!({})).await["id"].clone();
    send(
        &client,
        &alice,
        Action::Transfer {
            owner: alice.address(),
            to,
            amount: 1,
        },
        0,
    )
    .await;
    let reverted = post(
        &format!("{}/devnet/revert", second.url()),
        json!({ "id": id }),
    )
    .await;
    assert_eq!(reverted["reverted"], true);
    assert_eq!(client.get_account(&to).await.unwrap().unwrap().balance, 43);
}

/// Every devnet has the same block 0, whatever it holds after, and says so in
/// `/devnet/info`: what clients compare to tell a tronpool devnet from a real network that
/// is called "devnet" in a configuration.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn every_devnet_has_the_same_genesis_block_and_names_it() {
    let expected = devnet::genesis::genesis_block_id();
    let mut seen = Vec::new();
    for accounts in [1, 3] {
        let devnet = devnet::spawn(devnet::DevnetConfig {
            accounts,
            ..devnet::DevnetConfig::ephemeral()
        })
        .await
        .unwrap();
        let block = client(&devnet).get_block(0, false).await.unwrap().unwrap();
        assert_eq!(block.block_id, expected);
        let info: serde_json::Value = support::get(&format!("{}/devnet/info", devnet.url()))
            .await
            .json()
            .await
            .unwrap();
        assert_eq!(info["genesisBlockId"], hex::encode(expected));
        // The chain id (CHAINID in contracts) is the id's last four bytes.
        assert_eq!(
            info["chainId"],
            u32::from_be_bytes(expected[28..].try_into().unwrap())
        );
        seen.push(block.block_id);
    }
    assert_eq!(seen[0], seen[1]);
}
