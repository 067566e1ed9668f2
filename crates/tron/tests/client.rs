//! `tron::client::NodeClient` against in-process imitations of a java-tron FullNode and of
//! TronGrid's event API.
//!
//! The imitations answer the way the real servers do (tronprotocol/java-tron's servlets in
//! `framework/src/main/java/org/tron/core/services/http/`, and TronGrid): HTTP 200 with the
//! error in the body, proto3 defaults left out, `{}` for "not found", and text fields and
//! addresses printed according to the `visible` flag the request carried (hex text, `41…`
//! addresses and 20-byte log addresses when it is false). They also check what the client
//! sends, and record every request so the tests can assert on it.
#![allow(clippy::unwrap_used)] // a test fails by panicking: unwrapping is how it says so

use std::sync::Arc;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::Duration;

use alloy_primitives::U256;
use alloy_sol_types::{Revert, SolCall, SolError};
use axum::Router;
use axum::http::StatusCode;
use axum::response::{IntoResponse, Response};
use axum::routing::{get, post};
use serde_json::{Value, json};
use tron::abi::Trc20;
use tron::client::{EventQuery, NodeClient, NodeError};
use tron::{Action, Address, PrivateKey, Transaction, TransactionBuilder, Trigger, TxId};
use url::Url;

use java_tron::{Node, Tamper, Visible};
use support::{Journal, client, config};

// ---------------------------------------------------------------------------------------------
// Test support: the server helper, the request journal, client configuration.
// ---------------------------------------------------------------------------------------------

mod support {
    use std::sync::{Arc, Mutex};
    use std::time::Duration;

    use axum::Router;
    use axum::body::{Body, Bytes};
    use axum::extract::{Request, State};
    use axum::http::{HeaderMap, Method};
    use axum::middleware::{self, Next};
    use axum::response::Response;
    use serde_json::Value;
    use tron::client::{NodeClient, NodeConfig};
    use url::Url;

    /// Starts `router` on an ephemeral port of 127.0.0.1 and returns its base URL.
    pub async fn serve(router: Router) -> Url {
        let listener = tokio::net::TcpListener::bind("127.0.0.1:0")
            .await
            .expect("bind 127.0.0.1:0");
        let addr = listener.local_addr().expect("local address");
        tokio::spawn(async move { axum::serve(listener, router).await.expect("serve") });
        Url::parse(&format!("http://{addr}/")).expect("server URL")
    }

    /// Fast retries (1 ms backoff), so retry tests take milliseconds.
    pub fn config(url: &Url) -> NodeConfig {
        let mut config = NodeConfig::new(url.clone());
        config.backoff = Duration::from_millis(1);
        config.timeout = Duration::from_secs(5);
        config.connect_timeout = Duration::from_secs(2);
        config
    }

    pub fn client(url: &Url) -> NodeClient {
        NodeClient::new(config(url)).expect("client")
    }

    /// One request as the server received it.
    #[derive(Clone, Debug)]
    pub struct Seen {
        pub method: Method,
        pub path: String,
        pub query: String,
        pub headers: HeaderMap,
        pub body: Bytes,
    }

    impl Seen {
        /// The JSON body (`Null` when there is none).
        pub fn json(&self) -> Value {
            if self.body.is_empty() {
                return Value::Null;
            }
            serde_json::from_slice(&self.body).expect("the client sent JSON")
        }

        /// The decoded query pairs, in order.
        pub fn query_pairs(&self) -> Vec<(String, String)> {
            url::form_urlencoded::parse(self.query.as_bytes())
                .into_owned()
                .collect()
        }

        pub fn query_param(&self, key: &str) -> Option<String> {
            self.query_pairs()
                .into_iter()
                .find(|(k, _)| k == key)
                .map(|(_, v)| v)
        }

        pub fn header(&self, name: &str) -> Option<String> {
            self.headers
                .get(name)
                .map(|v| v.to_str().expect("ASCII header").to_owned())
        }
    }

    /// Records every request a router receives.
    #[derive(Clone, Default)]
    pub struct Journal(Arc<Mutex<Vec<Seen>>>);

    impl Journal {
        pub fn wrap(&self, router: Router) -> Router {
            router.layer(middleware::from_fn_with_state(self.clone(), record))
        }

        pub fn seen(&self) -> Vec<Seen> {
            self.0.lock().unwrap().clone()
        }

        pub fn count(&self) -> usize {
            self.0.lock().unwrap().len()
        }

        /// The only request; fails the test if there was not exactly one.
        pub fn single(&self) -> Seen {
            let seen = self.seen();
            assert_eq!(seen.len(), 1, "expected exactly one request: {seen:#?}");
            seen.into_iter().next().unwrap()
        }
    }

    async fn record(State(journal): State<Journal>, request: Request, next: Next) -> Response {
        let (parts, body) = request.into_parts();
        let body = axum::body::to_bytes(body, usize::MAX)
            .await
            .expect("request body");
        journal.0.lock().unwrap().push(Seen {
            method: parts.method.clone(),
            path: parts.uri.path().to_owned(),
            query: parts.uri.query().unwrap_or("").to_owned(),
            headers: parts.headers.clone(),
            body: body.clone(),
        });
        next.run(Request::from_parts(parts, Body::from(body))).await
    }

    /// Starts `router` behind a journal.
    pub async fn serve_journaled(router: Router) -> (Url, Journal) {
        let journal = Journal::default();
        let url = serve(journal.wrap(router)).await;
        (url, journal)
    }

    /// A URL nothing listens on: a port the OS handed out and took back.
    pub fn closed_port_url() -> Url {
        let port = std::net::TcpListener::bind("127.0.0.1:0")
            .expect("bind")
            .local_addr()
            .expect("local address")
            .port();
        Url::parse(&format!("http://127.0.0.1:{port}/")).unwrap()
    }
}

// ---------------------------------------------------------------------------------------------
// Fixtures: real Nile values, as printed in java-tron's HTTP API documentation
// (tronprotocol/documentation-en, one page per endpoint).
// ---------------------------------------------------------------------------------------------

mod fixtures {
    use serde_json::{Value, json};
    use tron::transaction::now_ms;
    use tron::{Address, RefBlock, TxId};

    /// `getnowblock` on Nile (documentation-en getnowblock.md).
    pub const NILE_BLOCK_ID: &str =
        "0000000003fe266bf6b6d392f654dc2e5011601546ed04623d9fcc4e9d439a25";
    pub const NILE_BLOCK_NUMBER: i64 = 66987627;
    pub const NILE_BLOCK_TIME: i64 = 1777445307000;
    pub const NILE_WITNESS: &str = "41e7860196ad5b5718c1d6326babab039b70b8c1cd";

    pub fn address(hex: &str) -> Address {
        Address::from_hex(hex).expect("fixture address")
    }

    /// The Nile account of the doc captures.
    pub fn nile_owner() -> Address {
        address("41dd791d6b49e190062d650e6a23c575510d35f2f9")
    }

    /// Nile USDT (TetherToken).
    pub fn usdt() -> Address {
        address("41eca9bc828a3005b9a3b909f2cc5c2a54794de05f")
    }

    /// The contract of the `gettransactioninfobyid` capture.
    pub fn nile_contract() -> Address {
        address("419ff8fc48fb114ccd5bbdc24a86f0c73082f08825")
    }

    /// `balanceOf(nile_owner)` on Nile USDT in the triggerconstantcontract capture.
    pub const NILE_OWNER_USDT: u128 = 0x40cfcc00;

    pub fn nile_block_id() -> [u8; 32] {
        hex::decode(NILE_BLOCK_ID).unwrap().try_into().unwrap()
    }

    /// A reference to the Nile block, timed now so what is built on it has not expired.
    pub fn ref_block() -> RefBlock {
        RefBlock {
            number: NILE_BLOCK_NUMBER,
            id: nile_block_id(),
            timestamp: now_ms(),
        }
    }

    /// The Nile head block as java-tron prints it.
    pub fn nile_block(visible: bool, transactions: Vec<Value>) -> Value {
        let witness = address(NILE_WITNESS);
        let mut block = json!({
            "blockID": NILE_BLOCK_ID,
            "block_header": {
                "raw_data": {
                    "number": NILE_BLOCK_NUMBER,
                    "txTrieRoot": "f8156964cc3e5793a368f938a18ea45c02bd48fe3a412f7091ce8d9ef56df174",
                    "witness_address": super::java_tron::print_address(visible, &witness),
                    "parentHash": "0000000003fe266a65d5194c947f6f7a059d4646c8e9a5293226bc7fdcfc775e",
                    "version": 34,
                    "timestamp": NILE_BLOCK_TIME
                },
                "witness_signature": "55a29981b2ba121613788de5d1b6bd87579ef63479f4fbb7bc99b1c721769487023cb74ea3b604778ed448bf1c90db3db0fd8fedc85102cfda4231fd1c75d6e100"
            }
        });
        // An empty block has no `transactions` key at all.
        if !transactions.is_empty() {
            block["transactions"] = transactions.into();
        }
        block
    }

    /// A TRC-20 `Transfer` as TronGrid lists it; `n` varies block, index, value and txid.
    pub fn transfer_event(contract: &Address, n: u8, unconfirmed: bool) -> Value {
        let from = nile_owner();
        let to = nile_contract();
        let evm = |a: &Address| format!("0x{}", &a.to_hex()[2..]);
        let value = (u64::from(n) * 1_000_000).to_string();
        let mut event = json!({
            "block_number": 66985120 + i64::from(n),
            "block_timestamp": 1777437762000_i64 + i64::from(n) * 3000,
            "caller_contract_address": contract.to_base58(),
            "contract_address": contract.to_base58(),
            "event_index": i64::from(n % 2),
            "event_name": "Transfer",
            "result": {
                "0": evm(&from), "1": evm(&to), "2": value,
                "from": evm(&from), "to": evm(&to), "value": value
            },
            "result_type": {"from": "address", "to": "address", "value": "uint256"},
            "event": "Transfer(address indexed from, address indexed to, uint256 value)",
            "transaction_id": event_txid(n).to_hex()
        });
        if unconfirmed {
            event["_unconfirmed"] = true.into();
        }
        event
    }

