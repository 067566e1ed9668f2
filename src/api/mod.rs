//! `serve`: the REST API over the service layer. Each resource has its module and every
//! handler is a thin call into `crate::service`; this module assembles the router with the
//! layers every request goes through (logging, panics, CORS, rate limits, timeout, body
//! limit) and runs it until a shutdown signal, finishing the requests in flight.

pub mod errors;
pub mod health;
pub mod limits;
pub mod openapi;
pub mod pools;
pub mod relayer;
pub mod tx;
pub mod wallet;

use std::future::Future;
use std::net::{IpAddr, SocketAddr};
use std::sync::Arc;
use std::time::{Duration, Instant};

use axum::Router;
use axum::extract::{DefaultBodyLimit, Request, State};
use axum::http::{HeaderName, HeaderValue, Method, StatusCode};
use axum::middleware::{self, Next};
use axum::response::{IntoResponse, Response};
use axum::routing::{get, post};
use tower_http::catch_panic::CatchPanicLayer;
use tower_http::cors::{AllowOrigin, CorsLayer};

use crate::error::{Error, Result};
use crate::service::chain::Chain;
use crate::service::inputs;
use crate::service::relayer::Relayer;
use crate::service::relayer_fees::Pricing;
use errors::ApiError;
use limits::RateLimiter;

/// How the server behaves; every field has a flag on `tronpool serve`.
#[derive(Debug, Clone)]
pub struct ApiConfig {
    /// Requests per client per minute on the general endpoints.
    pub rate_limit: u32,
    /// Requests per client per minute on `/api/relayer/*`.
    pub relayer_rate_limit: u32,
    /// Reverse proxies whose `X-Forwarded-For` names the client.
    pub trusted_proxies: Vec<IpAddr>,
    /// Origins a browser may call from; empty means any.
    pub cors_origins: Vec<HeaderValue>,
    /// Largest request body, in bytes.
    pub body_limit: usize,
    /// Longest a request may take before it is answered 504.
    pub request_timeout: Duration,
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
    pub config: ApiConfig,
    general_limit: RateLimiter,
    relayer_limit: RateLimiter,
}

impl App {
    pub fn new(chain: Chain, pricing: Pricing, config: ApiConfig) -> Self {
        App {
            general_limit: RateLimiter::new(config.rate_limit),
            relayer_limit: RateLimiter::new(config.relayer_rate_limit),
            chain: Arc::new(chain),
            relayer: None,
            pricing,
            config,
        }
    }

    /// Relays withdrawals with this relayer.
    pub fn with_relayer(mut self, relayer: Relayer) -> Self {
        self.relayer = Some(Arc::new(relayer));
        self
    }

