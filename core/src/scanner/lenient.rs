//! What models wrap around JSON: prose, fences, `<think>` blocks, comments, text after the
//! root. Strict mode reaches only [`Scanner::after_root`] and rejects comments.

use super::state::{Span, State};
use super::tables::{PROSE_STOP, is_bom_byte, is_fence_tag, is_ws};
use super::{Scanner, Step, Stop, stop};
use crate::error::Reason;
use crate::sink::Sink;

/// The reasoning blocks skipped whole, as models open and close them (matched in any case):
/// DeepSeek's and Qwen's `<think>`, the `<thinking>` of prompted chains of thought, the
/// `<reasoning>` of reasoning/answer fine-tunes, and the analysis channel of gpt-oss's
/// harmony format served raw (`<|channel|>analysis<|message|>…<|end|>`, before
/// `<|start|>assistant<|channel|>final<|message|>` and the answer). The first two open a
/// block wherever they come, in prose too (a tag a sentence names, `wrap reasoning in
/// <think> tags`, then hides the rest of the reply: `NoStructure`, "EOF inside a
/// reasoning block"). The third opens a block only where the reply's text begins (nothing
/// but whitespace or another block before it): it is also a word prose names (`the answer
/// without the <reasoning> section: {…}`).
/// The fifth is Magistral's `[THINK]…[/THINK]`: its bracket begins a root, so it is
/// matched only where that root fails, at the reply's start (see [`Scanner::bracket_tag`]).
/// The last is ByteDance Seed-OSS's `<seed:think>`, also only where the reply's text
/// begins.
pub(super) const REASONING_TAGS: [(&[u8], &[u8]); 6] = [
    (b"<think>", b"</think>"),
    (b"<thinking>", b"</thinking>"),
    (b"<reasoning>", b"</reasoning>"),
    (b"<|channel|>analysis<|message|>", b"<|end|>"),
    (b"[think]", b"[/think]"),
    (b"<seed:think>", b"</seed:think>"),
];
/// The indexes in [`REASONING_TAGS`] of the tags that open a block only before any prose
/// (`<reasoning>` is a word prose names; Seed-OSS begins its reply with its block).
const LEADING_ONLY: [usize; 2] = [2, 5];
/// The index in [`REASONING_TAGS`] of the tag that begins with a bracket.
pub(super) const BRACKET_TAG: usize = 4;

