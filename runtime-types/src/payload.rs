//! Typed runtime API calls (V15+) and view function queries (V16): what the
//! generated `runtime_apis::<trait>::<method>(…)` and
//! `pallets::<pallet>::view_functions::<name>(…)` return.
//!
//! A payload holds what a node's `state_call` takes (the method name and
//! the call data) and decodes the answer as the method's result type `R`.
//! It also names the item it was generated from ([`RuntimeItem`]), so
//! `ferroscale_metadata::Metadata::check_payload` can refuse it before it is
//! sent to a runtime whose item differs. The bytes are exactly what the
//! dynamic layer's `runtime_api_request` / `view_function_request` build.
//!
//! ```
//! use ferroscale_metadata::Metadata;
//! use ferroscale_runtime_types::polkadot;
//!
//! let metadata = Metadata::load(&ferroscale_fixtures::read(
//!     "metadata/polkadot-v15-spec1001002.scale",
//! ))?;
//! let call = polkadot::runtime_apis::metadata::metadata_at_version(15);
//! // Refused, naming the method, when the runtime's differs from the types'.
//! metadata.check_payload(call.item())?;
//! // What `state_call` takes: the method name and the encoded arguments.
//! assert_eq!(call.method_name(), "Metadata_metadata_at_version");
//! assert_eq!(call.call_data(), 15u32.to_le_bytes());
//! // The answer decodes as the method's result type, `Option<OpaqueMetadata>`.
//! let answer = [1, 8, 0xca, 0xfe];
//! assert_eq!(call.decode_result(&answer)?.map(|m| m.0), Some(vec![0xca, 0xfe]));
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```

use std::fmt;
use std::marker::PhantomData;

use ferroscale_core::fingerprint::{ItemKind, RuntimeFingerprint, RuntimeItem};
use parity_scale_codec::{Compact, Decode, Encode, Error};

use crate::{decode_all, DecodeError, DecodeErrorKind};

/// The runtime API a node runs view functions through.
pub const VIEW_FUNCTION_METHOD: &str = "RuntimeViewFunction_execute_view_function";

/// A runtime API method call: `Trait_method` and the SCALE-encoded
/// arguments; its answer decodes as `R`.
pub struct RuntimeApiPayload<R> {
    item: RuntimeItem,
    args: Vec<u8>,
    result: PhantomData<fn() -> R>,
}

// Not derived: `R` needs none of these for the payload to have them.
impl<R> Clone for RuntimeApiPayload<R> {
    fn clone(&self) -> Self {
        RuntimeApiPayload {
            item: self.item,
            args: self.args.clone(),
            result: PhantomData,
        }
    }
}

impl<R> fmt::Debug for RuntimeApiPayload<R> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("RuntimeApiPayload")
            .field("method", &self.method_name())
            .field("args", &self.args)
            .finish()
    }
}

impl<R> RuntimeApiPayload<R> {
    /// A payload of the method `trait_name.method` of `runtime` with its
    /// arguments already encoded one after the other (what generated code
    /// calls).
    pub fn new(
        runtime: &'static RuntimeFingerprint,
        trait_name: &'static str,
        method: &'static str,
        args: Vec<u8>,
    ) -> Self {
        RuntimeApiPayload {
            item: RuntimeItem {
                runtime,
                kind: ItemKind::RuntimeApi,
                pallet: trait_name,
                name: method,
            },
            args,
            result: PhantomData,
        }
    }

    /// The trait, e.g. `"Metadata"`.
    pub fn trait_name(&self) -> &'static str {
        self.item.pallet
    }

    /// The method, e.g. `"metadata_at_version"`.
    pub fn method(&self) -> &'static str {
        self.item.name
    }

    /// The name `state_call` takes: `Trait_method`.
    pub fn method_name(&self) -> String {
        format!("{}_{}", self.item.pallet, self.item.name)
    }

    /// The call data `state_call` takes: the arguments, SCALE-encoded one
    /// after the other.
    pub fn call_data(&self) -> &[u8] {
        &self.args
    }

    /// The item this payload was generated for, for
    /// `Metadata::check_payload`.
    pub fn item(&self) -> &RuntimeItem {
        &self.item
    }
}

impl<R: Decode> RuntimeApiPayload<R> {
    /// Decodes the node's answer as the method's result type (every byte
    /// used, nesting capped).
    pub fn decode_result(&self, answer: &[u8]) -> Result<R, DecodeError> {
        decode_all(answer)
    }
}

/// A pallet view function query: sent as the runtime API call
/// [`VIEW_FUNCTION_METHOD`] with the 32-byte query id and the encoded
/// arguments; its output decodes as `R`.
pub struct ViewFunctionPayload<R> {
    item: RuntimeItem,
    id: [u8; 32],
    args: Vec<u8>,
    result: PhantomData<fn() -> R>,
}

impl<R> Clone for ViewFunctionPayload<R> {
    fn clone(&self) -> Self {
        ViewFunctionPayload {
            item: self.item,
            id: self.id,
            args: self.args.clone(),
            result: PhantomData,
        }
    }
}

impl<R> fmt::Debug for ViewFunctionPayload<R> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("ViewFunctionPayload")
            .field("pallet", &self.item.pallet)
            .field("name", &self.item.name)
            .field("args", &self.args)
            .finish()
    }
}

impl<R> ViewFunctionPayload<R> {
    /// A query of the view function `pallet.name` of `runtime` (query id
    /// `id`) with its arguments already encoded one after the other (what
    /// generated code calls).
    pub fn new(
        runtime: &'static RuntimeFingerprint,
        pallet: &'static str,
        name: &'static str,
        id: [u8; 32],
        args: Vec<u8>,
    ) -> Self {
        ViewFunctionPayload {
            item: RuntimeItem {
                runtime,
                kind: ItemKind::ViewFunction,
                pallet,
                name,
            },
            id,
            args,
            result: PhantomData,
        }
    }

    /// The pallet, e.g. `"Proxy"`.
    pub fn pallet(&self) -> &'static str {
        self.item.pallet
    }

    /// The view function, e.g. `"check_permissions"`.
    pub fn name(&self) -> &'static str {
        self.item.name
    }

    /// The 32-byte query id the runtime dispatches on.
    pub fn query_id(&self) -> [u8; 32] {
        self.id
    }

    /// The view function's own arguments, SCALE-encoded one after the other.
    pub fn args(&self) -> &[u8] {
        &self.args
    }

    /// The name `state_call` takes: [`VIEW_FUNCTION_METHOD`].
    pub fn method_name(&self) -> &'static str {
        VIEW_FUNCTION_METHOD
    }

    /// The call data `state_call` takes: the query id, then the arguments
    /// as one `Vec<u8>` (compact length, bytes).
    pub fn call_data(&self) -> Vec<u8> {
        let mut out = Vec::with_capacity(32 + 5 + self.args.len());
        out.extend_from_slice(&self.id);
        // A `Vec<u8>` beyond 4 GiB cannot be built in the first place.
        Compact(self.args.len() as u64).encode_to(&mut out);
        out.extend_from_slice(&self.args);
        out
    }

    /// The item this payload was generated for, for
    /// `Metadata::check_payload`.
    pub fn item(&self) -> &RuntimeItem {
        &self.item
    }
}

impl<R: Decode> ViewFunctionPayload<R> {
    /// Decodes the view function's output bytes (the `Ok` payload of the
    /// answer) as its result type.
    pub fn decode_result(&self, output: &[u8]) -> Result<R, DecodeError> {
        decode_all(output)
    }

    /// Decodes the whole `state_call` answer,
    /// `Result<Vec<u8>, ViewFunctionDispatchError>`: the `Ok` bytes as the
    /// result type; an `Err` is [`ViewFunctionError::Dispatch`] with the
    /// dispatch error's bytes.
    pub fn decode_answer(&self, answer: &[u8]) -> Result<R, ViewFunctionError> {
        match answer.split_first() {
            Some((0, rest)) => {
                let output: Vec<u8> = decode_all(rest).map_err(ViewFunctionError::Decode)?;
                self.decode_result(&output)
                    .map_err(ViewFunctionError::Decode)
            }
            Some((1, rest)) => Err(ViewFunctionError::Dispatch(rest.to_vec())),
            _ => Err(ViewFunctionError::Decode(DecodeError::other(
                DecodeErrorKind::Invalid,
                0,
                "view function answer is not a Result (first byte must be 0 or 1)",
            ))),
        }
    }
}

/// Why a view function answer gave no result.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum ViewFunctionError {
    /// The answer does not decode as `Result<Vec<u8>, _>` with the output
    /// type inside.
    Decode(DecodeError),
    /// The runtime refused the query: the encoded
    /// `ViewFunctionDispatchError` (decode it with the chain's
    /// `runtime_apis::runtime_view_function::execute_view_function` result
    /// type, or the dynamic layer).
    Dispatch(Vec<u8>),
}

impl fmt::Display for ViewFunctionError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ViewFunctionError::Decode(e) => write!(f, "view function answer: {e}"),
            ViewFunctionError::Dispatch(bytes) => write!(
                f,
                "view function failed in the runtime (dispatch error {})",
                ferroscale_core::hex::encode_prefixed(bytes)
            ),
        }
    }
}

impl std::error::Error for ViewFunctionError {}

/// What a payload round trip gives the real-data tests (the generated
/// `payload_roundtrip` dispatch, behind the `roundtrip` option): the method
/// name and call data sent, and the result decoded with the typed result
/// type and encoded again.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PayloadRoundtrip {
    /// The name `state_call` takes.
    pub method: String,
    /// The call data `state_call` takes.
    pub call_data: Vec<u8>,
    /// The item's hash in the generated runtime.
    pub hash: Option<u128>,
    /// The result bytes decoded as the result type and encoded again.
    pub result: Vec<u8>,
}

/// Argument `i` of a round trip, decoded as the typed parameter's type
/// (every byte used).
pub fn roundtrip_arg<T: Decode>(args: &[&[u8]], i: usize) -> Result<T, Error> {
    let bytes = args
        .get(i)
        .ok_or(Error::from("fewer arguments than the method takes"))?;
    Ok(decode_all(bytes)?)
}

/// A runtime API payload's round trip: its request, and `result` through
/// the typed result type.
pub fn roundtrip_api<R: Decode + Encode>(
    payload: RuntimeApiPayload<R>,
    result: &[u8],
) -> Result<PayloadRoundtrip, Error> {
    Ok(PayloadRoundtrip {
        method: payload.method_name(),
        hash: payload.item.hash(),
        result: payload.decode_result(result)?.encode(),
        call_data: payload.args,
    })
}

/// A view function payload's round trip: its request, and `result` (the
/// output bytes) through the typed result type.
pub fn roundtrip_view<R: Decode + Encode>(
    payload: ViewFunctionPayload<R>,
    result: &[u8],
) -> Result<PayloadRoundtrip, Error> {
    Ok(PayloadRoundtrip {
        method: payload.method_name().to_owned(),
        hash: payload.item.hash(),
        result: payload.decode_result(result)?.encode(),
        call_data: payload.call_data(),
    })
}
