"""Storage by name from Python, on real data: the recorded `System.Account`
keys of Polkadot block 10,000,000 (spec 9180) read back into their accounts
and built again from them — one at a time and all in one call, as
`query_multi` needs — with the prefix a `query_map` iterates under, each
digest checked with hashlib's BLAKE2b; the recorded values decode as the
entry's type decodes through `create_scale_object`; an N-key map of Polkadot
2003000 round-trips its keys; misuse raises errors naming the entry."""
import hashlib

import pytest

from conftest import config_with_metadata, read_json
from scalecodec.base import ScaleBytes

SPEC_9180 = "metadata/polkadot-v14-spec9180.scale"
POLKADOT_V16 = "metadata/polkadot-v16-spec2003000.scale"
ACCOUNTS = "payloads/polkadot-block-10000000/storage_system_account.json"


@pytest.fixture(scope="module")
def spec_9180():
    return config_with_metadata(SPEC_9180, ss58_format=0)


@pytest.fixture(scope="module")
def pairs():
    pairs = read_json(ACCOUNTS)
    assert len(pairs) > 10
    return pairs


def test_recorded_keys_read_back_and_build_again(spec_9180, pairs):
    rc, _ = spec_9180
    accounts = []
    for key, _ in pairs:
        [part] = rc.decode_storage_key("System", "Account", key)
        assert part["hasher"] == "Blake2_128Concat"
        account = part["value"]
        # The digest in front of the key is BLAKE2b-128 of the account's bytes.
        raw = bytes.fromhex(key[2:])
        public_key = raw[48:]
        assert raw[32:48] == hashlib.blake2b(public_key, digest_size=16).digest()
        assert rc.storage_key("System", "Account", account) == key
        assert rc.storage_key("System", "Account", [account]) == key
        accounts.append(account)
    # query_multi: every key in one call, in order.
    assert rc.storage_keys("System", "Account", accounts) == [k for k, _ in pairs]
    # query_map: the prefix every key starts with.
    prefix = rc.storage_key("System", "Account")
    assert len(prefix) == 2 + 64
    assert all(k.startswith(prefix) for k, _ in pairs)


def test_recorded_values_decode_as_the_entry_type(spec_9180, pairs):
    rc, md = spec_9180
    entry = md.get_metadata_pallet("System").get_storage_function("Account")
    type_string = entry.get_value_type_string()
    for _, value in pairs:
        obj = rc.create_scale_object(type_string, data=ScaleBytes(value))
        assert rc.decode_storage("System", "Account", value) == obj.decode()
        assert rc.decode_storage("System", "Account", bytes.fromhex(value[2:])) == obj.value


def test_n_key_maps_round_trip_and_prefix():
    rc, md = config_with_metadata(POLKADOT_V16, ss58_format=0)
    pallet = md.get_metadata_pallet("Staking")
    entry = pallet.get_storage_function("ErasStakersOverview")
    assert len(entry.get_params_type_string()) == 2
    account = "0x" + "07" * 32
    key = rc.storage_key("Staking", "ErasStakersOverview", [1234, account])
    parts = rc.decode_storage_key("Staking", "ErasStakersOverview", key)
    assert [p["hasher"] for p in parts] == ["Twox64Concat", "Twox64Concat"]
    assert parts[0]["value"] == 1234
    assert rc.storage_key("Staking", "ErasStakersOverview", [1234, parts[1]["value"]]) == key
    era_prefix = rc.storage_key("Staking", "ErasStakersOverview", [1234])
    assert key.startswith(era_prefix) and len(era_prefix) < len(key)
    assert rc.storage_keys("Staking", "ErasStakersOverview", [[1234, account], [1235, account]])[0] == key


def test_misuse_names_the_entry(spec_9180):
    rc, _ = spec_9180
    with pytest.raises(Exception, match="System.Account"):
        rc.storage_key("System", "Account", ["0x" + "00" * 32, 1])
    with pytest.raises(Exception, match="Nope"):
        rc.storage_key("System", "Nope")
    with pytest.raises(Exception):
        rc.decode_storage_key("System", "Account", "0x" + "00" * 40)
    with pytest.raises(TypeError):
        rc.storage_keys("System", "Account", 5)
