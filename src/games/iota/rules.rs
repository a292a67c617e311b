//! Legality, scoring, applying actions, and the fast enumeration of legal placements.

use super::board::{wilds_fit, CellHasher, Line, Lookup, Masks, Overlay};
use super::cards::Card;
use super::error::{Attribute, IotaError};
use super::notation::{Action, Cell, Dir};
use super::view::{IotaEvent, LineScore, ScoreBreakdown};
use super::{Iota, HAND_SIZE};
use crate::games::{Game, RuleError, RuleResult, Seat};
use std::collections::{HashMap, HashSet};
use std::hash::BuildHasherDefault;

type FastMap<K, V> = HashMap<K, V, BuildHasherDefault<CellHasher>>;
type FastSet<K> = HashSet<K, BuildHasherDefault<CellHasher>>;

fn err<T>(refusal: IotaError) -> RuleResult<T> {
    Err(RuleError::Iota(refusal))
}

/// Removes `cards` from `hand` one by one (a card named twice must be held twice);
/// returns what is left, or says which card is missing.
fn take_from(hand: &[Card], cards: impl IntoIterator<Item = Card>) -> RuleResult<Vec<Card>> {
    let mut left = hand.to_vec();
    for card in cards {
        match left.iter().position(|&c| c == card) {
            Some(i) => {
                left.remove(i);
            }
            None if hand.contains(&card) => {
                return err(IotaError::HoldOnlyOne { card });
            }
            None => return err(IotaError::NotHeld { card }),
        }
    }
    Ok(left)
}

/// Says why a line's face cards cannot all go together, if they cannot: the first
/// attribute that is neither all the same nor all different, with its values in order.
fn line_fault(line: &Line) -> Option<IotaError> {
    let (from, to) = line.ends();
    if line.len() > 4 {
        return Some(IotaError::LineTooLong {
            from,
            to,
            count: line.len(),
        });
    }
    let faces: Vec<Card> = line
        .cards()
        .iter()
        .copied()
        .filter(|c| !c.is_wild())
        .collect();
    let m = Masks::of(&faces);
    if m.fits() {
        return None;
    }
    let n = faces.len() as u32;
    let bad = |mask: u8| mask.count_ones() != 1 && mask.count_ones() != n;
    let attribute = if bad(m.colours) {
        Attribute::Colours
    } else if bad(m.shapes) {
        Attribute::Shapes
    } else if bad(m.numbers) {
        Attribute::Numbers
    } else {
        return Some(IotaError::SameCardTwice { from, to });
    };
    Some(IotaError::Mixed {
        attribute,
        from,
        to,
        cards: faces,
    })
}

/// What the perpendicular run through an empty cell already holds.
#[derive(Clone, Copy)]
struct Cross {
    /// Cards already in the run on either side of the cell.
    count: usize,
    masks: Masks,
    wild: bool,
}

/// How a card fits a crossing run.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Fit {
    No,
    Yes,
    /// Fits as far as faces tell, but a wild is involved: the full check decides.
    Wilds,
}

impl Cross {
    fn of(grid: &impl Lookup, cell: Cell, dir: Dir) -> Cross {
        let mut cross = Cross {
            count: 0,
            masks: Masks::default(),
            wild: false,
        };
        for sign in [-1, 1] {
            let mut d = 1;
            while d <= 5 {
                match grid.at(cell.step(dir, sign * d)) {
                    Some(card) => {
                        cross.count += 1;
                        cross.masks.add(card);
                        cross.wild |= card.is_wild();
                        d += 1;
                    }
                    None => break,
                }
            }
        }
        cross
    }

    fn fit(&self, card: Card) -> Fit {
        if self.count == 0 {
            return if card.is_wild() { Fit::Wilds } else { Fit::Yes };
        }
        if self.count + 1 > 4 {
            return Fit::No;
        }
        let mut m = self.masks;
        m.add(card);
        if !m.fits() {
            Fit::No
        } else if self.wild || card.is_wild() {
            Fit::Wilds
        } else {
            Fit::Yes
        }
    }
}

