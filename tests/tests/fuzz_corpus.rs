//! Replays the committed fuzz seeds (`fuzz/seeds/<target>/*`) through the fuzz targets on
//! the stable toolchain, plus a few tricky inputs of our own. `.ci/fuzz` runs the same
//! targets under libFuzzer on nightly.

use settled_tests::fuzz;
use std::fs;
use std::path::PathBuf;

/// A fuzz target: panics on a contract violation.
type Target = fn(&[u8]);

/// The seeds committed for `target`, sorted by name.
fn seeds(target: &str) -> Vec<(PathBuf, Vec<u8>)> {
    let dir = PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("../fuzz/seeds")
        .join(target);
    let mut paths: Vec<PathBuf> = fs::read_dir(&dir)
        .unwrap_or_else(|e| panic!("{}: {e}", dir.display()))
        .map(|entry| entry.expect("a directory entry").path())
        .filter(|path| path.is_file())
        .collect();
    paths.sort();
    paths
        .into_iter()
        .map(|path| {
            let data = fs::read(&path).expect("a readable seed");
            (path, data)
        })
        .collect()
}

/// Runs `target` on every committed seed; names the seed that fails.
fn replay(name: &str, target: Target) {
    let seeds = seeds(name);
    assert!(!seeds.is_empty(), "no seeds for {name}");
    for (path, data) in seeds {
        assert!(data.len() < 4096, "{}: seeds stay small", path.display());
        let run = std::panic::catch_unwind(|| target(&data));
        assert!(run.is_ok(), "{name} fails on {}", path.display());
    }
}

/// Runs `target` on each input.
fn each(target: Target, inputs: &[&[u8]]) {
    for input in inputs {
        target(input);
    }
}

#[test]
fn strict_differential_seeds() {
    replay("strict_differential", fuzz::strict_differential);
}

#[test]
fn lenient_snapshots_seeds() {
    replay("lenient_snapshots", fuzz::lenient_snapshots);
}

#[test]
fn typed_seeds() {
    replay("typed", fuzz::typed);
}

#[test]
fn providers_seeds() {
    replay("providers", fuzz::providers);
}

#[test]
fn options_seeds() {
    replay("options", fuzz::options);
}

/// Empty input, a lone plan byte, and the smallest documents at every chunk plan.
#[test]
fn tiny_inputs() {
    let targets: [Target; 5] = [
        fuzz::strict_differential,
        fuzz::lenient_snapshots,
        fuzz::typed,
        fuzz::providers,
        fuzz::options,
    ];
    for target in targets {
        each(
            target,
            &[b"", b"\x00", b"\xff", b"\x00{}", b"\x00\x00\x00[]"],
        );
    }
}

/// Splits inside escapes, surrogate pairs and multi-byte characters; numbers at the end of
/// the input; duplicate keys; serde_json's depth limit on both sides.
#[test]
fn strict_tricky_inputs() {
    let deep_ok = [b"\x00".as_slice(), &[b'['; 127], &[b']'; 127]].concat();
    let deep_over = [b"\x00".as_slice(), &[b'['; 128], &[b']'; 128]].concat();
    each(
        fuzz::strict_differential,
        &[
            b"\x00\"\\ud83d\\ude80\"",
            b"\x11\"\xf0\x9f\x9a\x80\xe6\xbc\xa2\"",
            b"\x22-0.0e+0",
            b"\x00{\"a\":1,\"a\":[2]}",
            b"\x00[1e400, 1]",
            b"\x00\"\\ud800\\u0041\"",
            b"\x00 \t\r\n17 \n",
            &deep_ok,
            &deep_over,
        ],
    );
}

/// Lenient inputs where a bracket in prose begins a false start, a `<think>` block holds
/// JSON, and a second value follows the first.
#[test]
fn lenient_tricky_inputs() {
    each(
        fuzz::lenient_snapshots,
        &[
            b"\x00see [1] and {x}: {\"a\": [1, 2]}",
            b"\x00<think>{\"no\": 1}</think>{\"yes\": 2}",
            b"\x00{\"a\": 1} then {\"b\": 2}",
            b"\x00```json\n{\"s\": \"a\\u00e9\\ud83d\\ude80\",}\n```",
            b"\x00{\"a\": 1, \"a\": {\"b\": 2}}",
            b"\x00[\"x\", 12",
        ],
    );
}

/// The options at their edges on inputs that meet each limit exactly.
#[test]
fn options_edges() {
    let mut inputs: Vec<Vec<u8>> = Vec::new();
    for flags in [0x00, 0x15, 0x2a, 0x3f, 0x40, 0x80, 0xff] {
        for stall in 0..4 {
            for input in [&b"{\"a\": [1]}"[..], b"  [  ] ", b"abc {} ", b"[[[]]]"] {
                inputs.push([&[flags, 3, stall][..], input].concat());
            }
        }
    }
    for input in &inputs {
        fuzz::options(input);
    }
}

/// A body split between `\r` and `\n`, inside a UTF-8 character and inside `[DONE]`.
#[test]
fn providers_tricky_inputs() {
    each(
        fuzz::providers,
        &[
            b"\x00data: {\"choices\":[{\"index\":0,\"delta\":{\"content\":\"\xc3\xa9\"}}]}\r\n\r\ndata: [DONE]\r\n\r\n",
            b"\x33data: [DO\n\ndata: [DONE]\n\ndata: not json\n\n",
            b"\x00event: error\ndata: {\"error\":{\"message\":\"boom\"}}\n\n",
        ],
    );
}
