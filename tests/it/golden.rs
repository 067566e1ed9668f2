//! Golden copies of the wire formats that must not change by accident: `openapi.json`'s
//! paths and schemas as `GET /api/openapi.json` serves them, the shape (fields and their
//! types) of every API endpoint's answers and of the pool commands' `--json` output, and the
//! exit code of every error kind. A move of the code (issue work that only restructures) keeps them byte for
//! byte; a change of the format is a deliberate update of the golden file, seen in review.
//! Update with `UPDATE_GOLDEN=1 cargo test --test it golden`.

use std::path::Path;

use serde_json::{Value, json};
use tronpool::error::{Error, Kind};

fn check(name: &str, text: &str) {
    let path = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/golden")
        .join(name);
    if std::env::var_os("UPDATE_GOLDEN").is_some() {
        std::fs::create_dir_all(path.parent().unwrap()).unwrap();
        std::fs::write(&path, text).unwrap();
    }
    let golden = std::fs::read_to_string(&path)
        .unwrap_or_else(|e| panic!("{}: {e}; run UPDATE_GOLDEN=1", path.display()));
    if golden != text {
        let first = golden
            .lines()
            .zip(text.lines())
            .position(|(a, b)| a != b)
            .unwrap_or(golden.lines().count().min(text.lines().count()));
        let around = |t: &str| -> String {
            let lines: Vec<&str> = t.lines().collect();
            lines[first.saturating_sub(8)..(first + 4).min(lines.len())].join("\n")
        };
        panic!(
            "{name} differs from tests/golden/{name} at line {}: if the change is meant, run \
             `UPDATE_GOLDEN=1 cargo test --test it golden` and commit the file\n--- golden\n{}\n\
             --- now\n{}",
            first + 1,
            around(&golden),
            around(text)
        );
    }
}

#[test]
fn the_openapi_document_is_the_golden_one() {
    let spec = tronpool::api::openapi::spec();
    let text = serde_json::to_string_pretty(spec).unwrap() + "\n";
    check("openapi.json", &text);
}

#[test]
fn every_error_kind_keeps_its_exit_code_and_status() {
    let mut text = String::from("kind exit http\n");
    // Interrupted is not made from a message: it is pinned by itself below.
    for kind in Kind::ALL.into_iter().filter(|k| *k != Kind::Interrupted) {
        let error = Error::of_kind(kind, "m".into());
        text.push_str(&format!(
            "{} {} {}\n",
            kind.name(),
            error.exit_code(),
            error.http_status()
        ));
    }
    let interrupted = Error::Interrupted;
    text.push_str(&format!(
        "{} {} {}\n",
        interrupted.kind().name(),
        interrupted.exit_code(),
        interrupted.http_status()
    ));
    check("exit-codes.txt", &text);
}

/// A JSON document's fields without their values: every scalar is replaced by its type
/// (`integer`, `number`, `string`, `boolean`, `null`) and every array by the shape of its
/// first item; an error's `kind` keeps its value. Two answers with the same fields of the same types have the same shape, so the
/// golden file pins the wire format and not the chain's state.
fn shape(value: &Value) -> Value {
    match value {
        Value::Null => "null".into(),
        Value::Bool(_) => "boolean".into(),
        Value::Number(n) if n.is_f64() => "number".into(),
        Value::Number(_) => "integer".into(),
        Value::String(_) => "string".into(),
        Value::Array(items) => Value::Array(items.first().map(shape).into_iter().collect()),
        // An error's kind is a closed set whose names scripts match on: kept as it is.
        Value::Object(map) => Value::Object(
            map.iter()
                .map(|(key, value)| match (key.as_str(), value) {
                    ("kind", Value::String(_)) => (key.clone(), value.clone()),
                    _ => (key.clone(), shape(value)),
                })
                .collect(),
        ),
    }
}

/// The answers a golden file lists, one heading and one shape each.
#[derive(Default)]
struct Shapes(String);

impl Shapes {
    fn add(&mut self, heading: &str, status: u16, body: &Value) {
        let pretty = serde_json::to_string_pretty(&shape(body)).unwrap();
        self.0
            .push_str(&format!("## {heading} -> {status}\n{pretty}\n\n"));
    }
}

