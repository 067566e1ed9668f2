//! Syncing a pool without TronGrid, and a client that tells its node nothing about its notes:
//! a node with no events API (`devnet --no-events-api`) synced by a block scan or from a
//! tronpool server's leaves; a server that alters a leaf refused by the root check; every
//! request through a SOCKS5 proxy; and no `isSpent` or `commitments` call to the node from a
//! withdrawal or a notes check.

use std::sync::{Arc, Mutex};
use std::time::Duration;

use alloy_sol_types::SolCall;
use assert_cmd::Command;
use axum::http::{StatusCode, Uri};
use serde_json::Value;
use tron::PrivateKey;

use crate::support::{Socks5, TestChain, TestEnv, forward, json_run};

/// `tronpool --node NODE ARGS`, in the test's home.
fn run(env: &TestEnv, node: &str, args: &[&str]) -> Command {
    let mut cmd = env.cmd();
    cmd.args(["--node", node]).args(args);
    cmd
}

fn ok(env: &TestEnv, node: &str, args: &[&str]) -> Value {
    let (code, out) = json_run(&mut run(env, node, args));
    assert_eq!(code, 0, "{args:?}: {out}");
    out["data"].clone()
}

fn fails(env: &TestEnv, node: &str, args: &[&str], code: i32) -> String {
    let (got, out) = json_run(&mut run(env, node, args));
    assert_eq!(got, code, "{args:?}: {out}");
    out["error"].as_str().unwrap().to_owned()
}

/// A tronpool server (no relayer) on `chain`'s devnet, syncing its pools its default way.
fn server(chain: &TestChain) -> tronpool::api::ServerHandle {
    chain.runtime.block_on(async {
        let node =
            tron::NodeClient::new(tron::NodeConfig::new(chain.url().parse().unwrap())).unwrap();
        let service =
            tronpool::service::open::chain_named("devnet", node, Duration::from_millis(200))
                .await
                .unwrap();
        let app = tronpool::api::App::new(
            service,
            crate::api::devnet_pricing(&chain.devnet),
            Default::default(),
        );
        tronpool::api::spawn("127.0.0.1:0".parse().unwrap(), Arc::new(app))
            .await
            .unwrap()
    })
}

/// A proxy on `chain`'s runtime in front of `upstream` that passes every request on and
/// hands each answer to `alter` (the request's path and query, the status, the body) on its
/// way back.
fn proxy(
    chain: &TestChain,
    upstream: String,
    seen: Arc<Mutex<Vec<(String, String)>>>,
    alter: fn(&Uri, StatusCode, String) -> (StatusCode, String),
) -> String {
    use axum::body::Bytes;
    use axum::http::Method;
    use axum::response::IntoResponse;

    let _ = rustls::crypto::ring::default_provider().install_default();
    let handler = move |method: Method, uri: Uri, body: Bytes| {
        let upstream = upstream.clone();
        let seen = seen.clone();
        async move {
            seen.lock().unwrap().push((
                uri.path().to_owned(),
                String::from_utf8_lossy(&body).into_owned(),
            ));
            let (status, text) = forward(&upstream, method, &uri, &body).await;
            let (status, text) = alter(&uri, status, text);
            (status, [("content-type", "application/json")], text).into_response()
        }
    };
    let app = axum::Router::new().fallback(handler);
    let listener = chain
        .runtime
        .block_on(tokio::net::TcpListener::bind("127.0.0.1:0"))
        .unwrap();
    let addr = listener.local_addr().unwrap();
    chain
        .runtime
        .spawn(async move { axum::serve(listener, app).await.unwrap() });
    format!("http://{addr}")
}

fn unchanged(_: &Uri, status: StatusCode, text: String) -> (StatusCode, String) {
    (status, text)
}

