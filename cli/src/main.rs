//! `settled`: replay a recorded model stream through the settled scanner.
//!
//! ```text
//! settled replay [--strict] [--chunks FILE] [--split N] [--max-bytes N] [--max-depth N]
//!               [--emit full|settled|final] < response.txt
//! ```

mod args;
mod replay;
mod source;

use std::process::ExitCode;

fn main() -> ExitCode {
    match args::parse(std::env::args().skip(1)) {
        Ok(args::Command::Help) => {
            println!("{}", args::USAGE);
            ExitCode::SUCCESS
        }
        Ok(args::Command::Replay(replay)) => match replay::run(&replay) {
            Ok(true) => ExitCode::SUCCESS,
            Ok(false) => ExitCode::from(1),
            Err(replay::Failure::Usage(message)) => usage_error(&message),
            Err(replay::Failure::Io(e)) if e.kind() == std::io::ErrorKind::BrokenPipe => {
                ExitCode::from(1)
            }
            Err(replay::Failure::Io(e)) => {
                eprintln!("settled: {e}");
                ExitCode::from(1)
            }
        },
        Err(message) => usage_error(&message),
    }
}

fn usage_error(message: &str) -> ExitCode {
    eprintln!("settled: {message}\n\n{}", args::USAGE);
    ExitCode::from(2)
}
