//! `/api/tx/*`: unsigned transactions for the caller to sign.

use std::sync::Arc;

use alloy_primitives::U256;
use axum::Json;
use axum::extract::State;
use serde::Deserialize;
use serde_json::Value;

use super::app::App;
use super::errors::{ApiResult, Body};
use crate::envelope;
use crate::service::builders;
use crate::service::builders::WithdrawRequest;
use crate::service::inputs;

#[derive(Deserialize)]
#[serde(deny_unknown_fields, rename_all = "camelCase")]
pub struct Approve {
    from: String,
    denomination: Value,
    /// USDT (`100`, `"12.5"`); one deposit's worth when absent.
    amount: Option<Value>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields, rename_all = "camelCase")]
pub struct Deposit {
    from: String,
    denomination: Value,
    commitment: String,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields, rename_all = "camelCase")]
pub struct Withdraw {
    from: String,
    denomination: Value,
    proof: String,
    root: String,
    nullifier_hash: String,
    recipient: String,
    relayer: Option<String>,
    /// USDT base units.
    fee: Option<Value>,
    /// Sun.
    refund: Option<Value>,
}

pub async fn approve(
    State(app): State<Arc<App>>,
    Body(body): Body<Approve>,
) -> ApiResult<Json<Value>> {
    let from = inputs::address(&body.from, "from")?;
    let denomination = app.denomination_field(&body.denomination)?;
    let amount = body
        .amount
        .as_ref()
        .map(|a| inputs::usdt_amount(a, "amount"))
        .transpose()?;
    let unsigned = builders::build_approve(&app.chain, from, denomination, amount).await?;
    Ok(Json(envelope::ok(&unsigned)))
}

pub async fn deposit(
    State(app): State<Arc<App>>,
    Body(body): Body<Deposit>,
) -> ApiResult<Json<Value>> {
    let from = inputs::address(&body.from, "from")?;
    let denomination = app.denomination_field(&body.denomination)?;
    let commitment = inputs::word(&body.commitment, "commitment")?;
    let unsigned = builders::build_deposit(&app.chain, from, denomination, commitment).await?;
    Ok(Json(envelope::ok(&unsigned)))
}

pub async fn withdraw(
    State(app): State<Arc<App>>,
    Body(body): Body<Withdraw>,
) -> ApiResult<Json<Value>> {
    let request = WithdrawRequest {
        from: inputs::address(&body.from, "from")?,
        denomination: app.denomination_field(&body.denomination)?,
        proof: inputs::proof(&body.proof)?,
        root: inputs::word(&body.root, "root")?,
        nullifier_hash: inputs::word(&body.nullifier_hash, "nullifierHash")?,
        recipient: inputs::address(&body.recipient, "recipient")?,
        relayer: body
            .relayer
            .as_deref()
            .map(|r| inputs::address(r, "relayer"))
            .transpose()?,
        fee: optional_units(body.fee.as_ref(), "fee")?,
        refund: optional_units(body.refund.as_ref(), "refund")?,
    };
    let unsigned = builders::build_withdraw(&app.chain, &request).await?;
    Ok(Json(envelope::ok(&unsigned)))
}

fn optional_units(value: Option<&Value>, field: &str) -> crate::Result<U256> {
    value.map_or(Ok(U256::ZERO), |v| inputs::base_units(v, field))
}
