//! The IOTA table on screen: the grid with a ring of empty cells, the hand of the seat on
//! turn (only behind an open gate), staging cards with a live score from the rules core,
//! and Play / Pass. No rule is decided here: legality and scores come from
//! `games::iota`, actions go through `Session`.

use super::play::{self, Table};
use super::{AppWindow, IotaBridge, IotaCard, IotaCell, IotaHandCard, IotaSeat};
use crate::games::iota::{Action, Card, Cell, Iota, IotaEvent};
use crate::games::{Game, Params, RuleError, RuleResult};
use crate::session::{AnySession, Player, Session, Sharing};
use slint::{ComponentHandle, ModelRc, VecModel};
use std::any::Any;
use std::cell::RefCell;
use std::collections::BTreeSet;
use std::rc::Rc;

use super::Controller;

/// A game of IOTA on this device, with what the player has picked but not yet played.
pub struct IotaTable {
    session: Session<Iota>,
    /// The hand card picked (index into the hand).
    selected: Option<usize>,
    /// Hand cards laid on the grid but not yet played: (hand index, cell).
    staged: Vec<(usize, Cell)>,
    /// The app's language, for messages made here.
    language: String,
    /// The last thing that happened, for the message line (public).
    note: Option<(String, String)>,
    /// The app's seats.
    bots: super::bots::Seats<Iota>,
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
    /// A pass-and-play game for `players` from a seed.
    pub fn start(players: Vec<Player>, seed: u64) -> RuleResult<IotaTable> {
        let n = players.len().to_string();
        let seed = seed.to_string();
        let params = Params::parse([
            format!("players={n}").as_str(),
            "first=0",
            format!("seed={seed}").as_str(),
        ])?;
        let session = Session::start(params, players, Sharing::PassAndPlay)?;
        Ok(IotaTable::from_session(session))
    }

    /// A table around a session already under way.
    pub fn from_session(session: Session<Iota>) -> IotaTable {
        IotaTable {
            bots: super::bots::Seats::new(&session),
            session,
            selected: None,
            staged: Vec::new(),
            note: None,
            language: "en".into(),
        }
    }

    /// A message in the app's language.
    fn say(&self, en: &str, ru: &str) -> String {
        play::tr(&self.language, en, ru, "")
    }

    /// The session (for tests and the screenshot).
    pub fn session(&self) -> &Session<Iota> {
        &self.session
    }

    /// The seat whose hand is on screen, if the gate is open for it.
    fn viewer(&self) -> Option<usize> {
        self.session.viewer()
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
    }

