"""py-scale-codec 1.2.12's public surface, and cyscale 0.8.0's (which
Bittensor and async-substrate-interface import from), introspected in their
venvs and in ours (``reference_scripts/surface.py`` under each): every
module, every public name, every public method and attribute of its classes
(with the parameter names of its methods), the attributes its instances
carry. A name 1.2.12 has and we lack fails the test, unless it is listed in
``EXCEPTIONS`` with the reason; an exception that no longer fails the test
fails it too (the list stays true).

Keys: ``module:name`` for a module-level name, ``Class.attr`` for an
attribute of a class (wherever the class is exported), ``Class.attr(param)``
for a parameter name.
"""
import sys

from conftest import cyscale_python, reference_python, run_reference_script

# What py-scale-codec 1.2.12 exposes that we deliberately do not, and why.
_DECODER_STEP = ("a step of py-scale-codec's byte-by-byte Python decoder (state it keeps while it "
                 "reads); ferroscale decodes in Rust and the decoded value carries the result")
_SCALE_INFO_HOOK = ("class hook of py-scale-codec's Python portable-registry importer; ferroscale imports "
                    "portable registries in Rust")
_LEGACY_ADDRESS = ("pre-MultiAddress (2020) `Address` decoder state; the decoded value carries the account "
                   "(see docs/python.md, known gaps)")
_CONTRACTS_V1 = ("contracts-pallet result before runtime spec 260 (2020), whose Python decoder fills these "
                 "while reading; not supported (the V2 result, GenericContractExecResultV2, is)")
_DIGEST = ("filled by py-scale-codec's Python digest-item decoders; ferroscale's digest values keep the raw "
           "fields (docs/python.md, known gaps)")

EXCEPTIONS = {
    "scalecodec.base:TYPE_CHECKING": "typing.TYPE_CHECKING, imported by py-scale-codec for annotations; not API",
    "RuntimeConfiguration.add_contract_metadata_dict_to_type_registry":
        "ink! contract metadata (portable types under an `ink::<hash>` prefix): only the `scale_info` prefix "
        "is supported",
    "RuntimeConfigurationObject.add_contract_metadata_dict_to_type_registry":
        "ink! contract metadata (portable types under an `ink::<hash>` prefix): only the `scale_info` prefix "
        "is supported",
    "RuntimeConfiguration.arrow_match_re": "compiled regex of py-scale-codec's Python type-string parser",
    "RuntimeConfiguration.bracket_match_re": "compiled regex of py-scale-codec's Python type-string parser",
    "RuntimeConfigurationObject.arrow_match_re": "compiled regex of py-scale-codec's Python type-string parser",
    "RuntimeConfigurationObject.bracket_match_re": "compiled regex of py-scale-codec's Python type-string parser",
    "Compact.process_compact_bytes": _DECODER_STEP,
    "Compact.compact_bytes": _DECODER_STEP,
    "Compact.compact_length": _DECODER_STEP,
    "CompactU32.process_compact_bytes": _DECODER_STEP,
    "CompactU32.compact_bytes": _DECODER_STEP,
    "CompactU32.compact_length": _DECODER_STEP,
    "CompactMoment.process_compact_bytes": _DECODER_STEP,
    "CompactMoment.compact_bytes": _DECODER_STEP,
    "CompactMoment.compact_length": _DECODER_STEP,
    "HexBytes.length_obj": _DECODER_STEP,
    "BoundedVec.process_scale_info_definition": _SCALE_INFO_HOOK,
    "Data.process_scale_info_definition": _SCALE_INFO_HOOK,
    "Era.process_scale_info_definition": _SCALE_INFO_HOOK,
    "GenericAccountId.process_scale_info_definition": _SCALE_INFO_HOOK,
    "GenericEthereumAccountId.process_scale_info_definition": _SCALE_INFO_HOOK,
    "MultiAccountId.process_scale_info_definition": _SCALE_INFO_HOOK,
    "Option.process_scale_info_definition": _SCALE_INFO_HOOK,
    "GenericAddress.account_id": _LEGACY_ADDRESS,
    "GenericAddress.account_idx": _LEGACY_ADDRESS,
    "GenericAddress.account_index": _LEGACY_ADDRESS,
    "GenericAddress.account_length": _LEGACY_ADDRESS,
    "AccountIdAddress.account_id": _LEGACY_ADDRESS,
    "AccountIdAddress.account_idx": _LEGACY_ADDRESS,
    "AccountIdAddress.account_index": _LEGACY_ADDRESS,
    "AccountIdAddress.account_length": _LEGACY_ADDRESS,
    "RawAddress.account_id": _LEGACY_ADDRESS,
    "RawAddress.account_idx": _LEGACY_ADDRESS,
    "RawAddress.account_index": _LEGACY_ADDRESS,
    "RawAddress.account_length": _LEGACY_ADDRESS,
    "GenericMultiAddress.account_idx": _DECODER_STEP,
    "GenericMultiAddress.account_length": _DECODER_STEP,
    "GenericContractExecResult.process_contract_result": _CONTRACTS_V1,
    "GenericContractExecResult.contract_result_data": _CONTRACTS_V1,
    "GenericContractExecResult.contract_result_scale_type": _CONTRACTS_V1,
    "GenericContractExecResult.flags": _CONTRACTS_V1,
    "GenericContractExecResult.gas_consumed": _CONTRACTS_V1,
    "GenericContractExecResult.gas_required": _CONTRACTS_V1,
    "GenericPreRuntime.authority_index": _DIGEST,
    "GenericPreRuntime.slot_number": _DIGEST,
    "LogDigest.index_value": _DIGEST,
    "LogDigest.log_type": _DIGEST,
}


