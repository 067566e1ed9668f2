//! Groth16 proving and verifying of the withdraw circuit, with the development keys and with
//! a snarkjs ceremony's keys (whose proofs take snarkjs's R1CS-to-QAP reduction), and of the
//! batch-insert circuit (`batch`: a full batch of 32 and a batch of one, with keys made here).
//! Target on the 2-core reference machine: prove ≤ 0.3 s median. See BENCHMARKS.md.
//!
//! The ceremony's zkey is `$TRONPOOL_BENCH_ZKEY`, else the tests' shared ceremony
//! (`test_support::ceremony`: `<target>/ceremony/withdraw.zkey`, made when missing, minutes
//! once). Without snarkjs installed (`bash tests/interop/install.sh`) and no
//! `$TRONPOOL_BENCH_ZKEY`, the ceremony group is skipped with a message; the rest runs.
#![allow(clippy::unwrap_used)] // a test fails by panicking: unwrapping is how it says so

use std::path::PathBuf;

use ark_std::UniformRand;
use criterion::{Criterion, criterion_group, criterion_main};
use rand_core::{RngCore, SeedableRng};
use zk::Fr;
use zk::circuit::{DEPTH, PublicInputs};
use zk::keys::Keys;
use zk::proof::{EncodedProof, Witness, prove, root_of, verify};

fn inputs() -> (PublicInputs, Witness) {
    let mut rng = rand_chacha::ChaCha20Rng::seed_from_u64(1);
    let mut secret = || {
        let mut bytes = [0u8; 31];
        rng.fill_bytes(&mut bytes);
        bytes
    };
    let (n, s) = (secret(), secret());
    let mut rng = rand_chacha::ChaCha20Rng::seed_from_u64(2);
    let witness = Witness {
        nullifier: ark_ff::PrimeField::from_be_bytes_mod_order(&n),
        secret: ark_ff::PrimeField::from_be_bytes_mod_order(&s),
        siblings: std::array::from_fn::<_, DEPTH, _>(|_| Fr::rand(&mut rng)),
        index: 0b1010_0101_1100_0011_0110,
    };
    let public = PublicInputs {
        root: root_of(&witness),
        nullifier_hash: zk::poseidon::hash1(witness.nullifier),
        recipient: zk::field::from_address(&[7; 20]),
        relayer: zk::field::from_address(&[9; 20]),
        fee: Fr::from(1_500_000u64),
        refund: Fr::from(0u64),
    };
    (public, witness)
}

fn groth16(c: &mut Criterion) {
    let keys = Keys::insecure_dev();
    let (public, witness) = inputs();
    let mut rng = rand_chacha::ChaCha20Rng::seed_from_u64(3);
    let mut group = c.benchmark_group("groth16");
    group.sample_size(20);
    group.bench_function("prove", |b| {
        b.iter(|| prove(keys, &public, &witness, &mut rng).expect("valid witness"))
    });
    let proof = prove(keys, &public, &witness, &mut rng).expect("valid witness");
    group.bench_function("verify", |b| b.iter(|| verify(keys, &public, &proof)));
    let encoded = EncodedProof::from_proof(&proof);
    group.bench_function("decode_proof", |b| {
        b.iter(|| encoded.to_proof().expect("valid"))
    });
    group.finish();
}

/// `BatchInsert(levels, 20)`: what a batcher pays in CPU for one batch, full or of one
/// deposit, at the default block of 32 (`BATCH_LEVELS`) and beside it (16 and 64), with the
/// circuit's size. Each size is proved the plain arkworks way (the circuit synthesized for
/// every proof); the default size also with `zk::batch_proof::prove`, which is handed the matrices
/// and checks the assignment first, as a batcher proves.
fn batch(c: &mut Criterion) {
    use ark_bn254::Bn254;
    use ark_groth16::Groth16;
    use ark_relations::gr1cs::{ConstraintSynthesizer, ConstraintSystem};
    use ark_snark::SNARK;
    use zk::batch::{BATCH_LEVELS, BatchCircuit, chain};
    use zk::tree::MerkleTree;

    let mut group = c.benchmark_group("batch");
    group.sample_size(10);
    for levels in [BATCH_LEVELS - 1, BATCH_LEVELS, BATCH_LEVELS + 1] {
        let size = 1usize << levels;
        let cs = ConstraintSystem::<Fr>::new_ref();
        BatchCircuit::blank(levels)
            .generate_constraints(cs.clone())
            .unwrap();
        println!(
            "{}",
            serde_json::json!({
                "bench": "batch_circuit",
                "batch_size": size,
                "constraints": cs.num_constraints(),
                "domain": (cs.num_constraints() + 2).next_power_of_two(),
            })
        );
        let mut rng = rand_chacha::ChaCha20Rng::seed_from_u64(4);
        let (pk, _) =
            Groth16::<Bn254>::circuit_specific_setup(BatchCircuit::blank(levels), &mut rng)
                .unwrap();
        let existing: Vec<Fr> = (0..2 * size as u64).map(Fr::from).collect();
        let tree = MerkleTree::from_leaves(&existing).unwrap();
        let start = chain(Fr::from(0u64), &existing);
        let submitter = zk::field::from_address(&[7; 20]);
        for count in [size, 1] {
            let queued: Vec<Fr> = (0..count as u64).map(|i| Fr::from(1000 + i)).collect();
            let circuit = BatchCircuit::new(levels, &tree, start, &queued, submitter).unwrap();
            group.bench_function(format!("prove_{count}_of_{size}"), |b| {
                b.iter(|| Groth16::<Bn254>::prove(&pk, circuit.clone(), &mut rng).unwrap())
            });
            if levels == BATCH_LEVELS {
                group.bench_function(format!("batcher_prove_{count}_of_{size}"), |b| {
                    b.iter(|| zk::batch_proof::prove(&pk, &circuit, &mut rng).unwrap())
                });
            }
        }
    }
    group.finish();
}

