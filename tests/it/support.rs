//! The harness: an isolated home for each test, the binary, and a stand-in node.

use std::net::SocketAddr;
use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex};

use assert_cmd::Command;
use serde_json::Value;

/// A private TRONPOOL_HOME and a clean environment, so no test sees the developer's files.
pub struct TestEnv {
    pub dir: tempfile::TempDir,
}

impl TestEnv {
    pub fn new() -> Self {
        TestEnv {
            dir: tempfile::tempdir().expect("temp dir"),
        }
    }

    pub fn home(&self) -> PathBuf {
        self.dir.path().join("home")
    }

    pub fn path(&self, name: &str) -> PathBuf {
        self.dir.path().join(name)
    }

    pub fn cmd(&self) -> Command {
        let mut cmd = Command::new(env!("CARGO_BIN_EXE_tronpool"));
        for (key, _) in std::env::vars_os() {
            let key = key.to_string_lossy();
            if key.starts_with("TRONPOOL_") || key == "CI" {
                cmd.env_remove(key.as_ref());
            }
        }
        cmd.env("TRONPOOL_HOME", self.home())
            .env("HOME", self.dir.path())
            .env("XDG_CONFIG_HOME", self.dir.path().join("xdg-config"))
            .env("XDG_DATA_HOME", self.dir.path().join("xdg-data"))
            .env("NO_COLOR", "1")
            .current_dir(self.dir.path());
        cmd
    }

    pub fn write(&self, name: &str, text: &str) -> PathBuf {
        let path = self.path(name);
        std::fs::write(&path, text).expect("write");
        path
    }
}

/// Runs a command with `--json` and returns (exit code, parsed stdout).
pub fn json_run(cmd: &mut Command) -> (i32, Value) {
    let output = cmd.arg("--json").output().expect("run");
    let stdout = String::from_utf8(output.stdout).expect("utf-8");
    let value: Value = serde_json::from_str(stdout.trim()).unwrap_or_else(|e| {
        panic!(
            "stdout is not one JSON document ({e}): {stdout:?}; stderr: {}",
            String::from_utf8_lossy(&output.stderr)
        )
    });
    (output.status.code().unwrap_or(-1), value)
}

#[cfg(unix)]
pub fn mode(path: &Path) -> u32 {
    use std::os::unix::fs::PermissionsExt;
    std::fs::metadata(path).unwrap().permissions().mode() & 0o777
}

/// What the stand-in node saw.
#[derive(Default)]
pub struct Seen {
    pub requests: Vec<(String, Value)>,
}

/// A stand-in FullNode answering `broadcasthex` the way java-tron does: it decodes the
/// protobuf, recovers the signer and refuses signatures that are not the owner's.
pub struct StubNode {
    pub url: String,
    pub seen: Arc<Mutex<Seen>>,
    _runtime: tokio::runtime::Runtime,
}

impl StubNode {
    pub fn start() -> Self {
        use axum::{Json, Router, extract::State, routing::post};

        async fn broadcast_hex(
            State(seen): State<Arc<Mutex<Seen>>>,
            Json(body): Json<Value>,
        ) -> Json<Value> {
            seen.lock()
                .unwrap()
                .requests
                .push(("wallet/broadcasthex".into(), body.clone()));
            let hex_text = body["transaction"].as_str().unwrap_or_default();
            let Ok(bytes) = hex::decode(hex_text) else {
                return Json(
                    serde_json::json!({"Error": "class org.bouncycastle.util.encoders.DecoderException : bad hex"}),
                );
            };
            let Ok(tx) = tron::Transaction::from_protobuf(&bytes) else {
                return Json(
                    serde_json::json!({"Error": "class com.google.protobuf.InvalidProtocolBufferException : bad"}),
                );
            };
            let txid = tx.txid().to_hex();
            // A transfer of 13 sun stands for everything only the node can judge (TaPoS here).
            if matches!(tx.action(), Ok(tron::Action::Transfer { amount: 13, .. })) {
                return Json(serde_json::json!({"result": false, "code": "TAPOS_ERROR",
                    "message": hex::encode("Tapos check error."), "txid": txid}));
            }
            let owner = tx.owner().unwrap();
            if tx.signers().ok().is_some_and(|s| s.contains(&owner)) {
                Json(
                    serde_json::json!({"result": true, "code": "SUCCESS", "txid": txid, "message": ""}),
                )
            } else {
                Json(serde_json::json!({"result": false, "code": "SIGERROR",
                    "message": "Validate signature error: signature is not the owner's", "txid": txid}))
            }
        }

        let seen = Arc::new(Mutex::new(Seen::default()));
        let runtime = tokio::runtime::Builder::new_multi_thread()
            .worker_threads(1)
            .enable_all()
            .build()
            .unwrap();
        let listener = runtime
            .block_on(tokio::net::TcpListener::bind("127.0.0.1:0"))
            .unwrap();
        let addr: SocketAddr = listener.local_addr().unwrap();
        let app = Router::new()
            .route("/wallet/broadcasthex", post(broadcast_hex))
            .with_state(seen.clone());
        runtime.spawn(async move { axum::serve(listener, app).await });
        StubNode {
            url: format!("http://{addr}"),
            seen,
            _runtime: runtime,
        }
    }
}

