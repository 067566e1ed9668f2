//! Contract calls: `triggersmartcontract`, `triggerconstantcontract` and `estimateenergy`.

use super::builders::{build, memo};
use super::handler::*;

/// The calldata of a call: `data` as given, or the selector of `function_selector` followed
/// by `parameter`.
pub(super) fn calldata(p: &Params) -> Result<Vec<u8>, Response> {
    let data = p.hex("data")?;
    if !data.is_empty() {
        return Ok(data);
    }
    let parameter = p.hex("parameter")?;
    match p.str("function_selector").filter(|s| !s.is_empty()) {
        Some(selector) => {
            let selector: String = selector.chars().filter(|c| !c.is_whitespace()).collect();
            let mut out = alloy_primitives::keccak256(selector.as_bytes())[..4].to_vec();
            out.extend(parameter);
            Ok(out)
        }
        None => Ok(parameter),
    }
}

pub(super) fn status_error(code: &str, message: &str, visible: bool) -> Value {
    json!({ "result": { "code": code, "message": render::text(message, visible) } })
}

pub(super) fn trigger_of(p: &Params) -> Result<Result<Trigger, Value>, Response> {
    let owner = p.address("owner_address")?;
    let contract = p.address("contract_address")?;
    let (Some(owner), Some(contract)) = (owner, contract) else {
        let missing = if p.get("owner_address").is_none() {
            "owner_address"
        } else {
            "contract_address"
        };
        return Ok(Err(status_error(
            "OTHER_ERROR",
            &format!("class java.security.InvalidParameterException : {missing} isn't set."),
            p.visible,
        )));
    };
    Ok(Ok(Trigger {
        owner,
        contract,
        call_value: p.int("call_value")?,
        data: calldata(p)?,
        call_token_value: p.int("call_token_value")?,
        token_id: p.int("token_id")?,
    }))
}

