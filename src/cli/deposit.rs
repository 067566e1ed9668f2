//! `tronpool deposit --denom N [--count K]`: make notes and deposit them, each one through
//! `service::deposit` (the note on disk before its deposit is signed).

use clap::Args;
use serde::Serialize;
use tron::{Address, TxId};
use zk::note::{Note, NoteMeta};

use crate::service::deposit::{deposit_one, funding, new_note, resume};
use crate::service::journal::Journal;

use crate::error::{Error, Result};
use crate::service::builders::Unsigned;
use crate::service::chain::Chain;
use crate::service::format::{six_decimals_text, word_hex};
use crate::service::notes::commitment_of;
use crate::service::seed::Seed;
use crate::store::notes::NoteStore;

use super::Context;
use super::input::confirm;
use super::open::{connect, journal, key, notes, owner, seed};
use super::signing::sign_and_confirm;

/// One command deposits at most this many notes: each is a transaction to wait for.
const MAX_COUNT: u64 = 100;

#[derive(Debug, Args)]
pub struct DepositArgs {
    /// The pool: its denomination in USDT (100, 500, 1000, 3000, 5000, 10000)
    #[arg(long, value_name = "N")]
    denom: u64,
    /// How many deposits (one note each)
    #[arg(long, value_name = "K", default_value_t = 1)]
    count: u64,
    /// Store the notes and print unsigned deposits (the API's JSON) for an external signer;
    /// `tronpool notes check` settles them once they are broadcast
    #[arg(long)]
    unsigned: bool,
    /// With --unsigned: the address that will sign (default: the signing key's)
    #[arg(long, value_name = "ADDRESS", requires = "unsigned")]
    from: Option<Address>,
    /// Make random notes even though a mnemonic is stored (such notes cannot be recovered
    /// from the mnemonic: back them up with `tronpool notes export`)
    #[arg(long)]
    random: bool,
}

/// A deposited (or, with `--unsigned`, prepared) note.
#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
struct Deposited {
    id: i64,
    /// The secret: the only way to withdraw.
    note: String,
    denomination: u64,
    pool: Address,
    commitment: String,
    #[serde(skip_serializing_if = "Option::is_none")]
    leaf_index: Option<u32>,
    txid: TxId,
    #[serde(skip_serializing_if = "Option::is_none")]
    transaction: Option<serde_json::Value>,
}

#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
struct Out {
    #[serde(skip_serializing_if = "Option::is_none")]
    approve_txid: Option<TxId>,
    notes: Vec<Deposited>,
}

impl DepositArgs {
    pub async fn run(self, ctx: &Context) -> Result<()> {
        if !(1..=MAX_COUNT).contains(&self.count) {
            return Err(Error::usage(format!("--count must be 1 to {MAX_COUNT}")));
        }
        let chain = connect(ctx).await?;
        let pool = chain.pool_address(self.denom)?;
        let store = notes(ctx)?;
        let journal = journal(ctx)?;
        finish_earlier(ctx, &chain, &store, &journal).await?;
        let seed = if self.random { None } else { seed(ctx)? };
        if seed.is_some() {
            ctx.out
                .note("notes are derived from the stored mnemonic (`notes recover` finds them)");
        }
        if self.unsigned {
            return self
                .unsigned(ctx, &chain, &store, pool, seed.as_ref())
                .await;
        }
        let key = key(ctx)?;
        let from = key.address();
        let funding = funding(&chain, from, self.denom, self.count).await?;
        let mut approve_txid = None;
        if let Some(built) = funding.approval {
            confirm(
                ctx,
                "deposit",
                &format!(
                    "The pool may take {} USDT from {from}; approve exactly {} USDT first? ({})",
                    six_decimals_text(funding.allowance),
                    six_decimals_text(funding.needed),
                    built.estimate.describe()
                ),
            )?;
            let txid = sign_and_confirm(&chain, built.transaction, &key, "the approval").await?;
            ctx.out.note(format!(
                "approved {} USDT: {txid}",
                six_decimals_text(funding.needed)
            ));
            approve_txid = Some(txid);
        }
        // What one deposit would cost now, priced on a throwaway commitment (never stored or
        // sent); every deposit of the run costs about the same.
        let sample = Note::generate(
            NoteMeta::usdt(self.denom, &chain.network)
                .map_err(|e| Error::Failed(format!("cannot make a note: {e}")))?,
        );
        let estimate = chain
            .deposit_transaction(from, self.denom, commitment_of(&sample))
            .await?
            .estimate;
        confirm(
            ctx,
            "deposit",
            &format!(
                "Deposit {} × {} USDT from {from} into {pool} on {}? (each: {})",
                self.count,
                self.denom,
                chain.network,
                estimate.describe()
            ),
        )?;
        let mut deposited = Vec::new();
        for _ in 0..self.count {
            let (id, note) = new_note(&chain, &store, self.denom, "deposit", seed.as_ref())?;
            ctx.out.note(format!("note {id} stored"));
            let result =
                deposit_one(&chain, &store, &journal, &key, id, &note, self.denom, pool).await;
            let (txid, leaf) = match result {
                Ok(done) => done,
                Err(e) => {
                    print_notes(ctx, &deposited)?;
                    return Err(e);
                }
            };
            ctx.out.note(format!(
                "deposited {} USDT as leaf {leaf}: {txid}",
                self.denom
            ));
            deposited.push(Deposited {
                id,
                note: note.to_text().to_string(),
                denomination: self.denom,
                pool,
                commitment: word_hex(&commitment_of(&note)),
                leaf_index: Some(leaf),
                txid,
                transaction: None,
            });
        }
        warn_secret(ctx, &deposited);
        let out = Out {
            approve_txid,
            notes: deposited,
        };
        ctx.out.result(&out, || note_lines(&out.notes))
    }

