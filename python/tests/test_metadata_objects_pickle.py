"""The metadata objects (pallets, calls, storage entries, constants: parts of
a decoded ``MetadataVersioned`` with no bytes of their own) pickle with their
values and stay usable after unpickling, as py-scale-codec's plain objects do."""
import pickle
import subprocess
import sys

from conftest import config_with_metadata


def test_metadata_parts_round_trip_through_pickle():
    _rc, md = config_with_metadata("metadata/polkadot-v14-spec9180.scale")
    pallet = md.get_metadata_pallet("Balances")
    call, entry, constant = pallet.calls[0], pallet.get_storage_function("Account"), pallet.constants[0]
    for obj in (pallet, call, entry, constant, md.value_object[1], pallet["index"]):
        clone = pickle.loads(pickle.dumps(obj))
        assert type(clone).__name__ == type(obj).__name__ and clone.value == obj.value
    clone = pickle.loads(pickle.dumps(pallet))
    # its calls come from the registry of the metadata it is part of
    assert [c.name for c in clone.calls] == [c.name for c in pallet.calls]
    assert clone.calls[0].get_param_info() == call.get_param_info()
    account = clone.get_storage_function("Account")
    assert account.get_value_type_string() == entry.get_value_type_string()
    assert account.value_object["default"].value_object == entry.value_object["default"].value_object
    assert clone.constants[0].constant_value == constant.constant_value == bytearray.fromhex(
        "00e40b54020000000000000000000000")  # ExistentialDeposit: 1 DOT (10^10 planck)


def test_metadata_parts_unpickle_in_a_fresh_interpreter():
    """Typed parts have classes made per process: they pickle as the call
    that types them again, with their attributes and the metadata they are
    part of, so a fresh interpreter (a client's disk cache) can load them."""
    _rc, md = config_with_metadata("metadata/polkadot-v14-spec9180.scale")
    pallet = md.get_metadata_pallet("Balances")
    pallet.meta_info["note"] = "kept"
    blob = pickle.dumps((md.get_metadata(), pallet))
    child = ("import pickle, sys\n"
             "version, pallet = pickle.loads(sys.stdin.buffer.read())\n"
             "print(version.index, version.value_object[0], type(pallet).__name__, pallet.value['name'],\n"
             "      pallet.meta_info['note'], len(pallet.calls), pallet.calls[0].name)")
    out = subprocess.run([sys.executable, "-c", child], input=blob, capture_output=True, check=True).stdout
    assert out.decode().split() == ["14", "V14", type(pallet).__name__, "Balances", "kept",
                                    str(len(pallet.calls)), pallet.calls[0].name]
