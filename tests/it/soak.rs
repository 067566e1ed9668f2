//! `serve`'s memory stays flat under traffic nobody scrapes: a real `tronpool serve` process
//! in front of a `tronpool devnet` process (so the RSS read is `serve`'s alone), a mixed load from one flooding client and many ordinary ones
//! (`test_support::load`: pool reads, balances of fresh addresses, unknown paths, malformed
//! bodies, relayer status, most of it past the rate limits), and its RSS read from `/proc`
//! every second. After a warm-up (the first third: caches, connection pools, the limiter's
//! keys and the allocator's arenas fill), RSS may not grow by more than [`MAX_GROWTH_KIB`].
//!
//! No one scrapes `/metrics` here on purpose: a recorder whose upkeep only a scrape runs keeps
//! every histogram sample until then (≈ 18 bytes a request), which is exactly what this test
//! is for. The long version, 30 minutes with a plot, is `benches/soak.rs`.
#![cfg(target_os = "linux")]

use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use test_support::load::{self, Counts, LoadShape, ProcessSample, ServeOnDevnet};

use crate::support::TestEnv;

/// How long the load runs; the first third is the warm-up.
const LOAD: Duration = Duration::from_secs(60);
/// The most RSS may grow over the last two thirds of the run.
const MAX_GROWTH_KIB: u64 = 5 * 1024;

#[test]
fn serve_keeps_its_memory_flat_under_a_mixed_load_nobody_scrapes() {
    let env = TestEnv::new();
    let processes = ServeOnDevnet::start(env!("CARGO_BIN_EXE_tronpool"), env.dir.path());
    let server = processes.addr;
    let pid = processes.serve.id();

    // RSS every second, from a thread of its own so a busy runtime cannot delay it.
    let samples = Arc::new(Mutex::new(Vec::<(Duration, ProcessSample)>::new()));
    let done = Arc::new(AtomicBool::new(false));
    let started = Instant::now();
    let sampler = {
        let samples = Arc::clone(&samples);
        let done = Arc::clone(&done);
        std::thread::spawn(move || {
            while !done.load(Ordering::Relaxed) {
                if let Some(s) = ProcessSample::of(pid) {
                    samples.lock().unwrap().push((started.elapsed(), s));
                }
                std::thread::sleep(Duration::from_secs(1));
            }
        })
    };

    let runtime = tokio::runtime::Builder::new_multi_thread()
        .worker_threads(2)
        .enable_all()
        .build()
        .unwrap();
    let counts = Arc::new(Counts::default());
    runtime.block_on(load::run(
        server,
        &LoadShape::default(),
        started + LOAD,
        Arc::clone(&counts),
    ));
    done.store(true, Ordering::Relaxed);
    sampler.join().unwrap();
    drop(processes);

    // The load was the load we meant: answers of every kind, most of them refused cheaply.
    let summary = counts.summary();
    assert!(
        counts.total() > 50_000,
        "too little load to show anything: {summary}"
    );
    for (what, n) in [
        ("2xx", &counts.ok),
        ("4xx", &counts.client_error),
        ("429", &counts.rate_limited),
    ] {
        assert!(
            n.load(Ordering::Relaxed) > 0,
            "no {what} answers: {summary}"
        );
    }
    assert_eq!(
        counts.server_error.load(Ordering::Relaxed),
        0,
        "5xx under load: {summary}"
    );

    let samples = samples.lock().unwrap();
    let warm = LOAD / 3;
    let baseline = samples
        .iter()
        .find(|(at, _)| *at >= warm)
        .expect("a sample after the warm-up")
        .1
        .rss_kib;
    let peak = samples
        .iter()
        .filter(|(at, _)| *at >= warm)
        .map(|(_, s)| s.rss_kib)
        .max()
        .unwrap();
    let curve: Vec<String> = samples
        .iter()
        .map(|(at, s)| {
            format!(
                "{}s:{}MiB/{}t/{}fd",
                at.as_secs(),
                s.rss_kib / 1024,
                s.threads,
                s.open_fds
            )
        })
        .collect();
    eprintln!(
        "soak: {summary}; RSS, threads, descriptors by second: {}",
        curve.join(" ")
    );
    assert!(
        peak <= baseline + MAX_GROWTH_KIB,
        "RSS grew {} KiB after the warm-up ({} → {} KiB) under {summary}; RSS, threads, descriptors by second: {}",
        peak - baseline,
        baseline,
        peak,
        curve.join(" ")
    );
}
