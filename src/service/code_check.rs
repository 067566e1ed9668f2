//! Whether the contracts a deployment record names are tronpool's, byte for byte: what every
//! client checks before it uses a recorded deployment, so a record that names a look-alike
//! pool (one with a drain function, a verifier with a backdoored key, a pool wired to another
//! verifier) is refused before anything is signed or sent.
//!
//! For each contract the node is asked for two things:
//! - the creation code, constructor arguments included (`getcontract`'s `bytecode`: java-tron
//!   keeps the `CreateSmartContract`'s `new_contract` as it was sent, `VMActuator.create`),
//!   which must be our artifact's creation code followed by exactly the arguments the record
//!   implies (the pool's verifier, hasher, USDT and denomination; the verifier's key, whose
//!   hash must be the one the record pins). This pins the constructor, and with it every
//!   storage slot the contract started with (a forged constructor could have planted a root);
//! - the runtime code (`getcontractinfo`'s `runtimecode`), which must be our artifact's with
//!   only its immutables filled in, and those immutables must be the same values.
//!
//! Our contracts have no way to change their code (no `SELFDESTRUCT`, no `DELEGATECALL`), so
//! code that matches now matches for good: the result is cached, keyed by the record.

use std::path::{Path, PathBuf};

use alloy_primitives::{B256, U256};
use alloy_sol_types::SolConstructor;
use contracts::TronPool;
use sha2::{Digest, Sha256};
use tron::Address;
use zk::keys::VerifierArgs;

use crate::error::{Error, Result};
use crate::service::chain::Chain;
use crate::service::check::{Check, failures};

/// Every contract of the deployment and the network it is on, checked against our artifacts
/// and the record: one [`Check`] per contract, and one for the network.
pub async fn check_code(chain: &Chain, usdt: Option<Address>) -> Result<Vec<Check>> {
    let d = &chain.deployment;
    let mut checks = vec![network(chain, usdt).await?];
    checks.push(argless(chain, d.hasher, "PoseidonT3", "hasher").await?);
    checks.push(verifier(chain, d.verifier, &d.verifying_key_sha256, "verifier").await?);
    if let Some(b) = &d.batches {
        checks.push(argless(chain, b.hasher4, "PoseidonT5", "batch hasher").await?);
        checks.push(verifier(chain, b.verifier, &b.verifying_key_sha256, "batch verifier").await?);
        checks.push(argless(chain, b.inserter, "BatchInserter", "batch inserter").await?);
    }
    for pool in &d.pools {
        checks.push(pool_code(chain, pool.denomination, pool.address).await?);
        checks.push(pool_wiring(chain, pool.denomination).await?);
    }
    Ok(checks)
}

/// Refuses a recorded deployment whose contracts are not tronpool's (see the module docs),
/// unless the same record already passed (`verified_dir` keeps one file per network holding
/// the hash of the record that passed last).
pub(crate) async fn verify_recorded(
    chain: &Chain,
    usdt: Option<Address>,
    verified_dir: Option<&Path>,
) -> Result<()> {
    let key = record_key(chain)?;
    let stamp = verified_dir.map(|dir| stamp_path(dir, &chain.network));
    if let Some(stamp) = &stamp
        && std::fs::read_to_string(stamp).is_ok_and(|text| text.trim() == key)
    {
        return Ok(());
    }
    let checks = check_code(chain, usdt).await?;
    failures(
        &checks,
        &format!(
            "the deployment recorded for {} is not tronpool's, so nothing was sent",
            chain.network
        ),
    )?;
    if let Some(stamp) = &stamp {
        crate::store::fs::write_private(stamp, format!("{key}\n").as_bytes(), true)?;
    }
    Ok(())
}

/// What the verification of `network`'s record is kept under.
fn stamp_path(dir: &Path, network: &str) -> PathBuf {
    dir.join(format!("{network}.sha256"))
}

/// SHA-256 of the deployment as this client reads it, with the node it was checked on: a
/// changed record, or the same record on another node, is checked again.
fn record_key(chain: &Chain) -> Result<String> {
    let mut bytes = serde_json::to_vec(&chain.deployment)
        .map_err(|e| Error::json("the deployment record", e))?;
    bytes.extend_from_slice(chain.node.url().as_str().as_bytes());
    Ok(hex::encode(Sha256::digest(&bytes)))
}

/// The node's chain is the one the record was made on, with the network's USDT.
async fn network(chain: &Chain, usdt: Option<Address>) -> Result<Check> {
    let d = &chain.deployment;
    let chain_id = crate::service::deploy::chain_id(&chain.node).await?;
    let mut wrong = Vec::new();
    if chain_id != d.chain_id {
        wrong.push(format!(
            "the node's chain id is {chain_id:#x}, the record's {:#x}",
            d.chain_id
        ));
    }
    if let Some(usdt) = usdt
        && usdt != d.usdt
    {
        wrong.push(format!(
            "the record's USDT is {}, the network's {usdt}",
            d.usdt
        ));
    }
    Ok(if wrong.is_empty() {
        Check::new(
            "network",
            true,
            format!("chain id {:#x}, USDT {}", d.chain_id, d.usdt),
        )
    } else {
        Check::new("network", false, wrong.join(", "))
    })
}

