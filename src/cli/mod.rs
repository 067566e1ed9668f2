//! The command line: one file per subcommand, each parsing its arguments and calling the
//! service layer; `output` renders results.

pub mod approve;
pub mod balance;
pub mod ceremony;
pub mod config;
pub mod context;
pub mod deploy;
pub mod deposit;
pub mod devnet;
pub mod generate;
pub mod global;
pub mod input;
pub mod key;
pub mod mnemonic;
pub mod notes;
pub mod open;
pub mod output;
pub mod pool;
pub mod pools;
pub mod progress;
pub mod relay;
pub mod relay_collect;
pub mod secrets;
pub mod serve;
pub mod signing;
pub mod stake;
pub mod terminal;
pub mod tx;
pub mod withdraw;

use std::process::ExitCode;

use clap::{CommandFactory, FromArgMatches, Parser, Subcommand};

use crate::error::{Error, Result};
use context::Context;
use global::GlobalArgs;
use output::Output;

const AFTER_LONG_HELP: &str = "\
Exit status:
  0    success
  1    the operation failed
  2    bad usage, input or configuration
  3    the TRON node is unreachable or timed out (worth retrying)
  4    refused by the chain, the node or a relayer
  5    bad note or proof
  6    wrong or missing passphrase for the encrypted secrets
  130  interrupted

Environment:
  TRONPOOL_HOME         one folder for config.toml and data (keys, notes, caches)
  TRONPOOL_CONFIG       config file to read (like --config)
  TRONPOOL_NETWORK      network (like --network)
  TRONPOOL_NODE         node URL (like --node)
  TRONPOOL_API_KEY      TronGrid API key, sent as TRON-PRO-API-KEY
  TRONPOOL_KEY_FILE     private key file (like --key-file)
  TRONPOOL_PRIVATE_KEY  private key as hex (for CI; never pass a key as an argument)
  TRONPOOL_RELAYER_KEY_FILE, TRONPOOL_RELAYER_PRIVATE_KEY
                        the relayer's key for `serve` (a file, or hex)
  TRONPOOL_PASSPHRASE_FILE
                        a file holding the passphrase of the encrypted secrets
  TRONPOOL_DATABASE_URL, TRONPOOL_DATABASE_PASSWORD, TRONPOOL_DATABASE_CA
                        the PostgreSQL `serve` replicas share (like --database), its
                        password, and a PEM of CAs for its certificate (sslmode=require)
  TRONPOOL_JSON         print JSON (like --json)
  TRONPOOL_LOG          log filter, e.g. tronpool=debug (overrides -v/-q)
  TRONPOOL_LOG_FORMAT   text or json (like --log-format)
  NO_COLOR              no colors

Precedence: flags > environment > config file > defaults; `tronpool config show` says
where each value came from.";

/// A privacy pool for TRC-20 USDT on TRON.
#[derive(Debug, Parser)]
#[command(
    name = "tronpool",
    version,
    propagate_version = true,
    after_long_help = AFTER_LONG_HELP,
    disable_help_subcommand = true,
)]
pub(crate) struct Cli {
    #[command(flatten)]
    pub global: GlobalArgs,
    #[command(subcommand)]
    pub command: Command,
}

#[derive(Debug, Subcommand)]
pub enum Command {
    /// The pools of the network: balance, deposits, root and relayer fee
    Pools(pools::PoolsArgs),
    /// USDT and TRX of an account (default: yours), and what the pools may take
    Balance(balance::BalanceArgs),
    /// Let a pool take USDT for deposits
    Approve(approve::ApproveArgs),
    /// Deposit into a pool: makes a note per deposit and stores it before sending anything
    Deposit(deposit::DepositArgs),
    /// Withdraw a note to an address, signed and paid for by your key (links the two)
    Withdraw(withdraw::WithdrawArgs),
    /// A pool's settings: who pays its callers' energy
    #[command(subcommand)]
    Pool(pool::PoolCommand),
    /// Stake TRX for energy, release it, lend it to another account (Stake 2.0)
    #[command(subcommand)]
    Stake(stake::StakeCommand),
    /// Withdraw through a relayer that pays the energy (the private way), or ask its terms
    #[command(subcommand)]
    Relay(relay::RelayCommand),
    /// Your notes: list, show, export, import, check against the chain, recover from the
    /// mnemonic, report a deposit and its withdrawal
    #[command(subcommand)]
    Notes(notes::NotesCommand),
    /// Show and create the configuration
    #[command(subcommand)]
    Config(config::ConfigCommand),
    /// Create, import and inspect the signing key
    #[command(subcommand)]
    Key(key::KeyCommand),
    /// The mnemonic deposits derive their notes from: create or import it
    #[command(subcommand)]
    Mnemonic(mnemonic::MnemonicCommand),
    /// Encrypt the stored secrets (notes, key, mnemonic) with a passphrase, or see whether
    /// they are
    #[command(subcommand)]
    Secrets(secrets::SecretsCommand),
    /// Decode, sign and broadcast raw transactions (for external signers)
    #[command(subcommand)]
    Tx(tx::TxCommand),
    /// Deploy the hasher, the verifier and the pools to a network, and record them in the
    /// config file
    Deploy(deploy::DeployArgs),
    /// The trusted-setup ceremony: export the circuit, import its keys
    #[command(subcommand)]
    Ceremony(ceremony::CeremonyCommand),
    /// Serve the REST API (on the devnet with no node configured, with its own devnet)
    Serve(Box<serve::ServeArgs>),
    /// Run a local TRON chain with USDT and the pools deployed (java-tron's HTTP API)
    Devnet(devnet::DevnetArgs),
    /// Write shell completions and man pages
    #[command(hide = true)]
    Generate(generate::GenerateArgs),
}

