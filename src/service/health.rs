//! Whether the server can do its job: is the node there, and how far along is the chain;
//! and, for an orchestrator, whether it is ready for traffic (every [`Check`]).

use std::time::Duration;

use serde::Serialize;

use crate::service::balances;
use crate::service::chain::Chain;
use crate::service::relayer::Relayer;
use crate::units::format_trx;

/// A head block older than this means the node has stopped following the chain (TRON makes
/// a block every 3 s: this is twenty missed blocks).
pub(crate) const MAX_HEAD_AGE: Duration = Duration::from_secs(60);

/// One readiness check: its name, whether it passed, and why not (or what it saw).
#[derive(Debug, Clone, Serialize, utoipa::ToSchema)]
pub struct Check {
    #[schema(schema_with = check_name)]
    pub name: &'static str,
    pub ok: bool,
    pub detail: String,
}

/// The readiness checks there are, as [`readiness`] names them.
const CHECK_NAMES: [&str; 4] = ["node", "database", "relayer_watcher", "relayer_balance"];

fn check_name() -> utoipa::openapi::schema::ObjectBuilder {
    utoipa::openapi::schema::ObjectBuilder::new()
        .schema_type(utoipa::openapi::schema::Type::String)
        .enum_values(Some(CHECK_NAMES))
}

fn health_status() -> utoipa::openapi::schema::ObjectBuilder {
    utoipa::openapi::schema::ObjectBuilder::new()
        .schema_type(utoipa::openapi::schema::Type::String)
        .enum_values(Some(["ok", "unavailable"]))
        .description(Some(
            "`ok`, or `unavailable` when the node cannot be reached",
        ))
}

impl Check {
    fn new(name: &'static str, ok: bool, detail: impl Into<String>) -> Self {
        debug_assert!(CHECK_NAMES.contains(&name), "{name} is not in CHECK_NAMES");
        Check {
            name,
            ok,
            detail: detail.into(),
        }
    }
}

/// `GET /readyz`: ready when every check passed.
#[derive(Debug, Clone, Serialize, utoipa::ToSchema)]
pub struct Readiness {
    pub ready: bool,
    pub checks: Vec<Check>,
}

/// `GET /api/health`.
#[derive(Debug, Clone, Serialize, utoipa::ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct Health {
    /// `ok`, or `unavailable` when the node cannot be reached.
    #[schema(schema_with = health_status)]
    pub status: &'static str,
    #[schema(value_type = String)]
    pub version: &'static str,
    pub network: String,
    pub node: NodeHealth,
}

#[derive(Debug, Clone, Serialize, utoipa::ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct NodeHealth {
    pub reachable: bool,
    pub block_number: Option<i64>,
    pub latency_ms: Option<u64>,
    /// Why the node is not reachable.
    #[serde(skip_serializing_if = "Option::is_none")]
    #[schema(nullable = false)]
    pub error: Option<String>,
}

/// `GET /api/health`'s data: the node's health and the readiness checks, in one object.
#[derive(Debug, Clone, Serialize, utoipa::ToSchema)]
pub struct HealthReport<'a> {
    #[serde(flatten)]
    pub health: Health,
    #[serde(flatten)]
    pub readiness: &'a Readiness,
}

impl Health {
    pub fn is_ok(&self) -> bool {
        self.node.reachable
    }
}

/// The node's head block (kept for a second, so health checks cannot load the node).
pub async fn health(chain: &Chain) -> Health {
    let node = match chain.head().await {
        Ok(head) => NodeHealth {
            reachable: true,
            block_number: Some(head.block.number()),
            latency_ms: Some(head.latency.as_millis() as u64),
            error: None,
        },
        // The node's URL may carry a provider's token: the report names no URL.
        Err(e) => NodeHealth {
            reachable: false,
            block_number: None,
            latency_ms: None,
            error: Some(e.public_message()),
        },
    };
    Health {
        status: if node.reachable { "ok" } else { "unavailable" },
        version: env!("CARGO_PKG_VERSION"),
        network: chain.network.clone(),
        node,
    }
}

/// Every readiness check: the node reachable with a fresh head block, and with a relayer,
/// its database writable, its watcher alive, and its balance above the minimum it relays
/// with. Without a relayer those three pass, saying relaying is off.
pub async fn readiness(chain: &Chain, relayer: Option<&Relayer>) -> Readiness {
    let node = match chain.head().await {
        Ok(head) => {
            let age_ms = tron::transaction::now_ms() - head.block.timestamp();
            let age = Duration::from_millis(age_ms.max(0) as u64);
            let number = head.block.number();
            if age <= MAX_HEAD_AGE {
                Check::new(
                    "node",
                    true,
                    format!("head block {number}, {} s old", age.as_secs()),
                )
            } else {
                Check::new(
                    "node",
                    false,
                    format!(
                        "head block {number} is {} s old (more than {} s): the node is not \
                         following the chain",
                        age.as_secs(),
                        MAX_HEAD_AGE.as_secs()
                    ),
                )
            }
        }
        Err(e) => Check::new("node", false, e.public_message()),
    };
    let mut checks = vec![node];
    match relayer {
        None => {
            for name in ["database", "relayer_watcher", "relayer_balance"] {
                checks.push(Check::new(name, true, "not used: relaying is off"));
            }
        }
        Some(relayer) => {
            checks.push(match relayer.jobs().check_writable() {
                Ok(()) => Check::new("database", true, "writable"),
                Err(e) => {
                    tracing::warn!(error = %e, "readiness: the database");
                    Check::new("database", false, "the relayer's database is not writable")
                }
            });
            checks.push(if relayer.watcher_alive() {
                Check::new("relayer_watcher", true, "alive")
            } else {
                Check::new(
                    "relayer_watcher",
                    false,
                    "the relayer's watcher has not looked at its jobs lately",
                )
            });
            let min = relayer.min_balance();
            let balance = balances::trx_balance(chain, relayer.address()).await;
            if let Ok(balance) = &balance {
                // For `GET /metrics` (a no-op without `serve`'s recorder).
                metrics::gauge!("tronpool_relayer_balance_trx").set(*balance as f64 / 1e6);
            }
            checks.push(match balance {
                Ok(balance) if balance >= min => Check::new(
                    "relayer_balance",
                    true,
                    format!("{} (at least {})", format_trx(balance), format_trx(min)),
                ),
                Ok(balance) => Check::new(
                    "relayer_balance",
                    false,
                    format!(
                        "{}, below the {} the relayer needs (--relayer-min-trx)",
                        format_trx(balance),
                        format_trx(min)
                    ),
                ),
                Err(e) => Check::new("relayer_balance", false, e.public_message()),
            });
        }
    }
    Readiness {
        ready: checks.iter().all(|c| c.ok),
        checks,
    }
}
