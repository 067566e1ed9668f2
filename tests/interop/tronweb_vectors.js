#!/usr/bin/env node
/*
 * Independent-implementation side of tronpool's TRON interop tests, using
 * TronWeb (pinned to 6.5.1 in tests/interop/package.json).
 *
 *   node tests/interop/tronweb_vectors.js generate --seed S --count N
 *       -> one JSON document of test vectors on stdout
 *   node tests/interop/tronweb_vectors.js verify < input.json
 *       -> checks transactions built/signed by tronpool with TronWeb
 *
 * Everything is offline: transactions are built with TronWeb's local builders
 * (blockHeader / txLocal options), encoded with utils.transaction.txJsonToPb +
 * txPbToRawDataHex + txPbToTxID, signed with tronWeb.trx.sign
 * (-> utils.crypto.signTransaction) and recovered with tronWeb.trx.ecRecover.
 * No value under test is computed by code in this file.
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

const { TronWeb, utils } = require('tronweb');

const TOOL = 'tronweb';
const EXPECTED_VERSION = '6.5.1';
const USDT = 'TR7NHqjeKQxGTCi8q8ZY4pL8otSzgjLj6t';
const SECP256K1_N = 0xfffffffffffffffffffffffffffffffebaaedce6af48a03bbfd25e8cd0364141n;
// TronWeb 6.5.1 encodes int64 fields from JS numbers (google-protobuf writeInt64),
// so it cannot represent integers beyond 2^53-1 exactly: vectors stay below.
const MAX_SAFE = Number.MAX_SAFE_INTEGER; // 2^53 - 1

function installedVersion() {
    // Both the library's own notion and the installed package's manifest.
    const manifest = path.join(path.dirname(require.resolve('tronweb')), '..', '..', 'package.json');
    const pkgVersion = JSON.parse(fs.readFileSync(manifest, 'utf8')).version;
    return TronWeb.version === pkgVersion ? pkgVersion : `${TronWeb.version}/${pkgVersion}`;
}

function makeTronWeb() {
    // A closed local port: nothing below ever calls a node (all builders are
    // given explicit block headers); if something did, it must fail locally.
    return new TronWeb({ fullHost: 'http://127.0.0.1:9' });
}

// ---------------------------------------------------------------------------
// Seeded PRNG: xoshiro128** seeded through splitmix64 (both written here).
class Rng {
    constructor(seed) {
        let x = BigInt.asUintN(64, BigInt(seed));
        const next64 = () => {
            x = BigInt.asUintN(64, x + 0x9e3779b97f4a7c15n);
            let z = x;
            z = BigInt.asUintN(64, (z ^ (z >> 30n)) * 0xbf58476d1ce4e5b9n);
            z = BigInt.asUintN(64, (z ^ (z >> 27n)) * 0x94d049bb133111ebn);
            return z ^ (z >> 31n);
        };
        const a = next64();
        const b = next64();
        this.s = new Uint32Array([Number(a & 0xffffffffn), Number(a >> 32n), Number(b & 0xffffffffn), Number(b >> 32n)]);
        if (this.s.every((v) => v === 0)) this.s[0] = 1;
    }
    u32() {
        const s = this.s;
        const rotl = (v, k) => ((v << k) | (v >>> (32 - k))) >>> 0;
        const result = Math.imul(rotl(Math.imul(s[1], 5) >>> 0, 7), 9) >>> 0;
        const t = (s[1] << 9) >>> 0;
        s[2] ^= s[0];
        s[3] ^= s[1];
        s[1] ^= s[2];
        s[0] ^= s[3];
        s[2] ^= t;
        s[3] = rotl(s[3], 11);
        return result;
    }
    random() {
        // 53-bit float in [0, 1)
        return ((this.u32() >>> 5) * 67108864 + (this.u32() >>> 6)) / 9007199254740992;
    }
    bytes(n) {
        const out = new Uint8Array(n);
        for (let i = 0; i < n; i++) out[i] = this.u32() & 0xff;
        return out;
    }
    bigBelow(limit) {
        // uniform BigInt in [0, limit)
        limit = BigInt(limit);
        const bits = limit.toString(2).length;
        const nbytes = Math.ceil(bits / 8);
        for (;;) {
            let v = BigInt('0x' + (Buffer.from(this.bytes(nbytes)).toString('hex') || '0'));
            v = BigInt.asUintN(bits, v);
            if (v < limit) return v;
        }
    }
    int(lo, hi) {
        // integer in [lo, hi), as a Number (range must stay within safe integers)
        return lo + Number(this.bigBelow(BigInt(hi) - BigInt(lo)));
    }
    choice(arr) {
        return arr[this.int(0, arr.length)];
    }
}

const hex = (u8) => Buffer.from(u8).toString('hex');

// ---------------------------------------------------------------------------
// generate

function randomPrivateKey(rng) {
    for (;;) {
        const b = rng.bytes(32);
        const k = BigInt('0x' + hex(b));
        if (k > 0n && k < SECP256K1_N) return hex(b);
    }
}

function keyInfo(pkHex) {
    const base58 = TronWeb.address.fromPrivateKey(pkHex, true);
    const pub = utils.crypto.getPubKeyFromPriKey(utils.code.hexStr2byteArray(pkHex));
    const pubHex = hex(Uint8Array.from(pub)).toLowerCase();
    if (pubHex.length !== 130 || !pubHex.startsWith('04')) throw new Error('unexpected public key form ' + pubHex);
    return {
        private_key: pkHex,
        public_key: pubHex.slice(2),
        base58,
        hex: TronWeb.address.toHex(base58).toLowerCase(),
    };
}

function randomAddress(rng, known, exclude) {
    known = known.filter((a) => a !== exclude);
    const r = rng.random();
    let body;
    if (r < 0.05) body = new Uint8Array(20);
    else if (r < 0.1) body = new Uint8Array(20).fill(0xff);
    else if (r < 0.35 && known.length) return rng.choice(known);
    else body = rng.bytes(20);
    return TronWeb.address.fromHex('41' + hex(body));
}

function randomInt64(rng, zeroWeight) {
    if (rng.random() < zeroWeight) return 0;
    const r = rng.random();
    if (r < 0.15) return 1;
    if (r < 0.25) return MAX_SAFE;
    if (r < 0.6) return rng.int(1, 1e7);
    if (r < 0.85) return rng.int(1, 1e13);
    return rng.int(1, MAX_SAFE);
}

function randomBlockHeader(rng) {
    const r = rng.random();
    let refBytes;
    if (r < 0.05) refBytes = '0000';
    else if (r < 0.1) refBytes = 'ffff';
    else refBytes = hex(rng.bytes(2));
    const timestamp = rng.int(1500000000000, 1900000000000);
    const expiration = timestamp + rng.choice([60000, 60000, 3600000, 86400000, rng.int(1, 1e9)]);
    return { ref_block_bytes: refBytes, ref_block_hash: hex(rng.bytes(8)), expiration, timestamp };
}

function randomMemo(rng, profile) {
    if (profile === 'zero') return null;
    if (profile === 'max') return hex(rng.bytes(512));
    const r = rng.random();
    if (r < 0.7) return null;
    if (r < 0.85) return Buffer.from(rng.choice(['hello', 'memo', 'tronpool test ✓', 'x'])).toString('hex');
    return hex(rng.bytes(rng.int(1, 200)));
}

// Re-encode a (possibly edited) raw_data through TronWeb's local txID path.
async function reencode(tronWeb, tx) {
    delete tx.txID;
    delete tx.raw_data_hex;
    const out = await tronWeb.transactionBuilder.newTxID(tx, { txLocal: true });
    // newTxID copies `signature` even when undefined; alterTransaction (memo)
    // then refuses the transaction as "signed". Drop the empty key.
    if (out.signature === undefined) delete out.signature;
    return out;
}

async function finish(tronWeb, tx, pkHex, kind, fields, header, feeLimit, memo) {
    if (memo) {
        // TronWeb's own memo API (alterTransaction -> newTxID, local)
        tx = await tronWeb.transactionBuilder.addUpdateData(tx, memo, 'hex', { txLocal: true });
    }
    const raw = tx.raw_data;
    if (raw.ref_block_bytes !== header.ref_block_bytes || raw.ref_block_hash !== header.ref_block_hash) {
        throw new Error('TronWeb did not keep the block header');
    }
    if (raw.timestamp !== header.timestamp || raw.expiration !== header.expiration) {
        throw new Error('TronWeb did not keep the timestamps');
    }
    if ((raw.fee_limit ?? null) !== feeLimit) throw new Error(`fee_limit mismatch ${raw.fee_limit} vs ${feeLimit}`);
    if ((raw.data ?? null) !== memo) throw new Error(`memo mismatch ${raw.data} vs ${memo}`);

    // TronWeb's own consistency check, then its signer (trx.sign runs txCheck again).
    if (!utils.transaction.txCheck(tx)) throw new Error('TronWeb txCheck rejected its own transaction');
    const signed = await tronWeb.trx.sign(tx, pkHex);
    const recovered = tronWeb.trx.ecRecover(signed);
    if (recovered !== fields.owner) throw new Error(`TronWeb recovered ${recovered}, expected ${fields.owner}`);

    return {
        kind,
        private_key: pkHex,
        fields: { ...fields, ...header, fee_limit: feeLimit, memo },
        raw_data: signed.raw_data,
        raw_data_hex: signed.raw_data_hex.toLowerCase(),
        txID: signed.txID.replace(/^0x/, '').toLowerCase(),
        signature: signed.signature[0].replace(/^0x/, '').toLowerCase(),
    };
}

async function makeTransfer(tronWeb, rng, key, known, profile) {
    const owner = key.base58;
    const to = randomAddress(rng, known, owner);
    let amount;
    if (profile === 'zero') amount = 0;
    else if (profile === 'max') amount = MAX_SAFE;
    else amount = randomInt64(rng, 0.1);
    const header = randomBlockHeader(rng);
    let feeLimit;
    const r = rng.random();
    if (profile === 'zero') feeLimit = 0;
    else if (profile === 'max') feeLimit = MAX_SAFE;
    else if (r < 0.75) feeLimit = null;
    else feeLimit = rng.choice([0, 1000000, rng.int(1, 1e10)]);
    const memo = randomMemo(rng, profile);

    let tx;
    if (amount > 0) {
        // TronWeb's local builder (blockHeader given => no node call).
        tx = await tronWeb.transactionBuilder.sendTrx(to, amount, owner, { blockHeader: header });
    } else {
        // sendTrx refuses amount 0: give the java-tron JSON to TronWeb's local
        // txID builder instead.
        tx = {
            visible: false,
            raw_data: {
                contract: [
                    {
                        parameter: {
                            value: { owner_address: TronWeb.address.toHex(owner), to_address: TronWeb.address.toHex(to), amount },
                            type_url: 'type.googleapis.com/protocol.TransferContract',
                        },
                        type: 'TransferContract',
                    },
                ],
                ...header,
            },
        };
        tx = await reencode(tronWeb, tx);
    }
    if (feeLimit !== null) {
        // sendTrx has no fee_limit option: set it on the JSON, let TronWeb re-encode.
        tx.raw_data.fee_limit = feeLimit;
        tx = await reencode(tronWeb, tx);
    }
    return finish(tronWeb, tx, key.private_key, 'transfer', { owner, to, amount }, header, feeLimit, memo);
}

async function makeTrigger(tronWeb, rng, key, known, profile) {
    const owner = key.base58;
    const contract = rng.random() < 0.3 ? USDT : randomAddress(rng, known);
    let callValue, callTokenValue, tokenId;
    if (profile === 'zero') callValue = callTokenValue = tokenId = 0;
    else if (profile === 'max') callValue = callTokenValue = tokenId = MAX_SAFE;
    else {
        callValue = randomInt64(rng, 0.6);
        callTokenValue = randomInt64(rng, 0.6);
        tokenId = rng.choice([0, 0, 0, 1000001, rng.int(1000000, 1100000), randomInt64(rng, 0)]);
    }
    const header = randomBlockHeader(rng);
    let feeLimit;
    const r = rng.random();
    if (profile === 'zero') feeLimit = null;
    else if (profile === 'max') feeLimit = MAX_SAFE;
    else if (r < 0.8) feeLimit = rng.choice([100000000, 150000000, 1000000000, rng.int(1, 15000000000)]);
    else if (r < 0.9) feeLimit = 0;
    else feeLimit = null;
    const memo = randomMemo(rng, profile);

    const options = {
        txLocal: true,
        blockHeader: header,
        // TronWeb's local trigger builder insists on feeLimit > 0; 0/absent is
        // applied afterwards on the JSON and re-encoded by TronWeb.
        feeLimit: feeLimit || 1,
        callValue,
        tokenValue: callTokenValue,
        tokenId,
    };
    let wrapper;
    if (profile === 'random' && rng.random() < 0.35) {
        // Realistic TRC-20 transfer(address,uint256), ABI-encoded by TronWeb.
        const to = randomAddress(rng, known);
        const value = rng.choice(['1', '1000000', rng.bigBelow(1n << 64n).toString(), rng.bigBelow(1n << 256n).toString()]);
        wrapper = await tronWeb.transactionBuilder.triggerSmartContract(
            contract,
            'transfer(address,uint256)',
            options,
            [
                { type: 'address', value: to },
                { type: 'uint256', value },
            ],
            owner
        );
    } else {
        let data;
        if (profile === 'zero') data = '';
        else if (profile === 'max') data = hex(rng.bytes(300));
        else data = rng.random() < 0.15 ? '' : hex(rng.bytes(rng.int(0, 301)));
        wrapper = await tronWeb.transactionBuilder.triggerSmartContract(contract, '', { ...options, input: data }, [], owner);
    }
    if (!wrapper.result || !wrapper.result.result) throw new Error('TronWeb trigger build failed');
    let tx = wrapper.transaction;
    if (feeLimit === null) {
        delete tx.raw_data.fee_limit;
        tx = await reencode(tronWeb, tx);
    } else if (feeLimit === 0) {
        tx.raw_data.fee_limit = 0;
        tx = await reencode(tronWeb, tx);
    }
    const v = tx.raw_data.contract[0].parameter.value;
    const fields = {
        owner,
        contract,
        data: (v.data || '').toLowerCase(),
        call_value: callValue,
        call_token_value: callTokenValue,
        token_id: tokenId,
    };
    return finish(tronWeb, tx, key.private_key, 'trigger', fields, header, feeLimit, memo);
}

async function generate(seed, count) {
    const tronWeb = makeTronWeb();
    const rng = new Rng(seed);
    const pks = [];
    for (let i = 0; i < count; i++) pks.push(randomPrivateKey(rng));
    const keys = pks.map(keyInfo);
    const known = keys.map((k) => k.base58);
    const transactions = [];
    for (let i = 0; i < keys.length; i++) {
        const profile = i === 0 ? 'zero' : i === 1 ? 'max' : 'random';
        transactions.push(await makeTransfer(tronWeb, rng, keys[i], known, profile));
        transactions.push(await makeTrigger(tronWeb, rng, keys[i], known, profile));
    }
    return { tool: TOOL, version: installedVersion(), keys, transactions };
}

// ---------------------------------------------------------------------------
// verify

function unsafeIntegers(value, at, out) {
    if (typeof value === 'number') {
        if (!Number.isSafeInteger(value)) out.push(at);
    } else if (Array.isArray(value)) {
        value.forEach((v, i) => unsafeIntegers(v, `${at}[${i}]`, out));
    } else if (value && typeof value === 'object') {
        for (const [k, v] of Object.entries(value)) unsafeIntegers(v, `${at}.${k}`, out);
    }
    return out;
}

function toBase58(addr) {
    if (typeof addr !== 'string') return null;
    return /^(0x)?41[0-9a-fA-F]{40}$/.test(addr) ? TronWeb.address.fromHex(addr.replace(/^0x/, '')) : addr;
}

function verifyOne(tronWeb, input) {
    const res = { txID: input.txID ?? null, encoding_ok: false, txid_ok: false, signer: null, signature_ok: false, error: null };
    const errors = [];
    try {
        if (typeof input.txID !== 'string' || !input.raw_data || typeof input.raw_data_hex !== 'string') {
            throw new Error('transaction needs txID, raw_data and raw_data_hex');
        }
        let sigs = typeof input.signature === 'string' ? [input.signature] : input.signature;
        if (!Array.isArray(sigs)) sigs = [];

        // JSON.parse and TronWeb's int64 encoding (JS numbers) round integers
        // beyond 2^53-1; values that are exact doubles (e.g. 2^62) still work.
        const unsafe = unsafeIntegers(input.raw_data, 'raw_data', []);

        const tx = {
            visible: false,
            txID: input.txID,
            raw_data: input.raw_data,
            raw_data_hex: input.raw_data_hex,
        };
        if (sigs.length) tx.signature = sigs.slice();

        // 1. TronWeb's own protobuf encoding of raw_data, and its txID.
        const pb = utils.transaction.txJsonToPb(tx);
        const ourHex = utils.transaction.txPbToRawDataHex(pb).toLowerCase();
        const ourId = utils.transaction.txPbToTxID(pb).replace(/^0x/, '').toLowerCase();
        res.encoding_ok = ourHex === input.raw_data_hex.toLowerCase();
        res.txid_ok = ourId === input.txID.replace(/^0x/, '').toLowerCase();
        if (!res.encoding_ok) {
            errors.push(`TronWeb encodes raw_data as ${ourHex}`);
            if (unsafe.length) {
                errors.push(
                    `integer beyond 2^53-1 at ${unsafe.join(', ')}: TronWeb 6.5.1 encodes int64 through JS numbers, so it cannot reproduce such values exactly`
                );
            }
        }
        if (!res.txid_ok) errors.push(`TronWeb computes txID ${ourId}`);

        if (sigs.length === 0) throw new Error('transaction has no signature');

        // 2. Plain recovery over the given txID (works even when 1. failed).
        res.signer = TronWeb.address.fromHex(utils.crypto.ecRecover(input.txID, sigs[0]));

        // 3. TronWeb's transaction-level recovery: txCheck (raw_data vs
        //    raw_data_hex vs txID) and then ecRecover of every signature.
        let checked = null;
        try {
            checked = tronWeb.trx.ecRecover(tx);
        } catch (e) {
            errors.push(`trx.ecRecover: ${e.message}`);
        }
        const checkedFirst = Array.isArray(checked) ? checked[0] : checked;
        const expected = toBase58(input.expected_signer);
        if (!expected) errors.push('no expected_signer given');
        if (checked !== null && checkedFirst !== res.signer) errors.push(`trx.ecRecover gave ${checkedFirst}`);
        if (expected && res.signer !== expected) errors.push(`signature recovers to ${res.signer}, expected ${expected}`);
        res.signature_ok = !!expected && res.signer === expected && checkedFirst === expected;
    } catch (e) {
        errors.push(e && e.message ? e.message : String(e));
    }
    res.error = errors.length ? errors.join('; ') : null;
    return res;
}

function verify(text) {
    let doc;
    try {
        doc = JSON.parse(text);
    } catch (e) {
        throw new InputError('stdin is not JSON: ' + e.message);
    }
    if (!doc || !Array.isArray(doc.transactions)) throw new InputError('stdin JSON needs a "transactions" array');
    const tronWeb = makeTronWeb();
    return { results: doc.transactions.map((t) => verifyOne(tronWeb, t)) };
}

// ---------------------------------------------------------------------------

function usage(msg) {
    if (msg) process.stderr.write(`error: ${msg}\n`);
    process.stderr.write(
        'usage: node tronweb_vectors.js generate --seed S --count N\n' + '       node tronweb_vectors.js verify < input.json\n'
    );
    process.exit(2);
}

function parseGenerateArgs(argv) {
    let seed = null;
    let count = null;
    for (let i = 0; i < argv.length; i++) {
        const a = argv[i];
        const take = () => {
            if (i + 1 >= argv.length) usage(`${a} needs a value`);
            return argv[++i];
        };
        if (a === '--seed') seed = take();
        else if (a.startsWith('--seed=')) seed = a.slice(7);
        else if (a === '--count') count = take();
        else if (a.startsWith('--count=')) count = a.slice(8);
        else usage(`unknown argument ${a}`);
    }
    if (seed === null || !/^-?\d+$/.test(seed)) usage('--seed must be an integer');
    if (count === null || !/^\d+$/.test(count)) usage('--count must be a non-negative integer');
    return { seed: BigInt(seed), count: Number(count) };
}

async function main() {
    const [mode, ...rest] = process.argv.slice(2);
    const version = installedVersion();
    if (version !== EXPECTED_VERSION) {
        process.stderr.write(`error: tronweb ${version} installed, vectors pinned to ${EXPECTED_VERSION}\n`);
        process.exit(2);
    }
    let out;
    if (mode === 'generate') {
        const { seed, count } = parseGenerateArgs(rest);
        out = await generate(seed, count);
    } else if (mode === 'verify') {
        if (rest.length) usage('verify takes no arguments (input on stdin)');
        out = verify(fs.readFileSync(0, 'utf8'));
    } else {
        usage(mode ? `unknown mode ${mode}` : 'missing mode');
    }
    realStdoutWrite(JSON.stringify(out) + '\n');
}

class InputError extends Error {}

main().catch((e) => {
    process.stderr.write(`error: ${e instanceof InputError ? e.message : e && e.stack ? e.stack : e}\n`);
    process.exit(1);
});
