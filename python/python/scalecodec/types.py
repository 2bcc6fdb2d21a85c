"""Scale classes: one per node kind (the classes ``get_decoder_class`` makes
derive from these), the few with attributes users reach for (extrinsics,
calls, events, metadata, Era, account ids), and py-scale-codec's other class
names. Every class decodes and encodes through the Rust registry of its
runtime configuration; the classes here only add views on the value.
"""
from __future__ import annotations

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
    _wrap_parts,
)
from scalecodec.exceptions import (  # noqa: F401 (py-scale-codec exports them here too)
    InvalidScaleTypeValueException,
    MetadataCallFunctionNotFound,
    RemainingScaleBytesNotEmptyException,
)

# --------------------------------------------------------------------------
# Node kinds


class Null(ScaleType, kinds=(K.Null,)): """Zero bytes, value ``None``."""
class Compact(ScaleType, kinds=(K.Compact,)): """``Compact<T>``."""
class Option(ScaleType, kinds=(K.Option,)): """``Option<T>``: ``None`` or the inner value."""
class OptionBytes(Option): """``Option<Vec<u8>>``."""


class Bytes(ScaleType, kinds=(K.Bytes,)):
    """``Vec<u8>``/``Bytes``: text when valid UTF-8, else ``"0x…"``."""


class String(ScaleType, kinds=(K.Str,)): """Text."""


Str = GenericStringType = Text = String


class HexBytes(ScaleType, kinds=(K.HexBytes,)): """Bytes always rendered ``"0x…"``."""
class Vec(ScaleType, kinds=(K.Seq,)):
    """``Vec<T>``."""

    @property
    def elements(self) -> list:
        """The decoded elements as scale objects (py-scale-codec's
        ``elements``, its ``value_object``), ``[]`` before decoding."""
        elements = self.value_object
        return elements if isinstance(elements, list) else []

class BoundedVec(Vec): """``BoundedVec<T, S>``."""
class BTreeSet(Vec): """``BTreeSet<T>``."""


class FixedLengthArray(ScaleType, kinds=(K.Array, K.ByteArray)):
    """``[T; N]`` (a list of another length is encoded element by element, as
    py-scale-codec does)."""


class Enum(ScaleType, kinds=(K.Enum, K.Result)):
    """An enum: ``"Name"`` or ``{"Name": value}``."""

    @property
    def index(self) -> Optional[int]:
        """The variant index of the decoded value, when known."""
        return getattr(self, "_index", None)


class Set(ScaleType, kinds=(K.Set,)): """A bit-flag set: list of flag names."""


class BitVec(ScaleType, kinds=(K.BitSeq,)):
    """A bit sequence ``"0b…"``; encoded from an int, a ``"0b…"`` string or a
    list of bools, its length the number's bit length (py-scale-codec's)."""


class Map(ScaleType): """A map: list of ``(key, value)``."""
class BTreeMap(Map, kinds=(K.Map,)): """``BTreeMap<K, V>``."""
class HashMap(Map): """``HashMap<K, V>``."""
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


class GenericMultiAddress(ScaleType, kinds=(K.MultiAddress,)):
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
    """A multisig account id."""

    @classmethod
    def create_from_account_list(cls, accounts: List[str], threshold: int) -> "MultiAccountId":
        """The multisig account of ``accounts`` (SS58 or hex) with ``threshold``."""
        account = _core.multi_account_id(accounts, threshold)
        obj = (cls.__dict__.get("_runtime_config") or RuntimeConfiguration()).create_scale_object("AccountId")
        obj.encode(account)
        obj.value = account  # py-scale-codec gives it as hex whatever the SS58 format
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


class _CallPart(_CallAccess, _Part): """The call inside a decoded extrinsic."""


class _UsedBytesPart(_Part):
    """A part whose ``get_used_bytes()`` are the bytes it was decoded from."""

    def __init__(self, value: Any, runtime_config: RuntimeConfigurationObject, used: bytes):
        super().__init__(value, runtime_config)
        self.data = ScaleBytes(bytearray(used))
        self.data_start_offset, self.data_end_offset = 0, len(used)


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
class GenericEvent(ScaleType, kinds=(K.Event,)): """A runtime event."""
class GenericScaleInfoEvent(GenericEvent, kinds=(K.ScaleInfoEvent,)): """A scale-info runtime event."""


class GenericEventRecord(ScaleType, kinds=(K.EventRecord,)):
    """An event record (phase, event, topics)."""

    @property
    def event_index(self) -> Any:
        """The event's index (hex)."""
        return self.value.get("event_index") if isinstance(self.value, dict) else None


EventRecord = GenericEventRecord


class GenericVote(ScaleType, kinds=(K.Vote,)): """A conviction vote byte."""
class Data(ScaleType, kinds=(K.IdentityData,)): """Identity ``Data``."""


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
# Metadata


