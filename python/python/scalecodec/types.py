"""Scale classes: one per node kind (the classes ``get_decoder_class`` makes
derive from these), the few with attributes users reach for (extrinsics,
calls, events, metadata, Era, account ids), and py-scale-codec's other class
names. Every class decodes and encodes through the Rust registry of its
runtime configuration; the classes here only add views on the value.
"""
from __future__ import annotations

from datetime import datetime, timezone
from typing import Any, Dict, List, Optional, Tuple as TypingTuple

from scalecodec import _core
from scalecodec._core import TypeKind as K
from scalecodec.base import (
    RuntimeConfiguration,
    RuntimeConfigurationObject,
    ScaleBytes,
    ScaleDecoder,
    ScalePrimitive,
    ScaleType,
    _Part,
    _raw_bytes,
    _typed_part,
    _user_definition,
    _wrap_parts,
)
from scalecodec.constants import TYPE_DECOMP_MAX_RECURSIVE
from scalecodec.utils.math import next_power_of_two, trailing_zeros
from scalecodec.utils.ss58 import is_valid_ss58_address, ss58_decode, ss58_decode_account_index, ss58_encode
from scalecodec.exceptions import (  # noqa: F401 (py-scale-codec exports them here too)
    InvalidScaleTypeValueException,
    MetadataCallFunctionNotFound,
    RemainingScaleBytesNotEmptyException,
)

# --------------------------------------------------------------------------
# Node kinds


class _TypeStringOf:
    """The ``type_string`` of a class used directly or subclassed without a
    type string (``Vec()``, ``type("V", (Vec,), {"sub_type": "u32"})``):
    written from its ``sub_type`` / ``element_count``, so that Rust decodes
    and encodes it like the type string. A class made for a type string, or
    an instance given one, has its own ``type_string``, which wins."""

    def __init__(self, template: str, default: Optional[str] = None):
        self.template, self.default = template, default

    def __get__(self, obj: Any, cls: type) -> Optional[str]:
        owner = obj if obj is not None else cls
        sub = getattr(owner, "sub_type", None) or self.default
        if sub is None:
            return None
        return self.template.format(sub=sub, count=getattr(owner, "element_count", 0))


class _DefinedTypeString:
    """The ``type_string`` of a user's enum or set class
    (``type("E", (Enum,), {"value_list": […]})``): its own name, which the
    object's configuration learns (``_declared_name``) when an object
    first reads it, so that Rust decodes and encodes it by that name."""

    #: ``_user_definition`` does not read a type string from this descriptor.
    names_its_class = True

    def __get__(self, obj: Any, cls: type) -> Optional[str]:
        if cls.__module__.startswith("scalecodec") or _user_definition(cls) is None:
            return None
        if obj is not None:
            try:
                return obj.runtime_config._declared_name(cls)
            except NotImplementedError:
                pass  # a definition the registry refuses: decoding says why
        return cls.__name__


class Null(ScaleType, kinds=(K.Null,)): """Zero bytes, value ``None``."""
class Compact(ScaleType, kinds=(K.Compact,)):
    """``Compact<T>``."""

    type_string = _TypeStringOf("Compact<{sub}>", "u128")

class Option(ScaleType, kinds=(K.Option,)):
    """``Option<T>``: ``None`` or the inner value."""

    type_string = _TypeStringOf("Option<{sub}>")

class OptionBytes(Option): """``Option<Vec<u8>>``."""


class Bytes(ScaleType, kinds=(K.Bytes,)):
    """``Vec<u8>``/``Bytes``: text when valid UTF-8, else ``"0x…"``;
    ``value_object`` is the bytes (a ``bytearray``), as py-scale-codec keeps them."""

    def _build_value_object(self, value: Any) -> Any:
        return _raw_bytes(value) if isinstance(value, str) else value

    def serialize(self) -> Any:
        """The bytes as ``"0x…"`` hex (py-scale-codec's rendering of ``Bytes``)."""
        value = self.value
        return "0x" + _raw_bytes(value).hex() if isinstance(value, str) else value

    # py-scale-codec shows Bytes by their serialization (hex), not the text
    def __str__(self) -> str:
        return str(self.serialize())

    def __repr__(self) -> str:
        return f"<{type(self).__name__}(value={self.serialize()})>"


class String(ScaleType, kinds=(K.Str,)):
    """Text; ``value_object`` is its UTF-8 bytes (a ``bytearray``), as py-scale-codec keeps them."""

    def _build_value_object(self, value: Any) -> Any:
        return _raw_bytes(value) if isinstance(value, str) else value



Str = GenericStringType = Text = String


class HexBytes(ScaleType, kinds=(K.HexBytes,)): """Bytes always rendered ``"0x…"``."""
class Vec(ScaleType, kinds=(K.Seq,)):
    """``Vec<T>``."""

    type_string = _TypeStringOf("Vec<{sub}>")

    def __len__(self) -> int:
        return len(self.value_object)

    def __bool__(self) -> bool:
        # py-scale-codec's Vec is falsy when empty (through __len__)
        value_object = self.value_object
        return value_object is None or len(value_object) > 0

    @property
    def elements(self) -> list:
        """The element objects (``[]`` before decoding)."""
        value_object = self.value_object
        return value_object if isinstance(value_object, list) else []
class BoundedVec(Vec): """``BoundedVec<T, S>``."""
class BTreeSet(Vec):
    """``BTreeSet<T>``."""

    type_string = _TypeStringOf("BTreeSet<{sub}>")



class FixedLengthArray(ScaleType, kinds=(K.Array, K.ByteArray)):
    element_count = 0
    type_string = _TypeStringOf("[{sub}; {count}]")

    """``[T; N]`` (a list of another length is encoded element by element, as
    py-scale-codec does)."""


class Enum(ScaleType, kinds=(K.Enum, K.Result)):
    """An enum: ``"Name"`` or ``{"Name": value}``."""

    value_list: Any = []
    type_string = _DefinedTypeString()

    @property
    def index(self) -> Optional[int]:
        """The variant index (the discriminant byte) of the decoded or encoded
        value, when known."""
        index = self.__dict__.get("_index")
        if index is None and self.data_end_offset is not None:
            used = self.get_used_bytes()
            if len(used) > 0:
                return used[0]
        if index is None and self.decoded:
            value = self.value
            name = next(iter(value)) if isinstance(value, dict) and len(value) == 1 else value
            names = type(self).value_list
            if isinstance(name, str) and isinstance(names, (list, tuple)) and name in names:
                index = list(names).index(name)
        return index

    @index.setter
    def index(self, value: Optional[int]) -> None:
        self._index = value

    def get_enum_value(self) -> Any:
        """The variant's value (its name for a unit variant), ``None`` before decoding."""
        value = self.value
        if not value:
            return None
        return next(iter(value.values())) if isinstance(value, dict) and len(value) == 1 else value


