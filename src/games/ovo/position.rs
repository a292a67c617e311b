//! Position lines (docs/referee.md):
//! `players=2|4 turn=SEAT board=R6/R5/R4/R3/R2/R1 [last=CELL] [out=SEAT,...]`, extended
//! with `[passes=N] [no_move_back=off]`, printed only when not the default, so that a
//! position carries the whole state.

use super::board::{eggs_per_seat, Board, Egg};
use super::{Cell, Ovo, MAX_PLAYERS, SIDE};
use crate::games::{Outcome, RuleError, RuleResult};
use std::collections::BTreeMap;

const KEYS: [&str; 7] = [
    "players",
    "turn",
    "board",
    "last",
    "out",
    "passes",
    "no_move_back",
];

/// Prints the canonical position line.
pub(crate) fn print(game: &Ovo) -> String {
    let mut ranks = Vec::with_capacity(SIDE);
    for rank in (0..SIDE as i32).rev() {
        let row: String = (0..SIDE as i32)
            .filter_map(|file| Cell::new(file, rank))
            .map(|c| egg_char(game.board.get(c)))
            .collect();
        ranks.push(row);
    }
    let mut line = format!(
        "players={} turn={} board={}",
        game.players,
        game.turn,
        ranks.join("/")
    );
    if let Some(last) = game.last {
        line.push_str(&format!(" last={last}"));
    }
    let out = game.out_seats();
    if !out.is_empty() {
        let out: Vec<String> = out.iter().map(|s| s.to_string()).collect();
        line.push_str(&format!(" out={}", out.join(",")));
    }
    if game.passes > 0 {
        line.push_str(&format!(" passes={}", game.passes));
    }
    if !game.no_move_back {
        line.push_str(" no_move_back=off");
    }
    line
}

fn egg_char(egg: Option<Egg>) -> char {
    match egg {
        None => '.',
        Some(e) => {
            let base = if e.hidden { b'a' } else { b'A' };
            char::from(base + (e.owner as u8 % MAX_PLAYERS as u8))
        }
    }
}

/// Reads a position line and checks it for consistency.
pub(crate) fn parse(line: &str) -> RuleResult<Ovo> {
    let mut fields = BTreeMap::new();
    for word in line.split_whitespace() {
        let (key, value) = word
            .split_once('=')
            .ok_or_else(|| RuleError::new(format!("expected key=value, got '{word}'")))?;
        if !KEYS.contains(&key) {
            return Err(RuleError::new(format!(
                "unknown position field '{key}' (fields: {})",
                KEYS.join(", ")
            )));
        }
        if fields.insert(key, value).is_some() {
            return Err(RuleError::new(format!("field '{key}' is given twice")));
        }
    }
    let need = |key: &str| {
        fields
            .get(key)
            .copied()
            .ok_or_else(|| RuleError::new(format!("the position needs {key}=")))
    };
    let players = match need("players")? {
        "2" => 2,
        "4" => 4,
        v => return Err(RuleError::new(format!("players must be 2 or 4, not '{v}'"))),
    };
    let turn = seat_number(need("turn")?, players)?;
    let board = parse_board(need("board")?, players)?;
    let mut out = [false; MAX_PLAYERS];
    if let Some(list) = fields.get("out") {
        if players == 2 {
            return Err(RuleError::new(
                "no seat can be out in a 2-player game (a wrong declaration ends it)",
            ));
        }
        for word in list.split(',') {
            let seat = seat_number(word, players)?;
            if std::mem::replace(&mut out[seat], true) {
                return Err(RuleError::new(format!(
                    "seat {seat} is listed twice in out="
                )));
            }
        }
    }
    let remaining = out[..players].iter().filter(|o| !**o).count();
    if remaining < 2 {
        return Err(RuleError::new(
            "at least two seats must still be playing (one seat left has already won)",
        ));
    }
    if out[turn] {
        return Err(RuleError::new(format!(
            "seat {turn} is out and cannot be on turn"
        )));
    }
    // Consistency, not reachability (docs/referee.md): a seat still playing may have
    // lost eggs to nothing in play, but never holds more than the box gives it, and a
    // seat that is out has had its eggs removed.
    for (seat, is_out) in out.iter().enumerate().take(players) {
        let count = board.count(seat);
        let most = eggs_per_seat(players);
        if *is_out && count > 0 {
            return Err(RuleError::new(format!(
                "seat {seat} is out but still has {count} eggs on the board"
            )));
        }
        if count > most {
            return Err(RuleError::new(format!(
                "seat {seat} has {count} eggs; a {players}-player game has only {most} for each seat"
            )));
        }
    }
    let last = match fields.get("last") {
        None => None,
        Some(v) => {
            let cell: Cell = v.parse()?;
            if board.get(cell).is_none() {
                return Err(RuleError::new(format!("last={cell} names an empty cell")));
            }
            Some(cell)
        }
    };
    let passes = match fields.get("passes") {
        None => 0,
        Some(v) => v
            .parse::<usize>()
            .ok()
            .filter(|&n| n < remaining)
            .ok_or_else(|| {
                RuleError::new(format!(
                    "passes must be a number below the {remaining} seats still playing, not '{v}'"
                ))
            })?,
    };
    let no_move_back = match fields.get("no_move_back") {
        None | Some(&"on") => true,
        Some(&"off") => false,
        Some(v) => {
            return Err(RuleError::new(format!(
                "no_move_back must be on or off, not '{v}'"
            )))
        }
    };
    Ok(Ovo {
        players,
        turn,
        board,
        last,
        out,
        passes,
        no_move_back,
        outcome: Outcome::Ongoing,
    })
}

