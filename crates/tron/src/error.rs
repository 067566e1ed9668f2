//! Why a transaction could not be read, built or signed: the one error type every module of
//! the crate that reads transactions answers with, kept apart so that the readers of its parts
//! (hex, JSON, stake and settings contracts) need not import the transaction module that uses
//! them.

use crate::address::{Address, AddressError};
use crate::keys::KeyError;

/// Why a transaction could not be read, built or signed.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum TxError {
    #[error("missing field `{0}`")]
    MissingField(String),
    #[error("field `{field}` is not valid hex: {reason}")]
    BadHex { field: String, reason: String },
    #[error("field `{field}`: {source}")]
    BadAddress {
        field: String,
        #[source]
        source: AddressError,
    },
    #[error("field `{field}` must be an integer that fits in 64 bits")]
    BadNumber { field: String },
    #[error("field `{field}` has the wrong type: expected {expected}")]
    WrongType {
        field: String,
        expected: &'static str,
    },
    #[error("contract type {0} is not one tronpool can read or sign")]
    UnsupportedContract(String),
    #[error("a transaction must carry exactly one contract, this one has {0}")]
    ContractCount(usize),
    #[error("type_url `{found}` does not match contract type {kind}")]
    TypeUrlMismatch { found: String, kind: &'static str },
    #[error("raw_data_hex does not match raw_data: the transaction was altered or mis-encoded")]
    RawHexMismatch,
    #[error("txID {claimed} does not match the transaction's hash {computed}")]
    TxIdMismatch { claimed: String, computed: String },
    #[error("not a protobuf-encoded transaction: {0}")]
    BadProtobuf(String),
    #[error("signature {index}: {source}")]
    BadSignature {
        index: usize,
        #[source]
        source: KeyError,
    },
    #[error("the key {key} is not the owner {owner} of this transaction")]
    WrongSigner { key: Address, owner: Address },
    #[error("the transaction is already signed by {0}")]
    AlreadySigned(Address),
    #[error("the transaction expired at {expiration} (now {now}, times in ms)")]
    Expired { expiration: i64, now: i64 },
    #[error("{0}")]
    Invalid(String),
}

/// An address read from a protobuf field, named in the error when it is not one.
pub(crate) fn address_field(field: &str, bytes: &[u8]) -> Result<Address, TxError> {
    Address::from_tron_bytes(bytes).map_err(|source| TxError::BadAddress {
        field: field.to_owned(),
        source,
    })
}
