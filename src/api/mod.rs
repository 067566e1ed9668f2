//! `serve`: the REST API over the service layer. Each resource has its module and every
//! handler is a thin call into `crate::service`; this module assembles the router with the
//! layers every request goes through (request id, logging, panics, CORS, cheap length checks,
//! rate limits, timeout, body limit) and runs it until a shutdown signal, finishing the
//! requests in flight.

pub mod errors;
pub mod health;
mod layers;
pub mod limits;
mod listings;
pub mod metrics;
pub mod openapi;
pub mod pools;
pub mod relayer;
pub mod tx;
pub mod wallet;

use std::future::Future;
use std::net::SocketAddr;
use std::sync::Arc;
use std::time::Duration;

use axum::Router;
use axum::extract::{ConnectInfo, DefaultBodyLimit};
use axum::http::HeaderValue;
use axum::middleware;
use axum::routing::{get, post};
use ipnet::IpNet;
use tower_http::catch_panic::CatchPanicLayer;
use tower_http::request_id::{MakeRequestUuid, PropagateRequestIdLayer, SetRequestIdLayer};

use crate::error::{Error, Result};
use crate::service::cache::Cached;
use crate::service::chain::Chain;
use crate::service::health::Readiness;
use crate::service::inputs;
use crate::service::relayer::Relayer;
use crate::service::relayer_fees::Pricing;
use crate::service::sync::TreeCache;
pub use layers::Deadline;
use layers::{access_log, cheap_checks, cors, deadline, shed_load};
use limits::RateLimits;

/// How the server behaves; every field has a flag on `tronpool serve`.
#[derive(Debug, Clone)]
pub struct ApiConfig {
    /// Requests per client per minute on the general endpoints.
    pub rate_limit: u32,
    /// Requests per client per minute on `/api/relayer/*`.
    pub relayer_rate_limit: u32,
    /// Reverse proxies (addresses or CIDR ranges) whose `Forwarded`/`X-Forwarded-For` names
    /// the client.
    pub trusted_proxies: Vec<IpNet>,
    /// Origins a browser may call from; empty means any.
    pub cors_origins: Vec<HeaderValue>,
    /// Largest request body, in bytes.
    pub body_limit: usize,
    /// Longest a request may take before it is answered 504.
    pub request_timeout: Duration,
    /// Most requests in flight at once; past it a request is answered 503 at once.
    pub max_in_flight: usize,
    /// How long a connection may take to send a request's headers, and how long a kept-alive
    /// connection may sit idle before its next request: past it, it is closed.
    pub header_read_timeout: Duration,
}

impl Default for ApiConfig {
    fn default() -> Self {
        ApiConfig {
            rate_limit: 120,
            relayer_rate_limit: 5,
            trusted_proxies: Vec::new(),
            cors_origins: Vec::new(),
            body_limit: 64 * 1024,
            request_timeout: Duration::from_secs(30),
            max_in_flight: 512,
            header_read_timeout: Duration::from_secs(10),
        }
    }
}

/// What the handlers share.
pub struct App {
    pub chain: Arc<Chain>,
    /// The relayer's fee policy and its TRX/USDT price (also what `GET /api/pools` quotes).
    pub pricing: Pricing,
    /// `None`: relaying is off (503 on withdraw, `enabled: false` in the status).
    pub relayer: Option<Arc<Relayer>>,
    /// The pools' synced leaves and withdrawals, served to clients that sync from here.
    pub trees: TreeCache,
    pub config: ApiConfig,
    pub limits: RateLimits,
    /// The readiness report, computed at most once a second (the probes are not limited).
    readiness: Cached<Readiness>,
    /// One permit per request in flight (see [`shed_load`]).
    in_flight: Arc<tokio::sync::Semaphore>,
    /// The pool listings' last bytes (see [`listings::Listings`]).
    listings: listings::Listings,
}

impl App {
    pub fn new(chain: Chain, pricing: Pricing, config: ApiConfig) -> Self {
        App {
            limits: RateLimits::new(
                config.rate_limit,
                config.relayer_rate_limit,
                &config.trusted_proxies,
            ),
            readiness: Cached::new("readiness", Duration::from_secs(1)),
            listings: listings::Listings::default(),
            in_flight: Arc::new(tokio::sync::Semaphore::new(
                config
                    .max_in_flight
                    .clamp(1, tokio::sync::Semaphore::MAX_PERMITS),
            )),
            chain: Arc::new(chain),
            relayer: None,
            trees: TreeCache::in_memory().expect("an in-memory database opens"),
            pricing,
            config,
        }
    }

    /// Serves the pools' leaves and withdrawals from this cache (by default, one in memory).
    pub(crate) fn with_trees(mut self, trees: TreeCache) -> Self {
        self.trees = trees;
        self
    }

