//! The Groth16 prover's arithmetic: the proof for a full assignment, given the randomness.
//!
//! The same proof arkworks' `Groth16::create_proof_with_reduction_and_matrices` makes for the
//! same `r` and `s` (pinned below, for both reductions), in less time on two cores:
//!
//! - **B in G2 beside the QAP.** The G2 multi-scalar multiplication (the costliest, about a
//!   third of a withdrawal proof) needs only the assignment, and the quotient's FFTs leave a
//!   core idle for part of their time; run side by side they take less than one after the
//!   other.
//! - **One MSM for C.** arkworks makes B in G1 with an MSM of its own only to multiply it by
//!   `r` in C. With `B₁ = β₁ + b₀ + Σ zᵢ·bᵢ + s·δ₁`, `r·B₁ − r·s·δ₁` is
//!   `r·(β₁ + b₀) + Σ (r·zᵢ)·bᵢ`: the `r·s·δ₁` cancel, and the B₁ points join the H and L
//!   points in one MSM, whose fixed costs (the bucket sums of each window) are paid once.
//! - **Every MSM is ours** (`crate::msm`): buckets filled with affine additions that share
//!   one inversion a round, where arkworks pays a mixed addition for each point.
//!
//! What each bought is in BENCHMARKS.md ("Proving against snarkjs").

use crate::msm::msm;
use ark_bn254::{Bn254, Fr, G1Affine};
use ark_ec::CurveGroup;
use ark_ff::PrimeField;
use ark_groth16::r1cs_to_qap::R1CSToQAP;
use ark_groth16::{Proof, ProvingKey};
use ark_poly::GeneralEvaluationDomain;
use ark_relations::gr1cs::{Matrix, SynthesisError};
use rayon::prelude::*;

type BigInt = <Fr as PrimeField>::BigInt;