impl Scanner {
    /// Lenient preamble: skips prose up to a root opener, a backtick or a `<`.
    pub(super) fn prose<S: Sink>(&mut self, b: &[u8], i: usize, sink: &mut S) -> Step {
        if self.span.is_some() {
            return self.in_span(b, i);
        }
        if self.quoted.is_some() {
            return self.in_quoted(b, i);
        }
        let rest = b.get(i..).unwrap_or_default();
        // A skip read on: committed once the idle limit has allowed the bytes it read.
        let mut skipped_to = None;
        let lead_quote = self.quote_begins_reply(rest, self.fed + i as u64);
        let skip = if let Some(quote) = lead_quote {
            quote + 1
        } else if self.preamble.in_code {
            // Inside a code block in another language: only its closing fence matters.
            let fence = self.preamble.code_fence.0;
            rest.iter().position(|&c| c == fence).unwrap_or(rest.len())
        } else if let Some(mut skipping) = self.skipping {
            let (n, over) = skipping.scan(rest);
            skipped_to = Some((!over).then_some(skipping));
            n
        } else if self.comment_in_prose(self.fed + i as u64, false) {
            rest.iter()
                .position(|&c| PROSE_STOP[usize::from(c)] || c == b'/')
                .unwrap_or(rest.len())
        } else {
            rest.iter()
                .position(|&c| PROSE_STOP[usize::from(c)])
                .unwrap_or(rest.len())
        };
        // The prose run may have begun `back` bytes before `i`, in the previous chunk.
        let back = u64::from(std::mem::take(&mut self.preamble.resume_back));
        let idle = self.idle_bytes(i).saturating_sub(back);
        let room = self.options.idle_limit.saturating_sub(idle);
        if skip as u64 + back > room && !self.done {
            let reason = Reason::IdleLimit(self.options.idle_limit);
            if room < back {
                // The limit fell inside the split character: report it there.
                return Err(super::Stop {
                    reason,
                    at: i,
                    back: u8::try_from(back - room).unwrap_or(0),
                });
            }
            let at = i + usize::try_from(room - back).unwrap_or(skip);
            if let Some(mut skipping) = self.skipping.filter(|_| skipped_to.is_some()) {
                // Only the bytes before the limit were read (as they are in any chunking).
                let (_, over) = skipping.scan(rest.get(..at - i).unwrap_or_default());
                self.skipping = (!over).then_some(skipping);
            }
            return Err(stop(reason, at));
        }
        let (skipped, tail) = rest.split_at(skip);
        let offset = self.fed + i as u64;
        // A byte-order mark where the input begins is whitespace, and emphasis marks are
        // no text (`**Answer:**` ends in `:`).
        let blank = |k: usize, c: u8| {
            is_ws(c)
                || matches!(c, b'*' | b'_')
                || (self.fed < 3 && is_bom_byte(offset + k as u64, c))
        };
        let mut bytes = skipped.iter().enumerate().rev();
        if let Some((_, &c)) = bytes.find(|&(k, &c)| c == b'\n' || !blank(k, c)) {
            self.prose_tail = if c == b'\n' { 0 } else { c.max(1) };
            let last = match c {
                b'\n' => bytes.find(|&(k, &c)| !blank(k, c)).map(|(_, &c)| c),
                _ => Some(c),
            };
            if let Some(c) = last {
                self.prose_last = c;
            }
        }
        let prose = |(k, &c): (usize, &u8)| !is_ws(c) && !is_bom_byte(offset + k as u64, c);
        if (!self.preamble.prose_seen || self.root_trail) && skipped.iter().enumerate().any(prose) {
            self.saw_prose();
        }
        let at = i + skip;
        if lead_quote.is_some() {
            // Past the quote: the string it opens may be the reply's one scalar.
            let (line, column) = self.locate(b, at);
            let offset = self.fed + at as u64;
            self.quoted = Some(Box::new(Span {
                ticks: 0,
                run: 0,
                blank: false,
                text: Vec::new(),
                offset,
                line,
                line_start: (offset + 1).saturating_sub(column),
            }));
            return Ok(at);
        }
        if let Some(skipping) = skipped_to {
            // The skipped text was prose: what follows it is read as prose again.
            self.skipping = skipping;
            return Ok(at);
        }
        match tail.first() {
            None => Ok(at),
            Some(&c @ (b'{' | b'[')) if self.wrong_shape(c) => {
                // A typed stream knows its root's shape: `as noted in [1]` is prose. Only
                // the bracket is: an answer inside it is still read (`Output: [{..}]`
                // for an object root), and one left open does not hide the rest of the
                // line (`in [0, 1): {..}`).
                self.saw_prose();
                Ok(at + 1)
            }
            Some(&c @ b'[') if self.citation(c) => {
                // Prose, unless its first element is an object or on a later line (see
                // `citation_open`).
                self.citation_open = true;
                self.start_root(b, c, at, sink)
            }
            Some(&c @ (b'{' | b'[')) => self.start_root(b, c, at, sink),
            Some(&c @ b'`') | Some(&c @ b'~') if c == b'`' || self.prose_tail == 0 => {
                // A fence marker's bytes are prose for the idle limit: the first one too.
                // (Tildes make one only where their line begins, as CommonMark has it:
                // elsewhere, `~~struck~~` and `~5` are prose.)
                self.check_idle(at)?;
                let p = &mut self.preamble;
                p.mid_line = self.prose_tail != 0;
                p.fence_byte = c;
                p.ticks = 1;
                self.state = State::FenceTicks;
                Ok(at + 1)
            }
            Some(b'~') => {
                self.check_idle(at)?;
                self.saw_prose();
                self.prose_tail = b'~';
                Ok(at + 1)
            }
            Some(b'/') if self.comment_in_prose(self.fed + at as u64, true) => {
                self.comment_start(at, State::Prose)
            }
            Some(b'/') => {
                // Prose after all (prose came before it): counted as prose is, and the
                // line's last byte, as in a run of prose (a fence after it is mid-line).
                self.check_idle(at)?;
                self.saw_prose();
                self.prose_tail = b'/';
                self.prose_last = b'/';
                Ok(at + 1)
            }
            Some(_) if self.replaying => {
                // A tag after a lone backtick is quoted (`` `<think> `` in prose): no block.
                self.saw_prose();
                Ok(at + 1)
            }
            Some(_) => {
                self.preamble.tag_pos = 1;
                self.preamble.tag = 0;
                self.state = State::ThinkOpen;
                Ok(at + 1)
            }
        }
    }

