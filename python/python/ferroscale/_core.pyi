"""Type stubs for ``ferroscale._core`` (``scalecodec._core`` when it is the interpreter's scalecodec), the Rust half of the package: every
name the extension module exports."""
import os
from typing import Any, Callable, ClassVar, Dict, Iterable, Iterator, List, Optional, Sequence, Tuple, Union, final

from typing_extensions import Self, disjoint_base

# Every name the module exports (the columnar ones need the crate's `index`
# feature, on in the wheel).
__all__ = [
    "AccountIdView",
    "ArgumentView",
    "ArrowTable",
    "BytesView",
    "CallView",
    "CompositeView",
    "ConfigBase",
    "ConstantView",
    "ContractResultView",
    "DeferredValue",
    "EntryView",
    "EnumView",
    "EraView",
    "EventRecordView",
    "EventView",
    "ExtrinsicView",
    "FastNode",
    "FieldView",
    "FloatView",
    "FunctionView",
    "IndexBatch",
    "LoadedMetadata",
    "MapView",
    "MetadataAllView",
    "MetadataVersionedView",
    "MultiAddressView",
    "PalletEnumView",
    "PalletView",
    "RawBytesView",
    "Registry",
    "RuntimeCallDefinitionView",
    "RuntimeEventView",
    "STORAGE_VERSION_VALUE",
    "ScaleBytes",
    "ScaleInfoArgumentView",
    "ScaleInfoConstantView",
    "ScaleInfoPalletView",
    "ScaleInfoStorageEntryView",
    "ScaleObject",
    "SeqView",
    "SetView",
    "SpecDecoder",
    "StorageEntryView",
    "StorageHasherView",
    "TextView",
    "TypeDefVariantView",
    "TypeKind",
    "UNSET",
    "ValueDecoder",
    "VariantView",
    "block_ranges",
    "check_type_def",
    "convert_type_string",
    "decode_blocks",
    "decode_metadata",
    "encode_compact",
    "extrinsic_proof",
    "get_ss58_format",
    "index_decoder_stats",
    "index_json_lines",
    "is_valid_ss58_address",
    "keep_freed_memory",
    "metadata_definitions",
    "metadata_digest",
    "metadata_info",
    "metadata_value",
    "multi_account_id",
    "next_power_of_two",
    "missing_blocks",
    "check_index",
    "portable_entry",
    "presets_dir",
    "read_blocks",
    "restore_object",
    "restore_spec_decoder",
    "set_catalogue",
    "set_presets_dir",
    "ss58_decode",
    "ss58_decode_account_index",
    "ss58_encode",
    "ss58_encode_account_index",
    "trailing_zeros",
    "tuple_elements",
    "typed_part",
    "typed_table_schema",
    "user_definition",
    "value_object_of",
    "wrap_parts",
]

_Data = Union[bytes, bytearray]

@final
class TypeKind:
    """What a type-graph node is (picks the scale class of a type string).
    A fixed set of instances (``TypeKind.Bool``, …), not an ``enum.Enum``:
    ``int(kind)`` is its number."""

    Bool: ClassVar[TypeKind]
    U8: ClassVar[TypeKind]
    U16: ClassVar[TypeKind]
    U32: ClassVar[TypeKind]
    U64: ClassVar[TypeKind]
    U128: ClassVar[TypeKind]
    U256: ClassVar[TypeKind]
    I8: ClassVar[TypeKind]
    I16: ClassVar[TypeKind]
    I32: ClassVar[TypeKind]
    I64: ClassVar[TypeKind]
    I128: ClassVar[TypeKind]
    I256: ClassVar[TypeKind]
    Char: ClassVar[TypeKind]
    Str: ClassVar[TypeKind]
    Null: ClassVar[TypeKind]
    Compact: ClassVar[TypeKind]
    Seq: ClassVar[TypeKind]
    Bytes: ClassVar[TypeKind]
    ByteArray: ClassVar[TypeKind]
    Array: ClassVar[TypeKind]
    Tuple: ClassVar[TypeKind]
    Struct: ClassVar[TypeKind]
    Enum: ClassVar[TypeKind]
    Option: ClassVar[TypeKind]
    Result: ClassVar[TypeKind]
    Set: ClassVar[TypeKind]
    BitSeq: ClassVar[TypeKind]
    Map: ClassVar[TypeKind]
    AccountId: ClassVar[TypeKind]
    EthereumAccountId: ClassVar[TypeKind]
    AccountIndex: ClassVar[TypeKind]
    MultiAddress: ClassVar[TypeKind]
    LegacyAddress: ClassVar[TypeKind]
    Era: ClassVar[TypeKind]
    Call: ClassVar[TypeKind]
    Extrinsic: ClassVar[TypeKind]
    Event: ClassVar[TypeKind]
    ScaleInfoEvent: ClassVar[TypeKind]
    EventRecord: ClassVar[TypeKind]
    IdentityData: ClassVar[TypeKind]
    HexBytes: ClassVar[TypeKind]
    MetadataVersioned: ClassVar[TypeKind]
    Vote: ClassVar[TypeKind]
    WrapperKeepOpaque: ClassVar[TypeKind]
    ConsensusEngineId: ClassVar[TypeKind]
    PreRuntime: ClassVar[TypeKind]
    RawBytes: ClassVar[TypeKind]
    Unresolved: ClassVar[TypeKind]
    def __int__(self) -> int: ...
    def __eq__(self, other: object, /) -> bool: ...
    def __hash__(self) -> int: ...

