//! What the web page needs from the deployment besides the API: which network it is (so the
//! page can refuse a wallet on another), the verifying key the page must find in the proving
//! key before it proves, and the proving key itself.

use std::sync::Arc;

use serde::Serialize;
use tokio::sync::OnceCell;

use crate::error::{Error, Result};
use crate::service::chain::Chain;
use crate::service::guidance;

/// The deployment as the page sees it (`GET /web/deployment.json`).
#[derive(Debug, Clone, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct PageDeployment {
    pub network: String,
    /// The node's block 0: a wallet whose node has another block 0 is on another network,
    /// whatever it calls itself.
    pub genesis_block_id: String,
    pub usdt: String,
    /// SHA-256 of the withdraw verifier's key, as the deployment pins it. The page checks the
    /// proving key it is sent against it before proving.
    pub verifying_key_sha256: String,
    /// The withdrawal circuit's proving key, `GET /web/withdraw.key` (arkworks, uncompressed).
    pub proving_key_bytes: usize,
    pub proving_key_sha256: String,
    /// The thresholds of the warnings a withdrawal gets (`service::guidance`), so the page
    /// warns where the CLI does.
    pub guidance: GuidanceThresholds,
}

#[derive(Debug, Clone, Copy, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct GuidanceThresholds {
    pub min_later_deposits: u32,
    pub min_seconds_since_deposit: i64,
}

/// What the page asks for, read once: block 0 and the keys do not change while `serve` runs.
#[derive(Default)]
pub struct PageAssets {
    deployment: OnceCell<PageDeployment>,
    proving_key: OnceCell<Arc<Vec<u8>>>,
}

impl PageAssets {
    /// The proving key of the verifier the deployment pins, in the form the browser's module
    /// loads (`Keys::proving_key_bytes`).
    pub async fn proving_key(&self, chain: &Chain) -> Result<Arc<Vec<u8>>> {
        self.proving_key
            .get_or_try_init(|| async {
                let keys = chain.verifying_keys()?;
                // Serializing 2–3 MB of points takes a few milliseconds: off the async worker.
                let bytes = tokio::task::spawn_blocking(move || keys.proving_key_bytes())
                    .await
                    .map_err(|e| Error::task("serializing the proving key", e))?;
                Ok(Arc::new(bytes))
            })
            .await
            .cloned()
    }

    pub async fn deployment(&self, chain: &Chain) -> Result<PageDeployment> {
        self.deployment
            .get_or_try_init(|| async {
                let genesis = chain
                    .node
                    .get_block(0, false)
                    .await
                    .map_err(Error::Node)?
                    .ok_or_else(|| Error::Failed("the node has no block 0".into()))?;
                let key = self.proving_key(chain).await?;
                Ok(PageDeployment {
                    network: chain.network.clone(),
                    genesis_block_id: hex::encode(genesis.block_id),
                    usdt: chain.deployment.usdt.to_string(),
                    verifying_key_sha256: chain.deployment.verifying_key_sha256.clone(),
                    proving_key_bytes: key.len(),
                    proving_key_sha256: hex::encode(<sha2::Sha256 as sha2::Digest>::digest(
                        key.as_slice(),
                    )),
                    guidance: GuidanceThresholds {
                        min_later_deposits: guidance::MIN_LATER_DEPOSITS,
                        min_seconds_since_deposit: guidance::MIN_SECONDS_SINCE_DEPOSIT,
                    },
                })
            })
            .await
            .cloned()
    }
}
