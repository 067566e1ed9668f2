//! The devnet's price inputs over HTTP: the genesis TRX/USDT pair read as a SunSwap V2 pair
//! through `triggerconstantcontract`, `/devnet/set_price_reserves` moving it,
//! `/devnet/set_energy_fee` moving the energy price, and both controls refusing bad input.
#![allow(clippy::unwrap_used)] // a test fails by panicking: unwrapping is how it says so

mod support;

use std::time::Duration;

use alloy_primitives::U256;
use alloy_sol_types::SolCall;
use contracts::DevSunswapPair;
use devnet::genesis::{DEPLOY_TIME_MS, PAIR_RESERVE_TRX, PAIR_RESERVE_USDT};
use devnet::{DevnetConfig, DevnetHandle};
use serde_json::{Value, json};
use support::{client, http, post, send};
use tron::abi::Trc20;
use tron::{Action, Address, Trigger};

/// A devnet without idle blocks, so the head moves only when a test makes it.
async fn quiet_devnet(state: Option<std::path::PathBuf>) -> DevnetHandle {
    devnet::spawn(DevnetConfig {
        block_time: Duration::ZERO,
        state,
        ..DevnetConfig::ephemeral()
    })
    .await
    .expect("devnet starts")
}

/// POSTs `body` and returns the status and the JSON answer.
async fn control(url: &str, action: &str, body: Value) -> (u16, Value) {
    let response = http()
        .post(format!("{url}/devnet/{action}"))
        .json(&body)
        .send()
        .await
        .expect("request");
    let status = response.status().as_u16();
    (status, response.json().await.expect("json"))
}

/// `/wallet/triggerconstantcontract` as a wallet sends it (base58, `visible`), decoded.
async fn read<C: SolCall>(url: &str, contract: &str, call: C) -> C::Return {
    let data = call.abi_encode();
    let out = post(
        &format!("{url}/wallet/triggerconstantcontract"),
        json!({
            "owner_address": contract,
            "contract_address": contract,
            "function_selector": "",
            "data": hex::encode(&data),
            "visible": true,
        }),
    )
    .await;
    assert_eq!(out["result"]["result"], true, "{out}");
    assert!(out["result"].get("message").is_none(), "{out}");
    let result = hex::decode(out["constant_result"][0].as_str().expect("hex")).unwrap();
    C::abi_decode_returns(&result).expect("decodes")
}

async fn deployment(url: &str) -> Value {
    http()
        .get(format!("{url}/devnet/deployment"))
        .send()
        .await
        .unwrap()
        .json()
        .await
        .unwrap()
}

async fn reserves(url: &str, pair: &str) -> (u128, u128, u32) {
    let r = read(url, pair, DevSunswapPair::getReservesCall {}).await;
    (
        r._reserve0.to::<u128>(),
        r._reserve1.to::<u128>(),
        r._blockTimestampLast,
    )
}

async fn energy_fee(url: &str) -> i64 {
    let params = post(&format!("{url}/wallet/getchainparameters"), json!({})).await;
    params["chainParameter"]
        .as_array()
        .expect("a list")
        .iter()
        .find(|p| p["key"] == "getEnergyFee")
        .and_then(|p| p["value"].as_i64())
        .expect("getEnergyFee")
}

/// The head block's time, ms.
async fn head_time(url: &str) -> i64 {
    post(&format!("{url}/wallet/getnowblock"), json!({})).await["block_header"]["raw_data"]
        ["timestamp"]
        .as_i64()
        .expect("a time")
}

async fn head(url: &str) -> i64 {
    post(&format!("{url}/wallet/getnowblock"), json!({})).await["block_header"]["raw_data"]
        ["number"]
        .as_i64()
        .expect("a number")
}

