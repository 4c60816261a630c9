//! End-to-end tests: run the built `settled` binary and check its NDJSON lines.

use serde_json::{Value, json};
use std::io::Write;
use std::process::{Command, Stdio};

struct Run {
    lines: Vec<Value>,
    stdout: String,
    code: i32,
    stderr: String,
}

impl Run {
    fn done(&self) -> &Value {
        self.lines.last().expect("a done line")
    }

    fn chunk_lines(&self) -> &[Value] {
        &self.lines[..self.lines.len() - 1]
    }
}

fn cli(args: &[&str], stdin: &[u8]) -> Run {
    let mut child = Command::new(env!("CARGO_BIN_EXE_settled"))
        .args(args)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("the settled binary runs");
    // The command stops reading stdin at its byte cap: a closed pipe then is no failure.
    match child.stdin.take().expect("stdin").write_all(stdin) {
        Err(e) if e.kind() != std::io::ErrorKind::BrokenPipe => panic!("write stdin: {e}"),
        _ => {}
    }
    let out = child.wait_with_output().expect("settled exits");
    let stdout = String::from_utf8(out.stdout).expect("stdout is UTF-8");
    // Replay prints NDJSON only; help and version print text.
    let ndjson = args.first() == Some(&"replay") && !args.contains(&"--help");
    let lines = stdout
        .lines()
        .filter(|_| ndjson)
        .map(|l| serde_json::from_str(l).unwrap_or_else(|e| panic!("not JSON: {l}: {e}")))
        .collect();
    Run {
        lines,
        stdout,
        code: out.status.code().unwrap_or(-1),
        stderr: String::from_utf8_lossy(&out.stderr).into_owned(),
    }
}

fn sample() -> String {
    std::fs::read_to_string(concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/../samples/review.txt"
    ))
    .expect("the shipped sample")
}

fn sample_value() -> Value {
    json!({
        "verdict": "ship",
        "reasons": [
            "Parser handles {braces} and [brackets] inside strings",
            "Escapes like \"quotes\", tabs\t and é round-trip",
            "Emoji 🚀 and CJK 漢字 survive 1-byte chunks"
        ],
        "score": 9,
        "details": {
            "files": {"changed": 4, "added": 1},
            "risk": null,
            "tested": true,
            "coverage": 0.87
        }
    })
}

#[test]
fn the_shipped_sample_replays_from_its_chunks_file() {
    let chunks = concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/../samples/review.chunks.ndjson"
    );
    let run = cli(&["replay", "--chunks", chunks], b"");
    assert_eq!(run.code, 0, "{}", run.stderr);
    assert_eq!(run.done(), &json!({"done": true, "value": sample_value()}));
    let count = std::fs::read_to_string(chunks).unwrap().lines().count();
    assert_eq!(run.chunk_lines().len(), count, "one line per chunk");
    for (i, line) in run.chunk_lines().iter().enumerate() {
        assert_eq!(line["chunk"], json!(i));
        assert!(line.get("snapshot").is_some() && line["settled"].is_array());
    }
}

#[test]
fn a_chunks_file_named_dash_is_read_from_stdin() {
    let chunks = concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/../samples/review.chunks.ndjson"
    );
    let text = std::fs::read(chunks).unwrap();
    let from_file = cli(&["replay", "--chunks", chunks], b"");
    let from_stdin = cli(&["replay", "--chunks", "-"], &text);
    assert_eq!(from_stdin.code, 0, "{}", from_stdin.stderr);
    assert_eq!(from_stdin.lines, from_file.lines);
    let bad = cli(&["replay", "--chunks", "-"], b"\"not a string\n");
    assert_eq!(bad.code, 2, "{}", bad.stderr);
    assert!(bad.stderr.contains("stdin line 1"), "{}", bad.stderr);
}

#[test]
fn a_failed_read_of_stdin_says_it_was_stdin() {
    // Reading a directory fails (EISDIR) after it opened: the error names stdin.
    for args in [
        &["replay"][..],
        &["replay", "--split", "7"],
        &["replay", "--chunks", "-"],
    ] {
        let out = Command::new(env!("CARGO_BIN_EXE_settled"))
            .args(args)
            .stdin(std::fs::File::open("/").expect("the root directory opens"))
            .output()
            .expect("settled exits");
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert_ne!(out.status.code(), Some(0), "{args:?}");
        assert!(stderr.contains("stdin"), "{args:?}: {stderr}");
    }
}

#[test]
fn one_byte_chunks_give_one_line_per_byte() {
    let text = sample();
    let run = cli(&["replay", "--split", "1"], text.as_bytes());
    assert_eq!(run.code, 0);
    assert_eq!(run.chunk_lines().len(), text.len());
    assert_eq!(run.done()["value"], sample_value());
    // Prose after the root still gets its lines, with the final snapshot.
    assert_eq!(
        run.chunk_lines().last().unwrap()["snapshot"],
        sample_value()
    );
}

