"""Runtime configurations, byte buffers, the generic scale object and the
classes made for type strings.

* :class:`RuntimeConfigurationObject` owns one Rust ``_core.Registry``:
  presets, type overrides, spec versions and metadata go to Rust as they
  come in; Python keeps a mirror of the merged ``types`` (for code that reads
  ``type_registry['types']``) and a cache of classes per type string.
* :class:`ScaleDecoder` is the one generic scale object. Decoding and
  encoding run in Rust (``_core.ScaleObject``); ``value_object`` is built
  only when read.
* ``get_decoder_class`` makes (in Rust, python/src/classes.rs) a class per
  type string: one deriving from the class of its node's kind, or of the
  preset's ``base_class``. The classes of :mod:`scalecodec.types` announce
  their kinds and names when they are defined (``__init_subclass__``, into
  the tables registered with ``_core.set_catalogue``), so this module never
  imports that one.
"""
import json
import os
import threading
import types as _types
from typing import Any, Dict, Optional, Set, Type

from . import _core
from .constants import ScaleValue
from .constants import TYPE_DECOMP_MAX_RECURSIVE  # noqa: F401 (py-scale-codec exports it here too)
from .exceptions import InvalidScaleTypeValueException, RemainingScaleBytesNotEmptyException

# The name this package was imported under: ``scalecodec`` when it is the
# interpreter's scalecodec, ``ferroscale`` beside another one (see
# ``_ferroscale_scalecodec``). The package's own classes and the classes Rust
# makes per type string live in its modules; users' classes elsewhere.
_PACKAGE = __name__.rpartition(".")[0]


