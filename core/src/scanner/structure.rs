//! Containers: values, keys, separators and brackets.

use super::state::{Frame, Num, Skip, State, StrState};
use super::tables::is_ws;
use super::{Scanner, Step, Stop, stop};
use crate::error::Reason;
use crate::sink::Sink;

impl Scanner {
    /// Expecting a value (or, in an array, the closing `]`).
    pub(super) fn value_start<S: Sink>(&mut self, b: &[u8], mut i: usize, sink: &mut S) -> Step {
        while let Some(&c) = b.get(i) {
            if is_ws(c) {
                if self.citation_open {
                    self.citation_open_breaks(b, i);
                }
                // Whitespace before a strict root is not part of the value.
                if self.stack.is_empty() {
                    i += 1;
                } else {
                    i = self.whitespace(b, i)?;
                }
                continue;
            }
            if self.tentative && self.bare_array && self.stack.len() == 1 && !self.done {
                // An array where the reply begins: the value once its first element
                // begins as a container or a string does, or it closes; a number or a
                // literal once a separator follows it, as in prose (`[note]`, `[12:30]`
                // are not), which is when it would show anyway (see `bare_array`).
                if matches!(c, b'{' | b'[' | b'"' | b']') {
                    self.confirm(sink);
                }
            }
            if self.citation_open {
                if !matches!(c, b'{' | b'[' | b'"' | b't' | b'f' | b'n' | b'/') {
                    // No line break before its first element, and that element is a
                    // number (or the array is empty): a citation in the prose, read again
                    // as prose from here, to its closing bracket (none of it is a root).
                    // (A comment before its first element is JSON's, not a citation's.)
                    self.drop_root();
                    self.skipping = Some(Skip::new(b'['));
                    return Ok(i);
                }
                self.citation_open = false;
            }
            // A comment is padding too: the run goes on through it.
            if c != b'/' {
                self.ws_run = 0;
            }
            match c {
                b'/' => return self.comment_start(i, State::ValueStart),
                b']' => match self.stack.last() {
                    Some(f) if !f.object && (!f.has_member || self.trailing_comma_allowed()) => {
                        return self.close(i, sink);
                    }
                    Some(f) if f.after_comma => return Err(stop(Reason::TrailingComma, i)),
                    _ => return Err(stop(Reason::ExpectedValue, i)),
                },
                _ => return self.begin_value(b, c, i, sink),
            }
        }
        Ok(i)
    }

    /// A line break in the whitespace run at `i`, after the bracket of a possible
    /// citation: the array is read as a tentative root like any other.
    fn citation_open_breaks(&mut self, b: &[u8], i: usize) {
        let run = b.get(i..).unwrap_or_default();
        let end = run.iter().position(|&c| !is_ws(c)).unwrap_or(run.len());
        if run.get(..end).is_some_and(|ws| ws.contains(&b'\n')) {
            self.citation_open = false;
        }
    }

    /// `c` begins an element of a tentative root array in prose (one where the reply
    /// begins is the answer, whatever serde then says of it), of another shape than the
    /// stream's elements have ([`Scanner::expect_elements`]): a scalar where containers
    /// are, or an object where arrays are (serde reads a struct from an array too, so an
    /// array may stand for an object).
    fn wrong_element(&self, c: u8) -> bool {
        self.tentative
            && !self.bare_array
            && self.stack.len() == 1
            && self.stack.last().is_some_and(|frame| !frame.object)
            && self
                .element_shape
                .is_some_and(|object| !matches!(c, b'n' | b'[') && (c != b'{' || !object))
    }