/// The ceremony's zkey: given, or the tests' shared one (made now if missing); `None` when
/// neither is possible on this machine.
fn ceremony_zkey() -> Option<PathBuf> {
    if let Some(path) = std::env::var_os("TRONPOOL_BENCH_ZKEY") {
        return Some(PathBuf::from(path));
    }
    let shared = test_support::ceremony::ceremony_dir().join("withdraw.zkey");
    if shared.is_file() {
        return Some(shared);
    }
    test_support::interop::installed().then(|| test_support::ceremony::ceremony().zkey.clone())
}

fn groth16_ceremony(c: &mut Criterion) {
    let Some(path) = ceremony_zkey() else {
        eprintln!(
            "groth16_ceremony skipped: no TRONPOOL_BENCH_ZKEY and snarkjs is not installed \
             (bash tests/interop/install.sh)"
        );
        return;
    };
    let bytes = std::fs::read(&path).expect("read the zkey");
    let keys = Keys::from_zkey(&bytes).expect("a zkey for the withdraw circuit");
    let (public, witness) = inputs();
    let mut rng = rand_chacha::ChaCha20Rng::seed_from_u64(3);
    let mut group = c.benchmark_group("groth16_ceremony");
    group.sample_size(20);
    group.bench_function("read_zkey", |b| {
        b.iter(|| Keys::from_zkey(&bytes).expect("valid"))
    });
    group.bench_function("prove", |b| {
        b.iter(|| prove(&keys, &public, &witness, &mut rng).expect("valid witness"))
    });
    group.finish();
    against_snarkjs(&path, &keys, &public, &witness);
}

/// Ours against snarkjs's `groth16.prove` in one sitting: the same zkey, the same witness
/// (ours as a `.wtns` file), alternating runs of 9 proofs, medians. snarkjs is handed the
/// witness, so its figure leaves out the witness calculation `fullProve` would add; ours
/// includes computing the assignment, the native checks and the self-check verify.
/// Prints `{"bench":"prove_vs_snarkjs","ours_ms","snarkjs_ms","ratio","target_ratio","met"}`.
fn against_snarkjs(zkey: &std::path::Path, keys: &Keys, public: &PublicInputs, witness: &Witness) {
    if !test_support::interop::installed() {
        eprintln!(
            "prove_vs_snarkjs skipped: snarkjs is not installed (bash tests/interop/install.sh)"
        );
        return;
    }
    let dir = tempfile::tempdir().expect("a temp dir");
    let wtns = dir.path().join("withdraw.wtns");
    let circuit = witness.circuit(public);
    std::fs::write(
        &wtns,
        zk::r1cs::withdraw_wtns(circuit).expect("the witness"),
    )
    .unwrap();
    let mut rng = rand_chacha::ChaCha20Rng::seed_from_u64(4);
    let median = |mut runs: Vec<f64>| {
        runs.sort_by(f64::total_cmp);
        runs[runs.len() / 2]
    };
    let (mut ours, mut theirs) = (Vec::new(), Vec::new());
    for _ in 0..3 {
        prove(keys, public, witness, &mut rng).expect("valid witness");
        let runs = (0..9)
            .map(|_| {
                let start = std::time::Instant::now();
                prove(keys, public, witness, &mut rng).expect("valid witness");
                start.elapsed().as_secs_f64() * 1e3
            })
            .collect();
        ours.push(median(runs));
        let out = test_support::interop::node("snarkjs_prove.js")
            .args([zkey.as_os_str(), wtns.as_os_str(), "9".as_ref()])
            .output()
            .expect("node runs");
        assert!(
            out.status.success(),
            "{}",
            test_support::interop::text(&out)
        );
        let line: serde_json::Value =
            serde_json::from_slice(&out.stdout).expect("snarkjs_prove.js prints one JSON line");
        theirs.push(line["median_ms"].as_f64().expect("a median"));
    }
    let (ours, theirs) = (median(ours), median(theirs));
    let ratio = theirs / ours;
    println!(
        "{}",
        serde_json::json!({
            "bench": "prove_vs_snarkjs",
            "ours_ms": ours,
            "snarkjs_ms": theirs,
            "ratio": ratio,
            "target_ratio": 8.0,
            "met": ratio >= 8.0,
        })
    );
}

criterion_group!(benches, groth16, groth16_ceremony, batch);
criterion_main!(benches);
