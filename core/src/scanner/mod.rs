//! The incremental scanner: a resumable push parser shared by every sink.
//!
//! [`Scanner::feed`] advances a state machine over each chunk exactly once. Everything a
//! token needs to resume after a chunk boundary (the container stack, an open string with
//! its escape and UTF-8 state, a number or literal in progress, a comment, the lenient
//! preamble) lives in the scanner, so the boundary may fall on any byte.

mod lenient;
mod lone;
mod scalar;
mod second;
mod state;
mod string;
mod structure;
mod tables;

use crate::error::{Error, Reason};
use crate::options::{Options, SecondRoot};
use crate::sink::{Raw, Sink};
use state::{Frame, Num, Preamble, State, StrState};

pub use second::{MAX_WARNINGS, Warning, WarningKind};

/// A complete root set aside by a second one (keep-last).
#[derive(Debug, Clone)]
struct Previous {
    clean: Vec<u8>,
    window: Window,
    root_offset: u64,
    root_position: (u64, u64),
    /// Its duplicate-key warnings, set aside with it.
    duplicates: Vec<Warning>,
}

/// The part of the root's clean text still held: offsets stay those of the whole text,
/// `clean[0]` being offset `base`.
#[derive(Debug, Clone, Copy)]
struct Window {
    base: usize,
    /// Line and column (1-based, in bytes) of offset `base` in the clean text.
    line: u64,
    column: u64,
    /// The held text's length from which a release is worth looking for.
    next_look: usize,
}

impl Window {
    const START: Window = Window {
        base: 0,
        line: 1,
        column: 1,
        next_look: RELEASE_MIN,
    };
}

/// Text below this many bytes is never released (a release moves what is kept).
const RELEASE_MIN: usize = 16 * 1024;

/// How far past the depth cap a root read in prose is followed to see whether it is JSON
/// (see `Scanner::deep`): prose does not nest brackets this deep.
const DEEP_SLACK: usize = 64;

/// The most numbers a possible citation holds (`[1, 2, 3]`) before its root is read as
/// a value, and the most digits each may have.
const CITATION_RUN: u8 = 6;
const CITATION_DIGITS: usize = 4;

/// A root read in prose, past the depth cap, being read on (see `Scanner::deep`).
#[derive(Debug, Clone)]
struct Deep {
    /// Its error, if it turns out to be JSON.
    error: Error,
    /// It is a second root: a complete value comes before it.
    second: bool,
}

/// Why a step stopped, and at which index of the current chunk.
#[derive(Debug)]
struct Stop {
    reason: Reason,
    at: usize,
    /// The error is reported this many bytes before `at` (the start of a UTF-8 character
    /// split across chunks); never across a newline.
    back: u8,
}

type Step = Result<usize, Stop>;

#[inline]
fn stop(reason: Reason, at: usize) -> Stop {
    Stop {
        reason,
        at,
        back: 0,
    }
}

/// An empty container that closed in prose (see `Scanner::empty_root`).
#[derive(Debug, Clone)]
struct EmptyRoot {
    object: bool,
    /// Its clean text, brackets included (what is inside, comments blanked, is
    /// whitespace): the clean text stays aligned with the input for error positions.
    text: Vec<u8>,
    /// Where it began: input offset, line and column.
    offset: u64,
    position: (u64, u64),
    /// It opened past the depth cap: its error, if it turns out to be the value.
    too_deep: Option<Error>,
    /// A `:` or `=` led it on its line, or it began its line (`the answer is:\n{}`):
    /// the value before a citation held earlier in the prose.
    led: bool,
}

/// The text of a root set aside in prose (a citation) and where it began.
#[derive(Debug, Clone)]
struct Held {
    text: Vec<u8>,
    place: lone::Place,
}

