//! SS58 address functions over `ferroscale_core::ss58`.

use ferroscale_core::ss58;
use pyo3::exceptions::PyValueError;
use pyo3::prelude::*;
use pyo3::types::{PyBool, PyByteArray, PyBytes};

/// py-scale-codec's message for an SS58 error (its tests compare messages).
///
/// `ferroscale_core::ss58` reports one `Error::Ss58(String)` without a kind,
/// so the kind is recognised from the core's wording here; the core's own
/// message is kept for every error py-scale-codec has no wording for.
fn py_message(core: &str) -> String {
    if core.contains("empty address") {
        return "Empty address provided".into();
    }
    if core.contains("checksum mismatch") {
        return "Invalid checksum".into();
    }
    if core.contains("characters long") || core.contains("no SS58 payload and checksum") {
        return "Invalid address length".into();
    }
    if let Some(rest) = core.strip_prefix("network format ") {
        if let Some(n) = rest.strip_suffix(" is reserved by the SS58 spec") {
            return format!("{n} is a reserved SS58 format");
        }
    }
    if core.contains("address is for network format") {
        return "Invalid SS58 format".into();
    }
    if core.contains("has no SS58 form") {
        return "Invalid length for address".into();
    }
    core.to_owned()
}

fn err(e: ferroscale_core::error::Error) -> PyErr {
    let text = match &e {
        ferroscale_core::error::Error::Ss58(m) => py_message(m),
        other => other.to_string(),
    };
    PyValueError::new_err(text)
}

/// An `ss58_format` argument: an int from 0 to 16383.
fn format_arg(format: &Bound<'_, PyAny>) -> PyResult<u16> {
    format
        .extract::<i64>()
        .ok()
        .filter(|f| !format.is_instance_of::<PyBool>() && (0..=16383).contains(f))
        .map(|f| f as u16)
        .ok_or_else(|| PyValueError::new_err("Invalid value for ss58_format"))
}

/// An optional `valid_ss58_format` argument.
fn valid_format_arg(format: Option<&Bound<'_, PyAny>>) -> PyResult<Option<u16>> {
    format.filter(|f| !f.is_none()).map(format_arg).transpose()
}

/// A public key given as bytes or hex text (with or without `0x`).
fn key_bytes(address: &Bound<'_, PyAny>) -> PyResult<Vec<u8>> {
    if let Ok(b) = address.cast::<PyBytes>() {
        return Ok(b.as_bytes().to_vec());
    }
    if let Ok(b) = address.cast::<PyByteArray>() {
        return Ok(b.to_vec());
    }
    let Ok(text) = address.extract::<String>() else {
        return Err(PyValueError::new_err(
            "public key must be a hex string or bytes",
        ));
    };
    let digits = text
        .strip_prefix("0x")
        .or_else(|| text.strip_prefix("0X"))
        .unwrap_or(&text);
    ferroscale_core::hex::decode(digits)
        .map_err(|_| PyValueError::new_err(format!("invalid hex public key: {text:?}")))
}

/// The key an account is given as: an SS58 address, `"0x…"` hex or bytes.
pub(crate) fn ss58_decode_any(account: &Bound<'_, PyAny>) -> PyResult<Vec<u8>> {
    match account.extract::<String>() {
        Ok(text) if !text.starts_with("0x") => {
            ss58::decode(&text, None).map(|d| d.payload).map_err(err)
        }
        _ => key_bytes(account),
    }
}

/// The SS58 address of a public key or account-index payload (bytes or hex text).
#[pyfunction]
#[pyo3(signature = (address, ss58_format=None))]
pub fn ss58_encode(
    address: &Bound<'_, PyAny>,
    ss58_format: Option<&Bound<'_, PyAny>>,
) -> PyResult<String> {
    let format = valid_format_arg(ss58_format)?.unwrap_or(42);
    let payload = key_bytes(address)?;
    ss58::encode(&payload, format).map_err(|e| match e {
        // py-scale-codec rejects the reserved formats as values of the argument.
        ferroscale_core::error::Error::Ss58(m) if m.contains("is reserved") => {
            PyValueError::new_err("Invalid value for ss58_format")
        }
        other => err(other),
    })
}

