//! The genesis pools on the devnet, over HTTP: approve and deposit, the tree rebuilt from
//! TronGrid events matches the contract's root, a real proof withdraws through a relayer, the
//! relayer collects its fees, and the energy of each step under the devnet's TRON energy
//! schedule; on a devnet with the Cancun opcodes and on one without them.
//!
//! `cargo test -p devnet --test pool -- --nocapture` prints the energy as JSON lines.
#![allow(clippy::unwrap_used)] // a test fails by panicking: unwrapping is how it says so

mod support;

use alloy_primitives::{B256, Bytes, U256};
use alloy_sol_types::SolCall;
use contracts::TronPool;
use devnet::chain::evm::TvmSwitches;
use support::{
    DENOMINATION, FEE_LIMIT, approve, call, client, cpu_line, energy_line, modeled_cpu_us, send,
    succeed, usdt_balance, view, word,
};
use tron::client::EventQuery;
use tron::{Address, NodeClient, PrivateKey};
use zk::Fr;
use zk::circuit::PublicInputs;
use zk::keys::Keys;
use zk::note::{Note, NoteMeta};
use zk::proof::{EncodedProof, Witness, prove};
use zk::tree::MerkleTree;

/// `owner` deposits `note` into `pool`; the deposit must succeed.
async fn deposit(
    client: &NodeClient,
    owner: &PrivateKey,
    pool: Address,
    note: &Note,
) -> (tron::TxId, tron::client::TransactionInfo) {
    let data = TronPool::depositCall {
        commitment: word(&note.commitment()),
    }
    .abi_encode();
    succeed(client, owner, pool, data, "deposit").await
}

/// The `withdraw` calldata for leaf `index` of `tree` holding `note`, proved with the
/// development keys.
fn withdraw_data(
    tree: &MerkleTree,
    note: &Note,
    index: u32,
    recipient: Address,
    relayer: Option<Address>,
    fee: u64,
    refund: u64,
) -> Vec<u8> {
    let address =
        |a: Option<Address>| a.map_or(Fr::from(0u64), |a| zk::field::from_address(&a.evm_bytes()));
    let public = PublicInputs {
        root: tree.root(),
        nullifier_hash: note.nullifier_hash(),
        recipient: address(Some(recipient)),
        relayer: address(relayer),
        fee: Fr::from(fee),
        refund: Fr::from(refund),
    };
    let proof = prove(
        Keys::insecure_dev(),
        &public,
        &Witness::new(note, &tree.path(index).expect("leaf")).expect("witness"),
        &mut rand_core::OsRng,
    )
    .expect("proof");
    TronPool::withdrawCall {
        proof: Bytes::from(EncodedProof::from_proof(&proof).to_bytes().to_vec()),
        root: word(&public.root),
        nullifierHash: word(&public.nullifier_hash),
        recipient: recipient.into(),
        relayer: relayer.map(Into::into).unwrap_or_default(),
        fee: U256::from(fee),
        refund: U256::from(refund),
    }
    .abi_encode()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn deposit_and_withdraw_through_a_relayer_over_http() {
    deposit_withdraw_collect(TvmSwitches::default(), true).await;
}

/// The pools are built for Shanghai: a network that has not voted TVM Cancun in runs them.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_same_without_the_cancun_opcodes() {
    let tvm = TvmSwitches {
        shanghai: true,
        cancun: false,
    };
    deposit_withdraw_collect(tvm, false).await;
}

