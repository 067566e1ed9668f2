//! `tronpool deposit --denom N [--count K]`: asks for what it needs, hands the run to
//! `service::deposit::Deposits` (the note on disk before its deposit is signed) and prints the
//! notes.

use clap::Args;
use tron::{Address, PrivateKey};

use crate::error::Result;
use crate::service::deposit::{DepositRun, DepositSigner, Deposited, Deposits};

use super::context::Context;
use super::input::Prompt;
use super::open::{Needs, Session};
use super::progress::Steps;

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

impl DepositArgs {
    pub async fn run(self, ctx: &Context) -> Result<()> {
        let mut deposits = Deposits::new(self.denom, self.count)?;
        let needs = Needs {
            pool: Some(self.denom),
            seed: !self.random,
            key: !self.unsigned || self.from.is_none(),
            note: None,
        };
        let mut session = Session::open(ctx, needs).await?;
        deposits.seed = session.seed.take();
        let signer = match (&session.key, self.unsigned) {
            (Some(key), false) => DepositSigner::Key(key),
            (key, _) => DepositSigner::Unsigned {
                from: self
                    .from
                    .or(key.as_ref().map(PrivateKey::address))
                    .expect("the key is opened when --from is not given"),
            },
        };
        let prompt = Prompt {
            ctx,
            command: "deposit",
        };
        let mut run = deposits
            .run(session.desk(), signer, &Steps::new(ctx), &prompt)
            .await?;
        warn_secret(ctx, &run.notes);
        if let Some(error) = run.stopped.take() {
            // What went in before the failure: the notes still go to stdout.
            if !run.notes.is_empty() && !ctx.out.json {
                ctx.out.stdout(&note_lines(&run.notes))?;
            }
            return Err(error);
        }
        if self.unsigned {
            ctx.out.note(
                "sign each transaction (`tronpool tx sign` or your wallet) and broadcast it; \
                 then `tronpool notes check` records the deposits",
            );
        }
        ctx.out.result(&run, || describe(&run))
    }
}

fn describe(run: &DepositRun) -> String {
    let mut text = note_lines(&run.notes);
    for transaction in run.notes.iter().filter_map(|d| d.transaction.as_ref()) {
        text.push_str(&serde_json::to_string(transaction).expect("JSON values serialize"));
        text.push('\n');
    }
    text
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
