//! `tronpool notes list | show | export | import | check | recover | report`: the notes of
//! this network.
//!
//! `list`, `check`, `recover` and `report` never print a note's secret; `show` and `export`
//! do, on request, and `export` writes a file only readable by you (`--encrypted`: sealed
//! with a passphrase, which `import` opens).

use std::path::PathBuf;

use clap::{Args, Subcommand};
use serde::Serialize;

use crate::error::{Error, Result};
use crate::service::format::word_hex;
use crate::service::notes;
use crate::service::notes::{NoteCheck, commitment_of, parse_note};
use crate::service::recover;
use crate::store::notes::{NoteChange, NoteRecord};

use super::context::Context;
use super::input::{new_passphrase, read_text};
use super::open::{connect, given_note, notes, seed, trees};
use super::output::{rows, table};
use super::progress::bar;
use super::terminal::{hidden, passphrase_from_file};
use crate::service::recover::{PoolRecovery, Report};
use crate::service::seed::{Seed, normalize_mnemonic};
use crate::store::vault::PassphraseSealed;

/// What an encrypted notes backup is sealed as.
const BACKUP: &str = "notes-backup";

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
    /// Find every deposit made with the mnemonic (stored, or read from --from) in each pool,
    /// and which were withdrawn, and store their notes
    Recover(RecoverArgs),
    /// A note's deposit and the withdrawal it funded (amounts, times, txids, recipient),
    /// for an auditor; never the note itself
    Report(ReportArgs),
}

#[derive(Debug, Args)]
pub struct RecoverArgs {
    /// Read the mnemonic from this file (`-` for standard input) instead of the stored one;
    /// it is stored when none is
    #[arg(long, value_name = "FILE")]
    from: Option<PathBuf>,
    /// Stop looking in a pool after this many indices in a row with no deposit
    #[arg(long, value_name = "N", default_value_t = crate::service::recover::DEFAULT_GAP_LIMIT)]
    gap_limit: u32,
}

#[derive(Debug, Args)]
pub struct ReportArgs {
    /// The note's id (`tronpool notes list`)
    #[arg(value_name = "ID")]
    id: i64,
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
    /// Seal the file with a passphrase (argon2id, XChaCha20-Poly1305), read from
    /// TRONPOOL_PASSPHRASE_FILE or typed twice; `notes import` opens it
    #[arg(long, requires = "out")]
    encrypted: bool,
}

