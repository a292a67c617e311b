//! The Ovo table as the generic table drives it (`play::GameScreen`): the view drawn into
//! the Slint models (board, eggs in flight, the peek, the declaration) and the hooks of a
//! hand-off, an undo and an app opponent's turn.

use super::{move_path, say, symbol_char, symbol_index, symbol_word, OvoTable};
use crate::games::ovo::{Ovo, OvoAction, OvoEvent, OvoView};
use crate::games::{Outcome, Seat};
use crate::session::Match;
use crate::ui::play::{self, Note};
use crate::ui::rows;
use crate::ui::texts::OvoText;
use crate::ui::{AppWindow, GameChrome, OvoBridge, OvoSeat};
use slint::{ComponentHandle, ModelRc, VecModel};

impl play::GameScreen for OvoTable {
    type Game = Ovo;
    const TITLE: &'static str = "Ovo";

    fn game_match(&self) -> &Match<Ovo> {
        &self.session
    }

    fn game_match_mut(&mut self) -> &mut Match<Ovo> {
        &mut self.session
    }

    fn app_played(
        &mut self,
        _seat: Seat,
        action: OvoAction,
        event: OvoEvent,
        before: OvoView,
        language: &str,
    ) -> Note {
        // What the moving egg looked like to everyone (public) before the move.
        let from = move_path(&action).and_then(|(path, _)| path.first().copied());
        self.fly(&action, from.map(|c| before.cell(c)), &event.happened);
        Some((self.describe(&event, &action, language), false))
    }

    fn taken_back(&mut self) {
        self.clear_selection();
        self.flight = None;
        self.flight_pending.set(false);
        self.confirming_ovo = false;
    }

    fn draw(&self, app: &AppWindow, language: &str) {
        let game = self.session.public();
        let bridge = app.global::<OvoBridge>();
        let players = self.session.players();
        // In Ovo a seat's mark is its eggs' symbol (2 players: ◆ and ★), so the banner
        // and the cover show that symbol rather than the seat number's.
        let chrome = app.global::<GameChrome>();
        let banner_seat = chrome.get_banner_seat();
        if banner_seat >= 0 {
            if let Some(symbol) = self.symbol(banner_seat as usize) {
                chrome.set_banner_seat(symbol_index(symbol));
            }
        }
        if let Some(reveal) = &self.reveal {
            // The peeker still holds the device: show the symbol before the cover, and
            // the banner names the peeker, not the next player.
            app.set_cover_up(false);
            let peeker = players
                .get(reveal.seat)
                .map(|p| p.name.clone())
                .unwrap_or_default();
            chrome.set_banner(say(language, OvoText::PeekOf { name: peeker }).into());
            if let Some(symbol) = self.symbol(reveal.seat) {
                chrome.set_banner_seat(symbol_index(symbol));
            }
            bridge.set_revealing(true);
            bridge.set_reveal_text(
                say(
                    language,
                    OvoText::PeekResult {
                        cell: reveal.cell.to_string(),
                        symbol: symbol_word(reveal.symbol, language),
                    },
                )
                .into(),
            );
            bridge.set_reveal_symbol(symbol_char(reveal.symbol).into());
            bridge.set_reveal_color(
                players
                    .get(
                        (0..game.players)
                            .find(|&s| self.symbol(s) == Some(reveal.symbol))
                            .unwrap_or(reveal.seat),
                    )
                    .map_or(0, |p| p.color as i32),
            );
            // The board stays (drawn over by the result): it holds nothing private.
            bridge.set_live(false);
            return;
        }
        bridge.set_revealing(false);
        bridge.set_reveal_text("".into());
        bridge.set_reveal_symbol("".into());
        if let Some(seat) = self.session.gate().covered_for() {
            if let Some(symbol) = self.symbol(seat) {
                app.set_cover_seat(symbol_index(symbol));
            }
        }
        rows::update_rows(bridge.get_cells(), self.cells(language), |m| {
            bridge.set_cells(m)
        });
        // The last move flies along its path once, when the board is next on screen.
        let board_shown = self.session.viewer().is_some() || game.outcome.is_over();
        if board_shown && self.flight_pending.replace(false) {
            if let Some(f) = &self.flight {
                let path: Vec<i32> = f.path.iter().map(|c| c.index() as i32).collect();
                bridge.set_anim_path(ModelRc::new(VecModel::from(path)));
                bridge.set_anim_hidden(f.hidden);
                bridge.set_anim_color(f.color);
                bridge.set_anim_symbol(f.symbol.into());
                bridge.set_anim_flip(f.flip);
                bridge.set_anim_seg(if f.jump { 500 } else { 250 });
                bridge.set_anim_step(0);
                bridge.set_anim_active(true);
            }
        }
        let seats: Vec<OvoSeat> = players
            .iter()
            .enumerate()
            .map(|(s, p)| OvoSeat {
                name: p.name.clone().into(),
                color: p.color as i32,
                symbol: self.symbol(s).map_or("", symbol_char).into(),
                out: game.is_out(s),
                to_act: game.outcome == Outcome::Ongoing && game.turn == s,
            })
            .collect();
        rows::update_rows(bridge.get_seats(), seats, |m| bridge.set_seats(m));
        let actor = self.actor();
        bridge.set_live(actor.is_some());
        bridge.set_over(game.outcome.is_over());
        bridge.set_hint(self.hint(language).into());
        bridge.set_has_selection(self.selected.is_some());
        bridge.set_can_peek(actor.is_some_and(|s| self.peek_action(s).is_some()));
        bridge.set_can_stop(actor.is_some_and(|s| self.move_so_far(s).is_some()));
        bridge.set_can_pass(actor.is_some_and(|s| self.legal(s, &OvoAction::Pass)));
        bridge.set_can_declare(actor.is_some_and(|s| self.legal(s, &OvoAction::Ovo)));
        bridge.set_declare_after(self.declare_after);
        bridge.set_confirming_ovo(self.confirming_ovo);
        // The whole game, newest first.
        let log: Vec<slint::SharedString> = self
            .session
            .actions()
            .iter()
            .enumerate()
            .rev()
            .map(|(i, (s, a))| {
                let mark = self.symbol(*s).map_or("", symbol_char);
                let who = players.get(*s).map_or("", |p| p.name.as_str());
                format!("{}. {mark} {who}: {a}", i + 1).into()
            })
            .collect();
        rows::update_rows(bridge.get_log(), log, |m| bridge.set_log(m));
    }
}
