//! `tronpool deploy [--denominations 100,500,…] [--zkey FILE --batch-zkey FILE]`: put
//! tronpool's contracts on a network and record them in the config file.

use std::path::PathBuf;

use clap::Args;
use serde::Serialize;
use tron::{Address, TxId};
use zk::circuits::Circuit;
use zk::keys::Keys;

use crate::error::{Error, Result};
use crate::service::ceremony::{ImportRequest, check_usable, import_zkey, zkey_path};
use crate::service::chain::Chain;
use crate::service::check::Check;
use crate::service::deploy::{self, DeployKeys, Plan, Request, StepState};
use crate::service::deploy_check;
use crate::service::desk::Desk;
use crate::store::config::{DeploymentRecord, write_deployment};
use crate::units::trx_text;

use super::context::Context;
use super::input::confirm;
use super::open::{journal, key, notes, trees};
use super::output::table;
use super::progress::spinner;

#[derive(Debug, Args)]
pub struct DeployArgs {
    /// The pools to deploy, in whole USDT [default: 100,500,1000,3000,5000,10000, or the
    /// ones of the deployment being resumed]
    #[arg(long, value_name = "N,…", value_delimiter = ',')]
    denominations: Option<Vec<u64>>,
    /// The withdraw circuit's ceremony keys (a snarkjs .zkey for `tronpool ceremony r1cs`);
    /// imported first. Not needed to resume: the record names its keys
    #[arg(long, value_name = "FILE", requires = "batch_zkey")]
    zkey: Option<PathBuf>,
    /// The batch circuit's ceremony keys (for `tronpool ceremony r1cs --circuit batch`);
    /// imported first
    #[arg(long, value_name = "FILE", requires = "zkey")]
    batch_zkey: Option<PathBuf>,
    /// The Phase 1 transcript the zkeys are verified against on import (see `ceremony
    /// import`; the batch circuit needs a power of 15 or more)
    #[arg(long, value_name = "FILE", requires = "zkey")]
    ptau: Option<PathBuf>,
    /// Another transcript for --batch-zkey [default: --ptau]
    #[arg(long, value_name = "FILE", requires = "batch_zkey")]
    batch_ptau: Option<PathBuf>,
    /// On a tronpool devnet: import the zkeys as INSECURE rehearsal keys (see `ceremony
    /// import`)
    #[arg(long, requires = "zkey")]
    rehearsal: bool,
    /// What each deposit escrows for the batch that inserts it, in USDT [default: 0.25,
    /// which pays a full batch's energy at today's prices; docs/batches.md]
    #[arg(long, value_name = "USDT")]
    insertion_fee: Option<String>,
    /// Check and price everything, then stop before signing
    #[arg(long)]
    dry_run: bool,
    /// Check the recorded deployment on chain instead of deploying: the network runs the
    /// contracts, the hasher is our Poseidon, the verifier holds the ceremony's keys, and each
    /// pool is wired to them, the USDT and its denomination. Exit 4 if anything differs
    #[arg(long, conflicts_with_all = ["dry_run", "denominations"])]
    check: bool,
    /// The percent of each pool call's energy its callers pay [default: 0: the deployer's
    /// staked energy pays it, up to --origin-energy-limit a call, and what the stake cannot
    /// cover falls back to the caller]
    #[arg(long, value_name = "P")]
    caller_energy_percent: Option<i64>,
    /// The most energy the deployer pays for one pool call [default: 600000, a deposit or a
    /// relayed withdrawal with 20% to spare]
    #[arg(long, value_name = "ENERGY")]
    origin_energy_limit: Option<i64>,
    /// Don't end the deployment with a test deposit: then the withdrawal check runs only if
    /// a note of one of these pools is already stored here
    #[arg(long, conflicts_with = "check")]
    no_test_deposit: bool,
    /// With --check: deposit a test note into the smallest pool (from the signing key, stored
    /// here, yours to withdraw) when no note of these pools is stored here to check a
    /// withdrawal with
    #[arg(long, requires = "check")]
    test_deposit: bool,
}

