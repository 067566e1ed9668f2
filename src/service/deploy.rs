//! Deploying tronpool to a network: the hashers, the two verifiers with the ceremonies'
//! verifying keys (withdraw and batch), the inserter that batches go through, and one queued
//! pool per denomination against the network's USDT (docs/batches.md).
//!
//! Every contract is priced by simulating its creation on the node before anything is
//! signed. Each signed creation is recorded in the submit journal (`service::journal`, which
//! sends and follows it) and the deployment record is saved before each broadcast (the
//! pending transaction) and after each receipt (the address), so an interrupted deployment
//! resumes where it stopped and never pays for the same contract twice.

use alloy_primitives::U256;
use alloy_sol_types::SolConstructor;
use tron::proto::{CreateSmartContract, SmartContract};
use tron::{Action, Address, NodeClient, Transaction, TransactionBuilder, TxId};
use zk::circuits::Circuit;
use zk::keys::Keys;

use crate::error::{Error, Result};
use crate::service::journal::{Journal, Purpose};
use crate::service::submit::{Broadcast, Outcome};
use crate::store::config::{BatchRecord, DeploymentRecord, PendingRecord, PoolRecord};

/// How long a deployment transaction stays valid. Creation transactions are large and a
/// busy node may take a while; a minute is java-tron's default.
const EXPIRATION_MS: i64 = 60_000;
/// Headroom over the simulated energy in the fee limit.
const FEE_LIMIT_MARGIN_PERCENT: i64 = 20;
/// Bandwidth a creation transaction uses beyond its bytecode: header, signature, ABI.
const TX_OVERHEAD_BYTES: i64 = 400;
pub use contracts::sponsorship::{
    DEFAULT_CALLER_ENERGY_PERCENT, DEFAULT_POOL_ORIGIN_ENERGY_LIMIT,
    UNSPONSORED_ORIGIN_ENERGY_LIMIT,
};

/// The pools deployed when none are named, in whole USDT.
pub(crate) const DEFAULT_DENOMINATIONS: [u64; 6] = [100, 500, 1_000, 3_000, 5_000, 10_000];

/// One of the contracts a deployment consists of, in the order they are deployed: a pool
/// names every other one in its constructor.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Contract {
    /// Poseidon of two inputs: the tree's hash.
    Hasher,
    /// Poseidon of four inputs: binds a batch proof's public values.
    Hasher4,
    /// The withdraw circuit's verifier.
    Verifier,
    /// The batch circuit's verifier.
    BatchVerifier,
    /// The unsponsored door to the pools' `insertBatch`.
    Inserter,
    /// A queued pool, in whole USDT.
    Pool(u64),
}

impl Contract {
    /// The name in the deployment record and in messages.
    pub fn name(&self) -> String {
        match self {
            Contract::Hasher => "hasher".into(),
            Contract::Hasher4 => "batch hasher".into(),
            Contract::Verifier => "verifier".into(),
            Contract::BatchVerifier => "batch verifier".into(),
            Contract::Inserter => "batch inserter".into(),
            Contract::Pool(d) => format!("pool {d}"),
        }
    }

    /// Creation code, from the committed artifacts' bindings.
    fn bytecode(&self) -> &'static [u8] {
        match self {
            Contract::Hasher => &contracts::PoseidonT3::BYTECODE,
            Contract::Hasher4 => &contracts::PoseidonT5::BYTECODE,
            Contract::Verifier | Contract::BatchVerifier => &contracts::Groth16Verifier::BYTECODE,
            Contract::Inserter => &contracts::BatchInserter::BYTECODE,
            Contract::Pool(_) => &contracts::QueuedPool::BYTECODE,
        }
    }

    fn artifact(&self) -> &'static str {
        match self {
            Contract::Hasher => "PoseidonT3",
            Contract::Hasher4 => "PoseidonT5",
            Contract::Verifier | Contract::BatchVerifier => "Groth16Verifier",
            Contract::Inserter => "BatchInserter",
            Contract::Pool(_) => "QueuedPool",
        }
    }

    /// Every contract of `record`, in deployment order.
    fn all_of(record: &DeploymentRecord) -> Vec<Contract> {
        let mut all = vec![
            Contract::Hasher,
            Contract::Hasher4,
            Contract::Verifier,
            Contract::BatchVerifier,
            Contract::Inserter,
        ];
        all.extend(record.denominations.iter().map(|d| Contract::Pool(*d)));
        all
    }
}

