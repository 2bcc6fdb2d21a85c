//! What code generation reads from a metadata blob: the portable type registry
//! and the few chain-level facts (outer enums, the extrinsic's parts, pallets).
//!
//! Read through the project's one metadata model (`ferroscale_metadata`),
//! so that every version with a type registry (V14, V15, V16) feeds the same
//! generator and the loader's framing, limits and consistency checks apply.

use ferroscale_metadata::fingerprint::Fingerprint;
use ferroscale_metadata::{Metadata, Param, StorageHasher, StorageModifier, TypeRef};
use scale_info::PortableRegistry;

use crate::CodegenError;

/// The extrinsic's generic parts, as type ids of the registry.
#[derive(Debug, Clone)]
pub struct ExtrinsicParts {
    /// `Address` (usually `MultiAddress<AccountId32, ()>`).
    pub address: u32,
    /// `RuntimeCall`.
    pub call: u32,
    /// `Signature` (usually `MultiSignature`).
    pub signature: u32,
    /// Types of the signed extensions' extra data, in order (they form the `Extra` tuple).
    pub extra: Vec<u32>,
    /// V16: the extension types of every transaction-extension version the
    /// metadata lists, by version (empty before V16: version 0 is `extra`).
    pub general: Vec<(u8, Vec<u32>)>,
}

impl ExtrinsicParts {
    /// Whether general transactions need their own type: the runtime lists a
    /// transaction-extension version other than 0.
    pub fn has_other_extension_versions(&self) -> bool {
        self.general.iter().any(|(v, _)| *v != 0)
    }
}

/// One storage entry of a pallet.
#[derive(Debug, Clone)]
pub struct StorageInfo {
    /// Entry name, e.g. `Account`.
    pub name: String,
    /// Key type id (a tuple when there are several hashers), `None` for a plain value.
    pub key: Option<u32>,
    /// The hashers, one per key element.
    pub hashers: Vec<StorageHasher>,
    /// Value type id.
    pub value: u32,
    /// The default value bytes.
    pub default: Vec<u8>,
    /// `OptionQuery`: the default is an encoded `None` of `Option<value>`.
    pub optional: bool,
}

/// A runtime API method or view function: what its typed payload needs.
#[derive(Debug, Clone)]
pub struct MethodInfo {
    /// Method name, e.g. `metadata_at_version`.
    pub name: String,
    /// Parameter names and type ids, in order.
    pub inputs: Vec<(String, u32)>,
    /// Output type id.
    pub output: u32,
    /// The first documentation line (the rest stays in the metadata: the
    /// generated files are large enough).
    pub doc: Option<String>,
}

/// A runtime API trait (V15+).
#[derive(Debug, Clone)]
pub struct ApiInfo {
    /// Trait name, e.g. `Metadata`.
    pub name: String,
    /// Its methods, in metadata order.
    pub methods: Vec<MethodInfo>,
}

/// A pallet view function (V16).
#[derive(Debug, Clone)]
pub struct ViewFunctionInfo {
    /// The 32-byte query id.
    pub id: [u8; 32],
    /// Name, parameters and output.
    pub method: MethodInfo,
}

/// One pallet, reduced to what typed access needs.
#[derive(Debug, Clone)]
pub struct PalletInfo {
    /// Pallet name, e.g. `Balances`.
    pub name: String,
    /// Pallet index in `RuntimeCall`/`RuntimeEvent`.
    pub index: u8,
    /// Storage prefix (usually the pallet name).
    pub storage_prefix: String,
    /// Storage entries.
    pub storage: Vec<StorageInfo>,
    /// Constants: name, type id and value bytes.
    pub constants: Vec<(String, u32, Vec<u8>)>,
    /// The pallet's `Call` enum type id.
    pub calls: Option<u32>,
    /// The pallet's `Event` enum type id.
    pub event: Option<u32>,
    /// The pallet's `Error` enum type id.
    pub error: Option<u32>,
    /// View functions (V16; empty before).
    pub view_functions: Vec<ViewFunctionInfo>,
}