#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
struct Estimate {
    network: String,
    deployer: Address,
    contracts: Vec<ContractEstimate>,
    energy: i64,
    energy_fee_sun: i64,
    cost_trx: String,
    balance_trx: String,
}

#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
struct ContractEstimate {
    contract: String,
    state: &'static str,
    #[serde(skip_serializing_if = "Option::is_none")]
    address: Option<Address>,
    energy: i64,
}

#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
struct Done {
    network: String,
    config_file: PathBuf,
    deployment: contracts::Deployment,
    /// Who pays the pools' callers' energy, as the pools were created.
    sponsorship: Sponsorship,
    /// The transactions this run sent.
    transactions: Vec<Sent>,
    /// The deployment checked on chain (`deploy --check` runs the same).
    checks: Vec<Check>,
}

#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
struct Checked {
    network: String,
    deployment: contracts::Deployment,
    checks: Vec<Check>,
}

#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
struct Sponsorship {
    /// The percent of each call's energy the callers pay (the deployer's stake pays the rest).
    caller_energy_percent: i64,
    /// The most energy the deployer pays for one call.
    origin_energy_limit: i64,
}

#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
struct Sent {
    contract: String,
    address: Address,
    txid: TxId,
    energy: i64,
    fee_trx: String,
}

impl DeployArgs {
    pub async fn run(self, ctx: &Context) -> Result<()> {
        let settings = ctx.settings()?;
        let network = settings.network.value.clone();
        if network == crate::network::DEFAULT_NETWORK {
            return Err(Error::usage(
                "the devnet deploys its pools at genesis, with the insecure development keys; \
                 to rehearse a deployment, define a network for the devnet's node in the config \
                 file (node, usdt) and deploy there with a ceremony's zkey",
            ));
        }
        let existing = settings.deployment.value.clone();
        // Asked once: the keys' policy and the withdrawal check both depend on it.
        let devnet = super::ceremony::on_devnet(settings).await?;
        let keys = self.keys(ctx, existing.as_ref(), devnet)?;
        if self.check {
            let withdrawal = WithdrawalCheck {
                deposit: self.test_deposit,
                devnet,
            };
            return check(ctx, &network, existing, &keys, withdrawal).await;
        }
        let withdrawal = WithdrawalCheck {
            deposit: !self.no_test_deposit,
            devnet,
        };
        let usdt = settings.usdt.value.ok_or_else(|| {
            Error::usage(format!(
                "no USDT contract is known for {network}: set `usdt` in [networks.{network}] of \
                 {}",
                settings.config_file.value.display()
            ))
        })?;
        let insertion_fee = match &self.insertion_fee {
            None => None,
            Some(text) => Some(
                crate::service::inputs::parse_units(text, crate::service::inputs::USDT_DECIMALS)
                    .and_then(|v| u64::try_from(v).ok())
                    .ok_or_else(|| {
                        Error::usage(format!("--insertion-fee `{text}` is not an amount of USDT"))
                    })?,
            ),
        };
        let signer = key(ctx)?;
        let node = settings.node_client()?;
        let request = Request {
            insertion_fee,
            network: network.clone(),
            owner: signer.address(),
            usdt,
            denominations: self.denominations.clone(),
            chain_id: settings.chain_id,
            caller_energy_percent: self.caller_energy_percent,
            origin_energy_limit: self.origin_energy_limit,
        };
        let config_file = settings.config_file.value.clone();
        let save = |record: &DeploymentRecord| write_deployment(&config_file, &network, record);

        let checking = spinner(ctx, "checking the network and pricing each contract");
        let mut plan = deploy::plan(&node, &request, &keys, existing.clone()).await?;
        checking.finish_and_clear();
        if existing.as_ref().is_some_and(|e| *e != plan.record) {
            // A transaction an earlier run left pending has settled.
            save(&plan.record)?;
        }
        let estimate = estimate(&network, &plan);
        if self.dry_run {
            return ctx
                .out
                .result(&estimate, || estimate_text(&estimate, &plan));
        }
        if plan.is_done() {
            ctx.out.note(format!(
                "every contract is deployed on {network}; name new --denominations to add pools"
            ));
            return finish(ctx, &network, plan.record, Vec::new(), &keys, withdrawal).await;
        }
        ctx.out.note(estimate_text(&estimate, &plan));
        if plan.owner_trx < plan.cost() {
            return Err(Error::Refused(format!(
                "{} holds {} TRX; the deployment needs about {} TRX",
                plan.owner,
                trx_text(plan.owner_trx),
                trx_text(plan.cost())
            )));
        }
        let count = plan.to_do().count()
            + plan
                .steps
                .iter()
                .filter(|s| matches!(s.state, StepState::Pending(_)))
                .count();
        confirm(
            ctx,
            "deploy",
            &format!(
                "Deploy {count} contracts to {network} from {} for about {} TRX{}?",
                plan.owner,
                trx_text(plan.cost()),
                if withdrawal.deposit {
                    format!(
                        ", then deposit {} USDT as a test note (stored here, yours to \
                         withdraw) and insert it (a batch of one)",
                        plan.steps
                            .iter()
                            .filter_map(|s| match s.contract {
                                deploy::Contract::Pool(d) => Some(d),
                                _ => None,
                            })
                            .min()
                            .unwrap_or_default()
                    )
                } else {
                    String::new()
                }
            ),
        )?;

        let journal = journal(ctx)?;
        let mut sent = Vec::new();
        for index in 0..plan.steps.len() {
            let name = plan.steps[index].contract.name();
            let progress = spinner(ctx, &format!("deploying the {name}"));
            let desk = deploy::DeployDesk {
                node: &node,
                journal: &journal,
                keys: &keys,
            };
            let done =
                deploy::deploy_step(desk, &mut plan, index, |tx| Ok(tx.sign(&signer)?), save).await;
            progress.finish_and_clear();
            let Some(done) = done.map_err(|e| stopped(e, &name, &network))? else {
                continue;
            };
            ctx.out.note(format!(
                "deployed the {name} at {} ({} energy, {} TRX): {}",
                done.address,
                done.energy,
                trx_text(done.fee),
                done.txid
            ));
            sent.push(Sent {
                contract: name,
                address: done.address,
                txid: done.txid,
                energy: done.energy,
                fee_trx: trx_text(done.fee),
            });
        }
        finish(ctx, &network, plan.record, sent, &keys, withdrawal).await
    }

