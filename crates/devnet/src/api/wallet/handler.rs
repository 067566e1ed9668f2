//! What every `/wallet/*` handler works with: its answer, the state a request reads, the
//! checks the handlers share, and the names they all use (re-exported here so that each
//! handler file imports this module and never the dispatcher above it).

pub(super) use axum::response::Response;
pub(super) use serde_json::{Map, Value, json};
pub(super) use tron::proto::{CreateSmartContract, SmartContract};
pub(super) use tron::transaction::{DEFAULT_EXPIRATION_MS, now_ms};
pub(super) use tron::{Action, Address, Transaction, TransactionBuilder, Trigger, TxId};

pub(super) use crate::Shared;
pub(super) use crate::api::{Params, java_error, render};
pub(super) use crate::chain::permission::SignWeight;
pub(super) use crate::chain::receipt::ContractRet;
pub(super) use crate::chain::{Ledger, Rejection, recover_signers};

/// A handler's answer: java-tron's JSON, or the response java-tron gives for the failure.
pub(super) type Answer = Result<Value, Response>;

pub(super) fn required_address(p: &Params, key: &str) -> Result<Address, Response> {
    p.address(key)?.ok_or_else(|| {
        java_error(
            "java.lang.NullPointerException",
            format!("{key} isn't set."),
        )
    })
}

/// Runs `f` on the state a request reads: the pending state (java-tron's FullNode answers
/// from its pending session, `Manager.pushTransaction`), or the head block's for
/// `/walletsolidity/*`, whose node has no pending transactions.
pub(super) fn with_state<R>(shared: &Shared, p: &Params, f: impl FnOnce(&mut Ledger) -> R) -> R {
    let mut chain = shared.lock();
    if p.solidity {
        chain.with_sealed_state(f)
    } else {
        f(&mut chain)
    }
}

pub(super) fn validate_error(message: impl std::fmt::Display) -> Response {
    java_error("org.tron.core.exception.ContractValidateException", message)
}
