//! Transactions from Python: a call's bytes from its pallet, name and
//! arguments, and the signature payload a signer signs — over
//! `ferroscale_dynamic`'s `Registry::encode_call` and
//! `Registry::signature_payload`. The configuration object's methods
//! (`RuntimeConfigurationObject.compose_call`, `.signature_payload`, in
//! [`crate::config`]) call these.

use ferroscale_dynamic::{CallArgs, ExtensionValues, PayloadInput};
use ferroscale_value::Value;
use pyo3::exceptions::{PyTypeError, PyValueError};
use pyo3::intern;
use pyo3::prelude::*;
use pyo3::types::{PyByteArray, PyBytes, PyDict, PyString};

use crate::convert::scale_bytes::PyScaleBytes;
use crate::convert::to_value;
use crate::errors::{guard, to_py};
use crate::registry::PyRegistry;

/// The bytes of call `pallet.call` with `args`: a dict by name (every name
/// the call's), a list or tuple in the call's order, or `None` (no arguments).
pub fn compose_call<'py>(
    registry: &Bound<'py, PyRegistry>,
    pallet: &str,
    call: &str,
    args: Option<&Bound<'py, PyAny>>,
) -> PyResult<Bound<'py, PyBytes>> {
    let py = registry.py();
    let value = match args {
        Some(a) if !a.is_none() => to_value(a)?,
        _ => Value::Null,
    };
    let args = match &value {
        Value::Dict(_) => CallArgs::ByNameStrict(&value),
        Value::List(items) | Value::Tuple(items) => CallArgs::ByPosition(items),
        Value::Null => CallArgs::None,
        _ => {
            return Err(PyTypeError::new_err(format!(
                "call_args of {pallet}.{call} must be a dict (by name), a list or tuple (in \
                 order) or None, not {}",
                args.map_or_else(|| "None".into(), crate::convert::type_name)
            )))
        }
    };
    let reg = registry.get().lock(py)?;
    guard("composing a call", || {
        CALL_BUFFER.with_borrow_mut(|buffer| {
            buffer.clear();
            reg.inner()
                .encode_call_into(pallet, call, args, buffer)
                .map_err(|e| to_py(py, &e))?;
            let bytes = PyBytes::new(py, buffer);
            if buffer.capacity() > 4096 {
                // A large call's room is not kept.
                *buffer = Vec::new();
            }
            Ok(bytes)
        })
    })
}

thread_local! {
    /// The buffer calls are encoded into before they are copied out as `bytes`.
    static CALL_BUFFER: std::cell::RefCell<Vec<u8>> = const { std::cell::RefCell::new(Vec::new()) };
}

/// The bytes of a call given to `signature_payload`: `bytes`, `bytearray`,
/// `"0x…"` hex, a `ScaleBytes`, or a scale object holding its encoding in
/// `data` (an encoded `Call` object).
fn call_bytes(call: &Bound<'_, PyAny>) -> PyResult<Vec<u8>> {
    let py = call.py();
    if call.is_instance_of::<PyBytes>()
        || call.is_instance_of::<PyByteArray>()
        || call.is_instance_of::<PyString>()
    {
        return crate::registry::runtime_api::input_bytes(call);
    }
    if let Ok(sb) = call.cast::<PyScaleBytes>() {
        let data = sb.try_borrow()?.data(py);
        return crate::registry::runtime_api::input_bytes(data.bind(py));
    }
    match call.getattr(intern!(py, "data")) {
        Ok(data) if !data.is_none() => call_bytes(&data),
        _ => Err(PyTypeError::new_err(format!(
            "call must be the call's bytes (bytes, bytearray, \"0x…\" hex, ScaleBytes or an \
             encoded Call object), not {}",
            crate::convert::type_name(call)
        ))),
    }
}

/// A hash given as `bytes`, `bytearray` or `"0x…"` hex (`name` says which
/// argument it is in errors).
fn hash_value(name: &str, v: Option<&Bound<'_, PyAny>>) -> PyResult<Option<Vec<u8>>> {
    let Some(v) = v.filter(|v| !v.is_none()) else {
        return Ok(None);
    };
    let bytes = crate::registry::runtime_api::input_bytes(v)
        .map_err(|e| PyValueError::new_err(format!("{name}: {e}")))?;
    Ok(Some(bytes))
}

