//! Sending a transaction the user signed and following it into a block: what the CLI does
//! after a builder has checked and simulated the call.

use std::time::Duration;

use tron::client::TransactionInfo;
use tron::{NodeClient, NodeError, Transaction, TxId};

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

/// What a node's answer to a broadcast means for the transaction: the one reading of
/// java-tron's `response_code`s (api.proto `Return.response_code`; Wallet.java
/// `broadcastTransaction`) that every sender here uses.
#[derive(Debug)]
pub enum Broadcast {
    /// The node holds it: accepted now, or already (`DUP_TRANSACTION_ERROR`: it is in the
    /// node's pending pool or in a block — sending the same bytes again is how a resumed
    /// sender learns that).
    Accepted,
    /// Turned away for a passing reason (`SERVER_BUSY`, no peers, the node behind): the same
    /// bytes may be sent again until they expire.
    Retry(String),
    /// Refused for good (bad signature, expired, validation failed, no TRX).
    Refused(String),
    /// No answer (unreachable, timed out): maybe sent, maybe not.
    Unknown(NodeError),
}

/// The codes that say "try again": the node is busy or not in sync, not that the
/// transaction is wrong.
const RETRY_CODES: &[&str] = &[
    "SERVER_BUSY",
    "NO_CONNECTION",
    "NOT_ENOUGH_EFFECTIVE_CONNECTION",
    "BLOCK_UNSOLIDIFIED",
];

/// Sends signed `tx` to `node` and reads the answer: the one place a transaction leaves this
/// machine, for the journal (what we sign) and for `tx broadcast` (what a user hands us).
pub async fn broadcast(node: &NodeClient, tx: &Transaction) -> Broadcast {
    Broadcast::classify(node.broadcast_hex(tx).await)
}

impl Broadcast {
    /// The answer as a sender that tries once sees it: the txid when the node holds the
    /// transaction (now or already), else an error of the answer's kind (a busy or refusing
    /// node is the chain saying no, exit 4; no answer is the node unavailable, exit 3).
    pub fn sent(self, txid: TxId) -> Result<TxId> {
        match self {
            Broadcast::Accepted => Ok(txid),
            Broadcast::Retry(reason) | Broadcast::Refused(reason) => Err(Error::Refused(reason)),
            Broadcast::Unknown(e) => Err(Error::Node(e)),
        }
    }

    pub(crate) fn classify(result: Result<TxId, NodeError>) -> Self {
        match result {
            Ok(_) => Broadcast::Accepted,
            Err(NodeError::Refused { code, message, .. }) => {
                let reason = format!("the node refused it: {code}: {message}");
                if code == "DUP_TRANSACTION_ERROR" {
                    Broadcast::Accepted
                } else if RETRY_CODES.contains(&code.as_str()) {
                    Broadcast::Retry(reason)
                } else {
                    Broadcast::Refused(reason)
                }
            }
            Err(e) if e.is_transient() => Broadcast::Unknown(e),
            // Any other answer (a 4xx, a body we cannot read) came from the node and did
            // not take the transaction.
            Err(e) => Broadcast::Refused(format!("the node refused it: {e}")),
        }
    }
}

/// Broadcasts a signed transaction ([`broadcast`]). The node's refusal is the chain saying no
/// (exit 4).
pub async fn send(chain: &Chain, tx: &Transaction) -> Result<TxId> {
    broadcast(&chain.node, tx).await.sent(tx.txid())
}

/// See [`wait_for_receipt`].
pub(crate) async fn wait_for(chain: &Chain, txid: &TxId, expiration: i64) -> Result<Outcome> {
    wait_for_receipt(&chain.node, txid, expiration).await
}

pub(crate) async fn send_and_confirm(
    chain: &Chain,
    tx: &Transaction,
    what: &str,
) -> Result<TransactionInfo> {
    let txid = send(chain, tx).await?;
    wait_for(chain, &txid, tx.expiration())
        .await?
        .settle(what, &txid)
}

/// Waits for a transaction's receipt until it is included, or the head block passes its
/// expiration (after which it can never be included).
pub(crate) async fn wait_for_receipt(
    node: &NodeClient,
    txid: &TxId,
    expiration: i64,
) -> Result<Outcome> {
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

#[cfg(test)]
mod tests {
    use super::*;

    fn refused(code: &str) -> Result<TxId, NodeError> {
        Err(NodeError::Refused {
            endpoint: "wallet/broadcasthex".into(),
            code: code.into(),
            message: "m".into(),
        })
    }

    #[test]
    fn broadcast_answers_are_read_one_way() {
        assert!(matches!(
            Broadcast::classify(Ok(TxId([0; 32]))),
            Broadcast::Accepted
        ));
        assert!(matches!(
            Broadcast::classify(refused("DUP_TRANSACTION_ERROR")),
            Broadcast::Accepted
        ));
        for code in RETRY_CODES {
            assert!(matches!(
                Broadcast::classify(refused(code)),
                Broadcast::Retry(_)
            ));
        }
        for code in [
            "SIGERROR",
            "TAPOS_ERROR",
            "TRANSACTION_EXPIRATION_ERROR",
            "OTHER_ERROR",
        ] {
            assert!(
                matches!(Broadcast::classify(refused(code)), Broadcast::Refused(r) if r.contains(code))
            );
        }
        let timeout = Err(NodeError::Timeout {
            url: "u".into(),
            endpoint: "e".into(),
            after_ms: 1,
        });
        assert!(matches!(
            Broadcast::classify(timeout),
            Broadcast::Unknown(_)
        ));
    }
}
