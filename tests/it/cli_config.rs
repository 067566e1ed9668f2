use predicates::prelude::*;

use crate::support::{TestEnv, json_run, mode};

#[test]
fn defaults_without_a_config_file() {
    let env = TestEnv::new();
    let (code, out) = json_run(env.cmd().args(["config", "show"]));
    assert_eq!(code, 0, "{out}");
    assert_eq!(out["ok"], true);
    let d = &out["data"];
    assert_eq!(d["network"]["value"], "devnet");
    assert_eq!(d["network"]["source"], "default");
    assert_eq!(d["node"]["value"], "http://127.0.0.1:8090/");
    assert_eq!(d["node"]["source"], "preset devnet");
    assert_eq!(d["configFileExists"], false);
    assert_eq!(d["apiKey"]["value"], "(not set)");
}

#[test]
fn precedence_is_flag_then_env_then_file_then_default() {
    let env = TestEnv::new();
    env.cmd().args(["config", "init"]).assert().success();
    let config = env.home().join("config.toml");
    std::fs::write(
        &config,
        "network = \"shasta\"\napi_key = \"from-file\"\n[networks.nile]\nnode = \"http://127.0.0.1:9999\"\n",
    )
    .unwrap();

    let (_, out) = json_run(env.cmd().args(["config", "show"]));
    let file_source = format!("file {}", config.display());
    assert_eq!(out["data"]["network"]["value"], "shasta");
    assert_eq!(out["data"]["network"]["source"], file_source);
    assert_eq!(out["data"]["apiKey"]["value"], "(set)");
    assert_eq!(out["data"]["apiKey"]["source"], file_source);

    let (_, out) = json_run(
        env.cmd()
            .env("TRONPOOL_NETWORK", "nile")
            .env("TRONPOOL_API_KEY", "from-env")
            .args(["config", "show"]),
    );
    assert_eq!(out["data"]["network"]["value"], "nile");
    assert_eq!(out["data"]["network"]["source"], "env TRONPOOL_NETWORK");
    // The file's [networks.nile] table overrides the preset's node; the USDT stays the preset's.
    assert_eq!(out["data"]["node"]["value"], "http://127.0.0.1:9999/");
    assert_eq!(out["data"]["node"]["source"], file_source);
    assert_eq!(
        out["data"]["usdt"]["value"],
        "TXYZopYRdj2D9XRtbG411XZZ3kM5VkAeBf"
    );
    assert_eq!(out["data"]["apiKey"]["source"], "env TRONPOOL_API_KEY");

    let (_, out) = json_run(env.cmd().env("TRONPOOL_NETWORK", "nile").args([
        "--network",
        "mainnet",
        "--node",
        "http://127.0.0.1:1234",
        "config",
        "show",
    ]));
    assert_eq!(out["data"]["network"]["value"], "mainnet");
    assert_eq!(out["data"]["network"]["source"], "flag");
    assert_eq!(out["data"]["node"]["value"], "http://127.0.0.1:1234/");
    assert_eq!(out["data"]["node"]["source"], "flag");
    assert_eq!(
        out["data"]["usdt"]["value"],
        "TR7NHqjeKQxGTCi8q8ZY4pL8otSzgjLj6t"
    );
}

#[test]
fn show_never_prints_the_api_key() {
    let env = TestEnv::new();
    env.cmd()
        .env("TRONPOOL_API_KEY", "secret-api-key-123")
        .args(["config", "show"])
        .assert()
        .success()
        .stdout(predicate::str::contains("secret-api-key-123").not())
        .stdout(predicate::str::contains("(set)"));
}

/// The database `serve` replicas share is shown without its password, and a password on the
/// command line (which any user can read in the process list) is refused before anything
/// starts.
#[test]
fn the_database_password_is_never_shown_nor_taken_from_the_command_line() {
    let env = TestEnv::new();
    std::fs::create_dir_all(env.home()).unwrap();
    std::fs::write(
        env.home().join("config.toml"),
        "[networks.devnet]\ndatabase = \"postgres://tronpool:hunter2@db.internal/tronpool\"\n",
    )
    .unwrap();
    let (code, out) = json_run(env.cmd().args(["config", "show"]));
    assert_eq!(code, 0, "{out}");
    let shown = out["data"]["database"]["value"].as_str().unwrap();
    assert!(!shown.contains("hunter2"), "{shown}");
    assert!(shown.contains("db.internal"), "{shown}");
    env.cmd()
        .args(["config", "show"])
        .assert()
        .success()
        .stdout(predicate::str::contains("hunter2").not());
    let (code, out) = json_run(env.cmd().args([
        "serve",
        "--listen",
        "127.0.0.1:0",
        "--database",
        "postgres://tronpool:hunter3@127.0.0.1:1/tronpool",
    ]));
    assert_eq!(code, 2, "{out}");
    let error = out["error"].as_str().unwrap();
    assert!(error.contains("TRONPOOL_DATABASE_PASSWORD"), "{error}");
    assert!(!error.contains("hunter3"), "{error}");
}

