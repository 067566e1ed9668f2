// SPDX-License-Identifier: MIT
pragma solidity 0.8.30;

/// @title The devnet's price source: a pair with SunSwap V2's read ABI and settable reserves.
/// @notice Devnet and tests only. The relayer prices its fee in USDT from the TRX/USDT rate it
/// reads from a SunSwap V2 pair (`token0()`, `token1()`, `getReserves()`, and the cumulative
/// prices `price0CumulativeLast()`/`price1CumulativeLast()` it averages over time); this
/// contract answers those calls exactly as a SunSwap V2 / Uniswap V2 pair does, so the same code
/// runs offline against the devnet. It is not a DEX: it holds no tokens, has no swap, mint, burn
/// or skim, and its reserves are whatever its owner last set, so tests can move the price at
/// will.
/// A real WTRX/USDT pair trades every few seconds, and a relayer takes a pair whose last trade
/// (`blockTimestampLast`) is old for a stale price. Nobody trades on a devnet, so this pair
/// reports a trade in every block, as a busy pair would, until its owner says when it last
/// traded (`setLastTrade`), which is how tests make its price stale.
/// @dev Storage mirrors Uniswap V2's: both reserves and the timestamp share one slot, every
/// change emits `Sync` with the new reserves, and every change first adds the old price times
/// the seconds it held to the cumulative prices, as `UniswapV2Pair._update` does (UQ112x112
/// fixed point, wrapping on overflow by design). A pair that "trades in every block" reports
/// its cumulative prices as of the current block, as a busy pair's would read after its last
/// swap; a pair told it last traded at `t` reports them as of `t`.
contract DevSunswapPair {
    address public owner;
    address public immutable token0;
    address public immutable token1;

    uint112 private reserve0;
    uint112 private reserve1;
    uint32 private blockTimestampLast;
    /// Whether `getReserves` reports a trade in the current block.
    bool private tradedEveryBlock;

    /// The cumulative prices as of `blockTimestampLast` (Uniswap V2's storage).
    uint256 private price0CumulativeStored;
    uint256 private price1CumulativeStored;

    event Sync(uint112 reserve0, uint112 reserve1);

    modifier onlyOwner() {
        require(msg.sender == owner, "pair: caller is not the owner");
        _;
    }

    /// @param token0_ The pair's token0 (on the devnet, a stand-in for WTRX).
    /// @param token1_ The pair's token1 (on the devnet, the devnet USDT).
    /// @param reserve0_ Initial reserve of token0, in its base units.
    /// @param reserve1_ Initial reserve of token1, in its base units.
    constructor(address token0_, address token1_, uint112 reserve0_, uint112 reserve1_) {
        owner = msg.sender;
        token0 = token0_;
        token1 = token1_;
        blockTimestampLast = uint32(block.timestamp);
        _update(reserve0_, reserve1_);
    }

    /// @notice As Uniswap V2: the reserves and the (32-bit) time of the block that last set them.
    function getReserves()
        external
        view
        returns (uint112 _reserve0, uint112 _reserve1, uint32 _blockTimestampLast)
    {
        _reserve0 = reserve0;
        _reserve1 = reserve1;
        _blockTimestampLast = _lastTrade();
    }

    /// @notice As Uniswap V2: the sum over time of token1 per token0 (UQ112x112) times the
    /// seconds it held, up to the last trade.
    function price0CumulativeLast() external view returns (uint256) {
        (uint256 price0, ) = _cumulativeAt(_lastTrade());
        return price0;
    }

    /// @notice As Uniswap V2: the same for token0 per token1.
    function price1CumulativeLast() external view returns (uint256) {
        (, uint256 price1) = _cumulativeAt(_lastTrade());
        return price1;
    }

    /// @notice Sets both reserves (the price is their ratio); owner only. The pair trades in
    /// every block again.
    function setReserves(uint112 reserve0_, uint112 reserve1_) external onlyOwner {
        _update(reserve0_, reserve1_);
    }

    /// @notice Says the pair last traded at `timestamp` (seconds) and not since; owner only.
    /// The cumulative prices are moved to that time at the current reserves.
    function setLastTrade(uint32 timestamp) external onlyOwner {
        (price0CumulativeStored, price1CumulativeStored) = _cumulativeAt(timestamp);
        blockTimestampLast = timestamp;
        tradedEveryBlock = false;
    }

    function _lastTrade() private view returns (uint32) {
        return tradedEveryBlock ? uint32(block.timestamp) : blockTimestampLast;
    }

    /// The cumulative prices at `timestamp`, with the current reserves held since the stored
    /// time (or, for a time before it, taken back out).
    function _cumulativeAt(uint32 timestamp) private view returns (uint256, uint256) {
        if (reserve0 == 0 || reserve1 == 0) {
            return (price0CumulativeStored, price1CumulativeStored);
        }
        unchecked {
            // Wrapping arithmetic, as Uniswap V2's: only differences of these sums mean anything.
            uint256 elapsed = uint256(int256(uint256(timestamp)) - int256(uint256(blockTimestampLast)));
            uint256 price0 = (uint256(reserve1) << 112) / reserve0;
            uint256 price1 = (uint256(reserve0) << 112) / reserve1;
            return (price0CumulativeStored + price0 * elapsed, price1CumulativeStored + price1 * elapsed);
        }
    }

    function _update(uint112 reserve0_, uint112 reserve1_) private {
        (price0CumulativeStored, price1CumulativeStored) = _cumulativeAt(uint32(block.timestamp));
        reserve0 = reserve0_;
        reserve1 = reserve1_;
        blockTimestampLast = uint32(block.timestamp);
        tradedEveryBlock = true;
        emit Sync(reserve0_, reserve1_);
    }
}