    /// Where in `rest` (at input offset `offset`) a string begins the reply while the
    /// reply may be that one string (see `lone`): its first byte that is not whitespace
    /// (a byte-order mark at the input's start counted as whitespace), before any prose
    /// or root, when it is a quote.
    fn quote_begins_reply(&self, rest: &[u8], offset: u64) -> Option<usize> {
        let lead = !(self.preamble.prose_seen
            || self.preamble.in_code
            || self.done
            || self.replaying
            || self.skipping.is_some());
        if !lead || !self.lone_strings {
            return None;
        }
        let k = rest
            .iter()
            .enumerate()
            .position(|(k, &c)| !is_ws(c) && !is_bom_byte(offset + k as u64, c))?;
        let quote = offset + k as u64;
        let alive = self.lone_end.is_none_or(|end| end > quote);
        (rest.get(k) == Some(&b'"') && alive).then_some(k)
    }

    /// Inside the string that began the reply (see [`Scanner::quote_begins_reply`]):
    /// nothing in it begins a root while the reply may be that one string, as strict
    /// mode reads it (`"[1, 2]"`, cut or whole, is a string). Its text is kept, and read
    /// again as prose where the reply shows it is more than one scalar (`"Sure!" {…}`,
    /// or a line break inside: `"Items: [1, 2]` then a new line).
    fn in_quoted(&mut self, b: &[u8], i: usize) -> Step {
        let room = self.options.idle_limit.saturating_sub(self.idle_bytes(i));
        let rest = b.get(i..).unwrap_or_default();
        let here = self.fed + i as u64;
        // Where the reply stops being one scalar, if it does in this chunk.
        let end = self
            .lone_end
            .map(|end| usize::try_from(end.saturating_sub(here)).unwrap_or(usize::MAX))
            .filter(|&k| k <= rest.len());
        let take = end.unwrap_or(rest.len());
        let Some(quoted) = self.quoted.as_mut() else {
            return Ok(i);
        };
        quoted
            .text
            .extend_from_slice(rest.get(..take).unwrap_or_default());
        // Where the reply shows it is more, and past the idle limit (a reply that is
        // one string so long reads as prose, as it did unheld): the text is read again
        // as prose, the idle limit counting its bytes up to a root in it.
        if end.is_some() || take as u64 > room {
            self.span_replay = self.quoted.take();
        }
        Ok(i + take)
    }

    /// `c` opens a root of the other shape than a typed stream expects, in prose (a root
    /// right after a JSON fence or at the start of the input is the value, of any shape:
    /// serde then says what is wrong with it).
    fn wrong_shape(&self, c: u8) -> bool {
        self.preamble.prose_seen && self.root_shape.is_some_and(|object| object != (c == b'{'))
    }

    /// Inside an inline code span from `i`: to the run of backticks that closes it, or,
    /// if a line break or [`Span::MAX`] comes first, to there, its text then read again as
    /// prose (see [`Span`]); at the idle limit, its text is dropped and the limit ends the
    /// reading (the error returned). A span that begins with whitespace and a bracket
    /// (`` ` {"a": 1}` ``) is read as prose from the bracket. Returns where prose goes on.
    fn in_span(&mut self, b: &[u8], i: usize) -> Step {
        let room = match self.done {
            true => u64::MAX,
            false => self.options.idle_limit.saturating_sub(self.idle_bytes(i)),
        };
        let Some(span) = self.span.as_mut() else {
            return Ok(i);
        };
        let rest = b.get(i..).unwrap_or_default();
        for (k, &c) in rest.iter().enumerate() {
            let at = i + k;
            if c != b'`' && span.run > 0 {
                if span.run == span.ticks {
                    // Closed: what follows is prose (led by the span, as by a word).
                    self.span = None;
                    self.prose_tail = b'`';
                    return Ok(at);
                }
                span.run = 0;
            }
            if k as u64 >= room {
                // The idle limit ends the reading inside what may be code: what it holds
                // is not read as the answer (at a lower limit it would be, at a higher
                // one the answer after it would: a limit decides only whether a value
                // came in time).
                self.span = None;
                return Err(stop(Reason::IdleLimit(self.options.idle_limit), at));
            }
            if c == b'\n' || span.text.len() >= Span::MAX {
                // No span: its text is prose, read again before this byte.
                self.span_replay = self.span.take();
                return Ok(at);
            }
            if span.blank && matches!(c, b'{' | b'[') {
                // `` ` {"a": 1}` ``: the bracket may begin the answer.
                let line = span.line;
                self.span = None;
                self.preamble.span_open = Some(line);
                return Ok(at);
            }
            if c == b'`' {
                span.run = span.run.saturating_add(1);
            }
            span.blank &= matches!(c, b' ' | b'\t');
            span.text.push(c);
        }
        Ok(b.len())
    }

