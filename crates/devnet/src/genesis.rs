//! The devnet's genesis: deterministic dev accounts, and tronpool's contracts deployed in
//! block 1 by signed `CreateSmartContract` transactions with fixed times, so every devnet —
//! today's, tomorrow's, a CI runner's — has the token and the pools at the same addresses.
//!
//! Block 1 holds, in this order: the hasher, the verifier, the USDT, the contracts of batch
//! insertion (`PoseidonT5`, the batch circuit's verifier, the `BatchInserter`), the six
//! queued pools (`QueuedPool`: a deposit queues, a batch proof inserts; `docs/batches.md`),
//! one USDT transfer per dev account, the TRX/USDT price pair (a `DevSunswapPair`), and last,
//! unless the devnet starts unsponsored, the deployer's energy stake. A contract's address depends
//! only on its own transaction (its txID and owner), so what was added later moved nothing.
//!
//! The pools are created as `tronpool deploy` creates them: their callers pay no energy
//! (`consume_user_resource_percent` 0) while the deployer's staked energy lasts, up to
//! [`DEFAULT_POOL_ORIGIN_ENERGY_LIMIT`] a call. The deployer stakes [`SPONSOR_STAKE_TRX_SUN`]
//! for that: a day of normal use.

use alloy_sol_types::SolConstructor;
use contracts::{BatchDeployment, Deployment, PoolDeployment};
use sha2::{Digest, Sha256};
use tron::proto::{CreateSmartContract, SmartContract};
use tron::transaction::DEFAULT_EXPIRATION_MS;
use tron::{Action, Address, PrivateKey, Transaction, TransactionBuilder, Trigger};

use contracts::sponsorship::{
    DEFAULT_CALLER_ENERGY_PERCENT, DEFAULT_POOL_ORIGIN_ENERGY_LIMIT,
    UNSPONSORED_ORIGIN_ENERGY_LIMIT,
};

use crate::chain::{Ledger, Rejection};

/// Genesis time: 2026-01-01T00:00:00Z. Fixed, so the genesis block id and with it the chain id
/// and every deployment address are the same on every machine.
pub const GENESIS_TIME_MS: i64 = 1_767_225_600_000;
/// Block 1, which holds the deployments, follows three seconds later.
pub const DEPLOY_TIME_MS: i64 = GENESIS_TIME_MS + 3_000;
/// The pools the devnet deploys, in whole USDT.
pub const DENOMINATIONS: [u64; 6] = [100, 500, 1_000, 3_000, 5_000, 10_000];
/// What each deposit escrows for the batch that inserts it, in USDT base units: the default
/// 0.25 USDT (`contracts::batches`).
pub const INSERTION_FEE: u64 = contracts::batches::DEFAULT_INSERTION_FEE;
/// TRX each dev account starts with: 1,000,000 TRX, in sun.
pub const DEV_ACCOUNT_TRX_SUN: i64 = 1_000_000 * 1_000_000;
/// USDT each dev account starts with: 1,000,000 USDT, in base units (6 decimals).
pub const DEV_ACCOUNT_USDT: u64 = 1_000_000 * 1_000_000;
/// The most dev accounts a devnet makes.
pub const MAX_ACCOUNTS: usize = 1_000;
/// USDT minted to the deployer at deployment (enough for every dev account).
const USDT_SUPPLY: u64 = DEV_ACCOUNT_USDT * MAX_ACCOUNTS as u64;
/// TRX the deployer starts with; deploying everything burns a few hundred.
const DEPLOYER_TRX_SUN: i64 = 1_000_000_000 * 1_000_000;
/// TRX the deployer stakes for energy at genesis to pay its pools' callers' energy:
/// 10,000,000 TRX, in sun. At the devnet's modeled energy weight (mainnet's 17 billion TRX
/// staked for energy besides this, 180 billion energy a day) it buys about 105.8 million
/// energy a day: some 190 queued deposits (119,899 each) and 190 relayed withdrawals (429,510
/// each) under the mainnet model. Batches are never paid from it: they go through the
/// unsponsored `BatchInserter`.
pub const SPONSOR_STAKE_TRX_SUN: i64 = 10_000_000 * 1_000_000;
/// The price pair's initial TRX reserve (its `reserve0`): 40,000,000 TRX in sun (6 decimals,
/// as WTRX).
pub const PAIR_RESERVE_TRX: u64 = 40_000_000 * 1_000_000;
/// The price pair's initial USDT reserve (its `reserve1`): 11,200,000 USDT in base units
/// (6 decimals). With [`PAIR_RESERVE_TRX`]: 0.28 USDT per TRX.
pub const PAIR_RESERVE_USDT: u64 = 11_200_000 * 1_000_000;

/// A private key from a label: SHA-256 of it. Anyone can derive these keys; they guard
/// nothing but devnet funds.
fn derived_key(label: &[u8]) -> PrivateKey {
    let digest: [u8; 32] = Sha256::digest(label).into();
    PrivateKey::from_bytes(&digest).expect("a SHA-256 output is a valid secp256k1 key")
}

