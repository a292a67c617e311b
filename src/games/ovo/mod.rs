//! Ovo (docs/rules.md §1): eggs step and jump on a 6 × 6 board, flip in an opposing camp, and
//! a player wins by declaring "Ovo!" when all their eggs are hidden at home.
//!
//! Choices where docs/rules.md is silent are in `docs/rules-ovo.md`.

mod board;
mod notation;
mod position;
mod rules;
mod view;

pub use board::{camp, camp_owner, eggs_per_seat, Board, Egg};
pub use notation::{Cell, OvoAction, Symbol, CELLS, SIDE};
pub use rules::OvoError;
pub use view::{CellView, Declaration, Happened, OvoEvent, OvoView};

use super::{Game, Outcome, Params, RuleError, RuleResult, Seat};

/// The most seats an Ovo game has.
pub const MAX_PLAYERS: usize = 4;

/// A game of Ovo: the whole state, every secret included.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Ovo {
    /// 2 or 4.
    players: usize,
    /// The seat to act (after the game ends it has still advanced, docs/referee.md).
    turn: Seat,
    board: Board,
    /// Where the egg moved in the previous turn stands (None after a turn that moved
    /// nothing).
    last: Option<Cell>,
    /// Seats eliminated by a wrong declaration (4 players only).
    out: [bool; MAX_PLAYERS],
    /// Passes in a row so far; a full round of them is a draw.
    passes: usize,
    /// The setting `ovo.no_move_back`.
    no_move_back: bool,
    outcome: Outcome,
}

impl Ovo {
    /// A new game at the start position.
    pub fn start(players: usize, first: Seat, no_move_back: bool) -> RuleResult<Ovo> {
        if players != 2 && players != 4 {
            return Err(RuleError::new(format!(
                "Ovo is played by 2 or 4 players, not {players}"
            )));
        }
        if first >= players {
            return Err(RuleError::new(format!(
                "first must be a seat from 0 to {}",
                players - 1
            )));
        }
        Ok(Ovo {
            players,
            turn: first,
            board: Board::start(players),
            last: None,
            out: [false; MAX_PLAYERS],
            passes: 0,
            no_move_back,
            outcome: Outcome::Ongoing,
        })
    }

    /// How many seats play (2 or 4).
    pub fn players(&self) -> usize {
        self.players
    }

    /// The seat on turn.
    pub fn turn(&self) -> Seat {
        self.turn
    }

    /// The board, every egg's owner included (never show it to a player: use `view`).
    pub fn board(&self) -> &Board {
        &self.board
    }

    /// The cell of the egg moved in the previous turn, if any.
    pub fn last(&self) -> Option<Cell> {
        self.last
    }

    /// True when `seat` was eliminated by a wrong declaration.
    pub fn is_out(&self, seat: Seat) -> bool {
        self.out.get(seat).copied().unwrap_or(false)
    }

    /// The eliminated seats, ascending.
    pub fn out_seats(&self) -> Vec<Seat> {
        (0..self.players).filter(|&s| self.is_out(s)).collect()
    }

    /// Seats still playing.
    pub fn remaining(&self) -> usize {
        self.players - self.out_seats().len()
    }

    /// Whether the no-move-back rule is on.
    pub fn no_move_back(&self) -> bool {
        self.no_move_back
    }

    /// Passes in a row so far.
    pub fn passes(&self) -> usize {
        self.passes
    }

    /// The cells of `seat`'s camp in this game (for tinting).
    pub fn camp(&self, seat: Seat) -> Vec<Cell> {
        camp(self.players, seat)
    }

    /// The symbol of `seat`'s eggs in this game.
    pub fn symbol(&self, seat: Seat) -> Option<Symbol> {
        Symbol::of_seat(self.players, seat)
    }
}

impl Game for Ovo {
    type Action = OvoAction;
    type View = OvoView;
    type Event = OvoEvent;

    const NAME: &'static str = "ovo";

    /// A move hides or reveals nothing a seat did not see happen, so it may be taken back
    /// until the next player acts; a peek (seen by one seat) or a declaration never.
    fn undoable(action: &OvoAction) -> bool {
        matches!(
            action,
            OvoAction::Step { ovo: false, .. } | OvoAction::Jump { ovo: false, .. }
        )
    }

    fn new_game(params: &Params) -> RuleResult<Self> {
        params.only(&["players", "first", "no_move_back"])?;
        let players = params.number("players", Some(2))?;
        let first = params.number("first", Some(0))?;
        let no_move_back = params.switch("no_move_back", true)?;
        let players = usize::try_from(players).unwrap_or(usize::MAX);
        let first = usize::try_from(first).unwrap_or(usize::MAX);
        Ovo::start(players, first, no_move_back)
    }

    fn from_position(position: &str) -> RuleResult<Self> {
        position::parse(position)
    }

    fn position(&self) -> String {
        position::print(self)
    }

    fn state_json(&self) -> serde_json::Value {
        let board: Vec<serde_json::Value> = Cell::all()
            .map(|c| match self.board.get(c) {
                None => serde_json::Value::Null,
                Some(e) => serde_json::json!({
                    "seat": e.owner,
                    "symbol": board::symbol_of(self.players, e.owner),
                    "hidden": e.hidden,
                }),
            })
            .collect();
        serde_json::json!({
            "game": "ovo",
            "players": self.players,
            "turn": self.turn,
            "board": board,
            "last": self.last,
            "out": self.out_seats(),
            "passes": self.passes,
            "no_move_back": self.no_move_back,
            "outcome": self.outcome,
            "position": self.position(),
        })
    }

    fn seats(&self) -> usize {
        self.players
    }

    fn to_act(&self) -> Vec<Seat> {
        if self.outcome.is_over() {
            Vec::new()
        } else {
            vec![self.turn]
        }
    }

    fn legal_actions(&self, seat: Seat) -> Vec<OvoAction> {
        self.legal(seat)
    }

    fn apply(&mut self, seat: Seat, action: &OvoAction) -> RuleResult<OvoEvent> {
        let happened = self.check(seat, action)?;
        Ok(self.commit(seat, action, happened))
    }

    fn view(&self, seat: Seat) -> OvoView {
        view::view(self, seat)
    }

    /// Every seat sees the same board (a hidden egg is hidden to all, its peeker only
    /// remembers it), so the public view is the view of the seat on turn.
    fn public_view(&self) -> OvoView {
        view::view(self, self.turn)
    }

    fn outcome(&self) -> Outcome {
        self.outcome.clone()
    }

    fn scores(&self) -> Vec<i64> {
        vec![0; self.players]
    }

    fn report(event: &OvoEvent) -> Vec<String> {
        match &event.happened {
            Happened::Peeked {
                symbol: Some(symbol),
                ..
            } => vec![format!("symbol {symbol}")],
            _ => Vec::new(),
        }
    }

    fn event_for(event: &OvoEvent, seat: Seat) -> OvoEvent {
        view::event_for(event, seat)
    }
}