class Set(ScaleType, kinds=(K.Set,)):
    """A bit-flag set: list of flag names."""

    value_list: Any = []
    value_type = "u64"
    type_string = _DefinedTypeString()

    @property
    def set_value(self) -> Optional[int]:
        """The flags as the integer they are encoded as (``None`` before decoding)."""
        used = self.get_used_bytes()
        return int.from_bytes(bytes(used), "little") if self.data_end_offset is not None else None



class BitVec(ScaleType, kinds=(K.BitSeq,)):
    """A bit sequence ``"0b…"``; encoded from an int, a ``"0b…"`` string or a
    list of bools, its length the number's bit length (py-scale-codec's)."""


class Map(ScaleType):
    """A map: list of ``(key, value)``."""

    def _sub_types(self) -> List[Optional[str]]:
        parts = _core.tuple_elements(f"({self.sub_type})") if self.sub_type else []
        return (parts + [None, None])[:2]

    @property
    def map_key(self) -> Optional[str]:
        """The key type (from ``sub_type``)."""
        return self._sub_types()[0]

    @property
    def map_value(self) -> Optional[str]:
        """The value type (from ``sub_type``)."""
        return self._sub_types()[1]

class BTreeMap(Map, kinds=(K.Map,)):
    """``BTreeMap<K, V>``."""

    type_string = _TypeStringOf("BTreeMap<{sub}>")


class HashMap(Map):
    """``HashMap<K, V>``."""

    type_string = _TypeStringOf("HashMap<{sub}>")


class BoundedBTreeMap(Map): """``BoundedBTreeMap<K, V, S>``."""


class _Composite(ScaleType):
    """Classes users define themselves (``type('X', (Struct,), {'type_mapping':
    …})``) have no type string: Rust decodes and encodes their fields."""

    def _fields(self) -> List[TypingTuple[Optional[str], str]]:
        raise NotImplementedError

    def _decode_value(self, data: bytearray, offset: int, check_remaining: bool):
        if self.type_string is not None:
            return super()._decode_value(data, offset, check_remaining)
        return self.runtime_config._registry.decode_fields(self._fields(), bytes(data), offset, check_remaining)

    def _encode_value(self, value: Any) -> bytes:
        if self.type_string is not None:
            return super()._encode_value(value)
        return self.runtime_config._registry.encode_fields(self._fields(), value)


class Tuple(_Composite, kinds=(K.Tuple,)):
    """A tuple; a 1-tuple is its element."""

    def _fields(self) -> List[TypingTuple[Optional[str], str]]:
        return [(None, t) for t in (self.type_mapping or [])]


class Struct(_Composite, kinds=(K.Struct,)):
    """A struct: dict in field order."""

    def _fields(self) -> List[TypingTuple[Optional[str], str]]:
        return [(n, t) for n, t in (self.type_mapping or [])]


# Primitives: one class per kind, named as py-scale-codec names them.
class Bool(ScalePrimitive, kinds=(K.Bool,)): """``bool``."""
class U8(ScalePrimitive, kinds=(K.U8,)): """``u8``."""
class U16(ScalePrimitive, kinds=(K.U16,)): """``u16``."""
class U32(ScalePrimitive, kinds=(K.U32,)): """``u32``."""
class U64(ScalePrimitive, kinds=(K.U64,)): """``u64``."""
class U128(ScalePrimitive, kinds=(K.U128,)): """``u128``."""
class U256(ScalePrimitive, kinds=(K.U256,)): """``u256``."""
class I8(ScalePrimitive, kinds=(K.I8,)): """``i8``."""
class I16(ScalePrimitive, kinds=(K.I16,)): """``i16``."""
class I32(ScalePrimitive, kinds=(K.I32,)): """``i32``."""
class I64(ScalePrimitive, kinds=(K.I64,)): """``i64``."""
class I128(ScalePrimitive, kinds=(K.I128,)): """``i128``."""
class I256(ScalePrimitive, kinds=(K.I256,)): """``i256``."""
class H160(ScaleType): """20 bytes, ``"0x…"``."""
class H256(ScaleType): """32 bytes, ``"0x…"``."""
class H512(ScaleType): """64 bytes, ``"0x…"``."""


class RawBytes(ScaleType, names=("rawbytes",)):
    """Uninterpreted bytes: all of the remaining input, ``"0x…"``."""

    type_string = "RawBytes"

    def _decode_value(self, data: bytearray, offset: int, check_remaining: bool):
        rest = bytes(data[offset:])
        return "0x" + rest.hex(), len(rest)

    def _encode_value(self, value: Any) -> bytes:
        return bytes(ScaleBytes(value).data)


class CallBytes(RawBytes): """A call as raw bytes."""


class _Float(ScalePrimitive):
    """IEEE floats (not SCALE types; read and written by Rust)."""

    _size = 8

    def _decode_value(self, data: bytearray, offset: int, check_remaining: bool):
        return _core.decode_float(bytes(data), offset, self._size, check_remaining)

    def _encode_value(self, value: Any) -> bytes:
        return _core.encode_float(value, self._size)


class F64(_Float, names=("f64",)):
    """``f64``."""

    type_string = "f64"


class F32(_Float, names=("f32",)):
    """``f32``."""

    type_string = "f32"
    _size = 4


# --------------------------------------------------------------------------
# Specialised classes


class Era(ScaleType, kinds=(K.Era,)):
    """``Era``: ``"00"`` (immortal) or ``(period, phase)``."""

    type_string = "Era"

    @property
    def period(self) -> Optional[int]:
        """The mortal era's period, ``None`` when immortal."""
        return self.value[0] if isinstance(self.value, tuple) else None

    @property
    def phase(self) -> Optional[int]:
        """The mortal era's phase, ``None`` when immortal."""
        return self.value[1] if isinstance(self.value, tuple) else None

    def is_immortal(self) -> bool:
        """Whether the era is immortal."""
        return not isinstance(self.value, tuple)

    def birth(self, current: int) -> int:
        """The first block of the era that contains ``current``."""
        return _core.era_birth(self.value, current)

    def death(self, current: int) -> int:
        """The block after the last one of the era that contains ``current``."""
        return _core.era_death(self.value, current)

    def _encoded_value(self, value: Any) -> Any:
        # the value of an encoded Era is what decoding its bytes gives
        return self.runtime_config._registry.decode(self.type_string, bytes(self.data.data))[0]


