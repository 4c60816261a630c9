//! The final serde call, with paths: validation errors that say where and what.

use crate::error::{Error, Validation, serde_message, shorten};
use crate::scanner::Scanner;
use crate::typed::Rejection;
use serde::de::DeserializeOwned;

/// Deserializes `text` (the scanner's clean text, or a prefix of it closed early) as `V`;
/// on failure, the error names the JSON Pointer serde stopped at and the value there.
pub(crate) fn deserialize<V: DeserializeOwned>(scanner: &Scanner, text: &[u8]) -> Result<V, Error> {
    let mut de = serde_json::Deserializer::from_slice(text);
    match serde_path_to_error::deserialize::<_, V>(&mut de) {
        Ok(value) => Ok(value),
        Err(e) => {
            let path = pointer(e.path());
            let inner = e.inner();
            let at = offset_of(text, inner.line(), inner.column());
            let value = serde_json::from_slice::<serde_json::Value>(text)
                .ok()
                .and_then(|root| root.pointer(&path).map(|v| shorten(&v.to_string())));
            let (line, column) = (inner.line() as u64, inner.column() as u64);
            Err(error_at(
                scanner,
                at,
                path,
                serde_message(inner),
                value,
                line,
                column,
            ))
        }
    }
}

/// The error for a value serde rejected as it settled: it points at the value.
pub(crate) fn rejection(scanner: &Scanner, rejection: &Rejection) -> Error {
    let span = rejection.rejected.span.clone();
    let text = scanner.clean().get(span.clone()).unwrap_or_default();
    let value = Some(shorten(&String::from_utf8_lossy(text)));
    let head = scanner.clean().get(..span.start).unwrap_or_default();
    let clean_line = 1 + head.iter().filter(|&&c| c == b'\n').count() as u64;
    let clean_column = match head.iter().rposition(|&c| c == b'\n') {
        Some(nl) => (span.start - nl) as u64,
        None => span.start as u64 + 1,
    };
    let message = serde_message(&rejection.rejected.error);
    error_at(
        scanner,
        span.start,
        rejection.pointer(),
        message,
        value,
        clean_line,
        clean_column,
    )
}

/// The error for a strict value that breaks a `#[settled(...)]` constraint.
pub(crate) fn violation(
    scanner: &Scanner,
    text: &[u8],
    violation: crate::typed::Violation,
) -> Error {
    let span = locate(text, &violation.path);
    let at = span.as_ref().map_or(0, |s| s.start);
    let value = span
        .and_then(|s| text.get(s))
        .map(|raw| shorten(&String::from_utf8_lossy(raw)));
    let head = text.get(..at).unwrap_or_default();
    let clean_line = 1 + head.iter().filter(|&&c| c == b'\n').count() as u64;
    let clean_column = match head.iter().rposition(|&c| c == b'\n') {
        Some(nl) => (at - nl) as u64,
        None => at as u64 + 1,
    };
    error_at(
        scanner,
        at,
        violation.path,
        violation.message,
        value,
        clean_line,
        clean_column,
    )
}

