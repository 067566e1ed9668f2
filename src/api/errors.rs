//! Every failure as the envelope with its status: service errors through the one table in
//! `crate::error`, and the HTTP layer's own (bad JSON, wrong method, oversized body, unknown
//! route, timeouts, panics) here.

use axum::Json;
use axum::extract::rejection::{JsonRejection, PathRejection};
use axum::extract::{FromRequest, FromRequestParts, Request};
use axum::http::StatusCode;
use axum::http::request::Parts;
use axum::response::{IntoResponse, Response};
use serde::de::DeserializeOwned;

use crate::envelope;
use crate::error::{Error, Kind};

/// A failure on its way to the client.
#[derive(Debug)]
pub struct ApiError {
    pub status: StatusCode,
    pub message: String,
    pub kind: Kind,
}

impl ApiError {
    /// An HTTP-layer failure; its kind follows from its status.
    pub fn new(status: StatusCode, message: impl Into<String>) -> Self {
        ApiError {
            status,
            message: message.into(),
            kind: Kind::from_http_status(status.as_u16()),
        }
    }
}

impl From<Error> for ApiError {
    /// The client gets [`Error::public_message`]; the whole error goes to the log, inside the
    /// request's span, so its line carries the request id the response's `x-request-id` has.
    fn from(e: Error) -> Self {
        let status =
            StatusCode::from_u16(e.http_status()).unwrap_or(StatusCode::INTERNAL_SERVER_ERROR);
        let message = e.public_message();
        if status.is_server_error() {
            tracing::warn!(status = status.as_u16(), error = %e, "request failed");
        } else if message != e.to_string() {
            tracing::info!(status = status.as_u16(), error = %e, "request refused");
        }
        ApiError {
            status,
            message,
            kind: e.kind(),
        }
    }
}

impl IntoResponse for ApiError {
    fn into_response(self) -> Response {
        (self.status, Json(envelope::error(&self.message, self.kind))).into_response()
    }
}

/// What every handler returns.
pub(crate) type ApiResult<T> = Result<T, ApiError>;

/// A JSON request body whose every rejection is the envelope: 415 without a JSON content
/// type, 413 past the body limit, 400 for bad JSON or a body of the wrong shape.
pub struct Body<T>(pub T);

impl<S: Send + Sync, T: DeserializeOwned> FromRequest<S> for Body<T> {
    type Rejection = ApiError;

    async fn from_request(req: Request, state: &S) -> Result<Self, Self::Rejection> {
        match Json::<T>::from_request(req, state).await {
            Ok(Json(value)) => Ok(Body(value)),
            Err(rejection) => Err(rejection_error(rejection)),
        }
    }
}

/// Path segments whose every rejection (bad percent-encoding, not UTF-8) is the envelope's
/// 400, never axum's plain text.
pub struct Segments<T>(pub T);

impl<S: Send + Sync, T: DeserializeOwned + Send> FromRequestParts<S> for Segments<T> {
    type Rejection = ApiError;

    async fn from_request_parts(parts: &mut Parts, state: &S) -> Result<Self, Self::Rejection> {
        match axum::extract::Path::<T>::from_request_parts(parts, state).await {
            Ok(axum::extract::Path(value)) => Ok(Segments(value)),
            Err(rejection) => Err(path_error(rejection)),
        }
    }
}

fn path_error(rejection: PathRejection) -> ApiError {
    let status = rejection.status();
    tracing::info!(error = %rejection.body_text(), "path rejected");
    if status.is_server_error() {
        ApiError::new(status, "internal error: the route's parameters")
    } else {
        ApiError::new(
            StatusCode::BAD_REQUEST,
            "a path segment is not valid percent-encoded UTF-8",
        )
    }
}

fn rejection_error(rejection: JsonRejection) -> ApiError {
    match rejection {
        JsonRejection::MissingJsonContentType(_) => ApiError::new(
            StatusCode::UNSUPPORTED_MEDIA_TYPE,
            "the body must be JSON, sent with content-type: application/json",
        ),
        JsonRejection::JsonSyntaxError(e) => ApiError::new(
            StatusCode::BAD_REQUEST,
            format!("bad JSON: {}", source_text(&e)),
        ),
        JsonRejection::JsonDataError(e) => ApiError::new(
            StatusCode::BAD_REQUEST,
            format!("bad request body: {}", source_text(&e)),
        ),
        JsonRejection::BytesRejection(e) if e.status() == StatusCode::PAYLOAD_TOO_LARGE => {
            ApiError::new(
                StatusCode::PAYLOAD_TOO_LARGE,
                "the request body is too large",
            )
        }
        other => ApiError::new(other.status(), other.body_text()),
    }
}

