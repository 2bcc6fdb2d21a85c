"""Prints, as JSON, the public surface of whichever ``scalecodec`` this
interpreter imports: per module its public names and what they are; per
class its public attributes (methods, properties, the protocol methods its
own package defines), the attributes its instances carry, and the
parameter names of its public methods.

Run by ``test_api_surface.py`` under py-scale-codec 1.2.12 (the reference
venv) and under ours; the test compares the two dumps.
"""
import importlib
import inspect
import json
import sys
import warnings

MODULES = (
    "scalecodec",
    "scalecodec.base",
    "scalecodec.types",
    "scalecodec.exceptions",
    "scalecodec.constants",
    "scalecodec.type_registry",
    "scalecodec.updater",
    "scalecodec.utils",
    "scalecodec.utils.ss58",
    "scalecodec.utils.math",
)

# Protocol methods a user reaches through syntax (obj[...], len(obj), ==, +).
PROTOCOL = ("__getitem__", "__iter__", "__len__", "__eq__", "__lt__", "__le__", "__gt__", "__ge__", "__add__",
            "__str__", "__repr__", "__call__")


def own(obj) -> bool:
    """Whether ``obj`` belongs to the package (not an imported helper such
    as ``typing.Optional``, ``os`` or ``datetime``)."""
    if inspect.ismodule(obj):
        return False
    module = getattr(obj, "__module__", None)
    if module is None:  # plain values: ints, strings, tuples
        return not callable(obj)
    return module.split(".")[0] == "scalecodec"


def kind(obj) -> str:
    if inspect.isclass(obj):
        return "class"
    return "callable" if callable(obj) else "value"


def params(fn):
    """Parameter names of a callable (``None`` when it has no signature);
    ``*`` / ``**`` mark catch-alls."""
    try:
        sig = inspect.signature(fn)
    except (TypeError, ValueError):
        return None
    out = []
    for p in sig.parameters.values():
        if p.kind is p.VAR_POSITIONAL:
            out.append("*")
        elif p.kind is p.VAR_KEYWORD:
            out.append("**")
        elif p.name not in ("self", "cls"):
            out.append(p.name)
    return out


def instance_of(cls):
    """An instance made the simple ways users make one, or ``None``."""
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        for args in ((), (None,)):
            try:
                return cls(*args)
            except Exception:
                continue
    return None


def class_surface(cls) -> dict:
    attrs = {}
    for name in dir(cls):
        if name.startswith("_") and name not in PROTOCOL:
            continue
        if name in PROTOCOL:
            # only protocol methods the package itself defines
            owner = next((k for k in cls.__mro__ if name in k.__dict__), None)
            if owner is None or not own(owner) or owner is object:
                continue
        try:
            raw = inspect.getattr_static(cls, name)
        except AttributeError:
            continue
        is_data = isinstance(raw, property) or inspect.isdatadescriptor(raw) or not callable(
            raw.__func__ if isinstance(raw, (classmethod, staticmethod)) else raw)
        entry = {"kind": "data" if is_data else "callable"}
        if not is_data:
            entry["params"] = params(getattr(cls, name))
        attrs[name] = entry
    instance = instance_of(cls) if not issubclass(cls, BaseException) else None
    instance_attrs = sorted(k for k in (vars(instance) if hasattr(instance, "__dict__") else {})
                            if not k.startswith("_"))
    instance_dir = sorted(n for n in dir(instance) if not n.startswith("_")) if instance is not None else None
    return {"attrs": attrs, "instance_attrs": instance_attrs, "instance_dir": instance_dir,
            "bases": [b.__name__ for b in cls.__mro__]}


def main() -> None:
    out = {}
    for module_name in MODULES:
        try:
            module = importlib.import_module(module_name)
        except Exception as e:  # a missing module is part of the answer
            out[module_name] = {"error": f"{type(e).__name__}: {e}"}
            continue
        names = {}
        for name in dir(module):
            if name.startswith("_"):
                continue
            obj = getattr(module, name)
            if not own(obj):
                continue
            entry = {"kind": kind(obj)}
            if inspect.isclass(obj):
                entry.update(class_surface(obj))
            elif callable(obj):
                entry["params"] = params(obj)
            names[name] = entry
        out[module_name] = {"names": names}
    json.dump(out, sys.stdout, indent=1, sort_keys=True)


if __name__ == "__main__":
    main()