@final
class ValueDecoder:
    """cyscale 0.8's value decoder of one type string: ``decoder(data)``
    decodes all of ``data`` to its plain value; ``decode_at(data, offset)``
    returns ``(value, offset after it)``."""

    type_string: str
    def __new__(cls, registry: "Registry", type_string: str) -> Self: ...
    def __call__(self, data: Union[bytes, bytearray, memoryview]) -> Any: ...
    def decode_at(self, data: Union[bytes, bytearray, memoryview], offset: int) -> Tuple[Any, int]: ...


@final
class Registry:
    """One ferroscale-dynamic type registry (presets, portable registry,
    runtime, SS58 format)."""

    def __init__(self) -> None: ...
    def update_preset(self, json: str) -> None: ...
    def update_types(self, json: str) -> None: ...
    def clear(self) -> None: ...
    def set_active_spec_version_id(self, spec: int) -> None: ...
    def clear_active_spec_version_id(self) -> None:
        """Forgets the active spec version (the versioning it applied stays)."""
    @property
    def active_spec_version_id(self) -> Optional[int]: ...
    def get_runtime_id_from_upgrades(self, block: int) -> Optional[int]: ...
    def set_runtime_upgrades_head(self, block: int) -> None: ...
    def runtime_upgrades(self) -> Optional[List[Tuple[int, int]]]: ...
    ss58_format: Optional[int]
    def ensure_metadata(self, data: bytes) -> bool: ...
    def load_portable_types(self, types: List[Any]) -> bool: ...
    @property
    def has_runtime(self) -> bool: ...
    @property
    def has_portable(self) -> bool: ...
    @property
    def generation(self) -> int: ...
    def decode(self, type_string: str, data: _Data, offset: int = 0,
               check_remaining: bool = True) -> Tuple[Any, int]: ...
    def decode_node(self, idx: int, data: _Data, offset: int = 0,
                    check_remaining: bool = True) -> Tuple[Any, int]: ...
    def encode(self, type_string: str, value: Any) -> bytes: ...
    def decode_opaque(self, type_string: str, type_mapping: Any, data: bytes, offset: int = 0,
                      check_remaining: bool = True) -> Tuple[Any, int]: ...
    def encode_opaque(self, type_string: str, type_mapping: Any, value: Any) -> bytes: ...
    def decode_fields(self, fields: List[Tuple[Optional[str], str]], data: bytes, offset: int = 0,
                      check_remaining: bool = True) -> Tuple[Any, int]: ...
    def encode_fields(self, fields: List[Tuple[Optional[str], str]], value: Any) -> bytes: ...
    def batch_decode(self, type_strings: Sequence[str],
                     data_list: Sequence[Union[bytes, bytearray, str, "ScaleBytes"]]) -> List[Any]: ...
    def resolve(self, type_string: str) -> int: ...
    def describe(self, idx: int) -> str: ...
    def decomposition(self, idx: int) -> Any: ...
    def portable_type_id(self, type_string: str) -> Optional[int]: ...
    def portable_decomposition(self, type_id: int, max_recursion: int = 9) -> Any:
        """py-scale-codec's decomposition of ``scale_info::<type_id>`` (``None`` without a portable registry)."""
    def __getstate__(self) -> List[Tuple[str, Any]]: ...
    def __setstate__(self, state: List[Tuple[str, Any]]) -> None: ...

UNSET: object
"""``_value_object`` before it is built."""

STORAGE_VERSION_VALUE: Dict[str, Any]
"""The storage-version entry py-scale-codec lists first in a pallet's storage, as a metadata value."""

@disjoint_base
class ScaleBytes:
    """py-scale-codec's byte buffer (``scalecodec.base.ScaleBytes``)."""

    @property
    def data(self) -> bytearray: ...
    offset: int
    length: int
    def __new__(cls, data: Union[bytes, bytearray, str]) -> Self: ...
    def get_next_bytes(self, length: int) -> bytearray: ...
    def get_next_u8(self) -> int: ...
    def get_remaining_bytes(self) -> bytearray: ...
    def get_remaining_length(self) -> int: ...
    def reset(self) -> None: ...
    def copy(self) -> "ScaleBytes": ...
    def __add__(self, other: Union["ScaleBytes", bytes, bytearray, str], /) -> "ScaleBytes": ...
    def __radd__(self, other: Union[bytes, bytearray, str], /) -> "ScaleBytes": ...
    def __len__(self) -> int: ...
    def to_hex(self) -> str: ...

@final
class FastNode:
    """``_fast_node`` of a generated class: graph node, registry generation,
    whether decoding / encoding may skip the Python hooks, the type string."""

    def __new__(cls, node: int, generation: int, decode: bool, encode: bool, type_string: str) -> Self: ...

