//! A quick single-run look at the ratios the benchmarks measure (for profiling; the
//! numbers that count come from `cargo bench`).
//!
//! ```sh
//! cargo run -p settled-benches --release --bin probe -- [SIZE_BYTES] [CHUNK] [ONLY] [SHAPE]
//! ```
//!
//! `CHUNK` is a byte count or `token` (default 4); `ONLY` (`typed`, `push`, `dynamic`,
//! `scanner`; `all` or absent: every approach once, timed) runs one approach 20 times for
//! a profiler; `SHAPE` is `answer` (default) or `records`.

use settled::{DynamicStream, IgnoreSink, Options, Scanner, StreamingModel, TypedStream};
use settled_benches::{Doc, Records, fixed_chunks, json_part, text, token_chunks};
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
    let only = args.next().filter(|a| a != "all");
    let shape = args.next().unwrap_or_else(|| "answer".into());
    match shape.as_str() {
        "records" => probe::<Records>(&shape, size, &chunk, only.as_deref()),
        _ => probe::<Doc>(&shape, size, &chunk, only.as_deref()),
    }
}

fn probe<T: StreamingModel>(shape: &str, size: usize, chunk: &str, only: Option<&str>)
where
    T::Draft: Default,
{
    let text = text(shape, size);
    let json = json_part(&text);
    let chunks = match chunk {
        "token" => token_chunks(&text),
        n => fixed_chunks(&text, n.parse().unwrap_or(4)),
    };
    let runs = 5;
    if let Some(only) = only {
        // Profile one approach: run it many times.
        for _ in 0..20 {
            match only {
                "typed" => {
                    let mut stream = TypedStream::<T>::new();
                    for c in &chunks {
                        black_box(stream.feed(c).map(Iterator::count).ok());
                        black_box(stream.draft());
                    }
                    black_box(stream.finish().ok());
                }
                "push" => {
                    let mut stream = TypedStream::<T>::new();
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
                        black_box(stream.settled().count());
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
        serde_json::from_slice::<T::Value>(json.as_bytes()).ok()
    });
    let serde_value = best(runs, || {
        serde_json::from_slice::<serde_json::Value>(json.as_bytes()).unwrap()
    });
    let typed = best(runs, || {
        let mut stream = TypedStream::<T>::new();
        let mut fields = 0;
        for c in &chunks {
            fields += stream.feed(c).map(Iterator::count).unwrap_or(0);
            black_box(stream.draft());
        }
        (fields, stream.finish().ok())
    });
    let typed_push = best(runs, || {
        let mut stream = TypedStream::<T>::new();
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
            black_box(stream.settled().count());
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
    println!(
        "{shape}: {} bytes, {} chunks ({chunk})",
        text.len(),
        chunks.len()
    );
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
