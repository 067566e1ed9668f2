//! The chain: revm state, the broadcast pipeline in java-tron's order, blocks and receipts.
//!
//! A transaction is validated and executed when it is broadcast, against the pending state
//! (as java-tron's `Manager.pushTransaction` does), and its receipt exists only once a block
//! seals it: at once when sealing on broadcast, or when the producer next makes a block from
//! the pending pool ([`pool`]), which runs it again there. The solidified head is the head: a
//! single-producer devnet has nothing to wait for, so `/walletsolidity/*` answers from the
//! head block (without the pending state).

pub mod actuator;
pub mod block;
pub mod cpu;
pub mod energy;
pub mod estimate;
pub mod evm;
mod fill;
pub mod outcome;
pub mod permission;
pub mod pool;
pub mod receipt;
pub mod rejection;
pub mod settings;
pub mod spec;
pub mod stake;
pub mod stake_state;
pub mod state;

use std::collections::HashMap;

use alloy_primitives::{B256, U256};
use revm::InspectEvm;
use revm::primitives::TxKind;
use serde::{Deserialize, Serialize};
use sha2::{Digest, Sha256};
use tron::proto::SmartContract;
use tron::transaction::{MAX_EXPIRATION_MS, now_ms};
use tron::{Address, PrivateKey, Transaction, TxId};

use self::block::Block;
use self::evm::{Db, Evm};
pub use self::outcome::CallOutcome;
use self::outcome::{outcome, tx_env};
use self::permission::SignWeight;
use self::permission::check_signers;
use self::receipt::{LogEntry, TxInfo};
pub use self::rejection::Rejection;
use revm::context::BlockEnv;

/// The chain parameters the devnet applies (and `getchainparameters` reports), at mainnet's
/// current values.
#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct ChainParams {
    /// Sun per unit of energy.
    pub energy_fee: i64,
    /// Sun per byte of bandwidth beyond the free allowance.
    pub transaction_fee: i64,
    /// Free bandwidth per account per day, in bytes.
    pub free_net_limit: i64,
    /// Sun burned as bandwidth when a transaction creates an account.
    pub create_account_fee: i64,
    /// Sun a `TransferContract` to a new account burns.
    pub create_new_account_fee_in_system_contract: i64,
    /// Sun a non-empty memo burns.
    pub memo_fee: i64,
    /// The largest `fee_limit`, in sun.
    pub max_fee_limit: i64,
    /// Every change of `energy_fee` after genesis (`/devnet/set_energy_fee`), oldest first:
    /// `(time in ms, new price)`, for `getenergyprices`' history. Empty in state files written
    /// before the price could change.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub energy_fee_changes: Vec<(i64, i64)>,
    /// The CPU time one contract run may take, in ms (`getMaxCpuTimeOfOneTx`; mainnet's 80),
    /// against the modeled time of [`cpu`].
    #[serde(default = "mainnet_max_cpu_time_ms")]
    pub max_cpu_time_of_one_tx_ms: i64,
    /// Which TVM upgrades are on (`getAllowTvmShangHai`, `getAllowTvmCancun`): off, their
    /// opcodes are invalid, as on a java-tron network that has not voted them in.
    #[serde(default)]
    pub tvm: evm::TvmSwitches,
    /// The rest of the network's energy stake, in TRX, added to the devnet's own in
    /// `TotalEnergyWeight` so that a staked TRX buys what it buys on mainnet ([`stake`]).
    #[serde(default = "mainnet_energy_weight")]
    pub energy_weight_base: i64,
}

fn mainnet_energy_weight() -> i64 {
    stake_state::MAINNET_ENERGY_WEIGHT
}

fn mainnet_max_cpu_time_ms() -> i64 {
    80
}

impl Default for ChainParams {
    fn default() -> Self {
        ChainParams {
            energy_fee: 100,
            transaction_fee: 1_000,
            free_net_limit: 600,
            create_account_fee: 100_000,
            create_new_account_fee_in_system_contract: 1_000_000,
            memo_fee: 1_000_000,
            max_fee_limit: 15_000_000_000,
            energy_fee_changes: Vec::new(),
            max_cpu_time_of_one_tx_ms: mainnet_max_cpu_time_ms(),
            tvm: evm::TvmSwitches::default(),
            energy_weight_base: mainnet_energy_weight(),
        }
    }
}

/// The energy prices [`Ledger::set_energy_fee`] accepts, in sun per unit of energy.
pub const ENERGY_FEE_RANGE: std::ops::RangeInclusive<i64> = 1..=10_000;

/// The largest transaction java-tron accepts, in bytes.
pub const MAX_TX_BYTES: usize = 500 * 1024;
/// How many recent blocks a transaction may refer to (the TaPoS window).
pub const TAPOS_WINDOW: u64 = 65_536;
/// The bandwidth window: used free bandwidth recovers linearly over a day.
const NET_WINDOW_MS: i64 = 86_400_000;

