// SPDX-License-Identifier: MIT
pragma solidity 0.8.30;

import {IHasher} from "./IHasher.sol";
import {IHasher4} from "./IHasher4.sol";
import {ITRC20} from "./ITRC20.sol";
import {IVerifier} from "./IVerifier.sol";

/// @title A fixed-denomination privacy pool whose deposits queue and whose tree grows by batch
/// proofs: `TronPool` at about a third of a deposit's energy.
/// @notice `deposit` takes `denomination + insertionFee` tokens and appends the commitment to
/// a queue: one Poseidon call extends the queue's hash chain, and the chain's value at the
/// deposit's position goes into a ring. Nothing is hashed into the tree on chain. Anyone
/// inserts queued deposits, up to `BATCH_SIZE` at a time, with a `BatchInsert(5, 20)` proof
/// sent through the `inserter` (see `insertBatch`), and collects their insertion fees with the
/// relayer fees (`collectFees`). A position in the queue is the leaf index the deposit gets,
/// so the tree is the queue's prefix of length `nextIndex`. `withdraw` is `TronPool`'s, against
/// the last `ROOT_HISTORY_SIZE` batch roots.
/// @dev No storage per commitment: a duplicate commitment only makes its second deposit
/// unwithdrawable (one nullifier), which hurts nobody but the depositor who reused a note, and
/// the slot would cost every deposit 20,000 energy on TRON, which refunds nothing.
///
/// Compiled for Shanghai and without a reentrancy guard, like `TronPool`: every function
/// changes its state before any call that is not the token, the hasher or the verifiers.
contract QueuedPool {
    uint256 public constant FIELD_SIZE =
        21888242871839275222246405745257275088548364400416034343698204186575808495617;
    uint32 public constant LEVELS = 20;
    /// The batch circuit's block height and size: a batch inserts at most `BATCH_SIZE`
    /// deposits and never crosses a multiple of it.
    uint32 public constant BATCH_LEVELS = 5;
    uint32 public constant BATCH_SIZE = 32;
    /// Withdrawals may prove against any of the last 100 batch roots.
    uint32 public constant ROOT_HISTORY_SIZE = 100;
    /// Queue hashes are kept for the last `QUEUE_RING` positions: a batch ending anywhere in
    /// them can be proved while later deposits arrive. The ring is filled at deployment, so a
    /// deposit rewrites a word (5,000 energy) instead of filling one (20,000).
    uint32 public constant QUEUE_RING = 128;
    /// See `TronPool.REFUND_ENERGY`.
    uint256 public constant REFUND_ENERGY = 20_000;

    IVerifier public immutable verifier;
    IVerifier public immutable batchVerifier;
    IHasher public immutable hasher;
    /// Poseidon(4), which binds a batch's public values in one call.
    IHasher4 public immutable hasher4;
    ITRC20 public immutable token;
    /// In token base units (USDT: 6 decimals).
    uint256 public immutable denomination;
    /// Token base units each deposit escrows for the batch that inserts it, paid to the
    /// batch's submitter.
    uint256 public immutable insertionFee;
    /// The only contract that may call `insertBatch` (`BatchInserter`).
    address public immutable inserter;

    /// Deposits queued, deposits in the tree, and where the newest root is in the ring: one
    /// word, so a deposit writes it once and a batch once. `live` is set at deployment and
    /// never cleared: it keeps the word non-zero, so the pool's first deposit rewrites it
    /// (5,000 energy) instead of filling it (20,000).
    struct Counters {
        uint32 queued;
        uint32 nextIndex;
        uint32 rootIndex;
        bool live;
    }

    Counters internal counters;
    bytes32[ROOT_HISTORY_SIZE] public roots;
    /// `queueHashes[p % QUEUE_RING]`: the queue chain after position `p`, for the last
    /// `QUEUE_RING` positions.
    bytes32[QUEUE_RING] internal queueHashes;
    /// The chain at the end of block `b` (`b * BATCH_SIZE + BATCH_SIZE - 1`), kept only when the
    /// ring was about to drop it before its block was inserted: the queue may outrun the
    /// batches by any length, and every queued deposit can still be inserted, block by block.
    mapping(uint256 => bytes32) public checkpoints;
    mapping(bytes32 => bool) public nullifierHashes;
    /// Fees earned by each relayer and batch submitter and not collected yet, plus the one
    /// base unit `collectFees` leaves behind.
    mapping(address => uint256) public relayerFees;

    event Deposit(bytes32 indexed commitment, uint32 leafIndex, uint256 timestamp);
    event BatchInserted(uint32 start, uint32 count, bytes32 root, address indexed submitter);
    event Withdrawal(address to, bytes32 nullifierHash, address indexed relayer, uint256 fee);
    event FeesCollected(address indexed relayer, uint256 amount);

    constructor(
        IVerifier verifier_,
        IVerifier batchVerifier_,
        IHasher hasher_,
        IHasher4 hasher4_,
        ITRC20 token_,
        uint256 denomination_,
        uint256 insertionFee_,
        address inserter_
    ) {
        require(denomination_ > 0, "pool: denomination must be positive");
        require(inserter_ != address(0), "pool: no inserter");
        verifier = verifier_;
        batchVerifier = batchVerifier_;
        hasher = hasher_;
        hasher4 = hasher4_;
        token = token_;
        denomination = denomination_;
        insertionFee = insertionFee_;
        inserter = inserter_;
        roots[0] = EMPTY_ROOT;
        counters.live = true;
        for (uint256 i = 0; i < QUEUE_RING; i++) {
            // Any non-zero word: a slot is read only for a position written since.
            queueHashes[i] = bytes32(uint256(1));
        }
    }

    /// Queues `commitment` = Poseidon(nullifier, secret) and takes `denomination +
    /// insertionFee` tokens from the caller (approve first). Its position is its leaf index.
    function deposit(bytes32 commitment) external {
        require(uint256(commitment) < FIELD_SIZE, "pool: commitment is not a field element");
        Counters memory c = counters;
        uint32 position = c.queued;
        require(position < uint32(1) << LEVELS, "pool: the queue is full");
        uint256 slot = position % QUEUE_RING;
        bytes32 previous = position == 0 ? bytes32(0) : queueHashes[(position - 1) % QUEUE_RING];
        if (position >= QUEUE_RING) {
            // The ring drops position `position - QUEUE_RING`: keep it if it ends a block
            // nobody has inserted yet, so that block can still be proved.
            uint256 dropped = position - QUEUE_RING;
            if (dropped >= c.nextIndex && dropped % BATCH_SIZE == BATCH_SIZE - 1) {
                checkpoints[dropped / BATCH_SIZE] = queueHashes[slot];
            }
        }
        queueHashes[slot] = _hash(previous, commitment);
        counters.queued = position + 1;

        uint256 amount = denomination + insertionFee;
        uint256 before = _balance();
        _callToken(abi.encodeCall(ITRC20.transferFrom, (msg.sender, address(this), amount)));
        require(_balance() == before + amount, "pool: token did not arrive in full");
        emit Deposit(commitment, position, block.timestamp);
    }

    /// Inserts the `count` deposits queued from position `start` into the tree, giving
    /// `newRoot`, and credits their insertion fees to `submitter`. Called by `inserter` only,
    /// with its caller as `submitter`.
    /// @param proof 256 bytes: `abi.encode(uint256[8])` in `IVerifier`'s order, for the public
    /// input `Poseidon(oldRoot, newRoot, queueHash, packed)` (four inputs), where `oldRoot` is
    /// the current root, `queueHash` the queue chain after position `start + count - 1`, and
    /// `packed = start + 2^32 count + 2^64 submitter`. One call of the four-input hasher costs
    /// java-tron about as much time as two of the two-input one, where binding the four values
    /// pairwise would take three: the batch's CPU time is the verification's 62.65 ms and
    /// little else, inside TRON's 80 ms even on a producer 25% slower.
    /// @dev Everything that needs no proof is checked first, so a stale or duplicate batch (a
    /// racing batcher's, or a copy from the pending pool) fails for a few thousand energy.
    function insertBatch(
        bytes calldata proof,
        bytes32 newRoot,
        uint32 start,
        uint32 count,
        address submitter
    ) external {
        require(msg.sender == inserter, "pool: batches come through the inserter");
        Counters memory c = counters;
        require(start == c.nextIndex, "pool: the batch does not start at the next leaf");
        require(count > 0 && count <= BATCH_SIZE, "pool: a batch holds 1 to 32 deposits");
        require(uint256(start) + count <= c.queued, "pool: the batch reaches past the queue");
        require(
            start % BATCH_SIZE + count <= BATCH_SIZE, "pool: a batch may not cross a block"
        );
        require(uint256(newRoot) < FIELD_SIZE, "pool: root is not a field element");
        require(proof.length == 256, "pool: proof must be 256 bytes");
        bytes32 chainEnd = _queueHashAt(uint256(start) + count - 1, c.queued);
        uint256 packed = uint256(start) | (uint256(count) << 32) | (uint256(uint160(submitter)) << 64);
        bytes32 publicHash = _hash4(roots[c.rootIndex], newRoot, chainEnd, bytes32(packed));
        uint256[8] memory words = abi.decode(proof, (uint256[8]));
        require(batchVerifier.verifyProof(words, [uint256(publicHash)]), "pool: invalid batch proof");

        uint32 rootIndex = (c.rootIndex + 1) % ROOT_HISTORY_SIZE;
        roots[rootIndex] = newRoot;
        // One write of the word: TRON charges each SSTORE in full.
        counters = Counters(c.queued, start + count, rootIndex, true);
        if (insertionFee > 0) relayerFees[submitter] += insertionFee * count;
        emit BatchInserted(start, count, newRoot, submitter);
    }

    /// `TronPool.withdraw`, against the batch roots.
    function withdraw(
        bytes calldata proof,
        bytes32 root,
        bytes32 nullifierHash,
        address payable recipient,
        address payable relayer,
        uint256 fee,
        uint256 refund
    ) external payable {
        require(fee <= denomination, "pool: fee exceeds denomination");
        require(recipient != address(0), "pool: recipient is the zero address");
        require(fee == 0 || relayer != address(0), "pool: a fee needs a relayer");
        require(msg.value == refund, "pool: TRX sent must equal the refund");
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
                (sent,) = relayer.call{value: refund}("");
                require(sent, "pool: refund could not be returned");
            }
        }
        emit Withdrawal(recipient, nullifierHash, relayer, fee);
    }

    /// `TronPool.collectFees`: relayer fees and insertion fees alike.
    function collectFees() external returns (uint256 amount) {
        uint256 credit = relayerFees[msg.sender];
        require(credit > 1, "pool: no fees to collect");
        amount = credit - 1;
        relayerFees[msg.sender] = 1;
        _pay(msg.sender, amount);
        emit FeesCollected(msg.sender, amount);
    }

    function collectableFees(address relayer) external view returns (uint256) {
        uint256 credit = relayerFees[relayer];
        return credit > 1 ? credit - 1 : 0;
    }

    /// Deposits queued so far: the next deposit's position.
    function queued() external view returns (uint32) {
        return counters.queued;
    }

    /// Deposits in the tree: the next batch's `start`.
    function nextIndex() external view returns (uint32) {
        return counters.nextIndex;
    }

    function getLastRoot() external view returns (bytes32) {
        return roots[counters.rootIndex];
    }

    /// The queue chain after `position`, while the ring or a checkpoint still holds it.
    function queueHash(uint32 position) external view returns (bytes32) {
        uint32 queued_ = counters.queued;
        require(position < queued_, "pool: no such position");
        return _queueHashAt(position, queued_);
    }

    /// The queue chain after `position` (below `queued_`): from the ring while it still holds
    /// the position, else from the checkpoint of the block it ends, the only positions kept
    /// that far back.
    function _queueHashAt(uint256 position, uint256 queued_) internal view returns (bytes32 kept) {
        if (position + QUEUE_RING >= queued_) {
            return queueHashes[position % QUEUE_RING];
        }
        kept = checkpoints[position / BATCH_SIZE];
        require(
            position % BATCH_SIZE == BATCH_SIZE - 1 && kept != bytes32(0),
            "pool: only whole blocks remain to insert this far back"
        );
    }

    function isSpent(bytes32 nullifierHash) external view returns (bool) {
        return nullifierHashes[nullifierHash];
    }

    /// Whether `root` is one of the last `ROOT_HISTORY_SIZE` roots (never zero), newest first.
    function isKnownRoot(bytes32 root) public view returns (bool) {
        if (root == bytes32(0)) return false;
        uint256 current = counters.rootIndex;
        uint256 i = current;
        do {
            if (roots[i] == root) return true;
            i = i == 0 ? ROOT_HISTORY_SIZE - 1 : i - 1;
        } while (i != current);
        return false;
    }

    /// Poseidon(left, right) through a plain `staticcall` (see `MerkleTreeWithHistory._hash`).
    function _hash(bytes32 left, bytes32 right) internal view returns (bytes32 result) {
        address h = address(hasher);
        bytes4 selector = IHasher.poseidon.selector;
        assembly ("memory-safe") {
            let p := mload(0x40)
            mstore(p, selector)
            mstore(add(p, 4), left)
            mstore(add(p, 36), right)
            if iszero(staticcall(gas(), h, p, 68, 0, 32)) {
                revert(0, 0)
            }
            if lt(returndatasize(), 32) {
                revert(0, 0)
            }
            result := mload(0)
        }
    }

    /// Poseidon(a, b, c, d) through a plain `staticcall`; all four are below r (the roots and
    /// queue hashes by the checks made on them, `packed` by its width).
    function _hash4(bytes32 a, bytes32 b, bytes32 c, bytes32 d)
        internal
        view
        returns (bytes32 result)
    {
        address h = address(hasher4);
        bytes4 selector = IHasher4.poseidon.selector;
        assembly ("memory-safe") {
            let p := mload(0x40)
            mstore(p, selector)
            mstore(add(p, 4), a)
            mstore(add(p, 36), b)
            mstore(add(p, 68), c)
            mstore(add(p, 100), d)
            if iszero(staticcall(gas(), h, p, 132, 0, 32)) {
                revert(0, 0)
            }
            if lt(returndatasize(), 32) {
                revert(0, 0)
            }
            result := mload(0)
        }
    }

    function _pay(address to, uint256 amount) internal {
        uint256 before = _balance();
        _callToken(abi.encodeCall(ITRC20.transfer, (to, amount)));
        require(_balance() + amount == before, "pool: token payment failed");
    }

    function _balance() internal view returns (uint256 amount) {
        address t = address(token);
        bytes4 selector = ITRC20.balanceOf.selector;
        assembly ("memory-safe") {
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

    function _callToken(bytes memory data) internal {
        (bool ok, bytes memory reason) = address(token).call(data);
        if (!ok) {
            if (reason.length == 0) revert("pool: token call failed");
            assembly ("memory-safe") {
                revert(add(reason, 32), mload(reason))
            }
        }
    }

    /// The empty tree's root, `zeros(20)` of `MerkleTreeWithHistory` (`zk::tree::empty_root`).
    bytes32 internal constant EMPTY_ROOT =
        0x2cc4d3ec97f54f0a4241bb83db7eac052bf3d4296343d08294c2da46602238f1;
}
