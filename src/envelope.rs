//! The `{ok, data}` / `{ok: false, error, kind}` envelope, shared by the API and `--json`, so
//! a script reads both the same way. `kind` names the failure's class (`refused`,
//! `bad_note`, …: [`crate::error::Kind::name`]), so a client maps an answer back to the error
//! it was, not just to its HTTP status.

use serde::Serialize;
use serde_json::{Value, json};

use crate::error::Kind;

pub fn ok<T: Serialize>(data: &T) -> Value {
    json!({ "ok": true, "data": data })
}

pub fn error(message: &str, kind: Kind) -> Value {
    json!({ "ok": false, "error": message, "kind": kind.name() })
}
