//! Keys from a real snarkjs ceremony (`tests/interop/ceremony.sh`, run on our exported
//! `.r1cs`), checked against snarkjs itself in both directions: snarkjs reads our r1cs and
//! witness, our reader loads its zkey, a Rust proof verifies in snarkjs, a snarkjs proof
//! verifies in Rust, and the verifying key snarkjs exports is the one we load.
//!
//! The ceremony is cached in `<target>/ceremony` (minutes the first time, a second after).
//! Needs node and `bash tests/interop/install.sh`, so these tests are ignored by a plain
//! `cargo test` and run by `scripts/test`.
#![allow(clippy::unwrap_used)] // a test fails by panicking: unwrapping is how it says so

use std::time::Instant;

use serde_json::Value;
use test_support::ceremony::{arg, ceremony, snarkjs, text};
use test_support::snarkjs_json::{
    instance_json, proof_from_json, read_json, snarkjs_groth16_verify, vk_json,
};
use zk::Fr;
use zk::circuit::PublicInputs;
use zk::field;
use zk::keys::{KeyError, Keys, Setup};
use zk::note::{Note, NoteMeta};
use zk::proof::{EncodedProof, Witness, prove, verify};
use zk::tree::MerkleTree;
use zk::zkey_verify::VerifyError;

/// A withdrawal as a user makes it: a note among others in a tree, its path, a relayer.
fn withdrawal() -> (PublicInputs, Witness) {
    let meta = NoteMeta::usdt(100, "nile").unwrap();
    let mut tree = MerkleTree::new();
    let others: Vec<Fr> = (0..21)
        .map(|_| Note::generate(meta.clone()).commitment())
        .collect();
    tree.extend(&others).unwrap();
    let note = Note::generate(meta);
    let index = tree.insert(note.commitment()).unwrap();
    tree.extend(&others[..4]).unwrap();
    let path = tree.path(index).unwrap();
    let public = PublicInputs {
        root: tree.root(),
        nullifier_hash: note.nullifier_hash(),
        recipient: field::from_address(&[0x5a; 20]),
        relayer: field::from_address(&[0xc3; 20]),
        fee: Fr::from(1_500_000u64),
        refund: Fr::from(250_000u64),
    };
    (public, Witness::new(&note, &path).unwrap())
}

fn keys() -> &'static Keys {
    static KEYS: std::sync::OnceLock<Keys> = std::sync::OnceLock::new();
    KEYS.get_or_init(|| {
        let c = ceremony();
        let started = Instant::now();
        let keys = Keys::read_zkey(&c.zkey).unwrap();
        eprintln!(
            "Keys::read_zkey({}): {:.0} ms",
            c.zkey.display(),
            started.elapsed().as_secs_f64() * 1e3
        );
        keys
    })
}

fn public_json(public: &PublicInputs) -> Value {
    instance_json(&public.instance())
}

fn scratch() -> tempfile::TempDir {
    tempfile::tempdir_in(&ceremony().dir).expect("a scratch directory in the ceremony's")
}

#[test]
#[ignore = "needs node and python: bash tests/interop/install.sh (scripts/test runs it)"]
fn snarkjs_reads_our_r1cs_with_our_counts() {
    let c = ceremony();
    let r = zk::r1cs::withdraw();
    let out = snarkjs(&["r1cs", "info", arg(&c.r1cs)]);
    let said = text(&out);
    assert!(out.status.success(), "{said}");
    for expected in [
        "Curve: bn-128".to_string(),
        format!("# of Wires: {}", r.num_wires()),
        format!("# of Constraints: {}", r.num_constraints()),
        format!("# of Private Inputs: {}", r.num_witness),
        "# of Public Inputs: 1".to_string(),
        format!("# of Labels: {}", r.num_wires()),
        "# of Outputs: 0".to_string(),
    ] {
        assert!(said.contains(&expected), "no {expected:?} in:\n{said}");
    }
    assert_eq!(r.num_constraints(), 6292);
}