/// Everything the generator reads from one metadata blob.
#[derive(Debug, Clone)]
pub struct ChainInput {
    /// Metadata version (14, 15 or 16; 0 for a bare type registry).
    pub version: u32,
    /// The portable type registry.
    pub types: PortableRegistry,
    /// Pallets in metadata order.
    pub pallets: Vec<PalletInfo>,
    /// The extrinsic's generic parts (`None` for a bare type registry).
    pub extrinsic: Option<ExtrinsicParts>,
    /// `RuntimeEvent`, when the metadata names it (V15+) or a pallet event enum points to it.
    pub runtime_event: Option<u32>,
    /// `RuntimeError` (V15+).
    pub runtime_error: Option<u32>,
    /// Runtime API traits (V15+; empty for V14 and a bare registry).
    pub apis: Vec<ApiInfo>,
    /// The runtime's fingerprint (spec, hashes of every item), written into
    /// the module as `RUNTIME`; `None` for a bare type registry.
    pub fingerprint: Option<Fingerprint>,
}

/// Loads a metadata blob (any framing `Metadata::load` accepts) into the generator's input.
pub fn load(bytes: &[u8]) -> Result<ChainInput, CodegenError> {
    let metadata = Metadata::load(bytes).map_err(|e| CodegenError::Decode(e.to_string()))?;
    from_metadata(metadata)
}

/// The generator's input from a loaded metadata model (V14 or later).
pub fn from_metadata(metadata: Metadata) -> Result<ChainInput, CodegenError> {
    let version = metadata.version;
    let fingerprint = match metadata.types {
        Some(_) => Some(
            metadata
                .fingerprint()
                .map_err(|e| CodegenError::Registry(e.to_string()))?,
        ),
        None => None,
    };
    let types = metadata.types.ok_or(CodegenError::PreV14(version))?;
    let ext = &metadata.extrinsic;
    let part = |ty: Option<u32>, name: &str| {
        ty.ok_or_else(|| {
            CodegenError::Registry(format!("the metadata names no extrinsic `{name}` type"))
        })
    };
    let extrinsic = ExtrinsicParts {
        address: part(ext.address_type, "Address")?,
        call: part(ext.call_type, "Call")?,
        signature: part(ext.signature_type, "Signature")?,
        extra: ext
            .signed_extensions_v4()
            .iter()
            .map(|e| part(e.ty, &e.identifier))
            .collect::<Result<_, _>>()?,
        general: ext
            .extensions_by_version
            .keys()
            .map(|&v| {
                let types = ext
                    .extensions_for_version(v)
                    .iter()
                    .map(|e| part(e.ty, &e.identifier))
                    .collect::<Result<_, _>>()?;
                Ok((v, types))
            })
            .collect::<Result<_, CodegenError>>()?,
    };
    let pallets = metadata
        .pallets
        .iter()
        .map(|p| {
            Ok(PalletInfo {
                name: p.name.clone(),
                index: p.index,
                storage_prefix: p
                    .storage
                    .as_ref()
                    .map(|s| s.prefix.clone())
                    .unwrap_or_default(),
                storage: p
                    .storage_entries()
                    .iter()
                    .map(|e| {
                        Ok(StorageInfo {
                            name: e.name.clone(),
                            key: e.key.as_ref().map(|k| type_id(k, &e.name)).transpose()?,
                            hashers: e.hashers.clone(),
                            value: type_id(&e.value, &e.name)?,
                            default: e.default.clone(),
                            optional: e.modifier == StorageModifier::Optional,
                        })
                    })
                    .collect::<Result<_, CodegenError>>()?,
                constants: p
                    .constants
                    .iter()
                    .map(|c| Ok((c.name.clone(), type_id(&c.ty, &c.name)?, c.value.clone())))
                    .collect::<Result<_, CodegenError>>()?,
                calls: p.call_enum.as_ref().and_then(|e| e.type_id),
                event: p.event_enum.as_ref().and_then(|e| e.type_id),
                error: p.error_enum.as_ref().and_then(|e| e.type_id),
                view_functions: p
                    .view_functions
                    .iter()
                    .map(|f| ViewFunctionInfo {
                        id: f.id,
                        method: method_info(&f.name, &f.inputs, f.output, &f.docs),
                    })
                    .collect(),
            })
        })
        .collect::<Result<_, CodegenError>>()?;
    Ok(ChainInput {
        version,
        types,
        pallets,
        extrinsic: Some(extrinsic),
        runtime_event: metadata.outer_enums.as_ref().map(|o| o.event),
        runtime_error: metadata.outer_enums.as_ref().map(|o| o.error),
        apis: metadata
            .apis
            .iter()
            .map(|a| ApiInfo {
                name: a.name.clone(),
                methods: a
                    .methods
                    .iter()
                    .map(|m| method_info(&m.name, &m.inputs, m.output, &m.docs))
                    .collect(),
            })
            .collect(),
        fingerprint,
    })
}

