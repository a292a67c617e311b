//! Omiga on screen, face to face: one table in the middle, White's hand at the bottom edge,
//! Black's at the top edge turned towards Black. Both seats act at once; each keeps its own
//! selection here. No rule is decided in this file: legal cells, refusals, wins and draws
//! all come from the rules core through the session.

#[cfg(feature = "devtools")]
mod demo;

#[cfg(feature = "devtools")]
pub use demo::{stage_behind, stage_end, stage_midgame};

use super::omiga_models::{
    board_cells, card_label, card_parts, fits_nowhere, hand_models, say, side_word,
};
use super::play;
use super::rows;
use super::texts::OmigaText;
use super::{AppWindow, Controller, OmigaBridge, OmigaCardUi, OmigaHandUi};
use crate::games::omiga::{Action, Card, Omiga, OmigaEvent, OmigaView};
use crate::games::{Outcome, Params, RuleResult, Seat};
use crate::platform::time::{Duration, Instant};
use crate::session::{Match, Player, Sharing};
use slint::{ComponentHandle, SharedString};
use std::cell::RefCell;
use std::rc::Rc;

/// Seconds of "Ready?" before play starts.
pub const COUNTDOWN: i32 = 3;

/// A running Omiga game and what each side has picked up.
pub struct OmigaTable {
    session: Match<Omiga>,
    /// The selected hand card of each side (index into that side's hand).
    selected: [Option<usize>; 2],
    /// Whether each side's selected card is turned 180°.
    turned: [bool; 2],
    /// The last line shown near each player, and whether it is a warning.
    notes: [(String, bool); 2],
    /// Seconds left before play starts (0: playing).
    countdown: i32,
    /// The last card laid, for a soft highlight.
    last: Option<(u8, u8)>,
    /// The last pointer tap on a hand card (seat, index, when): Slint may deliver one
    /// finger's tap twice when two fingers overlap (docs/omiga-touch.md).
    last_pointer_tap: Option<(Seat, usize, Instant)>,
}

/// A second pointer tap on the same hand card sooner than this is Slint's repeat.
const REPEAT_GUARD: Duration = Duration::from_millis(250);

impl OmigaTable {
    /// Starts a face-to-face game from setup parameters (`table`, `allow_rotation`,
    /// `free_discard`; a `seed` is added when none is given).
    pub fn start(params: Params, players: Vec<Player>) -> RuleResult<Self> {
        let params = if params.get("seed").is_none() && params.get("white").is_none() {
            params.with("seed", fresh_seed())
        } else {
            params
        };
        let session = Match::start(params, players, Sharing::FaceToFace)?;
        Ok(Self::from_match(session))
    }

    /// A table around an existing match (a resumed save, a replay).
    pub fn from_match(session: Match<Omiga>) -> Self {
        OmigaTable {
            session,
            selected: [None, None],
            turned: [false, false],
            notes: Default::default(),
            countdown: COUNTDOWN,
            last: None,
            last_pointer_tap: None,
        }
    }

    /// The match (read-only).
    pub fn session(&self) -> &Match<Omiga> {
        &self.session
    }

    /// Skips the countdown.
    pub fn skip_countdown(&mut self) {
        self.countdown = 0;
    }

    /// One second of the countdown passed.
    pub fn tick(&mut self) {
        self.countdown = (self.countdown - 1).max(0);
    }

    /// A cell where `seat`'s selected card may go now, if any (the frame bench's move).
    pub fn a_legal_cell(&self, seat: Seat) -> Option<(u8, u8)> {
        let card = self.selected_card(seat)?;
        let turned = self.turned.get(seat).copied().unwrap_or(false);
        let cells = self.session.desk(seat)?.legal_cells(card, turned);
        cells.first().copied()
    }

    fn playing(&self) -> bool {
        self.countdown == 0 && !self.session.outcome().is_over()
    }

    /// `seat`'s hand as the gate lets the screen show it (never the app's: the gate
    /// opens no desk for a seat this device does not play).
    fn hand(&self, seat: Seat) -> Vec<Card> {
        self.session.view(seat).map(|v| v.hand).unwrap_or_default()
    }

