//! Poseidon as R1CS constraints, round for round the permutation of [`super::reference`]
//! (light-poseidon's constants, output `state[0]`). arkworks' own Poseidon sponge squeezes
//! `state[1]` and would not match circomlib, hence this gadget.
//!
//! Cost: each S-box `x^5` is three multiplications (`x²`, `x⁴`, `x⁴·x`); round constants and
//! the MDS matrix are linear and free. The first round's capacity lane is a constant, so t=3
//! costs 240 constraints and t=2 costs 213, as circom `--O2` compiles them.

use std::sync::OnceLock;

use ark_r1cs_std::fields::fp::FpVar;
use ark_r1cs_std::prelude::*;
use ark_relations::gr1cs::SynthesisError;
use light_poseidon::PoseidonParameters;

use super::reference;
use crate::Fr;

fn parameters(inputs: usize) -> &'static PoseidonParameters<Fr> {
    static ONE: OnceLock<PoseidonParameters<Fr>> = OnceLock::new();
    static TWO: OnceLock<PoseidonParameters<Fr>> = OnceLock::new();
    static FOUR: OnceLock<PoseidonParameters<Fr>> = OnceLock::new();
    match inputs {
        1 => ONE.get_or_init(|| reference::parameters(1)),
        2 => TWO.get_or_init(|| reference::parameters(2)),
        4 => FOUR.get_or_init(|| reference::parameters(4)),
        _ => unreachable!("tronpool hashes one, two or four inputs"),
    }
}

fn sbox(x: &FpVar<Fr>) -> Result<FpVar<Fr>, SynthesisError> {
    let x2 = x.square()?;
    let x4 = x2.square()?;
    Ok(x4 * x)
}

fn hash(inputs: &[FpVar<Fr>]) -> Result<FpVar<Fr>, SynthesisError> {
    let params = parameters(inputs.len());
    let width = params.width;
    let mut state: Vec<FpVar<Fr>> = std::iter::once(FpVar::zero())
        .chain(inputs.iter().cloned())
        .collect();
    let half = params.full_rounds / 2;
    let rounds = params.full_rounds + params.partial_rounds;
    for round in 0..rounds {
        for (i, lane) in state.iter_mut().enumerate() {
            *lane += params.ark[round * width + i];
        }
        let full = round < half || round >= half + params.partial_rounds;
        if full {
            for lane in state.iter_mut() {
                *lane = sbox(lane)?;
            }
        } else {
            state[0] = sbox(&state[0])?;
        }
        state = (0..width)
            .map(|i| {
                state
                    .iter()
                    .zip(&params.mds[i])
                    .fold(FpVar::zero(), |acc, (lane, m)| acc + lane * *m)
            })
            .collect();
    }
    Ok(state.swap_remove(0))
}

/// Poseidon of one input (t = 2), in the circuit.
pub fn hash1(a: &FpVar<Fr>) -> Result<FpVar<Fr>, SynthesisError> {
    hash(std::slice::from_ref(a))
}

/// Poseidon of two inputs (t = 3), in the circuit.
pub fn hash2(a: &FpVar<Fr>, b: &FpVar<Fr>) -> Result<FpVar<Fr>, SynthesisError> {
    hash(&[a.clone(), b.clone()])
}

/// Poseidon of four inputs (t = 5), in the circuit.
pub fn hash4(inputs: [&FpVar<Fr>; 4]) -> Result<FpVar<Fr>, SynthesisError> {
    hash(&inputs.map(Clone::clone))
}

#[cfg(test)]
mod tests {
    use super::*;
    use ark_relations::gr1cs::ConstraintSystem;
    use ark_std::UniformRand;
    use rand_core::SeedableRng;

    #[test]
    fn matches_native_and_costs_what_circom_does() {
        let mut rng = rand_chacha::ChaCha20Rng::seed_from_u64(7);
        for _ in 0..4 {
            let (a, b) = (Fr::rand(&mut rng), Fr::rand(&mut rng));

            let cs = ConstraintSystem::<Fr>::new_ref();
            let av = FpVar::new_witness(cs.clone(), || Ok(a)).unwrap();
            let bv = FpVar::new_witness(cs.clone(), || Ok(b)).unwrap();
            let h2 = hash2(&av, &bv).unwrap();
            assert_eq!(h2.value().unwrap(), reference::hash(&[a, b]));
            assert_eq!(cs.num_constraints(), 240);
            assert!(cs.is_satisfied().unwrap());

            let cs = ConstraintSystem::<Fr>::new_ref();
            let av = FpVar::new_witness(cs.clone(), || Ok(a)).unwrap();
            let h1 = hash1(&av).unwrap();
            assert_eq!(h1.value().unwrap(), reference::hash(&[a]));
            assert_eq!(cs.num_constraints(), 213);
            assert!(cs.is_satisfied().unwrap());

            // t = 5: 8 full rounds of 5 S-boxes and 60 partial of one, 3 constraints each,
            // less the first round's constant capacity lane.
            let (c, d) = (Fr::rand(&mut rng), Fr::rand(&mut rng));
            let cs = ConstraintSystem::<Fr>::new_ref();
            let vars = [a, b, c, d].map(|x| FpVar::new_witness(cs.clone(), || Ok(x)).unwrap());
            let h4 = hash4([&vars[0], &vars[1], &vars[2], &vars[3]]).unwrap();
            assert_eq!(h4.value().unwrap(), reference::hash(&[a, b, c, d]));
            assert_eq!(h4.value().unwrap(), super::super::hash4(a, b, c, d));
            assert_eq!(cs.num_constraints(), (8 * 5 + 60 - 1) * 3);
            assert!(cs.is_satisfied().unwrap());
        }
    }
}
