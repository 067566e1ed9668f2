//! Proving, verifying, and the proof's on-chain form.
//!
//! The contract takes a proof as `uint256[8]` in Tornado's order,
//! `[A.x, A.y, B.x.c1, B.x.c0, B.y.c1, B.y.c0, C.x, C.y]` (256 bytes, `0x` + 512 hex digits in
//! JSON). arkworks' own serialisation is little-endian with flag bits and must never reach a
//! contract, so this module is the only way between the two.

use alloy_primitives::U256;
use ark_bn254::{Bn254, Fq, Fq2, G1Affine, G2Affine};
use ark_ec::AffineRepr;
use ark_ff::{BigInt, PrimeField};
use ark_groth16::r1cs_to_qap::{LibsnarkReduction, R1CSToQAP};
use ark_groth16::{Groth16, Proof, ProvingKey};
use ark_relations::gr1cs::SynthesisError;
use ark_snark::SNARK;
use ark_std::UniformRand;
use rand_core::{CryptoRng, RngCore};

use crate::Fr;
use crate::circuit::{DEPTH, PublicInputs, SECRET_BITS, WithdrawCircuit};
use crate::field::{self, FieldError};
use crate::keys::{Keys, Setup, g1_words, g2_words};
use crate::note::Note;
use crate::poseidon;
use crate::qap::SnarkjsReduction;
use crate::r1cs;
use crate::tree::MerklePath;

/// The private half of a withdrawal.
#[derive(Clone)]
pub struct Witness {
    pub nullifier: Fr,
    pub secret: Fr,
    /// The sibling at each level, leaf level first.
    pub siblings: [Fr; DEPTH],
    /// The leaf's index: bit `i` set means our node is the right child at level `i`.
    pub index: u32,
}

impl Witness {
    /// The circuit with this witness and `public`: what the prover's assignment and a
    /// `.wtns` file are made from.
    pub fn circuit(&self, public: &PublicInputs) -> WithdrawCircuit {
        WithdrawCircuit {
            public: *public,
            nullifier: self.nullifier,
            secret: self.secret,
            siblings: self.siblings,
            index: self.index,
        }
    }

    /// The witness for spending `note`, which sits in the tree where `path` says.
    pub fn new(note: &Note, path: &MerklePath) -> Result<Self, ProofError> {
        let siblings: [Fr; DEPTH] = path
            .siblings
            .as_slice()
            .try_into()
            .map_err(|_| ProofError::WrongDepth(path.siblings.len()))?;
        Ok(Witness {
            nullifier: note.nullifier(),
            secret: note.secret(),
            siblings,
            index: path.index,
        })
    }
}

impl std::fmt::Debug for Witness {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "Witness(leaf {}, secrets redacted)", self.index)
    }
}

