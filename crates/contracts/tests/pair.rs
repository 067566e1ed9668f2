//! DevSunswapPair in revm: SunSwap V2's read ABI (`token0`, `token1`, `getReserves`) answers
//! what the constructor was given, and only the owner moves the reserves.
#![allow(clippy::unwrap_used)] // a test fails by panicking: unwrapping is how it says so

mod support;

use alloy_primitives::aliases::U112;
use alloy_primitives::{Address, U256, address};
use alloy_sol_types::{SolCall, SolConstructor, SolEvent};
use contracts::{DevSunswapPair, creation_code};
use support::{DEPLOYER, Vm};

/// Stand-ins for WTRX and USDT: the pair only stores the addresses.
const WTRX: Address = address!("00000000000000000000000000000000000077c5");
const USDT: Address = address!("000000000000000000000000000000000000057d");
const STRANGER: Address = address!("0000000000000000000000000000000000005a1e");
/// The harness's block time (2026-01-01T00:00:00Z).
const START: u64 = 1_767_225_600;

fn u112(v: u64) -> U112 {
    U112::from(v)
}

fn deploy(chain: &mut Vm, reserve0: u64, reserve1: u64) -> Address {
    chain.deploy(&creation_code(
        &DevSunswapPair::BYTECODE,
        &DevSunswapPair::constructorCall {
            token0_: WTRX,
            token1_: USDT,
            reserve0_: u112(reserve0),
            reserve1_: u112(reserve1),
        }
        .abi_encode(),
    ))
}

fn view<C: SolCall>(chain: &mut Vm, pair: Address, call: C) -> C::Return {
    let out = chain
        .view(STRANGER, pair, &call.abi_encode())
        .expect_success("view");
    C::abi_decode_returns(&out.output).expect("decodes")
}

fn reserves(chain: &mut Vm, pair: Address) -> (U112, U112, u32) {
    let r = view(chain, pair, DevSunswapPair::getReservesCall {});
    (r._reserve0, r._reserve1, r._blockTimestampLast)
}

#[test]
fn reads_like_a_sunswap_v2_pair() {
    let mut chain = Vm::new();
    let pair = deploy(&mut chain, 40_000_000_000_000, 11_200_000_000_000);
    assert_eq!(view(&mut chain, pair, DevSunswapPair::token0Call {}), WTRX);
    assert_eq!(view(&mut chain, pair, DevSunswapPair::token1Call {}), USDT);
    assert_eq!(
        view(&mut chain, pair, DevSunswapPair::ownerCall {}),
        DEPLOYER
    );
    assert_eq!(
        reserves(&mut chain, pair),
        (
            u112(40_000_000_000_000),
            u112(11_200_000_000_000),
            START as u32
        )
    );
    // Uniswap V2's selectors, so a client written for the real pair reads this one.
    assert_eq!(
        DevSunswapPair::getReservesCall::SELECTOR,
        [0x09, 0x02, 0xf1, 0xac]
    );
    assert_eq!(
        DevSunswapPair::token0Call::SELECTOR,
        [0x0d, 0xfe, 0x16, 0x81]
    );
    assert_eq!(
        DevSunswapPair::token1Call::SELECTOR,
        [0xd2, 0x12, 0x20, 0xa7]
    );
    assert_eq!(
        DevSunswapPair::Sync::SIGNATURE_HASH,
        alloy_primitives::keccak256("Sync(uint112,uint112)")
    );
}

#[test]
fn the_owner_sets_the_reserves_and_the_time() {
    let mut chain = Vm::new();
    let pair = deploy(&mut chain, 1_000, 2_000);
    let later = START + 3_600;
    chain.set_timestamp(later);
    let out = chain
        .call(
            DEPLOYER,
            pair,
            &DevSunswapPair::setReservesCall {
                reserve0_: u112(5_000_000),
                reserve1_: u112(1_750_000),
            }
            .abi_encode(),
            U256::ZERO,
        )
        .expect_success("setReserves");
    assert_eq!(
        reserves(&mut chain, pair),
        (u112(5_000_000), u112(1_750_000), later as u32)
    );
    assert_eq!(out.logs.len(), 1);
    assert_eq!(out.logs[0].address, pair);
    let sync = DevSunswapPair::Sync::decode_log_data(&out.logs[0].data).expect("a Sync event");
    assert_eq!(
        (sync.reserve0, sync.reserve1),
        (u112(5_000_000), u112(1_750_000))
    );

    // A pair that trades in every block: its last trade is always the current block.
    chain.set_timestamp(later + 100);
    assert_eq!(reserves(&mut chain, pair).2, (later + 100) as u32);
    // Until the owner says when it last traded: then that time stands, and the price ages.
    chain
        .call(
            DEPLOYER,
            pair,
            &DevSunswapPair::setLastTradeCall {
                timestamp: later as u32,
            }
            .abi_encode(),
            U256::ZERO,
        )
        .expect_success("setLastTrade");
    chain.set_timestamp(later + 7_200);
    assert_eq!(
        reserves(&mut chain, pair),
        (u112(5_000_000), u112(1_750_000), later as u32)
    );

    // The largest uint112 is accepted; one more does not decode.
    let max = U112::MAX;
    chain
        .call(
            DEPLOYER,
            pair,
            &DevSunswapPair::setReservesCall {
                reserve0_: max,
                reserve1_: u112(1),
            }
            .abi_encode(),
            U256::ZERO,
        )
        .expect_success("setReserves(max)");
    let mut data = DevSunswapPair::setReservesCall::SELECTOR.to_vec();
    data.extend_from_slice(&(U256::from(1u8) << 112usize).to_be_bytes::<32>());
    data.extend_from_slice(&U256::from(1u8).to_be_bytes::<32>());
    assert!(!chain.call(DEPLOYER, pair, &data, U256::ZERO).is_success());
    assert_eq!(reserves(&mut chain, pair).0, max);
    // Setting the reserves is a trade: the pair trades in every block again.
    assert_eq!(reserves(&mut chain, pair).2, (later + 7_200) as u32);
}

