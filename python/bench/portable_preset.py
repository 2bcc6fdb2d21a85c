"""Turns a scale-info `PortableRegistry` (as JSON) into a py-scale-codec
type-registry preset naming type N `SI<N>`, which both py-scale-codec and
this package load with `update_type_registry` (used by the delegates_info
benchmark and test while our registry cannot take a bare portable registry)."""


def preset_from_portable(types: list) -> dict:
    """A type-registry preset naming portable type N `SI<N>`."""
    out = {}
    for entry in types:
        tid, ty = entry["id"], entry["type"]
        name = f"SI{tid}"
        d = ty["def"]
        path = ty.get("path") or []
        if path and path[-1] == "AccountId32":
            out[name] = "AccountId"
        elif "primitive" in d:
            out[name] = d["primitive"]
        elif "compact" in d:
            out[name] = f"Compact<SI{d['compact']['type']}>"
        elif "sequence" in d:
            out[name] = f"Vec<SI{d['sequence']['type']}>"
        elif "array" in d:
            out[name] = f"[SI{d['array']['type']}; {d['array']['len']}]"
        elif "tuple" in d:
            items = d["tuple"] if isinstance(d["tuple"], list) else d["tuple"].get("fields", [])
            out[name] = "(" + ", ".join(f"SI{t}" for t in items) + ")" if items else "Null"
        elif "composite" in d:
            fields = d["composite"].get("fields", [])
            if len(fields) == 1 and not fields[0].get("name"):
                out[name] = f"SI{fields[0]['type']}"
            elif fields and fields[0].get("name"):
                out[name] = {"type": "struct", "type_mapping": [[f["name"], f"SI{f['type']}"] for f in fields]}
            else:
                out[name] = "(" + ", ".join(f"SI{f['type']}" for f in fields) + ")" if fields else "Null"
        elif "variant" in d:
            variants = sorted(d["variant"].get("variants", []), key=lambda v: v["index"])
            if variants and [v["index"] for v in variants] == list(range(len(variants))):
                mapping = []
                for v in variants:
                    fs = v.get("fields", [])
                    inner = "Null" if not fs else (f"SI{fs[0]['type']}" if len(fs) == 1 else
                                                   "(" + ", ".join(f"SI{f['type']}" for f in fs) + ")")
                    mapping.append([v["name"], inner])
                out[name] = {"type": "enum", "type_mapping": mapping}
    return {"types": out}
