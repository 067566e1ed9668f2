//! The one error type of tronpool, and the one table that turns it into an exit code (CLI)
//! and an HTTP status (API), so the two faces can never disagree about what went wrong.

use std::path::PathBuf;

use tron::{AddressError, KeyError, NodeError, TxError};

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
    /// A note or a proof is malformed or does not verify. Exit 5, HTTP 422.
    BadNote,
    /// No such pool (or, in the API, route). Exit 2, HTTP 404.
    NotFound,
    /// The nullifier is already spent, or already being relayed. Exit 4, HTTP 409.
    Conflict,
    /// A service that is switched off or cannot pay (the relayer). Exit 4, HTTP 503.
    Disabled,
    /// Encrypted secrets and a wrong (or no) passphrase. Exit 6, HTTP 403.
    Locked,
    /// Ctrl-C. Exit 130.
    Interrupted,
}

impl Kind {
    /// Every kind, in the order of the exit-code table.
    pub const ALL: [Kind; 10] = [
        Kind::Usage,
        Kind::Failed,
        Kind::Unavailable,
        Kind::Refused,
        Kind::BadNote,
        Kind::NotFound,
        Kind::Conflict,
        Kind::Disabled,
        Kind::Locked,
        Kind::Interrupted,
    ];

    /// The name the error envelope carries as `kind`.
    pub fn name(self) -> &'static str {
        match self {
            Kind::Usage => "usage",
            Kind::Failed => "failed",
            Kind::Unavailable => "unavailable",
            Kind::Refused => "refused",
            Kind::BadNote => "bad_note",
            Kind::NotFound => "not_found",
            Kind::Conflict => "conflict",
            Kind::Disabled => "disabled",
            Kind::Locked => "locked",
            Kind::Interrupted => "interrupted",
        }
    }

    pub fn from_name(name: &str) -> Option<Kind> {
        Kind::ALL.into_iter().find(|k| k.name() == name)
    }

    /// The kind an HTTP status stands for, for answers that carry no `kind` (an older server,
    /// a proxy): the inverse of [`Error::http_status`] where it is one to one.
    pub(crate) fn from_http_status(status: u16) -> Kind {
        match status {
            404 => Kind::NotFound,
            409 => Kind::Conflict,
            422 | 429 => Kind::Refused,
            503 => Kind::Disabled,
            502 | 504 => Kind::Unavailable,
            400..=499 => Kind::Usage,
            _ => Kind::Failed,
        }
    }
}

/// Why the config file could not be read: its own type, as the file is the first thing every
/// command reads and its errors name the file, line and column.
#[derive(Debug, thiserror::Error)]
pub enum ConfigError {
    #[error("config file {} does not exist", path.display())]
    Missing { path: PathBuf },
    #[error("cannot read config file {}: {source}", path.display())]
    Read {
        path: PathBuf,
        #[source]
        source: std::io::Error,
    },
    #[error("config file {}, line {line}, column {column}: {message}", path.display())]
    Parse {
        path: PathBuf,
        line: usize,
        column: usize,
        message: String,
    },
}

/// What went wrong in the local stores (the SQLite database, the vault, the files beside
/// them): what was being done, and SQLite's or the cipher's own error beneath it, kept as the
/// error's `source()`. Always a failure of this machine (exit 1, HTTP 500), never the user's
/// input; a wrong passphrase is [`Error::Locked`], a duplicate [`Error::Conflict`].
#[derive(Debug, thiserror::Error)]
pub enum StoreError {
    /// SQLite failed at `what`.
    #[error("{what}: {source}")]
    Sqlite {
        what: String,
        #[source]
        source: rusqlite::Error,
    },
    /// A stored value this version cannot read: damaged, or written by something else.
    #[error("{what}: {detail}")]
    Damaged { what: String, detail: String },
    /// A secret could not be sealed, opened or derived for a reason other than the
    /// passphrase.
    #[error("{what}: {detail}")]
    Crypto { what: String, detail: String },
    /// A file the store would write is already there, and may hold what must not be lost.
    #[error("{0}")]
    Occupied(String),
    /// PostgreSQL answered `what` with an error (not a lost connection).
    #[error("{what}: {source}")]
    Postgres {
        what: String,
        #[source]
        source: tokio_postgres::Error,
    },
    /// The shared database (PostgreSQL) cannot be reached: the server cannot record or read
    /// what its replicas share, so it answers 503 and sends nothing until it is back.
    #[error("{what}: the database is unavailable: {detail}")]
    Unreachable { what: String, detail: String },
    /// The database was written by a newer tronpool, which this one must not change.
    #[error(
        "the database has schema version {found}, written by a newer tronpool (this one knows \
         {known}): upgrade tronpool; nothing was changed"
    )]
    Newer { found: i64, known: i64 },
}

