//! A check and how it went: what `deploy`, `deploy --check` and the client's code check
//! report, one per contract or property, and the one refusal the failed ones make.

use serde::Serialize;

use crate::error::{Error, Result};

/// One check and how it went.
#[derive(Debug, Clone, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct Check {
    pub check: String,
    pub ok: bool,
    /// Not run (`detail` says why and how to run it); `ok` is then true: nothing failed.
    #[serde(skip_serializing_if = "std::ops::Not::not")]
    pub skipped: bool,
    pub detail: String,
}

impl Check {
    pub(crate) fn new(check: impl Into<String>, ok: bool, detail: impl Into<String>) -> Self {
        Check {
            check: check.into(),
            ok,
            skipped: false,
            detail: detail.into(),
        }
    }

    pub(crate) fn skipped(check: impl Into<String>, detail: impl Into<String>) -> Self {
        Check {
            skipped: true,
            ..Check::new(check, true, detail)
        }
    }
}

/// `Err` naming every failed check after `lead`, or `Ok` when all passed (a skipped check
/// is `ok`).
pub fn failures(checks: &[Check], lead: &str) -> Result<()> {
    let failed: Vec<String> = checks
        .iter()
        .filter(|c| !c.ok)
        .map(|c| format!("{}: {}", c.check, c.detail))
        .collect();
    if failed.is_empty() {
        return Ok(());
    }
    Err(Error::Refused(format!("{lead}: {}", failed.join("; "))))
}
