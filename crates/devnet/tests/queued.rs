//! The queued pool (`QueuedPool`, `BatchInserter`, `PoseidonT5`, a second `Groth16Verifier`
//! for `BatchInsert(5, 20)`) over HTTP on the devnet, with real proofs: deposits from several
//! accounts queue, batches of one, partial and full put them into the tree through the
//! inserter, interleaved with more deposits, and every note withdraws; each refusal is pinned
//! with what it costs; the queue outruns its ring and every deposit can still be inserted; in
//! a sponsored pool a batch is paid by its sender, never by the sponsor.
//!
//! `cargo test -p devnet --test queued -- --nocapture` prints energy and modeled CPU time as
//! JSON lines (the devnet's mainnet model, USDT at ×4.4).
#![allow(clippy::unwrap_used)] // a test fails by panicking: unwrapping is how it says so

mod support;

use alloy_primitives::{Bytes, U256};
use alloy_sol_types::{SolCall, SolConstructor};
use ark_bn254::Bn254;
use ark_groth16::ProvingKey;
use contracts::{BatchInserter, QueuedPool};
use support::{
    DENOMINATION, FEE_LIMIT, approve, call, client, cpu_line, deploy_artifact, energy_line, freeze,
    modeled_cpu_us, send, succeed, usdt_balance, view, word,
};
use tron::client::TransactionInfo;
use tron::{Address, NodeClient, PrivateKey};
use zk::Fr;
use zk::batch::{BATCH_LEVELS, BatchCircuit, chain};
use zk::circuit::PublicInputs;
use zk::keys::{Keys, VerifierArgs};
use zk::note::{Note, NoteMeta};
use zk::proof::{EncodedProof, Witness, prove};
use zk::tree::MerkleTree;

/// What each deposit escrows for its insertion: 0.25 USDT.
const INSERTION_FEE: u64 = 250_000;
/// What a withdrawal's recipient gets: the denomination less the relayer's 1 USDT.
const WITHDRAW_AMOUNT: u64 = DENOMINATION - 1_000_000;

/// The batch circuit's development keys (`zk::batch_proof::insecure_dev_keys`, seconds to make the
/// first time in a process).
fn batch_keys() -> ProvingKey<Bn254> {
    zk::batch_proof::insecure_dev_keys().proving.clone()
}

/// A queued 100 USDT pool and what a client keeps of it: the queue, its chain, and the tree
/// of the inserted prefix.
struct Pool {
    devnet: devnet::DevnetHandle,
    client: NodeClient,
    usdt: Address,
    pool: Address,
    inserter: Address,
    keys: ProvingKey<Bn254>,
    notes: Vec<Note>,
    /// `chains[p]`: the queue chain after position `p`.
    chains: Vec<Fr>,
    tree: MerkleTree,
}

impl Pool {
    /// Deploys the batch verifier, the inserter and a pool with callers paying `percent` of
    /// its energy (100: unsponsored), over the genesis hasher, withdraw verifier and USDT.
    async fn deploy(percent: i64, keys: ProvingKey<Bn254>) -> Pool {
        let devnet = support::devnet().await;
        let client = client(&devnet);
        let d = devnet.deployment().clone();
        let args = VerifierArgs::from(&keys.vk).abi_encode();
        let batch_verifier =
            deploy_artifact(&devnet, "Groth16Verifier", &args, 100, 10_000_000).await;
        let inserter = deploy_artifact(&devnet, "BatchInserter", &[], 100, 10_000_000).await;
        let hasher4 = deploy_artifact(&devnet, "PoseidonT5", &[], 100, 10_000_000).await;
        let args = QueuedPool::constructorCall {
            verifier_: d.verifier.into(),
            batchVerifier_: batch_verifier.into(),
            hasher_: d.hasher.into(),
            hasher4_: hasher4.into(),
            token_: d.usdt.into(),
            denomination_: U256::from(DENOMINATION),
            insertionFee_: U256::from(INSERTION_FEE),
            inserter_: inserter.into(),
        }
        .abi_encode();
        let pool = deploy_artifact(&devnet, "QueuedPool", &args, percent, 600_000).await;
        Pool {
            devnet,
            client,
            usdt: d.usdt,
            pool,
            inserter,
            keys,
            notes: Vec::new(),
            chains: Vec::new(),
            tree: MerkleTree::new(),
        }
    }

