//! Eight Poseidon(2) hashes at once on AVX-512 IFMA, for the many independent hashes of a
//! tree level: the same function as [`super::fast::hash2`], in the same optimised form and
//! from the same tables, with the field arithmetic moved onto the vector unit.
//!
//! # Why
//!
//! A scalar BN254 multiplication is 32 64-bit multiplies and is bound by the one integer
//! multiplier a core has: about 17–19 ns on the machine BENCHMARKS.md names, whether the
//! multiplications depend on each other or not. A Poseidon(2) is about 600 of them, so a tree
//! of 2^20 leaves is about 20 CPU-seconds. IFMA (`vpmadd52luq`/`vpmadd52huq`) multiplies eight
//! pairs of 52-bit numbers per instruction, and a field multiplication of eight lanes takes
//! about 105 of them: 5–6.5 ns a lane on the same machine, three to four times less.
//!
//! # The representation
//!
//! A lane holds a field element `x` as `x · 2^260 mod p` (Montgomery form with `R = 2^260`, not
//! arkworks' `2^256`) in five limbs of 52 bits, limb `i` of all eight lanes in one register.
//! Values are kept only partly reduced: a product of two values below `8p` is below `1.76p`
//! (`(a·b + m·p) / R < 64p²/2^260 + p`, and `64p < 2^260 · 0.76`), a sum of three products,
//! reduced once (`dot`), is below `3.3p`, a sum plus a round constant below `4.3p`. The one
//! place values would grow — the partial rounds' `s_j += column_j · s₀`, 57 times in a row —
//! subtracts `4p` whenever a lane reaches it, which keeps those lanes below `4p`. Every multiplication's inputs are
//! therefore below `8p < 2^257`, and every limb handed to a multiplier below `2^52` (the
//! instructions read only a limb's low 52 bits, so carries are propagated after each sum).
//! Only the output is fully reduced, once, on leaving.
//!
//! # Safety
//!
//! The only `unsafe` outside the tests is the call into [`hash_groups`] after [`available`]
//! has asked the CPU whether it has AVX-512F and IFMA (the tests make the same call after the
//! same question); everything inside is safe code compiled for those
//! features. Without them the caller falls back to the scalar hash.

use std::arch::x86_64::{
    __m512i, _mm256_extract_epi64, _mm512_add_epi64, _mm512_and_si512, _mm512_cmplt_epi64_mask,
    _mm512_extracti64x4_epi64, _mm512_madd52hi_epu64, _mm512_madd52lo_epu64,
    _mm512_mask_blend_epi64, _mm512_set_epi64, _mm512_set1_epi64, _mm512_setzero_si512,
    _mm512_srai_epi64, _mm512_srli_epi64, _mm512_sub_epi64,
};
use std::sync::OnceLock;

use ark_ff::{BigInt, BigInteger, Field, PrimeField};

use super::fast::{HALF_FULL, tables3};
use crate::Fr;

/// How many hashes one call of the vector permutation makes.
pub(crate) const LANES: usize = 8;

const MASK52: u64 = (1 << 52) - 1;

/// One constant as five 52-bit limbs, broadcast to all lanes where it is used.
type Limbs = [u64; 5];

/// Whether this CPU can run [`hash_groups`]. `is_x86_feature_detected!` caches its answer, so
/// asking on every call costs a load.
pub(crate) fn available() -> bool {
    std::arch::is_x86_feature_detected!("avx512f")
        && std::arch::is_x86_feature_detected!("avx512ifma")
}

/// `out[i] = hash2(pairs[2i], pairs[2i + 1])` for the first `8 · ⌊out.len() / 8⌋` outputs,
/// eight at a time; returns how many it made, or 0 on a CPU without AVX-512 IFMA. The rest is
/// the caller's, with the scalar hash.
pub(crate) fn hash2_pairs(pairs: &[Fr], out: &mut [Fr]) -> usize {
    debug_assert_eq!(pairs.len(), 2 * out.len());
    if !available() {
        return 0;
    }
    let tables = tables();
    #[allow(unsafe_code)]
    // SAFETY: `available()` has just confirmed that the CPU executes AVX-512F and AVX-512 IFMA
    // instructions, the only target features `hash_groups` is compiled with beyond the baseline.
    unsafe {
        hash_groups(tables, pairs, out)
    }
}

