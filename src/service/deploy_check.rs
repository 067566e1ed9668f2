//! Whether a deployment on chain is tronpool's, checked with constant calls: what `deploy`
//! ends with, and `deploy --check` runs against a recorded deployment. A deployment that
//! passes has hashers that hash like our Poseidon (of two inputs and of four), two verifiers
//! that hold the keys we prove with (each accepts a fresh proof of its circuit and refuses it
//! for any other public input), and pools wired to them, to the inserter, to the network's
//! USDT and to their denominations, on a network whose TVM runs them.

use alloy_primitives::U256;
use alloy_sol_types::SolCall;
use contracts::{Groth16Verifier, PoseidonT3, PoseidonT5};
use tron::Address;
use zk::Fr;
use zk::circuit::PublicInputs;
use zk::keys::Keys;
use zk::note::{Note, NoteMeta};
use zk::proof::{EncodedProof, Witness};
use zk::tree::MerkleTree;

use crate::error::{Error, Result};
use crate::service::builders::withdraw_calldata;
use crate::service::chain::Chain;
use crate::service::check::Check;
use crate::service::deploy::DeployKeys;
use crate::service::deposit::{Desk, deposit_one, funding, new_note};
use crate::service::notes::{NoteHashes, Payout, parse_note, prove_withdrawal};
use crate::service::submit;
use crate::service::sync;
use crate::store::notes::{NoteRecord, NoteState, NoteStore};
use crate::store::trees::TreeCache;

/// How many random pairs the hasher is compared on.
const HASHER_SAMPLES: usize = 3;

/// What `deploy` and `deploy --check` say before the failed checks.
pub(crate) const NOT_OURS: &str = "the deployment is not tronpool's as recorded";

/// How `deploy` marks the note of its test deposit in the note store.
pub(crate) const TEST_DEPOSIT_ORIGIN: &str = "deploy test";

/// Every check, in order; [`failures`] turns the failed ones into one refusal.
pub(crate) async fn check_deployment(
    chain: &Chain,
    keys: &DeployKeys,
    usdt: Option<Address>,
) -> Result<Vec<Check>> {
    let mut checks = Vec::new();
    let params = chain.node.get_chain_parameters().await?;
    checks.push(
        match crate::service::deploy::check_tvm_switches(&params, &chain.network) {
            Ok(()) => Check::new(
                "tvm",
                true,
                format!(
                    "the network runs {} code ({})",
                    contracts::EVM_VERSION,
                    contracts::REQUIRED_TVM_SWITCHES
                        .iter()
                        .map(|(param, _)| *param)
                        .collect::<Vec<_>>()
                        .join(", ")
                ),
            ),
            Err(e) => Check::new("tvm", false, e.to_string()),
        },
    );
    checks.push(hasher(chain).await?);
    checks.extend(verifier(chain, &keys.withdraw).await?);
    if let Some(batches) = &chain.deployment.batches {
        checks.push(hasher4(chain, batches.hasher4).await?);
        let (public, proof) = tokio::task::block_in_place(|| fresh_batch_proof(&keys.batch))?;
        let proven = Proven {
            input: zk::field::to_u256(&public.public_hash()),
            proof,
            keys: &keys.batch,
        };
        checks.extend(verifies("batch verifier", chain, batches.verifier, proven).await?);
    }
    // Every contract's code and constructor against our artifacts, and each pool's wiring.
    checks.extend(crate::service::code_check::check_code(chain, usdt).await?);
    Ok(checks)
}

/// The hasher answers like `zk::poseidon::hash2` on random field elements.
async fn hasher(chain: &Chain) -> Result<Check> {
    let names = ("hasher", "Poseidon", "pairs");
    let call = |inputs| PoseidonT3::poseidonCall { inputs };
    hashes_like(chain, chain.deployment.hasher, names, call, |[a, b]| {
        zk::poseidon::hash2(a, b)
    })
    .await
}

