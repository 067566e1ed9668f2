//! Embeds the browser's prover (`crates/web-prover` built for wasm32 by `scripts/web-prover`)
//! in the binary when it has been built, so `serve` hands the page its prover without
//! reading anything at run time. Without it the binary still builds (a plain `cargo build`
//! needs only Rust) and the page says that this build cannot prove in the browser.

use std::path::PathBuf;

fn main() {
    const VAR: &str = "TRONPOOL_WEB_PROVER";
    println!("cargo:rerun-if-env-changed={VAR}");
    let manifest = PathBuf::from(std::env::var_os("CARGO_MANIFEST_DIR").expect("set by cargo"));
    let built = std::env::var_os(VAR)
        .map(PathBuf::from)
        .unwrap_or_else(|| manifest.join("target/web/prover.wasm"));
    println!("cargo:rerun-if-changed={}", built.display());
    let out = PathBuf::from(std::env::var_os("OUT_DIR").expect("set by cargo")).join("prover.wasm");
    let bytes = std::fs::read(&built).unwrap_or_default();
    std::fs::write(&out, bytes).expect("writing to OUT_DIR");
}
