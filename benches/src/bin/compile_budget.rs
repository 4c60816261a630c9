//! What `#[derive(StreamingModel)]` costs at compile time, against `Deserialize` alone.
//!
//! ```sh
//! cargo run -p settled-benches --release --bin compile_budget
//! ```
//!
//! Writes two copies of a fixture crate of 20 models and 200 mixed fields (strings,
//! numbers, options, vectors, nested models, unit enums, maps, atomic fields) under
//! `target/compile-budget/`: one deriving `Deserialize` only, one also
//! `StreamingModel`. For each it times `cargo check` of the fixture alone (its
//! dependencies checked first, untimed), the median of five runs, once with every item
//! checked (`CARGO_INCREMENTAL=0`, what a first check costs) and once re-checked with the
//! incremental cache after a touch, and counts the lines of its expanded
//! source (`cargo rustc -- -Zunpretty=expanded` on the nightly toolchain, when present).
//! Budget: both ratios at most 2.

use std::fmt::Write as _;
use std::path::{Path, PathBuf};
use std::process::Command;
use std::time::{Duration, Instant};

const MODELS: usize = 20;
const FIELDS_PER_MODEL: usize = 10;

/// The fixture's source: `streaming` adds the derive.
fn fixture(streaming: bool) -> String {
    let derive = if streaming {
        "#[derive(Debug, Clone, Deserialize, StreamingModel)]"
    } else {
        "#[derive(Debug, Clone, Deserialize)]"
    };
    let enum_derive = if streaming {
        "#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize, StreamingModel)]"
    } else {
        "#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]"
    };
    let mut out = String::from(
        "#![allow(dead_code)]\nuse serde::{Deserialize, Serialize};\n#[allow(unused_imports)]\nuse settled::StreamingModel;\nuse std::collections::HashMap;\n\n",
    );
    let _ = writeln!(
        out,
        "{enum_derive}\n#[serde(rename_all = \"snake_case\")]\npub enum Level {{ Low, Mid, High }}\n"
    );
    for m in 0..MODELS {
        let _ = writeln!(out, "/// Model {m}.\n{derive}\npub struct Model{m} {{");
        for f in 0..FIELDS_PER_MODEL {
            let ty = match (f + m) % 10 {
                0 => "String".to_owned(),
                1 => "u32".to_owned(),
                2 => "Option<String>".to_owned(),
                3 => "Vec<String>".to_owned(),
                4 => "f64".to_owned(),
                5 => "Level".to_owned(),
                6 => "HashMap<String, u8>".to_owned(),
                7 if m > 0 => format!("Vec<Model{}>", m - 1),
                8 if m > 0 => format!("Option<Model{}>", m - 1),
                9 => "bool".to_owned(),
                _ => "i64".to_owned(),
            };
            let attr = if streaming && f == 9 && m % 3 == 0 {
                "    #[settled(atomic)]\n"
            } else {
                ""
            };
            let _ = writeln!(out, "    /// Field {f}.\n{attr}    pub field_{f}: {ty},");
        }
        out.push_str("}\n\n");
    }
    out
}

fn write_crate(dir: &Path, workspace: &Path, streaming: bool) {
    std::fs::create_dir_all(dir.join("src")).unwrap();
    let core = workspace.join("core");
    let manifest = format!(
        "[package]\nname = \"fixture\"\nversion = \"0.0.0\"\nedition = \"2024\"\npublish = false\n\n[workspace]\n\n[dependencies]\nserde = {{ version = \"1\", features = [\"derive\"] }}\nsettled = {{ path = {core:?} }}\n"
    );
    std::fs::write(dir.join("Cargo.toml"), manifest).unwrap();
    std::fs::write(dir.join("src/lib.rs"), fixture(streaming)).unwrap();
}

/// One `cargo check` of the fixture in `dir` (its dependencies checked before, untimed).
/// `incremental`: with the incremental cache of the previous run (what an edit elsewhere
/// in the crate costs); without it, every item is checked again (what a first `cargo
/// check` costs).
fn cargo_check(dir: &Path, target: &Path, incremental: bool) -> Duration {
    let status = |args: &[&str]| {
        Command::new("cargo")
            .args(args)
            .current_dir(dir)
            .env("CARGO_TARGET_DIR", target)
            .env("CARGO_INCREMENTAL", if incremental { "1" } else { "0" })
            .status()
            .unwrap()
    };
    // Touch the fixture so that only it is checked again.
    let lib = dir.join("src/lib.rs");
    let text = std::fs::read_to_string(&lib).unwrap();
    std::fs::write(&lib, text).unwrap();
    let start = Instant::now();
    let ok = status(&["check", "--quiet"]).success();
    let elapsed = start.elapsed();
    assert!(ok, "cargo check in {}", dir.display());
    elapsed
}

