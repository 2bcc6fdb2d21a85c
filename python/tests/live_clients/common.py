"""What both client scripts share: the calls' results as JSON, and which
`scalecodec` the client was given."""

import json
import sys


def plain(value):
    """A result as JSON data: scale objects by their `.value`, bytes as hex."""
    if hasattr(value, "value") and not isinstance(value, (dict, list, tuple, str, int, float)):
        value = value.value
    if isinstance(value, dict):
        return {str(k): plain(v) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return [plain(v) for v in value]
    if isinstance(value, (bytes, bytearray)):
        return "0x" + bytes(value).hex()
    if value is None or isinstance(value, (bool, int, float, str)):
        return value
    return repr(value)


def which_scalecodec():
    """`ferroscale` when the client runs on ours, else the other's distribution name."""
    import scalecodec

    return "ferroscale" if "ferroscale" in (getattr(scalecodec, "__file__", "") or "") or hasattr(
        scalecodec, "__ferroscale__") else "other"


def emit(results):
    """Prints the results, one JSON document, for the test to compare."""
    json.dump(results, sys.stdout, sort_keys=True)
    sys.stdout.write("\n")