impl Command {
    /// The async runtime's worker threads, where the command sets them (`serve --workers`);
    /// otherwise tokio's default, one per core.
    fn worker_threads(&self) -> Option<usize> {
        match self {
            Command::Serve(args) => args.workers(),
            _ => None,
        }
    }

    async fn run(self, ctx: &Context) -> Result<()> {
        match self {
            Command::Pools(args) => args.run(ctx).await,
            Command::Balance(args) => args.run(ctx).await,
            Command::Approve(args) => args.run(ctx).await,
            Command::Deposit(args) => args.run(ctx).await,
            Command::Withdraw(args) => args.run(ctx).await,
            Command::Relay(cmd) => cmd.run(ctx).await,
            Command::Stake(cmd) => cmd.run(ctx).await,
            Command::Pool(cmd) => cmd.run(ctx).await,
            Command::Notes(cmd) => cmd.run(ctx).await,
            Command::Config(cmd) => cmd.run(ctx),
            Command::Key(cmd) => cmd.run(ctx),
            Command::Mnemonic(cmd) => cmd.run(ctx),
            Command::Secrets(cmd) => cmd.run(ctx),
            Command::Tx(cmd) => cmd.run(ctx).await,
            Command::Deploy(args) => args.run(ctx).await,
            Command::Ceremony(cmd) => cmd.run(ctx).await,
            Command::Serve(args) => args.run(ctx).await,
            Command::Devnet(args) => args.run(ctx).await,
            Command::Generate(args) => args.run(ctx, Cli::command()),
        }
    }
}

/// The whole command line's definition, for the generated completions and man pages.
pub fn command() -> clap::Command {
    Cli::command()
}

/// Parses the command line, runs the command and turns the outcome into an exit status.
pub fn main() -> ExitCode {
    std::panic::set_hook(Box::new(|info| {
        let place = info
            .location()
            .map(|l| format!(" at {}:{}", l.file(), l.line()))
            .unwrap_or_default();
        let what = info
            .payload()
            .downcast_ref::<&str>()
            .map(|s| s.to_string())
            .or_else(|| info.payload().downcast_ref::<String>().cloned())
            .unwrap_or_default();
        eprintln!(
            "error: internal error{place}: {what} (this is a bug in tronpool; please report it)"
        );
    }));
    let matches = match Cli::command().try_get_matches() {
        Ok(m) => m,
        Err(e) => return usage_error(e),
    };
    let cli = match Cli::from_arg_matches(&matches) {
        Ok(cli) => cli,
        Err(e) => return usage_error(e),
    };
    let out = Output::new(&cli.global);
    // The daemons report what they do at info level; the other commands only warn.
    let daemon = matches!(cli.command, Command::Devnet(_) | Command::Serve(_));
    // Held to the end of `main`: dropping it writes out the log lines still queued.
    let _log_writer = match init_logging(&cli.global, daemon) {
        Ok(guard) => guard,
        Err(e) => {
            out.error(&e);
            return ExitCode::from(e.exit_code());
        }
    };
    let ctx = Context::new(cli.global.overrides(&matches), cli.global, out);
    let mut runtime = tokio::runtime::Builder::new_multi_thread();
    if let Some(workers) = cli.command.worker_threads() {
        runtime.worker_threads(workers);
    }
    let runtime = match runtime.enable_all().build() {
        Ok(rt) => rt,
        Err(e) => {
            let e = Error::os("cannot start the async runtime", e);
            out.error(&e);
            return ExitCode::from(e.exit_code());
        }
    };
    // The daemons stop on Ctrl-C themselves, cleanly (the devnet saves its state, the server
    // finishes its requests); everything else is interrupted.
    let result = runtime.block_on(async {
        if daemon {
            return cli.command.run(&ctx).await;
        }
        tokio::select! {
            result = cli.command.run(&ctx) => result,
            _ = tokio::signal::ctrl_c() => Err(Error::Interrupted),
        }
    });
    match result {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            out.error(&e);
            ExitCode::from(e.exit_code())
        }
    }
}

