//! snarkjs's R1CS-to-QAP reduction, so that proofs made in Rust fit keys from a snarkjs
//! ceremony.
//!
//! Both reductions build the same QAP polynomials `A_i, B_i, C_i` (Lagrange interpolation over
//! the domain of size `n`, with one extra A row per instance variable); they differ in how the
//! quotient `h = (A·B − C)/Z` meets the proving key. arkworks' libsnark reduction puts `h` in
//! coefficient form against `τ^i·Z(τ)/δ`. snarkjs never divides: since `A·B − C` has degree
//! below `2n` and vanishes on the domain, it is the sum over the odd points `ω_{2n}^{2i+1}` (the
//! coset of the domain by a primitive `2n`-th root of unity) of its value times the Lagrange
//! basis of the `2n` domain. So snarkjs's H query is `L^{2n}_{2i+1}(τ)/δ` (read straight from
//! the prepared powers of tau), and the prover's scalars are `A·B − C` evaluated on that coset.
//! (Dividing by `Z`, which is `−2` all over that coset, is folded into those points.)

use ark_ff::PrimeField;
use ark_groth16::r1cs_to_qap::{LibsnarkReduction, R1CSToQAP, evaluate_constraint};
use ark_poly::EvaluationDomain;
use ark_relations::gr1cs::{ConstraintSystemRef, Matrix, SynthesisError};
use rayon::prelude::*;

/// The reduction snarkjs's `groth16 setup` and `groth16 prove` use.
pub struct SnarkjsReduction;

/// The shift from the domain of size `n` to its odd coset: a primitive `2n`-th root of unity,
/// the same element snarkjs takes (`Fr.w[log2(n) + 1]`, powers of 5 like arkworks').
fn odd_coset_offset<F: PrimeField>(n: usize) -> Result<F, SynthesisError> {
    F::get_root_of_unity(2 * n as u64).ok_or(SynthesisError::PolynomialDegreeTooLarge)
}

impl R1CSToQAP for SnarkjsReduction {
    /// The QAP polynomials at `t` are the same as libsnark's.
    #[allow(clippy::type_complexity)]
    fn instance_map_with_evaluation<F: PrimeField, D: EvaluationDomain<F>>(
        cs: ConstraintSystemRef<F>,
        t: &F,
    ) -> Result<(Vec<F>, Vec<F>, Vec<F>, F, usize, usize), SynthesisError> {
        LibsnarkReduction::instance_map_with_evaluation::<F, D>(cs, t)
    }

    /// `A·B − C` at the `n` points `ω_{2n}·ω_n^i`, in that order (the H query's).
    fn witness_map_from_matrices<F: PrimeField, D: EvaluationDomain<F>>(
        matrices: &[Matrix<F>],
        num_inputs: usize,
        num_constraints: usize,
        full_assignment: &[F],
    ) -> Result<Vec<F>, SynthesisError> {
        let [a_rows, b_rows, c_rows] = matrices else {
            return Err(SynthesisError::MissingCS);
        };
        let domain =
            D::new(num_constraints + num_inputs).ok_or(SynthesisError::PolynomialDegreeTooLarge)?;
        let n = domain.size();
        let coset = domain
            .get_coset(odd_coset_offset::<F>(n)?)
            .ok_or(SynthesisError::PolynomialDegreeTooLarge)?;

        let eval = |rows: &Matrix<F>| -> Vec<F> {
            let mut out = vec![F::zero(); n];
            out[..num_constraints]
                .par_iter_mut()
                .zip(rows)
                .for_each(|(v, row)| *v = evaluate_constraint(row, full_assignment));
            out
        };
        let mut a = eval(a_rows);
        // The extra A rows: instance variable j at row num_constraints + j, as in the setup.
        a[num_constraints..num_constraints + num_inputs]
            .copy_from_slice(&full_assignment[..num_inputs]);
        let mut b = eval(b_rows);
        let mut c = eval(c_rows);

        // Evaluations on the domain → coefficients → evaluations on the odd coset.
        for v in [&mut a, &mut b, &mut c] {
            domain.ifft_in_place(v);
            coset.fft_in_place(v);
        }
        a.par_iter_mut()
            .zip(b.par_iter())
            .zip(c.par_iter())
            .for_each(|((a, b), c)| *a = *a * b - c);
        Ok(a)
    }

