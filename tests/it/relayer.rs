//! The relayer against a devnet, as an attacker and as a paying customer would use it: a
//! withdrawal relayed end to end, its fee covering what it burned; every refusal (a fee below
//! the quote, a refund the fee does not cover, a refund to a contract where the operator
//! refuses them, spent, unknown root, bad proof, another
//! relayer's proof) costs the relayer nothing; a recipient contract that spins or burns on its
//! refund gets only the pool's refund energy, and the relay still pays; the quote
//! follows the energy price and the pair; no price is 503; ten concurrent copies make one
//! broadcast; a busy node is retried, a duplicate answer is success, a slow broadcast still
//! gives the client its txid; and a server killed with SIGKILL mid-job finishes it after a
//! restart, which the jobs endpoint then reports.

use std::sync::Arc;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::Duration;

use alloy_primitives::U256;
use alloy_sol_types::SolCall;
use devnet::DevnetConfig;
use serde_json::{Value, json};
use tron::abi::Trc20;
use tron::{Address, NodeClient, NodeConfig, PrivateKey, TxId};
use tronpool::api::ApiConfig;
use tronpool::service::price::{DEFAULT_MAX_AGE, PriceFeed};
use tronpool::service::relayer::RelayerConfig;
use tronpool::service::relayer_fees::{FeePolicy, NORMAL_RELAY_ENERGY, Pricing, RELAY_BYTES};
use zk::note::Note;
use zk::tree::MerkleTree;

use crate::api::{Served, devnet_pricing, hex32, prove_withdrawal, random_word};

pub(crate) const DENOMINATION: u64 = 100_000_000;

/// Approves and deposits `count` fresh notes into the 100 pool from dev account `account`,
/// signing the API's transactions locally; returns the notes and the tree they make.
pub(crate) async fn deposit(
    served: &Served,
    account: usize,
    count: usize,
) -> (Vec<Note>, MerkleTree) {
    let key = served.devnet().accounts()[account].clone();
    deposit_through(&served.server.url(), &served.devnet().url(), &key, count).await
}

/// The same through any API and node.
pub(crate) async fn deposit_through(
    api: &str,
    node: &str,
    key: &PrivateKey,
    count: usize,
) -> (Vec<Note>, MerkleTree) {
    deposit_into(api, node, key, 100, count).await
}

/// Approves and deposits `count` notes into the pool of `denomination`, and inserts them.
async fn deposit_into(
    api: &str,
    node: &str,
    key: &PrivateKey,
    denomination: u64,
    count: usize,
) -> (Vec<Note>, MerkleTree) {
    deposit_with(api, node, key, (denomination, count), true).await
}

/// The same, leaving the deposits in the pool's queue unless `insert`.
async fn deposit_with(
    api: &str,
    node: &str,
    key: &PrivateKey,
    (denomination, count): (u64, usize),
    insert: bool,
) -> (Vec<Note>, MerkleTree) {
    let node = client(node);
    let (notes, tree) =
        test_support::relay::deposit_queued(api, &node, key, denomination, count).await;
    if !insert {
        return (notes, tree);
    }
    // Inserted by a batch, as the depositor may do: a withdrawal proves against the root.
    let url = node.url().to_string();
    tokio::task::spawn_blocking(move || crate::support::insert_queued(&url, denomination))
        .await
        .unwrap();
    (notes, tree)
}

pub(crate) fn client(url: &str) -> NodeClient {
    NodeClient::new(NodeConfig::new(url.parse().unwrap())).unwrap()
}

pub(crate) async fn send(node: &NodeClient, key: &PrivateKey, json: &Value) -> TxId {
    test_support::relay::send(node, key, json).await
}

