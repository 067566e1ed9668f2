//! End-to-end tests of the `tronpool` binary, in one test binary to keep linking cheap.
#![allow(clippy::unwrap_used)] // a test fails by panicking: unwrapping is how it says so

mod api;
mod cli_config;
mod cli_deploy;
mod cli_devnet;
mod cli_key;
mod cli_notes;
mod cli_pool;
mod cli_serve;
mod cli_stake;
mod cli_sync;
mod cli_tty;
mod cli_tx;
mod code_check;
mod generated;
mod golden;
mod interop;
mod layers;
mod relayer;
mod relayer_reserve;
mod replicas;
mod soak;
mod support;
mod web;