@disjoint_base
class ScaleObject:
    """Base of ``scalecodec.base.ScaleDecoder``: the object state, ``decode``,
    ``encode``, the value protocol and the default hooks."""

    runtime_config: Any
    data: Optional[ScaleBytes]
    data_start_offset: Optional[int]
    data_end_offset: Optional[int]
    _value: Any
    #: The value is decoded but not built as Python data yet (built on first read).
    _value_deferred: bool
    _value_object: Any
    decoded: bool
    metadata: Any
    value: Any
    value_serialized: Any
    value_object: Any
    #: The object a typed part (``typed_part``) belongs to (the metadata), else ``None``.
    _parts_root: Any
    def __new__(cls, *_args: Any, **_kwargs: Any) -> Self: ...
    def decode(self, data: Optional[ScaleBytes] = None, check_remaining: bool = True) -> Any: ...
    def encode(self, value: Any = ...) -> ScaleBytes: ...
    def serialize(self) -> Any: ...
    @staticmethod
    def process(*args: Any, **kwargs: Any) -> Any: ...
    @staticmethod
    def process_encode(*args: Any, **kwargs: Any) -> Any: ...
    def get_next_bytes(self, length: int) -> bytearray: ...
    def get_remaining_bytes(self) -> bytearray: ...
    def get_used_bytes(self) -> bytearray: ...
    def _decode_value(self, data: _Data, offset: int, check_remaining: bool) -> Tuple[Any, int]: ...
    def _before_decode(self) -> None: ...
    def _after_decode(self) -> None: ...
    def _encode_value(self, value: Any) -> bytes: ...
    def _encoded_value(self, value: Any) -> Any: ...
    def __lt__(self, other: Any, /) -> bool: ...
    def __le__(self, other: Any, /) -> bool: ...
    def __gt__(self, other: Any, /) -> bool: ...
    def __ge__(self, other: Any, /) -> bool: ...
    def __hash__(self) -> int: ...
    def __getitem__(self, item: Any, /) -> Any: ...
    def __iter__(self) -> Iterator[Any]: ...
    def __int__(self) -> int: ...
    def __float__(self) -> float: ...
    def __bool__(self) -> bool: ...
    def __reduce__(self) -> Tuple[Any, ...]: ...

    # py-scale-codec's helper methods of ScaleDecoder
    @classmethod
    def generate_type_decomposition(cls, _recursion_level: int = 0, max_recursion: int = 9) -> Any: ...
    @classmethod
    def convert_type(cls, name: str) -> str: ...
    @classmethod
    def get_decoder_class(cls, type_string: str, data: Optional[ScaleBytes] = None,
                          runtime_config: Any = None, **kwargs: Any) -> Any: ...
    def get_next_u8(self) -> int: ...
    def get_next_bool(self) -> bool: ...
    @staticmethod
    def is_primitive(type_string: str) -> bool: ...
    @classmethod
    def build_type_mapping(cls) -> None: ...
    def process_type(self, type_string: str, **kwargs: Any) -> Any: ...

# Metadata object API (python/src/metadata_objects.rs): bases that
# ``scalecodec.types`` mixes into py-scale-codec's metadata classes
# (``class GenericPalletMetadata(_core.PalletView, Struct)``).

class FieldView(ScaleObject):
    name: Optional[str]
    docs: List[str]
    type: str
    def get_type_string(self) -> str: ...

class VariantView(ScaleObject):
    name: str
    docs: List[str]
    args: Any
    def get_param_info(self, max_recursion: Optional[int] = None) -> Dict[str, Any]: ...

class TypeDefVariantView(ScaleObject):
    def get_variant_by_name(self, name: str) -> Optional[Any]: ...
    def get_variant_by_index(self, index: int) -> Optional[Any]: ...

class ArgumentView(ScaleObject):
    name: str
    type: str

class ScaleInfoArgumentView(ArgumentView):
    type: str

class FunctionView(ScaleObject):
    name: str
    docs: List[str]
    args: List[Any]
    def get_identifier(self) -> str: ...

class PalletEnumView(ScaleObject):
    def get_type_string(self) -> str: ...
    def _variants(self) -> List[Any]: ...

class StorageEntryView(ScaleObject):
    name: str
    docs: List[str]
    modifier: str
    type: Dict[str, Any]
    def get_type_string_for_type(self, ty: Any) -> str: ...
    def get_value_type_string(self) -> str: ...
    def get_params_type_string(self) -> List[str]: ...
    def get_param_hashers(self) -> List[str]: ...
    def get_param_info(self, max_recursion: Optional[int] = None) -> Any: ...

class ScaleInfoStorageEntryView(StorageEntryView):
    def get_type_string_for_type(self, ty: Any) -> str: ...
    def get_key_type_string(self) -> Optional[str]: ...
    def get_params_type_string(self) -> List[str]: ...
    def get_key_scale_info_definition(self) -> Optional[str]: ...
    def get_param_info(self, max_recursion: Optional[int] = None) -> List[Any]: ...

class RuntimeCallDefinitionView(ScaleObject):
    def get_param_info(self, max_recursion: Optional[int] = None) -> List[Any]: ...

class EntryView(ScaleObject):
    name: str
    docs: List[str]

class EventView(EntryView):
    args: Any

class ConstantView(ScaleObject):
    name: str
    docs: List[str]
    type: str
    constant_value: Optional[bytearray]

class ScaleInfoConstantView(ConstantView):
    type: str

class PalletView(ScaleObject):
    name: str
    calls: Any
    constants: Any
    errors: Any
    events: Any
    storage: Optional[List[Any]]
    def get_identifier(self) -> str: ...
    def get_storage_function(self, name: str) -> Optional[Any]: ...