/// A relay request for leaf `index`, proved for `relayer`, `fee` and `refund`.
pub(crate) fn request(
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

pub(crate) fn usdt(served: &Served, who: Address) -> U256 {
    let usdt = served.devnet().deployment().usdt;
    let data = Trc20::balanceOfCall { owner: who.into() }.abi_encode();
    let out = served
        .devnet()
        .with_chain(|c| c.call(who, Some(usdt), data, 0))
        .expect("balanceOf");
    Trc20::balanceOfCall::abi_decode_returns(&out.output).unwrap()
}

pub(crate) fn trx(served: &Served, who: Address) -> i64 {
    served.devnet().with_chain(|c| c.balance(&who))
}

/// The 100 pool's quote: its fee and what each TRX of refund adds, in base units.
pub(crate) async fn quote(served: &Served) -> (u64, u64) {
    let status = served.ok("/api/relayer/status", None).await;
    let fee = &status["fees"][0];
    assert_eq!(fee["denomination"], 100, "{status}");
    let raw = |key: &str| fee[key].as_str().unwrap().parse::<u64>().unwrap();
    (raw("relayerFeeRaw"), raw("refundPriceRaw"))
}

/// Waits for the watcher to settle a job; answers it as the jobs endpoint shows it (polled
/// ten times a second, within the general limit of 120 a minute for a few seconds' wait).
pub(crate) async fn settled(served: &Served, txid: &str) -> Value {
    for _ in 0..100 {
        let job = served.ok(&format!("/api/relayer/jobs/{txid}"), None).await;
        if job["state"] == "confirmed" || job["state"] == "failed" {
            return job;
        }
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
    panic!("job {txid} never settled");
}

/// Calls a devnet control.
async fn control(served: &Served, action: &str, body: Value) -> Value {
    let response = reqwest::Client::new()
        .post(format!("{}/devnet/{action}", served.devnet().url()))
        .json(&body)
        .send()
        .await
        .unwrap();
    assert!(response.status().is_success(), "{action}: {body}");
    response.json().await.unwrap()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn relays_with_fee_and_refund_at_a_profit_and_refusals_cost_nothing() {
    // More than the 5 a minute a client gets: this test is one client asking many things.
    let config = ApiConfig {
        relayer_rate_limit: 100,
        rate_limit: 10_000,
        ..ApiConfig::default()
    };
    let served = Served::unsponsored_relayer(config, RelayerConfig::default()).await;
    let relayer = devnet::genesis::dev_key(1).address();
    let pair = served.devnet().deployment().price_pair.expect("a pair");
    let (notes, tree) = deposit(&served, 2, 2).await;

    let status = served.ok("/api/relayer/status", None).await;
    assert_eq!(status["enabled"], true);
    assert_eq!(status["address"], relayer.to_base58());
    assert_eq!(status["network"], "devnet");
    assert_eq!(status["balanceTrx"], 1_000_000.0);
    assert_eq!(status["pending"], 0);
    assert_eq!(
        status["fees"][0],
        json!({
            "denomination": 100, "relayerFee": 14.7168, "relayerFeeRaw": "14716800",
            "expectedEnergy": NORMAL_RELAY_ENERGY, "maxEnergy": 473_000, "energyPrice": 100,
            "stakedEnergy": 0, "sponsorEnergy": 0, "bandwidthSun": 800_000, "trxPrice": 0.28,
            "trxPriceSource": format!("pair:{pair}"),
            "trxPriceAgeSeconds": 0, "trxPriceBasis": "spot", "trxSpotPrice": 0.28,
            "refundPrice": 0.336, "refundPriceRaw": "336000", "marginPercent": 20,
        })
    );
    assert_eq!(status["fees"].as_array().unwrap().len(), 6);
    let (fee, per_trx) = quote(&served).await;
    // 2 TRX of refund: 2 × 0.336 USDT more.
    let refund = 2_000_000;
    let fee_with_refund = fee + 2 * per_trx;

    // Refusals first: none may cost the relayer a sun.
    let recipient = PrivateKey::generate().address();
    let relayer_trx = trx(&served, relayer);
    let good = request(
        &notes[0],
        &tree,
        0,
        recipient,
        relayer,
        fee_with_refund,
        refund,
    );
    let mut unknown_root = good.clone();
    unknown_root["root"] = json!(random_word());
    let error = served
        .fails("/api/relayer/withdraw", Some(unknown_root), 422)
        .await;
    assert!(error.contains("last 100 roots"), "{error}");
    let mut other_recipient = good.clone();
    other_recipient["recipient"] = json!(PrivateKey::generate().address().to_base58());
    let (status, answer) = served.post("/api/relayer/withdraw", other_recipient).await;
    assert_eq!(status, 422);
    assert!(
        answer["error"]
            .as_str()
            .unwrap()
            .contains("does not verify")
    );
    // 422 twice over, told apart by the kind: a proof that does not verify is a bad note.
    assert_eq!(answer["kind"], "bad_note", "{answer}");
    let mut unknown_root = good.clone();
    unknown_root["root"] = json!(random_word());
    let (_, answer) = served.post("/api/relayer/withdraw", unknown_root).await;
    assert_eq!(answer["kind"], "refused", "{answer}");
    let stranger = PrivateKey::generate().address();
    let for_another = request(&notes[0], &tree, 0, recipient, stranger, fee, 0);
    let error = served
        .fails("/api/relayer/withdraw", Some(for_another), 422)
        .await;
    assert!(
        error.contains("does not verify"),
        "another relayer's proof: {error}"
    );
    let cheap = request(&notes[0], &tree, 0, recipient, relayer, fee / 2, 0);
    let error = served
        .fails("/api/relayer/withdraw", Some(cheap), 422)
        .await;
    assert!(error.contains("below this relayer's fee"), "{error}");
    // The fee without the refund's price: refused, naming the fee it needs.
    let uncovered = request(&notes[0], &tree, 0, recipient, relayer, fee, refund);
    let error = served
        .fails("/api/relayer/withdraw", Some(uncovered), 422)
        .await;
    assert!(
        error.contains(&format!("prove again with fee {fee_with_refund}")),
        "{error}"
    );
    let greedy_refund = request(&notes[0], &tree, 0, recipient, relayer, fee, 10_000_001);
    let error = served
        .fails("/api/relayer/withdraw", Some(greedy_refund), 422)
        .await;
    assert!(error.contains("more than this relayer forwards"), "{error}");
    assert_eq!(trx(&served, relayer), relayer_trx, "refusals are free");

    // The real thing: 100 USDT less the fee and 2 TRX to a fresh address.
    let relayer_usdt = usdt(&served, relayer);
    let data = served.ok("/api/relayer/withdraw", Some(good.clone())).await;
    assert_eq!(data["state"], "broadcast", "{data}");
    let txid = data["txid"].as_str().expect("a txid").to_owned();
    let job = settled(&served, &txid).await;
    assert_eq!(job["state"], "confirmed", "{job}");
    assert_eq!(job["refund"], "2000000");
    assert_eq!(job["fee"], fee_with_refund.to_string());
    assert_eq!(
        usdt(&served, recipient),
        U256::from(DENOMINATION - fee_with_refund)
    );
    // The fee waits in the pool for the relayer to collect it.
    assert_eq!(usdt(&served, relayer), relayer_usdt);
    assert_eq!(
        collectable(&served, relayer),
        U256::from(fee_with_refund - 1)
    );
    assert_eq!(trx(&served, recipient), refund as i64, "the refund arrived");

    // What it cost, against what it earned: the relayer never relays at a loss.
    let energy = job["energyUsed"].as_i64().unwrap();
    let burned = job["feeSun"].as_i64().unwrap();
    let spent = relayer_trx - trx(&served, relayer);
    assert_eq!(
        spent,
        burned + refund as i64,
        "the burn and the refund, nothing else"
    );
    assert!(
        energy <= NORMAL_RELAY_ENERGY,
        "a normal relay ({energy} energy) must fit the quoted energy"
    );
    let cost_usdt = spent as f64 * 0.28;
    let margin = fee_with_refund as f64 - cost_usdt;
    assert!(margin > 0.0, "fee {fee_with_refund} < cost {cost_usdt}");
    println!(
        "relayed withdraw (fresh recipient, 2 TRX refund, the relayer's first fee in the pool): \
         {energy} energy, {} TRX burned + 2 TRX refund; fee {} USDT; margin {:.6} USDT at \
         0.28 USDT/TRX",
        burned as f64 / 1e6,
        fee_with_refund as f64 / 1e6,
        margin / 1e6
    );
    // Its fee limit is the ceiling's price, not a multiple of the simulation.
    let sent = client(&served.devnet().url())
        .get_transaction_by_id(&txid.parse().unwrap())
        .await
        .unwrap()
        .expect("in a block");
    assert_eq!(sent.transaction.fee_limit(), 473_000 * 100);
    // Its bandwidth is what the quote counts on.
    let info = client(&served.devnet().url())
        .get_transaction_info(&txid.parse().unwrap())
        .await
        .unwrap()
        .unwrap();
    let bytes = info.receipt.net_usage.max(info.receipt.net_fee / 1_000);
    assert!(bytes > 0 && bytes <= RELAY_BYTES, "{bytes} bytes");

    let status = served.ok("/api/relayer/status", None).await;
    assert_eq!(status["pending"], 0);
    let nullifier = good["nullifierHash"].as_str().unwrap();
    let by_note = served
        .ok(&format!("/api/relayer/jobs/nullifier/{nullifier}"), None)
        .await;
    assert_eq!(by_note["txid"], txid.as_str());
    served
        .fails(&format!("/api/relayer/jobs/{}", "ab".repeat(32)), None, 404)
        .await;
    served
        .fails("/api/relayer/jobs/not-a-txid", None, 400)
        .await;

    // Again: we relayed it (409), and after that it is spent on chain (409 too).
    let error = served.fails("/api/relayer/withdraw", Some(good), 409).await;
    assert!(error.contains(&txid), "names our transaction: {error}");
    let spent_elsewhere = request(&notes[0], &tree, 0, recipient, relayer, fee, 0);
    let error = served
        .fails("/api/relayer/withdraw", Some(spent_elsewhere), 409)
        .await;
    assert!(error.contains("already"), "{error}");

    // The second note, no refund, to a recipient that holds USDT already.
    let relayer_trx = trx(&served, relayer);
    let plain = request(&notes[1], &tree, 1, recipient, relayer, fee, 0);
    let data = served.ok("/api/relayer/withdraw", Some(plain)).await;
    let job = settled(&served, data["txid"].as_str().unwrap()).await;
    let spent = relayer_trx - trx(&served, relayer);
    println!(
        "relayed withdraw (recipient holds USDT, no refund): {} energy, {} TRX burned; fee {} \
         USDT; margin {:.6} USDT at 0.28 USDT/TRX",
        job["energyUsed"],
        spent as f64 / 1e6,
        fee as f64 / 1e6,
        (fee as f64 - spent as f64 * 0.28) / 1e6
    );
    assert!((fee as f64) > spent as f64 * 0.28);
}

/// A server keeps its sync of a pool for its cache period, but not past a withdrawal its own
/// relayer made: a client told "confirmed" and asking at once for the pool's withdrawals
/// finds its own. The second page asked for ends within what the server had cached, so only
/// the relay can make it sync (without that rule it answers one withdrawal for ten minutes).
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_withdrawal_our_relayer_made_is_in_our_list_at_once_whatever_the_cache_period() {
    let config = ApiConfig {
        relayer_rate_limit: 100,
        rate_limit: 10_000,
        ..ApiConfig::default()
    };
    let period = Duration::from_secs(600);
    let served = Served::with_caching_relayer(config, RelayerConfig::default(), period).await;
    let relayer = devnet::genesis::dev_key(1).address();
    let (notes, tree) = deposit(&served, 2, 2).await;
    let mut txids = Vec::new();
    for (index, note) in notes.iter().enumerate() {
        // Quoted before each relay, as a client does: the first relay spends energy the
        // relayer had, and a fee quoted before it may no longer pay for the second.
        let (fee, _) = quote(&served).await;
        let recipient = PrivateKey::generate().address();
        let index = u32::try_from(index).unwrap();
        let relay = request(note, &tree, index, recipient, relayer, fee, 0);
        let data = served.ok("/api/relayer/withdraw", Some(relay)).await;
        let txid = data["txid"].as_str().unwrap().to_owned();
        assert_eq!(settled(&served, &txid).await["state"], "confirmed");
        txids.push(txid);
        // A page of one from the start: past the end of an empty list, within it after.
        let page = served
            .ok("/api/pools/100/withdrawals?from=0&limit=1", None)
            .await;
        assert_eq!(page["total"], txids.len(), "{page}");
        assert_eq!(page["withdrawals"][0]["txid"], txids[0].as_str(), "{page}");
    }
    // The leaves were synced along: both deposits, within the period.
    let leaves = served
        .ok("/api/pools/100/leaves?from=0&limit=1", None)
        .await;
    assert_eq!(leaves["total"], 2, "{leaves}");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn every_pool_relays_at_a_profit() {
    let config = ApiConfig {
        relayer_rate_limit: 100,
        rate_limit: 10_000,
        ..ApiConfig::default()
    };
    let served = Served::unsponsored_relayer(config, RelayerConfig::default()).await;
    let relayer = devnet::genesis::dev_key(1).address();
    let key = served.devnet().accounts()[3].clone();
    let status = served.ok("/api/relayer/status", None).await;
    println!(
        "| pool | relay energy | TRX burned | fee (USDT) | cost at 0.28 (USDT) | margin (USDT) |"
    );
    for quote in status["fees"].as_array().unwrap() {
        let denomination = quote["denomination"].as_u64().unwrap();
        let fee: u64 = quote["relayerFeeRaw"].as_str().unwrap().parse().unwrap();
        let (notes, tree) = deposit_into(
            &served.server.url(),
            &served.devnet().url(),
            &key,
            denomination,
            1,
        )
        .await;
        let recipient = PrivateKey::generate().address();
        let mut body = request(&notes[0], &tree, 0, recipient, relayer, fee, 0);
        body["denomination"] = json!(denomination.to_string());
        let before = trx(&served, relayer);
        let data = served.ok("/api/relayer/withdraw", Some(body)).await;
        let job = settled(&served, data["txid"].as_str().unwrap()).await;
        assert_eq!(job["state"], "confirmed", "{job}");
        let spent = before - trx(&served, relayer);
        let energy = job["energyUsed"].as_i64().unwrap();
        let cost = spent as f64 * 0.28 / 1e6;
        let margin = fee as f64 / 1e6 - cost;
        println!(
            "| {denomination} | {energy} | {} | {} | {cost:.4} | {margin:.4} |",
            spent as f64 / 1e6,
            fee as f64 / 1e6
        );
        assert!(energy <= NORMAL_RELAY_ENERGY, "{denomination}: {energy}");
        assert!(margin > 0.0, "{denomination}: fee {fee}, spent {spent} sun");
        assert_eq!(
            usdt(&served, recipient),
            U256::from(denomination * 1_000_000 - fee)
        );
    }
}

/// Runtime code that writes 120 fresh storage slots whenever it is called (`burns_in_
/// simulation`), or only when it has less than 10,000,000 energy left, as in a real
/// transaction and never in a node's simulation (which runs with the largest limit).
fn burner(burns_in_simulation: bool) -> Vec<u8> {
    // slot counter c = sload(0); for i in c+1 ..= c+120: sstore(i, 1); sstore(0, c+120)
    let burn = |start: u8| {
        let mut code = vec![
            0x5b, // JUMPDEST (start)
            0x60, 0x00, 0x54, // PUSH1 0 SLOAD: [c]
            0x80, 0x60, 0x78, 0x01, // DUP1 PUSH1 120 ADD: [c, e]
            0x90, // SWAP1: [e, i]
            0x5b, // JUMPDEST (loop = start + 9)
            0x60, 0x01, 0x01, // PUSH1 1 ADD: [e, i+1]
            0x60, 0x01, 0x81, 0x55, // sstore(i+1, 1)
            0x81, 0x81, 0x10, // DUP2 DUP2 LT: [e, i, i<e]
            0x60, 0x00, 0x57, // PUSH1 loop JUMPI
            0x60, 0x00, 0x55, // sstore(0, i)
            0x00, // STOP
        ];
        code[21] = start + 9;
        code
    };
    if burns_in_simulation {
        return burn(0);
    }
    // if gas() < 10,000,000 { burn } else { stop }
    let mut code = vec![
        0x63, 0x00, 0x98, 0x96, 0x80, // PUSH4 10,000,000
        0x5a, 0x10, // GAS LT: [gas < 10M]
        0x60, 0x0b, 0x57, // PUSH1 11 JUMPI
        0x00, // STOP
    ];
    code.extend(burn(11));
    code
}

/// Deploys `runtime` from dev account 0 through the node's `deploycontract`.
async fn deploy_runtime(served: &Served, runtime: &[u8]) -> Address {
    // CODECOPY the runtime that follows this 11-byte prefix, and RETURN it.
    let len = u8::try_from(runtime.len()).unwrap();
    let mut init = vec![
        0x60, len, 0x80, 0x60, 0x0b, 0x60, 0x00, 0x39, 0x60, 0x00, 0xf3,
    ];
    init.extend_from_slice(runtime);
    deploy_code(served, &init).await
}

/// Deploys the creation code `init` from dev account 0 through the node's `deploycontract`.
async fn deploy_code(served: &Served, init: &[u8]) -> Address {
    let owner = served.devnet().accounts()[0].clone();
    let url = served.devnet().url();
    let built: Value = reqwest::Client::new()
        .post(format!("{url}/wallet/deploycontract"))
        .json(&json!({
            "owner_address": owner.address().to_base58(),
            "abi": "[]",
            "bytecode": hex::encode(init),
            "name": "Burner",
            "fee_limit": 1_000_000_000,
            "origin_energy_limit": 10_000_000,
            "consume_user_resource_percent": 100,
            "visible": true,
        }))
        .send()
        .await
        .unwrap()
        .json()
        .await
        .unwrap();
    let node = client(&url);
    let txid = send(&node, &owner, &built).await;
    node.get_transaction_info(&txid)
        .await
        .unwrap()
        .unwrap()
        .contract_address
        .expect("deployed")
}

/// A SunSwap V2 pair is trusted for the TRX price only when its tokens are the network's WTRX
/// and USDT: any contract can answer `getReserves`, and a pair of USDT and a token an attacker
/// minted prices "TRX" at whatever they like.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_pair_of_other_tokens_does_not_price_trx() {
    use tronpool::service::price::{PriceBasis, PriceSource};
    let served = Served::start(ApiConfig::default(), Duration::ZERO).await;
    let url = served.devnet().url();
    let usdt = served.devnet().deployment().usdt;
    let fake_wtrx = PrivateKey::generate().address();
    let args = contracts::DevSunswapPair::constructorCall {
        token0_: fake_wtrx.into(),
        token1_: usdt.into(),
        reserve0_: alloy_primitives::aliases::U112::from(1_000_000u64),
        reserve1_: alloy_primitives::aliases::U112::from(900_000_000u64),
    };
    let code = contracts::creation_code(
        &contracts::DevSunswapPair::BYTECODE,
        &alloy_sol_types::SolConstructor::abi_encode(&args),
    );
    let fake = deploy_code(&served, &code).await;
    let chain = tronpool::service::open::chain_named("devnet", client(&url), Duration::ZERO)
        .await
        .unwrap();
    let error = PriceFeed::new(Some(PriceSource::Pair(fake)), DEFAULT_MAX_AGE)
        .current(&chain)
        .await
        .unwrap_err();
    assert_eq!(error.exit_code(), 4, "{error}");
    assert!(
        error.to_string().contains("are not this network's WTRX"),
        "{error}"
    );
    // The genesis pair is WTRX (its stand-in) and USDT.
    let genesis = served.devnet().deployment().price_pair.unwrap();
    let quote = PriceFeed::new(Some(PriceSource::Pair(genesis)), DEFAULT_MAX_AGE)
        .current(&chain)
        .await
        .unwrap();
    assert_eq!(
        (quote.basis, quote.price.usdt_per_trx()),
        (PriceBasis::Spot, 0.28)
    );
}

/// Runtime code that spins until its energy is gone, whenever it is called: `JUMPDEST PUSH1 0
/// JUMP`.
const SPINNER: &[u8] = &[0x5b, 0x60, 0x00, 0x56];

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_recipient_contract_that_spins_on_its_refund_cannot_make_a_relay_fail_or_lose() {
    let config = ApiConfig {
        relayer_rate_limit: 100,
        rate_limit: 10_000,
        ..ApiConfig::default()
    };
    // Refunds to contracts are allowed by default: the pool caps the energy a refund hands
    // the recipient (`TronPool.REFUND_ENERGY`).
    let served = Served::unsponsored_relayer(config.clone(), RelayerConfig::default()).await;
    let relayer = devnet::genesis::dev_key(1).address();
    let (notes, tree) = deposit(&served, 2, 4).await;
    let (fee, per_trx) = quote(&served).await;
    let one_sun_fee = fee + per_trx.div_ceil(1_000_000);
    let status = served.ok("/api/relayer/status", None).await;
    let usdt_per_trx = status["fees"][0]["trxPrice"].as_f64().unwrap();
    // A first relay fills the relayer's empty credit slot in the pool (15,000 more than any
    // later one), so the recipients below are compared on equal terms.
    let first = PrivateKey::generate().address();
    let body = request(&notes[0], &tree, 0, first, relayer, one_sun_fee, 1);
    let data = served.ok("/api/relayer/withdraw", Some(body)).await;
    let job = settled(&served, data["txid"].as_str().unwrap()).await;
    assert_eq!(job["state"], "confirmed", "{job}");
    let fresh_energy = job["energyUsed"].as_i64().unwrap();

    // A `receive` that loops forever; one that writes 120 fresh slots; one that does so
    // only with less than 10,000,000 energy left (never in a node's simulation, always on
    // chain). Each gets 20,000 + 2,300 energy with its 1 sun, runs out, and the sun goes
    // back to the relayer; the withdrawal and the fee stand.
    let spinner = deploy_runtime(&served, SPINNER).await;
    let slots = deploy_runtime(&served, &burner(true)).await;
    let sneaky = deploy_runtime(&served, &burner(false)).await;
    for (i, (name, recipient)) in [("spinner", spinner), ("burner", slots), ("sneaky", sneaky)]
        .into_iter()
        .enumerate()
    {
        let index = i as u32 + 1;
        let before = trx(&served, relayer);
        let body = request(
            &notes[index as usize],
            &tree,
            index,
            recipient,
            relayer,
            one_sun_fee,
            1,
        );
        let data = served.ok("/api/relayer/withdraw", Some(body)).await;
        let job = settled(&served, data["txid"].as_str().unwrap()).await;
        assert_eq!(job["state"], "confirmed", "{name}: {job}");
        assert_eq!(
            usdt(&served, recipient),
            U256::from(DENOMINATION - one_sun_fee),
            "{name}"
        );
        assert_eq!(trx(&served, recipient), 0, "{name}: the refund came back");
        let lost = before - trx(&served, relayer);
        let burned = job["feeSun"].as_i64().unwrap();
        assert_eq!(lost, burned, "{name}: only the energy and bandwidth burned");
        let energy = job["energyUsed"].as_i64().unwrap();
        // The margin at the quoted price: the fee credited against the TRX burned.
        let margin = one_sun_fee as f64 / 1e6 - lost as f64 / 1e6 * usdt_per_trx;
        println!(
            "| {name} | {energy} | {:+} | {:.6} | {:.6} | {margin:.6} |",
            energy - fresh_energy,
            lost as f64 / 1e6,
            one_sun_fee as f64 / 1e6,
        );
        assert!(
            margin >= 0.0,
            "{name}: fee {one_sun_fee}, burned {lost} sun"
        );
        assert!(energy <= NORMAL_RELAY_ENERGY, "{name}: {energy}");
    }

    // An operator who refuses refunds to contracts anyway: refused before anything is
    // simulated.
    let careful = RelayerConfig {
        allow_contract_refund: false,
        ..RelayerConfig::default()
    };
    let careful = Served::unsponsored_relayer(config, careful).await;
    let (notes, tree) = deposit(&careful, 2, 1).await;
    let relayer_trx = trx(&careful, relayer);
    let (fee, per_trx) = quote(&careful).await;
    let spinner = deploy_runtime(&careful, SPINNER).await;
    let attack = request(
        &notes[0],
        &tree,
        0,
        spinner,
        relayer,
        fee + per_trx.div_ceil(1_000_000),
        1,
    );
    let error = careful
        .fails("/api/relayer/withdraw", Some(attack), 422)
        .await;
    assert!(error.contains("is a contract"), "{error}");
    assert_eq!(trx(&careful, relayer), relayer_trx);
    // Without a refund the pool calls nothing on the recipient: relayed as usual.
    let plain = request(&notes[0], &tree, 0, spinner, relayer, fee, 0);
    let data = careful.ok("/api/relayer/withdraw", Some(plain)).await;
    let job = settled(&careful, data["txid"].as_str().unwrap()).await;
    assert_eq!(job["state"], "confirmed", "{job}");
    assert_eq!(usdt(&careful, spinner), U256::from(DENOMINATION - fee));
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_quote_follows_the_energy_price_and_the_pair() {
    let config = ApiConfig {
        relayer_rate_limit: 100,
        ..ApiConfig::default()
    };
    let served = Served::unsponsored_relayer(config, RelayerConfig::default()).await;
    assert_eq!(quote(&served).await, (14_716_800, 336_000));
    // 210 sun per energy: 90.3 TRX of energy and 0.8 of bandwidth at 0.28 USDT, +20%.
    control(&served, "set_energy_fee", json!({ "energyFee": 210 })).await;
    assert_eq!(quote(&served).await.0, 30_609_600);
    let pool = served.ok("/api/pools/100", None).await;
    assert_eq!(pool["relayerFeeRaw"], "30609600", "the pools quote it too");
    // TRX at 0.56 USDT: a dearer TRX is priced at once, twice the fee and the refund's price.
    control(
        &served,
        "set_price_reserves",
        json!({ "trx": 20_000_000_000_000u64, "usdt": 11_200_000_000_000u64 }),
    )
    .await;
    assert_eq!(quote(&served).await, (61_219_200, 672_000));
    let status = served.ok("/api/relayer/status", None).await;
    assert_eq!(status["fees"][0]["trxPriceBasis"], "spot", "{status}");

    // Ten minutes later TRX falls to 0.14 (or a swap pushes it there in the block before a
    // relay): the fee follows the pair's average over the window, which one block barely
    // moves, not its spot price.
    control(&served, "increase_time", json!({ "seconds": 600 })).await;
    control(
        &served,
        "set_price_reserves",
        json!({ "trx": 80_000_000_000_000u64, "usdt": 11_200_000_000_000u64 }),
    )
    .await;
    let (fee, _) = quote(&served).await;
    let status = served.ok("/api/relayer/status", None).await;
    let basis = status["fees"][0]["trxPriceBasis"].as_str().unwrap();
    assert!(basis.starts_with("average over "), "{status}");
    assert_eq!(status["fees"][0]["trxSpotPrice"], 0.14);
    // At least the average of 0.56 for ≥ 600 s and 0.28 for the seconds before: above the
    // 0.28 fee, far above 0.14's.
    assert!(fee > 30_609_600, "{fee}");

    // Once the low price has held for a whole window, the average is the spot price again:
    // half the 0.28 fee.
    control(&served, "increase_time", json!({ "seconds": 1_900 })).await;
    control(&served, "mine", json!({ "blocks": 1 })).await;
    assert_eq!(quote(&served).await, (15_304_800, 168_000));
    let status = served.ok("/api/relayer/status", None).await;
    assert_eq!(status["fees"][0]["energyPrice"], 210);
    assert_eq!(status["fees"][0]["trxPrice"], 0.14);
    assert_eq!(status["fees"][0]["trxPriceBasis"], "spot", "{status}");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn without_a_usable_price_the_relayer_refuses_work() {
    let config = ApiConfig {
        relayer_rate_limit: 100,
        rate_limit: 10_000,
        ..ApiConfig::default()
    };
    let devnet = devnet::spawn(DevnetConfig::ephemeral()).await.unwrap();
    let node = devnet.url();
    let none = Pricing::new(FeePolicy::default(), PriceFeed::new(None, DEFAULT_MAX_AGE));
    let served = Served::around(
        devnet,
        &node,
        config.clone(),
        Duration::ZERO,
        Some(RelayerConfig::default()),
        none,
    )
    .await;
    let relayer = devnet::genesis::dev_key(1).address();
    let (notes, tree) = deposit(&served, 2, 1).await;
    let recipient = PrivateKey::generate().address();
    let body = request(&notes[0], &tree, 0, recipient, relayer, 16_732_800, 0);
    let relayer_trx = trx(&served, relayer);
    let status = served.ok("/api/relayer/status", None).await;
    assert_eq!(status["fees"], json!([]));
    assert!(
        status["priceError"]
            .as_str()
            .unwrap()
            .contains("no TRX/USDT price source"),
        "{status}"
    );
    let error = served
        .fails("/api/relayer/withdraw", Some(body.clone()), 503)
        .await;
    assert!(error.contains("price"), "{error}");
    // The pools still answer, without a fee.
    let pool = served.ok("/api/pools/100", None).await;
    assert_eq!(pool["relayerFee"], Value::Null);

    // A pair nobody has traded for two hours is a stale price.
    let stale = Served::with_relayer(config, RelayerConfig::default()).await;
    let (notes, tree) = deposit(&stale, 2, 1).await;
    control(
        &stale,
        "set_price_reserves",
        json!({ "trx": 40_000_000_000_000u64, "usdt": 11_200_000_000_000u64,
                "quietSeconds": 7_200 }),
    )
    .await;
    let body = request(&notes[0], &tree, 0, recipient, relayer, 16_732_800, 0);
    let error = stale.fails("/api/relayer/withdraw", Some(body), 503).await;
    assert!(error.contains("stale"), "{error}");
    assert_eq!(trx(&stale, relayer), relayer_trx);
    assert_eq!(trx(&served, relayer), relayer_trx);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn ten_concurrent_copies_make_one_broadcast() {
    let config = ApiConfig {
        relayer_rate_limit: 100,
        rate_limit: 10_000,
        ..ApiConfig::default()
    };
    let served = Served::with_relayer(config, RelayerConfig::default()).await;
    let relayer = devnet::genesis::dev_key(1).address();
    let (notes, tree) = deposit(&served, 3, 1).await;
    let (fee, _) = quote(&served).await;
    let recipient = PrivateKey::generate().address();
    let body = request(&notes[0], &tree, 0, recipient, relayer, fee, 0);
    let relayer_usdt = usdt(&served, relayer);
    let relayer_trx = trx(&served, relayer);

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
    let job = settled(&served, &txid.unwrap()).await;
    assert_eq!(job["state"], "confirmed");
    // One transaction reached the chain: the relayer paid for one, and one fee was credited
    // (whether the devnet seals on broadcast or every interval).
    assert_eq!(
        relayer_trx - trx(&served, relayer),
        job["feeSun"].as_i64().unwrap(),
        "{job}"
    );
    assert_eq!(usdt(&served, relayer), relayer_usdt);
    assert_eq!(collectable(&served, relayer), U256::from(fee - 1));
    assert_eq!(usdt(&served, recipient), U256::from(DENOMINATION - fee));
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_relayer_that_cannot_pay_or_is_off_answers_503() {
    let served = Served::with_relayer(ApiConfig::default(), RelayerConfig::default()).await;
    let relayer = devnet::genesis::dev_key(1).address();
    let (notes, tree) = deposit(&served, 2, 1).await;
    let (fee, _) = quote(&served).await;
    let recipient = PrivateKey::generate().address();
    let body = request(&notes[0], &tree, 0, recipient, relayer, fee, 0);
    // Enough for the relay's energy, not for its fee limit: refused.
    served
        .devnet()
        .with_chain(|c| c.set_balance(relayer, 35_000_000));
    let error = served
        .fails("/api/relayer/withdraw", Some(body.clone()), 503)
        .await;
    assert!(error.contains("cannot pay"), "{error}");
    assert_eq!(trx(&served, relayer), 35_000_000, "nothing was spent");

    let off = Served::start(ApiConfig::default(), Duration::ZERO).await;
    let status = off.ok("/api/relayer/status", None).await;
    assert_eq!(status["enabled"], false);
    assert_eq!(status["address"], Value::Null);
    assert_eq!(status["fees"].as_array().unwrap().len(), 6);
    let error = off.fails("/api/relayer/withdraw", Some(body), 503).await;
    assert!(error.contains("does not relay"), "{error}");
    off.fails(&format!("/api/relayer/jobs/{}", "ab".repeat(32)), None, 503)
        .await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_relayer_whose_node_is_down_answers_503_and_sends_nothing() {
    let served = Served::with_relayer(ApiConfig::default(), RelayerConfig::default()).await;
    let relayer = devnet::genesis::dev_key(1).address();
    let (notes, tree) = deposit(&served, 2, 1).await;
    let (fee, _) = quote(&served).await;
    let recipient = PrivateKey::generate().address();
    let body = request(&notes[0], &tree, 0, recipient, relayer, fee, 0);
    // The same deployment, reached through a node that is not there.
    let mut node = NodeConfig::new("http://127.0.0.1:9".parse().unwrap());
    node.retries = 0;
    let chain = tronpool::service::chain::Chain::new(
        "devnet".into(),
        NodeClient::new(node).unwrap(),
        served.devnet().deployment().clone(),
        Duration::ZERO,
    )
    .assume_devnet();
    let app = tronpool::api::App::new(chain, devnet_pricing(served.devnet()), ApiConfig::default())
        .with_relayer(tronpool::service::relayer::Relayer::new(
            devnet::genesis::dev_key(1),
            RelayerConfig::default(),
            crate::api::test_jobs(),
        ));
    let down = tronpool::api::spawn("127.0.0.1:0".parse().unwrap(), Arc::new(app))
        .await
        .unwrap();
    let relayer_trx = trx(&served, relayer);
    let response = reqwest::Client::new()
        .post(format!("{}/api/relayer/withdraw", down.url()))
        .json(&body)
        .send()
        .await
        .unwrap();
    let (status, value) = crate::api::envelope(response).await;
    assert_eq!(status, 503, "{value}");
    assert!(
        value["error"]
            .as_str()
            .unwrap()
            .contains("cannot reach its node"),
        "{value}"
    );
    assert_eq!(trx(&served, relayer), relayer_trx);
}

/// How a proxy in front of the devnet treats broadcasts.
#[derive(Clone, Copy)]
pub(crate) enum Broadcasts {
    /// Held this long before they are passed on.
    Slow(Duration),
    /// The first `n` are answered `SERVER_BUSY` without being passed on.
    Busy(usize),
    /// Passed on, and then answered `DUP_TRANSACTION_ERROR`, as a node does when an earlier
    /// copy reached it first.
    Duplicate,
}

/// A node at a new address that forwards everything to `upstream`, treating broadcasts as
/// `mode` says; counts the broadcasts it sees.
pub(crate) async fn proxy(upstream: String, mode: Broadcasts, seen: Arc<AtomicUsize>) -> String {
    use axum::body::Bytes;
    use axum::http::{Method, Uri};

    let handler = move |method: Method, uri: Uri, body: Bytes| {
        let (upstream, seen) = (upstream.clone(), seen.clone());
        async move {
            let is_broadcast = uri.path().contains("broadcast");
            let count = if is_broadcast {
                seen.fetch_add(1, Ordering::SeqCst) + 1
            } else {
                0
            };
            if is_broadcast {
                match mode {
                    Broadcasts::Slow(delay) => tokio::time::sleep(delay).await,
                    Broadcasts::Busy(n) if count <= n => {
                        return axum::Json(json!({
                            "result": false, "code": "SERVER_BUSY",
                            "message": hex::encode("Server busy"),
                        }))
                        .into_response();
                    }
                    _ => {}
                }
            }
            let (status, text) = crate::support::forward(&upstream, method, &uri, &body).await;
            if is_broadcast && matches!(mode, Broadcasts::Duplicate) {
                return axum::Json(json!({
                    "result": false, "code": "DUP_TRANSACTION_ERROR",
                    "message": hex::encode("Dup transaction."),
                }))
                .into_response();
            }
            (status, [("content-type", "application/json")], text).into_response()
        }
    };
    use axum::response::IntoResponse;
    let app = axum::Router::new().fallback(handler);
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let addr = listener.local_addr().unwrap();
    tokio::spawn(async move { axum::serve(listener, app).await.unwrap() });
    format!("http://{addr}")
}

/// A relayer whose node is behind a proxy treating broadcasts as `mode` says.
async fn behind_proxy(mode: Broadcasts, config: ApiConfig) -> (Served, Arc<AtomicUsize>) {
    let devnet = devnet::spawn(DevnetConfig::ephemeral()).await.unwrap();
    let seen = Arc::new(AtomicUsize::new(0));
    let node = proxy(devnet.url(), mode, seen.clone()).await;
    let pricing = devnet_pricing(&devnet);
    let relayer = RelayerConfig {
        poll: Duration::from_millis(100),
        ..RelayerConfig::default()
    };
    let served = Served::around(
        devnet,
        &node,
        config,
        Duration::ZERO,
        Some(relayer),
        pricing,
    )
    .await;
    (served, seen)
}

/// Deposits one note and asks the relayer to relay it; answers the HTTP status and data.
async fn relay_one(served: &Served) -> (u16, Value, Address) {
    let relayer = devnet::genesis::dev_key(1).address();
    let (notes, tree) = deposit(served, 2, 1).await;
    let (fee, _) = quote(served).await;
    let recipient = PrivateKey::generate().address();
    let body = request(&notes[0], &tree, 0, recipient, relayer, fee, 0);
    let (status, value) = served.post("/api/relayer/withdraw", body).await;
    (status.as_u16(), value, recipient)
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_request_that_runs_out_of_time_still_gets_its_txid() {
    let config = ApiConfig {
        request_timeout: Duration::from_secs(3),
        rate_limit: 10_000,
        ..ApiConfig::default()
    };
    let (served, _) = behind_proxy(Broadcasts::Slow(Duration::from_secs(4)), config).await;
    let (status, value, recipient) = relay_one(&served).await;
    assert_eq!(status, 202, "{value}");
    assert_eq!(value["data"]["state"], "signed");
    let txid = value["data"]["txid"].as_str().expect("the txid").to_owned();
    // The broadcast went on without the request: the job lands.
    let job = settled(&served, &txid).await;
    assert_eq!(job["state"], "confirmed", "{job}");
    assert!(usdt(&served, recipient) > U256::ZERO);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_busy_node_is_retried_and_a_duplicate_is_success() {
    let config = ApiConfig {
        rate_limit: 10_000,
        ..ApiConfig::default()
    };
    let (served, seen) = behind_proxy(Broadcasts::Busy(2), config.clone()).await;
    let (status, value, recipient) = relay_one(&served).await;
    assert_eq!(status, 202, "turned away once: not broadcast yet: {value}");
    let txid = value["data"]["txid"].as_str().unwrap().to_owned();
    let job = settled(&served, &txid).await;
    assert_eq!(job["state"], "confirmed", "{job}");
    assert!(job["attempts"].as_i64().unwrap() >= 2, "{job}");
    assert!(seen.load(Ordering::SeqCst) >= 3);
    assert!(usdt(&served, recipient) > U256::ZERO);

    // The node took it, but answered as if an earlier copy had arrived first.
    let (served, _) = behind_proxy(Broadcasts::Duplicate, config).await;
    let (status, value, recipient) = relay_one(&served).await;
    assert_eq!(status, 200, "{value}");
    assert_eq!(value["data"]["state"], "broadcast");
    let job = settled(&served, value["data"]["txid"].as_str().unwrap()).await;
    assert_eq!(job["state"], "confirmed", "{job}");
    assert!(usdt(&served, recipient) > U256::ZERO);
}

/// Starts `tronpool --json <args>` and reads its one-line announcement.
#[cfg(unix)]
pub(crate) fn start(env: &crate::support::TestEnv, args: &[&str]) -> (std::process::Child, Value) {
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
    // Sealed on broadcast: `send` reads each deposit's receipt as soon as it is accepted.
    let (mut chain, devnet) = start(&env, test_support::load::DEVNET_SEALING_ON_BROADCAST);
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
    let http = reqwest::Client::new();
    let get = |url: String| {
        let http = http.clone();
        async move {
            let value: Value = http.get(url).send().await.unwrap().json().await.unwrap();
            value
        }
    };
    let status = get(format!("{api}/api/relayer/status")).await;
    let fee: u64 = status["data"]["fees"][0]["relayerFeeRaw"]
        .as_str()
        .unwrap()
        .parse()
        .unwrap();

    let (notes, tree) = deposit_through(&api, &node, &key, 1).await;
    let recipient = PrivateKey::generate().address();
    let body = request(&notes[0], &tree, 0, recipient, relayer, fee, 0);
    let answer: Value = http
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
            "SELECT s.state FROM relayer_jobs JOIN submissions s USING (txid) WHERE txid = ?1",
            [&txid],
            |row| row.get(0),
        )
        .unwrap()
    };
    assert_eq!(state(&db), "broadcast");

    let (mut server, again) = start(&env, &[&serve[..], &["100ms"]].concat());
    let api = again["url"].as_str().unwrap().to_owned();
    let mut job = Value::Null;
    for _ in 0..100 {
        job = get(format!("{api}/api/relayer/jobs/{txid}")).await;
        if job["data"]["state"] == "confirmed" {
            break;
        }
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
    assert_eq!(
        job["data"]["state"], "confirmed",
        "the restarted watcher finished the job: {job}"
    );
    assert_eq!(state(&db), "confirmed");
    let balance = get(format!("{api}/api/balance/{}", recipient.to_base58())).await;
    assert_eq!(
        balance["data"]["balanceRaw"],
        (DENOMINATION - fee).to_string()
    );
    for child in [&mut server, &mut chain] {
        let _ = std::process::Command::new("kill")
            .args(["-TERM", &child.id().to_string()])
            .status();
        assert!(child.wait().unwrap().success());
    }
}

/// Someone (dev account 5) stakes 50,000 TRX for energy and lends it to the relayer: about
/// 529,000 energy, one relay's ceiling (473,000) and not two.
pub(crate) async fn lend_one_relay_of_energy(served: &Served, relayer: Address) {
    let backer = devnet::genesis::dev_key(5);
    let node = client(&served.devnet().url());
    let frozen = node_built(
        served,
        "freezebalancev2",
        json!({ "owner_address": backer.address().to_base58(),
                "frozen_balance": 50_000_000_000i64, "resource": "ENERGY", "visible": true }),
    )
    .await;
    send(&node, &backer, &frozen).await;
    let lent = node_built(
        served,
        "delegateresource",
        json!({ "owner_address": backer.address().to_base58(),
                "receiver_address": relayer.to_base58(), "balance": 50_000_000_000i64,
                "resource": "ENERGY", "visible": true }),
    )
    .await;
    send(&node, &backer, &lent).await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_relayer_with_staked_energy_quotes_and_burns_only_its_bandwidth() {
    let served = Served::unsponsored_relayer(ApiConfig::default(), RelayerConfig::default()).await;
    let key = devnet::genesis::dev_key(1);
    let relayer = key.address();
    // Someone stakes 50,000 TRX for energy and lends it to the relayer (Stake 2.0, through
    // the node's own builders): about 529,000 energy a day, more than a relay needs.
    lend_one_relay_of_energy(&served, relayer).await;
    // The quote is the bandwidth alone: 800 bytes × 1,000 sun = 0.8 TRX at 0.28, +20%.
    let (fee, _) = quote(&served).await;
    assert_eq!(fee, 268_800);

    let (notes, tree) = deposit(&served, 3, 1).await;
    let recipient = PrivateKey::generate().address();
    let before = trx(&served, relayer);
    let body = request(&notes[0], &tree, 0, recipient, relayer, fee, 0);
    let data = served.ok("/api/relayer/withdraw", Some(body)).await;
    let job = settled(&served, data["txid"].as_str().unwrap()).await;
    assert_eq!(job["state"], "confirmed", "{job}");
    let spent = before - trx(&served, relayer);
    let txid: TxId = data["txid"].as_str().unwrap().parse().unwrap();
    let info = client(&served.devnet().url())
        .get_transaction_info(&txid)
        .await
        .unwrap()
        .unwrap();
    // Every unit of energy came out of the stake; the TRX spent is the bandwidth.
    assert_eq!(info.receipt.energy_usage, info.receipt.energy_usage_total);
    assert_eq!(info.receipt.energy_fee, 0);
    assert_eq!(spent, info.receipt.net_fee);
    assert!(
        (spent as u128) * 280_000 / 1_000_000 < u128::from(fee),
        "{spent} sun against a fee of {fee}"
    );
    println!(
        "relayed withdraw from a relayer lent 50,000 TRX of staked energy: {} energy from stake, {} TRX \
         burned for bandwidth; fee {} USDT",
        info.receipt.energy_usage_total,
        spent as f64 / 1e6,
        fee as f64 / 1e6
    );
}

/// What `relayer` can collect from the 100 pool, read from the pool.
pub(crate) fn collectable(served: &Served, relayer: Address) -> U256 {
    let pool = served.devnet().deployment().pool(100).unwrap().address;
    let data = contracts::TronPool::collectableFeesCall {
        relayer: relayer.into(),
    }
    .abi_encode();
    let out = served
        .devnet()
        .with_chain(|c| c.call(relayer, Some(pool), data, 0))
        .expect("collectableFees");
    contracts::TronPool::collectableFeesCall::abi_decode_returns(&out.output).unwrap()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn fees_accrue_in_the_pool_and_the_relayer_collects_them_at_its_threshold() {
    let config = ApiConfig {
        relayer_rate_limit: 100,
        rate_limit: 10_000,
        ..ApiConfig::default()
    };
    let (fee, _) = {
        let probe = Served::unsponsored_relayer(config.clone(), RelayerConfig::default()).await;
        quote(&probe).await
    };
    // Collect once two fees are in (the first credit keeps one base unit back).
    let threshold = U256::from(2 * fee - 1);
    let relayer_config = RelayerConfig {
        collect_above: Some(threshold),
        collect_every: Duration::from_millis(200),
        ..RelayerConfig::default()
    };
    let served = Served::unsponsored_relayer(config, relayer_config).await;
    let relayer = devnet::genesis::dev_key(1).address();
    let (notes, tree) = deposit(&served, 3, 2).await;
    let relayer_usdt = usdt(&served, relayer);

    // The relayer's first fee: the credit fills an empty slot in the pool, the costliest
    // relay of its kind, and still inside the expected energy.
    let recipient = PrivateKey::generate().address();
    let before = trx(&served, relayer);
    let body = request(&notes[0], &tree, 0, recipient, relayer, fee, 0);
    let data = served.ok("/api/relayer/withdraw", Some(body)).await;
    let job = settled(&served, data["txid"].as_str().unwrap()).await;
    assert_eq!(job["state"], "confirmed", "{job}");
    let energy = job["energyUsed"].as_i64().unwrap();
    let spent = before - trx(&served, relayer);
    println!(
        "relayed withdraw (fresh recipient, no refund, the relayer's first fee in the pool): \
         {energy} energy, {} TRX spent; fee {} USDT",
        spent as f64 / 1e6,
        fee as f64 / 1e6
    );
    assert!(energy <= NORMAL_RELAY_ENERGY, "{energy}");
    assert!(
        (spent as u128) * 280_000 / 1_000_000 < u128::from(fee),
        "{spent} sun against a fee of {fee}"
    );
    // Below the threshold, the fee waits in the pool.
    tokio::time::sleep(Duration::from_millis(600)).await;
    assert_eq!(usdt(&served, relayer), relayer_usdt);
    assert_eq!(collectable(&served, relayer), U256::from(fee - 1));

    // The second fee reaches it: the relayer collects both in one transfer.
    let recipient = PrivateKey::generate().address();
    let body = request(&notes[1], &tree, 1, recipient, relayer, fee, 0);
    let data = served.ok("/api/relayer/withdraw", Some(body)).await;
    let job = settled(&served, data["txid"].as_str().unwrap()).await;
    assert_eq!(job["state"], "confirmed", "{job}");
    for _ in 0..100 {
        if usdt(&served, relayer) > relayer_usdt {
            break;
        }
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
    assert_eq!(usdt(&served, relayer), relayer_usdt + threshold);
    assert_eq!(collectable(&served, relayer), U256::ZERO);
}

/// Releases all the genesis deployer's staked energy: its pools' sponsor has nothing left.
async fn drain_the_sponsor(served: &Served) {
    let deployer = devnet::genesis::deployer_key();
    let node = client(&served.devnet().url());
    let built = node_built(
        served,
        "unfreezebalancev2",
        json!({
            "owner_address": deployer.address().to_base58(),
            "unfreeze_balance": devnet::genesis::SPONSOR_STAKE_TRX_SUN,
            "resource": "ENERGY", "visible": true,
        }),
    )
    .await;
    send(&node, &deployer, &built).await;
}

/// A transaction built by the devnet's own `/wallet/<endpoint>` builder, unsigned.
pub(crate) async fn node_built(served: &Served, endpoint: &str, body: Value) -> Value {
    reqwest::Client::new()
        .post(format!("{}/wallet/{endpoint}", served.devnet().url()))
        .json(&body)
        .send()
        .await
        .unwrap()
        .json::<Value>()
        .await
        .unwrap()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_sponsored_pool_relays_for_the_bandwidth_and_a_drained_sponsor_costs_the_relayer_nothing()
{
    let config = ApiConfig {
        relayer_rate_limit: 100,
        rate_limit: 10_000,
        ..ApiConfig::default()
    };
    // Broadcasts are held two seconds on their way to the node: time for the sponsor's
    // stake to go between our check and our transaction.
    let (served, seen) = behind_proxy(Broadcasts::Slow(Duration::from_secs(2)), config).await;
    let relayer = devnet::genesis::dev_key(1).address();
    let node = client(&served.devnet().url());

    // The genesis pools are sponsored: the quote charges for the bandwidth alone, 800 bytes
    // × 1,000 sun at 0.28 USDT, +20%.
    let status = served.ok("/api/relayer/status", None).await;
    assert_eq!(
        status["fees"][0]["sponsorEnergy"], NORMAL_RELAY_ENERGY,
        "{status}"
    );
    let (fee, _) = quote(&served).await;
    assert_eq!(fee, 268_800);
    let (notes, tree) = deposit(&served, 2, 2).await;

    // A relay: the deployer's stake pays every unit of energy, the relayer its bandwidth.
    let recipient = PrivateKey::generate().address();
    let before = trx(&served, relayer);
    let body = request(&notes[0], &tree, 0, recipient, relayer, fee, 0);
    let data = served.ok("/api/relayer/withdraw", Some(body)).await;
    let job = settled(&served, data["txid"].as_str().unwrap()).await;
    assert_eq!(job["state"], "confirmed", "{job}");
    let txid: TxId = data["txid"].as_str().unwrap().parse().unwrap();
    let info = node.get_transaction_info(&txid).await.unwrap().unwrap();
    assert_eq!(
        info.receipt.origin_energy_usage,
        info.receipt.energy_usage_total
    );
    assert_eq!(info.receipt.energy_fee, 0);
    let spent = before - trx(&served, relayer);
    assert_eq!(spent, info.receipt.net_fee);
    assert!(
        (spent as u128) * 280_000 / 1_000_000 < u128::from(fee),
        "{spent} sun against a fee of {fee}"
    );
    assert_eq!(usdt(&served, recipient), U256::from(DENOMINATION - fee));
    println!(
        "relayed withdraw from a sponsored pool: {} energy paid by the sponsor, {} TRX burned \
         by the relayer (bandwidth); fee {} USDT",
        info.receipt.origin_energy_usage,
        spent as f64 / 1e6,
        fee as f64 / 1e6
    );

    // The sponsor's stake goes while our next transaction is on its way: it runs out of
    // energy at once (its fee limit is our share, none), and the relayer loses no more than
    // the bandwidth. The note is not spent; the user can try again.
    let recipient = PrivateKey::generate().address();
    let before = trx(&served, relayer);
    let broadcasts = seen.load(Ordering::SeqCst);
    let body = request(&notes[1], &tree, 1, recipient, relayer, fee, 0);
    let drain = async {
        while seen.load(Ordering::SeqCst) == broadcasts {
            tokio::time::sleep(Duration::from_millis(20)).await;
        }
        drain_the_sponsor(&served).await;
    };
    let (answer, ()) = tokio::join!(served.post("/api/relayer/withdraw", body), drain);
    assert_eq!(answer.0, 200, "{}", answer.1);
    let job = settled(&served, answer.1["data"]["txid"].as_str().unwrap()).await;
    assert_eq!(job["state"], "failed", "{job}");
    let lost = before - trx(&served, relayer);
    assert!(
        lost <= RELAY_BYTES * 1_000,
        "the relayer lost {lost} sun: more than the bandwidth"
    );
    assert_eq!(usdt(&served, recipient), U256::ZERO);
    let spent = served
        .ok(
            "/api/pools/100/check-spent",
            Some(json!({ "nullifierHash": hex32(&notes[1].nullifier_hash()) })),
        )
        .await;
    assert_eq!(spent["spent"], false, "{spent}");
    println!(
        "a sponsor drained between the relayer's check and its transaction cost the relayer \
         {} TRX (bandwidth)",
        lost as f64 / 1e6
    );

    // With nothing left to count on, the quote is the full price again, and the old fee is
    // refused before anything is sent: it was quoted less than a minute ago, so the quote
    // still holds for it, but only while it pays for the relay, which it no longer does.
    let status = served.ok("/api/relayer/status", None).await;
    assert_eq!(status["fees"][0]["sponsorEnergy"], 0, "{status}");
    assert_eq!(quote(&served).await.0, 14_716_800);
    let before = trx(&served, relayer);
    let body = request(&notes[1], &tree, 1, recipient, relayer, fee, 0);
    let error = served.fails("/api/relayer/withdraw", Some(body), 422).await;
    assert!(error.contains("does not cover this withdrawal"), "{error}");
    assert_eq!(trx(&served, relayer), before);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_batcher_inserts_a_lone_deposit_within_its_longest_wait() {
    let wait = Duration::from_secs(4);
    let config = RelayerConfig {
        batch_max_wait: Some(wait),
        batch_poll: Duration::from_millis(300),
        ..RelayerConfig::default()
    };
    let served = Served::with_relayer(ApiConfig::default(), config).await;
    let relayer = served.devnet().accounts()[1].address();
    let key = served.devnet().accounts()[2].clone();
    let started = std::time::Instant::now();
    let (_, tree) = deposit_with(
        &served.server.url(),
        &served.devnet().url(),
        &key,
        (100, 1),
        false,
    )
    .await;
    // A batch of one is not full: it waits the longest wait, then goes. The listing says
    // when, once the batcher has looked.
    let pool = served.ok("/api/pools/100", None).await;
    assert_eq!(pool["queued"], 1, "{pool}");
    let mut announced = None;
    let inserted = loop {
        let pool = served.ok("/api/pools/100", None).await;
        if pool["queued"] == 0 {
            break pool;
        }
        if !pool["nextBatch"].is_null() {
            announced = Some(pool["nextBatch"].clone());
        }
        assert!(started.elapsed() < wait * 10, "never inserted: {pool}");
        tokio::time::sleep(Duration::from_millis(200)).await;
    };
    let next = announced.expect("the listing announced the batch before it was sent");
    assert_eq!(
        (next["start"].as_u64(), next["count"].as_u64()),
        (Some(0), Some(1))
    );
    assert_eq!(
        next["dueAt"].as_i64().unwrap() - next["waitingSince"].as_i64().unwrap(),
        wait.as_millis() as i64,
        "{next}"
    );
    assert!(inserted["nextBatch"].is_null(), "{inserted}");
    assert!(
        started.elapsed() >= wait - Duration::from_secs(1),
        "{:?}",
        started.elapsed()
    );
    assert_eq!(inserted["depositCount"], 1);
    assert_eq!(inserted["currentRoot"], hex32(&tree.root()));
    // Sent by the relayer's key, which the batch's insertion fee was credited to.
    let pool = served.devnet().deployment().pool(100).unwrap().address;
    let data = contracts::QueuedPool::relayerFeesCall::new((relayer.into(),)).abi_encode();
    let out = served
        .devnet()
        .with_chain(|c| c.call(relayer, Some(pool), data, 0))
        .expect("relayerFees");
    let fees = contracts::QueuedPool::relayerFeesCall::abi_decode_returns(&out.output).unwrap();
    assert_eq!(fees, U256::from(250_000u64));
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn past_its_loss_budget_the_batcher_leaves_a_batch_that_is_not_full_waiting() {
    // No budget for batches that are not full: a lone deposit past the wait stays queued
    // (a stranger depositing once per wait cannot make the relayer pay a batch each time).
    let wait = Duration::from_millis(500);
    let config = RelayerConfig {
        batch_max_wait: Some(wait),
        batch_poll: Duration::from_millis(200),
        batch_loss_budget: 0,
        ..RelayerConfig::default()
    };
    let served = Served::with_relayer(ApiConfig::default(), config).await;
    let key = served.devnet().accounts()[2].clone();
    let url = served.server.url();
    deposit_with(&url, &served.devnet().url(), &key, (100, 1), false).await;
    tokio::time::sleep(wait * 8).await;
    // Once the batcher has proved the due batch and found no budget for it, the listing says
    // it waits for a full block: no time is promised (proving takes seconds on a busy
    // machine, so the test waits for that look).
    let pool = held_back(&served, 1).await;
    assert_eq!(
        (pool["queued"].as_u64(), pool["depositCount"].as_u64()),
        (Some(1), Some(0)),
        "{pool}"
    );
    // And it stays so: the batcher does not prove it again at every look.
    tokio::time::sleep(wait * 4).await;
    let pool = served.ok("/api/pools/100", None).await;
    assert_eq!(pool["queued"], 1, "{pool}");
    assert!(pool["nextBatch"]["dueAt"].is_null(), "{pool}");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_batcher_holds_back_a_full_block_that_costs_more_than_its_fees_are_worth() {
    // TRX at 1 USDT: a full block's 32 × 0.25 USDT buy 8 TRX of the 25 it burns. With no
    // budget for losses it waits, for whoever will insert it at a loss (or a cheaper TRX).
    let config = RelayerConfig {
        batch_max_wait: Some(Duration::from_secs(3600)),
        batch_poll: Duration::from_millis(200),
        batch_loss_budget: 0,
        ..RelayerConfig::default()
    };
    let devnet = devnet::spawn(DevnetConfig::ephemeral()).await.unwrap();
    let node = devnet.url();
    let dear = Pricing::new(
        FeePolicy::default(),
        PriceFeed::new(
            Some(tronpool::service::price::PriceSource::Fixed(
                tronpool::service::price::TrxPrice::parse("1").unwrap(),
            )),
            DEFAULT_MAX_AGE,
        ),
    );
    let served = Served::around(
        devnet,
        &node,
        ApiConfig::default(),
        Duration::ZERO,
        Some(config),
        dear,
    )
    .await;
    let key = served.devnet().accounts()[2].clone();
    deposit_with(&served.server.url(), &node, &key, (100, 32), false).await;
    // The batcher looks, sees a full block, proves it, finds it would lose, and leaves it:
    // no time is promised.
    let pool = held_back(&served, 32).await;
    assert_eq!(pool["depositCount"], 0, "{pool}");
    tokio::time::sleep(Duration::from_secs(2)).await;
    let pool = served.ok("/api/pools/100", None).await;
    assert_eq!(
        (pool["queued"].as_u64(), pool["depositCount"].as_u64()),
        (Some(32), Some(0)),
        "{pool}"
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_batcher_never_takes_the_relayer_below_its_minimum_trx() {
    // A minimum above all the relayer holds: a batch that is due (its deposit waited) is
    // proved, found to need TRX the relays come first for, and left waiting.
    let wait = Duration::from_millis(500);
    let config = RelayerConfig {
        batch_max_wait: Some(wait),
        batch_poll: Duration::from_millis(200),
        min_balance: i64::MAX / 4,
        ..RelayerConfig::default()
    };
    let served = Served::with_relayer(ApiConfig::default(), config).await;
    let key = served.devnet().accounts()[2].clone();
    deposit_with(
        &served.server.url(),
        &served.devnet().url(),
        &key,
        (100, 1),
        false,
    )
    .await;
    let pool = held_back(&served, 1).await;
    assert_eq!(pool["depositCount"], 0, "{pool}");
    tokio::time::sleep(wait * 4).await;
    let pool = served.ok("/api/pools/100", None).await;
    assert_eq!(
        (pool["queued"].as_u64(), pool["depositCount"].as_u64()),
        (Some(1), Some(0)),
        "{pool}"
    );
}

/// The 100 pool's listing once `serve`'s batcher has looked at its next batch of `count`
/// and held it back (`nextBatch.dueAt` null): proving takes seconds on a busy machine, so
/// this waits for that look rather than for a fixed time.
async fn held_back(served: &Served, count: u32) -> Value {
    let started = std::time::Instant::now();
    loop {
        let pool = served.ok("/api/pools/100", None).await;
        if pool["nextBatch"]["count"] == count && pool["nextBatch"]["dueAt"].is_null() {
            return pool;
        }
        assert!(started.elapsed() < Duration::from_secs(60), "{pool}");
        tokio::time::sleep(Duration::from_millis(250)).await;
    }
}