/// serde's own words ("missing field `from` at line 1 column 2"), without axum's preamble.
fn source_text(e: &dyn std::error::Error) -> String {
    let mut deepest = e.to_string();
    let mut source = e.source();
    while let Some(s) = source {
        deepest = s.to_string();
        source = s.source();
    }
    deepest
}

/// Unknown paths.
pub async fn not_found(req: Request) -> ApiError {
    ApiError::new(
        StatusCode::NOT_FOUND,
        format!(
            "no such endpoint: {} (see /api/openapi.json)",
            req.uri().path()
        ),
    )
}

/// Known paths asked with the wrong method.
pub(crate) async fn method_not_allowed(req: Request) -> ApiError {
    ApiError::new(
        StatusCode::METHOD_NOT_ALLOWED,
        format!("{} is not allowed on {}", req.method(), req.uri().path()),
    )
}

/// A handler that panicked: the client gets the envelope, the log gets the details.
pub fn panicked(payload: Box<dyn std::any::Any + Send + 'static>) -> Response {
    let what = payload
        .downcast_ref::<&str>()
        .map(|s| s.to_string())
        .or_else(|| payload.downcast_ref::<String>().cloned())
        .unwrap_or_default();
    tracing::error!(panic = %what, "a request handler panicked (a bug in tronpool)");
    ApiError::new(
        StatusCode::INTERNAL_SERVER_ERROR,
        "internal error (a bug in tronpool; the server logged it)",
    )
    .into_response()
}

/// The failures of an endpoint that names a pool, for the OpenAPI document (their bodies are
/// the `Error` envelope, added by `api::openapi`).
#[derive(utoipa::IntoResponses)]
#[allow(dead_code)] // Only the document reads these.
pub(crate) enum PoolFailures {
    /// Malformed input
    #[response(status = 400)]
    Malformed,
    /// Unknown pool
    #[response(status = 404)]
    UnknownPool,
}

/// The failures of the transaction builders (`/api/tx/*`).
#[derive(utoipa::IntoResponses)]
#[allow(dead_code)] // Only the document reads these.
pub(crate) enum BuilderFailures {
    /// Malformed input
    #[response(status = 400)]
    Malformed,
    /// Unknown pool
    #[response(status = 404)]
    UnknownPool,
    /// Nullifier already spent
    #[response(status = 409)]
    Spent,
    /// Body too large
    #[response(status = 413)]
    TooLarge,
    /// Not JSON
    #[response(status = 415)]
    NotJson,
    /// The chain or the proof says no; the reason is in `error`
    #[response(status = 422)]
    Refused,
}

/// The pool a path names, for the OpenAPI document.
#[derive(utoipa::IntoParams)]
#[into_params(parameter_in = Path)]
#[allow(dead_code)] // Only the document reads it; handlers take the segment as text.
pub(crate) struct PoolPath {
    /// A pool's denomination in whole USDT: 100, 500, 1000, 3000, 5000 or 10000
    denom: String,
}

/// A page of a pool's leaves or withdrawals, for the OpenAPI document.
#[derive(utoipa::IntoParams)]
#[into_params(parameter_in = Query)]
#[allow(dead_code)] // Only the document reads it; handlers parse the query themselves.
pub(crate) struct PageQuery {
    /// The first one, by its index (default 0)
    from: Option<u32>,
    /// At most this many (default and cap 1000)
    limit: Option<u32>,
}

/// A page of a pool's leaves, for the OpenAPI document.
#[derive(utoipa::IntoParams)]
#[into_params(parameter_in = Query)]
#[allow(dead_code)] // Only the document reads it; the handler parses the query itself.
pub(crate) struct LeavesQuery {
    /// The first leaf, by its index (default 0)
    from: Option<u32>,
    /// At most this many (default and cap 1000 entries, 65536 packed)
    limit: Option<u32>,
    /// `entries` (default: one object a leaf) or `packed` (each field as one hex string or
    /// array, for a client that syncs a whole pool)
    format: Option<String>,
}