/// A contract's creation arguments, once its creation code is known to start with the
/// artifact's, and its runtime code's immutables, once the rest of it is the artifact's.
struct Code {
    args: Vec<u8>,
    immutables: std::collections::BTreeMap<String, Vec<u8>>,
}

/// What [`code`] found at an address: our artifact's code, or why it is not.
enum Found {
    Ours(Code),
    NotOurs(String),
}

/// Reads `address`'s creation and runtime code and compares both with the artifact `name`.
async fn code(chain: &Chain, address: Address, name: &str) -> Result<Found> {
    let artifact = contracts::artifact(name)
        .ok_or_else(|| Error::Failed(format!("no built-in {name} artifact")))?;
    let broken = |e: contracts::CodeMismatch| Error::Failed(e.to_string());
    let Some(contract) = chain.node.get_contract(&address).await? else {
        return Ok(Found::NotOurs(format!("{address} holds no contract")));
    };
    let creation = artifact.creation_code().map_err(broken)?;
    let Some(args) = contract.bytecode.strip_prefix(creation.as_slice()) else {
        return Ok(Found::NotOurs(format!(
            "{address} was not created from tronpool's {name} code"
        )));
    };
    let runtime = chain
        .node
        .get_runtime_code(&address)
        .await?
        .unwrap_or_default();
    let immutables = match artifact.match_runtime(&runtime) {
        Ok(values) => values,
        Err(contracts::CodeMismatch::Artifact { .. }) => {
            return Err(Error::Failed(format!(
                "the built-in {name} artifact is broken"
            )));
        }
        Err(e) => return Ok(Found::NotOurs(format!("{address}: {e}"))),
    };
    Ok(Found::Ours(Code {
        args: args.to_vec(),
        immutables,
    }))
}

fn word(value: U256) -> Vec<u8> {
    value.to_be_bytes::<32>().to_vec()
}

fn address_word(address: Address) -> Vec<u8> {
    alloy_primitives::Address::from(address)
        .into_word()
        .to_vec()
}

/// A contract created without constructor arguments from the artifact `artifact`, shown as
/// `what` (the hashers and the batch inserter).
async fn argless(chain: &Chain, address: Address, artifact: &str, what: &str) -> Result<Check> {
    let name = format!("{what} code");
    Ok(match code(chain, address, artifact).await? {
        Found::NotOurs(why) => Check::new(name, false, why),
        Found::Ours(code) if !code.args.is_empty() => Check::new(
            name,
            false,
            format!("{address} was created with arguments tronpool's {what} does not take"),
        ),
        Found::Ours(_) => Check::new(name, true, format!("{address} runs tronpool's {artifact}")),
    })
}

/// A `Groth16Verifier` at `address` holding the verifying key whose hash is `pinned`, shown
/// as `what` (the withdrawals' verifier, or the batches').
async fn verifier(chain: &Chain, address: Address, pinned: &str, what: &str) -> Result<Check> {
    let pinned = pinned.trim_start_matches("0x").to_ascii_lowercase();
    let name = format!("{what} code");
    let name = name.as_str();
    let code = match code(chain, address, "Groth16Verifier").await? {
        Found::Ours(code) => code,
        Found::NotOurs(why) => return Ok(Check::new(name, false, why)),
    };
    let args = match VerifierArgs::abi_decode(&code.args) {
        Ok(args) => args,
        Err(e) => return Ok(Check::new(name, false, format!("{address}: {e}"))),
    };
    let held = match args.verifying_key() {
        Ok(vk) => hex::encode(Sha256::digest(zk::keys::verifying_key_bytes(&vk))),
        Err(e) => return Ok(Check::new(name, false, format!("{address}: {e}"))),
    };
    if held != pinned {
        return Ok(Check::new(
            name,
            false,
            format!("{address} holds verifying key {held}, not the pinned {pinned}"),
        ));
    }
    let expected: std::collections::BTreeMap<String, Vec<u8>> = args
        .by_immutable_name()
        .into_iter()
        .map(|(k, v)| (k, word(v)))
        .collect();
    if code.immutables != expected {
        return Ok(Check::new(
            name,
            false,
            format!("{address} keeps a key in its code other than the one it was created with"),
        ));
    }
    Ok(Check::new(
        name,
        true,
        format!("{address} runs tronpool's Groth16Verifier with verifying key {pinned}"),
    ))
}

/// A pool's artifact, constructor arguments and immutables, as a deployment implies them.
type PoolCode = (
    &'static str,
    Vec<u8>,
    std::collections::BTreeMap<String, Vec<u8>>,
);

