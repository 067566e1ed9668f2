//! Stake 2.0 energy and who pays a contract run's energy, as java-tron decides it: staked
//! energy is spent before TRX is burned and recovers over a day; a contract's deployer pays
//! its callers' share from its stake (never its TRX) up to `origin_energy_limit`; energy can
//! be lent and taken back; released TRX returns after 14 days. Figures are worked out by hand
//! from java-tron's formulas (`EnergyProcessor`, `ReceiptCapsule.payEnergyBill`).
#![allow(clippy::unwrap_used)] // a test fails by panicking: unwrapping is how it says so

mod support;

use serde_json::{Value, json};
use support::{TRX, client, deploy_runtime, deploy_runtime_with, devnet, freeze, post, stake};

use tron::{Action, Address, PrivateKey, Trigger};

/// `PUSH1 1 PUSH1 0 SSTORE PUSH1 2 PUSH1 0 SSTORE STOP`: 25,012 energy on its first run.
const SSTORE_TWICE: &[u8] = &[
    0x60, 0x01, 0x60, 0x00, 0x55, 0x60, 0x02, 0x60, 0x00, 0x55, 0x00,
];
const FIRST_RUN: i64 = 25_012;
/// What the devnet's deployer stakes at genesis to sponsor its pools, in TRX.
const SPONSOR_STAKE_TRX: i64 = devnet::genesis::SPONSOR_STAKE_TRX_SUN / TRX;

/// What `amount_trx` staked TRX buys a day, when it is the devnet's only stake: java-tron's
/// formula over the network's 180,000,000,000 energy and 17,000,000,000 TRX of other stake.
/// The energy `amount_trx` buys when this test has staked `devnet_stake_trx` in all, beside
/// the modeled rest of mainnet and the genesis sponsor's stake.
fn energy_of(amount_trx: i64, devnet_stake_trx: i64) -> i64 {
    let weight = 17_000_000_000 + SPONSOR_STAKE_TRX + devnet_stake_trx;
    (amount_trx as f64 * (180_000_000_000f64 / weight as f64)) as i64
}

async fn resource(devnet: &devnet::DevnetHandle, address: Address) -> Value {
    post(
        &format!("{}/wallet/getaccountresource", devnet.url()),
        json!({ "address": address.to_base58(), "visible": true }),
    )
    .await
}

async fn call(devnet: &devnet::DevnetHandle, key: &PrivateKey, contract: Address) -> Value {
    let action = Action::Trigger(Trigger {
        owner: key.address(),
        contract,
        ..Trigger::default()
    });
    let (txid, info) = support::send(&client(devnet), key, action, 1_000_000_000).await;
    assert!(info.succeeded(), "{:?}", info.failure_reason());
    post(
        &format!("{}/wallet/gettransactioninfobyid", devnet.url()),
        json!({ "value": txid.to_hex() }),
    )
    .await
}

fn balance(devnet: &devnet::DevnetHandle, address: Address) -> i64 {
    devnet.with_chain(|c| c.balance(&address))
}

