//! `serve` replicas on one PostgreSQL database, as real processes beside a devnet process:
//! copies of one relay spread over two replicas make one broadcast and name one txid; a
//! replica killed with SIGKILL before or after its broadcast loses nothing (another finishes
//! its job); a client's relayer budget holds across replicas; and a database that goes away
//! gives 503 envelopes and an unready server, never a relay, until it is back.
//!
//! They need the PostgreSQL `scripts/test` starts (`TRONPOOL_TEST_POSTGRES`); a plain `cargo
//! test` skips them with a message.
#![cfg(unix)]

use std::net::SocketAddr;
use std::sync::Arc;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::{Duration, Instant};

use serde_json::{Value, json};
use tron::{Address, PrivateKey};

use crate::relayer::{Broadcasts, DENOMINATION, deposit_through, proxy, request, start};
use crate::support::TestEnv;

/// A devnet process sealing each transaction as it is broadcast, with three accounts.
struct Chain {
    process: std::process::Child,
    node: String,
    depositor: PrivateKey,
    relayer: Address,
    _env: TestEnv,
}

impl Chain {
    fn start() -> Chain {
        let _ = rustls::crypto::ring::default_provider().install_default();
        let env = TestEnv::new();
        let (process, devnet) = start(&env, test_support::load::DEVNET_SEALING_ON_BROADCAST);
        Chain {
            process,
            node: devnet["url"].as_str().unwrap().to_owned(),
            depositor: PrivateKey::from_hex(devnet["accounts"][2]["privateKey"].as_str().unwrap())
                .unwrap(),
            relayer: devnet["accounts"][1]["address"]
                .as_str()
                .unwrap()
                .parse()
                .unwrap(),
            _env: env,
        }
    }

    /// An account's TRX (sun), from the node.
    async fn trx(&self, who: Address) -> i64 {
        let account = crate::relayer::client(&self.node).get_account(&who).await;
        account.unwrap().map_or(0, |a| a.balance)
    }
}

impl Drop for Chain {
    fn drop(&mut self) {
        let _ = self.process.kill();
        let _ = self.process.wait();
    }
}

/// One `serve` process with its own home (its own tree cache), sharing `database`.
struct Replica {
    process: std::process::Child,
    url: String,
    _env: TestEnv,
}

impl Replica {
    fn start(node: &str, database: &str, extra: &[&str]) -> Replica {
        let env = TestEnv::new();
        let args = [
            &[
                "--node",
                node,
                "serve",
                "--listen",
                "127.0.0.1:0",
                "--database",
                database,
                "--relayer-poll",
                "200ms",
                "--rate-limit",
                "100000",
            ][..],
            extra,
        ]
        .concat();
        let (process, announced) = start(&env, &args);
        Replica {
            process,
            url: announced["url"].as_str().unwrap().to_owned(),
            _env: env,
        }
    }

    /// SIGKILL: no chance to tidy up, give its leases back or finish anything.
    fn kill(&mut self) {
        self.process.kill().unwrap();
        self.process.wait().unwrap();
    }
}

impl Drop for Replica {
    fn drop(&mut self) {
        let _ = self.process.kill();
        let _ = self.process.wait();
    }
}

fn socket(url: &str) -> SocketAddr {
    url.trim_start_matches("http://").parse().unwrap()
}

async fn get(url: &str) -> (u16, Value) {
    let response = reqwest::get(url).await.unwrap();
    (response.status().as_u16(), response.json().await.unwrap())
}

/// POSTs a relay request to `api` as the client `client` (a forwarded address).
async fn relay(api: &str, body: &Value, client: &str) -> (u16, Value) {
    let response = reqwest::Client::new()
        .post(format!("{api}/api/relayer/withdraw"))
        .header("x-forwarded-for", client)
        .json(body)
        .send()
        .await
        .unwrap();
    (response.status().as_u16(), response.json().await.unwrap())
}

