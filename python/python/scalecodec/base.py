"""Runtime configurations, byte buffers and the generic scale object.

Design (see also the package docstring):

* :class:`RuntimeConfigurationObject` owns one Rust ``_core.Registry``. Preset
  dicts, type overrides, spec versions and metadata go to Rust as they come
  in; Python keeps only a mirror of the merged ``types`` (for code that reads
  ``type_registry['types']``) and a cache of classes per type string.
* :class:`ScaleType` is one generic class. ``decode()`` hands the whole input
  to Rust once and gets back the finished Python value (built by a Rust sink
  with interned field and variant names); ``value_object`` (scale objects
  for the parts) is only built when read. ``encode(value)`` is one Rust call.
* Classes returned by ``get_decoder_class`` are created on demand per
  registry and type string, carrying ``type_string``, ``sub_type`` and
  ``type_mapping``; types with extra user-facing attributes (extrinsics,
  calls, events, metadata, Era, account ids) use subclasses from
  :mod:`scalecodec.types`.
* The per-value path is Rust: :class:`ScaleBytes` is ``_core.ScaleBytes``,
  and the configuration and scale objects subclass ``_core.ConfigBase`` and
  ``_core.ScaleObject``, whose ``create_scale_object``, ``batch_decode``,
  ``decode`` and ``encode`` skip Python entirely for classes that decode and
  encode as their graph node (see ``class_for_node``); other classes get
  py-scale-codec's steps with their Python hooks called.
"""
import json
import os
import threading
from typing import Any, Dict, Optional, Union

from scalecodec import _core
from scalecodec.exceptions import InvalidScaleTypeValueException, RemainingScaleBytesNotEmptyException

# The Rust engine reads the core preset's metadata definitions from the
# presets this package ships, wherever the wheel was unpacked.
_core.set_presets_dir(os.path.join(os.path.dirname(os.path.abspath(__file__)), "type_registry"))

__all__ = [
    "ScaleBytes",
    "ScaleDecoder",
    "ScaleType",
    "ScalePrimitive",
    "RuntimeConfiguration",
    "RuntimeConfigurationObject",
    "RemainingScaleBytesNotEmptyException",
    "InvalidScaleTypeValueException",
    "Singleton",
]


# py-scale-codec's byte buffer (``data``, ``offset``, ``length`` and its
# helper methods), implemented in Rust: decoding reads it directly.
ScaleBytes = _core.ScaleBytes


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


_UNSET = _core.UNSET


