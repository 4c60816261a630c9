//! Command-line arguments of `settled replay`, parsed by hand (two flags do not need a crate).

use std::path::PathBuf;

/// `settled --help`.
pub(crate) const HELP: &str = "\
settled: replay a recorded model stream through the settled scanner

usage: settled <COMMAND> [OPTIONS]

commands:
  replay      feed a recorded response (or a provider's server-sent events) chunk by
              chunk and print every snapshot and settled value as NDJSON

options:
  -h, --help       print this help ('settled replay --help' for the replay options)
  -V, --version    print the version";

/// `settled replay --help`.
pub(crate) const REPLAY_HELP: &str = "\
usage: settled replay [--strict] [--chunks FILE] [--split N] [--max-bytes N] [--max-depth N]
                      [--emit full|settled|final] [--sse openai|openai-responses|anthropic]
                      [--keep-last] [--idle-limit N] [--stall-limit N]
                      [--starts-in-reasoning]

Feeds a recorded model response to the settled scanner and prints one NDJSON line per chunk
(the snapshot and the values that settled in it), then a final `done` line. When live
input ends after the last chunk's line went out and the end settles a root number (or a
reply that is one scalar: lenient reading takes it at the end) or changes the snapshot,
that chunk's line comes again, with what the end settled and the snapshot it left.

  --strict          accept RFC 8259 JSON only (default: lenient, tolerating prose, fences,
                    <think>, <thinking> and <reasoning> blocks, gpt-oss's analysis
                    channel, Magistral's [THINK] and Seed-OSS's <seed:think> blocks,
                    comments and trailing commas)
  --chunks FILE     NDJSON file, one JSON string literal per line, each line one chunk
                    (`-`: read it from stdin)
  --split N         feed stdin N bytes at a time, to its end (or the byte cap)
                    (neither: feed stdin as it is read; reads that come while the
                    last chunk is still being replayed are fed as one chunk)
  --max-bytes N     byte cap over everything fed (default 67108864)
  --max-depth N     nesting cap, the root container being depth 1 (default 127, the
                    nesting serde_json accepts)
  --emit MODE       full (default): snapshot and settled values per chunk (each line
                    holds the whole snapshot: a long reply in many small chunks, as
                    --split 1 or an --sse stream's deltas, prints its length times
                    their count); settled: settled values only (each whole: a
                    container prints again inside each one around it, so nesting N
                    deep under a raised --max-depth prints about N times the
                    input); final: only the done line
  --sse PROVIDER    the input is a provider's server-sent events (a recorded curl
                    output): replay the text it carries, one chunk per delta, either
                    the assistant's text or the first tool call's arguments. Text in
                    which no JSON value has begun is held back: if a tool call follows,
                    its arguments are the document (offsets count from their first
                    byte) and the text is dropped. Once a value has begun in the text,
                    even an example object in prose, the text is the document and a
                    later tool call is not read; so too once the text fails (past
                    --idle-limit or --max-bytes) or more than 1 MiB of it is held.
                    Under --strict, JSON inside prose is no value, so the tool call
                    is read. A token-limit finish reason
                    with the value incomplete is `truncated`; a body that is not an
                    event stream (an HTTP error's JSON) is `invalid`, with the
                    provider's message
  --keep-last       a second JSON value after the first replaces it (default: the first
                    is kept and the rest ignored)
  --idle-limit N    bytes of prose before any value after which the stream gives up with
                    `no_structure` (default 262144); a reasoning block does not count,
                    so a reasoning loop runs to --max-bytes
  --stall-limit N   bytes of whitespace (comments included) in a row inside the value
                    after which it ends with `stalled` (default: no limit)
  --starts-in-reasoning
                    the input begins inside a <think> block opened by the prompt
                    (DeepSeek-R1, QwQ served raw): everything up to the first
                    </think> is skipped, JSON included (under --sse, in the
                    assistant's text; a tool call's arguments are read as they are);
                    lenient only: --strict reads RFC 8259 JSON from the first byte

exit status: 0 after a value, 1 after an error, 2 on a usage error";

/// What `--emit` asks for.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Emit {
    Full,
    Settled,
    Final,
}

/// Where chunks come from.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) enum Source {
    /// stdin, one chunk per read.
    Stdin,
    /// stdin read whole, fed `n` bytes at a time.
    Split(usize),
    /// A file of JSON string literals, one chunk per line.
    Chunks(PathBuf),
}

#[derive(Debug, Clone)]
pub(crate) struct Replay {
    pub(crate) options: settled::Options,
    pub(crate) source: Source,
    pub(crate) emit: Emit,
    pub(crate) sse: Option<settled::provider::Provider>,
}

/// What the command line asked for.
#[derive(Debug)]
pub(crate) enum Command {
    /// Print this text and exit successfully.
    Print(&'static str),
    Version,
    Replay(Replay),
}

/// A usage error: what is wrong, and the help that explains the right form.
#[derive(Debug, PartialEq, Eq)]
pub(crate) struct Usage {
    pub(crate) message: String,
    /// The command whose help to point at (`None`: the top level).
    pub(crate) command: Option<&'static str>,
}

impl std::fmt::Display for Usage {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self.command {
            Some(command) => write!(f, "{}; see 'settled {command} --help'", self.message),
            None => write!(f, "{}; see 'settled --help'", self.message),
        }
    }
}