    /// The relayer's fee terms at this moment's prices, for the pool listings: none without
    /// a price (the listing still answers; `GET /api/relayer/status` says why).
    pub async fn fee_terms(&self) -> Option<crate::service::relayer_fees::Terms<'_>> {
        self.pricing
            .terms(&self.chain, Default::default())
            .await
            .ok()
    }

    /// A denomination from a path segment, or 404 naming the pools there are.
    pub fn denomination(&self, text: &str) -> Result<u64> {
        inputs::denomination(text)
            .filter(|d| self.chain.deployment.pool(*d).is_some())
            .ok_or_else(|| self.chain.unknown_pool(text))
    }

    /// A denomination from a body field: `100` or `"100"`.
    pub fn denomination_field(&self, value: &serde_json::Value) -> Result<u64> {
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
/// OpenAPI document are both checked against this list.
pub const ENDPOINTS: &[(&str, &str, &str)] = &[
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

/// The whole API with its layers.
pub fn router(app: Arc<App>) -> Router {
    let cors = cors(&app.config.cors_origins);
    Router::new()
        .route("/api/pools", get(pools::list))
        .route("/api/pools/{denom}", get(pools::show))
        .route("/api/pools/{denom}/root", get(pools::root))
        .route("/api/pools/{denom}/check-spent", post(pools::check_spent))
        .route("/api/pools/{denom}/can-withdraw", post(pools::can_withdraw))
        .route("/api/balance/{address}", get(wallet::balance))
        .route("/api/allowance/{address}/{denom}", get(wallet::allowance))
        .route("/api/tx/approve", post(tx::approve))
        .route("/api/tx/deposit", post(tx::deposit))
        .route("/api/tx/withdraw", post(tx::withdraw))
        .route("/api/health", get(health::health))
        .route("/api/relayer/status", get(relayer::status))
        .route("/api/relayer/withdraw", post(relayer::withdraw))
        .route("/api/relayer/jobs/{txid}", get(relayer::job))
        .route(
            "/api/relayer/jobs/nullifier/{nullifierHash}",
            get(relayer::job_for_note),
        )
        .route("/api/openapi.json", get(openapi::document))
        .fallback(errors::not_found)
        .method_not_allowed_fallback(errors::method_not_allowed)
        // Innermost first: the body limit and the timeout apply to handlers, the rate limit
        // to everything routed, CORS answers preflights before they count, panics become
        // the envelope, and the log sees the final status.
        .layer(DefaultBodyLimit::max(app.config.body_limit))
        .layer(middleware::from_fn_with_state(app.clone(), deadline))
        .layer(middleware::from_fn_with_state(
            app.clone(),
            limits::rate_limit,
        ))
        .layer(cors)
        .layer(CatchPanicLayer::custom(errors::panicked))
        .layer(middleware::from_fn(access_log))
        .with_state(app)
}

fn cors(origins: &[HeaderValue]) -> CorsLayer {
    let allow = if origins.is_empty() {
        AllowOrigin::any()
    } else {
        AllowOrigin::list(origins.iter().cloned())
    };
    CorsLayer::new()
        .allow_origin(allow)
        .allow_methods([Method::GET, Method::POST])
        .allow_headers([axum::http::header::CONTENT_TYPE])
        .expose_headers([
            HeaderName::from_static("ratelimit-limit"),
            HeaderName::from_static("ratelimit-remaining"),
            HeaderName::from_static("ratelimit-reset"),
            HeaderName::from_static("retry-after"),
        ])
        .max_age(Duration::from_secs(600))
}

/// When a request's time runs out: a handler that must answer before then (the relayer, with
/// a txid) reads it from the request's extensions.
#[derive(Debug, Clone, Copy)]
pub struct Deadline(pub Instant);

/// Answers 504 for a request that outlives the configured timeout (a node that hangs).
async fn deadline(State(app): State<Arc<App>>, mut req: Request, next: Next) -> Response {
    let limit = app.config.request_timeout;
    req.extensions_mut()
        .insert(Deadline(Instant::now() + limit));
    match tokio::time::timeout(limit, next.run(req)).await {
        Ok(response) => response,
        Err(_) => ApiError::new(
            StatusCode::GATEWAY_TIMEOUT,
            format!("the request took longer than {} s", limit.as_secs_f64()),
        )
        .into_response(),
    }
}

/// One line per request: method, path, status, time. Bodies are never logged.
async fn access_log(req: Request, next: Next) -> Response {
    let started = Instant::now();
    let method = req.method().clone();
    let path = req.uri().path().to_owned();
    let response = next.run(req).await;
    tracing::info!(
        target: "tronpool::api",
        method = %method,
        path = %path,
        status = response.status().as_u16(),
        ms = started.elapsed().as_secs_f64() * 1000.0,
        "request"
    );
    response
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
    let background: Vec<_> = app
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
    let served = axum::serve(
        listener,
        router(app).into_make_service_with_connect_info::<SocketAddr>(),
    )
    .with_graceful_shutdown(shutdown)
    .await;
    for task in background {
        task.abort();
    }
    served
}

/// Binds `addr` and serves in the background.
pub async fn spawn(addr: SocketAddr, app: Arc<App>) -> Result<ServerHandle> {
    let listener = tokio::net::TcpListener::bind(addr)
        .await
        .map_err(|e| Error::usage(format!("cannot listen on {addr}: {e}")))?;
    let addr = listener
        .local_addr()
        .map_err(|e| Error::Failed(format!("the listening socket: {e}")))?;
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
