//! `tronpool stake` and the resources `tronpool balance` shows, through the binary against a
//! devnet (which models Stake 2.0): stake, lend, take back, release; bad amounts are clear
//! errors and send nothing.

use assert_cmd::Command;
use serde_json::Value;

use crate::support::{TestChain, TestEnv, json_run};

fn run(env: &TestEnv, chain: &TestChain, args: &[&str]) -> Command {
    let mut cmd = env.cmd();
    cmd.args(["--node", &chain.url()]).args(args);
    cmd
}

fn ok(env: &TestEnv, chain: &TestChain, args: &[&str]) -> Value {
    let (code, out) = json_run(&mut run(env, chain, args));
    assert_eq!(code, 0, "{args:?}: {out}");
    out["data"].clone()
}

fn fails(env: &TestEnv, chain: &TestChain, args: &[&str], code: i32) -> String {
    let (got, out) = json_run(&mut run(env, chain, args));
    assert_eq!(got, code, "{args:?}: {out}");
    assert_eq!(out["ok"], false, "{out}");
    out["error"].as_str().unwrap().to_owned()
}

/// What `trx` staked TRX buys a day when the test has staked `devnet_trx`: java-tron's
/// formula over 180,000,000,000 energy, the devnet's 17,000,000,000 TRX of other stake and
/// its genesis sponsor's stake.
fn energy_of(trx: i64, devnet_trx: i64) -> i64 {
    let sponsor = devnet::genesis::SPONSOR_STAKE_TRX_SUN / 1_000_000;
    (trx as f64 * (180_000_000_000f64 / (17_000_000_000 + sponsor + devnet_trx) as f64)) as i64
}

#[test]
fn stake_lend_take_back_and_release_show_in_the_balance() {
    let env = TestEnv::new();
    let chain = TestChain::start();
    let before = ok(&env, &chain, &["balance"]);
    assert_eq!(before["resources"]["energyLimit"], 0, "{before}");
    assert_eq!(before["resources"]["bandwidthLimit"], 600);
    let trx_before: i64 = before["trxRaw"].as_str().unwrap().parse().unwrap();

    let staked = ok(&env, &chain, &["stake", "energy", "100000", "--yes"]);
    assert_eq!(staked["action"], "stake");
    assert_eq!(staked["resource"], "ENERGY");
    assert_eq!(staked["amountRaw"], "100000000000");
    assert!(staked["txid"].is_string());
    let limit = energy_of(100_000, 100_000);
    assert_eq!(staked["resources"]["energyLimit"], limit, "{staked}");
    assert_eq!(staked["resources"]["stakedForEnergyRaw"], "100000000000");
    let after = ok(&env, &chain, &["balance"]);
    assert_eq!(after["resources"]["energyAvailable"], limit);
    let trx_after: i64 = after["trxRaw"].as_str().unwrap().parse().unwrap();
    assert_eq!(
        trx_before - trx_after,
        100_000_000_000,
        "bandwidth was free"
    );

    // Lend 40,000 TRX of it to another account, then take it back.
    let to = chain.devnet.accounts()[2].address().to_base58();
    let lent = ok(
        &env,
        &chain,
        &["stake", "delegate", "40000", "--to", &to, "--yes"],
    );
    assert_eq!(lent["counterparty"], to.as_str());
    assert_eq!(lent["resources"]["lentRaw"], "40000000000");
    let theirs = ok(&env, &chain, &["balance", &to]);
    assert_eq!(
        theirs["resources"]["energyLimit"],
        energy_of(40_000, 100_000),
        "{theirs}"
    );
    assert_eq!(theirs["resources"]["borrowedRaw"], "40000000000");
    ok(
        &env,
        &chain,
        &["stake", "undelegate", "40000", "--from", &to, "--yes"],
    );
    let theirs = ok(&env, &chain, &["balance", &to]);
    assert_eq!(theirs["resources"]["energyLimit"], 0);

    let released = ok(&env, &chain, &["stake", "release", "1000", "--yes"]);
    assert_eq!(released["action"], "release");
    assert_eq!(released["resources"]["stakedForEnergyRaw"], "99000000000");
    // Nothing is due for 14 days: the node refuses, in java-tron's words.
    let early = fails(&env, &chain, &["stake", "withdraw", "--yes"], 4);
    assert!(early.contains("no unFreeze balance to withdraw"), "{early}");
}

