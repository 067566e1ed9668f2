//! What `snarkjs zkey verify` checks, natively: that a Groth16 `.zkey` derives from the
//! circuit it is for (withdraw or batch) and a Phase 1 transcript (`.ptau`) through the
//! contributions it records.
//!
//! 1. The initial key `snarkjs groth16 setup` would make is recomputed from the circuit and
//!    the ptau's Lagrange sections, and everything a contribution does not touch must equal
//!    it exactly: α, β, γ (the G2 generator), the IC, A, B1 and B2 queries and the A/B
//!    coefficients.
//! 2. The parts a contribution does change, δ and the C (L) and H queries, must be the initial
//!    ones divided by the final δ: a random linear combination of each query, compared by
//!    pairing. A key whose C query was made for another constraint system fails here, though
//!    its A/B coefficients (all a prover reads) are ours.
//! 3. The contributions (section 10) form a chain from δ = 1 to the key's δ. Each records the
//!    δ after it and a proof of knowledge of its factor: a G1 pair `(s, s·x)` and `r·x` in G2,
//!    where `r` is derived from the transcript hash so far (which covers the circuit's hash
//!    and every earlier contribution), so a contribution cannot be replayed from another
//!    ceremony, and pairings check that one `x` relates the pair, the G2 point and the δ
//!    before and after. A beacon contribution (type 1) must also be the one its public
//!    parameters derive.
//!
//! A passing check proves the key was derived this way; it does not prove any contributor kept
//! their factor secret, nor that the beacon was unpredictable (docs/ceremony.md).
//!
//! snarkjs derives the G2 point of each proof and the beacon's key with ffjavascript's
//! generators (ChaCha20 seeded by a hash, field elements read as Montgomery forms, points by
//! trial x-coordinates and a sign bit); they are reproduced here from that description, and the
//! tests check them against keys and logs snarkjs made.

use std::fmt::Write as _;

use ark_bn254::{Bn254, Fq, Fq2, Fr, G1Affine, G1Projective, G2Affine};
use ark_ec::pairing::Pairing;
use ark_ec::short_weierstrass::{Affine, Projective, SWCurveConfig};
use ark_ec::{AffineRepr, CurveConfig, CurveGroup, VariableBaseMSM};
use ark_ff::{BigInt, BigInteger, Field, One, PrimeField, Zero};
use ark_groth16::ProvingKey;
use blake2::{Blake2b512, Digest};
use rand_chacha::ChaCha20Rng;
use rand_core::{OsRng, RngCore, SeedableRng};
use rayon::prelude::*;
use sha2::Sha256;

use crate::circuits::Circuit;
use crate::keys::KeyError;
use crate::ptau::Ptau;
use crate::r1cs::R1cs;
use crate::zkey::{self, Context, G1_BYTES, G2_BYTES};

/// How [`verify`]'s errors name the zkey and the ptau ([`KeyError::Malformed`]'s `what`).
pub const ZKEY: &str = "the zkey";
pub const PTAU: &str = "the ptau";

/// Why a zkey does not verify.
#[derive(Debug, thiserror::Error)]
pub enum VerifyError {
    /// The zkey or the ptau cannot be read, or the zkey is not for either circuit's shape
    /// and coefficients.
    #[error(transparent)]
    Key(#[from] KeyError),
    /// The ptau is too small for the circuit.
    #[error("the ptau has 2^{power} powers; the {circuit} circuit needs 2^{needed}")]
    PtauTooSmall {
        power: u32,
        needed: u32,
        circuit: Circuit,
    },
    /// The zkey is readable but does not derive from the circuit and the ptau.
    #[error("{0}")]
    Mismatch(String),
}

fn mismatch(reason: impl Into<String>) -> VerifyError {
    VerifyError::Mismatch(reason.into())
}

/// A beacon contribution's public parameters: its key is derived from the hash by
/// `2^iterations_exp` rounds of SHA-256.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Beacon {
    pub hash: Vec<u8>,
    pub iterations_exp: u8,
}

/// One verified contribution.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Contribution {
    /// 1 for the first, as snarkjs numbers them.
    pub index: usize,
    pub name: Option<String>,
    /// BLAKE2b-512 of the contribution's public key and transcript: what `snarkjs zkey
    /// contribute` told the contributor, so each can find theirs ([`format_hash`]).
    pub hash: [u8; 64],
    pub beacon: Option<Beacon>,
}