/// The span of the value at JSON Pointer `pointer` in the clean text `text`, found by
/// scanning it again with a sink that follows the path (only on an error).
fn locate(text: &[u8], pointer: &str) -> Option<std::ops::Range<usize>> {
    use crate::dynamic::{Segment, push_pointer};
    use crate::sink::{Raw, Sink};

    #[derive(Default)]
    struct Find<'p> {
        target: &'p str,
        /// Per open container: its segment in its parent, and its next index (arrays).
        open: Vec<(Option<Segment>, Option<usize>)>,
        key: String,
        found: Option<std::ops::Range<usize>>,
    }

    impl Find<'_> {
        /// The segment of the value that begins or settles now.
        fn segment(&mut self, settling: bool) -> Option<Segment> {
            match self.open.last_mut() {
                Some((_, Some(next))) => {
                    let i = *next;
                    if settling {
                        *next += 1;
                    }
                    Some(Segment::Index(i))
                }
                Some((_, None)) => Some(Segment::Key(self.key.as_str().into())),
                None => None,
            }
        }
        fn pointer(&self, last: Option<&Segment>) -> String {
            let mut p = String::new();
            for segment in self.open.iter().filter_map(|(s, _)| s.as_ref()).chain(last) {
                push_pointer(&mut p, segment);
            }
            p
        }
        fn scalar(&mut self, raw: Raw<'_>) {
            let segment = self.segment(true);
            if self.found.is_none() && self.pointer(segment.as_ref()) == self.target {
                self.found = Some(raw.span());
            }
        }
        fn open(&mut self, array: bool) {
            let segment = self.segment(false);
            self.open.push((segment, array.then_some(0)));
        }
        fn close(&mut self, raw: Raw<'_>) {
            if self.found.is_none() && self.pointer(None) == self.target {
                self.found = Some(raw.span());
            }
            self.open.pop();
            if let Some((_, Some(next))) = self.open.last_mut() {
                *next += 1;
            }
        }
    }

    impl Sink for Find<'_> {
        fn begin_object(&mut self) {
            self.open(false);
        }
        fn begin_array(&mut self) {
            self.open(true);
        }
        fn end_object(&mut self, raw: Raw<'_>) {
            self.close(raw);
        }
        fn end_array(&mut self, raw: Raw<'_>) {
            self.close(raw);
        }
        fn key(&mut self, key: &str, _raw: Raw<'_>) {
            self.key.clear();
            self.key.push_str(key);
        }
        fn end_string(&mut self, raw: Raw<'_>) {
            self.scalar(raw);
        }
        fn number(&mut self, _: &str, raw: Raw<'_>) {
            self.scalar(raw);
        }
        fn bool(&mut self, _: bool, raw: Raw<'_>) {
            self.scalar(raw);
        }
        fn null(&mut self, raw: Raw<'_>) {
            self.scalar(raw);
        }
    }

    let mut find = Find {
        target: pointer,
        ..Find::default()
    };
    let mut scanner = Scanner::new(crate::Options::default().strict(true));
    scanner.feed(text, &mut find).ok()?;
    let _ = scanner.finish(&mut find);
    find.found
}

/// The root was rejected but serde gives no reason on the whole text.
pub(crate) fn root_rejected(scanner: &Scanner) -> Error {
    let message = "the value does not match the type".to_string();
    error_at(scanner, 0, String::new(), message, None, 1, 1)
}

fn error_at(
    scanner: &Scanner,
    at: usize,
    path: String,
    message: String,
    value: Option<String>,
    clean_line: u64,
    clean_column: u64,
) -> Error {
    let (line, column) = scanner.clean_position(at);
    let validation = Validation {
        path,
        message,
        value,
        clean_line,
        clean_column,
    };
    Error::validation(validation, scanner.root_offset() + at as u64, line, column)
}

/// serde_path_to_error's path as an RFC 6901 JSON Pointer.
fn pointer(path: &serde_path_to_error::Path) -> String {
    use serde_path_to_error::Segment;
    let mut out = String::new();
    for segment in path.iter() {
        match segment {
            Segment::Seq { index } => {
                out.push('/');
                out.push_str(&index.to_string());
            }
            Segment::Map { key } => {
                out.push('/');
                out.push_str(&key.replace('~', "~0").replace('/', "~1"));
            }
            Segment::Enum { .. } => {}
            Segment::Unknown => break,
        }
    }
    out
}

/// Byte offset of serde_json's 1-based `line` and `column` in `text` (column 0: the line
/// start), clamped to the text.
fn offset_of(text: &[u8], line: usize, column: usize) -> usize {
    let mut start = 0;
    for _ in 1..line {
        match text
            .get(start..)
            .and_then(|t| t.iter().position(|&c| c == b'\n'))
        {
            Some(nl) => start += nl + 1,
            None => break,
        }
    }
    (start + column.saturating_sub(1)).min(text.len())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn offsets_follow_lines() {
        let text = b"{\n  \"a\": 1,\n  \"b\": x\n}";
        assert_eq!(offset_of(text, 1, 1), 0);
        assert_eq!(offset_of(text, 3, 8), 19);
        assert_eq!(text[19], b'x');
        assert_eq!(offset_of(text, 9, 9), text.len());
    }
}