    /// The byte before `at` (in this chunk or the last one fed) ends a word (not a JSON
    /// fence's tag), a bracket or a parenthesis: a bracket there may index it (`arr[0]`,
    /// `m[1][2]`, `f(x)[0]`) or mark a footnote (see `index_open`). A character beyond
    /// ASCII counts as a letter (`Café[1]`, `東京[1]`): its last byte is a continuation
    /// byte, so one byte tells at any chunking.
    pub(super) fn after_word(&self, b: &[u8], at: usize) -> bool {
        let before = match at.checked_sub(1) {
            Some(k) => b.get(k).copied().unwrap_or(0),
            None => self.last_fed,
        };
        let glued_fence = self.preamble.fenced && !self.preamble.prose_seen;
        let offset = self.fed + at as u64;
        let after_block = self.preamble.block_end != 0 && offset == self.preamble.block_end;
        // A byte-order mark's last byte is no letter (`\u{feff}[1]`).
        let after_bom = offset == 3 && self.bom_len == 3;
        (before.is_ascii_alphanumeric() || before >= 0x80 || matches!(before, b'_' | b']' | b')'))
            && !glued_fence
            && !after_block
            && !after_bom
    }

    /// `c` opens an array in prose after an empty container in prose (`Result: []. See
    /// [1].`): it may be a citation in the text around that answer, not a later answer.
    /// It is one if its first element is a number (or it is empty again) on the same
    /// line. An object, or a fenced value, is an answer; so is an array whose first
    /// element is a string, a literal or a container (`Return [] if none. Result:
    /// ["a"]`), or is on a later line, as pretty-printed JSON has it; and for a typed
    /// stream whose root is an array, so is any array (`- [ ] task` then the answer).
    fn citation(&self, c: u8) -> bool {
        c == b'['
            && self.preamble.prose_seen
            && !self.done
            && self.empty_root.is_some()
            && self.root_shape != Some(false)
            // Led by `:` or `=`, on its line or the one before, it is a value (`- [ ] task`
            // then `Result: [3, 4]`, `Answer:\n[1, 2]`).
            && !matches!(self.prose_tail, b':' | b'=')
            && !(self.prose_tail == 0 && matches!(self.prose_last, b':' | b'='))
    }

    /// Bytes of a fence marker count as prose for the idle limit, as the prose around
    /// them does (a reasoning tag's do not: it belongs to its block).
    fn check_idle(&self, i: usize) -> Result<(), super::Stop> {
        if !self.done && self.idle_bytes(i) >= self.options.idle_limit {
            return Err(stop(Reason::IdleLimit(self.options.idle_limit), i));
        }
        Ok(())
    }

    /// Counting a fence marker's bytes: three or more open a fence; one or two backticks
    /// an inline code span, one or two tildes nothing.
    pub(super) fn fence_ticks(&mut self, b: &[u8], i: usize) -> Step {
        if i < b.len() {
            self.check_idle(i)?;
        }
        match b.get(i) {
            Some(&c) if c == self.preamble.fence_byte => {
                self.preamble.ticks = self.preamble.ticks.saturating_add(1);
                self.prose_tail = c;
                self.prose_last = c;
                Ok(i + 1)
            }
            Some(_) if self.preamble.ticks >= 3 => {
                let p = &mut self.preamble;
                p.fence_tag_len = 0;
                p.tag_words = 0;
                p.tag_space = false;
                p.tag_lead_space = false;
                p.tag_glued = false;
                p.tag_first = 0;
                self.state = State::FenceTag;
                Ok(i)
            }
            Some(_) if self.preamble.fence_byte == b'~' => {
                // One or two tildes: prose.
                self.saw_prose();
                self.state = State::Prose;
                Ok(i)
            }
            Some(&c) => {
                // One or two backticks: an inline code span opens (or closes) in prose.
                self.saw_prose();
                self.state = State::Prose;
                if self.preamble.in_code || self.replaying || c == b'\n' {
                    return Ok(i);
                }
                let (line, column) = self.locate(b, i);
                if self.preamble.span_open.take() == Some(line) {
                    // The close of a span that began with a bracket on this line.
                    return Ok(i);
                }
                if matches!(c, b'{' | b'[') {
                    // It may hold the answer (`` `{"a": 1}` ``): read as prose is.
                    self.preamble.span_open = Some(line);
                    return Ok(i);
                }
                let ticks = self.preamble.ticks;
                let offset = self.fed + i as u64;
                self.span = Some(Box::new(Span {
                    ticks,
                    run: 0,
                    blank: true,
                    text: Vec::new(),
                    offset,
                    line,
                    line_start: offset + 1 - column,
                }));
                Ok(i)
            }
            None => Ok(i),
        }
    }

