#!/usr/bin/env python3
"""Independent-implementation test vectors for tronpool, produced by tronpy.

Usage:
    .tools/venv/bin/python tests/interop/tronpy_vectors.py --seed S --count N

Prints one JSON document on stdout (format: tests/interop/README.md).
Everything is offline.  memo is always null: tronpy 0.6.2's offline encoder
ignores raw_data.data.

Every value that the Rust side is tested against is produced by tronpy's own
code:
  * keys/addresses/public keys: tronpy.keys.PrivateKey / PublicKey
  * raw_data (JSON):            tronpy's TransactionBuilder (Trx.transfer,
                                Trx._build_transaction / Contract.functions)
  * txID:                       TransactionBuilder.build(offline=True, ...)
                                -> tronpy.proto.calculate_txid_from_raw_data
  * raw_data_hex:               tronpy.proto.transaction._raw_data_to_protobuf
                                (the encoder calculate_txid_from_raw_data uses)
  * signature:                  PrivateKey.sign_msg_hash(txID), the exact call
                                Transaction.sign makes (Transaction.sign itself
                                refuses transactions whose expiration is in the
                                past, which most vectors are).

Randomness is deterministic in --seed (random.Random(seed)).
"""

import argparse
import hashlib
import json
import random
import sys

from importlib.metadata import version as dist_version

from tronpy import Tron, keys
from tronpy.contract import Contract
from tronpy.keys import PrivateKey, Signature
from tronpy.proto import transaction as tronpy_proto_tx
from tronpy.providers import HTTPProvider
from tronpy.version import VERSION as TRONPY_VERSION

SECP256K1_N = 0xFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFEBAAEDCE6AF48A03BBFD25E8CD0364141
TOOL = "tronpy"
EXPECTED_VERSION = "0.6.2"
USDT = "TR7NHqjeKQxGTCi8q8ZY4pL8otSzgjLj6t"
BIG = 2**62

TRC20_TRANSFER_ABI = [
    {
        "type": "function",
        "name": "transfer",
        "stateMutability": "nonpayable",
        "inputs": [{"name": "_to", "type": "address"}, {"name": "_value", "type": "uint256"}],
        "outputs": [{"name": "", "type": "bool"}],
    }
]


def make_client() -> Tron:
    # A provider pointing at a closed local port: nothing here ever calls it,
    # and if something did it must fail instead of reaching the internet.
    return Tron(HTTPProvider("http://127.0.0.1:9"))


def random_private_key(rng: random.Random) -> PrivateKey:
    while True:
        b = rng.getrandbits(256).to_bytes(32, "big")
        k = int.from_bytes(b, "big")
        if 0 < k < SECP256K1_N:
            return PrivateKey(b)


def random_address(rng: random.Random, known: list, exclude: str = None) -> str:
    known = [a for a in known if a != exclude]
    r = rng.random()
    if r < 0.05:
        body = b"\x00" * 20
    elif r < 0.10:
        body = b"\xff" * 20
    elif r < 0.35 and known:
        return rng.choice(known)
    else:
        body = rng.getrandbits(160).to_bytes(20, "big")
    return keys.to_base58check_address(b"\x41" + body)


def random_int64(rng: random.Random, zero_weight: float = 0.2) -> int:
    r = rng.random()
    if r < zero_weight:
        return 0
    r = rng.random()
    if r < 0.15:
        return 1
    if r < 0.25:
        return BIG
    if r < 0.35:
        return 2**53 + rng.randrange(0, 1000)  # beyond JS Number precision
    if r < 0.6:
        return rng.randrange(1, 10**7)
    if r < 0.85:
        return rng.randrange(1, 10**13)
    return rng.randrange(1, BIG + 1)


