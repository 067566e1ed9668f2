//! `tronpool devnet`: the embedded TRON chain in the foreground, like anvil.

use std::net::IpAddr;
use std::path::PathBuf;
use std::time::Duration;

use clap::Args;
use serde::Serialize;
use tron::Address;

use crate::error::{Error, Result};
use crate::shutdown::Shutdown;

use super::context::Context;

#[derive(Debug, Args)]
pub struct DevnetArgs {
    /// Address to listen on
    #[arg(long, default_value = "127.0.0.1", value_name = "IP")]
    host: IpAddr,
    /// Port to listen on (0 picks a free one)
    #[arg(long, default_value_t = 8090)]
    port: u16,
    /// A block every SECONDS, empty or not, holding the transactions broadcast since the
    /// last one, as TRON's producers make one every 3 s (reads see pending transactions at
    /// once; receipts come with the block). 0: every transaction is sealed into its own
    /// block before the broadcast answers, and no empty blocks are made
    #[arg(long, default_value_t = 3, value_name = "SECONDS")]
    block_time: u64,
    /// How many funded dev accounts to create (at most 1000)
    #[arg(long, default_value_t = 10, value_parser = clap::value_parser!(u16).range(1..=1000))]
    accounts: u16,
    /// Load the chain from FILE if it exists; save it there on exit
    #[arg(long, value_name = "FILE")]
    state: Option<PathBuf>,
    /// How fast the modeled block producer runs java-tron's VM: 1 is a producer-class node
    /// (a 4-pair pairing in 61 ms), 2 twice as fast, 0.33 a cold JVM. Contract runs past
    /// getMaxCpuTimeOfOneTx (80 ms) of modeled time end OUT_OF_TIME, as on TRON
    #[arg(long, default_value_t = 1.0, value_name = "X", value_parser = cpu_speed)]
    cpu_speed: f64,
    /// Run as a network without TVM Cancun (getAllowTvmCancun 0): TLOAD, TSTORE and MCOPY
    /// are invalid opcodes from block 2
    #[arg(long)]
    no_cancun: bool,
    /// Run as a network without TVM Shanghai (getAllowTvmShangHai 0): PUSH0 is invalid from
    /// block 2
    #[arg(long)]
    no_shanghai: bool,
    /// The devnet USDT's dynamic-energy factor, in 1/10,000: every opcode it runs costs
    /// (1 + N/10000) × its energy. Mainnet USDT's is 34000 (×4.4), the default at genesis;
    /// 0 prices it at its base energy
    #[arg(long, value_name = "N", value_parser = clap::value_parser!(i64).range(0..=34_000))]
    usdt_energy_factor: Option<i64>,
    /// Start without the deployer's energy stake: the pools stay sponsored, but with nothing
    /// staked their callers pay all their energy, as under a deployer that staked nothing.
    /// A new chain only; --state keeps what it has
    #[arg(long)]
    no_sponsor: bool,
    /// Serve no TronGrid events API (`/v1/*` answers 404, as on a plain java-tron node):
    /// clients must sync the pools another way, such as a block scan
    #[arg(long)]
    no_events_api: bool,
}

fn cpu_speed(text: &str) -> std::result::Result<f64, NotASpeed> {
    text.parse::<f64>()
        .ok()
        .filter(|x| x.is_finite() && (0.01..=1000.0).contains(x))
        .ok_or_else(|| NotASpeed(text.to_owned()))
}

/// A `--cpu-speed` outside what the devnet models.
#[derive(Debug, thiserror::Error)]
#[error("`{0}` is not a speed between 0.01 and 1000")]
struct NotASpeed(String);

#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
struct Started<'a> {
    url: String,
    chain_id: u64,
    accounts: Vec<DevAccount>,
    deployment: &'a contracts::Deployment,
    state: Option<&'a PathBuf>,
}

#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
struct DevAccount {
    address: Address,
    /// A well-known devnet key: printed on purpose, it guards nothing of value.
    private_key: String,
}

impl DevnetArgs {
    pub async fn run(self, ctx: &Context) -> Result<()> {
        let shutdown =
            Shutdown::register().map_err(|e| Error::os("cannot listen for Ctrl-C", e))?;
        let config = devnet::DevnetConfig {
            host: self.host,
            port: self.port,
            block_time: Duration::from_secs(self.block_time),
            keep_alive: Duration::ZERO,
            accounts: usize::from(self.accounts),
            state: self.state.clone(),
            cpu_speed: self.cpu_speed,
            tvm: devnet::chain::evm::TvmSwitches {
                shanghai: !self.no_shanghai,
                cancun: !self.no_cancun,
            },
            usdt_energy_factor: self.usdt_energy_factor,
            sponsor: !self.no_sponsor,
            events_api: !self.no_events_api,
        };
        let handle = devnet::spawn(config).await.map_err(|e| match e {
            devnet::DevnetError::Bind { .. } => Error::usage(format!(
                "{e} (is another devnet running? pick another port with --port)"
            )),
            other => Error::Failed(other.to_string()),
        })?;
        let deployment = handle.deployment().clone();
        let started = Started {
            url: handle.url(),
            chain_id: deployment.chain_id,
            accounts: handle
                .accounts()
                .iter()
                .map(|k| DevAccount {
                    address: k.address(),
                    private_key: k.to_hex().to_string(),
                })
                .collect(),
            deployment: &deployment,
            state: self.state.as_ref(),
        };
        ctx.out.result(&started, || banner(&started))?;
        ctx.out.note("Press Ctrl-C to stop.");

        shutdown.wait().await;
        ctx.out.note("Stopping the devnet...");
        handle
            .shutdown()
            .await
            .map_err(|e| Error::Failed(e.to_string()))?;
        if let Some(path) = &self.state {
            ctx.out.note(format!("State saved to {}", path.display()));
        }
        Ok(())
    }
}

fn banner(s: &Started<'_>) -> String {
    let d = s.deployment;
    let mut out = String::new();
    out.push_str("tronpool devnet: TRON's HTTP API on revm\n\n");
    out.push_str(
        "Dev accounts (1,000,000 TRX and 1,000,000 USDT each; well-known keys, devnet only)\n",
    );
    for (i, a) in s.accounts.iter().enumerate() {
        let role = match i {
            0 => "  (tronpool's default key)",
            1 => "  (tronpool's relayer key)",
            _ => "",
        };
        out.push_str(&format!("({i}) {}  {}{role}\n", a.address, a.private_key));
    }
    out.push_str(&format!(
        "\nContracts (block {})\n  USDT      {}\n  hasher    {}\n  verifier  {}  (insecure dev key {})\n",
        d.block,
        d.usdt,
        d.hasher,
        d.verifier,
        &d.verifying_key_sha256[..16]
    ));
    for pool in &d.pools {
        out.push_str(&format!(
            "  pool {:>6} USDT  {}\n",
            pool.denomination, pool.address
        ));
    }
    out.push_str(&format!(
        "\nChain id {:#x}; energy 100 sun; empty blocks after idle periods.\nListening on {}\n  tronpool --network devnet --node {} ...\n  TronWeb: new TronWeb({{ fullHost: \"{}\" }})\n",
        s.chain_id, s.url, s.url, s.url
    ));
    out
}
