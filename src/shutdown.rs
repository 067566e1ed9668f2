//! Stopping on Ctrl-C or SIGTERM, for the long-running commands (`devnet`, `serve`).
//!
//! The handlers are registered when a [`Shutdown`] is created, not when it is awaited: a
//! supervisor (or a test) that signals the moment the process has announced itself must get
//! a clean stop, never the default action that kills the process with the state unsaved.

use std::io;

/// Registered signal handlers; [`Shutdown::wait`] resolves on the first signal.
pub(crate) struct Shutdown {
    #[cfg(unix)]
    interrupt: tokio::signal::unix::Signal,
    #[cfg(unix)]
    terminate: tokio::signal::unix::Signal,
}

impl Shutdown {
    /// Registers for SIGINT and SIGTERM (Ctrl-C elsewhere). Must be called inside a runtime.
    pub(crate) fn register() -> io::Result<Self> {
        #[cfg(unix)]
        {
            use tokio::signal::unix::{SignalKind, signal};
            Ok(Self {
                interrupt: signal(SignalKind::interrupt())?,
                terminate: signal(SignalKind::terminate())?,
            })
        }
        #[cfg(not(unix))]
        {
            Ok(Self {})
        }
    }

    /// Resolves when a stop was asked for.
    pub async fn wait(mut self) {
        #[cfg(unix)]
        {
            tokio::select! {
                _ = self.interrupt.recv() => {}
                _ = self.terminate.recv() => {}
            }
        }
        #[cfg(not(unix))]
        {
            let _ = tokio::signal::ctrl_c().await;
        }
    }
}
