//! TVM's energy rules where they differ from revm's Cancun defaults, and dynamic energy.
//!
//! The table (java-tron `actuator/.../vm/EnergyCost.java` and `OperationRegistry.java`):
//! - **SSTORE** costs 20,000 when the slot holds no value *now* and the new value is non-zero,
//!   and 5,000 in every other case: a change, a clear, a same-value or 0→0 write, and any
//!   re-write within one transaction (`getSstoreCost` reads the current value; there is no
//!   EIP-2200 net metering and no refund). [`tvm_sstore`].
//! - **MLOAD / MSTORE / MSTORE8** cost 1 + memory growth (`getMloadCost2` and friends, the
//!   table java-tron installs once `allowHigherLimitForMaxCpuTimeOfOneTx` is on, as on
//!   mainnet), not 3.
//! - **CALLDATACOPY / CODECOPY / RETURNDATACOPY** cost only the copy and the memory growth;
//!   they have no base of 3.
//! - **EXP** costs 10 + 10 per byte of the exponent, not 50.
//! - **SELFDESTRUCT** costs 0 (+25,000 to a beneficiary that does not exist), not 5,000.
//! - **A value-bearing CALL to an account that does not exist** costs 25,000 more
//!   (`isDeadAccount`: no account in the store). revm charges it to "empty" accounts (no
//!   balance, nonce or code); the chain gives every account TRON knows a nonce
//!   ([`super::Ledger::touch`]), so the two rules agree.
//! - **The 63/64 rule** applies only inside contracts created with version 1
//!   (`Program.getCallEnergy`/`getCreateEnergy` with `allowTvmCompatibleEvm`); elsewhere a
//!   call may forward all the energy left. The call depth limit is 64 (`Program.MAX_DEPTH`):
//!   a call from the 64th nested frame fails and returns its energy.
//!
//! **Dynamic energy** (`VM.play`, `EnergyCost.getCalculateCallCost`,
//! `Program.updateContextContractFactor`): every contract has an `energy_factor` in units of
//! 1/10,000, and each opcode executed in that contract's context (its own code, or code it
//! runs by DELEGATECALL) costs `energy × (10,000 + factor) / 10,000`. For the CALL family only
//! the call's own cost (base, value, new account, memory) is penalised, never the energy it
//! forwards; the penalty is charged before the forwarded amount is worked out. On mainnet a
//! contract's factor rises by the increase factor for each 6-hour cycle its energy use passes
//! a threshold and decays otherwise (`ContractStateCapsule.catchUpToCycle`); the devnet has no
//! traffic to move it, so it keeps each contract's factor where genesis or
//! `/devnet/set_energy_factor` put it (the devnet USDT at mainnet USDT's 3.4, i.e. ×4.4).

use std::collections::{HashMap, HashSet};
use std::sync::Arc;

use alloy_primitives::Address;
use revm::bytecode::opcode;
use revm::context::ContextTr;
use revm::context_interface::JournalTr;
use revm::context_interface::cfg::gas_params::{GasId, GasParams};
use revm::interpreter::instructions::host::sstore_with_gas_accounting;
use revm::interpreter::interpreter::EthInterpreter;
use revm::interpreter::interpreter_types::{InputsTr, Jumps};
use revm::interpreter::{
    CallOutcome, FrameInput, Gas, Host, InstructionContext, InstructionExecResult,
    InstructionResult, Interpreter, InterpreterAction, InterpreterResult,
};
use revm::primitives::Bytes;

use super::spec::SPEC;

/// `energy_factor`'s unit: a factor of 10,000 doubles the cost (java-tron
/// `Constant.DYNAMIC_ENERGY_FACTOR_DECIMAL`).
pub const FACTOR_DECIMAL: i64 = 10_000;

/// Mainnet USDT's factor: 3.4, i.e. every opcode at ×4.4. Not read from the chain: inferred
/// from the widely quoted 64,285 / 130,285 energy per transfer, which are 4.4 × TetherToken's
/// base 14,610 / 29,610.
pub const USDT_ENERGY_FACTOR: i64 = 34_000;

/// The dynamic-energy parameters `getchainparameters` reports (mainnet's values, not verified
/// on chain: threshold 5,000,000,000 energy per cycle, +20% per busy cycle, cap 3.4).
pub const DYNAMIC_ENERGY_THRESHOLD: i64 = 5_000_000_000;
pub const DYNAMIC_ENERGY_INCREASE_FACTOR: i64 = 2_000;
pub const DYNAMIC_ENERGY_MAX_FACTOR: i64 = 34_000;

/// The deepest a call may nest: the top-level frame is depth 0, and a call made from depth 64
/// fails (java-tron `Program.MAX_DEPTH`).
pub const MAX_CALL_DEPTH: usize = 64;

