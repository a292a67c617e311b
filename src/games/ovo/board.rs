//! The board: which egg stands where, whose it is, and the camps.

use super::notation::{Cell, Symbol, CELLS};
use crate::games::Seat;

/// The 8 directions a step or a jump may take (file, rank).
pub(crate) const DIRECTIONS: [(i32, i32); 8] = crate::games::AROUND;

/// One egg: its owner and whether it has been flipped (hidden).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct Egg {
    /// The seat the egg belongs to (its symbol follows from it).
    pub owner: Seat,
    /// Flipped face down: nobody can tell it from another hidden egg.
    pub hidden: bool,
}

/// 36 cells, each empty or holding one egg.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct Board {
    cells: [Option<Egg>; CELLS],
}

impl Board {
    /// A board with no eggs.
    pub fn empty() -> Board {
        Board {
            cells: [None; CELLS],
        }
    }

    /// The starting board: every seat's eggs visible on its camp.
    pub fn start(players: usize) -> Board {
        let mut board = Board::empty();
        for seat in 0..players {
            for cell in camp(players, seat) {
                board.put(
                    cell,
                    Some(Egg {
                        owner: seat,
                        hidden: false,
                    }),
                );
            }
        }
        board
    }

    /// The egg on `cell`, if any.
    pub fn get(&self, cell: Cell) -> Option<Egg> {
        self.cells[cell.index()]
    }

    /// Puts `egg` (or nothing) on `cell`.
    pub fn put(&mut self, cell: Cell, egg: Option<Egg>) {
        self.cells[cell.index()] = egg;
    }

    /// Every egg with its cell, a1 first.
    pub fn eggs(&self) -> impl Iterator<Item = (Cell, Egg)> + '_ {
        Cell::all().filter_map(|c| self.get(c).map(|e| (c, e)))
    }

    /// How many eggs `seat` has on the board.
    pub fn count(&self, seat: Seat) -> usize {
        self.eggs().filter(|(_, e)| e.owner == seat).count()
    }

    /// True when some egg on the board is hidden.
    pub fn any_hidden(&self) -> bool {
        self.eggs().any(|(_, e)| e.hidden)
    }
}

/// The cells of `seat`'s camp in a game of `players` (empty for a seat that does not
/// exist), a1 order. The UI tints these.
pub fn camp(players: usize, seat: Seat) -> Vec<Cell> {
    Cell::all()
        .filter(|&c| camp_owner(players, c) == Some(seat))
        .collect()
}

/// Whose camp `cell` belongs to in a game of `players`, if anyone's.
pub fn camp_owner(players: usize, cell: Cell) -> Option<Seat> {
    let (f, r) = (cell.file(), cell.rank());
    match players {
        2 => match r {
            0 => Some(0),
            5 => Some(1),
            _ => None,
        },
        4 => match (f <= 1, f >= 4, r <= 1, r >= 4) {
            (true, _, true, _) => Some(0),
            (true, _, _, true) => Some(1),
            (_, true, _, true) => Some(2),
            (_, true, true, _) => Some(3),
            _ => None,
        },
        _ => None,
    }
}

/// The symbol of an egg owned by `owner` (circle for a seat that does not exist, which a
/// checked board never holds).
pub fn symbol_of(players: usize, owner: Seat) -> Symbol {
    Symbol::of_seat(players, owner).unwrap_or(Symbol::Circle)
}

/// Eggs each seat starts with: 6 in 2-player games, 4 in 4-player games.
pub fn eggs_per_seat(players: usize) -> usize {
    if players == 4 {
        4
    } else {
        6
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn cells(names: &str) -> Vec<Cell> {
        names.split(' ').map(|n| n.parse().unwrap()).collect()
    }

    #[test]
    fn camps_are_as_the_rules_say() {
        assert_eq!(camp(2, 0), cells("a1 b1 c1 d1 e1 f1"));
        assert_eq!(camp(2, 1), cells("a6 b6 c6 d6 e6 f6"));
        assert_eq!(camp(4, 0), cells("a1 b1 a2 b2"));
        assert_eq!(camp(4, 1), cells("a5 b5 a6 b6"));
        assert_eq!(camp(4, 2), cells("e5 f5 e6 f6"));
        assert_eq!(camp(4, 3), cells("e1 f1 e2 f2"));
        assert!(camp(2, 2).is_empty());
        assert!(camp(3, 0).is_empty());
    }

    #[test]
    fn the_start_has_the_right_eggs() {
        let b = Board::start(2);
        assert_eq!((b.count(0), b.count(1)), (6, 6));
        let b = Board::start(4);
        assert!((0..4).all(|s| b.count(s) == 4));
        assert!(!b.any_hidden());
        assert_eq!(symbol_of(4, 1), Symbol::Triangle);
        assert_eq!(symbol_of(2, 0), Symbol::Diamond);
    }
}
