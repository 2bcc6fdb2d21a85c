"""Calls by name and signature payloads (`compose_call`, `signature_payload`)
on real metadata.

`compose_call` gives the bytes `create_scale_object("Call").encode(...)`
gives (Subtensor 343 V15, Polkadot 9180 V14), by name and by position.
`signature_payload` equals bittensor-core 0.1.5's, run in its own interpreter
(`$FERROSCALE_BTCORE_PYTHON`), on Subtensor 343 V15: immortal and mortal
eras, with and without a metadata hash, a call long enough that the payload
is signed as its BLAKE2b-256 hash; on Polkadot (V14 and V16) it equals the
payload laid out by hand, hashed with hashlib. Bad input raises errors naming
what is wrong."""
import hashlib
import json
import os
import subprocess
import tempfile

import pytest

from conftest import REFERENCE_SCRIPTS, _venv_python, config_with_metadata, fixtures_dir, read_json

SUBTENSOR = "metadata/subtensor-v15-spec343.scale"
POLKADOT_V14 = "metadata/polkadot-v14-spec9180.scale"
POLKADOT_V16 = "metadata/polkadot-v16-spec2003000.scale"
ALICE = "5GrwvaEF5zXb26Fz9rcQpDWS57CtERHpNehXCPcNoHGKutQY"
BOB = "5FHneW46xGXgs5mUiveU4sbTyGBzmstUspZC92UhjJM694ty"
GENESIS = "0x" + "11" * 32
CHECKPOINT = "0x" + "22" * 32
METADATA_HASH = "0x" + "33" * 32


def btcore_python() -> str:
    """The interpreter of a venv with bittensor-core 0.1.5."""
    return _venv_python("FERROSCALE_BTCORE_PYTHON", ".venv-btcore", "bittensor-core==0.1.5")


@pytest.fixture(scope="module")
def subtensor():
    return config_with_metadata(SUBTENSOR, ss58_format=42)


def call_route(rc, md, module, function, args):
    """The bytes of the existing route: a `Call` scale object's encoding."""
    call = rc.create_scale_object("Call", metadata=md)
    return bytes(call.encode({"call_module": module, "call_function": function, "call_args": args}).data)


CALLS = [
    ("Balances", "transfer_keep_alive", {"dest": ALICE, "value": 10 ** 9}),
    ("Balances", "transfer_allow_death", {"dest": "0x" + "d4" * 32, "value": 2 ** 100}),
    ("SubtensorModule", "add_stake", {"hotkey": BOB, "netuid": 1, "amount_staked": 123456789}),
    ("System", "remark", {"remark": "0x" + "ab" * 300}),
    ("Utility", "batch", {"calls": [
        {"call_module": "Balances", "call_function": "transfer_keep_alive",
         "call_args": {"dest": ALICE, "value": i}} for i in range(12)]}),
]


def test_compose_call_is_the_call_objects_encoding(subtensor):
    rc, md = subtensor
    for module, function, args in CALLS:
        expected = call_route(rc, md, module, function, args)
        assert rc.compose_call(module, function, args) == expected
        # By position: the call's arguments in order.
        assert rc.compose_call(module, function, list(args.values())) == expected
        assert rc.compose_call(module, function, tuple(args.values())) == expected
    rc14, md14 = config_with_metadata(POLKADOT_V14, ss58_format=0)
    args = {"dest": "0x" + "07" * 32, "value": 12345}
    assert rc14.compose_call("Balances", "transfer_keep_alive", args) == \
        call_route(rc14, md14, "Balances", "transfer_keep_alive", args)


def test_compose_call_errors_name_what_is_wrong(subtensor):
    rc, _ = subtensor
    args = {"dest": ALICE, "value": 1}
    with pytest.raises(ValueError, match="pallet 'Balancez' not found"):
        rc.compose_call("Balancez", "transfer_keep_alive", args)
    with pytest.raises(ValueError, match="'Balances.transfer_it_all' not found"):
        rc.compose_call("Balances", "transfer_it_all", args)
    with pytest.raises(ValueError, match=r"no argument 'dst' \(its arguments: dest, value\)"):
        rc.compose_call("Balances", "transfer_keep_alive", {"dst": ALICE, "value": 1})
    with pytest.raises(ValueError, match="parameter 'value' not specified"):
        rc.compose_call("Balances", "transfer_keep_alive", {"dest": ALICE})
    with pytest.raises(ValueError, match="1 argument\\(s\\) given by position, the call takes 2"):
        rc.compose_call("Balances", "transfer_keep_alive", [ALICE])
    with pytest.raises(ValueError, match="argument 'value' of Balances.transfer_keep_alive"):
        rc.compose_call("Balances", "transfer_keep_alive", {"dest": ALICE, "value": "lots"})
    with pytest.raises(ValueError, match="argument 'dest' of Balances.transfer_keep_alive"):
        rc.compose_call("Balances", "transfer_keep_alive", {"dest": "5Gbad", "value": 1})
    with pytest.raises(TypeError, match="must be a dict"):
        rc.compose_call("Balances", "transfer_keep_alive", 5)


