//! Native Poseidon for t = 2 and t = 3 (one and two inputs), bit-for-bit equal to circomlib
//! and to [`super::reference`] (light-poseidon), about 2.5× faster than `reference::hash`
//! (see BENCHMARKS.md).
//!
//! # What is optimised
//!
//! circomlib's Poseidon is `R_F = 8` full rounds around `R_P` partial rounds (56 for t = 2,
//! 57 for t = 3). Round `r` maps the state `s` (t lanes) to `M · σ_r(s + c_r)`: `c_r` is the
//! round's constant vector, `M` the t×t MDS matrix, and `σ_r` raises every lane (full round)
//! or only lane 0 (partial round) to the 5th power. The plain form does a dense `M` product
//! (t² multiplications) in each of the ~57 partial rounds, which is most of the work.
//!
//! This module evaluates the same function in the "optimised" form of the Poseidon paper
//! (Grassi et al., appendix B; circomlib's `poseidon_constants_opt`), with tables derived at
//! first use (a `OnceLock`) from the plain parameters of [`super::reference::parameters`]:
//!
//! 1. **Partial-round constants move forward.** The S-box of a partial round does not touch
//!    lanes 1.., so `M·σ(s + c) = M·σ(s + c₀e₀) + M·(0, c₁, …)`: the vector `M·(0, c₁, …)` is
//!    added to the next round's constants instead, and so on. Every partial round keeps one
//!    scalar constant `k_r` for lane 0, and the carried vector ends in the constants of the
//!    first full round after the partial rounds.
//! 2. **Partial-round matrices become sparse.** Write a dense `D = [[d₀₀, vᵀ], [w, D̂]]` as
//!    `D = S · P` with `P = diag(1, D̂)` and the sparse `S = [[d₀₀, vᵀ·D̂⁻¹], [w, I]]`. `P`
//!    keeps lane 0 as it is and never mixes it into lanes 1.., so it commutes with a partial
//!    round's S-box and lane-0 constant: `D·σ_r = S·σ_r·P`, and `P` joins the previous
//!    round's matrix, `D' = P · M`, which is split in turn. Walking back from the last
//!    partial round, each partial round gets a sparse `S_r` (2t − 1 multiplications instead
//!    of t²) and the last `P` lands in the (still dense) matrix of the 4th full round.
//! 3. Smaller things: in round 0 lane 0 is the constant `c₀[0]` (the capacity lane starts at
//!    0), so its fifth power is precomputed; the last round computes only the output lane;
//!    x⁵ is two squarings and a multiplication; matrix rows use arkworks'
//!    `sum_of_products`, which reduces once per row instead of once per product; nothing
//!    allocates (the state is a `[Fr; T]`), and since arkworks keeps `Fr` in Montgomery
//!    form the tables are used as they are, with no conversions per hash.
//!
//! Inside the crate the t = 3 tables are also readable, unchanged, through `tables3`:
//! [`super::solidity`] generates the on-chain hasher from them, so the contract evaluates this
//! same form with these same numbers. `Tables` and `Partial` document what each field holds.
//!
//! # Why it is the same function
//!
//! Both rewrites are identities over the field, valid for every state: step 1 is linearity of
//! `M` plus the partial S-box being the identity on lanes 1.., and step 2 is `S·P = D`
//! (checked when the tables are built) plus `P` commuting exactly with a map that changes
//! only lane 0. The tests compare with light-poseidon on circomlib's vectors, edge values and
//! thousands of random inputs, and `crates/zk/tests/circomlibjs.rs` with circomlibjs.

use std::sync::OnceLock;

use ark_ff::{Field, One, Zero};

use super::reference;
use crate::Fr;

/// Full rounds: 4 before and 4 after the partial rounds.
pub(crate) const HALF_FULL: usize = 4;

