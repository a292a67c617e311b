//! The IOTA table on screen: the grid with a ring of empty cells, the hand of the seat on
//! turn (only behind an open gate), staging cards with a live score from the rules core,
//! and Play / Pass. No rule is decided here: legality and scores come from
//! `games::iota`, actions go through the `Match`.

use super::play::{self, GameScreen, Table};
use super::refusals;
use super::texts::{self, IotaText};
use super::{chrome, rows};
use super::{AppWindow, IotaBridge, IotaCard, IotaCell, IotaHandCard, IotaResult, IotaSeat};
use crate::games::iota::{Action, Card, Cell, Iota, IotaEvent, IotaView};
use crate::games::{Params, RuleResult};
use crate::session::{Desk, Match, Player, Sharing};
use slint::{ComponentHandle, ModelRc, VecModel};
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

/// How a card reads aloud: "red triangle two".
pub fn card_words(card: Card, language: &str) -> String {
    use IotaText::*;
    if card.is_wild() {
        return texts::say(&Wild, language);
    }
    let pick = |list: [IotaText; 4], i: u8| {
        list.get(usize::from(i))
            .map(|t| texts::say(t, language))
            .unwrap_or_default()
    };
    format!(
        "{} {} {}",
        pick([Red, Green, Blue, Yellow], card.colour()),
        pick([Circle, Square, Triangle, Cross], card.shape()),
        pick([One, Two, Three, Four], card.number().saturating_sub(1)),
    )
}

fn coord_words(v: i32, language: &str) -> String {
    if v < 0 {
        texts::say(
            &IotaText::Minus {
                n: v.unsigned_abs(),
            },
            language,
        )
    } else {
        v.to_string()
    }
}

/// How a cell reads aloud: "column 2, row minus 1".
pub fn cell_words(cell: Cell, language: &str) -> String {
    let col = coord_words(cell.x, language);
    let row = coord_words(cell.y, language);
    texts::say(&IotaText::CellWords { col, row }, language)
}

fn ui_card(card: Card, language: &str) -> IotaCard {
    use IotaText::{LetterBlue, LetterGreen, LetterRed, LetterYellow};
    let letters = [LetterRed, LetterGreen, LetterBlue, LetterYellow];
    IotaCard {
        wild: card.is_wild(),
        colour: i32::from(card.colour()),
        shape: i32::from(card.shape()),
        number: i32::from(card.number()),
        letter: letters
            .get(usize::from(card.colour()))
            .map(|t| texts::say(t, language))
            .unwrap_or_default()
            .into(),
    }
}

impl GameScreen for IotaTable {
    type Game = Iota;
    const TITLE: &'static str = "IOTA";

    fn game_match(&self) -> &Match<Iota> {
        &self.session
    }

    fn game_match_mut(&mut self) -> &mut Match<Iota> {
        &mut self.session
    }

    fn cover_hint(&self, language: &str) -> String {
        texts::say(&IotaText::CoverHint, language)
    }

