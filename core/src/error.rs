//! Errors: what went wrong, where, and whether more input could have fixed it.

use std::fmt;

/// What kind of failure ended a stream. Match on it to decide what to do next.
///
/// ```
/// let err = settled::DynamicStream::new()
///     .finish()
///     .unwrap_err();
/// assert_eq!(err.kind(), settled::ErrorKind::NoStructure);
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum ErrorKind {
    /// The input ended inside the value: more bytes would have completed it.
    Truncated,
    /// The input is not JSON, even read leniently.
    Invalid,
    /// No value ever started: the input ended, or the idle limit passed, in prose.
    NoStructure,
    /// More bytes were fed than the byte cap allows.
    TooLarge,
    /// Containers nested deeper than the depth cap allows.
    TooDeep,
    /// The value is JSON, but serde rejected it as the strict type.
    Validation,
    /// Only whitespace arrived inside the value for longer than the stall guard allows.
    Stalled,
}

impl ErrorKind {
    /// The snake-case name used on the command line and in NDJSON output.
    pub fn as_str(self) -> &'static str {
        match self {
            ErrorKind::Truncated => "truncated",
            ErrorKind::Invalid => "invalid",
            ErrorKind::NoStructure => "no_structure",
            ErrorKind::TooLarge => "too_large",
            ErrorKind::TooDeep => "too_deep",
            ErrorKind::Validation => "validation",
            ErrorKind::Stalled => "stalled",
        }
    }
}

impl fmt::Display for ErrorKind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

/// Why the scanner stopped, in words. Kept small and `Copy`; the text is produced on display.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[non_exhaustive]
pub(crate) enum Reason {
    EofWhileParsingObject,
    EofWhileParsingArray,
    EofWhileParsingString,
    EofWhileParsingNumber,
    EofWhileParsingValue,
    EofInTentativeRoot,
    EofBeforeValue,
    /// Strict mode, where any JSON value is a root: the input held none.
    EofBeforeStrictValue,
    EofAfterFalseStart(u64),
    /// The source ended the input early, for the cause it named (a provider's token
    /// limit: its finish reason on the wire).
    Cut(&'static str),
    EofInThink,
    IdleLimit(u64),
    ExpectedColon,
    ExpectedCommaOrEnd,
    ExpectedKey,
    ExpectedValue,
    TrailingComma,
    TrailingCharacters,
    ControlCharacterInString,
    InvalidEscape,
    InvalidHexEscape,
    LoneSurrogate,
    InvalidUtf8,
    InvalidNumber,
    LeadingZero,
    InvalidLiteral,
    CommentInStrict,
    InvalidComment,
    TooLarge(u64),
    TooDeep(usize),
    Validation,
    Stalled(u64),
}

impl Reason {
    pub(crate) fn kind(self) -> ErrorKind {
        use Reason::*;
        match self {
            EofWhileParsingObject
            | EofWhileParsingArray
            | EofWhileParsingString
            | EofWhileParsingNumber
            | EofWhileParsingValue
            | EofInTentativeRoot
            | Cut(_) => ErrorKind::Truncated,
            EofBeforeValue
            | EofBeforeStrictValue
            | EofAfterFalseStart(_)
            | EofInThink
            | IdleLimit(_) => ErrorKind::NoStructure,
            TooLarge(_) => ErrorKind::TooLarge,
            TooDeep(_) => ErrorKind::TooDeep,
            Validation => ErrorKind::Validation,
            Stalled(_) => ErrorKind::Stalled,
            _ => ErrorKind::Invalid,
        }
    }
}

impl fmt::Display for Reason {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        use Reason::*;
        match self {
            EofWhileParsingObject => f.write_str("EOF while parsing an object"),
            EofWhileParsingArray => f.write_str("EOF while parsing an array"),
            EofWhileParsingString => f.write_str("EOF while parsing a string"),
            EofWhileParsingNumber => f.write_str("EOF while parsing a number"),
            EofWhileParsingValue => f.write_str("EOF while parsing a value"),
            EofInTentativeRoot => f.write_str("EOF while parsing a value that began in prose"),
            EofBeforeValue => f.write_str("no JSON object or array in the input"),
            EofBeforeStrictValue => f.write_str("no JSON value in the input"),
            Cut(cause) => write!(
                f,
                "the input was cut short (`{cause}`) before the value was complete"
            ),
            EofAfterFalseStart(offset) => write!(
                f,
                "no JSON object or array in the input (the bracket at byte {offset} began prose, not JSON)"
            ),
            EofInThink => f.write_str("EOF inside a reasoning block, before any JSON value"),
            IdleLimit(n) => write!(f, "no JSON value started within the first {}", Bytes(*n)),
            ExpectedColon => f.write_str("expected `:`"),
            ExpectedCommaOrEnd => f.write_str("expected `,` or the end of the container"),
            ExpectedKey => f.write_str("key must be a string"),
            ExpectedValue => f.write_str("expected value"),
            TrailingComma => f.write_str("trailing comma"),
            TrailingCharacters => f.write_str("trailing characters"),
            ControlCharacterInString => {
                f.write_str("control character (\\u0000-\\u001F) found while parsing a string")
            }
            InvalidEscape => f.write_str("invalid escape"),
            InvalidHexEscape => f.write_str("invalid \\u escape: expected 4 hex digits"),
            LoneSurrogate => f.write_str("lone surrogate in hex escape"),
            InvalidUtf8 => f.write_str("invalid UTF-8 in string"),
            InvalidNumber => f.write_str("invalid number"),
            LeadingZero => f.write_str("invalid number: leading zero"),
            InvalidLiteral => f.write_str("expected `true`, `false` or `null`"),
            CommentInStrict => f.write_str("comments are not allowed in strict mode"),
            InvalidComment => f.write_str("expected `//` or `/*` to start a comment"),
            TooLarge(n) => write!(f, "input exceeds the byte limit of {}", Bytes(*n)),
            TooDeep(n) => write!(f, "nesting exceeds the depth limit of {n}"),
            Validation => f.write_str("the value does not match the type"),
            Stalled(n) => write!(
                f,
                "more than {} of whitespace or comments in a row inside the value",
                Bytes(*n)
            ),
        }
    }
}

