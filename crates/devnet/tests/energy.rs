//! TVM's energy table, pinned opcode by opcode against figures worked out by hand from
//! java-tron's `EnergyCost.java`, and dynamic energy (`VM.play`): what the devnet charges is
//! what a TRON node would.
#![allow(clippy::unwrap_used)] // a test fails by panicking: unwrapping is how it says so

mod support;

use alloy_primitives::U256;
use alloy_sol_types::SolCall;
use serde_json::{Value, json};
use support::{chain_parameter, client, deploy_runtime, devnet, post, send};
use tron::client::TransactionInfo;
use tron::{Action, Address, Trigger};

/// 10,000,000 energy at 100 sun.
const FEE_LIMIT: i64 = 1_000_000_000;

/// Calls `contract` with `data` from dev account 1; answers the receipt.
async fn call(devnet: &devnet::DevnetHandle, contract: Address, data: Vec<u8>) -> TransactionInfo {
    call_limited(devnet, contract, data, FEE_LIMIT).await
}

async fn call_limited(
    devnet: &devnet::DevnetHandle,
    contract: Address,
    data: Vec<u8>,
    fee_limit: i64,
) -> TransactionInfo {
    let alice = devnet.accounts()[1].clone();
    let action = Action::Trigger(Trigger {
        owner: alice.address(),
        contract,
        data,
        ..Trigger::default()
    });
    send(&client(devnet), &alice, action, fee_limit).await.1
}

async fn energy_of(devnet: &devnet::DevnetHandle, runtime: &[u8]) -> i64 {
    let contract = deploy_runtime(devnet, runtime).await;
    let info = call(devnet, contract, Vec::new()).await;
    assert!(info.succeeded(), "{:?}", info.failure_reason());
    info.receipt.energy_usage_total
}

async fn set_factor(devnet: &devnet::DevnetHandle, contract: Address, factor: i64) -> Value {
    post(
        &format!("{}/devnet/set_energy_factor", devnet.url()),
        json!({ "contract": contract.to_base58(), "energyFactor": factor }),
    )
    .await
}