    /// The keys to deploy the verifiers with: `--zkey` and `--batch-zkey` (imported on the
    /// way), else the ones the record being resumed pins.
    fn keys(
        &self,
        ctx: &Context,
        existing: Option<&DeploymentRecord>,
        devnet: bool,
    ) -> Result<DeployKeys> {
        let settings = ctx.settings()?;
        let network = settings.network.value.as_str();
        if let (Some(zkey), Some(batch_zkey)) = (&self.zkey, &self.batch_zkey) {
            let batch_ptau = self.batch_ptau.as_deref().or(self.ptau.as_deref());
            let withdraw =
                self.import(ctx, zkey, self.ptau.as_deref(), devnet, Circuit::Withdraw)?;
            let batch = self.import(ctx, batch_zkey, batch_ptau, devnet, Circuit::Batch)?;
            return Ok(DeployKeys { withdraw, batch });
        }
        let Some(record) = existing else {
            return Err(Error::usage(
                "the verifiers need the ceremonies' keys: pass --zkey FILE and --batch-zkey FILE \
                 (docs/ceremony.md says how to run the ceremonies)",
            ));
        };
        let batch_pinned = record
            .batches
            .as_ref()
            .map(|b| b.verifying_key_sha256.as_str());
        let Some(batch_pinned) = batch_pinned else {
            return Err(Error::usage(format!(
                "the deployment recorded for {network} is of pools that insert each deposit at \
                 once, from before queued pools, which this tronpool no longer deploys; remove \
                 [networks.{network}.deployment] from the config file to deploy afresh"
            )));
        };
        let load = |pinned: &str, circuit: Circuit, flag: &str| -> Result<Keys> {
            let path = zkey_path(&settings.keys_dir(), pinned);
            if !path.exists() {
                return Err(Error::usage(format!(
                    "the deployment pins verifying key {pinned} for the {circuit} circuit, \
                     which is not imported here; import the {circuit} ceremony's zkey with \
                     `tronpool ceremony import FILE.zkey`, or pass it as {flag}"
                )));
            }
            check_usable(&path, network, devnet)?;
            let keys = Keys::read_zkey(&path).map_err(|e| Error::caused("the imported keys", e))?;
            if keys.circuit() != circuit {
                return Err(Error::usage(format!(
                    "{} holds keys for the {} circuit, not the {circuit} circuit",
                    path.display(),
                    keys.circuit()
                )));
            }
            Ok(keys)
        };
        Ok(DeployKeys {
            withdraw: load(&record.verifying_key_sha256, Circuit::Withdraw, "--zkey")?,
            batch: load(batch_pinned, Circuit::Batch, "--batch-zkey")?,
        })
    }

