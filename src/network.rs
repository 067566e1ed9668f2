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
    /// `block.chainid`: the last four bytes of the genesis block's id. A deployment checks
    /// it, so a mistyped node URL cannot put mainnet's pools on a test network or the reverse.
    pub chain_id: Option<u64>,
    /// A tronpool deployment published for everyone on this network. None exists yet: until
    /// one does, each operator deploys their own and records it in the config file.
    pub deployment: Option<PublishedDeployment>,
    pub about: &'static str,
}

/// A deployment shipped with the binary, in the config file's form.
#[derive(Debug, Clone, Copy)]
pub struct PublishedDeployment {
    /// The `[networks.NAME.deployment]` table, TOML.
    pub record: &'static str,
}

pub const DEFAULT_NETWORK: &str = "devnet";

pub const PRESETS: [Preset; 4] = [
    Preset {
        name: "devnet",
        node: "http://127.0.0.1:8090",
        events: "http://127.0.0.1:8090",
        // Deployed at genesis by `tronpool devnet`; recorded there, not here.
        usdt: None,
        chain_id: None,
        deployment: None,
        about: "the local chain started by `tronpool devnet`",
    },
    Preset {
        name: "nile",
        node: "https://nile.trongrid.io",
        events: "https://nile.trongrid.io",
        usdt: Some("TXYZopYRdj2D9XRtbG411XZZ3kM5VkAeBf"),
        chain_id: Some(0xcd86_90dc),
        deployment: None,
        about: "TRON's Nile test network",
    },
    Preset {
        name: "shasta",
        node: "https://api.shasta.trongrid.io",
        events: "https://api.shasta.trongrid.io",
        // Shasta has no Tether-issued USDT; set one in the config file.
        usdt: None,
        chain_id: Some(0x94a9_059e),
        deployment: None,
        about: "TRON's Shasta test network",
    },
    Preset {
        name: "mainnet",
        node: "https://api.trongrid.io",
        events: "https://api.trongrid.io",
        usdt: Some("TR7NHqjeKQxGTCi8q8ZY4pL8otSzgjLj6t"),
        chain_id: Some(0x2b66_53dc),
        deployment: None,
        about: "TRON mainnet: real money",
    },
];

pub fn preset(name: &str) -> Option<&'static Preset> {
    PRESETS.iter().find(|p| p.name == name)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn presets_are_well_formed() {
        for p in PRESETS {
            url::Url::parse(p.node).unwrap();
            url::Url::parse(p.events).unwrap();
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
        // The chain ids wallets use for TIP-712: mainnet, Shasta, Nile.
        assert_eq!(preset("mainnet").unwrap().chain_id, Some(728_126_428));
        assert_eq!(preset("shasta").unwrap().chain_id, Some(2_494_104_990));
        assert_eq!(preset("nile").unwrap().chain_id, Some(3_448_148_188));
    }
}