    fn account(&self, i: usize) -> PrivateKey {
        self.devnet.accounts()[i].clone()
    }

    /// `owner` approves `count` deposits with their insertion fees.
    async fn approve(&self, owner: &PrivateKey, count: u64) {
        let each = DENOMINATION + INSERTION_FEE;
        approve(&self.client, owner, self.usdt, self.pool, each * count + 1).await;
    }

    /// `owner` deposits a new note; answers the receipt and the modeled CPU time.
    async fn deposit(&mut self, owner: &PrivateKey) -> (TransactionInfo, i64) {
        let note = Note::generate(NoteMeta::usdt(100, "devnet").unwrap());
        let data = QueuedPool::depositCall {
            commitment: word(&note.commitment()),
        }
        .abi_encode();
        let (txid, info) = succeed(&self.client, owner, self.pool, data, "deposit").await;
        let before = self.chains.last().copied().unwrap_or(Fr::from(0u64));
        self.chains.push(chain(before, &[note.commitment()]));
        self.notes.push(note);
        let cpu = modeled_cpu_us(&self.devnet, &txid).await;
        (info, cpu)
    }

    /// The circuit of the next batch of `count`, for `submitter`.
    fn circuit(&self, count: usize, submitter: &PrivateKey) -> BatchCircuit {
        let start = self.tree.len();
        let chain_start = start
            .checked_sub(1)
            .map_or(Fr::from(0u64), |p| self.chains[p]);
        let queued: Vec<Fr> = self.notes[start..start + count]
            .iter()
            .map(Note::commitment)
            .collect();
        BatchCircuit::new(
            BATCH_LEVELS,
            &self.tree,
            chain_start,
            &queued,
            zk::field::from_address(&submitter.address().evm_bytes()),
        )
        .unwrap()
    }

    /// The proof of the next batch of `count`, for `submitter`, and its `insertBatch` call
    /// through the inserter.
    fn batch(&self, count: usize, submitter: &PrivateKey) -> (BatchCircuit, Vec<u8>) {
        let circuit = self.circuit(count, submitter);
        let proof = zk::batch_proof::prove(&self.keys, &circuit, &mut rand_core::OsRng).unwrap();
        let data = self.insert_call(&circuit, &EncodedProof::from_proof(&proof));
        (circuit, data)
    }

    /// The next batch of `count` deposits sent by `from` as a batch of `claimed` (with any
    /// proof): refused with `reason` before any verification.
    async fn refused_cheaply(&self, from: &PrivateKey, count: usize, claimed: u32, reason: &str) {
        let mut circuit = self.circuit(count, from);
        circuit.public.count = claimed;
        let data = self.insert_call(&circuit, &EncodedProof([U256::from(1); 8]));
        let energy = self.refused(from, self.inserter, data, reason).await;
        assert!(energy < 10_000, "{reason}: {energy}");
    }

    fn insert_call(&self, circuit: &BatchCircuit, proof: &EncodedProof) -> Vec<u8> {
        BatchInserter::insertBatchCall {
            pool: self.pool.into(),
            proof: Bytes::from(proof.to_bytes().to_vec()),
            newRoot: word(&circuit.public.new_root),
            start: circuit.public.start,
            count: circuit.public.count,
        }
        .abi_encode()
    }

    /// Inserts the next `count` deposits, sent by `submitter`; answers the receipt and the
    /// modeled CPU time.
    async fn insert(&mut self, count: usize, submitter: &PrivateKey) -> (TransactionInfo, i64) {
        let (circuit, data) = self.batch(count, submitter);
        let (txid, info) = succeed(&self.client, submitter, self.inserter, data, "batch").await;
        let start = self.tree.len();
        let queued: Vec<Fr> = self.notes[start..start + count]
            .iter()
            .map(Note::commitment)
            .collect();
        self.tree.extend(&queued).unwrap();
        assert_eq!(circuit.public.new_root, self.tree.root());
        let root = view(&self.client, self.pool, QueuedPool::getLastRootCall {}).await;
        assert_eq!(root, word(&self.tree.root()));
        let cpu = modeled_cpu_us(&self.devnet, &txid).await;
        (info, cpu)
    }