impl Iota {
    /// Whether `seat` may place `cards` now (ignoring whose turn it is), and the score it
    /// would make, without placing anything. The error says why not, in a player's words.
    pub fn check_placement(&self, seat: Seat, cards: &[(Card, Cell)]) -> RuleResult<u32> {
        self.score_placement(seat, cards).map(|s| s.total)
    }

    /// Full validation and scoring of a placement by `seat`.
    pub fn score_placement(
        &self,
        seat: Seat,
        cards: &[(Card, Cell)],
    ) -> RuleResult<ScoreBreakdown> {
        let Some(hand) = self.hands.get(seat) else {
            return Err(RuleError::NoSuchSeat { seat });
        };
        if cards.is_empty() || cards.len() > HAND_SIZE {
            return err(IotaError::PlaceOneToFour);
        }
        if let Some((_, cell)) = cards.iter().find(|(_, c)| !c.in_bounds()) {
            return err(IotaError::TooFarOut { cell: *cell });
        }
        let left = take_from(hand, cards.iter().map(|(k, _)| *k))?;
        for (i, (_, cell)) in cards.iter().enumerate() {
            if cards.iter().skip(i + 1).any(|(_, c)| c == cell) {
                return err(IotaError::TwoOnOne { cell: *cell });
            }
            if self.grid.get(*cell).is_some() {
                return err(IotaError::NotEmpty { cell: *cell });
            }
        }
        let first = cards.first().map(|(_, c)| *c).unwrap_or(Cell::new(0, 0));
        let dir = if cards.iter().all(|(_, c)| c.y == first.y) {
            Dir::Row
        } else if cards.iter().all(|(_, c)| c.x == first.x) {
            Dir::Column
        } else {
            return err(IotaError::NotOneLine);
        };
        let along = |c: &Cell| if dir == Dir::Row { c.x } else { c.y };
        let lo = cards.iter().map(|(_, c)| along(c)).min().unwrap_or(0);
        let hi = cards.iter().map(|(_, c)| along(c)).max().unwrap_or(0);
        let overlay = Overlay {
            grid: &self.grid,
            placed: cards,
        };
        let origin = match dir {
            Dir::Row => Cell::new(lo, first.y),
            Dir::Column => Cell::new(first.x, lo),
        };
        for d in 0..=(hi - lo) {
            let cell = origin.step(dir, d);
            if overlay.at(cell).is_none() {
                return err(IotaError::Gap { cell });
            }
        }
        // An empty grid comes only from `setup` (docs/referee.md): nothing can be touched,
        // so the first placement covers the starter's cell instead.
        let touches = if self.grid.is_empty() {
            cards.iter().any(|(_, c)| *c == Cell::new(0, 0))
        } else {
            cards
                .iter()
                .any(|(_, c)| c.neighbours().iter().any(|n| self.grid.get(*n).is_some()))
        };
        if !touches && self.grid.is_empty() {
            return err(IotaError::CoverCentre);
        }
        if !touches {
            return err(IotaError::MustTouch);
        }
        let mut lines = vec![Line::through(&overlay, first, dir)];
        lines.extend(
            cards
                .iter()
                .map(|(_, c)| Line::through(&overlay, *c, dir.other())),
        );
        lines.retain(Line::is_line);
        if let Some(fault) = lines.iter().find_map(line_fault) {
            return err(fault);
        }
        if lines.iter().any(Line::has_wild) && !wilds_fit(&overlay, &lines) {
            return err(IotaError::WildsDontFit);
        }
        let base: u32 = lines.iter().map(Line::sum).sum();
        let lots = lines.iter().filter(|l| l.len() == 4).count() as u32;
        let four_placed = cards.len() == HAND_SIZE;
        let game_end = left.is_empty() && self.pile.is_empty();
        let mut total = base << lots;
        if four_placed {
            total *= 2;
        }
        if game_end {
            total *= 2;
        }
        Ok(ScoreBreakdown {
            lines: lines
                .iter()
                .map(|l| LineScore {
                    cells: l.cells().collect(),
                    points: l.sum(),
                    lot: l.len() == 4,
                })
                .collect(),
            base,
            lots,
            four_placed,
            game_end,
            total,
        })
    }

