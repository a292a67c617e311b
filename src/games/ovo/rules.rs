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
mod tests {
    use super::super::{CellView, Declaration, Happened};
    use super::*;
    use crate::games::{Game, Params};

    fn game(position: &str) -> Ovo {
        Ovo::from_position(position).unwrap()
    }

    fn act(game: &mut Ovo, seat: Seat, action: &str) -> RuleResult<OvoEvent> {
        game.play(seat, &action.parse()?)
    }

    fn legal(game: &Ovo, seat: Seat) -> Vec<String> {
        let mut v: Vec<String> = game
            .legal_actions(seat)
            .iter()
            .map(|a| a.to_string())
            .collect();
        v.sort();
        v
    }

    fn cell(name: &str) -> Cell {
        name.parse().unwrap()
    }

    /// Refused with a message containing `why`, and the state unchanged.
    fn refused(game: &mut Ovo, seat: Seat, action: &str, why: &str) {
        let before = game.clone();
        let err = act(game, seat, action).unwrap_err();
        assert!(err.to_string().contains(why), "{action}: {err}");
        assert_eq!(*game, before);
    }

    const FLIP: &str = "players=2 turn=0 board=BB.B../....B./B...A./B...../....../AAAAA.";
    const RING: &str = "players=2 turn=0 board=BBB.../....../..B.../.B.B../.AA.../AAAA..";
    const STUCK: &str = "players=4 turn=0 board=.....D/.....D/D.D.../BCBCA./ABC.../AABC.. last=e3";

    #[test]
    fn the_first_turn_offers_the_front_row_steps_and_ovo() {
        let g = Ovo::new_game(&Params::new()).unwrap();
        let l = legal(&g, 0);
        assert_eq!(l.len(), 16 * 2 + 1);
        assert!(l.contains(&"c1-d2 ovo".to_string()) && l.contains(&"ovo".to_string()));
        assert!(legal(&g, 1).is_empty(), "not seat 1's turn");
        let g = Ovo::new_game(&Params::new().with("players", 4).with("first", 2)).unwrap();
        assert_eq!(g.turn(), 2);
        assert!(legal(&g, 2).contains(&"e5-d4".to_string()));
    }

    #[test]
    fn steps_go_one_cell_onto_an_empty_cell_with_an_own_visible_egg() {
        let mut g = Ovo::new_game(&Params::new()).unwrap();
        refused(&mut g, 0, "b1-b3", "not a step");
        refused(&mut g, 0, "b1-c1", "c1 is not empty");
        refused(&mut g, 0, "b2-b3", "b2 is empty");
        refused(&mut g, 0, "b6-b5", "not yours");
        refused(&mut g, 1, "b6-b5", "not seat 1's turn");
        let e = act(&mut g, 0, "b1-b2").unwrap();
        assert_eq!(
            e.happened,
            Happened::Moved {
                from: cell("b1"),
                landings: vec![cell("b2")],
                jump: false,
                flipped: false
            }
        );
        assert_eq!((g.turn(), g.last()), (1, Some(cell("b2"))));
    }

    #[test]
    fn jump_chains_turn_stop_anywhere_and_never_land_twice() {
        let mut g = game(RING);
        let l = legal(&g, 0);
        for chain in ["b2xd2", "b2xd2xd4", "b2xd2xd4xb4"] {
            assert!(l.contains(&chain.to_string()), "{chain}");
        }
        assert!(!l.iter().any(|a| a.starts_with("b2xd2xd4xb4xb2")));
        refused(&mut g, 0, "b2xd2xd4xb4xb2", "come back to b2");
        refused(&mut g, 0, "b2xd2xd4xd2", "lands on d2 twice");
        refused(&mut g, 0, "b2xd2xb2", "come back to b2");
        refused(&mut g, 0, "b2xd4", "no egg on c3");
        refused(&mut g, 0, "b2xe2", "not a jump");
        refused(&mut g, 0, "a1xa3", "no egg on a2");
        refused(&mut g, 0, "a1xc1", "c1 is not empty");
        let e = act(&mut g, 0, "b2xd2xd4xb4").unwrap();
        assert!(matches!(
            e.happened,
            Happened::Moved {
                jump: true,
                flipped: false,
                ..
            }
        ));
        assert_eq!(g.board().get(cell("b4")).map(|e| e.owner), Some(0));
        assert_eq!(g.board().get(cell("b2")), None);
        assert_eq!(g.last(), Some(cell("b4")));
    }

