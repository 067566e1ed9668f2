//! `tronpool notes list | show | export | import | check`: the notes of this network.
//!
//! `list` and `check` never print a note's secret; `show` and `export` do, on request, and
//! `export` writes a file only readable by you.

use std::path::PathBuf;

use clap::{Args, Subcommand};
use serde::Serialize;

use crate::error::{Error, Result};
use crate::service::notes::{NoteCheck, commitment_of, parse_note};
use crate::service::pools::word_hex;
use crate::store::notes::{NoteChange, NoteRecord};

use super::Context;
use super::input::read_text;
use super::output::{rows, table};
use super::session::{connect, given_note, notes, trees};

#[derive(Debug, Subcommand)]
pub enum NotesCommand {
    /// Every note with its state (created, deposited, withdrawn, failed); no secrets
    List,
    /// One note: its record, its history and its text (the secret)
    Show(ShowArgs),
    /// Every note's text, one per line, to back them up
    Export(ExportArgs),
    /// Store notes from a file or stdin (one per line), then check them against the chain
    Import(ImportArgs),
    /// Ask the chain what became of each note (or of the ones named)
    Check(CheckArgs),
}

#[derive(Debug, Args)]
pub struct ShowArgs {
    /// The note: its id, `-` to read its text from stdin, or the text
    #[arg(value_name = "NOTE")]
    note: String,
}

#[derive(Debug, Args)]
pub struct ExportArgs {
    /// Write to this file (created readable only by you) instead of stdout
    #[arg(short, long, value_name = "PATH")]
    out: Option<PathBuf>,
}

#[derive(Debug, Args)]
pub struct ImportArgs {
    /// The file of notes (`-` or nothing: standard input)
    #[arg(value_name = "FILE")]
    input: Option<PathBuf>,
}

#[derive(Debug, Args)]
pub struct CheckArgs {
    /// Note ids (default: every note)
    #[arg(value_name = "ID")]
    ids: Vec<i64>,
}

impl NotesCommand {
    pub async fn run(self, ctx: &Context) -> Result<()> {
        match self {
            NotesCommand::List => list(ctx),
            NotesCommand::Show(args) => show(ctx, args),
            NotesCommand::Export(args) => export(ctx, args),
            NotesCommand::Import(args) => import(ctx, args).await,
            NotesCommand::Check(args) => check(ctx, args).await,
        }
    }
}

fn short(text: &Option<String>) -> String {
    match text {
        Some(t) if t.len() > 12 => format!("{}…", &t[..12]),
        Some(t) => t.clone(),
        None => "-".into(),
    }
}

fn time(ms: i64) -> String {
    let at = std::time::UNIX_EPOCH + std::time::Duration::from_millis(ms.max(0) as u64);
    humantime::format_rfc3339_seconds(at).to_string()
}

fn list(ctx: &Context) -> Result<()> {
    let records = notes(ctx)?.list()?;
    ctx.out.result(&records, || {
        if records.is_empty() {
            return "no notes on this network yet (`tronpool deposit` makes them)".into();
        }
        let mut out = vec![[
            "ID".to_owned(),
            "DENOM".into(),
            "STATE".into(),
            "LEAF".into(),
            "DEPOSIT TX".into(),
            "WITHDRAW TX".into(),
            "CREATED".into(),
        ]];
        for r in &records {
            out.push([
                r.id.to_string(),
                format!("{} USDT", r.denomination),
                r.state.as_str().into(),
                r.leaf_index.map_or("-".into(), |l| l.to_string()),
                short(&r.deposit_txid),
                short(&r.withdraw_txid),
                time(r.created_at),
            ]);
        }
        table(&out)
    })
}

#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
struct Shown {
    #[serde(flatten)]
    record: NoteRecord,
    note: String,
    history: Vec<NoteChange>,
}

fn show(ctx: &Context, args: ShowArgs) -> Result<()> {
    let store = notes(ctx)?;
    let given = given_note(ctx, &store, &args.note)?;
    let record = given.record.ok_or_else(|| {
        Error::NotFound("that note is not stored here (`tronpool notes import` stores it)".into())
    })?;
    let shown = Shown {
        note: store.text(record.id)?.to_string(),
        history: store.history(record.id)?,
        record,
    };
    ctx.out.result(&shown, || {
        let r = &shown.record;
        let mut lines = vec![
            ("id", r.id.to_string()),
            ("denomination", format!("{} USDT", r.denomination)),
            ("pool", r.pool.clone()),
            ("state", r.state.as_str().into()),
            ("commitment", r.commitment.clone()),
            ("nullifier hash", r.nullifier_hash.clone()),
            ("leaf", r.leaf_index.map_or("-".into(), |l| l.to_string())),
            ("deposit tx", r.deposit_txid.clone().unwrap_or("-".into())),
            ("withdraw tx", r.withdraw_txid.clone().unwrap_or("-".into())),
            ("recipient", r.recipient.clone().unwrap_or("-".into())),
        ];
        if let Some(error) = &r.error {
            lines.push(("error", error.clone()));
        }
        for change in &shown.history {
            lines.push((
                "history",
                format!(
                    "{} {} {}",
                    time(change.at),
                    change.state.as_str(),
                    change.detail
                ),
            ));
        }
        lines.push(("note", shown.note.clone()));
        rows(&lines)
    })
}

