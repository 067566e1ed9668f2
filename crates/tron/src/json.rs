//! java-tron's JSON form of `Transaction.raw`, written and read in both `visible` modes.
//!
//! The rules are `JsonFormat`'s: proto3 defaults are left out, `bytes` are hex, the fields on
//! java-tron's address list are base58 when `visible` and `41…` hex otherwise, enums are
//! printed by name. Reading is as lenient as java-tron (either address form, upper- or
//! lower-case hex, numbers as JSON numbers or decimal strings, unknown keys ignored) because
//! the txID is computed from the decoded fields, never from the text.

use serde_json::{Map, Value, json};

use crate::address::Address;
use crate::error::TxError;
use crate::proto::{self, ENTRY_TYPES, STATE_MUTABILITIES, contract_type, type_url};

pub(crate) fn raw_to_json(raw: &proto::TransactionRaw, visible: bool) -> Value {
    let mut out = Map::new();
    let contracts: Vec<Value> = raw
        .contract
        .iter()
        .map(|c| contract_to_json(c, visible))
        .collect();
    out.insert("contract".into(), contracts.into());
    put_bytes(&mut out, "ref_block_bytes", &raw.ref_block_bytes);
    put_int(&mut out, "ref_block_num", raw.ref_block_num);
    put_bytes(&mut out, "ref_block_hash", &raw.ref_block_hash);
    put_int(&mut out, "expiration", raw.expiration);
    put_bytes(&mut out, "data", &raw.data);
    put_bytes(&mut out, "scripts", &raw.scripts);
    put_int(&mut out, "timestamp", raw.timestamp);
    put_int(&mut out, "fee_limit", raw.fee_limit);
    Value::Object(out)
}

fn contract_to_json(c: &proto::Contract, visible: bool) -> Value {
    use prost::Message;
    let any = c.parameter.clone().unwrap_or_default();
    let bytes = any.value.as_slice();
    let (name, value) = match c.r#type {
        contract_type::TRANSFER => match proto::TransferContract::decode(bytes) {
            Ok(t) => {
                let mut v = Map::new();
                put_addr(&mut v, "owner_address", &t.owner_address, visible);
                put_addr(&mut v, "to_address", &t.to_address, visible);
                put_int(&mut v, "amount", t.amount);
                ("TransferContract", Value::Object(v))
            }
            Err(_) => ("TransferContract", json!({})),
        },
        contract_type::TRIGGER_SMART_CONTRACT => match proto::TriggerSmartContract::decode(bytes) {
            Ok(t) => {
                let mut v = Map::new();
                put_addr(&mut v, "owner_address", &t.owner_address, visible);
                put_addr(&mut v, "contract_address", &t.contract_address, visible);
                put_int(&mut v, "call_value", t.call_value);
                put_bytes(&mut v, "data", &t.data);
                put_int(&mut v, "call_token_value", t.call_token_value);
                put_int(&mut v, "token_id", t.token_id);
                ("TriggerSmartContract", Value::Object(v))
            }
            Err(_) => ("TriggerSmartContract", json!({})),
        },
        contract_type::CREATE_SMART_CONTRACT => match proto::CreateSmartContract::decode(bytes) {
            Ok(t) => {
                let mut v = Map::new();
                put_addr(&mut v, "owner_address", &t.owner_address, visible);
                if let Some(sc) = &t.new_contract {
                    v.insert("new_contract".into(), smart_contract_to_json(sc, visible));
                }
                put_int(&mut v, "call_token_value", t.call_token_value);
                put_int(&mut v, "token_id", t.token_id);
                ("CreateSmartContract", Value::Object(v))
            }
            Err(_) => ("CreateSmartContract", json!({})),
        },
        other => match (
            crate::stake::Stake::decode(other, bytes),
            crate::settings::ContractSetting::decode(other, bytes),
        ) {
            (Some(Ok(stake)), _) => (stake.type_name(), stake_to_json(&stake, visible)),
            (_, Some(Ok(setting))) => (setting.type_name(), setting_to_json(&setting, visible)),
            _ => (
                "UnknownContract",
                json!({ "value_hex": hex::encode(bytes) }),
            ),
        },
    };
    let mut out = Map::new();
    out.insert(
        "parameter".into(),
        json!({ "value": value, "type_url": any.type_url }),
    );
    out.insert("type".into(), name.into());
    put_int(&mut out, "Permission_id", c.permission_id.into());
    Value::Object(out)
}

