//! The headless text protocol of docs/referee.md: one command a line on the input, each
//! answered by zero or more lines and then `ok` or `error <reason>`.
//!
//! Choices the contract leaves open (docs/referee.md): every input line gets exactly one
//! closing line, a blank one included (`error empty command`); a line longer than
//! [`MAX_LINE`] bytes or not UTF-8 is refused whole; a trailing `\r` is ignored.

use crate::games::registry::{AnyGame, GameKind};
use crate::games::{Params, RuleError, RuleResult, Seat};
use std::io::{self, BufRead, Write};

/// The longest input line answered (an IOTA `new` with a 66-card deck is under 300 bytes).
pub const MAX_LINE: usize = 64 * 1024;

/// A referee session: at most one game at a time.
#[derive(Default)]
pub struct Referee {
    game: Option<Box<dyn AnyGame>>,
}

impl Referee {
    /// A referee with no game yet.
    pub fn new() -> Self {
        Self::default()
    }

    /// Answers one command line: the lines to print, the last being `ok` or `error …`.
    pub fn answer(&mut self, line: &str) -> Vec<String> {
        match self.run(line.trim_end_matches('\r')) {
            Ok(mut lines) => {
                lines.push("ok".to_string());
                lines
            }
            Err(e) => vec![format!("error {}", one_line(&e.to_string()))],
        }
    }

    fn run(&mut self, line: &str) -> RuleResult<Vec<String>> {
        let line = line.trim();
        let (command, rest) = line.split_once(' ').unwrap_or((line, ""));
        let rest = rest.trim();
        match command {
            "" => Err(RuleError::new("empty command")),
            "new" => {
                let mut words = rest.split_whitespace();
                let name = words
                    .next()
                    .ok_or_else(|| RuleError::new("new needs a game: ovo, iota or omiga"))?;
                let params = Params::parse(words)?;
                self.game = Some(name.parse::<GameKind>()?.new_game(&params)?);
                Ok(vec![])
            }
            "setup" => {
                let (name, position) = rest.split_once(' ').unwrap_or((rest, ""));
                if name.is_empty() {
                    return Err(RuleError::new("setup needs a game and a position"));
                }
                self.game = Some(name.parse::<GameKind>()?.from_position(position.trim())?);
                Ok(vec![])
            }
            "play" => {
                let (seat, action) = rest.split_once(' ').unwrap_or((rest, ""));
                let seat = parse_seat(seat)?;
                if action.trim().is_empty() {
                    return Err(RuleError::new("play needs a seat and an action"));
                }
                self.game_mut()?.play_line(seat, action.trim())
            }
            "legal" => {
                let seat = parse_seat(rest)?;
                self.game()?.legal_lines(seat)
            }
            "view" => {
                let seat = parse_seat(rest)?;
                Ok(vec![self.game()?.view_json(seat)?])
            }
            "state" => no_args(rest, command).and_then(|_| Ok(vec![self.game()?.state_line()])),
            "scores" => no_args(rest, command).and_then(|_| {
                let scores = self.game()?.score_list();
                let mut line = String::from("scores");
                for s in scores {
                    line.push_str(&format!(" {s}"));
                }
                Ok(vec![line])
            }),
            "outcome" => {
                no_args(rest, command).and_then(|_| Ok(vec![self.game()?.result().to_string()]))
            }
            "position" => no_args(rest, command)
                .and_then(|_| Ok(vec![format!("position {}", self.game()?.position_line())])),
            other => Err(RuleError::new(format!(
                "unknown command '{}' (commands: new, setup, play, legal, view, state, scores, outcome, position)",
                shorten(other)
            ))),
        }
    }

    fn game(&self) -> RuleResult<&dyn AnyGame> {
        self.game.as_deref().ok_or_else(no_game)
    }

    fn game_mut(&mut self) -> RuleResult<&mut Box<dyn AnyGame>> {
        self.game.as_mut().ok_or_else(no_game)
    }
}

fn no_game() -> RuleError {
    RuleError::new("no game yet: start one with new or setup")
}

fn no_args(rest: &str, command: &str) -> RuleResult<()> {
    if rest.is_empty() {
        Ok(())
    } else {
        Err(RuleError::new(format!("{command} takes no arguments")))
    }
}

