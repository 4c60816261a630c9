//! [`Stream<T>`]: the driver for any [`Streamable`] root.

use crate::error::Error;
use crate::options::Options;
use crate::outcome::{Partial, StreamError};
use crate::scanner::{Scanner, Warning};
use crate::typed::{Rejection, Streamable, TypedSink};
use crate::validate;
use std::fmt;

/// A callback registered with [`Stream::on_field`].
type Handler<T> = Box<dyn FnMut(&<T as Streamable>::Field) + Send>;

/// A typed stream: feed chunks, read the draft, match on what settled, finish with the
/// strict value.
///
/// `T` is the root: a derived model, or `Vec<Model>` to receive each element the moment it
/// settles.
///
/// ```
/// use settled::{Item, Stream};
///
/// let mut stream = Stream::<Vec<u32>>::new();
/// let settled: Vec<_> = stream.feed(b"Numbers: [1, 22, 3")?.collect();
/// assert_eq!(settled, [Item::Settled(0, 1), Item::Settled(1, 22)]);
/// assert_eq!(stream.draft(), &vec![1, 22]);
/// stream.feed(b"]")?;
/// assert_eq!(stream.finish()?, vec![1, 22, 3]);
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
pub struct Stream<T: Streamable> {
    scanner: Scanner,
    sink: TypedSink<T>,
    handlers: Vec<Handler<T>>,
    empty: T::Draft,
    /// A fail-fast validation error: the stream is over.
    failed: Option<Error>,
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

    /// A stream with `options` (its depth cap at most
    /// [`SERDE_MAX_DEPTH`](crate::SERDE_MAX_DEPTH), the nesting serde_json reads).
    pub fn with_options(mut options: Options) -> Self {
        options.max_depth = options.max_depth.min(crate::options::SERDE_MAX_DEPTH);
        let fail_fast = options.fail_fast;
        let mut scanner = Scanner::new(options);
        match T::SHAPE {
            crate::typed::Shape::Object => scanner.expect_root(true),
            crate::typed::Shape::Array => scanner.expect_root(false),
            crate::typed::Shape::Any => {}
        }
        Stream {
            scanner,
            sink: TypedSink::new(fail_fast),
            handlers: Vec::new(),
            empty: T::Draft::default(),
            failed: None,
        }
    }

    /// Scans one chunk; returns what settled in it, in settling order. Callbacks
    /// registered with [`Stream::on_field`] run before this returns.
    ///
    /// Fails with the scanner's errors, and (with [`Options::fail_fast`], the default) with
    /// [`ErrorKind::Validation`](crate::ErrorKind::Validation) in the chunk where a value
    /// serde rejects settles. On error the draft keeps everything read before.
    pub fn feed(&mut self, chunk: &[u8]) -> Result<std::vec::Drain<'_, T::Field>, Error> {
        if let Some(error) = &self.failed {
            return Err(error.clone());
        }
        self.sink.fields.clear();
        let before = self.sink.rejections.len();
        let result = self.scanner.feed(chunk, &mut self.sink);
        self.run_handlers();
        result?;
        if self.scanner.options().fail_fast {
            if let Some(rejection) = self.sink.rejections.get(before) {
                let error = self.rejection_error(rejection);
                self.failed = Some(error.clone());
                return Err(error);
            }
        }
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

