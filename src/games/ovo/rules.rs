//! Legality, the legal-action list and applying an action.
//!
//! `check` decides everything without touching the state; `commit` then cannot fail, so
//! a refused action leaves the game exactly as it was.

use super::board::{camp_owner, symbol_of, Egg, DIRECTIONS};
use super::view::{Declaration, Happened, OvoEvent};
use super::{Cell, Ovo, OvoAction};
use crate::games::{Outcome, RuleError, RuleResult, Seat};

/// Why Ovo refuses a move, a peek or a pass (the referee's English; see `RuleError`).
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum OvoError {
    /// The picked cell has no egg.
    #[error("{cell} is empty")]
    Empty {
        /// The cell picked.
        cell: Cell,
    },
    /// The egg is another seat's and face up.
    #[error("the egg on {cell} is not yours")]
    NotYours {
        /// Where the egg stands.
        cell: Cell,
    },
    /// Under `ovo.no_move_back`, the egg that moved last turn.
    #[error("the egg on {cell} moved last turn; move another egg")]
    MovedLast {
        /// Where the egg stands.
        cell: Cell,
    },
    /// A move to a cell that is not a neighbour.
    #[error("{from}-{to} is not a step: a step goes to a neighbouring cell")]
    NotAStep {
        /// Where the egg stands.
        from: Cell,
        /// Where it was to go.
        to: Cell,
    },
    /// A landing on an egg.
    #[error("{cell} is not empty")]
    NotEmpty {
        /// The occupied cell.
        cell: Cell,
    },
    /// A peek at an egg that is face up.
    #[error("the egg on {cell} is not hidden")]
    NotHidden {
        /// Where the egg stands.
        cell: Cell,
    },
    /// A pass while a move or a peek is possible.
    #[error("you may pass only when you can neither move nor peek")]
    MayNotPass,
    /// A jump with no landing.
    #[error("a jump chain needs at least one landing")]
    NoLanding,
    /// A landing that is not two cells away in a line.
    #[error(
        "{from}x{to} is not a jump: a jump goes over a neighbouring egg to the cell just beyond"
    )]
    NotAJump {
        /// Where the jump starts.
        from: Cell,
        /// Where it was to land.
        to: Cell,
    },
    /// A chain back to its start.
    #[error("the chain may not come back to {cell}, where it started")]
    BackToStart {
        /// The start.
        cell: Cell,
    },
    /// A chain landing twice on one cell.
    #[error("the chain lands on {cell} twice")]
    LandsTwice {
        /// The cell landed on twice.
        cell: Cell,
    },
    /// A jump over an empty cell.
    #[error("there is no egg on {cell} to jump over")]
    NothingToJump {
        /// The cell jumped over.
        cell: Cell,
    },
    /// A chain going on after the egg flipped.
    #[error("the egg is flipped on {cell}, so the chain ends there")]
    FlippedEnds {
        /// Where the egg flipped.
        cell: Cell,
    },
}

impl OvoError {
    /// One of each (see `RuleError::examples`).
    pub fn examples() -> Vec<OvoError> {
        // b3 and d5 (the board always has 36 cells).
        let cells: Vec<Cell> = Cell::all().collect();
        let (a, b) = (cells[13], cells[27]);
        let all = vec![
            OvoError::Empty { cell: a },
            OvoError::NotYours { cell: a },
            OvoError::MovedLast { cell: a },
            OvoError::NotAStep { from: a, to: b },
            OvoError::NotEmpty { cell: b },
            OvoError::NotHidden { cell: a },
            OvoError::MayNotPass,
            OvoError::NoLanding,
            OvoError::NotAJump { from: a, to: b },
            OvoError::BackToStart { cell: a },
            OvoError::LandsTwice { cell: b },
            OvoError::NothingToJump { cell: b },
            OvoError::FlippedEnds { cell: b },
        ];
        // No wildcard: a new variant must be added here, and with it an example above.
        for e in &all {
            match e {
                OvoError::Empty { .. }
                | OvoError::NotYours { .. }
                | OvoError::MovedLast { .. }
                | OvoError::NotAStep { .. }
                | OvoError::NotEmpty { .. }
                | OvoError::NotHidden { .. }
                | OvoError::MayNotPass
                | OvoError::NoLanding
                | OvoError::NotAJump { .. }
                | OvoError::BackToStart { .. }
                | OvoError::LandsTwice { .. }
                | OvoError::NothingToJump { .. }
                | OvoError::FlippedEnds { .. } => {}
            }
        }
        all
    }
}