/// What a passing verification established.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Report {
    /// The circuit the zkey is for, told by its sizes and checked by its coefficients.
    pub circuit: Circuit,
    /// The ptau's power: it holds `2^power` powers of τ.
    pub ptau_power: u32,
    /// The circuit hash snarkjs prints (BLAKE2b-512 of the initial key).
    pub circuit_hash: [u8; 64],
    /// Whether [`Report::circuit_hash`] was recomputed from the circuit and the ptau (and
    /// matched), or taken as the zkey records it: snarkjs hashes bytes past a ptau of the
    /// circuit's own power for domains of 2^15 and more (`snarkjs_h_points`). The key itself
    /// is checked either way.
    pub circuit_hash_recomputed: bool,
    pub contributions: Vec<Contribution>,
}

impl Report {
    /// Whether the last contribution is a beacon, as a ceremony that ends in public
    /// randomness is.
    pub fn ends_with_beacon(&self) -> bool {
        self.contributions
            .last()
            .is_some_and(|c| c.beacon.is_some())
    }
}

/// A 64-byte hash as snarkjs prints it: four lines of four 8-digit hexadecimal words.
pub fn format_hash(hash: &[u8; 64]) -> String {
    let mut out = String::new();
    for (i, word) in hash.chunks(4).enumerate() {
        if i > 0 {
            out.push(if i % 4 == 0 { '\n' } else { ' ' });
        }
        for b in word {
            let _ = write!(out, "{b:02x}");
        }
    }
    out
}

// --- ffjavascript's random generators -----------------------------------------------------

/// ffjavascript's `ChaCha`: the ChaCha20 block function keyed by eight words, nonce zero,
/// counter from zero, words taken in order (a 64-bit read is high word first).
struct SnarkjsRng(ChaCha20Rng);

impl SnarkjsRng {
    /// Seeded by the first 32 bytes of `hash`, read as big-endian words.
    fn from_hash(hash: &[u8]) -> Self {
        let mut key = [0u8; 32];
        for (i, word) in hash[..32].chunks(4).enumerate() {
            let w = u32::from_be_bytes([word[0], word[1], word[2], word[3]]);
            key[4 * i..4 * i + 4].copy_from_slice(&w.to_le_bytes());
        }
        SnarkjsRng(ChaCha20Rng::from_seed(key))
    }

    fn next_u32(&mut self) -> u32 {
        self.0.next_u32()
    }

    fn next_u64(&mut self) -> u64 {
        let hi = u64::from(self.next_u32());
        (hi << 32) | u64::from(self.next_u32())
    }

    /// A field element: 256 random bits cut to the modulus' length, retried until below it,
    /// then taken as a Montgomery form (ffjavascript stores them so), i.e. divided by 2^256.
    fn field<F: PrimeField<BigInt = BigInt<4>>>(&mut self) -> F {
        let top_bits = F::MODULUS_BIT_SIZE - 192;
        loop {
            let mut limbs = [0u64; 4];
            for limb in &mut limbs {
                *limb = self.next_u64();
            }
            limbs[3] &= (1u64 << top_bits) - 1;
            if let Some(v) = F::from_bigint(BigInt::new(limbs)) {
                return v * montgomery_r_inverse::<F>();
            }
        }
    }

    fn fq2(&mut self) -> Fq2 {
        let c0 = self.field::<Fq>();
        let c1 = self.field::<Fq>();
        Fq2::new(c0, c1)
    }

    fn bit(&mut self) -> bool {
        self.next_u32() & 1 == 1
    }

    /// A G1 point: random x until `x³ + b` is a square, then the root whose sign is a random
    /// bit (BN254's G1 has no cofactor).
    fn g1(&mut self) -> G1Affine {
        loop {
            let x = self.field::<Fq>();
            let greatest = self.bit();
            let rhs = x.square() * x + ark_bn254::g1::Config::COEFF_B;
            if let Some(y) = rhs.sqrt() {
                let y = if fq_is_negative(&y) == greatest {
                    y
                } else {
                    -y
                };
                return G1Affine::new_unchecked(x, y);
            }
        }
    }