def random_block_params(rng: random.Random) -> dict:
    r = rng.random()
    if r < 0.05:
        ref_bytes = b"\x00\x00"
    elif r < 0.10:
        ref_bytes = b"\xff\xff"
    else:
        ref_bytes = rng.getrandbits(16).to_bytes(2, "big")
    ref_hash = rng.getrandbits(64).to_bytes(8, "big")
    timestamp = rng.randrange(1_500_000_000_000, 1_900_000_000_000)
    expiration = timestamp + rng.choice([60_000, 60_000, 3_600_000, 86_400_000, rng.randrange(1, 10**9)])
    return {
        "ref_block_bytes": ref_bytes.hex(),
        "ref_block_hash": ref_hash.hex(),
        "timestamp": timestamp,
        "expiration": expiration,
    }


def fake_ref_block_id(ref_block_bytes: str, ref_block_hash: str) -> str:
    """tronpy's offline build takes a 32-byte block id and slices
    ref_block_bytes = id[12:16], ref_block_hash = id[16:32] (hex chars).
    Build an id carrying exactly the requested values."""
    block_id = "000000000000" + ref_block_bytes + ref_block_hash + "00" * 16
    assert len(block_id) == 64
    return block_id


def finish(builder, priv: PrivateKey, block: dict, fee_limit, kind: str, fields: dict) -> dict:
    """Set header fields on tronpy's builder, build offline, encode, sign."""
    raw = builder._raw_data  # tronpy has no public setter for absolute times
    raw["timestamp"] = block["timestamp"]
    raw["expiration"] = block["expiration"]
    if fee_limit is None:
        raw.pop("fee_limit", None)  # tronpy adds a default fee_limit to triggers
    else:
        builder.fee_limit(fee_limit)
    tx = builder.build(offline=True, ref_block_id=fake_ref_block_id(block["ref_block_bytes"], block["ref_block_hash"]))
    raw_data = tx.to_json()["raw_data"]
    assert raw_data["ref_block_bytes"] == block["ref_block_bytes"]
    assert raw_data["ref_block_hash"] == block["ref_block_hash"]

    raw_bytes = tronpy_proto_tx._raw_data_to_protobuf(raw_data).SerializeToString()
    txid = tx.txid
    # Sanity only (the vector values come from tronpy): txID is sha256(raw).
    if hashlib.sha256(raw_bytes).hexdigest() != txid:
        raise RuntimeError("tronpy txID does not match sha256 of tronpy's raw_data encoding")

    sig = priv.sign_msg_hash(bytes.fromhex(txid))
    tx.set_signature([sig.hex()])
    signer = Signature.fromhex(sig.hex()).recover_public_key_from_msg_hash(bytes.fromhex(txid))
    if signer.to_base58check_address() != fields["owner"]:
        raise RuntimeError("tronpy signature does not recover to the owner")

    fields.update(block)
    fields["fee_limit"] = fee_limit
    fields["memo"] = None  # tronpy 0.6.2's offline encoder ignores raw_data.data
    return {
        "kind": kind,
        "private_key": priv.hex(),
        "fields": fields,
        "raw_data": raw_data,
        "raw_data_hex": raw_bytes.hex(),
        "txID": txid,
        "signature": tx.to_json()["signature"][0],
    }


def make_transfer(client, rng, priv, known, profile) -> dict:
    owner = priv.public_key.to_base58check_address()
    to = random_address(rng, known, exclude=owner)  # java-tron rejects self-transfers
    if profile == "zero":
        amount = 0
    elif profile == "max":
        amount = BIG
    else:
        amount = random_int64(rng, zero_weight=0.1)
    block = random_block_params(rng)
    r = rng.random()
    if profile == "zero":
        fee_limit = 0
    elif profile == "max":
        fee_limit = BIG
    elif r < 0.75:
        fee_limit = None
    else:
        fee_limit = rng.choice([0, 1_000_000, rng.randrange(1, 10**10)])
    builder = client.trx.transfer(owner, to, amount)
    fields = {"owner": owner, "to": to, "amount": amount}
    return finish(builder, priv, block, fee_limit, "transfer", fields)


