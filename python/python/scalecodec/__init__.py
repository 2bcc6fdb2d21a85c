"""ferroscale's ``scalecodec``: a drop-in for py-scale-codec 1.2.12 on a Rust core.

Design: a thin Python layer over ``scalecodec._core`` (PyO3).

* ``RuntimeConfigurationObject`` (:mod:`scalecodec.base`) holds one Rust
  ``_core.Registry``: presets (``update_type_registry``) go to Rust as JSON,
  so do type overrides, the active spec version, the SS58 format and the
  chain's metadata (``add_portable_registry``, or the ``metadata=`` of an
  object; legacy metadata is re-applied when the presets change).
  ``RuntimeConfiguration(config_id)`` is a singleton per id.
* A scale object decodes with ONE call into Rust for the whole value. The
  Rust decoder builds the Python value directly (no intermediate tree),
  interning field and variant names once per registry. ``value_object`` is
  built from that value only when read. ``encode`` is one Rust call from a
  plain Python value.
* ``get_decoder_class`` creates classes on demand per registry and type
  string (cached until the registry changes) carrying ``type_string``,
  ``sub_type`` and ``type_mapping``. Specialised subclasses
  (:mod:`scalecodec.types`) exist only where users read extra attributes:
  extrinsics, calls, events, metadata and its pallets and storage
  functions, Era, account ids.
* ``MetadataVersioned``: the Rust core reads the metadata model behind the
  pallet and storage helpers; the value (py-scale-codec's exact dict, with
  the portable registry under ``types``) is the blob decoded through the
  registry with the ``MetadataV<n>`` definitions (V9–V14 from the ``core``
  preset, V15/V16 from the Rust core's ``metadata_value``), decoded in Rust.
* Rust errors arrive as py-scale-codec's exception classes
  (:mod:`scalecodec.exceptions`); a Rust panic is caught at the boundary.
* Registries pickle as their inputs (preset JSON, type overrides, spec
  version, SS58 format, metadata bytes) and are rebuilt on unpickling;
  scale objects pickle as ``(type_string, bytes, configuration)``.
* ``RuntimeConfigurationObject.batch_decode(type_strings, bytes_list)``
  decodes many values in one call.
"""
from scalecodec.base import *  # noqa: F401,F403
from scalecodec.types import *  # noqa: F401,F403
from scalecodec.exceptions import *  # noqa: F401,F403
from scalecodec.utils.ss58 import (  # noqa: F401
    is_valid_ss58_address,
    ss58_decode,
    ss58_decode_account_index,
    ss58_encode,
    ss58_encode_account_index,
    get_ss58_format,
)
from scalecodec.utils.math import trailing_zeros, next_power_of_two  # noqa: F401
from scalecodec import base, types, exceptions, utils  # noqa: F401

__version__ = "1.2.12+ferroscale.0.1.0"
