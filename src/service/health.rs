//! Whether the server can do its job: is the node there, and how far along is the chain.

use serde::Serialize;

use crate::service::chain::Chain;

/// `GET /api/health`.
#[derive(Debug, Clone, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct Health {
    /// `ok`, or `unavailable` when the node cannot be reached.
    pub status: &'static str,
    pub version: &'static str,
    pub network: String,
    pub node: NodeHealth,
}

#[derive(Debug, Clone, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct NodeHealth {
    pub reachable: bool,
    pub block_number: Option<i64>,
    pub latency_ms: Option<u64>,
    /// Why the node is not reachable.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub error: Option<String>,
}

impl Health {
    pub fn is_ok(&self) -> bool {
        self.node.reachable
    }
}

impl Chain {
    /// The node's head block (kept for a second, so health checks cannot load the node).
    pub async fn health(&self) -> Health {
        let node = match self.head().await {
            Ok(head) => NodeHealth {
                reachable: true,
                block_number: Some(head.block.number()),
                latency_ms: Some(head.latency.as_millis() as u64),
                error: None,
            },
            Err(e) => NodeHealth {
                reachable: false,
                block_number: None,
                latency_ms: None,
                error: Some(e.to_string()),
            },
        };
        Health {
            status: if node.reachable { "ok" } else { "unavailable" },
            version: env!("CARGO_PKG_VERSION"),
            network: self.network.clone(),
            node,
        }
    }
}