class ScaleInfoPalletView(PalletView):
    calls: List[Any]
    events: List[Any]
    errors: List[Any]

class MetadataAllView(ScaleObject):
    pallets: List[Any]
    call_index: Dict[str, Any]
    event_index: Dict[str, Any]
    error_index: Dict[str, Any]
    portable_registry: Optional[Any]
    def get_call_function(self, pallet_index: int, call_index: int) -> Any: ...
    def get_event(self, pallet_index: int, event_index: int) -> None: ...
    def get_metadata_pallet(self, name: str) -> Optional[Any]: ...

@final
class LoadedMetadata:
    """Metadata the engine has read and checked (a ``MetadataVersioned``
    object's ``_model``): its model and what ``add_portable_registry`` loads."""

@final
class DeferredValue:
    """A decoded value not built as Python data yet (built on first read)."""

class MetadataVersionedView(ScaleObject):
    _info: Optional[Dict[str, Any]]
    _model: Optional[LoadedMetadata]
    _metadata_bytes: Optional[bytes]
    #: The portable registry (or the whole value) is not decoded yet: it is when a part inside it is first read.
    _registry_deferred: bool
    call_index: Dict[str, Any]
    event_index: Dict[str, Any]
    portable_registry: Optional[Any]
    pallets: List[Any]
    def _decode_value(self, data: _Data, offset: int, check_remaining: bool) -> Tuple[Any, int]: ...
    def _before_decode(self) -> None: ...
    def _after_decode(self) -> None:
        """Nothing: every part is built when first read."""
    def _encode_value(self, value: Any) -> bytes: ...
    def _require(self) -> Dict[str, Any]:
        """The model ``metadata_info`` gives, built on first use."""
    def _loaded(self) -> Optional[LoadedMetadata]:
        """The engine's reading kept at decode (``None`` for another framing)."""
    def _version(self) -> int:
        """The metadata version (9–16)."""
    def _build_value_object(self, value: Any) -> Tuple[Any, Any]: ...
    def _registry_type(self, type_id: int) -> Optional[Any]: ...
    def get_module_error(self, module_index: int, error_index: int) -> Any: ...
    def get_metadata(self) -> Any: ...
    def get_metadata_pallet(self, name: str) -> Optional[Any]: ...
    def get_pallet_by_index(self, index: int) -> Any: ...
    def get_signed_extensions(self) -> Dict[str, Dict[str, Any]]: ...

class CallView(ScaleObject):
    call_module: Any
    call_function: Any
    call_hash: Optional[bytes]
    call_index: Optional[str]
    call_args: Any
    def _build_value_object(self, value: Any) -> Any: ...

class ExtrinsicView(ScaleObject):
    extrinsic_hash: Optional[bytes]
    signed: Optional[bool]
    version: Optional[int]
    def _build_value_object(self, value: Any) -> Any: ...

# The bases ``scalecodec.types`` mixes into its other scale classes
# (``class GenericAccountId(_core.AccountIdView, ScaleType)``).

class EnumView(ScaleObject):
    index: Optional[int]
    def get_enum_value(self) -> Any: ...

class SetView(ScaleObject):
    @property
    def set_value(self) -> Optional[int]: ...

class SeqView(ScaleObject):
    @property
    def elements(self) -> List[Any]: ...
    def __len__(self) -> int: ...

class MapView(ScaleObject):
    @property
    def map_key(self) -> Optional[str]: ...
    @property
    def map_value(self) -> Optional[str]: ...

class EraView(ScaleObject):
    @property
    def period(self) -> Optional[int]: ...
    @property
    def phase(self) -> Optional[int]: ...
    def is_immortal(self) -> bool: ...
    def birth(self, current: int) -> int: ...
    def death(self, current: int) -> int: ...
    def _encoded_value(self, _value: Any) -> Any: ...

class AccountIdView(ScaleObject):
    public_key: Optional[str]
    ss58_address: Optional[str]
    def _encoded_value(self, _value: Any) -> Any: ...

class MultiAddressView(EnumView):
    index: Optional[int]
    @property
    def account_id(self) -> Optional[str]: ...
    @property
    def account_index(self) -> Optional[int]: ...

class RuntimeEventView(EnumView):
    event_idx: None
    index: Optional[int]
    @property
    def event_index(self) -> Optional[str]: ...
    @property
    def attributes(self) -> List[Any]: ...
    @property
    def event_module(self) -> Any: ...
    @property
    def event(self) -> Any: ...

class EventRecordView(ScaleObject):
    @property
    def event_index(self) -> Optional[str]: ...
    @property
    def phase(self) -> Any: ...
    @property
    def extrinsic_idx(self) -> Optional[int]: ...
    @property
    def params(self) -> List[Any]: ...
    @property
    def arguments(self) -> List[Any]: ...
    @property
    def topics(self) -> List[Any]: ...
    @property
    def event_module(self) -> Any: ...
    @property
    def event(self) -> Any: ...

class StorageHasherView(ScaleObject):
    def is_blake2_128(self) -> bool: ...
    def is_blake2_256(self) -> bool: ...
    def is_twoblake2_128_concat(self) -> bool: ...
    def is_twox128(self) -> bool: ...
    def is_twox256(self) -> bool: ...
    def is_twox64_concat(self) -> bool: ...
    def is_identity(self) -> bool: ...