/// A resumable JSON scanner. Feed it chunks; it calls a [`Sink`] for every event and copies
/// the value's own bytes (without prose, comments or trailing commas) to a clean buffer.
///
/// ```
/// use settled::{IgnoreSink, Options, Scanner};
///
/// let mut scanner = Scanner::new(Options::default());
/// for chunk in ["Here it is:\n```json\n{\"a\": [1,", " 2,] // done\n}", "\n```"] {
///     scanner.feed(chunk.as_bytes(), &mut IgnoreSink)?;
/// }
/// scanner.finish(&mut IgnoreSink)?;
/// // Prose and the fence are gone; the comment and the trailing comma became spaces.
/// assert_eq!(scanner.clean(), b"{\"a\": [1, 2 ]        \n}");
/// # Ok::<(), settled::Error>(())
/// ```
#[derive(Debug, Clone)]
pub struct Scanner {
    options: Options,
    state: State,
    stack: Vec<Frame>,
    clean: Vec<u8>,
    /// Where `clean` starts in the root's clean text: the text before it was released
    /// (a sink that needs no more of it, [`Sink::released_depth`]).
    window: Window,
    /// Line and column of the open containers that start in released text: a container
    /// refused when it closes is reported at its start.
    anchors: Vec<(usize, (u64, u64))>,
    /// The last key read, escapes decoded; handed to the sink when its value begins.
    key: String,
    /// The open string is a key.
    in_key: bool,
    /// The open string is a tentative array's element: it confirms the root only once a
    /// separator follows it (`Use "[" for arrays` is prose), so its text is not sent yet.
    hold_string: bool,
    /// Clean-buffer span of the last key read, quotes included.
    key_start: usize,
    key_end: usize,
    /// A key of a tentative root closed: it goes to the sink when the root is confirmed.
    key_pending: bool,
    /// The clean-text span of a tentative root's first number or literal: complete, but
    /// not a member until a separator follows it (`[1/3]` in prose is not a value). It
    /// goes to the sink when the root is confirmed.
    scalar_pending: Option<(usize, usize)>,
    /// A possible citation of several numbers after a word (`both studies [1, 2] agree`):
    /// the clean-text start of the numbers held before `scalar_pending`, and how many.
    /// Their commas confirm nothing; they go to the sink when the root is confirmed (see
    /// `Scanner::hold_in_citation`).
    held_run: Option<(usize, u8)>,
    /// A typed stream's root is an object (or an array): a bracket of the other shape in
    /// prose is prose.
    root_shape: Option<bool>,
    /// The shape of a root array's elements, when the stream knows it (`true`: objects,
    /// `false`: arrays): a root array in prose whose element has another is prose
    /// (`see [1]` before a list of objects).
    element_shape: Option<bool>,
    string: StrState,
    number: Num,
    literal: &'static [u8],
    literal_pos: u8,
    /// Clean-buffer start of the open scalar.
    scalar_start: usize,
    preamble: Preamble,
    /// State to return to when the open comment ends.
    after_comment: State,
    /// The root began in prose and its first member is not yet confirmed: nothing has been
    /// sent to the sink, and a syntax error drops it instead of failing.
    tentative: bool,
    /// Bytes fed before the current chunk.
    fed: u64,
    /// 1-based line of the first byte of the current chunk, and the offset its line starts at.
    line: u64,
    line_start: u64,
    /// Bytes skipped inside reasoning blocks (not counted by the idle limit).
    think_bytes: u64,
    /// Input offset of the current root's first byte (the clean buffer's first byte).
    root_offset: u64,
    /// Line and column of the root's first byte.
    root_position: (u64, u64),
    /// Line and column of a second root's first byte.
    second_position: (u64, u64),
    /// Newlines of the current chunk are counted up to this index (for `locate`).
    scan_at: usize,
    scan_line: u64,
    scan_line_start: u64,
    /// Offset of the last tentative root dropped, for the `NoStructure` message.
    false_start: Option<u64>,
    /// An empty container that closed in prose (`- [ ] task`, "use `{}` here"): it
    /// confirmed no member, so it is prose unless no other root comes before the input
    /// ends; then it is the value.
    empty_root: Option<EmptyRoot>,
    /// The first citation read in prose (`the docs [1] say`, see
    /// `Scanner::citation_at_close`), its text and place: the value if no other root
    /// comes before the input ends.
    citation: Option<Box<Held>>,
    /// The error of the last tentative root dropped after its first key and colon, at its
    /// first value (`Sure: {"a": 01}`): a key and a colon say it was meant as JSON, so if
    /// no other root is confirmed, this is what the reading ends with (not `NoStructure`,
    /// nor an empty container held in prose).
    refused_root: Option<Error>,
    /// `refused_root` was refused at its first key only (see `Scanner::refusable`): an
    /// empty container held in prose outranks it.
    refused_weak: bool,
    /// Right after a complete root, only whitespace and comments since (see
    /// `comment_in_prose`).
    root_trail: bool,
    /// How many of the input's first bytes are those of a byte-order mark (3: it has one).
    bom_len: u8,
    /// `refused_root` set aside while what followed the bracket may be `[THINK]`.
    bracket_refusal: Option<Error>,
    /// The root is an array where the reply begins (no prose before it): the value once
    /// its first element begins as a container or a string (or it closes), or is a number
    /// or a literal a separator follows; but prose if it fails before that (`[NOTE] …`,
    /// `[note]`, `[12:30]`, `[Link](…)` open replies too). Prose then, to its closing
    /// bracket; and if no other value comes, its error is the reading's (`[NaN]`), as a
    /// root refused after a key and its colon is.
    bare_array: bool,
    /// The root is an object where the reply begins (no prose before it, no JSON fence
    /// around it): the value once its first key begins (its quote) or it closes; but prose
    /// if anything else comes first (`{name} is the key. {"a": 1}`, `{{name}}, here:`),
    /// to its closing brace; and if no other value comes, its error is the reading's
    /// (`{name: 1}`: a key must be a string), as for `bare_array`.
    bare_object: bool,
    /// The tentative root is an array opened where a citation would be (see
    /// `citation`): it is read as JSON only if a line break comes before its first
    /// element (`Results:\n[\n  "a",`) or that element is no number (`["a"]`,
    /// `[{"a": 1}]`, `[[1]]`); else it is dropped as prose there (`[1]`, `[ ]`).
    citation_open: bool,
    /// The last byte of prose before a line break or a root, whitespace aside (0 where a
    /// line begins; a NUL byte of prose is kept as 1): what a possible citation follows
    /// (see `citation_led`), and whether a fence marker begins its line.
    prose_tail: u8,
    /// The last byte of prose that is not whitespace, on whatever line: what leads a root
    /// that begins its line (`Answer:\n[42]`).
    prose_last: u8,
    /// The root being read was led by `:` or `=` (`Result: [3]`, `x = [1]`): it is no
    /// citation (see `Scanner::citation_at_close`).
    citation_led: bool,
    /// The root being read began its line (`Answer:\n[42]`): a citation only if a word
    /// follows it on its line, as in a list of references (`[1] Smith, 2020.`,
    /// `[1]: https://…`); alone on its line, or at the input's end, it is a value.
    line_led: bool,
    /// The root being read began inside a JSON fence, before any prose there (`fenced`
    /// stays set past the fence's close: only before prose does it say a bracket is in
    /// one): no citation, and the next untagged fence after it closes that fence.
    root_fenced: bool,
    /// The tentative root is an array opened right after a word, a bracket or a
    /// parenthesis (`arr[0]`, `text[^1]`, `m[1][2]`): closed after one scalar, it was an
    /// index or a footnote, and is dropped as prose there. A comma or a container confirms
    /// it as any other (`functools[{…}]`, `[TOOL_CALLS][{…}]`, `…assistantfinal[2, 3]`).
    index_open: bool,
    /// Prose being skipped to a closing bracket (a citation dropped as prose): see
    /// [`Skip`](state::Skip).
    skipping: Option<state::Skip>,
    /// An inline code span being read past (see [`Span`](state::Span)).
    span: Option<Box<state::Span>>,
    /// A span that turned out to be none, to be read again as prose before the next step.
    span_replay: Option<Box<state::Span>>,
    /// The text of a string that began the reply, held while the reply may be that one
    /// string (see `Scanner::in_quoted`).
    quoted: Option<Box<state::Span>>,
    /// The input offset of the byte that showed the reply to be more than one scalar
    /// (see [`lone`]), once one has.
    lone_end: Option<u64>,
    /// Where the scalar the reply began with was (see [`lone::Lone::span`]), once the
    /// reply showed it is more than that scalar.
    lone_span: Option<(u64, Option<u64>)>,
    /// A reply that is one string may be the value (lenient, and no typed root of
    /// another shape).
    lone_strings: bool,
    /// A typed root of a shape that also reads `null` (an `Option`): a reply that is
    /// `null` (alone, or in a JSON fence) is its value (lenient).
    lone_null: bool,
    /// A span's text is being read again: backticks open no span in it.
    replaying: bool,
    /// The last byte of the chunks fed before this one (0 before any): the byte before a
    /// chunk's first.
    last_fed: u8,
    /// A root value has completed (lenient mode keeps looking for a second one).
    done: bool,
    /// Clean-buffer offset where a second root's text begins (the first root's length).
    second_start: usize,
    /// The complete root a second one replaced (keep-last), until that one completes: the
    /// value kept if the input ends inside the second.
    previous: Option<Previous>,
    /// Input offset of the second root's first byte.
    second_offset: u64,
    /// The second root opened right after a tagged JSON fence (```` ```json ````): it
    /// was meant as a value, however little of it came.
    second_fenced: bool,
    /// A second root is being scanned for detection only (keep-first policy): its events
    /// go nowhere.
    muted: bool,
    /// A muted second root was just confirmed.
    second_confirmed: bool,
    /// A root read in prose (a first or a second one) nested past the depth cap before
    /// anything confirmed it, and the error it gets if it turns out to be JSON. Until it shows which, it is read on with
    /// its events muted and the cap raised by [`DEEP_SLACK`]; a false start ("[[wikilinks]]"
    /// under a small cap) is then dropped as prose, and never leaves a fragment of a deeper
    /// value behind as the answer.
    deep: Option<Deep>,
    /// After a detected second root: everything else is ignored.
    ignore_rest: bool,
    /// Bytes of whitespace (and comments) in a row inside the value, for the stall guard.
    ws_run: u64,
    warnings: Vec<Warning>,
    error: Option<Error>,
    /// The reply read so far may be one scalar and nothing else (lenient reading of a
    /// stream that expects no root shape; see [`lone`]): read as the value at the end.
    lone: Option<lone::Lone>,
    /// A JSON fence opened after prose (`Result:\n```json\n42\n```\n`) may hold one
    /// scalar: read as the value at the end if no root came (see [`lone`]). The one being
    /// followed, in the fence open now.
    fence_scalar: Option<Box<lone::Lone>>,
    /// The scalar of a fence that closed after it: the first one, or under keep-last the
    /// last one.
    fence_kept: Option<Box<lone::Lone>>,
    /// Held text is being scanned again (see `Scanner::scan_again`): the bytes are not the
    /// chunk's.
    again: bool,
}

impl Scanner {
    /// A scanner in lenient or strict mode, as `options` says.
    pub fn new(options: Options) -> Self {
        let lone = (!options.strict).then(|| lone::Lone::new(options.starts_in_reasoning));
        let state = if options.strict {
            State::ValueStart
        } else if options.starts_in_reasoning {
            // Inside the block the prompt opened: `tag` 0 is `<think>`'s.
            State::ThinkBody
        } else {
            State::Prose
        };
        Scanner {
            options,
            state,
            stack: Vec::new(),
            clean: Vec::new(),
            window: Window::START,
            anchors: Vec::new(),
            key: String::new(),
            in_key: false,
            hold_string: false,
            key_start: 0,
            key_end: 0,
            key_pending: false,
            scalar_pending: None,
            held_run: None,
            root_shape: None,
            element_shape: None,
            string: StrState::NEW,
            number: Num::Int,
            literal: b"",
            literal_pos: 0,
            scalar_start: 0,
            preamble: Preamble {
                ticks: 0,
                fence_byte: b'`',
                mid_line: false,
                tag_words: 0,
                tag_space: false,
                tag_lead_space: false,
                tag_glued: false,
                tag_first: 0,
                code_tag: ([0; 16], 0),
                json_open: false,
                code_fence: (b'`', 3),
                code_markdown: false,
                code_nested: 0,
                tag_pos: 0,
                tag: 0,
                prose_seen: false,
                fenced: false,
                in_code: false,
                span_open: None,
                resume_back: 0,
                block_end: 0,
                fence_tag: [0; 16],
                fence_tag_len: 0,
            },
            after_comment: State::ValueStart,
            tentative: false,
            fed: 0,
            line: 1,
            line_start: 0,
            think_bytes: 0,
            root_offset: 0,
            root_position: (1, 1),
            second_position: (1, 1),
            scan_at: 0,
            scan_line: 1,
            scan_line_start: 0,
            false_start: None,
            empty_root: None,
            citation: None,
            refused_root: None,
            refused_weak: false,
            bracket_refusal: None,
            root_trail: false,
            bom_len: 0,
            bare_array: false,
            bare_object: false,
            citation_open: false,
            prose_tail: 0,
            prose_last: 0,
            citation_led: false,
            line_led: false,
            root_fenced: false,
            index_open: false,
            skipping: None,
            span: None,
            span_replay: None,
            quoted: None,
            lone_end: None,
            lone_span: None,
            lone_strings: lone.is_some(),
            lone_null: lone.is_some(),
            replaying: false,
            last_fed: 0,
            done: false,
            second_start: 0,
            previous: None,
            second_offset: 0,
            second_fenced: false,
            muted: false,
            second_confirmed: false,
            deep: None,
            ignore_rest: false,
            ws_run: 0,
            warnings: Vec::new(),
            error: None,
            lone,
            fence_scalar: None,
            fence_kept: None,
            again: false,
        }
    }