/// The batch hasher answers like `zk::poseidon::hash4` on random field elements.
async fn hasher4(chain: &Chain, hasher4: Address) -> Result<Check> {
    let names = ("batch hasher", "four-input Poseidon", "quadruples");
    let call = |inputs| PoseidonT5::poseidonCall { inputs };
    hashes_like(chain, hasher4, names, call, |[a, b, c, d]| {
        zk::poseidon::hash4(a, b, c, d)
    })
    .await
}

/// The check `name`: the hasher at `address` answers like `ours` (tronpool's `what`) on
/// [`HASHER_SAMPLES`] random inputs (`samples` in the detail), each asked with `call`.
async fn hashes_like<const N: usize, C: SolCall<Return = U256>>(
    chain: &Chain,
    address: Address,
    (name, what, samples): (&str, &str, &str),
    call: impl Fn([U256; N]) -> C,
    ours: impl Fn([Fr; N]) -> Fr,
) -> Result<Check> {
    for _ in 0..HASHER_SAMPLES {
        let inputs: [Fr; N] = std::array::from_fn(|_| random_field());
        let theirs = match chain
            .view(address, call(inputs.map(|v| zk::field::to_u256(&v))))
            .await
        {
            Ok(theirs) => theirs,
            Err(e) => return Ok(Check::new(name, false, format!("{address}: {e}"))),
        };
        if theirs != zk::field::to_u256(&ours(inputs)) {
            return Ok(Check::new(
                name,
                false,
                format!("{address} hashes differently from tronpool's {what}"),
            ));
        }
    }
    Ok(Check::new(
        name,
        true,
        format!("{address} equals tronpool's {what} on {HASHER_SAMPLES} random {samples}"),
    ))
}

/// The withdraw verifier checked with a withdrawal proof made now ([`verifies`]).
async fn verifier(chain: &Chain, keys: &Keys) -> Result<Vec<Check>> {
    // A fifth of a second of proving, for a command a person runs once: not worth a thread.
    let (public, proof) = fresh_proof(keys)?;
    let proven = Proven {
        input: zk::field::to_u256(&public.public_hash()),
        proof,
        keys,
    };
    verifies("verifier", chain, chain.deployment.verifier, proven).await
}

/// A proof made now, with its one public input and the keys it was made with.
struct Proven<'a> {
    input: U256,
    proof: EncodedProof,
    keys: &'a Keys,
}

/// The verifier at `verifier` (checks named `{name} accepts` and `{name} refuses`) accepts
/// `proven`, within the chain's CPU limit (a constant call past it is refused), and refuses
/// the same proof for a public input one bit away.
async fn verifies(
    name: &str,
    chain: &Chain,
    verifier: Address,
    proven: Proven<'_>,
) -> Result<Vec<Check>> {
    let Proven { input, proof, keys } = proven;
    let ask = |input: U256| {
        let call = Groth16Verifier::verifyProofCall {
            proof: proof.0,
            input: [input],
        };
        async move {
            let data = call.abi_encode();
            chain.simulate(verifier, verifier, 0, data).await
        }
    };
    let accepted = ask(input).await?;
    let decoded = |out: &tron::client::ConstantCall| {
        (!out.reverted)
            .then(|| Groth16Verifier::verifyProofCall::abi_decode_returns(&out.output).ok())
            .flatten()
    };
    let circuit = keys.circuit();
    let accept = match decoded(&accepted) {
        Some(true) => Check::new(
            format!("{name} accepts"),
            true,
            format!(
                "{verifier} accepts a {circuit} proof made now with the keys {} ({} energy)",
                keys.verifying_key_sha256(),
                accepted.energy_used
            ),
        ),
        _ => Check::new(
            format!("{name} accepts"),
            false,
            format!(
                "{verifier} refuses a {circuit} proof made with the keys {}: it holds other \
                 keys, or is not a verifier",
                keys.verifying_key_sha256()
            ),
        ),
    };
    let flipped = ask(input ^ U256::from(1u8)).await?;
    let refuse = match decoded(&flipped) {
        Some(false) => Check::new(
            format!("{name} refuses"),
            true,
            format!("{verifier} refuses the proof for a public input one bit away"),
        ),
        _ => Check::new(
            format!("{name} refuses"),
            false,
            format!("{verifier} does not refuse a proof for another public input"),
        ),
    };
    Ok(vec![accept, refuse])
}