/// Per-account bookkeeping that revm has no place for.
#[derive(Clone, Debug, Default, Serialize, Deserialize)]
pub struct AccountMeta {
    pub create_time: i64,
    pub latest_operation_time: i64,
    pub free_net_used: i64,
    pub latest_consume_free_time: i64,
    /// Stake 2.0 energy: staked, lent, borrowed, used, released ([`stake`]).
    #[serde(default)]
    pub stake: stake_state::StakeState,
}

/// A sealed transaction and its receipt.
#[derive(Clone, Debug)]
pub struct Mined {
    pub tx: Transaction,
    pub info: TxInfo,
}

/// Where to find one event: the transaction and the log's position in it, and where it
/// sits in the chain, so a page of events is found by binary search instead of a scan.
#[derive(Clone, Copy, Debug)]
pub struct EventRef {
    pub txid: TxId,
    pub log_index: usize,
    /// The log's first topic (an event's signature hash), so a query for one event passes
    /// over the others without looking up their transactions.
    pub topic0: Option<[u8; 32]>,
    pub block: u64,
    /// The transaction's position in its block.
    pub tx_position: usize,
}

impl EventRef {
    /// Block, transaction position, log position: the chain's order of events.
    pub fn position(&self) -> (u64, usize, usize) {
        (self.block, self.tx_position, self.log_index)
    }
}

/// An account as the node reports it.
#[derive(Clone, Debug)]
pub struct AccountView {
    pub address: Address,
    /// In sun.
    pub balance: i64,
    pub meta: AccountMeta,
    pub is_contract: bool,
    /// Staked energy used, recovered to now.
    pub energy_used: i64,
}

/// Everything but the EVM state: blocks, receipts, contract metadata, accounts' bookkeeping.
#[derive(Clone, Debug)]
pub struct ChainData {
    pub params: ChainParams,
    pub chain_id: u64,
    pub blocks: Vec<Block>,
    pub txs: HashMap<TxId, Mined>,
    pub contracts: HashMap<Address, SmartContract>,
    pub accounts: HashMap<Address, AccountMeta>,
    /// Logs by emitting contract, oldest first.
    pub events: HashMap<Address, Vec<EventRef>>,
    /// TaPoS: `ref_block_bytes` → `ref_block_hash` of the last 65,536 blocks.
    pub recent: HashMap<[u8; 2], [u8; 8]>,
    /// Added to the wall clock for block times (`/devnet/increase_time`).
    pub time_offset_ms: i64,
    /// Each contract's dynamic-energy factor in 1/10,000 ([`energy`]); absent is 0.
    pub energy_factors: HashMap<Address, i64>,
}

/// A copy of the whole chain to go back to.
#[derive(Clone)]
pub struct Snapshot {
    db: Db,
    data: ChainData,
}

/// The devnet's chain: accounts, contracts and blocks, and the rules that change them (named
/// apart from `tronpool::service::chain::Chain`, the client's view of a deployment).
pub struct Ledger {
    db: Db,
    /// The block transactions execute in.
    block_env: BlockEnv,
    data: ChainData,
    witness: PrivateKey,
    /// Executed, not yet sealed, in arrival order: the pending pool ([`pool`]).
    pending: Vec<Mined>,
    /// Number and time of the block being built, once a transaction has entered it.
    building: Option<(u64, i64)>,
    /// Whether broadcasts wait in the pool for the producer ([`Ledger::set_pooling`]).
    pooling: bool,
    /// The head block's state while pending transactions have changed `db` (pooling only).
    sealed: Option<pool::SealedBase>,
    /// How fast the modeled block producer runs java-tron's VM (1: the calibration point).
    cpu_speed: f64,
    /// The modeled CPU time of the latest contract run, transaction or constant call, in µs.
    last_cpu_time_us: i64,
}

impl Ledger {
    /// A chain holding only its genesis block (number 0, at `genesis_time_ms`), sealed by
    /// `witness`, with `balances` (in sun) set.
    pub fn new(witness: PrivateKey, genesis_time_ms: i64, balances: &[(Address, i64)]) -> Self {
        let genesis = Block::seal(0, genesis_time_ms, [0; 32], Vec::new(), &[], &witness);
        // CHAINID is the last 4 bytes of the genesis block id.
        let chain_id = u32::from_be_bytes(genesis.id[28..32].try_into().expect("4 bytes")) as u64;
        let data = ChainData {
            params: ChainParams::default(),
            chain_id,
            blocks: Vec::new(),
            txs: HashMap::new(),
            contracts: HashMap::new(),
            accounts: HashMap::new(),
            events: HashMap::new(),
            recent: HashMap::new(),
            time_offset_ms: 0,
            energy_factors: HashMap::new(),
        };
        let mut chain = Ledger {
            db: Db::default(),
            block_env: BlockEnv::default(),
            data,
            witness,
            pending: Vec::new(),
            building: None,
            pooling: false,
            sealed: None,
            cpu_speed: 1.0,
            last_cpu_time_us: 0,
        };
        chain.push_block(genesis);
        for (address, sun) in balances {
            chain.set_balance(*address, *sun);
            chain.touch(*address, genesis_time_ms);
        }
        chain
    }

