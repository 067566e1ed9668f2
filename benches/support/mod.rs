//! What the benches that need a busy pool share: deposits executed straight on the devnet's
//! chain and real batches that insert them (the setup, not what is measured), and the median
//! of a run's samples.
#![allow(dead_code)] // each bench uses a different part

use alloy_primitives::{B256, Bytes, U256};
use alloy_sol_types::SolCall;
use contracts::{BatchInserter, TronPool};
use devnet::DevnetHandle;
use rand_core::RngCore;
use tron::abi::Trc20;
use tron::{Action, PrivateKey, TransactionBuilder, Trigger};
use zk::Fr;
use zk::batch::{BATCH_LEVELS, BATCH_SIZE, BatchCircuit};
use zk::proof::EncodedProof;
use zk::tree::MerkleTree;

/// Deposits a block holds in the setup, as on a busy pool.
pub const PER_BLOCK: usize = 1_000;

/// Executes `count` deposits into the 100 pool straight on the chain (no HTTP: this is the
/// setup, not what is measured), spread over the dev accounts; answers their commitments.
pub fn deposit(devnet: &DevnetHandle, count: usize, next: &mut usize) -> Vec<[u8; 32]> {
    let keys: Vec<PrivateKey> = devnet.accounts().to_vec();
    let pool = devnet.deployment().pool(100).expect("pool").address;
    let mut rng = rand_core::OsRng;
    let mut commitments = Vec::with_capacity(count);
    devnet.with_chain(|chain| {
        let mut txids = Vec::with_capacity(count);
        for i in 0..count {
            let key = &keys[(*next + i) % keys.len()];
            let mut word = [0u8; 32];
            rng.fill_bytes(&mut word);
            word[0] &= 0x1f; // below r
            commitments.push(word);
            let data = TronPool::depositCall {
                commitment: B256::from(word),
            }
            .abi_encode();
            txids.push(call(chain, key, pool, data));
            if (i + 1) % PER_BLOCK == 0 {
                chain.mine();
            }
        }
        // A block takes what fits its limits; the rest waits for the next ones.
        chain.mine();
        while chain.pending_count() > 0 {
            chain.mine();
        }
        for txid in &txids {
            succeeded(chain, txid);
        }
    });
    *next += count;
    commitments
}

/// Executes one call on the chain as `key`, with the checks a broadcast gets except the
/// signature (the setup makes 100,000 of them; the signer is named instead).
pub fn call(
    chain: &mut devnet::Ledger,
    key: &PrivateKey,
    contract: tron::Address,
    data: Vec<u8>,
) -> tron::TxId {
    let reference = chain.head().ref_block();
    let tx = TransactionBuilder::new(
        Action::Trigger(Trigger {
            owner: key.address(),
            contract,
            data,
            ..Trigger::default()
        }),
        reference,
    )
    .expiration(reference.timestamp + 3_600_000)
    .fee_limit(1_000_000_000)
    .build();
    chain
        .submit(tx, Ok(vec![key.address()]))
        .expect("the call is accepted")
}

/// Panics unless the sealed transaction `txid` succeeded.
pub fn succeeded(chain: &devnet::Ledger, txid: &tron::TxId) {
    let mined = chain.transaction(txid).expect("sealed");
    assert!(
        mined.info.failure.is_none(),
        "the call failed: {:?} ({})",
        mined.info.failure,
        String::from_utf8_lossy(mined.info.contract_result.as_deref().unwrap_or_default())
    );
}

pub fn approve_and_fund(devnet: &DevnetHandle) {
    let pool = devnet.deployment().pool(100).expect("pool").address;
    let usdt = devnet.deployment().usdt;
    let keys: Vec<PrivateKey> = devnet.accounts().to_vec();
    devnet.with_chain(|chain| {
        for key in &keys {
            // Energy for ~15,000 deposits each.
            chain.set_balance(key.address(), 1_000_000_000_000_000);
            let data = Trc20::approveCall {
                spender: pool.into(),
                value: U256::MAX,
            }
            .abi_encode();
            call(chain, key, usdt, data);
        }
        chain.mine();
    });
}

pub fn median(values: &mut [f64]) -> f64 {
    values.sort_by(f64::total_cmp);
    values.get(values.len() / 2).copied().unwrap_or(f64::NAN)
}

/// Whether criterion's filter (the arguments that are not flags) can select a benchmark whose
/// id starts with `prefix`: a bench with a slow setup skips it when none can.
pub fn selected(prefix: &str) -> bool {
    let filters: Vec<String> = std::env::args()
        .skip(1)
        .filter(|a| !a.starts_with('-'))
        .collect();
    filters.is_empty()
        || filters
            .iter()
            .any(|f| prefix.contains(f.as_str()) || f.starts_with(prefix))
}

/// Inserts `commitments`, the newest deposits, as a batcher would: batches that end at the
/// tree's blocks of 32, proved with the devnet's batch development keys and sent through the
/// inserter by a dev account (the setup, not what is measured). Keeps `tree` and `queue` (the
/// chain after the last inserted deposit) in step.
pub fn insert(
    devnet: &devnet::DevnetHandle,
    tree: &mut MerkleTree,
    queue: &mut Fr,
    commitments: &[[u8; 32]],
) {
    let pool = devnet.deployment().pool(100).unwrap().address;
    let inserter = devnet.deployment().batches.as_ref().unwrap().inserter;
    let submitter = devnet.accounts()[0].clone();
    let keys = &zk::batch_proof::insecure_dev_keys().proving;
    let commitments: Vec<Fr> = commitments
        .iter()
        .map(|c| zk::field::from_be_bytes(c, "a commitment").unwrap())
        .collect();
    let mut at = 0;
    while at < commitments.len() {
        let room = BATCH_SIZE - tree.len() % BATCH_SIZE;
        let batch = &commitments[at..(at + room).min(commitments.len())];
        let circuit = BatchCircuit::new(
            BATCH_LEVELS,
            tree,
            *queue,
            batch,
            zk::field::from_address(&submitter.address().evm_bytes()),
        )
        .unwrap();
        let proof = zk::batch_proof::prove(keys, &circuit, &mut rand_core::OsRng).unwrap();
        let data = BatchInserter::insertBatchCall {
            pool: pool.into(),
            proof: Bytes::from(EncodedProof::from_proof(&proof).to_bytes().to_vec()),
            newRoot: B256::from(zk::field::to_be_bytes(&circuit.public.new_root)),
            start: circuit.public.start,
            count: circuit.public.count,
        }
        .abi_encode();
        devnet.with_chain(|chain| {
            let txid = call(chain, &submitter, inserter, data);
            chain.mine();
            succeeded(chain, &txid);
        });
        tree.extend(batch).unwrap();
        *queue = zk::batch::chain(*queue, batch);
        at += batch.len();
    }
}