    pub fn event_txid(n: u8) -> TxId {
        TxId([n; 32])
    }
}

// ---------------------------------------------------------------------------------------------
// An imitation of a java-tron FullNode's HTTP API (the `/wallet/*` calls the client makes).
// ---------------------------------------------------------------------------------------------

mod java_tron {
    use std::collections::HashMap;
    use std::sync::{Arc, Mutex, MutexGuard};

    use alloy_primitives::U256;
    use alloy_sol_types::{Revert, SolCall, SolError};
    use axum::Router;
    use axum::body::Bytes;
    use axum::extract::{Query, State};
    use axum::http::header;
    use axum::response::{IntoResponse, Response};
    use axum::routing::{get, post};
    use serde_json::{Value, json};
    use tron::abi::Trc20;
    use tron::transaction::now_ms;
    use tron::{Action, Address, Transaction, TransactionBuilder, Trigger, TxId};

    use super::fixtures;

    /// How the node prints the fields java-tron formats by `visible`.
    #[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
    pub enum Visible {
        /// As the request asks, like java-tron: the body's `visible`, or the query string's for
        /// `getnowblock`.
        #[default]
        AsRequested,
        /// Always as with `visible: false` (java-tron's default): text as hex of UTF-8, addresses
        /// as `41…` hex, log addresses as 20-byte hex. What the client gets whenever its flag
        /// does not reach the node; it must read both forms.
        Hex,
    }

    /// What a dishonest `triggersmartcontract` changes in the transaction it builds.
    #[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
    pub enum Tamper {
        #[default]
        Nothing,
        CallValue,
        Data,
        FeeLimit,
    }

    /// A deployed TRC-20 token: `balanceOf` and `transfer` (which reverts with a reason when the
    /// sender's balance is short); any other selector reverts without data.
    #[derive(Clone, Debug, Default)]
    pub struct Token {
        pub name: String,
        pub balances: HashMap<Address, u128>,
    }

    pub const TRANSFER_REVERT: &str = "TRC20: transfer amount exceeds balance";

    enum Run {
        Return(Vec<u8>, i64),
        Revert(Vec<u8>, i64),
    }

    impl Token {
        fn balance(&self, owner: &Address) -> u128 {
            self.balances.get(owner).copied().unwrap_or(0)
        }

        fn run(&self, call: &Trigger) -> Run {
            if let Ok(c) = Trc20::balanceOfCall::abi_decode(&call.data) {
                let balance = U256::from(self.balance(&c.owner.into()));
                return Run::Return(balance.to_be_bytes::<32>().to_vec(), 935);
            }
            if let Ok(c) = Trc20::transferCall::abi_decode(&call.data) {
                if c.value > U256::from(self.balance(&call.owner)) {
                    return Run::Revert(Revert::from(TRANSFER_REVERT).abi_encode(), 1_224);
                }
                return Run::Return(U256::from(1).to_be_bytes::<32>().to_vec(), 13_045);
            }
            Run::Revert(Vec::new(), 142)
        }
    }

    /// A mined transaction's execution record (`gettransactioninfobyid`).
    #[derive(Clone, Debug)]
    pub struct Info {
        pub fee: i64,
        pub block_number: i64,
        pub block_timestamp: i64,
        pub contract: Address,
        pub contract_result: Vec<u8>,
        /// `ResourceReceipt` as printed (it has no fields `visible` changes).
        pub receipt: Value,
        /// Topics and data of logs emitted by `contract`.
        pub logs: Vec<(Vec<[u8; 32]>, Vec<u8>)>,
        /// `resMessage` of a failed transaction.
        pub failure: Option<String>,
    }

    #[derive(Default)]
    pub struct NodeState {
        pub visible: Visible,
        pub has_head: bool,
        pub head_transactions: Vec<Transaction>,
        /// Accounts by address, with their balance in sun.
        pub accounts: HashMap<Address, i64>,
        pub account_resource: Value,
        pub chain_parameters: Value,
        pub tokens: HashMap<Address, Token>,
        /// `vm.estimateEnergy` in the node's config.
        pub estimate_energy: bool,
        pub tamper: Tamper,
        /// Reported as the broadcast txid instead of the real one.
        pub lie_about_txid: Option<TxId>,
        pub mined: HashMap<TxId, Transaction>,
        pub infos: HashMap<TxId, Info>,
        /// What `broadcasttransaction` decoded from the requests.
        pub received: Vec<Transaction>,
        /// The bytes `broadcasthex` decoded from the requests.
        pub received_hex: Vec<Vec<u8>>,
        /// What `triggersmartcontract` built.
        pub built: Vec<Transaction>,
    }

    impl NodeState {
        /// Whether to print as `visible: true`, given what the request asked.
        fn prints_visible(&self, requested: bool) -> bool {
            requested && self.visible == Visible::AsRequested
        }
    }

    #[derive(Clone)]
    pub struct Node(Arc<Mutex<NodeState>>);

    impl Node {
        /// A node with a head block, Nile USDT deployed and `estimateenergy` enabled.
        pub fn new() -> Self {
            let mut usdt = Token {
                name: "TetherToken".into(),
                ..Token::default()
            };
            usdt.balances
                .insert(fixtures::nile_owner(), fixtures::NILE_OWNER_USDT);
            let state = NodeState {
                has_head: true,
                estimate_energy: true,
                tokens: HashMap::from([(fixtures::usdt(), usdt)]),
                ..NodeState::default()
            };
            Node(Arc::new(Mutex::new(state)))
        }

        pub fn configure(self, f: impl FnOnce(&mut NodeState)) -> Self {
            f(&mut self.state());
            self
        }

        pub fn state(&self) -> MutexGuard<'_, NodeState> {
            self.0.lock().unwrap()
        }

