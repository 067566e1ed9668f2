//! Multi-scalar multiplication for the prover: Pippenger's buckets, each filled with affine
//! additions that share one field inversion per round.
//!
//! arkworks adds every point into its bucket with a mixed addition in extended coordinates
//! (eight multiplications and two squarings). Two affine points add in one multiplication
//! and one squaring past the slope, and the slope's inversion can be shared: Montgomery's
//! trick inverts a whole round of denominators with one inversion and three multiplications
//! each. A window's points are sorted by bucket and each bucket summed as a tree of pairs,
//! every pair of a round (across all buckets) in one batch, so the batches are as large as
//! the window and no bucket is ever written twice in one round.
//!
//! Scalars are recoded into signed digits (half the buckets), and a scalar whose negation is
//! shorter is taken negated with its point, so `−1` costs what `1` does. A window's digits are
//! read straight from the scalar's bits, windows are independent, and the windows run on the
//! thread pool.

use ark_ec::short_weierstrass::{Affine, Projective, SWCurveConfig};
use ark_ec::{AdditiveGroup, AffineRepr};
use ark_ff::{BigInteger, Field, PrimeField, Zero, serial_batch_inversion_and_mul};
use rayon::prelude::*;

type BigInt<P> = <<P as ark_ec::CurveConfig>::ScalarField as PrimeField>::BigInt;

/// `Σ scalars[i] · bases[i]` over the shorter of the two.
pub(crate) fn msm<P: SWCurveConfig>(bases: &[Affine<P>], scalars: &[BigInt<P>]) -> Projective<P> {
    let modulus = <P::ScalarField as PrimeField>::MODULUS;
    // Each term once, non-zero, as the shorter of (s, P) and (r − s, −P).
    let terms: Vec<(Affine<P>, BigInt<P>)> = bases
        .par_iter()
        .zip(scalars.par_iter())
        .filter(|(base, scalar)| !base.is_zero() && !scalar.is_zero())
        .map(|(base, scalar)| {
            let mut negated = modulus;
            negated.sub_with_borrow(scalar);
            if negated.num_bits() < scalar.num_bits() {
                (-*base, negated)
            } else {
                (*base, *scalar)
            }
        })
        .collect();
    let Some(bits) = terms.iter().map(|(_, s)| s.num_bits() as usize).max() else {
        return Projective::zero();
    };
    let c = window_bits(terms.len());
    // Signed digits carry into the window above: one bit of room on top.
    let windows = (bits + 1).div_ceil(c);
    let sums: Vec<Projective<P>> = (0..windows)
        .into_par_iter()
        .map(|w| window_sum(&terms, w, c))
        .collect();
    let mut total = Projective::zero();
    for sum in sums.iter().rev() {
        for _ in 0..c {
            total.double_in_place();
        }
        total += sum;
    }
    total
}

/// The window width for `n` terms, `⌊log2 n⌋ − 3`. Wider windows mean fewer of them (fewer
/// additions of terms) but more buckets to sum at the end (two projective additions a bucket,
/// `2^(c−1)` buckets a window), which cost more than the terms' shared-inversion additions.
/// Measured on a withdrawal proof (MSMs of about 6,300 and 19,000 terms): `− 1` 130 ms,
/// `− 2` 120 ms, `− 3` 113 ms, `− 4` 114 ms.
fn window_bits(n: usize) -> usize {
    match n {
        0..=31 => 3,
        _ => (n.ilog2() as usize).saturating_sub(3).clamp(4, 16),
    }
}

/// Window `w`'s signed digit of `s`, in `[−2^(c−1), 2^(c−1)]`: bits `[wc, wc + c)` plus the
/// window below's top bit, less `2^c` when this window's own top bit is set (the carry the
/// window above then adds back). Needs bit `wc − 1` of the window below only, so any window
/// can be read alone.
fn digit(s: &[u64], w: usize, c: usize) -> i64 {
    let lo = w * c;
    let bits = |from: usize, len: usize| -> u64 {
        let (limb, shift) = (from / 64, from % 64);
        let mut v = s.get(limb).map_or(0, |x| x >> shift);
        if shift + len > 64 {
            v |= s.get(limb + 1).map_or(0, |x| x << (64 - shift));
        }
        v & ((1u64 << len) - 1)
    };
    let value = bits(lo, c) as i64;
    let below = if lo == 0 { 0 } else { bits(lo - 1, 1) as i64 };
    let top = value >> (c - 1);
    value + below - (top << c)
}

