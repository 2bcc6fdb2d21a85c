"""RFC-0078 metadata hashes and extrinsic proofs (``scalecodec.metadata_digest``,
``scalecodec.extrinsic_proof``) against two implementations of other projects:

- bittensor-core 0.1.5, run in its own venv (``$FERROSCALE_BTCORE_PYTHON``).
  It computes them with the ``merkleized-metadata`` crate, which takes V15
  metadata only: it refuses the V14 and V16 fixtures ("Only supports metadata
  V15"), and the test checks that it still does.
- dedot's ``@dedot/merkleized-metadata`` 1.3.0 (TypeScript), run by Node.js
  from ``reference_node/`` (its ``node_modules`` in ``$FERROSCALE_DEDOT_DIR``).
  It reads V14, V15 and V16 metadata itself, so it checks every fixture's
  digest. Its proofs are not compared: for the same extrinsic it proves
  other leaves than the reference crate (13 where the crate has 24).

Both are set up by ``cargo xtask test``. The Rust tests
(``metadata/tests/digest.rs``) also check every fixture against the crate,
given the same runtime's extrinsic as V15 metadata describes it.

Proofs are for the two signed extrinsics of Polkadot block 18,468,942 read
with Polkadot's V15 metadata (spec 1001002: the same calls and extensions),
each split as the RFC says: the call, the extensions' bytes carried in the
extrinsic, and the data they add to the signed payload only.
"""
import json
import os
import shutil
import subprocess
import tempfile
from pathlib import Path

import pytest

import scalecodec
from conftest import _venv_python, fixtures_dir, metadata_names, read, read_json, run_reference_script

DECIMALS, TOKEN = 9, "TAO"


def btcore_python() -> str:
    return _venv_python("FERROSCALE_BTCORE_PYTHON", ".venv-btcore", "bittensor-core==0.1.5")


def btcore(jobs):
    with tempfile.NamedTemporaryFile("w", suffix=".json", delete=False) as f:
        json.dump(jobs, f)
    try:
        return run_reference_script(btcore_python(), "btcore_digest.py", f.name)
    finally:
        os.unlink(f.name)


REFERENCE_NODE = Path(__file__).resolve().parent / "reference_node"


def dedot(jobs):
    """dedot's results for ``jobs`` (see ``reference_node/digest.mjs``)."""
    modules = os.environ.get("FERROSCALE_DEDOT_DIR") or str(REFERENCE_NODE / "node_modules")
    node = shutil.which("node")
    if node is None or not (Path(modules) / "@dedot" / "merkleized-metadata").is_dir():
        pytest.fail("dedot's merkleized-metadata is not installed: run `cargo xtask test`, or "
                    "`npm ci --prefix python/tests/reference_node` (Node.js 18 or later)")
    with tempfile.NamedTemporaryFile("w", suffix=".json", delete=False) as f:
        json.dump(jobs, f)
    try:
        proc = subprocess.run([node, str(REFERENCE_NODE / "digest.mjs"), f.name], capture_output=True, text=True,
                              timeout=600, env=dict(os.environ, NODE_PATH=modules), cwd=str(REFERENCE_NODE))
    finally:
        os.unlink(f.name)
    if proc.returncode != 0:
        pytest.fail(f"digest.mjs failed:\n{proc.stderr[-4000:]}")
    return json.loads(proc.stdout)


def modern():
    out = []
    for name in metadata_names():
        data = read(name)
        if data[4] >= 14:
            out.append((name, data, data[4]))
    return out


def chain_of(data):
    """Spec version and name from the metadata (as bittensor-core needs them
    given); the synthetic custom-values metadata has no ``System.Version``."""
    info = scalecodec._core.metadata_info(data)
    return info["spec_version"] or 1, info["spec_name"] or "custom"


def test_digests_equal_bittensor_core_where_it_accepts_the_metadata():
    fixtures = modern()
    assert len(fixtures) >= 14
    jobs = []
    for name, data, _ in fixtures:
        spec_version, spec_name = chain_of(data)
        jobs.append({"kind": "digest", "metadata": str(fixtures_dir() / name), "spec_version": spec_version,
                     "spec_name": spec_name, "base58_prefix": 42, "decimals": DECIMALS, "token_symbol": TOKEN})
    results = btcore(jobs)
    compared = 0
    for (name, data, version), job, theirs in zip(fixtures, jobs, results):
        ours = scalecodec.metadata_digest(data, decimals=DECIMALS, token_symbol=TOKEN,
                                          spec_version=job["spec_version"], spec_name=job["spec_name"],
                                          base58_prefix=42)
        assert isinstance(ours, bytes) and len(ours) == 32
        if version == 15:
            assert theirs == {"hex": ours.hex()}, name
            compared += 1
        else:
            assert "Only supports metadata V15" in theirs.get("error", ""), (name, theirs)
    assert compared >= 6


