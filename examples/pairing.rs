//! The pairing text on the command line, for tools/rtc/connect.py (which proves that two
//! real Chromiums connect through rebuilt SDPs) and for looking at a code by hand:
//!
//! ```sh
//! cargo run --example pairing -- encode offer 1234 < offer.sdp   # prints HS1O…
//! cargo run --example pairing -- encode answer < answer.sdp      # prints HS1A…
//! cargo run --example pairing -- decode < code.txt               # prints the rebuilt SDP
//! cargo run --example pairing -- qr < code.txt                   # the QR modules, `#` dark
//! ```
//!
//! `decode` prints the join code (if any) as a first line `code NNNN`, then the SDP.

use hotseat::net::pairing::{self, qr_modules, PairingKind};
use std::io::Read;

fn main() -> std::process::ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let mut input = String::new();
    if let Err(e) = std::io::stdin().read_to_string(&mut input) {
        eprintln!("cannot read standard input: {e}");
        return std::process::ExitCode::FAILURE;
    }
    let args: Vec<&str> = args.iter().map(String::as_str).collect();
    let result = match args[..] {
        ["encode", "offer", code] => pairing::encode(PairingKind::Offer, &input, Some(code)),
        ["encode", "answer"] => pairing::encode(PairingKind::Answer, &input, None),
        ["decode"] => pairing::decode(&input).map(|p| match p.join_code {
            Some(code) => format!("code {code}\n{}", p.sdp),
            None => p.sdp,
        }),
        ["qr"] => qr_modules(input.trim()).map(|(side, dark)| {
            dark.chunks(side)
                .map(|row| {
                    row.iter()
                        .map(|&d| if d { '#' } else { '.' })
                        .collect::<String>()
                })
                .collect::<Vec<_>>()
                .join("\n")
        }),
        _ => {
            eprintln!(
                "usage: pairing encode offer CODE | encode answer | decode | qr  (input on stdin)"
            );
            return std::process::ExitCode::from(2);
        }
    };
    match result {
        Ok(out) => {
            println!("{out}");
            std::process::ExitCode::SUCCESS
        }
        Err(e) => {
            eprintln!("{e}");
            std::process::ExitCode::FAILURE
        }
    }
}
