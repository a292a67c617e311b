//! The grid, its lines, and whether a line's cards go together.

use super::cards::Card;
use super::notation::{Cell, Dir};
use std::collections::HashMap;
use std::hash::{BuildHasherDefault, Hasher};

/// A small multiplicative hasher for cells: the legality search does many grid lookups
/// and needs no protection against collision attacks (at most 66 cards lie on a grid).
#[derive(Default)]
pub(crate) struct CellHasher(u64);

impl Hasher for CellHasher {
    fn finish(&self) -> u64 {
        self.0
    }
    fn write(&mut self, bytes: &[u8]) {
        for &b in bytes {
            self.0 = (self.0.rotate_left(5) ^ u64::from(b)).wrapping_mul(0x51_7c_c1_b7_27_22_0a_95);
        }
    }
    fn write_i32(&mut self, n: i32) {
        self.0 =
            (self.0.rotate_left(5) ^ u64::from(n as u32)).wrapping_mul(0x51_7c_c1_b7_27_22_0a_95);
    }
}

/// The cards on the table, by cell.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Grid {
    cells: HashMap<Cell, Card, BuildHasherDefault<CellHasher>>,
}

impl Grid {
    /// An empty grid.
    pub fn new() -> Grid {
        Grid::default()
    }

    /// The card on `cell`, if any.
    pub fn get(&self, cell: Cell) -> Option<Card> {
        self.cells.get(&cell).copied()
    }

    /// Lays `card` on `cell` (replacing whatever lay there).
    pub(crate) fn insert(&mut self, cell: Cell, card: Card) {
        self.cells.insert(cell, card);
    }

    /// How many cards lie on the grid.
    pub fn len(&self) -> usize {
        self.cells.len()
    }

    /// True when no card lies on the grid.
    pub fn is_empty(&self) -> bool {
        self.cells.is_empty()
    }

    /// Every card with its cell, sorted by `y` then `x`.
    pub fn sorted(&self) -> Vec<(Cell, Card)> {
        let mut all: Vec<(Cell, Card)> = self.cells.iter().map(|(&c, &k)| (c, k)).collect();
        all.sort();
        all
    }

    /// Every card with its cell as a view and the saved state list them, sorted by `y`
    /// then `x`.
    pub(crate) fn listed(&self) -> Vec<super::view::GridCard> {
        self.sorted()
            .into_iter()
            .map(|(cell, card)| super::view::GridCard { cell, card })
            .collect()
    }

    /// Iterates over the cards in no particular order.
    pub(crate) fn iter(&self) -> impl Iterator<Item = (Cell, Card)> + '_ {
        self.cells.iter().map(|(&c, &k)| (c, k))
    }
}

/// Something that says which card lies on a cell: the grid, or the grid with a staged
/// placement laid over it.
pub(crate) trait Lookup {
    /// The card on `cell`, if any.
    fn at(&self, cell: Cell) -> Option<Card>;
}

impl Lookup for Grid {
    fn at(&self, cell: Cell) -> Option<Card> {
        self.get(cell)
    }
}

/// The grid with some staged cards on top (at most four, so a linear scan is fastest).
pub(crate) struct Overlay<'a> {
    pub grid: &'a Grid,
    pub placed: &'a [(Card, Cell)],
}

impl Lookup for Overlay<'_> {
    fn at(&self, cell: Cell) -> Option<Card> {
        self.placed
            .iter()
            .find(|(_, c)| *c == cell)
            .map(|(k, _)| *k)
            .or_else(|| self.grid.get(cell))
    }
}

/// How many cards of a run are kept: 4 either side of a cell plus the cell. A longer run
/// is too long anyway; its length is still counted in full, for the message.
const SCAN: usize = 9;

/// The maximal run of cards through a cell in one direction (possibly just that cell).
#[derive(Debug, Clone, Copy)]
pub(crate) struct Line {
    /// The first cell (smallest coordinate along `dir`).
    pub start: Cell,
    /// Along which direction it runs.
    pub dir: Dir,
    len: usize,
    cards: [Card; SCAN],
}

impl Line {
    /// The run through `cell` (which must hold a card in `look`) along `dir`. Play never
    /// builds a run longer than 4, but a position read by `setup` may hold one
    /// (docs/referee.md); the scan ends anyway, since the grid holds at most 66 cards.
    pub(crate) fn through(look: &impl Lookup, cell: Cell, dir: Dir) -> Line {
        let mut back = 0;
        while look.at(cell.step(dir, -(back + 1))).is_some() {
            back += 1;
        }
        let start = cell.step(dir, -back);
        let mut cards = [Card::WILD; SCAN];
        let mut len = 0;
        while let Some(card) = look.at(start.step(dir, len as i32)) {
            if let Some(slot) = cards.get_mut(len) {
                *slot = card;
            }
            len += 1;
        }
        Line {
            start,
            dir,
            len,
            cards,
        }
    }

