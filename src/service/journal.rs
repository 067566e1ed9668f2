//! The submit journal: the one way a transaction we signed is sent and followed — a note's
//! deposit, a relayed withdrawal, a contract of `tronpool deploy`.
//!
//! 1. [`Journal::record`]: the signed bytes, txid, expiration and what they are for are
//!    written (and synced) in state `signed` **before** anything is broadcast, so a crash
//!    after recording never loses what was signed.
//! 2. [`Journal::broadcast`]: the recorded bytes are sent and the node's answer is read one
//!    way ([`Broadcast::classify`]): accepted or a duplicate → `broadcast`; busy → tried again
//!    after a backoff; refused → `failed` (unless a node took it before: then only its receipt
//!    or expiry decides); no answer → unchanged, for the next look.
//! 3. [`Journal::check`] is one look: a receipt moves it to `included` (or `confirmed` once
//!    solidified, or `failed` if it reverted, with what it burned); past its expiration
//!    with no receipt it is `failed` for good; otherwise the recorded bytes are sent again
//!    when due (same bytes, same txid: a node that holds them answers with a duplicate).
//!    [`Journal::follow`] looks until there is a receipt or an expiry.
//! 4. [`Journal::resume`] looks once at every unfinished entry of a purpose: after a crash or
//!    a restart, the next run picks up where the last stopped.
//!
//! The states and the table are `store::journal`'s.

use std::time::Duration;

use tron::client::TransactionInfo;
use tron::{NodeClient, NodeError, Transaction, TxId};

use crate::error::{Error, Result, StoreError};
use crate::service::submit::{Broadcast, Outcome, broadcast};
pub use crate::store::journal::{Entry, Execution, NewEntry, Purpose, State, Submissions};

/// How often [`Journal::follow`] looks: TRON makes a block every 3 s.
const FOLLOW_POLL: Duration = Duration::from_millis(300);
/// A node that accepted a transaction holds it; another copy is sent after this long without
/// a receipt (a node may drop what it held, or restart).
const RESEND_AFTER_MS: i64 = 3_000;
/// The longest wait between broadcasts a busy node turned away.
const MAX_RETRY_DELAY: Duration = Duration::from_secs(30);
/// Blocks after which a block is irreversible when the solidity API cannot say.
pub(crate) const SOLIDIFICATION_BLOCKS: i64 = 19;

/// What one look at an entry found.
#[derive(Debug)]
pub enum Look {
    /// In a block: `included`, `confirmed`, or `failed` if it reverted.
    Receipt(Box<TransactionInfo>),
    /// Past its expiration and in no block: it will never execute.
    Expired,
    /// Refused by the node before any node took it: it went nowhere.
    Refused(String),
    /// Still on its way: the node holds it, it was sent again, or will be.
    Pending,
}

/// The state an entry is in after a look, and whether the look moved it.
#[derive(Debug)]
pub struct Checked {
    pub look: Look,
    pub state: State,
    pub moved: bool,
}

/// The journal of one network's database.
#[derive(Clone)]
pub struct Journal {
    entries: Submissions,
    /// The first wait after a busy answer; it doubles, up to [`MAX_RETRY_DELAY`].
    retry: Duration,
    /// Who follows the entries, and for how long a look leases them, when several processes
    /// share the database (`serve`'s replicas): each open entry is followed by one of them.
    lease: Option<(String, Duration)>,
}

impl Journal {
    pub fn new(entries: Submissions) -> Self {
        Journal {
            entries,
            retry: Duration::from_secs(1),
            lease: None,
        }
    }

    /// Opens (creating) the journal in the network's database at `path`.
    pub fn open(path: &std::path::Path) -> Result<Self> {
        Ok(Self::new(Submissions::open(path)?))
    }

    /// The first wait after a busy answer (the relayer's poll).
    pub(crate) fn retry_after(mut self, first: Duration) -> Self {
        self.retry = first;
        self
    }

    /// Follows only the entries `owner` leases, each for `lease` from every look: another
    /// process on the database follows the rest, and takes over ours if we stop renewing.
    pub(crate) fn leased(mut self, owner: impl Into<String>, lease: Duration) -> Self {
        self.lease = Some((owner.into(), lease));
        self
    }

    /// The lease a new entry is recorded under: its recorder's, so no other process sends
    /// it before the recorder's own first broadcast has had its chance.
    pub(crate) fn lease(&self) -> Option<(&str, i64)> {
        self.lease
            .as_ref()
            .map(|(owner, lease)| (owner.as_str(), lease.as_millis() as i64))
    }

