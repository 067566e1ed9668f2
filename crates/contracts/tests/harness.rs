//! The test chain itself: TRON-like gas (no 21,000 base), no nonces, reverts decoded.
#![allow(clippy::unwrap_used)] // a test fails by panicking: unwrapping is how it says so

mod support;

use alloy_primitives::{Address, U256, address};
use alloy_sol_types::{SolCall, SolConstructor, SolEvent};
use contracts::{DevUSDT, creation_code};
use revm::context_interface::cfg::gas_params::GasParams;
use revm::primitives::hardfork::SpecId;
use support::{DEPLOYER, Status, Vm};

const ALICE: Address = address!("00000000000000000000000000000000000a11ce");
const BOB: Address = address!("0000000000000000000000000000000000000b0b");

/// Creation code whose runtime is the single byte 0xfe (INVALID): every call halts.
const INVALID_RUNTIME: [u8; 11] = [
    0x60, 0xfe, 0x60, 0x00, 0x53, 0x60, 0x01, 0x60, 0x00, 0xf3, 0x00,
];

#[test]
fn no_intrinsic_base_cost() {
    // Control: revm's Cancun table charges the Ethereum base; the chain overrides it to 0.
    let cancun = GasParams::new_spec(SpecId::CANCUN);
    assert_eq!(cancun.tx_base_stipend(), 21_000);

    let mut chain = Vm::new();
    // A plain value transfer to an EOA: 21,000 on Ethereum, nothing here.
    chain.set_balance(ALICE, U256::from(1_000_000u64));
    let out = chain
        .call(ALICE, BOB, &[], U256::from(1_000u64))
        .expect_success("transfer");
    assert_eq!(
        out.gas_used, 0,
        "a value transfer must cost no gas without the 21,000 base"
    );
    assert_eq!(chain.balance(BOB), U256::from(1_000u64));
    assert_eq!(chain.balance(ALICE), U256::from(999_000u64));
    // Calldata is still charged at Ethereum's 4/16 per byte.
    let out = chain
        .call(ALICE, BOB, &[0, 1], U256::ZERO)
        .expect_success("data");
    assert_eq!(out.gas_used, 4 + 16);
    println!(r#"{{"harness":"value-transfer","gas":0}}"#);
}

#[test]
fn nonces_are_not_checked_and_deploys_get_distinct_addresses() {
    let mut chain = Vm::new();
    let a = chain.deploy(&INVALID_RUNTIME);
    let b = chain.deploy(&INVALID_RUNTIME);
    assert_ne!(a, b);
    assert_eq!(chain.code(a).as_ref(), &[0xfe]);
    for _ in 0..3 {
        chain
            .call(DEPLOYER, ALICE, &[], U256::ZERO)
            .expect_success("nonce-less tx");
    }
}

#[test]
fn halts_are_reported() {
    let mut chain = Vm::new();
    let bad = chain.deploy(&INVALID_RUNTIME);
    let out = chain.call(ALICE, bad, &[], U256::ZERO);
    assert!(
        matches!(&out.status, Status::Halt(r) if r.contains("Invalid")),
        "{:?}",
        out.status
    );
    assert_eq!(out.revert_reason(), None);
}

#[test]
fn token_calls_events_views_and_revert_reasons() {
    let mut chain = Vm::new();
    let supply = U256::from(1_000_000_000_000u64);
    let args = DevUSDT::constructorCall {
        initialSupply: supply,
    }
    .abi_encode();
    let usdt = chain.deploy(&creation_code(&DevUSDT::BYTECODE, &args));

    let balance = |chain: &mut Vm, who: Address| {
        let out = chain.view(ALICE, usdt, &DevUSDT::balanceOfCall(who).abi_encode());
        DevUSDT::balanceOfCall::abi_decode_returns(&out.expect_success("balanceOf").output).unwrap()
    };
    assert_eq!(balance(&mut chain, DEPLOYER), supply);

    // transfer succeeds and, like TRON's USDT, returns false.
    let call = DevUSDT::transferCall {
        to: ALICE,
        value: U256::from(5u64),
    }
    .abi_encode();
    let out = chain
        .call(DEPLOYER, usdt, &call, U256::ZERO)
        .expect_success("transfer");
    assert!(!DevUSDT::transferCall::abi_decode_returns(&out.output).unwrap());
    assert_eq!(out.logs.len(), 1);
    let ev = DevUSDT::Transfer::decode_log(&out.logs[0]).unwrap();
    assert_eq!(
        (ev.from, ev.to, ev.value),
        (DEPLOYER, ALICE, U256::from(5u64))
    );
    assert_eq!(balance(&mut chain, ALICE), U256::from(5u64));
    println!(
        r#"{{"contract":"DevUSDT","call":"transfer","gas":{}}}"#,
        out.gas_used
    );

    // A view does not commit.
    let out = chain
        .view(DEPLOYER, usdt, &call)
        .expect_success("view transfer");
    assert!(out.gas_used > 0);
    assert_eq!(balance(&mut chain, ALICE), U256::from(5u64));

    // Error(string) comes back as text.
    let call = DevUSDT::transferCall {
        to: BOB,
        value: U256::from(6u64),
    }
    .abi_encode();
    let out = chain.call(ALICE, usdt, &call, U256::ZERO);
    assert_eq!(out.status, Status::Revert);
    let reason = out.revert_reason().unwrap();
    assert!(reason.contains("exceeds balance"), "{reason}");
    assert_eq!(balance(&mut chain, BOB), U256::ZERO);
}

#[test]
fn revert_reason_decoding() {
    use alloy_sol_types::{Panic, Revert, SolError};
    let data = Revert::from("nope").abi_encode();
    assert_eq!(support::revert_reason(&data), "nope");
    let data = Panic {
        code: U256::from(0x11u64),
    }
    .abi_encode();
    assert!(
        support::revert_reason(&data).contains("overflow"),
        "{}",
        support::revert_reason(&data)
    );
    assert_eq!(support::revert_reason(&[0xde, 0xad]), "0xdead");
    assert_eq!(support::revert_reason(&[]), "(no revert data)");
}
