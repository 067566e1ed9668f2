//! The REST API over a real socket, against a devnet: every endpoint's shape, every error
//! class as the envelope with its status, the rate limits, a node that goes away, and the
//! unsigned transactions signed by unmodified TronWeb and executed on the chain.

use std::net::SocketAddr;
use std::path::PathBuf;
use std::process::{Command, Stdio};
use std::sync::Arc;
use std::time::Duration;

use alloy_primitives::U256;
use alloy_sol_types::SolCall;
use ark_ff::PrimeField;
use devnet::{DevnetConfig, DevnetHandle};
use reqwest::StatusCode;
use serde_json::{Value, json};
use tron::abi::Trc20;
use tron::{Action, Address, NodeClient, NodeConfig, PrivateKey, Transaction};
use tronpool::api::{self, ApiConfig, App, ServerHandle};
use tronpool::service::chain::Chain;
use tronpool::service::price::{DEFAULT_MAX_AGE, PriceFeed, PriceSource};
use tronpool::service::relayer::{Relayer, RelayerConfig};
use tronpool::service::relayer_fees::{FeePolicy, Pricing};
use tronpool::store::jobs::JobStore;
use zk::note::{Note, NoteMeta};
use zk::tree::MerkleTree;

const INSTALL_HINT: &str =
    "the interop tools are not installed: run `bash tests/interop/install.sh` (CI does)";

/// The default fee policy at the devnet pair's price, read afresh on every use.
pub fn devnet_pricing(devnet: &DevnetHandle) -> Pricing {
    let source = devnet.deployment().price_pair.map(PriceSource::Pair);
    Pricing::new(
        FeePolicy::default(),
        PriceFeed::new(source, DEFAULT_MAX_AGE).refresh_every(Duration::ZERO),
    )
}

/// Where the relayer tests keep their jobs: in memory (SQLite), or, when
/// `TRONPOOL_TEST_JOBS=postgres` (`scripts/test` runs the relayer tests a second time so),
/// in a fresh database on the test PostgreSQL: the same tests on both backends.
pub fn test_jobs() -> JobStore {
    match std::env::var("TRONPOOL_TEST_JOBS").as_deref() {
        Ok("postgres") => {
            let url = test_support::postgres::fresh_database("relayer jobs")
                .expect("TRONPOOL_TEST_JOBS=postgres needs TRONPOOL_TEST_POSTGRES");
            JobStore::on(tronpool::store::sql::Db::Postgres(
                tronpool::store::pg::Pg::connect(&url).unwrap(),
            ))
        }
        _ => JobStore::in_memory().unwrap(),
    }
}

/// A devnet and the API in front of it.
pub struct Served {
    pub devnet: Option<DevnetHandle>,
    pub server: ServerHandle,
    pub http: reqwest::Client,
}

impl Served {
    pub async fn start(config: ApiConfig, cache_ttl: Duration) -> Served {
        Self::launch(DevnetConfig::ephemeral(), config, cache_ttl, None).await
    }

    /// With the devnet's relayer (dev account 1) relaying, its jobs in memory.
    pub async fn with_relayer(config: ApiConfig, relayer: RelayerConfig) -> Served {
        let devnet = DevnetConfig::ephemeral();
        Self::launch(devnet, config, Duration::ZERO, Some(relayer)).await
    }

    /// With the devnet's relayer, and pool reads kept for `cache_ttl` as `serve` keeps them
    /// (the other relayer servers keep nothing).
    pub async fn with_caching_relayer(
        config: ApiConfig,
        relayer: RelayerConfig,
        cache_ttl: Duration,
    ) -> Served {
        Self::launch(DevnetConfig::ephemeral(), config, cache_ttl, Some(relayer)).await
    }

    /// The same on a devnet whose deployer staked nothing (`devnet --no-sponsor`): every
    /// relay's energy is the relayer's, as from a pool nobody sponsors.
    pub async fn unsponsored_relayer(config: ApiConfig, relayer: RelayerConfig) -> Served {
        let devnet = DevnetConfig {
            sponsor: false,
            ..DevnetConfig::ephemeral()
        };
        Self::launch(devnet, config, Duration::ZERO, Some(relayer)).await
    }

    async fn launch(
        devnet: DevnetConfig,
        config: ApiConfig,
        cache_ttl: Duration,
        relayer: Option<RelayerConfig>,
    ) -> Served {
        let devnet = devnet::spawn(devnet).await.expect("a devnet");
        let pricing = devnet_pricing(&devnet);
        let node = devnet.url();
        Self::around(devnet, &node, config, cache_ttl, relayer, pricing).await
    }

    /// The API for `devnet`, reaching it at `node` (the devnet itself, or a proxy in front
    /// of it), priced by `pricing`.
    pub async fn around(
        devnet: DevnetHandle,
        node: &str,
        config: ApiConfig,
        cache_ttl: Duration,
        relayer: Option<RelayerConfig>,
        pricing: Pricing,
    ) -> Served {
        let relayer = relayer.map(|r| (r, test_jobs()));
        Self::around_with_jobs(devnet, node, config, cache_ttl, relayer, pricing).await
    }

    /// [`Served::around`] with the relayer's jobs in `jobs` (a database a relayer before it
    /// used, for a restart).
    pub async fn around_with_jobs(
        devnet: DevnetHandle,
        node: &str,
        config: ApiConfig,
        cache_ttl: Duration,
        relayer: Option<(RelayerConfig, JobStore)>,
        pricing: Pricing,
    ) -> Served {
        let server = Self::replica(node, config, cache_ttl, relayer, pricing).await;
        Served {
            devnet: Some(devnet),
            server,
            http: reqwest::Client::new(),
        }
    }

    /// Another API server for the node at `node`, as a second `serve` replica would be: its
    /// own chain caches and, given one, its own relayer over `jobs` (a database it may share
    /// with other replicas).
    pub async fn replica(
        node: &str,
        config: ApiConfig,
        cache_ttl: Duration,
        relayer: Option<(RelayerConfig, JobStore)>,
        pricing: Pricing,
    ) -> ServerHandle {
        let _ = rustls::crypto::ring::default_provider().install_default();
        let mut node = NodeConfig::new(node.parse().unwrap());
        node.retries = 0;
        node.timeout = Duration::from_secs(5);
        let chain = tronpool::service::open::chain_named(
            "devnet",
            NodeClient::new(node).unwrap(),
            cache_ttl,
        )
        .await
        .expect("the devnet's deployment");
        let mut app = App::new(chain, pricing, config);
        if let Some((relayer, jobs)) = relayer {
            app = app.with_relayer(Relayer::new(devnet::genesis::dev_key(1), relayer, jobs));
        }
        api::spawn("127.0.0.1:0".parse::<SocketAddr>().unwrap(), Arc::new(app))
            .await
            .expect("the API listens")
    }

    pub fn devnet(&self) -> &DevnetHandle {
        self.devnet.as_ref().expect("running")
    }

    pub fn url(&self, path: &str) -> String {
        format!("{}{path}", self.server.url())
    }

    pub async fn get(&self, path: &str) -> (StatusCode, Value) {
        let response = self.http.get(self.url(path)).send().await.expect("answer");
        envelope(response).await
    }

