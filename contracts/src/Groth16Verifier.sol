// SPDX-License-Identifier: MIT
pragma solidity 0.8.30;

/// @title Groth16 verifier over BN254 for tronpool's Withdraw(20) circuit.
/// @notice The verifying key is given to the constructor (`zk::keys::VerifierArgs`), so one
/// artifact serves the insecure devnet key and a ceremony's key alike. It is kept in
/// immutables: read from code, not storage, so verification costs the same whichever key.
/// The circuit has one public input (a hash of root, nullifier hash, recipient, relayer, fee
/// and refund): one ecMul and one ecAdd besides the pairing, which is what keeps a
/// verification inside TRON's 80 ms of CPU per call.
/// @dev Never reverts on bad input: a public input at or above r, a proof word at or above q,
/// or a point the precompiles reject all return false. Every precompile call gets exactly the
/// gas it costs (EIP-1108 prices, which TRON charges too), so a malformed proof cannot make a
/// failing precompile swallow the whole energy limit.
contract Groth16Verifier {
    /// The BN254 scalar field: public inputs live here.
    uint256 internal constant R =
        21888242871839275222246405745257275088548364400416034343698204186575808495617;
    /// The BN254 base field: proof and key coordinates live here.
    uint256 internal constant Q =
        21888242871839275222246405745257275088696311157297823662689037894645226208583;

    uint256 internal constant ADD_GAS = 150;
    uint256 internal constant MUL_GAS = 6000;
    uint256 internal constant PAIRING_GAS = 45000 + 4 * 34000;

    uint256 public constant PUBLIC_INPUTS = 1;

    /// The generator of BN254's G2 (EIP-197), limbs in the precompile's order: what δ and γ are
    /// in a snarkjs key nobody contributed to.
    uint256 internal constant G2_X1 =
        11559732032986387107991004021392285783925812861821192530917403151452391805634;
    uint256 internal constant G2_X0 =
        10857046999023057135944570762232829481370756359578518086990519993285655852781;
    uint256 internal constant G2_Y1 =
        4082367875863433681332203403145435568316851327593401208105741076214120093531;
    uint256 internal constant G2_Y0 =
        8495653923123431417604973247489272438418190587263600148770280649306958101930;

    uint256 internal immutable alphaX;
    uint256 internal immutable alphaY;
    // G2 limbs in the precompile's order: imaginary part (c1) first.
    uint256 internal immutable betaX1;
    uint256 internal immutable betaX0;
    uint256 internal immutable betaY1;
    uint256 internal immutable betaY0;
    uint256 internal immutable gammaX1;
    uint256 internal immutable gammaX0;
    uint256 internal immutable gammaY1;
    uint256 internal immutable gammaY0;
    uint256 internal immutable deltaX1;
    uint256 internal immutable deltaX0;
    uint256 internal immutable deltaY1;
    uint256 internal immutable deltaY0;
    uint256 internal immutable ic0X;
    uint256 internal immutable ic0Y;
    uint256 internal immutable ic1X;
    uint256 internal immutable ic1Y;

    constructor(
        uint256[2] memory alpha1,
        uint256[2][2] memory beta2,
        uint256[2][2] memory gamma2,
        uint256[2][2] memory delta2,
        uint256[2][] memory ic
    ) {
        require(ic.length == PUBLIC_INPUTS + 1, "verifier: key is not for 1 public input");
        // A key whose δ is γ, or the generator, is one nobody contributed to (snarkjs's
        // `groth16 setup` output): with it, anyone holding one valid proof can forge others.
        require(
            !(delta2[0][0] == gamma2[0][0] && delta2[0][1] == gamma2[0][1]
                    && delta2[1][0] == gamma2[1][0] && delta2[1][1] == gamma2[1][1]),
            "verifier: delta equals gamma"
        );
        require(
            !(delta2[0][0] == G2_X1 && delta2[0][1] == G2_X0 && delta2[1][0] == G2_Y1
                    && delta2[1][1] == G2_Y0),
            "verifier: delta is the generator"
        );
        alphaX = alpha1[0];
        alphaY = alpha1[1];
        betaX1 = beta2[0][0];
        betaX0 = beta2[0][1];
        betaY1 = beta2[1][0];
        betaY0 = beta2[1][1];
        gammaX1 = gamma2[0][0];
        gammaX0 = gamma2[0][1];
        gammaY1 = gamma2[1][0];
        gammaY0 = gamma2[1][1];
        deltaX1 = delta2[0][0];
        deltaX0 = delta2[0][1];
        deltaY1 = delta2[1][0];
        deltaY0 = delta2[1][1];
        ic0X = ic[0][0];
        ic0Y = ic[0][1];
        ic1X = ic[1][0];
        ic1Y = ic[1][1];
    }

    /// @param proof `[A.x, A.y, B.x.c1, B.x.c0, B.y.c1, B.y.c0, C.x, C.y]` (Tornado's order).
    /// @param input `[publicHash]`.
    function verifyProof(uint256[8] calldata proof, uint256[1] calldata input)
        external
        view
        returns (bool)
    {
        if (input[0] >= R) return false;
        for (uint256 i = 0; i < 8; i++) {
            if (proof[i] >= Q) return false;
        }

        // vk_x = IC0 + input·IC1
        (uint256 x, uint256 y, bool ok) = _mulAdd(ic0X, ic0Y, ic1X, ic1Y, input[0]);
        if (!ok) return false;

        // e(-A, B) · e(α, β) · e(vk_x, γ) · e(C, δ) == 1
        uint256[24] memory p;
        p[0] = proof[0];
        p[1] = proof[1] == 0 ? 0 : Q - proof[1];
        p[2] = proof[2];
        p[3] = proof[3];
        p[4] = proof[4];
        p[5] = proof[5];
        p[6] = alphaX;
        p[7] = alphaY;
        p[8] = betaX1;
        p[9] = betaX0;
        p[10] = betaY1;
        p[11] = betaY0;
        p[12] = x;
        p[13] = y;
        p[14] = gammaX1;
        p[15] = gammaX0;
        p[16] = gammaY1;
        p[17] = gammaY0;
        p[18] = proof[6];
        p[19] = proof[7];
        p[20] = deltaX1;
        p[21] = deltaX0;
        p[22] = deltaY1;
        p[23] = deltaY0;

        uint256[1] memory out;
        bool success;
        assembly ("memory-safe") {
            success := staticcall(PAIRING_GAS, 0x08, p, 768, out, 32)
        }
        return success && out[0] == 1;
    }

    /// (x, y) + s·(px, py), or ok = false when a precompile refuses its input.
    function _mulAdd(uint256 x, uint256 y, uint256 px, uint256 py, uint256 s)
        internal
        view
        returns (uint256, uint256, bool)
    {
        uint256[4] memory buf;
        bool ok;
        assembly ("memory-safe") {
            mstore(buf, px)
            mstore(add(buf, 32), py)
            mstore(add(buf, 64), s)
            ok := staticcall(MUL_GAS, 0x07, buf, 96, add(buf, 64), 64)
            if ok {
                mstore(buf, x)
                mstore(add(buf, 32), y)
                ok := staticcall(ADD_GAS, 0x06, buf, 128, buf, 64)
            }
        }
        return (buf[0], buf[1], ok);
    }
}
