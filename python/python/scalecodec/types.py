"""Scale classes: the on-demand classes behind type strings, and the few
specialised classes with attributes users reach for (extrinsics, calls,
events, metadata, Era, account ids).

Every class decodes and encodes through the Rust registry of its runtime
configuration; the classes here only add views on the decoded value.
"""
from __future__ import annotations

import hashlib
import json
from typing import Any, Dict, List, Optional
from typing import Tuple as TypingTuple

from scalecodec import _core
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
from scalecodec.exceptions import (
    InvalidScaleTypeValueException,
    MetadataCallFunctionNotFound,
    RemainingScaleBytesNotEmptyException,
)
from scalecodec.utils.ss58 import ss58_decode, ss58_encode

# --------------------------------------------------------------------------
# Generic kinds (one class per node kind; type-string classes derive from these)


class Compact(ScaleType):
    """``Compact<T>``."""


class Option(ScaleType):
    """``Option<T>``: ``None`` or the inner value."""


class Bytes(ScaleType):
    """``Vec<u8>``/``Bytes``: text when valid UTF-8, else ``"0x…"``."""


class OptionBytes(Option):
    """``Option<Vec<u8>>``."""


class String(ScaleType):
    """Text."""


Str = String
GenericStringType = String
Text = String


class HexBytes(ScaleType):
    """Bytes always rendered ``"0x…"``."""


class RawBytes(ScaleType):
    """Uninterpreted bytes: all of the remaining input, ``"0x…"``."""

    type_string = "RawBytes"

    def _decode_value(self, data: bytearray, offset: int, check_remaining: bool):
        raw = bytes(data[offset:])
        return "0x" + raw.hex(), len(raw)

    def _encode_value(self, value: Any) -> bytes:
        if isinstance(value, (bytes, bytearray)):
            return bytes(value)
        if isinstance(value, str) and value.startswith("0x"):
            try:
                return bytes.fromhex(value[2:])
            except ValueError:
                raise ValueError(f"invalid hex: {value[:40]!r}") from None
        raise ValueError("RawBytes are encoded from bytes or a \"0x…\" string")


class CallBytes(RawBytes):
    """A call as raw bytes."""


class Vec(ScaleType):
    """``Vec<T>``."""


class BoundedVec(Vec):
    """``BoundedVec<T, S>``."""


class FixedLengthArray(ScaleType):
    """``[T; N]``."""

    def _encode_value(self, value: Any) -> bytes:
        # py-scale-codec encodes a list given for a non-byte array element by
        # element, whatever its length (its suite pins `[u32; 1]` from
        # `[1, 2]` to 8 bytes); a drop-in keeps that. Byte arrays and every
        # other input keep the strict length check of the Rust encoder.
        sub_type = getattr(type(self), "sub_type", None)
        count = getattr(type(self), "element_count", None)
        if (
            isinstance(value, (list, tuple))
            and sub_type is not None
            and count is not None
            and len(value) != count
            and self.type_string is not None
            and not self.type_string.replace(" ", "").startswith("[u8;")
        ):
            registry = self.runtime_config._registry
            return b"".join(bytes(registry.encode(sub_type, item)) for item in value)
        return super()._encode_value(value)


class _Composite(ScaleType):
    """Classes users define themselves (``type('X', (Struct,), {'type_mapping':
    …})``) have no type string; they decode and encode field by field, each
    field in one Rust call."""

    def _fields(self) -> List[TypingTuple[Optional[str], str]]:
        raise NotImplementedError

    def _decode_value(self, data: bytearray, offset: int, check_remaining: bool):
        if self.type_string is not None:
            return super()._decode_value(data, offset, check_remaining)
        registry = self.runtime_config._registry
        raw = bytes(data)
        pos = offset
        values = []
        for _name, ty in self._fields():
            v, used = registry.decode(ty, raw, pos, False)
            values.append(v)
            pos += used
        if check_remaining and pos != len(raw):
            raise RemainingScaleBytesNotEmptyException(
                f"bytes remaining after the value - current offset: {pos} / length: {len(raw)}"
            )
        return self._assemble(values), pos - offset

    def _assemble(self, values: list) -> Any:
        raise NotImplementedError

    def _encode_value(self, value: Any) -> bytes:
        if self.type_string is not None:
            return super()._encode_value(value)
        registry = self.runtime_config._registry
        fields = self._fields()
        if isinstance(value, dict):
            try:
                items = [value[name] for name, _ty in fields]
            except KeyError as e:
                raise ValueError(f"value has no field {e.args[0]!r}") from None
        elif isinstance(value, (tuple, list)) and len(value) == len(fields):
            items = list(value)
        elif len(fields) == 1:
            items = [value]
        else:
            raise ValueError(f"expected {len(fields)} values, got {value!r}")
        return b"".join(registry.encode(ty, v) for (_n, ty), v in zip(fields, items))


class Tuple(_Composite):
    """A tuple; a 1-tuple is its element."""

    def _fields(self) -> List[TypingTuple[Optional[str], str]]:
        return [(None, t) for t in (self.type_mapping or [])]

    def _assemble(self, values: list) -> Any:
        return values[0] if len(values) == 1 else tuple(values)


class Struct(_Composite):
    """A struct: dict in field order."""

    def _fields(self) -> List[TypingTuple[Optional[str], str]]:
        return [(n, t) for n, t in (self.type_mapping or [])]

    def _assemble(self, values: list) -> Any:
        return {n: v for (n, _t), v in zip(self._fields(), values)}


class Enum(ScaleType):
    """An enum: ``"Name"`` or ``{"Name": value}``."""

    @property
    def index(self) -> Optional[int]:
        """The variant index of the decoded value, when known."""
        return getattr(self, "_index", None)


class Set(ScaleType):
    """A bit-flag set: list of flag names."""


