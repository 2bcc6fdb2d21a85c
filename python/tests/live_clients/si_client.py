"""Drives substrate-interface 1.8.1's public API against the dev node.

    python si_client.py FACTS_JSON

FACTS_JSON is the line `ferroscale-devnode` prints (its URL, the dev key,
the head). Prints the results as one JSON document; the test runs this with
py-scale-codec and with ferroscale (`FERROSCALE_SCALECODEC=0/1`) and
compares them.
"""

import json
import sys

from common import emit, plain, which_scalecodec
from substrateinterface import Keypair, KeypairType, SubstrateInterface
from substrateinterface.exceptions import SubstrateRequestException

facts = json.loads(sys.argv[1])
full = facts["chain"] != "polkadot-v16"
out = {"scalecodec": which_scalecodec()}
node = SubstrateInterface(url=facts["url"])
out["chain"] = node.chain
out["versions"] = [node.runtime_version, node.transaction_version, node.ss58_format]
keypair = Keypair.create_from_seed(facts["dev_seed"], crypto_type=KeypairType.ED25519,
                                   ss58_format=node.ss58_format)
out["dev_address"] = keypair.ss58_address

if full:
    # A block of each runtime that has blocks, with its extrinsics; block 10's events.
    for number in (3, 10):
        block = node.get_block(block_number=number)
        out[f"block {number}"] = {
            "header": plain(block["header"]),
            "extrinsics": [plain(x) for x in block["extrinsics"]],
        }
    head_hash = node.get_block_hash(10)
    out["events"] = [plain(e) for e in node.get_events(head_hash)]

out["account"] = plain(node.query("System", "Account", [keypair.ss58_address]))
pages = node.query_map("System", "Account", page_size=100)
out["query_map"] = [[plain(k), plain(v)] for k, v in pages]
out["constant"] = plain(node.get_constant("Balances", "ExistentialDeposit"))
out["runtime_call"] = plain(node.runtime_call("AccountNonceApi", "account_nonce",
                                              [keypair.ss58_address]))
out["metadata"] = {
    "modules": [m.name for m in node.get_metadata_modules() if hasattr(m, "name")]
    or [plain(m)["name"] for m in node.get_metadata_modules()],
    "call": plain(node.get_metadata_call_function("Balances", "transfer_keep_alive")),
    "storage": plain(node.get_metadata_storage_function("System", "Account")),
    "constant": plain(node.get_metadata_constant("System", "SS58Prefix")),
    "error": plain(node.get_metadata_error("Balances", "InsufficientBalance")),
    "signed_extensions": list(node.metadata.get_signed_extensions()),
}

call = node.compose_call("Balances", "transfer_keep_alive",
                         {"dest": out["dev_address"], "value": 12345678901234567890})
signed = node.create_signed_extrinsic(call=call, keypair=keypair, era={"period": 64})
out["extrinsic"] = str(signed.data)
receipt = node.submit_extrinsic(signed, wait_for_inclusion=False)
out["submitted"] = receipt.extrinsic_hash

# The node checks signatures: one bit flipped in the signature is refused.
tampered = bytearray(signed.data.data)
tampered[40] ^= 1
try:
    node.rpc_request("author_submitExtrinsic", ["0x" + tampered.hex()])
    out["tampered"] = "accepted"
except SubstrateRequestException as e:
    out["tampered"] = str(e)
emit(out)
