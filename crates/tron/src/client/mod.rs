//! An HTTP client for a java-tron FullNode and TronGrid's event API.
//!
//! Every call is a POST with a JSON body and `visible: true` (so addresses come back in base58
//! and messages as text), except the few endpoints java-tron reads `visible` from the query
//! string only. Reads are retried with backoff when the node is unreachable, slow or busy;
//! anything that can change state (broadcasts, builders) is sent once, because a retry after a
//! lost answer could broadcast twice.

mod error;
mod types;

use std::sync::Once;
use std::time::Duration;

use serde::de::DeserializeOwned;
use serde_json::{Value, json};
use url::Url;

use crate::address::Address;
use crate::transaction::{Action, Transaction, Trigger, TxId};

pub use error::NodeError;
pub use types::*;

/// The header TronGrid reads its API key from.
pub const API_KEY_HEADER: &str = "TRON-PRO-API-KEY";

/// How to reach a node.
#[derive(Clone)]
pub struct NodeConfig {
    /// FullNode HTTP base, e.g. `https://nile.trongrid.io` or `http://127.0.0.1:8090`.
    pub url: Url,
    /// Where `/v1/contracts/{address}/events` is served; the node URL when `None`.
    pub events_url: Option<Url>,
    /// Sent as `TRON-PRO-API-KEY`.
    pub api_key: Option<String>,
    /// For one whole request.
    pub timeout: Duration,
    pub connect_timeout: Duration,
    /// Extra attempts for idempotent reads.
    pub retries: u32,
    /// First backoff delay; doubled on every retry.
    pub backoff: Duration,
    /// The largest answer read: a node (or whatever answers at its URL) that sends more is
    /// cut off there with an error, so a hostile or broken endpoint cannot fill our memory.
    pub max_response_bytes: usize,
    /// Every request goes through this proxy (see [`http_client`]).
    pub proxy: Option<Url>,
}

/// The default [`NodeConfig::max_response_bytes`]: far above any answer we ask for (a page of
/// 200 events is about 100 KB; a busy mainnet block's transaction infos a few MB).
pub const DEFAULT_MAX_RESPONSE_BYTES: usize = 32 * 1024 * 1024;

impl NodeConfig {
    pub fn new(url: Url) -> Self {
        NodeConfig {
            url,
            events_url: None,
            api_key: None,
            timeout: Duration::from_secs(20),
            connect_timeout: Duration::from_secs(5),
            retries: 3,
            backoff: Duration::from_millis(250),
            max_response_bytes: DEFAULT_MAX_RESPONSE_BYTES,
            proxy: None,
        }
    }
}

impl std::fmt::Debug for NodeConfig {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("NodeConfig")
            .field("url", &self.url.as_str())
            .field("events_url", &self.events_url.as_ref().map(Url::as_str))
            .field("api_key", &self.api_key.as_ref().map(|_| "<set>"))
            .field("timeout", &self.timeout)
            .field("retries", &self.retries)
            .field("proxy", &self.proxy.as_ref().and_then(Url::host_str))
            .finish()
    }
}

/// Whether a call may be repeated when its answer is lost.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Idempotence {
    Read,
    Write,
}

/// A FullNode over HTTP.
#[derive(Clone, Debug)]
pub struct NodeClient {
    http: reqwest::Client,
    config: NodeConfig,
}

/// Installs the TLS crypto provider the HTTP clients need (ring), once per process; any
/// other client built with this crate's reqwest must call it first.
pub fn install_crypto_provider() {
    static ONCE: Once = Once::new();
    ONCE.call_once(|| {
        // Fails only when another provider is already installed, which is as good.
        let _ = rustls::crypto::ring::default_provider().install_default();
    });
}

/// How an HTTP client is made: [`http_client`].
#[derive(Debug, Clone)]
pub struct HttpOptions {
    /// For one whole request.
    pub timeout: Duration,
    pub connect_timeout: Duration,
    /// `socks5h://HOST:PORT` (names are resolved by the proxy) or `http(s)://HOST:PORT`
    /// (a CONNECT proxy); `None`: direct, ignoring any `HTTP_PROXY` in the environment.
    pub proxy: Option<Url>,
    /// Sent with every request.
    pub headers: reqwest::header::HeaderMap,
}