/// A Stake 2.0 contract's `parameter.value` as java-tron prints it: zero fields, `false` and
/// the enum's first value (BANDWIDTH) left out.
fn stake_to_json(stake: &crate::stake::Stake, visible: bool) -> Value {
    use crate::stake::{Resource, Stake};
    let mut v = Map::new();
    let resource = |v: &mut Map<String, Value>, r: &Resource| {
        if *r != Resource::Bandwidth {
            v.insert("resource".into(), r.name().into());
        }
    };
    put_addr(
        &mut v,
        "owner_address",
        &stake.owner().tron_bytes(),
        visible,
    );
    match stake {
        Stake::Freeze {
            resource: r,
            amount,
            ..
        } => {
            put_int(&mut v, "frozen_balance", *amount);
            resource(&mut v, r);
        }
        Stake::Unfreeze {
            resource: r,
            amount,
            ..
        } => {
            put_int(&mut v, "unfreeze_balance", *amount);
            resource(&mut v, r);
        }
        Stake::WithdrawExpired { .. } => {}
        Stake::Delegate {
            receiver,
            resource: r,
            amount,
            lock,
            lock_period,
            ..
        } => {
            resource(&mut v, r);
            put_int(&mut v, "balance", *amount);
            put_addr(&mut v, "receiver_address", &receiver.tron_bytes(), visible);
            if *lock {
                v.insert("lock".into(), true.into());
            }
            put_int(&mut v, "lock_period", *lock_period);
        }
        Stake::Undelegate {
            receiver,
            resource: r,
            amount,
            ..
        } => {
            resource(&mut v, r);
            put_int(&mut v, "balance", *amount);
            put_addr(&mut v, "receiver_address", &receiver.tron_bytes(), visible);
        }
    }
    Value::Object(v)
}

/// A contract setting's `parameter.value` as java-tron prints it (zeros left out).
fn setting_to_json(setting: &crate::settings::ContractSetting, visible: bool) -> Value {
    use crate::settings::ContractSetting;
    let mut v = Map::new();
    put_addr(
        &mut v,
        "owner_address",
        &setting.owner().tron_bytes(),
        visible,
    );
    put_addr(
        &mut v,
        "contract_address",
        &setting.contract().tron_bytes(),
        visible,
    );
    match setting {
        ContractSetting::CallerEnergyPercent { percent, .. } => {
            put_int(&mut v, "consume_user_resource_percent", *percent)
        }
        ContractSetting::OriginEnergyLimit { limit, .. } => {
            put_int(&mut v, "origin_energy_limit", *limit)
        }
    }
    Value::Object(v)
}

/// A `SmartContract` (what `getcontract` answers) in java-tron's JSON.
pub fn smart_contract_to_json(sc: &proto::SmartContract, visible: bool) -> Value {
    let mut v = Map::new();
    put_addr(&mut v, "origin_address", &sc.origin_address, visible);
    put_addr(&mut v, "contract_address", &sc.contract_address, visible);
    if let Some(abi) = &sc.abi {
        let entries: Vec<Value> = abi.entrys.iter().map(abi_entry_to_json).collect();
        v.insert("abi".into(), json!({ "entrys": entries }));
    }
    put_bytes(&mut v, "bytecode", &sc.bytecode);
    put_int(&mut v, "call_value", sc.call_value);
    put_int(
        &mut v,
        "consume_user_resource_percent",
        sc.consume_user_resource_percent,
    );
    if !sc.name.is_empty() {
        v.insert("name".into(), sc.name.clone().into());
    }
    put_int(&mut v, "origin_energy_limit", sc.origin_energy_limit);
    put_bytes(&mut v, "code_hash", &sc.code_hash);
    put_bytes(&mut v, "trx_hash", &sc.trx_hash);
    put_int(&mut v, "version", sc.version.into());
    Value::Object(v)
}

