//! Progress on a terminal: bars and spinners on stderr (only when a person is watching), and
//! [`Steps`], which renders a service workflow's steps.

use std::io::IsTerminal;
use std::sync::Mutex;
use std::time::Duration;

use indicatif::{ProgressBar, ProgressStyle};

use crate::error::Result;
use crate::service::chain::Chain;
use crate::service::guidance::Guidance;
use crate::service::progress::{Progress, Step};
use crate::service::sync::SyncedTree;
use crate::store::trees::TreeCache;

use super::context::Context;
use super::output::Output;

/// A progress bar on stderr, only when a person is watching.
pub(crate) fn bar(ctx: &Context, message: &str) -> ProgressBar {
    bar_on(&ctx.out, message)
}

fn bar_on(out: &Output, message: &str) -> ProgressBar {
    if !watched(out) {
        return ProgressBar::hidden();
    }
    let bar = ProgressBar::new(0);
    bar.set_style(
        ProgressStyle::with_template("{msg} [{bar:30}] {pos}/{len} ({eta})")
            .expect("a valid template")
            .progress_chars("=> "),
    );
    bar.set_message(message.to_owned());
    bar
}

/// A spinner on stderr for a step without a count (proving), only when a person is watching.
pub fn spinner(ctx: &Context, message: &str) -> ProgressBar {
    spinner_on(&ctx.out, message)
}

fn spinner_on(out: &Output, message: &str) -> ProgressBar {
    if !watched(out) {
        return ProgressBar::hidden();
    }
    let spinner = ProgressBar::new_spinner();
    spinner.set_message(message.to_owned());
    spinner.enable_steady_tick(Duration::from_millis(100));
    spinner
}

/// Whether a person watches stderr for progress.
fn watched(out: &Output) -> bool {
    !out.json && !out.quiet && std::io::stderr().is_terminal()
}

/// Syncs a pool's tree with a progress bar.
pub async fn sync(
    ctx: &Context,
    chain: &Chain,
    trees: &TreeCache,
    denomination: u64,
) -> Result<SyncedTree> {
    crate::service::withdraw::sync(chain, trees, denomination, &Steps::new(ctx)).await
}

/// A workflow's steps on stderr: a bar while syncing, a spinner while proving, lines for its
/// notes, and the guidance before a withdrawal (its warnings even with `--json` or `--yes`).
pub(crate) struct Steps {
    out: Output,
    /// The bar or spinner showing now.
    showing: Mutex<Option<ProgressBar>>,
}

impl Steps {
    pub fn new(ctx: &Context) -> Self {
        Steps {
            out: ctx.out,
            showing: Mutex::new(None),
        }
    }

    fn show(&self, shown: Option<ProgressBar>) {
        let mut showing = self.showing.lock().unwrap_or_else(|e| e.into_inner());
        if let Some(old) = std::mem::replace(&mut *showing, shown) {
            old.finish_and_clear();
        }
    }
}

impl Progress for Steps {
    fn step(&self, step: Step<'_>) {
        match step {
            Step::Syncing(denomination) => self.show(Some(bar_on(
                &self.out,
                &format!("syncing the {denomination} USDT pool"),
            ))),
            Step::SyncAt(p) => {
                let showing = self.showing.lock().unwrap_or_else(|e| e.into_inner());
                if let Some(bar) = &*showing {
                    bar.set_length(p.target);
                    bar.set_position(p.have);
                }
            }
            Step::Proving => self.show(Some(spinner_on(&self.out, "proving the withdrawal"))),
            Step::SyncDone | Step::ProvingDone => self.show(None),
            Step::Guidance(guidance) => guide(&self.out, guidance),
            Step::Note(text) => self.out.note(text),
            Step::Warning(text) => self.out.warn(text),
        }
    }
}

/// The guidance before a withdrawal: the anonymity set and the time since the deposit as a
/// note, each warning as a warning.
fn guide(out: &Output, guidance: &Guidance) {
    out.note(guidance.describe());
    for warning in &guidance.warnings {
        out.warn(&warning.message);
    }
}
