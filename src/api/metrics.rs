//! The server's counters in Prometheus' text format, from the `metrics` facade and its
//! Prometheus exporter (no listener of its own: `GET /metrics`, in `api::health`, renders
//! them with [`exposition`]).
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
//! - `tronpool_db_query_seconds{backend, outcome}` (a histogram): every statement of the
//!   shared stores (`store::sql`), `outcome` being `ok`, `error` or `unreachable`;
//!   `tronpool_db_connections{state}` (`open`, `idle`): PostgreSQL's pool, read when scraped.
//!
//! - `process_resident_memory_bytes`, `process_open_fds`, `process_max_fds`, `process_threads`,
//!   `process_cpu_seconds_total`, `process_virtual_memory_bytes`, `process_start_time_seconds`:
//!   the process itself, in Prometheus' `process_*` conventions (`metrics-process`, read when
//!   scraped), so an operator sees memory or descriptors grow before it hurts.
//!
//! The recorder is global to the process (the `metrics` facade has one): the first server
//! installs it and every later one in the same process (the tests run many) shares it.
//!
//! Nothing here may grow with the requests served: label values come from fixed sets (route
//! patterns, status codes, budget names, java-tron's paths), and histogram samples are folded
//! into their buckets every [`UPKEEP_EVERY`] by a thread of our own, not only when scraped.

use std::sync::OnceLock;
use std::time::{Duration, Instant};

use axum::extract::{MatchedPath, Request};
use axum::http::StatusCode;
use axum::middleware::Next;
use axum::response::Response;
use metrics_exporter_prometheus::{Matcher, PrometheusBuilder, PrometheusHandle};

const DURATION: &str = "tronpool_http_request_duration_seconds";
const NODE_DURATION: &str = "tronpool_node_call_duration_seconds";
const DB_DURATION: &str = "tronpool_db_query_seconds";

/// How often the recorder's upkeep folds histogram samples into their buckets.
///
/// Why a timer: a recorder made with `PrometheusBuilder::build_recorder` (we render `/metrics`
/// ourselves, so there is no exporter listener whose task would do it) keeps every histogram
/// sample in a buffer until `PrometheusHandle::run_upkeep` drains it, and nothing but a scrape
/// called that. A server nobody scraped grew ≈ 18 bytes a request for as long as it ran: one
/// client flooding it with requests answered 429 made ≈ 1.6 GB an hour. Once a second bounds
/// the buffer by one second of traffic (≈ 0.5 MB at 50,000 requests a second).
const UPKEEP_EVERY: Duration = Duration::from_secs(1);

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
                .and_then(|b| b.set_buckets_for_metric(Matcher::Full(DB_DURATION.into()), &buckets))
                .map_err(|e| tracing::warn!(error = %e, "metrics buckets"))
                .ok()?
                .build_recorder();
            let handle = recorder.handle();
            match metrics::set_global_recorder(recorder) {
                Ok(()) => {
                    spawn_upkeep(handle.clone());
                    process_collector().describe();
                    Some(handle)
                }
                Err(e) => {
                    tracing::warn!(error = %e, "another metrics recorder is installed");
                    None
                }
            }
        })
        .as_ref()
}

/// Runs the recorder's upkeep every [`UPKEEP_EVERY`] for the life of the process, on a thread
/// of its own: it must go on whatever the async runtime is doing (or whichever runtime, in
/// tests that start many), and it is one short lock a second.
fn spawn_upkeep(handle: PrometheusHandle) {
    let spawned = std::thread::Builder::new()
        .name("metrics-upkeep".into())
        .spawn(move || {
            loop {
                std::thread::sleep(UPKEEP_EVERY);
                handle.run_upkeep();
            }
        });
    if let Err(e) = spawned {
        // Without it the histograms grow until scraped: say so loudly, but serve.
        tracing::error!(error = %e, "cannot start the metrics upkeep thread");
    }
}

/// The `process_*` gauges' collector (read at each scrape).
fn process_collector() -> &'static metrics_process::Collector {
    static COLLECTOR: OnceLock<metrics_process::Collector> = OnceLock::new();
    COLLECTOR.get_or_init(metrics_process::Collector::default)
}

/// Installs the recorder (so counts start with the server, not with the first scrape) and
/// its upkeep.
pub fn install() {
    let _ = handle();
}

