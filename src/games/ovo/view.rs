//! What one seat may know: the view of the board and the events as that seat learns them.

use super::board::symbol_of;
use super::{Cell, Ovo, Symbol};
use crate::games::{Outcome, Seat};
use serde::Serialize;

/// One cell as a seat sees it. Hidden eggs carry nothing: all look the same.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum CellView {
    /// No egg.
    Empty,
    /// A visible egg: owner and symbol known to all.
    Visible {
        /// The owner.
        seat: Seat,
        /// Its symbol.
        symbol: Symbol,
    },
    /// A hidden egg: nobody can tell whose it is.
    Hidden,
    /// A hidden egg shown face up once the game is over.
    Revealed {
        /// The owner.
        seat: Seat,
        /// Its symbol.
        symbol: Symbol,
    },
}

/// Everything one seat may know of an Ovo game.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct OvoView {
    /// 2 or 4.
    pub players: usize,
    /// The seat this view is for.
    pub seat: Seat,
    /// The seat on turn.
    pub turn: Seat,
    /// Whether and how the game ended.
    pub outcome: Outcome,
    /// The egg moved last turn (it may not move now when `no_move_back` is on).
    pub last: Option<Cell>,
    /// Eliminated seats, ascending.
    pub out: Vec<Seat>,
    /// The setting `ovo.no_move_back`.
    pub no_move_back: bool,
    /// Passes in a row so far (a full round of them is a draw).
    pub passes: usize,
    /// The 36 cells in `Cell::index` order: a1, b1, … f1, a2, … f6.
    pub cells: Vec<CellView>,
}

impl OvoView {
    /// True when `seat` was eliminated by a wrong declaration.
    pub fn is_out(&self, seat: Seat) -> bool {
        self.out.contains(&seat)
    }

    /// How `cell` looks in this view.
    pub fn cell(&self, cell: Cell) -> CellView {
        self.cells
            .get(cell.index())
            .copied()
            .unwrap_or(CellView::Empty)
    }
}

/// What the action of a turn did.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum Happened {
    /// An egg moved.
    Moved {
        /// Where it stood.
        from: Cell,
        /// Each landing in order (one for a step).
        landings: Vec<Cell>,
        /// A jump chain rather than a step.
        jump: bool,
        /// It was flipped on its last landing (an opposing camp).
        flipped: bool,
    },
    /// A hidden egg was peeked at.
    Peeked {
        /// The egg's cell.
        cell: Cell,
        /// Its symbol: only in the peeker's copy of the event.
        symbol: Option<Symbol>,
    },
    /// The seat passed.
    Passed,
    /// Nothing but a declaration.
    Nothing,
}

/// The result of an "Ovo!" declaration (public).
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Declaration {
    /// Every egg of the seat was hidden at home.
    pub correct: bool,
    /// Wrong with 4 players: the seat is out.
    pub seat_out: bool,
    /// Cells emptied by a wrong 4-player declaration, a1 order.
    pub removed: Vec<Cell>,
}

/// What one turn did.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct OvoEvent {
    /// The seat that acted.
    pub seat: Seat,
    /// Its action.
    pub happened: Happened,
    /// Its declaration, if it declared.
    pub declaration: Option<Declaration>,
    /// The outcome after the turn.
    pub outcome: Outcome,
    /// The seat on turn next.
    pub turn: Seat,
}

/// `seat`'s view of `game`.
pub(crate) fn view(game: &Ovo, seat: Seat) -> OvoView {
    let reveal = game.outcome.is_over();
    let cells = Cell::all()
        .map(|c| match game.board.get(c) {
            None => CellView::Empty,
            Some(e) => {
                let symbol = symbol_of(game.players, e.owner);
                match (e.hidden, reveal) {
                    (false, _) => CellView::Visible {
                        seat: e.owner,
                        symbol,
                    },
                    (true, true) => CellView::Revealed {
                        seat: e.owner,
                        symbol,
                    },
                    (true, false) => CellView::Hidden,
                }
            }
        })
        .collect();
    OvoView {
        players: game.players,
        seat,
        turn: game.turn,
        outcome: game.outcome.clone(),
        last: game.last,
        out: game.out_seats(),
        no_move_back: game.no_move_back,
        passes: game.passes,
        cells,
    }
}

/// `event` as `seat` may learn of it: a peek's symbol stays with the peeker.
pub(crate) fn event_for(event: &OvoEvent, seat: Seat) -> OvoEvent {
    let mut event = event.clone();
    if event.seat != seat {
        if let Happened::Peeked { symbol, .. } = &mut event.happened {
            *symbol = None;
        }
    }
    event
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::games::Game;

    #[test]
    fn hidden_eggs_look_alike_in_every_view() {
        let g =
            Ovo::from_position("players=2 turn=0 board=bBBBBB/....../....../....../....../aAAAAA")
                .unwrap();
        for seat in 0..2 {
            let v = g.view(seat);
            assert_eq!(v.seat, seat);
            assert_eq!(v.cell("a1".parse().unwrap()), CellView::Hidden);
            assert_eq!(v.cell("a6".parse().unwrap()), CellView::Hidden);
            let json = serde_json::to_string(&v).unwrap();
            assert_eq!(json.matches(r#"{"kind":"hidden"}"#).count(), 2);
            assert_eq!(json.matches("symbol").count(), 10, "only visible eggs");
        }
        let v = g.view(0);
        assert_eq!(
            v.cell("b1".parse().unwrap()),
            CellView::Visible {
                seat: 0,
                symbol: Symbol::Diamond
            }
        );
        assert_eq!(v.cells.len(), 36);
    }
}
