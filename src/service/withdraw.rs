//! Withdrawing a note, signed and paid for by the user's own key (`tronpool withdraw`), and
//! what every withdrawal shares with a relayed one (`service::relay_withdraw`): the note as a
//! command was given it, the sync, the local spent check and the proof, and the guidance
//! about what the withdrawal reveals, reported before the confirmation.
//!
//! The caller asks and renders: progress and the guidance go to a [`Progress`], the question
//! before anything is signed to a [`Confirm`].

use alloy_primitives::{B256, U256};
use serde::Serialize;
use tron::{Address, PrivateKey, Transaction, TxId};
use zk::note::Note;

use crate::error::{Error, Result};
use crate::service::builders::{
    EXPIRATION_MS, EnergySplit, PreparedCall, SpentCheck, withdraw_calldata,
};
use crate::service::chain::Chain;
use crate::service::inputs::USDT_UNIT;
use crate::service::notes::{Payout, Proved, commitment_of, nullifier_hash_of, prove_withdrawal};
use crate::service::pools::{six_decimals_text, word_hex};
use crate::service::progress::{Confirm, Progress, Step};
use crate::service::sync::SyncedTree;
use crate::store::notes::{NoteRecord, NoteState, NoteStore};
use crate::store::trees::TreeCache;

/// Below this many deposits after yours, a withdrawal warns: the fewer deposits follow
/// yours, the fewer candidates an observer has to pick from, whatever came before.
pub const MIN_LATER_DEPOSITS: u32 = 10;
/// Below this many seconds (24 hours) since the deposit, a withdrawal warns: a withdrawal
/// soon after a deposit is easy to pair with it by time alone.
pub const MIN_SECONDS_SINCE_DEPOSIT: i64 = 24 * 60 * 60;

/// A note as a command was given it: the note, and its record when it is stored.
pub struct GivenNote {
    pub note: Note,
    pub record: Option<NoteRecord>,
}

/// Stores a note that is not stored yet (given as text), so its history is kept; answers its
/// id.
pub fn remember(
    chain: &Chain,
    store: &NoteStore,
    given: &mut GivenNote,
    origin: &str,
) -> Result<i64> {
    if let Some(record) = &given.record {
        return Ok(record.id);
    }
    let id = chain.store_note(store, &given.note, origin)?;
    given.record = store.get(id)?;
    Ok(id)
}

/// What a withdrawal reveals about its deposit, and the warnings that go with it.
#[derive(Debug, Clone, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct Guidance {
    pub anonymity_set: AnonymitySet,
    /// Seconds since the deposit's block; absent when the cache holds no time for its leaf.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub since_deposit_seconds: Option<i64>,
    /// What the recipient holds, in sun.
    pub recipient_trx_sun: i64,
    pub warnings: Vec<Warning>,
}

/// The deposits of the pool the withdrawal could be any of: the leaves before the note's and
/// after it.
#[derive(Debug, Clone, Copy, Serialize)]
pub struct AnonymitySet {
    pub before: u32,
    pub after: u32,
}