    /// The fence's language tag (the first word after the marker), up to the end of the
    /// line. A JSON fence (```` ```json ```` or an untagged one): a root right after it is
    /// the fenced value, not a tentative one; the next fence closes it if no root began.
    /// A fence in another language opens a code block that is skipped whole (a JavaScript
    /// block that begins with an array may go on to call a method on it); inside one, a
    /// fence of its byte at least as long closes it. After prose on its line, a marker
    /// in a sentence is prose (see `Preamble::in_sentence`); so is one whose line holds
    /// its own byte again (`~~~ Final Answer ~~~`, ```` ``` x ``` ````), or a tilde
    /// marker with more than one word after it.
    pub(super) fn fence_tag(&mut self, b: &[u8], mut i: usize) -> Step {
        while let Some(&c) = b.get(i) {
            self.check_idle(i)?;
            if c == b'\n' {
                let p = &mut self.preamble;
                // In a code block, a fence closes it or not; a tagged one with nothing after
                // its tag that closes a block left open opens its own (```` ```bash ````
                // left open, then ```` ```json ````).
                let opens = match p.in_code {
                    true => {
                        let closes = p.code_fence_line();
                        p.in_code = !closes;
                        p.prose_seen = true;
                        closes && p.names_language()
                    }
                    false => true,
                };
                if !opens {
                    // A line of the block, or its closing fence.
                } else if p.in_sentence()
                    || (p.fence_byte == b'~' && p.tag_lead_space && p.tag_words > 1)
                {
                    // Backticks in a sentence (`without ``` markers.`): prose, no fence.
                    p.prose_seen = true;
                } else if p.tag_words == 0 && p.json_open {
                    // The close of a JSON fence that held no root (one scalar, or none).
                    p.json_open = false;
                    p.prose_seen = true;
                } else if p.tag_is_json() {
                    let after_prose = p.prose_seen;
                    p.prose_seen = false;
                    p.fenced = true;
                    p.json_open = true;
                    self.open_fence_scalar(b, i, after_prose);
                } else {
                    p.in_code = true;
                    p.code_fence = (p.fence_byte, p.ticks);
                    p.code_tag = (p.fence_tag, p.fence_tag_len);
                    p.code_markdown = matches!(p.tag(), b"markdown" | b"md");
                    p.code_nested = 0;
                    p.prose_seen = true;
                    // A fence in another language: any JSON fence before it was left.
                    p.json_open = false;
                }
                self.root_trail &= !self.preamble.prose_seen;
                self.state = State::Prose;
                // A value on the next line begins its line.
                self.prose_tail = 0;
                return Ok(i + 1);
            }
            let p = &self.preamble;
            // After prose on its line, a word of the tag begins with a letter or a digit
            // (`Avoid ```.` names no language).
            let starts = p.mid_line && (p.tag_words == 0 || p.tag_space);
            if !is_fence_tag(c) || (starts && matches!(c, b'-' | b'_' | b'+' | b'.')) {
                let p = &mut self.preamble;
                let json_here = matches!(c, b'{' | b'[')
                    && p.tag_words == 1
                    && p.fence_tag_len > 0
                    && p.tag_is_json()
                    && !p.in_code
                    && !p.json_open
                    && !p.in_sentence();
                if !json_here && c != p.fence_byte && !p.mid_line && p.tag_words > 0 {
                    // The rest of a fence's info string, where its line begins (```` ```js
                    // title="x" ````, ```` ```json filename=out.json ````): the fence
                    // opens at the line's end (in a code block, an example's). Glued to
                    // the tag, it makes the tag no language's (```` ```Output: ````).
                    p.tag_glued |= !p.tag_space && p.tag_words == 1;
                    p.tag_space = true;
                    i += 1;
                    continue;
                }
                if json_here {
                    // ```` ```json{"a": 1}``` ````: the fenced value, on the marker's line.
                    p.prose_seen = false;
                    p.fenced = true;
                } else {
                    // Text after the marker on the same line: prose (in a code block, its
                    // text, unless the marker closes the block).
                    p.in_code &= !p.closes_code_with_text();
                    p.prose_seen = true;
                }
                self.root_trail &= !self.preamble.prose_seen;
                self.state = State::Prose;
                return Ok(i);
            }
            if matches!(c, b' ' | b'\t') {
                self.preamble.tag_space = true;
            } else if c.is_ascii_alphanumeric() || matches!(c, b'-' | b'_' | b'+' | b'.') {
                let p = &mut self.preamble;
                if p.tag_words == 0 || p.tag_space {
                    // A word begins.
                    if p.tag_words == 0 {
                        p.tag_first = c;
                    }
                    p.tag_lead_space |= p.tag_words == 0 && p.tag_space;
                    p.tag_words = p.tag_words.saturating_add(1);
                    p.tag_space = false;
                }
                if p.tag_words == 1 {
                    match p.fence_tag.get_mut(usize::from(p.fence_tag_len)) {
                        Some(slot) => {
                            *slot = c.to_ascii_lowercase();
                            p.fence_tag_len += 1;
                        }
                        // Longer than any JSON tag: mark it as another language.
                        None => p.fence_tag[0] = b'~',
                    }
                }
            }
            i += 1;
        }
        Ok(i)
    }

