//! Where decoded values go. The decoder calls a [`Sink`] bottom-up; the Rust
//! [`Value`] is one implementation ([`ValueSink`]), the Python module builds
//! Python objects directly with another, without an intermediate tree.
//!
//! Field and variant names arrive as `&'n Name`, borrowed from the type
//! graph (or from statics) for the whole decode: a sink can intern them by
//! pointer, or keep the borrow ([`crate::document`]).

use ferroscale_value::{Name, Value};

/// Receives decoded values and builds the caller's representation.
pub trait Sink<'n> {
    /// One built value.
    type Out;
    /// A list or tuple under construction.
    type Seq;
    /// A dict under construction.
    type Dict;

    /// Python `None`.
    fn null(&mut self) -> Self::Out;
    /// A boolean.
    fn bool(&mut self, v: bool) -> Self::Out;
    /// An unsigned integer.
    fn uint(&mut self, v: u128) -> Self::Out;
    /// A signed integer.
    fn int(&mut self, v: i128) -> Self::Out;
    /// A 256-bit unsigned integer, little-endian.
    fn u256(&mut self, le: &[u8; 32]) -> Self::Out;
    /// A 256-bit signed integer, little-endian two's complement.
    fn i256(&mut self, le: &[u8; 32]) -> Self::Out;
    /// Text produced by the decoder (decoded strings, hex, SS58, `"0b…"`).
    fn text(&mut self, s: &str) -> Self::Out;
    /// A name from the type graph used as a value (unit enum variants, flags).
    fn name(&mut self, n: &'n Name) -> Self::Out;
    /// `"0x…"` hex of `bytes`.
    fn hex(&mut self, bytes: &[u8]) -> Self::Out {
        ferroscale_core::hex::with_prefixed(bytes, |text| self.text(text))
    }
    /// A bit sequence of `bits` bits stored in `le_bytes`, as py-scale-codec's
    /// `"0b…"` text ([`ferroscale_value::render::py_bit_string`]).
    fn bits(&mut self, le_bytes: &[u8], bits: usize) -> Self::Out {
        self.text(&ferroscale_value::render::py_bit_string(le_bytes, bits))
    }
    /// Hex of `bytes` without the `"0x"` (event indexes, legacy addresses).
    fn hex_digits(&mut self, bytes: &[u8]) -> Self::Out {
        ferroscale_core::hex::with_prefixed(bytes, |text| self.text(&text[2..]))
    }
    /// A 32-byte account id as SS58 text in `format` (one the spec allows).
    /// Rendered at once by default; a sink may set accounts aside and
    /// render them in groups (`account::PendingAccounts`).
    fn ss58_account(&mut self, key: &[u8; 32], format: u16) -> Self::Out {
        match crate::account::ss58_account(key, format) {
            Some(address) => self.text(&address),
            None => self.hex(key),
        }
    }
    /// py-scale-codec's byte-string rendering: UTF-8 text when valid, else `"0x…"`.
    fn bytes(&mut self, bytes: &[u8]) -> Self::Out {
        match std::str::from_utf8(bytes) {
            Ok(s) => self.text(s),
            Err(_) => self.hex(bytes),
        }
    }

    /// Starts a list or tuple of `len` items.
    fn seq_begin(&mut self, len: usize) -> Self::Seq;
    /// Appends an item.
    fn seq_push(&mut self, seq: &mut Self::Seq, item: Self::Out);
    /// Finishes as a Python list.
    fn list_end(&mut self, seq: Self::Seq) -> Self::Out;
    /// Finishes as a Python tuple.
    fn tuple_end(&mut self, seq: Self::Seq) -> Self::Out;

    /// Starts a dict of `len` entries.
    fn dict_begin(&mut self, len: usize) -> Self::Dict;
    /// Adds an entry (keys arrive in order and are not repeated).
    fn dict_insert(&mut self, dict: &mut Self::Dict, key: &'n Name, value: Self::Out);
    /// Adds an entry whose key is not a graph name (a key of a [`Value`]
    /// built elsewhere, see [`Sink::value`]).
    fn dict_insert_text(&mut self, dict: &mut Self::Dict, key: &str, value: Self::Out);
    /// Finishes the dict.
    fn dict_end(&mut self, dict: Self::Dict) -> Self::Out;

    /// A copy of an already built value (event attributes appear twice in an event record).
    fn dup(&mut self, v: &Self::Out) -> Self::Out;

    /// A call's dict was built (`call_module`, `call_function`, …). Sinks
    /// that count calls take note; the rest ignore it.
    fn call_built(&mut self) {}

    /// `{key: value}`: an enum variant with data.
    fn single_entry(&mut self, key: &'n Name, value: Self::Out) -> Self::Out {
        let mut d = self.dict_begin(1);
        self.dict_insert(&mut d, key, value);
        self.dict_end(d)
    }

    /// A whole value built elsewhere (by a [`crate::hook::DecodeHook`], e.g.
    /// a generated type's value). By default it is rebuilt with this sink's own
    /// methods, so every sink takes one; [`ValueSink`] just moves it.
    fn value(&mut self, v: Value) -> Self::Out {
        match v {
            Value::Null => self.null(),
            Value::Bool(b) => self.bool(b),
            Value::UInt(n) => self.uint(n),
            Value::Int(n) => self.int(n),
            Value::U256(le) => self.u256(&le),
            Value::I256(le) => self.i256(&le),
            Value::Str(s) => self.text(&s),
            Value::List(items) => {
                let seq = self.value_items(items);
                self.list_end(seq)
            }
            Value::Tuple(items) => {
                let seq = self.value_items(items);
                self.tuple_end(seq)
            }
            Value::Dict(entries) => {
                let mut d = self.dict_begin(entries.len());
                for (k, item) in entries {
                    let item = self.value(item);
                    self.dict_insert_text(&mut d, &k, item);
                }
                self.dict_end(d)
            }
        }
    }

    /// The items of a list or tuple [`Sink::value`] rebuilds.
    fn value_items(&mut self, items: Vec<Value>) -> Self::Seq {
        let mut seq = self.seq_begin(items.len());
        for item in items {
            let item = self.value(item);
            self.seq_push(&mut seq, item);
        }
        seq
    }
}

/// Builds [`Value`] trees.
#[derive(Clone, Copy, Debug, Default)]
pub struct ValueSink;

impl<'n> Sink<'n> for ValueSink {
    type Out = Value;
    type Seq = Vec<Value>;
    type Dict = Vec<(Name, Value)>;

    fn null(&mut self) -> Value {
        Value::Null
    }
    fn bool(&mut self, v: bool) -> Value {
        Value::Bool(v)
    }
    fn uint(&mut self, v: u128) -> Value {
        Value::UInt(v)
    }
    fn int(&mut self, v: i128) -> Value {
        Value::Int(v)
    }
    fn u256(&mut self, le: &[u8; 32]) -> Value {
        // Fits in u128 → the ordinary integer form, so equal numbers compare equal.
        if le[16..].iter().all(|&b| b == 0) {
            let mut b = [0u8; 16];
            b.copy_from_slice(&le[..16]);
            Value::UInt(u128::from_le_bytes(b))
        } else {
            Value::U256(Box::new(*le))
        }
    }
    fn i256(&mut self, le: &[u8; 32]) -> Value {
        let sign_ext = if le[15] & 0x80 == 0 { 0 } else { 0xff };
        if le[16..].iter().all(|&b| b == sign_ext) {
            let mut b = [0u8; 16];
            b.copy_from_slice(&le[..16]);
            Value::Int(i128::from_le_bytes(b))
        } else {
            Value::I256(Box::new(*le))
        }
    }
    fn text(&mut self, s: &str) -> Value {
        Value::Str(s.into())
    }
    fn name(&mut self, n: &Name) -> Value {
        Value::Str(n.clone())
    }
    fn seq_begin(&mut self, len: usize) -> Vec<Value> {
        Vec::with_capacity(len)
    }
    fn seq_push(&mut self, seq: &mut Vec<Value>, item: Value) {
        seq.push(item);
    }
    fn list_end(&mut self, seq: Vec<Value>) -> Value {
        Value::List(seq)
    }
    fn tuple_end(&mut self, seq: Vec<Value>) -> Value {
        Value::Tuple(seq)
    }
    fn dict_begin(&mut self, len: usize) -> Vec<(Name, Value)> {
        Vec::with_capacity(len)
    }
    fn dict_insert(&mut self, dict: &mut Vec<(Name, Value)>, key: &'n Name, value: Value) {
        dict.push((key.clone(), value));
    }
    fn dict_insert_text(&mut self, dict: &mut Vec<(Name, Value)>, key: &str, value: Value) {
        dict.push((key.into(), value));
    }
    fn dict_end(&mut self, dict: Vec<(Name, Value)>) -> Value {
        Value::Dict(dict)
    }
    fn dup(&mut self, v: &Value) -> Value {
        v.clone()
    }
    fn value(&mut self, v: Value) -> Value {
        v
    }
}
