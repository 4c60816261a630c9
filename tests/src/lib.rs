//! Integration, property and end-to-end tests for settled live in `tests/`; this library
//! only holds the README's snippets, compiled and run as doctests.

#[doc = include_str!("../../README.md")]
#[cfg(doctest)]
pub struct ReadmeDoctests;
