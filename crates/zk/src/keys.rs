//! Proving and verifying keys: the insecure deterministic development setup, keys from a
//! snarkjs ceremony (`.zkey`), files identified by their SHA-256, and the verifying key as the
//! verifier contract's constructor arguments.
//!
//! The development setup is derived from a published seed, so anyone can recompute its toxic
//! waste and forge proofs. It exists for the devnet and tests only; every name that leads to
//! it says `insecure`, and [`Keys::is_insecure_dev`] lets callers refuse it elsewhere.

use std::path::Path;
use std::sync::OnceLock;

pub use crate::key_error::KeyError;

use alloy_primitives::U256;
use ark_bn254::{Bn254, Fq, G1Affine, G2Affine};
use ark_ec::AffineRepr;
use ark_ff::PrimeField;
use ark_groth16::{Groth16, PreparedVerifyingKey, ProvingKey, VerifyingKey};
use ark_serialize::{CanonicalDeserialize, CanonicalSerialize};
use ark_snark::SNARK;
use rand_core::SeedableRng;
use sha2::{Digest, Sha256};

use crate::circuit::WithdrawCircuit;
use crate::circuits::Circuit;
use crate::r1cs::R1cs;

/// The seed of the insecure development setup. Public on purpose: it is not a secret, which
/// is exactly why keys made from it must never guard real money.
pub const INSECURE_DEV_SEED: &[u8] = b"tronpool insecure development setup v1";

/// SHA-256 of the development setup's verifying key, so a deployment that pins it can be
/// recognized without running the setup (a test keeps it equal to the setup's).
pub const INSECURE_DEV_VK_SHA256: &str =
    "babf684cd0010785f189b615836e950764f348e8da1f13033c51f16720efa30d";

impl Circuit {
    /// SHA-256 of the circuit's insecure development setup's verifying key, so a deployment
    /// that pins it is recognized (and refused off a devnet) without running the setup.
    pub fn insecure_dev_vk_sha256(self) -> &'static str {
        match self {
            Circuit::Withdraw => INSECURE_DEV_VK_SHA256,
            Circuit::Batch => crate::batch::INSECURE_DEV_VK_SHA256,
        }
    }
}

/// Which setup made a proving key, and so which R1CS-to-QAP reduction proofs with it need.
/// The two differ only in the H query, and a proof made with the other reduction does not
/// verify.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Setup {
    /// arkworks' `circuit_specific_setup` (libsnark's reduction): the development keys. The H
    /// query has one point fewer than the domain.
    Arkworks,
    /// A snarkjs ceremony ([`crate::qap::SnarkjsReduction`]): one H point per domain element.
    Snarkjs,
}

/// A proving key with its verifying key, prepared for fast verification, and the circuit
/// it is for.
pub struct Keys {
    pub proving: ProvingKey<Bn254>,
    pub verifying: VerifyingKey<Bn254>,
    prepared: PreparedVerifyingKey<Bn254>,
    setup: Setup,
    circuit: Circuit,
}

impl std::fmt::Debug for Keys {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(
            f,
            "Keys({} circuit, vk sha256 {})",
            self.circuit,
            self.verifying_key_sha256()
        )
    }
}

impl Keys {
    /// Keys for the withdraw circuit ([`Keys::for_circuit`]).
    pub fn new(proving: ProvingKey<Bn254>) -> Result<Self, KeyError> {
        Keys::for_circuit(proving, Circuit::Withdraw)
    }

    /// Checks that the key's queries have `circuit`'s sizes, and tells the setup from the H
    /// query's length, so that a key keeps its kind through any file format.
    pub fn for_circuit(proving: ProvingKey<Bn254>, circuit: Circuit) -> Result<Self, KeyError> {
        let setup = setup_for(&proving, circuit.constraint_system())?;
        let verifying = proving.vk.clone();
        let prepared = ark_groth16::prepare_verifying_key(&verifying);
        Ok(Keys {
            proving,
            verifying,
            prepared,
            setup,
            circuit,
        })
    }

    /// Keys from a snarkjs Groth16 `.zkey` made for one of tronpool's circuits (a
    /// ceremony's output), which [`Keys::circuit`] then names. Everything is checked, see
    /// [`crate::zkey`].
    pub fn from_zkey(bytes: &[u8]) -> Result<Self, KeyError> {
        let (circuit, proving) = crate::zkey::read(bytes, "zkey")?;
        Keys::for_circuit(proving, circuit)
    }

