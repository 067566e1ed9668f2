//! Why the broadcast pipeline refused a transaction, in java-tron's words: below the ledger and
//! its actuators, which all refuse with it.

/// Why the broadcast pipeline refused a transaction: java-tron's `response_code` name and
/// its message.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("{code}: {message}")]
pub struct Rejection {
    pub code: &'static str,
    pub message: String,
}

impl Rejection {
    pub(crate) fn new(code: &'static str, message: impl Into<String>) -> Self {
        Rejection {
            code,
            message: message.into(),
        }
    }

    pub(crate) fn validate(detail: impl std::fmt::Display) -> Self {
        Self::new(
            "CONTRACT_VALIDATE_ERROR",
            format!("Contract validate error : {detail}"),
        )
    }
}
