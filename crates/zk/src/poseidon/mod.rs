//! Poseidon over BN254 exactly as circomlib defines it (x^5, t = 2, 3 and 5, light-poseidon's
//! constants, output `state[0]`), so circomlibjs, our circuit and our contracts agree.
//!
//! `hash1`/`hash2` are what everything calls; `hash4` binds a batch proof's public values.
//! `reference` is light-poseidon itself, kept as the yardstick the faster code is tested
//! against. `solidity` generates the on-chain t = 3 and t = 5 hashers from `fast`'s tables.

pub mod fast;
pub mod gadget;
// The AVX-512 intrinsics are stable since 1.89; the rest of the crate keeps to 1.85 (lib.rs).
#[cfg(target_arch = "x86_64")]
#[clippy::msrv = "1.89"]
mod lanes;
pub mod reference;
pub mod solidity;

use crate::Fr;

/// Poseidon of one input (t = 2): the nullifier hash.
pub fn hash1(a: Fr) -> Fr {
    fast::hash1(a)
}

/// Poseidon of two inputs (t = 3): commitments and tree nodes.
pub fn hash2(a: Fr, b: Fr) -> Fr {
    fast::hash2(a, b)
}

/// `out[i] = hash2(pairs[2i], pairs[2i + 1])`: many independent hashes, as a tree level needs.
/// On a CPU with AVX-512 IFMA eight go through the vector unit at once (`lanes`, about three
/// times the scalar speed); elsewhere, and for the last few, one at a time.
///
/// # Panics
/// If `pairs` is not twice as long as `out`.
pub fn hash2_pairs(pairs: &[Fr], out: &mut [Fr]) {
    assert_eq!(pairs.len(), 2 * out.len(), "two inputs per hash");
    #[cfg(target_arch = "x86_64")]
    let done = lanes::hash2_pairs(pairs, out);
    #[cfg(not(target_arch = "x86_64"))]
    let done = 0;
    for (o, pair) in out[done..]
        .iter_mut()
        .zip(pairs[2 * done..].chunks_exact(2))
    {
        *o = fast::hash2(pair[0], pair[1]);
    }
}

/// Poseidon of four inputs (t = 5): a batch proof's public input.
pub fn hash4(a: Fr, b: Fr, c: Fr, d: Fr) -> Fr {
    fast::hash4(a, b, c, d)
}

#[cfg(test)]
mod tests {
    use ark_ff::{UniformRand, Zero};

    use super::*;

    /// Whole groups of eight and the few after them (the vector code's and the scalar
    /// remainder's share of one call) give what one `hash2` at a time gives.
    #[test]
    fn many_hashes_of_any_count_are_the_single_ones() {
        let mut rng = ark_std::test_rng();
        for count in [0, 1, 7, 8, 9, 17, 64, 71] {
            let pairs: Vec<Fr> = (0..2 * count).map(|_| Fr::rand(&mut rng)).collect();
            let mut out = vec![Fr::zero(); count];
            hash2_pairs(&pairs, &mut out);
            let one_by_one: Vec<Fr> = pairs.chunks(2).map(|p| hash2(p[0], p[1])).collect();
            assert_eq!(out, one_by_one, "{count} hashes");
        }
    }
}