    #[test]
    fn a_visible_egg_flips_on_its_first_opposing_camp_landing_and_stops() {
        let mut g = game(FLIP);
        let l = legal(&g, 0);
        assert!(l.contains(&"e4xe6".to_string()));
        assert!(!l.contains(&"e4xe6xc6".to_string()));
        refused(&mut g, 0, "e4xe6xc6", "flipped on e6");
        let e = act(&mut g, 0, "e4xe6").unwrap();
        assert!(matches!(e.happened, Happened::Moved { flipped: true, .. }));
        assert_eq!(
            g.board().get(cell("e6")),
            Some(Egg {
                owner: 0,
                hidden: true
            })
        );
        // A step into the camp flips too; a visible egg at home does not.
        let mut g = game(FLIP);
        assert!(matches!(
            act(&mut g, 0, "e4-f5").unwrap().happened,
            Happened::Moved { flipped: false, .. }
        ));
        act(&mut g, 1, "a3-a2").unwrap();
        assert!(matches!(
            act(&mut g, 0, "f5-f6").unwrap().happened,
            Happened::Moved { flipped: true, .. }
        ));
        act(&mut g, 1, "a2-b2").unwrap();
        assert!(matches!(
            act(&mut g, 0, "e1-f2").unwrap().happened,
            Happened::Moved { flipped: false, .. }
        ));
    }

    #[test]
    fn a_hidden_egg_crosses_camps_unflipped_and_anyone_may_move_it() {
        let hidden = FLIP.replace("B...A.", "B...a.").replace("turn=0", "turn=1");
        let mut g = game(&hidden);
        assert!(legal(&g, 1).contains(&"e4xe6xc6".to_string()));
        let e = act(&mut g, 1, "e4xe6xc6").unwrap();
        assert!(matches!(e.happened, Happened::Moved { flipped: false, .. }));
        assert_eq!(
            g.board().get(cell("c6")),
            Some(Egg {
                owner: 0,
                hidden: true
            })
        );
    }

    #[test]
    fn four_player_eggs_flip_in_any_opposing_camp() {
        let pos = "players=4 turn=0 board=BB..CC/BB..CC/....../....DD/AA.A.D/A....D";
        for (mv, flips) in [
            ("d2-e2", true),
            ("d2-e1", true),
            ("d2-c3", false),
            ("b2-b1", false),
        ] {
            let mut g = game(pos);
            let e = act(&mut g, 0, mv).unwrap();
            assert!(
                matches!(e.happened, Happened::Moved { flipped, .. } if flipped == flips),
                "{mv}"
            );
        }
    }

    #[test]
    fn the_egg_moved_last_turn_stays_but_may_be_peeked_and_jumped() {
        let pos = "players=2 turn=1 board=BBBBB./....../..B.../..a.../....../AAAAA. last=c3";
        let mut g = game(pos);
        let l = legal(&g, 1);
        assert!(!l.iter().any(|a| a.starts_with("c3")));
        assert!(l.contains(&"peek c3".to_string()));
        assert!(l.contains(&"c4xc2".to_string()), "jumping over it is fine");
        refused(&mut g, 1, "c3-c2", "moved last turn");
        assert_eq!(g.moves_from(1, cell("c3")), vec![]);
        let e = act(&mut g, 1, "peek c3").unwrap();
        assert_eq!(Ovo::report(&e), vec!["symbol diamond"]);
        assert_eq!(g.last(), None, "a peek moves nothing: no restriction");
        assert!(!g.moves_from(0, cell("c3")).is_empty());
        // The French rule: no restriction.
        let mut g = game(&format!("{pos} no_move_back=off"));
        act(&mut g, 1, "c3-c2").unwrap();
    }

    #[test]
    fn peeks_need_a_hidden_egg_and_tell_only_the_peeker() {
        let mut g = game("players=2 turn=0 board=BBBBBb/....../....../....../....../AAAAAA");
        refused(&mut g, 0, "peek a1", "not hidden");
        refused(&mut g, 0, "peek c3", "c3 is empty");
        let e = act(&mut g, 0, "peek f6").unwrap();
        assert_eq!(Ovo::report(&e), vec!["symbol star"]);
        assert_eq!(Ovo::event_for(&e, 0), e);
        let public = Ovo::event_for(&e, 1);
        assert_eq!(
            public.happened,
            Happened::Peeked {
                cell: cell("f6"),
                symbol: None
            }
        );
        assert!(Ovo::report(&public).is_empty());
    }

    #[test]
    fn pass_only_when_stuck_and_a_round_of_passes_draws() {
        let mut g = game(STUCK);
        assert_eq!(legal(&g, 0), vec!["ovo", "pass"]);
        let e = act(&mut g, 0, "pass").unwrap();
        assert_eq!(e.happened, Happened::Passed);
        assert_eq!((g.passes(), g.turn(), g.last()), (1, 1, None));
        refused(&mut g, 1, "pass", "only when");
        let mut g = game(&format!("{STUCK} no_move_back=off"));
        refused(&mut g, 0, "pass", "only when");
        let mut g = game(&format!("{STUCK} passes=3"));
        act(&mut g, 0, "pass").unwrap();
        assert_eq!(g.outcome(), Outcome::Draw);
        assert_eq!(g.turn(), 1, "the turn advances after the last action too");
        refused(&mut g, 1, "ovo", "over");
        // Any other action breaks the run.
        let mut g = game(&format!("{STUCK} passes=3"));
        act(&mut g, 0, "ovo").unwrap();
        assert_eq!(g.passes(), 0);
    }

