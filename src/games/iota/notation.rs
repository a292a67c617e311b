//! IOTA notation (docs/rules.md §4): cells `x,y`, and the actions `swap 2,1 Bc2`,
//! `place Bx2@1,0 Gc2@2,0`, `pass` / `pass Rc2 Gt1`.

use super::cards::{short, Card};
use crate::games::{RuleError, RuleResult};
use serde::Serialize;
use std::cmp::Ordering;
use std::fmt;
use std::str::FromStr;

/// How far from the starter a coordinate may be. The grid is unbounded in the rules, but
/// 66 cards can never reach beyond ±66; the bound keeps neighbour arithmetic from
/// overflowing on hostile input.
pub const COORD_LIMIT: i32 = 1_000_000;

/// A grid cell: `x` grows to the right, `y` downward; the starter lies at `0,0`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize)]
pub struct Cell {
    /// Column, growing to the right.
    pub x: i32,
    /// Row, growing downward.
    pub y: i32,
}

impl Cell {
    /// The cell `x,y`.
    pub const fn new(x: i32, y: i32) -> Cell {
        Cell { x, y }
    }

    /// True when both coordinates are within [`COORD_LIMIT`].
    pub fn in_bounds(self) -> bool {
        self.x.abs() <= COORD_LIMIT && self.y.abs() <= COORD_LIMIT
    }

    /// The cell `d` steps along `dir` (0 = along x, 1 = along y). Only for in-bounds
    /// cells and small `d`, which cannot overflow.
    pub(crate) fn step(self, dir: Dir, d: i32) -> Cell {
        match dir {
            Dir::Row => Cell::new(self.x + d, self.y),
            Dir::Column => Cell::new(self.x, self.y + d),
        }
    }

    /// The four orthogonal neighbours.
    pub fn neighbours(self) -> [Cell; 4] {
        [
            Cell::new(self.x - 1, self.y),
            Cell::new(self.x + 1, self.y),
            Cell::new(self.x, self.y - 1),
            Cell::new(self.x, self.y + 1),
        ]
    }
}

/// Cells sort by `y`, then `x`: the canonical order of positions and `legal`.
impl Ord for Cell {
    fn cmp(&self, other: &Self) -> Ordering {
        (self.y, self.x).cmp(&(other.y, other.x))
    }
}

impl PartialOrd for Cell {
    fn partial_cmp(&self, other: &Self) -> Option<Ordering> {
        Some(self.cmp(other))
    }
}

impl fmt::Display for Cell {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{},{}", self.x, self.y)
    }
}

impl FromStr for Cell {
    type Err = RuleError;

    fn from_str(s: &str) -> RuleResult<Cell> {
        let bad = || {
            RuleError::new(format!(
                "'{}' is not a cell (write x,y as in -2,3)",
                short(s)
            ))
        };
        let (x, y) = s.split_once(',').ok_or_else(bad)?;
        let (Ok(x), Ok(y)) = (x.parse::<i32>(), y.parse::<i32>()) else {
            return Err(bad());
        };
        let cell = Cell::new(x, y);
        if !cell.in_bounds() {
            return Err(RuleError::new(format!(
                "{cell} is too far out (coordinates stay within ±{COORD_LIMIT})"
            )));
        }
        Ok(cell)
    }
}

/// A direction of lines on the grid.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub(crate) enum Dir {
    /// Along x (a row).
    Row,
    /// Along y (a column).
    Column,
}

impl Dir {
    /// The crossing direction.
    pub(crate) fn other(self) -> Dir {
        match self {
            Dir::Row => Dir::Column,
            Dir::Column => Dir::Row,
        }
    }
}

/// One IOTA action in the notation of docs/rules.md §4.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Action {
    /// Exchange the wild on `cell` for the hand card `card` (before the turn's action).
    Swap {
        /// Where the wild lies.
        cell: Cell,
        /// The hand card that takes its place.
        card: Card,
    },
    /// Place 1 to 4 hand cards; the order is free, the canonical order is by `y` then `x`.
    Place(Vec<(Card, Cell)>),
    /// Pass, returning these hand cards (0 to 4) to the bottom of the pile in this order.
    Pass(Vec<Card>),
}

