//! The circuits' constraint systems (`Withdraw(20)`, `BatchInsert(5, 20)`) as circom/snarkjs
//! files: the `.r1cs` a snarkjs Phase 2 ceremony runs on, and `.wtns` witnesses that
//! `snarkjs wtns check` and `snarkjs groth16 prove` accept; and the matrices a prover is handed
//! instead of synthesizing the circuit for every proof.
//!
//! The ceremony's keys are only usable if the prover uses exactly the constraint system the
//! ceremony saw, so the matrices come from synthesizing the circuit the way ark-groth16 0.6
//! does for its setup and prover (`OptimizationGoal::Constraints`, then `finalize`), and wire
//! `i` of the file is arkworks' full-assignment index `i`: the constant one, the public input
//! (each circuit has one), then the witness variables in allocation order.

use std::sync::OnceLock;

use ark_ff::{BigInteger, PrimeField, Zero};
use ark_relations::gr1cs::{
    ConstraintSynthesizer, ConstraintSystem, OptimizationGoal, R1CS_PREDICATE_LABEL,
    SynthesisError, SynthesisMode,
};

use crate::Fr;
use crate::circuit::WithdrawCircuit;

/// One row of a matrix: `(wire, coefficient)`, wires ascending, no zero coefficient.
pub type Row = Vec<(usize, Fr)>;

/// A matrix as ark-groth16 takes it: a row per constraint of `(coefficient, wire)`.
pub type Matrix = Vec<Vec<(Fr, usize)>>;

/// An R1CS `A·z ∘ B·z = C·z` over the full assignment `z`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct R1cs {
    /// Instance variables including the constant one (wire 0).
    pub num_instance: usize,
    pub num_witness: usize,
    pub a: Vec<Row>,
    pub b: Vec<Row>,
    pub c: Vec<Row>,
}

impl R1cs {
    pub fn num_wires(&self) -> usize {
        self.num_instance + self.num_witness
    }

    pub fn num_constraints(&self) -> usize {
        self.a.len()
    }

    /// Public inputs, without the constant one.
    pub fn num_public(&self) -> usize {
        self.num_instance - 1
    }

    /// The Groth16 evaluation domain: constraints plus one row per instance variable (both
    /// arkworks and snarkjs add those rows to A), rounded up to a power of two.
    pub fn domain_size(&self) -> usize {
        (self.num_constraints() + self.num_instance).next_power_of_two()
    }

    /// The index of the first constraint `z` violates, if any.
    pub fn first_unsatisfied(&self, z: &[Fr]) -> Option<usize> {
        let eval = |row: &Row| -> Fr {
            row.iter()
                .map(|(wire, coeff)| z.get(*wire).copied().unwrap_or_default() * coeff)
                .sum()
        };
        (0..self.num_constraints())
            .find(|&i| eval(&self.a[i]) * eval(&self.b[i]) != eval(&self.c[i]))
    }
}

/// Sums repeated wires and drops zero terms, so that every reader of the file (snarkjs keeps
/// only the last of repeated wires) sees the same linear combination arkworks meant.
fn canonical_row(terms: &[(Fr, usize)]) -> Row {
    let mut row: Row = terms.iter().map(|&(coeff, wire)| (wire, coeff)).collect();
    row.sort_by_key(|&(wire, _)| wire);
    let mut out: Row = Vec::with_capacity(row.len());
    for (wire, coeff) in row {
        match out.last_mut() {
            Some((last, sum)) if *last == wire => *sum += coeff,
            _ => out.push((wire, coeff)),
        }
    }
    out.retain(|(_, coeff)| !coeff.is_zero());
    out
}