class _TypesView(dict):
    """``type_registry['types']``: keys are the lower-cased names the presets
    define; values read as their decoder classes (py-scale-codec stores
    classes there), created on first read."""

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
    """A type registry: presets, type overrides, the active spec version,
    a chain's portable registry and runtime (calls, events), SS58 format.

    ``_registry``, ``_classes``, ``batch_decode`` (cyscale's) and
    ``create_scale_object`` (for cached classes without options) live in
    the Rust base class; ``_create_scale_object`` is the general path it
    falls back on.
    """

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

    # -- configuration ---------------------------------------------------

    @property
    def ss58_format(self) -> Optional[int]:
        """SS58 format account ids render in (``None``: ``"0x…"`` hex)."""
        return self._registry.ss58_format

    @ss58_format.setter
    def ss58_format(self, value: Optional[int]) -> None:
        if value is not None and (not isinstance(value, int) or not 0 <= value <= 16383):
            raise ValueError(f"Invalid ss58_format {value!r}")
        self._registry.ss58_format = value
        self._classes.clear()

    @property
    def active_spec_version_id(self) -> Optional[int]:
        """The spec version whose preset ``versioning`` entries are applied."""
        return self._registry.active_spec_version_id

    def update_type_registry(self, type_registry: dict) -> None:
        """Applies a preset (``{"types": …, "versioning": …, "runtime_id": …}``)."""
        if not isinstance(type_registry, dict):
            raise TypeError("type_registry must be a dict")
        self._registry.update_preset(json.dumps(type_registry))
        self._mirror_types(type_registry.get("types") or {})
        for api, spec in (type_registry.get("runtime_api") or {}).items():
            self.type_registry["runtime_api"][api] = spec
        for key in ("runtime_id", "versioning", "runtime_upgrades", "chain_id"):
            if key in type_registry:
                self.type_registry[key] = type_registry[key]
        if "chain_id" in type_registry:
            self.chain_id = type_registry["chain_id"]
        self._classes.clear()

    def update_type_registry_types(self, types_dict: dict) -> None:
        """Adds or overrides type definitions ``{"Name": definition}``."""
        if not isinstance(types_dict, dict):
            raise TypeError("types_dict must be a dict")
        self._registry.update_types(json.dumps(types_dict))
        self._mirror_types(types_dict)
        self._classes.clear()

    def _mirror_types(self, types: dict) -> None:
        view = self.type_registry["types"]
        for name, definition in types.items():
            dict.__setitem__(view, name.lower(), definition)

    def clear_type_registry(self) -> None:
        """Forgets every definition, the portable registry and the runtime."""
        self._registry.clear()
        self.type_registry = {"types": _TypesView(self), "runtime_api": {}}
        self.chain_id = None
        self.metadata = None
        self._classes.clear()

    def set_active_spec_version_id(self, spec_version_id: int) -> None:
        """Switches to ``spec_version_id`` (applies the presets' versioning)."""
        if spec_version_id != self.active_spec_version_id:
            self._registry.set_active_spec_version_id(spec_version_id)
            self._classes.clear()

    def get_runtime_id_from_upgrades(self, block_number: int) -> Optional[int]:
        """The spec version at ``block_number`` from the presets' ``runtime_upgrades``."""
        return self._registry.get_runtime_id_from_upgrades(block_number)

    def set_runtime_upgrades_head(self, block_number: int) -> None:
        """Marks the runtime-upgrade table as covering up to ``block_number``."""
        self._registry.set_runtime_upgrades_head(block_number)

    def add_portable_registry(self, metadata: "ScaleType") -> None:
        """Imports a V14+ metadata object's portable registry (``scale_info::N``,
        path names) and its runtime (calls, events, extensions)."""
        self._sync_metadata(metadata)
        self.implements_scale_info = True
        self.metadata = metadata
        self._classes.clear()

    def update_from_scale_info_types(self, scale_info_types: list, prefix: Optional[str] = None) -> None:
        """Imports a bare portable registry (a list of ``{"id", "type"}`` values,
        or the objects of a decoded ``PortableRegistry``) as ``scale_info::N``.

        The Rust registry imports portable types as part of runtime metadata,
        so the types are wrapped in a V14 metadata without pallets. This
        replaces a portable registry or runtime loaded before.
        """
        if prefix not in (None, "scale_info"):
            raise NotImplementedError(f"update_from_scale_info_types: prefix {prefix!r} is not supported")
        types = [t.value if isinstance(t, ScaleDecoder) else t for t in scale_info_types]
        if not types:
            raise ValueError("update_from_scale_info_types: no types given")
        from scalecodec.types import _metadata_value_config  # the metadata type definitions
        registry = _metadata_value_config().create_scale_object("PortableRegistry").encode({"types": types}).data
        # V14: types, no pallets, extrinsic {ty 0, version 4, no extensions}, runtime type 0
        raw = b"meta\x0e" + bytes(registry) + b"\x00" + b"\x00\x04\x00" + b"\x00"
        if self._registry.ensure_metadata(raw):
            self._classes.clear()
        self.implements_scale_info = True

    def _sync_metadata(self, metadata: Optional["ScaleType"]) -> None:
        if metadata is None:
            return
        raw = getattr(metadata, "_metadata_bytes", None)
        if raw is None:
            raise ValueError("metadata must be a decoded MetadataVersioned object")
        if self._registry.ensure_metadata(raw):
            self._classes.clear()

    # -- types -----------------------------------------------------------

    def convert_type_string(self, name: str) -> str:
        """py-scale-codec's normalisation of a type name (``T::`` removed …)."""
        return _core.convert_type_string(name)

    def get_decoder_class(self, type_string: Union[str, dict]) -> Optional[type]:
        """The scale class for ``type_string``, or ``None`` when it is unknown."""
        if isinstance(type_string, dict):
            return None
        cls = self._classes.get(type_string, _UNSET)
        if cls is _UNSET:
            cls = self._make_class(type_string)
            self._classes[type_string] = cls
        return cls

    def _make_class(self, type_string: str) -> Optional[type]:
        from scalecodec.types import _BY_NAME, class_for_node
        named = _BY_NAME.get(type_string.lower())
        if named is not None:
            return type(named.__name__, (named,), {"_runtime_config": self})
        try:
            idx = self._registry.resolve(type_string)
        except NotImplementedError:
            return None
        return class_for_node(self, type_string, idx)

    _SCALE_INFO_DEFS = ("composite", "variant", "sequence", "array", "tuple", "primitive",
                        "compact", "bitsequence", "historicmetacompat")

    def get_decoder_class_for_scale_info_definition(self, type_string: str, scale_info_type: "ScaleType",
                                                    prefix: str) -> Optional[type]:
        """The class for a portable-registry type definition (``RegistryType``
        value). Portable registries are imported in Rust as a whole
        (``add_portable_registry``); this only checks the definition kind and
        returns the class of ``type_string``."""
        value = scale_info_type.value if isinstance(scale_info_type, ScaleDecoder) else scale_info_type
        definition = value.get("def") if isinstance(value, dict) else None
        kind = next(iter(definition)) if isinstance(definition, dict) and definition else definition
        if not isinstance(kind, str) or kind.lower() not in self._SCALE_INFO_DEFS:
            raise NotImplementedError(f"RegistryTypeDef {kind!r} not implemented")
        return self.get_decoder_class(type_string)

    def _create_scale_object(self, type_string: str, data: Optional[ScaleBytes] = None, **kwargs) -> "ScaleType":
        """``create_scale_object`` when the Rust fast path does not apply (first
        use of a type string, options, data that is not a ``ScaleBytes``)."""
        if not isinstance(type_string, str):
            raise TypeError(f"type string must be a str, not {type(type_string).__name__}")
        cls = self._classes.get(type_string)
        if cls is None:
            cls = self.get_decoder_class(type_string)
            if cls is None:
                raise NotImplementedError(f'Decoder class for "{type_string}" not found')
        if kwargs:
            kwargs.setdefault("runtime_config", self)
            return cls(data=data, **kwargs)
        # The common case without options: skip the keyword-argument
        # __init__ (this is on the hot path of small decodes).
        if data is not None and not isinstance(data, ScaleBytes):
            raise ValueError("Provided data is not in supported format: provided '{}'".format(type(data).__name__))
        obj = cls.__new__(cls)
        obj.runtime_config = self
        obj.data = data
        obj.data_start_offset = data.offset if data is not None else None
        return obj

    # -- pickling --------------------------------------------------------

    def __getstate__(self) -> dict:
        return {
            "config_id": self.config_id,
            "registry": self._registry.__getstate__(),
            "type_registry": {
                k: (v.definitions() if isinstance(v, _TypesView) else v) for k, v in self.type_registry.items()
            },
            "implements_scale_info": self.implements_scale_info,
            "chain_id": self.chain_id,
        }

    def __setstate__(self, state: dict) -> None:
        self.config_id = state["config_id"]
        self._registry = _core.Registry()
        self._registry.__setstate__(state["registry"])
        self._classes = {}
        self.type_registry = {"types": _TypesView(self), "runtime_api": {}}
        for key, value in state["type_registry"].items():
            if key == "types":
                for name, definition in value.items():
                    dict.__setitem__(self.type_registry["types"], name, definition)
            else:
                self.type_registry[key] = value
        self.implements_scale_info = state["implements_scale_info"]
        self.chain_id = state["chain_id"]
        self.metadata = None