    /// How many cards the run holds.
    pub(crate) fn len(&self) -> usize {
        self.len
    }

    /// The cards in order along the line.
    pub(crate) fn cards(&self) -> &[Card] {
        &self.cards[..self.len.min(SCAN)]
    }

    /// The cells in order along the line.
    pub(crate) fn cells(&self) -> impl Iterator<Item = Cell> + '_ {
        (0..self.len).map(|i| self.start.step(self.dir, i as i32))
    }

    /// True when the run is a line (2 or more cards).
    pub(crate) fn is_line(&self) -> bool {
        self.len >= 2
    }

    /// Sum of the face values (wilds count 0).
    pub(crate) fn sum(&self) -> u32 {
        self.cards().iter().map(|c| c.value()).sum()
    }

    /// True when any card of the line is a wild.
    pub(crate) fn has_wild(&self) -> bool {
        self.cards().iter().any(|c| c.is_wild())
    }

    /// The first and the last cell, for messages.
    pub(crate) fn ends(&self) -> (Cell, Cell) {
        let end = self.start.step(self.dir, self.len.saturating_sub(1) as i32);
        (self.start, end)
    }
}

/// One attribute's bit masks and count over the face cards of a set.
#[derive(Default, Clone, Copy)]
pub(crate) struct Masks {
    pub colours: u8,
    pub shapes: u8,
    pub numbers: u8,
    pub faces: u32,
}

impl Masks {
    /// The masks of the face cards among `cards` (wilds skipped).
    pub(crate) fn of(cards: &[Card]) -> Masks {
        let mut m = Masks::default();
        for &c in cards {
            m.add(c);
        }
        m
    }

    /// Adds one card (a wild adds nothing).
    pub(crate) fn add(&mut self, c: Card) {
        if !c.is_wild() {
            self.colours |= 1 << c.colour();
            self.shapes |= 1 << c.shape();
            self.numbers |= 1 << (c.number() - 1);
            self.faces += 1;
        }
    }

    /// True when, for each attribute, the faces are all the same or all different, and
    /// not all three the same (two identical cards). Necessary for any set of faces of a
    /// valid line; sufficient for a full line without wilds.
    pub(crate) fn fits(&self) -> bool {
        let n = self.faces;
        if n <= 1 {
            return true;
        }
        let ok = |m: u8| {
            let k = m.count_ones();
            k == 1 || k == n
        };
        ok(self.colours)
            && ok(self.shapes)
            && ok(self.numbers)
            && !(self.colours.count_ones() == 1
                && self.shapes.count_ones() == 1
                && self.numbers.count_ones() == 1)
    }
}

/// True when a line of concrete cards (no wilds) is valid: at most 4, attributes all
/// same or all different, no card twice.
pub(crate) fn concrete_valid(cards: &[Card]) -> bool {
    cards.len() <= 4 && Masks::of(cards).fits()
}

/// True when some choice of face cards for every wild reached from `seeds` (through the
/// lines those wilds lie in, and the wilds in those lines, and so on) makes every line
/// involved valid. Lines without wilds are checked as they are.
pub(crate) fn wilds_fit(look: &impl Lookup, seeds: &[Line]) -> bool {
    let mut lines: Vec<Line> = Vec::new();
    let mut vars: Vec<Cell> = Vec::new();
    let mut queue: Vec<Line> = seeds.iter().filter(|l| l.is_line()).copied().collect();
    while let Some(line) = queue.pop() {
        if lines
            .iter()
            .any(|l| l.start == line.start && l.dir == line.dir)
        {
            continue;
        }
        if line.len() > 4 {
            return false;
        }
        for (cell, card) in line.cells().zip(line.cards().iter()) {
            if card.is_wild() && !vars.contains(&cell) {
                vars.push(cell);
                let other = Line::through(look, cell, line.dir.other());
                if other.is_line() {
                    queue.push(other);
                }
            }
        }
        lines.push(line);
    }
    // Each line as slots: a face card, or the index of a wild variable.
    let slotted: Vec<Vec<Result<Card, usize>>> = lines
        .iter()
        .map(|l| {
            l.cells()
                .zip(l.cards().iter())
                .map(|(cell, &card)| match vars.iter().position(|&v| v == cell) {
                    Some(i) if card.is_wild() => Err(i),
                    _ => Ok(card),
                })
                .collect()
        })
        .collect();
    let mut domains: Vec<Vec<Card>> = vec![Card::faces().collect(); vars.len()];
    for slots in &slotted {
        let var_idx: Vec<usize> = slots.iter().filter_map(|s| s.err()).collect();
        match var_idx.as_slice() {
            [] => {
                let cards: Vec<Card> = slots.iter().filter_map(|s| s.ok()).collect();
                if !concrete_valid(&cards) {
                    return false;
                }
            }
            [i] => {
                let i = *i;
                let base = Masks::of(&slots.iter().filter_map(|s| s.ok()).collect::<Vec<_>>());
                if let Some(domain) = domains.get_mut(i) {
                    domain.retain(|&v| {
                        let mut m = base;
                        m.add(v);
                        m.fits()
                    });
                }
            }
            _ => {}
        }
    }
    let mut chosen = vec![Card::WILD; vars.len()];
    assign(0, &domains, &slotted, &mut chosen)
}

