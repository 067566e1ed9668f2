//! A reader for snarkjs Groth16 `.zkey` files: the output of a Phase 2 ceremony, as an
//! arkworks proving key for one of tronpool's circuits ([`Circuit`]).
//!
//! The file is an iden3 binary file (`"zkey"`, version 1, then `(id u32, length u64, bytes)`
//! sections). Sections 1–9 hold the protocol, the curve and sizes with the verifying key, the
//! IC points, the A/B coefficients, and the A, B1, B2, C (L) and H queries; 10 and above
//! record the contributions and are not needed to prove. Field elements are 32 bytes
//! little-endian in Montgomery form (R = 2^256), the form arkworks keeps internally; a G1 point
//! is `x, y`, a G2 point `x.c0, x.c1, y.c0, y.c1`, and `(0, 0)` is the point at infinity.
//!
//! Nothing in a zkey is trusted: its sizes must be one of the circuits', every size is checked
//! against that circuit, every point is on
//! its curve, and the A/B coefficients snarkjs copied from the `.r1cs` it was made for must be
//! ours, or the key is refused as made for another circuit. (The IC, A, B and C points cannot
//! be checked against the circuit without the toxic waste; a key whose points do not match
//! its coefficients makes proofs that fail, which `prove` notices.)

use ark_bn254::{Bn254, Fq, Fq2, Fr, G1Affine, G2Affine};
use ark_ec::AffineRepr;
use ark_ff::{BigInt, Field, PrimeField, Zero};
use ark_groth16::{ProvingKey, VerifyingKey};
use rayon::prelude::*;

use crate::circuits::Circuit;
use crate::key_error::KeyError;
use crate::r1cs::R1cs;

pub(crate) const G1_BYTES: usize = 64;
pub(crate) const G2_BYTES: usize = 128;
/// matrix, constraint, signal (u32 each) and the value.
const COEFF_BYTES: usize = 12 + 32;
const PROTOCOL_GROTH16: u32 = 1;

pub(crate) struct Context<'a> {
    pub(crate) what: &'a str,
}

impl Context<'_> {
    pub(crate) fn malformed(&self, reason: impl Into<String>) -> KeyError {
        KeyError::Malformed {
            what: self.what.to_owned(),
            reason: reason.into(),
        }
    }
}

pub(crate) fn u32_at(b: &[u8], at: usize) -> u32 {
    let mut w = [0u8; 4];
    w.copy_from_slice(&b[at..at + 4]);
    u32::from_le_bytes(w)
}

fn u64_at(b: &[u8], at: usize) -> u64 {
    let mut w = [0u8; 8];
    w.copy_from_slice(&b[at..at + 8]);
    u64::from_le_bytes(w)
}

pub(crate) fn bigint_le(b: &[u8]) -> BigInt<4> {
    BigInt::new(std::array::from_fn(|i| u64_at(b, 8 * i)))
}

/// An iden3 binary file's sections in file order, `(id, body)`, after checking its magic,
/// version and framing.
pub(crate) fn binfile_sections<'a>(
    bytes: &'a [u8],
    magic: &[u8; 4],
    expected_version: u32,
    cx: &Context<'_>,
) -> Result<Vec<(u32, &'a [u8])>, KeyError> {
    let kind = String::from_utf8_lossy(magic);
    if !bytes.starts_with(magic) {
        return Err(cx.malformed(format!(
            "not a {kind} file (it does not start with \"{kind}\")"
        )));
    }
    if bytes.len() < 12 {
        return Err(cx.malformed("truncated: the file header is cut off"));
    }
    let version = u32_at(bytes, 4);
    if version != expected_version {
        return Err(cx.malformed(format!(
            "{kind} version {version}, expected {expected_version}"
        )));
    }
    let count = u32_at(bytes, 8);
    let mut out = Vec::new();
    let mut at = 12usize;
    for _ in 0..count {
        if bytes.len() - at < 12 {
            return Err(cx.malformed("truncated: a section header is cut off"));
        }
        let id = u32_at(bytes, at);
        let len = u64_at(bytes, at + 4);
        at += 12;
        let len = usize::try_from(len)
            .ok()
            .filter(|&len| len <= bytes.len() - at)
            .ok_or_else(|| {
                cx.malformed(format!(
                    "truncated: section {id} claims {len} bytes, {} remain",
                    bytes.len() - at
                ))
            })?;
        out.push((id, &bytes[at..at + len]));
        at += len;
    }
    if at != bytes.len() {
        return Err(cx.malformed(format!("{} bytes after the last section", bytes.len() - at)));
    }
    Ok(out)
}