fn abi_entry_to_json(e: &proto::AbiEntry) -> Value {
    let mut v = Map::new();
    if e.anonymous {
        v.insert("anonymous".into(), true.into());
    }
    if e.constant {
        v.insert("constant".into(), true.into());
    }
    if !e.name.is_empty() {
        v.insert("name".into(), e.name.clone().into());
    }
    if !e.inputs.is_empty() {
        v.insert(
            "inputs".into(),
            e.inputs.iter().map(abi_param_to_json).collect(),
        );
    }
    if !e.outputs.is_empty() {
        v.insert(
            "outputs".into(),
            e.outputs.iter().map(abi_param_to_json).collect(),
        );
    }
    if e.r#type != 0 {
        v.insert("type".into(), enum_name(&ENTRY_TYPES, e.r#type));
    }
    if e.payable {
        v.insert("payable".into(), true.into());
    }
    if e.state_mutability != 0 {
        v.insert(
            "stateMutability".into(),
            enum_name(&STATE_MUTABILITIES, e.state_mutability),
        );
    }
    Value::Object(v)
}

fn abi_param_to_json(p: &proto::AbiParam) -> Value {
    let mut v = Map::new();
    if p.indexed {
        v.insert("indexed".into(), true.into());
    }
    if !p.name.is_empty() {
        v.insert("name".into(), p.name.clone().into());
    }
    if !p.r#type.is_empty() {
        v.insert("type".into(), p.r#type.clone().into());
    }
    Value::Object(v)
}

fn enum_name(names: &[&str], value: i32) -> Value {
    usize::try_from(value)
        .ok()
        .and_then(|i| names.get(i))
        .map(|n| Value::from(*n))
        .unwrap_or_else(|| value.into())
}

fn put_int(map: &mut Map<String, Value>, key: &str, n: i64) {
    if n != 0 {
        map.insert(key.into(), n.into());
    }
}

fn put_bytes(map: &mut Map<String, Value>, key: &str, bytes: &[u8]) {
    if !bytes.is_empty() {
        map.insert(key.into(), hex::encode(bytes).into());
    }
}

fn put_addr(map: &mut Map<String, Value>, key: &str, bytes: &[u8], visible: bool) {
    if bytes.is_empty() {
        return;
    }
    let text = match Address::from_tron_bytes(bytes) {
        Ok(a) if visible => a.to_base58(),
        _ => hex::encode(bytes),
    };
    map.insert(key.into(), text.into());
}

/// A JSON object being read, with the path used in error messages.
struct Reader<'a> {
    map: &'a Map<String, Value>,
    path: String,
}

impl<'a> Reader<'a> {
    fn new(value: &'a Value, path: &str) -> Result<Self, TxError> {
        let map = value.as_object().ok_or_else(|| TxError::WrongType {
            field: path.to_owned(),
            expected: "a JSON object",
        })?;
        Ok(Reader {
            map,
            path: path.to_owned(),
        })
    }

    fn field(&self, key: &str) -> String {
        if self.path.is_empty() {
            key.to_owned()
        } else {
            format!("{}.{key}", self.path)
        }
    }