/// Changes the last digit of the second leaf's commitment in a leaves page, packed or not.
fn tamper(uri: &Uri, status: StatusCode, text: String) -> (StatusCode, String) {
    if !uri.path().ends_with("/leaves") {
        return (status, text);
    }
    let flip = |digits: &mut String, at: usize| {
        let last = if digits[at..].starts_with('0') {
            "1"
        } else {
            "0"
        };
        digits.replace_range(at..at + 1, last);
    };
    let mut page: Value = serde_json::from_str(&text).unwrap();
    // `get_mut`, not indexing: indexing a missing field would add it.
    if let Some(leaf) = page["data"].get_mut("leaves").and_then(|l| l.get_mut(1)) {
        let mut commitment = leaf["commitment"].as_str().unwrap().to_owned();
        let at = commitment.len() - 1;
        flip(&mut commitment, at);
        leaf["commitment"] = commitment.into();
    }
    if let Some(packed) = page["data"]["commitments"].as_str()
        && packed.len() >= 128
    {
        let mut packed = packed.to_owned();
        flip(&mut packed, 127);
        page["data"]["commitments"] = packed.into();
    }
    (status, page.to_string())
}

/// A server from before packed pages: it refuses `format` as any unknown parameter.
fn no_packed_pages(uri: &Uri, status: StatusCode, text: String) -> (StatusCode, String) {
    if uri.query().is_some_and(|q| q.contains("format=")) {
        let refusal = serde_json::json!({
            "ok": false,
            "error": "unknown query parameter `format` (this endpoint takes from and limit)",
            "kind": "usage",
        });
        return (StatusCode::BAD_REQUEST, refusal.to_string());
    }
    (status, text)
}

fn sync_report(env: &TestEnv, node: &str, extra: &[&str]) -> Value {
    let mut args = extra.to_vec();
    args.extend(["pool", "sync", "--denom", "100"]);
    ok(env, node, &args)[0].clone()
}