        pub fn router(&self) -> Router {
            Router::new()
                .route("/wallet/getnowblock", get(getnowblock).post(getnowblock))
                .route("/wallet/getaccount", post(getaccount))
                .route("/wallet/getaccountresource", post(getaccountresource))
                .route(
                    "/wallet/getchainparameters",
                    get(getchainparameters).post(getchainparameters),
                )
                .route("/wallet/getcontract", post(getcontract))
                .route(
                    "/wallet/triggerconstantcontract",
                    post(triggerconstantcontract),
                )
                .route("/wallet/estimateenergy", post(estimateenergy))
                .route("/wallet/triggersmartcontract", post(triggersmartcontract))
                .route("/wallet/broadcasttransaction", post(broadcasttransaction))
                .route("/wallet/broadcasthex", post(broadcasthex))
                .route("/wallet/gettransactionbyid", post(gettransactionbyid))
                .route(
                    "/wallet/gettransactioninfobyid",
                    post(gettransactioninfobyid),
                )
                .with_state(self.clone())
        }
    }

    // --- printing, as JsonFormat does ---

    /// java-tron's answer: always HTTP 200, `println` of the JSON.
    pub fn java(body: Value) -> Response {
        (
            [(header::CONTENT_TYPE, "application/json; charset=utf-8")],
            format!("{body}\n"),
        )
            .into_response()
    }

    /// An uncaught exception in a servlet (`Util.processError`).
    pub fn java_error(class: &str, message: &str) -> Response {
        java(json!({ "Error": format!("class {class} : {message}") }))
    }

    /// Text fields (`Return.message`, `resMessage`): UTF-8 when visible, else hex of UTF-8.
    pub fn print_text(visible: bool, text: &str) -> Value {
        if visible {
            text.into()
        } else {
            hex::encode(text).into()
        }
    }

    /// Address fields: base58check when visible, else 21-byte `41…` hex.
    pub fn print_address(visible: bool, address: &Address) -> Value {
        if visible {
            address.to_base58().into()
        } else {
            address.to_hex().into()
        }
    }

    /// `TransactionInfo.Log.address`: base58 of `41‖addr` when visible, else the bare 20 bytes.
    fn print_log_address(visible: bool, address: &Address) -> Value {
        if visible {
            address.to_base58().into()
        } else {
            hex::encode(&address.tron_bytes()[1..]).into()
        }
    }

    /// `Util.printTransactionToJSON` (no `visible` key; block and query answers have none).
    fn print_transaction(tx: &Transaction, visible: bool) -> Value {
        let mut json = tx.to_json(visible);
        json.as_object_mut().unwrap().remove("visible");
        json
    }

    fn print_info(txid: &TxId, info: &Info, visible: bool) -> Value {
        let mut json = json!({
            "id": txid.to_hex(),
            "fee": info.fee,
            "blockNumber": info.block_number,
            "blockTimeStamp": info.block_timestamp,
            "contractResult": [hex::encode(&info.contract_result)],
            "contract_address": print_address(visible, &info.contract),
            "receipt": info.receipt,
        });
        if !info.logs.is_empty() {
            json["log"] = info
                .logs
                .iter()
                .map(|(topics, data)| {
                    json!({
                        "address": print_log_address(visible, &info.contract),
                        "topics": topics.iter().map(hex::encode).collect::<Vec<_>>(),
                        "data": hex::encode(data),
                    })
                })
                .collect();
        }
        if let Some(message) = &info.failure {
            json["result"] = "FAILED".into();
            json["resMessage"] = print_text(visible, message);
        }
        json
    }

    // --- reading requests, as JsonFormat.merge does ---

    fn parse_body(body: &Bytes) -> Value {
        serde_json::from_slice(body).unwrap_or(Value::Null)
    }

    /// `Util.getVisiblePost`.
    fn visible_post(body: &Value) -> bool {
        match body.get("visible") {
            Some(Value::Bool(b)) => *b,
            Some(Value::String(s)) => s == "true",
            _ => false,
        }
    }

    /// Addresses are read in the form `visible` implies (base58 when true, hex when false).
    fn read_address(body: &Value, key: &str, visible: bool) -> Option<Address> {
        let text = body.get(key)?.as_str()?;
        if visible {
            Address::from_base58(text).ok()
        } else {
            Address::from_hex(text).ok()
        }
    }

    fn read_int(body: &Value, key: &str) -> i64 {
        body.get(key).and_then(Value::as_i64).unwrap_or(0)
    }

    /// A `TriggerSmartContract` from a request body.
    fn read_trigger(body: &Value, visible: bool) -> Result<Trigger, String> {
        let owner =
            read_address(body, "owner_address", visible).ok_or("owner_address isn't set.")?;
        let contract =
            read_address(body, "contract_address", visible).ok_or("contract_address isn't set.")?;
        let data = match body.get("data") {
            None => Vec::new(),
            Some(v) => {
                hex::decode(v.as_str().ok_or("data is not a string")?).map_err(|e| e.to_string())?
            }
        };
        Ok(Trigger {
            owner,
            contract,
            call_value: read_int(body, "call_value"),
            data,
            call_token_value: read_int(body, "call_token_value"),
            token_id: read_int(body, "token_id"),
        })
    }

    fn refused(visible: bool, code: &str, message: &str) -> Value {
        json!({ "result": { "code": code, "message": print_text(visible, message) } })
    }

    fn other_error(visible: bool, reason: &str) -> Response {
        java(refused(
            visible,
            "OTHER_ERROR",
            &format!("class java.security.InvalidParameterException : {reason}"),
        ))
    }

    /// What `Wallet.broadcastTransaction` checks that the client could get wrong.
    fn validate(tx: &Transaction) -> Result<(), (&'static str, String)> {
        let txid = tx.txid();
        let owner = tx.owner().map_err(|e| {
            (
                "CONTRACT_VALIDATE_ERROR",
                format!("Contract validate error : {e}"),
            )
        })?;
        if tx.signatures().is_empty() {
            return Err((
                "SIGERROR",
                "Validate signature error: miss sig or contract".into(),
            ));
        }
        for signature in tx.signatures() {
            let signer = signature
                .recover(&txid.0)
                .map_err(|e| ("SIGERROR", format!("Validate signature error: {e}")))?;
            if signer != owner {
                return Err((
                    "SIGERROR",
                    format!(
                        "Validate signature error: {} is signed by {} but it is not contained of permission.",
                        signature.to_hex(),
                        signer.to_base58()
                    ),
                ));
            }
        }
        if tx.expiration() <= now_ms() {
            return Err(("TRANSACTION_EXPIRATION_ERROR", "Transaction expired".into()));
        }
        Ok(())
    }

    // --- the servlets ---

    /// `visible` from the query string only (GetNowBlockServlet ignores the body).
    async fn getnowblock(
        State(node): State<Node>,
        Query(query): Query<HashMap<String, String>>,
    ) -> Response {
        let state = node.state();
        if !state.has_head {
            return java(json!({}));
        }
        let visible =
            state.prints_visible(query.get("visible").map(String::as_str) == Some("true"));
        let transactions = state
            .head_transactions
            .iter()
            .map(|tx| {
                let mut json = print_transaction(tx, visible);
                json["ret"] = json!([{ "contractRet": "SUCCESS" }]);
                json
            })
            .collect();
        java(fixtures::nile_block(visible, transactions))
    }

    async fn getaccount(State(node): State<Node>, body: Bytes) -> Response {
        let request = parse_body(&body);
        let requested = visible_post(&request);
        let state = node.state();
        // A base58 address with a bad checksum ends in a NullPointerException.
        let Some(address) = read_address(&request, "address", requested) else {
            return java_error("java.lang.NullPointerException", "null");
        };
        let Some(&balance) = state.accounts.get(&address) else {
            return java(json!({}));
        };
        let visible = state.prints_visible(requested);
        let printed = print_address(visible, &address);
        let mut account = json!({
            "address": printed,
            "create_time": 1776933207000_i64,
            "latest_opration_time": 1777437762000_i64,
            "free_net_usage": 441,
            "latest_consume_free_time": 1777437762000_i64,
            "net_window_size": 28800000,
            "net_window_optimized": true,
            "account_resource": { "energy_window_size": 28800000, "energy_window_optimized": true },
            "owner_permission": {
                "permission_name": "owner", "threshold": 1,
                "keys": [{ "address": printed, "weight": 1 }]
            },
            "active_permission": [{
                "type": "Active", "id": 2, "permission_name": "active", "threshold": 1,
                "operations": "7fff1fc0033efb0f000000000000000000000000000000000000000000000000",
                "keys": [{ "address": printed, "weight": 1 }]
            }],
            "frozenV2": [{}, { "type": "ENERGY" }, { "type": "TRON_POWER" }]
        });
        // proto3: a zero balance is not printed at all.
        if balance != 0 {
            account["balance"] = balance.into();
        }
        java(account)
    }

    async fn getaccountresource(State(node): State<Node>, body: Bytes) -> Response {
        let request = parse_body(&body);
        if read_address(&request, "address", visible_post(&request)).is_none() {
            return java_error("java.lang.NullPointerException", "null");
        }
        java(node.state().account_resource.clone())
    }

    async fn getchainparameters(State(node): State<Node>) -> Response {
        java(node.state().chain_parameters.clone())
    }

    async fn getcontract(State(node): State<Node>, body: Bytes) -> Response {
        let request = parse_body(&body);
        let requested = visible_post(&request);
        let state = node.state();
        let Some(address) = read_address(&request, "value", requested) else {
            return java_error("java.lang.NullPointerException", "null");
        };
        let Some(token) = state.tokens.get(&address) else {
            return java(json!({}));
        };
        let visible = state.prints_visible(requested);
        java(json!({
            "origin_address": print_address(visible, &fixtures::nile_owner()),
            "contract_address": print_address(visible, &address),
            "abi": { "entrys": [
                { "outputs": [{ "type": "string" }], "constant": true, "name": "name",
                  "stateMutability": "View", "type": "Function" },
                { "outputs": [{ "type": "uint256" }], "constant": true,
                  "inputs": [{ "name": "who", "type": "address" }], "name": "balanceOf",
                  "stateMutability": "View", "type": "Function" }
            ] },
            "bytecode": "6080604052348015600f57600080fd5b50",
            "name": token.name,
            "origin_energy_limit": 1000000000,
            "code_hash": "1c32b8b3d2ad4a6bb34a3bd0b0b4e7c6d1f9b3ff8c8c0b5ad0e0c1e79e4a91f2"
        }))
    }

    async fn triggerconstantcontract(State(node): State<Node>, body: Bytes) -> Response {
        let request = parse_body(&body);
        let requested = visible_post(&request);
        let state = node.state();
        let visible = state.prints_visible(requested);
        let call = match read_trigger(&request, requested) {
            Ok(call) => call,
            Err(reason) => return other_error(visible, &reason),
        };
        let Some(token) = state.tokens.get(&call.contract) else {
            return java(refused(
                visible,
                "CONTRACT_VALIDATE_ERROR",
                "Smart contract is not exist.",
            ));
        };
        // The context transaction: built on the node's reference block, no fee_limit.
        let tx =
            TransactionBuilder::new(Action::Trigger(call.clone()), fixtures::ref_block()).build();
        let mut tx_json = tx.to_json(visible);
        java(match token.run(&call) {
            Run::Return(output, energy) => {
                tx_json["ret"] = json!([{}]);
                json!({
                    "result": { "result": true },
                    "energy_used": energy,
                    "constant_result": [hex::encode(output)],
                    "transaction": tx_json,
                })
            }
            Run::Revert(data, energy) => {
                tx_json["ret"] = json!([{ "ret": "FAILED" }]);
                json!({
                    "result": { "result": true, "message": print_text(visible, "REVERT opcode executed") },
                    "energy_used": energy,
                    "constant_result": [hex::encode(data)],
                    "transaction": tx_json,
                })
            }
        })
    }

    async fn estimateenergy(State(node): State<Node>, body: Bytes) -> Response {
        let request = parse_body(&body);
        let requested = visible_post(&request);
        let state = node.state();
        let visible = state.prints_visible(requested);
        if !state.estimate_energy {
            return java(refused(
                visible,
                "CONTRACT_VALIDATE_ERROR",
                "this node does not support estimate energy",
            ));
        }
        let call = match read_trigger(&request, requested) {
            Ok(call) => call,
            Err(reason) => return other_error(visible, &reason),
        };
        let Some(token) = state.tokens.get(&call.contract) else {
            return java(refused(
                visible,
                "CONTRACT_VALIDATE_ERROR",
                "Smart contract is not exist.",
            ));
        };
        java(match token.run(&call) {
            // The binary search lands a little above what the plain run used.
            Run::Return(_, energy) => {
                json!({ "result": { "result": true }, "energy_required": energy + 935 })
            }
            // Wallet.estimateEnergy: "If failed, return directly" with CONTRACT_EXE_ERROR.
            Run::Revert(..) => refused(visible, "CONTRACT_EXE_ERROR", "REVERT opcode executed"),
        })
    }

    async fn triggersmartcontract(State(node): State<Node>, body: Bytes) -> Response {
        let request = parse_body(&body);
        let requested = visible_post(&request);
        let mut state = node.state();
        let visible = state.prints_visible(requested);
        let mut call = match read_trigger(&request, requested) {
            Ok(call) => call,
            Err(reason) => return other_error(visible, &reason),
        };
        if !state.tokens.contains_key(&call.contract) {
            return java(refused(
                visible,
                "CONTRACT_VALIDATE_ERROR",
                "No contract or not a valid smart contract",
            ));
        }
        let mut fee_limit = read_int(&request, "fee_limit");
        match state.tamper {
            Tamper::Nothing => {}
            Tamper::CallValue => call.call_value += 1_000_000,
            Tamper::Data => *call.data.last_mut().unwrap() ^= 1,
            Tamper::FeeLimit => fee_limit *= 10,
        }
        let tx = TransactionBuilder::new(Action::Trigger(call), fixtures::ref_block())
            .fee_limit(fee_limit)
            .build();
        state.built.push(tx.clone());
        java(json!({ "result": { "result": true }, "transaction": tx.to_json(visible) }))
    }

    /// BroadcastServlet: `Util.packTransaction` re-encodes `raw_data`; the txid it reports is
    /// the hash of that re-encoding.
    async fn broadcasttransaction(State(node): State<Node>, body: Bytes) -> Response {
        let request = parse_body(&body);
        let requested = visible_post(&request);
        let mut state = node.state();
        let visible = state.prints_visible(requested);
        let Ok(tx) = Transaction::from_json(&request) else {
            return java_error("java.lang.NullPointerException", "null");
        };
        let txid = state.lie_about_txid.unwrap_or_else(|| tx.txid()).to_hex();
        let verdict = validate(&tx);
        state.received.push(tx);
        java(match verdict {
            Ok(()) => json!({ "result": true, "txid": txid }),
            // `result` is false, so it is not printed.
            Err((code, message)) => {
                json!({ "code": code, "message": print_text(visible, &message), "txid": txid })
            }
        })
    }

    /// BroadcastHexServlet: a hand-built JSON object, every key always present, `message` as
    /// UTF-8 and `transaction` a JSON *string*.
    async fn broadcasthex(State(node): State<Node>, body: Bytes) -> Response {
        let request = parse_body(&body);
        let mut state = node.state();
        let Some(text) = request.get("transaction").and_then(Value::as_str) else {
            return java_error("java.lang.NullPointerException", "null");
        };
        let bytes = match hex::decode(text) {
            Ok(bytes) => bytes,
            Err(e) => {
                return java_error(
                    "org.bouncycastle.util.encoders.DecoderException",
                    &format!("exception decoding Hex string: {e}"),
                );
            }
        };
        state.received_hex.push(bytes.clone());
        let tx = match Transaction::from_protobuf(&bytes) {
            Ok(tx) => tx,
            Err(e) => {
                return java_error(
                    "com.google.protobuf.InvalidProtocolBufferException",
                    &e.to_string(),
                );
            }
        };
        let txid = state.lie_about_txid.unwrap_or_else(|| tx.txid()).to_hex();
        let (result, code, message) = match validate(&tx) {
            Ok(()) => (true, "SUCCESS", String::new()),
            Err((code, message)) => (false, code, message),
        };
        let printed = json!({ "raw_data": tx.to_json(true)["raw_data"], "signature": tx.to_json(true)["signature"] });
        java(json!({
            "result": result,
            "code": code,
            "message": message,
            "transaction": printed.to_string(),
            "txid": txid,
        }))
    }

    fn read_txid(request: &Value) -> Option<TxId> {
        request.get("value")?.as_str()?.parse().ok()
    }

    async fn gettransactionbyid(State(node): State<Node>, body: Bytes) -> Response {
        let request = parse_body(&body);
        let state = node.state();
        let visible = state.prints_visible(visible_post(&request));
        let Some(txid) = read_txid(&request) else {
            return java_error(
                "org.tron.core.services.http.JsonFormat$ParseException",
                "bad value",
            );
        };
        match state.mined.get(&txid) {
            None => java(json!({})),
            Some(tx) => {
                let mut json = print_transaction(tx, visible);
                json["ret"] = json!([{ "contractRet": "SUCCESS" }]);
                java(json)
            }
        }
    }

    async fn gettransactioninfobyid(State(node): State<Node>, body: Bytes) -> Response {
        let request = parse_body(&body);
        let state = node.state();
        let visible = state.prints_visible(visible_post(&request));
        let Some(txid) = read_txid(&request) else {
            return java_error(
                "org.tron.core.services.http.JsonFormat$ParseException",
                "bad value",
            );
        };
        match state.infos.get(&txid) {
            None => java(json!({})),
            Some(info) => java(print_info(&txid, info, visible)),
        }
    }
}