    /// Whether `seat` may swap the wild on `cell` for its hand card `card`: the card must
    /// fit every line the wild is in (and leave any linked wild a consistent choice).
    pub fn check_swap(&self, seat: Seat, cell: Cell, card: Card) -> RuleResult<()> {
        let Some(hand) = self.hands.get(seat) else {
            return Err(RuleError::NoSuchSeat { seat });
        };
        match self.grid.get(cell) {
            Some(c) if c.is_wild() => {}
            Some(_) => return err(IotaError::NoWild { cell }),
            None => return err(IotaError::EmptyNoWild { cell }),
        }
        if card.is_wild() {
            return err(IotaError::WildForWild);
        }
        take_from(hand, [card])?;
        let placed = [(card, cell)];
        let overlay = Overlay {
            grid: &self.grid,
            placed: &placed,
        };
        let mut lines = vec![
            Line::through(&overlay, cell, Dir::Row),
            Line::through(&overlay, cell, Dir::Column),
        ];
        lines.retain(Line::is_line);
        if let Some(fault) = lines.iter().find_map(line_fault) {
            return err(fault);
        }
        if !wilds_fit(&overlay, &lines) {
            return err(IotaError::DoesNotFit { card, cell });
        }
        Ok(())
    }

    /// Refuses what `apply` must refuse for every action: an unknown seat, a finished
    /// game, another seat's turn.
    fn check_turn(&self, seat: Seat) -> RuleResult<()> {
        self.check_seat(seat)?;
        if self.outcome().is_over() {
            return Err(RuleError::GameOver);
        }
        if seat != self.turn {
            return Err(RuleError::NotYourTurn { seat });
        }
        Ok(())
    }

    /// Validates, then applies; on error nothing has changed.
    pub(crate) fn apply_action(&mut self, seat: Seat, action: &Action) -> RuleResult<IotaEvent> {
        self.check_turn(seat)?;
        match action {
            Action::Swap { cell, card } => {
                self.check_swap(seat, *cell, *card)?;
                let hand = self
                    .hands
                    .get_mut(seat)
                    .ok_or_else(|| RuleError::new("no such seat"))?;
                if let Some(i) = hand.iter().position(|c| c == card) {
                    hand.remove(i);
                }
                hand.push(Card::WILD);
                self.grid.insert(*cell, *card);
                Ok(IotaEvent::Swapped {
                    seat,
                    cell: *cell,
                    card: *card,
                })
            }
            Action::Place(cards) => {
                let score = self.score_placement(seat, cards)?;
                let left = take_from(self.hand(seat), cards.iter().map(|(k, _)| *k))?;
                for (card, cell) in cards {
                    self.grid.insert(*cell, *card);
                }
                let drawn = self.draw(HAND_SIZE.saturating_sub(left.len()));
                if let Some(hand) = self.hands.get_mut(seat) {
                    *hand = left;
                    hand.extend(drawn.iter().copied());
                }
                if let Some(s) = self.scores.get_mut(seat) {
                    *s += i64::from(score.total);
                }
                self.passes = 0;
                self.turn = (self.turn + 1) % self.players;
                let mut placed = cards.clone();
                placed.sort_by_key(|(_, c)| *c);
                Ok(IotaEvent::Placed {
                    seat,
                    cards: placed,
                    score,
                    drawn_count: drawn.len(),
                    drawn: Some(drawn),
                    outcome: self.outcome(),
                })
            }
            Action::Pass(cards) => {
                if cards.len() > HAND_SIZE {
                    return err(IotaError::ReturnAtMostFour);
                }
                let left = take_from(self.hand(seat), cards.iter().copied())?;
                self.pile.extend(cards.iter().copied());
                let drawn = self.draw(cards.len());
                if let Some(hand) = self.hands.get_mut(seat) {
                    *hand = left;
                    hand.extend(drawn.iter().copied());
                }
                self.passes = self.passes.saturating_add(1);
                self.turn = (self.turn + 1) % self.players;
                Ok(IotaEvent::Passed {
                    seat,
                    returned_count: cards.len(),
                    returned: Some(cards.clone()),
                    drawn: Some(drawn),
                    outcome: self.outcome(),
                })
            }
        }
    }

