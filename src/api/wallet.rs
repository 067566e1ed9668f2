//! `/api/balance` and `/api/allowance`: what an address holds and has allowed a pool.

use std::sync::Arc;

use axum::Json;
use axum::extract::State;
use serde_json::Value;

use super::app::App;
use super::errors::{ApiResult, Segments};
use super::errors::{PoolFailures, PoolPath};
use crate::envelope;
use crate::service::balances;
use crate::service::balances::{Allowance, Balance};
use crate::service::inputs;

/// USDT and TRX held by an address.
#[utoipa::path(get, path = "/api/balance/{address}",
    params(("address" = String, Path, description = "A TRON address")), responses(
        (status = 200, description = "Success", body = Balance),
        (status = 400, description = "Bad address"),
))]
pub async fn balance(
    State(app): State<Arc<App>>,
    Segments(address): Segments<String>,
) -> ApiResult<Json<Value>> {
    let address = inputs::address(&address, "address")?;
    Ok(Json(envelope::ok(
        &balances::balance(&app.chain, address).await?,
    )))
}

/// USDT an address allows a pool to take.
#[utoipa::path(get, path = "/api/allowance/{address}/{denom}",
    params(("address" = String, Path, description = "A TRON address"), PoolPath), responses(
        (status = 200, description = "Success", body = Allowance),
        PoolFailures,
))]
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
