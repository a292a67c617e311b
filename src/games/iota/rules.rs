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
mod tests {
    use super::*;

    fn game(position: &str) -> Iota {
        Iota::from_position(position).unwrap()
    }

    fn placement(text: &str) -> Vec<(Card, Cell)> {
        match text.parse::<Action>().unwrap() {
            Action::Place(cards) => cards,
            other => panic!("not a placement: {other}"),
        }
    }

    fn check(g: &Iota, seat: Seat, text: &str) -> RuleResult<u32> {
        g.check_placement(seat, &placement(text))
    }

    /// The official example's table before turn 4, seat 0 to play.
    const EXAMPLE_3: &str = "players=2 turn=0 grid=2,-1:Yc1;3,-1:Gt3;0,0:Rt2;1,0:Bx2;2,0:Gc2;3,0:Ys2;2,1:Rc3 hands=Gt2,Ys3,Bc4,Rx1|Rs1,Rs2,Rs3,Rs4 pile=Bs1,Bs2,Bs3,Bs4,Ys1 scores=0,0";

    #[test]
    fn the_official_example_scores_6_6_34_208() {
        let mut g = game("players=2 turn=0 grid=0,0:Rt2 hands=Bx2,Gc2,Ys2,Gt3|Rc3,Yc1,Gt2,Ys3 pile=Bc4,Rx1,Rs1,Rs2,Rs3,Rs4,Bs1 scores=0,0");
        assert_eq!(check(&g, 0, "place Bx2@1,0 Gc2@2,0"), Ok(6));
        g.apply_action(0, &"place Bx2@1,0 Gc2@2,0".parse().unwrap())
            .unwrap();
        assert_eq!(check(&g, 1, "place Rc3@2,1 Yc1@2,-1"), Ok(6));
        g.apply_action(1, &"place Rc3@2,1 Yc1@2,-1".parse().unwrap())
            .unwrap();
        let score = g
            .score_placement(0, &placement("place Ys2@3,0 Gt3@3,-1"))
            .unwrap();
        assert_eq!((score.base, score.lots, score.total), (17, 1, 34));
        let g = game(EXAMPLE_3);
        let score = g
            .score_placement(0, &placement("place Gt2@0,-2 Ys3@1,-2 Bc4@2,-2 Rx1@3,-2"))
            .unwrap();
        assert_eq!(score.base, 26);
        assert_eq!(score.lots, 2);
        assert!(score.four_placed && !score.game_end);
        assert_eq!(score.total, 208);
        assert_eq!(
            score.lines.len(),
            3,
            "two columns and the row; lone cards add nothing"
        );
    }

    #[test]
    fn the_game_ending_turn_is_doubled() {
        let g = game("players=2 turn=0 grid=0,0:Rt2 hands=Bx2,Gc2|Rs1 pile= scores=0,0");
        let s = g
            .score_placement(0, &placement("place Bx2@1,0 Gc2@2,0"))
            .unwrap();
        assert!(s.game_end);
        assert_eq!(s.total, 12);
        let mut g = g;
        g.apply_action(0, &"place Bx2@1,0 Gc2@2,0".parse().unwrap())
            .unwrap();
        assert_eq!(g.outcome(), crate::games::Outcome::Win { seat: 0 });
        assert_eq!(g.turn, 1, "the turn still advances");
    }

    #[test]
    fn placements_that_break_a_rule_are_refused_with_the_reason() {
        let g = game(EXAMPLE_3);
        let cases = [
            ("place Rs1@4,0", "You do not hold Rs1"),
            ("place Gt2@1,1 Gt2@1,2", "only one Gt2"),
            ("place Gt2@0,0", "0,0 is not empty"),
            ("place Gt2@0,1 Ys3@1,2", "one row or all in one column"),
            ("place Gt2@0,1 Ys3@2,2", "one row or all in one column"),
            ("place Gt2@4,1 Ys3@6,1", "unbroken line, but 5,1 is empty"),
            ("place Gt2@9,9", "touch a card"),
            ("place Gt2@4,0", "The line 0,0..4,0 would have 5 cards"),
            ("place Rx1@1,-1", "Numbers in the line 1,-1..3,-1 must be all the same or all different (1, 1, 3)"),
            ("place Gt2@1,-1", "Colours in the line 1,-1..3,-1 must be all the same or all different (green, yellow, green)"),
            ("place Gt2@1,1 Ys3@1,1", "Two cards cannot go on 1,1"),
        ];
        for (text, reason) in cases {
            let e = check(&g, 0, text).unwrap_err();
            assert!(e.to_string().contains(reason), "{text}: {e}");
        }
        assert!(g.check_placement(0, &[]).is_err());
        assert!(g
            .check_placement(0, &[(Card::WILD, Cell::new(i32::MAX, 0))])
            .unwrap_err()
            .to_string()
            .contains("too far"));
        assert!(g.check_placement(7, &placement("place Gt2@4,1")).is_err());
        let g = game("players=2 turn=0 grid=0,0:Rt1;1,0:Gs1 hands=Bx2|Bs1 pile=Bs2 scores=0,0");
        let e = check(&g, 0, "place Bx2@2,0").unwrap_err();
        assert_eq!(
            e.to_string(),
            "Numbers in the line 0,0..2,0 must be all the same or all different (1, 1, 2)"
        );
    }

