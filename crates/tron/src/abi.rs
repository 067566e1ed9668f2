//! ABI bindings for the contracts tronpool calls that are not its own (TRC-20 USDT, a SunSwap
//! V2 pair), and the decoding of revert data into words a person can read.

use alloy_sol_types::{SolCall, sol};

use crate::address::Address;

sol! {
    /// The TRC-20 surface tronpool uses. TRON's USDT returns `false` from `transfer` even when
    /// it succeeds, so callers must judge a transfer by balances, never by this return value.
    interface Trc20 {
        function name() external view returns (string);
        function symbol() external view returns (string);
        function decimals() external view returns (uint8);
        function totalSupply() external view returns (uint256);
        function balanceOf(address owner) external view returns (uint256);
        function allowance(address owner, address spender) external view returns (uint256);
        function transfer(address to, uint256 value) external returns (bool);
        function approve(address spender, uint256 value) external returns (bool);
        function transferFrom(address from, address to, uint256 value) external returns (bool);

        event Transfer(address indexed from, address indexed to, uint256 value);
        event Approval(address indexed owner, address indexed spender, uint256 value);
    }
}

sol! {
    /// The read surface of a SunSwap V2 (Uniswap V2) pair: what a relayer reads to price TRX
    /// in USDT from a WTRX/USDT pool's reserves.
    interface SunswapV2Pair {
        function token0() external view returns (address);
        function token1() external view returns (address);
        function getReserves() external view returns (
            uint112 reserve0, uint112 reserve1, uint32 blockTimestampLast
        );
        function price0CumulativeLast() external view returns (uint256);
        function price1CumulativeLast() external view returns (uint256);
    }
}

/// The reason inside revert data (`Error(string)`, `Panic(uint256)`), if it has one.
pub fn revert_reason(data: &[u8]) -> Option<String> {
    if data.is_empty() {
        return None;
    }
    let reason = alloy_sol_types::decode_revert_reason(data)?;
    // alloy prefixes `Error(string)` reasons with "revert: "; the reason alone reads better.
    let reason = reason.strip_prefix("revert: ").unwrap_or(&reason).trim();
    (!reason.is_empty()).then(|| reason.to_owned())
}

/// A one-line description of calldata for the contracts tronpool knows, so a person can see
/// what they are about to sign (`transfer(TXyz…, 1000000)`), or `None` for unknown selectors.
pub fn describe_call(data: &[u8]) -> Option<String> {
    use Trc20::*;
    let selector: [u8; 4] = data.get(..4)?.try_into().ok()?;
    let addr = |a: alloy_primitives::Address| Address::from(a).to_base58();
    match selector {
        transferCall::SELECTOR => transferCall::abi_decode(data)
            .ok()
            .map(|c| format!("transfer({}, {})", addr(c.to), c.value)),
        approveCall::SELECTOR => approveCall::abi_decode(data)
            .ok()
            .map(|c| format!("approve({}, {})", addr(c.spender), c.value)),
        transferFromCall::SELECTOR => transferFromCall::abi_decode(data).ok().map(|c| {
            format!(
                "transferFrom({}, {}, {})",
                addr(c.from),
                addr(c.to),
                c.value
            )
        }),
        balanceOfCall::SELECTOR => balanceOfCall::abi_decode(data)
            .ok()
            .map(|c| format!("balanceOf({})", addr(c.owner))),
        allowanceCall::SELECTOR => allowanceCall::abi_decode(data)
            .ok()
            .map(|c| format!("allowance({}, {})", addr(c.owner), addr(c.spender))),
        _ => None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use alloy_primitives::U256;

    #[test]
    fn transfer_calldata_matches_the_real_capture() {
        // Vector D of the tests in `transaction.rs` (a real Nile capture): transfer(TA..., 100)
        // on Nile USDT.
        let to = Address::from_hex("41088a2bfcb1c7271029fd69a66859d55560895884").unwrap();
        let call = Trc20::transferCall {
            to: to.into(),
            value: U256::from(100),
        };
        assert_eq!(
            hex::encode(call.abi_encode()),
            concat!(
                "a9059cbb000000000000000000000000088a2bfcb1c7271029fd69a66859d55560895884",
                "0000000000000000000000000000000000000000000000000000000000000064"
            )
        );
        assert_eq!(
            describe_call(&call.abi_encode()).unwrap(),
            format!("transfer({}, 100)", to.to_base58())
        );
        assert_eq!(describe_call(&[1, 2, 3, 4]), None);
        assert_eq!(describe_call(&[]), None);
    }

    #[test]
    fn revert_reasons() {
        let data = hex::decode("08c379a00000000000000000000000000000000000000000000000000000000000000020000000000000000000000000000000000000000000000000000000000000000c626c61636b6c697374656421000000000000000000000000000000000000000000").unwrap();
        assert_eq!(revert_reason(&data).unwrap(), "blacklisted!");
        assert_eq!(revert_reason(&[]), None);
    }
}