/// The constraint system of `blank`, a circuit of the right shape. Each circuit's module keeps
/// its own, made once per process ([`withdraw`] here, `batch::constraint_system`).
pub(crate) fn synthesize(blank: impl ConstraintSynthesizer<Fr>) -> Result<R1cs, SynthesisError> {
    let cs = ConstraintSystem::<Fr>::new_ref();
    cs.set_optimization_goal(OptimizationGoal::Constraints);
    cs.set_mode(SynthesisMode::Setup);
    blank.generate_constraints(cs.clone())?;
    cs.finalize();
    let mut matrices = cs.to_matrices()?;
    let matrices = matrices
        .remove(R1CS_PREDICATE_LABEL)
        .ok_or(SynthesisError::MissingCS)?;
    let [a, b, c]: [_; 3] = matrices.try_into().map_err(|_| SynthesisError::MissingCS)?;
    let rows = |m: Vec<Vec<(Fr, usize)>>| m.iter().map(|r| canonical_row(r)).collect::<Vec<_>>();
    Ok(R1cs {
        num_instance: cs.num_instance_variables(),
        num_witness: cs.num_witness_variables(),
        a: rows(a),
        b: rows(b),
        c: rows(c),
    })
}

/// The withdraw circuit's constraint system, synthesized once per process.
pub fn withdraw() -> &'static R1cs {
    static R1CS: OnceLock<R1cs> = OnceLock::new();
    R1CS.get_or_init(|| {
        synthesize(WithdrawCircuit::blank()).expect("the blank withdraw circuit synthesizes")
    })
}

/// `r`'s matrices `[A, B, C]` in ark-groth16's form (`(coefficient, wire)` rows).
pub(crate) fn matrices(r: &R1cs) -> [Matrix; 3] {
    let matrix = |rows: &[Row]| {
        rows.iter()
            .map(|row| row.iter().map(|&(wire, coeff)| (coeff, wire)).collect())
            .collect()
    };
    [matrix(&r.a), matrix(&r.b), matrix(&r.c)]
}

/// The withdraw circuit's matrices, made once per process from [`withdraw`], for a prover
/// that is handed the constraint system instead of building it again for every proof.
pub fn withdraw_matrices() -> &'static [Matrix; 3] {
    static MATRICES: OnceLock<[Matrix; 3]> = OnceLock::new();
    MATRICES.get_or_init(|| matrices(withdraw()))
}

/// The full assignment `[1, public inputs, witness]` of a concrete circuit, so its indices are
/// the file's wires. Only the values are computed: the variables are allocated in the same
/// order as in the synthesis that made the matrices (inlining with
/// `OptimizationGoal::Constraints` adds none), and no constraint is recorded, which is most of
/// what a full synthesis costs.
pub fn full_assignment(circuit: impl ConstraintSynthesizer<Fr>) -> Result<Vec<Fr>, SynthesisError> {
    let cs = ConstraintSystem::<Fr>::new_ref();
    cs.set_optimization_goal(OptimizationGoal::Constraints);
    cs.set_mode(SynthesisMode::Prove {
        construct_matrices: false,
        generate_lc_assignments: false,
    });
    circuit.generate_constraints(cs.clone())?;
    let mut z = cs.instance_assignment()?;
    z.extend(cs.witness_assignment()?);
    Ok(z)
}

/// BN254's scalar field modulus r, 32 bytes little-endian, as both formats carry it.
fn prime_le() -> Vec<u8> {
    Fr::MODULUS.to_bytes_le()
}

fn field_le(x: &Fr) -> [u8; 32] {
    let mut out = [0u8; 32];
    out.copy_from_slice(&x.into_bigint().to_bytes_le());
    out
}

/// An iden3 binary file: magic, version, then `(id u32, length u64, bytes)` sections.
pub(crate) fn binfile(magic: &[u8; 4], version: u32, sections: &[(u32, Vec<u8>)]) -> Vec<u8> {
    let total: usize = sections.iter().map(|(_, s)| 12 + s.len()).sum();
    let mut out = Vec::with_capacity(12 + total);
    out.extend_from_slice(magic);
    out.extend_from_slice(&version.to_le_bytes());
    out.extend_from_slice(&(sections.len() as u32).to_le_bytes());
    for (id, body) in sections {
        out.extend_from_slice(&id.to_le_bytes());
        out.extend_from_slice(&(body.len() as u64).to_le_bytes());
        out.extend_from_slice(body);
    }
    out
}

