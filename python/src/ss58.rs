//! SS58 address functions over `ferroscale_core::ss58`.

use ferroscale_core::ss58;
use pyo3::exceptions::PyValueError;
use pyo3::prelude::*;

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

/// Encodes a public key / account index payload as an SS58 address.
#[pyfunction]
pub fn ss58_encode(payload: &[u8], format: u16) -> PyResult<String> {
    ss58::encode(payload, format).map_err(err)
}

/// Decodes an SS58 address into `(format, payload)`; with `valid_format` the
/// address must carry that format.
#[pyfunction]
#[pyo3(signature = (address, valid_format=None))]
pub fn ss58_decode(address: &str, valid_format: Option<u16>) -> PyResult<(u16, Vec<u8>)> {
    let d = ss58::decode(address, valid_format).map_err(err)?;
    Ok((d.format, d.payload))
}

/// Whether `address` is a valid SS58 address (of `format`, when given).
#[pyfunction]
#[pyo3(signature = (address, format=None))]
pub fn ss58_is_valid(address: &str, format: Option<u16>) -> bool {
    ss58::is_valid(address, format)
}

/// Encodes an account index as an SS58 address.
#[pyfunction]
pub fn ss58_encode_account_index(index: u64, format: u16) -> PyResult<String> {
    ss58::encode_account_index(index, format).map_err(err)
}

/// Decodes an SS58 account-index address.
#[pyfunction]
#[pyo3(signature = (address, valid_format=None))]
pub fn ss58_decode_account_index(address: &str, valid_format: Option<u16>) -> PyResult<u64> {
    ss58::decode_account_index(address, valid_format).map_err(err)
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
