//! Turns criterion's output into BENCHMARKS.md's tables and the log-log plot.
//!
//! ```sh
//! cargo bench -p settled-benches --bench streaming
//! cargo run -p settled-benches --release --bin report
//! ```
//!
//! Reads `target/criterion/{group}/{approach}/{size}/new/estimates.json`, rewrites the
//! part of `BENCHMARKS.md` between the `<!-- results -->` markers and writes
//! `benchmarks.svg`.

use settled_benches::{SIZES, document};
use std::collections::BTreeMap;
use std::fmt::Write as _;
use std::path::Path;

const STREAMING: [&str; 5] = [
    "settle_typed",
    "settle_dynamic",
    "scanner",
    "jiter_partial",
    "naive_reparse",
];
const COLORS: [&str; 7] = [
    "#1b7837", "#5aae61", "#a6dba0", "#d6604d", "#b2182b", "#2166ac", "#92c5de",
];

/// Mean time in seconds of one benchmark, if it ran.
fn mean(root: &Path, group: &str, approach: &str, size: &str) -> Option<f64> {
    let path = root
        .join(group)
        .join(approach)
        .join(size)
        .join("new/estimates.json");
    let text = std::fs::read_to_string(path).ok()?;
    let value: serde_json::Value = serde_json::from_str(&text).ok()?;
    value["mean"]["point_estimate"].as_f64().map(|ns| ns / 1e9)
}

fn fmt_time(s: f64) -> String {
    if s >= 1.0 {
        format!("{s:.2} s")
    } else if s >= 1e-3 {
        format!("{:.2} ms", s * 1e3)
    } else {
        format!("{:.1} µs", s * 1e6)
    }
}