    pub fn data(&self) -> &ChainData {
        &self.data
    }

    /// How fast the modeled producer is (`tronpool devnet --cpu-speed`): 2 runs the VM in
    /// half the modeled time.
    pub fn set_cpu_speed(&mut self, speed: f64) {
        self.cpu_speed = if speed.is_finite() && speed > 0.0 {
            speed
        } else {
            1.0
        };
    }

    pub fn cpu_speed(&self) -> f64 {
        self.cpu_speed
    }

    /// The modeled CPU time of the latest contract run, in µs.
    pub fn last_cpu_time_us(&self) -> i64 {
        self.last_cpu_time_us
    }

    /// Turns TVM upgrades on or off from now on (`tronpool devnet --no-cancun`).
    pub fn set_tvm_switches(&mut self, switches: evm::TvmSwitches) {
        self.data.params.tvm = switches;
    }

    /// A meter for one contract run under this chain's limit and speed.
    fn cpu_meter(&self) -> cpu::CpuMeter {
        cpu::CpuMeter::new(self.data.params.max_cpu_time_of_one_tx_ms, self.cpu_speed)
    }

    pub fn params(&self) -> &ChainParams {
        &self.data.params
    }

    pub fn chain_id(&self) -> u64 {
        self.data.chain_id
    }

    pub fn witness(&self) -> Address {
        self.witness.address()
    }

    pub fn head(&self) -> &Block {
        self.data.blocks.last().expect("the genesis block exists")
    }

    pub fn block(&self, number: u64) -> Option<&Block> {
        self.data.blocks.get(usize::try_from(number).ok()?)
    }

    pub fn block_by_id(&self, id: &[u8; 32]) -> Option<&Block> {
        let number = u64::from_be_bytes(id[..8].try_into().expect("8 bytes"));
        self.block(number).filter(|b| &b.id == id)
    }

    pub fn transaction(&self, id: &TxId) -> Option<&Mined> {
        self.data.txs.get(id)
    }

    pub fn pending_count(&self) -> usize {
        self.pending.len()
    }

    pub fn contract(&self, address: &Address) -> Option<&SmartContract> {
        self.data.contracts.get(address)
    }

    /// Logs emitted by `contract`, oldest first, with their transactions.
    pub fn events(&self, contract: &Address) -> Vec<(&Mined, &LogEntry, usize)> {
        self.event_refs(contract)
            .iter()
            .filter_map(|r| self.event(r))
            .collect()
    }

    /// A contract's events in chain order, as references.
    pub fn event_refs(&self, contract: &Address) -> &[EventRef] {
        self.data.events.get(contract).map_or(&[], Vec::as_slice)
    }

    /// The transaction and log an event reference points at.
    pub fn event(&self, r: &EventRef) -> Option<(&Mined, &LogEntry, usize)> {
        let mined = self.data.txs.get(&r.txid)?;
        Some((mined, mined.info.logs.get(r.log_index)?, r.log_index))
    }

    /// The time the next block would get: the clock (plus any offset), and always after the head.
    pub fn now(&self) -> i64 {
        (now_ms() + self.data.time_offset_ms).max(self.head().timestamp + 1)
    }

    pub fn increase_time(&mut self, ms: i64) {
        self.data.time_offset_ms += ms;
    }

    /// Sets the energy price (`getEnergyFee`, sun per unit of energy), as a committee proposal
    /// would: transactions executed from now on burn energy at it, and fee limits and
    /// constant calls convert at it; transactions already executed keep what they paid. The
    /// change is recorded for `getenergyprices` with the time of the block being built, or
    /// the clock's when none is. Refuses a price outside [`ENERGY_FEE_RANGE`].
    pub fn set_energy_fee(&mut self, sun_per_energy: i64) -> Result<(), String> {
        if !ENERGY_FEE_RANGE.contains(&sun_per_energy) {
            return Err(format!(
                "the energy fee must be between {} and {} sun per energy",
                ENERGY_FEE_RANGE.start(),
                ENERGY_FEE_RANGE.end()
            ));
        }
        let at = self.building.map_or_else(|| self.now(), |(_, time)| time);
        self.data.params.energy_fee = sun_per_energy;
        self.data
            .params
            .energy_fee_changes
            .push((at, sun_per_energy));
        Ok(())
    }

