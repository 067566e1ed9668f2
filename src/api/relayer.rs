//! `/api/relayer/*`: the relayer's terms, withdrawals it submits for the caller, and the
//! jobs a caller follows them by.

use std::sync::Arc;
use std::time::{Duration, Instant};

use axum::extract::State;
use axum::http::StatusCode;
use axum::{Extension, Json};
use serde_json::Value;

use super::app::App;
use super::errors::{ApiResult, Body, Segments};
use super::layers::Deadline;
use crate::envelope;
use crate::error::{Error, Result};
use crate::service::inputs;
use crate::service::relayer::Job;
use crate::service::relayer::Relayer;
use crate::service::wire::{RelayBody, RelayRequest, Relayed, RelayerStatus};

/// Time kept back from a request's deadline to answer with the txid.
const ANSWER_MARGIN: Duration = Duration::from_millis(500);

/// The relayer's address, balance, energy and fees.
#[utoipa::path(get, path = "/api/relayer/status", responses(
        (status = 200, description = "Success", body = RelayerStatus),
))]
pub async fn status(State(app): State<Arc<App>>) -> ApiResult<Json<Value>> {
    let status = match &app.relayer {
        Some(relayer) => relayer.status(&app.chain, &app.pricing).await?,
        None => crate::service::relayer::status_off(&app.chain, &app.pricing).await,
    };
    Ok(Json(envelope::ok(&status)))
}

/// Have the relayer submit a withdrawal and pay its energy.
///
/// The proof must be made with relayer = this relayer's address and a fee of at least its
/// quote plus the refund's price (status: relayerFeeRaw + refund TRX × refundPriceRaw).
/// Checked in order: not in flight or relayed (409), refund within the limit (422), a price
/// (503), fee (422), not spent (409), root known (422), proof valid off-chain (422), no
/// refund to a contract where the operator refuses them (422), simulation, its energy
/// within the ceiling and its cost covered (422), the relayer can pay its fee limit (503).
/// Answers 200 once the node has the transaction, 202 with the txid when the broadcast is
/// still under way as the request's time runs out (follow it at
/// `/api/relayer/jobs/{txid}`). Limited to 5 requests a minute per client.
#[utoipa::path(post, path = "/api/relayer/withdraw", request_body = RelayBody, responses(
        (status = 200, description = "Success", body = Relayed),
        (status = 202, description = "Accepted: the broadcast is still under way", body = Relayed),
        (status = 400, description = "Malformed input"),
        (status = 404, description = "Unknown pool"),
        (status = 409, description = "Nullifier spent or already being relayed"),
        (status = 422, description = "Unknown root, invalid proof, fee too low, a refund to a contract, over the energy ceiling, or it would revert"),
        (status = 503, description = "Relaying is off, no usable price, the relayer's node is unreachable, or the relayer cannot pay"),
))]
pub async fn withdraw(
    State(app): State<Arc<App>>,
    deadline: Option<Extension<Deadline>>,
    Body(body): Body<RelayBody>,
) -> ApiResult<(StatusCode, Json<Value>)> {
    let relayer = relayer(&app)?;
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
    // What is left of the request's time once the checks are done is spent waiting for the
    // node to take the transaction; the rest of the broadcast goes on without us.
    let wait = |deadline: Option<Instant>| {
        deadline.map_or(app.config.request_timeout, |d| {
            d.saturating_duration_since(Instant::now())
                .saturating_sub(ANSWER_MARGIN)
        })
    };
    let deadline = deadline.map(|Extension(Deadline(at))| at);
    let relayed = relayer
        .relay(&app.chain, &app.pricing, &request, wait(deadline))
        .await?;
    let status = if relayed.still_signing() {
        StatusCode::ACCEPTED
    } else {
        StatusCode::OK
    };
    Ok((status, Json(envelope::ok(&relayed))))
}

/// A relayed withdrawal by its txid.
#[utoipa::path(get, path = "/api/relayer/jobs/{txid}",
    params(("txid" = String, Path, pattern = "^(0x)?[0-9a-fA-F]{64}$")), responses(
        (status = 200, description = "Success", body = Job),
        (status = 400, description = "Malformed txid"),
        (status = 404, description = "No such job"),
        (status = 503, description = "Relaying is off"),
))]
pub async fn job(
    State(app): State<Arc<App>>,
    Segments(txid): Segments<String>,
) -> ApiResult<Json<Value>> {
    let txid = inputs::txid(&txid)?;
    let job = relayer(&app)?.job(&txid)?;
    Ok(Json(envelope::ok(&job)))
}

/// The newest relayed withdrawal of a note (a live one first).
#[utoipa::path(get, path = "/api/relayer/jobs/nullifier/{nullifierHash}",
    params(("nullifierHash" = String, Path, pattern = "^0x[0-9a-fA-F]{64}$")), responses(
        (status = 200, description = "Success", body = Job),
        (status = 400, description = "Malformed nullifier hash"),
        (status = 404, description = "No such job"),
        (status = 503, description = "Relaying is off"),
))]
pub(crate) async fn job_for_note(
    State(app): State<Arc<App>>,
    Segments(nullifier_hash): Segments<String>,
) -> ApiResult<Json<Value>> {
    let nullifier_hash = inputs::word(&nullifier_hash, "nullifierHash")?;
    let job = relayer(&app)?.job_for_note(&nullifier_hash)?;
    Ok(Json(envelope::ok(&job)))
}

fn relayer(app: &App) -> Result<&Arc<Relayer>> {
    app.relayer.as_ref().ok_or_else(|| {
        Error::Disabled("this server does not relay withdrawals (no relayer key)".into())
    })
}
