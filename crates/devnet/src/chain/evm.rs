//! revm configured to behave like TRON's TVM where our contracts and clients can tell.
//!
//! What is TRON-like here, and why each matters:
//! - **Energy schedule** (java-tron `EnergyCost`): no 21,000 base cost and no calldata, create
//!   or init-code surcharge (TRON charges bandwidth for the transaction's bytes instead);
//!   SLOAD 50, BALANCE/EXTCODESIZE/EXTCODECOPY 20, EXTCODEHASH 400, CALL-family 40, no
//!   EIP-2929 cold/warm surcharges, and every row where TVM's table differs from Ethereum's
//!   (SSTORE, memory, copies, EXP, 63/64, call depth) plus dynamic energy: see [`super::energy`].
//! - **Precompiles**: TRON's 0x01, 0x02, 0x04–0x08 with Istanbul bn254 prices. 0x03 (TRON's
//!   RIPEMD variant), 0x09 (batchValidateSign) and 0x0a (validateMultiSign) are TRON-specific
//!   and not implemented: a call to them behaves like a call to an empty account. Ethereum's
//!   blake2f and KZG, which revm would put there, are absent, as on TRON.
//! - **Contract addresses**: a `CreateSmartContract` lands at `keccak256(txID ‖ owner)[12..]`
//!   and `CREATE2` uses the `0x41` prefix instead of `0xff`.
//!
//! What differs and is documented in the crate docs: `ecrecover` returns the 20-byte address
//! (TVM puts `0x41` in front); the `CREATE` opcode inside a contract uses Ethereum's
//! sender-and-nonce rule; TVM's 3 MB memory cap is not enforced.

use alloy_primitives::{Address, B256, keccak256};
use revm::bytecode::opcode;
use revm::context::{BlockEnv, CfgEnv, ContextTr};
use revm::context_interface::CreateScheme;
use revm::database::{CacheDB, EmptyDB};
use revm::handler::EthPrecompiles;
use revm::inspector::Inspector;
use revm::interpreter::interpreter_types::Jumps;
use revm::interpreter::{
    CallInputs, CallOutcome, CreateInputs, CreateOutcome, Instruction, InstructionResult,
    Interpreter,
};

use super::cpu::{CpuMeter, opcode_ns, precompile_ns};
use super::energy::{self, ContractRules, EnergyRules};
use revm::precompile::{Precompiles, bn254, hash, identity, modexp, secp256k1};
use revm::{Context, MainBuilder, MainContext};
use std::sync::Arc;
use std::sync::OnceLock;

/// The state database: accounts, code and storage, all in memory.
pub type Db = CacheDB<EmptyDB>;
/// The context our EVM runs in.
pub type Ctx = revm::handler::MainnetContext<Db>;
/// The EVM, with the inspector that places contracts at TRON's addresses and times the run.
pub type Evm = revm::handler::MainnetEvm<Ctx, TronInspector>;

pub use super::spec::SPEC;

/// TRON's precompiles that Ethereum shares (see the module docs for the rest).
fn precompiles() -> &'static Precompiles {
    static SET: OnceLock<Precompiles> = OnceLock::new();
    SET.get_or_init(|| {
        let mut set = Precompiles::default();
        set.extend([
            secp256k1::ECRECOVER,
            hash::SHA256,
            identity::FUN,
            // TRON prices modexp by EIP-198 until its Osaka proposal.
            modexp::BYZANTIUM,
            bn254::add::ISTANBUL,
            bn254::mul::ISTANBUL,
            bn254::pair::ISTANBUL,
        ]);
        set
    })
}

/// The TVM upgrades a network has voted in. java-tron registers an upgrade's opcodes only
/// when its chain parameter is on (`OperationRegistry`: Shanghai's PUSH0 with
/// `ALLOW_TVM_SHANGHAI`, #76; Cancun's TLOAD, TSTORE and MCOPY with `ALLOW_TVM_CANCUN`, #83);
/// an unregistered opcode is an illegal operation that spends the whole energy limit.
#[derive(Clone, Copy, Debug, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct TvmSwitches {
    pub shanghai: bool,
    pub cancun: bool,
}

impl Default for TvmSwitches {
    /// Mainnet's: both on (PUSH0 since proposal 89 in 2023, Cancun's opcodes since June 2025).
    fn default() -> Self {
        TvmSwitches {
            shanghai: true,
            cancun: true,
        }
    }
}

