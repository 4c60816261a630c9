//! [`TypedStream<T>`]: the driver for any [`StreamingModel`] root.

use super::outcome::{FeedError, Fields, Partial, StreamError};
use crate::error::Error;
use crate::options::Options;
use crate::scanner::{Scanner, Warning};
use crate::typed::{Parts, Shape, StreamingModel, TypedSink};
use crate::validate;
use std::any::TypeId;
use std::fmt;

/// A callback registered with [`TypedStream::on_field`].
type Handler<T> = Box<dyn FnMut(&<T as StreamingModel>::Field) + Send>;

/// A typed stream: feed chunks, read the draft, match on what settled, finish with the
/// strict value.
///
/// `T` is the root: a derived model, or `Vec<Model>` to receive each element the moment it
/// settles. In the default lenient mode the root is an object or an array found in the
/// model's prose (`The answer is 42` holds no value to read): a scalar root (`u32`,
/// `String`, a `null` for an `Option`) needs [`Options::strict`], where the whole input
/// is the value.
///
/// ```
/// use settled::{Item, TypedStream};
///
/// let mut stream = TypedStream::<Vec<u32>>::new();
/// let settled: Vec<_> = stream.feed(b"Numbers: [1, 22, 3")?.collect();
/// assert_eq!(settled, [Item::Element(0, 1), Item::Element(1, 22)]);
/// assert_eq!(stream.draft(), &vec![1, 22]);
/// stream.feed(b"]")?;
/// assert_eq!(stream.finish()?, vec![1, 22, 3]);
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
pub struct TypedStream<T: StreamingModel> {
    scanner: Scanner,
    sink: TypedSink<T>,
    handlers: Vec<Handler<T>>,
    /// The draft shown before the value begins (made on first use).
    empty: std::sync::OnceLock<T::Draft>,
    /// A fail-fast validation error: the stream is over.
    failed: Option<Error>,
}

impl<T: StreamingModel> TypedStream<T> {
    /// A lenient stream with the default [`Options`].
    pub fn new() -> Self {
        Self::with_options(Options::default())
    }

    /// A stream with `options`. Its depth cap is at most
    /// [`SERDE_MAX_DEPTH`](crate::SERDE_MAX_DEPTH), the nesting serde_json reads; under
    /// [`SecondRoot::KeepLast`](crate::SecondRoot::KeepLast) it does not fail fast.
    pub fn with_options(mut options: Options) -> Self {
        options.max_depth = options.max_depth.min(crate::options::SERDE_MAX_DEPTH);
        // A value a later one may replace is no reason to stop (see `SecondRoot::KeepLast`).
        if options.second_root == crate::options::SecondRoot::KeepLast {
            options.fail_fast = false;
        }
        let fail_fast = options.fail_fast;
        let replay_budget =
            usize::try_from(options.max_bytes.saturating_mul(8)).unwrap_or(usize::MAX);
        let mut scanner = Scanner::new(options);
        match T::SHAPE {
            Shape::Object => scanner.expect_root(true, T::NULLABLE),
            Shape::Array => scanner.expect_root(false, T::NULLABLE),
            Shape::Any => {}
        }
        match T::ELEMENT {
            Shape::Object => scanner.expect_elements(true),
            Shape::Array => scanner.expect_elements(false),
            Shape::Any => {}
        }
        TypedStream {
            scanner,
            sink: TypedSink::new(fail_fast, replay_budget),
            handlers: Vec::new(),
            empty: std::sync::OnceLock::new(),
            failed: None,
        }
    }

    /// Scans one chunk; returns what settled in it, in settling order. Callbacks
    /// registered with [`TypedStream::on_field`] run before this returns.
    ///
    /// # Errors
    ///
    /// The scanner's errors, and (with [`Options::fail_fast`], the default)
    /// [`ErrorKind::Validation`](crate::ErrorKind::Validation) in the chunk where a value
    /// serde rejects settles (or the key of a duplicate or unknown field closes). The
    /// error carries the fields that settled in the chunk before it; the draft keeps
    /// everything read before it, and nothing after.
    pub fn feed(&mut self, chunk: &[u8]) -> Result<Fields<T>, FeedError<T>> {
        let result = self.scan(chunk);
        let fields = std::mem::take(&mut self.sink.fields);
        self.run_handlers(&fields);
        match result {
            Ok(()) => Ok(Fields::new(fields)),
            Err(error) => Err(FeedError::new(error, fields)),
        }
    }