#[test]
fn without_an_events_api_pools_sync_from_a_server_or_a_block_scan() {
    let _ = rustls::crypto::ring::default_provider().install_default();
    let chain = TestChain::with(devnet::DevnetConfig {
        events_api: false,
        ..devnet::DevnetConfig::ephemeral()
    });
    let node = chain.url();
    let status = chain.runtime.block_on(async {
        reqwest::get(format!("{node}/v1/contracts/T/events"))
            .await
            .unwrap()
            .status()
    });
    assert_eq!(status, 404, "no /v1 routes, as on a plain java-tron node");

    let depositor = TestEnv::new();
    let deposited = ok(
        &depositor,
        &node,
        &[
            "deposit", "--denom", "100", "--count", "2", "--insert", "--yes",
        ],
    );
    let first = deposited["notes"][0]["id"].as_i64().unwrap().to_string();

    // By default the events API is tried first, found missing, and the blocks are scanned.
    let scanner = TestEnv::new();
    let report = sync_report(&scanner, &node, &[]);
    assert_eq!(report["source"], "scan", "{report}");
    assert_eq!(
        (report["leaves"].as_u64(), report["withdrawals"].as_u64()),
        (Some(2), Some(0))
    );

    // A withdrawal proven from a scanned tree, with spentness decided from scanned
    // withdrawals.
    let recipient = PrivateKey::generate().address().to_base58();
    ok(
        &depositor,
        &node,
        &["withdraw", &first, "--to", &recipient, "--yes"],
    );
    let again = sync_report(&scanner, &node, &[]);
    assert_eq!(
        (again["fetched"].as_u64(), again["withdrawals"].as_u64()),
        (Some(0), Some(1))
    );
    // A deposit left in the queue: the scan brings it, the tree leaves it out.
    ok(&depositor, &node, &["deposit", "--denom", "100", "--yes"]);
    let queued = sync_report(&scanner, &node, &[]);
    assert_eq!(
        (
            queued["leaves"].as_u64(),
            queued["queued"].as_u64(),
            queued["fetched"].as_u64()
        ),
        (Some(2), Some(1), Some(1)),
        "{queued}"
    );
    assert_eq!(queued["root"], again["root"]);

    // A client that names a server syncs from its leaves once the events API fails it.
    let server = server(&chain);
    let sources = format!("events,{}", server.url());
    let client = TestEnv::new();
    let report = sync_report(&client, &node, &["--sync-from", &sources]);
    assert_eq!(report["source"], format!("{}/", server.url()), "{report}");
    assert_eq!(
        (report["leaves"].as_u64(), report["withdrawals"].as_u64()),
        (Some(2), Some(1))
    );
    assert_eq!(report["queued"], 1, "{report}");
    assert_eq!(report["root"], again["root"]);
    // Once a batch inserts it, the tree grows from the cached queued deposit: nothing new
    // is fetched, by the scan or from the server.
    ok(
        &depositor,
        &node,
        &["pool", "insert", "--denom", "100", "--yes"],
    );
    let mut latest = Value::Null;
    for (env, flags) in [
        (&scanner, &[][..]),
        (&client, &["--sync-from", &sources][..]),
    ] {
        let inserted = sync_report(env, &node, flags);
        latest = inserted["root"].clone();
        assert_eq!(
            (inserted["leaves"].as_u64(), inserted["queued"].as_u64()),
            (Some(3), Some(0)),
            "{inserted}"
        );
        assert_eq!(inserted["fetched"], 0, "{inserted}");
        assert_ne!(inserted["root"], again["root"]);
    }

    // The server's pages, as the OpenAPI document describes them.
    let page: Value = chain.runtime.block_on(async {
        reqwest::get(format!(
            "{}/api/pools/100/withdrawals?from=0&limit=5",
            server.url()
        ))
        .await
        .unwrap()
        .json()
        .await
        .unwrap()
    });
    let withdrawal = &page["data"]["withdrawals"][0];
    assert_eq!(withdrawal["recipient"], recipient.as_str(), "{page}");
    assert_eq!(withdrawal["fee"], "0");
    assert!(withdrawal["txid"].as_str().unwrap().len() == 64, "{page}");
    // A packed page holds the same leaves as the page of objects.
    let get = |query: &str| -> Value {
        chain.runtime.block_on(async {
            reqwest::get(format!("{}/api/pools/100/leaves?{query}", server.url()))
                .await
                .unwrap()
                .json()
                .await
                .unwrap()
        })
    };
    let (entries, packed) = (get("from=0"), get("from=0&format=packed"));
    let (entries, packed) = (&entries["data"], &packed["data"]);
    let field = |name: &str| -> String {
        entries["leaves"]
            .as_array()
            .unwrap()
            .iter()
            .map(|l| {
                l[name]
                    .as_str()
                    .unwrap()
                    .trim_start_matches("0x")
                    .to_owned()
            })
            .collect()
    };
    assert_eq!(packed["commitments"].as_str().unwrap(), field("commitment"));
    assert_eq!(packed["txids"].as_str().unwrap(), field("txid"));
    let times: Vec<Value> = entries["leaves"]
        .as_array()
        .unwrap()
        .iter()
        .map(|l| l["blockTimestamp"].clone())
        .collect();
    assert_eq!(packed["blockTimestamps"], Value::Array(times));
    // Every deposit the server cached: the two inserted and the one inserted later.
    assert_eq!((&packed["from"], &packed["total"]), (&0.into(), &3.into()));
    let tail = get("from=1&limit=1&format=packed");
    assert_eq!(
        tail["data"]["commitments"].as_str().unwrap(),
        &field("commitment")[64..128]
    );

    // A server from before packed pages refuses `format`: the client pages the old way.
    let seen = Arc::new(Mutex::new(Vec::new()));
    let old = proxy(&chain, server.url(), seen.clone(), no_packed_pages);
    let report = sync_report(&TestEnv::new(), &node, &["--sync-from", &old]);
    assert_eq!(report["source"], format!("{old}/"), "{report}");
    assert_eq!(report["root"], latest);
    let leaf_requests = seen
        .lock()
        .unwrap()
        .iter()
        .filter(|(path, _)| path.ends_with("/leaves"))
        .count();
    assert_eq!(
        leaf_requests, 2,
        "one packed page refused, one page of objects"
    );

    for bad in [
        "from=-1",
        "limit=abc",
        "offset=2",
        "from=1&from=2",
        "format=bogus",
        "format=packed&format=entries",
    ] {
        let status = chain.runtime.block_on(async {
            reqwest::get(format!("{}/api/pools/100/leaves?{bad}", server.url()))
                .await
                .unwrap()
                .status()
        });
        assert_eq!(status, 400, "{bad}");
    }

    // The depositor's other notes: unspent by the scanned withdrawals; the first is spent.
    let checked = ok(&depositor, &node, &["notes", "check"]);
    let states: Vec<(bool, bool)> = checked
        .as_array()
        .unwrap()
        .iter()
        .map(|c| {
            (
                c["deposited"].as_bool().unwrap(),
                c["spent"].as_bool().unwrap(),
            )
        })
        .collect();
    assert_eq!(
        states,
        [(true, true), (true, false), (true, false)],
        "{checked}"
    );
}

