//! Tree sync from a devnet pool with 100,000 deposits: the first sync into an empty cache,
//! and the incremental sync after 100 more deposits; plus `tronpool --help` start-up.
//! Targets (BENCHMARKS.md): first sync ≤ 15 s, incremental ≤ 1 s, `--help` ≤ 20 ms.
//!
//! The deposits are real: each is a signed `deposit` executed by the pool contract on the
//! devnet (1,000 to a block, as on a busy pool), and the sync reads them over loopback HTTP
//! from the devnet's TronGrid events API, exactly as the CLI does. The pool is a queued pool,
//! so a deposit waits until a batch inserts it, and only inserted deposits are in the tree a
//! client builds and checks against the pool: the setup's deposits are inserted by the
//! benchmarks' control (`Ledger::insert_queued`: the roots and counters their 3,125 batches
//! would leave, after checking the leaves against the pool's queue chain; proving those
//! batches would take about an hour here), and each incremental round's 100 by real batches
//! (proved with the devnet's batch development keys, sent through the inserter), so each
//! incremental sync grows the tree by 100 leaves. Making the deposits takes a few minutes
//! before the measurements start. `TRONPOOL_BENCH_DEPOSITS` sets another count.
#![allow(clippy::unwrap_used)] // a test fails by panicking: unwrapping is how it says so

mod support;

use std::time::{Duration, Instant};

use criterion::{Criterion, criterion_group, criterion_main};
use devnet::DevnetConfig;
use support::{approve_and_fund, deposit, median};
use tronpool::store::trees::TreeCache;
use zk::Fr;

const INCREMENT: usize = 100;

fn deposits_wanted() -> usize {
    std::env::var("TRONPOOL_BENCH_DEPOSITS")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(100_000)
}

/// One JSON line per measured figure (nothing when criterion's filter skipped it).
fn line(bench: &str, seconds: f64, target: f64, deposits: usize) {
    if seconds.is_nan() {
        return;
    }
    println!(
        "{}",
        serde_json::json!({
            "bench": bench, "seconds": seconds, "target_seconds": target,
            "deposits": deposits, "met": seconds <= target,
        })
    );
}

fn sync(c: &mut Criterion) {
    if !support::selected("sync/") {
        return;
    }
    let runtime = tokio::runtime::Builder::new_multi_thread()
        .enable_all()
        .build()
        .expect("runtime");
    let wanted = deposits_wanted();
    // Each dev account holds 1,000,000 USDT: 10,000 deposits, with room for the
    // incremental runs.
    let accounts = (wanted + 20_000).div_ceil(10_000);
    let config = DevnetConfig {
        accounts,
        block_time: Duration::ZERO,
        ..DevnetConfig::ephemeral()
    };
    let devnet = runtime.block_on(devnet::spawn(config)).expect("devnet");
    approve_and_fund(&devnet);
    let started = Instant::now();
    let mut next = 0;
    let leaves: Vec<Fr> = deposit(&devnet, wanted, &mut next)
        .iter()
        .map(|c| zk::field::from_be_bytes(c, "a commitment").unwrap())
        .collect();
    let pool = devnet.deployment().pool(100).expect("pool").address;
    let mut tree = devnet
        .with_chain(|chain| {
            let tree = chain.insert_queued(pool, &leaves);
            chain.mine();
            tree
        })
        .expect("insert the deposits");
    let mut queue = zk::batch::chain(Fr::from(0u64), &leaves);
    eprintln!(
        "made and inserted {wanted} deposits in {:.1} s",
        started.elapsed().as_secs_f64()
    );
    let node = tron::NodeClient::new(tron::NodeConfig::new(devnet.url().parse().expect("url")))
        .expect("client");
    let chain = runtime
        .block_on(tronpool::service::open::chain_named(
            "devnet",
            node,
            Duration::ZERO,
        ))
        .expect("deployment");
    let dir = tempfile::tempdir().expect("temp dir");

    let mut group = c.benchmark_group("sync");
    group.sample_size(10);
    group.measurement_time(Duration::from_secs(30));
    let mut first = Vec::new();
    group.bench_function("first_100k", |b| {
        b.iter_custom(|iters| {
            let mut total = Duration::ZERO;
            for _ in 0..iters {
                let cache =
                    TreeCache::open(&dir.path().join(format!("first-{}.sqlite3", first.len())))
                        .expect("cache");
                let started = Instant::now();
                let synced = runtime
                    .block_on(tronpool::service::sync::sync_tree(
                        &chain,
                        100,
                        &cache,
                        &|_| {},
                    ))
                    .expect("sync");
                let took = started.elapsed();
                assert_eq!(synced.leaves as usize, wanted);
                first.push(took.as_secs_f64());
                total += took;
            }
            total
        })
    });
    let warm = TreeCache::open(&dir.path().join("warm.sqlite3")).expect("cache");
    runtime
        .block_on(tronpool::service::sync::sync_tree(
            &chain,
            100,
            &warm,
            &|_| {},
        ))
        .expect("sync");
    // Each iteration adds 100 deposits to the pool: few, flat samples.
    group.sampling_mode(criterion::SamplingMode::Flat);
    group.warm_up_time(Duration::from_millis(500));
    group.measurement_time(Duration::from_secs(5));
    let mut incremental = Vec::new();
    group.bench_function("incremental_100", |b| {
        b.iter_custom(|iters| {
            let mut total = Duration::ZERO;
            for _ in 0..iters {
                let new = deposit(&devnet, INCREMENT, &mut next);
                support::insert(&devnet, &mut tree, &mut queue, &new);
                let started = Instant::now();
                let synced = runtime
                    .block_on(tronpool::service::sync::sync_tree(
                        &chain,
                        100,
                        &warm,
                        &|_| {},
                    ))
                    .expect("sync");
                let took = started.elapsed();
                assert_eq!(
                    synced.fetched, INCREMENT,
                    "{} leaves after {next} deposits",
                    synced.leaves as usize
                );
                assert_eq!(synced.leaves as usize, next, "every deposit is in the tree");
                incremental.push(took.as_secs_f64());
                total += took;
            }
            total
        })
    });
    group.finish();
    line("sync/first_100k", median(&mut first), 15.0, wanted);
    line(
        "sync/incremental_100",
        median(&mut incremental),
        1.0,
        wanted,
    );
}

fn help(c: &mut Criterion) {
    let bin = env!("CARGO_BIN_EXE_tronpool");
    let mut times = Vec::new();
    c.bench_function("startup/help", |b| {
        b.iter_custom(|iters| {
            let mut total = Duration::ZERO;
            for _ in 0..iters {
                let started = Instant::now();
                let out = std::process::Command::new(bin)
                    .arg("--help")
                    .output()
                    .expect("runs");
                let took = started.elapsed();
                assert!(out.status.success());
                times.push(took.as_secs_f64());
                total += took;
            }
            total
        })
    });
    line("startup/help", median(&mut times), 0.020, 0);
}

criterion_group!(benches, help, sync);
criterion_main!(benches);