/// What a pool of `denomination` must have been created with, and keep as immutables, for
/// the deployment: a `QueuedPool` where the deployment has batch insertion, a `TronPool`
/// otherwise.
fn pool_expected(chain: &Chain, denomination: u64) -> Result<PoolCode> {
    let d = &chain.deployment;
    let denom = chain.denomination(denomination)?;
    let units = denom.base_units();
    let mut immutables = vec![
        ("denomination", word(units)),
        ("hasher", address_word(d.hasher)),
        ("token", address_word(d.usdt)),
        ("verifier", address_word(d.verifier)),
    ];
    let (artifact, args) = match &d.batches {
        Some(b) => {
            immutables.extend([
                ("batchVerifier", address_word(b.verifier)),
                ("hasher4", address_word(b.hasher4)),
                ("insertionFee", word(denom.insertion_fee())),
                ("inserter", address_word(b.inserter)),
            ]);
            let args = contracts::QueuedPool::constructorCall {
                verifier_: d.verifier.into(),
                batchVerifier_: b.verifier.into(),
                hasher_: d.hasher.into(),
                hasher4_: b.hasher4.into(),
                token_: d.usdt.into(),
                denomination_: units,
                insertionFee_: denom.insertion_fee(),
                inserter_: b.inserter.into(),
            }
            .abi_encode();
            ("QueuedPool", args)
        }
        None => {
            let args = contracts::TronPool::constructorCall {
                verifier_: d.verifier.into(),
                hasher_: d.hasher.into(),
                token_: d.usdt.into(),
                denomination_: units,
            }
            .abi_encode();
            ("TronPool", args)
        }
    };
    let immutables = immutables
        .into_iter()
        .map(|(k, v)| (k.to_owned(), v))
        .collect();
    Ok((artifact, args, immutables))
}

async fn pool_code(chain: &Chain, denomination: u64, address: Address) -> Result<Check> {
    let name = format!("pool {denomination} code");
    let (artifact, args, immutables) = pool_expected(chain, denomination)?;
    let code = match code(chain, address, artifact).await? {
        Found::Ours(code) => code,
        Found::NotOurs(why) => return Ok(Check::new(name, false, why)),
    };
    if code.args != args {
        return Ok(Check::new(
            name,
            false,
            format!(
                "{address} was created with other arguments than the recorded contracts, \
                 USDT, {denomination} USDT and insertion fee"
            ),
        ));
    }
    if code.immutables != immutables {
        return Ok(Check::new(
            name,
            false,
            format!("{address} keeps other addresses or amounts in its code than recorded"),
        ));
    }
    Ok(Check::new(
        name,
        true,
        format!("{address} runs tronpool's {artifact}, created as recorded"),
    ))
}

/// The pool points at the recorded verifier and hasher, the network's USDT and its
/// denomination, and its tree starts from tronpool's zero values.
async fn pool_wiring(chain: &Chain, denomination: u64) -> Result<Check> {
    let pool = chain.pool_address(denomination)?;
    let d = &chain.deployment;
    let name = format!("pool {denomination}");
    let read = async {
        Ok::<_, Error>((
            chain.view(pool, TronPool::verifierCall {}).await?,
            chain.view(pool, TronPool::hasherCall {}).await?,
            chain.view(pool, TronPool::tokenCall {}).await?,
            chain.view(pool, TronPool::denominationCall {}).await?,
            // A queued pool's empty root is a constant of its code, which `pool_code`
            // compares with ours; a `TronPool` keeps its zero values in storage.
            if chain.queued() {
                None
            } else {
                let i = U256::from(zk::tree::DEPTH);
                Some(chain.view(pool, TronPool::zerosCall { i }).await?)
            },
        ))
    };
    let (verifier, hasher, token, amount, top) = match read.await {
        Ok(values) => values,
        Err(e) => return Ok(Check::new(name, false, format!("{pool}: {e}"))),
    };
    let mut wrong = Vec::new();
    let address = |a: alloy_primitives::Address| Address::from_evm(a.0.0);
    if address(verifier) != d.verifier {
        wrong.push(format!(
            "its verifier is {}, not {}",
            address(verifier),
            d.verifier
        ));
    }
    if address(hasher) != d.hasher {
        wrong.push(format!(
            "its hasher is {}, not {}",
            address(hasher),
            d.hasher
        ));
    }
    if address(token) != d.usdt {
        wrong.push(format!("its token is {}, not {}", address(token), d.usdt));
    }
    let expected = chain.denomination(denomination)?.base_units();
    if amount != expected {
        wrong.push(format!("it pays {amount} base units, not {expected}"));
    }
    if top.is_some_and(|top| top != B256::from(zk::field::to_be_bytes(&zk::tree::empty_root()))) {
        wrong.push("its tree's zero values are not tronpool's".into());
    }
    Ok(if wrong.is_empty() {
        Check::new(name, true, format!("{pool} is wired as recorded"))
    } else {
        Check::new(name, false, format!("{pool}: {}", wrong.join(", ")))
    })
}
