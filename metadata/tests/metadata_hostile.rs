//! Hostile length prefixes fail with an error naming the offset, and loading
//! them never allocates anything near what the prefix claims. A counting
//! global allocator (this test binary only) measures the peak.

use std::alloc::{GlobalAlloc, Layout, System};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Mutex;

use ferroscale_metadata::Error;
use ferroscale_metadata::Metadata;
use parity_scale_codec::{Compact, Decode, Encode};

/// Wraps the system allocator, tracking live bytes and their peak.
struct Counting;

static LIVE: AtomicUsize = AtomicUsize::new(0);
static PEAK: AtomicUsize = AtomicUsize::new(0);

unsafe impl GlobalAlloc for Counting {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        let ptr = System.alloc(layout);
        if !ptr.is_null() {
            let live = LIVE.fetch_add(layout.size(), Ordering::SeqCst) + layout.size();
            PEAK.fetch_max(live, Ordering::SeqCst);
        }
        ptr
    }

    unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
        System.dealloc(ptr, layout);
        LIVE.fetch_sub(layout.size(), Ordering::SeqCst);
    }

    unsafe fn realloc(&self, ptr: *mut u8, layout: Layout, new_size: usize) -> *mut u8 {
        let new = System.realloc(ptr, layout, new_size);
        if !new.is_null() {
            if new_size >= layout.size() {
                let grown = new_size - layout.size();
                let live = LIVE.fetch_add(grown, Ordering::SeqCst) + grown;
                PEAK.fetch_max(live, Ordering::SeqCst);
            } else {
                LIVE.fetch_sub(layout.size() - new_size, Ordering::SeqCst);
            }
        }
        new
    }
}

#[global_allocator]
static ALLOCATOR: Counting = Counting;

/// Tests in this binary run one at a time so the peak is theirs alone.
static SERIAL: Mutex<()> = Mutex::new(());

/// Runs `f` and returns its result and the peak of bytes allocated above
/// what was live when it started.
fn peak_during<T>(f: impl FnOnce() -> T) -> (T, usize) {
    let before = LIVE.load(Ordering::SeqCst);
    PEAK.store(before, Ordering::SeqCst);
    let out = f();
    (out, PEAK.load(Ordering::SeqCst) - before)
}

const MIB: usize = 1 << 20;

fn fixture(name: &str) -> Vec<u8> {
    ferroscale_fixtures::read(&format!("metadata/{name}"))
}

/// Replaces the compact integer at `at` with `value` compact-encoded.
fn with_compact_at(blob: &[u8], at: usize, value: u32) -> Vec<u8> {
    let old_len = Compact::<u32>::decode(&mut &blob[at..])
        .unwrap()
        .encode()
        .len();
    let mut out = blob[..at].to_vec();
    out.extend(Compact(value).encode());
    out.extend_from_slice(&blob[at + old_len..]);
    out
}

fn expect_metadata_error(result: Result<Metadata, Error>) -> (String, usize) {
    match result {
        Err(Error::Metadata { what, offset }) => (what, offset),
        other => panic!("expected Error::Metadata, got {other:?}"),
    }
}

#[test]
fn a_type_count_of_2_pow_30_fails_without_allocating_it() {
    let _serial = SERIAL.lock().unwrap_or_else(|e| e.into_inner());
    let blob = fixture("polkadot-v14-spec9180.scale");
    let (ok, normal_peak) = peak_during(|| Metadata::from_bytes(&blob).map(|m| m.type_count()));
    assert_eq!(ok.unwrap(), 690);
    // Byte 5 (after magic and version) is the registry's type count.
    let hostile = with_compact_at(&blob, 5, 1 << 30);
    let (result, peak) = peak_during(|| Metadata::from_bytes(&hostile));
    let (what, offset) = expect_metadata_error(result);
    eprintln!("type count 2^30: peak {peak} bytes (normal load {normal_peak}): {what} at {offset}");
    assert!(what.contains("types"), "{what}");
    assert!(offset > 5 && offset <= hostile.len(), "{offset}");
    // 2^30 types would be ~100 GiB; the real load itself stays well under this.
    assert!(peak < 64 * MIB, "peak {peak}");
    assert!(
        peak <= normal_peak + 4 * MIB,
        "peak {peak} vs normal {normal_peak}"
    );
}

#[test]
fn a_string_length_of_u32_max_fails_at_its_offset() {
    let _serial = SERIAL.lock().unwrap_or_else(|e| e.into_inner());
    // Legacy: magic, version, module count (1 byte), then the first module's
    // name: compact length at byte 6.
    let blob = fixture("node-template-v12.scale");
    assert_eq!(&blob[7..13], b"System");
    let hostile = with_compact_at(&blob, 6, u32::MAX);
    let (result, peak) = peak_during(|| Metadata::from_bytes(&hostile));
    let (what, offset) = expect_metadata_error(result);
    eprintln!("string length u32::MAX: peak {peak}: {what} at {offset}");
    assert!(what.to_lowercase().contains("not enough data"), "{what}");
    assert_eq!(offset, 6 + 5, "the error is right after the 5-byte length");
    assert!(peak < MIB, "peak {peak}");
}

#[test]
fn huge_lengths_planted_all_over_a_v14_blob_never_over_allocate() {
    let _serial = SERIAL.lock().unwrap_or_else(|e| e.into_inner());
    let blob = fixture("polkadot-v14-spec9180.scale");
    let mut worst = 0;
    // Every 997th position where a compact integer decodes: make it huge.
    for at in (5..blob.len()).step_by(997) {
        if Compact::<u32>::decode(&mut &blob[at..]).is_err() {
            continue;
        }
        for value in [u32::MAX, 1 << 30, (1 << 24) + 7] {
            let hostile = with_compact_at(&blob, at, value);
            let (result, peak) = peak_during(|| Metadata::from_bytes(&hostile));
            if let Err(e) = result {
                assert!(!e.to_string().is_empty());
            }
            worst = worst.max(peak);
        }
    }
    eprintln!("worst peak over planted lengths: {worst} bytes");
    assert!(worst < 64 * MIB, "worst peak {worst}");
}

#[test]
fn a_huge_custom_value_map_count_fails_fast() {
    let _serial = SERIAL.lock().unwrap_or_else(|e| e.into_inner());
    // Custom values are the last item of V15: find the map's count by
    // re-encoding the metadata without it.
    let blob = fixture("custom-values-v15.scale");
    let metadata = frame_metadata::RuntimeMetadataPrefixed::decode(&mut &blob[..]).unwrap();
    let frame_metadata::RuntimeMetadata::V15(v15) = metadata.1 else {
        panic!("not V15")
    };
    let custom_len = v15.custom.encode().len();
    let at = blob.len() - custom_len;
    let hostile = with_compact_at(&blob, at, u32::MAX);
    let (result, peak) = peak_during(|| Metadata::from_bytes(&hostile));
    let (what, offset) = expect_metadata_error(result);
    eprintln!("custom map count u32::MAX: peak {peak}: {what} at {offset}");
    assert!(offset >= at, "{offset} < {at}");
    assert!(peak < MIB, "peak {peak}");
}