async fn deposit_withdraw_collect(tvm: TvmSwitches, print: bool) {
    let devnet = devnet::spawn(devnet::DevnetConfig {
        tvm,
        ..devnet::DevnetConfig::ephemeral()
    })
    .await
    .unwrap();
    let energy_line = |op: &str, energy: i64| {
        if print {
            energy_line(op, energy);
        }
    };
    let cpu_line = |op: &str, micros: i64| {
        if print {
            cpu_line(op, micros);
        } else {
            assert!(micros < 80_000, "{op}: {micros} µs");
        }
    };
    let client = client(&devnet);
    let d = devnet.deployment().clone();
    let pool = support::deploy_tron_pool(&devnet).await;
    let alice = devnet.accounts()[0].clone();
    let relayer = devnet.accounts()[1].clone();

    approve(&client, &alice, d.usdt, pool, DENOMINATION * 40).await;

    let mut notes = Vec::new();
    let mut energies = Vec::new();
    let mut cpu = Vec::new();
    for _ in 0..33 {
        let note = Note::generate(NoteMeta::usdt(100, "devnet").expect("meta"));
        let (txid, info) = deposit(&client, &alice, pool, &note).await;
        energies.push(info.receipt.energy_usage_total);
        cpu.push(modeled_cpu_us(&devnet, &txid).await);
        notes.push(note);
    }
    energy_line("deposit_first", energies[0]);
    energy_line("deposit_worst_of_33", *energies.iter().max().unwrap());
    // A deposit into a pool that already holds USDT, as most are.
    let mut later = energies[1..].to_vec();
    later.sort_unstable();
    energy_line("deposit_median_of_32_later", later[later.len() / 2]);
    cpu_line("deposit_worst_of_33", *cpu.iter().max().unwrap());

    // The tree, rebuilt from the Deposit events a client would read, matches the contract.
    let query = EventQuery {
        event_name: Some("Deposit".into()),
        ascending: true,
        ..EventQuery::default()
    };
    let events = client
        .all_contract_events(&pool, &query, 10)
        .await
        .expect("events");
    assert_eq!(events.len(), 33);
    let mut tree = MerkleTree::new();
    for (i, event) in events.iter().enumerate() {
        assert_eq!(event.result["leafIndex"], i.to_string());
        let commitment = event.result["commitment"].as_str().expect("hex");
        let commitment = zk::field::from_hex(commitment, "commitment").expect("a field element");
        assert_eq!(commitment, notes[i].commitment());
        tree.insert(commitment).expect("room");
    }
    let root: B256 = view(&client, pool, TronPool::getLastRootCall {}).await;
    assert_eq!(root, word(&tree.root()));

    // Withdraw note 7 through the relayer: fee 1 USDT, refund 2 TRX to a fresh recipient.
    let recipient = PrivateKey::generate().address();
    let (fee, refund) = (1_000_000u64, 2_000_000u64);
    let withdraw = withdraw_data(
        &tree,
        &notes[7],
        7,
        recipient,
        Some(relayer.address()),
        fee,
        refund,
    );
    let relayer_usdt = usdt_balance(&client, d.usdt, relayer.address()).await;
    let (txid, info) = send(
        &client,
        &relayer,
        call(relayer.address(), pool, withdraw.clone(), refund as i64),
        FEE_LIMIT,
    )
    .await;
    assert!(info.succeeded(), "withdraw: {:?}", info.failure_reason());
    energy_line(
        "withdraw_relayed_fee_refund",
        info.receipt.energy_usage_total,
    );
    cpu_line(
        "withdraw_relayed_fee_refund",
        modeled_cpu_us(&devnet, &txid).await,
    );
    assert_eq!(
        usdt_balance(&client, d.usdt, recipient).await,
        U256::from(DENOMINATION - fee)
    );
    // The fee stays in the pool, credited to the relayer.
    assert_eq!(
        usdt_balance(&client, d.usdt, relayer.address()).await,
        relayer_usdt
    );
    let credit: U256 = view(
        &client,
        pool,
        TronPool::relayerFeesCall::new((relayer.address().into(),)),
    )
    .await;
    assert_eq!(credit, U256::from(fee));
    let account = client
        .get_account(&recipient)
        .await
        .unwrap()
        .expect("activated by the refund");
    assert_eq!(account.balance, refund as i64);

    // Spent: the same withdrawal reverts with the pool's reason.
    let (_, info) = send(
        &client,
        &relayer,
        call(relayer.address(), pool, withdraw, refund as i64),
        FEE_LIMIT,
    )
    .await;
    assert!(!info.succeeded());
    assert_eq!(
        info.failure_reason().as_deref(),
        Some("pool: note already spent")
    );

    // A relay without a refund to a fresh recipient: the fee's credit writes a slot that
    // already holds the first fee.
    let recipient = PrivateKey::generate().address();
    let withdraw = withdraw_data(
        &tree,
        &notes[8],
        8,
        recipient,
        Some(relayer.address()),
        fee,
        0,
    );
    let (txid, info) = send(
        &client,
        &relayer,
        call(relayer.address(), pool, withdraw, 0),
        FEE_LIMIT,
    )
    .await;
    assert!(info.succeeded(), "{:?}", info.failure_reason());
    energy_line("withdraw_relayed_fee", info.receipt.energy_usage_total);
    cpu_line("withdraw_relayed_fee", modeled_cpu_us(&devnet, &txid).await);

    // The relayer collects both fees in one transfer; one base unit stays behind.
    let collect = TronPool::collectFeesCall {}.abi_encode();
    let (_, info) = send(
        &client,
        &relayer,
        call(relayer.address(), pool, collect, 0),
        FEE_LIMIT,
    )
    .await;
    assert!(info.succeeded(), "collect: {:?}", info.failure_reason());
    energy_line("collect_fees", info.receipt.energy_usage_total);
    assert_eq!(
        usdt_balance(&client, d.usdt, relayer.address()).await,
        relayer_usdt + U256::from(2 * fee - 1)
    );

    // A direct withdrawal of another note, by the recipient, without relayer or fee.
    let direct_to = devnet.accounts()[4].clone();
    let withdraw = withdraw_data(&tree, &notes[20], 20, direct_to.address(), None, 0, 0);
    let (txid, info) = send(
        &client,
        &direct_to,
        call(direct_to.address(), pool, withdraw, 0),
        FEE_LIMIT,
    )
    .await;
    assert!(
        info.succeeded(),
        "direct withdraw: {:?}",
        info.failure_reason()
    );
    energy_line("withdraw_direct", info.receipt.energy_usage_total);
    cpu_line("withdraw_direct", modeled_cpu_us(&devnet, &txid).await);
}

