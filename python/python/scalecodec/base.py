"""Runtime configurations, byte buffers, the generic scale object and the
classes made for type strings.

* :class:`RuntimeConfigurationObject` owns one Rust ``_core.Registry``:
  presets, type overrides, spec versions and metadata go to Rust as they
  come in; Python keeps a mirror of the merged ``types`` (for code that reads
  ``type_registry['types']``) and a cache of classes per type string.
* :class:`ScaleDecoder` is the one generic scale object. Decoding and
  encoding run in Rust (``_core.ScaleObject``); ``value_object`` is built
  only when read.
* ``get_decoder_class`` makes a class per type string from what Rust says
  about its graph node (``_core.ClassInfo``, whose ``kind`` is a
  ``_core.TypeKind``): the class of that kind, or of the preset's
  ``base_class``. The classes of :mod:`scalecodec.types` announce their kinds
  and names when they are defined (``__init_subclass__``), so this module
  never imports that one.
"""
import json
import os
import threading
import types as _types
from typing import Any, Dict, Optional, Union

from scalecodec import _core
from scalecodec.constants import ScaleValue
from scalecodec.exceptions import InvalidScaleTypeValueException, RemainingScaleBytesNotEmptyException

# The Rust engine reads the core preset's metadata definitions from the
# presets this package ships, wherever the wheel was unpacked.
_core.set_presets_dir(os.path.join(os.path.dirname(os.path.abspath(__file__)), "type_registry"))

__all__ = ["ScaleBytes", "ScaleDecoder", "ScaleType", "ScalePrimitive", "RuntimeConfiguration",
           "RuntimeConfigurationObject", "RemainingScaleBytesNotEmptyException",
           "InvalidScaleTypeValueException", "Singleton", "ScaleValue"]

#: py-scale-codec's byte buffer, in Rust: decoding reads it directly.
ScaleBytes = _core.ScaleBytes
_UNSET = _core.UNSET

#: Scale classes by name (a preset's ``base_class``), by node kind, and by
#: the type strings that have a class of their own; filled as classes are
#: defined (see ``ScaleDecoder.__init_subclass__``).
_BY_CLASS_NAME: Dict[str, type] = {}
_BY_KIND: Dict[Any, type] = {}
_BY_TYPE_STRING: Dict[str, type] = {}
#: Scale classes defined outside this package, by lower-cased name (the last
#: one defined under a name wins): py-scale-codec's way of declaring a type,
#: ``type("MyStruct", (Struct,), {"type_mapping": [...]})``. Configurations
#: created afterwards know them by name, as py-scale-codec's do.
_DECLARED: Dict[str, type] = {}


def _is_pairs(mapping: Any) -> bool:
    return isinstance(mapping, (list, tuple)) and all(
        isinstance(p, (list, tuple)) and len(p) == 2 and isinstance(p[0], str) and isinstance(p[1], (str, type(None)))
        for p in mapping)


def _is_strings(items: Any) -> bool:
    return isinstance(items, (list, tuple)) and all(isinstance(t, str) for t in items)


def _declared_definition(cls: type) -> Optional[Union[str, dict]]:
    """The preset definition a class declared outside this package stands
    for (a struct or enum ``type_mapping``, an enum ``value_list``, a tuple's
    types), or ``None`` when it declares none."""
    mapping, values = getattr(cls, "type_mapping", None), getattr(cls, "value_list", None)
    kinds = _core.TypeKind
    for base in cls.__mro__:
        if base is _BY_KIND.get(kinds.Struct):
            return {"type": "struct", "type_mapping": [list(p) for p in mapping]} if _is_pairs(mapping) else None
        if base is _BY_KIND.get(kinds.Tuple):
            return "(" + ", ".join(mapping) + ")" if _is_strings(mapping) and mapping else None
        if base is _BY_KIND.get(kinds.Enum):
            if _is_pairs(mapping):
                return {"type": "enum", "type_mapping": [[n, t or "Null"] for n, t in mapping]}
            return {"type": "enum", "value_list": list(values)} if _is_strings(values) and values else None
    return None


