//! Benchmarks of tronpool's native ZK primitives (criterion): Poseidon single-threaded, fast
//! (one hash, and 64 independent ones at once) and light-poseidon, and building a full depth-20 Merkle tree (`zk::tree`) on all cores.
//!
//! `scripts/bench` runs these and prints one JSON line per result; `BENCHMARKS.md` has the
//! figures and targets. Run one group with `cargo bench --bench zk -- tree`.
#![allow(clippy::unwrap_used)] // a test fails by panicking: unwrapping is how it says so

use std::hint::black_box;
use std::time::Duration;

use ark_std::UniformRand;
use criterion::{Criterion, SamplingMode, criterion_group, criterion_main};
use rand_chacha::ChaCha20Rng;
use rand_core::SeedableRng;
use zk::Fr;
use zk::poseidon::{hash1, hash2, hash2_pairs, reference};
use zk::tree::MerkleTree;

/// Leaves of the benchmarked tree: depth 20, the pool's depth.
const TREE_DEPTH: u32 = 20;

fn poseidon(c: &mut Criterion) {
    let mut rng = ChaCha20Rng::seed_from_u64(1);
    let (a, b) = (Fr::rand(&mut rng), Fr::rand(&mut rng));
    // Build the precomputed tables outside the measurement.
    black_box(hash2(a, b));
    black_box(hash1(a));

    let mut group = c.benchmark_group("poseidon");
    group.bench_function("hash1", |bench| {
        bench.iter(|| hash1(black_box(a)));
    });
    group.bench_function("hash2", |bench| {
        bench.iter(|| hash2(black_box(a), black_box(b)));
    });
    // Many independent hashes, as a tree level has them: eight at a time on the vector unit
    // where the CPU has AVX-512 IFMA, one at a time elsewhere. Criterion's figure is for 64
    // hashes; BENCHMARKS.md divides.
    let pairs: Vec<Fr> = (0..128).map(|_| Fr::rand(&mut rng)).collect();
    let mut out = vec![Fr::from(0u64); 64];
    group.bench_function("hash2_pairs_64", |bench| {
        bench.iter(|| hash2_pairs(black_box(&pairs), &mut out));
    });
    group.bench_function("hash1_reference", |bench| {
        bench.iter(|| reference::hash(&[black_box(a)]));
    });
    group.bench_function("hash2_reference", |bench| {
        bench.iter(|| reference::hash(&[black_box(a), black_box(b)]));
    });
    group.finish();
}

fn tree(c: &mut Criterion) {
    let mut rng = ChaCha20Rng::seed_from_u64(2);
    let leaves: Vec<Fr> = (0..1u32 << TREE_DEPTH)
        .map(|_| Fr::rand(&mut rng))
        .collect();
    black_box(hash2(leaves[0], leaves[1]));

    // One build is seconds long: 10 samples of one build each (criterion's minimum; it warns
    // that it cannot fit them into the target time, which is expected).
    let mut group = c.benchmark_group("tree");
    group
        .sample_size(10)
        .sampling_mode(SamplingMode::Flat)
        .warm_up_time(Duration::from_millis(500))
        .measurement_time(Duration::from_secs(10));
    group.bench_function(format!("full_2^{TREE_DEPTH}"), |bench| {
        // The tree a client builds when it syncs a full pool: every node kept, so any
        // leaf's path is at hand (`MerkleTree::extend`, both cores).
        bench.iter(|| MerkleTree::from_leaves(black_box(&leaves)).expect("2^20 leaves fit"));
    });
    group.finish();
}

fn config() -> Criterion {
    Criterion::default().without_plots()
}

criterion_group! {
    name = benches;
    config = config();
    targets = poseidon, tree
}
criterion_main!(benches);