    /// [`Keys::from_zkey`] on a file.
    pub fn read_zkey(path: &Path) -> Result<Self, KeyError> {
        let bytes = std::fs::read(path).map_err(|source| KeyError::Io {
            path: path.display().to_string(),
            source,
        })?;
        let (circuit, proving) = crate::zkey::read(&bytes, &path.display().to_string())?;
        Keys::for_circuit(proving, circuit)
    }

    /// The circuit these keys prove.
    pub fn circuit(&self) -> Circuit {
        self.circuit
    }

    /// Which setup made these keys: it decides how proofs are made with them.
    pub fn setup(&self) -> Setup {
        self.setup
    }

    /// The deterministic development setup. Insecure: see the module documentation.
    pub fn insecure_dev_setup() -> Self {
        let mut rng = insecure_dev_rng(INSECURE_DEV_SEED);
        let (proving, _) =
            Groth16::<Bn254>::circuit_specific_setup(WithdrawCircuit::blank(), &mut rng)
                .expect("the blank withdraw circuit synthesizes");
        Keys::new(proving).expect("the setup made keys for this circuit")
    }

    /// The development keys, made once per process (a setup takes a fraction of a second).
    pub fn insecure_dev() -> &'static Keys {
        static KEYS: OnceLock<Keys> = OnceLock::new();
        KEYS.get_or_init(Keys::insecure_dev_setup)
    }

    /// Whether these are the development keys, whose proofs anyone can forge. Compared by
    /// hash, so refusing them elsewhere costs no setup.
    pub fn is_insecure_dev(&self) -> bool {
        self.verifying_key_sha256() == self.circuit.insecure_dev_vk_sha256()
    }

    pub fn prepared(&self) -> &PreparedVerifyingKey<Bn254> {
        &self.prepared
    }

    /// The proving key's bytes (arkworks, uncompressed: larger, but loads without point
    /// decompression).
    pub fn proving_key_bytes(&self) -> Vec<u8> {
        let mut out = Vec::new();
        self.proving
            .serialize_uncompressed(&mut out)
            .expect("serializing into memory cannot fail");
        out
    }

    pub fn verifying_key_bytes(&self) -> Vec<u8> {
        verifying_key_bytes(&self.verifying)
    }

    /// The identity of the proving key: SHA-256 of its bytes, hex.
    pub fn proving_key_sha256(&self) -> String {
        hex::encode(Sha256::digest(self.proving_key_bytes()))
    }

    /// The identity of the verifying key, pinned in a deployment: SHA-256 of its bytes, hex.
    pub fn verifying_key_sha256(&self) -> String {
        verifying_key_sha256(&self.verifying)
    }

    /// Writes the proving key to `path`.
    pub fn write_proving_key(&self, path: &Path) -> Result<(), KeyError> {
        std::fs::write(path, self.proving_key_bytes()).map_err(|source| KeyError::Io {
            path: path.display().to_string(),
            source,
        })
    }

    /// Reads a proving key, refusing it unless its SHA-256 is `expected_sha256` (the hash a
    /// deployment pins). Only then are its points trusted without the expensive subgroup
    /// checks.
    pub fn read_proving_key(path: &Path, expected_sha256: &str) -> Result<Self, KeyError> {
        let bytes = std::fs::read(path).map_err(|source| KeyError::Io {
            path: path.display().to_string(),
            source,
        })?;
        check_sha256(path, &bytes, expected_sha256)?;
        let proving = ProvingKey::<Bn254>::deserialize_uncompressed_unchecked(bytes.as_slice())
            .map_err(|e| KeyError::Malformed {
                what: path.display().to_string(),
                reason: e.to_string(),
            })?;
        Keys::new(proving)
    }

    /// Writes the verifying key (compressed arkworks form) to `path`.
    pub fn write_verifying_key(&self, path: &Path) -> Result<(), KeyError> {
        std::fs::write(path, self.verifying_key_bytes()).map_err(|source| KeyError::Io {
            path: path.display().to_string(),
            source,
        })
    }

    /// The verifier contract's constructor arguments for this key.
    pub fn verifier_args(&self) -> VerifierArgs {
        VerifierArgs::from(&self.verifying)
    }
}

/// The randomness of a development setup: ChaCha20 seeded with SHA-256 of a published `seed`,
/// so anyone can recompute the setup's toxic waste (which is the point: such keys are
/// insecure by construction).
pub(crate) fn insecure_dev_rng(seed: &[u8]) -> rand_chacha::ChaCha20Rng {
    rand_chacha::ChaCha20Rng::from_seed(Sha256::digest(seed).into())
}