    /// A value starts with byte `c` at `i`.
    fn begin_value<S: Sink>(&mut self, b: &[u8], c: u8, i: usize, sink: &mut S) -> Step {
        if self.held_run.is_some() && !c.is_ascii_digit() {
            // No citation's number: the root is a value, as its first comma would have
            // made it.
            self.confirm(sink);
        }
        if self.stack.is_empty() {
            let (line, column) = self.locate(b, i);
            if self.done {
                self.second_position = (line, column);
            } else {
                self.root_offset = self.fed + i as u64;
                self.root_position = (line, column);
            }
        }
        if self.wrong_element(c) {
            // A false start: the root is prose (`see [1]` before a list of objects).
            return Err(stop(Reason::ExpectedValue, i));
        }
        if let Some(frame) = self.stack.last_mut() {
            frame.after_comma = false;
        }
        match c {
            b'{' | b'[' => {
                // A tentative object's first member whose value is a container: confirmed.
                if self.key_pending {
                    self.confirm(sink);
                }
                self.push(c, i)?;
                if !self.tentative {
                    if c == b'{' {
                        sink.begin_object();
                    } else {
                        sink.begin_array();
                    }
                }
                self.state = if c == b'{' {
                    State::KeyStart
                } else {
                    State::ValueStart
                };
                return Ok(i + 1);
            }
            b'"' => {
                // A string member confirms a tentative object (its key and colon came
                // before); a tentative array's string element waits for the separator
                // after it, as a number does.
                self.in_key = false;
                if self.tentative && self.stack.last().is_some_and(|f| !f.object) {
                    self.hold_string = true;
                } else {
                    self.confirm(sink);
                    sink.begin_string();
                }
                self.string = StrState::NEW;
                self.state = State::Str;
            }
            b'-' | b'0'..=b'9' => {
                self.number = match c {
                    b'-' => Num::Minus,
                    b'0' => Num::Zero,
                    _ => Num::Int,
                };
                self.state = State::Number;
            }
            b't' | b'f' | b'n' => {
                self.literal = match c {
                    b't' => b"true",
                    b'f' => b"false",
                    _ => b"null",
                };
                self.literal_pos = 1;
                self.state = State::Literal;
            }
            _ => return Err(stop(Reason::ExpectedValue, i)),
        }
        self.scalar_start = self.end();
        self.clean.push(c);
        Ok(i + 1)
    }

    /// Opens a container at `i`, enforcing the depth cap.
    fn push(&mut self, c: u8, i: usize) -> Result<(), super::Stop> {
        let cap = match self.deep {
            Some(_) => self.options.max_depth.saturating_add(super::DEEP_SLACK),
            None => self.options.max_depth,
        };
        if self.stack.len() >= cap {
            return Err(stop(Reason::TooDeep(self.options.max_depth), i));
        }
        self.stack.push(Frame {
            object: c == b'{',
            start: self.end(),
            has_member: false,
            after_comma: false,
            comma_at: 0,
        });
        self.clean.push(c);
        Ok(())
    }

    /// The root container opens at `i`, out of the lenient preamble.
    pub(super) fn start_root<S: Sink>(&mut self, b: &[u8], c: u8, i: usize, sink: &mut S) -> Step {
        self.stack.clear();
        self.root_fenced = self.preamble.fenced && !self.preamble.prose_seen;
        if self.done {
            self.begin_second_root(i);
        } else {
            self.clear_clean();
        }
        // A root after prose is tentative; so is an array where the reply begins, until its
        // first element's first byte (`[NOTE]` and `[Link](…)` open replies too), but not a
        // value a JSON fence holds.
        self.bare_array = c == b'[' && !self.done && !self.preamble.prose_seen;
        // And an object there, until its first key begins (`{name} is …` opens replies
        // too), unless a fence holds it.
        self.bare_object = c == b'{' && !self.done && !self.preamble.prose_seen;
        self.tentative = self.preamble.prose_seen
            || ((self.bare_array || self.bare_object) && !self.preamble.fenced);
        self.index_open = c == b'[' && self.tentative && self.after_word(b, i);
        self.line_led = self.prose_tail == 0;
        self.citation_led = matches!(self.prose_tail, b':' | b'=');
        self.begin_value(b, c, i, sink)
    }

    /// Expecting a key, or `}` (an empty object, or a trailing comma in lenient mode).
    pub(super) fn key_start<S: Sink>(&mut self, b: &[u8], mut i: usize, sink: &mut S) -> Step {
        while let Some(&c) = b.get(i) {
            if is_ws(c) {
                i = self.whitespace(b, i)?;
                continue;
            }
            // A comment is padding too: the run goes on through it.
            if c != b'/' {
                self.ws_run = 0;
            }
            if self.tentative
                && self.bare_object
                && self.stack.len() == 1
                && matches!(c, b'"' | b'}')
            {
                // An object where the reply begins: the value once its first key begins
                // or it closes (see `bare_object`); anything else fails it below.
                self.confirm(sink);
            }
            match c {
                b'/' => return self.comment_start(i, State::KeyStart),
                b'"' => {
                    self.key.clear();
                    self.key_start = self.end();
                    self.in_key = true;
                    self.string = StrState::NEW;
                    self.clean.push(b'"');
                    self.state = State::Key;
                    return Ok(i + 1);
                }
                b'}' => return self.key_start_close(i, sink),
                _ => return Err(stop(Reason::ExpectedKey, i)),
            }
        }
        Ok(i)
    }