/// A set of cells as bits (index = `Cell::index`), for the landings of a chain.
fn bit(cell: Cell) -> u64 {
    1u64 << cell.index()
}

impl Ovo {
    /// Every legal action of `seat` now (empty when it is not that seat's turn).
    pub(crate) fn legal(&self, seat: Seat) -> Vec<OvoAction> {
        if self.check_turn(seat).is_err() {
            return Vec::new();
        }
        let mut plain = Vec::new();
        for cell in Cell::all() {
            if self.movable_egg(seat, cell).is_ok() {
                self.push_moves(cell, &mut plain);
            }
        }
        plain.extend(
            self.board
                .eggs()
                .filter(|(_, e)| e.hidden)
                .map(|(cell, _)| OvoAction::Peek { cell, ovo: false }),
        );
        let mut all = Vec::with_capacity(plain.len() * 2 + 1);
        all.extend(plain.iter().map(OvoAction::with_ovo));
        if plain.is_empty() {
            all.push(OvoAction::Pass);
        }
        all.append(&mut plain);
        all.push(OvoAction::Ovo);
        all
    }

    /// The legal moves of the egg on `cell` for `seat` now: every step, every jump chain
    /// and each of its prefixes, without a declaration (empty if that egg may not move).
    /// The UI highlights the landings of these.
    pub fn moves_from(&self, seat: Seat, cell: Cell) -> Vec<OvoAction> {
        let mut moves = Vec::new();
        if self.check_turn(seat).is_ok() && self.movable_egg(seat, cell).is_ok() {
            self.push_moves(cell, &mut moves);
        }
        moves
    }

    /// The cells holding an egg `seat` may move now (empty when not on turn).
    pub fn movable_cells(&self, seat: Seat) -> Vec<Cell> {
        if self.check_turn(seat).is_err() {
            return Vec::new();
        }
        Cell::all()
            .filter(|&c| self.movable_egg(seat, c).is_ok() && self.egg_can_move(c))
            .collect()
    }

    /// Refuses a seat that may not act now (also guards a direct `apply`).
    fn check_turn(&self, seat: Seat) -> RuleResult<()> {
        if seat >= self.players {
            return Err(RuleError::NoSuchSeat { seat });
        }
        if self.outcome.is_over() {
            return Err(RuleError::GameOver);
        }
        if seat != self.turn {
            return Err(RuleError::NotYourTurn { seat });
        }
        Ok(())
    }

    /// The egg on `cell` if `seat` may move it: its own visible egg or any hidden egg,
    /// not the one moved last turn.
    fn movable_egg(&self, seat: Seat, cell: Cell) -> RuleResult<Egg> {
        let egg = self.board.get(cell).ok_or(OvoError::Empty { cell })?;
        if !egg.hidden && egg.owner != seat {
            return Err(OvoError::NotYours { cell }.into());
        }
        if self.no_move_back && self.last == Some(cell) {
            return Err(OvoError::MovedLast { cell }.into());
        }
        Ok(egg)
    }

    /// True when a visible `egg` landing on `cell` is flipped (an opposing camp).
    fn flips(&self, egg: Egg, cell: Cell) -> bool {
        !egg.hidden && camp_owner(self.players, cell).is_some_and(|o| o != egg.owner)
    }

    /// True when `cell` holds an egg other than the one moving from `from`.
    fn blocks(&self, from: Cell, cell: Cell) -> bool {
        cell != from && self.board.get(cell).is_some()
    }

