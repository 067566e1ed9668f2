//! A remote relayer, spoken to through its REST API (`/api/relayer/*`), read with the same
//! envelope and statuses this crate's own server answers with.

use std::time::Duration;

use serde::de::DeserializeOwned;
use serde_json::Value;
use tron::TxId;
use url::Url;

use crate::error::{Error, Result};
use crate::service::server_client::ServerClient;
use crate::service::wire::NextBatch;
use crate::service::wire::{RelayBody, RelayRequest, Relayed, RelayerStatus};
use crate::store::jobs::Job;

/// Proving takes a fraction of a second, but a relayer checks, simulates and broadcasts.
const TIMEOUT: Duration = Duration::from_secs(60);

pub(crate) struct RelayerClient {
    server: ServerClient,
}

impl RelayerClient {
    /// A relayer at `base`, reached through `proxy` when one is configured.
    pub fn new(base: Url, proxy: Option<&Url>) -> Result<Self> {
        Ok(RelayerClient {
            server: ServerClient::new(base, "relayer", TIMEOUT, proxy)?,
        })
    }

    pub fn url(&self) -> &Url {
        self.server.url()
    }

    async fn call(
        &self,
        method: reqwest::Method,
        path: &str,
        body: Option<Value>,
    ) -> Result<Value> {
        self.server.call(method, path, body).await
    }

    pub async fn status(&self) -> Result<RelayerStatus> {
        let data = self
            .call(reqwest::Method::GET, "api/relayer/status", None)
            .await?;
        self.read(data, "status")
    }

    /// Each queued pool's next batch as the relayer's batcher sees it (`GET /api/pools`),
    /// by denomination; pools it shows none for are left out.
    pub async fn next_batches(&self) -> Result<std::collections::BTreeMap<u64, NextBatch>> {
        #[derive(serde::Deserialize)]
        #[serde(rename_all = "camelCase")]
        struct Listed {
            denomination: u64,
            next_batch: Option<NextBatch>,
        }
        #[derive(serde::Deserialize)]
        struct Listing {
            pools: Vec<Listed>,
        }
        let data = self.call(reqwest::Method::GET, "api/pools", None).await?;
        let listing: Listing = self.read(data, "pool listing")?;
        Ok(listing
            .pools
            .into_iter()
            .filter_map(|p| Some((p.denomination, p.next_batch?)))
            .collect())
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
            Error::json(
                format!("the relayer at {} sent an unreadable {what}", self.url()),
                e,
            )
        })
    }

    /// Submits a withdrawal; answers with the relayer's txid and how far it got.
    pub async fn withdraw(&self, request: &RelayRequest) -> Result<Relayed> {
        let body = serde_json::to_value(RelayBody::from(request))
            .map_err(|e| Error::json("the relay request", e))?;
        let data = self
            .call(reqwest::Method::POST, "api/relayer/withdraw", Some(body))
            .await?;
        self.read(data, "answer")
    }
}