    /// `}` where a key may start: allowed for `{}` and, leniently, after a trailing comma.
    fn key_start_close<S: Sink>(&mut self, i: usize, sink: &mut S) -> Step {
        match self.stack.last() {
            Some(f) if !f.has_member || self.trailing_comma_allowed() => self.close(i, sink),
            Some(f) if f.after_comma => Err(stop(Reason::TrailingComma, i)),
            _ => Err(stop(Reason::ExpectedKey, i)),
        }
    }

    /// After a key: expecting `:`.
    pub(super) fn colon(&mut self, b: &[u8], mut i: usize) -> Step {
        while let Some(&c) = b.get(i) {
            if is_ws(c) {
                i = self.whitespace(b, i)?;
                continue;
            }
            // A comment is padding too: the run goes on through it.
            if c != b'/' {
                self.ws_run = 0;
            }
            match c {
                b'/' => return self.comment_start(i, State::Colon),
                b':' => {
                    // The member is confirmed by its value, not its colon (`{"s": <string>}`
                    // in prose is a template, not a value).
                    self.clean.push(b':');
                    self.state = State::ValueStart;
                    return Ok(i + 1);
                }
                _ => return Err(stop(Reason::ExpectedColon, i)),
            }
        }
        Ok(i)
    }

    /// After a member or element: expecting `,` or the matching closing bracket.
    pub(super) fn after_value<S: Sink>(&mut self, b: &[u8], mut i: usize, sink: &mut S) -> Step {
        while let Some(&c) = b.get(i) {
            if is_ws(c) {
                i = self.whitespace(b, i)?;
                continue;
            }
            // A comment is padding too: the run goes on through it.
            if c != b'/' {
                self.ws_run = 0;
            }
            match c {
                b'/' => return self.comment_start(i, State::AfterValue),
                b',' => {
                    // A tentative root's first number or literal is a member now, unless
                    // it may be one of a citation's numbers.
                    if !self.hold_in_citation() {
                        self.confirm(sink);
                    }
                    let at = self.end();
                    let Some(frame) = self.stack.last_mut() else {
                        return Err(stop(Reason::TrailingCharacters, i));
                    };
                    frame.after_comma = true;
                    frame.comma_at = at;
                    self.state = if frame.object {
                        State::KeyStart
                    } else {
                        State::ValueStart
                    };
                    self.clean.push(b',');
                    return Ok(i + 1);
                }
                b'}' | b']' => {
                    return match self.stack.last() {
                        Some(f) if f.object == (c == b'}') => self.close(i, sink),
                        _ => Err(stop(Reason::ExpectedCommaOrEnd, i)),
                    };
                }
                _ => return Err(stop(Reason::ExpectedCommaOrEnd, i)),
            }
        }
        Ok(i)
    }

    /// A run of whitespace inside the value from `i` (pretty-printed JSON is mostly
    /// indentation): copied in one go, and counted by the stall guard. Returns the index
    /// after the run.
    #[inline]
    fn whitespace(&mut self, b: &[u8], i: usize) -> Step {
        let rest = b.get(i..).unwrap_or_default();
        let len = rest.iter().position(|&c| !is_ws(c)).unwrap_or(rest.len());
        let run = rest.get(..len).unwrap_or_default();
        self.pad(len, i)?;
        self.clean.extend_from_slice(run);
        Ok(i + len)
    }

    /// `len` bytes of padding from `i` inside the value (whitespace, or a comment's bytes:
    /// a loop of empty comments is a stall too), counted by the stall guard. Stops at the
    /// byte past the guard's limit.
    #[inline(always)]
    pub(super) fn pad(&mut self, len: usize, i: usize) -> Result<(), Stop> {
        if let Some(limit) = self.options.stall_limit {
            let room = limit.saturating_sub(self.ws_run);
            if len as u64 > room {
                let at = i + usize::try_from(room).unwrap_or(len);
                return Err(stop(Reason::Stalled(limit), at));
            }
        }
        self.ws_run += len as u64;
        Ok(())
    }

    fn trailing_comma_allowed(&self) -> bool {
        !self.options.strict && self.stack.last().is_some_and(|f| f.after_comma)
    }