def _declared_decode_value(self: "ScaleDecoder", data: Any, offset: int, check_remaining: bool) -> Any:
    """``_decode_value`` of a declared class without a hook of its own: by its
    type string, or by its name once declared in the object's configuration."""
    config = self.runtime_config
    name = self.type_string if self.type_string is not None else config._declared_name(type(self))
    return config._registry.decode(name, data, offset, check_remaining)


def _declared_encode_value(self: "ScaleDecoder", value: Any) -> bytes:
    """``_encode_value`` counterpart of :func:`_declared_decode_value`."""
    config = self.runtime_config
    name = self.type_string if self.type_string is not None else config._declared_name(type(self))
    return config._registry.encode(name, value)


class Singleton(type):
    """Metaclass: one instance per ``config_id`` (``RuntimeConfiguration()``)."""

    _instances: Dict[Any, Any] = {}
    _lock = threading.Lock()

    def __call__(cls, *args, **kwargs):
        key = (cls, kwargs.get("config_id", args[0] if args else "default"))
        with cls._lock:
            if key not in cls._instances:
                cls._instances[key] = super().__call__(*args, **kwargs)
            return cls._instances[key]


class _TypesView(dict):
    """``type_registry['types']``: the lower-cased names the presets define;
    values read as their decoder classes (as py-scale-codec stores them)."""

    def __init__(self, config: "RuntimeConfigurationObject"):
        super().__init__()
        self._config = config

    def __getitem__(self, key: str):
        if not dict.__contains__(self, key):
            raise KeyError(key)
        return self._config.get_decoder_class(key)

    def get(self, key: str, default: Any = None):
        return self[key] if dict.__contains__(self, key) else default

    def values(self):
        return [self[k] for k in self.keys()]

    def items(self):
        return [(k, self[k]) for k in self.keys()]

    def definitions(self) -> dict:
        """The raw preset definitions by lower-cased name."""
        return dict(dict.items(self))

    def __deepcopy__(self, memo: dict) -> dict:
        return dict(self.items())

    def __reduce__(self):
        return (dict, (self.definitions(),))


