//! The network-format ("address type") bytes at the start of an SS58 address.
//!
//! Formats 0–63 take one byte, the value itself. Formats 64–16383 take two
//! bytes: the first is `0b01` followed by bits 2–7 of the format, the second
//! holds bits 0–1 of the format in its top two bits and bits 8–13 in its low
//! six. First bytes 128–255 are reserved by the spec for future forms.

use crate::error::Error;

/// The highest network format the two-byte form can carry (14 bits).
pub const MAX_FORMAT: u16 = 0x3fff;

/// Formats the SS58 spec reserves; addresses with them are neither made nor accepted
/// (py-scale-codec 1.2.12 rejects them both ways too).
pub const RESERVED_FORMATS: [u16; 2] = [46, 47];

/// Fails unless `format` can be used in an address (0–16383, not reserved).
pub(super) fn check_format(format: u16) -> Result<(), Error> {
    if format > MAX_FORMAT {
        return Err(Error::Ss58(format!(
            "network format {format} is out of range (0..={MAX_FORMAT})"
        )));
    }
    if RESERVED_FORMATS.contains(&format) {
        return Err(Error::Ss58(format!(
            "network format {format} is reserved by the SS58 spec"
        )));
    }
    Ok(())
}

/// The prefix bytes of `format` (already checked), written into `out`; returns
/// how many bytes were written (1 or 2).
pub(super) fn write(format: u16, out: &mut [u8; 2]) -> usize {
    if format < 64 {
        out[0] = format as u8;
        1
    } else {
        out[0] = 0b0100_0000 | ((format & 0b1111_1100) >> 2) as u8;
        out[1] = ((format >> 8) as u8) | (((format & 0b11) as u8) << 6);
        2
    }
}

/// Reads the network format from the start of a decoded address: the format
/// and how many bytes it took. `bytes` is the whole decoded address.
///
/// A two-byte form whose value is below 64 (a non-canonical spelling of a
/// one-byte format) is accepted, as py-scale-codec and Substrate accept it;
/// re-encoding gives the canonical one-byte form.
pub(super) fn read(bytes: &[u8]) -> Result<(u16, usize), Error> {
    let first = *bytes
        .first()
        .ok_or_else(|| Error::Ss58("empty address".into()))?;
    match first {
        0..=63 => Ok((u16::from(first), 1)),
        64..=127 => {
            let second = *bytes.get(1).ok_or_else(|| {
                Error::Ss58("address ends inside its two-byte network format".into())
            })?;
            let low = u16::from(first & 0b0011_1111) << 2 | u16::from(second >> 6);
            let high = u16::from(second & 0b0011_1111) << 8;
            Ok((low | high, 2))
        }
        _ => Err(Error::Ss58(format!(
            "first byte {first:#04x} is in the range 128..=255 the SS58 spec reserves \
             for future address forms"
        ))),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_format_reads_back_as_written() {
        for format in 0..=MAX_FORMAT {
            let mut buf = [0u8; 2];
            let n = write(format, &mut buf);
            assert_eq!(n, if format < 64 { 1 } else { 2 });
            assert_eq!(read(&buf[..n]).unwrap(), (format, n), "format {format}");
        }
    }

    #[test]
    fn two_byte_layout_matches_the_spec_bits() {
        // 16383 = 0b11_1111_1111_1111: first byte 0b01_111111, second 0b11_111111.
        let mut buf = [0u8; 2];
        assert_eq!(write(MAX_FORMAT, &mut buf), 2);
        assert_eq!(buf, [0x7f, 0xff]);
        // 64 = 0b0100_0000: bits 2..7 = 0b010000, bits 0..1 = 0, bits 8.. = 0.
        write(64, &mut buf);
        assert_eq!(buf, [0b0101_0000, 0]);
        // 0x1235: bits 2..7 of 0x35 -> 0b001101, bits 0..1 -> 0b01, bits 8..13 -> 0x12.
        write(0x1235, &mut buf);
        assert_eq!(buf, [0b0100_1101, 0b0101_0010]);
    }

    #[test]
    fn rejects_reserved_range_and_bad_formats() {
        assert!(read(&[0x80]).is_err());
        assert!(read(&[0xff, 0]).is_err());
        assert!(read(&[0x40]).is_err());
        assert!(read(&[]).is_err());
        assert!(check_format(46).is_err());
        assert!(check_format(47).is_err());
        assert!(check_format(16384).is_err());
        assert!(check_format(45).is_ok());
    }
}
