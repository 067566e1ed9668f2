//! Everything tronpool does, once: the CLI commands and the REST API both call in here.

pub mod tx;
