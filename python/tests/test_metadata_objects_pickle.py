"""The metadata objects (pallets, calls, storage entries, constants: parts of
a decoded ``MetadataVersioned`` with no bytes of their own) pickle with their
values and stay usable after unpickling, as py-scale-codec's plain objects do."""
import pickle

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
