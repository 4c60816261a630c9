//! What a typed stream hands back: the fields of a chunk, and how it ends when it does
//! not end with a strict value.

use crate::error::{Error, ErrorKind};
use crate::typed::StreamingModel;
use std::fmt;

/// The fields that settled in one chunk, in settling order (from
/// [`TypedStream::feed`](crate::TypedStream::feed)). Owned: it does not borrow the stream.
pub struct Fields<T: StreamingModel>(std::vec::IntoIter<T::Field>);

impl<T: StreamingModel> Fields<T> {
    pub(crate) fn new(fields: Vec<T::Field>) -> Self {
        Fields(fields.into_iter())
    }
}

impl<T: StreamingModel> Iterator for Fields<T> {
    type Item = T::Field;
    fn next(&mut self) -> Option<T::Field> {
        self.0.next()
    }
    fn size_hint(&self) -> (usize, Option<usize>) {
        self.0.size_hint()
    }
}

impl<T: StreamingModel> ExactSizeIterator for Fields<T> {}

impl<T: StreamingModel> fmt::Debug for Fields<T> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_list().entries(self.0.as_slice()).finish()
    }
}

/// A chunk that failed: the [`Error`], and the fields that settled in the chunk before it
/// (delivered, not lost).
///
/// ```
/// use serde::Deserialize;
/// use settled::StreamingModel;
///
/// #[derive(Debug, Deserialize, StreamingModel)]
/// struct Answer { title: String, score: u8 }
///
/// let mut stream = Answer::stream();
/// let err = stream.feed(br#"{"title": "Hi", "score": 7x"#).unwrap_err();
/// assert_eq!(err.kind(), settled::ErrorKind::Invalid);
/// assert_eq!(format!("{:?}", err.fields()), r#"[Title("Hi")]"#);
/// ```
pub struct FeedError<T: StreamingModel> {
    error: Error,
    fields: Vec<T::Field>,
}

impl<T: StreamingModel> FeedError<T> {
    pub(crate) fn new(error: Error, fields: Vec<T::Field>) -> Self {
        FeedError { error, fields }
    }

    /// What kind of failure this is.
    pub fn kind(&self) -> ErrorKind {
        self.error.kind()
    }

    /// The error: position, message, path for validation errors.
    pub fn error(&self) -> &Error {
        &self.error
    }

    /// The fields that settled in the failing chunk before the error.
    pub fn fields(&self) -> &[T::Field] {
        &self.fields
    }

    /// Takes the fields that settled before the error.
    pub fn into_fields(self) -> Vec<T::Field> {
        self.fields
    }

    /// The error, without the fields.
    pub fn into_error(self) -> Error {
        self.error
    }
}

/// The error's accessors (`kind`, `offset`, `path`, …) read through.
impl<T: StreamingModel> std::ops::Deref for FeedError<T> {
    type Target = Error;
    fn deref(&self) -> &Error {
        &self.error
    }
}

impl<T: StreamingModel> fmt::Display for FeedError<T> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        self.error.fmt(f)
    }
}

impl<T: StreamingModel> fmt::Debug for FeedError<T> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("FeedError")
            .field("error", &self.error)
            .field("fields", &self.fields)
            .finish()
    }
}

impl<T: StreamingModel> std::error::Error for FeedError<T> {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        Some(&self.error)
    }
}

impl<T: StreamingModel> From<FeedError<T>> for Error {
    fn from(e: FeedError<T>) -> Self {
        e.error
    }
}

/// A typed stream that failed: the [`Error`], the last draft (nothing read is lost) and,
/// when the input was truncated, the required fields that never settled.
///
/// ```
/// use serde::Deserialize;
/// use settled::{ErrorKind, StreamingModel};
///
/// #[derive(Debug, Deserialize, StreamingModel)]
/// struct Answer { title: String, score: u8, note: Option<String> }
///
/// let mut stream = Answer::stream();
/// stream.feed(br#"{"title": "Half a"#)?;
/// let err = stream.finish().unwrap_err();
/// assert_eq!(err.kind(), ErrorKind::Truncated);
/// assert_eq!(err.missing(), [AnswerFieldName::Title, AnswerFieldName::Score]);
/// assert_eq!(err.draft().unwrap().title.as_deref(), Some("Half a"));
/// # Ok::<(), settled::Error>(())
/// ```
pub struct StreamError<T: StreamingModel> {
    pub(crate) error: Error,
    draft: Option<T::Draft>,
    missing: Vec<T::Name>,
}