class ContractResultView(ScaleObject):
    @property
    def gas_consumed(self) -> Any: ...
    @property
    def gas_required(self) -> Any: ...
    @property
    def flags(self) -> Any: ...
    @property
    def contract_result_data(self) -> Any: ...

class CompositeView(ScaleObject):
    def _decode_value(self, data: _Data, offset: int, check_remaining: bool) -> Tuple[Any, int]: ...
    def _encode_value(self, value: Any) -> bytes: ...

class RawBytesView(ScaleObject):
    def _decode_value(self, data: _Data, offset: int, check_remaining: bool) -> Tuple[str, int]: ...
    def _encode_value(self, value: Any) -> bytes: ...

class FloatView(ScaleObject):
    def _decode_value(self, data: _Data, offset: int, check_remaining: bool) -> Tuple[float, int]: ...
    def _encode_value(self, value: float) -> bytes: ...

class TextView(ScaleObject):
    def _build_value_object(self, value: Any) -> Any: ...

class BytesView(ScaleObject):
    def serialize(self) -> Any: ...
    def _build_value_object(self, value: Any) -> Any: ...

@disjoint_base
class ConfigBase:
    """Base of ``RuntimeConfigurationObject``: the registry, the class cache
    and the methods that only reach the registry."""

    _registry: Registry
    _classes: Dict[str, Optional[type]]
    ss58_format: Optional[int]
    @property
    def active_spec_version_id(self) -> Optional[int]: ...
    @active_spec_version_id.setter
    def active_spec_version_id(self, spec: Optional[int]) -> None: ...
    def __new__(cls, *_args: Any, **_kwargs: Any) -> Self: ...
    def create_scale_object(self, type_string: str, data: Optional[ScaleBytes] = None,
                            **kwargs: Any) -> Any: ...
    def batch_decode(self, type_strings: Sequence[str],
                     data_list: Sequence[Union[bytes, bytearray, str, ScaleBytes]]) -> List[Any]: ...
    def set_active_spec_version_id(self, spec_version_id: int) -> None: ...
    def get_runtime_id_from_upgrades(self, block_number: int) -> Optional[int]: ...
    def set_runtime_upgrades_head(self, block_number: int) -> None: ...
    def convert_type_string(self, name: str) -> str: ...
    def _sync_metadata(self, metadata: Any) -> None: ...
    def _decode_bound(self, metadata: Any, type_string: str, node: Optional[Tuple[int, int]], data: Union[bytes, bytearray], offset: int, check_remaining: bool) -> Tuple[Any, int]: ...
    def _encode_bound(self, metadata: Any, type_string: Optional[str], node: Optional[Tuple[int, int]], value: Any) -> bytes: ...
    # The configuration's books (``scalecodec.base.RuntimeConfigurationObject``
    # resets in ``_reset``; these call it).
    def get_decoder_class(self, type_string: Union[str, Dict[str, Any]]) -> Optional[type]:
        """The class of ``type_string``, made on first use and cached (``None`` when unknown)."""
    def _declare_classes(self) -> None:
        """Defines every scale class users declared, by its name."""
    def _declared_name(self, cls: type) -> str:
        """A declared class's type string here, defining the class first if it is new."""
    def get_value_decoder(self, type_string: str) -> Optional[ValueDecoder]: ...
    def get_decoder_class_for_scale_info_definition(self, type_string: str, scale_info_type: Any,
                                                    prefix: Optional[str]) -> Optional[type]: ...
    def add_portable_registry(self, metadata: Any, prefix: Optional[str] = None) -> None:
        """Loads a decoded V14+ ``MetadataVersioned`` object (only ``scale_info`` prefixes)."""
    def update_from_scale_info_types(self, scale_info_types: Iterable[Any], prefix: Optional[str] = None) -> None: ...
    def update_type_registry(self, type_registry: Dict[str, Any]) -> None:
        """Applies a preset and mirrors its ``types`` (lower-cased), ``runtime_api``,
        ``runtime_id``, ``versioning``, ``runtime_upgrades`` and ``chain_id`` in ``type_registry``."""
    def update_type_registry_types(self, types_dict: Dict[str, Any]) -> None: ...
    def clear_type_registry(self) -> None: ...
    def __getstate__(self) -> Dict[str, Any]: ...
    def __setstate__(self, state: Dict[str, Any]) -> None:
        """Over a new registry (``_reset``), the user's declared classes paired again."""
    # Runtime APIs (V15+ metadata) and view functions (V16): types are named
    # ``scale_info::N``; params are a list (by position) or a dict (by name);
    # data is bytes, bytearray or "0x…" hex. Older metadata raises ValueError.
    def runtime_apis(self) -> List[Dict[str, Any]]:
        """``[{"name", "methods": [{"name", "inputs": [{"name", "type", "type_id"}],
        "output", "output_id", "docs"}], "docs", "version"}]``."""
    def view_functions(self) -> List[Dict[str, Any]]:
        """``[{"pallet", "name", "id", "inputs", "output", "output_id", "docs"}]``."""
    def runtime_api_request(self, api: str, method: str,
                            params: Optional[Union[Sequence[Any], Dict[str, Any]]] = None) -> Tuple[str, str]:
        """``("Api_method", "0x…" encoded arguments)``: what ``state_call`` takes."""
    def decode_runtime_api_result(self, api: str, method: str, data: Union[_Data, str]) -> Any: ...
    def view_function_request(self, pallet: str, name: str,
                              params: Optional[Union[Sequence[Any], Dict[str, Any]]] = None) -> Tuple[str, str]:
        """``("RuntimeViewFunction_execute_view_function", "0x…" query id and arguments)``."""
    def decode_view_function_result(self, pallet: str, name: str, data: Union[_Data, str]) -> Any: ...
    def decode_view_function_answer(self, pallet: str, name: str, data: Union[_Data, str]) -> Any:
        """The whole ``Result<Vec<u8>, ViewFunctionDispatchError>`` answer; an ``Err`` raises ``ValueError``."""
    def compose_call(self, call_module: str, call_function: str,
                     call_args: Union[Dict[str, Any], Sequence[Any], None] = None) -> bytes:
        """The bytes of call ``call_module.call_function``: the bytes
        ``create_scale_object("Call").encode({"call_module", "call_function", "call_args"})``
        gives, in one call. ``call_args`` is a dict by argument name (every key one of the
        call's arguments), a list or tuple in the call's order, or ``None`` for a call
        without arguments; values take the forms ``encode`` takes. An unknown pallet, call
        or argument, a missing argument or a value of the wrong type raises ``ValueError``
        naming it."""
    def signature_payload(self, call: Union[_Data, str, ScaleBytes, Any], *,
                          era: Union[str, Dict[str, int], Tuple[int, int], None] = None,
                          nonce: int = 0, tip: int = 0, tip_asset_id: Any = None,
                          genesis_hash: Union[_Data, str], block_hash: Union[_Data, str, None] = None,
                          metadata_hash: Union[_Data, str, None] = None,
                          spec_version: Optional[int] = None, transaction_version: Optional[int] = None,
                          extensions: Optional[Dict[str, Dict[str, Any]]] = None) -> bytes:
        """The bytes a signer signs for a signed (format 4) extrinsic of ``call`` (its bytes:
        ``bytes``, ``bytearray``, ``"0x…"`` hex, ``ScaleBytes`` or an encoded ``Call``
        object): the call, each signed extension's ``extrinsic`` value in metadata order,
        then each one's ``additional_signed`` value; BLAKE2b-256 of that when it is longer
        than 256 bytes. Needs V14+ metadata.

        ``era``: ``None`` or ``"00"`` (immortal), ``{"period": n, "current": block}`` or
        ``{"period": n, "phase": p}`` (mortal), as ``Era`` encodes. ``block_hash``: the hash
        of a mortal era's checkpoint block (required then); an immortal era signs
        ``genesis_hash`` (``block_hash`` may be left out or equal it). ``tip_asset_id``:
        ``ChargeAssetTxPayment``'s asset. ``metadata_hash``: ``CheckMetadataHash`` enabled
        with this hash (``None``: disabled). ``spec_version``/``transaction_version``: the
        runtime's own (its ``System.Version``) unless given. ``extensions``:
        ``{identifier: {"extrinsic": value, "additional_signed": value}}`` for extensions
        other than FRAME's (or in place of what the arguments give); one that carries data
        and is not given raises ``ValueError`` naming it."""
    def storage_key(self, pallet: str, entry: str, params: Any = None) -> str:
        """The ``"0x…"`` storage key of ``pallet.entry``: ``params`` is ``None`` (the entry's prefix),
        one key value, or a list of them (fewer than the map's keys: an iteration prefix)."""
    def storage_keys(self, pallet: str, entry: str, params_list: Sequence[Any]) -> List[str]:
        """One ``"0x…"`` storage key per item of ``params_list`` (as ``storage_key`` reads ``params``), in one call."""
    def decode_storage_key(self, pallet: str, entry: str, key: Union[_Data, str]) -> List[Dict[str, Any]]:
        """A full storage key read back: ``[{"hasher": name, "value": key or None}]``, one per map key."""
    def decode_storage(self, pallet: str, entry: str, data: Union[_Data, str]) -> Any:
        """A value of ``pallet.entry`` (``bytes``, ``bytearray`` or hex), in py-scale-codec's shapes."""

