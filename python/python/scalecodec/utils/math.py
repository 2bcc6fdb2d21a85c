"""Small integer helpers py-scale-codec exposes (used for Era encoding)."""


def trailing_zeros(value: int) -> int:
    """Number of trailing zero bits of ``value`` (0 for 0)."""
    if value <= 0:
        return 0
    return (value & -value).bit_length() - 1


def next_power_of_two(value: int) -> int:
    """The smallest power of two ``>= value`` (1 for values below 1)."""
    if value <= 1:
        return 1
    return 1 << (value - 1).bit_length()


__all__ = ["trailing_zeros", "next_power_of_two"]