/// `PUSH1 1 PUSH1 0 SSTORE PUSH1 2 PUSH1 0 SSTORE STOP`.
const SSTORE_TWICE: &[u8] = &[
    0x60, 0x01, 0x60, 0x00, 0x55, 0x60, 0x02, 0x60, 0x00, 0x55, 0x00,
];

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn sstore_costs_20000_to_fill_an_empty_slot_and_5000_for_every_other_write_rewrites_included()
{
    let devnet = devnet().await;
    let contract = deploy_runtime(&devnet, SSTORE_TWICE).await;
    // 4 × PUSH1 (3) + 20,000 (empty → 1) + 5,000 (1 → 2, in the same transaction; revm's
    // EIP-2200 metering would say 0 here).
    let first = call(&devnet, contract, Vec::new()).await;
    assert_eq!(first.receipt.energy_usage_total, 12 + 20_000 + 5_000);
    // The slot now holds 2: both writes are changes.
    let again = call(&devnet, contract, Vec::new()).await;
    assert_eq!(again.receipt.energy_usage_total, 12 + 5_000 + 5_000);
    // Clearing and a 0 → 0 write: 5,000 each, and no refund.
    // PUSH1 0 PUSH1 0 SSTORE PUSH1 0 PUSH1 0 SSTORE STOP
    let clear = deploy_runtime(
        &devnet,
        &[
            0x60, 0x01, 0x60, 0x00, 0x55, 0x60, 0x00, 0x60, 0x00, 0x55, 0x60, 0x00, 0x60, 0x00,
            0x55, 0x00,
        ],
    )
    .await;
    let info = call(&devnet, clear, Vec::new()).await;
    assert_eq!(info.receipt.energy_usage_total, 18 + 20_000 + 5_000 + 5_000);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn memory_copy_and_exp_opcodes_cost_what_tvm_charges() {
    let devnet = devnet().await;
    // PUSH1 1 PUSH1 0 MSTORE PUSH1 0 MLOAD POP STOP: MSTORE and MLOAD 1 each (not 3), the
    // first word of memory 3.
    let memory = energy_of(
        &devnet,
        &[0x60, 0x01, 0x60, 0x00, 0x52, 0x60, 0x00, 0x51, 0x50, 0x00],
    )
    .await;
    assert_eq!(memory, 3 + 3 + (1 + 3) + 3 + 1 + 2);
    // PUSH1 32 PUSH1 0 PUSH1 0 CALLDATACOPY STOP: the copy (3 per word) and the memory (3),
    // no base of 3.
    let copy = energy_of(&devnet, &[0x60, 0x20, 0x60, 0x00, 0x60, 0x00, 0x37, 0x00]).await;
    assert_eq!(copy, 9 + 3 + 3);
    // PUSH2 0x0101 PUSH1 2 EXP POP STOP: 10 + 10 per exponent byte (not 50).
    let exp = energy_of(&devnet, &[0x61, 0x01, 0x01, 0x60, 0x02, 0x0a, 0x50, 0x00]).await;
    assert_eq!(exp, 3 + 3 + (10 + 2 * 10) + 2);
    // MSTORE8 1, and memory grows by the quadratic rule: 3 words × 3 + 9/512 = 9 for a byte
    // at offset 64.
    // PUSH1 1 PUSH1 64 MSTORE8 STOP
    let byte = energy_of(&devnet, &[0x60, 0x01, 0x60, 0x40, 0x53, 0x00]).await;
    assert_eq!(byte, 3 + 3 + 1 + 9);
}

/// Sends 1 sun to the address in its calldata: `CALL(gas, to, 1, 0, 0, 0, 0)`, then stops.
/// `PUSH1 0 DUP1 DUP1 DUP1 PUSH1 1 PUSH1 0 CALLDATALOAD GAS CALL POP STOP`.
const SEND_ONE_SUN: &[u8] = &[
    0x60, 0x00, 0x80, 0x80, 0x80, 0x60, 0x01, 0x60, 0x00, 0x35, 0x5a, 0xf1, 0x50, 0x00,
];

fn address_word(address: Address) -> Vec<u8> {
    let mut word = vec![0; 12];
    word.extend_from_slice(&address.evm_bytes());
    word
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_value_call_pays_25000_more_only_to_an_account_that_does_not_exist() {
    let devnet = devnet().await;
    let contract = deploy_runtime(&devnet, SEND_ONE_SUN).await;
    post(
        &format!("{}/devnet/set_balance", devnet.url()),
        json!({ "address": contract.to_base58(), "balance": 1_000_000 }),
    )
    .await;
    // An account that exists with no TRX (activated, then emptied): TVM asks whether the
    // account exists, not whether it is "empty" as Ethereum does.
    let existing = tron::PrivateKey::generate().address();
    post(
        &format!("{}/devnet/set_balance", devnet.url()),
        json!({ "address": existing.to_base58(), "balance": 0 }),
    )
    .await;
    let fresh = tron::PrivateKey::generate().address();
    // 3 × PUSH1 + 3 × DUP1 (3 each), CALLDATALOAD 3, GAS 2, CALL 40 + 9,000 for value, POP
    // 2; the callee has no code, so the 2,300 stipend it was given comes back.
    let base = 6 * 3 + 3 + 2 + 40 + 9_000 - 2_300 + 2;
    let to_existing = call(&devnet, contract, address_word(existing)).await;
    assert!(to_existing.succeeded());
    assert_eq!(to_existing.receipt.energy_usage_total, base);
    let to_fresh = call(&devnet, contract, address_word(fresh)).await;
    assert!(to_fresh.succeeded());
    assert_eq!(to_fresh.receipt.energy_usage_total, base + 25_000);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn calls_nest_at_most_64_deep() {
    let devnet = devnet().await;
    // Each frame logs once, then calls itself with all its energy:
    // PUSH1 0 DUP1 LOG0, PUSH1 0 DUP1 DUP1 DUP1 DUP1 ADDRESS GAS CALL POP STOP.
    let contract = deploy_runtime(
        &devnet,
        &[
            0x60, 0x00, 0x80, 0xa0, 0x60, 0x00, 0x80, 0x80, 0x80, 0x80, 0x30, 0x5a, 0xf1, 0x50,
            0x00,
        ],
    )
    .await;
    let info = call(&devnet, contract, Vec::new()).await;
    assert!(info.succeeded(), "{:?}", info.failure_reason());
    // The top frame is depth 0; the call made from depth 64 fails and returns its energy.
    // Ethereum's limit would have let the energy run out after hundreds.
    assert_eq!(info.log.len(), 65);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_call_from_a_version_0_contract_can_forward_all_its_energy_and_keeps_none_back() {
    let devnet = devnet().await;
    // JUMPDEST PUSH1 0 JUMP: spins until its energy is gone.
    let spin = deploy_runtime(&devnet, &[0x5b, 0x60, 0x00, 0x56]).await;
    // CALL(gas, spin, 0, 0, 0, 0, 0), then PUSH1 0 MSTORE and RETURN(0, 32): with the
    // 63/64 rule 1/64 of the energy would be left to return with; TVM keeps none back in a
    // contract created without version 1, so the caller runs out right after the call.
    let mut runtime = vec![0x60, 0x00, 0x80, 0x80, 0x80, 0x80, 0x73];
    runtime.extend_from_slice(&spin.evm_bytes());
    runtime.extend_from_slice(&[0x5a, 0xf1, 0x60, 0x00, 0x52, 0x60, 0x20, 0x60, 0x00, 0xf3]);
    let caller = deploy_runtime(&devnet, &runtime).await;
    // 100,000 energy: the spin stays far inside the CPU-time limit.
    let info = call_limited(&devnet, caller, Vec::new(), 10_000_000).await;
    assert_eq!(info.receipt.result.as_deref(), Some("OUT_OF_ENERGY"));
    assert_eq!(info.receipt.energy_usage_total, 100_000);
}

/// Runtime code that sends 1 sun to `to` with `energy` as the CALL's energy argument, then
/// returns the call's success flag: `PUSH1 0 DUP1 DUP1 DUP1 PUSH1 1 PUSH20 to PUSH2 energy
/// CALL PUSH1 0 MSTORE PUSH1 32 PUSH1 0 RETURN`. What the pool's refund does.
fn send_one_sun_capped(to: Address, energy: u16) -> Vec<u8> {
    let mut runtime = vec![0x60, 0x00, 0x80, 0x80, 0x80, 0x60, 0x01, 0x73];
    runtime.extend_from_slice(&to.evm_bytes());
    runtime.push(0x61);
    runtime.extend_from_slice(&energy.to_be_bytes());
    runtime.extend_from_slice(&[0xf1, 0x60, 0x00, 0x52, 0x60, 0x20, 0x60, 0x00, 0xf3]);
    runtime
}

/// The opcodes of [`send_one_sun_capped`] around its CALL: 4 × PUSH (3), 3 × DUP1 (3), then
/// PUSH1 0, MSTORE (1 + 3 for the first word), PUSH1 32, PUSH1 0, RETURN (0).
const CAPPED_CALLER_OPS: i64 = 4 * 3 + 3 * 3 + (3 + 4 + 3 + 3);

/// Gives `contract` 1 TRX to send.
async fn fund(devnet: &devnet::DevnetHandle, contract: Address) {
    post(
        &format!("{}/devnet/set_balance", devnet.url()),
        json!({ "address": contract.to_base58(), "balance": 1_000_000 }),
    )
    .await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_value_call_with_an_energy_argument_gives_the_callee_that_much_and_the_stipend() {
    // java-tron: `EnergyCost.getCalculateCallCost` charges the caller
    // `Program.getCallEnergy(requested, left)` = min(requested, left) in a version-0
    // contract, and `OperationActions.callAction` adds the 2,300 stipend to a value call on
    // top, uncharged. So a capped call can spend at most cap + 2,300, whatever is left: the
    // bound the pool's refund relies on (`TronPool.REFUND_ENERGY`).
    let devnet = devnet().await;
    // A callee that spins until its energy is gone: JUMPDEST PUSH1 0 JUMP.
    let spin = deploy_runtime(&devnet, &[0x5b, 0x60, 0x00, 0x56]).await;
    let caller = deploy_runtime(&devnet, &send_one_sun_capped(spin, 20_000)).await;
    fund(&devnet, caller).await;
    // 10,000,000 energy available; the spin burns its 20,000 + 2,300 and fails, and the
    // caller goes on with the rest: it paid the call's 40 + 9,000 (the spin's account
    // exists) + the 20,000 it forwarded, never the stipend.
    let info = call(&devnet, caller, Vec::new()).await;
    assert!(info.succeeded(), "{:?}", info.failure_reason());
    assert_eq!(
        info.contract_result[0],
        vec![0u8; 32],
        "the spin's call failed"
    );
    assert_eq!(
        info.receipt.energy_usage_total,
        CAPPED_CALLER_OPS + 40 + 9_000 + 20_000
    );

    // A callee that writes one empty slot with what it got (CALLVALUE CALLER SSTORE STOP:
    // 2 + 2 + 20,000) fits in 22,300 and hands back the 2,296 it did not use.
    let keeper = deploy_runtime(&devnet, &[0x34, 0x33, 0x55, 0x00]).await;
    let caller = deploy_runtime(&devnet, &send_one_sun_capped(keeper, 20_000)).await;
    fund(&devnet, caller).await;
    let info = call(&devnet, caller, Vec::new()).await;
    assert!(info.succeeded(), "{:?}", info.failure_reason());
    let mut one = vec![0u8; 32];
    one[31] = 1;
    assert_eq!(info.contract_result[0], one, "the keeper's call succeeded");
    assert_eq!(
        info.receipt.energy_usage_total,
        CAPPED_CALLER_OPS + 40 + 9_000 + 20_000 - (22_300 - 20_004)
    );

    // With less left than the argument asks, the callee gets all that is left (no 64th kept
    // back): the caller runs out right after, as an uncapped call would.
    let caller = deploy_runtime(&devnet, &send_one_sun_capped(spin, 60_000)).await;
    fund(&devnet, caller).await;
    let info = call_limited(&devnet, caller, Vec::new(), 5_000_000).await;
    assert_eq!(info.receipt.result.as_deref(), Some("OUT_OF_ENERGY"));
    assert_eq!(info.receipt.energy_usage_total, 50_000);
}

/// Deploys `runtime` as a version-1 contract (java-tron's `SmartContract.version`, which
/// turns the 63/64 rule on inside it), from dev account 0.
async fn deploy_version_1(devnet: &devnet::DevnetHandle, runtime: &[u8]) -> Address {
    let len = u8::try_from(runtime.len()).unwrap();
    let mut init = vec![
        0x60, len, 0x80, 0x60, 0x0b, 0x60, 0x00, 0x39, 0x60, 0x00, 0xf3,
    ];
    init.extend_from_slice(runtime);
    let owner = devnet.accounts()[0].clone();
    let create = tron::proto::CreateSmartContract {
        owner_address: owner.address().tron_bytes().to_vec(),
        new_contract: Some(tron::proto::SmartContract {
            origin_address: owner.address().tron_bytes().to_vec(),
            bytecode: init,
            consume_user_resource_percent: 100,
            origin_energy_limit: 10_000_000,
            name: "Version1".into(),
            version: 1,
            ..Default::default()
        }),
        ..Default::default()
    };
    let (_, info) = send(
        &client(devnet),
        &owner,
        Action::Create(Box::new(create)),
        FEE_LIMIT,
    )
    .await;
    assert!(info.succeeded(), "{:?}", info.failure_reason());
    info.contract_address.unwrap()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_call_from_a_version_1_contract_keeps_a_64th_back() {
    let devnet = devnet().await;
    let spin = deploy_runtime(&devnet, &[0x5b, 0x60, 0x00, 0x56]).await;
    // The same caller as above, created with version 1: the spin gets 63/64 of what is left,
    // and the caller returns with the 64th it kept.
    let mut runtime = vec![0x60, 0x00, 0x80, 0x80, 0x80, 0x80, 0x73];
    runtime.extend_from_slice(&spin.evm_bytes());
    runtime.extend_from_slice(&[0x5a, 0xf1, 0x60, 0x00, 0x52, 0x60, 0x20, 0x60, 0x00, 0xf3]);
    let caller = deploy_version_1(&devnet, &runtime).await;
    let info = call_limited(&devnet, caller, Vec::new(), 10_000_000).await;
    assert!(info.succeeded(), "{:?}", info.failure_reason());
    // The call failed (its success flag, 0, is what the caller returns) and cost the
    // 63/64 it was given; the caller spent the rest on its own opcodes only in part.
    assert_eq!(info.contract_result[0], vec![0u8; 32]);
    let used = info.receipt.energy_usage_total;
    assert!(used < 100_000 && used > 100_000 * 63 / 64 - 100, "{used}");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn dynamic_energy_multiplies_every_opcode_in_the_contract_and_only_the_base_of_a_call() {
    let devnet = devnet().await;
    assert_eq!(chain_parameter(&devnet, "getAllowDynamicEnergy").await, 1);
    assert_eq!(
        chain_parameter(&devnet, "getDynamicEnergyMaxFactor").await,
        34_000
    );
    let contract = deploy_runtime(&devnet, SSTORE_TWICE).await;
    let set = set_factor(&devnet, contract, 34_000).await;
    assert_eq!(set["energyFactor"], 34_000, "{set}");
    let info = post(
        &format!("{}/wallet/getcontractinfo", devnet.url()),
        json!({ "value": contract.to_base58(), "visible": true }),
    )
    .await;
    assert_eq!(info["contract_state"]["energy_factor"], 34_000);
    // Each opcode's energy × 4.4, rounded down per opcode: PUSH1 3 → 13, SSTORE 20,000 →
    // 88,000 and 5,000 → 22,000.
    let receipt = call(&devnet, contract, Vec::new()).await;
    assert_eq!(receipt.receipt.energy_usage_total, 4 * 13 + 88_000 + 22_000);
    let raw = post(
        &format!("{}/wallet/gettransactioninfobyid", devnet.url()),
        json!({ "value": receipt.id.to_hex() }),
    )
    .await;
    assert_eq!(
        raw["receipt"]["energy_penalty_total"],
        4 * 10 + 68_000 + 17_000
    );

    // A call: its own 40 + 9,000 is penalised; the energy it forwards (and the callee's
    // run, in a contract at factor 0) is not.
    let sender = deploy_runtime(&devnet, SEND_ONE_SUN).await;
    post(
        &format!("{}/devnet/set_balance", devnet.url()),
        json!({ "address": sender.to_base58(), "balance": 1_000_000 }),
    )
    .await;
    set_factor(&devnet, sender, 34_000).await;
    let to = devnet.accounts()[2].address();
    let info = call(&devnet, sender, address_word(to)).await;
    // 6 × (3 → 13), CALLDATALOAD 3 → 13, GAS 2 → 8, CALL 9,040 → 39,776, POP 2 → 8, and the
    // stipend back.
    assert_eq!(
        info.receipt.energy_usage_total,
        6 * 13 + 13 + 8 + 39_776 - 2_300 + 8
    );

    // Back to 0: base energy again; a factor above the network's maximum is refused.
    set_factor(&devnet, contract, 0).await;
    assert_eq!(
        call(&devnet, contract, Vec::new())
            .await
            .receipt
            .energy_usage_total,
        12 + 5_000 + 5_000
    );
    let refused = set_factor(&devnet, contract, 34_001).await;
    assert!(
        refused["error"].as_str().unwrap().contains("energy factor"),
        "{refused}"
    );
}

/// A USDT transfer of 1 USDT from dev account 1 to `to`; answers its energy.
async fn usdt_transfer(devnet: &devnet::DevnetHandle, to: Address) -> i64 {
    let data = contracts::DevUSDT::transferCall {
        to: to.into(),
        value: alloy_primitives::U256::from(1_000_000u64),
    }
    .abi_encode();
    let info = call(devnet, devnet.deployment().usdt, data).await;
    assert!(info.succeeded(), "{:?}", info.failure_reason());
    info.receipt.energy_usage_total
}

fn within_3_percent(measured: i64, mainnet: i64) -> bool {
    (measured - mainnet).abs() * 100 <= mainnet * 3
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_usdt_transfer_costs_what_mainnet_usdt_costs() {
    let devnet = devnet().await;
    let usdt = devnet.deployment().usdt;
    let info = post(
        &format!("{}/wallet/getcontractinfo", devnet.url()),
        json!({ "value": usdt.to_base58(), "visible": true }),
    )
    .await;
    assert_eq!(info["contract_state"]["energy_factor"], 34_000);
    // To an address that already holds USDT (dev account 2) and to one that never did.
    let to_holder = usdt_transfer(&devnet, devnet.accounts()[2].address()).await;
    let to_new = usdt_transfer(&devnet, tron::PrivateKey::generate().address()).await;
    println!(
        "devnet USDT transfer at ×4.4: {to_holder} energy to a holder, {to_new} to a new holder (mainnet: 64,285 / 130,285)"
    );
    assert!(within_3_percent(to_holder, 64_285), "{to_holder}");
    assert!(within_3_percent(to_new, 130_285), "{to_new}");
    // The new balance slot is the whole difference: 15,000 × 4.4.
    assert_eq!(to_new - to_holder, 66_000);

    // At factor 0 the same transfers cost TetherToken's base energy (14,610 / 29,610).
    set_factor(&devnet, usdt, 0).await;
    let base_holder = usdt_transfer(&devnet, devnet.accounts()[2].address()).await;
    let base_new = usdt_transfer(&devnet, tron::PrivateKey::generate().address()).await;
    assert!(within_3_percent(base_holder, 14_610), "{base_holder}");
    assert_eq!(base_new - base_holder, 15_000);
}

/// Calls DevUSDT from dev account 1; answers the energy of the receipt, which must be a
/// success.
async fn usdt_call(devnet: &devnet::DevnetHandle, data: Vec<u8>) -> i64 {
    usdt_call_bytes(devnet, data).await.0
}

/// The same, with the transaction's bytes of bandwidth (free, staked or burned).
async fn usdt_call_bytes(devnet: &devnet::DevnetHandle, data: Vec<u8>) -> (i64, i64) {
    let info = call(devnet, devnet.deployment().usdt, data).await;
    assert!(info.succeeded(), "{:?}", info.failure_reason());
    let receipt = &info.receipt;
    (
        receipt.energy_usage_total,
        receipt.net_usage + receipt.net_fee / 1_000,
    )
}

async fn usdt_allowance(devnet: &devnet::DevnetHandle, spender: Address) -> U256 {
    let owner = devnet.accounts()[1].address();
    let data = contracts::DevUSDT::allowanceCall {
        _0: owner.into(),
        _1: spender.into(),
    }
    .abi_encode();
    let usdt = devnet.deployment().usdt;
    let out = devnet
        .with_chain(|c| c.call(owner, Some(usdt), data, 0))
        .expect("allowance");
    contracts::DevUSDT::allowanceCall::abi_decode_returns(&out.output).unwrap()
}

fn approve(spender: Address, value: u64) -> Vec<u8> {
    contracts::DevUSDT::approveCall {
        spender: spender.into(),
        value: U256::from(value),
    }
    .abi_encode()
}

/// A deposit of a fresh commitment into the 100 USDT pool from dev account 1.
async fn deposit_100(devnet: &devnet::DevnetHandle, commitment: u64) {
    let pool = devnet.deployment().pool(100).unwrap().address;
    let data = contracts::QueuedPool::depositCall {
        commitment: alloy_primitives::B256::from(U256::from(commitment)),
    }
    .abi_encode();
    let info = call(devnet, pool, data).await;
    assert!(info.succeeded(), "{:?}", info.failure_reason());
}

/// TRON USDT's allowance rules, as DevUSDT follows them (TetherToken 0.4.25 over
/// OpenZeppelin 1.x's StandardToken; java-tron keeps a copy of the sources in
/// framework/src/test/resources/soliditycode/USDT/): `approve` sets any value over any other
/// (no zero-first rule, unlike Ethereum's 2017 USDT), and `transferFrom` leaves an unlimited
/// allowance as it is.
/// What that buys a depositor: an approval that leaves one base unit behind makes the next
/// approval a rewrite of a non-zero slot, a third of the first's energy.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_returning_depositors_approval_rewrites_its_slot_for_a_third_of_the_energy() {
    let devnet = devnet().await;
    let pool = devnet.deployment().pool(100).unwrap();
    // What a deposit takes: the denomination and its insertion fee.
    let deposit = 100_000_000u64 + pool.insertion_fee;
    let pool = pool.address;

    // The tronpool client's approval: one deposit and one base unit.
    let (first, bytes) = usdt_call_bytes(&devnet, approve(pool, deposit + 1)).await;
    deposit_100(&devnet, 1).await;
    assert_eq!(usdt_allowance(&devnet, pool).await, U256::from(1));
    let returning = usdt_call(&devnet, approve(pool, deposit + 1)).await;
    deposit_100(&devnet, 2).await;
    // An approval of exactly one deposit: the deposit empties the slot, and the next
    // approval fills an empty slot again.
    let returning_again = usdt_call(&devnet, approve(pool, deposit)).await;
    deposit_100(&devnet, 3).await;
    assert_eq!(usdt_allowance(&devnet, pool).await, U256::ZERO);
    let after_emptied = usdt_call(&devnet, approve(pool, deposit)).await;
    println!(
        "USDT approval at ×4.4 (devnet, mainnet model): first {first} energy, returning with \
         a unit kept {returning}, after the allowance fell to zero {after_emptied}; {bytes} \
         bytes of bandwidth"
    );
    assert_eq!(first, after_emptied, "both fill an empty slot");
    assert_eq!(returning, returning_again, "both rewrite a non-zero slot");
    // The slot's write is the whole difference: (20,000 − 5,000) × 4.4.
    assert_eq!(first - returning, 66_000);
    assert!(returning <= 35_000, "{returning}");

    // A non-zero allowance may be set to another non-zero value (no zero-first rule).
    usdt_call(&devnet, approve(pool, deposit + 5)).await;
    assert_eq!(usdt_allowance(&devnet, pool).await, U256::from(deposit + 5));

    // An unlimited allowance is not spent by deposits.
    let unlimited = contracts::DevUSDT::approveCall {
        spender: pool.into(),
        value: U256::MAX,
    };
    usdt_call(&devnet, unlimited.abi_encode()).await;
    deposit_100(&devnet, 4).await;
    assert_eq!(usdt_allowance(&devnet, pool).await, U256::MAX);
}