    /// Cells where the selected card may go together with what is staged: every legal
    /// placement (from the rules core) that contains the staged cards and the selected card.
    fn legal_cells(&self) -> BTreeSet<(i32, i32)> {
        let mut out = BTreeSet::new();
        let (Some(seat), Some(sel)) = (self.viewer(), self.selected) else {
            return out;
        };
        let hand = self.hand();
        let Some(&card) = hand.get(sel) else {
            return out;
        };
        let staged = self.staged_cards();
        for placement in self.session.game().legal_placements(seat) {
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
            .game()
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
        let (Some(seat), Some(sel)) = (self.viewer(), self.selected) else {
            return false;
        };
        let Some(&card) = self.hand().get(sel) else {
            return false;
        };
        self.staged.is_empty()
            && self.session.game().to_act().contains(&seat)
            && self.session.game().check_swap(seat, cell, card).is_ok()
    }

    /// A tap on the board cell shown at `index`.
    pub fn tap_cell(&mut self, index: usize) -> Result<(), String> {
        let Some(&(cell, _)) = self.board().cells.get(index) else {
            return Err(self.say(
                "That cell is no longer on the board",
                "Этой клетки больше нет на столе",
            ));
        };
        if self.viewer().is_none() {
            return Err(self.say("Reveal the screen first", "Сначала откройте экран"));
        }
        if let Some(pos) = self.staged.iter().position(|(_, c)| *c == cell) {
            let (i, _) = self.staged.remove(pos);
            self.selected = Some(i);
            return Ok(());
        }
        let grid_card = self.session.game().grid().get(cell);
        let Some(sel) = self.selected else {
            return Err(if grid_card.is_some() {
                self.say(
                    "Pick a card from your hand, then tap an empty cell",
                    "Выберите карту в руке, затем коснитесь пустой клетки",
                )
            } else {
                self.say(
                    "Pick a card from your hand first",
                    "Сначала выберите карту в руке",
                )
            });
        };
        if let Some(on_grid) = grid_card {
            if on_grid.is_wild() {
                return self.swap(cell, sel);
            }
            return Err(play::tr(
                &self.language,
                "{} is not empty",
                "Клетка {} занята",
                &cell.to_string(),
            ));
        }
        self.staged.push((sel, cell));
        self.selected = None;
        Ok(())
    }

    /// Exchanges the wild on `cell` for the hand card `sel` (before placing).
    fn swap(&mut self, cell: Cell, sel: usize) -> Result<(), String> {
        let seat = self
            .viewer()
            .ok_or_else(|| self.say("Reveal the screen first", "Сначала откройте экран"))?;
        if !self.staged.is_empty() {
            return Err(self.say(
                "Take back the staged cards before swapping a wild",
                "Заберите выложенные карты, прежде чем менять джокер",
            ));
        }
        let card = *self.hand().get(sel).ok_or_else(|| {
            self.say(
                "Pick a card from your hand first",
                "Сначала выберите карту в руке",
            )
        })?;
        self.session
            .act(seat, &Action::Swap { cell, card })
            .map_err(|e| e.0)?;
        self.clear_selection();
        self.note = Some((
            format!("Swapped the wild on {cell} for {card}"),
            format!("Джокер на {cell} заменён на {card}"),
        ));
        Ok(())
    }

    /// A tap on hand card `index`: pick it, drop it, or take a staged card back.
    pub fn tap_hand(&mut self, index: usize) -> Result<(), String> {
        if self.viewer().is_none() {
            return Err(self.say("Reveal the screen first", "Сначала откройте экран"));
        }
        if index >= self.hand().len() {
            return Err(self.say(
                "That card is not in your hand",
                "Этой карты нет у вас в руке",
            ));
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
            .ok_or_else(|| self.say("Reveal the screen first", "Сначала откройте экран"))?;
        let cards = self.staged_cards();
        if cards.is_empty() {
            return Err(self.say(
                "Stage a card first: pick it, then tap an empty cell",
                "Сначала выложите карту: выберите её и коснитесь пустой клетки",
            ));
        }
        let name = self.name(seat);
        let event = self
            .session
            .act(seat, &Action::Place(cards))
            .map_err(|e| e.0)?;
        self.clear_selection();
        if let IotaEvent::Placed { score, .. } = event {
            let total = score.total.to_string();
            self.note = Some((
                format!("{name} scored {total}"),
                format!("{name}: +{total} очков"),
            ));
        }
        Ok(())
    }

    /// Passes, returning the selected card (if any) to the pile.
    pub fn pass(&mut self) -> Result<(), String> {
        let seat = self
            .viewer()
            .ok_or_else(|| self.say("Reveal the screen first", "Сначала откройте экран"))?;
        let hand = self.hand();
        let returned: Vec<Card> = self
            .selected
            .filter(|_| self.staged.is_empty())
            .and_then(|i| hand.get(i).copied())
            .into_iter()
            .collect();
        let name = self.name(seat);
        let n = returned.len();
        self.session
            .act(seat, &Action::Pass(returned))
            .map_err(|e| e.0)?;
        self.clear_selection();
        self.note = Some(if n == 0 {
            (format!("{name} passed"), format!("{name} пасует"))
        } else {
            (
                format!("{name} passed and changed a card"),
                format!("{name} пасует и меняет карту"),
            )
        });
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
        let Some(seat) = self.viewer() else {
            return (String::new(), false);
        };
        let staged = self.staged_cards();
        if staged.is_empty() {
            return (String::new(), false);
        }
        match self.session.game().score_placement(seat, &staged) {
            Ok(score) => {
                let mut text = play::tr(
                    language,
                    "Scores {}",
                    "Принесёт {}",
                    &score.total.to_string(),
                );
                if score.lots > 0 {
                    text.push_str(&play::tr(language, " (a lot!)", " (лот!)", ""));
                }
                (text, true)
            }
            Err(RuleError(reason)) => (reason, false),
        }
    }
}

/// How a card reads aloud: "red triangle two".
pub fn card_words(card: Card, language: &str) -> String {
    if card.is_wild() {
        return play::tr(language, "wild", "джокер", "");
    }
    let ru = language == "ru";
    let colour = usize::from(card.colour());
    let shape = usize::from(card.shape());
    let number = usize::from(card.number()).saturating_sub(1);
    let pick = |en: [&'static str; 4], r: [&'static str; 4], i: usize| {
        let list = if ru { r } else { en };
        list.get(i).copied().unwrap_or("")
    };
    format!(
        "{} {} {}",
        pick(
            ["red", "green", "blue", "yellow"],
            ["красный", "зелёный", "синий", "жёлтый"],
            colour
        ),
        pick(
            ["circle", "square", "triangle", "cross"],
            ["круг", "квадрат", "треугольник", "крест"],
            shape
        ),
        pick(
            ["one", "two", "three", "four"],
            ["один", "два", "три", "четыре"],
            number
        ),
    )
}

fn coord_words(v: i32, language: &str) -> String {
    if v < 0 {
        play::tr(
            language,
            "minus {}",
            "минус {}",
            &v.unsigned_abs().to_string(),
        )
    } else {
        v.to_string()
    }
}

/// How a cell reads aloud: "column 2, row minus 1".
pub fn cell_words(cell: Cell, language: &str) -> String {
    let col = coord_words(cell.x, language);
    let row = coord_words(cell.y, language);
    let text = play::tr(language, "column {}", "столбец {}", &col);
    let row = play::tr(language, "row {}", "строка {}", &row);
    format!("{text}, {row}")
}

fn ui_card(card: Card, language: &str) -> IotaCard {
    let letters: [&str; 4] = if language == "ru" {
        ["К", "З", "С", "Ж"]
    } else {
        ["R", "G", "B", "Y"]
    };
    IotaCard {
        wild: card.is_wild(),
        colour: i32::from(card.colour()),
        shape: i32::from(card.shape()),
        number: i32::from(card.number()),
        letter: letters
            .get(usize::from(card.colour()))
            .copied()
            .unwrap_or("")
            .into(),
    }
}

impl Table for IotaTable {
    fn show(&self, app: &AppWindow, language: &str) {
        app.set_playing("iota".into());
        play::show_banner(app, &self.session, "IOTA", language);
        play::show_cover(
            app,
            &self.session,
            &play::tr(
                language,
                "Only you should see your cards.",
                "Ваши карты должны видеть только вы.",
                "",
            ),
        );
        if let Some((en, ru)) = &self.note {
            play::show_message(app, &play::tr(language, en, ru, ""), false);
        }
        let bridge = app.global::<IotaBridge>();
        let game = self.session.game();
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
                play::tr(
                    language,
                    "staged {}, tap to take back",
                    "выложена {}, коснитесь, чтобы забрать",
                    &words_of(card),
                )
            } else {
                words_of(card)
            };
            let swappable = !is_staged && self.can_swap(cell);
            let what = if swappable {
                what + &play::tr(
                    language,
                    ", the selected card may replace it",
                    ", выбранная карта может его заменить",
                    "",
                )
            } else {
                what
            };
            cells.push(IotaCell {
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
            let what = if is_legal {
                play::tr(
                    language,
                    "empty, the selected card may go here",
                    "пусто, сюда можно выложить выбранную карту",
                    "",
                )
            } else {
                play::tr(language, "empty", "пусто", "")
            };
            cells.push(IotaCell {
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
        bridge.set_cells(ModelRc::new(VecModel::from(cells)));

        // The hand: only the seat whose gate is open.
        let hand_rows: Vec<IotaHandCard> = hand
            .iter()
            .enumerate()
            .map(|(i, card)| {
                let is_staged = self.staged.iter().any(|(h, _)| *h == i);
                let is_selected = self.selected == Some(i);
                let mut label = play::tr(
                    language,
                    "Your card {}: ",
                    "Ваша карта {}: ",
                    &(i + 1).to_string(),
                ) + &card_words(*card, language);
                if is_staged {
                    label += &play::tr(language, ", on the board", ", на столе", "");
                } else if is_selected {
                    label += &play::tr(language, ", selected", ", выбрана", "");
                }
                IotaHandCard {
                    card: ui_card(*card, language),
                    selected: is_selected,
                    staged: is_staged,
                    label: label.into(),
                }
            })
            .collect();
        bridge.set_hand(ModelRc::new(VecModel::from(hand_rows)));

        let view_turn = game.to_act();
        let scores = game.scores();
        let sizes: Vec<usize> = (0..game.seats()).map(|s| game.hand(s).len()).collect();
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
                    play::tr(language, "{} points", "{} очков", &score.to_string()),
                    play::tr(language, "{} cards", "карт: {}", &cards.to_string())
                );
                if on_turn {
                    label += &play::tr(language, ", on turn", ", ходит", "");
                }
                IotaSeat {
                    name: p.name.clone().into(),
                    seat: s as i32,
                    color: i32::from(p.color),
                    score: i32::try_from(score).unwrap_or(i32::MAX),
                    cards: cards as i32,
                    on_turn,
                    label: label.into(),
                }
            })
            .collect();
        bridge.set_seats(ModelRc::new(VecModel::from(seats)));
        let pile = game.pile_len();
        bridge.set_pile(pile as i32);
        bridge.set_pile_label(
            play::tr(
                language,
                "Draw pile: {} cards",
                "В колоде: {}",
                &pile.to_string(),
            )
            .into(),
        );

        let (preview, ok) = self.preview(language);
        bridge.set_preview(preview.into());
        bridge.set_preview_ok(ok);
        let open = self.viewer().is_some() && !game.outcome().is_over();
        bridge.set_has_staged(open && !self.staged.is_empty());
        bridge.set_can_play(open && !self.staged.is_empty());
        bridge.set_can_pass(open);
        let returning = self.selected.is_some() && self.staged.is_empty();
        bridge.set_pass_text(
            if returning {
                play::tr(language, "Pass, change card", "Пас и сменить карту", "")
            } else {
                play::tr(language, "Pass", "Пас", "")
            }
            .into(),
        );
    }

    fn reveal(&mut self) {
        self.session.reveal();
        self.clear_selection();
    }

    fn bot_job(&mut self) -> Option<super::bots::Job> {
        self.bots.job(&self.session, false)
    }

    fn bot_done(&mut self, reply: Box<dyn Any + Send>, language: &str) -> Option<(String, bool)> {
        match self.bots.finish(&mut self.session, reply)? {
            Ok((seat, _action, event)) => {
                let name = self.name(seat);
                // Only what everyone saw: the cards laid and the score, or how many
                // cards went back (never which).
                self.note = Some(match event {
                    IotaEvent::Placed { score, cards, .. } => {
                        let total = score.total.to_string();
                        let n = cards.len();
                        (
                            format!("{name} placed {n} and scored {total}"),
                            format!("{name}: карт {n}, +{total} очков"),
                        )
                    }
                    IotaEvent::Passed {
                        returned_count: 0, ..
                    } => (format!("{name} passed"), format!("{name} пасует")),
                    IotaEvent::Passed { returned_count, .. } => (
                        format!("{name} passed and changed {returned_count} cards"),
                        format!("{name} пасует и меняет карты: {returned_count}"),
                    ),
                    IotaEvent::Swapped { cell, .. } => (
                        format!("{name} took the wild at {}", cell_words(cell, "en")),
                        format!("{name} забирает джокер: {}", cell_words(cell, "ru")),
                    ),
                });
                self.clear_selection();
                self.note
                    .as_ref()
                    .map(|(en, ru)| (play::tr(language, en, ru, ""), false))
            }
            Err(e) => Some((e, true)),
        }
    }

    fn as_any_mut(&mut self) -> &mut dyn Any {
        self
    }

    fn session(&self) -> &dyn AnySession {
        &self.session
    }

    fn session_mut(&mut self) -> &mut dyn AnySession {
        &mut self.session
    }
}

/// Starts a table from the setup screen's players with a fresh random seed.
pub fn start(players: Vec<Player>) -> RuleResult<Box<dyn Table>> {
    let seed = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map(|d| d.as_nanos() as u64)
        .unwrap_or(1);
    Ok(Box::new(IotaTable::start(players, seed)?))
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
                let mut guard = controller.borrow_mut();
                let language = guard.language();
                let Some(table) = guard.table.as_mut() else { return };
                let Some($t) = table.as_any_mut().downcast_mut::<IotaTable>() else {
                    return;
                };
                $t.language = language.to_string();
                let result: Result<(), String> = $body;
                match result {
                    Ok(()) => play::show_message(&app, "", false),
                    Err(reason) => play::show_message(&app, &reason, true),
                }
                $t.show(&app, language);
                guard.after_change(&app);
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
}

/// A realistic table in the middle of a game, for the screenshot: two players, a few turns
/// played by always taking the legal placement with the most cards, the next player's
/// screen revealed and one card staged.
pub fn demo_table(players: Vec<Player>) -> RuleResult<IotaTable> {
    let mut table = IotaTable::start(players, 20_261_129)?;
    for _ in 0..12 {
        if table.session.game().grid().len() >= 10 || table.session.outcome().is_over() {
            break;
        }
        table.session.reveal();
        let Some(seat) = table.viewer() else { break };
        let best = table
            .session
            .game()
            .legal_placements(seat)
            .into_iter()
            .max_by_key(|p| (p.len(), table.session.game().check_placement(seat, p).ok()));
        let action = match best {
            Some(p) => Action::Place(p),
            None => Action::Pass(Vec::new()),
        };
        table.session.act(seat, &action)?;
    }
    table.session.reveal();
    if let Some(seat) = table.viewer() {
        let hand = table.hand();
        if let Some(p) = table
            .session
            .game()
            .legal_placements(seat)
            .into_iter()
            .next()
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