    /// Takes up to `n` cards from the top of the pile.
    fn draw(&mut self, n: usize) -> Vec<Card> {
        let n = n.min(self.pile.len());
        self.pile.drain(..n).collect()
    }

    /// Every legal action of `seat`: swaps, placements, passes (none once the game is
    /// over or when it is not this seat's turn).
    pub(crate) fn legal(&self, seat: Seat) -> Vec<Action> {
        if self.check_turn(seat).is_err() {
            return Vec::new();
        }
        let mut actions = Vec::new();
        let hand = self.hand(seat);
        let mut wilds: Vec<Cell> = self
            .grid
            .iter()
            .filter(|(_, k)| k.is_wild())
            .map(|(c, _)| c)
            .collect();
        wilds.sort();
        for cell in wilds {
            let mut seen = Vec::new();
            for &card in hand {
                if !seen.contains(&card) && self.check_swap(seat, cell, card).is_ok() {
                    actions.push(Action::Swap { cell, card });
                }
                seen.push(card);
            }
        }
        actions.extend(self.legal_placements(seat).into_iter().map(Action::Place));
        let mut passes: Vec<Vec<Card>> = (0u32..(1 << hand.len()))
            .map(|mask| {
                hand.iter()
                    .enumerate()
                    .filter(|(i, _)| mask & (1 << i) != 0)
                    .map(|(_, &c)| c)
                    .collect()
            })
            .collect();
        passes.sort();
        passes.dedup();
        actions.extend(passes.into_iter().map(Action::Pass));
        actions
    }

