"""The real clients against a node, on our module and on their own.

``ferroscale-devnode`` (tests/devnode) serves real Polkadot blocks, events
and metadata over WebSocket, accounts in storage, and checks the ed25519
signature of every transaction it is sent. substrate-interface 1.8.1 and
async-substrate-interface 2.2.1 each run one script of their public calls
(``live_clients/``) in a venv that holds the client, its own ``scalecodec``
(py-scale-codec 1.2.12; cyscale 0.8.0) and ours: once on theirs
(``FERROSCALE_SCALECODEC=0``) and once on ours (``=1``). The two runs must
give the same results, byte for byte for the signed transaction. On a V16
runtime with ``CheckMetadataHash``, which neither reference reads, ours runs
alone. ``cargo xtask test`` builds the node and the venvs.
"""

import json
import os
import subprocess
from pathlib import Path

import pytest
from conftest import _venv_python

CLIENTS = Path(__file__).resolve().parent / "live_clients"
SCRIPT = {"si": "si_client.py", "asi": "asi_client.py"}
VENV = {"si": ("FERROSCALE_SI_PYTHON", ".venv-si", "substrate-interface==1.8.1 scalecodec==1.2.12"),
        "asi": ("FERROSCALE_ASI_PYTHON", ".venv-asi",
                "async-substrate-interface==2.2.1 cyscale==0.8.0 py-ed25519-zebra-bindings==1.3.0")}


def blake2_256(data: bytes) -> str:
    import hashlib

    return "0x" + hashlib.blake2b(data, digest_size=32).hexdigest()


@pytest.fixture(scope="module")
def devnode():
    """Starts ``ferroscale-devnode --chain NAME``; stops them all at the end."""
    binary = os.environ.get("FERROSCALE_DEVNODE")
    if not binary or not Path(binary).is_file():
        pytest.fail("FERROSCALE_DEVNODE does not name the dev node: run `cargo xtask test`, or "
                    "`cargo build -p ferroscale-devnode` and set FERROSCALE_DEVNODE=$PWD/target/debug/ferroscale-devnode")
    started = {}

    def start(chain):
        if chain not in started:
            proc = subprocess.Popen([binary, "--chain", chain, "--minutes", "10"], stdout=subprocess.PIPE,
                                    stderr=subprocess.PIPE, text=True)
            line = proc.stdout.readline()
            if not line:
                proc.kill()
                pytest.fail(f"the dev node ({chain}) did not start: {proc.stderr.read()[-2000:]}")
            started[chain] = (proc, json.loads(line))
        return started[chain][1]

    yield start
    for proc, _ in started.values():
        proc.kill()
        proc.wait()


def run_client(client, facts, ours):
    python = _venv_python(*VENV[client])
    env = dict(os.environ, PYTHONPATH="", FERROSCALE_SCALECODEC="1" if ours else "0")
    proc = subprocess.run([python, SCRIPT[client], json.dumps(facts)], capture_output=True, text=True,
                          timeout=300, env=env, cwd=str(CLIENTS))
    which = "ours" if ours else "theirs"
    assert proc.returncode == 0, f"{client} on {which} failed:\n{proc.stderr[-4000:]}"
    return json.loads(proc.stdout)


def check_node_answers(result, facts):
    """What the node's data says, whichever codec read it."""
    assert result["account"]["nonce"] == facts["dev_nonce"]
    assert result.get("runtime_call", facts["dev_nonce"]) == facts["dev_nonce"]
    assert len(result["query_map"]) == facts["accounts"]  # three pages of 100
    signed = bytes.fromhex(result["extrinsic"][2:])
    # the node accepted it (checking its signature) and answered its hash
    assert result["submitted"] == blake2_256(signed)
    assert "bad signature" in result["tampered"] or result["tampered"] == "Invalid Transaction"


@pytest.mark.parametrize("client,chain", [("si", "polkadot"), ("asi", "polkadot-v15")])
def test_client_on_ours_equals_client_on_its_reference(devnode, client, chain):
    facts = devnode(chain)
    theirs = run_client(client, facts, ours=False)
    ours = run_client(client, facts, ours=True)
    assert theirs.pop("scalecodec") == "other"
    assert ours.pop("scalecodec") == "ferroscale"
    check_node_answers(theirs, facts)
    check_node_answers(ours, facts)
    assert len(ours["events"]) == 58
    assert [len(ours[f"block {n}"]["extrinsics"]) for n in (3, 10)] == [2, 4]
    for key in sorted(theirs):
        assert ours[key] == theirs[key], f"{client}: {key} differs"
    assert ours.keys() == theirs.keys()


def test_async_client_on_ours_signs_for_a_v16_runtime_with_check_metadata_hash(devnode):
    """cyscale cannot read V16 metadata; on ours the client signs with the
    runtime's `CheckMetadataHash` (mode `Disabled`: the client never enables
    it), and the node checks the signature. (substrate-interface 1.8.1 reads
    `metadata[1][1]['extrinsic']['version']`, which V16's extrinsic metadata,
    listing `versions`, does not have: it cannot sign for a V16 runtime on
    any codec.)"""
    facts = devnode("polkadot-v16")
    ours = run_client("asi", facts, ours=True)
    assert ours["scalecodec"] == "ferroscale"
    assert "runtime_call" not in ours
    check_node_answers(ours, facts)
    extensions = ours["metadata"]["signed_extensions"]
    assert "CheckMetadataHash" in extensions