/// The keys a deployment's two verifiers are made from: each circuit's ceremony's.
pub struct DeployKeys {
    pub withdraw: Keys,
    pub batch: Keys,
}

/// Where a contract stands.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum StepState {
    Deployed(Address),
    /// Broadcast earlier, not yet in a block and not yet expired.
    Pending(PendingRecord),
    ToDo,
}

#[derive(Debug, Clone)]
pub struct Step {
    pub contract: Contract,
    pub state: StepState,
    /// The simulated energy of its creation (zero once deployed).
    pub energy: i64,
    /// The size of its creation transaction, for bandwidth.
    pub bytes: i64,
}

/// What a deployment will do and cost.
#[derive(Debug, Clone)]
pub struct Plan {
    pub record: DeploymentRecord,
    /// Who signs what is still to deploy.
    pub owner: Address,
    pub steps: Vec<Step>,
    /// Sun per unit of energy.
    pub energy_fee: i64,
    pub max_fee_limit: i64,
    /// Sun per byte of bandwidth beyond the free allowance.
    pub bandwidth_fee: i64,
    pub owner_trx: i64,
    pub energy_available: i64,
    pub bandwidth_available: i64,
}

impl Plan {
    pub(crate) fn to_do(&self) -> impl Iterator<Item = &Step> {
        self.steps.iter().filter(|s| s.state == StepState::ToDo)
    }

    pub fn energy(&self) -> i64 {
        self.to_do().map(|s| s.energy).sum()
    }

    /// Sun the deployment burns: energy beyond the owner's staked energy, and bandwidth
    /// beyond the free allowance, at today's prices.
    pub fn cost(&self) -> i64 {
        let energy = (self.energy() - self.energy_available).max(0) * self.energy_fee;
        let bytes: i64 = self.to_do().map(|s| s.bytes).sum();
        let bandwidth = (bytes - self.bandwidth_available).max(0) * self.bandwidth_fee;
        energy + bandwidth
    }

    /// The fee limit for one contract: its energy plus the margin, within the chain's cap.
    pub fn fee_limit(&self, step: &Step) -> Result<i64> {
        let sun =
            step.energy.saturating_mul(self.energy_fee) * (100 + FEE_LIMIT_MARGIN_PERCENT) / 100;
        let sun = ((sun + 999_999) / 1_000_000).max(1) * 1_000_000;
        if sun > self.max_fee_limit {
            return Err(Error::Refused(format!(
                "the {} needs about {} energy, more than the {} TRX fee limit this chain allows",
                step.contract.name(),
                step.energy,
                self.max_fee_limit / 1_000_000
            )));
        }
        Ok(sun)
    }

    pub(crate) fn is_done(&self) -> bool {
        self.steps
            .iter()
            .all(|s| matches!(s.state, StepState::Deployed(_)))
    }
}

/// What to deploy.
#[derive(Debug, Clone)]
pub struct Request {
    pub network: String,
    pub owner: Address,
    pub usdt: Address,
    /// None: those of the record being resumed, or [`DEFAULT_DENOMINATIONS`].
    pub denominations: Option<Vec<u64>>,
    /// The chain id the network must have, when the network is a known one.
    pub chain_id: Option<u64>,
    /// Who pays the pools' callers' energy: `(caller percent, origin energy limit)`; `None`
    /// keeps the record's, or the defaults for a new deployment.
    pub caller_energy_percent: Option<i64>,
    pub origin_energy_limit: Option<i64>,
    /// What each deposit escrows for its insertion, in USDT base units; `None` keeps the
    /// record's, or [`contracts::batches::DEFAULT_INSERTION_FEE`] for a new deployment.
    pub insertion_fee: Option<u64>,
}