    /// A present, non-null value.
    fn get(&self, key: &str) -> Option<&'a Value> {
        self.map.get(key).filter(|v| !v.is_null())
    }

    fn required(&self, key: &str) -> Result<&'a Value, TxError> {
        self.get(key)
            .ok_or_else(|| TxError::MissingField(self.field(key)))
    }

    fn child(&self, key: &str) -> Result<Reader<'a>, TxError> {
        Reader::new(self.required(key)?, &self.field(key))
    }

    fn int(&self, key: &str) -> Result<i64, TxError> {
        let Some(v) = self.get(key) else {
            return Ok(0);
        };
        let bad = || TxError::BadNumber {
            field: self.field(key),
        };
        match v {
            Value::Number(n) => n.as_i64().ok_or_else(bad),
            Value::String(s) => s.trim().parse().map_err(|_| bad()),
            _ => Err(bad()),
        }
    }

    fn boolean(&self, key: &str) -> Result<bool, TxError> {
        match self.get(key) {
            None => Ok(false),
            Some(Value::Bool(b)) => Ok(*b),
            Some(Value::String(s)) if s == "true" || s == "false" => Ok(s == "true"),
            Some(_) => Err(TxError::WrongType {
                field: self.field(key),
                expected: "true or false",
            }),
        }
    }

    fn string(&self, key: &str) -> Result<String, TxError> {
        match self.get(key) {
            None => Ok(String::new()),
            Some(Value::String(s)) => Ok(s.clone()),
            Some(_) => Err(TxError::WrongType {
                field: self.field(key),
                expected: "a string",
            }),
        }
    }

    fn bytes(&self, key: &str) -> Result<Vec<u8>, TxError> {
        let s = self.string(key)?;
        crate::hexutil::decode(&self.field(key), &s)
    }

    /// An address field in either form, as its 21 protobuf bytes (empty when absent).
    fn address(&self, key: &str) -> Result<Vec<u8>, TxError> {
        let s = self.string(key)?;
        if s.is_empty() {
            return Ok(Vec::new());
        }
        let a: Address = s.parse().map_err(|source| TxError::BadAddress {
            field: self.field(key),
            source,
        })?;
        Ok(a.tron_bytes().to_vec())
    }

    fn required_address(&self, key: &str) -> Result<Vec<u8>, TxError> {
        self.required(key)?;
        self.address(key)
    }

    fn array(&self, key: &str) -> Result<&'a [Value], TxError> {
        match self.get(key) {
            None => Ok(&[]),
            Some(Value::Array(items)) => Ok(items),
            Some(_) => Err(TxError::WrongType {
                field: self.field(key),
                expected: "an array",
            }),
        }
    }

    /// An enum given by name (java-tron capitalises an all-lower-case first letter) or number.
    fn enumeration(&self, key: &str, names: &[&str]) -> Result<i32, TxError> {
        match self.get(key) {
            None => Ok(0),
            Some(Value::Number(n)) => {
                n.as_i64()
                    .and_then(|n| i32::try_from(n).ok())
                    .ok_or_else(|| TxError::BadNumber {
                        field: self.field(key),
                    })
            }
            Some(Value::String(s)) => names
                .iter()
                .position(|n| n.eq_ignore_ascii_case(s))
                .map(|i| i as i32)
                .ok_or_else(|| {
                    TxError::Invalid(format!("field `{}`: unknown value `{s}`", self.field(key)))
                }),
            Some(_) => Err(TxError::WrongType {
                field: self.field(key),
                expected: "a name or a number",
            }),
        }
    }
}

pub(crate) fn raw_from_json(value: &Value) -> Result<proto::TransactionRaw, TxError> {
    let r = Reader::new(value, "raw_data")?;
    let contract = r
        .array("contract")?
        .iter()
        .enumerate()
        .map(|(i, c)| contract_from_json(c, &format!("raw_data.contract[{i}]")))
        .collect::<Result<Vec<_>, _>>()?;
    if r.get("auths").is_some() {
        return Err(TxError::Invalid(
            "raw_data.auths is not supported; refusing to sign what cannot be shown".into(),
        ));
    }
    Ok(proto::TransactionRaw {
        ref_block_bytes: r.bytes("ref_block_bytes")?,
        ref_block_num: r.int("ref_block_num")?,
        ref_block_hash: r.bytes("ref_block_hash")?,
        expiration: r.int("expiration")?,
        auths: Vec::new(),
        data: r.bytes("data")?,
        contract,
        scripts: r.bytes("scripts")?,
        timestamp: r.int("timestamp")?,
        fee_limit: r.int("fee_limit")?,
    })
}

