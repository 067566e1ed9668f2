//! `Withdraw(20)`: "I know the nullifier and secret of some leaf under this root, and this is
//! its nullifier hash", binding recipient, relayer, fee and refund so nobody who sees the proof
//! can redirect the money or raise the fee.
//!
//! The proof has **one public input**, a hash of everything the pool checks
//! ([`PublicInputs::public_hash`]):
//!
//! ```text
//! extDataHash = keccak256(abi.encode(recipient, relayer, fee, refund)) mod r
//! publicHash  = Poseidon(Poseidon(root, nullifierHash), extDataHash)
//! ```
//!
//! The pool computes both from its call's arguments (keccak is native and cheap on TRON; the
//! two Poseidon calls are its tree's hasher), and the circuit proves that the root its path
//! leads to, the hash of its nullifier and some `extDataHash` hash to the public input. A
//! Groth16 verifier costs one elliptic-curve multiplication and addition per public input
//! besides its pairing; on TRON, where java-tron runs those in slow Java and a call ends
//! past 80 ms of CPU, six public inputs left no margin and one does.
//!
//! Private: `nullifier, secret`, the path (sibling per level and the bit saying whether our
//! node is the right child), and `extDataHash`.

use alloy_primitives::{U256, keccak256};
use ark_ff::{BigInteger, PrimeField};
use ark_r1cs_std::fields::fp::FpVar;
use ark_r1cs_std::prelude::*;
use ark_relations::gr1cs::{ConstraintSynthesizer, ConstraintSystemRef, SynthesisError};

use crate::Fr;
use crate::poseidon::gadget;

/// The tree depth the circuit proves membership for: the tree's.
pub use crate::tree::DEPTH;

/// Notes draw nullifier and secret from 31 random bytes; the circuit holds them to that.
pub const SECRET_BITS: usize = 248;

/// What a withdrawal proves, as the pool's `withdraw` arguments carry it. The proof's one
/// public input is their [`public_hash`](PublicInputs::public_hash).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub struct PublicInputs {
    pub root: Fr,
    pub nullifier_hash: Fr,
    /// The recipient's 20-byte TVM address as a number.
    pub recipient: Fr,
    /// The relayer's 20-byte TVM address as a number (zero without a relayer).
    pub relayer: Fr,
    /// Paid to the relayer out of the denomination, in token base units.
    pub fee: Fr,
    /// TRX (sun) the relayer forwards to the recipient.
    pub refund: Fr,
}

impl PublicInputs {
    /// `keccak256(abi.encode(recipient, relayer, fee, refund)) mod r`, as the pool computes it
    /// from its arguments (addresses and amounts each one 32-byte word).
    pub fn ext_data_hash(&self) -> Fr {
        let mut encoded = [0u8; 128];
        for (word, value) in
            encoded
                .chunks_exact_mut(32)
                .zip([self.recipient, self.relayer, self.fee, self.refund])
        {
            word.copy_from_slice(&crate::field::to_be_bytes(&value));
        }
        let digest = U256::from_be_bytes(keccak256(encoded).0);
        Fr::from_be_bytes_mod_order(&digest.to_be_bytes::<32>())
    }

    /// `Poseidon(Poseidon(root, nullifierHash), extDataHash)`: the proof's public input.
    pub fn public_hash(&self) -> Fr {
        let inner = crate::poseidon::hash2(self.root, self.nullifier_hash);
        crate::poseidon::hash2(inner, self.ext_data_hash())
    }

    /// The verifier's public inputs: the one hash.
    pub fn instance(&self) -> Vec<Fr> {
        vec![self.public_hash()]
    }
}

/// Everything the prover knows.
#[derive(Clone)]
pub struct WithdrawCircuit {
    pub public: PublicInputs,
    pub nullifier: Fr,
    pub secret: Fr,
    /// The sibling at each level, leaf level first.
    pub siblings: [Fr; DEPTH],
    /// Bit `i` set: at level `i` our node is the right child.
    pub index: u32,
}

impl WithdrawCircuit {
    /// A circuit with all-zero values: the shape the setup needs.
    pub fn blank() -> Self {
        WithdrawCircuit {
            public: PublicInputs::default(),
            nullifier: Fr::from(0u64),
            secret: Fr::from(0u64),
            siblings: [Fr::from(0u64); DEPTH],
            index: 0,
        }
    }
}

impl std::fmt::Debug for WithdrawCircuit {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("WithdrawCircuit")
            .field("public", &self.public)
            .field("index", &self.index)
            .finish_non_exhaustive()
    }
}

/// Allocates `value` as a witness and constrains it to `bits` bits: `bits` boolean witnesses
/// whose weighted sum is the value (one booleanity constraint each, the sum is linear).
fn range_checked_witness(
    cs: &ConstraintSystemRef<Fr>,
    value: Fr,
    bits: usize,
) -> Result<FpVar<Fr>, SynthesisError> {
    let var = FpVar::new_witness(cs.clone(), || Ok(value))?;
    let le_bits = value.into_bigint().to_bits_le();
    let bit_vars = (0..bits)
        .map(|i| Boolean::new_witness(cs.clone(), || Ok(le_bits[i])))
        .collect::<Result<Vec<_>, _>>()?;
    Boolean::le_bits_to_fp(&bit_vars)?.enforce_equal(&var)?;
    Ok(var)
}

impl ConstraintSynthesizer<Fr> for WithdrawCircuit {
    fn generate_constraints(self, cs: ConstraintSystemRef<Fr>) -> Result<(), SynthesisError> {
        let p = self.public;
        let public_hash = FpVar::new_input(cs.clone(), || Ok(p.public_hash()))?;
        // Any value: the public hash binds it to what the pool computes from its arguments.
        let ext_data_hash = FpVar::new_witness(cs.clone(), || Ok(p.ext_data_hash()))?;

        let nullifier = range_checked_witness(&cs, self.nullifier, SECRET_BITS)?;
        let secret = range_checked_witness(&cs, self.secret, SECRET_BITS)?;
        let nullifier_hash = gadget::hash1(&nullifier)?;

        let mut node = gadget::hash2(&nullifier, &secret)?;
        for (level, sibling) in self.siblings.iter().enumerate() {
            let is_right = Boolean::new_witness(cs.clone(), || Ok(self.index >> level & 1 == 1))?;
            let sibling = FpVar::new_witness(cs.clone(), || Ok(*sibling))?;
            let left = is_right.select(&sibling, &node)?;
            let right = is_right.select(&node, &sibling)?;
            node = gadget::hash2(&left, &right)?;
        }
        // `node` is the root the path leads to.
        let bound = gadget::hash2(&gadget::hash2(&node, &nullifier_hash)?, &ext_data_hash)?;
        bound.enforce_equal(&public_hash)?;
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use ark_relations::gr1cs::ConstraintSystem;

    #[test]
    fn constraint_count() {
        let cs = ConstraintSystem::<Fr>::new_ref();
        WithdrawCircuit::blank()
            .generate_constraints(cs.clone())
            .unwrap();
        assert_eq!(cs.num_instance_variables(), 2);
        // Tornado's shape with Poseidon, 213 + 240 + 20·(240 + 1 booleanity + 2 selects), with
        // the two binding hashes (2 · 240) and one equality instead of Tornado's four squares
        // and two equalities; plus the 248-bit range checks (one booleanity constraint per bit
        // and one equality per value).
        assert_eq!(
            cs.num_constraints(),
            213 + 240 + DEPTH * 243 + 2 * 240 + 1 + 2 * (SECRET_BITS + 1)
        );
    }
}
