//! Side by side, in one run: settled (typed, typed draft-only, dynamic, the scanner alone)
//! against one serde_json parse of the whole document, jiter's partial mode re-parsing per
//! chunk, and the naive bracket-closing re-parse, on two document shapes (an LLM answer
//! around pretty-printed JSON, compact records as tool-call arguments) of 1 KB to 10 MB in
//! 4-byte and token-sized chunks, reading the draft after every chunk; and what one
//! request's stream costs (a whole 1 KB document through a `TypedStream`).
//!
//! ```sh
//! cargo bench -p settled-benches --bench streaming
//! cargo run -p settled-benches --release --bin report   # BENCHMARKS.md tables and plot
//! ```

use criterion::{BenchmarkId, Criterion, Throughput, criterion_group, criterion_main};
use serde::de::DeserializeOwned;
use settled::{DynamicStream, IgnoreSink, Options, Scanner, StreamingModel, TypedStream};
use settled_benches::{
    Doc, JiterReparse, NaiveReparse, QUADRATIC_MAX, Records, SIZES, fixed_chunks, json_part, text,
    token_chunks,
};
use std::hint::black_box;
use std::time::Duration;

/// Every chunk through `feed`, the fields counted and the draft read after each.
fn typed_feed<T: StreamingModel>(chunks: &[&[u8]]) -> Option<T::Value>
where
    T::Draft: Default,
{
    let mut stream = TypedStream::<T>::new();
    let mut fields = 0usize;
    for chunk in chunks {
        fields += stream.feed(chunk).map(Iterator::count).unwrap_or(0);
        black_box(stream.draft());
    }
    black_box(fields);
    stream.finish().ok()
}

/// Every chunk through `push` (the draft only, no fields built), the draft read after each.
fn typed_push<T: StreamingModel>(chunks: &[&[u8]]) -> Option<T::Value>
where
    T::Draft: Default,
{
    let mut stream = TypedStream::<T>::new();
    for chunk in chunks {
        let _ = stream.push(chunk);
        black_box(stream.draft());
    }
    stream.finish().ok()
}

fn streaming_shape<T: StreamingModel>(c: &mut Criterion, shape: &str)
where
    T::Draft: Default,
{
    for chunking in ["4B", "token"] {
        let mut group = c.benchmark_group(format!("{shape}-{chunking}"));
        group
            .sample_size(10)
            .warm_up_time(Duration::from_millis(300))
            .measurement_time(Duration::from_millis(1500));
        for (label, size) in SIZES {
            let text = text(shape, size);
            let chunks = match chunking {
                "4B" => fixed_chunks(&text, 4),
                _ => token_chunks(&text),
            };
            group.throughput(Throughput::Bytes(text.len() as u64));
            group.bench_with_input(
                BenchmarkId::new("settled_typed", label),
                &chunks,
                |b, chunks| b.iter(|| typed_feed::<T>(chunks)),
            );
            group.bench_with_input(
                BenchmarkId::new("settled_push", label),
                &chunks,
                |b, chunks| b.iter(|| typed_push::<T>(chunks)),
            );
            group.bench_with_input(
                BenchmarkId::new("settled_dynamic", label),
                &chunks,
                |b, chunks| {
                    b.iter(|| {
                        let mut stream = DynamicStream::new();
                        let mut settled = 0usize;
                        for chunk in chunks {
                            let _ = stream.feed(chunk);
                            settled += stream.settled().count();
                            black_box(stream.draft());
                        }
                        black_box(settled);
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

fn whole_shape<T: DeserializeOwned>(c: &mut Criterion, shape: &str) {
    let mut group = c.benchmark_group(format!("{shape}-whole"));
    group
        .sample_size(20)
        .warm_up_time(Duration::from_millis(300))
        .measurement_time(Duration::from_millis(1500));
    for (label, size) in SIZES {
        let text = text(shape, size);
        let json = json_part(&text).as_bytes().to_vec();
        group.throughput(Throughput::Bytes(text.len() as u64));
        group.bench_with_input(BenchmarkId::new("serde_typed", label), &json, |b, json| {
            b.iter(|| serde_json::from_slice::<T>(json).ok());
        });
        group.bench_with_input(BenchmarkId::new("serde_value", label), &json, |b, json| {
            b.iter(|| serde_json::from_slice::<serde_json::Value>(json).ok());
        });
    }
    group.finish();
}

/// What a server pays per request: a new `TypedStream`, a whole 1 KB document fed in token
/// chunks, `finish`.
fn per_stream_shape<T: StreamingModel>(c: &mut Criterion, shape: &str)
where
    T::Draft: Default,
{
    let mut group = c.benchmark_group("per-stream");
    group
        .sample_size(50)
        .warm_up_time(Duration::from_millis(300))
        .measurement_time(Duration::from_secs(2));
    let text = text(shape, SIZES[0].1);
    let chunks = token_chunks(&text);
    group.throughput(Throughput::Bytes(text.len() as u64));
    group.bench_with_input(
        BenchmarkId::new("typed_1KB", shape),
        &chunks,
        |b, chunks| {
            b.iter(|| {
                let mut stream = TypedStream::<T>::new();
                for chunk in chunks {
                    black_box(stream.feed(chunk).map(Iterator::count).ok());
                }
                stream.finish().ok()
            });
        },
    );
    group.bench_function(BenchmarkId::new("typed_empty", shape), |b| {
        b.iter(|| TypedStream::<T>::new().finish().is_ok());
    });
    group.finish();
}

fn whole(c: &mut Criterion) {
    whole_shape::<Doc>(c, "answer");
    whole_shape::<Records>(c, "records");
}

fn per_stream(c: &mut Criterion) {
    per_stream_shape::<Doc>(c, "answer");
    per_stream_shape::<Records>(c, "records");
}

fn streaming(c: &mut Criterion) {
    streaming_shape::<Doc>(c, "answer");
    streaming_shape::<Records>(c, "records");
}

criterion_group!(benches, whole, per_stream, streaming);
criterion_main!(benches);