def restore_object(type_string: Optional[str], data: Optional[bytes], config: Any) -> Any:
    """Unpickles a scale object (``ScaleObject.__reduce__``)."""

def ss58_encode(address: Union[str, bytes], ss58_format: Optional[int] = None) -> str: ...
def ss58_decode(address: str, valid_ss58_format: Optional[int] = None) -> str: ...
def is_valid_ss58_address(value: str, valid_ss58_format: Optional[int] = None) -> bool: ...
def ss58_encode_account_index(account_index: int, ss58_format: Optional[int] = None) -> str: ...
def ss58_decode_account_index(address: str, valid_ss58_format: Optional[int] = None) -> int: ...
def get_ss58_format(ss58_address: str) -> int: ...
def metadata_info(data: bytes) -> Dict[str, Any]: ...
def metadata_digest(
    metadata_bytes: bytes,
    *,
    decimals: int,
    token_symbol: str,
    spec_version: Optional[int] = None,
    spec_name: Optional[str] = None,
    base58_prefix: Optional[int] = None,
) -> bytes:
    """The RFC-0078 metadata hash (32 bytes) that ``CheckMetadataHash`` signs (V14+ metadata).
    ``decimals`` and ``token_symbol`` are chain properties; the others default to the metadata's
    ``System.Version`` and ``System.SS58Prefix``. ``ValueError`` when it cannot be made."""