/// A Stake 2.0 contract of type `kind` from its `parameter.value`: `(type, type_url, bytes)`.
fn stake_from_json(kind: &str, v: &Reader<'_>) -> Result<(i32, &'static str, Vec<u8>), TxError> {
    use crate::stake::{Resource, Stake};
    let address = |key: &str| -> Result<Address, TxError> {
        let bytes = v.required_address(key)?;
        Address::from_tron_bytes(&bytes).map_err(|source| TxError::BadAddress {
            field: v.field(key),
            source,
        })
    };
    let resource = || -> Result<Resource, TxError> {
        Resource::from_code(v.enumeration("resource", &["BANDWIDTH", "ENERGY", "TRON_POWER"])?)
    };
    let owner = address("owner_address")?;
    let stake = match kind {
        "FreezeBalanceV2Contract" => Stake::Freeze {
            owner,
            resource: resource()?,
            amount: v.int("frozen_balance")?,
        },
        "UnfreezeBalanceV2Contract" => Stake::Unfreeze {
            owner,
            resource: resource()?,
            amount: v.int("unfreeze_balance")?,
        },
        "WithdrawExpireUnfreezeContract" => Stake::WithdrawExpired { owner },
        "DelegateResourceContract" => Stake::Delegate {
            owner,
            receiver: address("receiver_address")?,
            resource: resource()?,
            amount: v.int("balance")?,
            lock: v.boolean("lock")?,
            lock_period: v.int("lock_period")?,
        },
        _ => Stake::Undelegate {
            owner,
            receiver: address("receiver_address")?,
            resource: resource()?,
            amount: v.int("balance")?,
        },
    };
    Ok(stake.encode())
}

fn contract_from_json(value: &Value, path: &str) -> Result<proto::Contract, TxError> {
    use prost::Message;
    let r = Reader::new(value, path)?;
    let kind = r.string("type")?;
    let param = r.child("parameter")?;
    let v = param.child("value")?;
    let (number, url, bytes) = match kind.as_str() {
        "TransferContract" => (
            contract_type::TRANSFER,
            type_url::TRANSFER,
            proto::TransferContract {
                owner_address: v.required_address("owner_address")?,
                to_address: v.required_address("to_address")?,
                amount: v.int("amount")?,
            }
            .encode_to_vec(),
        ),
        "TriggerSmartContract" => (
            contract_type::TRIGGER_SMART_CONTRACT,
            type_url::TRIGGER_SMART_CONTRACT,
            proto::TriggerSmartContract {
                owner_address: v.required_address("owner_address")?,
                contract_address: v.required_address("contract_address")?,
                call_value: v.int("call_value")?,
                data: v.bytes("data")?,
                call_token_value: v.int("call_token_value")?,
                token_id: v.int("token_id")?,
            }
            .encode_to_vec(),
        ),
        "CreateSmartContract" => (
            contract_type::CREATE_SMART_CONTRACT,
            type_url::CREATE_SMART_CONTRACT,
            proto::CreateSmartContract {
                owner_address: v.required_address("owner_address")?,
                new_contract: match v.get("new_contract") {
                    Some(_) => Some(smart_contract_from_json(&v.child("new_contract")?)?),
                    None => None,
                },
                call_token_value: v.int("call_token_value")?,
                token_id: v.int("token_id")?,
            }
            .encode_to_vec(),
        ),
        "FreezeBalanceV2Contract"
        | "UnfreezeBalanceV2Contract"
        | "WithdrawExpireUnfreezeContract"
        | "DelegateResourceContract"
        | "UnDelegateResourceContract" => stake_from_json(&kind, &v)?,
        "UpdateSettingContract" | "UpdateEnergyLimitContract" => {
            let address = |key: &str| -> Result<Address, TxError> {
                let bytes = v.required_address(key)?;
                Address::from_tron_bytes(&bytes).map_err(|source| TxError::BadAddress {
                    field: v.field(key),
                    source,
                })
            };
            let (owner, contract) = (address("owner_address")?, address("contract_address")?);
            let setting = if kind == "UpdateSettingContract" {
                crate::settings::ContractSetting::CallerEnergyPercent {
                    owner,
                    contract,
                    percent: v.int("consume_user_resource_percent")?,
                }
            } else {
                crate::settings::ContractSetting::OriginEnergyLimit {
                    owner,
                    contract,
                    limit: v.int("origin_energy_limit")?,
                }
            };
            setting.encode()
        }
        "" => return Err(TxError::MissingField(r.field("type"))),
        other => return Err(TxError::UnsupportedContract(other.to_owned())),
    };
    let given_url = param.string("type_url")?;
    if !given_url.is_empty() && given_url != url {
        return Err(TxError::TypeUrlMismatch {
            found: given_url,
            kind: match number {
                contract_type::TRANSFER => "TransferContract",
                contract_type::TRIGGER_SMART_CONTRACT => "TriggerSmartContract",
                contract_type::CREATE_SMART_CONTRACT => "CreateSmartContract",
                contract_type::FREEZE_BALANCE_V2 => "FreezeBalanceV2Contract",
                contract_type::UNFREEZE_BALANCE_V2 => "UnfreezeBalanceV2Contract",
                contract_type::WITHDRAW_EXPIRE_UNFREEZE => "WithdrawExpireUnfreezeContract",
                contract_type::DELEGATE_RESOURCE => "DelegateResourceContract",
                contract_type::UPDATE_SETTING => "UpdateSettingContract",
                contract_type::UPDATE_ENERGY_LIMIT => "UpdateEnergyLimitContract",
                _ => "UnDelegateResourceContract",
            },
        });
    }
    let permission_id = r.int("Permission_id")?;
    Ok(proto::Contract {
        r#type: number,
        parameter: Some(proto::Any {
            type_url: url.to_owned(),
            value: bytes,
        }),
        provider: Vec::new(),
        contract_name: Vec::new(),
        permission_id: i32::try_from(permission_id).map_err(|_| TxError::BadNumber {
            field: r.field("Permission_id"),
        })?,
    })
}

