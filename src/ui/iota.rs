//! The IOTA table on screen: the grid with a ring of empty cells, the hand of the seat on
//! turn (only behind an open gate), staging cards with a live score from the rules core,
//! and Play / Pass. No rule is decided here: legality and scores come from
//! `games::iota`, actions go through the `Match`.

#[cfg(feature = "devtools")]
mod demo;
mod screen;
mod words;

#[cfg(feature = "devtools")]
pub use demo::{demo_end_table, demo_illegal_table, demo_table, demo_table_with};
pub use words::{card_words, cell_words};

use super::play::{self, Table};
use super::refusals;
use super::texts::{self, IotaText};
use super::{AppWindow, IotaBridge};
use crate::games::iota::{Action, Card, Cell, Iota, IotaEvent};
use crate::games::{Params, RuleResult};
use crate::session::{Desk, Match, Player, Sharing};
use slint::ComponentHandle;
use std::cell::RefCell;
use std::collections::BTreeSet;
use std::rc::Rc;

use super::Controller;

/// A game of IOTA on this device, with what the player has picked but not yet played.
pub struct IotaTable {
    session: Match<Iota>,
    /// The hand card picked (index into the hand).
    selected: Option<usize>,
    /// Hand cards laid on the grid but not yet played: (hand index, cell).
    staged: Vec<(usize, Cell)>,
    /// Trading: the hand cards marked to go back to the pile with a pass.
    trade: Option<BTreeSet<usize>>,
    /// The app's language, for messages made here.
    language: String,
    /// The last thing that happened, for the message line (public).
    note: Option<Note>,
}

/// The last thing that happened, kept as data so that it is said again in the player's
/// language on every redraw.
#[derive(Debug, Clone)]
enum Note {
    /// Said as it is.
    Text(IotaText),
    /// An app seat took a wild: the cell is said in words.
    TookWild { name: String, cell: Cell },
}

impl Note {
    fn say(&self, language: &str) -> String {
        match self {
            Note::Text(text) => texts::say(text, language),
            Note::TookWild { name, cell } => texts::say(
                &IotaText::TookWild {
                    name: name.clone(),
                    cell: cell_words(*cell, language),
                },
                language,
            ),
        }
    }
}

/// The cells on screen (see [`IotaTable::board`]).
struct Board {
    /// Each cell with its card and whether it is staged; `None` for an empty ring cell.
    cells: Vec<(Cell, Option<(Card, bool)>)>,
    /// The top-left and bottom-right corners of the shown area.
    min: Cell,
    max: Cell,
}

impl IotaTable {
    /// A pass-and-play game for `players` from a seed, `first` seat to play first.
    pub fn start(players: Vec<Player>, seed: u64, first: usize) -> RuleResult<IotaTable> {
        let n = players.len().to_string();
        let seed = seed.to_string();
        let params = Params::parse([
            format!("players={n}").as_str(),
            format!("first={first}").as_str(),
            format!("seed={seed}").as_str(),
        ])?;
        let session = Match::start(params, players, Sharing::PassAndPlay)?;
        Ok(IotaTable::from_match(session))
    }

    /// A table around a match already under way.
    pub fn from_match(session: Match<Iota>) -> IotaTable {
        IotaTable {
            session,
            selected: None,
            staged: Vec::new(),
            trade: None,
            note: None,
            language: "en".into(),
        }
    }

    /// A message in the app's language.
    fn say(&self, text: IotaText) -> String {
        texts::say(&text, &self.language)
    }

    /// The match (for tests and the screenshot).
    pub fn session(&self) -> &Match<Iota> {
        &self.session
    }

    /// The seat whose hand is on screen, if the gate is open for it.
    fn viewer(&self) -> Option<usize> {
        self.session.viewer()
    }

