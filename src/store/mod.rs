//! The user's directories: where tronpool keeps its configuration and its secrets.

pub mod config;
pub mod coordination;
pub mod database;
pub mod db;
pub mod fs;
pub mod jobs;
pub mod journal;
pub mod keystore;
pub mod notes;
pub mod paths;
pub mod pg;
pub mod schema;
pub mod sql;
pub mod sql_error;
pub mod trees;
pub mod vault;
