//! A snarkjs ceremony on each circuit's exported `.r1cs` (withdraw and batch), shared by every
//! test and bench that needs ceremony keys (`crates/zk/tests/ceremony.rs`,
//! `crates/zk/tests/batch_ceremony.rs`, `crates/devnet/tests/ceremony.rs`,
//! `tests/it/cli_deploy.rs`, `benches/prove.rs`).
//!
//! Everything lives in `<target>/ceremony`, next to the build it tests: the r1cs, the ptaus
//! and the zkeys, cached by `tests/interop/ceremony.sh` (its first run takes minutes, later
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
    pub circuit: zk::circuits::Circuit,
    pub dir: PathBuf,
    pub r1cs: PathBuf,
    pub zkey: PathBuf,
    /// What `snarkjs groth16 setup` wrote, before any contribution.
    pub uncontributed: PathBuf,
    /// The Phase 1 transcript, prepared for Phase 2: one of power [`PTAU_POWER`] for both
    /// circuits.
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

/// The withdraw circuit's ceremony: exports the r1cs and runs (or reuses) the ceremony on it,
/// once per test binary. The shared ptau is the slow part of a first run (it is kept, so
/// only a new target directory pays it).
pub fn ceremony() -> &'static Ceremony {
    static CEREMONY: OnceLock<Ceremony> = OnceLock::new();
    CEREMONY.get_or_init(|| run(zk::circuits::Circuit::Withdraw))
}

/// The batch circuit's ceremony, as [`ceremony`].
pub fn batch_ceremony() -> &'static Ceremony {
    static CEREMONY: OnceLock<Ceremony> = OnceLock::new();
    CEREMONY.get_or_init(|| run(zk::circuits::Circuit::Batch))
}

/// The power of the test ceremonies' one Phase 1 transcript: the batch circuit's need (its
/// domain is 2^15), which the withdraw circuit's (2^13) fits in. Preparing it is most of a
/// fresh ceremony's time (about 10 minutes on two cores), so both share it.
pub const PTAU_POWER: u32 = 15;

fn run(circuit: zk::circuits::Circuit) -> Ceremony {
    let dir = ceremony_dir();
    std::fs::create_dir_all(&dir).unwrap_or_else(|e| panic!("{}: {e}", dir.display()));
    let name = circuit.name();
    let power = PTAU_POWER;
    assert!(circuit.constraint_system().domain_size() <= 1 << power);
    let r1cs = dir.join(format!("{name}.r1cs"));
    let bytes = circuit.r1cs_file();
    if std::fs::read(&r1cs).ok().as_deref() != Some(bytes.as_slice()) {
        write_atomically(&r1cs, &bytes);
    }
    let script = crate::interop::dir().join("ceremony.sh");
    let started = Instant::now();
    let status = Command::new("bash")
        .arg(&script)
        .arg(&r1cs)
        .arg(&dir)
        .arg(name)
        .arg(power.to_string())
        .status()
        .unwrap_or_else(|e| panic!("cannot run bash {}: {e}", script.display()));
    assert!(
        status.success(),
        "{} failed ({status}); needs node and `bash tests/interop/install.sh`",
        script.display()
    );
    eprintln!(
        "{name} ceremony ready in {:.1} s: {}",
        started.elapsed().as_secs_f64(),
        dir.display()
    );
    Ceremony {
        circuit,
        zkey: dir.join(format!("{name}.zkey")),
        uncontributed: dir.join(format!("{name}_0000.zkey")),
        ptau: dir.join(format!("pot{power}_final.ptau")),
        log: dir.join(format!("{name}_ceremony.log")),
        verification_key: dir.join(format!("{name}_verification_key.json")),
        r1cs,
        dir,
    }
}

/// A path as a snarkjs argument (the target directory's paths are UTF-8).
pub fn arg(path: &Path) -> &str {
    path.to_str()
        .unwrap_or_else(|| panic!("{} is not UTF-8", path.display()))
}