fn method_info(name: &str, inputs: &[Param], output: u32, docs: &[String]) -> MethodInfo {
    MethodInfo {
        name: name.to_owned(),
        inputs: inputs.iter().map(|p| (p.name.clone(), p.ty)).collect(),
        output,
        doc: docs
            .iter()
            .map(|d| d.trim())
            .find(|d| !d.is_empty())
            .map(without_links),
    }
}

/// A line of the runtime's own docs as text for ours: its intra-doc links
/// (``[`Pallet::swap`]``, `[Config]`) name items of the runtime's crates,
/// which rustdoc cannot resolve here, so they become plain code or text.
/// Links with a target (`[text](url)`, `[text][ref]`) stay.
fn without_links(doc: &str) -> String {
    let mut out = String::with_capacity(doc.len());
    let mut rest = doc;
    while let Some(open) = rest.find('[') {
        out.push_str(&rest[..open]);
        let after = &rest[open + 1..];
        let Some(close) = after.find(']') else {
            out.push_str(&rest[open..]);
            return out;
        };
        let (inner, tail) = (&after[..close], &after[close + 1..]);
        if inner.contains('[') {
            // `[[`…: the inner bracket may open the link.
            out.push('[');
            rest = after;
            continue;
        }
        // A link with its target: kept whole (a reference's label too).
        let target = match tail.as_bytes().first() {
            Some(b'(') => Some(0),
            Some(b'[') => tail.find(']').map(|end| end + 1),
            _ => None,
        };
        if let Some(end) = target {
            out.push_str(&rest[open..open + 1 + close + 1]);
            out.push_str(&tail[..end]);
            rest = &tail[end..];
            continue;
        }
        match inner.len() >= 2 && inner.starts_with('`') && inner.ends_with('`') {
            true => out.push_str(inner),
            false => {
                out.push_str("\\[");
                out.push_str(inner);
                out.push_str("\\]");
            }
        }
        rest = tail;
    }
    out.push_str(rest);
    out
}

/// The registry id of a V14+ type reference (legacy names never reach here:
/// metadata with a registry refers to types by id).
fn type_id(ty: &TypeRef, what: &str) -> Result<u32, CodegenError> {
    ty.id().ok_or_else(|| {
        CodegenError::Registry(format!(
            "`{what}` names type `{ty}` instead of a registry id"
        ))
    })
}

/// A bare `PortableRegistry` in scale-info's JSON form (what runtime-API
/// tooling such as bt-decode ships): types only, no pallets or extrinsic.
pub fn from_registry_json(text: &str) -> Result<ChainInput, CodegenError> {
    let types: PortableRegistry = serde_json::from_str(text)
        .map_err(|e| CodegenError::Decode(format!("type registry JSON: {e}")))?;
    Ok(ChainInput {
        version: 0,
        types,
        pallets: Vec::new(),
        extrinsic: None,
        runtime_event: None,
        runtime_error: None,
        apis: Vec::new(),
        fingerprint: None,
    })
}

#[cfg(test)]
mod tests {
    use super::without_links;

    #[test]
    fn intra_doc_links_of_the_runtime_become_text() {
        assert_eq!(
            without_links("Provides a quote for [`Pallet::swap_tokens_for_exact_tokens`]."),
            "Provides a quote for `Pallet::swap_tokens_for_exact_tokens`."
        );
        assert_eq!(
            without_links("See [Config] and [`T`]"),
            "See \\[Config\\] and `T`"
        );
        let kept = "[the spec](https://spec.polkadot.network) and [x][y], [unclosed";
        assert_eq!(without_links(kept), kept);
        assert_eq!(without_links("[[`a`]]"), "[`a`]");
    }
}