    #[test]
    fn a_correct_declaration_wins_and_changes_nothing_on_the_board() {
        let pos = "players=2 turn=0 board=BBBBBB/....../....../....../....../aaaaaa";
        let mut g = game(pos);
        let board = g.board().clone();
        let e = act(&mut g, 0, "ovo").unwrap();
        assert_eq!(e.declaration.map(|d| d.correct), Some(true));
        assert_eq!((g.outcome(), g.turn()), (Outcome::Win { seat: 0 }, 1));
        assert_eq!(*g.board(), board);
        refused(&mut g, 1, "a6-a5", "over");
        // After a peek, and after the move that completes it.
        let mut g = game(pos);
        let e = act(&mut g, 0, "peek a1 ovo").unwrap();
        assert_eq!(Ovo::report(&e), vec!["symbol diamond"]);
        assert_eq!(g.outcome(), Outcome::Win { seat: 0 });
        let mut g = game("players=2 turn=0 board=BBBBBB/....../....../....../.....a/aaaaa.");
        act(&mut g, 0, "f2-f1 ovo").unwrap();
        assert_eq!(g.outcome(), Outcome::Win { seat: 0 });
        // The view reveals every egg once the game is over.
        assert!(matches!(
            g.view(1).cell(cell("a1")),
            CellView::Revealed { seat: 0, .. }
        ));
    }

    #[test]
    fn a_wrong_two_player_declaration_hands_the_win_over() {
        // Seat 1's own hidden eggs sit in seat 0's camp: wrong for seat 1.
        let mut g = game("players=2 turn=1 board=BBBBBa/....../....../....../....../aaaaab");
        act(&mut g, 1, "ovo").unwrap();
        assert_eq!(g.outcome(), Outcome::Win { seat: 0 });
        let mut g = game("players=2 turn=0 board=BBBBBB/....../....../....../a...../aaaaa.");
        act(&mut g, 0, "ovo").unwrap();
        assert_eq!(g.outcome(), Outcome::Win { seat: 1 });
    }

    #[test]
    fn a_wrong_four_player_declaration_removes_the_seat_until_one_is_left() {
        let mut g = Ovo::new_game(&Params::new().with("players", 4)).unwrap();
        let e = act(&mut g, 0, "ovo").unwrap();
        assert_eq!(
            e.declaration,
            Some(Declaration {
                correct: false,
                seat_out: true,
                removed: ["a1", "b1", "a2", "b2"].map(cell).to_vec()
            })
        );
        assert_eq!((g.out_seats(), g.turn()), (vec![0], 1));
        assert_eq!(g.board().count(0), 0);
        act(&mut g, 1, "a5-a4 ovo").unwrap();
        assert_eq!(g.last(), None, "the moved egg was removed");
        assert_eq!(g.outcome(), Outcome::Ongoing);
        act(&mut g, 2, "e5-d4").unwrap();
        act(&mut g, 3, "e2-d3").unwrap();
        assert_eq!(g.turn(), 2, "seats 0 and 1 are skipped");
        act(&mut g, 2, "ovo").unwrap();
        assert_eq!(g.outcome(), Outcome::Win { seat: 3 });
        assert_eq!(g.turn(), 3);
        assert_eq!(g.last(), None, "a lone declaration moved nothing");
    }

    #[test]
    fn a_wrong_declaration_after_moving_someone_elses_egg_keeps_last() {
        let pos = "players=4 turn=0 board=BB..CC/BB..CC/....../..b.../AA..DD/AA..DD";
        let pos = pos.replace("BB..CC/BB", "B...CC/BB");
        let mut g = game(&pos);
        let e = act(&mut g, 0, "c3-c4 ovo").unwrap();
        assert_eq!(e.declaration.map(|d| d.removed.len()), Some(4));
        assert_eq!(g.last(), Some(cell("c4")), "seat 1's hidden egg stays");
        assert_eq!(g.turn(), 1);
    }

    #[test]
    fn helpers_for_the_ui() {
        let g = game(RING);
        let from_b2 = g.moves_from(0, cell("b2"));
        assert!(from_b2
            .iter()
            .all(|a| a.from_cell() == Some(cell("b2")) && !a.declares()));
        assert!(from_b2.contains(&"b2xd2xd4".parse().unwrap()));
        assert!(g.moves_from(1, cell("b2")).is_empty(), "not on turn");
        assert!(g.moves_from(0, cell("b3")).is_empty(), "not seat 0's egg");
        assert!(g.movable_cells(0).contains(&cell("b2")));
        assert!(!g.movable_cells(0).contains(&cell("b3")));
        assert_eq!(game(STUCK).movable_cells(0), vec![]);
        assert_eq!(g.camp(1).len(), 6);
    }

    #[test]
    fn apply_called_directly_is_still_safe() {
        let mut g = Ovo::new_game(&Params::new()).unwrap();
        let before = g.clone();
        assert!(g.apply(1, &OvoAction::Ovo).is_err());
        assert!(g.apply(7, &OvoAction::Ovo).is_err());
        let empty = OvoAction::Jump {
            from: cell("a1"),
            landings: vec![],
            ovo: false,
        };
        assert!(g.apply(0, &empty).is_err());
        assert_eq!(g, before);
    }
}