    /// Matching a reasoning block's opening tag (`REASONING_TAGS`), in any case; anything
    /// else was prose.
    pub(super) fn think_open(&mut self, b: &[u8], i: usize) -> Step {
        let Some(&c) = b.get(i) else {
            return Ok(i);
        };
        // No idle check here: a tag is at most 30 bytes, and if it turns out to be
        // prose, its bytes count as prose from the byte that ended it.
        let pos = usize::from(self.preamble.tag_pos);
        // The tags that begin with what matched so far (the current one's first `pos`
        // bytes) and go on with `c`: the first of them is the one being matched.
        let matched = REASONING_TAGS
            .get(usize::from(self.preamble.tag))
            .and_then(|(open, _)| open.get(..pos))
            .unwrap_or_default();
        let next = REASONING_TAGS.iter().position(|(open, _)| {
            open.get(..pos) == Some(matched) && open.get(pos) == Some(&c.to_ascii_lowercase())
        });
        if let Some((t, (open, _))) = next.and_then(|t| Some((t, REASONING_TAGS.get(t)?))) {
            self.preamble.tag = u8::try_from(t).unwrap_or_default();
            if pos + 1 < open.len() {
                self.preamble.tag_pos += 1;
                return Ok(i + 1);
            }
            // `<think>` and `<thinking>` open a block wherever they come: one named in a
            // sentence (`wrap reasoning in <think> tags`) hides the rest of the reply, an
            // error that says so ("EOF inside a reasoning block"), where a block read as
            // prose would give its draft as the answer, silently.
            if !LEADING_ONLY.contains(&t) || !self.preamble.prose_seen {
                return Ok(self.enter_think(i, pos + 1));
            }
            // A tag named in prose: prose.
        }
        if usize::from(self.preamble.tag) == BRACKET_TAG {
            // Not `[THINK]`: the bracket that began the reply is skipped to its close, as
            // any other that fails there is (see `Scanner::abandon`), and refused.
            self.skipping = Some(super::state::Skip::to_close(b'['));
            if let Some(refusal) = self.bracket_refusal.take() {
                self.refused_root = Some(refusal);
                self.refused_weak = true;
            }
        }
        self.saw_prose();
        self.state = State::Prose;
        // What looked like a tag was prose: the limit applies to its bytes, from the first
        // one past it (at most a tag's length back, perhaps in the previous chunk).
        let over = self.idle_bytes(i).saturating_sub(self.options.idle_limit);
        if !self.done && over > 0 {
            return Err(super::Stop {
                reason: Reason::IdleLimit(self.options.idle_limit),
                at: i,
                back: u8::try_from(over).unwrap_or(u8::MAX),
            });
        }
        Ok(i)
    }

