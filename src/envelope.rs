//! The `{ok, data}` / `{ok: false, error}` envelope, shared by the API and `--json`, so a
//! script reads both the same way.

use serde::Serialize;
use serde_json::{Value, json};

pub fn ok<T: Serialize>(data: &T) -> Value {
    json!({ "ok": true, "data": data })
}

pub fn error(message: &str) -> Value {
    json!({ "ok": false, "error": message })
}