#[test]
fn a_stranger_cannot_set_the_reserves() {
    let mut chain = Vm::new();
    let pair = deploy(&mut chain, 1_000, 2_000);
    chain.set_balance(STRANGER, U256::from(1_000_000_000u64));
    chain.set_timestamp(START + 60);
    let out = chain.call(
        STRANGER,
        pair,
        &DevSunswapPair::setReservesCall {
            reserve0_: u112(1),
            reserve1_: u112(1),
        }
        .abi_encode(),
        U256::ZERO,
    );
    assert_eq!(
        out.revert_reason().as_deref(),
        Some("pair: caller is not the owner")
    );
    let out = chain.call(
        STRANGER,
        pair,
        &DevSunswapPair::setLastTradeCall { timestamp: 1 }.abi_encode(),
        U256::ZERO,
    );
    assert_eq!(
        out.revert_reason().as_deref(),
        Some("pair: caller is not the owner")
    );
    assert_eq!(
        reserves(&mut chain, pair),
        (u112(1_000), u112(2_000), (START + 60) as u32)
    );
}

fn cumulative(chain: &mut Vm, pair: Address) -> (U256, U256) {
    (
        view(chain, pair, DevSunswapPair::price0CumulativeLastCall {}),
        view(chain, pair, DevSunswapPair::price1CumulativeLastCall {}),
    )
}

/// token1 per token0 as Uniswap V2's UQ112x112.
fn uq(numerator: u64, denominator: u64) -> U256 {
    (U256::from(numerator) << 112) / U256::from(denominator)
}

/// The cumulative prices add up each price times the seconds it held, as Uniswap V2's
/// `_update` does, so the difference of two readings over their time apart is the
/// time-weighted average price (what a relayer quotes from).
#[test]
fn cumulative_prices_sum_each_price_over_the_seconds_it_held() {
    let mut chain = Vm::new();
    let pair = deploy(&mut chain, 4_000, 1_120);
    // Selectors are Uniswap V2's.
    assert_eq!(
        DevSunswapPair::price0CumulativeLastCall::SELECTOR,
        alloy_primitives::keccak256("price0CumulativeLast()")[..4]
    );
    assert_eq!(cumulative(&mut chain, pair), (U256::ZERO, U256::ZERO));
    // 600 s at 0.28 token1 per token0; a busy pair reads as of the current block.
    chain.set_timestamp(START + 600);
    let (p0, p1) = (uq(1_120, 4_000), uq(4_000, 1_120));
    assert_eq!(
        cumulative(&mut chain, pair),
        (p0 * U256::from(600), p1 * U256::from(600))
    );
    // The price halves at START + 600 and holds 300 s.
    set_reserves(&mut chain, pair, 4_000, 560);
    chain.set_timestamp(START + 900);
    let (q0, q1) = (uq(560, 4_000), uq(4_000, 560));
    let (c0, c1) = cumulative(&mut chain, pair);
    assert_eq!(c0, p0 * U256::from(600) + q0 * U256::from(300));
    assert_eq!(c1, p1 * U256::from(600) + q1 * U256::from(300));
    // Averaged over the 900 s: (2 × 0.28 + 0.14) / 3 token1 per token0.
    let twap0 = c0 / U256::from(900);
    assert_eq!(twap0, (p0 * U256::from(2) + q0) / U256::from(3));

    // A pair told it last traded 500 s ago reads as of then, and stays there.
    chain
        .call(
            DEPLOYER,
            pair,
            &DevSunswapPair::setLastTradeCall {
                timestamp: (START + 400) as u32,
            }
            .abi_encode(),
            U256::ZERO,
        )
        .expect_success("setLastTrade");
    let at_400 = (
        p0 * U256::from(600) - q0 * U256::from(200),
        p1 * U256::from(600) - q1 * U256::from(200),
    );
    assert_eq!(cumulative(&mut chain, pair), at_400);
    chain.set_timestamp(START + 5_000);
    assert_eq!(cumulative(&mut chain, pair), at_400);
    assert_eq!(reserves(&mut chain, pair).2, (START + 400) as u32);
    // Its next trade adds the price it held since then.
    set_reserves(&mut chain, pair, 4_000, 1_120);
    assert_eq!(
        cumulative(&mut chain, pair),
        (
            at_400.0 + q0 * U256::from(4_600),
            at_400.1 + q1 * U256::from(4_600)
        )
    );
}

fn set_reserves(chain: &mut Vm, pair: Address, reserve0: u64, reserve1: u64) {
    chain
        .call(
            DEPLOYER,
            pair,
            &DevSunswapPair::setReservesCall {
                reserve0_: u112(reserve0),
                reserve1_: u112(reserve1),
            }
            .abi_encode(),
            U256::ZERO,
        )
        .expect_success("setReserves");
}
