//! Paths to values: RFC 6901 JSON Pointers and their segments.

use std::fmt;

/// One step of a path, borrowed: an object key or an array index.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Step<'a> {
    /// An object member.
    Key(&'a str),
    /// An array element.
    Index(usize),
}

/// A path from the root, owned: the steps to a value.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub(crate) struct Path(Vec<Owned>);

#[derive(Debug, Clone, PartialEq, Eq)]
enum Owned {
    Key(Box<str>),
    Index(usize),
}

impl Path {
    /// Appends a step.
    pub(crate) fn push(&mut self, step: Step<'_>) {
        self.0.push(match step {
            Step::Key(k) => Owned::Key(k.into()),
            Step::Index(i) => Owned::Index(i),
        });
    }
}

impl fmt::Display for Path {
    /// The RFC 6901 JSON Pointer (`""` for the root).
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for step in &self.0 {
            let step = match step {
                Owned::Key(k) => Step::Key(k),
                Owned::Index(i) => Step::Index(*i),
            };
            write_step(step, f)?;
        }
        Ok(())
    }
}

/// Writes `/step` as a JSON Pointer segment, escaping `~` as `~0` and `/` as `~1`.
pub(crate) fn write_step(step: Step<'_>, out: &mut dyn fmt::Write) -> fmt::Result {
    out.write_char('/')?;
    match step {
        Step::Index(i) => write!(out, "{i}"),
        Step::Key(key) => {
            for c in key.chars() {
                match c {
                    '~' => out.write_str("~0")?,
                    '/' => out.write_str("~1")?,
                    c => out.write_char(c)?,
                }
            }
            Ok(())
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn escapes_tilde_and_slash() {
        let mut p = Path::default();
        p.push(Step::Key("a/b~c"));
        p.push(Step::Index(3));
        assert_eq!(p.to_string(), "/a~1b~0c/3");
        assert_eq!(Path::default().to_string(), "");
    }
}