/// A devnet on its own runtime, so the tests can stay synchronous around the binary.
pub struct TestChain {
    pub devnet: devnet::DevnetHandle,
    pub runtime: tokio::runtime::Runtime,
}

impl TestChain {
    pub fn start() -> TestChain {
        Self::with(devnet::DevnetConfig::ephemeral())
    }

    /// A devnet whose deployer staked nothing (`devnet --no-sponsor`): its pools' callers
    /// pay all their energy until someone stakes.
    pub fn unsponsored() -> TestChain {
        Self::with(devnet::DevnetConfig {
            sponsor: false,
            ..devnet::DevnetConfig::ephemeral()
        })
    }

    pub fn with(config: devnet::DevnetConfig) -> TestChain {
        let runtime = tokio::runtime::Builder::new_multi_thread()
            .worker_threads(2)
            .enable_all()
            .build()
            .unwrap();
        let devnet = runtime.block_on(devnet::spawn(config)).unwrap();
        TestChain { devnet, runtime }
    }

    pub fn url(&self) -> String {
        self.devnet.url()
    }
}

impl TestChain {
    /// The devnet's node behind a proxy that hides what makes it a tronpool devnet: its
    /// `/devnet/*` routes answer 404 and block 0 comes back with another id (only the first
    /// byte changed, so the chain id, its last four bytes, stays the devnet's). To tronpool it
    /// is a real network that happens to run the same contracts.
    pub fn disguised(&self) -> String {
        use axum::body::Bytes;
        use axum::http::{Method, StatusCode, Uri};
        use axum::response::IntoResponse;

        let _ = rustls::crypto::ring::default_provider().install_default();
        let upstream = self.devnet.url();
        let handler = move |method: Method, uri: Uri, body: Bytes| {
            let upstream = upstream.clone();
            async move {
                if uri.path().starts_with("/devnet/") {
                    return (StatusCode::NOT_FOUND, "not found").into_response();
                }
                let (status, mut text) = forward(&upstream, method, &uri, &body).await;
                let asks_block_zero = serde_json::from_slice::<Value>(&body)
                    .ok()
                    .is_some_and(|b| b["id_or_num"] == "0" || b["num"] == 0);
                let reads_block =
                    uri.path().ends_with("getblock") || uri.path().ends_with("getblockbynum");
                if reads_block && asks_block_zero {
                    let mut block: Value = serde_json::from_str(&text).unwrap();
                    let id = block["blockID"].as_str().unwrap().to_owned();
                    block["blockID"] = Value::String(format!("ff{}", &id[2..]));
                    text = block.to_string();
                }
                (status, [("content-type", "application/json")], text).into_response()
            }
        };
        let app = axum::Router::new().fallback(handler);
        let listener = self
            .runtime
            .block_on(tokio::net::TcpListener::bind("127.0.0.1:0"))
            .unwrap();
        let addr = listener.local_addr().unwrap();
        self.runtime
            .spawn(async move { axum::serve(listener, app).await.unwrap() });
        format!("http://{addr}")
    }
}

/// Passes a request a test proxy received on to the node at `upstream`, as it came; returns
/// the node's status and body.
pub async fn forward(
    upstream: &str,
    method: axum::http::Method,
    uri: &axum::http::Uri,
    body: &[u8],
) -> (reqwest::StatusCode, String) {
    let url = format!(
        "{upstream}{}",
        uri.path_and_query().map_or("", |p| p.as_str())
    );
    let answer = reqwest::Client::new()
        .request(method, url)
        .header("content-type", "application/json")
        .body(body.to_vec())
        .send()
        .await
        .unwrap();
    let status = answer.status();
    (status, answer.text().await.unwrap())
}