class GenericAccountId(ScaleType, kinds=(K.AccountId,)):
    """A 32-byte account id; ``ss58_address`` when an SS58 format is set.
    ``public_key`` and ``ss58_address`` are worked out when read, so that
    decoding needs no Python hook."""

    type_string = "AccountId"

    @property
    def public_key(self) -> Optional[str]:
        """``"0x…"`` hex of the 32 bytes (``None`` before decode/encode)."""
        if "_public_key" in self.__dict__ or self.data_end_offset is None:
            return self.__dict__.get("_public_key")
        return "0x" + bytes(self.get_used_bytes()).hex()

    @public_key.setter
    def public_key(self, value: Optional[str]) -> None:
        self.__dict__["_public_key"] = value

    @property
    def ss58_address(self) -> Optional[str]:
        """The SS58 address in the configuration's format (``None`` without one)."""
        if "_ss58_address" in self.__dict__ or self.data_end_offset is None:
            return self.__dict__.get("_ss58_address")
        if isinstance(self.value, str) and not self.value.startswith("0x"):
            return self.value
        fmt = self.runtime_config.ss58_format
        return _core.ss58_encode(bytes(self.get_used_bytes()), fmt) if fmt is not None else None

    @ss58_address.setter
    def ss58_address(self, value: Optional[str]) -> None:
        self.__dict__["_ss58_address"] = value

    def _encoded_value(self, value: Any) -> Any:
        raw, fmt = bytes(self.get_used_bytes()), self.runtime_config.ss58_format
        return _core.ss58_encode(raw, fmt) if fmt is not None else "0x" + raw.hex()


class GenericEthereumAccountId(ScaleType, kinds=(K.EthereumAccountId,)): """A 20-byte account id."""
class GenericAccountIndex(ScaleType, kinds=(K.AccountIndex,)): """An account index."""


class GenericMultiAddress(Enum, kinds=(K.MultiAddress,)):
    """``MultiAddress``: the bare account id for ``Id``, else ``{"Variant": value}``
    (encoded also from an account index, as py-scale-codec takes it)."""

    type_string = "MultiAddress"

    @property
    def account_id(self) -> Optional[str]:
        """The 32-byte account (hex without ``0x``) behind ``Id``, ``Address32``,
        ``Address20`` and ``Raw`` addresses, else ``None``."""
        return _core.multi_address_account_id(bytes(self.get_used_bytes()))

    @property
    def account_index(self) -> Optional[int]:
        """The account index when the address is an ``Index``."""
        value = self.value
        return value.get("Index") if isinstance(value, dict) else value if isinstance(value, int) else None


class GenericAddress(ScaleType, kinds=(K.LegacyAddress,)):
    """The pre-MultiAddress ``Address`` encoding."""


AccountIdAddress = RawAddress = GenericAddress


class MultiAccountId(GenericAccountId, names=("multiaccountid",)):
    """A multisig account id (``signatories``, ``threshold`` when made by
    ``create_from_account_list``)."""

    threshold: Optional[int] = None

    @property
    def signatories(self) -> List[str]:
        """The member accounts, hex, sorted."""
        return self.__dict__.get("_signatories", [])

    @signatories.setter
    def signatories(self, value: List[str]) -> None:
        self.__dict__["_signatories"] = value

    @classmethod
    def create_from_account_list(cls, accounts: List[str], threshold: int) -> "MultiAccountId":
        """The multisig account of ``accounts`` (SS58 or hex) with ``threshold``."""
        account = _core.multi_account_id(accounts, threshold)
        obj = cls(runtime_config=cls.__dict__.get("_runtime_config") or RuntimeConfiguration())
        obj.type_string = "AccountId"
        obj.encode(account)
        obj.value = account  # py-scale-codec gives it as hex whatever the SS58 format
        obj.signatories = sorted(a if a.startswith("0x") else "0x" + _core.ss58_decode(a) for a in accounts)
        obj.threshold = threshold
        return obj


class _MetaRef(_Part):
    """A pallet or call named by a decoded call (``call_module``/``call_function``)."""

    @property
    def name(self) -> Any:
        """The name."""
        return self.value.get("name") if isinstance(self.value, dict) else self.value


def _call_view(value: Any, config: RuntimeConfigurationObject) -> Any:
    if not isinstance(value, dict):
        return _wrap_parts(value, config)
    view = {k: (_MetaRef(v, config) if k in ("call_module", "call_function") else _Part(v, config))
            for k, v in value.items()}
    if isinstance(value.get("call_args"), list):
        view["call_args"] = [{**a, "value": _Part(a["value"], config)} if isinstance(a, dict) and "value" in a
                             else _Part(a, config) for a in value["call_args"]]
    return view


class _CallAccess:
    """A call's ``value_object`` (pallet and call as objects with ``.name``)
    and its ``call_module`` / ``call_function``."""

    def _build_value_object(self, value: Any) -> Any:
        return _call_view(value, self.runtime_config)

    @property
    def call_module(self) -> Any:
        """The pallet (``.name``)."""
        return self.value_object["call_module"]

    @property
    def call_function(self) -> Any:
        """The call (``.name``)."""
        return self.value_object["call_function"]


class GenericCall(_CallAccess, ScaleType, kinds=(K.Call,)):
    """A call: ``{"call_index", "call_function", "call_module", "call_args", "call_hash"}``."""

    type_string = "Call"

    @property
    def call_index(self) -> Optional[str]:
        """The pallet and call index in hex, without ``0x`` (as py-scale-codec keeps it)."""
        index = self.value.get("call_index") if isinstance(self.value, dict) else None
        return index[2:] if isinstance(index, str) and index.startswith("0x") else index

    @property
    def call_args(self) -> Any:
        """The arguments (``{"name", "type", "value"}`` with value objects)."""
        return self.value_object["call_args"] if isinstance(self.value, dict) else {}

    @property
    def call_hash(self) -> Optional[str]:
        """The call's hash (``"0x…"``)."""
        return self.value.get("call_hash") if isinstance(self.value, dict) else None


class _CallPart(_CallAccess, _Part): """The call inside a decoded extrinsic."""


