//! Strict-mode conformance against JSONTestSuite (github.com/nst/JSONTestSuite, `test_parsing/`).
//!
//! Every `y_*.json` fixture must be accepted and must decode to the same value serde_json reads
//! from the file; every `n_*.json` fixture must be rejected. Each file is fed whole, one byte at
//! a time and in 7-byte chunks, and all failures are collected so one run lists every one.
//!
//! The `i_*.json` (implementation-defined) fixtures live in `implementation_defined/`: either
//! answer is allowed, but the answer must not depend on how the input was chunked.
//!
//! `fixtures/conformance/SKIPPED.md` lists the suite files that are not vendored, and why.

use std::fmt::Write as _;
use std::fs;
use std::panic::{self, AssertUnwindSafe};
use std::path::{Path, PathBuf};

use settled::{DynamicStream, Options};

/// How a file is cut into chunks before feeding.
#[derive(Debug, Clone, Copy)]
enum Feed {
    Whole,
    Chunks(usize),
}

impl Feed {
    const ALL: [Feed; 3] = [Feed::Whole, Feed::Chunks(1), Feed::Chunks(7)];

    fn label(self) -> String {
        match self {
            Feed::Whole => "whole".to_owned(),
            Feed::Chunks(n) => format!("{n}-byte chunks"),
        }
    }
}

/// What settled made of one file under one feeding.
#[derive(Debug, Clone, PartialEq)]
enum Outcome {
    /// `finish` returned a value; its `to_json`.
    Accepted(String),
    /// `feed` (during the named stage) or `finish` failed.
    Rejected {
        stage: &'static str,
        kind: String,
        message: String,
    },
    /// The scanner panicked.
    Panicked(String),
}

impl Outcome {
    fn describe(&self) -> String {
        match self {
            Outcome::Accepted(json) => format!("accepted as {}", truncate(json, 120)),
            Outcome::Rejected {
                stage,
                kind,
                message,
            } => format!("rejected in {stage} ({kind}): {message}"),
            Outcome::Panicked(message) => format!("PANICKED: {message}"),
        }
    }

    /// Accept/reject only, for comparing feedings of implementation-defined files.
    fn verdict(&self) -> String {
        match self {
            Outcome::Accepted(json) => format!("accepted as {}", truncate(json, 120)),
            Outcome::Rejected { .. } => "rejected".to_owned(),
            Outcome::Panicked(message) => format!("panicked: {message}"),
        }
    }
}

fn truncate(text: &str, max: usize) -> String {
    if text.len() <= max {
        return text.to_owned();
    }
    let mut end = max;
    while !text.is_char_boundary(end) {
        end -= 1;
    }
    format!("{}... ({} bytes)", &text[..end], text.len())
}

fn run(bytes: &[u8], feed: Feed) -> Outcome {
    let result = panic::catch_unwind(AssertUnwindSafe(|| {
        let mut stream = DynamicStream::with_options(Options::default().strict(true));
        let chunk_size = match feed {
            Feed::Whole => bytes.len().max(1),
            Feed::Chunks(n) => n,
        };
        for chunk in bytes.chunks(chunk_size) {
            if let Err(err) = stream.feed(chunk) {
                return Outcome::Rejected {
                    stage: "feed",
                    kind: err.kind().to_string(),
                    message: err.to_string(),
                };
            }
        }
        match stream.finish() {
            Ok(value) => Outcome::Accepted(value.to_json()),
            Err(err) => Outcome::Rejected {
                stage: "finish",
                kind: err.kind().to_string(),
                message: err.to_string(),
            },
        }
    }));
    result.unwrap_or_else(|payload| {
        let message = payload
            .downcast_ref::<&str>()
            .map(|s| (*s).to_owned())
            .or_else(|| payload.downcast_ref::<String>().cloned())
            .unwrap_or_else(|| "non-string panic payload".to_owned());
        Outcome::Panicked(message)
    })
}

fn fixture_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("fixtures/conformance")
}

/// The `*.json` files directly in `dir`, sorted by name.
fn json_files(dir: &Path) -> Vec<(String, Vec<u8>)> {
    let entries = fs::read_dir(dir).unwrap_or_else(|e| panic!("reading {}: {e}", dir.display()));
    let mut files: Vec<(String, Vec<u8>)> = entries
        .map(|entry| entry.expect("directory entry").path())
        .filter(|path| path.is_file() && path.extension().is_some_and(|ext| ext == "json"))
        .map(|path| {
            let name = path
                .file_name()
                .expect("file name")
                .to_string_lossy()
                .into_owned();
            let bytes =
                fs::read(&path).unwrap_or_else(|e| panic!("reading {}: {e}", path.display()));
            (name, bytes)
        })
        .collect();
    files.sort();
    files
}

