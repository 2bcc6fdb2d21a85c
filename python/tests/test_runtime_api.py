"""Runtime APIs (V15+) and view functions (V16) from Python, on real
metadata: listing, what to pass to `state_call`, and decoding the answer.
Encodings are checked against the type-by-type path a client such as
async-substrate-interface takes (`create_scale_object("scale_info::N")`
per argument), decodings against a recorded Bittensor answer (re-encoded
to its bytes) and answers encoded from known values."""
import pytest

from conftest import config_with_metadata, read_hex, read_json
from scalecodec.base import RuntimeConfigurationObject
from scalecodec.utils.ss58 import ss58_decode

POLKADOT_V16 = "metadata/polkadot-v16-spec2003000.scale"
ASSET_HUB_V16 = "metadata/asset-hub-polkadot-v16-spec2003001.scale"
SUBTENSOR_V15 = "metadata/subtensor-v15-spec343.scale"


@pytest.fixture(scope="module")
def polkadot():
    return config_with_metadata(POLKADOT_V16)[0]


@pytest.fixture(scope="module")
def asset_hub():
    return config_with_metadata(ASSET_HUB_V16)[0]


def encode_each(rc, inputs, values):
    """The arguments encoded one by one, as async-substrate-interface does."""
    out = b""
    for param, value in zip(inputs, values):
        out += bytes(rc.create_scale_object(param["type"]).encode(value).data)
    return "0x" + out.hex()


def method(rc, api, name):
    [entry] = [a for a in rc.runtime_apis() if a["name"] == api]
    [m] = [m for m in entry["methods"] if m["name"] == name]
    return m


def test_listing_resolves_every_type(polkadot):
    apis = polkadot.runtime_apis()
    names = [a["name"] for a in apis]
    assert {"Core", "Metadata", "TransactionPaymentApi", "DryRunApi", "RuntimeViewFunction"} <= set(names)
    for api in apis:
        assert api["methods"]
        for m in api["methods"]:
            for t in [p["type"] for p in m["inputs"]] + [m["output"]]:
                assert t.startswith("scale_info::")
                polkadot.create_scale_object(t)  # resolves
            assert isinstance(m["docs"], list)


def test_metadata_versions(polkadot):
    assert method(polkadot, "Metadata", "metadata_versions")["inputs"] == []
    assert polkadot.runtime_api_request("Metadata", "metadata_versions") == ("Metadata_metadata_versions", "0x")
    # a Vec<u32> answer, as the node gives it
    answer = polkadot.create_scale_object("Vec<u32>").encode([14, 15, 16])
    assert polkadot.decode_runtime_api_result("Metadata", "metadata_versions", bytes(answer.data)) == [14, 15, 16]
    assert polkadot.decode_runtime_api_result("Metadata", "metadata_versions", answer.to_hex()) == [14, 15, 16]
    name, data = polkadot.runtime_api_request("Metadata", "metadata_at_version", [15])
    assert (name, data) == ("Metadata_metadata_at_version", "0x0f000000")


def test_transaction_payment_query_info(polkadot):
    m = method(polkadot, "TransactionPaymentApi", "query_info")
    assert [p["name"] for p in m["inputs"]] == ["uxt", "len"]
    # a real signed extrinsic (Polkadot block 18468942)
    xt = read_json("payloads/polkadot-block-18468942/extrinsics.json")[2]
    xt_len = len(bytes.fromhex(xt[2:]))
    name, data = polkadot.runtime_api_request("TransactionPaymentApi", "query_info", [xt, xt_len])
    assert name == "TransactionPaymentApi_query_info"
    assert data == encode_each(polkadot, m["inputs"], [xt, xt_len])
    # by name, as async-substrate-interface's runtime_call also takes them
    assert polkadot.runtime_api_request("TransactionPaymentApi", "query_info", {"len": xt_len, "uxt": xt}) == (name, data)
    # the answer: RuntimeDispatchInfo {weight, class, partial_fee}
    info = {"weight": {"ref_time": 123456789, "proof_size": 4321}, "class": "Normal", "partial_fee": 158000000}
    answer = polkadot.create_scale_object(m["output"]).encode(info).data
    assert polkadot.decode_runtime_api_result("TransactionPaymentApi", "query_info", bytes(answer)) == info


def test_account_nonce_takes_an_ss58_address(polkadot):
    bob = "14E5nqKAp3oAJcmzgZhUD2RcptBeUBScxKHgJKU4HPNcKVf3"
    name, data = polkadot.runtime_api_request("AccountNonceApi", "account_nonce", [bob])
    assert (name, data) == ("AccountNonceApi_account_nonce", "0x" + ss58_decode(bob))


