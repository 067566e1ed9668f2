//! The privacy core of tronpool: notes, circomlib-compatible Poseidon (native and in-circuit),
//! the depth-20 Merkle tree, the `Withdraw(20)` and `BatchInsert(5, 20)` circuits and Groth16
//! over BN254.
//!
//! Stands alone: nothing here knows about TRON transactions or the devnet; addresses enter as
//! their 20-byte form.

pub mod batch;
pub mod batch_proof;
pub mod circuit;
pub mod circuits;
pub mod field;
mod key_error;
pub mod keys;
mod msm;
pub mod note;
pub mod poseidon;
pub mod proof;
mod prover;
pub mod ptau;
pub mod qap;
pub mod r1cs;
pub mod tree;
pub mod zkey;
pub mod zkey_verify;

pub use ark_bn254::Fr;
