// SPDX-License-Identifier: MIT
pragma solidity 0.8.30;

/// @title The devnet's price source: a pair with SunSwap V2's read ABI and settable reserves.
/// @notice Devnet and tests only. The relayer prices its fee in USDT from the TRX/USDT rate it
/// reads from a SunSwap V2 pair (`token0()`, `token1()`, `getReserves()`); this contract answers
/// those calls exactly as a SunSwap V2 / Uniswap V2 pair does, so the same code runs offline
/// against the devnet. It is not a DEX: it holds no tokens, has no swap, mint, burn or skim, and
/// its reserves are whatever its owner last set, so tests can move the price at will.
/// A real WTRX/USDT pair trades every few seconds, and a relayer takes a pair whose last trade
/// (`blockTimestampLast`) is old for a stale price. Nobody trades on a devnet, so this pair
/// reports a trade in every block, as a busy pair would, until its owner says when it last
/// traded (`setLastTrade`), which is how tests make its price stale.
/// @dev Storage mirrors Uniswap V2's: both reserves and the timestamp share one slot, and every
/// change emits `Sync` with the new reserves, as `UniswapV2Pair._update` does.
contract DevSunswapPair {
    address public owner;
    address public immutable token0;
    address public immutable token1;

    uint112 private reserve0;
    uint112 private reserve1;
    uint32 private blockTimestampLast;
    /// Whether `getReserves` reports a trade in the current block.
    bool private tradedEveryBlock;

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
        _blockTimestampLast = tradedEveryBlock ? uint32(block.timestamp) : blockTimestampLast;
    }

    /// @notice Sets both reserves (the price is their ratio); owner only. The pair trades in
    /// every block again.
    function setReserves(uint112 reserve0_, uint112 reserve1_) external onlyOwner {
        _update(reserve0_, reserve1_);
    }

    /// @notice Says the pair last traded at `timestamp` (seconds) and not since; owner only.
    function setLastTrade(uint32 timestamp) external onlyOwner {
        blockTimestampLast = timestamp;
        tradedEveryBlock = false;
    }

    function _update(uint112 reserve0_, uint112 reserve1_) private {
        reserve0 = reserve0_;
        reserve1 = reserve1_;
        blockTimestampLast = uint32(block.timestamp);
        tradedEveryBlock = true;
        emit Sync(reserve0_, reserve1_);
    }
}
