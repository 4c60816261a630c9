//! Validation errors: what serde rejected, where it sits in the input, and the path to it.

use crate::error::{Error, Validation, serde_message, shorten};
use crate::scanner::Scanner;
use crate::typed::Rejection;
use crate::typed::protocol_items::Rejected;

/// The error for a value serde rejected as it settled: it points at the value.
pub(crate) fn rejection(scanner: &Scanner, rejection: &Rejection) -> Error {
    at(scanner, rejection.path.to_string(), &rejection.rejected)
}

/// The error for the root itself (a value that could not be made from its draft).
pub(crate) fn rejected_root(scanner: &Scanner, rejected: &Rejected) -> Error {
    at(scanner, String::new(), rejected)
}

fn at(scanner: &Scanner, path: String, rejected: &Rejected) -> Error {
    let span = rejected.span.clone();
    // A container's own rejection (a missing field or element) points at its closing
    // bracket: no value the model wrote.
    let text = scanner
        .clean_text(span.clone())
        .filter(|t| !matches!(*t, b"" | b"}" | b"]"));
    let value = text.map(|t| shorten(&String::from_utf8_lossy(t)));
    let position = scanner.clean_position(span.start);
    let validation = Validation {
        path,
        message: serde_message(&rejected.error),
        value,
        clean: scanner.clean_line_column(span.start),
    };
    Error::validation(
        validation,
        scanner.root_offset() + span.start as u64,
        position,
    )
}
