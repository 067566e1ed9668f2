//! PoseidonT3 on the EVM equals `zk::poseidon::hash2` (the circuit's hash), refuses
//! non-canonical inputs, and is cheap enough to hash a depth-20 path per deposit.
#![allow(clippy::unwrap_used)] // a test fails by panicking: unwrapping is how it says so

mod support;

use alloy_primitives::{Address, U256, address};
use alloy_sol_types::SolCall;
use contracts::PoseidonT3;
use rand_chacha::ChaCha20Rng;
use rand_core::{RngCore, SeedableRng};
use support::{Status, Vm};
use zk::field::{MODULUS, from_u256, to_u256};

const CALLER: Address = address!("00000000000000000000000000000000000ca11e");
/// Gas budget of one `poseidon` call (calldata included): 20 calls per deposit.
const GAS_BUDGET: u64 = 14_000;

fn setup() -> (Vm, Address) {
    let mut chain = Vm::new();
    let hasher = chain.deploy(&PoseidonT3::BYTECODE);
    (chain, hasher)
}

fn calldata(a: U256, b: U256) -> Vec<u8> {
    PoseidonT3::poseidonCall { inputs: [a, b] }.abi_encode()
}

fn expected(a: U256, b: U256) -> U256 {
    to_u256(&zk::poseidon::hash2(
        from_u256(a, "a").unwrap(),
        from_u256(b, "b").unwrap(),
    ))
}

/// A uniformly random canonical field element (rejection sampling on 254 bits).
fn random_element(rng: &mut ChaCha20Rng) -> U256 {
    loop {
        let mut bytes = [0u8; 32];
        rng.fill_bytes(&mut bytes);
        bytes[0] &= 0x3f;
        let v = U256::from_be_bytes(bytes);
        if v < MODULUS {
            return v;
        }
    }
}

#[test]
fn matches_zk_poseidon_hash2() {
    let (mut chain, hasher) = setup();
    let edges = [
        U256::ZERO,
        U256::from(1u64),
        U256::from(2u64),
        MODULUS - U256::from(1u64),
    ];
    let mut cases: Vec<(U256, U256)> = edges
        .iter()
        .flat_map(|&a| edges.iter().map(move |&b| (a, b)))
        .collect();
    let mut rng = ChaCha20Rng::seed_from_u64(0x7e0_5e1d);
    for i in 0..256 {
        let a = random_element(&mut rng);
        // Some cases pair a random element with an edge value.
        let b = if i % 8 == 0 {
            edges[i / 8 % edges.len()]
        } else {
            random_element(&mut rng)
        };
        cases.push((a, b));
    }
    assert!(cases.len() >= 200 + edges.len() * edges.len());

    for (a, b) in cases {
        let out = chain
            .view(CALLER, hasher, &calldata(a, b))
            .expect_success("poseidon");
        let got = PoseidonT3::poseidonCall::abi_decode_returns(&out.output).unwrap();
        assert_eq!(got, expected(a, b), "poseidon([{a:#x}, {b:#x}])");
    }
}

#[test]
fn known_vector() {
    // circomlibjs: poseidon([1, 2]).
    let (mut chain, hasher) = setup();
    let out = chain.view(
        CALLER,
        hasher,
        &calldata(U256::from(1u64), U256::from(2u64)),
    );
    let got = PoseidonT3::poseidonCall::abi_decode_returns(&out.expect_success("poseidon").output);
    let want: U256 = "7853200120776062878684798364095072458815029376092732009249414926327459813530"
        .parse()
        .unwrap();
    assert_eq!(got.unwrap(), want);
}

#[test]
fn rejects_inputs_not_below_r() {
    let (mut chain, hasher) = setup();
    let r = MODULUS;
    let bad = [
        (r, U256::ZERO),
        (U256::ZERO, r),
        (r + U256::from(1u64), U256::from(5u64)),
        (U256::from(5u64), r + U256::from(1u64)),
        (U256::MAX, U256::ZERO),
        (U256::ZERO, U256::MAX),
        (U256::MAX, U256::MAX),
    ];
    for (a, b) in bad {
        let out = chain.call(CALLER, hasher, &calldata(a, b), U256::ZERO);
        assert_eq!(
            out.status,
            Status::Revert,
            "poseidon([{a:#x}, {b:#x}]) must revert"
        );
        assert!(out.output.is_empty(), "reverts with no data");
    }
}

#[test]
fn gas_and_size() {
    let (mut chain, hasher) = setup();
    let size = chain.code(hasher).len();
    assert_eq!(size, PoseidonT3::DEPLOYED_BYTECODE.len());
    let mut rng = ChaCha20Rng::seed_from_u64(1);
    let (a, b) = (random_element(&mut rng), random_element(&mut rng));
    let data = calldata(a, b);
    let out = chain
        .call(CALLER, hasher, &data, U256::ZERO)
        .expect_success("poseidon");
    // EIP-2028: what the calldata itself costs under Cancun (TRON charges it no energy).
    let calldata_gas: u64 = data.iter().map(|&b| if b == 0 { 4 } else { 16 }).sum();
    println!(
        r#"{{"contract":"PoseidonT3","call":"poseidon","gas":{},"calldataGas":{calldata_gas},"executionGas":{}}}"#,
        out.gas_used,
        out.gas_used - calldata_gas
    );
    println!(r#"{{"contract":"PoseidonT3","deployedBytes":{size}}}"#);
    assert!(
        out.gas_used < GAS_BUDGET,
        "poseidon costs {} gas, budget {GAS_BUDGET}",
        out.gas_used
    );
}