class RuntimeConfiguration(RuntimeConfigurationObject, metaclass=Singleton):
    """The shared configuration per ``config_id`` (``RuntimeConfiguration()`` is
    always the same object)."""

    def __init__(self, config_id: str = "default", **kwargs):
        super().__init__(config_id=config_id, **kwargs)

    def __reduce__(self):
        return (_restore_singleton, (self.config_id, self.__getstate__()))


def _restore_singleton(config_id: str, state: dict) -> RuntimeConfiguration:
    config = RuntimeConfiguration(config_id=config_id)
    config.__setstate__(state)
    return config


class ScaleDecoder(_core.ScaleObject):
    """Base of every scale object: holds the data, the runtime configuration
    and the decoded value. Decoding and encoding run in Rust.

    ``runtime_config``, ``data``, ``data_start_offset``, ``data_end_offset``,
    ``_value``, ``_value_object``, ``decoded``, ``metadata``, ``decode`` and
    ``encode`` live in the Rust base class. ``decode`` and ``encode`` follow
    py-scale-codec's steps and call the hooks below (``_before_decode``,
    ``_decode_value``, ``_after_decode``, ``_encode_value``,
    ``_encoded_value``), except for classes whose ``_fast_node`` says they
    decode or encode exactly as their graph node does.
    """

    type_string: Optional[str] = None
    type_mapping: Any = None
    sub_type: Optional[str] = None
    debug = False

    def __init__(self, data: Optional[ScaleBytes] = None, sub_type: Optional[str] = None,
                 runtime_config: Optional[RuntimeConfigurationObject] = None):
        if data is not None and not isinstance(data, ScaleBytes):
            raise ValueError("Provided data is not in supported format: provided '{}'".format(type(data).__name__))
        if runtime_config is None:
            runtime_config = RuntimeConfiguration()
        self.runtime_config = runtime_config
        self.data = data
        self.data_start_offset = data.offset if data is not None else None
        if sub_type is not None:
            self.sub_type = sub_type

    # -- value -----------------------------------------------------------

    @property
    def value(self) -> Any:
        """The decoded (or encoded) value in py-scale-codec's shapes."""
        return self._value

    @value.setter
    def value(self, value: Any) -> None:
        self._value = value
        self._value_object = _UNSET

    @property
    def value_serialized(self) -> Any:
        """The value as plain Python data (the same as ``value`` here)."""
        return self._value

    @value_serialized.setter
    def value_serialized(self, value: Any) -> None:
        self.value = value

    @property
    def value_object(self) -> Any:
        """The value with its parts as scale objects; built on first read."""
        if self._value_object is _UNSET:
            self._value_object = self._build_value_object(self._value)
        return self._value_object

    @value_object.setter
    def value_object(self, value: Any) -> None:
        self._value_object = value

    def _build_value_object(self, value: Any) -> Any:
        return _wrap_parts(value, self.runtime_config)

    # -- decoding --------------------------------------------------------

    def process(self) -> Any:
        """Subclasses of py-scale-codec decode in ``process``; here Rust does."""
        raise NotImplementedError

    def process_encode(self, value: Any) -> ScaleBytes:
        """Subclasses of py-scale-codec encode in ``process_encode``; here Rust does."""
        raise NotImplementedError

    def _decode_value(self, data: bytearray, offset: int, check_remaining: bool):
        cls = type(self)
        node = cls.__dict__.get("_node")
        # Classes from get_decoder_class know their graph node: skip the
        # type-string lookup when the object still decodes as its class does.
        if node is not None and self.runtime_config is cls.__dict__.get("_runtime_config") \
                and "type_string" not in self.__dict__:
            return self.runtime_config._registry.decode_node(node, data, offset, check_remaining)
        if self.type_string is None:
            raise NotImplementedError(f"{type(self).__name__} has no type string to decode with")
        return self.runtime_config._registry.decode(self.type_string, data, offset, check_remaining)

    def _before_decode(self) -> None:
        if self.metadata is not None:
            self.runtime_config._sync_metadata(self.metadata)

    def _after_decode(self) -> None:
        pass

    def get_next_bytes(self, length: int) -> bytearray:
        """Reads ``length`` bytes from the data."""
        return self.data.get_next_bytes(length)

    def get_remaining_bytes(self) -> bytearray:
        """The data after its offset."""
        return self.data.get_remaining_bytes()

    def get_used_bytes(self) -> bytearray:
        """The bytes the last decode consumed."""
        if self.data is None or self.data_start_offset is None:
            return bytearray()
        end = self.data_end_offset if self.data_end_offset is not None else self.data.offset
        return self.data.data[self.data_start_offset:end]

    # -- encoding --------------------------------------------------------

    def _encode_value(self, value: Any) -> bytes:
        if self.type_string is None:
            raise NotImplementedError(f"{type(self).__name__} has no type string to encode with")
        return self.runtime_config._registry.encode(self.type_string, value)

    def _encoded_value(self, value: Any) -> Any:
        if isinstance(value, ScaleDecoder):
            return value.value
        return value

    # -- helpers ---------------------------------------------------------

    @classmethod
    def convert_type(cls, name: str) -> str:
        """py-scale-codec's normalisation of a legacy type name."""
        return _core.convert_type_string(name)

    @classmethod
    def get_decoder_class(cls, type_string: str, data: Optional[ScaleBytes] = None,
                          runtime_config: Optional[RuntimeConfigurationObject] = None, **kwargs):
        """A scale object of ``type_string`` (py-scale-codec's classmethod form)."""
        config = runtime_config or RuntimeConfiguration()
        return config.create_scale_object(type_string, data=data, **kwargs)

    def __str__(self) -> str:
        return str(self.value)

    def __repr__(self) -> str:
        return f"<{type(self).__name__}(value={self.value!r})>"

    def _plain(self, other: Any) -> Any:
        return other.value if isinstance(other, ScaleDecoder) else other

    def __eq__(self, other: object) -> bool:
        return self.value == self._plain(other)

    def __ne__(self, other: object) -> bool:
        return not self.__eq__(other)

    def __lt__(self, other: Any) -> bool:
        return self.value < self._plain(other)

    def __le__(self, other: Any) -> bool:
        return self.value <= self._plain(other)

    def __gt__(self, other: Any) -> bool:
        return self.value > self._plain(other)

    def __ge__(self, other: Any) -> bool:
        return self.value >= self._plain(other)

    def __hash__(self) -> int:
        try:
            return hash(self.value)
        except TypeError:
            return id(self)

    def __getitem__(self, item: Any) -> Any:
        return self.value_object[item]

    def __iter__(self):
        return iter(self.value_object)

    def __int__(self) -> int:
        return int(self.value)

    def __float__(self) -> float:
        return float(self.value)

    def __bool__(self) -> bool:
        return True

    def __reduce__(self):
        # (type string, the bytes behind the value, configuration): the value
        # is rebuilt by decoding those bytes in the unpickled configuration.
        data = bytes(self.get_used_bytes()) if self.data is not None and self.data_end_offset is not None else None
        return (_restore_object, (self.type_string, data, self.runtime_config))

    def serialize(self) -> Any:
        """The value as plain Python data."""
        return self.value_serialized