/// A count of bytes as a person writes it: `1 byte`, `0 bytes`, `4096 bytes`.
struct Bytes(u64);

impl fmt::Display for Bytes {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.0 {
            1 => f.write_str("1 byte"),
            n => write!(f, "{n} bytes"),
        }
    }
}

/// Where something is in the input: the byte offset (every byte fed counts, prose
/// included) and the 1-based line and column (in bytes) of that byte.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct Position {
    /// Byte offset from the first byte fed.
    pub offset: u64,
    /// 1-based line.
    pub line: u64,
    /// 1-based column, in bytes.
    pub column: u64,
}

impl fmt::Display for Position {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "line {} column {} (byte {})",
            self.line, self.column, self.offset
        )
    }
}

/// The 1-based line and column of byte `at` of `text` (past the end: of the end).
pub(crate) fn line_column(text: &[u8], at: usize) -> (u64, u64) {
    let head = text.get(..at).unwrap_or(text);
    match head.iter().rposition(|&c| c == b'\n') {
        Some(nl) => {
            let lines = head.iter().filter(|&&c| c == b'\n').count() as u64;
            (1 + lines, (head.len() - nl) as u64)
        }
        None => (1, head.len() as u64 + 1),
    }
}

/// A failed stream: a [`ErrorKind`], where in the input ([`Error::position`]), and a
/// message.
///
/// The value read before the failure is kept by the stream that returned the error.
/// [`Error::feedback`] renders a short message to send back to the model.
#[derive(Clone, PartialEq, Eq)]
pub struct Error(Box<ErrorImpl>);

#[derive(Debug, Clone, PartialEq, Eq)]
enum ErrorImpl {
    /// The scanner stopped.
    Scan { reason: Reason, at: Position },
    /// serde rejected a value.
    Validation {
        validation: Validation,
        at: Position,
    },
}