    #[test]
    fn a_single_card_can_complete_a_lot() {
        let g = game(EXAMPLE_3);
        // Yc1 and Rc3 lie at both ends of Gc2's column: Bc4 on top completes a lot.
        assert_eq!(check(&g, 0, "place Bc4@2,-2"), Ok((4 + 1 + 2 + 3) * 2));
    }

    #[test]
    fn a_wild_is_legal_only_if_one_card_fits_all_its_lines() {
        // Row Rt1 Rt2 Rt3 _: a wild at 3,0 must be Rt4; a card below it at 3,1 decides.
        let g = game("players=2 turn=0 grid=0,0:Rt1;1,0:Rt2;2,0:Rt3;3,1:Rt4 hands=W,Gs1|Bs1 pile=Bs2 scores=0,0");
        assert!(
            check(&g, 0, "place W@3,0").is_err(),
            "the wild would repeat Rt4"
        );
        let g = game("players=2 turn=0 grid=0,0:Rt1;1,0:Rt2;2,0:Rt3;3,1:Gs4 hands=W,Gs1|Bs1 pile=Bs2 scores=0,0");
        assert_eq!(
            check(&g, 0, "place W@3,0"),
            Ok((6 + 4) * 2),
            "lot 6 + column 4"
        );
    }

    #[test]
    fn linked_wilds_are_judged_together() {
        // A wild on the grid at 1,0 (row Rc1 W); the column under 1,0 is Rc2, Rc3, so the
        // grid wild can be Rc4 only. Placing the second wild at 2,0 makes the row Rc1 W W:
        // the new wild must then differ from Rc4 and from Rc1 and fit: Rc2 and Rc3 are
        // fine in the row, so it is legal...
        let base = "players=2 turn=0 grid=0,0:Rc1;1,0:W;1,1:Rc2;1,2:Rc3 hands=W,Gs1|Bs1 pile=Bs2 scores=0,0";
        assert!(check(&game(base), 0, "place W@2,0").is_ok());
        // ...but with a column under 2,0 forcing that wild to be Rc4 too, both wilds would
        // be Rc4 in one row: refused, although each line alone can be filled.
        let pinned = "players=2 turn=0 grid=0,0:Rc1;1,0:W;1,1:Rc2;1,2:Rc3;2,1:Yc4;2,2:Bc4;2,3:Gc4 hands=W,Gs1|Bs1 pile=Bs2 scores=0,0";
        let e = check(&game(pinned), 0, "place W@2,0").unwrap_err();
        assert!(e.to_string().contains("wilds"), "{e}");
        // The wild in the hand is listed only where it is legal.
        let legal: Vec<String> = game(pinned)
            .legal(0)
            .iter()
            .map(|a| a.to_string())
            .collect();
        assert!(!legal.contains(&"place W@2,0".to_string()));
        assert!(game(base)
            .legal(0)
            .iter()
            .any(|a| a.to_string() == "place W@2,0"));
    }

    #[test]
    fn a_wild_swap_needs_a_fitting_card_and_the_wild_goes_to_the_end_of_the_hand() {
        let mut g = game(
            "players=2 turn=0 grid=0,0:Rt1;1,0:W;2,0:Rt3 hands=Rt2,Gs1,Rt4|Bs1 pile=Bs2 scores=0,0",
        );
        assert!(g
            .check_swap(0, Cell::new(1, 0), "Gs1".parse().unwrap())
            .is_err());
        assert!(g
            .check_swap(0, Cell::new(0, 0), "Rt2".parse().unwrap())
            .is_err());
        assert!(g
            .check_swap(0, Cell::new(5, 0), "Rt2".parse().unwrap())
            .is_err());
        let before = g.clone();
        assert!(g.apply_action(0, &"swap 1,0 Gs1".parse().unwrap()).is_err());
        assert_eq!(g, before, "a refused swap changes nothing");
        let legal: Vec<String> = g.legal(0).iter().map(|a| a.to_string()).collect();
        assert!(legal.contains(&"swap 1,0 Rt2".to_string()));
        assert!(legal.contains(&"swap 1,0 Rt4".to_string()));
        assert!(!legal.iter().any(|l| l == "swap 1,0 Gs1"));
        g.apply_action(0, &"swap 1,0 Rt2".parse().unwrap()).unwrap();
        assert_eq!(
            g.hand(0).iter().map(|c| c.to_string()).collect::<Vec<_>>(),
            ["Gs1", "Rt4", "W"]
        );
        assert_eq!(g.turn, 0, "a swap does not end the turn");
        assert_eq!(g.grid.get(Cell::new(1, 0)), "Rt2".parse().ok());
    }

