//! Embeds the browser's prover (`crates/web-prover` built for wasm32 by `scripts/web-prover`)
//! in the binary when it has been built, so `serve` hands the page its prover without
//! reading anything at run time. Without it the binary still builds (a plain `cargo build`
//! needs only Rust) and the page says that this build cannot prove in the browser.

use std::io::Write;
use std::path::PathBuf;

fn main() {
    const VAR: &str = "TRONPOOL_WEB_PROVER";
    println!("cargo:rerun-if-env-changed={VAR}");
    let manifest = PathBuf::from(std::env::var_os("CARGO_MANIFEST_DIR").expect("set by cargo"));
    let built = std::env::var_os(VAR)
        .map(PathBuf::from)
        .unwrap_or_else(|| manifest.join("target/web/prover.wasm"));
    println!("cargo:rerun-if-changed={}", built.display());
    let out = PathBuf::from(std::env::var_os("OUT_DIR").expect("set by cargo"));
    let bytes = std::fs::read(&built).unwrap_or_default();
    // Compressed here, once, so a browser that takes gzip downloads a third of it and `serve`
    // spends nothing per request on compressing.
    let mut gzip = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::best());
    if !bytes.is_empty() {
        gzip.write_all(&bytes).expect("compressing in memory");
    }
    let gzipped = if bytes.is_empty() {
        Vec::new()
    } else {
        gzip.finish().expect("compressing in memory")
    };
    std::fs::write(out.join("prover.wasm"), bytes).expect("writing to OUT_DIR");
    std::fs::write(out.join("prover.wasm.gz"), gzipped).expect("writing to OUT_DIR");
}
