//! The relayer against a devnet: a withdrawal relayed end to end with fee and refund; ten
//! concurrent copies of one request make one broadcast; every refusal (spent, unknown root,
//! bad proof, a proof for another relayer, a low fee) costs the relayer nothing; a relayer
//! that cannot pay or is off answers 503; and a server killed with SIGKILL mid-job finishes
//! it after a restart.

use std::time::Duration;

use alloy_primitives::U256;
use alloy_sol_types::SolCall;
use serde_json::{Value, json};
use tron::abi::Trc20;
use tron::{Address, NodeClient, NodeConfig, PrivateKey, Transaction};
use tronpool::api::ApiConfig;
use tronpool::service::relayer::RelayerConfig;
use tronpool::store::jobs::JobState;
use zk::note::{Note, NoteMeta};
use zk::tree::MerkleTree;

use crate::api::{Served, hex32, prove_withdrawal, random_word};

const FEE: u64 = 1_000_000; // the 100 pool's default relayer fee
const DENOMINATION: u64 = 100_000_000;

/// Approves and deposits `count` fresh notes into the 100 pool from dev account `account`,
/// signing the API's transactions locally; returns the notes and the tree they make.
async fn deposit(served: &Served, account: usize, count: usize) -> (Vec<Note>, MerkleTree) {
    let key = served.devnet().accounts()[account].clone();
    deposit_through(&served.server.url(), &served.devnet().url(), &key, count).await
}

/// The same through any API and node.
async fn deposit_through(
    api: &str,
    node: &str,
    key: &PrivateKey,
    count: usize,
) -> (Vec<Note>, MerkleTree) {
    let node = NodeClient::new(NodeConfig::new(node.parse().unwrap())).unwrap();
    let http = reqwest::Client::new();
    let build = |path: &str, body: Value| {
        let request = http.post(format!("{api}{path}")).json(&body).send();
        async move {
            let value: Value = request.await.unwrap().json().await.unwrap();
            assert_eq!(value["ok"], true, "{value}");
            value["data"]["transaction"].clone()
        }
    };
    let from = key.address().to_base58();
    let approve = build(
        "/api/tx/approve",
        json!({ "from": from, "denomination": 100, "amount": 1_000_000 }),
    )
    .await;
    send(&node, key, &approve).await;
    let mut notes = Vec::new();
    let mut tree = MerkleTree::new();
    for _ in 0..count {
        let note = Note::generate(NoteMeta::usdt(100, "devnet").unwrap());
        let body = json!({
            "from": from, "denomination": 100, "commitment": hex32(&note.commitment()),
        });
        send(&node, key, &build("/api/tx/deposit", body).await).await;
        tree.insert(note.commitment()).unwrap();
        notes.push(note);
    }
    (notes, tree)
}

async fn send(node: &NodeClient, key: &PrivateKey, json: &Value) {
    let mut tx = Transaction::from_json(json).unwrap();
    tx.sign(key).unwrap();
    let txid = node.broadcast_hex(&tx).await.expect("accepted");
    let info = node
        .get_transaction_info(&txid)
        .await
        .unwrap()
        .expect("sealed");
    assert!(info.succeeded(), "{:?}", info.failure_reason());
}

/// A relay request for leaf `index`, proved for `relayer`, `fee` and `refund`.
fn request(
    note: &Note,
    tree: &MerkleTree,
    index: u32,
    recipient: Address,
    relayer: Address,
    fee: u64,
    refund: u64,
) -> Value {
    json!({
        "denomination": "100",
        "proof": prove_withdrawal(note, tree, index, recipient, Some(relayer), fee, refund),
        "root": hex32(&tree.root()),
        "nullifierHash": hex32(&note.nullifier_hash()),
        "recipient": recipient.to_base58(),
        "fee": fee,
        "refund": refund,
    })
}

fn usdt(served: &Served, who: Address) -> U256 {
    let usdt = served.devnet().deployment().usdt;
    let data = Trc20::balanceOfCall { owner: who.into() }.abi_encode();
    let out = served
        .devnet()
        .with_chain(|c| c.call(who, Some(usdt), data, 0))
        .expect("balanceOf");
    Trc20::balanceOfCall::abi_decode_returns(&out.output).unwrap()
}

fn trx(served: &Served, who: Address) -> i64 {
    served.devnet().with_chain(|c| c.balance(&who))
}

