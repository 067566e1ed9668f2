//! Opening a network: from what the configuration says about it to a [`Chain`] whose
//! deployment was found, whose node was proved a devnet where the development keys need one,
//! and whose recorded contracts passed the code check. Above the chain, so the chain itself
//! needs nothing of the checks that open it.

use std::path::PathBuf;
use std::time::Duration;

use contracts::Deployment;
use tron::{Address, NodeClient, NodeError};
use url::Url;

use crate::error::{Error, Result};
use crate::service::chain::Chain;
use crate::service::code_check;
use crate::service::{ceremony, devnet_identity};
use crate::settings::{Settings, SyncSource};
use crate::store::config::DeploymentRecord;

/// What the configuration says about a network: enough to find its deployment and keys.
#[derive(Debug, Clone, Default)]
pub struct NetworkSpec {
    pub name: String,
    pub deployment: Option<DeploymentRecord>,
    /// Where imported ceremony keys are (see [`crate::settings::Settings::keys_dir`]).
    pub keys_dir: Option<PathBuf>,
    /// The config file a deployment would be recorded in, for messages.
    pub config_file: Option<PathBuf>,
    /// The network's USDT as the configuration (or the preset) knows it; a recorded
    /// deployment on another USDT is refused.
    pub usdt: Option<Address>,
    /// Wrapped TRX as the configuration (or the preset) knows it: the token a `pair:` price
    /// source must hold beside the USDT.
    pub wtrx: Option<Address>,
    /// Where the records whose contracts passed [`code_check`] are remembered; `None`:
    /// checked at every start.
    pub verified_dir: Option<PathBuf>,
    /// Where pools are synced from, in order; empty: [`SyncSource::defaults`].
    pub sync_from: Vec<SyncSource>,
    /// The proxy a sync server is reached through (the node client has its own).
    pub proxy: Option<Url>,
}

impl NetworkSpec {
    /// A network known by name only: the devnet finds its own deployment.
    pub fn named(name: &str) -> Self {
        NetworkSpec {
            name: name.to_owned(),
            ..NetworkSpec::default()
        }
    }

    pub(crate) fn from_settings(settings: &Settings) -> Self {
        NetworkSpec {
            name: settings.network.value.clone(),
            deployment: settings.deployment.value.clone(),
            keys_dir: Some(settings.keys_dir()),
            config_file: Some(settings.config_file.value.clone()),
            usdt: settings.usdt.value,
            wtrx: settings.wtrx.value,
            verified_dir: Some(settings.verified_dir()),
            sync_from: settings.sync_from.value.clone(),
            proxy: settings.proxy.value.clone(),
        }
    }

    /// What to do about a network without a deployment.
    fn missing_deployment(&self) -> String {
        let name = &self.name;
        let file = self
            .config_file
            .as_ref()
            .map_or("the config file".to_owned(), |p| p.display().to_string());
        format!(
            "no tronpool deployment is recorded for {name}: its pools, verifier and \
             verifying key are unknown. To use an operator's pools, copy the \
             [networks.{name}.deployment] table they publish into {file} and import their \
             keys with `tronpool ceremony import FILE.zkey`; to deploy your own, run \
             `tronpool --network {name} deploy --zkey FILE.zkey` (docs/ceremony.md)"
        )
    }
}

/// Connects to the devnet at `node`, or to `network` as [`NetworkSpec::named`] says.
pub async fn chain_named(network: &str, node: NodeClient, ttl: Duration) -> Result<Chain> {
    chain_for(&NetworkSpec::named(network), node, ttl).await
}

