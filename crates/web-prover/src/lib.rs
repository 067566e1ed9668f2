//! tronpool's privacy core as a WebAssembly module for the web page `serve` serves: notes, the
//! tree and the withdrawal prover, the `zk` crate compiled for the browser. The page runs it in
//! a Web Worker (`web/prover.js`), so a proof never freezes the page.
//!
//! The module talks through a byte buffer and JSON (no bindings generator): the page writes a
//! request into [`exports::input`]'s buffer, calls an operation, and reads the answer from
//! [`exports::output`]. [`ops`] holds what the operations do, so native tests run them too.
//!
//! Building it: `scripts/web-prover` (Debian's `rustc-web`, std built for
//! `wasm32-unknown-unknown`).

pub mod exports;
pub mod ops;

// The module never asks the platform for randomness: notes and proofs are made from bytes the
// page draws from Web Crypto and sends with the request. Anything that asks anyway gets an
// error instead of a silent fixed value.
#[cfg(target_arch = "wasm32")]
fn no_platform_randomness(_: &mut [u8]) -> Result<(), getrandom::Error> {
    Err(getrandom::Error::UNSUPPORTED)
}
#[cfg(target_arch = "wasm32")]
getrandom::register_custom_getrandom!(no_platform_randomness);
