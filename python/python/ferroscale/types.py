"""Scale classes: one per node kind (the classes ``get_decoder_class`` makes
derive from these), the few with attributes users reach for (extrinsics,
calls, events, metadata, Era, account ids), and py-scale-codec's other class
names. Every class decodes and encodes through the Rust registry of its
runtime configuration; what the classes answer beyond their value comes
from the ``_core`` view classes they mix in (python/src/scale_views.rs,
python/src/metadata_objects.rs).
"""
from __future__ import annotations

from datetime import datetime, timezone
from typing import Any, List, Optional, Union

from . import _core
from ._core import TypeKind as K
from .base import (
    RuntimeConfiguration,
    RuntimeConfigurationObject,
    ScaleBytes,
    ScaleDecoder,
    ScalePrimitive,
    ScaleType,
    _Part,
    _own_module,
    _user_definition,
)
from .constants import TYPE_DECOMP_MAX_RECURSIVE
from .utils.math import next_power_of_two, trailing_zeros
from .utils.ss58 import is_valid_ss58_address, ss58_decode, ss58_decode_account_index, ss58_encode
from .exceptions import (  # noqa: F401 (py-scale-codec exports them here too)
    InvalidScaleTypeValueException,
    MetadataCallFunctionNotFound,
    RemainingScaleBytesNotEmptyException,
)

def _item(key: str, doc: str) -> property:
    """``self.value[key]``, read-only."""
    return property(lambda self: self.value[key], doc=doc)


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
        if _own_module(cls.__module__) or _user_definition(cls) is None:
            return None
        if obj is not None:
            try:
                return obj.runtime_config._declared_name(cls)
            except NotImplementedError:
                pass  # a definition the registry refuses: decoding says why
        return cls.__name__


class Null(ScaleType, kinds=(K.Null,)):
    """Zero bytes, value ``None``."""

    type_string = "Null"


class Compact(ScaleType, kinds=(K.Compact,)):
    """``Compact<T>``."""

    type_string = _TypeStringOf("Compact<{sub}>", "u128")


class Option(ScaleType, kinds=(K.Option,)):
    """``Option<T>``: ``None`` or the inner value."""

    type_string = _TypeStringOf("Option<{sub}>")


class OptionBytes(Option):
    """``Option<Bytes>``."""

    type_string = "Option<Bytes>"


class Bytes(_core.BytesView, ScaleType, kinds=(K.Bytes,)):
    """``Vec<u8>``/``Bytes``: text when valid UTF-8, else ``"0x…"``; shown as hex; ``value_object`` is the bytes."""

    type_string = "Bytes"


class String(_core.TextView, ScaleType, kinds=(K.Str,)):
    """Text; ``value_object`` is its UTF-8 bytes."""

    type_string = "String"


# one alias a line: a chained assignment is not a type alias to type checkers
Str = String
Text = String


class HexBytes(ScaleType, kinds=(K.HexBytes,)):
    """Bytes always rendered ``"0x…"``."""

    type_string = "HexBytes"


class Vec(_core.SeqView, ScaleType, kinds=(K.Seq,)):
    """``Vec<T>``: ``len()``, truth and ``elements`` are its element objects'."""

    type_string = _TypeStringOf("Vec<{sub}>")


class BoundedVec(Vec):
    """``BoundedVec<T, S>``."""


class BTreeSet(Vec):
    """``BTreeSet<T>``."""

    type_string = _TypeStringOf("BTreeSet<{sub}>")


class FixedLengthArray(ScaleType, kinds=(K.Array, K.ByteArray)):
    """``[T; N]`` (a list of another length is encoded element by element, as py-scale-codec does)."""

    type_string = _TypeStringOf("[{sub}; {count}]")
    element_count = 0


class Enum(_core.EnumView, ScaleType, kinds=(K.Enum, K.Result)):
    """An enum: ``"Name"`` or ``{"Name": value}``; ``index``, ``get_enum_value()``."""

    value_list: Any = []
    type_string = _DefinedTypeString()


class Set(_core.SetView, ScaleType, kinds=(K.Set,)):
    """A bit-flag set: list of flag names; ``set_value`` the integer."""

    value_list: Any = []
    value_type = "u64"
    type_string = _DefinedTypeString()


class BitVec(ScaleType, kinds=(K.BitSeq,)):
    """A bit sequence ``"0b…"``; encoded from an int, a ``"0b…"`` string or a list of bools, its length the number's bit length (py-scale-codec's)."""

    type_string = "BitVec"


class Map(_core.MapView, ScaleType):
    """A map: list of ``(key, value)``; ``map_key`` and ``map_value`` are the types in ``sub_type``."""