    /// A G2 point as [`SnarkjsRng::g1`] makes one, then times the cofactor (a plain
    /// multiplication, as ffjavascript does, not a faster map to the subgroup).
    fn g2(&mut self) -> G2Affine {
        loop {
            let x = self.fq2();
            let greatest = self.bit();
            let rhs = x.square() * x + ark_bn254::g2::Config::COEFF_B;
            if let Some(y) = rhs.sqrt() {
                let y = if fq2_is_negative(&y) == greatest {
                    y
                } else {
                    -y
                };
                let p = G2Affine::new_unchecked(x, y);
                return p
                    .mul_bigint(<ark_bn254::g2::Config as CurveConfig>::COFACTOR)
                    .into_affine();
            }
        }
    }
}

/// `2^-256` in `F`: a Montgomery form read as a value is the value times 2^256.
fn montgomery_r_inverse<F: PrimeField>() -> F {
    F::from(2u64)
        .pow([256u64])
        .inverse()
        .unwrap_or_else(F::zero)
}

/// ffjavascript's sign: above (q − 1)/2.
fn fq_is_negative(x: &Fq) -> bool {
    let mut half = Fq::MODULUS;
    half.div2();
    x.into_bigint() > half
}

/// The sign of the c1 part, or of c0 when c1 is zero.
fn fq2_is_negative(x: &Fq2) -> bool {
    if x.c1.is_zero() {
        fq_is_negative(&x.c0)
    } else {
        fq_is_negative(&x.c1)
    }
}

/// The G2 point a contribution's proof of knowledge is made against: derived from the
/// transcript hash, so no contributor chooses it.
fn hash_to_g2(transcript: &[u8; 64]) -> G2Affine {
    SnarkjsRng::from_hash(transcript).g2()
}

// --- encodings hashed into transcripts ---------------------------------------------------------

/// A G1 point as snarkjs hashes it: x and y big-endian, 64 zero bytes for infinity.
fn g1_uncompressed(p: &G1Affine) -> [u8; 64] {
    let mut out = [0u8; 64];
    if let Some((x, y)) = p.xy() {
        out[..32].copy_from_slice(&x.into_bigint().to_bytes_be());
        out[32..].copy_from_slice(&y.into_bigint().to_bytes_be());
    }
    out
}

/// A G2 point as snarkjs hashes it: each coordinate big-endian with c1 before c0.
fn g2_uncompressed(p: &G2Affine) -> [u8; 128] {
    let mut out = [0u8; 128];
    if let Some((x, y)) = p.xy() {
        for (i, c) in [x.c1, x.c0, y.c1, y.c0].iter().enumerate() {
            out[32 * i..32 * (i + 1)].copy_from_slice(&c.into_bigint().to_bytes_be());
        }
    }
    out
}

/// `e(a1, b2) = e(b1, a2)`: `b1/a1` in G1 is the ratio `b2/a2` in G2. None of the points
/// may be the identity (which would make the equation hold for any ratio).
fn same_ratio(a1: &G1Affine, b1: &G1Affine, a2: &G2Affine, b2: &G2Affine) -> bool {
    if a1.is_zero() || b1.is_zero() || a2.is_zero() || b2.is_zero() {
        return false;
    }
    Bn254::multi_pairing([*a1, -*b1], [*b2, *a2]).is_zero()
}

// --- the contributions section ---------------------------------------------------------------

struct Recorded {
    delta_after: G1Affine,
    g1_s: G1Affine,
    g1_sx: G1Affine,
    g2_spx: G2Affine,
    transcript: [u8; 64],
    kind: u32,
    name: Option<String>,
    beacon_hash: Option<Vec<u8>>,
    iterations_exp: Option<u8>,
}

impl Recorded {
    /// What snarkjs hashes of a contribution into the transcript and its contribution hash.
    fn public_key_bytes(&self) -> Vec<u8> {
        let mut out = Vec::with_capacity(3 * 64 + 128 + 64);
        out.extend_from_slice(&g1_uncompressed(&self.delta_after));
        out.extend_from_slice(&g1_uncompressed(&self.g1_s));
        out.extend_from_slice(&g1_uncompressed(&self.g1_sx));
        out.extend_from_slice(&g2_uncompressed(&self.g2_spx));
        out.extend_from_slice(&self.transcript);
        out
    }
}

/// A little reader over section 10.
struct Cursor<'a, 'c> {
    b: &'a [u8],
    at: usize,
    cx: &'c Context<'c>,
}

