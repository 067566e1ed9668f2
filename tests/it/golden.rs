//! Golden copies of the wire formats that must not change by accident: `openapi.json`'s
//! paths and schemas as `GET /api/openapi.json` serves them, and the exit code of every
//! error kind. A move of the code (issue work that only restructures) keeps them byte for
//! byte; a change of the format is a deliberate update of the golden file, seen in review.
//! Update with `UPDATE_GOLDEN=1 cargo test --test it golden`.

use std::path::Path;

use tronpool::error::{Error, Kind};

fn check(name: &str, text: &str) {
    let path = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/golden")
        .join(name);
    if std::env::var_os("UPDATE_GOLDEN").is_some() {
        std::fs::create_dir_all(path.parent().unwrap()).unwrap();
        std::fs::write(&path, text).unwrap();
    }
    let golden = std::fs::read_to_string(&path)
        .unwrap_or_else(|e| panic!("{}: {e}; run UPDATE_GOLDEN=1", path.display()));
    assert!(
        golden == text,
        "{name} differs from tests/golden/{name}: if the change is meant, run \
         `UPDATE_GOLDEN=1 cargo test --test it golden` and commit the file"
    );
}

#[test]
fn the_openapi_document_is_the_golden_one() {
    let spec = tronpool::api::openapi::spec();
    let text = serde_json::to_string_pretty(spec).unwrap() + "\n";
    check("openapi.json", &text);
}

#[test]
fn every_error_kind_keeps_its_exit_code_and_status() {
    let mut text = String::from("kind exit http\n");
    // Interrupted is not made from a message: it is pinned by itself below.
    for kind in Kind::ALL.into_iter().filter(|k| *k != Kind::Interrupted) {
        let error = Error::of_kind(kind, "m".into());
        text.push_str(&format!(
            "{} {} {}\n",
            kind.name(),
            error.exit_code(),
            error.http_status()
        ));
    }
    let interrupted = Error::Interrupted;
    text.push_str(&format!(
        "{} {} {}\n",
        interrupted.kind().name(),
        interrupted.exit_code(),
        interrupted.http_status()
    ));
    check("exit-codes.txt", &text);
}
