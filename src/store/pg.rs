//! PostgreSQL, for what `serve`'s replicas share (`serve --database postgres://…`): a pool of
//! connections driven by a small runtime of its own, the schema's versioned migrations, and
//! the advisory locks replicas take turns with.
//!
//! The stores' interface is synchronous (the CLI and `serve` share it, and SQLite is), so a
//! call blocks its thread on this runtime the way a SQLite call blocks on the disk: on
//! `serve`'s workers it first hands their queued tasks to the others
//! (`tokio::task::block_in_place`), as `store::db::Shared::with` does. The connections live
//! on the pool's own runtime, so they outlast whichever runtime asked first.
//!
//! Rolling upgrades: the schema table records the version the database is at and the oldest
//! version whose code still works against it (`readable_by`). A migration that only adds
//! (a table, a nullable column, an index) keeps `readable_by`, so replicas of the release
//! before keep running beside an upgraded one; one that removes or changes what older code
//! reads raises it, and older replicas then refuse to start rather than misread.

use std::future::Future;
use std::str::FromStr;
use std::sync::Arc;
use std::time::Duration;

use deadpool_postgres::{Manager, ManagerConfig, Pool, RecyclingMethod};
use tokio_postgres::NoTls;

use crate::error::{Error, Result, StoreError};
use crate::store::sql_error::DbError;

/// How long a call waits for a connection (or for one to be made) before the database
/// counts as unavailable.
const CONNECT_PATIENCE: Duration = Duration::from_secs(5);

/// Connections per replica.
const POOL_SIZE: usize = 16;

/// The advisory lock key migrations are taken under, so two replicas starting at once
/// migrate once, in turn (`pg_advisory_xact_lock`).
const MIGRATION_LOCK: i64 = 0x7472_6f6e_706f_6f6c; // "tronpool"

/// One schema step.
struct Migration {
    what: &'static str,
    /// The oldest schema version whose code still works once this step ran.
    readable_by: i64,
    sql: &'static str,
}

/// Every step, oldest first: a database at version N has had the first N. The tables are
/// SQLite's (`store::schema`), as far as the shared stores use them, with every integer a
/// `BIGINT`.
const MIGRATIONS: &[Migration] = &[Migration {
    what: "the submit journal, relayer jobs and reservations, job leases, shared rate budgets, \
           named leases, what the batcher spent against its daily budget",
    readable_by: 1,
    sql: "
CREATE TABLE submissions (
    txid         TEXT PRIMARY KEY,
    purpose      TEXT NOT NULL,
    reference    TEXT NOT NULL,
    exclusive    BIGINT NOT NULL,
    signed_hex   TEXT NOT NULL,
    expiration   BIGINT NOT NULL,
    state        TEXT NOT NULL,
    error        TEXT,
    block        BIGINT,
    energy_used  BIGINT,
    fee_sun      BIGINT,
    attempts     BIGINT NOT NULL DEFAULT 0,
    retry_at     BIGINT NOT NULL DEFAULT 0,
    created_at   BIGINT NOT NULL,
    updated_at   BIGINT NOT NULL,
    lease_owner  TEXT,
    lease_until  BIGINT NOT NULL DEFAULT 0
);
CREATE UNIQUE INDEX submissions_live
    ON submissions (purpose, reference) WHERE exclusive = 1 AND state <> 'failed';
CREATE INDEX submissions_open
    ON submissions (purpose, state) WHERE state IN ('signed', 'broadcast', 'included');
CREATE TABLE relayer_jobs (
    txid            TEXT PRIMARY KEY REFERENCES submissions (txid),
    pool            TEXT NOT NULL,
    denomination    BIGINT NOT NULL,
    nullifier_hash  TEXT NOT NULL,
    recipient       TEXT NOT NULL,
    fee             TEXT NOT NULL,
    refund          TEXT NOT NULL
);
CREATE INDEX relayer_jobs_nullifier ON relayer_jobs (nullifier_hash);
CREATE INDEX relayer_jobs_note ON relayer_jobs (pool, nullifier_hash);
CREATE TABLE relayer_reservations (
    txid              TEXT PRIMARY KEY REFERENCES submissions (txid),
    energy            BIGINT NOT NULL,
    staked_bandwidth  BIGINT NOT NULL,
    free_bandwidth    BIGINT NOT NULL,
    trx_sun           BIGINT NOT NULL,
    sponsor           TEXT,
    sponsor_energy    BIGINT NOT NULL
);
CREATE INDEX relayer_reservations_sponsor
    ON relayer_reservations (sponsor) WHERE sponsor IS NOT NULL;
CREATE TABLE rate_budgets (
    budget  TEXT NOT NULL,
    client  TEXT NOT NULL,
    tat     BIGINT NOT NULL,
    PRIMARY KEY (budget, client)
);
CREATE TABLE leases (
    name   TEXT PRIMARY KEY,
    owner  TEXT NOT NULL,
    until  BIGINT NOT NULL
);
CREATE TABLE budget_spent (
    budget  TEXT NOT NULL,
    at      BIGINT NOT NULL,
    sun     BIGINT NOT NULL
);
CREATE INDEX budget_spent_at ON budget_spent (budget, at);
",
}];

