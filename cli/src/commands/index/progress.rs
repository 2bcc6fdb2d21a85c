//! The progress line: blocks done, blocks/s, ETA and the current spec
//! version, rewritten in place on stderr. Shown only when stderr is a
//! terminal (a log file or a pipe gets the summary alone). Our own few
//! lines rather than a progress-bar crate: one line redrawn after each
//! partition needs nothing more than `\r` and "erase line".

use std::io::Write as _;
use std::time::{Duration, Instant};

use ferroscale_index::Progress;

/// Redraws at most this often (a partition of a few blocks finishes in
/// microseconds; the terminal need not see each one).
const MIN_INTERVAL: Duration = Duration::from_millis(100);

/// Draws [`Progress`] on stderr when enabled.
pub(super) struct Reporter {
    enabled: bool,
    /// Blocks in the requested range, when it is known.
    total: Option<u64>,
    last_draw: Option<Instant>,
    drawn: bool,
}

impl Reporter {
    /// A reporter drawing when `enabled`; `total` blocks give a percentage and an ETA.
    pub(super) fn new(enabled: bool, total: Option<u64>) -> Self {
        Reporter {
            enabled,
            total,
            last_draw: None,
            drawn: false,
        }
    }

    /// Redraws the line for `p` (throttled).
    pub(super) fn update(&mut self, p: &Progress<'_>) {
        if !self.enabled || self.last_draw.is_some_and(|t| t.elapsed() < MIN_INTERVAL) {
            return;
        }
        self.last_draw = Some(Instant::now());
        let line = render(p, self.total);
        // "\r" back to the line's start, ESC[2K erases what a longer line left.
        let _ = write!(std::io::stderr().lock(), "\r\x1b[2K{line}");
        self.drawn = true;
    }

    /// Clears the line, so the summary (or an error) starts on a clean one.
    pub(super) fn finish(&mut self) {
        if self.drawn {
            let _ = write!(std::io::stderr().lock(), "\r\x1b[2K");
            self.drawn = false;
        }
    }
}

/// The progress line's text.
fn render(p: &Progress<'_>, total: Option<u64>) -> String {
    let s = p.summary;
    let done = s.blocks + s.skipped_blocks;
    let rate = s.blocks_per_second();
    let mut line = match total {
        Some(total) if total > 0 => format!(
            "{done}/{total} blocks ({:.0}%)",
            done as f64 * 100.0 / total as f64
        ),
        _ => format!("{done} blocks"),
    };
    line += &format!(", {rate:.0} blocks/s");
    if let Some(total) = total {
        // Decoded blocks set the pace (skipped partitions cost nothing).
        if rate > 0.0 {
            let left = total.saturating_sub(done) as f64 / rate;
            line += &format!(", ETA {}", clock(left));
        }
    }
    if let Some(spec) = p.spec_version {
        line += &format!(", spec {spec}");
    }
    line += &format!(", at block {}, {} errors", p.last_block, s.errors);
    line
}

/// Seconds as `h:mm:ss` or `m:ss`.
fn clock(seconds: f64) -> String {
    let s = seconds.round() as u64;
    let (h, m, s) = (s / 3600, s / 60 % 60, s % 60);
    if h > 0 {
        format!("{h}:{m:02}:{s:02}")
    } else {
        format!("{m}:{s:02}")
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use ferroscale_index::Summary;

    #[test]
    fn the_line_shows_rate_eta_and_spec() {
        let summary = Summary {
            blocks: 500,
            skipped_blocks: 500,
            errors: 2,
            seconds: 2.0,
            ..Summary::default()
        };
        let p = Progress {
            summary: &summary,
            last_block: 1999,
            spec_version: Some(9180),
        };
        assert_eq!(
            render(&p, Some(4000)),
            "1000/4000 blocks (25%), 250 blocks/s, ETA 0:12, spec 9180, at block 1999, 2 errors"
        );
        assert_eq!(
            render(&p, None),
            "1000 blocks, 250 blocks/s, spec 9180, at block 1999, 2 errors"
        );
        assert_eq!(clock(3725.0), "1:02:05");
    }
}
