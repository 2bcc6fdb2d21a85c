"""What clients read from decoded calls and block digests, against
py-scale-codec 1.2.12 itself: ``reference_scripts/client_reads.py`` reads,
under the reference interpreter and under ours, the arguments of every call
of a real Polkadot block as ``extrinsic['call']['call_args']`` holds them
(V14 field objects with their ``value_object['value']``, a V13 call's dict
of argument objects by name), and a block's author as async-substrate-interface
and substrate-interface find it in the digest logs (real BABE pre-runtime
and seal items, an Aura item; through the runtime's portable types and
through the legacy types). Every read must be equal."""
from conftest import fixtures_dir, read, read_json, reference_python, run_reference_script

import sys


def test_call_args_and_digest_logs_read_as_py_scale_codec_reads_them():
    ours = run_reference_script(sys.executable, "client_reads.py", str(fixtures_dir()))
    reference = run_reference_script(reference_python(), "client_reads.py", str(fixtures_dir()))
    assert set(ours) == set(reference)
    # the reads cover what they say: four calls, BABE and Aura authors, legacy items
    assert reference["v14 digest log 0"]["authority_index"] == 218
    assert reference["v14 digest log 2"]["slot"] == 283633129
    assert reference["legacy digest log 0"]["PreRuntime"]["data"]["authority_index"] == 218
    assert set(reference["v13 call_args"]) == {"dest", "value"}
    assert reference["v14 extrinsic 0 parts"]["call is a GenericCall"] is True
    assert not any("raises" in str(v)[:12] for v in reference.values())
    diffs = [f"{name}:\n  py-scale-codec {reference[name]!s:.400}\n  ours           {ours[name]!s:.400}"
             for name in reference if ours[name] != reference[name]]
    assert not diffs, "\n".join(diffs)


def test_a_decoded_calls_data_are_its_own_bytes():
    """What a client signs for a call it took from a decoded extrinsic
    (``create_signed_extrinsic`` signs ``str(call.data)``) is the call's own
    bytes; py-scale-codec's part shares the whole extrinsic's data."""
    from scalecodec.base import RuntimeConfigurationObject, ScaleBytes
    from scalecodec.type_registry import load_type_registry_preset

    rc = RuntimeConfigurationObject()
    rc.update_type_registry(load_type_registry_preset("core"))
    md = rc.create_scale_object("MetadataVersioned", data=ScaleBytes(read("metadata/polkadot-v14-spec1000001.scale")))
    md.decode()
    rc.add_portable_registry(md)
    for raw in read_json("payloads/polkadot-block-18468942/extrinsics.json"):
        ex = rc.create_scale_object("Extrinsic", data=ScaleBytes(raw), metadata=md)
        ex.decode()
        call = ex["call"]
        again = rc.create_scale_object("Call", metadata=md).encode(call.value)
        assert str(call.data) == str(again) == "0x" + call.get_used_bytes().hex()
        assert raw.endswith(str(again)[2:])
