//! `/api/pools`: the pools, their roots, questions about nullifiers, and their leaves and
//! withdrawals for another client to sync from.

use std::sync::Arc;

use axum::Json;
use axum::extract::{RawQuery, State};
use serde::Deserialize;
use serde_json::{Value, json};

use super::App;
use super::errors::{ApiResult, Body, Segments};
use crate::envelope;
use crate::service::inputs;
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

pub async fn list(State(app): State<Arc<App>>) -> ApiResult<Json<Value>> {
    let terms = app.fee_terms().await;
    let pools = app.chain.pools(terms.as_ref()).await?;
    app.shown_fees(terms.as_ref(), &pools);
    Ok(Json(envelope::ok(&json!({ "pools": pools }))))
}

pub async fn show(
    State(app): State<Arc<App>>,
    Segments(denom): Segments<String>,
) -> ApiResult<Json<Value>> {
    let denomination = app.denomination(&denom)?;
    let terms = app.fee_terms().await;
    let pool = app.chain.pool(denomination, terms.as_ref()).await?;
    app.shown_fees(terms.as_ref(), [&pool]);
    Ok(Json(envelope::ok(&pool)))
}

pub async fn root(
    State(app): State<Arc<App>>,
    Segments(denom): Segments<String>,
) -> ApiResult<Json<Value>> {
    let denomination = app.denomination(&denom)?;
    Ok(Json(envelope::ok(&app.chain.root(denomination).await?)))
}

pub(crate) async fn check_spent(
    State(app): State<Arc<App>>,
    Segments(denom): Segments<String>,
    Body(body): Body<CheckSpent>,
) -> ApiResult<Json<Value>> {
    let denomination = app.denomination(&denom)?;
    let nullifier_hash = inputs::word(&body.nullifier_hash, "nullifierHash")?;
    let status = app.chain.check_spent(denomination, nullifier_hash).await?;
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
    let status = app
        .chain
        .can_withdraw(denomination, nullifier_hash, root)
        .await?;
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
    let page = app
        .chain
        .leaves_page(&app.trees, denomination, from, limit)
        .await?;
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
    let page = app
        .chain
        .withdrawals_page(&app.trees, denomination, from, limit)
        .await?;
    Ok(Json(envelope::ok(&page)))
}