/// `Σ_b (b + 1) · bucket_b` for window `w`, where bucket `b` holds the terms whose digit is
/// `±(b + 1)` (negated for `−`).
fn window_sum<P: SWCurveConfig>(
    terms: &[(Affine<P>, BigInt<P>)],
    w: usize,
    c: usize,
) -> Projective<P> {
    let buckets = 1usize << (c - 1);
    let digits: Vec<i64> = terms.iter().map(|(_, s)| digit(s.as_ref(), w, c)).collect();
    // Counting sort of the terms by bucket.
    let mut start = vec![0u32; buckets + 1];
    for &d in &digits {
        if d != 0 {
            start[d.unsigned_abs() as usize] += 1;
        }
    }
    for b in 1..=buckets {
        start[b] += start[b - 1];
    }
    let mut next = start.clone();
    let mut points = vec![Affine::<P>::identity(); start[buckets] as usize];
    for ((point, _), &d) in terms.iter().zip(&digits) {
        if d != 0 {
            let b = d.unsigned_abs() as usize - 1;
            points[next[b] as usize] = if d < 0 { -*point } else { *point };
            next[b] += 1;
        }
    }
    let mut len: Vec<u32> = (0..buckets).map(|b| start[b + 1] - start[b]).collect();
    sum_segments(&mut points, &start[..buckets], &mut len);

    let mut running = Projective::<P>::zero();
    let mut total = Projective::<P>::zero();
    for b in (0..buckets).rev() {
        if len[b] != 0 {
            running += &points[start[b] as usize];
        }
        total += &running;
    }
    total
}

/// Sums each segment `points[start[b] .. start[b] + len[b]]` into its first point, a round of
/// pairs at a time: a round adds points `2i` and `2i + 1` of every segment (one shared
/// inversion for all of them) into point `i`, and carries an odd last point along.
fn sum_segments<P: SWCurveConfig>(points: &mut [Affine<P>], start: &[u32], len: &mut [u32]) {
    let mut denominators: Vec<P::BaseField> = Vec::with_capacity(points.len() / 2);
    loop {
        denominators.clear();
        for (&s, &n) in start.iter().zip(len.iter()) {
            let s = s as usize;
            for i in 0..n as usize / 2 {
                denominators.push(denominator(&points[s + 2 * i], &points[s + 2 * i + 1]));
            }
        }
        if denominators.is_empty() {
            return;
        }
        // Montgomery's trick, on this thread: the windows already use the others.
        serial_batch_inversion_and_mul(&mut denominators, &P::BaseField::ONE);
        let mut inverses = denominators.iter();
        for (&s, n) in start.iter().zip(len.iter_mut()) {
            let s = s as usize;
            let pairs = *n as usize / 2;
            for i in 0..pairs {
                let inverse = inverses.next().expect("one inverse a pair");
                points[s + i] = add(&points[s + 2 * i], &points[s + 2 * i + 1], inverse);
            }
            if *n % 2 == 1 {
                points[s + pairs] = points[s + *n as usize - 1];
            }
            *n -= pairs as u32;
        }
    }
}

/// What the slope of `p + q` divides by: `x_q − x_p`, or `2·y_p` to double. One when there is
/// nothing to divide (an identity, or a sum that is the identity: `q = −p`, which includes
/// doubling a point with `y = 0`), so no denominator of a batch is zero.
fn denominator<P: SWCurveConfig>(p: &Affine<P>, q: &Affine<P>) -> P::BaseField {
    if p.is_zero() || q.is_zero() {
        P::BaseField::ONE
    } else if p.x != q.x {
        q.x - p.x
    } else if p.y == q.y && !p.y.is_zero() {
        p.y.double()
    } else {
        P::BaseField::ONE
    }
}

/// `p + q`, given the inverse of [`denominator`]`(p, q)`.
fn add<P: SWCurveConfig>(p: &Affine<P>, q: &Affine<P>, inverse: &P::BaseField) -> Affine<P> {
    if p.is_zero() {
        return *q;
    }
    if q.is_zero() {
        return *p;
    }
    let slope = if p.x != q.x {
        (q.y - p.y) * inverse
    } else if p.y == q.y && !p.y.is_zero() {
        let xx = p.x.square();
        (xx.double() + xx + P::COEFF_A) * inverse
    } else {
        return Affine::identity();
    };
    let x = slope.square() - p.x - q.x;
    let y = slope * (p.x - x) - p.y;
    Affine::new_unchecked(x, y)
}