/// The precomputed tables for width `T`. The fields are `pub(crate)` so that code
/// generators can read them, through the shared reference [`tables3`] returns; only
/// [`Tables::derive`] builds them, and nothing changes them afterwards.
pub(crate) struct Tables<const T: usize> {
    /// `c₀[0]⁵`: lane 0 of the first round after adding its constant to the zero capacity.
    pub(crate) first_lane0: Fr,
    /// Constants of the first 4 full rounds, unchanged.
    pub(crate) first_constants: [[Fr; T]; HALF_FULL],
    /// The MDS matrix, by rows.
    pub(crate) mds: [[Fr; T]; T],
    /// The linear layer of the 4th full round: `P · M`, absorbing the partial rounds' dense
    /// factors.
    pub(crate) pre_partial: [[Fr; T]; T],
    /// One per partial round.
    pub(crate) partial: Box<[Partial<T>]>,
    /// Constants of the last 4 full rounds; the first carries the partial rounds' constants.
    pub(crate) last_constants: [[Fr; T]; HALF_FULL],
}

/// One partial round: `s₀ += constant; s₀ = s₀⁵; s = S · s` with the sparse
/// `S = [[row₀, row₁, …], [column, I]]`.
pub(crate) struct Partial<const T: usize> {
    pub(crate) constant: Fr,
    /// The first row of `S`.
    pub(crate) row: [Fr; T],
    /// The first column of `S`; `column[0]` is unused (it is `row[0]`).
    pub(crate) column: [Fr; T],
}

/// Poseidon of one input (t = 2), circomlib's `Poseidon(1)`.
pub fn hash1(a: Fr) -> Fr {
    static TABLES: OnceLock<Tables<2>> = OnceLock::new();
    permute(TABLES.get_or_init(|| Tables::derive(1)), [Fr::zero(), a])
}

/// Poseidon of two inputs (t = 3), circomlib's `Poseidon(2)`.
pub fn hash2(a: Fr, b: Fr) -> Fr {
    permute(tables3(), [Fr::zero(), a, b])
}

/// Poseidon of four inputs (t = 5), circomlib's `Poseidon(4)`: what binds a batch proof's
/// public values (`crate::batch`).
pub fn hash4(a: Fr, b: Fr, c: Fr, d: Fr) -> Fr {
    permute(tables5(), [Fr::zero(), a, b, c, d])
}

/// The t = 5 tables that [`hash4`] uses (derived at first use), read-only.
#[inline(always)]
pub(crate) fn tables5() -> &'static Tables<5> {
    static TABLES: OnceLock<Tables<5>> = OnceLock::new();
    TABLES.get_or_init(|| Tables::derive(4))
}

/// The t = 3 tables that [`hash2`] uses (derived at first use), read-only.
#[inline(always)]
pub(crate) fn tables3() -> &'static Tables<3> {
    static TABLES: OnceLock<Tables<3>> = OnceLock::new();
    TABLES.get_or_init(|| Tables::derive(2))
}

#[inline(always)]
fn pow5(x: Fr) -> Fr {
    let mut x4 = x;
    x4.square_in_place();
    x4.square_in_place();
    x4 * x
}

/// A full round's constants and S-boxes.
#[inline(always)]
fn full_sbox<const T: usize>(state: &mut [Fr; T], constants: &[Fr; T]) {
    for (s, c) in state.iter_mut().zip(constants) {
        *s = pow5(*s + c);
    }
}

#[inline(always)]
fn mat_mul<const T: usize>(m: &[[Fr; T]; T], s: &[Fr; T]) -> [Fr; T] {
    std::array::from_fn(|i| Fr::sum_of_products(&m[i], s))
}

