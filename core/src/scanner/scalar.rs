//! Numbers and the literals `true`, `false`, `null`: reported only once complete.

use super::state::Num;
use super::{Scanner, Step, stop};
use crate::error::Reason;
use crate::sink::Sink;

impl Scanner {
    /// Inside a number: RFC 8259's grammar, one byte at a time. The first byte that cannot
    /// continue the number ends it (if it may end here) and is scanned again as a delimiter.
    pub(super) fn number<S: Sink>(&mut self, b: &[u8], mut i: usize, sink: &mut S) -> Step {
        while let Some(&c) = b.get(i) {
            let next = match (self.number, c) {
                (Num::Minus, b'0') => Num::Zero,
                (Num::Minus, b'1'..=b'9') => Num::Int,
                (Num::Zero, b'0'..=b'9') => return Err(stop(Reason::LeadingZero, i)),
                (Num::Int, b'0'..=b'9') => Num::Int,
                (Num::Zero | Num::Int, b'.') => Num::Dot,
                (Num::Dot | Num::Frac, b'0'..=b'9') => Num::Frac,
                (Num::Zero | Num::Int | Num::Frac, b'e' | b'E') => Num::Exp,
                (Num::Exp, b'+' | b'-') => Num::ExpSign,
                (Num::Exp | Num::ExpSign | Num::ExpDigit, b'0'..=b'9') => Num::ExpDigit,
                (state, _) if state.is_terminal() => {
                    // Settle only on a byte that may follow a value here: a number is not
                    // reported when it is the start of a malformed token (`[1-2]`,
                    // `[1.5e3.5]`). A closing bracket of the wrong kind ends the number,
                    // as a space before it would (`[1, 2}` reports 2, then the bracket's
                    // error, as `[1, 2 }` does; a string or literal there is complete too).
                    let delimiter = matches!(c, b']' | b'}') && !self.stack.is_empty();
                    if !delimiter && !self.may_follow_value(c) {
                        let reason = if self.stack.is_empty() {
                            Reason::TrailingCharacters
                        } else {
                            Reason::ExpectedCommaOrEnd
                        };
                        return Err(stop(reason, i));
                    }
                    self.emit_number(sink);
                    self.value_done();
                    return Ok(i);
                }
                _ => return Err(stop(Reason::InvalidNumber, i)),
            };
            self.number = next;
            self.clean.push(c);
            i += 1;
        }
        Ok(i)
    }

    /// `c` may come right after a value in the current container.
    fn may_follow_value(&self, c: u8) -> bool {
        if super::tables::is_ws(c) {
            return true;
        }
        match self.stack.last() {
            None => false,
            Some(frame) => match c {
                b',' => true,
                b']' => !frame.object,
                b'}' => frame.object,
                b'/' => !self.options.strict,
                _ => false,
            },
        }
    }

    /// The number in the clean buffer from `scalar_start` is complete: it settles.
    pub(super) fn emit_number<S: Sink>(&mut self, sink: &mut S) {
        self.settle_scalar(sink);
    }

    /// A number or literal is complete. In a tentative root it waits for the separator
    /// that makes it a member (and confirms the root); otherwise it settles now.
    fn settle_scalar<S: Sink>(&mut self, sink: &mut S) {
        let span = self.scalar_start..self.end();
        if self.tentative {
            self.scalar_pending = Some((span.start, span.end));
            return;
        }
        self.send_scalar(span, sink);
    }

    /// Sends the number, literal or held string at `span` of the clean text.
    pub(super) fn send_scalar<S: Sink>(&mut self, span: std::ops::Range<usize>, sink: &mut S) {
        let raw = self.raw(span);
        match raw.bytes().first() {
            Some(b'"') => {
                // A string held back (its escapes were checked as it was read).
                let text: std::borrow::Cow<'_, str> =
                    serde_json::from_slice(raw.bytes()).unwrap_or_default();
                sink.begin_string();
                if !text.is_empty() {
                    sink.string_fragment(&text);
                }
                sink.end_string(raw);
            }
            Some(b't') => sink.bool(true, raw),
            Some(b'f') => sink.bool(false, raw),
            Some(b'n') => sink.null(raw),
            _ => sink.number(std::str::from_utf8(raw.bytes()).unwrap_or_default(), raw),
        }
    }

    /// Inside `true`, `false` or `null`: settles at its last letter.
    pub(super) fn literal<S: Sink>(&mut self, b: &[u8], mut i: usize, sink: &mut S) -> Step {
        while let Some(&c) = b.get(i) {
            let pos = usize::from(self.literal_pos);
            if self.literal.get(pos) != Some(&c) {
                return Err(stop(Reason::InvalidLiteral, i));
            }
            self.clean.push(c);
            self.literal_pos += 1;
            i += 1;
            if pos + 1 == self.literal.len() {
                self.settle_scalar(sink);
                self.value_done();
                return Ok(i);
            }
        }
        Ok(i)
    }
}
