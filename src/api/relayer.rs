//! `/api/relayer/*`: the relayer's terms, and withdrawals it submits for the caller.

use std::sync::Arc;

use axum::Json;
use axum::extract::State;
use serde::Deserialize;
use serde_json::Value;

use super::App;
use super::errors::{ApiResult, Body};
use crate::envelope;
use crate::error::Error;
use crate::service::inputs;
use crate::service::relayer::{RelayRequest, RelayerStatus, fee_quotes};

#[derive(Deserialize)]
#[serde(deny_unknown_fields, rename_all = "camelCase")]
pub struct Withdraw {
    /// `"100"` (a number is accepted too).
    denomination: Value,
    proof: String,
    root: String,
    nullifier_hash: String,
    recipient: String,
    /// USDT base units; the advertised fee when absent.
    fee: Option<Value>,
    /// Sun; zero when absent.
    refund: Option<Value>,
}

pub async fn status(State(app): State<Arc<App>>) -> ApiResult<Json<Value>> {
    let status = match &app.relayer {
        Some(relayer) => relayer.status(&app.chain, &app.fees).await?,
        None => RelayerStatus {
            enabled: false,
            address: None,
            network: app.chain.network.clone(),
            balance_trx: None,
            energy_available: None,
            fees: fee_quotes(&app.chain, &app.fees),
            pending: 0,
            version: env!("CARGO_PKG_VERSION"),
        },
    };
    Ok(Json(envelope::ok(&status)))
}

pub async fn withdraw(
    State(app): State<Arc<App>>,
    Body(body): Body<Withdraw>,
) -> ApiResult<Json<Value>> {
    let relayer = app.relayer.as_ref().ok_or_else(|| {
        Error::Disabled("this server does not relay withdrawals (no relayer key)".into())
    })?;
    let request = RelayRequest {
        denomination: app.denomination_field(&body.denomination)?,
        proof: inputs::proof(&body.proof)?,
        root: inputs::word(&body.root, "root")?,
        nullifier_hash: inputs::word(&body.nullifier_hash, "nullifierHash")?,
        recipient: inputs::address(&body.recipient, "recipient")?,
        fee: body
            .fee
            .as_ref()
            .map(|v| inputs::base_units(v, "fee"))
            .transpose()?,
        refund: body
            .refund
            .as_ref()
            .map(|v| inputs::base_units(v, "refund"))
            .transpose()?,
    };
    let relayed = relayer.relay(&app.chain, &app.fees, &request).await?;
    Ok(Json(envelope::ok(&relayed)))
}