/// The permutation on `[0, inputs...]`, returning lane 0. `state[0]` must be zero on entry
/// (it is the capacity lane; the precomputed `first_lane0` relies on it).
#[inline(always)]
fn permute<const T: usize>(tables: &Tables<T>, mut state: [Fr; T]) -> Fr {
    // Round 0: lane 0 is the constant c₀[0]⁵.
    state[0] = tables.first_lane0;
    for (s, c) in state.iter_mut().zip(&tables.first_constants[0]).skip(1) {
        *s = pow5(*s + c);
    }
    state = mat_mul(&tables.mds, &state);
    // Rounds 1..3, the last one with the matrix that absorbs the partial rounds' dense factors.
    for (round, constants) in tables.first_constants.iter().enumerate().skip(1) {
        full_sbox(&mut state, constants);
        let matrix = if round == HALF_FULL - 1 {
            &tables.pre_partial
        } else {
            &tables.mds
        };
        state = mat_mul(matrix, &state);
    }
    // Partial rounds, sparse.
    for partial in tables.partial.iter() {
        let s0 = pow5(state[0] + partial.constant);
        state[0] = s0;
        let new0 = Fr::sum_of_products(&partial.row, &state);
        for (s, c) in state.iter_mut().zip(&partial.column).skip(1) {
            *s += *c * s0;
        }
        state[0] = new0;
    }
    // Last full rounds; the very last computes only the output lane.
    for constants in &tables.last_constants[..HALF_FULL - 1] {
        full_sbox(&mut state, constants);
        state = mat_mul(&tables.mds, &state);
    }
    full_sbox(&mut state, &tables.last_constants[HALF_FULL - 1]);
    Fr::sum_of_products(&tables.mds[0], &state)
}

impl<const T: usize> Tables<T> {
    /// Derives the optimised tables from circomlib's plain parameters for `T - 1` inputs.
    fn derive(inputs: usize) -> Self {
        assert_eq!(inputs + 1, T);
        let params = reference::parameters(inputs);
        assert_eq!(params.width, T, "width");
        assert_eq!(params.alpha, 5, "S-box exponent");
        assert_eq!(params.full_rounds, 2 * HALF_FULL, "full rounds");
        let partial_rounds = params.partial_rounds;
        let rounds = params.full_rounds + partial_rounds;
        assert_eq!(params.ark.len(), rounds * T, "round constants");
        assert_eq!(params.mds.len(), T, "MDS rows");

        let mds: [[Fr; T]; T] = std::array::from_fn(|i| {
            assert_eq!(params.mds[i].len(), T, "MDS columns");
            std::array::from_fn(|j| params.mds[i][j])
        });
        let constants =
            |round: usize| -> [Fr; T] { std::array::from_fn(|i| params.ark[round * T + i]) };

        // 1. Partial-round constants, moved forward.
        let mut carry = [Fr::zero(); T];
        let mut partial_constants = Vec::with_capacity(partial_rounds);
        for round in HALF_FULL..HALF_FULL + partial_rounds {
            let mut c = constants(round);
            for i in 0..T {
                c[i] += carry[i];
            }
            partial_constants.push(c[0]);
            c[0] = Fr::zero();
            carry = mat_mul(&mds, &c);
        }
        let mut last_constants: [[Fr; T]; HALF_FULL] =
            std::array::from_fn(|k| constants(HALF_FULL + partial_rounds + k));
        for i in 0..T {
            last_constants[0][i] += carry[i];
        }

        // 2. Partial-round matrices, factorised from the last partial round backwards.
        let mut sparse = Vec::with_capacity(partial_rounds);
        let mut dense = mds;
        for _ in 0..partial_rounds {
            let (row, column, inner) = factorise(&dense);
            sparse.push((row, column));
            // dense = diag(1, inner) · M
            dense = std::array::from_fn(|i| {
                if i == 0 {
                    mds[0]
                } else {
                    std::array::from_fn(|j| (1..T).map(|k| inner[i][k] * mds[k][j]).sum())
                }
            });
        }
        sparse.reverse();
        let partial = partial_constants
            .into_iter()
            .zip(sparse)
            .map(|(constant, (row, column))| Partial {
                constant,
                row,
                column,
            })
            .collect();

        let first_constants: [[Fr; T]; HALF_FULL] = std::array::from_fn(constants);
        Tables {
            first_lane0: pow5(first_constants[0][0]),
            first_constants,
            mds,
            pre_partial: dense,
            partial,
            last_constants,
        }
    }
}

