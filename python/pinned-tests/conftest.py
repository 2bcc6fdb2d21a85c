"""Shared set-up of the scalecodec test suite: where the real chain fixtures
are, and fresh runtime configurations to decode them with.

The fixtures are found like the Rust ``ferroscale-fixtures`` crate finds them:
``$FERROSCALE_FIXTURES`` first, then ``../shared/fixtures`` beside the
repository root. They are never part of the repository.
"""
import json
import os
from pathlib import Path

import pytest

from scalecodec.base import RuntimeConfigurationObject, ScaleBytes
from scalecodec.type_registry import load_type_registry_preset

REPO_ROOT = Path(__file__).resolve().parents[2]

#: Test files that only check behaviour beyond py-scale-codec 1.2.12 as a whole.
EXTENSION_FILES = {"test_batch_and_pickle.py", "test_hardening.py"}


def pytest_configure(config):
    config.addinivalue_line(
        "markers",
        "extension: behaviour beyond py-scale-codec 1.2.12 (cyscale's additions, V15/V16, stricter "
        "errors); every other test also passes against py-scale-codec 1.2.12 itself",
    )


def pytest_collection_modifyitems(config, items):
    for item in items:
        if item.path.name in EXTENSION_FILES:
            item.add_marker(pytest.mark.extension)


def fixtures_dir() -> Path:
    """The fixtures folder, or a clear failure naming where it was looked for."""
    env = os.environ.get("FERROSCALE_FIXTURES")
    candidates = [Path(env)] if env else []
    candidates.append(REPO_ROOT.parent / "shared" / "fixtures")
    for candidate in candidates:
        if (candidate / "metadata").is_dir():
            return candidate
    pytest.fail(
        "chain fixtures not found: set FERROSCALE_FIXTURES or place them at "
        + " or ".join(str(c) for c in candidates),
        pytrace=False,
    )


def fixture_path(relative: str) -> Path:
    """A fixture file, failing clearly when it is missing."""
    path = fixtures_dir() / relative
    if not path.exists():
        pytest.fail(f"fixture missing: {path}", pytrace=False)
    return path


def read_json(relative: str):
    with open(fixture_path(relative), encoding="utf-8") as handle:
        return json.load(handle)


def metadata_files():
    return sorted(p.name for p in (fixtures_dir() / "metadata").glob("*.scale"))


def fresh_config(*presets: str, **kwargs) -> RuntimeConfigurationObject:
    """A new configuration with the ``core`` preset plus ``presets``."""
    config = RuntimeConfigurationObject(**kwargs)
    config.update_type_registry(load_type_registry_preset("core"))
    for name in presets:
        config.update_type_registry(load_type_registry_preset(name))
    return config


def decode_metadata(config: RuntimeConfigurationObject, name: str, add_registry: bool = True):
    """Decodes ``metadata/<name>`` and, for V14+, registers its portable registry."""
    data = fixture_path(f"metadata/{name}").read_bytes()
    metadata = config.create_scale_object("MetadataVersioned", data=ScaleBytes(data))
    metadata.decode()
    if add_registry and metadata.portable_registry is not None:
        config.add_portable_registry(metadata)
    return metadata


@pytest.fixture(scope="session")
def polkadot_9180():
    """Polkadot spec 9180 (block 10,000,000): configuration and decoded metadata."""
    config = fresh_config(ss58_format=0)
    metadata = decode_metadata(config, "polkadot-v14-spec9180.scale")
    return config, metadata