impl StoreError {
    /// SQLite's `source` while doing `what`.
    pub(crate) fn sqlite(what: impl Into<String>, source: rusqlite::Error) -> Error {
        Error::Store(StoreError::Sqlite {
            what: what.into(),
            source,
        })
    }

    /// A stored value of `what` that cannot be read, and why.
    pub fn damaged(what: impl Into<String>, detail: impl Into<String>) -> Error {
        Error::Store(StoreError::Damaged {
            what: what.into(),
            detail: detail.into(),
        })
    }

    /// A file that is there already and must not be overwritten; `message` names it and
    /// says what to do.
    pub fn occupied(message: impl Into<String>) -> Error {
        Error::Store(StoreError::Occupied(message.into()))
    }

    /// A secret of `what` that could not be sealed, opened or derived, and why.
    pub fn crypto(what: impl Into<String>, detail: impl Into<String>) -> Error {
        Error::Store(StoreError::Crypto {
            what: what.into(),
            detail: detail.into(),
        })
    }
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
    #[error(transparent)]
    Store(#[from] StoreError),
    /// JSON that should have been readable (or writable) was not: `what`, and serde's error.
    #[error("{what}: {source}")]
    Json {
        what: String,
        #[source]
        source: serde_json::Error,
    },
    /// The operating system refused `what` (the terminal, a signal handler, standard
    /// output) without a file to name.
    #[error("{what}: {source}")]
    Os {
        what: String,
        #[source]
        source: std::io::Error,
    },
    /// Another library's error while doing `what` (the proof system's, a URL's, the devnet's),
    /// kept as the source.
    #[error("{what}: {source}")]
    Caused {
        what: String,
        #[source]
        source: Box<dyn std::error::Error + Send + Sync>,
    },
    /// A background task doing `what` panicked or was cancelled.
    #[error("{what} stopped: {source}")]
    Task {
        what: String,
        #[source]
        source: tokio::task::JoinError,
    },
    /// The chain (or a check of what it would do) says no: unknown root, insufficient
    /// allowance, a simulated revert.
    #[error("{0}")]
    Refused(String),
    #[error("{0}")]
    NotFound(String),
    #[error("{0}")]
    Conflict(String),
    /// A note that cannot be read, or a proof made from one that does not verify: the same
    /// class (exit 5), named for the note the user holds.
    #[error("{0}")]
    BadNote(String),
    #[error("{0}")]
    Disabled(String),
    /// A service other than the node (a remote relayer) could not be reached.
    #[error("{0}")]
    Unavailable(String),
    /// The secrets are encrypted and the passphrase is wrong or missing.
    #[error("{0}")]
    Locked(String),
    #[error("interrupted")]
    Interrupted,
    /// One failure handed to every caller that waited on the same fetch (see
    /// `service::cache`); it reports as the original.
    #[error(transparent)]
    Shared(std::sync::Arc<Error>),
    /// An error with what the user can do about it (`"{error}; {hint}"`): the kind, exit code
    /// and status stay the error's own.
    #[error("{error}; {hint}")]
    Hinted { error: Box<Error>, hint: String },
}

impl Error {
    pub fn usage(message: impl Into<String>) -> Self {
        Error::Usage(message.into())
    }

    /// This error, followed by what to do about it; its kind does not change.
    pub(crate) fn with_hint(self, hint: impl Into<String>) -> Self {
        Error::Hinted {
            error: Box::new(self),
            hint: hint.into(),
        }
    }

    /// An error of `kind` with `message`: how a failure reported by another tronpool (a
    /// remote relayer's envelope) becomes ours again, with the same exit code and status.
    pub fn of_kind(kind: Kind, message: String) -> Self {
        match kind {
            Kind::Usage => Error::Usage(message),
            Kind::Failed | Kind::Interrupted => Error::Failed(message),
            Kind::Unavailable => Error::Unavailable(message),
            Kind::Refused => Error::Refused(message),
            Kind::BadNote => Error::BadNote(message),
            Kind::NotFound => Error::NotFound(message),
            Kind::Conflict => Error::Conflict(message),
            Kind::Disabled => Error::Disabled(message),
            Kind::Locked => Error::Locked(message),
        }
    }