    /// Imports one of the zkeys given, for `circuit`.
    fn import(
        &self,
        ctx: &Context,
        path: &std::path::Path,
        ptau: Option<&std::path::Path>,
        devnet: bool,
        circuit: Circuit,
    ) -> Result<Keys> {
        let settings = ctx.settings()?;
        let network = settings.network.value.as_str();
        let loading = spinner(ctx, &format!("verifying the {circuit} circuit's zkey"));
        let request = ImportRequest {
            zkey: path,
            ptau,
            rehearsal: self.rehearsal,
            on_devnet: devnet,
            network,
            accepted: crate::network::accepted_ptau(network),
        };
        let imported = tokio::task::block_in_place(|| import_zkey(&request, &settings.keys_dir()));
        loading.finish_and_clear();
        let imported = imported?;
        if imported.keys.circuit() != circuit {
            return Err(Error::usage(format!(
                "{} holds keys for the {} circuit; the {} flag takes the {circuit} circuit's",
                path.display(),
                imported.keys.circuit(),
                match circuit {
                    Circuit::Withdraw => "--zkey",
                    Circuit::Batch => "--batch-zkey",
                }
            )));
        }
        if imported.record.rehearsal {
            ctx.out.warn(format!(
                "deploying with an INSECURE rehearsal key for the {circuit} circuit ({}): fine \
                 for a devnet, never for money",
                imported.record.insecure_because.join("; ")
            ));
        }
        Ok(imported.keys)
    }
}

/// `deploy --check`: the recorded deployment, checked on chain.
async fn check(
    ctx: &Context,
    network: &str,
    record: Option<DeploymentRecord>,
    keys: &DeployKeys,
    withdrawal: WithdrawalCheck,
) -> Result<()> {
    let record = record.ok_or_else(|| {
        Error::usage(format!(
            "no deployment is recorded for {network}: nothing to check"
        ))
    })?;
    let deployment = record
        .to_deployment(network)
        .map_err(|missing| Error::usage(format!("the recorded deployment lacks {missing}")))?;
    let checks = checked(ctx, network, &deployment, keys, withdrawal).await?;
    let out = Checked {
        network: network.to_owned(),
        deployment,
        checks,
    };
    crate::service::check::failures(&out.checks, deploy_check::NOT_OURS)?;
    ctx.out.result(&out, || checks_text(&out.checks))
}

/// How the withdrawal check that ends `deploy` (and `deploy --check`) runs.
#[derive(Clone, Copy)]
struct WithdrawalCheck {
    /// Deposit a test note when no note of these pools is stored here.
    deposit: bool,
    /// The node proved to be a tronpool devnet (asked once, before the keys were loaded).
    devnet: bool,
}

