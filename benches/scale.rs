//! A pool of about a million deposits: what a client pays to sync it and withdraw from it.
//!
//! The devnet's 100 USDT pool (a queued pool) is filled with 2^20 − 8,192 commitments by the
//! benchmarks' fill (`Ledger::fill_queued_pool`: the counters, the ring of batch roots and
//! the queue chain written as that many deposits and their batches of 32 would leave them;
//! 1,040,384 real deposits would take about half an hour here). The last of them is the note
//! this bench withdraws, the others random. Real deposits go on top, 100 before each
//! incremental sync, and real batches (proved with the devnet's batch development keys, sent
//! through the inserter) put them into the tree before the sync, so each sync grows the tree
//! by 100 leaves. A tronpool server (`serve`'s API in this process, its general rate limit
//! raised for the page benchmarks) holds the filled leaves in its cache as one that synced
//! the pool would; the fill wrote no events, so it is the only source of those. The client
//! checks every tree it builds against the pool's `isKnownRoot` over HTTP, exactly as on a
//! real chain.
//!
//! Measured: a cold sync from the server (packed pages) into an empty cache; an incremental
//! sync of 100 new deposits from the events API, from the server and from a scan of the
//! node's blocks; one page of leaves from
//! the server, packed and as objects; reading a proof's path from the cache; and the CLI as a
//! user runs it (`pool sync`, `withdraw --unsigned` of the newest note), with its peak memory
//! from `/usr/bin/time`. Figures are JSON lines, targets from issue 36. Run with
//! `scripts/bench scale/`; the setup takes a minute or two, the batches a few more.
#![allow(clippy::unwrap_used)] // a test fails by panicking: unwrapping is how it says so

mod support;

use std::io::Write;
use std::path::Path;
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

use alloy_sol_types::SolCall;
use contracts::QueuedPool;
use criterion::{Criterion, criterion_group, criterion_main};
use devnet::DevnetConfig;
use rand_core::RngCore;
use support::{approve_and_fund, deposit, median};
use tronpool::service::chain::Chain;
use tronpool::settings::SyncSource;
use tronpool::store::trees::{Leaf, TreeCache, Update};
use zk::Fr;
use zk::note::{Note, NoteMeta};

/// Leaves the fill writes: room is left for the real deposits the bench makes.
const FILL: usize = (1 << 20) - 8_192;
const INCREMENT: usize = 100;
/// Incremental syncs measured from each source.
const INCREMENTAL_ROUNDS: usize = 15;

fn random_leaf(rng: &mut impl RngCore) -> Fr {
    let mut word = [0u8; 32];
    rng.fill_bytes(&mut word);
    word[0] &= 0x1f; // below r
    zk::field::from_be_bytes(&word, "a random leaf").unwrap()
}

/// One JSON line per figure.
fn line(bench: &str, value: serde_json::Value) {
    let mut out = serde_json::json!({ "bench": bench, "leaves": FILL });
    out.as_object_mut()
        .unwrap()
        .extend(value.as_object().unwrap().clone());
    println!("{out}");
}

/// The median of `samples`, against `target` when the issue set one.
fn seconds_line(bench: &str, samples: &mut [f64], target: Option<f64>) {
    let seconds = median(samples);
    if seconds.is_nan() {
        return;
    }
    let mut figure = serde_json::json!({ "seconds": seconds, "samples": samples.len() });
    if let Some(target) = target {
        figure["target_seconds"] = target.into();
        figure["met"] = (seconds <= target).into();
    }
    line(bench, figure);
}

