//! Turns the benchmarks' output into BENCHMARKS.md's tables, its targets table and the
//! log-log plot.
//!
//! ```sh
//! cargo bench -p settled-benches --bench streaming
//! cargo bench -p settled-benches --bench memory
//! cargo run -p settled-benches --release --bin report
//! ```
//!
//! Reads `target/criterion/{group}/{approach}/{size}/new/estimates.json` (criterion's) and
//! `target/criterion/memory.json` (the memory benchmark's), rewrites the parts of
//! `BENCHMARKS.md` between the `<!-- results -->` and the `<!-- targets -->` markers and
//! writes `benchmarks.svg`. `$CARGO_TARGET_DIR` is honoured as criterion honours it.

use settled_benches::{SHAPES, SIZES, target_dir, text};
use std::collections::BTreeMap;
use std::fmt::Write as _;
use std::path::Path;

const STREAMING: [&str; 6] = [
    "settled_typed",
    "settled_push",
    "settled_dynamic",
    "scanner",
    "jiter_partial",
    "naive_reparse",
];
const WHOLE: [&str; 2] = ["serde_typed", "serde_value"];
const LINEAR: [&str; 4] = [
    "settled_typed",
    "settled_push",
    "settled_dynamic",
    "scanner",
];
/// The memory benchmark's measurements, in its order.
const MEMORY: [&str; 7] = [
    "scanner",
    "settled_push",
    "settled_typed",
    "settled_dynamic",
    "dynamic_value",
    "serde_typed",
    "serde_value",
];
const CHUNKINGS: [(&str, &str); 2] = [("4B", "4-byte chunks"), ("token", "token-sized chunks")];
const COLORS: [&str; 8] = [
    "#1b7837", "#7fbc41", "#5aae61", "#a6dba0", "#d6604d", "#b2182b", "#2166ac", "#92c5de",
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

fn fmt_bytes(n: f64) -> String {
    if n >= 1e6 {
        format!("{:.2} MB", n / 1e6)
    } else {
        format!("{:.1} KB", n / 1e3)
    }
}

fn fmt_ratio(r: f64) -> String {
    if r >= 1000.0 {
        let n = r.round() as u64;
        format!("{},{:03}×", n / 1000, n % 1000)
    } else if r >= 100.0 {
        format!("{r:.0}×")
    } else {
        format!("{r:.2}×")
    }
}

fn verdict(ok: bool) -> &'static str {
    if ok { "**met**" } else { "**not met**" }
}

/// Every measurement: (group, approach, size label) -> seconds; and each document's size.
struct Times(
    BTreeMap<(String, String, String), f64>,
    BTreeMap<&'static str, Vec<usize>>,
);

impl Times {
    fn load(root: &Path) -> Self {
        let mut times = BTreeMap::new();
        let mut add = |group: String, approach: &str, label: &str| {
            if let Some(t) = mean(root, &group, approach, label) {
                times.insert((group, approach.to_string(), label.to_string()), t);
            }
        };
        for shape in SHAPES {
            for (label, _) in SIZES {
                for approach in WHOLE {
                    add(format!("{shape}-whole"), approach, label);
                }
                for (chunking, _) in CHUNKINGS {
                    for approach in STREAMING {
                        add(format!("{shape}-{chunking}"), approach, label);
                    }
                }
            }
            for approach in ["typed_1KB", "typed_empty"] {
                add("per-stream".into(), approach, shape);
            }
        }
        let bytes = SHAPES
            .iter()
            .map(|s| (*s, SIZES.iter().map(|(_, n)| text(s, *n).len()).collect()))
            .collect();
        Times(times, bytes)
    }

    /// The sizes in bytes of a shape's documents, in the order of [`SIZES`].
    fn bytes(&self, shape: &str) -> &[usize] {
        self.1.get(shape).map_or(&[], Vec::as_slice)
    }

    fn get(&self, group: &str, approach: &str, label: &str) -> Option<f64> {
        self.0
            .get(&(group.to_string(), approach.to_string(), label.to_string()))
            .copied()
    }
}

