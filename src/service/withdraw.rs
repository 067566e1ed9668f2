//! Withdrawing a note, signed and paid for by the user's own key (`tronpool withdraw`), and
//! what every withdrawal shares with a relayed one (`service::relay_withdraw`): the note as a
//! command was given it, the sync, the local spent check and the proof, and the guidance
//! about what the withdrawal reveals, reported before the confirmation.
//!
//! The caller asks and renders: progress, the guidance and the question before anything is
//! signed go down a [`Progress`] channel, whose other end the caller renders and answers.

use alloy_primitives::U256;
use serde::Serialize;
use tron::{Address, PrivateKey, Transaction, TxId};

use crate::error::{Error, Result};
use crate::service::balances;
use crate::service::builders;
use crate::service::builders::{
    EXPIRATION_MS, EnergySplit, PreparedCall, SpentCheck, withdraw_calldata,
};
use crate::service::chain::Chain;
use crate::service::desk::Desk;
use crate::service::format::{six_decimals_text, word_hex};
use crate::service::guidance::{Guidance, RecipientFunds, RefundBy};
use crate::service::inputs::USDT_UNIT;
pub use crate::service::notes::GivenNote;
use crate::service::notes::{Payout, Proved, prove_withdrawal};
use crate::service::pools;
use crate::service::progress::{Progress, Step};
use crate::service::submit;
use crate::service::sync;
use crate::service::sync::SyncedTree;
use crate::store::notes::NoteState;
use crate::store::trees::TreeCache;

/// A proof for a payout, from a freshly synced tree, and the guidance that goes with it.
pub struct Prepared {
    /// The pool the note is in.
    pub pool: Address,
    pub proved: Proved,
    pub guidance: Guidance,
}

/// Syncs the pool's tree and withdrawals, refuses a spent note (recording it as withdrawn)
/// by the synced withdrawals, never by asking the node, proves the withdrawal for `payout`,
/// and reports the guidance.
pub async fn prove(
    desk: Desk<'_>,
    given: &GivenNote,
    payout: Payout,
    refund_by: RefundBy,
    progress: &Progress,
) -> Result<Prepared> {
    let Desk {
        chain,
        store,
        trees,
        ..
    } = desk;
    let denomination = given.note.meta().denomination();
    let nullifier_hash = given.hashes.nullifier_hash;
    let synced = sync(chain, trees, denomination, progress).await?;
    if let Some(spent) = synced.is_spent(trees, nullifier_hash)? {
        if let Some(record) = &given.record
            && record.state != NoteState::Withdrawn
        {
            store.mark_withdrawn(record.id, Some(&spent.txid), Some(&spent.recipient))?;
        }
        return Err(Error::Conflict(format!(
            "the note is already spent: its {denomination} USDT were withdrawn in {}",
            spent.txid
        )));
    }
    let (recipient, refund) = (payout.recipient, payout.refund);
    progress.step(Step::Proving);
    let proved = prove_withdrawal(chain, trees, &synced, &given.note, given.hashes, payout).await;
    progress.step(Step::ProvingDone);
    let proved = proved?;
    let leaf = trees.index_of(&synced.pool.to_base58(), &given.hashes.commitment.0)?;
    let recipient_trx = balances::trx_balance(chain, recipient).await?;
    let guidance = Guidance::new(
        synced.leaves as usize,
        proved.leaf_index,
        leaf.map(|l| l.block_timestamp),
        tron::transaction::now_ms(),
        RecipientFunds {
            trx_sun: recipient_trx,
            refund,
            by: refund_by,
        },
    );
    progress.step(Step::Guidance(guidance.clone()));
    Ok(Prepared {
        pool: synced.pool,
        proved,
        guidance,
    })
}

/// Syncs a pool's tree, reporting how far it came.
pub async fn sync(
    chain: &Chain,
    trees: &TreeCache,
    denomination: u64,
    progress: &Progress,
) -> Result<SyncedTree> {
    progress.step(Step::Syncing(denomination));
    let report = |p| progress.step(Step::SyncAt(p));
    let synced = sync::sync_tree(chain, denomination, trees, &report).await;
    progress.step(Step::SyncDone);
    synced
}

/// What a dry run found.
#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
pub(crate) struct DryRun {
    pub dry_run: bool,
    pub denomination: u64,
    pub recipient: Address,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub relayer: Option<Address>,
    pub fee_raw: String,
    pub refund_sun: String,
    pub root: String,
    pub nullifier_hash: String,
    pub energy: i64,
    pub fee_limit_sun: i64,
    /// How the energy would be paid: the pool's sponsor, the caller's stake, a burn.
    pub estimate: EnergySplit,
    pub proof: String,
    pub guidance: Guidance,
}

impl DryRun {
    pub fn new(prepared: Prepared, call: &PreparedCall) -> Self {
        let r = &prepared.proved.request;
        DryRun {
            dry_run: true,
            denomination: r.denomination,
            recipient: r.recipient,
            relayer: r.relayer,
            fee_raw: r.fee.to_string(),
            refund_sun: r.refund.to_string(),
            root: word_hex(&r.root),
            nullifier_hash: word_hex(&r.nullifier_hash),
            energy: call.energy,
            fee_limit_sun: call.fee_limit,
            estimate: call.split,
            proof: r.proof.to_hex(),
            guidance: prepared.guidance,
        }
    }

