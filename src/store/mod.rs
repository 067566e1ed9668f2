//! The user's directories: where tronpool keeps its configuration and its secrets.

pub mod config;
pub mod fs;
pub mod jobs;
pub mod keystore;
pub mod paths;
