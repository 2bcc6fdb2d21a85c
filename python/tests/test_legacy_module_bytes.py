"""V9–V11 metadata counts calls over the modules that have calls and events
over the modules that have events, so one pallet byte names one module in a
call and another in an event. Every byte's first argument-free event and
call of five V9–V11 runtimes decode to py-scale-codec 1.2.12's values (the
module of that byte for that kind), and ours encode back to their bytes."""
import sys

from conftest import fixtures_dir, reference_python, run_reference_script

FIXTURES = [
    "kusama-v9-spec1021.scale",
    "kusama-v10-spec1038.scale",
    "kusama-v11-spec1045.scale",
    "substrate-node-v9.scale",
    "substrate-node-v11.scale",
]


def test_v9_to_v11_bytes_name_the_module_of_their_kind():
    args = (str(fixtures_dir()), *FIXTURES)
    ours = run_reference_script(sys.executable, "legacy_module_bytes.py", *args)
    reference = run_reference_script(reference_python(), "legacy_module_bytes.py", *args)
    assert set(ours) == set(reference)
    # the cases cover what they say: bytes whose call and event modules differ
    kusama = "kusama-v10-spec1038.scale"
    assert reference[f"{kusama} event 06"]["value"][0]["module_id"] == "Grandpa"
    assert reference[f"{kusama} call 06"]["value"]["call_module"] == "Staking"
    diffs = [f"{case}: py-scale-codec {reference[case]['value']!r}, ours {ours[case]['value']!r}"
             for case in reference if ours[case]["value"] != reference[case]["value"]]
    assert not diffs, "\n".join(diffs)
    assert all(r["encodes back"] is True for r in ours.values()), \
        {case: r["encodes back"] for case, r in ours.items() if r["encodes back"] is not True}
