"""Helpers: SS58 addresses (:mod:`scalecodec.utils.ss58`) and integer maths
(:mod:`scalecodec.utils.math`)."""