impl HttpOptions {
    pub fn new(timeout: Duration, proxy: Option<Url>) -> Self {
        HttpOptions {
            timeout,
            connect_timeout: Duration::from_secs(5),
            proxy,
            headers: reqwest::header::HeaderMap::new(),
        }
    }
}

/// Refuses a proxy that would leak something: `socks5://` and `socks4://` resolve host
/// names on this machine, so the DNS server would learn every host contacted.
pub fn check_proxy(proxy: &Url) -> Result<(), String> {
    // Never the whole URL in a message: it may carry a password.
    let host = proxy.host_str().unwrap_or("HOST");
    match proxy.scheme() {
        "socks5h" | "http" | "https" if proxy.host_str().is_some() => Ok(()),
        "socks5h" | "http" | "https" => Err("the proxy URL names no host".into()),
        "socks5" | "socks4" | "socks4a" => Err(format!(
            "the proxy {}://{host} resolves host names here, which tells the local DNS server \
             every host contacted; use socks5h://{host}",
            proxy.scheme()
        )),
        other => Err(format!(
            "the proxy's scheme `{other}` is not supported (socks5h://HOST:PORT, or an \
             http:// CONNECT proxy)"
        )),
    }
}

/// The one place every HTTP client of tronpool is built (the node's, a relayer's, a sync
/// server's): the user agent, the timeouts, and the proxy. With a proxy, every connection
/// goes through it, names included; without one, the environment's `HTTP_PROXY` and the
/// like are ignored, so what the configuration says is what happens.
pub fn http_client(options: HttpOptions) -> Result<reqwest::Client, String> {
    install_crypto_provider();
    let mut builder = reqwest::Client::builder()
        .user_agent(concat!("tronpool/", env!("CARGO_PKG_VERSION")))
        .default_headers(options.headers)
        .timeout(options.timeout)
        .connect_timeout(options.connect_timeout)
        .no_proxy();
    if let Some(proxy) = &options.proxy {
        check_proxy(proxy)?;
        let proxy = reqwest::Proxy::all(proxy.as_str()).map_err(|_| {
            format!(
                "the proxy at {} is not usable",
                proxy.host_str().unwrap_or("")
            )
        })?;
        builder = builder.proxy(proxy);
    }
    builder.build().map_err(|e| e.to_string())
}

impl NodeClient {
    pub fn new(config: NodeConfig) -> Result<Self, NodeError> {
        install_crypto_provider();
        let mut headers = reqwest::header::HeaderMap::new();
        if let Some(key) = &config.api_key {
            let mut value =
                reqwest::header::HeaderValue::from_str(key).map_err(|_| NodeError::Decode {
                    endpoint: "configuration".into(),
                    reason: "the API key contains characters a header cannot carry".into(),
                })?;
            value.set_sensitive(true);
            headers.insert(API_KEY_HEADER, value);
        }
        let http = http_client(HttpOptions {
            timeout: config.timeout,
            connect_timeout: config.connect_timeout,
            proxy: config.proxy.clone(),
            headers,
        })
        .map_err(|reason| NodeError::Unreachable {
            url: config.url.to_string(),
            reason: format!("cannot set up HTTP: {reason}"),
        })?;
        Ok(NodeClient { http, config })
    }

    pub fn config(&self) -> &NodeConfig {
        &self.config
    }

    pub fn url(&self) -> &Url {
        &self.config.url
    }

    fn endpoint_url(&self, base: &Url, path: &str) -> Result<Url, NodeError> {
        // Keep any path prefix of the base (a proxy at https://host/tron/ must stay there).
        let mut base = base.clone();
        if !base.path().ends_with('/') {
            base.set_path(&format!("{}/", base.path()));
        }
        base.join(path).map_err(|e| NodeError::Decode {
            endpoint: path.into(),
            reason: format!("cannot form the URL: {e}"),
        })
    }

