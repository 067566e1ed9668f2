//! `/wallet/*` and `/walletsolidity/*`: java-tron's FullNode HTTP API.

use std::collections::HashMap;
use std::sync::Arc;

use axum::body::Bytes;
use axum::extract::{Query, State};
use axum::http::{Method, StatusCode, Uri, header};
use axum::response::{IntoResponse, Response};
use serde_json::{Map, Value, json};
use tron::proto::{CreateSmartContract, SmartContract};
use tron::transaction::{DEFAULT_EXPIRATION_MS, now_ms};
use tron::{Action, Address, Transaction, TransactionBuilder, Trigger, TxId};

use super::{Params, java_error, json, render};
use crate::Shared;
use crate::chain::permission::SignWeight;
use crate::chain::receipt::ContractRet;
use crate::chain::{Ledger, Rejection, recover_signers};

/// What an endpoint does with the node's state and the request's parameters.
type Handler = fn(&Shared, &Params) -> Answer;

/// One endpoint of java-tron's HTTP API: the one list the dispatcher, the GET rule and the
/// solidity node's subset are read from.
struct Endpoint {
    name: &'static str,
    /// Builders and broadcasts answer GET with nothing, as java-tron's empty `doGet` does.
    post_only: bool,
    /// Served under `/walletsolidity/` and `/walletpbft/` too (the solidified head is the
    /// head here).
    solidity: bool,
    run: Handler,
}

const fn read(name: &'static str, solidity: bool, run: Handler) -> Endpoint {
    Endpoint {
        name,
        post_only: false,
        solidity,
        run,
    }
}

const fn post(name: &'static str, solidity: bool, run: Handler) -> Endpoint {
    Endpoint {
        name,
        post_only: true,
        solidity,
        run,
    }
}

/// Every `/wallet/*` endpoint the devnet serves.
const ENDPOINTS: &[Endpoint] = &[
    read("getnowblock", true, now_block),
    read("getblockbynum", true, block_by_num),
    read("getblockbyid", true, block_by_id),
    read("getblock", true, get_block),
    read("getnodeinfo", true, |s, _| Ok(node_info(s))),
    read("getaccount", true, get_account),
    read("getaccountresource", false, account_resource),
    read("getaccountnet", false, account_net),
    read("getenergyprices", true, |s, _| Ok(energy_prices(s))),
    read("getbandwidthprices", true, |s, _| Ok(bandwidth_prices(s))),
    read("getchainparameters", false, |s, _| Ok(chain_parameters(s))),
    post("createtransaction", false, create_transaction),
    post("freezebalancev2", false, |s, p| {
        stake_transaction(s, "freezebalancev2", p)
    }),
    post("unfreezebalancev2", false, |s, p| {
        stake_transaction(s, "unfreezebalancev2", p)
    }),
    post("withdrawexpireunfreeze", false, |s, p| {
        stake_transaction(s, "withdrawexpireunfreeze", p)
    }),
    post("delegateresource", false, |s, p| {
        stake_transaction(s, "delegateresource", p)
    }),
    post("undelegateresource", false, |s, p| {
        stake_transaction(s, "undelegateresource", p)
    }),
    post("updatesetting", false, |s, p| {
        setting_transaction(s, "updatesetting", p)
    }),
    post("updateenergylimit", false, |s, p| {
        setting_transaction(s, "updateenergylimit", p)
    }),
    post("triggersmartcontract", false, trigger_smart_contract),
    post("triggerconstantcontract", true, trigger_constant_contract),
    post("estimateenergy", true, estimate_energy),
    post("deploycontract", false, deploy_contract),
    post("broadcasttransaction", false, broadcast_transaction),
    post("broadcasthex", false, broadcast_hex),
    read("gettransactionbyid", true, transaction_by_id),
    read("gettransactioninfobyid", true, transaction_info),
    read("gettransactioninfobyblocknum", true, infos_by_block),
    post("getsignweight", false, sign_weight),
    read("getcontract", false, get_contract),
    read("getcontractinfo", false, contract_info),
];