/// The relayer's fee for the 100 pool, as `api` quotes it.
async fn fee(api: &str) -> u64 {
    let (_, status) = get(&format!("{api}/api/relayer/status")).await;
    status["data"]["fees"][0]["relayerFeeRaw"]
        .as_str()
        .unwrap()
        .parse()
        .unwrap()
}

/// Waits until `api` reports job `txid` confirmed (or failed); answers the job.
async fn settled(api: &str, txid: &str, patience: Duration) -> Value {
    let deadline = Instant::now() + patience;
    loop {
        let (_, job) = get(&format!("{api}/api/relayer/jobs/{txid}")).await;
        let state = &job["data"]["state"];
        if state == "confirmed" || state == "failed" {
            return job["data"].clone();
        }
        assert!(Instant::now() < deadline, "job {txid} never settled: {job}");
        tokio::time::sleep(Duration::from_millis(200)).await;
    }
}

/// A USDT balance (base units) as `api` reports it.
async fn usdt(api: &str, who: Address) -> String {
    let (_, balance) = get(&format!("{api}/api/balance/{}", who.to_base58())).await;
    balance["data"]["balanceRaw"].as_str().unwrap().to_owned()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn replicas_relay_each_note_once_and_finish_a_dead_replicas_jobs() {
    let Some(database) = test_support::postgres::fresh_database("replicas") else {
        return;
    };
    let chain = Chain::start();
    let mut one = Replica::start(&chain.node, &database, &["--relayer-rate-limit", "100"]);
    let two = Replica::start(&chain.node, &database, &["--relayer-rate-limit", "100"]);
    let api = test_support::load::round_robin(vec![socket(&one.url), socket(&two.url)]).await;
    let fee = fee(&api).await;
    let (notes, tree) = deposit_through(&two.url, &chain.node, &chain.depositor, 3).await;
    let relayer_trx = chain.trx(chain.relayer).await;

    // Ten copies of one relay, over both replicas at once: one broadcast, and every other
    // copy is refused naming the transaction that relays the note.
    let recipient = PrivateKey::generate().address();
    let body = request(&notes[0], &tree, 0, recipient, chain.relayer, fee, 0);
    let copies: Vec<_> = (0..10)
        .map(|_| {
            let (api, body) = (api.clone(), body.clone());
            tokio::spawn(async move { relay(&api, &body, "10.1.0.1").await })
        })
        .collect();
    let mut answers = Vec::new();
    for copy in copies {
        answers.push(copy.await.unwrap());
    }
    let txid = answers
        .iter()
        .find(|(status, _)| *status == 200)
        .map(|(_, value)| value["data"]["txid"].as_str().unwrap().to_owned())
        .expect("one copy relayed");
    let mut statuses: Vec<u16> = answers.iter().map(|(status, _)| *status).collect();
    statuses.sort();
    assert_eq!(statuses, [200, 409, 409, 409, 409, 409, 409, 409, 409, 409]);
    for (status, value) in &answers {
        if *status == 409 {
            let error = value["error"].as_str().unwrap();
            assert!(
                error.contains(&txid),
                "a refused copy names {txid}: {error}"
            );
        }
    }
    let job = settled(&api, &txid, Duration::from_secs(30)).await;
    assert_eq!(job["state"], "confirmed", "{job}");
    assert_eq!(
        relayer_trx - chain.trx(chain.relayer).await,
        job["feeSun"].as_i64().unwrap(),
        "the relayer paid for one transaction: {job}"
    );
    assert_eq!(
        usdt(&api, recipient).await,
        (DENOMINATION - fee).to_string()
    );

    // A replica that records a job and dies before its broadcast reaches the node: its
    // broadcasts are held (its node is a proxy that sits on them), and it is killed.
    let seen = Arc::new(AtomicUsize::new(0));
    let holding = proxy(
        chain.node.clone(),
        Broadcasts::Slow(Duration::from_secs(3600)),
        seen.clone(),
    )
    .await;
    let mut doomed = Replica::start(&holding, &database, &["--relayer-rate-limit", "100"]);
    let before = PrivateKey::generate().address();
    let body = request(&notes[1], &tree, 1, before, chain.relayer, fee, 0);
    // Its answer never comes: the replica dies while the broadcast is held.
    let asked = tokio::spawn(
        reqwest::Client::new()
            .post(format!("{}/api/relayer/withdraw", doomed.url))
            .json(&body)
            .send(),
    );
    // The job is recorded (every replica sees it) while its broadcast is held: kill then.
    let nullifier = crate::api::hex32(&notes[1].nullifier_hash());
    let deadline = Instant::now() + Duration::from_secs(30);
    let held_txid = loop {
        let (status, job) = get(&format!(
            "{}/api/relayer/jobs/nullifier/{nullifier}",
            two.url
        ))
        .await;
        if status == 200 {
            assert_eq!(job["data"]["state"], "signed", "{job}");
            break job["data"]["txid"].as_str().unwrap().to_owned();
        }
        assert!(
            Instant::now() < deadline,
            "the job was never recorded: {job}"
        );
        tokio::time::sleep(Duration::from_millis(20)).await;
    };
    assert!(seen.load(Ordering::SeqCst) <= 1, "its broadcast is held");
    let killed = Instant::now();
    doomed.kill();
    let _ = asked.await;
    // Another replica takes the job over once the dead one's lease runs out (10 s), and
    // broadcasts the recorded bytes.
    let job = settled(&api, &held_txid, Duration::from_secs(60)).await;
    assert_eq!(job["state"], "confirmed", "{job}");
    let took = killed.elapsed();
    eprintln!(
        "a dead replica's recorded job was confirmed by another {:.1} s after the kill",
        took.as_secs_f64()
    );
    assert!(
        took >= Duration::from_secs(5),
        "not before the dead one's lease ran out"
    );
    assert_eq!(usdt(&api, before).await, (DENOMINATION - fee).to_string());

    // A replica killed right after its broadcast: another follows the job to its end.
    let after = PrivateKey::generate().address();
    let body = request(&notes[2], &tree, 2, after, chain.relayer, fee, 0);
    let (status, answer) = relay(&one.url, &body, "10.1.0.3").await;
    assert_eq!(status, 200, "{answer}");
    let late_txid = answer["data"]["txid"].as_str().unwrap().to_owned();
    one.kill();
    let job = settled(&two.url, &late_txid, Duration::from_secs(60)).await;
    assert_eq!(job["state"], "confirmed", "{job}");

    // Each note was spent once: relaying any of them again is refused, naming its job.
    for (i, txid) in [&txid, &held_txid, &late_txid].into_iter().enumerate() {
        let body = request(
            &notes[i],
            &tree,
            i as u32,
            PrivateKey::generate().address(),
            chain.relayer,
            fee,
            0,
        );
        let (status, answer) = relay(&two.url, &body, "10.1.0.4").await;
        assert_eq!(status, 409, "{answer}");
        assert!(
            answer["error"].as_str().unwrap().contains(txid.as_str()),
            "{answer}"
        );
    }
    // A replica started afresh answers for every job exactly as the one that lived.
    let fresh = Replica::start(&chain.node, &database, &["--relayer-rate-limit", "100"]);
    for txid in [&txid, &held_txid, &late_txid] {
        let (_, on_two) = get(&format!("{}/api/relayer/jobs/{txid}", two.url)).await;
        let (_, on_fresh) = get(&format!("{}/api/relayer/jobs/{txid}", fresh.url)).await;
        assert_eq!(on_two["data"], on_fresh["data"]);
        assert_eq!(on_two["data"]["state"], "confirmed");
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_clients_budget_holds_across_replicas_and_a_lost_database_stops_relays_until_it_is_back()
{
    let Some(database) = test_support::postgres::fresh_database("replica budgets") else {
        return;
    };
    let chain = Chain::start();
    // The replicas reach the database through a path the test can cut.
    let server: SocketAddr = database
        .split_once('@')
        .and_then(|(_, rest)| rest.split_once('/'))
        .map(|(host, _)| host.parse().unwrap())
        .unwrap();
    let path = test_support::postgres::Cuttable::start(server).await;
    let through = path.url_for(&database);
    let limited = ["--relayer-rate-limit", "5", "--trusted-proxy", "127.0.0.1"];
    let one = Replica::start(&chain.node, &through, &limited);
    let two = Replica::start(&chain.node, &through, &limited);

    // Six requests from one client in a burst, alternating replicas: each replica alone
    // would allow five, but the client has five in all; the sixth is 429.
    let junk = json!({ "denomination": "100" });
    let mut statuses = Vec::new();
    let mut retry = None;
    for i in 0..6 {
        let api = if i % 2 == 0 { &one.url } else { &two.url };
        let response = reqwest::Client::new()
            .post(format!("{api}/api/relayer/withdraw"))
            .header("x-forwarded-for", "10.2.0.1")
            .json(&junk)
            .send()
            .await
            .unwrap();
        statuses.push(response.status().as_u16());
        if response.status() == 429 {
            retry = response.headers().get("retry-after").cloned();
            let value: Value = response.json().await.unwrap();
            assert_eq!(value["ok"], false, "{value}");
        }
    }
    assert!(statuses[..5].iter().all(|s| *s != 429), "{statuses:?}");
    assert_eq!(statuses[5], 429, "{statuses:?}");
    let retry: u64 = retry.unwrap().to_str().unwrap().parse().unwrap();
    assert!(
        (1..=12).contains(&retry),
        "one request comes back every 12 s: {retry}"
    );

    // The database goes away: relays are refused with the envelope and 503, nothing is
    // sent, and the replicas say they are not ready.
    let fee = fee(&one.url).await;
    let (notes, tree) = deposit_through(&one.url, &chain.node, &chain.depositor, 1).await;
    let recipient = PrivateKey::generate().address();
    let body = request(&notes[0], &tree, 0, recipient, chain.relayer, fee, 0);
    let relayer_trx = chain.trx(chain.relayer).await;
    path.cut();
    for replica in [&one, &two] {
        let (status, answer) = relay(&replica.url, &body, "10.2.0.2").await;
        assert_eq!(status, 503, "{answer}");
        assert_eq!(answer["ok"], false, "{answer}");
        assert!(
            answer["error"]
                .as_str()
                .unwrap()
                .contains("database is unavailable"),
            "{answer}"
        );
    }
    tokio::time::sleep(Duration::from_millis(1_100)).await;
    for replica in [&one, &two] {
        let (status, ready) = get(&format!("{}/readyz", replica.url)).await;
        assert_eq!(status, 503, "{ready}");
        let (status, job) = get(&format!(
            "{}/api/relayer/jobs/{}",
            replica.url,
            "ab".repeat(32)
        ))
        .await;
        assert_eq!(status, 503, "{job}");
    }
    assert_eq!(
        chain.trx(chain.relayer).await,
        relayer_trx,
        "nothing was sent"
    );

    // Back: the same request goes through without restarting either replica.
    path.restore();
    let deadline = Instant::now() + Duration::from_secs(20);
    let answer = loop {
        let (status, answer) = relay(&two.url, &body, "10.2.0.3").await;
        if status == 200 {
            break answer;
        }
        assert_eq!(status, 503, "{answer}");
        assert!(
            Instant::now() < deadline,
            "the database never came back: {answer}"
        );
        tokio::time::sleep(Duration::from_millis(500)).await;
    };
    let txid = answer["data"]["txid"].as_str().unwrap();
    let job = settled(&one.url, txid, Duration::from_secs(30)).await;
    assert_eq!(job["state"], "confirmed", "{job}");
    tokio::time::sleep(Duration::from_millis(1_100)).await;
    let (status, ready) = get(&format!("{}/readyz", one.url)).await;
    assert_eq!(status, 200, "{ready}");
}