def _dump(python: str) -> dict:
    return run_reference_script(python, "surface.py")


def _param_gaps(ref: dict, ours: dict) -> list:
    """Parameter names of ``ref`` that ``ours`` cannot take by keyword."""
    if ref.get("params") is None or ours.get("params") is None or "**" in ours["params"]:
        return []
    return [p for p in ref["params"] if p not in ("*", "**") and p not in ours["params"]]


def _class_gaps(name: str, ref: dict, ours: dict) -> list:
    gaps = []
    for attr, ref_attr in ref["attrs"].items():
        our_attr = ours["attrs"].get(attr)
        if our_attr is None:
            gaps.append(f"{name}.{attr}")
        elif our_attr["kind"] != ref_attr["kind"]:
            gaps.append(f"{name}.{attr} is {our_attr['kind']}, not {ref_attr['kind']}")
        elif not attr.startswith("__"):  # protocol methods are called positionally
            gaps.extend(f"{name}.{attr}({p})" for p in _param_gaps(ref_attr, our_attr))
    have = set(ours["instance_dir"] or []) | set(ours["attrs"])
    gaps.extend(f"{name}.{attr}" for attr in ref["instance_attrs"] if attr not in have)
    return gaps


def surface_gaps(ref: dict, ours: dict) -> list:
    gaps = []
    for module, ref_module in ref.items():
        if "error" in ref_module:
            continue
        our_module = ours.get(module, {})
        if "error" in our_module:
            gaps.append(f"{module} (module: {our_module['error']})")
            continue
        for name, ref_entry in ref_module["names"].items():
            entry = our_module["names"].get(name)
            if entry is None:
                gaps.append(f"{module}:{name}")
            elif entry["kind"] != ref_entry["kind"]:
                gaps.append(f"{module}:{name} is a {entry['kind']}, not a {ref_entry['kind']}")
            elif ref_entry["kind"] == "class":
                gaps.extend(_class_gaps(name, ref_entry, entry))
            elif ref_entry["kind"] == "callable":
                gaps.extend(f"{module}:{name}({p})" for p in _param_gaps(ref_entry, entry))
    return sorted(set(gaps))


