//! The user's directories: where tronpool keeps its configuration and its secrets.

pub mod config;
pub mod database;
pub mod db;
pub mod fs;
pub mod jobs;
pub mod journal;
pub mod keystore;
pub mod notes;
pub mod paths;
pub mod schema;
pub mod trees;
pub mod vault;
