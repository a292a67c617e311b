//! The Omiga position line of docs/referee.md:
//! `table=WxH cells=X,Y:SIDE:CARD;... hands=CARDS|CARDS decks=CARDS|CARDS`, extended with
//! `allow_rotation=off` and `free_discard=on`, printed only when not the default, so that
//! a position carries the whole game.

use super::cards::{parse_cards, short, write_cards, Card, DECK_SIZE};
use super::notation::parse_cell;
use super::table::{parse_table_size, Placed, Side, Table};
use super::{Omiga, HAND_SIZE};
use crate::games::{Outcome, RuleError, RuleResult};
use std::collections::{BTreeMap, VecDeque};

/// The position line of `game`, in the canonical field order and spelling.
pub fn write(game: &Omiga) -> String {
    let cells: Vec<String> = game
        .table
        .placed()
        .map(|(x, y, p)| format!("{x},{y}:{}:{}", p.side.letter(), p.card))
        .collect();
    let mut line = format!(
        "table={}x{} cells={} hands={}|{} decks={}|{}",
        game.table.width(),
        game.table.height(),
        cells.join(";"),
        write_cards(&game.hands[0]),
        write_cards(&game.hands[1]),
        write_cards(&game.decks[0]),
        write_cards(&game.decks[1]),
    );
    if !game.allow_rotation {
        line.push_str(" allow_rotation=off");
    }
    if game.free_discard {
        line.push_str(" free_discard=on");
    }
    line
}

const FIELDS: [&str; 6] = [
    "table",
    "cells",
    "hands",
    "decks",
    "allow_rotation",
    "free_discard",
];

/// Reads a position line and checks it for consistency; the game it gives is ongoing.
pub fn parse(line: &str) -> RuleResult<Omiga> {
    let mut fields: BTreeMap<&str, &str> = BTreeMap::new();
    for word in line.split_whitespace() {
        let (key, value) = word.split_once('=').ok_or_else(|| {
            RuleError::new(format!("expected field=value, got '{}'", short(word)))
        })?;
        if !FIELDS.contains(&key) {
            return Err(RuleError::new(format!(
                "unknown field '{}' (fields: {})",
                short(key),
                FIELDS.join(", ")
            )));
        }
        if fields.insert(key, value).is_some() {
            return Err(RuleError::new(format!("field {key} is given twice")));
        }
    }
    let field = |key: &str| {
        fields
            .get(key)
            .copied()
            .ok_or_else(|| RuleError::new(format!("the position needs {key}=")))
    };
    let (width, height) = parse_table_size(field("table")?)?;
    let mut table = Table::new(width, height);
    let cells = field("cells")?;
    if !cells.is_empty() {
        for entry in cells.split(';') {
            let (x, y, placed) = parse_entry(entry)?;
            if !table.contains(x, y) {
                return Err(RuleError::new(format!("cell {x},{y} is outside the table")));
            }
            table
                .put(x, y, placed)
                .map_err(|_| RuleError::new(format!("cell {x},{y} is given twice")))?;
        }
    }
    let [white_hand, black_hand] = pair(field("hands")?, "hands")?;
    let [white_deck, black_deck] = pair(field("decks")?, "decks")?;
    let switch = |key: &str, default: bool| match fields.get(key).copied() {
        None => Ok(default),
        Some("on") => Ok(true),
        Some("off") => Ok(false),
        Some(v) => Err(RuleError::new(format!(
            "{key} must be on or off, got '{}'",
            short(v)
        ))),
    };
    let game = Omiga {
        table,
        hands: [white_hand, black_hand],
        decks: [VecDeque::from(white_deck), VecDeque::from(black_deck)],
        allow_rotation: switch("allow_rotation", true)?,
        free_discard: switch("free_discard", false)?,
        outcome: Outcome::Ongoing,
    };
    check(&game)?;
    Ok(game)
}

