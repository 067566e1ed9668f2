//! The CPU-time limit, as TRON applies it: a contract run whose modeled java-tron time passes
//! `getMaxCpuTimeOfOneTx` ends `OUT_OF_TIME`, burns exactly its fee limit and changes
//! nothing; a faster producer (`cpu_speed`) runs the same call; a constant call past the
//! limit is refused the way java-tron's servlets refuse it.
#![allow(clippy::unwrap_used)] // a test fails by panicking: unwrapping is how it says so

mod support;

use alloy_primitives::U256;
use devnet::DevnetConfig;
use serde_json::{Value, json};
use support::{chain_parameter, client, deploy_runtime, post, send};
use tron::{Action, Trigger};

/// Runtime code: `sstore(0, 1)`, then the pairing precompile (0x08) on the calldata with
/// 500,000 energy, and return its 32-byte answer and the call's success flag. The store shows
/// whether the run's state was kept.
const PAIRING_CALLER: &[u8] = &[
    0x60, 0x01, 0x60, 0x00, 0x55, // sstore(0, 1)
    0x36, 0x60, 0x00, 0x60, 0x00, 0x37, // calldatacopy(0, 0, calldatasize)
    0x60, 0x20, 0x60, 0x00, 0x36, 0x60, 0x00, 0x60,
    0x08, // out 0..32, in 0..calldatasize, 0x08
    0x62, 0x07, 0xa1, 0x20, 0xfa, // staticcall with 500,000
    0x60, 0x20, 0x52, // mstore(32, success)
    0x60, 0x40, 0x60, 0x00, 0xf3, // return mem[0..64]
];

/// What a pairing that held answers: the precompile's 1, and the call's success.
fn pairing_held(result: &[u8]) -> bool {
    result.len() == 64
        && U256::from_be_slice(&result[..32]) == U256::from(1)
        && U256::from_be_slice(&result[32..]) == U256::from(1)
}

/// BN254's G1 generator, its negation, and the G2 generator in the precompile's encoding
/// (EIP-197: x and y of G2 with the imaginary part first).
const G1: [&str; 2] = ["1", "2"];
const G1_NEG: [&str; 2] = [
    "1",
    "21888242871839275222246405745257275088696311157297823662689037894645226208581",
];
const G2: [&str; 4] = [
    "11559732032986387107991004021392285783925812861821192530917403151452391805634",
    "10857046999023057135944570762232829481370756359578518086990519993285655852781",
    "4082367875863433681332203403145435568316851327593401208105741076214120093531",
    "8495653923123431417604973247489272438418190587263600148770280649306958101930",
];

/// `pairs` pairs whose pairing product is one: e(P, Q)·e(−P, Q), repeated.
fn pairing_input(pairs: usize) -> Vec<u8> {
    let word = |d: &str| U256::from_str_radix(d, 10).unwrap().to_be_bytes::<32>();
    let mut input = Vec::new();
    for i in 0..pairs {
        let g1 = if i % 2 == 0 { G1 } else { G1_NEG };
        for d in g1.iter().chain(G2.iter()) {
            input.extend_from_slice(&word(d));
        }
    }
    input
}

async fn devnet(cpu_speed: f64) -> devnet::DevnetHandle {
    devnet::spawn(DevnetConfig {
        cpu_speed,
        ..DevnetConfig::ephemeral()
    })
    .await
    .unwrap()
}

/// The receipt as the node serves it, with the devnet's modeled CPU time.
async fn receipt(devnet: &devnet::DevnetHandle, txid: &tron::TxId) -> Value {
    post(
        &format!("{}/wallet/gettransactioninfobyid", devnet.url()),
        json!({ "value": txid.to_hex(), "visible": true }),
    )
    .await
}