class RuntimeConfigurationObject(_core.ConfigBase):
    """A type registry: presets, type overrides, the active spec version, a
    chain's portable registry and runtime (calls, events), SS58 format.
    ``_registry``, ``_classes``, ``create_scale_object``, ``batch_decode``,
    ``ss58_format``, the spec-version and metadata methods live in the Rust
    base class; ``_create_scale_object`` is the general path it falls back on."""

    def __init__(self, config_id: Optional[str] = None, ss58_format: Optional[int] = None,
                 only_primitives_on_init: bool = False, implements_scale_info: bool = False):
        self.config_id = config_id
        self._registry = _core.Registry()
        self._classes: Dict[str, Optional[type]] = {}
        self.type_registry: Dict[str, Any] = {"types": _TypesView(self), "runtime_api": {}}
        self.implements_scale_info = implements_scale_info
        self.chain_id: Optional[str] = None
        self.metadata = None
        if ss58_format is not None:
            self.ss58_format = ss58_format
        self._declare_classes()

    def _declare_classes(self) -> None:
        """Defines the classes declared outside this package by their names
        (py-scale-codec registers every scale class it knows when a
        configuration is created or cleared)."""
        self._declared: Dict[str, type] = {}
        for cls in list(_DECLARED.values()):
            self._declare(cls)

    def _declare(self, cls: type) -> Optional[str]:
        """Defines ``cls`` (a declared class) by its name; ``None`` when it
        declares no structure or its definition is refused."""
        definition = _declared_definition(cls)
        if definition is None:
            return None
        try:
            self._registry.update_types(json.dumps({cls.__name__: definition}))
        except (ValueError, NotImplementedError):
            return None
        self._mirror_types({cls.__name__: definition})
        self._declared[cls.__name__.lower()] = cls
        self._classes.clear()
        return cls.__name__

    def _declared_name(self, cls: type) -> str:
        """The type string of a declared class in this configuration, defining
        it first if the class came after the configuration."""
        if self.__dict__.get("_declared", {}).get(cls.__name__.lower()) is cls:
            return cls.__name__
        name = self._declare(cls)
        if name is None:
            raise NotImplementedError(f"{cls.__name__} declares no type to decode or encode with")
        return name

    def update_type_registry(self, type_registry: dict) -> None:
        """Applies a preset (``{"types": …, "versioning": …, "runtime_id": …}``)."""
        if not isinstance(type_registry, dict):
            raise TypeError("type_registry must be a dict")
        self._registry.update_preset(json.dumps(type_registry))
        self._mirror_types(type_registry.get("types") or {})
        self.type_registry["runtime_api"].update(type_registry.get("runtime_api") or {})
        for key in ("runtime_id", "versioning", "runtime_upgrades", "chain_id"):
            if key in type_registry:
                self.type_registry[key] = type_registry[key]
        self.chain_id = type_registry.get("chain_id", self.chain_id)
        self._classes.clear()

    def update_type_registry_types(self, types_dict: dict) -> None:
        """Adds or overrides type definitions ``{"Name": definition}``."""
        if not isinstance(types_dict, dict):
            raise TypeError("types_dict must be a dict")
        self._registry.update_types(json.dumps(types_dict))
        self._mirror_types(types_dict)
        self._classes.clear()

    def _mirror_types(self, types: dict) -> None:
        declared = self.__dict__.get("_declared", {})
        for name, definition in types.items():
            dict.__setitem__(self.type_registry["types"], name.lower(), definition)
            declared.pop(name.lower(), None)  # a later definition replaces a declared class

    def clear_type_registry(self) -> None:
        """Forgets every definition, the portable registry and the runtime."""
        self._registry.clear()
        self.type_registry = {"types": _TypesView(self), "runtime_api": {}}
        self.chain_id = None
        self.metadata = None
        self._classes.clear()
        self._declare_classes()

    def add_portable_registry(self, metadata: "ScaleType") -> None:
        """Imports a V14+ metadata object's portable registry and runtime."""
        self._sync_metadata(metadata)
        self.implements_scale_info = True
        self.metadata = metadata
        self._classes.clear()

    def update_from_scale_info_types(self, scale_info_types: list, prefix: Optional[str] = None) -> None:
        """Imports a bare portable registry (``{"id", "type"}`` values or their
        scale objects) as ``scale_info::N``, replacing the one loaded before."""
        if prefix not in (None, "scale_info"):
            raise NotImplementedError(f"update_from_scale_info_types: prefix {prefix!r} is not supported")
        if self._registry.load_portable_types(list(scale_info_types)):
            self._classes.clear()
        self.implements_scale_info = True

    def get_decoder_class(self, type_string: Union[str, dict]) -> Optional[type]:
        """The scale class for ``type_string``, or ``None`` when it is unknown."""
        if isinstance(type_string, dict):
            return None
        cls = self._classes.get(type_string, _UNSET)
        if cls is _UNSET:
            cls = self._classes[type_string] = self._make_class(type_string)
        return cls

    def _make_class(self, type_string: str) -> Optional[type]:
        own = _BY_TYPE_STRING.get(type_string.lower())
        if own is not None:
            return type(own.__name__, (own,), {"_runtime_config": self})
        try:
            idx = self._registry.resolve(type_string)
        except NotImplementedError:
            return None
        return _class_for_node(self, type_string, idx)

    def get_value_decoder(self, type_string: str) -> Optional["_core.ValueDecoder"]:
        """cyscale 0.8's value decoder: a callable taking the bytes of one
        ``type_string`` value (all of them) and returning the plain value, in
        py-scale-codec's shapes; ``None`` when the type is unknown. Made once
        per type string; it follows later changes to the registry."""
        decoders = self.__dict__.setdefault("_value_decoders", {})
        decoder = decoders.get(type_string)
        if decoder is None:
            try:
                decoder = decoders[type_string] = _core.ValueDecoder(self._registry, type_string)
            except NotImplementedError:
                return None
        return decoder

    def get_decoder_class_for_scale_info_definition(self, type_string: str, scale_info_type: "ScaleType",
                                                    prefix: str) -> Optional[type]:
        """The class of ``type_string`` once the portable-registry type's
        definition kind is checked (registries are imported whole, in Rust)."""
        _core.check_type_def(scale_info_type)
        return self.get_decoder_class(type_string)

    def _create_scale_object(self, type_string: str, data: Optional[ScaleBytes] = None, **kwargs) -> "ScaleType":
        """``create_scale_object`` when the Rust fast path does not apply (first
        use of a type string, options, data that is not a ``ScaleBytes``)."""
        if not isinstance(type_string, str):
            raise TypeError(f"type string must be a str, not {type(type_string).__name__}")
        cls = self._classes.get(type_string) or self.get_decoder_class(type_string)
        if cls is None:
            raise NotImplementedError(f'Decoder class for "{type_string}" not found')
        if kwargs:
            kwargs.setdefault("runtime_config", self)
            return cls(data=data, **kwargs)
        if data is not None and not isinstance(data, ScaleBytes):
            raise ValueError("Provided data is not in supported format: provided '{}'".format(type(data).__name__))
        # Without options the class's __init__ is skipped, as the Rust path does.
        obj = cls.__new__(cls)
        obj.runtime_config, obj.data = self, data
        obj.data_start_offset = data.offset if data is not None else None
        return obj

    def __getstate__(self) -> dict:
        types = self.type_registry
        return {
            "config_id": self.config_id,
            "registry": self._registry.__getstate__(),
            "type_registry": {k: (v.definitions() if isinstance(v, _TypesView) else v) for k, v in types.items()},
            "implements_scale_info": self.implements_scale_info,
            "chain_id": self.chain_id,
        }

    def __setstate__(self, state: dict) -> None:
        self.config_id = state["config_id"]
        self._registry = _core.Registry()
        self._registry.__setstate__(state["registry"])
        self._classes = {}
        self._value_decoders = {}
        self.type_registry = {"types": _TypesView(self), "runtime_api": {}}
        for key, value in state["type_registry"].items():
            if key == "types":
                dict.update(self.type_registry["types"], value)
            else:
                self.type_registry[key] = value
        self.implements_scale_info = state["implements_scale_info"]
        self.chain_id = state["chain_id"]
        self.metadata = None
        # the registry replayed the declared classes' definitions; pair them again
        self._declared = {name: cls for name, cls in _DECLARED.items()
                          if dict.get(self.type_registry["types"], name) == _declared_definition(cls)}