fn smart_contract_from_json(r: &Reader<'_>) -> Result<proto::SmartContract, TxError> {
    let abi = match r.get("abi") {
        Some(_) => {
            let abi = r.child("abi")?;
            let entrys = abi
                .array("entrys")?
                .iter()
                .enumerate()
                .map(|(i, e)| {
                    abi_entry_from_json(&Reader::new(e, &format!("{}.entrys[{i}]", abi.path))?)
                })
                .collect::<Result<Vec<_>, _>>()?;
            Some(proto::Abi { entrys })
        }
        None => None,
    };
    Ok(proto::SmartContract {
        origin_address: r.address("origin_address")?,
        contract_address: r.address("contract_address")?,
        abi,
        bytecode: r.bytes("bytecode")?,
        call_value: r.int("call_value")?,
        consume_user_resource_percent: r.int("consume_user_resource_percent")?,
        name: r.string("name")?,
        origin_energy_limit: r.int("origin_energy_limit")?,
        code_hash: r.bytes("code_hash")?,
        trx_hash: r.bytes("trx_hash")?,
        version: i32::try_from(r.int("version")?).map_err(|_| TxError::BadNumber {
            field: r.field("version"),
        })?,
    })
}

/// Reads an ABI given either as java-tron stores it (`{"entrys":[…]}`) or as solc writes it (a
/// JSON array), which is what `deploycontract` accepts.
pub fn abi_from_json(value: &Value) -> Result<proto::Abi, TxError> {
    let entries = match value {
        Value::Array(items) => items.as_slice(),
        Value::Object(_) => Reader::new(value, "abi")?.array("entrys")?,
        _ => {
            return Err(TxError::WrongType {
                field: "abi".into(),
                expected: "a JSON ABI array or {\"entrys\": [...]}",
            });
        }
    };
    let entrys = entries
        .iter()
        .enumerate()
        .map(|(i, e)| abi_entry_from_json(&Reader::new(e, &format!("abi.entrys[{i}]"))?))
        .collect::<Result<Vec<_>, _>>()?;
    Ok(proto::Abi { entrys })
}