    /// serde_json's `source` while reading or writing `what`.
    pub fn json(what: impl Into<String>, source: serde_json::Error) -> Self {
        Error::Json {
            what: what.into(),
            source,
        }
    }

    /// The operating system's `source` while doing `what`, with no file to name.
    pub fn os(what: impl Into<String>, source: std::io::Error) -> Self {
        Error::Os {
            what: what.into(),
            source,
        }
    }

    /// Another library's `source` while doing `what`.
    pub(crate) fn caused(
        what: impl Into<String>,
        source: impl std::error::Error + Send + Sync + 'static,
    ) -> Self {
        Error::Caused {
            what: what.into(),
            source: Box::new(source),
        }
    }

    /// A background task doing `what` that did not finish.
    pub fn task(what: impl Into<String>, source: tokio::task::JoinError) -> Self {
        Error::Task {
            what: what.into(),
            source,
        }
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
            Error::Store(StoreError::Unreachable { .. }) => Kind::Unavailable,
            Error::Node(NodeError::Refused { .. } | NodeError::Node { .. }) => Kind::Refused,
            Error::Node(_)
            | Error::Io { .. }
            | Error::Failed(_)
            | Error::Store(_)
            | Error::Json { .. }
            | Error::Os { .. }
            | Error::Caused { .. }
            | Error::Task { .. } => Kind::Failed,
            Error::Refused(_) => Kind::Refused,
            Error::NotFound(_) => Kind::NotFound,
            Error::Conflict(_) => Kind::Conflict,
            Error::BadNote(_) => Kind::BadNote,
            Error::Disabled(_) => Kind::Disabled,
            Error::Unavailable(_) => Kind::Unavailable,
            Error::Locked(_) => Kind::Locked,
            Error::Interrupted => Kind::Interrupted,
            Error::Shared(inner) => inner.kind(),
            Error::Hinted { error, .. } => error.kind(),
        }
    }

    /// The error itself, past any [`Error::Shared`] wrapping.
    fn root(&self) -> &Error {
        match self {
            Error::Shared(inner) => inner.root(),
            Error::Hinted { error, .. } => error.root(),
            other => other,
        }
    }

    /// The process exit status documented in `tronpool --help`.
    pub fn exit_code(&self) -> u8 {
        match self.kind() {
            Kind::Failed => 1,
            Kind::Usage | Kind::NotFound => 2,
            Kind::Unavailable => 3,
            Kind::Refused | Kind::Conflict | Kind::Disabled => 4,
            Kind::BadNote => 5,
            Kind::Locked => 6,
            Kind::Interrupted => 130,
        }
    }

    /// The HTTP status the API answers with.
    pub fn http_status(&self) -> u16 {
        match self.kind() {
            Kind::Usage => 400,
            Kind::NotFound => 404,
            Kind::Conflict => 409,
            Kind::Refused | Kind::BadNote => 422,
            Kind::Disabled => 503,
            Kind::Locked => 403,
            Kind::Unavailable => match self.root() {
                Error::Store(StoreError::Unreachable { .. }) => 503,
                Error::Node(NodeError::Timeout { .. }) => 504,
                _ => 502,
            },
            // A node that answered with something unreadable failed as an upstream.
            Kind::Failed if matches!(self.root(), Error::Node(_)) => 502,
            Kind::Failed | Kind::Interrupted => 500,
        }
    }
}

impl Error {
    /// The message a remote caller (an API client) may see: the same words for the caller's
    /// own mistakes and the chain's refusals, but never a node's URL (it may carry a
    /// provider's token or credentials), a local path, or an internal failure's detail.
    /// Those go to the server's log, with the request id the response carries.
    pub(crate) fn public_message(&self) -> String {
        if let Error::Hinted { error, hint } = self {
            return format!("{}; {hint}", error.public_message());
        }
        match self.root() {
            Error::Node(e) => public_node_message(e),
            Error::Store(StoreError::Unreachable { .. }) => {
                "the server's database is unavailable, so nothing was recorded or sent; try again \
                 later"
                    .into()
            }
            Error::Io { .. } => "internal error: a local file could not be read or written".into(),
            Error::Failed(_)
            | Error::Config(_)
            | Error::Store(_)
            | Error::Json { .. }
            | Error::Os { .. }
            | Error::Caused { .. }
            | Error::Task { .. } => "internal error (the server logged the details)".into(),
            Error::Unavailable(_) => "a service this server depends on is unavailable".into(),
            other => other.to_string(),
        }
    }
}

