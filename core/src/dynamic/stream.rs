//! [`DynamicStream`]: the scanner driving a [`DynamicSink`].

use super::sink::DynamicSink;
use super::tree::{PartialValue, Pointer, ValueRef};
use crate::error::{Error, Reason};
use crate::options::Options;
use crate::scanner::Scanner;

/// A schema-less stream: feed chunks, read the partial value after each, see which values
/// settled.
///
/// ```
/// use settled::{DynamicStream, Options};
///
/// let mut stream = DynamicStream::new(Options::default());
/// stream.feed(b"Sure! ```json\n{\"name\": \"Ada\", \"tags\": [\"x\"")?;
/// assert_eq!(stream.snapshot().unwrap().to_json(), r#"{"name":"Ada","tags":["x"]}"#);
/// let settled: Vec<String> = stream.settled().map(|(path, _)| path.to_string()).collect();
/// assert_eq!(settled, ["/name", "/tags/0"]);
///
/// stream.feed(b"]}\n```")?;
/// let value = stream.finish()?;
/// assert_eq!(value.get("tags").unwrap().len(), 1);
/// # Ok::<(), settled::Error>(())
/// ```
#[derive(Debug, Clone)]
pub struct DynamicStream {
    scanner: Scanner,
    sink: DynamicSink,
}

impl DynamicStream {
    /// A stream reading with `options`, recording settled paths.
    pub fn new(options: Options) -> Self {
        DynamicStream {
            scanner: Scanner::new(options),
            sink: DynamicSink::new(true),
        }
    }

    /// A stream that does not record settled paths (cheaper when only the value matters).
    pub fn without_settled(options: Options) -> Self {
        DynamicStream {
            scanner: Scanner::new(options),
            sink: DynamicSink::new(false),
        }
    }

    /// Scans one chunk. [`DynamicStream::settled`] then lists what settled in it.
    ///
    /// On error the value read before the failing byte stays readable.
    pub fn feed(&mut self, chunk: &[u8]) -> Result<(), Error> {
        self.sink.clear_settled();
        let result = self.scanner.feed(chunk, &mut self.sink);
        self.note_duplicates();
        result
    }

    /// Duplicate keys keep their first value: each is recorded as a warning.
    fn note_duplicates(&mut self) {
        for at in self.sink.take_duplicates() {
            let offset = self.scanner.root_offset() + at as u64;
            self.scanner.warn(crate::WarningKind::DuplicateKey, offset);
        }
    }

    /// Ends the input. A root number settles here (it is added to
    /// [`DynamicStream::settled`] after the last chunk's values).
    pub fn finish(&mut self) -> Result<ValueRef<'_>, Error> {
        let result = self.scanner.finish(&mut self.sink);
        self.note_duplicates();
        result?;
        // The scanner finishes cleanly only after a root value, so this is always `Some`.
        let offset = self.scanner.offset();
        self.sink
            .value()
            .root()
            .ok_or_else(|| Error::new(Reason::EofBeforeValue, offset, 1, 1))
    }

    /// Ends the input the way the provider said it ended: a finish reason at the token
    /// limit with the value incomplete is a truncation that names the cause.
    pub fn finish_after(
        &mut self,
        reason: &crate::provider::FinishReason,
    ) -> Result<ValueRef<'_>, Error> {
        if let Some(name) = reason.truncation_name() {
            let result = self.scanner.cut(name, &mut self.sink);
            self.note_duplicates();
            result?;
        }
        self.finish()
    }

    /// The value so far: `None` until the root has begun (and, after prose, been confirmed).
    pub fn snapshot(&self) -> Option<ValueRef<'_>> {
        self.sink.value().root()
    }

    /// The whole partial tree.
    pub fn value(&self) -> &PartialValue {
        self.sink.value()
    }

    /// Values settled by the last [`DynamicStream::feed`] (and by
    /// [`DynamicStream::finish`]), innermost first, with their JSON Pointers (computed when
    /// displayed: an unread report costs nothing) and their final values.
    ///
    /// A duplicate key keeps its first value (a settled value never changes): the later
    /// member is left out and reported in [`DynamicStream::warnings`]. A second value
    /// that replaces the first ([`SecondRoot::KeepLast`](crate::SecondRoot::KeepLast))
    /// takes the first value's reports of its chunk with it.
    pub fn settled(&self) -> impl Iterator<Item = (Pointer<'_>, ValueRef<'_>)> {
        let tree = self.sink.value();
        self.sink
            .settled()
            .iter()
            .map(move |&id| (tree.pointer(id), tree.at(id)))
    }

    /// What was tolerated: duplicate keys, a second JSON value.
    pub fn warnings(&self) -> &[crate::Warning] {
        self.scanner.warnings()
    }

    /// The scanner: clean buffer, offset, depth.
    pub fn scanner(&self) -> &Scanner {
        &self.scanner
    }
}
