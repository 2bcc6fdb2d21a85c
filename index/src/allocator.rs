//! Process-wide allocator settings for a long indexing run.
//!
//! Decoding a block range allocates and frees the same large buffers over
//! and over: each partition's JSON text (hundreds of kilobytes per large
//! extrinsic) and its Arrow columns (megabytes). glibc's malloc hands large
//! freed blocks back to the kernel (unmapped, or trimmed off the top of the
//! heap), so the next partition faults every page in again and the kernel
//! clears it: about a fifth of the profile of block 18,468,942 to Arrow.
//! [`keep_freed_memory`] tells malloc to keep them. It is for the program
//! that owns the process (the `ferroscale index` command calls it); a
//! library must not change its host's allocator behind its back, so nothing
//! here calls it by itself.

/// Keeps memory freed by a long run in the process for reuse, instead of
/// returning it to the kernel after each use: glibc's `malloc` serves up to
/// 32 MiB from its heaps rather than fresh mappings, trims a heap only when
/// more than 1 GiB is free at its top, and grows it 64 MiB at a time. The
/// process's resident size then stays at its peak (flat over a run, since a
/// run's peak is one partition's). Does nothing but on Linux with glibc.
/// Returns whether every setting took.
pub fn keep_freed_memory() -> bool {
    #[cfg(all(target_os = "linux", target_env = "gnu"))]
    {
        let settings = [
            (libc::M_MMAP_THRESHOLD, 32 << 20),
            (libc::M_TRIM_THRESHOLD, 1 << 30),
            (libc::M_TOP_PAD, 64 << 20),
        ];
        // SAFETY: `mallopt` only sets malloc's tunables; any value is
        // accepted or refused (returning 0), never undefined behaviour,
        // and malloc serialises it against concurrent allocation.
        settings
            .iter()
            .all(|&(param, value)| unsafe { libc::mallopt(param, value) } == 1)
    }
    #[cfg(not(all(target_os = "linux", target_env = "gnu")))]
    {
        false
    }
}

#[cfg(test)]
mod tests {
    #[test]
    #[cfg(all(target_os = "linux", target_env = "gnu"))]
    fn glibc_takes_every_setting() {
        assert!(super::keep_freed_memory());
        // Memory still works as before.
        let big = vec![7u8; 40 << 20];
        assert_eq!(
            big.iter().map(|&b| b as usize).sum::<usize>(),
            7 * (40 << 20)
        );
    }
}