    /// Only a root of this shape (`true`: an object, `false`: an array) may begin in prose;
    /// a bracket of the other shape there is prose (`as noted in [1]` before an object).
    /// With `nullable`, a reply that is `null` and nothing else is the value too.
    pub(crate) fn expect_root(&mut self, object: bool, nullable: bool) {
        self.root_shape = Some(object);
        self.lone_strings = false;
        self.lone_null = self.lone_null && nullable;
        // A typed root of that shape is no other scalar.
        match (&mut self.lone, nullable) {
            (Some(lone), true) => lone.null_only(),
            (Some(lone), false) => lone.no_value(),
            (None, _) => {}
        }
    }

    /// A root array's elements have this shape (`true`: objects, `false`: arrays): in a
    /// root array that began in prose and is not yet confirmed, an element of another
    /// shape shows the array to be prose (`see [1]` before a list of objects). `null` is
    /// of every shape, and an array may stand for an object (serde reads a struct from
    /// one).
    pub(crate) fn expect_elements(&mut self, object: bool) {
        self.element_shape = Some(object);
    }

    /// The options this scanner was built with.
    pub fn options(&self) -> &Options {
        &self.options
    }

    /// The value's clean JSON text so far: no prose, fences, comments or trailing commas.
    /// A sink that asks for it ([`Sink::released_depth`]) has the text of what it has
    /// built released: this then holds the text after that.
    pub fn clean(&self) -> &[u8] {
        &self.clean
    }

    /// The input offset of the clean buffer's first byte. The clean text is aligned with
    /// the input from there: comments and trailing commas are blanked, not removed, so clean
    /// offset `n` is input offset `root_offset() + n`, on the same line.
    pub(crate) fn root_offset(&self) -> u64 {
        self.root_offset
    }

    /// Bytes fed so far, prose included.
    pub fn offset(&self) -> u64 {
        self.fed
    }

    /// Where the next byte goes: offset, line and column just past the bytes fed.
    pub fn position(&self) -> crate::Position {
        crate::Position {
            offset: self.fed,
            line: self.line,
            column: self.fed.saturating_sub(self.line_start) + 1,
        }
    }

    /// Containers open right now.
    pub fn depth(&self) -> usize {
        self.stack.len()
    }

    /// A root value is complete (lenient mode may still be reading prose after it, or a
    /// second value under [`SecondRoot::KeepLast`](crate::SecondRoot::KeepLast)).
    pub fn is_complete(&self) -> bool {
        self.done
            && (self.state == State::AfterRoot || self.tentative || self.muted || self.in_prose())
    }

    fn in_prose(&self) -> bool {
        let comment = matches!(
            self.state,
            State::CommentSlash | State::LineComment | State::BlockComment | State::BlockStar
        );
        matches!(
            self.state,
            State::Prose
                | State::FenceTicks
                | State::FenceTag
                | State::ThinkOpen
                | State::ThinkBody
        ) || (comment && self.after_comment == State::Prose)
    }

    /// The error that stopped the scanner, if any.
    pub fn error(&self) -> Option<&Error> {
        self.error.as_ref()
    }

    /// What the scanner noticed but tolerated (a second JSON value after the root).
    /// The first [`MAX_WARNINGS`](crate::MAX_WARNINGS), in input order.
    pub fn warnings(&self) -> &[Warning] {
        &self.warnings
    }

    /// Scans one chunk of any size, calling `sink` for each event.
    ///
    /// After an error the scanner stays failed: later calls return the same error.
    pub fn feed<S: Sink>(&mut self, chunk: &[u8], sink: &mut S) -> Result<(), Error> {
        if let Some(error) = &self.error {
            return Err(error.clone());
        }
        let room = self.options.max_bytes.saturating_sub(self.fed);
        let take = usize::try_from(room).map_or(chunk.len(), |room| room.min(chunk.len()));
        let (bytes, over) = chunk.split_at(take);
        if let Some(lone) = &mut self.lone {
            if let Some(k) = lone.feed(bytes) {
                self.lone_span = lone.span();
                self.lone_end = Some(self.fed + k as u64);
                // A fenced scalar followed by prose (```` ```json\n1\n```\nHope… ````):
                // the fence's value still.
                if let Some(lone) = self.lone.take().filter(lone::Lone::closed) {
                    self.fence_kept = Some(Box::new(lone));
                }
            }
        }
        if self.fence_scalar.is_some() {
            self.follow_fence_scalar(bytes);
        }
        // The input's first bytes: a byte-order mark, while each is the next of one.
        let bom_bytes = if self.fed < 3 { bytes } else { &[] };
        for (k, &c) in bom_bytes.iter().enumerate().take(3) {
            let at = self.fed + k as u64;
            if at != u64::from(self.bom_len) || !tables::is_bom_byte(at, c) {
                break;
            }
            self.bom_len += 1;
        }
        self.scan_at = 0;
        self.scan_line = self.line;
        self.scan_line_start = self.line_start;
        self.scan(bytes, sink)?;
        if !over.is_empty() {
            // The reading stops at the cap inside what may be code: its text is not read
            // as the answer (a lower cap would read it, a higher one the answer after it).
            self.span = None;
            self.quoted = None;
        }
        if !over.is_empty() && !self.options.strict && self.complete_at_cap(sink) {
            // The root is complete: what comes past the cap (prose, a second value) is not
            // read, and the value stands.
            self.advance(bytes);
            return Ok(());
        }
        // A sink that halted (a value refused) stopped the scan before the cap: its error
        // is the one to report, as it is when the bytes past the cap come in a later chunk.
        if !over.is_empty() && !sink.halted() {
            if let Some(error) = &self.error {
                // A root refused at its first value ended the reading there.
                return Err(error.clone());
            }
            let reason = Reason::TooLarge(self.options.max_bytes);
            self.confirm_bare(sink);
            return Err(self.fail(reason, bytes, bytes.len()));
        }
        self.advance(bytes);
        // The sink is asked only once enough text has come since the last look.
        if self.clean.len() >= self.window.next_look {
            self.release(sink.released_depth());
            self.window.next_look = self.clean.len() + RELEASE_MIN / 4;
        }
        Ok(())
    }

