//! A remote relayer, spoken to through its REST API (`/api/relayer/*`), read with the same
//! envelope and statuses this crate's own server answers with.

use std::time::Duration;

use serde::de::DeserializeOwned;
use serde_json::Value;
use tron::TxId;
use url::Url;

use crate::error::{Error, Kind, Result};
use crate::service::relayer::{RelayBody, RelayRequest, Relayed, RelayerStatus};
use crate::store::jobs::Job;

/// Proving takes a fraction of a second, but a relayer checks, simulates and broadcasts.
const TIMEOUT: Duration = Duration::from_secs(60);

pub struct RelayerClient {
    http: reqwest::Client,
    base: Url,
}

impl RelayerClient {
    pub fn new(base: Url) -> Result<Self> {
        tron::client::install_crypto_provider();
        let http = reqwest::Client::builder()
            .timeout(TIMEOUT)
            .build()
            .map_err(|e| Error::Failed(format!("cannot make an HTTP client: {e}")))?;
        Ok(RelayerClient { http, base })
    }

    pub fn url(&self) -> &Url {
        &self.base
    }

    pub async fn status(&self) -> Result<RelayerStatus> {
        let data = self
            .call(reqwest::Method::GET, "api/relayer/status", None)
            .await?;
        self.read(data, "status")
    }

    /// A job the relayer took, by its txid.
    pub async fn job(&self, txid: &TxId) -> Result<Job> {
        let data = self
            .call(
                reqwest::Method::GET,
                &format!("api/relayer/jobs/{}", txid.to_hex()),
                None,
            )
            .await?;
        self.read(data, "job")
    }

    fn read<T: DeserializeOwned>(&self, data: Value, what: &str) -> Result<T> {
        serde_json::from_value(data).map_err(|e| {
            Error::Failed(format!(
                "the relayer at {} sent an unreadable {what}: {e}",
                self.base
            ))
        })
    }

    /// Submits a withdrawal; answers with the relayer's txid and how far it got.
    pub async fn withdraw(&self, request: &RelayRequest) -> Result<Relayed> {
        let body = serde_json::to_value(RelayBody::from(request))
            .map_err(|e| Error::Failed(format!("the relay request: {e}")))?;
        let data = self
            .call(reqwest::Method::POST, "api/relayer/withdraw", Some(body))
            .await?;
        self.read(data, "answer")
    }

    async fn call(
        &self,
        method: reqwest::Method,
        path: &str,
        body: Option<Value>,
    ) -> Result<Value> {
        let url = self
            .base
            .join(path)
            .map_err(|e| Error::usage(format!("relayer URL {}: {e}", self.base)))?;
        let mut request = self.http.request(method, url);
        if let Some(body) = body {
            request = request.json(&body);
        }
        let response = request.send().await.map_err(|e| {
            Error::Unavailable(format!("cannot reach the relayer at {}: {e}", self.base))
        })?;
        let status = response.status().as_u16();
        let text = response.text().await.map_err(|e| {
            Error::Unavailable(format!(
                "the relayer at {} stopped answering: {e}",
                self.base
            ))
        })?;
        let envelope: Value = serde_json::from_str(&text).map_err(|_| {
            Error::Failed(format!(
                "the relayer at {} answered HTTP {status} without the JSON envelope (is it a \
                 tronpool server?)",
                self.base
            ))
        })?;
        if envelope.get("ok").and_then(Value::as_bool) == Some(true) {
            return Ok(envelope.get("data").cloned().unwrap_or(Value::Null));
        }
        let message = envelope
            .get("error")
            .and_then(Value::as_str)
            .unwrap_or("no reason given");
        // The kind the relayer named, else the one its status stands for.
        let kind = envelope
            .get("kind")
            .and_then(Value::as_str)
            .and_then(Kind::from_name)
            .unwrap_or_else(|| Kind::from_http_status(status));
        Err(Error::of_kind(kind, format!("the relayer said: {message}")))
    }
}
