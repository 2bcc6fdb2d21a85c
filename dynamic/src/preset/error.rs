//! Errors of preset loading: which file, where in the JSON, and what is wrong.

use std::fmt;

/// A preset that could not be loaded.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PresetError {
    /// The file (or preset name) being loaded, when known.
    pub source: Option<String>,
    /// Where in the JSON: `types.OpenTip.type_mapping[2]`, or empty for the whole document.
    pub path: String,
    /// What is wrong.
    pub message: String,
}

impl PresetError {
    pub(crate) fn at(path: impl Into<String>, message: impl Into<String>) -> Self {
        PresetError {
            source: None,
            path: path.into(),
            message: message.into(),
        }
    }

    /// The same error, naming the file or preset it came from.
    pub fn in_source(mut self, source: impl Into<String>) -> Self {
        self.source = Some(source.into());
        self
    }
}

impl fmt::Display for PresetError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("invalid type-registry preset")?;
        if let Some(source) = &self.source {
            write!(f, " {source}")?;
        }
        if !self.path.is_empty() {
            write!(f, " at {}", self.path)?;
        }
        write!(f, ": {}", self.message)
    }
}

impl std::error::Error for PresetError {}
