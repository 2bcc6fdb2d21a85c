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


class ScaleDecodeError(InvalidScaleTypeValueException, ValueError):
    """Bytes that are not a valid encoding of the type (a bad enum index, a
    bool byte other than 0/1 …). py-scale-codec raises either
    ``InvalidScaleTypeValueException`` or ``ValueError`` for these, so this
    class is both."""


class NotEnoughBytesError(RemainingScaleBytesNotEmptyException, ScaleDecodeError):
    """The input ended before the value did. py-scale-codec reports this as
    ``RemainingScaleBytesNotEmptyException`` ("No more bytes available") or,
    for compact integers, ``InvalidScaleTypeValueException``; this class is
    all of them."""


__all__ = [
    "RemainingScaleBytesNotEmptyException",
    "InvalidScaleTypeValueException",
    "MetadataCallFunctionNotFound",
    "ScaleDecodeError",
    "NotEnoughBytesError",
]
