//! The scanner's named states and the records it keeps between chunks.

/// Where the scanner is in the grammar. Fieldless: the data of a partial token lives in
/// the scanner's own fields, so a state switch is a byte store.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum State {
    /// Lenient preamble: prose before the root, looking for `{`, `[`, a fence or `<think>`.
    Prose,
    /// Counting the backticks of a possible fence marker.
    FenceTicks,
    /// After three backticks: the optional language tag up to the end of the line.
    FenceTag,
    /// Matching a reasoning block's opening tag (`<think>`, `<thinking>`, `<reasoning>`, harmony's analysis channel, `[THINK]`).
    ThinkOpen,
    /// Inside a reasoning block, looking for its closing tag.
    ThinkBody,
    /// Expecting a value: the root in strict mode, after `[`, `,` in an array, or `:`.
    ValueStart,
    /// After `{` or `,` in an object: expecting a key (or `}`).
    KeyStart,
    /// Inside an object key.
    Key,
    /// After a key: expecting `:`.
    Colon,
    /// Inside a string value.
    Str,
    /// Inside a number.
    Number,
    /// Inside `true`, `false` or `null`.
    Literal,
    /// After a member or element: expecting `,` or the closing bracket.
    AfterValue,
    /// Seen `/` where a comment may start.
    CommentSlash,
    /// Inside a `//` comment.
    LineComment,
    /// Inside a `/* */` comment.
    BlockComment,
    /// Inside a block comment, just after a `*`.
    BlockStar,
    /// The root value is complete.
    AfterRoot,
    /// After the `]` of a possible citation in prose (`docs [1] and`, see
    /// `Scanner::citation_at_close`): what follows on its line tells.
    AfterCitation,
}

/// One open container.
#[derive(Debug, Clone, Copy)]
pub(crate) struct Frame {
    pub(crate) object: bool,
    /// Where the container's `{`/`[` sits in the clean buffer.
    pub(crate) start: usize,
    /// At least one member or element has completed.
    pub(crate) has_member: bool,
    /// The last token was a `,`.
    pub(crate) after_comma: bool,
    /// Where that `,` sits in the clean buffer.
    pub(crate) comma_at: usize,
}

/// Progress inside a number, by RFC 8259's grammar.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Num {
    Minus,
    Zero,
    Int,
    Dot,
    Frac,
    Exp,
    ExpSign,
    ExpDigit,
}

impl Num {
    /// A number may end in this state.
    pub(crate) fn is_terminal(self) -> bool {
        matches!(self, Num::Zero | Num::Int | Num::Frac | Num::ExpDigit)
    }
}

/// Progress inside an escape sequence of a string.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Esc {
    None,
    /// Seen `\`.
    Backslash,
    /// Inside `\uXXXX`: `n` digits read into `acc`; `high` is a leading surrogate waiting
    /// for this escape to complete the pair.
    Hex {
        n: u8,
        acc: u16,
        high: Option<u16>,
    },
    /// A leading surrogate is complete; its pair must start with `\`.
    HighThenBackslash(u16),
    /// A leading surrogate and `\` are read; `u` must follow.
    HighThenU(u16),
}

/// The state of the open string (key or value) between chunks.
#[derive(Debug, Clone, Copy)]
pub(crate) struct StrState {
    pub(crate) esc: Esc,
    /// Bytes of a UTF-8 character split by a chunk boundary.
    pub(crate) pending: [u8; 4],
    pub(crate) pending_len: u8,
    pub(crate) pending_need: u8,
}

impl StrState {
    pub(crate) const NEW: StrState = StrState {
        esc: Esc::None,
        pending: [0; 4],
        pending_len: 0,
        pending_need: 0,
    };
}

