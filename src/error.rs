//! The one error type of tronpool, and the one table that turns it into an exit code (CLI)
//! and an HTTP status (API), so the two faces can never disagree about what went wrong.

use std::path::PathBuf;

use tron::{AddressError, KeyError, NodeError, TxError};

use crate::store::config::ConfigError;

/// What kind of failure, independent of how it is reported.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Kind {
    /// Bad input: arguments, files, request bodies. Exit 2, HTTP 400.
    Usage,
    /// The operation failed for another reason. Exit 1, HTTP 500.
    Failed,
    /// The node could not be reached or did not answer in time. Exit 3, HTTP 502/504.
    Unavailable,
    /// The chain, the node or a relayer said no. Exit 4, HTTP 422.
    Refused,
    /// A note or a proof is malformed or does not verify. Exit 5, HTTP 400.
    BadNote,
    /// Ctrl-C. Exit 130.
    Interrupted,
}

#[derive(Debug, thiserror::Error)]
pub enum Error {
    #[error("{0}")]
    Usage(String),
    #[error(transparent)]
    Config(#[from] ConfigError),
    #[error(transparent)]
    Node(#[from] NodeError),
    #[error(transparent)]
    Tx(#[from] TxError),
    #[error("bad private key: {0}")]
    Key(#[from] KeyError),
    #[error("{0}")]
    Address(#[from] AddressError),
    #[error("{}: {source}", path.display())]
    Io {
        path: PathBuf,
        #[source]
        source: std::io::Error,
    },
    #[error("{0}")]
    Failed(String),
    #[error("interrupted")]
    Interrupted,
}

impl Error {
    pub fn usage(message: impl Into<String>) -> Self {
        Error::Usage(message.into())
    }

    pub fn io(path: impl Into<PathBuf>, source: std::io::Error) -> Self {
        Error::Io {
            path: path.into(),
            source,
        }
    }

    pub fn kind(&self) -> Kind {
        match self {
            Error::Usage(_)
            | Error::Config(_)
            | Error::Tx(_)
            | Error::Key(_)
            | Error::Address(_) => Kind::Usage,
            Error::Node(e) if e.is_unavailable() => Kind::Unavailable,
            Error::Node(NodeError::Refused { .. } | NodeError::Node { .. }) => Kind::Refused,
            Error::Node(_) | Error::Io { .. } | Error::Failed(_) => Kind::Failed,
            Error::Interrupted => Kind::Interrupted,
        }
    }

    /// The process exit status documented in `tronpool --help`.
    pub fn exit_code(&self) -> u8 {
        match self.kind() {
            Kind::Failed => 1,
            Kind::Usage => 2,
            Kind::Unavailable => 3,
            Kind::Refused => 4,
            Kind::BadNote => 5,
            Kind::Interrupted => 130,
        }
    }

    /// The HTTP status the API answers with.
    pub fn http_status(&self) -> u16 {
        match self.kind() {
            Kind::Usage | Kind::BadNote => 400,
            Kind::Refused => 422,
            Kind::Unavailable => match self {
                Error::Node(NodeError::Timeout { .. }) => 504,
                _ => 502,
            },
            Kind::Failed | Kind::Interrupted => 500,
        }
    }
}

pub type Result<T, E = Error> = std::result::Result<T, E>;

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn one_table_for_both_faces() {
        let unreachable = Error::Node(NodeError::Unreachable {
            url: "http://127.0.0.1:1".into(),
            reason: "refused".into(),
        });
        assert_eq!(
            (unreachable.exit_code(), unreachable.http_status()),
            (3, 502)
        );
        let timeout = Error::Node(NodeError::Timeout {
            url: "u".into(),
            endpoint: "e".into(),
            after_ms: 1000,
        });
        assert_eq!((timeout.exit_code(), timeout.http_status()), (3, 504));
        let refused = Error::Node(NodeError::Refused {
            endpoint: "wallet/broadcasthex".into(),
            code: "SIGERROR".into(),
            message: "bad".into(),
        });
        assert_eq!((refused.exit_code(), refused.http_status()), (4, 422));
        let usage = Error::usage("nope");
        assert_eq!((usage.exit_code(), usage.http_status()), (2, 400));
        assert_eq!(Error::Interrupted.exit_code(), 130);
    }
}
