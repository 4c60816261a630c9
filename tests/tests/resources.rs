//! Resource bounds (issue 12), as a contract: for any input and any options,
//!
//! - memory: peak heap is at most [`MEMORY_FACTOR`] times the bytes fed, plus a constant
//!   (the schema-less tree is the largest structure: a node and its links per value),
//!   except where serde itself buffers a value whole (an untagged or late-tagged enum):
//!   serde's `Content` tree of dense small values takes over 100 times their text in
//!   `serde_json::from_slice` alone, and the stream holds about 1.4 to 3 times that (its kept
//!   events; their text bounded by the replay budget, 8 times the byte cap: the README
//!   says so);
//! - time: linear in the input for any depth cap (each byte is scanned once, each event
//!   costs O(1) amortized; typed streams never nest deeper than serde_json's limit);
//! - stack: nothing recurses per nesting level (the scanner, the tree and its JSON writer
//!   keep explicit stacks; typed builders nest at most 127 levels).
//!
//! Each case runs in a child process (this test binary, re-run on one case) whose peak
//! resident memory (`VmHWM`) is read from `/proc`: cases do not share a heap, and no
//! custom allocator is needed. Time is guarded, not measured: a case that runs past a
//! generous limit is a hang (the quadratic bugs this guards took minutes); the linear
//! scaling itself is measured by the benchmarks.
// Models here are streamed, not read field by field.
#![allow(dead_code)]

use settled::{DynamicStream, ErrorKind, IgnoreSink, Options, Scanner, TypedStream};
use std::process::Command;
use std::time::{Duration, Instant};

/// Peak heap per byte fed, at most (the constant of the memory contract).
const MEMORY_FACTOR: u64 = 64;
/// What a process of this test binary holds before any case runs.
const BASELINE: u64 = 24 << 20;

/// A key of `key` bytes and 10,000 array elements: with a 100 KB key, settled paths once
/// held 1 GB.
fn long_key_input(key: usize) -> Vec<u8> {
    let mut input = b"{\"".to_vec();
    input.extend(std::iter::repeat_n(b'k', key));
    input.extend_from_slice(b"\": [");
    for i in 0..10_000 {
        if i > 0 {
            input.push(b',');
        }
        input.push(b'0');
    }
    input.extend_from_slice(b"]}");
    input
}

fn nested(levels: usize) -> Vec<u8> {
    let mut input = vec![b'['; levels];
    input.extend(std::iter::repeat_n(b']', levels));
    input
}

