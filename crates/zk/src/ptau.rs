//! A reader for snarkjs powers-of-tau files (`.ptau`) prepared for Phase 2: the Phase 1
//! transcript a Groth16 setup starts from.
//!
//! The file is an iden3 binary file (`"ptau"`, version 1). Section 1 is the header (the size
//! of a base-field element, the prime q, the power and the ceremony's power); 2 holds
//! `τ^i·G1` for `i < 2^(power+1) − 1`, 3 `τ^i·G2`, 4 `α·τ^i·G1`, 5 `β·τ^i·G1` (each for
//! `i < 2^power`), 6 `β·G2`, 7 the contributions. `powersoftau prepare phase2` adds 12–15: the
//! same four series in Lagrange form, for every domain size `2^p` with `p ≤ power` one after
//! the other (so the domain of size `m` starts at point `m − 1`), and for `τ·G1` also the
//! domain `2^(power+1)`, whose odd points are the H query. Points are encoded as in a zkey
//! (see [`crate::zkey`]).
//!
//! Nothing here checks that the transcript is honest or internally consistent (that the
//! Lagrange sections are the powers' transforms, that each contribution follows the last):
//! that is `snarkjs powersoftau verify`'s work, done once for a public transcript, which is
//! then known by its BLAKE2b-512 hash ([`blake2b512`]).

use ark_bn254::{Fq, G1Affine, G2Affine};
use ark_ff::PrimeField;
use blake2::{Blake2b512, Digest};

use crate::keys::KeyError;
use crate::zkey::{self, Context, G1_BYTES, G2_BYTES};

/// A prepared powers-of-tau file, read and checked point by point where it is used.
pub struct Ptau<'a> {
    /// The transcript has `2^power` powers of τ (in G2, and α, β times them in G1).
    pub power: u32,
    sections: Vec<(u32, &'a [u8])>,
    cx: Context<'a>,
}

/// The BLAKE2b-512 hash of a file, the name the snarkjs README (and `b2sum`) give each
/// public Phase 1 transcript.
pub fn blake2b512(bytes: &[u8]) -> [u8; 64] {
    let mut out = [0u8; 64];
    out.copy_from_slice(&Blake2b512::digest(bytes)[..]);
    out
}

impl<'a> Ptau<'a> {
    /// Reads the header and the section table; `what` names the file in errors.
    pub fn parse(bytes: &'a [u8], what: &'a str) -> Result<Self, KeyError> {
        let cx = Context { what };
        let sections = zkey::binfile_sections(bytes, b"ptau", 1, &cx)?;
        let mut ptau = Ptau {
            power: 0,
            sections,
            cx,
        };
        let header = ptau.section(1)?;
        if header.len() != 4 + 32 + 8 || zkey::u32_at(header, 0) != 32 {
            return Err(ptau
                .cx
                .malformed("its header is not BN254's (32-byte field)"));
        }
        if zkey::bigint_le(&header[4..36]) != Fq::MODULUS {
            return Err(ptau.cx.malformed("its curve is not BN254 (alt_bn128)"));
        }
        ptau.power = zkey::u32_at(header, 36);
        if !(1..=27).contains(&ptau.power) {
            return Err(ptau
                .cx
                .malformed(format!("power {} is out of range", ptau.power)));
        }
        for id in 12..=15 {
            if ptau.section(id).is_err() {
                return Err(ptau.cx.malformed(
                    "it is not prepared for Phase 2 (no Lagrange sections 12–15): run \
                     `snarkjs powersoftau prepare phase2` on it, or use a *_final_*.ptau",
                ));
            }
        }
        Ok(ptau)
    }