class BitVec(ScaleType):
    """A bit sequence: ``"0b…"``.

    Encoding takes what py-scale-codec takes: an int, a ``"0b…"`` string
    (``_`` separators allowed) or a list of bools, most significant bit
    first; the bit count is the number's bit length."""

    def _encode_value(self, value: Any) -> bytes:
        if isinstance(value, bool):
            raise ValueError("BitVec value must be an int, '0b…' string or list of bools")
        if isinstance(value, list):
            if not all(isinstance(b, (bool, int)) and b in (0, 1) for b in value):
                raise ValueError("BitVec list items must be bools")
            number = int("".join("1" if b else "0" for b in value) or "0", 2)
        elif isinstance(value, str):
            text = value.replace("_", "")
            if not text.startswith("0b") or not set(text[2:]) <= {"0", "1"}:
                raise ValueError(f"{value!r} is not a '0b…' bit string")
            number = int(text[2:] or "0", 2)
        elif isinstance(value, int):
            if value < 0:
                raise ValueError("BitVec value must not be negative")
            number = value
        else:
            raise ValueError(f"cannot encode {type(value).__name__} as BitVec")
        bits = number.bit_length()
        return _compact(bits) + number.to_bytes((bits + 7) // 8, "little")


class Map(ScaleType):
    """A map: list of ``(key, value)``."""


class BTreeMap(Map):
    """``BTreeMap<K, V>``."""


class HashMap(Map):
    """``HashMap<K, V>``."""


class BoundedBTreeMap(Map):
    """``BoundedBTreeMap<K, V, S>``."""


class BTreeSet(Vec):
    """``BTreeSet<T>``."""


class Null(ScaleType):
    """Zero bytes, value ``None``."""


class Bool(ScalePrimitive):
    """``bool``."""


class U8(ScalePrimitive):
    """``u8``."""


class U16(ScalePrimitive):
    """``u16``."""


class U32(ScalePrimitive):
    """``u32``."""


class U64(ScalePrimitive):
    """``u64``."""


class U128(ScalePrimitive):
    """``u128``."""


class U256(ScalePrimitive):
    """``u256``."""


class I8(ScalePrimitive):
    """``i8``."""


class I16(ScalePrimitive):
    """``i16``."""


class I32(ScalePrimitive):
    """``i32``."""


class I64(ScalePrimitive):
    """``i64``."""


class I128(ScalePrimitive):
    """``i128``."""


class I256(ScalePrimitive):
    """``i256``."""


class H160(ScaleType):
    """20 bytes, ``"0x…"``."""


class H256(ScaleType):
    """32 bytes, ``"0x…"``."""


class H512(ScaleType):
    """64 bytes, ``"0x…"``."""


class _Float(ScalePrimitive):
    """IEEE floats (not SCALE types in Rust; handled here with ``struct``)."""

    _fmt = "<d"
    _size = 8

    def _decode_value(self, data: bytearray, offset: int, check_remaining: bool):
        import struct

        end = offset + self._size
        if end > len(data):
            raise RemainingScaleBytesNotEmptyException(
                f"decoding <{self.type_string}> at byte {offset}: needed {self._size} bytes, only {len(data) - offset} left"
            )
        if check_remaining and end != len(data):
            raise RemainingScaleBytesNotEmptyException(
                f"decoding <{self.type_string}>: bytes remaining after the value - current offset: {end} / length: {len(data)}"
            )
        return struct.unpack(self._fmt, bytes(data[offset:end]))[0], self._size

    def _encode_value(self, value: Any) -> bytes:
        import struct

        if not isinstance(value, float):
            raise ValueError(f"{value!r} is not a float")
        return struct.pack(self._fmt, value)


class F64(_Float):
    """``f64``."""

    type_string = "f64"


class F32(_Float):
    """``f32``."""

    type_string = "f32"
    _fmt = "<f"
    _size = 4


# --------------------------------------------------------------------------
# Specialised classes


class Era(ScaleType):
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
        if self.is_immortal():
            return 0
        period, phase = self.value
        return (max(current, phase) - phase) // period * period + phase

    def death(self, current: int) -> int:
        """The block after the last one of the era that contains ``current``."""
        if self.is_immortal():
            return 2 ** 64 - 1
        return self.birth(current) + self.period

    def _encode_value(self, value: Any) -> bytes:
        if isinstance(value, dict):
            if "period" not in value or ("current" not in value and "phase" not in value):
                raise ValueError("Era dict needs 'period' and 'current' (or 'phase')")
        elif isinstance(value, tuple):
            if len(value) != 2 or not all(isinstance(v, int) for v in value):
                raise ValueError("Era tuple must be (period, phase) of ints")
        elif value != "00" and value != "0x00":
            raise ValueError(f"invalid Era value {value!r}")
        try:
            return super()._encode_value(value)
        except Exception as e:  # the Rust encoder's error, as ValueError
            if isinstance(e, ValueError):
                raise
            raise ValueError(str(e)) from None

    def _encoded_value(self, value: Any) -> Any:
        # The value of an encoded Era is what decoding its bytes gives.
        v, _ = self._decode_value(self.data.data, 0, True)
        return v


class GenericAccountId(ScaleType):
    """A 32-byte account id; ``ss58_address`` when an SS58 format is set."""

    type_string = "AccountId"

    # ``public_key`` and ``ss58_address`` are worked out when read (from the
    # bytes last decoded or encoded, and the value), so that decoding an
    # account id needs no Python hook and takes the Rust fast path.

    @property
    def public_key(self) -> Optional[str]:
        """``"0x…"`` hex of the 32 bytes (``None`` before decode/encode)."""
        if "_public_key" in self.__dict__:
            return self.__dict__["_public_key"]
        if self.data_end_offset is None:
            return None
        return "0x" + bytes(self.get_used_bytes()).hex()

    @public_key.setter
    def public_key(self, value: Optional[str]) -> None:
        self.__dict__["_public_key"] = value

    @property
    def ss58_address(self) -> Optional[str]:
        """The SS58 address in the configuration's format (``None`` without one)."""
        if "_ss58_address" in self.__dict__:
            return self.__dict__["_ss58_address"]
        if self.data_end_offset is None:
            return None
        value = self.value
        if isinstance(value, str) and not value.startswith("0x"):
            return value
        fmt = self.runtime_config.ss58_format
        return ss58_encode(bytes(self.get_used_bytes()), fmt) if fmt is not None else None

    @ss58_address.setter
    def ss58_address(self, value: Optional[str]) -> None:
        self.__dict__["_ss58_address"] = value

    def _encoded_value(self, value: Any) -> Any:
        raw = bytes(self.get_used_bytes())
        fmt = self.runtime_config.ss58_format
        return ss58_encode(raw, fmt) if fmt is not None else "0x" + raw.hex()


class GenericEthereumAccountId(ScaleType):
    """A 20-byte account id."""


class GenericAccountIndex(ScaleType):
    """An account index."""


class GenericMultiAddress(ScaleType):
    """``MultiAddress``: the bare account id for ``Id``, else ``{"Variant": value}``."""

    type_string = "MultiAddress"

    @property
    def account_id(self) -> Optional[str]:
        """The 32-byte account (hex without ``0x``) behind ``Id``,
        ``Address32``, ``Address20`` and ``Raw`` addresses (shorter ones
        zero-padded, longer ``Raw`` bytes cut), else ``None``."""
        raw = bytes(self.get_used_bytes())
        if not raw:
            return None
        variant = raw[0]
        if variant == 0:
            key = raw[1:]
        elif variant in (3, 4):
            key = raw[1:]
        elif variant == 2:
            key = _strip_compact(raw[1:])
        else:
            return None
        return key[:32].ljust(32, b"\x00").hex()

    @property
    def account_index(self) -> Optional[int]:
        """The account index when the address is an ``Index``."""
        raw = bytes(self.get_used_bytes())
        if raw[:1] == b"\x01":
            return self.value.get("Index") if isinstance(self.value, dict) else self.value
        return None

    def _encode_value(self, value: Any) -> bytes:
        # py-scale-codec also takes a bare account index (int or an SS58
        # account-index address) for the ``Index`` variant.
        if isinstance(value, int) and not isinstance(value, bool):
            value = {"Index": value}
        elif isinstance(value, str) and not value.startswith("0x") and len(value) < 20:
            from scalecodec.utils.ss58 import ss58_decode_account_index
            value = {"Index": ss58_decode_account_index(value)}
        elif isinstance(value, str) and value.startswith("0x") and len(value) not in (42, 66):
            raise NotImplementedError("Address type not yet supported: give {'Raw': …} for other lengths")
        return super()._encode_value(value)


def _strip_compact(raw: bytes) -> bytes:
    """``raw`` without its leading compact length prefix."""
    if not raw:
        return raw
    mode = raw[0] & 3
    return raw[{0: 1, 1: 2, 2: 4}.get(mode, 1 + (raw[0] >> 2) + 4):]


class GenericAddress(ScaleType):
    """The pre-MultiAddress ``Address`` encoding."""


AccountIdAddress = GenericAddress
RawAddress = GenericAddress


class MultiAccountId(GenericAccountId):
    """A multisig account id."""

    type_string = "AccountId"

    @classmethod
    def create_from_account_list(cls, accounts: List[str], threshold: int) -> "MultiAccountId":
        """The multisig account of ``accounts`` (SS58 or hex) with ``threshold``."""
        keys = sorted(bytes.fromhex(ss58_decode(a)) for a in accounts)
        if not 0 <= threshold < 1 << 16:
            raise ValueError("threshold must fit in a u16")
        payload = b"modlpy/utilisuba" + _compact(len(keys)) + b"".join(keys) + threshold.to_bytes(2, "little")
        account = hashlib.blake2b(payload, digest_size=32).digest()
        config = cls.__dict__.get("_runtime_config") or RuntimeConfiguration()
        obj = config.create_scale_object("AccountId")
        obj.encode("0x" + account.hex())
        # py-scale-codec gives the multisig account as hex whatever the SS58 format
        obj.value = "0x" + account.hex()
        return obj


def _compact(n: int) -> bytes:
    if n < 1 << 6:
        return bytes([n << 2])
    if n < 1 << 14:
        return ((n << 2) | 1).to_bytes(2, "little")
    if n < 1 << 30:
        return ((n << 2) | 2).to_bytes(4, "little")
    raw = n.to_bytes((n.bit_length() + 7) // 8, "little")
    return bytes([((len(raw) - 4) << 2) | 3]) + raw


class _MetaRef(_Part):
    """A pallet or call named by a decoded call (``call_module``/``call_function``)."""

    @property
    def name(self) -> Any:
        """The name."""
        return self.value.get("name") if isinstance(self.value, dict) else self.value


def _call_view(value: Any, config: RuntimeConfigurationObject) -> Any:
    if not isinstance(value, dict):
        return _wrap_parts(value, config)
    view = {}
    for k, v in value.items():
        if k in ("call_module", "call_function"):
            view[k] = _MetaRef(v, config)
        elif k == "call_args" and isinstance(v, list):
            view[k] = [_wrap_arg(a, config) for a in v]
        else:
            view[k] = _Part(v, config)
    return view


def _wrap_arg(arg: Any, config: RuntimeConfigurationObject) -> Any:
    if isinstance(arg, dict) and "value" in arg:
        return {**{k: v for k, v in arg.items()}, "value": _Part(arg["value"], config)}
    return _Part(arg, config)


class GenericCall(ScaleType):
    """A call: ``{"call_index", "call_function", "call_module", "call_args", "call_hash"}``."""

    type_string = "Call"

    def _build_value_object(self, value: Any) -> Any:
        return _call_view(value, self.runtime_config)

    def _encode_value(self, value: Any) -> bytes:
        if isinstance(value, ScaleDecoder):
            value = value.value
        if not isinstance(value, dict):
            raise TypeError(f"a call is encoded from a dict, not {type(value).__name__}")
        return super()._encode_value(_opaque_call_args(value, self.metadata, self.runtime_config))

    def _after_decode(self) -> None:
        _fix_call_address_args(self._value)

    @property
    def call_module(self) -> Any:
        """The pallet (``.name``)."""
        return self.value_object["call_module"]

    @property
    def call_function(self) -> Any:
        """The call (``.name``)."""
        return self.value_object["call_function"]


_SIGNATURE_VARIANTS = {0: "Ed25519", 1: "Sr25519", 2: "Ecdsa"}


def _opaque_call_args(value: dict, metadata: Any, config: RuntimeConfigurationObject) -> dict:
    """Encodes call arguments of legacy type ``OpaqueCall`` given as a call
    dict into their bytes first: the Rust encoder takes ``OpaqueCall`` as
    plain bytes (see the report)."""
    info = getattr(metadata, "_info", None)
    args = value.get("call_args")
    if info is None or not isinstance(args, dict):
        return value
    for pallet in info["pallets"]:
        if pallet["name"] != value.get("call_module") or pallet["calls"] is None:
            continue
        for call in pallet["calls"]["variants"]:
            if call["name"] != value.get("call_function"):
                continue
            new_args = dict(args)
            for arg in call["args"]:
                name, ty = arg["name"], arg["type"]
                if ty == "OpaqueCall" and isinstance(new_args.get(name), dict):
                    inner = _opaque_call_args(new_args[name], metadata, config)
                    new_args[name] = "0x" + config._registry.encode("Call", inner).hex()
            return {**value, "call_args": new_args}
    return value


def _fix_call_address_args(call: Any) -> None:
    """py-scale-codec shows a legacy ``Address``/``LookupSource`` inside a
    call's arguments in its serialized form (``"0x…"``), while a bare
    ``Address`` value has no ``0x``. The Rust decoder renders both without;
    this adds the prefix for call arguments (see the report: belongs in the
    decoder)."""
    if not isinstance(call, dict):
        return
    for arg in call.get("call_args") or []:
        if not isinstance(arg, dict):
            continue
        v = arg.get("value")
        if arg.get("type") in ("LookupSource", "Address", "<T::Lookup as StaticLookup>::Source") \
                and isinstance(v, str) and len(v) == 64 and not v.startswith("0x"):
            try:
                bytes.fromhex(v)
            except ValueError:
                continue
            arg["value"] = "0x" + v
        elif isinstance(v, dict) and "call_args" in v:
            _fix_call_address_args(v)


def _is_hex(text: str) -> bool:
    try:
        bytes.fromhex(text)
        return True
    except ValueError:
        return False


class _CallPart(_Part):
    """The call inside a decoded extrinsic, with the call object's accessors."""

    @property
    def call_module(self) -> Any:
        """The pallet (``.name``)."""
        return self.value_object["call_module"]

    @property
    def call_function(self) -> Any:
        """The call (``.name``)."""
        return self.value_object["call_function"]


class _UsedBytesPart(_Part):
    """A part whose ``get_used_bytes()`` are the bytes it was decoded from."""

    def __init__(self, value: Any, runtime_config: RuntimeConfigurationObject, used: bytes):
        super().__init__(value, runtime_config)
        self.data = ScaleBytes(bytearray(used))
        self.data_start_offset = 0
        self.data_end_offset = len(used)


class GenericExtrinsic(ScaleType):
    """An extrinsic (compact-length prefixed) as py-scale-codec shows it."""

    type_string = "Extrinsic"
    #: Whether the decoded extrinsic carries a signature (``None`` before decoding).
    signed: Optional[bool] = None

    def _length_prefix(self) -> bytes:
        """The compact length prefix as it stood in the decoded bytes."""
        if self.data is None or self.data_start_offset is None:
            return b""
        raw = self.data.data
        start = self.data_start_offset
        if start >= len(raw):
            return b""
        mode = raw[start] & 3
        size = (1, 2, 4)[mode] if mode < 3 else 5 + (raw[start] >> 2)
        return bytes(raw[start:start + size])

    def _after_decode(self) -> None:
        prefix = self._length_prefix()
        end = self.data_start_offset + len(prefix) if self.data_start_offset is not None else 0
        if self.data is not None and end < len(self.data.data):
            # the version byte's top bit marks a signed extrinsic
            self.signed = bool(self.data.data[end] & 0x80)
        if isinstance(self._value, dict):
            _fix_call_address_args(self._value.get("call"))
            address = self._value.get("address")
            if isinstance(address, str) and len(address) == 64 and _is_hex(address):
                self._value["address"] = "0x" + address

    def _encode_value(self, value: Any) -> bytes:
        if isinstance(value, dict):
            original = value
            value = dict(value)
            # py-scale-codec names the signer ``account_id``.
            if value.get("address") is None and value.get("account_id") is not None:
                value["address"] = value["account_id"]
            version = value.get("signature_version")
            sig = value.get("signature")
            if isinstance(version, int) and isinstance(sig, str) and self._signature_is_enum():
                value["signature"] = {_SIGNATURE_VARIANTS.get(version, "Sr25519"): sig}
                # py-scale-codec rewrites the caller's dict the same way, and
                # code written against it compares with the rewritten value.
                original["signature"] = value["signature"]
        return super()._encode_value(value)

    def _signature_is_enum(self) -> bool:
        try:
            idx = self.runtime_config._registry.resolve("ExtrinsicSignature")
        except NotImplementedError:
            return False
        kind, _children, names = self.runtime_config._registry.node_info(idx)
        return kind == "Enum" and "Sr25519" in names

    def _build_value_object(self, value: Any) -> Any:
        if not isinstance(value, dict):
            return _wrap_parts(value, self.runtime_config)
        view = {}
        for k, v in value.items():
            if k == "call":
                part = _CallPart(v, self.runtime_config)
                part._value_object = _call_view(v, self.runtime_config)
                view[k] = part
            elif k == "extrinsic_length":
                view[k] = _UsedBytesPart(v, self.runtime_config, self._length_prefix())
            elif k == "era":
                view[k] = self._era_object(v)
            else:
                view[k] = _Part(v, self.runtime_config)
        return view

    def _era_object(self, value: Any) -> "Era":
        era = Era(runtime_config=self.runtime_config)
        try:
            era.encode(value)
        except (ValueError, TypeError):
            era.value = value
        return era

    @property
    def extrinsic_hash(self) -> Optional[str]:
        """The extrinsic's hash, when the decoder reported one."""
        return self.value.get("extrinsic_hash") if isinstance(self.value, dict) else None


GenericExtrinsicV4 = GenericExtrinsic


class Extrinsic(GenericExtrinsic):
    """``Extrinsic`` (instantiable directly with ``metadata=``)."""


class GenericEvent(ScaleType):
    """A runtime event."""


class GenericScaleInfoEvent(GenericEvent):
    """A scale-info runtime event."""


class GenericEventRecord(ScaleType):
    """An event record (phase, event, topics)."""

    @property
    def event_index(self) -> Any:
        """The event's index (hex)."""
        return self.value.get("event_index") if isinstance(self.value, dict) else None


EventRecord = GenericEventRecord


class GenericVote(ScaleType):
    """A conviction vote byte."""


class Data(ScaleType):
    """Identity ``Data``."""


class WrapperKeepOpaque(ScaleType):
    """``WrapperKeepOpaque<T>``: length-prefixed bytes holding a ``T``; the
    value is the decoded ``T``, or ``"0x…"`` of the bytes when they do not
    decode as one. ``type_mapping = (length type, T)`` may be set after
    creation (py-scale-codec's way of saying what the bytes hold).

    Composed from two Rust calls (length, then ``T`` on the inner bytes):
    the dynamic registry does not resolve ``WrapperKeepOpaque<T>`` strings
    yet (see the report)."""

    type_string = "WrapperKeepOpaque"

    def _inner(self) -> Optional[str]:
        mapping = self.type_mapping
        if isinstance(mapping, (list, tuple)) and len(mapping) == 2 and isinstance(mapping[1], str):
            return mapping[1]
        text = _sub_type_text(self.type_string or "")
        return text

    def _decode_value(self, data: bytearray, offset: int, check_remaining: bool):
        inner = self._inner()
        registry = self.runtime_config._registry
        raw = bytes(data)
        length, used = registry.decode("Compact<u32>", raw, offset, False)
        start = offset + used
        end = start + length
        if end > len(raw):
            raise _core_not_enough(f"decoding <WrapperKeepOpaque> at byte {offset}: needed {length} bytes, "
                                   f"only {len(raw) - start} left")
        if check_remaining and end != len(raw):
            raise RemainingScaleBytesNotEmptyException(
                f"bytes remaining after the value - current offset: {end} / length: {len(raw)}"
            )
        value: Any = "0x" + raw[start:end].hex()
        if inner is not None:
            try:
                value, _ = registry.decode(inner, raw[:end], start, True)
            except (ValueError, InvalidScaleTypeValueException, RemainingScaleBytesNotEmptyException):
                pass
        return value, end - offset

    def _encode_value(self, value: Any) -> bytes:
        inner = self._inner()
        if inner is None:
            raise NotImplementedError("WrapperKeepOpaque needs a type_mapping naming the wrapped type")
        if isinstance(value, str) and value.startswith("0x"):
            body = bytes.fromhex(value[2:])
        else:
            body = self.runtime_config._registry.encode(inner, value)
        return _compact(len(body)) + body


def _core_not_enough(message: str) -> Exception:
    from scalecodec.exceptions import NotEnoughBytesError
    return NotEnoughBytesError(message)


class OpaqueCall(ScaleType):
    """A call inside length-prefixed bytes; the value is the call's dict.

    Composed here from two Rust calls (``Compact<u32>`` length, then ``Call``)
    because the dynamic registry resolves ``OpaqueCall`` to plain bytes."""

    type_string = "OpaqueCall"

    def _decode_value(self, data: bytearray, offset: int, check_remaining: bool):
        registry = self.runtime_config._registry
        raw = bytes(data)
        length, used = registry.decode("Compact<u32>", raw, offset, False)
        end = offset + used + length
        if end > len(raw):
            raise RemainingScaleBytesNotEmptyException(
                f"decoding <OpaqueCall> at byte {offset}: needed {length} bytes, only {len(raw) - offset - used} left"
            )
        call, _ = registry.decode("Call", raw[:end], offset + used, True)
        _fix_call_address_args(call)
        if check_remaining and end != len(raw):
            raise RemainingScaleBytesNotEmptyException(
                f"bytes remaining after the value - current offset: {end} / length: {len(raw)}"
            )
        return call, end - offset

    def _encode_value(self, value: Any) -> bytes:
        if isinstance(value, ScaleDecoder):
            value = value.value
        if not isinstance(value, dict):
            return super()._encode_value(value)
        call = self.runtime_config._registry.encode("Call", value)
        return _compact(len(call)) + call


# --------------------------------------------------------------------------
# Metadata


class GenericStorageEntryMetadata(_Part):
    """A storage function of a pallet."""

    def __init__(self, entry: dict, pallet: "GenericPalletMetadata", config: RuntimeConfigurationObject,
                 value: Any):
        super().__init__(value, config)
        self._entry = entry
        self.pallet = pallet

    @property
    def name(self) -> str:
        """The storage function's name."""
        return self._entry["name"]

    @property
    def modifier(self) -> str:
        """``"Optional"`` or ``"Default"``."""
        return self._entry["modifier"]

    def get_params_type_string(self) -> List[str]:
        """The key types, one per hasher, as normalised type strings."""
        return [self.runtime_config.convert_type_string(k) for k in self._entry["keys"]]

    def get_param_hashers(self) -> List[str]:
        """The hashers, one per key; a plain entry's key is hashed with
        ``Twox64Concat`` in py-scale-codec's view."""
        return list(self._entry["hashers"]) or ["Twox64Concat"]

    def get_value_type_string(self) -> str:
        """The value type."""
        return self.runtime_config.convert_type_string(self._entry["value"])

    @property
    def default(self) -> bytes:
        """The SCALE-encoded default value."""
        return self._entry["default"]

    @property
    def docs(self) -> List[str]:
        """Documentation lines."""
        return list(self._entry["docs"])


#: The storage-version entry py-scale-codec adds to each pallet with storage:
#: the core model's shape and the value shape.
_STORAGE_VERSION_ENTRY = {
    "name": ":__STORAGE_VERSION__:", "modifier": "Default", "hashers": [], "keys": [], "value": "u16",
    "default": b"\x00\x00", "docs": ["Returns the current pallet version from storage"],
}
_STORAGE_VERSION_VALUE = {
    "name": ":__STORAGE_VERSION__:", "modifier": "Default", "type": {"Plain": "u16"}, "default": "0x0000",
    "documentation": ["Returns the current pallet version from storage"],
}


class GenericPalletMetadata(_Part):
    """A pallet (module) of the metadata; ``value`` is its decoded dict."""

    def __init__(self, info: dict, config: RuntimeConfigurationObject, value: Any):
        super().__init__(value, config)
        self._info = info

    @property
    def name(self) -> str:
        """The pallet's name."""
        return self._info["name"]

    @property
    def index(self) -> int:
        """The pallet's index."""
        return self._info["index"]

    @property
    def storage(self) -> Optional[List[GenericStorageEntryMetadata]]:
        """The storage functions, ``None`` when the pallet has no storage."""
        storage = self._info["storage"]
        if storage is None:
            return None
        entry_values = ((self.value or {}).get("storage") or {}).get("entries") or []
        # py-scale-codec lists the pallet's storage version first, a u16 under a
        # reserved name, in every metadata version
        out = [GenericStorageEntryMetadata(_STORAGE_VERSION_ENTRY, self, self.runtime_config,
                                           dict(_STORAGE_VERSION_VALUE))]
        for i, e in enumerate(storage["entries"]):
            entry_value = entry_values[i] if i < len(entry_values) else None
            out.append(GenericStorageEntryMetadata(e, self, self.runtime_config, entry_value))
        return out

    def get_storage_function(self, name: str) -> Optional[GenericStorageEntryMetadata]:
        """The storage function called ``name`` (``PalletVersion`` is the
        storage version entry)."""
        if name == "PalletVersion":
            name = _STORAGE_VERSION_ENTRY["name"]
        for entry in self.storage or []:
            if entry.name == name:
                return entry
        return None

    @property
    def calls(self) -> Optional[list]:
        """The calls (with ``name``, ``index``, ``args``)."""
        e = self._info["calls"]
        return None if e is None else [_MetaRef(v, self.runtime_config) for v in e["variants"]]

    @property
    def events(self) -> Optional[list]:
        """The events."""
        e = self._info["events"]
        return None if e is None else [_MetaRef(v, self.runtime_config) for v in e["variants"]]

    @property
    def errors(self) -> Optional[list]:
        """The errors."""
        e = self._info["errors"]
        return None if e is None else [_MetaRef(v, self.runtime_config) for v in e["variants"]]

    @property
    def constants(self) -> list:
        """The constants (dicts with ``name``, ``type``, ``value`` bytes)."""
        return list(self._info["constants"])

    def get_constant(self, name: str) -> Optional[dict]:
        """The constant called ``name``."""
        for c in self._info["constants"]:
            if c["name"] == name:
                return c
        return None


class _VersionEnum(_Part):
    """``value_object[1]`` of a metadata object: the version variant."""

    def __init__(self, value: Any, config: RuntimeConfigurationObject, index: int, inner: Any):
        super().__init__(value, config)
        self.index = index
        self._inner = inner

    def _build_value_object(self, value: Any) -> Any:
        name = next(iter(value))
        return (name, self._inner)


#: The versions the Rust core reads.
_METADATA_VERSIONS = range(9, 17)

_metadata_config: Optional[RuntimeConfigurationObject] = None


def _metadata_value_config() -> RuntimeConfigurationObject:
    """A private configuration holding the metadata type definitions, so a
    metadata value decodes the same whatever presets the caller loaded."""
    global _metadata_config
    if _metadata_config is None:
        from scalecodec.type_registry import load_type_registry_preset
        core = load_type_registry_preset("core")
        # MetadataVersioned decodes in the Rust core, with the core preset's
        # MetadataV9-V14 (read from this package's type_registry/, see
        # scalecodec.base) and its own V15/V16 definitions (NEWER_METADATA_TYPES)
        config = RuntimeConfigurationObject()
        config.update_type_registry(core)
        config.update_type_registry_types(json.loads(_core.NEWER_METADATA_TYPES))
        _metadata_config = config
    return _metadata_config


class GenericMetadataVersioned(ScaleType):
    """``MetadataVersioned``: runtime metadata V9–V16. The Rust core reads the
    model behind the helpers; the value is the metadata decoded with the
    ``MetadataV<n>`` type definitions, as py-scale-codec shows it."""

    type_string = "MetadataVersioned"
    _info: Optional[dict] = None
    _metadata_bytes: Optional[bytes] = None

    def _decode_value(self, data: bytearray, offset: int, check_remaining: bool):
        raw = bytes(data[offset:])
        if len(raw) >= 5 and raw[:4] == b"meta" and raw[4] not in _METADATA_VERSIONS:
            raise ValueError(f"metadata version {raw[4]} is not supported (only V9 to V16)")
        try:
            info = _core.metadata_info(raw)
        except ValueError as e:
            raise InvalidScaleTypeValueException(str(e)) from None
        value, used = _metadata_value_config()._registry.decode("MetadataVersioned", raw, 0, False)
        self._info = info
        self._metadata_bytes = raw[:used]
        return value, used

    def _before_decode(self) -> None:
        pass

    def _encode_value(self, value: Any) -> bytes:
        raise NotImplementedError("encoding MetadataVersioned is not supported")

    def _inner_value(self) -> dict:
        info = self._require()
        return self.value[1][f"V{info['version']}"]

    def _pallet_values(self) -> list:
        info = self._require()
        inner = self._inner_value()
        return inner["pallets" if info["version"] >= 14 else "modules"]

    def _pallet_objects(self) -> List[GenericPalletMetadata]:
        return [GenericPalletMetadata(p, self.runtime_config, v)
                for p, v in zip(self._require()["pallets"], self._pallet_values())]

    def _build_value_object(self, value: Any) -> Any:
        info = self._require()
        version = info["version"]
        list_key = "pallets" if version >= 14 else "modules"
        inner = {}
        for k, v in self._inner_value().items():
            inner[k] = self._pallet_objects() if k == list_key else _Part(v, self.runtime_config)
        return (_Part(self.value[0], self.runtime_config),
                _VersionEnum(self.value[1], self.runtime_config, version, inner))

    def _require(self) -> dict:
        if self._info is None:
            raise ValueError("metadata is not decoded")
        return self._info

    @property
    def portable_registry(self) -> Any:
        """The portable registry (V14+) as its decoded value, ``None`` for legacy metadata."""
        info = self._require()
        return _Part(self._inner_value()["types"], self.runtime_config) if info["version"] >= 14 else None

    @property
    def pallets(self) -> List[GenericPalletMetadata]:
        """The pallets (modules)."""
        return self._pallet_objects()

    def get_metadata_pallet(self, name: str) -> Optional[GenericPalletMetadata]:
        """The pallet called ``name``."""
        for p in self._pallet_objects():
            if p.name == name:
                return p
        return None

    def _variant_index(self, kind: str) -> Dict[str, TypingTuple[GenericPalletMetadata, dict]]:
        """``{"PPVV": (pallet, variant)}`` over the pallets' ``kind``
        (``"calls"`` or ``"events"``), keyed by pallet and variant index in hex."""
        out = {}
        for pallet in self._pallet_objects():
            enum = pallet._info[kind]
            if enum is None:
                continue
            for v in enum["variants"]:
                out[f"{enum['pallet_index']:02x}{v['index']:02x}"] = (pallet, _MetaRef(v, self.runtime_config))
        return out

    @property
    def call_index(self) -> Dict[str, TypingTuple[GenericPalletMetadata, dict]]:
        """``{"PPCC": (pallet, call)}`` keyed by pallet and call index in hex."""
        return self._variant_index("calls")

    @property
    def event_index(self) -> Dict[str, TypingTuple[GenericPalletMetadata, dict]]:
        """``{"PPEE": (pallet, event)}``."""
        return self._variant_index("events")

    def get_signed_extensions(self) -> Dict[str, dict]:
        """Signed extensions ``{identifier: {"extrinsic", "additional_signed"}}``."""
        return dict(self._require().get("signed_extensions") or {})


MetadataVersioned = GenericMetadataVersioned


# --------------------------------------------------------------------------
# Classes for type strings


_SPECIAL_CLASSES = {
    "Special:AccountId": GenericAccountId,
    "Special:EthereumAccountId": GenericEthereumAccountId,
    "Special:AccountIndex": GenericAccountIndex,
    "Special:MultiAddress": GenericMultiAddress,
    "Special:LegacyAddress": GenericAddress,
    "Special:Era": Era,
    "Special:Call": GenericCall,
    "Special:Extrinsic": GenericExtrinsic,
    "Special:Event": GenericEvent,
    "Special:ScaleInfoEvent": GenericScaleInfoEvent,
    "Special:EventRecord": GenericEventRecord,
    "Special:IdentityData": Data,
    "Special:HexBytes": HexBytes,
    "Special:MetadataVersioned": GenericMetadataVersioned,
    "Special:Vote": GenericVote,
    "Special:WrapperKeepOpaque": WrapperKeepOpaque,
}

_KIND_CLASSES = {
    "Null": Null,
    "Compact": Compact,
    "Seq": Vec,
    "Bytes": Bytes,
    "Tuple": Tuple,
    "Struct": Struct,
    "Enum": Enum,
    "Option": Option,
    "Result": Enum,
    "BitSeq": BitVec,
    "Map": BTreeMap,
}

_PRIM_CLASSES = {
    "Bool": Bool, "U8": U8, "U16": U16, "U32": U32, "U64": U64, "U128": U128, "U256": U256,
    "I8": I8, "I16": I16, "I32": I32, "I64": I64, "I128": I128, "I256": I256, "Str": String,
}

_BY_NAME = {
    "f64": F64,
    "f32": F32,
    "multiaccountid": MultiAccountId,
    "wrapperkeepopaque": WrapperKeepOpaque,
    "rawbytes": RawBytes,
    "opaquecall": OpaqueCall,
}


def _base_for(kind: str) -> type:
    if kind in _SPECIAL_CLASSES:
        return _SPECIAL_CLASSES[kind]
    if kind.startswith("Prim:"):
        return _PRIM_CLASSES.get(kind[5:], ScalePrimitive)
    if kind.startswith("ByteArray:") or kind.startswith("Array:"):
        return FixedLengthArray
    if kind.startswith("Set:"):
        return Set
    return _KIND_CLASSES.get(kind, ScaleType)


def class_for_node(config: RuntimeConfigurationObject, type_string: str, idx: int) -> type:
    """The class of ``type_string`` (resolved to graph node ``idx``) in ``config``."""
    registry = config._registry
    kind, children, names = registry.node_info(idx)
    base = _base_for(kind)
    attrs: Dict[str, Any] = {"type_string": type_string, "_runtime_config": config, "_node": idx}

    def child_name(i: Optional[int]) -> Optional[str]:
        return None if i is None else registry.describe(i)

    if kind in ("Compact", "Seq", "Option") or kind.startswith("Array:"):
        attrs["sub_type"] = _sub_type_text(type_string) or child_name(children[0])
    if kind.startswith("Array:") or kind.startswith("ByteArray:"):
        attrs["element_count"] = int(kind.split(":", 1)[1])
    if kind == "Tuple":
        attrs["type_mapping"] = _tuple_items_text(type_string) or [child_name(c) for c in children]
    elif kind == "Struct":
        attrs["type_mapping"] = [[n, child_name(c)] for n, c in zip(names, children)]
    elif kind == "Enum":
        attrs["type_mapping"] = [[n, child_name(c) or "Null"] for n, c in zip(names, children)]
        attrs["value_list"] = list(names)
    elif kind.startswith("Set:"):
        attrs["value_list"] = list(names)
    definition = registry.definition_info(type_string) if not type_string.startswith("scale_info::") else None
    bases: TypingTuple[type, ...] = (base,)
    if definition is not None:
        def_kind, mapping, base_class = definition
        if def_kind == "struct" and kind == "Struct":
            attrs["type_mapping"] = [[n, t] for n, t in mapping]
        elif def_kind == "tuple" and kind == "Tuple":
            attrs["type_mapping"] = list(mapping)
        elif def_kind == "enum" and kind == "Enum":
            attrs["type_mapping"] = [[n, t or "Null"] for n, t in mapping]
        named = globals().get(base_class) if base_class else None
        if isinstance(named, type) and issubclass(named, ScaleDecoder) and named is not base:
            bases = (named,) if issubclass(named, base) else (named, base)
    if type_string.startswith("scale_info::"):
        attrs["scale_info_type"] = _portable_type_of(config, type_string)
    name = type_string if type_string.isidentifier() else base.__name__
    cls = type(name, bases, attrs)
    filler = _REGISTRY_DEFAULTS.get(type_string)
    if filler is not None:
        def _encode_value(self: ScaleType, value: Any, _cls: type = cls, _fill: Any = filler) -> bytes:
            return super(_cls, self)._encode_value(_fill(value))
        cls._encode_value = _encode_value  # type: ignore[method-assign]
    # Whether the class decodes / encodes exactly as node ``idx`` does: then
    # the Rust ``decode`` / ``encode`` skip the Python hooks while the
    # registry stays at this generation.
    plain_decode = _inherits(cls, _DECODE_HOOKS)
    plain_encode = filler is None and _inherits(cls, _ENCODE_HOOKS[1:]) and (
        cls._encode_value is ScaleDecoder._encode_value
        # FixedLengthArray's element-wise fallback never applies to byte arrays
        or (cls._encode_value is FixedLengthArray._encode_value and kind.startswith("ByteArray:")))
    if plain_decode or plain_encode:
        cls._fast_node = _core.FastNode(idx, registry.generation, plain_decode, plain_encode)
    return cls


# Methods whose override means a class decodes / encodes differently from its node.
_DECODE_HOOKS = ("decode", "_decode_value", "_before_decode", "_after_decode")
_ENCODE_HOOKS = ("_encode_value", "encode", "_encoded_value", "_before_decode")


def _inherits(cls: type, hooks: TypingTuple[str, ...]) -> bool:
    return all(getattr(cls, hook) is getattr(ScaleDecoder, hook) for hook in hooks)


# A portable registry given as JSON (as scale-info serialises it) leaves out
# empty lists and absent names; py-scale-codec encodes it with those filled in.


def _with_defaults(value: Any, defaults: Dict[str, Any]) -> Any:
    if not isinstance(value, dict):
        return value
    out = dict(value)
    for key, default in defaults.items():
        if key not in out:
            out[key] = list(default) if isinstance(default, list) else default
    return out


def _fill_field(value: Any) -> Any:
    return _with_defaults(value, {"name": None, "typeName": None, "docs": []})


def _fill_variant(value: Any) -> Any:
    out = _with_defaults(value, {"fields": [], "docs": []})
    if isinstance(out, dict) and isinstance(out["fields"], list):
        out["fields"] = [_fill_field(f) for f in out["fields"]]
    return out


def _fill_list(key: str, item: Any) -> Any:
    def fill(value: Any) -> Any:
        if isinstance(value, dict):
            items = value.get(key, [])
            if isinstance(items, list):
                return {**value, key: [item(v) for v in items]}
        return value
    return fill


_fill_composite = _fill_list("fields", _fill_field)
_fill_variants = _fill_list("variants", _fill_variant)


def _fill_type_def(value: Any) -> Any:
    if isinstance(value, dict) and len(value) == 1:
        kind, inner = next(iter(value.items()))
        if kind == "composite":
            return {kind: _fill_composite(inner)}
        if kind == "variant":
            return {kind: _fill_variants(inner)}
    return value


def _fill_registry_type(value: Any) -> Any:
    out = _with_defaults(value, {"path": [], "params": [], "docs": []})
    if isinstance(out, dict) and "def" in out:
        out["def"] = _fill_type_def(out["def"])
    return out


def _fill_portable_type(value: Any) -> Any:
    if isinstance(value, dict) and "type" in value:
        return {**value, "type": _fill_registry_type(value["type"])}
    return value


_fill_portable_registry = _fill_list("types", _fill_portable_type)

#: Type strings whose encoding fills in what scale-info's JSON leaves out.
_REGISTRY_DEFAULTS = {
    "PortableRegistry": _fill_portable_registry,
    "PortableType": _fill_portable_type,
    "RegistryType": _fill_registry_type,
    "TypeDef": _fill_type_def,
    "TypeDefComposite": _fill_composite,
    "TypeDefVariant": _fill_variants,
    "Field": _fill_field,
    "Variant": _fill_variant,
}


def _portable_type_of(config: RuntimeConfigurationObject, type_string: str) -> Optional[ScaleType]:
    """The portable-registry entry ``scale_info::N`` names (its ``path``,
    ``params``, ``def`` and ``docs``), from the configuration's metadata."""
    metadata = getattr(config, "metadata", None)
    if not isinstance(metadata, GenericMetadataVersioned) or metadata._info is None:
        return None
    try:
        type_id = int(type_string[len("scale_info::"):])
        types = metadata.portable_registry.value["types"]
    except (ValueError, AttributeError, KeyError, TypeError):
        return None
    # ids are the positions in every registry seen so far; search if not
    entry = types[type_id] if 0 <= type_id < len(types) and types[type_id]["id"] == type_id else \
        next((t for t in types if t["id"] == type_id), None)
    return None if entry is None else _Part(entry["type"], config, "PortableType")


def _split_top(text: str) -> List[str]:
    parts, depth, cur = [], 0, ""
    for ch in text:
        if ch in "<([":
            depth += 1
        elif ch in ">)]":
            depth -= 1
        if ch == "," and depth == 0:
            parts.append(cur.strip())
            cur = ""
        else:
            cur += ch
    if cur.strip():
        parts.append(cur.strip())
    return parts


def _sub_type_text(type_string: str) -> Optional[str]:
    """The first generic argument as written (``Vec<Foo<A, B>>`` → ``Foo<A, B>``)."""
    s = type_string.strip()
    if s.endswith(">") and "<" in s:
        args = _split_top(s[s.index("<") + 1:-1])
        return args[0] if args else None
    if s.startswith("[") and s.endswith("]") and ";" in s:
        return s[1:s.rindex(";")].strip()
    return None


def _tuple_items_text(type_string: str) -> Optional[List[str]]:
    s = type_string.strip()
    if s.startswith("(") and s.endswith(")"):
        return _split_top(s[1:-1])
    return None


# Decomposition (used by substrate-interface to describe storage parameters)


def _decompose(config: RuntimeConfigurationObject, idx: int, depth: int = 0) -> Any:
    registry = config._registry
    if depth > 32:
        return registry.describe(idx)
    kind, children, names = registry.node_info(idx)
    if kind.startswith("Prim:"):
        return kind[5:].lower() if kind[5:] != "Str" else "str"
    if kind == "Enum":
        if all(c is None for c in children):
            return list(names)
        return {n: (None if c is None else _decompose(config, c, depth + 1)) for n, c in zip(names, children)}
    if kind == "Struct":
        return {n: _decompose(config, c, depth + 1) for n, c in zip(names, children)}
    if kind == "Tuple":
        return tuple(_decompose(config, c, depth + 1) for c in children)
    if kind in ("Seq",) or kind.startswith("Array:"):
        return [_decompose(config, children[0], depth + 1)]
    if kind in ("Compact", "Option"):
        return _decompose(config, children[0], depth + 1)
    return registry.describe(idx)


def _generate_type_decomposition(self: ScaleDecoder, max_recursion: int = 32) -> Any:
    idx = type(self).__dict__.get("_node")
    if idx is None:
        idx = self.runtime_config._registry.resolve(self.type_string)
    return _decompose(self.runtime_config, idx)


ScaleDecoder.generate_type_decomposition = _generate_type_decomposition  # type: ignore[attr-defined]



# --------------------------------------------------------------------------
# Further class names py-scale-codec exports. Their behaviour comes from the
# Rust registry (the type string); the names exist for imports and isinstance.


def _named(name: str, base: type, type_string: Optional[str] = None, doc: str = "") -> type:
    attrs: Dict[str, Any] = {"__doc__": doc or f"py-scale-codec's ``{name}``."}
    if type_string is not None:
        attrs["type_string"] = type_string
    return type(name, (base,), attrs)


CompactU32 = _named("CompactU32", Compact, "Compact<u32>")
CompactMoment = _named("CompactMoment", Compact, "Compact<Moment>")
Conviction = _named("Conviction", Enum, "Conviction")
StorageHasher = _named("StorageHasher", Enum, "StorageHasher")
TypeNotSupported = _named("TypeNotSupported", ScaleType)
GenericContractExecResult = _named("GenericContractExecResult", Enum, "ContractExecResult")
GenericContractExecResultV2 = _named("GenericContractExecResultV2", Enum)
GenericBlock = _named("GenericBlock", Struct)
GenericConsensus = _named("GenericConsensus", Tuple)
GenericConsensusEngineId = _named("GenericConsensusEngineId", FixedLengthArray)
GenericPreRuntime = _named("GenericPreRuntime", Tuple)
GenericSeal = _named("GenericSeal", Tuple)
GenericSealV0 = _named("GenericSealV0", Tuple)
LogDigest = _named("LogDigest", Enum)
ProposalPreimage = _named("ProposalPreimage", Struct)
GenericErrorMetadata = _named("GenericErrorMetadata", Struct)
GenericEventMetadata = _named("GenericEventMetadata", Struct)
GenericField = _named("GenericField", Struct)
GenericFunctionArgumentMetadata = _named("GenericFunctionArgumentMetadata", Struct)
GenericFunctionMetadata = _named("GenericFunctionMetadata", Struct)
GenericMetadataAll = _named("GenericMetadataAll", Enum)
GenericModuleConstantMetadata = _named("GenericModuleConstantMetadata", Struct)
GenericRegistryType = _named("GenericRegistryType", Struct)
GenericRuntimeCallDefinition = _named("GenericRuntimeCallDefinition", Struct)
GenericTypeDefComposite = _named("GenericTypeDefComposite", Struct)
GenericTypeDefVariant = _named("GenericTypeDefVariant", Struct)
GenericVariant = _named("GenericVariant", Struct)
ScaleInfoCallMetadata = _named("ScaleInfoCallMetadata", Struct)
ScaleInfoFunctionArgumentMetadata = _named("ScaleInfoFunctionArgumentMetadata", Struct)
ScaleInfoModuleConstantMetadata = _named("ScaleInfoModuleConstantMetadata", Struct)
ScaleInfoPalletErrorMetadata = _named("ScaleInfoPalletErrorMetadata", Struct)
ScaleInfoPalletEventMetadata = _named("ScaleInfoPalletEventMetadata", Struct)
ScaleInfoPalletMetadata = _named("ScaleInfoPalletMetadata", Struct)
ScaleInfoStorageEntryMetadata = _named("ScaleInfoStorageEntryMetadata", Struct)


__all__ = [name for name, obj in list(globals().items())
           if isinstance(obj, type) and issubclass(obj, ScaleDecoder) and not name.startswith("_")]
__all__ += ["class_for_node", "ScaleBytes", "RuntimeConfiguration", "RuntimeConfigurationObject",
            "InvalidScaleTypeValueException", "RemainingScaleBytesNotEmptyException",
            "MetadataCallFunctionNotFound"]
