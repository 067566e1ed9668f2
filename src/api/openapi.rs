//! `/api/openapi.json`: the API described in OpenAPI 3.1, derived from the handlers'
//! `#[utoipa::path]` attributes and the wire types' `ToSchema` derives, so the document says
//! what the code reads and writes. What every answer shares is added here once: the
//! `{ok, data}` envelope around each success, the `Error` body of each failure, and the
//! failures any `/api` endpoint can answer (429, 502, 504).

use std::sync::OnceLock;

use axum::Json;
use serde_json::{Map, Value, json};
use utoipa::OpenApi;

use crate::error::Kind;

#[derive(OpenApi)]
#[openapi(paths(
    super::pools::list,
    super::pools::show,
    super::pools::root,
    super::pools::check_spent,
    super::pools::can_withdraw,
    super::pools::leaves,
    super::pools::withdrawals,
    super::wallet::balance,
    super::wallet::allowance,
    super::tx::approve,
    super::tx::deposit,
    super::tx::withdraw,
    super::health::health,
    super::health::livez,
    super::health::metrics,
    super::health::readyz,
    super::relayer::status,
    super::relayer::withdraw,
    super::relayer::job,
    super::relayer::job_for_note,
    document,
))]
struct Api;

/// What the document says of the API as a whole.
const DESCRIPTION: &str = "A privacy pool for TRC-20 USDT on TRON. Every answer is \
    {ok: true, data} or {ok: false, error, kind}. Amounts are a number in whole units plus a \
    …Raw decimal string in base units. Rate limits per client: see the ratelimit-limit, \
    ratelimit-remaining and ratelimit-reset (seconds until the whole budget is back) headers, \
    and retry-after on a 429. Every answer carries an x-request-id header, the id the \
    server's log names the request by. A path longer than 256 bytes or a query longer than \
    256 bytes is answered 400. Past the server's cap on requests in flight any endpoint but \
    /livez answers 503 with retry-after.";

/// The document, built once.
pub fn spec() -> &'static Value {
    static SPEC: OnceLock<Value> = OnceLock::new();
    SPEC.get_or_init(build)
}

/// This document.
#[utoipa::path(get, path = "/api/openapi.json", responses(
        (status = 200, description = "OpenAPI 3.1"),
))]
pub async fn document() -> Json<Value> {
    Json(spec().clone())
}

fn build() -> Value {
    let mut doc = serde_json::to_value(Api::openapi()).expect("the document serializes");
    doc["info"] = json!({
        "title": "tronpool",
        "version": env!("CARGO_PKG_VERSION"),
        "description": DESCRIPTION,
    });
    let paths = doc["paths"].as_object_mut().expect("paths");
    for (path, item) in paths.iter_mut() {
        let shared =
            path.starts_with("/api/") && path != "/api/health" && path != "/api/openapi.json";
        for operation in item.as_object_mut().expect("a path item").values_mut() {
            name(operation);
            let Some(responses) = operation["responses"].as_object_mut() else {
                continue;
            };
            for (status, response) in responses.iter_mut() {
                envelope(status, response);
            }
            if shared {
                for (status, why) in [
                    ("429", "Rate limited; see the retry-after header"),
                    ("502", "The TRON node failed"),
                    ("504", "The TRON node or the request timed out"),
                ] {
                    let mut response = json!({ "description": why });
                    envelope(status, &mut response);
                    responses.insert(status.into(), response);
                }
            }
        }
    }
    doc["components"]["schemas"]["Error"] = error_schema();
    doc
}

/// Tags an operation by the API module that serves it (`pools`, `relayer`, …) and makes its
/// id unique with it (`tx_withdraw` and `relayer_withdraw` are both `withdraw` in their
/// modules).
fn name(operation: &mut Value) {
    // A summary is a doc comment's first paragraph: one line, as it reads.
    if let Some(summary) = operation["summary"].as_str() {
        let line = summary.split_whitespace().collect::<Vec<_>>().join(" ");
        operation["summary"] = json!(line.trim_end_matches('.'));
    }
    let tag = operation["tags"][0]
        .as_str()
        .map(|t| t.trim_start_matches("super::").to_owned());
    if let Some(tag) = tag {
        let id = operation["operationId"]
            .as_str()
            .unwrap_or_default()
            .to_owned();
        operation["operationId"] = json!(format!("{tag}_{id}"));
        operation["tags"] = json!([tag]);
    }
}

/// Wraps a success's JSON body in `{ok: true, data}` and gives a failure the `Error` body.
fn envelope(status: &str, response: &mut Value) {
    if status.starts_with('2') {
        let Some(json) = response.pointer_mut("/content/application~1json/schema") else {
            return;
        };
        *json = json!({
            "type": "object",
            "required": ["ok", "data"],
            "properties": { "ok": { "const": true }, "data": json.take() }
        });
    } else {
        response["content"] = json!({
            "application/json": { "schema": { "$ref": "#/components/schemas/Error" } }
        });
    }
}

/// `{ok: false, error, kind}`, with every kind an error can have.
fn error_schema() -> Value {
    let kinds: Vec<&str> = Kind::ALL.iter().map(|k| k.name()).collect();
    let mut properties = Map::new();
    properties.insert("ok".into(), json!({ "const": false }));
    properties.insert("error".into(), json!({ "type": "string" }));
    properties.insert(
        "kind".into(),
        json!({ "enum": kinds,
                "description": "The failure's class; the CLI's exit code follows from it" }),
    );
    json!({ "type": "object", "required": ["ok", "error", "kind"], "properties": properties })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_endpoint_is_described() {
        let paths = spec()["paths"].as_object().expect("paths");
        for (method, path, _) in crate::api::ENDPOINTS {
            let operation = &paths
                .get(*path)
                .unwrap_or_else(|| panic!("{path} is not in the document"))[method.to_lowercase()];
            assert!(operation.is_object(), "{method} {path} is not described");
        }
        assert_eq!(paths.len(), crate::api::ENDPOINTS.len(), "no stale paths");
        // Every operation has an id of its own.
        let mut ids: Vec<&str> = paths
            .values()
            .flat_map(|item| item.as_object().unwrap().values())
            .map(|operation| operation["operationId"].as_str().expect("an operationId"))
            .collect();
        let count = ids.len();
        ids.sort_unstable();
        ids.dedup();
        assert_eq!(ids.len(), count, "operationIds are unique: {ids:?}");
        // Every reference resolves.
        let text = spec().to_string();
        let schemas = spec()["components"]["schemas"].as_object().unwrap();
        for piece in text.split("#/components/schemas/").skip(1) {
            let name: String = piece.chars().take_while(|c| c.is_alphanumeric()).collect();
            assert!(schemas.contains_key(&name), "missing schema {name}");
        }
    }
}
