//! [`Stream<T>`]: the driver for any [`Streamable`] root.

use crate::error::Error;
use crate::options::Options;
use crate::scanner::Scanner;
use crate::typed::{Streamable, TypedSink};
use std::fmt;

/// A callback registered with [`Stream::on_field`].
type Handler<T> = Box<dyn FnMut(&<T as Streamable>::Field)>;

/// A typed stream: feed chunks, read the draft, match on what settled, finish with the
/// strict value.
///
/// `T` is the root: a derived model, or `Vec<Model>` to receive each element the moment it
/// settles.
///
/// ```
/// use settle::{Item, Stream};
///
/// let mut stream = Stream::<Vec<u32>>::new();
/// let settled: Vec<_> = stream.feed(b"Numbers: [1, 22, 3")?.collect();
/// assert_eq!(settled, [Item::Settled(0, 1), Item::Settled(1, 22)]);
/// assert_eq!(stream.draft(), &vec![1, 22]);
/// stream.feed(b"]")?;
/// assert_eq!(stream.finish()?, vec![1, 22, 3]);
/// # Ok::<(), settle::Error>(())
/// ```
pub struct Stream<T: Streamable> {
    scanner: Scanner,
    sink: TypedSink<T>,
    handlers: Vec<Handler<T>>,
    empty: T::Draft,
}

impl<T> Stream<T>
where
    T: Streamable,
    T::Draft: Default,
{
    /// A lenient stream with the default [`Options`].
    pub fn new() -> Self {
        Self::with_options(Options::default())
    }

    /// A stream with `options`.
    pub fn with_options(options: Options) -> Self {
        Stream {
            scanner: Scanner::new(options),
            sink: TypedSink::default(),
            handlers: Vec::new(),
            empty: T::Draft::default(),
        }
    }

    /// Scans one chunk; returns what settled in it, in settling order. Callbacks
    /// registered with [`Stream::on_field`] run before this returns.
    ///
    /// On error the draft keeps everything read before the failing byte.
    pub fn feed(&mut self, chunk: &[u8]) -> Result<std::vec::Drain<'_, T::Field>, Error> {
        self.sink.fields.clear();
        let result = self.scanner.feed(chunk, &mut self.sink);
        self.run_handlers();
        result?;
        Ok(self.sink.fields.drain(..))
    }

    fn run_handlers(&mut self) {
        if self.handlers.is_empty() {
            return;
        }
        for field in &self.sink.fields {
            for handler in &mut self.handlers {
                handler(field);
            }
        }
    }

    /// The draft: everything read so far, updated in place.
    pub fn draft(&self) -> &T::Draft {
        self.sink.slot.as_ref().unwrap_or(&self.empty)
    }

    /// Calls `handler` for every field as it settles, inside [`Stream::feed`].
    pub fn on_field(&mut self, handler: impl FnMut(&T::Field) + 'static) -> &mut Self {
        self.handlers.push(Box::new(handler));
        self
    }

    /// The scanner: clean buffer, offset, depth.
    pub fn scanner(&self) -> &Scanner {
        &self.scanner
    }

    /// Ends the input and returns the strict value: serde's verdict on the value's clean
    /// text, computed once.
    pub fn finish(mut self) -> Result<T::Value, Error> {
        self.scanner.finish(&mut self.sink)?;
        self.run_handlers();
        match self.sink.done.take() {
            Some(Ok(value)) => Ok(value),
            Some(Err(error)) => Err(self.validation_error(error)),
            None => serde_json::from_slice(self.scanner.clean())
                .map_err(|error| self.validation_error(error)),
        }
    }

    fn validation_error(&self, error: serde_json::Error) -> Error {
        let (path, error) = match self.sink.rejections.first() {
            Some(rejection) => (rejection.pointer(), rejection.error.to_string()),
            None => (String::new(), error.to_string()),
        };
        Error::validation(path, error, self.scanner.offset())
    }
}

impl<T> Default for Stream<T>
where
    T: Streamable,
    T::Draft: Default,
{
    fn default() -> Self {
        Self::new()
    }
}

impl<T: Streamable> fmt::Debug for Stream<T> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Stream")
            .field("scanner", &self.scanner)
            .field("draft", &self.sink.slot)
            .finish_non_exhaustive()
    }
}
