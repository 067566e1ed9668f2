//! What the page asks of the module, one JSON request at a time (`{"op": …, …}`), answered
//! with JSON. Every operation is the `zk` crate's own code (the note format, Poseidon, the
//! tree, the witness and the Groth16 prover), so a note, a root or a proof made in the browser
//! is made exactly as the CLI makes it.
//!
//! Nothing secret is kept between requests: a note comes in with the request that needs it
//! and is wiped when the request is answered. Only the proving key stays loaded.

use std::cell::RefCell;

use alloy_primitives::U256;
use ark_bn254::Bn254;
use ark_groth16::ProvingKey;
use ark_serialize::CanonicalDeserialize;
use rand_chacha::ChaCha20Rng;
use rand_core::SeedableRng;
use serde::Deserialize;
use serde_json::{Value, json};
use sha2::{Digest, Sha256};
use zeroize::Zeroizing;
use zk::Fr;
use zk::circuit::PublicInputs;
use zk::circuits::Circuit;
use zk::field;
use zk::keys::Keys;
use zk::note::{Note, NoteMeta, SECRET_BYTES};
use zk::proof::{EncodedProof, Witness};
use zk::tree::MerkleTree;

/// Why a request was refused, in words the page shows as they are.
#[derive(Debug, thiserror::Error)]
pub enum OpError {
    #[error("{0}")]
    Invalid(String),
    #[error("no proving key is loaded: load the pool's key first")]
    NoKey,
    #[error(transparent)]
    Note(#[from] zk::note::NoteError),
    #[error(transparent)]
    Proof(#[from] zk::proof::ProofError),
    #[error(transparent)]
    Field(#[from] zk::field::FieldError),
    #[error(transparent)]
    Key(#[from] zk::keys::KeyError),
    #[error(transparent)]
    Tree(#[from] zk::tree::TreeError),
}

fn invalid(message: impl Into<String>) -> OpError {
    OpError::Invalid(message.into())
}

thread_local! {
    /// The proving key the page loaded (a module instance serves one pool's deployment).
    static KEYS: RefCell<Option<Keys>> = const { RefCell::new(None) };
}

/// Reads a proving key in arkworks' uncompressed form (what `serve` sends), checks it is a
/// withdrawal key, and keeps it. Answers with the SHA-256 of its verifying key, which the page
/// compares with the hash the deployment pins before it proves anything with it.
///
/// The points are not subgroup-checked (minutes in a browser): a key with a wrong point only
/// makes proofs that fail the self-check every proof gets against the verifying key, and that
/// verifying key is the one whose hash the page checks.
pub fn load_key(bytes: &[u8]) -> Result<Value, OpError> {
    let proving = ProvingKey::<Bn254>::deserialize_uncompressed_unchecked(bytes)
        .map_err(|e| invalid(format!("the proving key is malformed: {e}")))?;
    let keys = Keys::for_circuit(proving, Circuit::Withdraw)?;
    let answer = json!({
        "verifyingKeySha256": keys.verifying_key_sha256(),
        "provingKeySha256": hex::encode(Sha256::digest(bytes)),
    });
    KEYS.with(|slot| *slot.borrow_mut() = Some(keys));
    Ok(answer)
}

/// Answers one JSON request.
pub fn handle(request: &[u8]) -> Result<Value, OpError> {
    let request: Request = serde_json::from_slice(request)
        .map_err(|e| invalid(format!("a request the module does not understand: {e}")))?;
    match request {
        Request::NewNote {
            denomination,
            network,
            randomness,
        } => new_note(denomination, &network, &randomness),
        Request::ParseNote { note } => parse_note(&note),
        Request::Root { leaves } => {
            let tree = tree_of(&leaves)?;
            Ok(json!({ "root": field::to_hex(&tree.root()), "count": tree.len() }))
        }
        Request::Address { address } => {
            let bytes = address_bytes(&address)?;
            Ok(json!({ "hex": format!("0x{}", hex::encode(bytes)) }))
        }
        Request::Prove(prove) => prove_withdrawal(&prove),
    }
}

#[derive(Deserialize)]
#[serde(tag = "op", rename_all = "camelCase", deny_unknown_fields)]
enum Request {
    /// A fresh note from 62 random bytes the page drew from Web Crypto.
    NewNote {
        denomination: u64,
        network: String,
        randomness: Zeroizing<String>,
    },
    ParseNote {
        note: Zeroizing<String>,
    },
    /// The root of a pool's leaves (hex words, in order).
    Root {
        leaves: Vec<String>,
    },
    /// A base58check address as the 20 bytes the pool sees.
    Address {
        address: String,
    },
    Prove(ProveRequest),
}

#[derive(Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
struct ProveRequest {
    note: Zeroizing<String>,
    /// Every leaf of the pool, in order, as hex words.
    leaves: Vec<String>,
    /// The root the leaves must make: one the pool knows.
    root: String,
    recipient: String,
    /// Empty for a withdrawal without a relayer.
    #[serde(default)]
    relayer: Option<String>,
    /// Token base units, decimal.
    fee: String,
    /// Sun, decimal.
    refund: String,
    /// 32 random bytes (hex) for the proof's blinding, from Web Crypto.
    seed: Zeroizing<String>,
}

fn new_note(denomination: u64, network: &str, randomness: &str) -> Result<Value, OpError> {
    let bytes = Zeroizing::new(
        hex::decode(randomness.trim_start_matches("0x"))
            .map_err(|_| invalid("the note's randomness is not hex"))?,
    );
    if bytes.len() != 2 * SECRET_BYTES {
        return Err(invalid(format!(
            "a note takes {} random bytes, got {}",
            2 * SECRET_BYTES,
            bytes.len()
        )));
    }
    let mut nullifier = Zeroizing::new([0u8; SECRET_BYTES]);
    let mut secret = Zeroizing::new([0u8; SECRET_BYTES]);
    nullifier.copy_from_slice(&bytes[..SECRET_BYTES]);
    secret.copy_from_slice(&bytes[SECRET_BYTES..]);
    let note = Note::from_bytes(NoteMeta::usdt(denomination, network)?, &nullifier, &secret);
    Ok(json!({
        "note": note.to_text().as_str(),
        "commitment": field::to_hex(&note.commitment()),
    }))
}

fn parse_note(text: &str) -> Result<Value, OpError> {
    let note = Note::parse(text)?;
    Ok(json!({
        "token": note.meta().token().as_str(),
        "denomination": note.meta().denomination(),
        "network": note.meta().network(),
        "commitment": field::to_hex(&note.commitment()),
        "nullifierHash": field::to_hex(&note.nullifier_hash()),
    }))
}

fn tree_of(leaves: &[String]) -> Result<MerkleTree, OpError> {
    let leaves = leaves
        .iter()
        .map(|leaf| field::from_hex(leaf, "leaf"))
        .collect::<Result<Vec<Fr>, _>>()?;
    Ok(MerkleTree::from_leaves(&leaves)?)
}

fn word(text: &str, what: &str) -> Result<Fr, OpError> {
    let value: U256 = text
        .parse()
        .map_err(|_| invalid(format!("the {what} is not a decimal amount")))?;
    Ok(field::from_u256(value, what)?)
}

/// The 20 bytes of a base58check TRON address (`T…`): the 0x41 prefix and the double-SHA-256
/// checksum are checked, as `tron::Address` checks them natively.
fn address_bytes(text: &str) -> Result<[u8; 20], OpError> {
    let text = text.trim();
    let decoded = bs58::decode(text)
        .with_check(None)
        .into_vec()
        .map_err(|_| invalid(format!("{text} is not a TRON address (T…)")))?;
    match decoded.as_slice() {
        [0x41, rest @ ..] if rest.len() == 20 => {
            let mut out = [0u8; 20];
            out.copy_from_slice(rest);
            Ok(out)
        }
        _ => Err(invalid(format!("{text} is not a TRON address (T…)"))),
    }
}

fn address_field(text: &str) -> Result<Fr, OpError> {
    let bytes = address_bytes(text)?;
    Ok(field::from_u256(U256::from_be_slice(&bytes), "an address")?)
}

fn prove_withdrawal(request: &ProveRequest) -> Result<Value, OpError> {
    let note = Note::parse(&request.note)?;
    let tree = tree_of(&request.leaves)?;
    let root = field::from_hex(&request.root, "root")?;
    if tree.root() != root {
        return Err(invalid(format!(
            "the pool's leaves make root {}, not the pool's {}: the server sent a wrong list",
            field::to_hex(&tree.root()),
            request.root
        )));
    }
    let commitment = note.commitment();
    let index = tree.index_of(&commitment).ok_or_else(|| {
        invalid("the note's deposit is not in the pool's tree (yet): wait until it is inserted")
    })?;
    let path = tree.path(index)?;
    let witness = Witness::new(&note, &path)?;
    let public = PublicInputs {
        root,
        nullifier_hash: note.nullifier_hash(),
        recipient: address_field(&request.recipient)?,
        relayer: match request.relayer.as_deref() {
            Some(relayer) if !relayer.is_empty() => address_field(relayer)?,
            _ => Fr::from(0u64),
        },
        fee: word(&request.fee, "fee")?,
        refund: word(&request.refund, "refund")?,
    };
    let seed = Zeroizing::new(
        hex::decode(request.seed.trim_start_matches("0x"))
            .map_err(|_| invalid("the proof's seed is not hex"))?,
    );
    let seed: [u8; 32] = seed
        .as_slice()
        .try_into()
        .map_err(|_| invalid("the proof's seed is 32 bytes"))?;
    let mut rng = ChaCha20Rng::from_seed(seed);
    let proof = KEYS.with(|slot| {
        let keys = slot.borrow();
        let keys = keys.as_ref().ok_or(OpError::NoKey)?;
        Ok::<_, OpError>(zk::proof::prove(keys, &public, &witness, &mut rng)?)
    })?;
    Ok(json!({
        "proof": EncodedProof::from_proof(&proof).to_hex(),
        "root": field::to_hex(&root),
        "nullifierHash": field::to_hex(&public.nullifier_hash),
        "leafIndex": index,
    }))
}