/// The lenient preamble's memory: fence ticks, tag matching, whether prose was seen.
#[derive(Debug, Clone, Copy)]
pub(crate) struct Preamble {
    /// The fence marker's bytes counted so far.
    pub(crate) ticks: u8,
    /// The byte the fence marker is made of: `` ` `` or `~`.
    pub(crate) fence_byte: u8,
    /// The fence marker began after prose on its line (`Sure! ```json`): a tag of more
    /// than one word there is prose (`without ``` markers.`), not a fence.
    pub(crate) mid_line: bool,
    /// Words in the marker's line after it (its first is the tag, saturating).
    pub(crate) tag_words: u8,
    /// A space has come on the marker's line since its last word.
    pub(crate) tag_space: bool,
    /// A space came between the marker and its first word (`` ``` json ``).
    pub(crate) tag_lead_space: bool,
    /// Text that is no tag's came right after the tag (```` ```Output: ````).
    pub(crate) tag_glued: bool,
    /// The tag's first byte as written (a language's name begins in lowercase).
    pub(crate) tag_first: u8,
    /// The open code block's tag (lowercase, at most 16 bytes).
    pub(crate) code_tag: ([u8; 16], u8),
    /// A JSON fence is open and no root has completed in it: the next untagged fence
    /// closes it (it may hold one scalar, a false start, or nothing).
    pub(crate) json_open: bool,
    /// The open code block's fence (its byte and length): which fences close it or open
    /// an example in it (see [`Preamble::code_fence_line`]).
    pub(crate) code_fence: (u8, u8),
    /// The open code block is Markdown (```` ```markdown ````, ```` ```md ````): a shorter
    /// untagged fence in it opens an example it shows.
    pub(crate) code_markdown: bool,
    /// Examples with fences of their own open inside the code block.
    pub(crate) code_nested: u8,
    /// Bytes of a reasoning block's opening or closing tag matched so far.
    pub(crate) tag_pos: u8,
    /// Which reasoning tag (an index into the lenient scanner's table) is being matched,
    /// or opened the block being skipped.
    pub(crate) tag: u8,
    /// Non-whitespace prose precedes the next `{`/`[`: a root there is tentative.
    pub(crate) prose_seen: bool,
    /// A JSON fence opened, and no prose has come since: a root here is its value.
    pub(crate) fenced: bool,
    /// Inside a fenced code block in another language: skipped to its closing fence.
    pub(crate) in_code: bool,
    /// An inline code span that began with a bracket (`` `{"a": 1}` ``) is open on this
    /// line: it was read as prose, and the next run of backticks on the line closes it
    /// rather than opening one.
    pub(crate) span_open: Option<u64>,
    /// The fence's language tag, lowercased (at most 16 bytes; longer ones are marked `~`).
    pub(crate) fence_tag: [u8; 16],
    pub(crate) fence_tag_len: u8,
    /// Prose resumes here after a dropped false start whose failing byte continued a
    /// character split across chunks: the prose began this many bytes earlier, in the
    /// previous chunk (for the idle limit, as if the chunks had been one).
    pub(crate) resume_back: u8,
    /// The input offset right after the last reasoning block's closing tag: a bracket
    /// there opens a value, though the tag ends in `]` (`[/THINK][1]`).
    pub(crate) block_end: u64,
}

impl Preamble {
    /// The fence tag read so far names JSON (or is empty: the tag is optional).
    pub(crate) fn tag_is_json(&self) -> bool {
        super::tables::is_json_tag(self.tag())
    }

    /// The fence marker just read, after prose on its line, is part of a sentence, not a
    /// fence: more than one word follows it (`Tip: use ```json fences`), or one that names
    /// no JSON after a space (`without ``` markers.`).
    pub(crate) fn in_sentence(&self) -> bool {
        self.mid_line
            && (self.tag_words > 1
                || (self.tag_lead_space && self.tag_words == 1 && !self.tag_is_json()))
    }

