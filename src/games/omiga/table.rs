//! The bounded table: a grid of cells, each empty or holding one side's card as it lies.

use super::cards::Card;
use crate::games::{RuleError, RuleResult, Seat};
use serde::{Deserialize, Serialize};

/// The two sides: White is seat 0 and sits at row 0, Black is seat 1 at row H-1.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Side {
    /// Seat 0.
    White,
    /// Seat 1.
    Black,
}

impl Side {
    /// The side playing at `seat`, if the seat exists.
    pub fn of_seat(seat: Seat) -> Option<Side> {
        match seat {
            0 => Some(Side::White),
            1 => Some(Side::Black),
            _ => None,
        }
    }

    /// The seat number (0 White, 1 Black), also the index into per-side arrays.
    pub fn seat(self) -> Seat {
        self as usize
    }

    /// The other side.
    pub fn opponent(self) -> Side {
        match self {
            Side::White => Side::Black,
            Side::Black => Side::White,
        }
    }

    /// The position letter: `w` or `b`.
    pub fn letter(self) -> char {
        match self {
            Side::White => 'w',
            Side::Black => 'b',
        }
    }
}

/// The table sizes the setting `omiga.table` offers, as (width, height).
pub const TABLE_SIZES: [(u8, u8); 3] = [(7, 8), (9, 10), (11, 12)];

/// The default table: 9 columns × 10 rows.
pub const DEFAULT_TABLE: (u8, u8) = (9, 10);

/// Parses a table size `WxH`, refusing sizes the game does not offer.
pub fn parse_table_size(word: &str) -> RuleResult<(u8, u8)> {
    TABLE_SIZES
        .into_iter()
        .find(|(w, h)| format!("{w}x{h}") == word)
        .ok_or_else(|| {
            RuleError::new(format!(
                "table must be 7x8, 9x10 or 11x12, got '{}'",
                super::cards::short(word)
            ))
        })
}

/// A card on the table and whose it is.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct Placed {
    /// The owner.
    pub side: Side,
    /// The card as it lies (already turned if it was placed turned).
    pub card: Card,
}

/// The grid of cells, row-major from White's row 0.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Table {
    width: u8,
    height: u8,
    cells: Vec<Option<Placed>>,
}

impl Table {
    /// An empty table of `width` × `height`.
    pub fn new(width: u8, height: u8) -> Self {
        Table {
            width,
            height,
            cells: vec![None; usize::from(width) * usize::from(height)],
        }
    }

    /// Columns.
    pub fn width(&self) -> u8 {
        self.width
    }

    /// Rows.
    pub fn height(&self) -> u8 {
        self.height
    }

    /// The index of `x,y`, or `None` outside the table (any signed input is safe).
    fn index(&self, x: i32, y: i32) -> Option<usize> {
        let inside =
            (0..i32::from(self.width)).contains(&x) && (0..i32::from(self.height)).contains(&y);
        // Both are non-negative and small here, so the casts are exact.
        inside.then(|| y as usize * usize::from(self.width) + x as usize)
    }

    /// Whether `x,y` is on the table.
    pub fn contains(&self, x: i32, y: i32) -> bool {
        self.index(x, y).is_some()
    }

    /// What lies at `x,y` (`None` when empty or outside).
    pub fn get(&self, x: i32, y: i32) -> Option<Placed> {
        self.index(x, y)
            .and_then(|i| self.cells.get(i).copied().flatten())
    }

    /// Lays a card; refuses a cell outside or taken (callers validate first, this only
    /// guards the invariant).
    pub fn put(&mut self, x: i32, y: i32, placed: Placed) -> RuleResult<()> {
        let cell = self
            .index(x, y)
            .and_then(|i| self.cells.get_mut(i))
            .ok_or_else(|| RuleError::new(format!("{x},{y} is outside the table")))?;
        if cell.is_some() {
            return Err(RuleError::new("That cell is taken"));
        }
        *cell = Some(placed);
        Ok(())
    }

    /// Every placed card with its cell, sorted by `y` then `x` (the position's order).
    pub fn placed(&self) -> impl Iterator<Item = (u8, u8, Placed)> + '_ {
        let w = usize::from(self.width.max(1));
        self.cells.iter().enumerate().filter_map(move |(i, c)| {
            // i < width * height, so both fit in u8.
            c.map(|p| ((i % w) as u8, (i / w) as u8, p))
        })
    }

    /// How many cards lie on the table.
    pub fn count(&self) -> usize {
        self.cells.iter().filter(|c| c.is_some()).count()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn cells_outside_are_safe_and_refused() {
        let mut t = Table::new(9, 10);
        let p = Placed {
            side: Side::White,
            card: "DD-GG".parse().unwrap(),
        };
        assert!(t.put(-1, 0, p).is_err());
        assert!(t.put(9, 0, p).is_err());
        assert!(t.put(0, 10, p).is_err());
        assert!(t.put(i32::MAX, i32::MIN, p).is_err());
        assert!(t.put(8, 9, p).is_ok());
        assert!(t.put(8, 9, p).is_err());
        assert_eq!(t.get(8, 9), Some(p));
        assert_eq!(t.get(-5, 9), None);
        assert_eq!(t.placed().collect::<Vec<_>>(), vec![(8, 9, p)]);
        assert_eq!(t.count(), 1);
    }

    #[test]
    fn only_the_offered_sizes_parse() {
        assert_eq!(parse_table_size("9x10"), Ok((9, 10)));
        assert_eq!(parse_table_size("7x8"), Ok((7, 8)));
        assert_eq!(parse_table_size("11x12"), Ok((11, 12)));
        assert!(parse_table_size("10x10").is_err());
        assert!(parse_table_size("9X10").is_err());
    }
}