/// The chain id of the node's network: the last four bytes of its genesis block's id.
pub async fn chain_id(node: &NodeClient) -> Result<u64> {
    let genesis = node
        .get_block(0, false)
        .await?
        .ok_or_else(|| Error::Failed(format!("the node at {} has no block 0", node.url())))?;
    let id = &genesis.block_id;
    Ok(u64::from(u32::from_be_bytes([
        id[28], id[29], id[30], id[31],
    ])))
}

/// Checks the network, the keys and the record being resumed, settles a pending
/// transaction, and prices every contract still to deploy. Changes nothing on chain; the
/// returned record may differ from `existing` (a pending transaction settled) and should be
/// saved.
pub async fn plan(
    node: &NodeClient,
    request: &Request,
    keys: &DeployKeys,
    existing: Option<DeploymentRecord>,
) -> Result<Plan> {
    let network = &request.network;
    // The network first: what it cannot run, no key makes right.
    let params = node.get_chain_parameters().await?;
    check_tvm_switches(&params, network)?;
    for (keys, circuit) in [
        (&keys.withdraw, Circuit::Withdraw),
        (&keys.batch, Circuit::Batch),
    ] {
        if keys.circuit() != circuit {
            return Err(Error::usage(format!(
                "the keys given for the {circuit} circuit are the {} circuit's",
                keys.circuit()
            )));
        }
        if keys.is_insecure_dev() {
            return Err(Error::Refused(format!(
                "refusing to deploy to {network} with tronpool's insecure development keys for \
                 the {circuit} circuit: anyone could forge proofs (and empty the pools, or fill \
                 their trees); use a ceremony's zkey (docs/ceremony.md)"
            )));
        }
    }
    let chain_id = chain_id(node).await?;
    if let Some(expected) = request.chain_id.filter(|e| *e != chain_id) {
        return Err(Error::usage(format!(
            "the node at {} is on chain {chain_id:#x}, not {network} ({expected:#x}); check \
             --node and the config file",
            node.url()
        )));
    }
    if node.get_contract(&request.usdt).await?.is_none() {
        return Err(Error::usage(format!(
            "there is no contract at {} on {network}, the USDT address configured for it",
            request.usdt
        )));
    }
    let vk_sha256 = keys.withdraw.verifying_key_sha256();
    let batch_vk_sha256 = keys.batch.verifying_key_sha256();
    let mut record = match existing {
        Some(record) => {
            resumable(
                &record,
                network,
                chain_id,
                request.usdt,
                (&vk_sha256, &batch_vk_sha256),
            )?;
            let kept_fee = record.batches.as_ref().map(|b| b.insertion_fee);
            if let Some(asked) = request.insertion_fee
                && Some(asked) != kept_fee
            {
                return Err(Error::usage(format!(
                    "the deployment being resumed creates its pools with an insertion fee of \
                     {} USDT base units (its record says so); a deployment's pools share one",
                    kept_fee.unwrap_or_default()
                )));
            }
            for (asked, kept, flag) in [
                (
                    request.caller_energy_percent,
                    record.caller_energy_percent,
                    "--caller-energy-percent",
                ),
                (
                    request.origin_energy_limit,
                    record.origin_energy_limit,
                    "--origin-energy-limit",
                ),
            ] {
                if asked.is_some() && asked != kept {
                    return Err(Error::usage(format!(
                        "the deployment being resumed creates its pools with {} (its record \
                         says so); pools keep one setting: change it after the deployment with \
                         `tronpool pool sponsor`",
                        kept.map_or("its callers paying all their energy".into(), |v| format!(
                            "{flag} {v}"
                        ))
                    )));
                }
            }
            record
        }
        None => DeploymentRecord {
            chain_id,
            usdt: request.usdt,
            deployer: request.owner,
            verifying_key_sha256: vk_sha256,
            denominations: Vec::new(),
            block: None,
            hasher: None,
            verifier: None,
            pools: Vec::new(),
            pending: None,
            caller_energy_percent: Some(
                request
                    .caller_energy_percent
                    .unwrap_or(DEFAULT_CALLER_ENERGY_PERCENT),
            ),
            origin_energy_limit: Some(
                request
                    .origin_energy_limit
                    .unwrap_or(DEFAULT_POOL_ORIGIN_ENERGY_LIMIT),
            ),
            batches: Some(BatchRecord {
                hasher4: None,
                verifier: None,
                verifying_key_sha256: batch_vk_sha256,
                inserter: None,
                insertion_fee: request
                    .insertion_fee
                    .unwrap_or(contracts::batches::DEFAULT_INSERTION_FEE),
            }),
        },
    };
    if let Some(p) = record.caller_energy_percent
        && !(0..=100).contains(&p)
    {
        return Err(Error::usage(format!(
            "--caller-energy-percent {p} is not a percent from 0 to 100"
        )));
    }
    if let Some(limit) = record.origin_energy_limit
        && limit <= 0
    {
        return Err(Error::usage(format!(
            "--origin-energy-limit {limit} must be more than 0"
        )));
    }
    let wanted = match &request.denominations {
        Some(list) => list.clone(),
        None if record.denominations.is_empty() => DEFAULT_DENOMINATIONS.to_vec(),
        None => Vec::new(),
    };
    for denomination in wanted {
        if denomination == 0 {
            return Err(Error::usage("a pool's denomination must be positive"));
        }
        if !record.denominations.contains(&denomination) {
            record.denominations.push(denomination);
        }
    }
    settle_pending(node, &mut record).await?;

    let contracts = Contract::all_of(&record);
    let (resources, account) = tokio::try_join!(
        async { Ok::<_, Error>(node.get_account_resource(&request.owner).await?) },
        async { Ok(node.get_account(&request.owner).await?) },
    )?;
    let mut steps = Vec::new();
    for contract in contracts {
        let state = match (recorded(&record, contract), &record.pending) {
            (Some(address), _) => {
                if node.get_contract(&address).await?.is_none() {
                    return Err(Error::Failed(format!(
                        "the recorded {} {address} has no code on {network}: the record is \
                         from another chain; remove [networks.{network}.deployment] from the \
                         config file to deploy afresh",
                        contract.name()
                    )));
                }
                StepState::Deployed(address)
            }
            (None, Some(pending)) if pending.contract == contract.name() => {
                StepState::Pending(pending.clone())
            }
            (None, _) => StepState::ToDo,
        };
        let (energy, bytes) = if state == StepState::ToDo {
            let code = creation_code(contract, &record, keys, request.owner)?;
            let simulated = node.simulate_deployment(&request.owner, &code).await?;
            if simulated.reverted {
                return Err(Error::Failed(format!(
                    "deploying the {} would fail: {}",
                    contract.name(),
                    simulated
                        .revert_reason()
                        .unwrap_or_else(|| "it reverts without a reason".into())
                )));
            }
            (simulated.energy_used, code.len() as i64 + TX_OVERHEAD_BYTES)
        } else {
            (0, 0)
        };
        steps.push(Step {
            contract,
            state,
            energy,
            bytes,
        });
    }
    Ok(Plan {
        record,
        owner: request.owner,
        steps,
        energy_fee: params.energy_fee().unwrap_or(100),
        max_fee_limit: params.max_fee_limit().unwrap_or(15_000_000_000),
        bandwidth_fee: params.transaction_fee().unwrap_or(1_000),
        owner_trx: account.map_or(0, |a| a.balance),
        energy_available: resources.energy_available(),
        bandwidth_available: resources.bandwidth_available(),
    })
}

