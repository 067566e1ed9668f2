#!/usr/bin/env python3
"""Proof of fidelity: unmodified tronpy 0.6.2 talking to tronpool's devnet over HTTP.

Usage (run by crates/devnet/tests/fidelity.rs):
    .tools/venv/bin/python tests/interop/devnet_tronpy.py < input.json

stdin:  {"url": "http://127.0.0.1:PORT", "keys": ["<hex private key>", ...],
         "usdt": "<base58>", "artifact": {...}}   (artifact unused here)
stdout: one JSON object with what tronpy observed (see `main`); the Rust test checks
        every value against the chain through tronpool's own node client.

Only tronpy's public API is used: Tron(HTTPProvider(url)), get_account_balance,
get_account, get_bandwidth, get_contract(...).functions.<fn>(...), TransactionBuilder
(.with_owner/.fee_limit/.expiration/.build), Transaction (.sign/.set_signature/
.broadcast), TransactionRet (.wait/.result), PrivateKey.sign_msg_hash.
Refusals are reported as data: {"exception": <tronpy exception class>, "message",
"txid", "transaction": <the signed transaction tronpy broadcast>}.
Exits non-zero, with the reason on stderr, on anything unexpected.
"""

import json
import sys
import traceback
from decimal import Decimal

from tronpy import Tron
from tronpy.exceptions import (
    AddressNotFound,
    ApiError,
    BadSignature,
    TaposError,
    TransactionError,
    UnknownError,
    ValidationError,
)
from tronpy.keys import PrivateKey
from tronpy.providers import HTTPProvider
from tronpy.version import VERSION as TRONPY_VERSION

EXPECTED_VERSION = "0.6.2"
FEE_LIMIT = 100_000_000
USDT_SENT = 1_234_567
USDT_APPROVED = 7_654_321
TRX_SENT = 3_000_000
# What tronpy raises when the node refuses a broadcast (Tron._handle_api_error): reported as
# data, so the test can say which one it got.
REFUSALS = (BadSignature, TaposError, TransactionError, ValidationError, UnknownError, ApiError)


def refusal(exc):
    return {"exception": type(exc).__name__, "message": str(exc)}