def test_digests_equal_dedot_on_every_v14_to_v16_fixture():
    fixtures = modern()
    jobs = []
    for name, data, _ in fixtures:
        spec_version, spec_name = chain_of(data)
        jobs.append({"kind": "digest", "metadata": str(fixtures_dir() / name), "spec_version": spec_version,
                     "spec_name": spec_name, "base58_prefix": 42, "decimals": DECIMALS, "token_symbol": TOKEN})
    compared = set()
    for (name, data, version), job, theirs in zip(fixtures, jobs, dedot(jobs)):
        ours = scalecodec.metadata_digest(data, decimals=DECIMALS, token_symbol=TOKEN,
                                          spec_version=job["spec_version"], spec_name=job["spec_name"],
                                          base58_prefix=42)
        if "custom-values" in name:
            # dedot reads System.Version even when the spec is given, and
            # the synthetic custom-values metadata has no System pallet
            assert "Pallet not found: system" in theirs.get("error", ""), (name, theirs)
            continue
        assert theirs == {"hex": ours.hex()}, name
        compared.add(name)
    assert {version for name, _, version in fixtures if name in compared} == {14, 15, 16}
    assert len(compared) == len(fixtures) - 1


def test_defaults_come_from_the_metadata():
    data = read("metadata/polkadot-v15-spec1001002.scale")
    [theirs] = btcore([{"kind": "digest", "metadata": str(fixtures_dir() / "metadata/polkadot-v15-spec1001002.scale"),
                        "spec_version": 1001002, "spec_name": "polkadot", "base58_prefix": 0, "decimals": 10,
                        "token_symbol": "DOT"}])
    assert scalecodec.metadata_digest(data, decimals=10, token_symbol="DOT").hex() == theirs["hex"]
    assert scalecodec.metadata_digest(data, decimals=10, token_symbol="DOT", base58_prefix=1).hex() != theirs["hex"]


def _compact(data, at):
    """A SCALE compact integer at ``at``: (value, next offset)."""
    mode = data[at] & 3
    if mode == 0:
        return data[at] >> 2, at + 1
    if mode == 1:
        return int.from_bytes(data[at:at + 2], "little") >> 2, at + 2
    if mode == 2:
        return int.from_bytes(data[at:at + 4], "little") >> 2, at + 4
    n = (data[at] >> 2) + 4
    return int.from_bytes(data[at + 1:at + 1 + n], "little"), at + 1 + n


def split_polkadot(xt):
    """A signed Polkadot extrinsic cut into call and extension bytes: after
    the length, the version byte, a ``MultiAddress::Id`` and a
    ``MultiSignature``, the extensions carry the era (1 byte immortal, else 2),
    the nonce and the tip (compacts); the rest is the call."""
    _, at = _compact(xt, 0)
    assert xt[at] == 0x84
    at += 1
    assert xt[at] == 0  # MultiAddress::Id
    at += 33
    at += 1 + (65 if xt[at] == 2 else 64)  # ecdsa, else sr25519/ed25519
    start = at
    at += 1 if xt[at] == 0 else 2
    _, at = _compact(xt, at)
    _, at = _compact(xt, at)
    return xt[at:], xt[start:at]


def test_proofs_equal_bittensor_core():
    name = "metadata/polkadot-v15-spec1001002.scale"
    data = read(name)
    signed = (1001002).to_bytes(4, "little") + (26).to_bytes(4, "little") + b"\x91" * 32 + b"\x42" * 32
    cases = []
    for h in read_json("payloads/polkadot-block-18468942/extrinsics.json"):
        xt = bytes.fromhex(h[2:])
        if xt[_compact(xt, 0)[1]] == 0x84:
            cases.append(split_polkadot(xt))
    assert len(cases) >= 2
    jobs = [{"kind": "proof", "metadata": str(fixtures_dir() / name), "spec_version": 1001002,
             "spec_name": "polkadot", "base58_prefix": 0, "decimals": 10, "token_symbol": "DOT",
             "call": call.hex(), "extra": extra.hex(), "signed": signed.hex()} for call, extra in cases]
    for (call, extra), theirs in zip(cases, btcore(jobs)):
        ours = scalecodec.extrinsic_proof(call, extra, signed, data, decimals=10, token_symbol="DOT")
        assert theirs == {"hex": ours.hex()}
    call, extra = cases[0]
    with pytest.raises(ValueError, match="metadata digest"):
        scalecodec.extrinsic_proof(call[:-1], extra, signed, data, decimals=10, token_symbol="DOT")


def test_bad_input_raises_value_error():
    with pytest.raises(ValueError, match="V14 or later"):
        scalecodec.metadata_digest(read("metadata/kusama-v13-spec9030.scale"), decimals=12, token_symbol="KSM")
    with pytest.raises(ValueError):
        scalecodec.metadata_digest(b"meta\x0f\x00", decimals=12, token_symbol="KSM")
    with pytest.raises(TypeError):
        scalecodec.metadata_digest(read("metadata/polkadot-v15-spec1001002.scale"))  # decimals are required
