//! Wide integers (u128, i128, u256, i256) in a `Decimal128(38, 0)` column
//! and its `__text` companion, and back.
//!
//! Arrow's `Decimal128` holds 38 decimal digits, as do DuckDB's, Polars'
//! and Spark's decimals: every balance a chain has held fits, and sums of
//! them stay exact. u128::MAX has 39 digits, i128::MIN too, and a u256
//! up to 78: such a value is NULL in the decimal and its digits are in the
//! text column. No value is rounded.

use ferroscale_value::Value;

/// A wide integer as its two columns hold it.
#[derive(Clone, Debug, PartialEq)]
pub enum WideCell {
    /// Fits `Decimal128(38, 0)`.
    Decimal(i128),
    /// Does not: its exact decimal digits.
    Digits(String),
}

/// 10^38: the first magnitude `Decimal128(38, 0)` cannot hold.
const LIMIT: u128 = 100_000_000_000_000_000_000_000_000_000_000_000_000;

/// `value` (an integer of the dynamic layer) as its wide columns hold it;
/// `None` when it is not an integer.
pub fn cell(value: &Value) -> Option<WideCell> {
    Some(match value {
        Value::UInt(n) if *n < LIMIT => WideCell::Decimal(*n as i128),
        Value::UInt(n) => WideCell::Digits(n.to_string()),
        Value::Int(n) if n.unsigned_abs() < LIMIT => WideCell::Decimal(*n),
        Value::Int(n) => WideCell::Digits(n.to_string()),
        Value::U256(le) => WideCell::Digits(digits(le)),
        Value::I256(le) => {
            if le[31] & 0x80 == 0 {
                WideCell::Digits(digits(le))
            } else {
                WideCell::Digits(format!("-{}", digits(&negate(le))))
            }
        }
        _ => return None,
    })
}

/// The dynamic layer's value of a wide cell of a `signed` or unsigned
/// type (the inverse of [`cell`]): `Int`/`UInt` where the value fits 128
/// bits, else `I256`/`U256`, as the decoder gives them.
pub fn value(cell: &WideCell, signed: bool) -> Option<Value> {
    match (cell, signed) {
        (WideCell::Decimal(n), true) => Some(Value::Int(*n)),
        (WideCell::Decimal(n), false) => Some(Value::UInt(u128::try_from(*n).ok()?)),
        (WideCell::Digits(s), true) => {
            if let Ok(n) = s.parse::<i128>() {
                return Some(Value::Int(n));
            }
            let le = match s.strip_prefix('-') {
                Some(m) => negate(&parse(m)?),
                None => parse(s)?,
            };
            Some(Value::I256(Box::new(le)))
        }
        (WideCell::Digits(s), false) => match s.parse::<u128>() {
            Ok(n) => Some(Value::UInt(n)),
            Err(_) => Some(Value::U256(Box::new(parse(s)?))),
        },
    }
}

/// Decimal digits of a 256-bit little-endian unsigned number.
fn digits(le: &[u8; 32]) -> String {
    let mut n = *le;
    let mut out = Vec::new();
    loop {
        // n = n / 10, the remainder the next digit (most significant byte first).
        let mut rem = 0u32;
        for b in n.iter_mut().rev() {
            let cur = (rem << 8) | *b as u32;
            *b = (cur / 10) as u8;
            rem = cur % 10;
        }
        out.push(b'0' + rem as u8);
        if n.iter().all(|&b| b == 0) {
            break;
        }
    }
    out.reverse();
    String::from_utf8(out).unwrap_or_default()
}

/// A 256-bit little-endian number from decimal digits (`None` past 2^256).
fn parse(s: &str) -> Option<[u8; 32]> {
    if s.is_empty() {
        return None;
    }
    let mut n = [0u8; 32];
    for c in s.bytes() {
        let d = c.checked_sub(b'0').filter(|d| *d < 10)?;
        let mut carry = d as u32;
        for b in n.iter_mut() {
            let cur = *b as u32 * 10 + carry;
            *b = cur as u8;
            carry = cur >> 8;
        }
        if carry != 0 {
            return None;
        }
    }
    Some(n)
}

/// Two's complement negation of a 256-bit little-endian number.
fn negate(le: &[u8; 32]) -> [u8; 32] {
    let mut out = [0u8; 32];
    let mut carry = 1u16;
    for (o, b) in out.iter_mut().zip(le) {
        let cur = (!*b) as u16 + carry;
        *o = cur as u8;
        carry = cur >> 8;
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn edges_round_trip_exactly() {
        let mut max256 = [0xffu8; 32];
        let mut min256 = [0u8; 32];
        min256[31] = 0x80;
        let values = [
            Value::UInt(0),
            Value::UInt(LIMIT - 1),
            Value::UInt(LIMIT),
            Value::UInt(u128::MAX),
            Value::Int(i128::MIN),
            Value::Int(-(LIMIT as i128) + 1),
            Value::Int(i128::MAX),
            Value::U256(Box::new(max256)),
            Value::I256(Box::new(min256)),
        ];
        for v in values {
            let c = cell(&v).unwrap();
            let signed = matches!(v, Value::Int(_) | Value::I256(_));
            assert_eq!(value(&c, signed).unwrap(), v, "{c:?}");
        }
        assert_eq!(
            cell(&Value::UInt(LIMIT - 1)),
            Some(WideCell::Decimal(LIMIT as i128 - 1))
        );
        assert_eq!(
            cell(&Value::UInt(u128::MAX)),
            Some(WideCell::Digits(u128::MAX.to_string()))
        );
        max256[0] = 0xfe;
        assert!(digits(&max256).ends_with('4'));
    }
}
