use super::*;
use blake2::digest::consts::{U16, U32};
use blake2::digest::{Update, VariableOutput};
use blake2::{Blake2b, Blake2b512, Blake2bVar, Digest};
use ferroscale_test_support::Xorshift;

/// A seeded xorshift64* byte stream, so every run checks the same inputs:
/// each byte is the top byte of the starred output.
struct Bytes(Xorshift);

impl Bytes {
    fn new(seed: u64) -> Self {
        Self(Xorshift::new(seed))
    }

    fn fill(&mut self, buf: &mut [u8]) {
        for byte in buf {
            *byte = (self.0.next_u64_star() >> 56) as u8;
        }
    }
}

/// The reference: the `blake2` crate with a runtime output length.
fn reference(data: &[u8], out_len: usize) -> Vec<u8> {
    let mut hasher = Blake2bVar::new(out_len).unwrap();
    hasher.update(data);
    let mut out = vec![0u8; out_len];
    hasher.finalize_variable(&mut out).unwrap();
    out
}

#[test]
fn rfc_7693_abc_vector() {
    // RFC 7693 Appendix A: BLAKE2b-512("abc").
    let expected = "0xba80a53f981c4d0d6a2797b69f12f6e94c212f14685ac4b74b12bb6fdbffa2d1\
                    7d87c5392aab792dc252d5de4533cc9518d38aa8dbf1925ab92386edd4009923";
    let mut out = [0u8; 64];
    assert!(digest_into(b"abc", &mut out));
    assert_eq!(crate::hex::encode_prefixed(&out), expected);
    assert_eq!(digest::<64>(b"abc"), Some(out));
    let mut many = [[0u8; 64]; 3];
    assert!(digest_many(&[b"abc", b"", b"abc"], &mut many));
    assert_eq!(many[0], out);
    assert_eq!(many[2], out);
    assert_ne!(many[1], out);
    #[cfg(target_arch = "x86_64")]
    {
        if let Some(four) = avx2::digest_x4::<64>([b"abc"; 4]) {
            assert_eq!(four, [out; 4], "avx2");
        }
        if let Some(eight) = avx512::digest_x8::<64>([b"abc"; 8]) {
            assert_eq!(eight, [out; 8], "avx512");
        }
    }
}

/// The vector paths answer exactly when the CPU has their feature, so the
/// differential tests below do exercise them on such a CPU.
#[cfg(target_arch = "x86_64")]
#[test]
fn vector_paths_run_where_the_cpu_has_them() {
    let has_avx2 = std::is_x86_feature_detected!("avx2");
    let has_avx512 = std::is_x86_feature_detected!("avx512f");
    assert_eq!(avx2::available(), has_avx2);
    assert_eq!(avx512::available(), has_avx512);
    assert_eq!(avx2::digest_x4::<32>([b""; 4]).is_some(), has_avx2);
    assert_eq!(avx512::digest_x8::<32>([b""; 8]).is_some(), has_avx512);
    eprintln!("vector paths tested here: avx2 {has_avx2}, avx512f {has_avx512}");
}

#[test]
fn every_length_and_output_size_matches_the_blake2_crate() {
    let mut random = Bytes::new(0x5eed_b1a2_b0c4_1234);
    let mut data = [0u8; MAX_LEN];
    for len in 0..=MAX_LEN {
        for sample in 0..6 {
            // Random bytes, plus all-0xff so no word past the end of a
            // short message can hide as zero.
            if sample == 0 {
                data.fill(0xff);
            } else {
                random.fill(&mut data);
            }
            let data = &data[..len];
            for out_len in 1..=MAX_OUTPUT_LEN {
                let mut out = vec![0u8; out_len];
                assert!(digest_into(data, &mut out));
                assert_eq!(
                    out,
                    reference(data, out_len),
                    "input {len} bytes, output {out_len}"
                );
            }
        }
    }
}