/// Peak heap per shape, size label and approach, from the memory benchmark.
fn load_memory(root: &Path) -> serde_json::Value {
    std::fs::read_to_string(root.join("memory.json"))
        .ok()
        .and_then(|t| serde_json::from_str(&t).ok())
        .unwrap_or_default()
}

fn header(bytes: &[usize]) -> String {
    let cells: Vec<String> = SIZES
        .iter()
        .zip(bytes)
        .map(|((l, _), b)| format!("{l} ({b} B)"))
        .collect();
    format!(
        "| approach | {} |\n|---|{}|",
        cells.join(" | "),
        vec!["---:"; SIZES.len()].join("|")
    )
}

fn shape_tables(md: &mut String, times: &Times, memory: &serde_json::Value, shape: &str) {
    let bytes = times.bytes(shape);
    let whole = format!("{shape}-whole");
    let _ = writeln!(md, "\n### Shape `{shape}`");
    for (chunking, title) in CHUNKINGS {
        let group = format!("{shape}-{chunking}");
        let _ = writeln!(
            md,
            "\n#### {title}: total time, and ratio to one typed `serde_json::from_slice`\n"
        );
        let _ = writeln!(md, "{}", header(bytes));
        for approach in STREAMING {
            let cells: Vec<String> = SIZES
                .iter()
                .map(|(l, _)| {
                    match (
                        times.get(&group, approach, l),
                        times.get(&whole, "serde_typed", l),
                    ) {
                        (Some(t), Some(s)) => format!("{} ({:.1}×)", fmt_time(t), t / s),
                        (Some(t), None) => fmt_time(t),
                        _ => "not run".into(),
                    }
                })
                .collect();
            let _ = writeln!(md, "| {approach} | {} |", cells.join(" | "));
        }
    }
    let _ = writeln!(
        md,
        "\n#### One parse of the whole document (no streaming)\n"
    );
    let _ = writeln!(md, "{}", header(bytes));
    for approach in WHOLE {
        let cells: Vec<String> = SIZES
            .iter()
            .map(|(l, _)| {
                times
                    .get(&whole, approach, l)
                    .map_or("not run".into(), fmt_time)
            })
            .collect();
        let _ = writeln!(md, "| {approach} | {} |", cells.join(" | "));
    }

    let _ = writeln!(md, "\n#### Time per byte (ns)\n");
    let labels: Vec<&str> = SIZES.iter().map(|(l, _)| *l).collect();
    let _ = writeln!(
        md,
        "| approach | chunks | {} | 10MB / 10KB |\n|---|---|{}---:|",
        labels.join(" | "),
        "---:|".repeat(SIZES.len())
    );
    let mut rows: Vec<(String, &str, &str)> = Vec::new();
    for (chunking, _) in CHUNKINGS {
        for approach in STREAMING {
            rows.push((format!("{shape}-{chunking}"), approach, chunking));
        }
    }
    for approach in WHOLE {
        rows.push((whole.clone(), approach, "whole"));
    }
    for (group, approach, chunking) in &rows {
        let per = |i: usize| {
            times
                .get(group, approach, labels[i])
                .map(|t| t * 1e9 / bytes[i] as f64)
        };
        let cells: Vec<String> = (0..SIZES.len())
            .map(|i| per(i).map_or("—".into(), |x| format!("{x:.1}")))
            .collect();
        let flat = match (per(1), per(SIZES.len() - 1)) {
            (Some(a), Some(b)) => format!("{:.2}×", b / a),
            _ => "—".into(),
        };
        let _ = writeln!(
            md,
            "| {approach} | {chunking} | {} | {flat} |",
            cells.join(" | ")
        );
    }

    let _ = writeln!(
        md,
        "\n#### Heap in token chunks (peak, except the dynamic stream's finished value), and its ratio to the document's size\n"
    );
    let _ = writeln!(
        md,
        "| document | bytes | {} |\n|---|---:|{}",
        MEMORY.join(" | "),
        "---:|".repeat(MEMORY.len())
    );
    for (label, _) in SIZES {
        let row = &memory[shape][label];
        let Some(n) = row["bytes"].as_f64() else {
            continue;
        };
        let cells: Vec<String> = MEMORY
            .iter()
            .map(|k| {
                row[*k].as_f64().map_or("—".into(), |p| {
                    format!("{} ({:.2}×)", fmt_bytes(p), p / n)
                })
            })
            .collect();
        let _ = writeln!(md, "| {label} | {n} | {} |", cells.join(" | "));
    }
}

