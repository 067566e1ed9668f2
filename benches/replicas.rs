//! `serve` on its SQLite file against `serve` on PostgreSQL, one replica and two behind a
//! round-robin balancer, each in front of one `tronpool devnet` process: relay requests
//! approved per second (a burst of real relays, every one checked, simulated, recorded and
//! broadcast) and job-status reads per second (`GET /api/relayer/jobs/{txid}`, 16 keep-alive
//! connections). Release builds, every process on this machine's cores.
//!
//! Prints one JSON line per figure:
//! `{"bench":"replicas/approve","backend":"postgres","replicas":2,"relays":…,"seconds":…,
//! "per_second":…}` and `{"bench":"replicas/job_reads",…,"reads":…,"per_second":…}`.
//!
//! Needs PostgreSQL: `scripts/bench replicas` starts a throwaway one (its URL in
//! `TRONPOOL_TEST_POSTGRES`); without it the bench says so and measures nothing. Like a
//! criterion bench it takes a filter: it runs for `replicas` and when no filter is given.
#![allow(clippy::unwrap_used)] // a bench fails by panicking: unwrapping is how it says so

use std::net::SocketAddr;
use std::process::{Child, Stdio};
use std::sync::Arc;
use std::sync::atomic::{AtomicU64, Ordering};
use std::time::{Duration, Instant};

use serde_json::{Value, json};
use test_support::load::{announced_address, round_robin, spawn_announced};
use test_support::relay::{deposit_queued, hex32, insert_queued, withdrawal_proof};
use tron::{Address, NodeClient, NodeConfig, PrivateKey};
use zk::tree::MerkleTree;

const BINARY: &str = env!("CARGO_BIN_EXE_tronpool");
/// Relays in each burst.
const RELAYS: usize = 32;
/// How long the job reads run, and over how many connections.
const READ_SECONDS: u64 = 5;
const READERS: usize = 16;

struct Replicas {
    processes: Vec<Child>,
    urls: Vec<String>,
    _homes: Vec<tempfile::TempDir>,
}

impl Replicas {
    fn start(node: &str, database: Option<&str>, count: usize) -> Replicas {
        let mut replicas = Replicas {
            processes: Vec::new(),
            urls: Vec::new(),
            _homes: Vec::new(),
        };
        for _ in 0..count {
            let home = tempfile::tempdir().unwrap();
            let mut args = vec![
                "--node",
                node,
                "serve",
                "--listen",
                "127.0.0.1:0",
                "--relayer-poll",
                "200ms",
                "--relayer-rate-limit",
                "100000",
                "--rate-limit",
                "100000000",
            ];
            if let Some(url) = database {
                args.extend(["--database", url]);
            }
            let (process, announced) = spawn_announced(BINARY, home.path(), &args, Stdio::null());
            replicas
                .urls
                .push(format!("http://{}", announced_address(&announced)));
            replicas.processes.push(process);
            replicas._homes.push(home);
        }
        replicas
    }
}

impl Drop for Replicas {
    fn drop(&mut self) {
        for process in &mut self.processes {
            let _ = process.kill();
            let _ = process.wait();
        }
    }
}

async fn get(http: &reqwest::Client, url: &str) -> Value {
    http.get(url).send().await.unwrap().json().await.unwrap()
}