    /// A call that must fail with `reason`; answers its energy.
    async fn refused(&self, from: &PrivateKey, to: Address, data: Vec<u8>, reason: &str) -> i64 {
        let (_, info) = send(
            &self.client,
            from,
            call(from.address(), to, data, 0),
            FEE_LIMIT,
        )
        .await;
        assert!(!info.succeeded(), "{reason}: it succeeded");
        let failure = info.failure_reason().unwrap_or_default();
        assert!(failure.contains(reason), "{reason}: {failure}");
        info.receipt.energy_usage_total
    }

    /// Withdraws note `index` to a fresh recipient through `relayer` (fee 1 USDT).
    async fn withdraw(&self, index: usize, relayer: &PrivateKey) -> (TransactionInfo, i64) {
        let (data, recipient) = self.withdraw_call(index, relayer);
        let (txid, info) = succeed(&self.client, relayer, self.pool, data, "withdraw").await;
        assert_eq!(
            usdt_balance(&self.client, self.usdt, recipient).await,
            U256::from(WITHDRAW_AMOUNT)
        );
        let cpu = modeled_cpu_us(&self.devnet, &txid).await;
        (info, cpu)
    }

    /// The `withdraw` call of note `index` to a fresh recipient through `relayer` (fee 1
    /// USDT), proved against the client's tree, and the recipient.
    fn withdraw_call(&self, index: usize, relayer: &PrivateKey) -> (Vec<u8>, Address) {
        let note = &self.notes[index];
        let recipient = PrivateKey::generate().address();
        let fee = DENOMINATION - WITHDRAW_AMOUNT;
        let public = PublicInputs {
            root: self.tree.root(),
            nullifier_hash: note.nullifier_hash(),
            recipient: zk::field::from_address(&recipient.evm_bytes()),
            relayer: zk::field::from_address(&relayer.address().evm_bytes()),
            fee: Fr::from(fee),
            refund: Fr::from(0u64),
        };
        let path = self.tree.path(index as u32).unwrap();
        let witness = Witness::new(note, &path).unwrap();
        let proof = prove(
            Keys::insecure_dev(),
            &public,
            &witness,
            &mut rand_core::OsRng,
        )
        .unwrap();
        let data = QueuedPool::withdrawCall {
            proof: Bytes::from(EncodedProof::from_proof(&proof).to_bytes().to_vec()),
            root: word(&public.root),
            nullifierHash: word(&public.nullifier_hash),
            recipient: recipient.into(),
            relayer: relayer.address().into(),
            fee: U256::from(fee),
            refund: U256::ZERO,
        }
        .abi_encode();
        (data, recipient)
    }
}

/// Prints a batch's energy and modeled CPU time, and holds the time to 64 ms: inside TRON's
/// 80 ms on a producer 25% slower than the model's calibration (`--cpu-speed 0.8`), as a
/// withdrawal is.
fn batch_figures(count: usize, info: &TransactionInfo, micros: i64) {
    energy_line(
        &format!("batch_of_{count}"),
        info.receipt.energy_usage_total,
    );
    bytes_line(&format!("batch_of_{count}"), info);
    cpu_line(&format!("batch_of_{count}"), micros);
    assert!(
        micros <= 64_000,
        "a batch of {count}: {micros} µs of modeled CPU"
    );
}

