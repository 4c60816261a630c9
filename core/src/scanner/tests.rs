//! Unit tests: every lenient rule, every error kind, every split state at every position.

use crate::{DynamicStream, Error, ErrorKind, Options, SecondRoot};

/// Feeds `chunks` and returns the final JSON (or the error) and every snapshot taken after
/// a chunk.
fn replay(options: &Options, chunks: &[&[u8]]) -> (Result<String, Error>, Vec<Option<String>>) {
    let mut stream = DynamicStream::with_options(options.clone());
    let mut snapshots = Vec::new();
    for chunk in chunks {
        let fed = stream.feed(chunk);
        snapshots.push(stream.draft().map(|v| v.to_json()));
        if let Err(e) = fed {
            return (Err(e), snapshots);
        }
    }
    let result = stream.finish().map(|v| v.to_json()).map_err(Error::from);
    (result, snapshots)
}

fn lenient() -> Options {
    Options::default()
}

fn strict() -> Options {
    Options::default().strict(true)
}

/// The input parsed whole, in 1-byte chunks, and split in two and in three at every
/// position gives `expected`.
fn at_every_split(options: &Options, input: &str, expected: &str) {
    let bytes = input.as_bytes();
    let (whole, _) = replay(options, &[bytes]);
    assert_eq!(
        whole.as_deref().ok(),
        Some(expected),
        "whole input {input:?}: {whole:?}"
    );
    let ones: Vec<&[u8]> = bytes.chunks(1).collect();
    let (result, _) = replay(options, &ones);
    assert_eq!(
        result.as_deref().ok(),
        Some(expected),
        "1-byte chunks of {input:?}"
    );
    for i in 0..=bytes.len() {
        let (a, b) = bytes.split_at(i);
        let (result, _) = replay(options, &[a, b]);
        assert_eq!(
            result.as_deref().ok(),
            Some(expected),
            "split at {i} of {input:?}"
        );
        if bytes.len() <= 48 {
            for j in i..=bytes.len() {
                let (b1, b2) = b.split_at(j - i);
                let (result, _) = replay(options, &[a, b1, b2]);
                assert_eq!(
                    result.as_deref().ok(),
                    Some(expected),
                    "split at {i},{j} of {input:?}"
                );
            }
        }
    }
}

/// The same error kind and offset whole and in 1-byte chunks.
fn fails(options: &Options, input: &[u8], kind: ErrorKind) -> Error {
    let (whole, _) = replay(options, &[input]);
    let Err(error) = whole else {
        panic!(
            "{:?} should fail with {kind:?}, got {whole:?}",
            String::from_utf8_lossy(input)
        );
    };
    assert_eq!(
        error.kind(),
        kind,
        "{:?}: {error}",
        String::from_utf8_lossy(input)
    );
    let ones: Vec<&[u8]> = input.chunks(1).collect();
    let (split, _) = replay(options, &ones);
    let Err(split) = split else {
        panic!(
            "1-byte chunks of {:?} should fail",
            String::from_utf8_lossy(input)
        );
    };
    assert_eq!(
        (split.kind(), split.offset()),
        (kind, error.offset()),
        "1-byte chunks"
    );
    error
}

// ---- split states ----

#[test]
fn simple_escape_split_everywhere() {
    at_every_split(
        &strict(),
        r#"["a\"b\\c\/d\n\t\r\b\f"]"#,
        r#"["a\"b\\c/d\n\t\r\b\f"]"#,
    );
}

#[test]
fn unicode_escape_split_everywhere() {
    at_every_split(
        &strict(),
        r#"{"k\u00e9y":"caf\u00E9 \u6f22"}"#,
        r#"{"kéy":"café 漢"}"#,
    );
}

