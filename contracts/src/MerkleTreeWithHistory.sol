// SPDX-License-Identifier: MIT
pragma solidity 0.8.30;

import {IHasher} from "./IHasher.sol";

/// @title An append-only Merkle tree of depth 20 that remembers its last 100 roots.
/// @notice Tornado's frontier algorithm: only a left node of each level (`filledSubtrees`) is
/// stored, here the latest *complete* one, so an insert hashes 20 times and writes at most
/// one frontier word and the root (see `_insert`). Nodes are Poseidon(left, right) as
/// circomlib and `crates/zk` define it; the empty subtrees are `zeros(i)`, with
/// `zeros(0) = keccak256("tronpool") mod r`, the same table as `zk::tree::zeros()` (a test
/// compares them).
/// @dev Unlike Tornado, the ring starts at the true empty root `zeros(20)`, and
/// `filledSubtrees` starts at the zero table so every later write changes a non-zero word.
abstract contract MerkleTreeWithHistory {
    uint256 public constant FIELD_SIZE =
        21888242871839275222246405745257275088548364400416034343698204186575808495617;
    uint32 public constant LEVELS = 20;
    /// Withdrawals may prove against any of the last 100 roots: on TRON a stored word costs 50
    /// energy to read, so a long history is cheap and spares users "stale root" failures.
    uint32 public constant ROOT_HISTORY_SIZE = 100;

    IHasher public immutable hasher;

    bytes32[LEVELS] public filledSubtrees;
    bytes32[ROOT_HISTORY_SIZE] public roots;
    /// Leaves inserted so far, and the index of the next one.
    uint32 public nextIndex;

    constructor(IHasher hasher_) {
        hasher = hasher_;
        bytes memory z = ZEROS;
        for (uint256 i = 0; i < LEVELS; i++) {
            filledSubtrees[i] = _zero(z, i);
        }
        roots[0] = _zero(z, LEVELS);
    }

    /// Poseidon(left, right); both must be field elements.
    function hashLeftRight(bytes32 left, bytes32 right) public view returns (bytes32) {
        require(uint256(left) < FIELD_SIZE, "tree: left is not a field element");
        require(uint256(right) < FIELD_SIZE, "tree: right is not a field element");
        return _hash(left, right);
    }

    /// Poseidon(left, right) without the range checks, for `_insert`: the leaf was checked by
    /// the caller, and every other input is a hasher output or a zero, all below r. Called
    /// with a plain `staticcall` rather than Solidity's ABI round trip (no code-size check, no
    /// copy through memory), which saves about 400 energy a call, 8k a deposit.
    function _hash(bytes32 left, bytes32 right) internal view returns (bytes32 result) {
        address h = address(hasher);
        bytes4 selector = IHasher.poseidon.selector;
        assembly ("memory-safe") {
            let p := mload(0x40)
            mstore(p, selector)
            mstore(add(p, 4), left)
            mstore(add(p, 36), right)
            // The answer goes to the scratch word at 0.
            if iszero(staticcall(gas(), h, p, 68, 0, 32)) {
                revert(0, 0)
            }
            if lt(returndatasize(), 32) {
                revert(0, 0)
            }
            result := mload(0)
        }
    }

    /// Appends `leaf` and records the new root; returns the leaf's index.
    /// @dev At level i the new leaf's ancestor is a left node (bit i of the index is 0: its
    /// right sibling is still empty, so it is hashed with `zeros(i)`) or a right node (bit i is
    /// 1: its left sibling is complete, read from `filledSubtrees[i]`). A left node is final
    /// only once its subtree is complete, when all the index's bits below i are 1 (this leaf
    /// is the subtree's last), so only the lowest level with a 0 bit is stored: at most one
    /// word per insert, where Tornado stores every left node on the path (up to 20 words,
    /// 100k energy on TRON). The word stored at level i is read by the next `2^i` inserts,
    /// whose ancestors at level i are its right sibling, and replaced `2^(i+1)` leaves later.
    /// The roots are Tornado's (`crates/contracts/tests/frontier.rs` checks the two rules).
    function _insert(bytes32 leaf) internal returns (uint32 index) {
        uint32 next = nextIndex;
        require(next < uint32(1) << LEVELS, "tree: full");
        bytes memory z = ZEROS;
        uint256 position = next;
        bytes32 node = leaf;
        bool complete = true;
        for (uint256 i = 0; i < LEVELS; i++) {
            if (position & 1 == 0) {
                if (complete) {
                    filledSubtrees[i] = node;
                    complete = false;
                }
                node = _hash(node, _zero(z, i));
            } else {
                node = _hash(filledSubtrees[i], node);
            }
            position >>= 1;
        }
        roots[(next + 1) % ROOT_HISTORY_SIZE] = node;
        nextIndex = next + 1;
        return next;
    }

    /// Whether `root` is one of the last `ROOT_HISTORY_SIZE` roots (never zero), newest first.
    /// @dev In assembly: about 80 gas per step back through the ring besides the SLOAD, where
    /// solc's bounds-checked loop spent over 200.
    function isKnownRoot(bytes32 root) public view returns (bool known) {
        uint256 next = nextIndex;
        uint256 size = ROOT_HISTORY_SIZE;
        assembly ("memory-safe") {
            // Zero is never a root (the ring's unused slots hold it).
            if root {
                let current := mod(next, size)
                let i := current
                for {} 1 {} {
                    if eq(sload(add(roots.slot, i)), root) {
                        known := 1
                        break
                    }
                    // i - 1, from 0 to size - 1
                    i := sub(add(i, mul(iszero(i), size)), 1)
                    if eq(i, current) { break }
                }
            }
        }
    }

    function getLastRoot() public view returns (bytes32) {
        return roots[currentRootIndex()];
    }

    /// Where the latest root is in the ring: the ring advances once per insert, from the
    /// empty root in slot 0, so this follows from `nextIndex` and needs no storage of its own
    /// (a second word written per deposit, or a second write to a shared one, which TRON
    /// charges in full).
    function currentRootIndex() public view returns (uint32 index) {
        uint256 next = nextIndex;
        uint256 size = ROOT_HISTORY_SIZE;
        // A plain MOD: solc's checked `%` costs about 100 more, and `size` is not zero.
        assembly ("memory-safe") {
            index := mod(next, size)
        }
    }

    /// The root of an empty subtree of height `i`: `zeros(0)` and then Poseidon(z, z).
    function zeros(uint256 i) public pure returns (bytes32) {
        require(i <= LEVELS, "tree: level out of range");
        return _zero(ZEROS, i);
    }

    /// Word `i` of the table `ZEROS` once it is in memory (`bytes memory table = ZEROS`, one
    /// copy per call of `_insert`); `i` must be at most `LEVELS`.
    function _zero(bytes memory table, uint256 i) private pure returns (bytes32 z) {
        assembly ("memory-safe") {
            z := mload(add(add(table, 0x20), shl(5, i)))
        }
    }

    /// `zeros(0)`, …, `zeros(20)`, 32 bytes each: a table in the code instead of a chain of
    /// comparisons (4.7k energy less for a deposit into leaf 0, which reads all 20).
    bytes private constant ZEROS =
        hex"1650b105aa4710fa13476f6753c8bb214a688a150fe64fe946d317d60dc5db0b"
        hex"09a772448a932c0a60ddc093880735c7850bbbebeab28d5934ea804f95fee794"
        hex"21e3cee5a27bbf984ab37a9d017f1e16a673db8d86c9018f6208729f316b57f4"
        hex"0d5df298cd99ab5400c086f6f925e9f5c06888ec4c4fa16690d79af318479e3d"
        hex"2bc023675a624a1a1352a60c06a55609822a0aa535515ea81623fc91bcabab6b"
        hex"03cf8ba4e27581436620c32481de2773d56df3fc0ed9a3d072a4079f99e60156"
        hex"215a2907444e4d2772d0f394a71f5d2d64c3ddcf792b206f2ab5ef56dfb8897e"
        hex"20f51ecbb114c2bf22c4990751fa32863f7900d400008f6d1b3e4910aa08c12b"
        hex"2d19c752f434d1056cab2ca42688064c0d3068fe5f439ca7d5682b6c108d060d"
        hex"07d3210a85aa0a7d179be8d996d583f59f01ddbe13239e04752873a41151da30"
        hex"0ef3174144731d3ead444292e75c2596596be7adf021f31f0356f70eb128dc67"
        hex"0f9df96611139b0f3d8b85576edbd44bc50d128ead64f4407a506d7f56515699"
        hex"0873ac4b2e90e5e53fb3a61cc45dd644fe1b428e55e014c1a4f9c424ce313219"
        hex"2957c501a6c8e0c42d8d3d45bdf6afff900b8fdde8a4f2c5cdf4c554276f7637"
        hex"2002c2a451725b4147467921602e56a9d3d132872129eec95d4f772a1d6a8ef9"
        hex"011cfa39a8d994f3de52f88119e09aa8632fc1a4d6f6603d41e1095ed6cb3410"
        hex"0c8b30bc3067258e34e88ba02625ac0f30afc4bb0f0ad109ca919fe637bf1d88"
        hex"0155f6506f8e40d5bc690a69c8c94033966c4be9a0a4e57087db8adb37069db1"
        hex"0b8335476d55141665da02f763347996c63185cccfe379ec11cb61a6b740f147"
        hex"13473ac6fe8f4f3d6cf3c24ec51c20cd7f919ebafb5749e9ca03145758010039"
        hex"2cc4d3ec97f54f0a4241bb83db7eac052bf3d4296343d08294c2da46602238f1";
}
