//! Everything tronpool does, once: the CLI commands and the REST API both call in here.

pub mod balances;
pub mod builders;
pub mod cache;
pub mod ceremony;
pub mod chain;
pub mod code_check;
pub mod deploy;
pub mod deploy_check;
pub mod deposit;
pub mod devnet_identity;
pub mod fees;
pub mod health;
pub mod inputs;
pub mod notes;
pub mod pools;
pub mod price;
pub mod recover;
pub mod relayer;
pub mod relayer_client;
pub mod relayer_fees;
pub mod seed;
pub mod sponsor;
pub mod stake;
pub mod submit;
pub mod sync;
pub mod tx;
