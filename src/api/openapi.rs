//! `/api/openapi.json`: the API described in OpenAPI 3.1, written alongside the handlers
//! and checked against the router's endpoint list by a test.

use std::sync::OnceLock;

use axum::Json;
use serde_json::{Value, json};

/// The document, built once.
pub fn spec() -> &'static Value {
    static SPEC: OnceLock<Value> = OnceLock::new();
    SPEC.get_or_init(build)
}

pub async fn document() -> Json<Value> {
    Json(spec().clone())
}

fn schema_ref(name: &str) -> Value {
    json!({ "$ref": format!("#/components/schemas/{name}") })
}

/// A success answer whose `data` is the named schema.
fn ok(data: Value) -> Value {
    json!({
        "description": "Success",
        "content": { "application/json": { "schema": {
            "type": "object",
            "required": ["ok", "data"],
            "properties": { "ok": { "const": true }, "data": data }
        }}}
    })
}

fn failure(description: &str) -> Value {
    json!({
        "description": description,
        "content": { "application/json": { "schema": schema_ref("Error") } }
    })
}

fn responses(data: Value, errors: &[(&str, &str)]) -> Value {
    let mut map = serde_json::Map::new();
    map.insert("200".into(), ok(data));
    for (status, why) in errors {
        map.insert((*status).into(), failure(why));
    }
    map.insert(
        "429".into(),
        failure("Rate limited; see the retry-after header"),
    );
    map.insert("502".into(), failure("The TRON node failed"));
    map.insert(
        "504".into(),
        failure("The TRON node or the request timed out"),
    );
    Value::Object(map)
}

/// Adds a 202 with the same data as the 200: accepted, still under way.
fn accepted(mut responses: Value) -> Value {
    let data = responses["200"].clone();
    if let Some(map) = responses.as_object_mut() {
        map.insert("202".into(), data);
    }
    responses
}

fn body(schema: &str) -> Value {
    json!({
        "required": true,
        "content": { "application/json": { "schema": schema_ref(schema) } }
    })
}

fn param(name: &str, description: &str) -> Value {
    json!({ "name": name, "in": "path", "required": true, "description": description,
            "schema": { "type": "string" } })
}

fn page_param(name: &str, description: &str) -> Value {
    json!({ "name": name, "in": "query", "required": false, "description": description,
            "schema": { "type": "integer", "minimum": 0 } })
}

fn denom() -> Value {
    param(
        "denom",
        "A pool's denomination in whole USDT: 100, 500, 1000, 3000, 5000 or 10000",
    )
}

