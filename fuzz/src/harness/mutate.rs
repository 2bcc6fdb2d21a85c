//! A small deterministic mutational fuzzer for the CI smoke run: xorshift64*
//! randomness from a fixed seed, byte-level mutations in the style of
//! libFuzzer's (flip, set, insert, erase, duplicate, splice, interesting
//! values such as SCALE compact-length prefixes), no coverage feedback.
//! Given the same seed it produces the same inputs on every machine, so a
//! failure it reports can be replayed.

/// xorshift64* pseudo-random numbers (not for cryptography).
#[derive(Clone, Debug)]
pub struct Rng(u64);

impl Rng {
    /// A generator from `seed` (zero is replaced: xorshift needs a non-zero state).
    pub fn new(seed: u64) -> Self {
        Rng(if seed == 0 {
            0x9e37_79b9_7f4a_7c15
        } else {
            seed
        })
    }

    /// The next 64 random bits.
    pub fn next_u64(&mut self) -> u64 {
        let mut x = self.0;
        x ^= x >> 12;
        x ^= x << 25;
        x ^= x >> 27;
        self.0 = x;
        x.wrapping_mul(0x2545_f491_4f6c_dd1d)
    }

    /// A number in `0..n` (`n` > 0).
    pub fn below(&mut self, n: usize) -> usize {
        (self.next_u64() % n as u64) as usize
    }

    /// A random byte.
    pub fn byte(&mut self) -> u8 {
        self.next_u64() as u8
    }
}

/// Byte strings that make decoders take unusual paths: SCALE compact
/// prefixes of every mode (including the big-integer mode claiming 67 bytes),
/// huge lengths in few bytes, Option/enum discriminants, the metadata magic.
const INTERESTING: &[&[u8]] = &[
    &[0x00],
    &[0x01],
    &[0xff],
    &[0xfc],
    &[0xfd, 0xff],
    &[0xfe, 0xff, 0xff, 0xff],
    &[0x03, 0x00, 0x00, 0x00, 0x40],
    &[0x03, 0xff, 0xff, 0xff, 0xff],
    &[0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff],
    &[0x13, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff],
    b"meta",
    b"<",
    b">",
    b"Vec<",
    b"Option<",
    b"[u8; 4294967295]",
    b"{\"type\":",
    b"[[",
];

/// Largest input the mutator produces.
pub const MAX_LEN: usize = 1 << 20;

/// Applies 1–4 random mutations to `data`, using `other` for splicing.
pub fn mutate(rng: &mut Rng, data: &mut Vec<u8>, other: &[u8]) {
    let rounds = 1 + rng.below(4);
    for _ in 0..rounds {
        mutate_once(rng, data, other);
    }
    data.truncate(MAX_LEN);
}

fn mutate_once(rng: &mut Rng, data: &mut Vec<u8>, other: &[u8]) {
    let len = data.len();
    match rng.below(9) {
        // Flip one bit.
        0 if len > 0 => {
            let i = rng.below(len);
            data[i] ^= 1 << rng.below(8);
        }
        // Set one byte.
        1 if len > 0 => {
            let i = rng.below(len);
            data[i] = rng.byte();
        }
        // Insert a random byte.
        2 => {
            let i = rng.below(len + 1);
            data.insert(i, rng.byte());
        }
        // Erase a range.
        3 if len > 0 => {
            let i = rng.below(len);
            let n = 1 + rng.below((len - i).min(64));
            data.drain(i..i + n);
        }
        // Duplicate a range in place.
        4 if len > 0 => {
            let i = rng.below(len);
            let n = 1 + rng.below((len - i).min(64));
            let piece: Vec<u8> = data[i..i + n].to_vec();
            let at = rng.below(len + 1);
            data.splice(at..at, piece);
        }
        // Overwrite with an interesting value.
        5 => {
            let v = INTERESTING[rng.below(INTERESTING.len())];
            let i = rng.below(len + 1);
            let end = (i + v.len()).min(len);
            data.splice(i..end, v.iter().copied());
        }
        // Splice in a piece of another input.
        6 if !other.is_empty() => {
            let i = rng.below(other.len());
            let n = 1 + rng.below((other.len() - i).min(256));
            let at = rng.below(len + 1);
            let end = (at + rng.below(n + 1)).min(len);
            data.splice(at..end, other[i..i + n].iter().copied());
        }
        // Truncate.
        7 if len > 0 => {
            let n = rng.below(len);
            data.truncate(n);
        }
        // Add or subtract a small amount from a byte (nudges lengths and indices).
        _ if len > 0 => {
            let i = rng.below(len);
            let delta = 1 + rng.below(4) as u8;
            data[i] = if rng.below(2) == 0 {
                data[i].wrapping_add(delta)
            } else {
                data[i].wrapping_sub(delta)
            };
        }
        _ => data.push(rng.byte()),
    }
}
