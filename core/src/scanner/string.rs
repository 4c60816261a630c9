//! Strings and keys: runs of plain bytes in bulk, escapes and split characters one by one.

use super::state::{Esc, State};
use super::tables::{string_run, utf8_continues, utf8_width};
use super::{Scanner, Step, stop};
use crate::error::Reason;
use crate::sink::Sink;

impl Scanner {
    /// Inside a key or string value.
    pub(super) fn string<S: Sink>(&mut self, b: &[u8], mut i: usize, sink: &mut S) -> Step {
        if self.string.pending_len > 0 {
            i = self.split_char(b, i, sink)?;
            if self.string.pending_len > 0 {
                return Ok(i);
            }
        }
        if self.string.esc != Esc::None {
            return self.escape(b, i, sink);
        }
        let rest = b.get(i..).unwrap_or_default();
        let run_len = string_run(rest);
        let (run, tail) = rest.split_at(run_len);
        let end = i + run_len;
        if !run.is_empty() {
            self.clean.extend_from_slice(run);
            match std::str::from_utf8(run) {
                Ok(text) => self.emit_text(text, sink),
                Err(e) => {
                    let valid = e.valid_up_to();
                    let (good, bad) = run.split_at(valid);
                    if let Ok(text) = std::str::from_utf8(good) {
                        self.emit_text(text, sink);
                    }
                    if e.error_len().is_some() || !tail.is_empty() {
                        return Err(stop(Reason::InvalidUtf8, i + valid));
                    }
                    // A character split by the chunk boundary: keep its first bytes.
                    let first = bad.first().copied().unwrap_or(0);
                    self.string.pending_need = utf8_width(first);
                    self.string.pending_len = 0;
                    for &c in bad.iter().take(3) {
                        self.string.pending[usize::from(self.string.pending_len)] = c;
                        self.string.pending_len += 1;
                    }
                    return Ok(end);
                }
            }
        }
        match tail.first() {
            None => Ok(end),
            Some(b'"') => {
                self.clean.push(b'"');
                self.end_string(sink);
                Ok(end + 1)
            }
            Some(b'\\') => {
                self.clean.push(b'\\');
                self.string.esc = Esc::Backslash;
                Ok(end + 1)
            }
            Some(_) => Err(stop(Reason::ControlCharacterInString, end)),
        }
    }

    /// The closing quote was copied: the key waits for `:`, a string value settles.
    fn end_string<S: Sink>(&mut self, sink: &mut S) {
        if self.in_key {
            self.in_key = false;
            self.state = State::Colon;
            self.key_end = self.end();
            // The key closed: a sink may judge it now (a duplicate, an unknown field). A
            // tentative root's first key waits for the root to be confirmed.
            if self.tentative {
                self.key_pending = true;
            } else {
                sink.key(&self.key, self.raw(self.key_start..self.key_end));
            }
            return;
        }
        if std::mem::take(&mut self.hold_string) {
            // A tentative array's element: sent when a separator confirms the root.
            self.scalar_pending = Some((self.scalar_start, self.end()));
            self.value_done();
            return;
        }
        self.confirm(sink);
        sink.end_string(self.raw(self.scalar_start..self.end()));
        self.value_done();
    }

    /// Continues a UTF-8 character whose first bytes ended the previous chunk.
    fn split_char<S: Sink>(&mut self, b: &[u8], mut i: usize, sink: &mut S) -> Step {
        while self.string.pending_len < self.string.pending_need {
            let Some(&c) = b.get(i) else {
                return Ok(i);
            };
            let len = usize::from(self.string.pending_len).min(4);
            if !utf8_continues(self.string.pending.get(..len).unwrap_or_default(), c) {
                return Err(self.split_char_error(i));
            }
            self.string.pending[usize::from(self.string.pending_len) & 3] = c;
            self.string.pending_len += 1;
            self.clean.push(c);
            i += 1;
        }
        let bytes = self.string.pending;
        let len = usize::from(self.string.pending_need).min(4);
        self.string.pending_len = 0;
        match std::str::from_utf8(bytes.get(..len).unwrap_or_default()) {
            Ok(text) => {
                self.emit_text(text, sink);
                Ok(i)
            }
            Err(_) => {
                self.string.pending_len = self.string.pending_need;
                Err(self.split_char_error(i))
            }
        }
    }