    /// One HTTP exchange, retried for reads. Returns the JSON body after checking java-tron's
    /// generic `{"Error": …}` shape.
    async fn call(
        &self,
        method: reqwest::Method,
        url: Url,
        endpoint: &str,
        body: Option<&Value>,
        idempotence: Idempotence,
    ) -> Result<Value, NodeError> {
        let attempts = match idempotence {
            Idempotence::Read => self.config.retries + 1,
            Idempotence::Write => 1,
        };
        let mut delay = self.config.backoff;
        let mut attempt = 1;
        loop {
            let result = self
                .call_once(method.clone(), url.clone(), endpoint, body)
                .await;
            match result {
                Err(e) if attempt < attempts && e.is_transient() => {
                    tracing::debug!(endpoint, attempt, error = %e, "retrying node read");
                    tokio::time::sleep(delay).await;
                    delay = delay.saturating_mul(2);
                    attempt += 1;
                }
                other => return other,
            }
        }
    }

    async fn call_once(
        &self,
        method: reqwest::Method,
        url: Url,
        endpoint: &str,
        body: Option<&Value>,
    ) -> Result<Value, NodeError> {
        let started = std::time::Instant::now();
        let result = self.exchange(method, url, endpoint, body).await;
        let elapsed = started.elapsed();
        tracing::trace!(
            endpoint,
            ok = result.is_ok(),
            elapsed_ms = elapsed.as_millis() as u64,
            "node answered"
        );
        // Through the `metrics` facade: nothing unless the binary installed a recorder
        // (`serve` does, for `GET /metrics`). `endpoint` is a fixed template, never a raw
        // path, so the label's values are few.
        let outcome = match &result {
            Ok(_) => "ok",
            Err(e) => e.outcome(),
        };
        metrics::counter!(
            "tronpool_node_calls_total",
            "endpoint" => endpoint.to_owned(),
            "outcome" => outcome,
        )
        .increment(1);
        metrics::histogram!(
            "tronpool_node_call_duration_seconds",
            "endpoint" => endpoint.to_owned(),
        )
        .record(elapsed.as_secs_f64());
        result
    }

    async fn exchange(
        &self,
        method: reqwest::Method,
        url: Url,
        endpoint: &str,
        body: Option<&Value>,
    ) -> Result<Value, NodeError> {
        let mut request = self.http.request(method, url.clone());
        if let Some(body) = body {
            request = request.json(body);
        }
        let response = request
            .send()
            .await
            .map_err(|e| self.transport_error(endpoint, &e))?;
        let status = response.status();
        let text = self.read_capped(endpoint, response).await?;
        if !status.is_success() {
            return Err(NodeError::Http {
                endpoint: endpoint.into(),
                status: status.as_u16(),
                body: summarize(&text),
            });
        }
        let value: Value = serde_json::from_str(&text).map_err(|e| NodeError::Decode {
            endpoint: endpoint.into(),
            reason: format!("not JSON ({e}): {}", summarize(&text)),
        })?;
        if let Some(message) = value.get("Error").and_then(Value::as_str) {
            return Err(NodeError::Node {
                endpoint: endpoint.into(),
                message: clean_java_error(message),
            });
        }
        Ok(value)
    }

    /// The body, read chunk by chunk and refused once it passes
    /// [`NodeConfig::max_response_bytes`] (a declared length past it is refused unread).
    async fn read_capped(
        &self,
        endpoint: &str,
        mut response: reqwest::Response,
    ) -> Result<String, NodeError> {
        let limit = self.config.max_response_bytes;
        let too_large = || NodeError::Decode {
            endpoint: endpoint.into(),
            reason: format!("the answer is larger than {limit} bytes"),
        };
        if response
            .content_length()
            .is_some_and(|declared| declared > limit as u64)
        {
            return Err(too_large());
        }
        let mut bytes = Vec::new();
        while let Some(chunk) = response
            .chunk()
            .await
            .map_err(|e| self.transport_error(endpoint, &e))?
        {
            if bytes.len() + chunk.len() > limit {
                return Err(too_large());
            }
            bytes.extend_from_slice(&chunk);
        }
        Ok(String::from_utf8_lossy(&bytes).into_owned())
    }