def main():
    if TRONPY_VERSION != EXPECTED_VERSION:
        raise SystemExit(f"tronpy {TRONPY_VERSION} installed, expected {EXPECTED_VERSION}")
    args = json.load(sys.stdin)
    client = Tron(HTTPProvider(args["url"], timeout=30))
    me_key = PrivateKey(bytes.fromhex(args["keys"][0]))
    other_key = PrivateKey(bytes.fromhex(args["keys"][1]))
    me = me_key.public_key.to_base58check_address()
    recipient = PrivateKey.random().public_key.to_base58check_address()
    trx_recipient = PrivateKey.random().public_key.to_base58check_address()
    spender = PrivateKey.random().public_key.to_base58check_address()
    out = {"tool": "tronpy", "version": TRONPY_VERSION, "owner": me}

    # Balances before anything happens.
    out["trx_balance"] = str(client.get_account_balance(me))  # Decimal TRX
    usdt = client.get_contract(args["usdt"])
    out["usdt_name"] = usdt.name
    out["usdt_decimals"] = usdt.functions.decimals()
    out["usdt_balance"] = usdt.functions.balanceOf(me)

    # TRC-20 transfer: built by tronpy, signed, broadcast, receipt awaited.
    ret = (
        usdt.functions.transfer(recipient, USDT_SENT)
        .with_owner(me)
        .fee_limit(FEE_LIMIT)
        .build()
        .sign(me_key)
        .broadcast()
    )
    receipt = ret.wait(timeout=30, interval=0.5)
    out["usdt_transfer"] = {
        "txid": ret.txid,
        "to": recipient,
        "amount": USDT_SENT,
        "receipt_id": receipt.get("id"),
        "receipt_block": receipt.get("blockNumber"),
        "receipt_result": receipt.get("receipt", {}).get("result"),
        # What `transfer` returned, decoded by tronpy: TRON's USDT returns false.
        "returned": ret.result(timeout=30, interval=0.5),
    }
    out["usdt_transfer"]["recipient_balance"] = usdt.functions.balanceOf(recipient)

    ret = (
        usdt.functions.approve(spender, USDT_APPROVED)
        .with_owner(me)
        .fee_limit(FEE_LIMIT)
        .build()
        .sign(me_key)
        .broadcast()
    )
    receipt = ret.wait(timeout=30, interval=0.5)
    out["usdt_approve"] = {
        "txid": ret.txid,
        "spender": spender,
        "amount": USDT_APPROVED,
        "receipt_id": receipt.get("id"),
        "returned": ret.result(timeout=30, interval=0.5),
        "allowance": usdt.functions.allowance(me, spender),
    }

    # TRX transfer to a fresh address (which activates it).
    ret = client.trx.transfer(me, trx_recipient, TRX_SENT).build().sign(me_key).broadcast()
    receipt = ret.wait(timeout=30, interval=0.5)
    out["trx_transfer"] = {
        "txid": ret.txid,
        "to": trx_recipient,
        "amount": TRX_SENT,
        "receipt_id": receipt.get("id"),
        "fee": receipt.get("fee", 0),
        "recipient_balance": str(client.get_account_balance(trx_recipient)),
    }

    # Bandwidth (/wallet/getaccountnet): the owner used some of its free allowance, the TRX
    # recipient none; an address never activated is not found.
    out["bandwidth"] = {
        "owner": client.get_bandwidth(me),
        "trx_recipient": client.get_bandwidth(trx_recipient),
    }
    unactivated = PrivateKey.random().public_key.to_base58check_address()
    try:
        out["bandwidth"]["unactivated"] = client.get_bandwidth(unactivated)
    except AddressNotFound as e:
        out["bandwidth"]["unactivated"] = refusal(e)

    # Signed by the wrong key. tronpy's `sign` checks the key against the owner
    # permission locally (BadKey), so the signature is attached with the public
    # `set_signature` and `PrivateKey.sign_msg_hash` (what `sign` itself calls):
    # the NODE must refuse it, which tronpy reports as BadSignature.
    tx = client.trx.transfer(me, trx_recipient, 1).build()
    tx.set_signature([other_key.sign_msg_hash(bytes.fromhex(tx.txid)).hex()])
    try:
        tx.broadcast()
        out["sigerror"] = {"accepted": tx.txid}
    except REFUSALS as e:
        out["sigerror"] = dict(refusal(e), txid=tx.txid, transaction=tx.to_json())

    # Expired: `.expiration(ms)` sets now + ms, so a negative value dates it two minutes
    # ago (before the head block). tronpy's `sign` refuses expired transactions locally,
    # so the signature is attached as above; the NODE must refuse it.
    tx = client.trx.transfer(me, trx_recipient, 2).expiration(-120_000).build()
    tx.set_signature([me_key.sign_msg_hash(bytes.fromhex(tx.txid)).hex()])
    try:
        tx.broadcast()
        out["expired"] = {"accepted": tx.txid}
    except REFUSALS as e:
        out["expired"] = dict(
            refusal(e), txid=tx.txid, transaction=tx.to_json(), expiration=tx.to_json()["raw_data"]["expiration"]
        )

    # Balances after everything, for the test to compare with the chain now.
    out["trx_balance_after"] = str(client.get_account_balance(me))
    out["trx_balance_after_sun"] = client.get_account(me).get("balance", 0)
    out["usdt_balance_after"] = usdt.functions.balanceOf(me)
    return out


if __name__ == "__main__":
    try:
        result = main()
    except SystemExit:
        raise
    except BaseException:  # noqa: BLE001 - report anything unexpected, then fail
        traceback.print_exc(file=sys.stderr)
        sys.exit(1)
    json.dump(result, sys.stdout, default=lambda v: str(v) if isinstance(v, Decimal) else repr(v))
    sys.stdout.write("\n")
