//! The pairing text on the command line, for tools/rtc/connect.py (which proves that two
//! real Chromiums connect through rebuilt SDPs) and for looking at a code by hand:
//!
//! ```sh
//! cargo run --example pairing -- encode offer 1234 < offer.sdp   # prints HS2O…
//! cargo run --example pairing -- encode answer < answer.sdp      # prints HS2A…
//! cargo run --example pairing -- decode < code.txt               # prints the rebuilt SDP
//! cargo run --example pairing -- qr < code.txt                   # the QR modules, `#` dark
//! cargo run --example pairing -- read frame.pgm                  # read_qr on a binary PGM
//! ```
//!
//! `decode` prints the join code (if any) as a first line `code NNNN`, then the SDP.

use hotseat::net::pairing::{self, PairingKind};
use hotseat::net::qr::{qr_modules, read_qr};
use std::io::Read;

/// `read_qr` over a binary PGM (P5, 8 bits): a camera frame saved by a test.
fn read_pgm(path: &str) -> Result<String, String> {
    let bytes = std::fs::read(path).map_err(|e| format!("{path}: {e}"))?;
    // "P5\n W H\n 255\n" then the pixels.
    let mut fields = Vec::new();
    let mut at = 0;
    while fields.len() < 4 {
        while bytes.get(at).is_some_and(u8::is_ascii_whitespace) {
            at += 1;
        }
        let start = at;
        while bytes.get(at).is_some_and(|b| !b.is_ascii_whitespace()) {
            at += 1;
        }
        fields.push(String::from_utf8_lossy(&bytes[start..at]).into_owned());
    }
    let (w, h): (usize, usize) = match (fields[1].parse(), fields[2].parse()) {
        (Ok(w), Ok(h)) if fields[0] == "P5" => (w, h),
        _ => return Err(format!("{path}: not a binary PGM")),
    };
    let pixels = bytes.get(at + 1..).unwrap_or_default();
    read_qr(w, h, pixels).ok_or_else(|| "no Hotseat code in the frame".into())
}

fn main() -> std::process::ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    if let [command, path] = &args[..] {
        if command == "read" {
            return match read_pgm(path) {
                Ok(text) => {
                    println!("{text}");
                    std::process::ExitCode::SUCCESS
                }
                Err(e) => {
                    eprintln!("{e}");
                    std::process::ExitCode::FAILURE
                }
            };
        }
    }
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
