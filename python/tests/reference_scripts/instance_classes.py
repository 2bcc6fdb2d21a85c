"""Prints, as JSON, which public classes of ``scalecodec.types`` the object
``create_scale_object`` makes for each type string (``sys.argv[1:]``) is an
instance of, with the core and legacy presets loaded.

Run by ``test_api_surface.py`` under py-scale-codec 1.2.12 (the reference
venv) and under ours; the test compares the two.
"""
import inspect
import json
import sys

import scalecodec.types as types
from scalecodec.base import RuntimeConfigurationObject
from scalecodec.type_registry import load_type_registry_preset

config = RuntimeConfigurationObject()
config.update_type_registry(load_type_registry_preset("core"))
config.update_type_registry(load_type_registry_preset("legacy"))
classes = {name: cls for name, cls in vars(types).items()
           if not name.startswith("_") and inspect.isclass(cls) and cls.__module__.startswith("scalecodec")}
out = {}
for type_string in sys.argv[1:]:
    obj = config.create_scale_object(type_string)
    out[type_string] = sorted(name for name, cls in classes.items() if isinstance(obj, cls))
json.dump(out, sys.stdout, indent=1)