#[test]
fn bad_stake_amounts_are_clear_errors_and_send_nothing() {
    let env = TestEnv::new();
    let chain = TestChain::start();
    let trx = |env: &TestEnv| -> String {
        ok(env, &chain, &["balance"])["trxRaw"]
            .as_str()
            .unwrap()
            .to_owned()
    };
    let before = trx(&env);
    let me = ok(&env, &chain, &["balance"])["address"]
        .as_str()
        .unwrap()
        .to_owned();
    for (args, code, says) in [
        (vec!["stake", "energy", "0", "--yes"], 2, "more than 0 TRX"),
        (vec!["stake", "energy", "0.5", "--yes"], 2, "at least 1 TRX"),
        (
            vec!["stake", "energy", "ten", "--yes"],
            2,
            "not an amount of TRX",
        ),
        (
            vec!["stake", "energy", "5000000", "--yes"],
            4,
            "less than the 5000000 TRX to stake",
        ),
        (
            vec!["stake", "release", "5", "--yes"],
            4,
            "has 0 TRX staked for energy",
        ),
        (
            vec!["stake", "delegate", "5", "--to", &me, "--yes"],
            2,
            "itself",
        ),
        (vec!["stake", "energy", "10"], 2, "needs confirmation"),
    ] {
        let error = fails(&env, &chain, &args, code);
        assert!(error.contains(says), "{args:?}: {error}");
    }
    assert_eq!(trx(&env), before, "nothing was sent");
}

/// `run` as the devnet's deployer (the pools' origin).
fn as_deployer(env: &TestEnv, chain: &TestChain, args: &[&str]) -> Value {
    let mut cmd = run(env, chain, args);
    cmd.env(
        "TRONPOOL_PRIVATE_KEY",
        &*devnet::genesis::deployer_key().to_hex(),
    );
    let (code, out) = json_run(&mut cmd);
    assert_eq!(code, 0, "{args:?}: {out}");
    out["data"].clone()
}

fn trx_of(env: &TestEnv, chain: &TestChain, who: Option<&str>) -> i64 {
    let mut args = vec!["balance"];
    args.extend(who);
    ok(env, chain, &args)["trxRaw"]
        .as_str()
        .unwrap()
        .parse()
        .unwrap()
}

fn energy_available(env: &TestEnv, chain: &TestChain, who: &str) -> i64 {
    ok(env, chain, &["balance", who])["resources"]["energyAvailable"]
        .as_i64()
        .unwrap()
}

#[test]
fn genesis_pools_are_sponsored_capped_per_call_and_changed_only_by_their_deployer() {
    let env = TestEnv::new();
    let chain = TestChain::start();
    let deployer = devnet::genesis::deployer_key().address().to_base58();
    let shown = ok(&env, &chain, &["pool", "sponsor", "--denom", "100"]);
    assert_eq!(shown["sponsor"], deployer.as_str(), "{shown}");
    assert_eq!(shown["callerEnergyPercent"], 0);
    assert_eq!(shown["originEnergyLimit"], 600_000);
    assert_eq!(shown["txids"], serde_json::json!([]));

    // Someone who did not deploy it cannot change it; nothing is sent.
    let refused = fails(
        &env,
        &chain,
        &[
            "pool",
            "sponsor",
            "--denom",
            "100",
            "--caller-energy-percent",
            "100",
            "--yes",
        ],
        4,
    );
    assert!(refused.contains("did not deploy"), "{refused}");
    let bad = fails(
        &env,
        &chain,
        &[
            "pool",
            "sponsor",
            "--denom",
            "100",
            "--caller-energy-percent",
            "101",
            "--yes",
        ],
        2,
    );
    assert!(bad.contains("0 to 100"), "{bad}");
    assert_eq!(
        ok(&env, &chain, &["pool", "sponsor", "--denom", "100"])["callerEnergyPercent"],
        0
    );

    // A deposit burns no TRX for its energy: the deployer's stake paid all 185,621 (the
    // first into a queued pool; later ones cost about 120,000).
    ok(&env, &chain, &["approve", "--denom", "100", "--yes"]);
    let before = trx_of(&env, &chain, None);
    let sponsor_before = energy_available(&env, &chain, &deployer);
    let deposited = ok(&env, &chain, &["deposit", "--denom", "100", "--yes"]);
    let spent = before - trx_of(&env, &chain, None);
    println!(
        "a deposit into a sponsored pool: {} TRX spent by the caller (bandwidth)",
        spent as f64 / 1e6
    );
    assert!(spent < 1_000_000, "the deposit cost its caller {spent} sun");
    let paid = sponsor_before - energy_available(&env, &chain, &deployer);
    assert!(
        (185_621 - 100..=185_621).contains(&paid),
        "the deployer's stake paid the deposit's energy: {paid}"
    );
    // Its batch is never the sponsor's: it goes through the unsponsored inserter, and its
    // sender pays all of it (the sponsor's stake only recovers over time, never grows).
    let sponsor_before = energy_available(&env, &chain, &deployer);
    let before = trx_of(&env, &chain, None);
    ok(&env, &chain, &["pool", "insert", "--denom", "100", "--yes"]);
    let spent = before - trx_of(&env, &chain, None);
    assert!(spent > 25_000_000, "the batch cost its sender {spent} sun");
    assert!(energy_available(&env, &chain, &deployer) >= sponsor_before);

    // A withdrawal's estimate says beforehand that the sponsor pays all of it.
    let id = deposited["notes"][0]["id"].as_i64().unwrap().to_string();
    let to = tron::PrivateKey::generate().address().to_base58();
    let dry = ok(&env, &chain, &["withdraw", &id, "--to", &to, "--dry-run"]);
    let estimate = &dry["estimate"];
    let energy = estimate["energy"].as_i64().unwrap();
    assert!(energy > 300_000, "{dry}");
    assert_eq!(estimate["sponsorEnergy"], energy, "{dry}");
    assert_eq!(estimate["burnedSun"], 0);

    // The deployer caps its share at 100,000 a call: the caller pays the rest, as the
    // estimate says before and the chain charges after.
    let capped = as_deployer(
        &env,
        &chain,
        &[
            "pool",
            "sponsor",
            "--denom",
            "100",
            "--origin-energy-limit",
            "100000",
            "--yes",
        ],
    );
    assert_eq!(capped["originEnergyLimit"], 100_000, "{capped}");
    assert_eq!(capped["callerEnergyPercent"], 0);
    let dry = ok(&env, &chain, &["withdraw", &id, "--to", &to, "--dry-run"]);
    let estimate = &dry["estimate"];
    let energy = estimate["energy"].as_i64().unwrap();
    assert_eq!(estimate["sponsorEnergy"], 100_000, "{dry}");
    assert_eq!(estimate["burnedEnergy"], energy - 100_000);
    let burned = estimate["burnedSun"].as_i64().unwrap();
    assert_eq!(burned, (energy - 100_000) * 100);
    let before = trx_of(&env, &chain, None);
    ok(&env, &chain, &["withdraw", &id, "--to", &to, "--yes"]);
    let spent = before - trx_of(&env, &chain, None);
    assert!(
        (burned..burned + 1_000_000).contains(&spent),
        "estimated {burned} sun for energy, spent {spent}"
    );
}