/// A minimal SOCKS5 server (RFC 1928: no authentication, CONNECT only) on `runtime`, for
/// proving where a client's traffic goes. It resolves the names it is asked for itself, and
/// knows only `*.tronpool.test`, which it sends to 127.0.0.1: a client that reaches such a
/// name went through it, since nothing else can resolve it. Every `host:port` asked for is
/// recorded.
pub struct Socks5 {
    pub url: String,
    pub seen: Arc<Mutex<Vec<String>>>,
}

impl Socks5 {
    pub fn start(runtime: &tokio::runtime::Runtime) -> Socks5 {
        use tokio::io::{AsyncReadExt, AsyncWriteExt};

        async fn serve(
            mut client: tokio::net::TcpStream,
            seen: Arc<Mutex<Vec<String>>>,
        ) -> std::io::Result<()> {
            let mut greeting = [0u8; 2];
            client.read_exact(&mut greeting).await?;
            let mut methods = vec![0u8; usize::from(greeting[1])];
            client.read_exact(&mut methods).await?;
            if greeting[0] != 5 || !methods.contains(&0) {
                client.write_all(&[5, 0xff]).await?;
                return Ok(());
            }
            client.write_all(&[5, 0]).await?;
            let mut request = [0u8; 4];
            client.read_exact(&mut request).await?;
            let host = match request[3] {
                // A name: what socks5h sends, so that the proxy resolves it.
                3 => {
                    let mut len = [0u8; 1];
                    client.read_exact(&mut len).await?;
                    let mut name = vec![0u8; usize::from(len[0])];
                    client.read_exact(&mut name).await?;
                    String::from_utf8_lossy(&name).into_owned()
                }
                1 => {
                    let mut ip = [0u8; 4];
                    client.read_exact(&mut ip).await?;
                    std::net::Ipv4Addr::from(ip).to_string()
                }
                _ => {
                    let mut ip = [0u8; 16];
                    client.read_exact(&mut ip).await?;
                    std::net::Ipv6Addr::from(ip).to_string()
                }
            };
            let mut port = [0u8; 2];
            client.read_exact(&mut port).await?;
            let port = u16::from_be_bytes(port);
            seen.lock().unwrap().push(format!("{host}:{port}"));
            let reply_fail = [5, 4, 0, 1, 0, 0, 0, 0, 0, 0];
            if request[1] != 1 || !host.ends_with(".tronpool.test") {
                client.write_all(&reply_fail).await?;
                return Ok(());
            }
            let Ok(mut upstream) = tokio::net::TcpStream::connect(("127.0.0.1", port)).await else {
                client.write_all(&reply_fail).await?;
                return Ok(());
            };
            client.write_all(&[5, 0, 0, 1, 127, 0, 0, 1, 0, 0]).await?;
            tokio::io::copy_bidirectional(&mut client, &mut upstream).await?;
            Ok(())
        }

        let seen = Arc::new(Mutex::new(Vec::new()));
        let listener = runtime
            .block_on(tokio::net::TcpListener::bind("127.0.0.1:0"))
            .unwrap();
        let addr = listener.local_addr().unwrap();
        let recorded = seen.clone();
        runtime.spawn(async move {
            while let Ok((client, _)) = listener.accept().await {
                tokio::spawn(serve(client, recorded.clone()));
            }
        });
        Socks5 {
            url: format!("socks5h://{addr}"),
            seen,
        }
    }
}

/// Starts `tronpool --json … serve` with `args` in `env`'s home, its log (stderr) going to
/// `log`; returns the process and the announcement's envelope (its first line on stdout).
pub fn spawn_serve(
    env: &TestEnv,
    args: &[&str],
    log: std::process::Stdio,
) -> (std::process::Child, Value) {
    test_support::load::spawn_announced(env!("CARGO_BIN_EXE_tronpool"), &env.home(), args, log)
}

/// Inserts every deposit queued in the pool of `denomination` on the devnet at `node`, with
/// `tronpool pool insert` signed by dev account 0 (the devnet's default key): what a
/// depositor who does not wait for a batcher runs. Returns the batches' reports.
pub fn insert_queued(node: &str, denomination: u64) -> Value {
    test_support::relay::insert_queued(env!("CARGO_BIN_EXE_tronpool"), node, denomination)
}