/// `L` messages per call, lengths spread so that every lane sees every
/// length 0–128 next to other lengths (the live-word count follows the
/// longest message of the group).
#[cfg(target_arch = "x86_64")]
fn check_lanes<const L: usize, const N: usize>(
    name: &str,
    digest: LanesDigest<L, N>,
    random: &mut Bytes,
) {
    let mut buffers = [[0u8; MAX_LEN]; L];
    for len in 0..=MAX_LEN {
        for buffer in &mut buffers {
            random.fill(buffer);
        }
        let lens: [usize; L] = std::array::from_fn(|k| (len + 37 * k) % (MAX_LEN + 1));
        let data: [&[u8]; L] = std::array::from_fn(|k| &buffers[k][..lens[k]]);
        let got = digest(data).unwrap_or_else(|| panic!("{name}: refused {lens:?}"));
        for k in 0..L {
            assert_eq!(
                got[k][..],
                reference(data[k], N)[..],
                "{name}: output {N}, lengths {lens:?}, lane {k}"
            );
        }
    }
}

/// [`digest_many`] on 0–21 messages (whole vector groups, remainders, and
/// none at all) of random lengths.
fn check_many<const N: usize>(random: &mut Bytes) {
    let mut buffers = [[0u8; MAX_LEN]; 21];
    let mut lens = [0u8; 21];
    for count in 0..=21 {
        random.fill(&mut lens);
        for buffer in &mut buffers {
            random.fill(buffer);
        }
        let data: Vec<&[u8]> = (0..count)
            .map(|k| &buffers[k][..usize::from(lens[k]) % (MAX_LEN + 1)])
            .collect();
        let mut out = vec![[0u8; N]; count];
        assert!(digest_many(&data, &mut out));
        for (k, message) in data.iter().enumerate() {
            assert_eq!(
                out[k][..],
                reference(message, N)[..],
                "output {N}, message {k} of {count}"
            );
        }
    }
}

fn check_output_len<const N: usize>(random: &mut Bytes) {
    check_many::<N>(random);
    #[cfg(target_arch = "x86_64")]
    {
        if avx2::available() {
            check_lanes::<4, N>("avx2", avx2::digest_x4::<N>, random);
        }
        if avx512::available() {
            check_lanes::<8, N>("avx512", avx512::digest_x8::<N>, random);
        }
    }
}

#[test]
fn vector_paths_match_the_blake2_crate_for_every_length_and_output_size() {
    let mut random = Bytes::new(0xfeed_f00d_1234_5678);
    macro_rules! each_output_len {
        ($($n:literal)*) => { $(check_output_len::<$n>(&mut random);)* };
    }
    each_output_len!(
        1 2 3 4 5 6 7 8 9 10 11 12 13 14 15 16 17 18 19 20 21 22 23 24 25 26 27 28 29 30 31 32
        33 34 35 36 37 38 39 40 41 42 43 44 45 46 47 48 49 50 51 52 53 54 55 56 57 58 59 60 61
        62 63 64
    );
}

#[test]
fn fixed_output_sizes_match_the_blake2_crate() {
    let mut random = Bytes::new(0x0dd_ba11);
    let mut data = [0u8; MAX_LEN];
    for len in 0..=MAX_LEN {
        random.fill(&mut data);
        let data = &data[..len];
        let out16: [u8; 16] = Blake2b::<U16>::digest(data).into();
        let out32: [u8; 32] = Blake2b::<U32>::digest(data).into();
        let out64: [u8; 64] = Blake2b512::digest(data).into();
        assert_eq!(digest::<16>(data), Some(out16), "{len}");
        assert_eq!(digest::<32>(data), Some(out32), "{len}");
        assert_eq!(digest::<64>(data), Some(out64), "{len}");
    }
}

#[test]
fn refuses_what_does_not_fit_one_block() {
    let mut out = [7u8; 65];
    let long = [0u8; MAX_LEN + 1];
    assert!(!digest_into(&long, &mut out[..32]));
    assert!(!digest_into(b"abc", &mut out[..0]));
    assert!(!digest_into(b"abc", &mut out[..65]));
    assert_eq!(out, [7u8; 65], "output untouched");
    assert_eq!(digest::<32>(&long), None);
    let mut many = [[7u8; 32]; 3];
    assert!(!digest_many(&[b"", b"abc", &long], &mut many));
    assert!(!digest_many(&[b"", b"abc"], &mut many));
    assert_eq!(many, [[7u8; 32]; 3], "outputs untouched");
    #[cfg(target_arch = "x86_64")]
    {
        assert_eq!(avx2::digest_x4::<32>([b"", b"abc", &long, b""]), None);
        assert_eq!(
            avx512::digest_x8::<32>([b"", b"", b"", b"", b"", b"", b"", &long]),
            None
        );
    }
}
