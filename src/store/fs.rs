//! File writes that neither leak nor tear: secrets are created 0600 inside 0700 folders, and
//! every write goes to a temporary file that is synced and renamed into place, so a crash
//! leaves either the old file or the new one, never half of one.

use std::fs;
use std::io::Write;
use std::path::Path;

use crate::error::{Error, Result, StoreError};

/// Creates `dir` (and its parents) and makes `dir` itself private to the user.
pub(crate) fn create_private_dir(dir: &Path) -> Result<()> {
    fs::create_dir_all(dir).map_err(|e| Error::io(dir, e))?;
    set_mode(dir, 0o700)
}

#[cfg(unix)]
fn set_mode(path: &Path, mode: u32) -> Result<()> {
    use std::os::unix::fs::PermissionsExt;
    fs::set_permissions(path, fs::Permissions::from_mode(mode)).map_err(|e| Error::io(path, e))
}

#[cfg(not(unix))]
fn set_mode(_path: &Path, _mode: u32) -> Result<()> {
    Ok(())
}

/// Writes `contents` to `path` atomically with mode 0600, refusing to replace an existing file
/// unless `overwrite`. The parent folder is created private (0700) when missing.
pub(crate) fn write_private(path: &Path, contents: &[u8], overwrite: bool) -> Result<()> {
    let dir = path
        .parent()
        .filter(|p| !p.as_os_str().is_empty())
        .unwrap_or(Path::new("."));
    if !dir.exists() {
        create_private_dir(dir)?;
    }
    if !overwrite && path.exists() {
        return Err(StoreError::occupied(format!(
            "{} already exists; refusing to overwrite it",
            path.display()
        )));
    }
    let file_name = path
        .file_name()
        .map(|n| n.to_string_lossy().into_owned())
        .unwrap_or_else(|| "file".into());
    let tmp = dir.join(format!(".{file_name}.{}.tmp", std::process::id()));
    let result = (|| {
        let mut options = fs::OpenOptions::new();
        options.write(true).create_new(true);
        #[cfg(unix)]
        {
            use std::os::unix::fs::OpenOptionsExt;
            options.mode(0o600);
        }
        let mut file = options.open(&tmp).map_err(|e| Error::io(&tmp, e))?;
        file.write_all(contents).map_err(|e| Error::io(&tmp, e))?;
        file.sync_all().map_err(|e| Error::io(&tmp, e))?;
        if overwrite {
            fs::rename(&tmp, path).map_err(|e| Error::io(path, e))?;
        } else {
            // A hard link fails if the target appeared meanwhile: no race can clobber a file.
            fs::hard_link(&tmp, path).map_err(|e| Error::io(path, e))?;
            let _ = fs::remove_file(&tmp);
        }
        sync_dir(dir);
        Ok(())
    })();
    if result.is_err() {
        let _ = fs::remove_file(&tmp);
    }
    result
}

/// Makes the rename durable (on Unix a folder's entries are synced through the folder).
fn sync_dir(dir: &Path) {
    #[cfg(unix)]
    if let Ok(d) = fs::File::open(dir) {
        let _ = d.sync_all();
    }
    #[cfg(not(unix))]
    let _ = dir;
}

/// True when others than the owner may read the file.
#[cfg(unix)]
pub(crate) fn readable_by_others(path: &Path) -> bool {
    use std::os::unix::fs::PermissionsExt;
    fs::metadata(path)
        .map(|m| m.permissions().mode() & 0o077 != 0)
        .unwrap_or(false)
}

#[cfg(not(unix))]
pub(crate) fn readable_by_others(_path: &Path) -> bool {
    false
}
