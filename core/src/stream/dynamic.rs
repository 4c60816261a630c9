//! [`DynamicStream`]: the scanner driving a [`DynamicSink`], for code without a model.

use crate::dynamic::{DynamicSink, PartialValue, Pointer, ValueRef};
use crate::error::{Error, ErrorKind, Reason};
use crate::options::Options;
use crate::scanner::{Scanner, Warning, WarningKind};
use std::fmt;

/// A schema-less stream: feed chunks, read the partial value after each, see which values
/// settled.
///
/// ```
/// use settled::DynamicStream;
///
/// let mut stream = DynamicStream::new();
/// stream.feed(b"Sure! ```json\n{\"name\": \"Ada\", \"tags\": [\"x\"")?;
/// assert_eq!(stream.draft().unwrap().to_json(), r#"{"name":"Ada","tags":["x"]}"#);
/// let settled: Vec<String> = stream.settled().map(|(path, _)| path.to_string()).collect();
/// assert_eq!(settled, ["/name", "/tags/0"]);
///
/// stream.feed(b"]}\n```")?;
/// let value = stream.finish()?;
/// assert_eq!(value.root().unwrap().get("tags").unwrap().len(), 1);
/// # Ok::<(), settled::Error>(())
/// ```
#[derive(Debug, Clone)]
pub struct DynamicStream {
    scanner: Scanner,
    sink: DynamicSink,
}

impl DynamicStream {
    /// The most bytes a schema-less stream reads, whatever [`Options::max_bytes`] says:
    /// each value takes at least one byte, so its tree never holds more values than a
    /// [`DynamicSink`] counts (2^32 − 1). Past it, [`ErrorKind::TooLarge`].
    pub const MAX_BYTES: u64 = u32::MAX as u64 - 1;

    /// A lenient stream with the default [`Options`].
    pub fn new() -> Self {
        Self::with_options(Options::default())
    }

    /// A stream with `options`. Its byte cap is at most [`DynamicStream::MAX_BYTES`]
    /// (about 4 GiB), whatever `options` says.
    pub fn with_options(mut options: Options) -> Self {
        options.max_bytes = options.max_bytes.min(Self::MAX_BYTES);
        DynamicStream {
            scanner: Scanner::new(options),
            sink: DynamicSink::new(true),
        }
    }

    /// Scans one chunk. [`DynamicStream::settled`] then lists what settled in it.
    ///
    /// # Errors
    ///
    /// The scanner's errors; the value read before the failing byte stays readable.
    pub fn feed(&mut self, chunk: &[u8]) -> Result<(), Error> {
        self.sink.clear_settled();
        let result = self.scanner.feed(chunk, &mut self.sink);
        self.note_duplicates();
        result
    }

    /// Duplicate keys keep their first value: each is recorded as a warning.
    fn note_duplicates(&mut self) {
        if !self.sink.has_duplicates() {
            return;
        }
        for at in self.sink.take_duplicates() {
            let offset = self.scanner.root_offset() + at as u64;
            self.scanner.warn(WarningKind::DuplicateKey, offset);
        }
    }

    /// Ends the input without giving up the stream: a root number settles (and is listed
    /// by [`DynamicStream::settled`] after what settled in the last chunk);
    /// [`DynamicStream::draft`] is then the final value.
    /// [`DynamicStream::finish`] calls it.
    ///
    /// # Errors
    ///
    /// What the input ended inside ([`ErrorKind::Truncated`], …).
    pub fn end_input(&mut self) -> Result<(), Error> {
        let result = self.scanner.finish(&mut self.sink);
        self.note_duplicates();
        result
    }

    /// Ends the input and returns the value.
    ///
    /// # Errors
    ///
    /// What the input ended inside, or the stream's earlier error, with the last draft.
    pub fn finish(mut self) -> Result<PartialValue, DynamicError> {
        if let Err(error) = self.end_input() {
            return Err(self.fail(error));
        }
        if self.sink.value().root().is_none() {
            // The scanner finishes cleanly only after a root value: not reached.
            let offset = self.scanner.offset();
            return Err(self.fail(Error::new(Reason::EofBeforeValue, offset, 1, 1)));
        }
        Ok(self.sink.into_value())
    }

