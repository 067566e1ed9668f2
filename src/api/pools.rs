//! `/api/pools`: the pools, their roots, and questions about nullifiers.

use std::sync::Arc;

use axum::Json;
use axum::extract::State;
use serde::Deserialize;
use serde_json::{Value, json};

use super::App;
use super::errors::{ApiResult, Body, Segments};
use crate::envelope;
use crate::service::inputs;

#[derive(Deserialize)]
#[serde(deny_unknown_fields, rename_all = "camelCase")]
pub struct CheckSpent {
    nullifier_hash: String,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields, rename_all = "camelCase")]
pub struct CanWithdraw {
    nullifier_hash: String,
    root: String,
}

pub async fn list(State(app): State<Arc<App>>) -> ApiResult<Json<Value>> {
    let terms = app.fee_terms().await;
    let pools = app.chain.pools(terms.as_ref()).await?;
    Ok(Json(envelope::ok(&json!({ "pools": pools }))))
}

pub async fn show(
    State(app): State<Arc<App>>,
    Segments(denom): Segments<String>,
) -> ApiResult<Json<Value>> {
    let denomination = app.denomination(&denom)?;
    let terms = app.fee_terms().await;
    let pool = app.chain.pool(denomination, terms.as_ref()).await?;
    Ok(Json(envelope::ok(&pool)))
}

pub async fn root(
    State(app): State<Arc<App>>,
    Segments(denom): Segments<String>,
) -> ApiResult<Json<Value>> {
    let denomination = app.denomination(&denom)?;
    Ok(Json(envelope::ok(&app.chain.root(denomination).await?)))
}

pub async fn check_spent(
    State(app): State<Arc<App>>,
    Segments(denom): Segments<String>,
    Body(body): Body<CheckSpent>,
) -> ApiResult<Json<Value>> {
    let denomination = app.denomination(&denom)?;
    let nullifier_hash = inputs::word(&body.nullifier_hash, "nullifierHash")?;
    let status = app.chain.check_spent(denomination, nullifier_hash).await?;
    Ok(Json(envelope::ok(&status)))
}

pub async fn can_withdraw(
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