impl<'a> Cursor<'a, '_> {
    fn take(&mut self, n: usize) -> Result<&'a [u8], KeyError> {
        let out = self.b.get(self.at..self.at + n).ok_or_else(|| {
            self.cx
                .malformed("section 10 (the contributions) is cut off")
        })?;
        self.at += n;
        Ok(out)
    }

    fn u8(&mut self) -> Result<u8, KeyError> {
        Ok(self.take(1)?[0])
    }

    fn u32(&mut self) -> Result<u32, KeyError> {
        Ok(zkey::u32_at(self.take(4)?, 0))
    }

    fn g1(&mut self, name: &str) -> Result<G1Affine, KeyError> {
        let b = self.take(G1_BYTES)?;
        zkey::g1(b, &|| name.to_owned(), self.cx)
    }

    fn g2(&mut self, name: &str) -> Result<G2Affine, KeyError> {
        let b = self.take(G2_BYTES)?;
        let p = zkey::g2(b, &|| name.to_owned(), self.cx)?;
        if !p.is_in_correct_subgroup_assuming_on_curve() {
            return Err(self
                .cx
                .malformed(format!("{name} is not in the G2 subgroup")));
        }
        Ok(p)
    }
}

fn read_contributions(
    section: &[u8],
    cx: &Context<'_>,
) -> Result<([u8; 64], Vec<Recorded>), KeyError> {
    let mut r = Cursor {
        b: section,
        at: 0,
        cx,
    };
    let mut circuit_hash = [0u8; 64];
    circuit_hash.copy_from_slice(r.take(64)?);
    let count = r.u32()?;
    let mut out = Vec::new();
    for i in 1..=count {
        let what = |part: &str| format!("contribution {i}'s {part}");
        let delta_after = r.g1(&what("delta after"))?;
        let g1_s = r.g1(&what("g1_s"))?;
        let g1_sx = r.g1(&what("g1_sx"))?;
        let g2_spx = r.g2(&what("g2_spx"))?;
        let mut transcript = [0u8; 64];
        transcript.copy_from_slice(r.take(64)?);
        let kind = r.u32()?;
        let length = r.u32()? as usize;
        let end = r.at + length;
        let (mut name, mut beacon_hash, mut iterations_exp) = (None, None, None);
        let mut last = 0u8;
        while r.at < end {
            let tag = r.u8()?;
            if tag <= last {
                return Err(cx.malformed(format!("contribution {i}'s parameters are not sorted")));
            }
            last = tag;
            match tag {
                1 => {
                    let n = r.u8()? as usize;
                    name = Some(String::from_utf8_lossy(r.take(n)?).into_owned());
                }
                2 => iterations_exp = Some(r.u8()?),
                3 => {
                    let n = r.u8()? as usize;
                    beacon_hash = Some(r.take(n)?.to_vec());
                }
                t => {
                    return Err(cx.malformed(format!("contribution {i} has parameter {t}")));
                }
            }
        }
        if r.at != end {
            return Err(cx.malformed(format!(
                "contribution {i}'s parameters overrun their length"
            )));
        }
        out.push(Recorded {
            delta_after,
            g1_s,
            g1_sx,
            g2_spx,
            transcript,
            kind,
            name,
            beacon_hash,
            iterations_exp,
        });
    }
    if r.at != section.len() {
        return Err(cx.malformed(format!(
            "{} bytes after the contributions in section 10",
            section.len() - r.at
        )));
    }
    Ok((circuit_hash, out))
}

/// The most SHA-256 rounds (as a power of two) a beacon may ask for: minutes of work on one core.
pub const MAX_BEACON_EXP: u8 = 32;

/// The key a beacon's parameters derive: SHA-256 iterated `2^exp` times on the hash seeds
/// the generator, which gives δ's factor, then the G1 point of its proof.
fn beacon_key(hash: &[u8], exp: u8) -> (G1Affine, G1Affine) {
    let mut cur: Vec<u8> = hash.to_vec();
    let rounds = 1u128 << exp;
    let mut i = 0u128;
    while i < rounds {
        cur = Sha256::digest(&cur).to_vec();
        i += 1;
    }
    let mut rng = SnarkjsRng::from_hash(&cur);
    let factor = rng.field::<Fr>();
    let g1_s = rng.g1();
    let g1_sx = (g1_s * factor).into_affine();
    (g1_s, g1_sx)
}