/// Dev account `index` (0 is tronpool's default key on the devnet, 1 its relayer key).
pub fn dev_key(index: usize) -> PrivateKey {
    derived_key(format!("tronpool devnet account {index}").as_bytes())
}

/// The account that deploys the contracts and owns the devnet USDT.
pub fn deployer_key() -> PrivateKey {
    derived_key(b"tronpool devnet deployer")
}

/// The block producer.
pub fn witness_key() -> PrivateKey {
    derived_key(b"tronpool devnet witness")
}

/// The id of block 0 of every tronpool devnet: sealed by [`witness_key`] at
/// [`GENESIS_TIME_MS`] with nothing in it, so it is the same on every machine and in every
/// state file. A client asks a node for its block 0 and compares it with this to learn that
/// the node really is a tronpool devnet (where the published development keys may be used),
/// whatever the network is called in its configuration; no real TRON network has this block.
pub fn genesis_block_id() -> [u8; 32] {
    crate::chain::block::Block::seal(0, GENESIS_TIME_MS, [0; 32], Vec::new(), &[], &witness_key())
        .id
}

/// The price pair's `token0`: a stand-in for WTRX, so the pair is oriented as mainnet's
/// SunSwap V2 WTRX/USDT pair (token0 WTRX, token1 USDT, both 6 decimals). It is the address
/// of the key derived from the label `tronpool devnet WTRX stand-in`, like the dev keys; no
/// code is ever deployed there and it holds nothing: the pair only stores the address.
pub fn wtrx_stand_in() -> Address {
    derived_key(b"tronpool devnet WTRX stand-in").address()
}

/// Why genesis failed; always a bug in the devnet or the contracts.
#[derive(Debug, thiserror::Error)]
#[error("genesis: {what}: {detail}")]
pub struct GenesisError {
    what: String,
    detail: String,
}