/// Refuses a network that lacks a TVM upgrade the contracts are built for: there, any call
/// that reaches one of its opcodes fails `ILLEGAL_OPERATION` and burns its fee limit.
pub(crate) fn check_tvm_switches(
    params: &tron::client::ChainParameters,
    network: &str,
) -> Result<()> {
    for (param, brings) in contracts::REQUIRED_TVM_SWITCHES {
        if params.get(param) != Some(1) {
            return Err(Error::Refused(format!(
                "{network} cannot run tronpool's contracts: they are built for {} and need \
                 {brings}, which the network's chain parameter {param} has not switched on",
                contracts::EVM_VERSION
            )));
        }
    }
    Ok(())
}

/// Whether `record` can be continued with this network, token and keys (withdraw, batch).
fn resumable(
    record: &DeploymentRecord,
    network: &str,
    chain_id: u64,
    usdt: Address,
    (vk_sha256, batch_vk_sha256): (&str, &str),
) -> Result<()> {
    let afresh =
        format!("remove [networks.{network}.deployment] from the config file to deploy afresh");
    if record.chain_id != chain_id {
        return Err(Error::usage(format!(
            "the deployment recorded for {network} is on chain {:#x}, but the node is on \
             {chain_id:#x}; {afresh}",
            record.chain_id
        )));
    }
    if record.usdt != usdt {
        return Err(Error::usage(format!(
            "the deployment recorded for {network} uses USDT {}, not {usdt}; {afresh}",
            record.usdt
        )));
    }
    let Some(batches) = &record.batches else {
        return Err(Error::usage(format!(
            "the deployment recorded for {network} is of pools that insert each deposit at \
             once, from before queued pools, which this tronpool no longer deploys; {afresh}"
        )));
    };
    for (circuit, pinned, ours, flag) in [
        (
            "withdraw",
            &record.verifying_key_sha256,
            vk_sha256,
            "--zkey",
        ),
        (
            "batch",
            &batches.verifying_key_sha256,
            batch_vk_sha256,
            "--batch-zkey",
        ),
    ] {
        if pinned != ours {
            return Err(Error::usage(format!(
                "the deployment recorded for {network} pins verifying key {pinned} for the \
                 {circuit} circuit, but these keys' is {ours}; deploy with the {flag} it was \
                 started with, or {afresh}"
            )));
        }
    }
    Ok(())
}