fn u32_le(n: usize) -> [u8; 4] {
    u32::try_from(n)
        .expect("the circuits' sizes fit in u32")
        .to_le_bytes()
}

/// `r` as circom writes it: the constraint system in the iden3 `.r1cs` format, version 1.
///
/// Every witness variable is declared a private input: arkworks does not tell inputs from
/// intermediate signals, and snarkjs uses the count for nothing but `r1cs info`. Labels are the
/// wire numbers, one per wire.
pub fn encode_r1cs(r: &R1cs) -> Vec<u8> {
    let mut header = Vec::with_capacity(64);
    header.extend_from_slice(&32u32.to_le_bytes());
    header.extend_from_slice(&prime_le());
    header.extend_from_slice(&u32_le(r.num_wires()));
    header.extend_from_slice(&0u32.to_le_bytes()); // public outputs
    header.extend_from_slice(&u32_le(r.num_public()));
    header.extend_from_slice(&u32_le(r.num_witness));
    header.extend_from_slice(&(r.num_wires() as u64).to_le_bytes());
    header.extend_from_slice(&u32_le(r.num_constraints()));

    let mut constraints = Vec::new();
    for i in 0..r.num_constraints() {
        for row in [&r.a[i], &r.b[i], &r.c[i]] {
            constraints.extend_from_slice(&u32_le(row.len()));
            for (wire, coeff) in row {
                constraints.extend_from_slice(&u32_le(*wire));
                constraints.extend_from_slice(&field_le(coeff));
            }
        }
    }

    let labels: Vec<u8> = (0..r.num_wires() as u64)
        .flat_map(u64::to_le_bytes)
        .collect();
    binfile(b"r1cs", 1, &[(1, header), (2, constraints), (3, labels)])
}

/// The withdraw circuit's `.r1cs` file, for `snarkjs groth16 setup`.
pub fn withdraw_r1cs() -> Vec<u8> {
    encode_r1cs(withdraw())
}

/// A full assignment in snarkjs's `.wtns` format, version 2 (values in standard form).
pub fn encode_wtns(z: &[Fr]) -> Vec<u8> {
    let mut header = Vec::with_capacity(40);
    header.extend_from_slice(&32u32.to_le_bytes());
    header.extend_from_slice(&prime_le());
    header.extend_from_slice(&u32_le(z.len()));
    let values: Vec<u8> = z.iter().flat_map(field_le).collect();
    binfile(b"wtns", 2, &[(1, header), (2, values)])
}

/// The witness file of a concrete withdrawal, for `snarkjs wtns check` and
/// `snarkjs groth16 prove`.
pub fn withdraw_wtns(circuit: WithdrawCircuit) -> Result<Vec<u8>, SynthesisError> {
    Ok(encode_wtns(&full_assignment(circuit)?))
}

#[cfg(test)]
pub(crate) mod tests {
    use super::*;
    use crate::circuit::{DEPTH, PublicInputs, SECRET_BITS};
    use crate::poseidon;
    use crate::proof::{Witness, root_of};
    use ark_ff::Field;

    fn u32_at(b: &[u8], at: usize) -> usize {
        u32::from_le_bytes(b[at..at + 4].try_into().unwrap()) as usize
    }

    fn u64_at(b: &[u8], at: usize) -> usize {
        u64::from_le_bytes(b[at..at + 8].try_into().unwrap()) as usize
    }

