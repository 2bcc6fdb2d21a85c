//! Errors of type-string parsing, pointing at the offending byte.

use std::fmt;

/// A type string that could not be parsed: what was expected, and where.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ParseError {
    /// The type string as the caller gave it.
    pub input: String,
    /// Byte offset into `input` where parsing failed.
    pub offset: usize,
    /// What went wrong.
    pub message: String,
}

impl ParseError {
    /// The input with a caret under the failing byte, on two lines.
    /// Long inputs are cut to a window around the offset.
    pub fn excerpt(&self) -> String {
        const WINDOW: usize = 40;
        let offset = self.offset.min(self.input.len());
        let mut start = offset.saturating_sub(WINDOW);
        while !self.input.is_char_boundary(start) {
            start -= 1;
        }
        let mut end = (offset + WINDOW).min(self.input.len());
        while !self.input.is_char_boundary(end) {
            end += 1;
        }
        // Newlines and tabs would break the caret alignment.
        let shown: String = self.input[start..end]
            .chars()
            .map(|c| if c.is_whitespace() { ' ' } else { c })
            .collect();
        let lead = if start > 0 { "…" } else { "" };
        let trail = if end < self.input.len() { "…" } else { "" };
        let caret_col = lead.chars().count() + self.input[start..offset].chars().count();
        format!("{lead}{shown}{trail}\n{}^", " ".repeat(caret_col))
    }
}

impl fmt::Display for ParseError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "invalid type string at offset {}: {}\n{}",
            self.offset,
            self.message,
            self.excerpt()
        )
    }
}

impl std::error::Error for ParseError {}
