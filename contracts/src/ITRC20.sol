// SPDX-License-Identifier: MIT
pragma solidity 0.8.30;

/// The part of TRC-20 the pool uses. Return values are deliberately ignored by the pool:
/// TRON's USDT returns false from a successful `transfer`.
interface ITRC20 {
    function balanceOf(address owner) external view returns (uint256);
    function transfer(address to, uint256 value) external returns (bool);
    function transferFrom(address from, address to, uint256 value) external returns (bool);
}