/// Every endpoint's answer, successful and refused, keeps its fields and their types: the
/// pools, a deposit's builders, a self-withdrawal's builder, a relayed withdrawal and its job,
/// the synced leaves and withdrawals, health and readiness, and the envelope of each kind of
/// refusal. `/metrics` keeps its metric names (update them with this test run alone: the
/// registry is the whole test process's).
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn every_api_body_keeps_its_shape() {
    use crate::api::{Served, hex32, prove_withdrawal, random_word};
    use crate::relayer::{deposit, quote, request, settled};
    use tronpool::api::ApiConfig;
    use tronpool::service::relayer::RelayerConfig;

    let config = ApiConfig {
        relayer_rate_limit: 100,
        rate_limit: 10_000,
        ..ApiConfig::default()
    };
    let served = Served::with_relayer(config, RelayerConfig::default()).await;
    let owner = served.devnet().accounts()[2].address().to_base58();
    let relayer = devnet::genesis::dev_key(1).address();
    let mut shapes = Shapes::default();
    let get = async |shapes: &mut Shapes, heading: &str, path: &str| {
        let (status, body) = served.get(path).await;
        shapes.add(&format!("GET {heading}"), status.as_u16(), &body);
        body
    };
    get(&mut shapes, "/api/pools", "/api/pools").await;
    get(&mut shapes, "/api/pools/{denom}", "/api/pools/100").await;
    get(
        &mut shapes,
        "/api/pools/{denom}/root",
        "/api/pools/100/root",
    )
    .await;
    let balance = format!("/api/balance/{owner}");
    get(&mut shapes, "/api/balance/{address}", &balance).await;
    let allowance = format!("/api/allowance/{owner}/100");
    get(&mut shapes, "/api/allowance/{address}/{denom}", &allowance).await;
    get(&mut shapes, "/api/relayer/status", "/api/relayer/status").await;
    get(&mut shapes, "/api/health", "/api/health").await;
    get(&mut shapes, "/livez", "/livez").await;
    get(&mut shapes, "/readyz", "/readyz").await;
    // Refusals: each kind's envelope.
    get(
        &mut shapes,
        "/api/pools/{denom} (no such pool)",
        "/api/pools/7",
    )
    .await;
    get(&mut shapes, "/api/nowhere", "/api/nowhere").await;
    let stranger = tron::PrivateKey::generate().address().to_base58();

    let post = async |shapes: &mut Shapes, path: &str, body: Value| {
        let (status, answer) = served.post(path, body).await;
        shapes.add(&format!("POST {path}"), status.as_u16(), &answer);
        answer
    };
    let builders = [
        (
            "/api/tx/approve",
            json!({ "from": owner, "denomination": 100 }),
        ),
        (
            "/api/tx/deposit",
            json!({ "from": stranger, "denomination": 100, "commitment": random_word() }),
        ),
    ];
    for (path, body) in builders {
        post(&mut shapes, path, body).await;
    }
    let (notes, tree) = deposit(&served, 2, 2).await;
    let recipient = tron::PrivateKey::generate().address();
    let root = hex32(&tree.root());
    let spent_of = |i: usize| hex32(&notes[i].nullifier_hash());
    post(
        &mut shapes,
        "/api/pools/100/check-spent",
        json!({ "nullifierHash": spent_of(0) }),
    )
    .await;
    post(
        &mut shapes,
        "/api/pools/100/can-withdraw",
        json!({ "nullifierHash": spent_of(0), "root": root }),
    )
    .await;
    let proof = prove_withdrawal(&notes[1], &tree, 1, recipient, None, 0, 0);
    let withdraw = json!({
        "from": owner, "denomination": "100", "proof": proof, "root": root,
        "nullifierHash": spent_of(1), "recipient": recipient.to_base58(),
    });
    post(&mut shapes, "/api/tx/withdraw", withdraw).await;
    let (fee, _) = quote(&served).await;
    let relay = request(&notes[0], &tree, 0, recipient, relayer, fee, 0);
    let relayed = post(&mut shapes, "/api/relayer/withdraw", relay).await;
    let txid = relayed["data"]["txid"].as_str().expect("a txid").to_owned();
    settled(&served, &txid).await;
    get(
        &mut shapes,
        "/api/relayer/jobs/{txid}",
        &format!("/api/relayer/jobs/{txid}"),
    )
    .await;
    get(
        &mut shapes,
        "/api/relayer/jobs/nullifier/{nullifierHash}",
        &format!("/api/relayer/jobs/nullifier/{}", spent_of(0)),
    )
    .await;
    let leaves = "/api/pools/100/leaves?from=0&limit=10";
    get(&mut shapes, "/api/pools/{denom}/leaves", leaves).await;
    let withdrawals = "/api/pools/100/withdrawals?from=0&limit=10";
    get(&mut shapes, "/api/pools/{denom}/withdrawals", withdrawals).await;
    post(
        &mut shapes,
        "/api/pools/100/check-spent",
        json!({ "nullifierHash": "0x1234" }),
    )
    .await;

    let metrics = served.text("/metrics").await;
    check("api-shapes.txt", &shapes.0);
    // The metrics registry is the test process's: other tests in it may have added names
    // (a rate limit hit, say), so every golden name must be there, and more may be.
    let names: std::collections::BTreeSet<&str> = metrics
        .lines()
        .filter_map(|l| l.strip_prefix("# TYPE "))
        .collect();
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/golden/metric-names.txt");
    if std::env::var_os("UPDATE_GOLDEN").is_some() {
        let text: String = names.iter().map(|n| format!("{n}\n")).collect();
        std::fs::write(&path, text).unwrap();
    }
    let golden = std::fs::read_to_string(&path).unwrap();
    for name in golden.lines() {
        assert!(
            names.contains(name),
            "/metrics no longer has `{name}` (tests/golden/metric-names.txt; update it with \
             this test run alone)"
        );
    }
}