    /// The opening tag (`tag_len` bytes, ending at `i`) matched: like the block it opens,
    /// it is not prose for the idle limit.
    fn enter_think(&mut self, i: usize, tag_len: usize) -> usize {
        if usize::from(self.preamble.tag) == BRACKET_TAG {
            // Its bracket was no root refused: a tag.
            self.bracket_refusal = None;
            self.false_start = None;
        }
        self.think_bytes += tag_len as u64;
        self.preamble.tag_pos = 0;
        self.state = State::ThinkBody;
        i + 1
    }

    /// The bracket that began the reply failed as a root, its first `matched` bytes those
    /// of Magistral's `[THINK]`: the byte that failed and the next ones may go on to it.
    /// Matched as the other tags are (`think_open`); if they do not, the bracket is
    /// skipped to its close.
    pub(super) fn bracket_tag(&mut self, matched: u8) {
        // Its refusal as a root stands only if the tag does not follow (a cap or the end
        // while matching finds a cut, not a refused root).
        self.bracket_refusal = self.refused_root.take();
        self.preamble.tag = BRACKET_TAG as u8;
        self.preamble.tag_pos = matched;
        self.state = State::ThinkOpen;
    }

    /// Inside a reasoning block: everything up to the closing tag is skipped.
    pub(super) fn think_body(&mut self, b: &[u8], i: usize) -> Step {
        let close = REASONING_TAGS
            .get(usize::from(self.preamble.tag))
            .map_or(&b"</think>"[..], |(_, close)| close);
        let first = close.first().copied().unwrap_or(b'<');
        let mut j = i;
        while let Some(&c) = b.get(j) {
            let pos = usize::from(self.preamble.tag_pos);
            if close.get(pos) == Some(&c.to_ascii_lowercase()) {
                self.preamble.tag_pos += 1;
                if pos + 1 == close.len() {
                    self.think_bytes += (j + 1 - i) as u64;
                    self.preamble.block_end = self.fed + (j + 1) as u64;
                    self.preamble.tag_pos = 0;
                    self.preamble.prose_seen = false;
                    self.preamble.fenced = false;
                    self.state = State::Prose;
                    return Ok(j + 1);
                }
            } else if c == first {
                self.preamble.tag_pos = 1;
            } else {
                self.preamble.tag_pos = 0;
                // Fast-forward to the next possible tag start.
                let rest = b.get(j + 1..).unwrap_or_default();
                j += rest.iter().position(|&c| c == first).unwrap_or(rest.len());
            }
            j += 1;
        }
        self.think_bytes += (j - i) as u64;
        Ok(j)
    }

    /// Prose was read: a root after it is tentative, and a `/` after it is prose.
    pub(super) fn saw_prose(&mut self) {
        self.preamble.prose_seen = true;
        self.root_trail = false;
    }

    /// A comment before the first root is one where the reply's text begins (nothing but
    /// whitespace, reasoning or comments before it), inside a JSON fence, or right after a
    /// reply that is so far one scalar; and after the root, one with nothing but
    /// whitespace and comments between: a root named in it (`// example: {"id": 0}`,
    /// `42 // was {"a": 0}`) is no value. In other prose, `/` is prose (`https://…`,
    /// `and/or`). `offset`: the input offset of the byte the question is asked at; not
    /// `at_slash`: whether a `/` at `offset` or after it on may be (a prose run stops at
    /// each, to ask there).
    fn comment_in_prose(&self, offset: u64, at_slash: bool) -> bool {
        let place = match self.done {
            // Right after the root (`{"a": 1} // was {"a": 0}`): no value under keep-last.
            true => self.root_trail,
            false => {
                self.preamble.fenced
                    || !self.preamble.prose_seen
                    || match at_slash {
                        true => self.lone_up_to(offset),
                        false => self.lone_alive(offset),
                    }
            }
        };
        place && !self.options.strict && !self.replaying
    }

    /// The reply could still be one scalar at input offset `offset` (see
    /// [`lone`](super::lone)): followed still, or shown to be more only later.
    fn lone_alive(&self, offset: u64) -> bool {
        self.lone.is_some() || self.lone_end.is_some_and(|end| offset < end)
    }