fn per_stream_table(md: &mut String, times: &Times) {
    let _ = writeln!(
        md,
        "\n### Per stream: a whole 1 KB document through a `TypedStream` (new, `feed` in token chunks, `finish`)\n"
    );
    let _ = writeln!(
        md,
        "| shape | bytes | per stream | one typed `from_slice` | ratio | an empty stream (new, finish) |\n|---|---:|---:|---:|---:|---:|"
    );
    for shape in SHAPES {
        let bytes = times.bytes(shape)[0];
        let stream = times.get("per-stream", "typed_1KB", shape);
        let empty = times.get("per-stream", "typed_empty", shape);
        let serde = times.get(&format!("{shape}-whole"), "serde_typed", SIZES[0].0);
        let cell = |t: Option<f64>| t.map_or("—".into(), fmt_time);
        let ratio = match (stream, serde) {
            (Some(a), Some(b)) => format!("{:.1}×", a / b),
            _ => "—".into(),
        };
        let _ = writeln!(
            md,
            "| {shape} | {bytes} | {} | {} | {ratio} | {} |",
            cell(stream),
            cell(serde),
            cell(empty)
        );
    }
}

/// The targets table: a row per target, a cell per shape.
fn targets(times: &Times, memory: &serde_json::Value) -> String {
    let t = |shape: &str, group: &str, approach: &str, label: &str| {
        times.get(&format!("{shape}-{group}"), approach, label)
    };
    let ratio_row = |shape: &str, group: &str, approach: &str, base: &str, max: f64| {
        let a = t(shape, group, approach, "1MB")?;
        let b = t(shape, "whole", base, "1MB")?;
        Some(format!(
            "{} {} ({} vs {})",
            verdict(a / b <= max),
            fmt_ratio(a / b),
            fmt_time(a),
            fmt_time(b)
        ))
    };
    let mem = |shape: &str, label: &str, key: &str| memory[shape][label][key].as_f64();
    let mut md = format!(
        "| target | {} |\n|---|{}\n",
        SHAPES.join(" | "),
        "---|".repeat(SHAPES.len())
    );
    let mut row = |name: &str, f: &dyn Fn(&str) -> Option<String>| {
        let cells = SHAPES.map(|s| f(s).unwrap_or_else(|| "not measured".into()));
        let _ = writeln!(md, "| {name} | {} |", cells.join(" | "));
    };
    row(
        "settled typed, 1 MB, 4-byte chunks, draft read per chunk ≤ 3× one typed `from_slice`",
        &|s| ratio_row(s, "4B", "settled_typed", "serde_typed", 3.0),
    );
    row(
        "settled typed, 1 MB, token chunks, draft read per chunk ≤ 2.5× one typed `from_slice`",
        &|s| ratio_row(s, "token", "settled_typed", "serde_typed", 2.5),
    );
    row(
        "settled dynamic, 1 MB, 4-byte chunks, draft read per chunk ≤ 3× one `from_slice::<Value>`",
        &|s| ratio_row(s, "4B", "settled_dynamic", "serde_value", 3.0),
    );
    row(
        "peak memory, settled typed ≤ 3× the document (1 MB; 10 MB)",
        &|s| {
            let r: Vec<f64> = ["1MB", "10MB"]
                .iter()
                .map(|l| Some(mem(s, l, "settled_typed")? / mem(s, l, "bytes")?))
                .collect::<Option<_>>()?;
            Some(format!(
                "{} {:.2}×; {:.2}×",
                verdict(r.iter().all(|x| *x <= 3.0)),
                r[0],
                r[1]
            ))
        },
    );
    row(
        "peak memory, settled dynamic ≤ one `from_slice::<Value>`'s (1 MB; 10 MB)",
        &|s| {
            let r: Vec<f64> = ["1MB", "10MB"]
                .iter()
                .map(|l| Some(mem(s, l, "settled_dynamic")? / mem(s, l, "serde_value")?))
                .collect::<Option<_>>()?;
            Some(format!(
                "{} {:.2}×; {:.2}× of Value's",
                verdict(r.iter().all(|x| *x <= 1.0)),
                r[0],
                r[1]
            ))
        },
    );
    row(
        "per-byte cost within 1.5× from 10 KB to 10 MB (typed, push, dynamic, scanner; both chunkings)",
        &|s| {
            let mut worst: Option<(f64, String)> = None;
            for (chunking, _) in CHUNKINGS {
                for approach in LINEAR {
                    let a = t(s, chunking, approach, "10KB")?;
                    let b = t(s, chunking, approach, "10MB")?;
                    // Sizes differ a little from their labels: compare per byte.
                    let (na, nb) = (times.bytes(s)[1], times.bytes(s)[SIZES.len() - 1]);
                    let r = (b / nb as f64) / (a / na as f64);
                    if worst.as_ref().is_none_or(|(w, _)| r > *w) {
                        worst = Some((r, format!("{approach}, {chunking}")));
                    }
                }
            }
            let (r, which) = worst?;
            Some(format!("{} worst {:.2}× ({which})", verdict(r <= 1.5), r))
        },
    );
    row(
        "at 100 KB, settled typed ≥ 100× faster than jiter's partial mode (4-byte; token)",
        &|s| {
            let r: Vec<f64> = ["4B", "token"]
                .iter()
                .map(|c| {
                    Some(t(s, c, "jiter_partial", "100KB")? / t(s, c, "settled_typed", "100KB")?)
                })
                .collect::<Option<_>>()?;
            Some(format!(
                "{} {}; {}",
                verdict(r.iter().all(|x| *x >= 100.0)),
                fmt_ratio(r[0]),
                fmt_ratio(r[1])
            ))
        },
    );
    md
}