    pub fn describe(&self) -> String {
        format!(
            "dry run: the withdrawal of {} USDT to {} verifies and would succeed ({}); \
             nothing was sent",
            self.denomination,
            self.recipient,
            self.estimate.describe()
        )
    }
}

/// A withdrawal in a block.
#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
pub(crate) struct Withdrawn {
    pub txid: TxId,
    pub note_id: i64,
    pub denomination: u64,
    pub recipient: Address,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub relayer: Option<Address>,
    /// USDT base units the recipient received.
    pub received_raw: String,
    pub fee_raw: String,
    pub refund_sun: String,
    pub guidance: Guidance,
    /// The relayer's fee, in USDT base units (`fee_raw` on the wire).
    #[serde(skip)]
    pub fee: U256,
}

impl Withdrawn {
    pub fn describe(&self) -> String {
        if self.relayer.is_none() {
            return format!(
                "withdrew {} USDT to {} (note {}): {}",
                self.denomination, self.recipient, self.note_id, self.txid
            );
        }
        let whole = U256::from(self.denomination) * U256::from(USDT_UNIT);
        format!(
            "withdrew {} USDT to {} (note {}, fee {} USDT): {}",
            six_decimals_text(whole.saturating_sub(self.fee)),
            self.recipient,
            self.note_id,
            six_decimals_text(self.fee),
            self.txid
        )
    }
}

/// A self-withdrawal as the user asked for it.
pub(crate) struct SelfWithdrawal {
    pub note: GivenNote,
    pub recipient: Address,
    /// TRX (sun) sent along to the recipient, paid by the sender.
    pub refund: U256,
}

/// How far a self-withdrawal goes.
pub(crate) enum Signer<'a> {
    /// Sync, prove, check and simulate; send nothing.
    DryRun { from: Address },
    /// Build the transaction for `from` to sign elsewhere.
    Unsigned { from: Address },
    /// Sign with this key after the confirmation, send, and wait for the receipt.
    Key(&'a PrivateKey),
}

impl Signer<'_> {
    fn from(&self) -> Address {
        match self {
            Signer::DryRun { from } | Signer::Unsigned { from } => *from,
            Signer::Key(key) => key.address(),
        }
    }
}

/// Where a self-withdrawal ended.
pub(crate) enum SelfWithdrawn {
    DryRun(DryRun),
    /// The unsigned transaction; the note is stored.
    Unsigned(Transaction),
    Withdrawn(Withdrawn),
}

impl SelfWithdrawal {
    /// Proves, checks and simulates the withdrawal, reports the guidance, then (for a key)
    /// asks for confirmation, signs, sends and waits for the receipt, and marks the note
    /// withdrawn. Nothing is written before the broadcast but the note given as text.
    pub async fn run(
        mut self,
        desk: Desk<'_>,
        signer: Signer<'_>,
        progress: &Progress,
    ) -> Result<SelfWithdrawn> {
        let Desk { chain, store, .. } = desk;
        let denomination = self.note.note.meta().denomination();
        let pool = chain.pool_address(denomination)?;
        let from = signer.from();
        let payout = Payout {
            from,
            recipient: self.recipient,
            relayer: None,
            fee: U256::ZERO,
            refund: self.refund,
        };
        let prepared = prove(desk, &self.note, payout, RefundBy::Sender, progress).await?;
        let request = &prepared.proved.request;
        let refund_sun =
            builders::check_withdrawal(chain, request, SpentCheck::CheckedLocally).await?;
        let call =
            builders::prepare_call(chain, from, pool, refund_sun, withdraw_calldata(request))
                .await?;
        call.check_succeeds("the withdrawal")?;
        let key = match signer {
            Signer::DryRun { .. } => {
                return Ok(SelfWithdrawn::DryRun(DryRun::new(prepared, &call)));
            }
            Signer::Unsigned { .. } => None,
            Signer::Key(key) => Some(key),
        };
        if let Some(shortfall) = call.shortfall("the withdrawal") {
            return Err(Error::Refused(shortfall));
        }
        let id = self.note.remember(store, prepared.pool, "withdraw")?;
        let estimate = call.split;
        let mut tx = builders::transaction(chain, call, EXPIRATION_MS).await?;
        let Some(key) = key else {
            return Ok(SelfWithdrawn::Unsigned(tx));
        };
        progress
            .confirm(format!(
                "Withdraw {denomination} USDT to {} with note {id}, paid by {from}? ({})",
                self.recipient,
                estimate.describe()
            ))
            .await?;
        tx.sign(key)?;
        let info = submit::send_and_confirm(chain, &tx, "the withdrawal").await?;
        store.mark_withdrawn(
            id,
            Some(&info.id.to_hex()),
            Some(&self.recipient.to_base58()),
        )?;
        pools::pool_changed(chain, denomination);
        Ok(SelfWithdrawn::Withdrawn(Withdrawn {
            txid: info.id,
            note_id: id,
            denomination,
            recipient: self.recipient,
            relayer: None,
            received_raw: (denomination * USDT_UNIT).to_string(),
            fee_raw: "0".into(),
            refund_sun: self.refund.to_string(),
            guidance: prepared.guidance,
            fee: U256::ZERO,
        }))
    }
}
