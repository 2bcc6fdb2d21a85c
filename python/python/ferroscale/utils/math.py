"""Integer helpers py-scale-codec exposes (used for Era encoding), in Rust;
and cyscale's readers of fixed-point numbers as chains store them (Bittensor
imports ``FixedPoint``, ``fixed_to_float`` and ``fixed_to_decimal`` from here).

A fixed-point value comes in one of two shapes:

- binary (``U64F64``, ``I32F32`` …): the raw integer, or a decoded
  ``{"bits": n}`` struct (``FixedPoint``), worth ``n / 2**frac_bits``;
- decimal (``FixedPointV2``): ``{"mantissa": m, "exponent": e}``, worth
  ``m * 10**e``.
"""
from decimal import Decimal
from typing import Any, Mapping, TypedDict, Union

from .._core import next_power_of_two, trailing_zeros  # noqa: F401

__all__ = ["trailing_zeros", "next_power_of_two", "FixedPoint", "FixedPointV2", "fixed_to_float",
           "fixed_to_decimal"]


class FixedPoint(TypedDict):
    """A binary fixed-point number as decoded (``U64F64``: ``bits`` is the u128)."""

    bits: int


class FixedPointV2(TypedDict):
    """A decimal fixed-point number: ``mantissa * 10**exponent``."""

    mantissa: int
    exponent: int


FixedInput = Union[int, FixedPoint, FixedPointV2]


def _decimal_parts(value: FixedInput) -> Union[Decimal, None]:
    """The exact value of a decimal (``mantissa``/``exponent``) input, else ``None``."""
    if isinstance(value, dict) and "mantissa" in value:
        fields: Mapping[str, Any] = value
        return Decimal(int(fields["mantissa"])).scaleb(int(fields["exponent"]))
    return None


def _split(value: FixedInput, frac_bits: int) -> "tuple[int, int]":
    """A binary input's integer part and its fraction's numerator over ``2**frac_bits``."""
    fields: Mapping[str, Any] = value if isinstance(value, dict) else {"bits": value}
    bits = int(fields["bits"])
    return bits >> frac_bits, bits & ((1 << frac_bits) - 1)


def fixed_to_float(value: FixedInput, frac_bits: int = 64) -> float:
    """The value as a float; ``frac_bits`` (64 for ``U64F64``, 32 for
    ``U32F32``) applies to binary inputs only."""
    exact = _decimal_parts(value)
    if exact is not None:
        return float(exact)
    whole, fraction = _split(value, frac_bits)
    return whole + fraction / (1 << frac_bits)


def fixed_to_decimal(value: FixedInput, frac_bits: int = 64) -> Decimal:
    """The value as a ``Decimal`` (exact for decimal inputs; a binary
    fraction is divided in the current decimal context), for amounts where a
    float's rounding matters."""
    exact = _decimal_parts(value)
    if exact is not None:
        return exact
    whole, fraction = _split(value, frac_bits)
    return Decimal(whole) + Decimal(fraction) / Decimal(1 << frac_bits)
