"""One round of vs_bittensor_core.py in one interpreter: the cases timed with whichever of
`scalecodec` (ours) and `bittensor_core` this interpreter has. Prints one JSON object:
{case: µs per call, ..., "values": {case: digest of the result in a shared form}}.

argv: data folder (asi-bench.d), inputs file (JSON made by vs_bittensor_core.py: "accounts",
1,000 System.Account values as hex; "owners", 100 SS58 addresses).
"""
import hashlib
import json
import os
import sys
import time

data_dir, inputs_path = sys.argv[1], sys.argv[2]
MIN_TIME = float(os.environ.get("BENCH_MIN_TIME", "0.2"))
REPEAT = int(os.environ.get("BENCH_REPEAT", "3"))

recorded = json.load(open(os.path.join(data_dir, "asi_recorded.json")))
fixtures = json.load(open(os.path.join(data_dir, "decode_fixtures.json")))
inputs = json.load(open(inputs_path))
accounts_hex, owners = inputs["accounts"], [[a] for a in inputs["owners"]]
out = {"values": {}}

# Subtensor's V15 metadata as the node returns it (Option<OpaqueMetadata>), and V14.
opaque = bytes.fromhex(recorded["metadata_at_version_15"][2:])
length_bytes = {0: 1, 1: 2, 2: 4}[opaque[1] & 3]
raw_v15 = opaque[1 + length_bytes:1 + length_bytes + (int.from_bytes(opaque[1:1 + length_bytes], "little") >> 2)]
raw_v14 = bytes.fromhex(fixtures["metadata_hex"][2:])
SPEC = recorded["events"]["block 7959635"]["spec_version"]
CALL_ARGS = {"dest": "5GrwvaEF5zXb26Fz9rcQpDWS57CtERHpNehXCPcNoHGKutQY", "value": 10 ** 9}
HASH_LEN = {"Blake2_128Concat": 16, "Twox64Concat": 8, "Identity": 0}
# A signature payload's inputs (hashes as bytes: what bittensor-core takes).
GENESIS, CHECKPOINT, METADATA_HASH = bytes([0x11] * 32), bytes([0x22] * 32), bytes([0x33] * 32)
MORTAL, NONCE, TIP = {"period": 64, "current": 1000}, 5, 10 ** 6


def shared_form(value):
    """Bytes as hex, tuples as lists: how both results are compared."""
    if isinstance(value, (bytes, bytearray)):
        return "0x" + bytes(value).hex()
    if isinstance(value, (list, tuple)):
        return [shared_form(v) for v in value]
    if isinstance(value, dict):
        return {str(k): shared_form(v) for k, v in value.items()}
    return value


def digest(value):
    text = json.dumps(shared_form(value), sort_keys=True, default=str)
    return hashlib.sha1(text.encode()).hexdigest()[:12]


def bench(case, fn, fresh=False):
    """µs per call, best of REPEAT; `fresh`: each call is timed alone (a runtime load, whose
    result is not compared)."""
    result = fn()
    out["values"][case] = None if fresh else digest(result)
    best = None
    if fresh:
        for _ in range(max(REPEAT * 10, 30)):
            t0 = time.perf_counter()
            kept = fn()
            dt = time.perf_counter() - t0
            del kept  # freed outside the timed span
            best = dt if best is None else min(best, dt)
    else:
        t0 = time.perf_counter()
        fn()
        loops = max(1, int(MIN_TIME / max(time.perf_counter() - t0, 1e-7)))
        for _ in range(REPEAT):
            t0 = time.perf_counter()
            for _ in range(loops):
                fn()
            dt = (time.perf_counter() - t0) / loops
            best = dt if best is None else min(best, dt)
    out[case] = best * 1e6


def map_page(page):
    """The page's keys (full storage keys) and values as bytes."""
    keys = [bytes.fromhex(k[2:]) for k, _ in page["changes"]]
    values = [bytes.fromhex(v[2:]) for _, v in page["changes"]]
    return keys, values


try:
    import bittensor_core
except ImportError:
    bittensor_core = None

