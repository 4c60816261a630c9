//! Enum names as models write them: `#[settled(normalize)]` on a unit enum accepts a
//! variant's name (or alias) in another case or with other separators (`Positive`,
//! `IN PROGRESS`, `in-progress` for `in_progress`), settles the canonical variant, and
//! leaves the verdict to serde: the text serde reads is the canonical name.

use super::protocol::{Event, Flow, Member, Rejected, Slot, from_raw};
use serde::de::DeserializeOwned;

/// A separator between words: `in progress`, `in_progress`, `in-progress`.
fn is_separator(c: char) -> bool {
    c.is_whitespace() || matches!(c, '_' | '-')
}

/// `text` folded for comparison: in lower case, without the whitespace around it, and
/// without the separators between its words (a run of them between two letters or
/// digits). Every other character stays: `C#` is not `C++`, `+1` not `-1`, `x<0` not
/// `x>0`.
fn fold(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    let chars = text.trim().chars();
    let mut previous = None::<char>;
    let mut run = String::new();
    for c in chars {
        if is_separator(c) {
            run.push(c);
            continue;
        }
        if !run.is_empty() {
            // Dropped only between two words.
            let between = previous.is_some_and(char::is_alphanumeric) && c.is_alphanumeric();
            if !between {
                out.push_str(&run);
            }
            run.clear();
        }
        out.extend(c.to_lowercase());
        previous = Some(c);
    }
    out.push_str(&run);
    out
}

/// The canonical name of the one variant `text` names once folded (`variants`: per
/// variant, the names serde reads for it, the canonical one first); `None` if no variant
/// or more than one matches. Text with no letter or digit names none: a name of symbols
/// only (`==`) is read as written, or not at all (`!=` is not `==`).
pub(crate) fn canonical<'n>(text: &str, variants: &[&[&'n str]]) -> Option<&'n str> {
    if !text.chars().any(char::is_alphanumeric) {
        return None;
    }
    let folded = fold(text);
    let mut found = None;
    for names in variants {
        if names.iter().any(|name| fold(name) == folded) {
            if found.is_some() {
                return None;
            }
            found = names.first().copied();
        }
    }
    found
}

/// The builder of a unit enum with `#[settled(normalize)]`: serde reads the value as
/// written; a string that is no variant's name as written but names exactly one variant
/// once case and separators are ignored is read as that variant's canonical name, before
/// a `#[serde(other)]` variant takes it (`In Progress` is `InProgress`, not `Unknown`).
pub fn normalized_step<T: DeserializeOwned + Clone>(
    member: &mut Member,
    event: &Event<'_>,
    slot: &mut dyn Slot<T>,
    variants: &[&[&str]],
) -> Flow<T> {
    let Some(raw) = member.track(event) else {
        return Flow::More;
    };
    let text = serde_json::from_slice::<String>(raw.bytes()).ok();
    let named = text.as_deref().and_then(|text| {
        let exact = variants.iter().any(|names| names.contains(&text));
        if exact {
            None
        } else {
            canonical(text, variants)
        }
    });
    let value =
        match named {
            Some(name) => serde_json::from_value(serde_json::Value::String(name.to_owned()))
                .map_err(|error| Rejected {
                    error,
                    span: raw.span(),
                }),
            None => from_raw::<T>(raw),
        };
    if let Ok(v) = &value {
        slot.set(v.clone());
    }
    Flow::Done(value)
}

#[cfg(test)]
mod tests {
    use super::canonical;

    #[test]
    fn folds_case_and_separators_and_refuses_ambiguity() {
        let variants: &[&[&str]] = &[&["in_progress", "wip"], &["done"], &["ab"], &["a_b"]];
        for text in [
            "in_progress",
            "In Progress",
            "IN-PROGRESS",
            "inProgress",
            "WIP",
        ] {
            assert_eq!(canonical(text, variants), Some("in_progress"), "{text}");
        }
        assert_eq!(canonical("Done", variants), Some("done"));
        assert_eq!(
            canonical("A B", variants),
            None,
            "two variants fold to `ab`"
        );
        assert_eq!(canonical("finished", variants), None);
    }

    #[test]
    fn a_name_of_symbols_only_is_matched_as_written_only() {
        // A review: every string with no letter or digit folded to the one name of symbols
        // only, so `!=` settled as `==`.
        let variants: &[&[&str]] = &[&["=="], &["ne"], &["lt"]];
        for text in ["!=", "<", "", "🙂", "= ="] {
            assert_eq!(canonical(text, variants), None, "{text:?}");
        }
        assert_eq!(canonical("NE", variants), Some("ne"));
    }

    #[test]
    fn symbols_beside_letters_and_digits_stay() {
        // A fifth review: only letters and digits were kept, so `C#` named `C++` and
        // `+1` named `-1`.
        let variants: &[&[&str]] = &[&["C++"], &["-1"], &["x>0"], &["in_progress"]];
        for text in ["C#", "C", "+1", "1", "x<0"] {
            assert_eq!(canonical(text, variants), None, "{text:?}");
        }
        assert_eq!(canonical("c++", variants), Some("C++"));
        assert_eq!(canonical(" X>0 ", variants), Some("x>0"));
        for text in ["In Progress", "in-progress", "IN__PROGRESS", "inProgress"] {
            assert_eq!(canonical(text, variants), Some("in_progress"), "{text:?}");
        }
    }
}
