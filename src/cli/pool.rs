//! `tronpool pool sponsor --denom N`: who pays a pool's callers' energy (its deployer's stake,
//! up to a limit per call, or its callers). `tronpool pool sync`: bring the cached leaves and
//! withdrawals of the pools up to date. `tronpool pool insert --denom N`: insert a queued
//! pool's waiting deposits with batch proofs, paid by the signing key.

use clap::{Args, Subcommand};
use serde::Serialize;
use tron::TxId;

use crate::error::Result;
use crate::service::format::six_decimals_text;
use crate::service::insert::{self, Inserted};
use crate::service::pools;
use crate::service::sponsor;
use crate::service::sponsor::Sponsorship;

use super::context::Context;
use super::input::confirm;
use super::open::{Needs, Session, connect, key, trees};
use super::output::rows;
use super::progress::spinner;
use super::progress::sync;
use super::signing::sign_and_confirm;

#[derive(Debug, Subcommand)]
pub enum PoolCommand {
    /// Change who pays the pool's callers' energy (only its deployer can); without a change,
    /// show it
    Sponsor(SponsorArgs),
    /// Bring the cached deposits and withdrawals of the pools up to date (from the sources
    /// of --sync-from) and check the tree's root with the pool
    Sync(SyncArgs),
    /// Insert the pool's queued deposits into its tree with batch proofs, paid by your key
    /// (each batch's insertion fees are credited to you; `tronpool relay collect` collects
    /// them)
    Insert(InsertArgs),
}

#[derive(Debug, Args)]
pub struct InsertArgs {
    /// The pool: its denomination in USDT
    #[arg(long, value_name = "N")]
    denom: u64,
}

#[derive(Debug, Args)]
pub struct SyncArgs {
    /// Only this pool: its denomination in USDT (default: every pool)
    #[arg(long, value_name = "N")]
    denom: Option<u64>,
}

#[derive(Debug, Args)]
pub struct SponsorArgs {
    /// The pool: its denomination in USDT
    #[arg(long, value_name = "N")]
    denom: u64,
    /// The percent of each call's energy the pool's callers pay (0: the deployer's stake pays
    /// it all, up to --origin-energy-limit; what the stake cannot cover falls back to them)
    #[arg(long, value_name = "P")]
    caller_energy_percent: Option<i64>,
    /// The most energy the deployer pays for one call
    #[arg(long, value_name = "ENERGY")]
    origin_energy_limit: Option<i64>,
}

#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
struct Sponsored {
    txids: Vec<TxId>,
    #[serde(flatten)]
    sponsorship: Sponsorship,
}

impl PoolCommand {
    pub async fn run(self, ctx: &Context) -> Result<()> {
        match self {
            PoolCommand::Sponsor(args) => sponsor(ctx, args).await,
            PoolCommand::Sync(args) => sync_pools(ctx, args).await,
            PoolCommand::Insert(args) => insert(ctx, args).await,
        }
    }
}

async fn sync_pools(ctx: &Context, args: SyncArgs) -> Result<()> {
    let chain = connect(ctx).await?;
    let trees = trees(ctx)?;
    let denominations = match args.denom {
        Some(denomination) => {
            chain.denomination(denomination)?;
            vec![denomination]
        }
        None => chain.denominations(),
    };
    let mut reports = Vec::new();
    for denomination in denominations {
        reports.push(sync(ctx, &chain, &trees, denomination).await?.report());
    }
    ctx.out.result(&reports, || {
        reports
            .iter()
            .map(|r| {
                format!(
                    "{} USDT pool: {} deposits in the tree, {} queued ({} new), {} \
                     withdrawals, root {} (from {})",
                    r.denomination, r.leaves, r.queued, r.fetched, r.withdrawals, r.root, r.source
                )
            })
            .collect::<Vec<_>>()
            .join("\n")
    })
}