/// Builds an EVM over `db` with TRON's rules, executing in `block`; `chain_id` is what
/// `CHAINID` returns and `next_create` where a top-level creation lands.
///
/// An EVM is built per operation rather than kept: revm's EVM is not `Send`, the chain must be
/// shareable across the HTTP server's threads, and building one costs a few microseconds.
pub fn new_evm(
    db: Db,
    chain_id: u64,
    block: BlockEnv,
    next_create: Option<Address>,
    cpu: CpuMeter,
    switches: TvmSwitches,
    contracts: Arc<ContractRules>,
) -> Evm {
    let mut evm = Context::mainnet()
        .with_db(db)
        .modify_cfg_chained(|cfg: &mut CfgEnv| {
            cfg.set_spec_and_mainnet_gas_params(SPEC);
            cfg.set_gas_params(energy::energy_params().clone());
            cfg.chain_id = chain_id;
            // TRON transactions have no nonce; replay protection is TaPoS + expiration + txID.
            cfg.disable_nonce_check = true;
            // Nor EIP-3607: java-tron runs constant calls "from" contracts too.
            cfg.disable_eip3607 = true;
            // Nor EIP-170's 24,576-byte code limit or EIP-3860's initcode limit: java-tron
            // saves any code a creation returns, charging 200 energy a byte
            // (`actuator/.../core/actuator/VMActuator.java`, the end of `execute`), and bounds
            // a deployment only by the transaction's size and fee limit.
            cfg.limit_contract_code_size = Some(usize::MAX / 2);
            cfg.limit_contract_initcode_size = Some(usize::MAX / 2);
        })
        .with_block(block)
        .build_mainnet_with_inspector(TronInspector {
            next_create,
            cpu,
            energy: EnergyRules::new(contracts),
        });
    for (op, energy) in energy::static_prices() {
        evm.instruction.insert_gas(op, energy);
    }
    evm.instruction
        .insert_gas(opcode::SELFDESTRUCT, energy::SELFDESTRUCT_PRICE);
    evm.instruction
        .insert_instruction(opcode::SSTORE, Instruction::new(energy::tvm_sstore), 0);
    let off = [
        (!switches.shanghai, &[opcode::PUSH0][..]),
        (
            !switches.cancun,
            &[opcode::TLOAD, opcode::TSTORE, opcode::MCOPY][..],
        ),
    ];
    for op in off
        .into_iter()
        .filter(|(off, _)| *off)
        .flat_map(|(_, ops)| ops)
    {
        evm.instruction
            .insert_instruction(*op, Instruction::unknown(), 0);
    }
    evm.precompiles = EthPrecompiles {
        precompiles: precompiles(),
        spec: SPEC,
    };
    evm
}

/// The block environment of block `number` at `timestamp_ms`, produced by `coinbase`.
pub fn block_env(number: u64, timestamp_ms: i64, coinbase: Address) -> BlockEnv {
    BlockEnv {
        number: alloy_primitives::U256::from(number),
        // TIMESTAMP is in seconds on TRON too.
        timestamp: alloy_primitives::U256::from((timestamp_ms / 1000).max(0) as u64),
        beneficiary: coinbase,
        gas_limit: u64::MAX,
        basefee: 0,
        ..BlockEnv::default()
    }
}

/// What TRON does that revm's handler does not: places contracts where TRON would (the next
/// top-level creation at `next_create`, set per transaction from its txID and owner, and
/// `CREATE2` with the `0x41` prefix), and times the run as java-tron would take (see
/// [`super::cpu`]): past the limit every frame halts, and the run ends `OUT_OF_TIME`.
#[derive(Debug, Clone)]
pub struct TronInspector {
    pub next_create: Option<Address>,
    pub cpu: CpuMeter,
    /// Dynamic energy and TVM's call forwarding ([`energy`]).
    pub energy: EnergyRules,
}

impl<CTX: ContextTr> Inspector<CTX> for TronInspector {
    /// java-tron's order: the time check comes before the opcode runs. Once the time is gone
    /// every frame halts at its next opcode, so the run unwinds at once.
    fn step(&mut self, interp: &mut Interpreter, _context: &mut CTX) {
        let op = interp.bytecode.opcode();
        if self.cpu.check(op) {
            interp.halt(InstructionResult::OutOfGas);
        } else {
            self.cpu.add(opcode_ns(op));
            self.energy.step(interp);
        }
    }

    fn step_end(&mut self, interp: &mut Interpreter, _context: &mut CTX) {
        self.energy.step_end(interp);
    }

    /// A precompile's time, counted whole: java-tron does not check the time inside one.
    fn call(&mut self, context: &mut CTX, inputs: &mut CallInputs) -> Option<CallOutcome> {
        if let Some(refused) = energy::too_deep(
            context,
            inputs.gas_limit,
            inputs.return_memory_offset.clone(),
        ) {
            return Some(refused);
        }
        let address = inputs.bytecode_address.as_slice();
        if address[..19].iter().all(|b| *b == 0)
            && let Some(ns) = precompile_ns(address[19], inputs.input.len())
        {
            self.cpu.add(ns);
        }
        None
    }

    fn create(&mut self, context: &mut CTX, inputs: &mut CreateInputs) -> Option<CreateOutcome> {
        if let Some(refused) = energy::too_deep(context, inputs.gas_limit(), 0..0) {
            return Some(CreateOutcome::new(refused.result, None));
        }
        if let Some(address) = self.next_create.take() {
            inputs.set_scheme(CreateScheme::Custom { address });
        } else if let CreateScheme::Create2 { salt } = inputs.scheme() {
            let address = create2_address(inputs.caller(), salt.into(), inputs.init_code_hash());
            inputs.set_scheme(CreateScheme::Custom { address });
        }
        None
    }
}

/// TVM's CREATE2: `keccak256(0x41 ‖ deployer ‖ salt ‖ keccak256(init_code))[12..]`.
pub fn create2_address(deployer: Address, salt: B256, init_code_hash: B256) -> Address {
    let mut buf = Vec::with_capacity(85);
    buf.push(0x41);
    buf.extend_from_slice(deployer.as_slice());
    buf.extend_from_slice(salt.as_slice());
    buf.extend_from_slice(init_code_hash.as_slice());
    Address::from_slice(&keccak256(&buf)[12..])
}
