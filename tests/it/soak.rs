//! `serve`'s memory stays flat under traffic nobody scrapes: a real `tronpool serve` process
//! in front of a `tronpool devnet` process (so the RSS read is `serve`'s alone), a mixed load from one flooding client and many ordinary ones
//! (`test_support::load`: pool reads, balances of fresh addresses, unknown paths, malformed
//! bodies, relayer status, most of it past the rate limits), and its RSS read from `/proc`
//! every second. After a warm-up (the first third: caches, connection pools, the limiter's
//! keys and the allocator's arenas fill), RSS may not grow by more than [`MAX_GROWTH_KIB`]
//! from the first [`WINDOW`] after the warm-up to the last one, each window's median: a trend,
//! not one sample. On this 2-core machine RSS wanders by a few MiB within a run, more while
//! other tests share the cores, so a single peak against a single first sample failed about
//! one run in four with nothing leaking. The medians, 30 s apart, catch growth of about 170 KB
//! a second or more: at the ≈ 6,000 requests a second the debug server answers here, state of
//! about 30 bytes a request that is never freed.
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
/// How long each of the two windows whose medians are compared lasts.
const WINDOW: Duration = Duration::from_secs(10);

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
    let median_within = |from: Duration, to: Duration| -> u64 {
        let mut window: Vec<u64> = samples
            .iter()
            .filter(|(at, _)| *at >= from && *at < to)
            .map(|(_, s)| s.rss_kib)
            .collect();
        assert!(!window.is_empty(), "no samples between {from:?} and {to:?}");
        window.sort_unstable();
        window[window.len() / 2]
    };
    let baseline = median_within(warm, warm + WINDOW);
    let end = samples.last().expect("samples").0;
    let peak = median_within(end.saturating_sub(WINDOW), end + Duration::from_secs(1));
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
        "RSS grew {} KiB after the warm-up (median of the first {WINDOW:?} {} → of the last {} \
         KiB) under {summary}; RSS, threads, descriptors by second: {}",
        peak.saturating_sub(baseline),
        baseline,
        peak,
        curve.join(" ")
    );
}