    /// Runtime code at an address (empty for an account without code).
    pub fn code(&self, address: &Address) -> Vec<u8> {
        let db = &self.db;
        db.cache
            .accounts
            .get(&alloy_primitives::Address::from(*address))
            .and_then(|a| db.cache.contracts.get(&a.info.code_hash))
            .map(|code| code.original_bytes().to_vec())
            .unwrap_or_default()
    }

    /// Balance in sun.
    pub fn balance(&self, address: &Address) -> i64 {
        let balance = self
            .db
            .cache
            .accounts
            .get(&alloy_primitives::Address::from(*address))
            .map(|a| a.info.balance)
            .unwrap_or_default();
        i64::try_from(balance).unwrap_or(i64::MAX)
    }

    /// A contract's storage slot (zero when unset).
    pub fn storage(&self, address: &Address, slot: U256) -> U256 {
        self.db
            .cache
            .accounts
            .get(&alloy_primitives::Address::from(*address))
            .and_then(|a| a.storage.get(&slot).copied())
            .unwrap_or_default()
    }

    /// The account, if it exists: activated by a transfer, a deployment, genesis or a
    /// transaction it sent, or holding TRX it received from a contract.
    pub fn account(&self, address: &Address) -> Option<AccountView> {
        let balance = self.balance(address);
        let meta = self.data.accounts.get(address).cloned();
        if meta.is_none() && balance == 0 {
            return None;
        }
        Some(AccountView {
            address: *address,
            balance,
            meta: meta.unwrap_or_default(),
            is_contract: self.data.contracts.contains_key(address)
                || !self.code(address).is_empty(),
            // java-tron brings usage up to the head block's slot, not the wall clock.
            energy_used: self.energy_used(address, self.head().timestamp),
        })
    }

    /// Free bandwidth still available to `address` today.
    pub fn free_net_available(&self, address: &Address, now: i64) -> i64 {
        let used = self
            .data
            .accounts
            .get(address)
            .map(|m| decayed(m.free_net_used, m.latest_consume_free_time, now))
            .unwrap_or(0);
        (self.data.params.free_net_limit - used).max(0)
    }

    /// Sets a balance in sun (genesis and `/devnet/set_balance`), creating the account: in
    /// the pending state and in the head's, so that the next block keeps it.
    pub fn set_balance(&mut self, address: Address, sun: i64) {
        self.set_sealed_balance(address, sun);
        self.write_balance(address, sun);
    }

    /// Sets a contract's storage slot, as anvil's `anvil_setStorageAt` does: for a benchmark
    /// that needs a state no sequence of transactions reaches in its time (a pool of a million
    /// deposits takes half an hour of real ones). Written to the pending state and the head's,
    /// so the next block keeps it. Nothing checks the value: the caller keeps the contract's
    /// invariants, and should read them back through the contract's own views.
    pub fn set_storage(&mut self, address: Address, slot: U256, value: U256) -> Result<(), String> {
        if self.code(&address).is_empty() {
            return Err(format!("{} is not a contract", address.to_base58()));
        }
        self.set_sealed_storage(address, slot, value);
        self.write_storage(address, slot, value);
        Ok(())
    }

    /// Sets a storage slot in the state transactions run against (the pending one).
    fn write_storage(&mut self, address: Address, slot: U256, value: U256) {
        self.db
            .insert_account_storage(alloy_primitives::Address::from(address), slot, value)
            .expect("the in-memory database cannot fail");
    }

    /// Sets a balance in the state transactions run against (the pending one).
    fn write_balance(&mut self, address: Address, sun: i64) {
        let key = alloy_primitives::Address::from(address);
        let db = &mut self.db;
        let mut info = db
            .cache
            .accounts
            .get(&key)
            .map(|a| a.info.clone())
            .unwrap_or_default();
        info.balance = U256::from(sun.max(0) as u64);
        db.insert_account_info(key, info);
        let now = self.head().timestamp;
        self.touch(address, now);
    }

    /// Makes `address` an account TRON knows. revm charges a value-bearing call 25,000 for
    /// an "empty" target (no balance, nonce or code) where TVM charges it for one that does
    /// not exist; a nonce on every known account makes the two the same rule.
    fn touch(&mut self, address: Address, now: i64) {
        self.data
            .accounts
            .entry(address)
            .or_insert_with(|| AccountMeta {
                create_time: now,
                ..AccountMeta::default()
            });
        mark_existing(&mut self.db, address);
    }

    fn debit(&mut self, address: &Address, sun: i64) {
        if sun > 0 {
            let balance = self.balance(address);
            self.write_balance(*address, balance.saturating_sub(sun));
        }
    }