class BTreeMap(Map, kinds=(K.Map,)):
    """``BTreeMap<K, V>``."""

    type_string = _TypeStringOf("BTreeMap<{sub}>")


class HashMap(Map):
    """``HashMap<K, V>``."""

    type_string = _TypeStringOf("HashMap<{sub}>")


class BoundedBTreeMap(BTreeMap):
    """``BoundedBTreeMap<K, V, S>``."""


class Tuple(_core.CompositeView, ScaleType, kinds=(K.Tuple,)):
    """A tuple; a 1-tuple is its element."""


class Struct(_core.CompositeView, ScaleType, kinds=(K.Struct,)):
    """A struct: dict in field order."""


# Primitives: one class per kind, named as py-scale-codec names them.


class Bool(ScalePrimitive, kinds=(K.Bool,)):
    """``bool``."""

    type_string = "bool"


class U8(ScalePrimitive, kinds=(K.U8,)):
    """``u8``."""

    type_string = "u8"


class U16(ScalePrimitive, kinds=(K.U16,)):
    """``u16``."""

    type_string = "u16"


class U32(ScalePrimitive, kinds=(K.U32,)):
    """``u32``."""

    type_string = "u32"


class U64(ScalePrimitive, kinds=(K.U64,)):
    """``u64``."""

    type_string = "u64"


class U128(ScalePrimitive, kinds=(K.U128,)):
    """``u128``."""

    type_string = "u128"


class U256(ScalePrimitive, kinds=(K.U256,)):
    """``u256``."""

    type_string = "u256"


class I8(ScalePrimitive, kinds=(K.I8,)):
    """``i8``."""

    type_string = "i8"


class I16(ScalePrimitive, kinds=(K.I16,)):
    """``i16``."""

    type_string = "i16"


class I32(ScalePrimitive, kinds=(K.I32,)):
    """``i32``."""

    type_string = "i32"


class I64(ScalePrimitive, kinds=(K.I64,)):
    """``i64``."""

    type_string = "i64"


class I128(ScalePrimitive, kinds=(K.I128,)):
    """``i128``."""

    type_string = "i128"


class I256(ScalePrimitive, kinds=(K.I256,)):
    """``i256``."""

    type_string = "i256"


class H160(FixedLengthArray, ScalePrimitive):
    """20 bytes, ``"0x…"``."""

    type_string = "H160"
    element_count = 20


class H256(FixedLengthArray, ScalePrimitive):
    """32 bytes, ``"0x…"``."""

    type_string = "H256"
    element_count = 32


class H512(FixedLengthArray, ScalePrimitive):
    """64 bytes, ``"0x…"``."""

    type_string = "H512"
    element_count = 64


class RawBytes(_core.RawBytesView, ScaleType, names=("rawbytes",), kinds=(K.RawBytes,)):
    """Uninterpreted bytes: all of the remaining input, ``"0x…"``."""

    type_string = "RawBytes"


class CallBytes(RawBytes):
    """A call as raw bytes."""


class _Float(_core.FloatView, ScalePrimitive):
    """IEEE floats (not SCALE types), ``_size`` bytes."""

    _size = 8


class F64(_Float, names=("f64",)):
    """``f64``."""

    type_string = "f64"


class F32(_Float, names=("f32",)):
    """``f32``."""

    type_string = "f32"
    _size = 4


# --------------------------------------------------------------------------
# Specialised classes


class Era(_core.EraView, ScaleType, kinds=(K.Era,)):
    """``Era``: ``"00"`` (immortal) or ``(period, phase)``; ``birth``, ``death``."""

    type_string = "Era"


class GenericAccountId(_core.AccountIdView, H256, kinds=(K.AccountId,)):
    """A 32-byte account id; ``public_key``, and ``ss58_address`` when an SS58 format is set."""

    type_string = "AccountId"


class GenericEthereumAccountId(H160, kinds=(K.EthereumAccountId,)):
    """A 20-byte account id."""

    type_string = "H160"


class GenericAccountIndex(U32, kinds=(K.AccountIndex,)):
    """An account index."""

    type_string = "AccountIndex"


class GenericMultiAddress(_core.MultiAddressView, Enum, kinds=(K.MultiAddress,)):
    """``MultiAddress``: the bare account id for ``Id``, else ``{"Variant": value}``
    (encoded also from an account index, as py-scale-codec takes it)."""

    type_string = "MultiAddress"


class GenericAddress(ScaleType, kinds=(K.LegacyAddress,)):
    """The pre-MultiAddress ``Address`` encoding."""


AccountIdAddress = GenericAddress
RawAddress = GenericAddress