    /// What recording `tx` for `purpose` writes.
    pub fn entry(tx: &Transaction, purpose: Purpose, reference: impl Into<String>) -> NewEntry {
        NewEntry {
            txid: tx.txid().to_hex(),
            purpose,
            reference: reference.into(),
            signed_hex: hex::encode(tx.to_protobuf()),
            expiration: tx.expiration(),
        }
    }

    /// Records a signed transaction before it is broadcast: on disk when this returns. A live
    /// entry for the same note is a conflict (409).
    pub fn record(
        &self,
        tx: &Transaction,
        purpose: Purpose,
        reference: impl Into<String>,
    ) -> Result<Entry> {
        let entry = Self::entry(tx, purpose, reference);
        self.entries.record(&entry)?;
        self.get(&entry.txid)
    }

    pub fn get(&self, txid: &str) -> Result<Entry> {
        self.entries
            .get(txid)?
            .ok_or_else(|| Error::NotFound(format!("the submit journal has no transaction {txid}")))
    }

    /// Entries of `purpose` not finished yet, oldest first.
    pub fn unfinished(&self, purpose: Purpose) -> Result<Vec<Entry>> {
        self.entries.unfinished(purpose)
    }

    /// Sends an entry's recorded bytes and records what the node's answer means.
    pub async fn broadcast(&self, node: &NodeClient, entry: &Entry) -> Result<Broadcast> {
        let tx = transaction(entry)?;
        let answer = broadcast(node, &tx).await;
        let txid = entry.txid.as_str();
        match &answer {
            Broadcast::Accepted => {
                self.entries.advance(txid, State::Broadcast, None, None)?;
                self.entries
                    .hold(txid, tron::transaction::now_ms() + RESEND_AFTER_MS)?;
            }
            Broadcast::Retry(reason) => {
                tracing::warn!(
                    txid,
                    reason,
                    "the node is busy; the transaction is sent again later"
                );
                self.entries
                    .defer(txid, self.retry_at(entry.attempts + 1), reason)?;
            }
            Broadcast::Refused(reason) => {
                if !self.entries.refuse(txid, reason)? {
                    tracing::warn!(
                        txid,
                        reason,
                        "a node took it before: its receipt or expiry decides"
                    );
                }
            }
            Broadcast::Unknown(e) => tracing::warn!(txid, error = %e, "broadcast unconfirmed"),
        }
        Ok(answer)
    }

    /// When to try again after `attempts` busy answers: the first wait, doubling, at most
    /// 30 s.
    fn retry_at(&self, attempts: i64) -> i64 {
        let delay = self
            .retry
            .saturating_mul(1 << attempts.clamp(0, 10))
            .min(MAX_RETRY_DELAY);
        tron::transaction::now_ms() + delay.as_millis() as i64
    }

    /// One look at an entry (see the module's notes); records what it finds.
    pub async fn check(&self, node: &NodeClient, entry: &Entry) -> Result<Checked> {
        let txid: TxId = entry.txid.parse().map_err(|_| {
            StoreError::damaged("submit journal", format!("bad txid {}", entry.txid))
        })?;
        if let Some(info) = node.get_transaction_info(&txid).await? {
            return self.receipt(node, entry, &txid, info).await;
        }
        let head = node.get_now_block().await?;
        if head.timestamp() > entry.expiration {
            // One last look: it may have landed in the block that passed the deadline.
            if let Some(info) = node.get_transaction_info(&txid).await? {
                return self.receipt(node, entry, &txid, info).await;
            }
            let moved = self.entries.advance(
                &entry.txid,
                State::Failed,
                Some("expired before it was included in a block"),
                None,
            )?;
            return Ok(Checked {
                look: Look::Expired,
                state: State::Failed,
                moved,
            });
        }
        let pending = |state| Checked {
            look: Look::Pending,
            state,
            moved: false,
        };
        if !matches!(entry.state, State::Signed | State::Broadcast)
            || entry.retry_at > tron::transaction::now_ms()
        {
            return Ok(pending(entry.state));
        }
        // Not executed yet: send the recorded bytes (again).
        let answer = self.broadcast(node, entry).await?;
        let now = self.get(&entry.txid)?.state;
        Ok(match answer {
            Broadcast::Unknown(e) => return Err(e.into()),
            Broadcast::Refused(reason) if now == State::Failed => Checked {
                look: Look::Refused(reason),
                state: now,
                moved: now != entry.state,
            },
            _ => Checked {
                moved: now != entry.state,
                ..pending(now)
            },
        })
    }