// ---------------------------------------------------------------------------------------------
// An imitation of TronGrid's `/v1/contracts/{address}/events`.
// ---------------------------------------------------------------------------------------------

mod trongrid {
    use std::collections::HashMap;
    use std::sync::Arc;

    use axum::Router;
    use axum::extract::{Path, Query, State};
    use axum::response::{IntoResponse, Json, Response};
    use axum::routing::get;
    use serde_json::{Value, json};

    /// One page: its events and the fingerprint of the next (`None` on the last page).
    pub struct Page {
        pub events: Vec<Value>,
        pub next: Option<String>,
    }

    type Pager = Arc<dyn Fn(Option<&str>) -> Page + Send + Sync>;

    /// Serves the page `pager` gives for the request's fingerprint (`None` for the first).
    pub fn router(pager: impl Fn(Option<&str>) -> Page + Send + Sync + 'static) -> Router {
        let pager: Pager = Arc::new(pager);
        Router::new()
            .route("/v1/contracts/{address}/events", get(events))
            .with_state(pager)
    }

    async fn events(
        State(pager): State<Pager>,
        Path(address): Path<String>,
        Query(query): Query<HashMap<String, String>>,
    ) -> Response {
        let page = pager(query.get("fingerprint").map(String::as_str));
        let mut meta = json!({ "at": 1777445307123_i64, "page_size": page.events.len() });
        if let Some(next) = &page.next {
            meta["fingerprint"] = next.clone().into();
            meta["links"] = json!({
                "next": format!("https://nile.trongrid.io/v1/contracts/{address}/events?fingerprint={next}")
            });
        }
        Json(json!({ "data": page.events, "success": true, "meta": meta })).into_response()
    }
}

// ---------------------------------------------------------------------------------------------
// Helpers for the tests.
// ---------------------------------------------------------------------------------------------

async fn start(node: &Node) -> (Url, Journal) {
    support::serve_journaled(node.router()).await
}

/// A signed TRX transfer from a fresh key.
fn signed_transfer() -> (PrivateKey, Transaction) {
    let key = PrivateKey::generate();
    let mut tx = TransactionBuilder::new(
        Action::Transfer {
            owner: key.address(),
            to: fixtures::nile_owner(),
            amount: 2_000_000,
        },
        fixtures::ref_block(),
    )
    .build();
    tx.sign(&key).expect("sign");
    (key, tx)
}

/// The same transfer signed by a key that does not own it.
fn wrongly_signed_transfer() -> (Transaction, Address) {
    let owner = PrivateKey::generate();
    let stranger = PrivateKey::generate();
    let mut tx = TransactionBuilder::new(
        Action::Transfer {
            owner: owner.address(),
            to: fixtures::nile_owner(),
            amount: 2_000_000,
        },
        fixtures::ref_block(),
    )
    .build();
    tx.push_signature(stranger.sign_digest(&tx.txid().0));
    (tx, stranger.address())
}

fn balance_of(owner: Address, who: Address) -> Trigger {
    Trigger {
        owner,
        contract: fixtures::usdt(),
        data: Trc20::balanceOfCall { owner: who.into() }.abi_encode(),
        ..Trigger::default()
    }
}

fn transfer_call(owner: Address, value: u128) -> Trigger {
    Trigger {
        owner,
        contract: fixtures::usdt(),
        data: Trc20::transferCall {
            to: fixtures::nile_contract().into(),
            value: U256::from(value),
        }
        .abi_encode(),
        ..Trigger::default()
    }
}

/// Asserts the request body describes `call` the way java-tron reads it with `visible: true`.
fn assert_call_body(body: &Value, call: &Trigger) {
    assert_eq!(body["visible"], true, "{body}");
    assert_eq!(body["owner_address"], call.owner.to_base58(), "{body}");
    assert_eq!(
        body["contract_address"],
        call.contract.to_base58(),
        "{body}"
    );
    assert_eq!(body["data"], hex::encode(&call.data), "{body}");
    assert!(body.get("function_selector").is_none(), "{body}");
}

fn refused(endpoint: &str, code: &str, message: &str) -> NodeError {
    NodeError::Refused {
        endpoint: endpoint.into(),
        code: code.into(),
        message: message.into(),
    }
}

/// A route answering with `status` and `body`.
fn fixed(status: StatusCode, body: &'static str) -> axum::routing::MethodRouter {
    post(move || async move { (status, body).into_response() })
}

/// A route that never answers.
fn never() -> axum::routing::MethodRouter {
    post(std::future::pending::<Response>)
}

// ---------------------------------------------------------------------------------------------
// 1. Blocks
// ---------------------------------------------------------------------------------------------

#[tokio::test]
async fn get_now_block_parses_the_nile_head_and_its_ref_block() {
    for visible in [Visible::AsRequested, Visible::Hex] {
        let (_, in_block) = signed_transfer();
        let node = Node::new().configure(|s| {
            s.visible = visible;
            s.head_transactions = vec![in_block];
        });
        let (url, journal) = start(&node).await;

        let block = client(&url).get_now_block().await.unwrap();

        assert_eq!(block.number(), fixtures::NILE_BLOCK_NUMBER);
        assert_eq!(block.timestamp(), fixtures::NILE_BLOCK_TIME);
        assert_eq!(hex::encode(block.block_id), fixtures::NILE_BLOCK_ID);
        assert_eq!(block.block_header.raw_data.version, 34);
        // base58 (visible) or `41…` hex: the same witness.
        assert_eq!(
            block.block_header.raw_data.witness_address,
            Some(fixtures::address(fixtures::NILE_WITNESS)),
            "{visible:?}"
        );
        assert_eq!(block.transactions.len(), 1);
        let reference = block.ref_block();
        assert_eq!(hex::encode(reference.ref_bytes()), "266b");
        assert_eq!(hex::encode(reference.ref_hash()), "f6b6d392f654dc2e");
        assert_eq!(reference.timestamp, fixtures::NILE_BLOCK_TIME);

        // java-tron reads `visible` for getnowblock from the query string only.
        let seen = journal.single();
        assert_eq!(seen.path, "/wallet/getnowblock");
        assert_eq!(seen.query, "visible=true");
    }
}

#[tokio::test]
async fn get_now_block_without_a_block_is_not_found() {
    let node = Node::new().configure(|s| s.has_head = false);
    let (url, _) = start(&node).await;
    let err = client(&url).get_now_block().await.unwrap_err();
    assert!(matches!(err, NodeError::NotFound(_)), "{err:?}");
}

// ---------------------------------------------------------------------------------------------
// 2. Accounts
// ---------------------------------------------------------------------------------------------