/// The t = 3 tables of [`super::fast`], each constant moved into this module's form.
struct Tables {
    /// The modulus `p`.
    p: Limbs,
    /// `4p`, subtracted from the partial rounds' growing lanes.
    p4: Limbs,
    /// `-p⁻¹ mod 2^52`, the Montgomery reduction's factor.
    p_inv: u64,
    /// `2^520 mod p`: multiplying a plain value by it enters the form (`x · R² / R`).
    r2: Limbs,
    first_lane0: Limbs,
    first_constants: [[Limbs; 3]; HALF_FULL],
    mds: [[Limbs; 3]; 3],
    pre_partial: [[Limbs; 3]; 3],
    /// Per partial round: the lane-0 constant, the sparse matrix's first row, its first
    /// column (index 0 unused).
    partial: Box<[PartialRound]>,
    last_constants: [[Limbs; 3]; HALF_FULL],
}

/// A partial round's lane-0 constant, first row and first column (index 0 unused).
type PartialRound = (Limbs, [Limbs; 3], [Limbs; 3]);

fn tables() -> &'static Tables {
    static TABLES: OnceLock<Tables> = OnceLock::new();
    TABLES.get_or_init(Tables::derive)
}

/// The limbs of a plain integer below 2^260.
fn limbs(x: &BigInt<4>) -> Limbs {
    let w = x.0;
    [
        w[0] & MASK52,
        ((w[0] >> 52) | (w[1] << 12)) & MASK52,
        ((w[1] >> 40) | (w[2] << 24)) & MASK52,
        ((w[2] >> 28) | (w[3] << 36)) & MASK52,
        w[3] >> 16,
    ]
}

/// The integer five limbs below 2^52 each (and the top one below 2^48) spell.
fn from_limbs(l: Limbs) -> BigInt<4> {
    BigInt([
        l[0] | (l[1] << 52),
        (l[1] >> 12) | (l[2] << 40),
        (l[2] >> 24) | (l[3] << 28),
        (l[3] >> 36) | (l[4] << 16),
    ])
}

impl Tables {
    fn derive() -> Self {
        let fast = tables3();
        let r = Fr::from(2u64).pow([260]);
        // A constant `c` in the form: the plain integer `c · 2^260 mod p`.
        let enter = |c: &Fr| limbs(&(*c * r).into_bigint());
        let enter3 = |row: &[Fr; 3]| row.each_ref().map(enter);
        let p = Fr::MODULUS;
        let mut p4 = p;
        p4.add_with_carry(&p);
        p4.add_with_carry(&p4.clone());
        // -p⁻¹ mod 2^52 by Newton's iteration on the lowest limb (each step doubles the
        // correct low bits: 1 → 2 → … → 64).
        let p0 = p.0[0];
        let mut inverse: u64 = 1;
        for _ in 0..6 {
            inverse = inverse.wrapping_mul(2u64.wrapping_sub(p0.wrapping_mul(inverse)));
        }
        Tables {
            p: limbs(&p),
            p4: limbs(&p4),
            p_inv: inverse.wrapping_neg() & MASK52,
            r2: limbs(&Fr::from(2u64).pow([520]).into_bigint()),
            first_lane0: enter(&fast.first_lane0),
            first_constants: fast.first_constants.each_ref().map(enter3),
            mds: fast.mds.each_ref().map(enter3),
            pre_partial: fast.pre_partial.each_ref().map(enter3),
            partial: fast
                .partial
                .iter()
                .map(|round| {
                    (
                        enter(&round.constant),
                        enter3(&round.row),
                        enter3(&round.column),
                    )
                })
                .collect(),
            last_constants: fast.last_constants.each_ref().map(enter3),
        }
    }
}

/// Eight field elements, limb `i` of each in `self.0[i]`.
#[derive(Clone, Copy)]
struct Lanes([__m512i; 5]);

/// The arithmetic, with the constants it needs at hand.
struct Field8<'t> {
    t: &'t Tables,
    p: [__m512i; 5],
    p4: [__m512i; 5],
    p_inv: __m512i,
    mask: __m512i,
}

