"""py-scale-codec's ``updater`` downloads newer presets from GitHub at run
time. This package ships pinned presets inside the wheel instead; updating
them is a build step (``cargo xtask presets``), so the function here only
reports where the presets come from."""
from .type_registry import _HERE, ONLINE_BASE_URL, SUPPORTED_TYPE_REGISTRY_PRESETS  # noqa: F401

__all__ = ["update_type_registries"]


def update_type_registries() -> None:
    """Not supported at run time: presets are pinned at build time."""
    raise NotImplementedError(
        f"presets are pinned and shipped with the package (in {_HERE}); "
        "rebuild the package to change them"
    )