fn parse_seat(word: &str) -> RuleResult<Seat> {
    let word = word.trim();
    if word.is_empty() {
        return Err(RuleError::new("a seat number is missing"));
    }
    word.parse()
        .map_err(|_| RuleError::new(format!("'{}' is not a seat number", shorten(word))))
}

/// Keeps an echoed word short, so that an error about a huge token stays one short line.
fn shorten(word: &str) -> String {
    const MAX: usize = 40;
    match word.char_indices().nth(MAX) {
        Some((i, _)) => format!("{}…", &word[..i]),
        None => word.to_string(),
    }
}

fn one_line(message: &str) -> String {
    message.replace(['\n', '\r'], " ")
}

/// Reads one line of at most `MAX_LINE` bytes. `Ok(None)` at the end of input;
/// `Ok(Some(Err(reason)))` for a line that was read and refused whole.
fn read_line(input: &mut impl BufRead) -> io::Result<Option<Result<String, String>>> {
    let mut bytes = Vec::new();
    let mut too_long = false;
    loop {
        let buf = input.fill_buf()?;
        if buf.is_empty() {
            if bytes.is_empty() && !too_long {
                return Ok(None);
            }
            break;
        }
        let (chunk, found) = match buf.iter().position(|&b| b == b'\n') {
            Some(i) => (&buf[..i], Some(i + 1)),
            None => (buf, None),
        };
        if !too_long {
            if bytes.len() + chunk.len() > MAX_LINE {
                too_long = true;
                bytes.clear();
            } else {
                bytes.extend_from_slice(chunk);
            }
        }
        let used = found.unwrap_or(buf.len());
        input.consume(used);
        if found.is_some() {
            break;
        }
    }
    if too_long {
        return Ok(Some(Err(format!("line too long (limit {MAX_LINE} bytes)"))));
    }
    Ok(Some(
        String::from_utf8(bytes).map_err(|_| "the line is not valid UTF-8".to_string()),
    ))
}

/// Runs the protocol from `input` to `output` until the input ends.
pub fn serve(input: impl BufRead, mut output: impl Write) -> io::Result<()> {
    let mut input = input;
    let mut referee = Referee::new();
    while let Some(line) = read_line(&mut input)? {
        let answer = match line {
            Ok(line) => referee.answer(&line),
            Err(reason) => vec![format!("error {reason}")],
        };
        for l in answer {
            writeln!(output, "{l}")?;
        }
        output.flush()?;
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn talk(input: &[u8]) -> Vec<String> {
        let mut out = Vec::new();
        serve(input, &mut out).unwrap();
        String::from_utf8(out)
            .unwrap()
            .lines()
            .map(String::from)
            .collect()
    }

    #[test]
    fn every_bad_line_gets_an_error_and_the_referee_keeps_answering() {
        let mut input = b"\nfrobnicate\nnew\nnew chess\nplay\nplay x b1-b2\nplay 0\nlegal\nstate\nstate x\nsetup\n".to_vec();
        input.extend(vec![b'a'; MAX_LINE + 10]);
        input.extend(b"\n\xff\xfe\noutcome\n");
        let answers = talk(&input);
        assert_eq!(answers.len(), 14, "{answers:?}");
        for a in &answers {
            assert!(a.starts_with("error "), "{a}");
        }
        assert_eq!(answers[0], "error empty command");
        assert!(answers[1].contains("unknown command 'frobnicate'"));
        assert!(answers[3].contains("unknown game 'chess'"));
        assert!(answers[5].contains("'x' is not a seat number"));
        assert!(answers[8].contains("no game yet"));
        assert!(answers[11].contains("line too long"));
        assert!(answers[12].contains("UTF-8"));
        assert!(answers[13].contains("no game yet"));
    }

    #[test]
    fn a_huge_unknown_word_is_echoed_short() {
        let word = "z".repeat(5000);
        let answers = talk(format!("{word}\n").as_bytes());
        assert_eq!(answers.len(), 1);
        assert!(answers[0].len() < 200);
    }

    #[test]
    fn the_last_line_needs_no_newline_and_crlf_is_accepted() {
        assert_eq!(
            talk(b"state\r\nstate"),
            vec![
                "error no game yet: start one with new or setup",
                "error no game yet: start one with new or setup"
            ]
        );
    }
}
