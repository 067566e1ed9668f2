//! How a workflow tells whoever runs it how far it has come, and asks them for a go-ahead.
//! The service never draws or prompts: the CLI renders each [`Step`] (bars, spinners, lines on
//! stderr) and answers [`Confirm`] at the terminal, or for `--yes`.

use crate::error::Result;
use crate::service::guidance::Guidance;
use crate::service::sync::SyncProgress;

/// What a workflow reports as it goes.
#[derive(Debug, Clone, Copy)]
pub enum Step<'a> {
    /// Syncing the pool of this denomination has begun.
    Syncing(u64),
    /// How far the sync has come (reported repeatedly).
    SyncAt(SyncProgress),
    /// The sync is over (done or failed).
    SyncDone,
    /// Proving the withdrawal has begun.
    Proving,
    /// The proving is over (done or failed).
    ProvingDone,
    /// What the withdrawal reveals, and warnings about it: reported before the confirmation.
    Guidance(&'a Guidance),
    /// A line for the person.
    Note(&'a str),
    /// Something the person should know went wrong, though the workflow goes on.
    Warning(&'a str),
}

/// Receives a workflow's steps.
pub trait Progress: Sync {
    fn step(&self, step: Step<'_>);
}

/// Asks whether to go on before something is sent. An answer other than yes is the error
/// the workflow returns (nothing was sent).
pub trait Confirm {
    fn confirm(&self, question: &str) -> Result<()>;
}
