//! Chunk sources: stdin as read, stdin split into fixed sizes, or a chunks file.

use crate::args::Source;
use std::io::{self, Read};

/// Yields chunks in order.
pub(crate) enum Chunks {
    Stdin(io::Stdin),
    Split { data: Vec<u8>, at: usize, n: usize },
    List(std::vec::IntoIter<Vec<u8>>),
}

impl Chunks {
    /// Opens `source`. A chunks file that is not NDJSON string literals is a usage error.
    pub(crate) fn open(source: &Source) -> Result<Chunks, String> {
        match source {
            Source::Stdin => Ok(Chunks::Stdin(io::stdin())),
            Source::Split(n) => {
                let mut data = Vec::new();
                io::stdin()
                    .read_to_end(&mut data)
                    .map_err(|e| format!("cannot read stdin: {e}"))?;
                Ok(Chunks::Split { data, at: 0, n: *n })
            }
            Source::Chunks(path) => {
                let text = std::fs::read_to_string(path)
                    .map_err(|e| format!("cannot read {}: {e}", path.display()))?;
                let mut chunks = Vec::new();
                for (i, line) in text.lines().enumerate() {
                    if line.trim().is_empty() {
                        continue;
                    }
                    let chunk: String = serde_json::from_str(line).map_err(|e| {
                        format!(
                            "{} line {}: each line must be one JSON string literal ({e})",
                            path.display(),
                            i + 1
                        )
                    })?;
                    chunks.push(chunk.into_bytes());
                }
                Ok(Chunks::List(chunks.into_iter()))
            }
        }
    }

    /// True when chunks arrive live (flush output after each line).
    pub(crate) fn is_live(&self) -> bool {
        matches!(self, Chunks::Stdin(..))
    }

    /// Puts the next chunk in `out`; false at the end of the input.
    pub(crate) fn next_chunk(&mut self, out: &mut Vec<u8>) -> io::Result<bool> {
        out.clear();
        match self {
            Chunks::Stdin(stdin) => loop {
                out.resize(64 * 1024, 0);
                match stdin.read(out) {
                    Ok(n) => {
                        out.truncate(n);
                        return Ok(n > 0);
                    }
                    Err(e) if e.kind() == io::ErrorKind::Interrupted => {}
                    Err(e) => return Err(e),
                }
            },
            Chunks::Split { data, at, n } => {
                let end = at.saturating_add(*n).min(data.len());
                out.extend_from_slice(data.get(*at..end).unwrap_or_default());
                *at = end;
                Ok(!out.is_empty())
            }
            Chunks::List(list) => match list.next() {
                Some(chunk) => {
                    *out = chunk;
                    Ok(true)
                }
                None => Ok(false),
            },
        }
    }
}