fn build() -> Value {
    let word = json!({ "type": "string", "pattern": "^0x[0-9a-fA-F]{64}$",
                       "description": "0x + 64 hex digits, below the BN254 field modulus" });
    let address = json!({ "type": "string", "description": "A TRON address, base58 (T…)" });
    let amount = json!({ "type": "number", "description": "In whole units (6 decimals)" });
    let raw = json!({ "type": "string", "pattern": "^[0-9]+$",
                      "description": "In base units, as a decimal string" });
    let units = json!({ "oneOf": [{ "type": "integer", "minimum": 0 },
                                  { "type": "string", "pattern": "^[0-9]+$" }] });
    let denomination = json!({ "oneOf": [{ "type": "integer" }, { "type": "string" }],
                               "description": "Pool size in whole USDT" });
    let bad = [("400", "Malformed input"), ("404", "Unknown pool")];
    let builder_errors = [
        ("400", "Malformed input"),
        ("404", "Unknown pool"),
        ("409", "Nullifier already spent"),
        ("413", "Body too large"),
        ("415", "Not JSON"),
        (
            "422",
            "The chain or the proof says no; the reason is in `error`",
        ),
    ];
    json!({
        "openapi": "3.1.0",
        "info": {
            "title": "tronpool",
            "version": env!("CARGO_PKG_VERSION"),
            "description": "A privacy pool for TRC-20 USDT on TRON. Every answer is \
                {ok: true, data} or {ok: false, error}. Amounts are a number in whole units \
                plus a …Raw decimal string in base units. Rate limits per client: see the \
                ratelimit-limit, ratelimit-remaining and ratelimit-reset (seconds until the \
                whole budget is back) headers, and retry-after on a 429. Every answer carries \
                an x-request-id header, the id the server's log names the request by. A path \
                longer than 256 bytes or a query longer than 256 bytes is answered 400. Past the \
                server's cap on requests in flight any endpoint but /livez answers 503 with \
                retry-after."
        },
        "paths": {
            "/api/pools": { "get": { "summary": "Every pool",
                "responses": responses(json!({ "type": "object", "properties": {
                    "pools": { "type": "array", "items": schema_ref("Pool") } } }), &[]) } },
            "/api/pools/{denom}": { "get": { "summary": "One pool", "parameters": [denom()],
                "responses": responses(schema_ref("Pool"), &bad) } },
            "/api/pools/{denom}/root": { "get": { "summary": "A pool's current root",
                "parameters": [denom()],
                "responses": responses(schema_ref("PoolRoot"), &bad) } },
            "/api/pools/{denom}/check-spent": { "post": {
                "summary": "Whether a nullifier hash is spent", "parameters": [denom()],
                "requestBody": body("CheckSpentRequest"),
                "responses": responses(schema_ref("SpentStatus"), &bad) } },
            "/api/pools/{denom}/can-withdraw": { "post": {
                "summary": "Whether a withdrawal could go through", "parameters": [denom()],
                "requestBody": body("CanWithdrawRequest"),
                "responses": responses(schema_ref("Withdrawable"), &bad) } },
            "/api/pools/{denom}/leaves": { "get": {
                "summary": "The pool's deposits in leaf order, a page at a time",
                "description": "For a client to rebuild the pool's tree without an events \
                    API. A client uses the leaves only if they rebuild a root the pool knows. \
                    The server syncs the pool first, at most once per cache TTL.",
                "parameters": [denom(), page_param("from", "The first leaf index (default 0)"),
                    page_param("limit", "At most this many leaves (default and cap 1000)")],
                "responses": responses(schema_ref("LeavesPage"), &bad) } },
            "/api/pools/{denom}/withdrawals": { "get": {
                "summary": "The pool's withdrawals, a page at a time",
                "description": "Their nullifier hashes, for a client to tell whether its notes \
                    are spent without asking a node about them; in the order this server saw \
                    them.",
                "parameters": [denom(), page_param("from", "The first withdrawal (default 0)"),
                    page_param("limit", "At most this many (default and cap 1000)")],
                "responses": responses(schema_ref("WithdrawalsPage"), &bad) } },
            "/api/balance/{address}": { "get": { "summary": "USDT and TRX held by an address",
                "parameters": [param("address", "A TRON address")],
                "responses": responses(schema_ref("Balance"), &[("400", "Bad address")]) } },
            "/api/allowance/{address}/{denom}": { "get": {
                "summary": "USDT an address allows a pool to take",
                "parameters": [param("address", "A TRON address"), denom()],
                "responses": responses(schema_ref("Allowance"), &bad) } },
            "/api/tx/approve": { "post": { "summary": "Unsigned USDT approval for a pool",
                "requestBody": body("ApproveRequest"),
                "responses": responses(schema_ref("Unsigned"), &builder_errors) } },
            "/api/tx/deposit": { "post": { "summary": "Unsigned deposit of a commitment",
                "description": "Checks balance, allowance, that the commitment is new, and \
                    simulates the call; a deposit that would fail is answered 422.",
                "requestBody": body("DepositRequest"),
                "responses": responses(schema_ref("Unsigned"), &builder_errors) } },
            "/api/tx/withdraw": { "post": { "summary": "Unsigned withdrawal",
                "description": "Checks the nullifier is unspent, the root known, verifies \
                    the proof off-chain and simulates the call before answering.",
                "requestBody": body("WithdrawRequest"),
                "responses": responses(schema_ref("Unsigned"), &builder_errors) } },
            "/api/health": { "get": { "summary": "Server and node health, with the readiness checks",
                "description": "Never rate limited.",
                "responses": {
                    "200": ok(schema_ref("Health")),
                    "503": { "description": "The node is unreachable: {ok: false, error, \
                        data: Health}",
                        "content": { "application/json": { "schema": schema_ref("Error") } } }
                } } },
            "/livez": { "get": { "summary": "Liveness: the process answers (always 200)",
                "description": "Never rate limited.",
                "responses": { "200": ok(json!({ "type": "object", "properties": {
                    "status": { "const": "alive" } } })) } } },
            "/metrics": { "get": {
                "summary": "Counters in Prometheus' text format: requests by route and status, \
                    their latency (histogram), rate-limit rejections by budget, the relayer's \
                    jobs by state",
                "description": "Never rate limited.",
                "responses": { "200": { "description": "Prometheus text format 0.0.4",
                    "content": { "text/plain": { "schema": { "type": "string" } } } } } } },
            "/readyz": { "get": {
                "summary": "Readiness: the node reachable with a fresh head block, the \
                    database writable, the relayer's watcher alive and its balance above its \
                    minimum",
                "description": "Never rate limited; computed at most once a second. 503 lists \
                    every check as data, the failed ones in error.",
                "responses": {
                    "200": ok(schema_ref("Readiness")),
                    "503": { "description": "Not ready: {ok: false, error, data: Readiness}",
                        "content": { "application/json": { "schema": schema_ref("Error") } } }
                } } },
            "/api/relayer/status": { "get": {
                "summary": "The relayer's address, balance, energy and fees",
                "responses": responses(schema_ref("RelayerStatus"), &[]) } },
            "/api/relayer/withdraw": { "post": {
                "summary": "Have the relayer submit a withdrawal and pay its energy",
                "description": "The proof must be made with relayer = this relayer's address \
                    and a fee of at least its quote plus the refund's price (status: \
                    relayerFeeRaw + refund TRX × refundPriceRaw). Checked in order: not in \
                    flight or relayed (409), refund within the limit (422), a price (503), \
                    fee (422), not spent (409), root known (422), proof valid off-chain (422), \
                    no refund to a contract where the operator refuses them (422), simulation, its energy within the ceiling \
                    and its cost covered (422), the relayer can pay its fee limit (503). \
                    Answers 200 once the node has the transaction, 202 with the txid when \
                    the broadcast is still under way as the request's time runs out. Limited \
                    to 5 requests a minute per client.",
                "requestBody": body("RelayRequest"),
                "responses": accepted(responses(schema_ref("Relayed"),
                    &[("400", "Malformed input"), ("404", "Unknown pool"),
                      ("409", "Nullifier spent or already being relayed"),
                      ("422", "Unknown root, invalid proof, fee too low, a refund to a \
                        contract, over the energy ceiling, or it would revert"),
                      ("503", "Relaying is off, no usable price, the relayer's node is \
                        unreachable, or the relayer cannot pay")])) } },
            "/api/relayer/jobs/{txid}": { "get": {
                "summary": "A relayed withdrawal by its txid",
                "parameters": [{ "name": "txid", "in": "path", "required": true,
                    "schema": { "type": "string", "pattern": "^(0x)?[0-9a-fA-F]{64}$" } }],
                "responses": responses(schema_ref("Job"),
                    &[("400", "Malformed txid"), ("404", "No such job"),
                      ("503", "Relaying is off")]) } },
            "/api/relayer/jobs/nullifier/{nullifierHash}": { "get": {
                "summary": "The newest relayed withdrawal of a note (a live one first)",
                "parameters": [{ "name": "nullifierHash", "in": "path", "required": true,
                    "schema": word }],
                "responses": responses(schema_ref("Job"),
                    &[("400", "Malformed nullifier hash"), ("404", "No such job"),
                      ("503", "Relaying is off")]) } },
            "/api/openapi.json": { "get": { "summary": "This document",
                "responses": { "200": { "description": "OpenAPI 3.1" } } } }
        },
        "components": { "schemas": schemas(&word, &address, &amount, &raw, &units, &denomination) }
    })
}