if bittensor_core is None:
    # ours: py-scale-codec's API
    from scalecodec.base import RuntimeConfigurationObject, ScaleBytes
    from scalecodec.type_registry import load_type_registry_preset

    from importlib.metadata import version

    out["implementation"] = f"ferroscale {version('ferroscale')}"

    def load(raw):
        rc = RuntimeConfigurationObject(ss58_format=42)
        md = rc.create_scale_object("MetadataVersioned", data=ScaleBytes(raw))
        md.decode()
        rc.add_portable_registry(md)
        return rc, md

    bench("runtime from V15 metadata (304 KiB)", lambda: load(raw_v15), fresh=True)
    bench("runtime from V14 metadata (269 KiB)", lambda: load(raw_v14), fresh=True)

    def load_and_read(raw):
        rc, md = load(raw)
        pallet = md.get_metadata_pallet("System")
        return pallet.get_storage_function("Account").get_value_type_string()

    bench("runtime from V15, then System.Account's value type", lambda: load_and_read(raw_v15), fresh=True)
    rc, md = load(raw_v15)
    rc.update_type_registry(load_type_registry_preset("core"))
    rc14, _ = load(raw_v14)

    def type_of(pallet, entry):
        return md.get_metadata_pallet(pallet).get_storage_function(entry).get_value_type_string()

    events_type = type_of("System", "Events")
    for label, ev in recorded["events"].items():
        raw = bytes.fromhex(ev["value"][2:])
        bench(f"events of {label}", lambda raw=raw: rc.batch_decode([events_type], [raw])[0])

    account_type = type_of("System", "Account")
    accounts = [bytes.fromhex(h) for h in accounts_hex]
    bench("1,000 System.Account values", lambda: rc.batch_decode([account_type] * len(accounts), accounts))

    for label, sc in fixtures["scenarios"].items():
        ts, bl = sc["type_strings"], [bytes.fromhex(h) for h in sc["bytes_list"]]
        bench(f"query_map page {label.split(' ')[0]}, 100 keys + 100 values (V14)",
              lambda ts=ts, bl=bl: rc14.batch_decode(ts, bl))

    for name, page in recorded["query_map"].items():
        # as async-substrate-interface's decode_query_map: the key type of the free key
        # components (with their hashes when there are several), one batch_decode
        item = md.get_metadata_pallet(page["pallet"]).get_storage_function(page["storage_function"])
        value_type = item.get_value_type_string()
        param_types, hashers = item.get_params_type_string(), item.get_param_hashers()
        fixed = len(page["params"])
        if len(param_types) - fixed == 1:
            hash_len, key_type = HASH_LEN[hashers[fixed]], param_types[fixed]
        else:
            hash_len = 0
            key_type = "(" + ", ".join(f"[u8; {HASH_LEN[hashers[i]]}], {param_types[i]}"
                                       for i in range(fixed, len(param_types))) + ")"
        skip = (len(page["prefix"]) - 2) // 2 + hash_len
        keys, values = map_page(page)
        types = [key_type] * len(keys) + [value_type] * len(values)

        def pairs(keys=keys, values=values, skip=skip, types=types):
            return rc.batch_decode(types, [k[skip:] for k in keys] + values)

        bench(f"storage-map page {name}, {len(keys)} pairs with keys (V15)", pairs)

    bench("100 System.Account storage keys", lambda: rc.storage_keys("System", "Account", owners))

    def compose_object():
        call = rc.create_scale_object("Call", metadata=md)
        return bytes(call.encode({"call_module": "Balances", "call_function": "transfer_keep_alive",
                                  "call_args": CALL_ARGS}).data)

    bench("compose Balances.transfer_keep_alive (py-scale-codec's Call object)", compose_object)
    bench("compose Balances.transfer_keep_alive",
          lambda: rc.compose_call("Balances", "transfer_keep_alive", CALL_ARGS))
    call = rc.compose_call("Balances", "transfer_keep_alive", CALL_ARGS)
    bench("signature payload, immortal",
          lambda: rc.signature_payload(call, era="00", nonce=NONCE, tip=0, genesis_hash=GENESIS))
    bench("signature payload, mortal, metadata hash",
          lambda: rc.signature_payload(call, era=MORTAL, nonce=NONCE, tip=TIP, genesis_hash=GENESIS,
                                       block_hash=CHECKPOINT, metadata_hash=METADATA_HASH))
else:
    rt_class = bittensor_core.Runtime
    from importlib.metadata import version

    out["implementation"] = f"bittensor-core {version('bittensor-core')}"
    bench("runtime from V15 metadata (304 KiB)", lambda: rt_class(raw_v15, SPEC, 1), fresh=True)
    bench("runtime from V14 metadata (269 KiB)", lambda: rt_class(raw_v14, SPEC, 1), fresh=True)
    bench("runtime from V15, then System.Account's value type",
          lambda: rt_class(raw_v15, SPEC, 1).storage_entry("System", "Account").value_type, fresh=True)
    rt = rt_class(raw_v15, SPEC, 1)
    rt14 = rt_class(raw_v14, SPEC, 1)
    events_type = rt.storage_entry("System", "Events").value_type
    for label, ev in recorded["events"].items():
        raw = bytes.fromhex(ev["value"][2:])
        bench(f"events of {label}", lambda raw=raw: rt.decode(events_type, raw))
    account_type = rt.storage_entry("System", "Account").value_type
    accounts = [bytes.fromhex(h) for h in accounts_hex]
    bench("1,000 System.Account values", lambda: rt.batch_decode([account_type] * len(accounts), accounts))
    for label, sc in fixtures["scenarios"].items():
        ts, bl = sc["type_strings"], [bytes.fromhex(h) for h in sc["bytes_list"]]
        bench(f"query_map page {label.split(' ')[0]}, 100 keys + 100 values (V14)",
              lambda ts=ts, bl=bl: rt14.batch_decode(ts, bl))
    for name, page in recorded["query_map"].items():
        keys, values = map_page(page)
        fixed = len(page["params"])
        bench(f"storage-map page {name}, {len(keys)} pairs with keys (V15)",
              lambda keys=keys, values=values, fixed=fixed, page=page: rt.decode_map_pairs(
                  page["pallet"], page["storage_function"], keys, values, fixed))
    bench("100 System.Account storage keys", lambda: rt.storage_key_batch("System", "Account", owners))
    bench("compose Balances.transfer_keep_alive",
          lambda: rt.compose_call("Balances", "transfer_keep_alive", CALL_ARGS))
    call = rt.compose_call("Balances", "transfer_keep_alive", CALL_ARGS)
    bench("signature payload, immortal",
          lambda: rt.signature_payload(call, era="00", nonce=NONCE, tip=0, tip_asset_id=None,
                                       genesis_hash=GENESIS, era_block_hash=GENESIS))
    bench("signature payload, mortal, metadata hash",
          lambda: rt.signature_payload(call, era=MORTAL, nonce=NONCE, tip=TIP, tip_asset_id=None,
                                       genesis_hash=GENESIS, era_block_hash=CHECKPOINT,
                                       metadata_hash=METADATA_HASH))

print(json.dumps(out))
