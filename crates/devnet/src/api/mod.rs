//! The HTTP API: java-tron's `/wallet/*` and `/walletsolidity/*`, TronGrid's `/v1/*`, and
//! the devnet's own `/devnet/*` controls.
//!
//! Handlers return `Result<_, Response>`: an error is already the answer java-tron would give,
//! built once per request, so its size does not matter.
#![allow(clippy::result_large_err)]

mod control;
mod events;
pub(crate) mod render;
mod trongrid;
mod wallet;

use std::collections::HashMap;
use std::sync::Arc;

use axum::Router;
use axum::body::Bytes;
use axum::extract::DefaultBodyLimit;
use axum::http::{HeaderValue, StatusCode, header};
use axum::response::{IntoResponse, Response};
use axum::routing::{any, get};
use serde_json::{Map, Value};
use tron::Address;

use crate::Shared;

/// java-tron's default `node.http.maxMessageSize`.
const MAX_BODY: usize = 4 * 1024 * 1024;

/// The API; without `events_api`, TronGrid's `/v1/*` routes are left out and answer 404 like
/// any path java-tron does not serve.
pub(crate) fn router(shared: Arc<Shared>, events_api: bool) -> Router {
    let router = if events_api {
        Router::new()
            .route("/v1/contracts/{address}/events", get(trongrid::events))
            .route("/v1/accounts/{address}", get(trongrid::account))
    } else {
        Router::new()
    };
    router
        .route("/healthcheck", get(trongrid::healthcheck))
        .route("/devnet/{action}", any(control::dispatch))
        .fallback(wallet::dispatch)
        .layer(DefaultBodyLimit::max(MAX_BODY))
        .with_state(shared)
}

/// A JSON answer with java-tron's content type. java-tron answers 200 even for errors.
pub(crate) fn json(value: Value) -> Response {
    json_status(StatusCode::OK, value)
}

pub(crate) fn json_status(status: StatusCode, value: Value) -> Response {
    let mut response = (status, value.to_string()).into_response();
    response.headers_mut().insert(
        header::CONTENT_TYPE,
        HeaderValue::from_static("application/json; charset=utf-8"),
    );
    response
}

/// java-tron's answer to an exception in a servlet: `{"Error": "<class> : <message>"}`.
pub(crate) fn java_error(class: &str, message: impl std::fmt::Display) -> Response {
    json(serde_json::json!({ "Error": format!("class {class} : {message}") }))
}

/// The request parameters, from the query string and the body (JSON or form-encoded), the
/// body winning, as java-tron's `PostParams` merges them.
pub(crate) struct Params {
    map: Map<String, Value>,
    /// `visible` as java-tron reads it for most endpoints (body or query).
    pub visible: bool,
    /// `visible` from the query string only (`getnowblock`, `getchainparameters`).
    pub query_visible: bool,
    /// Asked of `/walletsolidity/*` (or `/walletpbft/*`): answered from the head block's
    /// state, without the pending pool.
    pub solidity: bool,
}

impl Params {
    pub(crate) fn parse(query: &HashMap<String, String>, body: &Bytes) -> Result<Params, Response> {
        let mut map: Map<String, Value> = query
            .iter()
            .map(|(k, v)| (k.clone(), Value::String(v.clone())))
            .collect();
        let query_visible = query.get("visible").is_some_and(|v| truthy_str(v));
        let text = std::str::from_utf8(body).map_err(|_| {
            java_error(
                "java.lang.IllegalArgumentException",
                "the body is not UTF-8",
            )
        })?;
        if !text.trim().is_empty() {
            match serde_json::from_str::<Value>(text) {
                Ok(Value::Object(obj)) => map.extend(obj),
                Ok(_) => {
                    return Err(java_error(
                        "com.alibaba.fastjson.JSONException",
                        "the body must be a JSON object",
                    ));
                }
                Err(e) if text.trim_start().starts_with(['{', '[']) => {
                    return Err(java_error("com.alibaba.fastjson.JSONException", e));
                }
                Err(_) => {
                    for pair in text.split('&').filter(|p| !p.is_empty()) {
                        let (k, v) = pair.split_once('=').unwrap_or((pair, ""));
                        map.insert(k.to_owned(), Value::String(v.to_owned()));
                    }
                }
            }
        }
        let visible = map.get("visible").is_some_and(truthy);
        Ok(Params {
            map,
            visible,
            query_visible,
            solidity: false,
        })
    }

    pub(crate) fn raw(&self) -> &Map<String, Value> {
        &self.map
    }

    pub(crate) fn get(&self, key: &str) -> Option<&Value> {
        self.map.get(key).filter(|v| !v.is_null())
    }

    pub(crate) fn str(&self, key: &str) -> Option<String> {
        match self.get(key)? {
            Value::String(s) => Some(s.clone()),
            other => Some(other.to_string()),
        }
    }

    /// An integer given as a JSON number or a decimal string; absent means 0.
    pub(crate) fn int(&self, key: &str) -> Result<i64, Response> {
        match self.get(key) {
            None => Ok(0),
            Some(Value::Number(n)) => n.as_i64().ok_or_else(|| bad_number(key)),
            Some(Value::String(s)) if s.is_empty() => Ok(0),
            Some(Value::String(s)) => s.trim().parse().map_err(|_| bad_number(key)),
            Some(_) => Err(bad_number(key)),
        }
    }

    pub(crate) fn bool(&self, key: &str) -> bool {
        self.get(key).is_some_and(truthy)
    }

    /// Hex bytes (`0x` optional); absent means empty.
    pub(crate) fn hex(&self, key: &str) -> Result<Vec<u8>, Response> {
        let Some(text) = self.str(key) else {
            return Ok(Vec::new());
        };
        hex::decode(text.trim_start_matches("0x")).map_err(|e| {
            java_error(
                "org.bouncycastle.util.encoders.DecoderException",
                format!("exception decoding Hex string: {e} (field {key})"),
            )
        })
    }

    /// An address in either form; `None` when absent.
    pub(crate) fn address(&self, key: &str) -> Result<Option<Address>, Response> {
        match self.str(key) {
            None => Ok(None),
            Some(s) if s.is_empty() => Ok(None),
            Some(s) => s.parse::<Address>().map(Some).map_err(|e| {
                java_error(
                    "java.lang.IllegalArgumentException",
                    format!("Invalid {key}: {e}"),
                )
            }),
        }
    }
}

fn bad_number(key: &str) -> Response {
    java_error(
        "java.lang.NumberFormatException",
        format!("For input string of {key}"),
    )
}

fn truthy(v: &Value) -> bool {
    match v {
        Value::Bool(b) => *b,
        Value::String(s) => truthy_str(s),
        _ => false,
    }
}

fn truthy_str(s: &str) -> bool {
    s.eq_ignore_ascii_case("true")
}
