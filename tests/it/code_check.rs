//! The client's code checks against the devnet's genesis: every contract it deployed,
//! batch insertion's included, is found to be tronpool's, and a deployment that names a
//! look-alike in any batch role is caught before anything is signed.

use std::time::Duration;

use devnet::DevnetConfig;
use tron::{NodeClient, NodeConfig};
use tronpool::service::chain::Chain;
use tronpool::service::code_check::check_code;

async fn checks(
    devnet: &devnet::DevnetHandle,
    deployment: contracts::Deployment,
) -> Vec<(String, bool)> {
    let node = NodeClient::new(NodeConfig::new(devnet.url().parse().unwrap())).unwrap();
    let chain = Chain::new("devnet".into(), node, deployment, Duration::ZERO).assume_devnet();
    check_code(&chain, None)
        .await
        .unwrap()
        .into_iter()
        .map(|c| (c.check, c.ok))
        .collect()
}

fn failed(found: &[(String, bool)]) -> Vec<&str> {
    found
        .iter()
        .filter(|(_, ok)| !ok)
        .map(|(name, _)| name.as_str())
        .collect()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_batch_contracts_of_genesis_are_checked_like_the_rest() {
    let devnet = devnet::spawn(DevnetConfig::ephemeral()).await.unwrap();
    let genesis = devnet.deployment().clone();
    let batches = genesis
        .batches
        .clone()
        .expect("genesis deploys batch insertion");
    assert_eq!(
        batches.verifying_key_sha256,
        zk::batch::INSECURE_DEV_VK_SHA256,
        "the batch verifier holds the batch circuit's development key"
    );

    let found = checks(&devnet, genesis.clone()).await;
    let names: Vec<&str> = found.iter().map(|(n, _)| n.as_str()).collect();
    assert_eq!(
        names[..6],
        [
            "network",
            "hasher code",
            "verifier code",
            "batch hasher code",
            "batch verifier code",
            "batch inserter code",
        ]
    );
    assert!(failed(&found).is_empty(), "{found:?}");

    // Each batch role filled by another of genesis' contracts, or the right code pinned to
    // another key, fails its own check; a contract moved also fails every pool's code check,
    // since the queued pools keep the batch contracts' addresses in their code.
    let forge = |change: &dyn Fn(&mut contracts::BatchDeployment)| {
        let mut d = genesis.clone();
        change(d.batches.as_mut().unwrap());
        d
    };
    let pool_codes: Vec<String> = genesis
        .pools
        .iter()
        .map(|p| format!("pool {} code", p.denomination))
        .collect();
    let cases: [(&str, bool, contracts::Deployment); 5] = [
        (
            "batch hasher code",
            true,
            forge(&|b| b.hasher4 = genesis.hasher),
        ),
        // The withdrawals' verifier: our code, the other circuit's key.
        (
            "batch verifier code",
            true,
            forge(&|b| b.verifier = genesis.verifier),
        ),
        (
            "batch verifier code",
            false,
            forge(&|b| b.verifying_key_sha256 = zk::keys::INSECURE_DEV_VK_SHA256.into()),
        ),
        (
            "batch inserter code",
            true,
            forge(&|b| b.inserter = batches.hasher4),
        ),
        (
            "batch inserter code",
            true,
            forge(&|b| b.inserter = genesis.pools[0].address),
        ),
    ];
    for (check, moved, forged) in cases {
        let found = checks(&devnet, forged).await;
        let mut expected = vec![check];
        if moved {
            expected.extend(pool_codes.iter().map(String::as_str));
        }
        assert_eq!(failed(&found), expected, "{found:?}");
    }
}