#[test]
#[ignore = "needs node and python: bash tests/interop/install.sh (scripts/test runs it)"]
fn snarkjs_checks_our_witness_against_our_r1cs() {
    let c = ceremony();
    let dir = scratch();
    let (public, witness) = withdrawal();
    let wtns = zk::r1cs::withdraw_wtns(witness.circuit(&public)).unwrap();
    let good = dir.path().join("good.wtns");
    std::fs::write(&good, &wtns).unwrap();
    let out = snarkjs(&["wtns", "check", arg(&c.r1cs), arg(&good)]);
    assert!(out.status.success(), "{}", text(&out));
    assert!(text(&out).contains("WITNESS IS CORRECT"), "{}", text(&out));

    // One wrong wire (the extDataHash the public hash binds) and snarkjs says so.
    let mut bad = wtns.clone();
    let z = zk::r1cs::full_assignment(witness.circuit(&public)).unwrap();
    let ext = z
        .iter()
        .position(|v| *v == public.ext_data_hash())
        .expect("the extDataHash is a wire");
    let at = bad.len() - 32 * (z.len() - ext);
    bad[at] ^= 1;
    let bad_path = dir.path().join("bad.wtns");
    std::fs::write(&bad_path, &bad).unwrap();
    let out = snarkjs(&["wtns", "check", arg(&c.r1cs), arg(&bad_path)]);
    assert!(
        text(&out).contains("WITNESS IS NOT CORRECT"),
        "{}",
        text(&out)
    );
}

#[test]
#[ignore = "needs node and python: bash tests/interop/install.sh (scripts/test runs it)"]
fn ceremony_keys_load_and_are_snarkjs_keys() {
    let keys = keys();
    assert!(!keys.is_insecure_dev());
    assert_eq!(keys.setup(), Setup::Snarkjs);
    assert_eq!(keys.verifier_args().ic.len(), 2);
    assert_eq!(keys.verifying_key_sha256().len(), 64);
}

#[test]
#[ignore = "needs node and python: bash tests/interop/install.sh (scripts/test runs it)"]
fn snarkjs_exports_our_verifying_key() {
    let exported = read_json(&ceremony().verification_key);
    let ours = vk_json(&keys().verifying);
    for field in [
        "protocol",
        "curve",
        "nPublic",
        "vk_alpha_1",
        "vk_beta_2",
        "vk_gamma_2",
        "vk_delta_2",
        "IC",
    ] {
        assert_eq!(exported[field], ours[field], "{field}");
    }
}

#[test]
#[ignore = "needs node and python: bash tests/interop/install.sh (scripts/test runs it)"]
fn a_rust_proof_with_ceremony_keys_verifies_in_rust_and_in_snarkjs() {
    let keys = keys();
    let dir = scratch();
    let (public, witness) = withdrawal();
    let started = Instant::now();
    let proof = prove(keys, &public, &witness, &mut rand_core::OsRng).unwrap();
    eprintln!(
        "prove with snarkjs keys: {:.0} ms",
        started.elapsed().as_secs_f64() * 1e3
    );
    assert!(verify(keys, &public, &proof));
    let back = EncodedProof::from_proof(&proof).to_proof().unwrap();
    assert!(verify(keys, &public, &back));

    let verify_with_snarkjs = |public: &PublicInputs| {
        snarkjs_groth16_verify(dir.path(), &keys.verifying, &public.instance(), &proof)
    };
    let out = verify_with_snarkjs(&public);
    assert!(
        out.status.success() && text(&out).contains("OK!"),
        "{}",
        text(&out)
    );

    // The same proof for another fee: snarkjs refuses it too.
    let mut greedy = public;
    greedy.fee += Fr::from(1u64);
    assert!(!verify(keys, &greedy, &proof));
    let out = verify_with_snarkjs(&greedy);
    assert!(
        !out.status.success() && text(&out).contains("Invalid proof"),
        "{}",
        text(&out)
    );
}

