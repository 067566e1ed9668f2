//! `tronpool withdraw NOTE --to ADDRESS`: a self-withdrawal, signed and paid for by the
//! user's own key (`service::withdraw`). It links the payer to the recipient on chain;
//! `tronpool relay withdraw` does not.

use clap::Args;
use tron::Address;

use crate::error::Result;
use crate::service::insert;
use crate::service::progress::Progress;
use crate::service::withdraw::{SelfWithdrawal, SelfWithdrawn, Signer};

use super::context::Context;
use super::input::refund_sun;
use super::open::Session;
use super::progress::Steps;
use super::signing::print_unsigned;

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
    /// When the note's deposit still waits in its pool's queue, insert it first with a batch
    /// proof (paid by your key; the batch's insertion fees are credited to you)
    #[arg(long, conflicts_with_all = ["unsigned", "dry_run"])]
    insert: bool,
}

impl WithdrawArgs {
    pub async fn run(self, ctx: &Context) -> Result<()> {
        let key = !self.unsigned || self.from.is_none();
        let (session, given) = Session::with_note(ctx, &self.note, key).await?;
        let key = session.key.as_ref().filter(|_| !self.unsigned);
        let from = match (self.from, &session.key) {
            (Some(from), _) if self.unsigned => from,
            (_, Some(key)) => key.address(),
            (_, None) => unreachable!("the key is opened unless --unsigned --from is given"),
        };
        let refund = refund_sun(self.refund.as_deref())?;
        ctx.out.warn(format!(
            "a self-withdrawal is sent and paid for by {from}: anyone can see that it paid \
             {}; `tronpool relay withdraw` keeps the two apart",
            self.to
        ));
        if let Some(key) = key.filter(|_| self.insert) {
            let denomination = given.note.meta().denomination();
            let commitment = crate::service::notes::commitment_of(&given.note);
            let stores = (&*session.chain, &session.trees);
            if insert::is_queued(stores, denomination, commitment).await? {
                super::pool::insert_queued(ctx, &session, key, denomination).await?;
            }
        }
        let signer = match key {
            _ if self.dry_run => Signer::DryRun { from },
            Some(key) => Signer::Key(key),
            None => Signer::Unsigned { from },
        };
        let withdrawal = SelfWithdrawal {
            note: given,
            recipient: self.to,
            refund,
        };
        let (progress, steps) = Progress::channel();
        let work = withdrawal.run(session.desk(), signer, &progress);
        let view = Steps::new(ctx, "withdraw");
        let done = view.show(steps, work).await?;
        match done {
            SelfWithdrawn::DryRun(out) => ctx.out.result(&out, || out.describe()),
            SelfWithdrawn::Unsigned(tx) => print_unsigned(ctx, &tx),
            SelfWithdrawn::Withdrawn(out) => ctx.out.result(&out, || out.describe()),
        }
    }
}
