//! The signature payload of a format-4 signed extrinsic: the bytes its
//! signer signs. The call, then each signed extension's `extrinsic` value
//! in metadata order, then each one's `additional_signed` value in the same
//! order; hashed with BLAKE2b-256 when longer than 256 bytes.
//!
//! The FRAME extensions take their values from [`PayloadInput`]'s fields
//! (`CheckMortality`/`CheckEra`: era and the checkpoint block's hash;
//! `CheckNonce`; `ChargeTransactionPayment`/`ChargeAssetTxPayment`: tip and
//! asset; `CheckMetadataHash`: the mode byte and the optional hash;
//! `CheckSpecVersion`, `CheckTxVersion`, `CheckGenesis`); any other
//! extension that carries data takes them from [`PayloadInput::extensions`].

use ferroscale_value::Value;

use crate::context::Context;
use crate::error::Error;
use crate::graph::{Node, TypeIdx};
use crate::runtime::{FrameExtension, SigningExtension};

use super::Encoder;

/// Longest payload signed as it is; a longer one is signed as its BLAKE2b-256 hash.
pub const MAX_UNHASHED_PAYLOAD: usize = 256;

/// The values of one signed extension, as [`PayloadInput::extensions`] gives
/// them (`None`: not given).
#[derive(Clone, Debug, Default)]
pub struct ExtensionValues {
    /// Its value in the extrinsic.
    pub extrinsic: Option<Value>,
    /// Its value in the signed payload only.
    pub additional_signed: Option<Value>,
}

/// What a signer signs besides the call: hashes as their bytes, other
/// values in the forms encoding takes (numbers as `Value::UInt` …).
#[derive(Clone, Debug)]
pub struct PayloadInput {
    /// The era: `"00"` (immortal), `{"period", "current"}` or
    /// `{"period", "phase"}` (mortal), as py-scale-codec's `Era` takes it.
    pub era: Value,
    /// The sender's nonce.
    pub nonce: Value,
    /// The tip.
    pub tip: Value,
    /// `ChargeAssetTxPayment`'s asset (`None`: the native token).
    pub asset_id: Option<Value>,
    /// The chain's genesis hash (`CheckGenesis`; an immortal era's checkpoint).
    pub genesis_hash: Option<Vec<u8>>,
    /// The hash of a mortal era's checkpoint block (its first block); an
    /// immortal era's is the genesis hash, so `None` or that.
    pub block_hash: Option<Vec<u8>>,
    /// The metadata hash (`CheckMetadataHash`; `None`: the check disabled).
    pub metadata_hash: Option<Vec<u8>>,
    /// The runtime's spec version (`CheckSpecVersion`).
    pub spec_version: u32,
    /// The runtime's transaction version (`CheckTxVersion`).
    pub transaction_version: u32,
    /// Values of extensions by identifier: any extension the fields above
    /// do not cover, or in place of what they give.
    pub extensions: Vec<(String, ExtensionValues)>,
}

impl Default for PayloadInput {
    /// Immortal, nonce 0, no tip, nothing else given.
    fn default() -> Self {
        PayloadInput {
            era: Value::Str("00".into()),
            nonce: Value::UInt(0),
            tip: Value::UInt(0),
            asset_id: None,
            genesis_hash: None,
            block_hash: None,
            metadata_hash: None,
            spec_version: 0,
            transaction_version: 0,
            extensions: Vec::new(),
        }
    }
}

/// The two parts of a signed extension's data.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Part {
    Extrinsic,
    AdditionalSigned,
}

impl Part {
    fn name(self) -> &'static str {
        match self {
            Part::Extrinsic => "extrinsic",
            Part::AdditionalSigned => "additional_signed",
        }
    }
}

/// The signature payload of `call` (the call's bytes) with the runtime's
/// `extensions` ([`crate::runtime::ExtrinsicFormat::signing`]) and `input`:
/// the bytes signed, hashed when longer than [`MAX_UNHASHED_PAYLOAD`].
pub fn signature_payload(
    ctx: &Context<'_>,
    extensions: &[SigningExtension],
    call: &[u8],
    input: &PayloadInput,
) -> Result<Vec<u8>, Error> {
    for (identifier, _) in &input.extensions {
        if !extensions.iter().any(|e| &*e.identifier == identifier) {
            let known: Vec<&str> = extensions.iter().map(|e| &*e.identifier).collect();
            return Err(Error::Usage(format!(
                "the runtime has no signed extension '{identifier}' (it has: {})",
                known.join(", ")
            )));
        }
    }
    let mut payload = Vec::with_capacity(call.len() + 128);
    payload.extend_from_slice(call);
    let mut encoder = Encoder::starting(ctx);
    let mut immortal = true;
    for part in [Part::Extrinsic, Part::AdditionalSigned] {
        for e in extensions {
            let ty = match part {
                Part::Extrinsic => e.extrinsic,
                Part::AdditionalSigned => e.additional_signed,
            };
            let Some(ty) = ty else {
                continue;
            };
            let given = input
                .extensions
                .iter()
                .find(|(id, _)| *id == *e.identifier)
                .and_then(|(_, v)| match part {
                    Part::Extrinsic => v.extrinsic.as_ref(),
                    Part::AdditionalSigned => v.additional_signed.as_ref(),
                });
            let start = payload.len();
            match given {
                Some(v) => encoder.node(ty, v, &mut payload),
                None => encoder.known(ty, e, part, input, immortal, &mut payload),
            }
            .map_err(|err| err.in_part(&format!("{} of {}", part.name(), e.identifier)))?;
            if part == Part::Extrinsic && e.frame == Some(FrameExtension::Mortality) {
                immortal = payload[start..] == [0];
            }
        }
    }
    if payload.len() > MAX_UNHASHED_PAYLOAD {
        return Ok(ferroscale_core::hashing::blake2_256(&payload).to_vec());
    }
    Ok(payload)
}

