//! `ss58 encode HEX` and `ss58 decode ADDRESS`.

use ferroscale_core::ss58;
use ferroscale_value::Value;

use crate::cli::Ss58Action;
use crate::{input, output};

/// Runs an SS58 conversion.
pub(crate) fn run(action: Ss58Action, pretty: bool) -> Result<String, String> {
    match action {
        Ss58Action::Encode { hex, format } => {
            let payload = input::bytes(&hex)?;
            ss58::encode(&payload, format).map_err(|e| e.to_string())
        }
        Ss58Action::Decode { address, format } => {
            let decoded = ss58::decode(address.trim(), format).map_err(|e| e.to_string())?;
            let value = Value::Dict(vec![
                ("format".into(), Value::UInt(decoded.format.into())),
                (
                    "payload".into(),
                    Value::str(ferroscale_core::hex::encode_prefixed(&decoded.payload).as_str()),
                ),
            ]);
            Ok(output::json(&value, pretty))
        }
    }
}
