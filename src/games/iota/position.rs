//! The position line of docs/referee.md:
//! `players=N turn=SEAT grid=X,Y:CARD;... hands=CARDS|... pile=CARDS scores=N,... [passes=N]`.

use super::board::Grid;
use super::cards::{parse_list, print_list, short, Card};
use super::notation::Cell;
use super::{Iota, HAND_SIZE};
use crate::games::{RuleError, RuleResult};
use std::collections::BTreeMap;

/// The highest score a position may give (far above any real game, far below overflow).
const MAX_SCORE: i64 = 1_000_000_000;

fn bad<T>(message: impl Into<String>) -> RuleResult<T> {
    Err(RuleError::new(message))
}

/// Prints the canonical position line.
pub(crate) fn print(game: &Iota) -> String {
    let grid = game
        .grid
        .sorted()
        .iter()
        .map(|(cell, card)| format!("{cell}:{card}"))
        .collect::<Vec<_>>()
        .join(";");
    let hands = game
        .hands
        .iter()
        .map(|h| print_list(h.iter().copied()))
        .collect::<Vec<_>>()
        .join("|");
    let scores = game
        .scores
        .iter()
        .map(|s| s.to_string())
        .collect::<Vec<_>>()
        .join(",");
    let mut line = format!(
        "players={} turn={} grid={grid} hands={hands} pile={} scores={scores}",
        game.players,
        game.turn,
        print_list(game.pile.iter().copied())
    );
    if game.passes != 0 {
        line.push_str(&format!(" passes={}", game.passes));
    }
    line
}

/// Reads a position line and checks it for consistency.
pub(crate) fn parse(text: &str) -> RuleResult<Iota> {
    let mut fields: BTreeMap<&str, &str> = BTreeMap::new();
    for word in text.split_whitespace() {
        let Some((key, value)) = word.split_once('=') else {
            return bad(format!("expected key=value, got '{}'", short(word)));
        };
        if ![
            "players", "turn", "grid", "hands", "pile", "scores", "passes",
        ]
        .contains(&key)
        {
            return bad(format!(
                "unknown field '{}' (players, turn, grid, hands, pile, scores, passes)",
                short(key)
            ));
        }
        if fields.insert(key, value).is_some() {
            return bad(format!("field {key} is given twice"));
        }
    }
    let field = |key: &str| {
        fields
            .get(key)
            .copied()
            .ok_or_else(|| RuleError::new(format!("the position lacks {key}=")))
    };
    let number = |key: &str, value: &str| {
        value.parse::<u32>().map_err(|_| {
            RuleError::new(format!(
                "{key} must be a whole number, got '{}'",
                short(value)
            ))
        })
    };
    let players = number("players", field("players")?)? as usize;
    if !(2..=4).contains(&players) {
        return bad("players must be 2 to 4");
    }
    let turn = number("turn", field("turn")?)? as usize;
    if turn >= players {
        return bad(format!("turn must be a seat from 0 to {}", players - 1));
    }
    let grid = parse_grid(field("grid")?)?;
    let hands = field("hands")?
        .split('|')
        .map(parse_list)
        .collect::<RuleResult<Vec<_>>>()?;
    if hands.len() != players {
        return bad(format!(
            "hands= lists {} hands for {players} players",
            hands.len()
        ));
    }
    if let Some(seat) = hands.iter().position(|h| h.len() > HAND_SIZE) {
        return bad(format!("seat {seat} holds more than {HAND_SIZE} cards"));
    }
    let pile = parse_list(field("pile")?)?;
    let scores = field("scores")?
        .split(',')
        .map(|s| match s.parse::<i64>() {
            Ok(n) if (0..=MAX_SCORE).contains(&n) => Ok(n),
            _ => bad(format!("'{}' is not a score", short(s))),
        })
        .collect::<RuleResult<Vec<_>>>()?;
    if scores.len() != players {
        return bad(format!(
            "scores= lists {} scores for {players} players",
            scores.len()
        ));
    }
    let passes = match fields.get("passes") {
        Some(p) => number("passes", p)?,
        None => 0,
    };
    if passes as usize > 3 * players {
        return bad(format!(
            "passes is at most {} (the game ends after three rounds of passes)",
            3 * players
        ));
    }
    let mut seen = [0u8; 65];
    let all = grid
        .iter()
        .map(|(_, c)| c)
        .chain(hands.iter().flatten().copied())
        .chain(pile.iter().copied());
    for card in all {
        if let Some(n) = seen.get_mut(usize::from(card.id())) {
            *n += 1;
            if card.is_wild() && *n > 2 {
                return bad("W appears more than twice");
            }
            if !card.is_wild() && *n > 1 {
                return bad(format!("{card} appears twice"));
            }
        }
    }
    Ok(Iota {
        players,
        turn,
        grid,
        hands,
        pile: pile.into(),
        scores,
        passes,
    })
}