class RuntimeConfiguration(RuntimeConfigurationObject, metaclass=Singleton):
    """The shared configuration per ``config_id``."""

    def __init__(self, config_id: str = "default", **kwargs):
        super().__init__(config_id=config_id, **kwargs)

    def __reduce__(self):
        return (_restore_singleton, (self.config_id, self.__getstate__()))


def _restore_singleton(config_id: str, state: dict) -> RuntimeConfiguration:
    config = RuntimeConfiguration(config_id=config_id)
    config.__setstate__(state)
    return config


class ScaleDecoder(_core.ScaleObject):
    """Base of every scale object. The state, ``decode``, ``encode``, the
    value protocol and the default hooks (``_before_decode``,
    ``_decode_value``, ``_after_decode``, ``_encode_value``,
    ``_encoded_value``, which subclasses override) live in the Rust base
    class; ``decode`` and ``encode`` skip the hooks when the class's
    ``_fast_node`` says it decodes or encodes exactly as its graph node does.

    A subclass announces what it stands for: ``kinds`` (node kinds whose
    classes derive from it) and ``names`` (lower-case type strings it
    decodes itself)."""

    type_string: Optional[str] = None
    type_mapping: Any = None
    sub_type: Optional[str] = None
    debug = False

    #: ``ScaleType[int]``, ``ScaleDecoder[ScaleValue]``: the class subscripted
    #: for annotations, as cyscale 0.8's generic classes are (a
    #: ``types.GenericAlias``, like ``list[int]``; nothing is checked).
    __class_getitem__ = classmethod(_types.GenericAlias)

    def __init_subclass__(cls, kinds: tuple = (), names: tuple = (), **kwargs: Any):
        super().__init_subclass__(**kwargs)
        # classes made for a configuration are not catalogue entries
        if "_runtime_config" not in cls.__dict__:
            _BY_CLASS_NAME.setdefault(cls.__name__, cls)
        _BY_KIND.update(dict.fromkeys(kinds, cls))
        _BY_TYPE_STRING.update(dict.fromkeys(names, cls))
        if "_runtime_config" not in cls.__dict__ and not cls.__module__.startswith("scalecodec"):
            _DECLARED[cls.__name__.lower()] = cls
            # a class declaring a type, instantiated directly, decodes by its
            # name (other subclasses keep the hooks they inherit)
            declares = _declared_definition(cls) is not None
            if declares and cls._decode_value is _core.ScaleObject._decode_value:
                cls._decode_value = _declared_decode_value
            if declares and cls._encode_value is _core.ScaleObject._encode_value:
                cls._encode_value = _declared_encode_value

    def __init__(self, data: Optional[ScaleBytes] = None, sub_type: Optional[str] = None,
                 metadata: Optional["ScaleType"] = None,
                 runtime_config: Optional[RuntimeConfigurationObject] = None, **kwargs: Any):
        if data is not None and not isinstance(data, ScaleBytes):
            raise ValueError("Provided data is not in supported format: provided '{}'".format(type(data).__name__))
        self.runtime_config = runtime_config or type(self).__dict__.get("_runtime_config") or RuntimeConfiguration()
        self.data = data
        self.data_start_offset = data.offset if data is not None else None
        if sub_type is not None:
            self.sub_type = sub_type
        if metadata is not None:
            self.metadata = metadata

    def _build_value_object(self, value: Any) -> Any:
        return _wrap_parts(value, self.runtime_config)

    def generate_type_decomposition(self, max_recursion: int = 32) -> Any:
        """The type's shape down to primitive names (py-scale-codec's)."""
        registry = self.runtime_config._registry
        idx = type(self).__dict__.get("_node")
        return registry.decomposition(registry.resolve(self.type_string) if idx is None else idx)

    @classmethod
    def convert_type(cls, name: str) -> str:
        """py-scale-codec's normalisation of a legacy type name."""
        return _core.convert_type_string(name)

    @classmethod
    def get_decoder_class(cls, type_string: str, data: Optional[ScaleBytes] = None,
                          runtime_config: Optional[RuntimeConfigurationObject] = None, **kwargs):
        """A scale object of ``type_string`` (py-scale-codec's classmethod form)."""
        return (runtime_config or RuntimeConfiguration()).create_scale_object(type_string, data=data, **kwargs)