    /// The fence's tag is a language's name: a word right after the marker that begins
    /// with a lowercase letter (or names JSON, or a language in capitals: `Python`,
    /// `JavaScript`, `SQL`), with nothing glued to it, other than the
    /// open block's own (```` ```python title="x" ````, ```` ```javascript ````; not
    /// ```` ```Output ````, ```` ``` Done ````, ```` ```. ```` or a block closed with its
    /// own tag).
    pub(crate) fn names_language(&self) -> bool {
        // A name in capitals only alone on its line (```` ```Go ahead… ```` is prose).
        let named = self.tag_first.is_ascii_lowercase()
            || self.tag_is_json()
            || (self.tag_words == 1 && super::tables::is_language(self.tag()));
        // The block's own tag alone (```` ```python ```` closing a Python block).
        let (code_tag, code_len) = &self.code_tag;
        let own = self.tag_words == 1 && code_tag.get(..usize::from(*code_len)) == Some(self.tag());
        self.tag_words > 0 && named && !own && !self.tag_lead_space && !self.tag_glued
    }

    /// The fence's tag read so far (lowercase).
    pub(crate) fn tag(&self) -> &[u8] {
        self.fence_tag
            .get(..usize::from(self.fence_tag_len))
            .unwrap_or_default()
    }

    /// A fence line inside the open code block has ended: whether it closes the block. A
    /// fence that begins its line, of the block's byte: shorter than the block's and with
    /// a tag, it opens an example the block shows (```` ````markdown ```` showing
    /// ```` ```json ````), as does an untagged one in a longer Markdown block; untagged, it
    /// closes the innermost example, or the block (however long: a model may close
    /// ```` ```` ```` with three); with a tag and as long as the block's, it closes the
    /// block (a model may leave a block open).
    pub(crate) fn code_fence_line(&mut self) -> bool {
        if self.fence_byte != self.code_fence.0 || self.mid_line {
            return false;
        }
        let shorter = self.ticks < self.code_fence.1;
        let opens = match self.tag_words {
            0 => self.code_nested == 0 && shorter && self.code_markdown,
            _ => shorter,
        };
        if opens {
            self.code_nested = self.code_nested.saturating_add(1);
            return false;
        }
        if self.tag_words == 0 && self.code_nested > 0 {
            self.code_nested -= 1;
            return false;
        }
        true
    }

    /// A fence of the open code block's byte, as long, begins its line and has text after
    /// it, not a tag (```` ```. ````, ```` ``` # end ````): it closes the block, as a
    /// model means it to.
    pub(crate) fn closes_code_with_text(&self) -> bool {
        self.fence_byte == self.code_fence.0
            && !self.mid_line
            && self.tag_words == 0
            && self.code_nested == 0
            && self.ticks >= self.code_fence.1
    }
}

/// Text in prose skipped to the bracket that closes the one it began with (a citation
/// after an empty container), brackets inside counted and strings stepped over, or to the
/// end of its line if none does: none of it begins a root.
///
/// Over line breaks, a quote is read two ways at once, and the first reading to close the
/// bracket ends the skip: as opening a string that may go on to a later line (a phrase
/// quoted in prose wraps: `[the "fast\nmode" is on]`), and as opening one that a line
/// break shows was no string (a JSON string holds none), its quote a stray one and the
/// brackets after it counted (`{user's "name} is asked for.\nAnswer: {"a": 1}`).
#[derive(Debug, Clone, Copy)]
pub(crate) struct Skip {
    open: u8,
    close: u8,
    /// Strings may go on over line breaks.
    wrapped: Reading,
    /// A line break ends a string: its quote was a stray one.
    lined: Reading,
    /// A line break ends the skip.
    lines: bool,
}

/// One way of reading a skip's text (see [`Skip`]).
#[derive(Debug, Clone, Copy)]
struct Reading {
    depth: u32,
    in_string: bool,
    escape: bool,
    /// Inside a string: the depth as if its quote were a stray one in prose (0 once a
    /// bracket in it closed the skip so).
    shadow: u32,
}

/// Where a reading closed the skip.
enum Closed {
    /// Past the byte just read.
    After,
    /// Before it (a line break that showed a quote was a stray one).
    Before,
}