    /// Takes a signed transaction through java-tron's broadcast checks — TaPoS, expiration,
    /// size, duplicate, signature, then the contract's own validation and resources — and
    /// executes it into the block being built. `signers` are the addresses recovered from its
    /// signatures (done by the caller, outside any lock), or why recovery failed.
    pub fn submit(
        &mut self,
        tx: Transaction,
        signers: Result<Vec<Address>, String>,
    ) -> Result<TxId, Rejection> {
        let txid = tx.txid();
        let raw = tx.raw();
        self.check_tapos(&tx)?;
        let head_time = self.head().timestamp;
        if raw.expiration <= head_time || raw.expiration > head_time + MAX_EXPIRATION_MS {
            return Err(Rejection::new(
                "TRANSACTION_EXPIRATION_ERROR",
                "Transaction expired",
            ));
        }
        let size = tx.to_protobuf().len();
        if size > MAX_TX_BYTES {
            return Err(Rejection::new(
                "TOO_BIG_TRANSACTION_ERROR",
                format!("Too big transaction, the size is {size} bytes, maxTxSize {MAX_TX_BYTES}"),
            ));
        }
        // A duplicate of a sealed transaction or of a pending one (java-tron's
        // `Manager.validateDup` asks the transaction store, which holds the pending state's).
        if self.data.txs.contains_key(&txid) || self.pending.iter().any(|m| m.info.id == txid) {
            return Err(Rejection::new("DUP_TRANSACTION_ERROR", "Dup transaction."));
        }
        let owner = tx
            .owner()
            .map_err(|e| Rejection::validate(format!("Invalid ownerAddress: {e}")))?;
        check_signers(&tx, owner, signers)?;
        self.open_block();
        let (number, time) = self.building.expect("a block is being built");
        self.keep_sealed_base();
        let info = self.execute(&tx, size, txid, owner, number, time)?;
        self.pending.push(Mined { tx, info });
        Ok(txid)
    }

    /// TaPoS: the transaction refers to one of the last [`TAPOS_WINDOW`] blocks.
    fn check_tapos(&self, tx: &Transaction) -> Result<(), Rejection> {
        let raw = tx.raw();
        let tapos_ok = <[u8; 2]>::try_from(raw.ref_block_bytes.as_slice())
            .ok()
            .and_then(|bytes| self.data.recent.get(&bytes))
            .is_some_and(|hash| hash.as_slice() == raw.ref_block_hash.as_slice());
        if tapos_ok {
            Ok(())
        } else {
            Err(Rejection::new("TAPOS_ERROR", "Tapos check error."))
        }
    }

    /// Executes a transaction without any of the broadcast checks (genesis only).
    pub(crate) fn apply_unchecked(&mut self, tx: Transaction) -> Result<TxInfo, Rejection> {
        let txid = tx.txid();
        let owner = tx.owner().map_err(|e| Rejection::validate(e.to_string()))?;
        self.open_block();
        let (number, time) = self.building.expect("a block is being built");
        let size = tx.to_protobuf().len();
        let info = self.execute(&tx, size, txid, owner, number, time)?;
        self.pending.push(Mined {
            tx,
            info: info.clone(),
        });
        Ok(info)
    }

    fn set_block(&mut self, number: u64, timestamp: i64, coinbase: alloy_primitives::Address) {
        self.block_env = evm::block_env(number, timestamp, coinbase);
    }

    /// Runs `f` on an EVM over the chain's state in the current block environment, timed
    /// by `cpu`; answers what `f` did and the inspector as the run left it (its modeled time
    /// and dynamic-energy penalty).
    fn with_evm<R>(
        &mut self,
        next_create: Option<alloy_primitives::Address>,
        cpu: cpu::CpuMeter,
        f: impl FnOnce(&mut Evm) -> R,
    ) -> (R, evm::TronInspector) {
        let db = std::mem::take(&mut self.db);
        let mut evm = evm::new_evm(
            db,
            self.data.chain_id,
            self.block_env.clone(),
            next_create,
            cpu,
            self.data.params.tvm,
            self.contract_rules(),
        );
        let result = f(&mut evm);
        self.db = std::mem::take(&mut evm.ctx.journaled_state.database);
        let inspector = evm.inspector.clone();
        self.last_cpu_time_us = inspector.cpu.used_us();
        (result, inspector)
    }

    /// What the energy rules need to know of the contracts: their factors and which were
    /// created with version 1.
    fn contract_rules(&self) -> std::sync::Arc<energy::ContractRules> {
        std::sync::Arc::new(energy::ContractRules {
            factors: self
                .data
                .energy_factors
                .iter()
                .filter(|(_, f)| **f != 0)
                .map(|(a, f)| (alloy_primitives::Address::from(*a), *f))
                .collect(),
            version1: self
                .data
                .contracts
                .iter()
                .filter(|(_, c)| c.version == 1)
                .map(|(a, _)| alloy_primitives::Address::from(*a))
                .collect(),
        })
    }

