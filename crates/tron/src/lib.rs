//! The TRON protocol as tronpool needs it, written against java-tron's sources and checked
//! against tronpy and TronWeb: addresses, canonical transaction encoding and txIDs, signatures,
//! the JSON shapes of java-tron's HTTP API, TRC-20 ABI bindings, and an HTTP client for a
//! FullNode and TronGrid's event API.

pub mod abi;
pub mod address;
pub mod client;
mod error;
mod hexutil;
pub mod json;
pub mod keys;
pub mod proto;
pub mod settings;
pub mod stake;
pub mod transaction;

pub use address::{Address, AddressError};
pub use client::{NodeClient, NodeConfig, NodeError};
pub use error::TxError;
pub use hexutil::decode_node_text;
pub use keys::{KeyError, PrivateKey, Signature};
pub use settings::ContractSetting;
pub use stake::{Resource, Stake};
pub use transaction::{Action, RefBlock, Transaction, TransactionBuilder, Trigger, TxId};