    fn selected_card(&self, seat: Seat) -> Option<Card> {
        let i = self.selected.get(seat).copied().flatten()?;
        self.hand(seat).get(i).copied()
    }

    fn note(&mut self, seat: Seat, text: String, warning: bool) {
        if let Some(n) = self.notes.get_mut(seat) {
            *n = (text, warning);
        }
    }

    /// A finger's (or mouse's) tap on a hand card: as [`Self::tap_hand`], but a repeat on
    /// the same card within 250 ms is Slint's two-finger artefact and is ignored.
    pub fn tap_hand_pointer(
        &mut self,
        seat: Seat,
        index: usize,
        language: &str,
    ) -> Result<(), String> {
        let now = Instant::now();
        let repeat = self.last_pointer_tap.is_some_and(|(s, i, t)| {
            s == seat && i == index && now.duration_since(t) < REPEAT_GUARD
        });
        self.last_pointer_tap = Some((seat, index, now));
        if repeat {
            return Ok(());
        }
        self.tap_hand(seat, index, language)
    }

    /// Whether `seat` may act from this device now (a seat of the game, a person's, the
    /// game under way); else why not, in words.
    fn may_act(&self, seat: Seat, language: &str) -> Result<(), String> {
        if seat > 1 {
            return Err(no_seat(seat, language));
        }
        if self.session.is_bot(seat) {
            return Err(say(language, OmigaText::AppPlaysSide));
        }
        if !self.playing() {
            return Err(self.not_now(language));
        }
        Ok(())
    }

    /// A tap on a card of `seat`'s hand: select it, or turn it when it is already selected.
    pub fn tap_hand(&mut self, seat: Seat, index: usize, language: &str) -> Result<(), String> {
        self.may_act(seat, language)?;
        if index >= self.hand(seat).len() {
            return Err(say(language, OmigaText::CardGone));
        }
        if self.selected[seat] == Some(index) {
            if self.session.allow_rotation() {
                self.turned[seat] = !self.turned[seat];
            } else {
                self.selected[seat] = None;
            }
        } else {
            self.selected[seat] = Some(index);
            self.turned[seat] = false;
        }
        self.note(seat, String::new(), false);
        Ok(())
    }

    /// Which side a tap on `x,y` places for: the only side holding a card; with both, the
    /// side for which the core finds the cell legal; if both or neither, the side whose
    /// half of the table the cell is in.
    fn placer_for(&self, x: i32, y: i32) -> Option<Seat> {
        let holding: Vec<Seat> = (0..2)
            .filter(|s| self.selected_card(*s).is_some())
            .collect();
        match holding.as_slice() {
            [] => None,
            [s] => Some(*s),
            _ => {
                let fits = |s: Seat| {
                    let card = self.selected_card(s);
                    let desk = self.session.desk(s);
                    card.zip(desk)
                        .is_some_and(|(c, d)| d.check_place(c, self.turned[s], x, y).is_ok())
                };
                match (fits(0), fits(1)) {
                    (true, false) => Some(0),
                    (false, true) => Some(1),
                    _ => {
                        let h = i32::from(self.session.board().height());
                        Some(if y < h / 2 { 0 } else { 1 })
                    }
                }
            }
        }
    }

    /// A tap on the cell `x,y`: lays the selected card of the side it belongs to.
    pub fn tap_cell(&mut self, x: i32, y: i32, language: &str) -> Result<(), String> {
        if !self.playing() {
            return Err(self.not_now(language));
        }
        let Some(seat) = self.placer_for(x, y) else {
            return Err(say(language, OmigaText::PickFirst));
        };
        let Some(card) = self.selected_card(seat) else {
            return Err(say(language, OmigaText::CardGone));
        };
        let action = Action::Place {
            card,
            rotated: self.turned[seat],
            x,
            y,
        };
        match self.session.act(seat, &action) {
            Ok(_) => {
                self.selected[seat] = None;
                self.turned[seat] = false;
                self.last = u8::try_from(x).ok().zip(u8::try_from(y).ok());
                self.note(seat, String::new(), false);
                self.keep_other_selection(1 - seat);
                Ok(())
            }
            Err(e) => {
                let reason = super::refusals::say(&e, language);
                self.note(seat, reason.clone(), true);
                Err(reason)
            }
        }
    }