fn scale(c: &mut Criterion) {
    if !support::selected("scale/") {
        return;
    }
    let runtime = tokio::runtime::Builder::new_multi_thread()
        .enable_all()
        .build()
        .unwrap();
    let devnet = runtime
        .block_on(devnet::spawn(DevnetConfig {
            accounts: 2,
            block_time: Duration::ZERO,
            ..DevnetConfig::ephemeral()
        }))
        .unwrap();
    approve_and_fund(&devnet);
    let pool = devnet.deployment().pool(100).unwrap().address;
    let key = pool.to_base58();
    let mut rng = rand_core::OsRng;

    let started = Instant::now();
    // The note the CLI withdraws: the newest leaf of the fill, inserted like the others.
    let note = Note::generate(NoteMeta::usdt(100, "devnet").unwrap());
    let leaves: Vec<Fr> = (1..FILL)
        .map(|_| random_leaf(&mut rng))
        .chain([note.commitment()])
        .collect();
    let mut tree = devnet
        .with_chain(|chain| {
            let tree = chain.fill_queued_pool(pool, &leaves);
            chain.mine();
            tree
        })
        .unwrap();
    eprintln!(
        "filled the pool with {FILL} leaves in {:.1} s",
        started.elapsed().as_secs_f64()
    );
    // Real deposits made on top of the fill.
    let mut next = 0;

    // The server's cache, as a server that synced the pool would hold it.
    let dir = tempfile::tempdir().unwrap();
    let started = Instant::now();
    let served_trees = TreeCache::open(&dir.path().join("serve.sqlite3")).unwrap();
    let filled_at = devnet.with_chain(|chain| chain.head().timestamp) - 1;
    let filled: Vec<Leaf> = leaves
        .iter()
        .zip(0..)
        .map(|(leaf, index)| {
            let mut txid = [0u8; 32];
            rng.fill_bytes(&mut txid);
            Leaf {
                index,
                commitment: zk::field::to_be_bytes(leaf),
                block_timestamp: filled_at,
                txid: hex::encode(txid),
            }
        })
        .collect();
    served_trees
        .save(
            &key,
            &Update {
                leaves: &filled,
                tree: Some(&tree),
                ..Update::default()
            },
        )
        .unwrap();
    // The queue chain after the fill's last deposit, as the pool keeps it: where the first
    // batch on top starts.
    let mut queue = devnet.with_chain(|chain| {
        let data = QueuedPool::queueHashCall {
            position: FILL as u32 - 1,
        }
        .abi_encode();
        let out = chain.call(pool, Some(pool), data, 0).unwrap();
        let word = QueuedPool::queueHashCall::abi_decode_returns(&out.output).unwrap();
        zk::field::from_be_bytes(&word.0, "a queue hash").unwrap()
    });
    drop((filled, leaves));
    eprintln!(
        "wrote the server's cache in {:.1} s",
        started.elapsed().as_secs_f64()
    );

    let node =
        || tron::NodeClient::new(tron::NodeConfig::new(devnet.url().parse().unwrap())).unwrap();
    let open = |ttl| {
        runtime
            .block_on(tronpool::service::open::chain_named("devnet", node(), ttl))
            .unwrap()
    };
    // The server keeps its chain reads for `serve`'s default period (a block); a page past
    // the end of its cache still brings it up to date when a block has come since.
    let app = tronpool::api::App::new(
        open(Duration::from_secs(3)),
        tronpool::service::relayer_fees::Pricing::with_source(None),
        // The page benchmarks ask many times a second; a sync asks 17 times (16 packed pages
        // and one of withdrawals), inside the default 120 a minute.
        tronpool::api::ApiConfig {
            rate_limit: 1_000_000,
            ..tronpool::api::ApiConfig::default()
        },
    )
    .with_trees(served_trees);
    let server = runtime
        .block_on(tronpool::api::spawn(
            "127.0.0.1:0".parse().unwrap(),
            std::sync::Arc::new(app),
        ))
        .unwrap();
    let from_server: Chain = open(Duration::ZERO).with_sync_sources(
        vec![SyncSource::Server(server.url().parse().unwrap())],
        None,
    );
    let from_events: Chain = open(Duration::ZERO);
    let sync = |chain: &Chain, cache: &TreeCache| {
        runtime
            .block_on(tronpool::service::sync::sync_tree(
                chain,
                100,
                cache,
                &|_| {},
            ))
            .unwrap()
    };

    let mut group = c.benchmark_group("scale");
    group.sample_size(10);
    group.sampling_mode(criterion::SamplingMode::Flat);
    group.warm_up_time(Duration::from_millis(1));
    group.measurement_time(Duration::from_secs(5));

    let mut cold = Vec::new();
    group.bench_function("cold_sync_from_server", |b| {
        b.iter_custom(|iters| {
            let mut total = Duration::ZERO;
            for _ in 0..iters {
                let path = dir.path().join(format!("cold-{}.sqlite3", cold.len()));
                let cache = TreeCache::open(&path).unwrap();
                let started = Instant::now();
                let synced = sync(&from_server, &cache);
                let took = started.elapsed();
                assert_eq!(synced.leaves as usize, FILL + next);
                assert_eq!(synced.deposits as usize, FILL + next);
                cold.push(took.as_secs_f64());
                total += took;
                drop(cache);
                remove_database(&path);
            }
            total
        })
    });

    // The user's own cache, in the home the CLI runs in below.
    let home = tempfile::tempdir().unwrap();
    let warm = TreeCache::open(&home.path().join("devnet/tronpool.sqlite3")).unwrap();
    sync(&from_server, &warm);
    // A fixed number of rounds rather than criterion's: criterion times only the sync and
    // would make as many rounds as fit its measurement time, and the pool's tree has room
    // for 8,192 deposits on top of the fill.
    let mut incremental = |name: &str, chain: &Chain, rounds: usize, samples: &mut Vec<f64>| {
        for _ in 0..rounds {
            let new = deposit(&devnet, INCREMENT, &mut next);
            support::insert(&devnet, &mut tree, &mut queue, &new);
            let started = Instant::now();
            let synced = sync(chain, &warm);
            samples.push(started.elapsed().as_secs_f64());
            assert_eq!(synced.fetched, INCREMENT, "{name}");
        }
    };
    let (mut from_events_samples, mut from_server_samples) = (Vec::new(), Vec::new());
    incremental(
        "incremental_100_events",
        &from_events,
        INCREMENTAL_ROUNDS,
        &mut from_events_samples,
    );
    incremental(
        "incremental_100_server",
        &from_server,
        INCREMENTAL_ROUNDS,
        &mut from_server_samples,
    );
    // The node's blocks: a scan starts at the cache's scan cursor, the block after the last
    // one a scan read. This cache has none yet (it came from the server), so a first round,
    // untimed, reads every block since the pool's deployment; after it a scan reads the
    // blocks of 100 deposits and their batches, whatever the pool's size.
    let from_scan = open(Duration::ZERO).with_sync_sources(vec![SyncSource::BlockScan], None);
    let mut from_scan_samples = Vec::new();
    incremental("incremental_100_scan", &from_scan, 1, &mut Vec::new());
    incremental(
        "incremental_100_scan",
        &from_scan,
        INCREMENTAL_ROUNDS,
        &mut from_scan_samples,
    );
    // One page as a client fetches and reads it: packed (65,536 leaves) and as objects
    // (1,000), from the middle of the pool.
    let _ = rustls::crypto::ring::default_provider().install_default();
    let http = reqwest::Client::new();
    let mut pages: Vec<(&str, Vec<f64>)> = Vec::new();
    for (name, query) in [
        ("leaves_page_packed", "from=500000&format=packed"),
        ("leaves_page_entries", "from=500000"),
    ] {
        let url = format!("{}/api/pools/100/leaves?{query}", server.url());
        let mut samples = Vec::new();
        group.bench_function(name, |b| {
            b.iter_custom(|iters| {
                let started = Instant::now();
                for _ in 0..iters {
                    let page: serde_json::Value = runtime.block_on(async {
                        http.get(&url).send().await.unwrap().json().await.unwrap()
                    });
                    assert_eq!(page["ok"], true);
                }
                let took = started.elapsed();
                samples.push(took.as_secs_f64() / iters as f64);
                took
            })
        });
        pages.push((name, samples));
    }
    let count = (FILL + next) as u32;
    let mut paths = Vec::new();
    group.bench_function("path", |b| {
        b.iter_custom(|iters| {
            let started = Instant::now();
            for _ in 0..iters {
                let index = rng.next_u32() % count;
                let path = warm.path(&key, count, index).unwrap().unwrap();
                assert_eq!(path.siblings.len(), zk::tree::DEPTH);
            }
            let took = started.elapsed();
            paths.push(took.as_secs_f64() / iters as f64);
            took
        })
    });
    group.finish();
    seconds_line("scale/cold_sync_from_server", &mut cold, Some(10.0));
    seconds_line(
        "scale/incremental_100_events",
        &mut from_events_samples,
        Some(0.05),
    );
    seconds_line(
        "scale/incremental_100_server",
        &mut from_server_samples,
        Some(0.05),
    );
    seconds_line(
        "scale/incremental_100_scan",
        &mut from_scan_samples,
        Some(0.05),
    );
    seconds_line("scale/path", &mut paths, None);
    for (name, mut samples) in pages {
        seconds_line(&format!("scale/{name}"), &mut samples, None);
    }
    drop(warm);

    // The CLI as a user runs it, in the home whose cache holds the pool.
    let bin = env!("CARGO_BIN_EXE_tronpool");
    let cli = |args: &[&str], stdin: Option<&str>| -> (f64, u64, serde_json::Value) {
        let mut cmd = Command::new("/usr/bin/time");
        cmd.args(["-f", "%M", bin, "--json", "--node", &devnet.url()])
            .args(args)
            .env("TRONPOOL_HOME", home.path())
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped());
        let started = Instant::now();
        let mut child = cmd.spawn().unwrap();
        if let Some(text) = stdin {
            child
                .stdin
                .take()
                .unwrap()
                .write_all(text.as_bytes())
                .unwrap();
        }
        drop(child.stdin.take());
        let out = child.wait_with_output().unwrap();
        let took = started.elapsed().as_secs_f64();
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert!(out.status.success(), "{args:?}: {stderr}");
        let peak_kb: u64 = stderr.lines().last().unwrap().trim().parse().unwrap();
        let json = serde_json::from_slice(&out.stdout).unwrap_or_default();
        (took, peak_kb, json)
    };
    let new = deposit(&devnet, INCREMENT, &mut next);
    support::insert(&devnet, &mut tree, &mut queue, &new);
    let (took, peak_kb, _) = cli(&["pool", "sync", "--denom", "100"], None);
    line(
        "scale/cli_pool_sync_100_new",
        serde_json::json!({
            "seconds": took, "peak_rss_mb": peak_kb / 1024, "target_rss_mb": 200,
            "met": peak_kb / 1024 <= 200,
        }),
    );
    let to = devnet.accounts()[1].address().to_base58();
    let (took, peak_kb, json) = cli(
        &["withdraw", "-", "--to", &to, "--unsigned", "--from", &to],
        Some(&note.to_text()),
    );
    assert_eq!(json["ok"], true, "{json}");
    line(
        "scale/cli_withdraw_unsigned_newest_note",
        serde_json::json!({ "seconds": took, "peak_rss_mb": peak_kb / 1024 }),
    );
}

/// A SQLite database and its write-ahead files.
fn remove_database(path: &Path) {
    for suffix in ["", "-wal", "-shm"] {
        let mut name = path.as_os_str().to_owned();
        name.push(suffix);
        let _ = std::fs::remove_file(name);
    }
}

criterion_group!(benches, scale);
criterion_main!(benches);
