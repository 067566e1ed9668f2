//! Reading, explaining, signing and submitting transactions made elsewhere (by our API for an
//! external signer, by TronWeb, by a node's builder endpoints).

use serde::Serialize;
use tron::{Action, Address, NodeClient, PrivateKey, Stake, Transaction, TxId};

use crate::error::{Error, Result};

/// A transaction as read from text, with the `visible` mode it came in, so that writing it
/// back (signed) keeps the form its producer expects.
pub struct ParsedTransaction {
    pub transaction: Transaction,
    pub visible: bool,
}

/// Reads a transaction in any form tronpool meets: java-tron JSON (either `visible` mode,
/// optionally wrapped as a builder's `{"transaction": …}`), `raw_data_hex`, or the hex of a
/// whole signed protobuf message.
pub fn parse(text: &str) -> Result<ParsedTransaction> {
    let text = text.trim();
    if text.is_empty() {
        return Err(Error::usage("no transaction given (empty input)"));
    }
    if text.starts_with('{') {
        let value: serde_json::Value = serde_json::from_str(text)
            .map_err(|e| Error::usage(format!("the transaction is not valid JSON: {e}")))?;
        let visible = value
            .get("visible")
            .or_else(|| value.pointer("/transaction/visible"))
            .and_then(|v| v.as_bool().or_else(|| v.as_str().map(|s| s == "true")))
            .unwrap_or(false);
        let transaction = Transaction::from_json(&value)?;
        return Ok(ParsedTransaction {
            transaction,
            visible,
        });
    }
    let digits = text.trim_start_matches("0x");
    let bytes = hex::decode(digits).map_err(|_| {
        Error::usage(
            "the transaction is neither JSON nor hex (raw_data_hex or a signed transaction)",
        )
    })?;
    // raw_data_hex first: a signed message starts with field 1 too, so try the exact form.
    let transaction = Transaction::from_raw_bytes(&bytes)
        .or_else(|_| Transaction::from_protobuf(&bytes))
        .map_err(|e| Error::usage(format!("cannot decode the transaction bytes: {e}")))?;
    Ok(ParsedTransaction {
        transaction,
        visible: false,
    })
}

/// What a person needs to see before signing or broadcasting.
#[derive(Debug, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct Summary {
    pub tx_id: TxId,
    #[serde(rename = "type")]
    pub kind: &'static str,
    pub owner: Address,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub to: Option<Address>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub contract: Option<Address>,
    /// TRX moved (transfer amount or call value; staked, released or lent), in sun.
    pub amount_sun: i64,
    /// The resource a Stake 2.0 operation is for (`ENERGY`, `BANDWIDTH`).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub resource: Option<&'static str>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub data: Option<String>,
    /// The call decoded, for contracts tronpool knows (`transfer(T…, 1000000)`).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub call: Option<String>,
    pub fee_limit_sun: i64,
    pub ref_block_bytes: String,
    pub ref_block_hash: String,
    pub timestamp: i64,
    pub expiration: i64,
    pub expired: bool,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub memo: Option<String>,
    pub signatures: Vec<SignatureSummary>,
    /// Signed by its owner, so a node would accept the signature.
    pub signed_by_owner: bool,
}

#[derive(Debug, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct SignatureSummary {
    pub signature: String,
    /// Who made it; `None` when no key can be recovered from it.
    pub signer: Option<Address>,
}

pub fn summarize(tx: &Transaction) -> Result<Summary> {
    let action = tx.action()?;
    let owner = action.owner()?;
    let resource = match &action {
        Action::Stake(
            Stake::Freeze { resource, .. }
            | Stake::Unfreeze { resource, .. }
            | Stake::Delegate { resource, .. }
            | Stake::Undelegate { resource, .. },
        ) => Some(resource.name()),
        _ => None,
    };
    let (to, contract, amount_sun, data) = match &action {
        Action::Transfer { to, amount, .. } => (Some(*to), None, *amount, None),
        Action::Stake(Stake::Freeze { amount, .. } | Stake::Unfreeze { amount, .. }) => {
            (None, None, *amount, None)
        }
        Action::Stake(Stake::WithdrawExpired { .. }) => (None, None, 0, None),
        Action::Stake(
            Stake::Delegate {
                receiver, amount, ..
            }
            | Stake::Undelegate {
                receiver, amount, ..
            },
        ) => (Some(*receiver), None, *amount, None),
        Action::Setting(setting) => (None, Some(setting.contract()), 0, None),
        Action::Trigger(t) => (None, Some(t.contract), t.call_value, Some(t.data.clone())),
        Action::Create(c) => (
            None,
            None,
            c.new_contract.as_ref().map_or(0, |n| n.call_value),
            None,
        ),
    };
    let txid = tx.txid();
    let signatures: Vec<SignatureSummary> = tx
        .signatures()
        .iter()
        .map(|s| SignatureSummary {
            signature: s.to_hex(),
            signer: s.recover(&txid.0).ok(),
        })
        .collect();
    let signed_by_owner = signatures.iter().any(|s| s.signer == Some(owner));
    let raw = tx.raw();
    Ok(Summary {
        tx_id: txid,
        kind: action.type_name(),
        owner,
        to,
        contract,
        amount_sun,
        resource,
        call: data.as_deref().and_then(tron::abi::describe_call),
        data: data.map(hex::encode),
        fee_limit_sun: raw.fee_limit,
        ref_block_bytes: hex::encode(&raw.ref_block_bytes),
        ref_block_hash: hex::encode(&raw.ref_block_hash),
        timestamp: raw.timestamp,
        expiration: raw.expiration,
        expired: raw.expiration <= tron::transaction::now_ms(),
        memo: (!raw.data.is_empty()).then(|| String::from_utf8_lossy(&raw.data).into_owned()),
        signatures,
        signed_by_owner,
    })
}

/// Signs as the owner (refusing any other key and expired transactions).
pub fn sign(tx: &mut Transaction, key: &PrivateKey) -> Result<()> {
    tx.sign(key)?;
    Ok(())
}

/// Submits a signed transaction after the checks a node would make that can be made here
/// (owner's signature, expiry), so a doomed broadcast never leaves the machine.
pub async fn broadcast(node: &NodeClient, tx: &Transaction) -> Result<TxId> {
    let summary = summarize(tx)?;
    if summary.signatures.is_empty() {
        return Err(Error::usage(
            "the transaction is not signed; run `tronpool tx sign` first",
        ));
    }
    if !summary.signed_by_owner {
        return Err(Error::usage(format!(
            "no signature on the transaction is by its owner {}",
            summary.owner
        )));
    }
    if summary.expired {
        return Err(Error::usage(format!(
            "the transaction expired at {} ms; build and sign it again",
            summary.expiration
        )));
    }
    crate::service::submit::broadcast(node, tx)
        .await
        .sent(tx.txid())
}
