//! Limits and modes shared by every stream.

/// How a stream reads its input, and the limits it enforces.
///
/// ```
/// let options = settled::Options::default().strict(true).max_depth(16);
/// assert_eq!(options.max_depth, 16);
/// ```
#[derive(Debug, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub struct Options {
    /// RFC 8259 only: one value with whitespace around it. Default `false` (lenient: prose,
    /// fences, reasoning blocks (`<think>` and `<thinking>` wherever they come, so one a
    /// sentence names hides the rest of the reply, `NoStructure`; `<reasoning>`,
    /// Seed-OSS's `<seed:think>` and Magistral's `[THINK]…[/THINK]` where the reply
    /// begins; gpt-oss's `<|channel|>analysis<|message|>…<|end|>`), comments and trailing
    /// commas are tolerated).
    ///
    /// Leniently, a `{` or `[` in prose is the value only once its first member is
    /// confirmed (`fill in the {fields}` is prose; so is `[NOTE]` where the reply begins,
    /// to its closing bracket, as what follows its bracket begins no value, though it is
    /// the error if no other value comes, and `{name}` there, to its closing brace (an
    /// object where the reply begins shows once its first key begins or it closes); so an
    /// array where the reply begins shows and
    /// settles its first number or literal only at the `,` or `]` after it, as
    /// `[true story]` and `[12:30]` are prose), and an empty one (the first, or the first
    /// a `:` or `=` led or that began its line: `Use [] for none. Output: {}` is `{}`)
    /// only if no other value comes before the input ends, and neither the provider's cut nor a limit (the byte
    /// cap, [`Options::idle_limit`]) stopped the reading (`- [ ] task` before a
    /// fenced answer is prose; after an empty one, an array in prose whose first element
    /// is a number on the same line is a citation, skipped to its closing bracket, unless
    /// a typed stream's root is an array, or a `:` or `=` led it (on its line, or on the
    /// line before when it begins its own: `Answer:\n[1, 2]`); so is one that holds one
    /// number, or after a word up to six integers of up to four digits on its line
    /// (`both studies [1, 2] agree`), with prose after it, or a line break (`the docs [1]
    /// say`, `as noted [1].`), unless a `:` or `=` led it on its line (`Result: [3]`, `**Result:** [3]`),
    /// and one that began its line with text after it there (`[1] Smith, 2020.`, `[1]:
    /// https://…`, `Sources:\n[1] *Nature*`, `Answer:\n[42] (approx.)` too; never where
    /// the reply begins or in a JSON fence): it is held at its `]` until that shows
    /// (spaces and punctuation say
    /// nothing; the input's end, not a limit, makes it the value, after the answer prose unless it
    /// began its line), and is the value only if no other comes, nor an empty one before
    /// it, nor one after it that a `:` or `=` led or that began its line (`As noted in
    /// [1], the answer is: {}` is `{}`); for a typed
    /// stream a bracket of the other shape than its root's is prose, though a value
    /// inside it may be the answer, and so is a list in prose whose first element has
    /// another shape than the root list's elements (`see ["docs"]` before a list of
    /// objects)). An array
    /// right after a word, a bracket or a parenthesis that closes on one scalar indexes it
    /// (`arr[0]`, `Paris[1]`): prose. A fence is three or more backticks, or tildes
    /// where a line begins; its tag, the first word after it, names JSON if it is
    /// `json`, `jsonc`, `json5`, `jsonl`, `ndjson` or none (the rest of its line is an
    /// info string: ```` ```json title="a.json" ````). A marker after prose on its line
    /// with more than one word after it, or after a space a word that names no JSON
    /// (`without ``` markers.`), is prose; so is one whose line holds its byte again
    /// (`~~~ Final Answer ~~~`), and tildes with words after a space (`~~~ Final
    /// Answer`). A JSON fence that holds no root (one scalar, or nothing) is closed by
    /// the next fence without a tag. A code block in another language is skipped whole,
    /// to a fence of its byte that begins a line: one without a tag (text after it aside),
    /// however long (a model may close ```` ```` ```` with three), or one with a tag as
    /// long as the block's (a model may leave a block open, and that fence opens its own
    /// block or JSON fence; a ```` ```markdown ```` block holding a ```` ```json ```` fence
    /// wraps the answer); a shorter tagged fence opens an
    /// example that its own untagged fence closes (a ```` ````markdown ```` block may show
    /// a ```` ```json ```` example), as does a shorter untagged one in a Markdown block,
    /// and so is an inline code span (`` `x = [1, 2]` ``) that a run of as many backticks
    /// closes on its line, unless it begins with a bracket (`` `{"a": 1}` `` may be the
    /// answer); a lone backtick hides nothing. One refused at its first value after a key
    /// and its colon (`Sure: {"a": 01}`), or at its first key where a `:` or `=` led it or
    /// it began its line (`Output:\n{name: "x"}`), was meant as JSON: if no other value comes, its
    /// error is the stream's, not
    /// [`ErrorKind::NoStructure`](crate::ErrorKind::NoStructure) nor an empty one held in
    /// prose. Input that ends inside a value begun in prose is truncated, whatever came
    /// before it, unless the value is no more than one `[` after a word (a task list's
    /// `- [ `; not `Answer: [`, nor `[[`), which is prose. A comment
    /// before the value where the reply's text begins, or inside a JSON fence, is skipped
    /// (`// example: {"id": 0}` names no value), and so is one right after the value
    /// (`{"a": 1} // was {"a": 0}`) or after a reply that is so far one scalar (`42 // was
    /// {"a": 0}` is 42); in other prose a `/` is prose (`https://…`).
    ///
    /// A reply that is one scalar and nothing else (`42`, `"yes"`, `null`; after
    /// reasoning blocks or in a JSON fence, its closing fence perhaps cut) is the value, as
    /// strict mode reads it, once the input ends: a word or a number may begin prose, so
    /// nothing of it shows before. So is the one scalar a JSON fence holds, whatever prose
    /// is around the fence (`Result:\n```json\n42\n```\nHope this helps!`), if no
    /// other value comes (the first such fence's). For a typed stream whose root is an object or an array,
    /// a scalar reply is prose, as any other, but `null` when the root is an `Option`.
    /// Until the input ends such a reply is prose to [`Options::idle_limit`]: one longer
    /// than the limit is `NoStructure` (and a string serde would not read, `"\ud800"`, is
    /// prose: no value).
    pub strict: bool,
    /// Byte cap over everything fed, prose included. Default 64 MiB. Leniently, a root
    /// complete inside the cap is the value and the rest is not read; a reply that is so
    /// far one scalar (`"yes"`, `42 `) is [`ErrorKind::TooLarge`](crate::ErrorKind::TooLarge)
    /// at the cap, as text past it could make that scalar prose, and so is one whose only
    /// candidate is held in the prose before the cap (`Sure: [] and the answer`: an empty
    /// container, or a citation `[1]` followed by a word), as a later value could replace
    /// it: no cap gives a value that reading the whole reply would not.
    pub max_bytes: u64,
    /// Container nesting cap; the root container is depth 1. Default 127: the deepest
    /// nesting serde_json reads ([`SERDE_MAX_DEPTH`]).
    ///
    /// Typed streams ([`TypedStream`](crate::TypedStream)) never accept more than
    /// [`SERDE_MAX_DEPTH`], whatever this says: their final value is read by serde_json,
    /// which rejects deeper nesting, so a deeper document is
    /// [`ErrorKind::TooDeep`](crate::ErrorKind::TooDeep) at the bracket that crosses the
    /// limit rather than a validation error at the end. The cap is on the input, not on
    /// what the model reads: a value under a key no field reads, nested deeper, is
    /// `TooDeep` too, where serde_json, which skips such a value without counting its
    /// depth, would read the document. The schema-less
    /// [`DynamicStream`](crate::DynamicStream) takes any cap.
    pub max_depth: usize,
    /// Bytes of prose (outside reasoning blocks) after which, with no value begun, the stream
    /// gives up with [`ErrorKind::NoStructure`](crate::ErrorKind::NoStructure) (or the error
    /// of a value refused at its first member, see [`Options::strict`]). Default 256 KiB.
    ///
    /// Leniently, every byte before the value counts but those of reasoning blocks:
    /// whitespace too (a limit of 0 accepts only a reply whose value begins at its first
    /// byte or right after a reasoning block's closing tag: the newline a model writes
    /// after `</think>` is one byte of prose, so allow a few), and the text of a string that begins the reply, which is prose
    /// unless the reply turns out to be that one string (a one-string reply longer than
    /// the limit is `NoStructure`: raise the limit for such replies). Strict mode has no
    /// prose: the limit does not apply.
    pub idle_limit: u64,
    /// Bytes of whitespace (comments included, in lenient mode) in a row inside the value
    /// after which the stream ends with [`ErrorKind::Stalled`](crate::ErrorKind::Stalled)
    /// (a model caught in a whitespace or empty-comment loop). `None` disables the guard.
    /// Default 16 KiB.
    pub stall_limit: Option<u64>,
    /// What to do with a second JSON value after the root (lenient mode). Default
    /// [`SecondRoot::KeepFirst`]; either way a [`Warning`](crate::Warning) is recorded.
    pub second_root: SecondRoot,
    /// Typed streams: fail in the chunk where a value serde rejects settles (an enum value
    /// outside the set, a number out of range), instead of at `finish`. Default `true`.
    /// Without it the stream reads on and reports the values that settle beside the
    /// refused one; a refused number, boolean or enum is left out of the draft (a refused
    /// string, or an object missing a field, stays as it arrived), no event reports it,
    /// no container that holds it settles, and `finish` returns the error. An element left
    /// out of a list's draft leaves no gap: the elements after it are numbered, in events
    /// as in the draft, by their place in the draft (`["small", "huge", "large"]` for a
    /// list of a unit enum without `huge` reports `large` at index 1), while the error
    /// names the element by its place in the JSON (`/ks/1`). Off, whatever this says,
    /// under [`SecondRoot::KeepLast`].
    pub fail_fast: bool,
    /// The input begins inside a `<think>` block whose opening tag was in the prompt, not
    /// the reply: everything up to the first `</think>` is reasoning, skipped whole (JSON
    /// in it is no value). Default `false`.
    ///
    /// For reasoning models served raw whose chat template writes `<think>` at the end of
    /// the prompt (DeepSeek-R1, QwQ): their reply is `…reasoning…</think>` then the answer,
    /// and a draft of the answer in the reasoning would otherwise be taken for the value
    /// (what has settled cannot be taken back when the `</think>` comes). Set it only when
    /// the reply is known to carry the closing tag: with it, a reply that has none ends
    /// with [`ErrorKind::NoStructure`](crate::ErrorKind::NoStructure) (the input ended
    /// inside a reasoning block). For the reply's text only: a tool call's arguments begin
    /// no reply. Lenient mode only; ignored under [`Options::strict`].
    ///
    /// ```
    /// use settled::{DynamicStream, Options};
    ///
    /// let options = Options::default().starts_in_reasoning(true);
    /// let mut stream = DynamicStream::with_options(options);
    /// stream.feed(br#"So {"name": "Bob"}? No, the user said Alice.</think>"#)?;
    /// assert!(stream.draft().is_none());
    /// stream.feed(br#"{"name": "Alice"}"#)?;
    /// let value = stream.finish()?;
    /// assert_eq!(value.root().unwrap().to_json(), r#"{"name":"Alice"}"#);
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub starts_in_reasoning: bool,
}

