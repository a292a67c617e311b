//! Omiga cards: a central figure with a top and a bottom end, and a coloured semicircle on
//! the left and on the right. Spelled `TB-LR` (`PN-GK`); the deck is every combination.

use crate::games::{RuleError, RuleResult};
use serde::{Deserialize, Deserializer, Serialize, Serializer};
use std::fmt;
use std::str::FromStr;

/// One end of a card's central figure.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Figure {
    /// A diagonal end, `D`: fits another diagonal.
    Diagonal,
    /// A point, `P`: fits a notch.
    Point,
    /// A notch, `N`: fits a point.
    Notch,
}

/// The colour of a side semicircle.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Colour {
    /// Green, `G`.
    Green,
    /// Pink, `K`.
    Pink,
}

const FIGURES: [Figure; 3] = [Figure::Diagonal, Figure::Point, Figure::Notch];
const COLOURS: [Colour; 2] = [Colour::Green, Colour::Pink];

/// How many cards each seat's deck holds.
pub const DECK_SIZE: usize = 36;

impl Figure {
    /// The notation letter.
    pub fn letter(self) -> char {
        match self {
            Figure::Diagonal => 'D',
            Figure::Point => 'P',
            Figure::Notch => 'N',
        }
    }

    fn from_letter(c: char) -> Option<Self> {
        FIGURES.into_iter().find(|f| f.letter() == c)
    }

    /// Whether two ends meeting across a horizontal edge fit: D–D, P–N, N–P.
    pub fn fits(self, other: Figure) -> bool {
        matches!(
            (self, other),
            (Figure::Diagonal, Figure::Diagonal)
                | (Figure::Point, Figure::Notch)
                | (Figure::Notch, Figure::Point)
        )
    }
}

impl Colour {
    /// The notation letter.
    pub fn letter(self) -> char {
        match self {
            Colour::Green => 'G',
            Colour::Pink => 'K',
        }
    }

    fn from_letter(c: char) -> Option<Self> {
        COLOURS.into_iter().find(|k| k.letter() == c)
    }
}

/// A card as it lies (or is held): top and bottom as seen by White, left and right likewise.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Card {
    /// The figure's end pointing to the larger row numbers (away from White).
    pub top: Figure,
    /// The figure's end pointing to the smaller row numbers (towards White).
    pub bottom: Figure,
    /// The semicircle on the smaller-column side.
    pub left: Colour,
    /// The semicircle on the larger-column side.
    pub right: Colour,
}

impl Card {
    /// A card from its four parts, in notation order.
    pub const fn new(top: Figure, bottom: Figure, left: Colour, right: Colour) -> Self {
        Card {
            top,
            bottom,
            left,
            right,
        }
    }

    /// The card turned 180°: `(T,B,L,R)` becomes `(B,T,R,L)`.
    pub fn turned(self) -> Card {
        Card::new(self.bottom, self.top, self.right, self.left)
    }

    /// The card as laid: turned or as held.
    pub fn oriented(self, rotated: bool) -> Card {
        if rotated {
            self.turned()
        } else {
            self
        }
    }

    /// Whether turning changes the card (6 of the 36 look the same both ways).
    pub fn is_symmetric(self) -> bool {
        self.turned() == self
    }

    /// The card's place in [`full_deck`], 0..36 (handy for bit sets).
    pub fn index(self) -> usize {
        let f = |f: Figure| f as usize;
        let c = |c: Colour| c as usize;
        ((f(self.top) * 3 + f(self.bottom)) * 2 + c(self.left)) * 2 + c(self.right)
    }
}

/// Whether `left` may lie directly left of `right`: the semicircles meet in one colour.
pub fn fits_beside(left: Card, right: Card) -> bool {
    left.right == right.left
}

/// Whether `upper` may lie directly above `lower` (one row further from White): the lower
/// card's top and the upper card's bottom are complementary.
pub fn fits_above(lower: Card, upper: Card) -> bool {
    lower.top.fits(upper.bottom)
}

/// Every card of one deck, in notation order (`DD-GG`, `DD-GK`, … `NN-KK`): the deck as data.
pub fn full_deck() -> Vec<Card> {
    let mut deck = Vec::with_capacity(DECK_SIZE);
    for top in FIGURES {
        for bottom in FIGURES {
            for left in COLOURS {
                for right in COLOURS {
                    deck.push(Card::new(top, bottom, left, right));
                }
            }
        }
    }
    deck
}

impl fmt::Display for Card {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "{}{}-{}{}",
            self.top.letter(),
            self.bottom.letter(),
            self.left.letter(),
            self.right.letter()
        )
    }
}

