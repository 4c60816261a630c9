//! Characters split in two across provider events. A relay that cuts text in UTF-16 code
//! units (a JavaScript server re-chunking deltas) may end one delta with the first half of
//! a surrogate pair (`"…\ud83d"`) and begin the next delta of the same text with the second
//! (`"\ude80…"`). Each half alone is not a character, and serde_json refuses the event.
//!
//! [`mark`] rewrites each lone half of an event's JSON as a marker serde_json reads (the
//! noncharacter U+FDD0, then the half's code unit in private use plane 16), and [`Joiner`]
//! puts the halves of a channel's consecutive deltas back together, whatever events come
//! between them (pings, other channels' deltas). A half that has no other becomes U+FFFD,
//! and so does one in text read outside the text channels ([`scrub`]: a refusal, an error
//! message). A model that writes U+FDD0 followed by a plane-16 character standing for a
//! surrogate would see them read as a half: a noncharacter is not text a model means.

use super::Channel;
use std::borrow::Cow;

/// The first character of a marker: a noncharacter (Unicode keeps it for a program's own
/// use, never for text to exchange).
const MARK: char = '\u{FDD0}';

/// The marker of code unit `unit` (a surrogate) is `MARK` then this plus `unit`.
const PLANE: u32 = 0x10_0000;

