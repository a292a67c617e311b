//! Ovo on screen: the session's view of the seat holding the device becomes the tray's
//! cells, and taps become actions. Which eggs may move and where they may land always
//! comes from the rules core (`moves_from`, `legal_actions`); nothing is decided here.

#[cfg(feature = "devtools")]
mod demo;
mod screen;

#[cfg(feature = "devtools")]
pub use demo::{demo, show_demo};

use super::play::{self, Note};
use super::texts::{self, OvoText};
use super::{AppWindow, Controller, OvoBridge, OvoCell};
use crate::games::ovo::{camp, Cell, CellView, Happened, Ovo, OvoAction, OvoEvent, Symbol};
use crate::games::{Params, RuleResult, Seat};
use crate::session::{Desk, Match, Player, Sharing};
use slint::ComponentHandle;
use std::cell::RefCell;
use std::rc::Rc;

/// The symbol drawn on an egg's face.
pub fn symbol_char(symbol: Symbol) -> &'static str {
    match symbol {
        Symbol::Circle => "●",
        Symbol::Triangle => "▲",
        Symbol::Diamond => "◆",
        Symbol::Star => "★",
    }
}

/// The index of a symbol in `Theme.seat-symbols` (● ▲ ◆ ★).
fn symbol_index(symbol: Symbol) -> i32 {
    match symbol {
        Symbol::Circle => 0,
        Symbol::Triangle => 1,
        Symbol::Diamond => 2,
        Symbol::Star => 3,
    }
}

fn symbol_word(symbol: Symbol, language: &str) -> String {
    say(
        language,
        match symbol {
            Symbol::Circle => OvoText::Circle,
            Symbol::Triangle => OvoText::Triangle,
            Symbol::Diamond => OvoText::Diamond,
            Symbol::Star => OvoText::Star,
        },
    )
}

/// `text` in the app's language.
fn say(language: &str, text: OvoText) -> String {
    texts::say(&text, language)
}

/// A peek's result, held only until the peeker taps "Got it".
#[derive(Debug, Clone)]
struct PeekReveal {
    seat: Seat,
    cell: Cell,
    symbol: Symbol,
}

/// The last move, to be drawn flying along its path once the board is next on screen
/// (for the next player, after the cover). Only what every seat saw: a visible egg's
/// colour and symbol, or the plain hidden egg.
#[derive(Debug, Clone)]
struct Flight {
    /// The egg's cell, then every landing.
    path: Vec<Cell>,
    /// The egg was hidden before it moved.
    hidden: bool,
    color: i32,
    symbol: &'static str,
    /// A visible egg flipped on its last landing.
    flip: bool,
    /// Jumps cover two cells per landing, steps one.
    jump: bool,
}

/// An Ovo game on screen: the session and what the player has picked up.
pub struct OvoTable {
    session: Match<Ovo>,
    /// The egg picked up.
    selected: Option<Cell>,
    /// The landings of the jump chain chosen so far.
    path: Vec<Cell>,
    /// "Declare «Ovo!» after this action" is switched on.
    declare_after: bool,
    /// The "Ovo!" confirmation is open.
    confirming_ovo: bool,
    /// The peek result, until the peeker has seen it.
    reveal: Option<PeekReveal>,
    /// The last move's path, and whether its animation is still to be played.
    flight: Option<Flight>,
    flight_pending: std::cell::Cell<bool>,
}

impl OvoTable {
    /// A new pass-and-play game for 2 or 4 players.
    pub fn new(players: Vec<Player>, first: Seat, no_move_back: bool) -> RuleResult<Self> {
        let params = Params::new()
            .with("players", players.len())
            .with("first", first)
            .with("no_move_back", if no_move_back { "on" } else { "off" });
        let session = Match::start(params, players, Sharing::PassAndPlay)?;
        Ok(Self::from_match(session))
    }

    /// A table around a match already under way (a resumed save).
    pub fn from_match(session: Match<Ovo>) -> Self {
        OvoTable {
            session,
            selected: None,
            path: Vec::new(),
            declare_after: false,
            confirming_ovo: false,
            reveal: None,
            flight: None,
            flight_pending: std::cell::Cell::new(false),
        }
    }

    /// The match (for tests and the screenshot command).
    pub fn session(&self) -> &Match<Ovo> {
        &self.session
    }