/// The cases, by name; each returns the bytes it fed.
fn run_case(name: &str) -> u64 {
    match name {
        "long_key_settled_paths" => {
            let input = long_key_input(100_000);
            for size in [input.len(), 4096] {
                let mut stream = DynamicStream::new();
                let mut paths = 0;
                for chunk in input.chunks(size) {
                    stream.feed(chunk).unwrap();
                    // Every report is there; a pointer is computed when displayed (read
                    // one in a hundred: each is 100 KB).
                    for (i, (pointer, _)) in stream.settled().enumerate() {
                        paths += 1;
                        if i % 100 == 0 {
                            assert!(pointer.to_string().len() > 100_000);
                        }
                    }
                }
                assert_eq!(paths, 10_002, "each element, the array and the root");
                stream.finish().unwrap();
            }
            input.len() as u64
        }
        "deep_arrays_raised_cap" => {
            let input = nested(100_000);
            let options = Options::default().max_depth(200_000);
            for size in [input.len(), 64] {
                let mut stream = DynamicStream::with_options(options.clone());
                for chunk in input.chunks(size) {
                    stream.feed(chunk).unwrap();
                    let _ = stream.settled().count();
                }
                let value = stream.finish().unwrap();
                assert_eq!(
                    value.to_json().len(),
                    input.len(),
                    "written without recursion"
                );
            }
            input.len() as u64
        }
        "deep_unclosed_in_chunks" => {
            // Open containers whose text is released chunk after chunk: each release once
            // searched the positions kept for every open container (minutes, not seconds).
            let input = r#"[{"a":"#.repeat(200_000);
            let options = Options::default().max_depth(1_000_000);
            let mut stream = DynamicStream::with_options(options);
            for chunk in input.as_bytes().chunks(1000) {
                stream.feed(chunk).unwrap();
            }
            assert_eq!(stream.finish().unwrap_err().kind(), ErrorKind::Truncated);
            input.len() as u64
        }
        "deep_unclosed_in_large_chunks" => {
            // Four million open arrays, their text released in 64 KiB chunks: each release
            // once walked every open container (13 s in a release build, a minute here).
            let input = vec![b'['; 4_000_000];
            let options = Options::default().max_depth(8_000_000);
            let mut stream = DynamicStream::with_options(options);
            for chunk in input.chunks(1 << 16) {
                stream.feed(chunk).unwrap();
            }
            assert_eq!(stream.finish().unwrap_err().kind(), ErrorKind::Truncated);
            input.len() as u64
        }
        "typed_deep_raised_cap" => {
            // A typed stream stops at serde_json's limit whatever the cap.
            #[derive(Debug, serde::Deserialize, settled::StreamingModel)]
            struct Tree {
                children: Vec<Tree>,
            }
            let mut input = Vec::new();
            for _ in 0..10_000 {
                input.extend_from_slice(b"{\"children\": [");
            }
            let options = Options::default().max_depth(100_000);
            let mut stream = Tree::stream_with_options(options.clone());
            let err = stream.feed(&input).unwrap_err();
            assert_eq!(err.kind(), ErrorKind::TooDeep);
            let deep = nested(100_000);
            let mut stream = TypedStream::<serde_json::Value>::with_options(options);
            assert_eq!(stream.feed(&deep).unwrap_err().kind(), ErrorKind::TooDeep);
            (input.len() + deep.len()) as u64
        }
        "unions_nested_late_tags" => {
            // Late tags inside late tags: each level is replayed once more, but kept once
            // (a range of the outer recording), so memory stays linear.
            #[derive(Debug, serde::Deserialize, settled::StreamingModel)]
            #[serde(tag = "k")]
            enum Late {
                Leaf { v: u8 },
                Node { items: Vec<u16>, next: Box<Late> },
            }
            let items = (0..200)
                .map(|i| i.to_string())
                .collect::<Vec<_>>()
                .join(",");
            let mut late = String::from(r#"{"v":1,"k":"Leaf"}"#);
            for _ in 0..100 {
                late = format!(r#"{{"items":[{items}],"next":{late},"k":"Node"}}"#);
            }
            // The draft only (`push`): events nested this deep are each wrapped once per
            // level, which is what they cost, not what the replay keeps.
            let mut stream = Late::stream();
            for chunk in late.as_bytes().chunks(4096) {
                stream.push(chunk).unwrap();
            }
            assert!(matches!(stream.finish().unwrap(), Late::Node { .. }));
            late.len() as u64
        }
        "refused_values_without_fail_fast" => {
            // A runaway list of values serde refuses, fail-fast off (or implied by
            // keep-last): only the first refusal is reported, so only it is kept (each
            // was kept once, with its path and message: 137 times the bytes fed).
            #[derive(Debug, serde::Deserialize, settled::StreamingModel)]
            struct Words {
                v: Vec<String>,
            }
            #[derive(Debug, serde::Deserialize, settled::StreamingModel)]
            struct Titled {
                title: String,
            }
            let block = "1,".repeat(2048);
            let mut fed = 0;
            for options in [
                Options::default().fail_fast(false),
                Options::default().second_root(settled::SecondRoot::KeepLast),
            ] {
                let options = options.max_bytes(4 << 20);
                let mut stream = Words::stream_with_options(options.clone());
                stream.feed(b"{\"v\": [").unwrap();
                while stream.feed(block.as_bytes()).is_ok() {}
                // The first thing wrong with the input is the first refusal.
                let error = stream.finish().unwrap_err();
                assert_eq!(error.kind(), ErrorKind::Validation, "{error}");
                assert_eq!(error.error().path(), Some("/v/0"));
                fed += 4 << 20;
                // A repeated key, refused each time.
                let mut stream = Titled::stream_with_options(options);
                stream.feed(b"{").unwrap();
                let repeat = "\"title\": \"x\", ".repeat(256);
                while stream.feed(repeat.as_bytes()).is_ok() {}
                let error = stream.finish().unwrap_err();
                assert_eq!(error.kind(), ErrorKind::Validation, "{error}");
                fed += 4 << 20;
            }
            fed
        }
        "scanner_alone_many_closes" => {
            // The scanner alone keeps all the text it read (nothing releases it): a test
            // made at each closing bracket once searched that text from its start, which
            // is quadratic (a citation's, `Scanner::citation_at_close`).
            let mut input = b"Here: [".to_vec();
            for _ in 0..2_000_000 {
                input.extend_from_slice(b"[1],");
            }
            input.extend_from_slice(b"[1]]\n");
            let mut scanner = Scanner::new(Options::default());
            for chunk in input.chunks(4096) {
                scanner.feed(chunk, &mut IgnoreSink).unwrap();
            }
            scanner.finish(&mut IgnoreSink).unwrap();
            assert!(scanner.is_complete());
            input.len() as u64
        }
        "many_values_kept_last_in_one_chunk" => {
            // Keeping the last of 262,144 values, in one chunk and in 4 KB chunks: what
            // settled in the values replaced is listed without keeping them all (each was
            // kept until the next chunk, and looked up among the others: quadratic).
            let input = "[1] ".repeat(1 << 18);
            let options = Options::default().second_root(settled::SecondRoot::KeepLast);
            for size in [input.len(), 4096] {
                let mut stream = DynamicStream::with_options(options.clone());
                for chunk in input.as_bytes().chunks(size) {
                    stream.feed(chunk).unwrap();
                    // The last two values' reports (those of older ones given up in the
                    // chunk are dropped with them).
                    let reported: Vec<_> =
                        stream.settled().map(|(p, v)| format!("{p}={v}")).collect();
                    assert_eq!(reported, ["/0=1", "=[1]", "/0=1", "=[1]"]);
                }
                assert_eq!(stream.finish().unwrap().to_json(), "[1]");
            }
            2 * input.len() as u64
        }
        "many_tool_calls" => {
            // Tool calls by the ten thousand: each Anthropic block completes the calls
            // before it, each OpenAI call without an index is told apart by its id, and
            // each finish completes every call. Every call was visited again for each
            // later block, id or finish: quadratic (72 s for 40,000 blocks).
            use settled::provider::{Decoder, Delta, Provider};
            let calls = 40_000;
            let mut fed = 0;
            let blocks: String = (0..calls)
                .map(|i| {
                    format!(
                        "data: {{\"type\":\"content_block_start\",\"index\":{i},\"content_block\":{{\"type\":\"tool_use\",\"id\":\"t{i}\",\"name\":\"f\",\"input\":{{}}}}}}\n\n"
                    )
                })
                .collect();
            let ids: String = (0..calls)
                .map(|i| {
                    format!(
                        "data: {{\"choices\":[{{\"index\":0,\"delta\":{{\"tool_calls\":[{{\"id\":\"c{i}\",\"function\":{{\"name\":\"f\"}}}}]}}}}]}}\n\n"
                    )
                })
                .collect();
            let finishes =
                "data: {\"choices\":[{\"index\":0,\"delta\":{},\"finish_reason\":\"stop\"}]}\n\n"
                    .repeat(calls);
            for (provider, text) in [
                (Provider::Anthropic, blocks),
                (Provider::OpenAiChat, format!("{ids}{finishes}")),
            ] {
                let mut decoder = Decoder::new(provider);
                let mut arguments = 0;
                for chunk in text.as_bytes().chunks(4096) {
                    let deltas = decoder.feed(chunk).unwrap();
                    arguments += deltas
                        .iter()
                        .filter(|d| matches!(d, Delta::Text { .. }))
                        .count();
                }
                // Every call but the last was completed by what came after it.
                assert!(arguments >= calls - 1, "{provider:?}: {arguments}");
                fed += text.len() as u64;
            }
            fed
        }
        "provider_hostile_framing" => {
            // A review: a 1 MiB `id:` line was copied into every later event (1,000 events
            // held 1 GB, fed in one call), and tool calls at the largest index there is
            // were each numbered by a search from 0 (quadratic: 815 KB took 10 s).
            use settled::provider::{Decoder, Provider};
            let long_id = format!("id: {}\n\n", "x".repeat(1 << 20));
            let events = "data: {}\n\n".repeat(1_000);
            let body = format!("{long_id}{events}");
            let mut decoder = Decoder::new(Provider::OpenAiChat);
            decoder.feed(body.as_bytes()).unwrap();
            decoder.finish().unwrap();
            let calls: String = (0..30_000)
                .map(|i| {
                    format!(
                        "data: {{\"choices\":[{{\"index\":0,\"delta\":{{\"tool_calls\":[{{\"index\":{},\"id\":\"a{i}\"}}]}}}}]}}\n\n",
                        usize::MAX
                    )
                })
                .collect();
            let mut decoder = Decoder::new(Provider::OpenAiChat);
            for chunk in calls.as_bytes().chunks(65536) {
                decoder.feed(chunk).unwrap();
            }
            decoder.finish().unwrap();
            (body.len() + calls.len()) as u64
        }
        other => panic!("no case {other}"),
    }
}

/// Peak resident memory of this process, from `/proc/self/status`.
fn peak_rss() -> Option<u64> {
    let status = std::fs::read_to_string("/proc/self/status").ok()?;
    let line = status.lines().find(|l| l.starts_with("VmHWM:"))?;
    let kb: u64 = line.split_whitespace().nth(1)?.parse().ok()?;
    Some(kb * 1024)
}

/// Runs `case` in a child process; returns (bytes fed, peak memory, wall time).
fn measure(case: &str) -> Option<(u64, u64, Duration)> {
    if cfg!(not(target_os = "linux")) {
        eprintln!("resource bounds are measured on Linux only (/proc)");
        return None;
    }
    let start = Instant::now();
    let output = Command::new(std::env::current_exe().unwrap())
        .args(["child", "--exact", "--nocapture", "--test-threads=1"])
        .env("SETTLED_RESOURCE_CASE", case)
        .output()
        .unwrap();
    let elapsed = start.elapsed();
    let stdout = String::from_utf8_lossy(&output.stdout);
    assert!(
        output.status.success(),
        "{case}: {stdout}\n{}",
        String::from_utf8_lossy(&output.stderr)
    );
    let line = stdout
        .lines()
        .find_map(|l| l.split("resource ").nth(1))
        .unwrap_or_else(|| panic!("{case}: no report in {stdout}"));
    let mut numbers = line.split_whitespace().map(|n| n.parse::<u64>().unwrap());
    Some((numbers.next()?, numbers.next()?, elapsed))
}

/// The child side: runs the case named in the environment and reports.
#[test]
fn child() {
    let Ok(case) = std::env::var("SETTLED_RESOURCE_CASE") else {
        return;
    };
    let fed = run_case(&case);
    println!("resource {fed} {}", peak_rss().unwrap_or(0));
}

fn assert_bounded(case: &str, time_limit: Duration) {
    assert_bounded_by(case, MEMORY_FACTOR, time_limit);
}

fn assert_bounded_by(case: &str, factor: u64, time_limit: Duration) {
    let Some((fed, peak, elapsed)) = measure(case) else {
        return;
    };
    let bound = factor * fed + BASELINE;
    eprintln!("{case}: {fed} bytes fed, peak {peak} bytes (bound {bound}), {elapsed:?}");
    assert!(peak <= bound, "{case}: peak {peak} > {bound}");
    assert!(elapsed < time_limit, "{case}: {elapsed:?}: a hang");
}

#[test]
fn settled_paths_cost_memory_only_when_read() {
    assert_bounded("long_key_settled_paths", Duration::from_secs(120));
}

#[test]
fn deep_nesting_under_a_raised_cap_is_linear_and_bounded() {
    assert_bounded("deep_arrays_raised_cap", Duration::from_secs(120));
}

#[test]
fn releasing_text_under_deep_open_containers_is_linear() {
    assert_bounded("deep_unclosed_in_chunks", Duration::from_secs(120));
}

#[test]
fn releasing_text_under_millions_of_open_containers_is_linear() {
    // Each level of nesting costs a tree node and its child list, the tree's and the
    // scanner's stack entries and the position kept for the level's released bracket,
    // in vectors that grow by doubling: about 160 bytes per byte fed here, over the
    // general constant (the default depth cap keeps this to 127 levels).
    assert_bounded_by(
        "deep_unclosed_in_large_chunks",
        192,
        Duration::from_secs(30),
    );
}

#[test]
fn nested_late_tags_and_untagged_values_are_kept_once() {
    assert_bounded("unions_nested_late_tags", Duration::from_secs(120));
}

#[test]
fn refused_values_are_kept_once_without_fail_fast() {
    // The scanner keeps the text after a refusal (its error is made from it), grown by
    // doubling: a few times the bytes fed, not a record per refused value.
    assert_bounded_by(
        "refused_values_without_fail_fast",
        8,
        Duration::from_secs(120),
    );
}

#[test]
fn the_scanner_alone_is_linear_in_closing_brackets() {
    assert_bounded("scanner_alone_many_closes", Duration::from_secs(60));
}

#[test]
fn many_values_kept_last_in_one_chunk_are_linear_and_bounded() {
    assert_bounded(
        "many_values_kept_last_in_one_chunk",
        Duration::from_secs(60),
    );
}

#[test]
fn provider_decoders_are_linear_in_tool_calls() {
    assert_bounded("many_tool_calls", Duration::from_secs(60));
}

#[test]
fn provider_decoders_are_linear_in_long_ids_and_calls_at_the_largest_index() {
    assert_bounded("provider_hostile_framing", Duration::from_secs(60));
}

#[test]
fn typed_streams_stop_at_serdes_depth_whatever_the_cap() {
    assert_bounded("typed_deep_raised_cap", Duration::from_secs(60));
}

/// The CLI prints every settled path (50 MB for a 5 KB key: what the contract asks)
/// without holding it.
#[test]
fn the_cli_streams_its_output() {
    if cfg!(not(target_os = "linux")) {
        return;
    }
    let bin = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../target");
    let exe = ["debug", "release"]
        .iter()
        .map(|p| bin.join(p).join("settled"))
        .find(|p| p.exists());
    let Some(exe) = exe else {
        eprintln!("the settled binary is not built: skipped");
        return;
    };
    let input = long_key_input(5_000);
    let path = std::env::temp_dir().join(format!("settled-long-key-{}", std::process::id()));
    std::fs::write(&path, &input).unwrap();
    let mut child = Command::new(exe)
        .args(["replay", "--emit", "settled"])
        .stdin(std::fs::File::open(&path).unwrap())
        .stdout(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    let pid = child.id();
    let mut out = child.stdout.take().unwrap();
    let mut total = 0u64;
    let mut peak = 0u64;
    let mut buf = vec![0; 1 << 20];
    loop {
        let n = std::io::Read::read(&mut out, &mut buf).unwrap();
        if n == 0 {
            break;
        }
        total += n as u64;
        let status = std::fs::read_to_string(format!("/proc/{pid}/status")).unwrap_or_default();
        if let Some(kb) = status
            .lines()
            .find(|l| l.starts_with("VmHWM:"))
            .and_then(|l| l.split_whitespace().nth(1))
            .and_then(|n| n.parse::<u64>().ok())
        {
            peak = peak.max(kb * 1024);
        }
    }
    assert!(child.wait().unwrap().success());
    let _ = std::fs::remove_file(&path);
    eprintln!("cli: {total} bytes out, peak {peak} bytes");
    assert!(total > 50_000_000, "every path printed");
    assert!(
        peak <= MEMORY_FACTOR * input.len() as u64 + BASELINE,
        "peak {peak}"
    );
}
