//! Proving `BatchInsert(5, 20)` ([`crate::batch`]): the development keys, the setup a key
//! came from, and the prover. Kept apart from the circuit so that the circuit, which the
//! zkey reader and [`crate::circuits`] need, depends on no key.

use std::sync::OnceLock;

use ark_bn254::Bn254;
use ark_groth16::{Groth16, Proof, ProvingKey, VerifyingKey};
use ark_snark::SNARK;
use rand_core::{CryptoRng, RngCore};

use crate::Fr;
use crate::batch::{
    BATCH_LEVELS, BatchCircuit, BatchError, INSECURE_DEV_SEED, INSECURE_DEV_VERIFYING_KEY_HEX,
    constraint_matrices, constraint_system,
};
use crate::circuits::Circuit;
use crate::keys::{KeyError, Keys, Setup};
use crate::r1cs;
use crate::tree::DEPTH;

/// [`crate::batch::INSECURE_DEV_VERIFYING_KEY_HEX`] read back.
pub fn insecure_dev_verifying_key() -> VerifyingKey<Bn254> {
    let bytes = hex::decode(INSECURE_DEV_VERIFYING_KEY_HEX).expect("the pinned key is hex");
    crate::keys::read_verifying_key(&bytes).expect("the pinned key is a verifying key")
}

/// The batch circuit's deterministic development keys, made once per process (a few seconds:
/// the setup runs on a 2^15 domain). Insecure: anyone can recompute their toxic waste.
pub fn insecure_dev_keys() -> &'static Keys {
    static KEYS: OnceLock<Keys> = OnceLock::new();
    KEYS.get_or_init(|| {
        let mut rng = crate::keys::insecure_dev_rng(INSECURE_DEV_SEED);
        let (pk, _) =
            Groth16::<Bn254>::circuit_specific_setup(BatchCircuit::blank(BATCH_LEVELS), &mut rng)
                .expect("the blank batch circuit synthesizes");
        Keys::for_circuit(pk, Circuit::Batch).expect("the setup made keys for this circuit")
    })
}

/// Which setup made `pk` (`keys::setup_for`), once its sizes are checked to be the default
/// batch circuit's.
pub fn setup_of(pk: &ProvingKey<Bn254>) -> Result<Setup, BatchError> {
    crate::keys::setup_for(pk, constraint_system()).map_err(|e| match e {
        KeyError::WrongCircuit(what) => BatchError::WrongKey(what),
        other => BatchError::WrongKey(other.to_string()),
    })
}

/// Proves `circuit` (a default-size batch) with `pk`, from arkworks' setup or a snarkjs
/// ceremony. The assignment is checked against the constraint system first, so a false batch
/// gets an error naming the constraint rather than a proof that fails on chain; the matrices
/// are made once per process, so a proof only computes the assignment; the finished proof is
/// verified before it is returned.
pub fn prove<R: RngCore + CryptoRng>(
    pk: &ProvingKey<Bn254>,
    circuit: &BatchCircuit,
    rng: &mut R,
) -> Result<Proof<Bn254>, BatchError> {
    prove_randomized(pk, circuit, crate::proof::randomness(rng))
}

/// [`prove`] with its randomness drawn: not generic, so it is compiled here, optimized,
/// whoever calls [`prove`] (see `proof::prove`).
fn prove_randomized(
    pk: &ProvingKey<Bn254>,
    circuit: &BatchCircuit,
    randomness: (Fr, Fr),
) -> Result<Proof<Bn254>, BatchError> {
    if circuit.levels != BATCH_LEVELS {
        return Err(BatchError::BadLevels {
            levels: circuit.levels,
            depth: DEPTH,
        });
    }
    let setup = setup_of(pk)?;
    let system = constraint_system();
    let z =
        r1cs::full_assignment(circuit.clone()).map_err(|e| BatchError::Prover(e.to_string()))?;
    if let Some(row) = system.first_unsatisfied(&z) {
        return Err(BatchError::Unsatisfied(row));
    }
    let proof =
        crate::proof::prove_assignment(pk, setup, (system, constraint_matrices()), &z, randomness)
            .map_err(|e| BatchError::Prover(e.to_string()))?;
    let prepared = ark_groth16::prepare_verifying_key(&pk.vk);
    let verified =
        Groth16::<Bn254>::verify_with_processed_vk(&prepared, &circuit.public.instance(), &proof)
            .unwrap_or(false);
    if !verified {
        return Err(BatchError::SelfCheckFailed);
    }
    Ok(proof)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::batch::INSECURE_DEV_VK_SHA256;

    #[test]
    fn the_development_keys_are_the_pinned_ones() {
        let dev = insecure_dev_keys();
        let keys = &dev.proving;
        assert_eq!(
            crate::keys::verifying_key_sha256(&keys.vk),
            INSECURE_DEV_VK_SHA256
        );
        assert_eq!(setup_of(keys).unwrap(), Setup::Arkworks);
        assert!(dev.is_insecure_dev());
        assert_eq!(dev.circuit(), Circuit::Batch);
        // Not the withdraw circuit's.
        assert_ne!(INSECURE_DEV_VK_SHA256, crate::keys::INSECURE_DEV_VK_SHA256);
        let bytes = crate::keys::verifying_key_bytes(&keys.vk);
        assert_eq!(hex::encode(bytes), INSECURE_DEV_VERIFYING_KEY_HEX);
        assert_eq!(insecure_dev_verifying_key(), keys.vk);
    }
}