#[tokio::test]
async fn get_account_reads_the_balance_and_an_absent_balance_as_zero() {
    let rich = fixtures::nile_owner();
    let empty = PrivateKey::generate().address();
    let never_activated = PrivateKey::generate().address();
    let node = Node::new().configure(|s| {
        s.accounts.insert(rich, 1_793_227_200);
        s.accounts.insert(empty, 0);
    });
    let (url, journal) = start(&node).await;
    let client = client(&url);

    let account = client.get_account(&rich).await.unwrap().expect("exists");
    assert_eq!(account.balance, 1_793_227_200);
    assert_eq!(account.address, Some(rich));
    assert_eq!(account.create_time, 1776933207000);

    let account = client.get_account(&empty).await.unwrap().expect("exists");
    assert_eq!(account.balance, 0);

    assert!(
        client
            .get_account(&never_activated)
            .await
            .unwrap()
            .is_none()
    );

    let bodies: Vec<Value> = journal.seen().iter().map(|s| s.json()).collect();
    assert_eq!(
        bodies[0],
        json!({ "address": rich.to_base58(), "visible": true })
    );
}

#[tokio::test]
async fn get_account_reads_hex_addresses_too() {
    let rich = fixtures::nile_owner();
    let node = Node::new().configure(|s| {
        s.visible = Visible::Hex;
        s.accounts.insert(rich, 5);
    });
    let (url, _) = start(&node).await;
    let account = client(&url).get_account(&rich).await.unwrap().unwrap();
    assert_eq!(account.address, Some(rich));
    assert_eq!(account.balance, 5);
}

#[tokio::test]
async fn get_account_java_exception_is_a_node_error_without_the_class() {
    let router = Router::new().route(
        "/wallet/getaccount",
        post(|| async { java_tron::java_error("java.lang.NullPointerException", "null") }),
    );
    let (url, journal) = support::serve_journaled(router).await;
    let err = client(&url)
        .get_account(&fixtures::nile_owner())
        .await
        .unwrap_err();
    assert_eq!(
        err,
        NodeError::Node {
            endpoint: "wallet/getaccount".into(),
            message: "null".into()
        }
    );
    // Not a transient failure: asked once.
    assert_eq!(journal.count(), 1);
}

// ---------------------------------------------------------------------------------------------
// 3. Resources, chain parameters, contracts
// ---------------------------------------------------------------------------------------------

#[tokio::test]
async fn get_account_resource_reads_energy_and_bandwidth() {
    let node = Node::new().configure(|s| {
        s.account_resource = json!({
            "freeNetUsed": 441, "freeNetLimit": 600,
            "NetUsed": 100, "NetLimit": 1000,
            "TotalNetLimit": 43200000000_i64, "TotalNetWeight": 68305209098_i64,
            "EnergyUsed": 1500, "EnergyLimit": 65000,
            "TotalEnergyLimit": 180000000000_i64, "TotalEnergyWeight": 2411528185_i64
        });
    });
    let (url, journal) = start(&node).await;
    let owner = fixtures::nile_owner();
    let resource = client(&url).get_account_resource(&owner).await.unwrap();
    assert_eq!(resource.energy_limit, 65000);
    assert_eq!(resource.energy_available(), 63500);
    assert_eq!(resource.bandwidth_available(), 159 + 900);
    assert_eq!(resource.total_energy_weight, 2411528185);
    assert_eq!(
        journal.single().json(),
        json!({ "address": owner.to_base58(), "visible": true })
    );

    // A fresh account: every zero left out.
    node.state().account_resource =
        json!({ "freeNetLimit": 600, "TotalNetLimit": 43200000000_i64 });
    let resource = client(&url).get_account_resource(&owner).await.unwrap();
    assert_eq!(resource.energy_available(), 0);
    assert_eq!(resource.bandwidth_available(), 600);
}

#[tokio::test]
async fn get_chain_parameters_reads_entries_without_a_value_as_zero() {
    let node = Node::new().configure(|s| {
        s.chain_parameters = json!({ "chainParameter": [
            { "key": "getMaintenanceTimeInterval", "value": 1800000 },
            { "key": "getTransactionFee", "value": 1000 },
            { "key": "getEnergyFee", "value": 100 },
            { "key": "getMaxFeeLimit", "value": 15000000000_i64 },
            { "key": "getAllowTvmBlob" }
        ] });
    });
    let (url, _) = start(&node).await;
    let params = client(&url).get_chain_parameters().await.unwrap();
    assert_eq!(params.energy_fee(), Some(100));
    assert_eq!(params.max_fee_limit(), Some(15_000_000_000));
    assert_eq!(params.transaction_fee(), Some(1000));
    assert_eq!(params.get("getAllowTvmBlob"), Some(0));
    assert_eq!(params.get("getAllowTvmCancun"), None);
}

#[tokio::test]
async fn get_contract_reads_the_stored_contract_and_none_when_absent() {
    let node = Node::new();
    let (url, journal) = start(&node).await;
    let client = client(&url);

    let contract = client
        .get_contract(&fixtures::usdt())
        .await
        .unwrap()
        .unwrap();
    assert_eq!(contract.contract_address, Some(fixtures::usdt()));
    assert_eq!(contract.origin_address, Some(fixtures::nile_owner()));
    assert_eq!(contract.name, "TetherToken");
    assert_eq!(contract.origin_energy_limit, 1_000_000_000);
    assert_eq!(contract.consume_user_resource_percent, 0);
    assert_eq!(contract.abi["entrys"][1]["name"], "balanceOf");
    assert_eq!(
        contract.bytecode,
        hex::decode("6080604052348015600f57600080fd5b50").unwrap()
    );

    let nobody = PrivateKey::generate().address();
    assert!(client.get_contract(&nobody).await.unwrap().is_none());
    assert_eq!(
        journal.seen()[1].json(),
        json!({ "value": nobody.to_base58(), "visible": true })
    );
}

// ---------------------------------------------------------------------------------------------
// 4. Constant calls
// ---------------------------------------------------------------------------------------------

#[tokio::test]
async fn trigger_constant_contract_returns_the_output_and_energy() {
    let node = Node::new();
    let (url, journal) = start(&node).await;
    let call = balance_of(fixtures::nile_owner(), fixtures::nile_owner());

    let result = client(&url).trigger_constant_contract(&call).await.unwrap();

    assert!(!result.reverted);
    assert_eq!(result.revert_reason(), None);
    assert_eq!(result.energy_used, 935);
    assert_eq!(
        U256::from_be_slice(&result.output),
        U256::from(fixtures::NILE_OWNER_USDT)
    );
    let seen = journal.single();
    assert_eq!(seen.path, "/wallet/triggerconstantcontract");
    assert_call_body(&seen.json(), &call);
}

#[tokio::test]
async fn trigger_constant_contract_revert_gives_the_reason() {
    for visible in [Visible::AsRequested, Visible::Hex] {
        let node = Node::new().configure(|s| s.visible = visible);
        let (url, _) = start(&node).await;
        // More than the owner holds.
        let call = transfer_call(fixtures::nile_owner(), fixtures::NILE_OWNER_USDT + 1);

        let result = client(&url).trigger_constant_contract(&call).await.unwrap();

        assert!(result.reverted, "{visible:?}");
        assert_eq!(result.message.as_deref(), Some("REVERT opcode executed"));
        assert_eq!(
            result.output,
            Revert::from(java_tron::TRANSFER_REVERT).abi_encode()
        );
        assert_eq!(
            result.revert_reason().as_deref(),
            Some(java_tron::TRANSFER_REVERT),
            "{visible:?}"
        );
    }
}

#[tokio::test]
async fn trigger_constant_contract_revert_without_data_falls_back_to_the_message() {
    let node = Node::new().configure(|s| s.visible = Visible::Hex);
    let (url, _) = start(&node).await;
    let call = Trigger {
        owner: fixtures::nile_owner(),
        contract: fixtures::usdt(),
        data: vec![0xde, 0xad, 0xbe, 0xef],
        ..Trigger::default()
    };
    let result = client(&url).trigger_constant_contract(&call).await.unwrap();
    assert!(result.reverted);
    assert!(result.output.is_empty());
    assert_eq!(
        result.revert_reason().as_deref(),
        Some("REVERT opcode executed")
    );
}

#[tokio::test]
async fn trigger_constant_contract_on_a_missing_contract_is_refused() {
    // With `visible: true` honoured the message is UTF-8; printed as visible=false it is hex.
    for visible in [Visible::AsRequested, Visible::Hex] {
        let node = Node::new().configure(|s| s.visible = visible);
        let (url, _) = start(&node).await;
        let call = Trigger {
            contract: PrivateKey::generate().address(),
            ..balance_of(fixtures::nile_owner(), fixtures::nile_owner())
        };
        let err = client(&url)
            .trigger_constant_contract(&call)
            .await
            .unwrap_err();
        assert_eq!(
            err,
            refused(
                "wallet/triggerconstantcontract",
                "CONTRACT_VALIDATE_ERROR",
                "Smart contract is not exist."
            ),
            "{visible:?}"
        );
    }
}

// ---------------------------------------------------------------------------------------------
// 5. Energy estimates
// ---------------------------------------------------------------------------------------------

#[tokio::test]
async fn estimate_energy_returns_the_energy_required() {
    let node = Node::new();
    let (url, journal) = start(&node).await;
    let call = transfer_call(fixtures::nile_owner(), 1);
    let energy = client(&url).estimate_energy(&call).await.unwrap();
    assert_eq!(energy, 13_045 + 935);
    let seen = journal.single();
    assert_eq!(seen.path, "/wallet/estimateenergy");
    assert_call_body(&seen.json(), &call);
}

#[tokio::test]
async fn estimate_energy_is_refused_by_a_node_without_it() {
    let node = Node::new().configure(|s| {
        s.visible = Visible::Hex;
        s.estimate_energy = false;
    });
    let (url, _) = start(&node).await;
    let err = client(&url)
        .estimate_energy(&transfer_call(fixtures::nile_owner(), 1))
        .await
        .unwrap_err();
    assert_eq!(
        err,
        refused(
            "wallet/estimateenergy",
            "CONTRACT_VALIDATE_ERROR",
            "this node does not support estimate energy"
        )
    );
}

#[tokio::test]
async fn estimate_energy_of_a_reverting_call_is_refused_not_zero() {
    let node = Node::new();
    let (url, _) = start(&node).await;
    let call = transfer_call(fixtures::nile_owner(), fixtures::NILE_OWNER_USDT + 1);
    let err = client(&url).estimate_energy(&call).await.unwrap_err();
    assert_eq!(
        err,
        refused(
            "wallet/estimateenergy",
            "CONTRACT_EXE_ERROR",
            "REVERT opcode executed"
        )
    );
}

