// SPDX-License-Identifier: MIT
pragma solidity 0.8.30;

/// A Groth16 verifier for the Withdraw(20) circuit (`Groth16Verifier`).
interface IVerifier {
    /// @param proof `[A.x, A.y, B.x.c1, B.x.c0, B.y.c1, B.y.c0, C.x, C.y]`.
    /// @param input `[publicHash]`: Poseidon(Poseidon(root, nullifierHash), extDataHash).
    function verifyProof(uint256[8] calldata proof, uint256[1] calldata input)
        external
        view
        returns (bool);
}