/// clap's own errors, as one line (and as the envelope when JSON was asked for), exit 2.
/// `--help` and `--version` print as usual and succeed.
fn usage_error(e: clap::Error) -> ExitCode {
    use clap::error::ErrorKind;
    if matches!(
        e.kind(),
        ErrorKind::DisplayHelp
            | ErrorKind::DisplayVersion
            | ErrorKind::DisplayHelpOnMissingArgumentOrSubcommand
    ) {
        let _ = e.print();
        return if e.kind() == ErrorKind::DisplayHelpOnMissingArgumentOrSubcommand {
            ExitCode::from(2)
        } else {
            ExitCode::SUCCESS
        };
    }
    let rendered = e.render().to_string();
    let first = rendered
        .lines()
        .find(|l| !l.trim().is_empty())
        .unwrap_or("bad usage")
        .trim()
        .trim_start_matches("error: ")
        .to_owned();
    let message = format!("{} (see --help)", redact_keys(&first));
    let json_wanted = std::env::args().any(|a| a == "--json")
        || std::env::var(crate::env_vars::JSON)
            .is_ok_and(|v| matches!(v.as_str(), "1" | "true" | "yes" | "on"));
    if json_wanted {
        println!(
            "{}",
            crate::envelope::error(&message, crate::error::Kind::Usage)
        );
    } else {
        eprintln!("error: {message}");
    }
    ExitCode::from(2)
}

/// Hides anything shaped like a private key (64 hex digits): clap echoes unexpected
/// arguments, and a key pasted as one must not end up in a terminal log.
fn redact_keys(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    let mut run = String::new();
    let flush = |run: &mut String, out: &mut String| {
        if run.len() >= 64 {
            out.push_str("<redacted>");
        } else {
            out.push_str(run);
        }
        run.clear();
    };
    for c in text.chars() {
        if c.is_ascii_hexdigit() {
            run.push(c);
        } else {
            flush(&mut run, &mut out);
            out.push(c);
        }
    }
    flush(&mut run, &mut out);
    out
}

/// Log lines a daemon may have waiting for the writer thread (each is a few hundred bytes).
const LOG_QUEUE: usize = 8_192;

/// Installs the log subscriber. A daemon's lines go to stderr through a writer thread (the
/// returned guard flushes it when dropped): `serve` logs a line per request, and a request
/// must not wait its turn on stderr's lock and `write` call; the writer thread takes every
/// line waiting and writes them in one call. Nothing is dropped: with [`LOG_QUEUE`] lines
/// waiting, a request waits for room. A command's few lines are written as they come.
fn init_logging(
    global: &GlobalArgs,
    daemon: bool,
) -> Result<Option<tracing_appender::non_blocking::WorkerGuard>> {
    use tracing_subscriber::EnvFilter;
    use tracing_subscriber::fmt::writer::BoxMakeWriter;
    let default = match (global.quiet, global.verbose) {
        (q, _) if q > 0 => "error",
        (_, 0) if daemon => "tronpool=info,devnet=info,warn",
        (_, 0) => "warn",
        (_, 1) => "tronpool=info,tron=info,warn",
        (_, 2) => "tronpool=debug,tron=debug,info",
        _ => "trace",
    };
    let filter = match std::env::var(crate::env_vars::LOG) {
        Ok(directives) if !directives.trim().is_empty() => EnvFilter::try_new(&directives)
            .map_err(|e| Error::usage(format!("{}: bad log filter: {e}", crate::env_vars::LOG)))?,
        _ => EnvFilter::new(default),
    };
    let ansi = !global.no_color
        && std::env::var_os("NO_COLOR").is_none_or(|v| v.is_empty())
        && std::io::IsTerminal::is_terminal(&std::io::stderr());
    let (writer, guard) = if daemon {
        let (writer, guard) = tracing_appender::non_blocking::NonBlockingBuilder::default()
            .lossy(false)
            .buffered_lines_limit(LOG_QUEUE)
            .thread_name("log-writer")
            .finish(std::io::BufWriter::new(std::io::stderr()));
        (BoxMakeWriter::new(writer), Some(guard))
    } else {
        (BoxMakeWriter::new(std::io::stderr), None)
    };
    let builder = tracing_subscriber::fmt()
        .with_env_filter(filter)
        .with_writer(writer);
    match global.log_format {
        // A collector wants every field and the time.
        global::LogFormat::Json => builder.json().with_current_span(false).init(),
        // A daemon's lines carry the time; a command's are read as they appear.
        global::LogFormat::Text if daemon => builder
            .with_ansi(ansi)
            .with_target(global.verbose > 1)
            .init(),
        global::LogFormat::Text => builder
            .with_ansi(ansi)
            .with_target(global.verbose > 1)
            .without_time()
            .init(),
    }
    Ok(guard)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn cli_definition_is_consistent() {
        Cli::command().debug_assert();
    }

    #[test]
    fn key_shaped_text_is_redacted() {
        let key = "2d8f68944bdbfbc0769542fba8fc2d2a3de67393334471624364c7006da2aa54";
        assert_eq!(
            redact_keys(&format!("unexpected argument '0x{key}' found")),
            "unexpected argument '0x<redacted>' found"
        );
        assert_eq!(redact_keys("short abc123 stays"), "short abc123 stays");
    }
}