#[derive(Debug, Clone, Serialize)]
pub struct Warning {
    pub code: WarningCode,
    pub message: String,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
pub enum WarningCode {
    /// Fewer than [`MIN_LATER_DEPOSITS`] deposits after the note's.
    FewLaterDeposits,
    /// Less than [`MIN_SECONDS_SINCE_DEPOSIT`] since the deposit.
    RecentDeposit,
    /// The recipient holds no TRX and no refund was asked: it cannot move the USDT.
    RecipientWithoutTrx,
}

/// How the user asks for a refund where they withdraw: named in the warning about a
/// recipient without TRX.
#[derive(Debug, Clone, Copy)]
pub enum RefundBy {
    /// The user pays the refund along with the withdrawal.
    Sender,
    /// The relayer sends it and its fee covers it.
    Relayer,
}

impl Guidance {
    /// The guidance for the note at `leaf_index` of `synced`, paid to a recipient holding
    /// `recipient_trx_sun`, with `refund` sun asked; `deposited_ms` is the deposit's block
    /// time and `now_ms` this moment.
    pub fn new(
        leaves: usize,
        leaf_index: u32,
        deposited_ms: Option<i64>,
        now_ms: i64,
        recipient_trx_sun: i64,
        refund: U256,
        refund_by: RefundBy,
    ) -> Self {
        let leaves = u32::try_from(leaves).unwrap_or(u32::MAX);
        let anonymity_set = AnonymitySet {
            before: leaf_index,
            after: leaves.saturating_sub(leaf_index.saturating_add(1)),
        };
        let since_deposit_seconds = deposited_ms.map(|at| (now_ms - at).max(0) / 1000);
        let mut warnings = Vec::new();
        if anonymity_set.after < MIN_LATER_DEPOSITS {
            warnings.push(Warning {
                code: WarningCode::FewLaterDeposits,
                message: format!(
                    "only {} deposit(s) into this pool came after yours (fewer than \
                     {MIN_LATER_DEPOSITS}): withdrawing now narrows who it could be; waiting \
                     for more deposits helps",
                    anonymity_set.after
                ),
            });
        }
        if let Some(seconds) = since_deposit_seconds
            && seconds < MIN_SECONDS_SINCE_DEPOSIT
        {
            warnings.push(Warning {
                code: WarningCode::RecentDeposit,
                message: format!(
                    "the deposit was made {} ago (under {} h): a withdrawal soon after a \
                     deposit is easy to pair with it by time",
                    duration_text(seconds),
                    MIN_SECONDS_SINCE_DEPOSIT / 3600
                ),
            });
        }
        if recipient_trx_sun == 0 && refund.is_zero() {
            let how = match refund_by {
                RefundBy::Sender => "pass --refund TRX to send some along (paid by you)",
                RefundBy::Relayer => {
                    "pass --refund TRX to have the relayer send some along (its fee covers it)"
                }
            };
            warnings.push(Warning {
                code: WarningCode::RecipientWithoutTrx,
                message: format!(
                    "the recipient holds no TRX and no refund was asked: a fresh TRON address \
                     cannot move USDT without TRX for its fees; {how}"
                ),
            });
        }
        Guidance {
            anonymity_set,
            since_deposit_seconds,
            recipient_trx_sun,
            warnings,
        }
    }

