//! Who may sign for an account. The devnet's accounts all keep java-tron's default
//! permission (the owner's key alone, threshold 1), so a transaction is valid when the owner,
//! and only the owner, signed it once.

use tron::{Address, Transaction};

use super::rejection::Rejection;

/// The signature check of java-tron's `validateSignature` for an account with the default
/// permission: signed, only by the owner, once.
pub(super) fn check_signers(
    tx: &Transaction,
    owner: Address,
    signers: Result<Vec<Address>, String>,
) -> Result<(), Rejection> {
    let sig_error =
        |detail: String| Rejection::new("SIGERROR", format!("Validate signature error: {detail}"));
    let signers = signers.map_err(sig_error)?;
    if signers.is_empty() {
        return Err(sig_error("miss sig or contract".into()));
    }
    for (signature, signer) in tx.signatures().iter().zip(&signers) {
        if *signer != owner {
            return Err(sig_error(format!(
                "{} is signed by {} but it is not contained of permission.",
                signature.to_hex(),
                signer.to_base58()
            )));
        }
    }
    if signers.len() > 1 {
        return Err(sig_error(format!(
            "{} has signed twice!",
            owner.to_base58()
        )));
    }
    Ok(())
}

/// What `wallet/getsignweight` reports of a transaction's signatures.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum SignWeight {
    /// The owner has no account.
    NoAccount,
    /// A signature recovers to someone the owner's permission does not contain.
    Foreign(Address),
    /// A signature that recovers to no key.
    Malformed(String),
    /// The signers the permission approves (empty: not signed).
    Approved(Vec<Address>),
}
