"""py-scale-codec's constants, and cyscale 0.8's ``ScaleValue`` annotation.

``ScaleValue`` is the union of the Python types a decoded ``.value`` can be
(cyscale 0.8 exports it from ``scalecodec``; async-substrate-interface 2.x
imports it for its annotations). Values here keep py-scale-codec 1.2.12's
shapes, so a map is a ``list`` of ``(key, value)`` tuples, never a ``dict``.
"""
from typing import Union

#: How deep ``generate_type_decomposition`` follows nested types (py-scale-codec's).
TYPE_DECOMP_MAX_RECURSIVE = 9

#: Every Python type a decoded value can be: ``int`` (integers, Compact),
#: ``float`` (f32/f64), ``bool``, ``str`` (hex, text, SS58, bit sequences),
#: ``None``, ``dict`` (structs, enums with data), ``list`` (sequences, maps,
#: sets), ``tuple`` (tuples, mortal eras, map entries).
ScaleValue = Union[int, float, bool, str, None, dict, list, tuple]