impl fmt::Display for Action {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Action::Swap { cell, card } => write!(f, "swap {cell} {card}"),
            Action::Place(cards) => {
                f.write_str("place")?;
                for (card, cell) in cards {
                    write!(f, " {card}@{cell}")?;
                }
                Ok(())
            }
            Action::Pass(cards) => {
                f.write_str("pass")?;
                for card in cards {
                    write!(f, " {card}")?;
                }
                Ok(())
            }
        }
    }
}

impl FromStr for Action {
    type Err = RuleError;

    fn from_str(s: &str) -> RuleResult<Action> {
        let mut words = s.split_whitespace();
        let verb = words.next().unwrap_or("");
        let rest: Vec<&str> = words.collect();
        match verb {
            "swap" => {
                let [cell, card] = rest.as_slice() else {
                    return Err(RuleError::new(
                        "write a swap as: swap CELL CARD (swap 2,1 Bc2)",
                    ));
                };
                Ok(Action::Swap {
                    cell: cell.parse()?,
                    card: card.parse()?,
                })
            }
            "place" => {
                if rest.is_empty() {
                    return Err(RuleError::new(
                        "place needs cards: place CARD@x,y ... (place Bx2@1,0)",
                    ));
                }
                if rest.len() > 4 {
                    return Err(RuleError::new("place at most 4 cards"));
                }
                let cards = rest
                    .iter()
                    .map(|w| {
                        let (card, cell) = w.split_once('@').ok_or_else(|| {
                            RuleError::new(format!("'{}' should be CARD@x,y", short(w)))
                        })?;
                        Ok((card.parse()?, cell.parse()?))
                    })
                    .collect::<RuleResult<Vec<_>>>()?;
                Ok(Action::Place(cards))
            }
            "pass" => {
                if rest.len() > 4 {
                    return Err(RuleError::new("return at most 4 cards when passing"));
                }
                Ok(Action::Pass(
                    rest.iter().map(|w| w.parse()).collect::<RuleResult<_>>()?,
                ))
            }
            other => Err(RuleError::new(format!(
                "unknown action '{}' (swap, place or pass)",
                short(other)
            ))),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn actions_round_trip_through_notation() {
        for text in [
            "swap 2,1 Bc2",
            "place Bx2@1,0 Gc2@2,0",
            "place W@-3,0",
            "pass",
            "pass Rc2 Gt1",
            "pass W W Rc2 Gt1",
        ] {
            let action: Action = text.parse().unwrap();
            assert_eq!(action.to_string(), text);
        }
    }

    #[test]
    fn bad_actions_are_refused_with_a_reason() {
        for bad in [
            "",
            "swap",
            "swap 2,1",
            "swap 2;1 Bc2",
            "swap 2,1 Bc2 x",
            "place",
            "place Bx2",
            "place Bx2@1",
            "place Bx2@a,b",
            "place Bx2@1,0,0",
            "place Bx2@1,0 Bx2@2,0 Bx2@3,0 Bx2@4,0 Bx2@5,0",
            "place Bx2@99999999999,0",
            "place Bx2@2000000,0",
            "pass Rc2 Rc2 Rc2 Rc2 Rc2",
            "pass Rc9",
            "jump",
        ] {
            assert!(bad.parse::<Action>().is_err(), "{bad}");
        }
        assert!("place Bx2@2000000,0"
            .parse::<Action>()
            .unwrap_err()
            .to_string()
            .contains("too far"));
    }

    #[test]
    fn cells_sort_by_row_then_column() {
        let mut cells = vec![
            Cell::new(1, 0),
            Cell::new(-5, 1),
            Cell::new(0, 0),
            Cell::new(9, -1),
        ];
        cells.sort();
        assert_eq!(
            cells,
            vec![
                Cell::new(9, -1),
                Cell::new(0, 0),
                Cell::new(1, 0),
                Cell::new(-5, 1)
            ]
        );
    }
}