/// The energy a value-bearing CALL forwards on top of what the caller gives (EVM and TVM
/// alike).
const CALL_STIPEND: u64 = 2_300;

/// revm's gas parameters set to TRON's energy schedule: what [`super::evm::new_evm`] installs
/// next to the static opcode prices of [`static_prices`].
pub fn energy_params() -> &'static GasParams {
    static PARAMS: std::sync::OnceLock<GasParams> = std::sync::OnceLock::new();
    PARAMS.get_or_init(|| {
        let mut params = GasParams::new_spec(SPEC);
        params.override_gas([
            // A transaction pays bandwidth for its bytes, not energy.
            (GasId::tx_base_stipend(), 0),
            (GasId::tx_token_cost(), 0),
            (GasId::tx_token_non_zero_byte_multiplier(), 0),
            (GasId::tx_create_cost(), 0),
            (GasId::tx_initcode_cost(), 0),
            // No EIP-2929 access lists or cold surcharges.
            (GasId::cold_account_additional_cost(), 0),
            (GasId::cold_storage_additional_cost(), 0),
            (GasId::cold_storage_cost(), 0),
            (GasId::warm_storage_read_cost(), 0),
            // SSTORE is priced whole by `tvm_sstore`; no refunds of any kind.
            (GasId::sstore_static(), 0),
            (GasId::sstore_set_refund(), 0),
            (GasId::sstore_reset_refund(), 0),
            (GasId::sstore_clearing_slot_refund(), 0),
            (GasId::selfdestruct_refund(), 0),
            // EXP: 10 per exponent byte.
            (GasId::exp_byte_gas(), 10),
            // revm keeps back 1/64 of the energy at every call and create; TVM does that only
            // in version-1 contracts, which `EnergyRules::step_end` handles. Dividing by
            // u64::MAX keeps back nothing.
            (GasId::call_stipend_reduction(), u64::MAX),
        ]);
        params
    })
}

/// The static part of each opcode's price where TVM's differs from revm's Cancun table.
pub const fn static_prices() -> [(u8, u16); 15] {
    [
        (opcode::SLOAD, 50),
        (opcode::BALANCE, 20),
        (opcode::EXTCODESIZE, 20),
        (opcode::EXTCODECOPY, 20),
        (opcode::EXTCODEHASH, 400),
        (opcode::CALL, 40),
        (opcode::CALLCODE, 40),
        (opcode::DELEGATECALL, 40),
        (opcode::STATICCALL, 40),
        (opcode::MLOAD, 1),
        (opcode::MSTORE, 1),
        (opcode::MSTORE8, 1),
        (opcode::CALLDATACOPY, 0),
        (opcode::CODECOPY, 0),
        (opcode::RETURNDATACOPY, 0),
    ]
}

/// SELFDESTRUCT's static price (0 on TVM).
pub const SELFDESTRUCT_PRICE: u16 = 0;

/// TVM's SSTORE: 20,000 to put a value in a slot that holds none now, 5,000 otherwise.
pub fn tvm_sstore<H: Host + ?Sized>(
    context: InstructionContext<'_, H, EthInterpreter>,
) -> InstructionExecResult {
    sstore_with_gas_accounting(context, |context, _target, load| {
        let cost = if load.data.is_present_zero() && !load.data.is_new_zero() {
            20_000
        } else {
            5_000
        };
        if context.interpreter.gas.record_regular_cost(cost) {
            Ok(())
        } else {
            Err(InstructionResult::OutOfGas)
        }
    })
}

/// What the energy rules need to know about the contracts a run may enter.
#[derive(Clone, Debug, Default)]
pub struct ContractRules {
    /// Non-zero energy factors, by contract.
    pub factors: HashMap<Address, i64>,
    /// Contracts created with version 1 (the 63/64 rule applies in them).
    pub version1: HashSet<Address>,
}

/// The opcode under way: what `step` saw, for `step_end` to charge.
#[derive(Clone, Copy, Debug)]
struct OpStart {
    gas_before: u64,
    factor: i64,
    version1: bool,
    /// The energy a CALL-family opcode asked to forward (its first argument).
    requested: u64,
}

/// The per-run half of the rules: dynamic energy's penalty and TVM's call forwarding, applied
/// around each opcode by the chain's inspector.
#[derive(Clone, Debug, Default)]
pub struct EnergyRules {
    contracts: Arc<ContractRules>,
    /// The last context looked up: (address, factor, version 1).
    context: Option<(Address, i64, bool)>,
    op: Option<OpStart>,
    /// The dynamic-energy penalty charged so far (java-tron's `energy_penalty_total`).
    pub penalty_total: u64,
}