#[derive(Debug, Args)]
pub struct ImportArgs {
    /// The file of notes, or an encrypted backup (`-` or nothing: standard input)
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
            NotesCommand::Recover(args) => recover(ctx, args).await,
            NotesCommand::Report(args) => report(ctx, args).await,
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
        if args.encrypted {
            let passphrase = new_passphrase(ctx, "the backup")?;
            let sealed = PassphraseSealed::seal(&passphrase, BACKUP, text.as_bytes())?;
            crate::store::fs::write_private(path, sealed.to_json().as_bytes(), false)?;
        } else {
            crate::store::fs::write_private(path, text.as_bytes(), false)?;
        }
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
    let mut text = zeroize::Zeroizing::new(read_text(args.input.as_deref(), "the notes")?);
    if let Some(sealed) = PassphraseSealed::parse(&text) {
        if sealed.holds != BACKUP {
            return Err(Error::usage("that file is not a notes backup"));
        }
        let passphrase = match passphrase_from_file()? {
            Some(p) => p,
            None if ctx.interactive() => hidden("Passphrase of the backup")?,
            None => {
                return Err(Error::Locked(format!(
                    "the backup is encrypted: set {} or run at a terminal",
                    crate::env_vars::PASSPHRASE_FILE
                )));
            }
        };
        let opened = sealed.open(&passphrase)?;
        text = zeroize::Zeroizing::new(
            String::from_utf8(opened.to_vec())
                .map_err(|_| Error::usage("the backup does not hold text"))?,
        );
    }
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
        let hashes = notes::NoteHashes::of(note);
        let pool = chain.pool_address(note.meta().denomination())?;
        let record = match notes::store_note(&store, pool, (note, &hashes), "import") {
            Ok(id) => store.get(id)?,
            Err(Error::Conflict(why)) => {
                ctx.out.note(why);
                store.by_commitment(&word_hex(&commitment_of(note)))?
            }
            Err(e) => return Err(e),
        };
        let record =
            record.ok_or_else(|| Error::Failed("the note store lost a note just stored".into()))?;
        checks.push(notes::check_note(&chain, &store, &trees, &record).await?);
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
        checks.push(notes::check_note(&chain, &store, &trees, record).await?);
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

async fn recover(ctx: &Context, args: RecoverArgs) -> Result<()> {
    let seed = match &args.from {
        Some(path) => {
            let words = normalize_mnemonic(&zeroize::Zeroizing::new(read_text(
                Some(path),
                "the mnemonic",
            )?))?;
            let file = ctx.settings()?.dirs.mnemonic_file();
            if !file.exists() {
                crate::store::keystore::store_mnemonic(&file, &words, &*ctx.vault()?)?;
                ctx.out
                    .note(format!("the mnemonic is stored in {}", file.display()));
            }
            Seed::from_mnemonic(&words)?
        }
        None => seed(ctx)?.ok_or_else(|| {
            Error::usage(
                "no mnemonic stored: pass --from FILE (or `--from -` to pipe it), or run \
                 `tronpool mnemonic import` first",
            )
        })?,
    };
    let chain = connect(ctx).await?;
    let store = notes(ctx)?;
    let trees = trees(ctx)?;
    let progress = bar(ctx, "syncing");
    let pools = recover::recover(
        &chain,
        &store,
        &trees,
        &seed,
        args.gap_limit,
        &|denomination, p| {
            progress.set_message(format!("syncing the {denomination} USDT pool"));
            progress.set_length(p.target);
            progress.set_position(p.have);
        },
    )
    .await?;
    progress.finish_and_clear();
    ctx.out.result(&pools, || describe_recovery(&pools))
}

fn describe_recovery(pools: &[PoolRecovery]) -> String {
    let found: usize = pools.iter().map(|p| p.found.len()).sum();
    if found == 0 {
        return "no deposits made with this mnemonic were found\n".into();
    }
    let mut out = vec![[
        "ID".to_owned(),
        "DENOM".into(),
        "INDEX".into(),
        "LEAF".into(),
        "STATE".into(),
        "".into(),
    ]];
    for pool in pools {
        for f in &pool.found {
            out.push([
                f.id.to_string(),
                format!("{} USDT", pool.denomination),
                f.index.to_string(),
                f.leaf_index.to_string(),
                f.state.as_str().into(),
                if f.restored {
                    "restored"
                } else {
                    "already stored"
                }
                .into(),
            ]);
        }
    }
    table(&out)
}

async fn report(ctx: &Context, args: ReportArgs) -> Result<()> {
    let store = notes(ctx)?;
    let record = store.get(args.id)?.ok_or_else(|| {
        Error::NotFound(format!("no note {} (see `tronpool notes list`)", args.id))
    })?;
    let chain = connect(ctx).await?;
    let report = recover::report(&chain, &record).await?;
    ctx.out.result(&report, || describe_report(&report))
}

fn describe_report(r: &Report) -> String {
    let when = |t: Option<i64>| t.map_or("-".to_owned(), time);
    let text = |t: &Option<String>| t.clone().unwrap_or_else(|| "-".into());
    let mut lines = vec![
        ("note", r.id.to_string()),
        ("network", r.network.clone()),
        ("pool", format!("{} ({} USDT)", r.pool, r.denomination)),
        ("state", r.state.as_str().into()),
        ("commitment", r.commitment.clone()),
        ("nullifier hash", r.nullifier_hash.clone()),
    ];
    match &r.deposit {
        Some(d) => {
            lines.push(("deposit tx", d.txid.clone()));
            lines.push(("deposit time", when(d.time)));
            lines.push(("deposit amount", format!("{} USDT", d.amount)));
            lines.push(("deposit from", d.from.map_or("-".into(), |a| a.to_base58())));
            lines.push(("leaf", d.leaf_index.map_or("-".into(), |l| l.to_string())));
        }
        None => lines.push(("deposit", "not known here".into())),
    }
    if let Some(b) = &r.inserted_by {
        lines.push(("inserted by batch", b.txid.clone()));
        lines.push(("batch time", when(Some(b.time))));
        lines.push((
            "batch leaves",
            format!("{} to {}", b.start, b.start + b.count.saturating_sub(1)),
        ));
        lines.push(("batch sender", b.submitter.to_base58()));
    }
    match &r.withdrawal {
        Some(w) => {
            lines.push(("withdrawal tx", w.txid.clone()));
            lines.push(("withdrawal time", when(w.time)));
            lines.push(("recipient", text(&w.recipient)));
            lines.push((
                "received",
                w.received
                    .as_ref()
                    .map_or("-".into(), |a| format!("{a} USDT")),
            ));
            lines.push((
                "fee",
                w.fee.as_ref().map_or("-".into(), |a| format!("{a} USDT")),
            ));
            lines.push(("relayer", text(&w.relayer)));
        }
        None if r.withdrawn => lines.push((
            "withdrawal",
            "spent, by a transaction not made here (unknown)".into(),
        )),
        None => lines.push(("withdrawal", "none: not withdrawn".into())),
    }
    rows(&lines)
}