#[test]
fn surrogate_pair_split_everywhere() {
    at_every_split(&strict(), r#"["\ud83d\ude80!"]"#, r#"["🚀!"]"#);
}

#[test]
fn utf8_character_split_everywhere() {
    at_every_split(&strict(), r#"{"é漢":"🚀x漢é"}"#, r#"{"é漢":"🚀x漢é"}"#);
}

#[test]
fn numbers_split_everywhere() {
    at_every_split(
        &strict(),
        "[-12.5e+3,0,-0,1E22,0.001,12345678901234567890123,1e400]",
        "[-12.5e+3,0,-0,1E22,0.001,12345678901234567890123,1e400]",
    );
}

#[test]
fn literals_split_everywhere() {
    at_every_split(&strict(), "[true,false,null]", "[true,false,null]");
}

#[test]
fn comments_split_everywhere() {
    at_every_split(
        &lenient(),
        "{/* a */\"a\"/*b*/:// c\n1 /* ** / */,\"b\":[2 // d\n]}",
        r#"{"a":1,"b":[2]}"#,
    );
}

#[test]
fn fence_marker_split_everywhere() {
    at_every_split(
        &lenient(),
        "Here:\n```json\n{\"a\":1}\n```\nbye",
        r#"{"a":1}"#,
    );
    at_every_split(&lenient(), "```\n[1]\n```", "[1]");
}

#[test]
fn think_tags_split_everywhere() {
    at_every_split(
        &lenient(),
        "<think>use {\"a\":2}</think>{\"a\":1}",
        r#"{"a":1}"#,
    );
    at_every_split(
        &lenient(),
        "<thinking>[x] </think> {y}</thinking>[1]",
        "[1]",
    );
    // A reasoning/answer fine-tune's block, in any case, closed only by its own tag.
    at_every_split(
        &lenient(),
        "<Reasoning>plan: [1, 2] </think> {\"b\": 2}</REASONING>\n<answer>{\"a\":1}</answer>",
        r#"{"a":1}"#,
    );
    // Named in prose, `<reasoning>` opens nothing (the tag of a block where the text
    // begins, it is also a word).
    at_every_split(
        &lenient(),
        "Here is the JSON without the <reasoning> section:\n{\"a\": 1}",
        r#"{"a":1}"#,
    );
    at_every_split(
        &lenient(),
        "\n  <reasoning>[1]</reasoning><think>[2]</think><reasoning>[3]</reasoning>{\"a\": 1}",
        r#"{"a":1}"#,
    );
    // Near misses are prose: the JSON after them is the root.
    at_every_split(&lenient(), "<reason>{\"a\":1}", r#"{"a":1}"#);
    at_every_split(&lenient(), "<reasoning{\"a\":1}", r#"{"a":1}"#);
    at_every_split(&lenient(), "<thinkreasoning>[1]", "[1]");
}

/// gpt-oss served raw writes its reasoning in the harmony format's analysis channel, then
/// the answer in the final channel: a draft in the analysis is no value.
#[test]
fn the_analysis_channel_of_harmony_is_reasoning() {
    let reply = "<|channel|>analysis<|message|>Draft: {\"a\": 1}, [2]. Check it.<|end|>\
                 <|start|>assistant<|channel|>final<|message|>{\"a\": 2}<|return|>";
    at_every_split(&lenient(), reply, r#"{"a":2}"#);
    // Where the reply begins and after other prose; a tag-like `<|end` inside is reasoning.
    at_every_split(
        &lenient(),
        "Sure. <|channel|>analysis<|message|>{1} <|end <|end|>[3]",
        "[3]",
    );
    // The final channel alone is prose before the answer, and one scalar there is prose.
    at_every_split(
        &lenient(),
        "<|start|>assistant<|channel|>final<|message|>[4]<|return|>",
        "[4]",
    );
    // A reply that is one scalar after the analysis.
    at_every_split(
        &lenient(),
        "<|channel|>analysis<|message|>[1]<|end|> 42",
        "42",
    );
    // Near misses are prose; a cut analysis is no value.
    at_every_split(&lenient(), "<|channel|>analysi [5]", "[5]");
    at_every_split(&lenient(), "<|channel|>commentary<|message|>[6]", "[6]");
    fails(
        &lenient(),
        b"<|channel|>analysis<|message|>{\"a\": 1}",
        ErrorKind::NoStructure,
    );
}

/// Magistral writes its reasoning in `[THINK]…[/THINK]` where the reply begins: a draft
/// there is no value, though the block's bracket begins a root.
#[test]
fn a_bracketed_think_block_is_reasoning() {
    at_every_split(
        &lenient(),
        "[THINK]The user wants {\"a\": 0}, or [1, 2]. [x] <y> Done.[/THINK]\n{\"a\": 1}",
        r#"{"a":1}"#,
    );
    // In any case (`[t` begins a literal, `[think` fails inside it), and before one scalar.
    at_every_split(&lenient(), "[think]{\"a\": 0}[/think] \"yes\"", r#""yes""#);
    at_every_split(&lenient(), "  [Think]x[/THINK]42 ", "42");
    at_every_split(&lenient(), "[THINK]x[/THINK]```json\n[3]\n```", "[3]");
    // Near misses where the reply begins are a bracket skipped to its close, as before.
    at_every_split(&lenient(), "[THANKS {\"a\": 0}] {\"b\": 2}", r#"{"b":2}"#);
    at_every_split(&lenient(), "[thin] [4]", "[4]");
    at_every_split(&lenient(), "[true, 5]", "[true,5]");
    at_every_split(&lenient(), "[tru] [6]", "[6]");
    // After prose it opens nothing: the bracket is a root's, or prose.
    at_every_split(&lenient(), "Note: [THINK] {\"a\": 7}", r#"{"a":7}"#);
    // A cut block is no value; a reply cut inside the tag is cut (review: `invalid`).
    fails(&lenient(), b"[THINK]{\"a\": 1}", ErrorKind::NoStructure);
    for cut in ["[T", "[TH", "  [THINK", "[thin"] {
        fails(&lenient(), cut.as_bytes(), ErrorKind::Truncated);
    }
    // A bracket right after the closing tag opens the value (review: it was taken for an
    // index, as in `m[1][2]`).
    at_every_split(&lenient(), "[THINK]x[/THINK][1]", "[1]");
    at_every_split(&lenient(), "[THINK]x[/THINK][true]", "[true]");
    // A byte cap inside the tag is the cap (review: the bracket's refusal as a root).
    for cap in 2..=6 {
        let options = lenient().max_bytes(cap);
        let error = fails(&options, b"[THINK]ab[/THINK]{\"a\":1}", ErrorKind::TooLarge);
        assert_eq!(error.offset(), cap);
    }
    // A near miss is still the bracket's refusal when nothing else comes.
    fails(&lenient(), b"[NOTE] x", ErrorKind::Invalid);
}

/// A comment where the reply's text begins, or inside a JSON fence, before the root: a
/// value named in it is no value (review: `// example: {"id": 0}` in a fence was read as
/// the answer, and `/* default: [] */` gave `[]` without a warning). In other prose a `/`
/// is prose.
#[test]
fn a_comment_before_the_root_is_skipped() {
    let cases = [
        (
            "```json\n// example: {\"id\": 0}\n{\"id\": 42}\n```\n",
            r#"{"id":42}"#,
        ),
        ("```jsonc\n/* default: [] */\n[1, 2, 3]\n```", "[1,2,3]"),
        ("/* {\"x\": 1} */ {\"a\": 1}", r#"{"a":1}"#),
        ("// comment {\"x\": 1}\n{\"a\": 1}", r#"{"a":1}"#),
        ("  // c\n/* d ** / */ [4]", "[4]"),
        ("<think>[0]</think>\n// note [1]\n[5]", "[5]"),
        // A `/` that opens no comment is prose, and prose turns comments off.
        ("/x {\"a\": 3}", r#"{"a":3}"#),
        ("see https://x.com/{id} then {\"a\": 2}", r#"{"a":2}"#),
        ("and/or // {\"a\": 6}", r#"{"a":6}"#),
    ];
    for (input, expected) in cases {
        at_every_split(&lenient(), input, expected);
    }
    // Nothing but comments, or one left open: no value.
    for input in ["// only", "/* open {\"a\": 1}", "/"] {
        fails(&lenient(), input.as_bytes(), ErrorKind::NoStructure);
    }
    // Their bytes count toward the idle limit as prose does.
    let options = lenient().idle_limit(5);
    let error = fails(
        &options,
        b"/* a long comment */ {\"a\": 1}",
        ErrorKind::NoStructure,
    );
    assert_eq!(error.offset(), 5);
    // Strict mode reads JSON only.
    fails(&strict(), b"// c\n{}", ErrorKind::Invalid);
    // A line comment ends at a `\r` alone too (review: it swallowed the answer).
    at_every_split(&lenient(), "// a\r[3]", "[3]");
    // A reply that is one scalar after comments is that scalar.
    at_every_split(&lenient(), "// c\n42", "42");
    at_every_split(&lenient(), "/* c ** / */ \"yes\"", r#""yes""#);
    at_every_split(&lenient(), "```json\n// c\n1\n```", "1");
    // And after it (a second review).
    at_every_split(&lenient(), "42 // c", "42");
    at_every_split(&lenient(), "/* c */ 12 // d", "12");
    at_every_split(&lenient(), "\"x\" /* y */", r#""x""#);
    at_every_split(&lenient(), "```json\n42 // c\n```", "42");
    // A `/` that opens no comment after it makes it prose.
    fails(&lenient(), b"42/2", ErrorKind::NoStructure);
    // A root named in a comment after the scalar is no value (it was read as the answer),
    // and a comment (or a `/`) the input ends in after it leaves the scalar standing, as
    // it leaves an object.
    at_every_split(&lenient(), "42 // was {\"a\":0}", "42");
    at_every_split(&lenient(), "true /* [1] */ // [2]", "true");
    at_every_split(&lenient(), "```json\n42 // {\"a\":0}\n```", "42");
    at_every_split(&lenient(), "42 /* c", "42");
    at_every_split(&lenient(), "\"x\" /* {\"a\":0}", r#""x""#);
    at_every_split(&lenient(), "7 /", "7");
    // Where the reply turns out to be more, what follows is prose as before; the comment
    // stays one (in every chunking: the reply is followed ahead of the scan).
    at_every_split(&lenient(), "42 // {\"a\":0}\nthen {\"b\":1}", r#"{"b":1}"#);
    at_every_split(&lenient(), "42/2 {\"a\":1}", r#"{"a":1}"#);
    at_every_split(&lenient(), "null/x [1]", "[1]");
    // Right after the root, a comment names no second value: under keep-last a commented-out
    // object replaced the answer (a second review). After prose, `/` is prose again.
    let keep_last = lenient().second_root(crate::SecondRoot::KeepLast);
    for input in [
        "{\"a\":1} // {\"b\":2}",
        "{\"a\":1} /* {\"b\":2} */",
        "{\"a\":1}\n// old: {\"b\":2}\n",
        "{\"a\":1} /* open {\"b\":2}",
    ] {
        at_every_split(&keep_last, input, r#"{"a":1}"#);
        at_every_split(&lenient(), input, r#"{"a":1}"#);
    }
    at_every_split(&keep_last, "{\"a\":1} x // {\"b\":2}", r#"{"b":2}"#);
    // Prose read through a tag or a code span is prose too (a third review).
    for input in ["{\"a\":1} < // {\"b\":2}", "{\"a\":1} `x` // {\"b\":2}"] {
        at_every_split(&keep_last, input, r#"{"b":2}"#);
    }
    at_every_split(&keep_last, "{\"a\":1} / 2 {\"b\":2}", r#"{"b":2}"#);
    // A byte-order mark's last byte is no letter an index follows (a second review:
    // `\u{feff}[1]` was read as an index, `no_structure`).
    at_every_split(&lenient(), "\u{feff}[1]", "[1]");
    at_every_split(&lenient(), "\u{feff}[true]", "[true]");
    // Only a mark: a character whose last byte is the mark's last is a letter (a third
    // review: `み[1]` was read as the value).
    for input in ["\u{307f}[1]", "a\u{bf}[1]"] {
        fails(&lenient(), input.as_bytes(), ErrorKind::NoStructure);
    }
    // A `/` in prose counts toward the idle limit where it stands, at any chunking
    // (review: the limit landing on it was reported a byte late, fed whole).
    for (input, limit) in [
        ("a/b {\"a\":1}", 1),
        ("x // y {\"a\":1}", 2),
        ("http://x.y/z {\"a\":1}", 5),
    ] {
        let options = lenient().idle_limit(limit);
        let error = fails(&options, input.as_bytes(), ErrorKind::NoStructure);
        assert_eq!(error.offset(), limit, "{input}");
    }
}

#[test]
fn false_start_split_everywhere() {
    at_every_split(
        &lenient(),
        "fill in {fields} then {\"a\":[1]}",
        r#"{"a":[1]}"#,
    );
}

// ---- lenient rules ----

#[test]
fn prose_before_and_after_the_root() {
    let (r, _) = replay(
        &lenient(),
        &[b"Sure! Here it is: {\"a\": 1} Hope this helps {x}."],
    );
    assert_eq!(r.ok().as_deref(), Some(r#"{"a":1}"#));
}

#[test]
fn fence_with_and_without_a_language_tag() {
    for input in [
        "```json\n{\"a\":1}\n```",
        "```\n{\"a\":1}\n```",
        "```JSON \r\n{\"a\":1}```",
    ] {
        let (r, _) = replay(&lenient(), &[input.as_bytes()]);
        assert_eq!(r.ok().as_deref(), Some(r#"{"a":1}"#), "{input:?}");
    }
}

/// A `/` in prose is prose wherever a chunk begins: a fence after it is mid-line
/// (review: whole, the fence after `Hi\n/` opened a code block that hid the answer; cut
/// before the `/`, it did not).
#[test]
fn a_slash_before_a_fence_is_prose_in_any_chunking() {
    at_every_split(&lenient(), "Hi\n/```x{\"a\":1}", r#"{"a":1}"#);
    at_every_split(&lenient(), "Hi\n/ ```sh {\"a\": 1}", r#"{"a":1}"#);
    at_every_split(&lenient(), "*/```9{\"a\":1}", r#"{"a":1}"#);
    at_every_split(
        &lenient(),
        "see a/b:\n```json\n{\"a\":1}\n```",
        r#"{"a":1}"#,
    );
    let (whole, _) = replay(&lenient(), &[b"\0\n/~~~1["]);
    let ones: Vec<&[u8]> = b"\0\n/~~~1[".chunks(1).collect();
    let (split, _) = replay(&lenient(), &ones);
    let verdict =
        |r: &Result<String, Error>| r.as_ref().map_err(|e| (e.kind(), e.offset())).cloned();
    assert_eq!(verdict(&whole), verdict(&split));
}

/// `<think>` and `<thinking>` open a block wherever they come: what is inside is never
/// the answer, not even after prose on the same line or after the answer under
/// keep-last; one a sentence names hides the rest of the reply, an error that says so
/// (a review: read as prose, a mid-line block's draft became the answer, silently).
#[test]
fn a_think_block_after_prose_is_reasoning_wherever_it_begins() {
    for text in [
        "Hi <think>\n{\"a\": 0}\n</think>\n{\"a\": 1}",
        "Hi <thinking>{\"a\": 0}</thinking> then {\"a\": 1}",
        "Hi <think>{\"a\": 0}</think>\n```json\n{\"a\": 1}\n```",
        "Sure.\n<think>maybe {\"a\": 0}</think>\n{\"a\": 1}",
        "Sure.\r<think>{\"a\": 0}</think>{\"a\": 1}",
    ] {
        at_every_split(&lenient(), text, r#"{"a":1}"#);
    }
    let keep_last = lenient().second_root(SecondRoot::KeepLast);
    for text in [
        "{\"a\":1}<think>{\"a\":0}</think>",
        "{\"a\": 1} and <think>{\"a\": 0}</think>",
    ] {
        at_every_split(&keep_last, text, r#"{"a":1}"#);
    }
    let e = fails(
        &lenient(),
        b"Models wrap reasoning in <think> tags.\n\n{\"a\": 1}",
        ErrorKind::NoStructure,
    );
    assert!(e.to_string().contains("reasoning block"), "{e}");
}

#[test]
fn a_fence_in_another_language_is_prose() {
    let input = "```python\nprint(x)\n```\nThe answer: ```json\n[1, 2]\n```";
    let (r, _) = replay(&lenient(), &[input.as_bytes()]);
    assert_eq!(r.ok().as_deref(), Some("[1,2]"));
    // Skipped whole: what looks like JSON in it is code.
    fails(
        &lenient(),
        b"```python\n{\"a\": 1}\n```\n",
        ErrorKind::NoStructure,
    );
}

#[test]
fn a_code_block_in_another_language_is_skipped_whole_whatever_it_begins_with() {
    // JavaScript that begins with a JSON literal goes on as code: none of it is the answer,
    // nor an error, nor a second value after the answer.
    for (input, value) in [
        (
            "```ts\n[\"admin\", \"editor\"].includes(role)\n```\n```json\n{\"roles\": [\"admin\"]}\n```\n",
            r#"{"roles":["admin"]}"#,
        ),
        (
            "```javascript\n{\n  \"title\": \"Meeting\",\n  \"start\": new Date()\n}\n```\nThe body:\n```json\n{\"title\": \"M\"}\n```\n",
            r#"{"title":"M"}"#,
        ),
        (
            "```js\n{\n  model: \"gpt-4o\",\n  messages: [{\"role\": \"user\"}]\n}\n```\nResult: {\"ok\": true}",
            r#"{"ok":true}"#,
        ),
    ] {
        at_every_split(&lenient(), input, value);
    }
    let keep_last = lenient().second_root(crate::SecondRoot::KeepLast);
    at_every_split(
        &keep_last,
        "```json\n{\"a\": 1}\n```\nUse it:\n```js\n[1, 2].forEach(f)\n```\n",
        r#"{"a":1}"#,
    );
    fails(
        &lenient(),
        b"```js\n{\"a\": 1}\n```\n",
        ErrorKind::NoStructure,
    );
}

#[test]
fn trailing_commas_in_lenient_mode() {
    let (r, _) = replay(&lenient(), &[b"{\"a\": [1, 2, ], \"b\": {\"c\": 3,},}"]);
    assert_eq!(r.ok().as_deref(), Some(r#"{"a":[1,2],"b":{"c":3}}"#));
}

#[test]
fn clean_buffer_drops_prose_comments_and_trailing_commas() {
    let mut scanner = crate::Scanner::new(lenient());
    let input = b"Hi {fields}! ```json\n{ \"a\" : [1, /* x */ 2,], // y\n \"b\": \"s p\" }\n```";
    scanner.feed(input, &mut crate::IgnoreSink).unwrap();
    scanner.finish(&mut crate::IgnoreSink).unwrap();
    assert_eq!(
        scanner.clean(),
        b"{ \"a\" : [1,         2 ],     \n \"b\": \"s p\" }"
    );
    assert_eq!(scanner.root_offset(), 21);
}

#[test]
fn think_block_with_braces_is_skipped_whole() {
    let input =
        "<think>\nThe user wants {\"verdict\": ...}. Let me [check].\n</think>\n\n{\"v\": 1}";
    let (r, snaps) = replay(&lenient(), &input.as_bytes().chunks(3).collect::<Vec<_>>());
    assert_eq!(r.ok().as_deref(), Some(r#"{"v":1}"#));
    for snap in snaps.iter().flatten() {
        assert!(!snap.contains("verdict"), "think content leaked: {snap}");
    }
}

#[test]
fn false_starts_never_show_in_a_snapshot() {
    let inputs = [
        "fill in the {fields} and see [user 1], then ```json\n{\"a\": \"b\"}\n```",
        "Use {\"name\" or [x] ... no: {\"a\": \"b\"}",
        // An empty container in prose confirms no member: a mention, not the answer.
        "The set {} is empty but {\"a\": \"b\"} is not",
        "TODO:\n- [ ] check\n- [x] done\n```json\n{\"a\": \"b\"}\n```",
        "Use `{}` or [ /* none */ ] as a placeholder. {\"a\": \"b\"}",
    ];
    for input in inputs {
        for size in [1, 7, input.len()] {
            let chunks: Vec<&[u8]> = input.as_bytes().chunks(size).collect();
            let (r, snaps) = replay(&lenient(), &chunks);
            assert_eq!(r.ok().as_deref(), Some(r#"{"a":"b"}"#), "{input:?}");
            // (`{}` is the real root begun: after a fence it shows at once.)
            for snap in snaps.iter().flatten() {
                assert!(
                    snap == "{}" || snap.starts_with(r#"{"a""#),
                    "false start leaked into {snap} for {input:?}"
                );
            }
        }
    }
}

/// A bracket quoted in prose (`"{"`) opens a root whose first string runs to the real
/// root's first quote: the real root is read from its own bracket, at every chunking,
/// with its own offset, line and column.
#[test]
fn a_quoted_bracket_in_prose_does_not_hide_the_root() {
    let inputs = [
        "He said \"{\" then {\"a\": \"b\"}",
        "Objects open with \"{\":\n{\"a\": \"b\"}",
        "Type \"{\", then\t\"{\"\n {\"a\": \"b\"}",
        "A quote \"{ \"  { \"a\": \"b\"}",
    ];
    for input in inputs {
        for size in [1, 2, 7, input.len()] {
            let chunks: Vec<&[u8]> = input.as_bytes().chunks(size).collect();
            let (r, snaps) = replay(&lenient(), &chunks);
            assert_eq!(
                r.ok().as_deref(),
                Some(r#"{"a":"b"}"#),
                "{input:?} by {size}"
            );
            for snap in snaps.iter().flatten() {
                assert!(
                    snap == "{}" || snap.starts_with(r#"{"a""#),
                    "{snap} for {input:?}"
                );
            }
            let mut scanner = crate::Scanner::new(lenient());
            for chunk in &chunks {
                scanner.feed(chunk, &mut crate::IgnoreSink).unwrap();
            }
            scanner.finish(&mut crate::IgnoreSink).unwrap();
            let root = input.rfind("{ \"a\"").or(input.rfind("{\"a\"")).unwrap();
            assert_eq!(scanner.root_offset(), root as u64, "{input:?} by {size}");
        }
    }
    // A string in a bracket in prose confirms an array only once a separator follows it.
    for (input, value) in [
        (
            "Arrays open with \"[\", objects with {\"a\": \"b\"}",
            r#"{"a":"b"}"#,
        ),
        ("Use \"[\" to begin. [\"x\"] is the list", r#"["x"]"#),
        ("Sure! [\"a\\n\\u00e9\", \"b\"]", r#"["a\né","b"]"#),
        (
            "See [\"Smith 2020\"; \"Lee\"] and {\"a\": \"b\"}",
            r#"{"a":"b"}"#,
        ),
        ("Tags: [\"a\"] done", r#"["a"]"#),
    ] {
        for size in [1, 2, 7, input.len()] {
            let chunks: Vec<&[u8]> = input.as_bytes().chunks(size).collect();
            let (r, snaps) = replay(&lenient(), &chunks);
            assert_eq!(r.ok().as_deref(), Some(value), "{input:?} by {size}");
            // No snapshot shows the bracket in prose (nor any of its text).
            for snap in snaps.iter().flatten() {
                assert_eq!(snap.get(..1), value.get(..1), "{snap} for {input:?}");
                for prose in ["Smith", "begin", "objects", " and "] {
                    assert!(!snap.contains(prose), "{snap} for {input:?}");
                }
            }
        }
    }
    // Brackets opening the real root together are read again together.
    for (input, value) in [
        ("Use \"[\" then [[\"a\"]]", r#"[["a"]]"#),
        ("Use \"[\" then [{\"a\": 1}]", r#"[{"a":1}]"#),
        (
            "Use \"{\" then { \"a\": [ {\"b\": 1} ] }",
            r#"{"a":[{"b":1}]}"#,
        ),
    ] {
        for size in [1, 2, 7, input.len()] {
            let chunks: Vec<&[u8]> = input.as_bytes().chunks(size).collect();
            let (r, _) = replay(&lenient(), &chunks);
            assert_eq!(r.ok().as_deref(), Some(value), "{input:?} by {size}");
        }
    }
    // Not read again: past a comment (its text is blanked), past the depth cap or the
    // idle limit, or after a stall. The reading goes on as prose, the same at every
    // chunking.
    for (options, input) in [
        (lenient(), "Routes start with \"{\" like {\"/api\": \"x\"}"),
        (lenient().max_depth(0), "He said \"{\" then {\"a\": 1}"),
        (lenient().max_depth(1), "Use \"[\" then [[\"a\"]]"),
        (
            lenient().idle_limit(12),
            "He said {\"  then {  \"a\": \"x\"}",
        ),
    ] {
        let whole = replay(&options, &[input.as_bytes()]).0;
        assert!(whole.is_err(), "{input:?}: {whole:?}");
        let whole = whole.map_err(|e| (e.kind(), e.offset()));
        for size in [1, 2, 7] {
            let chunks: Vec<&[u8]> = input.as_bytes().chunks(size).collect();
            let r = replay(&options, &chunks)
                .0
                .map_err(|e| (e.kind(), e.offset()));
            assert_eq!(r, whole, "{input:?} by {size}");
        }
    }
    let input = "He said \"{\" then {\"   a\": 1}";
    for size in [1, 2, 3, input.len()] {
        let chunks: Vec<&[u8]> = input.as_bytes().chunks(size).collect();
        let r = replay(&lenient().stall_limit(Some(2)), &chunks).0;
        assert_eq!(
            r.map_err(|e| e.kind()),
            Err(ErrorKind::Stalled),
            "by {size}"
        );
    }
    // An error in the real root points at its byte, line and column.
    let input = "Objects open with \"{\":\n{\"a\": \"b\", \"c\": tru }";
    let bad = input.find("tru ").unwrap() as u64 + 3;
    for size in [1, 7, input.len()] {
        let chunks: Vec<&[u8]> = input.as_bytes().chunks(size).collect();
        let (r, _) = replay(&lenient(), &chunks);
        let e = r.unwrap_err();
        assert_eq!(
            (e.offset(), e.line(), e.column()),
            (bad, 2, bad - 23 + 1),
            "{e}"
        );
    }
}

/// A root in prose refused at its first value, after a key and its colon, was meant as
/// JSON: when no other root comes, its own error (kind, byte, line, column) is the
/// reading's, at every chunking, before an empty container held in prose or after it, at
/// the end of the input, at the idle limit and at a provider's cut. A later root still
/// replaces it (a template echoed before the answer).
#[test]
fn a_root_refused_at_its_first_value_is_the_error_when_no_other_comes() {
    for (input, offset, line, column) in [
        ("Sure: {\"a\": 01}", 13, 1, 14),
        (
            "Settings go in {} braces.\nAnswer: {\"retries\": 01, \"v\": true}",
            47,
            2,
            22,
        ),
        ("Answer: {\"retries\": 01} (write {} for none)", 21, 1, 22),
        ("x {\"a\": 5 \"b\": 1}", 10, 1, 11),
        ("Use {} for R. Here: {\"a\": tru}", 29, 1, 30),
        ("é {\"a\": NaN}", 9, 1, 10),
        // A `/` that opens no comment, where the value would go on (review: these were
        // `no_structure`, as if the bracket had begun prose).
        ("Sure: {\"a\": 1/2}", 14, 1, 15),
        ("Sure: {\"a\": 1 /x}", 15, 1, 16),
        ("Sure: {\"a\": /x 1}", 13, 1, 14),
        // At its first key, led by `:` or `=` or beginning its line: meant as the answer
        // (review: these were a citation or an empty example held before, or
        // `no_structure`).
        (
            "As noted in [1], the output is:\n{\n  name: \"x\"\n}",
            36,
            3,
            3,
        ),
        ("Per [2]:\n{'name': 'x'}", 10, 2, 2),
        ("See [1]. Result = {a: 1}", 19, 1, 20),
        ("Output:\n{\n  name: \"x\"\n}", 12, 3, 3),
        // One refused at its first key only does not replace one refused at its value.
        ("Sure: {\"a\": 01} then Output: {b: 1} and []", 13, 1, 14),
    ] {
        let error = fails(&lenient(), input.as_bytes(), ErrorKind::Invalid);
        assert_eq!(
            (error.offset(), error.line(), error.column()),
            (offset, line, column),
            "{input:?}: {error}"
        );
        for size in [2, 7] {
            let chunks: Vec<&[u8]> = input.as_bytes().chunks(size).collect();
            let (r, snaps) = replay(&lenient(), &chunks);
            let e = r.expect_err(input);
            assert_eq!(
                (e.kind(), e.offset(), e.column()),
                (ErrorKind::Invalid, offset, column)
            );
            assert!(snaps.iter().all(Option::is_none), "{input:?}: {snaps:?}");
        }
    }
    // The idle limit and a provider's cut end the reading the same way.
    let mut scanner = crate::Scanner::new(lenient().idle_limit(40));
    let input = b"Sure: {\"a\": 01} and then a long stretch of prose with no value";
    let e = scanner
        .feed(input, &mut crate::IgnoreSink)
        .expect_err("idle");
    assert_eq!((e.kind(), e.offset()), (ErrorKind::Invalid, 13));
    let mut scanner = crate::Scanner::new(lenient());
    scanner
        .feed(b"Sure: {} or {\"a\": 01} and", &mut crate::IgnoreSink)
        .unwrap();
    let e = scanner
        .cut("length", &mut crate::IgnoreSink)
        .expect_err("cut");
    // A provider's cut is a truncation, whatever the prose held.
    assert_eq!(e.kind(), ErrorKind::Truncated);
    let mut scanner = crate::Scanner::new(lenient().idle_limit(40));
    scanner
        .feed(b"Sure: {} or {\"a\": 01} and", &mut crate::IgnoreSink)
        .unwrap();
    let e = scanner.finish(&mut crate::IgnoreSink).expect_err("end");
    assert_eq!((e.kind(), e.offset()), (ErrorKind::Invalid, 19));
    // Not refused: no colon after the key, or no key; the empty container or
    // `NoStructure` stands.
    for (input, value) in [
        ("Use {\"a\" said} and {}", "{}"),
        ("See {this} and []", "[]"),
        ("Use [] here. Fill in {name: x}.", "[]"),
        // Refused at its first key only, it gives way to an empty container held in the
        // prose, before or after it (a shape described, then no items).
        ("Use [] for none. Output:\n[{name: \"x\"}]", "[]"),
        ("Answer: []\n\nEach item would be:\n{name: string}", "[]"),
        ("Format: {name: string}\n\n{}", "{}"),
        ("Hi!\n{name}, your results:\n[]", "[]"),
        ("Template:\n{{name}}\n\nAnswer: []", "[]"),
        // So does a bracket refused where the reply begins.
        ("{name: string}\n\n[]", "[]"),
        ("[He said \"hi] and left.\n{}", "{}"),
        ("[NOTE \"draft] one\n[]", "[]"),
    ] {
        assert_eq!(
            replay(&lenient(), &[input.as_bytes()]).0.ok().as_deref(),
            Some(value)
        );
    }
    fails(
        &lenient(),
        b"I said {\"a\" then left",
        ErrorKind::NoStructure,
    );
    // Past the depth cap, the depth is what is wrong with it; at the byte cap, its error
    // still ends the reading (an empty container held would be the value there).
    let e = fails(
        &lenient().max_depth(0),
        b"Sure: {\"a\": 01}",
        ErrorKind::TooDeep,
    );
    assert_eq!(e.offset(), 6);
    let input = b"Sure: {\"a\": 01} {} and then some more prose here";
    let e = fails(&lenient().max_bytes(25), input, ErrorKind::Invalid);
    assert_eq!(e.offset(), 13);
    // One refused at its first key gives way to an empty container or a citation after
    // it, which a cap may keep from coming: the cap is the reading's end (a review: capped
    // at 27 this was `invalid`, read whole it is `[1]`).
    let input = "Output:\n{name: \"x\"}\nSee [1].";
    at_every_split(&lenient(), input, "[1]");
    for cap in 9..input.len() as u64 {
        let (result, _) = replay(&lenient().max_bytes(cap), &[input.as_bytes()]);
        assert_eq!(
            result.map_err(|e| (e.kind(), e.offset())),
            Err((ErrorKind::TooLarge, cap)),
            "capped at {cap}"
        );
    }
    // A root that comes after it is the answer.
    for input in [
        "Format: {\"name\": <string>}. Here: {\"name\": \"x\"}",
        "Sure: {\"a\": 01}\n```json\n{\"name\": \"x\"}\n```",
    ] {
        at_every_split(&lenient(), input, r#"{"name":"x"}"#);
    }
}

#[test]
fn an_empty_container_in_prose_is_the_value_when_no_other_comes() {
    for (input, value) in [
        ("The list is empty: []", "[]"),
        ("Nothing to report: { }.\nDone.", "{}"),
        ("- [ ] first\n- [ ] second", "[]"),
        ("See [] then [x] and {fields}", "[]"),
        // An array in the prose after it is a list or a citation, not a later answer.
        ("Result: []. See [1] and [2, 3].", "[]"),
        // One led by `:` or `=`, or beginning its line, comes before an example.
        ("Use [] for none. Output: {}", "{}"),
        ("Use [] for none.\n{}\nDone.", "{}"),
        ("Return {} if none. Result: []. Or: {}", "[]"),
    ] {
        for size in [1, 7, input.len()] {
            let chunks: Vec<&[u8]> = input.as_bytes().chunks(size).collect();
            let (r, snaps) = replay(&lenient(), &chunks);
            assert_eq!(
                r.ok().as_deref(),
                Some(value),
                "{input:?} in {size}-byte chunks"
            );
            // Held back until the input ends: no snapshot shows it before.
            assert!(snaps.iter().all(Option::is_none), "{input:?}: {snaps:?}");
        }
    }
    // The first of several is the value, as the first complete root would be.
    let (r, _) = replay(&lenient(), &[b"a [] b {} c"]);
    assert_eq!(r.ok().as_deref(), Some("[]"));
    // One that opened past the depth cap is too deep, if it is the value.
    let (r, _) = replay(&lenient().max_depth(0), &[b"Sure: [] ok"]);
    assert_eq!(
        r.map_err(|e| (e.kind(), e.offset())),
        Err((crate::ErrorKind::TooDeep, 6))
    );
    // After a complete root, an empty one in prose is prose too: no second value (none
    // to keep or to replace the first with).
    for policy in [crate::SecondRoot::KeepFirst, crate::SecondRoot::KeepLast] {
        let options = lenient().second_root(policy);
        let mut scanner = crate::Scanner::new(options);
        let input = b"{\"a\": 1} and then - [ ] todo, {}";
        scanner.feed(input, &mut crate::IgnoreSink).unwrap();
        scanner.finish(&mut crate::IgnoreSink).unwrap();
        assert!(scanner.warnings().is_empty(), "{:?}", scanner.warnings());
        assert_eq!(scanner.clean(), b"{\"a\": 1}");
    }
}

#[test]
fn an_empty_container_held_in_prose_stands_wherever_the_reading_stops() {
    let outcome = |options: Options, chunks: &[&[u8]]| {
        let (r, _) = replay(&options, chunks);
        r.map_err(|e| (e.kind(), e.offset()))
    };
    let held = Ok("[]".to_owned());
    // Not the idle limit (from adversarial reviews): reading on may have replaced it, so
    // no value began in time, as with no empty container before; nor is a citation (whose
    // limit read on, then took the answer after it for a second value).
    assert_eq!(
        outcome(lenient().idle_limit(20), &[b"Sure: [] xxxxxxxxxxxxxxxxxx"]),
        Err((ErrorKind::NoStructure, 20))
    );
    assert_eq!(
        outcome(lenient().idle_limit(10), &[b"see [1] abc {\"a\":1}"]),
        Err((ErrorKind::NoStructure, 10))
    );
    assert_eq!(
        outcome(lenient().idle_limit(10), &[b"see [] abcd {\"a\":1}"]),
        Err((ErrorKind::NoStructure, 10))
    );
    // Not the byte cap (from an adversarial review): reading on may have replaced it, as
    // a provider's cut may have (below), so the reading is too large, as the same bytes
    // cut are a truncation. Whatever the cap inside the prose, and for a citation too.
    for cap in 9..24 {
        let reply: &[u8] = b"Sure: [] and the answer: {\"a\": 1}";
        assert_eq!(
            outcome(lenient().max_bytes(cap), &[reply]),
            Err((ErrorKind::TooLarge, cap)),
            "cap {cap}"
        );
        let reply: &[u8] = b"as noted [1] the answer is {\"a\": 1}";
        assert_eq!(
            outcome(lenient().max_bytes(cap + 5), &[reply]),
            Err((ErrorKind::TooLarge, cap + 5)),
            "cap {cap}"
        );
    }
    // A root complete before the cap stands.
    assert_eq!(
        outcome(lenient().max_bytes(18), &[b"Here: {\"a\": 1} and more"]),
        Ok(r#"{"a":1}"#.to_owned())
    );
    // An unclosed `<think>` block, or an unconfirmed root, at the end of the input.
    assert_eq!(outcome(lenient(), &[b"Here: [] <think>hmm"]), held);
    assert_eq!(outcome(lenient(), &[b"Here: [] and then ["]), held);
    // Not a provider's cut: the answer it cut is far likelier than an empty container
    // in the prose before it.
    let mut stream = crate::DynamicStream::new();
    stream.feed(b"Sure: [] x").unwrap();
    assert_eq!(
        stream
            .finish_cut("length")
            .map_err(|e| e.error().kind())
            .map(|v| v.to_json()),
        Err(ErrorKind::Truncated)
    );
    // Its clean text is its own, whitespace and comments blanked: positions stay right.
    let mut scanner = crate::Scanner::new(lenient());
    scanner
        .feed(b"Sure: {\n  /* nothing */\n} ok", &mut crate::IgnoreSink)
        .unwrap();
    scanner.finish(&mut crate::IgnoreSink).unwrap();
    let blanked = format!("{{\n{}\n}}", " ".repeat("  /* nothing */".len()));
    assert_eq!(scanner.clean(), blanked.as_bytes());
    assert_eq!(scanner.root_offset(), 6);
}

#[test]
fn a_tentative_root_is_held_back_until_confirmed() {
    // Its first member is confirmed by its value: a number once a separator follows it,
    // a string or a container as it begins.
    let (_, snaps) = replay(&lenient(), &[b"Here: {", b"\"a\"", b" :", b" 1", b"}"]);
    assert_eq!(snaps, [None, None, None, None, Some(r#"{"a":1}"#.into())]);
    let (_, snaps) = replay(&lenient(), &[b"Here: {\"a\": ", b"\"x", b"y\"}"]);
    assert_eq!(
        snaps,
        [
            None,
            Some(r#"{"a":"x"}"#.into()),
            Some(r#"{"a":"xy"}"#.into())
        ]
    );
    let (_, snaps) = replay(&lenient(), &[b"Here: [1", b" ", b",", b" 2]"]);
    assert_eq!(
        snaps,
        [None, None, Some("[1]".into()), Some("[1,2]".into())]
    );
    // A root without prose before it shows once its first key begins (an object) or its
    // first element (an array: see `bare_array`).
    let (_, snaps) = replay(&lenient(), &[b"{", b" ", b"\"a\""]);
    assert_eq!(
        snaps,
        [None, None, Some("{}".into())],
        "a root without prose"
    );
    let (_, snaps) = replay(&lenient(), &[b"[", b"\"a"]);
    assert_eq!(
        snaps,
        [None, Some(r#"["a"]"#.into())],
        "a root without prose"
    );
}

/// A reply that begins with a placeholder in braces is prose there, as in a sentence
/// (review: `{name} is the key. {"a": 1}` failed with "key must be a string"); an object
/// whose first key is no string is still refused with that error when nothing else comes.
#[test]
fn an_object_where_the_reply_begins_is_confirmed_by_its_first_key() {
    for (input, expected) in [
        ("{name} is the key. {\"a\": 1}", r#"{"a":1}"#),
        ("{{name}}, here is the JSON: {\"a\": 1}", r#"{"a":1}"#),
        (
            "<think>ok</think>\n{name} is filled in below.\n```json\n{\"a\": 1}\n```\n",
            r#"{"a":1}"#,
        ),
        ("{'a': 1} then {\"b\": 2}", r#"{"b":2}"#),
        ("{ /* c */ \"a\": 1}", r#"{"a":1}"#),
        ("{\n  // c\n  \"a\": [1]\n}", r#"{"a":[1]}"#),
        (" {}", "{}"),
        ("{\"a\": {b}}", ""),
    ] {
        if expected.is_empty() {
            // Once a key began, the object is the answer: what breaks it is its error.
            let error = fails(&lenient(), input.as_bytes(), ErrorKind::Invalid);
            assert_eq!(error.offset(), 7, "{input}");
            continue;
        }
        at_every_split(&lenient(), input, expected);
    }
    for input in ["{name: 1}", "{name}", "{'a': 1}", "{1: 2}"] {
        for options in [lenient(), strict()] {
            let error = fails(&options, input.as_bytes(), ErrorKind::Invalid);
            assert_eq!(error.offset(), 1, "{input}");
        }
    }
    // In a JSON fence, it is the value: its error stands at once.
    let error = fails(
        &lenient(),
        b"```json\n{name} then {\"a\": 1}",
        ErrorKind::Invalid,
    );
    assert_eq!(error.offset(), 9);
    // Cut before its first key: it was the answer.
    for input in ["{", "{ \n ", "{ /* c */"] {
        let error = fails(&lenient(), input.as_bytes(), ErrorKind::Truncated);
        assert!(!error.to_string().contains("prose"), "{input}: {error}");
    }
}

#[test]
fn a_stray_quote_in_a_bracket_skipped_as_prose_ends_at_its_line() {
    // The quote opened no string (a JSON string holds no line break): a bracket inside
    // it closed the skip, so the prose after that line is read again.
    for (input, expected) in [
        (
            "{user's \"name} is asked for.\nAnswer: {\"a\": 1}",
            r#"{"a":1}"#,
        ),
        ("[NOTE \"x] one\n[1, 2]", "[1,2]"),
        ("{say \"{x} or {y}\" here}\n{\"a\": 1}", r#"{"a":1}"#),
        ("{the \"a} and {b\nc} end} {\"a\": 2}", r#"{"a":2}"#),
        // A phrase quoted in prose may wrap, though: that reading closes it too.
        (
            "[Note: the so-called \"streaming\nparser\" is used here.] {\"a\": 1}",
            r#"{"a":1}"#,
        ),
        ("{Note: the \"fast\nmode\" is on.} {\"a\": 1}", r#"{"a":1}"#),
    ] {
        at_every_split(&lenient(), input, expected);
    }
    // A quote that does close on its line is a string: the brackets in it do not count.
    for input in ["{name: \"}\", a: {\"b\": 1}}", "{x \"}\"\n{\"a\": 1}}"] {
        let error = fails(&lenient(), input.as_bytes(), ErrorKind::Invalid);
        assert_eq!(error.offset(), 1, "{input}");
    }
}

#[test]
fn a_key_shows_only_once_its_value_begins() {
    let (_, snaps) = replay(
        &lenient(),
        &[b"{\"ab", b"c\"", b":", b" \"", b"x", b"\",\"n\":1", b"2}"],
    );
    let snaps: Vec<_> = snaps.into_iter().map(Option::unwrap).collect();
    assert_eq!(
        snaps,
        [
            "{}",
            "{}",
            "{}",
            r#"{"abc":""}"#,
            r#"{"abc":"x"}"#,
            r#"{"abc":"x"}"#,
            r#"{"abc":"x","n":12}"#
        ]
    );
}

#[test]
fn literals_and_numbers_show_only_complete() {
    let (_, snaps) = replay(&strict(), &[b"[tr", b"ue, 1", b".", b"5", b"]"]);
    let snaps: Vec<_> = snaps.into_iter().map(Option::unwrap).collect();
    assert_eq!(snaps, ["[]", "[true]", "[true]", "[true]", "[true,1.5]"]);
}

/// Issue 12, bug 9: a duplicate key changed a settled value. The schema-less stream keeps
/// the first value (settled values never change) and records a warning.
#[test]
fn duplicate_keys_keep_the_first_value() {
    for chunk in [1, 3, 64] {
        let text: &[u8] = b"{\"a\":1,\"b\":2,\"a\":[3, {\"a\": 4}]}";
        let chunks: Vec<&[u8]> = text.chunks(chunk).collect();
        let (r, snaps) = replay(&lenient(), &chunks);
        assert_eq!(r.ok().as_deref(), Some(r#"{"a":1,"b":2}"#), "chunk {chunk}");
        assert!(
            snaps.iter().flatten().all(|s| !s.contains('3')),
            "{snaps:?}"
        );
    }
    let mut stream = crate::DynamicStream::with_options(lenient());
    stream.feed(b"{\"a\":1,\"a\":2}").unwrap();
    let settled: Vec<String> = stream.settled().map(|(p, v)| format!("{p}={v}")).collect();
    assert_eq!(settled, ["/a=1", "={\"a\":1}"]);
    assert_eq!(stream.warnings().len(), 1);
    assert_eq!(stream.warnings()[0].kind, crate::WarningKind::DuplicateKey);
    assert_eq!(stream.warnings()[0].offset, 7);
}

/// Narrow objects are searched linearly for a duplicate key, wide ones through an index:
/// both keep the first value, wherever the duplicate is.
#[test]
fn duplicate_keys_are_found_in_narrow_and_wide_objects() {
    for width in [2, 31, 32, 33, 200] {
        for dup in [0, width / 2, width - 1] {
            let mut text = String::from("{");
            for i in 0..width {
                text.push_str(&format!("\"k{i}\":{i},"));
            }
            text.push_str(&format!("\"k{dup}\":\"again\"}}"));
            let mut stream = crate::DynamicStream::with_options(lenient());
            stream.feed(text.as_bytes()).unwrap();
            let value = stream.finish().unwrap().to_json();
            assert!(!value.contains("again"), "width {width}, duplicate {dup}");
            assert!(
                value.contains(&format!("\"k{dup}\":{dup}")),
                "width {width}"
            );
        }
    }
}

// ---- strict mode ----

#[test]
fn a_reply_that_is_one_scalar_is_the_value_in_either_mode() {
    for (input, expected) in [
        ("42", "42"),
        (" \"x\" ", "\"x\""),
        ("true", "true"),
        ("null", "null"),
        ("-0.5e1\n", "-0.5e1"),
        (
            "\"caf\\u00e9 \u{1f680} {\\\"a\\\": 1}\"",
            "\"café 🚀 {\\\"a\\\": 1}\"",
        ),
    ] {
        let (r, _) = replay(&strict(), &[input.as_bytes()]);
        assert_eq!(r.ok().as_deref(), Some(expected), "{input:?}");
        // Lenient reading looks for an object or an array in prose; a reply that is one
        // scalar and nothing else is read as strict mode reads it, at its end.
        at_every_split(&lenient(), input, expected);
    }
    // Around it, what lenient reading skips: reasoning blocks, a JSON fence (closed or
    // not); and the limits and the prompt's open block apply as they do to prose.
    for (input, expected) in [
        ("<think>maybe {\"a\": 1}</think>\n\n17", "17"),
        ("<THINKING></thinking> false ", "false"),
        ("```json\n\"yes\"\n```\n", "\"yes\""),
        ("```\n  3.25e-2  \n```", "3.25e-2"),
        ("```json\n-7\n", "-7"),
        ("```JSON \r\nnull\r\n```", "null"),
    ] {
        at_every_split(&lenient(), input, expected);
    }
    at_every_split(&lenient().starts_in_reasoning(true), "1</think> 2", "2");
    // A string that begins the reply shows nothing inside it while the reply may be that
    // string: `"[1, 2]"` is a string, as strict mode reads it (review: the array inside
    // was the value).
    at_every_split(&lenient(), "\"[1, 2]\"", "\"[1, 2]\"");
    at_every_split(
        &lenient(),
        "\"{\\\"ids\\\": [7, 8]}\"",
        "\"{\\\"ids\\\": [7, 8]}\"",
    );
    at_every_split(
        &lenient(),
        "```json\n\"see [1] and [2]\"\n```",
        "\"see [1] and [2]\"",
    );
    // A byte-order mark where the input begins is whitespace, as before an object.
    at_every_split(&lenient(), "\u{feff}42", "42");
    at_every_split(&lenient(), "\u{feff}\"yes\"", "\"yes\"");
    at_every_split(&lenient(), "\u{feff}```json\n42\n```", "42");
    // A root begun inside it that showed nothing (past the depth cap, only looked at, and
    // not yet shown to be JSON) gives way to it (review: `too_deep`), as does a code span.
    let brackets = format!("\"{}\"", "[".repeat(130));
    at_every_split(&lenient(), &brackets, &brackets);
    at_every_split(&lenient().max_depth(1), "\"[[1\"", "\"[[1\"");
    at_every_split(&lenient(), "\"`x\"", "\"`x\"");
    // Prose, or a scalar with anything else around it, is still no value.
    for input in [
        "no",
        "42 apples",
        "\"a\" and \"b\"",
        "01",
        "tru ",
        "nope",
        "```python\n42\n```",
        "`42`",
        "Answer: 42",
        "42\n```",
        "```json\n```",
        "\u{feff}\u{feff}42",
        "<note>1</note> 1",
    ] {
        fails(&lenient(), input.as_bytes(), ErrorKind::NoStructure);
    }
    // A JSON fence's one scalar is its value, whatever follows the fence.
    at_every_split(&lenient(), "```json\n1\n``` 2", "1");
    // The idle limit counts its bytes as prose.
    fails(&lenient().idle_limit(3), b"12345", ErrorKind::NoStructure);
    at_every_split(&lenient().idle_limit(5), "12345", "12345");
}

/// A string that begins the reply hides what looks like JSON inside it only while the
/// reply may be that one string: where the reply shows it is more (prose after the
/// string, or a line break inside it), the string's text is read again as prose, as it
/// was before, at its own offsets.
#[test]
fn a_string_beginning_the_reply_is_prose_once_the_reply_is_more() {
    for (input, expected) in [
        ("\"Sure!\" {\"a\": [1]}", r#"{"a":[1]}"#),
        ("\"Sure!\n{\"a\": [1]}", r#"{"a":[1]}"#),
        ("\"Here: {\"a\": 1}", r#"{"a":1}"#),
        (
            "\"Here is the result: {\"name\": \"x\"}\"",
            r#"{"name":"x"}"#,
        ),
        ("\"Items: [1, 2, 3]\nDone\"", "[1,2,3]"),
        ("  \"x\" and then [4, 5]", "[4,5]"),
        ("\u{feff}\"x\" [1, 2]", "[1,2]"),
    ] {
        at_every_split(&lenient(), input, expected);
    }
    // The offsets of what is read again are its own.
    let error = fails(&lenient(), b"\"ok\" {\"a\": tru}", ErrorKind::Invalid);
    assert_eq!(error.offset(), 14);
    // The idle limit counts the string's bytes once, as prose.
    fails(
        &lenient().idle_limit(6),
        b"\"abcdef\" {}",
        ErrorKind::NoStructure,
    );
    at_every_split(
        &lenient().idle_limit(8),
        "\"abcdef\"{\"a\":1}",
        r#"{"a":1}"#,
    );
    // Cut after a byte-order mark, as without one.
    let error = fails(&lenient(), "\u{feff}\"[1".as_bytes(), ErrorKind::Truncated);
    assert_eq!(error.offset(), 6);
}

/// The text of a string that began the reply, once the reply shows it is more, is read
/// as any prose is: the idle limit counts its bytes up to a root in it, and code spans and
/// reasoning blocks in it hide what they hold (review: a long `"Result: [...]` was
/// `no_structure`; `"a <think>[1]</think> [2]" x` was `[1]`).
#[test]
fn the_text_of_a_leading_string_is_read_as_prose_is() {
    let outcome = |options: Options, chunks: &[&[u8]]| {
        let (r, _) = replay(&options, chunks);
        r.map_err(|e| (e.kind(), e.offset()))
    };
    at_every_split(
        &lenient().idle_limit(8),
        "\"ab [1, true] cd\" x",
        "[1,true]",
    );
    // A citation is held, not begun: the limit's error stands, where the prose goes on.
    for (cited, at) in [(&b"\"ab [1] cd\" x"[..], 8), (b"\"ab [1, 2] cd\" x", 11)] {
        assert_eq!(
            outcome(lenient().idle_limit(8), &[cited]),
            Err((ErrorKind::NoStructure, at))
        );
    }
    let long = format!(
        "\"Result: [{}]\nDone",
        (0..2000)
            .map(|n| n.to_string())
            .collect::<Vec<_>>()
            .join(",")
    );
    let read = outcome(lenient().idle_limit(64), &[long.as_bytes()]);
    assert!(
        matches!(&read, Ok(json) if json.starts_with("[0,1,2,")),
        "{read:?}"
    );
    for size in [1, 7] {
        let chunks: Vec<&[u8]> = long.as_bytes().chunks(size).collect();
        assert_eq!(outcome(lenient().idle_limit(64), &chunks), read);
    }
    // A reply that is one string longer than the idle limit: no value began within it.
    fails(
        &lenient().idle_limit(16),
        b"\"0123456789 0123456789\"",
        ErrorKind::NoStructure,
    );
    at_every_split(&lenient(), "\"a `code [1]` [2]\" x", "[2]");
    at_every_split(&lenient(), "\"a <think>[1]</think> [2]\" x", "[2]");
    at_every_split(&lenient(), "\"a <think>[1]</think> [2]\n", "[2]");
    // A string serde would not read (a lone surrogate, a bad escape, bytes that are not
    // UTF-8) is no string: its text is prose.
    at_every_split(&lenient(), "\"\\ud800 [1]\"", "[1]");
    at_every_split(&lenient(), "\"\\x [1]\"", "[1]");
    assert_eq!(outcome(lenient(), &[b"\"\xff [1]\""]), Ok("[1]".to_owned()));
}

/// A provider's cut (`finish_reason: length`) reads a reply that is one scalar as the
/// value too: one it left complete stands, one it ended inside is cut (review: a cut
/// `"[1, 2]` was the array inside it).
#[test]
fn a_cut_reply_that_is_one_scalar_is_that_scalar() {
    let cut = |input: &[u8]| {
        let mut stream = crate::DynamicStream::new();
        stream.feed(input).map_err(|e| e.kind())?;
        stream
            .finish_cut("length")
            .map(|v| v.to_json())
            .map_err(|e| e.error().kind())
    };
    assert_eq!(cut(b"\"[1, 2]"), Err(ErrorKind::Truncated));
    assert_eq!(cut(b"\"[1, 2]\""), Ok("\"[1, 2]\"".to_owned()));
    assert_eq!(cut(b"\"yes\""), Ok("\"yes\"".to_owned()));
    assert_eq!(cut(b"<think>[0]</think> true"), Ok("true".to_owned()));
    assert_eq!(cut(b"```json\n42\n```"), Ok("42".to_owned()));
    assert_eq!(cut(b"42 "), Ok("42".to_owned()));
    // A number the cut ended may have gone on; a literal cut inside is cut.
    assert_eq!(cut(b"42"), Err(ErrorKind::Truncated));
    assert_eq!(cut(b"tru"), Err(ErrorKind::Truncated));
    // More than one scalar: prose, and the array in it the answer.
    assert_eq!(cut(b"\"Sure\" [1, 2]"), Ok("[1,2]".to_owned()));
}

/// A reply that ends inside the one scalar it holds was cut: `Truncated` at its end, as
/// strict mode says, however it is split (review: `no_structure`, as if no value began).
#[test]
fn a_reply_cut_inside_its_one_scalar_is_truncated() {
    for input in [
        "\"[1, 2]",
        "\"Top 3: [1, 2, 3] and the rest are",
        "\"ye",
        "\"a\\",
        "```json\n\"ye",
        "<think>x</think>nul",
        "tru",
        "-",
        "1.",
        "-2e+",
        "  f",
    ] {
        let error = fails(&lenient(), input.as_bytes(), ErrorKind::Truncated);
        assert_eq!(error.offset(), input.len() as u64, "{input:?}");
        let strict_input = input.rsplit(['\n', '>']).next().unwrap_or(input);
        let strict_error = fails(&strict(), strict_input.as_bytes(), ErrorKind::Truncated);
        assert_eq!(
            strict_error.to_string().split(" at ").next(),
            error.to_string().split(" at ").next(),
            "{input:?}"
        );
        for size in [1, 2, 7] {
            let chunks: Vec<&[u8]> = input.as_bytes().chunks(size).collect();
            let e = replay(&lenient(), &chunks).0.unwrap_err();
            assert_eq!(
                (e.kind(), e.offset()),
                (ErrorKind::Truncated, input.len() as u64),
                "{input:?} by {size}"
            );
        }
    }
}

#[test]
fn strict_rejects_every_lenient_construct() {
    for input in [
        "Sure: {}",
        "```json\n{}\n```",
        "<think></think>{}",
        "{} trailing",
        "{\"a\":1,}",
        "[1,]",
        "[1 /* c */]",
        "[1 // c\n]",
        "[][]",
        "\u{feff}{}",
    ] {
        fails(&strict(), input.as_bytes(), ErrorKind::Invalid);
    }
}

// ---- RFC 8259 rules in both modes ----

#[test]
fn rfc_violations_are_invalid_in_both_modes() {
    let cases: &[&[u8]] = &[
        b"[\"a\tb\"]",
        b"[\"a\x00\"]",
        b"[01]",
        b"[-01]",
        b"[+1]",
        b"[.5]",
        b"[1.]",
        b"[1e]",
        b"[1e+]",
        b"[-]",
        b"[NaN]",
        b"[Infinity]",
        b"[-Infinity]",
        b"['a']",
        b"{'a': 1}",
        b"{a: 1}",
        b"[\"\\ud800\"]",
        b"[\"\\udc00\"]",
        b"[\"\\ud800\\u0041\"]",
        b"[\"\\ud800x\"]",
        b"[\"\\x41\"]",
        b"[\"\\u12G4\"]",
        b"[\"\xff\"]",
        b"[\"\xc3\"]",
        b"[\"\xed\xa0\x80\"]",
        b"[tru]",
        b"[truex]",
        b"[nul1]",
        b"{\"a\" 1}",
        b"{\"a\":1 \"b\":2}",
        b"[1 2]",
        b"[1}",
        b"{\"a\":1]",
        b"[,1]",
        b"[1,,2]",
        b"{,}",
        b"[1 / 2]",
    ];
    for &input in cases {
        fails(&strict(), input, ErrorKind::Invalid);
        fails(&lenient(), input, ErrorKind::Invalid);
    }
}

// ---- error kinds, positions, limits ----

#[test]
fn truncated_keeps_the_last_good_value() {
    for input in [
        "{\"a\": [1, 2",
        "{\"a\": \"unfinished",
        "[1, 2.",
        "[tr",
        "{\"a\"",
        "[1 /* c",
    ] {
        fails(&lenient(), input.as_bytes(), ErrorKind::Truncated);
    }
    let mut stream = DynamicStream::with_options(lenient());
    stream.feed(b"{\"a\": [1, 2], \"b\": \"hal").unwrap();
    let err = stream.end_input().unwrap_err();
    assert!(err.is_incomplete());
    assert_eq!(err.offset(), 23);
    assert_eq!(
        stream.draft().unwrap().to_json(),
        r#"{"a":[1,2],"b":"hal"}"#
    );
}

#[test]
fn no_structure_for_prose_empty_input_and_unclosed_think() {
    fails(
        &lenient(),
        b"I'm sorry, I can't help with that.",
        ErrorKind::NoStructure,
    );
    fails(&lenient(), b"", ErrorKind::NoStructure);
    fails(&strict(), b"", ErrorKind::NoStructure);
    fails(&strict(), b" \n ", ErrorKind::NoStructure);
    fails(&lenient(), b"<think>{\"a\": 1}", ErrorKind::NoStructure);
}

#[test]
fn idle_limit_ends_an_apology_early() {
    let options = lenient().idle_limit(100);
    let err = fails(
        &options,
        "Sorry. ".repeat(100).as_bytes(),
        ErrorKind::NoStructure,
    );
    assert_eq!(err.offset(), 100, "stops at the first byte past the limit");
    // A long <think> block does not count against the idle limit.
    let input = format!("<think>{}</think>[1]", "x".repeat(1000));
    let (r, _) = replay(&options, &[input.as_bytes()]);
    assert_eq!(r.ok().as_deref(), Some("[1]"));
}

#[test]
fn the_idle_limit_counts_a_fence_marker_from_its_first_backtick() {
    for (input, limit) in [
        (&b"ab`xyz {\"a\":1}"[..], 2),
        (b"ab```x\n{\"a\":1}", 2),
        (b"```json\n{\"a\":1}", 0),
        (b"Here:\n```json\n{\"a\":1}", 6),
    ] {
        let err = fails(&lenient().idle_limit(limit), input, ErrorKind::NoStructure);
        assert_eq!(err.offset(), limit, "{:?}", String::from_utf8_lossy(input));
        for size in [1, 3] {
            let chunks: Vec<&[u8]> = input.chunks(size).collect();
            let (r, _) = replay(&lenient().idle_limit(limit), &chunks);
            assert_eq!(
                r.err().map(|e| e.offset()),
                Some(limit),
                "{size}-byte chunks"
            );
        }
    }
    // The value right after the limit's last byte of prose is read.
    let (r, _) = replay(&lenient().idle_limit(2), &[b"ab{\"a\":1}"]);
    assert_eq!(r.ok().as_deref(), Some("{\"a\":1}"));
}

#[test]
fn depth_limit_allows_exactly_n() {
    let options = strict().max_depth(3);
    let (r, _) = replay(&options, &[b"[[[1]]]"]);
    assert_eq!(r.ok().as_deref(), Some("[[[1]]]"));
    let err = fails(&options, b"[[[[1]]]]", ErrorKind::TooDeep);
    assert_eq!(err.offset(), 3);
    fails(
        &strict(),
        "[".repeat(100_000).as_bytes(),
        ErrorKind::TooDeep,
    );
}

#[test]
fn byte_limit_counts_prose_and_allows_exactly_n() {
    let input = b"ok: [1]";
    let (r, _) = replay(&lenient().max_bytes(7), &[input]);
    assert_eq!(r.ok().as_deref(), Some("[1]"));
    let err = fails(&lenient().max_bytes(6), input, ErrorKind::TooLarge);
    assert_eq!(err.offset(), 6);
    // Past the cap after a complete root: the rest is not read, and the value stands
    // (strict mode, which must check what follows the root, fails).
    let (r, _) = replay(&lenient().max_bytes(7), &[b"ok: [1] bye"]);
    assert_eq!(r.ok().as_deref(), Some("[1]"));
    let ones: Vec<&[u8]> = b"ok: [1] bye".chunks(1).collect();
    let (r, _) = replay(&lenient().max_bytes(7), &ones);
    assert_eq!(r.ok().as_deref(), Some("[1]"));
    fails(&strict().max_bytes(3), b"[1] ", ErrorKind::TooLarge);
    // Inside a second value under keep-last, the complete one comes back.
    let keep_last = lenient()
        .second_root(crate::SecondRoot::KeepLast)
        .max_bytes(20);
    let (r, _) = replay(&keep_last, &[b"[1] and then [2, 3, 4, 5, 6"]);
    assert_eq!(r.ok().as_deref(), Some("[1]"));
}

/// At the byte cap, a reply that is so far one scalar is `TooLarge`, whatever follows it
/// inside the cap: text past the cap could make it prose (`"yes" is wrong, the answer is
/// {…}`), so no cap gives a value that reading the whole reply would not (a review: taking
/// it at the cap, `42 x` at a cap of 3 was 42, at 4 and more `NoStructure`).
#[test]
fn a_one_scalar_reply_at_the_cap_is_too_large() {
    for (cap, input) in [
        (5, &b"\"yes\"\n"[..]),
        (5, b"\"yes\" is wrong, the answer is {\"a\": 1}"),
        (5, b"true \n"),
        (3, b"42 and on"),
        (20, b"<think>x</think>null\n"),
    ] {
        for size in [1, 2, 7, input.len()] {
            let chunks: Vec<&[u8]> = input.chunks(size).collect();
            let (r, _) = replay(&lenient().max_bytes(cap), &chunks);
            let r = r.map_err(|e| (e.kind(), e.offset()));
            assert_eq!(
                r,
                Err((ErrorKind::TooLarge, cap)),
                "{:?}",
                String::from_utf8_lossy(input)
            );
        }
    }
}

#[test]
fn errors_carry_offset_line_and_column() {
    let err = fails(
        &strict(),
        b"{\n  \"a\": 1,\n  \"b\" 2\n}",
        ErrorKind::Invalid,
    );
    assert_eq!((err.offset(), err.line(), err.column()), (18, 3, 7));
    assert_eq!(err.to_string(), "expected `:` at line 3 column 7 (byte 18)");
    let ones: Vec<&[u8]> = b"{\n  \"a\": 1,\n  \"b\" 2\n}".chunks(1).collect();
    let (r, _) = replay(&strict(), &ones);
    let e = r.unwrap_err();
    assert_eq!((e.line(), e.column()), (3, 7));
}

#[test]
fn errors_are_sticky() {
    let mut stream = DynamicStream::with_options(strict());
    let first = stream.feed(b"[1 x").unwrap_err();
    assert_eq!(stream.feed(b"]").unwrap_err(), first);
    assert_eq!(stream.finish().unwrap_err().error(), &first);
}

// ---- after the root ----

#[test]
fn a_second_value_keeps_the_first_by_default() {
    let input = b"Example: {\"a\": 1}\nActually: {\"a\": 2}";
    for chunks in [vec![&input[..]], input.chunks(1).collect()] {
        let mut stream = DynamicStream::with_options(lenient());
        for c in &chunks {
            stream.feed(c).unwrap();
        }
        stream.end_input().unwrap();
        assert_eq!(stream.draft().unwrap().to_json(), r#"{"a":1}"#);
        let warnings = stream.warnings();
        assert_eq!(warnings.len(), 1);
        assert_eq!(warnings[0].kind, crate::WarningKind::SecondValueIgnored);
        assert_eq!(warnings[0].offset, 28);
    }
}

#[test]
fn a_second_value_replaces_the_first_under_keep_last() {
    let options = lenient().second_root(crate::SecondRoot::KeepLast);
    let input = b"Example: {\"a\": 1} then [x] then {\"a\": [2, 3]} bye {y}";
    let chunks: Vec<&[u8]> = input.chunks(3).collect();
    let (r, _) = replay(&options, &chunks);
    assert_eq!(r.ok().as_deref(), Some(r#"{"a":[2,3]}"#));
    let mut scanner = crate::Scanner::new(options);
    scanner.feed(input, &mut crate::IgnoreSink).unwrap();
    scanner.finish(&mut crate::IgnoreSink).unwrap();
    assert_eq!(scanner.clean(), br#"{"a": [2, 3]}"#);
    assert_eq!(scanner.root_offset(), 32);
}

#[test]
fn prose_after_the_root_never_fails_the_stream() {
    let deep = format!("{{\"a\": 1}} and then {}", "[".repeat(500));
    for input in [
        deep.as_str(),
        "{\"a\": 1} {'x': 1} [1, 2",
        "{\"a\": 1} ```\n{\"b\":",
    ] {
        let (r, _) = replay(&lenient(), &[input.as_bytes()]);
        assert_eq!(r.ok().as_deref(), Some(r#"{"a":1}"#), "{input:?}");
    }
}

#[test]
fn the_stall_guard_ends_a_whitespace_loop() {
    let options = lenient().stall_limit(Some(100));
    let mut input = b"{\"a\": 1,".to_vec();
    input.extend(std::iter::repeat_n(b'\n', 1000));
    let err = fails(&options, &input, ErrorKind::Stalled);
    assert_eq!(err.offset(), 8 + 100);
    // Whitespace inside strings is content, not a stall.
    let text = format!("{{\"a\": \"{}\"}}", " ".repeat(1000));
    let (r, _) = replay(&options, &[text.as_bytes()]);
    assert!(r.is_ok());
    // Whitespace past the guard inside a bracket in prose is a stall, not a false start:
    // dropping the bracket would make an inner value the answer.
    let spaces = " ".repeat(300);
    for input in [
        format!("Result: {{\"a\":{spaces}{{\"b\": \"x\"}}}}"),
        format!("Use [{spaces}x] here. {{\"a\":1}}"),
    ] {
        for size in [1, 7, input.len()] {
            let chunks: Vec<&[u8]> = input.as_bytes().chunks(size).collect();
            let (r, _) = replay(&lenient().stall_limit(Some(100)), &chunks);
            let e = r.unwrap_err();
            assert_eq!(e.kind(), ErrorKind::Stalled, "{input:?} by {size}");
        }
    }
}

/// Comments inside the value are padding as whitespace is: a loop of empty comments is
/// a stall too (review: 1.8 MB of `/**/` ran to the byte cap), at the same byte however
/// the input is split; a comment that fits under the guard is no stall.
#[test]
fn the_stall_guard_counts_comments_inside_the_value() {
    let options = lenient().stall_limit(Some(100));
    for (pad, at) in [(" /**/", 7 + 100), (" //\n", 7 + 100), ("/* x */", 7 + 100)] {
        let mut input = b"{\"a\": [".to_vec();
        input.extend(pad.repeat(300).bytes());
        input.extend(b"1]}");
        let err = fails(&options, &input, ErrorKind::Stalled);
        assert_eq!(err.offset(), at, "{pad:?}");
        for size in [1, 7] {
            let chunks: Vec<&[u8]> = input.chunks(size).collect();
            let e = replay(&options, &chunks).0.unwrap_err();
            assert_eq!(
                (e.kind(), e.offset()),
                (ErrorKind::Stalled, at),
                "{pad:?} by {size}"
            );
        }
    }
    // Padding counts in a row: a value between comments starts the count again.
    let text = format!(
        "{{\"a\": [{}]}}",
        "/* a comment of forty bytes, give or take */ 1,".repeat(50)
    );
    let text = text.replace(",]", "]");
    let (r, _) = replay(&options, &[text.as_bytes()]);
    assert!(r.is_ok(), "{r:?}");
    // Before the root, a comment is prose, not padding.
    let text = format!("// {}\n{{\"a\": 1}}", "x".repeat(500));
    let (r, _) = replay(&options, &[text.as_bytes()]);
    assert_eq!(r.ok().as_deref(), Some(r#"{"a":1}"#));
}

// ---- found in review ----

#[test]
fn code_blocks_in_other_languages_are_skipped_whole() {
    let cases = [
        (
            "```python\n[x * 2 for x in xs]\n```\n\n```json\n{\"doubled\": [2, 4]}\n```",
            r#"{"doubled":[2,4]}"#,
        ),
        (
            "```python\nxs = [1, 2, 3]\nprint(data[\"name\"])\n```\nAs JSON:\n```json\n{\"a\": 1}\n```",
            r#"{"a":1}"#,
        ),
        (
            "Config:\n```javascript\n{ debug: true }\n```\nAs JSON:\n```json\n{\"debug\": true}\n```",
            r#"{"debug":true}"#,
        ),
        (
            "```toml\n[tool.poetry]\nname = \"demo\"\n```\n```json\n{\"name\": \"demo\"}\n```",
            r#"{"name":"demo"}"#,
        ),
        (
            "```bash\n[ -f config.json ] && cat config.json\n```\n```json\n{\"ok\": true}\n```",
            r#"{"ok":true}"#,
        ),
        ("```\n[1, 2]\n```", "[1,2]"),
        ("```JSON\n[1, 2]\n```", "[1,2]"),
    ];
    for (input, expected) in cases {
        let (r, _) = replay(&lenient(), &[input.as_bytes()]);
        assert_eq!(r.as_deref().ok(), Some(expected), "{input:?}: {r:?}");
        let ones: Vec<&[u8]> = input.as_bytes().chunks(1).collect();
        let (r, _) = replay(&lenient(), &ones);
        assert_eq!(
            r.as_deref().ok(),
            Some(expected),
            "1-byte chunks of {input:?}"
        );
    }
}

#[test]
fn a_number_does_not_settle_on_a_byte_that_breaks_the_input() {
    // Fed a byte at a time up to the error: the values that settled, and the stream.
    let settled_in = |input: &[u8]| {
        let mut stream = DynamicStream::with_options(strict());
        let mut settled = 0;
        for byte in input {
            let fed = stream.feed(std::slice::from_ref(byte));
            settled += stream.settled().count();
            if fed.is_err() {
                break;
            }
        }
        (settled, stream)
    };
    // A closing bracket of the wrong kind ends the number (then fails), as a space would.
    for (input, count) in [(&b"[2}"[..], 1), (b"{\"a\":2]", 1), (b"[1, 2 }", 2)] {
        let (settled, stream) = settled_in(input);
        assert_eq!(settled, count, "{:?}", String::from_utf8_lossy(input));
        let err = stream.finish().unwrap_err();
        assert_eq!(err.offset(), input.len() as u64 - 1);
    }
    for input in [&b"[1-2]"[..], b"[1.5e3.5]", b"{\"a\":1-2}"] {
        let (settled, _) = settled_in(input);
        assert_eq!(settled, 0, "{:?}", String::from_utf8_lossy(input));
    }
}

#[test]
fn a_false_start_past_the_depth_cap_is_dropped() {
    let options = lenient().max_depth(1);
    for input in [
        "Use [[wikilinks]] in notes.\n{\"a\": 1}",
        "see [{name}] then {\"a\": 1}",
    ] {
        let (r, _) = replay(&options, &[input.as_bytes()]);
        assert_eq!(r.ok().as_deref(), Some(r#"{"a":1}"#), "{input:?}");
    }
    let (r, _) = replay(&lenient().max_depth(3), &[b"see [[[[x then {\"a\": 1}"]);
    assert_eq!(r.ok().as_deref(), Some(r#"{"a":1}"#));
}

#[test]
fn a_value_read_in_prose_past_the_depth_cap_is_too_deep_not_a_fragment_of_itself() {
    // Once the cap is passed, the brackets inside are not a root of their own: the value
    // is too deep (at the byte past the cap, as without the prose), or a false start.
    let deep = |open: &str, inner: &str, close: &str, n: usize| {
        format!("Sure: {}{inner}{}", open.repeat(n), close.repeat(n))
    };
    for (options, input, at) in [
        (lenient(), deep("[", "1", "]", 128), 6 + 127),
        (lenient(), deep("[", "{\"a\":1}", "]", 127), 6 + 127),
        (lenient(), format!("Sure: {}", "[".repeat(100_000)), 6 + 127),
        (
            lenient().max_depth(2),
            "Here: [[[1,2],[3,4]],[[5,6]]]".into(),
            8,
        ),
        (lenient().max_depth(2), "Here: [[{\"a\":1}]]".into(), 8),
        (lenient().max_depth(1), "Sure: [[[1]]]".into(), 7),
        (lenient().max_depth(0), "Sure: {\"a\":1}".into(), 6),
    ] {
        let error = fails(&options, input.as_bytes(), ErrorKind::TooDeep);
        assert_eq!(error.offset(), at, "{input:.60}");
        let sevens: Vec<&[u8]> = input.as_bytes().chunks(7).collect();
        let (split, snapshots) = replay(&options, &sevens);
        assert_eq!(
            split.map_err(|e| (e.kind(), e.offset())),
            Err((ErrorKind::TooDeep, at))
        );
        // Nothing of it was shown: it was never confirmed as the answer.
        assert!(snapshots.iter().all(Option::is_none), "{input:.60}");
    }
    // After a complete value, a second one past the cap is not read as its inner part
    // either: the first value stands (keep-first: a second value, ignored; keep-last: one
    // that could not replace it).
    let input = b"{\"a\":1} then [[[1]]] and {\"b\":2}";
    for (policy, kind) in [
        (
            crate::SecondRoot::KeepFirst,
            crate::WarningKind::SecondValueIgnored,
        ),
        (
            crate::SecondRoot::KeepLast,
            crate::WarningKind::SecondValueInvalid,
        ),
    ] {
        let options = lenient().max_depth(1).second_root(policy);
        for size in [1, 7, input.len()] {
            let mut stream = DynamicStream::with_options(options.clone());
            for chunk in input.chunks(size) {
                stream.feed(chunk).unwrap();
            }
            let warnings = stream.warnings().to_vec();
            assert_eq!(
                stream.finish().unwrap().to_json(),
                r#"{"a":1}"#,
                "{policy:?} {size}"
            );
            assert_eq!(
                warnings
                    .iter()
                    .map(|w| (w.kind, w.offset))
                    .collect::<Vec<_>>(),
                [(kind, 13)],
                "{policy:?} {size}"
            );
        }
    }
    // A false start past the cap is still prose once it shows it is not JSON.
    let (r, _) = replay(
        &lenient().max_depth(1),
        &[b"Use [[wikilinks]] then {\"a\": 1}"],
    );
    assert_eq!(r.ok().as_deref(), Some(r#"{"a":1}"#));
}

#[test]
fn reasoning_tags_match_in_any_case() {
    for input in [
        "<THINK>{\"s\":\"no\"}</THINK>{\"s\":\"x\"}",
        "<Thinking>{\"s\":\"no\"}</Thinking> {\"s\":\"x\"}",
        "<think>{\"s\":\"no\"}</THINK>{\"s\":\"x\"}",
    ] {
        at_every_split(&lenient(), input, r#"{"s":"x"}"#);
    }
}

#[test]
fn a_reply_that_starts_in_reasoning_skips_to_the_first_closing_tag() {
    let options = lenient().starts_in_reasoning(true);
    for (input, expected) in [
        // DeepSeek-R1 served raw: a draft of the answer in the reasoning is no value.
        (
            "Okay, so {\"s\": \"draft\"}. Wait.\n</think>\n\n{\"s\":\"x\"}",
            r#"{"s":"x"}"#,
        ),
        ("</think>```json\n[1, 2]\n```", "[1,2]"),
        // The tag in any case; another block after it is read as usual.
        ("a [1] b</THINK>[\"x\"]", r#"["x"]"#),
        (
            "r</think><think>{\"s\":\"no\"}</think>{\"s\":\"x\"}",
            r#"{"s":"x"}"#,
        ),
        // Only `</think>` closes it: another tag's closer is reasoning.
        (
            "</thinking>{\"s\":\"no\"}</think>{\"s\":\"x\"}",
            r#"{"s":"x"}"#,
        ),
    ] {
        at_every_split(&options, input, expected);
    }
    // Without the closing tag, the whole reply is reasoning.
    let error = fails(&options, br#"{"s": "x"}"#, ErrorKind::NoStructure);
    assert!(error.to_string().contains("reasoning block"), "{error}");
    // Reasoning does not count against the idle limit.
    let tight = options.clone().idle_limit(4);
    at_every_split(&tight, "a long line of thought</think>[1]", "[1]");
    // Strict mode reads RFC 8259 JSON only, whatever this says.
    at_every_split(&strict().starts_in_reasoning(true), "[1]", "[1]");
    // Off by default: the draft in the reasoning is the value.
    at_every_split(
        &lenient(),
        "so {\"s\":\"d\"}</think>{\"s\":\"x\"}",
        r#"{"s":"d"}"#,
    );
}

#[test]
fn a_bracket_where_the_reply_begins_may_be_prose() {
    // A reply may open with a bracketed tag or a link: what follows the bracket begins no
    // value, so it is prose to its closing bracket, and the answer after it is read (it
    // was `Invalid` at byte 1).
    for input in [
        "[NOTE] this is it:\n{\"a\": 1}",
        "[INFO] {\"a\": 1}",
        "[Link](http://x.com) then {\"a\": 1}",
        "[ Note: [1] ] {\"a\": 1}",
        "<think>x</think>\n[INFO] {\"a\": 1}",
        "[note] {\"a\": 1}",
        "[fix]: done\n{\"a\": 1}",
        "[2024-01-01] {\"a\": 1}",
        "[12:30] {\"a\": 1}",
        "[1/3] {\"a\": 1}",
        "[-] {\"a\": 1}",
        "[true story] {\"a\": 1}",
    ] {
        at_every_split(&lenient(), input, r#"{"a":1}"#);
    }
    // An array whose first element begins as a value does is the value, shown from that
    // byte on (`["h` is `["h"]`); an empty one too; what follows it is ignored.
    at_every_split(&lenient(), "[1, 2] then {\"a\": 1}", "[1,2]");
    at_every_split(&lenient(), "[] then {\"a\": 1}", "[]");
    at_every_split(&lenient(), "[ /* c */ 1]", "[1]");
    at_every_split(
        &lenient(),
        "[-1.5e3, true] then {\"a\": 1}",
        "[-1.5e3,true]",
    );
    at_every_split(&lenient(), "[null]", "[null]");
    let (_, snapshots) = replay(&lenient(), &[b"[", b"\"h", b"i\", \"b\"]"]);
    assert_eq!(snapshots[1].as_deref(), Some(r#"["h"]"#));
    // A number shows once its separator comes, which is when the array is confirmed.
    let (_, snapshots) = replay(&lenient(), &[b"[1", b", 2", b"]"]);
    assert_eq!(snapshots[1..], [Some("[1]".into()), Some("[1,2]".into())]);
    // Broken, it is the error (nothing inside it is the answer), at the byte that broke
    // it, over line breaks too.
    for (input, at) in [
        (&b"[01]"[..], 2),
        (b"[NOTE]", 1),
        (b"[\"a\tb\"]", 3),
        (b"[tru]", 4),
        (b"[NaN, [1, 2]]", 1),
        (b"[\n  NaN,\n  [1, 2]\n]", 4),
        (b"[{\"v\": NaN}, {\"v\": 2}]", 7),
        (b"[01, {\"a\": 1}]", 2),
        (b"[[01, 2], [3, 4]]", 3),
        (b"[oops\n{\"a\": 1}", 1),
    ] {
        assert_eq!(fails(&lenient(), input, ErrorKind::Invalid).offset(), at);
    }
    // Stopped before a separator followed its first number or literal (cut, or past a
    // limit): the answer, and its draft shows what came.
    for (input, options, kind, draft) in [
        ("[1", lenient(), ErrorKind::Truncated, "[]"),
        ("[true", lenient(), ErrorKind::Truncated, "[true]"),
        (
            "[1      ",
            lenient().stall_limit(Some(3)),
            ErrorKind::Stalled,
            "[1]",
        ),
        (
            "[12345, 2]",
            lenient().max_bytes(3),
            ErrorKind::TooLarge,
            "[]",
        ),
    ] {
        for size in [1, 2, input.len()] {
            let mut stream = DynamicStream::with_options(options.clone());
            let fed: Result<(), Error> = input
                .as_bytes()
                .chunks(size)
                .try_for_each(|chunk| stream.feed(chunk).map(drop));
            let ended = fed.and_then(|()| stream.end_input());
            assert_eq!(
                ended.map_err(|e| e.kind()),
                Err(kind),
                "{input:?} by {size}"
            );
            let shown = stream.draft().map(|v| v.to_json());
            assert_eq!(shown.as_deref(), Some(draft), "{input:?} by {size}");
        }
    }
    // Cut: an array, not a value begun in prose.
    let cut = fails(&lenient(), b"[", ErrorKind::Truncated);
    assert!(
        cut.to_string().contains("EOF while parsing an array"),
        "{cut}"
    );
    // In a JSON fence, a bracket is the fenced value, whatever follows it.
    fails(
        &lenient(),
        b"```json\n[NOTE]\n```\n{\"a\":1}",
        ErrorKind::Invalid,
    );
}

#[test]
fn brackets_in_prose_are_false_starts_until_a_member_is_confirmed() {
    // A number or literal is a member once a separator follows it; a template's colon
    // confirms nothing.
    for (input, expected) in [
        (
            "Progress [1/3]: here it is\n```json\n{\"a\":1}\n```",
            r#"{"a":1}"#,
        ),
        ("Pick [1 or 2], then {\"a\":1}", r#"{"a":1}"#),
        ("Pick [true or false], then {\"a\":1}", r#"{"a":1}"#),
        (
            "Format: {\"s\": <string>}. Answer: {\"s\":\"x\"}",
            r#"{"s":"x"}"#,
        ),
        ("Fill {\"n\": 1 or 2} in: {\"n\": 2}", r#"{"n":2}"#),
        ("x [1, 2] y", "[1,2]"),
        ("x {\"a\": {\"b\": null}} y", r#"{"a":{"b":null}}"#),
    ] {
        at_every_split(&lenient(), input, expected);
    }
}

#[test]
fn a_complete_root_read_in_prose_is_kept_over_a_later_fenced_one() {
    // Snapshots only extend: once `[1]` has shown, a fenced value after it does not
    // replace it (keep-last does, on request).
    at_every_split(
        &lenient(),
        "Result: [1]\nOr:\n```json\n{\"a\":1}\n```",
        "[1]",
    );
    let keep_last = lenient().second_root(crate::SecondRoot::KeepLast);
    at_every_split(
        &keep_last,
        "Result: [1]\nOr:\n```json\n{\"a\":1}\n```",
        r#"{"a":1}"#,
    );
}

/// A citation of several numbers after a word is held as one of a single number is
/// (review: `Both studies [1, 2] agree.` then a fenced answer read `[1,2]`, a second value
/// ignored). Alone, it is still the value; anything but a small integer in it, a line
/// break, or more numbers than a citation holds, make it one at once.
#[test]
fn a_citation_of_several_numbers_is_no_value() {
    for options in [
        lenient(),
        lenient().second_root(crate::SecondRoot::KeepLast),
    ] {
        for (input, expected) in [
            (
                "Both studies [1, 2] agree.\n\n```json\n{\"a\": 1}\n```\n",
                r#"{"a":1}"#,
            ),
            ("Per [1] and [2, 3], with {x}:\n{\"a\": 1}", r#"{"a":1}"#),
            (
                "The range is [0, 1] here.\n```json\n{\"a\":1}```",
                r#"{"a":1}"#,
            ),
            ("See [1, 2] and {\"a\": 1}", r#"{"a":1}"#),
            ("See [1,2,3,4,5,6] and [7]", "[1,2,3,4,5,6]"),
            ("sources [1, 4, 7].", "[1,4,7]"),
            ("sources [1, 4, 7]", "[1,4,7]"),
            // After the answer, no second value (keep-last replaced it).
            ("{\"a\":1} see [1, 2] here", r#"{"a":1}"#),
            ("{\"a\":1} see [1, 2]. Done [3, 4]", r#"{"a":1}"#),
        ] {
            at_every_split(&options, input, expected);
        }
    }
    // Not a citation: an answer, confirmed at its first comma as before (the first value
    // is kept).
    for (input, expected) in [
        ("assistantfinal[2, 3] and {\"a\": 1}", "[2,3]"),
        ("Result: [3, 4] and {\"a\": 1}", "[3,4]"),
        ("See [1, \"a\"] then {\"a\": 1}", r#"[1,"a"]"#),
        ("See [1, -2] then {\"a\": 1}", "[1,-2]"),
        ("See [1, 2.5] then {\"a\": 1}", "[1,2.5]"),
        ("See [1, 22222] then {\"a\": 1}", "[1,22222]"),
        ("See [1, true] then {\"a\": 1}", "[1,true]"),
        ("See [1, [2]] then {\"a\": 1}", "[1,[2]]"),
        ("See [1,\n 2] then {\"a\": 1}", "[1,2]"),
        ("See [1,2,3,4,5,6,7] then {\"a\": 1}", "[1,2,3,4,5,6,7]"),
    ] {
        at_every_split(&lenient(), input, expected);
    }
    // Under keep-last, a second value that is no citation replaces the answer.
    let last = lenient().second_root(crate::SecondRoot::KeepLast);
    at_every_split(&last, "{\"a\":1} then [1, \"x\"] here", r#"[1,"x"]"#);
    at_every_split(&last, "{\"a\":1} then [1, 2, 3.5] here", "[1,2,3.5]");
    at_every_split(&last, "{\"a\":1}\n[1, 2]", "[1,2]");
    // Cut inside it, as inside a citation of one number: no value began.
    for input in ["See [1, 2", "See [1, 2,"] {
        fails(&lenient(), input.as_bytes(), ErrorKind::Truncated);
    }
}

#[test]
fn a_citation_in_prose_is_no_value() {
    // One number in brackets with prose after it on its line is a citation (a review:
    // `the docs [1] and here is the answer:` then a fenced object read `[1]`).
    for options in [
        lenient(),
        lenient().second_root(crate::SecondRoot::KeepLast),
    ] {
        at_every_split(
            &options,
            "See [1]. Result:\n```json\n{\"a\":1}\n```",
            r#"{"a":1}"#,
        );
        at_every_split(
            &options,
            "the docs [1] and [2], then {\"a\":1}",
            r#"{"a":1}"#,
        );
        at_every_split(&options, "Sources [1][2]. Answer: [5, 6]", "[5,6]");
        // After the answer, a citation is no second value (keep-last replaced it).
        at_every_split(&options, "{\"a\":1} see [1] here", r#"{"a":1}"#);
    }
    // Where its line ends there, or the input does, it is the answer; spaces and
    // punctuation after it say nothing.
    for input in [
        "Result: [3]",
        "Result: [3]\nmore text",
        "Result: [3].",
        "Result: [-3] ;  \r\nok",
    ] {
        let expected = if input.contains("-3") { "[-3]" } else { "[3]" };
        at_every_split(&lenient(), input, expected);
    }
    // A line break makes it the value only where a `:` or `=` led it or it began its
    // line; after a word (`the docs [1].`) the fenced answer after it is the value.
    at_every_split(
        &lenient(),
        "As the docs say [1].\n\n```json\n{\"a\":1}\n```",
        r#"{"a":1}"#,
    );
    at_every_split(&lenient(), "Result: [3]\n```json\n{\"a\":1}\n```", "[3]");
    at_every_split(&lenient(), "x = [3]\r\n{\"a\":1}", "[3]");
    at_every_split(&lenient(), "Answer:\n[3]\n{\"a\":1}", "[3]");
    at_every_split(&lenient(), "The answer is [3]\n", "[3]");
    // With no other value, the first citation is the value (it was before).
    at_every_split(&lenient(), "The result is [42] as computed.", "[42]");
    at_every_split(&lenient(), "x [1] y [2] z", "[1]");
    // An empty container after a citation is the value when a `:` or `=` led it or it
    // began its line, as an answer is (a review: `[1]` was the value here); one that
    // follows a word is prose beside the citation still.
    at_every_split(&lenient(), "As noted in [1], the answer is:\n{}\n", "{}");
    at_every_split(&lenient(), "See [1] for why: [] is all.", "[]");
    at_every_split(&lenient(), "Per [2]:\n{} (nothing found)", "{}");
    at_every_split(&lenient(), "See [3] and then x = {} here", "{}");
    at_every_split(&lenient(), "The answer is [42] (use {} for none).", "[42]");
    // After one, another like it is one too, even where its line ends (the property
    // tests' `<answer>[0] Done [1].`): the first is the value.
    at_every_split(&lenient(), "<answer>[0] Done [1].", "[0]");
    // (Not one a `:` led: that is the answer.)
    at_every_split(&lenient(), "See [1] for details.\nResult: [3]\n", "[3]");
    // Not where the reply begins (see `bare_array`), in a JSON fence, or with more than
    // one element (confirmed at its comma, as before).
    at_every_split(&lenient(), "[1] and more", "[1]");
    at_every_split(&lenient(), "Here:\n```json\n[1]\n``` and more", "[1]");
    at_every_split(&lenient(), "Result: [1, 2] and more", "[1,2]");
    // A cut right after it leaves it the value: the reply ended there. A cap does not,
    // just after it or inside the word after it that makes it a citation held in prose:
    // the reply went on, and reading on may have replaced it (a review: at 14 and 15 it
    // was the value, and `See [1] for details: {"a": 1}` capped at 8 was `[1]`). A
    // reading that ends inside the cap makes it the value.
    for n in [18, 19] {
        at_every_split(&lenient().max_bytes(n), "The answer [7] and", "[7]");
    }
    for (text, caps) in [
        (r#"See [1] for details: {"a": 1}"#, 7..=9),
        (r#"See [1]: {"a": 1}"#, 7..=9),
        (r#"Options [1, 2] then {"a": 1}"#, 14..=15),
        (r#"<think>[1]</think> See [2]. {"a": 1}"#, 26..=28),
        (r#"x [1] y [2] z {"a":1}"#, 5..=6),
    ] {
        for n in caps {
            let (result, _) = replay(&lenient().max_bytes(n), &[text.as_bytes()]);
            assert_eq!(
                result.map_err(|e| (e.kind(), e.offset())),
                Err((ErrorKind::TooLarge, n)),
                "{text} capped at {n}"
            );
        }
    }
    // After the answer, one is prose: the answer stands at the cap.
    for n in 14..=16 {
        at_every_split(
            &lenient().max_bytes(n),
            r#"{"a":1} See [1] x"#,
            r#"{"a":1}"#,
        );
    }
    for n in [14, 15, 16, 17] {
        let (result, _) = replay(&lenient().max_bytes(n), &[b"The answer [7] and"]);
        assert_eq!(
            result.map_err(|e| e.kind()),
            Err(ErrorKind::TooLarge),
            "{n}"
        );
    }
    let mut scanner = crate::Scanner::new(lenient());
    scanner
        .feed(b"The answer [7] ", &mut crate::IgnoreSink)
        .unwrap();
    assert!(!scanner.is_complete());
    scanner.cut("length", &mut crate::IgnoreSink).unwrap();
    assert!(scanner.is_complete());
}

#[test]
fn keep_last_gives_the_complete_value_back_when_the_next_is_broken() {
    let options = lenient().second_root(crate::SecondRoot::KeepLast);
    at_every_split(&options, "{\"a\":1}\nOr maybe {\"b\": oops}", r#"{"a":1}"#);
    at_every_split(
        &options,
        "{\"a\":1}\nOr maybe {\"b\": 1, oops}",
        r#"{"a":1}"#,
    );
    at_every_split(
        &options.clone().max_depth(3),
        "{\"a\":1}\nOr {\"b\": [[[[1]]]]}",
        r#"{"a":1}"#,
    );
    let mut stream = DynamicStream::with_options(options);
    stream
        .feed(b"{\"a\":1} or {\"b\": 1, 2} {\"c\": 3}")
        .unwrap();
    let warnings: Vec<_> = stream.warnings().iter().map(|w| w.kind).collect();
    assert_eq!(
        warnings,
        [
            crate::WarningKind::SecondValueReplaced,
            crate::WarningKind::SecondValueInvalid
        ]
    );
    assert_eq!(stream.finish().unwrap().to_json(), r#"{"a":1}"#);
}

#[test]
fn the_idle_limit_counts_fence_markers_and_tags_that_never_open() {
    let limit = lenient().idle_limit(100);
    for input in [
        "`".repeat(1000) + "{\"a\":1}",
        "<t".repeat(500) + "{\"a\":1}",
        format!("```{}\n{{\"a\":1}}", "word ".repeat(200)),
        "<thinkin".repeat(50) + "{\"a\":1}",
    ] {
        let err = fails(&limit, input.as_bytes(), ErrorKind::NoStructure);
        assert_eq!(err.offset(), 100, "{}", &input[..20]);
    }
    // A reasoning block is not counted, its tags included (the limit is on prose); the
    // JSON fence's marker is.
    for (limit, input) in [
        (4, "a <think>x</think>{\"a\":1}"),
        (0, "<think>x</think>{\"a\":1}"),
        (2, "a <THINKING>x</thinking>{\"a\":1}"),
    ] {
        at_every_split(&lenient().idle_limit(limit), input, r#"{"a":1}"#);
    }
    let err = fails(
        &lenient().idle_limit(4),
        b"a <thinx {\"a\":1}",
        ErrorKind::NoStructure,
    );
    assert_eq!(err.offset(), 4);
    let think = format!("<think>{}</think>{{\"a\":1}}", "x".repeat(1000));
    at_every_split(&limit, &think, r#"{"a":1}"#);
    at_every_split(
        &lenient().idle_limit(8),
        "```json\n{\"a\":1}\n```",
        r#"{"a":1}"#,
    );
    fails(
        &lenient().idle_limit(7),
        b"```json\n{\"a\":1}",
        ErrorKind::NoStructure,
    );
}

#[test]
fn a_runaway_loop_of_duplicate_keys_keeps_a_bounded_list_of_warnings() {
    // A model repeating `"a":0,` until the cap: one warning per repeat would grow with
    // the input (a 64 MiB loop kept 1.4 GB of warnings).
    let input = format!("{{{}\"b\":1}}", "\"a\":0,".repeat(10_000));
    let mut stream = DynamicStream::new();
    stream.feed(input.as_bytes()).unwrap();
    let value = stream.finish().map_err(Error::from).unwrap();
    assert_eq!(value.to_json(), r#"{"a":0,"b":1}"#);
    let mut stream = DynamicStream::new();
    stream.feed(input.as_bytes()).unwrap();
    assert_eq!(stream.warnings().len(), crate::MAX_WARNINGS);
    assert_eq!(stream.warnings()[0].offset, 7);
}

/// Input that ends inside a root begun in prose is a truncation, as it is with no prose
/// before it, whatever the prose held (an empty container, a root refused at its first
/// value): a cut is never silent, nor blamed on an example. A bracket alone after a word
/// is prose; not two, nor one led by `:` or `=` or beginning its line.
#[test]
fn a_cut_root_in_prose_is_a_truncation_whatever_came_before() {
    for input in [
        "As noted in [1], the answer is:\n[[",
        "Use [] for none. Output:\n[",
        "- [ ] check\n\nAnswer: [[",
        "Both studies [1, 2] agree. Result: [ [",
        "See `[1]`. Answer = [",
        "See [1], then\n[ ",
        "See [1], then [[",
        "- [ ] task. Answer: {\"b\": 1",
        "Sure: {} then {\"b\": 1",
        "Sure: {} then {\"",
        "Ex: {\"a\": x}. Answer: {\"b\": 1",
        "Ex: {\"a\": x}. Answer: {\"b\"",
        "Ex: {\"a\": x}. Answer: {\"b\": tru",
        "Sure: [] then {\"a\": [1, 2",
        "Sure: {} then { ",
        "- [ ] step one\nAnswer:\n{\n  ",
        "Format: {\"score\": 0-10}\nAnswer:\n{\n  ",
        "- [ ] check inputs\n\nResults:\n[\n  \"alpha\",\n  \"be",
        "- [ ] step\nAnswer: [{",
        "- [ ] step\nAnswer: [ {",
    ] {
        let e = fails(&lenient(), input.as_bytes(), ErrorKind::Truncated);
        assert_eq!(e.offset(), input.len() as u64, "{input:?}");
        let mut scanner = crate::Scanner::new(lenient());
        scanner
            .feed(input.as_bytes(), &mut crate::IgnoreSink)
            .unwrap();
        let e = scanner.cut("length", &mut crate::IgnoreSink).unwrap_err();
        assert_eq!(e.kind(), ErrorKind::Truncated, "{input:?}: {e}");
    }
    // After an empty container, an array is a citation or a list unless its first
    // element is on a later line, as pretty-printed JSON has it.
    at_every_split(
        &lenient(),
        "- [ ] check inputs\n\nResults:\n[\n  \"alpha\",\n  \"beta\"\n]\n",
        r#"["alpha","beta"]"#,
    );
    at_every_split(&lenient(), "x [] then [\n1, 2]", "[1,2]");
    // A bracket alone after a word, cut: prose (a task list's `- [ `, `see [`).
    at_every_split(&lenient(), "Use [] here.\n- [ ", "[]");
    at_every_split(&lenient(), "See [1] and [", "[1]");
    // So is one whose first element is an object: its first object is no answer alone.
    at_every_split(
        &lenient(),
        "- [ ] write tests\nHere: [{\"t\": \"a\"}, {\"t\": \"b\"}]",
        r#"[{"t":"a"},{"t":"b"}]"#,
    );
    at_every_split(&lenient(), "Result: []. See [ 1 ] and [2,\n3].", "[]");
    // An array whose first element is no number is no citation: it is the answer.
    for (input, value) in [
        (
            "Return [] when nothing matches. Result: [\"a\", \"b\"]",
            r#"["a","b"]"#,
        ),
        ("Return {} if none. Result: [\"a\"]", r#"["a"]"#),
        (
            "- [x] read\n- [ ] test\n\nTags: [\"rust\", \"json\"]\n",
            r#"["rust","json"]"#,
        ),
        (
            "Use [] if empty: [[\"a\", 1], [\"b\", 2]]",
            r#"[["a",1],["b",2]]"#,
        ),
        ("Use [] if empty: [true, false]", "[true,false]"),
        ("Use [] if empty: [null]", "[null]"),
        ("Use [] if empty: [[1]]", "[[1]]"),
    ] {
        at_every_split(&lenient(), input, value);
    }
    // A citation is skipped to its closing bracket: nothing inside it is an answer.
    for (input, value) in [
        ("Use {} if none. Data, [1, {\"a\": 2}]", "{}"),
        ("Use {} if none. Data, [1, [2, 3]] and [4]", "{}"),
        (
            "Use [] if none. See [1]. Data: [[1, 2], [3]]",
            "[[1,2],[3]]",
        ),
        // A citation left open ends with its line.
        ("x {} [1, 2\n{\"a\": 1}", r#"{"a":1}"#),
        // A comment before its first element is JSON's: no citation.
        (
            "Return [] if none. Result: [ // matches\n  \"a\", \"b\"]",
            r#"["a","b"]"#,
        ),
        ("x [] [ /* c */ \"a\"]", r#"["a"]"#),
        ("x [] [/**/{\"a\": 1}]", r#"[{"a":1}]"#),
        // Brackets in its strings do not count.
        ("Use {} if none. See [1, \"[\", 2] {\"a\": 1}", r#"{"a":1}"#),
        (
            "Use {} if none. See [1, \"\\\"[\", 2] {\"a\": 1}",
            r#"{"a":1}"#,
        ),
    ] {
        at_every_split(&lenient(), input, value);
    }
    // The idle limit stops inside a citation at the same byte, and leaves the same
    // citation to read past, at every chunking.
    for (input, limit) in [
        ("x {} [1, [2]]", 6),
        ("Use {} if none. Data, [1, [2], {\"a\": 2}] ok", 22),
    ] {
        for limit in limit - 3..limit + 4 {
            let options = lenient()
                .idle_limit(limit)
                .second_root(crate::SecondRoot::KeepLast);
            let whole = replay(&options, &[input.as_bytes()])
                .0
                .map_err(|e| e.to_string());
            for size in [1, 2, 3, 7] {
                let chunks: Vec<&[u8]> = input.as_bytes().chunks(size).collect();
                let split = replay(&options, &chunks).0.map_err(|e| e.to_string());
                assert_eq!(split, whole, "{input:?}, limit {limit}, {size}-byte chunks");
            }
        }
    }
    // Cut inside such an answer: a truncation, not the empty container.
    fails(
        &lenient(),
        b"Return [] if none. Result: [\"a\", \"b",
        ErrorKind::Truncated,
    );
    // Nor does an empty container turn an answer too deep to read into a fragment of it,
    // or into itself: the depth is the error, as without it.
    for input in [
        "x {} [[[{\"a\": 1}]]]",
        "x {} [[[\"x\"]]]",
        "- [ ] done\n[[[1]]]",
        "x {} [[[1]]] and {\"b\": 2}",
    ] {
        let e = fails(
            &lenient().max_depth(2),
            input.as_bytes(),
            ErrorKind::TooDeep,
        );
        assert_eq!(
            e.offset(),
            input.find("[[[").unwrap() as u64 + 2,
            "{input:?}"
        );
    }
    for (input, value) in [("- [ ] a\n- [ ", "[]"), ("Sure: {} then [ ", "{}")] {
        assert_eq!(
            replay(&lenient(), &[input.as_bytes()]).0.ok().as_deref(),
            Some(value)
        );
    }
}

/// Warnings come in input order and are the same at every chunking, the cap included:
/// a chunk's duplicate keys are noted after its second value, and take their place.
#[test]
fn a_second_value_cut_before_it_was_confirmed_is_noted() {
    use crate::WarningKind::{SecondValueCut, SecondValueIgnored};
    // The first value stands (whatever the policy), and a warning says a later one was cut
    // (with none, a keep-last stream gave the template's value back as if it were the
    // answer), at the end of input and at a provider's cut alike.
    let ending = |input: &str, policy: SecondRoot, size: usize, cut: bool| {
        let mut stream = DynamicStream::with_options(Options::default().second_root(policy));
        for chunk in input.as_bytes().chunks(size) {
            stream.feed(chunk).unwrap();
        }
        let ended = if cut {
            stream.cut_input("length")
        } else {
            stream.end_input()
        };
        assert_eq!(ended.map_err(|e| e.kind()), Ok(()), "{input:?}");
        let warnings: Vec<_> = stream
            .warnings()
            .iter()
            .map(|w| (w.offset, w.kind))
            .collect();
        (stream.draft().map(|v| v.to_json()), warnings)
    };
    for (input, at) in [
        ("Format: {\"a\": 0}\n\n```json\n{\"a\": 87", Some(26)),
        ("{\"a\":0} {\"b\": 2", Some(8)),
        ("{\"a\":0} {\"b\":", Some(8)),
        ("{\"a\":0} {\"", Some(8)),
        ("{\"a\":0}\n```json\n[\n  1", Some(16)),
        // In a JSON fence, a bracket alone was meant as a value.
        ("Template: {\"a\": 0}\n\n```json\n{\n", Some(28)),
        ("{\"a\":0}\n```json\n[ ", Some(16)),
        // No more than brackets and whitespace: a task list's `- [ `, a brace at a line's
        // end.
        ("{\"a\":0}\n- [ ", None),
        ("{\"a\":0}\n- [ \r\n", None),
        ("{\"a\":0} {\n", None),
        ("{\"a\":0} then", None),
        // A closing fence is no JSON fence's opening.
        ("```json\n{\"a\":0}\n```\n{\n", None),
    ] {
        for (policy, kind) in [
            (SecondRoot::KeepFirst, SecondValueIgnored),
            (SecondRoot::KeepLast, SecondValueCut),
        ] {
            for cut in [false, true] {
                let whole = ending(input, policy, input.len(), cut);
                let noted: Vec<_> = at.map(|at| (at, kind)).into_iter().collect();
                assert_eq!(
                    whole,
                    (Some(r#"{"a":0}"#.to_owned()), noted),
                    "{input:?} {policy:?}"
                );
                for size in [1, 7] {
                    assert_eq!(
                        ending(input, policy, size, cut),
                        whole,
                        "{input:?} in {size}s"
                    );
                }
            }
        }
    }
}

#[test]
fn warnings_are_in_input_order_at_every_chunking() {
    let mut input = String::from("{\"a\":1");
    for _ in 0..70 {
        input.push_str(",\"a\":2");
    }
    input.push_str("} [1]");
    let warnings = |size: usize| {
        let mut stream = DynamicStream::new();
        for chunk in input.as_bytes().chunks(size) {
            stream.feed(chunk).unwrap();
        }
        stream.end_input().unwrap();
        let w: Vec<(u64, crate::WarningKind)> = stream
            .warnings()
            .iter()
            .map(|w| (w.offset, w.kind))
            .collect();
        w
    };
    let whole = warnings(input.len());
    assert_eq!(whole.len(), crate::MAX_WARNINGS);
    assert!(whole.windows(2).all(|w| w[0].0 < w[1].0), "{whole:?}");
    assert!(
        whole
            .iter()
            .all(|w| w.1 == crate::WarningKind::DuplicateKey)
    );
    for size in [1, 7, 64] {
        assert_eq!(warnings(size), whole, "{size}-byte chunks");
    }
    let short = "{\"a\":1,\"a\":2} [1, \"x\"]";
    let mut stream = DynamicStream::new();
    stream.feed(short.as_bytes()).unwrap();
    let kinds: Vec<_> = stream.warnings().iter().map(|w| w.offset).collect();
    assert_eq!(kinds, [7, 14]);
    // Keep-last: a replaced root's duplicate keys go with it, and come back with it; a
    // dropped second root's go with it; at their own bytes, at every chunking.
    use crate::WarningKind::{
        DuplicateKey, SecondValueCut, SecondValueInvalid, SecondValueReplaced,
    };
    for (input, expected) in [
        (
            "{\"a\":1,\"a\":2}{\"b\":1}",
            vec![(13, SecondValueReplaced)],
        ),
        (
            "{\"a\":1} {\"b\":1,\"b\":2,\"c\": x}",
            vec![(8, SecondValueReplaced), (8, SecondValueInvalid)],
        ),
        (
            "{\"a\":1,\"a\":2} {\"b\":1,\"b\":2",
            vec![
                (7, DuplicateKey),
                (14, SecondValueReplaced),
                (14, SecondValueCut),
            ],
        ),
    ] {
        for size in [1, 3, 7, input.len()] {
            let options = Options::default().second_root(crate::SecondRoot::KeepLast);
            let mut stream = DynamicStream::with_options(options);
            for chunk in input.as_bytes().chunks(size) {
                stream.feed(chunk).unwrap();
            }
            stream.end_input().unwrap();
            let got: Vec<_> = stream
                .warnings()
                .iter()
                .map(|w| (w.offset, w.kind))
                .collect();
            assert_eq!(got, expected, "{input:?} in {size}-byte chunks");
        }
    }
}

#[test]
fn a_bracket_after_a_word_indexes_it_and_is_not_the_answer() {
    // `arr[0]` and `x[^1]` in prose were taken for the answer (`[0]`), and the object
    // after them was ignored as a second value.
    for input in [
        "Use `arr[0]` to index. {\"a\": 2}",
        "Use arr[0] to index. {\"a\": 2}",
        "Paris[1] is the capital. {\"a\": 2}",
        "A footnote[^1] then {\"a\": 2}",
        "Read row[\"id\"] and x_1[2][3]: {\"a\": 2}",
        "A key x[\"{\"] then {\"a\": 2}",
        // After a letter beyond ASCII too (its last byte may end the chunk before).
        "Café[1] is open late. {\"a\": 2}",
        "北京是中国的首都[1]。答案：{\"a\": 2}",
        "naïve[2] and Ωμέγα[3]: {\"a\": 2}",
    ] {
        at_every_split(&lenient(), input, r#"{"a":2}"#);
    }
    // A word before an array of more than one element, or of an object, is a model's
    // own framing: the array is the answer (Mistral's `[TOOL_CALLS]`, Phi-4's
    // `functools`, gpt-oss's channels with their tokens stripped).
    for (input, expected) in [
        (
            "[TOOL_CALLS][{\"name\": \"f\", \"arguments\": {\"c\": 1}}]",
            r#"[{"name":"f","arguments":{"c":1}}]"#,
        ),
        ("Sure.[TOOL_CALLS][{\"name\": \"f\"}]", r#"[{"name":"f"}]"#),
        ("functools[{\"name\": \"f\"}]", r#"[{"name":"f"}]"#),
        ("analysis: primes.assistantfinal[2, 3, 5]", "[2,3,5]"),
        ("以下是JSON[{\"a\":1}]", r#"[{"a":1}]"#),
        ("x[[1]] then", "[[1]]"),
        ("Paris[1] and x[\"a\", \"b\"]", r#"["a","b"]"#),
    ] {
        at_every_split(&lenient(), input, expected);
    }
    // An index alone is no value, even where a one-element answer would be (chosen: an
    // index or a citation after a word is far likelier); a quote left open in it is a
    // string (cut at the end).
    fails(&lenient(), b"assistantfinal[7]", ErrorKind::NoStructure);
    fails(&lenient(), b"Paris[1] only", ErrorKind::NoStructure);
    fails(&lenient(), b"He said x[\" then [1,2]", ErrorKind::Truncated);
    // A second value glued to the first is one.
    for input in [&b"[1,2][3,4]"[..], b"[\"a\"][\"b\", \"c\"]"] {
        let mut scanner = crate::Scanner::new(lenient());
        scanner.feed(input, &mut crate::IgnoreSink).unwrap();
        scanner.finish(&mut crate::IgnoreSink).unwrap();
        let kinds: Vec<_> = scanner.warnings().iter().map(|w| w.kind).collect();
        assert_eq!(kinds, [crate::WarningKind::SecondValueIgnored], "{input:?}");
    }
    // After a space, a colon or a JSON fence's tag on its line, a bracket is still a
    // value.
    at_every_split(&lenient(), "Answer: [1, 2]", "[1,2]");
    at_every_split(&lenient(), "Answer:[1, 2]", "[1,2]");
    at_every_split(&lenient(), "```json[1, 2]```", "[1,2]");
    at_every_split(&lenient(), "```json{\"a\": 2}```", r#"{"a":2}"#);
    // Non-ASCII text is not a word here: a reply in Chinese has no spaces.
    at_every_split(&lenient(), "结果[1, 2]", "[1,2]");
    // A word does not hide an object.
    at_every_split(&lenient(), "data{\"a\": 2}", r#"{"a":2}"#);
}

#[test]
fn an_inline_code_span_is_skipped_once_it_closes_on_its_line() {
    // Code explained before the answer was taken for it.
    for input in [
        "Set `x = [1, 2]` first. Answer: {\"a\":1}",
        "Call `foo([1,2])` then: {\"a\":1}",
        "Use `np.zeros([3, 3])` here. {\"a\":1}",
        "Use `json.loads(\"[1]\")` here. {\"a\":1}",
        "Use `print({\"x\": 1})` then {\"a\":1}",
        "Use ``a ` [1, 2] `` then {\"a\":1}",
        "<think>`[1]`</think> `x[1, 2]` {\"a\":1}",
    ] {
        at_every_split(&lenient(), input, r#"{"a":1}"#);
    }
    // A span that began with a bracket and never closed ends with its line: a later
    // line's span opens as any other (its code was read as the answer).
    for input in [
        "Press ` { key\nThen run `x = {\"b\": 2}` first.\n{\"a\": 1}",
        "Press `{ key\nThen run `x = {\"b\": 2}` first.\n{\"a\": 1}",
    ] {
        at_every_split(&lenient(), input, r#"{"a":1}"#);
    }
    // After the value, a span holds no second one, whatever the policy.
    for (input, policy) in [
        (
            &b"{\"a\":1} Set `x = [1, 2]` too."[..],
            crate::SecondRoot::KeepFirst,
        ),
        (
            b"Answer: ` {\"a\": 1}`\nAlso set `x = {\"b\": 2}` later.",
            crate::SecondRoot::KeepLast,
        ),
        (
            b"Answer: `{\"a\": 1}` and `x = [2, 3]` too",
            crate::SecondRoot::KeepLast,
        ),
    ] {
        let mut scanner = crate::Scanner::new(lenient().second_root(policy));
        scanner.feed(input, &mut crate::IgnoreSink).unwrap();
        scanner.finish(&mut crate::IgnoreSink).unwrap();
        assert!(scanner.warnings().is_empty(), "{:?}", scanner.warnings());
        let value: serde_json::Value = serde_json::from_slice(scanner.clean()).unwrap();
        assert_eq!(value, serde_json::json!({"a": 1}), "{input:?}");
    }
    // A long one-line command is code too; a span longer than any is none, and its
    // text is read again (an answer after a lone backtick on its line is not lost).
    let curl = format!(
        "Try `curl -d '{{\"items\": []}}' {}` then:\n{{\"a\":1}}",
        "-H 'X: y' ".repeat(40)
    );
    at_every_split(&lenient(), &curl, r#"{"a":1}"#);
    let lone = format!("A lone ` {} then {{\"a\":1}}", "word ".repeat(500));
    at_every_split(&lenient(), &lone, r#"{"a":1}"#);
    // A tag after a lone backtick is quoted: it opens no reasoning block.
    at_every_split(
        &lenient(),
        "Models emit a `<think> block first.\n{\"a\":1}",
        r#"{"a":1}"#,
    );
    // A span is all there is: no value.
    fails(
        &lenient(),
        b"Only `x = [1, 2]` here",
        ErrorKind::NoStructure,
    );
    // Read again as prose, a span's text gives the same result at every chunking and
    // every idle limit, and its errors the same place.
    for input in [
        &b"A lone ` then [1, 2, 3]"[..],
        b"A lone ` then {\"a\": 01}",
        b"x `{\"a\": 1}` and `[2]` `",
        b"`a` `b [1, 2]\n{\"c\": 3}",
        b"`` `[1]` {\"a\": 1}",
    ] {
        for limit in 0..=input.len() as u64 + 1 {
            let options = lenient().idle_limit(limit);
            let (whole, _) = replay(&options, &[input]);
            let ones: Vec<&[u8]> = input.chunks(1).collect();
            let (by_one, _) = replay(&options, &ones);
            let key = |r: &Result<String, Error>| match r {
                Ok(v) => Ok(v.clone()),
                Err(e) => Err((e.kind(), e.offset(), e.line(), e.column())),
            };
            assert_eq!(key(&whole), key(&by_one), "{input:?} at idle limit {limit}");
        }
    }
}

#[test]
fn a_limit_never_reads_what_a_code_span_holds_as_the_answer() {
    // The idle limit and the byte cap ended the reading inside an open span, whose text
    // was read again as prose: a limit below the span's end returned its code (`{"q":1}`)
    // as the answer, a higher one the object after it (adversarial review).
    let input = &b"Use `x {\"q\":1}` then {\"a\":1}"[..];
    let ones: Vec<&[u8]> = input.chunks(1).collect();
    for limit in 0..=input.len() as u64 + 1 {
        for options in [lenient().idle_limit(limit), lenient().max_bytes(limit)] {
            for chunks in [&[input][..], &ones] {
                let (result, _) = replay(&options, chunks);
                match result {
                    Ok(value) => assert_eq!(value, r#"{"a":1}"#, "limit {limit}"),
                    Err(e) => assert!(
                        matches!(e.kind(), ErrorKind::NoStructure | ErrorKind::TooLarge),
                        "limit {limit}: {e}"
                    ),
                }
            }
        }
    }
}

#[test]
fn a_lone_backtick_in_prose_hides_nothing() {
    for input in [
        "Use the ` key then {\"a\": 1}",
        "It's ``quoted'' {\"a\": 1}",
        "Answer: ` {\"a\": 1}`",
        "Answer: `{\"a\": 1}`",
        "Run `ls` and `cat`, then:\n{\"a\": 1}",
        "A lone ` then {\"a\": 1}\n",
        "A lone `` then {\"a\": 1} and more",
    ] {
        at_every_split(&lenient(), input, r#"{"a":1}"#);
    }
}

#[test]
fn citation_after_a_closed_json_fence_is_no_value() {
    // A third review: a JSON fence opened earlier kept citations off for the rest of the
    // reply (its flag stays set past its close), so under keep-last `[1]` replaced the
    // fenced answer, and keep-first warned of a second value.
    let input = "```json\n{\"a\":1}\n```\nSee [1] here";
    at_every_split(
        &lenient().second_root(SecondRoot::KeepLast),
        input,
        r#"{"a":1}"#,
    );
    let mut stream = DynamicStream::new();
    stream.feed(input.as_bytes()).unwrap();
    stream.end_input().unwrap();
    assert!(stream.warnings().is_empty(), "{:?}", stream.warnings());
    at_every_split(
        &lenient(),
        "See:\n```json\n```\nSee [1] and {\"a\": 1}",
        r#"{"a":1}"#,
    );
    // A fence closed right after it: the value if no other comes.
    at_every_split(&lenient(), "Sure:\n```json\n[1]```", "[1]");
    // A code span or a path after it is prose on its line (a fourth review: a backtick or
    // a `/` made it the value).
    at_every_split(
        &lenient(),
        "The docs [1] `serde_json::from_str` explain it. Answer: {\"a\":1}",
        r#"{"a":1}"#,
    );
    at_every_split(&lenient(), "See [1] /usr/bin then {\"a\":1}", r#"{"a":1}"#);
    at_every_split(
        &lenient().second_root(SecondRoot::KeepLast),
        "{\"a\": 1} see [1] `here` too",
        r#"{"a":1}"#,
    );
}

#[test]
fn a_comment_after_a_word_that_is_no_scalar_is_prose() {
    // A third review: `//` after a word that only began like a scalar was skipped as a
    // comment, and the word was no value either.
    at_every_split(&lenient(), "2024-01-01 // {\"a\":0}", r#"{"a":0}"#);
    at_every_split(&lenient(), "tru // {\"a\":0}", r#"{"a":0}"#);
    at_every_split(&lenient(), "\"\\ud800\" // {\"a\":0}", r#"{"a":0}"#);
    // After a fenced scalar's closing fence, a comment leaves it standing, as after an
    // object (it was `no_structure`).
    at_every_split(&lenient(), "```json\n{\"a\":1}\n```\n// note", r#"{"a":1}"#);
    at_every_split(&lenient(), "```json\n42\n```\n// note", "42");
    at_every_split(&lenient(), "```json\n42\n```\n/* was {\"a\":0} */", "42");
}

#[test]
fn a_reply_that_begins_with_a_broken_string_is_prose() {
    // `"\x` can begin no JSON string: the reply is prose from there (it was `invalid`,
    // the string cut and read as the value).
    at_every_split(&lenient(), "\"\\x [1]", "[1]");
    at_every_split(&lenient(), "\"\\x\" then [1]", "[1]");
    // A string cut inside a valid escape is still the value cut.
    fails(&lenient(), b"\"ab\\", ErrorKind::Truncated);
    fails(&lenient(), b"\"ab\\u00", ErrorKind::Truncated);
}

#[test]
fn a_comment_glued_to_a_fenced_scalars_closing_fence_leaves_it_standing() {
    // A fourth review: only whitespace was read after the closing backticks.
    at_every_split(&lenient(), "```json\n{\"a\":1}\n```// note", r#"{"a":1}"#);
    at_every_split(&lenient(), "```json\n42\n``` // note", "42");
    at_every_split(&lenient(), "```json\n42\n```// note", "42");
    at_every_split(&lenient(), "```json\n\"yes\"\n```/* c */", r#""yes""#);
    // Cut inside the closing fence: the scalar is complete (it was `no_structure`).
    at_every_split(&lenient(), "```json\n42\n`", "42");
    at_every_split(&lenient(), "```json\n42\n``", "42");
}

#[test]
fn slashes_inside_a_leading_quoted_sentence_are_prose() {
    // A fourth review: `//` inside the string the reply began with was read as a
    // comment once the reply proved more than that string, hiding the answer.
    at_every_split(&lenient(), "\"See http x\" then {\"a\":1}", r#"{"a":1}"#);
    at_every_split(&lenient(), "\"See http://x\" then {\"a\":1}", r#"{"a":1}"#);
    at_every_split(&lenient(), "\"a /* b\" {\"a\":1}", r#"{"a":1}"#);
    at_every_split(&lenient(), "\"http://x\" [1]", "[1]");
    // After the string, a comment is one.
    at_every_split(&lenient(), "\"x\" // {\"a\":0}", r#""x""#);
}

#[test]
fn citations_by_what_leads_them() {
    // A fifth review. A word-led one at the end of its line is a citation too, before a
    // fenced answer on a later line, or a tool call's.
    at_every_split(
        &lenient(),
        "As the docs explain [1].\n\n```json\n{\"a\":1}\n```",
        r#"{"a":1}"#,
    );
    at_every_split(
        &lenient(),
        "According to the docs [1]:\n```json\n[42]\n```",
        "[42]",
    );
    // One a `:` led or alone on its line is the answer, after a citation too.
    let keep_last = lenient().second_root(SecondRoot::KeepLast);
    for options in [lenient(), keep_last.clone()] {
        at_every_split(&options, "See [3] and more.\nAnswer:\n[42]", "[42]");
        at_every_split(&options, "See [3] and more. Answer: [42]", "[42]");
    }
    // After the answer, a citation is prose whatever follows it, to the input's end.
    for input in [
        "{\"a\":1}\nSee [1] (the docs).",
        "{\"a\":1}\nSee [1] - the docs",
        "{\"a\":1}\nAs noted in [1], \"a\" is one.",
        "{\"a\":1}\nThis follows the schema [1].\n",
        "{\"a\":1}\nSee [1]",
    ] {
        at_every_split(&keep_last, input, r#"{"a":1}"#);
    }
    // A value alone on its line after the answer still replaces it under keep-last.
    at_every_split(&keep_last, "{\"a\":1}\n[2]", "[2]");
    at_every_split(&keep_last, "[1] [1] [1]", "[1]");
}

#[test]
fn what_leads_a_citation_is_the_prose_right_before_it() {
    // A sixth review: punctuation after a citation, a code span, and the answer before
    // it on its line were not what led the next bracket.
    let keep_last = lenient().second_root(SecondRoot::KeepLast);
    for options in [lenient(), keep_last.clone()] {
        at_every_split(&options, "According to the docs [1]: [42]", "[42]");
        at_every_split(&options, "See [1]: [42]", "[42]");
    }
    at_every_split(&lenient(), "See [9] here. Use: `y` [1] more", "[9]");
    at_every_split(&lenient(), "See [9] here.\n`y` [1] more", "[9]");
    at_every_split(&keep_last, "{\"a\":1}\n`a` [1] is required.", r#"{"a":1}"#);
    at_every_split(
        &keep_last,
        "{\"a\":1}\nNote: `a` [1] is required.",
        r#"{"a":1}"#,
    );
    at_every_split(&keep_last, "Result {\"a\":1} [2] more", r#"{"a":1}"#);
    at_every_split(&keep_last, "Result: {\"a\":1} [2] more", r#"{"a":1}"#);
    at_every_split(&keep_last, "{\"a\":1} [2] more", r#"{"a":1}"#);
    // A fence's next line, and the next line after the answer, begin their lines.
    at_every_split(&lenient(), "See [1] x.\n```json\n[42]\n```", "[42]");
    at_every_split(&keep_last, "{\"a\":1}\n[2]", "[2]");
}

#[test]
fn a_line_comment_ends_its_line_for_what_leads_the_next_bracket() {
    // A seventh review: a `//` comment took the `\n` that ends it, so the bracket on the
    // next line looked led by the word before the comment (`\r\n` and `/* */` were right).
    let keep_last = lenient().second_root(SecondRoot::KeepLast);
    at_every_split(&keep_last, "{\"a\":1} // note\n[2]", "[2]");
    // (A word after it on its line makes it a reference: `[2] Smith, 2020.`.)
    at_every_split(&keep_last, "{\"a\":1} // note\n[2] more", "{\"a\":1}");
    at_every_split(&keep_last, "{\"a\":1} // note\n[2]\nmore", "[2]");
    at_every_split(&lenient(), "42 // x\n[3]\n```json\n{\"a\":1}\n```", "[3]");
    at_every_split(
        &lenient(),
        "\"x\" // y\n[3]\n```json\n{\"a\":1}\n```",
        "[3]",
    );
}

#[test]
fn backticks_in_a_sentence_open_no_fence() {
    // An eighth review: a fence marker anywhere on a line took the rest of the line for
    // its tag, and a tag that is no JSON opened a code block that never closed.
    for input in [
        "Here is the raw JSON without ``` markers.\n\n{\"a\": 1}",
        "Tip: use ```json fences\n\n{\"a\": 1}",
        "Use ``` fences for code blocks\n{\"a\": 1}",
        "Use ``` fences for code blocks\r\n{\"a\": 1}",
    ] {
        at_every_split(&lenient(), input, r#"{"a":1}"#);
    }
    // A marker after prose on its line with a one-word tag is still a fence.
    at_every_split(&lenient(), "Sure! ```json\n{\"a\": 1}\n```", r#"{"a":1}"#);
    at_every_split(&lenient(), "Sure! ```json \n{\"a\": 1}\n```", r#"{"a":1}"#);
    at_every_split(
        &lenient(),
        "In Python: ```python\nx = [1]\n```\n{\"a\": 1}",
        r#"{"a":1}"#,
    );
    // Where its line begins, a tag of several words is a fence's (CommonMark's info
    // string): the code block is skipped.
    at_every_split(
        &lenient(),
        "```js title=\"x\"\nconst xs = [1, 2];\n```\n{\"a\": 1}",
        r#"{"a":1}"#,
    );
}

#[test]
fn a_code_block_closes_at_a_fence_as_long_as_its_own() {
    // A four-backtick block showing a fenced example: the inner fences are its text.
    at_every_split(
        &lenient(),
        "````markdown\nWrap it like:\n```json\n{\"key\": \"value\"}\n```\n````\n\nHere is the real one:\n```json\n{\"key\": \"real\"}\n```",
        r#"{"key":"real"}"#,
    );
    at_every_split(
        &lenient(),
        "````md\n```python\nx = [1]\n```\n````\n\n{\"a\": 1}",
        r#"{"a":1}"#,
    );
    // Longer closes it too; tildes do not close backticks.
    at_every_split(
        &lenient(),
        "```js\nf([1]);\n~~~\n[2];\n`````\n{\"a\": 1}",
        r#"{"a":1}"#,
    );
}

#[test]
fn tilde_fences_are_fences() {
    at_every_split(
        &lenient(),
        "~~~js\nconst xs = [1, 2];\n~~~\n\n{\"a\": 1}",
        r#"{"a":1}"#,
    );
    at_every_split(&lenient(), "~~~json\n{\"a\": 1}\n~~~", r#"{"a":1}"#);
    at_every_split(&lenient(), "~~~json\n42\n~~~", "42");
    at_every_split(&lenient(), "~~~json\n42\n~~", "42");
    at_every_split(
        &lenient(),
        "~~~json\n[]\n~~~\nSee {\"a\": 1} for the format.",
        "[]",
    );
    // Backticks inside a tilde block are its text.
    at_every_split(
        &lenient(),
        "~~~md\n```json\n{\"x\": 0}\n```\n~~~\n{\"a\": 1}",
        r#"{"a":1}"#,
    );
    // Elsewhere than where a line begins, tildes are prose.
    at_every_split(&lenient(), "about ~~~ 5 {\"a\": 1}", r#"{"a":1}"#);
    at_every_split(&lenient(), "~~struck~~ {\"a\": 1}", r#"{"a":1}"#);
    at_every_split(&lenient(), "Cost ~5: {\"a\": 1}", r#"{"a":1}"#);
}

#[test]
fn json_lines_tags_are_json() {
    for tag in ["jsonl", "ndjson", "JSONL", "json5"] {
        at_every_split(
            &lenient(),
            &format!("```{tag}\n{{\"a\": 1}}\n```"),
            r#"{"a":1}"#,
        );
        at_every_split(&lenient(), &format!("```{tag}\n7\n```"), "7");
    }
}

#[test]
fn an_array_led_by_a_colon_or_its_line_is_no_citation_after_an_empty_one() {
    // An eighth review: after a checkbox (`- [ ]`), every later array whose first
    // element was a number was read as a citation.
    at_every_split(&lenient(), "- [ ] task one\n\nResult: [3, 4]\n", "[3,4]");
    at_every_split(&lenient(), "- [ ] a\nAnswer:\n[1, 2]", "[1,2]");
    at_every_split(&lenient(), "- [ ] a\nAnswer:\n\n[-1, 2]", "[-1,2]");
    at_every_split(&lenient(), "- [ ] a\nx = [1.5, 2]", "[1.5,2]");
    // Beginning its line, after no `:`, it still is one (`[2]` is a footnote's mark).
    at_every_split(&lenient(), "- [ ] a\n\n[1, 2]", "[]");
    at_every_split(
        &lenient(),
        "- [ ] Review\n[2]\n{\"ok\": true}",
        r#"{"ok":true}"#,
    );
    at_every_split(
        &lenient(),
        "- [ ] Review the code\n- [ ] Deploy\n\n[1] https://docs.example.com",
        "[]",
    );
    // Led by a word it still is one.
    at_every_split(&lenient(), "- [ ] a, see [1, 2] too", "[]");
}

#[test]
fn a_reference_list_is_prose() {
    // An eighth review: under keep-last, `[1] Smith, 2020.` after the answer replaced it.
    let keep_last = lenient().second_root(SecondRoot::KeepLast);
    let answer = r#"{"name":"y"}"#;
    for tail in [
        "[1] Smith, 2020.",
        "[1] Smith, 2020.\n",
        "Sources:\n[1] https://a.example\n[2] https://b.example\n",
        "[1]: https://x.example",
        "[1] \"Title\" (2020)",
    ] {
        let input = format!("```json\n{{\"name\": \"y\"}}\n```\n\n{tail}");
        at_every_split(&keep_last, &input, answer);
        at_every_split(&lenient(), &input, answer);
    }
    // Before the answer too (but an array where the reply begins is its value).
    at_every_split(
        &lenient(),
        "Sources:\n[1] Smith et al.\n[2] Doe\n\n{\"refs\": 2}",
        r#"{"refs":2}"#,
    );
    at_every_split(
        &lenient(),
        "See [link][1].\n\n[1]: https://x.example\n\n{\"ok\": true}",
        r#"{"ok":true}"#,
    );
    // Alone on its line, or at the end, it is a value.
    at_every_split(&keep_last, "{\"a\":1}\n[2]\n", "[2]");
    at_every_split(&keep_last, "{\"a\":1}\n[2]  ", "[2]");
    at_every_split(&lenient(), "Answer:\n[42]\nDone.", "[42]");
    at_every_split(
        &lenient(),
        "See [3] and more.\nThe answer is\n[42]\n",
        "[42]",
    );
    // No other value: the first reference is (as a citation is).
    at_every_split(&lenient(), "Sources:\n[1] Smith, 2020.", "[1]");
}

#[test]
fn seed_think_blocks_are_skipped() {
    at_every_split(
        &lenient(),
        "<seed:think>Try {\"a\": 0} first.</seed:think>{\"a\": 1}",
        r#"{"a":1}"#,
    );
    at_every_split(&lenient(), "<seed:think>[1]</seed:think>\n42", "42");
    // Prose that only begins like it is prose.
    at_every_split(&lenient(), "<seed> {\"a\": 1}", r#"{"a":1}"#);
}

#[test]
fn a_scalar_in_a_json_fence_after_prose_is_the_value() {
    // An eighth review: only a reply that was one scalar and nothing else was read.
    for (input, value) in [
        ("Result:\n```json\n1\n```", "1"),
        ("Result:\n```json\n1\n```\nHope this helps!", "1"),
        ("```json\n1\n```\nHope this helps!", "1"),
        ("<think>x</think>\n```json\n1\n```\n- [ ] check", "1"),
        ("The answer:\n```json\n\"yes\"\n```\n", "\"yes\""),
        ("Here:\n```\nnull\n```", "null"),
        ("Here:\n~~~json\n-2.5e3\n~~~\nDone [1].", "-2.5e3"),
        ("Here:\n```json\n42 // the count\n```", "42"),
        // The first one stays.
        ("A:\n```json\n1\n```\nB:\n```json\n2\n```", "1"),
        // A root wins over it.
        ("Result:\n```json\n1\n```\nOr: {\"a\": 1}", r#"{"a":1}"#),
        // So does a fenced root (the scalar was no fence's one value).
        ("Result:\n```json\n1\n{\"a\": 1}\n```", r#"{"a":1}"#),
        // Its closing fence may be cut.
        ("Result:\n```json\n7\n``", "7"),
        ("Result:\n```json\n7\n", "7"),
    ] {
        at_every_split(&lenient(), input, value);
    }
    // More than one scalar in the fence, or prose in it: none.
    for input in [
        "Result:\n```json\n1 2\n```",
        "Result:\n```json\n42 apples\n```",
        "Result:\n```python\n1\n```",
        "Result: ```json fences\n1\n```",
    ] {
        fails(&lenient(), input.as_bytes(), ErrorKind::NoStructure);
    }
    // Cut inside it: the value cut.
    fails(&lenient(), b"Result:\n```json\n\"ye", ErrorKind::Truncated);
    // Strict mode reads no fence.
    fails(&strict(), b"Result:\n```json\n1\n```", ErrorKind::Invalid);
}

#[test]
fn a_ninth_review_of_fences_scalars_and_references() {
    let keep_last = lenient().second_root(SecondRoot::KeepLast);
    // A JSON fence that held no root is closed by the next fence: a reference after it
    // is read as prose again.
    at_every_split(
        &lenient(),
        "The population of Paris is about 2.1 million [1].\n\n```json\n2102650\n```\n\n[1] INSEE, 2023.",
        "2102650",
    );
    at_every_split(
        &lenient(),
        "Result:\n```json\n42\n```\n[1] Smith, 2020.",
        "42",
    );
    at_every_split(&lenient(), "```json\n42\n```\n[1] Smith, 2020.", "42");
    at_every_split(
        &lenient(),
        "Result:\n```json\n42\n```\n{name} is the placeholder",
        "42",
    );
    // A root begun after it, even cut, is the reading's: a cut is never silent.
    for input in [
        "Result:\n```json\n42\n```\nAs an object: {\"answer\": 4",
        "```json\n42\n```\nAs an object: {\"answer\": ",
    ] {
        fails(&lenient(), input.as_bytes(), ErrorKind::Truncated);
    }
    // Keep-last keeps the last fence's.
    at_every_split(
        &keep_last,
        "Example:\n```json\n0\n```\nActual:\n```json\n42\n```",
        "42",
    );
    at_every_split(
        &lenient(),
        "Example:\n```json\n0\n```\nActual:\n```json\n42\n```",
        "0",
    );
    // A decorative line of tildes is no fence.
    at_every_split(
        &lenient(),
        "~~~ Final Answer ~~~\n\n```json\n{\"a\": 1}\n```",
        r#"{"a":1}"#,
    );
    at_every_split(&lenient(), "~~~ Final Answer\n{\"a\": 1}", r#"{"a":1}"#);
    // Beginning its line, with text after it there, a one-number array is a reference,
    // whatever the line before ends in (reference lists follow `Sources:`): the value
    // only if no other comes.
    at_every_split(
        &lenient(),
        "Answer:\n[42] (approx.)\n\nFormat: [0, 1]",
        "[0,1]",
    );
    at_every_split(&lenient(), "Answer:\n[42] (approx.)\n", "[42]");
    at_every_split(&lenient(), "**Answer:**\n[42]\n\nFormat: [0, 1]", "[42]");
    for references in [
        "Sources:\n[1] [Wikipedia](https://en.wikipedia.org/wiki/Paris)\n\n",
        "References:\n[1] \"Attention Is All You Need\", 2017\n\n",
        "Sources:\n[1] (Smith 2020)\n[2] - Doe\n\n",
        "Sources:\n[1] **Wikipedia** - https://en.wikipedia.org/wiki/Paris\n\n",
        "Sources:\n[1] *Nature*, 2020\n\n",
        "参考资料:\n[1] 维基百科\n\n",
        "References:\n[1] “Attention Is All You Need”, 2017\n\n",
        "References:\n[1] 2023 Annual Report\n\n",
    ] {
        at_every_split(
            &lenient(),
            &format!("{references}```json\n{{\"answer\": 42}}\n```"),
            r#"{"answer":42}"#,
        );
        at_every_split(
            &keep_last,
            &format!("```json\n{{\"answer\": 42}}\n```\n\n{references}"),
            r#"{"answer":42}"#,
        );
    }
    at_every_split(
        &keep_last,
        "```json\n{\"answer\": 42}\n```\n\n[1] [Link](https://x.example)\n",
        r#"{"answer":42}"#,
    );
    at_every_split(
        &keep_last,
        "{\"a\": 1}\nSources:\n[1] https://a.example\n",
        r#"{"a":1}"#,
    );
    // A JSON fence's tag is its first word.
    for input in [
        "```json title=\"out.json\"\n{\"a\": 1}\n```",
        "```json filename=out.json\n{\"a\": 1}\n```",
        "```json copy\n{\"a\": 1}\n```",
        "```JSON Response\n{\"a\": 1}\n```",
        "```json - response\n{\"a\": 1}\n```",
    ] {
        at_every_split(&lenient(), input, r#"{"a":1}"#);
    }
    // A space between a marker after prose and its JSON tag.
    at_every_split(&lenient(), "Result: ``` json\n42\n```", "42");
    at_every_split(
        &lenient(),
        "Result: ``` json\n{\"a\": 1}\n```",
        r#"{"a":1}"#,
    );
    // A marker whose line holds its byte again is no fence.
    at_every_split(&lenient(), "``` Final ```\n{\"a\": 1}", r#"{"a":1}"#);
    // Seed-OSS's tag named in prose opens no block.
    at_every_split(
        &lenient(),
        "Models like Seed-OSS wrap reasoning in <seed:think> tags.\n\n{\"a\": 1}",
        r#"{"a":1}"#,
    );
}

#[test]
fn a_fence_begins_its_line_after_a_false_start_or_a_byte_order_mark() {
    for input in [
        "Use [\n~~~python\nx = [1]\n~~~\n{\"a\": 1}",
        "\u{feff}~~~python\nx = [1]\n~~~\n{\"a\": 1}",
        "Use [\n```python\nx = [1]\n```\n{\"a\": 1}",
    ] {
        at_every_split(&lenient(), input, r#"{"a":1}"#);
    }
}

#[test]
fn a_tenth_review_of_fences_and_fenced_scalars() {
    let keep_last = lenient().second_root(SecondRoot::KeepLast);
    // A false start inside a JSON fence leaves it open: the next untagged fence closes it.
    at_every_split(
        &keep_last,
        "```json\n{\"a\": 1}\n```\nCorrected:\n```\n[2] (x)\n```",
        "[2]",
    );
    at_every_split(
        &lenient(),
        "Shell:\n```\n$ echo [1]\n```\nResult:\n```\n[2, 3]\n```",
        "[2,3]",
    );
    at_every_split(
        &lenient(),
        "Usage:\n```\ncli [options]\n```\nExit code:\n```\n0\n```",
        "0",
    );
    // A reply that begins with a JSON fence with an info string, holding one scalar.
    for (input, value) in [
        ("```json copy\n42\n```", "42"),
        ("```JSON Response\n42\n```", "42"),
        ("```json title=\"answer\"\n\"yes\"\n```", "\"yes\""),
        ("```json:answer.json\n42\n```", "42"),
        ("<think>ok</think>\n```json title=\"a\"\n42\n```", "42"),
    ] {
        at_every_split(&lenient(), input, value);
    }
    fails(&lenient(), b"```json-ld\n42\n```", ErrorKind::NoStructure);
    // Keep-last: a later fence that holds no scalar leaves the earlier one.
    for input in [
        "Example:\n```json\n0\n```\nActual:\n```json\nN/A\n```",
        "Example:\n```json\n0\n```\nActual:\n```json\n```",
        "Example:\n```json\n0\n```\nActual:\n```json\n0 (unchanged)\n```",
    ] {
        at_every_split(&keep_last, input, "0");
    }
    // Keep-last: a later fence cut inside its scalar is the value cut.
    fails(
        &keep_last,
        b"Example:\n```json\n0\n```\nActual:\n```json\n\"appr",
        ErrorKind::Truncated,
    );
    // A bracket further on a JSON fence's info line is no value.
    for input in [
        "```json title=\"a.json\" {2-3}\n{\"a\": 1}\n```",
        "```json filename=\"a.json\" {\n{\"a\": 1}\n```",
    ] {
        at_every_split(&lenient(), input, r#"{"a":1}"#);
    }
    // A tilde fence's info string.
    at_every_split(
        &lenient(),
        "~~~python title=\"x\"\nx = [1]\n~~~\n{\"a\": 1}",
        r#"{"a":1}"#,
    );
    at_every_split(&lenient(), "~~~json title=\"x\"\n42\n~~~", "42");
    // A code block opened with four backticks and closed with three.
    at_every_split(
        &lenient(),
        "````python\nx = [1]\n```\n{\"name\": \"Alice\", \"tags\": [\"a\", \"b\"]}",
        r#"{"name":"Alice","tags":["a","b"]}"#,
    );
    at_every_split(
        &lenient(),
        "~~~~python\nx = [1]\n~~~\n{\"a\": 1}",
        r#"{"a":1}"#,
    );
    // Emphasis around a label: `**Result:** [3]` is led by its colon.
    at_every_split(&lenient(), "**Result:** [3]\nSee [1] too.", "[3]");
}

#[test]
fn a_nul_byte_in_prose_is_no_line_start() {
    // Found by the lenient_snapshots fuzz target: a NUL byte in prose was kept as the
    // "line begins" mark, so a fence marker after it began its line in one chunking and
    // not in another.
    for input in [&b"\x00{\"\xe5```e["[..], b"\x00 ~~~js\n[1]"] {
        let whole = replay(&lenient(), &[input])
            .0
            .map_err(|e| (e.kind(), e.offset()));
        let ones: Vec<&[u8]> = input.chunks(1).collect();
        let bytewise = replay(&lenient(), &ones)
            .0
            .map_err(|e| (e.kind(), e.offset()));
        assert_eq!(whole, bytewise, "{input:?}");
    }
    at_every_split(&lenient(), "\u{0}~~~js\n[1]", "[1]");
}

#[test]
fn a_code_block_leaves_an_open_json_fence() {
    // An untagged JSON fence left open by prose, then a code block: the bare fence after
    // the block opens a JSON fence again, and its value is fenced.
    at_every_split(
        &lenient(),
        "```json\nSure, here it is.\n```python\nx = [1]\n```\nResult:\n```\n[2] (x)\n```\nOr {\"b\": 2}",
        "[2]",
    );
}

#[test]
fn an_eleventh_review_of_nested_fences() {
    // A Markdown block, or a longer one, shows fenced examples: their fences do not close it.
    for (input, value) in [
        (
            "````markdown\n```bash\nnpm i\n```\nOutput: [1, 2]\n````\n{\"answer\": 42}",
            r#"{"answer":42}"#,
        ),
        (
            "````markdown\n# Project\n```bash\nnpm install\n```\nConfig example:\n```json\n{\"port\": 8080}\n```\n````\n\n```json\n{\"answer\": 42}\n```",
            r#"{"answer":42}"#,
        ),
        (
            "~~~~markdown\n~~~bash\nls\n~~~\nConfig:\n~~~json\n{\"port\": 1}\n~~~\n~~~~\n{\"answer\": 42}",
            r#"{"answer":42}"#,
        ),
        // A marker inside a line of code closes nothing.
        (
            "```python\nraw = raw.removeprefix(\"```json\").removesuffix(\"```\")\nprint([1, 2])\n```\n{\"name\": \"Bob\"}",
            r#"{"name":"Bob"}"#,
        ),
        (
            "````python\ns = \"```\"\nx = [1]\n````\n{\"name\": \"Bob\"}",
            r#"{"name":"Bob"}"#,
        ),
        // A marker with only punctuation after it opens nothing.
        ("Formatted as ```json```.\n\n{\"a\": 1}", r#"{"a":1}"#),
        ("Avoid ```.\n\n{\"a\": 1}", r#"{"a":1}"#),
        // A block left open by a model: the next tagged fence of its length closes it.
        ("```python\nx = [1]\n```json\n{\"a\": 1}\n```", r#"{"a":1}"#),
    ] {
        at_every_split(&lenient(), input, value);
    }
}

#[test]
fn a_twelfth_review_of_markdown_blocks_and_closing_fences() {
    for (input, value) in [
        // A reply wrapped in a Markdown block: a fence as long as the block's closes it.
        (
            "```markdown\n```json\n{\"name\": \"Bob\"}\n```\n```",
            r#"{"name":"Bob"}"#,
        ),
        (
            "```md\n```json\n{\"name\": \"Bob\"}\n```\n```",
            r#"{"name":"Bob"}"#,
        ),
        (
            "Here you go:\n\n```markdown\n| a | b |\n|---|---|\n| 1 | 2 |\n\n```json\n{\"name\": \"Bob\"}\n```",
            r#"{"name":"Bob"}"#,
        ),
        // A closing fence with text after it still closes the block.
        ("```python\nx = [0]\n```.\n{\"a\": 1}", r#"{"a":1}"#),
        ("```python\nx = [0]\n``` # end\n{\"a\": 1}", r#"{"a":1}"#),
        // An untagged example in a longer Markdown block.
        (
            "Respond like this:\n````markdown\n```\n{\"name\": \"...\"}\n```\n````\n\n{\"name\": \"Bob\"}",
            r#"{"name":"Bob"}"#,
        ),
        // Where its line begins, a tag may begin with punctuation.
        ("```.python\nx = [0]\n```\n{\"a\": 1}", r#"{"a":1}"#),
        // (The cost: a Markdown example of the block's own length is read as a wrapper.)
        (
            "Format:\n```markdown\n```json\n{\"x\": 0}\n```\n```\n\nAnswer:\n```json\n{\"answer\": 42}\n```",
            r#"{"x":0}"#,
        ),
    ] {
        at_every_split(&lenient(), input, value);
    }
}

#[test]
fn an_example_fence_with_an_info_string_in_a_markdown_block() {
    at_every_split(
        &lenient(),
        "````markdown\n```json title=\"x\"\n{\"x\": 0}\n```\nText [1, 2]\n````\n{\"real\": 1}",
        r#"{"real":1}"#,
    );
}

#[test]
fn a_tagged_fence_that_closes_a_block_opens_its_own() {
    let keep_last = lenient().second_root(SecondRoot::KeepLast);
    for (input, value) in [
        (
            "```markdown\n# Demo\n```python\nnums = [1, 2, 3]\nprint(sum(nums))\n```\n```\n\n```json\n{\"total\": 6}\n```",
            r#"{"total":6}"#,
        ),
        (
            "~~~markdown\n~~~python\nx = [0]\n~~~\n~~~\n{\"a\": 1}",
            r#"{"a":1}"#,
        ),
        (
            "```python\nx = [0]\n```python title=\"y.py\"\ny = [1]\n```\n{\"a\": 1}",
            r#"{"a":1}"#,
        ),
        (
            "```bash\nnpm install\n\n```js\nconst a = [1, 2];\n```\n\n```json\n{\"ok\": true}\n```",
            r#"{"ok":true}"#,
        ),
        ("```python\nx = [0]\n```json\n42\n```", "42"),
        // Text after a closing fence's marker names no language.
        ("```python\nx = [0]\n```Output:\n{\"a\": 1}", r#"{"a":1}"#),
        ("```python\nx = [0]\n```.\n{\"a\": 1}", r#"{"a":1}"#),
    ] {
        at_every_split(&lenient(), input, value);
    }
    at_every_split(
        &keep_last,
        "```json\n{\"a\": 1}\n```\n\n```markdown\n```python\nx = [0]\n```\n```\n",
        r#"{"a":1}"#,
    );
    fails(
        &lenient(),
        b"```markdown\n```python\nx = [0]\n```\n```\n",
        ErrorKind::NoStructure,
    );
}

#[test]
fn a_closing_fence_with_prose_after_it_opens_nothing() {
    for input in [
        "```python\nx = [0]\n``` This prints the list.\n\n{\"a\": 1}",
        "```python\nx = [0]\n``` Done\n{\"a\": 1}",
        "```python\nx = [0]\n``` python\n{\"a\": 1}",
        "```python\nx = [0]\n```python\n\nThe answer is {\"a\": 1}",
        "```python\nx = [0]\n```This function returns a list.\n\n{\"a\": 1}",
        "```python\nx = [0]\n```Output\n{\"a\": 1}",
        "```python\nx = [0]\n```2024\n{\"a\": 1}",
        // A long language's name opens its block.
        "```bash\nnpm i\n```javascript\nconst a = [1, 2];\n```\n\n{\"a\": 1}",
        "```bash\nnpm i\n```typescript\nconst a: number[] = [1, 2];\n```\n\n{\"a\": 1}",
    ] {
        at_every_split(&lenient(), input, r#"{"a":1}"#);
    }
}

#[test]
fn a_fifteenth_review_of_closing_fences() {
    for input in [
        // The block's own tag with spaces after it closes it.
        "```python\nx = [0]\n```python \n{\"a\": 1}",
        "```python\nx = [0]\n```python\t\n{\"a\": 1}",
        "```python\r\nx = [0]\r\n```python \r\n{\"a\": 1}",
        // A language's name in capitals opens its block after one left open.
        "```bash\nls\n```Python\nx = [1, 2]\n```\n\n{\"a\": 1}",
        "```bash\npsql\n```SQL\nSELECT ARRAY[1, 2];\n```\n\n{\"a\": 1}",
        "```bash\nnpm i\n```JavaScript\nconst a = [1, 2];\n```\n\n{\"a\": 1}",
        "```markdown\n```Python\nx = [0]\n```\n```\n\n{\"a\": 1}",
    ] {
        at_every_split(&lenient(), input, r#"{"a":1}"#);
    }
}

#[test]
fn a_sixteenth_review_of_closing_fences() {
    for input in [
        // Prose glued to a closing fence that begins with a language's name in capitals.
        "```bash\nls\n```Go ahead and run it.\nThen: {\"a\": 1}",
        "```bash\nls\n```Swift and simple.\n{\"a\": 1}",
        "```bash\nls\n```R squared is 0.9\n{\"a\": 1}",
        // The block's own tag after a longer one read inside a line of its code.
        "```sh\necho \"```json\"\n```sh\n{\"a\": 1}",
        "```python\ns = \"```javascript\"\n```python\n{\"a\": 1}",
        "```python\ns = \"```javascript\"\n```python \n{\"a\": 1}",
    ] {
        at_every_split(&lenient(), input, r#"{"a":1}"#);
    }
}

/// A root that settled as the input ended stays settled: input fed after `end_input`
/// neither replaces nor breaks it (review: `42`, `end_input`, then ` {"b": 2}` replaced the
/// settled 42, and a space made `finish` fail with `NoStructure`).
#[test]
fn a_root_settled_at_the_end_of_input_stays() {
    for root in [
        "42",
        "```json\n42\n```",
        "<think>x</think>-1.5e3",
        "true",
        "\"s\"",
        "{\"a\": 1}",
    ] {
        for after in [" ", "3", " {\"b\": 2}", "\n[1]", "x"] {
            let mut stream = DynamicStream::with_options(lenient());
            stream.feed(root.as_bytes()).unwrap();
            stream.end_input().unwrap();
            let value = stream.draft().map(|v| v.to_json());
            assert!(value.is_some(), "{root:?}");
            let _ = stream.feed(after.as_bytes());
            assert_eq!(
                stream.draft().map(|v| v.to_json()),
                value,
                "{root:?} then {after:?}"
            );
            let end = stream.finish().map(|v| v.to_json());
            assert_eq!(end.ok(), value, "{root:?} then {after:?}");
        }
    }
}

/// A false start that fails at a character split by the chunking (invalid UTF-8 begun in
/// an earlier chunk): its first bytes are prose, as when the input comes whole (fuzzing:
/// whole, `a[]:{"\xe0\n[A{` read the `[]` in prose as the value; in 1-byte chunks the
/// `{` after it, cut).
#[test]
fn a_false_start_at_a_split_character_reads_on_as_it_does_whole() {
    let verdict = |chunks: &[&[u8]]| {
        let (r, _) = replay(&lenient(), chunks);
        r.map_err(|e| (e.kind(), e.offset()))
    };
    for input in [
        &b"a[]:{\"\xe0\n[A{"[..],
        b"\x00[]:{\"\xe0\n[A{",
        b"a []:{\"\xf0\x9f\n[A{",
        b"a []:{\"\xe0[{\"k\": 1}",
    ] {
        let whole = verdict(&[input]);
        let ones: Vec<&[u8]> = input.chunks(1).collect();
        assert_eq!(
            verdict(&ones),
            whole,
            "{:?}",
            String::from_utf8_lossy(input)
        );
        for at in 0..=input.len() {
            let (a, b) = input.split_at(at);
            assert_eq!(verdict(&[a, b]), whole, "split at {at}");
        }
    }
}