/// One `X,Y:SIDE:CARD` entry.
fn parse_entry(entry: &str) -> RuleResult<(i32, i32, Placed)> {
    let bad = || {
        RuleError::new(format!(
            "'{}' is not a cell entry (write x,y:w:PN-GK)",
            short(entry)
        ))
    };
    let mut parts = entry.split(':');
    let (Some(cell), Some(side), Some(card), None) =
        (parts.next(), parts.next(), parts.next(), parts.next())
    else {
        return Err(bad());
    };
    let (x, y) = parse_cell(cell)?;
    let side = match side {
        "w" => Side::White,
        "b" => Side::Black,
        _ => return Err(bad()),
    };
    let card: Card = card.parse()?;
    Ok((x, y, Placed { side, card }))
}

/// Two card lists `WHITE|BLACK`.
fn pair(value: &str, key: &str) -> RuleResult<[Vec<Card>; 2]> {
    let mut lists = value.split('|');
    let (Some(white), Some(black), None) = (lists.next(), lists.next(), lists.next()) else {
        return Err(RuleError::new(format!(
            "{key} needs two card lists, White's first: {key}=A,B|C,D"
        )));
    };
    Ok([parse_cards(white)?, parse_cards(black)?])
}

/// docs/referee.md consistency: hands of at most 3, and each side's cards distinct across its
/// cells, hand and deck. A placed card lies as it was laid, so it may be either of its
/// two orientations in the deck: within each pair `{c, c turned}` the held and deck cards
/// must differ and, with the placed ones, number at most the pair's size.
fn check(game: &Omiga) -> RuleResult<()> {
    for side in [Side::White, Side::Black] {
        let s = side.seat();
        let name = if side == Side::White {
            "White"
        } else {
            "Black"
        };
        if game.hands[s].len() > HAND_SIZE {
            return Err(RuleError::new(format!(
                "{name}'s hand has {} cards; at most {HAND_SIZE}",
                game.hands[s].len()
            )));
        }
        let mut held = [0usize; DECK_SIZE];
        let mut laid = [0usize; DECK_SIZE];
        for card in game.hands[s].iter().chain(&game.decks[s]) {
            let n = held.get_mut(card.index()).ok_or_else(|| unknown(card))?;
            *n += 1;
            if *n > 1 {
                return Err(RuleError::new(format!("{name} has {card} twice")));
            }
        }
        for (_, _, p) in game.table.placed().filter(|(_, _, p)| p.side == side) {
            *laid
                .get_mut(p.card.index())
                .ok_or_else(|| unknown(&p.card))? += 1;
        }
        for card in super::cards::full_deck() {
            let turned = card.turned();
            let size = if card.is_symmetric() { 1 } else { 2 };
            let count = |c: Card| held[c.index()] + laid[c.index()];
            let total = if card.is_symmetric() {
                count(card)
            } else {
                count(card) + count(turned)
            };
            if total > size {
                return Err(RuleError::new(if size == 1 {
                    format!("{name} has {card} more than once")
                } else {
                    format!("{name} has more than two of {card} and {turned} (either way up)")
                }));
            }
        }
    }
    Ok(())
}

