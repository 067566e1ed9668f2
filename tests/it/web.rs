//! The web page end to end, in a real browser: `serve` and a devnet as processes, Chromium
//! driven by `tests/web/page.mjs` (playwright-core) with a stand-in TronLink that is real
//! TronWeb holding a devnet key. A note made in the page is withdrawn in the page through the
//! relayer, another by `tronpool withdraw`, and a note made by `tronpool deposit` is withdrawn
//! in the page with the wallet's own transaction; the recipients' balances are read from the
//! chain.
//!
//! It needs what `scripts/test` installs: Chromium (`TRONPOOL_TEST_BROWSER`, its path), the
//! npm packages of `tests/web`, and a `tronpool` built with the browser's prover
//! (`scripts/web-prover`). A plain `cargo test` skips it with a message; `scripts/test` runs
//! it on its own after the other tests, so the browser does not share the cores with the
//! soak test's `serve`.
#![cfg(unix)]

use std::process::Stdio;

use serde_json::{Value, json};

use crate::relayer::start;
use crate::support::TestEnv;

const BROWSER_VAR: &str = "TRONPOOL_TEST_BROWSER";

/// Runs `tronpool --node NODE --key-file … ARGS` in `env`, signing with `key` (hex, written to
/// a 0600 file as the CLI wants it), with `stdin` on its standard input; fails the test unless
/// it succeeds, and answers its stdout.
fn cli_ok(env: &TestEnv, node: &str, key: &str, args: &[&str], stdin: &str) -> String {
    let file = env.write(&format!("{}.key", &key[..8]), key);
    std::fs::set_permissions(&file, std::os::unix::fs::PermissionsExt::from_mode(0o600)).unwrap();
    let out = env
        .cmd()
        .args(["--node", node, "--key-file"])
        .arg(&file)
        .args(args)
        .write_stdin(stdin)
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "tronpool {args:?}: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8(out.stdout).unwrap()
}