    /// An invalid character that began in an earlier chunk: reported at its first byte.
    fn split_char_error(&self, i: usize) -> super::Stop {
        super::Stop {
            reason: Reason::InvalidUtf8,
            at: i,
            back: self.string.pending_len,
        }
    }

    /// One byte of an escape sequence (escapes are rare: no bulk path).
    fn escape<S: Sink>(&mut self, b: &[u8], i: usize, sink: &mut S) -> Step {
        let Some(&c) = b.get(i) else {
            return Ok(i);
        };
        self.clean.push(c);
        self.string.esc = match self.string.esc {
            Esc::Backslash => {
                let decoded = match c {
                    b'"' => '"',
                    b'\\' => '\\',
                    b'/' => '/',
                    b'b' => '\u{8}',
                    b'f' => '\u{c}',
                    b'n' => '\n',
                    b'r' => '\r',
                    b't' => '\t',
                    b'u' => {
                        self.string.esc = Esc::Hex {
                            n: 0,
                            acc: 0,
                            high: None,
                        };
                        return Ok(i + 1);
                    }
                    _ => return Err(stop(Reason::InvalidEscape, i)),
                };
                self.emit_char(decoded, sink);
                Esc::None
            }
            Esc::Hex { n, acc, high } => {
                let Some(digit) = char::from(c).to_digit(16) else {
                    return Err(stop(Reason::InvalidHexEscape, i));
                };
                let acc = (acc << 4) | digit as u16;
                if n < 3 {
                    Esc::Hex {
                        n: n + 1,
                        acc,
                        high,
                    }
                } else {
                    self.hex_done(acc, high, i, sink)?
                }
            }
            Esc::HighThenBackslash(high) if c == b'\\' => Esc::HighThenU(high),
            Esc::HighThenU(high) if c == b'u' => Esc::Hex {
                n: 0,
                acc: 0,
                high: Some(high),
            },
            Esc::HighThenBackslash(_) | Esc::HighThenU(_) | Esc::None => {
                return Err(stop(Reason::LoneSurrogate, i));
            }
        };
        Ok(i + 1)
    }

    /// A `\uXXXX` escape is complete: a character, or half of a surrogate pair.
    fn hex_done<S: Sink>(
        &mut self,
        unit: u16,
        high: Option<u16>,
        i: usize,
        sink: &mut S,
    ) -> Result<Esc, super::Stop> {
        let code = match (high, unit) {
            (None, 0xD800..=0xDBFF) => return Ok(Esc::HighThenBackslash(unit)),
            (Some(h), 0xDC00..=0xDFFF) => {
                0x10000 + ((u32::from(h) - 0xD800) << 10) + (u32::from(unit) - 0xDC00)
            }
            (Some(_), _) | (None, 0xDC00..=0xDFFF) => {
                return Err(stop(Reason::LoneSurrogate, i));
            }
            (None, _) => u32::from(unit),
        };
        match char::from_u32(code) {
            Some(ch) => {
                self.emit_char(ch, sink);
                Ok(Esc::None)
            }
            None => Err(stop(Reason::LoneSurrogate, i)),
        }
    }

    fn emit_char<S: Sink>(&mut self, ch: char, sink: &mut S) {
        let mut buf = [0u8; 4];
        self.emit_text(ch.encode_utf8(&mut buf), sink);
    }

    /// Decoded text of the open string: into the key buffer, or to the sink.
    #[inline]
    fn emit_text<S: Sink>(&mut self, text: &str, sink: &mut S) {
        if self.in_key {
            self.key.push_str(text);
        } else if !self.hold_string {
            sink.string_fragment(text);
        }
    }
}
