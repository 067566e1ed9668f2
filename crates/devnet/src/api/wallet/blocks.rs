//! Blocks and the node's own state: `getnowblock`, `getblockbynum`/`byid`, `getblock`,
//! `getnodeinfo`, `getchainparameters` and the price histories.

use super::handler::*;

pub(super) fn now_block(shared: &Shared, p: &Params) -> Answer {
    let chain = shared.lock();
    Ok(render::block(&chain, chain.head(), p.query_visible, true))
}

pub(super) fn block_by_num(shared: &Shared, p: &Params) -> Answer {
    let num = p.int("num")?;
    let chain = shared.lock();
    Ok(u64::try_from(num)
        .ok()
        .and_then(|n| chain.block(n))
        .map(|b| render::block(&chain, b, p.visible, true))
        .unwrap_or_else(|| json!({})))
}

pub(super) fn parse_block_id(text: &str) -> Option<[u8; 32]> {
    hex::decode(text.trim_start_matches("0x"))
        .ok()?
        .try_into()
        .ok()
}

pub(super) fn block_by_id(shared: &Shared, p: &Params) -> Answer {
    let id = p.str("value").unwrap_or_default();
    let chain = shared.lock();
    Ok(parse_block_id(&id)
        .and_then(|id| chain.block_by_id(&id))
        .map(|b| render::block(&chain, b, p.visible, true))
        .unwrap_or_else(|| json!({})))
}

pub(super) fn get_block(shared: &Shared, p: &Params) -> Answer {
    let id_or_num = p.str("id_or_num").unwrap_or_default();
    let detail = p.bool("detail");
    let chain = shared.lock();
    let block = if id_or_num.is_empty() {
        Some(chain.head())
    } else if id_or_num.len() == 64 {
        let id = parse_block_id(&id_or_num).ok_or_else(|| {
            java_error(
                "java.lang.IllegalArgumentException",
                "id must be legal block hash.",
            )
        })?;
        chain.block_by_id(&id)
    } else {
        let num: u64 = id_or_num.parse().map_err(|_| {
            java_error(
                "java.lang.IllegalArgumentException",
                "num must be non-positive number.",
            )
        })?;
        chain.block(num)
    };
    Ok(block
        .map(|b| render::block(&chain, b, p.visible, detail))
        .unwrap_or_else(|| json!({})))
}

pub(super) fn node_info(shared: &Shared) -> Value {
    let chain = shared.lock();
    let head = chain.head();
    let block = format!("Num:{},ID:{}", head.number, hex::encode(head.id));
    json!({
        "beginSyncNum": head.number,
        "block": block,
        "solidityBlock": block,
        "currentConnectCount": 0,
        "activeConnectCount": 0,
        "passiveConnectCount": 0,
        "totalFlow": 0,
        "peerList": [],
        "configNodeInfo": {
            "codeVersion": "4.8.1",
            "p2pVersion": "devnet",
            "listenPort": 0,
            "discoverEnable": false,
            "activeNodeSize": 0,
            "passiveNodeSize": 0,
            "sendNodeSize": 0,
            "maxConnectCount": 0,
            "sameIpMaxConnectCount": 0,
            "backupListenPort": 0,
            "backupMemberSize": 0,
            "backupPriority": 0,
            "dbVersion": 2,
            "minParticipationRate": 0,
            "supportConstant": true,
            "minTimeRatio": 0.0,
            "maxTimeRatio": 5.0,
            "allowCreationOfContracts": 1,
            "allowAdaptiveEnergy": 0,
        },
        "machineInfo": {
            "threadCount": 0,
            "deadLockThreadCount": 0,
            "cpuCount": std::thread::available_parallelism().map(|n| n.get()).unwrap_or(1),
            "totalMemory": 0,
            "freeMemory": 0,
            "cpuRate": 0.0,
            "javaVersion": "tronpool-devnet",
            "osName": std::env::consts::OS,
            "jvmTotalMemory": 0,
            "jvmFreeMemory": 0,
            "processCpuRate": 0.0,
            "memoryDescInfoList": [],
            "deadLockThreadInfoList": [],
        },
        "cheatWitnessInfoMap": {},
    })
}