    fn transport_error(&self, endpoint: &str, e: &reqwest::Error) -> NodeError {
        let url = self.config.url.to_string();
        if e.is_timeout() {
            NodeError::Timeout {
                url,
                endpoint: endpoint.into(),
                after_ms: self.config.timeout.as_millis() as u64,
            }
        } else {
            NodeError::Unreachable {
                url,
                reason: error_chain(e),
            }
        }
    }

    async fn wallet(
        &self,
        path: &str,
        body: Value,
        idempotence: Idempotence,
    ) -> Result<Value, NodeError> {
        let url = self.endpoint_url(&self.config.url, path)?;
        self.call(reqwest::Method::POST, url, path, Some(&body), idempotence)
            .await
    }

    fn decode<T: DeserializeOwned>(endpoint: &str, value: Value) -> Result<T, NodeError> {
        serde_json::from_value(value).map_err(|e| NodeError::Decode {
            endpoint: endpoint.into(),
            reason: e.to_string(),
        })
    }

    /// A read whose "not found" is java-tron's `{}`.
    async fn read_optional<T: DeserializeOwned>(
        &self,
        path: &str,
        body: Value,
    ) -> Result<Option<T>, NodeError> {
        let value = self.wallet(path, body, Idempotence::Read).await?;
        if is_empty(&value) {
            return Ok(None);
        }
        Self::decode(path, value).map(Some)
    }

    /// The head block.
    pub async fn get_now_block(&self) -> Result<Block, NodeError> {
        let path = "wallet/getnowblock";
        let mut url = self.endpoint_url(&self.config.url, path)?;
        url.set_query(Some("visible=true"));
        let value = self
            .call(reqwest::Method::POST, url, path, None, Idempotence::Read)
            .await?;
        if is_empty(&value) {
            return Err(NodeError::NotFound("the head block".into()));
        }
        Self::decode(path, value)
    }

    /// A block by number, or `None` past the head. `detail` includes its transactions.
    pub async fn get_block(&self, number: i64, detail: bool) -> Result<Option<Block>, NodeError> {
        let path = "wallet/getblock";
        let body = json!({ "id_or_num": number.to_string(), "detail": detail, "visible": true });
        self.read_optional(path, body).await
    }

    /// An account, or `None` for an address that was never activated.
    pub async fn get_account(&self, address: &Address) -> Result<Option<Account>, NodeError> {
        let path = "wallet/getaccount";
        let body = json!({ "address": address.to_base58(), "visible": true });
        self.read_optional(path, body).await
    }

    pub async fn get_account_resource(
        &self,
        address: &Address,
    ) -> Result<AccountResource, NodeError> {
        let path = "wallet/getaccountresource";
        let body = json!({ "address": address.to_base58(), "visible": true });
        let value = self.wallet(path, body, Idempotence::Read).await?;
        Self::decode(path, value)
    }

    pub async fn get_chain_parameters(&self) -> Result<ChainParameters, NodeError> {
        let path = "wallet/getchainparameters";
        let url = self.endpoint_url(&self.config.url, path)?;
        let value = self
            .call(reqwest::Method::POST, url, path, None, Idempotence::Read)
            .await?;
        Self::decode(path, value)
    }

    fn call_body(call: &Trigger) -> Value {
        let mut body = json!({
            "owner_address": call.owner.to_base58(),
            "contract_address": call.contract.to_base58(),
            "data": hex::encode(&call.data),
            "visible": true,
        });
        if call.call_value != 0 {
            body["call_value"] = call.call_value.into();
        }
        if call.call_token_value != 0 {
            body["call_token_value"] = call.call_token_value.into();
            body["token_id"] = call.token_id.into();
        }
        body
    }