def extrinsic_proof(
    call_data: bytes,
    included_in_extrinsic: bytes,
    included_in_signed_data: bytes,
    metadata_bytes: bytes,
    *,
    decimals: int,
    token_symbol: str,
    spec_version: Optional[int] = None,
    spec_name: Optional[str] = None,
    base58_prefix: Optional[int] = None,
) -> bytes:
    """What an offline signer needs for one signed extrinsic: the RFC-0078 proof of the types its
    call and extensions use, the extrinsic metadata and the extra info, SCALE-encoded one after the
    other. ``ValueError`` for bytes that do not read as the metadata's types."""
def decode_metadata(data: bytes) -> Tuple[Any, int, Dict[str, Any]]:
    """``MetadataVersioned`` from the start of ``data``: (value, bytes used, model)."""
def metadata_value(data: bytes) -> Any:
    """py-scale-codec's value of the ``MetadataVersioned`` that ``data`` holds."""
def metadata_definitions() -> Registry:
    """A new registry of the metadata definitions (``core`` preset's V9–V14, ours for V15/V16)."""
def tuple_elements(type_string: str) -> List[str]:
    """The element types of a tuple type string as written (``[]`` when it is not a tuple)."""
def set_presets_dir(path: str) -> None:
    """Where the installed package keeps the presets (its ``type_registry/``); first call wins."""
def presets_dir() -> str:
    """The folder the Rust engine reads presets from."""
def convert_type_string(name: str) -> str: ...
def typed_part(value: Any, type_string: str, config: Any, source: Any = None, root: Any = None) -> ScaleObject:
    """A decoded scale object of ``type_string`` holding ``value`` in ``config``, its class from
    ``source`` (default: the metadata definitions), part of ``root``; its ``value_object`` is made of
    such parts, as py-scale-codec's decoder would have left it."""
def portable_entry(types: Sequence[Dict[str, Any]], type_id: int, config: Any, root: Any = None) -> Any:
    """Entry ``type_id`` of a portable registry's ``types`` as a ``RegistryType`` part (``None`` when absent)."""
def value_object_of(obj: Any, value: Any) -> Any:
    """The ``value_object`` of a decoded or encoded object holding ``value``: its parts as objects of
    their types (a struct's dict, an enum's ``(variant, object)``, an option's object …), their
    classes looked up in the object's configuration."""
def wrap_parts(value: Any, config: Any) -> Any:
    """A decoded list, tuple or dict with each element (or dict value) as a plain part of ``config``."""
def set_catalogue(by_name: Dict[str, type], by_kind: Dict[TypeKind, type], by_type_string: Dict[str, type],
                  declared: Dict[str, type], definitions: Callable[[], Any]) -> None:
    """``scalecodec.base`` registers its scale classes (by name, node kind and type string), the
    users' declared classes and the metadata-definitions configuration getter."""
def user_definition(cls: type) -> Optional[Union[str, Dict[str, Any]]]:
    """A user's scale class as a preset definition (``type_mapping``, ``value_list`` or type string), else ``None``."""
def multi_account_id(accounts: Sequence[Union[str, bytes]], threshold: int) -> str: ...
def encode_compact(value: int) -> bytes: ...
def check_type_def(registry_type: Any) -> None:
    """A ``NotImplementedError`` unless the portable type's definition kind is one py-scale-codec knows."""
def trailing_zeros(value: int) -> int: ...
def next_power_of_two(value: int) -> int: ...

# Columnar decoding (ferroscale-index; the crate's `index` feature, on in
# the wheel). `scalecodec.index` re-exports these and adds the Dask helper.

_Block = Union[
    Tuple[int, Union[str, bytes], int, Sequence[Union[bytes, str]], Optional[Union[bytes, str]]],
    Dict[str, Any],
]

@final
class SpecDecoder:
    """One runtime's decoder for :func:`decode_blocks` (metadata V14+, or
    V9–V13 with the ``presets`` its type strings resolve through, in order:
    ``["core", "legacy", "polkadot"]`` for Polkadot). Pickles as its
    metadata and settings; an unpickled decoder builds its registry on first
    use, once per process (shared by every copy; the last eight runtimes
    used stay built)."""

    def __new__(
        cls,
        metadata: Union[bytes, bytearray, str],
        ss58_format: Optional[int] = None,
        *,
        presets: Optional[List[str]] = None,
    ) -> Self: ...
    @property
    def spec_version(self) -> int: ...
    @property
    def ss58_format(self) -> Optional[int]: ...
    @property
    def presets(self) -> List[str]: ...
    @property
    def metadata(self) -> bytes: ...
    @property
    def built(self) -> bool:
        """Whether this object holds its built registry (false after unpickling, until first use)."""
    def __reduce__(self) -> Any: ...

@final
class ArrowTable:
    """One table of an :class:`IndexBatch`; ``pyarrow.table(t)`` reads it
    through the Arrow PyCapsule interface without copying (one record batch
    per run of blocks decoded together; ``__arrow_c_array__`` joins them)."""

    @property
    def name(self) -> str: ...
    @property
    def num_rows(self) -> int: ...
    @property
    def column_names(self) -> List[str]: ...
    def __len__(self) -> int: ...
    def __arrow_c_schema__(self) -> Any: ...
    def __arrow_c_stream__(self, requested_schema: Optional[Any] = None) -> Any: ...
    def __arrow_c_array__(self, requested_schema: Optional[Any] = None) -> Tuple[Any, Any]: ...