def _restore_object(type_string: str, data: Optional[bytes], config: RuntimeConfigurationObject):
    obj = config.create_scale_object(type_string, data=ScaleBytes(data) if data is not None else None)
    if data is not None:
        obj.decode()
    return obj


class ScaleType(ScaleDecoder):
    """A scale object that may carry runtime metadata (for calls and events)."""

    def __init__(self, data: Optional[ScaleBytes] = None, sub_type: Optional[str] = None,
                 metadata: Optional["ScaleType"] = None, runtime_config: Optional[RuntimeConfigurationObject] = None,
                 **kwargs):
        if data is not None and not isinstance(data, ScaleBytes):
            raise ValueError("Provided data is not in supported format: provided '{}'".format(type(data).__name__))
        if runtime_config is None:
            runtime_config = type(self).__dict__.get("_runtime_config") or RuntimeConfiguration()
        self.runtime_config = runtime_config
        self.data = data
        self.data_start_offset = data.offset if data is not None else None
        if sub_type is not None:
            self.sub_type = sub_type
        if metadata is not None:
            self.metadata = metadata


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
        if isinstance(value, (list, tuple, dict)):
            return _wrap_parts(value, self.runtime_config)
        return value


def _wrap_parts(value: Any, config: RuntimeConfigurationObject) -> Any:
    if isinstance(value, list):
        return [_Part(v, config) for v in value]
    if isinstance(value, tuple):
        return tuple(_Part(v, config) for v in value)
    if isinstance(value, dict):
        return {k: _Part(v, config) for k, v in value.items()}
    return value


