"""The pre-MultiAddress addresses of Polkadot and Kusama (``AccountIdAddress``,
``GenericAddress``) decode to py-scale-codec 1.2.12's values, with an ss58
format and without one (then bare hex, no ``0x``, as py-scale-codec gives
it). Every value encodes back to its bytes: where py-scale-codec can (with
a format) and also where it cannot (its own bare hex)."""
import sys

from conftest import reference_python, run_reference_script


def test_legacy_addresses_decode_as_py_scale_codec_and_encode_back():
    ours = run_reference_script(sys.executable, "legacy_addresses.py")
    reference = run_reference_script(reference_python(), "legacy_addresses.py")
    assert set(ours) == set(reference)
    # the cases cover what they say: bare hex without a format, SS58 with one
    assert reference["AccountIdAddress ss58=None"]["value"] == \
        "d43593c715fdd31c61141abd04a99fd6822c8558854ccde39a5684e7a56da27d"
    assert reference["Address ss58=2"]["value"].startswith("H")
    diffs = [f"{name}: py-scale-codec {reference[name]['value']!r}, ours {ours[name]['value']!r}"
             for name in reference if ours[name]["value"] != reference[name]["value"]]
    assert not diffs, "\n".join(diffs)
    assert all(r["encodes back"] is True for r in ours.values()), ours
