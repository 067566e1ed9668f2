//! What a command opens from its context: the connection to the chain, the network's stores,
//! the signing key, and the note it is given.

use std::sync::Arc;

use tron::{Address, PrivateKey};

use crate::error::{Error, Result};
use crate::service::chain::Chain;
use crate::service::desk::Desk;
use crate::service::format::word_hex;
use crate::service::journal::Journal;
use crate::service::notes::parse_note;
use crate::service::open;
use crate::service::price::PriceSource;
use crate::service::relayer_fees::Pricing;
use crate::service::seed::Seed;
use crate::service::withdraw::GivenNote;
use crate::settings::Settings;
use crate::store::database::Database;
use crate::store::notes::NoteStore;
use crate::store::trees::TreeCache;

use super::context::Context;
use super::input::read_text;
use super::key::signing_key_from;

/// What a command works with, each part opened once and here: the chain, the network's
/// stores, and when the command needs them the mnemonic's seed, the note it was given and
/// the signing key. The command hands [`Session::desk`] to a service workflow.
pub(crate) struct Session<'a> {
    /// The resolved settings the session was opened with.
    pub settings: &'a Settings,
    pub chain: Arc<Chain>,
    pub notes: NoteStore,
    pub journal: Journal,
    pub trees: TreeCache,
    pub seed: Option<Seed>,
    /// The NOTE argument, read and checked.
    pub note: Option<GivenNote>,
    pub key: Option<PrivateKey>,
}

/// What a command needs beyond the chain and the stores.
#[derive(Debug, Clone, Copy, Default)]
pub struct Needs<'n> {
    /// A pool that must exist on this network: refused before any store is opened.
    pub pool: Option<u64>,
    /// The mnemonic's seed, when one is stored.
    pub seed: bool,
    /// A NOTE argument ([`given_note`]): read, and refused when this network has no pool for
    /// it, before the key is read.
    pub note: Option<&'n str>,
    /// The signing key (a line on stderr says whose it is).
    pub key: bool,
}

impl<'a> Session<'a> {
    pub async fn open(ctx: &'a Context, needs: Needs<'_>) -> Result<Self> {
        let settings = ctx.settings()?;
        let vault = ctx.vault()?;
        let chain = open::connect(settings).await?;
        if let Some(denomination) = needs.pool {
            chain.pool_address(denomination)?;
        }
        let database = Database::open(&settings.database())?;
        let seed = match needs.seed {
            true => Seed::stored(&settings.dirs.mnemonic_file(), &vault)?,
            false => None,
        };
        let notes = database.notes(vault.clone());
        let note = match needs.note {
            Some(arg) => {
                let given = given_note(ctx, &notes, arg)?;
                chain.pool_address(given.note.meta().denomination())?;
                Some(given)
            }
            None => None,
        };
        let key = match needs.key {
            true => {
                let (key, origin) = signing_key_from(settings, &vault, ctx.interactive())?;
                ctx.out
                    .note(format!("signing as {} ({origin})", key.address()));
                Some(key)
            }
            false => None,
        };
        Ok(Session {
            settings,
            chain: Arc::new(chain),
            notes,
            journal: Journal::new(database.journal()),
            trees: database.trees(),
            seed,
            note,
            key,
        })
    }

    /// A session for a command given a NOTE argument `note`, and the note: read, and refused
    /// when bad, before the key (opened when `key`).
    pub async fn with_note(ctx: &'a Context, note: &str, key: bool) -> Result<(Self, GivenNote)> {
        let needs = Needs {
            note: Some(note),
            key,
            ..Needs::default()
        };
        let mut session = Session::open(ctx, needs).await?;
        let given = session
            .note
            .take()
            .expect("the note is read when asked for");
        Ok((session, given))
    }

    pub(crate) fn desk(&self) -> Desk<'_> {
        Desk {
            chain: &self.chain,
            store: &self.notes,
            journal: &self.journal,
            trees: &self.trees,
        }
    }
}

/// Connects to the configured network's node ([`open::connect`]).
pub async fn connect(ctx: &Context) -> Result<Chain> {
    open::connect(ctx.settings()?).await
}

/// What a relay costs by this client's own reckoning: the default fee policy at the price
/// the configuration names (on the devnet, its pair).
pub fn pricing(settings: &Settings, chain: &Chain) -> Result<Pricing> {
    let source = PriceSource::resolve(settings.price_source.value.as_deref(), chain)?;
    Ok(Pricing::with_source(source))
}

pub fn notes(ctx: &Context) -> Result<NoteStore> {
    NoteStore::open(&ctx.settings()?.database(), ctx.vault()?)
}

/// The network's submit journal: what this machine signed and is seeing to the chain.
pub fn journal(ctx: &Context) -> Result<Journal> {
    Journal::open(&ctx.settings()?.database())
}

/// The stored mnemonic's derivation key, if a mnemonic is stored (opening it asks for the
/// passphrase when the secrets are encrypted).
pub fn seed(ctx: &Context) -> Result<Option<Seed>> {
    Seed::stored(&ctx.settings()?.dirs.mnemonic_file(), &*ctx.vault()?)
}

pub fn trees(ctx: &Context) -> Result<TreeCache> {
    TreeCache::open(&ctx.settings()?.database())
}

/// The key to sign with, and a line on stderr saying whose it is.
pub fn key(ctx: &Context) -> Result<PrivateKey> {
    let (key, origin) = super::key::signing_key(ctx)?;
    ctx.out
        .note(format!("signing as {} ({origin})", key.address()));
    Ok(key)
}

/// The address a transaction comes from: `--from`, else the signing key's.
pub fn owner(ctx: &Context, from: Option<Address>) -> Result<Address> {
    match from {
        Some(address) => Ok(address),
        None => Ok(key(ctx)?.address()),
    }
}

/// Reads a NOTE argument. The note's text as an argument is accepted (a script that holds
/// the text rather than a stored note's id needs it), with a warning: arguments land in shell
/// history and process lists.
pub(crate) fn given_note(ctx: &Context, store: &NoteStore, arg: &str) -> Result<GivenNote> {
    let text = if arg == "-" {
        zeroize::Zeroizing::new(read_text(None, "the note")?)
    } else if let Ok(id) = arg.parse::<i64>() {
        let record = store.get(id)?;
        let text = store.text(id)?;
        return Ok(GivenNote::new(parse_note(&text)?, record));
    } else {
        if arg.trim_start().starts_with("tronpool-") {
            ctx.out.warn(
                "the note was given as an argument, where shell history and process lists can \
                 see it; prefer its id from `tronpool notes list`, or `-` to read it from stdin",
            );
        }
        zeroize::Zeroizing::new(arg.to_owned())
    };
    let note = parse_note(&text)?;
    let network = &ctx.settings()?.network.value;
    if note.meta().network() != network {
        return Err(Error::BadNote(format!(
            "the note is for network `{}`, not `{network}` (pass --network {})",
            note.meta().network(),
            note.meta().network()
        )));
    }
    let mut given = GivenNote::new(note, None);
    given.record = store.by_commitment(&word_hex(&given.hashes.commitment))?;
    Ok(given)
}