#[test]
fn settled_values_come_innermost_first_with_pointers() {
    let run = cli(&["replay"], br#"{"a/b": [1, {"~": "x"}], "c": true}"#);
    let settled = &run.lines[0]["settled"];
    assert_eq!(
        settled,
        &json!([
            {"path": "/a~1b/0", "value": 1},
            {"path": "/a~1b/1/~0", "value": "x"},
            {"path": "/a~1b/1", "value": {"~": "x"}},
            {"path": "/a~1b", "value": [1, {"~": "x"}]},
            {"path": "/c", "value": true},
            {"path": "", "value": {"a/b": [1, {"~": "x"}], "c": true}},
        ])
    );
}

#[test]
fn numbers_keep_their_exact_source_text() {
    // serde_json reads these lossily; check the raw text instead.
    let raw = Command::new(env!("CARGO_BIN_EXE_settled"))
        .args(["replay", "--emit", "final"])
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .spawn()
        .and_then(|mut c| {
            c.stdin
                .take()
                .unwrap()
                .write_all(b"[1180591620717411303424, 1e400, -0.0, 1E+2]")?;
            c.wait_with_output()
        })
        .unwrap();
    let raw = String::from_utf8(raw.stdout).unwrap();
    assert_eq!(
        raw.trim(),
        r#"{"done":true,"value":[1180591620717411303424,1e400,-0.0,1E+2]}"#
    );
}

#[test]
fn emit_modes() {
    let input = br#"Sure: {"a": [1, 2]}"#;
    let settled = cli(&["replay", "--split", "5", "--emit", "settled"], input);
    assert!(
        settled
            .chunk_lines()
            .iter()
            .all(|l| l.get("snapshot").is_none())
    );
    assert_eq!(settled.chunk_lines().len(), 4);
    let fin = cli(&["replay", "--split", "5", "--emit", "final"], input);
    assert_eq!(fin.lines, [json!({"done": true, "value": {"a": [1, 2]}})]);
}

#[test]
fn a_root_number_settles_at_the_end_of_input() {
    let run = cli(&["replay", "--strict", "--split", "1"], b"42");
    assert_eq!(
        run.lines,
        [
            json!({"chunk": 0, "snapshot": null, "settled": []}),
            json!({"chunk": 1, "snapshot": 42, "settled": [{"path": "", "value": 42}]}),
            json!({"done": true, "value": 42}),
        ]
    );
}

#[test]
fn a_duplicate_key_keeps_its_first_value_reported_once() {
    let run = cli(&["replay", "--split", "8"], br#"{"a": 1, "b": 2, "a": 3}"#);
    let a_reports: Vec<&Value> = run
        .chunk_lines()
        .iter()
        .flat_map(|l| l["settled"].as_array().unwrap())
        .filter(|s| s["path"] == "/a")
        .map(|s| &s["value"])
        .collect();
    assert_eq!(a_reports, [&json!(1)]);
    assert_eq!(run.done()["value"], json!({"a": 1, "b": 2}));
    // The done line says what was tolerated.
    let warnings = run.done()["warnings"].as_array().unwrap();
    assert_eq!(warnings.len(), 1);
    assert_eq!(warnings[0]["offset"], 17);
    assert!(
        warnings[0]["message"]
            .as_str()
            .unwrap()
            .contains("repeats a key")
    );
    let clean = cli(&["replay"], br#"{"a": 1}"#);
    assert!(clean.done().get("warnings").is_none());
}

fn error_of(run: &Run) -> (&str, u64) {
    let error = &run.done()["error"];
    assert!(error["message"].as_str().is_some_and(|m| !m.is_empty()));
    (
        error["kind"].as_str().unwrap(),
        error["offset"].as_u64().unwrap(),
    )
}

#[test]
fn invalid_stops_at_the_failing_chunk() {
    let run = cli(
        &["replay", "--split", "4"],
        br#"{"a": NaN, "b": 1} and more text"#,
    );
    assert_eq!(run.code, 1);
    assert_eq!(error_of(&run), ("invalid", 6));
    assert_eq!(
        run.chunk_lines().len(),
        2,
        "stops reading after the fatal chunk"
    );
    assert_eq!(run.chunk_lines()[1]["snapshot"], json!({}));
}

#[test]
fn truncated_prints_every_chunk_then_the_error() {
    let run = cli(&["replay", "--split", "3"], br#"{"a": "unfini"#);
    assert_eq!(run.code, 1);
    assert_eq!(error_of(&run), ("truncated", 13));
    assert_eq!(run.chunk_lines().len(), 5);
    assert_eq!(run.chunk_lines()[4]["snapshot"], json!({"a": "unfini"}));
    // The done line keeps the last good snapshot and says where, in lines and columns too:
    // `--emit final` loses nothing.
    let fin = cli(&["replay", "--emit", "final"], b"Sure:\n{\"a\": \"unfini");
    let done = fin.done();
    assert_eq!(
        (&done["error"]["line"], &done["error"]["column"]),
        (&json!(2), &json!(14))
    );
    assert_eq!(done["snapshot"], json!({"a": "unfini"}));
}

#[test]
fn no_structure_for_empty_input_and_apologies() {
    for strict in [false, true] {
        let args: &[&str] = if strict {
            &["replay", "--strict"]
        } else {
            &["replay"]
        };
        let run = cli(args, b"");
        assert_eq!(run.lines.len(), 1);
        assert_eq!(error_of(&run), ("no_structure", 0));
    }
    let run = cli(&["replay"], b"I'm sorry, but I can't help with that.");
    assert_eq!(error_of(&run).0, "no_structure");
    assert_eq!(run.code, 1);
}

#[test]
fn byte_and_depth_limits_allow_exactly_n() {
    let input = b"ok [[1]]";
    assert_eq!(cli(&["replay", "--max-bytes", "8"], input).code, 0);
    let run = cli(&["replay", "--max-bytes", "7"], input);
    assert_eq!(error_of(&run), ("too_large", 7));
    assert_eq!(cli(&["replay", "--max-depth", "2"], input).code, 0);
    let run = cli(&["replay", "--max-depth", "1"], b"[[1]]");
    assert_eq!(error_of(&run), ("too_deep", 1));
    // In prose too: a root past the cap that turns out to be JSON is too deep, where it
    // passed the cap (never its inner `[1]` as the answer).
    let run = cli(&["replay", "--max-depth", "1"], input);
    assert_eq!(error_of(&run), ("too_deep", 4));
}

#[test]
fn a_runaway_loop_hits_the_byte_cap() {
    let mut input = br#"{"answer": ""#.to_vec();
    input.extend(b"la ".repeat(100_000));
    let run = cli(
        &[
            "replay",
            "--split",
            "64",
            "--max-bytes",
            "4096",
            "--emit",
            "settled",
        ],
        &input,
    );
    assert_eq!(error_of(&run), ("too_large", 4096));
    // 64 chunks fit; the 65th crosses the cap and still gets its line (the last good value).
    assert_eq!(run.chunk_lines().len(), 65);
}

#[test]
fn usage_errors_exit_2_with_one_line_pointing_at_the_help() {
    for (args, help) in [
        (
            &["replay", "--split", "0"][..],
            "see 'settled replay --help'",
        ),
        (&["replay", "--emit", "all"], "see 'settled replay --help'"),
        (&["replay", "--frobnicate"], "see 'settled replay --help'"),
        (&[], "see 'settled --help'"),
        (&["frobnicate"], "see 'settled --help'"),
    ] {
        let run = cli(args, b"");
        assert_eq!(run.code, 2, "{args:?}");
        assert_eq!(run.stderr.lines().count(), 1, "{}", run.stderr);
        assert!(run.stderr.starts_with("settled: "), "{}", run.stderr);
        assert!(run.stderr.trim_end().ends_with(help), "{}", run.stderr);
        assert!(run.lines.is_empty());
    }
}

#[test]
fn version_and_help() {
    let run = cli(&["--version"], b"");
    assert_eq!(run.code, 0);
    assert_eq!(
        run.stdout.trim(),
        concat!("settled ", env!("CARGO_PKG_VERSION"))
    );
    let run = cli(&["--help"], b"");
    assert_eq!(run.code, 0);
    assert!(run.stdout.contains("replay"), "{}", run.stdout);
    assert!(run.stdout.contains("--version"), "{}", run.stdout);
    let run = cli(&["replay", "--help"], b"");
    assert_eq!(run.code, 0);
    for option in [
        "--strict",
        "--chunks",
        "--split",
        "--max-depth",
        "--emit",
        "--sse",
        "--keep-last",
    ] {
        assert!(run.stdout.contains(option), "{option} in {}", run.stdout);
    }
}

/// A replay fed live: `first` written to its stdin, which stays open, and the first line
/// it prints for it.
struct Live {
    child: std::process::Child,
    stdin: std::process::ChildStdin,
    stdout: std::io::BufReader<std::process::ChildStdout>,
    first: Value,
}

fn live(args: &[&str], first: &[u8]) -> Live {
    use std::io::BufRead;
    let mut child = Command::new(env!("CARGO_BIN_EXE_settled"))
        .args(args)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .spawn()
        .unwrap();
    let mut stdin = child.stdin.take().unwrap();
    let mut stdout = std::io::BufReader::new(child.stdout.take().unwrap());
    stdin.write_all(first).unwrap();
    stdin.flush().unwrap();
    let mut line = String::new();
    stdout.read_line(&mut line).unwrap();
    let first = serde_json::from_str(&line).unwrap();
    Live {
        child,
        stdin,
        stdout,
        first,
    }
}

/// The lines the live replay prints after its input is closed, as JSON.
fn lines_after_close(
    stdin: std::process::ChildStdin,
    stdout: std::io::BufReader<std::process::ChildStdout>,
) -> Vec<Value> {
    use std::io::BufRead;
    drop(stdin);
    stdout
        .lines()
        .map(|l| serde_json::from_str(&l.unwrap()).unwrap())
        .collect()
}

#[test]
fn a_live_stream_prints_each_chunk_as_it_arrives() {
    use std::io::BufRead;
    let Live {
        mut child,
        mut stdin,
        stdout,
        first,
    } = live(&["replay"], br#"{"a": "hel"#);
    // The line for the first chunk arrives while the input is still open.
    assert_eq!(first["snapshot"], json!({"a": "hel"}));
    stdin.write_all(br#"lo"}"#).unwrap();
    drop(stdin);
    let rest: Vec<String> = stdout.lines().map(Result::unwrap).collect();
    assert_eq!(
        rest.last().unwrap(),
        r#"{"done":true,"value":{"a":"hello"}}"#
    );
    assert!(child.wait().unwrap().success());
}

#[test]
fn a_live_root_number_settles_in_a_line_when_the_input_ends_later() {
    let Live {
        mut child,
        stdin,
        stdout,
        first,
    } = live(&["replay", "--strict"], b"12");
    // The chunk's line goes out while the input is open: the number is not settled yet.
    assert_eq!(first, json!({"chunk": 0, "snapshot": null, "settled": []}));
    let rest = lines_after_close(stdin, stdout);
    assert_eq!(
        rest,
        [
            json!({"chunk": 0, "snapshot": 12, "settled": [{"path": "", "value": 12}]}),
            json!({"done": true, "value": 12}),
        ]
    );
    assert!(child.wait().unwrap().success());
}

/// The end of live input changes the snapshot without settling anything (`[4` cut: the
/// array where the reply begins is the answer, cut): the chunk's line comes again with
/// it, so the done line's snapshot is one a chunk line showed (review: it never was).
#[test]
fn a_live_cut_that_shows_the_root_prints_the_line_again() {
    let Live {
        mut child,
        stdin,
        stdout,
        first,
    } = live(&["replay"], b"[4");
    assert_eq!(first, json!({"chunk": 0, "snapshot": null, "settled": []}));
    let rest = lines_after_close(stdin, stdout);
    assert_eq!(rest.len(), 2, "{rest:?}");
    assert_eq!(rest[0], json!({"chunk": 0, "snapshot": [], "settled": []}));
    assert_eq!(rest[1]["error"]["kind"], "truncated");
    assert_eq!(rest[1]["snapshot"], json!([]));
    assert!(!child.wait().unwrap().success());
}

#[test]
fn a_chunks_file_that_is_not_ndjson_strings_is_a_usage_error() {
    let dir = std::env::temp_dir().join(format!("settled-e2e-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let path = dir.join("bad.ndjson");
    std::fs::write(&path, "\"ok\"\n{\"not\": \"a string\"}\n").unwrap();
    let run = cli(&["replay", "--chunks", path.to_str().unwrap()], b"");
    assert_eq!(run.code, 2);
    assert!(run.stderr.contains("line 2"), "{}", run.stderr);
}

#[test]
fn a_provider_stream_is_capped_by_its_text_and_a_broken_one_keeps_the_draft() {
    let dir = concat!(env!("CARGO_MANIFEST_DIR"), "/../examples/recorded/");
    let events = std::fs::read(format!("{dir}openai_review.sse")).unwrap();
    let whole = cli(&["replay", "--sse", "openai", "--emit", "final"], &events);
    let text = serde_json::to_string(&whole.done()["value"]).unwrap();
    // A cap the text fits under, far below the events' size: the same with `--split`.
    let cap = (text.len() * 2).to_string();
    assert!(events.len() > text.len() * 2);
    for split in [None, Some("7")] {
        let mut args = vec!["replay", "--sse", "openai", "--max-bytes", &cap];
        args.extend(split.map(|n| ["--split", n]).into_iter().flatten());
        let run = cli(&args, &events);
        assert_eq!(run.done()["value"], whole.done()["value"], "{args:?}");
    }
    // Events that stop decoding: the error says where, and the draft is kept.
    let broken =
        b"data: {\"choices\":[{\"index\":0,\"delta\":{\"content\":\"{\\\"a\\\": \\\"x\"}}]}\n\ndata: {broken\n\n";
    let run = cli(&["replay", "--sse", "openai", "--emit", "final"], broken);
    let done = run.done();
    assert_eq!(done["error"]["kind"], "invalid");
    assert_eq!(
        (&done["error"]["line"], &done["error"]["column"]),
        (&json!(1), &json!(9))
    );
    assert_eq!(done["snapshot"], json!({"a": "x"}));
}

#[test]
fn a_recorded_provider_stream_replays_its_text() {
    let dir = concat!(env!("CARGO_MANIFEST_DIR"), "/../examples/recorded/");
    let read = |name: &str| std::fs::read(format!("{dir}{name}")).unwrap();
    for (provider, file) in [
        ("openai", "openai_review.sse"),
        ("openai-responses", "openai_responses_review.sse"),
        ("anthropic", "anthropic_review.sse"),
    ] {
        let run = cli(
            &["replay", "--sse", provider, "--emit", "settled"],
            &read(file),
        );
        assert_eq!(run.code, 0, "{provider}: {}", run.stderr);
        assert_eq!(run.done()["value"]["score"], 8);
        assert!(run.chunk_lines().len() > 60, "a line per token delta");
    }
    let run = cli(
        &["replay", "--sse", "anthropic", "--emit", "final"],
        &read("anthropic_tool_cut.sse"),
    );
    let (kind, _) = error_of(&run);
    assert_eq!(kind, "truncated");
    assert!(
        run.done()["error"]["message"]
            .as_str()
            .unwrap()
            .contains("max_tokens")
    );
    let run = cli(&["replay", "--sse", "openai"], b"data: {broken\n\n");
    assert_eq!(error_of(&run).0, "invalid");
    assert_eq!(cli(&["replay", "--sse", "gemini"], b"").code, 2);
}

#[test]
fn a_tool_call_after_text_without_json_is_the_value() {
    let openai = concat!(
        "data: {\"choices\":[{\"index\":0,\"delta\":{\"content\":\"Calling the tool.\"}}]}\n\n",
        "data: {\"choices\":[{\"index\":0,\"delta\":{\"tool_calls\":[{\"index\":0,\"id\":\"c\",",
        "\"type\":\"function\",\"function\":{\"name\":\"f\",\"arguments\":\"{\\\"a\\\"\"}}]}}]}\n\n",
        "data: {\"choices\":[{\"index\":0,\"delta\":{\"tool_calls\":[{\"index\":0,",
        "\"function\":{\"arguments\":\": 1}\"}}]}}]}\n\n",
        "data: [DONE]\n\n",
    );
    let run = cli(
        &["replay", "--sse", "openai", "--emit", "final"],
        openai.as_bytes(),
    );
    assert_eq!(run.code, 0, "{}", run.stderr);
    assert_eq!(run.done()["value"], json!({"a": 1}));
    // JSON in the text first: the text stays the value.
    let text_first = openai.replace("Calling the tool.", "{\\\"b\\\": 2}");
    let run = cli(
        &["replay", "--sse", "openai", "--emit", "final"],
        text_first.as_bytes(),
    );
    assert_eq!(run.done()["value"], json!({"b": 2}));
}

/// An OpenAI Chat body: the assistant's `text` deltas, then tool call 0's `arguments`
/// deltas, then `finish`.
fn openai_body(text: &[&str], arguments: &[&str], finish: &str) -> String {
    let mut body = String::new();
    let mut event = |delta: Value, finish: Value| {
        let chunk = json!({"choices": [{"index": 0, "delta": delta, "finish_reason": finish}]});
        body.push_str(&format!("data: {chunk}\n\n"));
    };
    for t in text {
        event(json!({"content": t}), Value::Null);
    }
    for (i, a) in arguments.iter().enumerate() {
        let mut call = json!({"index": 0, "function": {"arguments": a}});
        if i == 0 {
            call["id"] = json!("call_0");
            call["type"] = json!("function");
            call["function"]["name"] = json!("f");
        }
        event(json!({"tool_calls": [call]}), Value::Null);
    }
    event(json!({}), json!(finish));
    body.push_str("data: [DONE]\n\n");
    body
}

/// An Anthropic messages stream of `events`, each under its own `event:` line.
fn anthropic_body(events: &[Value]) -> String {
    events
        .iter()
        .map(|e| format!("event: {}\ndata: {e}\n\n", e["type"].as_str().unwrap()))
        .collect()
}

#[test]
fn prose_before_a_tool_call_is_not_part_of_the_arguments() {
    let prose = ["I'll look ", "that up for you.\n\n"];
    let body = openai_body(&prose, &["{\"city\": ", "\"Paris\"}"], "tool_calls");
    // Strict: the arguments are RFC 8259 JSON, whatever the assistant said before the call.
    let run = cli(&["replay", "--sse", "openai", "--strict"], body.as_bytes());
    assert_eq!(run.code, 0, "{}", run.stdout);
    assert_eq!(
        run.done(),
        &json!({"done": true, "value": {"city": "Paris"}})
    );
    // One line per argument delta, numbered from the arguments' first.
    assert_eq!(run.chunk_lines().len(), 2, "{}", run.stdout);
    assert_eq!(run.chunk_lines()[0]["chunk"], 0);
    assert_eq!(run.chunk_lines()[0]["snapshot"], json!({}));
    // Offsets count from the arguments' first byte: an error in them...
    let body = openai_body(&prose, &["{\"city\": ", "NaN}"], "tool_calls");
    for args in [
        &["replay", "--sse", "openai"][..],
        &["replay", "--sse", "openai", "--strict"],
    ] {
        let run = cli(args, body.as_bytes());
        assert_eq!(error_of(&run), ("invalid", 9), "{args:?}: {}", run.stdout);
    }
    // ...and a warning.
    let body = openai_body(&prose, &["{\"a\": 1, ", "\"a\": 2}"], "tool_calls");
    let run = cli(&["replay", "--sse", "openai"], body.as_bytes());
    assert_eq!(run.done()["value"], json!({"a": 1}));
    assert_eq!(run.done()["warnings"][0]["offset"], 9, "{}", run.stdout);
    // Anthropic: a text block, then a tool_use block.
    let events = [
        json!({"type": "content_block_start", "index": 0, "content_block": {"type": "text", "text": ""}}),
        json!({"type": "content_block_delta", "index": 0, "delta": {"type": "text_delta", "text": "Let me check."}}),
        json!({"type": "content_block_start", "index": 1, "content_block": {"type": "tool_use", "id": "t", "name": "f", "input": {}}}),
        json!({"type": "content_block_delta", "index": 1, "delta": {"type": "input_json_delta", "partial_json": "{\"n\": [1, 2]"}}),
        json!({"type": "content_block_delta", "index": 1, "delta": {"type": "input_json_delta", "partial_json": "}"}}),
        json!({"type": "message_delta", "delta": {"stop_reason": "tool_use"}}),
    ];
    let body = anthropic_body(&events);
    let run = cli(
        &["replay", "--sse", "anthropic", "--strict"],
        body.as_bytes(),
    );
    assert_eq!(run.code, 0, "{}", run.stdout);
    assert_eq!(run.done()["value"], json!({"n": [1, 2]}));
    assert_eq!(run.chunk_lines().len(), 2);
}

/// Under `--strict`, text in which a value began is the document however its deltas
/// split it, even when the delta it began in also breaks it (review: `{x}` in one delta
/// gave the tool call's arguments, in 1-byte deltas its own error).
#[test]
fn strict_text_that_began_a_value_is_the_document_at_every_delta_size() {
    for (text, expected) in [("{x}", ("invalid", 1)), ("{\"a\":1} x", ("invalid", 8))] {
        for size in [1, 3, text.len()] {
            let deltas: Vec<String> = text
                .as_bytes()
                .chunks(size)
                .map(|c| String::from_utf8(c.to_vec()).unwrap())
                .collect();
            let deltas: Vec<&str> = deltas.iter().map(String::as_str).collect();
            let body = openai_body(&deltas, &["{\"b\": 1}"], "tool_calls");
            let run = cli(&["replay", "--sse", "openai", "--strict"], body.as_bytes());
            assert_eq!(
                error_of(&run),
                expected,
                "{text:?} by {size}: {}",
                run.stdout
            );
        }
    }
    // Text that is no JSON from its first byte still leaves the document to the call.
    for size in [1, 5] {
        let text = "Sure! {x}";
        let deltas: Vec<&str> = (0..text.len())
            .step_by(size)
            .map(|i| &text[i..(i + size).min(text.len())])
            .collect();
        let body = openai_body(&deltas, &["{\"b\": 1}"], "tool_calls");
        let run = cli(&["replay", "--sse", "openai", "--strict"], body.as_bytes());
        assert_eq!(run.done()["value"], json!({"b": 1}), "{}", run.stdout);
    }
}

#[test]
fn a_reply_that_starts_in_reasoning_skips_it_in_the_text_only() {
    let flags = ["replay", "--sse", "openai", "--starts-in-reasoning"];
    // The text: the draft in the reasoning is no value.
    let body = openai_body(
        &["Maybe {\"a\": 0}? ", "No.</think>", "{\"a\": 1}"],
        &[],
        "stop",
    );
    let run = cli(&flags, body.as_bytes());
    assert_eq!(run.done()["value"], json!({"a": 1}), "{}", run.stdout);
    // A tool call's arguments begin no reply: they are read as they are, after reasoning
    // in the text or with none.
    for prose in [&["thinking</think>\n"][..], &[]] {
        let body = openai_body(prose, &["{\"city\": ", "\"Paris\"}"], "tool_calls");
        let run = cli(&flags, body.as_bytes());
        assert_eq!(run.code, 0, "{}", run.stdout);
        assert_eq!(run.done()["value"], json!({"city": "Paris"}));
    }
}

#[test]
fn prose_without_a_tool_call_is_still_the_document() {
    // No tool call: the prose is replayed as before, offsets and lines included.
    let body = openai_body(&["Sorry, ", "I can't."], &[], "stop");
    let run = cli(&["replay", "--sse", "openai", "--strict"], body.as_bytes());
    assert_eq!(error_of(&run), ("invalid", 0));
    let run = cli(&["replay", "--sse", "openai"], body.as_bytes());
    assert_eq!(error_of(&run).0, "no_structure");
    assert_eq!(run.chunk_lines().len(), 2, "a line per prose delta");
    let body = openai_body(&["Here: ", "{\"a\": ", "1}"], &[], "stop");
    let run = cli(&["replay", "--sse", "openai"], body.as_bytes());
    assert_eq!(run.done()["value"], json!({"a": 1}));
    assert_eq!(run.chunk_lines().len(), 3);
    assert_eq!(run.chunk_lines()[2]["snapshot"], json!({"a": 1}));
    // Past the idle limit the prose gives up at the same place as it did.
    let body = openai_body(&["abc", "def", "ghi", "{\"a\": 1}"], &[], "stop");
    let run = cli(
        &["replay", "--sse", "openai", "--idle-limit", "5"],
        body.as_bytes(),
    );
    assert_eq!(error_of(&run).0, "no_structure");
    assert_eq!(run.chunk_lines().len(), 2, "{}", run.stdout);
}

#[test]
fn a_body_that_is_not_an_event_stream_says_so() {
    let rate_limited = br#"{"error":{"message":"Rate limit reached","type":"requests","code":"rate_limit_exceeded"}}"#;
    for provider in ["openai", "openai-responses", "anthropic"] {
        for body in [&rate_limited[..], &[&rate_limited[..], b"\n"].concat()] {
            let run = cli(&["replay", "--sse", provider], body);
            assert_eq!(run.code, 1);
            assert_eq!(run.lines.len(), 1, "{}", run.stdout);
            assert_eq!(error_of(&run), ("invalid", 0));
            let message = run.done()["error"]["message"].as_str().unwrap();
            assert!(
                message.contains("not a server-sent event stream")
                    && message.contains("Rate limit reached"),
                "{message}"
            );
        }
    }
    // A pretty-printed error after curl's headers (`curl -i`).
    let body = "HTTP/2 401\r\ncontent-type: application/json\r\n\r\n{\n  \"error\": {\n    \"message\": \"Incorrect API key provided\"\n  }\n}\n";
    let run = cli(&["replay", "--sse", "openai"], body.as_bytes());
    let message = run.done()["error"]["message"].as_str().unwrap();
    assert!(message.contains("Incorrect API key provided"), "{message}");
    // Not JSON at all: the start of the body is quoted.
    let run = cli(
        &["replay", "--sse", "anthropic"],
        b"<html><body>502 Bad Gateway</body></html>",
    );
    let message = run.done()["error"]["message"].as_str().unwrap();
    assert!(
        message.contains("not a server-sent event stream") && message.contains("502 Bad Gateway"),
        "{message}"
    );
    // Event streams that carry no text are as before: no value.
    for (provider, body) in [
        ("openai", ""),
        ("openai", "\n\n"),
        ("openai", ": keep-alive\n\n"),
        ("openai", "data: [DONE]\n\n"),
        ("anthropic", "event: ping\ndata: {\"type\": \"ping\"}\n\n"),
        ("openai", "data: {\"choices\": []}"),
    ] {
        let run = cli(&["replay", "--sse", provider], body.as_bytes());
        assert_eq!(error_of(&run), ("no_structure", 0), "{body:?}");
    }
}

#[test]
fn an_example_value_in_the_text_wins_over_a_later_tool_call_unless_strict() {
    let body = openai_body(
        &[
            "For example ",
            "{\"city\": \"Oslo\"}",
            ". Calling the tool.",
        ],
        &["{\"city\": \"Paris\"}"],
        "tool_calls",
    );
    // Lenient: the example is a value, printed as it settled; the text stays the document.
    let run = cli(&["replay", "--sse", "openai"], body.as_bytes());
    assert_eq!(run.done()["value"], json!({"city": "Oslo"}));
    assert_eq!(
        run.chunk_lines().len(),
        3,
        "the text's deltas, not the call's"
    );
    // Strict: JSON inside prose is no value, so the tool call is read.
    let run = cli(&["replay", "--sse", "openai", "--strict"], body.as_bytes());
    assert_eq!(run.code, 0, "{}", run.stdout);
    assert_eq!(run.done()["value"], json!({"city": "Paris"}));
    // The rule is in the help.
    let help = cli(&["replay", "--help"], b"").stdout;
    let help = help.split_whitespace().collect::<Vec<_>>().join(" ");
    for says in [
        "if a tool call follows, its arguments are the document",
        "even an example object in prose, the text is the document and a later tool call is not read",
        "Under --strict, JSON inside prose is no value, so the tool call is read",
        "so too once the text fails (past --idle-limit or --max-bytes) or more than 1 MiB of it is held",
        "a body that is not an event stream (an HTTP error's JSON) is `invalid`",
    ] {
        assert!(help.contains(says), "{says:?} in {help}");
    }
}

#[test]
fn text_that_fails_or_outgrows_the_hold_is_the_document_even_if_a_tool_call_follows() {
    let call = ["{\"city\": \"Paris\"}"];
    // Past the idle limit the prose gives up there, promptly: the tool call after it is not
    // awaited (a live stream of prose would otherwise be read to its end).
    let body = openai_body(&["abc", "def", "ghi", "jkl"], &call, "tool_calls");
    let run = cli(
        &["replay", "--sse", "openai", "--idle-limit", "5"],
        body.as_bytes(),
    );
    assert_eq!(error_of(&run).0, "no_structure", "{}", run.stdout);
    assert_eq!(run.chunk_lines().len(), 2, "{}", run.stdout);
    // A delta that begins a value and passes the byte cap: the text, too large.
    let body = openai_body(
        &["For example {\"q\": \"x\"} is the form. "],
        &call,
        "tool_calls",
    );
    let run = cli(
        &["replay", "--sse", "openai", "--max-bytes", "20"],
        body.as_bytes(),
    );
    assert_eq!(error_of(&run), ("too_large", 20), "{}", run.stdout);
    // More than 1 MiB of reasoning before the call: the text is the document, lenient or
    // strict (held text is bounded).
    let think = "x".repeat(64 * 1024);
    let mut text = vec!["<think>"];
    text.extend(std::iter::repeat_n(think.as_str(), 17));
    let body = openai_body(&text, &call, "tool_calls");
    for args in [
        &["replay", "--sse", "openai", "--emit", "final"][..],
        &["replay", "--sse", "openai", "--emit", "final", "--strict"],
    ] {
        let run = cli(args, body.as_bytes());
        assert_eq!(run.code, 1, "{args:?}: {}", run.stdout);
        assert_ne!(run.done()["value"], json!({"city": "Paris"}), "{args:?}");
    }
    // Within the hold, the same reasoning is dropped for the call.
    let body = openai_body(&text[..10], &call, "tool_calls");
    let run = cli(
        &["replay", "--sse", "openai", "--emit", "final"],
        body.as_bytes(),
    );
    assert_eq!(
        run.done()["value"],
        json!({"city": "Paris"}),
        "{}",
        run.stdout
    );
}

/// The hold is counted in bytes only: prose streamed a token per delta (70,000 deltas,
/// about 210 KB, under the idle limit and the 1 MiB hold) is still dropped for the tool
/// call after it (it was taken for the document past 65,536 deltas); and when the held
/// text is the document, each of its deltas is a chunk of its own, in order.
#[test]
fn many_small_deltas_of_prose_are_held_by_their_bytes_and_replayed_one_by_one() {
    let call = ["{\"city\": \"Paris\"}"];
    let text = vec![" ok"; 70_000];
    let body = openai_body(&text, &call, "tool_calls");
    let run = cli(
        &["replay", "--sse", "openai", "--emit", "final"],
        body.as_bytes(),
    );
    assert_eq!(run.code, 0, "{}", run.stdout);
    assert_eq!(run.done()["value"], json!({"city": "Paris"}));
    // No call: the text is the document, one chunk per delta, the value in the last ones.
    let mut text = vec![" ok"; 70_000];
    text.extend(["{\"a\"", ": [1", "]}"]);
    let body = openai_body(&text, &[], "stop");
    let run = cli(&["replay", "--sse", "openai"], body.as_bytes());
    assert_eq!(run.code, 0, "{}", run.stdout);
    let lines = run.chunk_lines();
    assert_eq!(lines.len(), 70_003);
    assert_eq!(lines[70_000]["snapshot"], Value::Null);
    assert_eq!(lines[70_001]["snapshot"], json!({"a": []}));
    assert_eq!(lines[70_002]["snapshot"], json!({"a": [1]}));
    assert_eq!(run.done()["value"], json!({"a": [1]}));
}

#[test]
fn a_tool_call_with_no_arguments_still_drops_the_prose_before_it() {
    let events = [
        json!({"type": "content_block_start", "index": 0, "content_block": {"type": "text", "text": ""}}),
        json!({"type": "content_block_delta", "index": 0, "delta": {"type": "text_delta", "text": "Let me get the time."}}),
        json!({"type": "content_block_start", "index": 1, "content_block": {"type": "tool_use", "id": "t", "name": "now", "input": {}}}),
        json!({"type": "content_block_delta", "index": 1, "delta": {"type": "input_json_delta", "partial_json": ""}}),
        json!({"type": "message_delta", "delta": {"stop_reason": "tool_use"}}),
    ];
    let body = anthropic_body(&events);
    let run = cli(&["replay", "--sse", "anthropic"], body.as_bytes());
    // The prose is not the document: the call's arguments are, and a call without any
    // has the arguments `{}`, settled in its one chunk.
    assert_eq!(
        run.lines,
        [
            json!({"chunk": 0, "snapshot": {}, "settled": [{"path": "", "value": {}}]}),
            json!({"done": true, "value": {}}),
        ],
        "{}",
        run.stdout
    );
}

/// From an adversarial review: a stream whose tool call began and that ended (the
/// connection dropped) before any argument text was `no_structure`, "no JSON object or
/// array in the input"; it is a cut, as `ToolStreams::finish` reads it.
#[test]
fn a_tool_call_cut_before_its_arguments_is_truncated() {
    let start = json!({"type": "content_block_start", "index": 1, "content_block": {"type": "tool_use", "id": "t", "name": "now", "input": {}}});
    let empty = json!({"type": "content_block_delta", "index": 1, "delta": {"type": "input_json_delta", "partial_json": ""}});
    let stop = json!({"type": "message_delta", "delta": {"stop_reason": "tool_use"}});
    let truncated = |run: &Run| {
        assert_eq!(error_of(run), ("truncated", 0), "{}", run.stdout);
        assert_eq!(run.done()["snapshot"], Value::Null);
    };
    for events in [vec![start.clone()], vec![start.clone(), empty.clone()]] {
        let body = anthropic_body(&events);
        truncated(&cli(&["replay", "--sse", "anthropic"], body.as_bytes()));
    }
    let call = json!({"choices": [{"index": 0, "delta": {"role": "assistant", "tool_calls": [{"index": 0, "id": "c", "type": "function", "function": {"name": "now", "arguments": ""}}]}, "finish_reason": null}]});
    for tail in ["", "data: {\"choices\": [{\"ind"] {
        let body = format!("data: {call}\n\n{tail}");
        for split in ["1", "7", "4096"] {
            let args = ["replay", "--sse", "openai", "--split", split];
            truncated(&cli(&args, body.as_bytes()));
        }
    }
    // Ended as the provider ends a call without parameters: its arguments are `{}`.
    let body = anthropic_body(&[start, empty, stop]);
    let run = cli(
        &["replay", "--sse", "anthropic", "--emit", "final"],
        body.as_bytes(),
    );
    assert_eq!(run.done(), &json!({"done": true, "value": {}}));
}

#[test]
fn an_empty_input_under_strict_has_no_value_of_any_kind() {
    // Strict reads any JSON value as the root, so the message names no shape.
    for input in [&b""[..], b"  \n"] {
        let run = cli(&["replay", "--strict"], input);
        assert_eq!(error_of(&run).0, "no_structure");
        let message = run.done()["error"]["message"].as_str().unwrap();
        assert!(
            message.starts_with("no JSON value in the input"),
            "{message}"
        );
    }
    // Lenient reads objects and arrays in prose (a scalar only as the whole reply), and
    // says so.
    let run = cli(&["replay"], b"42 apples");
    let message = run.done()["error"]["message"].as_str().unwrap();
    assert!(message.starts_with("no JSON object or array"), "{message}");
}

/// From an adversarial review: a chunks file that is a pipe was read whole before the
/// replay began, whatever the byte cap (an endless one never ended), and one line was
/// held whole however long. Now at most a byte past the cap is read ahead, and a line is
/// held only as far as the cap can replay it.
#[test]
fn a_chunks_file_that_is_a_pipe_is_read_only_as_far_as_the_cap() {
    let endless_lines = |w: &mut dyn Write| {
        let block = "\"x\"\n".repeat(16 * 1024);
        (0..1024)
            .map(|_| w.write_all(block.as_bytes()))
            .take_while(Result::is_ok)
            .count()
    };
    let endless_line = |w: &mut dyn Write| {
        let _ = w.write_all(b"\"");
        let block = "x".repeat(64 * 1024);
        (0..1024)
            .map(|_| w.write_all(block.as_bytes()))
            .take_while(Result::is_ok)
            .count()
    };
    for (name, write) in [
        (
            "lines",
            &endless_lines as &(dyn Fn(&mut dyn Write) -> usize + Sync),
        ),
        ("one line", &endless_line),
    ] {
        let mut child = Command::new(env!("CARGO_BIN_EXE_settled"))
            .args([
                "replay",
                "--max-bytes",
                "10",
                "--emit",
                "final",
                "--chunks",
                "/dev/stdin",
            ])
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .expect("the settled binary runs");
        let mut stdin = child.stdin.take().expect("stdin");
        // 64 MiB offered; the replay stops reading at its cap and closes the pipe.
        let blocks = std::thread::scope(|s| s.spawn(|| write(&mut stdin)).join().unwrap());
        drop(stdin);
        let out = child.wait_with_output().expect("settled exits");
        let done: Value = serde_json::from_slice(&out.stdout).expect("one done line");
        assert_eq!(done["error"]["kind"], "too_large", "{name}: {done}");
        assert_eq!(done["error"]["offset"], 10, "{name}: {done}");
        assert!(blocks < 64, "{name}: {blocks} of 1024 blocks were read");
    }
}