def assert_only_exceptions(gaps: list, exceptions: dict, what: str) -> None:
    """Every gap is an exception, and every exception still a gap (the
    list stays true)."""
    missing = [g for g in gaps if g not in exceptions]
    assert not missing, f"{len(missing)} {what} missing:\n" + "\n".join(missing)
    stale = sorted(set(exceptions) - set(gaps))
    assert not stale, "listed as exceptions but present now (remove them):\n" + "\n".join(stale)


def test_reference_is_py_scale_codec_1_2_12():
    ref = _dump(reference_python())
    # the dump found py-scale-codec's classes, not an empty or foreign package
    assert {"GenericMetadataVersioned", "ScaleInfoPalletMetadata", "GenericVariant"} <= set(
        ref["scalecodec.types"]["names"])
    assert ref["scalecodec.constants"]["names"]["TYPE_DECOMP_MAX_RECURSIVE"]["kind"] == "value"


def test_every_public_name_of_py_scale_codec_1_2_12_exists():
    ref, ours = _dump(reference_python()), _dump(sys.executable)
    gaps = surface_gaps(ref, ours)
    assert_only_exceptions(gaps, EXCEPTIONS, "public names of py-scale-codec 1.2.12")


def test_the_comparison_finds_a_missing_name():
    """The checker itself: a name removed from our dump is reported."""
    ref = _dump(reference_python())
    ours = _dump(sys.executable)
    del ours["scalecodec.types"]["names"]["GenericPalletMetadata"]["attrs"]["get_identifier"]
    del ours["scalecodec.types"]["names"]["GenericVariant"]
    gaps = surface_gaps(ref, ours)
    assert "GenericPalletMetadata.get_identifier" in gaps
    assert "scalecodec.types:GenericVariant" in gaps


# py-scale-codec 1.2.12 bases our classes deliberately do not have (an
# ``isinstance`` that answers differently), and why.
_OWN_VIEW = ("its methods come from a Rust view of its own, which cannot also be the {base} view (two "
             "views' methods in one class would apply one kind's reading to another's value); "
             "no client checks it")
BASE_EXCEPTIONS = {
    "EventRecord(Struct)": _OWN_VIEW.format(base="Struct"),
    "GenericEventRecord(Struct)": _OWN_VIEW.format(base="Struct"),
    "GenericExtrinsicV4(Struct)": _OWN_VIEW.format(base="Struct"),
    "GenericMetadataVersioned(Tuple)": _OWN_VIEW.format(base="Tuple"),
    "GenericStringType(Bytes)": _OWN_VIEW.format(base="Bytes"),
    "Str(Bytes)": _OWN_VIEW.format(base="Bytes"),
    "String(Bytes)": _OWN_VIEW.format(base="Bytes"),
    "GenericStringType(Str)": "py-scale-codec's Str is a Bytes; ours is the text class, String",
    "String(Str)": "py-scale-codec's Str is a Bytes; ours is the text class, String",
    "OpaqueCall(Bytes)": "ours decodes the call inside (a WrapperKeepOpaque), where py-scale-codec's gives bytes",
    "WrapperKeepOpaque(Struct)": "ours is the wrapped value with its bytes, not a (length, value) struct",
    "GenericConsensus(Struct)": "a tuple in ours, as its value (engine id, bytes) is",
    "GenericSeal(Struct)": "a tuple in ours, as its value (engine id, bytes) is",
    "GenericSealV0(Struct)": "a tuple in ours, as its value (slot, signature) is",
}


def base_gaps(ref: dict, ours: dict) -> list:
    """``Class(Base)`` for each base (a class both packages export) that
    py-scale-codec's class has and ours lacks; a name both export as an
    alias of another class is compared by its bases only."""
    def classes(dump: dict) -> dict:
        return {name: entry for module in dump.values() for name, entry in module.get("names", {}).items()
                if entry["kind"] == "class"}
    ref_classes, our_classes = classes(ref), classes(ours)
    return sorted({f"{name}({base})" for name, entry in ref_classes.items() if name in our_classes
                   for base in entry["bases"]
                   if base != name and base in our_classes and base not in our_classes[name]["bases"]})