impl FromStr for Card {
    type Err = RuleError;

    fn from_str(s: &str) -> RuleResult<Self> {
        let bad = || {
            RuleError::new(format!(
                "'{}' is not a card (write top, bottom, left, right: PN-GK)",
                short(s)
            ))
        };
        let chars: Vec<char> = s.chars().collect();
        let [t, b, '-', l, r] = chars.as_slice() else {
            return Err(bad());
        };
        Ok(Card::new(
            Figure::from_letter(*t).ok_or_else(bad)?,
            Figure::from_letter(*b).ok_or_else(bad)?,
            Colour::from_letter(*l).ok_or_else(bad)?,
            Colour::from_letter(*r).ok_or_else(bad)?,
        ))
    }
}

/// Cards travel as their notation in JSON, so views read like the game's own words.
impl Serialize for Card {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.collect_str(self)
    }
}

/// Cards are read back from their notation (the network client receives views as JSON).
impl<'de> Deserialize<'de> for Card {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        let text = std::borrow::Cow::<'de, str>::deserialize(deserializer)?;
        text.parse().map_err(serde::de::Error::custom)
    }
}

/// Parses a comma-separated card list (`PN-GK,DD-KG`); the empty string is no cards.
pub fn parse_cards(list: &str) -> RuleResult<Vec<Card>> {
    if list.is_empty() {
        return Ok(Vec::new());
    }
    list.split(',').map(str::parse).collect()
}

/// Writes cards comma-separated, the inverse of [`parse_cards`].
pub fn write_cards<'a>(cards: impl IntoIterator<Item = &'a Card>) -> String {
    let words: Vec<String> = cards.into_iter().map(Card::to_string).collect();
    words.join(",")
}

/// Keeps an echoed word short, so that an error about a huge token stays one short line.
pub(crate) fn short(word: &str) -> String {
    const MAX: usize = 24;
    match word.char_indices().nth(MAX) {
        Some((i, _)) => format!("{}…", &word[..i]),
        None => word.to_string(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn card(s: &str) -> Card {
        s.parse().unwrap()
    }

    #[test]
    fn the_deck_is_36_distinct_cards_that_spell_back() {
        let deck = full_deck();
        assert_eq!(deck.len(), DECK_SIZE);
        for (i, c) in deck.iter().enumerate() {
            assert_eq!(c.index(), i);
            assert_eq!(card(&c.to_string()), *c);
        }
        assert_eq!(deck[0].to_string(), "DD-GG");
        assert_eq!(deck[35].to_string(), "NN-KK");
        assert_eq!(deck.iter().filter(|c| c.is_symmetric()).count(), 6);
    }

    #[test]
    fn turning_swaps_ends_and_sides() {
        assert_eq!(card("PN-GK").turned(), card("NP-KG"));
        assert_eq!(card("DP-GG").turned(), card("PD-GG"));
        assert_eq!(card("PN-GK").turned().turned(), card("PN-GK"));
        assert!(card("DD-KK").is_symmetric());
        assert!(card("PP-GK").turned() != card("PP-GK"));
    }

    #[test]
    fn matching_colours_and_figures() {
        assert!(fits_beside(card("DD-GK"), card("DD-KG")));
        assert!(!fits_beside(card("DD-GK"), card("DD-GG")));
        assert!(fits_above(card("PD-GG"), card("DN-GG")));
        assert!(fits_above(card("ND-GG"), card("DP-GG")));
        assert!(fits_above(card("DD-GG"), card("DD-GG")));
        assert!(!fits_above(card("PD-GG"), card("DP-GG")));
        assert!(!fits_above(card("DD-GG"), card("DN-GG")));
        // Only the lower card's top and the upper card's bottom meet.
        assert!(!fits_above(card("DP-GG"), card("PN-GG")));
    }

    #[test]
    fn bad_cards_are_refused_with_a_reason() {
        for bad in [
            "", "PN", "PNGK", "PN-GX", "XN-GK", "pn-gk", "PN-GKK", "PN_GK", "ПН-GK",
        ] {
            let e = bad.parse::<Card>().unwrap_err();
            assert!(e.to_string().contains("is not a card"), "{bad}: {e}");
        }
        assert_eq!(parse_cards("").unwrap(), vec![]);
        assert_eq!(
            write_cards(&parse_cards("PN-GK,DD-KG").unwrap()),
            "PN-GK,DD-KG"
        );
        assert!(parse_cards("PN-GK,").is_err());
    }
}
