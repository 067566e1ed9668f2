//! The pool commands through the binary against a devnet, with an isolated home: deposit,
//! the pools table, relayed and self withdrawals, the notes store and its states, a second
//! spend refused with exit 4, bad notes with exit 5, a dead node with exit 3, no spending
//! without a terminal or `--yes`, `--dry-run` and `--unsigned` sending nothing, a deposit
//! killed right after its broadcast settled by `notes check`, one killed before its broadcast
//! sent by the next `deposit`, and the guidance before a withdrawal.

use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use assert_cmd::Command;
use serde_json::Value;
use tron::PrivateKey;

use crate::support::{TestChain, TestEnv, json_run, mode};

/// `tronpool --node <devnet> ARGS`, in the test's home.
fn run(env: &TestEnv, chain: &TestChain, args: &[&str]) -> Command {
    let mut cmd = env.cmd();
    cmd.args(["--node", &chain.url()]).args(args);
    cmd
}

/// Runs with `--json`, expects success, returns `data`.
fn ok(env: &TestEnv, chain: &TestChain, args: &[&str]) -> Value {
    let (code, out) = json_run(&mut run(env, chain, args));
    assert_eq!(code, 0, "{args:?}: {out}");
    assert_eq!(out["ok"], true, "{out}");
    out["data"].clone()
}

/// Runs with `--json`, expects exit `code`, returns the error message.
fn fails(env: &TestEnv, chain: &TestChain, args: &[&str], code: i32) -> String {
    let (got, out) = json_run(&mut run(env, chain, args));
    assert_eq!(got, code, "{args:?}: {out}");
    assert_eq!(out["ok"], false, "{out}");
    let kind = out["kind"]
        .as_str()
        .and_then(tronpool::error::Kind::from_name);
    assert!(kind.is_some(), "{out}");
    out["error"].as_str().unwrap().to_owned()
}

fn usdt_of(env: &TestEnv, chain: &TestChain, address: &str) -> String {
    ok(env, chain, &["balance", address])["balanceRaw"]
        .as_str()
        .unwrap()
        .to_owned()
}

fn state_of(env: &TestEnv, chain: &TestChain, id: i64) -> String {
    let notes = ok(env, chain, &["notes", "list"]);
    let note = notes
        .as_array()
        .unwrap()
        .iter()
        .find(|n| n["id"] == id)
        .unwrap_or_else(|| panic!("note {id} in {notes}"));
    note["state"].as_str().unwrap().to_owned()
}

#[test]
fn deposit_then_relay_withdraw_then_the_note_is_spent() {
    let env = TestEnv::new();
    let chain = TestChain::start();
    let deposited = ok(
        &env,
        &chain,
        &["deposit", "--denom", "100", "--insert", "--yes"],
    );
    let note = &deposited["notes"][0];
    let id = note["id"].as_i64().unwrap();
    assert_eq!(note["leafIndex"], 0);
    assert!(
        note["note"]
            .as_str()
            .unwrap()
            .starts_with("tronpool-v1-usdt-100-devnet-0x")
    );
    assert!(deposited["approveTxid"].is_string(), "{deposited}");
    assert_eq!(state_of(&env, &chain, id), "deposited");
    // The notes live in the network's database, private to the user.
    let db = env.home().join("devnet/tronpool.sqlite3");
    assert_eq!(mode(&db), 0o600);
    assert_eq!(mode(db.parent().unwrap()), 0o700);

    // The same `data` as `GET /api/pools`.
    let pools = ok(&env, &chain, &["pools"]);
    let hundred = &pools["pools"].as_array().unwrap()[0];
    assert_eq!(hundred["denomination"], 100);
    // The deposit and its insertion fee; inserted (`--insert`), so nothing waits.
    assert_eq!(hundred["poolBalanceRaw"], "100250000");
    assert_eq!(hundred["depositCount"], 1);
    assert_eq!(hundred["queued"], 0);

    let recipient = PrivateKey::generate().address().to_base58();
    let id_text = id.to_string();
    let relayed = ok(
        &env,
        &chain,
        &["relay", "withdraw", &id_text, "--to", &recipient, "--yes"],
    );
    // The devnet relayer's quote for a sponsored pool (the genesis deployer's stake pays the
    // energy): 800 bytes × 1,000 sun = 0.8 TRX at the devnet pair's 0.28 USDT per TRX, +20%:
    // 0.2688 USDT.
    assert_eq!(relayed["receivedRaw"], "99731200", "{relayed}");
    assert_eq!(relayed["feeRaw"], "268800");
    assert_eq!(usdt_of(&env, &chain, &recipient), "99731200");
    assert_eq!(state_of(&env, &chain, id), "withdrawn");
    let shown = ok(&env, &chain, &["notes", "show", &id_text]);
    assert_eq!(shown["withdrawTxid"], relayed["txid"]);
    assert_eq!(shown["recipient"], recipient.as_str());
    let history: Vec<&str> = shown["history"]
        .as_array()
        .unwrap()
        .iter()
        .map(|c| c["state"].as_str().unwrap())
        .collect();
    assert_eq!(history, ["created", "created", "deposited", "withdrawn"]);

    // The fee stayed in the pool, credited to the relayer (dev account 1 on the devnet): its
    // operator collects it, less the one base unit the pool keeps in the credit's slot.
    let relayer = relayed["relayer"].as_str().unwrap().to_owned();
    let relayer_usdt: u64 = usdt_of(&env, &chain, &relayer).parse().unwrap();
    let due = ok(&env, &chain, &["relay", "collect", "--dry-run"]);
    assert_eq!(due["relayer"], relayer.as_str(), "{due}");
    assert_eq!(due["due"][0]["denomination"], 100);
    assert_eq!(due["due"][0]["collectableRaw"], "268799");
    assert_eq!(due["collected"], serde_json::json!([]));
    let collected = ok(&env, &chain, &["relay", "collect", "--yes"]);
    assert_eq!(
        collected["collected"][0]["amountRaw"], "268799",
        "{collected}"
    );
    let after: u64 = usdt_of(&env, &chain, &relayer).parse().unwrap();
    assert_eq!(after, relayer_usdt + 268_799);
    let nothing = ok(&env, &chain, &["relay", "collect", "--yes"]);
    assert_eq!(nothing["due"], serde_json::json!([]), "{nothing}");
    let unknown = fails(
        &env,
        &chain,
        &["relay", "collect", "--denom", "7", "--yes"],
        2,
    );
    assert!(unknown.contains("no 7 USDT pool"), "{unknown}");

    // Spent: refused with exit 4, by both ways of withdrawing, before any proving.
    let again = fails(
        &env,
        &chain,
        &["relay", "withdraw", &id_text, "--to", &recipient, "--yes"],
        4,
    );
    assert!(again.contains("already spent"), "{again}");
    fails(
        &env,
        &chain,
        &["withdraw", &id_text, "--to", &recipient, "--yes"],
        4,
    );
    let checked = ok(&env, &chain, &["notes", "check"]);
    assert_eq!(checked[0]["spent"], true);
    assert_eq!(checked[0]["withdrawable"], false);
}