    /// Scans one chunk into the sink: the scanner's error, or (fail-fast) the first
    /// rejection in it. The fields that settled stay in the sink for the caller.
    fn scan(&mut self, chunk: &[u8]) -> Result<(), Error> {
        if let Some(error) = &self.failed {
            return Err(error.clone());
        }
        let before = self.sink.rejections.len();
        self.scanner.feed(chunk, &mut self.sink)?;
        if self.scanner.options().fail_fast {
            if let Some(rejection) = self.sink.rejections.get(before) {
                let error = validate::rejection(&self.scanner, rejection);
                self.failed = Some(error.clone());
                return Err(error);
            }
        }
        Ok(())
    }

    /// Scans one chunk and updates the draft, without building the fields that settle
    /// (the fast path for an application that only renders the draft). Callbacks
    /// registered with [`TypedStream::on_field`] still run.
    ///
    /// # Errors
    ///
    /// As [`TypedStream::feed`].
    pub fn push(&mut self, chunk: &[u8]) -> Result<(), Error> {
        if !self.handlers.is_empty() {
            return self.feed(chunk).map(drop).map_err(FeedError::into_error);
        }
        // Nothing is wrapped as a field: none reaches the sink's list.
        self.sink.events = false;
        let result = self.scan(chunk);
        self.sink.events = true;
        result
    }

    fn run_handlers(&mut self, fields: &[T::Field]) {
        for field in fields {
            for handler in &mut self.handlers {
                handler(field);
            }
        }
    }

    /// The draft: everything read so far, updated in place (empty until the value begins).
    /// Before it begins this is the draft type's `Default`: an empty model, vector, map or
    /// string, but `0` for a number root, `false` for a bool root and `null` for a
    /// `serde_json::Value` root, which a value read later can replace. For such a root, and
    /// for a type whose draft has no empty form (an enum with data), read
    /// [`TypedStream::current`], which is `None` until the value begins.
    pub fn draft(&self) -> &T::Draft
    where
        T::Draft: Default,
    {
        match self.sink.slot.as_ref() {
            Some(draft) => draft,
            None => self.empty.get_or_init(T::Draft::default),
        }
    }

    /// The draft once the value has begun: `None` before, and for an enum with data until
    /// its variant is known.
    pub fn current(&self) -> Option<&T::Draft> {
        self.sink.slot.as_ref()
    }

    /// The value has begun: [`TypedStream::draft`] shows it.
    pub fn has_begun(&self) -> bool {
        self.sink.slot.is_some()
    }

    /// Calls `handler` for every field as it settles, inside [`TypedStream::feed`] (and
    /// [`TypedStream::push`]), and inside [`TypedStream::finish`] for what only the end of
    /// the input settles (a root number's last digits, a list held until what followed it
    /// showed): `feed` returns no field for those, the final value holds them.
    pub fn on_field(&mut self, handler: impl FnMut(&T::Field) + Send + 'static) -> &mut Self {
        self.handlers.push(Box::new(handler));
        self
    }