    /// Runs a call against the head block without a transaction (a view, or a dry run of a
    /// state-changing call). A revert is not an error here: see [`ConstantCall::reverted`].
    pub async fn trigger_constant_contract(
        &self,
        call: &Trigger,
    ) -> Result<ConstantCall, NodeError> {
        self.constant_call(Self::call_body(call)).await
    }

    /// Runs `creation_code` (bytecode with its constructor arguments) as `owner` would deploy
    /// it, without a transaction: java-tron's `triggerconstantcontract` with no contract
    /// address. `energy_used` is what the deployment would cost now.
    pub async fn simulate_deployment(
        &self,
        owner: &Address,
        creation_code: &[u8],
    ) -> Result<ConstantCall, NodeError> {
        self.constant_call(json!({
            "owner_address": owner.to_base58(),
            "data": hex::encode(creation_code),
            "visible": true,
        }))
        .await
    }

    async fn constant_call(&self, body: Value) -> Result<ConstantCall, NodeError> {
        let path = "wallet/triggerconstantcontract";
        let value = self.wallet(path, body, Idempotence::Read).await?;
        #[derive(serde::Deserialize)]
        struct Wire {
            #[serde(default)]
            result: NodeReturn,
            #[serde(default)]
            energy_used: i64,
            #[serde(default)]
            energy_penalty: i64,
            #[serde(default)]
            constant_result: Vec<String>,
            #[serde(default)]
            logs: Vec<Log>,
            #[serde(default)]
            transaction: Option<Value>,
            #[serde(default)]
            devnet_cpu_time_us: Option<i64>,
        }
        let wire: Wire = Self::decode(path, value)?;
        if let Some(code) = wire.result.code.clone() {
            return Err(NodeError::Refused {
                endpoint: path.into(),
                code,
                message: wire.result.message.unwrap_or_default(),
            });
        }
        let failed = wire
            .transaction
            .as_ref()
            .and_then(|t| t.pointer("/ret/0/ret"))
            .and_then(Value::as_str)
            == Some("FAILED");
        let output = match wire.constant_result.first() {
            Some(hex_out) => hex::decode(hex_out).map_err(|e| NodeError::Decode {
                endpoint: path.into(),
                reason: format!("constant_result is not hex: {e}"),
            })?,
            None => Vec::new(),
        };
        Ok(ConstantCall {
            output,
            energy_used: wire.energy_used,
            energy_penalty: wire.energy_penalty,
            reverted: failed || wire.result.message.is_some(),
            message: wire.result.message,
            logs: wire.logs,
            devnet_cpu_time_us: wire.devnet_cpu_time_us,
        })
    }

    /// Energy the call would use (`estimateenergy`; not every node enables it).
    pub async fn estimate_energy(&self, call: &Trigger) -> Result<i64, NodeError> {
        let path = "wallet/estimateenergy";
        let value = self
            .wallet(path, Self::call_body(call), Idempotence::Read)
            .await?;
        #[derive(serde::Deserialize)]
        struct Wire {
            #[serde(default)]
            result: NodeReturn,
            #[serde(default)]
            energy_required: i64,
        }
        let wire: Wire = Self::decode(path, value)?;
        if let Some(code) = wire.result.code {
            return Err(NodeError::Refused {
                endpoint: path.into(),
                code,
                message: wire.result.message.unwrap_or_default(),
            });
        }
        Ok(wire.energy_required)
    }

