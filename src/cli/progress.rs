//! Progress on a terminal: bars and spinners on stderr (only when a person is watching), and
//! [`Steps`], which renders a service workflow's steps.

use std::io::IsTerminal;
use std::time::Duration;

use indicatif::{ProgressBar, ProgressStyle};
use tokio::sync::mpsc::UnboundedReceiver;

use crate::error::Result;
use crate::service::chain::Chain;
use crate::service::guidance::Guidance;
use crate::service::progress::{Progress, Step};
use crate::service::sync::SyncedTree;
use crate::store::trees::TreeCache;

use super::context::Context;
use super::input::confirm;
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
    let (progress, steps) = Progress::channel();
    let work = crate::service::withdraw::sync(chain, trees, denomination, &progress);
    Steps::new(ctx, "sync").show(steps, work).await
}

/// A workflow's steps on stderr: a bar while syncing, a spinner while proving, lines for its
/// notes, the guidance before a withdrawal (its warnings even with `--json` or `--yes`), and
/// its questions asked at the terminal ([`confirm`]) for `command`.
pub(crate) struct Steps<'a> {
    ctx: &'a Context,
    command: &'a str,
    /// The bar or spinner showing now.
    showing: Option<ProgressBar>,
}

impl<'a> Steps<'a> {
    pub fn new(ctx: &'a Context, command: &'a str) -> Self {
        Steps {
            ctx,
            command,
            showing: None,
        }
    }

    /// Runs `work` to its end while rendering the steps it reports on `steps`; every step
    /// reported before it ended is shown before this returns.
    pub async fn show<T>(
        mut self,
        mut steps: UnboundedReceiver<Step>,
        work: impl Future<Output = T>,
    ) -> T {
        let mut work = std::pin::pin!(work);
        let done = loop {
            tokio::select! {
                biased;
                Some(step) = steps.recv() => self.render(step),
                done = &mut work => break done,
            }
        };
        while let Ok(step) = steps.try_recv() {
            self.render(step);
        }
        self.replace(None);
        done
    }

    fn replace(&mut self, shown: Option<ProgressBar>) {
        if let Some(old) = std::mem::replace(&mut self.showing, shown) {
            old.finish_and_clear();
        }
    }

    fn render(&mut self, step: Step) {
        let out = &self.ctx.out;
        match step {
            Step::Syncing(denomination) => self.replace(Some(bar_on(
                out,
                &format!("syncing the {denomination} USDT pool"),
            ))),
            Step::SyncAt(p) => {
                if let Some(bar) = &self.showing {
                    bar.set_length(p.target);
                    bar.set_position(p.have);
                }
            }
            Step::Proving => self.replace(Some(spinner_on(out, "proving the withdrawal"))),
            Step::SyncDone | Step::ProvingDone => self.replace(None),
            Step::Guidance(guidance) => guide(out, &guidance),
            Step::Note(text) => out.note(text),
            Step::Warning(text) => out.warn(text),
            Step::Ask(question) => {
                let answer = confirm(self.ctx, self.command, &question.text);
                question.answer(answer);
            }
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
