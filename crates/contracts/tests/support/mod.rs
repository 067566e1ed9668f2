//! A small in-memory chain on revm for testing the contracts: TRON-like where it matters
//! (Cancun opcodes, no nonces, no 21,000 base cost, no base fee), Ethereum mainnet gas
//! otherwise. Meant to move into the devnet crate later.
//!
//! Gas figures approximate TRON energy: the per-transaction base cost is gone, but calldata
//! (4/16 per byte) and the 32,000 of a creation are still charged, and storage/call opcodes
//! use Ethereum's Cancun prices, not the TVM's.
#![allow(dead_code)] // each test binary uses a different part of the harness

use alloy_primitives::{Address, Bytes, Log, U256, address};
use revm::context::result::{ExecutionResult, Output};
use revm::context::{BlockEnv, ContextTr, TxEnv};
use revm::context_interface::cfg::gas_params::{GasId, GasParams};
use revm::database::{CacheDB, EmptyDB};
use revm::primitives::{TxKind, hardfork::SpecId};
use revm::state::AccountInfo;
use revm::{Context, ExecuteCommitEvm, ExecuteEvm, MainBuilder, MainContext, MainnetEvm};

/// TRON mainnet's chain id (the last 4 bytes of its genesis block id), what `CHAINID` returns.
pub const CHAIN_ID: u64 = 0x2b66_53dc;
/// Gas limit of every transaction (TRON's largest fee limit, 15,000 TRX at 100 sun per energy).
pub const TX_GAS_LIMIT: u64 = 150_000_000;
/// The funded account that deploys by default.
pub const DEPLOYER: Address = address!("00000000000000000000000000000000000de910");

type Db = CacheDB<EmptyDB>;
type Evm = MainnetEvm<revm::handler::MainnetContext<Db>>;

/// How a transaction ended.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Status {
    Success,
    /// `REVERT`: the output holds the revert data.
    Revert,
    /// Out of gas, invalid opcode, ...: all gas is consumed.
    Halt(String),
}

/// What a transaction did.
#[derive(Clone, Debug)]
pub struct Outcome {
    pub status: Status,
    /// Return data (success), revert data (revert), or empty (halt). For a creation, the
    /// deployed code.
    pub output: Bytes,
    pub gas_used: u64,
    pub logs: Vec<Log>,
    /// The new contract's address, for a successful creation.
    pub created: Option<Address>,
}

impl Outcome {
    pub fn is_success(&self) -> bool {
        self.status == Status::Success
    }

    /// The revert reason as text: `Error(string)`'s message, `Panic(uint256)` described,
    /// other revert data as hex; `None` unless the transaction reverted.
    pub fn revert_reason(&self) -> Option<String> {
        (self.status == Status::Revert).then(|| revert_reason(&self.output))
    }

    /// Panics with the revert reason or halt unless the transaction succeeded.
    #[track_caller]
    pub fn expect_success(self, what: &str) -> Self {
        match &self.status {
            Status::Success => self,
            Status::Revert => panic!("{what}: reverted: {}", revert_reason(&self.output)),
            Status::Halt(reason) => panic!("{what}: halted: {reason} (gas {})", self.gas_used),
        }
    }

    fn from_result(result: ExecutionResult) -> Self {
        let gas_used = result.tx_gas_used();
        match result {
            ExecutionResult::Success { logs, output, .. } => {
                let (output, created) = match output {
                    Output::Call(out) => (out, None),
                    Output::Create(code, created) => (code, created),
                };
                Outcome {
                    status: Status::Success,
                    output,
                    gas_used,
                    logs,
                    created,
                }
            }
            ExecutionResult::Revert { logs, output, .. } => Outcome {
                status: Status::Revert,
                output,
                gas_used,
                logs,
                created: None,
            },
            ExecutionResult::Halt { reason, logs, .. } => Outcome {
                status: Status::Halt(format!("{reason:?}")),
                output: Bytes::new(),
                gas_used,
                logs,
                created: None,
            },
        }
    }
}

/// Revert data as text: `Error(string)` → its message, `Panic(uint256)` → "panic: …",
/// anything else (custom errors) → `0x…` hex; empty data → "(no revert data)".
pub fn revert_reason(data: &[u8]) -> String {
    use alloy_sol_types::{Panic, Revert, SolError};
    if data.is_empty() {
        "(no revert data)".to_owned()
    } else if let Ok(revert) = Revert::abi_decode(data) {
        revert.reason
    } else if let Ok(panic) = Panic::abi_decode(data) {
        panic.to_string()
    } else {
        format!("0x{}", alloy_primitives::hex::encode(data))
    }
}

/// The contracts in a bare EVM (named apart from the devnet's `Ledger` and the client's `Chain`):
/// one revm instance over an in-memory database; every committed transaction is
/// its own "block" (the block environment stays fixed).
pub struct Vm {
    evm: Evm,
}

impl Default for Vm {
    fn default() -> Self {
        Self::new()
    }
}

