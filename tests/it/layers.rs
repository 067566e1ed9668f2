//! The layers of `src/` as docs/ARCHITECTURE.md writes them down, checked against the code:
//! every `crate::…` path in a module (its `use` lines, braces expanded, and inline paths;
//! comments and `#[cfg(test)]` modules left out) must be one its line in the `layers` block
//! allows, and inside `src/service` one to a module on a lower line of the `service-order`
//! block. The doc is the table; this test keeps the code to it, as `generated.rs` keeps the
//! man pages to the CLI.

use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};

/// The lines of the fenced block ```` ```NAME ```` in ARCHITECTURE.md.
fn block(doc: &str, name: &str) -> Vec<Vec<String>> {
    let start = doc
        .find(&format!("```{name}\n"))
        .unwrap_or_else(|| panic!("docs/ARCHITECTURE.md has no ```{name} block"));
    let body = &doc[start + name.len() + 4..];
    let end = body.find("```").expect("the block ends");
    body[..end]
        .lines()
        .map(|l| l.split_whitespace().map(str::to_owned).collect::<Vec<_>>())
        .filter(|words| !words.is_empty())
        .collect()
}

fn rust_files(dir: &Path, out: &mut Vec<PathBuf>) {
    for entry in std::fs::read_dir(dir).unwrap() {
        let path = entry.unwrap().path();
        if path.is_dir() {
            rust_files(&path, out);
        } else if path.extension().is_some_and(|e| e == "rs") {
            out.push(path);
        }
    }
}

/// The code of a file without its comments and its test module (`#[cfg(test)]` followed by
/// a `mod`; a test-only item elsewhere leaves the rest of the file in).
fn production_code(text: &str) -> String {
    let test_module = text
        .match_indices("#[cfg(test)]")
        .find(|(at, marker)| text[at + marker.len()..].trim_start().starts_with("mod "));
    let text = match test_module {
        Some((at, _)) => &text[..at],
        None => text,
    };
    text.lines()
        .map(|line| match line.find("//") {
            // A `//` inside a string (a URL) cuts the rest of the line; paths are not there.
            Some(at) => &line[..at],
            None => line,
        })
        .collect::<Vec<_>>()
        .join("\n")
}

/// Expands `{a::b, c::{d, e}}` after a prefix into whole paths.
fn expand(prefix: &str, tree: &str, out: &mut Vec<String>) {
    let tree = tree.trim();
    if let Some(inner) = tree.strip_prefix('{').and_then(|t| t.strip_suffix('}')) {
        let mut depth = 0;
        let mut part = String::new();
        for c in inner.chars() {
            match c {
                '{' => depth += 1,
                '}' => depth -= 1,
                _ => {}
            }
            if c == ',' && depth == 0 {
                expand(prefix, &part, out);
                part.clear();
            } else {
                part.push(c);
            }
        }
        if !part.trim().is_empty() {
            expand(prefix, &part, out);
        }
    } else if let Some(at) = tree.find("::{") {
        expand(&format!("{prefix}{}::", &tree[..at]), &tree[at + 2..], out);
    } else if !tree.is_empty() {
        out.push(format!("{prefix}{tree}"));
    }
}

/// Every `crate::…` path the code names, as its segments after `crate`.
fn crate_paths(code: &str) -> Vec<Vec<String>> {
    let mut paths = Vec::new();
    let mut rest = code;
    while let Some(at) = rest.find("use crate::") {
        let statement = &rest[at + "use crate::".len()..];
        let end = statement.find(';').expect("a use statement ends");
        expand("", &statement[..end].replace('\n', " "), &mut paths);
        rest = &statement[end..];
    }
    let mut rest = code;
    while let Some(at) = rest.find("crate::") {
        let before = rest[..at].chars().last();
        let after = &rest[at + "crate::".len()..];
        // `use crate::…` was read above; `$crate::` is a macro's.
        if !rest[..at].ends_with("use ") && before != Some('$') && !after.starts_with('{') {
            let path: String = after
                .chars()
                .take_while(|c| c.is_alphanumeric() || *c == '_' || *c == ':')
                .collect();
            paths.push(path);
        }
        rest = after;
    }
    paths
        .into_iter()
        .map(|p| {
            p.split("::")
                .map(|s| s.split(" as ").next().unwrap().trim().to_owned())
                .filter(|s| !s.is_empty())
                .collect()
        })
        .collect()
}

