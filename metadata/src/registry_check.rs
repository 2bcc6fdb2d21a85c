//! Consistency checks on V14+ metadata after decoding: the registry's ids are
//! its positions, and every type id — inside the registry
//! ([`crate::type_graph::check_registry`]) and in the model — resolves.
//! Decoding alone does not guarantee either (a corrupted blob can decode fine
//! and point anywhere); after these checks the layers above can use
//! `PortableRegistry::resolve` on any id the model gives them.

use super::model::{Metadata, TypeRef};
use crate::error::Error;

/// Every type id in the converted model resolves in its registry.
pub(super) fn check_model_ids(m: &Metadata) -> Result<(), Error> {
    let len = m.type_count();
    let check = |id: u32, what: &dyn Fn() -> String| -> Result<(), Error> {
        if (id as usize) < len {
            Ok(())
        } else {
            Err(Error::MetadataContent(format!(
                "{} refers to type {id}, but the registry has {len} types",
                what()
            )))
        }
    };
    let check_ref = |ty: &TypeRef, what: &dyn Fn() -> String| match ty {
        TypeRef::Id(id) => check(*id, what),
        TypeRef::Name(_) => Ok(()),
    };
    for p in &m.pallets {
        for e in [&p.call_enum, &p.event_enum, &p.error_enum]
            .into_iter()
            .flatten()
        {
            for f in e.variants.iter().flat_map(|v| &v.fields) {
                check_ref(&f.ty, &|| format!("a field in pallet {}", p.name))?;
            }
        }
        for c in &p.constants {
            check_ref(&c.ty, &|| format!("constant {}.{}", p.name, c.name))?;
        }
        for e in p.storage_entries() {
            let what = || format!("storage {}.{}", p.name, e.name);
            for ty in e.key.iter().chain(&e.keys).chain([&e.value]) {
                check_ref(ty, &what)?;
            }
        }
        for f in &p.view_functions {
            let what = || format!("view function {}.{}", p.name, f.name);
            for ty in f.inputs.iter().map(|i| i.ty).chain([f.output]) {
                check(ty, &what)?;
            }
        }
        for a in &p.associated_types {
            check(a.ty, &|| format!("associated type {}.{}", p.name, a.name))?;
        }
    }
    let x = &m.extrinsic;
    let extrinsic_ids = [
        x.type_id,
        x.address_type,
        x.call_type,
        x.signature_type,
        x.extra_type,
    ];
    let extension_ids = x
        .signed_extensions
        .iter()
        .flat_map(|s| [s.ty, s.additional_signed]);
    for id in extrinsic_ids.into_iter().chain(extension_ids).flatten() {
        check(id, &|| "the extrinsic description".into())?;
    }
    for api in &m.apis {
        for method in &api.methods {
            let what = || format!("runtime API {}_{}", api.name, method.name);
            for ty in method.inputs.iter().map(|i| i.ty).chain([method.output]) {
                check(ty, &what)?;
            }
        }
    }
    if let Some(o) = m.outer_enums {
        for id in [o.call, o.event, o.error] {
            check(id, &|| "the outer enums".into())?;
        }
    }
    // Custom values are not checked: they are opaque to the runtime, which
    // does not enforce their type ids (subxt's custom-values fixture carries a
    // deliberately dangling one). Resolve `CustomValue::ty` with care.
    if let Some(ty) = m.runtime_type {
        check(ty, &|| "the runtime type".into())?;
    }
    Ok(())
}
