// SPDX-License-Identifier: MIT
pragma solidity 0.8.30;

import {QueuedPool} from "./QueuedPool.sol";

/// @title The one door to every queued pool's `insertBatch`.
/// @notice A batch goes through this contract so that its sender pays its energy. On TRON the
/// contract a transaction calls decides who pays for the whole run (java-tron
/// `VMActuator.getTotalEnergyLimitWithFixRatio` reads `consume_user_resource_percent` and
/// `origin_energy_limit` of the called contract only): a pool may be sponsored, so that its
/// depositors and withdrawers spend none of their TRX, but a batch sent to the pool directly
/// would then be paid from the sponsor's stake too, and anyone could send batches of one at
/// ≈ 250k energy each to collect their insertion fees. Deployed with
/// `consume_user_resource_percent = 100` and never sponsored, this contract makes the sender
/// pay every batch in full; pools accept batches from it alone (`QueuedPool.inserter`).
/// @dev Holds nothing and keeps no state: it passes the call on with its own caller as the
/// submitter, the address the proof binds and the insertion fees are credited to.
contract BatchInserter {
    /// Inserts the `count` deposits queued in `pool` from position `start` (the pool's
    /// `nextIndex`), giving `newRoot`; see `QueuedPool.insertBatch`.
    function insertBatch(
        QueuedPool pool,
        bytes calldata proof,
        bytes32 newRoot,
        uint32 start,
        uint32 count
    ) external {
        pool.insertBatch(proof, newRoot, start, count, msg.sender);
    }
}