#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
struct Exported {
    id: i64,
    denomination: u64,
    state: &'static str,
    note: String,
}

fn export(ctx: &Context, args: ExportArgs) -> Result<()> {
    let store = notes(ctx)?;
    let mut exported = Vec::new();
    for record in store.list()? {
        exported.push(Exported {
            id: record.id,
            denomination: record.denomination,
            state: record.state.as_str(),
            note: store.text(record.id)?.to_string(),
        });
    }
    let text: String = exported
        .iter()
        .map(|e| {
            format!(
                "# note {} ({} USDT, {})\n{}\n",
                e.id, e.denomination, e.state, e.note
            )
        })
        .collect();
    if let Some(path) = &args.out {
        crate::store::fs::write_private(path, text.as_bytes(), false)?;
        ctx.out.note(format!(
            "wrote {} notes to {} (readable only by you)",
            exported.len(),
            path.display()
        ));
        #[derive(Serialize)]
        struct Written {
            path: PathBuf,
            count: usize,
        }
        return ctx.out.result(
            &Written {
                path: path.clone(),
                count: exported.len(),
            },
            String::new,
        );
    }
    ctx.out.result(&exported, || text.clone())
}

async fn import(ctx: &Context, args: ImportArgs) -> Result<()> {
    let text = zeroize::Zeroizing::new(read_text(args.input.as_deref(), "the notes")?);
    let network = ctx.settings()?.network.value.clone();
    // Every line is read before anything is stored: one bad note stores none.
    let mut parsed = Vec::new();
    for (number, line) in text.lines().enumerate() {
        let line = line.trim();
        if line.is_empty() || line.starts_with('#') {
            continue;
        }
        let note =
            parse_note(line).map_err(|e| Error::BadNote(format!("line {}: {e}", number + 1)))?;
        if note.meta().network() != network {
            return Err(Error::BadNote(format!(
                "line {}: the note is for network `{}`, not `{network}`",
                number + 1,
                note.meta().network()
            )));
        }
        parsed.push(note);
    }
    if parsed.is_empty() {
        return Err(Error::usage("no notes in the input"));
    }
    let chain = connect(ctx).await?;
    let store = notes(ctx)?;
    let trees = trees(ctx)?;
    let mut checks = Vec::new();
    for note in &parsed {
        let record = match chain.store_note(&store, note, "import") {
            Ok(id) => store.get(id)?,
            Err(Error::Conflict(why)) => {
                ctx.out.note(why);
                store.by_commitment(&word_hex(&commitment_of(note)))?
            }
            Err(e) => return Err(e),
        };
        let record =
            record.ok_or_else(|| Error::Failed("the note store lost a note just stored".into()))?;
        checks.push(chain.check_note(&store, &trees, &record).await?);
    }
    ctx.out.result(&checks, || describe_checks(&checks))
}

async fn check(ctx: &Context, args: CheckArgs) -> Result<()> {
    let store = notes(ctx)?;
    let records = if args.ids.is_empty() {
        store.list()?
    } else {
        args.ids
            .iter()
            .map(|&id| {
                store.get(id)?.ok_or_else(|| {
                    Error::NotFound(format!("no note {id} (see `tronpool notes list`)"))
                })
            })
            .collect::<Result<Vec<_>>>()?
    };
    let chain = connect(ctx).await?;
    let trees = trees(ctx)?;
    let mut checks = Vec::new();
    for record in &records {
        checks.push(chain.check_note(&store, &trees, record).await?);
    }
    ctx.out.result(&checks, || describe_checks(&checks))
}

fn describe_checks(checks: &[NoteCheck]) -> String {
    if checks.is_empty() {
        return "no notes to check".into();
    }
    let mut out = vec![[
        "ID".to_owned(),
        "DENOM".into(),
        "STATE".into(),
        "LEAF".into(),
        "WITHDRAWABLE".into(),
        "NOTE".into(),
    ]];
    for c in checks {
        let mut detail = c.detail.clone().unwrap_or_default();
        if let Some(was) = c.was {
            detail = format!("was {}; {detail}", was.as_str());
        }
        out.push([
            c.id.to_string(),
            format!("{} USDT", c.denomination),
            c.state.as_str().into(),
            c.leaf_index.map_or("-".into(), |l| l.to_string()),
            if c.withdrawable { "yes" } else { "no" }.into(),
            detail.trim_end_matches("; ").into(),
        ]);
    }
    table(&out)
}
