//! JSON on stdout: compact (one line, what `Value` displays as) or indented.

use std::fmt::Write as _;

use ferroscale_value::Value;

/// `value` as JSON, indented by two spaces per level when `pretty`.
pub(crate) fn json(value: &Value, pretty: bool) -> String {
    if !pretty {
        return value.to_string();
    }
    let mut out = String::new();
    indented(value, 0, &mut out);
    out
}

fn indented(value: &Value, level: usize, out: &mut String) {
    let pad = |out: &mut String, level: usize| {
        out.push('\n');
        out.extend(std::iter::repeat_n(' ', level * 2));
    };
    match value {
        Value::List(items) | Value::Tuple(items) if !items.is_empty() => {
            out.push('[');
            for (i, item) in items.iter().enumerate() {
                if i > 0 {
                    out.push(',');
                }
                pad(out, level + 1);
                indented(item, level + 1, out);
            }
            pad(out, level);
            out.push(']');
        }
        Value::Dict(entries) if !entries.is_empty() => {
            out.push('{');
            for (i, (key, item)) in entries.iter().enumerate() {
                if i > 0 {
                    out.push(',');
                }
                pad(out, level + 1);
                ferroscale_value::json::write_str(key, out);
                out.push_str(": ");
                indented(item, level + 1, out);
            }
            pad(out, level);
            out.push('}');
        }
        // Scalars and empty containers: their one-line JSON.
        other => {
            let _ = write!(out, "{other}");
        }
    }
}