    /// Ends the input early, for `cause` (a provider's token limit: `"length"`): input
    /// that ends inside the value is a truncation that names the cause.
    ///
    /// # Errors
    ///
    /// As [`DynamicStream::finish`], the truncation naming `cause`.
    pub fn finish_cut(mut self, cause: &'static str) -> Result<PartialValue, DynamicError> {
        if let Err(error) = self.cut_input(cause) {
            return Err(self.fail(error));
        }
        self.finish()
    }

    /// [`DynamicStream::end_input`] for input cut short for `cause`: a value the input
    /// ended inside is a truncation that names the cause.
    ///
    /// # Errors
    ///
    /// The truncation, or the stream's earlier error.
    pub fn cut_input(&mut self, cause: &'static str) -> Result<(), Error> {
        let result = self
            .scanner
            .cut(cause, &mut self.sink)
            .and_then(|()| self.scanner.finish(&mut self.sink));
        self.note_duplicates();
        result
    }

    fn fail(self, error: Error) -> DynamicError {
        let draft = self.sink.into_value();
        DynamicError {
            error,
            draft: draft.root().is_some().then_some(draft),
        }
    }

    /// The value so far: `None` until the root has begun (and, after prose, been confirmed).
    pub fn draft(&self) -> Option<ValueRef<'_>> {
        self.sink.value().root()
    }

    /// Values settled by the last [`DynamicStream::feed`] (or
    /// [`DynamicStream::end_input`]), innermost first, with their JSON Pointers (computed
    /// when displayed: an unread report costs nothing) and their final values.
    ///
    /// A duplicate key keeps its first value (a settled value never changes): the later
    /// member is left out and reported in [`DynamicStream::warnings`]. Under
    /// [`SecondRoot::KeepLast`](crate::SecondRoot::KeepLast) the values that settled in
    /// the chunk are listed whatever replaced them in it (a second value that replaces
    /// the first, or the first brought back when the input ends inside the second), as
    /// they would be in smaller chunks: the list does not depend on how the input was
    /// split, unless a third value settles in the same chunk. Memory stays with the
    /// values kept: of the values given up in one chunk, only the last one's reports
    /// remain (`[1] [2] [3]` in one chunk lists those of `[2]` and `[3]`).
    #[inline]
    pub fn settled(&self) -> impl Iterator<Item = (Pointer<'_>, ValueRef<'_>)> {
        self.sink.settled()
    }

    /// What was tolerated: duplicate keys, a second JSON value.
    /// The first [`MAX_WARNINGS`](crate::MAX_WARNINGS), in input order.
    pub fn warnings(&self) -> &[Warning] {
        self.scanner.warnings()
    }

    /// Bytes fed so far, prose included.
    pub fn offset(&self) -> u64 {
        self.scanner.offset()
    }

    /// Where the next byte goes: offset, line and column just past the bytes fed (what
    /// an error of the input's own, such as a dropped connection, is reported at).
    pub fn position(&self) -> crate::Position {
        self.scanner.position()
    }
}

impl Default for DynamicStream {
    fn default() -> Self {
        Self::new()
    }
}

/// A schema-less stream that failed: the [`Error`] and the last draft (nothing read is
/// lost).
#[derive(Clone)]
pub struct DynamicError {
    error: Error,
    draft: Option<PartialValue>,
}

impl DynamicError {
    /// What kind of failure this is.
    pub fn kind(&self) -> ErrorKind {
        self.error.kind()
    }

    /// The error: position and message.
    pub fn error(&self) -> &Error {
        &self.error
    }

    /// The last draft (`None`: the value never began).
    pub fn draft(&self) -> Option<ValueRef<'_>> {
        self.draft.as_ref().and_then(PartialValue::root)
    }

    /// Takes the last draft.
    pub fn into_draft(self) -> Option<PartialValue> {
        self.draft
    }
}

/// The error's accessors (`offset`, `position`, …) read through.
impl std::ops::Deref for DynamicError {
    type Target = Error;
    fn deref(&self) -> &Error {
        &self.error
    }
}

impl fmt::Display for DynamicError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        self.error.fmt(f)
    }
}

impl fmt::Debug for DynamicError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("DynamicError")
            .field("error", &self.error)
            .field("draft", &self.draft())
            .finish()
    }
}

impl std::error::Error for DynamicError {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        Some(&self.error)
    }
}

impl From<DynamicError> for Error {
    fn from(e: DynamicError) -> Self {
        e.error
    }
}