/// Settles a transaction broadcast by an earlier run: its contract is deployed if it
/// succeeded; it is forgotten if it failed or expired; it stays pending otherwise.
async fn settle_pending(node: &NodeClient, record: &mut DeploymentRecord) -> Result<()> {
    let Some(pending) = record.pending.clone() else {
        return Ok(());
    };
    let txid: TxId = pending.txid.parse().map_err(|_| {
        Error::usage(format!(
            "the deployment record's pending txid `{}` is not a transaction id",
            pending.txid
        ))
    })?;
    match node.get_transaction_info(&txid).await? {
        Some(info) if info.succeeded() => {
            let contract = contract_named(record, &pending.contract)?;
            let address = info
                .contract_address
                .unwrap_or_else(|| Address::contract_address(&txid.0, &record.deployer));
            record_deployed(record, contract, address, info.block_number);
        }
        Some(_) => record.pending = None,
        None => {
            let head = node.get_now_block().await?;
            if head.timestamp() > pending.expiration {
                record.pending = None;
            }
        }
    }
    Ok(())
}

fn contract_named(record: &DeploymentRecord, name: &str) -> Result<Contract> {
    Contract::all_of(record)
        .into_iter()
        .find(|c| c.name() == name)
        .ok_or_else(|| {
            Error::usage(format!(
                "the deployment record's pending contract `{name}` is not one it deploys"
            ))
        })
}

fn recorded(record: &DeploymentRecord, contract: Contract) -> Option<Address> {
    let batches = record.batches.as_ref();
    match contract {
        Contract::Hasher => record.hasher,
        Contract::Hasher4 => batches.and_then(|b| b.hasher4),
        Contract::Verifier => record.verifier,
        Contract::BatchVerifier => batches.and_then(|b| b.verifier),
        Contract::Inserter => batches.and_then(|b| b.inserter),
        Contract::Pool(d) => record.pool(d),
    }
}

fn record_deployed(
    record: &mut DeploymentRecord,
    contract: Contract,
    address: Address,
    block: i64,
) {
    let batches = record
        .batches
        .as_mut()
        .expect("a deployment record being deployed has its batches table");
    match contract {
        Contract::Hasher => record.hasher = Some(address),
        Contract::Hasher4 => batches.hasher4 = Some(address),
        Contract::Verifier => record.verifier = Some(address),
        Contract::BatchVerifier => batches.verifier = Some(address),
        Contract::Inserter => batches.inserter = Some(address),
        Contract::Pool(denomination) => {
            let insertion_fee = batches.insertion_fee;
            record.pools.push(PoolRecord {
                denomination,
                address,
                insertion_fee,
            });
        }
    }
    let block = u64::try_from(block).unwrap_or(0);
    record.block = Some(record.block.map_or(block, |b| b.min(block)));
    record.pending = None;
}

