//! `/api/balance` and `/api/allowance`: what an address holds and has allowed a pool.

use std::sync::Arc;

use axum::Json;
use axum::extract::State;
use serde_json::Value;

use super::app::App;
use super::errors::{ApiResult, Segments};
use crate::envelope;
use crate::service::balances;
use crate::service::inputs;

pub async fn balance(
    State(app): State<Arc<App>>,
    Segments(address): Segments<String>,
) -> ApiResult<Json<Value>> {
    let address = inputs::address(&address, "address")?;
    Ok(Json(envelope::ok(
        &balances::balance(&app.chain, address).await?,
    )))
}

pub async fn allowance(
    State(app): State<Arc<App>>,
    Segments((address, denom)): Segments<(String, String)>,
) -> ApiResult<Json<Value>> {
    let address = inputs::address(&address, "address")?;
    let denomination = app.denomination(&denom)?;
    Ok(Json(envelope::ok(
        &balances::allowance(&app.chain, address, denomination).await?,
    )))
}