/// Splits `d = [[d₀₀, vᵀ], [w, D̂]]` into `S · diag(1, D̂)` with `S = [[d₀₀, vᵀ·D̂⁻¹], [w, I]]`.
/// Returns `S`'s first row, its first column (index 0 unused) and `D̂` embedded in a t×t
/// matrix (row and column 0 unused).
#[allow(clippy::type_complexity)]
fn factorise<const T: usize>(d: &[[Fr; T]; T]) -> ([Fr; T], [Fr; T], [[Fr; T]; T]) {
    let inner = *d;
    let inverse = invert_lower_right(&inner);
    let mut row = [Fr::zero(); T];
    row[0] = d[0][0];
    for (j, r) in row.iter_mut().enumerate().skip(1) {
        *r = (1..T).map(|k| d[0][k] * inverse[k][j]).sum();
    }
    let mut column = [Fr::zero(); T];
    for (i, c) in column.iter_mut().enumerate().skip(1) {
        *c = d[i][0];
    }
    // Check S · diag(1, D̂) = D.
    for i in 0..T {
        for j in 0..T {
            let product = if j == 0 {
                if i == 0 { row[0] } else { column[i] }
            } else if i == 0 {
                (1..T).map(|k| row[k] * inner[k][j]).sum()
            } else {
                inner[i][j]
            };
            assert_eq!(product, d[i][j], "sparse factorisation");
        }
    }
    (row, column, inner)
}

/// Inverts the lower-right (T−1)×(T−1) block of `m` (Gauss–Jordan); the result is embedded
/// the same way, row and column 0 unused.
fn invert_lower_right<const T: usize>(m: &[[Fr; T]; T]) -> [[Fr; T]; T] {
    let mut a = *m;
    let mut inv = [[Fr::zero(); T]; T];
    for (i, row) in inv.iter_mut().enumerate().skip(1) {
        row[i] = Fr::one();
    }
    for col in 1..T {
        let pivot = (col..T)
            .find(|&r| !a[r][col].is_zero())
            .expect("the partial-round matrix block is invertible");
        a.swap(col, pivot);
        inv.swap(col, pivot);
        let scale = a[col][col].inverse().expect("non-zero pivot");
        for j in 1..T {
            a[col][j] *= scale;
            inv[col][j] *= scale;
        }
        for r in 1..T {
            if r != col && !a[r][col].is_zero() {
                let f = a[r][col];
                for j in 1..T {
                    let (ac, ic) = (a[col][j], inv[col][j]);
                    a[r][j] -= f * ac;
                    inv[r][j] -= f * ic;
                }
            }
        }
    }
    inv
}

#[cfg(test)]
mod tests {
    use ark_ff::{PrimeField, UniformRand};
    use ark_std::rand::SeedableRng;
    use proptest::prelude::*;
    use rand_chacha::ChaCha20Rng;

    use super::*;
    use crate::field::from_decimal;

    fn dec(s: &str) -> Fr {
        from_decimal(s, "vector").unwrap()
    }

    fn r_minus_1() -> Fr {
        -Fr::one()
    }