fn unknown(card: &Card) -> RuleError {
    RuleError::new(format!("{card} is not an Omiga card"))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::games::{Game, Params};

    #[test]
    fn positions_round_trip_in_canonical_spelling() {
        for line in [
            "table=9x10 cells=4,4:w:PD-GG;4,5:b:DN-GG hands=DD-GG,PN-GK|NN-KK decks=DD-KK|NP-KG,ND-GK",
            "table=7x8 cells= hands=| decks=|",
            "table=11x12 cells=0,0:b:DD-GG;10,11:w:DD-GG hands=|DD-KK decks=| allow_rotation=off free_discard=on",
        ] {
            let g = Omiga::from_position(line).unwrap();
            assert_eq!(g.position(), line);
            assert_eq!(Omiga::from_position(&g.position()).unwrap(), g);
        }
        // Any field order is read; the canonical order is printed.
        let g = Omiga::from_position(
            "decks=| hands=| free_discard=off cells=5,1:b:DD-GG;1,1:w:DD-GG table=9x10",
        )
        .unwrap();
        assert_eq!(
            g.position(),
            "table=9x10 cells=1,1:w:DD-GG;5,1:b:DD-GG hands=| decks=|"
        );
        let new = Omiga::new_game(&Params::new().with("seed", 11)).unwrap();
        assert_eq!(Omiga::from_position(&new.position()).unwrap(), new);
    }

    #[test]
    fn a_placed_card_may_be_either_way_up() {
        // PN-GK laid turned lies as NP-KG, while the hand still holds NP-KG: consistent.
        assert!(Omiga::from_position("table=9x10 cells=4,4:w:NP-KG hands=NP-KG| decks=|").is_ok());
        assert!(
            Omiga::from_position("table=9x10 cells=4,4:w:NP-KG;5,4:w:NP-KG hands=| decks=|")
                .is_ok()
        );
        let e =
            Omiga::from_position("table=9x10 cells=4,4:w:NP-KG;5,4:w:PN-GK hands=NP-KG| decks=|")
                .unwrap_err();
        assert!(e.to_string().contains("more than two"), "{e}");
        let e =
            Omiga::from_position("table=9x10 cells=4,4:w:DD-GG hands=DD-GG| decks=|").unwrap_err();
        assert!(e.to_string().contains("more than once"), "{e}");
        // The two sides' cards are separate decks.
        assert!(Omiga::from_position(
            "table=9x10 cells=4,4:w:DD-GG;4,5:b:DD-GG hands=| decks=DD-KK|DD-KK"
        )
        .is_ok());
    }

    #[test]
    fn inconsistent_positions_are_refused_with_a_reason() {
        for (line, reason) in [
            ("", "needs table="),
            ("table=9x10 cells= hands=|", "needs decks="),
            ("table=8x8 cells= hands=| decks=|", "table must be"),
            (
                "table=9x10 cells=9,0:w:DD-GG hands=| decks=|",
                "outside the table",
            ),
            (
                "table=9x10 cells=0,-1:w:DD-GG hands=| decks=|",
                "outside the table",
            ),
            (
                "table=9x10 cells=1,1:w:DD-GG;1,1:b:DD-KK hands=| decks=|",
                "given twice",
            ),
            (
                "table=9x10 cells=1,1:x:DD-GG hands=| decks=|",
                "not a cell entry",
            ),
            ("table=9x10 cells=1,1:w hands=| decks=|", "not a cell entry"),
            (
                "table=9x10 cells=1,1:w:DD-GG:x hands=| decks=|",
                "not a cell entry",
            ),
            (
                "table=9x10 cells=1;1:w:DD-GG hands=| decks=|",
                "not a cell entry",
            ),
            (
                "table=9x10 cells= hands=DD-GG,DD-KK,NN-GG,PP-GG| decks=|",
                "at most 3",
            ),
            ("table=9x10 cells= hands=DD-GG| decks=DD-GG|", "DD-GG twice"),
            ("table=9x10 cells= hands=| decks=|DD-GG,XX-GG", "not a card"),
            ("table=9x10 cells= hands=|| decks=|", "two card lists"),
            ("table=9x10 cells= hands=DD-GG decks=|", "two card lists"),
            ("table=9x10 cells= hands=| decks=| turn=0", "unknown field"),
            (
                "table=9x10 cells= hands=| decks=| table=9x10",
                "given twice",
            ),
            (
                "table=9x10 cells= hands=| decks=| allow_rotation=1",
                "on or off",
            ),
            ("table=9x10 cells hands=| decks=|", "expected field=value"),
        ] {
            let e = Omiga::from_position(line).unwrap_err();
            assert!(e.to_string().contains(reason), "{line}: {e}");
        }
    }
}