/// `src/service/chain.rs` → ("service", Some("chain")); `src/cli/deposit.rs` → ("cli", None).
fn module_of(src: &Path, file: &Path) -> (String, Option<String>) {
    let relative = file.strip_prefix(src).unwrap();
    let mut parts = relative.iter().map(|p| p.to_string_lossy().into_owned());
    let top = parts.next().unwrap();
    let top = top.strip_suffix(".rs").unwrap_or(&top).to_owned();
    let inner = if top == "service" {
        parts
            .next()
            .map(|p| p.strip_suffix(".rs").unwrap_or(&p).to_owned())
            // service/mod.rs only declares the modules.
            .filter(|m| m != "mod")
    } else {
        None
    };
    (top, inner)
}

/// What breaks the table in the tree at `src` (a test can point it at a scratch copy).
fn violations(src: &Path, doc: &str) -> Vec<String> {
    let allowed: BTreeMap<String, BTreeSet<String>> = block(doc, "layers")
        .into_iter()
        .map(|words| (words[0].clone(), words[1..].iter().cloned().collect()))
        .collect();
    let order: BTreeMap<String, usize> = block(doc, "service-order")
        .into_iter()
        .enumerate()
        .flat_map(|(line, words)| words.into_iter().map(move |w| (w, line)))
        .collect();
    // `crate::Error` and `crate::Result` are lib.rs's re-exports of error.rs.
    let reexports = ["Error", "Result"];
    let mut files = Vec::new();
    rust_files(src, &mut files);
    files.sort();
    let mut broken = Vec::new();
    for file in files {
        let (top, inner) = module_of(src, &file);
        if top == "lib" {
            continue;
        }
        let shown = file.strip_prefix(src).unwrap().display().to_string();
        let Some(may_use) = allowed.get(&top) else {
            broken.push(format!(
                "src/{shown}: module `{top}` has no line in the layers block"
            ));
            continue;
        };
        let line = inner.as_ref().map(|m| {
            *order.get(m).unwrap_or_else(|| {
                panic!("src/{shown}: service module `{m}` has no line in the service-order block")
            })
        });
        let code = production_code(&std::fs::read_to_string(&file).unwrap());
        for path in crate_paths(&code) {
            let Some(target) = path.first() else { continue };
            let target = if reexports.contains(&target.as_str()) {
                "error"
            } else {
                target.as_str()
            };
            if target != top && !may_use.contains(target) {
                broken.push(format!(
                    "src/{shown}: `crate::{}` — `{top}` may not use `{target}`",
                    path.join("::")
                ));
            }
            if let (Some(line), "service", Some(used)) = (line, target, path.get(1)) {
                if target == top && inner.as_deref() == Some(used.as_str()) {
                    continue;
                }
                match order.get(used) {
                    Some(&used_line) if used_line > line => {}
                    Some(_) => broken.push(format!(
                        "src/{shown}: `crate::{}` — service::{} may use only modules below \
                         its line",
                        path.join("::"),
                        inner.as_deref().unwrap_or("?")
                    )),
                    None => broken.push(format!(
                        "src/{shown}: `crate::{}` names a service module with no line",
                        path.join("::")
                    )),
                }
            }
        }
    }
    broken
}

fn repository() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

fn architecture() -> String {
    std::fs::read_to_string(repository().join("docs/ARCHITECTURE.md")).unwrap()
}

#[test]
fn every_import_in_src_keeps_the_layers_the_architecture_writes_down() {
    let broken = violations(&repository().join("src"), &architecture());
    assert!(
        broken.is_empty(),
        "imports that break docs/ARCHITECTURE.md's layers:\n{}",
        broken.join("\n")
    );
}

/// The check catches what it is for: a handler that opens the store, and a service module
/// that reaches up to one above it.
#[test]
fn an_api_file_that_imports_the_store_breaks_the_layers() {
    let doc = architecture();
    let scratch = tempfile::tempdir().unwrap();
    let src = scratch.path();
    std::fs::create_dir_all(src.join("api")).unwrap();
    std::fs::create_dir_all(src.join("service")).unwrap();
    std::fs::write(
        src.join("api/pools.rs"),
        "use crate::service::pools::Pool;\nuse crate::store::{notes::NoteStore, trees};\n",
    )
    .unwrap();
    std::fs::write(
        src.join("service/chain.rs"),
        "use crate::service::cache::Cached;\n// crate::service::open is only a comment\n\
         fn f() { crate::service::pools::word(); }\n\
         #[cfg(test)]\nmod tests { use crate::service::open::NetworkSpec; }\n",
    )
    .unwrap();
    let broken = violations(src, &doc);
    assert_eq!(broken.len(), 3, "{broken:#?}");
    assert!(broken[0].contains("`crate::store::notes::NoteStore` — `api` may not use `store`"));
    assert!(broken[1].contains("`crate::store::trees`"));
    assert!(broken[2].contains("`crate::service::pools::word` — service::chain may use only"));
}
