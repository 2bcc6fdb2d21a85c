"""Every fixture metadata (V9–V16) decodes; its pallets, calls and storage
functions agree with the bytes (spot-checked against values that come from
the chains, not from our decoder)."""
import pytest

from conftest import config_with_metadata, metadata_names, read


@pytest.mark.parametrize("name", metadata_names())
def test_every_fixture_metadata_decodes(name):
    rc, md = config_with_metadata(name)
    raw = read(name)
    version = md.value_object[1].index
    assert version == raw[4], "version byte of the blob"
    assert md.value[0] == "0x6d657461"
    key = f"V{version}"
    assert list(md.value[1]) == [key]
    pallets = md.pallets
    # the synthetic custom-values blob carries no pallets; real chains do
    assert bool(pallets) == ("custom-values" not in name)
    assert len({p.name for p in pallets}) == len(pallets), "pallet names are unique"
    if version >= 14:
        assert md.portable_registry is not None
        # py-scale-codec 1.2.12 indexes calls by "PPCC" only for V9–V13
        assert md.call_index == {} and md.event_index == {}
        assert all(call.name for pallet in pallets for call in pallet.calls)
    else:
        assert md.portable_registry is None
        # every call of every module is reachable by its index
        for index, (pallet, call) in md.call_index.items():
            assert len(index) == 4 and pallet.name and call.name
    for pallet in pallets:
        for storage in pallet.storage or []:
            params, hashers = storage.get_params_type_string(), storage.get_param_hashers()
            if "Plain" in storage.value["type"]:
                # py-scale-codec 1.2.12 names Twox64Concat as a plain entry's hasher
                assert params == [] and hashers == ["Twox64Concat"]
            else:
                assert len(params) == len(hashers)
            assert storage.get_value_type_string()
        # the by-name look-up (an index kept on the pallet) finds what a scan
        # of .storage finds, the storage-version entry included
        for storage in pallet.storage or []:
            found = pallet.get_storage_function(storage.name)
            assert found is not None and found.name == storage.name
            assert found.value == storage.value
        if pallet.storage:
            assert pallet.get_storage_function("PalletVersion").name == ":__STORAGE_VERSION__:"
            assert pallet.get_storage_function("NoSuchEntry") is None


def test_known_storage_functions_of_polkadot_9180():
    rc, md = config_with_metadata("metadata/polkadot-v14-spec9180.scale")
    account = md.get_metadata_pallet("System").get_storage_function("Account")
    assert account.get_param_hashers() == ["Blake2_128Concat"]
    assert account.modifier == "Default"
    # System.Account's default value is an all-zero AccountInfo
    value = rc.create_scale_object(account.get_value_type_string())
    from scalecodec.base import ScaleBytes
    assert value.decode(ScaleBytes(account.value_object["default"].value_object)) == {
        "nonce": 0, "consumers": 0, "providers": 0, "sufficients": 0,
        "data": {"free": 0, "reserved": 0, "misc_frozen": 0, "fee_frozen": 0},
    }
    assert md.get_metadata_pallet("NoSuchPallet") is None
    assert md.get_metadata_pallet("System").get_storage_function("NoSuchItem") is None


def test_signed_extensions_are_listed():
    _rc, md = config_with_metadata("metadata/polkadot-v14-spec9180.scale")
    ext = md.get_signed_extensions()
    assert "CheckNonce" in ext and "CheckMortality" in ext
    assert ext["CheckNonce"]["extrinsic"].startswith("scale_info::")


def test_rust_engine_reads_presets_from_the_installed_package():
    """The Rust side finds the core preset (MetadataVersioned definitions) in
    the package's own type_registry/, not at a path of the build machine, so
    a nested MetadataVersioned decodes first thing in a relocated wheel."""
    import os
    import scalecodec
    from scalecodec import _core
    package_presets = os.path.join(os.path.dirname(os.path.abspath(scalecodec.__file__)), "type_registry")
    assert os.path.samefile(_core.presets_dir(), package_presets)