class GenericStorageEntryMetadata(_Part):
    """A storage function of a pallet."""

    def __init__(self, entry: dict, pallet: "GenericPalletMetadata", config: RuntimeConfigurationObject,
                 value: Any):
        super().__init__(value, config)
        self._entry, self.pallet = entry, pallet
        self.name, self.modifier, self.default = entry["name"], entry["modifier"], entry["default"]

    def get_params_type_string(self) -> List[str]:
        """The key types, one per hasher, as normalised type strings."""
        return [self.runtime_config.convert_type_string(k) for k in self._entry["keys"]]

    def get_param_hashers(self) -> List[str]:
        """The hashers, one per key (``Twox64Concat`` for a plain entry, as py-scale-codec says)."""
        return list(self._entry["hashers"]) or ["Twox64Concat"]

    def get_value_type_string(self) -> str:
        """The value type."""
        return self.runtime_config.convert_type_string(self._entry["value"])

    @property
    def docs(self) -> List[str]:
        """Documentation lines."""
        return list(self._entry["docs"])


class GenericPalletMetadata(_Part):
    """A pallet (module) of the metadata; ``value`` is its decoded dict."""

    def __init__(self, info: dict, config: RuntimeConfigurationObject, value: Any):
        super().__init__(value, config)
        self._info, self.name, self.index = info, info["name"], info["index"]

    @property
    def storage(self) -> Optional[List[GenericStorageEntryMetadata]]:
        """The storage functions (the storage version first, as py-scale-codec
        lists it), ``None`` when the pallet has no storage."""
        if self._info["storage"] is None:
            return None
        values = ((self.value or {}).get("storage") or {}).get("entries") or []
        values = [dict(_core.STORAGE_VERSION_VALUE)] + values + [None] * len(self._info["storage"]["entries"])
        return [GenericStorageEntryMetadata(e, self, self.runtime_config, v)
                for e, v in zip(self._info["storage"]["entries"], values)]

    def get_storage_function(self, name: str) -> Optional[GenericStorageEntryMetadata]:
        """The storage function called ``name`` (``PalletVersion``: the storage version)."""
        name = _core.STORAGE_VERSION_VALUE["name"] if name == "PalletVersion" else name
        return next((e for e in self.storage or [] if e.name == name), None)

    def _variants(self, kind: str) -> Optional[list]:
        e = self._info[kind]
        return None if e is None else [_MetaRef(v, self.runtime_config) for v in e["variants"]]

    @property
    def calls(self) -> Optional[list]:
        """The calls (with ``name``, ``index``, ``args``)."""
        return self._variants("calls")

    @property
    def events(self) -> Optional[list]:
        """The events."""
        return self._variants("events")

    @property
    def errors(self) -> Optional[list]:
        """The errors."""
        return self._variants("errors")

    @property
    def constants(self) -> list:
        """The constants (dicts with ``name``, ``type``, ``value`` bytes)."""
        return list(self._info["constants"])

    def get_constant(self, name: str) -> Optional[dict]:
        """The constant called ``name``."""
        return next((c for c in self._info["constants"] if c["name"] == name), None)


class _VersionEnum(_Part):
    """``value_object[1]`` of a metadata object (``get_metadata()``): the
    version enum, ``index`` its version; its ``value_object`` is
    ``("V14", <the metadata struct>)`` as in py-scale-codec 1.2.12, the struct
    an object whose ``value`` is the version's dict and whose ``value_object``
    has the fields as objects."""

    def __init__(self, value: Any, config: RuntimeConfigurationObject, index: int, inner: Any):
        super().__init__(value, config)
        self.index, self._inner = index, inner

    def _build_value_object(self, value: Any) -> Any:
        name = next(iter(value))
        return (name, _VersionStruct(value[name], self.runtime_config, f"MetadataV{self.index}", self._inner))


class _VersionStruct(_Part):
    """The metadata struct of one version (``MetadataV14`` …): ``value`` its
    dict, ``value_object`` the fields as objects (pallets as
    :class:`GenericPalletMetadata`)."""

    def __init__(self, value: Any, config: RuntimeConfigurationObject, type_string: str, fields: dict):
        super().__init__(value, config, type_string)
        self._fields = fields

    def _build_value_object(self, value: Any) -> Any:
        return self._fields


