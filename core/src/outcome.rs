//! How a typed stream ends when it does not end with a strict value.

use crate::error::{Error, ErrorKind};
use crate::typed::{FieldName, Streamable};
use std::fmt;

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
pub struct StreamError<T: Streamable> {
    pub(crate) error: Error,
    draft: Option<T::Draft>,
    missing: Vec<T::Name>,
}

impl<T: Streamable> StreamError<T> {
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

    /// A short message for the model: the error's feedback, plus the required fields it
    /// never wrote when the reply was cut short.
    pub fn feedback(&self) -> String {
        let mut text = self.error.feedback();
        if self.kind() == ErrorKind::Truncated && !self.missing.is_empty() {
            text.push_str(" These required fields were missing: ");
            text.push_str(&keys(&self.missing));
            text.push('.');
        }
        text
    }
}

fn keys<N: FieldName>(names: &[N]) -> String {
    names
        .iter()
        .map(|n| format!("`{}`", n.key()))
        .collect::<Vec<_>>()
        .join(", ")
}

impl<T: Streamable> fmt::Display for StreamError<T> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}", self.error)?;
        if self.kind() == ErrorKind::Truncated && !self.missing.is_empty() {
            write!(
                f,
                "; required fields never written: {}",
                keys(&self.missing)
            )?;
        }
        Ok(())
    }
}

impl<T: Streamable> fmt::Debug for StreamError<T> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("StreamError")
            .field("error", &self.error)
            .field("missing", &self.missing)
            .field("draft", &self.draft)
            .finish()
    }
}

impl<T: Streamable> std::error::Error for StreamError<T> {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        Some(&self.error)
    }
}

impl<T: Streamable> From<StreamError<T>> for Error {
    fn from(e: StreamError<T>) -> Self {
        e.error
    }
}

/// A draft accepted as partial ([`Stream::finish_partial`](crate::Stream::finish_partial)):
/// what settled, what is missing, and why the value is not complete.
pub struct Partial<T: Streamable> {
    /// The last draft (`None`: the value never began).
    pub draft: Option<T::Draft>,
    /// The fields that settled.
    pub settled: Vec<T::Name>,
    /// The required fields that did not.
    pub missing: Vec<T::Name>,
    /// Why the value is not complete and valid (`None`: it is).
    pub error: Option<Error>,
}

impl<T: Streamable> Partial<T> {
    /// The value is complete and serde accepts it.
    pub fn is_complete(&self) -> bool {
        self.error.is_none() && self.missing.is_empty()
    }
}

impl<T: Streamable> fmt::Debug for Partial<T> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Partial")
            .field("draft", &self.draft)
            .field("settled", &self.settled)
            .field("missing", &self.missing)
            .field("error", &self.error)
            .finish()
    }
}