    /// Steps through `bytes`, the chunk being fed (or a span's text read again: see
    /// [`Scanner::replay_span`]), handling what each step stops at.
    fn scan<S: Sink>(&mut self, bytes: &[u8], sink: &mut S) -> Result<(), Error> {
        let mut i = 0;
        while i < bytes.len() {
            let step = if self.muted || self.deep.is_some() {
                self.step(bytes, i, &mut crate::IgnoreSink)
            } else {
                self.step(bytes, i, sink)
            };
            match step {
                Ok(next) => {
                    i = next;
                    if let Some(span) = self.span_replay.take() {
                        self.replay_span(&span, sink)?;
                    }
                }
                Err(s) if self.deep_candidate(s.reason) => {
                    // Read on from the same byte, the cap raised: see `deep`.
                    let error = self.error_at(s.reason, bytes, s.at, s.back);
                    self.deep = Some(Deep {
                        error,
                        second: self.done,
                    });
                    i = s.at;
                }
                // Past the raised cap too: JSON that nests this deep is not prose.
                Err(s) if self.deep.is_some() && s.reason.kind() == crate::ErrorKind::TooDeep => {
                    self.deep_is_json()?;
                    i = s.at;
                }
                Err(s) if matches!(s.reason, Reason::IdleLimit(_)) && self.refusal_stands() => {
                    // No other value began in time: the error of the root refused at its
                    // first value is the reading's. (An empty container or a citation held
                    // in the prose is not the value: reading on may have replaced it, so
                    // the limit's own error stands, as at the byte cap.)
                    match self.fall_back_on_empty_root(sink) {
                        Some(Ok(())) => i = s.at,
                        Some(Err(error)) => return Err(error),
                        None => return Err(self.fail_back(s.reason, bytes, s.at, s.back)),
                    }
                }
                Err(s) if self.droppable(s.reason) => {
                    // A weak refusal does not replace a strong one.
                    let refused = self
                        .refusable()
                        .filter(|&weak| !weak || self.refused_root.is_none() || self.refused_weak);
                    if let Some(weak) = refused {
                        // Past the depth cap, the depth is what is wrong with it first.
                        self.refused_root = Some(match &self.deep {
                            Some(deep) => deep.error.clone(),
                            None => self.error_located(s.reason, bytes, s.at, s.back),
                        });
                        self.refused_weak = weak;
                    }
                    i = self.abandon(s, bytes.len(), sink);
                }
                Err(s) if self.replaced_by_invalid(s.reason, sink) => {
                    // The complete value is back; nothing after the broken one is read.
                    self.ignore_rest = true;
                    i = bytes.len();
                }
                Err(s) => match self.deep.take() {
                    Some(deep) => return Err(self.fail_with(deep.error)),
                    None => {
                        self.confirm_bare(sink);
                        return Err(self.fail_back(s.reason, bytes, s.at, s.back));
                    }
                },
            }
            // The deep root was confirmed (or, a first root, completed): it is JSON.
            if let Some(deep) = &self.deep {
                if !self.tentative || (!deep.second && self.done) {
                    self.deep_is_json()?;
                }
            }
            if self.second_confirmed {
                self.keep_first();
            }
            if sink.halted() {
                break;
            }
        }
        Ok(())
    }

    /// The input ends, or is cut, or stops at the byte cap, right after a possible
    /// citation (see `Scanner::citation_at_close`): nothing followed it on its line, so it
    /// is a value (a second one as the policy reads one), unless an empty container came
    /// before it in the prose and a word leads it (`Result: []` then `as noted in [2].`):
    /// that one is then the value, as it is where a word follows the citation, and this
    /// returns false with the citation dropped, for the caller to fall back on the empty
    /// one. (One that begins its line, a typed list's answer after `- [ ] task`, stands.)
    pub(super) fn end_citation<S: Sink>(&mut self, sink: &mut S) -> bool {
        if self.done && !self.line_led {
            // After the answer, a citation is prose to the end (`See [1]`).
            self.drop_root();
            return true;
        }
        if !self.done && self.empty_root.is_some() && !self.line_led {
            self.drop_root();
            return false;
        }
        if self.muted || self.deep.is_some() {
            self.close_held(&mut crate::IgnoreSink);
        } else {
            self.close_held(sink);
        }
        if self.second_confirmed {
            self.keep_first();
        }
        true
    }

    /// Reads a span's text again, as prose (see [`Span`](state::Span)), at its place in
    /// the input; the chunk then goes on where the span stopped being one.
    fn replay_span<S: Sink>(&mut self, span: &state::Span, sink: &mut S) -> Result<(), Error> {
        let place = (span.offset, span.line, span.line_start);
        if span.ticks == 0 {
            // The text of a string that began the reply: prose, read as any prose is.
            return self.scan_again(&span.text, place, b'"', sink);
        }
        self.replaying = true;
        let scanned = self.scan_again(&span.text, place, b'`', sink);
        self.replaying = false;
        scanned
    }

    /// Scans `text` again where it was read (its offset, line, and the offset that line
    /// starts at), after the byte `before`; the place of the chunk being fed comes back
    /// after it.
    fn scan_again<S: Sink>(
        &mut self,
        text: &[u8],
        (offset, line, line_start): lone::Place,
        before: u8,
        sink: &mut S,
    ) -> Result<(), Error> {
        let chunk = (
            self.fed,
            self.line,
            self.line_start,
            self.scan_at,
            self.scan_line,
            self.scan_line_start,
            self.last_fed,
        );
        self.fed = offset;
        self.line = line;
        self.line_start = line_start;
        self.scan_at = 0;
        self.scan_line = line;
        self.scan_line_start = line_start;
        self.last_fed = before;
        let again = std::mem::replace(&mut self.again, true);
        let scanned = self.scan(text, sink);
        self.again = again;
        (
            self.fed,
            self.line,
            self.line_start,
            self.scan_at,
            self.scan_line,
            self.scan_line_start,
            self.last_fed,
        ) = chunk;
        scanned
    }

    /// The input ends (or the provider cut it) inside an inline code span that no run of
    /// backticks closed: its text is prose, read again.
    fn end_span<S: Sink>(&mut self, sink: &mut S) -> Result<(), Error> {
        if let Some(quoted) = self.quoted.take() {
            // Not one scalar after all (one cut inside was read by `read_lone`).
            self.state = State::Prose;
            return self.replay_span(&quoted, sink);
        }
        let Some(span) = self.span.take() else {
            return Ok(());
        };
        if span.run == span.ticks {
            // Closed by the input's last bytes.
            return Ok(());
        }
        self.state = State::Prose;
        self.replay_span(&span, sink)
    }

    /// Ends the input: completes a root number, or reports what the input ended inside.
    pub fn finish<S: Sink>(&mut self, sink: &mut S) -> Result<(), Error> {
        if let Some(error) = &self.error {
            return Err(error.clone());
        }
        // First: nothing held from the prose (a code span's text, a root past the depth
        // cap) is read when the whole input was one scalar.
        if self.read_lone(sink)? {
            match self.state {
                State::Number if self.number.is_terminal() => {
                    self.emit_number(sink);
                    self.value_done();
                    return Ok(());
                }
                State::AfterRoot => return Ok(()),
                // The scanner reads it otherwise than serde: what it says stands.
                _ => {}
            }
        }
        self.end_span(sink)?;
        // The input ended inside a root nested past the cap, before it showed whether it
        // was JSON: the depth is what is wrong with it (a second root's is dropped).
        self.deep_is_json()?;
        // Nothing followed it on its line: it was the answer (`Result: [3]`).
        if self.state == State::AfterCitation && self.end_citation(sink) {
            return Ok(());
        }
        if self.done && (self.tentative || self.muted || self.in_prose()) {
            if self.tentative || self.muted {
                self.note_cut_second_root();
                self.drop_root();
            }
            return Ok(());
        }
        if self.state == State::ThinkOpen && usize::from(self.preamble.tag) == lenient::BRACKET_TAG
        {
            // Cut inside `[TH…` where the reply begins: an array or Magistral's `[THINK]`,
            // cut either way (no refusal of the bracket as a root).
            self.bracket_refusal = None;
            return Err(self.fail(Reason::EofWhileParsingArray, &[], 0));
        }
        if let Some(result) = self.fall_back_on_empty_root(sink) {
            return result;
        }
        self.confirm_bare(sink);
        let reason = match self.state {
            State::AfterRoot => return Ok(()),
            State::Number if self.stack.is_empty() && self.number.is_terminal() => {
                self.emit_number(sink);
                self.value_done();
                return Ok(());
            }
            State::Prose | State::FenceTicks | State::FenceTag | State::ThinkOpen => {
                match self.false_start {
                    Some(offset) => Reason::EofAfterFalseStart(offset),
                    None => Reason::EofBeforeValue,
                }
            }
            // Inside a comment before the root.
            State::CommentSlash | State::LineComment | State::BlockComment | State::BlockStar
                if self.after_comment == State::Prose =>
            {
                Reason::EofBeforeValue
            }
            State::ThinkBody => Reason::EofInThink,
            State::ValueStart if self.stack.is_empty() && self.options.strict => {
                Reason::EofBeforeStrictValue
            }
            State::ValueStart if self.stack.is_empty() => Reason::EofBeforeValue,
            _ if self.tentative && !self.bare() => Reason::EofInTentativeRoot,
            State::Str | State::Key => Reason::EofWhileParsingString,
            State::Number => Reason::EofWhileParsingNumber,
            State::Literal => Reason::EofWhileParsingValue,
            _ => match self.stack.last() {
                Some(frame) if frame.object => Reason::EofWhileParsingObject,
                _ => Reason::EofWhileParsingArray,
            },
        };
        if reason.kind() == crate::ErrorKind::Truncated
            && self.restore_previous(sink, second::WarningKind::SecondValueCut)
        {
            return Ok(());
        }
        Err(self.fail(reason, &[], 0))
    }

