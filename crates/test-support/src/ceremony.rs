//! A snarkjs ceremony on the withdraw circuit's exported `.r1cs`, shared by every test and bench
//! that needs ceremony keys (`crates/zk/tests/ceremony.rs`, `crates/devnet/tests/ceremony.rs`,
//! `tests/it/cli_deploy.rs`, `benches/prove.rs`).
//!
//! Everything lives in `<target>/ceremony`, next to the build it tests: the r1cs, the ptau
//! and the zkey, cached by `tests/interop/ceremony.sh` (its first run takes minutes, later
//! ones a second). Needs node and `bash tests/interop/install.sh`.

use std::path::{Path, PathBuf};
use std::process::Command;
use std::sync::OnceLock;
use std::time::Instant;

pub use crate::interop::{snarkjs, text};

/// `<target>/ceremony`.
pub fn ceremony_dir() -> PathBuf {
    crate::target_dir().join("ceremony")
}

pub struct Ceremony {
    pub dir: PathBuf,
    pub r1cs: PathBuf,
    pub zkey: PathBuf,
    /// What `snarkjs groth16 setup` wrote, before any contribution.
    pub uncontributed: PathBuf,
    /// The Phase 1 transcript (power 13), prepared for Phase 2.
    pub ptau: PathBuf,
    /// What snarkjs printed, `zkey verify` included.
    pub log: PathBuf,
    pub verification_key: PathBuf,
}

/// Writes `bytes` to `path` through a rename, so a concurrent reader never sees half a file.
pub fn write_atomically(path: &Path, bytes: &[u8]) {
    let tmp = path.with_extension(format!("tmp{}", std::process::id()));
    std::fs::write(&tmp, bytes).unwrap_or_else(|e| panic!("{}: {e}", tmp.display()));
    std::fs::rename(&tmp, path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
}

/// Exports the r1cs and runs (or reuses) the ceremony on it, once per test binary.
pub fn ceremony() -> &'static Ceremony {
    static CEREMONY: OnceLock<Ceremony> = OnceLock::new();
    CEREMONY.get_or_init(|| {
        let dir = ceremony_dir();
        std::fs::create_dir_all(&dir).unwrap_or_else(|e| panic!("{}: {e}", dir.display()));
        let r1cs = dir.join("withdraw.r1cs");
        let bytes = zk::r1cs::withdraw_r1cs();
        if std::fs::read(&r1cs).ok().as_deref() != Some(bytes.as_slice()) {
            write_atomically(&r1cs, &bytes);
        }
        let script = crate::interop::dir().join("ceremony.sh");
        let started = Instant::now();
        let status = Command::new("bash")
            .arg(&script)
            .arg(&r1cs)
            .arg(&dir)
            .status()
            .unwrap_or_else(|e| panic!("cannot run bash {}: {e}", script.display()));
        assert!(
            status.success(),
            "{} failed ({status}); needs node and `bash tests/interop/install.sh`",
            script.display()
        );
        eprintln!(
            "ceremony ready in {:.1} s: {}",
            started.elapsed().as_secs_f64(),
            dir.display()
        );
        Ceremony {
            zkey: dir.join("withdraw.zkey"),
            uncontributed: dir.join("withdraw_0000.zkey"),
            ptau: dir.join("pot13_final.ptau"),
            log: dir.join("ceremony.log"),
            verification_key: dir.join("verification_key.json"),
            r1cs,
            dir,
        }
    })
}

/// A path as a snarkjs argument (the target directory's paths are UTF-8).
pub fn arg(path: &Path) -> &str {
    path.to_str()
        .unwrap_or_else(|| panic!("{} is not UTF-8", path.display()))
}
