//! The addresses this thread decoded last, with what they decoded to.
//!
//! A client encodes the same few addresses over and over (the destination
//! of every transfer, the signer of every extrinsic, the accounts of its
//! storage queries), and decoding one is a base58 division and a BLAKE2b-512
//! checksum: about 0.6 µs, most of composing a transfer. Decoding is a pure
//! function of the text, so the result of a text decoded before is reused
//! as it is; only successful decodes are kept, and an address whose format
//! is not the expected one takes the full path (which names the error).

use std::cell::RefCell;

use super::layout::MAX_ADDRESS_LEN;

/// Slots of the table (a power of two): direct-mapped by a hash of the text.
const SLOTS: usize = 64;
/// The longest payload an address holds (a compressed ECDSA key).
const MAX_PAYLOAD: usize = 33;

/// What an address decoded to.
pub(super) struct Known {
    /// Its network format.
    pub(super) format: u16,
    payload: [u8; MAX_PAYLOAD],
    payload_len: u8,
}

impl Known {
    /// Its payload.
    pub(super) fn payload(&self) -> &[u8] {
        &self.payload[..usize::from(self.payload_len)]
    }
}

/// One decoded address.
#[derive(Clone, Copy)]
struct Slot {
    text: [u8; MAX_ADDRESS_LEN],
    text_len: u8,
    format: u16,
    payload: [u8; MAX_PAYLOAD],
    payload_len: u8,
}

const EMPTY: Slot = Slot {
    text: [0; MAX_ADDRESS_LEN],
    text_len: 0,
    format: 0,
    payload: [0; MAX_PAYLOAD],
    payload_len: 0,
};

type Table = [Slot; SLOTS];

thread_local! {
    // Boxed, made on first use: the thread-local itself stays a pointer.
    // A library loaded with dlopen (the Python extension) gets its
    // thread-locals from a small static TLS reserve; a 6 KB table there
    // makes the load fail ("cannot allocate memory in static TLS block").
    static RECENT: RefCell<Option<Box<Table>>> = const { RefCell::new(None) };
}

/// The slot of `text`: FNV-1a of its bytes.
fn slot_of(text: &[u8]) -> usize {
    let mut h: u32 = 0x811c_9dc5;
    for &b in text {
        h = (h ^ u32::from(b)).wrapping_mul(0x0100_0193);
    }
    (h as usize) & (SLOTS - 1)
}

/// What `text` decoded to when this thread decoded it before.
pub(super) fn lookup(text: &str) -> Option<Known> {
    let text = text.as_bytes();
    if text.is_empty() || text.len() > MAX_ADDRESS_LEN {
        return None;
    }
    RECENT
        .try_with(|recent| {
            let recent = recent.try_borrow().ok()?;
            let slot = &recent.as_ref()?[slot_of(text)];
            let same = usize::from(slot.text_len) == text.len() && &slot.text[..text.len()] == text;
            same.then_some(Known {
                format: slot.format,
                payload: slot.payload,
                payload_len: slot.payload_len,
            })
        })
        .ok()
        .flatten()
}

/// Keeps what `text` decoded to.
pub(super) fn remember(text: &str, format: u16, payload: &[u8]) {
    let text = text.as_bytes();
    if text.is_empty() || text.len() > MAX_ADDRESS_LEN || payload.len() > MAX_PAYLOAD {
        return;
    }
    let _ = RECENT.try_with(|recent| {
        if let Ok(mut recent) = recent.try_borrow_mut() {
            let table = recent.get_or_insert_with(|| Box::new([EMPTY; SLOTS]));
            let slot = &mut table[slot_of(text)];
            slot.text[..text.len()].copy_from_slice(text);
            slot.text_len = text.len() as u8;
            slot.format = format;
            slot.payload[..payload.len()].copy_from_slice(payload);
            slot.payload_len = payload.len() as u8;
        }
    });
}

#[cfg(test)]
mod tests {
    use crate::ss58;

    #[test]
    fn a_text_decoded_again_gives_what_it_gave() {
        // more addresses than slots, so that slots are shared and replaced
        let keys: Vec<[u8; 32]> = (0..200u32)
            .map(|i| {
                let mut k = [0u8; 32];
                k[..4].copy_from_slice(&i.to_le_bytes());
                k[31] = 0xa5;
                k
            })
            .collect();
        let texts: Vec<String> = keys.iter().map(|k| ss58::encode(k, 42).unwrap()).collect();
        for _ in 0..3 {
            for (text, key) in texts.iter().zip(&keys) {
                let decoded = ss58::decode(text, None).unwrap();
                assert_eq!((decoded.format, &decoded.payload[..]), (42, &key[..]));
            }
        }
    }

    #[test]
    fn a_remembered_address_of_another_format_is_still_refused() {
        let text = ss58::encode(&[7u8; 32], 42).unwrap();
        assert!(ss58::decode(&text, Some(42)).is_ok());
        assert!(ss58::decode(&text, Some(42)).is_ok());
        assert!(ss58::decode(&text, Some(0)).is_err());
        // a text that fails is not remembered: it fails every time
        let mut broken = text.clone().into_bytes();
        broken[10] = if broken[10] == b'a' { b'b' } else { b'a' };
        let broken = String::from_utf8(broken).unwrap();
        assert!(ss58::decode(&broken, None).is_err());
        assert!(ss58::decode(&broken, None).is_err());
    }
}