/// What serde rejected, and where.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct Validation {
    /// JSON Pointer of the rejected value (`""`: the root).
    pub(crate) path: String,
    /// serde's message, without its position.
    pub(crate) message: String,
    /// The rejected value's JSON text, shortened.
    pub(crate) value: Option<String>,
    /// Line and column in the value's clean text.
    pub(crate) clean: (u64, u64),
}

/// Longest offending value quoted in a message.
const QUOTE_MAX: usize = 60;

/// `text` shortened to [`QUOTE_MAX`] characters, with an ellipsis.
pub(crate) fn shorten(text: &str) -> String {
    let mut chars = text.chars();
    let head: String = chars.by_ref().take(QUOTE_MAX).collect();
    if chars.next().is_some() {
        format!("{head}…")
    } else {
        head
    }
}

/// serde_json's message without the ` at line L column C` it appends.
pub(crate) fn serde_message(error: &serde_json::Error) -> String {
    let text = error.to_string();
    match text.rfind(" at line ") {
        Some(at) if text[at..].contains(" column ") => text[..at].to_string(),
        _ => text,
    }
}

impl Error {
    #[cold]
    pub(crate) fn new(reason: Reason, offset: u64, line: u64, column: u64) -> Self {
        let at = Position {
            offset,
            line,
            column,
        };
        Error(Box::new(ErrorImpl::Scan { reason, at }))
    }

    /// serde rejected a value at input `offset`, whose line and column are `position`.
    #[cold]
    pub(crate) fn validation(validation: Validation, offset: u64, position: (u64, u64)) -> Self {
        let at = Position {
            offset,
            line: position.0,
            column: position.1,
        };
        Error(Box::new(ErrorImpl::Validation { validation, at }))
    }

    fn reason_code(&self) -> Reason {
        match &*self.0 {
            ErrorImpl::Scan { reason, .. } => *reason,
            ErrorImpl::Validation { .. } => Reason::Validation,
        }
    }

    fn details(&self) -> Option<&Validation> {
        match &*self.0 {
            ErrorImpl::Validation { validation, .. } => Some(validation),
            ErrorImpl::Scan { .. } => None,
        }
    }

    /// What kind of failure this is.
    pub fn kind(&self) -> ErrorKind {
        self.reason_code().kind()
    }

    /// Where in the input: the byte at which the error was detected (for validation
    /// errors: where the offending value begins, or for a container refused for what it
    /// lacks, a missing field or element, its closing bracket).
    pub fn position(&self) -> Position {
        match &*self.0 {
            ErrorImpl::Scan { at, .. } | ErrorImpl::Validation { at, .. } => *at,
        }
    }

    /// Byte offset of [`Error::position`].
    pub fn offset(&self) -> u64 {
        self.position().offset
    }

    /// 1-based line of [`Error::position`].
    pub fn line(&self) -> u64 {
        self.position().line
    }

    /// 1-based column, in bytes, of [`Error::position`].
    pub fn column(&self) -> u64 {
        self.position().column
    }

    /// True when more input could have completed the value ([`ErrorKind::Truncated`]).
    pub fn is_incomplete(&self) -> bool {
        self.kind() == ErrorKind::Truncated
    }

    /// The message without the position, e.g. ``expected `:` ``.
    pub fn reason(&self) -> String {
        match self.details() {
            Some(v) => v.message.clone(),
            None => self.reason_code().to_string(),
        }
    }

    /// For [`ErrorKind::Validation`]: the JSON Pointer of the rejected value (`""` for the
    /// root), with the keys the model wrote.
    ///
    /// It goes as deep as the stream can tell, which is deeper than `serde_path_to_error`
    /// where serde reads a value from a buffer: inside an internally or adjacently tagged
    /// enum's content, or a flattened struct, it names the member refused (`/steps/0/top_k`,
    /// where serde's path stops at `/steps/0`). A refused key is named by its own path: a
    /// repeated field (`/id`, where serde names the object), a variant serde does not know
    /// (`/steps/0/Nope`); so is an element past a tuple's length (`/pair/2`).
    pub fn path(&self) -> Option<&str> {
        self.details().map(|v| v.path.as_str())
    }

    /// For [`ErrorKind::Validation`]: the rejected value's JSON text (shortened).
    pub fn value(&self) -> Option<&str> {
        self.details().and_then(|v| v.value.as_deref())
    }