#[test]
fn init_writes_a_private_file_once() {
    let env = TestEnv::new();
    env.cmd()
        .args(["--network", "nile", "config", "init"])
        .assert()
        .success();
    let config = env.home().join("config.toml");
    assert!(
        std::fs::read_to_string(&config)
            .unwrap()
            .contains("network = \"nile\"")
    );
    assert_eq!(mode(&config), 0o600);
    assert_eq!(mode(&env.home()), 0o700);
    let (_, out) = json_run(env.cmd().args(["config", "show"]));
    assert_eq!(out["data"]["network"]["value"], "nile");

    let before = std::fs::read(&config).unwrap();
    env.cmd()
        .args(["config", "init"])
        .assert()
        .code(1)
        .stderr(predicate::str::contains("already exists"));
    assert_eq!(std::fs::read(&config).unwrap(), before);
}

#[test]
fn a_corrupt_file_is_named_with_its_line_and_never_overwritten() {
    let env = TestEnv::new();
    std::fs::create_dir_all(env.home()).unwrap();
    let config = env.home().join("config.toml");
    let text = "network = \"nile\"\n[networks.nile]\nnode = \"http://ok\"\nusdt = \"TR7NHqjeKQxGTCi8q8ZY4pL8otSzgjLj6X\"\n";
    std::fs::write(&config, text).unwrap();
    let assert = env.cmd().args(["config", "show"]).assert().code(2);
    let stderr = String::from_utf8(assert.get_output().stderr.clone()).unwrap();
    assert_eq!(stderr.lines().count(), 1, "{stderr}");
    assert!(
        stderr.contains(&format!("config file {}, line 4", config.display())),
        "{stderr}"
    );
    assert!(stderr.contains("checksum"), "{stderr}");
    env.cmd().args(["config", "init"]).assert().code(1);
    assert_eq!(std::fs::read_to_string(&config).unwrap(), text);

    // `config path` still finds it.
    env.cmd()
        .args(["config", "path"])
        .assert()
        .success()
        .stdout(format!("{}\n", config.display()));

    std::fs::write(&config, "netwrok = \"nile\"\n").unwrap();
    env.cmd()
        .args(["config", "show"])
        .assert()
        .code(2)
        .stderr(predicate::str::contains("line 1").and(predicate::str::contains("netwrok")));
}

#[test]
fn an_explicit_config_file_must_exist() {
    let env = TestEnv::new();
    let (code, out) =
        json_run(
            env.cmd()
                .args(["--config", "/nonexistent/tronpool.toml", "config", "show"]),
        );
    assert_eq!(code, 2);
    assert_eq!(out["ok"], false);
    assert!(
        out["error"].as_str().unwrap().contains("does not exist"),
        "{out}"
    );
}

#[test]
fn custom_networks_and_unknown_ones() {
    let env = TestEnv::new();
    let config = env.write(
        "custom.toml",
        "network = \"lab\"\n[networks.lab]\nnode = \"http://10.0.0.5:8090\"\nevents = \"http://10.0.0.5:8091\"\nusdt = \"TR7NHqjeKQxGTCi8q8ZY4pL8otSzgjLj6t\"\n[networks.nonode]\nusdt = \"TR7NHqjeKQxGTCi8q8ZY4pL8otSzgjLj6t\"\n",
    );
    let (code, out) = json_run(
        env.cmd()
            .arg("--config")
            .arg(&config)
            .args(["config", "show"]),
    );
    assert_eq!(code, 0, "{out}");
    assert_eq!(out["data"]["node"]["value"], "http://10.0.0.5:8090/");
    assert_eq!(out["data"]["events"]["value"], "http://10.0.0.5:8091/");
    assert_eq!(out["data"]["configFile"]["source"], "flag");

    let (code, out) = json_run(env.cmd().arg("--config").arg(&config).args([
        "--network",
        "nonode",
        "config",
        "show",
    ]));
    assert_eq!(code, 2);
    assert!(
        out["error"].as_str().unwrap().contains("no `node` URL"),
        "{out}"
    );

    let (code, out) = json_run(env.cmd().args(["--network", "moon", "config", "show"]));
    assert_eq!(code, 2);
    assert_eq!(
        out["error"],
        "unknown network `moon` (from flag); known: devnet, nile, shasta, mainnet"
    );
}

#[test]
fn usage_errors_are_one_line_with_exit_2() {
    let env = TestEnv::new();
    for args in [
        vec!["--bogus"],
        vec!["config", "nope"],
        vec!["--node", "not a url", "config", "show"],
        vec!["-v", "-q", "config", "show"],
    ] {
        let assert = env.cmd().args(&args).assert().code(2);
        let stderr = String::from_utf8(assert.get_output().stderr.clone()).unwrap();
        assert_eq!(stderr.lines().count(), 1, "{args:?}: {stderr}");
        assert!(stderr.starts_with("error: "), "{args:?}: {stderr}");
        let (code, out) = json_run(env.cmd().args(&args));
        assert_eq!(code, 2);
        assert_eq!(out["ok"], false, "{args:?}");
    }
    env.cmd().arg("--version").assert().success();
    env.cmd()
        .arg("--help")
        .assert()
        .success()
        .stdout(predicate::str::contains("Exit status"));
}

#[test]
fn bad_log_filter_is_a_usage_error() {
    let env = TestEnv::new();
    env.cmd()
        .env("TRONPOOL_LOG", "tronpool=[")
        .args(["config", "path"])
        .assert()
        .code(2)
        .stderr(predicate::str::contains("TRONPOOL_LOG"));
}