    /// The other side's hand did not change, but guard its index anyway.
    fn keep_other_selection(&mut self, seat: Seat) {
        if let Some(i) = self.selected[seat] {
            if i >= self.hand(seat).len() {
                self.selected[seat] = None;
                self.turned[seat] = false;
            }
        }
    }

    /// `seat` discards its hand (the core says whether that is allowed now).
    pub fn discard(&mut self, seat: Seat, language: &str) -> Result<(), String> {
        self.may_act(seat, language)?;
        match self.session.act(seat, &Action::Discard) {
            Ok(_) => {
                self.selected[seat] = None;
                self.turned[seat] = false;
                self.note(seat, say(language, OmigaText::NewHand), false);
                Ok(())
            }
            Err(e) => {
                let reason = super::refusals::say(&e, language);
                self.note(seat, reason.clone(), true);
                Err(reason)
            }
        }
    }

    /// A new game with the same settings and players (a new shuffle).
    pub fn rematch(&mut self) -> RuleResult<()> {
        let params = self.session.params().clone().with("seed", fresh_seed());
        let players = self.session.players().to_vec();
        *self = Self::start(params, players)?;
        Ok(())
    }

    fn not_now(&self, language: &str) -> String {
        say(
            language,
            if self.session.outcome().is_over() {
                OmigaText::GameOver
            } else {
                OmigaText::WaitCountdown
            },
        )
    }

    /// The legal cells of `seat`'s selected card, from the rules core.
    fn legal(&self, seat: Seat) -> Vec<(u8, u8)> {
        if !self.playing() {
            return Vec::new();
        }
        match (self.selected_card(seat), self.session.desk(seat)) {
            (Some(card), Some(desk)) => desk.legal_cells(card, self.turned[seat]),
            _ => Vec::new(),
        }
    }

    fn result_text(&self, language: &str) -> String {
        let players = self.session.players();
        let name = |s: usize| players.get(s).map(|p| p.name.clone()).unwrap_or_default();
        match self.session.outcome() {
            Outcome::Win { seat } => say(language, OmigaText::Wins { name: name(seat) }),
            Outcome::Draw => say(language, OmigaText::Draw),
            Outcome::SharedWin { .. } | Outcome::Ongoing => String::new(),
        }
    }

    fn hand_models(&self, seat: Seat, language: &str) -> Vec<OmigaHandUi> {
        if self.session.is_bot(seat) {
            // The app's hand: only how many cards, face down.
            let whose = side_word(seat, language);
            let n = self.session.public().hand_sizes[seat.min(1)];
            return (0..n)
                .map(|i| OmigaHandUi {
                    card: OmigaCardUi::default(),
                    selected: false,
                    turned: false,
                    label: card_label(&whose, i, n, &say(language, OmigaText::FaceDown), language)
                        .into(),
                    back: true,
                })
                .collect();
        }
        let hand = self.hand(seat);
        let nowhere = match self.session.desk(seat) {
            Some(desk) if self.playing() => fits_nowhere(&hand, &desk.legal_actions()),
            _ => Vec::new(),
        };
        hand_models(
            seat,
            &hand,
            self.selected[seat],
            self.turned[seat],
            &nowhere,
            language,
        )
    }
}

impl play::GameScreen for OmigaTable {
    type Game = Omiga;
    const TITLE: &'static str = "Omiga";
    const PACED: bool = true;

    fn game_match(&self) -> &Match<Omiga> {
        &self.session
    }

    fn game_match_mut(&mut self) -> &mut Match<Omiga> {
        &mut self.session
    }

    fn app_may_act(&self) -> bool {
        self.playing()
    }

    fn countdown(&self) -> u8 {
        self.countdown.clamp(0, 255) as u8
    }