@final
class IndexBatch:
    """Decoded rows of a batch of blocks: tables ``blocks``, ``extrinsics``,
    ``calls``, ``events``, ``errors``, rows in block order (the Parquet files
    that :meth:`write_parquet` writes sort them by pallet and name)."""

    @property
    def tables(self) -> List[str]: ...
    @property
    def num_rows(self) -> Dict[str, int]: ...
    @property
    def typed_errors(self) -> int:
        """Events and calls that did not fit their typed table (``typed=True``); each is also an
        ``errors`` row with its item, spec version and bytes."""
    @property
    def first_block(self) -> Optional[int]: ...
    @property
    def last_block(self) -> Optional[int]: ...
    def table(self, name: str) -> ArrowTable: ...
    def __getitem__(self, name: str, /) -> ArrowTable: ...
    def all_tables(self) -> Dict[str, ArrowTable]:
        """Every table by name."""
    def typed_tables(self) -> Dict[str, ArrowTable]:
        """The typed tables with rows (decoded with ``typed=True``), by name
        (``events/Balances.Transfer``, ``calls/Timestamp.set``): a table per event variant
        and per call, a column per field in Arrow's own types."""
    def write_parquet(self, out: Union[str, "os.PathLike[str]"], first: Optional[int] = None,
                      last: Optional[int] = None, source: str = "", allow_gaps: bool = False) -> int:
        """Writes the partition ``out/<table>/blocks_<first>_<last>.parquet`` (zstd) and its manifest
        entry; the batch must hold every block of the range (``allow_gaps``: a sample's gaps are
        recorded as absent), none another partition holds (``ValueError`` otherwise). Returns bytes
        written."""

def decode_blocks(blocks: Iterable[_Block], decoders: Union[SpecDecoder, Iterable[SpecDecoder]],
                  typed: bool = False,
                  names_of: Optional[Union[str, "os.PathLike[str]"]] = None) -> IndexBatch:
    """Decodes blocks (GIL released, every core) with each block's spec decoder; ``typed``: the
    typed tables too (:meth:`IndexBatch.typed_tables`), their columns named over every decoder
    given, so that batches decoded with the same decoders agree column for column; ``names_of``:
    an output folder whose saved column names (``_manifest/typed_columns.json``) the batch keeps
    and extends, saved there again before this returns."""
def typed_table_schema(decoders: Union[SpecDecoder, Iterable[SpecDecoder]],
                       name: str) -> ArrowTable:
    """The schema of typed table ``name`` (``events/Balances.Transfer``) over every runtime of
    ``decoders``, as a table of no rows: every column ``decode_blocks(..., typed=True)`` with these
    decoders may give it (``KeyError`` when no runtime has the table)."""
def read_blocks(path: Union[str, "os.PathLike[str]"], first: Optional[int] = None,
                last: Optional[int] = None) -> List[Tuple[int, str, int, List[bytes], Optional[bytes]]]:
    """The blocks of a JSON-lines file whose numbers are in ``first..=last``, in file order; with a
    range, only its lines are parsed, through the file's line index (built once per process)."""
def index_json_lines(source: Union[str, "os.PathLike[str]"], decoders: Union[SpecDecoder, Iterable[SpecDecoder]],
                     out: Union[str, "os.PathLike[str]"], partition_blocks: int = 1000,
                     threads: Optional[int] = None, allow_gaps: bool = False,
                     typed: bool = False) -> Dict[str, Union[int, float]]:
    """The index pipeline over a JSON-lines file into Parquet partitions (``typed``: the typed
    tables too, under ``out/typed/``); the run's summary."""
def missing_blocks(out: Union[str, "os.PathLike[str]"], first: int, last: int) -> List[Tuple[int, int]]:
    """The blocks of ``first..=last`` the manifest of ``out`` does not list as done, as runs."""
def check_index(out: Union[str, "os.PathLike[str]"], first: Optional[int] = None, last: Optional[int] = None,
                allow_gaps: bool = False) -> Dict[str, Any]:
    """The dataset under ``out`` checked against its manifest: ``ok``, ``problems``, ``partitions``,
    ``blocks``, ``files`` and the report as ``text``."""
def block_ranges(first: int, last: int, width: int) -> List[Tuple[int, int]]:
    """``first..=last`` cut at multiples of ``width`` (the index's partitions)."""
def keep_freed_memory() -> bool:
    """Asks glibc's malloc (Linux) to keep memory freed by decoding for reuse instead of returning it to
    the kernel, for a process that indexes for a long time; whether every setting took. Process-wide:
    call it only in a process you own (a script, a cluster worker)."""
def index_decoder_stats() -> Dict[str, Dict[int, int]]:
    """``{"built": {spec: registry builds}, "unpickled": {spec: decoders unpickled}}`` in this process."""
def restore_spec_decoder(
    metadata: bytes, ss58_format: Optional[int], spec_version: int, presets: List[str] = ...
) -> SpecDecoder:
    """Unpickles a SpecDecoder (lazily built)."""

