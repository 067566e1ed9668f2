//! Sending a transaction the user signed and following it into a block: what the CLI does
//! after a builder has checked and simulated the call.

use std::time::Duration;

use tron::client::TransactionInfo;
use tron::{NodeClient, Transaction, TxId};

use crate::error::{Error, Result};
use crate::service::chain::Chain;

/// How often to ask for a receipt: TRON makes a block every 3 s.
const RECEIPT_POLL: Duration = Duration::from_millis(300);

/// What happened to a transaction we sent.
#[derive(Debug)]
pub enum Outcome {
    /// In a block; it may still have reverted (see [`TransactionInfo::succeeded`]).
    Included(Box<TransactionInfo>),
    /// Past its expiration and in no block: it will never execute.
    Expired,
}

impl Outcome {
    /// The receipt of a transaction that succeeded; a revert or an expiry is a refusal
    /// saying which (`"{what} {txid} failed on chain: …"`).
    pub fn settle(self, what: &str, txid: &TxId) -> Result<TransactionInfo> {
        match self {
            Outcome::Included(info) if info.succeeded() => Ok(*info),
            Outcome::Included(info) => Err(Error::Refused(format!(
                "{what} {txid} failed on chain: {}",
                info.failure_reason()
                    .unwrap_or_else(|| "no reason given".into())
            ))),
            Outcome::Expired => Err(Error::Refused(format!(
                "{what} {txid} expired before it was included in a block"
            ))),
        }
    }
}

impl Chain {
    /// Broadcasts a signed transaction. The node's refusal is the chain saying no (exit 4).
    pub async fn send(&self, tx: &Transaction) -> Result<TxId> {
        Ok(self.node.broadcast_hex(tx).await?)
    }

    /// See [`wait_for`].
    pub async fn wait_for(&self, txid: &TxId, expiration: i64) -> Result<Outcome> {
        wait_for(&self.node, txid, expiration).await
    }

    pub async fn send_and_confirm(&self, tx: &Transaction, what: &str) -> Result<TransactionInfo> {
        let txid = self.send(tx).await?;
        self.wait_for(&txid, tx.expiration())
            .await?
            .settle(what, &txid)
    }
}

/// Waits for a transaction's receipt until it is included, or the head block passes its
/// expiration (after which it can never be included).
pub async fn wait_for(node: &NodeClient, txid: &TxId, expiration: i64) -> Result<Outcome> {
    loop {
        if let Some(info) = node.get_transaction_info(txid).await? {
            return Ok(Outcome::Included(Box::new(info)));
        }
        let head = node.get_now_block().await?;
        if head.timestamp() > expiration {
            // One last look: it may have landed in the block that passed the deadline.
            return Ok(match node.get_transaction_info(txid).await? {
                Some(info) => Outcome::Included(Box::new(info)),
                None => Outcome::Expired,
            });
        }
        tokio::time::sleep(RECEIPT_POLL).await;
    }
}
