//! Another tronpool server, spoken to through its REST API: the `{ok, data}` envelope and
//! the error kinds this crate's own server answers with. A relayer (`relayer_client`) and a
//! sync source (`sync`) are both reached through it.

use std::time::Duration;

use serde::Deserialize;
use serde::de::DeserializeOwned;
use serde_json::Value;
use url::Url;

use crate::error::{Error, Kind, Result};

pub(crate) struct ServerClient {
    http: reqwest::Client,
    base: Url,
    /// What the server is to us, for messages: "relayer", "sync server".
    role: &'static str,
}

impl ServerClient {
    /// A server at `base`, reached through `proxy` when one is configured.
    pub fn new(
        base: Url,
        role: &'static str,
        timeout: Duration,
        proxy: Option<&Url>,
    ) -> Result<Self> {
        let http =
            tron::client::http_client(tron::client::HttpOptions::new(timeout, proxy.cloned()))
                .map_err(|e| {
                    Error::usage(format!("cannot make an HTTP client for the {role}: {e}"))
                })?;
        Ok(ServerClient { http, base, role })
    }

    pub fn url(&self) -> &Url {
        &self.base
    }

    /// One exchange: the envelope's `data`, or the error the server named (its kind, else
    /// the one its HTTP status stands for). Nothing answering is [`Error::Unavailable`].
    pub async fn call(
        &self,
        method: reqwest::Method,
        path: &str,
        body: Option<Value>,
    ) -> Result<Value> {
        self.call_as(method, path, body).await
    }

    /// [`call`](Self::call), reading `data` straight into `T` (a page of a million leaves is
    /// not parsed twice); `data` that is not a `T` is the server's fault.
    pub async fn call_as<T: DeserializeOwned>(
        &self,
        method: reqwest::Method,
        path: &str,
        body: Option<Value>,
    ) -> Result<T> {
        let role = self.role;
        let url = self
            .base
            .join(path)
            .map_err(|e| Error::usage(format!("{role} URL {}: {e}", self.base)))?;
        let mut request = self.http.request(method, url);
        if let Some(body) = body {
            request = request.json(&body);
        }
        let response = request.send().await.map_err(|e| {
            Error::Unavailable(format!(
                "cannot reach the {role} at {}: {}",
                self.base,
                cause(&e)
            ))
        })?;
        let status = response.status().as_u16();
        let text = response.text().await.map_err(|e| {
            Error::Unavailable(format!(
                "the {role} at {} stopped answering: {}",
                self.base,
                cause(&e)
            ))
        })?;
        /// The envelope, `data` read as `T` only when `ok`.
        #[derive(Deserialize)]
        struct Success<T> {
            ok: bool,
            data: Option<T>,
        }
        if let Ok(Success {
            ok: true,
            data: Some(data),
        }) = serde_json::from_str::<Success<T>>(&text)
        {
            return Ok(data);
        }
        let envelope: Value = serde_json::from_str(&text).map_err(|_| {
            Error::Failed(format!(
                "the {role} at {} answered HTTP {status} without the JSON envelope (is it a \
                 tronpool server?)",
                self.base
            ))
        })?;
        if envelope.get("ok").and_then(Value::as_bool) == Some(true) {
            let data = envelope.get("data").cloned().unwrap_or(Value::Null);
            return serde_json::from_value(data).map_err(|e| {
                Error::Refused(format!(
                    "the {role} at {} sent an answer that does not read: {e}",
                    self.base
                ))
            });
        }
        let message = envelope
            .get("error")
            .and_then(Value::as_str)
            .unwrap_or("no reason given");
        let kind = envelope
            .get("kind")
            .and_then(Value::as_str)
            .and_then(Kind::from_name)
            .unwrap_or_else(|| Kind::from_http_status(status));
        Err(Error::of_kind(kind, format!("the {role} said: {message}")))
    }
}

/// reqwest's own message says only "error sending request"; the innermost cause says why.
fn cause(e: &reqwest::Error) -> String {
    let mut last = e.to_string();
    let mut source = std::error::Error::source(e);
    while let Some(s) = source {
        last = s.to_string();
        source = s.source();
    }
    last
}
