#!/usr/bin/env node
/*
 * Proof of fidelity: unmodified TronWeb 6.5.1 talking to tronpool's devnet over HTTP.
 *
 *   node tests/interop/devnet_tronweb.js < input.json
 *
 * stdin:  {"url": "http://127.0.0.1:PORT", "keys": ["<hex private key>", ...],
 *          "usdt": "<base58>", "artifact": <DevUSDT artifact: {abi, bytecode, ...}>}
 * stdout: one JSON object with what TronWeb observed (see main()); the Rust test
 *         (crates/devnet/tests/fidelity.rs) checks every value against the chain
 *         through tronpool's own node client.
 *
 * Only TronWeb's public API is used: new TronWeb({fullHost, privateKey}),
 * trx.getBalance / getBandwidth / getEnergyPrices / getBandwidthPrices /
 * getTransactionInfo / sign / sendRawTransaction / sendTransaction,
 * contract().at(...) with .call() / .send(), contract().new(...),
 * transactionBuilder.sendTrx, event.getEventsByContractAddress. Refusals are
 * reported as data ({"code", "message", "txid", "transaction": the signed
 * transaction TronWeb broadcast}); exits non-zero with the reason on stderr on
 * anything unexpected.
 */
'use strict';

const path = require('path');
const fs = require('fs');

// Keep stdout for the JSON document only: route any library chatter to stderr.
const realStdoutWrite = process.stdout.write.bind(process.stdout);
console.log = console.error;
console.info = console.error;
console.warn = console.error;
console.debug = console.error;

const { TronWeb } = require('tronweb');

const EXPECTED_VERSION = '6.5.1';
const FEE_LIMIT = 100_000_000;
const USDT_SENT = 2_345_678;
const USDT_APPROVED = 8_765_432;
const TRX_SENT = 4_000_000;
const NEW_SUPPLY = 123_456_789_000_000n;

function installedVersion() {
    const manifest = path.join(path.dirname(require.resolve('tronweb')), '..', '..', 'package.json');
    const pkgVersion = JSON.parse(fs.readFileSync(manifest, 'utf8')).version;
    return TronWeb.version === pkgVersion ? pkgVersion : `${TronWeb.version}/${pkgVersion}`;
}

function readStdin() {
    return new Promise((resolve, reject) => {
        let text = '';
        process.stdin.setEncoding('utf8');
        process.stdin.on('data', (chunk) => (text += chunk));
        process.stdin.on('end', () => resolve(text));
        process.stdin.on('error', reject);
    });
}

const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

// What `send` leaves to the caller: poll the (solidity) receipt until it has an id.
async function receipt(tronWeb, txid) {
    for (let i = 0; i < 60; i++) {
        const info = await tronWeb.trx.getTransactionInfo(txid);
        if (info && info.id) return info;
        await sleep(500);
    }
    throw new Error(`no receipt for ${txid} after 30 s`);
}

// Numbers TronWeb decodes as BigInt/BigNumber become decimal strings.
function plain(value) {
    if (typeof value === 'bigint') return value.toString();
    if (value && typeof value === 'object' && typeof value.toString === 'function' && value._isBigNumber) {
        return value.toString(10);
    }
    return value;
}

function refusal(result) {
    // TronWeb hands back the node's answer: `code`, and `message` hex-encoded (visible=false).
    const out = { code: result.code || null, txid: result.txid || (result.transaction || {}).txID || null };
    if (result.message) {
        out.message_hex = result.message;
        out.message = TronWeb.toUtf8(result.message);
    }
    if (result.result === true) out.accepted = true;
    return out;
}

