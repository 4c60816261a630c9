//! Characters split in two across provider events. A relay that cuts text in UTF-16 code
//! units (a JavaScript server re-chunking deltas) may end one delta with the first half of
//! a surrogate pair (`"…\ud83d"`) and begin the next with the second (`"\ude80…"`). Each
//! half alone is not a character, and serde_json refuses the event. The first half is
//! carried from the end of its string to the start of the next event's string that opens
//! with the second; a half that cannot be joined becomes U+FFFD, so the rest of its event
//! is still read.

use std::borrow::Cow;

/// `data` (an event's JSON) with its split surrogates mended: the first half of a pair
/// that ends a string is taken out and kept in `carried`; a second half that begins a
/// string gets the one carried from the previous event put before it. Borrowed when
/// `data` holds no lone surrogate escape.
pub(crate) fn mend<'a>(data: &'a str, carried: &mut Option<u16>) -> Cow<'a, str> {
    let mut pending = carried.take();
    let bytes = data.as_bytes();
    let mut out: Option<String> = None;
    let mut copied = 0;
    let mut i = 0;
    while let Some(offset) = bytes
        .get(i..)
        .and_then(|rest| rest.iter().position(|&b| b == b'\\'))
    {
        let at = i + offset;
        let Some(unit) = escape_unit(bytes, at) else {
            // Any other escape (`\\`, `\"`, …): skip the escaped byte.
            i = at + 2;
            continue;
        };
        i = at + 6;
        let replacement = match unit {
            0xD800..=0xDBFF => match escape_unit(bytes, at + 6) {
                Some(0xDC00..=0xDFFF) => {
                    i = at + 12;
                    continue;
                }
                _ if bytes.get(at + 6) == Some(&b'"') && carried.is_none() => {
                    *carried = Some(unit);
                    String::new()
                }
                _ => "\\uFFFD".to_owned(),
            },
            0xDC00..=0xDFFF => match pending {
                Some(high) if at > 0 && bytes.get(at - 1) == Some(&b'"') => {
                    pending = None;
                    format!("\\u{high:04x}\\u{unit:04x}")
                }
                _ => "\\uFFFD".to_owned(),
            },
            _ => continue,
        };
        let mended = out.get_or_insert_with(|| String::with_capacity(data.len() + 6));
        mended.push_str(data.get(copied..at).unwrap_or_default());
        mended.push_str(&replacement);
        copied = at + 6;
    }
    match out {
        None => Cow::Borrowed(data),
        Some(mut mended) => {
            mended.push_str(data.get(copied..).unwrap_or_default());
            Cow::Owned(mended)
        }
    }
}

/// The code unit of the `\uXXXX` escape at `at`, if there is one.
fn escape_unit(bytes: &[u8], at: usize) -> Option<u16> {
    let escape = bytes.get(at..at + 6)?;
    if escape.first() != Some(&b'\\') || escape.get(1) != Some(&b'u') {
        return None;
    }
    let hex = std::str::from_utf8(escape.get(2..)?).ok()?;
    u16::from_str_radix(hex, 16).ok()
}

#[cfg(test)]
mod tests {
    use super::mend;

    #[test]
    fn a_pair_split_across_events_is_joined() {
        let mut carried = None;
        let first = mend(r#"{"t":"x\ud83d","n":null}"#, &mut carried);
        assert_eq!(first, r#"{"t":"x","n":null}"#);
        assert_eq!(carried, Some(0xD83D));
        let second = mend(r#"{"t":"\uDE80!"}"#, &mut carried);
        assert_eq!(second, r#"{"t":"\ud83d\ude80!"}"#);
        assert_eq!(carried, None);
        let value: serde_json::Value = serde_json::from_str(&second).unwrap();
        assert_eq!(value["t"], "🚀!");
    }

    #[test]
    fn whole_pairs_and_other_escapes_are_left_alone() {
        let mut carried = None;
        for data in [
            r#"{"t":"\ud83d\ude80 \\ud83d \" \u00e9"}"#,
            r#"{"t":"plain"}"#,
            r#"{"t":"\\"}"#,
        ] {
            assert!(matches!(
                mend(data, &mut carried),
                std::borrow::Cow::Borrowed(_)
            ));
            assert_eq!(carried, None);
        }
    }

    #[test]
    fn halves_that_cannot_be_joined_are_replacement_characters() {
        let mut carried = None;
        // A first half inside a string, a second half with none carried.
        let mended = mend(r#"{"a":"\ud83dx","b":"\ude80"}"#, &mut carried);
        assert_eq!(mended, r#"{"a":"\uFFFDx","b":"\uFFFD"}"#);
        assert_eq!(carried, None);
        // A carried half the next event does not continue is dropped.
        mend(r#"{"a":"x\ud83d"}"#, &mut carried);
        assert_eq!(mend(r#"{"a":"y"}"#, &mut carried), r#"{"a":"y"}"#);
        assert_eq!(carried, None);
        // Only one second half gets the carried one.
        mend(r#"{"a":"x\ud83d"}"#, &mut carried);
        let mended = mend(r#"{"a":"\ude80","b":"\ude80"}"#, &mut carried);
        assert_eq!(mended, r#"{"a":"\ud83d\ude80","b":"\uFFFD"}"#);
        // Cut escapes and odd bytes do not panic.
        for data in [r"\u", r"\ud8", r#""\ud83d"#, "\\", "é\\uDBFF\""] {
            let _ = mend(data, &mut carried);
        }
    }
}