    pub async fn post(&self, path: &str, body: Value) -> (StatusCode, Value) {
        let response = self
            .http
            .post(self.url(path))
            .json(&body)
            .send()
            .await
            .expect("answer");
        envelope(response).await
    }

    /// A plain-text answer's body (`/metrics`).
    pub async fn text(&self, path: &str) -> String {
        let response = self.http.get(self.url(path)).send().await.expect("answer");
        response.text().await.expect("a body")
    }

    /// The `data` of a successful answer.
    pub async fn ok(&self, path: &str, body: Option<Value>) -> Value {
        let (status, value) = match body {
            Some(body) => self.post(path, body).await,
            None => self.get(path).await,
        };
        assert_eq!(status, StatusCode::OK, "{path}: {value}");
        assert_eq!(value["ok"], true, "{value}");
        value["data"].clone()
    }

    /// The `error` of a failed answer, after checking its status.
    pub async fn fails(&self, path: &str, body: Option<Value>, expected: u16) -> String {
        let (status, value) = match body {
            Some(body) => self.post(path, body).await,
            None => self.get(path).await,
        };
        assert_eq!(status.as_u16(), expected, "{path}: {value}");
        assert_eq!(value["ok"], false, "{value}");
        value["error"]
            .as_str()
            .expect("an error message")
            .to_owned()
    }
}

/// Every answer, of every status, is the envelope.
pub async fn envelope(response: reqwest::Response) -> (StatusCode, Value) {
    let status = response.status();
    let kind = response
        .headers()
        .get("content-type")
        .and_then(|v| v.to_str().ok())
        .unwrap_or_default()
        .to_owned();
    let text = response.text().await.expect("a body");
    assert!(
        kind.starts_with("application/json"),
        "{status}: {kind}: {text}"
    );
    let value: Value = serde_json::from_str(&text).expect("JSON");
    if value["ok"] == false {
        // Every failure names its class, the one the CLI's exit code follows.
        let kind = value["kind"].as_str().unwrap_or_default();
        assert!(
            tronpool::error::Kind::from_name(kind).is_some(),
            "{status}: no kind: {value}"
        );
    }
    (status, value)
}

pub fn hex32(f: &ark_bn254::Fr) -> String {
    test_support::relay::hex32(f)
}

/// A real withdrawal proof for leaf `index` of `tree`, as the API takes it.
pub fn prove_withdrawal(
    note: &Note,
    tree: &MerkleTree,
    index: u32,
    recipient: Address,
    relayer: Option<Address>,
    fee: u64,
    refund: u64,
) -> String {
    test_support::relay::withdrawal_proof(
        note,
        tree,
        index,
        recipient.evm_bytes(),
        relayer.map(|r| r.evm_bytes()),
        (fee, refund),
    )
}