// --- the initial key ----------------------------------------------------------------------

/// The δ-independent queries and the δ = 1 queries of `snarkjs groth16 setup`.
struct Initial {
    ic: Vec<G1Affine>,
    a: Vec<G1Affine>,
    b1: Vec<G1Affine>,
    b2: Vec<G2Affine>,
    c: Vec<G1Affine>,
    h: Vec<G1Affine>,
}

/// Outputs with more terms than this are summed by one MSM each; the rest by scalar
/// multiplications, many outputs at a time.
const MSM_FROM: usize = 32;

/// Sums `Σ v·base` per output into affine points. arkworks' MSM starts a thread pool per
/// call, which costs more than a short sum saves and, nested in a parallel loop, lets waiting
/// threads stack stolen work deep enough to overflow: short sums are plain scalar
/// multiplications in parallel, the long ones (a few hundred B rows) one MSM after the other.
fn combine<C: SWCurveConfig<ScalarField = Fr>>(
    terms: &[(Vec<Affine<C>>, Vec<Fr>)],
) -> Vec<Affine<C>> {
    let mut sums: Vec<Projective<C>> = terms
        .par_iter()
        .map(|(bases, scalars)| {
            if bases.len() > MSM_FROM {
                return Projective::<C>::zero();
            }
            bases.iter().zip(scalars).map(|(b, s)| *b * s).sum()
        })
        .collect();
    for (sum, (bases, scalars)) in sums.iter_mut().zip(terms) {
        if bases.len() > MSM_FROM {
            *sum = Projective::<C>::msm_unchecked(bases, scalars);
        }
    }
    Projective::<C>::normalize_batch(&sums)
}

/// The setup's queries for `r` from the ptau, as snarkjs composes them: A and B from the
/// Lagrange basis of τ (one extra A row per instance variable), the IC (public wires) and C
/// (private wires) from `β·A + α·B + C`, H the odd Lagrange points of the doubled domain.
fn initial(r: &R1cs, ptau: &Ptau<'_>) -> Result<Initial, VerifyError> {
    let n = r.domain_size();
    let lag = ptau.lagrange(n)?;
    let wires = r.num_wires();
    let n_public = r.num_public();
    type Terms<P> = Vec<(Vec<P>, Vec<Fr>)>;
    let mut a: Terms<G1Affine> = vec![(Vec::new(), Vec::new()); wires];
    let mut b1: Terms<G1Affine> = vec![(Vec::new(), Vec::new()); wires];
    let mut b2: Terms<G2Affine> = vec![(Vec::new(), Vec::new()); wires];
    // IC then C: one list per wire, split at n_public + 1.
    let mut k: Terms<G1Affine> = vec![(Vec::new(), Vec::new()); wires];
    let push = |list: &mut (Vec<G1Affine>, Vec<Fr>), p: G1Affine, v: Fr| {
        list.0.push(p);
        list.1.push(v);
    };
    for row in 0..r.num_constraints() {
        for &(wire, v) in &r.a[row] {
            push(&mut a[wire], lag.tau_g1[row], v);
            push(&mut k[wire], lag.beta_tau_g1[row], v);
        }
        for &(wire, v) in &r.b[row] {
            push(&mut b1[wire], lag.tau_g1[row], v);
            b2[wire].0.push(lag.tau_g2[row]);
            b2[wire].1.push(v);
            push(&mut k[wire], lag.alpha_tau_g1[row], v);
        }
        for &(wire, v) in &r.c[row] {
            push(&mut k[wire], lag.tau_g1[row], v);
        }
    }
    for wire in 0..=n_public {
        let row = r.num_constraints() + wire;
        push(&mut a[wire], lag.tau_g1[row], Fr::one());
        push(&mut k[wire], lag.beta_tau_g1[row], Fr::one());
    }
    let c = k.split_off(n_public + 1);
    Ok(Initial {
        ic: combine(&k),
        a: combine(&a),
        b1: combine(&b1),
        b2: combine(&b2),
        c: combine(&c),
        h: ptau.h_query(n)?,
    })
}

