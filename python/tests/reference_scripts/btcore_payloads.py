"""Calls and signature payloads made by bittensor-core (the Rust core of the
Bittensor SDK), for ``test_transactions.py`` to compare ours with.

Usage: ``btcore_payloads.py METADATA_FILE CASES_JSON`` under an interpreter
with ``bittensor-core`` (``$FERROSCALE_BTCORE_PYTHON``). CASES_JSON holds
``{"spec_version", "transaction_version", "calls": [[module, function,
params]], "payloads": [{"call": hex, "era", "nonce", "tip", "genesis_hash":
hex, "era_block_hash": hex, "metadata_hash": hex or null}]}``; prints
``{"calls": [hex], "payloads": [hex]}``.
"""
import json
import sys

import bittensor_core

metadata_path, cases_path = sys.argv[1], sys.argv[2]
cases = json.load(open(cases_path))
rt = bittensor_core.Runtime(open(metadata_path, "rb").read(), cases["spec_version"], cases["transaction_version"])


def unhex(h):
    return None if h is None else bytes.fromhex(h[2:] if h.startswith("0x") else h)


calls = [rt.compose_call(m, f, p).hex() for m, f, p in cases["calls"]]
payloads = []
for p in cases["payloads"]:
    payloads.append(rt.signature_payload(
        unhex(p["call"]), era=p["era"], nonce=p["nonce"], tip=p["tip"], tip_asset_id=None,
        genesis_hash=unhex(p["genesis_hash"]), era_block_hash=unhex(p["era_block_hash"]),
        metadata_hash=unhex(p["metadata_hash"])).hex())
print(json.dumps({"calls": calls, "payloads": payloads}))