#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum ProofError {
    #[error("the {0} is not a {SECRET_BITS}-bit value, so it cannot come from a note")]
    OutOfRange(&'static str),
    #[error("the note's nullifier does not hash to the given nullifier hash")]
    WrongNullifierHash,
    #[error("the note is not under root {root}: wrong Merkle path, leaf index or secret")]
    NotInTree { root: String },
    #[error("the Merkle path has {0} levels, the circuit {DEPTH}")]
    WrongDepth(usize),
    #[error("leaf index {0} does not fit a depth-{DEPTH} tree")]
    IndexTooLarge(u32),
    #[error("proving failed: {0}")]
    Prover(String),
    #[error("the proof just made does not verify (a bug, or corrupted keys)")]
    SelfCheckFailed,
    #[error("proof word {index} is not below the base field modulus q")]
    WordOutOfField { index: usize },
    #[error("proof point {0} is not on the curve or not in its subgroup")]
    BadPoint(&'static str),
    #[error("a proof is 256 bytes (0x + 512 hex digits), got {0}")]
    WrongLength(usize),
    #[error("the proof is not hex")]
    NotHex,
    #[error(transparent)]
    Field(#[from] FieldError),
}

/// The root the witness's path leads to from its note.
pub fn root_of(witness: &Witness) -> Fr {
    let mut node = poseidon::hash2(witness.nullifier, witness.secret);
    for (level, sibling) in witness.siblings.iter().enumerate() {
        node = if witness.index >> level & 1 == 1 {
            poseidon::hash2(*sibling, node)
        } else {
            poseidon::hash2(node, *sibling)
        };
    }
    node
}

fn fits_bits(value: &Fr, bits: usize) -> bool {
    field::to_u256(value).bit_len() <= bits
}

/// Makes a withdrawal proof. Everything the circuit would reject is checked natively first,
/// with an error that says what is wrong (an unsatisfied circuit would otherwise yield a proof
/// that simply fails to verify), and the finished proof is verified before it is returned.
pub fn prove<R: RngCore + CryptoRng>(
    keys: &Keys,
    public: &PublicInputs,
    witness: &Witness,
    rng: &mut R,
) -> Result<Proof<Bn254>, ProofError> {
    prove_randomized(keys, public, witness, randomness(rng))
}

/// The two scalars that randomize a Groth16 proof, as `Groth16::prove` draws them.
pub(crate) fn randomness<R: RngCore + CryptoRng>(rng: &mut R) -> (Fr, Fr) {
    (Fr::rand(rng), Fr::rand(rng))
}

/// [`prove`] with its randomness drawn. Not generic, so the prover is compiled (and
/// optimized) here, not in each crate that calls [`prove`] with its own RNG type: in an
/// unoptimized caller the same proof took several times as long.
fn prove_randomized(
    keys: &Keys,
    public: &PublicInputs,
    witness: &Witness,
    randomness: (Fr, Fr),
) -> Result<Proof<Bn254>, ProofError> {
    if DEPTH < 32 && witness.index >> DEPTH != 0 {
        return Err(ProofError::IndexTooLarge(witness.index));
    }
    if !fits_bits(&witness.nullifier, SECRET_BITS) {
        return Err(ProofError::OutOfRange("nullifier"));
    }
    if !fits_bits(&witness.secret, SECRET_BITS) {
        return Err(ProofError::OutOfRange("secret"));
    }
    if poseidon::hash1(witness.nullifier) != public.nullifier_hash {
        return Err(ProofError::WrongNullifierHash);
    }
    if root_of(witness) != public.root {
        return Err(ProofError::NotInTree {
            root: field::to_hex(&public.root),
        });
    }
    let circuit = witness.circuit(public);
    // The constraint system is the same for every proof: its matrices are made once
    // (`r1cs::withdraw_matrices`), and a proof only computes the assignment.
    let z = r1cs::full_assignment(circuit).map_err(|e| ProofError::Prover(e.to_string()))?;
    let proof = prove_assignment(
        &keys.proving,
        keys.setup(),
        (r1cs::withdraw(), r1cs::withdraw_matrices()),
        &z,
        randomness,
    )
    .map_err(|e| ProofError::Prover(e.to_string()))?;
    if !verify(keys, public, &proof) {
        return Err(ProofError::SelfCheckFailed);
    }
    Ok(proof)
}

/// Groth16 over a circuit's constraint system and matrices (made once per process, see
/// `r1cs`) for the full assignment `z`, randomized with two fresh scalars ([`randomness`]),
/// with the R1CS-to-QAP reduction the keys were made for (see `Setup`): a proof made with the
/// other one does not verify.
pub(crate) fn prove_assignment(
    proving: &ProvingKey<Bn254>,
    setup: Setup,
    (system, matrices): (&r1cs::R1cs, &[r1cs::Matrix; 3]),
    z: &[Fr],
    randomness: (Fr, Fr),
) -> Result<Proof<Bn254>, SynthesisError> {
    fn with<Q: R1CSToQAP>(
        proving: &ProvingKey<Bn254>,
        randomness: (Fr, Fr),
        (system, matrices): (&r1cs::R1cs, &[r1cs::Matrix; 3]),
        z: &[Fr],
    ) -> Result<Proof<Bn254>, SynthesisError> {
        let shape = (system.num_instance, system.num_constraints());
        crate::prover::prove::<Q>(proving, randomness, &matrices[..], shape, z)
    }
    match setup {
        Setup::Arkworks => with::<LibsnarkReduction>(proving, randomness, (system, matrices), z),
        Setup::Snarkjs => with::<SnarkjsReduction>(proving, randomness, (system, matrices), z),
    }
}

/// Checks a proof against the public inputs.
pub fn verify(keys: &Keys, public: &PublicInputs, proof: &Proof<Bn254>) -> bool {
    Groth16::<Bn254>::verify_with_processed_vk(keys.prepared(), &public.instance(), proof)
        .unwrap_or(false)
}

impl PublicInputs {
    /// Reads the six words a contract call or an API request carries, refusing any ≥ r: a
    /// root or nullifier hash at or above r would be a second name for the same note (the
    /// pool's hasher refuses them too), and the circuit holds every value as a field element.
    pub fn from_words(words: &[U256; 6]) -> Result<Self, FieldError> {
        let names = [
            "root",
            "nullifierHash",
            "recipient",
            "relayer",
            "fee",
            "refund",
        ];
        let f = |i: usize| field::from_u256(words[i], names[i]);
        Ok(PublicInputs {
            root: f(0)?,
            nullifier_hash: f(1)?,
            recipient: f(2)?,
            relayer: f(3)?,
            fee: f(4)?,
            refund: f(5)?,
        })
    }

    /// The six words in the order [`PublicInputs::from_words`] reads them.
    pub fn to_words(&self) -> [U256; 6] {
        [
            self.root,
            self.nullifier_hash,
            self.recipient,
            self.relayer,
            self.fee,
            self.refund,
        ]
        .map(|value| field::to_u256(&value))
    }
}

/// A proof in the contract's layout.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct EncodedProof(pub [U256; 8]);

impl EncodedProof {
    pub fn from_proof(proof: &Proof<Bn254>) -> Self {
        let [ax, ay] = g1_words(&proof.a);
        let [[bx1, bx0], [by1, by0]] = g2_words(&proof.b);
        let [cx, cy] = g1_words(&proof.c);
        EncodedProof([ax, ay, bx1, bx0, by1, by0, cx, cy])
    }

    /// Back to arkworks, checking every word is below q and every point is on the curve and in
    /// the prime-order subgroup.
    pub fn to_proof(&self) -> Result<Proof<Bn254>, ProofError> {
        let w = &self.0;
        let fq = |i: usize| -> Result<Fq, ProofError> {
            Fq::from_bigint(BigInt::new(w[i].into_limbs()))
                .ok_or(ProofError::WordOutOfField { index: i })
        };
        let g1 = |x: usize, name: &'static str| -> Result<G1Affine, ProofError> {
            let (px, py) = (fq(x)?, fq(x + 1)?);
            if w[x].is_zero() && w[x + 1].is_zero() {
                return Ok(G1Affine::zero());
            }
            let p = G1Affine::new_unchecked(px, py);
            if p.is_on_curve() && p.is_in_correct_subgroup_assuming_on_curve() {
                Ok(p)
            } else {
                Err(ProofError::BadPoint(name))
            }
        };
        let a = g1(0, "A")?;
        let c = g1(6, "C")?;
        let (x1, x0, y1, y0) = (fq(2)?, fq(3)?, fq(4)?, fq(5)?);
        let b = if w[2..6].iter().all(|x| x.is_zero()) {
            G2Affine::zero()
        } else {
            let p = G2Affine::new_unchecked(Fq2::new(x0, x1), Fq2::new(y0, y1));
            if !(p.is_on_curve() && p.is_in_correct_subgroup_assuming_on_curve()) {
                return Err(ProofError::BadPoint("B"));
            }
            p
        };
        Ok(Proof { a, b, c })
    }

    /// 256 big-endian bytes: `abi.encode(uint256[8])`.
    pub fn to_bytes(&self) -> [u8; 256] {
        let mut out = [0u8; 256];
        for (i, word) in self.0.iter().enumerate() {
            out[i * 32..(i + 1) * 32].copy_from_slice(&word.to_be_bytes::<32>());
        }
        out
    }

    pub fn from_bytes(bytes: &[u8]) -> Result<Self, ProofError> {
        if bytes.len() != 256 {
            return Err(ProofError::WrongLength(bytes.len()));
        }
        Ok(EncodedProof(std::array::from_fn(|i| {
            U256::from_be_slice(&bytes[i * 32..(i + 1) * 32])
        })))
    }

    /// `0x` + 512 lower-case hex digits.
    pub fn to_hex(&self) -> String {
        format!("0x{}", hex::encode(self.to_bytes()))
    }

    pub fn from_hex(s: &str) -> Result<Self, ProofError> {
        let digits = s.trim().trim_start_matches("0x");
        let bytes = hex::decode(digits).map_err(|_| ProofError::NotHex)?;
        Self::from_bytes(&bytes)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use ark_ff::Field;
    use ark_std::UniformRand;
    use rand_core::SeedableRng;

    fn rng() -> rand_chacha::ChaCha20Rng {
        rand_chacha::ChaCha20Rng::seed_from_u64(42)
    }

    /// A note at leaf 5 of a tree whose other nodes are random.
    fn setup() -> (PublicInputs, Witness) {
        let mut r = rng();
        let small = |r: &mut rand_chacha::ChaCha20Rng| {
            let mut bytes = [0u8; 31];
            r.fill_bytes(&mut bytes);
            Fr::from_be_bytes_mod_order(&bytes)
        };
        let witness = Witness {
            nullifier: small(&mut r),
            secret: small(&mut r),
            siblings: std::array::from_fn(|_| Fr::rand(&mut r)),
            index: 5,
        };
        let public = PublicInputs {
            root: root_of(&witness),
            nullifier_hash: poseidon::hash1(witness.nullifier),
            recipient: field::from_address(&[0x11; 20]),
            relayer: field::from_address(&[0x22; 20]),
            fee: Fr::from(1_000_000u64),
            refund: Fr::from(0u64),
        };
        (public, witness)
    }

    #[test]
    fn prove_verify_encode_and_tamper() {
        let keys = Keys::insecure_dev();
        let (public, witness) = setup();
        let proof = prove(keys, &public, &witness, &mut rng()).unwrap();
        assert!(verify(keys, &public, &proof));

        let encoded = EncodedProof::from_proof(&proof);
        let hex = encoded.to_hex();
        assert_eq!(hex.len(), 2 + 512);
        let back = EncodedProof::from_hex(&hex).unwrap().to_proof().unwrap();
        assert_eq!(back, proof);

        // Every public input changed: no longer verifies.
        for i in 0..6 {
            let mut words = public.to_words();
            words[i] ^= U256::from(1);
            let tampered = PublicInputs::from_words(&words).unwrap();
            assert!(!verify(keys, &tampered, &proof), "input {i}");
        }
        // nullifierHash + r is refused before it could alias.
        let mut words = public.to_words();
        words[1] += field::MODULUS;
        assert!(PublicInputs::from_words(&words).is_err());
        // A changed proof word: either not a point, or a proof that fails.
        let mut bad = encoded;
        bad.0[0] ^= U256::from(1);
        match bad.to_proof() {
            Err(ProofError::BadPoint("A")) => {}
            Ok(p) => assert!(!verify(keys, &public, &p)),
            Err(e) => panic!("{e}"),
        }
        let mut big = encoded;
        big.0[3] = U256::MAX;
        assert_eq!(big.to_proof(), Err(ProofError::WordOutOfField { index: 3 }));
        assert_eq!(
            EncodedProof::from_hex("0x1234"),
            Err(ProofError::WrongLength(2))
        );
    }

    #[test]
    fn wrong_witnesses_cannot_prove() {
        let keys = Keys::insecure_dev();
        let (public, witness) = setup();
        let mut wrong_secret = witness.clone();
        wrong_secret.secret += Fr::from(1u64);
        assert!(matches!(
            prove(keys, &public, &wrong_secret, &mut rng()),
            Err(ProofError::NotInTree { .. })
        ));
        let mut wrong_path = witness.clone();
        wrong_path.index = 4;
        assert!(matches!(
            prove(keys, &public, &wrong_path, &mut rng()),
            Err(ProofError::NotInTree { .. })
        ));
        let mut wrong_sibling = witness.clone();
        wrong_sibling.siblings[19] += Fr::from(1u64);
        assert!(matches!(
            prove(keys, &public, &wrong_sibling, &mut rng()),
            Err(ProofError::NotInTree { .. })
        ));
        let mut beyond = witness.clone();
        beyond.index = 1 << DEPTH;
        assert_eq!(
            prove(keys, &public, &beyond, &mut rng()).unwrap_err(),
            ProofError::IndexTooLarge(1 << DEPTH)
        );
        let short = MerklePath {
            siblings: witness.siblings[..DEPTH - 1].to_vec(),
            index: witness.index,
        };
        let note = Note::from_bytes(
            crate::note::NoteMeta::usdt(100, "devnet").unwrap(),
            &[1; 31],
            &[2; 31],
        );
        assert_eq!(
            Witness::new(&note, &short).unwrap_err(),
            ProofError::WrongDepth(DEPTH - 1)
        );
        let mut wrong_nullifier = witness.clone();
        wrong_nullifier.nullifier += Fr::from(1u64);
        assert_eq!(
            prove(keys, &public, &wrong_nullifier, &mut rng()).unwrap_err(),
            ProofError::WrongNullifierHash
        );
    }

    /// The circuit itself (not only the native checks) refuses what it must: a full-width
    /// nullifier, a wrong root.
    #[test]
    fn the_circuit_enforces_range_and_root() {
        use ark_relations::gr1cs::{ConstraintSynthesizer, ConstraintSystem};
        let (public, witness) = setup();
        let circuit = |public: PublicInputs, witness: &Witness| WithdrawCircuit {
            public,
            nullifier: witness.nullifier,
            secret: witness.secret,
            siblings: witness.siblings,
            index: witness.index,
        };
        let satisfied = |c: WithdrawCircuit| {
            let cs = ConstraintSystem::<Fr>::new_ref();
            c.generate_constraints(cs.clone()).unwrap();
            cs.is_satisfied().unwrap()
        };
        assert!(satisfied(circuit(public, &witness)));

        let mut wide = witness.clone();
        wide.nullifier = Fr::from(2u64).pow([248u64]);
        let mut p = public;
        p.nullifier_hash = poseidon::hash1(wide.nullifier);
        p.root = root_of(&wide);
        assert!(!satisfied(circuit(p, &wide)));

        let mut wrong_root = public;
        wrong_root.root += Fr::from(1u64);
        assert!(!satisfied(circuit(wrong_root, &witness)));
    }
}
