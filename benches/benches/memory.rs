//! Peak heap while streaming each document size, against the document's size: a counting
//! global allocator around the system one.
//!
//! ```sh
//! cargo bench -p settled-benches --bench memory
//! ```

use settled::{DynamicStream, Options};
use settled_benches::{Doc, SIZES, document, token_chunks};
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

fn main() {
    // `cargo bench` passes `--bench`; nothing else to parse.
    println!(
        "| document | bytes | settled typed peak | ratio | settled dynamic peak | ratio | serde_json typed (whole) peak | ratio |"
    );
    println!("|---|---:|---:|---:|---:|---:|---:|---:|");
    for (label, size) in SIZES {
        let (_, text) = document(size);
        let chunks = token_chunks(&text);
        let typed = peak(|| {
            let mut stream = Doc::stream();
            for chunk in &chunks {
                let _ = stream.feed(chunk).map(Iterator::count);
            }
            std::hint::black_box(stream.finish().ok());
        });
        let dynamic = peak(|| {
            let mut stream = DynamicStream::with_options(Options::default());
            for chunk in &chunks {
                let _ = stream.feed(chunk);
            }
            std::hint::black_box(stream.finish().is_ok());
        });
        let start = text.find("```json\n").map_or(0, |i| i + 8);
        let end = text.rfind("```").unwrap_or(text.len());
        let serde = peak(|| {
            std::hint::black_box(serde_json::from_str::<Doc>(&text[start..end]).ok());
        });
        let n = text.len() as f64;
        println!(
            "| {label} | {} | {typed} | {:.2}x | {dynamic} | {:.2}x | {serde} | {:.2}x |",
            text.len(),
            typed as f64 / n,
            dynamic as f64 / n,
            serde as f64 / n
        );
    }
}