/// The sections 1 to 9, by id; later ids are skipped.
fn split_sections<'a>(bytes: &'a [u8], cx: &Context<'_>) -> Result<[&'a [u8]; 9], KeyError> {
    let mut found: [Option<&[u8]>; 9] = [None; 9];
    for (id, body) in binfile_sections(bytes, b"zkey", 1, cx)? {
        if let Some(slot) = (id as usize).checked_sub(1).and_then(|i| found.get_mut(i)) {
            if slot.replace(body).is_some() {
                return Err(cx.malformed(format!("section {id} appears twice")));
            }
        }
    }
    let mut out: [&[u8]; 9] = [&[]; 9];
    for (i, slot) in found.iter().enumerate() {
        out[i] = slot.ok_or_else(|| cx.malformed(format!("section {} is missing", i + 1)))?;
    }
    Ok(out)
}

/// The body of the one section `id` (a zkey's contributions are section 10), if any.
pub(crate) fn section_of<'a>(
    bytes: &'a [u8],
    id: u32,
    cx: &Context<'_>,
) -> Result<Option<&'a [u8]>, KeyError> {
    let mut found = None;
    for (i, body) in binfile_sections(bytes, b"zkey", 1, cx)? {
        if i == id && found.replace(body).is_some() {
            return Err(cx.malformed(format!("section {id} appears twice")));
        }
    }
    Ok(found)
}

fn expect_len(section: &[u8], id: u32, len: usize, cx: &Context<'_>) -> Result<(), KeyError> {
    if section.len() == len {
        Ok(())
    } else {
        Err(cx.malformed(format!(
            "section {id} has {} bytes, expected {len}",
            section.len()
        )))
    }
}

/// A base-field element in Montgomery form.
fn fq(b: &[u8], what: &dyn Fn() -> String, cx: &Context<'_>) -> Result<Fq, KeyError> {
    let repr = bigint_le(b);
    if repr >= Fq::MODULUS {
        return Err(cx.malformed(format!("{}: a coordinate is not below q", what())));
    }
    Ok(Fq::new_unchecked(repr))
}

pub(crate) fn g1(
    b: &[u8],
    what: &dyn Fn() -> String,
    cx: &Context<'_>,
) -> Result<G1Affine, KeyError> {
    let (x, y) = (fq(&b[..32], what, cx)?, fq(&b[32..64], what, cx)?);
    if x.is_zero() && y.is_zero() {
        return Ok(G1Affine::zero());
    }
    let p = G1Affine::new_unchecked(x, y);
    // BN254's G1 has cofactor 1: on the curve is in the group.
    if p.is_on_curve() {
        Ok(p)
    } else {
        Err(cx.malformed(format!("{} is not on the curve", what())))
    }
}

pub(crate) fn g2(
    b: &[u8],
    what: &dyn Fn() -> String,
    cx: &Context<'_>,
) -> Result<G2Affine, KeyError> {
    let c = |i: usize| fq(&b[32 * i..32 * (i + 1)], what, cx);
    let (x, y) = (Fq2::new(c(0)?, c(1)?), Fq2::new(c(2)?, c(3)?));
    if x.is_zero() && y.is_zero() {
        return Ok(G2Affine::zero());
    }
    let p = G2Affine::new_unchecked(x, y);
    if p.is_on_curve() {
        Ok(p)
    } else {
        Err(cx.malformed(format!("{} is not on the curve", what())))
    }
}

/// A verifying-key point in G2: also in the prime-order subgroup (G2's cofactor is large, and
/// these points enter every pairing check), and not the identity (which would make the
/// pairing check ignore a term).
fn vk_g2(b: &[u8], name: &str, cx: &Context<'_>) -> Result<G2Affine, KeyError> {
    let p = g2(b, &|| name.to_owned(), cx)?;
    if p.is_zero() {
        return Err(cx.malformed(format!("{name} is the point at infinity")));
    }
    if !p.is_in_correct_subgroup_assuming_on_curve() {
        return Err(cx.malformed(format!("{name} is not in the G2 subgroup")));
    }
    Ok(p)
}