    /// Has the node build a contract-call transaction. tronpool builds locally
    /// ([`crate::TransactionBuilder`]); this exists for comparison and for nodes' own checks.
    /// The answer is checked like TronWeb checks it: it must be the call that was asked for.
    pub async fn trigger_smart_contract(
        &self,
        call: &Trigger,
        fee_limit: i64,
    ) -> Result<Transaction, NodeError> {
        let path = "wallet/triggersmartcontract";
        let mut body = Self::call_body(call);
        body["fee_limit"] = fee_limit.into();
        let value = self.wallet(path, body, Idempotence::Write).await?;
        let status: NodeReturn = value
            .get("result")
            .cloned()
            .map(|r| Self::decode(path, r))
            .transpose()?
            .unwrap_or_default();
        if let Some(code) = status.code {
            return Err(NodeError::Refused {
                endpoint: path.into(),
                code,
                message: status.message.unwrap_or_default(),
            });
        }
        let tx_json = value.get("transaction").ok_or_else(|| NodeError::Decode {
            endpoint: path.into(),
            reason: "no transaction in the answer".into(),
        })?;
        let tx = Transaction::from_json(tx_json).map_err(|e| NodeError::Decode {
            endpoint: path.into(),
            reason: e.to_string(),
        })?;
        match tx.action() {
            Ok(Action::Trigger(built)) if built == *call && tx.fee_limit() == fee_limit => Ok(tx),
            Ok(other) => Err(NodeError::Mismatch(format!("{other:?}"))),
            Err(e) => Err(NodeError::Mismatch(e.to_string())),
        }
    }

    /// Submits a signed transaction as JSON. `Ok` means the node accepted it into its pending
    /// pool, not that it executed; follow it with [`NodeClient::get_transaction_info`].
    pub async fn broadcast_transaction(&self, tx: &Transaction) -> Result<TxId, NodeError> {
        let path = "wallet/broadcasttransaction";
        let value = self
            .wallet(path, tx.to_json(true), Idempotence::Write)
            .await?;
        Self::broadcast_outcome(path, value, tx)
    }

    /// Submits a signed transaction as protobuf bytes, so the node hashes exactly the bytes
    /// that were signed (no JSON re-encoding on its side).
    pub async fn broadcast_hex(&self, tx: &Transaction) -> Result<TxId, NodeError> {
        let path = "wallet/broadcasthex";
        let body = json!({ "transaction": hex::encode(tx.to_protobuf()) });
        let value = self.wallet(path, body, Idempotence::Write).await?;
        Self::broadcast_outcome(path, value, tx)
    }

    fn broadcast_outcome(path: &str, value: Value, tx: &Transaction) -> Result<TxId, NodeError> {
        let status: NodeReturn = Self::decode(path, value.clone())?;
        let ours = tx.txid();
        if status.result {
            if let Some(theirs) = value.get("txid").and_then(Value::as_str)
                && !theirs.eq_ignore_ascii_case(&ours.to_hex())
            {
                return Err(NodeError::Mismatch(format!(
                    "the node reports txid {theirs}, the transaction's is {ours}"
                )));
            }
            return Ok(ours);
        }
        Err(NodeError::Refused {
            endpoint: path.into(),
            code: status.code.unwrap_or_else(|| "UNKNOWN".into()),
            message: status.message.unwrap_or_default(),
        })
    }

    /// A transaction in a block, or `None` while it is pending or unknown.
    pub async fn get_transaction_by_id(
        &self,
        txid: &TxId,
    ) -> Result<Option<NodeTransaction>, NodeError> {
        let path = "wallet/gettransactionbyid";
        let body = json!({ "value": txid.to_hex(), "visible": true });
        let value = self.wallet(path, body, Idempotence::Read).await?;
        if is_empty(&value) {
            return Ok(None);
        }
        let contract_ret = value
            .pointer("/ret/0/contractRet")
            .and_then(Value::as_str)
            .map(str::to_owned);
        let transaction = Transaction::from_json(&value).map_err(|e| NodeError::Decode {
            endpoint: path.into(),
            reason: e.to_string(),
        })?;
        Ok(Some(NodeTransaction {
            transaction,
            contract_ret,
        }))
    }

    /// The execution record of a transaction, or `None` until it is in a block.
    pub async fn get_transaction_info(
        &self,
        txid: &TxId,
    ) -> Result<Option<TransactionInfo>, NodeError> {
        let path = "wallet/gettransactioninfobyid";
        let body = json!({ "value": txid.to_hex(), "visible": true });
        self.read_optional(path, body).await
    }