    /// For [`ErrorKind::Validation`]: line and column in the value's clean text (what
    /// serde read: the value without prose, comments or trailing commas).
    pub fn clean_position(&self) -> Option<(u64, u64)> {
        self.details().map(|v| v.clean)
    }

    /// A short message to append to the conversation so the model can fix just this:
    /// where, what was expected, what came.
    ///
    /// ```
    /// let mut stream = settled::DynamicStream::new();
    /// let err = stream.feed(b"{\"a\": tru}").unwrap_err();
    /// assert_eq!(
    ///     err.feedback(),
    ///     "Your reply is not valid JSON: expected `true`, `false` or `null` at line 1 column 10. \
    ///      Reply again with the whole JSON value, valid this time."
    /// );
    /// ```
    pub fn feedback(&self) -> String {
        let position = self.position();
        let at = format!("line {} column {}", position.line, position.column);
        match (self.details(), self.reason_code()) {
            (Some(v), _) => {
                let path = if v.path.is_empty() {
                    "the top level".to_owned()
                } else {
                    format!("`{}`", v.path)
                };
                let got = match &v.value {
                    Some(value) => format!(" (you wrote `{value}`)"),
                    None => String::new(),
                };
                format!(
                    "Your JSON does not match the schema at {path}: {}{got}. Reply again with \
                     the whole JSON value, with that fixed.",
                    v.message
                )
            }
            (None, Reason::TooLarge(n)) => format!(
                "Your reply was longer than {} and was cut off; it may be repeating \
                 itself. Reply again with a shorter JSON value.",
                Bytes(n)
            ),
            (None, Reason::TooDeep(n)) => format!(
                "Your JSON nests deeper than {n} levels. Reply again with a flatter JSON value."
            ),
            (None, Reason::Cut(_)) => "Your reply reached the output token limit before \
                 the JSON was complete. Reply again with a shorter JSON value."
                .to_string(),
            (None, Reason::Stalled(_)) => format!(
                "Your reply stalled in a run of whitespace or comments at {at}. Reply again with the whole \
                 JSON value, compactly."
            ),
            (None, reason) => match reason.kind() {
                ErrorKind::Truncated => format!(
                    "Your reply ended before the JSON was complete ({reason}). Reply again with \
                     the whole JSON value."
                ),
                ErrorKind::NoStructure => "Your reply did not contain a JSON object. Reply again \
                     with the JSON object only."
                    .to_string(),
                _ => format!(
                    "Your reply is not valid JSON: {reason} at {at}. Reply again with the whole \
                     JSON value, valid this time."
                ),
            },
        }
    }
}

impl fmt::Display for Error {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let at = self.position();
        if let Some(v) = self.details() {
            let path = if v.path.is_empty() {
                "the root"
            } else {
                v.path.as_str()
            };
            write!(f, "invalid value at {path}: {}", v.message)?;
            if let Some(value) = &v.value {
                write!(f, " (got `{value}`)")?;
            }
            return write!(f, " at {at}");
        }
        write!(f, "{} at {at}", self.reason_code())
    }
}

impl fmt::Debug for Error {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let at = self.position();
        write!(
            f,
            "Error({:?}, {:?}, offset: {}, line: {}, column: {})",
            self.kind(),
            self.reason(),
            at.offset,
            at.line,
            at.column
        )
    }
}

impl std::error::Error for Error {}

#[cfg(test)]
mod tests {
    use super::Reason;

    #[test]
    fn a_count_of_one_byte_is_singular() {
        assert_eq!(
            Reason::TooLarge(1).to_string(),
            "input exceeds the byte limit of 1 byte"
        );
        assert_eq!(
            Reason::IdleLimit(0).to_string(),
            "no JSON value started within the first 0 bytes"
        );
        assert_eq!(
            Reason::Stalled(1).to_string(),
            "more than 1 byte of whitespace or comments in a row inside the value"
        );
        assert_eq!(
            Reason::TooLarge(4096).to_string(),
            "input exceeds the byte limit of 4096 bytes"
        );
    }
}