    /// Relays withdrawals with this relayer.
    pub fn with_relayer(mut self, relayer: Relayer) -> Self {
        self.relayer = Some(Arc::new(relayer));
        self
    }

    /// The relayer's fee terms at this moment's prices, for the pool listings: none without
    /// a price (the listing still answers; `GET /api/relayer/status` says why). With a
    /// relayer, they are what a new request would be charged: its stake and its pools'
    /// sponsors less what its unfinished jobs reserved.
    pub(crate) async fn fee_terms(&self) -> Option<crate::service::relayer_fees::Terms<'_>> {
        match &self.relayer {
            Some(relayer) => relayer.listing_terms(&self.chain, &self.pricing).await.ok(),
            None => self
                .pricing
                .terms(&self.chain, Default::default())
                .await
                .ok(),
        }
    }

    /// Keeps the relayer fees a pool listing showed, so the relayer honours them for
    /// [`crate::service::relayer::QUOTE_HOLD`].
    pub(crate) fn shown_fees<'a>(
        &self,
        terms: Option<&crate::service::relayer_fees::Terms<'_>>,
        pools: impl IntoIterator<Item = &'a crate::service::pools::PoolRead>,
    ) {
        let (Some(relayer), Some(terms)) = (&self.relayer, terms) else {
            return;
        };
        let per_trx = terms.refund_fee(1_000_000);
        relayer.remember_fees(
            pools
                .into_iter()
                .filter_map(|read| Some((read.denomination, read.fee?, per_trx))),
        );
    }

    /// A denomination from a path segment: 400 when it is not a whole number of USDT, 404
    /// (naming the pools there are) when no pool has it.
    pub fn denomination(&self, text: &str) -> Result<u64> {
        let denomination = inputs::denomination(text).ok_or_else(|| {
            Error::usage("denomination must be a pool's size in whole USDT, like 100")
        })?;
        if self.chain.deployment.pool(denomination).is_none() {
            return Err(self.chain.unknown_pool(text));
        }
        Ok(denomination)
    }

    /// A denomination from a body field: `100` or `"100"`.
    pub(crate) fn denomination_field(&self, value: &serde_json::Value) -> Result<u64> {
        match value {
            serde_json::Value::String(s) => self.denomination(s),
            serde_json::Value::Number(n) => self.denomination(&n.to_string()),
            _ => Err(Error::usage(
                "denomination must be a pool's size in USDT, like 100 or \"100\"",
            )),
        }
    }
}

/// Every endpoint: method, path (axum's syntax) and a one-line summary. The router and the
/// OpenAPI document are both checked against this list (by tests).
#[cfg(test)]
pub(crate) const ENDPOINTS: &[(&str, &str, &str)] = &[
    ("GET", "/api/pools", "Every pool"),
    ("GET", "/api/pools/{denom}", "One pool"),
    ("GET", "/api/pools/{denom}/root", "A pool's current root"),
    (
        "POST",
        "/api/pools/{denom}/check-spent",
        "Whether a nullifier hash is spent",
    ),
    (
        "POST",
        "/api/pools/{denom}/can-withdraw",
        "Whether a withdrawal could go through",
    ),
    (
        "GET",
        "/api/pools/{denom}/leaves",
        "The pool's deposits in leaf order, a page at a time",
    ),
    (
        "GET",
        "/api/pools/{denom}/withdrawals",
        "The pool's withdrawals, a page at a time",
    ),
    (
        "GET",
        "/api/balance/{address}",
        "USDT and TRX held by an address",
    ),
    (
        "GET",
        "/api/allowance/{address}/{denom}",
        "USDT an address allows a pool",
    ),
    (
        "POST",
        "/api/tx/approve",
        "Unsigned USDT approval for a pool",
    ),
    ("POST", "/api/tx/deposit", "Unsigned deposit"),
    ("POST", "/api/tx/withdraw", "Unsigned withdrawal"),
    ("GET", "/api/health", "Server and node health"),
    ("GET", "/livez", "Liveness: the process answers"),
    ("GET", "/readyz", "Readiness: every check, 200 or 503"),
    ("GET", "/metrics", "Counters in Prometheus' text format"),
    (
        "GET",
        "/api/relayer/status",
        "The relayer's address, balance and fees",
    ),
    (
        "POST",
        "/api/relayer/withdraw",
        "Have the relayer submit a withdrawal",
    ),
    (
        "GET",
        "/api/relayer/jobs/{txid}",
        "A relayed withdrawal by its txid",
    ),
    (
        "GET",
        "/api/relayer/jobs/nullifier/{nullifierHash}",
        "The newest relayed withdrawal of a note",
    ),
    (
        "GET",
        "/api/openapi.json",
        "This API's OpenAPI 3.1 document",
    ),
];