#[cfg(test)]
mod tests {
    use super::*;
    use ark_bn254::{Fr, G1Affine, G1Projective, G2Affine, G2Projective};
    use ark_ec::{CurveGroup, VariableBaseMSM};
    use ark_std::UniformRand;
    use rand_core::SeedableRng;

    /// Scalars of every kind the prover meets: zero, one, minus one, small, small negative,
    /// full.
    fn scalars(n: usize, rng: &mut impl rand_core::RngCore) -> Vec<Fr> {
        (0..n)
            .map(|i| match i % 7 {
                0 => Fr::from(0u64),
                1 => Fr::from(1u64),
                2 => -Fr::from(1u64),
                3 => Fr::from(rng.next_u32() as u64),
                4 => -Fr::from(rng.next_u64()),
                _ => Fr::rand(rng),
            })
            .collect()
    }

    /// Bases with the cases an addition must get right: the identity, a point twice (a
    /// doubling when both land in one bucket) and a point beside its negation (the identity).
    fn bases<G: CurveGroup>(n: usize, rng: &mut impl rand_core::RngCore) -> Vec<G::Affine> {
        let mut out: Vec<G::Affine> = (0..n).map(|_| G::rand(rng).into_affine()).collect();
        for i in (0..n).step_by(11) {
            out[i] = G::Affine::zero();
        }
        for i in (5..n).step_by(13) {
            out[i] = out[i - 5];
        }
        for i in (8..n).step_by(17) {
            out[i] = -out[i - 8];
        }
        out
    }

    #[test]
    fn the_same_sum_as_arkworks() {
        let mut rng = rand_chacha::ChaCha20Rng::seed_from_u64(7);
        for n in [0, 1, 2, 3, 30, 100, 1000, 5000] {
            let s = scalars(n, &mut rng);
            let big: Vec<_> = s.iter().map(|x| x.into_bigint()).collect();
            let g1 = bases::<G1Projective>(n, &mut rng);
            assert_eq!(
                msm(&g1, &big),
                G1Projective::msm(&g1, &s).unwrap(),
                "G1, {n}"
            );
            let g2 = bases::<G2Projective>(n.min(1000), &mut rng);
            let expected = G2Projective::msm_bigint(&g2, &big[..g2.len()]);
            assert_eq!(msm(&g2, &big), expected, "G2, {n}");
        }
    }

    /// Every term in one bucket: the same point many times (doublings all the way up), the
    /// same scalar each, and a point with its negation under one scalar (which cancel).
    #[test]
    fn one_bucket_of_equal_points() {
        let mut rng = rand_chacha::ChaCha20Rng::seed_from_u64(8);
        let p = G1Projective::rand(&mut rng).into_affine();
        for n in [2, 3, 4, 7, 64, 100] {
            let big = vec![Fr::from(3u64).into_bigint(); n];
            let expected = p * Fr::from(3 * n as u64);
            assert_eq!(msm(&vec![p; n], &big), expected, "{n} times");
        }
        let pair: Vec<G1Affine> = vec![p, -p, p];
        let big = vec![Fr::from(5u64).into_bigint(); 3];
        assert_eq!(msm(&pair, &big), p * Fr::from(5u64));
        let q = G2Projective::rand(&mut rng).into_affine();
        let big = vec![(-Fr::from(2u64)).into_bigint(); 4];
        assert_eq!(
            msm::<_>(&[q, q, -q, q] as &[G2Affine], &big),
            q * -Fr::from(4u64)
        );
    }

    /// A window's digits put the scalar back together, the carry of the top window included.
    #[test]
    fn digits_recompose_the_scalar() {
        let mut rng = rand_chacha::ChaCha20Rng::seed_from_u64(9);
        for c in 3..=16 {
            for s in scalars(40, &mut rng) {
                let big = s.into_bigint();
                let windows = (big.num_bits() as usize + 1).div_ceil(c);
                let mut back = Fr::from(0u64);
                for w in (0..windows).rev() {
                    let d = digit(big.as_ref(), w, c);
                    assert!(d.unsigned_abs() <= 1 << (c - 1), "digit {d} for c = {c}");
                    back = back * Fr::from(1u64 << c) + Fr::from(d);
                }
                assert_eq!(back, s, "c = {c}");
            }
        }
    }
}