/// The version a PostgreSQL database has once every step ran.
pub fn latest() -> i64 {
    MIGRATIONS.len() as i64
}

/// A pool of connections to one PostgreSQL database, on a runtime of its own.
pub struct Pg {
    pool: Pool,
    runtime: Option<tokio::runtime::Runtime>,
    handle: tokio::runtime::Handle,
    /// `host:port/database`, without the user or the password, for messages.
    target: String,
}

impl Pg {
    /// Connects to `url` (`postgres://user:password@host:port/database`), checks it can be
    /// reached, and brings its schema up to date. The URL's password never appears in an
    /// error.
    pub fn connect(url: &str) -> Result<Arc<Pg>> {
        Self::connect_with(url, None, None)
    }

    /// [`Pg::connect`] with the password given apart from the URL (it wins over the URL's),
    /// and the CA certificates (a PEM file) the server's may chain to besides the system's.
    pub fn connect_with(
        url: &str,
        password: Option<&str>,
        ca_file: Option<&std::path::Path>,
    ) -> Result<Arc<Pg>> {
        let mut config = tokio_postgres::Config::from_str(url).map_err(|_| {
            Error::usage(
                "the database is not a PostgreSQL URL (postgres://user@host:port/database)",
            )
        })?;
        if let Some(password) = password {
            config.password(password);
        }
        let target = target_of(&config);
        let runtime = tokio::runtime::Builder::new_multi_thread()
            .worker_threads(1)
            .thread_name("tronpool-postgres")
            .enable_all()
            .build()
            .map_err(|e| Error::os("starting the database's runtime", e))?;
        let handle = runtime.handle().clone();
        let manager_config = ManagerConfig {
            recycling_method: RecyclingMethod::Fast,
        };
        // TLS when the URL requires it (`sslmode=require`): always, the server's certificate
        // checked against the system's roots and `ca_file`, its name against the URL's host;
        // a certificate that does not check is an error, never a plain connection. Otherwise
        // (`disable`, or `prefer`, the default) plain TCP: `prefer` would encrypt without
        // checking who answers, which stops only an eavesdropper; say `require` for TLS.
        let manager = if config.get_ssl_mode() == tokio_postgres::config::SslMode::Require {
            Manager::from_config(config, tls(ca_file)?, manager_config)
        } else {
            config.ssl_mode(tokio_postgres::config::SslMode::Disable);
            Manager::from_config(config, NoTls, manager_config)
        };
        let pool = Pool::builder(manager)
            .max_size(POOL_SIZE)
            .runtime(deadpool_postgres::Runtime::Tokio1)
            .wait_timeout(Some(CONNECT_PATIENCE))
            .create_timeout(Some(CONNECT_PATIENCE))
            .recycle_timeout(Some(CONNECT_PATIENCE))
            .build()
            .map_err(|e| Error::Failed(format!("the database pool for {target}: {e}")))?;
        let pg = Arc::new(Pg {
            pool,
            runtime: Some(runtime),
            handle,
            target,
        });
        pg.migrate()?;
        Ok(pg)
    }

    /// Where it connects, without credentials.
    pub fn target(&self) -> &str {
        &self.target
    }

    /// A pooled connection.
    pub(crate) async fn client(&self) -> std::result::Result<deadpool_postgres::Object, DbError> {
        self.pool
            .get()
            .await
            .map_err(|e| DbError::Unreachable(format!("{}: {}", self.target, with_causes(&e))))
    }

    /// The pool's size and its idle connections.
    pub fn connections(&self) -> (usize, usize) {
        let status = self.pool.status();
        (status.size, status.available)
    }

