//! snarkjs's JSON forms of keys, proofs and public inputs, so tests can hand our proofs to
//! `snarkjs groth16 verify` and read back what `snarkjs groth16 prove` wrote: decimal
//! strings, projective coordinates with a `"1"` z, and an Fq2 as `[c0, c1]`.

use std::path::Path;
use std::str::FromStr;

use ark_bn254::{Bn254, Fq, Fq2, G1Affine, G2Affine};
use ark_ec::AffineRepr;
use ark_groth16::{Proof, VerifyingKey};
use serde_json::{Value, json};
use zk::Fr;

pub fn g1_json(p: &G1Affine) -> Value {
    if p.is_zero() {
        return json!(["0", "1", "0"]);
    }
    json!([p.x.to_string(), p.y.to_string(), "1"])
}

pub fn g2_json(p: &G2Affine) -> Value {
    json!([
        [p.x.c0.to_string(), p.x.c1.to_string()],
        [p.y.c0.to_string(), p.y.c1.to_string()],
        ["1", "0"]
    ])
}

/// A verifying key as `snarkjs zkey export verificationkey` writes it.
pub fn vk_json(vk: &VerifyingKey<Bn254>) -> Value {
    json!({
        "protocol": "groth16",
        "curve": "bn128",
        "nPublic": vk.gamma_abc_g1.len() - 1,
        "vk_alpha_1": g1_json(&vk.alpha_g1),
        "vk_beta_2": g2_json(&vk.beta_g2),
        "vk_gamma_2": g2_json(&vk.gamma_g2),
        "vk_delta_2": g2_json(&vk.delta_g2),
        "IC": vk.gamma_abc_g1.iter().map(g1_json).collect::<Vec<_>>(),
    })
}

pub fn proof_json(p: &Proof<Bn254>) -> Value {
    json!({
        "pi_a": g1_json(&p.a),
        "pi_b": g2_json(&p.b),
        "pi_c": g1_json(&p.c),
        "protocol": "groth16",
        "curve": "bn128",
    })
}

/// Public inputs as `public.json`: decimal strings.
pub fn instance_json(instance: &[Fr]) -> Value {
    json!(
        instance
            .iter()
            .map(zk::field::to_decimal)
            .collect::<Vec<_>>()
    )
}

fn fq(v: &Value) -> Fq {
    Fq::from_str(v.as_str().expect("a decimal string")).expect("a base field element")
}

pub fn g1_from_json(v: &Value) -> G1Affine {
    assert_eq!(v[2], "1", "affine");
    let p = G1Affine::new_unchecked(fq(&v[0]), fq(&v[1]));
    assert!(p.is_on_curve());
    p
}

pub fn g2_from_json(v: &Value) -> G2Affine {
    assert_eq!(v[2], json!(["1", "0"]), "affine");
    let p = G2Affine::new_unchecked(
        Fq2::new(fq(&v[0][0]), fq(&v[0][1])),
        Fq2::new(fq(&v[1][0]), fq(&v[1][1])),
    );
    assert!(p.is_on_curve() && p.is_in_correct_subgroup_assuming_on_curve());
    p
}

/// A proof as `snarkjs groth16 prove` writes it.
pub fn proof_from_json(p: &Value) -> Proof<Bn254> {
    Proof {
        a: g1_from_json(&p["pi_a"]),
        b: g2_from_json(&p["pi_b"]),
        c: g1_from_json(&p["pi_c"]),
    }
}

pub fn write_json(path: &Path, v: &Value) {
    std::fs::write(path, v.to_string()).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
}

pub fn read_json(path: &Path) -> Value {
    let text = std::fs::read_to_string(path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    serde_json::from_str(&text).unwrap_or_else(|e| panic!("{}: {e}", path.display()))
}

/// `snarkjs groth16 verify` of `proof` for `instance` under `vk`, through files written in
/// `dir` (`vk.json`, `public.json`, `proof.json`): what snarkjs printed and its exit status.
pub fn snarkjs_groth16_verify(
    dir: &Path,
    vk: &VerifyingKey<Bn254>,
    instance: &[Fr],
    proof: &Proof<Bn254>,
) -> std::process::Output {
    let (vk_path, public_path, proof_path) = (
        dir.join("vk.json"),
        dir.join("public.json"),
        dir.join("proof.json"),
    );
    write_json(&vk_path, &vk_json(vk));
    write_json(&public_path, &instance_json(instance));
    write_json(&proof_path, &proof_json(proof));
    let path = |p: &Path| p.to_str().expect("a UTF-8 path").to_owned();
    crate::interop::snarkjs(&[
        "groth16",
        "verify",
        &path(&vk_path),
        &path(&public_path),
        &path(&proof_path),
    ])
}