/// Whether the stored ABI marks the called function `view` or `pure`.
pub(super) fn is_constant(chain: &Ledger, call: &Trigger) -> bool {
    let Some(abi) = chain.contract(&call.contract).and_then(|c| c.abi.as_ref()) else {
        return false;
    };
    let Some(selector) = call.data.get(..4) else {
        return false;
    };
    abi.entrys.iter().any(|e| {
        let types: Vec<&str> = e.inputs.iter().map(|i| i.r#type.as_str()).collect();
        let sig = format!("{}({})", e.name, types.join(","));
        // StateMutabilityType: Pure = 1, View = 2.
        (e.state_mutability == 1 || e.state_mutability == 2 || e.constant)
            && &alloy_primitives::keccak256(sig.as_bytes())[..4] == selector
    })
}

pub(super) fn trigger_smart_contract(shared: &Shared, p: &Params) -> Answer {
    let call = match trigger_of(p)? {
        Ok(call) => call,
        Err(answer) => return Ok(answer),
    };
    let fee_limit = p.int("fee_limit")?;
    let mut chain = shared.lock();
    if chain.contract(&call.contract).is_none() && chain.code(&call.contract).is_empty() {
        return Ok(status_error(
            "CONTRACT_VALIDATE_ERROR",
            "No contract or not a valid smart contract",
            p.visible,
        ));
    }
    if is_constant(&chain, &call) {
        return constant_answer(&mut chain, call, p.visible);
    }
    let tx = build(&chain, Action::Trigger(call), fee_limit, memo(p)?);
    Ok(json!({ "result": { "result": true }, "transaction": render::built(&tx, p.visible) }))
}

pub(super) fn trigger_constant_contract(shared: &Shared, p: &Params) -> Answer {
    // Without a contract, java-tron runs `data` as creation code: a simulated deployment,
    // which is how a deployer learns what each contract will cost before paying for it.
    if p.get("contract_address").is_none()
        && let Some(owner) = p.address("owner_address")?
    {
        let data = calldata(p)?;
        if !data.is_empty() {
            let call_value = p.int("call_value")?;
            let create = CreateSmartContract {
                owner_address: owner.tron_bytes().to_vec(),
                new_contract: Some(SmartContract {
                    origin_address: owner.tron_bytes().to_vec(),
                    bytecode: data.clone(),
                    call_value,
                    ..SmartContract::default()
                }),
                ..CreateSmartContract::default()
            };
            let action = Action::Create(Box::new(create));
            return with_state(shared, p, |chain| {
                let outcome = chain.call(owner, None, data, call_value);
                constant_outcome(chain, outcome, action, p.visible)
            });
        }
    }
    let call = match trigger_of(p)? {
        Ok(call) => call,
        Err(answer) => return Ok(answer),
    };
    with_state(shared, p, |chain| constant_answer(chain, call, p.visible))
}

pub(super) fn constant_answer(chain: &mut Ledger, call: Trigger, visible: bool) -> Answer {
    let outcome = chain.call(
        call.owner,
        Some(call.contract),
        call.data.clone(),
        call.call_value,
    );
    constant_outcome(chain, outcome, Action::Trigger(call), visible)
}

pub(super) fn constant_outcome(
    chain: &mut Ledger,
    outcome: Result<crate::chain::CallOutcome, Rejection>,
    action: Action,
    visible: bool,
) -> Answer {
    let outcome = match outcome {
        Ok(o) => o,
        Err(Rejection { code, message }) => {
            let message = message
                .strip_prefix("Contract validate error : ")
                .unwrap_or(&message)
                .to_owned();
            return Ok(status_error(code, &message, visible));
        }
    };
    if let Some(answer) = out_of_time(&outcome, visible) {
        return Ok(answer);
    }
    let tx = build(chain, action, 0, Vec::new());
    let mut tx_json = render::built(&tx, visible);
    let mut result = Map::new();
    result.insert("result".into(), true.into());
    if let Some(message) = &outcome.message {
        result.insert("message".into(), render::text(message, visible));
        tx_json["ret"] = json!([{ "ret": "FAILED" }]);
    } else {
        tx_json["ret"] = json!([{}]);
    }
    let mut out = Map::new();
    out.insert("result".into(), Value::Object(result));
    if outcome.energy_used != 0 {
        out.insert("energy_used".into(), outcome.energy_used.into());
    }
    if outcome.energy_penalty != 0 {
        out.insert("energy_penalty".into(), outcome.energy_penalty.into());
    }
    out.insert(
        "constant_result".into(),
        json!([hex::encode(&outcome.output)]),
    );
    if !outcome.logs.is_empty() {
        out.insert("logs".into(), render::logs(&outcome.logs, visible));
    }
    out.insert("transaction".into(), tx_json);
    out.insert("devnet_cpu_time_us".into(), outcome.cpu_time_us.into());
    Ok(Value::Object(out))
}

/// A constant call past the CPU-time limit, answered as java-tron's servlets answer the
/// `Program.OutOfTimeException` that `Wallet.callConstantContract` rethrows: `OTHER_ERROR`
/// with the exception's class and message, and no transaction.
pub(super) fn out_of_time(outcome: &crate::chain::CallOutcome, visible: bool) -> Option<Value> {
    (outcome.ret == ContractRet::OutOfTime).then(|| {
        let message = format!(
            "class org.tron.core.vm.program.Program$OutOfTimeException : {}",
            outcome.message.as_deref().unwrap_or_default()
        );
        status_error("OTHER_ERROR", &message, visible)
    })
}

pub(super) fn estimate_energy(shared: &Shared, p: &Params) -> Answer {
    let call = match trigger_of(p)? {
        Ok(call) => call,
        Err(answer) => return Ok(answer),
    };
    with_state(shared, p, |chain| estimate(chain, call, p.visible))
}

pub(super) fn estimate(chain: &mut Ledger, call: Trigger, visible: bool) -> Answer {
    let outcome = match chain.call(
        call.owner,
        Some(call.contract),
        call.data.clone(),
        call.call_value,
    ) {
        Ok(o) => o,
        Err(Rejection { code, message }) => return Ok(status_error(code, &message, visible)),
    };
    if let Some(answer) = out_of_time(&outcome, visible) {
        return Ok(answer);
    }
    if outcome.ret != ContractRet::Success {
        let message = outcome.message.unwrap_or_else(|| outcome.ret.name().into());
        return Ok(status_error("CONTRACT_EXE_ERROR", &message, visible));
    }
    let required = chain.least_sufficient_energy(&call, outcome.energy_used);
    Ok(json!({ "result": { "result": true }, "energy_required": required }))
}