impl Encoder<'_, '_> {
    /// The value of part `part` of the FRAME extension `e`, from `input`'s
    /// fields; an extension it does not know is an error saying how to give
    /// its values.
    fn known(
        &mut self,
        ty: TypeIdx,
        e: &SigningExtension,
        part: Part,
        input: &PayloadInput,
        immortal: bool,
        out: &mut Vec<u8>,
    ) -> Result<(), Error> {
        let identifier = &*e.identifier;
        let genesis = || {
            input.genesis_hash.as_ref().ok_or_else(|| {
                Error::Usage(format!(
                    "{identifier} signs the genesis hash: give genesis_hash"
                ))
            })
        };
        use FrameExtension as F;
        let value = match (e.frame, part) {
            (Some(F::Mortality), Part::Extrinsic) => &input.era,
            (Some(F::Mortality), Part::AdditionalSigned) => {
                if immortal {
                    let genesis = genesis()?;
                    if input
                        .block_hash
                        .as_ref()
                        .is_some_and(|block| block != genesis)
                    {
                        return Err(Error::Usage(
                            "an immortal era's checkpoint is the genesis block: block_hash \
                             differs from genesis_hash (leave it out)"
                                .into(),
                        ));
                    }
                    return self.hash(ty, genesis, out);
                }
                let block = input.block_hash.as_ref().ok_or_else(|| {
                    Error::Usage(format!(
                        "a mortal era signs its checkpoint block ({identifier}): give \
                         block_hash, the hash of the block the era starts at"
                    ))
                })?;
                return self.hash(ty, block, out);
            }
            (Some(F::Nonce), Part::Extrinsic) => &input.nonce,
            (Some(F::Tip), Part::Extrinsic) => &input.tip,
            (Some(F::AssetTip), Part::Extrinsic) => {
                let value = Value::Dict(vec![
                    ("tip".into(), input.tip.clone()),
                    (
                        "asset_id".into(),
                        input.asset_id.clone().unwrap_or(Value::Null),
                    ),
                ]);
                return self.node(ty, &value, out);
            }
            (Some(F::MetadataHash), Part::Extrinsic) => {
                // The `Mode` enum: 0 disabled, 1 enabled.
                out.push(u8::from(input.metadata_hash.is_some()));
                return Ok(());
            }
            (Some(F::MetadataHash), Part::AdditionalSigned) => {
                // `Option<[u8; 32]>`.
                return match &input.metadata_hash {
                    None => self.node(ty, &Value::Null, out),
                    Some(hash) => match self.ctx.graph.get(ty) {
                        Some(Node::Option(inner)) => {
                            out.push(1);
                            self.hash(*inner, hash, out)
                        }
                        _ => self.node(ty, &Value::hex(hash), out),
                    },
                };
            }
            (Some(F::SpecVersion), Part::AdditionalSigned) => {
                return self.node(ty, &Value::UInt(input.spec_version.into()), out)
            }
            (Some(F::TxVersion), Part::AdditionalSigned) => {
                return self.node(ty, &Value::UInt(input.transaction_version.into()), out)
            }
            (Some(F::Genesis), Part::AdditionalSigned) => return self.hash(ty, genesis()?, out),
            _ => {
                return Err(Error::Usage(format!(
                    "signed extension '{identifier}' carries data in its {} part ({}): give \
                     it as extensions={{\"{identifier}\": {{\"{}\": value}}}}",
                    part.name(),
                    self.ctx.graph.describe(ty),
                    part.name()
                )))
            }
        };
        self.node(ty, value, out)
    }
}

impl Encoder<'_, '_> {
    /// A hash's bytes as `ty`: written as they are when `ty` is a byte
    /// array of their length (or a one-field wrapper of one, `H256`),
    /// else encoded as their hex.
    fn hash(&mut self, ty: TypeIdx, bytes: &[u8], out: &mut Vec<u8>) -> Result<(), Error> {
        let mut at = ty;
        loop {
            match self.ctx.graph.get(at) {
                Some(Node::ByteArray(n)) if *n as usize == bytes.len() => {
                    out.extend_from_slice(bytes);
                    return Ok(());
                }
                Some(Node::Tuple(ts)) if ts.len() == 1 => at = ts[0],
                Some(Node::Struct(fields)) if fields.len() == 1 => at = fields[0].ty,
                _ => return self.node(ty, &Value::hex(bytes), out),
            }
        }
    }
}
