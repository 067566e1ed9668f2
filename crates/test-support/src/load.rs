//! A mixed HTTP load against a running `tronpool serve`, and what the server process holds
//! while it runs: the soak test (`tests/it/soak.rs`) and the long soak bench
//! (`benches/soak.rs`) share it, so both send the same traffic and read the same figures.
//!
//! The load is what one client and many clients send a public API: pool reads, balances of
//! addresses nobody holds, unknown paths, malformed bodies, relayer status, and far more than
//! the rate limits allow. "Many clients" are real peers, not forwarded headers: each opens its
//! connections from its own loopback source address (`127.0.x.y`; Linux routes all of
//! 127.0.0.0/8 to the loopback interface), so the server's per-client limiter sees that many
//! keys. Connections are keep-alive HTTP/1.1 written by hand: a client library's own pooling and
//! retries would hide what the server does with each request.
//!
//! Every loop here is bounded by a deadline, and every address is on loopback.

use std::net::{IpAddr, Ipv4Addr, SocketAddr};
use std::sync::Arc;
use std::sync::atomic::{AtomicU64, Ordering};
use std::time::{Duration, Instant};

use tokio::io::{AsyncBufReadExt, AsyncReadExt, AsyncWriteExt, BufReader};
use tokio::net::{TcpSocket, TcpStream};

/// One request of the mix, written out once.
#[derive(Debug, Clone)]
pub struct Request {
    /// A short name for the counts (`pool`, `balance`, …).
    pub kind: &'static str,
    bytes: Arc<[u8]>,
}

impl Request {
    pub fn get(kind: &'static str, path: &str) -> Request {
        Request {
            kind,
            bytes: format!("GET {path} HTTP/1.1\r\nHost: soak\r\n\r\n")
                .into_bytes()
                .into(),
        }
    }

    pub fn post(kind: &'static str, path: &str, content_type: &str, body: &[u8]) -> Request {
        let mut bytes = format!(
            "POST {path} HTTP/1.1\r\nHost: soak\r\nContent-Type: {content_type}\r\n\
             Content-Length: {}\r\n\r\n",
            body.len()
        )
        .into_bytes();
        bytes.extend_from_slice(body);
        Request {
            kind,
            bytes: bytes.into(),
        }
    }
}

/// A TRON address nobody holds, different for every `n`: base58check of 0x41 and 20 bytes
/// derived from `n`. Balance reads of such addresses reach the node, and a cache keyed by the
/// address would grow with each.
pub fn fresh_address(n: u64) -> String {
    use sha2::{Digest, Sha256};
    let mut raw = vec![0x41u8];
    raw.extend_from_slice(&Sha256::digest(n.to_le_bytes())[..20]);
    bs58::encode(raw).with_check().into_string()
}

/// The mix a client cycles through: mostly cheap reads, plus every kind of request a stranger
/// can send that must leave nothing behind. `seed` varies the balance addresses per client.
pub fn mix(seed: u64) -> impl FnMut(u64) -> Request {
    let fixed = [
        Request::get("pool", "/api/pools/100"),
        Request::get("pool", "/api/pools"),
        Request::get("unknown", "/api/nope"),
        Request::get("unknown", "/nowhere/at/all"),
        Request::get("bad_input", "/api/pools/12x"),
        Request::post(
            "bad_input",
            "/api/pools/100/check-spent",
            "application/json",
            b"{\"nullifierHash\": 12",
        ),
        Request::post(
            "bad_input",
            "/api/tx/deposit",
            "text/plain",
            b"not json at all",
        ),
        Request::post(
            "bad_input",
            "/api/relayer/withdraw",
            "application/json",
            b"{\"proof\":\"zz\"}",
        ),
        Request::get("relayer", "/api/relayer/status"),
        Request::get("pool", "/api/pools/100/root"),
    ];
    move |i| {
        if i % 4 == 3 {
            Request::get(
                "balance",
                &format!("/api/balance/{}", fresh_address(seed ^ (i << 20))),
            )
        } else {
            fixed[(i as usize) % fixed.len()].clone()
        }
    }
}

