//! `/api/tx/*`: unsigned transactions for the caller to sign.

use std::sync::Arc;

use alloy_primitives::U256;
use axum::Json;
use axum::extract::State;
use serde::Deserialize;
use serde_json::Value;

use super::app::App;
use super::errors::BuilderFailures;
use super::errors::{ApiResult, Body};
use crate::envelope;
use crate::service::builders;
use crate::service::builders::Unsigned;
use crate::service::builders::WithdrawRequest;
use crate::service::inputs;
use crate::service::wire::schema;

#[derive(Deserialize, utoipa::ToSchema)]
#[serde(deny_unknown_fields, rename_all = "camelCase")]
#[schema(as = ApproveRequest)]
pub struct Approve {
    #[schema(schema_with = schema::address)]
    from: String,
    #[schema(schema_with = schema::denomination)]
    denomination: Value,
    /// USDT to allow (`100`, `"12.5"`); when absent, one deposit's worth and one base unit,
    /// which stays behind so the allowance never falls back to zero and the next approval
    /// costs a third of the first.
    #[schema(schema_with = approve_amount)]
    amount: Option<Value>,
}

#[derive(Deserialize, utoipa::ToSchema)]
#[serde(deny_unknown_fields, rename_all = "camelCase")]
#[schema(as = DepositRequest)]
pub struct Deposit {
    #[schema(schema_with = schema::address)]
    from: String,
    #[schema(schema_with = schema::denomination)]
    denomination: Value,
    #[schema(schema_with = schema::word)]
    commitment: String,
}

#[derive(Deserialize, utoipa::ToSchema)]
#[serde(deny_unknown_fields, rename_all = "camelCase")]
#[schema(as = WithdrawRequest)]
pub struct Withdraw {
    #[schema(schema_with = schema::address)]
    from: String,
    #[schema(schema_with = schema::denomination)]
    denomination: Value,
    #[schema(schema_with = schema::proof)]
    proof: String,
    #[schema(schema_with = schema::word)]
    root: String,
    #[schema(schema_with = schema::word)]
    nullifier_hash: String,
    #[schema(schema_with = schema::address)]
    recipient: String,
    #[schema(schema_with = schema::address)]
    relayer: Option<String>,
    /// USDT base units paid to the relayer (default 0).
    #[schema(schema_with = withdraw_fee)]
    fee: Option<Value>,
    /// Sun sent from `from` to the recipient (default 0).
    #[schema(schema_with = withdraw_refund)]
    refund: Option<Value>,
}

fn approve_amount() -> utoipa::openapi::Schema {
    schema::usdt(
        "USDT to allow (like 100 or \"12.5\"); when absent, one deposit's worth and one base \
         unit, which stays behind so the allowance never falls back to zero and the next \
         approval costs a third of the first",
    )
}

fn withdraw_fee() -> utoipa::openapi::Schema {
    schema::units("USDT base units paid to the relayer (default 0)")
}

fn withdraw_refund() -> utoipa::openapi::Schema {
    schema::units("Sun sent from `from` to the recipient (default 0)")
}

/// Unsigned USDT approval for a pool.
#[utoipa::path(post, path = "/api/tx/approve", request_body = Approve, responses(
        (status = 200, description = "Success", body = Unsigned),
        BuilderFailures,
))]
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

/// Unsigned deposit of a commitment.
///
/// Checks balance, allowance, that the commitment is new, and simulates the call; a deposit
/// that would fail is answered 422.
#[utoipa::path(post, path = "/api/tx/deposit", request_body = Deposit, responses(
        (status = 200, description = "Success", body = Unsigned),
        BuilderFailures,
))]
pub async fn deposit(
    State(app): State<Arc<App>>,
    Body(body): Body<Deposit>,
) -> ApiResult<Json<Value>> {
    let from = inputs::address(&body.from, "from")?;
    let denomination = app.denomination_field(&body.denomination)?;
    let commitment = inputs::word(&body.commitment, "commitment")?;
    crate::service::deposit::refuse_known_commitment(
        &app.chain,
        &app.trees,
        denomination,
        commitment,
    )
    .await?;
    let unsigned = builders::build_deposit(&app.chain, from, denomination, commitment).await?;
    Ok(Json(envelope::ok(&unsigned)))
}

/// Unsigned withdrawal.
///
/// Checks the nullifier is unspent, the root known, verifies the proof off-chain and
/// simulates the call before answering.
#[utoipa::path(post, path = "/api/tx/withdraw", request_body = Withdraw, responses(
        (status = 200, description = "Success", body = Unsigned),
        BuilderFailures,
))]
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
