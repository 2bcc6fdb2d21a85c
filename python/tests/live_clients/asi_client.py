"""Drives async-substrate-interface 2.2.1's public API against the dev node.

    python asi_client.py FACTS_JSON

As si_client.py, for the async client (whose reference is cyscale 0.8.0).
The client takes any keypair with its `Keypair` protocol; an ed25519 one is
made here from py-ed25519-zebra-bindings, the library substrate-interface
signs ed25519 with.
"""

import asyncio
import json
import sys

import ed25519_zebra
from async_substrate_interface import AsyncSubstrateInterface
from async_substrate_interface.errors import SubstrateRequestException
from common import emit, plain, which_scalecodec
from scalecodec.utils.ss58 import ss58_encode


class Ed25519Keypair:
    """An ed25519 key as the client's `Keypair` protocol asks."""

    crypto_type = 0

    def __init__(self, seed_hex, ss58_format):
        self._secret, public = ed25519_zebra.ed_from_seed(bytes.fromhex(seed_hex[2:]))
        self.public_key = bytes(public)
        self.ss58_format = ss58_format
        self.ss58_address = ss58_encode(self.public_key, ss58_format)

    def sign(self, data):
        if isinstance(data, str):
            data = bytes.fromhex(data.removeprefix("0x"))
        return bytes(ed25519_zebra.ed_sign(self._secret, bytes(data)))


async def signed_with_metadata_hash(node, call, keypair):
    """A transfer signed with `CheckMetadataHash` enabled, which the client
    cannot do itself: its `create_signed_extrinsic` reads
    `metadata[1][1]['extrinsic']['version']`, which V16's extrinsic metadata
    (listing `versions`) does not have. The payload, the metadata hash and
    the extrinsic come from the module's own API, on the client's runtime."""
    import scalecodec

    runtime = await node.init_runtime()
    config = runtime.runtime_config
    head = await node.get_block_number(None)
    metadata = bytes.fromhex((await node.rpc_request("state_getMetadata", []))["result"][2:])
    properties = await node.properties
    metadata_hash = scalecodec.metadata_digest(metadata, decimals=properties["tokenDecimals"],
                                               token_symbol=properties["tokenSymbol"])
    nonce = await node.get_account_next_index(keypair.ss58_address)
    era = {"period": 64, "current": head}
    payload = config.signature_payload(
        call.data.data, era=era, nonce=nonce, tip=0, genesis_hash=await node.get_block_hash(0),
        block_hash=await node.get_block_hash(head), metadata_hash=metadata_hash)
    extrinsic = config.create_scale_object("Extrinsic", metadata=runtime.metadata)
    extrinsic.encode({
        "account_id": "0x" + keypair.public_key.hex(),
        "signature_version": keypair.crypto_type,
        "signature": "0x" + keypair.sign(payload).hex(),
        "call_function": call.value["call_function"],
        "call_module": call.value["call_module"],
        "call_args": call.value["call_args"],
        "era": era, "nonce": nonce, "tip": 0, "mode": "Enabled",
    })
    return extrinsic


async def main(facts):
    full = facts["chain"] != "polkadot-v16"
    out = {"scalecodec": which_scalecodec()}
    async with AsyncSubstrateInterface(facts["url"], ss58_format=None) as node:
        out["chain"] = node.chain
        out["ss58_format"] = node.ss58_format
        keypair = Ed25519Keypair(facts["dev_seed"], node.ss58_format)
        out["dev_address"] = keypair.ss58_address
        if full:
            for number in (3, 10):
                block = await node.get_block(block_number=number)
                out[f"block {number}"] = {
                    "header": plain(block["header"]),
                    "extrinsics": [plain(x) for x in block["extrinsics"]],
                }
            head_hash = await node.get_block_hash(10)
            out["events"] = plain(await node.get_events(head_hash))
        out["account"] = plain(await node.query("System", "Account", [keypair.ss58_address]))
        pages = await node.query_map("System", "Account", page_size=100)
        out["query_map"] = [[plain(k), plain(v)] async for k, v in pages]
        out["constant"] = plain(await node.get_constant("Balances", "ExistentialDeposit"))
        if full:
            # The client reads runtime APIs from V15 metadata only, which the
            # V16 chain's node does not have.
            out["runtime_call"] = plain(await node.runtime_call(
                "AccountNonceApi", "account_nonce", [keypair.ss58_address]))
        out["metadata"] = {
            "modules": [plain(m)["name"] if isinstance(plain(m), dict) else plain(m)
                        for m in await node.get_metadata_modules()],
            "call": plain(await node.get_metadata_call_function("Balances", "transfer_keep_alive")),
            "storage": plain(await node.get_metadata_storage_function("System", "Account")),
            "constant": plain(await node.get_metadata_constant("System", "SS58Prefix")),
            "error": plain(await node.get_metadata_error("Balances", "InsufficientBalance")),
            "signed_extensions": list((await node.init_runtime()).metadata.get_signed_extensions()),
        }
        call = await node.compose_call("Balances", "transfer_keep_alive",
                                       {"dest": keypair.ss58_address, "value": 12345678901234567890})
        if full:
            signed = await node.create_signed_extrinsic(call=call, keypair=keypair, era={"period": 64})
        else:
            signed = await signed_with_metadata_hash(node, call, keypair)
        out["extrinsic"] = str(signed.data)
        receipt = await node.submit_extrinsic(signed, wait_for_inclusion=False)
        out["submitted"] = receipt.extrinsic_hash
        tampered = bytearray(signed.data.data)
        tampered[40] ^= 1
        try:
            await node.rpc_request("author_submitExtrinsic", ["0x" + tampered.hex()])
            out["tampered"] = "accepted"
        except SubstrateRequestException as e:
            out["tampered"] = str(e)
    return out


emit(asyncio.run(main(json.loads(sys.argv[1]))))