fn vk_g1(b: &[u8], name: &str, cx: &Context<'_>) -> Result<G1Affine, KeyError> {
    let p = g1(b, &|| name.to_owned(), cx)?;
    if p.is_zero() {
        return Err(cx.malformed(format!("{name} is the point at infinity")));
    }
    Ok(p)
}

pub(crate) fn g1_points(
    section: &[u8],
    id: u32,
    name: &str,
    count: usize,
    cx: &Context<'_>,
) -> Result<Vec<G1Affine>, KeyError> {
    expect_len(section, id, count * G1_BYTES, cx)?;
    section
        .par_chunks_exact(G1_BYTES)
        .enumerate()
        .map(|(i, b)| g1(b, &|| format!("{name}[{i}] (section {id})"), cx))
        .collect()
}

pub(crate) fn g2_points(
    section: &[u8],
    id: u32,
    name: &str,
    count: usize,
    cx: &Context<'_>,
) -> Result<Vec<G2Affine>, KeyError> {
    expect_len(section, id, count * G2_BYTES, cx)?;
    section
        .par_chunks_exact(G2_BYTES)
        .enumerate()
        .map(|(i, b)| g2(b, &|| format!("{name}[{i}] (section {id})"), cx))
        .collect()
}

/// One A or B coefficient: `(matrix, constraint, wire)` and its value.
type Coefficient = ((u32, u32, u32), Fr);

/// What snarkjs writes into section 4 for `r`: every A and B term, plus an A row per
/// instance variable after the constraints (`A[nConstraints + j][j] = 1`), sorted.
fn expected_coefficients(r: &R1cs) -> Vec<Coefficient> {
    let mut out = Vec::new();
    for (m, matrix) in [&r.a, &r.b].into_iter().enumerate() {
        for (row, terms) in matrix.iter().enumerate() {
            for (wire, value) in terms {
                out.push(((m as u32, row as u32, *wire as u32), *value));
            }
        }
        if m == 0 {
            for j in 0..r.num_instance {
                out.push((
                    (0, (r.num_constraints() + j) as u32, j as u32),
                    Fr::from(1u64),
                ));
            }
        }
    }
    out
}

fn describe((m, row, wire): (u32, u32, u32)) -> String {
    let matrix = if m == 0 { "A" } else { "B" };
    format!("{matrix} row {row}, wire {wire}")
}

fn check_coefficients(
    section: &[u8],
    (which, r): (Circuit, &R1cs),
    cx: &Context<'_>,
) -> Result<(), KeyError> {
    if section.len() < 4 {
        return Err(cx.malformed("section 4 has no coefficient count"));
    }
    let count = u32_at(section, 0) as usize;
    expect_len(section, 4, 4 + count * COEFF_BYTES, cx)?;
    // snarkjs stores a coefficient `c` as the standard form of `c·R²` (R = 2^256, so that its
    // Montgomery prover multiplies by the witness in one step); this undoes the R².
    let r_inv2 = {
        let r_inv = Fr::from(2u64).pow([256u64]).inverse().unwrap_or_default();
        r_inv * r_inv
    };
    let mut found = section[4..]
        .par_chunks_exact(COEFF_BYTES)
        .enumerate()
        .map(|(i, b)| {
            let m = u32_at(b, 0);
            if m > 1 {
                return Err(cx.malformed(format!(
                    "coefficient {i} (section 4) is for matrix {m}; only A (0) and B (1) are stored"
                )));
            }
            let stored = Fr::from_bigint(bigint_le(&b[12..])).ok_or_else(|| {
                cx.malformed(format!("coefficient {i} (section 4) is not below r"))
            })?;
            Ok(((m, u32_at(b, 4), u32_at(b, 8)), stored * r_inv2))
        })
        .collect::<Result<Vec<Coefficient>, _>>()?;
    found.par_sort_unstable_by_key(|(key, _)| *key);
    let expected = expected_coefficients(r);
    let differ = |detail: String| {
        KeyError::WrongCircuit(format!(
            "its A/B coefficients (section 4) are not the {which} circuit's: {detail} \
             ({} coefficients in the zkey, {} in the circuit)",
            found.len(),
            expected.len()
        ))
    };
    let mut ours = expected.iter().peekable();
    let mut theirs = found.iter().peekable();
    loop {
        match (ours.peek(), theirs.peek()) {
            (None, None) => return Ok(()),
            (Some((key, _)), None) => return Err(differ(format!("it lacks {}", describe(*key)))),
            (None, Some((key, _))) => {
                return Err(differ(format!(
                    "it has {}, the circuit does not",
                    describe(*key)
                )));
            }
            (Some((k1, v1)), Some((k2, v2))) => {
                if k1 < k2 {
                    return Err(differ(format!("it lacks {}", describe(*k1))));
                }
                if k2 < k1 {
                    return Err(differ(format!(
                        "it has {}, the circuit does not",
                        describe(*k2)
                    )));
                }
                if v1 != v2 {
                    return Err(differ(format!(
                        "{}: {} in the zkey, {} in the circuit",
                        describe(*k1),
                        crate::field::to_decimal(v2),
                        crate::field::to_decimal(v1)
                    )));
                }
                ours.next();
                theirs.next();
            }
        }
    }
}