class ScaleType(ScaleDecoder):
    """A scale object that may carry runtime metadata (for calls and events)."""


class ScalePrimitive(ScaleType):
    """Marker base for primitive types (integers, bool, text)."""


class _Part(ScaleType):
    """A part of a decoded value, as found in a parent's ``value_object``."""

    def __init__(self, value: Any, runtime_config: RuntimeConfigurationObject, type_string: Optional[str] = None):
        super().__init__(runtime_config=runtime_config)
        if type_string is not None:
            self.type_string = type_string
        self._value = value
        self.decoded = True

    def _build_value_object(self, value: Any) -> Any:
        return _wrap_parts(value, self.runtime_config) if isinstance(value, (list, tuple, dict)) else value

    def __reduce__(self):
        # A part has no bytes of its own to be decoded again from (what
        # scale objects pickle as): it pickles as its class, configuration,
        # value and attributes; a value shared with its parent's is pickled once.
        data = self.data
        where = None if data is None else (data, self.data_start_offset, self.data_end_offset)
        return (_restore_part, (type(self), self.runtime_config, self._value, dict(self.__dict__), where))


def _restore_part(cls: type, config: RuntimeConfigurationObject, value: Any, attrs: dict, where: Any) -> "_Part":
    """A pickled :class:`_Part` (or subclass) as it was, without its ``__init__``."""
    obj = cls.__new__(cls)
    obj.runtime_config, obj._value, obj.decoded = config, value, True
    if where is not None:
        obj.data, obj.data_start_offset, obj.data_end_offset = where
    obj.__dict__.update(attrs)
    return obj