    /// Whether the egg on `from` has at least one step or jump (ignoring who may move it).
    fn egg_can_move(&self, from: Cell) -> bool {
        DIRECTIONS
            .iter()
            .any(|&(df, dr)| match from.offset(df, dr) {
                Some(next) if self.board.get(next).is_none() => true,
                Some(over) => over
                    .offset(df, dr)
                    .is_some_and(|land| self.board.get(land).is_none()),
                None => false,
            })
    }

    /// Whether `seat` has any move or peek (else it must pass or declare).
    fn can_move_or_peek(&self, seat: Seat) -> bool {
        self.board.any_hidden()
            || Cell::all().any(|c| self.movable_egg(seat, c).is_ok() && self.egg_can_move(c))
    }

    /// Appends every step and jump chain (with prefixes) of the egg on `from`.
    fn push_moves(&self, from: Cell, out: &mut Vec<OvoAction>) {
        let Some(egg) = self.board.get(from) else {
            return;
        };
        for &(df, dr) in &DIRECTIONS {
            if let Some(to) = from.offset(df, dr) {
                if self.board.get(to).is_none() {
                    out.push(OvoAction::Step {
                        from,
                        to,
                        ovo: false,
                    });
                }
            }
        }
        let mut path = Vec::new();
        self.push_chains(from, egg, from, bit(from), &mut path, out);
    }

    /// Depth-first over jump chains: every landing reached is a legal chain of its own.
    fn push_chains(
        &self,
        from: Cell,
        egg: Egg,
        at: Cell,
        landed: u64,
        path: &mut Vec<Cell>,
        out: &mut Vec<OvoAction>,
    ) {
        for &(df, dr) in &DIRECTIONS {
            let Some(over) = at.offset(df, dr) else {
                continue;
            };
            let Some(land) = over.offset(df, dr) else {
                continue;
            };
            if !self.blocks(from, over) || self.blocks(from, land) || landed & bit(land) != 0 {
                continue;
            }
            path.push(land);
            out.push(OvoAction::Jump {
                from,
                landings: path.clone(),
                ovo: false,
            });
            if !self.flips(egg, land) {
                self.push_chains(from, egg, land, landed | bit(land), path, out);
            }
            path.pop();
        }
    }

    /// Decides whether `seat` may take `action` and what it would do, changing nothing.
    pub(crate) fn check(&self, seat: Seat, action: &OvoAction) -> RuleResult<Happened> {
        self.check_turn(seat)?;
        match action {
            OvoAction::Step { from, to, .. } => {
                let egg = self.movable_egg(seat, *from)?;
                if !from.touches(*to) {
                    return Err(OvoError::NotAStep {
                        from: *from,
                        to: *to,
                    }
                    .into());
                }
                if self.board.get(*to).is_some() {
                    return Err(OvoError::NotEmpty { cell: *to }.into());
                }
                Ok(Happened::Moved {
                    from: *from,
                    landings: vec![*to],
                    jump: false,
                    flipped: self.flips(egg, *to),
                })
            }
            OvoAction::Jump { from, landings, .. } => {
                let egg = self.movable_egg(seat, *from)?;
                self.check_chain(egg, *from, landings)
            }
            OvoAction::Peek { cell, .. } => match self.board.get(*cell) {
                None => Err(OvoError::Empty { cell: *cell }.into()),
                Some(egg) if !egg.hidden => Err(OvoError::NotHidden { cell: *cell }.into()),
                Some(egg) => Ok(Happened::Peeked {
                    cell: *cell,
                    symbol: Some(symbol_of(self.players, egg.owner)),
                }),
            },
            OvoAction::Pass => {
                if self.can_move_or_peek(seat) {
                    Err(OvoError::MayNotPass.into())
                } else {
                    Ok(Happened::Passed)
                }
            }
            OvoAction::Ovo => Ok(Happened::Nothing),
        }
    }