    /// A contract's dynamic-energy factor, in 1/10,000 (`contract_state.energy_factor`).
    pub fn energy_factor(&self, contract: &Address) -> i64 {
        self.data.energy_factors.get(contract).copied().unwrap_or(0)
    }

    /// Sets a contract's dynamic-energy factor (`/devnet/set_energy_factor`, genesis): 0 to
    /// the network's maximum factor, as `catchUpToCycle` keeps it.
    pub fn set_energy_factor(&mut self, contract: Address, factor: i64) -> Result<(), String> {
        if !self.data.contracts.contains_key(&contract) {
            return Err(format!("{} is not a contract", contract.to_base58()));
        }
        if !(0..=energy::DYNAMIC_ENERGY_MAX_FACTOR).contains(&factor) {
            return Err(format!(
                "energy factor must be between 0 and {} (in 1/10,000)",
                energy::DYNAMIC_ENERGY_MAX_FACTOR
            ));
        }
        if factor == 0 {
            self.data.energy_factors.remove(&contract);
        } else {
            self.data.energy_factors.insert(contract, factor);
        }
        Ok(())
    }

    fn open_block(&mut self) {
        if self.building.is_none() {
            let env = (self.head().number + 1, self.now());
            self.set_block(env.0, env.1, self.witness.address().into());
            self.building = Some(env);
        }
    }

    /// Seals the block being built (or an empty one) and returns its number. When pooling,
    /// the block is produced now, at the clock's time, from the pending pool ([`pool`]).
    pub fn mine(&mut self) -> u64 {
        if self.pooling {
            self.building = None;
            let (number, timestamp) = (self.head().number + 1, self.now());
            return self.produce(number, timestamp);
        }
        let (number, timestamp) = self
            .building
            .take()
            .unwrap_or_else(|| (self.head().number + 1, self.now()));
        self.seal(number, timestamp)
    }

    /// Starts the next block at a given time (genesis uses fixed times).
    pub(crate) fn begin_block_at(&mut self, timestamp: i64) {
        let number = self.head().number + 1;
        self.set_block(number, timestamp, self.witness.address().into());
        self.building = Some((number, timestamp));
    }

    fn seal(&mut self, number: u64, timestamp: i64) -> u64 {
        let pending = std::mem::take(&mut self.pending);
        let hashes: Vec<[u8; 32]> = pending
            .iter()
            .map(|m| Sha256::digest(m.tx.to_protobuf()).into())
            .collect();
        let ids = pending.iter().map(|m| m.info.id).collect();
        let parent = self.head().id;
        let block = Block::seal(number, timestamp, parent, ids, &hashes, &self.witness);
        for (tx_position, mut mined) in pending.into_iter().enumerate() {
            mined.info.block_number = number;
            mined.info.block_timestamp = timestamp;
            self.index(&mined, tx_position);
            self.data.txs.insert(mined.info.id, mined);
        }
        self.push_block(block);
        number
    }

    fn index(&mut self, mined: &Mined, tx_position: usize) {
        for (log_index, log) in mined.info.logs.iter().enumerate() {
            self.data
                .events
                .entry(Address::from_evm(log.address))
                .or_default()
                .push(EventRef {
                    txid: mined.info.id,
                    log_index,
                    topic0: log.topics.first().copied(),
                    block: mined.info.block_number,
                    tx_position,
                });
        }
    }

    fn push_block(&mut self, block: Block) {
        self.data.recent.insert(block.ref_bytes(), block.ref_hash());
        self.db
            .cache
            .block_hashes
            .insert(U256::from(block.number), B256::from(block.id));
        self.data.blocks.push(block);
    }

    /// Pays for a system contract that runs no code (stake, settings): its bandwidth and
    /// memo, with `reserved` sun of the balance it moves still to be there afterwards.
    fn pay_bandwidth(
        &mut self,
        owner: &Address,
        bytes: i64,
        time: i64,
        memo_fee: i64,
        reserved: i64,
        info: &mut TxInfo,
    ) -> Result<(), Rejection> {
        let balance = self.balance(owner);
        let (net_usage, net_fee) = self.bandwidth(owner, bytes, time);
        if balance < net_fee + memo_fee {
            return Err(Rejection::new(
                "BANDWITH_ERROR",
                "Account resource insufficient error.",
            ));
        }
        if balance - net_fee - memo_fee < reserved {
            return Err(Rejection::validate(
                "frozenBalance must be less than or equal to accountBalance",
            ));
        }
        self.consume_free_net(owner, net_usage, time);
        self.debit(owner, net_fee + memo_fee);
        info.net_usage = net_usage;
        info.net_fee = net_fee;
        info.fee = net_fee + memo_fee;
        Ok(())
    }