/// The public key (hex without `0x`) of an SS58 address; `"0x…"` text is
/// returned as it is. With `valid_ss58_format` the address must carry it.
#[pyfunction]
#[pyo3(signature = (address, valid_ss58_format=None))]
pub fn ss58_decode(
    address: &str,
    valid_ss58_format: Option<&Bound<'_, PyAny>>,
) -> PyResult<String> {
    if address.starts_with("0x") {
        return Ok(address.to_owned());
    }
    let d = ss58::decode(address, valid_format_arg(valid_ss58_format)?).map_err(err)?;
    let mut key = String::with_capacity(2 * d.payload.len());
    ferroscale_core::hex::push_hex(&mut key, &d.payload);
    Ok(key)
}

/// Whether `value` is a valid SS58 address (of `valid_ss58_format`, when given).
#[pyfunction]
#[pyo3(signature = (value, valid_ss58_format=None))]
pub fn is_valid_ss58_address(
    value: &str,
    valid_ss58_format: Option<&Bound<'_, PyAny>>,
) -> PyResult<bool> {
    Ok(ss58::is_valid(value, valid_format_arg(valid_ss58_format)?))
}

/// The SS58 address of an account index (up to 8 bytes).
#[pyfunction]
#[pyo3(signature = (account_index, ss58_format=None))]
pub fn ss58_encode_account_index(
    account_index: &Bound<'_, PyAny>,
    ss58_format: Option<&Bound<'_, PyAny>>,
) -> PyResult<String> {
    let index = account_index
        .extract::<u64>()
        .map_err(|_| PyValueError::new_err("Value too large for an account index"))?;
    let format = valid_format_arg(ss58_format)?.unwrap_or(42);
    ss58::encode_account_index(index, format).map_err(err)
}

/// The account index of an SS58 account-index address.
#[pyfunction]
#[pyo3(signature = (address, valid_ss58_format=None))]
pub fn ss58_decode_account_index(
    address: &str,
    valid_ss58_format: Option<&Bound<'_, PyAny>>,
) -> PyResult<u64> {
    ss58::decode_account_index(address, valid_format_arg(valid_ss58_format)?).map_err(err)
}

/// The network format an SS58 address carries.
#[pyfunction]
pub fn get_ss58_format(ss58_address: &str) -> PyResult<u16> {
    ss58::decode(ss58_address, None)
        .map(|d| d.format)
        .map_err(err)
}

#[cfg(test)]
mod tests {
    use super::py_message;
    use ferroscale_core::error::Error;
    use ferroscale_core::ss58;

    fn message(r: Result<ss58::Decoded, Error>) -> String {
        match r {
            Err(Error::Ss58(m)) => py_message(&m),
            other => panic!("expected an SS58 error, got {other:?}"),
        }
    }

    /// The wording `py_message` recognises is the core's; these fail when the
    /// core rewords an error, instead of py-scale-codec's message silently
    /// turning into the core's.
    #[test]
    fn core_errors_map_to_py_scale_codec_messages() {
        let alice = "5GrwvaEF5zXb26Fz9rcQpDWS57CtERHpNehXCPcNoHGKutQY";
        assert_eq!(message(ss58::decode("", None)), "Empty address provided");
        assert_eq!(
            message(ss58::decode(
                "5GoKvZWG5ZPYL1WUovuHW3zJBWBP5eT8CbqjdRY4Q6iMaQub",
                None
            )),
            "Invalid checksum"
        );
        assert_eq!(
            message(ss58::decode(&format!("{alice}sdhfjksdhfkj"), None)),
            "Invalid address length"
        );
        assert_eq!(
            message(ss58::decode(
                "MGP3U1wqNhFofseKXU7B6FcZuLbvQvJFyin1EvQM65mBcNsY8",
                None
            )),
            "46 is a reserved SS58 format"
        );
        assert_eq!(message(ss58::decode(alice, Some(2))), "Invalid SS58 format");
        match ss58::encode(&[0u8; 5], 42) {
            Err(Error::Ss58(m)) => assert_eq!(py_message(&m), "Invalid length for address"),
            other => panic!("expected an SS58 error, got {other:?}"),
        }
    }
}