// ---------------------------------------------------------------------------------------------
// 6. Broadcasts
// ---------------------------------------------------------------------------------------------

#[tokio::test]
async fn broadcast_transaction_sends_the_signed_transaction() {
    let node = Node::new();
    let (url, journal) = start(&node).await;
    let (key, tx) = signed_transfer();

    let txid = client(&url).broadcast_transaction(&tx).await.unwrap();

    assert_eq!(txid, tx.txid());
    // The node decoded exactly our transaction, signature included, signed by the owner.
    let received = node.state().received.clone();
    assert_eq!(received, vec![tx.clone()]);
    assert_eq!(received[0].signers().unwrap(), vec![key.address()]);
    let body = journal.single().json();
    assert_eq!(body["visible"], true);
    assert_eq!(body["signature"], json!([tx.signatures()[0].to_hex()]));
    assert_eq!(
        body["raw_data"]["contract"][0]["parameter"]["value"]["owner_address"],
        key.address().to_base58()
    );
}

#[tokio::test]
async fn broadcast_transaction_signature_error_is_refused_with_the_decoded_message() {
    for visible in [Visible::AsRequested, Visible::Hex] {
        let node = Node::new().configure(|s| s.visible = visible);
        let (url, _) = start(&node).await;
        let (tx, stranger) = wrongly_signed_transfer();

        let err = client(&url).broadcast_transaction(&tx).await.unwrap_err();

        let expected = format!(
            "Validate signature error: {} is signed by {} but it is not contained of permission.",
            tx.signatures()[0].to_hex(),
            stranger.to_base58()
        );
        assert_eq!(
            err,
            refused("wallet/broadcasttransaction", "SIGERROR", &expected),
            "{visible:?}"
        );
        assert!(!err.is_transient());
    }
}

#[tokio::test]
async fn broadcast_hex_sends_the_protobuf_bytes() {
    let node = Node::new();
    let (url, journal) = start(&node).await;
    let (_, tx) = signed_transfer();

    let txid = client(&url).broadcast_hex(&tx).await.unwrap();

    assert_eq!(txid, tx.txid());
    assert_eq!(node.state().received_hex, vec![tx.to_protobuf()]);
    let body = journal.single().json();
    assert_eq!(
        body,
        json!({ "transaction": hex::encode(tx.to_protobuf()) })
    );
}

#[tokio::test]
async fn broadcast_hex_failure_is_refused() {
    let node = Node::new();
    let (url, _) = start(&node).await;
    let (tx, stranger) = wrongly_signed_transfer();
    let err = client(&url).broadcast_hex(&tx).await.unwrap_err();
    let NodeError::Refused {
        endpoint,
        code,
        message,
    } = err
    else {
        panic!("expected Refused, got {err:?}");
    };
    assert_eq!(endpoint, "wallet/broadcasthex");
    assert_eq!(code, "SIGERROR");
    assert!(
        message.starts_with("Validate signature error: ")
            && message.contains(&stranger.to_base58()),
        "{message}"
    );
}

#[tokio::test]
async fn broadcast_answer_naming_another_txid_is_a_mismatch() {
    let node = Node::new().configure(|s| s.lie_about_txid = Some(TxId([7; 32])));
    let (url, _) = start(&node).await;
    let client = client(&url);
    let (_, tx) = signed_transfer();

    let err = client.broadcast_transaction(&tx).await.unwrap_err();
    assert!(matches!(err, NodeError::Mismatch(_)), "{err:?}");
    let err = client.broadcast_hex(&tx).await.unwrap_err();
    assert!(matches!(err, NodeError::Mismatch(_)), "{err:?}");
}

// ---------------------------------------------------------------------------------------------
// 7. Node-built contract calls
// ---------------------------------------------------------------------------------------------

#[tokio::test]
async fn trigger_smart_contract_accepts_the_transaction_it_asked_for() {
    let node = Node::new();
    let (url, journal) = start(&node).await;
    let client = client(&url);
    let plain = transfer_call(fixtures::nile_owner(), 1_000_000);
    let with_value = Trigger {
        call_value: 5,
        call_token_value: 7,
        token_id: 1_000_001,
        ..plain.clone()
    };

    for (i, call) in [plain, with_value].into_iter().enumerate() {
        let tx = client
            .trigger_smart_contract(&call, 100_000_000)
            .await
            .unwrap();
        assert_eq!(tx.action().unwrap(), Action::Trigger(call.clone()));
        assert_eq!(tx.fee_limit(), 100_000_000);
        assert_eq!(tx, node.state().built[i]);
        let body = journal.seen()[i].json();
        assert_call_body(&body, &call);
        assert_eq!(body["fee_limit"], 100_000_000);
    }
}

#[tokio::test]
async fn trigger_smart_contract_rejects_a_different_transaction() {
    for tamper in [Tamper::CallValue, Tamper::Data, Tamper::FeeLimit] {
        let node = Node::new().configure(|s| s.tamper = tamper);
        let (url, _) = start(&node).await;
        let call = transfer_call(fixtures::nile_owner(), 1_000_000);
        let err = client(&url)
            .trigger_smart_contract(&call, 100_000_000)
            .await
            .unwrap_err();
        assert!(matches!(err, NodeError::Mismatch(_)), "{tamper:?}: {err:?}");
    }
}

#[tokio::test]
async fn trigger_smart_contract_on_a_missing_contract_is_refused() {
    let node = Node::new().configure(|s| s.visible = Visible::Hex);
    let (url, _) = start(&node).await;
    let call = Trigger {
        contract: PrivateKey::generate().address(),
        ..transfer_call(fixtures::nile_owner(), 1)
    };
    let err = client(&url)
        .trigger_smart_contract(&call, 1)
        .await
        .unwrap_err();
    assert_eq!(
        err,
        refused(
            "wallet/triggersmartcontract",
            "CONTRACT_VALIDATE_ERROR",
            "No contract or not a valid smart contract"
        )
    );
}

// ---------------------------------------------------------------------------------------------
// 8. Transactions and receipts
// ---------------------------------------------------------------------------------------------

#[tokio::test]
async fn get_transaction_by_id_is_none_until_mined_then_parsed() {
    let (_, tx) = signed_transfer();
    let node = Node::new();
    let (url, journal) = start(&node).await;
    let client = client(&url);

    assert!(
        client
            .get_transaction_by_id(&tx.txid())
            .await
            .unwrap()
            .is_none()
    );
    assert_eq!(
        journal.single().json(),
        json!({ "value": tx.txid().to_hex(), "visible": true })
    );

    for visible in [Visible::AsRequested, Visible::Hex] {
        node.state().visible = visible;
        node.state().mined.insert(tx.txid(), tx.clone());
        let found = client
            .get_transaction_by_id(&tx.txid())
            .await
            .unwrap()
            .expect("mined");
        assert_eq!(found.transaction, tx, "{visible:?}");
        assert_eq!(found.contract_ret.as_deref(), Some("SUCCESS"));
    }
}

/// The Nile receipt of the `gettransactioninfobyid` page of java-tron's HTTP API documentation.
fn nile_success_info() -> java_tron::Info {
    let topic = |hex_text: &str| -> [u8; 32] { hex::decode(hex_text).unwrap().try_into().unwrap() };
    java_tron::Info {
        fee: 5_254_500,
        block_number: 66985120,
        block_timestamp: 1777437762000,
        contract: fixtures::nile_contract(),
        contract_result: Vec::new(),
        receipt: json!({ "energy_fee": 4458500, "energy_usage_total": 44585, "net_fee": 796000, "result": "SUCCESS" }),
        logs: vec![(
            vec![
                topic("c666c666c666c666c666c666c666c666c666c666c666c666c666c666c6663083"),
                topic("000000000000000000000000dd791d6b49e190062d650e6a23c575510d35f2f9"),
            ],
            U256::from(7).to_be_bytes::<32>().to_vec(),
        )],
        failure: None,
    }
}

#[tokio::test]
async fn get_transaction_info_reads_a_receipt_with_logs() {
    let txid = TxId([0x01; 32]);
    for visible in [Visible::AsRequested, Visible::Hex] {
        let node = Node::new().configure(|s| {
            s.visible = visible;
            s.infos.insert(txid, nile_success_info());
        });
        let (url, journal) = start(&node).await;
        let client = client(&url);

        assert!(
            client
                .get_transaction_info(&TxId([0x02; 32]))
                .await
                .unwrap()
                .is_none()
        );
        let info = client
            .get_transaction_info(&txid)
            .await
            .unwrap()
            .expect("mined");

        assert_eq!(info.id, txid);
        assert!(info.succeeded(), "{visible:?}");
        assert_eq!(info.failure_reason(), None);
        assert_eq!(info.fee, 5_254_500);
        assert_eq!(info.block_number, 66985120);
        assert_eq!(info.receipt.energy_usage_total, 44585);
        assert_eq!(info.receipt.result.as_deref(), Some("SUCCESS"));
        assert_eq!(info.contract_address, Some(fixtures::nile_contract()));
        assert_eq!(info.contract_result, vec![Vec::<u8>::new()]);
        assert_eq!(info.log.len(), 1);
        // 20-byte hex (visible=false) and base58 (visible=true) name the same contract.
        assert_eq!(
            info.log[0].address,
            fixtures::nile_contract(),
            "{visible:?}"
        );
        assert_eq!(info.log[0].topics[0][31], 0x83);
        assert_eq!(U256::from_be_slice(&info.log[0].data), U256::from(7));
        assert_eq!(
            journal.seen()[1].json(),
            json!({ "value": txid.to_hex(), "visible": true })
        );
    }
}

