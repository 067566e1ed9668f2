//! `ceremony` and `deploy` through the binary: both circuits exported for snarkjs, each
//! snarkjs ceremony's zkey imported, tronpool deployed with them to a network that is a
//! devnet's node (killed mid-way and resumed), then deposits inserted by batches proven with
//! the batch ceremony's keys, a self-withdrawal and a relayed one (through `serve` for that
//! network) whose proofs, made with the withdraw ceremony's keys, the deployed verifiers
//! accept. Also what is refused: the devnet itself,
//! the insecure development keys on any other network, a node on the wrong chain, a deployer
//! who cannot pay, and a network with no deployment.

use std::path::{Path, PathBuf};
use std::process::Command as StdCommand;
use std::sync::OnceLock;
use std::time::{Duration, Instant};

use assert_cmd::Command;
use serde_json::Value;

use zk::circuits::Circuit;

use crate::support::{TestChain, TestEnv, json_run, mode};

/// A node that answers every request with `{}`: reachable, with no block 0, so no tronpool
/// devnet. Returns its URL.
fn not_a_devnet() -> String {
    use std::io::{Read, Write};
    let listener = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
    let url = format!("http://{}", listener.local_addr().unwrap());
    std::thread::spawn(move || {
        for mut stream in listener.incoming().flatten() {
            // Read the whole request (headers, then the body its length announces), so that
            // closing the socket does not reset it under the client.
            let mut request = Vec::new();
            let mut buf = [0u8; 4096];
            while let Ok(n) = stream.read(&mut buf) {
                if n == 0 {
                    break;
                }
                request.extend_from_slice(&buf[..n]);
                let text = String::from_utf8_lossy(&request).to_lowercase();
                if let Some(end) = text.find("\r\n\r\n") {
                    let length = text[..end]
                        .lines()
                        .find_map(|l| l.strip_prefix("content-length:"))
                        .and_then(|v| v.trim().parse::<usize>().ok())
                        .unwrap_or(0);
                    if request.len() >= end + 4 + length {
                        break;
                    }
                }
            }
            let _ = stream.write_all(
                b"HTTP/1.1 200 OK\r\ncontent-type: application/json\r\ncontent-length: 2\r\n\
                  connection: close\r\n\r\n{}",
            );
        }
    });
    url
}

/// The test ceremonies' Phase 1 transcript (power 15, not one a network accepts).
fn ceremony_ptau() -> PathBuf {
    ceremony_zkey();
    test_support::ceremony::ceremony().ptau.clone()
}

/// The withdraw circuit's zkey from snarkjs's ceremony ([`exported_zkey`]).
fn ceremony_zkey() -> &'static Path {
    static ZKEY: OnceLock<PathBuf> = OnceLock::new();
    ZKEY.get_or_init(|| exported_zkey(Circuit::Withdraw))
}

/// The batch circuit's zkey from its own snarkjs ceremony ([`exported_zkey`]).
fn batch_zkey() -> &'static Path {
    static ZKEY: OnceLock<PathBuf> = OnceLock::new();
    ZKEY.get_or_init(|| exported_zkey(Circuit::Batch))
}

/// `circuit` as `tronpool ceremony r1cs --circuit NAME` exports it, checked to be what the
/// shared snarkjs ceremony runs on (`test_support::ceremony`, shared with the zk and devnet
/// ceremony tests), and that ceremony's zkey.
fn exported_zkey(circuit: Circuit) -> PathBuf {
    let env = TestEnv::new();
    let name = circuit.name();
    let exported = env.path(&format!("{name}.r1cs"));
    let out = ok(
        &mut env.cmd(),
        &[
            "ceremony",
            "r1cs",
            "--circuit",
            name,
            "-o",
            exported.to_str().unwrap(),
        ],
    );
    let bytes = std::fs::read(&exported).unwrap();
    assert_eq!(out["bytes"], bytes.len());
    assert_eq!(out["circuit"], name);
    assert_eq!(&bytes[..4], b"r1cs");
    // What the binary exports is the circuit the shared ceremony runs on.
    assert_eq!(bytes, circuit.r1cs_file());
    match circuit {
        Circuit::Withdraw => {
            assert_eq!(out["ptauPower"], 13);
            // Piped, the file goes to stdout (the withdraw circuit by default); with --json
            // stdout is the envelope's, so it says so.
            let piped = env.cmd().args(["ceremony", "r1cs"]).output().unwrap();
            assert!(piped.status.success());
            assert_eq!(piped.stdout, bytes);
            let err = fails(&mut env.cmd(), &["ceremony", "r1cs"], 2);
            assert!(err.contains("-o FILE"), "{err}");
            test_support::ceremony::ceremony().zkey.clone()
        }
        Circuit::Batch => {
            assert_eq!(out["ptauPower"], 15);
            let err = fails(
                &mut env.cmd(),
                &["ceremony", "r1cs", "--circuit", "deposit", "-o", "x"],
                2,
            );
            assert!(err.contains("withdraw and batch"), "{err}");
            test_support::ceremony::batch_ceremony().zkey.clone()
        }
    }
}

/// The batch ceremony's Phase 1 transcript (power 15).
fn batch_ptau() -> PathBuf {
    batch_zkey();
    test_support::ceremony::batch_ceremony().ptau.clone()
}

fn ok(cmd: &mut Command, args: &[&str]) -> Value {
    let (code, out) = json_run(cmd.args(args));
    assert_eq!(code, 0, "{args:?}: {out}");
    out["data"].clone()
}

fn fails(cmd: &mut Command, args: &[&str], code: i32) -> String {
    let (got, out) = json_run(cmd.args(args));
    assert_eq!(got, code, "{args:?}: {out}");
    assert_eq!(out["ok"], false, "{out}");
    out["error"].as_str().unwrap().to_owned()
}

