//! Era arithmetic: which blocks a mortal transaction is valid in.

/// The first block of the mortal era `(period, phase)` that contains
/// `current` (0 for a zero period, which no valid Era has).
pub fn birth(period: u64, phase: u64, current: u64) -> u64 {
    if period == 0 {
        return 0;
    }
    (current.max(phase) - phase) / period * period + phase
}

/// The block after the last one of the mortal era `(period, phase)` that
/// contains `current`.
pub fn death(period: u64, phase: u64, current: u64) -> u64 {
    birth(period, phase, current).saturating_add(period)
}

/// The death of an immortal era: never.
pub const IMMORTAL_DEATH: u64 = u64::MAX;

#[cfg(test)]
mod tests {
    #[test]
    fn birth_and_death() {
        assert_eq!(super::birth(64, 10, 1000), 970);
        assert_eq!(super::death(64, 10, 1000), 1034);
        assert_eq!(super::birth(64, 10, 3), 10);
        assert_eq!(super::birth(0, 0, 5), 0);
    }
}
