//! Why IOTA refuses a placement, a swap or a pass, with what varies (see `RuleError`).

use super::cards::{COLOUR_NAMES, SHAPE_NAMES};
use super::{Card, Cell};

/// The attribute of the cards in a line that breaks the rule.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Attribute {
    /// Colours: red, green, blue, yellow.
    Colours,
    /// Shapes: circle, square, triangle, cross.
    Shapes,
    /// Numbers 1 to 4.
    Numbers,
}

impl Attribute {
    /// The word that starts the message: `Colours`.
    pub fn name(self) -> &'static str {
        match self {
            Attribute::Colours => "Colours",
            Attribute::Shapes => "Shapes",
            Attribute::Numbers => "Numbers",
        }
    }

    /// This attribute of `card` as the message names it: `red`, `circle`, `3`.
    pub fn value_of(self, card: Card) -> String {
        let word =
            |names: [&'static str; 4], i: u8| names.get(usize::from(i)).copied().unwrap_or("");
        match self {
            Attribute::Colours => word(COLOUR_NAMES, card.colour()).to_string(),
            Attribute::Shapes => word(SHAPE_NAMES, card.shape()).to_string(),
            Attribute::Numbers => card.number().to_string(),
        }
    }
}

/// `red, blue, red`: the attribute of each card, in line order.
fn values(attribute: Attribute, cards: &[Card]) -> String {
    cards
        .iter()
        .map(|c| attribute.value_of(*c))
        .collect::<Vec<_>>()
        .join(", ")
}

/// Why IOTA refuses an action (the referee's English).
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum IotaError {
    /// The action names a card twice that the hand holds once.
    #[error("You hold only one {card}")]
    HoldOnlyOne {
        /// The card.
        card: Card,
    },
    /// The action names a card the hand does not hold.
    #[error("You do not hold {card}")]
    NotHeld {
        /// The card.
        card: Card,
    },
    /// A line of five or more.
    #[error("The line {from}..{to} would have {count} cards (at most 4)")]
    LineTooLong {
        /// The line's first cell.
        from: Cell,
        /// The line's last cell.
        to: Cell,
        /// How many cards it would hold.
        count: usize,
    },
    /// A line holding one card twice.
    #[error("The line {from}..{to} would hold the same card twice")]
    SameCardTwice {
        /// The line's first cell.
        from: Cell,
        /// The line's last cell.
        to: Cell,
    },
    /// A line whose cards are neither all alike nor all different in one attribute.
    #[error(
        "{} in the line {from}..{to} must be all the same or all different ({})",
        .attribute.name(),
        values(*.attribute, .cards)
    )]
    Mixed {
        /// The attribute that breaks the rule.
        attribute: Attribute,
        /// The line's first cell.
        from: Cell,
        /// The line's last cell.
        to: Cell,
        /// The line's face cards in order.
        cards: Vec<Card>,
    },
    /// No card, or more than a hand.
    #[error("Place 1 to 4 cards")]
    PlaceOneToFour,
    /// A cell past the coordinate limit.
    #[error("{cell} is too far out")]
    TooFarOut {
        /// The cell.
        cell: Cell,
    },
    /// Two staged cards on one cell.
    #[error("Two cards cannot go on {cell}")]
    TwoOnOne {
        /// The cell.
        cell: Cell,
    },
    /// A card on a card.
    #[error("{cell} is not empty")]
    NotEmpty {
        /// The cell.
        cell: Cell,
    },
    /// Cards in neither one row nor one column.
    #[error("Place the cards all in one row or all in one column")]
    NotOneLine,
    /// A gap between the placed cards.
    #[error("The cards must form one unbroken line, but {cell} is empty")]
    Gap {
        /// The empty cell between them.
        cell: Cell,
    },
    /// The first placement on an empty table (only after the referee's `setup`).
    #[error("On an empty table a placed card must cover 0,0")]
    CoverCentre,
    /// A placement touching nothing.
    #[error("A placed card must touch a card already on the table")]
    MustTouch,
    /// The wilds cannot stand for cards that fit every line.
    #[error("No choice of cards for the wilds fits every line they are in")]
    WildsDontFit,
    /// A swap on a face card.
    #[error("There is no wild on {cell}")]
    NoWild {
        /// The cell.
        cell: Cell,
    },
    /// A swap on an empty cell.
    #[error("{cell} is empty: there is no wild there")]
    EmptyNoWild {
        /// The cell.
        cell: Cell,
    },
    /// A swap of a wild for a wild.
    #[error("Swapping a wild for a wild changes nothing")]
    WildForWild,
    /// A swap whose card does not fit the wild's lines.
    #[error("{card} does not fit every line through {cell}")]
    DoesNotFit {
        /// The hand card.
        card: Card,
        /// The wild's cell.
        cell: Cell,
    },
    /// A pass returning more than a hand.
    #[error("Return at most 4 cards")]
    ReturnAtMostFour,
}

impl IotaError {
    /// One of each (see `RuleError::examples`).
    pub fn examples() -> Vec<IotaError> {
        let (a, b) = (Cell::new(1, 0), Cell::new(4, 0));
        let red = Card::face(0, 2, 2).unwrap_or(Card::WILD);
        let blue = Card::face(2, 1, 3).unwrap_or(Card::WILD);
        let all = vec![
            IotaError::HoldOnlyOne { card: red },
            IotaError::NotHeld { card: red },
            IotaError::LineTooLong {
                from: a,
                to: b,
                count: 5,
            },
            IotaError::SameCardTwice { from: a, to: b },
            IotaError::Mixed {
                attribute: Attribute::Colours,
                from: a,
                to: b,
                cards: vec![red, blue, red],
            },
            IotaError::Mixed {
                attribute: Attribute::Shapes,
                from: a,
                to: b,
                cards: vec![red, blue, red],
            },
            IotaError::Mixed {
                attribute: Attribute::Numbers,
                from: a,
                to: b,
                cards: vec![red, blue, red],
            },
            IotaError::PlaceOneToFour,
            IotaError::TooFarOut { cell: b },
            IotaError::TwoOnOne { cell: b },
            IotaError::NotEmpty { cell: b },
            IotaError::NotOneLine,
            IotaError::Gap { cell: b },
            IotaError::CoverCentre,
            IotaError::MustTouch,
            IotaError::WildsDontFit,
            IotaError::NoWild { cell: b },
            IotaError::EmptyNoWild { cell: b },
            IotaError::WildForWild,
            IotaError::DoesNotFit {
                card: blue,
                cell: b,
            },
            IotaError::ReturnAtMostFour,
        ];
        // No wildcard: a new variant must be added here, and with it an example above.
        for e in &all {
            match e {
                IotaError::HoldOnlyOne { .. }
                | IotaError::NotHeld { .. }
                | IotaError::LineTooLong { .. }
                | IotaError::SameCardTwice { .. }
                | IotaError::Mixed { .. }
                | IotaError::PlaceOneToFour
                | IotaError::TooFarOut { .. }
                | IotaError::TwoOnOne { .. }
                | IotaError::NotEmpty { .. }
                | IotaError::NotOneLine
                | IotaError::Gap { .. }
                | IotaError::CoverCentre
                | IotaError::MustTouch
                | IotaError::WildsDontFit
                | IotaError::NoWild { .. }
                | IotaError::EmptyNoWild { .. }
                | IotaError::WildForWild
                | IotaError::DoesNotFit { .. }
                | IotaError::ReturnAtMostFour => {}
            }
        }
        all
    }
}