    /// The execution record of a transaction once its block is solidified (irreversible:
    /// confirmed by two thirds of the block producers), or `None` until then. Read from the
    /// node's `/walletsolidity/` API (java-tron's `HttpApiOnSolidityService`, served by
    /// TronGrid and by `tronpool devnet` on the same address as `/wallet/`). A node that
    /// does not serve it answers [`NodeError::Http`] 404.
    pub async fn get_solid_transaction_info(
        &self,
        txid: &TxId,
    ) -> Result<Option<TransactionInfo>, NodeError> {
        let path = "walletsolidity/gettransactioninfobyid";
        let body = json!({ "value": txid.to_hex(), "visible": true });
        self.read_optional(path, body).await
    }

    /// The execution records of every transaction in block `number`, in the block's order
    /// (`/wallet/gettransactioninfobyblocknum`): what a scan for events reads where no events
    /// API is served. An empty block, or a block not produced yet, is an empty list.
    pub async fn get_transaction_infos_by_block(
        &self,
        number: i64,
    ) -> Result<Vec<TransactionInfo>, NodeError> {
        let path = "wallet/gettransactioninfobyblocknum";
        let value = self
            .wallet(
                path,
                json!({ "num": number, "visible": true }),
                Idempotence::Read,
            )
            .await?;
        // java-tron answers `{}` for a number below 1.
        if is_empty(&value) {
            return Ok(Vec::new());
        }
        Self::decode(path, value)
    }

    /// A deployed contract, or `None` when there is no contract at the address.
    pub async fn get_contract(&self, address: &Address) -> Result<Option<ContractInfo>, NodeError> {
        let path = "wallet/getcontract";
        let body = json!({ "value": address.to_base58(), "visible": true });
        self.read_optional(path, body).await
    }

    /// A contract's runtime code, what its calls run (`getcontractinfo`'s `runtimecode`), or
    /// `None` when there is no contract at the address. [`NodeClient::get_contract`]'s
    /// `bytecode` is the creation code instead, constructor arguments included.
    pub async fn get_runtime_code(&self, address: &Address) -> Result<Option<Vec<u8>>, NodeError> {
        let path = "wallet/getcontractinfo";
        let body = json!({ "value": address.to_base58(), "visible": true });
        Ok(self
            .read_optional::<ContractRuntime>(path, body)
            .await?
            .map(|c| c.runtimecode))
    }

    /// A JSON document the node serves by GET beyond java-tron's API (the devnet's
    /// `devnet/deployment`, say), read with the client's timeouts and retries. A 404 is
    /// [`NodeError::NotFound`], so a caller can tell "not this kind of node" from "down".
    pub async fn get_json(&self, path: &str) -> Result<Value, NodeError> {
        let url = self.endpoint_url(&self.config.url, path)?;
        match self
            .call(reqwest::Method::GET, url, path, None, Idempotence::Read)
            .await
        {
            Err(NodeError::Http { status: 404, .. }) => Err(NodeError::NotFound(path.into())),
            other => other,
        }
    }

