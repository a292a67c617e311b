//! What the Ovo bot remembers of the hidden eggs (a memory that fades with the level),
//! and the determinizations it samples from it: owners for the eggs it has forgotten,
//! consistent with everything the seat still knows.

use crate::games::ovo::Cell;
use crate::games::ovo::{camp_owner, eggs_per_seat, CellView, Ovo, OvoAction, OvoView, CELLS};
use crate::games::{Game, RuleResult, Seat};
use rand::seq::SliceRandom;
use rand::Rng;
use rand_chacha::ChaCha8Rng;

/// What the bot believes stands on a cell.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Belief {
    /// No egg.
    Empty,
    /// A visible egg of this seat.
    Visible(Seat),
    /// A hidden egg, with its owner when remembered.
    Hidden(Option<Seat>),
}

/// The bot's memory of the board.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Memory {
    pub(super) players: usize,
    pub(super) cells: [Belief; CELLS],
}

impl Memory {
    /// A memory that knows only what `view` shows.
    pub fn from_view(view: &OvoView) -> Memory {
        let mut m = Memory {
            players: view.players,
            cells: [Belief::Empty; CELLS],
        };
        m.reconcile(view);
        m
    }

    /// The belief about `cell`.
    pub fn get(&self, cell: Cell) -> Belief {
        self.cells[cell.index()]
    }

    /// Makes the memory agree with what the view shows plainly; keeps remembered owners
    /// of hidden eggs that are still there.
    pub(super) fn reconcile(&mut self, view: &OvoView) {
        self.players = view.players;
        for cell in Cell::all() {
            let b = &mut self.cells[cell.index()];
            *b = match view.cell(cell) {
                CellView::Empty => Belief::Empty,
                CellView::Visible { seat, .. } => Belief::Visible(seat),
                CellView::Revealed { seat, .. } => Belief::Hidden(Some(seat)),
                CellView::Hidden => match *b {
                    Belief::Hidden(known) => Belief::Hidden(known),
                    _ => Belief::Hidden(None),
                },
            };
        }
    }

    /// Follows one move: the egg leaves `from` and stands on its last landing, flipped
    /// (with its owner remembered, since it was visible) when it landed in an opposing camp.
    pub(super) fn follow(&mut self, from: Cell, to: Cell, flipped: bool) {
        let egg = std::mem::replace(&mut self.cells[from.index()], Belief::Empty);
        self.cells[to.index()] = match (egg, flipped) {
            (Belief::Visible(owner), true) => Belief::Hidden(Some(owner)),
            (Belief::Empty, _) => Belief::Hidden(None),
            (other, _) => other,
        };
    }

    /// Whether `egg` landing on `cell` would be flipped.
    fn flips(&self, egg: Belief, cell: Cell) -> bool {
        matches!(egg, Belief::Visible(o) if camp_owner(self.players, cell).is_some_and(|c| c != o))
    }

    /// Sure that every egg of `seat` is hidden on its own camp.
    pub fn sure_home(&self, seat: Seat) -> bool {
        let home = Cell::all()
            .filter(|&c| {
                self.get(c) == Belief::Hidden(Some(seat))
                    && camp_owner(self.players, c) == Some(seat)
            })
            .count();
        home == eggs_per_seat(self.players)
    }

    /// The memory after `seat` plays `action` (a move), as far as it can tell.
    pub(super) fn after(&self, action: &OvoAction) -> Memory {
        let mut m = self.clone();
        if let (Some(from), Some(&to)) = (action.from_cell(), action.landings().last()) {
            let flipped = m.flips(m.get(from), to);
            m.follow(from, to, flipped);
        }
        m
    }

    /// Forgets each remembered hidden owner with chance `p`.
    pub(super) fn fade(&mut self, p: f64, rng: &mut ChaCha8Rng) {
        for b in self.cells.iter_mut() {
            if matches!(b, Belief::Hidden(Some(_))) && rng.random_bool(p.clamp(0.0, 1.0)) {
                *b = Belief::Hidden(None);
            }
        }
    }
}

/// A full state consistent with `view` and `memory`: the owners of hidden eggs the
/// memory does not know are dealt at random among the eggs each seat must still have
/// (its starting number, none for a seat that is out). The legal actions of the seat on
/// turn are the same in every such state, since owners of hidden eggs never change them.
pub fn sample_state(view: &OvoView, memory: &Memory, rng: &mut ChaCha8Rng) -> RuleResult<Ovo> {
    let players = view.players;
    let total = |s: Seat| {
        if view.out.contains(&s) {
            0
        } else {
            eggs_per_seat(players)
        }
    };
    let mut owners = vec![None; CELLS];
    let mut need: Vec<usize> = (0..players).map(total).collect();
    let mut unknown = Vec::new();
    let take = |s: Seat, need: &mut Vec<usize>| match need.get_mut(s) {
        Some(n) if *n > 0 => {
            *n -= 1;
            true
        }
        _ => false,
    };
    for cell in Cell::all() {
        match view.cell(cell) {
            CellView::Empty => {}
            CellView::Visible { seat, .. } | CellView::Revealed { seat, .. } => {
                take(seat, &mut need);
                owners[cell.index()] = Some((seat, false));
            }
            CellView::Hidden => unknown.push(cell),
        }
    }
    // Remembered owners first, while the counts allow them (a memory can never say more
    // eggs of a seat than it has, but a defensive check costs nothing).
    let mut rest = Vec::new();
    for cell in unknown {
        match memory.get(cell) {
            Belief::Hidden(Some(s)) if take(s, &mut need) => {
                owners[cell.index()] = Some((s, true));
            }
            _ => rest.push(cell),
        }
    }
    let mut pool: Vec<Seat> = need
        .iter()
        .enumerate()
        .flat_map(|(s, &n)| std::iter::repeat_n(s, n))
        .collect();
    pool.shuffle(rng);
    for (cell, s) in rest.iter().zip(pool.iter()) {
        owners[cell.index()] = Some((*s, true));
    }
    let mut board = String::new();
    for rank in (0..6).rev() {
        for file in 0..6 {
            let ch = Cell::new(file, rank)
                .and_then(|c| owners[c.index()])
                .map(|(s, hidden)| {
                    let base = if hidden { b'a' } else { b'A' };
                    char::from(base + u8::try_from(s).unwrap_or(0))
                })
                .unwrap_or('.');
            board.push(ch);
        }
        if rank > 0 {
            board.push('/');
        }
    }
    let mut line = format!("players={players} turn={} board={board}", view.turn);
    if let Some(last) = view.last {
        line.push_str(&format!(" last={last}"));
    }
    if !view.out.is_empty() {
        let out: Vec<String> = view.out.iter().map(|s| s.to_string()).collect();
        line.push_str(&format!(" out={}", out.join(",")));
    }
    if view.passes > 0 {
        line.push_str(&format!(" passes={}", view.passes));
    }
    if !view.no_move_back {
        line.push_str(" no_move_back=off");
    }
    Ovo::from_position(&line)
}