/// Runs the on-chain checks of `deployment`, each one shown as a note, and then, when they
/// pass, a withdrawal of a stored note of its pools simulated on the node (`withdrawal.deposit`:
/// depositing one first when there is none).
async fn checked(
    ctx: &Context,
    network: &str,
    deployment: &contracts::Deployment,
    keys: &DeployKeys,
    withdrawal: WithdrawalCheck,
) -> Result<Vec<Check>> {
    let settings = ctx.settings()?;
    let node = settings.node_client()?;
    let chain = Chain::new(
        network.to_owned(),
        node,
        deployment.clone(),
        std::time::Duration::ZERO,
    )
    .with_keys_dir(Some(settings.keys_dir()));
    // The withdrawal check proves with the deployment's keys: a rehearsal key may do so only
    // on a node that is a tronpool devnet, which the keys were already checked against.
    let chain = if withdrawal.devnet {
        chain.assume_devnet()
    } else {
        chain
    };
    let checking = spinner(ctx, "checking the deployment on chain");
    let checks = deploy_check::check_deployment(&chain, keys, settings.usdt.value).await;
    checking.finish_and_clear();
    let mut checks = checks?;
    ctx.out.note(checks_text(&checks));
    if checks.iter().any(|c| !c.ok) {
        return Ok(checks);
    }
    let withdrawn = withdrawal_check(ctx, &chain, withdrawal.deposit).await?;
    ctx.out.note(checks_text(std::slice::from_ref(&withdrawn)));
    checks.push(withdrawn);
    Ok(checks)
}

/// The withdrawal check: a stored note of the deployment's pools, or a test deposit made
/// now, withdrawn in a simulation.
async fn withdrawal_check(ctx: &Context, chain: &Chain, test_deposit: bool) -> Result<Check> {
    let store = notes(ctx)?;
    let trees = trees(ctx)?;
    let found = deploy_check::test_note(chain, &store)?;
    let (id, note) = match found {
        Some(found) => found,
        None if test_deposit => {
            let signer = key(ctx)?;
            let depositing = spinner(ctx, "making the test deposit");
            let journal = journal(ctx)?;
            let desk = Desk {
                chain,
                store: &store,
                journal: &journal,
                trees: &trees,
            };
            let made = deploy_check::test_deposit(desk, &signer).await;
            depositing.finish_and_clear();
            let made = made.map_err(|e| {
                e.with_hint(format!(
                    "the contracts are deployed and recorded: `tronpool --network {} \
                         deploy --check --test-deposit` makes the test deposit and the \
                         withdrawal check later",
                    chain.network
                ))
            })?;
            let (id, note) = (made.id, made.note);
            ctx.out.note(format!(
                "deposited test note {id} ({} USDT, yours: `tronpool withdraw {id} --to \
                 ADDRESS`): {}{}",
                note.meta().denomination(),
                made.txid,
                made.batch
                    .map(|txid| format!("; inserted it: {txid}"))
                    .unwrap_or_default()
            ));
            (id, note)
        }
        None => {
            return Ok(Check::skipped(
                "withdraw",
                format!(
                    "no deposited note of these pools is stored here; `tronpool --network {} \
                     deploy --check --test-deposit` deposits one and simulates its withdrawal",
                    chain.network
                ),
            ));
        }
    };
    let simulating = spinner(ctx, "simulating a withdrawal");
    let check = deploy_check::withdrawal(chain, &trees, id, &note, chain.deployment.deployer).await;
    simulating.finish_and_clear();
    check
}

fn checks_text(checks: &[Check]) -> String {
    checks
        .iter()
        .map(|c| {
            format!(
                "{} {}: {}",
                match (c.ok, c.skipped) {
                    (_, true) => "skip",
                    (true, false) => "ok  ",
                    (false, false) => "FAIL",
                },
                c.check,
                c.detail
            )
        })
        .collect::<Vec<_>>()
        .join("\n")
}