#[test]
#[ignore = "needs node and python: bash tests/interop/install.sh (scripts/test runs it)"]
fn a_snarkjs_proof_from_our_witness_verifies_in_rust() {
    let c = ceremony();
    let keys = keys();
    let dir = scratch();
    let (public, witness) = withdrawal();
    let wtns = dir.path().join("withdraw.wtns");
    std::fs::write(
        &wtns,
        zk::r1cs::withdraw_wtns(witness.circuit(&public)).unwrap(),
    )
    .unwrap();
    let proof_path = dir.path().join("proof.json");
    let public_path = dir.path().join("public.json");
    let out = snarkjs(&[
        "groth16",
        "prove",
        arg(&c.zkey),
        arg(&wtns),
        arg(&proof_path),
        arg(&public_path),
    ]);
    assert!(out.status.success(), "{}", text(&out));

    assert_eq!(read_json(&public_path), public_json(&public));
    let proof = proof_from_json(&read_json(&proof_path));
    assert!(verify(keys, &public, &proof));
    let mut other = public;
    other.recipient = field::from_address(&[0x77; 20]);
    assert!(!verify(keys, &other, &proof));
}

/// The real zkey with one A/B coefficient changed: refused as another circuit's.
#[test]
#[ignore = "needs node and python: bash tests/interop/install.sh (scripts/test runs it)"]
fn the_ceremony_zkey_with_a_changed_coefficient_is_refused() {
    let mut bytes = std::fs::read(&ceremony().zkey).unwrap();
    let u32_at = |b: &[u8], at: usize| u32::from_le_bytes(b[at..at + 4].try_into().unwrap());
    let mut at = 12;
    let section4 = loop {
        let (id, len) = (
            u32_at(&bytes, at),
            u64::from_le_bytes(bytes[at + 4..at + 12].try_into().unwrap()) as usize,
        );
        if id == 4 {
            break at + 12;
        }
        at += 12 + len;
    };
    // Coefficient 100's value, first byte.
    bytes[section4 + 4 + 100 * 44 + 12] ^= 0x10;
    match Keys::from_zkey(&bytes) {
        Err(KeyError::WrongCircuit(reason)) => assert!(reason.contains("section 4"), "{reason}"),
        other => panic!("expected WrongCircuit, got {other:?}"),
    }
}

/// What `snarkjs groth16 setup` writes before anyone contributes (δ = γ = the G2 generator,
/// no contribution recorded) is unsafe; the ceremony's final zkey (two contributions and a
/// beacon) is not. The uncontributed key does derive from the circuit and the ptau (snarkjs's
/// `zkey verify` passes it too), with no contribution to list.
#[test]
#[ignore = "needs node and python: bash tests/interop/install.sh (scripts/test runs it)"]
fn a_zkey_nobody_contributed_to_is_unsafe_and_the_ceremonys_is_not() {
    let c = ceremony();
    let final_bytes = std::fs::read(&c.zkey).unwrap();
    let (_, final_key) = zk::zkey::read(&final_bytes, "final").unwrap();
    assert_eq!(zk::zkey::contribution_count(&final_bytes), Some(3));
    assert!(zk::zkey::unsafe_key(&final_bytes, &final_key).is_empty());

    let bytes = std::fs::read(&c.uncontributed).unwrap();
    let (_, key) = zk::zkey::read(&bytes, "bare").unwrap();
    assert_eq!(zk::zkey::contribution_count(&bytes), Some(0));
    assert_eq!(
        zk::zkey::unsafe_key(&bytes, &key),
        [
            "its δ equals its γ",
            "its δ is the curve's generator",
            "it records no Phase 2 contribution"
        ]
    );
    let report = zk::zkey_verify::verify(&bytes, &std::fs::read(&c.ptau).unwrap()).unwrap();
    assert!(report.contributions.is_empty());
    assert!(!report.ends_with_beacon());
}

// --- native verification (`zk::zkey_verify`), against what snarkjs made and printed ---

fn ptau_bytes() -> &'static [u8] {
    static PTAU: std::sync::OnceLock<Vec<u8>> = std::sync::OnceLock::new();
    PTAU.get_or_init(|| std::fs::read(&ceremony().ptau).unwrap())
}

fn verify_error(zkey: &[u8]) -> VerifyError {
    match zk::zkey_verify::verify(zkey, ptau_bytes()) {
        Err(e) => e,
        Ok(report) => panic!("expected a failure, got {report:?}"),
    }
}

