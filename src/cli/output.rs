//! stdout carries the result and nothing else; everything for the person at the terminal
//! (notes, warnings, prompts, errors in text mode) goes to stderr.

use std::io::{IsTerminal, Write};

use serde::Serialize;

use crate::envelope;
use crate::error::{Error, Result};

use super::global::GlobalArgs;

#[derive(Debug, Clone, Copy)]
pub struct Output {
    pub json: bool,
    pub quiet: bool,
    color: bool,
}

impl Output {
    pub fn new(global: &GlobalArgs) -> Self {
        let color = !global.no_color
            && !global.json
            && std::env::var_os("NO_COLOR").is_none_or(|v| v.is_empty())
            && std::io::stderr().is_terminal();
        Output {
            json: global.json,
            quiet: global.quiet > 0,
            color,
        }
    }

    /// Prints a result: the envelope in JSON mode, else `text`.
    pub fn result<T: Serialize>(&self, data: &T, text: impl FnOnce() -> String) -> Result<()> {
        if self.json {
            self.stdout(&format!("{}\n", envelope::ok(data)))
        } else {
            let mut text = text();
            if !text.is_empty() && !text.ends_with('\n') {
                text.push('\n');
            }
            self.stdout(&text)
        }
    }

    /// Writes to stdout; a closed pipe (`| head`) is not an error.
    pub fn stdout(&self, text: &str) -> Result<()> {
        let mut out = std::io::stdout().lock();
        match out.write_all(text.as_bytes()).and_then(|()| out.flush()) {
            Err(e) if e.kind() != std::io::ErrorKind::BrokenPipe => {
                Err(Error::os("cannot write to stdout", e))
            }
            _ => Ok(()),
        }
    }

    /// A line for the person, on stderr, unless `-q` or `--json`.
    pub fn note(&self, text: impl AsRef<str>) {
        if !self.quiet && !self.json {
            eprintln!("{}", text.as_ref());
        }
    }

    /// A warning on stderr, shown even in JSON mode (stdout stays clean).
    pub(crate) fn warn(&self, text: impl AsRef<str>) {
        if !self.quiet {
            let prefix = if self.color {
                "\x1b[33mwarning\x1b[0m"
            } else {
                "warning"
            };
            eprintln!("{prefix}: {}", text.as_ref());
        }
    }

    /// Reports a failure: the error envelope on stdout in JSON mode, one line on stderr otherwise.
    pub fn error(&self, error: &Error) {
        let message = one_line(&error.to_string());
        if self.json {
            let _ = self.stdout(&format!("{}\n", envelope::error(&message, error.kind())));
        } else {
            let prefix = if self.color {
                "\x1b[31merror\x1b[0m"
            } else {
                "error"
            };
            eprintln!("{prefix}: {message}");
        }
    }
}

/// Folds a message onto one line (node messages and parse errors can carry newlines).
pub(crate) fn one_line(message: &str) -> String {
    message
        .lines()
        .map(str::trim)
        .filter(|l| !l.is_empty())
        .collect::<Vec<_>>()
        .join("; ")
}

/// `label  value` rows with the values aligned.
pub fn rows(rows: &[(&str, String)]) -> String {
    let width = rows.iter().map(|(k, _)| k.len()).max().unwrap_or(0);
    rows.iter()
        .map(|(k, v)| format!("{k:width$}  {v}\n"))
        .collect()
}

/// Columns separated by two spaces, each as wide as its widest cell; the first row is the
/// header.
pub fn table<const N: usize>(rows: &[[String; N]]) -> String {
    let widths: Vec<usize> = (0..N)
        .map(|c| rows.iter().map(|r| r[c].chars().count()).max().unwrap_or(0))
        .collect();
    let mut out = String::new();
    for row in rows {
        let line: Vec<String> = row
            .iter()
            .zip(&widths)
            .map(|(cell, &w)| format!("{cell:w$}"))
            .collect();
        out.push_str(line.join("  ").trim_end());
        out.push('\n');
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn rows_align_and_lines_fold() {
        assert_eq!(
            rows(&[("a", "1".into()), ("long", "2".into())]),
            "a     1\nlong  2\n"
        );
        assert_eq!(one_line("first\n\n  second \n"), "first; second");
    }
}