/// Parses the arguments after the program name.
pub(crate) fn parse(args: impl IntoIterator<Item = String>) -> Result<Command, Usage> {
    let mut args = args.into_iter();
    let top = |message: String| Usage {
        message,
        command: None,
    };
    match args.next().as_deref() {
        Some("replay") => {}
        Some("-h" | "--help" | "help") => return Ok(Command::Print(HELP)),
        Some("-V" | "--version") => return Ok(Command::Version),
        Some(other) => return Err(top(format!("unknown command `{other}`"))),
        None => return Err(top("missing command".to_string())),
    }
    replay(args).map_err(|message| Usage {
        message,
        command: Some("replay"),
    })
}

/// Parses the arguments of `settled replay`.
fn replay(mut args: impl Iterator<Item = String>) -> Result<Command, String> {
    // The replay contract reports the scanner's own kinds: no stall guard.
    let mut options = settled::Options::default().stall_limit(None);
    let mut source = Source::Stdin;
    let mut emit = Emit::Full;
    let mut sse = None;
    while let Some(arg) = args.next() {
        let mut value = |name: &str| args.next().ok_or_else(|| format!("`{name}` needs a value"));
        match arg.as_str() {
            "-h" | "--help" => return Ok(Command::Print(REPLAY_HELP)),
            "--strict" => options.strict = true,
            "--chunks" => {
                if source != Source::Stdin {
                    return Err("give one of `--chunks` or `--split`, once".to_string());
                }
                source = Source::Chunks(PathBuf::from(value("--chunks")?));
            }
            "--split" => {
                if source != Source::Stdin {
                    return Err("give one of `--chunks` or `--split`, once".to_string());
                }
                let n: usize = number("--split", &value("--split")?)?;
                if n == 0 {
                    return Err("`--split` needs a positive number of bytes".to_string());
                }
                source = Source::Split(n);
            }
            "--max-bytes" => options.max_bytes = number("--max-bytes", &value("--max-bytes")?)?,
            "--max-depth" => options.max_depth = number("--max-depth", &value("--max-depth")?)?,
            "--emit" => {
                emit = match value("--emit")?.as_str() {
                    "full" => Emit::Full,
                    "settled" => Emit::Settled,
                    "final" => Emit::Final,
                    other => {
                        return Err(format!(
                            "`--emit` takes full, settled or final, not `{other}`"
                        ));
                    }
                }
            }
            "--sse" => sse = Some(value("--sse")?.parse()?),
            "--keep-last" => options.second_root = settled::SecondRoot::KeepLast,
            "--starts-in-reasoning" => options.starts_in_reasoning = true,
            "--idle-limit" => {
                options.idle_limit = number("--idle-limit", &value("--idle-limit")?)?;
            }
            "--stall-limit" => {
                let limit = number("--stall-limit", &value("--stall-limit")?)?;
                options.stall_limit = Some(limit);
            }
            other => return Err(format!("unknown option `{other}`")),
        }
    }
    Ok(Command::Replay(Replay {
        options,
        source,
        emit,
        sse,
    }))
}

fn number<T: std::str::FromStr>(name: &str, text: &str) -> Result<T, String> {
    text.parse().map_err(|_| {
        if !text.is_empty() && text.bytes().all(|b| b.is_ascii_digit()) {
            format!("`{name}` is too large: `{text}`")
        } else {
            format!("`{name}` needs a non-negative integer, not `{text}`")
        }
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn parse_str(line: &str) -> Result<Command, Usage> {
        parse(line.split_whitespace().map(String::from))
    }

    #[test]
    fn parses_every_flag() {
        let Ok(Command::Replay(r)) = parse_str(
            "replay --strict --split 7 --max-bytes 100 --max-depth 3 --emit settled --keep-last --idle-limit 0 --stall-limit 1 --starts-in-reasoning",
        ) else {
            panic!("expected a replay command");
        };
        assert!(r.options.strict);
        assert_eq!(r.source, Source::Split(7));
        assert_eq!(r.options.max_bytes, 100);
        assert_eq!(r.options.max_depth, 3);
        assert_eq!(r.emit, Emit::Settled);
        assert_eq!(r.options.second_root, settled::SecondRoot::KeepLast);
        assert_eq!(r.options.idle_limit, 0);
        assert_eq!(r.options.stall_limit, Some(1));
        assert!(r.options.starts_in_reasoning);
    }

    #[test]
    fn a_usage_error_is_one_line_pointing_at_the_help() {
        let error = parse_str("replay --bogus").unwrap_err();
        assert_eq!(
            error.to_string(),
            "unknown option `--bogus`; see 'settled replay --help'"
        );
        let error = parse_str("frobnicate").unwrap_err();
        assert_eq!(
            error.to_string(),
            "unknown command `frobnicate`; see 'settled --help'"
        );
    }

    #[test]
    fn rejects_bad_usage() {
        for line in [
            "",
            "replay --split 0",
            "replay --split x",
            "replay --emit all",
            "replay --chunks a --split 2",
            "replay --bogus",
            "replay --max-depth",
            "parse",
        ] {
            assert!(parse_str(line).is_err(), "{line:?} should be a usage error");
        }
    }
}
