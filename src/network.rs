//! The networks tronpool knows without being told.

/// A built-in network.
#[derive(Debug, Clone, Copy)]
pub struct Preset {
    pub name: &'static str,
    /// FullNode HTTP API.
    pub node: &'static str,
    /// The USDT contract, where one is known.
    pub usdt: Option<&'static str>,
    pub about: &'static str,
}

pub const DEFAULT_NETWORK: &str = "devnet";

pub const PRESETS: [Preset; 4] = [
    Preset {
        name: "devnet",
        node: "http://127.0.0.1:8090",
        // Deployed at genesis by `tronpool devnet`; recorded there, not here.
        usdt: None,
        about: "the local chain started by `tronpool devnet`",
    },
    Preset {
        name: "nile",
        node: "https://nile.trongrid.io",
        usdt: Some("TXYZopYRdj2D9XRtbG411XZZ3kM5VkAeBf"),
        about: "TRON's Nile test network",
    },
    Preset {
        name: "shasta",
        node: "https://api.shasta.trongrid.io",
        // Shasta has no Tether-issued USDT; set one in the config file.
        usdt: None,
        about: "TRON's Shasta test network",
    },
    Preset {
        name: "mainnet",
        node: "https://api.trongrid.io",
        usdt: Some("TR7NHqjeKQxGTCi8q8ZY4pL8otSzgjLj6t"),
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
            if let Some(usdt) = p.usdt {
                usdt.parse::<tron::Address>().unwrap();
            }
        }
        assert!(preset(DEFAULT_NETWORK).is_some());
    }
}