/// Answers by status class, and connections the server closed.
#[derive(Debug, Default)]
pub struct Counts {
    pub ok: AtomicU64,
    pub client_error: AtomicU64,
    pub rate_limited: AtomicU64,
    pub server_error: AtomicU64,
    pub reconnects: AtomicU64,
}

impl Counts {
    pub fn total(&self) -> u64 {
        self.ok.load(Ordering::Relaxed)
            + self.client_error.load(Ordering::Relaxed)
            + self.rate_limited.load(Ordering::Relaxed)
            + self.server_error.load(Ordering::Relaxed)
    }

    fn count(&self, status: u16) {
        let slot = match status {
            429 => &self.rate_limited,
            200..=299 => &self.ok,
            400..=499 => &self.client_error,
            _ => &self.server_error,
        };
        slot.fetch_add(1, Ordering::Relaxed);
    }

    pub fn summary(&self) -> String {
        format!(
            "{} answers: {} ok, {} 4xx, {} 429, {} 5xx; {} reconnects",
            self.total(),
            self.ok.load(Ordering::Relaxed),
            self.client_error.load(Ordering::Relaxed),
            self.rate_limited.load(Ordering::Relaxed),
            self.server_error.load(Ordering::Relaxed),
            self.reconnects.load(Ordering::Relaxed),
        )
    }
}

/// One keep-alive connection from a chosen loopback source address.
struct Connection {
    server: SocketAddr,
    from: IpAddr,
    stream: Option<BufReader<TcpStream>>,
    line: String,
    body: Vec<u8>,
}

impl Connection {
    fn new(server: SocketAddr, from: IpAddr) -> Connection {
        Connection {
            server,
            from,
            stream: None,
            line: String::new(),
            body: Vec::new(),
        }
    }

    async fn connect(&mut self) -> std::io::Result<&mut BufReader<TcpStream>> {
        if self.stream.is_none() {
            let socket = TcpSocket::new_v4()?;
            socket.bind(SocketAddr::new(self.from, 0))?;
            let stream = socket.connect(self.server).await?;
            stream.set_nodelay(true)?;
            self.stream = Some(BufReader::new(stream));
        }
        Ok(self.stream.as_mut().expect("connected above"))
    }

    /// Sends one request and reads its whole answer; the status, or `None` when the server
    /// closed the connection (it is opened again for the next request).
    async fn send(&mut self, request: &Request) -> Option<u16> {
        match self.exchange(request).await {
            Ok(status) => Some(status),
            Err(_) => {
                self.stream = None;
                None
            }
        }
    }

    async fn exchange(&mut self, request: &Request) -> std::io::Result<u16> {
        let bytes = Arc::clone(&request.bytes);
        let mut line = std::mem::take(&mut self.line);
        let mut body = std::mem::take(&mut self.body);
        let stream = self.connect().await?;
        stream.get_mut().write_all(&bytes).await?;
        let mut status = 0u16;
        let mut length = 0usize;
        let mut close = false;
        loop {
            line.clear();
            if stream.read_line(&mut line).await? == 0 {
                return Err(std::io::ErrorKind::UnexpectedEof.into());
            }
            if status == 0 {
                status = line
                    .split_whitespace()
                    .nth(1)
                    .and_then(|s| s.parse().ok())
                    .ok_or(std::io::ErrorKind::InvalidData)?;
                continue;
            }
            if line == "\r\n" {
                break;
            }
            let lower = line.to_ascii_lowercase();
            if let Some(value) = lower.strip_prefix("content-length:") {
                length = value
                    .trim()
                    .parse()
                    .map_err(|_| std::io::ErrorKind::InvalidData)?;
            } else if lower.starts_with("connection:") && lower.contains("close") {
                close = true;
            }
        }
        body.resize(length, 0);
        stream.read_exact(&mut body).await?;
        if close {
            self.stream = None;
        }
        self.line = line;
        self.body = body;
        Ok(status)
    }
}

