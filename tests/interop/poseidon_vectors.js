#!/usr/bin/env node
// circomlibjs's Poseidon, as the independent side of tronpool's Poseidon interop test
// (crates/zk/tests/circomlibjs.rs).
//
//   node tests/interop/poseidon_vectors.js < input.json
//
// stdin:  {"inputs": [["<decimal>", ...], ...]}   1 to 16 field elements each, each below r
// stdout: {"outputs": ["<decimal>", ...]}         circomlibjs buildPoseidon() of each, in order
//
// buildPoseidon() is circomlibjs's wasm implementation with the optimised constants
// (poseidon_constants_opt); every output is also checked against its plain-JS
// buildPoseidonReference() (the unoptimised constants), and a disagreement is an error.
// Exit 0 on success, 1 on unreadable input or a disagreement, 2 on usage errors.
"use strict";

const R = 21888242871839275222246405745257275088548364400416034343698204186575808495617n;

function fail(code, message) {
    process.stderr.write(`poseidon_vectors: ${message}\n`);
    process.exit(code);
}

async function readStdin() {
    const chunks = [];
    for await (const chunk of process.stdin) chunks.push(chunk);
    return Buffer.concat(chunks).toString("utf8");
}

function parseInputs(text) {
    let doc;
    try {
        doc = JSON.parse(text);
    } catch (e) {
        fail(1, `stdin is not JSON: ${e.message}`);
    }
    if (!doc || !Array.isArray(doc.inputs)) fail(1, 'expected {"inputs": [[...], ...]}');
    return doc.inputs.map((input, i) => {
        if (!Array.isArray(input) || input.length < 1 || input.length > 16) {
            fail(1, `inputs[${i}]: expected 1 to 16 decimal strings`);
        }
        return input.map((s, j) => {
            if (typeof s !== "string" || !/^[0-9]+$/.test(s)) {
                fail(1, `inputs[${i}][${j}]: not a decimal string`);
            }
            const v = BigInt(s);
            if (v >= R) fail(1, `inputs[${i}][${j}]: not below the field modulus`);
            return v;
        });
    });
}

async function main() {
    if (process.argv.length > 2) fail(2, "usage: node poseidon_vectors.js < input.json");
    const inputs = parseInputs(await readStdin());

    let circomlibjs;
    try {
        circomlibjs = require("circomlibjs");
    } catch (e) {
        fail(1, `circomlibjs is not installed (run: bash tests/interop/install.sh): ${e.message}`);
    }
    const poseidon = await circomlibjs.buildPoseidon();
    const reference = await circomlibjs.buildPoseidonReference();

    const outputs = inputs.map((input, i) => {
        const out = poseidon.F.toString(poseidon(input));
        const plain = reference.F.toString(reference(input));
        if (out !== plain) {
            fail(1, `inputs[${i}]: buildPoseidon gives ${out}, buildPoseidonReference ${plain}`);
        }
        return out;
    });
    process.stdout.write(JSON.stringify({ outputs }) + "\n");
}

main().then(
    () => process.exit(0),
    (e) => fail(1, e && e.stack ? e.stack : String(e)),
);
