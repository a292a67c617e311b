//! What one seat may know (`OmigaView`) and what an action did (`OmigaEvent`), with the
//! other seat's secrets stripped in one place (`event_for`).

use super::cards::Card;
use super::table::{Side, Table};
use super::Omiga;
use crate::games::{Outcome, Seat};
use serde::{Deserialize, Serialize};

/// A card on the table as everyone sees it.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub struct PlacedView {
    /// Column, 0 at White's left.
    pub x: u8,
    /// Row, 0 at White's edge.
    pub y: u8,
    /// The owner.
    pub side: Side,
    /// The card as it lies.
    pub card: Card,
}

/// One seat's view: the public table and counts, its own hand, nothing else.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct OmigaView {
    /// The seat this view is for (0 White, 1 Black).
    pub seat: Seat,
    /// Columns.
    pub width: u8,
    /// Rows.
    pub height: u8,
    /// Every placed card, sorted by `y` then `x`.
    pub cells: Vec<PlacedView>,
    /// This seat's hand, oldest card first.
    pub hand: Vec<Card>,
    /// Both hand sizes, White's first.
    pub hand_sizes: [usize; 2],
    /// Both deck counts, White's first.
    pub deck_counts: [usize; 2],
    /// Whether this seat may discard its hand now.
    pub can_discard: bool,
    /// Whether the game goes on or how it ended.
    pub outcome: Outcome,
    /// Setting `omiga.allow_rotation`.
    pub allow_rotation: bool,
    /// Setting `omiga.free_discard`.
    pub free_discard: bool,
}

/// What the acting seat did.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum Act {
    /// A card was laid.
    Placed {
        /// The card as it lies (already turned if it was turned).
        card: Card,
        /// Column.
        x: u8,
        /// Row.
        y: u8,
        /// Whether this placement won the game.
        won: bool,
    },
    /// The whole hand left the game.
    Discarded {
        /// How many cards.
        count: usize,
        /// The cards, for the discarder only (`None` in the other seat's copy).
        cards: Option<Vec<Card>>,
    },
}

/// Cards drawn from the top of the acting seat's deck.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Drew {
    /// How many cards.
    pub count: usize,
    /// The cards, for the drawer only (`None` in the other seat's copy).
    pub cards: Option<Vec<Card>>,
}

/// What one applied action did.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct OmigaEvent {
    /// The acting seat.
    pub seat: Seat,
    /// The placement or the discard.
    pub act: Act,
    /// The refill that followed, if any cards were drawn.
    pub drew: Option<Drew>,
    /// The outcome after the action.
    pub outcome: Outcome,
}

/// Every placed card in position order, as the views and the state show them.
pub fn placed_views(table: &Table) -> Vec<PlacedView> {
    table
        .placed()
        .map(|(x, y, p)| PlacedView {
            x,
            y,
            side: p.side,
            card: p.card,
        })
        .collect()
}

/// `seat`'s view of `game` (a seat that does not exist sees no hand).
pub fn view(game: &Omiga, seat: Seat) -> OmigaView {
    OmigaView {
        seat,
        width: game.table.width(),
        height: game.table.height(),
        cells: placed_views(&game.table),
        hand: game.hand(seat).to_vec(),
        hand_sizes: [game.hands[0].len(), game.hands[1].len()],
        deck_counts: [game.decks[0].len(), game.decks[1].len()],
        can_discard: !game.outcome.is_over() && game.can_discard(seat),
        outcome: game.outcome.clone(),
        allow_rotation: game.allow_rotation,
        free_discard: game.free_discard,
    }
}

/// The event as `seat` may learn of it: discarded and drawn cards reach the actor alone.
pub fn event_for(event: &OmigaEvent, seat: Seat) -> OmigaEvent {
    let mut event = event.clone();
    if event.seat != seat {
        if let Act::Discarded { cards, .. } = &mut event.act {
            *cards = None;
        }
        if let Some(drew) = &mut event.drew {
            drew.cards = None;
        }
    }
    event
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::games::Game;

    #[test]
    fn a_view_shows_own_hand_and_counts_only() {
        let g = Omiga::from_position(
            "table=9x10 cells=4,4:w:PD-GG;4,5:b:DN-GG hands=DD-GG,PN-GK|NN-KK,DP-GK,PP-GG decks=DD-KK|NP-KG,ND-GK",
        )
        .unwrap();
        let v = g.view(0);
        assert_eq!(v.hand.len(), 2);
        assert_eq!(v.hand_sizes, [2, 3]);
        assert_eq!(v.deck_counts, [1, 2]);
        let json = serde_json::to_string(&v).unwrap();
        for secret in ["NN-KK", "DP-GK", "PP-GG", "DD-KK", "NP-KG", "ND-GK"] {
            assert!(!json.contains(secret), "{secret} leaks in {json}");
        }
        assert!(json.contains("\"side\":\"black\""));
        let json = serde_json::to_string(&g.view(1)).unwrap();
        for secret in ["DD-GG", "PN-GK", "DD-KK", "NP-KG", "ND-GK"] {
            assert!(!json.contains(secret), "{secret} leaks in {json}");
        }
    }

    #[test]
    fn events_hide_drawn_and_discarded_cards_from_the_other_seat() {
        let mut g = Omiga::from_position(
            "table=9x10 cells=4,4:w:PD-GG;4,5:b:DN-GG hands=DD-GG|NN-KK decks=PN-GK|NP-KG,ND-GK",
        )
        .unwrap();
        let e = g.play(1, &"discard".parse().unwrap()).unwrap();
        let mine = serde_json::to_string(&Omiga::event_for(&e, 1)).unwrap();
        let theirs = serde_json::to_string(&Omiga::event_for(&e, 0)).unwrap();
        assert!(mine.contains("NN-KK") && mine.contains("NP-KG"));
        for secret in ["NN-KK", "NP-KG", "ND-GK"] {
            assert!(!theirs.contains(secret), "{theirs}");
        }
        assert!(theirs.contains("\"count\":2"));
        let e = g.play(0, &"place DD-GG@3,4".parse().unwrap()).unwrap();
        let theirs = serde_json::to_string(&Omiga::event_for(&e, 1)).unwrap();
        assert!(
            theirs.contains("DD-GG") && !theirs.contains("PN-GK"),
            "{theirs}"
        );
    }
}