    fn section(&self, id: u32) -> Result<&'a [u8], KeyError> {
        let mut found = self.sections.iter().filter(|(i, _)| *i == id);
        match (found.next(), found.next()) {
            (Some((_, body)), None) => Ok(*body),
            (None, _) => Err(self.cx.malformed(format!("section {id} is missing"))),
            (Some(_), Some(_)) => Err(self.cx.malformed(format!("section {id} appears twice"))),
        }
    }

    /// `count` points of section `id` from point `from` on.
    fn slice(
        &self,
        id: u32,
        point: usize,
        from: usize,
        count: usize,
    ) -> Result<&'a [u8], KeyError> {
        let body = self.section(id)?;
        let (start, end) = (from * point, (from + count) * point);
        body.get(start..end).ok_or_else(|| {
            self.cx.malformed(format!(
                "section {id} has {} points, {} needed",
                body.len() / point,
                from + count
            ))
        })
    }

    fn g1s(
        &self,
        id: u32,
        name: &str,
        from: usize,
        count: usize,
    ) -> Result<Vec<G1Affine>, KeyError> {
        zkey::g1_points(
            self.slice(id, G1_BYTES, from, count)?,
            id,
            name,
            count,
            &self.cx,
        )
    }

    fn g2s(
        &self,
        id: u32,
        name: &str,
        from: usize,
        count: usize,
    ) -> Result<Vec<G2Affine>, KeyError> {
        zkey::g2_points(
            self.slice(id, G2_BYTES, from, count)?,
            id,
            name,
            count,
            &self.cx,
        )
    }

    /// Whether a circuit whose domain has `n` points fits (its H query needs the domain 2n).
    pub fn fits(&self, n: usize) -> bool {
        n.is_power_of_two() && n <= 1usize << self.power
    }

    /// `α·G1`, `β·G1` and `β·G2`: the verifying key's α and β.
    pub fn alpha_beta(&self) -> Result<(G1Affine, G1Affine, G2Affine), KeyError> {
        let alpha = self.g1s(4, "alpha·tau^0", 0, 1)?;
        let beta1 = self.g1s(5, "beta·tau^0", 0, 1)?;
        let beta2 = self.g2s(6, "beta2", 0, 1)?;
        Ok((alpha[0], beta1[0], beta2[0]))
    }

    /// The Lagrange basis at τ over the domain of size `n`, in G1 (section 12), G2 (13),
    /// times α (14) and times β (15).
    pub fn lagrange(&self, n: usize) -> Result<Lagrange, KeyError> {
        Ok(Lagrange {
            tau_g1: self.g1s(12, "tau lagrange G1", n - 1, n)?,
            tau_g2: self.g2s(13, "tau lagrange G2", n - 1, n)?,
            alpha_tau_g1: self.g1s(14, "alpha·tau lagrange G1", n - 1, n)?,
            beta_tau_g1: self.g1s(15, "beta·tau lagrange G1", n - 1, n)?,
        })
    }

    /// The H query a setup takes for a domain of `n` points: the odd points of the Lagrange
    /// basis over the domain `2n` (see [`crate::qap`]), with no δ yet.
    pub fn h_query(&self, n: usize) -> Result<Vec<G1Affine>, KeyError> {
        let double = self.g1s(12, "tau lagrange G1 (domain 2n)", 2 * n - 1, 2 * n)?;
        Ok(double.into_iter().skip(1).step_by(2).collect())
    }

    /// `τ^i·G1` for `i < count` (section 2).
    pub fn tau_g1(&self, count: usize) -> Result<Vec<G1Affine>, KeyError> {
        self.g1s(2, "tau G1", 0, count)
    }

    /// How many `τ^i·G1` section 2 holds: `2^(power+1) − 1`.
    pub fn tau_g1_len(&self) -> usize {
        self.section(2).map_or(0, |body| body.len() / G1_BYTES)
    }
}

/// The Lagrange basis of one domain at τ, as [`Ptau::lagrange`] reads it.
pub struct Lagrange {
    pub tau_g1: Vec<G1Affine>,
    pub tau_g2: Vec<G2Affine>,
    pub alpha_tau_g1: Vec<G1Affine>,
    pub beta_tau_g1: Vec<G1Affine>,
}