def payload_cases(rc):
    """Calls (a short transfer; a batch long enough that its payload is hashed) × era × metadata hash."""
    transfer = rc.compose_call(*CALLS[0])
    batch = rc.compose_call(*CALLS[4])
    assert len(batch) > 256
    cases = []
    for call in (transfer, batch):
        for era, checkpoint in (("00", GENESIS), ({"period": 64, "current": 1000}, CHECKPOINT)):
            for metadata_hash in (None, METADATA_HASH):
                cases.append({"call": "0x" + call.hex(), "era": era, "nonce": 5, "tip": 1000,
                              "genesis_hash": GENESIS, "era_block_hash": checkpoint,
                              "metadata_hash": metadata_hash})
    return cases


def ours(rc, case, **kw):
    return rc.signature_payload(bytes.fromhex(case["call"][2:]), era=case["era"], nonce=case["nonce"],
                                tip=case["tip"], genesis_hash=case["genesis_hash"],
                                block_hash=None if case["era"] == "00" else case["era_block_hash"],
                                metadata_hash=case["metadata_hash"], **kw)


def test_signature_payload_equals_bittensor_cores(subtensor):
    rc, _ = subtensor
    python = btcore_python()
    cases = payload_cases(rc)
    # bittensor-core takes the runtime's versions from its caller: Subtensor 343's own.
    spec, tx = runtime_versions(subtensor[1])
    assert spec == 343
    with tempfile.NamedTemporaryFile("w", suffix=".json", delete=False) as f:
        json.dump({"spec_version": spec, "transaction_version": tx, "calls": CALLS[:3], "payloads": cases}, f)
        path = f.name
    try:
        proc = subprocess.run([python, str(REFERENCE_SCRIPTS / "btcore_payloads.py"),
                               str(fixtures_dir() / SUBTENSOR), path],
                              capture_output=True, text=True, timeout=300, env=dict(os.environ, PYTHONPATH=""))
    finally:
        os.unlink(path)
    if proc.returncode != 0:
        pytest.fail(f"btcore_payloads.py under {python} failed:\n{proc.stderr[-4000:]}")
    theirs = json.loads(proc.stdout)
    for (module, function, args), call in zip(CALLS, theirs["calls"]):
        assert rc.compose_call(module, function, args).hex() == call, f"{module}.{function}"
    assert len(theirs["payloads"]) == len(cases) == 8
    for case, payload in zip(cases, theirs["payloads"]):
        mine = ours(rc, case)
        assert mine.hex() == payload, case
        assert ours(rc, case, spec_version=spec, transaction_version=tx) == mine
        assert len(mine) == 32 if len(case["call"]) > 2 + 2 * 200 else len(mine) < 256


def test_signature_payload_polkadot_by_hand():
    """Polkadot 2003000 (V16: CheckMetadataHash) and 9180 (V14): the payload laid out by hand."""
    for name, has_mode in ((POLKADOT_V16, True), (POLKADOT_V14, False)):
        rc, md = config_with_metadata(name, ss58_format=0)
        extrinsic = md.value[1][f"V{md.value_object[1].index}"]["extrinsic"]
        extensions = extrinsic.get("signed_extensions") or extrinsic["transaction_extensions"]
        identifiers = [e["identifier"] for e in extensions]
        assert ("CheckMetadataHash" in identifiers) == has_mode
        spec, tx = runtime_versions(md)
        call = rc.compose_call("System", "remark", {"remark": "0x" + "ab" * 250})
        for metadata_hash in ((None, METADATA_HASH) if has_mode else (None,)):
            payload = rc.signature_payload("0x" + call.hex(), era={"period": 64, "current": 1000}, nonce=5,
                                           tip=1_000_000, genesis_hash=bytes.fromhex(GENESIS[2:]),
                                           block_hash=CHECKPOINT, metadata_hash=metadata_hash)
            expected = call + bytes([0x85, 0x02]) + bytes([5 << 2]) + (1_000_000 << 2 | 2).to_bytes(4, "little")
            if has_mode:
                expected += bytes([metadata_hash is not None])
            expected += spec.to_bytes(4, "little") + tx.to_bytes(4, "little")
            expected += bytes.fromhex(GENESIS[2:]) + bytes.fromhex(CHECKPOINT[2:])
            if has_mode:
                expected += b"\x00" if metadata_hash is None else b"\x01" + bytes.fromhex(METADATA_HASH[2:])
            assert len(expected) > 256
            assert payload == hashlib.blake2b(expected, digest_size=32).digest(), name