class MultiAccountId(GenericAccountId, names=("multiaccountid",)):
    """A multisig account id (``signatories``, ``threshold`` when made by
    ``create_from_account_list``)."""

    threshold: Optional[int] = None
    signatories = property(lambda self: self.__dict__.get("_signatories", []),
                           lambda self, value: self.__dict__.__setitem__("_signatories", value),
                           doc="The member accounts, hex, sorted.")

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

    name = property(lambda self: self.value.get("name") if isinstance(self.value, dict) else self.value,
                    doc="The name.")


class GenericCall(_core.CallView, ScaleType, kinds=(K.Call,)):
    """A call: ``{"call_index", "call_function", "call_module", "call_args", "call_hash"}``."""

    type_string = "Call"


# The Rust attribute `_CallPart.data` wraps (its getter and setter).
_RUST_DATA: Any = vars(_core.ScaleObject)["data"]


class _CallPart(GenericCall, _Part):
    """The call inside a decoded extrinsic: a ``GenericCall``, as in
    py-scale-codec, so clients that check for one (``create_signed_extrinsic``,
    ``get_payment_info``) take it. Its ``data`` are the call's own bytes
    (py-scale-codec's part shares the whole extrinsic's, whose text would be
    signed in the call's place), encoded when first read: a large call costs
    as much to encode as to decode, and most readers never ask."""

    @property
    def data(self) -> Optional[ScaleBytes]:
        data: Optional[ScaleBytes] = _RUST_DATA.__get__(self)
        if data is None and self.decoded:
            self.encode()
            data = _RUST_DATA.__get__(self)
        return data

    @data.setter
    def data(self, value: Optional[ScaleBytes]) -> None:
        _RUST_DATA.__set__(self, value)

    def get_used_bytes(self) -> bytearray:
        self.data  # encoded first, if not yet
        return super().get_used_bytes()


class _LengthPart(Compact, _Part):
    """The length prefix of a decoded extrinsic: a ``Compact``, as in
    py-scale-codec, whose ``get_used_bytes()`` are the prefix's bytes."""

    def __init__(self, value: Any, runtime_config: RuntimeConfigurationObject, used: bytes):
        super().__init__(value, runtime_config)
        self.data = ScaleBytes(bytearray(used))
        self.data_start_offset, self.data_end_offset = 0, len(used)

    def __reduce__(self) -> tuple:
        return (type(self), (self.value, self.runtime_config, bytes(self.get_used_bytes())))


class GenericExtrinsic(_core.ExtrinsicView, ScaleType, kinds=(K.Extrinsic,)):
    """An extrinsic (compact-length prefixed) as py-scale-codec shows it; it is
    encoded also from py-scale-codec's ``account_id`` and ``signature_version``."""

    type_string = "Extrinsic"


GenericExtrinsicV4 = GenericExtrinsic


class Extrinsic(GenericExtrinsic):
    """``Extrinsic`` (instantiable directly with ``metadata=``)."""


class GenericEvent(_core.RuntimeEventView, Enum, kinds=(K.Event,)):
    """A runtime event: ``{"event_index", "module_id", "event_id", "attributes"}``."""


class GenericScaleInfoEvent(GenericEvent, kinds=(K.ScaleInfoEvent,)):
    """A scale-info runtime event."""


class GenericEventRecord(_core.EventRecordView, ScaleType, kinds=(K.EventRecord,)):
    """An event record (phase, event, topics)."""


EventRecord = GenericEventRecord


class GenericVote(U8, kinds=(K.Vote,)):
    """A conviction vote byte."""

    type_string = "GenericVote"


class Data(Enum, kinds=(K.IdentityData,)):
    """Identity ``Data``."""

    type_string = "Data"


class WrapperKeepOpaque(ScaleType, kinds=(K.WrapperKeepOpaque,), names=("wrapperkeepopaque",)):
    """``WrapperKeepOpaque<T>``: length-prefixed bytes holding a ``T``; the
    value is the ``T``, or ``"0x…"`` of the bytes when they do not decode as
    one. ``type_mapping = (length type, T)`` may be set after creation
    (py-scale-codec's way of naming ``T``)."""

    type_string = "WrapperKeepOpaque"

    def _decode_value(self, data: Union[bytes, bytearray], offset: int, check_remaining: bool):
        registry = self.runtime_config._registry
        return registry.decode_opaque(self.type_string, self.type_mapping, bytes(data), offset, check_remaining)

    def _encode_value(self, value: Any) -> bytes:
        return self.runtime_config._registry.encode_opaque(self.type_string, self.type_mapping, value)