/// The values of a `signature_payload` call, gathered from its arguments
/// (their meaning: `_core.pyi`).
pub struct PayloadArgs<'a, 'py> {
    /// `"00"`/`None` (immortal), `{"period", "current"}` …
    pub era: Option<&'a Bound<'py, PyAny>>,
    /// The sender's nonce.
    pub nonce: u64,
    /// The tip.
    pub tip: u128,
    /// `ChargeAssetTxPayment`'s asset.
    pub tip_asset_id: Option<&'a Bound<'py, PyAny>>,
    /// The genesis hash.
    pub genesis_hash: &'a Bound<'py, PyAny>,
    /// A mortal era's checkpoint block hash.
    pub block_hash: Option<&'a Bound<'py, PyAny>>,
    /// The metadata hash (`CheckMetadataHash` enabled).
    pub metadata_hash: Option<&'a Bound<'py, PyAny>>,
    /// In place of the runtime's own.
    pub spec_version: Option<u32>,
    /// In place of the runtime's own.
    pub transaction_version: Option<u32>,
    /// Other extensions' values by identifier.
    pub extensions: Option<&'a Bound<'py, PyAny>>,
}

/// `extensions={identifier: {"extrinsic": v, "additional_signed": v}}`.
fn extension_values(
    extensions: Option<&Bound<'_, PyAny>>,
) -> PyResult<Vec<(String, ExtensionValues)>> {
    let Some(extensions) = extensions.filter(|e| !e.is_none()) else {
        return Ok(Vec::new());
    };
    let dict = extensions.cast::<PyDict>().map_err(|_| {
        PyTypeError::new_err(
            "extensions must be a dict {identifier: {\"extrinsic\": value, \"additional_signed\": value}}",
        )
    })?;
    let mut out = Vec::with_capacity(dict.len());
    for (k, v) in dict.iter() {
        let identifier: String = k.extract().map_err(|_| {
            PyTypeError::new_err("extensions' keys must be signed extension identifiers (str)")
        })?;
        let parts = v.cast::<PyDict>().map_err(|_| {
            PyTypeError::new_err(format!(
                "extensions[{identifier:?}] must be a dict with \"extrinsic\" and/or \"additional_signed\""
            ))
        })?;
        let mut values = ExtensionValues::default();
        for (part, value) in parts.iter() {
            let value = Some(to_value(&value)?);
            match part.extract::<String>().as_deref() {
                Ok("extrinsic") => values.extrinsic = value,
                Ok("additional_signed") => values.additional_signed = value,
                _ => {
                    return Err(PyValueError::new_err(format!(
                        "extensions[{identifier:?}] has key {part}: only \"extrinsic\" and \
                         \"additional_signed\" are known"
                    )))
                }
            }
        }
        out.push((identifier, values));
    }
    Ok(out)
}

/// The signature payload of `call` with `args` (see `_core.pyi`).
pub fn signature_payload<'py>(
    registry: &Bound<'py, PyRegistry>,
    call: &Bound<'py, PyAny>,
    args: PayloadArgs<'_, 'py>,
) -> PyResult<Bound<'py, PyBytes>> {
    let py = registry.py();
    let call = call_bytes(call)?;
    let era = match args.era.filter(|e| !e.is_none()) {
        Some(era) => to_value(era)?,
        None => Value::Str("00".into()),
    };
    let genesis_hash = hash_value("genesis_hash", Some(args.genesis_hash))?;
    if genesis_hash.is_none() {
        return Err(PyValueError::new_err("genesis_hash is required"));
    }
    let mut input = PayloadInput {
        era,
        nonce: Value::UInt(args.nonce.into()),
        tip: Value::UInt(args.tip),
        asset_id: match args.tip_asset_id.filter(|a| !a.is_none()) {
            Some(a) => Some(to_value(a)?),
            None => None,
        },
        genesis_hash,
        block_hash: hash_value("block_hash", args.block_hash)?,
        metadata_hash: hash_value("metadata_hash", args.metadata_hash)?,
        spec_version: 0,
        transaction_version: 0,
        extensions: extension_values(args.extensions)?,
    };
    let payload = {
        let mut reg = registry.get().lock(py)?;
        guard("building a signature payload", || {
            let inner = reg.inner_mut();
            let (spec, tx) = match (args.spec_version, args.transaction_version) {
                (Some(spec), Some(tx)) => (spec, tx),
                (spec, tx) => {
                    let (own_spec, own_tx) = inner.runtime_versions().map_err(|e| to_py(py, &e))?;
                    (spec.unwrap_or(own_spec), tx.unwrap_or(own_tx))
                }
            };
            input.spec_version = spec;
            input.transaction_version = tx;
            inner
                .signature_payload(&call, &input)
                .map_err(|e| to_py(py, &e))
        })?
    };
    Ok(PyBytes::new(py, &payload))
}
