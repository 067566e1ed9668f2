//! `/api/pools`: the pools, their roots, questions about nullifiers, and their leaves and
//! withdrawals for another client to sync from.

use std::sync::Arc;

use axum::Json;
use axum::body::Bytes;
use axum::extract::{RawQuery, State};
use axum::http::{HeaderValue, header};
use axum::response::{IntoResponse, Response};
use serde::Deserialize;
use serde_json::{Value, json};

use super::app::App;
use super::errors::{ApiResult, Body, Segments};
use crate::envelope;
use crate::service::inputs;
use crate::service::pools;
use crate::service::sync;
use crate::service::sync::MAX_PAGE;

#[derive(Deserialize)]
#[serde(deny_unknown_fields, rename_all = "camelCase")]
pub(crate) struct CheckSpent {
    nullifier_hash: String,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields, rename_all = "camelCase")]
pub(crate) struct CanWithdraw {
    nullifier_hash: String,
    root: String,
}

pub async fn list(State(app): State<Arc<App>>) -> ApiResult<Response> {
    let terms = app.fee_terms().await;
    let reads = app
        .chain
        .denominations()
        .into_iter()
        .map(|d| pools::pool_read(&app.chain, d, terms.as_ref()));
    let reads = futures_util::future::try_join_all(reads).await?;
    app.shown_fees(terms.as_ref(), &reads);
    let body = app.listings.all(&reads, || {
        let pools = reads
            .iter()
            .map(|read| pools::pool_view(&app.chain, read))
            .collect::<crate::Result<Vec<_>>>()?;
        Ok(envelope::ok(&json!({ "pools": pools })))
    })?;
    Ok(json_bytes(body))
}

pub async fn show(
    State(app): State<Arc<App>>,
    Segments(denom): Segments<String>,
) -> ApiResult<Response> {
    let denomination = app.denomination(&denom)?;
    let terms = app.fee_terms().await;
    let read = pools::pool_read(&app.chain, denomination, terms.as_ref()).await?;
    app.shown_fees(terms.as_ref(), [&read]);
    let body = app.listings.one(&read, || {
        Ok(envelope::ok(&pools::pool_view(&app.chain, &read)?))
    })?;
    Ok(json_bytes(body))
}

/// A JSON body already serialized.
fn json_bytes(body: Bytes) -> Response {
    (
        [(
            header::CONTENT_TYPE,
            HeaderValue::from_static("application/json"),
        )],
        body,
    )
        .into_response()
}

pub async fn root(
    State(app): State<Arc<App>>,
    Segments(denom): Segments<String>,
) -> ApiResult<Json<Value>> {
    let denomination = app.denomination(&denom)?;
    Ok(Json(envelope::ok(
        &pools::root(&app.chain, denomination).await?,
    )))
}

pub(crate) async fn check_spent(
    State(app): State<Arc<App>>,
    Segments(denom): Segments<String>,
    Body(body): Body<CheckSpent>,
) -> ApiResult<Json<Value>> {
    let denomination = app.denomination(&denom)?;
    let nullifier_hash = inputs::word(&body.nullifier_hash, "nullifierHash")?;
    let status = pools::check_spent(&app.chain, denomination, nullifier_hash).await?;
    Ok(Json(envelope::ok(&status)))
}

pub(crate) async fn can_withdraw(
    State(app): State<Arc<App>>,
    Segments(denom): Segments<String>,
    Body(body): Body<CanWithdraw>,
) -> ApiResult<Json<Value>> {
    let denomination = app.denomination(&denom)?;
    let nullifier_hash = inputs::word(&body.nullifier_hash, "nullifierHash")?;
    let root = inputs::word(&body.root, "root")?;
    let status = pools::can_withdraw(&app.chain, denomination, nullifier_hash, root).await?;
    Ok(Json(envelope::ok(&status)))
}

/// `GET /api/pools/{denom}/leaves?from=N&limit=M`: the pool's deposits in leaf order, for a
/// client to rebuild the tree from (it checks the root with its own node).
pub async fn leaves(
    State(app): State<Arc<App>>,
    Segments(denom): Segments<String>,
    RawQuery(query): RawQuery,
) -> ApiResult<Json<Value>> {
    let denomination = app.denomination(&denom)?;
    let (from, limit) = inputs::page_query(query.as_deref(), MAX_PAGE)?;
    let page = sync::leaves_page(&app.chain, &app.trees, denomination, from, limit).await?;
    Ok(Json(envelope::ok(&page)))
}

/// `GET /api/pools/{denom}/withdrawals?from=N&limit=M`: the pool's withdrawals, for a client
/// to tell its notes' spentness without asking a node.
pub async fn withdrawals(
    State(app): State<Arc<App>>,
    Segments(denom): Segments<String>,
    RawQuery(query): RawQuery,
) -> ApiResult<Json<Value>> {
    let denomination = app.denomination(&denom)?;
    let (from, limit) = inputs::page_query(query.as_deref(), MAX_PAGE)?;
    let page = sync::withdrawals_page(&app.chain, &app.trees, denomination, from, limit).await?;
    Ok(Json(envelope::ok(&page)))
}