pub(crate) async fn dispatch(
    State(shared): State<Arc<Shared>>,
    method: Method,
    uri: Uri,
    Query(query): Query<HashMap<String, String>>,
    body: Bytes,
) -> Response {
    let path = uri.path().trim_end_matches('/');
    let (solidity, name) = if let Some(name) = path.strip_prefix("/wallet/") {
        (false, name)
    } else if let Some(name) = path
        .strip_prefix("/walletsolidity/")
        .or_else(|| path.strip_prefix("/walletpbft/"))
    {
        (true, name)
    } else {
        return not_found(path);
    };
    let Some(endpoint) = ENDPOINTS
        .iter()
        .find(|e| e.name == name && (e.solidity || !solidity))
    else {
        return not_found(path);
    };
    if method == Method::GET && endpoint.post_only {
        return StatusCode::OK.into_response();
    }
    if method != Method::GET && method != Method::POST {
        return StatusCode::METHOD_NOT_ALLOWED.into_response();
    }
    let mut params = match Params::parse(&query, &body) {
        Ok(p) => p,
        Err(response) => return response,
    };
    params.solidity = solidity;
    match (endpoint.run)(&shared, &params) {
        Ok(value) => json(value),
        Err(response) => response,
    }
}

type Answer = Result<Value, Response>;

/// An unknown path gets what java-tron's Jetty sends: 404 and a small HTML page.
fn not_found(path: &str) -> Response {
    let body = format!(
        "<html>\n<head>\n<meta http-equiv=\"Content-Type\" content=\"text/html;charset=utf-8\"/>\n<title>Error 404 Not Found</title>\n</head>\n<body><h2>HTTP ERROR 404 Not Found</h2>\n<table>\n<tr><th>URI:</th><td>{}</td></tr>\n<tr><th>STATUS:</th><td>404</td></tr>\n<tr><th>MESSAGE:</th><td>Not Found</td></tr>\n</table>\n</body>\n</html>\n",
        html_escape(path)
    );
    (
        StatusCode::NOT_FOUND,
        [(header::CONTENT_TYPE, "text/html;charset=utf-8")],
        body,
    )
        .into_response()
}

fn html_escape(s: &str) -> String {
    s.replace('&', "&amp;")
        .replace('<', "&lt;")
        .replace('>', "&gt;")
}

fn now_block(shared: &Shared, p: &Params) -> Answer {
    let chain = shared.lock();
    Ok(render::block(&chain, chain.head(), p.query_visible, true))
}

fn block_by_num(shared: &Shared, p: &Params) -> Answer {
    let num = p.int("num")?;
    let chain = shared.lock();
    Ok(u64::try_from(num)
        .ok()
        .and_then(|n| chain.block(n))
        .map(|b| render::block(&chain, b, p.visible, true))
        .unwrap_or_else(|| json!({})))
}

fn parse_block_id(text: &str) -> Option<[u8; 32]> {
    hex::decode(text.trim_start_matches("0x"))
        .ok()?
        .try_into()
        .ok()
}

fn block_by_id(shared: &Shared, p: &Params) -> Answer {
    let id = p.str("value").unwrap_or_default();
    let chain = shared.lock();
    Ok(parse_block_id(&id)
        .and_then(|id| chain.block_by_id(&id))
        .map(|b| render::block(&chain, b, p.visible, true))
        .unwrap_or_else(|| json!({})))
}