    /// Splits an iden3 binary file into its sections, checking the framing.
    fn sections<'a>(file: &'a [u8], magic: &[u8; 4], version: usize) -> Vec<(usize, &'a [u8])> {
        assert_eq!(&file[..4], magic);
        assert_eq!(u32_at(file, 4), version);
        let n = u32_at(file, 8);
        let mut at = 12;
        let mut out = Vec::new();
        for _ in 0..n {
            let (id, len) = (u32_at(file, at), u64_at(file, at + 4));
            out.push((id, &file[at + 12..at + 12 + len]));
            at += 12 + len;
        }
        assert_eq!(at, file.len(), "no bytes after the last section");
        out
    }

    fn fr_le(b: &[u8]) -> Fr {
        let x = Fr::from_le_bytes_mod_order(b);
        assert_eq!(field_le(&x), b, "a canonical field element");
        x
    }

    /// A satisfying withdrawal with a 248-bit secret and a mixed path.
    pub(crate) fn sample_circuit() -> WithdrawCircuit {
        let nullifier = Fr::from(0x1234_5678_9abc_u64);
        let secret = Fr::from(2u64).pow([SECRET_BITS as u64 - 1]) + Fr::from(7u64);
        let witness = Witness {
            nullifier,
            secret,
            siblings: std::array::from_fn(|i| Fr::from(1000 + i as u64)),
            index: 0b1011_0110_0101,
        };
        WithdrawCircuit {
            public: PublicInputs {
                root: root_of(&witness),
                nullifier_hash: poseidon::hash1(nullifier),
                recipient: Fr::from(0xabu64),
                relayer: Fr::from(0xcdu64),
                fee: Fr::from(3u64),
                refund: Fr::from(4u64),
            },
            nullifier,
            secret,
            siblings: witness.siblings,
            index: witness.index,
        }
    }

    #[test]
    fn the_shape_is_the_circuits() {
        let r = withdraw();
        assert_eq!(r.num_instance, 2);
        assert_eq!(
            r.num_constraints(),
            213 + 240 + DEPTH * 243 + 2 * 240 + 1 + 2 * (SECRET_BITS + 1)
        );
        assert_eq!(r.domain_size(), 8192);
        for m in [&r.a, &r.b, &r.c] {
            assert_eq!(m.len(), r.num_constraints());
            for row in m {
                assert!(
                    row.windows(2).all(|w| w[0].0 < w[1].0),
                    "sorted, no repeats"
                );
                assert!(row.iter().all(|(w, c)| *w < r.num_wires() && !c.is_zero()));
            }
        }
        // Synthesizing again gives the same system: keys made for one run fit every other.
        assert_eq!(&synthesize(WithdrawCircuit::blank()).unwrap(), r);
    }

    #[test]
    fn canonical_rows_sum_repeats_and_drop_zeros() {
        let one = Fr::from(1u64);
        let row = canonical_row(&[(one, 5), (Fr::from(2u64), 1), (-one, 5), (one, 3), (one, 3)]);
        assert_eq!(row, vec![(1, Fr::from(2u64)), (3, Fr::from(2u64))]);
    }

    #[test]
    fn a_real_assignment_satisfies_the_exported_system_and_a_wrong_one_does_not() {
        let r = withdraw();
        let circuit = sample_circuit();
        let public = circuit.public.instance();
        let z = full_assignment(circuit).unwrap();
        assert_eq!(z.len(), r.num_wires());
        assert_eq!(z[0], Fr::from(1u64));
        assert_eq!(z[1..2], public[..]);
        assert_eq!(r.first_unsatisfied(&z), None);
        // The public hash, and the extDataHash it binds (the first witness).
        for wire in [1, 2] {
            let mut wrong = z.clone();
            wrong[wire] += Fr::from(1u64);
            assert!(r.first_unsatisfied(&wrong).is_some(), "wire {wire}");
        }
    }

    /// The prover's assignment skips recording constraints; it must still be, value for value,
    /// the assignment of the synthesis that built the matrices and ran `finalize`.
    #[test]
    fn the_provers_assignment_is_the_full_synthesis_assignment() {
        let cs = ConstraintSystem::<Fr>::new_ref();
        cs.set_optimization_goal(OptimizationGoal::Constraints);
        cs.set_mode(SynthesisMode::Prove {
            construct_matrices: true,
            generate_lc_assignments: false,
        });
        sample_circuit().generate_constraints(cs.clone()).unwrap();
        cs.finalize();
        assert!(cs.is_satisfied().unwrap());
        let mut full = cs.instance_assignment().unwrap();
        full.extend(cs.witness_assignment().unwrap());

        let z = full_assignment(sample_circuit()).unwrap();
        assert_eq!(z, full);
        assert_eq!(z.len(), withdraw().num_wires());
        assert_eq!(withdraw().first_unsatisfied(&z), None);
        let [a, b, c] = withdraw_matrices();
        assert_eq!(a.len(), withdraw().num_constraints());
        assert!(b.len() == a.len() && c.len() == a.len());
    }

    #[test]
    fn the_r1cs_file_decodes_to_the_system() {
        let r = withdraw();
        let file = withdraw_r1cs();
        let s = sections(&file, b"r1cs", 1);
        assert_eq!(s.iter().map(|(id, _)| *id).collect::<Vec<_>>(), [1, 2, 3]);
        let h = s[0].1;
        assert_eq!(h.len(), 4 + 32 + 4 * 4 + 8 + 4);
        assert_eq!(u32_at(h, 0), 32);
        assert_eq!(&h[4..36], Fr::MODULUS.to_bytes_le().as_slice());
        assert_eq!(
            hex::encode(&h[4..36]),
            "010000f093f5e1439170b97948e833285d588181b64550b829a031e1724e6430"
        );
        assert_eq!(u32_at(h, 36), r.num_wires());
        assert_eq!(u32_at(h, 40), 0);
        assert_eq!(u32_at(h, 44), 1);
        assert_eq!(u32_at(h, 48), r.num_witness);
        assert_eq!(u64_at(h, 52), r.num_wires());
        assert_eq!(u32_at(h, 60), r.num_constraints());

        let body = s[1].1;
        let mut at = 0;
        let mut read_row = || {
            let n = u32_at(body, at);
            at += 4;
            let row: Row = (0..n)
                .map(|k| {
                    let p = at + k * 36;
                    (u32_at(body, p), fr_le(&body[p + 4..p + 36]))
                })
                .collect();
            at += n * 36;
            row
        };
        for i in 0..r.num_constraints() {
            assert_eq!(read_row(), r.a[i], "A row {i}");
            assert_eq!(read_row(), r.b[i], "B row {i}");
            assert_eq!(read_row(), r.c[i], "C row {i}");
        }
        assert_eq!(at, body.len());

        let labels = s[2].1;
        assert_eq!(labels.len(), 8 * r.num_wires());
        assert!((0..r.num_wires()).all(|w| u64_at(labels, 8 * w) == w));
    }

    #[test]
    fn the_wtns_file_holds_the_assignment() {
        let circuit = sample_circuit();
        let z = full_assignment(circuit.clone()).unwrap();
        let file = withdraw_wtns(circuit).unwrap();
        let s = sections(&file, b"wtns", 2);
        assert_eq!(s.iter().map(|(id, _)| *id).collect::<Vec<_>>(), [1, 2]);
        assert_eq!(u32_at(s[0].1, 0), 32);
        assert_eq!(&s[0].1[4..36], Fr::MODULUS.to_bytes_le().as_slice());
        assert_eq!(u32_at(s[0].1, 36), z.len());
        assert_eq!(s[1].1.len(), 32 * z.len());
        let back: Vec<Fr> = s[1].1.chunks(32).map(fr_le).collect();
        assert_eq!(back, z);
        // Standard form, not Montgomery: the constant one is the byte 1.
        assert_eq!(s[1].1[..32], {
            let mut one = [0u8; 32];
            one[0] = 1;
            one
        });
    }
}