    /// The input before offset `offset` may be one scalar and nothing else (see
    /// [`lone`](super::lone)): whitespace, reasoning and comments around it; and `offset`
    /// is not inside the scalar (`"see http://x"` holds no comment). The reply is
    /// followed ahead of the scan over each chunk, so this holds byte by byte, in any
    /// chunking.
    fn lone_up_to(&self, offset: u64) -> bool {
        if !self.lone_alive(offset) {
            return false;
        }
        let span = match &self.lone {
            Some(lone) => lone.span(),
            None => self.lone_span,
        };
        match span {
            Some((start, end)) => offset < start || end.is_some_and(|end| offset >= end),
            None => true,
        }
    }

    /// A `/` where whitespace may appear inside the value: a comment in lenient mode (or
    /// before the root, see `comment_in_prose`).
    pub(super) fn comment_start(&mut self, i: usize, resume: State) -> Step {
        if self.options.strict {
            return Err(stop(Reason::CommentInStrict, i));
        }
        self.after_comment = resume;
        self.comment_pad(1, i)?;
        self.state = State::CommentSlash;
        // Comments become spaces (newlines kept): the clean text stays aligned with the
        // input, byte for byte and line for line.
        self.comment_clean(b' ');
        Ok(i + 1)
    }

    /// A comment's byte `c` in the clean text, as a space (a line break kept) inside the
    /// value; one in prose, outside any value, keeps nothing.
    fn comment_clean(&mut self, c: u8) {
        if self.after_comment != State::Prose {
            self.clean
                .push(if matches!(c, b'\n' | b'\r') { c } else { b' ' });
        }
    }

    /// `len` bytes of a comment from `i`: padding when inside the value (see `pad`); before
    /// the root, bytes the idle limit counts as it counts prose.
    fn comment_pad(&mut self, len: usize, i: usize) -> Result<(), Stop> {
        if self.after_comment == State::Prose && self.done {
            return Ok(());
        }
        if self.after_comment == State::Prose {
            let room = self.options.idle_limit.saturating_sub(self.idle_bytes(i));
            if len as u64 > room {
                let at = i + usize::try_from(room).unwrap_or(len);
                return Err(stop(Reason::IdleLimit(self.options.idle_limit), at));
            }
            return Ok(());
        }
        match self.stack.is_empty() {
            true => Ok(()),
            false => self.pad(len, i),
        }
    }

    pub(super) fn comment_slash(&mut self, b: &[u8], i: usize) -> Step {
        match b.get(i) {
            Some(b'/') => self.state = State::LineComment,
            Some(b'*') => self.state = State::BlockComment,
            Some(_) if self.after_comment == State::Prose => {
                // A lone `/` in prose: prose after all.
                self.saw_prose();
                self.state = State::Prose;
                return Ok(i);
            }
            Some(_) => return Err(stop(Reason::InvalidComment, i)),
            None => return Ok(i),
        }
        self.comment_pad(1, i)?;
        self.comment_clean(b' ');
        Ok(i + 1)
    }

    pub(super) fn line_comment(&mut self, b: &[u8], i: usize) -> Step {
        let rest = b.get(i..).unwrap_or_default();
        // A line ends at `\n`, or at a `\r` alone (`\r\n`'s `\n` is whitespace after).
        match rest.iter().position(|&c| c == b'\n' || c == b'\r') {
            Some(nl) => {
                self.comment_pad(nl + 1, i)?;
                if self.after_comment != State::Prose {
                    self.clean.resize(self.clean.len() + nl, b' ');
                }
                self.comment_clean(rest.get(nl).copied().unwrap_or(b'\n'));
                self.state = self.after_comment;
                // Its line ended: a bracket on the next one begins its line.
                self.prose_tail = 0;
                Ok(i + nl + 1)
            }
            None => {
                self.comment_pad(rest.len(), i)?;
                if self.after_comment != State::Prose {
                    self.clean.resize(self.clean.len() + rest.len(), b' ');
                }
                Ok(b.len())
            }
        }
    }

    pub(super) fn block_comment(&mut self, b: &[u8], mut i: usize) -> Step {
        while let Some(&c) = b.get(i) {
            self.comment_pad(1, i)?;
            i += 1;
            self.comment_clean(if c == b'\n' { b'\n' } else { b' ' });
            match (self.state, c) {
                (State::BlockStar, b'/') => {
                    self.state = self.after_comment;
                    return Ok(i);
                }
                (_, b'*') => self.state = State::BlockStar,
                _ => self.state = State::BlockComment,
            }
        }
        Ok(i)
    }
}