class _UsedBytesPart(_Part):
    """A part whose ``get_used_bytes()`` are the bytes it was decoded from."""

    def __init__(self, value: Any, runtime_config: RuntimeConfigurationObject, used: bytes):
        super().__init__(value, runtime_config)
        self.data = ScaleBytes(bytearray(used))
        self.data_start_offset, self.data_end_offset = 0, len(used)

    def __reduce__(self) -> tuple:
        return (type(self), (self.value, self.runtime_config, bytes(self.get_used_bytes())))


class GenericExtrinsic(ScaleType, kinds=(K.Extrinsic,)):
    """An extrinsic (compact-length prefixed) as py-scale-codec shows it; it is
    encoded also from py-scale-codec's ``account_id`` and ``signature_version``."""

    type_string = "Extrinsic"

    @property
    def signed(self) -> Optional[bool]:
        """Whether the decoded extrinsic carries a signature (``None`` before decoding)."""
        return "signature" in self.value if self.decoded and isinstance(self.value, dict) else None

    @property
    def version(self) -> Optional[int]:
        """The extrinsic format: 4, or 5 for a bare or general (``0x45``) transaction, whose
        value also names its ``extension_version`` (``None`` before decoding)."""
        return self.value.get("version", 4) if self.decoded and isinstance(self.value, dict) else None

    def _build_value_object(self, value: Any) -> Any:
        view = _wrap_parts(value, self.runtime_config)
        if not isinstance(value, dict):
            return view
        if "call" in value:
            view["call"] = _CallPart(value["call"], self.runtime_config)
        if "extrinsic_length" in value:
            prefix = _core.encode_compact(value["extrinsic_length"])
            view["extrinsic_length"] = _UsedBytesPart(value["extrinsic_length"], self.runtime_config, prefix)
        if "era" in value:
            view["era"] = era = Era(runtime_config=self.runtime_config)
            try:
                era.encode(value["era"])
            except (ValueError, TypeError):
                era.value = value["era"]
        return view

    @property
    def extrinsic_hash(self) -> Optional[str]:
        """The extrinsic's hash, when the decoder reported one."""
        return self.value.get("extrinsic_hash") if isinstance(self.value, dict) else None


GenericExtrinsicV4 = GenericExtrinsic


class Extrinsic(GenericExtrinsic): """``Extrinsic`` (instantiable directly with ``metadata=``)."""
def _event_lookup(obj: ScaleType, value: Any) -> TypingTuple[Any, Any]:
    """The pallet and event metadata objects of a decoded event value
    (``(None, None)`` without metadata)."""
    metadata = obj.metadata or obj.runtime_config.metadata
    if metadata is None or not isinstance(value, dict):
        return None, None
    pallet = metadata.get_metadata_pallet(value.get("module_id"))
    event = next((e for e in (pallet.events or []) if e.name == value.get("event_id")), None) if pallet else None
    return pallet, event


class GenericEvent(Enum, kinds=(K.Event,)):
    """A runtime event: ``{"event_index", "module_id", "event_id", "attributes"}``."""

    #: Never set, as in py-scale-codec.
    event_idx = None

    @property
    def index(self) -> Optional[int]:
        """``None`` for a V9–V13 event (py-scale-codec sets no index there); a
        scale-info event's pallet byte."""
        return Enum.index.fget(self) if isinstance(self, GenericScaleInfoEvent) else None

    @index.setter
    def index(self, value: Optional[int]) -> None:
        self._index = value

    @property
    def event_index(self) -> Optional[str]:
        """The pallet and event index in hex."""
        return self.value.get("event_index") if isinstance(self.value, dict) else None

    @property
    def attributes(self) -> Any:
        """The event's arguments."""
        return self.value.get("attributes") if isinstance(self.value, dict) else []

    @property
    def event_module(self) -> Any:
        """The pallet metadata object (``None`` without metadata)."""
        return _event_lookup(self, self.value)[0]

    @property
    def event(self) -> Any:
        """The event metadata object (``None`` without metadata)."""
        return _event_lookup(self, self.value)[1]


class GenericScaleInfoEvent(GenericEvent, kinds=(K.ScaleInfoEvent,)): """A scale-info runtime event."""


class GenericEventRecord(ScaleType, kinds=(K.EventRecord,)):
    """An event record (phase, event, topics)."""

    def _get(self, key: str, default: Any = None) -> Any:
        return self.value.get(key, default) if isinstance(self.value, dict) else default

    @property
    def event_index(self) -> Any:
        """The event's index (hex)."""
        return self._get("event_index")

    @property
    def phase(self) -> Any:
        """The phase (``"ApplyExtrinsic"``, ``"Finalization"``, ``"Initialization"``)."""
        return self._get("phase")

    @property
    def extrinsic_idx(self) -> Optional[int]:
        """The extrinsic's position for an ``ApplyExtrinsic`` phase."""
        return self._get("extrinsic_idx")

    @property
    def params(self) -> Any:
        """The event's arguments."""
        return self._get("attributes", [])

    @property
    def topics(self) -> Any:
        """The topics."""
        return self._get("topics", [])

    @property
    def arguments(self) -> Any:
        """The event's arguments (as ``params``)."""
        return self._get("attributes", [])

    @property
    def event_module(self) -> Any:
        """The pallet metadata object (``None`` without metadata)."""
        return _event_lookup(self, self._get("event"))[0]

    @property
    def event(self) -> Any:
        """The event metadata object (``None`` without metadata)."""
        return _event_lookup(self, self._get("event"))[1]


EventRecord = GenericEventRecord


class GenericVote(ScaleType, kinds=(K.Vote,)): """A conviction vote byte."""
class Data(Enum, kinds=(K.IdentityData,)): """Identity ``Data``."""


class WrapperKeepOpaque(ScaleType, kinds=(K.WrapperKeepOpaque,), names=("wrapperkeepopaque",)):
    """``WrapperKeepOpaque<T>``: length-prefixed bytes holding a ``T``; the
    value is the ``T``, or ``"0x…"`` of the bytes when they do not decode as
    one. ``type_mapping = (length type, T)`` may be set after creation
    (py-scale-codec's way of naming ``T``)."""

    type_string = "WrapperKeepOpaque"

    def _decode_value(self, data: bytearray, offset: int, check_remaining: bool):
        registry = self.runtime_config._registry
        return registry.decode_opaque(self.type_string, self.type_mapping, bytes(data), offset, check_remaining)

    def _encode_value(self, value: Any) -> bytes:
        return self.runtime_config._registry.encode_opaque(self.type_string, self.type_mapping, value)