/// The contract's bytecode with its constructor arguments. A pool whose other contracts are
/// not deployed yet is priced with `placeholder` in their place: the constructor only stores
/// the addresses, so the energy is the same.
fn creation_code(
    contract: Contract,
    record: &DeploymentRecord,
    keys: &DeployKeys,
    placeholder: Address,
) -> Result<Vec<u8>> {
    let batches = record.batches.as_ref();
    let or_placeholder = |a: Option<Address>| a.unwrap_or(placeholder).into();
    let args = match contract {
        Contract::Hasher | Contract::Hasher4 | Contract::Inserter => Vec::new(),
        Contract::Verifier => keys.withdraw.verifier_args().abi_encode(),
        Contract::BatchVerifier => keys.batch.verifier_args().abi_encode(),
        Contract::Pool(denomination) => contracts::QueuedPool::constructorCall {
            verifier_: or_placeholder(record.verifier),
            batchVerifier_: or_placeholder(batches.and_then(|b| b.verifier)),
            hasher_: or_placeholder(record.hasher),
            hasher4_: or_placeholder(batches.and_then(|b| b.hasher4)),
            token_: record.usdt.into(),
            denomination_: U256::from(denomination) * U256::from(1_000_000u64),
            insertionFee_: U256::from(batches.map_or(0, |b| b.insertion_fee)),
            inserter_: or_placeholder(batches.and_then(|b| b.inserter)),
        }
        .abi_encode(),
    };
    Ok(contracts::creation_code(contract.bytecode(), &args))
}

/// The ABI stored with the contract on chain, so explorers and wallets can call it.
fn abi(contract: Contract) -> Result<tron::proto::Abi> {
    let name = contract.artifact();
    let broken = |detail: String| Error::Failed(format!("the built-in {name} artifact: {detail}"));
    let artifact = contracts::artifact(name).ok_or_else(|| broken("missing".into()))?;
    let json: serde_json::Value =
        serde_json::from_str(artifact.json).map_err(|e| broken(e.to_string()))?;
    tron::json::abi_from_json(&json["abi"]).map_err(|e| broken(e.to_string()))
}

/// A contract deployed by [`deploy_step`].
#[derive(Debug, Clone)]
pub(crate) struct Deployed {
    pub address: Address,
    pub txid: TxId,
    pub energy: i64,
    /// Sun burned.
    pub fee: i64,
}

/// What a deployment step works with: the node, the journal of what was signed, and the
/// keys the verifier is made from.
#[derive(Clone, Copy)]
pub(crate) struct DeployDesk<'a> {
    pub node: &'a NodeClient,
    pub journal: &'a Journal,
    pub keys: &'a DeployKeys,
}