/// Checks that `proving`'s queries have `circuit`'s sizes, and tells the setup that made it
/// from the H query's length, so that a key keeps its kind through any file format.
pub(crate) fn setup_for(proving: &ProvingKey<Bn254>, circuit: &R1cs) -> Result<Setup, KeyError> {
    // One public input plus the constant one.
    if proving.vk.gamma_abc_g1.len() != circuit.num_instance {
        return Err(KeyError::WrongCircuit(format!(
            "{} public inputs, expected {}",
            proving.vk.gamma_abc_g1.len().saturating_sub(1),
            circuit.num_public()
        )));
    }
    let sizes = [
        ("A", proving.a_query.len(), circuit.num_wires()),
        ("B1", proving.b_g1_query.len(), circuit.num_wires()),
        ("B2", proving.b_g2_query.len(), circuit.num_wires()),
        ("L", proving.l_query.len(), circuit.num_witness),
    ];
    for (name, found, expected) in sizes {
        if found != expected {
            return Err(KeyError::WrongCircuit(format!(
                "{found} {name} query points, the circuit has {expected} variables for them"
            )));
        }
    }
    let domain = circuit.domain_size();
    match proving.h_query.len() {
        n if n == domain => Ok(Setup::Snarkjs),
        n if n + 1 == domain => Ok(Setup::Arkworks),
        n => Err(KeyError::WrongCircuit(format!(
            "{n} H query points, expected {domain} (snarkjs) or {} (arkworks)",
            domain - 1
        ))),
    }
}

/// The identity of a verifying key: SHA-256 of its compressed bytes, hex.
pub fn verifying_key_sha256(vk: &VerifyingKey<Bn254>) -> String {
    hex::encode(Sha256::digest(verifying_key_bytes(vk)))
}

pub fn verifying_key_bytes(vk: &VerifyingKey<Bn254>) -> Vec<u8> {
    let mut out = Vec::new();
    vk.serialize_compressed(&mut out)
        .expect("serializing into memory cannot fail");
    out
}

/// Reads a verifying key file, refusing it unless its SHA-256 is `expected_sha256`.
pub fn read_verifying_key_file(
    path: &Path,
    expected_sha256: &str,
) -> Result<VerifyingKey<Bn254>, KeyError> {
    let bytes = std::fs::read(path).map_err(|source| KeyError::Io {
        path: path.display().to_string(),
        source,
    })?;
    check_sha256(path, &bytes, expected_sha256)?;
    read_verifying_key(&bytes)
}

fn check_sha256(path: &Path, bytes: &[u8], expected_sha256: &str) -> Result<(), KeyError> {
    let found = hex::encode(Sha256::digest(bytes));
    if found.eq_ignore_ascii_case(expected_sha256.trim_start_matches("0x")) {
        Ok(())
    } else {
        Err(KeyError::HashMismatch {
            path: path.display().to_string(),
            found,
            expected: expected_sha256.to_owned(),
        })
    }
}

/// Reads a verifying key with every point checked (it is small, and may come from anywhere).
pub fn read_verifying_key(bytes: &[u8]) -> Result<VerifyingKey<Bn254>, KeyError> {
    VerifyingKey::<Bn254>::deserialize_compressed(bytes).map_err(|e| KeyError::Malformed {
        what: "verifying key".into(),
        reason: e.to_string(),
    })
}

pub(crate) fn fq_to_u256(x: &Fq) -> U256 {
    U256::from_limbs(x.into_bigint().0)
}

/// A G1 point as the EVM's `(x, y)`; the point at infinity is `(0, 0)`.
pub(crate) fn g1_words(p: &G1Affine) -> [U256; 2] {
    if p.is_zero() {
        return [U256::ZERO; 2];
    }
    [fq_to_u256(&p.x), fq_to_u256(&p.y)]
}

/// A G2 point as the pairing precompile reads it: `[[x.c1, x.c0], [y.c1, y.c0]]`, the
/// imaginary part first (EIP-197). The other order makes the precompile fail and burn all the
/// energy it was given.
/// The G2 generator in the verifier contract's layout: γ of every snarkjs key, and δ of one
/// nobody contributed to.
pub fn g2_generator_words() -> [[U256; 2]; 2] {
    g2_words(&G2Affine::generator())
}

pub(crate) fn g2_words(p: &G2Affine) -> [[U256; 2]; 2] {
    if p.is_zero() {
        return [[U256::ZERO; 2]; 2];
    }
    [
        [fq_to_u256(&p.x.c1), fq_to_u256(&p.x.c0)],
        [fq_to_u256(&p.y.c1), fq_to_u256(&p.y.c0)],
    ]
}

