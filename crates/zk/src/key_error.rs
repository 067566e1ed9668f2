//! Why a key could not be read, written or used: apart from [`crate::keys`], so the zkey
//! reader below it can answer with it without importing the keys that read through it.

#[derive(Debug, thiserror::Error)]
pub enum KeyError {
    #[error("{path}: {source}")]
    Io {
        path: String,
        #[source]
        source: std::io::Error,
    },
    #[error("{path} has SHA-256 {found}, expected {expected}: wrong or damaged key file")]
    HashMismatch {
        path: String,
        found: String,
        expected: String,
    },
    #[error("{what} is not a valid serialized key: {reason}")]
    Malformed { what: String, reason: String },
    #[error("the key does not fit the withdraw circuit: {0}")]
    WrongCircuit(String),
}