/// Who sends the load.
#[derive(Debug, Clone)]
pub struct LoadShape {
    /// Connections of the one heavy client (from 127.0.0.1): it floods far past its limit.
    pub heavy_connections: usize,
    /// Other clients, each with one connection from its own address (127.0.1.1, 127.0.1.2, …).
    pub clients: usize,
    /// A pause between two requests of one of the many clients (the heavy one never pauses).
    pub client_pause: Duration,
}

impl Default for LoadShape {
    fn default() -> Self {
        LoadShape {
            heavy_connections: 8,
            clients: 64,
            client_pause: Duration::from_millis(2),
        }
    }
}

/// The source address of the `i`-th of the many clients.
fn client_address(i: usize) -> IpAddr {
    let i = i + 1;
    IpAddr::V4(Ipv4Addr::new(
        127,
        1 + (i / 250) as u8,
        1 + (i % 250) as u8,
        1,
    ))
}

/// Sends the mix to `server` until `until`, from the heavy client and the many, counting the
/// answers in `counts` as they come; returns when every connection has stopped. Call it
/// inside a multi-threaded tokio runtime.
pub async fn run(server: SocketAddr, shape: &LoadShape, until: Instant, counts: Arc<Counts>) {
    let mut tasks = Vec::new();
    let sources = (0..shape.heavy_connections)
        .map(|_| (IpAddr::V4(Ipv4Addr::LOCALHOST), Duration::ZERO))
        .chain((0..shape.clients).map(|i| (client_address(i), shape.client_pause)));
    for (n, (from, pause)) in sources.enumerate() {
        let counts = Arc::clone(&counts);
        tasks.push(tokio::spawn(async move {
            let mut connection = Connection::new(server, from);
            let mut next = mix(n as u64);
            let mut i = 0u64;
            while Instant::now() < until {
                let request = next(i);
                i += 1;
                match connection.send(&request).await {
                    Some(status) => counts.count(status),
                    None => {
                        counts.reconnects.fetch_add(1, Ordering::Relaxed);
                        // A server that refuses connections outright: do not spin.
                        tokio::time::sleep(Duration::from_millis(10)).await;
                    }
                }
                if !pause.is_zero() {
                    tokio::time::sleep(pause).await;
                }
            }
        }));
    }
    for task in tasks {
        task.await.expect("a load connection");
    }
}

/// Starts `BINARY --json ARGS` (a long-running command that announces itself: `serve`,
/// `devnet`) with `home` as its `TRONPOOL_HOME`, its log (stderr) going to `log`; returns the
/// process and the announcement's envelope (its first line on stdout).
pub fn spawn_announced(
    binary: &str,
    home: &std::path::Path,
    args: &[&str],
    log: std::process::Stdio,
) -> (std::process::Child, serde_json::Value) {
    use std::io::BufRead;
    let mut child = std::process::Command::new(binary)
        .env("TRONPOOL_HOME", home)
        .arg("--json")
        .args(args)
        .stdout(std::process::Stdio::piped())
        .stderr(log)
        .spawn()
        .expect("tronpool starts");
    let mut line = String::new();
    std::io::BufReader::new(child.stdout.take().expect("piped above"))
        .read_line(&mut line)
        .expect("an announcement");
    let announced = serde_json::from_str(&line).expect("the envelope");
    (child, announced)
}

/// A TCP load balancer in front of `upstreams` on the caller's runtime: each new connection
/// goes to the next upstream in turn, as nginx's round robin does. Answers its URL.
pub async fn round_robin(upstreams: Vec<SocketAddr>) -> String {
    use std::sync::atomic::AtomicUsize;
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let addr = listener.local_addr().unwrap();
    let next = Arc::new(AtomicUsize::new(0));
    tokio::spawn(async move {
        while let Ok((mut client, _)) = listener.accept().await {
            let upstream = upstreams[next.fetch_add(1, Ordering::SeqCst) % upstreams.len()];
            tokio::spawn(async move {
                if let Ok(mut server) = tokio::net::TcpStream::connect(upstream).await {
                    let _ = tokio::io::copy_bidirectional(&mut client, &mut server).await;
                }
            });
        }
    });
    format!("http://{addr}")
}

