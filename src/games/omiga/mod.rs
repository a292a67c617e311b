//! Omiga (docs/rules.md §3): two seats race in real time to lay matching cards across a
//! bounded table, to the opponent's edge or directly behind an opponent card.
//!
//! Files: `cards` (the card and its matching), `table` (the grid and sides), `notation`
//! (actions), `rules` (legality, legal actions, applying, win and draw), `position`
//! (the position line), `view` (views and events). Choices docs/rules.md leaves open are in
//! docs/rules-omiga.md.

pub mod cards;
pub mod notation;
pub mod position;
pub mod rules;
pub mod table;
pub mod view;

pub use cards::{full_deck, Card, Colour, Figure};
pub use notation::Action;
pub use rules::{OmigaError, Refusal};
pub use table::{Placed, Side, Table};
pub use view::{Act, Drew, OmigaEvent, OmigaView, PlacedView};

use super::{rng_from_seed, Game, Outcome, Params, RuleError, RuleResult, Seat};
use cards::{fits_above, parse_cards, DECK_SIZE};
use rand::seq::SliceRandom;
use rand_chacha::ChaCha8Rng;
use serde_json::json;
use std::collections::VecDeque;

/// How many cards a full hand holds (and how many are drawn at once).
pub const HAND_SIZE: usize = 3;

/// The whole state of an Omiga game: table, hands, decks, settings and the outcome.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Omiga {
    table: Table,
    /// Hands, White's first, oldest card first.
    hands: [Vec<Card>; 2],
    /// Decks, White's first, top card first.
    decks: [VecDeque<Card>; 2],
    allow_rotation: bool,
    free_discard: bool,
    /// Judged after each action only, so a position read by `setup` is ongoing.
    outcome: Outcome,
}

const PARAM_KEYS: [&str; 6] = [
    "white",
    "black",
    "seed",
    "table",
    "allow_rotation",
    "free_discard",
];

impl Omiga {
    /// The table.
    pub fn table(&self) -> &Table {
        &self.table
    }

    /// `seat`'s hand, oldest card first (empty for a seat that does not exist).
    pub fn hand(&self, seat: Seat) -> &[Card] {
        self.hands.get(seat).map_or(&[], Vec::as_slice)
    }

    /// How many cards are left in `seat`'s deck.
    pub fn deck_count(&self, seat: Seat) -> usize {
        self.decks.get(seat).map_or(0, VecDeque::len)
    }

    /// Whether cards may be turned 180° before placing (setting `omiga.allow_rotation`).
    pub fn allow_rotation(&self) -> bool {
        self.allow_rotation
    }

    /// Whether the hand may be discarded at any time (setting `omiga.free_discard`).
    pub fn free_discard(&self) -> bool {
        self.free_discard
    }

    /// The centre cell where White's first card goes: `((W-1)/2, H/2-1)`.
    pub fn white_start(width: u8, height: u8) -> (u8, u8) {
        (
            (width.saturating_sub(1)) / 2,
            (height / 2).saturating_sub(1),
        )
    }

    /// Deals a game from two decks (top first): White's top card at the centre, Black's
    /// first matching card in front of it, misses shuffled back with `rng` (or put at the
    /// bottom in the order revealed without one), then both draw 3.
    fn deal(
        (width, height): (u8, u8),
        white: Vec<Card>,
        black: Vec<Card>,
        rng: Option<&mut ChaCha8Rng>,
        allow_rotation: bool,
        free_discard: bool,
    ) -> RuleResult<Self> {
        let mut white = VecDeque::from(white);
        let mut black = VecDeque::from(black);
        let mut table = Table::new(width, height);
        let (cx, cy) = Self::white_start(width, height);
        let (cx, cy) = (i32::from(cx), i32::from(cy));
        let centre = white
            .pop_front()
            .ok_or_else(|| RuleError::new("White's deck is empty"))?;
        table.put(
            cx,
            cy,
            Placed {
                side: Side::White,
                card: centre,
            },
        )?;
        let mut misses = Vec::new();
        let laid = loop {
            let Some(card) = black.pop_front() else {
                return Err(RuleError::new(format!(
                    "Black has no card that matches White's first card {centre}"
                )));
            };
            // Unturned first: Black's card is laid unturned when both orientations match.
            if fits_above(centre, card) {
                break card;
            }
            if fits_above(centre, card.turned()) {
                break card.turned();
            }
            misses.push(card);
        };
        match rng {
            Some(rng) => {
                let mut all: Vec<Card> = black.into_iter().chain(misses).collect();
                all.shuffle(rng);
                black = all.into();
            }
            None => black.extend(misses),
        }
        table.put(
            cx,
            cy + 1,
            Placed {
                side: Side::Black,
                card: laid,
            },
        )?;
        let mut game = Omiga {
            table,
            hands: [Vec::new(), Vec::new()],
            decks: [white, black],
            allow_rotation,
            free_discard,
            outcome: Outcome::Ongoing,
        };
        game.draw(Side::White);
        game.draw(Side::Black);
        Ok(game)
    }