class OpaqueCall(WrapperKeepOpaque, names=("opaquecall",)):
    """A call inside length-prefixed bytes; the value is the call's dict."""

    type_string = "OpaqueCall"


# --------------------------------------------------------------------------
# Metadata. The object API of a decoded ``MetadataVersioned`` is its
# ``value_object``: typed parts (``base._typed_part``) with the classes the
# metadata definitions name as ``base_class``, defined below, each reading its
# share of the value Rust decoded.


def _type_id_string(type_id: Any) -> str:
    return f"scale_info::{type_id}"


class GenericStringType(String):
    """Text used as a type name (``name`` is ``None``, ``type`` the text)."""

    @property
    def name(self) -> None:
        """Always ``None``."""
        return None

    @property
    def type(self) -> Any:
        """The text."""
        return self.value


class GenericRegistryType(Struct):
    """A portable-registry type (``path``, ``params``, ``def``, ``docs``)."""

    @property
    def docs(self) -> Any:
        """Documentation lines."""
        return self.value["docs"]


class GenericField(Struct):
    """A field of a composite or variant (portable registry)."""

    @property
    def name(self) -> Any:
        """The field name (``None`` for a tuple-like field)."""
        return self.value["name"]

    @property
    def docs(self) -> Any:
        """Documentation lines."""
        return self.value["docs"]

    @property
    def type(self) -> str:
        """``scale_info::N`` of the field's type."""
        return self.get_type_string()

    def get_type_string(self) -> str:
        """``scale_info::N`` of the field's type."""
        return _type_id_string(self.value["type"])


class GenericVariant(Struct):
    """A variant (a call, event or error of a V14+ pallet)."""

    @property
    def args(self) -> Any:
        """The fields (``GenericField`` objects)."""
        return self.value_object["fields"]

    def get_param_info(self, max_recursion: int = TYPE_DECOMP_MAX_RECURSIVE) -> dict:
        """``{field name: type decomposition}`` of the fields."""
        return {arg.name: self.runtime_config.create_scale_object(arg.type).generate_type_decomposition(
            max_recursion=max_recursion) for arg in self.args}

    @property
    def name(self) -> Any:
        """The variant name."""
        return self.value["name"]

    @property
    def docs(self) -> Any:
        """Documentation lines."""
        return self.value["docs"]


class GenericTypeDefComposite(Struct): """A composite type definition."""


class GenericTypeDefVariant(Struct):
    """A variant type definition."""

    def get_variant_by_name(self, name: str) -> Optional[GenericVariant]:
        """The variant called ``name``."""
        return next((v for v in self.value_object["variants"] if v["name"].value == name), None)

    def get_variant_by_index(self, index: int) -> Optional[GenericVariant]:
        """The variant with index ``index``."""
        return next((v for v in self.value_object["variants"] if v["index"].value == index), None)


class GenericFunctionArgumentMetadata(Struct):
    """An argument of a V9–V13 call."""

    @property
    def name(self) -> Any:
        """The argument name."""
        return self.value["name"]

    @property
    def type(self) -> str:
        """The argument type, normalised."""
        return self.convert_type(self.value["type"])


class ScaleInfoFunctionArgumentMetadata(GenericFunctionArgumentMetadata):
    """An argument of a V14+ call."""

    @property
    def type(self) -> str:
        """The type name when the metadata gives one, else ``scale_info::N``."""
        return self.value.get("typeName") or _type_id_string(self.value["type"])


class GenericFunctionMetadata(Struct):
    """A V9–V13 call."""

    @property
    def name(self) -> Any:
        """The call name."""
        return self.value["name"]

    def get_identifier(self) -> Any:
        """The call name."""
        return self.value["name"]

    @property
    def args(self) -> Any:
        """The arguments (``GenericFunctionArgumentMetadata`` objects)."""
        return self.value_object["args"].value_object

    @property
    def docs(self) -> Any:
        """Documentation lines."""
        return self.value["documentation"]


class _PalletEnumMetadata(Struct):
    """A V14+ pallet's call, event or error enum (``ty``): its variants."""

    def get_type_string(self) -> str:
        """``scale_info::N`` of the enum."""
        return _type_id_string(self.value["ty"])

    def _variants(self) -> Any:
        if not self.value_object:
            return []
        # the metadata this is part of has the enum's registry entry (the
        # configuration too, once the metadata is added to it)
        root = self.__dict__.get("_parts_root")
        registry_type = root._registry_type(self.value["ty"]) if root is not None else None
        if registry_type is None:
            registry_type = self.runtime_config.get_decoder_class(self.get_type_string()).scale_info_type
        return registry_type["def"][1]["variants"]


class ScaleInfoCallMetadata(_PalletEnumMetadata):
    """A V14+ pallet's calls."""

    @property
    def calls(self) -> Any:
        """The calls (``GenericVariant`` objects)."""
        return self._variants()


class ScaleInfoPalletErrorMetadata(_PalletEnumMetadata):
    """A V14+ pallet's errors."""

    @property
    def errors(self) -> Any:
        """The errors (``GenericVariant`` objects)."""
        return self._variants()


class ScaleInfoPalletEventMetadata(_PalletEnumMetadata):
    """A V14+ pallet's events."""

    @property
    def events(self) -> Any:
        """The events (``GenericVariant`` objects)."""
        return self._variants()


class GenericStorageEntryMetadata(Struct):
    """A V9–V13 storage function (and the storage-version entry of every pallet)."""

    @property
    def name(self) -> Any:
        """The storage function's name."""
        return self.value["name"]

    @property
    def modifier(self) -> Any:
        """``"Optional"`` or ``"Default"``."""
        return self.value["modifier"]

    @property
    def type(self) -> Any:
        """``{"Plain": …}``, ``{"Map": …}``, ``{"DoubleMap": …}`` or ``{"NMap": …}``."""
        return self.value["type"]

    @property
    def docs(self) -> Any:
        """Documentation lines."""
        return self.value["documentation"]

    def get_type_string_for_type(self, ty: Any) -> str:
        """The type string of a type named in the entry."""
        return self.convert_type(ty)

    def _shape(self) -> TypingTuple[str, Any]:
        ty = self.value["type"]
        for shape in ("Plain", "Map", "DoubleMap", "NMap"):
            if shape in ty:
                return shape, ty[shape]
        raise NotImplementedError(f"storage entry type {ty!r}")

    def get_value_type_string(self) -> str:
        """The value type."""
        shape, ty = self._shape()
        return self.get_type_string_for_type(ty if shape == "Plain" else ty["value"])

    def get_params_type_string(self) -> List[str]:
        """The key types, one per hasher."""
        shape, ty = self._shape()
        keys = [] if shape == "Plain" else [ty["key"]] if shape == "Map" else \
            [ty["key1"], ty["key2"]] if shape == "DoubleMap" else ty["keys"]
        return [self.get_type_string_for_type(k) for k in keys]

    def get_param_hashers(self) -> List[str]:
        """The hashers, one per key (``Twox64Concat`` for a plain entry)."""
        shape, ty = self._shape()
        return ["Twox64Concat"] if shape == "Plain" else [ty["hasher"]] if shape == "Map" else \
            [ty["hasher"], ty["key2_hasher"]] if shape == "DoubleMap" else ty["hashers"]

    def get_param_info(self, max_recursion: int = TYPE_DECOMP_MAX_RECURSIVE) -> list:
        """Not available for V9–V13 entries (as in py-scale-codec)."""
        raise NotImplementedError()