async fn advance(devnet: &devnet::DevnetHandle, seconds: i64) {
    post(
        &format!("{}/devnet/increase_time", devnet.url()),
        json!({ "seconds": seconds }),
    )
    .await;
    post(&format!("{}/devnet/mine", devnet.url()), json!({})).await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn staked_energy_is_spent_before_trx_and_recovers_over_a_day() {
    let devnet = devnet().await;
    let alice = devnet.accounts()[1].clone();
    let contract = deploy_runtime(&devnet, SSTORE_TWICE).await;
    let before = balance(&devnet, alice.address());
    freeze(&devnet, &alice, 100_000).await;
    assert_eq!(balance(&devnet, alice.address()), before - 100_000 * TRX);
    let limit = energy_of(100_000, 100_000);
    let r = resource(&devnet, alice.address()).await;
    assert_eq!(r["EnergyLimit"], limit, "{r}");
    assert_eq!(r["TotalEnergyLimit"], 180_000_000_000i64);
    assert_eq!(
        r["TotalEnergyWeight"],
        17_000_100_000i64 + SPONSOR_STAKE_TRX
    );
    let account = post(
        &format!("{}/wallet/getaccount", devnet.url()),
        json!({ "address": alice.address().to_base58(), "visible": true }),
    )
    .await;
    assert_eq!(
        account["frozenV2"][1],
        json!({ "type": "ENERGY", "amount": 100_000 * TRX })
    );

    // The run's energy comes out of the stake: nothing burned, no TRX spent.
    let before = balance(&devnet, alice.address());
    let receipt = call(&devnet, &alice, contract).await;
    assert_eq!(receipt["receipt"]["energy_usage"], FIRST_RUN, "{receipt}");
    assert_eq!(receipt["receipt"]["energy_usage_total"], FIRST_RUN);
    assert!(receipt["receipt"].get("energy_fee").is_none(), "{receipt}");
    assert_eq!(balance(&devnet, alice.address()), before);
    assert_eq!(
        resource(&devnet, alice.address()).await["EnergyUsed"],
        FIRST_RUN
    );

    // Used energy recovers linearly over 24 hours.
    advance(&devnet, 12 * 3600).await;
    let used = resource(&devnet, alice.address()).await["EnergyUsed"]
        .as_i64()
        .unwrap();
    assert!(
        (FIRST_RUN / 2 - 2..=FIRST_RUN / 2).contains(&used),
        "{used}"
    );
    advance(&devnet, 12 * 3600).await;
    assert!(
        resource(&devnet, alice.address())
            .await
            .get("EnergyUsed")
            .is_none()
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_run_past_the_stake_burns_trx_for_the_rest_only() {
    let devnet = devnet().await;
    let alice = devnet.accounts()[1].clone();
    let contract = deploy_runtime(&devnet, SSTORE_TWICE).await;
    freeze(&devnet, &alice, 1_000).await;
    let limit = energy_of(1_000, 1_000);
    let before = balance(&devnet, alice.address());
    let receipt = call(&devnet, &alice, contract).await;
    assert_eq!(receipt["receipt"]["energy_usage"], limit, "{receipt}");
    assert_eq!(receipt["receipt"]["energy_fee"], (FIRST_RUN - limit) * 100);
    assert_eq!(
        balance(&devnet, alice.address()),
        before - (FIRST_RUN - limit) * 100
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_sponsored_contract_charges_its_deployers_stake_and_never_its_trx() {
    let devnet = devnet().await;
    let deployer = devnet.accounts()[0].clone();
    let alice = devnet.accounts()[1].clone();
    // consume_user_resource_percent 0: the deployer pays all, from stake, up to 20,000.
    let capped = deploy_runtime_with(&devnet, SSTORE_TWICE, 0, 20_000).await;
    let whole = deploy_runtime_with(&devnet, SSTORE_TWICE, 0, 10_000_000).await;
    let shared = deploy_runtime_with(&devnet, SSTORE_TWICE, 40, 10_000_000).await;

    // A deployer with no stake gives nothing: the caller pays as before.
    let receipt = call(&devnet, &alice, whole).await;
    assert!(receipt["receipt"].get("origin_energy_usage").is_none());
    assert_eq!(receipt["receipt"]["energy_fee"], FIRST_RUN * 100);

    freeze(&devnet, &deployer, 100_000).await;
    // Whole: the deployer's stake pays everything; the caller burns nothing.
    let whole_again = deploy_runtime_with(&devnet, SSTORE_TWICE, 0, 10_000_000).await;
    let deployer_trx = balance(&devnet, deployer.address());
    let deployer_used = resource(&devnet, deployer.address()).await["EnergyUsed"]
        .as_i64()
        .unwrap_or(0);
    let alice_trx = balance(&devnet, alice.address());
    let receipt = call(&devnet, &alice, whole_again).await;
    assert_eq!(
        receipt["receipt"]["origin_energy_usage"], FIRST_RUN,
        "{receipt}"
    );
    assert!(receipt["receipt"].get("energy_fee").is_none(), "{receipt}");
    assert_eq!(balance(&devnet, alice.address()), alice_trx);
    // Capped: 20,000 from the deployer's stake, the rest burned by the caller.
    let receipt = call(&devnet, &alice, capped).await;
    assert_eq!(
        receipt["receipt"]["origin_energy_usage"], 20_000,
        "{receipt}"
    );
    assert_eq!(receipt["receipt"]["energy_fee"], (FIRST_RUN - 20_000) * 100);
    // 40% for the caller: the deployer pays 60% (rounded down), the caller the rest.
    let receipt = call(&devnet, &alice, shared).await;
    let origin = FIRST_RUN * 60 / 100;
    assert_eq!(
        receipt["receipt"]["origin_energy_usage"], origin,
        "{receipt}"
    );
    assert_eq!(receipt["receipt"]["energy_fee"], (FIRST_RUN - origin) * 100);
    // The deployer's TRX never moved for any of it; its stake did.
    assert_eq!(balance(&devnet, deployer.address()), deployer_trx);
    let used = resource(&devnet, deployer.address()).await["EnergyUsed"]
        .as_i64()
        .unwrap()
        - deployer_used;
    // (less the few units a few seconds of recovery give back)
    let spent = FIRST_RUN + 20_000 + origin;
    assert!((spent - 10..=spent).contains(&used), "{used}");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn energy_can_be_lent_and_taken_back() {
    let devnet = devnet().await;
    let lender = devnet.accounts()[2].clone();
    let relayer = devnet.accounts()[3].clone();
    let contract = deploy_runtime(&devnet, SSTORE_TWICE).await;
    freeze(&devnet, &lender, 100_000).await;
    let info = stake(
        &devnet,
        &lender,
        "delegateresource",
        json!({ "receiver_address": relayer.address().to_base58(), "resource": "ENERGY",
                "balance": 50_000 * TRX }),
    )
    .await
    .unwrap();
    assert!(info.succeeded());
    // The loan is the receiver's energy now; the network's weight is unchanged.
    let lent = energy_of(50_000, 100_000);
    let r = resource(&devnet, relayer.address()).await;
    assert_eq!(r["EnergyLimit"], lent, "{r}");
    assert_eq!(
        resource(&devnet, lender.address()).await["EnergyLimit"],
        lent
    );
    let receipt = call(&devnet, &relayer, contract).await;
    assert_eq!(receipt["receipt"]["energy_usage"], FIRST_RUN, "{receipt}");

    // Refusals, with java-tron's words.
    let refused = |endpoint: &'static str, body: Value| {
        let devnet = &devnet;
        let lender = lender.clone();
        async move { stake(devnet, &lender, endpoint, body).await.unwrap_err() }
    };
    let to_self = refused(
        "delegateresource",
        json!({ "receiver_address": lender.address().to_base58(), "resource": "ENERGY",
                "balance": TRX }),
    )
    .await;
    assert!(
        to_self.ends_with("receiverAddress must not be the same as ownerAddress"),
        "{to_self}"
    );
    let too_little = refused(
        "delegateresource",
        json!({ "receiver_address": relayer.address().to_base58(), "resource": "ENERGY",
                "balance": TRX / 2 }),
    )
    .await;
    assert!(
        too_little.contains("greater than or equal to 1 TRX"),
        "{too_little}"
    );
    let too_much = refused(
        "undelegateresource",
        json!({ "receiver_address": relayer.address().to_base58(), "resource": "ENERGY",
                "balance": 60_000 * TRX }),
    )
    .await;
    assert!(
        too_much.contains("insufficient delegateFrozenBalance(Energy), request=60000000000"),
        "{too_much}"
    );
    let bandwidth = refused("freezebalancev2", json!({ "frozen_balance": 10 * TRX })).await;
    assert!(bandwidth.contains("ENERGY only"), "{bandwidth}");

    // Taken back: the receiver's usage goes with the energy to the lender.
    let info = stake(
        &devnet,
        &lender,
        "undelegateresource",
        json!({ "receiver_address": relayer.address().to_base58(), "resource": "ENERGY",
                "balance": 50_000 * TRX }),
    )
    .await
    .unwrap();
    assert!(info.succeeded());
    let r = resource(&devnet, relayer.address()).await;
    assert!(r.get("EnergyLimit").is_none(), "{r}");
    assert!(r.get("EnergyUsed").is_none(), "{r}");
    let used = resource(&devnet, lender.address()).await["EnergyUsed"]
        .as_i64()
        .unwrap();
    assert!((FIRST_RUN - 2..=FIRST_RUN).contains(&used), "{used}");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn released_trx_comes_back_after_fourteen_days() {
    let devnet = devnet().await;
    let alice = devnet.accounts()[1].clone();
    freeze(&devnet, &alice, 1_000).await;
    let info = stake(
        &devnet,
        &alice,
        "unfreezebalancev2",
        json!({ "unfreeze_balance": 400 * TRX, "resource": "ENERGY" }),
    )
    .await
    .unwrap();
    assert!(info.succeeded());
    let account = post(
        &format!("{}/wallet/getaccount", devnet.url()),
        json!({ "address": alice.address().to_base58(), "visible": true }),
    )
    .await;
    assert_eq!(account["frozenV2"][1]["amount"], 600 * TRX);
    assert_eq!(
        account["unfrozenV2"][0]["unfreeze_amount"],
        400 * TRX,
        "{account}"
    );
    let early = stake(&devnet, &alice, "withdrawexpireunfreeze", json!({}))
        .await
        .unwrap_err();
    assert!(
        early.ends_with("no unFreeze balance to withdraw "),
        "{early:?}"
    );
    let over = stake(
        &devnet,
        &alice,
        "unfreezebalancev2",
        json!({ "unfreeze_balance": 700 * TRX, "resource": "ENERGY" }),
    )
    .await
    .unwrap_err();
    assert!(
        over.ends_with("Invalid unfreeze_balance, [700000000] is error"),
        "{over}"
    );

    advance(&devnet, 14 * 86_400 + 1).await;
    let before = balance(&devnet, alice.address());
    let info = stake(&devnet, &alice, "withdrawexpireunfreeze", json!({}))
        .await
        .unwrap();
    assert!(info.succeeded());
    let raw = post(
        &format!("{}/wallet/gettransactioninfobyid", devnet.url()),
        json!({ "value": info.id.to_hex() }),
    )
    .await;
    assert_eq!(raw["withdraw_expire_amount"], 400 * TRX, "{raw}");
    assert_eq!(balance(&devnet, alice.address()), before + 400 * TRX);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn only_the_origin_changes_who_pays_its_callers_energy() {
    let devnet = devnet().await;
    let deployer = devnet.accounts()[0].clone();
    let alice = devnet.accounts()[1].clone();
    let contract = deploy_runtime(&devnet, SSTORE_TWICE).await;
    let other = deploy_runtime(&devnet, SSTORE_TWICE).await;
    freeze(&devnet, &deployer, 100_000).await;
    let at = contract.to_base58();

    // Someone else's change is refused in java-tron's words, and nothing changes.
    let refused = stake(
        &devnet,
        &alice,
        "updatesetting",
        json!({ "contract_address": at, "consume_user_resource_percent": 0 }),
    )
    .await
    .unwrap_err();
    assert!(
        refused.ends_with(&format!(
            "Account[{}] is not the owner of the contract",
            hex::encode(alice.address().tron_bytes())
        )),
        "{refused}"
    );
    for (endpoint, body, says) in [
        (
            "updatesetting",
            json!({ "contract_address": at, "consume_user_resource_percent": 101 }),
            "percent not in [0, 100]",
        ),
        (
            "updateenergylimit",
            json!({ "contract_address": at, "origin_energy_limit": 0 }),
            "origin energy limit must be > 0",
        ),
    ] {
        let refused = stake(&devnet, &deployer, endpoint, body).await.unwrap_err();
        assert!(refused.ends_with(says), "{refused}");
    }
    let receipt = call(&devnet, &alice, contract).await;
    assert_eq!(
        receipt["receipt"]["energy_fee"],
        FIRST_RUN * 100,
        "{receipt}"
    );

    // The origin takes its callers' energy on, up to 5,000 a call.
    let info = stake(
        &devnet,
        &deployer,
        "updatesetting",
        json!({ "contract_address": other.to_base58(), "consume_user_resource_percent": 0 }),
    )
    .await
    .unwrap();
    assert!(info.succeeded());
    let info = stake(
        &devnet,
        &deployer,
        "updateenergylimit",
        json!({ "contract_address": other.to_base58(), "origin_energy_limit": 5_000 }),
    )
    .await
    .unwrap();
    assert!(info.succeeded());
    let shown = post(
        &format!("{}/wallet/getcontract", devnet.url()),
        json!({ "value": other.to_base58(), "visible": true }),
    )
    .await;
    assert_eq!(shown["origin_energy_limit"], 5_000, "{shown}");
    assert!(
        shown.get("consume_user_resource_percent").is_none(),
        "0 is left out: {shown}"
    );
    let receipt = call(&devnet, &alice, other).await;
    assert_eq!(
        receipt["receipt"]["origin_energy_usage"], 5_000,
        "{receipt}"
    );
    assert_eq!(receipt["receipt"]["energy_fee"], (FIRST_RUN - 5_000) * 100);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn genesis_sponsors_the_pools_with_the_deployers_stake_unless_told_not_to() {
    let deployer = devnet::genesis::deployer_key().address();
    let sponsored = devnet().await;
    let pool = sponsored.deployment().pool(100).unwrap().address;
    let contract = post(
        &format!("{}/wallet/getcontract", sponsored.url()),
        json!({ "value": pool.to_base58(), "visible": true }),
    )
    .await;
    // java-tron's JSON leaves out a field at its default, 0.
    assert!(
        contract.get("consume_user_resource_percent").is_none(),
        "{contract}"
    );
    assert_eq!(contract["origin_energy_limit"], 600_000);
    assert_eq!(contract["origin_address"], deployer.to_base58());
    let r = resource(&sponsored, deployer).await;
    assert_eq!(r["EnergyLimit"], energy_of(SPONSOR_STAKE_TRX, 0), "{r}");
    assert_eq!(
        r["TotalEnergyWeight"],
        17_000_000_000i64 + SPONSOR_STAKE_TRX
    );

    // Unsponsored: the same pools at the same addresses, and no stake behind them.
    let bare = devnet::spawn(devnet::DevnetConfig {
        sponsor: false,
        ..devnet::DevnetConfig::ephemeral()
    })
    .await
    .unwrap();
    assert_eq!(bare.deployment().pools, sponsored.deployment().pools);
    let r = resource(&bare, deployer).await;
    assert!(r.get("EnergyLimit").is_none(), "{r}");
    assert_eq!(r["TotalEnergyWeight"], 17_000_000_000i64);
}
