//! The probes, never rate limited: `/livez` (the process answers: always 200), `/readyz`
//! (every readiness check passed: 200, else 503, both listing the checks), the spec's
//! `/api/health` (200 while the node answers, 503 with the same report when it does not; it
//! lists the same checks) and `/metrics` (the counters `api::metrics` keeps, with readiness
//! as a gauge). Readiness is computed at most once a second however often it is
//! asked, so probes cannot load the node or the database.

use std::sync::Arc;

use axum::Json;
use axum::extract::State;
use axum::http::{HeaderValue, StatusCode, header};
use axum::response::{IntoResponse, Response};
use serde_json::json;

use super::app::App;
use super::metrics;
use crate::envelope;
use crate::error::Kind;
use crate::service::health;
use crate::service::health::{HealthReport, Readiness};

/// Server and node health, with the readiness checks.
///
/// Never rate limited.
#[utoipa::path(get, path = "/api/health", responses(
        (status = 200, description = "Success", body = HealthReport),
        (status = 503, description = "The node is unreachable: {ok: false, error, data: Health}"),
))]
pub async fn health(State(app): State<Arc<App>>) -> Response {
    let (health, readiness) = tokio::join!(health::health(&app.chain), readiness(&app));
    let why = (!health.is_ok()).then(|| health.node.error.clone().unwrap_or_default());
    let data = json!(HealthReport {
        health,
        readiness: &readiness,
    });
    let Some(why) = why else {
        return Json(envelope::ok(&data)).into_response();
    };
    // A load balancer reads the status; a person reads why. The report rides along with the
    // error so both are in one answer.
    let mut body = envelope::error(
        &format!("the node is unreachable: {why}"),
        Kind::Unavailable,
    );
    body["data"] = data;
    (StatusCode::SERVICE_UNAVAILABLE, Json(body)).into_response()
}

/// `GET /livez`'s data.
#[derive(utoipa::ToSchema)]
#[allow(dead_code)] // Written as JSON below; this says its shape.
pub(crate) struct Alive {
    #[schema(schema_with = alive)]
    status: String,
}

fn alive() -> utoipa::openapi::schema::ObjectBuilder {
    utoipa::openapi::schema::ObjectBuilder::new()
        .schema_type(utoipa::openapi::schema::Type::String)
        .enum_values(Some(["alive"]))
}

/// Liveness: the process answers (always 200).
///
/// Never rate limited.
#[utoipa::path(get, path = "/livez", responses(
        (status = 200, description = "Success", body = Alive),
))]
pub async fn livez() -> Json<serde_json::Value> {
    Json(envelope::ok(&json!({ "status": "alive" })))
}

/// Readiness: the node reachable with a fresh head block, the database writable, the
/// relayer's watcher alive and its balance above its minimum.
///
/// Never rate limited; computed at most once a second. 503 lists every check as data, the
/// failed ones in error.
#[utoipa::path(get, path = "/readyz", responses(
        (status = 200, description = "Success", body = Readiness),
        (status = 503, description = "Not ready: {ok: false, error, data: Readiness}"),
))]
pub async fn readyz(State(app): State<Arc<App>>) -> Response {
    let readiness = readiness(&app).await;
    if readiness.ready {
        return Json(envelope::ok(&*readiness)).into_response();
    }
    let failed: Vec<_> = readiness
        .checks
        .iter()
        .filter(|c| !c.ok)
        .map(|c| format!("{}: {}", c.name, c.detail))
        .collect();
    let mut body = envelope::error(
        &format!("not ready: {}", failed.join("; ")),
        Kind::Unavailable,
    );
    body["data"] = json!(*readiness);
    (StatusCode::SERVICE_UNAVAILABLE, Json(body)).into_response()
}

/// Counters in Prometheus' text format: requests by route and status, their latency
/// (histogram), rate-limit rejections by budget, the relayer's jobs by state.
///
/// Never rate limited.
#[utoipa::path(get, path = "/metrics", tag = "metrics", operation_id = "render", responses(
        (status = 200, description = "Prometheus text format 0.0.4", body = String, content_type = "text/plain"),
))]
pub async fn metrics(State(app): State<Arc<App>>) -> Response {
    metrics::set_ready(readiness(&app).await.ready);
    if let Some(relayer) = &app.relayer {
        match relayer.jobs().count_by_state() {
            Ok(counts) => metrics::set_relayer_jobs(counts),
            Err(e) => tracing::warn!(error = %e, "metrics: counting the relayer's jobs"),
        }
        if let Some(connections) = relayer.database_connections() {
            metrics::set_db_connections(connections);
        }
    }
    (
        [(
            header::CONTENT_TYPE,
            HeaderValue::from_static("text/plain; version=0.0.4"),
        )],
        metrics::exposition(),
    )
        .into_response()
}

async fn readiness(app: &App) -> Arc<Readiness> {
    let computed = app
        .readiness
        .get(|| async { Ok(health::readiness(&app.chain, app.relayer.as_deref()).await) })
        .await;
    // The computation itself never fails; a cache error would be a bug, reported as not ready.
    computed.unwrap_or_else(|e| {
        tracing::error!(error = %e, "readiness");
        Arc::new(Readiness {
            ready: false,
            checks: Vec::new(),
        })
    })
}