    /// The desk of the seat whose hand is on screen.
    fn desk(&self) -> Option<Desk<'_, Iota>> {
        self.viewer().and_then(|s| self.session.desk(s))
    }

    fn hand(&self) -> Vec<Card> {
        match self.viewer().and_then(|s| self.session.view(s)) {
            Some(view) => view.hand,
            None => Vec::new(),
        }
    }

    /// The staged cards as the rules core reads them.
    fn staged_cards(&self) -> Vec<(Card, Cell)> {
        let hand = self.hand();
        self.staged
            .iter()
            .filter_map(|(i, cell)| hand.get(*i).map(|c| (*c, *cell)))
            .collect()
    }

    fn clear_selection(&mut self) {
        self.selected = None;
        self.staged.clear();
        self.trade = None;
    }

    /// Every turn so far, from the match's public log: each seat's last turn and the
    /// best-scoring turn of the game (seat, points; the first such turn on a tie).
    fn turn_log(&self) -> (Vec<Option<LastTurn>>, Option<(usize, u32)>) {
        let seats = self.session.players().len();
        let mut last = vec![None; seats];
        let mut best: Option<(usize, u32)> = None;
        for (seat, _, event) in self.session.log() {
            let turn = match event {
                IotaEvent::Placed { score, .. } => {
                    if best.is_none_or(|(_, b)| score.total > b) {
                        best = Some((seat, score.total));
                    }
                    LastTurn::Scored(score.total)
                }
                IotaEvent::Passed { returned_count, .. } => LastTurn::Passed(returned_count),
                IotaEvent::Swapped { .. } => continue,
            };
            if let Some(slot) = last.get_mut(seat) {
                *slot = Some(turn);
            }
        }
        (last, best)
    }

    /// Stages the best-scoring legal placement of the hand (rules core: every legal
    /// placement, scored by `check_placement`; the most cards wins a tie).
    pub fn hint(&mut self) -> Result<(), String> {
        let desk = self.desk().ok_or_else(|| self.say(IotaText::RevealFirst))?;
        let Some(placement) = desk.best_placement() else {
            return Err(self.say(IotaText::NothingFits));
        };
        let hand = self.hand();
        let mut staged: Vec<(usize, Cell)> = Vec::new();
        for (card, cell) in placement {
            let free = (0..hand.len())
                .find(|i| hand.get(*i) == Some(&card) && !staged.iter().any(|(h, _)| h == i));
            if let Some(i) = free {
                staged.push((i, cell));
            }
        }
        self.clear_selection();
        self.staged = staged;
        Ok(())
    }

    /// Starts or cancels choosing cards to return with a pass.
    pub fn toggle_trade(&mut self) -> Result<(), String> {
        if self.viewer().is_none() {
            return Err(self.say(IotaText::RevealFirst));
        }
        let trading = self.trade.is_some();
        self.clear_selection();
        if !trading {
            self.trade = Some(BTreeSet::new());
        }
        Ok(())
    }

    /// Cells where the selected card may go together with what is staged: every legal
    /// placement (from the rules core) that contains the staged cards and the selected card.
    fn legal_cells(&self) -> BTreeSet<(i32, i32)> {
        let mut out = BTreeSet::new();
        let (Some(desk), Some(sel)) = (self.desk(), self.selected) else {
            return out;
        };
        let hand = self.hand();
        let Some(&card) = hand.get(sel) else {
            return out;
        };
        let staged = self.staged_cards();
        for placement in desk.legal_placements() {
            if placement.len() <= staged.len() {
                continue;
            }
            if !staged.iter().all(|s| placement.contains(s)) {
                continue;
            }
            for (c, cell) in &placement {
                if *c == card && !staged.iter().any(|(_, s)| s == cell) {
                    out.insert((cell.x, cell.y));
                }
            }
        }
        out
    }

    /// The board as shown: every card lying or staged, then the ring of empty cells
    /// round them, in model order (cards first, each group by `y` then `x`).
    fn board(&self) -> Board {
        let mut occupied: Vec<(Cell, Option<(Card, bool)>)> = self
            .session
            .grid()
            .sorted()
            .into_iter()
            .map(|(cell, card)| (cell, Some((card, false))))
            .collect();
        occupied.extend(
            self.staged_cards()
                .into_iter()
                .map(|(card, cell)| (cell, Some((card, true)))),
        );
        let taken: BTreeSet<Cell> = occupied.iter().map(|(c, _)| *c).collect();
        let mut ring: BTreeSet<Cell> = BTreeSet::new();
        for (cell, _) in &occupied {
            for n in cell.neighbours() {
                if n.in_bounds() && !taken.contains(&n) {
                    ring.insert(n);
                }
            }
        }
        let all = || taken.iter().chain(&ring);
        let min = Cell::new(
            all().map(|c| c.x).min().unwrap_or(0),
            all().map(|c| c.y).min().unwrap_or(0),
        );
        let max = Cell::new(
            all().map(|c| c.x).max().unwrap_or(0),
            all().map(|c| c.y).max().unwrap_or(0),
        );
        occupied.extend(ring.into_iter().map(|c| (c, None)));
        Board {
            cells: occupied,
            min,
            max,
        }
    }

    /// Whether the selected card may replace the wild on `cell` now (rules core).
    fn can_swap(&self, cell: Cell) -> bool {
        let (Some(desk), Some(sel)) = (self.desk(), self.selected) else {
            return false;
        };
        let Some(&card) = self.hand().get(sel) else {
            return false;
        };
        self.staged.is_empty() && desk.may_act() && desk.check_swap(cell, card).is_ok()
    }

    /// A tap on the board cell shown at `index`.
    pub fn tap_cell(&mut self, index: usize) -> Result<(), String> {
        let Some(&(cell, _)) = self.board().cells.get(index) else {
            return Err(self.say(IotaText::CellGone));
        };
        if self.viewer().is_none() {
            return Err(self.say(IotaText::RevealFirst));
        }
        if self.trade.is_some() {
            return Err(self.say(IotaText::ChoosingReturns));
        }
        if let Some(pos) = self.staged.iter().position(|(_, c)| *c == cell) {
            let (i, _) = self.staged.remove(pos);
            self.selected = Some(i);
            return Ok(());
        }
        let grid_card = self.session.grid().get(cell);
        let Some(sel) = self.selected else {
            return Err(if grid_card.is_some() {
                self.say(IotaText::PickThenTapEmpty)
            } else {
                self.say(IotaText::PickFirst)
            });
        };
        if let Some(on_grid) = grid_card {
            if on_grid.is_wild() {
                return self.swap(cell, sel);
            }
            return Err(self.say(IotaText::NotEmpty {
                cell: cell.to_string(),
            }));
        }
        self.staged.push((sel, cell));
        self.selected = None;
        Ok(())
    }

    /// Exchanges the wild on `cell` for the hand card `sel` (before placing).
    fn swap(&mut self, cell: Cell, sel: usize) -> Result<(), String> {
        let seat = self
            .viewer()
            .ok_or_else(|| self.say(IotaText::RevealFirst))?;
        if !self.staged.is_empty() {
            return Err(self.say(IotaText::UnstageBeforeSwap));
        }
        let card = *self
            .hand()
            .get(sel)
            .ok_or_else(|| self.say(IotaText::PickFirst))?;
        self.session
            .act(seat, &Action::Swap { cell, card })
            .map_err(|e| refusals::say(&e, &self.language))?;
        self.clear_selection();
        self.note = Some(Note::Text(IotaText::Swapped {
            cell: cell.to_string(),
            card: card.to_string(),
        }));
        Ok(())
    }

    /// A tap on hand card `index`: pick it, drop it, or take a staged card back.
    pub fn tap_hand(&mut self, index: usize) -> Result<(), String> {
        if self.viewer().is_none() {
            return Err(self.say(IotaText::RevealFirst));
        }
        if index >= self.hand().len() {
            return Err(self.say(IotaText::NotInHand));
        }
        if let Some(marked) = self.trade.as_mut() {
            if !marked.remove(&index) {
                marked.insert(index);
            }
            return Ok(());
        }
        if let Some(pos) = self.staged.iter().position(|(i, _)| *i == index) {
            self.staged.remove(pos);
            self.selected = Some(index);
        } else if self.selected == Some(index) {
            self.selected = None;
        } else {
            self.selected = Some(index);
        }
        Ok(())
    }

    /// Plays the staged cards.
    pub fn play(&mut self) -> Result<(), String> {
        let seat = self
            .viewer()
            .ok_or_else(|| self.say(IotaText::RevealFirst))?;
        let cards = self.staged_cards();
        if cards.is_empty() {
            return Err(self.say(IotaText::StageFirst));
        }
        let name = self.name(seat);
        let event = self
            .session
            .act(seat, &Action::Place(cards))
            .map_err(|e| refusals::say(&e, &self.language))?;
        self.clear_selection();
        if let IotaEvent::Placed { score, cards, .. } = event {
            self.note = Some(Note::Text(IotaText::Placed {
                name,
                count: cards.len(),
                total: score.total,
            }));
        }
        Ok(())
    }

    /// Passes, returning the cards marked while trading (none otherwise) to the pile.
    pub fn pass(&mut self) -> Result<(), String> {
        let seat = self
            .viewer()
            .ok_or_else(|| self.say(IotaText::RevealFirst))?;
        if !self.staged.is_empty() {
            return Err(self.say(IotaText::UnstageBeforePass));
        }
        let hand = self.hand();
        let returned: Vec<Card> = self
            .trade
            .iter()
            .flatten()
            .filter_map(|i| hand.get(*i).copied())
            .collect();
        let name = self.name(seat);
        let n = returned.len();
        self.session
            .act(seat, &Action::Pass(returned))
            .map_err(|e| refusals::say(&e, &self.language))?;
        self.clear_selection();
        self.note = Some(Note::Text(passed(name, n)));
        Ok(())
    }

    /// Takes every staged card back to the hand.
    pub fn take_back(&mut self) {
        self.clear_selection();
    }

    fn name(&self, seat: usize) -> String {
        self.session
            .players()
            .get(seat)
            .map(|p| p.name.clone())
            .unwrap_or_default()
    }

    /// The preview line: what the staged cards would score, or why they may not go.
    fn preview(&self, language: &str) -> (String, bool) {
        let Some(desk) = self.desk() else {
            return (String::new(), false);
        };
        let staged = self.staged_cards();
        if staged.is_empty() {
            return (String::new(), false);
        }
        match desk.score_placement(&staged) {
            Ok(score) => {
                let total = score.total;
                let text = if score.lots > 0 {
                    IotaText::ScoresLot { total }
                } else {
                    IotaText::Scores { total }
                };
                (texts::say(&text, language), true)
            }
            Err(e) => (refusals::say(&e, language), false),
        }
    }
}

