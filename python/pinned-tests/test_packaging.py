"""What the installed package must carry: every type-registry preset (the
wheel packs them from a gitignored folder), the typing markers, and
py-scale-codec 1.2.12's module paths and names."""
import importlib
from pathlib import Path

import pytest

import scalecodec
from scalecodec.type_registry import load_type_registry_file, load_type_registry_preset

PACKAGE_DIR = Path(scalecodec.__file__).parent

#: The presets py-scale-codec 1.2.12 ships (its SUPPORTED_TYPE_REGISTRY_PRESETS).
PRESETS = ("canvas", "legacy", "kusama", "polkadot", "rococo", "core", "substrate-node-template", "westend",
           "statemint", "statemine", "karura", "moonbeam", "moonriver", "moonbase-alpha", "crust",
           "polymesh-mainnet", "polymesh-testnet", "acala", "test", "contracts-on-rococo")


def test_supported_presets_constant():
    from scalecodec import type_registry

    assert tuple(type_registry.SUPPORTED_TYPE_REGISTRY_PRESETS) == PRESETS


@pytest.mark.parametrize("name", PRESETS)
def test_every_preset_ships(name):
    preset = load_type_registry_preset(name)
    assert isinstance(preset, dict) and preset, name
    # each call gives a fresh dict: callers may change it without touching the next caller
    preset.clear()
    assert load_type_registry_preset(name)


def test_core_preset_defines_the_metadata_types():
    types = load_type_registry_preset("core")["types"]
    assert {"MetadataVersioned", "MetadataV14", "PortableRegistry", "Extrinsic"} <= set(types)


def test_unknown_preset_and_file_loading(tmp_path):
    with pytest.raises(ValueError):
        load_type_registry_preset("no-such-chain")
    path = tmp_path / "custom.json"
    path.write_text('{"types": {"MyType": "u32"}}')
    assert load_type_registry_file(str(path)) == {"types": {"MyType": "u32"}}


@pytest.mark.extension  # py-scale-codec 1.2.12 ships no typing markers
def test_typing_markers_ship():
    assert (PACKAGE_DIR / "py.typed").is_file()
    extensions = [p for p in PACKAGE_DIR.iterdir() if p.suffix in (".so", ".pyd")]
    assert extensions, "no compiled extension module in the package"
    for extension in extensions:
        stub = PACKAGE_DIR / (extension.name.split(".")[0] + ".pyi")
        assert stub.is_file(), f"{extension.name} has no type stub {stub.name}"


@pytest.mark.parametrize("module, names", [
    ("scalecodec", ["ScaleBytes", "ScaleType", "GenericExtrinsic", "GenericCall", "GenericMetadataVersioned", "Era",
                    "MultiAccountId"]),
    ("scalecodec.base", ["ScaleBytes", "ScaleDecoder", "ScaleType", "RuntimeConfiguration",
                         "RuntimeConfigurationObject"]),
    ("scalecodec.types", ["GenericAccountId", "GenericEventRecord", "GenericPalletMetadata",
                          "GenericStorageEntryMetadata", "Vec", "Struct", "Enum", "Compact"]),
    ("scalecodec.exceptions", ["RemainingScaleBytesNotEmptyException", "InvalidScaleTypeValueException",
                               "MetadataCallFunctionNotFound"]),
    ("scalecodec.utils.ss58", ["ss58_encode", "ss58_decode", "is_valid_ss58_address", "ss58_encode_account_index",
                               "ss58_decode_account_index", "get_ss58_format"]),
    ("scalecodec.utils.math", ["trailing_zeros", "next_power_of_two"]),
    ("scalecodec.type_registry", ["load_type_registry_preset", "load_type_registry_file"]),
])
def test_module_paths_and_names(module, names):
    loaded = importlib.import_module(module)
    missing = [name for name in names if not hasattr(loaded, name)]
    assert not missing, f"{module} lacks {missing}"


def test_exception_bases_match_py_scale_codec():
    from scalecodec.exceptions import MetadataCallFunctionNotFound

    assert issubclass(MetadataCallFunctionNotFound, ValueError)
