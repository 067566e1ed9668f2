//! The networks tronpool knows without being told.

/// A built-in network.
#[derive(Debug, Clone, Copy)]
pub struct Preset {
    pub name: &'static str,
    /// FullNode HTTP API.
    pub node: &'static str,
    /// TronGrid's `/v1/contracts/{address}/events`, where pool deposits are read.
    pub events: &'static str,
    /// The USDT contract, where one is known.
    pub usdt: Option<&'static str>,
    /// Wrapped TRX, where one is known: a relayer prices TRX from a SunSwap V2 pair only if
    /// its tokens are this and the USDT.
    pub wtrx: Option<&'static str>,
    /// `block.chainid`: the last four bytes of the genesis block's id. A deployment checks
    /// it, so a mistyped node URL cannot put mainnet's pools on a test network or the reverse.
    pub chain_id: Option<u64>,
    /// A tronpool deployment published for everyone on this network. None exists yet: until
    /// one does, each operator deploys their own and records it in the config file.
    pub deployment: Option<PublishedDeployment>,
    /// The Phase 1 transcripts a ceremony's key may start from here, by hash: `ceremony
    /// import` refuses a key verified against any other `.ptau` (docs/ceremony.md).
    pub accepted_ptau: &'static [AcceptedPtau],
    pub about: &'static str,
}

/// A public Phase 1 transcript, prepared for Phase 2, known by its file's BLAKE2b-512 hash.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct AcceptedPtau {
    pub file: &'static str,
    /// Lowercase hexadecimal, as `b2sum` prints it.
    pub blake2b: &'static str,
}

/// The Hermez ceremony's final transcripts (the Perpetual Powers of Tau, 54 contributions and
/// a beacon), powers 13 to 16: the withdraw circuit's domain has 2^13 points. The hashes are
/// the ones the snarkjs README (github.com/iden3/snarkjs, section "7. Prepare phase 2")
/// publishes next to each file's download link.
pub(crate) const HERMEZ_PTAU: &[AcceptedPtau] = &[
    AcceptedPtau {
        file: "powersOfTau28_hez_final_13.ptau",
        blake2b: "58efc8bf2834d04768a3d7ffcd8e1e23d461561729beaac4e3e7a47829a1c9066d5320241e124a1a8e8aa6c75be0ba66f65bc8239a0542ed38e11276f6fdb4d9",
    },
    AcceptedPtau {
        file: "powersOfTau28_hez_final_14.ptau",
        blake2b: "eeefbcf7c3803b523c94112023c7ff89558f9b8e0cf5d6cdcba3ade60f168af4a181c9c21774b94fbae6c90411995f7d854d02ebd93fb66043dbb06f17a831c1",
    },
    AcceptedPtau {
        file: "powersOfTau28_hez_final_15.ptau",
        blake2b: "982372c867d229c236091f767e703253249a9b432c1710b4f326306bfa2428a17b06240359606cfe4d580b10a5a1f63fbed499527069c18ae17060472969ae6e",
    },
    AcceptedPtau {
        file: "powersOfTau28_hez_final_16.ptau",
        blake2b: "6a6277a2f74e1073601b4f9fed6e1e55226917efb0f0db8a07d98ab01df1ccf43eb0e8c3159432acd4960e2f29fe84a4198501fa54c8dad9e43297453efec125",
    },
];

/// A deployment shipped with the binary, in the config file's form.
#[derive(Debug, Clone, Copy)]
pub struct PublishedDeployment {
    /// The `[networks.NAME.deployment]` table, TOML.
    pub record: &'static str,
}

pub(crate) const DEFAULT_NETWORK: &str = "devnet";

pub(crate) const PRESETS: [Preset; 4] = [
    Preset {
        name: "devnet",
        node: "http://127.0.0.1:8090",
        events: "http://127.0.0.1:8090",
        // Deployed at genesis by `tronpool devnet`; recorded there, not here.
        usdt: None,
        wtrx: None,
        chain_id: None,
        deployment: None,
        accepted_ptau: HERMEZ_PTAU,
        about: "the local chain started by `tronpool devnet`",
    },
    Preset {
        name: "nile",
        node: "https://nile.trongrid.io",
        events: "https://nile.trongrid.io",
        usdt: Some("TXYZopYRdj2D9XRtbG411XZZ3kM5VkAeBf"),
        wtrx: None,
        chain_id: Some(0xcd86_90dc),
        deployment: None,
        accepted_ptau: HERMEZ_PTAU,
        about: "TRON's Nile test network",
    },
    Preset {
        name: "shasta",
        node: "https://api.shasta.trongrid.io",
        events: "https://api.shasta.trongrid.io",
        // Shasta has no Tether-issued USDT; set one in the config file.
        usdt: None,
        wtrx: None,
        chain_id: Some(0x94a9_059e),
        deployment: None,
        accepted_ptau: HERMEZ_PTAU,
        about: "TRON's Shasta test network",
    },
    Preset {
        name: "mainnet",
        node: "https://api.trongrid.io",
        events: "https://api.trongrid.io",
        usdt: Some("TR7NHqjeKQxGTCi8q8ZY4pL8otSzgjLj6t"),
        // WTRX as TRONSCAN and SunSwap list it: token0 of SunSwap V2's WTRX/USDT pair.
        wtrx: Some("TNUC9Qb1rRpS5CbWLmNMxXBjyFoydXjWFR"),
        chain_id: Some(0x2b66_53dc),
        deployment: None,
        accepted_ptau: HERMEZ_PTAU,
        about: "TRON mainnet: real money",
    },
];

pub fn preset(name: &str) -> Option<&'static Preset> {
    PRESETS.iter().find(|p| p.name == name)
}

/// The transcripts a key for `network` may start from: its preset's, or for a network the
/// config file defines, the Hermez ones every preset accepts.
pub(crate) fn accepted_ptau(network: &str) -> &'static [AcceptedPtau] {
    preset(network).map_or(HERMEZ_PTAU, |p| p.accepted_ptau)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn presets_are_well_formed() {
        for p in PRESETS {
            url::Url::parse(p.node).unwrap();
            url::Url::parse(p.events).unwrap();
            if let Some(wtrx) = p.wtrx {
                wtrx.parse::<tron::Address>().unwrap();
            }
            if let Some(usdt) = p.usdt {
                usdt.parse::<tron::Address>().unwrap();
            }
            if let Some(published) = p.deployment {
                toml::from_str::<crate::store::config::DeploymentRecord>(published.record)
                    .unwrap()
                    .check_complete()
                    .unwrap();
            }
        }
        assert!(preset(DEFAULT_NETWORK).is_some());
        for p in PRESETS {
            assert!(!p.accepted_ptau.is_empty(), "{}", p.name);
            for t in p.accepted_ptau {
                assert_eq!(t.blake2b.len(), 128, "{}", t.file);
                assert!(
                    t.blake2b
                        .bytes()
                        .all(|b| b.is_ascii_hexdigit() && !b.is_ascii_uppercase())
                );
            }
        }
        assert_eq!(accepted_ptau("my-own-network"), HERMEZ_PTAU);
        // The chain ids wallets use for TIP-712: mainnet, Shasta, Nile.
        assert_eq!(preset("mainnet").unwrap().chain_id, Some(728_126_428));
        assert_eq!(preset("shasta").unwrap().chain_id, Some(2_494_104_990));
        assert_eq!(preset("nile").unwrap().chain_id, Some(3_448_148_188));
    }
}
