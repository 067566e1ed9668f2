//! The web page (`web/` in the repository): a wallet front end for people with TronLink, served
//! at `/` beside the API (`serve --no-web` turns it off). Its files are compiled into the
//! binary, the prover too when it was built (`scripts/web-prover`, see `build.rs`), so the page
//! loads nothing from any other origin than this server and the wallet's node.
//!
//! Every answer here carries a strict Content-Security-Policy: scripts only from here (and
//! WebAssembly compiled from them: `'wasm-unsafe-eval'`), workers only from here, requests
//! only to here and the node, no inline script or style, no frames, no forms posted
//! anywhere.

use std::sync::{Arc, OnceLock};

use axum::Router;
use axum::extract::State;
use axum::http::{HeaderMap, HeaderValue, StatusCode, header};
use axum::response::{IntoResponse, Response};
use axum::routing::get;

use sha2::{Digest, Sha256};

use super::app::App;
use super::errors::{ApiError, ApiResult};
use crate::envelope;

const INDEX: &str = include_str!("../../web/index.html");
const APP_JS: &str = include_str!("../../web/app.js");
const PROVER_JS: &str = include_str!("../../web/prover.js");
const STYLE: &str = include_str!("../../web/style.css");
/// Empty when the binary was built without the prover (see `build.rs`).
const PROVER_WASM: &[u8] = include_bytes!(concat!(env!("OUT_DIR"), "/prover.wasm"));
/// The same, gzipped at build time.
const PROVER_WASM_GZIP: &[u8] = include_bytes!(concat!(env!("OUT_DIR"), "/prover.wasm.gz"));

/// Whether this binary carries the browser's prover.
fn has_prover() -> bool {
    !PROVER_WASM.is_empty()
}

/// The page's routes, with the headers every one of its answers carries.
pub(crate) fn routes(app: &App) -> Router<Arc<App>> {
    // A node URL's origin always makes a header; should it ever not, allow no other origin.
    let policy = HeaderValue::from_str(&content_security_policy(Some(app.chain.node.url())))
        .or_else(|_| HeaderValue::from_str(&content_security_policy(None)))
        .expect("the policy without a node is plain ASCII");
    Router::new()
        .route(
            "/",
            get(|| async { page(INDEX, "text/html; charset=utf-8") }),
        )
        .route(
            "/app.js",
            get(|| async { page(APP_JS, "text/javascript; charset=utf-8") }),
        )
        .route(
            "/prover.js",
            get(|| async { page(PROVER_JS, "text/javascript; charset=utf-8") }),
        )
        .route(
            "/style.css",
            get(|| async { page(STYLE, "text/css; charset=utf-8") }),
        )
        .route("/prover.wasm", get(prover))
        .route("/web/deployment.json", get(deployment))
        .route("/web/withdraw.key", get(proving_key))
        .layer(axum::middleware::map_response(
            move |mut response: Response| {
                let policy = policy.clone();
                async move {
                    let headers = response.headers_mut();
                    headers.insert(header::CONTENT_SECURITY_POLICY, policy);
                    headers.insert(
                        header::X_CONTENT_TYPE_OPTIONS,
                        HeaderValue::from_static("nosniff"),
                    );
                    headers.insert(
                        header::REFERRER_POLICY,
                        HeaderValue::from_static("no-referrer"),
                    );
                    headers.insert(header::X_FRAME_OPTIONS, HeaderValue::from_static("DENY"));
                    headers
                        .entry(header::CACHE_CONTROL)
                        .or_insert(HeaderValue::from_static("no-cache"));
                    response
                }
            },
        ))
}

/// The policy: this server, and the node (a wallet's requests to it leave from the page).
fn content_security_policy(node: Option<&url::Url>) -> String {
    let connect = match node.map(|url| url.origin().ascii_serialization()) {
        Some(origin) if origin != "null" => format!("'self' {origin}"),
        _ => "'self'".to_string(),
    };
    format!(
        "default-src 'none'; script-src 'self' 'wasm-unsafe-eval'; worker-src 'self'; \
         connect-src {connect}; style-src 'self'; img-src 'self' data:; base-uri 'none'; \
         form-action 'none'; frame-ancestors 'none'"
    )
}