/// The components' schemas (a second `json!`: one would pass the macro recursion limit).
fn schemas(
    word: &Value,
    address: &Value,
    amount: &Value,
    raw: &Value,
    units: &Value,
    denomination: &Value,
) -> Value {
    json!({
            "Error": { "type": "object", "required": ["ok", "error", "kind"], "properties": {
                "ok": { "const": false }, "error": { "type": "string" },
                "kind": { "enum": ["usage", "failed", "unavailable", "refused", "bad_note",
                    "not_found", "conflict", "disabled", "locked", "interrupted"],
                    "description": "The failure's class; the CLI's exit code follows from it" } } },
            "Pool": { "type": "object", "properties": {
                "denomination": { "type": "integer" }, "denominationRaw": raw,
                "address": address, "poolBalance": amount, "poolBalanceRaw": raw,
                "currentRoot": word, "relayerFee": amount, "relayerFeeRaw": raw,
                "depositCount": { "type": "integer" } } },
            "PoolRoot": { "type": "object", "properties": {
                "denomination": { "type": "integer" }, "root": word,
                "depositCount": { "type": "integer" } } },
            "LeavesPage": { "type": "object",
                "required": ["denomination", "from", "total", "leaves"], "properties": {
                "denomination": { "type": "integer" }, "from": { "type": "integer" },
                "total": { "type": "integer", "description": "Leaves the server holds" },
                "leaves": { "type": "array", "items": { "type": "object",
                    "required": ["index", "commitment", "blockTimestamp", "txid"],
                    "properties": { "index": { "type": "integer" }, "commitment": word,
                        "blockTimestamp": { "type": "integer" },
                        "txid": { "type": "string" } } } } } },
            "WithdrawalsPage": { "type": "object",
                "required": ["denomination", "from", "total", "withdrawals"], "properties": {
                "denomination": { "type": "integer" }, "from": { "type": "integer" },
                "total": { "type": "integer" },
                "withdrawals": { "type": "array", "items": { "type": "object",
                    "required": ["index", "nullifierHash", "txid", "blockTimestamp",
                        "recipient", "fee"],
                    "properties": { "index": { "type": "integer" }, "nullifierHash": word,
                        "txid": { "type": "string" }, "block": { "type": "integer" },
                        "blockTimestamp": { "type": "integer" },
                        "recipient": { "type": "string" }, "relayer": { "type": "string" },
                        "fee": { "type": "string", "description": "USDT base units" } } } } } },
            "CheckSpentRequest": { "type": "object", "required": ["nullifierHash"],
                "additionalProperties": false, "properties": { "nullifierHash": word } },
            "CanWithdrawRequest": { "type": "object", "required": ["nullifierHash", "root"],
                "additionalProperties": false,
                "properties": { "nullifierHash": word, "root": word } },
            "SpentStatus": { "type": "object", "properties": {
                "nullifierHash": word, "spent": { "type": "boolean" } } },
            "Withdrawable": { "type": "object", "properties": {
                "canWithdraw": { "type": "boolean" }, "spent": { "type": "boolean" },
                "knownRoot": { "type": "boolean" }, "reason": { "type": "string" } } },
            "Balance": { "type": "object", "properties": {
                "address": address, "balance": amount, "balanceRaw": raw,
                "trx": amount, "trxRaw": raw,
                "resources": { "type": "object",
                    "description": "Energy and bandwidth: what the account has before it burns TRX",
                    "properties": {
                        "energyAvailable": { "type": "integer" },
                        "energyLimit": { "type": "integer" },
                        "bandwidthAvailable": { "type": "integer" },
                        "bandwidthLimit": { "type": "integer" },
                        "stakedForEnergyRaw": raw, "lentRaw": raw, "borrowedRaw": raw } } } },
            "Allowance": { "type": "object", "properties": {
                "address": address, "denomination": { "type": "integer" }, "pool": address,
                "allowance": amount, "allowanceRaw": raw,
                "sufficient": { "type": "boolean", "description": "Enough for one deposit" } } },
            "ApproveRequest": { "type": "object", "required": ["from", "denomination"],
                "additionalProperties": false, "properties": {
                "from": address, "denomination": denomination,
                "amount": { "oneOf": [{ "type": "number" }, { "type": "string" }],
                    "description": "USDT to allow (like 100 or \"12.5\"); when absent, one \
                        deposit's worth and one base unit, which stays behind so the \
                        allowance never falls back to zero and the next approval costs a \
                        third of the first" } } },
            "DepositRequest": { "type": "object",
                "required": ["from", "denomination", "commitment"],
                "additionalProperties": false, "properties": {
                "from": address, "denomination": denomination, "commitment": word } },
            "WithdrawRequest": { "type": "object",
                "required": ["from", "denomination", "proof", "root", "nullifierHash", "recipient"],
                "additionalProperties": false, "properties": {
                "from": address, "denomination": denomination,
                "proof": { "type": "string", "pattern": "^0x[0-9a-fA-F]{512}$" },
                "root": word, "nullifierHash": word, "recipient": address, "relayer": address,
                "fee": { "allOf": [units.clone()], "description": "USDT base units paid to the relayer (default 0)" },
                "refund": { "allOf": [units], "description": "Sun sent from `from` to the recipient (default 0)" } } },
            "Unsigned": { "type": "object", "properties": { "transaction": {
                "type": "object",
                "description": "An unsigned TRON transaction in java-tron's JSON; sign it as is \
                    (TronWeb trx.sign, TronLink, tronpool tx sign)",
                "required": ["txID", "raw_data", "raw_data_hex", "visible"] },
              "estimate": { "type": "object",
                "description": "How the transaction's energy would be paid if it ran now: the \
                    contract's sponsor (its deployer's staked energy), the caller's own stake, \
                    and the rest burned",
                "properties": {
                  "energy": { "type": "integer" }, "sponsorEnergy": { "type": "integer" },
                  "stakedEnergy": { "type": "integer" }, "burnedEnergy": { "type": "integer" },
                  "burnedSun": { "type": "integer" }, "feeLimitSun": { "type": "integer" } } } } },
            "RelayRequest": { "type": "object",
                "required": ["denomination", "proof", "root", "nullifierHash", "recipient"],
                "additionalProperties": false, "properties": {
                "denomination": denomination,
                "proof": { "type": "string", "pattern": "^0x[0-9a-fA-F]{512}$" },
                "root": word, "nullifierHash": word, "recipient": address,
                "fee": { "description": "USDT base units; the advertised fee when absent" },
                "refund": { "description": "Sun forwarded to the recipient; 0 when absent" } } },
            "RelayerStatus": { "type": "object", "properties": {
                "enabled": { "type": "boolean" }, "address": { "type": ["string", "null"] },
                "network": { "type": "string" },
                "balanceTrx": { "type": ["number", "null"] },
                "energyAvailable": { "type": ["integer", "null"] },
                "fees": { "type": "array", "items": schema_ref("FeeQuote") },
                "priceError": { "type": "string",
                    "description": "Why there are no quotes (no usable TRX/USDT price)" },
                "pending": { "type": "integer" },
                "reserved": { "type": "object",
                    "description": "What the relayer's jobs not yet in a block may still draw; \
                                    the fees are net of it",
                    "properties": {
                        "jobs": { "type": "integer" }, "energy": { "type": "integer" },
                        "stakedBandwidth": { "type": "integer" },
                        "freeBandwidth": { "type": "integer" },
                        "trxSun": { "type": "integer" } } },
                "quoteValidSeconds": { "type": "integer",
                    "description": "How long a fee quoted here (or in /api/pools) is honoured: \
                                    a withdrawal whose fee is at least a quote shown this \
                                    recently is accepted while that fee still pays for the \
                                    relay, else refused with the fee it needs" },
                "version": { "type": "string" } } },
            "FeeQuote": { "type": "object", "properties": {
                "denomination": { "type": "integer" }, "relayerFee": amount,
                "relayerFeeRaw": raw,
                "expectedEnergy": { "type": "integer", "description": "Energy of a normal relay" },
                "maxEnergy": { "type": "integer",
                    "description": "The most energy a relay may use; its fee limit is the \
                                    relayer's share of it" },
                "energyPrice": { "type": "integer", "description": "Sun per energy" },
                "stakedEnergy": { "type": "integer",
                    "description": "Energy the relayer's stake covers before TRX is burned, less \
                                    what its unfinished relays reserved" },
                "sponsorEnergy": { "type": "integer",
                    "description": "Energy of a normal relay the pool's sponsor pays from its \
                                    stake; the fee does not charge for it" },
                "bandwidthSun": { "type": "integer",
                    "description": "Sun a relay's bandwidth burns: zero only when the \
                                    relayer's staked bandwidth alone, or its free allowance \
                                    alone, holds all of a relay's bytes" },
                "trxPrice": { "type": "number", "description": "USDT per TRX" },
                "trxPriceSource": { "type": "string" },
                "trxPriceAgeSeconds": { "type": "integer" },
                "trxPriceBasis": { "type": "string",
                    "description": "Which reading trxPrice is: fixed, spot, `average over N s` \
                                    (a pair's time-weighted average, above its spot price) or \
                                    floor (the operator's)" },
                "trxSpotPrice": { "type": "number",
                    "description": "The source's current USDT per TRX (a pair's spot price)" },
                "refundPrice": { "type": "number",
                    "description": "USDT the fee grows by per TRX of refund" },
                "refundPriceRaw": raw, "marginPercent": { "type": "integer" } } },
            "Relayed": { "type": "object", "properties": {
                "txid": { "type": "string", "pattern": "^[0-9a-f]{64}$" },
                "state": { "enum": ["signed", "broadcast"] } } },
            "Job": { "type": "object", "properties": {
                "txid": { "type": "string" }, "pool": address,
                "denomination": { "type": "integer" }, "nullifierHash": word,
                "recipient": address, "fee": raw, "refund": raw,
                "state": { "enum": ["signed", "broadcast", "included", "confirmed", "failed"] },
                "expiration": { "type": "integer" }, "createdAt": { "type": "integer" },
                "updatedAt": { "type": "integer" }, "error": { "type": ["string", "null"] },
                "block": { "type": ["integer", "null"] },
                "energyUsed": { "type": ["integer", "null"] },
                "feeSun": { "type": ["integer", "null"] },
                "attempts": { "type": "integer" } } },
            "Readiness": { "type": "object", "properties": {
                "ready": { "type": "boolean" },
                "checks": { "type": "array", "items": schema_ref("Check") } } },
            "Check": { "type": "object", "required": ["name", "ok", "detail"], "properties": {
                "name": { "enum": ["node", "database", "relayer_watcher", "relayer_balance"] },
                "ok": { "type": "boolean" }, "detail": { "type": "string" } } },
            "Health": { "type": "object", "properties": {
                "ready": { "type": "boolean" },
                "checks": { "type": "array", "items": schema_ref("Check") },
                "status": { "enum": ["ok", "unavailable"] }, "version": { "type": "string" },
                "network": { "type": "string" },
                "node": { "type": "object", "properties": {
                    "reachable": { "type": "boolean" },
                    "blockNumber": { "type": ["integer", "null"] },
                    "latencyMs": { "type": ["integer", "null"] },
                    "error": { "type": "string" } } } } }
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_endpoint_is_described() {
        let paths = spec()["paths"].as_object().expect("paths");
        for (method, path, _) in crate::api::ENDPOINTS {
            let operation = &paths
                .get(*path)
                .unwrap_or_else(|| panic!("{path} is not in the document"))[method.to_lowercase()];
            assert!(operation.is_object(), "{method} {path} is not described");
        }
        assert_eq!(paths.len(), crate::api::ENDPOINTS.len(), "no stale paths");
        // Every reference resolves.
        let text = spec().to_string();
        let schemas = spec()["components"]["schemas"].as_object().unwrap();
        for piece in text.split("#/components/schemas/").skip(1) {
            let name: String = piece.chars().take_while(|c| c.is_alphanumeric()).collect();
            assert!(schemas.contains_key(&name), "missing schema {name}");
        }
    }
}
