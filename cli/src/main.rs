//! `ferroscale`: the codec from the shell. Every command prints JSON on
//! stdout (`--pretty` indents it; `metadata` prints a table unless `--json`)
//! and errors on stderr; the exit code is 0 on success, 1 when the input
//! could not be read, decoded or encoded, 2 for a usage error.

#![forbid(unsafe_code)]

use std::io::Write as _;
use std::process::ExitCode;

use clap::Parser;

mod cli;
mod commands;
mod input;
mod output;

fn main() -> ExitCode {
    let args = cli::Args::parse();
    match commands::run(args) {
        Ok(text) => {
            // A reader that stops early (`| head`) is not an error.
            let mut stdout = std::io::stdout().lock();
            match writeln!(stdout, "{text}") {
                Err(e) if e.kind() != std::io::ErrorKind::BrokenPipe => {
                    eprintln!("error: cannot write the output: {e}");
                    ExitCode::FAILURE
                }
                _ => ExitCode::SUCCESS,
            }
        }
        Err(message) => {
            eprintln!("error: {message}");
            ExitCode::FAILURE
        }
    }
}