/// One setup measured: `replicas` servers on `database` (none: SQLite).
/// `pool` is the pool's tree so far (every setup deposits into the same pool).
async fn measure(
    node: &str,
    (depositor, relayer): (&PrivateKey, Address),
    pool: &mut MerkleTree,
    setup: (&str, Option<&str>, usize),
) {
    let (backend, database, count) = setup;
    let replicas = Replicas::start(node, database, count);
    let sockets: Vec<SocketAddr> = replicas
        .urls
        .iter()
        .map(|u| u.trim_start_matches("http://").parse().unwrap())
        .collect();
    let api = round_robin(sockets).await;
    let http = reqwest::Client::new();
    let status = get(&http, &format!("{api}/api/relayer/status")).await;
    let fee: u64 = status["data"]["fees"][0]["relayerFeeRaw"]
        .as_str()
        .unwrap()
        .parse()
        .unwrap();
    let client = NodeClient::new(NodeConfig::new(node.parse().unwrap())).unwrap();
    let (notes, _) = deposit_queued(&replicas.urls[0], &client, depositor, 100, RELAYS).await;
    let indices: Vec<u32> = notes
        .iter()
        .map(|n| pool.insert(n.commitment()).unwrap())
        .collect();
    let tree = &*pool;
    let node_url = node.to_owned();
    tokio::task::spawn_blocking(move || insert_queued(BINARY, &node_url, 100))
        .await
        .unwrap();
    // Every request proved before the clock starts: the bench measures the servers.
    let bodies: Vec<Value> = notes
        .iter()
        .zip(&indices)
        .map(|(note, &i)| {
            let recipient = PrivateKey::generate().address();
            json!({
                "denomination": "100",
                "proof": withdrawal_proof(
                    note,
                    tree,
                    i,
                    recipient.evm_bytes(),
                    Some(relayer.evm_bytes()),
                    (fee, 0),
                ),
                "root": hex32(&tree.root()),
                "nullifierHash": hex32(&note.nullifier_hash()),
                "recipient": recipient.to_base58(),
                "fee": fee,
                "refund": 0,
            })
        })
        .collect();

    let started = Instant::now();
    let relays: Vec<_> = bodies
        .into_iter()
        .map(|body| {
            let (http, api) = (http.clone(), api.clone());
            tokio::spawn(async move {
                let response = http
                    .post(format!("{api}/api/relayer/withdraw"))
                    .json(&body)
                    .send()
                    .await
                    .unwrap();
                let status = response.status().as_u16();
                let value: Value = response.json().await.unwrap();
                assert!(status == 200 || status == 202, "{status}: {value}");
                value["data"]["txid"].as_str().unwrap().to_owned()
            })
        })
        .collect();
    let mut txids = Vec::new();
    for relay in relays {
        txids.push(relay.await.unwrap());
    }
    let seconds = started.elapsed().as_secs_f64();
    println!(
        "{}",
        json!({
            "bench": "replicas/approve", "backend": backend, "replicas": count,
            "relays": RELAYS, "seconds": seconds, "per_second": RELAYS as f64 / seconds,
        })
    );

    let reads = Arc::new(AtomicU64::new(0));
    let until = Instant::now() + Duration::from_secs(READ_SECONDS);
    let txids = Arc::new(txids);
    let readers: Vec<_> = (0..READERS)
        .map(|i| {
            let (api, reads, txids) = (api.clone(), reads.clone(), txids.clone());
            tokio::spawn(async move {
                // One keep-alive connection per reader.
                let http = reqwest::Client::builder()
                    .pool_max_idle_per_host(1)
                    .build()
                    .unwrap();
                let mut n = i;
                while Instant::now() < until {
                    let url = format!("{api}/api/relayer/jobs/{}", txids[n % txids.len()]);
                    let response = http.get(url).send().await.unwrap();
                    assert_eq!(response.status(), 200);
                    response.bytes().await.unwrap();
                    reads.fetch_add(1, Ordering::Relaxed);
                    n += 1;
                }
            })
        })
        .collect();
    for reader in readers {
        reader.await.unwrap();
    }
    let reads = reads.load(Ordering::Relaxed);
    println!(
        "{}",
        json!({
            "bench": "replicas/job_reads", "backend": backend, "replicas": count,
            "connections": READERS, "reads": reads,
            "per_second": reads as f64 / READ_SECONDS as f64,
        })
    );
}

fn main() {
    // cargo bench passes `--bench` and criterion-style filters; run when none excludes us.
    let filters: Vec<String> = std::env::args()
        .skip(1)
        .filter(|a| !a.starts_with('-'))
        .collect();
    if !filters.is_empty() && !filters.iter().any(|f| "replicas/".contains(f.as_str())) {
        return;
    }
    let Some(database) = test_support::postgres::fresh_database("replicas bench") else {
        return;
    };
    let _ = rustls::crypto::ring::default_provider().install_default();
    let runtime = tokio::runtime::Builder::new_multi_thread()
        .worker_threads(2)
        .enable_all()
        .build()
        .unwrap();
    let home = tempfile::tempdir().unwrap();
    let (mut devnet, announced) = spawn_announced(
        BINARY,
        home.path(),
        test_support::load::DEVNET_SEALING_ON_BROADCAST,
        Stdio::null(),
    );
    let node = format!("http://{}", announced_address(&announced));
    let data = &announced["data"];
    let depositor =
        PrivateKey::from_hex(data["accounts"][2]["privateKey"].as_str().unwrap()).unwrap();
    let relayer: Address = data["accounts"][1]["address"]
        .as_str()
        .unwrap()
        .parse()
        .unwrap();
    runtime.block_on(async {
        let mut pool = MerkleTree::new();
        for setup in [
            ("sqlite", None, 1),
            ("postgres", Some(database.as_str()), 1),
            ("postgres", Some(database.as_str()), 2),
        ] {
            measure(&node, (&depositor, relayer), &mut pool, setup).await;
        }
    });
    let _ = devnet.kill();
    let _ = devnet.wait();
}
