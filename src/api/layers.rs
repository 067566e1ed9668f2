//! The layers every request goes through before its handler: load shedding, cheap length
//! checks, CORS, the deadline and the access log. The router in `api/mod.rs` puts them in
//! order; each is here once.

use std::sync::Arc;
use std::time::{Duration, Instant};

use axum::extract::{Request, State};
use axum::http::{HeaderName, HeaderValue, Method, StatusCode};
use axum::middleware::Next;
use axum::response::{IntoResponse, Response};
use tower_http::cors::{AllowOrigin, CorsLayer};

use super::app::App;
use super::errors::ApiError;

/// The longest request path any endpoint has (`/api/relayer/jobs/nullifier/0x` and 64 hex
/// digits is 94 bytes), with room to spare; longer paths are refused before routing.
pub(crate) const MAX_PATH_LEN: usize = 256;
/// Only the pages (`?from=N&limit=M`) take a query; elsewhere a short one (a cache buster) is
/// ignored; a long one is refused everywhere.
pub(crate) const MAX_QUERY_LEN: usize = 256;

/// Caps the requests in flight at `max_in_flight`: past it a request is answered 503 (in the
/// envelope, `retry-after: 1`) at once instead of queueing behind the others, so a flood
/// (or a hung node holding every request) cannot pile up work and memory without bound.
/// `/livez` is never shed: an overloaded server is alive, and must not be restarted for it.
pub(super) async fn shed_load(State(app): State<Arc<App>>, req: Request, next: Next) -> Response {
    if req.uri().path() == "/livez" {
        return next.run(req).await;
    }
    let Ok(permit) = app.in_flight.clone().try_acquire_owned() else {
        tracing::warn!(
            max_in_flight = app.config.max_in_flight,
            "overloaded: a request was shed"
        );
        let mut response = ApiError {
            status: StatusCode::SERVICE_UNAVAILABLE,
            message: format!(
                "the server is busy ({} requests in flight); retry in a second",
                app.config.max_in_flight
            ),
            kind: crate::error::Kind::Unavailable,
        }
        .into_response();
        response
            .headers_mut()
            .insert("retry-after", HeaderValue::from(1u32));
        return response;
    };
    let response = next.run(req).await;
    drop(permit);
    response
}

/// Refuses, by length alone, a path or query longer than any endpoint's: 400 in the
/// envelope in microseconds, before routing, rate limiting or any decoding.
pub(super) async fn cheap_checks(req: Request, next: Next) -> Response {
    let uri = req.uri();
    if uri.path().len() > MAX_PATH_LEN {
        return ApiError::new(
            StatusCode::BAD_REQUEST,
            format!(
                "the request path is {} bytes, longer than any endpoint's ({MAX_PATH_LEN} at most)",
                uri.path().len()
            ),
        )
        .into_response();
    }
    if uri.query().is_some_and(|q| q.len() > MAX_QUERY_LEN) {
        return ApiError::new(
            StatusCode::BAD_REQUEST,
            format!("the query string is longer than {MAX_QUERY_LEN} bytes"),
        )
        .into_response();
    }
    next.run(req).await
}

/// CORS: any origin unless `--cors-origin` lists some. `vary` only when an answer depends
/// on the request's `Origin` (a list): with any origin allowed, and the methods and headers
/// fixed, every answer is the same whatever the browser asks, and the 84 bytes would be sent
/// on every answer for nothing.
pub(super) fn cors(origins: &[HeaderValue]) -> CorsLayer {
    let (allow, vary) = if origins.is_empty() {
        (AllowOrigin::any(), Vec::new())
    } else {
        (
            AllowOrigin::list(origins.iter().cloned()),
            tower_http::cors::preflight_request_headers().collect(),
        )
    };
    CorsLayer::new()
        .allow_origin(allow)
        .vary(vary)
        .allow_methods([Method::GET, Method::POST])
        .allow_headers([axum::http::header::CONTENT_TYPE])
        .expose_headers([
            HeaderName::from_static("ratelimit-limit"),
            HeaderName::from_static("ratelimit-remaining"),
            HeaderName::from_static("ratelimit-reset"),
            HeaderName::from_static("retry-after"),
            HeaderName::from_static("x-request-id"),
        ])
        .max_age(Duration::from_secs(600))
}

/// When a request's time runs out: a handler that must answer before then (the relayer, with
/// a txid) reads it from the request's extensions.
#[derive(Debug, Clone, Copy)]
pub struct Deadline(pub Instant);

/// Answers 504 for a request that outlives the configured timeout (a node that hangs).
pub(super) async fn deadline(
    State(app): State<Arc<App>>,
    mut req: Request,
    next: Next,
) -> Response {
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

/// One line per request: request id, method, path, status, time. Bodies are never logged.
/// The request runs inside a span with its id, so whatever it logs (the whole error behind a
/// terse answer) can be found from the `x-request-id` the client got.
pub(super) async fn access_log(req: Request, next: Next) -> Response {
    use tracing::Instrument;
    let started = Instant::now();
    let method = req.method().clone();
    // Logged cut short: a path is refused past MAX_PATH_LEN, but the log line comes first.
    let path: String = req.uri().path().chars().take(MAX_PATH_LEN).collect();
    let id = req
        .headers()
        .get("x-request-id")
        .cloned()
        .unwrap_or_else(|| HeaderValue::from_static(""));
    let span = request_span(&id);
    let response = next.run(req).instrument(span.clone()).await;
    span.in_scope(|| log_answer(None, &method, &path, response.status(), started));
    response
}

/// Whether the access log is on (`TRONPOOL_LOG` may turn it off): the one check a request
/// pays when it is not.
pub(super) fn logging() -> bool {
    tracing::enabled!(target: "tronpool::api", tracing::Level::INFO)
}

/// The span a request runs in: its id (the first 64 characters).
pub(super) fn request_span(id: &HeaderValue) -> tracing::Span {
    let id: String = id.to_str().unwrap_or_default().chars().take(64).collect();
    tracing::info_span!("request", request_id = %id)
}

/// The access log's line for one answer. A repeated listing (`api::hot`) gives its request
/// id as a field (`id`), having no span: a span would cost as much again as the line, and
/// nothing else is logged inside it.
pub(super) fn log_answer(
    id: Option<&HeaderValue>,
    method: &Method,
    path: &str,
    status: StatusCode,
    started: Instant,
) {
    tracing::info!(
        target: "tronpool::api",
        request_id = id.map(|id| id.to_str().unwrap_or_default()),
        method = %method,
        path = %path,
        status = status.as_u16(),
        ms = started.elapsed().as_secs_f64() * 1000.0,
        "request"
    )
}