/// The log-log plot: total time against document size, 4-byte chunks and one parse of the
/// whole document, a panel per shape.
fn plot(times: &Times) -> String {
    let (panel_w, h, left, bottom, top, gap, legend) =
        (380.0, 480.0, 70.0, 50.0, 30.0, 30.0, 190.0);
    let w = left + 2.0 * panel_w + gap + legend;
    let (xmin, xmax) = (1e3f64.log10(), 2e7f64.log10());
    let all: Vec<f64> = (times.0.iter())
        .filter(|((group, _, _), _)| group != "per-stream")
        .map(|(_, t)| *t)
        .collect();
    let ymin = all.iter().copied().fold(f64::MAX, f64::min).log10().floor();
    let ymax = all.iter().copied().fold(f64::MIN, f64::max).log10().ceil();
    let y = |t: f64| h - bottom - (t.log10() - ymin) / (ymax - ymin) * (h - top - bottom);
    let mut svg = String::new();
    let _ = writeln!(
        svg,
        r#"<svg xmlns="http://www.w3.org/2000/svg" width="{w}" height="{h}" font-family="sans-serif" font-size="12">"#
    );
    let _ = writeln!(svg, r#"<rect width="{w}" height="{h}" fill="white"/>"#);
    let approaches: Vec<(String, &str)> = STREAMING
        .iter()
        .map(|a| ("4B".to_string(), *a))
        .chain(WHOLE.iter().map(|a| ("whole".to_string(), *a)))
        .collect();
    for (p, shape) in SHAPES.iter().enumerate() {
        let x0 = left + p as f64 * (panel_w + gap);
        let x = |b: f64| x0 + (b.log10() - xmin) / (xmax - xmin) * panel_w;
        let bytes = times.bytes(shape);
        let _ = writeln!(
            svg,
            r#"<text x="{}" y="18" text-anchor="middle" font-weight="bold">{shape}</text>"#,
            x0 + panel_w / 2.0
        );
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
                r##"<line x1="{x0}" y1="{py}" x2="{}" y2="{py}" stroke="#ddd"/>"##,
                x0 + panel_w
            );
            if p == 0 {
                let _ = writeln!(
                    svg,
                    r#"<text x="{}" y="{}" text-anchor="end">1e{e} s</text>"#,
                    left - 6.0,
                    py + 4.0
                );
            }
        }
        for (i, (chunking, approach)) in approaches.iter().enumerate() {
            let group = format!("{shape}-{chunking}");
            let points: Vec<String> = SIZES
                .iter()
                .zip(bytes)
                .filter_map(|((l, _), b)| {
                    times
                        .get(&group, approach, l)
                        .map(|t| format!("{:.1},{:.1}", x(*b as f64), y(t)))
                })
                .collect();
            let dash = if chunking == "whole" {
                r#" stroke-dasharray="5,3""#
            } else {
                ""
            };
            let _ = writeln!(
                svg,
                r#"<polyline fill="none" stroke="{}" stroke-width="2"{dash} points="{}"/>"#,
                COLORS[i % COLORS.len()],
                points.join(" ")
            );
        }
    }
    let _ = writeln!(
        svg,
        r#"<text x="{}" y="{}" text-anchor="middle">document size (bytes), log scale; 4-byte chunks, draft read per chunk (dashed: one parse of the whole)</text>"#,
        left + panel_w + gap / 2.0,
        h - 12.0
    );
    let lx = left + 2.0 * panel_w + gap + 12.0;
    let mut legend_y = top + 10.0;
    for (i, (chunking, approach)) in approaches.iter().enumerate() {
        let dash = if chunking == "whole" {
            r#" stroke-dasharray="5,3""#
        } else {
            ""
        };
        let _ = writeln!(
            svg,
            r#"<line x1="{lx}" y1="{legend_y}" x2="{}" y2="{legend_y}" stroke="{}" stroke-width="2"{dash}/><text x="{}" y="{}">{approach}</text>"#,
            lx + 24.0,
            COLORS[i % COLORS.len()],
            lx + 28.0,
            legend_y + 4.0
        );
        legend_y += 16.0;
    }
    let _ = writeln!(svg, "</svg>");
    svg
}