    /// Calls `callback` with the value of `variant` of the model's field enum each time one
    /// settles, inside [`TypedStream::feed`]: pass the variant itself
    /// (`ReviewField::Score`, `ReviewField::InAuthor`), and the callback receives its value.
    /// For the variants that carry an index (`ReviewField::ReasonsItem`), see
    /// [`TypedStream::on_item`].
    ///
    /// The variant is recognized by its constructor's type: a function pointer to it
    /// (`ReviewField::Score as fn(u8) -> _`) fails to build, and a closure that calls it
    /// (`|s| ReviewField::Score(s)`) is another function, which no field is.
    ///
    /// ```
    /// use serde::Deserialize;
    /// use settled::StreamingModel;
    ///
    /// #[derive(Debug, Deserialize, StreamingModel)]
    /// struct Review {
    ///     score: u8,
    ///     reasons: Vec<String>,
    /// }
    ///
    /// let mut stream = Review::stream();
    /// stream
    ///     .on(ReviewField::Score, |score| println!("score {score}"))
    ///     .on_item(ReviewField::ReasonsItem, |i, reason| println!("reason {i}: {reason}"));
    /// stream.feed(br#"{"score": 9, "reasons": ["fast"]}"#)?;
    /// # Ok::<(), settled::Error>(())
    /// ```
    pub fn on<V: 'static, C>(
        &mut self,
        variant: C,
        mut callback: impl FnMut(&V) + Send + 'static,
    ) -> &mut Self
    where
        C: Fn(V) -> T::Field + 'static,
        T::Field: Parts,
    {
        let _ = variant;
        self.on_part::<V, C>(false, move |_, value| callback(value))
    }

    /// Calls `callback` with the index and the value of `variant`, a variant of the model's
    /// field enum that carries an index (`ReviewField::ReasonsItem`: one element of a
    /// vector field; `ReviewField::InItems`: a value settled inside one), each time one
    /// settles.
    pub fn on_item<V: 'static, C>(
        &mut self,
        variant: C,
        mut callback: impl FnMut(usize, &V) + Send + 'static,
    ) -> &mut Self
    where
        C: Fn(usize, V) -> T::Field + 'static,
        T::Field: Parts,
    {
        let _ = variant;
        self.on_part::<V, C>(true, move |item, value| {
            if let Some(item) = item {
                callback(item, value);
            }
        })
    }

    /// Calls `call` with each settled field made by the constructor `C` that carries an
    /// index (`indexed`) or not: its index and its value.
    fn on_part<V: 'static, C: 'static>(
        &mut self,
        indexed: bool,
        mut call: impl FnMut(Option<usize>, &V) + Send + 'static,
    ) -> &mut Self
    where
        T::Field: Parts,
    {
        const {
            assert!(
                size_of::<C>() == 0,
                "pass the variant itself (`XField::Name`)"
            )
        };
        let ctor = TypeId::of::<C>();
        self.on_field(move |field| {
            let part = field.part();
            if part.ctor == ctor && part.item.is_some() == indexed {
                if let Some(value) = part.value.as_any().downcast_ref::<V>() {
                    call(part.item, value);
                }
            }
        })
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

    /// What was tolerated: a second JSON value after the root.
    /// The first [`MAX_WARNINGS`](crate::MAX_WARNINGS), in input order.
    pub fn warnings(&self) -> &[Warning] {
        self.scanner.warnings()
    }

    /// Every required field (serde's notion: no default, and not an `Option`) has
    /// settled: the caller may stop reading (cancel the request) and call
    /// [`TypedStream::finish_early`]. A model with no required field is satisfied as soon
    /// as its object begins, and `finish_early` leaves out a field still being written:
    /// to wait for optional fields, watch their events or
    /// [`FieldState`](crate::FieldState)s instead.
    pub fn is_satisfied(&self) -> bool {
        if self.failed.is_some() || self.scanner.error().is_some() {
            return false;
        }
        match self.sink.done {
            Some(ok) => ok && self.sink.rejections.is_empty(),
            None => {
                T::MODEL
                    && self.sink.slot.is_some()
                    && self.sink.rejections.is_empty()
                    && T::missing(self.sink.slot.as_ref()).is_empty()
            }
        }
    }

    /// The required fields that have not settled yet.
    pub fn missing(&self) -> Vec<T::Name> {
        T::missing(self.sink.slot.as_ref())
    }

    /// Ends the input and returns the strict value: the draft taken apart (serde read
    /// each value as it settled; nothing is parsed again).
    ///
    /// # Errors
    ///
    /// A cut is never silent: input that ends inside the value is
    /// [`ErrorKind::Truncated`](crate::ErrorKind::Truncated), with the last draft and the
    /// required fields that never settled, even when every required field has (a
    /// half-written optional field would be lost). To stop reading on purpose once the
    /// required fields are in, call [`TypedStream::finish_early`]. A value serde rejected
    /// is [`ErrorKind::Validation`](crate::ErrorKind::Validation) with its path.
    pub fn finish(mut self) -> Result<T::Value, StreamError<T>> {
        if let Some(error) = self.failed.take() {
            return Err(self.fail(error));
        }
        let before = self.sink.fields.len();
        let result = self.scanner.finish(&mut self.sink);
        let fields = self.sink.fields.split_off(before);
        self.run_handlers(&fields);
        if let Err(error) = result {
            let error = self.earlier_rejection(error);
            return Err(self.fail(error));
        }
        if let Some(rejection) = self.sink.rejections.first() {
            let error = validate::rejection(&self.scanner, rejection);
            return Err(self.fail(error));
        }
        match self.sink.take_value() {
            Some(Ok(value)) => Ok(value),
            Some(Err(rejected)) => {
                let error = validate::rejected_root(&self.scanner, &rejected);
                Err(self.fail(error))
            }
            None => {
                let error = validate::rejected_root(&self.scanner, &missing_root());
                Err(self.fail(error))
            }
        }
    }

    /// Ends the stream before its input ended, on purpose (the caller has what it needs
    /// and cancels the request): the value made of the root object's members that have
    /// settled. A member still being written is left out (optional fields take their
    /// defaults), so call it once [`TypedStream::is_satisfied`]; a complete input gives
    /// what [`TypedStream::finish`] gives.
    ///
    /// # Errors
    ///
    /// [`ErrorKind::Truncated`](crate::ErrorKind::Truncated) with the missing fields when
    /// a required field has not settled; the stream's own error if it failed.
    pub fn finish_early(mut self) -> Result<T::Value, StreamError<T>> {
        if self.sink.done.is_none() && self.is_satisfied() {
            if let Some(draft) = self.sink.slot.take() {
                return match T::into_value(draft) {
                    Ok(value) => Ok(value),
                    Err(rejected) => {
                        let error = validate::rejected_root(&self.scanner, &rejected);
                        Err(self.fail(error))
                    }
                };
            }
        }
        self.finish()
    }

    /// Ends the input early, for `cause` (a provider's token limit: `"length"`): input
    /// that ends inside the value is a truncation that names the cause; a complete value
    /// is returned as [`TypedStream::finish`] returns it.
    ///
    /// # Errors
    ///
    /// As [`TypedStream::finish`], the truncation naming `cause`.
    pub fn finish_cut(mut self, cause: &'static str) -> Result<T::Value, StreamError<T>> {
        if self.failed.is_none() {
            if let Err(error) = self.scanner.cut(cause, &mut self.sink) {
                let error = self.earlier_rejection(error);
                return Err(self.fail(error));
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
            error = error.map(|e| self.earlier_rejection(e));
        }
        if error.is_none() {
            error = self
                .sink
                .rejections
                .first()
                .map(|r| validate::rejection(&self.scanner, r));
        }
        if error.is_none() && self.sink.done != Some(true) {
            error = Some(validate::rejected_root(&self.scanner, &missing_root()));
        }
        let draft = self.sink.slot.take();
        Partial {
            settled: T::settled(draft.as_ref()),
            missing: T::missing(draft.as_ref()),
            draft,
            error,
        }
    }

    /// The error the input ended with (`end`: a cut, found when it ended), unless a value
    /// refused before it (without fail-fast) is the first thing wrong with the input.
    fn earlier_rejection(&self, end: Error) -> Error {
        match self.sink.rejections.first() {
            Some(rejection) => {
                let refused = validate::rejection(&self.scanner, rejection);
                if refused.offset() <= end.offset() {
                    refused
                } else {
                    end
                }
            }
            None => end,
        }
    }

    fn fail(&mut self, error: Error) -> StreamError<T> {
        let missing = T::missing(self.sink.slot.as_ref());
        StreamError::new(error, self.sink.slot.take(), missing)
    }

    #[cfg_attr(not(feature = "futures"), allow(dead_code))]
    /// The error a failed [`TypedStream::feed`] ends the stream with, with the last
    /// draft (a clone: the stream keeps its own).
    pub(crate) fn failure(&self, error: Error) -> StreamError<T> {
        StreamError::new(error, self.sink.slot.clone(), self.missing())
    }
}

/// The root was rejected without a reason of its own (a member was, and said so).
fn missing_root() -> crate::typed::protocol_items::Rejected {
    crate::typed::protocol_items::Rejected {
        error: serde::de::Error::custom("the value does not match the type"),
        span: 0..0,
    }
}

impl<T: StreamingModel> Default for TypedStream<T> {
    fn default() -> Self {
        Self::new()
    }
}

impl<T: StreamingModel> fmt::Debug for TypedStream<T> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("TypedStream")
            .field("offset", &self.scanner.offset())
            .field("draft", &self.sink.slot)
            .finish_non_exhaustive()
    }
}