/// `data` (an event's JSON) with each lone surrogate escape written as its marker.
/// Borrowed when it holds none.
pub(crate) fn mark(data: &str) -> Cow<'_, str> {
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
        let lone = match unit {
            0xD800..=0xDBFF => match escape_unit(bytes, at + 6) {
                Some(0xDC00..=0xDFFF) => {
                    i = at + 12;
                    continue;
                }
                _ => unit,
            },
            0xDC00..=0xDFFF => unit,
            _ => continue,
        };
        let marked = out.get_or_insert_with(|| String::with_capacity(data.len() + 4));
        marked.push_str(data.get(copied..at).unwrap_or_default());
        marked.push(MARK);
        marked.push(char::from_u32(PLANE + u32::from(lone)).unwrap_or(char::REPLACEMENT_CHARACTER));
        copied = at + 6;
    }
    match out {
        None => Cow::Borrowed(data),
        Some(mut marked) => {
            marked.push_str(data.get(copied..).unwrap_or_default());
            Cow::Owned(marked)
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

/// Joins the marked halves of each channel's consecutive deltas.
#[derive(Debug, Default)]
pub(crate) struct Joiner {
    /// A first half that ended a channel's last delta, waiting for the next.
    carried: Vec<(Channel, u16)>,
}

impl Joiner {
    /// `text`, the next delta of `channel`, with its halves joined: a first half that ends
    /// it is held for the channel's next delta (which it begins with U+FFFD if it does not
    /// begin with the second half); any other half is U+FFFD.
    pub(crate) fn text(&mut self, channel: Channel, text: String) -> String {
        let held = self
            .carried
            .iter()
            .position(|(c, _)| *c == channel)
            .map(|i| self.carried.swap_remove(i).1);
        if held.is_none() && !text.contains(MARK) {
            return text;
        }
        let mut units: Vec<Unit> = Vec::with_capacity(text.len());
        if let Some(high) = held {
            units.push(Unit::Half(high));
        }
        let mut chars = text.chars().peekable();
        while let Some(c) = chars.next() {
            let half = (c == MARK)
                .then(|| chars.peek().and_then(|&next| half_of(next)))
                .flatten();
            match half {
                Some(unit) => {
                    chars.next();
                    units.push(Unit::Half(unit));
                }
                None => units.push(Unit::Char(c)),
            }
        }
        if let Some(&Unit::Half(high @ 0xD800..=0xDBFF)) = units.last() {
            units.pop();
            self.carried.push((channel, high));
        }
        let mut out = String::with_capacity(text.len());
        let mut i = 0;
        while let Some(unit) = units.get(i) {
            i += 1;
            match *unit {
                Unit::Char(c) => out.push(c),
                Unit::Half(high @ 0xD800..=0xDBFF) => match units.get(i) {
                    Some(&Unit::Half(low @ 0xDC00..=0xDFFF)) => {
                        i += 1;
                        let code = 0x1_0000
                            + ((u32::from(high) - 0xD800) << 10)
                            + (u32::from(low) - 0xDC00);
                        out.push(char::from_u32(code).unwrap_or(char::REPLACEMENT_CHARACTER));
                    }
                    _ => out.push(char::REPLACEMENT_CHARACTER),
                },
                Unit::Half(_) => out.push(char::REPLACEMENT_CHARACTER),
            }
        }
        out
    }
}

impl Joiner {
    /// The channels whose last delta ended with a first half that no delta completed
    /// (the text ended): each is owed a U+FFFD. Takes them.
    pub(crate) fn unpaired(&mut self) -> impl Iterator<Item = Channel> + use<> {
        let mut channels: Vec<Channel> = std::mem::take(&mut self.carried)
            .into_iter()
            .map(|(c, _)| c)
            .collect();
        channels.sort_by_key(|c| match c {
            Channel::Text => (0, 0),
            Channel::Tool(i) => (1, *i),
        });
        channels.into_iter()
    }
}

/// `text` read from one event outside the text channels (a refusal, a provider's error
/// message), its halves joined where they are whole pairs and U+FFFD where not.
pub(crate) fn scrub(text: String) -> String {
    if !text.contains(MARK) {
        return text;
    }
    let mut joiner = Joiner::default();
    let mut out = joiner.text(Channel::Text, text);
    if !joiner.carried.is_empty() {
        out.push(char::REPLACEMENT_CHARACTER);
    }
    out
}

/// JSON `text` read from a marked event (see [`mark`]) with each marker written back as
/// the escape it stood for (`\ud83d`): the text as the provider wrote it, but for the
/// case of the escape's hex digits.
pub(crate) fn unmark_escapes(text: &str) -> String {
    if !text.contains(MARK) {
        return text.to_owned();
    }
    let mut out = String::with_capacity(text.len());
    let mut chars = text.chars().peekable();
    while let Some(c) = chars.next() {
        match (c == MARK)
            .then(|| chars.peek().and_then(|&next| half_of(next)))
            .flatten()
        {
            Some(unit) => {
                chars.next();
                out.push_str(&format!("\\u{unit:04x}"));
            }
            None => out.push(c),
        }
    }
    out
}

/// A character of a delta, or a marked half.
enum Unit {
    Char(char),
    Half(u16),
}

/// The code unit a marker's second character stands for.
fn half_of(c: char) -> Option<u16> {
    let unit = u32::from(c).checked_sub(PLANE)?;
    u16::try_from(unit)
        .ok()
        .filter(|u| (0xD800..=0xDFFF).contains(u))
}

#[cfg(test)]
mod tests {
    use super::{Channel, Joiner, mark};

    /// The text a channel's deltas make, each delta's JSON string marked and joined.
    fn join(joiner: &mut Joiner, channel: Channel, json: &str) -> String {
        let marked = mark(json);
        let text: String = serde_json::from_str(&marked).unwrap();
        joiner.text(channel, text)
    }

    #[test]
    fn a_pair_split_across_deltas_is_joined() {
        let mut j = Joiner::default();
        assert_eq!(join(&mut j, Channel::Text, r#""x\ud83d""#), "x");
        // Another channel's delta between the halves does not take the half.
        assert_eq!(join(&mut j, Channel::Tool(1), r#""\ude80""#), "\u{FFFD}");
        assert_eq!(join(&mut j, Channel::Text, r#""\uDE80!""#), "🚀!");
    }

    #[test]
    fn whole_pairs_and_other_escapes_are_left_alone() {
        for data in [
            r#"{"t":"\ud83d\ude80 \\ud83d \" \u00e9"}"#,
            r#"{"t":"plain"}"#,
            r#"{"t":"\\"}"#,
        ] {
            assert!(matches!(mark(data), std::borrow::Cow::Borrowed(_)));
        }
    }

    #[test]
    fn halves_outside_the_text_channels_are_scrubbed() {
        let read = |json: &str| -> String { serde_json::from_str(&mark(json)).unwrap() };
        assert_eq!(super::scrub(read(r#""No \ud83d\ude80 way""#)), "No 🚀 way");
        assert_eq!(
            super::scrub(read(r#""No \ud83d way \ud83d""#)),
            "No \u{FFFD} way \u{FFFD}"
        );
        assert_eq!(super::scrub("plain".into()), "plain");
    }

    #[test]
    fn halves_that_cannot_be_joined_are_replacement_characters() {
        let mut j = Joiner::default();
        assert_eq!(
            join(&mut j, Channel::Text, r#""\ud83dx\ude80""#),
            "\u{FFFD}x\u{FFFD}"
        );
        // A held half the next delta does not continue.
        assert_eq!(join(&mut j, Channel::Text, r#""x\ud83d""#), "x");
        assert_eq!(join(&mut j, Channel::Text, r#""y""#), "\u{FFFD}y");
        // A noncharacter not followed by a marked half is text.
        assert_eq!(j.text(Channel::Text, "\u{FDD0}a".into()), "\u{FDD0}a");
        // Cut escapes and odd bytes do not panic.
        for data in [r"\u", r"\ud8", r#""\ud83d"#, "\\", "é\\uDBFF\""] {
            let _ = mark(data);
        }
    }
}
