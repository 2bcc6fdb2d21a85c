"""py-scale-codec's constants."""

#: The default depth limit of ``generate_type_decomposition`` (py-scale-codec's value).
TYPE_DECOMP_MAX_RECURSIVE = 9
