//! TVM upgrades as chain parameters: on a devnet started without Cancun (or Shanghai) the
//! upgrade's opcodes are invalid, as on a java-tron network that has not voted them in, and a
//! call that reaches one fails `ILLEGAL_OPERATION`, spending its whole energy limit.
#![allow(clippy::unwrap_used)] // a test fails by panicking: unwrapping is how it says so

mod support;

use alloy_sol_types::SolCall;
use devnet::DevnetConfig;
use devnet::chain::evm::TvmSwitches;
use serde_json::Value;
use support::{chain_parameter, client, deploy_runtime, send};
use tron::{Action, Address, Trigger};

/// `tstore(0, 1)`, then stop.
const TSTORE: &[u8] = &[0x60, 0x01, 0x60, 0x00, 0x5d, 0x00];
/// `push0`, then stop.
const PUSH0: &[u8] = &[0x5f, 0x00];

const FEE_LIMIT: i64 = 100_000_000;

async fn devnet(tvm: TvmSwitches) -> devnet::DevnetHandle {
    devnet::spawn(DevnetConfig {
        tvm,
        ..DevnetConfig::ephemeral()
    })
    .await
    .unwrap()
}

/// Calls `contract` from dev account 1; answers the receipt.
async fn call(devnet: &devnet::DevnetHandle, contract: Address) -> tron::client::TransactionInfo {
    let alice = devnet.accounts()[1].clone();
    let action = Action::Trigger(Trigger {
        owner: alice.address(),
        contract,
        ..Trigger::default()
    });
    send(&client(devnet), &alice, action, FEE_LIMIT).await.1
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn without_cancun_tstore_is_an_illegal_operation_that_burns_the_fee_limit() {
    let off = devnet(TvmSwitches {
        shanghai: true,
        cancun: false,
    })
    .await;
    assert_eq!(
        chain_parameter(&off, "getAllowTvmCancun").await,
        Value::Null
    );
    assert_eq!(chain_parameter(&off, "getAllowTvmShangHai").await, 1);
    let contract = deploy_runtime(&off, TSTORE).await;
    let info = call(&off, contract).await;
    assert!(!info.succeeded());
    assert_eq!(info.receipt.result.as_deref(), Some("ILLEGAL_OPERATION"));
    assert_eq!(info.receipt.energy_usage_total, FEE_LIMIT / 100);
    assert_eq!(info.receipt.energy_fee, FEE_LIMIT);
    // PUSH0 is Shanghai's: still valid.
    let push0 = deploy_runtime(&off, PUSH0).await;
    assert!(call(&off, push0).await.succeeded());
    // The pools are built for Shanghai and run there (`tests/pool.rs` goes end to end).

    // The same code where Cancun is on (mainnet's default): it runs.
    let on = devnet(TvmSwitches::default()).await;
    assert_eq!(chain_parameter(&on, "getAllowTvmCancun").await, 1);
    let contract = deploy_runtime(&on, TSTORE).await;
    let info = call(&on, contract).await;
    assert!(info.succeeded(), "{:?}", info.failure_reason());
    assert!(info.receipt.energy_usage_total < 1_000);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn without_shanghai_push0_is_an_illegal_operation() {
    let off = devnet(TvmSwitches {
        shanghai: false,
        cancun: true,
    })
    .await;
    assert_eq!(
        chain_parameter(&off, "getAllowTvmShangHai").await,
        Value::Null
    );
    let push0 = deploy_runtime(&off, PUSH0).await;
    let info = call(&off, push0).await;
    assert_eq!(info.receipt.result.as_deref(), Some("ILLEGAL_OPERATION"));
    assert_eq!(info.receipt.energy_fee, FEE_LIMIT);
    // The pools are built for Shanghai: there, even a deposit fails (which is why `tronpool
    // deploy` reads the switches first and refuses such a network).
    let pool = off.deployment().pools[0].address;
    let alice = off.accounts()[1].clone();
    let deposit = Action::Trigger(Trigger {
        owner: alice.address(),
        contract: pool,
        data: contracts::TronPool::depositCall {
            commitment: alloy_primitives::B256::with_last_byte(7),
        }
        .abi_encode(),
        ..Trigger::default()
    });
    let (_, info) = send(&client(&off), &alice, deposit, FEE_LIMIT).await;
    assert_eq!(info.receipt.result.as_deref(), Some("ILLEGAL_OPERATION"));
}

/// Ethereum's code-size limits (EIP-170's 24,576 bytes of runtime, EIP-3860's initcode) are
/// not TRON's: java-tron saves whatever code a creation returns at 200 energy a byte
/// (`VMActuator.java`), so the 28 KB `PoseidonT5` deploys on the devnet as on TRON.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn code_past_ethereums_size_limit_deploys_as_on_tron() {
    let devnet = devnet(TvmSwitches::default()).await;
    let runtime = contracts::PoseidonT5::DEPLOYED_BYTECODE.len();
    assert!(runtime > 24_576, "{runtime} bytes");
    let hasher = support::deploy_artifact(&devnet, "PoseidonT5", &[], 100, 10_000_000).await;
    let one = alloy_primitives::U256::from(1);
    let out = client(&devnet)
        .trigger_constant_contract(&Trigger {
            owner: hasher,
            contract: hasher,
            data: contracts::PoseidonT5::poseidonCall {
                inputs: [one, one + one, one + one + one, one + one + one + one],
            }
            .abi_encode(),
            ..Trigger::default()
        })
        .await
        .unwrap();
    assert!(!out.reverted, "{:?}", out.revert_reason());
    // circomlibjs's `poseidon([1, 2, 3, 4])`.
    assert_eq!(
        alloy_primitives::U256::from_be_slice(&out.output),
        alloy_primitives::U256::from_str_radix(
            "18821383157269793795438455681495246036402687001665670618754263018637548127333",
            10
        )
        .unwrap()
    );
}
