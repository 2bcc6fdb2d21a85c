"""Decodes and encodes the pre-MultiAddress addresses of Polkadot and
Kusama (2020) with whichever ``scalecodec`` this interpreter imports, and
prints the results as JSON (``{name: result}``):

- ``AccountIdAddress`` (the ``Address`` and ``LookupSource`` of Kusama specs
  1050–2027 in the legacy types; here 2025), alone and in a ``Vec``, without an ss58 format and
  with Kusama's (2): the value, and whether encoding it gives the bytes
  back (py-scale-codec cannot encode its own value without a format);
- ``GenericAddress`` (``0xff`` and an account, or an index), the same way.

Usage: ``legacy_addresses.py``. Run by ``test_legacy_addresses.py`` under
py-scale-codec 1.2.12 (the reference venv) and under ours.
"""
import json

from scalecodec.base import RuntimeConfigurationObject, ScaleBytes
from scalecodec.type_registry import load_type_registry_preset

ACCOUNT = "d43593c715fdd31c61141abd04a99fd6822c8558854ccde39a5684e7a56da27d"
CASES = {
    "Address": "0x" + ACCOUNT,
    "LookupSource": "0x" + ACCOUNT,
    "AccountIdAddress": "0x" + ACCOUNT,
    "Vec<AccountIdAddress>": "0x08" + ACCOUNT + "8eaf04151687736326c9fea17e25fc5287613693c912909cb226aa4794f26a48",
    "GenericAddress": "0xff" + ACCOUNT,
    "(GenericAddress, u8)": "0x2a07",
}


def attempt(f):
    try:
        return f()
    except Exception as e:  # the reference raises where it cannot encode
        return f"raises {type(e).__name__}"


results = {}
for ss58 in (None, 2):
    rc = RuntimeConfigurationObject(ss58_format=ss58)
    rc.update_type_registry(load_type_registry_preset("legacy"))
    rc.update_type_registry(load_type_registry_preset("kusama"))
    rc.set_active_spec_version_id(2025)
    for type_string, data in CASES.items():
        obj = rc.create_scale_object(type_string, ScaleBytes(data))
        value = obj.decode()
        again = attempt(lambda: rc.create_scale_object(type_string).encode(value).to_hex() == data)
        results[f"{type_string} ss58={ss58}"] = {"value": value, "encodes back": again}
print(json.dumps(results))
