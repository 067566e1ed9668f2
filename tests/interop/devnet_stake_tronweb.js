#!/usr/bin/env node
/*
 * Stake 2.0 from an independent client: unmodified TronWeb 6.5.1 builds (locally, with its
 * own protobuf encoder), signs and broadcasts Stake 2.0 transactions to tronpool's devnet.
 *
 *   node tests/interop/devnet_stake_tronweb.js < input.json
 *
 * stdin:  {"url": "http://127.0.0.1:PORT", "keys": ["<hex private key>", ...], ...}
 * stdout: one JSON object: the txids TronWeb got back and the resources it read; the Rust
 *         test (crates/devnet/tests/fidelity.rs) decodes every mined transaction with
 *         tronpool's own code and checks the chain's state.
 *
 * Only TronWeb's public API is used: transactionBuilder.freezeBalanceV2 / delegateResource /
 * undelegateResource / unfreezeBalanceV2, trx.sign, trx.sendRawTransaction,
 * trx.getAccountResources.
 */
'use strict';

const realStdoutWrite = process.stdout.write.bind(process.stdout);
console.log = console.error;
console.info = console.error;
console.warn = console.error;
console.debug = console.error;

const { TronWeb } = require('tronweb');

const TRX = 1_000_000;

function readStdin() {
    return new Promise((resolve, reject) => {
        let text = '';
        process.stdin.setEncoding('utf8');
        process.stdin.on('data', (chunk) => (text += chunk));
        process.stdin.on('end', () => resolve(text));
        process.stdin.on('error', reject);
    });
}

async function send(tronWeb, built) {
    const signed = await tronWeb.trx.sign(built);
    const result = await tronWeb.trx.sendRawTransaction(signed);
    if (result.result !== true) {
        throw new Error(`refused: ${JSON.stringify(result)} ${result.message ? TronWeb.toUtf8(result.message) : ''}`);
    }
    return signed.txID;
}

async function main() {
    const args = JSON.parse(await readStdin());
    const tronWeb = new TronWeb({ fullHost: args.url, privateKey: args.keys[4] });
    const owner = tronWeb.defaultAddress.base58;
    const receiver = tronWeb.address.fromPrivateKey(args.keys[5]);
    const b = tronWeb.transactionBuilder;
    const out = { tool: 'tronweb', version: TronWeb.version, owner, receiver, txids: {} };
    out.txids.freeze = await send(tronWeb, await b.freezeBalanceV2(1000 * TRX, 'ENERGY', owner));
    out.txids.delegate = await send(tronWeb, await b.delegateResource(400 * TRX, receiver, 'ENERGY', owner));
    out.receiver_resources = await tronWeb.trx.getAccountResources(receiver);
    out.txids.undelegate = await send(tronWeb, await b.undelegateResource(150 * TRX, receiver, 'ENERGY', owner));
    out.txids.unfreeze = await send(tronWeb, await b.unfreezeBalanceV2(100 * TRX, 'ENERGY', owner));
    out.owner_resources = await tronWeb.trx.getAccountResources(owner);
    return out;
}

main().then(
    (out) => {
        realStdoutWrite(JSON.stringify(out) + '\n');
    },
    (e) => {
        process.stderr.write(`devnet_stake_tronweb: ${e && e.stack ? e.stack : JSON.stringify(e)}\n`);
        process.exit(1);
    }
);
