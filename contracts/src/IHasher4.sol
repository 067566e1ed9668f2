// SPDX-License-Identifier: MIT
pragma solidity 0.8.30;

/// Poseidon(4) as circomlib defines it; `PoseidonT5` (generated from `crates/zk`) implements it.
interface IHasher4 {
    function poseidon(uint256[4] calldata inputs) external pure returns (uint256);
}
