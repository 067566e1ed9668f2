//! `zk::poseidon::hash1`/`hash2` against circomlibjs 0.1.7 (`buildPoseidon()`), the
//! implementation circom circuits and snarkjs users hash with, on a few hundred random inputs.
//!
//! Needs node and `tests/interop/node_modules` (`bash tests/interop/install.sh`), so it is
//! ignored by a plain `cargo test` and run by `scripts/test`; without them it fails. The seed comes from the clock and is printed; rerun a
//! failure with `TRONPOOL_INTEROP_SEED=<seed> cargo test -p zk --test circomlibjs`.
#![allow(clippy::unwrap_used)] // a test fails by panicking: unwrapping is how it says so

use std::io::Write;
use std::process::{Command, Stdio};
use std::time::{SystemTime, UNIX_EPOCH};

use ark_ff::{Field, One, UniformRand, Zero};
use rand_chacha::ChaCha20Rng;
use rand_core::{RngCore, SeedableRng};
use zk::Fr;
use zk::field::{from_decimal, to_decimal};
use zk::poseidon::{hash1, hash2};

const PER_ARITY: usize = 150;

fn seed() -> u64 {
    match std::env::var("TRONPOOL_INTEROP_SEED") {
        Ok(s) => s
            .trim()
            .parse()
            .unwrap_or_else(|_| panic!("TRONPOOL_INTEROP_SEED={s:?} is not a u64")),
        Err(_) => SystemTime::now()
            .duration_since(UNIX_EPOCH)
            .expect("clock after 1970")
            .as_nanos() as u64,
    }
}

/// A mix of uniform field elements and the values implementations get wrong: 0, 1, small
/// numbers, powers of two, r − 1 and its neighbours.
fn element(rng: &mut ChaCha20Rng) -> Fr {
    match rng.next_u32() % 10 {
        0..=4 => Fr::rand(rng),
        5 => Fr::from(rng.next_u64() % 1_000),
        6 => Fr::from(2u64).pow([u64::from(rng.next_u32() % 254)]),
        7 => -Fr::from(1 + rng.next_u64() % 3),
        8 => Fr::zero(),
        _ => Fr::from(rng.next_u64()),
    }
}

fn inputs(seed: u64) -> Vec<Vec<Fr>> {
    let r_minus_1 = -Fr::one();
    let mut all = vec![
        vec![Fr::zero()],
        vec![Fr::one()],
        vec![r_minus_1],
        vec![Fr::zero(), Fr::zero()],
        vec![Fr::one(), Fr::from(2u64)],
        vec![r_minus_1, r_minus_1],
        vec![Fr::zero(), r_minus_1],
        vec![r_minus_1, Fr::zero()],
    ];
    let mut rng = ChaCha20Rng::seed_from_u64(seed);
    for _ in 0..PER_ARITY {
        all.push(vec![element(&mut rng)]);
        all.push(vec![element(&mut rng), element(&mut rng)]);
    }
    all
}

/// Runs `tests/interop/poseidon_vectors.js` on `inputs` and returns its outputs.
fn circomlibjs(inputs: &[Vec<Fr>]) -> Vec<Fr> {
    let root = test_support::repo_root();
    let interop = test_support::interop::dir();
    test_support::interop::require_node_package("circomlibjs");
    let request = serde_json::json!({
        "inputs": inputs
            .iter()
            .map(|input| input.iter().map(to_decimal).collect::<Vec<_>>())
            .collect::<Vec<_>>(),
    });
    let mut child = Command::new("node")
        .arg(interop.join("poseidon_vectors.js"))
        .current_dir(&root)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap_or_else(|e| {
            panic!("cannot run node ({e}): install node 20, then `bash tests/interop/install.sh`")
        });
    child
        .stdin
        .take()
        .expect("piped stdin")
        .write_all(request.to_string().as_bytes())
        .expect("write to node");
    let output = child.wait_with_output().expect("wait for node");
    assert!(
        output.status.success(),
        "poseidon_vectors.js failed ({}): {}\n(if circomlibjs is missing: `bash tests/interop/install.sh`)",
        output.status,
        String::from_utf8_lossy(&output.stderr)
    );
    let response: serde_json::Value =
        serde_json::from_slice(&output.stdout).expect("poseidon_vectors.js prints JSON");
    let outputs = response["outputs"]
        .as_array()
        .expect("an \"outputs\" array");
    assert_eq!(outputs.len(), inputs.len(), "one output per input");
    outputs
        .iter()
        .map(|v| from_decimal(v.as_str().expect("decimal string"), "circomlibjs output").unwrap())
        .collect()
}

#[test]
#[ignore = "needs node and python: bash tests/interop/install.sh (scripts/test runs it)"]
fn poseidon_matches_circomlibjs() {
    let seed = seed();
    println!("circomlibjs interop seed: {seed} (rerun with TRONPOOL_INTEROP_SEED={seed})");
    let inputs = inputs(seed);
    assert!(inputs.len() >= 200);
    let expected = circomlibjs(&inputs);

    let mut mismatches = Vec::new();
    for (input, expected) in inputs.iter().zip(&expected) {
        let ours = match input.as_slice() {
            [a] => hash1(*a),
            [a, b] => hash2(*a, *b),
            _ => unreachable!(),
        };
        if ours != *expected {
            mismatches.push(format!(
                "  {:?}: ours {}, circomlibjs {}",
                input.iter().map(to_decimal).collect::<Vec<_>>(),
                to_decimal(&ours),
                to_decimal(expected)
            ));
        }
    }
    assert!(
        mismatches.is_empty(),
        "seed {seed}: {} of {} hashes differ from circomlibjs:\n{}",
        mismatches.len(),
        inputs.len(),
        mismatches[..mismatches.len().min(10)].join("\n")
    );
}
