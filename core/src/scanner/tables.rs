//! Byte-class tables for the hot loops.

/// Bytes that end a run of plain string content: `"`, `\` and control characters.
pub(crate) static STRING_STOP: [bool; 256] = {
    let mut table = [false; 256];
    let mut b = 0;
    while b < 0x20 {
        table[b] = true;
        b += 1;
    }
    table[b'"' as usize] = true;
    table[b'\\' as usize] = true;
    table
};

/// Bytes the lenient preamble stops at: a root opener, a fence's byte (`` ` ``, `~`), a
/// tag opener.
pub(crate) static PROSE_STOP: [bool; 256] = {
    let mut table = [false; 256];
    table[b'{' as usize] = true;
    table[b'[' as usize] = true;
    table[b'`' as usize] = true;
    table[b'~' as usize] = true;
    table[b'<' as usize] = true;
    table
};

/// The byte at input offset `offset` is that of a byte-order mark at the input's start
/// (`EF BB BF`): lenient reading takes it for whitespace.
#[inline]
pub(crate) fn is_bom_byte(offset: u64, b: u8) -> bool {
    const BOM: [u8; 3] = [0xEF, 0xBB, 0xBF];
    usize::try_from(offset)
        .ok()
        .and_then(|at| BOM.get(at))
        .is_some_and(|&bom| bom == b)
}

/// JSON's four whitespace bytes.
#[inline]
pub(crate) fn is_ws(b: u8) -> bool {
    matches!(b, b' ' | b'\t' | b'\n' | b'\r')
}

/// Characters allowed in a fence's language tag (```` ```json ````, ```` ```jsonc ````).
#[inline]
pub(crate) fn is_fence_tag(b: u8) -> bool {
    b.is_ascii_alphanumeric() || matches!(b, b'-' | b'_' | b'+' | b'.' | b' ' | b'\t' | b'\r')
}

/// A fence's language tag (lowercase, its letters and digits) that names JSON, or none:
/// ```` ```json ````, `jsonc`, `json5`, and JSON Lines' `jsonl` and `ndjson`.
#[inline]
pub(crate) fn is_json_tag(tag: &[u8]) -> bool {
    matches!(
        tag,
        b"" | b"json" | b"jsonc" | b"json5" | b"jsonl" | b"ndjson"
    )
}

/// A language's name (lowercase) that models write in capitals as a fence's tag
/// (```` ```Python ````, ```` ```SQL ````): `Output` or `Done` there are prose.
pub(crate) fn is_language(tag: &[u8]) -> bool {
    matches!(
        tag,
        b"python"
            | b"javascript"
            | b"typescript"
            | b"java"
            | b"sql"
            | b"bash"
            | b"shell"
            | b"html"
            | b"css"
            | b"rust"
            | b"go"
            | b"ruby"
            | b"php"
            | b"c"
            | b"cpp"
            | b"csharp"
            | b"kotlin"
            | b"swift"
            | b"yaml"
            | b"xml"
            | b"toml"
            | b"r"
            | b"scala"
            | b"powershell"
            | b"dockerfile"
            | b"markdown"
    )
}

/// Length of the UTF-8 character whose first byte is `lead` (valid leads only).
#[inline]
pub(crate) fn utf8_width(lead: u8) -> u8 {
    match lead {
        0xC0..=0xDF => 2,
        0xE0..=0xEF => 3,
        _ => 4,
    }
}

/// `next` may follow the first `len` bytes of a UTF-8 character in `head` (`len` ≥ 1): a
/// continuation byte, within the narrower range some leads allow for their second byte
/// (no overlong forms, no surrogates, nothing past U+10FFFF), as `std::str::from_utf8`
/// checks it.
#[inline]
pub(crate) fn utf8_continues(head: &[u8], next: u8) -> bool {
    let range = match (head.len(), head.first()) {
        (1, Some(0xE0)) => 0xA0..=0xBF,
        (1, Some(0xED)) => 0x80..=0x9F,
        (1, Some(0xF0)) => 0x90..=0xBF,
        (1, Some(0xF4)) => 0x80..=0x8F,
        _ => 0x80..=0xBF,
    };
    range.contains(&next)
}

