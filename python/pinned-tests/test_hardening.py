"""Hostile input through ``scalecodec``: every one raises an ordinary Python
``Exception`` (never a Rust ``PanicException``, which is a ``BaseException``,
and never a crash), without the process's peak memory moving; decoding from
several threads against one shared ``RuntimeConfigurationObject`` gives what
one thread gives; a long loop of decodes does not grow the process.

The same hostile inputs are tested on the Rust side in
``dynamic/tests/hardening_limits.rs``.
"""
import resource
import threading

import pytest
from conftest import fresh_config, read_json
from scalecodec.base import ScaleBytes


def compact(value: int) -> bytes:
    """SCALE compact encoding (the big-integer mode above 2**30)."""
    if value < 1 << 6:
        return bytes([value << 2])
    if value < 1 << 14:
        return ((value << 2) | 1).to_bytes(2, "little")
    if value < 1 << 30:
        return ((value << 2) | 2).to_bytes(4, "little")
    raw = value.to_bytes((value.bit_length() + 7) // 8, "little")
    raw = raw.ljust(4, b"\0")
    return bytes([((len(raw) - 4) << 2) | 3]) + raw


def peak_rss_mib() -> float:
    """The process's peak resident set so far (Linux reports KiB)."""
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024


def current_rss_mib() -> float:
    with open("/proc/self/statm") as statm:
        pages = int(statm.read().split()[1])
    return pages * resource.getpagesize() / (1024 * 1024)


def raises_ordinary_exception(action):
    """Runs ``action``; it must raise an ``Exception`` (a ``PanicException``
    derives from ``BaseException`` only, and fails here). Returns it."""
    try:
        action()
    except Exception as error:  # noqa: BLE001 - the point is the class
        return error
    except BaseException as error:  # PanicException and friends
        pytest.fail(f"{type(error).__name__} instead of an Exception: {error}")
    pytest.fail("hostile input decoded without an error")


@pytest.fixture(scope="module")
def core_config():
    return fresh_config()


def decode(config, type_string: str, data: bytes):
    return config.create_scale_object(type_string, data=ScaleBytes(data)).decode()


HOSTILE = [
    # a Vec<Vec<u8>> claiming 2**30 elements in 16 bytes
    ("Vec<Vec<u8>>", (compact(1 << 30) + b"\x04" * 16)[:16]),
    # length prefixes far past the input
    ("Bytes", compact((1 << 32) - 1) + b"\x07" * 8),
    ("Vec<u64>", compact(1 << 62) + b"\x07" * 8),
    ("BTreeMap<u32, u64>", compact(1 << 40) + b"\x07" * 8),
    ("Text", compact(1 << 30) + b"abc"),
    # metadata claiming 2**30 registry types
    ("MetadataVersioned", (b"meta\x0e" + compact(1 << 30)).ljust(16, b"\0")),
    # a compact of the widest SCALE form with too few bytes behind it
    ("Compact<u128>", b"\xff\x01\x02\x03"),
    # a bool byte that is neither 0 nor 1 (py-scale-codec refuses it too; an
    # Option discriminant of 2 is not here: py-scale-codec reads it as Some)
    ("bool", b"\x02"),
]


@pytest.mark.parametrize("type_string,data", HOSTILE, ids=[h[0] for h in HOSTILE])
def test_hostile_input_raises_an_exception_without_memory(core_config, type_string, data):
    before = peak_rss_mib()
    raises_ordinary_exception(lambda: decode(core_config, type_string, data))
    grown = peak_rss_mib() - before
    assert grown < 64, f"peak RSS grew {grown:.0f} MiB decoding {len(data)} bytes"


def test_compact_past_2_pow_128_for_u128(core_config):
    # 2**128: 17 bytes. Refused with an Exception, or (py-scale-codec's own
    # reading) the exact integer; never a wrong or truncated number, never a panic.
    data = bytes([((17 - 4) << 2) | 3]) + b"\0" * 16 + b"\x01"
    try:
        value = decode(core_config, "Compact<u128>", data)
    except Exception:  # noqa: BLE001
        return
    except BaseException as error:
        pytest.fail(f"{type(error).__name__}: {error}")
    assert value == 1 << 128


TEMPLATES = ("Option<{}>", "Box<{}>", "Vec<{}>", "({}, u8)")


def nested(template: str, depth: int) -> str:
    type_string = "u8"
    for _ in range(depth):
        type_string = template.format(type_string)
    return type_string


@pytest.mark.parametrize("depth", [1_000, 50_000])
def test_deeply_nested_type_strings(core_config, depth):
    for template in TEMPLATES:
        type_string = nested(template, depth)
        data = b"\x01" * (depth + 1)
        raises_ordinary_exception(lambda: decode(core_config, type_string, data))


def test_moderately_nested_type_strings_never_panic(core_config):
    # 100 levels: an implementation may decode them (py-scale-codec does) or
    # refuse them past its own cap; either way only an ordinary Exception.
    for template in TEMPLATES:
        type_string = nested(template, 100)
        try:
            decode(core_config, type_string, b"\x01" * 101)
        except Exception:  # noqa: BLE001
            pass
        except BaseException as error:
            pytest.fail(f"{type(error).__name__}: {error}")


def test_deeply_nested_values_within_a_legal_type(core_config):
    # A type 40 levels deep (legal) with a matching value decodes; the same
    # bytes cut short raise an Exception at every cut.
    type_string = "u8"
    for _ in range(40):
        type_string = f"Option<{type_string}>"
    data = b"\x01" * 40 + b"\x2a"
    value = decode(core_config, type_string, data)
    assert value == 42
    for cut in range(len(data)):
        raises_ordinary_exception(lambda: decode(core_config, type_string, data[:cut]))


def _decode_block(config, metadata, extrinsics):
    out = []
    for hex_data in extrinsics:
        obj = config.create_scale_object("Extrinsic", data=ScaleBytes(hex_data), metadata=metadata)
        out.append(obj.decode())
    return out


def _decode_accounts(config, value_type, pairs):
    return [decode(config, value_type, bytes.fromhex(v[2:])) for _, v in pairs]


def test_threads_share_one_configuration(polkadot_9180):
    config, metadata = polkadot_9180
    extrinsics = read_json("payloads/polkadot-block-10000000/extrinsics.json")
    pairs = read_json("payloads/polkadot-block-10000000/storage_system_account.json")
    entry = metadata.get_metadata_pallet("System").get_storage_function("Account")
    value_type = entry.get_value_type_string()
    want_block = _decode_block(config, metadata, extrinsics)
    want_accounts = _decode_accounts(config, value_type, pairs)
    assert len(want_block) == len(extrinsics) and len(want_accounts) == len(pairs)

    results, errors = {}, []
    barrier = threading.Barrier(6)

    def work(index):
        try:
            barrier.wait()
            for _ in range(3):
                if index % 2:
                    results.setdefault(index, []).append(_decode_block(config, metadata, extrinsics))
                else:
                    results.setdefault(index, []).append(_decode_accounts(config, value_type, pairs))
        except BaseException as error:  # noqa: BLE001 - reported below
            errors.append(error)

    threads = [threading.Thread(target=work, args=(i,)) for i in range(6)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=300)
        assert not thread.is_alive(), "a decoding thread hung"
    assert not errors, errors
    for index, runs in results.items():
        want = want_block if index % 2 else want_accounts
        assert len(runs) == 3
        for got in runs:
            assert got == want, f"thread {index} decoded differently"


def test_long_decode_loop_does_not_grow(polkadot_9180):
    config, metadata = polkadot_9180
    extrinsics = read_json("payloads/polkadot-block-10000000/extrinsics.json")
    pairs = read_json("payloads/polkadot-block-10000000/storage_system_account.json")
    value_type = (
        metadata.get_metadata_pallet("System").get_storage_function("Account").get_value_type_string()
    )
    hostile = (compact(1 << 30) + b"\x04" * 16)[:16]

    def round_of_decodes():
        _decode_block(config, metadata, extrinsics)
        _decode_accounts(config, value_type, pairs[:50])
        try:
            decode(config, "Vec<Vec<u8>>", hostile)
        except Exception:  # noqa: BLE001 - errors must not leak either
            pass

    for _ in range(20):  # warm-up: caches, interned names, allocator pools
        round_of_decodes()
    before = current_rss_mib()
    rounds = 1500
    for _ in range(rounds):
        round_of_decodes()
    grown = current_rss_mib() - before
    print(f"{rounds} rounds of decodes: RSS {before:.1f} MiB -> {before + grown:.1f} MiB")
    # 1500 rounds are ~80,000 decodes: a leak of a few hundred bytes per
    # decode would show as tens of MiB
    assert grown < 24, f"RSS grew {grown:.1f} MiB over {rounds} rounds"