#[tokio::test]
async fn get_transaction_info_explains_failures() {
    let reverted = TxId([0x0a; 32]);
    let out_of_energy = TxId([0x0b; 32]);
    let ooe_message = "Not enough energy for 'SSTORE' operation executing: curInvokeEnergyLimit[10000], curOpEnergy[20000], usedEnergy[5000]";
    for visible in [Visible::AsRequested, Visible::Hex] {
        let node = Node::new().configure(|s| {
            s.visible = visible;
            s.infos.insert(
                reverted,
                java_tron::Info {
                    contract_result: Revert::from(java_tron::TRANSFER_REVERT).abi_encode(),
                    receipt: json!({ "energy_usage_total": 1224, "net_fee": 345000, "result": "REVERT" }),
                    logs: Vec::new(),
                    failure: Some("REVERT opcode executed".into()),
                    ..nile_success_info()
                },
            );
            s.infos.insert(
                out_of_energy,
                java_tron::Info {
                    contract_result: Vec::new(),
                    receipt: json!({ "energy_usage_total": 10000, "result": "OUT_OF_ENERGY" }),
                    logs: Vec::new(),
                    failure: Some(ooe_message.into()),
                    ..nile_success_info()
                },
            );
        });
        let (url, _) = start(&node).await;
        let client = client(&url);

        let info = client
            .get_transaction_info(&reverted)
            .await
            .unwrap()
            .unwrap();
        assert!(!info.succeeded());
        assert_eq!(info.res_message.as_deref(), Some("REVERT opcode executed"));
        assert_eq!(
            info.failure_reason().as_deref(),
            Some(java_tron::TRANSFER_REVERT),
            "{visible:?}"
        );

        let info = client
            .get_transaction_info(&out_of_energy)
            .await
            .unwrap()
            .unwrap();
        assert!(!info.succeeded());
        assert_eq!(info.receipt.result.as_deref(), Some("OUT_OF_ENERGY"));
        assert_eq!(
            info.failure_reason().as_deref(),
            Some(ooe_message),
            "{visible:?}"
        );
    }
}

// ---------------------------------------------------------------------------------------------
// 9–10. Retries, timeouts, transport failures, bodies that are not java-tron's
// ---------------------------------------------------------------------------------------------

/// A getnowblock that answers 503 (as a gateway in front of a busy node does) `failures` times.
fn flaky_head(failures: usize) -> Router {
    let calls = Arc::new(AtomicUsize::new(0));
    Router::new().route(
        "/wallet/getnowblock",
        post(move || {
            let calls = calls.clone();
            async move {
                if calls.fetch_add(1, Ordering::SeqCst) < failures {
                    (
                        StatusCode::SERVICE_UNAVAILABLE,
                        "<html><body><h1>503 Service Temporarily Unavailable</h1></body></html>",
                    )
                        .into_response()
                } else {
                    java_tron::java(fixtures::nile_block(true, Vec::new()))
                }
            }
        }),
    )
}

#[tokio::test]
async fn reads_are_retried_through_503s() {
    let (url, journal) = support::serve_journaled(flaky_head(2)).await;
    let block = client(&url).get_now_block().await.unwrap();
    assert_eq!(block.number(), fixtures::NILE_BLOCK_NUMBER);
    assert_eq!(journal.count(), 3);
}

#[tokio::test]
async fn reads_are_retried_when_java_tron_lacks_computing_resources() {
    // java-tron's own rate limiter (v4.8.2+, non-blocking mode) answers HTTP 200 with an Error.
    let calls = Arc::new(AtomicUsize::new(0));
    let router = Router::new().route(
        "/wallet/getaccount",
        post(move || {
            let calls = calls.clone();
            async move {
                if calls.fetch_add(1, Ordering::SeqCst) == 0 {
                    java_tron::java_error(
                        "java.lang.IllegalAccessException",
                        "lack of computing resources",
                    )
                } else {
                    java_tron::java(json!({}))
                }
            }
        }),
    );
    let (url, journal) = support::serve_journaled(router).await;
    let account = client(&url)
        .get_account(&fixtures::nile_owner())
        .await
        .unwrap();
    assert!(account.is_none());
    assert_eq!(journal.count(), 2);
}

#[tokio::test]
async fn reads_give_up_after_the_configured_retries() {
    let (url, journal) = support::serve_journaled(flaky_head(2)).await;
    let mut config = config(&url);
    config.retries = 1;
    let err = NodeClient::new(config)
        .unwrap()
        .get_now_block()
        .await
        .unwrap_err();
    let NodeError::Http { status, .. } = &err else {
        panic!("expected Http, got {err:?}");
    };
    assert_eq!(*status, 503);
    assert!(err.is_unavailable());
    assert_eq!(journal.count(), 2);
}

#[tokio::test]
async fn broadcasts_are_never_retried() {
    let (_, tx) = signed_transfer();

    // A 503 could come after the node took the transaction: send once, report the failure.
    let router = Router::new()
        .route(
            "/wallet/broadcasttransaction",
            fixed(StatusCode::SERVICE_UNAVAILABLE, "busy"),
        )
        .route(
            "/wallet/broadcasthex",
            fixed(StatusCode::SERVICE_UNAVAILABLE, "busy"),
        );
    let (url, journal) = support::serve_journaled(router).await;
    let client = client(&url);
    let err = client.broadcast_transaction(&tx).await.unwrap_err();
    assert!(
        matches!(err, NodeError::Http { status: 503, .. }),
        "{err:?}"
    );
    assert_eq!(journal.count(), 1);
    let err = client.broadcast_hex(&tx).await.unwrap_err();
    assert!(
        matches!(err, NodeError::Http { status: 503, .. }),
        "{err:?}"
    );
    assert_eq!(journal.count(), 2);

    // Nor after a lost answer.
    let (url, journal) =
        support::serve_journaled(Router::new().route("/wallet/broadcasttransaction", never()))
            .await;
    let mut config = config(&url);
    config.timeout = Duration::from_millis(150);
    let err = NodeClient::new(config)
        .unwrap()
        .broadcast_transaction(&tx)
        .await
        .unwrap_err();
    assert!(matches!(err, NodeError::Timeout { .. }), "{err:?}");
    assert_eq!(journal.count(), 1);
}

#[tokio::test]
async fn a_node_that_does_not_answer_times_out() {
    let (url, journal) =
        support::serve_journaled(Router::new().route("/wallet/getnowblock", never())).await;
    let mut config = config(&url);
    config.timeout = Duration::from_millis(150);
    config.retries = 1;
    let started = std::time::Instant::now();
    let err = NodeClient::new(config)
        .unwrap()
        .get_now_block()
        .await
        .unwrap_err();
    let NodeError::Timeout { endpoint, .. } = &err else {
        panic!("expected Timeout, got {err:?}");
    };
    assert_eq!(endpoint, "wallet/getnowblock");
    assert!(err.is_unavailable() && err.is_transient());
    assert_eq!(journal.count(), 2);
    assert!(started.elapsed() < Duration::from_secs(3));
}

#[tokio::test]
async fn a_closed_port_is_unreachable() {
    let err = client(&support::closed_port_url())
        .get_now_block()
        .await
        .unwrap_err();
    assert!(matches!(err, NodeError::Unreachable { .. }), "{err:?}");
    assert!(err.is_unavailable());
}

#[tokio::test]
async fn a_body_that_is_not_json_is_a_decode_error() {
    let router = Router::new().route(
        "/wallet/getnowblock",
        fixed(
            StatusCode::OK,
            "<html><body>Welcome to nginx!</body></html>",
        ),
    );
    let (url, journal) = support::serve_journaled(router).await;
    let err = client(&url).get_now_block().await.unwrap_err();
    assert!(
        matches!(&err, NodeError::Decode { endpoint, .. } if endpoint == "wallet/getnowblock"),
        "{err:?}"
    );
    assert_eq!(journal.count(), 1);
}

#[tokio::test]
async fn an_answer_past_the_size_cap_is_refused_with_or_without_a_declared_length() {
    // 2 MB of JSON-looking bytes, once with a Content-Length and once streamed in chunks
    // without one: either way the client stops at its cap instead of buffering it all.
    let big = || format!("{{\"blockID\":\"{}\"}}", "0".repeat(2_000_000));
    let router = Router::new()
        .route(
            "/wallet/getnowblock",
            post(move || async move { big().into_response() }),
        )
        .route(
            "/wallet/getblock",
            post(move || async move {
                let chunks = (0..2_000).map(|_| Ok::<_, std::io::Error>(vec![b'0'; 1_000]));
                axum::body::Body::from_stream(futures_util::stream::iter(chunks)).into_response()
            }),
        );
    let (url, _) = support::serve_journaled(router).await;
    let mut capped = config(&url);
    capped.max_response_bytes = 1_000_000;
    let client = NodeClient::new(capped).unwrap();
    for err in [
        client.get_now_block().await.unwrap_err(),
        client.get_block(1, false).await.unwrap_err(),
    ] {
        assert!(
            matches!(&err, NodeError::Decode { reason, .. } if reason.contains("larger than 1000000 bytes")),
            "{err:?}"
        );
        assert_eq!(err.outcome(), "bad_answer");
    }
    // Under the cap, the same client reads a whole answer.
    let router = Router::new().route(
        "/wallet/getnowblock",
        fixed(
            StatusCode::OK,
            r#"{"Error":"class java.lang.NullPointerException : null"}"#,
        ),
    );
    let (url, _) = support::serve_journaled(router).await;
    let mut capped = config(&url);
    capped.max_response_bytes = 1_000;
    let err = NodeClient::new(capped)
        .unwrap()
        .get_now_block()
        .await
        .unwrap_err();
    assert!(matches!(err, NodeError::Node { .. }), "{err:?}");
}

#[tokio::test]
async fn trongrid_rate_limiting_is_an_http_error_after_the_retries() {
    let router = Router::new().route(
        "/wallet/getaccount",
        fixed(
            StatusCode::TOO_MANY_REQUESTS,
            r#"{"Error":"request rate exceeded the allowed_rps(15), and the query server is suspended for 1s"}"#,
        ),
    );
    let (url, journal) = support::serve_journaled(router).await;
    let err = client(&url)
        .get_account(&fixtures::nile_owner())
        .await
        .unwrap_err();
    let NodeError::Http { status, body, .. } = &err else {
        panic!("expected Http, got {err:?}");
    };
    assert_eq!(*status, 429);
    assert!(body.contains("allowed_rps"), "{body}");
    // NodeConfig::new's 3 retries.
    assert_eq!(journal.count(), 4);
}

// ---------------------------------------------------------------------------------------------
// 11. API key
// ---------------------------------------------------------------------------------------------