/// The longest request path any endpoint has (`/api/relayer/jobs/nullifier/0x` and 64 hex
/// digits is 94 bytes), with room to spare; longer paths are refused before routing.
pub(crate) const MAX_PATH_LEN: usize = 256;
/// Only the pages (`?from=N&limit=M`) take a query; elsewhere a short one (a cache buster) is
/// ignored; a long one is refused everywhere.
pub(crate) const MAX_QUERY_LEN: usize = 256;

/// The whole API with its layers.
pub fn router(app: Arc<App>) -> Router {
    metrics::install();
    let cors = cors(&app.config.cors_origins);
    let budgets = &app.limits;
    // Each budget is a layer on its own routes: the general one on most, one per relayer
    // endpoint, none on the probes.
    let general = Router::new()
        .route("/api/pools", get(pools::list))
        .route("/api/pools/{denom}", get(pools::show))
        .route("/api/pools/{denom}/root", get(pools::root))
        .route("/api/pools/{denom}/check-spent", post(pools::check_spent))
        .route("/api/pools/{denom}/can-withdraw", post(pools::can_withdraw))
        .route("/api/pools/{denom}/leaves", get(pools::leaves))
        .route("/api/pools/{denom}/withdrawals", get(pools::withdrawals))
        .route("/api/balance/{address}", get(wallet::balance))
        .route("/api/allowance/{address}/{denom}", get(wallet::allowance))
        .route("/api/tx/approve", post(tx::approve))
        .route("/api/tx/deposit", post(tx::deposit))
        .route("/api/tx/withdraw", post(tx::withdraw))
        // Following a job is a cheap read a client repeats (every second): it counts against
        // the general budget, so polling cannot use up the relayer's.
        .route("/api/relayer/jobs/{txid}", get(relayer::job))
        .route(
            "/api/relayer/jobs/nullifier/{nullifierHash}",
            get(relayer::job_for_note),
        )
        .route("/api/openapi.json", get(openapi::document))
        .route_layer(limits::layer(&budgets.general));
    let relayer_status = Router::new()
        .route("/api/relayer/status", get(relayer::status))
        .route_layer(limits::layer(&budgets.relayer_status));
    let relayer_withdraw = Router::new()
        .route("/api/relayer/withdraw", post(relayer::withdraw))
        .route_layer(limits::layer(&budgets.relayer_withdraw));
    let probes = Router::new()
        .route("/api/health", get(health::health))
        .route("/livez", get(health::livez))
        .route("/readyz", get(health::readyz))
        .route("/metrics", get(metrics::render));
    let routes = general
        .merge(relayer_status)
        .merge(relayer_withdraw)
        .merge(probes)
        .fallback(errors::not_found)
        .method_not_allowed_fallback(errors::method_not_allowed)
        // Innermost first: the body limit and the timeout apply to handlers; the rate
        // limiters' headers get their names.
        .layer(DefaultBodyLimit::max(app.config.body_limit))
        .layer(middleware::from_fn_with_state(app.clone(), deadline))
        .layer(middleware::map_response(limits::rename_headers))
        .layer(middleware::from_fn(metrics::record))
        .with_state(app.clone());
    // The routes sit behind a router of their own, so what wraps them runs before any routing
    // (a route's parameters are percent-decoded as it is matched): oversized paths and queries
    // are refused first; CORS answers preflights before they count; panics become the
    // envelope; the log sees the final status inside the request's span; every answer
    // carries the request's id, made here unless a proxy sent one.
    Router::new()
        .fallback_service(routes)
        .layer(middleware::from_fn(cheap_checks))
        .layer(middleware::from_fn_with_state(app, shed_load))
        .layer(cors)
        .layer(CatchPanicLayer::custom(errors::panicked))
        .layer(middleware::from_fn(access_log))
        .layer(PropagateRequestIdLayer::x_request_id())
        .layer(SetRequestIdLayer::x_request_id(MakeRequestUuid))
}

/// A running server (for tests and embedding): its address and a way to stop it.
pub struct ServerHandle {
    addr: SocketAddr,
    stop: Option<tokio::sync::oneshot::Sender<()>>,
    task: tokio::task::JoinHandle<std::io::Result<()>>,
}

impl ServerHandle {
    pub fn addr(&self) -> SocketAddr {
        self.addr
    }

    pub fn url(&self) -> String {
        format!("http://{}", self.addr)
    }

    /// Stops accepting, lets the requests in flight finish, and waits.
    pub async fn shutdown(mut self) -> std::io::Result<()> {
        if let Some(stop) = self.stop.take() {
            let _ = stop.send(());
        }
        (&mut self.task)
            .await
            .unwrap_or_else(|e| Err(std::io::Error::other(e)))
    }
}