/// Builds the chain: genesis balances, then block 1 with every deployment, each dev
/// account's USDT, the price pair and, when `sponsor`, the deployer's energy stake.
pub fn build(accounts: usize, sponsor: bool) -> Result<(Ledger, Deployment), GenesisError> {
    let accounts = accounts.min(MAX_ACCOUNTS);
    let deployer = deployer_key();
    let mut balances = vec![(deployer.address(), DEPLOYER_TRX_SUN)];
    balances.extend((0..accounts).map(|i| (dev_key(i).address(), DEV_ACCOUNT_TRX_SUN)));
    let mut chain = Ledger::new(witness_key(), GENESIS_TIME_MS, &balances);
    let genesis = chain.head().ref_block();
    chain.begin_block_at(DEPLOY_TIME_MS);

    // (percent of its energy a call's caller pays, most the deployer pays for one call)
    let unsponsored = (100, UNSPONSORED_ORIGIN_ENERGY_LIMIT);
    let pool_sponsorship = (
        DEFAULT_CALLER_ENERGY_PERCENT,
        DEFAULT_POOL_ORIGIN_ENERGY_LIMIT,
    );
    let deploy = |chain: &mut Ledger,
                  name: &str,
                  args: Vec<u8>,
                  (percent, origin_limit): (i64, i64)|
     -> Result<Address, GenesisError> {
        let artifact = contracts::artifact(name).ok_or_else(|| GenesisError {
            what: format!("deploy {name}"),
            detail: "no such artifact".into(),
        })?;
        let json: serde_json::Value =
            serde_json::from_str(artifact.json).expect("committed artifacts are JSON");
        let abi = tron::json::abi_from_json(&json["abi"]).map_err(|e| GenesisError {
            what: format!("read the ABI of {name}"),
            detail: e.to_string(),
        })?;
        let bytecode = hex::decode(
            json["bytecode"]
                .as_str()
                .unwrap_or_default()
                .trim_start_matches("0x"),
        )
        .expect("committed artifacts hold hex bytecode");
        let create = CreateSmartContract {
            owner_address: deployer.address().tron_bytes().to_vec(),
            new_contract: Some(SmartContract {
                origin_address: deployer.address().tron_bytes().to_vec(),
                abi: Some(abi),
                bytecode: contracts::creation_code(&bytecode, &args),
                consume_user_resource_percent: percent,
                name: name.to_owned(),
                origin_energy_limit: origin_limit,
                ..SmartContract::default()
            }),
            ..CreateSmartContract::default()
        };
        let tx = signed(&deployer, Action::Create(Box::new(create)), genesis);
        let info = chain.apply_unchecked(tx).map_err(|e| failed(name, e))?;
        if let Some(reason) = info.failure {
            return Err(GenesisError {
                what: format!("deploy {name}"),
                detail: reason,
            });
        }
        Ok(info.contract_address.expect("a deployment has an address"))
    };

    let keys = zk::keys::Keys::insecure_dev();
    let hasher = deploy(&mut chain, "PoseidonT3", Vec::new(), unsponsored)?;
    let verifier = deploy(
        &mut chain,
        "Groth16Verifier",
        keys.verifier_args().abi_encode(),
        unsponsored,
    )?;
    let usdt = deploy(
        &mut chain,
        "DevUSDT",
        contracts::DevUSDT::constructorCall {
            initialSupply: alloy_primitives::U256::from(USDT_SUPPLY),
        }
        .abi_encode(),
        unsponsored,
    )?;
    // Mainnet's USDT runs at ×4.4 its base energy (dynamic energy at its cap).
    chain
        .set_energy_factor(usdt, crate::chain::energy::USDT_ENERGY_FACTOR)
        .map_err(|detail| GenesisError {
            what: "set the USDT's energy factor".into(),
            detail,
        })?;
    // Batch insertion: the four-input hasher, the batch circuit's verifier (its development
    // key, pinned so a start costs no setup) and the inserter, whose callers pay every batch
    // in full.
    let batch_key = zk::batch_proof::insecure_dev_verifying_key();
    let batches = BatchDeployment {
        hasher4: deploy(&mut chain, "PoseidonT5", Vec::new(), unsponsored)?,
        verifier: deploy(
            &mut chain,
            "Groth16Verifier",
            zk::keys::VerifierArgs::from(&batch_key).abi_encode(),
            unsponsored,
        )?,
        verifying_key_sha256: zk::keys::verifying_key_sha256(&batch_key),
        inserter: deploy(&mut chain, "BatchInserter", Vec::new(), unsponsored)?,
    };
    let mut pools = Vec::new();
    for denomination in DENOMINATIONS {
        let args = contracts::QueuedPool::constructorCall {
            verifier_: verifier.into(),
            batchVerifier_: batches.verifier.into(),
            hasher_: hasher.into(),
            hasher4_: batches.hasher4.into(),
            token_: usdt.into(),
            denomination_: alloy_primitives::U256::from(denomination * 1_000_000),
            insertionFee_: alloy_primitives::U256::from(INSERTION_FEE),
            inserter_: batches.inserter.into(),
        }
        .abi_encode();
        let address = deploy(&mut chain, "QueuedPool", args, pool_sponsorship)?;
        pools.push(PoolDeployment {
            denomination,
            address,
            insertion_fee: INSERTION_FEE,
        });
    }

    for index in 0..accounts {
        let to = dev_key(index).address();
        let data = alloy_sol_types::SolCall::abi_encode(&contracts::DevUSDT::transferCall {
            to: to.into(),
            value: alloy_primitives::U256::from(DEV_ACCOUNT_USDT),
        });
        let call = Action::Trigger(Trigger {
            owner: deployer.address(),
            contract: usdt,
            data,
            ..Trigger::default()
        });
        run(
            &mut chain,
            signed(&deployer, call, genesis),
            "fund the dev accounts",
        )?;
    }

    // Last, so that every address above is what it was before the devnet had a price pair.
    let price_pair = deploy(
        &mut chain,
        "DevSunswapPair",
        contracts::DevSunswapPair::constructorCall {
            token0_: wtrx_stand_in().into(),
            token1_: usdt.into(),
            reserve0_: alloy_primitives::aliases::U112::from(PAIR_RESERVE_TRX),
            reserve1_: alloy_primitives::aliases::U112::from(PAIR_RESERVE_USDT),
        }
        .abi_encode(),
        unsponsored,
    )?;
    if sponsor {
        let stake = Action::Stake(tron::Stake::Freeze {
            owner: deployer.address(),
            resource: tron::Resource::Energy,
            amount: SPONSOR_STAKE_TRX_SUN,
        });
        run(
            &mut chain,
            signed(&deployer, stake, genesis),
            "stake the sponsor's energy",
        )?;
    }
    let block = chain.mine();

    let deployment = Deployment {
        network: "devnet".into(),
        chain_id: chain.chain_id(),
        usdt,
        hasher,
        verifier,
        pools,
        block,
        verifying_key_sha256: keys.verifying_key_sha256(),
        deployer: deployer.address(),
        price_pair: Some(price_pair),
        wtrx: Some(wtrx_stand_in()),
        batches: Some(batches),
    };
    Ok((chain, deployment))
}

/// Applies a genesis transaction that must succeed.
fn run(chain: &mut Ledger, tx: Transaction, what: &str) -> Result<(), GenesisError> {
    let info = chain.apply_unchecked(tx).map_err(|e| failed(what, e))?;
    match info.failure {
        Some(reason) => Err(GenesisError {
            what: what.to_owned(),
            detail: reason,
        }),
        None => Ok(()),
    }
}

fn failed(what: &str, e: Rejection) -> GenesisError {
    GenesisError {
        what: what.to_owned(),
        detail: e.to_string(),
    }
}

/// A genesis transaction: fixed times, so its txID (and a deployment's address) never change.
fn signed(key: &PrivateKey, action: Action, genesis: tron::RefBlock) -> Transaction {
    let mut tx = TransactionBuilder::new(action, genesis)
        .timestamp(GENESIS_TIME_MS)
        .expiration(GENESIS_TIME_MS + DEFAULT_EXPIRATION_MS)
        .fee_limit(15_000_000_000)
        .build();
    // `Transaction::sign` refuses expired transactions, and these expired long ago.
    let signature = key.sign_digest(&tx.txid().0);
    tx.push_signature(signature);
    tx
}
