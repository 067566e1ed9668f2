// SPDX-License-Identifier: MIT
pragma solidity 0.8.30;

/// Poseidon(2) as circomlib defines it; `PoseidonT3` (generated from `crates/zk`) implements it,
/// and so does circomlibjs's generated hasher, whose selector is the same.
interface IHasher {
    function poseidon(uint256[2] calldata inputs) external pure returns (uint256);
}
