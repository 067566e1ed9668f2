//! `serve`: the REST API over the service layer. Each resource has its module and every
//! handler is a thin call into `crate::service`; this module assembles the router with the
//! layers every request goes through (request id, logging, panics, CORS, cheap length checks,
//! rate limits, timeout, body limit) and runs it until a shutdown signal, finishing the
//! requests in flight.

mod app;
pub mod errors;
pub mod health;
mod hot;
mod layers;
pub mod limits;
mod listings;
pub mod metrics;
pub mod openapi;
pub mod pools;
pub mod relayer;
pub mod tx;
pub mod wallet;
pub mod web;

use std::future::Future;
use std::net::SocketAddr;
use std::sync::Arc;
use std::time::Duration;

use axum::Router;
use axum::extract::{ConnectInfo, DefaultBodyLimit};
use axum::middleware;
use axum::routing::{get, post};
use tower_http::catch_panic::CatchPanicLayer;
use tower_http::request_id::{MakeRequestUuid, PropagateRequestIdLayer, SetRequestIdLayer};

use crate::error::{Error, Result};
pub use app::{ApiConfig, App};
pub use layers::Deadline;
use layers::{access_log, cheap_checks, cors, deadline, shed_load};

/// Every endpoint: method, path (axum's syntax, and the label metrics count it under) and a
/// one-line summary. The router and the OpenAPI document are both checked against this list
/// (by tests).
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

/// The web page's paths (`web::routes`, unless `--no-web`): metrics count each under its own
/// label, as the API's endpoints.
pub(crate) const PAGE_PATHS: &[&str] = &[
    "/",
    "/app.js",
    "/prover.js",
    "/style.css",
    "/prover.wasm",
    "/web/deployment.json",
    "/web/withdraw.key",
];

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
        .route("/api/openapi.json", get(openapi::document));
    // The web page counts against the general budget too: its proving key is megabytes.
    let general = if app.config.web {
        general.merge(web::routes(&app))
    } else {
        general
    }
    .route_layer(limits::layer(&budgets.general));
    // The relayer's budgets are also counted in the database when replicas share one.
    let shared = |limit: &limits::Limit| {
        middleware::from_fn_with_state(
            limits::SharedBudget {
                relayer: app.relayer.clone(),
                extractor: budgets.extractor.clone(),
                name: limit.name,
                limit: limit.per_minute,
            },
            limits::shared_budget,
        )
    };
    let relayer_status = Router::new()
        .route("/api/relayer/status", get(relayer::status))
        .route_layer(shared(&budgets.relayer_status))
        .route_layer(limits::layer(&budgets.relayer_status));
    let relayer_withdraw = Router::new()
        .route("/api/relayer/withdraw", post(relayer::withdraw))
        .route_layer(shared(&budgets.relayer_withdraw))
        .route_layer(limits::layer(&budgets.relayer_withdraw));
    let probes = Router::new()
        .route("/api/health", get(health::health))
        .route("/livez", get(health::livez))
        .route("/readyz", get(health::readyz))
        .route("/metrics", get(health::metrics));
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
                tokio::spawn(relayer.clone().collect_when_due(app.chain.clone())),
                tokio::spawn(relayer.clone().sweep_shared_budgets()),
                tokio::spawn({
                    let app = app.clone();
                    async move {
                        relayer
                            .batch_when_due(app.chain.clone(), app.trees.clone(), &app.pricing)
                            .await
                    }
                }),
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
    let relayer = app.relayer.clone();
    let hot = Arc::new(hot::Hot::new(&app));
    // The accept loop runs on one of the runtime's workers, never on the thread that awaits
    // `serve`: the CLI awaits it inside `block_on`, on the main thread, outside the workers.
    // There each accepted connection went to the runtime's shared queue with a futex wake of a
    // worker, and each connection's end woke the main thread to reap it; on a worker the
    // connection starts on that worker's own queue. Under an attacker who reconnects for every
    // request, futex calls were 12% of the server's profile and context switches 16%; with the
    // loop on a worker, none and 1% (BENCHMARKS.md, "The attack mix from wrk").
    let served = match tokio::spawn(accept(
        listener,
        router(app),
        hot,
        header_read_timeout,
        shutdown,
    ))
    .await
    {
        Ok(served) => served,
        Err(e) if e.is_panic() => std::panic::resume_unwind(e.into_panic()),
        Err(e) => Err(std::io::Error::other(e)),
    };
    for task in background {
        task.abort();
    }
    // Another replica on the same database takes the fee collector's and the batcher's
    // roles at once, not when their leases run out.
    if let Some(relayer) = relayer {
        relayer.release_roles();
    }
    served
}

/// The most a request's head (its request line and headers) may take: 16 KiB, twice what
/// nginx gives a request line by default and room for a browser's cookies. Past it hyper
/// answers 431 itself, without the envelope (no request reaches the API to be answered), and
/// closes the connection, having read no more than about this much. Without it hyper reads
/// and parses up to 400 KB of head per request: a stranger sending 300 KB heads as every
/// tenth request took the pool reads beside them to about a third of their rate (the attack
/// mix of `benches/api.rs` with such heads; BENCHMARKS.md). The API's own length checks
/// (`MAX_PATH_LEN`, `MAX_QUERY_LEN`, answered 400 in the envelope) cover everything below it.
/// hyper's read buffer is capped at the same size: uncapped, its second read of an oversized
/// head took 16 KB more and scanned them byte by byte for the head's end before refusing it
/// (a tenth of the server's time under a stream of such heads); capped, it reads and scans at
/// most this much. Bodies are read through the same buffer in pieces of at most this size.
pub(crate) const MAX_HEAD: usize = 16 * 1024;

/// Accepts connections until `shutdown`, each served by hyper's HTTP/1 with a header-read
/// timeout (a client that trickles its headers, or holds a kept-alive connection idle, is cut
/// off, so connections cannot be held hostage); then stops accepting and lets every
/// connection finish the request it is serving.
async fn accept(
    listener: tokio::net::TcpListener,
    router: Router,
    hot: Arc<hot::Hot>,
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
                let hot = hot.clone();
                let mut stopped = stopped.clone();
                connections.spawn(async move {
                    let service = hyper::service::service_fn(
                        move |mut req: hyper::Request<hyper::body::Incoming>| {
                            req.extensions_mut().insert(ConnectInfo(peer));
                            // A listing answered a moment ago is answered again before
                            // routing (`hot`); everything else takes the whole stack.
                            let answered = hot.answer(&req);
                            let (router, hot) = (router.clone(), hot.clone());
                            async move {
                                match answered {
                                    Ok(response) => Ok::<_, std::convert::Infallible>(response),
                                    Err(miss) => {
                                        let response = router.oneshot(req).await?;
                                        Ok(hot.keep(miss, response).await)
                                    }
                                }
                            }
                        },
                    );
                    let mut builder = hyper::server::conn::http1::Builder::new();
                    builder
                        .timer(TokioTimer::new())
                        .header_read_timeout(header_read_timeout)
                        .max_header_size(MAX_HEAD)
                        .max_buf_size(MAX_HEAD)
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