    /// The whole input was one scalar and nothing else (see [`lone`]) and no root was
    /// shown (none began, or one began in it that is still tentative, or is past the depth
    /// cap and only looked at): it is read again as the value, at its own offsets, as
    /// strict mode reads it. True when it was (the state then says where its reading
    /// ended: a complete value, a number, or inside it).
    fn read_lone<S: Sink>(&mut self, sink: &mut S) -> Result<bool, Error> {
        // A fence open at the end holds the last scalar (its closing fence perhaps cut),
        // which keep-last reads, as it reads a cut value (`Truncated`); keep-first reads
        // the first one kept.
        let keep_last = self.options.second_root == SecondRoot::KeepLast;
        let open = self
            .fence_scalar
            .take()
            .filter(|lone| lone.scalar().or_else(|| lone.cut()).is_some());
        let fenced = match keep_last {
            true => open.or_else(|| self.fence_kept.take()),
            false => self.fence_kept.take().or(open),
        };
        let (lone, fenced) = match (self.lone.take(), fenced) {
            (Some(lone), _) => (lone, false),
            (None, Some(lone)) => (*lone, true),
            (None, None) => return Ok(false),
        };
        // One cut inside it is read again too, and ends as the value cut (`Truncated`).
        let Some((text, place)) = lone.scalar().or_else(|| lone.cut()) else {
            return Ok(false);
        };
        let shown = !(self.stack.is_empty() || self.tentative || self.deep.is_some());
        // A fence's scalar gives way to a root begun after it, even one cut while
        // tentative (a cut is never silent), but not to a citation held at its `]`.
        let rooted =
            (!self.stack.is_empty() && self.state != State::AfterCitation) || self.deep.is_some();
        if self.done || shown || (fenced && rooted) {
            return Ok(false);
        }
        self.drop_root();
        self.false_start = None;
        self.empty_root = None;
        self.refused_root = None;
        self.span = None;
        self.quoted = None;
        self.skipping = None;
        self.state = State::ValueStart;
        self.scan_again(text, place, b' ', sink)?;
        if lone.ended() && self.state == State::Number && self.number.is_terminal() {
            // `42 `: nothing more of the number was to come.
            self.emit_number(sink);
            self.value_done();
        }
        Ok(true)
    }

    /// A JSON fence opened after prose at `i`, its tag line ending there (see
    /// `fence_scalar`): the rest of the chunk is followed from the next line.
    pub(super) fn open_fence_scalar(&mut self, b: &[u8], i: usize, after_prose: bool) {
        if !after_prose || self.lone.is_some() || !self.lone_null || self.done || self.again {
            return;
        }
        // The first one stays, unless the last value is kept (`Example:` then `Actual:`).
        let keep_last = self.options.second_root == SecondRoot::KeepLast;
        if self.fence_scalar.is_some() || (self.fence_kept.is_some() && !keep_last) {
            return;
        }
        let (line, _) = self.locate(b, i);
        let next = self.fed + i as u64 + 1;
        let mut lone = lone::Lone::in_fence(self.preamble.fence_byte, (next, line + 1, next));
        if !self.lone_strings {
            // A typed root of a shape that reads `null` too: that is the one scalar.
            lone.null_only();
        }
        self.fence_scalar = Some(Box::new(lone));
        self.follow_fence_scalar(b.get(i + 1..).unwrap_or_default());
    }

    /// Follows the fenced scalar through `bytes`: one that a closed fence showed stays (as
    /// the value if no root comes); anything else that ends it drops it.
    #[cold]
    #[inline(never)]
    fn follow_fence_scalar(&mut self, bytes: &[u8]) {
        if let Some(lone) = &mut self.fence_scalar {
            if lone.feed(bytes).is_some() {
                if let Some(lone) = self.fence_scalar.take().filter(|lone| lone.closed()) {
                    self.fence_kept = Some(lone);
                }
            }
        }
    }

    /// The provider cut the response (finish reason `reason`): a truncation, unless the
    /// value is already complete (or a complete value before it is kept, keep-last).
    pub(crate) fn cut<S: Sink>(&mut self, reason: &'static str, sink: &mut S) -> Result<(), Error> {
        if let Some(error) = &self.error {
            return Err(error.clone());
        }
        // A reply that is one scalar is read as the value: one the cut left complete (a
        // string, a literal) stands; a number may have gone on, and one cut inside is cut.
        if self.read_lone(sink)? && self.state == State::AfterRoot {
            return Ok(());
        }
        self.end_span(sink)?;
        self.deep_is_json()?;
        if self.state == State::AfterCitation {
            // The value was complete when the provider cut what followed it (or an empty
            // container before it was, which a cut does not make the answer).
            self.end_citation(sink);
        }
        if self.done && (self.tentative || self.muted) {
            self.note_cut_second_root();
            self.drop_root();
        }
        if self.is_complete() || self.restore_previous(sink, second::WarningKind::SecondValueCut) {
            return Ok(());
        }
        // Nothing held from the prose stands in for the answer the provider cut: an empty
        // container or a refused example is far likelier prose than the whole answer.
        self.confirm_bare(sink);
        Err(self.fail(Reason::Cut(reason), &[], 0))
    }

    /// The root is an array or an object where the reply begins (see `bare_array`,
    /// `bare_object`).
    fn bare(&self) -> bool {
        self.bare_array || self.bare_object
    }

    /// The reading stops (the input ends, a limit) inside an array where the reply begins,
    /// before a separator followed its first number or literal, or inside an object there
    /// before its first key: nothing refused it, so it is the answer, stopped there, and
    /// its draft shows what came (`[` of `[1`, `{` of `{ `).
    fn confirm_bare<S: Sink>(&mut self, sink: &mut S) {
        if self.tentative && self.bare() && !self.done && self.deep.is_none() {
            self.confirm(sink);
        }
    }

    /// The input ended inside a root that replaced a complete one (keep-last): that one
    /// is the value again, with a warning. False when there is none.
    fn restore_previous<S: Sink>(&mut self, sink: &mut S, why: second::WarningKind) -> bool {
        let Some(previous) = self.previous.take() else {
            return false;
        };
        self.clean = previous.clean;
        self.window = previous.window;
        self.anchors.clear();
        self.root_offset = previous.root_offset;
        self.root_position = previous.root_position;
        self.stack.clear();
        self.tentative = false;
        self.key_pending = false;
        self.scalar_pending = None;
        self.held_run = None;
        self.in_key = false;
        self.done = true;
        self.state = State::AfterRoot;
        sink.restore();
        self.bring_duplicates_back(previous.duplicates);
        self.warn(why, self.second_offset);
        true
    }

