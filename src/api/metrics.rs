//! `GET /metrics`: the server's counters in Prometheus' text format, from the `metrics`
//! facade and its Prometheus exporter (no listener of its own: this endpoint renders it).
//!
//! - `tronpool_http_requests_total{route, status}` and
//!   `tronpool_http_request_duration_seconds{route}` (a histogram), by the route's pattern
//!   (`/api/pools/{denom}`, never the raw path, so a client cannot mint label values);
//! - `tronpool_rate_limited_total{budget}`: requests answered 429;
//! - `tronpool_relayer_jobs{state}`: the relayer's jobs by state, read when scraped;
//! - `tronpool_relayer_balance_trx` and `tronpool_ready` (1 or 0): from the readiness checks,
//!   which a scrape refreshes (at most once a second, like the probes);
//! - `tronpool_node_calls_total{endpoint, outcome}` and
//!   `tronpool_node_call_duration_seconds{endpoint}`: every node call, counted by the node
//!   client (`crates/tron`) through the same facade, `endpoint` being java-tron's path or
//!   the events API's template;
//! - `tronpool_cache_reads_total{cache, result}`: hits and misses of the block-long caches
//!   (`service::cache`).
//!
//! The recorder is global to the process (the `metrics` facade has one): the first server
//! installs it and every later one in the same process (the tests run many) shares it.

use std::sync::{Arc, OnceLock};
use std::time::Instant;

use axum::extract::{MatchedPath, Request, State};
use axum::http::{HeaderValue, header};
use axum::middleware::Next;
use axum::response::{IntoResponse, Response};
use metrics_exporter_prometheus::{Matcher, PrometheusBuilder, PrometheusHandle};

use super::App;

const DURATION: &str = "tronpool_http_request_duration_seconds";
const NODE_DURATION: &str = "tronpool_node_call_duration_seconds";

/// The process's Prometheus recorder, installed on first use.
fn handle() -> Option<&'static PrometheusHandle> {
    static HANDLE: OnceLock<Option<PrometheusHandle>> = OnceLock::new();
    HANDLE
        .get_or_init(|| {
            let buckets = [
                0.000_5, 0.001, 0.002_5, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 2.5, 5.0,
                10.0, 30.0,
            ];
            let recorder = PrometheusBuilder::new()
                .set_buckets_for_metric(Matcher::Full(DURATION.into()), &buckets)
                .and_then(|b| {
                    b.set_buckets_for_metric(Matcher::Full(NODE_DURATION.into()), &buckets)
                })
                .map_err(|e| tracing::warn!(error = %e, "metrics buckets"))
                .ok()?
                .build_recorder();
            let handle = recorder.handle();
            match metrics::set_global_recorder(recorder) {
                Ok(()) => Some(handle),
                Err(e) => {
                    tracing::warn!(error = %e, "another metrics recorder is installed");
                    None
                }
            }
        })
        .as_ref()
}

/// Installs the recorder (so counts start with the server, not with the first scrape).
pub fn install() {
    let _ = handle();
}

/// Counts and times each routed request by its route's pattern.
pub async fn record(req: Request, next: Next) -> Response {
    let route = req
        .extensions()
        .get::<MatchedPath>()
        .map_or_else(|| "unmatched".to_owned(), |p| p.as_str().to_owned());
    let started = Instant::now();
    let response = next.run(req).await;
    let status = response.status().as_u16().to_string();
    metrics::counter!("tronpool_http_requests_total", "route" => route.clone(), "status" => status)
        .increment(1);
    metrics::histogram!(DURATION, "route" => route).record(started.elapsed().as_secs_f64());
    response
}

/// A request answered 429 by `budget`.
pub fn rate_limited(budget: &'static str) {
    metrics::counter!("tronpool_rate_limited_total", "budget" => budget).increment(1);
}

pub async fn render(State(app): State<Arc<App>>) -> Response {
    let readiness = super::health::readiness(&app).await;
    metrics::gauge!("tronpool_ready").set(if readiness.ready { 1.0 } else { 0.0 });
    if let Some(relayer) = &app.relayer {
        match relayer.jobs().count_by_state() {
            Ok(counts) => {
                for (state, count) in counts {
                    metrics::gauge!("tronpool_relayer_jobs", "state" => state).set(count as f64);
                }
            }
            Err(e) => tracing::warn!(error = %e, "metrics: counting the relayer's jobs"),
        }
    }
    let text = handle().map_or_else(String::new, |h| {
        h.run_upkeep();
        h.render()
    });
    (
        [(
            header::CONTENT_TYPE,
            HeaderValue::from_static("text/plain; version=0.0.4"),
        )],
        text,
    )
        .into_response()
}
