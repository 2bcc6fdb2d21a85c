//! Transactions by name over the loaded runtime: a call's bytes from its
//! pallet, name and arguments, and the signature payload a signer signs.
//!
//! ```text
//! let call = registry.encode_call("Balances", "transfer_keep_alive", CallArgs::ByNameStrict(&args))?;
//! let input = PayloadInput { genesis_hash: Some(genesis), nonce: Value::UInt(5), ..registry.payload_input()? };
//! let payload = registry.signature_payload(&call, &input)?; // sign these bytes
//! ```

use ferroscale_value::Value;

use crate::encode::payload::{signature_payload, PayloadInput};
use crate::encode::{encode_call, CallArgs};
use crate::error::{Error, ItemKind};

use super::Registry;

impl Registry {
    /// The bytes of call `pallet.call` with `args`: the bytes a `Call`
    /// value `{"call_module", "call_function", "call_args"}` encodes to.
    pub fn encode_call(
        &self,
        pallet: &str,
        call: &str,
        args: CallArgs<'_>,
    ) -> Result<Vec<u8>, Error> {
        let mut out = Vec::with_capacity(64);
        self.encode_call_into(pallet, call, args, &mut out)?;
        Ok(out)
    }

    /// [`Registry::encode_call`] appending to `out` (a caller reusing one buffer).
    pub fn encode_call_into(
        &self,
        pallet: &str,
        call: &str,
        args: CallArgs<'_>,
        out: &mut Vec<u8>,
    ) -> Result<(), Error> {
        // The runtime's call type (`RuntimeCall`; `Call` for legacy
        // metadata) is the node; errors of the call itself say `Call`, as a
        // `Call` value's do.
        let ty = self
            .runtime
            .as_ref()
            .and_then(|rt| rt.extrinsic.call)
            .ok_or_else(|| Error::NoRuntime { ty: "Call".into() })?;
        encode_call(&self.context(), ty, pallet, call, args, out).map_err(|e| match e {
            Error::Encode { ty: label, reason } if label == self.graph.describe(ty) => {
                Error::Encode {
                    ty: "Call".into(),
                    reason,
                }
            }
            other => other,
        })
    }

    /// The runtime's spec and transaction versions (its `System.Version`
    /// constant), read once per loaded metadata.
    pub fn runtime_versions(&mut self) -> Result<(u32, u32), Error> {
        if let Some(versions) = self.runtime_versions {
            return Ok(versions);
        }
        let version = self.constant("System", "Version")?;
        let field = |name: &str| {
            version
                .get(name)
                .and_then(Value::as_u128)
                .and_then(|n| u32::try_from(n).ok())
                .ok_or_else(|| {
                    Error::Usage(format!(
                        "the System.Version constant has no {name} (read {version})"
                    ))
                })
        };
        let versions = (field("spec_version")?, field("transaction_version")?);
        self.runtime_versions = Some(versions);
        Ok(versions)
    }

    /// A [`PayloadInput`] with the runtime's spec and transaction versions
    /// and the defaults (immortal, nonce 0, no tip), to fill in.
    pub fn payload_input(&mut self) -> Result<PayloadInput, Error> {
        let (spec_version, transaction_version) = self.runtime_versions()?;
        Ok(PayloadInput {
            spec_version,
            transaction_version,
            ..PayloadInput::default()
        })
    }

    /// The signature payload of `call` (a call's bytes) with `input`: the
    /// bytes a signer signs for a format-4 signed extrinsic (hashed when
    /// longer than 256 bytes). Needs V14+ metadata, whose signed extensions
    /// have types.
    pub fn signature_payload(&self, call: &[u8], input: &PayloadInput) -> Result<Vec<u8>, Error> {
        let runtime = self.runtime.as_ref().ok_or_else(|| Error::NoRuntime {
            ty: "signature payload".into(),
        })?;
        if !runtime.portable {
            return Err(Error::NotInMetadata {
                kind: ItemKind::SignedExtension,
                version: self.metadata.as_ref().map_or(0, |m| m.version),
            });
        }
        signature_payload(&self.context(), &runtime.extrinsic.signing, call, input)
    }
}
