//! The devnet end to end over HTTP: USDT transfers and pool deposits, each built, signed,
//! broadcast over loopback HTTP, executed and sealed into a block. One iteration is one
//! transaction, so `1e9 / median_ns` is transactions per second. Eight clients send at once.
//! Target on the 2-core reference machine: ≥ 1,000 USDT transfers/s. See BENCHMARKS.md.
#![allow(clippy::unwrap_used)] // a test fails by panicking: unwrapping is how it says so

use std::sync::Arc;
use std::time::{Duration, Instant};

use alloy_primitives::U256;
use alloy_sol_types::SolCall;
use criterion::{Criterion, criterion_group, criterion_main};
use tron::abi::Trc20;
use tron::client::{NodeClient, NodeConfig};
use tron::{Action, Address, PrivateKey, TransactionBuilder, Trigger};

const CLIENTS: usize = 8;

struct Bench {
    client: NodeClient,
    senders: Vec<PrivateKey>,
    usdt: Address,
    pool: Address,
    _devnet: devnet::DevnetHandle,
}

fn call(owner: Address, contract: Address, data: Vec<u8>) -> Action {
    Action::Trigger(Trigger {
        owner,
        contract,
        data,
        ..Trigger::default()
    })
}

impl Bench {
    async fn start() -> Bench {
        let config = devnet::DevnetConfig {
            accounts: CLIENTS,
            ..devnet::DevnetConfig::ephemeral()
        };
        let devnet = devnet::spawn(config).await.expect("devnet");
        let client =
            NodeClient::new(NodeConfig::new(devnet.url().parse().expect("url"))).expect("client");
        let usdt = devnet.deployment().usdt;
        let pool = devnet.deployment().pool(100).expect("pool").address;
        let senders = devnet.accounts().to_vec();
        let bench = Bench {
            client,
            senders,
            usdt,
            pool,
            _devnet: devnet,
        };
        for key in &bench.senders {
            let approve = Trc20::approveCall {
                spender: pool.into(),
                value: U256::MAX,
            }
            .abi_encode();
            bench.send(key, call(key.address(), usdt, approve)).await;
        }
        bench
    }

    async fn send(&self, key: &PrivateKey, action: Action) {
        let head = self.client.get_now_block().await.expect("head");
        let mut tx = TransactionBuilder::new(action, head.ref_block())
            .fee_limit(1_000_000_000)
            .build();
        tx.sign(key).expect("sign");
        self.client.broadcast_hex(&tx).await.expect("broadcast");
    }

    /// Sends `count` transactions made by `make` from the eight senders at once; returns the
    /// wall time. The reference block is read once per client, as a wallet would cache it.
    async fn run(
        self: &Arc<Self>,
        count: u64,
        make: fn(&Bench, &PrivateKey, u64) -> Action,
    ) -> Duration {
        let head = self.client.get_now_block().await.expect("head").ref_block();
        let start = Instant::now();
        let mut tasks = Vec::new();
        for (c, key) in self.senders.iter().cloned().enumerate() {
            let bench = self.clone();
            let share = count / CLIENTS as u64 + u64::from((c as u64) < count % CLIENTS as u64);
            tasks.push(tokio::spawn(async move {
                for i in 0..share {
                    let mut tx = TransactionBuilder::new(make(&bench, &key, i), head)
                        .fee_limit(1_000_000_000)
                        .build();
                    tx.sign(&key).expect("sign");
                    bench.client.broadcast_hex(&tx).await.expect("accepted");
                }
            }));
        }
        for task in tasks {
            task.await.expect("client task");
        }
        start.elapsed()
    }
}

fn usdt_transfer(bench: &Bench, key: &PrivateKey, _: u64) -> Action {
    let to = PrivateKey::generate().address();
    let data = Trc20::transferCall {
        to: to.into(),
        value: U256::from(1u64),
    }
    .abi_encode();
    call(key.address(), bench.usdt, data)
}

fn deposit(bench: &Bench, key: &PrivateKey, _: u64) -> Action {
    let mut commitment = [0u8; 32];
    // 31 random bytes: always below the field modulus, never repeated.
    commitment[1..].copy_from_slice(&PrivateKey::generate().public_key()[..31]);
    let data = contracts::TronPool::depositCall {
        commitment: commitment.into(),
    }
    .abi_encode();
    call(key.address(), bench.pool, data)
}

fn devnet(c: &mut Criterion) {
    let runtime = tokio::runtime::Builder::new_multi_thread()
        .worker_threads(2)
        .enable_all()
        .build()
        .expect("runtime");
    let bench = Arc::new(runtime.block_on(Bench::start()));
    let mut group = c.benchmark_group("devnet");
    group.sample_size(10);
    group.measurement_time(Duration::from_secs(10));
    group.bench_function("usdt_transfer_http", |b| {
        b.iter_custom(|iters| runtime.block_on(bench.run(iters, usdt_transfer)))
    });
    group.bench_function("pool_deposit_http", |b| {
        b.iter_custom(|iters| runtime.block_on(bench.run(iters, deposit)))
    });
    group.finish();
}

criterion_group!(benches, devnet);
criterion_main!(benches);