/// The hashes `snarkjs zkey verify` printed for each contribution, from the ceremony's log
/// (`contribution #N NAME:` then four lines of words), words joined.
fn snarkjs_contribution_hashes(log: &str) -> Vec<(usize, String, String)> {
    let start = log
        .rfind("$ snarkjs zkey verify")
        .expect("the log holds the zkey verify run");
    let lines: Vec<&str> = log[start..].lines().collect();
    // Lines are `[INFO]  snarkJS: …` with terminal colours; the hash's lines follow bare.
    let strip = |l: &str| -> String {
        let mut plain = String::new();
        let mut escape = false;
        for ch in l.chars() {
            match ch {
                '\u{1b}' => escape = true,
                'm' if escape => escape = false,
                _ if escape => {}
                _ => plain.push(ch),
            }
        }
        let l = plain.split("snarkJS:").last().unwrap_or(&plain).to_owned();
        l.split_whitespace().collect::<Vec<_>>().join(" ")
    };
    let mut out = Vec::new();
    for (i, line) in lines.iter().enumerate() {
        let text = strip(line);
        if let Some(rest) = text.strip_prefix("contribution #") {
            let (n, name) = rest
                .split_once(' ')
                .unwrap_or((rest.trim_end_matches(':'), ""));
            let n: usize = n.trim_end_matches(':').parse().unwrap();
            let hash: Vec<String> = lines[i + 1..i + 5].iter().map(|l| strip(l)).collect();
            out.push((n, name.trim_end_matches(':').to_owned(), hash.join("\n")));
        }
    }
    out.sort();
    out
}

#[test]
#[ignore = "needs node and python: bash tests/interop/install.sh (scripts/test runs it)"]
fn the_ceremony_zkey_verifies_natively_with_the_hashes_snarkjs_printed() {
    let c = ceremony();
    let bytes = std::fs::read(&c.zkey).unwrap();
    let started = Instant::now();
    let report = zk::zkey_verify::verify(&bytes, ptau_bytes()).unwrap();
    eprintln!(
        "zk::zkey_verify::verify (power-{} ptau, {} threads): {:.2} s",
        report.ptau_power,
        rayon::current_num_threads(),
        started.elapsed().as_secs_f64()
    );
    assert_eq!(report.ptau_power, test_support::ceremony::PTAU_POWER);
    assert!(report.circuit_hash_recomputed);
    let names: Vec<Option<&str>> = report
        .contributions
        .iter()
        .map(|c| c.name.as_deref())
        .collect();
    assert_eq!(
        names,
        [
            Some("tronpool test contributor 1"),
            Some("tronpool test contributor 2"),
            Some("tronpool test beacon")
        ]
    );
    assert!(report.ends_with_beacon());
    let beacon = report.contributions[2].beacon.as_ref().unwrap();
    assert_eq!(beacon.iterations_exp, 10);
    assert_eq!(beacon.hash.len(), 32);
    assert!(report.contributions[..2].iter().all(|c| c.beacon.is_none()));

    let log = std::fs::read_to_string(&c.log).unwrap();
    let printed = snarkjs_contribution_hashes(&log);
    let ours: Vec<(usize, String, String)> = report
        .contributions
        .iter()
        .map(|c| {
            (
                c.index,
                c.name.clone().unwrap_or_default(),
                zk::zkey_verify::format_hash(&c.hash),
            )
        })
        .collect();
    assert_eq!(ours, printed, "snarkjs printed:\n{log}");
}

/// The withdraw circuit with one C coefficient changed, as circom would write it: a row whose
/// C side has only private wires, so the IC is untouched and only the C (L) query differs.
fn c_tampered_r1cs() -> Vec<u8> {
    let mut r = zk::r1cs::withdraw().clone();
    let row = (0..r.num_constraints())
        .rev()
        .find(|&i| !r.c[i].is_empty() && r.c[i].iter().all(|(w, _)| *w > r.num_public()))
        .expect("a constraint with a private C side");
    r.c[row][0].1 += Fr::from(1u64);
    zk::r1cs::encode_r1cs(&r)
}

