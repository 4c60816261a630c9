//! Streams a recorded review response in token-sized chunks: the draft fills in on one
//! line while each field is printed the moment it settles.
//!
//! ```sh
//! cargo run --example review            # SETTLED_DELAY_MS=0 to skip the pacing
//! ```
//!
//! In a terminal the draft is redrawn in place on one line, cut to the terminal's width
//! (`COLUMNS`, else 80) so that it never wraps; piped, only the settled fields and the
//! final value are printed.

use settled_examples::models::{Review, ReviewField};
use settled_examples::{REVIEW_RESPONSE, delay, token_chunks};
use std::io::{IsTerminal, Write};

/// Moves to the start of the line and erases it.
const CLEAR_LINE: &str = "\r\x1b[2K";

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let live = std::io::stdout().is_terminal();
    let width = terminal_width();
    let clear = if live { CLEAR_LINE } else { "" };
    let mut stream = Review::stream();
    // A per-field callback: fired inside `feed`, in settling order.
    stream.on(ReviewField::Score, move |score| {
        println!("{clear}  (callback) score settled: {score}/10");
    });

    for chunk in token_chunks(REVIEW_RESPONSE) {
        for field in stream.feed(chunk.as_bytes())? {
            print!("{clear}");
            match field {
                ReviewField::Verdict(verdict) => println!("settled verdict: {verdict:?}"),
                ReviewField::ReasonsItem(i, reason) => println!("settled reason #{i}: {reason}"),
                ReviewField::Reasons(all) => println!("settled reasons: {} in all", all.len()),
                ReviewField::Score(score) => println!("settled score: {score}"),
            }
        }
        if live {
            let draft = serde_json::to_string(stream.draft())?;
            print!("{CLEAR_LINE}{}", fit("draft: ", &draft, width));
            std::io::stdout().flush()?;
            std::thread::sleep(delay());
        }
    }
    let review = stream.finish()?;
    print!("{clear}");
    println!("final: {review:?}");
    Ok(())
}

/// The terminal's width from `COLUMNS` (shells set it), else 80.
fn terminal_width() -> usize {
    std::env::var("COLUMNS")
        .ok()
        .and_then(|c| c.parse().ok())
        .filter(|&c: &usize| c >= 20)
        .unwrap_or(80)
}

/// Terminal columns of `c`: two for East Asian wide characters and emoji, one otherwise.
fn columns(c: char) -> usize {
    match u32::from(c) {
        0x1100..=0x115F
        | 0x2E80..=0xA4CF
        | 0xAC00..=0xD7A3
        | 0xF900..=0xFAFF
        | 0xFE30..=0xFE4F
        | 0xFF00..=0xFF60
        | 0xFFE0..=0xFFE6
        | 0x1F300..=0x1F64F
        | 0x1F900..=0x1F9FF
        | 0x20000..=0x3FFFD => 2,
        _ => 1,
    }
}

/// `label` and the end of `text`, in fewer than `width` columns: the tail is where the
/// draft grows, so the start gives way to `…`. Wide characters count two columns.
fn fit(label: &str, text: &str, width: usize) -> String {
    let room = width.saturating_sub(label.chars().count() + 1);
    let total: usize = text.chars().map(columns).sum();
    if total <= room {
        return format!("{label}{text}");
    }
    let mut kept = 0;
    let mut start = text.len();
    for (i, c) in text.char_indices().rev() {
        if kept + columns(c) > room.saturating_sub(1) {
            break;
        }
        kept += columns(c);
        start = i;
    }
    format!("{label}…{}", &text[start..])
}

#[cfg(test)]
mod tests {
    use super::{columns, fit};

    #[test]
    fn a_draft_line_never_reaches_the_last_column() {
        for width in [20, 80, 100, 160] {
            let long = "x".repeat(500) + "漢字🚀 end";
            let line = fit("draft: ", &long, width);
            let used: usize = line.chars().map(columns).sum();
            assert!(used < width, "{used} columns at width {width}");
            assert!(line.ends_with(" end"));
        }
        assert_eq!(fit("draft: ", "{}", 80), "draft: {}");
    }
}
