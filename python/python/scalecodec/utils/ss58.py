"""SS58 addresses (https://docs.substrate.io/reference/address-formats/),
computed by the Rust core.

Keys and account indices are accepted and returned the way py-scale-codec
1.2.12 does: public keys as hex strings (with or without ``0x``) or bytes;
decoded keys as hex strings without ``0x``.
"""
from typing import Optional, Union

from scalecodec import _core

__all__ = [
    "ss58_encode",
    "ss58_decode",
    "ss58_encode_account_index",
    "ss58_decode_account_index",
    "is_valid_ss58_address",
    "get_ss58_format",
]


def _key_bytes(address: Union[str, bytes]) -> bytes:
    if isinstance(address, (bytes, bytearray)):
        return bytes(address)
    if not isinstance(address, str):
        raise ValueError("public key must be a hex string or bytes")
    text = address[2:] if address[:2] in ("0x", "0X") else address
    try:
        return bytes.fromhex(text)
    except ValueError:
        raise ValueError(f"invalid hex public key: {address!r}") from None


def ss58_decode(address: str, valid_ss58_format: Optional[int] = None) -> str:
    """The public key (hex without ``0x``) of an SS58 address.

    A ``0x…`` hex key is returned as it is; with
    ``valid_ss58_format`` the address must carry that format.
    """
    if address.startswith("0x"):
        return address
    if valid_ss58_format is not None and not 0 <= valid_ss58_format <= 16383:
        raise ValueError("Invalid value for ss58_format")
    _fmt, payload = _core.ss58_decode(address, valid_ss58_format)
    return bytes(payload).hex()


def ss58_encode(address: Union[str, bytes], ss58_format: int = 42) -> str:
    """The SS58 address of a public key (hex string or bytes)."""
    if not isinstance(ss58_format, int) or not 0 <= ss58_format <= 16383 or ss58_format in (46, 47):
        raise ValueError("Invalid value for ss58_format")
    payload = _key_bytes(address)
    if len(payload) not in (1, 2, 4, 8, 32, 33):
        raise ValueError("Invalid length for address")
    return _core.ss58_encode(payload, ss58_format)


def ss58_encode_account_index(account_index: int, ss58_format: int = 42) -> str:
    """The SS58 address of an account index (up to 8 bytes)."""
    if account_index < 0 or account_index >= 1 << 64:
        raise ValueError("Value too large for an account index")
    return _core.ss58_encode_account_index(account_index, ss58_format)


def ss58_decode_account_index(address: str, valid_ss58_format: Optional[int] = None) -> int:
    """The account index of an SS58 account-index address."""
    return _core.ss58_decode_account_index(address, valid_ss58_format)


def is_valid_ss58_address(value: str, valid_ss58_format: Optional[int] = None) -> bool:
    """Whether ``value`` is a valid SS58 address (of the given format, when given)."""
    if valid_ss58_format is not None and not 0 <= valid_ss58_format <= 16383:
        raise ValueError("Invalid value for ss58_format")
    return _core.ss58_is_valid(value, valid_ss58_format)


def get_ss58_format(ss58_address: str) -> int:
    """The network format an SS58 address carries."""
    fmt, _payload = _core.ss58_decode(ss58_address, None)
    return fmt
