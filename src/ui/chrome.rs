//! The game's frame, the same for every game: the privacy cover filled from the
//! session's gate, the turn banner and the message line under it.

use super::{AppWindow, GameChrome, Words};
use crate::ai::Opponents;
use crate::games::Outcome;
use crate::session::{Gate, Match, SeatKind};
use slint::ComponentHandle;

/// Raises or lowers the cover from the session's gate. While it is up the game beneath
/// is not drawn, and holds nothing private: the bridges fill a hand or a peek result
/// only behind an open gate (the table stays in the accessibility tree, app.slint).
pub fn show_cover<G: Opponents>(app: &AppWindow, session: &Match<G>, hint: &str) {
    match session.gate() {
        Gate::Covered(seat) => {
            let player = &session.players()[seat.min(session.players().len() - 1)];
            app.set_cover_name(player.name.clone().into());
            app.set_cover_seat(seat as i32);
            app.set_cover_color(player.color as i32);
            app.set_cover_hint(hint.into());
            app.set_cover_up(true);
        }
        Gate::Open(_) | Gate::Shared | Gate::Closed => app.set_cover_up(false),
    }
}

/// Sets the banner: whose turn it is, or how the game ended, in the language the window
/// has selected (the words are in ui/words.slint).
pub fn show_banner<G: Opponents>(app: &AppWindow, session: &Match<G>, title: &str) {
    let chrome = app.global::<GameChrome>();
    chrome.set_title(title.into());
    let words = app.global::<Words>();
    let say = |id: &str, arg: &str| words.invoke_banner(id.into(), arg.into()).to_string();
    let players = session.players();
    let name = |s: usize| players.get(s).map(|p| p.name.clone()).unwrap_or_default();
    let (text, seat) = match session.outcome() {
        Outcome::Ongoing => match session.to_act().as_slice() {
            [seat] if players.get(*seat).map(|p| p.kind) == Some(SeatKind::Bot) => {
                (say("thinking", &name(*seat)), Some(*seat))
            }
            [seat] => (say("turn", &name(*seat)), Some(*seat)),
            _ => (say("play", ""), None),
        },
        Outcome::Win { seat } => (say("wins", &name(seat)), Some(seat)),
        Outcome::SharedWin { seats } => {
            let names: Vec<String> = seats.iter().map(|s| name(*s)).collect();
            (say("shared-win", &names.join(", ")), None)
        }
        Outcome::Draw => (say("draw", ""), None),
    };
    // A staged board (a lesson's or a puzzle's other seats are Remote) says its own
    // verdict; a game's end is announced with its last move (`show_message`).
    let staged = players.iter().any(|p| p.kind == SeatKind::Remote);
    let ended = session.outcome().is_over() && !staged;
    chrome.set_end_words(if ended { text.as_str() } else { "" }.into());
    chrome.set_banner(text.into());
    chrome.set_banner_seat(seat.map_or(-1, |s| s as i32));
    chrome.set_banner_color(
        seat.and_then(|s| players.get(s))
            .map_or(0, |p| p.color as i32),
    );
    super::access::news(app);
}

/// Shows a line under the banner (an event, or why an action was refused).
pub fn show_message(app: &AppWindow, text: &str, warning: bool) {
    let chrome = app.global::<GameChrome>();
    chrome.set_message(text.into());
    chrome.set_message_is_warning(warning);
    // Events are public words for everyone at the table; refusals are only for the
    // player who tried, and they hear them in the message line.
    if !warning {
        super::access::announce(app, text);
    }
    // The end is heard with the move that made it, whoever's it was and wherever the
    // reader's focus is: the banner alone reaches a reader only on the focused board.
    let end = chrome.get_end_words();
    if !end.is_empty() {
        let said = app.global::<super::Access>().get_announcement();
        if !said.contains(end.as_str()) {
            let words = if said.is_empty() {
                end.to_string()
            } else {
                super::texts::sentences(&said, &end)
            };
            super::access::announce(app, &words);
        }
    }
    super::access::news(app);
}