    /// Draws up to 3 cards from the top of `side`'s deck into its hand; returns them.
    fn draw(&mut self, side: Side) -> Vec<Card> {
        let s = side.seat();
        let n = HAND_SIZE.min(self.decks[s].len());
        let cards: Vec<Card> = self.decks[s].drain(..n).collect();
        self.hands[s].extend_from_slice(&cards);
        cards
    }
}

/// Parses a deck given to `new` and checks it is exactly the 36 distinct cards.
fn parse_deck(list: &str, whose: &str) -> RuleResult<Vec<Card>> {
    let deck = parse_cards(list)?;
    let mut seen = [false; DECK_SIZE];
    for card in &deck {
        let slot = seen
            .get_mut(card.index())
            .ok_or_else(|| RuleError::new(format!("{card} is not an Omiga card")))?;
        if *slot {
            return Err(RuleError::new(format!("{whose}'s deck has {card} twice")));
        }
        *slot = true;
    }
    if deck.len() != DECK_SIZE {
        return Err(RuleError::new(format!(
            "{whose}'s deck has {} cards; it needs all {DECK_SIZE}",
            deck.len()
        )));
    }
    Ok(deck)
}

impl Game for Omiga {
    type Action = Action;
    type View = OmigaView;
    type Event = OmigaEvent;

    const NAME: &'static str = "omiga";

    fn new_game(params: &Params) -> RuleResult<Self> {
        params.only(&PARAM_KEYS)?;
        let size = match params.get("table") {
            Some(t) => table::parse_table_size(t)?,
            None => table::DEFAULT_TABLE,
        };
        let allow_rotation = params.switch("allow_rotation", true)?;
        let free_discard = params.switch("free_discard", false)?;
        match (params.get("white"), params.get("black"), params.get("seed")) {
            (Some(w), Some(b), None) => {
                let (w, b) = (parse_deck(w, "White")?, parse_deck(b, "Black")?);
                Self::deal(size, w, b, None, allow_rotation, free_discard)
            }
            (None, None, Some(_)) => {
                let mut rng = rng_from_seed(params.number("seed", None)?);
                let mut w = full_deck();
                let mut b = full_deck();
                w.shuffle(&mut rng);
                b.shuffle(&mut rng);
                Self::deal(size, w, b, Some(&mut rng), allow_rotation, free_discard)
            }
            (_, _, Some(_)) => Err(RuleError::new(
                "give either white= and black= decks or seed=, not both",
            )),
            (Some(_), None, None) | (None, Some(_), None) => {
                Err(RuleError::new("give both decks: white= and black="))
            }
            (None, None, None) => Err(RuleError::new(
                "new omiga needs white= and black= decks (36 cards each, top first) or seed=",
            )),
        }
    }

    fn from_position(position: &str) -> RuleResult<Self> {
        position::parse(position)
    }

    fn position(&self) -> String {
        position::write(self)
    }

    fn state_json(&self) -> serde_json::Value {
        let cells: Vec<PlacedView> = view::placed_views(&self.table);
        json!({
            "game": Self::NAME,
            "width": self.table.width(),
            "height": self.table.height(),
            "cells": cells,
            "hands": self.hands,
            "decks": self.decks,
            "allow_rotation": self.allow_rotation,
            "free_discard": self.free_discard,
            "outcome": self.outcome,
        })
    }

    fn seats(&self) -> usize {
        2
    }

    fn to_act(&self) -> Vec<Seat> {
        if self.outcome.is_over() {
            Vec::new()
        } else {
            vec![0, 1]
        }
    }

    fn legal_actions(&self, seat: Seat) -> Vec<Action> {
        rules::legal_actions(self, seat)
    }

    fn apply(&mut self, seat: Seat, action: &Action) -> RuleResult<OmigaEvent> {
        rules::apply(self, seat, action)
    }

    fn view(&self, seat: Seat) -> OmigaView {
        view::view(self, seat)
    }

    /// The table from White's side, without its hand.
    fn public_view(&self) -> OmigaView {
        let mut view = view::view(self, 0);
        view.hand.clear();
        view.can_discard = false;
        view
    }

    fn outcome(&self) -> Outcome {
        self.outcome.clone()
    }

    fn scores(&self) -> Vec<i64> {
        vec![0, 0]
    }

    fn report(_event: &OmigaEvent) -> Vec<String> {
        // docs/referee.md: an Omiga `play` answers nothing before `ok`.
        Vec::new()
    }