def runtime_versions(md):
    """(spec_version, transaction_version) read by hand from the System.Version constant's
    bytes (RuntimeVersion: spec_name, impl_name, authoring_version, spec_version,
    impl_version, apis, transaction_version, …)."""
    [version] = [c for c in md.get_metadata_pallet("System").constants if c.name == "Version"]
    raw = bytes(version.constant_value)

    def compact(at):
        mode = raw[at] & 3
        width = {0: 1, 1: 2, 2: 4}[mode]
        return int.from_bytes(raw[at:at + width], "little") >> 2, at + width

    at = 0
    for _ in range(2):  # spec_name, impl_name
        length, at = compact(at)
        at += length
    spec = int.from_bytes(raw[at + 4:at + 8], "little")
    apis, at = compact(at + 12)
    at += apis * 12
    return spec, int.from_bytes(raw[at:at + 4], "little")


def test_signature_payload_inputs(subtensor):
    rc, md = subtensor
    call = rc.compose_call(*CALLS[0])
    base = rc.signature_payload(call, genesis_hash=GENESIS)
    # era None is "00"; the genesis hash as bytes; the call as ScaleBytes or an encoded Call object.
    assert rc.signature_payload(call, era="00", genesis_hash=bytes.fromhex(GENESIS[2:])) == base
    assert rc.signature_payload(call, genesis_hash=GENESIS, block_hash=GENESIS) == base
    obj = rc.create_scale_object("Call", metadata=md)
    obj.encode({"call_module": CALLS[0][0], "call_function": CALLS[0][1], "call_args": CALLS[0][2]})
    assert rc.signature_payload(obj, genesis_hash=GENESIS) == base
    assert rc.signature_payload(obj.data, genesis_hash=GENESIS) == base
    assert rc.signature_payload("0x" + call.hex(), genesis_hash=GENESIS) == base
    # The runtime's versions unless given; a version given changes its bytes only.
    other = rc.signature_payload(call, genesis_hash=GENESIS, spec_version=344)
    assert other != base and len(other) == len(base)


def test_signature_payload_errors(subtensor):
    rc, _ = subtensor
    call = rc.compose_call(*CALLS[0])
    with pytest.raises(ValueError, match="give block_hash"):
        rc.signature_payload(call, era={"period": 64, "current": 1000}, genesis_hash=GENESIS)
    with pytest.raises(ValueError, match="immortal era's checkpoint is the genesis block"):
        rc.signature_payload(call, genesis_hash=GENESIS, block_hash=CHECKPOINT)
    with pytest.raises(ValueError, match="genesis_hash"):
        rc.signature_payload(call, genesis_hash="0x12zz")
    with pytest.raises(TypeError):
        rc.signature_payload(call)  # genesis_hash is required
    with pytest.raises(ValueError, match="no signed extension 'CheckNothing'"):
        rc.signature_payload(call, genesis_hash=GENESIS, extensions={"CheckNothing": {"extrinsic": 1}})
    with pytest.raises(ValueError, match="only \"extrinsic\" and \"additional_signed\""):
        rc.signature_payload(call, genesis_hash=GENESIS, extensions={"CheckNonce": {"extrinsik": 1}})
    with pytest.raises(ValueError, match="extrinsic of CheckMortality"):
        rc.signature_payload(call, era="forever", genesis_hash=GENESIS)
    with pytest.raises(TypeError, match="call must be"):
        rc.signature_payload(1234, genesis_hash=GENESIS)
    # An extension's value given in place of a field's.
    assert rc.signature_payload(call, genesis_hash=GENESIS, extensions={"CheckNonce": {"extrinsic": 9}}) == \
        rc.signature_payload(call, genesis_hash=GENESIS, nonce=9)
