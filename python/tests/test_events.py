"""System.Events of Polkadot 9180: two event records in SCALE (an
ExtrinsicSuccess in ApplyExtrinsic(0), a Balances.Transfer at Finalization
with one topic); the expected values are what py-scale-codec 1.2.12 gives for
the same bytes."""
from conftest import config_with_metadata
from scalecodec.base import ScaleBytes

ALICE = "d43593c715fdd31c61141abd04a99fd6822c8558854ccde39a5684e7a56da27d"
BOB = "8eaf04151687736326c9fea17e25fc5287613693c912909cb226aa4794f26a48"
EVENTS = ("0x08" + "00" + "00000000" + "0000" + "1027000000000000" + "00" + "00" + "00"
          + "01" + "0502" + ALICE + BOB + "00e40b54020000000000000000000000" + "04" + "11" * 32)


def test_event_records_decode_like_py_scale_codec():
    rc, md = config_with_metadata("metadata/polkadot-v14-spec9180.scale", ss58_format=0)
    ts = md.get_metadata_pallet("System").get_storage_function("Events").get_value_type_string()
    obj = rc.create_scale_object(ts, data=ScaleBytes(EVENTS), metadata=md)
    records = obj.decode()
    success_attrs = {"dispatch_info": {"weight": 10000, "class": "Normal", "pays_fee": "Yes"}}
    assert records[0] == {
        "phase": "ApplyExtrinsic", "extrinsic_idx": 0,
        "event": {"event_index": "0000", "module_id": "System", "event_id": "ExtrinsicSuccess",
                  "attributes": success_attrs},
        "event_index": 0, "module_id": "System", "event_id": "ExtrinsicSuccess", "attributes": success_attrs,
        "topics": [],
    }
    transfer = records[1]
    assert (transfer["phase"], transfer["extrinsic_idx"]) == ("Finalization", None)
    assert transfer["event"]["event_index"] == "0502" and transfer["event_index"] == 5
    assert transfer["attributes"] == {"from": "15oF4uVJwmo4TdGW7VfQxNLavjCXviqxT9S1MgbjMNHr6Sp5",
                                      "to": "14E5nqKAp3oAJcmzgZhUD2RcptBeUBScxKHgJKU4HPNcKVf3",
                                      "amount": 10000000000}
    assert transfer["topics"] == ["0x" + "11" * 32]
    # parts are scale objects too, as py-scale-codec's: the event a runtime
    # event object whose value_object is (pallet, the pallet's event)
    event = obj[1]["event"]
    assert event.value["event_id"] == "Transfer"
    assert event[0] == "Balances" and event[1].value == {"Transfer": transfer["attributes"]}
    # and the records encode back to the same bytes
    assert str(rc.create_scale_object(ts, metadata=md).encode(records)) == EVENTS