fn abi_entry_from_json(r: &Reader<'_>) -> Result<proto::AbiEntry, TxError> {
    let params = |key: &str| -> Result<Vec<proto::AbiParam>, TxError> {
        r.array(key)?
            .iter()
            .enumerate()
            .map(|(i, p)| {
                let p = Reader::new(p, &format!("{}[{i}]", r.field(key)))?;
                Ok(proto::AbiParam {
                    indexed: p.boolean("indexed")?,
                    name: p.string("name")?,
                    r#type: p.string("type")?,
                })
            })
            .collect()
    };
    Ok(proto::AbiEntry {
        anonymous: r.boolean("anonymous")?,
        constant: r.boolean("constant")?,
        name: r.string("name")?,
        inputs: params("inputs")?,
        outputs: params("outputs")?,
        r#type: r.enumeration("type", &ENTRY_TYPES)?,
        payable: r.boolean("payable")?,
        state_mutability: r.enumeration("stateMutability", &STATE_MUTABILITIES)?,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reads_tronweb_shape_with_numbers_as_strings_and_upper_hex() {
        let raw = json!({
            "contract": [{
                "parameter": {
                    "value": {
                        "owner_address": "415CD0FB0AB3CE40F3051414C604B27756E69E43DB",
                        "to_address": "THTR75o8xXAgCTQqpiot2AFRAjvW1tSbVV",
                        "amount": "2000000"
                    },
                    "type_url": "type.googleapis.com/protocol.TransferContract"
                },
                "type": "TransferContract"
            }],
            "ref_block_bytes": "7B3B",
            "ref_block_hash": "b21ace8d6ac20e7e",
            "expiration": 1539331479000_i64,
            "timestamp": "1539295479000",
            "unknown_key": 1
        });
        let raw = raw_from_json(&raw).unwrap();
        use prost::Message;
        assert_eq!(
            hex::encode(raw.encode_to_vec()),
            "0a027b3b2208b21ace8d6ac20e7e40d8abb9bae62c5a67080112630a2d747970652e676f6f676c65617069732e636f6d2f70726f746f636f6c2e5472616e73666572436f6e747261637412320a15415cd0fb0ab3ce40f3051414c604b27756e69e43db121541521ea197907927725ef36d70f25f850d1659c7c71880897a70d889a4a9e62c"
        );
    }

    #[test]
    fn errors_name_the_field() {
        let raw = json!({
            "contract": [{
                "parameter": { "value": { "owner_address": "TJRyWwFs9wTFGZg3JbrVriFbNfCug5tDeD",
                                          "to_address": "THTR75o8xXAgCTQqpiot2AFRAjvW1tSbVV" } },
                "type": "TransferContract"
            }]
        });
        let err = raw_from_json(&raw).unwrap_err();
        assert_eq!(
            err.to_string(),
            "field `raw_data.contract[0].parameter.value.owner_address`: bad checksum: the address is mistyped"
        );
        let raw =
            json!({"contract": [{"parameter": {"value": {}}, "type": "VoteWitnessContract"}]});
        assert_eq!(
            raw_from_json(&raw).unwrap_err(),
            TxError::UnsupportedContract("VoteWitnessContract".into())
        );
        let raw = json!({"contract": [], "expiration": 1.5});
        assert!(matches!(
            raw_from_json(&raw),
            Err(TxError::BadNumber { .. })
        ));
        let raw = json!({"contract": [{"parameter": {"value": {"owner_address": "TJRyWwFs9wTFGZg3JbrVriFbNfCug5tDeC", "to_address": "THTR75o8xXAgCTQqpiot2AFRAjvW1tSbVV"}, "type_url": "type.googleapis.com/protocol.TriggerSmartContract"}, "type": "TransferContract"}]});
        assert!(matches!(
            raw_from_json(&raw),
            Err(TxError::TypeUrlMismatch { .. })
        ));
    }
}
