"""Runs bittensor-core 0.1.5's RFC-0078 functions on the jobs of a JSON file
and prints their results as JSON, one per job: ``{"hex": …}`` or
``{"error": message}``.

Usage: ``btcore_digest.py JOBS.json``, each job either
``{"kind": "digest", "metadata": FILE, "spec_version", "spec_name",
"base58_prefix", "decimals", "token_symbol"}`` or the same with ``"kind":
"proof"`` and ``"call"``, ``"extra"``, ``"signed"`` (hex). Run by
``test_metadata_digest.py`` under the interpreter ``$FERROSCALE_BTCORE_PYTHON``
names.
"""
import json
import sys

import bittensor_core


def run(job):
    metadata = open(job["metadata"], "rb").read()
    chain = (job["spec_version"], job["spec_name"], job["base58_prefix"], job["decimals"], job["token_symbol"])
    try:
        if job["kind"] == "digest":
            out = bittensor_core.metadata_digest(metadata, *chain)
        else:
            parts = [bytes.fromhex(job[k]) for k in ("call", "extra", "signed")]
            out = bittensor_core.generate_extrinsic_proof(*parts, metadata, *chain)
        return {"hex": bytes(out).hex()}
    except Exception as e:  # noqa: BLE001 (every refusal is a result to compare)
        return {"error": f"{type(e).__name__}: {e}"}


print(json.dumps([run(j) for j in json.load(open(sys.argv[1]))]))