impl Vm {
    /// A fresh chain with [`DEPLOYER`] funded with 10^9 TRX (in sun).
    pub fn new() -> Self {
        // Cancun gas table, minus the intrinsic 21,000 every Ethereum transaction pays:
        // TRON charges bandwidth for a transaction, not energy.
        let mut gas_params = GasParams::new_spec(SpecId::CANCUN);
        gas_params.override_gas([(GasId::tx_base_stipend(), 0)]);

        let evm = Context::mainnet()
            .with_db(Db::default())
            .modify_cfg_chained(|cfg| {
                cfg.set_spec_and_mainnet_gas_params(SpecId::CANCUN);
                cfg.set_gas_params(gas_params);
                cfg.chain_id = CHAIN_ID;
                cfg.disable_nonce_check = true; // TRON transactions carry no nonce
                // Nor Ethereum's code-size limits (EIP-170, EIP-3860): java-tron saves any
                // code a creation returns (`VMActuator.java`), as the devnet does.
                cfg.limit_contract_code_size = Some(usize::MAX / 2);
                cfg.limit_contract_initcode_size = Some(usize::MAX / 2);
            })
            .modify_block_chained(|block: &mut BlockEnv| {
                block.number = U256::from(1);
                block.timestamp = U256::from(1_767_225_600u64); // 2026-01-01T00:00:00Z
                block.gas_limit = u64::MAX;
                block.basefee = 0;
            })
            .build_mainnet();
        let mut chain = Vm { evm };
        chain.set_balance(DEPLOYER, U256::from(10u64).pow(U256::from(15)));
        chain
    }

    /// The block time (seconds) of every transaction from now on (`block.timestamp`).
    pub fn set_timestamp(&mut self, seconds: u64) {
        self.evm.ctx.block.timestamp = U256::from(seconds);
    }

    fn db(&mut self) -> &mut Db {
        self.evm.ctx.db_mut()
    }

    /// Sets an account's balance (in sun), creating it if needed; code and storage are kept.
    pub fn set_balance(&mut self, who: Address, balance: U256) {
        let db = self.db();
        let mut info = db
            .cache
            .accounts
            .get(&who)
            .map(|a| a.info.clone())
            .unwrap_or_default();
        info.balance = balance;
        db.insert_account_info(who, info);
    }

    pub fn balance(&mut self, who: Address) -> U256 {
        self.account(who).balance
    }

    /// The runtime code at an address (empty for an EOA or a missing account).
    pub fn code(&mut self, who: Address) -> Bytes {
        self.account(who)
            .code
            .map(|c| c.original_bytes())
            .unwrap_or_default()
    }

    fn account(&mut self, who: Address) -> AccountInfo {
        self.db()
            .cache
            .accounts
            .get(&who)
            .map(|a| a.info.clone())
            .unwrap_or_default()
    }

    fn tx(from: Address, kind: TxKind, data: &[u8], value: U256) -> TxEnv {
        TxEnv::builder()
            .caller(from)
            .kind(kind)
            .data(Bytes::copy_from_slice(data))
            .value(value)
            .nonce(0)
            .gas_limit(TX_GAS_LIMIT)
            .gas_price(0)
            .chain_id(Some(CHAIN_ID))
            .build()
            .expect("a complete TxEnv")
    }

    /// Executes and commits. A transaction rejected before execution (invalid for the chain)
    /// panics: in these tests that is always a bug in the test.
    fn commit(&mut self, tx: TxEnv) -> Outcome {
        let result = self.evm.transact_commit(tx).expect("transaction rejected");
        Outcome::from_result(result)
    }

    /// Deploys from `from` and returns the outcome (check [`Outcome::created`]).
    /// `code` is creation bytecode followed by the ABI-encoded constructor arguments.
    pub fn try_deploy(&mut self, from: Address, code: &[u8]) -> Outcome {
        self.commit(Self::tx(from, TxKind::Create, code, U256::ZERO))
    }

    /// Deploys from [`DEPLOYER`]; panics with the revert reason if the constructor fails.
    #[track_caller]
    pub fn deploy(&mut self, code: &[u8]) -> Address {
        let outcome = self.try_deploy(DEPLOYER, code).expect_success("deploy");
        outcome
            .created
            .expect("a successful creation has an address")
    }

    /// A committed call (a `TriggerSmartContract`).
    pub fn call(&mut self, from: Address, to: Address, calldata: &[u8], value: U256) -> Outcome {
        self.commit(Self::tx(from, TxKind::Call(to), calldata, value))
    }

    /// A call whose effects are thrown away (a `triggerconstantcontract`).
    pub fn view(&mut self, from: Address, to: Address, calldata: &[u8]) -> Outcome {
        let tx = Self::tx(from, TxKind::Call(to), calldata, U256::ZERO);
        let result = self.evm.transact(tx).expect("transaction rejected");
        Outcome::from_result(result.result)
    }
}
