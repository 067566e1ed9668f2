//! What tronpool's tests and benches share, so each fact lives once: where the repository is,
//! how to run the independent implementations the interop tests compare against, and the
//! snarkjs ceremony whose keys the ceremony tests use.
//!
//! Tests that need a tool beyond Rust (node with `tests/interop/node_modules`, the tronpy venv
//! in `.tools/`, snarkjs) are `#[ignore = "needs …"]`: a plain `cargo test` runs everything
//! else on a machine with only Rust, and `scripts/test` installs the tools and runs all of them
//! (`-- --include-ignored`).
#![allow(clippy::unwrap_used)] // test code: a failure is a panic with a message

pub mod ceremony;
pub mod interop;
pub mod load;
pub mod postgres;
pub mod relay;
pub mod snarkjs_json;

use std::path::PathBuf;

/// The repository's root (this crate is `crates/test-support`).
pub fn repo_root() -> PathBuf {
    let root = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../..");
    root.canonicalize().unwrap_or(root)
}

/// Cargo's target directory: `$CARGO_TARGET_DIR`, else `<repo>/target`.
pub fn target_dir() -> PathBuf {
    std::env::var_os("CARGO_TARGET_DIR")
        .map(PathBuf::from)
        .unwrap_or_else(|| repo_root().join("target"))
}
