//! Every environment variable tronpool reads, in one place.

/// One folder for both the config file and the data (keys, notes, caches).
pub const HOME: &str = "TRONPOOL_HOME";
/// The config file to read instead of the default one.
pub(crate) const CONFIG: &str = "TRONPOOL_CONFIG";
/// The network to use.
pub(crate) const NETWORK: &str = "TRONPOOL_NETWORK";
/// A node URL that overrides the network's.
pub const NODE: &str = "TRONPOOL_NODE";
/// A TronGrid API key, sent as `TRON-PRO-API-KEY`.
pub(crate) const API_KEY: &str = "TRONPOOL_API_KEY";
/// A proxy for every node, relayer and sync request (like --proxy).
pub(crate) const PROXY: &str = "TRONPOOL_PROXY";
/// Where pools are synced from, in order (like --sync-from).
pub(crate) const SYNC_FROM: &str = "TRONPOOL_SYNC_FROM";
/// A file holding the private key to sign with.
pub(crate) const KEY_FILE: &str = "TRONPOOL_KEY_FILE";
/// The private key itself, hex. For CI; prefer a key file elsewhere.
pub(crate) const PRIVATE_KEY: &str = "TRONPOOL_PRIVATE_KEY";
/// Print the JSON envelope instead of text.
pub const JSON: &str = "TRONPOOL_JSON";
/// Log filter directives (overrides -v/-q).
pub(crate) const LOG: &str = "TRONPOOL_LOG";
/// Log line format: text or json (like --log-format).
pub(crate) const LOG_FORMAT: &str = "TRONPOOL_LOG_FORMAT";
/// The relayer's private key file (like `serve --relayer-key-file`).
pub(crate) const RELAYER_KEY_FILE: &str = "TRONPOOL_RELAYER_KEY_FILE";
/// The relayer's private key as hex. For containers; prefer a key file.
pub(crate) const RELAYER_PRIVATE_KEY: &str = "TRONPOOL_RELAYER_PRIVATE_KEY";
/// A file holding the passphrase that unlocks the encrypted secrets (for scripts).
pub(crate) const PASSPHRASE_FILE: &str = "TRONPOOL_PASSPHRASE_FILE";
/// The PostgreSQL database `serve` keeps what its replicas share in (like `serve
/// --database`; a password is welcome here, not on the command line).
pub(crate) const DATABASE_URL: &str = "TRONPOOL_DATABASE_URL";
/// The password for the database URL, when the URL has none.
pub(crate) const DATABASE_PASSWORD: &str = "TRONPOOL_DATABASE_PASSWORD";
/// A PEM file of CA certificates the database's certificate may chain to, besides the
/// system's (a private CA), for `sslmode=require`.
pub(crate) const DATABASE_CA: &str = "TRONPOOL_DATABASE_CA";