def make_trigger(client, rng, priv, known, profile) -> dict:
    owner = priv.public_key.to_base58check_address()
    contract = USDT if rng.random() < 0.3 else random_address(rng, known)
    if profile == "zero":
        call_value = call_token_value = token_id = 0
    elif profile == "max":
        call_value = call_token_value = token_id = BIG
    else:
        call_value = random_int64(rng, zero_weight=0.6)
        call_token_value = random_int64(rng, zero_weight=0.6)
        token_id = rng.choice([0, 0, 0, 1_000_001, rng.randrange(1_000_000, 1_100_000), random_int64(rng, 0.0)])
    block = random_block_params(rng)
    r = rng.random()
    if profile == "zero":
        fee_limit = None
    elif profile == "max":
        fee_limit = BIG
    elif r < 0.8:
        fee_limit = rng.choice([100_000_000, 150_000_000, 1_000_000_000, rng.randrange(1, 15_000_000_000)])
    elif r < 0.9:
        fee_limit = 0
    else:
        fee_limit = None

    use_abi = profile not in ("zero", "max") and rng.random() < 0.35
    if use_abi:
        # Realistic TRC-20 transfer(address,uint256), ABI-encoded by tronpy.
        to = random_address(rng, known)
        value = rng.choice([1, 1_000_000, rng.randrange(0, 2**64), rng.randrange(0, 2**256)])
        c = Contract(contract, abi=TRC20_TRANSFER_ABI, client=client)
        method = c.functions.transfer
        method.with_owner(owner)
        if call_value:
            method.with_transfer(call_value)
        if call_token_value or token_id:
            method.with_asset_transfer(call_token_value, token_id)
        builder = method(to, value)
        data = builder._raw_data["contract"][0]["parameter"]["value"]["data"]
    else:
        if profile == "zero":
            data = ""
        elif profile == "max":
            data = rng.getrandbits(8 * 300).to_bytes(300, "big").hex()
        else:
            n = 0 if rng.random() < 0.15 else rng.randrange(0, 301)
            data = rng.getrandbits(8 * n).to_bytes(n, "big").hex() if n else ""
        # Same dict shape tronpy's ContractMethod._trigger_contract builds.
        builder = client.trx._build_transaction(
            "TriggerSmartContract",
            {
                "owner_address": keys.to_hex_address(owner),
                "contract_address": keys.to_hex_address(contract),
                "data": data,
                "call_token_value": call_token_value,
                "call_value": call_value,
                "token_id": token_id,
            },
        )
    fields = {
        "owner": owner,
        "contract": contract,
        "data": data,
        "call_value": call_value,
        "call_token_value": call_token_value,
        "token_id": token_id,
    }
    return finish(builder, priv, block, fee_limit, "trigger", fields)


def generate(seed: int, count: int) -> dict:
    rng = random.Random(seed)
    client = make_client()
    privs = [random_private_key(rng) for _ in range(count)]
    out_keys = []
    for p in privs:
        pub = p.public_key
        out_keys.append(
            {
                "private_key": p.hex(),
                "public_key": pub.hex(),
                "base58": pub.to_base58check_address(),
                "hex": pub.to_hex_address(),
            }
        )
    known = [k["base58"] for k in out_keys]
    txs = []
    for i, p in enumerate(privs):
        profile = {0: "zero", 1: "max"}.get(i, "random")
        txs.append(make_transfer(client, rng, p, known, profile))
        txs.append(make_trigger(client, rng, p, known, profile))
    return {"tool": TOOL, "version": TRONPY_VERSION, "keys": out_keys, "transactions": txs}


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--seed", type=int, required=True)
    ap.add_argument("--count", type=int, required=True)
    args = ap.parse_args(argv)
    if args.count < 0:
        ap.error("--count must be >= 0")
    installed = dist_version("tronpy")
    if installed != EXPECTED_VERSION or TRONPY_VERSION != EXPECTED_VERSION:
        print(f"error: tronpy {installed} installed, vectors pinned to {EXPECTED_VERSION}", file=sys.stderr)
        return 2
    doc = generate(args.seed, args.count)
    json.dump(doc, sys.stdout, separators=(",", ":"))
    sys.stdout.write("\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