/// Backtracking over the wild variables: each line is checked once all its wilds are
/// chosen (there are at most two wilds, so this stays tiny).
fn assign(
    i: usize,
    domains: &[Vec<Card>],
    lines: &[Vec<Result<Card, usize>>],
    chosen: &mut Vec<Card>,
) -> bool {
    let Some(domain) = domains.get(i) else {
        return true;
    };
    for &v in domain {
        if let Some(slot) = chosen.get_mut(i) {
            *slot = v;
        }
        let ok = lines.iter().all(|slots| {
            let last = slots.iter().filter_map(|s| s.err()).max();
            if last != Some(i) || slots.iter().filter(|s| s.is_err()).count() < 2 {
                return true;
            }
            let mut m = Masks::default();
            for s in slots {
                match *s {
                    Ok(c) => m.add(c),
                    Err(j) => m.add(chosen.get(j).copied().unwrap_or(Card::WILD)),
                }
            }
            m.fits()
        });
        if ok && assign(i + 1, domains, lines, chosen) {
            return true;
        }
    }
    false
}

#[cfg(test)]
mod tests {
    use super::*;

    fn cards(s: &str) -> Vec<Card> {
        s.split_whitespace().map(|w| w.parse().unwrap()).collect()
    }

    #[test]
    fn a_line_is_all_same_or_all_different_per_attribute() {
        assert!(concrete_valid(&cards("Rt2 Bx2 Gc2")));
        assert!(concrete_valid(&cards("Rt2 Rt3 Rt4 Rt1")));
        assert!(concrete_valid(&cards("Rc1 Gs2 Bt3 Yx4")));
        assert!(
            !concrete_valid(&cards("Rt2 Rx2 Bc2")),
            "two reds and a blue"
        );
        assert!(!concrete_valid(&cards("Rt2 Rt3 Rt4 Rt1 Rt2")), "five cards");
        assert!(!concrete_valid(&cards("Rt2 Rt2")), "the same card twice");
    }

    #[test]
    fn a_wild_must_stand_for_a_card_not_already_in_its_line() {
        let mut grid = Grid::new();
        // Rt1 Rt2 Rt3 W: the wild can only be Rt4.
        for (i, c) in cards("Rt1 Rt2 Rt3 W").into_iter().enumerate() {
            grid.insert(Cell::new(i as i32, 0), c);
        }
        let line = Line::through(&grid, Cell::new(0, 0), Dir::Row);
        assert!(wilds_fit(&grid, &[line]));
        // A column W, Gs4 below it: Rt4 and Gs4 share only the number, which is fine.
        grid.insert(Cell::new(3, 1), cards("Gs4")[0]);
        assert!(wilds_fit(&grid, &[line]));
        // With Rt4 itself below, the wild (which must be Rt4) would repeat it.
        let mut g2 = grid.clone();
        g2.insert(Cell::new(3, 1), cards("Rt4")[0]);
        assert!(!wilds_fit(&g2, &[line]));
    }

    #[test]
    fn two_linked_wilds_are_solved_together() {
        let mut grid = Grid::new();
        // Row: Rc1 W W: both wilds must differ from each other and fit with Rc1.
        for (i, c) in cards("Rc1 W W").into_iter().enumerate() {
            grid.insert(Cell::new(i as i32, 0), c);
        }
        let line = Line::through(&grid, Cell::new(0, 0), Dir::Row);
        assert!(wilds_fit(&grid, &[line]));
        // The column W, Rc2, Rc3, Rc4 under the first wild forces it to be Rc1, which the
        // row already holds: no choice works, although each line alone could be filled.
        for (j, c) in cards("Rc2 Rc3 Rc4").into_iter().enumerate() {
            grid.insert(Cell::new(1, j as i32 + 1), c);
        }
        let line = Line::through(&grid, Cell::new(0, 0), Dir::Row);
        assert!(!wilds_fit(&grid, &[line]));
    }
}