#[test]
fn self_withdrawal_from_a_note_on_stdin_and_dry_runs_send_nothing() {
    let env = TestEnv::new();
    let chain = TestChain::start();
    let deposited = ok(
        &env,
        &chain,
        &[
            "deposit", "--denom", "100", "--count", "2", "--insert", "--yes",
        ],
    );
    let notes = deposited["notes"].as_array().unwrap();
    assert_eq!(notes.len(), 2);
    assert_eq!(notes[1]["leafIndex"], 1);
    let text = notes[0]["note"].as_str().unwrap().to_owned();
    let recipient = PrivateKey::generate().address().to_base58();

    let dry = ok(
        &env,
        &chain,
        &["withdraw", "1", "--to", &recipient, "--dry-run"],
    );
    assert_eq!(dry["dryRun"], true);
    assert!(dry["energy"].as_i64().unwrap() > 100_000, "{dry}");
    let relay_dry = ok(
        &env,
        &chain,
        &["relay", "withdraw", "2", "--to", &recipient, "--dry-run"],
    );
    assert_eq!(relay_dry["feeRaw"], "268800");
    assert_eq!(usdt_of(&env, &chain, &recipient), "0");
    assert_eq!(state_of(&env, &chain, 1), "deposited");

    // --unsigned hands out the transaction and sends nothing either.
    let unsigned = ok(
        &env,
        &chain,
        &["withdraw", "1", "--to", &recipient, "--unsigned"],
    );
    assert!(
        unsigned["transaction"]["raw_data_hex"].is_string(),
        "{unsigned}"
    );
    assert_eq!(state_of(&env, &chain, 1), "deposited");

    let (code, out) = json_run(
        run(
            &env,
            &chain,
            &["withdraw", "-", "--to", &recipient, "--yes"],
        )
        .write_stdin(format!("{text}\n")),
    );
    assert_eq!(code, 0, "{out}");
    assert_eq!(out["data"]["noteId"], 1);
    assert_eq!(usdt_of(&env, &chain, &recipient), "100000000");
    assert_eq!(state_of(&env, &chain, 1), "withdrawn");
    // The same note as text: still spent, exit 4; the output never echoes the secret.
    let (code, out) = json_run(
        run(
            &env,
            &chain,
            &["withdraw", "-", "--to", &recipient, "--yes"],
        )
        .write_stdin(text.clone()),
    );
    assert_eq!(code, 4, "{out}");
    assert!(!out.to_string().contains(&text[40..]), "{out}");
}

/// The codes of a withdrawal's guidance warnings.
fn warning_codes(out: &Value) -> Vec<String> {
    out["guidance"]["warnings"]
        .as_array()
        .unwrap_or_else(|| panic!("guidance warnings in {out}"))
        .iter()
        .map(|w| w["code"].as_str().unwrap().to_owned())
        .collect()
}