/// The proof for the full assignment `z` (the constant one first, then the instance, then
/// the witness) of a constraint system with `num_inputs` instance variables (the one
/// included) and `num_constraints` rows in `matrices`, randomized by `(r, s)`; the quotient
/// made with the reduction `Q` the key was made for.
pub(crate) fn prove<Q: R1CSToQAP>(
    pk: &ProvingKey<Bn254>,
    (r, s): (Fr, Fr),
    matrices: &[Matrix<Fr>],
    (num_inputs, num_constraints): (usize, usize),
    z: &[Fr],
) -> Result<Proof<Bn254>, SynthesisError> {
    // A key for another circuit: its queries and the assignment differ in length.
    let fits = (1..=z.len()).contains(&num_inputs)
        && [pk.a_query.len(), pk.b_g1_query.len(), pk.b_g2_query.len()] == [z.len(); 3]
        && pk.l_query.len() == z.len() - num_inputs;
    if !fits {
        return Err(SynthesisError::ArityMismatch);
    }
    // Every variable but the constant one, whose points are added as they are.
    let assignment: Vec<BigInt> = z[1..].par_iter().map(|x| x.into_bigint()).collect();
    let (h, b_msm) = rayon::join(
        || {
            Q::witness_map_from_matrices::<Fr, GeneralEvaluationDomain<Fr>>(
                matrices,
                num_inputs,
                num_constraints,
                z,
            )
        },
        || msm(&pk.b_g2_query[1..], &assignment),
    );
    let h = h?;
    let b = pk.vk.beta_g2 + pk.b_g2_query[0] + b_msm + pk.vk.delta_g2 * s;
    let a = pk.vk.alpha_g1 + pk.a_query[0] + msm(&pk.a_query[1..], &assignment) + pk.delta_g1 * r;

    // C = s·A + r·B₁ − r·s·δ₁ + L + H, in one MSM over the H, L and B₁ points (see above).
    // The H query may be one point shorter than the quotient (the libsnark reduction's).
    let h_len = pk.h_query.len().min(h.len());
    let aux = &assignment[num_inputs - 1..];
    let bases: Vec<G1Affine> = [&pk.h_query[..h_len], &pk.l_query, &pk.b_g1_query[1..]].concat();
    let scalars: Vec<BigInt> = h[..h_len]
        .par_iter()
        .map(|x| x.into_bigint())
        .chain(aux.par_iter().copied())
        .chain(z[1..].par_iter().map(|x| (r * x).into_bigint()))
        .collect();
    let c = a * s + (pk.beta_g1 + pk.b_g1_query[0]) * r + msm(&bases, &scalars);

    Ok(Proof {
        a: a.into_affine(),
        b: b.into_affine(),
        c: c.into_affine(),
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::qap::SnarkjsReduction;
    use crate::r1cs;
    use ark_bn254::G1Projective;
    use ark_groth16::Groth16;
    use ark_groth16::r1cs_to_qap::LibsnarkReduction;
    use ark_std::UniformRand;
    use rand_core::SeedableRng;

    /// arkworks' proof for the same assignment and randomness.
    fn arkworks<Q: R1CSToQAP>(
        pk: &ProvingKey<Bn254>,
        (r, s): (Fr, Fr),
        matrices: &[Matrix<Fr>],
        (num_inputs, num_constraints): (usize, usize),
        z: &[Fr],
    ) -> Proof<Bn254> {
        Groth16::<Bn254, Q>::create_proof_with_reduction_and_matrices(
            pk,
            r,
            s,
            matrices,
            num_inputs,
            num_constraints,
            z,
        )
        .unwrap()
    }

    /// What both tests prove with: the development keys, the withdrawal circuit's matrices
    /// and shape, and a satisfying assignment.
    struct Withdrawal {
        keys: &'static crate::keys::Keys,
        matrices: &'static [Matrix<Fr>; 3],
        shape: (usize, usize),
        z: Vec<Fr>,
    }

    fn withdrawal() -> Withdrawal {
        let system = r1cs::withdraw();
        Withdrawal {
            keys: crate::keys::Keys::insecure_dev(),
            matrices: r1cs::withdraw_matrices(),
            shape: (system.num_instance, system.num_constraints()),
            z: r1cs::full_assignment(crate::r1cs::tests::sample_circuit()).unwrap(),
        }
    }

    /// A withdrawal's assignment with the development keys (the libsnark reduction), and the
    /// same under a key whose H query is the snarkjs reduction's: the same bytes as arkworks'
    /// prover for the same `r` and `s`, several of each, and `r = 0` and `s = 0` too.
    #[test]
    fn the_same_proof_as_arkworks_for_the_same_randomness() {
        let mut rng = rand_chacha::ChaCha20Rng::seed_from_u64(36);
        let Withdrawal {
            keys,
            matrices,
            shape,
            z,
        } = withdrawal();
        let mut snarkjs_pk = keys.proving.clone();
        // Any points serve: both provers must combine the same ones the same way.
        snarkjs_pk.h_query = (0..snarkjs_pk.h_query.len() + 1)
            .map(|_| G1Projective::rand(&mut rng).into_affine())
            .collect();
        let mut randomness: Vec<(Fr, Fr)> = (0..3)
            .map(|_| (Fr::rand(&mut rng), Fr::rand(&mut rng)))
            .collect();
        randomness.push((Fr::from(0u64), Fr::rand(&mut rng)));
        randomness.push((Fr::rand(&mut rng), Fr::from(0u64)));
        for rs in randomness {
            let ours = prove::<LibsnarkReduction>(&keys.proving, rs, &matrices[..], shape, &z);
            let theirs = arkworks::<LibsnarkReduction>(&keys.proving, rs, &matrices[..], shape, &z);
            assert_eq!(ours.unwrap(), theirs);
            let ours = prove::<SnarkjsReduction>(&snarkjs_pk, rs, &matrices[..], shape, &z);
            let theirs = arkworks::<SnarkjsReduction>(&snarkjs_pk, rs, &matrices[..], shape, &z);
            assert_eq!(ours.unwrap(), theirs);
        }
    }

    /// A key that does not fit the assignment is an error, not a panic or a wrong proof.
    #[test]
    fn a_key_for_another_circuit_is_refused() {
        let Withdrawal {
            keys,
            matrices,
            shape,
            z,
        } = withdrawal();
        let mut short = keys.proving.clone();
        short.l_query.pop();
        let rs = (Fr::from(1u64), Fr::from(2u64));
        assert!(prove::<LibsnarkReduction>(&short, rs, &matrices[..], shape, &z).is_err());
        assert!(
            prove::<LibsnarkReduction>(&keys.proving, rs, &matrices[..], shape, &z[1..]).is_err()
        );
    }
}