fn get_block(shared: &Shared, p: &Params) -> Answer {
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

fn node_info(shared: &Shared) -> Value {
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

fn required_address(p: &Params, key: &str) -> Result<Address, Response> {
    p.address(key)?.ok_or_else(|| {
        java_error(
            "java.lang.NullPointerException",
            format!("{key} isn't set."),
        )
    })
}

/// Runs `f` on the state a request reads: the pending state (java-tron's FullNode answers
/// from its pending session, `Manager.pushTransaction`), or the head block's for
/// `/walletsolidity/*`, whose node has no pending transactions.
fn with_state<R>(shared: &Shared, p: &Params, f: impl FnOnce(&mut Ledger) -> R) -> R {
    let mut chain = shared.lock();
    if p.solidity {
        chain.with_sealed_state(f)
    } else {
        f(&mut chain)
    }
}

fn get_account(shared: &Shared, p: &Params) -> Answer {
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
fn bandwidth_fields(chain: &Ledger, address: &Address) -> Option<Map<String, Value>> {
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

fn account_resource(shared: &Shared, p: &Params) -> Answer {
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
        ("TotalEnergyLimit", crate::chain::stake::TOTAL_ENERGY_LIMIT),
        ("TotalEnergyWeight", chain.total_energy_weight()),
    ] {
        if value != 0 {
            out.insert(key.into(), value.into());
        }
    }
    Ok(Value::Object(out))
}

/// `getaccountnet` (tronpy's `get_bandwidth`, TronWeb's `trx.getBandwidth`).
fn account_net(shared: &Shared, p: &Params) -> Answer {
    let address = required_address(p, "address")?;
    let chain = shared.lock();
    Ok(bandwidth_fields(&chain, &address).map_or_else(|| json!({}), Value::Object))
}

/// java-tron's price history (`getenergyprices`, `getbandwidthprices`): its default price
/// from time 0, then `,<time>:<price>` for every change: at genesis, when the devnet's
/// price differs from java-tron's default, then each later change (`(time, price)`).
fn price_history(
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

fn energy_prices(shared: &Shared) -> Value {
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

fn bandwidth_prices(shared: &Shared) -> Value {
    let chain = shared.lock();
    // DynamicPropertiesStore.DEFAULT_TRANSACTION_FEE
    price_history(&chain, 10, chain.params().transaction_fee, &[])
}

fn chain_parameters(shared: &Shared) -> Value {
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

/// A transaction the node builds: it refers to the solidified head (the head here), expires
/// 60 s after it, and carries the node's clock as its timestamp.
fn build(chain: &Ledger, action: Action, fee_limit: i64, memo: Vec<u8>) -> Transaction {
    let head = chain.head().ref_block();
    TransactionBuilder::new(action, head)
        .expiration(head.timestamp + DEFAULT_EXPIRATION_MS)
        .timestamp(now_ms())
        .fee_limit(fee_limit)
        .memo(memo)
        .build()
}

fn validate_error(message: impl std::fmt::Display) -> Response {
    java_error("org.tron.core.exception.ContractValidateException", message)
}

fn memo(p: &Params) -> Result<Vec<u8>, Response> {
    match p.str("extra_data") {
        None => Ok(Vec::new()),
        Some(text) if p.visible => Ok(text.into_bytes()),
        Some(_) => p.hex("extra_data"),
    }
}

/// The Stake 2.0 builders (`/wallet/freezebalancev2` …): the request's fields are the
/// contract's, checked as the actuator checks them before the transaction is built.
fn stake_transaction(shared: &Shared, name: &str, p: &Params) -> Answer {
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
fn setting_transaction(shared: &Shared, name: &str, p: &Params) -> Answer {
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

fn create_transaction(shared: &Shared, p: &Params) -> Answer {
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

/// The calldata of a call: `data` as given, or the selector of `function_selector` followed
/// by `parameter`.
fn calldata(p: &Params) -> Result<Vec<u8>, Response> {
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

fn status_error(code: &str, message: &str, visible: bool) -> Value {
    json!({ "result": { "code": code, "message": render::text(message, visible) } })
}

fn trigger_of(p: &Params) -> Result<Result<Trigger, Value>, Response> {
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
fn is_constant(chain: &Ledger, call: &Trigger) -> bool {
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

fn trigger_smart_contract(shared: &Shared, p: &Params) -> Answer {
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

fn trigger_constant_contract(shared: &Shared, p: &Params) -> Answer {
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

fn constant_answer(chain: &mut Ledger, call: Trigger, visible: bool) -> Answer {
    let outcome = chain.call(
        call.owner,
        Some(call.contract),
        call.data.clone(),
        call.call_value,
    );
    constant_outcome(chain, outcome, Action::Trigger(call), visible)
}

fn constant_outcome(
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
fn out_of_time(outcome: &crate::chain::CallOutcome, visible: bool) -> Option<Value> {
    (outcome.ret == ContractRet::OutOfTime).then(|| {
        let message = format!(
            "class org.tron.core.vm.program.Program$OutOfTimeException : {}",
            outcome.message.as_deref().unwrap_or_default()
        );
        status_error("OTHER_ERROR", &message, visible)
    })
}

fn estimate_energy(shared: &Shared, p: &Params) -> Answer {
    let call = match trigger_of(p)? {
        Ok(call) => call,
        Err(answer) => return Ok(answer),
    };
    with_state(shared, p, |chain| estimate(chain, call, p.visible))
}

fn estimate(chain: &mut Ledger, call: Trigger, visible: bool) -> Answer {
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

fn deploy_contract(shared: &Shared, p: &Params) -> Answer {
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

/// Reads a posted transaction the way java-tron does: from `raw_data` alone (`txID` and
/// `raw_data_hex` are not protobuf fields and are ignored), signatures kept as given.
fn posted_transaction(p: &Params) -> Result<(Transaction, Vec<Vec<u8>>), Response> {
    let mut obj = p.raw().clone();
    for key in ["txID", "raw_data_hex", "signature", "visible", "permission"] {
        obj.remove(key);
    }
    let tx = Transaction::from_json(&Value::Object(obj))
        .map_err(|e| java_error("java.lang.IllegalArgumentException", e))?;
    let signatures = match p.get("signature") {
        None => Vec::new(),
        Some(Value::Array(items)) => items
            .iter()
            .map(|s| {
                s.as_str()
                    .and_then(|s| hex::decode(s.trim_start_matches("0x")).ok())
                    .ok_or_else(|| {
                        java_error(
                            "org.bouncycastle.util.encoders.DecoderException",
                            "a signature is not hex",
                        )
                    })
            })
            .collect::<Result<_, _>>()?,
        Some(_) => {
            return Err(java_error(
                "java.lang.IllegalArgumentException",
                "signature must be an array",
            ));
        }
    };
    Ok((tx, signatures))
}

/// Attaches signatures; a malformed one is a SIGERROR, as in java-tron.
fn with_signatures(mut tx: Transaction, signatures: &[Vec<u8>]) -> Result<Transaction, Rejection> {
    for bytes in signatures {
        let signature = tron::Signature::from_slice(bytes).map_err(|_| Rejection {
            code: "SIGERROR",
            message: format!(
                "Validate signature error: Signature size is {}",
                bytes.len()
            ),
        })?;
        tx.push_signature(signature);
    }
    Ok(tx)
}

fn submit(shared: &Shared, tx: Transaction) -> Result<TxId, Rejection> {
    let signers = recover_signers(&tx);
    let mut chain = shared.lock();
    let txid = chain.submit(tx, signers)?;
    // With a block time the transaction waits in the pending pool for the producer;
    // without, it is sealed into its own block before the broadcast answers.
    if !chain.pooling() {
        chain.mine();
    }
    Ok(txid)
}

fn broadcast_transaction(shared: &Shared, p: &Params) -> Answer {
    let (tx, signatures) = posted_transaction(p)?;
    let txid = tx.txid();
    let outcome = with_signatures(tx, &signatures).and_then(|tx| submit(shared, tx));
    Ok(match outcome {
        Ok(txid) => json!({ "result": true, "txid": txid.to_hex() }),
        Err(Rejection { code, message }) => json!({
            "code": code,
            "message": render::text(&message, p.visible),
            "txid": txid.to_hex(),
        }),
    })
}

fn broadcast_hex(shared: &Shared, p: &Params) -> Answer {
    let bytes = p.hex("transaction")?;
    let tx = Transaction::from_protobuf(&bytes)
        .map_err(|e| java_error("com.google.protobuf.InvalidProtocolBufferException", e))?;
    let txid = tx.txid();
    let tx_text = tx.to_json(true).to_string();
    Ok(match submit(shared, tx) {
        Ok(_) => json!({ "result": true, "code": "SUCCESS", "message": "",
                         "transaction": tx_text, "txid": txid.to_hex() }),
        Err(Rejection { code, message }) => json!({ "result": false, "code": code,
                         "message": message, "transaction": tx_text, "txid": txid.to_hex() }),
    })
}

fn txid_param(p: &Params) -> Option<TxId> {
    p.str("value")?.trim_start_matches("0x").parse().ok()
}

fn transaction_by_id(shared: &Shared, p: &Params) -> Answer {
    let chain = shared.lock();
    Ok(txid_param(p)
        .and_then(|id| chain.transaction(&id))
        .map(|m| render::transaction(m, p.visible))
        .unwrap_or_else(|| json!({})))
}

fn transaction_info(shared: &Shared, p: &Params) -> Answer {
    let chain = shared.lock();
    Ok(txid_param(p)
        .and_then(|id| chain.transaction(&id))
        .map(|m| render::transaction_info(&m.info, p.visible))
        .unwrap_or_else(|| json!({})))
}

fn infos_by_block(shared: &Shared, p: &Params) -> Answer {
    let num = p.int("num")?;
    if num <= 0 {
        return Ok(json!({}));
    }
    let chain = shared.lock();
    let Some(block) = chain.block(num as u64) else {
        return Ok(json!([]));
    };
    let infos: Vec<Value> = block
        .txs
        .iter()
        .filter_map(|id| chain.transaction(id))
        .map(|m| render::transaction_info(&m.info, p.visible))
        .collect();
    Ok(infos.into())
}

fn sign_weight(shared: &Shared, p: &Params) -> Answer {
    let (tx, signatures) = posted_transaction(p)?;
    let owner = tx
        .owner()
        .map_err(|e| java_error("java.lang.IllegalArgumentException", e))?;
    let txid = tx.txid();
    let mut tx_json = tx.to_json(p.visible);
    tx_json
        .as_object_mut()
        .expect("an object")
        .remove("visible");
    if !signatures.is_empty() {
        tx_json["signature"] = signatures
            .iter()
            .map(hex::encode)
            .collect::<Vec<_>>()
            .into();
    }
    let extension =
        json!({ "result": { "result": true }, "txid": txid.to_hex(), "transaction": tx_json });
    let weight = shared.lock().sign_weight(owner, &txid, &signatures);
    let approved = match weight {
        SignWeight::NoAccount => {
            return Ok(json!({
                "result": { "code": "PERMISSION_ERROR", "message": "Account does not exist!" },
                "transaction": extension,
            }));
        }
        SignWeight::Foreign(signer) => {
            return Ok(json!({
                "permission": render::owner_permission(&owner, p.visible),
                "result": { "code": "PERMISSION_ERROR",
                            "message": format!("{} is not contained of permission.", signer.to_base58()) },
                "transaction": extension,
            }));
        }
        SignWeight::Malformed(e) => {
            return Ok(json!({
                "permission": render::owner_permission(&owner, p.visible),
                "result": { "code": "SIGNATURE_FORMAT_ERROR", "message": e },
                "transaction": extension,
            }));
        }
        SignWeight::Approved(approved) => approved,
    };
    let mut out = Map::new();
    out.insert(
        "permission".into(),
        render::owner_permission(&owner, p.visible),
    );
    if approved.is_empty() {
        out.insert("result".into(), json!({ "code": "NOT_ENOUGH_PERMISSION" }));
    } else {
        out.insert(
            "approved_list".into(),
            approved
                .iter()
                .map(|a| render::addr(a, p.visible))
                .collect::<Vec<_>>()
                .into(),
        );
        out.insert("current_weight".into(), (approved.len() as i64).into());
        out.insert("result".into(), json!({}));
    }
    out.insert("transaction".into(), extension);
    Ok(Value::Object(out))
}

fn get_contract(shared: &Shared, p: &Params) -> Answer {
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
fn contract_state(energy_factor: i64, now_ms: i64) -> Value {
    let mut state = serde_json::Map::new();
    if energy_factor != 0 {
        state.insert("energy_factor".into(), energy_factor.into());
    }
    state.insert("update_cycle".into(), (now_ms / 21_600_000).into());
    Value::Object(state)
}

fn contract_info(shared: &Shared, p: &Params) -> Answer {
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
