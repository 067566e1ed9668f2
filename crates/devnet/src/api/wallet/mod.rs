//! `/wallet/*` and `/walletsolidity/*`: java-tron's FullNode HTTP API.

use std::collections::HashMap;
use std::sync::Arc;

use axum::body::Bytes;
use axum::extract::{Query, State};
use axum::http::{Method, StatusCode, Uri, header};
use axum::response::{IntoResponse, Response};

use super::{Params, json};
use crate::Shared;

mod accounts;
mod blocks;
mod builders;
mod calls;
mod handler;
mod transactions;

use accounts::{account_net, account_resource, contract_info, get_account, get_contract};
use blocks::{
    bandwidth_prices, block_by_id, block_by_num, chain_parameters, energy_prices, get_block,
    node_info, now_block,
};
use builders::{create_transaction, deploy_contract, setting_transaction, stake_transaction};
use calls::{estimate_energy, trigger_constant_contract, trigger_smart_contract};
use handler::Answer;
use transactions::{
    broadcast_hex, broadcast_transaction, infos_by_block, sign_weight, transaction_by_id,
    transaction_info,
};

/// What an endpoint does with the node's state and the request's parameters.
type Handler = fn(&Shared, &Params) -> Answer;

/// One endpoint of java-tron's HTTP API: the one list the dispatcher, the GET rule and the
/// solidity node's subset are read from.
struct Endpoint {
    name: &'static str,
    /// Builders and broadcasts answer GET with nothing, as java-tron's empty `doGet` does.
    post_only: bool,
    /// Served under `/walletsolidity/` and `/walletpbft/` too (the solidified head is the
    /// head here).
    solidity: bool,
    run: Handler,
}

const fn read(name: &'static str, solidity: bool, run: Handler) -> Endpoint {
    Endpoint {
        name,
        post_only: false,
        solidity,
        run,
    }
}

const fn post(name: &'static str, solidity: bool, run: Handler) -> Endpoint {
    Endpoint {
        name,
        post_only: true,
        solidity,
        run,
    }
}

/// Every `/wallet/*` endpoint the devnet serves.
const ENDPOINTS: &[Endpoint] = &[
    read("getnowblock", true, now_block),
    read("getblockbynum", true, block_by_num),
    read("getblockbyid", true, block_by_id),
    read("getblock", true, get_block),
    read("getnodeinfo", true, |s, _| Ok(node_info(s))),
    read("getaccount", true, get_account),
    read("getaccountresource", false, account_resource),
    read("getaccountnet", false, account_net),
    read("getenergyprices", true, |s, _| Ok(energy_prices(s))),
    read("getbandwidthprices", true, |s, _| Ok(bandwidth_prices(s))),
    read("getchainparameters", false, |s, _| Ok(chain_parameters(s))),
    post("createtransaction", false, create_transaction),
    post("freezebalancev2", false, |s, p| {
        stake_transaction(s, "freezebalancev2", p)
    }),
    post("unfreezebalancev2", false, |s, p| {
        stake_transaction(s, "unfreezebalancev2", p)
    }),
    post("withdrawexpireunfreeze", false, |s, p| {
        stake_transaction(s, "withdrawexpireunfreeze", p)
    }),
    post("delegateresource", false, |s, p| {
        stake_transaction(s, "delegateresource", p)
    }),
    post("undelegateresource", false, |s, p| {
        stake_transaction(s, "undelegateresource", p)
    }),
    post("updatesetting", false, |s, p| {
        setting_transaction(s, "updatesetting", p)
    }),
    post("updateenergylimit", false, |s, p| {
        setting_transaction(s, "updateenergylimit", p)
    }),
    post("triggersmartcontract", false, trigger_smart_contract),
    post("triggerconstantcontract", true, trigger_constant_contract),
    post("estimateenergy", true, estimate_energy),
    post("deploycontract", false, deploy_contract),
    post("broadcasttransaction", false, broadcast_transaction),
    post("broadcasthex", false, broadcast_hex),
    read("gettransactionbyid", true, transaction_by_id),
    read("gettransactioninfobyid", true, transaction_info),
    read("gettransactioninfobyblocknum", true, infos_by_block),
    post("getsignweight", false, sign_weight),
    read("getcontract", false, get_contract),
    read("getcontractinfo", false, contract_info),
];

pub(crate) async fn dispatch(
    State(shared): State<Arc<Shared>>,
    method: Method,
    uri: Uri,
    Query(query): Query<HashMap<String, String>>,
    body: Bytes,
) -> Response {
    let path = uri.path().trim_end_matches('/');
    let (solidity, name) = if let Some(name) = path.strip_prefix("/wallet/") {
        (false, name)
    } else if let Some(name) = path
        .strip_prefix("/walletsolidity/")
        .or_else(|| path.strip_prefix("/walletpbft/"))
    {
        (true, name)
    } else {
        return not_found(path);
    };
    let Some(endpoint) = ENDPOINTS
        .iter()
        .find(|e| e.name == name && (e.solidity || !solidity))
    else {
        return not_found(path);
    };
    if method == Method::GET && endpoint.post_only {
        return StatusCode::OK.into_response();
    }
    if method != Method::GET && method != Method::POST {
        return StatusCode::METHOD_NOT_ALLOWED.into_response();
    }
    let mut params = match Params::parse(&query, &body) {
        Ok(p) => p,
        Err(response) => return response,
    };
    params.solidity = solidity;
    match (endpoint.run)(&shared, &params) {
        Ok(value) => json(value),
        Err(response) => response,
    }
}

/// An unknown path gets what java-tron's Jetty sends: 404 and a small HTML page.
fn not_found(path: &str) -> Response {
    let body = format!(
        "<html>\n<head>\n<meta http-equiv=\"Content-Type\" content=\"text/html;charset=utf-8\"/>\n<title>Error 404 Not Found</title>\n</head>\n<body><h2>HTTP ERROR 404 Not Found</h2>\n<table>\n<tr><th>URI:</th><td>{}</td></tr>\n<tr><th>STATUS:</th><td>404</td></tr>\n<tr><th>MESSAGE:</th><td>Not Found</td></tr>\n</table>\n</body>\n</html>\n",
        html_escape(path)
    );
    (
        StatusCode::NOT_FOUND,
        [(header::CONTENT_TYPE, "text/html;charset=utf-8")],
        body,
    )
        .into_response()
}

fn html_escape(s: &str) -> String {
    s.replace('&', "&amp;")
        .replace('<', "&lt;")
        .replace('>', "&gt;")
}