impl<'t> Field8<'t> {
    #[target_feature(enable = "avx512f,avx512ifma")]
    fn new(t: &'t Tables) -> Self {
        Field8 {
            t,
            p: splat(&t.p).0,
            p4: splat(&t.p4).0,
            p_inv: _mm512_set1_epi64(t.p_inv as i64),
            mask: _mm512_set1_epi64(MASK52 as i64),
        }
    }

    /// Propagates carries so that every limb but the top one is below 2^52.
    #[target_feature(enable = "avx512f,avx512ifma")]
    #[inline]
    fn carry(&self, mut l: [__m512i; 5]) -> Lanes {
        for j in 0..4 {
            l[j + 1] = _mm512_add_epi64(l[j + 1], _mm512_srli_epi64::<52>(l[j]));
            l[j] = _mm512_and_si512(l[j], self.mask);
        }
        Lanes(l)
    }

    /// `a · b / 2^260 mod p` (operand scanning, one reduction step per limb of `a`). For
    /// inputs below `8p` the result is below `1.76p`.
    #[target_feature(enable = "avx512f,avx512ifma")]
    #[inline]
    fn mul(&self, a: &Lanes, b: &Lanes) -> Lanes {
        let zero = _mm512_setzero_si512();
        let mut t = [zero; 6];
        for &ai in &a.0 {
            for j in 0..5 {
                t[j] = _mm512_madd52lo_epu64(t[j], ai, b.0[j]);
                t[j + 1] = _mm512_madd52hi_epu64(t[j + 1], ai, b.0[j]);
            }
            // m makes the lowest limb divisible by 2^52: m = t₀ · (−p⁻¹) mod 2^52.
            let m = _mm512_madd52lo_epu64(zero, t[0], self.p_inv);
            for j in 0..5 {
                t[j] = _mm512_madd52lo_epu64(t[j], m, self.p[j]);
                t[j + 1] = _mm512_madd52hi_epu64(t[j + 1], m, self.p[j]);
            }
            t[1] = _mm512_add_epi64(t[1], _mm512_srli_epi64::<52>(t[0]));
            t.copy_within(1..6, 0);
            t[5] = zero;
        }
        self.carry([t[0], t[1], t[2], t[3], t[4]])
    }

    #[target_feature(enable = "avx512f,avx512ifma")]
    #[inline]
    fn add(&self, a: &Lanes, b: &Lanes) -> Lanes {
        self.carry(std::array::from_fn(|j| _mm512_add_epi64(a.0[j], b.0[j])))
    }

    /// `a − 4p` in the lanes where `a ≥ 4p`, `a` elsewhere.
    #[target_feature(enable = "avx512f,avx512ifma")]
    #[inline]
    fn reduce4(&self, a: &Lanes) -> Lanes {
        let mut d: [__m512i; 5] = std::array::from_fn(|j| _mm512_sub_epi64(a.0[j], self.p4[j]));
        for j in 0..4 {
            d[j + 1] = _mm512_add_epi64(d[j + 1], _mm512_srai_epi64::<52>(d[j]));
            d[j] = _mm512_and_si512(d[j], self.mask);
        }
        let below = _mm512_cmplt_epi64_mask(d[4], _mm512_setzero_si512());
        Lanes(std::array::from_fn(|j| {
            _mm512_mask_blend_epi64(below, d[j], a.0[j])
        }))
    }

    #[target_feature(enable = "avx512f,avx512ifma")]
    #[inline]
    fn pow5(&self, x: &Lanes) -> Lanes {
        let x2 = self.mul(x, x);
        let x4 = self.mul(&x2, &x2);
        self.mul(&x4, x)
    }

    #[target_feature(enable = "avx512f,avx512ifma")]
    #[inline]
    fn add_const(&self, a: &Lanes, c: &Limbs) -> Lanes {
        self.add(a, &splat(c))
    }