def _wrap_parts(value: Any, config: RuntimeConfigurationObject) -> Any:
    if isinstance(value, list):
        return [_Part(v, config) for v in value]
    if isinstance(value, tuple):
        return tuple(_Part(v, config) for v in value)
    if isinstance(value, dict):
        return {k: _Part(v, config) for k, v in value.items()}
    return value


# Methods whose override means a class decodes / encodes differently from its node.
_DECODE_HOOKS = ("decode", "_decode_value", "_before_decode", "_after_decode")
_ENCODE_HOOKS = ("encode", "_encode_value", "_encoded_value", "_before_decode")


def _inherits(cls: type, hooks: tuple) -> bool:
    return all(getattr(cls, hook) is getattr(ScaleDecoder, hook) for hook in hooks)


def _class_for_node(config: RuntimeConfigurationObject, type_string: str, idx: int) -> type:
    """The class of ``type_string`` (resolved to graph node ``idx``) in ``config``."""
    info = config._registry.class_info(type_string, idx)
    base = _BY_KIND.get(info.kind, ScalePrimitive if info.kind == _core.TypeKind.Char else ScaleType)
    declared = config.__dict__.get("_declared", {}).get(type_string.lower())
    attrs: Dict[str, Any] = {"type_string": type_string, "_runtime_config": config, "_node": idx}
    for key in ("sub_type", "type_mapping", "value_list", "element_count"):
        if getattr(info, key) is not None:
            attrs[key] = getattr(info, key)
    if type_string.startswith("scale_info::"):
        attrs["scale_info_type"] = _portable_type_of(config, type_string)
    named = _BY_CLASS_NAME.get(info.base_class) if info.base_class else None
    if declared is not None and issubclass(declared, base):
        named = declared  # the class declared under this name, as py-scale-codec returns it
    bases = (base,) if named is None or named is base else (named,) if issubclass(named, base) else (named, base)
    cls = type(type_string if type_string.isidentifier() else base.__name__, bases, attrs)
    # Rust decodes / encodes objects of a class that changes nothing about
    # it without calling Python, while the registry stays at this generation.
    plain_decode, plain_encode = _inherits(cls, _DECODE_HOOKS), _inherits(cls, _ENCODE_HOOKS)
    if plain_decode or plain_encode:
        cls._fast_node = _core.FastNode(idx, config._registry.generation, plain_decode, plain_encode, type_string)
    return cls


def _portable_type_of(config: RuntimeConfigurationObject, type_string: str) -> Optional[ScaleType]:
    """The portable-registry entry ``scale_info::N`` names, from the metadata."""
    try:
        types = config.metadata.portable_registry.value["types"]
        type_id = int(type_string[len("scale_info::"):])
    except (AttributeError, ValueError, TypeError, KeyError):
        return None
    # ids are the positions in the registries seen so far; search if not
    entry = types[type_id] if 0 <= type_id < len(types) and types[type_id]["id"] == type_id else \
        next((t for t in types if t["id"] == type_id), None)
    return None if entry is None else _Part(entry["type"], config, "PortableType")