#[test]
fn a_withdrawal_right_after_a_deposit_is_warned_about_even_with_yes() {
    let env = TestEnv::new();
    let chain = TestChain::start();
    ok(
        &env,
        &chain,
        &[
            "deposit", "--denom", "100", "--count", "3", "--insert", "--yes",
        ],
    );
    let fresh = PrivateKey::generate().address().to_base58();

    // Text mode with --yes: the guidance is on stderr before the withdrawal goes through.
    let output = run(&env, &chain, &["withdraw", "1", "--to", &fresh, "--yes"])
        .output()
        .unwrap();
    let stderr = String::from_utf8(output.stderr).unwrap();
    assert_eq!(output.status.code(), Some(0), "{stderr}");
    assert!(
        stderr.contains("anonymity set: 0 deposit(s) before yours, 2 after; deposited "),
        "{stderr}"
    );
    assert!(
        stderr.contains("warning: only 2 deposit(s) into this pool came after yours"),
        "{stderr}"
    );
    assert!(stderr.contains("(under 24 h)"), "{stderr}");
    assert!(
        stderr.contains("warning: the recipient holds no TRX and no refund was asked")
            && stderr.contains("pass --refund TRX to send some along (paid by you)"),
        "{stderr}"
    );
    assert_eq!(state_of(&env, &chain, 1), "withdrawn");

    // JSON with --yes: the same guidance as fields; through a relayer, the refund is the
    // relayer's to send.
    let fresh = PrivateKey::generate().address().to_base58();
    let relayed = ok(
        &env,
        &chain,
        &["relay", "withdraw", "2", "--to", &fresh, "--yes"],
    );
    let guidance = &relayed["guidance"];
    assert_eq!(
        guidance["anonymitySet"],
        serde_json::json!({"before": 1, "after": 1}),
        "{relayed}"
    );
    let since = guidance["sinceDepositSeconds"].as_i64().unwrap();
    assert!((0..24 * 3600).contains(&since), "{relayed}");
    assert_eq!(guidance["recipientTrxSun"], 0);
    assert_eq!(
        warning_codes(&relayed),
        ["fewLaterDeposits", "recentDeposit", "recipientWithoutTrx"]
    );
    assert!(
        guidance["warnings"][2]["message"]
            .as_str()
            .unwrap()
            .contains("to have the relayer send some along"),
        "{relayed}"
    );
    assert_eq!(state_of(&env, &chain, 2), "withdrawn");

    // A recipient holding TRX (a dev account), or a refund asked: no warning about TRX; the
    // other two stay.
    let funded = chain.devnet.accounts()[2].address().to_base58();
    let dry = ok(
        &env,
        &chain,
        &["withdraw", "3", "--to", &funded, "--dry-run"],
    );
    assert!(
        dry["guidance"]["recipientTrxSun"].as_i64().unwrap() > 0,
        "{dry}"
    );
    assert_eq!(warning_codes(&dry), ["fewLaterDeposits", "recentDeposit"]);
    assert_eq!(
        dry["guidance"]["anonymitySet"],
        serde_json::json!({"before": 2, "after": 0})
    );
    let refunded = ok(
        &env,
        &chain,
        &[
            "relay",
            "withdraw",
            "3",
            "--to",
            &fresh,
            "--refund",
            "1",
            "--dry-run",
        ],
    );
    assert_eq!(
        warning_codes(&refunded),
        ["fewLaterDeposits", "recentDeposit"]
    );
    let sent = ok(&env, &chain, &["withdraw", "3", "--to", &funded, "--yes"]);
    assert_eq!(warning_codes(&sent), ["fewLaterDeposits", "recentDeposit"]);
}

#[test]
fn bad_notes_exit_5_and_nothing_spends_without_a_terminal_or_yes() {
    let env = TestEnv::new();
    let chain = TestChain::start();
    let recipient = PrivateKey::generate().address().to_base58();
    let deposited = ok(
        &env,
        &chain,
        &["deposit", "--denom", "100", "--insert", "--yes"],
    );
    let text = deposited["notes"][0]["note"].as_str().unwrap().to_owned();
    // One character changed: the checksum catches it.
    let mut corrupted = text.clone().into_bytes();
    let at = corrupted.len() - 20;
    corrupted[at] = if corrupted[at] == b'a' { b'b' } else { b'a' };
    let corrupted = String::from_utf8(corrupted).unwrap();
    let (code, out) = json_run(
        run(
            &env,
            &chain,
            &["relay", "withdraw", "-", "--to", &recipient, "--yes"],
        )
        .write_stdin(corrupted),
    );
    assert_eq!(code, 5, "{out}");
    assert!(out["error"].as_str().unwrap().contains("bad note"), "{out}");
    // A note of another network.
    let nile = text.replace("-devnet-", "-nile-");
    let (code, _) = json_run(run(&env, &chain, &["notes", "import", "-"]).write_stdin(nile));
    assert_eq!(code, 5);
    // An id that is not stored.
    fails(&env, &chain, &["notes", "show", "42"], 2);

    // Without a terminal and without --yes a spending command refuses, exit 2, and the chain
    // and the store are unchanged.
    let mut cmd = run(&env, &chain, &["deposit", "--denom", "100"]);
    cmd.assert()
        .code(2)
        .stderr(predicates::str::contains("pass --yes"));
    let mut cmd = run(&env, &chain, &["withdraw", "1", "--to", &recipient]);
    cmd.assert().code(2);
    assert_eq!(
        ok(&env, &chain, &["notes", "list"])
            .as_array()
            .unwrap()
            .len(),
        1
    );
    assert_eq!(usdt_of(&env, &chain, &recipient), "0");

    // Text mode: one line on stderr naming the problem.
    let mut cmd = run(
        &env,
        &chain,
        &["withdraw", "-", "--to", &recipient, "--yes"],
    );
    let output = cmd
        .write_stdin("tronpool-v1-usdt-100-devnet-0x12")
        .output()
        .unwrap();
    assert_eq!(output.status.code(), Some(5));
    let stderr = String::from_utf8(output.stderr).unwrap();
    assert_eq!(stderr.trim().lines().count(), 1, "{stderr}");
    assert!(stderr.starts_with("error: bad note"), "{stderr}");
}

