//! Ovo notation (docs/rules.md §4): cells `c4`, steps `b1-b2`, jump chains `b1xb3xd3`,
//! `peek c4`, a trailing ` ovo` declaration, a lone `ovo`, and `pass`.

use crate::games::RuleError;
use serde::{Serialize, Serializer};
use std::fmt;
use std::str::FromStr;

/// Board width and height.
pub const SIDE: usize = 6;
/// Number of cells on the board.
pub const CELLS: usize = SIDE * SIDE;

/// A cell of the 6 × 6 board; always on the board (the field is private).
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Cell(u8);

impl Cell {
    /// The cell at `file` (0 = a) and `rank` (0 = rank 1), if on the board.
    pub fn new(file: i32, rank: i32) -> Option<Cell> {
        let side = SIDE as i32;
        if (0..side).contains(&file) && (0..side).contains(&rank) {
            Some(Cell((rank * side + file) as u8))
        } else {
            None
        }
    }

    /// The cell with this index (rank-major from a1 = 0 to f6 = 35), if on the board.
    pub fn from_index(index: usize) -> Option<Cell> {
        (index < CELLS).then_some(Cell(index as u8))
    }

    /// Every cell, a1, b1, … f1, a2, … f6.
    pub fn all() -> impl Iterator<Item = Cell> {
        (0..CELLS as u8).map(Cell)
    }

    /// Index 0..36, rank-major from a1 (the order of `OvoView::cells`).
    pub fn index(self) -> usize {
        self.0 as usize
    }

    /// File 0..6 (0 = a).
    pub fn file(self) -> i32 {
        i32::from(self.0) % SIDE as i32
    }

    /// Rank 0..6 (0 = rank 1).
    pub fn rank(self) -> i32 {
        i32::from(self.0) / SIDE as i32
    }

    /// The cell `df` files and `dr` ranks away, if on the board.
    pub fn offset(self, df: i32, dr: i32) -> Option<Cell> {
        Cell::new(self.file() + df, self.rank() + dr)
    }

    /// The cell halfway between two cells two apart (the egg a jump goes over).
    pub(crate) fn midpoint(self, other: Cell) -> Option<Cell> {
        let (df, dr) = (other.file() - self.file(), other.rank() - self.rank());
        let jump = matches!(df, -2 | 0 | 2) && matches!(dr, -2 | 0 | 2) && (df, dr) != (0, 0);
        if jump {
            self.offset(df / 2, dr / 2)
        } else {
            None
        }
    }

    /// True when the cells touch (one king step apart).
    pub fn touches(self, other: Cell) -> bool {
        let (df, dr) = (other.file() - self.file(), other.rank() - self.rank());
        self != other && df.abs() <= 1 && dr.abs() <= 1
    }
}

impl fmt::Display for Cell {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let file = char::from(b'a' + (self.0 % SIDE as u8));
        write!(f, "{file}{}", self.0 / SIDE as u8 + 1)
    }
}

impl FromStr for Cell {
    type Err = RuleError;
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        let bad = || RuleError::new(format!("'{}' is not a cell (a1 to f6)", short(s)));
        let mut chars = s.chars();
        let (Some(file), Some(rank), None) = (chars.next(), chars.next(), chars.next()) else {
            return Err(bad());
        };
        let file = "abcdef".find(file).ok_or_else(bad)?;
        let rank = "123456".find(rank).ok_or_else(bad)?;
        Cell::new(file as i32, rank as i32).ok_or_else(bad)
    }
}

/// Cells travel as their name (`"c4"`) in views, events and the state.
impl Serialize for Cell {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.collect_str(self)
    }
}

/// The symbol on an egg's face; it follows from the owner.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Symbol {
    /// Seat 0 in 4-player games.
    Circle,
    /// Seat 1 in 4-player games.
    Triangle,
    /// Seat 0 in 2-player games, seat 2 in 4-player games.
    Diamond,
    /// Seat 1 in 2-player games, seat 3 in 4-player games.
    Star,
}

impl Symbol {
    /// The symbol of `seat`'s eggs in a game of `players` (None for a seat that does not
    /// exist).
    pub fn of_seat(players: usize, seat: usize) -> Option<Symbol> {
        match (players, seat) {
            (2, 0) => Some(Symbol::Diamond),
            (2, 1) => Some(Symbol::Star),
            (4, 0) => Some(Symbol::Circle),
            (4, 1) => Some(Symbol::Triangle),
            (4, 2) => Some(Symbol::Diamond),
            (4, 3) => Some(Symbol::Star),
            _ => None,
        }
    }