    async fn receipt(
        &self,
        node: &NodeClient,
        entry: &Entry,
        txid: &TxId,
        info: TransactionInfo,
    ) -> Result<Checked> {
        let execution = Execution {
            block: info.block_number,
            energy_used: info.receipt.energy_usage_total,
            fee_sun: info.fee,
        };
        let (state, error) = if !info.succeeded() {
            let reason = info
                .failure_reason()
                .unwrap_or_else(|| "it failed on chain".into());
            (State::Failed, Some(reason))
        } else if is_solidified(node, txid, info.block_number).await? {
            (State::Confirmed, None)
        } else {
            (State::Included, None)
        };
        let moved = self
            .entries
            .advance(&entry.txid, state, error.as_deref(), Some(execution))?;
        Ok(Checked {
            look: Look::Receipt(Box::new(info)),
            state,
            moved,
        })
    }

    /// Looks at an entry until it is in a block or can never be: its receipt, or
    /// [`Outcome::Expired`]. A refusal before any node took it is `Error::Refused`.
    pub async fn follow(&self, node: &NodeClient, txid: &str) -> Result<Outcome> {
        loop {
            let entry = self.get(txid)?;
            match self.check(node, &entry).await?.look {
                Look::Receipt(info) => return Ok(Outcome::Included(info)),
                Look::Expired => return Ok(Outcome::Expired),
                Look::Refused(reason) => return Err(Error::Refused(reason)),
                Look::Pending => tokio::time::sleep(FOLLOW_POLL).await,
            }
        }
    }

    /// One look at every unfinished entry of `purpose`, oldest first; an entry that cannot be
    /// looked at now (the node is down, its row is damaged) does not hold up the others.
    pub(crate) async fn resume(
        &self,
        node: &NodeClient,
        purpose: Purpose,
    ) -> Result<Vec<(Entry, Result<Checked>)>> {
        self.resume_with(node, purpose, |_, _| {}).await
    }

    /// [`Journal::resume`], calling `each` on an entry as soon as it was looked at, before the
    /// next is: what must follow a state the journal now shows (a cache to forget) is not
    /// left waiting behind the other entries' node calls.
    pub(crate) async fn resume_with(
        &self,
        node: &NodeClient,
        purpose: Purpose,
        mut each: impl FnMut(&Entry, &Result<Checked>),
    ) -> Result<Vec<(Entry, Result<Checked>)>> {
        let mut looked = Vec::new();
        let entries = match self.lease() {
            Some((owner, ms)) => self.entries.claim_unfinished(purpose, owner, ms)?,
            None => self.unfinished(purpose)?,
        };
        for entry in entries {
            let checked = self.check(node, &entry).await;
            each(&entry, &checked);
            looked.push((entry, checked));
        }
        Ok(looked)
    }
}

/// The transaction an entry recorded.
pub fn transaction(entry: &Entry) -> Result<Transaction> {
    hex::decode(&entry.signed_hex)
        .ok()
        .and_then(|bytes| Transaction::from_protobuf(&bytes).ok())
        .filter(|tx| tx.txid().to_hex() == entry.txid)
        .ok_or_else(|| {
            StoreError::damaged(
                "submit journal",
                format!("the recorded transaction {} is damaged", entry.txid),
            )
        })
}

