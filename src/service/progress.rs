//! How a workflow tells whoever runs it how far it has come, and asks them for a go-ahead.
//!
//! The service never draws or prompts, and never calls into the code that runs it: a workflow
//! sends each [`Step`] down a channel ([`Progress`]), and the caller renders the other end
//! (the CLI: bars, spinners and lines on stderr, questions at the terminal or answered by
//! `--yes`). A question travels as a step with its own reply channel, so the workflow waits
//! for the answer without knowing who gives it.

use tokio::sync::{mpsc, oneshot};

use crate::error::{Error, Result};
use crate::service::guidance::Guidance;
use crate::service::sync::SyncProgress;

/// What a workflow reports as it goes.
#[derive(Debug)]
pub enum Step {
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
    Guidance(Guidance),
    /// A line for the person.
    Note(String),
    /// Something the person should know went wrong, though the workflow goes on.
    Warning(String),
    /// Whether to go on before something is sent: the workflow waits for the answer.
    Ask(Question),
}

/// A question a workflow waits on. An answer other than yes is the error the workflow
/// returns (nothing was sent); a question dropped unanswered counts as no.
#[derive(Debug)]
pub struct Question {
    pub text: String,
    reply: oneshot::Sender<Result<()>>,
}

impl Question {
    /// Answers the question: `Ok` to go on, or why not.
    pub fn answer(self, answer: Result<()>) {
        // The workflow may be gone (it failed elsewhere); then nobody needs the answer.
        let _ = self.reply.send(answer);
    }
}

/// The sending end a workflow reports its steps to.
#[derive(Debug, Clone)]
pub struct Progress {
    steps: mpsc::UnboundedSender<Step>,
}

impl Progress {
    /// A workflow's progress and the steps it will report, for the caller to render.
    pub fn channel() -> (Progress, mpsc::UnboundedReceiver<Step>) {
        let (steps, shown) = mpsc::unbounded_channel();
        (Progress { steps }, shown)
    }

    /// Reports a step; a caller that stopped listening loses nothing it asked for.
    pub fn step(&self, step: Step) {
        let _ = self.steps.send(step);
    }

    pub fn note(&self, text: impl Into<String>) {
        self.step(Step::Note(text.into()));
    }

    pub fn warn(&self, text: impl Into<String>) {
        self.step(Step::Warning(text.into()));
    }

    /// Asks `question` and waits for the answer.
    pub async fn confirm(&self, question: String) -> Result<()> {
        let (reply, answer) = oneshot::channel();
        self.step(Step::Ask(Question {
            text: question,
            reply,
        }));
        answer.await.unwrap_or_else(|_| Err(unanswered()))
    }
}

fn unanswered() -> Error {
    Error::Failed("nobody answered the confirmation; nothing was sent".into())
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The workflow gets the answer given; a question nobody answers, or asked when nobody
    /// listens, is a no (nothing is sent), never a hang.
    #[tokio::test]
    async fn a_question_gets_its_answer_and_an_unanswered_one_is_a_no() {
        let (progress, mut steps) = Progress::channel();
        let asked = tokio::spawn({
            let progress = progress.clone();
            async move { progress.confirm("go?".into()).await }
        });
        match steps.recv().await {
            Some(Step::Ask(question)) => {
                assert_eq!(question.text, "go?");
                question.answer(Ok(()));
            }
            other => panic!("expected a question, got {other:?}"),
        }
        asked.await.unwrap().unwrap();

        let dropped = tokio::spawn({
            let progress = progress.clone();
            async move { progress.confirm("go?".into()).await }
        });
        drop(steps.recv().await);
        assert!(
            dropped.await.unwrap().is_err(),
            "a dropped question is a no"
        );

        drop(steps);
        assert!(
            progress.confirm("go?".into()).await.is_err(),
            "nobody listens"
        );
    }
}
