"""Integer helpers py-scale-codec exposes (used for Era encoding), in Rust."""
from scalecodec._core import next_power_of_two, trailing_zeros  # noqa: F401

__all__ = ["trailing_zeros", "next_power_of_two"]
