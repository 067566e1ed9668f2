//! Poseidon over BN254 exactly as circomlib defines it (x^5, t = 2, 3 and 5, light-poseidon's
//! constants, output `state[0]`), so circomlibjs, our circuit and our contracts agree.
//!
//! `hash1`/`hash2` are what everything calls; `hash4` binds a batch proof's public values.
//! `reference` is light-poseidon itself, kept as the yardstick the faster code is tested
//! against. `solidity` generates the on-chain t = 3 and t = 5 hashers from `fast`'s tables.

pub mod fast;
pub mod gadget;
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

/// Poseidon of four inputs (t = 5): a batch proof's public input.
pub fn hash4(a: Fr, b: Fr, c: Fr, d: Fr) -> Fr {
    fast::hash4(a, b, c, d)
}