/// The circuit hash snarkjs records: BLAKE2b-512 over the initial key as `groth16 setup`
/// writes it (α, β, γ, δ = 1, then each query with its length, H as `τ^(n+i) − τ^i`).
/// `None` when snarkjs hashed bytes past the ptau's powers of τ, which no point of the ptau
/// gives (see [`snarkjs_h_points`]).
fn circuit_hash(
    init: &Initial,
    ptau: &Ptau<'_>,
    n: usize,
    (alpha, beta1, beta2): (G1Affine, G1Affine, G2Affine),
) -> Result<Option<[u8; 64]>, VerifyError> {
    let mut h = Blake2b512::new();
    let g1 = G1Affine::generator();
    let g2 = G2Affine::generator();
    h.update(g1_uncompressed(&alpha));
    h.update(g1_uncompressed(&beta1));
    h.update(g2_uncompressed(&beta2));
    h.update(g2_uncompressed(&g2));
    h.update(g1_uncompressed(&g1));
    h.update(g2_uncompressed(&g2));
    let g1_list = |h: &mut Blake2b512, points: &[G1Affine]| {
        h.update((points.len() as u32).to_be_bytes());
        for p in points {
            h.update(g1_uncompressed(p));
        }
    };
    g1_list(&mut h, &init.ic);
    // The count snarkjs writes, then the points it actually hashes (see `snarkjs_h_points`).
    h.update(((n - 1) as u32).to_be_bytes());
    let points = snarkjs_h_points(n);
    if n + points > ptau.tau_g1_len() {
        return Ok(None);
    }
    let tau = ptau.tau_g1(n + points)?;
    let diffs: Vec<G1Projective> = (0..points)
        .into_par_iter()
        .map(|i| tau[i + n].into_group() - tau[i])
        .collect();
    for p in G1Projective::normalize_batch(&diffs) {
        h.update(g1_uncompressed(&p));
    }
    g1_list(&mut h, &init.c);
    g1_list(&mut h, &init.a);
    g1_list(&mut h, &init.b1);
    h.update((init.b2.len() as u32).to_be_bytes());
    for p in &init.b2 {
        h.update(g2_uncompressed(p));
    }
    Ok(Some(digest64(&h.finalize()[..])))
}

/// How many H points `snarkjs groth16 setup` (0.7) hashes into the circuit hash for a domain
/// of `n`: it announces `n − 1`, `τ^(n+i) − τ^i` for `i < n − 1`, but hashes them in chunks
/// of 2^14 that are each `min(n − 1, 2^14)` long rather than what is left (`hashHPoints` in
/// its `zkey_new.js`). Up to a domain of 2^14 that is `n − 1`; from 2^15 on, the last chunk
/// runs one point further, to `τ^(2n−1) − τ^(n−1)`. A ptau of the circuit's own power has
/// powers of τ up to `2n − 2` only: snarkjs then reads the next 64 bytes of the file (the
/// next section's header and first point) as that point's coordinates, and no field
/// arithmetic of ours reproduces what its wasm does with values that are not field elements.
/// The batch circuit's domain is 2^15: its key from a power-15 ptau records a circuit hash
/// that can only be taken as recorded (see [`Report::circuit_hash_recomputed`]).
fn snarkjs_h_points(n: usize) -> usize {
    const CHUNK: usize = 1 << 14;
    (n - 1).div_ceil(CHUNK) * (n - 1).min(CHUNK)
}

/// A BLAKE2b-512 output as an array.
fn digest64(d: &[u8]) -> [u8; 64] {
    let mut out = [0u8; 64];
    out.copy_from_slice(d);
    out
}

/// The first index where two queries differ.
fn first_difference<P: PartialEq + Sync>(ours: &[P], theirs: &[P]) -> Option<usize> {
    if ours.len() != theirs.len() {
        return Some(ours.len().min(theirs.len()));
    }
    (0..ours.len())
        .into_par_iter()
        .find_first(|&i| ours[i] != theirs[i])
}

/// Random 128-bit combination of a query: `Σ r_i·P_i`.
fn combination(points: &[G1Affine], scalars: &[Fr]) -> G1Affine {
    G1Projective::msm_unchecked(points, scalars).into_affine()
}

fn random_scalars(n: usize) -> Vec<Fr> {
    let mut rng = OsRng;
    (0..n)
        .map(|_| {
            let mut b = [0u8; 16];
            rng.fill_bytes(&mut b);
            Fr::from(u128::from_le_bytes(b))
        })
        .collect()
}