/// How many Phase 2 contributions a zkey records (its section 10, snarkjs's MPC parameters:
/// the circuit's 64-byte hash, then the count), or `None` when it has no such section.
pub fn contribution_count(bytes: &[u8]) -> Option<u32> {
    let count = u32::from_le_bytes(bytes.get(8..12)?.try_into().ok()?);
    let mut at = 12usize;
    for _ in 0..count {
        let id = u32::from_le_bytes(bytes.get(at..at + 4)?.try_into().ok()?);
        let len = u64::from_le_bytes(bytes.get(at + 4..at + 12)?.try_into().ok()?);
        let len = usize::try_from(len).ok()?;
        at += 12;
        let body = bytes.get(at..at.checked_add(len)?)?;
        if id == 10 {
            return Some(u32::from_le_bytes(body.get(64..68)?.try_into().ok()?));
        }
        at += len;
    }
    None
}

/// Why a zkey's keys must not guard money, if they must not: a key nobody contributed to
/// (what `snarkjs groth16 setup` writes: δ equal to γ, both the G2 generator) lets anyone
/// who holds one valid proof forge proofs for any public input.
pub fn unsafe_key(bytes: &[u8], key: &ProvingKey<Bn254>) -> Vec<String> {
    let mut problems = Vec::new();
    if key.vk.delta_g2 == key.vk.gamma_g2 {
        problems.push("its δ equals its γ".to_owned());
    }
    if key.vk.delta_g2 == G2Affine::generator() || key.delta_g1 == G1Affine::generator() {
        problems.push("its δ is the curve's generator".to_owned());
    }
    match contribution_count(bytes) {
        Some(0) | None => problems.push("it records no Phase 2 contribution".to_owned()),
        Some(_) => {}
    }
    problems
}

