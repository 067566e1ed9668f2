//! Posted transactions and what became of them: broadcasts, `gettransactionbyid`,
//! `gettransactioninfobyid`/`byblocknum` and `getsignweight`.

use super::handler::*;

/// Reads a posted transaction the way java-tron does: from `raw_data` alone (`txID` and
/// `raw_data_hex` are not protobuf fields and are ignored), signatures kept as given.
pub(super) fn posted_transaction(p: &Params) -> Result<(Transaction, Vec<Vec<u8>>), Response> {
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
pub(super) fn with_signatures(
    mut tx: Transaction,
    signatures: &[Vec<u8>],
) -> Result<Transaction, Rejection> {
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

pub(super) fn submit(shared: &Shared, tx: Transaction) -> Result<TxId, Rejection> {
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

pub(super) fn broadcast_transaction(shared: &Shared, p: &Params) -> Answer {
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

pub(super) fn broadcast_hex(shared: &Shared, p: &Params) -> Answer {
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

pub(super) fn txid_param(p: &Params) -> Option<TxId> {
    p.str("value")?.trim_start_matches("0x").parse().ok()
}

pub(super) fn transaction_by_id(shared: &Shared, p: &Params) -> Answer {
    let chain = shared.lock();
    Ok(txid_param(p)
        .and_then(|id| chain.transaction(&id))
        .map(|m| render::transaction(m, p.visible))
        .unwrap_or_else(|| json!({})))
}

pub(super) fn transaction_info(shared: &Shared, p: &Params) -> Answer {
    let chain = shared.lock();
    Ok(txid_param(p)
        .and_then(|id| chain.transaction(&id))
        .map(|m| render::transaction_info(&m.info, p.visible))
        .unwrap_or_else(|| json!({})))
}

pub(super) fn infos_by_block(shared: &Shared, p: &Params) -> Answer {
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

pub(super) fn sign_weight(shared: &Shared, p: &Params) -> Answer {
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