    /// Closes the innermost container at `i`: it settles.
    pub(super) fn close<S: Sink>(&mut self, i: usize, sink: &mut S) -> Step {
        if self.tentative {
            if let [root] = self.stack.as_slice() {
                if !root.has_member && self.scalar_pending.is_none() {
                    // An empty container in prose confirms nothing: a first root is held
                    // in case no other comes, a second one is prose.
                    if self.done {
                        self.drop_root();
                        return Ok(i + 1);
                    }
                    return Ok(self.empty_in_prose(root.object, i));
                }
            }
        }
        if self.tentative && self.index_open && self.stack.len() == 1 {
            // `arr[0]`, `row["id"]`, `Paris[1]`: one scalar after a word is an index or a
            // footnote, prose (`assistantfinal[2, 3]` is an answer, confirmed at its comma).
            self.drop_root();
            return Ok(i + 1);
        }
        if self.citation_at_close() {
            if self.citation.is_some() && !self.done && !self.line_led {
                // After one citation, another like it is one too, whatever follows: the
                // first stays the value if no other comes (`[0] Done [1].`). One that
                // begins its line waits for what follows (`See [3].\nAnswer:\n[42]`).
                self.set_citation_aside();
            } else {
                self.state = State::AfterCitation;
            }
            return Ok(i + 1);
        }
        if self.close_held(sink) {
            Ok(i + 1)
        } else {
            Err(stop(Reason::TrailingCharacters, i))
        }
    }

    /// The `]` closing a tentative root array in prose that holds one number, on the line
    /// its `[` is on, led by a word (`the docs [1] say`; see `citation_led`) or beginning
    /// its line (`[1] Smith, 2020.`; see `line_led`): a possible
    /// citation, held until what follows shows (see [`Scanner::after_citation`]). Not
    /// where the reply begins (see `bare_array`), in a JSON fence, or after an empty
    /// container (see `Scanner::citation`); for a typed stream whose root is an array
    /// too (`Per the docs [2].` then a fenced answer is that answer; alone, it is the
    /// value). A second root too (`{"a": 1} see [1] here` replaced the answer under
    /// keep-last).
    fn citation_at_close(&self) -> bool {
        // Cheap tests first: this runs at every closing bracket.
        let Some((start, end)) = self.scalar_pending else {
            return false;
        };
        // After numbers held as a citation's, the last is one too (`[1, 2.5]` is data).
        if self.held_run.is_some() && !self.small_number(start..end) {
            return false;
        }
        let start = self.held_run.map_or(start, |(from, _)| from);
        if !self.in_citation_place() {
            return false;
        }
        let number = start
            .checked_sub(self.window.base)
            .and_then(|at| self.clean.get(at))
            .is_some_and(|&c| c == b'-' || c.is_ascii_digit());
        // The root's text: its bracket, one scalar, whitespace and comments.
        let root = match self.done {
            true => self.second_start,
            false => 0,
        };
        number
            && root
                .checked_sub(self.window.base)
                .and_then(|at| self.clean.get(at..))
                .is_some_and(|text| !text.contains(&b'\n'))
    }

    /// A comma after the number held in a tentative root array: true if it is held on,
    /// with those before it, as one of a citation's numbers (`both studies [1, 2] agree`,
    /// `see [3, 14, 15].`): a run of small integers on one line, after a word (not led by
    /// `:` or `=`, not where the reply or its line begins, not glued to a word as an
    /// index is, not in a JSON fence). The bracket that closes it decides, as for one
    /// number (see [`Scanner::citation_at_close`]); anything else in it confirms it.
    pub(super) fn hold_in_citation(&mut self) -> bool {
        if !self.in_citation_place() || self.line_led || self.index_open {
            return false;
        }
        let Some((start, end)) = self.scalar_pending else {
            return false;
        };
        let held = self.held_run.map_or(0, |(_, n)| n);
        let root = match self.done {
            true => self.second_start,
            false => 0,
        };
        let one_line = self
            .clean_text(root..self.end())
            .is_some_and(|root| !root.contains(&b'\n'));
        if !self.small_number(start..end)
            || !one_line
            || held.saturating_add(1) >= super::CITATION_RUN
        {
            return false;
        }
        self.scalar_pending = None;
        self.held_run = Some((self.held_run.map_or(start, |(from, _)| from), held + 1));
        true
    }

    /// The open root may be a citation: a tentative array in prose, not where the reply
    /// begins (see `bare_array`), not led by a `:` or `=` on its line (`Result: [3]`),
    /// not begun in a JSON fence.
    fn in_citation_place(&self) -> bool {
        self.tentative
            && !self.bare_array
            && !self.citation_led
            && !self.root_fenced
            && matches!(self.stack.as_slice(), [root] if !root.object)
    }

    /// The number at `span` of the clean text may be a citation's (`12`, not `-1` or
    /// `2.5`).
    fn small_number(&self, span: std::ops::Range<usize>) -> bool {
        self.clean_text(span).is_some_and(|n| {
            !n.is_empty() && n.len() <= super::CITATION_DIGITS && n.iter().all(u8::is_ascii_digit)
        })
    }