    fn event_for(event: &OmigaEvent, seat: Seat) -> OmigaEvent {
        view::event_for(event, seat)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    pub(crate) fn deck_text(cards: &[Card]) -> String {
        cards::write_cards(cards)
    }

    #[test]
    fn explicit_decks_deal_exactly_as_the_rules_say() {
        let deck = full_deck();
        // White's top card PD-GG: its top P needs a notch at the bottom of Black's card.
        let mut white = deck.clone();
        let pd = white.iter().position(|c| c.to_string() == "PD-GG").unwrap();
        white.swap(0, pd);
        // Black's deck in notation order: DD-.. (D bottom) miss, DP-.. miss, DN-GG fits.
        let params = Params::new()
            .with("white", deck_text(&white))
            .with("black", deck_text(&deck));
        let g = Omiga::new_game(&params).unwrap();
        assert_eq!(g.table.get(4, 4).unwrap().card.to_string(), "PD-GG");
        let black = g.table.get(4, 5).unwrap();
        assert_eq!(
            (black.side, black.card.to_string()),
            (Side::Black, "DN-GG".into())
        );
        // DD-GG, DD-GK, DD-KG, DD-KK, DP-GG, ... DP-KK were missed: to the bottom in order.
        let misses: Vec<String> = g.decks[1]
            .iter()
            .rev()
            .take(8)
            .rev()
            .map(|c| c.to_string())
            .collect();
        assert_eq!(
            misses,
            ["DD-GG", "DD-GK", "DD-KG", "DD-KK", "DP-GG", "DP-GK", "DP-KG", "DP-KK"]
        );
        assert_eq!(g.hands[0].len(), 3);
        assert_eq!(
            g.hands[1].iter().map(|c| c.to_string()).collect::<Vec<_>>(),
            ["DN-GK", "DN-KG", "DN-KK"]
        );
        assert_eq!(g.decks[0].len(), 32);
        assert_eq!(g.decks[1].len(), 32);
        assert_eq!(g.outcome, Outcome::Ongoing);
    }

    #[test]
    fn black_setup_card_is_turned_only_when_it_must_be() {
        let deck = full_deck();
        // White DD-GG: top D; Black's first card DD-GG fits unturned (D-D) and also turned.
        let g = Omiga::new_game(
            &Params::new()
                .with("white", deck_text(&deck))
                .with("black", deck_text(&deck)),
        )
        .unwrap();
        assert_eq!(g.table.get(4, 5).unwrap().card.to_string(), "DD-GG");
        // White NP-..: top N needs bottom P. Black's first card PN-GK fits only turned.
        let mut white = deck.clone();
        let i = white.iter().position(|c| c.to_string() == "ND-GG").unwrap();
        white.swap(0, i);
        let mut black = deck.clone();
        let j = black.iter().position(|c| c.to_string() == "PN-GK").unwrap();
        black.swap(0, j);
        let g = Omiga::new_game(
            &Params::new()
                .with("white", deck_text(&white))
                .with("black", deck_text(&black))
                .with("table", "7x8"),
        )
        .unwrap();
        assert_eq!(g.table.get(3, 3).unwrap().card.to_string(), "ND-GG");
        assert_eq!(g.table.get(3, 4).unwrap().card.to_string(), "NP-KG");
    }

    #[test]
    fn seeded_games_replay_and_differ_by_seed() {
        let a = Omiga::new_game(&Params::new().with("seed", 7)).unwrap();
        let b = Omiga::new_game(&Params::new().with("seed", 7)).unwrap();
        let c = Omiga::new_game(&Params::new().with("seed", 8)).unwrap();
        assert_eq!(a, b);
        assert_ne!(a.position(), c.position());
        for g in [&a, &c] {
            let centre = g.table.get(4, 4).unwrap();
            let front = g.table.get(4, 5).unwrap();
            assert!(fits_above(centre.card, front.card));
            assert_eq!(g.hands[0].len() + g.decks[0].len(), 35);
            assert_eq!(g.hands[1].len() + g.decks[1].len(), 35);
        }
        let big = Omiga::new_game(&Params::new().with("seed", 1).with("table", "11x12")).unwrap();
        assert!(big.table.get(5, 5).is_some() && big.table.get(5, 6).is_some());
    }

    #[test]
    fn bad_parameters_are_refused_with_a_reason() {
        let deck = deck_text(&full_deck());
        let short = deck_text(&full_deck()[..35]);
        let twice = format!("{},DD-GG", short);
        for (params, reason) in [
            (Params::new(), "needs white= and black="),
            (Params::new().with("white", &deck), "give both decks"),
            (
                Params::new()
                    .with("seed", 1)
                    .with("white", &deck)
                    .with("black", &deck),
                "not both",
            ),
            (Params::new().with("seed", "x"), "whole number"),
            (
                Params::new().with("seed", 1).with("players", 2),
                "unknown parameter",
            ),
            (
                Params::new().with("seed", 1).with("table", "8x8"),
                "table must be",
            ),
            (
                Params::new()
                    .with("seed", 1)
                    .with("allow_rotation", "maybe"),
                "on or off",
            ),
            (
                Params::new().with("white", &short).with("black", &deck),
                "needs all 36",
            ),
            (
                Params::new().with("white", &deck).with("black", &twice),
                "DD-GG twice",
            ),
            (
                Params::new().with("white", "XX").with("black", &deck),
                "not a card",
            ),
        ] {
            let e = Omiga::new_game(&params).unwrap_err();
            assert!(e.to_string().contains(reason), "{params}: {e}");
        }
        let g = Omiga::new_game(
            &Params::new()
                .with("seed", 3)
                .with("allow_rotation", "off")
                .with("free_discard", "on"),
        )
        .unwrap();
        assert!(!g.allow_rotation() && g.free_discard());
    }
}