/// Whether a transaction in a block is in a solidified one. From the node's
/// `/walletsolidity/` API; a node that does not serve it (java-tron serves the solidity API
/// on its own port) is answered by counting blocks: TRON solidifies a block once two thirds
/// of its 27 producers have built on it, 19 blocks (java-tron
/// `ChainConstant.SOLIDIFIED_THRESHOLD` of 70%).
pub(crate) async fn is_solidified(node: &NodeClient, txid: &TxId, block: i64) -> Result<bool> {
    match node.get_solid_transaction_info(txid).await {
        Ok(found) => Ok(found.is_some()),
        Err(NodeError::Http { status: 404, .. }) => {
            let head = node.get_now_block().await?;
            Ok(head.number() - block >= SOLIDIFICATION_BLOCKS)
        }
        Err(e) => Err(e.into()),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use tron::client::NodeConfig;
    use tron::{Action, PrivateKey, TransactionBuilder};

    async fn devnet() -> (devnet::DevnetHandle, NodeClient) {
        let devnet = devnet::spawn(devnet::DevnetConfig::ephemeral())
            .await
            .unwrap();
        let node = NodeClient::new(NodeConfig::new(devnet.url().parse().unwrap())).unwrap();
        (devnet, node)
    }

    /// A TRX transfer from `signer`, valid for `valid_ms` from now.
    async fn transfer(node: &NodeClient, signer: &PrivateKey, valid_ms: i64) -> Transaction {
        let reference = node.get_now_block().await.unwrap().ref_block();
        let owner = signer.address();
        let mut tx = TransactionBuilder::new(
            Action::Transfer {
                owner,
                to: PrivateKey::generate().address(),
                amount: 2_000_000,
            },
            reference,
        )
        .expiration(tron::transaction::now_ms() + valid_ms)
        .build();
        tx.sign(signer).unwrap();
        tx
    }

    #[tokio::test(flavor = "multi_thread", worker_threads = 2)]
    async fn what_a_dead_run_recorded_is_sent_by_the_next_and_followed_to_confirmed() {
        let (_devnet, node) = devnet().await;
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("devnet/tronpool.sqlite3");
        let tx = transfer(&node, &devnet::genesis::dev_key(0), 60_000).await;
        let txid = tx.txid().to_hex();
        {
            let journal = Journal::open(&path).unwrap();
            let entry = journal.record(&tx, Purpose::Deposit, "1").unwrap();
            assert_eq!(
                (entry.state, entry.reference.as_str()),
                (State::Signed, "1")
            );
            // The process dies here: recorded, never sent.
        }
        assert!(
            node.get_transaction_info(&tx.txid())
                .await
                .unwrap()
                .is_none()
        );

        let journal = Journal::open(&path).unwrap();
        let looked = journal.resume(&node, Purpose::Deposit).await.unwrap();
        assert_eq!(looked.len(), 1);
        let checked = looked[0].1.as_ref().unwrap();
        assert!(
            checked.moved && checked.state == State::Broadcast,
            "{checked:?}"
        );
        assert!(matches!(checked.look, Look::Pending));
        assert!(
            journal
                .resume(&node, Purpose::Relay)
                .await
                .unwrap()
                .is_empty()
        );

        // The devnet seals every transaction at once, and its head is solidified.
        let outcome = journal.follow(&node, &txid).await.unwrap();
        assert!(matches!(&outcome, Outcome::Included(info) if info.succeeded()));
        let done = journal.get(&txid).unwrap();
        assert_eq!(done.state, State::Confirmed);
        assert!(done.block.is_some() && done.fee_sun.is_some(), "{done:?}");
        assert!(journal.unfinished(Purpose::Deposit).unwrap().is_empty());

        // Another copy is answered as a duplicate, which is success; nothing moves back.
        assert!(matches!(
            journal.broadcast(&node, &done).await.unwrap(),
            Broadcast::Accepted
        ));
        assert_eq!(journal.get(&txid).unwrap().state, State::Confirmed);
    }

    #[tokio::test(flavor = "multi_thread", worker_threads = 2)]
    async fn an_expired_entry_fails_unsent_and_a_refused_one_fails_with_the_reason() {
        let (_devnet, node) = devnet().await;
        let journal = Journal::new(Submissions::in_memory().unwrap());

        let stale = transfer(&node, &devnet::genesis::dev_key(0), 300).await;
        journal
            .record(&stale, Purpose::Relay, "TPool 0x01")
            .unwrap();
        // The process dies before sending it; a block is made after it expired.
        tokio::time::sleep(Duration::from_millis(400)).await;
        let later = transfer(&node, &devnet::genesis::dev_key(0), 60_000).await;
        node.broadcast_hex(&later).await.unwrap();
        let outcome = journal.follow(&node, &stale.txid().to_hex()).await.unwrap();
        assert!(matches!(outcome, Outcome::Expired));
        let failed = journal.get(&stale.txid().to_hex()).unwrap();
        assert_eq!(failed.state, State::Failed);
        assert!(failed.error.unwrap().contains("expired"));
        assert!(
            node.get_transaction_info(&stale.txid())
                .await
                .unwrap()
                .is_none()
        );
        // A failed entry frees its note for another try.
        let again = transfer(&node, &PrivateKey::generate(), 60_000).await;
        let entry = journal
            .record(&again, Purpose::Relay, "TPool 0x01")
            .unwrap();

        // From an account that does not exist: the node refuses it, and it went nowhere.
        let reason = match journal.check(&node, &entry).await.unwrap() {
            Checked {
                look: Look::Refused(reason),
                state: State::Failed,
                moved: true,
            } => reason,
            other => panic!("{other:?}"),
        };
        assert!(reason.contains("CONTRACT_VALIDATE_ERROR"), "{reason}");
        let refused = journal.get(&entry.txid).unwrap();
        assert_eq!(refused.state, State::Failed);
        assert_eq!(refused.error, Some(reason));
        let second = journal.record(&again, Purpose::Relay, "TPool 0x01");
        assert!(second.is_err(), "the txid is recorded once");
    }
}