/// Verifies a zkey for one of tronpool's circuits (which one, the zkey's sizes tell) against
/// a prepared ptau, as `snarkjs zkey verify CIRCUIT.r1cs PTAU ZKEY` does (see the module
/// documentation); the first failure is the error.
pub fn verify(zkey_bytes: &[u8], ptau_bytes: &[u8]) -> Result<Report, VerifyError> {
    let (circuit, key) = zkey::read(zkey_bytes, ZKEY)?;
    let ptau = Ptau::parse(ptau_bytes, PTAU)?;
    verify_key(zkey_bytes, &key, &ptau, circuit)
}

fn verify_key(
    zkey_bytes: &[u8],
    key: &ProvingKey<Bn254>,
    ptau: &Ptau<'_>,
    circuit: Circuit,
) -> Result<Report, VerifyError> {
    let r = circuit.constraint_system();
    let n = r.domain_size();
    if !ptau.fits(n) {
        return Err(VerifyError::PtauTooSmall {
            power: ptau.power,
            needed: n.trailing_zeros(),
            circuit,
        });
    }
    let (alpha, beta1, beta2) = ptau.alpha_beta()?;
    let vk = &key.vk;
    for (ok, what) in [
        (vk.alpha_g1 == alpha, "alpha1"),
        (key.beta_g1 == beta1, "beta1"),
        (vk.beta_g2 == beta2, "beta2"),
    ] {
        if !ok {
            return Err(mismatch(format!(
                "its {what} is not the ptau's: the key was not set up from this ptau"
            )));
        }
    }
    if vk.gamma_g2 != G2Affine::generator() {
        return Err(mismatch(
            "its gamma2 is not the G2 generator that `snarkjs groth16 setup` puts there",
        ));
    }

    let init = initial(r, ptau)?;
    let same = |name: &str, diff: Option<usize>| match diff {
        None => Ok(()),
        Some(i) => Err(mismatch(format!(
            "its {name} query differs from the one this circuit and ptau give (point {i}): \
             the key was made for another circuit or another ptau"
        ))),
    };
    same("IC", first_difference(&init.ic, &vk.gamma_abc_g1))?;
    same("A", first_difference(&init.a, &key.a_query))?;
    same("B1", first_difference(&init.b1, &key.b_g1_query))?;
    same("B2", first_difference(&init.b2, &key.b_g2_query))?;

    // C (L) and H: the initial ones over the final δ.
    let g2 = G2Affine::generator();
    for (name, ours, theirs) in [
        ("C (L)", &init.c, &key.l_query),
        ("H", &init.h, &key.h_query),
    ] {
        if ours.len() != theirs.len() {
            return Err(mismatch(format!("its {name} query has the wrong length")));
        }
        let scalars = random_scalars(ours.len());
        let (r_init, r_final) = rayon::join(
            || combination(ours, &scalars),
            || combination(theirs, &scalars),
        );
        if !same_ratio(&r_init, &r_final, &vk.delta_g2, &g2) {
            return Err(mismatch(format!(
                "its {name} query is not this circuit's and ptau's divided by its δ: the key \
                 was made for another constraint system (or altered)"
            )));
        }
    }

    let cx = Context { what: ZKEY };
    let section = zkey::section_of(zkey_bytes, 10, &cx)?
        .ok_or_else(|| mismatch("it has no contributions section (10): not a snarkjs zkey"))?;
    let (recorded_hash, recorded) = read_contributions(section, &cx)?;
    let recomputed = circuit_hash(&init, ptau, n, (alpha, beta1, beta2))?;
    if recomputed.is_some_and(|hash| hash != recorded_hash) {
        return Err(mismatch(
            "the circuit hash it records is not the one this circuit and ptau give",
        ));
    }
    // Where it cannot be recomputed, the recorded hash roots the transcript: every part of
    // the key was compared with the circuit and the ptau above, so only the label the
    // contributors saw goes unchecked.
    let hash = recomputed.unwrap_or(recorded_hash);

    let mut transcript = Blake2b512::new();
    transcript.update(hash);
    let mut delta = G1Affine::generator();
    let mut contributions = Vec::new();
    for (i, c) in recorded.iter().enumerate() {
        let index = i + 1;
        let fail = |why: &str| Err(mismatch(format!("contribution {index}: {why}")));
        let mut ours = transcript.clone();
        ours.update(g1_uncompressed(&c.g1_s));
        ours.update(g1_uncompressed(&c.g1_sx));
        if ours.finalize()[..] != c.transcript[..] {
            return fail("its transcript hash does not follow the ones before it");
        }
        let sp = hash_to_g2(&c.transcript);
        if !same_ratio(&c.g1_s, &c.g1_sx, &sp, &c.g2_spx) {
            return fail("its proof of knowledge does not hold (G1 and G2 ratios differ)");
        }
        if !same_ratio(&delta, &c.delta_after, &sp, &c.g2_spx) {
            return fail("its δ does not follow from the δ before it by its proven factor");
        }
        let beacon = match c.kind {
            0 => None,
            1 => {
                let (Some(hash), Some(exp)) = (&c.beacon_hash, c.iterations_exp) else {
                    return fail("a beacon without its hash and iterations");
                };
                // snarkjs accepts 10 to 63; past 2^32 hashes a check would run for hours.
                if !(10..=MAX_BEACON_EXP).contains(&exp) {
                    return fail(&format!(
                        "a beacon of 2^{exp} hashes: only 2^10 to 2^{MAX_BEACON_EXP} are checked"
                    ));
                }
                let (g1_s, g1_sx) = beacon_key(hash, exp);
                if g1_s != c.g1_s || g1_sx != c.g1_sx {
                    return fail("a beacon whose key is not the one its hash derives");
                }
                Some(Beacon {
                    hash: hash.clone(),
                    iterations_exp: exp,
                })
            }
            k => return fail(&format!("an unknown contribution type {k}")),
        };
        let public = c.public_key_bytes();
        transcript.update(&public);
        contributions.push(Contribution {
            index,
            name: c.name.clone(),
            hash: digest64(&Blake2b512::digest(&public)[..]),
            beacon,
        });
        delta = c.delta_after;
    }
    if key.delta_g1 != delta {
        return Err(mismatch(
            "its delta1 is not the δ the last contribution recorded",
        ));
    }
    if !same_ratio(&G1Affine::generator(), &delta, &g2, &vk.delta_g2) {
        return Err(mismatch("its delta2 is not its delta1's counterpart in G2"));
    }
    Ok(Report {
        circuit,
        ptau_power: ptau.power,
        circuit_hash: hash,
        circuit_hash_recomputed: recomputed.is_some(),
        contributions,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn snarkjs_hashes_one_h_point_too_many_from_a_domain_of_2_15() {
        assert_eq!(snarkjs_h_points(1 << 13), (1 << 13) - 1);
        assert_eq!(snarkjs_h_points(1 << 14), (1 << 14) - 1);
        assert_eq!(snarkjs_h_points(1 << 15), 1 << 15);
        assert_eq!(snarkjs_h_points(1 << 16), 4 << 14);
    }

    #[test]
    fn hashes_print_as_snarkjs_prints_them() {
        let mut h = [0u8; 64];
        for (i, b) in h.iter_mut().enumerate() {
            *b = i as u8;
        }
        let text = format_hash(&h);
        let lines: Vec<&str> = text.lines().collect();
        assert_eq!(lines.len(), 4);
        assert_eq!(lines[0], "00010203 04050607 08090a0b 0c0d0e0f");
        assert_eq!(lines[3], "30313233 34353637 38393a3b 3c3d3e3f");
    }

    #[test]
    fn generated_points_are_in_their_groups() {
        let mut rng = SnarkjsRng::from_hash(&[7u8; 64]);
        let p = rng.g1();
        assert!(p.is_on_curve());
        let q = rng.g2();
        assert!(q.is_on_curve() && q.is_in_correct_subgroup_assuming_on_curve() && !q.is_zero());
        let x: Fr = rng.field();
        assert!(!x.is_zero());
    }

    #[test]
    fn same_ratio_holds_for_one_factor_and_not_for_another() {
        let x = Fr::from(12345u64);
        let g1 = G1Affine::generator();
        let g2 = G2Affine::generator();
        let (a1, b1) = (g1, (g1 * x).into_affine());
        let (a2, b2) = (g2, (g2 * x).into_affine());
        assert!(same_ratio(&a1, &b1, &a2, &b2));
        let other = (g2 * (x + Fr::one())).into_affine();
        assert!(!same_ratio(&a1, &b1, &a2, &other));
        assert!(!same_ratio(&G1Affine::zero(), &G1Affine::zero(), &a2, &b2));
    }
}