/// A batch proof inserting one random commitment into an empty tree, for a random sender:
/// a second of proving.
fn fresh_batch_proof(keys: &Keys) -> Result<(zk::batch::BatchPublic, EncodedProof)> {
    let tree = MerkleTree::new();
    let circuit = zk::batch::BatchCircuit::new(
        zk::batch::BATCH_LEVELS,
        &tree,
        Fr::from(0u64),
        &[random_field()],
        zk::field::from_address(&rand_bytes()),
    )
    .map_err(|e| Error::caused("a test batch", e))?;
    let proof = zk::batch_proof::prove(&keys.proving, &circuit, &mut rand_core::OsRng)
        .map_err(|e| Error::caused("proving a batch for the check", e))?;
    Ok((circuit.public, EncodedProof::from_proof(&proof)))
}

/// A withdrawal proof for a random note in a tree of its own, to random values.
fn fresh_proof(keys: &Keys) -> Result<(PublicInputs, EncodedProof)> {
    let note =
        Note::generate(NoteMeta::usdt(100, "check").map_err(|e| Error::caused("a test note", e))?);
    let mut tree = MerkleTree::new();
    let index = tree
        .insert(note.commitment())
        .map_err(|e| Error::caused("a test tree", e))?;
    let path = tree
        .path(index)
        .map_err(|e| Error::caused("a test path", e))?;
    let random_address = || zk::field::from_address(&rand_bytes());
    let public = PublicInputs {
        root: tree.root(),
        nullifier_hash: note.nullifier_hash(),
        recipient: random_address(),
        relayer: random_address(),
        fee: Fr::from(1_000u64),
        refund: Fr::from(0u64),
    };
    let witness = Witness::new(&note, &path).map_err(|e| Error::caused("a test witness", e))?;
    let proof = zk::proof::prove(keys, &public, &witness, &mut rand_core::OsRng)
        .map_err(|e| Error::caused("proving for the check", e))?;
    Ok((public, EncodedProof::from_proof(&proof)))
}

/// A random field element: 253 random bits, always below r.
fn random_field() -> Fr {
    let mut bytes: [u8; 32] = rand_bytes();
    bytes[0] &= 0x1f;
    zk::field::from_be_bytes(&bytes, "a random value").expect("below 2^253, so below r")
}

fn rand_bytes<const N: usize>() -> [u8; N] {
    use rand_core::RngCore;
    let mut bytes = [0u8; N];
    rand_core::OsRng.fill_bytes(&mut bytes);
    bytes
}

/// The note the withdrawal check simulates: a deposited note of one of the deployment's
/// pools in `store`, the smallest pool first and `deploy`'s own test deposit before others.
pub(crate) fn test_note(chain: &Chain, store: &NoteStore) -> Result<Option<(i64, Note)>> {
    let mut records: Vec<NoteRecord> = store
        .list()?
        .into_iter()
        .filter(|r| {
            r.state == NoteState::Deposited
                && chain
                    .deployment
                    .pool(r.denomination)
                    .is_some_and(|p| p.address.to_base58() == r.pool)
        })
        .collect();
    records.sort_by_key(|r| (r.denomination, r.origin != TEST_DEPOSIT_ORIGIN, r.id));
    let Some(record) = records.first() else {
        return Ok(None);
    };
    let note = parse_note(&store.text(record.id)?)?;
    Ok(Some((record.id, note)))
}

/// What [`test_deposit`] did.
pub(crate) struct TestDeposit {
    pub id: i64,
    pub note: Note,
    pub txid: tron::TxId,
    /// The batch that inserted it, sent by the depositor (queued pools).
    pub batch: Option<tron::TxId>,
}

