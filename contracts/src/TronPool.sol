// SPDX-License-Identifier: MIT
pragma solidity 0.8.30;

import {IHasher} from "./IHasher.sol";
import {ITRC20} from "./ITRC20.sol";
import {IVerifier} from "./IVerifier.sol";
import {MerkleTreeWithHistory} from "./MerkleTreeWithHistory.sol";

/// @title A fixed-denomination privacy pool for a TRC-20 token (USDT), one per denomination.
/// @notice `deposit` takes exactly `denomination` tokens with a commitment; `withdraw` pays the
/// denomination (minus a relayer fee) to any recipient who proves, in zero knowledge, the
/// knowledge of some deposit's note. A nullifier hash makes every note spendable once.
/// @dev Token movements are judged by the pool's balance change, never by return values:
/// TRON's USDT returns false from a successful `transfer`. Reverts from the token (a paused
/// token, a blacklisted recipient) are passed on with their reason, and a reverted withdrawal
/// leaves the note unspent.
contract TronPool is MerkleTreeWithHistory {
    IVerifier public immutable verifier;
    ITRC20 public immutable token;
    /// In token base units (USDT: 6 decimals).
    uint256 public immutable denomination;

    mapping(bytes32 => bool) public nullifierHashes;
    mapping(bytes32 => bool) public commitments;

    bool private transient entered;

    event Deposit(bytes32 indexed commitment, uint32 leafIndex, uint256 timestamp);
    event Withdrawal(address to, bytes32 nullifierHash, address indexed relayer, uint256 fee);

    modifier nonReentrant() {
        require(!entered, "pool: reentrant call");
        entered = true;
        _;
        entered = false;
    }

    constructor(IVerifier verifier_, IHasher hasher_, ITRC20 token_, uint256 denomination_)
        MerkleTreeWithHistory(hasher_)
    {
        require(denomination_ > 0, "pool: denomination must be positive");
        verifier = verifier_;
        token = token_;
        denomination = denomination_;
    }

    /// Adds `commitment` = Poseidon(nullifier, secret) to the tree and takes `denomination`
    /// tokens from the caller (approve first).
    function deposit(bytes32 commitment) external nonReentrant {
        require(uint256(commitment) < FIELD_SIZE, "pool: commitment is not a field element");
        require(!commitments[commitment], "pool: commitment already deposited");
        uint32 leafIndex = _insert(commitment);
        commitments[commitment] = true;

        uint256 before = _balance();
        _callToken(abi.encodeCall(ITRC20.transferFrom, (msg.sender, address(this), denomination)));
        require(_balance() == before + denomination, "pool: token did not arrive in full");
        emit Deposit(commitment, leafIndex, block.timestamp);
    }

    /// Pays `denomination - fee` to `recipient` and `fee` to `relayer`, against a proof of a
    /// deposit under `root` whose nullifier hashes to `nullifierHash`. A relayer sends `refund`
    /// TRX (sun) along, which goes to the recipient for its first energy and bandwidth.
    /// @param proof 256 bytes: `abi.encode(uint256[8])` in `IVerifier`'s order.
    function withdraw(
        bytes calldata proof,
        bytes32 root,
        bytes32 nullifierHash,
        address payable recipient,
        address payable relayer,
        uint256 fee,
        uint256 refund
    ) external payable nonReentrant {
        require(fee <= denomination, "pool: fee exceeds denomination");
        require(!nullifierHashes[nullifierHash], "pool: note already spent");
        require(isKnownRoot(root), "pool: unknown root");
        require(proof.length == 256, "pool: proof must be 256 bytes");
        uint256[8] memory words = abi.decode(proof, (uint256[8]));
        uint256[6] memory input = [
            uint256(root),
            uint256(nullifierHash),
            uint256(uint160(address(recipient))),
            uint256(uint160(address(relayer))),
            fee,
            refund
        ];
        require(verifier.verifyProof(words, input), "pool: invalid withdraw proof");
        require(msg.value == refund, "pool: TRX sent must equal the refund");
        require(recipient != address(0), "pool: recipient is the zero address");

        nullifierHashes[nullifierHash] = true;
        _pay(recipient, denomination - fee);
        if (fee > 0) _pay(relayer, fee);
        if (refund > 0) {
            (bool sent,) = recipient.call{value: refund}("");
            if (!sent) {
                // A recipient that refuses TRX must not block its own withdrawal: the relayer
                // gets its refund back.
                (sent,) = relayer.call{value: refund}("");
                require(sent, "pool: refund could not be returned");
            }
        }
        emit Withdrawal(recipient, nullifierHash, relayer, fee);
    }

    function isSpent(bytes32 nullifierHash) public view returns (bool) {
        return nullifierHashes[nullifierHash];
    }

    function isSpentArray(bytes32[] calldata hashes) external view returns (bool[] memory spent) {
        spent = new bool[](hashes.length);
        for (uint256 i = 0; i < hashes.length; i++) {
            spent[i] = nullifierHashes[hashes[i]];
        }
    }

    /// Whether a withdrawal with this nullifier hash and root would pass the pool's own checks
    /// (the proof aside): what a relayer asks before paying energy.
    function canWithdraw(bytes32 nullifierHash, bytes32 root) external view returns (bool) {
        return !nullifierHashes[nullifierHash] && isKnownRoot(root);
    }

    /// Sends `amount` tokens and checks the pool's balance fell by exactly that much.
    function _pay(address to, uint256 amount) internal {
        uint256 before = _balance();
        _callToken(abi.encodeCall(ITRC20.transfer, (to, amount)));
        require(_balance() + amount == before, "pool: token payment failed");
    }

    /// `token.balanceOf(address(this))` through a plain `staticcall`: a token revert is passed
    /// on, and an answer shorter than a word reverts, as Solidity's call would; its code-size
    /// check and ABI round trip cost more and add nothing for a token that is a contract.
    function _balance() internal view returns (uint256 amount) {
        address t = address(token);
        bytes4 selector = ITRC20.balanceOf.selector;
        assembly ("memory-safe") {
            // Scratch space: the selector and this address, 36 bytes from 0.
            mstore(0, selector)
            mstore(4, address())
            if iszero(staticcall(gas(), t, 0, 36, 0, 32)) {
                returndatacopy(0, 0, returndatasize())
                revert(0, returndatasize())
            }
            if lt(returndatasize(), 32) {
                revert(0, 0)
            }
            amount := mload(0)
        }
    }

    /// Calls the token, ignoring what it returns and passing on its revert reason.
    function _callToken(bytes memory data) internal {
        (bool ok, bytes memory reason) = address(token).call(data);
        if (!ok) {
            if (reason.length == 0) revert("pool: token call failed");
            assembly ("memory-safe") {
                revert(add(reason, 32), mload(reason))
            }
        }
    }
}