    /// One page of a contract's events from TronGrid's `/v1/contracts/{address}/events`.
    /// Pass the previous page's fingerprint to continue; keep the query identical.
    pub async fn contract_events(
        &self,
        contract: &Address,
        query: &EventQuery,
        fingerprint: Option<&str>,
    ) -> Result<EventPage, NodeError> {
        let base = self.config.events_url.as_ref().unwrap_or(&self.config.url);
        let path = format!("v1/contracts/{}/events", contract.to_base58());
        let mut url = self.endpoint_url(base, &path)?;
        {
            let mut q = url.query_pairs_mut();
            if let Some(name) = &query.event_name {
                q.append_pair("event_name", name);
            }
            q.append_pair("limit", &query.limit.unwrap_or(200).min(200).to_string());
            q.append_pair(
                "order_by",
                if query.ascending {
                    "block_timestamp,asc"
                } else {
                    "block_timestamp,desc"
                },
            );
            if let Some(t) = query.min_block_timestamp {
                q.append_pair("min_block_timestamp", &t.to_string());
            }
            if let Some(t) = query.max_block_timestamp {
                q.append_pair("max_block_timestamp", &t.to_string());
            }
            if query.only_confirmed {
                q.append_pair("only_confirmed", "true");
            }
            if let Some(f) = fingerprint {
                q.append_pair("fingerprint", f);
            }
        }
        let endpoint = "v1/contracts/{address}/events";
        let value = self
            .call(reqwest::Method::GET, url, endpoint, None, Idempotence::Read)
            .await?;
        #[derive(serde::Deserialize)]
        struct Meta {
            #[serde(default)]
            fingerprint: Option<String>,
        }
        #[derive(serde::Deserialize)]
        struct Wire {
            #[serde(default)]
            success: bool,
            #[serde(default)]
            error: Option<String>,
            #[serde(default)]
            data: Vec<Event>,
            #[serde(default)]
            meta: Option<Meta>,
        }
        let wire: Wire = Self::decode(endpoint, value)?;
        if !wire.success {
            return Err(NodeError::Node {
                endpoint: endpoint.into(),
                message: wire.error.unwrap_or_else(|| "success: false".into()),
            });
        }
        Ok(EventPage {
            events: wire.data,
            fingerprint: wire
                .meta
                .and_then(|m| m.fingerprint)
                .filter(|f| !f.is_empty()),
        })
    }

    /// Every event matching `query`, following fingerprints to the last page. Stops with an
    /// error after `max_pages` pages rather than looping on a misbehaving server.
    pub async fn all_contract_events(
        &self,
        contract: &Address,
        query: &EventQuery,
        max_pages: usize,
    ) -> Result<Vec<Event>, NodeError> {
        let mut events = Vec::new();
        let mut fingerprint: Option<String> = None;
        for _ in 0..max_pages {
            let page = self
                .contract_events(contract, query, fingerprint.as_deref())
                .await?;
            events.extend(page.events);
            match page.fingerprint {
                None => return Ok(events),
                Some(next) if fingerprint.as_ref() == Some(&next) => {
                    // Following it would return the same page again: duplicated events.
                    return Err(NodeError::Decode {
                        endpoint: "v1/contracts/{address}/events".into(),
                        reason: format!("the server returned the same fingerprint `{next}` twice"),
                    });
                }
                Some(next) => fingerprint = Some(next),
            }
        }
        Err(NodeError::Decode {
            endpoint: "v1/contracts/{address}/events".into(),
            reason: format!("still paging after {max_pages} pages"),
        })
    }
}

fn is_empty(value: &Value) -> bool {
    value.as_object().is_some_and(|o| o.is_empty())
}

/// `class org.tron.core.exception.ContractValidateException : msg` → `msg`.
fn clean_java_error(message: &str) -> String {
    let message = message.trim();
    match message.split_once(" : ") {
        Some((class, rest)) if class.starts_with("class ") => rest.trim().to_owned(),
        _ => message.to_owned(),
    }
}

/// The first line of a body, bounded, for error messages.
fn summarize(text: &str) -> String {
    let line = text.lines().next().unwrap_or("").trim();
    let mut out: String = line.chars().take(200).collect();
    if line.chars().count() > 200 {
        out.push('…');
    }
    if out.is_empty() {
        "(empty body)".into()
    } else {
        out
    }
}

/// reqwest's own message says only "error sending request"; the cause says why.
fn error_chain(e: &reqwest::Error) -> String {
    use std::error::Error;
    let mut parts = Vec::new();
    let mut source: Option<&dyn Error> = e.source();
    while let Some(s) = source {
        let text = s.to_string();
        if !parts.contains(&text) {
            parts.push(text);
        }
        source = s.source();
    }
    match parts.last() {
        Some(root) => root.clone(),
        None => e.to_string(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn java_errors_lose_their_class_name() {
        assert_eq!(
            clean_java_error(
                "class org.tron.core.exception.ContractValidateException : Validate TransferContract error, balance is not sufficient."
            ),
            "Validate TransferContract error, balance is not sufficient."
        );
        assert_eq!(clean_java_error("plain"), "plain");
    }
}
