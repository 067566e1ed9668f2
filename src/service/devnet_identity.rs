//! Whether a node is a tronpool devnet, decided by what the node holds rather than by what a
//! configuration calls it. Only there may the published development keys (whose proofs
//! anyone can forge) guard a pool, and only there are rehearsal ceremony keys accepted.
//!
//! Every tronpool devnet has the same block 0 (`devnet::genesis::genesis_block_id`: sealed
//! by the devnet's witness at a fixed time), and its `/devnet/info` names it. A node counts
//! as a devnet when both agree with that id; no TRON network's genesis block has it, so a
//! configuration that calls a mainnet or Nile node "devnet" is found out.

use tron::NodeClient;
use tron::client::NodeError;

use crate::error::{Error, Result};

/// `true` when `node`'s block 0 and its `/devnet/info` both carry a tronpool devnet's genesis
/// block id; `false` for any other node that answers. Errors only when the node cannot be
/// asked at all.
pub(crate) async fn is_tronpool_devnet(node: &NodeClient) -> Result<bool> {
    let expected = devnet::genesis::genesis_block_id();
    let genesis = node.get_block(0, false).await.map_err(Error::Node)?;
    if genesis.is_none_or(|block| block.block_id != expected) {
        return Ok(false);
    }
    let info = match node.get_json("devnet/info").await {
        Ok(info) => info,
        Err(NodeError::NotFound(_)) => return Ok(false),
        Err(e) => return Err(Error::Node(e)),
    };
    Ok(info["genesisBlockId"].as_str() == Some(hex::encode(expected).as_str()))
}