/// The comma-separated items of every `name` header (`Accept-Encoding`, `If-None-Match`),
/// trimmed, parameters (`;q=…`) cut off.
fn listed(headers: &HeaderMap, name: header::HeaderName) -> impl Iterator<Item = &str> {
    headers
        .get_all(name)
        .into_iter()
        .filter_map(|value| value.to_str().ok())
        .flat_map(|value| value.split(','))
        .filter_map(|item| item.split(';').next())
        .map(str::trim)
}

fn page(body: &'static str, content_type: &'static str) -> Response {
    ([(header::CONTENT_TYPE, content_type)], body).into_response()
}

async fn prover(headers: HeaderMap) -> ApiResult<Response> {
    if !has_prover() {
        return Err(ApiError::new(
            StatusCode::NOT_FOUND,
            "this build of tronpool has no browser prover: build it with scripts/web-prover, \
             then build tronpool again",
        ));
    }
    static TAG: OnceLock<String> = OnceLock::new();
    let tag = TAG.get_or_init(|| hex::encode(Sha256::digest(PROVER_WASM)));
    let gzip = listed(&headers, header::ACCEPT_ENCODING).any(|coding| coding == "gzip");
    // The two encodings are two representations: each has its own tag.
    let (body, tag) = if gzip {
        (PROVER_WASM_GZIP, format!("\"{tag}-gzip\""))
    } else {
        (PROVER_WASM, format!("\"{tag}\""))
    };
    let mut response = revalidated(&headers, &tag, || {
        ([(header::CONTENT_TYPE, "application/wasm")], body).into_response()
    });
    let out = response.headers_mut();
    out.insert(header::VARY, HeaderValue::from_static("accept-encoding"));
    if gzip {
        out.insert(header::CONTENT_ENCODING, HeaderValue::from_static("gzip"));
    }
    Ok(response)
}

async fn deployment(State(app): State<Arc<App>>) -> ApiResult<Response> {
    let deployment = app.page.deployment(&app.chain).await?;
    let mut body = serde_json::to_value(&deployment)
        .map_err(|e| crate::error::Error::json("the page's deployment", e))?;
    body["prover"] = has_prover().into();
    body["version"] = env!("CARGO_PKG_VERSION").into();
    Ok(axum::Json(envelope::ok(&body)).into_response())
}

async fn proving_key(State(app): State<Arc<App>>, headers: HeaderMap) -> ApiResult<Response> {
    let deployment = app.page.deployment(&app.chain).await?;
    let tag = format!("\"{}\"", deployment.proving_key_sha256);
    let key = app.page.proving_key(&app.chain).await?;
    Ok(revalidated(&headers, &tag, || {
        let body = axum::body::Bytes::from_owner(ArcBytes(key));
        ([(header::CONTENT_TYPE, "application/octet-stream")], body).into_response()
    }))
}

/// An answer tagged with `tag` (its content's hash), or 304 without a body when the browser
/// already holds it (`If-None-Match`): a page opened again does not download megabytes again.
fn revalidated(headers: &HeaderMap, tag: &str, full: impl FnOnce() -> Response) -> Response {
    let held = listed(headers, header::IF_NONE_MATCH).any(|held| held == tag || held == "*");
    let mut response = if held {
        StatusCode::NOT_MODIFIED.into_response()
    } else {
        full()
    };
    if let Ok(value) = HeaderValue::from_str(tag) {
        response.headers_mut().insert(header::ETAG, value);
    }
    response
}

/// The cached key handed to a response without copying it.
struct ArcBytes(Arc<Vec<u8>>);

impl AsRef<[u8]> for ArcBytes {
    fn as_ref(&self) -> &[u8] {
        &self.0
    }
}