#[test]
fn every_command_prints_the_envelope_and_a_dead_node_is_exit_3() {
    let env = TestEnv::new();
    let chain = TestChain::start();
    let me = chain.devnet.accounts()[0].address().to_base58();
    let balance = ok(&env, &chain, &["balance", "--allowance"]);
    assert_eq!(balance["address"], me.as_str());
    assert_eq!(balance["allowances"].as_array().unwrap().len(), 6);
    let approve = ok(
        &env,
        &chain,
        &["approve", "--denom", "500", "--count", "2", "--yes"],
    );
    assert!(approve["txid"].is_string());
    let allowance = ok(&env, &chain, &["balance", "--allowance"]);
    // Two deposits' worth with their insertion fees, and one base unit, kept so the
    // allowance never returns to zero.
    assert_eq!(allowance["allowances"][1]["allowanceRaw"], "1000500001");
    let unsigned = ok(&env, &chain, &["approve", "--denom", "100", "--unsigned"]);
    assert!(unsigned["transaction"]["txID"].is_string());

    // An unsigned deposit stores its note and its txid; signed and broadcast elsewhere
    // (`tx sign`, `tx broadcast`), `notes check` records it.
    let prepared = ok(&env, &chain, &["deposit", "--denom", "500", "--unsigned"]);
    let note = &prepared["notes"][0];
    let tx = serde_json::to_string(&note["transaction"]).unwrap();
    let signed = ok_stdin(&env, &chain, &["tx", "sign"], &tx);
    let signed = serde_json::to_string(&signed["transaction"]).unwrap();
    ok_stdin(&env, &chain, &["tx", "broadcast", "--yes"], &signed);
    let checked = ok(&env, &chain, &["notes", "check"]);
    assert_eq!(checked[0]["state"], "deposited", "{checked}");
    assert_eq!(checked[0]["was"], "created");
    assert_eq!(checked[0]["leafIndex"], 0);

    for args in [
        &["pools"][..],
        &["notes", "list"],
        &["notes", "show", "1"],
        &["notes", "export"],
        &["relay", "status"],
    ] {
        ok(&env, &chain, args);
    }
    let exported = env.path("notes.txt");
    ok(
        &env,
        &chain,
        &["notes", "export", "--out", exported.to_str().unwrap()],
    );
    assert_eq!(mode(&exported), 0o600);
    // Importing into another home brings the note back, checked against the chain.
    let other = TestEnv::new();
    let (code, out) = json_run(&mut run(
        &other,
        &chain,
        &["notes", "import", exported.to_str().unwrap()],
    ));
    assert_eq!(code, 0, "{out}");
    assert_eq!(out["data"][0]["state"], "deposited");

    let (code, out) = json_run(env.cmd().args(["--node", "http://127.0.0.1:9", "pools"]));
    assert_eq!(code, 3, "{out}");
    assert!(
        out["error"].as_str().unwrap().contains("tronpool devnet"),
        "{out}"
    );
}

fn ok_stdin(env: &TestEnv, chain: &TestChain, args: &[&str], input: &str) -> Value {
    let (code, out) = json_run(run(env, chain, args).write_stdin(input.to_owned()));
    assert_eq!(code, 0, "{args:?}: {out}");
    out["data"].clone()
}

/// A relayer server (dev account 2) on `chain` with a fee floor of `floor` on the 100 pool,
/// over a cheap TRX price, so that the floor is the fee.
fn relayer_server(chain: &TestChain, floor: &str) -> tronpool::api::ServerHandle {
    relayer_server_with(chain, floor, Default::default())
}

/// [`relayer_server`] with `config` for its relayer (and batcher).
fn relayer_server_with(
    chain: &TestChain,
    floor: &str,
    config: tronpool::service::relayer::RelayerConfig,
) -> tronpool::api::ServerHandle {
    chain.runtime.block_on(async {
        let node =
            tron::NodeClient::new(tron::NodeConfig::new(chain.url().parse().unwrap())).unwrap();
        let service =
            tronpool::service::open::chain_named("devnet", node, Duration::from_millis(500))
                .await
                .unwrap();
        let relayer = tronpool::service::relayer::Relayer::new(
            chain.devnet.accounts()[2].clone(),
            config,
            tronpool::store::jobs::JobStore::in_memory().unwrap(),
        );
        let policy = tronpool::service::relayer_fees::FeePolicy::default()
            .with_floors(&[format!("100={floor}")])
            .unwrap();
        let source = tronpool::service::price::PriceSource::parse("fixed:0.01").unwrap();
        let feed = tronpool::service::price::PriceFeed::new(
            Some(source),
            tronpool::service::price::DEFAULT_MAX_AGE,
        );
        let pricing = tronpool::service::relayer_fees::Pricing::new(policy, feed);
        let app =
            tronpool::api::App::new(service, pricing, Default::default()).with_relayer(relayer);
        tronpool::api::spawn("127.0.0.1:0".parse().unwrap(), Arc::new(app))
            .await
            .unwrap()
    })
}

