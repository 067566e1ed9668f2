#!/usr/bin/env node
/*
 * An external signer for tronpool's REST API: unmodified TronWeb 6.5.1 signs the unsigned
 * transactions `/api/tx/*` returned, exactly as a wallet front end would, broadcasts them to
 * the node, and waits for their receipts.
 *
 *   TRONPOOL_TEST_KEY=<hex> node tests/interop/api_tronweb.js < input.json
 *
 * The key comes from the environment, never an argument (process lists are public).
 * stdin:  {"node": "http://127.0.0.1:PORT", "transactions": [<the API's `transaction`>, ...]}
 * stdout: {"results": [{"txid", "broadcast": <sendRawTransaction's answer>,
 *                       "receipt": "SUCCESS" | "REVERT" | ..., "info": <getTransactionInfo>}]}
 * Exits non-zero with the reason on stderr when TronWeb refuses to sign.
 */
'use strict';

const realStdoutWrite = process.stdout.write.bind(process.stdout);
console.log = console.error;
console.info = console.error;
console.warn = console.error;
console.debug = console.error;

const { TronWeb } = require('tronweb');

async function readStdin() {
  const chunks = [];
  for await (const chunk of process.stdin) chunks.push(chunk);
  return JSON.parse(Buffer.concat(chunks).toString('utf8'));
}

async function receipt(tronWeb, txid) {
  for (let i = 0; i < 100; i++) {
    const info = await tronWeb.trx.getTransactionInfo(txid);
    if (info && info.id) return info;
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error(`no receipt for ${txid}`);
}

async function main() {
  const key = process.env.TRONPOOL_TEST_KEY;
  if (!key) throw new Error('TRONPOOL_TEST_KEY is not set');
  const input = await readStdin();
  const tronWeb = new TronWeb({ fullHost: input.node, privateKey: key });
  const results = [];
  for (const tx of input.transactions) {
    // `trx.sign` checks the transaction first (txID against raw_data_hex, raw_data against
    // raw_data_hex) and refuses one that is not the owner's: it signs the API's JSON as is.
    const signed = await tronWeb.trx.sign(tx, key);
    const broadcast = await tronWeb.trx.sendRawTransaction(signed);
    const result = { txid: signed.txID, broadcast };
    if (broadcast.result) {
      const info = await receipt(tronWeb, signed.txID);
      result.receipt = (info.receipt && info.receipt.result) || 'SUCCESS';
      result.info = info;
    }
    results.push(result);
  }
  realStdoutWrite(JSON.stringify({ results }) + '\n');
}

main().catch((e) => {
  process.stderr.write(`api_tronweb: ${e && e.stack ? e.stack : e}\n`);
  process.exit(1);
});
