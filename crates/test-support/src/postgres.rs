//! PostgreSQL for the tests: a fresh database on the throwaway server `scripts/test` starts
//! (`scripts/postgres.sh` exports its URL in [`URL_VAR`]), and a TCP path to it that a test
//! can cut and restore (the database going away mid-run, without stopping the server every
//! other test shares).

use std::net::SocketAddr;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};

/// Where the test server is.
pub const URL_VAR: &str = "TRONPOOL_TEST_POSTGRES";
/// The PEM of the CA that signed the test server's certificate, when it offers TLS.
pub const CA_VAR: &str = "TRONPOOL_TEST_POSTGRES_CA";

/// A new, empty database on the test server, named uniquely; its URL. `None`, after saying
/// so on stderr, when the tests run without a server (a plain `cargo test`).
pub fn fresh_database(test: &str) -> Option<String> {
    let Ok(server) = std::env::var(URL_VAR) else {
        eprintln!("{test}: skipped on PostgreSQL ({URL_VAR} is not set; scripts/test sets it)");
        return None;
    };
    Some(fresh_url(&server))
}

/// Makes a database with a unique name on the server at `server`; answers its URL.
pub fn fresh_url(server: &str) -> String {
    use std::time::{SystemTime, UNIX_EPOCH};
    let nanos = SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .unwrap()
        .as_nanos();
    let name = format!("t_{}_{nanos}", std::process::id());
    // On a thread of its own: the caller may be an async test, whose thread cannot block.
    let (url, create) = (server.to_owned(), format!("CREATE DATABASE {name}"));
    std::thread::spawn(move || {
        let runtime = tokio::runtime::Builder::new_current_thread()
            .enable_all()
            .build()
            .unwrap();
        runtime.block_on(async {
            let (client, connection) = tokio_postgres::connect(&url, tokio_postgres::NoTls)
                .await
                .expect("the test server");
            tokio::spawn(connection);
            client
                .batch_execute(&create)
                .await
                .expect("CREATE DATABASE");
        });
    })
    .join()
    .unwrap();
    let (base, _) = server.rsplit_once('/').expect("a URL with a database");
    format!("{base}/{name}")
}

/// A TCP forwarder to `upstream` that can be cut: while it is down, open connections are
/// dropped and new ones refused (closed at once), as when the database's host goes away.
pub struct Cuttable {
    pub addr: SocketAddr,
    up: Arc<AtomicBool>,
    cut: Arc<tokio::sync::Notify>,
}

impl Cuttable {
    /// Starts forwarding on a free loopback port, on the caller's runtime.
    pub async fn start(upstream: SocketAddr) -> Cuttable {
        let up = Arc::new(AtomicBool::new(true));
        let cut = Arc::new(tokio::sync::Notify::new());
        let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
        let addr = listener.local_addr().unwrap();
        let (up_, cut_) = (up.clone(), cut.clone());
        tokio::spawn(async move {
            while let Ok((mut client, _)) = listener.accept().await {
                if !up_.load(Ordering::SeqCst) {
                    continue; // dropped: closed at once
                }
                let cut = cut_.clone();
                tokio::spawn(async move {
                    let Ok(mut server) = tokio::net::TcpStream::connect(upstream).await else {
                        return;
                    };
                    tokio::select! {
                        _ = tokio::io::copy_bidirectional(&mut client, &mut server) => {}
                        () = cut.notified() => {}
                    }
                });
            }
        });
        Cuttable { addr, up, cut }
    }

    /// Cuts every open connection and refuses new ones until [`Cuttable::restore`].
    pub fn cut(&self) {
        self.up.store(false, Ordering::SeqCst);
        self.cut.notify_waiters();
    }

    pub fn restore(&self) {
        self.up.store(true, Ordering::SeqCst);
    }

    /// `url` (a PostgreSQL URL) with its host and port replaced by this forwarder's.
    pub fn url_for(&self, url: &str) -> String {
        let (scheme_user, rest) = url.split_once('@').expect("postgres://user@host:port/db");
        let (_, db) = rest.split_once('/').expect("a database");
        format!("{scheme_user}@{}/{db}", self.addr)
    }
}