class OpaqueCall(WrapperKeepOpaque, names=("opaquecall",)):
    """A call inside length-prefixed bytes; the value is the call's dict."""

    type_string = "OpaqueCall"


# --------------------------------------------------------------------------
# Metadata. The object API of a decoded ``MetadataVersioned`` is its
# ``value_object``: typed parts (``_core.typed_part``) with the classes the
# metadata definitions name as ``base_class``, declared below. What each
# answers (names, arguments, storage key types, indexes …) comes from its
# ``_core`` base (python/src/metadata_objects.rs), reading its share of the
# value Rust decoded.

_DOCS = "Documentation lines."


class GenericStringType(String):
    """Text used as a type name (``name`` is ``None``, ``type`` the text)."""

    name = property(lambda self: None, doc="Always ``None``.")
    type = property(lambda self: self.value, doc="The text.")


class GenericRegistryType(Struct):
    """A portable-registry type (``path``, ``params``, ``def``, ``docs``)."""

    docs = _item("docs", _DOCS)


class GenericField(_core.FieldView, Struct):
    """A field of a composite or variant (portable registry)."""


class GenericVariant(_core.VariantView, Struct):
    """A variant (a call, event or error of a V14+ pallet)."""


class GenericTypeDefComposite(Struct):
    """A composite type definition."""


class GenericTypeDefVariant(_core.TypeDefVariantView, Struct):
    """A variant type definition."""


class GenericFunctionArgumentMetadata(_core.ArgumentView, Struct):
    """An argument of a V9–V13 call."""


class ScaleInfoFunctionArgumentMetadata(_core.ScaleInfoArgumentView, GenericFunctionArgumentMetadata):
    """An argument of a V14+ call."""


class GenericFunctionMetadata(_core.FunctionView, Struct):
    """A V9–V13 call."""


class _PalletEnumMetadata(_core.PalletEnumView, Struct):
    """A V14+ pallet's call, event or error enum (``ty``): its variants."""


_VARIANTS = property(_core.PalletEnumView._variants, doc="The variants (``GenericVariant`` objects).")


class ScaleInfoCallMetadata(_PalletEnumMetadata):
    """A V14+ pallet's calls."""

    calls = _VARIANTS


class ScaleInfoPalletErrorMetadata(_PalletEnumMetadata):
    """A V14+ pallet's errors."""

    errors = _VARIANTS


class ScaleInfoPalletEventMetadata(_PalletEnumMetadata):
    """A V14+ pallet's events."""

    events = _VARIANTS


class GenericStorageEntryMetadata(_core.StorageEntryView, Struct):
    """A V9–V13 storage function (and the storage-version entry of every pallet)."""


class ScaleInfoStorageEntryMetadata(_core.ScaleInfoStorageEntryView, GenericStorageEntryMetadata):
    """A V14+ storage function (``Plain`` or ``Map``, whose key may be a tuple
    with one hasher per element)."""


class GenericRuntimeCallDefinition(_core.RuntimeCallDefinitionView, Struct):
    """A runtime-API call definition of a preset's ``runtime_api``."""


class GenericEventMetadata(_core.EventView, Struct):
    """A V9–V13 event."""


class GenericErrorMetadata(_core.EntryView, Struct):
    """A V9–V13 error."""


class GenericModuleConstantMetadata(_core.ConstantView, Struct):
    """A V9–V13 pallet constant."""


class ScaleInfoModuleConstantMetadata(_core.ScaleInfoConstantView, GenericModuleConstantMetadata):
    """A V14+ pallet constant."""


class GenericPalletMetadata(_core.PalletView, Struct):
    """A V9–V13 module."""


class ScaleInfoPalletMetadata(_core.ScaleInfoPalletView, GenericPalletMetadata):
    """A V14+ pallet."""


class GenericMetadataAll(_core.MetadataAllView, Enum):
    """The versioned metadata enum (``{"V14": MetadataV14}``): pallets and,
    for V9–V13, the call / event / error indexes."""


class GenericMetadataVersioned(_core.MetadataVersionedView, ScaleType, kinds=(K.MetadataVersioned,)):
    """``MetadataVersioned``: runtime metadata V9–V16. Rust reads and checks
    the bytes at decode; the value (py-scale-codec's), the model behind
    ``get_signed_extensions`` and ``value_object``, the object tree
    (``value_object[1]`` the ``MetadataAll`` enum), are built when first
    read."""

    type_string = "MetadataVersioned"
    _info: Optional[dict] = None
    _model: Optional["_core.LoadedMetadata"] = None
    _metadata_bytes: Optional[bytes] = None


MetadataVersioned = GenericMetadataVersioned