class ScaleInfoStorageEntryMetadata(GenericStorageEntryMetadata):
    """A V14+ storage function."""

    def get_type_string_for_type(self, ty: Any) -> str:
        """``scale_info::N``."""
        return _type_id_string(ty)

    def get_value_type_string(self) -> str:
        """``scale_info::N`` of the value."""
        shape, ty = self._shape()
        if shape not in ("Plain", "Map"):
            raise NotImplementedError()
        return self.get_type_string_for_type(ty if shape == "Plain" else ty["value"])

    def get_key_type_string(self) -> Optional[str]:
        """``scale_info::N`` of the (possibly tuple) key of a map."""
        ty = self.value["type"]
        return self.get_type_string_for_type(ty["Map"]["key"]) if "Map" in ty else None

    def _key_class(self) -> Optional[type]:
        key = self.get_key_type_string()
        return None if key is None else self.runtime_config.get_decoder_class(key)

    def get_params_type_string(self) -> List[str]:
        """The key types: a tuple key with several hashers gives one type per hasher."""
        shape, _ = self._shape()
        if shape == "Plain":
            return []
        if shape != "Map":
            raise NotImplementedError()
        key_class = self._key_class()
        if key_class.type_mapping and key_class.scale_info_type["def"][0] == "tuple" and \
                len(self.get_param_hashers()) > 1:
            return key_class.type_mapping
        return [self.get_key_type_string()]

    def get_key_scale_info_definition(self) -> Optional[str]:
        """The definition kind of the map's key type (``"tuple"``, ``"composite"`` …)."""
        key_class = self._key_class()
        return None if key_class is None else key_class.scale_info_type["def"][0]

    def get_param_hashers(self) -> List[str]:
        """The hashers, one per key (``Twox64Concat`` for a plain entry)."""
        shape, ty = self._shape()
        if shape not in ("Plain", "Map"):
            raise NotImplementedError()
        return ["Twox64Concat"] if shape == "Plain" else ty["hashers"]

    def get_param_info(self, max_recursion: int = TYPE_DECOMP_MAX_RECURSIVE) -> list:
        """The type decomposition of each key."""
        return [self.runtime_config.create_scale_object(t).generate_type_decomposition(max_recursion=max_recursion)
                for t in self.get_params_type_string()]


class GenericRuntimeCallDefinition(Struct):
    """A runtime-API call definition of a preset's ``runtime_api``."""

    def get_param_info(self, max_recursion: int = TYPE_DECOMP_MAX_RECURSIVE) -> list:
        """The type decomposition of each parameter."""
        return [self.runtime_config.create_scale_object(p["type"]).generate_type_decomposition(
            max_recursion=max_recursion) for p in self.value["params"]]


class GenericEventMetadata(Struct):
    """A V9–V13 event."""

    @property
    def name(self) -> Any:
        """The event name."""
        return self.value["name"]

    @property
    def args(self) -> Any:
        """The argument types (a ``Vec<Type>`` object)."""
        return self.value_object["args"]

    @property
    def docs(self) -> Any:
        """Documentation lines."""
        return self.value["documentation"]


class GenericErrorMetadata(Struct):
    """A V9–V13 error."""

    @property
    def name(self) -> Any:
        """The error name."""
        return self.value["name"]

    @property
    def docs(self) -> Any:
        """Documentation lines."""
        return self.value["documentation"]


class GenericModuleConstantMetadata(Struct):
    """A V9–V13 pallet constant."""

    @property
    def name(self) -> Any:
        """The constant's name."""
        return self.value["name"]

    @property
    def type(self) -> str:
        """The constant's type, normalised."""
        return self.convert_type(self.value["type"])

    @property
    def docs(self) -> Any:
        """Documentation lines."""
        return self.value["documentation"]

    @property
    def constant_value(self) -> Optional[bytearray]:
        """The constant's SCALE bytes."""
        value = self.value_object.get("value")
        return value.value_object if value else None


class ScaleInfoModuleConstantMetadata(GenericModuleConstantMetadata):
    """A V14+ pallet constant."""

    @property
    def type(self) -> str:
        """``scale_info::N`` of the constant's type."""
        return _type_id_string(self.value["type"])


class GenericPalletMetadata(Struct):
    """A V9–V13 module."""

    @property
    def name(self) -> Any:
        """The pallet name."""
        return self.value["name"]

    def get_identifier(self) -> Any:
        """The pallet name."""
        return self.value["name"]

    @property
    def storage(self) -> Optional[list]:
        """The storage functions, the storage-version entry first (as
        py-scale-codec lists it); ``None`` without storage."""
        storage = self.value_object["storage"].value_object
        if not storage:
            return None
        version = _typed_part(dict(_core.STORAGE_VERSION_VALUE), "StorageEntryMetadataV13", self.runtime_config)
        # py-scale-codec encodes this entry, which leaves the default's text in place of its bytes
        version.value_object["default"].value_object = version.value["default"]
        return [version] + storage["entries"].value_object

    @property
    def calls(self) -> Any:
        """The calls (a ``Vec`` object), ``None`` when there are none."""
        return self.value_object["calls"].value_object

    @property
    def events(self) -> Optional[list]:
        """The events, ``None`` when there are none."""
        events = self.value_object["events"].value_object
        return events.value_object if events else None

    @property
    def constants(self) -> list:
        """The constants (``GenericModuleConstantMetadata`` objects)."""
        return self.value_object["constants"].value_object

    @property
    def errors(self) -> Any:
        """The errors."""
        return self.value_object["errors"].value_object

    def get_storage_function(self, name: str) -> Optional[GenericStorageEntryMetadata]:
        """The storage function called ``name`` (``PalletVersion``: the storage version)."""
        name = _core.STORAGE_VERSION_VALUE["name"] if name == "PalletVersion" else name
        return next((e for e in self.storage or [] if e.value["name"] == name), None)