def _own_module(module: str) -> bool:
    """Whether ``module`` (a class's ``__module__``) is one of this package's."""
    return module == _PACKAGE or module.startswith(_PACKAGE + ".")

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
#: Scale classes users define outside this package (subclasses,
#: ``type("MyStruct", (Struct,), {"type_mapping": [...]})``), by lower-cased
#: name (the last one defined under a name wins). Configurations created
#: afterwards know them by name, as py-scale-codec's do; used directly, a
#: class is defined in its object's configuration then
#: (``RuntimeConfigurationObject._declared_name``).
_DECLARED: Dict[str, type] = {}


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

    def __setitem__(self, key: str, value: Any) -> None:
        # As in py-scale-codec, what is put here is the name's meaning from
        # now on: a definition (a type string, a struct or enum dict), or a
        # class, which the registry decodes as the class's type string.
        definition = getattr(value, "type_string", None) if isinstance(value, type) else value
        if isinstance(definition, (str, dict)):
            self._config._registry.update_types(json.dumps({key: definition}))
        dict.__setitem__(self, key, value)
        self._config._classes.clear()

    # (over a copy of the keys: reading a class may define the user's classes here)
    def values(self):
        return [self[k] for k in list(self.keys())]

    def items(self):
        return [(k, self[k]) for k in list(self.keys())]

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
    The Rust base class keeps ``_registry``, ``_classes``, ``ss58_format``,
    makes objects (``create_scale_object``, ``batch_decode``) and keeps the
    books: presets and types in and mirrored, cached classes and value
    decoders, spec versions, metadata and portable registries, the classes
    made per type string and the users' classes declared by name
    (python/src/classes.rs)."""

    def __init__(self, config_id: Optional[str] = None, ss58_format: Optional[int] = None,
                 only_primitives_on_init: bool = False, implements_scale_info: bool = False):
        self.config_id = config_id
        self.implements_scale_info = implements_scale_info
        self.only_primitives_on_init = only_primitives_on_init
        self._made_classes: Dict[str, type] = {}  # outlives _reset: see config::same_class_as_before
        self._reset(_core.Registry())
        if ss58_format is not None:
            self.ss58_format = ss58_format  # kept by the registry
        self._declare_classes()

    def _reset(self, registry: "_core.Registry") -> None:
        """Starts over with ``registry``: no mirrored types, runtime or cached classes."""
        self._registry, self._classes = registry, {}
        self._value_decoders: Dict[str, Any] = {}
        self.type_registry: Dict[str, Any] = {"types": _TypesView(self), "runtime_api": {}}
        self.chain_id: Optional[str] = None
        self.metadata = None

    @classmethod
    def all_subclasses(cls, class_: type) -> Set[type]:
        """Every subclass of ``class_``, at any depth."""
        found: Set[type] = set()
        sub: type
        for sub in class_.__subclasses__():
            found.add(sub)
            found |= cls.all_subclasses(sub)
        return found


def _check_data(data: Any) -> None:
    """py-scale-codec takes only a ``ScaleBytes`` (or nothing) as the data of a scale object."""
    if data is not None and not isinstance(data, ScaleBytes):
        raise ValueError("Provided data is not in supported format: provided '{}'".format(type(data).__name__))


#: A user-defined scale class as a preset definition (its ``type_mapping``,
#: ``value_list`` or the type string it stands for), ``None`` if it has none.
_user_definition = _core.user_definition


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
    value protocol, the default hooks (``_before_decode``,
    ``_decode_value``, ``_after_decode``, ``_encode_value``,
    ``_encoded_value``, which subclasses override) and py-scale-codec's
    helper methods (``get_next_u8``, ``process_type``,
    ``generate_type_decomposition`` …) live in the Rust base class;
    ``decode`` and ``encode`` skip the hooks when the class's ``_fast_node``
    says it decodes or encodes exactly as its graph node does.

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
    @classmethod
    def __class_getitem__(cls, item: Any) -> _types.GenericAlias:
        return _types.GenericAlias(cls, item)

    def __init_subclass__(cls, kinds: tuple = (), names: tuple = (), **kwargs: Any):
        super().__init_subclass__(**kwargs)
        # classes made for a configuration are not catalogue entries
        if "_runtime_config" not in cls.__dict__:
            _BY_CLASS_NAME.setdefault(cls.__name__, cls)
        _BY_KIND.update(dict.fromkeys(kinds, cls))
        _BY_TYPE_STRING.update(dict.fromkeys(names, cls))
        if "_runtime_config" not in cls.__dict__ and not _own_module(cls.__module__):
            _DECLARED[cls.__name__.lower()] = cls

    def __init__(self, data: Optional[ScaleBytes] = None, sub_type: Optional[str] = None,
                 metadata: Optional["ScaleType"] = None,
                 runtime_config: Optional[RuntimeConfigurationObject] = None, **kwargs: Any):
        _check_data(data)
        self.runtime_config = runtime_config or type(self).__dict__.get("_runtime_config") or RuntimeConfiguration()
        self.data = data
        self.data_start_offset = data.offset if data is not None else None
        if sub_type is not None:
            self.sub_type = sub_type
        if metadata is not None:
            self.metadata = metadata

    def _build_value_object(self, value: Any) -> Any:
        # py-scale-codec's: a struct's dict, a tuple's items, an enum's
        # ``(variant, object)``, an option's object, a vector's elements, as
        # objects of their types.
        return _core.value_object_of(self, value)


class ScaleType(ScaleDecoder):
    """A scale object that may carry runtime metadata (for calls and events)."""

    #: The portable-registry entry of a ``scale_info::N`` class (set on those classes).
    scale_info_type: Any = None

    @property
    def meta_info(self) -> dict:
        """A dict for the user's own annotations (py-scale-codec's container)."""
        return self.__dict__.setdefault("_meta_info", {})

    @meta_info.setter
    def meta_info(self, value: dict) -> None:
        self.__dict__["_meta_info"] = value


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


def _restore_part(cls: Type["_Part"], config: RuntimeConfigurationObject, value: Any, attrs: dict, where: Any) -> "_Part":
    """A pickled :class:`_Part` (or subclass) as it was, without its ``__init__``."""
    obj = cls.__new__(cls)
    obj.runtime_config, obj._value, obj.decoded = config, value, True
    if where is not None:
        obj.data, obj.data_start_offset, obj.data_end_offset = where
    obj.__dict__.update(attrs)
    return obj


#: A decoded list, tuple or dict with its elements as plain parts (``_Part``).
_wrap_parts = _core.wrap_parts


# --------------------------------------------------------------------------
# Typed parts: the parts of a decoded value as the scale objects
# py-scale-codec would have made while decoding it (a pallet as a
# ``PalletMetadataV14`` object whose ``value_object['calls']`` is an
# ``Option`` object …). The value is already decoded (by Rust); a part only
# wraps its share of it, and builds its own parts when ``value_object`` is
# first read.

_DEFINITIONS: Optional[RuntimeConfigurationObject] = None


def _metadata_definitions() -> RuntimeConfigurationObject:
    """The configuration over the process's metadata definitions (the
    ``core`` preset's ``MetadataV9``–``V14``, ours for V15/V16): metadata
    parts take their classes from it, whatever the user's configuration holds."""
    global _DEFINITIONS
    if _DEFINITIONS is None:
        config = RuntimeConfigurationObject(config_id="scalecodec-metadata-definitions")
        config._registry = _core.metadata_definitions()
        _DEFINITIONS = config
    return _DEFINITIONS


_core.set_catalogue(_BY_CLASS_NAME, _BY_KIND, _BY_TYPE_STRING, _DECLARED, _metadata_definitions)