/// A home whose config names the devnet's node as the network `rehearsal`, with the devnet's
/// USDT: to tronpool, a real network like any other.
fn rehearsal(chain: &TestChain) -> TestEnv {
    let env = TestEnv::new();
    std::fs::create_dir_all(env.home()).unwrap();
    std::fs::write(
        env.home().join("config.toml"),
        format!(
            "# written by the test\n[networks.rehearsal]\nnode = \"{}\"\nusdt = \"{}\"\n",
            chain.devnet.url(),
            chain.devnet.deployment().usdt
        ),
    )
    .unwrap();
    env
}

/// `tronpool --network rehearsal …`, signing as dev account `account`.
fn on(env: &TestEnv, chain: &TestChain, account: usize) -> Command {
    let mut cmd = env.cmd();
    cmd.env(
        "TRONPOOL_PRIVATE_KEY",
        chain.devnet.accounts()[account].to_hex().as_str(),
    )
    .args(["--network", "rehearsal"]);
    cmd
}

fn config(env: &TestEnv) -> String {
    std::fs::read_to_string(env.home().join("config.toml")).unwrap_or_default()
}

#[test]
#[ignore = "needs node and python: bash tests/interop/install.sh (scripts/test runs it)"]
fn deploy_with_ceremony_keys_resume_and_withdraw() {
    let zkey = ceremony_zkey().to_str().unwrap().to_owned();
    let batch = batch_zkey().to_str().unwrap().to_owned();
    let batch_ptau = batch_ptau().to_str().unwrap().to_owned();
    let chain = TestChain::start();
    let env = rehearsal(&chain);

    let ptau = ceremony_ptau().to_str().unwrap().to_owned();

    // The policy: a key that guards money is verified against a transcript the network
    // accepts and ends in a beacon. Unverified, it is refused; against the test ceremony's own
    // transcript (not one of the accepted ones) too.
    let err = fails(&mut on(&env, &chain, 3), &["ceremony", "import", &zkey], 4);
    assert!(
        err.contains("no --ptau") && err.contains("--rehearsal"),
        "{err}"
    );
    let err = fails(
        &mut on(&env, &chain, 3),
        &["ceremony", "import", &zkey, "--ptau", &ptau],
        4,
    );
    assert!(
        err.contains("not a transcript rehearsal accepts")
            && err.contains("powersOfTau28_hez_final_14.ptau"),
        "{err}"
    );
    // Off a devnet (the node is not one, whatever the network's name), --rehearsal is a
    // usage error; and a network that is not a devnet refuses the unverified key.
    let mut cmd = env.cmd();
    cmd.args(["--network", "rehearsal", "--node", &not_a_devnet()]);
    let err = fails(
        &mut cmd,
        &["ceremony", "import", &zkey, "--ptau", &ptau, "--rehearsal"],
        2,
    );
    assert!(err.contains("not a tronpool devnet"), "{err}");
    let mut cmd = env.cmd();
    cmd.args(["--network", "mainnet"]);
    let err = fails(&mut cmd, &["ceremony", "import", &zkey], 4);
    assert!(
        err.contains("refusing") && err.contains("no --ptau"),
        "{err}"
    );
    let mut cmd = env.cmd();
    cmd.args(["--network", "mainnet"]);
    let err = fails(&mut cmd, &["ceremony", "import", &zkey, "--ptau", &ptau], 4);
    assert!(err.contains("not a transcript mainnet accepts"), "{err}");

    // This network's node is a tronpool devnet: --rehearsal takes the key, verified against
    // the ptau, as an INSECURE rehearsal key, kept under its verifying key's hash.
    let imported = ok(
        &mut on(&env, &chain, 3),
        &["ceremony", "import", &zkey, "--ptau", &ptau, "--rehearsal"],
    );
    let vk = imported["verifyingKeySha256"].as_str().unwrap().to_owned();
    assert_eq!(imported["alreadyImported"], false);
    assert_eq!(imported["insecure"], true);
    let record = &imported["record"];
    assert_eq!(record["rehearsal"], true);
    assert_eq!(record["beacon"], true);
    assert_eq!(record["ptauAccepted"], Value::Null);
    assert_eq!(record["contributions"].as_array().unwrap().len(), 3);
    assert_eq!(
        record["contributions"][2]["name"], "tronpool test beacon",
        "{record}"
    );
    let kept = PathBuf::from(imported["path"].as_str().unwrap());
    assert_eq!(
        kept.file_name().unwrap().to_str().unwrap(),
        format!("{vk}.zkey")
    );
    assert_eq!(mode(&kept), 0o600);
    assert!(kept.with_extension("json").is_file(), "the record is kept");
    let again = ok(
        &mut on(&env, &chain, 3),
        &["ceremony", "import", &zkey, "--rehearsal"],
    );
    assert_eq!(again["alreadyImported"], true);
    assert_eq!(record["circuit"], "withdraw");
    // The batch circuit's key the same way: its circuit told by the zkey itself.
    let imported_batch = ok(
        &mut on(&env, &chain, 3),
        &[
            "ceremony",
            "import",
            &batch,
            "--ptau",
            &batch_ptau,
            "--rehearsal",
        ],
    );
    assert_eq!(
        imported_batch["record"]["circuit"], "batch",
        "{imported_batch}"
    );
    assert_eq!(imported_batch["record"]["ptauPower"], 15);
    assert_eq!(batch_ptau, ptau, "one transcript serves both ceremonies");
    let batch_vk = imported_batch["verifyingKeySha256"]
        .as_str()
        .unwrap()
        .to_owned();
    let listed = ok(&mut env.cmd(), &["ceremony", "keys"]);
    let listed: Vec<&Value> = listed.as_array().unwrap().iter().collect();
    assert_eq!(listed.len(), 2, "{listed:?}");
    for (key, circuit) in [(&vk, "withdraw"), (&batch_vk, "batch")] {
        let entry = listed
            .iter()
            .find(|k| k["verifyingKeySha256"] == key.as_str())
            .unwrap();
        assert_eq!(entry["circuit"], circuit);
        assert_eq!(entry["status"], "INSECURE rehearsal key");
        assert_eq!(entry["insecure"], true);
    }
    let text = env.cmd().args(["ceremony", "keys"]).output().unwrap();
    assert!(
        String::from_utf8_lossy(&text.stdout).contains("INSECURE rehearsal key"),
        "{text:?}"
    );
    // Something that is not a zkey for our circuit.
    let junk = env.write("junk.zkey", "zkey but not really");
    let err = fails(
        &mut env.cmd(),
        &["ceremony", "import", junk.to_str().unwrap()],
        2,
    );
    assert!(
        err.contains("not a zkey for tronpool's withdraw or batch circuit"),
        "{err}"
    );
    // The ceremony's zkey with its δ replaced by its γ: a key anyone could forge proofs for.
    let forged = env.path("forged.zkey");
    std::fs::write(&forged, delta_as_gamma(&std::fs::read(&zkey).unwrap())).unwrap();
    let err = fails(
        &mut env.cmd(),
        &["ceremony", "import", forged.to_str().unwrap()],
        4,
    );
    assert!(
        err.contains("nobody contributed to") && err.contains("δ equals its γ"),
        "{err}"
    );
    // What `snarkjs groth16 setup` wrote (kept by the ceremony script): it verifies against
    // the ptau, and is refused all the same, even as a rehearsal key.
    let bare = test_support::ceremony::ceremony().uncontributed.clone();
    let err = fails(
        &mut on(&env, &chain, 3),
        &[
            "ceremony",
            "import",
            bare.to_str().unwrap(),
            "--ptau",
            &ptau,
            "--rehearsal",
        ],
        4,
    );
    assert!(err.contains("nobody contributed to"), "{err}");

    // A dry run prices every contract and changes nothing.
    let before = config(&env);
    let estimate = ok(
        &mut on(&env, &chain, 3),
        &[
            "deploy",
            "--denominations",
            "100,500",
            "--zkey",
            &zkey,
            "--batch-zkey",
            &batch,
            "--rehearsal",
            "--dry-run",
        ],
    );
    let contracts = estimate["contracts"].as_array().unwrap();
    let names: Vec<&str> = contracts
        .iter()
        .map(|c| c["contract"].as_str().unwrap())
        .collect();
    assert_eq!(
        names,
        [
            "hasher",
            "batch hasher",
            "verifier",
            "batch verifier",
            "batch inserter",
            "pool 100",
            "pool 500"
        ]
    );
    assert!(
        contracts
            .iter()
            .all(|c| c["state"] == "to deploy" && c["energy"].as_i64().unwrap() > 50_000),
        "{estimate}"
    );
    for c in contracts {
        eprintln!("deploy estimate: {} {} energy", c["contract"], c["energy"]);
    }
    eprintln!(
        "deploy estimate: {} energy, {} TRX in all",
        estimate["energy"], estimate["costTrx"]
    );
    // The zkeys go to their own flags.
    let err = fails(
        &mut on(&env, &chain, 3),
        &[
            "deploy",
            "--zkey",
            &batch,
            "--batch-zkey",
            &zkey,
            "--rehearsal",
            "--dry-run",
        ],
        2,
    );
    assert!(
        err.contains("--zkey flag takes the withdraw circuit's"),
        "{err}"
    );
    assert_eq!(config(&env), before, "a dry run records nothing");

    // Deploy, and kill it as soon as it has recorded anything.
    let mut child = StdCommand::new(env!("CARGO_BIN_EXE_tronpool"));
    child
        .env_clear()
        .env("PATH", std::env::var_os("PATH").unwrap_or_default())
        .env("TRONPOOL_HOME", env.home())
        .env("HOME", env.dir.path())
        .env(
            "TRONPOOL_PRIVATE_KEY",
            chain.devnet.accounts()[3].to_hex().as_str(),
        )
        .args([
            "--network",
            "rehearsal",
            "--yes",
            "deploy",
            "--denominations",
            "100,500",
        ])
        .args(["--zkey", &zkey, "--batch-zkey", &batch, "--rehearsal"])
        .stdout(std::process::Stdio::null())
        .stderr(std::process::Stdio::null());
    let mut child = child.spawn().unwrap();
    let started = Instant::now();
    while !config(&env).contains("[networks.rehearsal.deployment]") {
        assert!(
            started.elapsed() < Duration::from_secs(60),
            "nothing recorded"
        );
        if child.try_wait().unwrap().is_some() {
            break;
        }
        std::thread::sleep(Duration::from_millis(2));
    }
    let _ = child.kill();
    child.wait().unwrap();
    let interrupted = config(&env);
    eprintln!(
        "killed after {:?}, with the hasher {}",
        started.elapsed(),
        if interrupted.contains("hasher = ") {
            "deployed"
        } else {
            "pending"
        }
    );
    assert!(
        interrupted.starts_with("# written by the test\n"),
        "{interrupted}"
    );
    let hasher_before = interrupted
        .lines()
        .find_map(|l| l.strip_prefix("hasher = "))
        .map(str::to_owned);

    // The next run takes up where that one stopped.
    let done = ok(on(&env, &chain, 3).arg("--yes"), &["deploy"]);
    let deployment = &done["deployment"];
    // On the devnet a simulated creation costs exactly what the real one does.
    for sent in done["transactions"].as_array().unwrap() {
        let estimated = contracts
            .iter()
            .find(|c| c["contract"] == sent["contract"])
            .unwrap();
        assert_eq!(sent["energy"], estimated["energy"], "{sent} vs {estimated}");
    }
    if let Some(hasher) = hasher_before {
        assert_eq!(format!("{}", deployment["hasher"]), hasher);
    }
    assert_eq!(deployment["verifyingKeySha256"], vk.as_str());
    assert_eq!(
        deployment["batches"]["verifyingKeySha256"],
        batch_vk.as_str()
    );
    assert_eq!(deployment["pools"][0]["insertionFee"], 250_000);
    assert_eq!(
        deployment["usdt"],
        chain.devnet.deployment().usdt.to_string()
    );
    assert_eq!(deployment["pools"].as_array().unwrap().len(), 2);
    assert_eq!(deployment["network"], "rehearsal");
    // Pools are sponsored by default: callers pay 0% of their energy, the deployer's stake
    // up to 600,000 a call (it has none here, so callers still pay it all).
    assert_eq!(done["sponsorship"]["callerEnergyPercent"], 0, "{done}");
    // Deploying ends by checking what it deployed on chain.
    let checks = done["checks"].as_array().unwrap();
    assert!(
        checks.len() >= 4 && checks.iter().all(|c| c["ok"] == true),
        "{done}"
    );
    assert_eq!(done["sponsorship"]["originEnergyLimit"], 600_000);
    assert!(config(&env).contains("caller_energy_percent = 0"));
    let sponsor = ok(
        &mut on(&env, &chain, 3),
        &["pool", "sponsor", "--denom", "100"],
    );
    assert_eq!(sponsor["callerEnergyPercent"], 0, "{sponsor}");
    assert_eq!(sponsor["originEnergyLimit"], 600_000);
    assert_eq!(
        sponsor["sponsor"],
        chain.devnet.accounts()[3].address().to_string()
    );
    // A resumed deployment keeps its pools' setting; asking another is a clear error.
    let changed = fails(
        on(&env, &chain, 3).arg("--yes"),
        &["deploy", "--caller-energy-percent", "50"],
        2,
    );
    assert!(changed.contains("pool sponsor"), "{changed}");
    assert_eq!(mode(&env.home().join("config.toml")), 0o600);
    // Exactly one of each contract: nothing was paid for twice.
    let deployer = chain.devnet.accounts()[3].address().tron_bytes().to_vec();
    let created = chain.devnet.with_chain(|c| {
        c.data()
            .contracts
            .values()
            .filter(|contract| contract.origin_address == deployer)
            .count()
    });
    assert_eq!(created, 7, "contracts created by the deployer");
    // Deploying again has nothing to do.
    let again = ok(on(&env, &chain, 3).arg("--yes"), &["deploy"]);
    assert_eq!(again["transactions"], serde_json::json!([]), "{again}");
    assert_eq!(&again["deployment"], deployment);
    // A deployment's pools share one insertion fee: a resumed one keeps its record's, and a
    // fee that is not an amount of USDT is a usage error.
    let err = fails(
        on(&env, &chain, 3).arg("--yes"),
        &["deploy", "--insertion-fee", "0.5"],
        2,
    );
    assert!(err.contains("an insertion fee of 250000"), "{err}");
    let err = fails(
        &mut on(&env, &chain, 3),
        &["deploy", "--insertion-fee", "abc", "--dry-run"],
        2,
    );
    assert!(err.contains("--insertion-fee `abc`"), "{err}");

    // A new denomination later adds its pool next to the same hasher and verifier.
    let added = ok(
        on(&env, &chain, 3).arg("--yes"),
        &["deploy", "--denominations", "1000"],
    );
    let sent = added["transactions"].as_array().unwrap();
    assert_eq!(sent.len(), 1, "{added}");
    assert_eq!(sent[0]["contract"], "pool 1000");
    assert_eq!(added["deployment"]["hasher"], deployment["hasher"]);
    assert_eq!(added["deployment"]["verifier"], deployment["verifier"]);
    assert_eq!(added["deployment"]["batches"], deployment["batches"]);
    assert_eq!(added["deployment"]["pools"].as_array().unwrap().len(), 3);

    // A pending transaction that expired without reaching a block is forgotten: its contract
    // is priced and deployed again.
    let recorded = config(&env);
    let mut edited = recorded.replace(
        "denominations = [100, 500, 1000]",
        "denominations = [100, 500, 1000, 3000]",
    );
    assert_ne!(edited, recorded, "{recorded}");
    edited.push_str(&format!(
        "\n[networks.rehearsal.deployment.pending]\ncontract = \"pool 3000\"\ntxid = \"{}\"\n\
         expiration = 1\ntransaction = \"00\"\n",
        "ab".repeat(32)
    ));
    std::fs::write(env.home().join("config.toml"), &edited).unwrap();
    let estimate = ok(&mut on(&env, &chain, 3), &["deploy", "--dry-run"]);
    let last = estimate["contracts"]
        .as_array()
        .unwrap()
        .last()
        .unwrap()
        .clone();
    assert_eq!(last["contract"], "pool 3000");
    assert_eq!(last["state"], "to deploy", "{estimate}");
    std::fs::write(env.home().join("config.toml"), &recorded).unwrap();

    // `deploy --check` finds the recorded deployment as tronpool's: our Poseidon, a verifier
    // holding the ceremony's keys, pools wired to them.
    let checked = ok(&mut on(&env, &chain, 3), &["deploy", "--check"]);
    let checks = checked["checks"].as_array().unwrap();
    assert!(checks.iter().all(|c| c["ok"] == true), "{checked}");
    let names: Vec<&str> = checks
        .iter()
        .map(|c| c["check"].as_str().unwrap())
        .collect();
    assert_eq!(
        names,
        [
            "tvm",
            "hasher",
            "verifier accepts",
            "verifier refuses",
            "batch hasher",
            "batch verifier accepts",
            "batch verifier refuses",
            "network",
            "hasher code",
            "verifier code",
            "batch hasher code",
            "batch verifier code",
            "batch inserter code",
            "pool 100 code",
            "pool 100",
            "pool 500 code",
            "pool 500",
            "pool 1000 code",
            "pool 1000",
            "withdraw"
        ]
    );
    // The withdrawal check simulated the deployer's test deposit, made (and inserted) when
    // deploying: a note of the 100 pool stored here, still unspent.
    let withdraw = checks.last().unwrap();
    eprintln!("deploy --check: {}", withdraw["detail"]);
    assert!(
        withdraw["detail"]
            .as_str()
            .unwrap()
            .contains("100 USDT pool")
            && withdraw["detail"]
                .as_str()
                .unwrap()
                .contains("ms of modeled CPU")
            && withdraw["skipped"].is_null(),
        "{withdraw}"
    );
    let stored = ok(&mut on(&env, &chain, 3), &["notes", "list"]);
    let test_notes: Vec<&Value> = stored
        .as_array()
        .unwrap()
        .iter()
        .filter(|n| n["origin"] == "deploy test")
        .collect();
    assert_eq!(
        test_notes.len(),
        1,
        "one test deposit in all those runs: {stored}"
    );
    assert_eq!(test_notes[0]["state"], "deposited");
    assert_eq!(test_notes[0]["denomination"], 100);
    // A home without any note of these pools skips the withdrawal check unless asked to
    // deposit.
    let fresh = rehearsal(&chain);
    std::fs::write(fresh.home().join("config.toml"), config(&env)).unwrap();
    for key in [&zkey, &batch] {
        ok(
            &mut on(&fresh, &chain, 5),
            &["ceremony", "import", key, "--rehearsal"],
        );
    }
    let skipped = ok(&mut on(&fresh, &chain, 5), &["deploy", "--check"]);
    let last = skipped["checks"]
        .as_array()
        .unwrap()
        .last()
        .unwrap()
        .clone();
    assert_eq!(last["skipped"], true, "{skipped}");
    assert!(
        last["detail"].as_str().unwrap().contains("--test-deposit"),
        "{last}"
    );
    let deposited = ok(
        &mut on(&fresh, &chain, 5),
        &["deploy", "--check", "--test-deposit"],
    );
    let last = deposited["checks"]
        .as_array()
        .unwrap()
        .last()
        .unwrap()
        .clone();
    assert!(
        last["ok"] == true && last["skipped"].is_null(),
        "{deposited}"
    );
    // A record naming another contract as the hasher, or a verifier with other keys (the
    // devnet's own, which holds the development key), is caught.
    let ours = |what: &str| -> String { checked["deployment"][what].as_str().unwrap().to_owned() };
    let devnet = chain.devnet.deployment();
    for (what, impostor, says) in [
        ("hasher", devnet.usdt, "hasher:"),
        ("verifier", devnet.verifier, "verifier accepts:"),
    ] {
        let forged = recorded.replace(&ours(what), &impostor.to_string());
        assert_ne!(forged, recorded);
        std::fs::write(env.home().join("config.toml"), &forged).unwrap();
        let err = fails(&mut on(&env, &chain, 3), &["deploy", "--check"], 4);
        assert!(
            err.contains(says) && err.contains("not tronpool's"),
            "{what}: {err}"
        );
    }
    std::fs::write(env.home().join("config.toml"), &recorded).unwrap();

    // A record that points a pool at a look-alike: the devnet's own 100 USDT pool runs
    // tronpool's code, but a queued pool's, created for other contracts. Every command that would use it,
    // and `serve`, refuses before anything is sent; the depositor's USDT stays where it was.
    let impostor = devnet.pool(100).unwrap().address.to_string();
    let ours_100 = checked["deployment"]["pools"][0]["address"]
        .as_str()
        .unwrap()
        .to_owned();
    let forged = recorded.replace(&ours_100, &impostor);
    assert_ne!(forged, recorded);
    let usdt_before = balance(
        &env,
        &chain,
        &chain.devnet.accounts()[4].address().to_string(),
    );
    std::fs::write(env.home().join("config.toml"), &forged).unwrap();
    for args in [
        &["pools"][..],
        &["deposit", "--denom", "100"],
        &["deposit", "--denom", "500"],
    ] {
        let err = fails(on(&env, &chain, 4).arg("--yes"), args, 4);
        assert!(
            err.contains("not tronpool's") && err.contains("pool 100 code"),
            "{args:?}: {err}"
        );
    }
    let mut serve = env.cmd();
    serve.timeout(Duration::from_secs(60)).env(
        "TRONPOOL_RELAYER_PRIVATE_KEY",
        chain.devnet.accounts()[8].to_hex().as_str(),
    );
    let err = fails(
        serve.args(["--network", "rehearsal", "serve", "--listen", "127.0.0.1:0"]),
        &[],
        4,
    );
    assert!(err.contains("pool 100 code"), "{err}");
    // A record on another USDT than the network's: refused by the network check too.
    let (network, record) = recorded
        .split_once("[networks.rehearsal.deployment]")
        .unwrap();
    let other_usdt = chain.devnet.deployment().hasher.to_string();
    let usdt = chain.devnet.deployment().usdt.to_string();
    assert!(record.contains(&usdt), "{record}");
    std::fs::write(
        env.home().join("config.toml"),
        format!(
            "{network}[networks.rehearsal.deployment]{}",
            record.replace(&usdt, &other_usdt)
        ),
    )
    .unwrap();
    let err = fails(&mut on(&env, &chain, 4), &["pools"], 4);
    assert!(
        err.contains("network: the record's USDT is") && err.contains("pool 100 code"),
        "{err}"
    );
    std::fs::write(env.home().join("config.toml"), &recorded).unwrap();
    assert_eq!(
        balance(
            &env,
            &chain,
            &chain.devnet.accounts()[4].address().to_string()
        ),
        usdt_before,
        "nothing was deposited into the look-alike"
    );

    // The pools work: a deposit inserted by its depositor with a batch proven with the batch
    // ceremony's keys, and a withdrawal proven with the withdraw ceremony's is paid.
    let pools = ok(&mut on(&env, &chain, 4), &["pools"]);
    assert_eq!(pools["pools"].as_array().unwrap().len(), 3, "{pools}");
    let deposit = ok(
        on(&env, &chain, 4).arg("--yes"),
        &["deposit", "--denom", "100", "--insert"],
    );
    let note = deposit["notes"][0]["note"].as_str().unwrap().to_owned();
    let recipient = chain.devnet.accounts()[5].address().to_string();
    let before = balance(&env, &chain, &recipient);
    let mut withdraw = on(&env, &chain, 6);
    withdraw.arg("--yes").write_stdin(note);
    let out = withdraw
        .args(["--json", "withdraw", "-", "--to", &recipient])
        .output()
        .unwrap();
    assert!(out.status.success(), "{out:?}");
    assert_eq!(balance(&env, &chain, &recipient), before + 100_000_000);
    // The node is a devnet, so the rehearsal key may prove; loading it says it is insecure.
    let said = String::from_utf8_lossy(&out.stderr);
    assert!(said.contains("INSECURE rehearsal key"), "{said}");

    // A relayer for the network: `serve` loads the ceremony's keys at start and checks the
    // proof with them before paying the energy.
    let mut server = StdCommand::new(env!("CARGO_BIN_EXE_tronpool"))
        .env_clear()
        .env("PATH", std::env::var_os("PATH").unwrap_or_default())
        .env("TRONPOOL_HOME", env.home())
        .env("HOME", env.dir.path())
        .env(
            "TRONPOOL_RELAYER_PRIVATE_KEY",
            chain.devnet.accounts()[8].to_hex().as_str(),
        )
        .args([
            "--json",
            "--network",
            "rehearsal",
            "serve",
            "--listen",
            "127.0.0.1:0",
            // A network without a pair of its own: the relayer prices TRX at a fixed rate
            // (32.5 TRX of energy at 0.2 USDT, +20%: a 7.8 USDT fee).
            "--price-source",
            "fixed:0.2",
        ])
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::null())
        .spawn()
        .unwrap();
    let mut line = String::new();
    std::io::BufRead::read_line(
        &mut std::io::BufReader::new(server.stdout.take().unwrap()),
        &mut line,
    )
    .unwrap();
    let announced: Value = serde_json::from_str(&line).unwrap_or_else(|_| panic!("{line:?}"));
    let api = announced["data"]["url"].as_str().unwrap().to_owned();
    let deposit = ok(
        on(&env, &chain, 4).arg("--yes"),
        &["deposit", "--denom", "100", "--insert"],
    );
    let note = deposit["notes"][0]["note"].as_str().unwrap().to_owned();
    let before = balance(&env, &chain, &recipient);
    let mut relay = on(&env, &chain, 4);
    relay.arg("--yes").write_stdin(note);
    // This network has no price source in the client's config, so the client cannot price a
    // relay and names the most fee it accepts.
    let relayed = ok(
        &mut relay,
        &[
            "relay",
            "withdraw",
            "-",
            "--to",
            &recipient,
            "--relayer",
            &api,
            "--max-fee",
            "11",
        ],
    );
    let _ = server.kill();
    server.wait().unwrap();
    let received = balance(&env, &chain, &recipient) - before;
    // The pools deployed here are sponsored but their deployer staked nothing: the relayer
    // pays the energy. At 0.2 USDT per TRX the fee is (43 + 0.8) TRX x 0.2 x 1.2 = 10.512 USDT.
    assert_eq!(relayed["feeRaw"], "10512000", "{relayed}");
    assert!(
        received == 100_000_000 - 10_512_000,
        "{received} after the relayer's fee: {relayed}"
    );

    // Without the keys imported, a withdrawal says how to get them.
    let stranger = rehearsal(&chain);
    std::fs::write(stranger.home().join("config.toml"), config(&env)).unwrap();
    let deposit = ok(
        on(&stranger, &chain, 7).arg("--yes"),
        &["deposit", "--denom", "500"],
    );
    let note = deposit["notes"][0]["note"].as_str().unwrap().to_owned();
    // Nor can the stranger insert it: the batch circuit's keys are not imported either.
    let err = fails(
        on(&stranger, &chain, 7).arg("--yes"),
        &["pool", "insert", "--denom", "500"],
        2,
    );
    assert!(
        err.contains(&batch_vk) && err.contains("tronpool ceremony import"),
        "{err}"
    );
    ok(
        on(&env, &chain, 3).arg("--yes"),
        &["pool", "insert", "--denom", "500"],
    );
    let mut withdraw = on(&stranger, &chain, 7);
    withdraw.arg("--yes").write_stdin(note);
    let err = fails(&mut withdraw, &["withdraw", "-", "--to", &recipient], 2);
    assert!(
        err.contains(&vk) && err.contains("tronpool ceremony import"),
        "{err}"
    );
    // Nor does a relayer start without them: it could not check a proof before paying.
    let mut serve = stranger.cmd();
    serve.timeout(Duration::from_secs(60)).env(
        "TRONPOOL_RELAYER_PRIVATE_KEY",
        chain.devnet.accounts()[8].to_hex().as_str(),
    );
    let err = fails(
        serve.args(["--network", "rehearsal", "serve", "--listen", "127.0.0.1:0"]),
        &[],
        2,
    );
    assert!(err.contains(&vk), "{err}");
}