fn base58(hex41: &Value) -> String {
    hex41
        .as_str()
        .expect("an address")
        .parse::<Address>()
        .expect("a TRON address")
        .to_base58()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn genesis_pair_reads_as_sunswap_v2_wtrx_usdt() {
    let devnet = quiet_devnet(None).await;
    let url = devnet.url();
    let d = deployment(&url).await;
    let pair = base58(&d["pricePair"]);
    let usdt = base58(&d["usdt"]);

    let token0 = Address::from(read(&url, &pair, DevSunswapPair::token0Call {}).await);
    let token1 = Address::from(read(&url, &pair, DevSunswapPair::token1Call {}).await);
    assert_eq!(token1.to_base58(), usdt, "token1 is the devnet USDT");
    assert_eq!(
        token0,
        devnet::genesis::wtrx_stand_in(),
        "token0 is WTRX's stand-in"
    );
    assert_eq!(
        base58(&d["wtrx"]),
        token0.to_base58(),
        "the deployment names it"
    );
    // The stand-in is only an address: no contract, no account.
    let contract = post(
        &format!("{url}/wallet/getcontract"),
        json!({ "value": token0.to_base58(), "visible": true }),
    )
    .await;
    assert_eq!(contract, json!({}), "no code at the WTRX stand-in");
    // A pair that trades in every block: its last trade is never older than the head.
    let head_seconds = head_time(&url).await / 1000;
    let (r0, r1, last_trade) = reserves(&url, &pair).await;
    assert_eq!(
        (r0, r1),
        (u128::from(PAIR_RESERVE_TRX), u128::from(PAIR_RESERVE_USDT))
    );
    assert!(
        i64::from(last_trade) >= head_seconds && i64::from(last_trade) > DEPLOY_TIME_MS / 1000,
        "{last_trade} vs head {head_seconds}"
    );
    // 0.28 USDT per TRX, both sides in 6-decimal base units.
    assert_eq!(PAIR_RESERVE_USDT * 100, PAIR_RESERVE_TRX * 28);
    // Both tokens answer with 6 decimals, as WTRX and USDT do on mainnet.
    let decimals = read(&url, &usdt, Trc20::decimalsCall {}).await;
    assert_eq!(decimals, 6);
    // The pair is deployed in block 1, by the deployer.
    assert_eq!(d["block"], 1);
    assert_eq!(
        Some(token1),
        Some(devnet.deployment().usdt),
        "the handle's deployment agrees"
    );
    assert_eq!(
        devnet.deployment().price_pair.map(|a| a.to_base58()),
        Some(pair)
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn set_price_reserves_moves_the_price() {
    let devnet = quiet_devnet(None).await;
    let url = devnet.url();
    let pair = base58(&deployment(&url).await["pricePair"]);
    let before = head(&url).await;

    // 0.25 USDT per TRX; numbers and decimal strings alike.
    let (status, out) = control(
        &url,
        "set_price_reserves",
        json!({ "trx": 50_000_000_000_000u64, "usdt": "12500000000000" }),
    )
    .await;
    assert_eq!(status, 200, "{out}");
    assert_eq!(out["reserve0"], 50_000_000_000_000u64);
    assert_eq!(out["reserve1"], 12_500_000_000_000u64);
    // Sealed into a block like any transaction, sent by the genesis deployer.
    assert_eq!(head(&url).await, before + 1);
    let info = post(
        &format!("{url}/wallet/gettransactioninfobyid"),
        json!({ "value": out["txid"] }),
    )
    .await;
    assert_eq!(info["blockNumber"].as_i64(), Some(before + 1), "{info}");
    assert!(info.get("result").is_none(), "succeeded: {info}");
    assert_eq!(
        info["log"].as_array().map(Vec::len),
        Some(1),
        "one Sync: {info}"
    );
    let block_time = info["blockTimeStamp"].as_i64().unwrap();
    let (r0, r1, last_trade) = reserves(&url, &pair).await;
    assert_eq!((r0, r1), (50_000_000_000_000, 12_500_000_000_000));
    assert!(i64::from(last_trade) >= block_time / 1000, "{last_trade}");

    // Quiet for two hours: the pair says it last traded then, and keeps saying so.
    let (status, quiet) = control(
        &url,
        "set_price_reserves",
        json!({ "trx": 50_000_000_000_000u64, "usdt": 12_500_000_000_000u64,
                "quietSeconds": 7_200 }),
    )
    .await;
    assert_eq!(status, 200, "{quiet}");
    let head_seconds = head_time(&url).await / 1000;
    let (_, _, last_trade) = reserves(&url, &pair).await;
    let age = head_seconds - i64::from(last_trade);
    assert!((7_200..7_210).contains(&age), "{age} s");
    let (status, refused) = control(
        &url,
        "set_price_reserves",
        json!({ "trx": 1, "usdt": 1, "quietSeconds": -1 }),
    )
    .await;
    assert_eq!(status, 400, "{refused}");
    let tx = post(
        &format!("{url}/wallet/gettransactionbyid"),
        json!({ "value": out["txid"], "visible": true }),
    )
    .await;
    let call = &tx["raw_data"]["contract"][0]["parameter"]["value"];
    assert_eq!(
        call["owner_address"],
        devnet.deployment().deployer.to_base58(),
        "{tx}"
    );
    assert_eq!(call["contract_address"], pair);

    // The largest uint112 goes through as a decimal string and comes back as one.
    let max = (1u128 << 112) - 1;
    let (status, out) = control(
        &url,
        "set_price_reserves",
        json!({ "trx": max.to_string(), "usdt": 1 }),
    )
    .await;
    assert_eq!(status, 200, "{out}");
    assert_eq!(out["reserve0"], max.to_string());
    assert_eq!(out["reserve1"], 1);
    assert_eq!(reserves(&url, &pair).await.0, max);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn set_energy_fee_changes_what_transactions_burn() {
    let devnet = quiet_devnet(None).await;
    let url = devnet.url();
    let client = client(&devnet);
    assert_eq!(energy_fee(&url).await, 100);

    let (status, out) = control(&url, "set_energy_fee", json!({ "energyFee": 420 })).await;
    assert_eq!(status, 200, "{out}");
    assert_eq!(out, json!({ "energyFee": 420 }));
    assert_eq!(energy_fee(&url).await, 420);
    // The price history ends with the new price.
    let prices = post(&format!("{url}/wallet/getenergyprices"), json!({})).await;
    let prices = prices["prices"].as_str().expect("a string").to_owned();
    assert!(prices.starts_with("0:100,"), "{prices}");
    assert!(prices.ends_with(":420"), "{prices}");

    // A USDT transfer burns its energy at 420 sun.
    let alice = devnet.accounts()[0].clone();
    let bob = devnet.accounts()[1].address();
    let transfer = Action::Trigger(Trigger {
        owner: alice.address(),
        contract: devnet.deployment().usdt,
        data: Trc20::transferCall {
            to: bob.into(),
            value: U256::from(1_000_000u64),
        }
        .abi_encode(),
        ..Trigger::default()
    });
    let (txid, _) = send(&client, &alice, transfer, 100_000_000).await;
    let info = post(
        &format!("{url}/wallet/gettransactioninfobyid"),
        json!({ "value": txid.to_hex() }),
    )
    .await;
    let used = info["receipt"]["energy_usage_total"]
        .as_i64()
        .expect("energy used");
    assert!(used > 10_000, "{info}");
    assert_eq!(
        info["receipt"]["energy_fee"].as_i64(),
        Some(used * 420),
        "{info}"
    );

    // What a fee limit buys follows the price: a limit worth that energy at 100 sun runs out
    // at 420.
    let (_, info) = send(
        &client,
        &alice,
        Action::Trigger(Trigger {
            owner: alice.address(),
            contract: devnet.deployment().usdt,
            data: Trc20::transferCall {
                to: bob.into(),
                value: U256::from(1u64),
            }
            .abi_encode(),
            ..Trigger::default()
        }),
        used * 100,
    )
    .await;
    assert!(!info.succeeded(), "a 100-sun fee limit runs out at 420");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn bad_inputs_are_refused_and_change_nothing() {
    let devnet = quiet_devnet(None).await;
    let url = devnet.url();
    let pair = base58(&deployment(&url).await["pricePair"]);
    // The reserves (the pair reports a trade in every block, so its time moves on anyway).
    let reserves_before = {
        let (r0, r1, _) = reserves(&url, &pair).await;
        (r0, r1)
    };
    let head_before = head(&url).await;

    for body in [
        json!({}),
        json!({ "energyFee": 0 }),
        json!({ "energyFee": -5 }),
        json!({ "energyFee": 10_001 }),
        json!({ "energyFee": 1.5 }),
        json!({ "energyFee": "cheap" }),
        json!({ "energyFee": [100] }),
    ] {
        let (status, out) = control(&url, "set_energy_fee", body.clone()).await;
        assert_eq!(status, 400, "{body} → {out}");
        assert!(
            out["error"].as_str().is_some_and(|e| !e.is_empty()),
            "{out}"
        );
    }
    // The edges are accepted.
    for fee in [10_000, 1, 100] {
        let (status, out) = control(&url, "set_energy_fee", json!({ "energyFee": fee })).await;
        assert_eq!((status, out), (200, json!({ "energyFee": fee })));
    }

    let too_big = (1u128 << 112).to_string();
    for body in [
        json!({}),
        json!({ "trx": 1 }),
        json!({ "usdt": 1 }),
        json!({ "trx": 0, "usdt": 1 }),
        json!({ "trx": 1, "usdt": 0 }),
        json!({ "trx": -1, "usdt": 1 }),
        json!({ "trx": 1.5, "usdt": 1 }),
        json!({ "trx": too_big, "usdt": 1 }),
        json!({ "trx": 1, "usdt": 1e40 }),
        json!({ "trx": "lots", "usdt": 1 }),
        json!({ "trx": true, "usdt": 1 }),
    ] {
        let (status, out) = control(&url, "set_price_reserves", body.clone()).await;
        assert_eq!(status, 400, "{body} → {out}");
        assert!(
            out["error"].as_str().is_some_and(|e| !e.is_empty()),
            "{out}"
        );
    }
    let (status, out) = control(&url, "set_price_reserves", json!({ "trx": 0, "usdt": 1 })).await;
    assert_eq!(status, 400);
    assert!(
        out["error"].as_str().unwrap().contains("trx"),
        "names the field: {out}"
    );
    // Controls that change the chain answer only to POST.
    let get = http()
        .get(format!("{url}/devnet/set_energy_fee?energyFee=5"))
        .send()
        .await
        .unwrap();
    assert_eq!(get.status().as_u16(), 405);

    let (r0, r1, _) = reserves(&url, &pair).await;
    assert_eq!((r0, r1), reserves_before);
    assert_eq!(head(&url).await, head_before, "no transaction was sent");
    assert_eq!(energy_fee(&url).await, 100);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_energy_fee_is_saved_and_an_older_state_file_has_no_pair() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("state.json");
    let first = quiet_devnet(Some(path.clone())).await;
    let (status, _) = control(&first.url(), "set_energy_fee", json!({ "energyFee": 210 })).await;
    assert_eq!(status, 200);
    let pair = first
        .deployment()
        .price_pair
        .expect("genesis deploys a pair");
    first.shutdown().await.unwrap();

    // The energy price comes back with the chain.
    let second = quiet_devnet(Some(path.clone())).await;
    assert_eq!(energy_fee(&second.url()).await, 210);
    assert_eq!(second.deployment().price_pair, Some(pair));
    second.shutdown().await.unwrap();

    // A state file written before the devnet had a price pair or a changing energy price: its
    // deployment record has no `pricePair`, its parameters no history of energy prices. It
    // still loads, and moving the price is refused with a reason.
    let mut state: Value = serde_json::from_slice(&std::fs::read(&path).unwrap()).unwrap();
    let extra = state["extra"]
        .as_object_mut()
        .expect("the deployment record");
    assert!(extra.remove("pricePair").is_some());
    let params = state["params"]
        .as_object_mut()
        .expect("the chain parameters");
    assert!(params.remove("energy_fee_changes").is_some());
    std::fs::write(&path, serde_json::to_vec(&state).unwrap()).unwrap();

    let old = quiet_devnet(Some(path)).await;
    let url = old.url();
    assert_eq!(old.deployment().price_pair, None);
    assert_eq!(energy_fee(&url).await, 210);
    assert!(deployment(&url).await.get("pricePair").is_none());
    let head_before = head(&url).await;
    let (status, out) = control(
        &url,
        "set_price_reserves",
        json!({ "trx": 1_000_000, "usdt": 280_000 }),
    )
    .await;
    assert_eq!(status, 400, "{out}");
    assert!(
        out["error"].as_str().unwrap().contains("no price pair"),
        "{out}"
    );
    assert_eq!(head(&url).await, head_before);
}

/// A view runs in the head block's context (java-tron's `Wallet.callConstantContract` makes
/// its context from the head block): its `block.timestamp` is the head's however far the
/// clock has moved since, so the pair's last trade and its cumulative price, brought up to
/// that time, pair with the head a reader sees. Between two heads the cumulative price grows
/// by the price times the seconds between them.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn views_run_at_the_head_block_and_the_pair_sums_its_price_over_time() {
    let devnet = quiet_devnet(None).await;
    let url = devnet.url();
    let pair = base58(&deployment(&url).await["pricePair"]);
    let first = head_time(&url).await / 1000;
    let (status, out) = control(&url, "increase_time", json!({ "seconds": 600 })).await;
    assert_eq!(status, 200, "{out}");
    let (_, _, last_trade) = reserves(&url, &pair).await;
    assert_eq!(
        i64::from(last_trade),
        first,
        "the head's time, not the clock's"
    );
    let before = read(&url, &pair, DevSunswapPair::price0CumulativeLastCall {}).await;

    let (status, out) = control(&url, "mine", json!({ "blocks": 1 })).await;
    assert_eq!(status, 200, "{out}");
    let second = head_time(&url).await / 1000;
    assert!(second >= first + 600, "{first} → {second}");
    let (_, _, last_trade) = reserves(&url, &pair).await;
    assert_eq!(i64::from(last_trade), second);
    let after = read(&url, &pair, DevSunswapPair::price0CumulativeLastCall {}).await;
    // token1 (USDT) per token0 (WTRX) in UQ112x112: 0.28.
    let per_second = (U256::from(PAIR_RESERVE_USDT) << 112usize) / U256::from(PAIR_RESERVE_TRX);
    assert_eq!(
        after - before,
        per_second * U256::from(u64::try_from(second - first).unwrap())
    );
    let inverse = read(&url, &pair, DevSunswapPair::price1CumulativeLastCall {}).await;
    assert!(!inverse.is_zero());
}