/// Finds the deployment: the one recorded in the configuration, or on a devnet the one it
/// announces at `GET /devnet/deployment`; then builds the chain once, proves a devnet where
/// the keys need one, and code-checks a recorded deployment.
pub async fn chain_for(spec: &NetworkSpec, node: NodeClient, ttl: Duration) -> Result<Chain> {
    let network = spec.name.as_str();
    if spec.deployment.is_none() && network != crate::network::DEFAULT_NETWORK {
        return Err(Error::usage(spec.missing_deployment()));
    }
    // A recorded deployment's keys are in the configured folder; a devnet's are its own.
    let (deployment, keys_dir) = match &spec.deployment {
        None => (announced_deployment(&node).await?, None),
        Some(record) => {
            let mut deployment = record.to_deployment(network).map_err(|missing| {
                Error::usage(format!(
                    "the tronpool deployment on {network} is incomplete: {missing} not \
                     deployed yet; `tronpool --network {network} deploy` finishes it"
                ))
            })?;
            deployment.wtrx = spec.wtrx;
            (deployment, spec.keys_dir.clone())
        }
    };
    let chain = Chain::new(network.to_owned(), node, deployment, ttl)
        .with_sync_sources(spec.sync_from.clone(), spec.proxy.clone())
        .with_keys_dir(keys_dir);
    let chain = prove_devnet(chain).await?;
    if spec.deployment.is_some() {
        code_check::verify_recorded(&chain, spec.usdt, spec.verified_dir.as_deref()).await?;
    }
    Ok(chain)
}

/// Asks the node whether it is a tronpool devnet when, and only when, the deployment pins
/// a development key (of either circuit) or a ceremony key kept here unverified, and refuses
/// the deployment when a development key is pinned off a devnet: nowhere else may they guard
/// a pool, since anyone can forge their proofs (a forged withdrawal empties the pool, a
/// forged batch inserts any leaf), so a deposit into it is refused too, not only a
/// withdrawal.
///
/// A network whose keys are all verified ceremony keys costs no extra call. Rehearsal keys,
/// or keys imported before keys were verified, may be used only on a devnet
/// (`ceremony::check_usable`).
async fn prove_devnet(mut chain: Chain) -> Result<Chain> {
    let keys_dir = chain.keys_dir.as_deref();
    let pinned = chain.pinned_keys();
    let dev = pinned
        .iter()
        .any(|(circuit, vk)| *vk == circuit.insecure_dev_vk_sha256());
    let unverified = pinned.iter().any(|(circuit, vk)| {
        *vk != circuit.insecure_dev_vk_sha256() && !ceremony::verified(keys_dir, vk)
    });
    if dev || unverified {
        chain.devnet = devnet_identity::is_tronpool_devnet(&chain.node).await?;
    }
    if dev && !chain.devnet {
        return Err(chain.insecure_dev_key());
    }
    Ok(chain)
}

/// The deployment a devnet announces at `GET /devnet/deployment`.
async fn announced_deployment(node: &NodeClient) -> Result<Deployment> {
    let value = node
        .get_json("devnet/deployment")
        .await
        .map_err(|e| match e {
            NodeError::NotFound(_) => Error::usage(format!(
                "the node at {} is not a tronpool devnet (it has no /devnet/deployment); \
                 start one with `tronpool devnet`",
                node.url()
            )),
            e if e.is_unavailable() => Error::Node(e),
            other => Error::Failed(format!("reading the devnet's deployment: {other}")),
        })?;
    serde_json::from_value(value).map_err(|e| Error::json("the devnet's deployment record", e))
}

/// Connects to the configured network's node and reads its deployment. On the devnet, an
/// unreachable node gets a hint on how to start one.
pub async fn connect(settings: &Settings) -> Result<Chain> {
    let spec = NetworkSpec::from_settings(settings);
    let node = settings.node_client()?;
    let network = &settings.network.value;
    // The CLI reads each value once per run; nothing to cache.
    chain_for(&spec, node, Duration::ZERO)
        .await
        .map_err(|e| match e {
            Error::Node(n) if n.is_unavailable() && network == crate::network::DEFAULT_NETWORK => {
                Error::Unavailable(format!(
                    "{n}; start a devnet with `tronpool devnet` (or pass --node URL)"
                ))
            }
            other => other,
        })
}
