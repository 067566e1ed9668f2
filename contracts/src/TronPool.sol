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
/// A relayer's fees stay in the pool, credited to it, until it collects them with one transfer
/// (`collectFees`): a relayed withdrawal makes one USDT transfer, not two.
/// @dev Token movements are judged by the pool's balance change, never by return values:
/// TRON's USDT returns false from a successful `transfer`. Reverts from the token (a paused
/// token, a blacklisted recipient) are passed on with their reason, and a reverted withdrawal
/// leaves the note unspent.
///
/// Compiled for Shanghai, so it runs on TRON networks with or without the Cancun opcodes
/// (`getAllowTvmCancun`), and without a reentrancy guard: transient storage needs Cancun, and
/// a storage lock would cost 10,000 energy a call on TRON, which refunds nothing. Every
/// function changes its state before any call that is not the token or the hasher, so a
/// reentrant call finds the note spent and the credit taken; the token is the pool's own,
/// fixed at deployment.
contract TronPool is MerkleTreeWithHistory {
    IVerifier public immutable verifier;
    ITRC20 public immutable token;
    /// In token base units (USDT: 6 decimals).
    uint256 public immutable denomination;

    /// The energy a refund's call hands the recipient, beside the 2,300 every value-bearing
    /// call adds free. Without a cap the call would forward all the energy left: pools are
    /// version-0 contracts, in which TVM keeps nothing back (java-tron
    /// `actuator/.../vm/program/Program.java` `getCallEnergy` applies the 63/64 rule only to
    /// version-1 contracts and otherwise gives `min(requested, left)`; `OperationActions.java`
    /// `callAction` adds the stipend), so a recipient contract that loops would burn the
    /// relayer's whole fee limit and make the withdrawal fail. With the cap the recipient gets
    /// 22,300 at most: enough for a plain account (which uses none), or for a `receive()` that
    /// emits an event (375 + 375 a topic + 8 a byte of data) or writes one storage slot
    /// (20,000 for an empty one on TRON; a bare write measured 20,004 on the devnet, Solidity's
    /// dispatch adds a few hundred). A recipient that needs more, reverts or spins fails in its
    /// own frame: the refund goes back to the relayer, and the withdrawal and the fee stand.
    /// Such a recipient costs a relay a few thousand energy more than a fresh one (its 20,000
    /// and the refund's return call, less the 25,000 a new account costs), within the
    /// relayer's margin and ceiling.
    uint256 public constant REFUND_ENERGY = 20_000;

    mapping(bytes32 => bool) public nullifierHashes;
    mapping(bytes32 => bool) public commitments;
    /// Fees earned by each relayer and not collected yet, plus the one base unit
    /// `collectFees` leaves behind (see there).
    mapping(address => uint256) public relayerFees;

    event Deposit(bytes32 indexed commitment, uint32 leafIndex, uint256 timestamp);
    event Withdrawal(address to, bytes32 nullifierHash, address indexed relayer, uint256 fee);
    event FeesCollected(address indexed relayer, uint256 amount);

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
    function deposit(bytes32 commitment) external {
        require(uint256(commitment) < FIELD_SIZE, "pool: commitment is not a field element");
        require(!commitments[commitment], "pool: commitment already deposited");
        uint32 leafIndex = _insert(commitment);
        commitments[commitment] = true;

        uint256 before = _balance();
        _callToken(abi.encodeCall(ITRC20.transferFrom, (msg.sender, address(this), denomination)));
        require(_balance() == before + denomination, "pool: token did not arrive in full");
        emit Deposit(commitment, leafIndex, block.timestamp);
    }

    /// Pays `denomination - fee` to `recipient` and credits `fee` to `relayer`, against a proof
    /// of a deposit under `root` whose nullifier hashes to `nullifierHash`. A relayer sends
    /// `refund` TRX (sun) along, which goes to the recipient for its first energy and
    /// bandwidth, with at most `REFUND_ENERGY` (+ the 2,300 stipend) to spend on receiving it.
    /// @param proof 256 bytes: `abi.encode(uint256[8])` in `IVerifier`'s order, for the public
    /// input `Poseidon(Poseidon(root, nullifierHash), extDataHash)` with `extDataHash` =
    /// `keccak256(abi.encode(recipient, relayer, fee, refund)) mod FIELD_SIZE`.
    function withdraw(
        bytes calldata proof,
        bytes32 root,
        bytes32 nullifierHash,
        address payable recipient,
        address payable relayer,
        uint256 fee,
        uint256 refund
    ) external payable {
        // Everything that needs no proof first: a bad request costs little.
        require(fee <= denomination, "pool: fee exceeds denomination");
        require(recipient != address(0), "pool: recipient is the zero address");
        require(fee == 0 || relayer != address(0), "pool: a fee needs a relayer");
        require(msg.value == refund, "pool: TRX sent must equal the refund");
        // nullifierHash + r would be a second name for the same note.
        require(uint256(nullifierHash) < FIELD_SIZE, "pool: nullifier hash is not a field element");
        require(!nullifierHashes[nullifierHash], "pool: note already spent");
        require(isKnownRoot(root), "pool: unknown root");
        require(proof.length == 256, "pool: proof must be 256 bytes");
        uint256[8] memory words = abi.decode(proof, (uint256[8]));
        uint256 extDataHash =
            uint256(keccak256(abi.encode(recipient, relayer, fee, refund))) % FIELD_SIZE;
        bytes32 publicHash = _hash(_hash(root, nullifierHash), bytes32(extDataHash));
        require(
            verifier.verifyProof(words, [uint256(publicHash)]), "pool: invalid withdraw proof"
        );

        nullifierHashes[nullifierHash] = true;
        if (fee > 0) relayerFees[relayer] += fee;
        _pay(recipient, denomination - fee);
        if (refund > 0) {
            (bool sent,) = recipient.call{value: refund, gas: REFUND_ENERGY}("");
            if (!sent) {
                // A recipient that refuses TRX, or wants more energy than `REFUND_ENERGY`,
                // must not block its own withdrawal: the relayer gets its refund back.
                (sent,) = relayer.call{value: refund}("");
                require(sent, "pool: refund could not be returned");
            }
        }
        emit Withdrawal(recipient, nullifierHash, relayer, fee);
    }

    /// Pays the caller the fees credited to it, in one transfer, and leaves one base unit
    /// behind: on TRON a write into an empty slot costs 20,000 energy and any other 5,000,
    /// with no refund for clearing one, so a credit that never returns to zero keeps every
    /// later relay's credit at 5,000.
    function collectFees() external returns (uint256 amount) {
        uint256 credit = relayerFees[msg.sender];
        require(credit > 1, "pool: no fees to collect");
        amount = credit - 1;
        relayerFees[msg.sender] = 1;
        _pay(msg.sender, amount);
        emit FeesCollected(msg.sender, amount);
    }

    /// Fees `relayer` can collect now.
    function collectableFees(address relayer) external view returns (uint256) {
        uint256 credit = relayerFees[relayer];
        return credit > 1 ? credit - 1 : 0;
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