def test_classes_have_py_scale_codec_1_2_12_bases():
    """``isinstance(account, H256)``, ``isinstance(index, U32)`` and the
    rest answer as on py-scale-codec, but for the listed exceptions."""
    ref, ours = _dump(reference_python()), _dump(sys.executable)
    gaps = base_gaps(ref, ours)
    assert_only_exceptions(gaps, BASE_EXCEPTIONS, "bases of py-scale-codec 1.2.12")
    # the checker finds a base removed from our dump
    ours["scalecodec.types"]["names"]["GenericAccountId"]["bases"].remove("H256")
    assert "GenericAccountId(H256)" in base_gaps(ref, ours)


# Type strings whose objects' classes are compared: hashes and accounts
# under their names and aliases, numbers, compacts, bytes, text, and the
# containers and records clients decode.
INSTANCE_TYPES = ("Hash", "BlockHash", "H256", "H160", "H512", "AccountId", "AccountIndex", "Balance",
                  "BlockNumber", "Moment", "Compact<Moment>", "Compact<Balance>", "Vec<u8>", "Bytes", "Text",
                  "Era", "Call", "Perbill", "Vote", "EventRecord", "LookupSource", "Address", "Option<u32>",
                  "(u32, u64)", "Vec<AccountId>", "BTreeMap<u32, u64>")


def test_objects_are_instances_of_py_scale_codec_1_2_12_classes():
    """The object ``create_scale_object`` gives is an instance of each class
    py-scale-codec's is (among those both export): ``isinstance(block_hash,
    H256)`` holds for ``Hash`` and ``BlockHash`` too (the legacy preset's
    ``"H256": "H256"`` ends their aliases), but for the classes
    ``BASE_EXCEPTIONS`` gives reasons for."""
    ref = run_reference_script(reference_python(), "instance_classes.py", *INSTANCE_TYPES)
    ours = run_reference_script(sys.executable, "instance_classes.py", *INSTANCE_TYPES)
    ours_exported = set(_dump(sys.executable)["scalecodec.types"]["names"])
    gaps = {f"{t}: not a {name}" for t in INSTANCE_TYPES for name in ref[t]
            if name in ours_exported and name not in ours[t]}
    excepted = {"EventRecord: not a Struct"}  # BASE_EXCEPTIONS["GenericEventRecord(Struct)"]
    assert gaps <= excepted, "\n".join(sorted(gaps - excepted))
    assert excepted <= gaps, f"present now (remove the exception): {sorted(excepted - gaps)}"
    assert "H256" in ref["BlockHash"] and "H256" in ours["BlockHash"]


# What cyscale 0.8.0 adds that we deliberately do not have, and why.
CYSCALE_EXCEPTIONS = {
    "scalecodec.type_registry:lazy_requests": "cyscale's cache of the `requests` module for remote presets; "
                                              "ours ships its presets and never fetches them",
    "scalecodec.utils.ss58:b58decode_bytes": "cyscale's base58 helper, in this module only because its SS58 "
                                             "functions import it; no client uses it (ss58_decode is the API)",
}


def test_every_public_name_cyscale_0_8_adds_exists():
    """A name cyscale 0.8.0 has beyond py-scale-codec 1.2.12 (its exceptions
    included) and we lack fails the test: Bittensor 10.3 imports
    ``scalecodec.utils.math.FixedPoint`` at module level, for one."""
    cyscale, ours = _dump(cyscale_python()), _dump(sys.executable)
    assert "batch_decode" in cyscale["scalecodec.base"]["names"]["RuntimeConfigurationObject"]["attrs"], \
        "the cyscale venv does not hold cyscale"
    gaps = surface_gaps(cyscale, ours)
    assert_only_exceptions([g for g in gaps if g not in EXCEPTIONS], CYSCALE_EXCEPTIONS,
                           "public names of cyscale 0.8.0")
