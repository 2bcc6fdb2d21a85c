"""ferroscale's ``scalecodec``: a drop-in for py-scale-codec 1.2.12 on a Rust core.

The Python package only declares py-scale-codec's names and adapts them to
``scalecodec._core`` (PyO3), where the engine runs: decoding and encoding
(one call into Rust per value, Python objects built by Rust with interned
names), type resolution, SS58, Era, multisig accounts, opaque wrappers,
metadata. Modules import one way: ``exceptions`` ← ``base`` (configurations,
the scale object, the classes made per type string) ← ``types`` (the named
classes) ← this package. Rust errors arrive as :mod:`scalecodec.exceptions`
classes; a Rust panic is caught at the boundary. Registries pickle as their
inputs; scale objects as ``(type_string, bytes, configuration)``. Importing
refuses a package folder mixed with another distribution's compiled modules
and warns when cyscale or py-scale-codec also claim these files
(``_core.check_ownership``).
"""
import os as _os

from scalecodec import _core

# Before anything else is imported: another distribution's compiled modules
# left in this folder would be imported instead of ours (python/src/ownership.rs).
_core.check_ownership(_os.path.dirname(_os.path.abspath(__file__)))

from scalecodec.base import *  # noqa: F401,F403,E402
from scalecodec.types import *  # noqa: F401,F403,E402
from scalecodec.exceptions import *  # noqa: F401,F403,E402
from scalecodec.utils.ss58 import (  # noqa: F401,E402
    is_valid_ss58_address,
    ss58_decode,
    ss58_decode_account_index,
    ss58_encode,
    ss58_encode_account_index,
    get_ss58_format,
)
from scalecodec.utils.math import trailing_zeros, next_power_of_two  # noqa: F401,E402
from scalecodec import base, constants, types, exceptions, utils  # noqa: F401,E402

__version__ = "1.2.12+ferroscale.0.1.0"