const FEE_LIMIT: i64 = 1_000_000_000;

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn eight_pairs_run_out_of_time_and_burn_the_fee_limit() {
    let devnet = devnet(1.0).await;
    let node = client(&devnet);
    let caller = deploy_runtime(&devnet, PAIRING_CALLER).await;
    let alice = devnet.accounts()[1].clone();
    let before = devnet.with_chain(|c| c.balance(&alice.address()));
    let call = |pairs| {
        Action::Trigger(Trigger {
            owner: alice.address(),
            contract: caller,
            data: pairing_input(pairs),
            ..Trigger::default()
        })
    };
    // 13 + 8 × 12 = 109 ms of modeled pairing against 80: out of time at the opcode after it.
    let (txid, info) = send(&node, &alice, call(8), FEE_LIMIT).await;
    assert!(!info.succeeded());
    assert_eq!(info.receipt.result.as_deref(), Some("OUT_OF_TIME"));
    assert_eq!(
        info.res_message.as_deref(),
        Some("CPU timeout for 'PUSH1' operation executing")
    );
    // All the energy its fee limit buys, burned: exactly the fee limit.
    assert_eq!(info.receipt.energy_usage_total, FEE_LIMIT / 100);
    assert_eq!(info.receipt.energy_fee, FEE_LIMIT);
    let raw = receipt(&devnet, &txid).await;
    assert!(
        raw["devnet_cpu_time_us"].as_i64().unwrap() > 80_000,
        "{raw}"
    );
    let ret = post(
        &format!("{}/wallet/gettransactionbyid", devnet.url()),
        json!({ "value": txid.to_hex(), "visible": true }),
    )
    .await;
    assert_eq!(ret["ret"][0]["contractRet"], "OUT_OF_TIME", "{ret}");
    let after = devnet.with_chain(|c| c.balance(&alice.address()));
    assert_eq!(before - after, FEE_LIMIT + info.receipt.net_fee);
    // Its store was undone.
    assert_eq!(
        devnet.with_chain(|c| c.storage(&caller, U256::ZERO)),
        U256::ZERO
    );

    // Four pairs fit: 61 ms.
    let (txid, info) = send(&node, &alice, call(4), FEE_LIMIT).await;
    assert!(info.succeeded(), "{:?}", info.failure_reason());
    assert!(
        pairing_held(&info.contract_result[0]),
        "{}",
        hex::encode(&info.contract_result[0])
    );
    let used = receipt(&devnet, &txid).await["devnet_cpu_time_us"]
        .as_i64()
        .unwrap();
    assert!((61_000..62_000).contains(&used), "{used} µs");
    let info_json: Value = support::get(&format!("{}/devnet/info", devnet.url()))
        .await
        .json()
        .await
        .unwrap();
    assert_eq!(info_json["maxCpuTimeOfOneTxMs"], 80);
    assert_eq!(info_json["cpuSpeed"], 1.0);

    // A constant call past the limit is refused as java-tron refuses it: no transaction.
    let answer = post(
        &format!("{}/wallet/triggerconstantcontract", devnet.url()),
        json!({
            "owner_address": alice.address().to_base58(),
            "contract_address": caller.to_base58(),
            "data": hex::encode(pairing_input(8)),
            "visible": true,
        }),
    )
    .await;
    assert_eq!(answer["result"]["code"], "OTHER_ERROR", "{answer}");
    assert_eq!(
        answer["result"]["message"],
        "class org.tron.core.vm.program.Program$OutOfTimeException : CPU timeout for 'PUSH1' \
         operation executing"
    );
    assert!(answer.get("transaction").is_none());
    let limit = chain_parameter(&devnet, "getMaxCpuTimeOfOneTx").await;
    assert_eq!(limit, 80);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_producer_four_times_as_fast_runs_the_same_call() {
    let devnet = devnet(4.0).await;
    let node = client(&devnet);
    let caller = deploy_runtime(&devnet, PAIRING_CALLER).await;
    let alice = devnet.accounts()[1].clone();
    let call = Action::Trigger(Trigger {
        owner: alice.address(),
        contract: caller,
        data: pairing_input(8),
        ..Trigger::default()
    });
    let (txid, info) = send(&node, &alice, call, FEE_LIMIT).await;
    assert!(info.succeeded(), "{:?}", info.failure_reason());
    assert!(
        pairing_held(&info.contract_result[0]),
        "{}",
        hex::encode(&info.contract_result[0])
    );
    let used = receipt(&devnet, &txid).await["devnet_cpu_time_us"]
        .as_i64()
        .unwrap();
    assert!((27_250..28_000).contains(&used), "{used} µs");
    assert!(info.receipt.energy_usage_total < FEE_LIMIT / 100);
    assert_eq!(
        devnet.with_chain(|c| c.storage(&caller, U256::ZERO)),
        U256::from(1)
    );
}
