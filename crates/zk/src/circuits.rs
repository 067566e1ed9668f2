//! tronpool's two circuits by name: `Withdraw(20)`, which guards the pools' funds, and
//! `BatchInsert(5, 20)`, which guards their trees. A ceremony, a zkey and a verifier belong
//! to one of them; this is the one place that says which sizes and constraint system each
//! has, so that a key is recognized by what it holds, not by a flag (its development key's
//! hash is `crate::keys`', which knows keys). Nothing here knows a key: the zkey reader and
//! the keys build on it.

use std::fmt;
use std::str::FromStr;

use crate::r1cs::R1cs;

/// One of tronpool's circuits.
#[derive(
    Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, serde::Serialize, serde::Deserialize,
)]
#[serde(rename_all = "lowercase")]
pub enum Circuit {
    /// Spends a note: proves a leaf of a known root and its nullifier.
    Withdraw,
    /// Inserts queued deposits: proves the new root appends them to the old one.
    Batch,
}

impl Circuit {
    /// Both, in the order a deployment lists their verifiers.
    pub const ALL: [Circuit; 2] = [Circuit::Withdraw, Circuit::Batch];

    /// What a key record made before there were two circuits was for.
    pub fn withdraw() -> Circuit {
        Circuit::Withdraw
    }

    /// Its name on the command line, in files and in messages.
    pub fn name(self) -> &'static str {
        match self {
            Circuit::Withdraw => "withdraw",
            Circuit::Batch => "batch",
        }
    }

    /// Its constraint system, synthesized once per process.
    pub fn constraint_system(self) -> &'static R1cs {
        match self {
            Circuit::Withdraw => crate::r1cs::withdraw(),
            Circuit::Batch => crate::batch::constraint_system(),
        }
    }

    /// Its `.r1cs` file, for `snarkjs groth16 setup`.
    pub fn r1cs_file(self) -> Vec<u8> {
        crate::r1cs::encode_r1cs(self.constraint_system())
    }

    /// The circuit with `vars` wires (the constant one included), `public` public inputs and
    /// a `domain`-point evaluation domain, as a zkey's header states them; `None` when it is
    /// neither. The two differ in every one of them.
    pub fn with_sizes(vars: usize, public: usize, domain: usize) -> Option<Circuit> {
        Circuit::ALL.into_iter().find(|c| {
            let r = c.constraint_system();
            r.num_wires() == vars && r.num_public() == public && r.domain_size() == domain
        })
    }

    /// How both circuits' sizes read, for an error about a key that is neither.
    pub fn sizes_of_all() -> String {
        Circuit::ALL
            .iter()
            .map(|c| {
                let r = c.constraint_system();
                format!(
                    "{}: {} variables, {} public input(s), domain {}",
                    c.name(),
                    r.num_wires(),
                    r.num_public(),
                    r.domain_size()
                )
            })
            .collect::<Vec<_>>()
            .join("; ")
    }
}

impl fmt::Display for Circuit {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

impl FromStr for Circuit {
    type Err = String;

    fn from_str(s: &str) -> Result<Self, Self::Err> {
        Circuit::ALL
            .into_iter()
            .find(|c| c.name() == s)
            .ok_or_else(|| format!("no circuit {s:?}: tronpool's circuits are withdraw and batch"))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn each_circuit_is_known_by_its_sizes_and_its_name() {
        for c in Circuit::ALL {
            let r = c.constraint_system();
            assert_eq!(
                Circuit::with_sizes(r.num_wires(), r.num_public(), r.domain_size()),
                Some(c)
            );
            assert_eq!(c.name().parse::<Circuit>(), Ok(c));
        }
        let w = Circuit::Withdraw.constraint_system();
        assert_eq!(
            Circuit::with_sizes(w.num_wires() + 1, w.num_public(), w.domain_size()),
            None
        );
        assert!("deposit".parse::<Circuit>().is_err());
    }
}
