//! tronpool: a privacy pool for TRC-20 USDT on TRON. The binary's command line, its REST API
//! and its devnet all live here, over one service layer.

pub mod api;
pub mod cli;
pub mod env_vars;
pub mod envelope;
pub mod error;
pub mod network;
pub mod service;
pub mod settings;
pub mod shutdown;
pub mod store;
pub mod units;

pub use error::{Error, Result};