    /// Waits for `future` on the pool's runtime, from any thread: a `serve` worker (which
    /// hands its other tasks off first), a current-thread runtime (blocked on a helper
    /// thread, since that runtime cannot be blocked in place), or a plain thread.
    pub(crate) fn block<F>(&self, future: F) -> F::Output
    where
        F: Future + Send,
        F::Output: Send,
    {
        match tokio::runtime::Handle::try_current() {
            Ok(current)
                if current.runtime_flavor() == tokio::runtime::RuntimeFlavor::MultiThread =>
            {
                tokio::task::block_in_place(|| self.handle.block_on(future))
            }
            Ok(_) => std::thread::scope(|scope| {
                scope
                    .spawn(|| self.handle.block_on(future))
                    .join()
                    .unwrap_or_else(|panic| std::panic::resume_unwind(panic))
            }),
            Err(_) => self.handle.block_on(future),
        }
    }

    /// Runs `future` on the pool's runtime and waits for it without blocking the caller's
    /// runtime (a lock held across a relay's awaits).
    pub(crate) async fn run<F>(&self, future: F) -> F::Output
    where
        F: Future + Send + 'static,
        F::Output: Send + 'static,
    {
        match self.handle.spawn(future).await {
            Ok(output) => output,
            Err(e) => std::panic::resume_unwind(e.into_panic()),
        }
    }

    pub(crate) fn spawn<F>(&self, future: F)
    where
        F: Future<Output = ()> + Send + 'static,
    {
        self.handle.spawn(future);
    }

    fn migrate(&self) -> Result<()> {
        let what = format!("migrating the database at {}", self.target);
        self.block(async {
            let mut client = self.client().await?;
            let tx = client.transaction().await?;
            tx.execute("SELECT pg_advisory_xact_lock($1)", &[&MIGRATION_LOCK])
                .await?;
            tx.batch_execute(
                "CREATE TABLE IF NOT EXISTS tronpool_schema (
                     one          BOOLEAN PRIMARY KEY DEFAULT TRUE CHECK (one),
                     version      BIGINT NOT NULL,
                     readable_by  BIGINT NOT NULL
                 )",
            )
            .await?;
            let row = tx
                .query_opt("SELECT version, readable_by FROM tronpool_schema", &[])
                .await?;
            let (version, readable_by) = row.map_or((0, 0), |r| (r.get(0), r.get(1)));
            if version > latest() {
                if readable_by > latest() {
                    return Ok(Err(StoreError::Newer {
                        found: version,
                        known: latest(),
                    }));
                }
                // A newer replica upgraded it in a way this one still reads.
                tx.commit().await?;
                return Ok(Ok(()));
            }
            let mut readable_by = readable_by;
            for (i, step) in MIGRATIONS.iter().enumerate().skip(version as usize) {
                tx.batch_execute(step.sql).await?;
                readable_by = readable_by.max(step.readable_by);
                tracing::debug!(version = i + 1, what = step.what, "database migrated");
            }
            tx.execute(
                "INSERT INTO tronpool_schema (one, version, readable_by) VALUES (TRUE, $1, $2)
                 ON CONFLICT (one) DO UPDATE SET version = $1, readable_by = $2",
                &[&latest(), &readable_by],
            )
            .await?;
            tx.commit().await?;
            Ok::<_, DbError>(Ok(()))
        })
        .map_err(|e| e.at(what))?
        .map_err(Error::from)
    }
}

impl Drop for Pg {
    fn drop(&mut self) {
        // Dropping a runtime waits for its threads, which an async context must not do.
        if let Some(runtime) = self.runtime.take() {
            runtime.shutdown_background();
        }
    }
}

/// An error and what caused it, down the chain ("error performing TLS handshake: invalid peer
/// certificate: UnknownIssuer"): the pool's own words name no cause.
fn with_causes(e: &dyn std::error::Error) -> String {
    let mut text = e.to_string();
    let mut source = e.source();
    while let Some(cause) = source {
        let cause_text = cause.to_string();
        if !text.contains(&cause_text) {
            text = format!("{text}: {cause_text}");
        }
        source = cause.source();
    }
    text
}