    /// Every legal placement for `seat`'s hand, each once, cards sorted by `y` then `x`.
    /// Fast: only cells next to the grid seed the search, crossing runs are summarised
    /// once per cell, and each run is grown card by card with its faces checked as it
    /// grows; only placements involving a wild go through the full wild solver.
    pub fn legal_placements(&self, seat: Seat) -> Vec<Vec<(Card, Cell)>> {
        let hand = self.hand(seat);
        let mut out = Vec::new();
        if hand.is_empty() {
            return out;
        }
        let mut distinct: Vec<(Card, usize)> = Vec::new();
        for &c in hand {
            match distinct.iter_mut().find(|(k, _)| *k == c) {
                Some((_, n)) => *n += 1,
                None => distinct.push((c, 1)),
            }
        }
        let mut seeds: Vec<Cell> = Vec::new();
        if self.grid.is_empty() {
            // Same reading as in `score_placement`: on an empty grid, runs through 0,0.
            seeds.push(Cell::new(0, 0));
        }
        {
            let mut seen: FastSet<Cell> = FastSet::default();
            for (cell, _) in self.grid.iter() {
                for n in cell.neighbours() {
                    if n.in_bounds() && self.grid.get(n).is_none() && seen.insert(n) {
                        seeds.push(n);
                    }
                }
            }
        }
        seeds.sort();
        let mut crosses: FastMap<(Cell, Dir), Cross> = FastMap::default();
        let mut cross = |cell: Cell, dir: Dir| -> Cross {
            *crosses
                .entry((cell, dir))
                .or_insert_with(|| Cross::of(&self.grid, cell, dir))
        };
        // One card: both runs through the cell must accept it.
        for &cell in &seeds {
            let (row, col) = (cross(cell, Dir::Row), cross(cell, Dir::Column));
            for &(card, _) in &distinct {
                let fits = [row.fit(card), col.fit(card)];
                if fits.contains(&Fit::No) {
                    continue;
                }
                let placed = vec![(card, cell)];
                if fits.contains(&Fit::Wilds) && self.score_placement(seat, &placed).is_err() {
                    continue;
                }
                out.push(placed);
            }
        }
        if hand.len() < 2 {
            return out;
        }
        // Two to four cards: every run of at most 4 cells, bounded by empty cells, that
        // contains a seed cell and 2+ empty cells to fill.
        let mut runs: FastSet<(Cell, Dir, i32)> = FastSet::default();
        let mut empties: Vec<Cell> = Vec::with_capacity(4);
        let mut counts: Vec<usize> = distinct.iter().map(|(_, n)| *n).collect();
        let mut chosen: Vec<(Card, Cell)> = Vec::with_capacity(4);
        for &seed in &seeds {
            for dir in [Dir::Row, Dir::Column] {
                for back in 0..4 {
                    let start = seed.step(dir, -back);
                    if !start.in_bounds() || self.grid.get(start.step(dir, -1)).is_some() {
                        continue;
                    }
                    for len in (back + 1)..=4 {
                        let end = start.step(dir, len - 1);
                        if !end.in_bounds() || self.grid.get(start.step(dir, len)).is_some() {
                            continue;
                        }
                        if !runs.insert((start, dir, len)) {
                            continue;
                        }
                        empties.clear();
                        let mut masks = Masks::default();
                        let mut wild = false;
                        for d in 0..len {
                            let cell = start.step(dir, d);
                            match self.grid.get(cell) {
                                Some(card) => {
                                    masks.add(card);
                                    wild |= card.is_wild();
                                }
                                None => empties.push(cell),
                            }
                        }
                        if empties.len() < 2 || empties.len() > hand.len() || !masks.fits() {
                            continue;
                        }
                        let crossing: Vec<Cross> =
                            empties.iter().map(|&c| cross(c, dir.other())).collect();
                        let mut search = Search {
                            game: self,
                            seat,
                            distinct: &distinct,
                            counts: &mut counts,
                            empties: &empties,
                            crossing: &crossing,
                            chosen: &mut chosen,
                            out: &mut out,
                        };
                        search.grow(0, masks, wild);
                    }
                }
            }
        }
        out
    }
}

/// The card-by-card search that fills one run's empty cells.
struct Search<'a> {
    game: &'a Iota,
    seat: Seat,
    distinct: &'a [(Card, usize)],
    counts: &'a mut Vec<usize>,
    empties: &'a [Cell],
    crossing: &'a [Cross],
    chosen: &'a mut Vec<(Card, Cell)>,
    out: &'a mut Vec<Vec<(Card, Cell)>>,
}

impl Search<'_> {
    fn grow(&mut self, i: usize, masks: Masks, wild: bool) {
        let (Some(&cell), Some(cross)) = (self.empties.get(i), self.crossing.get(i)) else {
            let placed = self.chosen.clone();
            if !wild || self.game.score_placement(self.seat, &placed).is_ok() {
                self.out.push(placed);
            }
            return;
        };
        for (k, &(card, _)) in self.distinct.iter().enumerate() {
            if self.counts.get(k).copied().unwrap_or(0) == 0 {
                continue;
            }
            let fit = cross.fit(card);
            if fit == Fit::No {
                continue;
            }
            let mut m = masks;
            m.add(card);
            if !m.fits() {
                continue;
            }
            if let Some(n) = self.counts.get_mut(k) {
                *n -= 1;
            }
            self.chosen.push((card, cell));
            self.grow(i + 1, m, wild || card.is_wild() || fit == Fit::Wilds);
            self.chosen.pop();
            if let Some(n) = self.counts.get_mut(k) {
                *n += 1;
            }
        }
    }
}

#[cfg(test)]
mod tests;