class GenericMetadataVersioned(ScaleType, kinds=(K.MetadataVersioned,)):
    """``MetadataVersioned``: runtime metadata V9–V16. Rust reads the model
    behind the helpers and decodes the value (py-scale-codec's dict)."""

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

    def _inner_value(self) -> dict:
        return self.value[1][f"V{self._require()['version']}"]

    def _pallet_objects(self) -> List[GenericPalletMetadata]:
        pallets = self._inner_value()["pallets" if self._require()["version"] >= 14 else "modules"]
        return [GenericPalletMetadata(p, self.runtime_config, v) for p, v in zip(self._require()["pallets"], pallets)]

    def _build_value_object(self, value: Any) -> Any:
        version = self._require()["version"]
        inner = {k: _Part(v, self.runtime_config) for k, v in self._inner_value().items()}
        inner["pallets" if version >= 14 else "modules"] = self._pallet_objects()
        return (_Part(self.value[0], self.runtime_config),
                _VersionEnum(self.value[1], self.runtime_config, version, inner))

    def get_metadata(self) -> Any:
        """The version enum (``value_object[1]``): ``.index`` is the version,
        ``.value_object[1].value`` the version's metadata dict (py-scale-codec's)."""
        return self.value_object[1]

    @property
    def portable_registry(self) -> Any:
        """The portable registry (V14+) as its decoded value, ``None`` for legacy metadata."""
        v14 = self._require()["version"] >= 14
        return _Part(self._inner_value()["types"], self.runtime_config) if v14 else None

    @property
    def pallets(self) -> List[GenericPalletMetadata]:
        """The pallets (modules)."""
        return self._pallet_objects()

    def get_metadata_pallet(self, name: str) -> Optional[GenericPalletMetadata]:
        """The pallet called ``name``."""
        return next((p for p in self._pallet_objects() if p.name == name), None)

    def _variant_index(self, kind: str) -> Dict[str, TypingTuple[GenericPalletMetadata, Any]]:
        return {f"{p._info[kind]['pallet_index']:02x}{v['index']:02x}": (p, _MetaRef(v, self.runtime_config))
                for p in self._pallet_objects() if p._info[kind] is not None for v in p._info[kind]["variants"]}

    @property
    def call_index(self) -> Dict[str, TypingTuple[GenericPalletMetadata, Any]]:
        """``{"PPCC": (pallet, call)}`` keyed by pallet and call index in hex."""
        return self._variant_index("calls")

    @property
    def event_index(self) -> Dict[str, TypingTuple[GenericPalletMetadata, Any]]:
        """``{"PPEE": (pallet, event)}``."""
        return self._variant_index("events")

    def get_signed_extensions(self) -> Dict[str, dict]:
        """Signed extensions ``{identifier: {"extrinsic", "additional_signed"}}``."""
        return dict(self._require().get("signed_extensions") or {})


MetadataVersioned = GenericMetadataVersioned

# --------------------------------------------------------------------------
# py-scale-codec's further class names: their behaviour comes from the type
# string; the names exist for imports, isinstance and presets' base_class.

CompactU32 = type("CompactU32", (Compact,), {"type_string": "Compact<u32>"})
CompactMoment = type("CompactMoment", (Compact,), {"type_string": "Compact<Moment>"})
Conviction = type("Conviction", (Enum,), {"type_string": "Conviction"})
StorageHasher = type("StorageHasher", (Enum,), {"type_string": "StorageHasher"})
GenericContractExecResult = type("GenericContractExecResult", (Enum,), {"type_string": "ContractExecResult"})
TypeNotSupported = type("TypeNotSupported", (ScaleType,), {})
GenericContractExecResultV2 = type("GenericContractExecResultV2", (Enum,), {})
GenericMetadataAll = type("GenericMetadataAll", (Enum,), {})
LogDigest = type("LogDigest", (Enum,), {})
GenericConsensusEngineId = type("GenericConsensusEngineId", (FixedLengthArray,), {})
GenericConsensus = type("GenericConsensus", (Tuple,), {})
GenericPreRuntime = type("GenericPreRuntime", (Tuple,), {})
GenericSeal = type("GenericSeal", (Tuple,), {})
GenericSealV0 = type("GenericSealV0", (Tuple,), {})
for _name in ("GenericBlock", "ProposalPreimage", "GenericErrorMetadata", "GenericEventMetadata", "GenericField",
              "GenericFunctionArgumentMetadata", "GenericFunctionMetadata", "GenericModuleConstantMetadata",
              "GenericRegistryType", "GenericRuntimeCallDefinition", "GenericTypeDefComposite",
              "GenericTypeDefVariant", "GenericVariant", "ScaleInfoCallMetadata",
              "ScaleInfoFunctionArgumentMetadata", "ScaleInfoModuleConstantMetadata", "ScaleInfoPalletErrorMetadata",
              "ScaleInfoPalletEventMetadata", "ScaleInfoPalletMetadata", "ScaleInfoStorageEntryMetadata"):
    globals()[_name] = type(_name, (Struct,), {"__doc__": f"py-scale-codec's ``{_name}``."})

__all__ = [name for name, obj in list(globals().items())
           if isinstance(obj, type) and issubclass(obj, ScaleDecoder) and not name.startswith("_")]
__all__ += ["ScaleBytes", "RuntimeConfiguration", "RuntimeConfigurationObject", "InvalidScaleTypeValueException",
            "RemainingScaleBytesNotEmptyException", "MetadataCallFunctionNotFound"]