#[test]
fn a_remote_relayer_over_http() {
    let env = TestEnv::new();
    let chain = TestChain::start();
    let deposited = ok(
        &env,
        &chain,
        &[
            "deposit", "--denom", "100", "--count", "2", "--insert", "--yes",
        ],
    );
    let id = deposited["notes"][0]["id"].as_i64().unwrap().to_string();
    let second = deposited["notes"][1]["id"].as_i64().unwrap().to_string();
    let server = relayer_server(&chain, "2");
    let url = server.url();
    let status = ok(&env, &chain, &["relay", "status", "--relayer", &url]);
    assert_eq!(
        status["address"],
        chain.devnet.accounts()[2].address().to_base58()
    );
    let recipient = PrivateKey::generate().address().to_base58();
    let relayed = ok(
        &env,
        &chain,
        &[
            "relay",
            "withdraw",
            &id,
            "--to",
            &recipient,
            "--relayer",
            &url,
            "--yes",
        ],
    );
    assert_eq!(relayed["feeRaw"], "2000000");
    assert_eq!(usdt_of(&env, &chain, &recipient), "98000000");
    // The relayer's own refusal comes back as exit 4.
    fails(
        &env,
        &chain,
        &[
            "relay",
            "withdraw",
            &id,
            "--to",
            &recipient,
            "--relayer",
            &url,
            "--yes",
        ],
        4,
    );
    // Nothing answers: exit 3.
    fails(
        &env,
        &chain,
        &["relay", "status", "--relayer", "http://127.0.0.1:9"],
        3,
    );

    // A fee above what the client accepts is refused before anything is proved or sent.
    let refused = fails(
        &env,
        &chain,
        &[
            "relay",
            "withdraw",
            &second,
            "--to",
            &recipient,
            "--relayer",
            &url,
            "--max-fee",
            "1.5",
            "--yes",
        ],
        4,
    );
    assert!(refused.contains("--max-fee"), "{refused}");
    // A greedy relayer asking half the pool: more than the default cap, 25% of the pool or
    // twice what a relay costs at the chain's prices without a sponsor, whichever is less:
    // here 2 x 43.8 TRX at the devnet pair's 0.28 USDT, 24.528 USDT.
    let greedy = relayer_server(&chain, "50");
    let refused = fails(
        &env,
        &chain,
        &[
            "relay",
            "withdraw",
            &second,
            "--to",
            &recipient,
            "--relayer",
            &greedy.url(),
            "--yes",
        ],
        4,
    );
    assert!(
        refused.contains("asks a fee of 50 USDT") && refused.contains("twice the 12.264 USDT"),
        "{refused}"
    );
    let shown = ok(&env, &chain, &["notes", "show", &second]);
    assert_eq!(shown["state"], "deposited", "nothing was sent: {shown}");
    // Told to accept it, the client pays it.
    let relayed = ok(
        &env,
        &chain,
        &[
            "relay",
            "withdraw",
            &second,
            "--to",
            &recipient,
            "--relayer",
            &greedy.url(),
            "--max-fee",
            "50",
            "--yes",
        ],
    );
    assert_eq!(relayed["feeRaw"], "50000000");
}

/// A client that cannot price a relay does not fall back on a share of the pool (2,500 USDT in
/// the 10,000 pool): it needs `--max-fee` or `max_fee` in the config, says so, and stops
/// before anything is proved or sent.
#[test]
fn a_client_that_cannot_price_a_relay_needs_a_max_fee() {
    let env = TestEnv::new();
    let chain = TestChain::start();
    let deposited = ok(
        &env,
        &chain,
        &["deposit", "--denom", "100", "--insert", "--yes"],
    );
    let id = deposited["notes"][0]["id"].as_i64().unwrap().to_string();
    let server = relayer_server(&chain, "2");
    let url = server.url();
    let recipient = PrivateKey::generate().address().to_base58();
    // A price source that does not answer as a pair: USDT itself; and `max_fee` when given.
    let usdt = chain.devnet.deployment().usdt.to_base58();
    let config = |max_fee: Option<&str>| -> String {
        let mut text = format!("[networks.devnet]\nprice_source = \"pair:{usdt}\"\n");
        if let Some(cap) = max_fee {
            text.push_str(&format!("max_fee = \"{cap}\"\n"));
        }
        let path = env.write(&format!("config-{}.toml", max_fee.unwrap_or("none")), &text);
        path.to_str().unwrap().to_owned()
    };
    let relay = |config: &str, extra: &[&str]| -> Vec<String> {
        let args = [
            "--config",
            config,
            "relay",
            "withdraw",
            &id,
            "--to",
            &recipient,
            "--relayer",
            &url,
            "--yes",
        ];
        args.iter().chain(extra).map(|s| s.to_string()).collect()
    };
    let unpriced = config(None);
    let args = relay(&unpriced, &[]);
    let refused = fails(&env, &chain, &strs(&args), 2);
    assert!(
        refused.contains("cannot price the relay") && refused.contains("--max-fee"),
        "{refused}"
    );
    assert_eq!(
        state_of(&env, &chain, id.parse().unwrap()),
        "deposited",
        "nothing was sent"
    );
    // Told the most it accepts, it goes on (a dry run: proved, checked, simulated, not sent).
    let args = relay(&unpriced, &["--max-fee", "3", "--dry-run"]);
    let dry = ok(&env, &chain, &strs(&args));
    assert_eq!(dry["feeRaw"], "2000000", "{dry}");
    // The same cap from the config file; one below the relayer's fee refuses it (exit 4).
    ok(
        &env,
        &chain,
        &strs(&relay(&config(Some("3")), &["--dry-run"])),
    );
    let args = relay(&config(Some("1.5")), &["--dry-run"]);
    let refused = fails(&env, &chain, &strs(&args), 4);
    assert!(refused.contains("asks a fee of 2 USDT"), "{refused}");
}

