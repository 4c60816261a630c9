//! `settled`: replay a recorded model stream through the settled scanner.
//!
//! ```text
//! settled replay [--strict] [--chunks FILE] [--split N] [--max-bytes N] [--max-depth N]
//!                [--emit full|settled|final] [--sse openai|openai-responses|anthropic]
//!                [--keep-last] [--idle-limit N] [--stall-limit N]
//!                [--starts-in-reasoning] < response.txt
//! settled --help | settled replay --help | settled --version
//! ```

mod args;
mod replay;
mod source;

use std::process::ExitCode;

fn main() -> ExitCode {
    match args::parse(std::env::args().skip(1)) {
        // A closed pipe (`settled --help | head -1`) ends the output quietly.
        Ok(args::Command::Print(text)) => print(text),
        Ok(args::Command::Version) => print(&format!("settled {}", env!("CARGO_PKG_VERSION"))),
        Ok(args::Command::Replay(replay)) => match replay::run(&replay) {
            Ok(true) => ExitCode::SUCCESS,
            Ok(false) => ExitCode::from(1),
            Err(replay::Failure::Usage(message)) => usage_error(&args::Usage {
                message,
                command: Some("replay"),
            }),
            Err(replay::Failure::Io(e)) if e.kind() == std::io::ErrorKind::BrokenPipe => {
                ExitCode::from(1)
            }
            Err(replay::Failure::Io(e)) => {
                eprintln!("settled: {e}");
                ExitCode::from(1)
            }
        },
        Err(usage) => usage_error(&usage),
    }
}

/// Writes `text` and a newline to stdout; a closed pipe is not an error.
fn print(text: &str) -> ExitCode {
    use std::io::Write;
    let mut out = std::io::stdout().lock();
    match writeln!(out, "{text}").and_then(|()| out.flush()) {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) if e.kind() == std::io::ErrorKind::BrokenPipe => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("settled: {e}");
            ExitCode::from(1)
        }
    }
}

/// One line: what is wrong, and where the right form is explained.
fn usage_error(usage: &args::Usage) -> ExitCode {
    eprintln!("settled: {usage}");
    ExitCode::from(2)
}