/// The benchmarks' fill (`Ledger::fill_pool_tree`) leaves the pool as real deposits would:
/// its views agree with the tree, and the next real deposit, which reads `filledSubtrees` on
/// every level below its index's highest bit, makes the root the tree with it appended has.
#[tokio::test(flavor = "multi_thread")]
async fn a_filled_pool_takes_its_next_deposit_as_if_every_leaf_had_been_deposited() {
    let devnet = support::devnet().await;
    let client = client(&devnet);
    let d = devnet.deployment().clone();
    let pool = support::deploy_tron_pool(&devnet).await;
    // 1,023 leaves: the 1,024th leaf's index is ten ones, so its insert reads levels 0-9.
    let leaves: Vec<Fr> = (0..1_023u64)
        .map(|i| zk::poseidon::hash1(Fr::from(i)))
        .collect();
    let mut tree = devnet
        .with_chain(|chain| {
            let tree = chain.fill_pool_tree(pool, &leaves)?;
            chain.mine();
            Ok::<_, String>(tree)
        })
        .unwrap();
    let next: u32 = view(&client, pool, TronPool::nextIndexCall {}).await;
    assert_eq!(next, 1_023);
    let last: B256 = view(&client, pool, TronPool::getLastRootCall {}).await;
    assert_eq!(last, word(&tree.root()));
    // An older root of the last 100 is known; the one before them is not.
    let known_after = |count: usize| {
        let root = word(&MerkleTree::from_leaves(&leaves[..count]).unwrap().root());
        view(&client, pool, TronPool::isKnownRootCall { root })
    };
    assert!(known_after(1_000).await);
    assert!(
        !known_after(923).await,
        "the 101st root back is out of the ring"
    );
    // A second fill is refused: the pool has deposits. Storage is a contract's only.
    assert!(
        devnet
            .with_chain(|chain| chain.fill_pool_tree(pool, &leaves))
            .is_err()
    );
    let alice = devnet.accounts()[0].clone();
    let not_a_contract =
        devnet.with_chain(|chain| chain.set_storage(alice.address(), U256::ZERO, U256::from(1)));
    assert!(not_a_contract.unwrap_err().contains("not a contract"));

    approve(&client, &alice, d.usdt, pool, DENOMINATION).await;
    let note = Note::generate(NoteMeta::usdt(100, "devnet").expect("meta"));
    deposit(&client, &alice, pool, &note).await;
    tree.insert(note.commitment()).unwrap();
    let last: B256 = view(&client, pool, TronPool::getLastRootCall {}).await;
    assert_eq!(last, word(&tree.root()), "the deposit's root is the tree's");
}