#[test]
fn a_sponsor_short_of_stake_leaves_its_callers_the_rest_as_the_estimate_said() {
    let env = TestEnv::new();
    let chain = TestChain::unsponsored();
    let deployer = devnet::genesis::deployer_key().address().to_base58();
    assert_eq!(energy_available(&env, &chain, &deployer), 0);
    ok(&env, &chain, &["approve", "--denom", "100", "--yes"]);
    let deposited = ok(
        &env,
        &chain,
        &["deposit", "--denom", "100", "--insert", "--yes"],
    );
    let id = deposited["notes"][0]["id"].as_i64().unwrap().to_string();
    let to = tron::PrivateKey::generate().address().to_base58();

    // Nothing staked: the sponsored pool's caller pays all.
    let dry = ok(&env, &chain, &["withdraw", &id, "--to", &to, "--dry-run"]);
    let energy = dry["estimate"]["energy"].as_i64().unwrap();
    assert_eq!(dry["estimate"]["sponsorEnergy"], 0, "{dry}");
    assert_eq!(dry["estimate"]["burnedSun"], energy * 100);

    // 20,000 TRX staked buys about 211,000 energy: less than the withdrawal needs.
    as_deployer(&env, &chain, &["stake", "energy", "20000", "--yes"]);
    let stake = energy_available(&env, &chain, &deployer);
    let expected = (20_000f64 * (180_000_000_000f64 / 17_000_020_000f64)) as i64;
    assert_eq!(stake, expected);
    let dry = ok(&env, &chain, &["withdraw", &id, "--to", &to, "--dry-run"]);
    let estimate = &dry["estimate"];
    assert_eq!(estimate["sponsorEnergy"], stake, "{dry}");
    let burned = estimate["burnedSun"].as_i64().unwrap();
    assert_eq!(burned, (energy - stake) * 100);
    let before = trx_of(&env, &chain, None);
    ok(&env, &chain, &["withdraw", &id, "--to", &to, "--yes"]);
    let spent = before - trx_of(&env, &chain, None);
    assert!(
        (burned..burned + 1_000_000).contains(&spent),
        "estimated {burned} sun for energy, spent {spent}"
    );
    assert!(
        energy_available(&env, &chain, &deployer) < 100,
        "the stake was spent"
    );
}
