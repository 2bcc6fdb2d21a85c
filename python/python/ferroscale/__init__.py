"""ferroscale: a drop-in ``scalecodec`` (py-scale-codec 1.2.12 API) on a Rust core.

The package's files live in ``ferroscale/`` so that installing it beside
py-scale-codec or cyscale (which both install a ``scalecodec/`` folder)
overwrites and removes none of their files. ``import ferroscale`` always
gives it; ``import scalecodec`` gives it when no other ``scalecodec`` is
installed, or when the user chose it (``python -m ferroscale enable``, or
``FERROSCALE_SCALECODEC=1``): the start-up hook ``_ferroscale_scalecodec``
then loads this package under the name ``scalecodec`` and makes
``ferroscale`` the same module objects, so the Rust module is initialised
once and pickles name ``scalecodec.*`` as py-scale-codec's do.

The Python package only declares py-scale-codec's names and adapts them to
``_core`` (PyO3), where the engine runs: decoding and encoding (one call
into Rust per value, Python objects built by Rust with interned names),
type resolution, SS58, Era, multisig accounts, opaque wrappers, metadata.
Modules import one way, relatively (the package's name is the one it was
imported under): ``exceptions`` ← ``base`` (configurations, the scale
object, the classes made per type string) ← ``types`` (the named classes) ←
this package. Rust errors arrive as :mod:`.exceptions` classes; a Rust panic
is caught at the boundary. Registries pickle as their inputs; scale objects
as ``(type_string, bytes, configuration)``.
"""
from . import _core

# The Rust classes name ``scalecodec._core`` / ``scalecodec.base`` as their
# module (compiled in); imported as ``ferroscale`` beside another scalecodec,
# they must name this package instead, or pickle would look them up in the
# other distribution.
if __name__ != "scalecodec":
    for _cls in list(vars(_core).values()):
        if isinstance(_cls, type) and _cls.__module__.startswith("scalecodec."):
            _cls.__module__ = __name__ + _cls.__module__[len("scalecodec"):]
    del _cls

from .base import *  # noqa: F401,F403,E402
from .types import *  # noqa: F401,F403,E402
from .exceptions import *  # noqa: F401,F403,E402
from .utils.ss58 import (  # noqa: F401,E402
    is_valid_ss58_address,
    ss58_decode,
    ss58_decode_account_index,
    ss58_encode,
    ss58_encode_account_index,
    get_ss58_format,
)
from .utils.math import trailing_zeros, next_power_of_two  # noqa: F401,E402
from ._core import metadata_digest, extrinsic_proof  # noqa: F401,E402 (RFC-0078)
from . import base, constants, types, exceptions, utils  # noqa: F401,E402

__version__ = "1.2.12+ferroscale.0.1.0"