    /// The desk of `seat`, while the gate shows it.
    fn desk(&self, seat: Seat) -> Option<Desk<'_, Ovo>> {
        self.session.desk(seat)
    }

    /// The symbol of `seat`'s eggs (public: it follows from the number of players).
    fn symbol(&self, seat: Seat) -> Option<Symbol> {
        Symbol::of_seat(self.session.players().len(), seat)
    }

    /// The seat whose eggs are on screen and who may act now.
    fn actor(&self) -> Option<Seat> {
        if self.reveal.is_some() {
            return None;
        }
        self.session
            .viewer()
            .filter(|s| self.session.to_act().contains(s))
    }

    fn clear_selection(&mut self) {
        self.selected = None;
        self.path.clear();
        self.declare_after = false;
    }

    /// The legal moves of the picked-up egg whose landings start with the chain so far.
    fn continuing_moves(&self, seat: Seat) -> Vec<OvoAction> {
        let Some(from) = self.selected else {
            return Vec::new();
        };
        self.desk(seat)
            .map(|d| d.moves_from(from))
            .unwrap_or_default()
            .into_iter()
            .filter(|m| {
                let l = m.landings();
                l.len() > self.path.len() && l.starts_with(&self.path)
            })
            .collect()
    }

    /// The whole chain to `cell` when `cell` is not the next landing but the end of a
    /// longer chain that reaches it along exactly one path (one tap plays it all).
    fn direct_move(&self, seat: Seat, cell: Cell) -> Option<OvoAction> {
        let n = self.path.len();
        let moves = self.continuing_moves(seat);
        if moves.iter().any(|m| m.landings().get(n) == Some(&cell)) {
            return None;
        }
        let mut ends = moves
            .into_iter()
            .filter(|m| m.landings().len() > n + 1 && m.landings().last() == Some(&cell));
        let first = ends.next()?;
        ends.next().is_none().then_some(first)
    }

    /// The move that stops the chain where it is now, if that is legal.
    fn move_so_far(&self, seat: Seat) -> Option<OvoAction> {
        let from = self.selected?;
        if self.path.is_empty() {
            return None;
        }
        self.desk(seat)?
            .moves_from(from)
            .into_iter()
            .find(|m| m.landings() == self.path)
    }

    /// The peek at the picked-up egg, if the rules allow it.
    fn peek_action(&self, seat: Seat) -> Option<OvoAction> {
        let cell = self.selected?;
        if !self.path.is_empty() {
            return None;
        }
        let peek = OvoAction::Peek { cell, ovo: false };
        self.desk(seat)?.is_legal(&peek).then_some(peek)
    }

    fn legal(&self, seat: Seat, action: &OvoAction) -> bool {
        self.desk(seat).is_some_and(|d| d.is_legal(action))
    }

    /// A tap on cell `index` (a1 = 0, … f6 = 35).
    pub fn tap(&mut self, index: usize, language: &str) -> Note {
        let seat = self.actor()?;
        let cell = Cell::from_index(index)?;
        self.confirming_ovo = false;
        if self.selected.is_some() {
            if self.selected == Some(cell) && self.path.is_empty() {
                self.clear_selection();
                return None;
            }
            let next: Vec<OvoAction> = self
                .continuing_moves(seat)
                .into_iter()
                .filter(|m| m.landings().get(self.path.len()) == Some(&cell))
                .collect();
            if !next.is_empty() {
                self.path.push(cell);
                let goes_on = !self.continuing_moves(seat).is_empty();
                if goes_on {
                    let cell = cell.to_string();
                    return Some((say(language, OvoText::LandedOn { cell }), false));
                }
                return self.stop(language);
            }
            if let Some(whole) = self.direct_move(seat, cell) {
                self.path = whole.landings();
                return self.stop(language);
            }
            if !self.path.is_empty() {
                self.clear_selection();
                return Some((say(language, OvoText::ChainCancelled), false));
            }
        }
        self.pick(seat, cell, language)
    }

    /// Picks up the egg on `cell`, or says why it cannot be.
    fn pick(&mut self, seat: Seat, cell: Cell, language: &str) -> Note {
        let view = self.session.view(seat)?;
        let movable = self
            .desk(seat)
            .is_some_and(|d| !d.moves_from(cell).is_empty());
        let peekable = self.legal(seat, &OvoAction::Peek { cell, ovo: false });
        if movable || peekable {
            self.clear_selection();
            self.selected = Some(cell);
            return None;
        }
        let had = self.selected.take().is_some();
        self.path.clear();
        let reason = match view.cell(cell) {
            CellView::Empty if had => return None,
            CellView::Empty => OvoText::EmptyCell {
                cell: cell.to_string(),
            },
            CellView::Visible { seat: owner, .. } if owner != seat => OvoText::NotYourEgg {
                owner: self.name(owner),
            },
            _ if view.no_move_back && view.last == Some(cell) => OvoText::MovedLast,
            _ => OvoText::NowhereToGo {
                cell: cell.to_string(),
            },
        };
        let reason = say(language, reason);
        Some((reason, true))
    }

    /// Ends the chain where it is (or makes the step) and plays it.
    pub fn stop(&mut self, language: &str) -> Note {
        let seat = self.actor()?;
        let Some(action) = self.move_so_far(seat) else {
            return Some((say(language, OvoText::PickFirst), true));
        };
        self.play(seat, action, language)
    }

    /// Peeks at the picked-up hidden egg.
    pub fn peek(&mut self, language: &str) -> Note {
        let seat = self.actor()?;
        match self.peek_action(seat) {
            Some(action) => self.play(seat, action, language),
            None => Some((say(language, OvoText::OnlyHidden), true)),
        }
    }

    /// Passes, when the rules core says it is the only thing left.
    pub fn pass(&mut self, language: &str) -> Note {
        let seat = self.actor()?;
        if !self.legal(seat, &OvoAction::Pass) {
            return Some((say(language, OvoText::MayNotPass), true));
        }
        self.play(seat, OvoAction::Pass, language)
    }

    /// Declares "Ovo!" as the whole turn (after the confirmation).
    pub fn declare(&mut self, language: &str) -> Note {
        let seat = self.actor()?;
        self.confirming_ovo = false;
        self.play(seat, OvoAction::Ovo, language)
    }

    /// The peeker has seen the symbol: forget it, and let the cover rise.
    pub fn got_it(&mut self) {
        self.reveal = None;
    }

    /// Starts the flight of the egg `action` moved (a person's move or the app's alike);
    /// `before` is how its cell looked to everyone before the move.
    fn fly(&mut self, action: &OvoAction, before: Option<CellView>, happened: &Happened) {
        let (Some((path, jump)), Happened::Moved { flipped, .. }) = (move_path(action), happened)
        else {
            return;
        };
        let (hidden, color, symbol) = match before {
            Some(CellView::Visible { seat, symbol }) => (
                false,
                self.session
                    .players()
                    .get(seat)
                    .map_or(0, |p| p.color as i32),
                symbol_char(symbol),
            ),
            _ => (true, 0, ""),
        };
        self.flight = Some(Flight {
            path,
            hidden,
            color,
            symbol,
            flip: *flipped,
            jump,
        });
        self.flight_pending.set(true);
    }

    fn play(&mut self, seat: Seat, action: OvoAction, language: &str) -> Note {
        let action = if self.declare_after {
            action.with_ovo()
        } else {
            action
        };
        // What the moving egg looked like to everyone before the move.
        let before = move_path(&action)
            .and_then(|(path, _)| path.first().copied())
            .and_then(|from| self.session.view(seat).map(|v| v.cell(from)));
        match self.session.act(seat, &action) {
            Ok(event) => {
                self.fly(&action, before, &event.happened);
                self.clear_selection();
                self.confirming_ovo = false;
                if let Happened::Peeked {
                    cell,
                    symbol: Some(symbol),
                } = event.happened
                {
                    self.reveal = Some(PeekReveal { seat, cell, symbol });
                }
                Some((self.describe(&event, &action, language), false))
            }
            Err(e) => Some((super::refusals::say(&e, language), true)),
        }
    }

    /// The name of the player at `seat`.
    fn name(&self, seat: Seat) -> String {
        self.session
            .players()
            .get(seat)
            .map(|p| p.name.clone())
            .unwrap_or_default()
    }

    /// What happened, for everyone (never a peeked symbol).
    fn describe(&self, event: &OvoEvent, action: &OvoAction, language: &str) -> String {
        let who = self.name(event.seat);
        let mut text = match &event.happened {
            Happened::Moved { flipped, .. } => {
                // The declaration is said in words below, not as the notation's " ovo".
                // In words, not notation: a screen reader says "b1 to b2", not "b1 dash b2".
                let name = who.clone();
                let s = match strip_ovo(action) {
                    OvoAction::Step { from, to, .. } => OvoText::Moved {
                        name,
                        from: from.to_string(),
                        to: to.to_string(),
                    },
                    OvoAction::Jump { from, landings, .. } => {
                        let mut path = landings.iter().map(|c| c.to_string());
                        let first = path.next().unwrap_or_default();
                        let path = path.fold(first, |before, after| {
                            say(language, OvoText::Then { before, after })
                        });
                        OvoText::Jumped {
                            name,
                            from: from.to_string(),
                            path,
                        }
                    }
                    other => OvoText::Played {
                        name,
                        action: other.to_string(),
                    },
                };
                let s = say(language, s);
                if *flipped {
                    say(language, OvoText::Flipped { what: s })
                } else {
                    s
                }
            }
            Happened::Peeked { cell, .. } => say(
                language,
                OvoText::Peeked {
                    name: who.clone(),
                    cell: cell.to_string(),
                },
            ),
            Happened::Passed => say(language, OvoText::Passed { name: who.clone() }),
            Happened::Nothing => String::new(),
        };
        if let Some(d) = &event.declaration {
            if !text.is_empty() {
                text.push_str(". ");
            }
            let name = who;
            text.push_str(&say(
                language,
                if d.correct {
                    OvoText::DeclaredRight { name }
                } else if d.seat_out {
                    OvoText::DeclaredOut { name }
                } else {
                    OvoText::DeclaredWrong { name }
                },
            ));
        }
        text
    }

    fn cells(&self, language: &str) -> Vec<OvoCell> {
        let over = self.session.outcome().is_over();
        // While playing, only the seat holding the device; after the game every egg is
        // public, and the rules core's public view reveals them.
        let view = if over {
            Some(self.session.public())
        } else if matches!(
            self.session.gate(),
            crate::session::Gate::Closed | crate::session::Gate::Covered(_)
        ) {
            // The app is thinking, or the device changes hands: the public board stays;
            // nothing can be picked up (no actor). Under the cover the board is not
            // drawn but stays in the accessibility tree, so that its cells keep their
            // identity for a screen reader (rows removed and made again come back under
            // recycled ids that Orca 43 holds for defunct).
            Some(self.session.public())
        } else {
            self.session.viewer().and_then(|s| self.session.view(s))
        };
        let Some(view) = view else {
            return Vec::new();
        };
        let actor = self.actor();
        let mut step_targets = Vec::new();
        let mut jump_targets = Vec::new();
        if let Some(seat) = actor {
            for m in self.continuing_moves(seat) {
                if let Some(c) = m.landings().get(self.path.len()) {
                    match m {
                        OvoAction::Step { .. } => step_targets.push(*c),
                        _ => jump_targets.push(*c),
                    }
                }
            }
        }
        let players = self.session.players();
        let color = |s: Seat| players.get(s).map_or(0, |p| p.color as i32);
        let name = |s: Seat| players.get(s).map(|p| p.name.clone()).unwrap_or_default();
        let look = |cell: Cell| match view.cell(cell) {
            CellView::Empty => (0, 0, "", say(language, OvoText::Empty)),
            CellView::Hidden => (2, 0, "", say(language, OvoText::HiddenEgg)),
            CellView::Visible { seat, symbol } => (
                1,
                color(seat),
                symbol_char(symbol),
                say(
                    language,
                    OvoText::Egg {
                        name: name(seat),
                        symbol: symbol_word(symbol, language),
                    },
                ),
            ),
            CellView::Revealed { seat, symbol } => (
                3,
                color(seat),
                symbol_char(symbol),
                say(
                    language,
                    OvoText::EggWasHidden {
                        name: name(seat),
                        symbol: symbol_word(symbol, language),
                    },
                ),
            ),
        };
        // Where the picked-up egg would stand if the chain stopped now: drawn faintly.
        let ghost_cell = self.path.last().copied();
        let moving = self.selected.map(look);
        Cell::all()
            .map(|cell| {
                let camp = (0..view.players).find(|&s| camp(view.players, s).contains(&cell));
                let (mut kind, mut egg_color, mut symbol, mut label) = look(cell);
                let ghost = ghost_cell == Some(cell);
                if let (true, Some((k, c, s, _))) = (ghost, &moving) {
                    (kind, egg_color, symbol) = (*k, *c, *s);
                    label = say(language, OvoText::ChainHere { label });
                }
                let direct = actor.is_some_and(|seat| {
                    self.selected.is_some() && self.direct_move(seat, cell).is_some()
                });
                let target = if step_targets.contains(&cell) {
                    label = say(language, OvoText::Landing { label });
                    1
                } else if jump_targets.contains(&cell) {
                    label = say(language, OvoText::JumpLanding { label });
                    2
                } else if direct {
                    label = say(language, OvoText::ChainEnd { label });
                    3
                } else {
                    0
                };
                let selected = self.selected == Some(cell) && !over;
                if selected {
                    label = say(language, OvoText::PickedUp { label });
                }
                // Marked only when the rule is on: then it says why the egg cannot move.
                let last = view.no_move_back && view.last == Some(cell) && !over && kind != 0;
                if last {
                    label = say(language, OvoText::MovedLastTurn { label });
                }
                if let Some(owner) = camp {
                    let owner = name(owner);
                    label = say(language, OvoText::Camp { label, owner });
                }
                let path_step = self
                    .path
                    .iter()
                    .position(|c| *c == cell)
                    .map_or(0, |i| i as i32 + 1);
                OvoCell {
                    label: format!("{cell}, {label}").into(),
                    kind,
                    color: egg_color,
                    symbol: symbol.into(),
                    camp_color: camp.map_or(-1, color),
                    target,
                    selected,
                    path_step,
                    last,
                    ghost,
                    answer: false,
                }
            })
            .collect()
    }

    fn hint(&self, language: &str) -> String {
        if self.session.outcome().is_over() {
            return say(language, OvoText::GameOver);
        }
        let Some(seat) = self.actor() else {
            return String::new();
        };
        let symbol = self.symbol(seat).map_or("", symbol_char).to_string();
        let hint = match self.selected {
            None => OvoText::TapYourEgg { symbol },
            Some(_) if !self.path.is_empty() => OvoText::TapRing,
            Some(cell) => {
                let lit = !self.continuing_moves(seat).is_empty();
                let cell = cell.to_string();
                match (lit, self.peek_action(seat).is_some()) {
                    (true, true) => OvoText::TapLitOrPeek { cell },
                    (true, false) => OvoText::TapLit,
                    _ => OvoText::MayPeekOnly { cell },
                }
            }
        };
        say(language, hint)
    }
}