/// A node failure without the node's URL, or the body of whatever answered in its place.
pub(crate) fn public_node_message(e: &NodeError) -> String {
    match e {
        NodeError::Unreachable { .. } => "the TRON node could not be reached".into(),
        NodeError::Timeout { endpoint, .. } => {
            format!("the TRON node did not answer {endpoint} in time")
        }
        NodeError::Http {
            endpoint, status, ..
        } => format!("the TRON node answered HTTP {status} to {endpoint}"),
        NodeError::Decode { endpoint, .. } => format!("unexpected answer from {endpoint}"),
        other => other.to_string(),
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
        let spent = Error::Conflict("spent".into());
        assert_eq!((spent.exit_code(), spent.http_status()), (4, 409));
        let proof = Error::BadNote("does not verify".into());
        assert_eq!((proof.exit_code(), proof.http_status()), (5, 422));
        let pool = Error::NotFound("no pool".into());
        assert_eq!((pool.exit_code(), pool.http_status()), (2, 404));
        let locked = Error::Locked("wrong passphrase".into());
        assert_eq!((locked.exit_code(), locked.http_status()), (6, 403));
        let shared = Error::Shared(std::sync::Arc::new(timeout));
        assert_eq!((shared.exit_code(), shared.http_status()), (3, 504));
    }

    #[test]
    fn public_messages_name_no_node_and_no_path() {
        let secret = "https://user:token@node.example/jsonrpc";
        let unreachable = Error::Node(NodeError::Unreachable {
            url: secret.into(),
            reason: format!("error sending request for url ({secret})"),
        });
        let io = Error::io(
            "/home/op/.tronpool/secret",
            std::io::ErrorKind::Other.into(),
        );
        let shared = Error::Shared(std::sync::Arc::new(Error::Node(NodeError::Timeout {
            url: secret.into(),
            endpoint: "wallet/getnowblock".into(),
            after_ms: 5000,
        })));
        for e in [unreachable, io, shared] {
            let public = e.public_message();
            assert!(
                !public.contains("token") && !public.contains("/home"),
                "{public}"
            );
        }
        assert_eq!(Error::usage("bad").public_message(), "bad");
    }

    #[test]
    fn kinds_travel_by_name_and_come_back_the_same() {
        for kind in Kind::ALL {
            assert_eq!(Kind::from_name(kind.name()), Some(kind));
            let back = Error::of_kind(kind, "m".into());
            if kind != Kind::Interrupted {
                assert_eq!(back.kind(), kind, "{kind:?}");
            }
        }
        assert_eq!(Kind::from_name("nope"), None);
        // A bad proof and a refusal share 422; only the kind tells them apart.
        let proof = Error::of_kind(Kind::BadNote, "m".into());
        assert_eq!((proof.http_status(), proof.exit_code()), (422, 5));
        assert_eq!(Kind::from_http_status(422), Kind::Refused);
        assert_eq!(Kind::from_http_status(413), Kind::Usage);
    }

    #[test]
    fn a_hint_keeps_the_kind_the_status_and_the_privacy_of_its_error() {
        let timeout = Error::Node(NodeError::Timeout {
            url: "https://user:token@node.example".into(),
            endpoint: "wallet/broadcasthex".into(),
            after_ms: 20_000,
        })
        .with_hint("run `tronpool notes check 3`");
        assert_eq!(
            (timeout.kind(), timeout.exit_code(), timeout.http_status()),
            (Kind::Unavailable, 3, 504)
        );
        assert!(
            timeout
                .to_string()
                .ends_with("; run `tronpool notes check 3`")
        );
        let public = timeout.public_message();
        assert!(!public.contains("token"), "{public}");
        assert!(
            public.ends_with("; run `tronpool notes check 3`"),
            "{public}"
        );
        let refused = Error::Refused("no".into()).with_hint("a").with_hint("b");
        assert_eq!(
            (refused.to_string().as_str(), refused.exit_code()),
            ("no; a; b", 4)
        );
    }
}
