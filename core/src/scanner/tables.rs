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

/// Bytes the lenient preamble stops at: a root opener, a fence tick, a tag opener.
pub(crate) static PROSE_STOP: [bool; 256] = {
    let mut table = [false; 256];
    table[b'{' as usize] = true;
    table[b'[' as usize] = true;
    table[b'`' as usize] = true;
    table[b'<' as usize] = true;
    table
};

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

/// Length of the UTF-8 character whose first byte is `lead` (valid leads only).
#[inline]
pub(crate) fn utf8_width(lead: u8) -> u8 {
    match lead {
        0xC0..=0xDF => 2,
        0xE0..=0xEF => 3,
        _ => 4,
    }
}