/// Reads `X,Y:CARD;...` (possibly empty), refusing a cell named twice. The grid's lines
/// are not judged: a position need not be reachable by play (docs/referee.md), and play
/// from it checks every line a placed card joins.
fn parse_grid(text: &str) -> RuleResult<Grid> {
    let mut grid = Grid::new();
    if text.is_empty() {
        return Ok(grid);
    }
    for entry in text.split(';') {
        let Some((cell, card)) = entry.split_once(':') else {
            return bad(format!("'{}' should be X,Y:CARD", short(entry)));
        };
        let cell: Cell = cell.parse()?;
        let card: Card = card.parse()?;
        if grid.get(cell).is_some() {
            return bad(format!("{cell} is named twice in the grid"));
        }
        grid.insert(cell, card);
    }
    Ok(grid)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::games::Game;

    const START: &str =
        "players=2 turn=0 grid=0,0:Rt2 hands=Bx2,Gc2,W,Yc1|Rc3,Ys2,Gt3,Gt2 pile=Ys3,Bc4 scores=0,0";

    #[test]
    fn a_position_reads_back_unchanged() {
        let game = Iota::from_position(START).unwrap();
        assert_eq!(game.position(), START);
        let shuffled = "scores=3,4 pile= hands=|Rc3 grid=1,0:Bx2;0,0:Rt2 turn=1 players=2 passes=1";
        let game = Iota::from_position(shuffled).unwrap();
        assert_eq!(
            game.position(),
            "players=2 turn=1 grid=0,0:Rt2;1,0:Bx2 hands=|Rc3 pile= scores=3,4 passes=1"
        );
        assert!(
            game.outcome().is_over(),
            "pile and a hand empty: already over"
        );
    }

    #[test]
    fn inconsistent_positions_are_refused() {
        let cases = [
            ("players=5", "players must be 2 to 4"),
            ("turn=2", "turn must be"),
            ("grid=0,0:Rt2;0,0:Rt3", "named twice"),
            ("grid=0,0:Rt2;1,0:Zz9", "not a card"),
            ("hands=Rt2|", "appears twice"),
            ("hands=W,W|W", "more than twice"),
            ("hands=Bx2,Gc2,Yc1,Yc2,Yc3|", "more than 4"),
            ("hands=Bx2", "1 hands for 2 players"),
            ("scores=1", "1 scores"),
            ("scores=1,-2", "not a score"),
            ("passes=7", "at most 6"),
            ("colour=red", "unknown field"),
            ("pile=Zz9", "not a card"),
        ];
        for (change, reason) in cases {
            let key = change.split('=').next().unwrap();
            let mut words: Vec<String> = START
                .split(' ')
                .filter(|w| !w.starts_with(&format!("{key}=")))
                .map(String::from)
                .collect();
            words.push(change.to_string());
            let err = Iota::from_position(&words.join(" ")).unwrap_err();
            assert!(err.to_string().contains(reason), "{change}: {err}");
        }
        assert!(Iota::from_position("players=2")
            .unwrap_err()
            .to_string()
            .contains("lacks"));
        assert!(Iota::from_position(&format!("{START} turn=1"))
            .unwrap_err()
            .to_string()
            .contains("twice"));
    }
}