    /// The referee's word: `circle`, `triangle`, `diamond`, `star`.
    pub fn name(self) -> &'static str {
        match self {
            Symbol::Circle => "circle",
            Symbol::Triangle => "triangle",
            Symbol::Diamond => "diamond",
            Symbol::Star => "star",
        }
    }
}

impl fmt::Display for Symbol {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// One Ovo action. `ovo` on a move or peek is the declaration after that action.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub enum OvoAction {
    /// A step to a neighbouring empty cell: `b1-b2`.
    Step {
        /// Where the egg stands.
        from: Cell,
        /// Where it steps.
        to: Cell,
        /// Declares "Ovo!" after the step.
        ovo: bool,
    },
    /// A jump chain, every landing listed: `b1xb3xd3`.
    Jump {
        /// Where the egg stands.
        from: Cell,
        /// Each landing cell in order (at least one).
        landings: Vec<Cell>,
        /// Declares "Ovo!" after the chain.
        ovo: bool,
    },
    /// A look at a hidden egg: `peek c4`.
    Peek {
        /// The hidden egg's cell.
        cell: Cell,
        /// Declares "Ovo!" after the peek.
        ovo: bool,
    },
    /// "Ovo!" as the whole turn.
    Ovo,
    /// Nothing (only when no move and no peek is possible).
    Pass,
}

impl OvoAction {
    /// The cell a move starts from (None for peek, ovo, pass).
    pub fn from_cell(&self) -> Option<Cell> {
        match self {
            OvoAction::Step { from, .. } | OvoAction::Jump { from, .. } => Some(*from),
            _ => None,
        }
    }

    /// Every cell a move lands on, in order (empty for peek, ovo, pass).
    pub fn landings(&self) -> Vec<Cell> {
        match self {
            OvoAction::Step { to, .. } => vec![*to],
            OvoAction::Jump { landings, .. } => landings.clone(),
            _ => Vec::new(),
        }
    }

    /// True when the action declares "Ovo!" (after an action or alone).
    pub fn declares(&self) -> bool {
        match self {
            OvoAction::Step { ovo, .. }
            | OvoAction::Jump { ovo, .. }
            | OvoAction::Peek { ovo, .. } => *ovo,
            OvoAction::Ovo => true,
            OvoAction::Pass => false,
        }
    }

    /// The same move or peek followed by a declaration (ovo and pass are returned as is).
    pub fn with_ovo(&self) -> OvoAction {
        let mut a = self.clone();
        match &mut a {
            OvoAction::Step { ovo, .. }
            | OvoAction::Jump { ovo, .. }
            | OvoAction::Peek { ovo, .. } => *ovo = true,
            OvoAction::Ovo | OvoAction::Pass => {}
        }
        a
    }
}

impl fmt::Display for OvoAction {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            OvoAction::Step { from, to, .. } => write!(f, "{from}-{to}")?,
            OvoAction::Jump { from, landings, .. } => {
                write!(f, "{from}")?;
                for l in landings {
                    write!(f, "x{l}")?;
                }
            }
            OvoAction::Peek { cell, .. } => write!(f, "peek {cell}")?,
            OvoAction::Ovo => return f.write_str("ovo"),
            OvoAction::Pass => return f.write_str("pass"),
        }
        if self.declares() {
            f.write_str(" ovo")?;
        }
        Ok(())
    }
}

impl FromStr for OvoAction {
    type Err = RuleError;
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        let words: Vec<&str> = s.split_whitespace().collect();
        let (body, ovo) = match words.as_slice() {
            [] => return Err(RuleError::new("empty action")),
            ["ovo"] => return Ok(OvoAction::Ovo),
            ["pass"] => return Ok(OvoAction::Pass),
            ["pass", "ovo"] => {
                return Err(RuleError::new(
                    "a pass cannot be followed by ovo; declare ovo as the whole turn instead",
                ))
            }
            [body @ .., "ovo"] => (body, true),
            body => (body, false),
        };
        match body {
            ["peek"] => Err(RuleError::new("peek needs a cell: peek c4")),
            ["peek", cell] => Ok(OvoAction::Peek {
                cell: cell.parse()?,
                ovo,
            }),
            [mv] => parse_move(mv, ovo),
            _ => Err(RuleError::new(format!(
                "'{}' is not an Ovo action (b1-b2, b1xb3xd3, peek c4, ovo, pass)",
                short(s)
            ))),
        }
    }
}