/// The deepest container nesting `serde_json` reads (128 nested containers fail with
/// "recursion limit exceeded"): the default [`Options::max_depth`], and the cap of every
/// typed stream.
pub const SERDE_MAX_DEPTH: usize = 127;

/// The policy for a second JSON value after the root.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum SecondRoot {
    /// Keep the first value; ignore the rest of the input.
    #[default]
    KeepFirst,
    /// Replace the value with the later one (models sometimes print an example first). The
    /// draft restarts when the second value is confirmed, and the second value's fields
    /// settle again: a typed stream reports them (and calls their callbacks) a second
    /// time, with the new values.
    ///
    /// An example is often one serde refuses (`"count": "<number>"`): a typed stream that
    /// keeps the last value does not fail fast ([`Options::fail_fast`] is off for it), so
    /// a refusal in a value a later one replaces is dropped with it, and a refusal in the
    /// value kept is `finish`'s error. If the input ends inside the value that replaced a
    /// complete one, or that value turns out not to be JSON (`{"x": 1} {"k": "a\q"}`),
    /// the complete one is given back, with a warning: the draft shows it again (the
    /// replacement's draft is dropped, as a snapshot never shows what is not JSON) and
    /// `finish` returns it.
    KeepLast,
}

impl Default for Options {
    fn default() -> Self {
        Options {
            strict: false,
            max_bytes: 64 * 1024 * 1024,
            max_depth: SERDE_MAX_DEPTH,
            idle_limit: 256 * 1024,
            stall_limit: Some(16 * 1024),
            second_root: SecondRoot::KeepFirst,
            fail_fast: true,
            starts_in_reasoning: false,
        }
    }
}