/// The cells a move passes through (its egg's cell, then every landing) and whether it
/// jumps; `None` for a peek, «Ovo!» or a pass.
fn move_path(action: &OvoAction) -> Option<(Vec<Cell>, bool)> {
    match action {
        OvoAction::Step { from, to, .. } => Some((vec![*from, *to], false)),
        OvoAction::Jump { from, landings, .. } => {
            let mut path = vec![*from];
            path.extend(landings.iter().copied());
            Some((path, true))
        }
        _ => None,
    }
}

/// The same move without the declaration (for saying it in words).
fn strip_ovo(action: &OvoAction) -> OvoAction {
    let mut a = action.clone();
    match &mut a {
        OvoAction::Step { ovo, .. } | OvoAction::Jump { ovo, .. } | OvoAction::Peek { ovo, .. } => {
            *ovo = false
        }
        OvoAction::Ovo | OvoAction::Pass => {}
    }
    a
}

/// Connects the Ovo board's callbacks to the table on screen.
pub fn wire(app: &AppWindow, controller: &Rc<RefCell<Controller>>) {
    let bridge = app.global::<OvoBridge>();
    macro_rules! on {
        ($setter:ident, |$table:ident, $lang:ident $(, $arg:ident : $ty:ty)*| $body:expr) => {{
            let weak = app.as_weak();
            let controller = controller.clone();
            bridge.$setter(move |$($arg: $ty),*| {
                if let Some(app) = weak.upgrade() {
                    play::with_table::<OvoTable>(&app, &controller, |$table, $lang| $body);
                }
            });
        }};
    }
    on!(on_tap, |table, lang, index: i32| table
        .tap(usize::try_from(index).unwrap_or(usize::MAX), lang));
    on!(on_peek, |table, lang| table.peek(lang));
    on!(on_stop, |table, lang| table.stop(lang));
    on!(on_pass, |table, lang| table.pass(lang));
    on!(on_declare_ovo, |table, lang| table.declare(lang));
    on!(on_cancel, |table, _lang| {
        table.clear_selection();
        None
    });
    on!(on_ask_ovo, |table, _lang| {
        table.clear_selection();
        table.confirming_ovo = table.actor().is_some();
        None
    });
    on!(on_cancel_ovo, |table, _lang| {
        table.confirming_ovo = false;
        None
    });
    on!(on_set_declare_after, |table, _lang, on: bool| {
        table.declare_after = on && table.selected.is_some();
        None
    });
    {
        // "Got it" keeps the message line (what the peeker did) for the next player.
        let weak = app.as_weak();
        let controller = controller.clone();
        bridge.on_got_it(move || {
            let Some(app) = weak.upgrade() else {
                return;
            };
            let mut guard = controller.borrow_mut();
            let language = guard.language();
            if let Some(table) = guard
                .table
                .as_mut()
                .and_then(|t| t.as_any_mut().downcast_mut::<OvoTable>())
            {
                table.got_it();
                play::Table::show(&*table, &app, language);
            }
        });
    }
    {
        // The same players and settings again; the shell starts it (cover first).
        let weak = app.as_weak();
        bridge.on_new_game(move || {
            if let Some(app) = weak.upgrade() {
                app.invoke_start_game();
            }
        });
    }
}