/// Checks one `y_` file under one feeding; `None` when it passes.
fn check_accept(name: &str, bytes: &[u8], feed: Feed) -> Option<String> {
    let outcome = run(bytes, feed);
    let Outcome::Accepted(json) = &outcome else {
        return Some(format!(
            "{name} [{}]: expected ACCEPT, {}",
            feed.label(),
            outcome.describe()
        ));
    };
    // serde_json cannot read every valid document (e.g. numbers beyond f64); then there is
    // nothing to compare against.
    // Duplicate keys keep their first value in settled (a settled value never changes).
    let Ok(expected) = settled_tests::FirstWins::parse(bytes) else {
        return None;
    };
    match serde_json::from_str::<serde_json::Value>(json) {
        Ok(actual) if actual == expected => None,
        Ok(actual) => Some(format!(
            "{name} [{}]: accepted, but value differs: settled {} vs serde_json {}",
            feed.label(),
            truncate(&actual.to_string(), 120),
            truncate(&expected.to_string(), 120)
        )),
        Err(err) => Some(format!(
            "{name} [{}]: accepted, but to_json output is not JSON ({err}): {}",
            feed.label(),
            truncate(json, 120)
        )),
    }
}

/// Checks one `n_` file under one feeding; `None` when it passes.
fn check_reject(name: &str, bytes: &[u8], feed: Feed) -> Option<String> {
    match run(bytes, feed) {
        Outcome::Rejected { .. } => None,
        outcome => Some(format!(
            "{name} [{}]: expected REJECT, {}",
            feed.label(),
            outcome.describe()
        )),
    }
}

fn report(failures: &[String], checked: usize, what: &str) -> String {
    let mut out = format!("{} of {checked} {what} checks failed:\n", failures.len());
    for failure in failures {
        let _ = writeln!(out, "  - {failure}");
    }
    out
}

#[test]
fn json_test_suite_strict() {
    let files = json_files(&fixture_dir());
    assert!(
        files.len() >= 250,
        "expected at least 250 fixtures in {}, found {}",
        fixture_dir().display(),
        files.len()
    );

    let mut failures = Vec::new();
    let mut checked = 0;
    let (mut accepts, mut rejects) = (0, 0);
    for (name, bytes) in &files {
        let expect_accept = if name.starts_with("y_") {
            accepts += 1;
            true
        } else if name.starts_with("n_") {
            rejects += 1;
            false
        } else {
            failures.push(format!(
                "{name}: unexpected fixture (only y_ and n_ belong here)"
            ));
            continue;
        };
        for feed in Feed::ALL {
            checked += 1;
            let failure = if expect_accept {
                check_accept(name, bytes, feed)
            } else {
                check_reject(name, bytes, feed)
            };
            failures.extend(failure);
        }
    }

    assert!(accepts >= 90, "only {accepts} y_ fixtures");
    assert!(rejects >= 150, "only {rejects} n_ fixtures");
    assert!(
        failures.is_empty(),
        "{}",
        report(
            &failures,
            checked,
            &format!("({accepts} y_ + {rejects} n_ files x 3 feedings)")
        )
    );
}

#[test]
fn implementation_defined_is_chunking_independent() {
    let dir = fixture_dir().join("implementation_defined");
    let files = json_files(&dir);
    assert!(
        files.len() >= 15,
        "expected at least 15 fixtures in {}, found {}",
        dir.display(),
        files.len()
    );

    let mut failures = Vec::new();
    for (name, bytes) in &files {
        let whole = run(bytes, Feed::Whole);
        if let Outcome::Panicked(message) = &whole {
            failures.push(format!("{name} [whole]: PANICKED: {message}"));
            continue;
        }
        for feed in [Feed::Chunks(1), Feed::Chunks(7)] {
            let chunked = run(bytes, feed);
            if chunked.verdict() != whole.verdict() {
                failures.push(format!(
                    "{name}: whole {} but {} {}",
                    whole.describe(),
                    feed.label(),
                    chunked.describe()
                ));
            }
        }
    }
    assert!(
        failures.is_empty(),
        "{}",
        report(&failures, files.len(), "implementation-defined")
    );
}
