//! Side by side, in one run: settled (typed, dynamic, scanner alone) against one serde_json
//! parse of the whole document, jiter's partial mode re-parsing per chunk, and the naive
//! bracket-closing re-parse, on LLM-like documents of 1 KB to 1 MB in 4-byte and
//! token-sized chunks, reading the draft after every chunk.
//!
//! ```sh
//! cargo bench -p settled-benches --bench streaming
//! cargo run -p settled-benches --release --bin report   # BENCHMARKS.md table and plot
//! ```

use criterion::{BenchmarkId, Criterion, Throughput, criterion_group, criterion_main};
use settled::{DynamicStream, IgnoreSink, Options, Scanner};
use settled_benches::{
    Doc, JiterReparse, NaiveReparse, SIZES, document, fixed_chunks, token_chunks,
};
use std::hint::black_box;
use std::time::Duration;

/// The quadratic baselines are measured up to this size (at 1 MB one run takes minutes).
const QUADRATIC_MAX: usize = 100_000;

fn streaming(c: &mut Criterion) {
    for chunking in ["4B", "token"] {
        let mut group = c.benchmark_group(format!("stream-{chunking}"));
        group
            .sample_size(10)
            .warm_up_time(Duration::from_millis(300))
            .measurement_time(Duration::from_secs(2));
        for (label, size) in SIZES {
            let (_, text) = document(size);
            let chunks = match chunking {
                "4B" => fixed_chunks(&text, 4),
                _ => token_chunks(&text),
            };
            group.throughput(Throughput::Bytes(text.len() as u64));
            group.bench_with_input(
                BenchmarkId::new("settle_typed", label),
                &chunks,
                |b, chunks| {
                    b.iter(|| {
                        let mut stream = Doc::stream();
                        let mut fields = 0usize;
                        for chunk in chunks {
                            fields += stream.feed(chunk).map(Iterator::count).unwrap_or(0);
                            black_box(stream.draft());
                        }
                        black_box(fields);
                        stream.finish().ok()
                    });
                },
            );
            group.bench_with_input(
                BenchmarkId::new("settle_dynamic", label),
                &chunks,
                |b, chunks| {
                    b.iter(|| {
                        let mut stream = DynamicStream::new();
                        for chunk in chunks {
                            let _ = stream.feed(chunk);
                            black_box(stream.draft());
                        }
                        stream.finish().is_ok()
                    });
                },
            );
            group.bench_with_input(BenchmarkId::new("scanner", label), &chunks, |b, chunks| {
                b.iter(|| {
                    let mut scanner = Scanner::new(Options::default());
                    for chunk in chunks {
                        let _ = scanner.feed(chunk, &mut IgnoreSink);
                    }
                    scanner.finish(&mut IgnoreSink).is_ok()
                });
            });
            if size <= QUADRATIC_MAX {
                group.bench_with_input(
                    BenchmarkId::new("jiter_partial", label),
                    &chunks,
                    |b, chunks| {
                        b.iter(|| {
                            let mut jiter = JiterReparse::default();
                            for chunk in chunks {
                                jiter.feed(chunk);
                            }
                            jiter.parsed
                        });
                    },
                );
                group.bench_with_input(
                    BenchmarkId::new("naive_reparse", label),
                    &chunks,
                    |b, chunks| {
                        b.iter(|| {
                            let mut naive = NaiveReparse::default();
                            for chunk in chunks {
                                naive.feed(chunk);
                            }
                            naive.value.is_some()
                        });
                    },
                );
            }
        }
        group.finish();
    }
}

fn whole(c: &mut Criterion) {
    let mut group = c.benchmark_group("whole");
    group
        .sample_size(20)
        .warm_up_time(Duration::from_millis(300))
        .measurement_time(Duration::from_secs(2));
    for (label, size) in SIZES {
        let (_, text) = document(size);
        let start = text.find("```json\n").map_or(0, |i| i + 8);
        let end = text.rfind("```").unwrap_or(text.len());
        let json = text.as_bytes()[start..end].to_vec();
        group.throughput(Throughput::Bytes(text.len() as u64));
        group.bench_with_input(BenchmarkId::new("serde_typed", label), &json, |b, json| {
            b.iter(|| serde_json::from_slice::<Doc>(json).ok());
        });
        group.bench_with_input(BenchmarkId::new("serde_value", label), &json, |b, json| {
            b.iter(|| serde_json::from_slice::<serde_json::Value>(json).ok());
        });
    }
    group.finish();
}

criterion_group!(benches, whole, streaming);
criterion_main!(benches);
