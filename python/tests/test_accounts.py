"""Account ids, multisig accounts and MultiAddress views."""
from scalecodec.base import RuntimeConfigurationObject, ScaleBytes
from scalecodec.type_registry import load_type_registry_preset
from scalecodec.utils.ss58 import ss58_decode

ALICE = "5GrwvaEF5zXb26Fz9rcQpDWS57CtERHpNehXCPcNoHGKutQY"
BOB = "5FHneW46xGXgs5mUiveU4sbTyGBzmstUspZC92UhjJM694ty"


def _config(ss58_format=None):
    rc = RuntimeConfigurationObject(ss58_format=ss58_format)
    rc.update_type_registry(load_type_registry_preset("legacy"))
    return rc


def test_account_id_attributes():
    rc = _config(42)
    obj = rc.create_scale_object("AccountId", ScaleBytes("0x" + ss58_decode(ALICE)))
    assert obj.decode() == ALICE
    assert obj.ss58_address == ALICE and obj.public_key == "0x" + ss58_decode(ALICE)
    hex_rc = _config()
    obj = hex_rc.create_scale_object("AccountId", ScaleBytes("0x" + ss58_decode(BOB)))
    assert obj.decode() == "0x" + ss58_decode(BOB) and obj.ss58_address is None


def test_multisig_account_matches_py_scale_codec():
    # vector computed with py-scale-codec 1.2.12 (threshold 2 of Alice and Bob)
    multi = _config(42).get_decoder_class("MultiAccountId")
    account = multi.create_from_account_list([ALICE, BOB], 2)
    assert account.value == "0x83b70134afe83e035d51b9b6543bae58fc4ad7495df986b619e71b2581bf6ec5"
    # the order of the signatories does not matter
    assert multi.create_from_account_list([BOB, ALICE], 2).value == account.value
    assert multi.create_from_account_list([BOB, ALICE], 1).value != account.value


def test_multiaddress_views():
    rc = _config()
    key = ss58_decode(ALICE)
    obj = rc.create_scale_object("MultiAddress", ScaleBytes("0x00" + key))
    assert obj.decode() == "0x" + key and obj.account_id == key and obj.account_index is None
    obj = rc.create_scale_object("MultiAddress", ScaleBytes("0x0104"))
    assert obj.decode() == 1 and obj.account_index == 1 and obj.account_id is None
    assert str(rc.create_scale_object("MultiAddress").encode(1)) == "0x0104"


def test_account_texts_reused_only_for_the_same_id_and_format():
    # A registry keeps recent account texts (a table indexed by the id's first
    # bytes); ids sharing those bytes, and the same id in another format,
    # must each get their own text, as py-scale-codec's ss58_encode gives it.
    from scalecodec.utils.ss58 import ss58_encode
    rc = _config(42)
    head = bytes.fromhex(ss58_decode(ALICE))[:8]
    ids = [head + bytes([i]) * 24 for i in range(5)] + [bytes.fromhex(ss58_decode(BOB))]
    types = ["(AccountId, u8)"] * len(ids)
    data = [i + b"\x07" for i in ids]
    for _ in range(2):  # the second pass reads the table
        assert rc.batch_decode(types, data) == [(ss58_encode(i, 42), 7) for i in ids]
    rc.ss58_format = 2
    assert rc.batch_decode(types, data) == [(ss58_encode(i, 2), 7) for i in ids]
    rc.ss58_format = None
    assert rc.batch_decode(types, data) == [("0x" + i.hex(), 7) for i in ids]


def test_bare_account_items_read_the_account_table_too():
    # batch_decode renders items that are bare account ids in groups; their
    # texts go to the same table, and a later batch reads them from it.
    from scalecodec.utils.ss58 import ss58_encode
    rc = _config(42)
    head = bytes.fromhex(ss58_decode(ALICE))[:8]
    ids = [head + bytes([i]) * 24 for i in range(70)] + [bytes.fromhex(ss58_decode(BOB))] * 3
    for fmt in (42, 42, 0, 42):
        rc.ss58_format = fmt
        assert rc.batch_decode(["AccountId"] * len(ids), ids) == [ss58_encode(i, fmt) for i in ids]


def test_accounts_inside_fixed_size_keys_are_rendered_ahead_in_groups():
    # batch_decode finds the accounts of fixed-size items (query_map key
    # tuples) before decoding and renders the new ones as a group; every item
    # must still read as py-scale-codec's ss58_encode gives it: 150 accounts
    # (more than one group), repeats, ids that share the table's slot, items
    # of another length (left to the decode), and a varying-size type.
    import random
    from scalecodec.utils.ss58 import ss58_encode
    rnd = random.Random(7)
    head = bytes.fromhex(ss58_decode(ALICE))[:8]
    ids = [rnd.randbytes(32) for _ in range(150)] + [head + bytes([i]) * 24 for i in range(4)]
    ids += ids[:10]
    key = "([u8; 0], u16, [u8; 16], AccountId)"
    items = [(key, (5).to_bytes(2, "little") + bytes(16) + i) for i in ids]
    items.append(("[(u8, AccountId); 2]", b"\x01" + ids[0] + b"\x02" + ids[1]))
    items.append((key, bytes(2 + 16 + 31)))  # one byte short: the decode's error, not ours
    for fmt in (42, 0):
        rc = _config(fmt)
        want = [([], 5, "0x" + "00" * 16, ss58_encode(i, fmt)) for i in ids]
        want.append([(1, ss58_encode(ids[0], fmt)), (2, ss58_encode(ids[1], fmt))])
        types, data = zip(*items[:-1])
        assert rc.batch_decode(list(types), list(data)) == want
        types, data = zip(*items)
        try:
            rc.batch_decode(list(types), list(data))
        except Exception as e:
            assert "needed" in str(e) or "bytes" in str(e), e
        else:
            raise AssertionError("a short item must fail")


def test_a_large_batch_takes_nested_accounts_from_the_registrys_table():
    # A batch past 64 KiB decodes with the interpreter lock released; the
    # accounts nested in its items are still rendered as the held path
    # renders them, through the registry's account table: equal to one by
    # one, and a second batch gets the very same str objects.
    from conftest import config_with_metadata, read_hex
    rc, _md = config_with_metadata("metadata/polkadot-v14-spec1000001.scale")
    rc.ss58_format = 0
    events = read_hex("payloads/polkadot-block-18468942/events.hex")
    assert len(events) * 3 > 64 * 1024
    one = rc.create_scale_object("Vec<EventRecord>", ScaleBytes(events)).decode()
    first = rc.batch_decode(["Vec<EventRecord>"] * 3, [events] * 3)
    second = rc.batch_decode(["Vec<EventRecord>"] * 3, [events] * 3)
    assert first == second == [one] * 3

    def accounts(value):
        if isinstance(value, dict):
            return [a for v in value.values() for a in accounts(v)]
        if isinstance(value, (list, tuple)):
            return [a for v in value for a in accounts(v)]
        # Polkadot (format 0) account texts start with "1".
        return [value] if isinstance(value, str) and value.startswith("1") and len(value) >= 46 else []

    nested = accounts(first)
    assert len(nested) > 30
    assert all(a is b for a, b in zip(nested, accounts(second)))
