//! Peak heap while streaming each document shape and size (token chunks), against the
//! document's size and against one serde_json parse of the whole document, with what it is
//! made of (the scanner alone, the typed stream through `push`, the dynamic stream's
//! finished value): a counting global allocator around the system one. Prints the tables
//! and writes `target/criterion/memory.json` for the report binary.
//!
//! ```sh
//! cargo bench -p settled-benches --bench memory
//! ```

use settled::{DynamicStream, IgnoreSink, Options, Scanner, StreamingModel, TypedStream};
use settled_benches::{Doc, Records, SHAPES, SIZES, json_part, target_dir, text, token_chunks};
use std::alloc::{GlobalAlloc, Layout, System};
use std::sync::atomic::{AtomicUsize, Ordering};

struct Counting;

static CURRENT: AtomicUsize = AtomicUsize::new(0);
static PEAK: AtomicUsize = AtomicUsize::new(0);

// SAFETY of the delegation is the system allocator's; this only counts bytes.
#[allow(unsafe_code)]
unsafe impl GlobalAlloc for Counting {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        let now = CURRENT.fetch_add(layout.size(), Ordering::Relaxed) + layout.size();
        PEAK.fetch_max(now, Ordering::Relaxed);
        // SAFETY: forwarded unchanged to the system allocator.
        unsafe { System.alloc(layout) }
    }
    unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
        CURRENT.fetch_sub(layout.size(), Ordering::Relaxed);
        // SAFETY: forwarded unchanged to the system allocator.
        unsafe { System.dealloc(ptr, layout) }
    }
}

#[global_allocator]
static ALLOCATOR: Counting = Counting;

/// Peak bytes allocated by `f` above what was live before it.
fn peak(f: impl FnOnce()) -> usize {
    let base = CURRENT.load(Ordering::Relaxed);
    PEAK.store(base, Ordering::Relaxed);
    f();
    PEAK.load(Ordering::Relaxed) - base
}

/// Bytes still held by what `f` returns.
fn held<R>(f: impl FnOnce() -> R) -> usize {
    let base = CURRENT.load(Ordering::Relaxed);
    let kept = f();
    let live = CURRENT.load(Ordering::Relaxed).saturating_sub(base);
    drop(kept);
    live
}

/// What is measured, in the order of the columns.
const COLUMNS: [(&str, &str); 7] = [
    ("scanner", "scanner alone peak"),
    ("settled_push", "settled push peak"),
    ("settled_typed", "settled typed peak"),
    ("settled_dynamic", "settled dynamic peak"),
    ("dynamic_value", "dynamic's finished value"),
    ("serde_typed", "serde typed (whole) peak"),
    ("serde_value", "serde Value (whole) peak"),
];

/// The measurements of `COLUMNS` on a document of `shape`, per size.
fn measure<T>(shape: &str) -> Vec<(&'static str, usize, [usize; 7])>
where
    T: StreamingModel + serde::de::DeserializeOwned,
    T::Draft: Default,
{
    let mut rows = Vec::new();
    for (label, size) in SIZES {
        let text = text(shape, size);
        let chunks = token_chunks(&text);
        let scanner = peak(|| {
            let mut scanner = Scanner::new(Options::default());
            for chunk in &chunks {
                let _ = scanner.feed(chunk, &mut IgnoreSink);
            }
            std::hint::black_box(scanner.finish(&mut IgnoreSink).is_ok());
        });
        let push = peak(|| {
            let mut stream = TypedStream::<T>::new();
            for chunk in &chunks {
                let _ = stream.push(chunk);
            }
            std::hint::black_box(stream.finish().ok());
        });
        let typed = peak(|| {
            let mut stream = TypedStream::<T>::new();
            for chunk in &chunks {
                let _ = stream.feed(chunk).map(Iterator::count);
            }
            std::hint::black_box(stream.finish().ok());
        });
        let dynamic_stream = || {
            let mut stream = DynamicStream::with_options(Options::default());
            for chunk in &chunks {
                let _ = stream.feed(chunk);
            }
            stream.finish().ok()
        };
        let dynamic = peak(|| {
            std::hint::black_box(dynamic_stream());
        });
        let dynamic_value = held(dynamic_stream);
        let json = json_part(&text);
        let serde_typed = peak(|| {
            std::hint::black_box(serde_json::from_str::<T>(json).ok());
        });
        let serde_value = peak(|| {
            std::hint::black_box(serde_json::from_str::<serde_json::Value>(json).ok());
        });
        rows.push((
            label,
            text.len(),
            [
                scanner,
                push,
                typed,
                dynamic,
                dynamic_value,
                serde_typed,
                serde_value,
            ],
        ));
    }
    rows
}

fn main() {
    // `cargo bench` passes `--bench`; nothing else to parse.
    let mut results = serde_json::Map::new();
    for shape in SHAPES {
        let rows = match shape {
            "records" => measure::<Records>(shape),
            _ => measure::<Doc>(shape),
        };
        println!("\n{shape}: bytes, and their ratio to the document's size\n");
        let names: Vec<&str> = COLUMNS.iter().map(|(_, title)| *title).collect();
        println!("| document | bytes | {} |", names.join(" | "));
        println!("|---|---:|{}", "---:|".repeat(COLUMNS.len()));
        let mut sizes = serde_json::Map::new();
        for (label, bytes, measured) in rows {
            let n = bytes as f64;
            let cells: Vec<String> = measured
                .iter()
                .map(|m| format!("{m} ({:.2}x)", *m as f64 / n))
                .collect();
            println!("| {label} | {bytes} | {} |", cells.join(" | "));
            let mut row = serde_json::Map::new();
            row.insert("bytes".into(), bytes.into());
            for ((key, _), m) in COLUMNS.iter().zip(measured) {
                row.insert((*key).into(), m.into());
            }
            sizes.insert(label.to_string(), row.into());
        }
        results.insert(shape.to_string(), sizes.into());
    }
    // For the report binary, beside criterion's results.
    let dir = target_dir().join("criterion");
    let written = std::fs::create_dir_all(&dir).and_then(|()| {
        let json = serde_json::to_string_pretty(&results).unwrap_or_default();
        std::fs::write(dir.join("memory.json"), json)
    });
    match written {
        Ok(()) => println!("\nwritten to {}", dir.join("memory.json").display()),
        Err(e) => eprintln!("cannot write {}: {e}", dir.join("memory.json").display()),
    }
}