/// What `--json` prints keeps its fields and their types, command by command: the envelope
/// around each command's `data`, success and failure alike.
#[test]
fn every_json_output_keeps_its_shape() {
    use crate::support::{TestChain, TestEnv, json_run};

    let env = TestEnv::new();
    let chain = TestChain::start();
    let holder = devnet::genesis::dev_key(0).address().to_base58();
    let recipient = tron::PrivateKey::generate().address().to_base58();
    let mut shapes = Shapes::default();
    let run = |shapes: &mut Shapes, args: &[&str]| -> Value {
        let (code, out) = json_run(env.cmd().args(["--node", &chain.url()]).args(args));
        let heading: Vec<&str> = args
            .iter()
            .map(|a| match *a {
                a if a == recipient => "{recipient}",
                a if a == holder => "{holder}",
                a => a,
            })
            .collect();
        shapes.add(&heading.join(" "), code as u16, &out);
        out
    };
    run(&mut shapes, &["pools"]);
    run(&mut shapes, &["balance", &holder]);
    run(
        &mut shapes,
        &["approve", "--denom", "100", "--count", "2", "--yes"],
    );
    let deposited = run(
        &mut shapes,
        &[
            "deposit", "--denom", "100", "--count", "2", "--insert", "--yes",
        ],
    );
    let ids: Vec<String> = deposited["data"]["notes"]
        .as_array()
        .expect("the deposited notes")
        .iter()
        .map(|n| n["id"].to_string())
        .collect();
    run(&mut shapes, &["notes", "list"]);
    run(&mut shapes, &["notes", "show", &ids[0]]);
    run(&mut shapes, &["notes", "check"]);
    run(&mut shapes, &["relay", "status"]);
    let dry = ["withdraw", &ids[0], "--to", &recipient, "--dry-run"];
    run(&mut shapes, &dry);
    let relay_dry = [
        "relay",
        "withdraw",
        &ids[0],
        "--to",
        &recipient,
        "--dry-run",
    ];
    run(&mut shapes, &relay_dry);
    run(
        &mut shapes,
        &["relay", "withdraw", &ids[0], "--to", &recipient, "--yes"],
    );
    run(
        &mut shapes,
        &["withdraw", &ids[1], "--to", &recipient, "--yes"],
    );
    run(
        &mut shapes,
        &["withdraw", &ids[1], "--to", &recipient, "--yes"],
    );
    run(&mut shapes, &["notes", "show", "99"]);
    run(&mut shapes, &["balance", "TNotAnAddress"]);
    check("json-shapes.txt", &shapes.0);
}