#[test]
fn a_server_that_alters_a_leaf_is_refused_by_the_root_check() {
    let chain = TestChain::start();
    let node = chain.url();
    let depositor = TestEnv::new();
    ok(
        &depositor,
        &node,
        &[
            "deposit", "--denom", "100", "--count", "2", "--insert", "--yes",
        ],
    );
    let server = server(&chain);
    let seen = Arc::new(Mutex::new(Vec::new()));
    let liar = proxy(&chain, server.url(), seen.clone(), tamper);

    let client = TestEnv::new();
    let error = fails(
        &client,
        &node,
        &["--sync-from", &liar, "pool", "sync", "--denom", "100"],
        4,
    );
    assert!(
        error.contains(&format!("the tronpool server at {liar}/")),
        "{error}"
    );
    assert!(error.contains("which the pool does not know"), "{error}");
    assert!(
        seen.lock()
            .unwrap()
            .iter()
            .any(|(path, _)| path == "/api/pools/100/leaves"),
        "the leaves came through the liar"
    );
    // Nothing of it was kept: the honest server's leaves are taken from the start.
    let report = sync_report(&client, &node, &["--sync-from", &server.url()]);
    assert_eq!(
        (report["leaves"].as_u64(), report["fetched"].as_u64()),
        (Some(2), Some(2))
    );
}

#[test]
fn every_request_goes_through_the_configured_socks5_proxy() {
    let chain = TestChain::start();
    let socks = Socks5::start(&chain.runtime);
    let port = |url: &str| {
        url.rsplit(':')
            .next()
            .unwrap()
            .trim_end_matches('/')
            .to_owned()
    };
    // Names only the proxy resolves: reaching them at all proves the traffic went through it.
    let node = format!("http://node.tronpool.test:{}", port(&chain.url()));
    let server = server(&chain);
    let sync_server = format!("http://sync.tronpool.test:{}", port(&server.url()));

    let env = TestEnv::new();
    ok(
        &env,
        &chain.url(),
        &["deposit", "--denom", "100", "--insert", "--yes"],
    );
    let through = ["--proxy", socks.url.as_str()];
    let report = sync_report(&env, &node, &through);
    assert_eq!(report["source"], "events", "{report}");
    let mut args = through.to_vec();
    args.extend(["--sync-from", sync_server.as_str()]);
    let report = sync_report(&TestEnv::new(), &node, &args);
    assert_eq!(report["source"], format!("{sync_server}/"), "{report}");
    let seen = socks.seen.lock().unwrap().clone();
    assert!(
        seen.iter().any(|h| h.starts_with("node.tronpool.test:")),
        "{seen:?}"
    );
    assert!(
        seen.iter().any(|h| h.starts_with("sync.tronpool.test:")),
        "{seen:?}"
    );
    assert!(
        seen.iter().all(|h| h.contains(".tronpool.test:")),
        "only by name: {seen:?}"
    );

    // The proxy from the environment, and from the config file, the same way.
    let before = seen.len();
    let mut cmd = run(&env, &node, &["pools"]);
    cmd.env("TRONPOOL_PROXY", &socks.url);
    assert_eq!(json_run(&mut cmd).0, 0);
    assert!(socks.seen.lock().unwrap().len() > before);
    let config = env.write("proxied.toml", &format!("proxy = \"{}\"\n", socks.url));
    let before = socks.seen.lock().unwrap().len();
    ok(
        &env,
        &node,
        &["--config", config.to_str().unwrap(), "pools"],
    );
    assert!(socks.seen.lock().unwrap().len() > before);

    // Without the proxy the name resolves nowhere; a proxy that resolves names here is refused.
    fails(&env, &node, &["pools"], 3);
    let error = fails(
        &env,
        &node,
        &["--proxy", &socks.url.replace("socks5h", "socks5"), "pools"],
        2,
    );
    assert!(error.contains("use socks5h://"), "{error}");
}