    #[test]
    fn passing_returns_cards_to_the_bottom_in_order_and_draws_as_many() {
        let mut g =
            game("players=2 turn=0 grid=0,0:Rt1 hands=Rt2,Gs1,Rt4,Bc1|Bs1 pile=Bs2,Bs3 scores=0,0");
        let before = g.clone();
        assert!(g.apply_action(0, &"pass Rt2 Rt2".parse().unwrap()).is_err());
        assert!(g.apply_action(0, &"pass Ys4".parse().unwrap()).is_err());
        assert_eq!(g, before);
        g.apply_action(0, &"pass Rt4 Rt2".parse().unwrap()).unwrap();
        assert_eq!(g.position(), "players=2 turn=1 grid=0,0:Rt1 hands=Gs1,Bc1,Bs2,Bs3|Bs1 pile=Rt4,Rt2 scores=0,0 passes=1");
    }

    #[test]
    fn passing_ends_the_game_after_one_round_with_an_empty_pile_or_three_rounds() {
        let mut g = game("players=2 turn=0 grid=0,0:Rt1 hands=Rt2|Bs1 pile= scores=1,1");
        g.apply_action(0, &Action::Pass(vec![])).unwrap();
        assert!(!g.outcome().is_over());
        g.apply_action(1, &"pass Bs1".parse().unwrap()).unwrap();
        assert_eq!(
            g.outcome(),
            crate::games::Outcome::SharedWin { seats: vec![0, 1] }
        );
        let mut g = game("players=2 turn=0 grid=0,0:Rt1 hands=Ys4|Ys3 pile=Bs1 scores=0,2");
        for i in 0..6 {
            assert!(!g.outcome().is_over(), "after {i} passes");
            let seat = g.turn;
            g.apply_action(seat, &Action::Pass(vec![])).unwrap();
        }
        assert_eq!(g.outcome(), crate::games::Outcome::Win { seat: 1 });
        assert!(g.legal(0).is_empty() && g.legal(1).is_empty());
    }

    #[test]
    fn a_placement_resets_the_passes_and_refills_the_hand() {
        let mut g = game(
            "players=2 turn=0 grid=0,0:Rt1 hands=Rt2,Gs1|Bs1 pile=Bs2,Bs3,Bs4 scores=0,0 passes=3",
        );
        let e = g
            .apply_action(0, &"place Rt2@1,0".parse().unwrap())
            .unwrap();
        assert_eq!(Iota::report(&e), ["score 3"]);
        assert_eq!(g.passes, 0);
        assert_eq!(g.hand(0).len(), 4);
        let hidden = Iota::event_for(&e, 1);
        assert!(matches!(
            hidden,
            IotaEvent::Placed {
                drawn: None,
                drawn_count: 3,
                ..
            }
        ));
    }

    #[test]
    fn two_wilds_in_hand_give_each_placement_once() {
        let g = game("players=2 turn=0 grid=0,0:Rt1 hands=W,W|Bs1 pile=Bs2 scores=0,0");
        let lines: Vec<String> = g.legal(0).iter().map(|a| a.to_string()).collect();
        let mut unique = lines.clone();
        unique.sort();
        unique.dedup();
        assert_eq!(lines.len(), unique.len());
        assert!(lines.contains(&"place W@1,0 W@2,0".to_string()));
        assert!(lines.contains(&"place W@0,-2 W@0,-1".to_string()));
        assert!(lines.contains(&"pass W W".to_string()));
        assert_eq!(lines.iter().filter(|l| l.starts_with("pass")).count(), 3);
        // One wild: 4 cells. Two, per direction: 3 runs through Rt1 (W W Rt1, W Rt1 W,
        // Rt1 W W) and 2 pairs beside each of the 2 cells next to Rt1 across it.
        let places = lines.iter().filter(|l| l.starts_with("place")).count();
        assert_eq!(places, 4 + 2 * (3 + 2 * 2));
    }

    #[test]
    fn a_full_hand_lists_fifteen_passes_and_sorted_placements() {
        let g = game(EXAMPLE_3);
        let legal = g.legal(0);
        assert_eq!(
            legal
                .iter()
                .filter(|a| matches!(a, Action::Pass(_)))
                .count(),
            16
        );
        for a in &legal {
            if let Action::Place(cards) = a {
                assert!(cards.windows(2).all(|w| w[0].1 < w[1].1), "{a}");
                assert!(g.check_placement(0, cards).is_ok(), "{a}");
            }
        }
        assert!(legal
            .iter()
            .any(|a| a.to_string() == "place Gt2@0,-2 Ys3@1,-2 Bc4@2,-2 Rx1@3,-2"));
    }

    #[test]
    fn apply_refuses_other_seats_and_finished_games_without_change() {
        let mut g = game(EXAMPLE_3);
        let before = g.clone();
        assert!(g.apply_action(1, &Action::Pass(vec![])).is_err());
        assert!(g.apply_action(5, &Action::Pass(vec![])).is_err());
        assert!(g
            .apply_action(0, &"place Gt2@9,9".parse().unwrap())
            .is_err());
        assert_eq!(g, before);
        assert!(g.legal(1).is_empty());
    }
}
