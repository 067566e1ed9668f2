//! Accounts and contracts as java-tron reports them: `getaccount`, the resource answers,
//! `getcontract` and `getcontractinfo`.

use super::handler::*;

pub(super) fn get_account(shared: &Shared, p: &Params) -> Answer {
    let Some(address) = p.address("address")? else {
        return Ok(json!({}));
    };
    Ok(with_state(shared, p, |chain| {
        chain
            .account(&address)
            .map(|a| render::account(&a, p.visible))
            .unwrap_or_else(|| json!({}))
    }))
}

/// The bandwidth part of `getaccountresource` and `getaccountnet` (`AccountNetMessage`); `None`
/// for an account that does not exist, which java-tron answers with `{}`
/// (`Wallet.getAccountResource`/`getAccountNet` return null for it).
pub(super) fn bandwidth_fields(chain: &Ledger, address: &Address) -> Option<Map<String, Value>> {
    chain.account(address)?;
    let limit = chain.params().free_net_limit;
    let used = limit - chain.free_net_available(address, chain.now());
    let mut out = Map::new();
    if used > 0 {
        out.insert("freeNetUsed".into(), used.into());
    }
    out.insert("freeNetLimit".into(), limit.into());
    out.insert("TotalNetLimit".into(), 43_200_000_000i64.into());
    out.insert("TotalNetWeight".into(), 84_687_233_463i64.into());
    Some(out)
}

pub(super) fn account_resource(shared: &Shared, p: &Params) -> Answer {
    let address = required_address(p, "address")?;
    let chain = shared.lock();
    let Some(mut out) = bandwidth_fields(&chain, &address) else {
        return Ok(json!({}));
    };
    // Usage recovers to the head block's time, as java-tron's `updateUsage` does.
    let now = chain.head().timestamp;
    for (key, value) in [
        ("EnergyUsed", chain.energy_used(&address, now)),
        ("EnergyLimit", chain.energy_limit(&address)),
        (
            "TotalEnergyLimit",
            crate::chain::stake_state::TOTAL_ENERGY_LIMIT,
        ),
        ("TotalEnergyWeight", chain.total_energy_weight()),
    ] {
        if value != 0 {
            out.insert(key.into(), value.into());
        }
    }
    Ok(Value::Object(out))
}

/// `getaccountnet` (tronpy's `get_bandwidth`, TronWeb's `trx.getBandwidth`).
pub(super) fn account_net(shared: &Shared, p: &Params) -> Answer {
    let address = required_address(p, "address")?;
    let chain = shared.lock();
    Ok(bandwidth_fields(&chain, &address).map_or_else(|| json!({}), Value::Object))
}

pub(super) fn get_contract(shared: &Shared, p: &Params) -> Answer {
    let Some(address) = p.address("value")? else {
        return Ok(json!({}));
    };
    let chain = shared.lock();
    Ok(chain
        .contract(&address)
        .map(|c| tron::json::smart_contract_to_json(c, p.visible))
        .unwrap_or_else(|| json!({})))
}

/// `ContractState` as java-tron prints it: zero fields omitted. The cycle is the 6-hour
/// maintenance period the factor would be updated in (`getCurrentCycleNumber`).
pub(super) fn contract_state(energy_factor: i64, now_ms: i64) -> Value {
    let mut state = serde_json::Map::new();
    if energy_factor != 0 {
        state.insert("energy_factor".into(), energy_factor.into());
    }
    state.insert("update_cycle".into(), (now_ms / 21_600_000).into());
    Value::Object(state)
}

pub(super) fn contract_info(shared: &Shared, p: &Params) -> Answer {
    let Some(address) = p.address("value")? else {
        return Ok(json!({}));
    };
    let chain = shared.lock();
    let Some(contract) = chain.contract(&address) else {
        return Ok(json!({}));
    };
    Ok(json!({
        "smart_contract": tron::json::smart_contract_to_json(contract, p.visible),
        "runtimecode": hex::encode(chain.code(&address)),
        // java-tron leaves zero fields out; the devnet keeps no usage (see chain::energy).
        "contract_state": contract_state(chain.energy_factor(&address), chain.now()),
    }))
}