/// Waits for the watcher to settle a job.
async fn settled(served: &Served, txid: &str) -> JobState {
    let relayer = served.app.relayer.as_ref().unwrap();
    for _ in 0..100 {
        let job = relayer.jobs().get(txid).unwrap().expect("recorded");
        if job.state.is_finished() {
            return job.state;
        }
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
    panic!("job {txid} never settled");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn relays_with_fee_and_refund_and_refusals_cost_nothing() {
    // More than the 5 a minute a client gets: this test is one client asking many things.
    let config = ApiConfig {
        relayer_rate_limit: 100,
        ..ApiConfig::default()
    };
    let served = Served::with_relayer(config, RelayerConfig::default()).await;
    let relayer = devnet::genesis::dev_key(1).address();
    let (notes, tree) = deposit(&served, 2, 2).await;

    let status = served.ok("/api/relayer/status", None).await;
    assert_eq!(status["enabled"], true);
    assert_eq!(status["address"], relayer.to_base58());
    assert_eq!(status["network"], "devnet");
    assert_eq!(status["balanceTrx"], 1_000_000.0);
    assert_eq!(status["pending"], 0);
    assert_eq!(
        status["fees"][0],
        json!({ "denomination": 100, "relayerFee": 1.0, "relayerFeeRaw": "1000000" })
    );

    // Refusals first: none may cost the relayer a sun.
    let recipient = PrivateKey::generate().address();
    let relayer_trx = trx(&served, relayer);
    let good = request(&notes[0], &tree, 0, recipient, relayer, FEE, 2_000_000);
    let mut unknown_root = good.clone();
    unknown_root["root"] = json!(random_word());
    let error = served
        .fails("/api/relayer/withdraw", Some(unknown_root), 422)
        .await;
    assert!(error.contains("last 100 roots"), "{error}");
    let mut other_recipient = good.clone();
    other_recipient["recipient"] = json!(PrivateKey::generate().address().to_base58());
    let error = served
        .fails("/api/relayer/withdraw", Some(other_recipient), 422)
        .await;
    assert!(error.contains("does not verify"), "{error}");
    let stranger = PrivateKey::generate().address();
    let for_another = request(&notes[0], &tree, 0, recipient, stranger, FEE, 0);
    let error = served
        .fails("/api/relayer/withdraw", Some(for_another), 422)
        .await;
    assert!(
        error.contains("does not verify"),
        "another relayer's proof: {error}"
    );
    let cheap = request(&notes[0], &tree, 0, recipient, relayer, FEE / 2, 0);
    let error = served
        .fails("/api/relayer/withdraw", Some(cheap), 422)
        .await;
    assert!(error.contains("below this relayer's fee"), "{error}");
    assert_eq!(trx(&served, relayer), relayer_trx, "refusals are free");

    // The real thing: 99 USDT and 2 TRX to a fresh address, 1 USDT to the relayer.
    let relayer_usdt = usdt(&served, relayer);
    let data = served.ok("/api/relayer/withdraw", Some(good.clone())).await;
    let txid = data["txid"].as_str().expect("a txid").to_owned();
    assert_eq!(settled(&served, &txid).await, JobState::Confirmed);
    assert_eq!(usdt(&served, recipient), U256::from(DENOMINATION - FEE));
    assert_eq!(usdt(&served, relayer), relayer_usdt + U256::from(FEE));
    assert_eq!(trx(&served, recipient), 2_000_000, "the refund arrived");
    assert!(
        trx(&served, relayer) < relayer_trx - 2_000_000,
        "the relayer paid"
    );
    let status = served.ok("/api/relayer/status", None).await;
    assert_eq!(status["pending"], 0);

    // Again: we relayed it (409), and after that it is spent on chain (409 too).
    let error = served.fails("/api/relayer/withdraw", Some(good), 409).await;
    assert!(error.contains(&txid), "names our transaction: {error}");
    let spent_elsewhere = request(&notes[0], &tree, 0, recipient, relayer, FEE, 0);
    let error = served
        .fails("/api/relayer/withdraw", Some(spent_elsewhere), 409)
        .await;
    assert!(error.contains("already"), "{error}");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn ten_concurrent_copies_make_one_broadcast() {
    let config = ApiConfig {
        relayer_rate_limit: 100,
        ..ApiConfig::default()
    };
    let served = Served::with_relayer(config, RelayerConfig::default()).await;
    let relayer = devnet::genesis::dev_key(1).address();
    let (notes, tree) = deposit(&served, 3, 1).await;
    let recipient = PrivateKey::generate().address();
    let body = request(&notes[0], &tree, 0, recipient, relayer, FEE, 0);
    let relayer_usdt = usdt(&served, relayer);
    let head = served.devnet().with_chain(|c| c.head().number);

    let mut tasks = Vec::new();
    for _ in 0..10 {
        let (http, url, body) = (
            served.http.clone(),
            served.url("/api/relayer/withdraw"),
            body.clone(),
        );
        tasks.push(tokio::spawn(async move {
            let response = http.post(url).json(&body).send().await.unwrap();
            crate::api::envelope(response).await
        }));
    }
    let mut statuses = Vec::new();
    let mut txid = None;
    for task in tasks {
        let (status, value) = task.await.unwrap();
        if status == 200 {
            txid = value["data"]["txid"].as_str().map(str::to_owned);
        }
        statuses.push(status.as_u16());
    }
    statuses.sort();
    assert_eq!(statuses, [200, 409, 409, 409, 409, 409, 409, 409, 409, 409]);
    assert_eq!(settled(&served, &txid.unwrap()).await, JobState::Confirmed);
    // One transaction reached the chain: one block, one fee.
    assert_eq!(served.devnet().with_chain(|c| c.head().number), head + 1);
    assert_eq!(usdt(&served, relayer), relayer_usdt + U256::from(FEE));
    assert_eq!(usdt(&served, recipient), U256::from(DENOMINATION - FEE));
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_relayer_that_cannot_pay_or_is_off_answers_503() {
    let served = Served::with_relayer(ApiConfig::default(), RelayerConfig::default()).await;
    let relayer = devnet::genesis::dev_key(1).address();
    let (notes, tree) = deposit(&served, 2, 1).await;
    let recipient = PrivateKey::generate().address();
    let body = request(&notes[0], &tree, 0, recipient, relayer, FEE, 0);
    served
        .devnet()
        .with_chain(|c| c.set_balance(relayer, 5_000_000));
    let error = served
        .fails("/api/relayer/withdraw", Some(body.clone()), 503)
        .await;
    assert!(error.contains("cannot pay"), "{error}");
    assert_eq!(trx(&served, relayer), 5_000_000, "nothing was spent");

    let off = Served::start(ApiConfig::default(), Duration::ZERO).await;
    let status = off.ok("/api/relayer/status", None).await;
    assert_eq!(status["enabled"], false);
    assert_eq!(status["address"], Value::Null);
    assert_eq!(status["fees"].as_array().unwrap().len(), 6);
    let error = off.fails("/api/relayer/withdraw", Some(body), 503).await;
    assert!(error.contains("does not relay"), "{error}");
}

/// Starts `tronpool --json <args>` and reads its one-line announcement.
#[cfg(unix)]
fn start(env: &crate::support::TestEnv, args: &[&str]) -> (std::process::Child, Value) {
    use std::io::BufRead;
    let mut child = std::process::Command::new(env!("CARGO_BIN_EXE_tronpool"))
        .env("TRONPOOL_HOME", env.home())
        .arg("--json")
        .args(args)
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::null())
        .spawn()
        .expect("tronpool starts");
    let mut line = String::new();
    std::io::BufReader::new(child.stdout.take().unwrap())
        .read_line(&mut line)
        .expect("an announcement");
    let value: Value = serde_json::from_str(&line).expect("the envelope");
    assert_eq!(value["ok"], true, "{value}");
    (child, value["data"].clone())
}

#[cfg(unix)]
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_job_interrupted_by_sigkill_is_finished_after_a_restart() {
    let env = crate::support::TestEnv::new();
    let (mut chain, devnet) = start(&env, &["devnet", "--port", "0", "--accounts", "3"]);
    let node = devnet["url"].as_str().unwrap().to_owned();
    let key = PrivateKey::from_hex(devnet["accounts"][2]["privateKey"].as_str().unwrap()).unwrap();
    let relayer: Address = devnet["accounts"][1]["address"]
        .as_str()
        .unwrap()
        .parse()
        .unwrap();
    // The watcher's first look is at start; with an hour's poll it will not look again.
    let serve = [
        "--node",
        &node,
        "serve",
        "--listen",
        "127.0.0.1:0",
        "--relayer-poll",
    ];
    let (mut server, announced) = start(&env, &[&serve[..], &["1h"]].concat());
    assert_eq!(announced["relayer"], relayer.to_base58());
    assert_eq!(announced["inProcessDevnet"], false);
    let api = announced["url"].as_str().unwrap().to_owned();

    let (notes, tree) = deposit_through(&api, &node, &key, 1).await;
    let recipient = PrivateKey::generate().address();
    let body = request(&notes[0], &tree, 0, recipient, relayer, FEE, 0);
    let answer: Value = reqwest::Client::new()
        .post(format!("{api}/api/relayer/withdraw"))
        .json(&body)
        .send()
        .await
        .unwrap()
        .json()
        .await
        .unwrap();
    let txid = answer["data"]["txid"].as_str().expect("a txid").to_owned();

    // SIGKILL: no chance to tidy up. The job must be on disk, unfinished.
    server.kill().unwrap();
    server.wait().unwrap();
    let db = env.home().join("devnet/tronpool.sqlite3");
    let state = |db: &std::path::Path| -> String {
        let conn = rusqlite::Connection::open(db).unwrap();
        conn.query_row(
            "SELECT state FROM relayer_jobs WHERE txid = ?1",
            [&txid],
            |row| row.get(0),
        )
        .unwrap()
    };
    assert_eq!(state(&db), "broadcast");

    let (mut server, again) = start(&env, &[&serve[..], &["100ms"]].concat());
    let mut last = String::new();
    for _ in 0..100 {
        last = state(&db);
        if last == "confirmed" {
            break;
        }
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
    assert_eq!(last, "confirmed", "the restarted watcher finished the job");
    let url = format!(
        "{}/api/balance/{}",
        again["url"].as_str().unwrap(),
        recipient.to_base58()
    );
    let balance: Value = reqwest::get(url).await.unwrap().json().await.unwrap();
    assert_eq!(
        balance["data"]["balanceRaw"],
        (DENOMINATION - FEE).to_string()
    );
    for child in [&mut server, &mut chain] {
        let _ = std::process::Command::new("kill")
            .args(["-TERM", &child.id().to_string()])
            .status();
        assert!(child.wait().unwrap().success());
    }
}