const ONES: u64 = 0x0101_0101_0101_0101;
const HIGHS: u64 = 0x8080_8080_8080_8080;

/// The high bit of each byte of `v` that is below `n` (exact for the lowest such byte;
/// `n` at most 128).
#[inline]
fn bytes_below(v: u64, n: u8) -> u64 {
    v.wrapping_sub(ONES * u64::from(n)) & !v & HIGHS
}

/// Length of the run of plain string bytes at the start of `bytes`: up to the first `"`,
/// `\` or control byte. Eight bytes at a time (SWAR), then the table for the tail.
#[inline]
pub(crate) fn string_run(bytes: &[u8]) -> usize {
    let mut words = bytes.chunks_exact(8);
    let mut at = 0;
    for word in &mut words {
        let Ok(word) = <[u8; 8]>::try_from(word) else {
            break;
        };
        let w = u64::from_le_bytes(word);
        let hits = bytes_below(w ^ (ONES * u64::from(b'"')), 1)
            | bytes_below(w ^ (ONES * u64::from(b'\\')), 1)
            | bytes_below(w, 0x20);
        if hits != 0 {
            return at + (hits.trailing_zeros() / 8) as usize;
        }
        at += 8;
    }
    let tail = words.remainder();
    at + tail
        .iter()
        .position(|&c| STRING_STOP[usize::from(c)])
        .unwrap_or(tail.len())
}

/// How many `\n` bytes `bytes` holds: eight at a time (SWAR), then the tail.
pub(crate) fn newlines(bytes: &[u8]) -> u64 {
    const LOWS: u64 = !HIGHS;
    let mut words = bytes.chunks_exact(8);
    let mut count = 0;
    for word in &mut words {
        let Ok(word) = <[u8; 8]>::try_from(word) else {
            break;
        };
        // A byte of `x` is zero exactly where the word holds a newline; `nonzero` has the
        // high bit of every other byte (exact: no borrow crosses bytes).
        let x = u64::from_le_bytes(word) ^ (ONES * u64::from(b'\n'));
        let nonzero = ((x & LOWS) + LOWS) | x;
        count += u64::from((!nonzero & HIGHS).count_ones());
    }
    count + words.remainder().iter().filter(|&&c| c == b'\n').count() as u64
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn newlines_are_counted_in_words_and_tails() {
        for n in 0..40 {
            for every in 1..6 {
                let text: Vec<u8> = (0..n)
                    .map(|k| match k % every {
                        0 => b'\n',
                        1 => 0x8A,
                        2 => 0x0B,
                        _ => b'x',
                    })
                    .collect();
                let expected = text.iter().filter(|&&c| c == b'\n').count() as u64;
                assert_eq!(newlines(&text), expected, "{text:?}");
            }
        }
    }

    #[test]
    fn string_runs_stop_where_the_table_says() {
        let mut samples: Vec<Vec<u8>> = vec![
            b"plain text with no stop at all, long enough".to_vec(),
            "caf\u{e9} \u{6f22} \u{1f680} then a \"quote"
                .as_bytes()
                .to_vec(),
            b"0123456\\x".to_vec(),
            b"\x1f".to_vec(),
            b"".to_vec(),
        ];
        for n in 0..=40 {
            let mut v = vec![b'a'; n];
            v.push(b'\n');
            v.extend_from_slice(b"tail");
            samples.push(v);
            let mut w = vec![0xC3; n];
            w.push(b'"');
            samples.push(w);
        }
        for s in samples {
            let expected = s
                .iter()
                .position(|&c| STRING_STOP[usize::from(c)])
                .unwrap_or(s.len());
            assert_eq!(string_run(&s), expected, "{s:?}");
        }
    }
}
