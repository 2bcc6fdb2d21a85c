//! Reads the spec name and version from the `System` pallet's `Version`
//! constant, which holds a SCALE `RuntimeVersion` in every metadata version
//! that has it (V14+ always; legacy runtimes from about 2020 on).

use parity_scale_codec::Decode;

use super::model::{Pallet, RuntimeVersion};

/// The runtime version carried by `System.Version`, if present and readable.
pub(super) fn find(pallets: &[Pallet]) -> Option<RuntimeVersion> {
    let constant = pallets
        .iter()
        .find(|p| p.name == "System")?
        .constant("Version")?;
    decode(&constant.value)
}

/// Decodes the leading fields of a `RuntimeVersion`: `spec_name`,
/// `impl_name`, `authoring_version`, `spec_version` (the rest — impl version,
/// APIs, transaction version — is not needed here and is left unread).
fn decode(mut bytes: &[u8]) -> Option<RuntimeVersion> {
    let input = &mut bytes;
    // `String` decoding refuses lengths beyond the slice, so hostile bytes
    // here cannot allocate more than the constant's own size.
    Some(RuntimeVersion {
        spec_name: String::decode(input).ok()?,
        impl_name: String::decode(input).ok()?,
        authoring_version: u32::decode(input).ok()?,
        spec_version: u32::decode(input).ok()?,
    })
}