/// Reads a Groth16 zkey made for one of tronpool's circuits, which it tells by the sizes the
/// header states and then checks coefficient by coefficient. `what` names it in errors.
pub fn read(bytes: &[u8], what: &str) -> Result<(Circuit, ProvingKey<Bn254>), KeyError> {
    let cx = &Context { what };
    let [s1, s2, s3, s4, s5, s6, s7, s8, s9] = split_sections(bytes, cx)?;

    expect_len(s1, 1, 4, cx)?;
    match u32_at(s1, 0) {
        PROTOCOL_GROTH16 => {}
        2 => return Err(cx.malformed("a PLONK zkey; tronpool's verifiers are Groth16")),
        10 => return Err(cx.malformed("an FFLONK zkey; tronpool's verifiers are Groth16")),
        p => return Err(cx.malformed(format!("unknown protocol {p}, expected 1 (Groth16)"))),
    }

    // Section 2: n8q, q, n8r, r, nVars, nPublic, domainSize, then the verifying key.
    expect_len(
        s2,
        2,
        4 + 32 + 4 + 32 + 12 + 3 * G1_BYTES + 3 * G2_BYTES,
        cx,
    )?;
    if u32_at(s2, 0) != 32
        || bigint_le(&s2[4..36]) != Fq::MODULUS
        || u32_at(s2, 36) != 32
        || bigint_le(&s2[40..72]) != Fr::MODULUS
    {
        return Err(cx.malformed("its curve is not BN254 (alt_bn128)"));
    }
    let (n_vars, n_public, domain) = (
        u32_at(s2, 72) as usize,
        u32_at(s2, 76) as usize,
        u32_at(s2, 80) as usize,
    );
    let Some(which) = Circuit::with_sizes(n_vars, n_public, domain) else {
        return Err(KeyError::WrongCircuit(format!(
            "the zkey has {n_vars} variables, {n_public} public input(s) and domain size \
             {domain}, which is neither of tronpool's circuits ({})",
            Circuit::sizes_of_all()
        )));
    };
    let circuit = which.constraint_system();
    let mut at = 84;
    let mut next = |len: usize| {
        let b = &s2[at..at + len];
        at += len;
        b
    };
    let alpha_g1 = vk_g1(next(G1_BYTES), "alpha1", cx)?;
    let beta_g1 = vk_g1(next(G1_BYTES), "beta1", cx)?;
    let beta_g2 = vk_g2(next(G2_BYTES), "beta2", cx)?;
    let gamma_g2 = vk_g2(next(G2_BYTES), "gamma2", cx)?;
    let delta_g1 = vk_g1(next(G1_BYTES), "delta1", cx)?;
    let delta_g2 = vk_g2(next(G2_BYTES), "delta2", cx)?;

    check_coefficients(s4, (which, circuit), cx)?;

    let n_witness = n_vars - n_public - 1;
    let gamma_abc_g1 = g1_points(s3, 3, "IC", n_public + 1, cx)?;
    let a_query = g1_points(s5, 5, "A", n_vars, cx)?;
    let b_g1_query = g1_points(s6, 6, "B1", n_vars, cx)?;
    let b_g2_query = g2_points(s7, 7, "B2", n_vars, cx)?;
    let l_query = g1_points(s8, 8, "C", n_witness, cx)?;
    let h_query = g1_points(s9, 9, "H", domain, cx)?;

    let key = ProvingKey {
        vk: VerifyingKey {
            alpha_g1,
            beta_g2,
            gamma_g2,
            delta_g2,
            gamma_abc_g1,
        },
        beta_g1,
        delta_g1,
        a_query,
        b_g1_query,
        b_g2_query,
        h_query,
        l_query,
    };
    Ok((which, key))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::keys::{Keys, Setup};
    use crate::proof::{Witness, prove, verify};
    use crate::qap::SnarkjsReduction;
    use crate::r1cs;
    use crate::r1cs::tests::sample_circuit;
    use ark_ff::BigInteger;
    use ark_groth16::Groth16;
    use ark_snark::SNARK;
    use rand_core::{RngCore, SeedableRng};
    use std::sync::OnceLock;

    type Sections = Vec<(u32, Vec<u8>)>;

    /// The Montgomery form snarkjs writes: `x·R mod q`, little-endian.
    fn fq_mont(x: &Fq) -> Vec<u8> {
        let r = Fq::from(2u64).pow([256u64]);
        (*x * r).into_bigint().to_bytes_le()
    }

    fn g1_bytes(p: &G1Affine) -> Vec<u8> {
        if p.is_zero() {
            return vec![0; 64];
        }
        [fq_mont(&p.x), fq_mont(&p.y)].concat()
    }

    fn g2_bytes(p: &G2Affine) -> Vec<u8> {
        if p.is_zero() {
            return vec![0; 128];
        }
        [p.x.c0, p.x.c1, p.y.c0, p.y.c1]
            .iter()
            .flat_map(fq_mont)
            .collect()
    }

    /// The sections snarkjs would write for `pk` on the withdraw circuit, in its order.
    fn zkey_sections(pk: &ProvingKey<Bn254>) -> Sections {
        let r = r1cs::withdraw();
        let mut s2 = Vec::new();
        s2.extend_from_slice(&32u32.to_le_bytes());
        s2.extend_from_slice(&Fq::MODULUS.to_bytes_le());
        s2.extend_from_slice(&32u32.to_le_bytes());
        s2.extend_from_slice(&Fr::MODULUS.to_bytes_le());
        for n in [r.num_wires(), r.num_public(), r.domain_size()] {
            s2.extend_from_slice(&(n as u32).to_le_bytes());
        }
        s2.extend(g1_bytes(&pk.vk.alpha_g1));
        s2.extend(g1_bytes(&pk.beta_g1));
        s2.extend(g2_bytes(&pk.vk.beta_g2));
        s2.extend(g2_bytes(&pk.vk.gamma_g2));
        s2.extend(g1_bytes(&pk.delta_g1));
        s2.extend(g2_bytes(&pk.vk.delta_g2));

        let r2 = Fr::from(2u64).pow([512u64]);
        let mut coeffs = Vec::new();
        let mut push = |m: u32, row: usize, wire: usize, c: Fr| {
            coeffs.extend_from_slice(&m.to_le_bytes());
            coeffs.extend_from_slice(&(row as u32).to_le_bytes());
            coeffs.extend_from_slice(&(wire as u32).to_le_bytes());
            coeffs.extend((c * r2).into_bigint().to_bytes_le());
        };
        for i in 0..r.num_constraints() {
            for (m, matrix) in [(0, &r.a), (1, &r.b)] {
                for (wire, c) in &matrix[i] {
                    push(m, i, *wire, *c);
                }
            }
        }
        for j in 0..r.num_instance {
            push(0, r.num_constraints() + j, j, Fr::from(1u64));
        }
        let count = (coeffs.len() / COEFF_BYTES) as u32;
        let s4 = [count.to_le_bytes().to_vec(), coeffs].concat();

        let g1s = |v: &[G1Affine]| v.iter().flat_map(g1_bytes).collect::<Vec<u8>>();
        vec![
            (1, 1u32.to_le_bytes().to_vec()),
            (2, s2),
            (4, s4),
            (3, g1s(&pk.vk.gamma_abc_g1)),
            (9, g1s(&pk.h_query)),
            (8, g1s(&pk.l_query)),
            (5, g1s(&pk.a_query)),
            (6, g1s(&pk.b_g1_query)),
            (7, pk.b_g2_query.iter().flat_map(g2_bytes).collect()),
            (10, vec![7; 68]),
        ]
    }

    fn assemble(sections: &[(u32, Vec<u8>)]) -> Vec<u8> {
        r1cs::binfile(b"zkey", 1, sections)
    }

    /// An arkworks setup with snarkjs's reduction, written as a snarkjs zkey (made once).
    fn synthetic() -> &'static (ProvingKey<Bn254>, Sections) {
        static ZKEY: OnceLock<(ProvingKey<Bn254>, Sections)> = OnceLock::new();
        ZKEY.get_or_init(|| {
            let mut rng = rand_chacha::ChaCha20Rng::seed_from_u64(99);
            let (pk, _) = Groth16::<Bn254, SnarkjsReduction>::circuit_specific_setup(
                crate::circuit::WithdrawCircuit::blank(),
                &mut rng,
            )
            .unwrap();
            let sections = zkey_sections(&pk);
            (pk, sections)
        })
    }

    fn section(sections: &mut [(u32, Vec<u8>)], id: u32) -> &mut Vec<u8> {
        &mut sections.iter_mut().find(|(i, _)| *i == id).unwrap().1
    }

    fn malformed(bytes: &[u8]) -> String {
        match Keys::from_zkey(bytes) {
            Err(KeyError::Malformed { reason, .. }) => reason,
            Err(e) => panic!("expected Malformed, got {e}"),
            Ok(_) => panic!("expected Malformed, got keys"),
        }
    }

    fn wrong_circuit(bytes: &[u8]) -> String {
        match Keys::from_zkey(bytes) {
            Err(KeyError::WrongCircuit(reason)) => reason,
            Err(e) => panic!("expected WrongCircuit, got {e}"),
            Ok(_) => panic!("expected WrongCircuit, got keys"),
        }
    }

    #[test]
    fn a_zkey_loads_as_the_key_it_encodes_and_proves() {
        let (pk, sections) = synthetic();
        let keys = Keys::from_zkey(&assemble(sections)).unwrap();
        assert_eq!(&keys.proving, pk);
        assert_eq!(keys.setup(), Setup::Snarkjs);
        assert!(!keys.is_insecure_dev());
        assert_eq!(Keys::insecure_dev().setup(), Setup::Arkworks);

        let circuit = sample_circuit();
        let witness = Witness {
            nullifier: circuit.nullifier,
            secret: circuit.secret,
            siblings: circuit.siblings,
            index: circuit.index,
        };
        let mut rng = rand_chacha::ChaCha20Rng::seed_from_u64(1);
        let proof = prove(&keys, &circuit.public, &witness, &mut rng).unwrap();
        assert!(verify(&keys, &circuit.public, &proof));
        // The kind survives the arkworks file format: a snarkjs key written and read back
        // still proves with snarkjs's reduction.
        let back = Keys::new(keys.proving.clone()).unwrap();
        assert_eq!(back.setup(), Setup::Snarkjs);
        assert!(prove(&back, &circuit.public, &witness, &mut rng).is_ok());
    }

    #[test]
    fn truncated_or_garbage_input_is_malformed() {
        let (_, sections) = synthetic();
        let bytes = assemble(sections);
        let mut rng = rand_chacha::ChaCha20Rng::seed_from_u64(5);
        let mut cuts = vec![0, 1, 4, 11, 12, 13, 23, 24, 30, 100, 700, bytes.len() - 1];
        cuts.extend((0..40).map(|_| rng.next_u32() as usize % bytes.len()));
        for cut in cuts {
            let reason = malformed(&bytes[..cut]);
            assert!(
                reason.contains("truncated")
                    || reason.contains("missing")
                    || reason.contains("does not start"),
                "cut at {cut}: {reason}"
            );
        }
        let mut garbage = vec![0u8; 5000];
        rng.fill_bytes(&mut garbage);
        assert!(malformed(&garbage).contains("does not start"));
        garbage[..4].copy_from_slice(b"zkey");
        malformed(&garbage);
        garbage[4..12].copy_from_slice(&[1, 0, 0, 0, 200, 0, 0, 0]);
        malformed(&garbage);
        let mut extra = bytes.clone();
        extra.push(0);
        assert!(malformed(&extra).contains("after the last section"));
    }

    #[test]
    fn sections_are_all_required_once_with_exact_sizes() {
        let (_, sections) = synthetic();
        let mut missing = sections.clone();
        missing.retain(|(id, _)| *id != 7);
        assert!(malformed(&assemble(&missing)).contains("section 7 is missing"));
        let mut twice = sections.clone();
        twice.push((3, section(&mut sections.clone(), 3).clone()));
        assert!(malformed(&assemble(&twice)).contains("section 3 appears twice"));
        for id in [1, 2, 3, 5, 6, 7, 8, 9] {
            let mut short = sections.clone();
            section(&mut short, id).pop();
            assert!(
                malformed(&assemble(&short)).contains(&format!("section {id} has")),
                "section {id}"
            );
        }
        // Section 4's length follows from its count.
        let mut short = sections.clone();
        section(&mut short, 4).truncate(4 + COEFF_BYTES * 3);
        assert!(malformed(&assemble(&short)).contains("section 4 has"));
        // Without the contributions (section 10) it still proves.
        let mut bare = sections.clone();
        bare.retain(|(id, _)| *id != 10);
        assert!(Keys::from_zkey(&assemble(&bare)).is_ok());
    }

    #[test]
    fn other_protocols_and_curves_are_refused() {
        let (_, sections) = synthetic();
        let mut plonk = sections.clone();
        *section(&mut plonk, 1) = 2u32.to_le_bytes().to_vec();
        assert!(malformed(&assemble(&plonk)).contains("PLONK"));
        let mut other = sections.clone();
        *section(&mut other, 1) = 7u32.to_le_bytes().to_vec();
        assert!(malformed(&assemble(&other)).contains("unknown protocol 7"));
        let mut curve = sections.clone();
        section(&mut curve, 2)[4] ^= 1;
        assert!(malformed(&assemble(&curve)).contains("BN254"));
        let mut version = assemble(sections);
        version[4] = 2;
        assert!(malformed(&version).contains("version 2"));
    }

    #[test]
    fn bad_points_are_refused() {
        let (_, sections) = synthetic();
        // A coordinate of A[10] pushed off the curve.
        let mut off = sections.clone();
        section(&mut off, 5)[10 * 64] ^= 1;
        assert!(malformed(&assemble(&off)).contains("A[10] (section 5) is not on the curve"));
        // A coordinate at q or above.
        let mut big = sections.clone();
        section(&mut big, 9)[3 * 64..3 * 64 + 32].fill(0xff);
        assert!(
            malformed(&assemble(&big)).contains("H[3] (section 9): a coordinate is not below q")
        );
        // delta2 at infinity; gamma2 outside the subgroup (a point on the twist's curve
        // that is not in G2).
        let mut inf = sections.clone();
        let at = 84 + 64 + 64 + 128 + 128 + 64;
        section(&mut inf, 2)[at..at + 128].fill(0);
        assert!(malformed(&assemble(&inf)).contains("delta2 is the point at infinity"));
        let mut rng = rand_chacha::ChaCha20Rng::seed_from_u64(3);
        let outside = loop {
            let x = Fq2::new(Fq::from(rng.next_u64()), Fq::from(3u64));
            if let Some(p) = G2Affine::get_point_from_x_unchecked(x, false) {
                if !p.is_in_correct_subgroup_assuming_on_curve() {
                    break p;
                }
            }
        };
        let mut sub = sections.clone();
        let at = 84 + 64 + 64 + 128;
        section(&mut sub, 2)[at..at + 128].copy_from_slice(&g2_bytes(&outside));
        assert!(malformed(&assemble(&sub)).contains("gamma2 is not in the G2 subgroup"));
    }

    #[test]
    fn a_zkey_for_another_circuit_is_wrong_circuit() {
        let (_, sections) = synthetic();
        let r = r1cs::withdraw();
        // One coefficient's value changed: the error names it.
        let mut changed = sections.clone();
        let s4 = section(&mut changed, 4);
        let at = 4 + 5 * COEFF_BYTES;
        let entry = (u32_at(s4, at), u32_at(s4, at + 4), u32_at(s4, at + 8));
        s4[at + 12] ^= 1;
        let reason = wrong_circuit(&assemble(&changed));
        assert!(
            reason.contains(&format!("{}: ", describe(entry))) && reason.contains("in the zkey"),
            "{reason}"
        );
        // One coefficient moved to another wire.
        let mut moved = sections.clone();
        let s4 = section(&mut moved, 4);
        let at = 4 + 7 * COEFF_BYTES + 8;
        let wire = u32_at(s4, at);
        s4[at..at + 4].copy_from_slice(&(wire + 1).to_le_bytes());
        let reason = wrong_circuit(&assemble(&moved));
        assert!(reason.contains("it lacks") || reason.contains("the circuit does not"));
        // The last coefficient dropped.
        let mut fewer = sections.clone();
        let s4 = section(&mut fewer, 4);
        s4.truncate(s4.len() - COEFF_BYTES);
        let count = u32_at(s4, 0) - 1;
        s4[..4].copy_from_slice(&count.to_le_bytes());
        let reason = wrong_circuit(&assemble(&fewer));
        assert!(
            reason.contains(&format!(
                "it lacks A row {}, wire 1",
                r.num_constraints() + 1
            )),
            "{reason}"
        );
        // Another shape.
        let mut public = sections.clone();
        section(&mut public, 2)[76] = 5;
        let reason = wrong_circuit(&assemble(&public));
        assert!(
            reason.contains("5 public input(s)") && reason.contains("neither of tronpool's"),
            "{reason}"
        );
        let mut vars = sections.clone();
        section(&mut vars, 2)[72..76].copy_from_slice(&100u32.to_le_bytes());
        section(&mut vars, 2)[80..84].copy_from_slice(&16384u32.to_le_bytes());
        let reason = wrong_circuit(&assemble(&vars));
        assert!(
            reason.contains("100 variables") && reason.contains("domain size 16384"),
            "{reason}"
        );
    }
}