    /// Row · state: the three double-width products summed, then one reduction instead of
    /// three. For inputs below `8p` the sum is below `3 · 64p²`, so the result is below
    /// `3 · 0.76p + p < 3.3p`.
    #[target_feature(enable = "avx512f,avx512ifma")]
    #[inline]
    fn dot(&self, row: &[Limbs; 3], s: &[Lanes; 3]) -> Lanes {
        let zero = _mm512_setzero_si512();
        // Each of the ten columns takes at most 3 · 10 products' halves below 2^52, and the
        // reduction 10 more: far below 2^64.
        let mut t = [zero; 11];
        for (constant, lane) in row.iter().zip(s) {
            let c = splat(constant);
            for (i, &ci) in c.0.iter().enumerate() {
                for (j, &xj) in lane.0.iter().enumerate() {
                    t[i + j] = _mm512_madd52lo_epu64(t[i + j], ci, xj);
                    t[i + j + 1] = _mm512_madd52hi_epu64(t[i + j + 1], ci, xj);
                }
            }
        }
        for i in 0..5 {
            let m = _mm512_madd52lo_epu64(zero, t[i], self.p_inv);
            for j in 0..5 {
                t[i + j] = _mm512_madd52lo_epu64(t[i + j], m, self.p[j]);
                t[i + j + 1] = _mm512_madd52hi_epu64(t[i + j + 1], m, self.p[j]);
            }
            t[i + 1] = _mm512_add_epi64(t[i + 1], _mm512_srli_epi64::<52>(t[i]));
        }
        self.carry([t[5], t[6], t[7], t[8], t[9]])
    }

    #[target_feature(enable = "avx512f,avx512ifma")]
    #[inline]
    fn mat(&self, m: &[[Limbs; 3]; 3], s: &[Lanes; 3]) -> [Lanes; 3] {
        [self.dot(&m[0], s), self.dot(&m[1], s), self.dot(&m[2], s)]
    }

    #[target_feature(enable = "avx512f,avx512ifma")]
    #[inline]
    fn full_sbox(&self, s: &mut [Lanes; 3], constants: &[Limbs; 3]) {
        for (lane, c) in s.iter_mut().zip(constants) {
            *lane = self.pow5(&self.add_const(lane, c));
        }
    }

    /// The permutation of `fast::permute` on `[0, a, b]`, lane 0 of the result.
    #[target_feature(enable = "avx512f,avx512ifma")]
    fn permute(&self, a: Lanes, b: Lanes) -> Lanes {
        let t = self.t;
        let c0 = &t.first_constants[0];
        let mut s = [
            splat(&t.first_lane0),
            self.pow5(&self.add_const(&a, &c0[1])),
            self.pow5(&self.add_const(&b, &c0[2])),
        ];
        s = self.mat(&t.mds, &s);
        for (round, constants) in t.first_constants.iter().enumerate().skip(1) {
            self.full_sbox(&mut s, constants);
            let matrix = if round == HALF_FULL - 1 {
                &t.pre_partial
            } else {
                &t.mds
            };
            s = self.mat(matrix, &s);
        }
        for (constant, row, column) in t.partial.iter() {
            let s0 = self.pow5(&self.add_const(&s[0], constant));
            s[0] = s0;
            let new0 = self.dot(row, &s);
            for j in 1..3 {
                let grown = self.add(&s[j], &self.mul(&splat(&column[j]), &s0));
                s[j] = self.reduce4(&grown);
            }
            s[0] = new0;
        }
        for constants in &t.last_constants[..HALF_FULL - 1] {
            self.full_sbox(&mut s, constants);
            s = self.mat(&t.mds, &s);
        }
        self.full_sbox(&mut s, &t.last_constants[HALF_FULL - 1]);
        self.dot(&t.mds[0], &s)
    }

    /// Eight field elements into the form: their plain limbs times `2^520` (`x · R² / R`).
    #[target_feature(enable = "avx512f,avx512ifma")]
    fn enter(&self, xs: impl Fn(usize) -> Fr) -> Lanes {
        let plain: [Limbs; LANES] = std::array::from_fn(|i| limbs(&xs(i).into_bigint()));
        self.mul(&gather(&plain), &splat(&self.t.r2))
    }