#[tokio::test]
async fn the_api_key_header_is_sent_only_when_configured() {
    let node = Node::new();
    let (url, journal) = start(&node).await;

    let mut with_key = config(&url);
    with_key.api_key = Some("k".into());
    NodeClient::new(with_key)
        .unwrap()
        .get_now_block()
        .await
        .unwrap();
    client(&url).get_now_block().await.unwrap();

    let seen = journal.seen();
    assert_eq!(seen[0].header("TRON-PRO-API-KEY").as_deref(), Some("k"));
    assert_eq!(seen[1].header("TRON-PRO-API-KEY"), None);
}

// ---------------------------------------------------------------------------------------------
// 12. TronGrid events
// ---------------------------------------------------------------------------------------------

#[tokio::test]
async fn contract_events_sends_the_query_and_parses_the_page() {
    let contract = fixtures::usdt();
    let router = trongrid::router(move |_| trongrid::Page {
        events: vec![
            fixtures::transfer_event(&contract, 1, false),
            fixtures::transfer_event(&contract, 2, true),
        ],
        next: Some("fp-2".into()),
    });
    let (url, journal) = support::serve_journaled(router).await;
    let mut config = config(&url);
    config.api_key = Some("k".into());
    let client = NodeClient::new(config).unwrap();

    let query = EventQuery {
        event_name: Some("Transfer".into()),
        limit: Some(500),
        ascending: true,
        min_block_timestamp: Some(1777437000000),
        max_block_timestamp: None,
        only_confirmed: false,
    };
    let page = client
        .contract_events(&contract, &query, Some("fp-1"))
        .await
        .unwrap();

    assert_eq!(page.fingerprint.as_deref(), Some("fp-2"));
    assert_eq!(page.events.len(), 2);
    let first = &page.events[0];
    assert_eq!(first.block_number, 66985121);
    assert_eq!(first.block_timestamp, 1777437765000);
    assert_eq!(first.contract_address, Some(contract));
    assert_eq!(first.event_index, 1);
    assert_eq!(first.event_name, "Transfer");
    assert_eq!(first.transaction_id, fixtures::event_txid(1));
    assert_eq!(first.result["value"], "1000000");
    assert_eq!(first.result["2"], "1000000");
    assert_eq!(
        first.result["from"],
        format!("0x{}", &fixtures::nile_owner().to_hex()[2..])
    );
    assert_eq!(first.result_type["value"], "uint256");
    assert!(!first.unconfirmed);
    assert!(page.events[1].unconfirmed);

    let seen = journal.single();
    assert_eq!(seen.method, axum::http::Method::GET);
    assert_eq!(
        seen.path,
        format!("/v1/contracts/{}/events", contract.to_base58())
    );
    assert_eq!(seen.query_param("event_name").as_deref(), Some("Transfer"));
    assert_eq!(
        seen.query_param("limit").as_deref(),
        Some("200"),
        "capped at 200"
    );
    assert_eq!(
        seen.query_param("order_by").as_deref(),
        Some("block_timestamp,asc")
    );
    assert_eq!(
        seen.query_param("min_block_timestamp").as_deref(),
        Some("1777437000000")
    );
    assert_eq!(seen.query_param("fingerprint").as_deref(), Some("fp-1"));
    assert_eq!(seen.query_param("only_confirmed"), None);
    assert_eq!(seen.header("TRON-PRO-API-KEY").as_deref(), Some("k"));

    // The defaults: newest first, 200 a page, no name filter.
    client
        .contract_events(&contract, &EventQuery::default(), None)
        .await
        .unwrap();
    let seen = journal.seen().pop().unwrap();
    assert_eq!(
        seen.query_param("order_by").as_deref(),
        Some("block_timestamp,desc")
    );
    assert_eq!(seen.query_param("limit").as_deref(), Some("200"));
    assert_eq!(seen.query_param("event_name"), None);
    assert_eq!(seen.query_param("fingerprint"), None);
}

#[tokio::test]
async fn all_contract_events_follows_fingerprints_to_the_last_page() {
    let contract = fixtures::usdt();
    let router = trongrid::router(move |fingerprint| {
        let event = |n| fixtures::transfer_event(&contract, n, n == 4);
        match fingerprint {
            None => trongrid::Page {
                events: vec![event(1), event(2)],
                next: Some("fp-a".into()),
            },
            Some("fp-a") => trongrid::Page {
                events: vec![event(3)],
                next: Some("fp-b".into()),
            },
            Some("fp-b") => trongrid::Page {
                events: vec![event(4)],
                next: None,
            },
            Some(other) => panic!("unknown fingerprint {other}"),
        }
    });
    let (url, journal) = support::serve_journaled(router).await;
    let query = EventQuery {
        event_name: Some("Transfer".into()),
        ascending: true,
        ..EventQuery::default()
    };

    let events = client(&url)
        .all_contract_events(&contract, &query, 10)
        .await
        .unwrap();

    let ids: Vec<TxId> = events.iter().map(|e| e.transaction_id).collect();
    let expected: Vec<TxId> = (1..=4).map(fixtures::event_txid).collect();
    assert_eq!(ids, expected);
    assert!(events[3].unconfirmed);
    let seen = journal.seen();
    let fingerprints: Vec<Option<String>> =
        seen.iter().map(|s| s.query_param("fingerprint")).collect();
    assert_eq!(
        fingerprints,
        vec![None, Some("fp-a".into()), Some("fp-b".into())]
    );
    // Apart from the fingerprint, every page is asked with the same query.
    let without_fingerprint = |s: &support::Seen| -> Vec<(String, String)> {
        s.query_pairs()
            .into_iter()
            .filter(|(k, _)| k != "fingerprint")
            .collect()
    };
    assert!(
        seen.iter()
            .all(|s| without_fingerprint(s) == without_fingerprint(&seen[0]))
    );
}

#[tokio::test]
async fn all_contract_events_refuses_a_repeated_fingerprint() {
    let contract = fixtures::usdt();
    let router = trongrid::router(move |fingerprint| trongrid::Page {
        events: vec![fixtures::transfer_event(
            &contract,
            if fingerprint.is_none() { 1 } else { 2 },
            false,
        )],
        next: Some("same".into()),
    });
    let (url, journal) = support::serve_journaled(router).await;
    let outcome = tokio::time::timeout(
        Duration::from_secs(5),
        client(&url).all_contract_events(&contract, &EventQuery::default(), 1000),
    )
    .await
    .expect("all_contract_events must not loop");
    // A server that ignores fingerprints would hand out the same events again.
    assert!(
        matches!(&outcome, Err(NodeError::Decode { reason, .. }) if reason.contains("same fingerprint")),
        "{outcome:?}"
    );
    // The first page and the one the repeated fingerprint named; not a third.
    assert_eq!(journal.count(), 2);
}

#[tokio::test]
async fn all_contract_events_gives_up_after_max_pages() {
    let contract = fixtures::usdt();
    let pages = Arc::new(AtomicUsize::new(0));
    let router = trongrid::router(move |_| {
        let n = pages.fetch_add(1, Ordering::SeqCst);
        trongrid::Page {
            events: vec![fixtures::transfer_event(&contract, 1, false)],
            next: Some(format!("fp-{n}")),
        }
    });
    let (url, journal) = support::serve_journaled(router).await;
    let err = client(&url)
        .all_contract_events(&contract, &EventQuery::default(), 5)
        .await
        .unwrap_err();
    assert!(matches!(err, NodeError::Decode { .. }), "{err:?}");
    assert_eq!(journal.count(), 5);
}

#[tokio::test]
async fn events_answer_without_success_is_an_error() {
    let router = Router::new().route(
        "/v1/contracts/{address}/events",
        get(|| async {
            axum::Json(
                json!({ "success": false, "error": "Invalid contract address", "statusCode": 400 }),
            )
        }),
    );
    let (url, _) = support::serve_journaled(router).await;
    let err = client(&url)
        .contract_events(&fixtures::usdt(), &EventQuery::default(), None)
        .await
        .unwrap_err();
    assert!(
        matches!(&err, NodeError::Node { message, .. } if message == "Invalid contract address"),
        "{err:?}"
    );
}

#[tokio::test]
async fn events_go_to_the_events_url_when_one_is_set() {
    let contract = fixtures::usdt();
    let (node_url, node_journal) = start(&Node::new()).await;
    let (events_url, events_journal) =
        support::serve_journaled(trongrid::router(move |_| trongrid::Page {
            events: vec![fixtures::transfer_event(&contract, 1, false)],
            next: None,
        }))
        .await;
    let mut config = config(&node_url);
    config.events_url = Some(events_url);
    let page = NodeClient::new(config)
        .unwrap()
        .contract_events(&contract, &EventQuery::default(), None)
        .await
        .unwrap();
    assert_eq!(page.events.len(), 1);
    assert_eq!(page.fingerprint, None);
    assert_eq!(events_journal.count(), 1);
    assert_eq!(node_journal.count(), 0);
}

// ---------------------------------------------------------------------------------------------
// 13. A node behind a path prefix
// ---------------------------------------------------------------------------------------------

#[tokio::test]
async fn a_path_prefix_in_the_node_url_is_kept() {
    let node = Node::new().configure(|s| {
        s.accounts.insert(fixtures::nile_owner(), 1);
    });
    let (root, journal) =
        support::serve_journaled(Router::new().nest("/tron", node.router())).await;

    for prefix in ["tron", "tron/"] {
        let client = client(&root.join(prefix).unwrap());
        let block = client.get_now_block().await.unwrap();
        assert_eq!(block.number(), fixtures::NILE_BLOCK_NUMBER);
        let account = client.get_account(&fixtures::nile_owner()).await.unwrap();
        assert_eq!(account.unwrap().balance, 1);
    }
    let paths: Vec<String> = journal
        .seen()
        .iter()
        .map(|s| format!("{}?{}", s.path, s.query))
        .collect();
    assert_eq!(
        paths,
        vec![
            "/tron/wallet/getnowblock?visible=true",
            "/tron/wallet/getaccount?",
            "/tron/wallet/getnowblock?visible=true",
            "/tron/wallet/getaccount?",
        ]
    );
}