impl EnergyRules {
    pub fn new(contracts: Arc<ContractRules>) -> Self {
        EnergyRules {
            contracts,
            ..EnergyRules::default()
        }
    }

    fn lookup(&mut self, address: Address) -> (i64, bool) {
        match self.context {
            Some((cached, factor, v1)) if cached == address => (factor, v1),
            _ => {
                let factor = self.contracts.factors.get(&address).copied().unwrap_or(0);
                let v1 = self.contracts.version1.contains(&address);
                self.context = Some((address, factor, v1));
                (factor, v1)
            }
        }
    }

    /// Before an opcode: remembers what it will need to be charged, if anything.
    pub fn step(&mut self, interp: &Interpreter<EthInterpreter>) {
        let op = interp.bytecode.opcode();
        let forwards = matches!(
            op,
            opcode::CALL
                | opcode::CALLCODE
                | opcode::DELEGATECALL
                | opcode::STATICCALL
                | opcode::CREATE
                | opcode::CREATE2
        );
        let (factor, version1) = self.lookup(interp.input.target_address());
        if factor == 0 && !(forwards && version1) {
            self.op = None;
            return;
        }
        let requested = match op {
            opcode::CALL | opcode::CALLCODE | opcode::DELEGATECALL | opcode::STATICCALL => interp
                .stack
                .data()
                .last()
                .map_or(u64::MAX, |gas| u64::try_from(*gas).unwrap_or(u64::MAX)),
            _ => u64::MAX,
        };
        self.op = Some(OpStart {
            gas_before: interp.gas.remaining(),
            factor,
            version1,
            requested,
        });
    }

    /// After an opcode: charges its dynamic-energy penalty and, for a call or create, works
    /// out what the new frame gets as TVM would.
    pub fn step_end(&mut self, interp: &mut Interpreter<EthInterpreter>) {
        let Some(start) = self.op.take() else {
            return;
        };
        let penalty_of = |energy: u64| -> u64 {
            (u128::from(energy) * start.factor as u128 / FACTOR_DECIMAL as u128) as u64
        };
        match interp.bytecode.action.as_mut() {
            Some(InterpreterAction::NewFrame(frame)) => {
                let (forwarded, stipend) = match frame {
                    FrameInput::Call(inputs) => {
                        let stipend = if inputs.transfers_value() {
                            CALL_STIPEND
                        } else {
                            0
                        };
                        (inputs.gas_limit.saturating_sub(stipend), stipend)
                    }
                    FrameInput::Create(inputs) => (inputs.gas_limit(), 0),
                    FrameInput::Empty => return,
                };
                let left = interp.gas.remaining();
                let own = start.gas_before.saturating_sub(left + forwarded);
                let penalty = penalty_of(own);
                let Some(available) = (left + forwarded).checked_sub(penalty) else {
                    interp.bytecode.action = None;
                    interp.gas.spend_all();
                    interp.halt(InstructionResult::OutOfGas);
                    return;
                };
                self.penalty_total += penalty;
                let cap = if start.version1 {
                    available - available / 64
                } else {
                    available
                };
                let gets = start.requested.min(cap);
                match frame {
                    FrameInput::Call(inputs) => inputs.gas_limit = gets + stipend,
                    FrameInput::Create(inputs) => inputs.set_gas_limit(gets),
                    FrameInput::Empty => {}
                }
                interp.gas.set_remaining(available - gets);
            }
            Some(InterpreterAction::Return(result)) => {
                let used = start.gas_before.saturating_sub(result.gas.remaining());
                let penalty = penalty_of(used);
                if result.gas.record_regular_cost(penalty) {
                    self.penalty_total += penalty;
                } else {
                    result.gas.spend_all();
                    result.result = InstructionResult::OutOfGas;
                    result.output = Bytes::new();
                }
            }
            None => {
                let used = start.gas_before.saturating_sub(interp.gas.remaining());
                let penalty = penalty_of(used);
                if interp.gas.record_regular_cost(penalty) {
                    self.penalty_total += penalty;
                } else {
                    interp.gas.spend_all();
                    interp.halt(InstructionResult::OutOfGas);
                }
            }
        }
    }
}

/// A call that would nest deeper than TVM allows fails at once and gives back its energy
/// (java-tron `Program.callToAddress`: "call deep limit reach").
pub fn too_deep<CTX: ContextTr>(
    context: &mut CTX,
    gas_limit: u64,
    memory_offset: std::ops::Range<usize>,
) -> Option<CallOutcome> {
    (context.journal().depth() > MAX_CALL_DEPTH).then(|| {
        CallOutcome::new(
            InterpreterResult {
                result: InstructionResult::CallTooDeep,
                gas: Gas::new(gas_limit),
                output: Bytes::new(),
            },
            memory_offset,
        )
    })
}