    fn paused(&mut self) {
        // Both players come back to a "Ready?" countdown, not to a table already running.
        if !self.session.outcome().is_over() {
            self.countdown = COUNTDOWN;
        }
    }
    fn draw(&self, app: &AppWindow, language: &str) {
        let bridge = app.global::<OmigaBridge>();
        let board = self.session.board();
        let public = self.session.public();
        let (w, h) = (board.width(), board.height());
        let legal = [self.legal(0), self.legal(1)];
        let winner = match self.session.outcome() {
            Outcome::Win { seat } => Some(seat),
            _ => None,
        };
        let cells = board_cells(
            (w, h),
            |x, y| board.get(x.into(), y.into()).map(|p| (p.side, p.card)),
            [&legal[0], &legal[1]],
            self.last,
            winner.is_some(),
            None,
            false,
            language,
        );
        bridge.set_columns(w.into());
        bridge.set_rows(h.into());
        rows::update_rows(bridge.get_cells(), cells, |m| bridge.set_cells(m));
        // The card laid last, in words, for a screen reader (the table is public).
        if let Some((x, y)) = self.last {
            if let Some(p) = board.get(x.into(), y.into()) {
                let name = self
                    .session
                    .players()
                    .get(p.side.seat())
                    .map(|p| p.name.clone())
                    .unwrap_or_default();
                let placed = OmigaText::PlacedAt {
                    name,
                    x: x.to_string(),
                    y: y.to_string(),
                    card: card_parts(p.card, language),
                };
                super::access::announce(app, &say(language, placed));
            }
        }
        let players = self.session.players();
        for seat in 0..2 {
            let hand = self.hand_models(seat, language);
            let name: SharedString = players
                .get(seat)
                .map(|p| p.name.clone())
                .unwrap_or_default()
                .into();
            let color = players.get(seat).map_or(seat as i32, |p| p.color as i32);
            let deck = say(
                language,
                OmigaText::InDeck {
                    n: public.deck_counts[seat],
                },
            );
            let can_discard =
                self.playing() && self.session.view(seat).is_some_and(|v| v.can_discard);
            let (note, warn) = self.notes[seat].clone();
            let hand_label = say(
                language,
                OmigaText::Hand {
                    name: name.to_string(),
                },
            );
            if seat == 0 {
                rows::update_rows(bridge.get_white_hand(), hand, |m| bridge.set_white_hand(m));
                bridge.set_white_name(name);
                bridge.set_white_color(color);
                bridge.set_white_deck(deck.into());
                bridge.set_white_can_discard(can_discard);
                bridge.set_white_note(note.into());
                bridge.set_white_note_warning(warn);
                bridge.set_white_hand_label(hand_label.into());
            } else {
                rows::update_rows(bridge.get_black_hand(), hand, |m| bridge.set_black_hand(m));
                bridge.set_black_name(name);
                bridge.set_black_color(color);
                bridge.set_black_deck(deck.into());
                bridge.set_black_can_discard(can_discard);
                bridge.set_black_note(note.into());
                bridge.set_black_note_warning(warn);
                bridge.set_black_hand_label(hand_label.into());
            }
        }
        bridge.set_can_turn(public.allow_rotation);
        bridge.set_countdown(if self.session.outcome().is_over() {
            0
        } else {
            self.countdown
        });
        bridge.set_over(self.session.outcome().is_over());
        bridge.set_result(self.result_text(language).into());
        bridge.set_remote(false);
        bridge.set_near_seat(0);
        bridge.set_paused("".into());
    }

    fn app_played(
        &mut self,
        seat: Seat,
        action: Action,
        _event: OmigaEvent,
        _before: OmigaView,
        language: &str,
    ) -> play::Note {
        let name = self
            .session
            .players()
            .get(seat)
            .map(|p| p.name.clone())
            .unwrap_or_default();
        let text = match action {
            Action::Place { card, x, y, .. } => {
                self.last = u8::try_from(x).ok().zip(u8::try_from(y).ok());
                let placed = OmigaText::Placed {
                    name,
                    card: card_parts(card, language),
                    x: x.to_string(),
                    y: y.to_string(),
                };
                say(language, placed)
            }
            Action::Discard => say(language, OmigaText::DrewNewHand { name }),
        };
        // Said once, in the message line (it wraps; the note line does not).
        self.note(seat, String::new(), false);
        self.keep_other_selection(1 - seat.min(1));
        Some((text, false))
    }

