//! `tronpool withdraw NOTE --to ADDRESS`: a self-withdrawal, signed and paid for by the
//! user's own key. It links the payer to the recipient on chain; `tronpool relay withdraw`
//! does not.

use alloy_primitives::{B256, U256};
use clap::Args;
use serde::Serialize;
use tron::{Address, TxId};

use crate::error::{Error, Result};
use crate::service::builders::{EXPIRATION_MS, PreparedCall, SpentCheck, withdraw_calldata};
use crate::service::chain::Chain;
use crate::service::inputs::parse_units;
use crate::service::notes::{Payout, Proved, nullifier_hash_of, prove_withdrawal};
use crate::service::pools::word_hex;
use crate::store::notes::NoteStore;
use crate::store::trees::TreeCache;

use super::Context;
use super::input::confirm;
use super::session::{
    GivenNote, connect, given_note, key, notes, owner, print_unsigned, remember, spinner, sync,
    trees,
};

#[derive(Debug, Args)]
pub struct WithdrawArgs {
    /// The note: its id (`tronpool notes list`), `-` to read its text from stdin, or the text
    #[arg(value_name = "NOTE")]
    note: String,
    /// Who receives the USDT
    #[arg(long, value_name = "ADDRESS")]
    to: Address,
    /// TRX to send along to the recipient (paid by you), e.g. 5
    #[arg(long, value_name = "TRX")]
    refund: Option<String>,
    /// Sync, prove, verify and simulate, but send nothing
    #[arg(long, conflicts_with = "unsigned")]
    dry_run: bool,
    /// Print the unsigned transaction (the API's JSON) for an external signer instead
    #[arg(long)]
    unsigned: bool,
    /// With --unsigned: the address that will sign and pay (default: the signing key's)
    #[arg(long, value_name = "ADDRESS", requires = "unsigned")]
    from: Option<Address>,
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
    pub estimate: crate::service::builders::EnergySplit,
    pub proof: String,
}

impl DryRun {
    pub fn new(proved: &Proved, call: &PreparedCall) -> Self {
        let r = &proved.request;
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
}

/// `--refund TRX` in sun.
pub fn refund_sun(text: Option<&str>) -> Result<U256> {
    match text {
        None => Ok(U256::ZERO),
        Some(text) => parse_units(text, 6)
            .ok_or_else(|| Error::usage(format!("--refund `{text}` is not an amount of TRX"))),
    }
}

/// Syncs the pool's tree and withdrawals, refuses a spent note (recording it as withdrawn)
/// by the synced withdrawals, never by asking the node, then proves the withdrawal for
/// `payout`.
pub async fn prove(
    ctx: &Context,
    chain: &Chain,
    store: &NoteStore,
    trees: &TreeCache,
    given: &GivenNote,
    payout: Payout,
) -> Result<Proved> {
    let denomination = given.note.meta().denomination();
    let nullifier_hash: B256 = nullifier_hash_of(&given.note);
    let synced = sync(ctx, chain, trees, denomination).await?;
    if let Some(spent) = synced.is_spent(trees, nullifier_hash)? {
        if let Some(record) = &given.record
            && record.state != crate::store::notes::NoteState::Withdrawn
        {
            store.mark_withdrawn(record.id, Some(&spent.txid), Some(&spent.recipient))?;
        }
        return Err(Error::Conflict(format!(
            "the note is already spent: its {denomination} USDT were withdrawn in {}",
            spent.txid
        )));
    }
    let proving = spinner(ctx, "proving the withdrawal");
    let proved = prove_withdrawal(chain, &synced, &given.note, payout).await;
    proving.finish_and_clear();
    proved
}

impl WithdrawArgs {
    pub async fn run(self, ctx: &Context) -> Result<()> {
        let chain = connect(ctx).await?;
        let store = notes(ctx)?;
        let trees = trees(ctx)?;
        let mut given = given_note(ctx, &store, &self.note)?;
        let denomination = given.note.meta().denomination();
        let pool = chain.pool_address(denomination)?;
        let signer = if self.unsigned { None } else { Some(key(ctx)?) };
        let from = match &signer {
            Some(key) => key.address(),
            None => owner(ctx, self.from)?,
        };
        let refund = refund_sun(self.refund.as_deref())?;
        ctx.out.warn(format!(
            "a self-withdrawal is sent and paid for by {from}: anyone can see that it paid \
             {}; `tronpool relay withdraw` keeps the two apart",
            self.to
        ));
        let payout = Payout {
            from,
            recipient: self.to,
            relayer: None,
            fee: U256::ZERO,
            refund,
        };
        let proved = prove(ctx, &chain, &store, &trees, &given, payout).await?;
        let refund_sun = chain
            .check_withdrawal(&proved.request, SpentCheck::CheckedLocally)
            .await?;
        let call = chain
            .prepare_call(from, pool, refund_sun, withdraw_calldata(&proved.request))
            .await?;
        call.check_succeeds("the withdrawal")?;
        if self.dry_run {
            let out = DryRun::new(&proved, &call);
            return ctx.out.result(&out, || out.describe());
        }
        if let Some(shortfall) = call.shortfall("the withdrawal") {
            return Err(Error::Refused(shortfall));
        }
        let id = remember(&chain, &store, &mut given, "withdraw")?;
        let estimate = call.split;
        let mut tx = chain.transaction(call, EXPIRATION_MS).await?;
        let Some(key) = signer else {
            return print_unsigned(ctx, &tx);
        };
        confirm(
            ctx,
            "withdraw",
            &format!(
                "Withdraw {denomination} USDT to {} with note {id}, paid by {from}? ({})",
                self.to,
                estimate.describe()
            ),
        )?;
        tx.sign(&key)?;
        let info = chain.send_and_confirm(&tx, "the withdrawal").await?;
        store.mark_withdrawn(id, Some(&info.id.to_hex()), Some(&self.to.to_base58()))?;
        chain.pool_changed(denomination);
        let out = Withdrawn {
            txid: info.id,
            note_id: id,
            denomination,
            recipient: self.to,
            relayer: None,
            received_raw: (denomination * crate::service::inputs::USDT_UNIT).to_string(),
            fee_raw: "0".into(),
            refund_sun: refund.to_string(),
        };
        ctx.out.result(&out, || {
            format!(
                "withdrew {denomination} USDT to {} (note {id}): {}",
                self.to, info.id
            )
        })
    }
}
