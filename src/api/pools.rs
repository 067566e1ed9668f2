//! `/api/pools`: the pools, their roots, questions about nullifiers, and their leaves and
//! withdrawals for another client to sync from.

use std::sync::Arc;

use axum::Json;
use axum::body::Bytes;
use axum::extract::{RawQuery, State};
use axum::http::{HeaderValue, header};
use axum::response::Response;
use serde::Deserialize;
use serde_json::{Value, json};

use super::app::App;
use super::errors::{ApiResult, Body, Segments};
use super::errors::{LeavesQuery, PageQuery, PoolFailures, PoolPath};
use crate::envelope;
use crate::service::inputs;
use crate::service::pools;
use crate::service::pools::{Pool, PoolRoot, SpentStatus, Withdrawable};
use crate::service::sync;
use crate::service::sync::{MAX_PACKED_PAGE, MAX_PAGE};
use crate::service::wire::schema;
use crate::service::wire::{LeavesReply, WithdrawalsPage};

#[derive(Deserialize, utoipa::ToSchema)]
#[serde(deny_unknown_fields, rename_all = "camelCase")]
#[schema(as = CheckSpentRequest)]
pub(crate) struct CheckSpent {
    #[schema(schema_with = schema::word)]
    nullifier_hash: String,
}

#[derive(Deserialize, utoipa::ToSchema)]
#[serde(deny_unknown_fields, rename_all = "camelCase")]
#[schema(as = CanWithdrawRequest)]
pub(crate) struct CanWithdraw {
    #[schema(schema_with = schema::word)]
    nullifier_hash: String,
    #[schema(schema_with = schema::word)]
    root: String,
}

/// `GET /api/pools`' data.
#[derive(utoipa::ToSchema)]
#[allow(dead_code)] // The listing is written from its cached bytes; this says their shape.
pub(crate) struct Pools {
    pools: Vec<Pool>,
}

/// Every pool.
#[utoipa::path(get, path = "/api/pools", responses(
        (status = 200, description = "Success", body = Pools),
))]
pub async fn list(State(app): State<Arc<App>>) -> ApiResult<Response> {
    let terms = app.fee_terms().await;
    let reads = app
        .chain
        .denominations()
        .into_iter()
        .map(|d| pools::pool_read(&app.chain, d, terms.as_ref()));
    let reads: Vec<_> = futures_util::future::try_join_all(reads)
        .await?
        .into_iter()
        .map(|read| {
            let next = app.next_batch(read.denomination);
            read.with_next_batch(next)
        })
        .collect();
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

/// One pool.
#[utoipa::path(get, path = "/api/pools/{denom}", params(PoolPath), responses(
        (status = 200, description = "Success", body = Pool),
        PoolFailures,
))]
pub async fn show(
    State(app): State<Arc<App>>,
    Segments(denom): Segments<String>,
) -> ApiResult<Response> {
    let denomination = app.denomination(&denom)?;
    let terms = app.fee_terms().await;
    let read = pools::pool_read(&app.chain, denomination, terms.as_ref())
        .await?
        .with_next_batch(app.next_batch(denomination));
    app.shown_fees(terms.as_ref(), [&read]);
    let body = app.listings.one(&read, || {
        Ok(envelope::ok(&pools::pool_view(&app.chain, &read)?))
    })?;
    Ok(json_bytes(body))
}

/// A JSON body already serialized. Its header map is made with room for every header the
/// layers add on the way out (rate limits, CORS, request id), so it is never regrown.
fn json_bytes(body: Bytes) -> Response {
    let mut response = Response::new(axum::body::Body::from(body));
    let headers = response.headers_mut();
    headers.reserve(RESPONSE_HEADERS);
    headers.insert(
        header::CONTENT_TYPE,
        HeaderValue::from_static("application/json"),
    );
    response
}

/// Headers an answer carries at most: content type and length, three rate-limit headers,
/// `vary` and two CORS headers, the request id, and room to spare.
const RESPONSE_HEADERS: usize = 16;

/// A pool's current root.
#[utoipa::path(get, path = "/api/pools/{denom}/root", params(PoolPath), responses(
        (status = 200, description = "Success", body = PoolRoot),
        PoolFailures,
))]
pub async fn root(
    State(app): State<Arc<App>>,
    Segments(denom): Segments<String>,
) -> ApiResult<Json<Value>> {
    let denomination = app.denomination(&denom)?;
    Ok(Json(envelope::ok(
        &pools::root(&app.chain, denomination).await?,
    )))
}

/// Whether a nullifier hash is spent.
#[utoipa::path(post, path = "/api/pools/{denom}/check-spent", params(PoolPath),
    request_body = CheckSpent, responses(
        (status = 200, description = "Success", body = SpentStatus),
        PoolFailures,
))]
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

/// Whether a withdrawal could go through.
#[utoipa::path(post, path = "/api/pools/{denom}/can-withdraw", params(PoolPath),
    request_body = CanWithdraw, responses(
        (status = 200, description = "Success", body = Withdrawable),
        PoolFailures,
))]
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

/// The pool's deposits in leaf order, a page at a time.
///
/// For a client to rebuild the pool's tree without an events API. A client uses the leaves
/// only if they rebuild a root the pool knows (it checks the root with its own node). The
/// server syncs the pool first: once per cache TTL, and within it for a page that ends past
/// what it holds when a block has come, or when its own relayer changed the pool.
/// `format=packed` writes each field of up to 65,536 leaves as one string or array: a
/// million leaves in 16 requests.
#[utoipa::path(get, path = "/api/pools/{denom}/leaves", params(PoolPath, LeavesQuery),
    responses(
        (status = 200, description = "Success: a `LeavesPage`, or with `format=packed` a \
            `PackedLeavesPage`", body = LeavesReply),
        PoolFailures,
))]
pub async fn leaves(
    State(app): State<Arc<App>>,
    Segments(denom): Segments<String>,
    RawQuery(query): RawQuery,
) -> ApiResult<Json<Value>> {
    let denomination = app.denomination(&denom)?;
    let (from, limit, format) =
        inputs::leaves_query(query.as_deref(), (MAX_PAGE, MAX_PACKED_PAGE))?;
    let page =
        sync::leaves_page(&app.chain, &app.trees, denomination, (from, limit), format).await?;
    Ok(Json(envelope::ok(&page)))
}

/// The pool's withdrawals, a page at a time.
///
/// Their nullifier hashes, for a client to tell whether its notes are spent without asking
/// a node about them; in the order this server saw them. Synced first as the leaves are: a
/// withdrawal this server's relayer made is listed as soon as its job says so.
#[utoipa::path(get, path = "/api/pools/{denom}/withdrawals", params(PoolPath, PageQuery),
    responses(
        (status = 200, description = "Success", body = WithdrawalsPage),
        PoolFailures,
))]
pub async fn withdrawals(
    State(app): State<Arc<App>>,
    Segments(denom): Segments<String>,
    RawQuery(query): RawQuery,
) -> ApiResult<Json<Value>> {
    let (denomination, from, limit) = page_of(&app, &denom, query.as_deref())?;
    let page = sync::withdrawals_page(&app.chain, &app.trees, denomination, from, limit).await?;
    Ok(Json(envelope::ok(&page)))
}

/// The pool and the page (`?from=N&limit=M`, at most [`MAX_PAGE`]) a paged request asks for.
fn page_of(app: &App, denom: &str, query: Option<&str>) -> crate::Result<(u64, u32, u32)> {
    let denomination = app.denomination(denom)?;
    let (from, limit) = inputs::page_query(query, MAX_PAGE)?;
    Ok((denomination, from, limit))
}
