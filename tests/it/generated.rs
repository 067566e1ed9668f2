//! The committed completions and man pages match what the binary generates. Regenerate with
//! `UPDATE_GENERATED=1 cargo test --test it generated` (or `tronpool generate`).

use std::collections::BTreeSet;
use std::path::Path;

#[test]
fn completions_and_man_pages_are_current() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let files = tronpool::cli::generate::render(tronpool::cli::command());
    if std::env::var_os("UPDATE_GENERATED").is_some() {
        for dir in ["completions", "man"] {
            let _ = std::fs::remove_dir_all(root.join(dir));
        }
        for (name, bytes) in &files {
            let path = root.join(name);
            std::fs::create_dir_all(path.parent().unwrap()).unwrap();
            std::fs::write(path, bytes).unwrap();
        }
    }
    let mut stale = Vec::new();
    for (name, bytes) in &files {
        match std::fs::read(root.join(name)) {
            Ok(committed) if committed == *bytes => {}
            Ok(_) => stale.push(format!("{name} differs")),
            Err(_) => stale.push(format!("{name} is missing")),
        }
    }
    let expected: BTreeSet<&str> = files.keys().map(String::as_str).collect();
    for dir in ["completions", "man"] {
        for entry in std::fs::read_dir(root.join(dir))
            .into_iter()
            .flatten()
            .flatten()
        {
            let name = format!("{dir}/{}", entry.file_name().to_string_lossy());
            if !expected.contains(name.as_str()) {
                stale.push(format!("{name} is no longer generated"));
            }
        }
    }
    assert!(
        stale.is_empty(),
        "generated files are stale ({}); run `UPDATE_GENERATED=1 cargo test --test it generated`",
        stale.join(", ")
    );
    assert!(files.contains_key("man/tronpool-tx-sign.1"));
    assert!(files.contains_key("completions/_tronpool"));
}

#[test]
fn generate_command_writes_the_same_files() {
    let env = crate::support::TestEnv::new();
    let out_dir = env.path("gen");
    env.cmd()
        .args(["generate", "--out-dir"])
        .arg(&out_dir)
        .assert()
        .success();
    for (name, bytes) in tronpool::cli::generate::render(tronpool::cli::command()) {
        assert_eq!(std::fs::read(out_dir.join(&name)).unwrap(), bytes, "{name}");
    }
}
