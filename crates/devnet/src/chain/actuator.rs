//! Running one transaction of each kind, as java-tron's actuators do
//! (`framework/…/core/actuator/TransferActuator.java`, `VMActuator.java` for calls and
//! creations, the Stake 2.0 and proposal actuators): validate first, then pay bandwidth,
//! memo and energy, then apply. A validation failure is a [`Rejection`] and changes nothing;
//! once a transaction is accepted its fees are charged whatever its contract did.
//!
//! The accounting itself lives beside its data: bandwidth and energy budgets in
//! `chain/energy.rs` and `Ledger::bandwidth`, revm's result mapped to TRON's in
//! `chain/outcome.rs`.

use revm::InspectCommitEvm;
use revm::primitives::TxKind;
use tron::proto::CreateSmartContract as Create;
use tron::transaction::Trigger;
use tron::{Action, Address, Transaction, TxId};

use super::outcome::{outcome, tx_env};
use super::receipt::{ContractRet, TxInfo};
use super::{Ledger, Rejection};

/// What every kind of transaction is checked and charged against.
struct Context {
    owner: Address,
    /// The owner's balance before the transaction (sun).
    balance: i64,
    /// The signed bytes plus 64 per contract: what java-tron counts as bandwidth.
    bytes: i64,
    memo_fee: i64,
    fee_limit: i64,
    txid: TxId,
    time: i64,
}

impl Ledger {
    /// Validates and runs one transaction; `size` is its signed protobuf's length in bytes.
    pub(super) fn execute(
        &mut self,
        tx: &Transaction,
        size: usize,
        txid: TxId,
        owner: Address,
        number: u64,
        time: i64,
    ) -> Result<TxInfo, Rejection> {
        let action = tx
            .action()
            .map_err(|e| Rejection::validate(e.to_string()))?;
        let params = &self.data.params;
        let memo_fee = if tx.raw().data.is_empty() {
            0
        } else {
            params.memo_fee
        };
        let fee_limit = tx.fee_limit();
        if !(0..=params.max_fee_limit).contains(&fee_limit) {
            return Err(Rejection::validate(format!(
                "feeLimit must be >= 0 and <= {}",
                params.max_fee_limit
            )));
        }
        let cx = Context {
            owner,
            balance: self.balance(&owner),
            bytes: size as i64 + 64,
            memo_fee,
            fee_limit,
            txid,
            time,
        };
        let mut info = TxInfo::new(txid, number, time);
        match action {
            Action::Transfer { to, amount, .. } => transfer(self, &cx, to, amount, &mut info)?,
            Action::Trigger(call) => trigger(self, &cx, call, &mut info)?,
            Action::Setting(setting) => {
                self.validate_setting(&setting)?;
                self.pay_bandwidth(&owner, cx.bytes, time, memo_fee, 0, &mut info)?;
                self.apply_setting(&setting);
            }
            Action::Stake(stake) => {
                self.validate_stake(&stake, time)?;
                let staked = match &stake {
                    tron::Stake::Freeze { amount, .. } => *amount,
                    _ => 0,
                };
                self.pay_bandwidth(&owner, cx.bytes, time, memo_fee, staked, &mut info)?;
                info.withdraw_expire_amount = self.apply_stake(&stake, time);
            }
            Action::Create(contract) => create(self, &cx, *contract, &mut info)?,
        }
        if let Some(meta) = self.data.accounts.get_mut(&owner) {
            meta.latest_operation_time = time;
        }
        Ok(info)
    }

    /// Runs a call or a creation (at `created`, the address TRON gives it) in revm under
    /// `energy_limit`, metered for CPU time, and commits it: its outcome in TRON's terms.
    fn run(
        &mut self,
        owner: Address,
        kind: TxKind,
        data: Vec<u8>,
        value: i64,
        energy_limit: i64,
        created: Option<Address>,
    ) -> Result<super::CallOutcome, Rejection> {
        let env = tx_env(
            owner,
            kind,
            data,
            value,
            energy_limit as u64,
            self.data.chain_id,
        );
        let meter = self.cpu_meter();
        let (result, run) = self.with_evm(created.map(Into::into), meter, |evm| {
            evm.inspect_tx_commit(env)
        });
        let result = result.map_err(|e| {
            Rejection::new(
                "CONTRACT_EXE_ERROR",
                format!("Contract execute error : {e}"),
            )
        })?;
        Ok(outcome(result, energy_limit, &run))
    }
}

/// A TRX transfer (java-tron `TransferActuator`): a new recipient is created for a fee
/// paid in TRX instead of bandwidth.
fn transfer(
    ledger: &mut Ledger,
    cx: &Context,
    to: Address,
    amount: i64,
    info: &mut TxInfo,
) -> Result<(), Rejection> {
    let owner = cx.owner;
    if amount <= 0 {
        return Err(Rejection::validate("Amount must be greater than 0."));
    }
    if to == owner {
        return Err(Rejection::validate("Cannot transfer TRX to yourself."));
    }
    if ledger.account(&owner).is_none() {
        return Err(Rejection::validate(
            "Validate TransferContract error, no OwnerAccount.",
        ));
    }
    let params = ledger.data.params.clone();
    let creates = ledger.account(&to).is_none();
    let (net_usage, net_fee) = if creates {
        (0, params.create_account_fee)
    } else {
        ledger.bandwidth(&owner, cx.bytes, cx.time)
    };
    let create_fee = if creates {
        params.create_new_account_fee_in_system_contract
    } else {
        0
    };
    let total = amount
        .checked_add(net_fee + create_fee + cx.memo_fee)
        .ok_or_else(|| Rejection::validate("Amount is too large."))?;
    if cx.balance < total {
        if cx.balance >= amount {
            return Err(Rejection::new(
                "BANDWITH_ERROR",
                "Account resource insufficient error.",
            ));
        }
        return Err(Rejection::validate(
            "Validate TransferContract error, balance is not sufficient.",
        ));
    }
    ledger.consume_free_net(&owner, net_usage, cx.time);
    ledger.debit(&owner, total);
    let to_balance = ledger.balance(&to);
    ledger.write_balance(to, to_balance.saturating_add(amount));
    ledger.touch(to, cx.time);
    info.net_usage = net_usage;
    info.net_fee = net_fee;
    info.fee = net_fee + create_fee + cx.memo_fee;
    Ok(())
}