fn balance(env: &TestEnv, chain: &TestChain, address: &str) -> u128 {
    ok(&mut on(env, chain, 4), &["balance", address])["balanceRaw"]
        .as_str()
        .unwrap()
        .parse()
        .unwrap()
}

#[test]
#[ignore = "needs node and python: bash tests/interop/install.sh (scripts/test runs it)"]
fn refusals() {
    let chain = TestChain::start();
    let env = rehearsal(&chain);

    // The devnet deploys at genesis.
    let err = fails(
        env.cmd().args(["--node", &chain.devnet.url()]),
        &["deploy"],
        2,
    );
    assert!(err.contains("genesis"), "{err}");
    // No keys, no verifier.
    let err = fails(&mut on(&env, &chain, 3), &["deploy", "--dry-run"], 2);
    assert!(err.contains("--zkey"), "{err}");

    // A network with no deployment says what is missing and how to get it, without a node.
    let err = fails(env.cmd().args(["--network", "mainnet"]), &["pools"], 2);
    assert!(
        err.contains("no tronpool deployment is recorded for mainnet"),
        "{err}"
    );
    assert!(
        err.contains("[networks.mainnet.deployment]") && err.contains("deploy"),
        "{err}"
    );

    // The devnet's own pools recorded for another network: their verifiers hold the insecure
    // development keys, so nothing is proven for them there. They are queued pools, so the
    // record names batch insertion's contracts and the pool's insertion fee.
    let d = chain.devnet.deployment();
    let b = d.batches.as_ref().unwrap();
    let mut text = config(&env);
    text.push_str(&format!(
        "\n[networks.rehearsal.deployment]\nchain_id = {}\nusdt = \"{}\"\ndeployer = \"{}\"\n\
         verifying_key_sha256 = \"{}\"\ndenominations = [100]\nblock = {}\nhasher = \"{}\"\n\
         verifier = \"{}\"\n\n[[networks.rehearsal.deployment.pools]]\ndenomination = 100\n\
         address = \"{}\"\ninsertion_fee = {}\n\n[networks.rehearsal.deployment.batches]\n\
         hasher4 = \"{}\"\nverifier = \"{}\"\nverifying_key_sha256 = \"{}\"\ninserter = \"{}\"\n",
        d.chain_id,
        d.usdt,
        d.deployer,
        d.verifying_key_sha256,
        d.block,
        d.hasher,
        d.verifier,
        d.pool(100).unwrap().address,
        d.pool(100).unwrap().insertion_fee,
        b.hasher4,
        b.verifier,
        b.verifying_key_sha256,
        b.inserter,
    ));
    // Without its batches table the record is one from before queued pools: `deploy` will
    // not resume it, and says how to start afresh.
    let (before_queued, _) = text
        .split_once("\n[networks.rehearsal.deployment.batches]")
        .unwrap();
    std::fs::write(env.home().join("config.toml"), before_queued).unwrap();
    let err = fails(&mut on(&env, &chain, 3), &["deploy", "--dry-run"], 2);
    assert!(
        err.contains("from before queued pools") && err.contains("deploy afresh"),
        "{err}"
    );
    std::fs::write(env.home().join("config.toml"), &text).unwrap();
    // Whatever the network is called, the node proves to be a tronpool devnet (its genesis
    // block), so the development keys may be used there.
    let deposit = ok(
        on(&env, &chain, 3).arg("--yes"),
        &["deposit", "--denom", "100", "--insert"],
    );
    let note = deposit["notes"][0]["note"].as_str().unwrap().to_owned();
    let mut withdraw = on(&env, &chain, 3);
    withdraw.arg("--yes").write_stdin(note.clone());
    let to = chain.devnet.accounts()[4].address().to_string();
    let dry = ok(&mut withdraw, &["withdraw", "-", "--to", &to, "--dry-run"]);
    assert_eq!(dry["dryRun"], true, "{dry}");
    // The same record on a node that is not a tronpool devnet, even one the config calls
    // "devnet": refused before anything is sent, for deposits as for withdrawals.
    let disguised = chain.disguised();
    let named_devnet = TestEnv::new();
    std::fs::create_dir_all(named_devnet.home()).unwrap();
    std::fs::write(
        named_devnet.home().join("config.toml"),
        text.replace("[networks.rehearsal", "[networks.devnet")
            .replace(&chain.devnet.url(), &disguised),
    )
    .unwrap();
    let usdt_before = balance(
        &env,
        &chain,
        &chain.devnet.accounts()[3].address().to_string(),
    );
    for args in [
        &["deposit", "--denom", "100"][..],
        &["pools"],
        &["withdraw", "-", "--to", &to, "--dry-run"],
    ] {
        let mut cmd = named_devnet.cmd();
        cmd.env(
            "TRONPOOL_PRIVATE_KEY",
            chain.devnet.accounts()[3].to_hex().as_str(),
        )
        .args(["--network", "devnet", "--yes"])
        .write_stdin(note.clone());
        let err = fails(&mut cmd, args, 4);
        assert!(
            err.contains("insecure development key") && err.contains("not a tronpool devnet"),
            "{args:?}: {err}"
        );
        assert!(!err.contains(&disguised), "the node's URL stays out: {err}");
    }
    assert_eq!(
        balance(
            &env,
            &chain,
            &chain.devnet.accounts()[3].address().to_string()
        ),
        usdt_before
    );

    // Nile's name with the devnet's node: the chain id gives it away.
    let zkey = ceremony_zkey().to_str().unwrap().to_owned();
    let batch = batch_zkey().to_str().unwrap().to_owned();
    let mut cmd = env.cmd();
    cmd.env(
        "TRONPOOL_PRIVATE_KEY",
        chain.devnet.accounts()[3].to_hex().as_str(),
    );
    let err = fails(
        cmd.args(["--network", "nile", "--node", &chain.devnet.url()]),
        &[
            "deploy",
            "--zkey",
            &zkey,
            "--batch-zkey",
            &batch,
            "--rehearsal",
            "--dry-run",
        ],
        2,
    );
    assert!(err.contains("not nile"), "{err}");

    // A deployer without TRX is stopped before anything is signed.
    let broke = TestEnv::new();
    std::fs::create_dir_all(broke.home()).unwrap();
    std::fs::write(broke.home().join("config.toml"), rehearsal_config(&chain)).unwrap();
    let mut cmd = broke.cmd();
    cmd.env("TRONPOOL_PRIVATE_KEY", "11".repeat(32));
    let err = fails(
        cmd.args(["--network", "rehearsal", "--yes"]),
        &[
            "deploy",
            "--zkey",
            &zkey,
            "--batch-zkey",
            &batch,
            "--rehearsal",
        ],
        4,
    );
    assert!(err.contains("holds 0 TRX"), "{err}");
    assert!(!config(&broke).contains("deployment"), "nothing recorded");
}