    /// Sends the numbers of a citation's run held in `span` of the clean text (digits,
    /// commas and blanks), the root confirmed.
    pub(super) fn send_run<S: Sink>(&mut self, span: std::ops::Range<usize>, sink: &mut S) {
        let mut at = span.start;
        while at < span.end {
            let Some(text) = self.clean_text(at..span.end) else {
                return;
            };
            let Some(first) = text.iter().position(u8::is_ascii_digit) else {
                return;
            };
            let len = text
                .get(first..)
                .unwrap_or_default()
                .iter()
                .take_while(|c| c.is_ascii_digit())
                .count();
            let from = at + first;
            self.send_scalar(from..from + len, sink);
            at = from + len;
        }
    }

    /// After the `]` of a possible citation: spaces and punctuation (`[1].`, `[2],`) say
    /// nothing; a line break, that one which began its line is a value; anything else,
    /// a line break too after a word, that it was a citation in the prose,
    /// read on as prose from that byte: the first one is the value only if no other comes
    /// (`The result is [42] as computed.`; `the docs [1].` then a fenced answer is that
    /// answer). After the answer, a bracket right after it makes it a value (a run of
    /// values). The input's end, a cut or the byte cap make a first root the value, and
    /// a second one prose (see `Scanner::end_citation`).
    pub(super) fn after_citation<S: Sink>(&mut self, b: &[u8], mut i: usize, sink: &mut S) -> Step {
        while let Some(&c) = b.get(i) {
            match c {
                b' ' | b'\t' => i += 1,
                // Punctuation leads what follows as prose does (`[1]: [42]`).
                b'.' | b',' | b';' | b':' | b'!' | b'?' | b')' => {
                    self.prose_tail = c;
                    i += 1;
                }
                // After the answer, a value that follows at once is a run of values
                // (`[1] [1]` under keep-last), not prose.
                b'[' | b'{' if self.done && !self.line_led => {
                    self.close_held(sink);
                    return Ok(i);
                }
                // Alone on the line it began: a value (`Answer:\n[42]\n`).
                b'\n' | b'\r' if self.line_led => {
                    self.close_held(sink);
                    return Ok(i);
                }
                _ => {
                    self.set_citation_aside();
                    return Ok(i);
                }
            }
        }
        Ok(i)
    }

    /// The citation held is prose: kept aside (the first one, and only before any empty
    /// container, which comes first as the value), the root dropped.
    pub(super) fn set_citation_aside(&mut self) {
        if self.citation.is_none()
            && self.empty_root.is_none()
            && !self.done
            && self.window.base == 0
        {
            let mut text = self.clean.clone();
            text.push(b']');
            let (line, column) = self.root_position;
            let line_start = (self.root_offset + 1).saturating_sub(column);
            self.citation = Some(Box::new(super::Held {
                text,
                place: (self.root_offset, line, line_start),
            }));
        }
        self.drop_root();
    }

    /// Closes the innermost container, its root confirmed: false if none is open.
    pub(super) fn close_held<S: Sink>(&mut self, sink: &mut S) -> bool {
        self.confirm(sink);
        let Some(frame) = self.stack.pop() else {
            return false;
        };
        if frame.after_comma {
            // A trailing comma becomes a space: the clean text stays aligned with the input.
            // (Below the window, nobody reads that text any more.)
            let at = frame.comma_at.checked_sub(self.window.base);
            if let Some(comma) = at.and_then(|at| self.clean.get_mut(at)) {
                *comma = b' ';
            }
        }
        self.clean.push(if frame.object { b'}' } else { b']' });
        let raw = self.raw(frame.start..self.end());
        if frame.object {
            sink.end_object(raw);
        } else {
            sink.end_array(raw);
        }
        self.value_done();
        true
    }

    /// A value completed: the parent expects a separator, or the root is done.
    pub(super) fn value_done(&mut self) {
        match self.stack.last_mut() {
            Some(frame) => {
                frame.has_member = true;
                frame.after_comma = false;
                self.state = State::AfterValue;
            }
            None => {
                self.state = State::AfterRoot;
                self.done = true;
                // What follows it, on its line or the next, is led by it, as by a word.
                self.prose_tail = b']';
                self.prose_last = b']';
                // The next untagged fence closes the JSON fence it was in, if any.
                self.preamble.json_open = self.root_fenced;
                // A root that replaced another is complete: the other is gone for good.
                self.previous = None;
            }
        }
    }
}