    /// Dispatches on the state; each handler consumes at least one byte or changes state
    /// so that the next handler does.
    #[inline]
    fn step<S: Sink>(&mut self, b: &[u8], i: usize, sink: &mut S) -> Step {
        match self.state {
            State::Str | State::Key => self.string(b, i, sink),
            State::AfterValue => self.after_value(b, i, sink),
            State::ValueStart => self.value_start(b, i, sink),
            State::KeyStart => self.key_start(b, i, sink),
            State::Colon => self.colon(b, i),
            State::Number => self.number(b, i, sink),
            State::Literal => self.literal(b, i, sink),
            State::Prose => self.prose(b, i, sink),
            State::FenceTicks => self.fence_ticks(b, i),
            State::FenceTag => self.fence_tag(b, i),
            State::ThinkOpen => self.think_open(b, i),
            State::ThinkBody => self.think_body(b, i),
            State::CommentSlash => self.comment_slash(b, i),
            State::LineComment => self.line_comment(b, i),
            State::BlockComment | State::BlockStar => self.block_comment(b, i),
            State::AfterRoot => self.after_root(b, i),
            State::AfterCitation => self.after_citation(b, i, sink),
        }
    }

    /// Drops a tentative root that failed (at `stop`, in a chunk of `len` bytes) before its
    /// first member was confirmed. Scanning resumes in prose at the byte that failed it, as
    /// if the root had been prose all along: after it when it is the root's own bracket (it
    /// would open the same root again), and `stop.back` bytes earlier for the idle limit
    /// when it continues a character split across chunks. Returns where to resume.
    fn abandon<S: Sink>(&mut self, stop: Stop, len: usize, sink: &mut S) -> usize {
        let start = if self.done {
            self.second_offset
        } else {
            self.root_offset
        };
        let inner = self.inner_opener(&stop);
        let bare = self.bare() && !self.done;
        let opener = if self.bare_object { b'{' } else { b'[' };
        let think = self
            .think_prefix(&stop, start)
            .filter(|_| bare && self.bare_array);
        self.drop_root();
        if let Some(inner) = inner {
            self.reopen(&inner, sink);
            return stop.at;
        }
        self.preamble.resume_back = stop.back;
        if stop.back > 0 {
            // The first bytes of the character that failed came in an earlier chunk: they
            // are prose, as they are when the input comes whole and prose goes on from them.
            self.saw_prose();
            self.prose_tail = self.string.pending[0].max(1);
            self.prose_last = self.prose_tail;
        }
        if self.fed + stop.at as u64 == start {
            // The bracket itself failed (a depth cap of 0): it is prose.
            self.preamble.resume_back = 0;
            if bare {
                self.skipping = Some(state::Skip::to_close(opener));
            }
            return (stop.at + 1).min(len);
        }
        if let Some(matched) = think {
            // What failed may go on to `[THINK]` (`[T`, or `[th` read as a literal).
            self.bracket_tag(matched);
            return stop.at;
        }
        if bare {
            // `[NOTE] …` where the reply begins: prose to its closing bracket, over line
            // breaks too (nothing inside a broken array is the answer: `[NaN, [1]]`).
            self.skipping = Some(state::Skip::to_close(opener));
        }
        stop.at
    }

    /// A root that failed at `stop` (begun at input offset `start`) held only the first
    /// bytes of `[THINK]`, in any case: how many.
    fn think_prefix(&self, stop: &Stop, start: u64) -> Option<u8> {
        let held = (self.fed + stop.at as u64).checked_sub(start)?;
        let tag = lenient::REASONING_TAGS.get(lenient::BRACKET_TAG)?.0;
        let text = self.clean.as_slice();
        let aligned = self.window.base == 0 && self.root_offset == start;
        let prefix = tag.get(..usize::try_from(held).ok()?)?;
        (aligned && stop.back == 0 && held < tag.len() as u64 && text.eq_ignore_ascii_case(prefix))
            .then(|| u8::try_from(held).ok())
            .flatten()
    }

    /// A tentative first root failed at the byte right after its first string, and that
    /// string ended with brackets: `He said "{" then {"a": 1}` read `" then {"` as a key.
    /// Scanned as prose, those brackets and the quote closing the string open the real
    /// root, so they are read again from there: the brackets, the whitespace between them
    /// and the quote (string content: the input's own bytes), the input offset of the
    /// first bracket, its line and column, and the byte before it. Only those few bytes
    /// are scanned twice. Not for a failure past a comment or whitespace after the quote
    /// (the held text has comments blanked), nor for a stall, nor where the brackets would
    /// pass the idle limit or the depth cap (the reading goes on as prose).
    fn inner_opener(&self, stop: &Stop) -> Option<Reopen> {
        // The held text must end at the byte that failed, with the string's closing quote.
        let aligned = self.root_offset + self.clean.len() as u64 == self.fed + stop.at as u64;
        let invalid = stop.reason.kind() == crate::ErrorKind::Invalid;
        if self.done || !self.tentative || !invalid || stop.back != 0 || self.window.base != 0 {
            return None;
        }
        let text = self.clean.as_slice();
        if !aligned || text.last() != Some(&b'"') {
            return None;
        }
        let quote = text.len() - 1;
        let opener_before = |at: usize| {
            let at = text.get(..at)?.iter().rposition(|&c| !tables::is_ws(c))?;
            matches!(text.get(at), Some(b'{' | b'[')).then_some(at)
        };
        let mut first = opener_before(quote)?;
        let mut depth = 1;
        while let Some(outer) = opener_before(first).filter(|&at| at > 0) {
            first = outer;
            depth += 1;
        }
        let offset = self.root_offset + first as u64;
        let idle = offset.saturating_sub(self.think_bytes);
        if first == 0 || depth > self.options.max_depth || idle > self.options.idle_limit {
            return None;
        }
        let again = text.get(first..)?.to_vec();
        let before = *text.get(first - 1)?;
        Some(Reopen {
            text: again,
            offset,
            position: self.clean_position(first),
            before,
        })
    }

    /// Reads brackets again, as prose (see [`Scanner::inner_opener`]); the chunk then goes
    /// on from the byte that failed. A root the bytes cannot open (a limit, a bracket of
    /// the wrong shape) leaves them prose.
    fn reopen<S: Sink>(&mut self, again: &Reopen, sink: &mut S) {
        let Reopen {
            ref text,
            offset,
            position,
            before,
        } = *again;
        let chunk = (self.fed, self.scan_at, self.scan_line, self.scan_line_start);
        let last_fed = std::mem::replace(&mut self.last_fed, before);
        self.fed = offset;
        self.scan_at = 0;
        self.scan_line = position.0;
        self.scan_line_start = (offset + 1).saturating_sub(position.1);
        let mut i = 0;
        let mut opened = true;
        while i < text.len() {
            match self.step(text, i, sink) {
                Ok(next) => i = next,
                Err(_) => {
                    opened = false;
                    break;
                }
            }
        }
        (self.fed, self.scan_at, self.scan_line, self.scan_line_start) = chunk;
        self.last_fed = last_fed;
        if !opened && !self.stack.is_empty() {
            self.drop_root();
        }
    }

    /// The root read on past the depth cap (if any) is JSON. A first root fails with its
    /// depth error. A second one is a value that nests too deep to read: the complete
    /// value before it stands, and the rest of the input is ignored (with the warning the
    /// policy gives: a second value ignored, or one that could not replace the first).
    fn deep_is_json(&mut self) -> Result<(), Error> {
        let Some(deep) = self.deep.take() else {
            return Ok(());
        };
        if !deep.second {
            return Err(self.fail_with(deep.error));
        }
        if self.muted {
            self.keep_first();
            return Ok(());
        }
        self.drop_root();
        self.warn(second::WarningKind::SecondValueInvalid, self.second_offset);
        self.ignore_rest = true;
        self.state = State::AfterRoot;
        Ok(())
    }

    /// Forgets the tentative root (or the second root being checked) and returns to prose.
    fn drop_root(&mut self) {
        self.deep = None;
        if self.done {
            self.truncate_clean(self.second_start);
            self.muted = false;
        } else {
            if self.state != State::AfterCitation && self.window.base == 0 {
                // Its text is prose: what it ended with leads what follows, as prose's
                // last byte does (`Use [\n~~~python` begins its fence's line).
                let tail = self
                    .clean
                    .iter()
                    .rev()
                    .find(|&&c| c == b'\n' || !tables::is_ws(c));
                if let Some(&c) = tail {
                    self.prose_tail = if c == b'\n' { 0 } else { c.max(1) };
                }
            }
            self.false_start = Some(self.root_offset);
            self.clear_clean();
        }
        self.tentative = false;
        self.citation_open = false;
        self.index_open = false;
        self.key_pending = false;
        self.scalar_pending = None;
        self.held_run = None;
        self.stack.clear();
        self.in_key = false;
        self.hold_string = false;
        self.string = StrState::NEW;
        self.state = State::Prose;
        self.saw_prose();
        self.ws_run = 0;
    }