/// `ceremony verify`: what `snarkjs zkey verify` checks, natively, no node needed. The
/// ceremony's key passes and lists its contributions; the uncontributed setup output is
/// refused (exit 4); a ptau that is not one is a usage error.
#[test]
#[ignore = "needs node and python: bash tests/interop/install.sh (scripts/test runs it)"]
fn ceremony_verify_lists_the_contributions_or_refuses() {
    let zkey = ceremony_zkey().to_str().unwrap().to_owned();
    let ptau = ceremony_ptau().to_str().unwrap().to_owned();
    let env = TestEnv::new();
    let verified = ok(
        &mut env.cmd(),
        &["ceremony", "verify", &zkey, "--ptau", &ptau],
    );
    assert_eq!(verified["ok"], true);
    assert_eq!(verified["ptauPower"], test_support::ceremony::PTAU_POWER);
    assert_eq!(verified["ptauBlake2b"].as_str().unwrap().len(), 128);
    assert_eq!(verified["beacon"], true);
    let contributions = verified["contributions"].as_array().unwrap();
    assert_eq!(contributions.len(), 3);
    assert_eq!(contributions[2]["beaconIterationsExp"], 10);

    let out = env
        .cmd()
        .args(["ceremony", "verify", &zkey, "--ptau", &ptau])
        .output()
        .unwrap();
    assert!(out.status.success());
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(
        text.contains("contribution #3 tronpool test beacon:")
            && text.contains(verified["ptauBlake2b"].as_str().unwrap())
            && text.trim_end().ends_with("ok"),
        "{text}"
    );

    let bare = test_support::ceremony::ceremony().uncontributed.clone();
    let err = fails(
        &mut env.cmd(),
        &[
            "ceremony",
            "verify",
            bare.to_str().unwrap(),
            "--ptau",
            &ptau,
        ],
        4,
    );
    assert!(err.contains("nobody contributed to"), "{err}");
    let err = fails(
        &mut env.cmd(),
        &["ceremony", "verify", &zkey, "--ptau", &zkey],
        2,
    );
    assert!(err.contains("not a ptau file"), "{err}");
}