fn main() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("../target/criterion");
    let bytes: Vec<usize> = SIZES.iter().map(|(_, n)| document(*n).1.len()).collect();
    // (group, approach) -> size label -> seconds
    let mut data: BTreeMap<(String, String), BTreeMap<&str, f64>> = BTreeMap::new();
    for (label, _) in SIZES {
        for approach in ["serde_typed", "serde_value"] {
            if let Some(t) = mean(&root, "whole", approach, label) {
                data.entry(("whole".into(), approach.into()))
                    .or_default()
                    .insert(label, t);
            }
        }
        for group in ["stream-4B", "stream-token"] {
            for approach in STREAMING {
                if let Some(t) = mean(&root, group, approach, label) {
                    data.entry((group.into(), approach.into()))
                        .or_default()
                        .insert(label, t);
                }
            }
        }
    }
    let serde = data
        .get(&("whole".to_string(), "serde_typed".to_string()))
        .cloned()
        .unwrap_or_default();

    let mut md = String::new();
    let header: Vec<String> = SIZES
        .iter()
        .zip(&bytes)
        .map(|((l, _), b)| format!("{l} ({b} B)"))
        .collect();
    for group in ["stream-4B", "stream-token"] {
        let chunks = if group == "stream-4B" {
            "4-byte chunks"
        } else {
            "token-sized chunks"
        };
        let _ = writeln!(
            md,
            "\n#### {chunks}: total time, and ratio to one `serde_json::from_slice` into the typed model\n"
        );
        let _ = writeln!(md, "| approach | {} |", header.join(" | "));
        let _ = writeln!(md, "|---|{}|", vec!["---:"; SIZES.len()].join("|"));
        for approach in STREAMING {
            let Some(times) = data.get(&(group.to_string(), approach.to_string())) else {
                continue;
            };
            let cells: Vec<String> = SIZES
                .iter()
                .map(|(l, _)| match (times.get(l), serde.get(l)) {
                    (Some(t), Some(s)) => format!("{} ({:.1}×)", fmt_time(*t), t / s),
                    (Some(t), None) => fmt_time(*t),
                    _ => "not run".into(),
                })
                .collect();
            let _ = writeln!(md, "| {approach} | {} |", cells.join(" | "));
        }
    }
    let _ = writeln!(
        md,
        "\n#### One parse of the whole document (no streaming)\n"
    );
    let _ = writeln!(md, "| approach | {} |", header.join(" | "));
    let _ = writeln!(md, "|---|{}|", vec!["---:"; SIZES.len()].join("|"));
    for approach in ["serde_typed", "serde_value"] {
        if let Some(times) = data.get(&("whole".to_string(), approach.to_string())) {
            let cells: Vec<String> = SIZES
                .iter()
                .map(|(l, _)| times.get(l).map_or("not run".into(), |t| fmt_time(*t)))
                .collect();
            let _ = writeln!(md, "| {approach} | {} |", cells.join(" | "));
        }
    }
    let _ = writeln!(
        md,
        "\n#### Scaling: time per byte at the smallest and largest size measured\n"
    );
    let _ = writeln!(
        md,
        "| approach | chunks | ns/byte (small) | ns/byte (large) | large / small | ns/byte 10KB → 1MB |"
    );
    let _ = writeln!(md, "|---|---|---:|---:|---:|---:|");
    for ((group, approach), times) in &data {
        let per: Vec<(usize, f64)> = SIZES
            .iter()
            .zip(&bytes)
            .filter_map(|((l, _), b)| times.get(l).map(|t| (*b, t * 1e9 / *b as f64)))
            .collect();
        if let (Some(first), Some(last)) = (per.first(), per.last()) {
            let mid = per.iter().find(|(b, _)| *b >= 10_000).map(|(_, x)| *x);
            let flat = match (mid, per.iter().find(|(b, _)| *b >= 1_000_000)) {
                (Some(m), Some((_, l))) => format!("{:.2}×", l / m),
                _ => "—".into(),
            };
            let chunks = group.trim_start_matches("stream-");
            let _ = writeln!(
                md,
                "| {approach} | {chunks} | {:.1} ({} B) | {:.1} ({} B) | {:.1}× | {flat} |",
                first.1,
                first.0,
                last.1,
                last.0,
                last.1 / first.1
            );
        }
    }

    // The plot: log-log total time against document size.
    let (w, h, left, bottom, top, right) = (760.0, 480.0, 70.0, 50.0, 20.0, 200.0);
    let (xmin, xmax) = (1e3f64.log10(), 2e6f64.log10());
    let all: Vec<f64> = data.values().flat_map(|m| m.values().copied()).collect();
    let ymin = all.iter().copied().fold(f64::MAX, f64::min).log10().floor();
    let ymax = all.iter().copied().fold(f64::MIN, f64::max).log10().ceil();
    let x = |b: f64| left + (b.log10() - xmin) / (xmax - xmin) * (w - left - right);
    let y = |t: f64| h - bottom - (t.log10() - ymin) / (ymax - ymin) * (h - top - bottom);
    let mut svg = String::new();
    let _ = writeln!(
        svg,
        r#"<svg xmlns="http://www.w3.org/2000/svg" width="{w}" height="{h}" font-family="sans-serif" font-size="12">"#
    );
    let _ = writeln!(svg, r#"<rect width="{w}" height="{h}" fill="white"/>"#);
    for e in (xmin.ceil() as i32)..=(xmax.floor() as i32) {
        let px = x(10f64.powi(e));
        let _ = writeln!(
            svg,
            r##"<line x1="{px}" y1="{top}" x2="{px}" y2="{}" stroke="#ddd"/><text x="{px}" y="{}" text-anchor="middle">1e{e} B</text>"##,
            h - bottom,
            h - bottom + 18.0
        );
    }
    for e in (ymin as i32)..=(ymax as i32) {
        let py = y(10f64.powi(e));
        let _ = writeln!(
            svg,
            r##"<line x1="{left}" y1="{py}" x2="{}" y2="{py}" stroke="#ddd"/><text x="{}" y="{}" text-anchor="end">1e{e} s</text>"##,
            w - right,
            left - 6.0,
            py + 4.0
        );
    }
    let _ = writeln!(
        svg,
        r#"<text x="{}" y="{}" text-anchor="middle">document size (bytes), log scale</text>"#,
        (left + w - right) / 2.0,
        h - 12.0
    );
    let mut legend_y = top + 10.0;
    for (i, ((group, approach), times)) in data.iter().enumerate() {
        let color = COLORS[i % COLORS.len()];
        let dash = if group == "stream-token" {
            r#" stroke-dasharray="5,3""#
        } else {
            ""
        };
        let points: Vec<String> = SIZES
            .iter()
            .zip(&bytes)
            .filter_map(|((l, _), b)| {
                times
                    .get(l)
                    .map(|t| format!("{:.1},{:.1}", x(*b as f64), y(*t)))
            })
            .collect();
        let _ = writeln!(
            svg,
            r#"<polyline fill="none" stroke="{color}" stroke-width="2"{dash} points="{}"/>"#,
            points.join(" ")
        );
        let label = format!("{approach} ({})", group.trim_start_matches("stream-"));
        let _ = writeln!(
            svg,
            r#"<line x1="{}" y1="{legend_y}" x2="{}" y2="{legend_y}" stroke="{color}" stroke-width="2"{dash}/><text x="{}" y="{}">{label}</text>"#,
            w - right + 10.0,
            w - right + 34.0,
            w - right + 38.0,
            legend_y + 4.0
        );
        legend_y += 16.0;
    }
    let _ = writeln!(svg, "</svg>");

    let repo = Path::new(env!("CARGO_MANIFEST_DIR")).join("..");
    if let Err(e) = std::fs::write(repo.join("benchmarks.svg"), svg) {
        eprintln!("cannot write benchmarks.svg: {e}");
    }
    let doc_path = repo.join("BENCHMARKS.md");
    let doc = std::fs::read_to_string(&doc_path).unwrap_or_default();
    let (open, close) = ("<!-- results -->", "<!-- /results -->");
    match (doc.find(open), doc.find(close)) {
        (Some(a), Some(b)) if a < b => {
            let updated = format!("{}{open}\n{md}\n{}", &doc[..a], &doc[b..]);
            if let Err(e) = std::fs::write(&doc_path, updated) {
                eprintln!("cannot write BENCHMARKS.md: {e}");
            }
        }
        _ => println!("{md}"),
    }
}
