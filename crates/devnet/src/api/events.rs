//! Decoding logs into TronGrid's event objects with the ABI stored at deployment.

use alloy_primitives::{I256, U256, keccak256};
use serde_json::{Map, Value};
use tron::proto::{Abi, AbiParam};

use crate::chain::receipt::LogEntry;

/// The `Event` entry type in java-tron's ABI enum.
const EVENT: i32 = 3;

/// One event of an ABI.
pub struct EventAbi<'a> {
    pub name: &'a str,
    inputs: &'a [AbiParam],
    topic0: [u8; 32],
}

impl EventAbi<'_> {
    /// Whether a log whose first topic is `topic0` is this event.
    pub fn is(&self, topic0: Option<&[u8; 32]>) -> bool {
        topic0 == Some(&self.topic0)
    }

    /// TronGrid's `event` text: `Transfer(address indexed from, address indexed to, uint256 value)`.
    pub fn signature_text(&self) -> String {
        let params: Vec<String> = self
            .inputs
            .iter()
            .map(|p| {
                let indexed = if p.indexed { " indexed" } else { "" };
                format!("{}{indexed} {}", p.r#type, p.name)
            })
            .collect();
        format!("{}({})", self.name, params.join(", "))
    }
}

pub fn event_abis(abi: &Abi) -> Vec<EventAbi<'_>> {
    abi.entrys
        .iter()
        .filter(|e| e.r#type == EVENT && !e.anonymous)
        .map(|e| {
            let types: Vec<&str> = e.inputs.iter().map(|p| p.r#type.as_str()).collect();
            EventAbi {
                name: &e.name,
                inputs: &e.inputs,
                topic0: keccak256(format!("{}({})", e.name, types.join(","))).0,
            }
        })
        .collect()
}

/// A decoded event: its ABI, arguments by position and name, and the type of each named one.
pub type Decoded<'a> = (&'a EventAbi<'a>, Map<String, Value>, Map<String, Value>);

/// The event a log is, and its arguments by position and name with their types.
pub fn decode<'a>(abis: &'a [EventAbi<'a>], log: &LogEntry) -> Option<Decoded<'a>> {
    let topic0 = log.topics.first()?;
    let abi = abis.iter().find(|a| &a.topic0 == topic0)?;
    let mut result = Map::new();
    let mut types = Map::new();
    let mut topics = log.topics[1..].iter();
    let mut head = 0usize;
    for (position, param) in abi.inputs.iter().enumerate() {
        let value = if param.indexed {
            let topic = topics.next()?;
            if is_dynamic(&param.r#type) {
                hex::encode(topic).into()
            } else {
                word(&param.r#type, topic)
            }
        } else {
            let at = head;
            head += 32;
            let slot: [u8; 32] = log.data.get(at..at + 32)?.try_into().ok()?;
            if is_dynamic(&param.r#type) {
                dynamic(&param.r#type, &log.data, &slot).unwrap_or_else(|| hex::encode(slot).into())
            } else {
                word(&param.r#type, &slot)
            }
        };
        result.insert(position.to_string(), value.clone());
        if !param.name.is_empty() {
            result.insert(param.name.clone(), value);
            types.insert(param.name.clone(), param.r#type.clone().into());
        }
    }
    Some((abi, result, types))
}

fn is_dynamic(ty: &str) -> bool {
    ty == "string" || ty == "bytes" || ty.ends_with(']')
}

/// A static value from its 32-byte word, as TronGrid writes it: addresses as `0x` + 20-byte
/// hex, integers as decimal strings, fixed bytes as hex.
fn word(ty: &str, w: &[u8; 32]) -> Value {
    if ty == "address" {
        format!("0x{}", hex::encode(&w[12..])).into()
    } else if ty == "bool" {
        (w[31] != 0).to_string().into()
    } else if ty.starts_with("uint") {
        U256::from_be_bytes(*w).to_string().into()
    } else if ty.starts_with("int") {
        I256::from_be_bytes(*w).to_string().into()
    } else if let Some(n) = ty
        .strip_prefix("bytes")
        .and_then(|n| n.parse::<usize>().ok())
    {
        hex::encode(&w[..n.min(32)]).into()
    } else {
        hex::encode(w).into()
    }
}

/// `string` and `bytes` from the data section (arrays are left as their offset word).
fn dynamic(ty: &str, data: &[u8], slot: &[u8; 32]) -> Option<Value> {
    let offset = usize::try_from(U256::from_be_bytes(*slot)).ok()?;
    let len_word: [u8; 32] = data.get(offset..offset.checked_add(32)?)?.try_into().ok()?;
    let len = usize::try_from(U256::from_be_bytes(len_word)).ok()?;
    let start = offset + 32;
    let bytes = data.get(start..start.checked_add(len)?)?;
    match ty {
        "string" => Some(String::from_utf8_lossy(bytes).into_owned().into()),
        "bytes" => Some(hex::encode(bytes).into()),
        _ => None,
    }
}