#[test]
fn a_withdrawal_and_a_notes_check_never_ask_the_node_about_the_note() {
    let chain = TestChain::start();
    let seen = Arc::new(Mutex::new(Vec::new()));
    let node = proxy(&chain, chain.url(), seen.clone(), unchanged);
    let env = TestEnv::new();
    let deposited = ok(
        &env,
        &node,
        &[
            "deposit", "--denom", "100", "--count", "2", "--insert", "--yes",
        ],
    );
    let id = deposited["notes"][0]["id"].as_i64().unwrap().to_string();
    seen.lock().unwrap().clear();

    let checked = ok(&env, &node, &["notes", "check", &id]);
    assert_eq!(checked[0]["state"], "deposited", "{checked}");
    let recipient = PrivateKey::generate().address().to_base58();
    ok(&env, &node, &["withdraw", &id, "--to", &recipient, "--yes"]);
    let checked = ok(&env, &node, &["notes", "check"]);
    assert_eq!(checked[0]["state"], "withdrawn", "{checked}");
    assert_eq!(checked[1]["withdrawable"], true, "{checked}");
    // A second spend is refused by the synced withdrawals, before any proof.
    let error = fails(
        &env,
        &node,
        &["withdraw", &id, "--to", &recipient, "--yes"],
        4,
    );
    assert!(error.contains("already spent"), "{error}");

    let selectors = [
        hex::encode(contracts::TronPool::isSpentCall::SELECTOR),
        hex::encode(contracts::TronPool::isSpentArrayCall::SELECTOR),
        hex::encode(contracts::TronPool::commitmentsCall::SELECTOR),
        hex::encode(contracts::TronPool::nullifierHashesCall::SELECTOR),
    ];
    let seen = seen.lock().unwrap();
    assert!(
        seen.iter()
            .any(|(path, _)| path.ends_with("triggerconstantcontract")),
        "the node was asked other things: {:?}",
        seen.iter().map(|(p, _)| p).collect::<Vec<_>>()
    );
    for (path, body) in seen.iter() {
        let Ok(body) = serde_json::from_str::<Value>(body) else {
            continue;
        };
        let data = body["data"].as_str().unwrap_or_default();
        for selector in &selectors {
            assert!(
                !data.starts_with(selector.as_str()),
                "{path} asked the node {selector}: {body}"
            );
        }
    }
}

/// More deposits wait than a queued pool keeps of its queue chain (128 positions): the sync
/// checks the newest waiting deposits the ring still vouches for, and the tree and its root
/// stay the inserted deposits'. Before the fix, the sync asked for the chain one position
/// before the ring and failed on every try once 129 deposits waited.
#[test]
fn a_queue_longer_than_the_pools_ring_still_syncs() {
    let chain = TestChain::start();
    let node = chain.url();
    let key = chain.devnet.accounts()[0].clone();
    let deployment = chain.devnet.deployment().clone();
    let pool = deployment.pool(100).unwrap().address;
    let waiting = 130;
    // One deposit inserted by a batch, then 130 waiting behind it.
    let deposit = |count: u64| {
        chain.devnet.with_chain(|ledger| {
            let call = |ledger: &mut devnet::Ledger, contract: tron::Address, data: Vec<u8>| {
                let reference = ledger.head().ref_block();
                let tx = tron::TransactionBuilder::new(
                    tron::Action::Trigger(tron::Trigger {
                        owner: key.address(),
                        contract,
                        data,
                        ..tron::Trigger::default()
                    }),
                    reference,
                )
                .expiration(reference.timestamp + 3_600_000)
                .fee_limit(1_000_000_000)
                .build();
                ledger.submit(tx, Ok(vec![key.address()])).unwrap();
            };
            let approve = tron::abi::Trc20::approveCall {
                spender: pool.into(),
                value: alloy_primitives::U256::MAX,
            };
            call(ledger, deployment.usdt, approve.abi_encode());
            for i in 0..count {
                let note =
                    zk::note::Note::generate(zk::note::NoteMeta::usdt(100, "devnet").unwrap());
                let deposit = contracts::QueuedPool::depositCall {
                    commitment: zk::field::to_be_bytes(&note.commitment()).into(),
                };
                call(ledger, pool, deposit.abi_encode());
                if i % 50 == 49 {
                    ledger.mine();
                }
            }
            ledger.mine();
        });
    };
    let env = TestEnv::new();
    deposit(1);
    ok(&env, &node, &["pool", "insert", "--denom", "100", "--yes"]);
    deposit(waiting);
    let report = sync_report(&env, &node, &[]);
    assert_eq!(
        (report["leaves"].as_u64(), report["queued"].as_u64()),
        (Some(1), Some(waiting)),
        "{report}"
    );
}