async function main() {
    const version = installedVersion();
    if (version !== EXPECTED_VERSION) throw new Error(`tronweb ${version} installed, expected ${EXPECTED_VERSION}`);
    const args = JSON.parse(await readStdin());
    const [key, otherKey] = args.keys;
    const tronWeb = new TronWeb({ fullHost: args.url, privateKey: key });
    const me = tronWeb.defaultAddress.base58;
    const recipient = (await tronWeb.createAccount()).address.base58;
    const trxRecipient = (await tronWeb.createAccount()).address.base58;
    const spender = (await tronWeb.createAccount()).address.base58;
    const out = { tool: 'tronweb', version, owner: me };

    // Balances before anything happens (TronWeb reads them from /walletsolidity).
    out.trx_balance = await tronWeb.trx.getBalance(me);
    const usdt = await tronWeb.contract().at(args.usdt);
    out.usdt_decimals = plain(await usdt.decimals().call());
    out.usdt_balance = plain(await usdt.balanceOf(me).call()).toString();

    // TRC-20 transfer and approve: built by the node, checked byte for byte by TronWeb,
    // signed, broadcast; then the receipt polled.
    let txid = await usdt.transfer(recipient, USDT_SENT).send({ feeLimit: FEE_LIMIT });
    let info = await receipt(tronWeb, txid);
    out.usdt_transfer = {
        txid,
        to: recipient,
        amount: USDT_SENT,
        receipt_id: info.id,
        receipt_block: info.blockNumber,
        receipt_result: (info.receipt || {}).result || null,
        result: info.result || null,
        recipient_balance: plain(await usdt.balanceOf(recipient).call()).toString(),
    };

    txid = await usdt.approve(spender, USDT_APPROVED).send({ feeLimit: FEE_LIMIT });
    info = await receipt(tronWeb, txid);
    out.usdt_approve = {
        txid,
        spender,
        amount: USDT_APPROVED,
        receipt_id: info.id,
        receipt_result: (info.receipt || {}).result || null,
        allowance: plain(await usdt.allowance(me, spender).call()).toString(),
    };

    // TRX transfer (built locally by TronWeb on the head block).
    const sent = await tronWeb.trx.sendTransaction(trxRecipient, TRX_SENT);
    if (!sent.result) throw new Error(`sendTransaction refused: ${JSON.stringify(refusal(sent))}`);
    info = await receipt(tronWeb, sent.transaction.txID);
    out.trx_transfer = {
        txid: sent.transaction.txID,
        to: trxRecipient,
        amount: TRX_SENT,
        receipt_id: info.id,
        fee: info.fee || 0,
        recipient_balance: await tronWeb.trx.getBalance(trxRecipient),
    };

    // Deploy a contract: the DevUSDT artifact, constructor(uint256 initialSupply).
    const deployed = await tronWeb.contract().new({
        abi: args.artifact.abi,
        bytecode: args.artifact.bytecode.replace(/^0x/, ''),
        feeLimit: 1_000_000_000,
        name: 'FidelityUSDT',
        parameters: [NEW_SUPPLY.toString()],
    });
    const loaded = await tronWeb.contract().at(deployed.address);
    out.deploy = {
        address_hex: deployed.address,
        address: tronWeb.address.fromHex(deployed.address),
        initial_supply: NEW_SUPPLY.toString(),
        total_supply: plain(await loaded.totalSupply().call()).toString(),
        decimals: plain(await loaded.decimals().call()),
        symbol: await loaded.symbol().call(),
        owner_balance: plain(await loaded.balanceOf(me).call()).toString(),
    };

    // Events, newest first: must include the USDT transfer made above.
    const events = await tronWeb.event.getEventsByContractAddress(args.usdt, {
        eventName: 'Transfer',
        orderBy: 'block_timestamp,desc',
        limit: 5,
    });
    out.events = events.data;

    // Bandwidth (/wallet/getaccountnet): the owner used some of its free allowance, the TRX
    // recipient none, an address never activated has none. Then the price histories.
    out.bandwidth = {
        owner: await tronWeb.trx.getBandwidth(me),
        trx_recipient: await tronWeb.trx.getBandwidth(trxRecipient),
        unactivated: await tronWeb.trx.getBandwidth((await tronWeb.createAccount()).address.base58),
    };
    out.energy_prices = await tronWeb.trx.getEnergyPrices();
    out.bandwidth_prices = await tronWeb.trx.getBandwidthPrices();

    // Signed by the wrong key. `trx.sign` refuses a key that is not the owner's locally;
    // with multisig=true it signs anyway (no owner check), so the NODE must refuse it.
    const wrong = await tronWeb.transactionBuilder.sendTrx(trxRecipient, 1, me);
    const wronglySigned = await tronWeb.trx.sign(wrong, otherKey, true, true);
    out.sigerror = refusal(await tronWeb.trx.sendRawTransaction(wronglySigned));
    out.sigerror.txid = out.sigerror.txid || wrong.txID;
    out.sigerror.transaction = wronglySigned;

    // Expired. `extendExpiration` refuses to move expiration into the past, so the
    // transaction is rebuilt by TronWeb's own local builder (`sendTrx` with the public
    // `blockHeader` option) from the fresh one's reference block and timestamp, with an
    // expiration one second before that (head) block's time. Signed normally.
    const fresh = await tronWeb.transactionBuilder.sendTrx(trxRecipient, 2, me);
    const blockHeader = {
        ref_block_bytes: fresh.raw_data.ref_block_bytes,
        ref_block_hash: fresh.raw_data.ref_block_hash,
        timestamp: fresh.raw_data.timestamp,
        expiration: fresh.raw_data.timestamp - 1000,
    };
    const stale = await tronWeb.transactionBuilder.sendTrx(trxRecipient, 2, me, { blockHeader });
    const staleSigned = await tronWeb.trx.sign(stale, key);
    out.expired = refusal(await tronWeb.trx.sendRawTransaction(staleSigned));
    out.expired.txid = out.expired.txid || stale.txID;
    out.expired.transaction = staleSigned;
    out.expired.expiration = stale.raw_data.expiration;

    // Balances after everything, for the test to compare with the chain now.
    out.trx_balance_after = await tronWeb.trx.getBalance(me);
    out.usdt_balance_after = plain(await usdt.balanceOf(me).call()).toString();
    return out;
}

main().then(
    (out) => {
        realStdoutWrite(JSON.stringify(out) + '\n');
    },
    (e) => {
        process.stderr.write(`devnet_tronweb: ${e && e.stack ? e.stack : JSON.stringify(e)}\n`);
        process.exit(1);
    }
);
