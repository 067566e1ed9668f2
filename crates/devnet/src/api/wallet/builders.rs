//! The transaction builders: transfers, Stake 2.0, contract settings and deployments,
//! each checked as java-tron's actuator checks it before the transaction is built.

use super::handler::*;

/// A transaction the node builds: it refers to the solidified head (the head here), expires
/// 60 s after it, and carries the node's clock as its timestamp.
pub(super) fn build(chain: &Ledger, action: Action, fee_limit: i64, memo: Vec<u8>) -> Transaction {
    let head = chain.head().ref_block();
    TransactionBuilder::new(action, head)
        .expiration(head.timestamp + DEFAULT_EXPIRATION_MS)
        .timestamp(now_ms())
        .fee_limit(fee_limit)
        .memo(memo)
        .build()
}

/// The Stake 2.0 builders (`/wallet/freezebalancev2` …): the request's fields are the
/// contract's, checked as the actuator checks them before the transaction is built.
pub(super) fn stake_transaction(shared: &Shared, name: &str, p: &Params) -> Answer {
    let owner = p
        .address("owner_address")
        .ok()
        .flatten()
        .ok_or_else(|| validate_error("Invalid address"))?;
    let resource = match p.get("resource") {
        None => tron::Resource::Bandwidth,
        Some(Value::String(s)) if s.eq_ignore_ascii_case("ENERGY") => tron::Resource::Energy,
        Some(Value::String(s)) if s.eq_ignore_ascii_case("BANDWIDTH") => tron::Resource::Bandwidth,
        Some(Value::Number(n)) if n.as_i64() == Some(1) => tron::Resource::Energy,
        Some(Value::Number(n)) if n.as_i64() == Some(0) => tron::Resource::Bandwidth,
        Some(_) => {
            return Err(validate_error(
                "ResourceCode error, valid ResourceCode[BANDWIDTH、ENERGY]",
            ));
        }
    };
    let receiver = || {
        p.address("receiver_address")
            .ok()
            .flatten()
            .ok_or_else(|| validate_error("Invalid receiverAddress"))
    };
    let stake = match name {
        "freezebalancev2" => tron::Stake::Freeze {
            owner,
            resource,
            amount: p.int("frozen_balance")?,
        },
        "unfreezebalancev2" => tron::Stake::Unfreeze {
            owner,
            resource,
            amount: p.int("unfreeze_balance")?,
        },
        "withdrawexpireunfreeze" => tron::Stake::WithdrawExpired { owner },
        "delegateresource" => tron::Stake::Delegate {
            owner,
            receiver: receiver()?,
            resource,
            amount: p.int("balance")?,
            lock: matches!(p.get("lock"), Some(Value::Bool(true))),
            lock_period: p.int("lock_period")?,
        },
        _ => tron::Stake::Undelegate {
            owner,
            receiver: receiver()?,
            resource,
            amount: p.int("balance")?,
        },
    };
    let chain = shared.lock();
    chain
        .validate_stake(&stake, chain.now())
        .map_err(|e| validate_error(e.message.trim_start_matches("Contract validate error : ")))?;
    let tx = build(&chain, Action::Stake(stake), 0, memo(p)?);
    Ok(render::built(&tx, p.visible))
}

/// `/wallet/updatesetting` and `/wallet/updateenergylimit`: a contract's origin changes who
/// pays its callers' energy; checked as the actuators check it before anything is built.
pub(super) fn setting_transaction(shared: &Shared, name: &str, p: &Params) -> Answer {
    let owner = p
        .address("owner_address")
        .ok()
        .flatten()
        .ok_or_else(|| validate_error("Invalid address"))?;
    let contract = p
        .address("contract_address")
        .ok()
        .flatten()
        .ok_or_else(|| validate_error("Invalid contract address"))?;
    let setting = if name == "updatesetting" {
        tron::ContractSetting::CallerEnergyPercent {
            owner,
            contract,
            percent: p.int("consume_user_resource_percent")?,
        }
    } else {
        tron::ContractSetting::OriginEnergyLimit {
            owner,
            contract,
            limit: p.int("origin_energy_limit")?,
        }
    };
    let chain = shared.lock();
    chain
        .validate_setting(&setting)
        .map_err(|e| validate_error(e.message.trim_start_matches("Contract validate error : ")))?;
    let tx = build(&chain, Action::Setting(setting), 0, memo(p)?);
    Ok(render::built(&tx, p.visible))
}

pub(super) fn create_transaction(shared: &Shared, p: &Params) -> Answer {
    let owner = p
        .address("owner_address")
        .ok()
        .flatten()
        .ok_or_else(|| validate_error("Invalid ownerAddress!"))?;
    let to = p
        .address("to_address")
        .ok()
        .flatten()
        .ok_or_else(|| validate_error("Invalid toAddress!"))?;
    let amount = p.int("amount")?;
    if to == owner {
        return Err(validate_error("Cannot transfer TRX to yourself."));
    }
    let chain = shared.lock();
    let Some(account) = chain.account(&owner) else {
        return Err(validate_error(
            "Validate TransferContract error, no OwnerAccount.",
        ));
    };
    if amount <= 0 {
        return Err(validate_error("Amount must be greater than 0."));
    }
    if account.balance < amount {
        return Err(validate_error(
            "Validate TransferContract error, balance is not sufficient.",
        ));
    }
    let tx = build(&chain, Action::Transfer { owner, to, amount }, 0, memo(p)?);
    Ok(render::built(&tx, p.visible))
}

pub(super) fn deploy_contract(shared: &Shared, p: &Params) -> Answer {
    let owner = required_address(p, "owner_address")?;
    let abi = match p.get("abi") {
        None => None,
        Some(Value::String(text)) if text.trim().is_empty() => None,
        Some(Value::String(text)) => {
            let value: Value = serde_json::from_str(text)
                .map_err(|e| java_error("com.alibaba.fastjson.JSONException", e))?;
            Some(value)
        }
        Some(other) => Some(other.clone()),
    };
    let abi = abi
        .map(|v| tron::json::abi_from_json(&v))
        .transpose()
        .map_err(|e| java_error("java.lang.IllegalArgumentException", e))?;
    let mut bytecode = p.hex("bytecode")?;
    bytecode.extend(p.hex("parameter")?);
    let percent = p.int("consume_user_resource_percent")?;
    let contract = SmartContract {
        origin_address: owner.tron_bytes().to_vec(),
        abi,
        bytecode,
        call_value: p.int("call_value")?,
        consume_user_resource_percent: percent,
        name: p.str("name").unwrap_or_default(),
        origin_energy_limit: p.int("origin_energy_limit")?,
        ..SmartContract::default()
    };
    let create = CreateSmartContract {
        owner_address: owner.tron_bytes().to_vec(),
        new_contract: Some(contract),
        call_token_value: p.int("call_token_value")?,
        token_id: p.int("token_id")?,
    };
    let chain = shared.lock();
    let tx = build(
        &chain,
        Action::Create(Box::new(create)),
        p.int("fee_limit")?,
        Vec::new(),
    );
    let address = Address::contract_address(&tx.txid().0, &owner);
    let mut out = render::built(&tx, p.visible);
    out["contract_address"] = address.to_hex().into();
    Ok(out)
}

pub(super) fn memo(p: &Params) -> Result<Vec<u8>, Response> {
    match p.str("extra_data") {
        None => Ok(Vec::new()),
        Some(text) if p.visible => Ok(text.into_bytes()),
        Some(_) => p.hex("extra_data"),
    }
}