/// The TLS connector: rustls with ring, the platform's verifier, and the CA certificates of
/// `ca_file` added to the system's roots.
fn tls(ca_file: Option<&std::path::Path>) -> Result<tokio_postgres_rustls::MakeRustlsConnect> {
    use rustls_pki_types::CertificateDer;
    use rustls_pki_types::pem::PemObject;
    let what = "the database's TLS";
    let extra: Vec<CertificateDer<'static>> = match ca_file {
        Some(path) => CertificateDer::pem_file_iter(path)
            .and_then(|certs| certs.collect::<std::result::Result<Vec<_>, _>>())
            .map_err(|e| {
                Error::usage(format!(
                    "{} ({}): not a PEM file of certificates: {e}",
                    path.display(),
                    crate::env_vars::DATABASE_CA
                ))
            })?,
        None => Vec::new(),
    };
    let provider = Arc::new(rustls::crypto::ring::default_provider());
    let verifier =
        rustls_platform_verifier::Verifier::new_with_extra_roots(extra, provider.clone())
            .map_err(|e| Error::caused(what, e))?;
    let config = rustls::ClientConfig::builder_with_provider(provider)
        .with_safe_default_protocol_versions()
        .map_err(|e| Error::caused(what, e))?
        .dangerous()
        .with_custom_certificate_verifier(Arc::new(verifier))
        .with_no_client_auth();
    Ok(tokio_postgres_rustls::MakeRustlsConnect::new(config))
}

/// `host:port/database` of a connection's configuration, without credentials.
fn target_of(config: &tokio_postgres::Config) -> String {
    let host = config
        .get_hosts()
        .first()
        .map(|h| match h {
            tokio_postgres::config::Host::Tcp(name) => name.clone(),
            #[cfg(unix)]
            tokio_postgres::config::Host::Unix(path) => path.display().to_string(),
        })
        .unwrap_or_else(|| "localhost".into());
    let port = config.get_ports().first().copied().unwrap_or(5432);
    let db = config.get_dbname().unwrap_or("postgres");
    format!("{host}:{port}/{db}")
}

#[cfg(test)]
pub(crate) mod testing {
    //! A fresh database per test on the server `scripts/test` started.

    use super::*;