fn strs(args: &[String]) -> Vec<&str> {
    args.iter().map(String::as_str).collect()
}

/// A node in front of the devnet that forwards everything, but once a transaction has been
/// broadcast, never answers about receipts: the deposit is on chain and the CLI cannot know.
/// With `hold_broadcasts`, a broadcast is never passed on or answered either: the deposit
/// never reaches the chain.
fn stalling_proxy(chain: &TestChain, broadcast: Arc<Mutex<bool>>, hold_broadcasts: bool) -> String {
    use axum::body::Bytes;
    use axum::extract::State;
    use axum::http::{Method, Uri};

    let upstream = chain.url();
    let handler =
        move |State(seen): State<Arc<Mutex<bool>>>, method: Method, uri: Uri, body: Bytes| {
            let upstream = upstream.clone();
            async move {
                let path = uri.path().to_owned();
                if hold_broadcasts && path.contains("broadcast") {
                    *seen.lock().unwrap() = true;
                    tokio::time::sleep(Duration::from_secs(3600)).await;
                }
                if *seen.lock().unwrap() && path.contains("gettransactioninfobyid") {
                    tokio::time::sleep(Duration::from_secs(3600)).await;
                }
                let url = format!(
                    "{upstream}{}",
                    uri.path_and_query().map_or("", |p| p.as_str())
                );
                let response = reqwest::Client::new()
                    .request(method, url)
                    .header("content-type", "application/json")
                    .body(body)
                    .send()
                    .await
                    .unwrap();
                let bytes = response.bytes().await.unwrap();
                if path.contains("broadcast") {
                    *seen.lock().unwrap() = true;
                }
                ([("content-type", "application/json")], bytes)
            }
        };
    chain.runtime.block_on(async move {
        let app = axum::Router::new().fallback(handler).with_state(broadcast);
        let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
        let addr = listener.local_addr().unwrap();
        tokio::spawn(async move { axum::serve(listener, app).await });
        format!("http://{addr}")
    })
}

#[test]
fn a_deposit_killed_after_its_broadcast_is_settled_by_notes_check() {
    let _ = rustls::crypto::ring::default_provider().install_default();
    let env = TestEnv::new();
    let chain = TestChain::start();
    // Approve first, so the killed command's only broadcast is the deposit.
    ok(&env, &chain, &["approve", "--denom", "100", "--yes"]);
    let broadcast = Arc::new(Mutex::new(false));
    let proxy = stalling_proxy(&chain, broadcast.clone(), false);
    let mut child = std::process::Command::new(env!("CARGO_BIN_EXE_tronpool"))
        .env("TRONPOOL_HOME", env.home())
        .env_remove("TRONPOOL_PRIVATE_KEY")
        .env_remove("TRONPOOL_NETWORK")
        .args(["--node", &proxy, "deposit", "--denom", "100", "--yes"])
        .stdout(std::process::Stdio::null())
        .stderr(std::process::Stdio::null())
        .spawn()
        .unwrap();
    let started = Instant::now();
    while !*broadcast.lock().unwrap() {
        assert!(started.elapsed() < Duration::from_secs(60), "no broadcast");
        std::thread::sleep(Duration::from_millis(20));
    }
    std::thread::sleep(Duration::from_millis(300));
    child.kill().unwrap(); // SIGKILL: no cleanup of any kind
    child.wait().unwrap();

    let notes = ok(&env, &chain, &["notes", "list"]);
    assert_eq!(notes[0]["state"], "created", "{notes}");
    assert!(
        notes[0]["depositTxid"].is_string(),
        "the txid was stored before the broadcast"
    );
    let checked = ok(&env, &chain, &["notes", "check", "1"]);
    assert_eq!(checked[0]["state"], "deposited", "{checked}");
    assert_eq!(checked[0]["leafIndex"], 0);
    // In the pool's queue: withdrawable once a batch inserts it.
    assert_eq!(checked[0]["withdrawable"], false);
    assert_eq!(state_of(&env, &chain, 1), "deposited");
    ok(&env, &chain, &["pool", "insert", "--denom", "100", "--yes"]);
    let checked = ok(&env, &chain, &["notes", "check", "1"]);
    assert_eq!(checked[0]["withdrawable"], true, "{checked}");
}