    /// The fields settled by the last [`Stream::feed`] that it did not return: when `feed`
    /// fails, those that settled in that chunk before the error.
    pub fn unreturned(&mut self) -> std::vec::Drain<'_, T::Field> {
        self.sink.fields.drain(..)
    }

    /// The draft, or `None` until the value has begun.
    pub fn draft_if_begun(&self) -> Option<&T::Draft> {
        self.sink.slot.as_ref()
    }

    /// The draft: everything read so far, updated in place.
    pub fn draft(&self) -> &T::Draft {
        self.sink.slot.as_ref().unwrap_or(&self.empty)
    }

    /// Calls `handler` for every field as it settles, inside [`Stream::feed`].
    pub fn on_field(&mut self, handler: impl FnMut(&T::Field) + Send + 'static) -> &mut Self {
        self.handlers.push(Box::new(handler));
        self
    }

    /// The scanner: clean buffer, offset, depth, warnings.
    pub fn scanner(&self) -> &Scanner {
        &self.scanner
    }

    /// What was tolerated: a second JSON value after the root.
    pub fn warnings(&self) -> &[Warning] {
        self.scanner.warnings()
    }

    /// Every required field (serde's notion: not `Option`, no `default`) has settled: the
    /// caller may stop reading (cancel the request) and call [`Stream::finish_early`].
    pub fn is_satisfied(&self) -> bool {
        if self.failed.is_some() || self.scanner.error().is_some() {
            return false;
        }
        match self.sink.done {
            Some(Ok(_)) => return true,
            Some(Err(_)) => return false,
            None => {}
        }
        T::MODEL && self.sink.slot.is_some() && T::missing(self.sink.slot.as_ref()).is_empty()
    }

    /// The required fields that have not settled yet.
    pub fn missing(&self) -> Vec<T::Name> {
        T::missing(self.sink.slot.as_ref())
    }

    /// Ends the input and returns the strict value: serde's verdict on the value's clean
    /// text, computed once.
    ///
    /// A cut is never silent: input that ends inside the value is
    /// [`ErrorKind::Truncated`](crate::ErrorKind::Truncated), with the last draft and the
    /// required fields that never settled, even when every required field has (a
    /// half-written optional field would be lost). To stop reading on purpose once the
    /// required fields are in, call [`Stream::finish_early`].
    pub fn finish(mut self) -> Result<T::Value, StreamError<T>> {
        if let Some(error) = self.failed.take() {
            return Err(self.fail(error));
        }
        if let Err(error) = self.scanner.finish(&mut self.sink) {
            return Err(self.fail(error));
        }
        self.run_handlers();
        match self.sink.done.take() {
            Some(Ok(value)) => {
                let text = self.scanner.clean().to_vec();
                self.checked(value, &text)
            }
            _ => Err(self.validation_failure()),
        }
    }

    /// Ends the stream before its input ended, on purpose (the caller has what it needs
    /// and cancels the request): the value built from the root object's members that have
    /// settled. A member still being written is left out (optional fields take their
    /// defaults), so call it once [`Stream::is_satisfied`]; a complete input gives what
    /// [`Stream::finish`] gives.
    ///
    /// # Errors
    ///
    /// [`ErrorKind::Truncated`](crate::ErrorKind::Truncated) with the missing fields when
    /// a required field has not settled; the stream's own error if it failed.
    pub fn finish_early(mut self) -> Result<T::Value, StreamError<T>> {
        if let Some(error) = self.failed.take() {
            return Err(self.fail(error));
        }
        if !self.scanner.is_complete() && self.is_satisfied() {
            if let Some(prefix) = self.scanner.root_prefix() {
                let mut text = prefix.to_vec();
                text.push(b'}');
                let value =
                    validate::deserialize(&self.scanner, &text).map_err(|e| self.fail(e))?;
                return self.checked(value, &text);
            }
        }
        self.finish()
    }

    /// The constraints serde does not know (`#[settled(min_items = …)]`, …).
    fn checked(&mut self, value: T::Value, text: &[u8]) -> Result<T::Value, StreamError<T>> {
        match T::check(&value, &mut Vec::new()) {
            Ok(()) => Ok(value),
            Err(violation) => {
                let error = validate::violation(&self.scanner, text, violation);
                Err(self.fail(error))
            }
        }
    }

    /// Ends the input the way the provider said it ended: a finish reason at the token
    /// limit (`length`, `max_tokens`, `max_output_tokens`) with the value incomplete is a
    /// truncation that names the cause (whether or not the required fields have settled:
    /// the draft is in the error); otherwise this is [`Stream::finish`].
    pub fn finish_after(
        mut self,
        reason: &crate::provider::FinishReason,
    ) -> Result<T::Value, StreamError<T>> {
        if let Some(name) = reason.truncation_name() {
            if self.failed.is_none() {
                if let Err(error) = self.scanner.cut(name, &mut self.sink) {
                    return Err(self.fail(error));
                }
            }
        }
        self.finish()
    }

    /// Ends the input and returns the draft marked as partial: which fields settled, which
    /// required ones are missing, and the error if the value is not complete and valid.
    pub fn finish_partial(mut self) -> Partial<T> {
        let mut error = self.failed.take();
        if error.is_none() {
            error = self.scanner.finish(&mut self.sink).err();
        }
        if error.is_none() && !matches!(self.sink.done, Some(Ok(_))) {
            error = Some(self.validation_failure().error);
        }
        if error.is_none() {
            if let Some(Ok(value)) = &self.sink.done {
                if let Err(violation) = T::check(value, &mut Vec::new()) {
                    error = Some(validate::violation(
                        &self.scanner,
                        self.scanner.clean(),
                        violation,
                    ));
                }
            }
        }
        let draft = self.sink.slot.take();
        Partial {
            settled: T::settled(draft.as_ref()),
            missing: T::missing(draft.as_ref()),
            draft,
            error,
        }
    }

    /// serde rejected the root. The first value rejected as it settled (innermost first)
    /// says where, with its span; otherwise (a missing or duplicate field) ask serde again,
    /// with paths.
    fn validation_failure(&mut self) -> StreamError<T> {
        let error = match self.sink.rejections.first() {
            Some(rejection) => validate::rejection(&self.scanner, rejection),
            None => match validate::deserialize::<T::Value>(&self.scanner, self.scanner.clean()) {
                Err(error) => error,
                // serde accepts the whole text but rejected a part as it settled: cannot
                // happen with serde_json; report the root.
                Ok(_) => validate::root_rejected(&self.scanner),
            },
        };
        self.fail(error)
    }

    fn fail(&mut self, error: Error) -> StreamError<T> {
        let missing = T::missing(self.sink.slot.as_ref());
        StreamError::new(error, self.sink.slot.take(), missing)
    }

    fn rejection_error(&self, rejection: &Rejection) -> Error {
        validate::rejection(&self.scanner, rejection)
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