    /// A new, empty database on the test server, migrated; `None` (and a message) when the
    /// tests run without one.
    pub fn fresh(test: &str) -> Option<Arc<Pg>> {
        test_support::postgres::fresh_database(test)
            .map(|url| Pg::connect(&url).expect("the test database"))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::store::jobs::{JobStore, Reservation};
    use crate::store::sql::Db;

    fn relay(store: &JobStore, txid: &str, nullifier: &str) -> Result<()> {
        let (job, entry) = crate::store::jobs::tests::job(txid, nullifier);
        store.insert(&job, &Reservation::default(), &entry, None)
    }

    fn schema(pg: &Pg) -> (i64, i64) {
        pg.block(async {
            let client = pg.client().await?;
            let row = client
                .query_one("SELECT version, readable_by FROM tronpool_schema", &[])
                .await?;
            Ok::<_, DbError>((row.get(0), row.get(1)))
        })
        .unwrap()
    }

    fn run(pg: &Pg, sql: &'static str) {
        pg.block(async {
            let client = pg.client().await?;
            client.batch_execute(sql).await.map_err(DbError::from)
        })
        .unwrap()
    }

    /// A replica of this release keeps working on a database the next release migrated with
    /// a step that only adds, and refuses (changing nothing) one it can no longer read.
    #[test]
    fn an_older_replica_runs_beside_a_newer_one_until_a_step_it_cannot_read() {
        let Some(url) = test_support::postgres::fresh_database("rolling upgrades") else {
            return;
        };
        let pg = Pg::connect(&url).unwrap();
        assert_eq!(schema(&pg), (latest(), 1));
        let store = JobStore::on(Db::Postgres(pg.clone()));
        relay(&store, "aa", "0x01").unwrap();
        // Two replicas starting at once migrate once.
        let twins: Vec<_> = (0..2)
            .map(|_| {
                let url = url.clone();
                std::thread::spawn(move || Pg::connect(&url).map(drop))
            })
            .collect();
        for twin in twins {
            twin.join().unwrap().unwrap();
        }
        // The next release adds a column and a table, and says this release still reads it.
        run(
            &pg,
            "ALTER TABLE submissions ADD COLUMN next_release_note TEXT;
             CREATE TABLE next_release_things (id BIGINT PRIMARY KEY);
             UPDATE tronpool_schema SET version = version + 1;",
        );
        let older = Pg::connect(&url).expect("a step that only adds keeps older replicas");
        assert_eq!(
            schema(&older),
            (latest() + 1, 1),
            "nothing was changed back"
        );
        let store = JobStore::on(Db::Postgres(older));
        relay(&store, "bb", "0x02").unwrap();
        assert_eq!(store.unfinished().unwrap().len(), 2);
        assert!(
            relay(&store, "cc", "0x02").is_err(),
            "one live job per note"
        );
        // A release after that changes what this one reads.
        run(
            &pg,
            "UPDATE tronpool_schema SET version = version + 1, readable_by = version + 1;",
        );
        let refused = Pg::connect(&url).err().expect("refused");
        assert!(refused.to_string().contains("newer tronpool"), "{refused}");
        assert_eq!(schema(&pg), (latest() + 2, latest() + 2));
    }

    fn tls_in_use(pg: &Pg) -> bool {
        pg.block(async {
            let client = pg.client().await?;
            let row = client
                .query_one(
                    "SELECT ssl FROM pg_stat_ssl WHERE pid = pg_backend_pid()",
                    &[],
                )
                .await?;
            Ok::<_, DbError>(row.get(0))
        })
        .unwrap()
    }

    /// `sslmode=require` connects over TLS with a certificate that chains to the operator's
    /// CA, and refuses (never falls back to plain) one it cannot check.
    #[test]
    fn tls_is_used_and_its_certificate_checked_when_the_url_requires_it() {
        let Some(url) = test_support::postgres::fresh_database("TLS") else {
            return;
        };
        let Ok(ca) = std::env::var(test_support::postgres::CA_VAR) else {
            eprintln!("TLS: skipped (the test server offers no TLS: openssl was not found)");
            return;
        };
        let required = format!("{url}?sslmode=require");
        let pg = Pg::connect_with(&required, None, Some(std::path::Path::new(&ca))).unwrap();
        assert!(tls_in_use(&pg));
        let untrusted = Pg::connect(&required)
            .err()
            .expect("the test CA is not trusted");
        assert_eq!(untrusted.http_status(), 503, "{untrusted}");
        assert!(untrusted.to_string().contains("certificate"), "{untrusted}");
        let plain = Pg::connect(&format!("{url}?sslmode=disable")).unwrap();
        assert!(!tls_in_use(&plain));
        let not_pem = Pg::connect_with(&required, None, Some(std::path::Path::new("/nonexistent")))
            .err()
            .unwrap();
        assert_eq!(not_pem.exit_code(), 2, "{not_pem}");
    }

    /// A store call waits on the pool's runtime from any thread: a plain one, a worker of a
    /// multi-threaded runtime (`serve`'s), and a current-thread runtime (which cannot be
    /// blocked in place: the wait moves to a helper thread).
    #[test]
    fn a_call_works_from_a_plain_thread_a_worker_and_a_current_thread_runtime() {
        let Some(pg) = testing::fresh("threads") else {
            return;
        };
        let db = crate::store::sql::Db::Postgres(pg);
        let ask = |db: &crate::store::sql::Db| db.query("SELECT 1", Vec::new()).unwrap().len();
        assert_eq!(ask(&db), 1);
        let current = tokio::runtime::Builder::new_current_thread()
            .enable_all()
            .build()
            .unwrap();
        assert_eq!(current.block_on(async { ask(&db) }), 1);
        let workers = tokio::runtime::Builder::new_multi_thread()
            .worker_threads(1)
            .enable_all()
            .build()
            .unwrap();
        let on_worker = db.clone();
        let answered = workers
            .block_on(async move { tokio::spawn(async move { ask(&on_worker) }).await.unwrap() });
        assert_eq!(answered, 1);
    }

    #[test]
    fn a_database_that_cannot_be_reached_is_unavailable_and_its_password_is_never_shown() {
        let port = std::net::TcpListener::bind("127.0.0.1:0")
            .unwrap()
            .local_addr()
            .unwrap()
            .port();
        let error = Pg::connect(&format!("postgres://someone:hunter2@127.0.0.1:{port}/x"))
            .err()
            .expect("nothing listens there");
        assert_eq!(error.http_status(), 503, "{error}");
        assert_eq!(error.exit_code(), 3, "{error}");
        let text = format!("{error} {error:?} {}", error.public_message());
        assert!(!text.contains("hunter2"), "{text}");
        assert!(text.contains(&format!("127.0.0.1:{port}/x")), "{text}");
        let bad = Pg::connect("mysql://nope").err().unwrap();
        assert_eq!(bad.exit_code(), 2, "{bad}");
    }
}