#[test]
fn a_deposit_killed_before_its_broadcast_is_sent_by_the_next_deposit() {
    let _ = rustls::crypto::ring::default_provider().install_default();
    let env = TestEnv::new();
    let chain = TestChain::start();
    ok(
        &env,
        &chain,
        &["approve", "--denom", "100", "--count", "2", "--yes"],
    );
    let broadcast = Arc::new(Mutex::new(false));
    let proxy = stalling_proxy(&chain, broadcast.clone(), true);
    let mut child = std::process::Command::new(env!("CARGO_BIN_EXE_tronpool"))
        .env("TRONPOOL_HOME", env.home())
        .env_remove("TRONPOOL_PRIVATE_KEY")
        .env_remove("TRONPOOL_NETWORK")
        .args(["--node", &proxy, "deposit", "--denom", "100", "--yes"])
        .stdout(std::process::Stdio::null())
        .stderr(std::process::Stdio::null())
        .spawn()
        .unwrap();
    let started = Instant::now();
    while !*broadcast.lock().unwrap() {
        assert!(started.elapsed() < Duration::from_secs(60), "no broadcast");
        std::thread::sleep(Duration::from_millis(20));
    }
    child.kill().unwrap(); // SIGKILL while the broadcast is held: it never reached the node
    child.wait().unwrap();
    let notes = ok(&env, &chain, &["notes", "list"]);
    assert_eq!(notes[0]["state"], "created", "{notes}");
    let txid = notes[0]["depositTxid"]
        .as_str()
        .expect("recorded")
        .to_owned();
    let checked = ok(&env, &chain, &["notes", "check", "1"]);
    assert_eq!(checked[0]["state"], "created", "not on chain: {checked}");

    // The next deposit sends the recorded one first (the same signed bytes), then its own.
    let mut next = run(
        &env,
        &chain,
        &["deposit", "--denom", "100", "--insert", "--yes"],
    );
    let output = next.output().unwrap();
    assert!(output.status.success(), "{output:?}");
    let said = String::from_utf8_lossy(&output.stderr);
    assert!(
        said.contains(&format!(
            "note 1's deposit from an earlier run went in as leaf 0: {txid}"
        )),
        "{said}"
    );
    let notes = ok(&env, &chain, &["notes", "list"]);
    assert_eq!(notes[0]["state"], "deposited", "{notes}");
    assert_eq!(notes[0]["leafIndex"], 0);
    assert_eq!(notes[0]["depositTxid"], txid.as_str());
    assert_eq!(notes[1]["state"], "deposited", "{notes}");
    assert_eq!(notes[1]["leafIndex"], 1);
    // Nothing is left to finish: a third run sends nothing old.
    let third = run(
        &env,
        &chain,
        &["deposit", "--denom", "100", "--insert", "--yes"],
    )
    .output()
    .unwrap();
    assert!(
        !String::from_utf8_lossy(&third.stderr).contains("earlier run"),
        "{third:?}"
    );
}

#[test]
fn a_tree_cache_from_an_earlier_devnet_is_dropped_and_fetched_again() {
    let env = TestEnv::new();
    let recipient = PrivateKey::generate().address().to_base58();
    let first = TestChain::start();
    ok(
        &env,
        &first,
        &["deposit", "--denom", "100", "--insert", "--yes"],
    );
    // Caches the first devnet's one leaf.
    ok(
        &env,
        &first,
        &["withdraw", "1", "--to", &recipient, "--dry-run"],
    );
    drop(first);
    // A fresh devnet has the same pool addresses and other deposits: the cached leaf is
    // wrong, the root it gives is unknown to the pool, and the cache is fetched again.
    let second = TestChain::start();
    ok(
        &env,
        &second,
        &[
            "deposit", "--denom", "100", "--count", "2", "--insert", "--yes",
        ],
    );
    let dry = ok(
        &env,
        &second,
        &["withdraw", "3", "--to", &recipient, "--dry-run"],
    );
    assert_eq!(dry["dryRun"], true, "{dry}");
    let pools = ok(&env, &second, &["pools"]);
    assert_eq!(dry["root"], pools["pools"][0]["currentRoot"]);
}

#[test]
fn denominations_and_counts_of_any_size_are_clear_errors_not_overflows() {
    let env = TestEnv::new();
    let chain = TestChain::start();
    let huge = u64::MAX.to_string();
    let error = fails(&env, &chain, &["approve", "--denom", &huge, "--yes"], 2);
    assert!(error.contains(&format!("no {huge} USDT pool")), "{error}");
    // u64::MAX deposits: refused by the count's bound, nothing stored or sent.
    let error = fails(
        &env,
        &chain,
        &["deposit", "--denom", "100", "--count", &huge, "--yes"],
        2,
    );
    assert!(error.contains("1 to 100"), "{error}");
    assert_eq!(ok(&env, &chain, &["notes", "list"]), serde_json::json!([]));
    // An allowance for as many: the amount is a uint256, so it is simply approved.
    let approved = ok(
        &env,
        &chain,
        &["approve", "--denom", "100", "--count", &huge, "--yes"],
    );
    // (and the one base unit every approval keeps back).
    let expected = alloy_primitives::U256::from(u64::MAX)
        * alloy_primitives::U256::from(100_250_000u64)
        + alloy_primitives::U256::from(1);
    assert_eq!(approved["amountRaw"], expected.to_string());
}