def test_argument_errors_are_clear(polkadot):
    with pytest.raises(ValueError, match=r"takes 1 argument\(s\) \(account\), 0 given"):
        polkadot.runtime_api_request("AccountNonceApi", "account_nonce", [])
    with pytest.raises(ValueError, match="argument 'account' is missing"):
        polkadot.runtime_api_request("AccountNonceApi", "account_nonce", {"who": "0x" + "11" * 32})
    with pytest.raises(ValueError, match="no runtime API Nope.nothing"):
        polkadot.runtime_api_request("Nope", "nothing")
    with pytest.raises(Exception):
        polkadot.decode_runtime_api_result("Metadata", "metadata_versions", "0x0c0e000000")  # cut short


def test_asset_hub_view_functions(asset_hub):
    views = asset_hub.view_functions()
    assert len(views) == 28
    assert len({(v["pallet"], v["name"]) for v in views}) == 28
    for v in views:
        assert len(bytes.fromhex(v["id"][2:])) == 32
        for t in [p["type"] for p in v["inputs"]] + [v["output"]]:
            asset_hub.create_scale_object(t)
        if not v["inputs"]:
            # the query id, then the (empty) arguments as a Vec<u8>
            assert asset_hub.view_function_request(v["pallet"], v["name"]) == (
                "RuntimeViewFunction_execute_view_function", v["id"] + "00")
    [balance_of] = [v for v in views if (v["pallet"], v["name"]) == ("Assets", "balance_of")]
    who = "0x" + "22" * 32
    name, data = asset_hub.view_function_request("Assets", "balance_of", [who, 1984])
    args = encode_each(asset_hub, balance_of["inputs"], [who, 1984])[2:]
    length = asset_hub.create_scale_object("Compact<u32>").encode(len(args) // 2).to_hex()[2:]
    assert (name, data) == ("RuntimeViewFunction_execute_view_function", balance_of["id"] + length + args)
    # the output alone, and the whole Result<Vec<u8>, _> answer
    out = asset_hub.create_scale_object(balance_of["output"]).encode(10 ** 12).data
    assert asset_hub.decode_view_function_result("Assets", "balance_of", bytes(out)) == 10 ** 12
    framed = b"\x00" + bytes(asset_hub.create_scale_object("Bytes").encode("0x" + bytes(out).hex()).data)
    assert asset_hub.decode_view_function_answer("Assets", "balance_of", framed) == 10 ** 12
    with pytest.raises(ValueError, match="view function Assets.balance_of failed in the runtime"):
        asset_hub.decode_view_function_answer("Assets", "balance_of", "0x0100")
    with pytest.raises(ValueError, match="no view function"):
        asset_hub.view_function_request("Assets", "nothing")


def test_subtensor_runtime_api_answer_matches_an_independent_registry():
    rc = config_with_metadata(SUBTENSOR_V15)[0]
    apis = {a["name"]: a for a in rc.runtime_apis()}
    assert {"NeuronInfoRuntimeApi", "DelegateInfoRuntimeApi", "SubnetInfoRuntimeApi"} <= set(apis)
    neurons = {m["name"]: m for m in apis["NeuronInfoRuntimeApi"]["methods"]}
    assert [p["name"] for p in neurons["get_neuron"]["inputs"]] == ["netuid", "uid"]
    assert rc.runtime_api_request("NeuronInfoRuntimeApi", "get_neuron", [1, 7]) == (
        "NeuronInfoRuntimeApi_get_neuron", "0x01000700")
    data = read_hex("payloads/subtensor/subnets_info.hex")
    value = rc.decode_runtime_api_result("SubnetInfoRuntimeApi", "get_subnets_info", data)
    assert len(value) == 207
    subnets = [v for v in value if v is not None]
    assert subnets and len({v["netuid"] for v in subnets}) == len(subnets)
    assert all(0 <= v["kappa"] <= 65535 and isinstance(v["owner"], str) for v in subnets)
    # lossless: the value encodes back to the recorded bytes
    output = [m for m in apis["SubnetInfoRuntimeApi"]["methods"] if m["name"] == "get_subnets_info"][0]["output"]
    assert bytes(rc.create_scale_object(output).encode(value).data) == data


def test_legacy_metadata_has_no_runtime_apis():
    rc = config_with_metadata("metadata/polkadot-v14-spec1000001.scale")[0]
    with pytest.raises(ValueError, match="metadata V14 has no runtime API metadata"):
        rc.runtime_apis()
    with pytest.raises(ValueError, match="metadata V14 has no runtime API metadata"):
        rc.runtime_api_request("Metadata", "metadata_versions")
    v15 = config_with_metadata("metadata/polkadot-v15-spec1001002.scale")[0]
    assert any(a["name"] == "Metadata" for a in v15.runtime_apis())
    with pytest.raises(ValueError, match="metadata V15 has no view function metadata"):
        v15.view_functions()
    with pytest.raises(ValueError, match="needs runtime metadata"):
        RuntimeConfigurationObject().runtime_apis()