/// A contract call (java-tron `VMActuator` with a `TriggerSmartContract`).
fn trigger(
    ledger: &mut Ledger,
    cx: &Context,
    call: Trigger,
    info: &mut TxInfo,
) -> Result<(), Rejection> {
    let owner = cx.owner;
    if !ledger.data.contracts.contains_key(&call.contract) && ledger.code(&call.contract).is_empty()
    {
        return Err(Rejection::validate("No contract or not a smart contract"));
    }
    if call.call_value < 0 {
        return Err(Rejection::validate("callValue must be >= 0"));
    }
    let (net_usage, net_fee) = ledger.bandwidth(&owner, cx.bytes, cx.time);
    let spendable = cx.balance - net_fee - cx.memo_fee - call.call_value;
    if spendable < 0 {
        return Err(if cx.balance - call.call_value >= 0 {
            Rejection::new("BANDWITH_ERROR", "Account resource insufficient error.")
        } else {
            Rejection::validate("Validate InternalTransfer error, balance is not sufficient.")
        });
    }
    let budget = ledger.energy_budget(
        &owner,
        Some(&call.contract),
        spendable,
        cx.fee_limit,
        cx.time,
    );
    let energy_limit = budget.limit;
    ledger.consume_free_net(&owner, net_usage, cx.time);
    ledger.debit(&owner, net_fee + cx.memo_fee);
    let kind = TxKind::Call(call.contract.into());
    let outcome = ledger.run(owner, kind, call.data, call.call_value, energy_limit, None)?;
    let net = (net_usage, net_fee);
    ledger.charge(&owner, &budget, info, outcome, net, cx.memo_fee);
    Ok(())
}

/// A contract creation (java-tron `VMActuator` with a `CreateSmartContract`): the
/// contract's address comes from the txid and the owner, and the `SmartContract` as sent
/// is kept (it is what `getcontract` answers).
fn create(
    ledger: &mut Ledger,
    cx: &Context,
    create: Create,
    info: &mut TxInfo,
) -> Result<(), Rejection> {
    let owner = cx.owner;
    let mut contract = create.new_contract.clone().unwrap_or_default();
    if !contract.origin_address.is_empty()
        && contract.origin_address.as_slice() != owner.tron_bytes().as_slice()
    {
        return Err(Rejection::validate(
            "OwnerAddress is not equals OriginAddress",
        ));
    }
    if contract.name.len() > 32 {
        return Err(Rejection::validate(
            "contractName's length cannot be greater than 32",
        ));
    }
    if !(0..=100).contains(&contract.consume_user_resource_percent) {
        return Err(Rejection::validate("percent must be >= 0 and <= 100"));
    }
    if contract.origin_energy_limit <= 0 {
        return Err(Rejection::validate("The originEnergyLimit must be > 0"));
    }
    let address = Address::contract_address(&cx.txid.0, &owner);
    if ledger.account(&address).is_some() {
        return Err(Rejection::validate(format!(
            "Trying to create a contract with existing contract address: {}",
            address.to_base58()
        )));
    }
    let (net_usage, net_fee) = ledger.bandwidth(&owner, cx.bytes, cx.time);
    let spendable = cx.balance - net_fee - cx.memo_fee - contract.call_value;
    if spendable < 0 {
        return Err(Rejection::validate("balance is not sufficient"));
    }
    let budget = ledger.energy_budget(&owner, None, spendable, cx.fee_limit, cx.time);
    let energy_limit = budget.limit;
    ledger.consume_free_net(&owner, net_usage, cx.time);
    ledger.debit(&owner, net_fee + cx.memo_fee);
    let mut outcome = ledger.run(
        owner,
        TxKind::Create,
        contract.bytecode.clone(),
        contract.call_value,
        energy_limit,
        Some(address),
    )?;
    if outcome.ret == ContractRet::Success {
        let runtime = ledger.code(&address);
        contract.origin_address = owner.tron_bytes().to_vec();
        contract.contract_address = address.tron_bytes().to_vec();
        contract.code_hash = alloy_primitives::keccak256(&runtime).to_vec();
        contract.trx_hash = cx.txid.0.to_vec();
        ledger.data.contracts.insert(address, contract);
        ledger.touch(address, cx.time);
        // A deployment's result is empty, not the runtime code it returned.
        outcome.output.clear();
    }
    info.contract_address = Some(address);
    let net = (net_usage, net_fee);
    ledger.charge(&owner, &budget, info, outcome, net, cx.memo_fee);
    Ok(())
}
