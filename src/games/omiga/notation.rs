//! Omiga actions in the notation of docs/rules.md §4: `place PN-GK@4,6`, `place PN-GKr@4,6`,
//! `discard`.

use super::cards::{short, Card};
use crate::games::{RuleError, RuleResult};
use std::fmt;
use std::str::FromStr;

/// One Omiga action.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Action {
    /// Lay a hand card (as held, or turned 180° when `rotated`) on the cell `x,y`.
    Place {
        /// The card as it is held in the hand.
        card: Card,
        /// Whether the card is turned before it is laid (written with a trailing `r`).
        rotated: bool,
        /// Column, 0 at White's left. Kept signed so that `-1,3` parses and is refused
        /// by the rules as outside the table, with that reason.
        x: i32,
        /// Row, 0 at White's edge.
        y: i32,
    },
    /// Discard the whole hand and draw 3.
    Discard,
}

impl Action {
    /// The card as it will lie on the table (for a placement).
    pub fn laid_card(&self) -> Option<Card> {
        match *self {
            Action::Place { card, rotated, .. } => Some(card.oriented(rotated)),
            Action::Discard => None,
        }
    }
}

impl fmt::Display for Action {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Action::Place {
                card,
                rotated,
                x,
                y,
            } => write!(f, "place {card}{}@{x},{y}", if *rotated { "r" } else { "" }),
            Action::Discard => f.write_str("discard"),
        }
    }
}

/// Parses a cell `x,y` (signed whole numbers; the table decides what is inside).
pub fn parse_cell(word: &str) -> RuleResult<(i32, i32)> {
    let bad = || RuleError::new(format!("'{}' is not a cell (write x,y)", short(word)));
    let (x, y) = word.split_once(',').ok_or_else(bad)?;
    let number = |s: &str| -> RuleResult<i32> {
        // `parse` also takes a leading '+', which is not our spelling.
        if s.starts_with('+') {
            return Err(bad());
        }
        s.parse().map_err(|_| bad())
    };
    Ok((number(x)?, number(y)?))
}

impl FromStr for Action {
    type Err = RuleError;

    fn from_str(s: &str) -> RuleResult<Self> {
        let words: Vec<&str> = s.split_whitespace().collect();
        match words.as_slice() {
            ["discard"] => Ok(Action::Discard),
            ["place", target] => {
                let (card, cell) = target.split_once('@').ok_or_else(|| {
                    RuleError::new(format!("'{}' needs a cell: place PN-GK@4,6", short(target)))
                })?;
                let (card, rotated) = match card.strip_suffix('r') {
                    Some(card) => (card, true),
                    None => (card, false),
                };
                let card: Card = card.parse()?;
                let (x, y) = parse_cell(cell)?;
                Ok(Action::Place {
                    card,
                    rotated,
                    x,
                    y,
                })
            }
            ["place", ..] => Err(RuleError::new(
                "place takes one card and cell: place PN-GK@4,6",
            )),
            ["discard", ..] => Err(RuleError::new("discard takes nothing more")),
            [] => Err(RuleError::new("an action is missing")),
            [word, ..] => Err(RuleError::new(format!(
                "'{}' is not an Omiga action (place CARD@x,y or discard)",
                short(word)
            ))),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn actions_spell_back() {
        for text in [
            "place PN-GK@4,6",
            "place PN-GKr@4,6",
            "place DD-KK@0,11",
            "discard",
        ] {
            let a: Action = text.parse().unwrap();
            assert_eq!(a.to_string(), text);
        }
        let a: Action = "place PN-GKr@4,6".parse().unwrap();
        assert_eq!(a.laid_card().unwrap().to_string(), "NP-KG");
        // Outside cells parse; the rules refuse them with a reason.
        assert!("place PN-GK@-1,3".parse::<Action>().is_ok());
    }

    #[test]
    fn bad_actions_are_refused_with_a_reason() {
        for (bad, reason) in [
            ("", "missing"),
            ("pass", "not an Omiga action"),
            ("place", "one card and cell"),
            ("place PN-GK", "needs a cell"),
            ("place PN-GK@4", "not a cell"),
            ("place PN-GK@4,x", "not a cell"),
            ("place PN-GK@+4,1", "not a cell"),
            ("place PN-GK@4,99999999999", "not a cell"),
            ("place PN-GKrr@4,6", "not a card"),
            ("place XX-GK@4,6", "not a card"),
            ("place PN-GK@4,6 DD-GG@1,1", "one card and cell"),
            ("discard now", "nothing more"),
        ] {
            let e = bad.parse::<Action>().unwrap_err();
            assert!(e.to_string().contains(reason), "{bad}: {e}");
        }
    }
}
