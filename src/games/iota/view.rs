//! What one seat may know (`IotaView`) and what an action did (`IotaEvent`).

use super::cards::Card;
use super::notation::Cell;
use super::Iota;
use crate::games::{Game, Outcome, Seat};
use serde::Serialize;

/// One card lying on the grid.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct GridCard {
    /// Where it lies.
    pub cell: Cell,
    /// The card (`W` for a wild: wilds are never named).
    pub card: Card,
}

/// What `seat` may know: its own hand, the open table and public counts. Never another
/// hand or the order of the pile.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct IotaView {
    /// The seat this view is for.
    pub seat: Seat,
    /// How many seats play.
    pub players: usize,
    /// The seat on turn (advances even after the game-ending turn).
    pub turn: Seat,
    /// This seat's hand, oldest card first.
    pub hand: Vec<Card>,
    /// How many cards each seat holds.
    pub hand_sizes: Vec<usize>,
    /// How many cards are left in the draw pile.
    pub pile_count: usize,
    /// Every card on the grid, sorted by `y` then `x`.
    pub grid: Vec<GridCard>,
    /// Every seat's score.
    pub scores: Vec<i64>,
    /// Passes in a row so far.
    pub passes: u32,
    /// Whether and how the game has ended.
    pub outcome: Outcome,
}

/// One line that scored in a placement.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct LineScore {
    /// The line's cells in order along it.
    pub cells: Vec<Cell>,
    /// The sum of its face values (wilds 0).
    pub points: u32,
    /// True when the line is a lot (4 cards), which doubles the turn.
    pub lot: bool,
}

/// How a placement scored: lines summed, then doubled per lot, for four cards placed,
/// and for ending the game.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct ScoreBreakdown {
    /// Every line containing a placed card.
    pub lines: Vec<LineScore>,
    /// The sum of the lines before doubling.
    pub base: u32,
    /// Lots completed this turn (each doubles).
    pub lots: u32,
    /// Exactly four cards were placed (doubles).
    pub four_placed: bool,
    /// This turn ended the game (doubles).
    pub game_end: bool,
    /// The final score of the turn.
    pub total: u32,
}

/// What an applied action did. Secrets (cards drawn, cards returned) are `None` in the
/// copy other seats receive through [`Game::event_for`].
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum IotaEvent {
    /// A wild on the grid was exchanged for a hand card; the wild went to the hand's end.
    Swapped {
        /// Who swapped.
        seat: Seat,
        /// Where the wild lay.
        cell: Cell,
        /// The hand card now lying there.
        card: Card,
    },
    /// Cards were placed and scored; the hand was refilled.
    Placed {
        /// Who placed.
        seat: Seat,
        /// The placed cards, sorted by `y` then `x`.
        cards: Vec<(Card, Cell)>,
        /// How the turn scored.
        score: ScoreBreakdown,
        /// How many cards were drawn.
        drawn_count: usize,
        /// The cards drawn (the drawer only).
        drawn: Option<Vec<Card>>,
        /// The outcome after the turn.
        outcome: Outcome,
    },
    /// The seat passed, returning cards to the pile bottom and drawing as many.
    Passed {
        /// Who passed.
        seat: Seat,
        /// How many cards went back (and were drawn).
        returned_count: usize,
        /// The cards returned, in order (the passer only).
        returned: Option<Vec<Card>>,
        /// The cards drawn (the passer only).
        drawn: Option<Vec<Card>>,
        /// The outcome after the turn.
        outcome: Outcome,
    },
}

impl IotaEvent {
    /// The copy `viewer` may see: another seat's drawn and returned cards are removed.
    pub fn for_seat(&self, viewer: Seat) -> IotaEvent {
        let mut e = self.clone();
        match &mut e {
            IotaEvent::Swapped { .. } => {}
            IotaEvent::Placed { seat, drawn, .. } => {
                if *seat != viewer {
                    *drawn = None;
                }
            }
            IotaEvent::Passed {
                seat,
                returned,
                drawn,
                ..
            } => {
                if *seat != viewer {
                    *returned = None;
                    *drawn = None;
                }
            }
        }
        e
    }
}

impl Iota {
    /// The view of `seat` (an unknown seat gets an empty hand).
    pub(crate) fn make_view(&self, seat: Seat) -> IotaView {
        IotaView {
            seat,
            players: self.players,
            turn: self.turn,
            hand: self.hands.get(seat).cloned().unwrap_or_default(),
            hand_sizes: self.hands.iter().map(Vec::len).collect(),
            pile_count: self.pile.len(),
            grid: self.grid.listed(),
            scores: self.scores.clone(),
            passes: self.passes,
            outcome: self.outcome(),
        }
    }
}
