//! Referee transcripts: every `tests/transcripts/*.txt` is a conversation with the
//! referee, checked line by line.
//!
//! Format: `> command` is sent; the lines after it, up to the next command, are the
//! expected answer (for `legal`, in any order, since docs/referee.md leaves the order free).
//! `#` starts a comment line; blank lines are ignored. An expected line `error *` matches
//! any error, for cases where only the refusal matters, not its wording.

use hotseat::referee::Referee;
use std::fs;
use std::path::Path;

fn check(path: &Path) -> Result<usize, String> {
    let text = fs::read_to_string(path).map_err(|e| e.to_string())?;
    let mut referee = Referee::new();
    let mut commands = 0;
    let mut lines = text.lines().enumerate().peekable();
    while let Some((n, line)) = lines.next() {
        if line.trim().is_empty() || line.starts_with('#') {
            continue;
        }
        let command = line
            .strip_prefix("> ")
            .ok_or_else(|| format!("line {}: expected '> command', got '{line}'", n + 1))?;
        let mut expected = Vec::new();
        while let Some((_, next)) = lines.peek() {
            if next.starts_with("> ") {
                break;
            }
            let (_, next) = lines.next().unwrap_or_default();
            if !next.trim().is_empty() && !next.starts_with('#') {
                expected.push(next.to_string());
            }
        }
        let mut got = referee.answer(command);
        commands += 1;
        let wildcard_error = expected.len() == 1
            && expected[0] == "error *"
            && got.len() == 1
            && got[0].starts_with("error ");
        if wildcard_error {
            continue;
        }
        if command.trim_start().starts_with("legal") {
            expected.sort();
            got.sort();
        }
        if got != expected {
            return Err(format!(
                "line {}: '{command}'\n  expected: {expected:?}\n  got:      {got:?}",
                n + 1
            ));
        }
    }
    Ok(commands)
}

#[test]
fn every_transcript_plays_as_written() {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/transcripts");
    let mut files: Vec<_> = fs::read_dir(&dir)
        .expect("tests/transcripts exists")
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| p.extension().is_some_and(|x| x == "txt"))
        .collect();
    files.sort();
    assert!(!files.is_empty(), "no transcripts in {}", dir.display());
    let mut failures = Vec::new();
    for file in &files {
        if let Err(e) = check(file) {
            failures.push(format!("{}: {e}", file.display()));
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n\n"));
}