alloy_sol_types::sol! {
    /// The verifier contract's constructor: the verifying key, G2 limbs in (c1, c0) order.
    struct VerifierConstructor {
        uint256[2] alpha1;
        uint256[2][2] beta2;
        uint256[2][2] gamma2;
        uint256[2][2] delta2;
        uint256[2][] ic;
    }
}

/// The verifying key in the verifier contract's layout.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct VerifierArgs {
    pub alpha1: [U256; 2],
    pub beta2: [[U256; 2]; 2],
    pub gamma2: [[U256; 2]; 2],
    pub delta2: [[U256; 2]; 2],
    /// `IC[0]` (the constant) and one point per public input.
    pub ic: Vec<[U256; 2]>,
}

impl From<&VerifyingKey<Bn254>> for VerifierArgs {
    fn from(vk: &VerifyingKey<Bn254>) -> Self {
        VerifierArgs {
            alpha1: g1_words(&vk.alpha_g1),
            beta2: g2_words(&vk.beta_g2),
            gamma2: g2_words(&vk.gamma_g2),
            delta2: g2_words(&vk.delta_g2),
            ic: vk.gamma_abc_g1.iter().map(g1_words).collect(),
        }
    }
}

impl VerifierArgs {
    /// ABI-encoded constructor arguments, to append to the verifier's creation bytecode.
    pub fn abi_encode(&self) -> Vec<u8> {
        use alloy_sol_types::SolValue;
        let value = VerifierConstructor {
            alpha1: self.alpha1,
            beta2: self.beta2,
            gamma2: self.gamma2,
            delta2: self.delta2,
            ic: self.ic.clone(),
        };
        // Constructor arguments are the struct's fields as a parameter list, not a tuple
        // wrapped in one more offset.
        value.abi_encode_params()
    }

    /// Reads constructor arguments back, as a deployed verifier's creation transaction holds
    /// them. Only the canonical encoding [`VerifierArgs::abi_encode`] writes is accepted, so
    /// the same key always has the same bytes.
    pub fn abi_decode(bytes: &[u8]) -> Result<Self, KeyError> {
        use alloy_sol_types::SolValue;
        let malformed = |reason: String| KeyError::Malformed {
            what: "the verifier's constructor arguments".into(),
            reason,
        };
        let value =
            VerifierConstructor::abi_decode_params(bytes).map_err(|e| malformed(e.to_string()))?;
        let args = VerifierArgs {
            alpha1: value.alpha1,
            beta2: value.beta2,
            gamma2: value.gamma2,
            delta2: value.delta2,
            ic: value.ic,
        };
        if args.abi_encode() != bytes {
            return Err(malformed("not the canonical encoding".into()));
        }
        Ok(args)
    }

    /// The verifying key these words describe: every point on its curve and in its subgroup,
    /// so its hash can be compared with the one a deployment pins.
    pub fn verifying_key(&self) -> Result<VerifyingKey<Bn254>, KeyError> {
        let malformed = |what: &str| KeyError::Malformed {
            what: format!("the verifier's {what}"),
            reason: "not a point of its group".into(),
        };
        let fq = |w: &U256, what: &str| {
            let bytes = w.to_le_bytes::<32>();
            let x = Fq::from_le_bytes_mod_order(&bytes);
            (fq_to_u256(&x) == *w)
                .then_some(x)
                .ok_or_else(|| malformed(what))
        };
        let g1 = |w: &[U256; 2], what: &str| -> Result<G1Affine, KeyError> {
            if w[0].is_zero() && w[1].is_zero() {
                return Ok(G1Affine::zero());
            }
            let p = G1Affine::new_unchecked(fq(&w[0], what)?, fq(&w[1], what)?);
            (p.is_on_curve() && p.is_in_correct_subgroup_assuming_on_curve())
                .then_some(p)
                .ok_or_else(|| malformed(what))
        };
        let g2 = |w: &[[U256; 2]; 2], what: &str| -> Result<G2Affine, KeyError> {
            let x = ark_bn254::Fq2::new(fq(&w[0][1], what)?, fq(&w[0][0], what)?);
            let y = ark_bn254::Fq2::new(fq(&w[1][1], what)?, fq(&w[1][0], what)?);
            let p = G2Affine::new_unchecked(x, y);
            (p.is_on_curve() && p.is_in_correct_subgroup_assuming_on_curve())
                .then_some(p)
                .ok_or_else(|| malformed(what))
        };
        Ok(VerifyingKey {
            alpha_g1: g1(&self.alpha1, "alpha")?,
            beta_g2: g2(&self.beta2, "beta")?,
            gamma_g2: g2(&self.gamma2, "gamma")?,
            delta_g2: g2(&self.delta2, "delta")?,
            gamma_abc_g1: self
                .ic
                .iter()
                .map(|p| g1(p, "IC point"))
                .collect::<Result<_, _>>()?,
        })
    }