async fn insert(ctx: &Context, args: InsertArgs) -> Result<()> {
    let needs = Needs {
        pool: Some(args.denom),
        key: true,
        ..Needs::default()
    };
    let session = Session::open(ctx, needs).await?;
    let key = session
        .key
        .as_ref()
        .expect("the key is read when asked for");
    let inserted = insert_queued(ctx, &session, key, args.denom).await?;
    ctx.out.result(&inserted, || {
        if inserted.is_empty() {
            return format!("the {} USDT pool has no deposits waiting", args.denom);
        }
        inserted
            .iter()
            .map(|b| {
                format!(
                    "inserted deposits {}..{} of the {} USDT pool ({} still queued): {}",
                    b.start,
                    b.start + b.count - 1,
                    b.denomination,
                    b.queued,
                    b.txid.map(|t| t.to_hex()).unwrap_or_default()
                )
            })
            .collect::<Vec<_>>()
            .join("\n")
    })
}

/// Sends batches until nothing waits in the pool of `denomination` (one per block of 32),
/// each proved, simulated and confirmed before it is signed.
pub(super) async fn insert_queued(
    ctx: &Context,
    session: &Session<'_>,
    key: &tron::PrivateKey,
    denomination: u64,
) -> Result<Vec<Inserted>> {
    let mut done = Vec::new();
    loop {
        let proving = spinner(ctx, "proving the batch");
        let prepared = insert::prepare(
            (&session.chain, &session.trees),
            denomination,
            key.address(),
        )
        .await;
        proving.finish_and_clear();
        let (synced, Some(batch)) = prepared? else {
            return Ok(done);
        };
        confirm(
            ctx,
            "pool insert",
            &format!(
                "Insert deposits {}..{} of the {denomination} USDT pool, paid by {}? ({}; the \
                 batch earns {} USDT of insertion fees)",
                batch.start,
                batch.start + batch.count - 1,
                key.address(),
                batch.built.estimate.describe(),
                six_decimals_text(batch.fees)
            ),
        )?;
        let txid = sign_and_confirm(
            &session.chain,
            batch.built.transaction.clone(),
            key,
            "the batch",
        )
        .await?;
        pools::pool_changed(&session.chain, denomination);
        done.push(batch.inserted(&synced, Some(txid)));
    }
}

async fn sponsor(ctx: &Context, args: SponsorArgs) -> Result<()> {
    let chain = connect(ctx).await?;
    let mut txids = Vec::new();
    if args.caller_energy_percent.is_some() || args.origin_energy_limit.is_some() {
        let key = key(ctx)?;
        let txs = sponsor::sponsor_transactions(
            &chain,
            key.address(),
            args.denom,
            args.caller_energy_percent,
            args.origin_energy_limit,
        )
        .await?;
        let mut change = Vec::new();
        if let Some(p) = args.caller_energy_percent {
            change.push(format!("its callers pay {p}% of each call's energy"));
        }
        if let Some(limit) = args.origin_energy_limit {
            change.push(format!(
                "{} pays at most {limit} energy a call",
                key.address()
            ));
        }
        confirm(
            ctx,
            "pool sponsor",
            &format!(
                "On {}, for the {} USDT pool: {}?",
                chain.network,
                args.denom,
                change.join(", and ")
            ),
        )?;
        for tx in txs {
            txids.push(sign_and_confirm(&chain, tx, &key, "the pool's setting").await?);
        }
    }
    let sponsorship = sponsor::sponsorship(&chain, args.denom).await?;
    let out = Sponsored { txids, sponsorship };
    ctx.out.result(&out, || {
        let s = &out.sponsorship;
        rows(&[
            ("pool", format!("{} USDT: {}", s.denomination, s.pool)),
            ("sponsor", s.sponsor.to_base58()),
            (
                "callers pay",
                format!("{}% of each call's energy", s.caller_energy_percent),
            ),
            (
                "sponsor pays",
                format!("the rest, at most {} energy a call", s.origin_energy_limit),
            ),
        ])
    })
}
