//! `Withdraw(20)`: "I know the nullifier and secret of some leaf under this root, and this is
//! its nullifier hash", binding recipient, relayer, fee and refund so nobody who sees the proof
//! can redirect the money or raise the fee.
//!
//! Public inputs, in this order (the verifier contract's): `root, nullifierHash, recipient,
//! relayer, fee, refund`. Private: `nullifier, secret`, and the path (sibling per level and the
//! bit saying whether our node is the right child).

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

/// The six public inputs, in the verifier's order.
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
    pub fn to_vec(&self) -> Vec<Fr> {
        vec![
            self.root,
            self.nullifier_hash,
            self.recipient,
            self.relayer,
            self.fee,
            self.refund,
        ]
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
        // Allocation order is the public-input order.
        let root = FpVar::new_input(cs.clone(), || Ok(p.root))?;
        let nullifier_hash = FpVar::new_input(cs.clone(), || Ok(p.nullifier_hash))?;
        let bound = [p.recipient, p.relayer, p.fee, p.refund]
            .into_iter()
            .map(|v| FpVar::new_input(cs.clone(), || Ok(v)))
            .collect::<Result<Vec<_>, _>>()?;

        let nullifier = range_checked_witness(&cs, self.nullifier, SECRET_BITS)?;
        let secret = range_checked_witness(&cs, self.secret, SECRET_BITS)?;
        gadget::hash1(&nullifier)?.enforce_equal(&nullifier_hash)?;

        let mut node = gadget::hash2(&nullifier, &secret)?;
        for (level, sibling) in self.siblings.iter().enumerate() {
            let is_right = Boolean::new_witness(cs.clone(), || Ok(self.index >> level & 1 == 1))?;
            let sibling = FpVar::new_witness(cs.clone(), || Ok(*sibling))?;
            let left = is_right.select(&sibling, &node)?;
            let right = is_right.select(&node, &sibling)?;
            node = gadget::hash2(&left, &right)?;
        }
        node.enforce_equal(&root)?;

        // Recipient, relayer, fee and refund take part in no other constraint; squaring them
        // keeps each in the constraint system (as Tornado does), so no optimiser can drop
        // them and the proof stays bound to their values.
        for input in &bound {
            let _square = input.square()?;
        }
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
        // Tornado's shape with Poseidon: 213 + 240 + 20·(240 + 1 booleanity + 2 selects)
        // + 4 squares + 2 equalities = 5,319; plus the 248-bit range checks (one booleanity
        // constraint per bit and one equality per value).
        assert_eq!(cs.num_instance_variables(), 7);
        assert_eq!(
            cs.num_constraints(),
            213 + 240 + DEPTH * 243 + 4 + 2 + 2 * (SECRET_BITS + 1)
        );
    }
}
