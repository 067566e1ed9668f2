//! `/api/health`: 200 while the node answers, 503 (with the same report) when it does not.

use std::sync::Arc;

use axum::Json;
use axum::extract::State;
use axum::http::StatusCode;
use axum::response::{IntoResponse, Response};
use serde_json::json;

use super::App;
use crate::envelope;

pub async fn health(State(app): State<Arc<App>>) -> Response {
    let health = app.chain.health().await;
    if health.is_ok() {
        return Json(envelope::ok(&health)).into_response();
    }
    // A load balancer reads the status; a person reads why. The report rides along with the
    // error so both are in one answer.
    let why = health.node.error.clone().unwrap_or_default();
    let mut body = envelope::error(
        &format!("the node is unreachable: {why}"),
        crate::error::Kind::Unavailable,
    );
    body["data"] = json!(health);
    (StatusCode::SERVICE_UNAVAILABLE, Json(body)).into_response()
}