/// Deploys one contract: builds its creation transaction, has `sign` sign it, records it in
/// the journal and saves the record with the transaction pending, broadcasts, waits for the
/// receipt and saves the record with the address. Also finishes a step an earlier run left
/// pending.
pub(crate) async fn deploy_step(
    desk: DeployDesk<'_>,
    plan: &mut Plan,
    index: usize,
    sign: impl FnOnce(&mut Transaction) -> Result<()>,
    mut save: impl FnMut(&DeploymentRecord) -> Result<()>,
) -> Result<Option<Deployed>> {
    let DeployDesk {
        node,
        journal,
        keys,
    } = desk;
    let step = plan.steps[index].clone();
    let contract = step.contract;
    let txid = match &step.state {
        StepState::Deployed(_) => return Ok(None),
        StepState::Pending(pending) => {
            let tx = hex::decode(&pending.transaction)
                .ok()
                .and_then(|bytes| Transaction::from_protobuf(&bytes).ok())
                .filter(|tx| tx.txid().to_hex() == pending.txid)
                .ok_or_else(|| {
                    Error::usage(format!(
                        "the deployment record's pending {} transaction is damaged",
                        pending.contract
                    ))
                })?;
            // A record from before the journal, or from another data folder: journal it now.
            let entry = match journal.get(&pending.txid) {
                Err(Error::NotFound(_)) => {
                    journal.record(&tx, Purpose::Deploy, pending.contract.clone())?
                }
                found => found?,
            };
            // It may never have reached the node; sending it again is harmless either way,
            // and what the chain did with it decides below.
            if !entry.state.is_finished()
                && let Broadcast::Unknown(e) = journal.broadcast(node, &entry).await?
                && e.is_unavailable()
            {
                return Err(e.into());
            }
            tx.txid()
        }
        StepState::ToDo => {
            let mut tx = creation_transaction(node, plan, &step, keys).await?;
            sign(&mut tx)?;
            let entry = journal.record(&tx, Purpose::Deploy, contract.name())?;
            plan.record.pending = Some(PendingRecord {
                contract: contract.name(),
                txid: entry.txid.clone(),
                expiration: tx.expiration(),
                transaction: entry.signed_hex.clone(),
            });
            save(&plan.record)?;
            match journal.broadcast(node, &entry).await? {
                // Busy: following sends it again after a backoff.
                Broadcast::Accepted | Broadcast::Retry(_) => {}
                // Refused: the transaction went nowhere.
                Broadcast::Refused(reason) => {
                    plan.record.pending = None;
                    save(&plan.record)?;
                    return Err(Error::Refused(reason));
                }
                // No answer: it stays pending, for the next run to look up.
                Broadcast::Unknown(e) => return Err(e.into()),
            }
            tx.txid()
        }
    };
    let what = format!("the {} deployment", contract.name());
    // Failed, expired or refused: the contract is still to do. The node gone: still pending.
    let outcome = match journal.follow(node, &txid.to_hex()).await {
        Err(Error::Refused(reason)) => Err(Error::Refused(reason)),
        Err(e) => return Err(e),
        Ok(outcome) => Ok(outcome),
    };
    if !matches!(&outcome, Ok(Outcome::Included(info)) if info.succeeded()) {
        plan.record.pending = None;
        save(&plan.record)?;
    }
    let info = outcome?.settle(&what, &txid)?;
    let address = info
        .contract_address
        .unwrap_or_else(|| Address::contract_address(&txid.0, &plan.owner));
    record_deployed(&mut plan.record, contract, address, info.block_number);
    save(&plan.record)?;
    plan.steps[index].state = StepState::Deployed(address);
    Ok(Some(Deployed {
        address,
        txid,
        energy: info.receipt.energy_usage_total,
        fee: info.fee,
    }))
}

async fn creation_transaction(
    node: &NodeClient,
    plan: &Plan,
    step: &Step,
    keys: &DeployKeys,
) -> Result<Transaction> {
    let owner = plan.owner;
    let code = creation_code(step.contract, &plan.record, keys, owner)?;
    let abi = abi(step.contract)?;
    // Pools: their deployer's stake pays its callers' energy as the record says (a record
    // from before sponsorship: callers pay all). Every other contract makes its callers pay
    // all: the inserter above all, or anyone could send batches of one at the sponsor's
    // expense and collect their fees (docs/batches.md).
    let (percent, origin_energy_limit) = match step.contract {
        Contract::Pool(_) => (
            plan.record.caller_energy_percent.unwrap_or(100),
            plan.record
                .origin_energy_limit
                .unwrap_or(UNSPONSORED_ORIGIN_ENERGY_LIMIT),
        ),
        _ => (100, UNSPONSORED_ORIGIN_ENERGY_LIMIT),
    };
    let create = CreateSmartContract {
        owner_address: owner.tron_bytes().to_vec(),
        new_contract: Some(SmartContract {
            origin_address: owner.tron_bytes().to_vec(),
            abi: Some(abi),
            bytecode: code,
            consume_user_resource_percent: percent,
            origin_energy_limit,
            name: step.contract.artifact().to_owned(),
            ..SmartContract::default()
        }),
        ..CreateSmartContract::default()
    };
    let reference = node.get_now_block().await?.ref_block();
    Ok(
        TransactionBuilder::new(Action::Create(Box::new(create)), reference)
            .expiration(reference.timestamp + EXPIRATION_MS)
            .fee_limit(plan.fee_limit(step)?)
            .build(),
    )
}
