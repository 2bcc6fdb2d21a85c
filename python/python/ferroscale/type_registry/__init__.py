"""The type-registry presets of py-scale-codec 1.2.12 (``core``, ``legacy``,
``kusama``, ``polkadot`` …), shipped as JSON files beside this module.

The files are fetched (pinned and sha256-checked) at build time by
``cargo xtask presets`` and are not part of the source tree.
"""
import json
import os
from typing import Optional

__all__ = ["load_type_registry_preset", "load_type_registry_file", "SUPPORTED_TYPE_REGISTRY_PRESETS"]

#: The preset names py-scale-codec 1.2.12 lists as supported, in its order.
SUPPORTED_TYPE_REGISTRY_PRESETS = (
    "canvas", "legacy", "kusama", "polkadot", "rococo", "core", "substrate-node-template", "westend",
    "statemint", "statemine", "karura", "moonbeam", "moonriver", "moonbase-alpha", "crust",
    "polymesh-mainnet", "polymesh-testnet", "acala", "test", "contracts-on-rococo",
)

#: Where py-scale-codec's ``use_remote_preset`` fetches presets from (not used here: presets are pinned).
ONLINE_BASE_URL = "https://raw.githubusercontent.com/polkascan/py-scale-codec/v1.0/scalecodec/type_registry/"

_HERE = os.path.dirname(os.path.abspath(__file__))


def load_type_registry_file(file_path: str) -> dict:
    """Reads a type-registry JSON file."""
    with open(os.path.abspath(file_path), "r", encoding="utf-8") as fp:
        return json.load(fp)


def load_type_registry_preset(name: str, use_remote_preset: bool = False) -> Optional[dict]:
    """A shipped preset by name, e.g. ``"legacy"``.

    ``use_remote_preset`` is accepted for compatibility; presets always come
    from the files shipped with the package (no network access at run time).
    Raises ``ValueError`` for an unknown or malformed name.
    """
    if not isinstance(name, str) or not name or os.sep in name or "/" in name or name.startswith("."):
        raise ValueError(f'Unsupported type registry preset "{name}"')
    path = os.path.join(_HERE, f"{name}.json")
    if not os.path.isfile(path):
        raise ValueError(f'Unsupported type registry preset "{name}"')
    return load_type_registry_file(path)