#[test]
fn a_queued_deposit_says_so_refuses_to_withdraw_and_withdraws_once_inserted() {
    let env = TestEnv::new();
    let chain = TestChain::start();
    ok(
        &env,
        &chain,
        &["deposit", "--denom", "100", "--count", "2", "--yes"],
    );
    // Queued: in the pool, not yet in its tree.
    let pools = ok(&env, &chain, &["pools"]);
    let hundred = &pools["pools"][0];
    assert_eq!(
        (hundred["depositCount"].as_u64(), hundred["queued"].as_u64()),
        (Some(0), Some(2)),
        "{hundred}"
    );
    assert_eq!(
        hundred["poolBalanceRaw"], "200500000",
        "two deposits, two fees"
    );
    let checked = ok(&env, &chain, &["notes", "check"]);
    assert_eq!(checked[0]["state"], "deposited", "{checked}");
    assert_eq!(checked[0]["withdrawable"], false, "{checked}");
    let detail = checked[0]["detail"].as_str().unwrap_or_default();
    assert!(
        detail.contains("queued for insertion at position 0"),
        "{checked}"
    );
    let recipient = PrivateKey::generate().address().to_base58();
    for withdraw in [
        &["withdraw", "1", "--to", &recipient, "--yes"][..],
        &["relay", "withdraw", "1", "--to", &recipient, "--yes"][..],
    ] {
        let error = fails(&env, &chain, withdraw, 4);
        assert!(
            error.contains("queued for insertion at position 0")
                && error.contains("tronpool pool insert --denom 100"),
            "{error}"
        );
    }
    let synced = ok(&env, &chain, &["pool", "sync", "--denom", "100"]);
    assert_eq!(
        (synced[0]["leaves"].as_u64(), synced[0]["queued"].as_u64()),
        (Some(0), Some(2))
    );

    // One batch inserts both; its sender is credited both fees.
    let inserted = ok(&env, &chain, &["pool", "insert", "--denom", "100", "--yes"]);
    let batches = inserted.as_array().unwrap();
    assert_eq!(batches.len(), 1, "{inserted}");
    assert_eq!(
        (batches[0]["start"].as_u64(), batches[0]["count"].as_u64()),
        (Some(0), Some(2))
    );
    assert_eq!(batches[0]["queued"], 0);
    assert_eq!(batches[0]["feesRaw"], "500000");
    let pools = ok(&env, &chain, &["pools"]);
    assert_eq!(pools["pools"][0]["currentRoot"], batches[0]["root"]);
    assert_eq!(pools["pools"][0]["depositCount"], 2);
    // Nothing waits: nothing to send.
    let again = ok(&env, &chain, &["pool", "insert", "--denom", "100", "--yes"]);
    assert_eq!(again, serde_json::json!([]));
    ok(
        &env,
        &chain,
        &["withdraw", "1", "--to", &recipient, "--yes"],
    );
    assert_eq!(state_of(&env, &chain, 1), "withdrawn");

    // A withdrawal that inserts its own queued deposit first.
    ok(&env, &chain, &["deposit", "--denom", "100", "--yes"]);
    ok(
        &env,
        &chain,
        &["withdraw", "3", "--to", &recipient, "--insert", "--yes"],
    );
    assert_eq!(state_of(&env, &chain, 3), "withdrawn");
    assert_eq!(ok(&env, &chain, &["pools"])["pools"][0]["queued"], 0);
}

/// `pools` shows when the configured relayer's batcher sends each queued pool's next batch.
#[test]
fn pools_shows_when_the_configured_relayers_batcher_inserts() {
    let env = TestEnv::new();
    let chain = TestChain::start();
    ok(&env, &chain, &["deposit", "--denom", "100", "--yes"]);
    let config = tronpool::service::relayer::RelayerConfig {
        batch_max_wait: Some(Duration::from_secs(3600)),
        batch_poll: Duration::from_millis(200),
        ..Default::default()
    };
    let server = relayer_server_with(&chain, "2", config);
    std::fs::create_dir_all(env.home()).unwrap();
    std::fs::write(
        env.home().join("config.toml"),
        format!("[networks.devnet]\nrelayer = \"{}\"\n", server.url()),
    )
    .unwrap();
    let started = std::time::Instant::now();
    let listed = loop {
        let listed = ok(&env, &chain, &["pools"]);
        if !listed["pools"][0]["nextBatch"].is_null() {
            break listed;
        }
        assert!(started.elapsed() < Duration::from_secs(60), "{listed}");
        std::thread::sleep(Duration::from_millis(300));
    };
    let next = &listed["pools"][0]["nextBatch"];
    assert_eq!(
        (next["start"].as_u64(), next["count"].as_u64()),
        (Some(0), Some(1))
    );
    assert_eq!(
        next["dueAt"].as_i64().unwrap() - next["waitingSince"].as_i64().unwrap(),
        3_600_000,
        "{next}"
    );
    assert!(
        listed["pools"][1]["nextBatch"].is_null(),
        "nothing waits in the 500 pool"
    );
    let table = run(&env, &chain, &["pools"]).output().unwrap();
    let text = String::from_utf8_lossy(&table.stdout);
    assert!(
        text.contains("NEXT BATCH") && (text.contains("in 1h") || text.contains("in 59m")),
        "{text}"
    );
}