    fn cancel(&mut self) {
        self.selected = [None, None];
        self.turned = [false, false];
    }
}

/// A seed for a new shuffle (the rules core is deterministic from it).
fn fresh_seed() -> u64 {
    crate::platform::time::unix_nanos().max(1)
}

/// The refusal for a seat that is neither White nor Black, in the app's language.
fn no_seat(seat: Seat, language: &str) -> String {
    use crate::games::{omiga::OmigaError, RuleError};
    super::refusals::say(&RuleError::Omiga(OmigaError::NoSeat { seat }), language)
}

/// Registers the Omiga bridge's callbacks.
pub fn wire(app: &AppWindow, controller: &Rc<RefCell<Controller>>) {
    let bridge = app.global::<OmigaBridge>();
    // A networked game (src/ui/lan/) takes the taps when one is on screen.
    macro_rules! on {
        ($setter:ident, $lan:expr, |$t:ident, $lang:ident $(, $arg:ident : $ty:ty)*| $body:expr) => {{
            let weak = app.as_weak();
            let controller = controller.clone();
            bridge.$setter(move |$($arg: $ty),*| {
                if let Some(app) = weak.upgrade() {
                    let routed = {
                        let mut c = controller.borrow_mut();
                        super::lan::route(&app, &mut c, $lan)
                    };
                    if routed.is_none() {
                        play::with_table::<OmigaTable>(&app, &controller, |$t, $lang| {
                            play::refused($body)
                        });
                    }
                }
            });
        }};
    }
    on!(
        on_tap_hand,
        super::lan::Tap::Hand(index.max(0) as usize),
        |t, lang, seat: i32, index: i32, pointer: bool| {
            let (seat, index) = (seat.max(0) as usize, index.max(0) as usize);
            if pointer {
                t.tap_hand_pointer(seat, index, lang)
            } else {
                t.tap_hand(seat, index, lang)
            }
        }
    );
    on!(
        on_tap_cell,
        super::lan::Tap::Cell(x, y),
        |t, lang, x: i32, y: i32| t.tap_cell(x, y, lang)
    );
    on!(
        on_discard,
        super::lan::Tap::Discard,
        |t, lang, seat: i32| t.discard(seat.max(0) as usize, lang)
    );
    on!(on_tick, super::lan::Tap::Tick, |t, _lang| {
        t.tick();
        Ok(())
    });
    on!(on_rematch, super::lan::Tap::Rematch, |t, _lang| t
        .rematch()
        .map_err(|e| e.to_string()));
}

impl OmigaTable {
    /// Plays `rounds` rounds of the first legal placement that does not end the game, for
    /// White then Black (screenshots and tests: a realistic table mid-game), then selects
    /// a card with legal cells for each side. Returns how many placements were made.
    pub fn play_ahead(&mut self, rounds: usize) -> usize {
        self.countdown = 0;
        let mut made = 0;
        for _ in 0..rounds {
            for seat in 0..2 {
                let Some(desk) = self.session.desk(seat) else {
                    continue;
                };
                let quiet = desk.legal_actions().into_iter().find(|a| {
                    matches!(a, Action::Place { .. })
                        && desk.try_action(a).is_ok_and(|e| !e.outcome.is_over())
                });
                if let Some(action) = quiet {
                    if self.session.act(seat, &action).is_ok() {
                        made += 1;
                        if let Action::Place { x, y, .. } = action {
                            self.last = u8::try_from(x).ok().zip(u8::try_from(y).ok());
                        }
                    }
                }
            }
        }
        for seat in 0..2 {
            let hand = self.hand(seat);
            let desk = self.session.desk(seat);
            self.selected[seat] = hand.iter().position(|c| {
                desk.as_ref()
                    .is_some_and(|d| !d.legal_cells(*c, false).is_empty())
            });
            self.turned[seat] = false;
        }
        made
    }
}