fn rehearsal_config(chain: &TestChain) -> String {
    format!(
        "[networks.rehearsal]\nnode = \"{}\"\nusdt = \"{}\"\n",
        chain.devnet.url(),
        chain.devnet.deployment().usdt
    )
}

/// `deploy` reads the network's TVM switches: the contracts are built for Shanghai, so a
/// network without it is refused before anything is priced or signed, and one without Cancun
/// is fine.
#[test]
#[ignore = "needs node and python: bash tests/interop/install.sh (scripts/test runs it)"]
fn deploy_checks_the_networks_tvm_switches() {
    let zkey = ceremony_zkey().to_str().unwrap().to_owned();
    let batch = batch_zkey().to_str().unwrap().to_owned();
    let without = |shanghai: bool, cancun: bool| {
        TestChain::with(devnet::DevnetConfig {
            tvm: devnet::chain::evm::TvmSwitches { shanghai, cancun },
            ..devnet::DevnetConfig::ephemeral()
        })
    };
    let old = without(false, true);
    let env = rehearsal(&old);
    let err = fails(
        &mut on(&env, &old, 3),
        &[
            "deploy",
            "--zkey",
            &zkey,
            "--batch-zkey",
            &batch,
            "--rehearsal",
            "--dry-run",
        ],
        4,
    );
    assert!(
        err.contains("getAllowTvmShangHai") && err.contains("PUSH0"),
        "{err}"
    );
    let no_cancun = without(true, false);
    let env = rehearsal(&no_cancun);
    let plan = ok(
        &mut on(&env, &no_cancun, 3),
        &[
            "deploy",
            "--zkey",
            &zkey,
            "--batch-zkey",
            &batch,
            "--rehearsal",
            "--dry-run",
        ],
    );
    assert!(plan["energy"].as_i64().unwrap() > 0, "{plan}");
}

/// A zkey with section 2's δ₂ overwritten by its γ₂ (snarkjs's layout: n8q, q, n8r, r,
/// nVars, nPublic, domainSize in 84 bytes, then α₁, β₁, β₂, γ₂, δ₁, δ₂).
fn delta_as_gamma(zkey: &[u8]) -> Vec<u8> {
    let mut bytes = zkey.to_vec();
    let u32_at = |b: &[u8], at: usize| u32::from_le_bytes(b[at..at + 4].try_into().unwrap());
    let mut at = 12;
    for _ in 0..u32_at(&bytes, 8) {
        let id = u32_at(&bytes, at);
        let len = u64::from_le_bytes(bytes[at + 4..at + 12].try_into().unwrap()) as usize;
        at += 12;
        if id == 2 {
            let gamma = at + 84 + 64 + 64 + 128;
            let delta = gamma + 128 + 64;
            let copy = bytes[gamma..gamma + 128].to_vec();
            bytes[delta..delta + 128].copy_from_slice(&copy);
            return bytes;
        }
        at += len;
    }
    panic!("no section 2");
}
