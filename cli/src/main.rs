//! `settled`: replay a recorded model stream through the settled scanner.
//!
//! ```text
//! settled replay [--strict] [--chunks FILE] [--split N] [--max-bytes N] [--max-depth N]
//!                [--emit full|settled|final] < response.txt
//! settled --help | settled replay --help | settled --version
//! ```

mod args;
mod replay;
mod source;

use std::process::ExitCode;

fn main() -> ExitCode {
    match args::parse(std::env::args().skip(1)) {
        Ok(args::Command::Print(text)) => {
            println!("{text}");
            ExitCode::SUCCESS
        }
        Ok(args::Command::Version) => {
            println!("settled {}", env!("CARGO_PKG_VERSION"));
            ExitCode::SUCCESS
        }
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

/// One line: what is wrong, and where the right form is explained.
fn usage_error(usage: &args::Usage) -> ExitCode {
    eprintln!("settled: {usage}");
    ExitCode::from(2)
}