async fn finish(
    ctx: &Context,
    network: &str,
    record: DeploymentRecord,
    sent: Vec<Sent>,
    keys: &DeployKeys,
    withdrawal: WithdrawalCheck,
) -> Result<()> {
    // A record from before sponsorship made its pools' callers pay it all.
    let sponsorship = Sponsorship {
        caller_energy_percent: record.caller_energy_percent.unwrap_or(100),
        origin_energy_limit: record
            .origin_energy_limit
            .unwrap_or(deploy::UNSPONSORED_ORIGIN_ENERGY_LIMIT),
    };
    let deployment = record
        .to_deployment(network)
        .map_err(|missing| Error::Failed(format!("the deployment is still missing {missing}")))?;
    let checks = checked(ctx, network, &deployment, keys, withdrawal).await?;
    crate::service::check::failures(&checks, deploy_check::NOT_OURS)?;
    let done = Done {
        network: network.to_owned(),
        config_file: ctx.settings()?.config_file.value.clone(),
        deployment,
        sponsorship,
        transactions: sent,
        checks,
    };
    ctx.out.result(&done, || deployment_text(&done))
}

/// An error mid-deployment, of the same kind (and exit code), saying what is recorded and
/// how to go on.
fn stopped(error: Error, contract: &str, network: &str) -> Error {
    if matches!(error, Error::Interrupted) {
        return error;
    }
    error.with_hint(format!(
        "deploying the {contract} stopped: what was deployed is recorded, and \
         `tronpool --network {network} deploy` resumes"
    ))
}

fn estimate(network: &str, plan: &Plan) -> Estimate {
    Estimate {
        network: network.to_owned(),
        deployer: plan.owner,
        contracts: plan
            .steps
            .iter()
            .map(|s| ContractEstimate {
                contract: s.contract.name(),
                state: match s.state {
                    StepState::Deployed(_) => "deployed",
                    StepState::Pending(_) => "pending",
                    StepState::ToDo => "to deploy",
                },
                address: match s.state {
                    StepState::Deployed(a) => Some(a),
                    _ => None,
                },
                energy: s.energy,
            })
            .collect(),
        energy: plan.energy(),
        energy_fee_sun: plan.energy_fee,
        cost_trx: trx_text(plan.cost()),
        balance_trx: trx_text(plan.owner_trx),
    }
}

fn estimate_text(estimate: &Estimate, plan: &Plan) -> String {
    let mut rows = vec![[
        "contract".to_owned(),
        "state".to_owned(),
        "energy".to_owned(),
    ]];
    for c in &estimate.contracts {
        let state = match c.address {
            Some(a) => format!("deployed at {a}"),
            None => c.state.to_owned(),
        };
        rows.push([c.contract.clone(), state, c.energy.to_string()]);
    }
    format!(
        "{}{} energy at {} sun: about {} TRX burned (staked energy and free bandwidth \
         counted); {} holds {} TRX",
        table(&rows),
        estimate.energy,
        estimate.energy_fee_sun,
        estimate.cost_trx,
        plan.owner,
        estimate.balance_trx
    )
}

fn deployment_text(done: &Done) -> String {
    let d = &done.deployment;
    let mut rows = vec![
        ["usdt".to_owned(), d.usdt.to_string()],
        ["hasher".to_owned(), d.hasher.to_string()],
        ["verifier".to_owned(), d.verifier.to_string()],
    ];
    for pool in &d.pools {
        rows.push([
            format!("pool {}", pool.denomination),
            pool.address.to_string(),
        ]);
    }
    rows.push(["first block".to_owned(), d.block.to_string()]);
    rows.push(["verifying key".to_owned(), d.verifying_key_sha256.clone()]);
    format!(
        "tronpool is deployed on {}, recorded in {}:\n{}",
        done.network,
        done.config_file.display(),
        table(&rows)
    )
}