# --------------------------------------------------------------------------
# py-scale-codec's further class names: their behaviour comes from the type
# string; the names exist for imports, isinstance and presets' base_class.


class CompactU32(Compact):
    """``Compact<u32>``."""

    type_string = "Compact<u32>"


class CompactMoment(CompactU32):
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


class StorageHasher(_core.StorageHasherView, Enum):
    """A storage hasher (``is_twox64_concat()`` …)."""

    type_string = "StorageHasher"


class GenericContractExecResult(Enum):
    """``ContractExecResult``."""

    type_string = "ContractExecResult"


class TypeNotSupported(ScaleType):
    """A type py-scale-codec does not support."""


class GenericContractExecResultV2(_core.ContractResultView, Struct):
    """A contract call's result (contracts pallet, runtimes after spec 267)."""


class LogDigest(Enum):
    """A digest item."""


class GenericConsensusEngineId(FixedLengthArray, kinds=(K.ConsensusEngineId,)):
    """A consensus engine id: the engine's name as text (``"BABE"``)."""


class GenericConsensus(Tuple):
    """A consensus digest item."""


class GenericPreRuntime(Struct, kinds=(K.PreRuntime,)):
    """A pre-runtime digest item of the legacy types: ``{"engine", "data"}``,
    a BABE or Aura item's data its pre-digest decoded (the block's author)."""


class GenericSeal(Tuple):
    """A seal digest item."""


class GenericSealV0(Tuple):
    """A V0 seal digest item."""


class GenericBlock(Struct):
    """py-scale-codec's ``GenericBlock``."""


class ProposalPreimage(Struct):
    """py-scale-codec's ``ProposalPreimage``."""


# Written out, not computed: type checkers and IDEs read `from scalecodec import
# GenericCall` through this list (tests/test_package_layout.py checks that it
# names every public scale class here).
__all__ = [
    "ScaleDecoder", "ScalePrimitive", "ScaleType", "Null", "Compact", "Option", "OptionBytes",
    "Bytes", "String", "Str", "Text", "HexBytes", "Vec", "BoundedVec", "BTreeSet",
    "FixedLengthArray", "Enum", "Set", "BitVec", "Map", "BTreeMap", "HashMap", "BoundedBTreeMap",
    "Tuple", "Struct", "Bool", "U8", "U16", "U32", "U64", "U128", "U256", "I8", "I16", "I32",
    "I64", "I128", "I256", "H160", "H256", "H512", "RawBytes", "CallBytes", "F64", "F32", "Era",
    "GenericAccountId", "GenericEthereumAccountId", "GenericAccountIndex", "GenericMultiAddress",
    "GenericAddress", "AccountIdAddress", "RawAddress", "MultiAccountId", "GenericCall",
    "GenericExtrinsic", "GenericExtrinsicV4", "Extrinsic", "GenericEvent", "GenericScaleInfoEvent",
    "GenericEventRecord", "EventRecord", "GenericVote", "Data", "WrapperKeepOpaque", "OpaqueCall",
    "GenericStringType", "GenericRegistryType", "GenericField", "GenericVariant",
    "GenericTypeDefComposite", "GenericTypeDefVariant", "GenericFunctionArgumentMetadata",
    "ScaleInfoFunctionArgumentMetadata", "GenericFunctionMetadata", "ScaleInfoCallMetadata",
    "ScaleInfoPalletErrorMetadata", "ScaleInfoPalletEventMetadata", "GenericStorageEntryMetadata",
    "ScaleInfoStorageEntryMetadata", "GenericRuntimeCallDefinition", "GenericEventMetadata",
    "GenericErrorMetadata", "GenericModuleConstantMetadata", "ScaleInfoModuleConstantMetadata",
    "GenericPalletMetadata", "ScaleInfoPalletMetadata", "GenericMetadataAll",
    "GenericMetadataVersioned", "MetadataVersioned", "CompactU32", "CompactMoment", "Conviction",
    "StorageHasher", "GenericContractExecResult", "TypeNotSupported",
    "GenericContractExecResultV2", "LogDigest", "GenericConsensusEngineId", "GenericConsensus",
    "GenericPreRuntime", "GenericSeal", "GenericSealV0", "GenericBlock", "ProposalPreimage",
    "ScaleBytes", "RuntimeConfiguration", "RuntimeConfigurationObject",
    "InvalidScaleTypeValueException", "RemainingScaleBytesNotEmptyException",
    "MetadataCallFunctionNotFound", "TYPE_DECOMP_MAX_RECURSIVE", "is_valid_ss58_address",
    "ss58_decode", "ss58_decode_account_index", "ss58_encode", "next_power_of_two",
    "trailing_zeros",
]