async fn api(url: &str) -> Value {
    let response = reqwest::get(url).await.unwrap();
    let value: Value = response.json().await.unwrap();
    assert_eq!(value["ok"], true, "{url}: {value}");
    value["data"].clone()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_page_deposits_and_withdraws_with_a_wallet_and_trades_notes_with_the_cli() {
    let Some(chromium) = std::env::var_os(BROWSER_VAR) else {
        eprintln!(
            "skipped: the web page's browser test needs Chromium and tests/web's npm packages \
             ({BROWSER_VAR}; scripts/test installs and sets them)"
        );
        return;
    };
    let web = test_support::repo_root().join("tests/web");
    assert!(
        web.join("node_modules/playwright-core").is_dir(),
        "run `npm ci` in tests/web (scripts/test does)"
    );
    let _ = rustls::crypto::ring::default_provider().install_default();

    let chain_env = TestEnv::new();
    let (mut chain, devnet) = start(
        &chain_env,
        &[
            "devnet",
            "--port",
            "0",
            "--accounts",
            "5",
            "--block-time",
            "0",
        ],
    );
    let node = devnet["url"].as_str().unwrap().to_owned();
    let key = |i: usize| {
        devnet["accounts"][i]["privateKey"]
            .as_str()
            .unwrap()
            .to_owned()
    };
    let server_env = TestEnv::new();
    let (mut server, announced) = start(
        &server_env,
        &[
            "--node",
            &node,
            "serve",
            "--listen",
            "127.0.0.1:0",
            "--rate-limit",
            "100000",
            "--relayer-poll",
            "200ms",
            "--batch-max-wait",
            "1s",
            "--batch-poll",
            "500ms",
        ],
    );
    let url = announced["url"].as_str().unwrap().to_owned();
    let deployment = api(&format!("{url}/web/deployment.json")).await;
    assert_eq!(
        deployment["prover"], true,
        "this tronpool was built without the browser's prover: run scripts/web-prover, then build \
         again"
    );

    // A note made by the CLI, for the page to withdraw.
    let cli = TestEnv::new();
    cli_ok(
        &cli,
        &node,
        &key(4),
        &["deposit", "--denom", "100", "--yes"],
        "",
    );
    let exported = cli_ok(&cli, &node, &key(4), &["notes", "export"], "");
    // One note, under a comment line naming it.
    let notes: Vec<&str> = exported.lines().filter(|l| !l.starts_with('#')).collect();
    assert_eq!(notes.len(), 1, "one note exported");
    let cli_note = notes[0].to_owned();

    // The page's depositor has allowed the 500 pool already (by the CLI, with the same key):
    // there the page prices the deposit itself before anything is signed.
    cli_ok(
        &cli,
        &node,
        &key(3),
        &["approve", "--denom", "500", "--yes"],
        "",
    );

    // The browser. The notes and keys go on stdin, never in arguments or the environment.
    let artifacts = test_support::repo_root().join("target/web-test");
    let poor = tron::PrivateKey::from_bytes(&[0x5a; 32]).unwrap();
    let input = json!({
        "url": url,
        "node": node,
        "chromium": chromium.to_string_lossy(),
        "artifacts": artifacts,
        "depositor": key(3),
        "poor": poor.to_hex().as_str(),
        "cliNote": cli_note,
    });
    let page = tokio::task::spawn_blocking(move || {
        test_support::interop::node_with_input(&web.join("page.mjs"), &input, Stdio::piped())
    })
    .await
    .unwrap();
    assert!(
        page.status.success(),
        "the browser test failed (its log is above)"
    );
    let report: Value = serde_json::from_slice(&page.stdout).expect("the page test's report");
    eprintln!("web page: {report}");

    // The page's first note, withdrawn in the page through the relayer: 100 USDT less the fee
    // shown.
    let recipient = report["recipient"].as_str().unwrap();
    let fee: f64 = report["fee"].as_str().unwrap().parse().unwrap();
    let balance = api(&format!("{url}/api/balance/{recipient}")).await;
    let received: u64 = balance["balanceRaw"].as_str().unwrap().parse().unwrap();
    assert_eq!(
        received,
        100_000_000 - (fee * 1e6).round() as u64,
        "{balance}"
    );
    let job = api(&format!(
        "{url}/api/relayer/jobs/{}",
        report["withdrawTxid"].as_str().unwrap()
    ))
    .await;
    assert_eq!(job["state"], "confirmed", "{job}");

    // The CLI's note, withdrawn in the page by the wallet's own transaction: all 100 USDT.
    let balance = api(&format!(
        "{url}/api/balance/{}",
        report["selfRecipient"].as_str().unwrap()
    ))
    .await;
    assert_eq!(balance["balanceRaw"], "100000000", "{balance}");

    // The page's second note, withdrawn by the CLI (read from stdin).
    let to = tron::PrivateKey::from_bytes(&[0x6b; 32]).unwrap().address();
    cli_ok(
        &cli,
        &node,
        &key(4),
        &["withdraw", "-", "--to", &to.to_base58(), "--yes"],
        report["pageNote"].as_str().unwrap(),
    );
    let balance = api(&format!("{url}/api/balance/{}", to.to_base58())).await;
    assert_eq!(balance["balanceRaw"], "100000000", "{balance}");

    let _ = server.kill();
    let _ = chain.kill();
    let _ = (server.wait(), chain.wait());
}

/// The page's routes without a browser: the files with their policy, the deployment the page
/// trusts, the proving key that matches it, and `--no-web`.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn serve_hands_out_the_page_with_a_strict_policy_and_the_pinned_key() {
    use crate::api::Served;
    use sha2::{Digest, Sha256};
    use tronpool::api::ApiConfig;

    let served = Served::start(ApiConfig::default(), std::time::Duration::ZERO).await;
    let response = served.http.get(served.url("/")).send().await.unwrap();
    assert_eq!(response.status(), 200);
    let headers = response.headers().clone();
    assert_eq!(headers["content-type"], "text/html; charset=utf-8");
    let node = url::Url::parse(&served.devnet().url()).unwrap();
    assert_eq!(
        headers["content-security-policy"],
        format!(
            "default-src 'none'; script-src 'self' 'wasm-unsafe-eval'; worker-src 'self'; \
             connect-src 'self' {}; style-src 'self'; img-src 'self' data:; base-uri 'none'; \
             form-action 'none'; frame-ancestors 'none'",
            node.origin().ascii_serialization()
        )
        .as_str()
    );
    assert_eq!(headers["x-content-type-options"], "nosniff");
    let html = response.text().await.unwrap();
    assert!(html.contains(r#"<script type="module" src="/app.js">"#));
    assert!(
        !html.contains("<script>") && !html.contains("style="),
        "no inline script or style: the policy forbids them"
    );
    for (path, kind) in [
        ("/app.js", "text/javascript; charset=utf-8"),
        ("/prover.js", "text/javascript; charset=utf-8"),
        ("/style.css", "text/css; charset=utf-8"),
    ] {
        let response = served.http.get(served.url(path)).send().await.unwrap();
        assert_eq!(response.status(), 200, "{path}");
        assert_eq!(response.headers()["content-type"], kind, "{path}");
        assert!(response.headers().contains_key("content-security-policy"));
    }

    // The deployment the page trusts, and a proving key that belongs to its verifying key.
    let deployment = served.ok("/web/deployment.json", None).await;
    let keys = zk::keys::Keys::insecure_dev();
    assert_eq!(deployment["network"], "devnet");
    assert_eq!(
        deployment["verifyingKeySha256"],
        keys.verifying_key_sha256()
    );
    let key = served
        .http
        .get(served.url("/web/withdraw.key"))
        .send()
        .await
        .unwrap()
        .bytes()
        .await
        .unwrap();
    assert_eq!(
        deployment["provingKeySha256"],
        hex::encode(Sha256::digest(&key))
    );
    assert_eq!(deployment["provingKeyBytes"], key.len());
    // Tagged with its hash: a browser that holds it gets 304 and no body.
    let tag = format!("\"{}\"", deployment["provingKeySha256"].as_str().unwrap());
    let again = served
        .http
        .get(served.url("/web/withdraw.key"))
        .header("if-none-match", &tag)
        .send()
        .await
        .unwrap();
    assert_eq!(again.status(), 304);
    assert_eq!(again.headers()["etag"], tag.as_str());
    assert!(again.bytes().await.unwrap().is_empty());
    let loaded = web_prover::ops::load_key(&key).unwrap();
    assert_eq!(loaded["verifyingKeySha256"], keys.verifying_key_sha256());
    // Block 0 as the node has it: what a wallet on the same chain sees.
    let genesis = crate::relayer::client(&served.devnet().url())
        .get_block(0, false)
        .await
        .unwrap()
        .unwrap();
    assert_eq!(deployment["genesisBlockId"], hex::encode(genesis.block_id));
    // The prover is there exactly when this binary was built with it.
    let wasm = served
        .http
        .get(served.url("/prover.wasm"))
        .send()
        .await
        .unwrap();
    if deployment["prover"] == true {
        assert_eq!(wasm.status(), 200);
        assert_eq!(wasm.headers()["content-type"], "application/wasm");
        let raw = wasm.bytes().await.unwrap();
        assert_eq!(&raw[..4], b"\0asm");
        // Gzipped (at build time) for a browser that takes it: the same module, a third the size.
        let gzipped = served
            .http
            .get(served.url("/prover.wasm"))
            .header("accept-encoding", "br, gzip;q=0.8")
            .send()
            .await
            .unwrap();
        assert_eq!(gzipped.headers()["content-encoding"], "gzip");
        let gzipped = gzipped.bytes().await.unwrap();
        assert!(
            gzipped.len() < raw.len() / 2,
            "{} of {}",
            gzipped.len(),
            raw.len()
        );
        let mut unzipped = Vec::new();
        std::io::Read::read_to_end(
            &mut flate2::read::GzDecoder::new(gzipped.as_ref()),
            &mut unzipped,
        )
        .unwrap();
        assert!(unzipped == raw, "the gzipped module is the module");
        let tag = format!("\"{}\"", hex::encode(Sha256::digest(&raw)));
        let again = served
            .http
            .get(served.url("/prover.wasm"))
            .header("if-none-match", &tag)
            .send()
            .await
            .unwrap();
        assert_eq!(again.status(), 304, "the module is tagged with its hash");
    } else {
        assert_eq!(wasm.status(), 404);
        let body: Value = wasm.json().await.unwrap();
        assert!(
            body["error"]
                .as_str()
                .unwrap()
                .contains("scripts/web-prover")
        );
    }

    // --no-web: the API only; `/` is the API's 404.
    let api_only = Served::start(
        ApiConfig {
            web: false,
            ..ApiConfig::default()
        },
        std::time::Duration::ZERO,
    )
    .await;
    for path in ["/", "/app.js", "/web/deployment.json", "/web/withdraw.key"] {
        let (status, body) = api_only.get(path).await;
        assert_eq!(status, 404, "{path}: {body}");
        assert_eq!(body["ok"], false);
    }
    assert_eq!(api_only.get("/api/pools").await.0, 200);
}