/// The fastest of `RUNS` checks of each fixture, the two alternating so that a slow
/// spell of a shared machine falls on both (the minimum is the least disturbed run).
/// Each fixture has a target directory of its own (both crates are `fixture`: one would
/// overwrite the other's incremental cache).
fn check_times(plain: &Path, streaming: &Path, target: &Path, incremental: bool) -> (f64, f64) {
    const RUNS: usize = 7;
    let (plain_target, streaming_target) = (target.join("deserialize"), target.join("streaming"));
    // A first check of each builds the dependencies and, incrementally, the cache.
    cargo_check(plain, &plain_target, incremental);
    cargo_check(streaming, &streaming_target, incremental);
    let (mut p, mut s) = (f64::MAX, f64::MAX);
    for _ in 0..RUNS {
        p = p.min(cargo_check(plain, &plain_target, incremental).as_secs_f64());
        s = s.min(cargo_check(streaming, &streaming_target, incremental).as_secs_f64());
    }
    (p, s)
}

/// Instructions rustc executes to check the fixture from scratch (macro expansion
/// included), counted by valgrind: the same count on every run, whatever else the machine
/// is doing. `None` without valgrind.
fn check_instructions(dir: &Path, target: &Path) -> Option<u64> {
    std::fs::create_dir_all(target).ok()?;
    let wrapper = target.join("count-instructions.sh");
    // cargo's rustc wrapper: the fixture's own check runs under callgrind, on the
    // toolchain's rustc itself (not rustup's proxy).
    std::fs::write(
        &wrapper,
        r#"#!/bin/sh
case "$*" in *"--crate-name fixture"*)
    rustc="$1"; shift
    sysroot="$("$rustc" --print sysroot)"
    LD_LIBRARY_PATH="$sysroot/lib" exec valgrind -q --tool=callgrind \
        --callgrind-out-file="$COUNT_OUT" "$sysroot/bin/rustc" "$@";;
esac
exec "$@"
"#,
    )
    .ok()?;
    Command::new("chmod")
        .arg("+x")
        .arg(&wrapper)
        .status()
        .ok()?;
    let out = target.join(format!(
        "instructions-{}.out",
        dir.file_name()?.to_string_lossy()
    ));
    let lib = dir.join("src/lib.rs");
    let text = std::fs::read_to_string(&lib).ok()?;
    std::fs::write(&lib, text).ok()?;
    let status = Command::new("cargo")
        .args(["check", "--quiet"])
        .current_dir(dir)
        .env("CARGO_TARGET_DIR", target)
        .env("CARGO_INCREMENTAL", "0")
        .env("RUSTC_WORKSPACE_WRAPPER", &wrapper)
        .env("COUNT_OUT", &out)
        .status()
        .ok()?;
    if !status.success() {
        return None;
    }
    // callgrind's output names the total: "summary: N" (or "totals: N").
    let counts = std::fs::read_to_string(&out).ok()?;
    counts
        .lines()
        .find_map(|l| l.strip_prefix("summary: ").or(l.strip_prefix("totals: ")))
        .and_then(|n| n.trim().parse().ok())
}

/// Lines of the fixture's expanded source (nightly only).
fn expanded_lines(dir: &Path, target: &Path) -> Option<usize> {
    let output = Command::new("cargo")
        .args([
            "+nightly",
            "rustc",
            "--quiet",
            "--lib",
            "--",
            "-Zunpretty=expanded",
        ])
        .current_dir(dir)
        .env("CARGO_TARGET_DIR", target.join("nightly"))
        .output()
        .ok()?;
    output
        .status
        .success()
        .then(|| String::from_utf8_lossy(&output.stdout).lines().count())
}

fn main() {
    let workspace: PathBuf = Path::new(env!("CARGO_MANIFEST_DIR")).join("..");
    let workspace = workspace.canonicalize().unwrap();
    let root = workspace.join("target/compile-budget");
    let target = root.join("target");
    let plain = root.join("deserialize");
    let streaming = root.join("streaming");
    write_crate(&plain, &workspace, false);
    write_crate(&streaming, &workspace, true);
    println!(
        "fixture: {MODELS} models, {} fields",
        MODELS * FIELDS_PER_MODEL
    );
    for (incremental, what) in [(false, "every item"), (true, "incremental, after a touch")] {
        let (p, s) = check_times(&plain, &streaming, &target, incremental);
        println!(
            "cargo check ({what}; fastest of 7): Deserialize {p:.2} s, + StreamingModel {s:.2} s: {:.2}x",
            s / p
        );
    }
    if std::env::args().any(|a| a == "--instructions") {
        let counted = target.join("instructions");
        match (
            check_instructions(&plain, &counted),
            check_instructions(&streaming, &counted),
        ) {
            (Some(p), Some(s)) => println!(
                "rustc instructions (every item, valgrind): Deserialize {:.3} G, + StreamingModel {:.3} G: {:.2}x",
                p as f64 / 1e9,
                s as f64 / 1e9,
                s as f64 / p as f64
            ),
            _ => println!("rustc instructions: needs valgrind"),
        }
    }
    match (
        expanded_lines(&plain, &target),
        expanded_lines(&streaming, &target),
    ) {
        (Some(p), Some(s)) => println!(
            "expanded lines: Deserialize {p}, + StreamingModel {s}: {:.2}x",
            s as f64 / p as f64
        ),
        _ => println!("expanded lines: needs the nightly toolchain (cargo +nightly)"),
    }
}
