//! IOTA cards: 64 faces (colour × shape × number) and the wild, spelt `Rt2` / `W`.

use crate::games::{RuleError, RuleResult};
use serde::{Serialize, Serializer};
use std::fmt;
use std::str::FromStr;

/// Colour letters in index order: red, green, blue, yellow.
const COLOURS: [char; 4] = ['R', 'G', 'B', 'Y'];
/// Shape letters in index order: circle, square, triangle, cross.
const SHAPES: [char; 4] = ['c', 's', 't', 'x'];
/// Colour names for messages, in index order.
pub(crate) const COLOUR_NAMES: [&str; 4] = ["red", "green", "blue", "yellow"];
/// Shape names for messages, in index order.
pub(crate) const SHAPE_NAMES: [&str; 4] = ["circle", "square", "triangle", "cross"];

/// One card: a face (id 0..63 = colour·16 + shape·4 + number−1) or the wild (id 64).
/// Kept as one byte so that lines and hands are cheap to copy in the hot legality checks.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Card(u8);

impl Card {
    /// The wild card, `W`.
    pub const WILD: Card = Card(64);

    /// The face card of colour `c`, shape `s` (indices 0..4) and number `n` (1..=4);
    /// `None` when an index is out of range.
    pub fn face(colour: u8, shape: u8, number: u8) -> Option<Card> {
        (colour < 4 && shape < 4 && (1..=4).contains(&number))
            .then(|| Card(colour * 16 + shape * 4 + number - 1))
    }

    /// The card with this id (0..63 faces, 64 the wild), if any.
    pub fn from_id(id: u8) -> Option<Card> {
        (id <= 64).then_some(Card(id))
    }

    /// The card's id: 0..63 for faces, 64 for the wild.
    pub fn id(self) -> u8 {
        self.0
    }

    /// True for the wild card.
    pub fn is_wild(self) -> bool {
        self.0 == 64
    }

    /// Colour index 0..4 (R, G, B, Y); meaningless for the wild.
    pub fn colour(self) -> u8 {
        (self.0 >> 4) & 3
    }

    /// Shape index 0..4 (c, s, t, x); meaningless for the wild.
    pub fn shape(self) -> u8 {
        (self.0 >> 2) & 3
    }

    /// The printed number 1..=4 (0 for the wild).
    pub fn number(self) -> u8 {
        if self.is_wild() {
            0
        } else {
            (self.0 & 3) + 1
        }
    }

    /// Face value for scoring: the number, 0 for a wild wherever it lies.
    pub fn value(self) -> u32 {
        u32::from(self.number())
    }

    /// The colour letter (`R`, `G`, `B`, `Y`), or `W` for the wild.
    pub fn colour_letter(self) -> char {
        if self.is_wild() {
            'W'
        } else {
            COLOURS[usize::from(self.colour())]
        }
    }

    /// Every face card once, in id order (the 64 faces without the wilds).
    pub fn faces() -> impl Iterator<Item = Card> {
        (0..64).map(Card)
    }

    /// The full deck of 66 cards: the 64 faces in id order, then two wilds.
    pub fn full_deck() -> Vec<Card> {
        let mut deck: Vec<Card> = Card::faces().collect();
        deck.push(Card::WILD);
        deck.push(Card::WILD);
        deck
    }
}

impl fmt::Display for Card {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.is_wild() {
            f.write_str("W")
        } else {
            write!(
                f,
                "{}{}{}",
                COLOURS[usize::from(self.colour())],
                SHAPES[usize::from(self.shape())],
                self.number()
            )
        }
    }
}

impl FromStr for Card {
    type Err = RuleError;

    fn from_str(s: &str) -> RuleResult<Card> {
        if s == "W" {
            return Ok(Card::WILD);
        }
        let bad = || {
            RuleError::new(format!(
                "'{}' is not a card (colour R G B Y, shape c s t x, number 1-4, e.g. Rt2; or W)",
                short(s)
            ))
        };
        let mut chars = s.chars();
        let (Some(c), Some(sh), Some(n), None) =
            (chars.next(), chars.next(), chars.next(), chars.next())
        else {
            return Err(bad());
        };
        let colour = COLOURS.iter().position(|&x| x == c).ok_or_else(bad)?;
        let shape = SHAPES.iter().position(|&x| x == sh).ok_or_else(bad)?;
        let number = n.to_digit(10).ok_or_else(bad)?;
        let (Ok(colour), Ok(shape), Ok(number)) = (
            u8::try_from(colour),
            u8::try_from(shape),
            u8::try_from(number),
        ) else {
            return Err(bad());
        };
        Card::face(colour, shape, number).ok_or_else(bad)
    }
}

/// Cards travel as their notation (`"Rt2"`, `"W"`), so views read like the rules.
impl Serialize for Card {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.collect_str(self)
    }
}

/// Keeps an echoed word short in error messages.
pub(crate) fn short(word: &str) -> String {
    const MAX: usize = 24;
    match word.char_indices().nth(MAX) {
        Some((i, _)) => format!("{}…", &word[..i]),
        None => word.to_string(),
    }
}

/// Parses a comma-separated card list (empty string = no cards).
pub(crate) fn parse_list(text: &str) -> RuleResult<Vec<Card>> {
    if text.is_empty() {
        return Ok(Vec::new());
    }
    text.split(',').map(str::parse).collect()
}

/// Prints cards comma-separated, as positions and `deck=` spell them.
pub(crate) fn print_list(cards: impl IntoIterator<Item = Card>) -> String {
    cards
        .into_iter()
        .map(|c| c.to_string())
        .collect::<Vec<_>>()
        .join(",")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_card_round_trips_through_its_spelling() {
        let deck = Card::full_deck();
        assert_eq!(deck.len(), 66);
        for card in deck {
            assert_eq!(card.to_string().parse::<Card>(), Ok(card));
        }
        let c: Card = "Rt2".parse().unwrap();
        assert_eq!((c.colour(), c.shape(), c.number(), c.value()), (0, 2, 2, 2));
        assert_eq!(Card::WILD.value(), 0);
    }

    #[test]
    fn bad_spellings_are_refused_with_a_reason() {
        for bad in [
            "", "w", "rt2", "Rt5", "Rt0", "Rq2", "Rt22", "Rt", "Qt2", "Rté", "WW",
        ] {
            let err = bad.parse::<Card>().unwrap_err();
            assert!(err.to_string().contains("is not a card"), "{bad}: {err}");
        }
    }
}
