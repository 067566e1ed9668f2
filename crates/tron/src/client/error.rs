//! Everything that can go wrong talking to a node, typed so the service can tell "try again
//! later" from "the chain said no".

/// A failed call to a FullNode or to TronGrid.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum NodeError {
    /// Nothing answered: refused connection, DNS failure, TLS failure.
    #[error("cannot reach the TRON node at {url}: {reason}")]
    Unreachable { url: String, reason: String },
    /// The node took longer than the configured timeout.
    #[error("the TRON node at {url} did not answer {endpoint} within {}", duration(*after_ms))]
    Timeout {
        url: String,
        endpoint: String,
        after_ms: u64,
    },
    /// A non-success HTTP status (java-tron itself answers 200 even for errors, so this is a
    /// proxy, a gateway or TronGrid's rate limiter).
    #[error("the TRON node answered HTTP {status} to {endpoint}: {body}")]
    Http {
        endpoint: String,
        status: u16,
        body: String,
    },
    /// java-tron's generic `{"Error": "<exception> : <message>"}`.
    #[error("the TRON node failed {endpoint}: {message}")]
    Node { endpoint: String, message: String },
    /// A `Return` with a code: the node refused a transaction or a call.
    #[error("the TRON node refused {endpoint}: {code}: {message}")]
    Refused {
        endpoint: String,
        code: String,
        message: String,
    },
    /// The answer is not what java-tron would send.
    #[error("unexpected answer from {endpoint}: {reason}")]
    Decode { endpoint: String, reason: String },
    /// The node built something other than what was asked for.
    #[error("the TRON node built a transaction that differs from the request: {0}")]
    Mismatch(String),
    /// The node has no such block, account, contract or transaction.
    #[error("{0} not found on the node")]
    NotFound(String),
}

impl NodeError {
    /// Worth trying again: the node may answer next time.
    pub fn is_transient(&self) -> bool {
        match self {
            NodeError::Unreachable { .. } | NodeError::Timeout { .. } => true,
            NodeError::Http { status, .. } => *status == 429 || *status >= 500,
            NodeError::Node { message, .. } => {
                message.contains("lack of computing resources") || message.contains("Server busy")
            }
            NodeError::Refused { code, .. } => code == "SERVER_BUSY",
            _ => false,
        }
    }

    /// A short fixed name for the kind of failure, for metrics' labels.
    pub fn outcome(&self) -> &'static str {
        match self {
            NodeError::Unreachable { .. } => "unreachable",
            NodeError::Timeout { .. } => "timeout",
            NodeError::Http { status, .. } if *status >= 500 => "http_5xx",
            NodeError::Http { .. } => "http_4xx",
            NodeError::Node { .. } => "node_error",
            NodeError::Refused { .. } => "refused",
            NodeError::Decode { .. } => "bad_answer",
            NodeError::Mismatch(_) => "mismatch",
            NodeError::NotFound(_) => "not_found",
        }
    }

    /// The node could not be reached or did not answer in time.
    pub fn is_unavailable(&self) -> bool {
        matches!(
            self,
            NodeError::Unreachable { .. } | NodeError::Timeout { .. }
        ) || matches!(self, NodeError::Http { status, .. } if *status >= 500)
    }
}

fn duration(ms: u64) -> String {
    if ms.is_multiple_of(1000) {
        format!("{} s", ms / 1000)
    } else {
        format!("{ms} ms")
    }
}
