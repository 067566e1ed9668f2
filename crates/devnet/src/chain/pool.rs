//! The pending pool: transactions accepted by a broadcast that wait for the producer, as on
//! java-tron, instead of each being sealed into its own block at once.
//!
//! java-tron (`framework/.../core/db/Manager.java`):
//!
//! - `pushTransaction` runs an accepted transaction against the *pending state* (a revoking
//!   session over the head's state) and queues it in `pendingTransactions`; the node's reads
//!   (`getaccount`, constant calls) see that state, its receipts do not exist yet.
//! - `generateBlock` throws the pending state away (`session.reset()`), then takes the
//!   queue (`pendingTransactions`, and `rePushTransactions`) in order and runs each with
//!   `processTransaction(trx, blockCapsule)` against the state the block has reached: TaPoS,
//!   expiration (`validateCommon`, and `checkExpiration` against the block's slot time),
//!   duplicates, the signature, bandwidth and fees, then the contract. One that throws is
//!   left out of the block and dropped ("Process trx ... failed when generating block");
//!   one whose contract reverts or runs out of energy throws nothing: it is packed, and pays.
//! - After the block is applied, `PendingManager.close` moves what was still pending into
//!   `rePushTransactions`, to be pushed again on the new head. Here the chain's lock is held
//!   while a block is produced, so nothing arrives meanwhile and nothing is left over.
//!
//! Here the pending state is the ledger itself (`Ledger::db` and the account and contract
//! metadata), and [`SealedBase`] keeps the state of the head block beside it while the pool
//! is not empty: one copy per non-empty block, taken by the block's first broadcast. Sealing
//! puts the base back and runs the pool again in the block's own environment (its number and
//! time), so what a block holds is what it would hold on TRON, whatever the pending state
//! said at broadcast time.

use std::collections::HashMap;

use tron::proto::SmartContract;
use tron::{Address, Transaction};

use super::evm::Db;
use super::{AccountMeta, Ledger, Mined, Rejection};

/// The head block's state, kept while pending transactions have changed the ledger's.
#[derive(Clone)]
pub(super) struct SealedBase {
    db: Db,
    accounts: HashMap<Address, AccountMeta>,
    contracts: HashMap<Address, SmartContract>,
}

impl Ledger {
    /// Whether broadcasts wait in the pending pool for the producer ([`Ledger::mine`]) —
    /// `--block-time` above zero — instead of the caller sealing each at once.
    pub fn set_pooling(&mut self, on: bool) {
        self.pooling = on;
    }

    pub fn pooling(&self) -> bool {
        self.pooling
    }

    /// Before the first pending transaction changes the state: keep the head's state to
    /// produce the block from. Only when pooling; sealing on broadcast has nothing to redo.
    pub(super) fn keep_sealed_base(&mut self) {
        if self.pooling && self.sealed.is_none() {
            self.sealed = Some(SealedBase {
                db: self.db.clone(),
                accounts: self.data.accounts.clone(),
                contracts: self.data.contracts.clone(),
            });
        }
    }

    /// Exchanges the pending state and the kept head state (a no-op without pending ones).
    fn swap_sealed_base(&mut self) {
        if let Some(base) = self.sealed.as_mut() {
            std::mem::swap(&mut self.db, &mut base.db);
            std::mem::swap(&mut self.data.accounts, &mut base.accounts);
            std::mem::swap(&mut self.data.contracts, &mut base.contracts);
        }
    }

    /// Runs `f` on the state of the head block, without the pending transactions: what a
    /// solidity node answers (`/walletsolidity/*`). `f` must not change the state.
    pub fn with_sealed_state<R>(&mut self, f: impl FnOnce(&mut Ledger) -> R) -> R {
        self.swap_sealed_base();
        let result = f(self);
        self.swap_sealed_base();
        result
    }

    /// Writes a balance into the head's state too (`/devnet/set_balance`), so that sealing
    /// the pool does not undo it.
    pub(super) fn set_sealed_balance(&mut self, address: Address, sun: i64) {
        if self.sealed.is_some() {
            self.swap_sealed_base();
            self.write_balance(address, sun);
            self.swap_sealed_base();
        }
    }

    /// Writes a storage slot into the head's state too (`Ledger::set_storage`).
    pub(super) fn set_sealed_storage(
        &mut self,
        address: Address,
        slot: alloy_primitives::U256,
        value: alloy_primitives::U256,
    ) {
        if self.sealed.is_some() {
            self.swap_sealed_base();
            self.write_storage(address, slot, value);
            self.swap_sealed_base();
        }
    }

    /// Forgets the pending pool and its state (a snapshot restored over them).
    pub(super) fn clear_pool(&mut self) {
        self.pending.clear();
        self.building = None;
        self.sealed = None;
    }

    /// Produces block `number` at `timestamp` from the pending pool, as java-tron's
    /// `generateBlock` does: back to the head's state, then every pending transaction in
    /// arrival order, checked and executed again in this block; one that no longer passes
    /// (its TaPoS block gone, expired by the block's time, its owner unable to pay) is
    /// dropped and never gets a receipt. Answers the block's number.
    pub(super) fn produce(&mut self, number: u64, timestamp: i64) -> u64 {
        let Some(base) = self.sealed.take() else {
            return self.seal(number, timestamp);
        };
        self.db = base.db;
        self.data.accounts = base.accounts;
        self.data.contracts = base.contracts;
        self.set_block(number, timestamp, self.witness.address().into());
        let head_time = self.head().timestamp;
        for mined in std::mem::take(&mut self.pending) {
            let txid = mined.info.id;
            match self.replay(mined.tx, head_time, number, timestamp) {
                Ok(mined) => self.pending.push(mined),
                Err(why) => tracing::info!(
                    "transaction {} dropped when producing block {number}: {why}",
                    txid.to_hex()
                ),
            }
        }
        self.seal(number, timestamp)
    }

    /// `processTransaction(trx, block)` for a pending transaction. Its signature is not
    /// recovered again: the devnet's accounts keep the single-key owner permission they
    /// had at broadcast, so the signers it was accepted with still have the weight.
    fn replay(
        &mut self,
        tx: Transaction,
        head_time: i64,
        number: u64,
        timestamp: i64,
    ) -> Result<Mined, Rejection> {
        self.check_tapos(&tx)?;
        // validateCommon against the head, and TransactionCapsule.checkExpiration against
        // the block's slot time.
        let expiration = tx.raw().expiration;
        if expiration <= head_time || expiration < timestamp {
            return Err(Rejection::new(
                "TRANSACTION_EXPIRATION_ERROR",
                "Transaction expired",
            ));
        }
        let txid = tx.txid();
        let owner = tx
            .owner()
            .map_err(|e| Rejection::validate(format!("Invalid ownerAddress: {e}")))?;
        let size = tx.to_protobuf().len();
        let info = self.execute(&tx, size, txid, owner, number, timestamp)?;
        Ok(Mined { tx, info })
    }
}
