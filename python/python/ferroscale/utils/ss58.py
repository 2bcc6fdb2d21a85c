"""SS58 addresses (https://docs.substrate.io/reference/address-formats/),
computed by the Rust core with py-scale-codec 1.2.12's signatures: keys as
hex strings (with or without ``0x``) or bytes; decoded keys as hex without
``0x``."""
from ..base import RuntimeConfiguration, ScaleBytes  # noqa: F401 (py-scale-codec exports them here too)
from .._core import (  # noqa: F401
    get_ss58_format,
    is_valid_ss58_address,
    ss58_decode,
    ss58_decode_account_index,
    ss58_encode,
    ss58_encode_account_index,
)

__all__ = ["ss58_encode", "ss58_decode", "ss58_encode_account_index", "ss58_decode_account_index",
           "is_valid_ss58_address", "get_ss58_format"]