    /// `12 deposits before yours, 3 after; deposited 2 h 5 min ago`.
    pub fn describe(&self) -> String {
        let set = format!(
            "anonymity set: {} deposit(s) before yours, {} after",
            self.anonymity_set.before, self.anonymity_set.after
        );
        match self.since_deposit_seconds {
            Some(seconds) => format!("{set}; deposited {} ago", duration_text(seconds)),
            None => set,
        }
    }
}

/// `45 s`, `12 min`, `5 h 3 min`, `3 d 4 h`.
fn duration_text(seconds: i64) -> String {
    let (days, hours, minutes) = (seconds / 86_400, seconds / 3600 % 24, seconds / 60 % 60);
    if days > 0 {
        format!("{days} d {hours} h")
    } else if hours > 0 {
        format!("{hours} h {minutes} min")
    } else if minutes > 0 {
        format!("{minutes} min")
    } else {
        format!("{seconds} s")
    }
}

/// A proof for a payout, from a freshly synced tree, and the guidance that goes with it.
pub struct Prepared {
    pub proved: Proved,
    pub guidance: Guidance,
}

/// Syncs the pool's tree and withdrawals, refuses a spent note (recording it as withdrawn)
/// by the synced withdrawals, never by asking the node, proves the withdrawal for `payout`,
/// and reports the guidance.
pub async fn prove(
    chain: &Chain,
    store: &NoteStore,
    trees: &TreeCache,
    given: &GivenNote,
    payout: Payout,
    refund_by: RefundBy,
    progress: &dyn Progress,
) -> Result<Prepared> {
    let denomination = given.note.meta().denomination();
    let nullifier_hash: B256 = nullifier_hash_of(&given.note);
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
    let proved = prove_withdrawal(chain, &synced, &given.note, payout).await;
    progress.step(Step::ProvingDone);
    let proved = proved?;
    let leaf = trees.index_of(&synced.pool.to_base58(), &commitment_of(&given.note).0)?;
    let recipient_trx = chain.trx_balance(recipient).await?;
    let guidance = Guidance::new(
        synced.tree.len(),
        proved.leaf_index,
        leaf.map(|l| l.block_timestamp),
        tron::transaction::now_ms(),
        recipient_trx,
        refund,
        refund_by,
    );
    progress.step(Step::Guidance(&guidance));
    Ok(Prepared { proved, guidance })
}

/// Syncs a pool's tree, reporting how far it came.
pub async fn sync(
    chain: &Chain,
    trees: &TreeCache,
    denomination: u64,
    progress: &dyn Progress,
) -> Result<SyncedTree> {
    progress.step(Step::Syncing(denomination));
    let report = |p| progress.step(Step::SyncAt(p));
    let synced = chain.sync_tree(denomination, trees, &report).await;
    progress.step(Step::SyncDone);
    synced
}

/// What a dry run found.
#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
pub struct DryRun {
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
pub struct Withdrawn {
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
pub struct SelfWithdrawal {
    pub note: GivenNote,
    pub recipient: Address,
    /// TRX (sun) sent along to the recipient, paid by the sender.
    pub refund: U256,
}

/// How far a self-withdrawal goes.
pub enum Signer<'a> {
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
pub enum SelfWithdrawn {
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
        chain: &Chain,
        store: &NoteStore,
        trees: &TreeCache,
        signer: Signer<'_>,
        progress: &dyn Progress,
        confirm: &dyn Confirm,
    ) -> Result<SelfWithdrawn> {
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
        let prepared = prove(
            chain,
            store,
            trees,
            &self.note,
            payout,
            RefundBy::Sender,
            progress,
        )
        .await?;
        let request = &prepared.proved.request;
        let refund_sun = chain
            .check_withdrawal(request, SpentCheck::CheckedLocally)
            .await?;
        let call = chain
            .prepare_call(from, pool, refund_sun, withdraw_calldata(request))
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
        let id = remember(chain, store, &mut self.note, "withdraw")?;
        let estimate = call.split;
        let mut tx = chain.transaction(call, EXPIRATION_MS).await?;
        let Some(key) = key else {
            return Ok(SelfWithdrawn::Unsigned(tx));
        };
        confirm.confirm(&format!(
            "Withdraw {denomination} USDT to {} with note {id}, paid by {from}? ({})",
            self.recipient,
            estimate.describe()
        ))?;
        tx.sign(key)?;
        let info = chain.send_and_confirm(&tx, "the withdrawal").await?;
        store.mark_withdrawn(
            id,
            Some(&info.id.to_hex()),
            Some(&self.recipient.to_base58()),
        )?;
        chain.pool_changed(denomination);
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

#[cfg(test)]
mod tests {
    use super::*;

    fn codes(g: &Guidance) -> Vec<WarningCode> {
        g.warnings.iter().map(|w| w.code).collect()
    }

    #[test]
    fn guidance_counts_the_deposits_and_warns_below_the_thresholds() {
        let now = 1_700_000_000_000;
        // Leaf 3 of 5, deposited 10 s ago, to a fresh address without a refund.
        let g = Guidance::new(
            5,
            3,
            Some(now - 10_000),
            now,
            0,
            U256::ZERO,
            RefundBy::Sender,
        );
        assert_eq!((g.anonymity_set.before, g.anonymity_set.after), (3, 1));
        assert_eq!(g.since_deposit_seconds, Some(10));
        assert_eq!(
            codes(&g),
            [
                WarningCode::FewLaterDeposits,
                WarningCode::RecentDeposit,
                WarningCode::RecipientWithoutTrx
            ]
        );
        assert!(g.warnings[2].message.contains("paid by you"));
        // Exactly at the thresholds, a recipient with TRX: nothing to warn about.
        let leaves = 1 + MIN_LATER_DEPOSITS as usize;
        let then = now - MIN_SECONDS_SINCE_DEPOSIT * 1000;
        let g = Guidance::new(leaves, 0, Some(then), now, 1, U256::ZERO, RefundBy::Relayer);
        assert_eq!(g.anonymity_set.after, MIN_LATER_DEPOSITS);
        assert!(g.warnings.is_empty(), "{:?}", g.warnings);
        // One short of each, and a refund asked for a fresh address.
        let g = Guidance::new(
            leaves - 1,
            0,
            Some(then + 1000),
            now,
            0,
            U256::from(1u8),
            RefundBy::Relayer,
        );
        assert_eq!(
            codes(&g),
            [WarningCode::FewLaterDeposits, WarningCode::RecentDeposit]
        );
        assert_eq!(
            serde_json::to_value(&g).unwrap()["anonymitySet"],
            serde_json::json!({"before": 0, "after": MIN_LATER_DEPOSITS - 1})
        );
        assert_eq!(
            serde_json::to_value(&g).unwrap()["warnings"][0]["code"],
            "fewLaterDeposits"
        );
    }

    #[test]
    fn durations_read_plainly() {
        assert_eq!(duration_text(45), "45 s");
        assert_eq!(duration_text(12 * 60 + 5), "12 min");
        assert_eq!(duration_text(5 * 3600 + 3 * 60), "5 h 3 min");
        assert_eq!(duration_text(3 * 86_400 + 4 * 3600), "3 d 4 h");
    }
}