    /// Pays the energy a contract run used (the origin's share and the caller's stake first,
    /// then burned TRX; [`stake`]) and records the run and every fee in `info`.
    fn charge(
        &mut self,
        owner: &Address,
        budget: &stake_state::EnergyBudget,
        info: &mut TxInfo,
        outcome: CallOutcome,
        (net_usage, net_fee): (i64, i64),
        memo_fee: i64,
    ) {
        let bill = self.pay_energy(owner, budget, outcome.energy_used, info.block_timestamp);
        let energy_fee = bill.burned_sun;
        self.debit(owner, energy_fee);
        info.contract_result = Some(outcome.output);
        info.energy_usage_total = outcome.energy_used;
        info.energy_usage = bill.caller_staked;
        info.origin_energy_usage = bill.origin_staked;
        info.energy_penalty_total = outcome.energy_penalty;
        info.energy_fee = energy_fee;
        info.net_usage = net_usage;
        info.net_fee = net_fee;
        info.fee = energy_fee + net_fee + memo_fee;
        info.result = Some(outcome.ret);
        info.cpu_time_us = outcome.cpu_time_us;
        info.logs = outcome.logs;
        info.failure = outcome.message;
    }

    /// How a transaction of `bytes` pays for bandwidth: `(net_usage, net_fee)`. All its bytes
    /// come from one place or all are burned, never a mix: java-tron tries the staked
    /// bandwidth (`useAccountNet`), then the free allowance (`useFreeNet`), each only if it
    /// holds every byte, and otherwise burns TRX for all of them (`useTransactionFee`;
    /// `chainbase/src/main/java/org/tron/core/db/BandwidthProcessor.java`, `consume`). The
    /// devnet stakes no bandwidth ([`stake`]), so the first never applies here.
    fn bandwidth(&self, owner: &Address, bytes: i64, now: i64) -> (i64, i64) {
        if self.free_net_available(owner, now) >= bytes {
            (bytes, 0)
        } else {
            (0, bytes * self.data.params.transaction_fee)
        }
    }

    fn consume_free_net(&mut self, owner: &Address, bytes: i64, now: i64) {
        if bytes == 0 {
            return;
        }
        let meta = self
            .data
            .accounts
            .entry(*owner)
            .or_insert_with(|| AccountMeta {
                create_time: now,
                ..AccountMeta::default()
            });
        meta.free_net_used =
            decayed(meta.free_net_used, meta.latest_consume_free_time, now) + bytes;
        meta.latest_consume_free_time = now;
    }

    /// Runs a call against the current state and throws the changes away. `contract = None`
    /// simulates a deployment of `data`. The energy limit is the largest a fee limit allows.
    pub fn call(
        &mut self,
        owner: Address,
        contract: Option<Address>,
        data: Vec<u8>,
        call_value: i64,
    ) -> Result<CallOutcome, Rejection> {
        let limit = self.data.params.max_fee_limit / self.data.params.energy_fee;
        self.run_call(owner, contract, data, call_value, limit)
    }

    /// [`Ledger::call`] with a given energy limit (`estimateenergy` searches for the least).
    pub fn call_limited(
        &mut self,
        owner: Address,
        contract: Address,
        data: Vec<u8>,
        call_value: i64,
        energy_limit: i64,
    ) -> Result<CallOutcome, Rejection> {
        self.run_call(owner, Some(contract), data, call_value, energy_limit)
    }

    fn run_call(
        &mut self,
        owner: Address,
        contract: Option<Address>,
        data: Vec<u8>,
        call_value: i64,
        limit: i64,
    ) -> Result<CallOutcome, Rejection> {
        if let Some(contract) = contract
            && !self.data.contracts.contains_key(&contract)
            && self.code(&contract).is_empty()
        {
            return Err(Rejection::validate("Smart contract is not exist."));
        }
        // A constant call runs in the head block's context: java-tron's
        // `Wallet.callConstantContract` (framework/.../core/Wallet.java) makes its
        // TransactionContext from the head block, and `ProgramInvokeFactory` takes TIMESTAMP
        // (seconds), NUMBER and COINBASE from that block. So `block.timestamp` in a view is the
        // head's time, not the clock's: what a price oracle's reader must pair its reading with.
        if self.building.is_none() {
            let head = self.head();
            let (number, timestamp) = (head.number, head.timestamp);
            self.set_block(number, timestamp, self.witness.address().into());
        }
        let kind = contract.map_or(TxKind::Create, |c| TxKind::Call(c.into()));
        let env = tx_env(
            owner,
            kind,
            data,
            call_value,
            limit.max(0) as u64,
            self.data.chain_id,
        );
        // Constant calls run under the same deadline as transactions (java-tron's
        // `Wallet.callConstantContract`: a VMActuator of ratio 1.0).
        let meter = self.cpu_meter();
        let (result, run) = self.with_evm(None, meter, |evm| evm.inspect_tx(env));
        let result = result.map_err(|e| Rejection::new("OTHER_ERROR", e.to_string()))?;
        Ok(outcome(result.result, limit, &run))
    }