    /// Computed independently with circomlibjs 0.1.7 (`buildPoseidon()`) and light-poseidon
    /// 0.4.1, which agree; `crates/zk/tests/circomlibjs.rs` compares random inputs too.
    #[test]
    fn circomlib_vectors() {
        for (a, expected) in [
            (
                Fr::from(1u64),
                "18586133768512220936620570745912940619677854269274689475585506675881198879027",
            ),
            (
                Fr::from(0u64),
                "19014214495641488759237505126948346942972912379615652741039992445865937985820",
            ),
        ] {
            assert_eq!(hash1(a), dec(expected), "[{a}]");
        }
        for (a, b, expected) in [
            (
                Fr::from(1u64),
                Fr::from(2u64),
                "7853200120776062878684798364095072458815029376092732009249414926327459813530",
            ),
            (
                Fr::from(0u64),
                Fr::from(0u64),
                "14744269619966411208579211824598458697587494354926760081771325075741142829156",
            ),
            (
                r_minus_1(),
                r_minus_1(),
                "20092309280547939997162506796691455192771288143174894022739895715370814071035",
            ),
        ] {
            assert_eq!(hash2(a, b), dec(expected), "[{a}, {b}]");
        }
        // The end-to-end note vector: 31 bytes of 0x07 and of 0x09.
        let nullifier = Fr::from_be_bytes_mod_order(&[7u8; 31]);
        let secret = Fr::from_be_bytes_mod_order(&[9u8; 31]);
        assert_eq!(
            hash1(nullifier),
            dec("21171223728281306300986411233849796644850486125695564991315061219356297506700")
        );
        assert_eq!(
            hash2(nullifier, secret),
            dec("13468587555533907663228958974895288819668643404975354979256185586024954593602")
        );
    }

    #[test]
    fn edge_values_match_reference() {
        let edges = [
            Fr::zero(),
            Fr::one(),
            Fr::from(2u64),
            r_minus_1(),
            r_minus_1() - Fr::one(),
            Fr::from(u64::MAX),
            Fr::from(2u64).pow([253u64]),
        ];
        for &a in &edges {
            assert_eq!(hash1(a), reference::hash(&[a]), "[{a}]");
            for &b in &edges {
                assert_eq!(hash2(a, b), reference::hash(&[a, b]), "[{a}, {b}]");
            }
        }
    }

    #[test]
    fn random_inputs_match_reference() {
        let mut rng = ChaCha20Rng::seed_from_u64(0x7270_6f6f_6c5f_7a6b);
        for _ in 0..1_000 {
            let a = Fr::rand(&mut rng);
            assert_eq!(hash1(a), reference::hash(&[a]), "[{a}]");
        }
        for _ in 0..1_000 {
            let (a, b) = (Fr::rand(&mut rng), Fr::rand(&mut rng));
            assert_eq!(hash2(a, b), reference::hash(&[a, b]), "[{a}, {b}]");
        }
        for _ in 0..200 {
            let x: [Fr; 4] = std::array::from_fn(|_| Fr::rand(&mut rng));
            assert_eq!(hash4(x[0], x[1], x[2], x[3]), reference::hash(&x), "{x:?}");
        }
        // circomlibjs 0.1.7's `poseidon([1, 2, 3, 4])`, as `reference`'s vectors have it.
        let four = [1u64, 2, 3, 4].map(Fr::from);
        assert_eq!(
            hash4(four[0], four[1], four[2], four[3]),
            dec("18821383157269793795438455681495246036402687001665670618754263018637548127333")
        );
    }

    /// Chained like a Merkle path, so outputs feed inputs.
    #[test]
    fn chained_hashes_match_reference() {
        let (mut fast, mut slow) = (Fr::from(42u64), Fr::from(42u64));
        for level in 0..64u64 {
            let sibling = Fr::from(level);
            fast = hash2(fast, sibling);
            slow = reference::hash(&[slow, sibling]);
            assert_eq!(fast, slow, "level {level}");
            fast = hash1(fast);
            slow = reference::hash(&[slow]);
            assert_eq!(fast, slow, "level {level}");
        }
    }

    fn any_fr() -> impl Strategy<Value = Fr> {
        prop_oneof![
            any::<[u8; 32]>().prop_map(|bytes| Fr::from_le_bytes_mod_order(&bytes)),
            any::<u64>().prop_map(Fr::from),
            (0u64..4).prop_map(|k| -Fr::from(k)),
        ]
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(256))]
        #[test]
        fn proptest_matches_reference(a in any_fr(), b in any_fr()) {
            prop_assert_eq!(hash1(a), reference::hash(&[a]));
            prop_assert_eq!(hash2(a, b), reference::hash(&[a, b]));
        }
    }
}