    /// The tentative first root closed at `i` with no member: it is dropped as prose, and
    /// the first such one is kept in case no other root comes, or the first led by `:` or
    /// `=` or beginning its line after one that was not (`Use [] for none. Output: {}`).
    fn empty_in_prose(&mut self, object: bool, i: usize) -> usize {
        let led = self.citation_led || self.line_led;
        if self.empty_root.as_ref().is_none_or(|kept| led && !kept.led) {
            let close = if object { b'}' } else { b']' };
            let text = match self.window.base {
                0 => self.clean.iter().copied().chain([close]).collect(),
                _ => vec![if object { b'{' } else { b'[' }, close],
            };
            self.empty_root = Some(EmptyRoot {
                object,
                text,
                offset: self.root_offset,
                position: self.root_position,
                too_deep: self.deep.as_ref().map(|deep| deep.error.clone()),
                led,
            });
        }
        self.drop_root();
        i + 1
    }

    /// The input ended inside a second root not yet confirmed: unless it is no more than
    /// brackets and whitespace (`- [ `, `{` at the end of a line) in prose, a value was
    /// cut there (`{"a": 0}` then ```` ```json ```` and `{"a": 1`, or only `{`), and the
    /// warning says so, naming the value kept: the first, whatever the policy.
    fn note_cut_second_root(&mut self) {
        let at = self.second_start.saturating_sub(self.window.base);
        let cut = self.second_fenced
            || matches!(self.state, State::Key | State::Str)
            || self.clean.get(at..).is_some_and(|text| {
                text.iter()
                    .any(|&b| !matches!(b, b'[' | b'{') && !tables::is_ws(b))
            });
        if cut && !self.stack.is_empty() {
            let kind = match self.options.second_root {
                SecondRoot::KeepFirst => second::WarningKind::SecondValueIgnored,
                SecondRoot::KeepLast => second::WarningKind::SecondValueCut,
            };
            self.warn(kind, self.second_offset);
        }
    }

    /// The input ends (or a limit stops the reading) with no root but an empty container
    /// or a citation held in prose: it is the value (the first of them, or an empty one
    /// led as the answer is, see `EmptyRoot::led`); or a
    /// root refused at its
    /// first value (see `refused_root`): its error is the reading's, before any empty
    /// container (one refused at its first key only, if none is held: see
    /// `Scanner::refusal_stands`). `None` when there is neither to fall back on, or when the reading stops
    /// inside a root begun in prose (see `cut_in_tentative_root`); a tentative root that
    /// is no more than its brackets is dropped for them.
    fn fall_back_on_empty_root<S: Sink>(&mut self, sink: &mut S) -> Option<Result<(), Error>> {
        if self.done
            || (self.empty_root.is_none() && self.refused_root.is_none() && self.citation.is_none())
            || !(self.tentative || self.stack.is_empty())
            || self.cut_in_tentative_root()
        {
            return None;
        }
        if self.tentative {
            self.drop_root();
        }
        if self.refusal_stands() {
            if let Some(error) = self.refused_root.take() {
                return Some(Err(self.fail_with(error)));
            }
        }
        self.refused_root = None;
        // A citation comes before a later empty container, unless a `:` or `=` led that
        // one or it began its line (`As noted in [1], the answer is:\n{}`). After an
        // empty one, a citation is not held.
        if !self.empty_root.as_ref().is_some_and(|empty| empty.led) {
            if let Some(citation) = self.citation.take() {
                self.empty_root = None;
                return Some(self.emit_citation(&citation, sink));
            }
        }
        self.citation = None;
        Some(self.emit_empty_root(sink))
    }

    /// The input ended (or a limit stopped the reading) in prose after a citation and no
    /// other root: the citation is the value (`The result is [42] as computed.`), read
    /// again where it was, as a root that prose does not hold back.
    fn emit_citation<S: Sink>(&mut self, citation: &Held, sink: &mut S) -> Result<(), Error> {
        self.false_start = None;
        self.clear_clean();
        self.stack.clear();
        self.tentative = false;
        self.state = State::ValueStart;
        self.scan_again(&citation.text, citation.place, b' ', sink)?;
        if !self.done {
            // Nothing read twice fails where it passed once; if it did, it is not the value.
            self.drop_root();
        }
        Ok(())
    }

    /// A root that began in prose is still open (`Answer: {"b": 1`, `Answer:\n{\n  `): the
    /// reading stops inside it, a truncation as it would be with no prose before it,
    /// whatever was held from the prose. Only one bracket `[` and spaces after a word
    /// (`- [ ` of a task list, `see [`) are no more than prose: not one led by `:` or `=`
    /// or beginning its line (`Answer:\n[`), nor two brackets (`[[`, `[ [`).
    fn cut_in_tentative_root(&self) -> bool {
        let mut brackets = 0;
        self.tentative
            && (matches!(self.state, State::Key | State::Str)
                || self.citation_led
                || self.line_led
                || self.clean.iter().any(|&b| match b {
                    b'[' => {
                        brackets += 1;
                        brackets > 1
                    }
                    b' ' | b'\t' => false,
                    _ => true,
                }))
    }

    /// The input ended in prose after an empty container and no other root: that
    /// container is the value, sent to the sink whole.
    fn emit_empty_root<S: Sink>(&mut self, sink: &mut S) -> Result<(), Error> {
        let Some(empty) = self.empty_root.take() else {
            return Ok(());
        };
        if let Some(error) = empty.too_deep {
            return Err(self.fail_with(error));
        }
        let object = empty.object;
        self.clear_clean();
        self.root_offset = empty.offset;
        self.root_position = empty.position;
        self.false_start = None;
        self.clean = empty.text;
        let raw = self.raw(0..self.clean.len());
        if object {
            sink.begin_object();
            sink.end_object(raw);
        } else {
            sink.begin_array();
            sink.end_array(raw);
        }
        self.stack.clear();
        self.state = State::AfterRoot;
        self.done = true;
        Ok(())
    }

    /// The tentative root's first member is confirmed (its value began as a string or a
    /// container, or a separator followed its number or literal): send the sink the
    /// containers, the key and the scalar that were held back.
    fn confirm<S: Sink>(&mut self, sink: &mut S) {
        if !self.tentative {
            return;
        }
        self.tentative = false;
        if !self.done {
            self.empty_root = None;
            self.refused_root = None;
            self.citation = None;
        }
        // A root past the depth cap is only being looked at (see `deep`): nothing of it is
        // sent, nor does it replace a complete value.
        if self.deep.is_some() {
            return;
        }
        if self.done && !self.second_confirmed_here(sink) {
            return;
        }
        for frame in &self.stack {
            if frame.object {
                sink.begin_object();
            } else {
                sink.begin_array();
            }
        }
        if self.key_pending {
            self.key_pending = false;
            sink.key(&self.key, self.raw(self.key_start..self.key_end));
        }
        if let Some((from, _)) = self.held_run.take() {
            let upto = self.scalar_pending.map_or(self.end(), |(start, _)| start);
            self.send_run(from..upto, sink);
        }
        if let Some((start, end)) = self.scalar_pending.take() {
            self.send_scalar(start..end, sink);
        }
    }

    /// Records a fatal error at index `at` of the current chunk `bytes`.
    #[cold]
    fn fail(&mut self, reason: Reason, bytes: &[u8], at: usize) -> Error {
        self.fail_back(reason, bytes, at, 0)
    }

    /// Records a fatal error `back` bytes before index `at` of the current chunk.
    #[cold]
    fn fail_back(&mut self, reason: Reason, bytes: &[u8], at: usize, back: u8) -> Error {
        let error = self.error_at(reason, bytes, at, back);
        self.fail_with(error)
    }

    /// Records `error` as the stream's fatal error.
    #[cold]
    fn fail_with(&mut self, error: Error) -> Error {
        self.error = Some(error.clone());
        error
    }