pub fn random_word() -> String {
    hex32(&ark_bn254::Fr::from_be_bytes_mod_order(
        &rand_core::RngCore::next_u64(&mut rand_core::OsRng).to_be_bytes(),
    ))
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn every_endpoint_answers_with_its_shape() {
    let served = Served::start(ApiConfig::default(), Duration::from_secs(3)).await;
    let deployment = served.devnet().deployment().clone();
    let owner = served.devnet().accounts()[0].address();
    let pool100 = deployment.pool(100).unwrap().address;

    let pools = served.ok("/api/pools", None).await;
    let pools = pools["pools"].as_array().expect("pools");
    let denominations: Vec<u64> = pools
        .iter()
        .map(|p| p["denomination"].as_u64().unwrap())
        .collect();
    assert_eq!(denominations, [100, 500, 1000, 3000, 5000, 10000]);
    let empty_root = hex32(&zk::tree::empty_root());
    let pool = served.ok("/api/pools/100", None).await;
    assert_eq!(pool, pools[0]);
    assert_eq!(
        pool,
        json!({
            "denomination": 100, "denominationRaw": "100000000",
            "address": pool100.to_base58(),
            "poolBalance": 0.0, "poolBalanceRaw": "0",
            "currentRoot": empty_root,
            // The genesis pools are sponsored: the deployer's stake pays the relay's energy,
            // so the fee is the 800 bytes × 1,000 sun = 0.8 TRX at the devnet pair's 0.28
            // USDT, +20%.
            "relayerFee": 0.2688, "relayerFeeRaw": "268800",
            "depositCount": 0,
            // Queued pools: each deposit escrows 0.25 USDT for the batch that inserts it.
            "queued": 0, "insertionFee": 0.25, "insertionFeeRaw": "250000",
            // Nothing waits (and this server runs no batcher).
            "nextBatch": null,
        })
    );
    assert_eq!(
        served.ok("/api/pools/100/root", None).await,
        json!({ "denomination": 100, "root": empty_root, "depositCount": 0 })
    );

    let nullifier_hash = random_word();
    assert_eq!(
        served
            .ok(
                "/api/pools/100/check-spent",
                Some(json!({ "nullifierHash": nullifier_hash }))
            )
            .await,
        json!({ "nullifierHash": nullifier_hash, "spent": false })
    );
    assert_eq!(
        served
            .ok(
                "/api/pools/500/can-withdraw",
                Some(json!({ "nullifierHash": nullifier_hash, "root": empty_root }))
            )
            .await,
        json!({ "canWithdraw": true, "spent": false, "knownRoot": true })
    );
    let unknown = served
        .ok(
            "/api/pools/500/can-withdraw",
            Some(json!({ "nullifierHash": nullifier_hash, "root": random_word() })),
        )
        .await;
    assert_eq!(unknown["canWithdraw"], false);
    assert_eq!(unknown["knownRoot"], false);
    assert!(
        unknown["reason"]
            .as_str()
            .unwrap()
            .contains("last 100 roots")
    );

    let balance = served
        .ok(&format!("/api/balance/{}", owner.to_base58()), None)
        .await;
    assert_eq!(
        balance,
        json!({
            "address": owner.to_base58(),
            "balance": 1_000_000.0, "balanceRaw": "1000000000000",
            "trx": 1_000_000.0, "trxRaw": "1000000000000",
            // The daily free bandwidth, no stake: what `tronpool balance` shows too.
            "resources": {
                "energyAvailable": 0, "energyLimit": 0,
                "bandwidthAvailable": 600, "bandwidthLimit": 600,
                "stakedForEnergyRaw": "0", "lentRaw": "0", "borrowedRaw": "0",
            },
        })
    );
    // Either address form is accepted; the answer is base58.
    let hex_form = served
        .ok(&format!("/api/balance/{}", owner.to_hex()), None)
        .await;
    assert_eq!(hex_form["address"], owner.to_base58());
    assert_eq!(
        served
            .ok(&format!("/api/allowance/{}/100", owner.to_base58()), None)
            .await,
        json!({
            "address": owner.to_base58(), "denomination": 100, "pool": pool100.to_base58(),
            "allowance": 0.0, "allowanceRaw": "0", "sufficient": false,
        })
    );

    // approve: the exact call, on a recent block, with a fee limit and a long expiry.
    let data = served
        .ok(
            "/api/tx/approve",
            Some(json!({ "from": owner.to_base58(), "denomination": 100 })),
        )
        .await;
    let tx_json = &data["transaction"];
    assert_eq!(tx_json["visible"], false);
    for field in ["txID", "raw_data", "raw_data_hex"] {
        assert!(!tx_json[field].is_null(), "{field} in {tx_json}");
    }
    let tx = Transaction::from_json(tx_json).expect("java-tron's JSON");
    assert!(tx.signatures().is_empty());
    let Action::Trigger(call) = tx.action().unwrap() else {
        panic!("a contract call");
    };
    assert_eq!((call.owner, call.contract), (owner, deployment.usdt));
    let approve = Trc20::approveCall::abi_decode(&call.data).unwrap();
    assert_eq!(Address::from(approve.spender), pool100);
    // One deposit with its 0.25 USDT insertion fee, and one base unit: the unit keeps the
    // allowance slot from emptying, so the next approval rewrites it (33,516 energy at ×4.4
    // instead of 99,516).
    assert_eq!(approve.value, U256::from(100_250_001u64));
    assert!(tx.fee_limit() >= 1_000_000 && tx.fee_limit() <= 15_000_000_000);
    let head = served.devnet().with_chain(|c| c.head().timestamp);
    assert!(tx.expiration() >= head + 9 * 60 * 1000, "time to sign");
    // An amount in USDT, with decimals.
    let data = served
        .ok(
            "/api/tx/approve",
            Some(json!({ "from": owner.to_base58(), "denomination": "500", "amount": "12.5" })),
        )
        .await;
    let tx = Transaction::from_json(&data["transaction"]).unwrap();
    let Action::Trigger(call) = tx.action().unwrap() else {
        panic!("a contract call");
    };
    assert_eq!(
        Trc20::approveCall::abi_decode(&call.data).unwrap().value,
        U256::from(12_500_000u64)
    );

    // deposit before approving: the builder says why instead of handing out a failure.
    let note = Note::generate(NoteMeta::usdt(100, "devnet").unwrap());
    let error = served
        .fails(
            "/api/tx/deposit",
            Some(json!({
                "from": owner.to_base58(), "denomination": 100,
                "commitment": hex32(&note.commitment()),
            })),
            422,
        )
        .await;
    assert!(error.contains("insufficient allowance"), "{error}");
    // A fresh account has no USDT.
    let stranger = PrivateKey::generate().address();
    let error = served
        .fails(
            "/api/tx/deposit",
            Some(json!({
                "from": stranger.to_base58(), "denomination": 100,
                "commitment": hex32(&note.commitment()),
            })),
            422,
        )
        .await;
    assert!(error.contains("holds 0 USDT"), "{error}");

    let health = served.ok("/api/health", None).await;
    assert_eq!(health["status"], "ok");
    assert_eq!(health["network"], "devnet");
    assert_eq!(health["version"], env!("CARGO_PKG_VERSION"));
    assert_eq!(health["node"]["reachable"], true);
    assert!(health["node"]["blockNumber"].as_i64().unwrap() >= 1);
    assert!(health["node"]["latencyMs"].is_u64());

    let response = served
        .http
        .get(served.url("/api/openapi.json"))
        .send()
        .await
        .unwrap();
    assert_eq!(response.status(), StatusCode::OK);
    let openapi: Value = response.json().await.unwrap();
    assert_eq!(openapi["openapi"], "3.1.0");
    assert!(openapi["paths"]["/api/tx/withdraw"]["post"].is_object());
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn every_error_is_the_envelope_with_its_status() {
    let served = Served::start(ApiConfig::default(), Duration::from_secs(3)).await;
    let owner = served.devnet().accounts()[0].address().to_base58();
    let word = random_word();

    // Transport-level failures.
    let response = served
        .http
        .post(served.url("/api/pools/100/check-spent"))
        .header("content-type", "application/json")
        .body("{\"nullifierHash\": ")
        .send()
        .await
        .unwrap();
    let (status, value) = envelope(response).await;
    assert_eq!(status, 400, "bad JSON: {value}");
    assert!(value["error"].as_str().unwrap().starts_with("bad JSON"));
    let response = served
        .http
        .post(served.url("/api/pools/100/check-spent"))
        .header("content-type", "text/plain")
        .body(json!({ "nullifierHash": word }).to_string())
        .send()
        .await
        .unwrap();
    assert_eq!(envelope(response).await.0, 415, "not JSON");
    let response = served
        .http
        .post(served.url("/api/tx/withdraw"))
        .json(&json!({ "proof": "0".repeat(100_000) }))
        .send()
        .await
        .unwrap();
    assert_eq!(envelope(response).await.0, 413, "too large");
    let error = served.fails("/api/nowhere", None, 404).await;
    assert!(error.contains("/api/nowhere"), "{error}");
    let error = served.fails("/api/tx/approve", None, 405).await;
    assert!(error.contains("GET is not allowed"), "{error}");
    let response = served
        .http
        .delete(served.url("/api/pools"))
        .send()
        .await
        .unwrap();
    assert_eq!(envelope(response).await.0, 405);

    // Input the service refuses.
    let error = served.fails("/api/pools/7", None, 404).await;
    assert!(
        error.contains("pools: 100, 500, 1000, 3000, 5000, 10000"),
        "{error}"
    );
    // A malformed denomination is the caller's mistake (400); a well-formed one no pool has
    // is 404.
    let error = served.fails("/api/pools/1e2/root", None, 400).await;
    assert!(error.contains("whole USDT"), "{error}");
    served
        .fails(&format!("/api/pools/{}", "9".repeat(40)), None, 400)
        .await;
    // Path segments that are not UTF-8 are the envelope's 400, not axum's plain text.
    served.fails("/api/balance/%FF%FE", None, 400).await;
    let error = served.fails("/api/balance/TNotAnAddress", None, 400).await;
    assert!(error.starts_with("address:"), "{error}");
    served
        .fails(&format!("/api/allowance/{owner}/42"), None, 404)
        .await;
    let error = served
        .fails(
            "/api/pools/100/check-spent",
            Some(json!({ "nullifierHash": "0x1234" })),
            400,
        )
        .await;
    assert!(error.contains("nullifierHash must be 0x"), "{error}");
    let r = "0x30644e72e131a029b85045b68181585d2833e84879b9709143e1f593f0000001";
    let error = served
        .fails(
            "/api/pools/100/can-withdraw",
            Some(json!({ "nullifierHash": word, "root": r })),
            400,
        )
        .await;
    assert!(
        error.contains("root is not below the field modulus"),
        "{error}"
    );
    let error = served
        .fails("/api/pools/100/check-spent", Some(json!({})), 400)
        .await;
    assert!(error.contains("missing field `nullifierHash`"), "{error}");
    let error = served
        .fails(
            "/api/pools/100/check-spent",
            Some(json!({ "nullifierHash": word, "nullifier": word })),
            400,
        )
        .await;
    assert!(error.contains("unknown field `nullifier`"), "{error}");
    let error = served
        .fails(
            "/api/tx/approve",
            Some(json!({ "from": owner, "denomination": 100, "amount": "-5" })),
            400,
        )
        .await;
    assert!(error.contains("amount"), "{error}");
    let error = served
        .fails(
            "/api/tx/approve",
            Some(json!({ "from": owner, "denomination": true })),
            400,
        )
        .await;
    assert!(error.contains("denomination"), "{error}");
    let withdraw = json!({
        "from": owner, "denomination": 100, "proof": "0x12", "root": word,
        "nullifierHash": word, "recipient": owner,
    });
    let error = served.fails("/api/tx/withdraw", Some(withdraw), 400).await;
    assert!(error.contains("512 hex digits"), "{error}");
}

/// GET `path` from the API with these headers; the status, the answer's headers and the
/// envelope.
async fn get_with(
    served: &Served,
    path: &str,
    headers: &[(&str, &str)],
) -> (StatusCode, reqwest::header::HeaderMap, Value) {
    let mut request = served.http.get(served.url(path));
    for (name, value) in headers {
        request = request.header(*name, *value);
    }
    let response = request.send().await.expect("answer");
    let header_map = response.headers().clone();
    let (status, value) = envelope(response).await;
    (status, header_map, value)
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn rate_limits_answer_429_with_retry_after() {
    let served = Served::start(ApiConfig::default(), Duration::from_secs(3)).await;
    // GCRA: a burst of 120, one request's worth back every half second, so a client that
    // keeps asking is refused after 120 and a few more (as many as came back meanwhile).
    let (_, first, _) = get_with(&served, "/api/openapi.json", &[]).await;
    assert_eq!(first["ratelimit-limit"], "120");
    assert_eq!(first["ratelimit-remaining"], "119");
    assert_eq!(first["ratelimit-reset"], "1");
    let mut sent = 1;
    let limited = loop {
        let (status, headers, value) = get_with(&served, "/api/openapi.json", &[]).await;
        sent += 1;
        if status == 429 {
            break (headers, value);
        }
        assert_eq!(status, 200);
        assert!(sent <= 200, "never limited");
    };
    assert!((121..=200).contains(&sent), "refused after {sent}");
    let (headers, value) = limited;
    let retry: u64 = headers["retry-after"].to_str().unwrap().parse().unwrap();
    assert!((1..=60).contains(&retry), "{retry}");
    assert_eq!(headers["ratelimit-remaining"], "0");
    assert_eq!(headers["ratelimit-limit"], "120");
    assert!(value["error"].as_str().unwrap().contains("rate limited"));
    assert!(headers.contains_key("x-request-id"));

    // The probes are never limited, and carry no budget.
    for path in ["/api/health", "/livez", "/readyz"] {
        for _ in 0..10 {
            let (status, headers, value) = get_with(&served, path, &[]).await;
            assert_eq!(status, 200, "{path}: {value}");
            assert!(!headers.contains_key("ratelimit-remaining"), "{path}");
        }
    }

    // Each relayer endpoint has its own budget: polling the status cannot use up a
    // withdrawal's.
    for _ in 0..5 {
        let (status, headers, _) = get_with(&served, "/api/relayer/status", &[]).await;
        assert_ne!(status, 429);
        assert_eq!(headers["ratelimit-limit"], "5");
    }
    let (status, headers, _) = get_with(&served, "/api/relayer/status", &[]).await;
    assert_eq!(status, 429);
    assert!(headers.contains_key("retry-after"));
    let response = served
        .http
        .post(served.url("/api/relayer/withdraw"))
        .json(&json!({}))
        .send()
        .await
        .unwrap();
    assert_eq!(response.headers()["ratelimit-limit"], "5");
    assert_eq!(response.headers()["ratelimit-remaining"], "4");
    assert_eq!(envelope(response).await.0, 400, "its own budget, not spent");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn clients_behind_proxies_are_their_address_or_their_64() {
    // The loopback range is the trusted proxy, given as CIDR.
    let config = ApiConfig {
        rate_limit: 2,
        trusted_proxies: vec!["127.0.0.0/8".parse().unwrap()],
        ..ApiConfig::default()
    };
    let served = Served::start(config, Duration::from_secs(3)).await;
    let status = |headers: &[(&str, &str)]| {
        let headers: Vec<(String, String)> = headers
            .iter()
            .map(|(n, v)| (n.to_string(), v.to_string()))
            .collect();
        let served = &served;
        async move {
            let pairs: Vec<(&str, &str)> = headers
                .iter()
                .map(|(n, v)| (n.as_str(), v.as_str()))
                .collect();
            get_with(served, "/api/openapi.json", &pairs).await.0
        }
    };
    // Two addresses of one /64 share a budget of 2 …
    let a = [("x-forwarded-for", "2001:db8:1:1::1")];
    let b = [("x-forwarded-for", "[2001:db8:1:1::2]:5000")];
    assert_eq!(status(&a).await, 200);
    assert_eq!(status(&b).await, 200);
    assert_eq!(status(&a).await, 429);
    assert_eq!(status(&b).await, 429);
    // … another /64 has its own, and so does an IPv4 client named by `Forwarded`.
    let c = [("x-forwarded-for", "2001:db8:1:2::1")];
    assert_eq!(status(&c).await, 200);
    let d = [("forwarded", "for=\"203.0.113.5:4711\";proto=https")];
    assert_eq!(status(&d).await, 200);
    assert_eq!(status(&d).await, 200);
    assert_eq!(status(&d).await, 429);
    server_stops(served).await;

    // A peer that is not a trusted proxy is the client, whatever its headers say.
    let config = ApiConfig {
        rate_limit: 2,
        trusted_proxies: vec!["10.0.0.0/8".parse().unwrap()],
        ..ApiConfig::default()
    };
    let served = Served::start(config, Duration::from_secs(3)).await;
    for (i, expected) in [200, 200, 429].into_iter().enumerate() {
        let spoofed = format!("198.51.100.{i}");
        let (got, _, _) = get_with(
            &served,
            "/api/openapi.json",
            &[("x-forwarded-for", &spoofed)],
        )
        .await;
        assert_eq!(got, expected, "request {i}");
    }
    server_stops(served).await;
}

async fn server_stops(served: Served) {
    served.server.shutdown().await.unwrap();
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn oversized_input_is_refused_by_its_length() {
    use tokio::io::{AsyncReadExt, AsyncWriteExt};
    let served = Served::start(ApiConfig::default(), Duration::from_secs(3)).await;
    // A request whose head fits the server's 16 KiB: an address of 15,000 characters in the
    // path, refused by the API in its envelope.
    let long = "T".repeat(15_000);
    for path in [
        format!("/api/balance/{long}"),
        format!("/api/allowance/{long}/100"),
        format!("/api/relayer/jobs/{long}"),
        format!("/api/pools/{long}"),
        format!("/api/openapi.json?{long}"),
    ] {
        let (status, headers, value) = get_with(&served, &path, &[]).await;
        assert_eq!(status, 400, "{value}");
        assert_eq!(value["kind"], "usage");
        assert!(headers.contains_key("x-request-id"));
    }
    // Past 16 KiB of head (a 60,000-character path, or a 20,000-byte header) hyper answers 431
    // before the head is parsed and closes the connection; the server goes on serving.
    let addr = served.server.addr();
    let huge = "T".repeat(60_000);
    let filler = "x".repeat(20_000);
    for head in [
        format!("GET /api/balance/{huge} HTTP/1.1\r\nHost: x\r\n\r\n"),
        format!("GET /livez HTTP/1.1\r\nHost: x\r\nCookie: {filler}\r\n\r\n"),
    ] {
        let mut stream = tokio::net::TcpStream::connect(addr).await.unwrap();
        stream.write_all(head.as_bytes()).await.unwrap();
        let mut seen = Vec::new();
        let read = tokio::time::timeout(Duration::from_secs(5), stream.read_to_end(&mut seen));
        let _ = read.await.expect("the server closed the connection");
        assert!(
            seen.starts_with(b"HTTP/1.1 431"),
            "{}",
            String::from_utf8_lossy(&seen)
        );
    }
    served.ok("/api/pools/100", None).await;
    let long = "T".repeat(60_000);
    let owner = served.devnet().accounts()[0].address().to_base58();
    let error = served
        .fails(
            "/api/tx/approve",
            Some(json!({ "from": long, "denomination": 100 })),
            400,
        )
        .await;
    assert!(error.contains("more than any address has"), "{error}");
    let error = served
        .fails(
            "/api/tx/deposit",
            Some(json!({ "from": owner, "denomination": 100, "commitment": long })),
            400,
        )
        .await;
    assert!(error.contains("commitment must be 0x"), "{error}");
    assert!(error.len() < 200, "the input is not echoed: {error}");
    served
        .fails(
            "/api/tx/approve",
            Some(json!({ "from": owner, "denomination": "9".repeat(60_000) })),
            400,
        )
        .await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_node_that_goes_away_is_502_and_health_503() {
    let mut served = Served::start(ApiConfig::default(), Duration::ZERO).await;
    served.ok("/api/pools/100", None).await;
    let (status, _, ready) = get_with(&served, "/readyz", &[]).await;
    assert_eq!(status, 200, "{ready}");
    assert_eq!(ready["data"]["ready"], true);
    let (status, _, live) = get_with(&served, "/livez", &[]).await;
    assert_eq!(
        (status.as_u16(), &live["data"]["status"]),
        (200, &json!("alive"))
    );
    let node = served.devnet().url();
    let port = node
        .rsplit(':')
        .next()
        .unwrap()
        .trim_end_matches('/')
        .to_owned();
    served.devnet.take().unwrap().shutdown().await.unwrap();
    // What failed, not where: the node's URL stays in the server's log, found by the request
    // id the answer carries.
    for path in [
        "/api/pools/100",
        "/api/balance/TNPeeaaFB7K9cmo4uQpcU32zGK8G1NYqeL",
    ] {
        let (status, headers, value) = get_with(&served, path, &[]).await;
        assert_eq!(status, 502, "{value}");
        let body = value.to_string();
        assert!(
            !body.contains("127.0.0.1") && !body.contains(&port),
            "{body}"
        );
        assert!(
            value["error"]
                .as_str()
                .unwrap()
                .contains("could not be reached")
        );
        assert!(!headers["x-request-id"].is_empty());
    }
    let (status, headers, value) = get_with(&served, "/api/health", &[]).await;
    assert_eq!(status, 503, "{value}");
    assert_eq!(value["ok"], false);
    assert_eq!(value["data"]["status"], "unavailable");
    assert_eq!(value["data"]["node"]["reachable"], false);
    assert!(value["error"].as_str().unwrap().contains("unreachable"));
    assert!(!value.to_string().contains("127.0.0.1"), "{value}");
    assert!(headers.contains_key("x-request-id"));
    // Readiness is recomputed at most once a second.
    tokio::time::sleep(Duration::from_millis(1100)).await;
    let (status, headers, value) = get_with(&served, "/readyz", &[]).await;
    assert_eq!(status, 503, "{value}");
    assert_eq!(value["kind"], "unavailable");
    assert_eq!(value["data"]["ready"], false);
    let checks = value["data"]["checks"].as_array().unwrap();
    let node_check = checks.iter().find(|c| c["name"] == "node").unwrap();
    assert_eq!(node_check["ok"], false);
    assert!(!value.to_string().contains("127.0.0.1"), "{value}");
    assert!(headers.contains_key("x-request-id"));
    let (status, _, _) = get_with(&served, "/livez", &[]).await;
    assert_eq!(status, 200, "alive without its node");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn readiness_checks_the_relayer_too() {
    let served = Served::with_relayer(ApiConfig::default(), RelayerConfig::default()).await;
    // The watcher makes its first pass as the server starts: wait for the probe to say so
    // (readiness is recomputed once a second), not for a fixed time.
    let deadline = std::time::Instant::now() + Duration::from_secs(10);
    while get_with(&served, "/readyz", &[]).await.0 != 200 {
        assert!(std::time::Instant::now() < deadline, "never ready");
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
    let data = served.ok("/readyz", None).await;
    let names: Vec<_> = data["checks"]
        .as_array()
        .unwrap()
        .iter()
        .map(|c| {
            (
                c["name"].as_str().unwrap().to_owned(),
                c["ok"].as_bool().unwrap(),
            )
        })
        .collect();
    let expected = ["node", "database", "relayer_watcher", "relayer_balance"];
    assert_eq!(
        names,
        expected.map(|n| (n.to_owned(), true)).to_vec(),
        "{data}"
    );
    let health = served.ok("/api/health", None).await;
    assert_eq!(health["ready"], true);
    assert_eq!(health["checks"], data["checks"], "the same facts");
    // The relayer's balance, as the readiness check read it, is a gauge.
    let text = served.text("/metrics").await;
    assert!(text.contains("tronpool_relayer_balance_trx "), "{text}");
    server_stops(served).await;

    // A relayer that cannot pay is not ready.
    let poor = RelayerConfig {
        min_balance: i64::MAX,
        ..RelayerConfig::default()
    };
    let served = Served::with_relayer(ApiConfig::default(), poor).await;
    let (status, _, value) = get_with(&served, "/readyz", &[]).await;
    assert_eq!(status, 503, "{value}");
    assert!(
        value["error"].as_str().unwrap().contains("relayer_balance"),
        "{value}"
    );
    server_stops(served).await;
}

fn interop_dir() -> PathBuf {
    test_support::interop::dir()
}

/// Has TronWeb sign the API's transactions with `key` and broadcast them to the devnet.
fn tronweb_sign_and_send(node: &str, key: &PrivateKey, transactions: &[Value]) -> Vec<Value> {
    use std::io::Write;
    assert!(
        interop_dir().join("node_modules/tronweb").exists(),
        "{INSTALL_HINT}"
    );
    let mut child = Command::new("node")
        .arg(interop_dir().join("api_tronweb.js"))
        .env("TRONPOOL_TEST_KEY", key.to_hex().as_str())
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap_or_else(|e| panic!("{INSTALL_HINT}: cannot run node: {e}"));
    let input = json!({ "node": node, "transactions": transactions });
    child
        .stdin
        .take()
        .unwrap()
        .write_all(input.to_string().as_bytes())
        .unwrap();
    let output = child.wait_with_output().unwrap();
    assert!(
        output.status.success(),
        "TronWeb failed: {}",
        String::from_utf8_lossy(&output.stderr)
    );
    let value: Value = serde_json::from_slice(&output.stdout).expect("one JSON document");
    value["results"].as_array().expect("results").clone()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
#[ignore = "needs node and python: bash tests/interop/install.sh (scripts/test runs it)"]
async fn tronweb_signs_what_the_api_builds_and_the_chain_runs_it() {
    let served = Served::start(ApiConfig::default(), Duration::ZERO).await;
    let node = served.devnet().url();
    let key = served.devnet().accounts()[2].clone();
    let from = key.address().to_base58();

    // approve → signed by TronWeb → executed.
    let approve = served
        .ok(
            "/api/tx/approve",
            Some(json!({ "from": from, "denomination": 100 })),
        )
        .await;
    let results = tronweb_sign_and_send(&node, &key, &[approve["transaction"].clone()]);
    assert_eq!(results[0]["broadcast"]["result"], true, "{}", results[0]);
    assert_eq!(results[0]["receipt"], "SUCCESS", "{}", results[0]);
    let allowance = served.ok(&format!("/api/allowance/{from}/100"), None).await;
    assert_eq!(allowance["sufficient"], true);

    // deposit a note.
    let note = Note::generate(NoteMeta::usdt(100, "devnet").unwrap());
    let commitment = hex32(&note.commitment());
    let deposit = served
        .ok(
            "/api/tx/deposit",
            Some(json!({ "from": from, "denomination": 100, "commitment": commitment })),
        )
        .await;
    let results = tronweb_sign_and_send(&node, &key, &[deposit["transaction"].clone()]);
    assert_eq!(results[0]["receipt"], "SUCCESS", "{}", results[0]);
    let energy = results[0]["info"]["receipt"]["energy_usage_total"]
        .as_i64()
        .unwrap();
    let limit = Transaction::from_json(&deposit["transaction"])
        .unwrap()
        .fee_limit();
    assert!(energy * 100 < limit, "the fee limit covers the energy used");
    // The answer said beforehand how the energy would be paid: the genesis pools are
    // sponsored by the deployer's stake, so it paid all of it and the caller burned no TRX
    // for energy, and that is what ran. The fee limit still covers the whole energy, in case
    // the sponsor's stake had run out by the time the transaction landed.
    let estimate = &deposit["estimate"];
    assert_eq!(estimate["energy"], energy, "{deposit}");
    assert_eq!(estimate["sponsorEnergy"], energy);
    assert_eq!(estimate["stakedEnergy"], 0);
    assert_eq!(estimate["burnedEnergy"], 0);
    assert_eq!(estimate["burnedSun"], 0);
    assert_eq!(estimate["feeLimitSun"], limit);
    let receipt = &results[0]["info"]["receipt"];
    assert_eq!(receipt["origin_energy_usage"], energy, "{receipt}");
    assert!(receipt.get("energy_fee").is_none(), "{receipt}");
    // Queued, with its insertion fee; in the tree once a batch inserts it.
    let pool = served.ok("/api/pools/100", None).await;
    assert_eq!(
        (pool["depositCount"].as_u64(), pool["queued"].as_u64()),
        (Some(0), Some(1))
    );
    assert_eq!(pool["poolBalanceRaw"], "100250000");
    let url = node.clone();
    tokio::task::spawn_blocking(move || crate::support::insert_queued(&url, 100))
        .await
        .unwrap();
    let pool = served.ok("/api/pools/100", None).await;
    assert_eq!(
        (pool["depositCount"].as_u64(), pool["queued"].as_u64()),
        (Some(1), Some(0))
    );
    let mut tree = MerkleTree::new();
    tree.insert(note.commitment()).unwrap();
    assert_eq!(pool["currentRoot"], hex32(&tree.root()));
    // The same commitment twice is refused before anyone pays.
    let error = served
        .fails(
            "/api/tx/deposit",
            Some(json!({ "from": from, "denomination": 100, "commitment": commitment })),
            422,
        )
        .await;
    assert!(error.contains("already in the 100 USDT pool"), "{error}");

    // withdraw with a real proof to a fresh address, self-submitted with a TRX refund.
    let recipient = PrivateKey::generate().address();
    let refund = 3_000_000u64;
    let proof_hex = prove_withdrawal(&note, &tree, 0, recipient, None, 0, refund);
    let body = json!({
        "from": from, "denomination": 100, "proof": proof_hex,
        "root": hex32(&tree.root()), "nullifierHash": hex32(&note.nullifier_hash()),
        "recipient": recipient.to_base58(), "refund": refund,
    });

    // A proof for other inputs (another refund) is caught off-chain: 422, nothing built.
    let mut other_refund = body.clone();
    other_refund["refund"] = json!(refund + 1);
    let error = served
        .fails("/api/tx/withdraw", Some(other_refund), 422)
        .await;
    assert!(error.contains("does not verify"), "{error}");
    let mut unknown_root = body.clone();
    unknown_root["root"] = json!(random_word());
    let error = served
        .fails("/api/tx/withdraw", Some(unknown_root), 422)
        .await;
    assert!(error.contains("last 100 roots"), "{error}");
    let mut fee_without_relayer = body.clone();
    fee_without_relayer["fee"] = json!("1000000");
    served
        .fails("/api/tx/withdraw", Some(fee_without_relayer), 400)
        .await;

    let withdraw = served.ok("/api/tx/withdraw", Some(body.clone())).await;
    let results = tronweb_sign_and_send(&node, &key, &[withdraw["transaction"].clone()]);
    assert_eq!(results[0]["receipt"], "SUCCESS", "{}", results[0]);
    let balance = served
        .ok(&format!("/api/balance/{}", recipient.to_base58()), None)
        .await;
    assert_eq!(balance["balanceRaw"], "100000000");
    assert_eq!(balance["trxRaw"], refund.to_string());

    // Spent now: 409 from the builder, and check-spent agrees.
    let error = served.fails("/api/tx/withdraw", Some(body), 409).await;
    assert!(error.contains("already spent"), "{error}");
    let spent = served
        .ok(
            "/api/pools/100/check-spent",
            Some(json!({ "nullifierHash": hex32(&note.nullifier_hash()) })),
        )
        .await;
    assert_eq!(spent["spent"], true);
}

/// Serves `app` on a fresh loopback port: a stand-in for a node.
async fn serve_on_loopback(app: axum::Router) -> SocketAddr {
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let addr = listener.local_addr().unwrap();
    tokio::spawn(async move { axum::serve(listener, app).await });
    addr
}

/// A node that takes its time over `getnowblock`, so a request is surely in flight.
async fn slow_node(delay: Duration) -> SocketAddr {
    use axum::routing::post;
    let app = axum::Router::new().route(
        "/wallet/getnowblock",
        post(move || async move {
            tokio::time::sleep(delay).await;
            axum::Json(json!({
                "blockID": format!("{:064x}", 7),
                "block_header": { "raw_data": { "number": 7, "timestamp": 1_700_000_000_000i64 } }
            }))
        }),
    );
    serve_on_loopback(app).await
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn shutdown_finishes_the_requests_in_flight() {
    let _ = rustls::crypto::ring::default_provider().install_default();
    let devnet = devnet::spawn(DevnetConfig::ephemeral()).await.unwrap();
    let node = slow_node(Duration::from_millis(800)).await;
    let client = NodeClient::new(NodeConfig::new(format!("http://{node}").parse().unwrap()));
    let chain = Chain::new(
        "devnet".into(),
        client.unwrap(),
        devnet.deployment().clone(),
        Duration::ZERO,
    )
    .assume_devnet();
    let app = Arc::new(App::new(
        chain,
        devnet_pricing(&devnet),
        ApiConfig::default(),
    ));
    let server = api::spawn("127.0.0.1:0".parse().unwrap(), app)
        .await
        .unwrap();
    let url = server.url();
    let in_flight = tokio::spawn(async move {
        reqwest::get(format!("{url}/api/health"))
            .await
            .expect("answered, not cut off")
            .json::<Value>()
            .await
            .unwrap()
    });
    tokio::time::sleep(Duration::from_millis(200)).await;
    let addr = server.addr();
    let stopped = tokio::spawn(server.shutdown());
    tokio::time::sleep(Duration::from_millis(100)).await;
    assert!(
        tokio::net::TcpStream::connect(addr).await.is_err(),
        "no new connections once stopping"
    );
    let health = in_flight.await.unwrap();
    assert_eq!(health["data"]["node"]["blockNumber"], 7, "{health}");
    stopped.await.unwrap().expect("a clean stop");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn metrics_count_requests_by_route_and_rate_limits() {
    let config = ApiConfig {
        rate_limit: 2,
        ..ApiConfig::default()
    };
    let served = Served::start(config, Duration::from_secs(3)).await;
    served.ok("/api/pools/100", None).await;
    assert_eq!(get_with(&served, "/api/openapi.json", &[]).await.0, 200);
    assert_eq!(get_with(&served, "/api/openapi.json", &[]).await.0, 429);
    let response = served
        .http
        .get(served.url("/metrics"))
        .send()
        .await
        .unwrap();
    assert_eq!(response.status(), 200);
    assert!(
        response.headers()["content-type"]
            .to_str()
            .unwrap()
            .starts_with("text/plain")
    );
    let text = response.text().await.unwrap();
    for expected in [
        "tronpool_http_requests_total{route=\"/api/pools/{denom}\",status=\"200\"}",
        "tronpool_http_requests_total{route=\"/api/openapi.json\",status=\"429\"}",
        "tronpool_rate_limited_total{budget=\"general\"}",
        "tronpool_http_request_duration_seconds_bucket{route=\"/api/pools/{denom}\",le=\"0.005\"}",
        // The pool read went to the node once, and the cache counted it.
        "tronpool_node_calls_total{endpoint=\"wallet/triggerconstantcontract\",outcome=\"ok\"}",
        "tronpool_node_call_duration_seconds_bucket{endpoint=\"wallet/triggerconstantcontract\",le=\"0.1\"}",
        "tronpool_cache_reads_total{cache=\"pool_state\",result=\"miss\"}",
        "tronpool_ready 1",
        // The process itself, in Prometheus' conventions.
        "process_resident_memory_bytes ",
        "process_open_fds ",
        "process_max_fds ",
        "process_threads ",
    ] {
        assert!(text.contains(expected), "{expected} in:\n{text}");
    }
    assert!(!text.contains("/api/pools/100"), "routes, never raw paths");
    server_stops(served).await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn slow_headers_and_idle_connections_are_cut_off() {
    use tokio::io::{AsyncReadExt, AsyncWriteExt};
    let config = ApiConfig {
        header_read_timeout: Duration::from_millis(300),
        ..ApiConfig::default()
    };
    let served = Served::start(config, Duration::from_secs(3)).await;
    let addr = served.server.addr();
    // Closed: the read ends (0 bytes, or a reset) well before the 5 s we give it.
    async fn closed(mut stream: tokio::net::TcpStream) -> Vec<u8> {
        let mut seen = Vec::new();
        let read = tokio::time::timeout(Duration::from_secs(5), stream.read_to_end(&mut seen));
        let _ = read.await.expect("the server closed the connection");
        seen
    }
    // Headers that never end.
    let mut slow = tokio::net::TcpStream::connect(addr).await.unwrap();
    slow.write_all(b"GET /livez HTTP/1.1\r\nHost: x\r\n")
        .await
        .unwrap();
    closed(slow).await;
    // A connection that never sends anything.
    closed(tokio::net::TcpStream::connect(addr).await.unwrap()).await;
    // A kept-alive connection answered once and then left idle.
    let mut idle = tokio::net::TcpStream::connect(addr).await.unwrap();
    idle.write_all(b"GET /livez HTTP/1.1\r\nHost: x\r\n\r\n")
        .await
        .unwrap();
    let seen = closed(idle).await;
    assert!(
        seen.starts_with(b"HTTP/1.1 200"),
        "{}",
        String::from_utf8_lossy(&seen)
    );
    // Requests that keep coming are served as before.
    served.ok("/livez", None).await;
    server_stops(served).await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn past_the_in_flight_cap_requests_are_shed_503() {
    let _ = rustls::crypto::ring::default_provider().install_default();
    let devnet = devnet::spawn(DevnetConfig::ephemeral()).await.unwrap();
    let node = slow_node(Duration::from_millis(1500)).await;
    let client = NodeClient::new(NodeConfig::new(format!("http://{node}").parse().unwrap()));
    let chain = Chain::new(
        "devnet".into(),
        client.unwrap(),
        devnet.deployment().clone(),
        Duration::ZERO,
    );
    let config = ApiConfig {
        max_in_flight: 1,
        ..ApiConfig::default()
    };
    let app = Arc::new(App::new(chain, devnet_pricing(&devnet), config));
    let server = api::spawn("127.0.0.1:0".parse().unwrap(), app)
        .await
        .unwrap();
    let url = server.url();
    let held = tokio::spawn({
        let url = url.clone();
        async move {
            reqwest::get(format!("{url}/api/health"))
                .await
                .unwrap()
                .status()
        }
    });
    tokio::time::sleep(Duration::from_millis(400)).await;
    let response = reqwest::get(format!("{url}/api/openapi.json"))
        .await
        .unwrap();
    assert_eq!(response.headers()["retry-after"], "1");
    let (status, value) = envelope(response).await;
    assert_eq!(status, 503, "{value}");
    assert_eq!(value["kind"], "unavailable");
    let live = reqwest::get(format!("{url}/livez")).await.unwrap();
    assert_eq!(live.status(), 200, "liveness is never shed");
    assert_eq!(held.await.unwrap(), 200);
    let after = reqwest::get(format!("{url}/api/openapi.json"))
        .await
        .unwrap();
    assert_eq!(after.status(), 200, "the permit came back");
    server.shutdown().await.unwrap();
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_request_past_its_timeout_is_504_and_browsers_get_cors() {
    let _ = rustls::crypto::ring::default_provider().install_default();
    let devnet = devnet::spawn(DevnetConfig::ephemeral()).await.unwrap();
    let node = slow_node(Duration::from_secs(5)).await;
    let client = NodeClient::new(NodeConfig::new(format!("http://{node}").parse().unwrap()));
    let chain = Chain::new(
        "devnet".into(),
        client.unwrap(),
        devnet.deployment().clone(),
        Duration::ZERO,
    )
    .assume_devnet();
    let config = ApiConfig {
        request_timeout: Duration::from_millis(300),
        cors_origins: vec!["https://app.example".parse().unwrap()],
        ..ApiConfig::default()
    };
    let app = Arc::new(App::new(chain, devnet_pricing(&devnet), config));
    let server = api::spawn("127.0.0.1:0".parse().unwrap(), app)
        .await
        .unwrap();
    let http = reqwest::Client::new();

    let response = http
        .get(format!("{}/api/health", server.url()))
        .send()
        .await
        .unwrap();
    let (status, value) = envelope(response).await;
    assert_eq!(status, 504, "{value}");
    assert!(
        value["error"]
            .as_str()
            .unwrap()
            .contains("longer than 0.3 s")
    );

    // A preflight from an allowed origin is answered, and does not spend the budget.
    let preflight = http
        .request(
            reqwest::Method::OPTIONS,
            format!("{}/api/tx/deposit", server.url()),
        )
        .header("origin", "https://app.example")
        .header("access-control-request-method", "POST")
        .header("access-control-request-headers", "content-type")
        .send()
        .await
        .unwrap();
    assert!(preflight.status().is_success(), "{}", preflight.status());
    assert_eq!(
        preflight.headers()["access-control-allow-origin"],
        "https://app.example"
    );
    assert!(!preflight.headers().contains_key("ratelimit-remaining"));
    let other = http
        .get(format!("{}/api/openapi.json", server.url()))
        .header("origin", "https://evil.example")
        .send()
        .await
        .unwrap();
    assert!(!other.headers().contains_key("access-control-allow-origin"));
    // With a list of origins an answer depends on the request's: caches are told so.
    assert!(other.headers()["vary"].to_str().unwrap().contains("origin"));
    // The health request above is a probe: it spent nothing.
    assert_eq!(other.headers()["ratelimit-remaining"], "119");
    server.shutdown().await.unwrap();
}

/// A node that answers every call with `status` and `body`, as a broken proxy or a captive
/// portal in front of the real one would.
async fn broken_node(status: u16, body: &'static str) -> SocketAddr {
    let app = axum::Router::new().fallback(move || async move {
        (
            axum::http::StatusCode::from_u16(status).unwrap(),
            [("content-type", "text/html")],
            body,
        )
    });
    serve_on_loopback(app).await
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_node_answering_garbage_or_5xx_is_502_in_bounded_time_and_not_ready() {
    let _ = rustls::crypto::ring::default_provider().install_default();
    let devnet = devnet::spawn(DevnetConfig::ephemeral()).await.unwrap();
    for (status, body, expected) in [
        (
            200,
            "<html><body>Welcome to nginx!</body></html>",
            "unexpected answer",
        ),
        (503, "<html>upstream overloaded</html>", "answered HTTP 503"),
    ] {
        let node = broken_node(status, body).await;
        let url = format!("http://{node}");
        let mut config = NodeConfig::new(url.parse().unwrap());
        config.backoff = Duration::from_millis(10);
        let chain = Chain::new(
            "devnet".into(),
            NodeClient::new(config).unwrap(),
            devnet.deployment().clone(),
            Duration::ZERO,
        )
        .assume_devnet();
        let app = Arc::new(App::new(
            chain,
            devnet_pricing(&devnet),
            ApiConfig::default(),
        ));
        let server = api::spawn("127.0.0.1:0".parse().unwrap(), app)
            .await
            .unwrap();
        let http = reqwest::Client::new();
        for path in [
            "/api/pools/100",
            "/api/balance/TNPeeaaFB7K9cmo4uQpcU32zGK8G1NYqeL",
        ] {
            let started = std::time::Instant::now();
            let response = http
                .get(format!("{}{path}", server.url()))
                .send()
                .await
                .unwrap();
            assert!(response.headers().contains_key("x-request-id"));
            let (code, value) = envelope(response).await;
            // Retried (5xx) or not (garbage), the answer comes well inside the request budget.
            assert!(
                started.elapsed() < Duration::from_secs(5),
                "{path}: {:?}",
                started.elapsed()
            );
            assert_eq!(code, 502, "{status} {path}: {value}");
            assert_eq!(value["ok"], false);
            let error = value["error"].as_str().unwrap();
            assert!(error.contains(expected), "{error}");
            let text = value.to_string();
            assert!(
                !text.contains(&node.to_string()) && !text.contains("nginx"),
                "{text}"
            );
        }
        let response = http
            .get(format!("{}/readyz", server.url()))
            .send()
            .await
            .unwrap();
        let (code, value) = envelope(response).await;
        assert_eq!(code, 503, "{value}");
        assert_eq!(value["data"]["ready"], false);
        assert!(!value.to_string().contains(&node.to_string()), "{value}");
        server.shutdown().await.unwrap();
    }
}

/// A server keeps its synced pool for a whole chain cache period (here an hour), but a page
/// that ends past what it holds (a client syncing itself: its pool may have more) brings it
/// up to date first when a block has come since: the deposits made after its last sync are
/// served within the second the head block is kept, not an hour later (a client used to find
/// the server behind and fall back to the node). A page within what it holds is answered
/// from the cache.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_page_past_the_end_of_the_servers_cache_syncs_it_when_a_block_came_since() {
    let mut served = Served::start(ApiConfig::default(), Duration::from_secs(3600)).await;
    // Asks past the end until the server has `total` leaves, for at most 3 s (the head block
    // it compares is kept for up to a second).
    let past_end = |from: u32, total: u32| {
        let served = &served;
        async move {
            let started = std::time::Instant::now();
            loop {
                let page = served
                    .ok(&format!("/api/pools/100/leaves?from={from}"), None)
                    .await;
                if page["total"] == total || started.elapsed() > Duration::from_secs(3) {
                    return page;
                }
                tokio::time::sleep(Duration::from_millis(100)).await;
            }
        }
    };
    let page = past_end(0, 0).await;
    assert_eq!(page["total"], 0, "{page}");
    let (notes, _) = crate::relayer::deposit(&served, 2, 2).await;
    let page = past_end(0, 2).await;
    assert_eq!(page["total"], 2, "{page}");
    let leaves = page["leaves"].as_array().unwrap();
    assert_eq!(leaves.len(), 2);
    for (leaf, note) in leaves.iter().zip(&notes) {
        let commitment = format!(
            "0x{}",
            hex::encode(zk::field::to_be_bytes(&note.commitment()))
        );
        assert_eq!(leaf["commitment"], commitment.as_str(), "{page}");
    }
    // Within what the cache holds: the same leaves, whatever the chain did since.
    crate::relayer::deposit(&served, 2, 1).await;
    let page = served
        .ok("/api/pools/100/leaves?from=0&limit=1", None)
        .await;
    assert_eq!(page["total"], 2, "{page}");
    // Past its end again: the third.
    let page = past_end(2, 3).await;
    assert_eq!(page["total"], 3, "{page}");
    assert_eq!(page["leaves"].as_array().unwrap().len(), 1);

    // The node gone, the head cannot be read: within its cache period the server still
    // answers from its cache (once the head it kept, for up to a second, has run out).
    served.devnet.take().unwrap().shutdown().await.unwrap();
    tokio::time::sleep(Duration::from_millis(1_100)).await;
    let page = served.ok("/api/pools/100/leaves?from=3", None).await;
    assert_eq!(page["total"], 3, "{page}");
    assert_eq!(page["leaves"].as_array().unwrap().len(), 0);
}
