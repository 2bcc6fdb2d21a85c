"""Every metadata fixture (V9–V16) decodes as MetadataVersioned, and the
pallet/storage helper objects agree with the decoded value."""
import pytest

from conftest import decode_metadata, fixture_path, fresh_config, metadata_files


def _by_version(names):
    """Fixture names as params; V15+ (not in py-scale-codec 1.2.12) marked as extensions."""
    params = []
    for name in names:
        version = int(name.split("-v")[-1].split("-")[0].split(".")[0])
        params.append(pytest.param(name, marks=pytest.mark.extension) if version >= 15 else name)
    return params


@pytest.mark.parametrize("name", _by_version(metadata_files()))
def test_metadata_fixture_decodes(name):
    raw = fixture_path(f"metadata/{name}").read_bytes()
    # legacy metadata names its types; their definitions come from the legacy preset
    config = fresh_config() if raw[4] >= 14 else fresh_config("legacy")
    metadata = decode_metadata(config, name)

    # the version variant is the one byte 4 of the blob announces, magic first
    assert metadata.value[0] == "0x" + raw[:4].hex() == "0x6d657461"
    assert list(metadata.value[1].keys()) == [f"V{raw[4]}"]
    assert metadata.get_used_bytes() == raw
    assert (metadata.portable_registry is not None) == (raw[4] >= 14)

    version = raw[4]
    inner = metadata.value[1][f"V{version}"]
    pallet_key = "pallets" if version >= 14 else "modules"
    assert len(metadata.pallets) == len(inner[pallet_key])
    resolved = unresolved = 0
    for pallet_value, pallet in zip(inner[pallet_key], metadata.pallets):
        assert pallet.name == pallet_value["name"]
        assert metadata.get_metadata_pallet(pallet.name).value == pallet_value
        for entry in pallet.storage or []:
            hashers = entry.get_param_hashers()
            params = entry.get_params_type_string()
            if "Plain" in entry.value["type"]:
                assert params == [] and hashers == ["Twox64Concat"]
            else:
                assert 1 <= len(params) <= len(hashers)
            value_type = entry.get_value_type_string()
            if config.get_decoder_class(value_type) is None:
                unresolved += 1
            else:
                resolved += 1
    if version >= 14:
        assert unresolved == 0
    else:
        # legacy metadata names Rust types; the presets define nearly all of them
        assert resolved >= 9 * unresolved, (resolved, unresolved)


@pytest.mark.parametrize("name", _by_version(n for n in metadata_files() if "-v1" in n and int(n.split("-v1")[1][0]) >= 4))
def test_portable_registry_types_all_resolve(name):
    config = fresh_config()
    metadata = decode_metadata(config, name)
    types = metadata.value[1][list(metadata.value[1])[0]]["types"]["types"]
    for entry in types:
        decoder_class = config.get_decoder_class(f"scale_info::{entry['id']}")
        assert decoder_class is not None, entry["id"]


@pytest.mark.extension
def test_v15_carries_apis_and_outer_enums():
    config = fresh_config()
    metadata = decode_metadata(config, "polkadot-v15-spec1001002.scale")
    v15 = metadata.value[1]["V15"]
    assert {"Core", "Metadata"} <= {api["name"] for api in v15["apis"]}
    outer = v15["outer_enums"]
    call_type = config.get_decoder_class(f"scale_info::{outer['call_enum_ty']}")
    assert call_type.scale_info_type.value["path"][-1] == "RuntimeCall"


@pytest.mark.extension
def test_v16_pallet_helpers():
    config = fresh_config()
    metadata = decode_metadata(config, "statemint-v16-spec2000003-small.scale")
    system = metadata.get_metadata_pallet("System")
    assert system is not None
    account = system.get_storage_function("Account")
    assert account.get_param_hashers() == ["Blake2_128Concat"]
    assert config.get_decoder_class(account.get_value_type_string()) is not None
    assert "remark" in [call.name for call in system.calls]
    extensions = metadata.get_signed_extensions()
    assert "CheckNonce" in extensions and extensions["CheckNonce"]["extrinsic"].startswith("scale_info::")


def test_legacy_storage_helpers_v13():
    config = fresh_config("legacy")
    metadata = decode_metadata(config, "kusama-v13-spec9030.scale")
    account = metadata.get_metadata_pallet("System").get_storage_function("Account")
    assert account.get_params_type_string() == ["AccountId"]
    assert account.get_param_hashers() == ["Blake2_128Concat"]
    assert account.get_value_type_string().startswith("AccountInfo")
    version = metadata.get_metadata_pallet("Balances").get_storage_function("PalletVersion")
    assert version.value["name"] == ":__STORAGE_VERSION__:"


def test_garbage_metadata_raises_cleanly():
    config = fresh_config()
    raw = bytearray(fixture_path("metadata/polkadot-v14-spec9180.scale").read_bytes())
    from scalecodec.base import ScaleBytes

    for cut in (5, 100, 5000, len(raw) // 2):
        obj = config.create_scale_object("MetadataVersioned", data=ScaleBytes(bytes(raw[:cut])))
        with pytest.raises(Exception) as info:
            obj.decode()
        assert isinstance(info.value, Exception)
    wrong_version = bytes(raw[:4]) + b"\x03" + bytes(raw[5:200])
    with pytest.raises(ValueError):
        config.create_scale_object("MetadataVersioned", data=ScaleBytes(wrong_version)).decode()