/// A pass, and how many cards went back with it (never which).
fn passed(name: String, count: usize) -> IotaText {
    match count {
        0 => IotaText::Passed { name },
        1 => IotaText::PassedChangedOne { name },
        _ => IotaText::PassedChanged { name, count },
    }
}

/// What a seat did on its last turn.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum LastTurn {
    Scored(u32),
    /// Passed, returning this many cards.
    Passed(usize),
}

impl IotaTable {
    /// A tap's result for the message line: why it was refused, or else the last thing
    /// that happened, which stays.
    fn after_tap(&self, result: Result<(), String>) -> play::Note {
        match result {
            Ok(()) => self.note_line(&self.language),
            Err(reason) => Some((reason, true)),
        }
    }

    /// The last thing that happened, for the message line.
    fn note_line(&self, language: &str) -> play::Note {
        self.note.as_ref().map(|note| (note.say(language), false))
    }
}

/// Starts a table from the setup screen's players with a fresh random seed.
pub fn start(players: Vec<Player>) -> RuleResult<Box<dyn Table>> {
    let seed = crate::platform::time::unix_nanos().max(1);
    // docs/rules.md §2: the first seat is chosen at random.
    let first = rand::random_range(0..players.len().max(1));
    Ok(Box::new(IotaTable::start(players, seed, first)?))
}

/// Registers the IOTA bridge's callbacks.
pub fn wire(app: &AppWindow, controller: &Rc<RefCell<Controller>>) {
    let bridge = app.global::<IotaBridge>();
    macro_rules! on {
        ($setter:ident, |$t:ident $(, $arg:ident : $ty:ty)*| $body:expr) => {{
            let weak = app.as_weak();
            let controller = controller.clone();
            bridge.$setter(move |$($arg: $ty),*| {
                let Some(app) = weak.upgrade() else { return };
                play::with_table::<IotaTable>(&app, &controller, |$t, language| {
                    $t.language = language.to_string();
                    let result: Result<(), String> = $body;
                    $t.after_tap(result)
                });
            });
        }};
    }
    on!(on_tap_cell, |t, i: i32| t.tap_cell(i.max(0) as usize));
    on!(on_tap_hand, |t, i: i32| t.tap_hand(i.max(0) as usize));
    on!(on_play, |t| t.play());
    on!(on_pass, |t| t.pass());
    on!(on_take_back, |t| {
        t.take_back();
        Ok(())
    });
    on!(on_hint, |t| t.hint());
    on!(on_trade, |t| t.toggle_trade());
}

#[cfg(test)]
mod tests;