    /// `L^{2n}_{2i+1}(t)/δ` for `i < n`: the H query a snarkjs setup would produce for the
    /// toxic waste `t, δ` (`zt`, the libsnark factor, has no part in it).
    fn h_query_scalars<F: PrimeField, D: EvaluationDomain<F>>(
        max_power: usize,
        t: F,
        _zt: F,
        delta_inverse: F,
    ) -> Result<Vec<F>, SynthesisError> {
        // ark-groth16 passes the domain size minus one.
        let n = max_power + 1;
        let double = D::new(2 * n).ok_or(SynthesisError::PolynomialDegreeTooLarge)?;
        if double.size() != 2 * n {
            return Err(SynthesisError::PolynomialDegreeTooLarge);
        }
        let lagrange = double.evaluate_all_lagrange_coefficients(t);
        Ok(lagrange
            .into_par_iter()
            .skip(1)
            .step_by(2)
            .map(|l| l * delta_inverse)
            .collect())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::Fr;
    use crate::r1cs::tests::sample_circuit;
    use ark_bn254::Bn254;
    use ark_ff::{Field, One};
    use ark_groth16::Groth16;
    use ark_poly::GeneralEvaluationDomain;
    use ark_snark::SNARK;
    use ark_std::UniformRand;
    use rand_core::SeedableRng;

    type D = GeneralEvaluationDomain<Fr>;

    #[test]
    fn the_offset_is_a_primitive_2n_th_root() {
        let n = 8192;
        let w: Fr = odd_coset_offset(n).unwrap();
        assert_eq!(w.pow([2 * n as u64]), Fr::one());
        assert_eq!(w.pow([n as u64]), -Fr::one());
        // Its square generates the domain arkworks uses, so the coset is the odd half of the
        // 2n domain in the order the H query lists it.
        assert_eq!(w * w, D::new(n).unwrap().group_gen());
    }

    /// On a small random R1CS: the scalars and the witness map recombine to `h(t)·Z(t)/δ`,
    /// which is what the prover's `C` needs.
    #[test]
    fn witness_map_times_h_query_is_h_times_z() {
        let mut rng = rand_chacha::ChaCha20Rng::seed_from_u64(7);
        // x·y = z, y·y = w, with 1 instance var (the one) and 4 witnesses; satisfied.
        let (x, y) = (Fr::rand(&mut rng), Fr::rand(&mut rng));
        let z = vec![Fr::one(), x, y, x * y, y * y];
        let one = Fr::one();
        let a: Matrix<Fr> = vec![vec![(one, 1)], vec![(one, 2)]];
        let b: Matrix<Fr> = vec![vec![(one, 2)], vec![(one, 2)]];
        let c: Matrix<Fr> = vec![vec![(one, 3)], vec![(one, 4)]];
        let matrices = [a.clone(), b.clone(), c.clone()];
        let h = SnarkjsReduction::witness_map_from_matrices::<Fr, D>(&matrices, 1, 2, &z).unwrap();
        let domain = D::new(3).unwrap();
        let n = domain.size();
        assert_eq!(h.len(), n);

        let t = Fr::rand(&mut rng);
        let delta = Fr::rand(&mut rng);
        let scalars = SnarkjsReduction::h_query_scalars::<Fr, D>(
            n - 1,
            t,
            Fr::from(0u64),
            delta.inverse().unwrap(),
        )
        .unwrap();
        let ours: Fr = h.iter().zip(&scalars).map(|(h, s)| *h * s).sum();

        // Directly: A(t)·B(t) − C(t), each by Lagrange interpolation over the domain.
        let u = domain.evaluate_all_lagrange_coefficients(t);
        let poly = |m: &Matrix<Fr>, extra: bool| -> Fr {
            let mut v: Fr = m
                .iter()
                .zip(&u)
                .map(|(row, l)| evaluate_constraint(row, &z) * l)
                .sum();
            if extra {
                v += u[2] * z[0];
            }
            v
        };
        let expected = (poly(&a, true) * poly(&b, false) - poly(&c, false)) / delta;
        assert_eq!(ours, expected);

        // The libsnark scalars with the snarkjs witness map do not recombine to it.
        let zt = domain.evaluate_vanishing_polynomial(t);
        let libsnark =
            LibsnarkReduction::h_query_scalars::<Fr, D>(n - 1, t, zt, delta.inverse().unwrap())
                .unwrap();
        let mixed: Fr = h.iter().zip(&libsnark).map(|(h, s)| *h * s).sum();
        assert_ne!(mixed, expected);
    }

    /// An arkworks setup with this reduction, a proof with it, verified; proofs made with the
    /// other reduction fail against either key.
    #[test]
    fn setup_prove_verify_with_the_snarkjs_reduction() {
        let mut rng = rand_chacha::ChaCha20Rng::seed_from_u64(11);
        let circuit = sample_circuit();
        let public = circuit.public.instance();

        let (pk, vk) = Groth16::<Bn254, SnarkjsReduction>::circuit_specific_setup(
            crate::circuit::WithdrawCircuit::blank(),
            &mut rng,
        )
        .unwrap();
        assert_eq!(pk.h_query.len(), 8192);
        let proof =
            Groth16::<Bn254, SnarkjsReduction>::prove(&pk, circuit.clone(), &mut rng).unwrap();
        assert!(Groth16::<Bn254>::verify(&vk, &public, &proof).unwrap());
        let mut other = public.clone();
        other[0] += Fr::one();
        assert!(!Groth16::<Bn254>::verify(&vk, &other, &proof).unwrap());

        let wrong =
            Groth16::<Bn254, LibsnarkReduction>::prove(&pk, circuit.clone(), &mut rng).unwrap();
        assert!(!Groth16::<Bn254>::verify(&vk, &public, &wrong).unwrap());

        let dev = crate::keys::Keys::insecure_dev();
        let wrong =
            Groth16::<Bn254, SnarkjsReduction>::prove(&dev.proving, circuit, &mut rng).unwrap();
        assert!(!Groth16::<Bn254>::verify(&dev.verifying, &public, &wrong).unwrap());
    }
}