pub(super) fn chain_parameters(shared: &Shared) -> Value {
    let chain = shared.lock();
    let p = chain.params();
    let entries: Vec<(&str, i64)> = vec![
        ("getMaintenanceTimeInterval", 21_600_000),
        ("getAccountUpgradeCost", 9_999_000_000),
        ("getCreateAccountFee", p.create_account_fee),
        ("getTransactionFee", p.transaction_fee),
        ("getAssetIssueFee", 1_024_000_000),
        ("getWitnessPayPerBlock", 8_000_000),
        ("getWitnessStandbyAllowance", 115_200_000_000),
        (
            "getCreateNewAccountFeeInSystemContract",
            p.create_new_account_fee_in_system_contract,
        ),
        ("getCreateNewAccountBandwidthRate", 1),
        ("getAllowCreationOfContracts", 1),
        ("getRemoveThePowerOfTheGr", 1),
        ("getEnergyFee", p.energy_fee),
        ("getExchangeCreateFee", 1_024_000_000),
        ("getMaxCpuTimeOfOneTx", p.max_cpu_time_of_one_tx_ms),
        ("getAllowUpdateAccountName", 0),
        ("getAllowSameTokenName", 1),
        ("getAllowDelegateResource", 1),
        ("getTotalEnergyLimit", 180_000_000_000),
        ("getAllowTvmTransferTrc10", 1),
        ("getTotalEnergyCurrentLimit", 180_000_000_000),
        ("getAllowMultiSign", 1),
        ("getAllowAdaptiveEnergy", 0),
        ("getTotalEnergyTargetLimit", 12_500_000),
        ("getTotalEnergyAverageUsage", 0),
        ("getUpdateAccountPermissionFee", 100_000_000),
        ("getMultiSignFee", 1_000_000),
        ("getAllowAccountStateRoot", 0),
        ("getAllowProtoFilterNum", 0),
        ("getAllowTvmConstantinople", 1),
        ("getAllowTvmSolidity059", 1),
        ("getAllowTvmIstanbul", 1),
        ("getAllowShieldedTRC20Transaction", 0),
        ("getForbidTransferToContract", 0),
        ("getAdaptiveResourceLimitTargetRatio", 10),
        ("getAdaptiveResourceLimitMultiplier", 1_000),
        ("getChangeDelegation", 1),
        ("getWitness127PayPerBlock", 128_000_000),
        ("getAllowMarketTransaction", 0),
        ("getAllowPBFT", 0),
        ("getAllowTransactionFeePool", 0),
        ("getMaxFeeLimit", p.max_fee_limit),
        ("getAllowOptimizeBlackHole", 1),
        ("getAllowNewResourceModel", 1),
        ("getAllowTvmFreeze", 0),
        ("getAllowTvmVote", 0),
        ("getAllowTvmLondon", 1),
        ("getAllowTvmCompatibleEvm", 1),
        ("getAllowAccountAssetOptimization", 0),
        ("getFreeNetLimit", p.free_net_limit),
        ("getTotalNetLimit", 43_200_000_000),
        ("getAllowHigherLimitForMaxCpuTimeOfOneTx", 1),
        ("getAllowAssetOptimization", 1),
        ("getAllowNewReward", 1),
        ("getMemoFee", p.memo_fee),
        ("getAllowDelegateOptimization", 1),
        ("getUnfreezeDelayDays", 14),
        ("getAllowOptimizedReturnValueOfChainId", 1),
        ("getAllowDynamicEnergy", 1),
        (
            "getDynamicEnergyThreshold",
            crate::chain::energy::DYNAMIC_ENERGY_THRESHOLD,
        ),
        (
            "getDynamicEnergyIncreaseFactor",
            crate::chain::energy::DYNAMIC_ENERGY_INCREASE_FACTOR,
        ),
        (
            "getDynamicEnergyMaxFactor",
            crate::chain::energy::DYNAMIC_ENERGY_MAX_FACTOR,
        ),
        ("getAllowTvmShangHai", i64::from(p.tvm.shanghai)),
        ("getAllowCancelAllUnfreezeV2", 1),
        ("getMaxDelegateLockPeriod", 864_000),
        ("getAllowOldRewardOpt", 1),
        ("getAllowEnergyAdjustment", 1),
        ("getMaxCreateAccountTxSize", 1_000),
        ("getAllowStrictMath", 1),
        ("getConsensusLogicOptimization", 1),
        ("getAllowTvmCancun", i64::from(p.tvm.cancun)),
        ("getAllowTvmBlob", 0),
    ];
    let list: Vec<Value> = entries
        .into_iter()
        .map(|(key, value)| {
            if value == 0 {
                json!({ "key": key })
            } else {
                json!({ "key": key, "value": value })
            }
        })
        .collect();
    json!({ "chainParameter": list })
}

/// java-tron's price history (`getenergyprices`, `getbandwidthprices`): its default price
/// from time 0, then `,<time>:<price>` for every change: at genesis, when the devnet's
/// price differs from java-tron's default, then each later change (`(time, price)`).
pub(super) fn price_history(
    chain: &Ledger,
    default: i64,
    genesis_price: i64,
    changes: &[(i64, i64)],
) -> Value {
    let mut prices = format!("0:{default}");
    if genesis_price != default {
        let genesis = chain.block(0).map_or(0, |b| b.timestamp);
        prices.push_str(&format!(",{genesis}:{genesis_price}"));
    }
    for (time, price) in changes {
        prices.push_str(&format!(",{time}:{price}"));
    }
    json!({ "prices": prices })
}

pub(super) fn energy_prices(shared: &Shared) -> Value {
    let chain = shared.lock();
    let p = chain.params();
    // DynamicPropertiesStore.DEFAULT_ENERGY_FEE; the devnet's genesis price is its default's.
    let genesis_price = if p.energy_fee_changes.is_empty() {
        p.energy_fee
    } else {
        crate::chain::ChainParams::default().energy_fee
    };
    price_history(&chain, 100, genesis_price, &p.energy_fee_changes)
}

pub(super) fn bandwidth_prices(shared: &Shared) -> Value {
    let chain = shared.lock();
    // DynamicPropertiesStore.DEFAULT_TRANSACTION_FEE
    price_history(&chain, 10, chain.params().transaction_fee, &[])
}