/// Replaces the text between `open` and `close` in `doc` (both kept), or `None`.
fn splice(doc: &str, open: &str, close: &str, body: &str) -> Option<String> {
    let a = doc.find(open)?;
    let b = doc.find(close).filter(|&b| b > a)?;
    Some(format!("{}{open}\n{body}\n{}", &doc[..a], &doc[b..]))
}

fn main() {
    let root = target_dir().join("criterion");
    let times = Times::load(&root);
    let memory = load_memory(&root);

    let mut md = String::new();
    per_stream_table(&mut md, &times);
    for shape in SHAPES {
        shape_tables(&mut md, &times, &memory, shape);
    }
    let goals = targets(&times, &memory);

    let repo = Path::new(env!("CARGO_MANIFEST_DIR")).join("..");
    if let Err(e) = std::fs::write(repo.join("benchmarks.svg"), plot(&times)) {
        eprintln!("cannot write benchmarks.svg: {e}");
    }
    let doc_path = repo.join("BENCHMARKS.md");
    let doc = std::fs::read_to_string(&doc_path).unwrap_or_default();
    let updated = splice(&doc, "<!-- results -->", "<!-- /results -->", &md)
        .and_then(|d| splice(&d, "<!-- targets -->", "<!-- /targets -->", &goals));
    match updated {
        Some(updated) => {
            if let Err(e) = std::fs::write(&doc_path, updated) {
                eprintln!("cannot write BENCHMARKS.md: {e}");
            }
        }
        None => println!("{goals}\n{md}"),
    }
}