/// Prints a transaction's bandwidth: its bytes, free, staked or burned (1,000 sun a byte).
fn bytes_line(op: &str, info: &TransactionInfo) {
    let bytes = info.receipt.net_usage + info.receipt.net_fee / 1_000;
    println!(r#"{{"bench":"bandwidth","op":"{op}","bytes":{bytes}}}"#);
}

fn median(mut values: Vec<i64>) -> i64 {
    values.sort_unstable();
    values[values.len() / 2]
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn deposits_queue_and_batches_of_every_size_insert_them() {
    let mut p = Pool::deploy(100, tokio::task::spawn_blocking(batch_keys).await.unwrap()).await;
    let depositors = [p.account(0), p.account(1), p.account(2)];
    let (batcher, relayer) = (p.account(3), p.account(4));
    for d in &depositors {
        p.approve(d, 40).await;
    }

    // 40 deposits, taking turns.
    let mut deposits = Vec::new();
    let mut cpu = Vec::new();
    for i in 0..40 {
        let (info, micros) = p.deposit(&depositors[i % 3]).await;
        if i == 39 {
            bytes_line("queued_deposit", &info);
        }
        deposits.push(info.receipt.energy_usage_total);
        cpu.push(micros);
    }
    energy_line("queued_deposit_first", deposits[0]);
    energy_line(
        "queued_deposit_median_of_39_later",
        median(deposits[1..].to_vec()),
    );
    energy_line(
        "queued_deposit_worst_of_40",
        *deposits.iter().max().unwrap(),
    );
    cpu_line("queued_deposit_worst_of_40", *cpu.iter().max().unwrap());
    assert!(
        median(deposits[1..].to_vec()) <= 130_000,
        "a deposit into a pool that holds USDT: {deposits:?}"
    );
    assert!(
        deposits[0] <= 200_000,
        "a pool's first deposit: {}",
        deposits[0]
    );

    // A batch of one, one that fills the rest of the block, a partial one, more deposits,
    // the partial block's rest, then a full block.
    let usdt_before = usdt_balance(&p.client, p.usdt, batcher.address()).await;
    let mut inserted = 0u64;
    for count in [1usize, 31, 5] {
        let (info, micros) = p.insert(count, &batcher).await;
        inserted += count as u64;
        batch_figures(count, &info, micros);
    }
    for i in 0..59 {
        p.deposit(&depositors[i % 3]).await;
    }
    for count in [27usize, 32] {
        let (info, micros) = p.insert(count, &batcher).await;
        inserted += count as u64;
        batch_figures(count, &info, micros);
        if count == 32 {
            assert!(
                info.receipt.energy_usage_total <= 15_000 * 32,
                "a full batch costs at most 15,000 a deposit: {}",
                info.receipt.energy_usage_total
            );
        }
    }
    assert_eq!(p.tree.len(), 96);
    let queued: u32 = view(&p.client, p.pool, QueuedPool::queuedCall {}).await;
    assert_eq!(queued, 99);

    // The insertion fees are the batcher's, collected like a relayer's.
    let fees: U256 = view(
        &p.client,
        p.pool,
        QueuedPool::collectableFeesCall {
            relayer: batcher.address().into(),
        },
    )
    .await;
    assert_eq!(fees, U256::from(INSERTION_FEE * inserted - 1));
    let data = QueuedPool::collectFeesCall {}.abi_encode();
    succeed(&p.client, &batcher, p.pool, data, "collect").await;
    assert_eq!(
        usdt_balance(&p.client, p.usdt, batcher.address()).await,
        usdt_before + fees
    );

    // Every inserted note withdraws; the three still queued cannot yet: no root the pool
    // knows has them.
    let mut withdrawals = Vec::new();
    let mut cpu = Vec::new();
    for index in 0..96 {
        let (info, micros) = p.withdraw(index, &relayer).await;
        withdrawals.push(info.receipt.energy_usage_total);
        cpu.push(micros);
    }
    energy_line("queued_withdraw_relayed_median", median(withdrawals));
    cpu_line(
        "queued_withdraw_relayed_worst_of_96",
        *cpu.iter().max().unwrap(),
    );
    let queued: Vec<Fr> = p.notes[96..].iter().map(Note::commitment).collect();
    p.tree.extend(&queued).unwrap();
    let (early, _) = p.withdraw_call(97, &relayer);
    p.refused(&relayer, p.pool, early, "pool: unknown root")
        .await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_false_or_stale_batch_is_refused_and_a_cheap_one_cheaply() {
    let mut p = Pool::deploy(100, tokio::task::spawn_blocking(batch_keys).await.unwrap()).await;
    let (alice, batcher, thief) = (p.account(0), p.account(1), p.account(2));
    p.approve(&alice, 80).await;
    for _ in 0..36 {
        p.deposit(&alice).await;
    }
    let pool_usdt = usdt_balance(&p.client, p.usdt, p.pool).await;

    // Straight to the pool, not through the inserter: refused whoever sends it.
    let (circuit, _) = p.batch(4, &batcher);
    let direct = QueuedPool::insertBatchCall {
        proof: Bytes::from(vec![0u8; 256]),
        newRoot: word(&circuit.public.new_root),
        start: 0,
        count: 4,
        submitter: batcher.address().into(),
    }
    .abi_encode();
    let cheap = p
        .refused(
            &batcher,
            p.pool,
            direct,
            "pool: batches come through the inserter",
        )
        .await;
    energy_line("batch_refused_not_through_the_inserter", cheap);

    // Copied from the pending pool by someone else: the proof binds its sender.
    let (_, data) = p.batch(4, &batcher);
    let copied = p
        .refused(
            &thief,
            p.inserter,
            data.clone(),
            "pool: invalid batch proof",
        )
        .await;
    energy_line("batch_refused_copied_by_another_sender", copied);

    // A proof for another root than it claims.
    let (mut circuit, _) = p.batch(4, &batcher);
    let proof = zk::batch_proof::prove(&p.keys, &circuit, &mut rand_core::OsRng).unwrap();
    circuit.public.new_root = Fr::from(12345u64);
    let lying = p.insert_call(&circuit, &EncodedProof::from_proof(&proof));
    p.refused(&batcher, p.inserter, lying, "pool: invalid batch proof")
        .await;

    // The cheap conditions, each before any verification.
    let mut early = circuit.clone();
    early.public.start = 1;
    let data = p.insert_call(&early, &EncodedProof::from_proof(&proof));
    let energy = p
        .refused(
            &batcher,
            p.inserter,
            data,
            "pool: the batch does not start at the next leaf",
        )
        .await;
    assert!(energy < 10_000, "a later start: {energy}");
    for claimed in [0, 33, 37] {
        p.refused_cheaply(&batcher, 4, claimed, "pool: a batch holds 1 to 32 deposits")
            .await;
    }

    // Past the queue, and across a block.
    p.insert(32, &batcher).await;
    p.refused_cheaply(&batcher, 4, 5, "pool: the batch reaches past the queue")
        .await;
    for _ in 0..30 {
        p.deposit(&alice).await;
    }
    p.insert(2, &batcher).await;
    p.refused_cheaply(&batcher, 6, 31, "pool: a batch may not cross a block")
        .await;

    // A batch already sent, sent again: stale, for a few thousand energy.
    let (_, data) = p.batch(6, &batcher);
    succeed(&p.client, &batcher, p.inserter, data.clone(), "batch").await;
    let stale = p
        .refused(
            &batcher,
            p.inserter,
            data,
            "pool: the batch does not start at the next leaf",
        )
        .await;
    energy_line("batch_refused_stale", stale);
    assert!(stale < 10_000, "a stale batch: {stale}");
    // Nothing refused moved any USDT.
    assert_eq!(
        usdt_balance(&p.client, p.usdt, p.pool).await,
        pool_usdt + U256::from((DENOMINATION + INSERTION_FEE) * 30)
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_queue_may_outrun_its_ring_and_every_deposit_is_still_inserted() {
    let mut p = Pool::deploy(100, tokio::task::spawn_blocking(batch_keys).await.unwrap()).await;
    let (alice, batcher, relayer) = (p.account(0), p.account(1), p.account(2));
    p.approve(&alice, 200).await;
    // 200 deposits and no batch: the ring of 128 has dropped positions 0..71, and kept the
    // ends of blocks 0 and 1 (positions 31 and 63) as checkpoints, each written by the deposit
    // that pushed it out of the ring (159 and 191).
    let mut energy = Vec::new();
    for _ in 0..200 {
        energy.push(p.deposit(&alice).await.0.receipt.energy_usage_total);
    }
    energy_line("queued_deposit_that_keeps_a_checkpoint", energy[159]);
    energy_line("queued_deposit_beside_it", energy[158]);
    assert!(
        energy[159] > energy[158],
        "{} vs {}",
        energy[159],
        energy[158]
    );

    let kept = |position: u32| QueuedPool::queueHashCall { position }.abi_encode();
    let at_31: alloy_primitives::B256 = view(
        &p.client,
        p.pool,
        QueuedPool::queueHashCall { position: 31 },
    )
    .await;
    assert_eq!(at_31, word(&p.chains[31]));
    let dropped = p
        .client
        .trigger_constant_contract(&tron::Trigger {
            owner: p.pool,
            contract: p.pool,
            data: kept(30),
            ..tron::Trigger::default()
        })
        .await
        .unwrap();
    assert!(dropped.reverted);

    // A batch that would end where the ring no longer reaches, and no block ends: refused
    // before any verification.
    let (_, partial) = p.batch(4, &batcher);
    let energy = p
        .refused(
            &batcher,
            p.inserter,
            partial,
            "pool: only whole blocks remain to insert this far back",
        )
        .await;
    assert!(energy < 10_000, "{energy}");
    // Whole blocks through the checkpoints, then through the ring, then the rest.
    for count in [32, 32, 32, 32, 32, 32, 8] {
        p.insert(count, &batcher).await;
    }
    assert_eq!(p.tree.len(), 200);
    for index in [0, 31, 63, 199] {
        p.withdraw(index, &relayer).await;
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn in_a_sponsored_pool_the_sponsor_pays_deposits_and_never_batches() {
    // Callers pay none of the pool's energy: its deployer's stake does, up to 600,000 a call.
    let mut p = Pool::deploy(0, tokio::task::spawn_blocking(batch_keys).await.unwrap()).await;
    let (sponsor, alice, batcher) = (p.account(0), p.account(1), p.account(2));
    freeze(&p.devnet, &sponsor, 100_000).await;
    p.approve(&alice, 3).await;
    for _ in 0..3 {
        let (info, _) = p.deposit(&alice).await;
        assert_eq!(
            info.receipt.origin_energy_usage, info.receipt.energy_usage_total,
            "the sponsor pays a deposit: {:?}",
            info.receipt
        );
        assert_eq!(info.receipt.energy_fee, 0);
    }
    // The batch goes through the inserter, which nobody sponsors: its sender pays it all,
    // and the sponsor's stake pays none of the pool's part either.
    let (info, _) = p.insert(3, &batcher).await;
    assert_eq!(info.receipt.origin_energy_usage, 0, "{:?}", info.receipt);
    assert_eq!(
        info.receipt.energy_fee,
        info.receipt.energy_usage_total * 100,
        "the batcher burns TRX for every unit: {:?}",
        info.receipt
    );
    energy_line(
        "batch_of_3_in_a_sponsored_pool",
        info.receipt.energy_usage_total,
    );
}

/// The benchmarks' fill of a queued pool (`Ledger::fill_queued_pool`) leaves it as those
/// deposits and their batches would: the views agree, the ring holds the last 100 batch
/// roots and no older one, a real deposit extends the filled queue chain, the next batch
/// proves against the filled root and chain and is accepted, and a filled note withdraws.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_filled_queued_pool_takes_its_next_deposit_and_batch_as_if_every_leaf_had_been_deposited()
{
    let mut p = Pool::deploy(100, tokio::task::spawn_blocking(batch_keys).await.unwrap()).await;
    // 3,500 notes: 110 batches (the last of 12), so the ring has turned over and the next
    // batch starts inside a block.
    p.notes = (0..3_500)
        .map(|_| Note::generate(NoteMeta::usdt(100, "devnet").unwrap()))
        .collect();
    let leaves: Vec<Fr> = p.notes.iter().map(Note::commitment).collect();
    let pool = p.pool;
    p.tree = p
        .devnet
        .with_chain(|chain| {
            let tree = chain.fill_queued_pool(pool, &leaves);
            chain.mine();
            tree
        })
        .unwrap();
    let mut chain_after = Fr::from(0u64);
    p.chains = leaves
        .iter()
        .map(|leaf| {
            chain_after = chain(chain_after, &[*leaf]);
            chain_after
        })
        .collect();
    let n = leaves.len() as u32;
    assert_eq!(view(&p.client, pool, QueuedPool::nextIndexCall {}).await, n);
    assert_eq!(view(&p.client, pool, QueuedPool::queuedCall {}).await, n);
    let last = view(&p.client, pool, QueuedPool::getLastRootCall {}).await;
    assert_eq!(last, word(&p.tree.root()));
    let known_after = |count: usize| {
        let root = word(&MerkleTree::from_leaves(&leaves[..count]).unwrap().root());
        view(&p.client, pool, QueuedPool::isKnownRootCall { root })
    };
    assert!(
        known_after(11 * 32).await,
        "batch 11 is the oldest of the last 100"
    );
    assert!(!known_after(10 * 32).await, "batch 10 is out of the ring");
    let queue = view(
        &p.client,
        pool,
        QueuedPool::queueHashCall { position: n - 1 },
    )
    .await;
    assert_eq!(queue, word(&chain(Fr::from(0u64), &leaves)));
    // A second fill is refused: the pool has deposits. So is a fill of another contract.
    let again = p
        .devnet
        .with_chain(|chain| chain.fill_queued_pool(pool, &leaves))
        .unwrap_err();
    assert!(again.contains("already has deposits"), "{again}");
    let usdt = p.usdt;
    let not_a_pool = p
        .devnet
        .with_chain(|chain| chain.fill_queued_pool(usdt, &leaves))
        .unwrap_err();
    assert!(not_a_pool.contains("is not a queued pool"), "{not_a_pool}");

    // Two real deposits on top, one batch for both, then a filled note and a real one withdraw
    // (the pool holds the real deposits' USDT only).
    let (depositor, batcher, relayer) = (p.account(0), p.account(3), p.account(4));
    p.approve(&depositor, 2).await;
    p.deposit(&depositor).await;
    p.deposit(&depositor).await;
    let queue = view(
        &p.client,
        pool,
        QueuedPool::queueHashCall { position: n + 1 },
    )
    .await;
    assert_eq!(queue, word(&p.chains[n as usize + 1]));
    p.insert(2, &batcher).await;
    p.withdraw(1_234, &relayer).await;
    p.withdraw(n as usize + 1, &relayer).await;
}

/// The benchmarks' insertion of real deposits without batch proofs (`Ledger::insert_queued`)
/// leaves the pool as real batches would: it refuses leaves that are not what was deposited,
/// the views agree with the client's tree, the ring holds each batch's root, the next real
/// deposit and batch are accepted on top, and an inserted note withdraws.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn real_deposits_inserted_without_proofs_for_benchmarks_are_as_if_batches_had_inserted_them()
{
    let mut p = Pool::deploy(100, tokio::task::spawn_blocking(batch_keys).await.unwrap()).await;
    let (depositor, batcher, relayer) = (p.account(0), p.account(3), p.account(4));
    // 70 deposits: two whole blocks and six in the third.
    p.approve(&depositor, 71).await;
    for _ in 0..70 {
        p.deposit(&depositor).await;
    }
    let leaves: Vec<Fr> = p.notes.iter().map(Note::commitment).collect();
    let pool = p.pool;
    let insert = |leaves: Vec<Fr>| {
        p.devnet.with_chain(move |chain| {
            let tree = chain.insert_queued(pool, &leaves);
            chain.mine();
            tree
        })
    };
    // Not what was deposited: one leaf changed, or one missing.
    let mut wrong = leaves.clone();
    wrong[40] = Fr::from(7u64);
    let refused = insert(wrong).unwrap_err();
    assert!(
        refused.contains("not the deposits the pool queued"),
        "{refused}"
    );
    let refused = insert(leaves[..69].to_vec()).unwrap_err();
    assert!(refused.contains("70 deposits waiting, not 69"), "{refused}");
    assert_eq!(view(&p.client, pool, QueuedPool::nextIndexCall {}).await, 0);

    p.tree = insert(leaves.clone()).unwrap();
    assert_eq!(
        p.tree.root(),
        MerkleTree::from_leaves(&leaves).unwrap().root()
    );
    assert_eq!(
        view(&p.client, pool, QueuedPool::nextIndexCall {}).await,
        70
    );
    assert_eq!(view(&p.client, pool, QueuedPool::queuedCall {}).await, 70);
    let last = view(&p.client, pool, QueuedPool::getLastRootCall {}).await;
    assert_eq!(last, word(&p.tree.root()));
    for count in [32, 64] {
        let root = word(&MerkleTree::from_leaves(&leaves[..count]).unwrap().root());
        assert!(
            view(&p.client, pool, QueuedPool::isKnownRootCall { root }).await,
            "the root after {count}"
        );
    }
    let refused = insert(leaves.clone()).unwrap_err();
    assert!(
        refused.contains("already has deposits in its tree"),
        "{refused}"
    );

    // A real deposit on top and a real batch for it, then an inserted note and the new one
    // withdraw.
    p.deposit(&depositor).await;
    p.insert(1, &batcher).await;
    p.withdraw(40, &relayer).await;
    p.withdraw(70, &relayer).await;
}