impl<T: StreamingModel> StreamError<T> {
    pub(crate) fn new(error: Error, draft: Option<T::Draft>, missing: Vec<T::Name>) -> Self {
        StreamError {
            error,
            draft,
            missing,
        }
    }

    /// What kind of failure this is.
    pub fn kind(&self) -> ErrorKind {
        self.error.kind()
    }

    /// The error: position, message, path for validation errors.
    pub fn error(&self) -> &Error {
        &self.error
    }

    /// The last draft (`None`: the value never began).
    pub fn draft(&self) -> Option<&T::Draft> {
        self.draft.as_ref()
    }

    /// Takes the last draft.
    pub fn into_draft(self) -> Option<T::Draft> {
        self.draft
    }

    /// The required fields (serde's notion) that never settled.
    pub fn missing(&self) -> &[T::Name] {
        &self.missing
    }

    /// The JSON keys of [`StreamError::missing`]'s fields: what the model was asked for
    /// and did not complete (it never wrote them, or was cut inside them). A flattened struct's field has no key of its own: its struct's
    /// missing keys stand in its place.
    pub fn missing_keys(&self) -> Vec<&'static str> {
        if self.missing.is_empty() {
            return Vec::new();
        }
        T::missing_keys(self.draft.as_ref())
    }

    /// A short message for the model: the error's feedback, plus the required keys it
    /// did not complete when the reply was cut short.
    pub fn feedback(&self) -> String {
        let mut text = self.error.feedback();
        if self.kind() == ErrorKind::Truncated && !self.missing.is_empty() {
            text.push_str(" These required fields were missing or incomplete: ");
            text.push_str(&quoted(&self.missing_keys()));
            text.push('.');
        }
        text
    }
}

fn quoted(keys: &[&str]) -> String {
    keys.iter()
        .map(|k| format!("`{k}`"))
        .collect::<Vec<_>>()
        .join(", ")
}

/// The error's accessors (`offset`, `path`, …) read through.
impl<T: StreamingModel> std::ops::Deref for StreamError<T> {
    type Target = Error;
    fn deref(&self) -> &Error {
        &self.error
    }
}

impl<T: StreamingModel> fmt::Display for StreamError<T> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}", self.error)?;
        if self.kind() == ErrorKind::Truncated && !self.missing.is_empty() {
            write!(
                f,
                "; required fields not complete: {}",
                quoted(&self.missing_keys())
            )?;
        }
        Ok(())
    }
}

impl<T: StreamingModel> fmt::Debug for StreamError<T> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("StreamError")
            .field("error", &self.error)
            .field("missing", &self.missing)
            .field("draft", &self.draft)
            .finish()
    }
}

impl<T: StreamingModel> std::error::Error for StreamError<T> {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        Some(&self.error)
    }
}

impl<T: StreamingModel> From<StreamError<T>> for Error {
    fn from(e: StreamError<T>) -> Self {
        e.error
    }
}

/// A draft accepted as partial ([`TypedStream::finish_partial`](crate::TypedStream::finish_partial)):
/// what settled, what is missing, and why the value is not complete.
pub struct Partial<T: StreamingModel> {
    /// The last draft (`None`: the value never began).
    pub draft: Option<T::Draft>,
    /// The fields that settled.
    pub settled: Vec<T::Name>,
    /// The required fields that did not.
    pub missing: Vec<T::Name>,
    /// Why the value is not complete and valid (`None`: it is).
    pub error: Option<Error>,
}

impl<T: StreamingModel> Partial<T> {
    /// The value is complete and serde accepts it.
    pub fn is_complete(&self) -> bool {
        self.error.is_none() && self.missing.is_empty()
    }
}

impl<T: StreamingModel> fmt::Debug for Partial<T> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Partial")
            .field("draft", &self.draft)
            .field("settled", &self.settled)
            .field("missing", &self.missing)
            .field("error", &self.error)
            .finish()
    }
}
