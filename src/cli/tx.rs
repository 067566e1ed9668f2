//! `tronpool tx decode | sign | broadcast`: the path for transactions built elsewhere (our
//! API's `--unsigned` output, TronWeb, a node's builders) and signed here, or built here and
//! signed elsewhere.

use std::path::PathBuf;

use clap::{Args, Subcommand};
use serde::Serialize;

use crate::error::Result;
use crate::service::tx::{self, Summary};
use crate::units::format_trx;

use super::context::Context;
use super::input::{confirm, read_text};
use super::key::signing_key;
use super::output::rows;

#[derive(Debug, Subcommand)]
pub enum TxCommand {
    /// Show what a transaction does, who signed it and whether it is still valid
    ///
    /// Reads java-tron JSON (as TronWeb, a node or `tronpool --unsigned` write it),
    /// raw_data_hex, or the hex of a signed transaction.
    Decode(InputArgs),
    /// Sign a transaction with your key and print the signed JSON
    ///
    /// Refuses a key that is not the transaction's owner, an expired transaction, and JSON
    /// whose raw_data_hex or txID disagree with its raw_data.
    Sign(SignArgs),
    /// Submit a signed transaction to the node and print its txID
    Broadcast(InputArgs),
}

#[derive(Debug, Args)]
pub struct InputArgs {
    /// The transaction file (`-` or nothing for standard input)
    #[arg(value_name = "FILE")]
    input: Option<PathBuf>,
}

#[derive(Debug, Args)]
pub struct SignArgs {
    /// The transaction file (`-` or nothing for standard input)
    #[arg(value_name = "FILE")]
    input: Option<PathBuf>,
    /// Write the signed JSON here instead of standard output
    #[arg(short, long, value_name = "PATH")]
    out: Option<PathBuf>,
}

impl TxCommand {
    pub async fn run(self, ctx: &Context) -> Result<()> {
        match self {
            TxCommand::Decode(args) => decode(ctx, args),
            TxCommand::Sign(args) => sign(ctx, args),
            TxCommand::Broadcast(args) => broadcast(ctx, args).await,
        }
    }
}

fn read(input: Option<&std::path::Path>) -> Result<tx::ParsedTransaction> {
    tx::parse(&read_text(input, "the transaction")?)
}

fn decode(ctx: &Context, args: InputArgs) -> Result<()> {
    let parsed = read(args.input.as_deref())?;
    let summary = tx::summarize(&parsed.transaction)?;
    ctx.out.result(&summary, || describe(&summary))
}

fn sign(ctx: &Context, args: SignArgs) -> Result<()> {
    let mut parsed = read(args.input.as_deref())?;
    let (key, origin) = signing_key(ctx)?;
    tx::sign(&mut parsed.transaction, &key)?;
    let summary = tx::summarize(&parsed.transaction)?;
    ctx.out.note(format!(
        "signed {} {} with the {origin}",
        summary.kind, summary.tx_id
    ));
    let json = parsed.transaction.to_json(parsed.visible);
    if let Some(path) = &args.out {
        let mut text = serde_json::to_string_pretty(&json).expect("JSON values serialize");
        text.push('\n');
        std::fs::write(path, text).map_err(|e| crate::error::Error::io(path, e))?;
    }
    #[derive(Serialize)]
    #[serde(rename_all = "camelCase")]
    struct Out<'a> {
        tx_id: tron::TxId,
        transaction: &'a serde_json::Value,
    }
    let out = Out {
        tx_id: summary.tx_id,
        transaction: &json,
    };
    ctx.out.result(&out, || match &args.out {
        Some(path) => {
            ctx.out.note(format!("wrote {}", path.display()));
            String::new()
        }
        None => serde_json::to_string_pretty(&json).expect("JSON values serialize"),
    })
}

async fn broadcast(ctx: &Context, args: InputArgs) -> Result<()> {
    let parsed = read(args.input.as_deref())?;
    let summary = tx::summarize(&parsed.transaction)?;
    let settings = ctx.settings()?;
    ctx.out.note(describe(&summary));
    confirm(
        ctx,
        "tx broadcast",
        &format!(
            "Broadcast this transaction on {} ({})?",
            settings.network.value, settings.node.value
        ),
    )?;
    let node = settings.node_client()?;
    let txid = tx::broadcast(&node, &parsed.transaction).await?;
    #[derive(Serialize)]
    #[serde(rename_all = "camelCase")]
    struct Out {
        tx_id: tron::TxId,
    }
    ctx.out.result(&Out { tx_id: txid }, || txid.to_hex())
}

fn time(ms: i64) -> String {
    let Ok(ms) = u64::try_from(ms) else {
        return format!("{ms} ms");
    };
    let at = std::time::UNIX_EPOCH + std::time::Duration::from_millis(ms);
    format!("{} ({ms})", humantime::format_rfc3339_seconds(at))
}

/// The text form of a summary: one aligned row per fact.
fn describe(s: &Summary) -> String {
    let mut out: Vec<(&str, String)> = vec![
        ("txID", s.tx_id.to_hex()),
        ("type", s.kind.to_owned()),
        ("owner", s.owner.to_base58()),
    ];
    if let Some(to) = s.to {
        out.push(("to", to.to_base58()));
    }
    if let Some(contract) = s.contract {
        out.push(("contract", contract.to_base58()));
    }
    if let Some(call) = &s.call {
        out.push(("call", call.clone()));
    }
    if let Some(data) = &s.data {
        out.push((
            "data",
            if data.is_empty() {
                "(none)".into()
            } else {
                data.clone()
            },
        ));
    }
    out.push(("amount", format_trx(s.amount_sun)));
    if let Some(resource) = s.resource {
        out.push(("resource", resource.into()));
    }
    if s.fee_limit_sun != 0 {
        out.push(("fee limit", format_trx(s.fee_limit_sun)));
    }
    if let Some(memo) = &s.memo {
        out.push(("memo", memo.clone()));
    }
    out.push((
        "ref block",
        format!("{} / {}", s.ref_block_bytes, s.ref_block_hash),
    ));
    out.push(("timestamp", time(s.timestamp)));
    let mut expiration = time(s.expiration);
    if s.expired {
        expiration.push_str(", expired");
    }
    out.push(("expiration", expiration));
    if s.signatures.is_empty() {
        out.push(("signature", "(unsigned)".into()));
    }
    for sig in &s.signatures {
        let by = match sig.signer {
            Some(a) if a == s.owner => format!("by {a} (the owner)"),
            Some(a) => format!("by {a} (NOT the owner)"),
            None => "by nobody: not a valid signature".into(),
        };
        out.push(("signature", format!("{}… {by}", &sig.signature[..16])));
    }
    rows(&out)
}
