//! A decoded document's value as JSON text, read in place
//! ([`ValueRef::write_json`]: the same text
//! [`ferroscale_value::json::write_json`] gives for that value's
//! `to_value()`, one rendering for every JSON column), and the buffer the
//! columns' texts are written in.

use ferroscale_dynamic::ValueRef;

pub use ferroscale_value::json::to_json;

/// The JSON text of a document's value.
///
/// Written into a buffer kept per thread: the arguments of a large call
/// render to hundreds of kilobytes, and growing a fresh string to that size
/// reallocates and copies it over and over (and faults in new pages each
/// time). Small texts are copied out into a string of their length; a large
/// one takes the buffer itself (shrunk in place), and the thread starts a
/// new buffer of that text's length, so the text is not copied again.
pub fn ref_to_json(value: ValueRef<'_, '_>) -> String {
    thread_local! {
        static SCRATCH: std::cell::RefCell<String> = const { std::cell::RefCell::new(String::new()) };
    }
    SCRATCH.with(|scratch| match scratch.try_borrow_mut() {
        Ok(mut buf) => {
            buf.clear();
            value.write_json(&mut buf);
            if buf.len() < HAND_OVER {
                return String::from(buf.as_str());
            }
            // The next buffer is as large as this text (the next large value
            // is likely of a similar size), but not an outlier's.
            let keep = if buf.len() > SCRATCH_KEEP {
                0
            } else {
                buf.len()
            };
            let mut text = std::mem::replace(&mut *buf, String::with_capacity(keep));
            text.shrink_to_fit();
            text
        }
        // Not reached (rendering never calls back here); a fresh string is
        // always correct.
        Err(_) => {
            let mut out = String::new();
            value.write_json(&mut out);
            out
        }
    })
}

/// The largest scratch buffer [`ref_to_json`] keeps between calls.
const SCRATCH_KEEP: usize = 16 << 20;

/// From this length [`ref_to_json`] hands its buffer over instead of
/// copying the text out.
const HAND_OVER: usize = 32 << 10;
