//! `tronpool deposit --denom N [--count K]`: asks for what it needs, hands the run to
//! `service::deposit::Deposits` (the note on disk before its deposit is signed) and prints the
//! notes.

use clap::Args;
use tron::{Address, PrivateKey};

use crate::error::Result;
use crate::service::deposit::{DepositSigner, Deposits};
use crate::service::progress::Progress;

use super::context::Context;
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
    /// Insert the deposits into the pool's tree at once with a batch proof, paid by your key
    /// (a queued pool; otherwise they wait for a batcher, such as `tronpool serve`'s)
    #[arg(long, conflicts_with = "unsigned")]
    insert: bool,
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
        let (progress, steps) = Progress::channel();
        let work = deposits.run(session.desk(), signer, &progress);
        let view = Steps::new(ctx, "deposit");
        let mut run = view.show(steps, work).await?;
        if let Some(error) = run.stopped.take() {
            // What went in before the failure: the notes still go to stdout.
            if !run.notes.is_empty() && !ctx.out.json {
                ctx.out.stdout(&run.note_lines())?;
            }
            return Err(error);
        }
        if self.insert && session.chain.queued() {
            let key = session
                .key
                .as_ref()
                .expect("the key is opened without --unsigned");
            run.inserted = super::pool::insert_queued(ctx, &session, key, self.denom).await?;
        } else if session.chain.queued() && !self.unsigned {
            ctx.out.note(format!(
                "the deposits wait in the {} USDT pool's queue until a batch inserts them; \
                 `tronpool pool insert --denom {}` inserts them now",
                self.denom, self.denom
            ));
        }
        if self.unsigned {
            ctx.out.note(
                "sign each transaction (`tronpool tx sign` or your wallet) and broadcast it; \
                 then `tronpool notes check` records the deposits",
            );
        }
        ctx.out.result(&run, || run.describe())
    }
}