impl Reading {
    /// Reads byte `c`; strings end at a line break unless `wrap`.
    fn step(&mut self, c: u8, open: u8, close: u8, wrap: bool) -> Option<Closed> {
        if self.in_string {
            match (self.escape, c) {
                (_, b'\n') if !wrap => {
                    if self.shadow == 0 {
                        return Some(Closed::Before);
                    }
                    self.in_string = false;
                    self.escape = false;
                    self.depth = self.shadow;
                }
                (true, _) => self.escape = false,
                (false, b'\\') => self.escape = true,
                (false, b'"') => self.in_string = false,
                _ => {}
            }
            if self.shadow > 0 && c == open {
                self.shadow = self.shadow.saturating_add(1);
            } else if self.shadow > 0 && c == close {
                self.shadow -= 1;
            }
            return None;
        }
        if c == b'"' {
            self.in_string = true;
            self.shadow = self.depth;
        } else if c == open {
            self.depth = self.depth.saturating_add(1);
        } else if c == close {
            self.depth = self.depth.saturating_sub(1);
            if self.depth == 0 {
                return Some(Closed::After);
            }
        }
        None
    }
}

impl Skip {
    /// Inside the bracket `open` (`[` or `{`), just past it.
    pub(crate) fn new(open: u8) -> Skip {
        let reading = Reading {
            depth: 1,
            in_string: false,
            escape: false,
            shadow: 1,
        };
        Skip {
            open,
            close: if open == b'{' { b'}' } else { b']' },
            wrapped: reading,
            lined: reading,
            lines: true,
        }
    }

    /// As [`Skip::new`], over line breaks too: to the closing bracket or the input's end.
    pub(crate) fn to_close(open: u8) -> Skip {
        Skip {
            lines: false,
            ..Skip::new(open)
        }
    }

    /// Reads on in `text`: the bytes skipped, and whether the skip ended there (past the
    /// closing bracket, or before a line break).
    pub(crate) fn scan(&mut self, text: &[u8]) -> (usize, bool) {
        let (open, close) = (self.open, self.close);
        for (k, &c) in text.iter().enumerate() {
            if c == b'\n' && self.lines {
                return (k, true);
            }
            // The readings part only at a line break inside a string (over line breaks).
            let wrapped = self.wrapped.step(c, open, close, true);
            let lined = match self.lines {
                true => None,
                false => self.lined.step(c, open, close, false),
            };
            match (wrapped, lined) {
                (Some(Closed::After), _) | (_, Some(Closed::After)) => return (k + 1, true),
                (_, Some(Closed::Before)) => return (k, true),
                _ => {}
            }
        }
        (text.len(), false)
    }
}

/// An inline code span in prose (`` `x = [1, 2]` ``), just past its opening run of one or
/// two backticks: nothing in it is a value if a run of as many closes it on its line.
/// Its text is kept until then, to be read again as prose if none does (a lone backtick
/// hides nothing; a tag in it opens no reasoning block), or if it grows past
/// [`Span::MAX`] or the idle limit.
#[derive(Debug, Clone)]
pub(crate) struct Span {
    /// Backticks in the opening run; `0` for the text of a string that began the reply
    /// (see `Scanner::in_quoted`), read again as plain prose.
    pub(crate) ticks: u8,
    /// Backticks in a row just read inside it.
    pub(crate) run: u8,
    /// Its text so far is spaces and tabs only.
    pub(crate) blank: bool,
    /// The input's bytes from the first after the opening run.
    pub(crate) text: Vec<u8>,
    /// The input offset of the first of them, its line, and where that line begins.
    pub(crate) offset: u64,
    pub(crate) line: u64,
    pub(crate) line_start: u64,
}

impl Span {
    /// Longer than this, it is no inline code span (a one-line shell command or a regex
    /// may take a few hundred bytes).
    pub(crate) const MAX: usize = 2048;
}