impl Options {
    /// Sets [`Options::strict`].
    pub fn strict(mut self, strict: bool) -> Self {
        self.strict = strict;
        self
    }

    /// Sets [`Options::max_bytes`].
    pub fn max_bytes(mut self, max_bytes: u64) -> Self {
        self.max_bytes = max_bytes;
        self
    }

    /// Sets [`Options::max_depth`].
    pub fn max_depth(mut self, max_depth: usize) -> Self {
        self.max_depth = max_depth;
        self
    }

    /// Sets [`Options::stall_limit`].
    pub fn stall_limit(mut self, stall_limit: Option<u64>) -> Self {
        self.stall_limit = stall_limit;
        self
    }

    /// Sets [`Options::second_root`].
    pub fn second_root(mut self, policy: SecondRoot) -> Self {
        self.second_root = policy;
        self
    }

    /// Sets [`Options::fail_fast`].
    pub fn fail_fast(mut self, fail_fast: bool) -> Self {
        self.fail_fast = fail_fast;
        self
    }

    /// Sets [`Options::starts_in_reasoning`].
    pub fn starts_in_reasoning(mut self, starts_in_reasoning: bool) -> Self {
        self.starts_in_reasoning = starts_in_reasoning;
        self
    }

    /// Sets [`Options::idle_limit`].
    pub fn idle_limit(mut self, idle_limit: u64) -> Self {
        self.idle_limit = idle_limit;
        self
    }
}
