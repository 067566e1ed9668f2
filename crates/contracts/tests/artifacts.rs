//! The bindings cover every committed artifact, and each binding's bytecode is its artifact's.
#![allow(clippy::unwrap_used)] // a test fails by panicking: unwrapping is how it says so

use std::path::Path;

use sha2::{Digest, Sha256};

fn artifacts_dir() -> std::path::PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../../contracts/artifacts")
}

#[test]
fn every_artifact_is_bound() {
    let mut on_disk: Vec<String> = std::fs::read_dir(artifacts_dir())
        .unwrap()
        .map(|e| e.unwrap().file_name().into_string().unwrap())
        .filter_map(|f| f.strip_suffix(".json").map(str::to_owned))
        .collect();
    on_disk.sort();
    let bound: Vec<&str> = contracts::ARTIFACTS.iter().map(|a| a.name).collect();
    assert_eq!(
        on_disk, bound,
        "add a sol! binding and an ARTIFACTS entry for each new artifact"
    );
}

#[test]
fn artifacts_are_consistent() {
    let by_name = [
        (
            "BatchInserter",
            &contracts::BatchInserter::BYTECODE,
            &contracts::BatchInserter::DEPLOYED_BYTECODE,
        ),
        (
            "DevSunswapPair",
            &contracts::DevSunswapPair::BYTECODE,
            &contracts::DevSunswapPair::DEPLOYED_BYTECODE,
        ),
        (
            "DevUSDT",
            &contracts::DevUSDT::BYTECODE,
            &contracts::DevUSDT::DEPLOYED_BYTECODE,
        ),
        (
            "Groth16Verifier",
            &contracts::Groth16Verifier::BYTECODE,
            &contracts::Groth16Verifier::DEPLOYED_BYTECODE,
        ),
        (
            "PoseidonT3",
            &contracts::PoseidonT3::BYTECODE,
            &contracts::PoseidonT3::DEPLOYED_BYTECODE,
        ),
        (
            "PoseidonT5",
            &contracts::PoseidonT5::BYTECODE,
            &contracts::PoseidonT5::DEPLOYED_BYTECODE,
        ),
        (
            "QueuedPool",
            &contracts::QueuedPool::BYTECODE,
            &contracts::QueuedPool::DEPLOYED_BYTECODE,
        ),
        (
            "TronPool",
            &contracts::TronPool::BYTECODE,
            &contracts::TronPool::DEPLOYED_BYTECODE,
        ),
    ];
    assert_eq!(by_name.len(), contracts::ARTIFACTS.len());
    for (name, bytecode, deployed) in by_name {
        let artifact = contracts::artifact(name).unwrap();
        let json: serde_json::Value = serde_json::from_str(artifact.json).unwrap();
        assert_eq!(json["contractName"], name);
        assert_eq!(
            json["compiler"]["settings"]["evmVersion"],
            contracts::EVM_VERSION,
            "{name}"
        );
        assert_eq!(
            json["bytecode"].as_str().unwrap(),
            bytecode.to_string(),
            "{name}"
        );
        assert_eq!(
            json["deployedBytecode"].as_str().unwrap(),
            deployed.to_string(),
            "{name}"
        );
        let sha = hex(&Sha256::digest(bytecode.as_ref()));
        assert_eq!(json["bytecodeSha256"].as_str().unwrap(), sha, "{name}");
        // TRON has no EIP-170 limit (`PoseidonT5` is past it); a deployment is bounded by
        // java-tron's transaction size, `Constant.TRANSACTION_MAX_BYTE_SIZE` (500 KiB), which
        // also holds the ABI and the rest of the transaction.
        assert!(
            bytecode.len() < 400 * 1_024,
            "{name}: {} bytes of creation code",
            bytecode.len()
        );
        println!(
            r#"{{"contract":"{name}","deployedBytes":{},"creationBytes":{}}}"#,
            deployed.len(),
            bytecode.len()
        );
    }
}

fn hex(bytes: &[u8]) -> String {
    bytes.iter().map(|b| format!("{b:02x}")).collect()
}
