//! A quick single-run look at the ratios the benchmarks measure (for profiling; the
//! numbers that count come from `cargo bench`).
//!
//! ```sh
//! cargo run -p settled-benches --release --bin probe -- [SIZE_BYTES] [CHUNK]
//! ```

use settled::{DynamicStream, IgnoreSink, Options, Scanner};
use settled_benches::{Doc, document, fixed_chunks, token_chunks};
use std::hint::black_box;
use std::time::Instant;

fn best<R>(runs: usize, mut f: impl FnMut() -> R) -> f64 {
    (0..runs)
        .map(|_| {
            let start = Instant::now();
            black_box(f());
            start.elapsed().as_secs_f64()
        })
        .fold(f64::INFINITY, f64::min)
}

fn main() {
    let mut args = std::env::args().skip(1);
    let size: usize = args
        .next()
        .and_then(|a| a.parse().ok())
        .unwrap_or(1_000_000);
    let chunk = args.next().unwrap_or_else(|| "4".into());
    let (doc, text) = document(size);
    let json = serde_json::to_string_pretty(&doc).unwrap();
    let chunks = match chunk.as_str() {
        "token" => token_chunks(&text),
        n => fixed_chunks(&text, n.parse().unwrap_or(4)),
    };
    let runs = 5;
    if let Some(only) = args.next() {
        // Profile one approach: run it many times.
        for _ in 0..20 {
            match only.as_str() {
                "typed" => {
                    let mut stream = Doc::stream();
                    for c in &chunks {
                        black_box(stream.feed(c).map(Iterator::count).ok());
                        black_box(stream.draft());
                    }
                    black_box(stream.finish().ok());
                }
                "push" => {
                    let mut stream = Doc::stream();
                    for c in &chunks {
                        black_box(stream.push(c).ok());
                        black_box(stream.draft());
                    }
                    black_box(stream.finish().ok());
                }
                "dynamic" => {
                    let mut stream = DynamicStream::new();
                    for c in &chunks {
                        let _ = stream.feed(c);
                        black_box(stream.draft());
                    }
                    black_box(stream.finish().ok());
                }
                _ => {
                    let mut scanner = Scanner::new(Options::default());
                    for c in &chunks {
                        let _ = scanner.feed(c, &mut IgnoreSink);
                    }
                    black_box(scanner.finish(&mut IgnoreSink).ok());
                }
            }
        }
        return;
    }
    let serde_typed = best(runs, || {
        serde_json::from_slice::<Doc>(json.as_bytes()).unwrap()
    });
    let serde_value = best(runs, || {
        serde_json::from_slice::<serde_json::Value>(json.as_bytes()).unwrap()
    });
    let typed = best(runs, || {
        let mut stream = Doc::stream();
        let mut fields = 0;
        for c in &chunks {
            fields += stream.feed(c).map(Iterator::count).unwrap_or(0);
            black_box(stream.draft());
        }
        (fields, stream.finish().ok())
    });
    let typed_push = best(runs, || {
        let mut stream = Doc::stream();
        for c in &chunks {
            let _ = stream.push(c);
            black_box(stream.draft());
        }
        stream.finish().ok()
    });
    let dynamic = best(runs, || {
        let mut stream = DynamicStream::new();
        for c in &chunks {
            let _ = stream.feed(c);
            black_box(stream.draft());
        }
        stream.finish().ok().map(|v| v.root().is_some())
    });
    let scanner = best(runs, || {
        let mut scanner = Scanner::new(Options::default());
        for c in &chunks {
            let _ = scanner.feed(c, &mut IgnoreSink);
        }
        scanner.finish(&mut IgnoreSink).is_ok()
    });
    println!("{} bytes, {} chunks ({chunk})", text.len(), chunks.len());
    println!("serde typed  {:8.2} ms", serde_typed * 1e3);
    println!("serde Value  {:8.2} ms", serde_value * 1e3);
    println!(
        "typed stream {:8.2} ms  {:.2}x typed",
        typed * 1e3,
        typed / serde_typed
    );
    println!(
        "typed push   {:8.2} ms  {:.2}x typed",
        typed_push * 1e3,
        typed_push / serde_typed
    );
    println!(
        "dynamic      {:8.2} ms  {:.2}x Value",
        dynamic * 1e3,
        dynamic / serde_value
    );
    println!(
        "scanner      {:8.2} ms  {:.2}x typed",
        scanner * 1e3,
        scanner / serde_typed
    );
}