    /// The error `reason`, `back` bytes before index `at` of the current chunk.
    #[cold]
    fn error_at(&self, reason: Reason, bytes: &[u8], at: usize, back: u8) -> Error {
        let head = bytes.get(..at).unwrap_or(bytes);
        let newlines = head.iter().filter(|&&b| b == b'\n').count() as u64;
        let offset = self.fed + at as u64;
        let line_start = match head.iter().rposition(|&b| b == b'\n') {
            Some(nl) => self.fed + nl as u64 + 1,
            None => self.line_start,
        };
        let back = u64::from(back).min(offset - line_start);
        Error::new(
            reason,
            offset - back,
            self.line + newlines,
            offset - back - line_start + 1,
        )
    }

    /// [`Scanner::error_at`], its line counted by [`Scanner::locate`] (each byte of a chunk
    /// once, however many false starts fail in it), when `at` is not behind it.
    fn error_located(&mut self, reason: Reason, bytes: &[u8], at: usize, back: u8) -> Error {
        if at < self.scan_at {
            return self.error_at(reason, bytes, at, back);
        }
        let (line, column) = self.locate(bytes, at);
        let back = u64::from(back).min(column - 1);
        Error::new(reason, self.fed + at as u64 - back, line, column - back)
    }

    /// Line and column of index `i` of the current chunk `b`. Positions asked for only grow
    /// within a chunk, so each byte is counted once.
    pub(super) fn locate(&mut self, b: &[u8], i: usize) -> (u64, u64) {
        if i >= self.scan_at {
            let seen = b.get(self.scan_at..i).unwrap_or_default();
            if let Some(nl) = seen.iter().rposition(|&c| c == b'\n') {
                self.scan_line += seen.iter().filter(|&&c| c == b'\n').count() as u64;
                self.scan_line_start = self.fed + (self.scan_at + nl) as u64 + 1;
            }
            self.scan_at = i;
        }
        let offset = self.fed + i as u64;
        (
            self.scan_line,
            offset.saturating_sub(self.scan_line_start) + 1,
        )
    }

    /// The input line and column of clean-buffer offset `at` (the clean text is aligned
    /// with the input line for line).
    pub(crate) fn clean_position(&self, at: usize) -> (u64, u64) {
        let (line, column) = self.clean_line_column(at);
        if line == 1 {
            (self.root_position.0, self.root_position.1 + column - 1)
        } else {
            (self.root_position.0 + line - 1, column)
        }
    }

    /// Line and column of offset `at` in the root's clean text. Text released before the
    /// window counts as the window's start (nothing released is asked for, but the root's
    /// own start, which is known).
    pub(crate) fn clean_line_column(&self, at: usize) -> (u64, u64) {
        let window = self.window;
        if at == 0 || window.base == 0 {
            return crate::error::line_column(&self.clean, at);
        }
        if at < window.base {
            let known = self.anchors.binary_search_by_key(&at, |&(start, _)| start);
            return match known.ok().and_then(|i| self.anchors.get(i)) {
                Some(&(_, position)) => position,
                None => (window.line, window.column),
            };
        }
        let (line, column) = crate::error::line_column(&self.clean, at - window.base);
        if line == 1 {
            (window.line, window.column + column - 1)
        } else {
            (window.line + line - 1, column)
        }
    }

    /// The clean text at `span`, if it is still held.
    pub(crate) fn clean_text(&self, span: std::ops::Range<usize>) -> Option<&[u8]> {
        let start = span.start.checked_sub(self.window.base)?;
        let end = span.end.checked_sub(self.window.base)?;
        self.clean.get(start..end)
    }

    /// The clean-text offset after the last byte copied.
    #[inline]
    fn end(&self) -> usize {
        self.window.base + self.clean.len()
    }

    /// The value at `span` of the clean text (its text empty if released).
    #[inline]
    fn raw(&self, span: std::ops::Range<usize>) -> Raw<'_> {
        let text = self.clean_text(span.clone()).unwrap_or_default();
        Raw::with_text(text, span)
    }

    /// A new root: its clean text starts empty, at offset 0.
    fn clear_clean(&mut self) {
        self.clean.clear();
        self.window = Window::START;
        self.anchors.clear();
    }

    /// Drops the clean text from offset `at` on.
    fn truncate_clean(&mut self, at: usize) {
        self.clean.truncate(at.saturating_sub(self.window.base));
    }

    /// The sink needs no more text of its `depth` outermost open containers: the clean
    /// text before the next one (or before the open scalar) is released, when there is
    /// enough of it to be worth moving what is kept.
    fn release(&mut self, depth: usize) {
        if depth == 0 || self.done || self.tentative || self.muted || self.key_pending {
            return;
        }
        let keep = match self.stack.get(depth) {
            Some(frame) => frame.start,
            None => match self.state {
                State::ValueStart | State::KeyStart | State::Colon | State::AfterValue => {
                    self.end()
                }
                State::Str | State::Number | State::Literal => self.scalar_start,
                State::Key => self.key_start,
                // Inside a comment: nothing is released until it ends.
                _ => return,
            },
        };
        let Some(cut) = keep.checked_sub(self.window.base) else {
            return;
        };
        if cut < RELEASE_MIN || cut < self.clean.len() - cut {
            return;
        }
        // Walk the released text once: the open containers starting in it get their
        // positions (in order), then the window's new start.
        let released = self.clean.get(..cut).unwrap_or_default();
        let base = self.window.base;
        let mut position = (self.window.line, self.window.column);
        let mut walked = 0;
        let mut walk_to = |to: usize, position: &mut (u64, u64)| {
            let part = released.get(walked..to).unwrap_or_default();
            match part.iter().rposition(|&c| c == b'\n') {
                Some(nl) => {
                    position.0 += tables::newlines(part);
                    position.1 = (part.len() - nl) as u64;
                }
                None => position.1 += part.len() as u64,
            }
            walked = to;
        };
        // The open containers that began in text released before keep their anchors (they
        // are the stack's first ones, in order; the anchors after theirs are of containers
        // that closed since); those beginning in the text released now get theirs. Each
        // container is anchored once: deep nesting costs no walk of the stack per release.
        let anchored = self.stack.partition_point(|frame| frame.start < base);
        self.anchors.truncate(anchored);
        for frame in self.stack.iter().skip(anchored) {
            if frame.start >= keep {
                break;
            }
            if let Some(at) = frame.start.checked_sub(base) {
                walk_to(at, &mut position);
                self.anchors.push((frame.start, position));
            }
        }
        walk_to(cut, &mut position);
        self.window = Window {
            base: keep,
            line: position.0,
            column: position.1,
            next_look: 0,
        };
        self.clean.drain(..cut);
        // A long value held much more than is left: give the memory back (not for the
        // usual few KiB, which would only be grown again).
        let wanted = 2 * (self.clean.len() + RELEASE_MIN);
        if self.clean.capacity() > 2 * wanted {
            self.clean.shrink_to(wanted);
        }
    }

    /// Moves the position past a fully scanned chunk.
    #[inline]
    fn advance(&mut self, bytes: &[u8]) {
        // Most chunks hold no newline: one backward pass finds that out.
        if let Some(nl) = bytes.iter().rposition(|&b| b == b'\n') {
            let head = bytes.get(..nl).unwrap_or_default();
            self.line += 1 + head.iter().filter(|&&b| b == b'\n').count() as u64;
            self.line_start = self.fed + nl as u64 + 1;
        }
        self.fed += bytes.len() as u64;
        if let Some(&last) = bytes.last() {
            self.last_fed = last;
        }
    }

    /// The current chunk-relative offset is `i`: bytes of prose so far, for the idle limit.
    fn idle_bytes(&self, i: usize) -> u64 {
        (self.fed + i as u64).saturating_sub(self.think_bytes)
    }
}

impl Default for Scanner {
    fn default() -> Self {
        Scanner::new(Options::default())
    }
}

#[cfg(test)]
mod tests;

/// Brackets a tentative root's first string ended with, to be read again as prose (see
/// [`Scanner::inner_opener`]).
struct Reopen {
    /// The brackets, the whitespace between them and the quote after them.
    text: Vec<u8>,
    /// The input offset of the first bracket.
    offset: u64,
    /// Its line and column.
    position: (u64, u64),
    /// The byte before it.
    before: u8,
}