    fn draw(&self, app: &AppWindow, language: &str) {
        // The last thing that happened, said again in the language now chosen.
        if let Some(note) = &self.note {
            chrome::show_message(app, &note.say(language), false);
        }
        let bridge = app.global::<IotaBridge>();
        let game = self.session.public();
        let hand = self.hand();

        let board = self.board();
        let legal = self.legal_cells();
        let mut cells = Vec::new();
        let words_of = |card: Card| card_words(card, language);
        let (min_x, min_y) = (board.min.x, board.min.y);
        for &(cell, slot) in &board.cells {
            let Some((card, is_staged)) = slot else {
                continue;
            };
            let what = if is_staged {
                texts::say(
                    &IotaText::Staged {
                        card: words_of(card),
                    },
                    language,
                )
            } else {
                words_of(card)
            };
            let swappable = !is_staged && self.can_swap(cell);
            let what = if swappable {
                texts::say(&IotaText::MayReplace { card: what }, language)
            } else {
                what
            };
            cells.push(IotaCell {
                x: cell.x,
                y: cell.y,
                col: cell.x - min_x,
                row: cell.y - min_y,
                card: ui_card(card, language),
                filled: !is_staged,
                staged: is_staged,
                legal: swappable,
                label: format!("{}: {what}", cell_words(cell, language)).into(),
            });
        }
        // Then the empty ring, in the same order as `board.cells` (taps find them by index).
        for &(cell, slot) in &board.cells {
            if slot.is_some() {
                continue;
            }
            let (x, y) = (cell.x, cell.y);
            let is_legal = legal.contains(&(x, y));
            let what = texts::say(
                if is_legal {
                    &IotaText::EmptyLegal
                } else {
                    &IotaText::Empty
                },
                language,
            );
            cells.push(IotaCell {
                x,
                y,
                col: x - min_x,
                row: y - min_y,
                card: ui_card(Card::WILD, language),
                filled: false,
                staged: false,
                legal: is_legal,
                label: format!("{}: {what}", cell_words(cell, language)).into(),
            });
        }
        bridge.set_cols(board.max.x - min_x + 1);
        bridge.set_rows(board.max.y - min_y + 1);
        rows::update_rows(bridge.get_cells(), cells, |m| bridge.set_cells(m));

        // The hand: only the seat whose gate is open.
        let hand_rows: Vec<IotaHandCard> = hand
            .iter()
            .enumerate()
            .map(|(i, card)| {
                let is_staged = self.staged.iter().any(|(h, _)| *h == i);
                let returning = self.trade.as_ref().is_some_and(|t| t.contains(&i));
                let is_selected = self.selected == Some(i) || returning;
                let label = texts::say(
                    &IotaText::YourCard {
                        n: i + 1,
                        card: card_words(*card, language),
                    },
                    language,
                );
                let label = if returning {
                    texts::say(&IotaText::ToReturn { label }, language)
                } else if self.trade.is_some() {
                    texts::say(&IotaText::ToKeep { label }, language)
                } else if is_staged {
                    texts::say(&IotaText::OnTheBoard { label }, language)
                } else if is_selected {
                    texts::say(&IotaText::Selected { label }, language)
                } else {
                    label
                };
                IotaHandCard {
                    card: ui_card(*card, language),
                    selected: is_selected,
                    returning,
                    staged: is_staged,
                    label: label.into(),
                    present: true,
                }
            })
            // A slot for each card a hand may hold, the empty ones not present: the
            // hand's slots are made once and keep their accessibility ids for the whole
            // game (ui/iota/screen.slint `HandRow`), under the cover too.
            .chain(std::iter::repeat_with(IotaHandCard::default))
            .take(hand.len().max(crate::games::iota::HAND_SIZE))
            .collect();
        rows::update_rows(bridge.get_hand(), hand_rows, |m| bridge.set_hand(m));
        // The picked card in words, for the focused board to say (access::news): a digit
        // key picks it without moving the focus, so nothing else would be heard.
        let picked = self
            .selected
            .filter(|_| self.trade.is_none())
            .and_then(|i| hand.get(i))
            .map(|card| {
                texts::say(
                    &IotaText::Picked {
                        card: card_words(*card, language),
                    },
                    language,
                )
            })
            .unwrap_or_default();
        bridge.set_picked(picked.into());

        let view_turn = self.session.to_act();
        let scores = &game.scores;
        let sizes = &game.hand_sizes;
        let (last_turns, best_turn) = self.turn_log();
        let seats: Vec<IotaSeat> = self
            .session
            .players()
            .iter()
            .enumerate()
            .map(|(s, p)| {
                let score = scores.get(s).copied().unwrap_or(0);
                let cards = sizes.get(s).copied().unwrap_or(0);
                let on_turn = view_turn.contains(&s);
                let mut label = format!(
                    "{}: {}, {}",
                    p.name,
                    texts::say(&IotaText::Points { n: score }, language),
                    texts::say(&IotaText::Cards { n: cards }, language)
                );
                let last = match last_turns.get(s).copied().flatten() {
                    Some(LastTurn::Scored(n)) => format!("+{n}"),
                    Some(LastTurn::Passed(0)) => texts::say(&IotaText::PassWord, language),
                    Some(LastTurn::Passed(n)) => {
                        texts::say(&IotaText::PassReturned { n }, language)
                    }
                    None => String::new(),
                };
                if !last.is_empty() {
                    label = texts::say(
                        &IotaText::LastTurn {
                            label,
                            last: last.clone(),
                        },
                        language,
                    );
                }
                if on_turn {
                    label = texts::say(&IotaText::OnTurn { label }, language);
                }
                IotaSeat {
                    name: p.name.clone().into(),
                    seat: s as i32,
                    color: i32::from(p.color),
                    score: i32::try_from(score).unwrap_or(i32::MAX),
                    cards: cards as i32,
                    last: last.into(),
                    on_turn,
                    label: label.into(),
                }
            })
            .collect();
        rows::update_rows(bridge.get_seats(), seats, |m| bridge.set_seats(m));
        let pile = game.pile_count;
        bridge.set_pile(pile as i32);
        bridge.set_pile_label(texts::say(&IotaText::DrawPile { n: pile }, language).into());

        let (preview, ok) = self.preview(language);
        bridge.set_preview(preview.into());
        bridge.set_preview_ok(ok);
        let over = game.outcome.is_over();
        let open = self.viewer().is_some() && !over;
        bridge.set_has_staged(open && !self.staged.is_empty());
        bridge.set_can_play(open && !self.staged.is_empty());
        bridge.set_can_pass(open && self.staged.is_empty());
        bridge.set_can_hint(open && self.trade.is_none());
        bridge.set_trading(open && self.trade.is_some());
        let marked = self.trade.as_ref().map_or(0, BTreeSet::len);
        bridge.set_pass_text(
            texts::say(
                &match marked {
                    0 => IotaText::Pass,
                    1 => IotaText::PassReturnOne,
                    n => IotaText::PassReturn { n },
                },
                language,
            )
            .into(),
        );
        bridge.set_trade_hint(
            if self.trade.is_some() {
                texts::say(&IotaText::TradeHint, language)
            } else {
                String::new()
            }
            .into(),
        );

        // The end of the game: the ranking and the best turn.
        bridge.set_over(over);
        let mut ranking: Vec<usize> = (0..self.session.players().len()).collect();
        ranking.sort_by_key(|s| std::cmp::Reverse(scores.get(*s).copied().unwrap_or(0)));
        let results: Vec<IotaResult> = if over {
            ranking
                .iter()
                .map(|&s| {
                    let score = scores.get(s).copied().unwrap_or(0);
                    // Equal scores share a place.
                    let place = 1 + scores.iter().filter(|x| **x > score).count();
                    let player = self.session.players().get(s);
                    let name = player.map(|p| p.name.clone()).unwrap_or_default();
                    IotaResult {
                        place: place as i32,
                        name: name.clone().into(),
                        seat: s as i32,
                        color: player.map_or(0, |p| i32::from(p.color)),
                        score: i32::try_from(score).unwrap_or(i32::MAX),
                        label: format!(
                            "{}. {name}: {}",
                            place,
                            texts::say(&IotaText::Points { n: score }, language)
                        )
                        .into(),
                    }
                })
                .collect()
        } else {
            Vec::new()
        };
        bridge.set_results(ModelRc::new(VecModel::from(results)));
        bridge.set_best_turn(
            match best_turn {
                Some((seat, points)) if over => {
                    let best = IotaText::BestTurn {
                        name: self.name(seat),
                        points: texts::say(&IotaText::Points { n: points.into() }, language),
                    };
                    texts::say(&best, language)
                }
                _ => String::new(),
            }
            .into(),
        );
        // The board's spoken line reads the preview and the picked card set above.
        super::access::news(app);
    }