/// `tronpool devnet` on a free port with three funded accounts (the deployer, the relayer and
/// a depositor), sealing each transaction as it is broadcast: the arguments the relayer's
/// process tests and the replica bench start it with.
pub const DEVNET_SEALING_ON_BROADCAST: &[&str] = &[
    "devnet",
    "--port",
    "0",
    "--accounts",
    "3",
    "--block-time",
    "0",
];

/// Where an announced `serve` or `devnet` listens (its envelope's `data.url`), as `host:port`.
pub fn announced_address(announced: &serde_json::Value) -> SocketAddr {
    assert_eq!(announced["ok"], true, "{announced}");
    announced["data"]["url"]
        .as_str()
        .expect("a url")
        .trim_start_matches("http://")
        .trim_end_matches('/')
        .parse()
        .expect("host:port")
}

/// A `tronpool devnet` and a `tronpool serve` in front of it, as two processes: the node is
/// another machine in production, so what the soak measures is `serve`'s memory alone. Both
/// are killed when this is dropped.
pub struct ServeOnDevnet {
    pub serve: std::process::Child,
    pub devnet: std::process::Child,
    /// Where `serve` listens.
    pub addr: SocketAddr,
}

impl ServeOnDevnet {
    /// Starts both with `binary`, homes under `dir`, `serve`'s log in `dir/serve.log`.
    pub fn start(binary: &str, dir: &std::path::Path) -> ServeOnDevnet {
        use std::process::Stdio;
        let (devnet, announced) = spawn_announced(
            binary,
            &dir.join("devnet-home"),
            &["devnet", "--port", "0", "--accounts", "2"],
            Stdio::null(),
        );
        let node = format!("http://{}", announced_address(&announced));
        let log = std::fs::File::create(dir.join("serve.log")).expect("a log file");
        let (serve, announced) = spawn_announced(
            binary,
            &dir.join("serve-home"),
            &["--node", &node, "serve", "--listen", "127.0.0.1:0"],
            Stdio::from(log),
        );
        let addr = announced_address(&announced);
        ServeOnDevnet {
            serve,
            devnet,
            addr,
        }
    }
}

impl Drop for ServeOnDevnet {
    fn drop(&mut self) {
        for child in [&mut self.serve, &mut self.devnet] {
            let _ = child.kill();
            let _ = child.wait();
        }
    }
}

/// What a process holds, read from `/proc/PID`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct ProcessSample {
    /// Resident set size, KiB (`VmRSS`).
    pub rss_kib: u64,
    pub threads: u64,
    pub open_fds: u64,
}

impl ProcessSample {
    /// `None` where `/proc` has no such process (not Linux, or it ended).
    pub fn of(pid: u32) -> Option<ProcessSample> {
        let status = std::fs::read_to_string(format!("/proc/{pid}/status")).ok()?;
        let field = |name: &str| {
            status
                .lines()
                .find_map(|l| l.strip_prefix(name))
                .and_then(|v| v.split_whitespace().next())
                .and_then(|v| v.parse::<u64>().ok())
        };
        let open_fds = std::fs::read_dir(format!("/proc/{pid}/fd")).ok()?.count() as u64;
        Some(ProcessSample {
            rss_kib: field("VmRSS:")?,
            threads: field("Threads:")?,
            open_fds,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn fresh_addresses_are_valid_and_distinct() {
        let a = fresh_address(1);
        let b = fresh_address(2);
        assert_ne!(a, b);
        for address in [a, b] {
            assert!(address.starts_with('T'), "{address}");
            assert_eq!(address.len(), 34, "{address}");
            let raw = bs58::decode(&address).into_vec().unwrap();
            assert_eq!(raw.len(), 25);
            assert_eq!(raw[0], 0x41);
        }
    }

    #[test]
    fn this_process_has_a_sample() {
        let sample = ProcessSample::of(std::process::id()).unwrap();
        assert!(sample.rss_kib > 0 && sample.threads > 0 && sample.open_fds > 0);
    }
}