/// Deposits a note of the smallest pool from `key`, approving exactly what it takes first
/// when the pool may not take it yet; the note is stored (as [`TEST_DEPOSIT_ORIGIN`]) before
/// anything is signed, and stays its depositor's to withdraw. In a queued pool the depositor
/// then inserts it (a batch of one, proved with the batch circuit's keys and paid by `key`),
/// so the withdrawal check can run at once and the batch verifier has accepted a real batch.
pub(crate) async fn test_deposit(desk: Desk<'_>, key: &tron::PrivateKey) -> Result<TestDeposit> {
    let chain = desk.chain;
    let denomination = chain
        .denominations()
        .first()
        .copied()
        .ok_or_else(|| Error::Failed("the deployment has no pools".into()))?;
    if let Some(approval) = funding(chain, key.address(), denomination, 1)
        .await?
        .approval
    {
        let mut approve = approval.transaction;
        approve.sign(key)?;
        submit::send_and_confirm(chain, &approve, "the test deposit's approval").await?;
    }
    let (id, note) = new_note(desk, denomination, TEST_DEPOSIT_ORIGIN, None)?;
    let (txid, _) = deposit_one(desk, key, id, &note).await?;
    let mut batch = None;
    if chain.queued() {
        let (_, prepared) =
            crate::service::insert::prepare((chain, desk.trees), denomination, key.address())
                .await?;
        if let Some(prepared) = prepared {
            let mut tx = prepared.built.transaction;
            tx.sign(key)?;
            let info = submit::send_and_confirm(chain, &tx, "the test deposit's batch").await?;
            batch = Some(info.id);
        }
    }
    Ok(TestDeposit {
        id,
        note,
        txid,
        batch,
    })
}

/// A withdrawal of stored note `id`, a real deposit, simulated on the node as a constant
/// call: the pool's whole `withdraw` (known root, unspent nullifier, the binding hash, the
/// proof through the verifier, the transfer) for a proof made now from the synced tree, to
/// `from` itself. A node refuses a constant call past its CPU limit, as it ends a transaction
/// `OUT_OF_TIME` (the devnet also says how long the call took, as a producer would).
pub async fn withdrawal(
    chain: &Chain,
    trees: &TreeCache,
    id: i64,
    note: &Note,
    from: Address,
) -> Result<Check> {
    let name = "withdraw";
    let denomination = note.meta().denomination();
    let pool = chain.pool_address(denomination)?;
    let synced = sync::sync_tree(chain, denomination, trees, &|_| {}).await?;
    let commitment = alloy_primitives::B256::from(zk::field::to_be_bytes(&note.commitment()));
    if let Some(position) = synced.queue_position(trees, commitment)? {
        return Ok(Check::skipped(
            name,
            format!(
                "note {id} waits in the {denomination} USDT pool's queue (position \
                 {position}): `tronpool --network {} pool insert --denom {denomination}` \
                 inserts it, then check again",
                chain.network
            ),
        ));
    }
    let payout = Payout {
        from,
        recipient: from,
        relayer: None,
        fee: U256::ZERO,
        refund: U256::ZERO,
    };
    let proved =
        prove_withdrawal(chain, trees, &synced, note, NoteHashes::of(note), payout).await?;
    let data = withdraw_calldata(&proved.request);
    let run = match chain.simulate(from, pool, 0, data).await {
        Ok(run) => run,
        Err(Error::Node(e @ tron::NodeError::Refused { .. })) => {
            return Ok(Check::new(
                name,
                false,
                format!("withdrawing note {id} from {pool} fails on the node: {e}"),
            ));
        }
        Err(e) => return Err(e),
    };
    if run.reverted {
        return Ok(Check::new(
            name,
            false,
            format!(
                "withdrawing note {id} from {pool} reverts: {}",
                run.revert_reason().unwrap_or_else(|| "no reason".into())
            ),
        ));
    }
    let cpu = run
        .devnet_cpu_time_us
        .map(|us| format!(", {:.1} ms of modeled CPU", us as f64 / 1000.0))
        .unwrap_or_default();
    Ok(Check::new(
        name,
        true,
        format!(
            "withdrawing note {id} (leaf {}) from the {denomination} USDT pool runs within the \
             node's limits ({} energy{cpu}); the note is unspent and yours",
            proved.leaf_index, run.energy_used
        ),
    ))
}