    async fn unsigned(
        &self,
        ctx: &Context,
        chain: &Chain,
        store: &NoteStore,
        pool: Address,
        seed: Option<&Seed>,
    ) -> Result<()> {
        let from = owner(ctx, self.from)?;
        let mut prepared = Vec::new();
        for _ in 0..self.count {
            let (id, note) = new_note(chain, store, self.denom, "deposit", seed)?;
            let tx = chain
                .deposit_transaction(from, self.denom, commitment_of(&note))
                .await;
            let tx = match tx {
                Ok(built) => built.transaction,
                Err(e) => {
                    store.mark_failed(id, &format!("not sent: {e}"))?;
                    return Err(e);
                }
            };
            // The txid does not depend on the signature: `notes check` can look it up.
            store.set_deposit_tx(id, &tx.txid().to_hex(), tx.expiration())?;
            prepared.push(Deposited {
                id,
                note: note.to_text().to_string(),
                denomination: self.denom,
                pool,
                commitment: word_hex(&commitment_of(&note)),
                leaf_index: None,
                txid: tx.txid(),
                transaction: Some(Unsigned::new(&tx).transaction),
            });
        }
        warn_secret(ctx, &prepared);
        ctx.out.note(
            "sign each transaction (`tronpool tx sign` or your wallet) and broadcast it; \
             then `tronpool notes check` records the deposits",
        );
        let out = Out {
            approve_txid: None,
            notes: prepared,
        };
        ctx.out.result(&out, || {
            let mut text = note_lines(&out.notes);
            for d in &out.notes {
                text.push_str(
                    &serde_json::to_string(d.transaction.as_ref().expect("set above"))
                        .expect("JSON values serialize"),
                );
                text.push('\n');
            }
            text
        })
    }
}

/// Finishes the deposits an earlier run signed but did not see to the end, and says how each
/// ended.
async fn finish_earlier(
    ctx: &Context,
    chain: &Chain,
    store: &NoteStore,
    journal: &Journal,
) -> Result<()> {
    for done in resume(chain, store, journal).await? {
        match done.result {
            Ok(leaf) => ctx.out.note(format!(
                "note {}'s deposit from an earlier run went in as leaf {leaf}: {}",
                done.note, done.txid
            )),
            Err(e) => ctx.out.warn(format!(
                "note {}'s deposit from an earlier run ({}) did not go in: {e}",
                done.note, done.txid
            )),
        }
    }
    Ok(())
}

fn warn_secret(ctx: &Context, notes: &[Deposited]) {
    if notes.is_empty() {
        return;
    }
    let ids: Vec<String> = notes.iter().map(|n| n.id.to_string()).collect();
    ctx.out.warn(format!(
        "each note is the only way to withdraw its deposit: keep it secret and safe. A copy is \
         stored as note {} (`tronpool notes show ID`); back it up with `tronpool notes export`.",
        ids.join(", ")
    ));
}

fn note_lines(notes: &[Deposited]) -> String {
    notes.iter().map(|n| format!("{}\n", n.note)).collect()
}

/// What was deposited before a later deposit failed: the notes still go to stdout.
fn print_notes(ctx: &Context, notes: &[Deposited]) -> Result<()> {
    if notes.is_empty() || ctx.out.json {
        return Ok(());
    }
    warn_secret(ctx, notes);
    ctx.out.stdout(&note_lines(notes))
}
