//! Desktop entry: `hotseat` runs the app; `hotseat referee` speaks the text protocol.

use std::process::ExitCode;

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    match args.first().map(String::as_str) {
        Some("referee") => {
            let stdin = std::io::stdin();
            match hotseat::referee::serve(stdin.lock(), std::io::stdout().lock()) {
                Ok(()) => ExitCode::SUCCESS,
                Err(e) => {
                    eprintln!("hotseat referee: {e}");
                    ExitCode::FAILURE
                }
            }
        }
        _ => {
            eprintln!("usage: hotseat referee");
            ExitCode::FAILURE
        }
    }
}