fn parse_move(word: &str, ovo: bool) -> Result<OvoAction, RuleError> {
    match (word.contains('-'), word.contains('x')) {
        (true, true) => {
            return Err(RuleError::new(format!(
                "'{}' mixes a step and a jump: a move is b1-b2 or b1xb3xd3",
                short(word)
            )))
        }
        (false, false) => {
            return Err(RuleError::new(format!(
                "'{}' is not an Ovo action (b1-b2, b1xb3xd3, peek c4, ovo, pass)",
                short(word)
            )))
        }
        _ => {}
    }
    if let Some((from, to)) = word.split_once('-') {
        return Ok(OvoAction::Step {
            from: from.parse()?,
            to: to.parse()?,
            ovo,
        });
    }
    let mut parts = word.split('x');
    let from: Cell = parts.next().unwrap_or_default().parse()?;
    let landings = parts.map(str::parse).collect::<Result<Vec<Cell>, _>>()?;
    if landings.is_empty() {
        return Err(RuleError::new(format!(
            "'{}' is not a move (a step b1-b2 or a jump b1xb3)",
            short(word)
        )));
    }
    Ok(OvoAction::Jump {
        from,
        landings,
        ovo,
    })
}

/// Keeps an echoed word short in error messages.
fn short(s: &str) -> String {
    match s.char_indices().nth(24) {
        Some((i, _)) => format!("{}…", &s[..i]),
        None => s.to_string(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn cell(s: &str) -> Cell {
        s.parse().unwrap()
    }

    #[test]
    fn cells_read_and_print_both_ways() {
        for c in Cell::all() {
            assert_eq!(c.to_string().parse::<Cell>(), Ok(c));
        }
        assert_eq!(cell("a1").index(), 0);
        assert_eq!(cell("f6").index(), 35);
        assert_eq!(cell("c4").file(), 2);
        assert_eq!(cell("c4").rank(), 3);
        for bad in ["", "a", "a0", "a7", "g1", "A1", "a11", "é1", "1a"] {
            assert!(bad.parse::<Cell>().is_err(), "{bad}");
        }
    }

    #[test]
    fn actions_round_trip_in_canonical_spelling() {
        for s in [
            "b1-b2",
            "b1-b2 ovo",
            "b1xb3",
            "b1xb3xd3",
            "b1xb3xd3 ovo",
            "peek c4",
            "peek c4 ovo",
            "ovo",
            "pass",
        ] {
            let a: OvoAction = s.parse().unwrap();
            assert_eq!(a.to_string(), s);
        }
        assert_eq!(
            "  b1xb3xd3   ovo "
                .parse::<OvoAction>()
                .unwrap()
                .to_string(),
            "b1xb3xd3 ovo"
        );
        let a: OvoAction = "b1xb3xd3".parse().unwrap();
        assert_eq!(a.from_cell(), Some(cell("b1")));
        assert_eq!(a.landings(), vec![cell("b3"), cell("d3")]);
        assert!(a.with_ovo().declares());
    }

    #[test]
    fn nonsense_actions_are_refused_with_a_reason() {
        for bad in [
            "",
            "b1",
            "b1-",
            "-b2",
            "b1-b2-b3",
            "b1x",
            "xb3",
            "b1xx",
            "b1xb3-",
            "peek",
            "peek z9",
            "peek c4 c5",
            "pass ovo",
            "ovo ovo",
            "b1-b2 ovo ovo",
            "jump",
            "b1 b2",
            "b1-b7",
        ] {
            assert!(bad.parse::<OvoAction>().is_err(), "{bad}");
        }
    }

    #[test]
    fn midpoints_and_touching() {
        assert_eq!(cell("b1").midpoint(cell("b3")), Some(cell("b2")));
        assert_eq!(cell("b1").midpoint(cell("d3")), Some(cell("c2")));
        assert_eq!(cell("b1").midpoint(cell("c3")), None);
        assert_eq!(cell("b1").midpoint(cell("b1")), None);
        assert!(cell("b1").touches(cell("c2")));
        assert!(!cell("b1").touches(cell("b1")));
        assert!(!cell("a1").touches(cell("f1")));
    }
}