    /// The words by the names the verifier contract keeps them under as immutables
    /// (`alphaX`, `betaX1`, `ic0Y`, ...), for comparing with its deployed code.
    pub fn by_immutable_name(&self) -> std::collections::BTreeMap<String, U256> {
        let mut out = std::collections::BTreeMap::new();
        out.insert("alphaX".to_owned(), self.alpha1[0]);
        out.insert("alphaY".to_owned(), self.alpha1[1]);
        for (name, p) in [
            ("beta", &self.beta2),
            ("gamma", &self.gamma2),
            ("delta", &self.delta2),
        ] {
            out.insert(format!("{name}X1"), p[0][0]);
            out.insert(format!("{name}X0"), p[0][1]);
            out.insert(format!("{name}Y1"), p[1][0]);
            out.insert(format!("{name}Y0"), p[1][1]);
        }
        for (i, p) in self.ic.iter().enumerate() {
            out.insert(format!("ic{i}X"), p[0]);
            out.insert(format!("ic{i}Y"), p[1]);
        }
        out
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn dev_setup_is_deterministic_and_named_insecure() {
        let a = Keys::insecure_dev();
        let b = Keys::insecure_dev_setup();
        assert_eq!(a.verifying_key_sha256(), b.verifying_key_sha256());
        assert_eq!(a.proving_key_sha256(), b.proving_key_sha256());
        assert_eq!(b.verifying_key_sha256(), INSECURE_DEV_VK_SHA256);
        assert!(b.is_insecure_dev());
    }

    #[test]
    fn key_files_are_checked_by_hash() {
        let keys = Keys::insecure_dev();
        let dir = std::env::temp_dir().join(format!("tronpool-zk-keys-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let path = dir.join("insecure-dev.pk");
        keys.write_proving_key(&path).unwrap();
        let back = Keys::read_proving_key(&path, &keys.proving_key_sha256()).unwrap();
        assert_eq!(back.verifying_key_sha256(), keys.verifying_key_sha256());
        let err = Keys::read_proving_key(&path, &"0".repeat(64)).unwrap_err();
        assert!(matches!(err, KeyError::HashMismatch { .. }), "{err}");
        let vk_path = dir.join("insecure-dev.vk");
        keys.write_verifying_key(&vk_path).unwrap();
        let vk = read_verifying_key_file(&vk_path, &keys.verifying_key_sha256()).unwrap();
        assert_eq!(vk, keys.verifying);
        assert!(read_verifying_key_file(&vk_path, &keys.proving_key_sha256()).is_err());
        assert!(read_verifying_key(&[1, 2, 3]).is_err());
        std::fs::remove_dir_all(&dir).unwrap();
    }

    #[test]
    fn constructor_args_put_c1_first() {
        let keys = Keys::insecure_dev();
        let args = keys.verifier_args();
        let beta = &keys.verifying.beta_g2;
        assert_eq!(args.beta2[0][0], fq_to_u256(&beta.x.c1));
        assert_eq!(args.beta2[0][1], fq_to_u256(&beta.x.c0));
        assert_eq!(args.beta2[1][0], fq_to_u256(&beta.y.c1));
        assert_eq!(args.ic.len(), 2);
        // 2 + 3·4 static words, the offset of `ic`, its length and 2·2 words.
        assert_eq!(args.abi_encode().len(), 32 * (2 + 12 + 1 + 1 + 4));
    }

    #[test]
    fn constructor_args_read_back_to_the_same_key() {
        let keys = Keys::insecure_dev();
        let args = keys.verifier_args();
        let back = VerifierArgs::abi_decode(&args.abi_encode()).unwrap();
        assert_eq!(back, args);
        assert_eq!(back.verifying_key().unwrap(), keys.verifying);
        assert_eq!(back.by_immutable_name().len(), 2 + 3 * 4 + 2 * 2);
        // A word off the curve, and bytes that are not an encoding.
        let mut off = args.clone();
        off.alpha1[1] += U256::from(1u8);
        assert!(off.verifying_key().is_err());
        let mut long = args.abi_encode();
        long.push(0);
        assert!(VerifierArgs::abi_decode(&long).is_err());
        assert!(VerifierArgs::abi_decode(&[0u8; 7]).is_err());
    }
}