fn seat_number(word: &str, players: usize) -> RuleResult<usize> {
    word.parse::<usize>()
        .ok()
        .filter(|&s| s < players)
        .ok_or_else(|| {
            RuleError::new(format!(
                "'{word}' is not a seat of a {players}-player game (0 to {})",
                players - 1
            ))
        })
}

fn parse_board(text: &str, players: usize) -> RuleResult<Board> {
    let rows: Vec<&str> = text.split('/').collect();
    if rows.len() != SIDE {
        return Err(RuleError::new(format!(
            "board= needs {SIDE} ranks separated by '/', got {}",
            rows.len()
        )));
    }
    let mut board = Board::empty();
    for (i, row) in rows.iter().enumerate() {
        let rank = SIDE - i;
        if row.chars().count() != SIDE {
            return Err(RuleError::new(format!(
                "rank {rank} of board= needs {SIDE} cells, got '{row}'"
            )));
        }
        for (file, ch) in row.chars().enumerate() {
            let egg = match ch {
                '.' => None,
                'A'..='D' => Some(Egg {
                    owner: ch as usize - 'A' as usize,
                    hidden: false,
                }),
                'a'..='d' => Some(Egg {
                    owner: ch as usize - 'a' as usize,
                    hidden: true,
                }),
                _ => {
                    return Err(RuleError::new(format!(
                        "'{ch}' on rank {rank} is not a cell of board= (. A-D a-d)"
                    )))
                }
            };
            if let Some(e) = egg {
                if e.owner >= players {
                    return Err(RuleError::new(format!(
                        "'{ch}' on rank {rank} is an egg of seat {}, which a {players}-player game does not have",
                        e.owner
                    )));
                }
            }
            let cell = Cell::new(file as i32, (rank - 1) as i32)
                .ok_or_else(|| RuleError::new("a board cell is off the board"))?;
            board.put(cell, egg);
        }
    }
    Ok(board)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::games::{Game, Params};

    #[test]
    fn the_start_prints_as_the_rules_example_and_reads_back() {
        let g = Ovo::new_game(&Params::new()).unwrap();
        let line = g.position();
        assert_eq!(
            line,
            "players=2 turn=0 board=BBBBBB/....../....../....../....../AAAAAA"
        );
        assert_eq!(parse(&line).unwrap(), g);
        let g = Ovo::new_game(&Params::new().with("players", 4).with("first", 3)).unwrap();
        assert_eq!(
            g.position(),
            "players=4 turn=3 board=BB..CC/BB..CC/....../....../AA..DD/AA..DD"
        );
    }

    #[test]
    fn fields_in_any_order_print_canonically_with_the_extensions_last() {
        let line = "no_move_back=off passes=1 out=0,2 last=d1 turn=1 players=4 board=......,......,......,......,......,......";
        assert!(parse(line).is_err(), "ranks are separated by /");
        let line = "no_move_back=off passes=1 out=2,0 last=e1 turn=1 players=4 board=bB..../BB..../....../....../....../..dddd";
        let g = parse(line).unwrap();
        let canon = "players=4 turn=1 board=bB..../BB..../....../....../....../..dddd last=e1 out=0,2 passes=1 no_move_back=off";
        assert!(parse(line).is_ok_and(|g| g.position() == canon));
        assert_eq!(parse(canon).unwrap(), g);
    }

    #[test]
    fn inconsistent_positions_are_refused_with_a_reason() {
        let start = "players=2 turn=0 board=BBBBBB/....../....../....../....../AAAAAA";
        assert!(parse(start).is_ok());
        for (bad, why) in [
            ("", "needs players="),
            ("players=2 turn=0", "needs board="),
            ("players=3 turn=0 board=x", "2 or 4"),
            (&start.replace("turn=0", "turn=2"), "not a seat"),
            (&start.replace("turn=0", "turn=-1"), "not a seat"),
            (&format!("{start} turn=1"), "twice"),
            (&format!("{start} colour=red"), "unknown position field"),
            (&format!("{start} junk"), "key=value"),
            (&start.replace("AAAAAA", "AAAAA"), "6 cells"),
            (&start.replace("AAAAAA", "AAAAAAA"), "6 cells"),
            (&start.replace("/AAAAAA", ""), "6 ranks"),
            (
                &start.replace("....../AAAAAA", "A...../AAAAAA"),
                "seat 0 has 7 eggs",
            ),
            (&start.replace("AAAAAA", "AAAAAAC"), "6 cells"),
            (&start.replace("AAAAAA", "AAAAAC"), "seat 2"),
            (&start.replace("AAAAAA", "AAAAAx"), "'x'"),
            (&start.replace("AAAAAA", "AAAAAé"), "'é'"),
            (&format!("{start} last=c3"), "empty cell"),
            (&format!("{start} last=z9"), "not a cell"),
            (&format!("{start} out=1"), "2-player"),
            (&format!("{start} passes=2"), "passes"),
            (&format!("{start} passes=x"), "passes"),
            (&format!("{start} no_move_back=maybe"), "on or off"),
        ] {
            let err = parse(bad).unwrap_err();
            assert!(err.to_string().contains(why), "{bad}: {err}");
        }
        let four = "players=4 turn=0 board=BB..CC/BB..CC/....../....../AA..DD/AA..DD";
        assert!(parse(four).is_ok());
        for (bad, why) in [
            (
                format!("{four} out=1"),
                "seat 1 is out but still has 4 eggs",
            ),
            (
                four.replace("BB..CC/BB..CC", "....CC/....CC") + " out=1,1",
                "twice",
            ),
            (
                four.replace("BB..CC/BB..CC", "....../......") + " out=1,2,3",
                "two seats",
            ),
            (
                four.replace("AA..DD/AA..DD", "....DD/....DD") + " out=0",
                "seat 0 is out and cannot be on turn",
            ),
            (
                four.replace("AA..DD/AA..DD", "AAA.DD/AA..DD"),
                "seat 0 has 5 eggs",
            ),
            (format!("{four} out="), "not a seat"),
            (format!("{four} out=4"), "not a seat"),
        ] {
            let err = parse(&bad).unwrap_err();
            assert!(err.to_string().contains(why), "{bad}: {err}");
        }
    }
}
