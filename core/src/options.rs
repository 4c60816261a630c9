//! Limits and modes shared by every stream.

/// How a stream reads its input, and the limits it enforces.
///
/// ```
/// let options = settle::Options::default().strict(true).max_depth(16);
/// assert_eq!(options.max_depth, 16);
/// ```
#[derive(Debug, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub struct Options {
    /// RFC 8259 only: one value with whitespace around it. Default `false` (lenient: prose,
    /// fences, `<think>` blocks, comments and trailing commas are tolerated).
    pub strict: bool,
    /// Byte cap over everything fed, prose included. Default 64 MiB.
    pub max_bytes: u64,
    /// Container nesting cap; the root container is depth 1. Default 128, as serde_json.
    pub max_depth: usize,
    /// Bytes of prose (outside `<think>` blocks) after which, with no value begun, the stream
    /// gives up with [`ErrorKind::NoStructure`](crate::ErrorKind::NoStructure). Default 256 KiB.
    pub idle_limit: u64,
}

impl Default for Options {
    fn default() -> Self {
        Options {
            strict: false,
            max_bytes: 64 * 1024 * 1024,
            max_depth: 128,
            idle_limit: 256 * 1024,
        }
    }
}

impl Options {
    /// Sets [`Options::strict`].
    pub fn strict(mut self, strict: bool) -> Self {
        self.strict = strict;
        self
    }

    /// Sets [`Options::max_bytes`].
    pub fn max_bytes(mut self, max_bytes: u64) -> Self {
        self.max_bytes = max_bytes;
        self
    }

    /// Sets [`Options::max_depth`].
    pub fn max_depth(mut self, max_depth: usize) -> Self {
        self.max_depth = max_depth;
        self
    }

    /// Sets [`Options::idle_limit`].
    pub fn idle_limit(mut self, idle_limit: u64) -> Self {
        self.idle_limit = idle_limit;
        self
    }
}
