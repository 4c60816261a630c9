//! An event's JSON read by the library's own scanner, where `serde_json::Value` loses
//! what the provider wrote: a tool's input sent whole, kept byte for byte, and an event
//! holding a number past serde_json's range.

use serde_json::Value;

/// The text of the member at `path` of the event's JSON `data`, byte for byte as the
/// provider wrote it (a `serde_json::Value` keeps neither the digits of a long number nor
/// the members' order), so that arguments sent whole read as the same arguments streamed
/// do: repeated keys, escapes and offsets included. The last such member, as serde reads.
pub(super) fn source_text(data: &str, path: &[&str]) -> Option<String> {
    let mut scanner = crate::Scanner::new(event_options());
    let mut member = MemberText {
        path,
        depth: 0,
        on: 0,
        next: false,
        found: None,
    };
    scanner.feed(data.as_bytes(), &mut member).ok()?;
    scanner.finish(&mut member).ok()?;
    member.found
}

/// Finds the text of the member at `path` (see [`source_text`]).
struct MemberText<'p> {
    path: &'p [&'p str],
    /// Containers open.
    depth: usize,
    /// How many of them, from the root, lie on the path.
    on: usize,
    /// The value that begins next is the next step of the path.
    next: bool,
    found: Option<String>,
}

impl MemberText<'_> {
    fn open(&mut self) {
        if self.depth == 0 || (self.next && self.on == self.depth) {
            self.on = self.depth + 1;
        }
        self.depth += 1;
        self.next = false;
    }

    fn close(&mut self, raw: crate::Raw<'_>) {
        if self.on == self.depth {
            if self.depth == self.path.len() + 1 {
                self.found = std::str::from_utf8(raw.bytes()).ok().map(str::to_owned);
            }
            self.on -= 1;
        }
        self.depth = self.depth.saturating_sub(1);
    }

    fn scalar(&mut self, raw: crate::Raw<'_>) {
        if self.next && self.on == self.depth && self.depth == self.path.len() {
            self.found = std::str::from_utf8(raw.bytes()).ok().map(str::to_owned);
        }
        self.next = false;
    }
}

impl crate::Sink for MemberText<'_> {
    fn begin_object(&mut self) {
        self.open();
    }
    fn end_object(&mut self, raw: crate::Raw<'_>) {
        self.close(raw);
    }
    fn begin_array(&mut self) {
        self.open();
    }
    fn end_array(&mut self, raw: crate::Raw<'_>) {
        self.close(raw);
    }
    fn key(&mut self, key: &str, _raw: crate::Raw<'_>) {
        let step = self.depth.checked_sub(1).and_then(|at| self.path.get(at));
        self.next = self.on == self.depth && step == Some(&key);
    }
    fn end_string(&mut self, raw: crate::Raw<'_>) {
        self.scalar(raw);
    }
    fn number(&mut self, _text: &str, raw: crate::Raw<'_>) {
        self.scalar(raw);
    }
    fn bool(&mut self, _value: bool, raw: crate::Raw<'_>) {
        self.scalar(raw);
    }
    fn null(&mut self, raw: crate::Raw<'_>) {
        self.scalar(raw);
    }
}

/// The event's JSON `data` when serde_json refuses it for a number past its range
/// (`1e400`, in a tool's input sent whole): read by the library's scanner, with such a
/// number `null` here (a tool's input is read from the text, see [`source_text`]) and the
/// last of a repeated key kept, as serde keeps it.
pub(super) fn wide_value(data: &str) -> Option<Value> {
    let mut build = BuildValue::default();
    let mut scanner = crate::Scanner::new(event_options());
    scanner.feed(data.as_bytes(), &mut build).ok()?;
    scanner.finish(&mut build).ok()?;
    build.done
}

/// How an event's JSON is read by the library's scanner: strictly, and with no limit but
/// serde_json's depth (the event is already in memory; whitespace in it is no stall).
fn event_options() -> crate::Options {
    crate::Options::default()
        .strict(true)
        .max_bytes(u64::MAX)
        .stall_limit(None)
}

/// Builds a `serde_json::Value` from scanner events (see [`wide_value`]).
#[derive(Default)]
struct BuildValue {
    /// The open containers, each with the key it sits under in its parent.
    open: Vec<(Value, Option<String>)>,
    key: Option<String>,
    string: String,
    done: Option<Value>,
}

impl BuildValue {
    fn put(&mut self, value: Value) {
        match self.open.last_mut() {
            Some((Value::Object(members), _)) => {
                members.insert(self.key.take().unwrap_or_default(), value);
            }
            Some((Value::Array(items), _)) => items.push(value),
            _ => self.done = Some(value),
        }
    }

    fn close(&mut self) {
        if let Some((value, key)) = self.open.pop() {
            self.key = key;
            self.put(value);
        }
    }
}

impl crate::Sink for BuildValue {
    fn begin_object(&mut self) {
        self.open
            .push((Value::Object(Default::default()), self.key.take()));
    }
    fn end_object(&mut self, _raw: crate::Raw<'_>) {
        self.close();
    }
    fn begin_array(&mut self) {
        self.open.push((Value::Array(Vec::new()), self.key.take()));
    }
    fn end_array(&mut self, _raw: crate::Raw<'_>) {
        self.close();
    }
    fn key(&mut self, key: &str, _raw: crate::Raw<'_>) {
        self.key = Some(key.to_owned());
    }
    fn begin_string(&mut self) {
        self.string.clear();
    }
    fn string_fragment(&mut self, fragment: &str) {
        self.string.push_str(fragment);
    }
    fn end_string(&mut self, _raw: crate::Raw<'_>) {
        let text = std::mem::take(&mut self.string);
        self.put(Value::String(text));
    }
    fn number(&mut self, text: &str, _raw: crate::Raw<'_>) {
        self.put(serde_json::from_str(text).unwrap_or(Value::Null));
    }
    fn bool(&mut self, value: bool, _raw: crate::Raw<'_>) {
        self.put(Value::Bool(value));
    }
    fn null(&mut self, _raw: crate::Raw<'_>) {
        self.put(Value::Null);
    }
}