/// A key made by snarkjs (setup and one contribution, with the ceremony's ptau) for the
/// circuit with one C coefficient changed: every A/B coefficient is ours, so the reader loads
/// it and a prover would use it, but its proofs would check another constraint system.
/// Native verification refuses it, at the C query.
#[test]
#[ignore = "needs node and python: bash tests/interop/install.sh (scripts/test runs it)"]
fn a_key_whose_c_is_another_circuits_loads_but_does_not_verify() {
    let c = ceremony();
    let dir = scratch();
    let r1cs = dir.path().join("tampered.r1cs");
    std::fs::write(&r1cs, c_tampered_r1cs()).unwrap();
    let bare = dir.path().join("tampered_0000.zkey");
    let key = dir.path().join("tampered.zkey");
    let out = snarkjs(&["groth16", "setup", arg(&r1cs), arg(&c.ptau), arg(&bare)]);
    assert!(out.status.success(), "{}", text(&out));
    let out = snarkjs(&[
        "zkey",
        "contribute",
        arg(&bare),
        arg(&key),
        "--name=tampering",
        "-e=some entropy",
    ]);
    assert!(out.status.success(), "{}", text(&out));
    let bytes = std::fs::read(&key).unwrap();
    let keys = Keys::from_zkey(&bytes).expect("its A/B coefficients are the circuit's");
    assert!(zk::zkey::unsafe_key(&bytes, &keys.proving).is_empty());
    match verify_error(&bytes) {
        VerifyError::Mismatch(reason) => {
            assert!(reason.contains("C (L) query"), "{reason}");
        }
        other => panic!("expected a mismatch, got {other}"),
    }
}

/// Keys for another circuit, or altered after the ceremony, do not verify.
#[test]
#[ignore = "needs node and python: bash tests/interop/install.sh (scripts/test runs it)"]
fn altered_keys_and_other_circuits_do_not_verify() {
    let zkey = std::fs::read(&ceremony().zkey).unwrap();
    let sections = |b: &[u8]| -> Vec<(u32, usize, usize)> {
        let u32_at = |at: usize| u32::from_le_bytes(b[at..at + 4].try_into().unwrap());
        let mut at = 12;
        let mut out = Vec::new();
        for _ in 0..u32_at(8) {
            let len = u64::from_le_bytes(b[at + 4..at + 12].try_into().unwrap()) as usize;
            out.push((u32_at(at), at + 12, len));
            at += 12 + len;
        }
        out
    };
    let start = |id: u32| sections(&zkey).iter().find(|s| s.0 == id).unwrap().1;

    // An A/B coefficient changed: another circuit, refused by the reader already.
    let mut other = zkey.clone();
    other[start(4) + 4 + 100 * 44 + 12] ^= 0x10;
    assert!(
        matches!(
            verify_error(&other),
            VerifyError::Key(KeyError::WrongCircuit(_))
        ),
        "another circuit's coefficients"
    );

    // The beacon's recorded randomness changed: its key is not the one it derives. The
    // beacon's hash is the last parameter of the last contribution: the final 32 bytes.
    let mut beacon = zkey.clone();
    let s10 = sections(&beacon).into_iter().find(|s| s.0 == 10).unwrap();
    beacon[s10.1 + s10.2 - 1] ^= 1;
    match verify_error(&beacon) {
        VerifyError::Mismatch(reason) => assert!(
            reason.contains("contribution 3") && reason.contains("beacon"),
            "{reason}"
        ),
        other => panic!("expected a mismatch, got {other}"),
    }

    // The first contribution's transcript hash changed: the chain breaks there.
    let mut transcript = zkey.clone();
    transcript[s10.1 + 64 + 4 + 3 * 64 + 128] ^= 1;
    match verify_error(&transcript) {
        VerifyError::Mismatch(reason) => {
            assert!(reason.contains("contribution 1"), "{reason}");
        }
        other => panic!("expected a mismatch, got {other}"),
    }

    // One H point replaced by another valid point (the one after it).
    let mut h = zkey.clone();
    let s9 = start(9);
    let next = h[s9 + 64..s9 + 128].to_vec();
    h[s9..s9 + 64].copy_from_slice(&next);
    match verify_error(&h) {
        VerifyError::Mismatch(reason) => assert!(reason.contains("its H query"), "{reason}"),
        other => panic!("expected a mismatch, got {other}"),
    }
}