class ScaleInfoPalletMetadata(GenericPalletMetadata):
    """A V14+ pallet."""

    def _enum(self, field: str) -> Any:
        # V16 has one enum-metadata type for calls, events and errors
        inner = self.value_object[field].value_object
        return inner._variants() if inner else []

    @property
    def calls(self) -> Any:
        """The calls (``GenericVariant`` objects; ``[]`` without calls)."""
        return self._enum("calls")

    @property
    def events(self) -> Any:
        """The events (``GenericVariant`` objects; ``[]`` without events)."""
        return self._enum("event")

    @property
    def errors(self) -> Any:
        """The errors (``GenericVariant`` objects; ``[]`` without errors)."""
        return self._enum("error")


class GenericMetadataAll(Enum):
    """The versioned metadata enum (``{"V14": MetadataV14}``): pallets and,
    for V9–V13, the call / event / error indexes."""

    @property
    def _inner(self) -> Any:
        return self.value_object[1]

    @property
    def pallets(self) -> list:
        """The pallets (modules) as objects."""
        return self._inner.value_object["pallets" if self.index >= 14 else "modules"].value_object

    def _indexes(self) -> TypingTuple[dict, dict, dict]:
        built = self.__dict__.get("_built_indexes")
        if built is None:
            built = self.__dict__["_built_indexes"] = self._build_indexes()
        return built

    def _build_indexes(self) -> TypingTuple[dict, dict, dict]:
        # V12/V13 modules carry their index; V9–V11 count the modules that have calls / events / errors
        calls, events, errors = {}, {}, {}
        if self.index >= 14:
            return calls, events, errors
        counters = [0, 0, 0]
        for module in self._inner["modules"]:
            numbered = self.index >= 12
            for slot, (field, table) in enumerate((("calls", calls), ("events", events))):
                entries = module[field].value_object
                if entries is None:
                    continue
                position = module["index"].value if numbered else counters[slot]
                for i, entry in enumerate(entries):
                    entry.lookup = f"{position:02x}{i:02x}"
                    table[entry.lookup] = (module, entry)
                counters[slot] += 1
            module_errors = module["errors"].value_object or []
            if len(module_errors) > 0:
                position = module["index"].value_object if numbered else counters[2]
                for i, error in enumerate(module_errors):
                    errors[f"{position}-{i}"] = error
                counters[2] += 1
        return calls, events, errors

    @property
    def call_index(self) -> dict:
        """``{"PPCC": (module, call)}`` (V9–V13; empty for V14+, as in py-scale-codec)."""
        return self._indexes()[0]

    @property
    def event_index(self) -> dict:
        """``{"PPEE": (module, event)}`` (V9–V13; empty for V14+)."""
        return self._indexes()[1]

    @property
    def error_index(self) -> dict:
        """``{"module-error": error}`` (V9–V13; empty for V14+)."""
        return self._indexes()[2]

    def get_call_function(self, pallet_index: int, call_index: int) -> Any:
        """``call_index["{pallet_index}-{call_index}"]`` (py-scale-codec's key form)."""
        return self.call_index.get(f"{pallet_index}-{call_index}")

    @property
    def portable_registry(self) -> Any:
        """The portable registry object (V14+), else ``None``."""
        return self._inner.value_object["types"] if self.index >= 14 else None

    def get_event(self, pallet_index: int, event_index: int) -> None:
        """Always ``None`` (as in py-scale-codec)."""
        return None

    def get_metadata_pallet(self, name: str) -> Any:
        """The pallet called ``name``, else ``None``."""
        return next((p for p in self.pallets if p.value["name"] == name), None)


class GenericMetadataVersioned(ScaleType, kinds=(K.MetadataVersioned,)):
    """``MetadataVersioned``: runtime metadata V9–V16. Rust decodes the
    value (py-scale-codec's dict) and reads the model behind
    ``get_signed_extensions``; ``value_object`` is the object tree
    (``value_object[1]`` the ``MetadataAll`` enum)."""

    type_string = "MetadataVersioned"
    _info: Optional[dict] = None
    _metadata_bytes: Optional[bytes] = None

    def _decode_value(self, data: bytearray, offset: int, check_remaining: bool):
        value, used, self._info = _core.decode_metadata(bytes(data[offset:]))
        self._metadata_bytes = bytes(data[offset:offset + used])
        return value, used

    def _before_decode(self) -> None:
        pass

    def _encode_value(self, value: Any) -> bytes:
        raise NotImplementedError("encoding MetadataVersioned is not supported")

    def _require(self) -> dict:
        if self._info is None:
            raise ValueError("metadata is not decoded")
        return self._info

    def _build_value_object(self, value: Any) -> Any:
        self._require()
        return (_typed_part(value[0], "[u8; 4]", self.runtime_config, root=self),
                _typed_part(value[1], "MetadataAll", self.runtime_config, root=self))

    def _registry_type(self, type_id: int) -> Any:
        """The portable registry's entry ``type_id`` as a ``RegistryType``
        object (V14+; ``None`` when there is none)."""
        cache = self.__dict__.setdefault("_registry_types", {})
        if type_id not in cache:
            version = self._require()["version"]
            types = self.value[1][f"V{version}"]["types"]["types"] if version >= 14 else []
            entry = types[type_id] if 0 <= type_id < len(types) and types[type_id]["id"] == type_id else \
                next((t for t in types if t["id"] == type_id), None)
            cache[type_id] = None if entry is None else _typed_part(entry["type"], "RegistryType",
                                                                     self.runtime_config, root=self)
        return cache[type_id]

    @property
    def call_index(self) -> dict:
        """``{"PPCC": (module, call)}`` (V9–V13; empty for V14+, as in py-scale-codec)."""
        return self.value_object[1].call_index

    @property
    def event_index(self) -> dict:
        """``{"PPEE": (module, event)}`` (V9–V13; empty for V14+)."""
        return self.value_object[1].event_index

    def get_module_error(self, module_index: int, error_index: int) -> Any:
        """The error ``error_index`` of the pallet with index ``module_index``."""
        if self.portable_registry:
            for module in self.pallets:
                if module["index"] == module_index and module.errors:
                    return module.errors[error_index]
            return None
        return self.value_object[1].error_index.get(f"{module_index}-{error_index}")

    def get_metadata(self) -> Any:
        """The version enum (``value_object[1]``): ``.index`` is the version,
        ``.value_object[1].value`` the version's metadata dict (py-scale-codec's)."""
        return self.value_object[1]

    @property
    def portable_registry(self) -> Any:
        """The portable registry (V14+) object, ``None`` for legacy metadata."""
        return self.value_object[1].portable_registry

    @property
    def pallets(self) -> list:
        """The pallets (modules) as objects."""
        return self.value_object[1].pallets

    def get_metadata_pallet(self, name: str) -> Any:
        """The pallet called ``name``, else ``None``."""
        return self.value_object[1].get_metadata_pallet(name)

    def get_pallet_by_index(self, index: int) -> Any:
        """The pallet with index ``index`` (a ``ValueError`` when there is none)."""
        for pallet in self.pallets:
            if pallet.value["index"] == index:
                return pallet
        raise ValueError(f'Pallet for index "{index}" not found')

    def get_signed_extensions(self) -> Dict[str, dict]:
        """Signed extensions ``{identifier: {"extrinsic", "additional_signed"}}``."""
        return dict(self._require().get("signed_extensions") or {})


