//! The web page's figures: its size, its first load from a release `serve`, and a withdrawal
//! proof made by the page's own worker in headless Chromium, beside the native prover on the
//! same machine in the same run (the same circuit, keys and code: `zk::proof::prove`, which
//! the browser runs as WebAssembly on one thread, natively on both cores).
//!
//! Prints one JSON line per figure (`web/page_bytes`, `web/first_load`, `web/prove`,
//! `web/prove_native`). Needs Chromium and tests/web's npm packages (`bash
//! tests/web/install.sh`; `TRONPOOL_TEST_BROWSER` or /usr/bin/chromium) and a `tronpool` built
//! with the prover (`scripts/web-prover`); without them the bench says so and measures
//! nothing. Like a criterion bench it takes a filter: it runs for `web` and when none is given.
#![allow(clippy::unwrap_used)] // a bench fails by panicking: unwrapping is how it says so

use std::path::PathBuf;
use std::process::Stdio;
use std::time::Instant;

use serde_json::json;
use test_support::load::{announced_address, spawn_announced};
use zk::circuit::PublicInputs;
use zk::keys::Keys;
use zk::note::{Note, NoteMeta};
use zk::proof::Witness;
use zk::tree::MerkleTree;

const BINARY: &str = env!("CARGO_BIN_EXE_tronpool");
const PROOFS: usize = 5;
const LOADS: usize = 5;

fn chromium() -> Option<PathBuf> {
    std::env::var_os("TRONPOOL_TEST_BROWSER")
        .map(PathBuf::from)
        .or_else(|| Some(PathBuf::from("/usr/bin/chromium")))
        .filter(|path| path.exists())
}

/// The native prover on the same statement shape: one note in a depth-20 tree.
fn native_proofs() -> Vec<f64> {
    let keys = Keys::insecure_dev();
    (0..PROOFS)
        .map(|_| {
            let note = Note::generate(NoteMeta::usdt(100, "devnet").unwrap());
            let tree = MerkleTree::from_leaves(&[note.commitment()]).unwrap();
            let witness = Witness::new(&note, &tree.path(0).unwrap()).unwrap();
            let public = PublicInputs {
                root: tree.root(),
                nullifier_hash: note.nullifier_hash(),
                recipient: zk::Fr::from(0u64),
                relayer: zk::Fr::from(0u64),
                fee: zk::Fr::from(0u64),
                refund: zk::Fr::from(0u64),
            };
            let started = Instant::now();
            zk::proof::prove(keys, &public, &witness, &mut rand_core::OsRng).unwrap();
            started.elapsed().as_secs_f64() * 1000.0
        })
        .collect()
}

fn main() {
    let filters: Vec<String> = std::env::args()
        .skip(1)
        .filter(|a| !a.starts_with('-'))
        .collect();
    if !filters.is_empty() && !filters.iter().any(|f| "web/".contains(f.as_str())) {
        return;
    }
    let web = test_support::repo_root().join("tests/web");
    let Some(chromium) = chromium().filter(|_| web.join("node_modules/playwright-core").is_dir())
    else {
        eprintln!(
            "web bench: skipped, it needs Chromium and tests/web's npm packages (bash \
             tests/web/install.sh)"
        );
        return;
    };
    let home = tempfile::tempdir().unwrap();
    let (mut devnet, announced) = spawn_announced(
        BINARY,
        home.path(),
        test_support::load::DEVNET_SEALING_ON_BROADCAST,
        Stdio::null(),
    );
    let node = format!("http://{}", announced_address(&announced));
    let server_home = tempfile::tempdir().unwrap();
    let (mut server, announced) = spawn_announced(
        BINARY,
        server_home.path(),
        &[
            "--node",
            &node,
            "serve",
            "--listen",
            "127.0.0.1:0",
            "--rate-limit",
            "100000",
        ],
        Stdio::null(),
    );
    let url = format!("http://{}", announced_address(&announced));
    let _ = rustls::crypto::ring::default_provider().install_default();
    let deployment: serde_json::Value = tokio::runtime::Runtime::new().unwrap().block_on(async {
        let response = reqwest::get(format!("{url}/web/deployment.json")).await;
        response.unwrap().json().await.unwrap()
    });
    if deployment["data"]["prover"] != true {
        eprintln!("web bench: skipped, this tronpool has no browser prover (scripts/web-prover)");
    } else {
        let input = json!({ "url": url, "chromium": chromium, "loads": LOADS, "proofs": PROOFS });
        let run = test_support::interop::node_with_input(
            &web.join("bench.mjs"),
            &input,
            Stdio::inherit(),
        );
        assert!(run.status.success(), "the browser bench failed");
        let mut native = native_proofs();
        native.sort_by(f64::total_cmp);
        println!(
            "{}",
            json!({
                "bench": "web/prove_native",
                "runs": native.len(),
                "median_ms": (native[native.len() / 2] * 10.0).round() / 10.0,
                "min_ms": (native[0] * 10.0).round() / 10.0,
                // arkworks' pools follow rayon's count, which RAYON_NUM_THREADS sets.
                "threads": std::env::var("RAYON_NUM_THREADS")
                    .ok()
                    .and_then(|n| n.parse::<usize>().ok())
                    .unwrap_or_else(|| std::thread::available_parallelism().map_or(1, |n| n.get())),
            })
        );
    }
    let _ = server.kill();
    let _ = devnet.kill();
    let _ = (server.wait(), devnet.wait());
}