/// Serves `app` on `listener` until `shutdown` resolves, then finishes the requests in
/// flight. The relayer's watcher runs alongside and stops with the server; jobs it has not
/// finished are picked up by the next start.
pub async fn serve(
    listener: tokio::net::TcpListener,
    app: Arc<App>,
    shutdown: impl Future<Output = ()> + Send + 'static,
) -> std::io::Result<()> {
    let mut background: Vec<_> = app
        .relayer
        .clone()
        .map(|relayer| {
            [
                tokio::spawn(relayer.clone().watch(app.chain.clone())),
                tokio::spawn(relayer.collect_when_due(app.chain.clone())),
            ]
        })
        .into_iter()
        .flatten()
        .collect();
    // The rate limiters forget the clients whose budgets are full again.
    background.push(tokio::spawn(app.limits.clone().sweep_forever()));
    // A pair's average needs readings a window apart, whether or not anyone asks for a fee.
    if let Some(every) = app.pricing.feed.sample_interval() {
        let app = app.clone();
        background.push(tokio::spawn(async move {
            loop {
                if let Err(e) = app.pricing.feed.current(&app.chain).await {
                    tracing::debug!(error = %e, "reading the TRX/USDT price");
                }
                tokio::time::sleep(every).await;
            }
        }));
    }
    let header_read_timeout = app.config.header_read_timeout;
    let served = accept(listener, router(app), header_read_timeout, shutdown).await;
    for task in background {
        task.abort();
    }
    served
}

/// Accepts connections until `shutdown`, each served by hyper's HTTP/1 with a header-read
/// timeout (a client that trickles its headers, or holds a kept-alive connection idle, is cut
/// off, so connections cannot be held hostage); then stops accepting and lets every
/// connection finish the request it is serving.
async fn accept(
    listener: tokio::net::TcpListener,
    router: Router,
    header_read_timeout: Duration,
    shutdown: impl Future<Output = ()> + Send + 'static,
) -> std::io::Result<()> {
    use hyper_util::rt::{TokioIo, TokioTimer};
    use tower::ServiceExt;

    let (stop, stopped) = tokio::sync::watch::channel(());
    let mut connections = tokio::task::JoinSet::new();
    tokio::pin!(shutdown);
    loop {
        tokio::select! {
            () = &mut shutdown => break,
            accepted = listener.accept() => {
                let (stream, peer) = match accepted {
                    Ok(accepted) => accepted,
                    Err(e) => {
                        // Out of file descriptors, a reset before accept: wait, go on.
                        tracing::warn!(error = %e, "accepting a connection");
                        tokio::time::sleep(Duration::from_millis(50)).await;
                        continue;
                    }
                };
                let router = router.clone();
                let mut stopped = stopped.clone();
                connections.spawn(async move {
                    let service = hyper::service::service_fn(
                        move |mut req: hyper::Request<hyper::body::Incoming>| {
                            req.extensions_mut().insert(ConnectInfo(peer));
                            router.clone().oneshot(req)
                        },
                    );
                    let mut builder = hyper::server::conn::http1::Builder::new();
                    builder
                        .timer(TokioTimer::new())
                        .header_read_timeout(header_read_timeout)
                        .keep_alive(true);
                    let connection = builder.serve_connection(TokioIo::new(stream), service);
                    tokio::pin!(connection);
                    let served = tokio::select! {
                        served = connection.as_mut() => served,
                        _ = stopped.changed() => {
                            connection.as_mut().graceful_shutdown();
                            connection.await
                        }
                    };
                    if let Err(e) = served {
                        tracing::debug!(%peer, error = %e, "a connection ended");
                    }
                });
            }
            Some(_) = connections.join_next(), if !connections.is_empty() => {}
        }
    }
    drop(listener);
    let _ = stop.send(());
    while connections.join_next().await.is_some() {}
    Ok(())
}

/// Binds `addr` and serves in the background.
pub async fn spawn(addr: SocketAddr, app: Arc<App>) -> Result<ServerHandle> {
    let listener = tokio::net::TcpListener::bind(addr)
        .await
        .map_err(|e| Error::usage(format!("cannot listen on {addr}: {e}")))?;
    let addr = listener
        .local_addr()
        .map_err(|e| Error::os("the listening socket", e))?;
    let (stop, stopped) = tokio::sync::oneshot::channel::<()>();
    let task = tokio::spawn(serve(listener, app, async move {
        let _ = stopped.await;
    }));
    Ok(ServerHandle {
        addr,
        stop: Some(stop),
        task,
    })
}