    /// Checks a jump chain landing by landing, with the first reason it fails.
    fn check_chain(&self, egg: Egg, from: Cell, landings: &[Cell]) -> RuleResult<Happened> {
        let Some(&end) = landings.last() else {
            return Err(OvoError::NoLanding.into());
        };
        let (mut at, mut landed) = (from, bit(from));
        for (i, &land) in landings.iter().enumerate() {
            let Some(over) = at.midpoint(land) else {
                return Err(OvoError::NotAJump { from: at, to: land }.into());
            };
            if land == from {
                return Err(OvoError::BackToStart { cell: from }.into());
            }
            if landed & bit(land) != 0 {
                return Err(OvoError::LandsTwice { cell: land }.into());
            }
            if !self.blocks(from, over) {
                return Err(OvoError::NothingToJump { cell: over }.into());
            }
            if self.blocks(from, land) {
                return Err(OvoError::NotEmpty { cell: land }.into());
            }
            if self.flips(egg, land) && i + 1 < landings.len() {
                return Err(OvoError::FlippedEnds { cell: land }.into());
            }
            at = land;
            landed |= bit(land);
        }
        Ok(Happened::Moved {
            from,
            landings: landings.to_vec(),
            jump: true,
            flipped: self.flips(egg, end),
        })
    }

    /// Carries out a checked action; cannot fail.
    pub(crate) fn commit(
        &mut self,
        seat: Seat,
        action: &OvoAction,
        happened: Happened,
    ) -> OvoEvent {
        self.last = None;
        if let Happened::Moved {
            from,
            landings,
            flipped,
            ..
        } = &happened
        {
            if let (Some(mut egg), Some(&to)) = (self.board.get(*from), landings.last()) {
                egg.hidden |= *flipped;
                self.board.put(*from, None);
                self.board.put(to, Some(egg));
                self.last = Some(to);
            }
        }
        self.passes = if happened == Happened::Passed {
            self.passes + 1
        } else {
            0
        };
        let declaration = action.declares().then(|| self.declare(seat));
        if !self.outcome.is_over() && self.passes >= self.remaining() {
            self.outcome = Outcome::Draw;
        }
        self.turn = self.next_seat(self.turn);
        OvoEvent {
            seat,
            happened,
            declaration,
            outcome: self.outcome.clone(),
            turn: self.turn,
        }
    }

    /// Judges `seat`'s "Ovo!" and applies its consequence.
    fn declare(&mut self, seat: Seat) -> Declaration {
        let correct = self.declaration_is_correct(seat);
        let mut removed = Vec::new();
        if correct {
            self.outcome = Outcome::Win { seat };
        } else if self.players == 2 {
            self.outcome = Outcome::Win {
                seat: 1 - seat.min(1),
            };
        } else {
            removed = self
                .board
                .eggs()
                .filter(|(_, e)| e.owner == seat)
                .map(|(c, _)| c)
                .collect();
            for &c in &removed {
                self.board.put(c, None);
            }
            if self.last.is_some_and(|c| removed.contains(&c)) {
                self.last = None;
            }
            if let Some(o) = self.out.get_mut(seat) {
                *o = true;
            }
            let left: Vec<Seat> = (0..self.players).filter(|&s| !self.is_out(s)).collect();
            if let [winner] = left.as_slice() {
                self.outcome = Outcome::Win { seat: *winner };
            }
        }
        Declaration {
            correct,
            seat_out: !correct && self.players == 4,
            removed,
        }
    }

    /// The rule of "Ovo!": every egg of `seat` hidden and on `seat`'s own camp.
    fn declaration_is_correct(&self, seat: Seat) -> bool {
        self.board
            .eggs()
            .filter(|(_, e)| e.owner == seat)
            .all(|(c, e)| e.hidden && camp_owner(self.players, c) == Some(seat))
    }

    /// The next seat after `seat` in turn order that is still playing.
    fn next_seat(&self, seat: Seat) -> Seat {
        (1..=self.players)
            .map(|i| (seat + i) % self.players)
            .find(|&s| !self.is_out(s))
            .unwrap_or(seat)
    }
}

#[cfg(test)]
mod tests;