/// Counts and times each routed request by its route's pattern.
pub async fn record(req: Request, next: Next) -> Response {
    let route = req
        .extensions()
        .get::<MatchedPath>()
        .map_or("unmatched", |p| route_label(p.as_str()));
    let started = Instant::now();
    let response = next.run(req).await;
    let status = status_label(response.status());
    metrics::counter!("tronpool_http_requests_total", "route" => route, "status" => status)
        .increment(1);
    metrics::histogram!(DURATION, "route" => route).record(started.elapsed().as_secs_f64());
    response
}

/// A route's 200s, resolved once: what [`record`] counts for each request by looking its
/// labels up, for the answers that skip the router (`api::hot`).
pub(super) struct RouteMetrics {
    ok: metrics::Counter,
    duration: metrics::Histogram,
}

impl RouteMetrics {
    pub(super) fn new(route: &'static str) -> Self {
        // The handles bind to the recorder installed now: install it first.
        install();
        RouteMetrics {
            ok: metrics::counter!("tronpool_http_requests_total", "route" => route, "status" => "200"),
            duration: metrics::histogram!(DURATION, "route" => route),
        }
    }

    /// One request answered 200, started at `started`.
    pub(super) fn answered(&self, started: Instant) {
        self.ok.increment(1);
        self.duration.record(started.elapsed().as_secs_f64());
    }
}

/// A matched route's pattern as the router's own static string, so labelling a request
/// allocates nothing; a pattern missing from [`super::ENDPOINTS`] is "other".
fn route_label(pattern: &str) -> &'static str {
    super::ENDPOINTS
        .iter()
        .find(|(_, path, _)| *path == pattern)
        .map(|(_, path, _)| *path)
        .or_else(|| {
            super::PAGE_PATHS
                .iter()
                .find(|path| **path == pattern)
                .copied()
        })
        .unwrap_or("other")
}

/// The status as a label: the codes the API answers with are static strings.
fn status_label(status: StatusCode) -> std::borrow::Cow<'static, str> {
    let code = match status.as_u16() {
        200 => "200",
        202 => "202",
        204 => "204",
        400 => "400",
        403 => "403",
        404 => "404",
        405 => "405",
        409 => "409",
        413 => "413",
        422 => "422",
        429 => "429",
        500 => "500",
        502 => "502",
        503 => "503",
        504 => "504",
        other => return other.to_string().into(),
    };
    code.into()
}

/// A request answered 429 by `budget`.
pub fn rate_limited(budget: &'static str) {
    metrics::counter!("tronpool_rate_limited_total", "budget" => budget).increment(1);
}

/// Whether `serve` is ready, as `/readyz` last said.
pub(crate) fn set_ready(ready: bool) {
    metrics::gauge!("tronpool_ready").set(if ready { 1.0 } else { 0.0 });
}

/// The relayer's jobs, by state.
pub(crate) fn set_relayer_jobs(counts: impl IntoIterator<Item = (String, u64)>) {
    for (state, count) in counts {
        metrics::gauge!("tronpool_relayer_jobs", "state" => state).set(count as f64);
    }
}

/// PostgreSQL's pool: connections open, and of those idle.
pub(crate) fn set_db_connections((open, idle): (usize, usize)) {
    metrics::gauge!("tronpool_db_connections", "state" => "open").set(open as f64);
    metrics::gauge!("tronpool_db_connections", "state" => "idle").set(idle as f64);
}

/// Every metric in Prometheus' text format, the process's own read now.
pub(crate) fn exposition() -> String {
    process_collector().collect();
    handle().map_or_else(String::new, |h| {
        h.run_upkeep();
        h.render()
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn labels_are_the_routes_patterns_and_the_status_codes() {
        for (_, path, _) in super::super::ENDPOINTS {
            assert_eq!(route_label(path), *path);
        }
        assert_eq!(route_label("/api/nothing/{here}"), "other");
        // The web page's files are counted under their own paths too.
        assert_eq!(route_label("/prover.wasm"), "/prover.wasm");
        assert_eq!(status_label(StatusCode::OK), "200");
        assert_eq!(status_label(StatusCode::TOO_MANY_REQUESTS), "429");
        assert_eq!(status_label(StatusCode::IM_A_TEAPOT), "418");
    }
}