    /// The limbs of each lane.
    #[target_feature(enable = "avx512f,avx512ifma")]
    fn extract(&self, x: &Lanes) -> [Limbs; LANES] {
        let mut l = [[0u64; 5]; LANES];
        for (j, limb) in x.0.iter().enumerate() {
            let low = _mm512_extracti64x4_epi64::<0>(*limb);
            let high = _mm512_extracti64x4_epi64::<1>(*limb);
            l[0][j] = _mm256_extract_epi64::<0>(low) as u64;
            l[1][j] = _mm256_extract_epi64::<1>(low) as u64;
            l[2][j] = _mm256_extract_epi64::<2>(low) as u64;
            l[3][j] = _mm256_extract_epi64::<3>(low) as u64;
            l[4][j] = _mm256_extract_epi64::<0>(high) as u64;
            l[5][j] = _mm256_extract_epi64::<1>(high) as u64;
            l[6][j] = _mm256_extract_epi64::<2>(high) as u64;
            l[7][j] = _mm256_extract_epi64::<3>(high) as u64;
        }
        l
    }

    /// Eight lanes out of the form, fully reduced: times 1 (`x · R / R`), which for values
    /// below `2^257` is at most `p`, then `p` itself taken to 0.
    #[target_feature(enable = "avx512f,avx512ifma")]
    fn leave(&self, x: &Lanes, out: &mut [Fr]) {
        let plain = self.mul(x, &splat(&[1, 0, 0, 0, 0]));
        for (o, lane) in out.iter_mut().zip(self.extract(&plain)) {
            let mut value = from_limbs(lane);
            if value >= Fr::MODULUS {
                value.sub_with_borrow(&Fr::MODULUS);
            }
            *o = match Fr::from_bigint(value) {
                Some(x) => x,
                None => unreachable!("a value at most p, less p when it is p, is below p"),
            };
        }
    }
}

/// Eight values' limbs into the lanes (the reverse of `Field8::extract`).
#[target_feature(enable = "avx512f,avx512ifma")]
fn gather(values: &[Limbs; LANES]) -> Lanes {
    Lanes(std::array::from_fn(|j| {
        _mm512_set_epi64(
            values[7][j] as i64,
            values[6][j] as i64,
            values[5][j] as i64,
            values[4][j] as i64,
            values[3][j] as i64,
            values[2][j] as i64,
            values[1][j] as i64,
            values[0][j] as i64,
        )
    }))
}

/// A constant in every lane.
#[target_feature(enable = "avx512f,avx512ifma")]
#[inline]
fn splat(c: &Limbs) -> Lanes {
    Lanes(c.map(|limb| _mm512_set1_epi64(limb as i64)))
}

#[target_feature(enable = "avx512f,avx512ifma")]
fn hash_groups(tables: &Tables, pairs: &[Fr], out: &mut [Fr]) -> usize {
    let field = Field8::new(tables);
    let mut made = 0;
    for (out, pairs) in out
        .chunks_exact_mut(LANES)
        .zip(pairs.chunks_exact(2 * LANES))
    {
        let a = field.enter(|i| pairs[2 * i]);
        let b = field.enter(|i| pairs[2 * i + 1]);
        field.leave(&field.permute(a, b), out);
        made += LANES;
    }
    made
}

#[cfg(test)]
mod tests {
    use ark_ff::{One, UniformRand, Zero};
    use proptest::prelude::*;

    use super::*;
    use crate::poseidon::fast::hash2;

    fn scalar(pairs: &[Fr]) -> Vec<Fr> {
        pairs.chunks(2).map(|p| hash2(p[0], p[1])).collect()
    }

    fn skip() -> bool {
        if available() {
            return false;
        }
        eprintln!("skipped: this CPU has no AVX-512 IFMA, so the vector hash cannot run here");
        true
    }

    #[test]
    fn eight_lanes_hash_as_the_scalar_code_does() {
        if skip() {
            return;
        }
        let mut rng = ark_std::test_rng();
        let pairs: Vec<Fr> = (0..16 * LANES).map(|_| Fr::rand(&mut rng)).collect();
        let mut out = vec![Fr::zero(); 8 * LANES];
        assert_eq!(hash2_pairs(&pairs, &mut out), 8 * LANES);
        assert_eq!(out, scalar(&pairs));
    }