MetadataVersioned = GenericMetadataVersioned

# --------------------------------------------------------------------------
# py-scale-codec's further class names: their behaviour comes from the type
# string; the names exist for imports, isinstance and presets' base_class.

CompactU32 = type("CompactU32", (Compact,), {"type_string": "Compact<u32>"})


class CompactMoment(Compact):
    """``Compact<Moment>``: a timestamp."""

    type_string = "Compact<Moment>"

    def to_datetime(self) -> datetime:
        """The value as a naive UTC datetime (py-scale-codec reads the value as seconds)."""
        return datetime.fromtimestamp(self.value, timezone.utc).replace(tzinfo=None)


class Conviction(Enum):
    """A vote's conviction."""

    type_string = "Conviction"
    CONVICTION_MASK = 0b01111111
    DEFAULT_CONVICTION = 0b00000000


class StorageHasher(Enum):
    """A storage hasher."""

    type_string = "StorageHasher"

    def _is(self, name: str) -> bool:
        return self.value == name

    def is_blake2_128(self) -> bool:
        """Whether the hasher is ``Blake2_128``."""
        return self._is("Blake2_128")

    def is_blake2_256(self) -> bool:
        """Whether the hasher is ``Blake2_256``."""
        return self._is("Blake2_256")

    def is_twoblake2_128_concat(self) -> bool:
        """Whether the hasher is ``Blake2_128Concat``."""
        return self._is("Blake2_128Concat")

    def is_twox128(self) -> bool:
        """Whether the hasher is ``Twox128``."""
        return self._is("Twox128")

    def is_twox256(self) -> bool:
        """Whether the hasher is ``Twox256``."""
        return self._is("Twox256")

    def is_twox64_concat(self) -> bool:
        """Whether the hasher is ``Twox64Concat``."""
        return self._is("Twox64Concat")

    def is_identity(self) -> bool:
        """Whether the hasher is ``Identity``."""
        return self._is("Identity")


GenericContractExecResult = type("GenericContractExecResult", (Enum,), {"type_string": "ContractExecResult"})
TypeNotSupported = type("TypeNotSupported", (ScaleType,), {})


class GenericContractExecResultV2(Struct):
    """A contract call's result (contracts pallet, runtimes after spec 267)."""

    @property
    def gas_consumed(self) -> Any:
        """The gas consumed."""
        return self.value["gas_consumed"]

    @property
    def gas_required(self) -> Any:
        """The gas required."""
        return self.value["gas_required"]

    @property
    def flags(self) -> Any:
        """The flags of a successful result, else ``None``."""
        try:
            return self.value["result"]["Ok"]["flags"]
        except (KeyError, TypeError):
            return None

    @property
    def contract_result_data(self) -> Any:
        """The returned data object of a successful result, else ``None``."""
        try:
            return self.value_object["result"][1]["data"]
        except (KeyError, TypeError, IndexError):
            return None


LogDigest = type("LogDigest", (Enum,), {})
GenericConsensusEngineId = type("GenericConsensusEngineId", (FixedLengthArray,), {})
GenericConsensus = type("GenericConsensus", (Tuple,), {})
GenericPreRuntime = type("GenericPreRuntime", (Tuple,), {})
GenericSeal = type("GenericSeal", (Tuple,), {})
GenericSealV0 = type("GenericSealV0", (Tuple,), {})
for _name in ("GenericBlock", "ProposalPreimage"):
    globals()[_name] = type(_name, (Struct,), {"__doc__": f"py-scale-codec's ``{_name}``."})

# The type strings of py-scale-codec's classes that users instantiate
# directly (``Bytes().encode("0x12")``, ``U32(ScaleBytes(…)).decode()``).
for _cls, _type_string in ((Null, "Null"), (Bytes, "Bytes"), (String, "String"), (HexBytes, "HexBytes"),
                           (OptionBytes, "Option<Bytes>"), (BitVec, "BitVec"), (Bool, "bool"), (U8, "u8"),
                           (U16, "u16"), (U32, "u32"), (U64, "u64"), (U128, "u128"), (U256, "u256"), (I8, "i8"),
                           (I16, "i16"), (I32, "i32"), (I64, "i64"), (I128, "i128"), (I256, "i256"), (H160, "H160"),
                           (H256, "H256"), (H512, "H512"), (GenericAccountIndex, "AccountIndex"),
                           (GenericEthereumAccountId, "H160"), (GenericVote, "GenericVote"), (Data, "Data")):
    if "type_string" not in _cls.__dict__:
        _cls.type_string = _type_string

__all__ = [name for name, obj in list(globals().items())
           if isinstance(obj, type) and issubclass(obj, ScaleDecoder) and not name.startswith("_")]
__all__ += ["ScaleBytes", "RuntimeConfiguration", "RuntimeConfigurationObject", "InvalidScaleTypeValueException",
            "RemainingScaleBytesNotEmptyException", "MetadataCallFunctionNotFound", "TYPE_DECOMP_MAX_RECURSIVE",
            "is_valid_ss58_address", "ss58_decode", "ss58_decode_account_index", "ss58_encode", "next_power_of_two",
            "trailing_zeros"]