    /// Copies the whole chain (seals the block being built first).
    pub fn snapshot(&mut self) -> Snapshot {
        if self.building.is_some() {
            self.mine();
        }
        Snapshot {
            db: self.db.clone(),
            data: self.data.clone(),
        }
    }

    /// Goes back to a snapshot: state, blocks, receipts and clock offset.
    pub fn restore(&mut self, snapshot: Snapshot) {
        self.clear_pool();
        self.db = snapshot.db;
        self.data = snapshot.data;
    }

    pub(crate) fn db(&self) -> &Db {
        &self.db
    }

    /// Rebuilds a chain from saved parts.
    pub(crate) fn from_parts(witness: PrivateKey, mut db: Db, data: ChainData) -> Self {
        for address in data.accounts.keys() {
            mark_existing(&mut db, *address);
        }
        Ledger {
            db,
            block_env: BlockEnv::default(),
            data,
            witness,
            pending: Vec::new(),
            building: None,
            pooling: false,
            sealed: None,
            cpu_speed: 1.0,
            last_cpu_time_us: 0,
        }
    }

    /// The weight `signatures` carry for `owner` on `txid` (java-tron `getsignweight`).
    pub fn sign_weight(&self, owner: Address, txid: &TxId, signatures: &[Vec<u8>]) -> SignWeight {
        if self.account(&owner).is_none() {
            return SignWeight::NoAccount;
        }
        let mut approved = Vec::new();
        for bytes in signatures {
            match tron::Signature::from_slice(bytes).and_then(|s| s.recover(&txid.0)) {
                Ok(signer) if signer == owner => approved.push(signer),
                Ok(signer) => return SignWeight::Foreign(signer),
                Err(e) => return SignWeight::Malformed(e.to_string()),
            }
        }
        SignWeight::Approved(approved)
    }
}

/// Gives a known account a nonce, so revm never takes it for a new one (see
/// [`Ledger::touch`]). TRON has no nonces, so nothing else reads it.
fn mark_existing(db: &mut Db, address: Address) {
    let key = alloy_primitives::Address::from(address);
    let mut info = db
        .cache
        .accounts
        .get(&key)
        .map(|a| a.info.clone())
        .unwrap_or_default();
    if info.nonce == 0 {
        info.nonce = 1;
        db.insert_account_info(key, info);
    }
}

/// Used free bandwidth after recovering linearly for `now - since` of a 24-hour window.
fn decayed(used: i64, since: i64, now: i64) -> i64 {
    let elapsed = (now - since).max(0);
    if elapsed >= NET_WINDOW_MS {
        0
    } else {
        (used as i128 * (NET_WINDOW_MS - elapsed) as i128 / NET_WINDOW_MS as i128) as i64
    }
}

/// The txID and signer check a caller runs before taking the chain's lock: recovering a
/// signature is the expensive part of accepting a transaction.
pub fn recover_signers(tx: &Transaction) -> Result<Vec<Address>, String> {
    tx.signers().map_err(|e| e.to_string())
}

#[cfg(test)]
mod bandwidth_tests {
    use super::*;

    /// 300 of 600 free bytes left: a 300-byte transaction uses them, a 301-byte one burns
    /// TRX for all 301 and leaves the allowance untouched (`BandwidthProcessor.consume`).
    #[test]
    fn bytes_come_wholly_from_the_free_allowance_or_are_all_burned() {
        let owner = Address::from(alloy_primitives::Address::repeat_byte(3));
        let mut chain = Ledger::new(crate::genesis::witness_key(), 1_000, &[(owner, 10_000_000)]);
        let now = 2_000;
        let free = chain.params().free_net_limit;
        assert_eq!(free, 600);
        chain.consume_free_net(&owner, 300, now);
        assert_eq!(chain.free_net_available(&owner, now), 300);
        let fee = chain.params().transaction_fee;
        assert_eq!(chain.bandwidth(&owner, 301, now), (0, 301 * fee));
        assert_eq!(chain.bandwidth(&owner, 300, now), (300, 0));
        // A relay's 800 bytes never fit the 600 of a fresh account: all burned.
        let fresh = Address::from(alloy_primitives::Address::repeat_byte(4));
        assert_eq!(chain.bandwidth(&fresh, 800, now), (0, 800 * fee));
    }
}