    #[test]
    fn edge_values_hash_as_the_scalar_code_does() {
        if skip() {
            return;
        }
        let minus_one = -Fr::one();
        let edges = [
            Fr::zero(),
            Fr::one(),
            minus_one,
            minus_one - Fr::one(),
            Fr::from(2u64).pow([253]),
            Fr::from(u64::MAX),
            crate::tree::ZERO,
        ];
        let pairs: Vec<Fr> = edges
            .iter()
            .flat_map(|a| edges.iter().flat_map(move |b| [*a, *b]))
            .collect();
        let whole = pairs.len() / (2 * LANES) * 2 * LANES;
        let mut out = vec![Fr::zero(); whole / 2];
        assert_eq!(hash2_pairs(&pairs[..whole], &mut out), whole / 2);
        assert_eq!(out, scalar(&pairs[..whole]));
    }

    #[test]
    fn the_limbs_spell_the_integer() {
        let mut rng = ark_std::test_rng();
        for _ in 0..100 {
            let x = Fr::rand(&mut rng).into_bigint();
            assert_eq!(from_limbs(limbs(&x)), x);
        }
        let t = tables();
        assert_eq!(from_limbs(t.p), Fr::MODULUS);
        assert_eq!(t.p_inv.wrapping_mul(Fr::MODULUS.0[0]) & MASK52, MASK52);
    }

    /// `x + k·p` as limbs (below 2^260 for `k ≤ 8`), carried.
    fn plus_multiple_of_p(x: Limbs, k: u64) -> Limbs {
        let p = tables().p;
        let mut l: Limbs = std::array::from_fn(|j| x[j] + k * p[j]);
        for j in 0..4 {
            l[j + 1] += l[j] >> 52;
            l[j] &= MASK52;
        }
        l
    }

    /// Products at the bound the module relies on: unreduced inputs up to `x + 7p` (below
    /// `8p`), the product equal to the one mod p and below `1.76p`.
    #[test]
    fn products_of_unreduced_inputs_stay_in_bounds() {
        if skip() {
            return;
        }
        #[allow(unsafe_code)]
        // SAFETY: `skip()` returned false, so the CPU has AVX-512F and IFMA.
        unsafe {
            products_in_bounds()
        }
    }

    #[target_feature(enable = "avx512f,avx512ifma")]
    fn products_in_bounds() {
        let f = Field8::new(tables());
        let mut rng = ark_std::test_rng();
        let r_inv = Fr::from(2u64)
            .pow([520])
            .inverse()
            .expect("2^520 is not 0 mod p");
        let mut p2 = Fr::MODULUS;
        p2.add_with_carry(&Fr::MODULUS);
        for round in 0..64 {
            let a: [Fr; LANES] = std::array::from_fn(|i| match (round, i) {
                (0, _) => -Fr::one(),
                (1, _) => Fr::zero(),
                _ => Fr::rand(&mut rng),
            });
            let b: [Fr; LANES] = std::array::from_fn(|_| -Fr::rand(&mut rng));
            // Lane i of `a` carries i extra p's (up to 7), `b`'s 7 − i.
            let raw = |v: &[Fr; LANES], k: &dyn Fn(usize) -> u64| {
                gather(&std::array::from_fn(|i| {
                    plus_multiple_of_p(limbs(&v[i].into_bigint()), k(i))
                }))
            };
            let product = f.mul(&raw(&a, &|i| i as u64), &raw(&b, &|i| 7 - i as u64));
            for (i, lane) in f.extract(&product).into_iter().enumerate() {
                assert!(lane[4] < 1 << 48, "lane {i}: above 2^256");
                assert!(from_limbs(lane) < p2, "lane {i}: above 2p");
            }
            let mut got = [Fr::zero(); LANES];
            f.leave(&product, &mut got);
            for i in 0..LANES {
                assert_eq!(got[i], a[i] * b[i] * r_inv, "round {round}, lane {i}");
            }
        }
    }

    proptest! {
        #[test]
        fn random_batches_hash_as_the_scalar_code_does(seed in any::<u64>()) {
            if !available() {
                return Ok(());
            }
            let mut rng = <rand_chacha::ChaCha20Rng as rand_core::SeedableRng>::seed_from_u64(seed);
            let pairs: Vec<Fr> = (0..2 * LANES).map(|_| Fr::rand(&mut rng)).collect();
            let mut out = vec![Fr::zero(); LANES];
            prop_assert_eq!(hash2_pairs(&pairs, &mut out), LANES);
            prop_assert_eq!(out, scalar(&pairs));
        }
    }
}