    fn revealed(&mut self) {
        self.clear_selection();
    }

    fn app_played(
        &mut self,
        seat: usize,
        _action: Action,
        event: IotaEvent,
        _before: IotaView,
        language: &str,
    ) -> play::Note {
        let name = self.name(seat);
        // Only what everyone saw: the cards laid and the score, or how many cards went
        // back (never which).
        self.note = Some(match event {
            IotaEvent::Placed { score, cards, .. } => Note::Text(IotaText::Placed {
                name,
                count: cards.len(),
                total: score.total,
            }),
            IotaEvent::Passed { returned_count, .. } => Note::Text(passed(name, returned_count)),
            IotaEvent::Swapped { cell, .. } => Note::TookWild { name, cell },
        });
        self.clear_selection();
        self.note_line(language)
    }
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

/// A realistic table in the middle of a game, for the screenshot: two players, a few turns
/// played by always taking the legal placement with the most cards, the next player's
/// screen revealed and one card staged.
#[cfg(feature = "devtools")]
pub fn demo_table(players: Vec<Player>) -> RuleResult<IotaTable> {
    demo_table_with(players, 10)
}

/// As [`demo_table`], played on until the grid holds at least `cards` cards (the frame
/// bench's crowded table).
#[cfg(feature = "devtools")]
pub fn demo_table_with(players: Vec<Player>, cards: usize) -> RuleResult<IotaTable> {
    let mut table = IotaTable::start(players, 20_261_129, 0)?;
    for _ in 0..cards * 2 {
        if table.session.grid().len() >= cards || table.session.outcome().is_over() {
            break;
        }
        table.session.reveal();
        let Some(desk) = table.desk() else { break };
        let seat = desk.seat();
        let best = desk
            .legal_placements()
            .into_iter()
            .max_by_key(|p| (p.len(), desk.check_placement(p).ok()));
        let action = match best {
            Some(p) => Action::Place(p),
            None => Action::Pass(Vec::new()),
        };
        table.session.act(seat, &action)?;
    }
    table.session.reveal();
    if table.viewer().is_some() {
        let hand = table.hand();
        if let Some(p) = table
            .desk()
            .and_then(|d| d.legal_placements().into_iter().next())
        {
            if let Some((card, cell)) = p.first() {
                if let Some(i) = hand.iter().position(|c| c == card) {
                    table.staged.push((i, *cell));
                }
            }
        }
        table.selected = (0..hand.len()).find(|i| !table.staged.iter().any(|(h, _)| h == i));
    }
    Ok(table)
}

/// The mid-game table with one card staged where it may not go, so the reason shows (the
/// `iota-illegal` screenshot).
#[cfg(feature = "devtools")]
pub fn demo_illegal_table(players: Vec<Player>) -> RuleResult<IotaTable> {
    let mut table = demo_table(players)?;
    table.staged.clear();
    let Some(desk) = table.desk() else {
        return Ok(table);
    };
    let hand = table.hand();
    let grid = table.session.grid();
    let empty_neighbours: Vec<Cell> = grid
        .sorted()
        .iter()
        .flat_map(|(cell, _)| cell.neighbours())
        .filter(|c| grid.get(*c).is_none())
        .collect();
    let refused = hand.iter().enumerate().find_map(|(i, card)| {
        empty_neighbours
            .iter()
            .find(|cell| desk.check_placement(&[(*card, **cell)]).is_err())
            .map(|cell| (i, *cell))
    });
    if let Some(staged) = refused {
        table.staged.push(staged);
        table.selected = None;
    }
    Ok(table)
}

/// A finished game for the screenshot: two players always taking the best-scoring legal
/// placement (passing when none fits) until the game ends.
#[cfg(feature = "devtools")]
pub fn demo_end_table(players: Vec<Player>) -> RuleResult<IotaTable> {
    let mut table = IotaTable::start(players, 20_261_129, 0)?;
    for _ in 0..400 {
        if table.session.outcome().is_over() {
            break;
        }
        table.session.reveal();
        let Some(desk) = table.desk() else { break };
        let seat = desk.seat();
        let action = desk
            .best_placement()
            .map_or(Action::Pass(Vec::new()), Action::Place);
        table.session.act(seat, &action)?;
    }
    Ok(table)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn two() -> Vec<Player> {
        super::super::play::players(&["Anna".into(), "Boris".into()], &[0, 1], &[None, None])
    }

    /// Every reason the core actually gives while players stage cards anywhere round the
    /// grid (many games, random cards and cells) is a typed refusal, not `Other`, so
    /// `ui::refusals` words it in the player's language (tests/translations.rs proves
    /// each typed refusal has a Russian text).
    #[test]
    fn every_reason_met_in_play_is_typed() {
        use rand::{Rng, SeedableRng};
        let mut rng = rand::rngs::StdRng::seed_from_u64(7);
        let mut seen = BTreeSet::new();
        for seed in 0..40u64 {
            let Ok(mut table) = IotaTable::start(two(), seed, 0) else {
                panic!("a game starts");
            };
            for _turn in 0..30 {
                if table.session.outcome().is_over() {
                    break;
                }
                table.session.reveal();
                let Some(desk) = table.desk() else { break };
                let seat = desk.seat();
                let hand = desk.view().hand;
                let cells: Vec<Cell> = table.board().cells.iter().map(|(c, _)| *c).collect();
                for _ in 0..30 {
                    let n = rng.random_range(1..=hand.len().max(1));
                    let mut tried = Vec::new();
                    for k in 0..n {
                        let card = hand.get(k).copied().unwrap_or(Card::WILD);
                        let cell = cells[rng.random_range(0..cells.len())];
                        tried.push((card, cell));
                    }
                    if let Err(e) = desk.check_placement(&tried) {
                        assert!(
                            !matches!(e, crate::games::RuleError::Other(_)),
                            "untyped: {e}"
                        );
                        seen.insert(e.to_string());
                    }
                    let cell = cells[rng.random_range(0..cells.len())];
                    if let Some(&card) = hand.first() {
                        if let Err(e) = desk.check_swap(cell, card) {
                            assert!(
                                !matches!(e, crate::games::RuleError::Other(_)),
                                "untyped: {e}"
                            );
                            seen.insert(e.to_string());
                        }
                    }
                }
                let best = desk
                    .legal_placements()
                    .into_iter()
                    .max_by_key(|p| desk.check_placement(p).ok());
                let action = best.map_or(Action::Pass(Vec::new()), Action::Place);
                if table.session.act(seat, &action).is_err() {
                    break;
                }
            }
        }
        assert!(seen.len() >= 8, "enough different reasons met: {seen:?}");
    }

    #[test]
    fn the_first_seat_is_chosen_at_random() {
        let mut firsts = BTreeSet::new();
        for _ in 0..64 {
            let Ok(mut table) = start(two()) else {
                panic!("a game starts");
            };
            let Some(t) = table.as_any_mut().downcast_mut::<IotaTable>() else {
                panic!("an IOTA table");
            };
            firsts.insert(t.session().public().turn);
        }
        assert_eq!(firsts, BTreeSet::from([0, 1]));
    }

    #[test]
    fn the_hint_stages_a_placement_scoring_the_most() {
        let mut table = IotaTable::start(two(), 3, 0).expect("a game starts");
        table.session.reveal();
        table.hint().expect("something fits next to the starter");
        let staged = table.staged_cards();
        let desk = table.desk().expect("revealed");
        let hinted = desk.check_placement(&staged).expect("the hint is legal");
        let best = desk
            .legal_placements()
            .iter()
            .filter_map(|p| desk.check_placement(p).ok())
            .max()
            .expect("legal placements");
        assert_eq!(hinted, best);
    }
}
