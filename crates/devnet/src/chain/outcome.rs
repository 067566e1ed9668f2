//! revm's side of a contract run, in TRON's terms: the transaction revm is given, and what
//! its result becomes (java-tron's `contractResult` codes and messages, energy, logs).

use alloy_primitives::{Bytes, U256};
use revm::context::TxEnv;
use revm::context::result::{ExecutionResult, HaltReason, Output};
use revm::primitives::TxKind;
use tron::Address;

use super::evm;
use super::receipt::{ContractRet, LogEntry};

/// The outcome of a call that is not committed (`triggerconstantcontract`, `estimateenergy`).
#[derive(Clone, Debug)]
pub struct CallOutcome {
    pub ret: ContractRet,
    /// Return data, or revert data.
    pub output: Vec<u8>,
    pub energy_used: i64,
    /// The part of `energy_used` that dynamic energy added (java-tron's
    /// `energy_penalty_total`).
    pub energy_penalty: i64,
    pub logs: Vec<LogEntry>,
    /// Why it failed, as java-tron words it.
    pub message: Option<String>,
    /// The run's modeled java-tron CPU time ([`cpu`]), in µs.
    pub cpu_time_us: i64,
}

/// The revm transaction for a TRON call or creation: no nonce and no gas price (TRON charges
/// energy itself, in `Ledger::charge`), the energy limit as the gas limit.
pub(super) fn tx_env(
    owner: Address,
    kind: TxKind,
    data: Vec<u8>,
    value: i64,
    energy_limit: u64,
    chain_id: u64,
) -> TxEnv {
    TxEnv::builder()
        .caller(owner.into())
        .kind(kind)
        .data(Bytes::from(data))
        .value(U256::from(value.max(0) as u64))
        .nonce(0)
        .gas_limit(energy_limit)
        .gas_price(0)
        .chain_id(Some(chain_id))
        .build_fill()
}

/// Maps revm's result to TRON's: the contract result, energy, logs and java-tron's message.
/// A run the meter found out of time is `OUT_OF_TIME` whatever revm made of its unwinding,
/// with its whole energy limit spent (java-tron `Program.spendAllEnergy`) and nothing kept.
pub(super) fn outcome(
    result: ExecutionResult,
    energy_limit: i64,
    run: &evm::TronInspector,
) -> CallOutcome {
    let cpu_time_us = run.cpu.used_us();
    let energy_penalty = run.energy.penalty_total as i64;
    if let Some(message) = run.cpu.message() {
        return CallOutcome {
            ret: ContractRet::OutOfTime,
            output: Vec::new(),
            energy_used: energy_limit,
            energy_penalty,
            logs: Vec::new(),
            message: Some(message),
            cpu_time_us,
        };
    }
    let energy_used = result.tx_gas_used() as i64;
    let logs = result
        .logs()
        .iter()
        .map(|log| LogEntry {
            address: log.address.into_array(),
            topics: log.topics().iter().map(|t| t.0).collect(),
            data: log.data.data.to_vec(),
        })
        .collect();
    match result {
        ExecutionResult::Success { output, .. } => CallOutcome {
            ret: ContractRet::Success,
            output: match output {
                Output::Call(bytes) => bytes.to_vec(),
                Output::Create(bytes, _) => bytes.to_vec(),
            },
            energy_used,
            energy_penalty,
            logs,
            message: None,
            cpu_time_us,
        },
        ExecutionResult::Revert { output, .. } => CallOutcome {
            ret: ContractRet::Revert,
            output: output.to_vec(),
            energy_used,
            energy_penalty,
            logs: Vec::new(),
            message: Some("REVERT opcode executed".into()),
            cpu_time_us,
        },
        ExecutionResult::Halt { reason, .. } => {
            let (ret, message) = match &reason {
                HaltReason::OutOfGas(_) => (
                    ContractRet::OutOfEnergy,
                    format!(
                        "Not enough energy for this operation: curInvokeEnergyLimit[{energy_limit}], usedEnergy[{energy_used}]"
                    ),
                ),
                HaltReason::OpcodeNotFound
                | HaltReason::InvalidFEOpcode
                | HaltReason::NotActivated => (
                    ContractRet::IllegalOperation,
                    "Invalid operation code".into(),
                ),
                HaltReason::InvalidJump => (
                    ContractRet::BadJumpDestination,
                    "Bad jump destination".into(),
                ),
                HaltReason::StackUnderflow => {
                    (ContractRet::StackTooSmall, "Stack too small".into())
                }
                HaltReason::StackOverflow => (ContractRet::StackOverflow, "Stack overflow".into()),
                HaltReason::PrecompileError | HaltReason::PrecompileErrorWithContext(_) => (
                    ContractRet::PrecompiledContract,
                    "Precompiled contract failed".into(),
                ),
                HaltReason::OutOfFunds => (
                    ContractRet::TransferFailed,
                    "Transfer failed: balance is not sufficient".into(),
                ),
                other => (ContractRet::Unknown, format!("{other:?}")),
            };
            CallOutcome {
                ret,
                output: Vec::new(),
                energy_used,
                energy_penalty,
                logs: Vec::new(),
                message: Some(message),
                cpu_time_us,
            }
        }
    }
}
