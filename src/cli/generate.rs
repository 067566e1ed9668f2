//! The hidden `tronpool generate`: shell completions and man pages, rendered from the same
//! clap definitions as `--help`, committed in `completions/` and `man/` and kept in sync by a
//! test.

use std::collections::BTreeMap;
use std::path::PathBuf;

use clap::Args;
use clap_complete::Shell;

use crate::error::{Error, Result};

use super::context::Context;

#[derive(Debug, Args)]
pub struct GenerateArgs {
    /// Folder to write completions/ and man/ into
    #[arg(long, value_name = "DIR", default_value = ".")]
    out_dir: PathBuf,
}

impl GenerateArgs {
    /// `cli` is the whole command line's definition, which the dispatcher above hands down.
    pub fn run(self, ctx: &Context, cli: clap::Command) -> Result<()> {
        let files = render(cli);
        for (name, bytes) in &files {
            let path = self.out_dir.join(name);
            if let Some(parent) = path.parent() {
                std::fs::create_dir_all(parent).map_err(|e| Error::io(parent, e))?;
            }
            std::fs::write(&path, bytes).map_err(|e| Error::io(&path, e))?;
        }
        let names: Vec<&String> = files.keys().collect();
        ctx.out
            .result(&names, || format!("wrote {} files", files.len()))
    }
}

/// Every generated file of the command line `cli` ([`super::command`]) by its path relative to
/// the repository root.
pub fn render(cli: clap::Command) -> BTreeMap<String, Vec<u8>> {
    let mut files = BTreeMap::new();
    for (shell, name) in [
        (Shell::Bash, "tronpool.bash"),
        (Shell::Zsh, "_tronpool"),
        (Shell::Fish, "tronpool.fish"),
        (Shell::PowerShell, "_tronpool.ps1"),
    ] {
        let mut buf = Vec::new();
        clap_complete::generate(shell, &mut cli.clone(), "tronpool", &mut buf);
        files.insert(format!("completions/{name}"), buf);
    }
    let mut cmd = cli.disable_help_subcommand(true);
    cmd.build();
    man_pages(&cmd, &mut files);
    files
}

fn man_pages(cmd: &clap::Command, files: &mut BTreeMap<String, Vec<u8>>) {
    for sub in cmd.get_subcommands().filter(|s| !s.is_hide_set()) {
        man_pages(sub, files);
    }
    let man = clap_mangen::Man::new(cmd.clone());
    let mut buf = Vec::new();
    man.render(&mut buf)
        .expect("rendering into memory cannot fail");
    files.insert(format!("man/{}", man.get_filename()), buf);
}
