"""Exception classes, with py-scale-codec 1.2.12's names and bases.

The Rust core raises these by name (see ``_core`` error mapping), so code
written against py-scale-codec catches the same classes.
"""


class RemainingScaleBytesNotEmptyException(Exception):
    """Bytes left after a value, or the input ended before the value did."""


class InvalidScaleTypeValueException(Exception):
    """The bytes (or a value to encode) are not valid for the type."""


class MetadataCallFunctionNotFound(ValueError):
    """A call module/function that the runtime metadata does not have."""


__all__ = [
    "RemainingScaleBytesNotEmptyException",
    "InvalidScaleTypeValueException",
    "MetadataCallFunctionNotFound",
]
