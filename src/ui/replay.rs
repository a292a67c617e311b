//! Stepping through a recorded game (finished, or the one in progress) on its own board:
//! the history screen opens it, and the game's screen shows the public table after each
//! move. Only public state is ever rebuilt (`Match::public_at`): no hand, no peek.

use super::texts::{self, ShellText};
use super::{chrome, tables};
use super::{AppWindow, Controller, GameChrome, Screen};
use crate::games::registry::GameKind;
use crate::session::SavedGame;
use slint::ComponentHandle;
use std::cell::RefCell;
use std::rc::Rc;

/// A recorded game as the history screen opened it.
#[derive(Debug, Clone)]
pub struct Opened {
    /// The game, from its first action.
    pub saved: SavedGame,
    /// "Ovo" / "IOTA" / "Omiga".
    pub title: String,
}

/// The recorded game on screen and how far into it.
pub struct Replay {
    opened: Opened,
    step: usize,
}

/// How the history and the replay show one recorded action: its notation, except for what
/// only its player knew — the cards an IOTA pass returned to the pile ("pass Rc2 Gt1"),
/// which are told by their number only.
pub fn public_move(game: GameKind, line: &str, language: &str) -> String {
    if game == GameKind::Iota {
        if let Some(cards) = line.strip_prefix("pass ") {
            let n = cards.split_whitespace().count();
            return texts::say(&ShellText::ReplayPass { n }, language);
        }
    }
    line.to_string()
}

/// "3. Anna: b1-b2" for the `n`-th action (from 1) of a recorded game.
pub fn move_line(saved: &SavedGame, n: usize, language: &str) -> Option<String> {
    let (seat, line) = saved.actions.get(n.checked_sub(1)?)?;
    let name = saved
        .players
        .get(*seat)
        .map(|p| p.name.as_str())
        .unwrap_or("?");
    // A save names its game; one the app does not know has no table to replay on and
    // nothing private to hide.
    let shown = match saved.game.parse::<GameKind>() {
        Ok(game) => public_move(game, line, language),
        Err(_) => line.clone(),
    };
    Some(format!("{n}. {name}: {shown}"))
}

/// Opens the replay of `opened` after its first `step` moves.
pub fn start(app: &AppWindow, c: &mut Controller, opened: Opened, step: usize) {
    let step = step.min(opened.saved.actions.len());
    c.replay = Some(Replay { opened, step });
    if show(app, c) {
        app.set_screen(Screen::Game);
    }
}

/// Draws the replay's current step; false (with the reason in the log and on screen) if
/// the recorded game no longer replays.
fn show(app: &AppWindow, c: &mut Controller) -> bool {
    let language = c.language();
    let Some(replay) = c.replay.as_ref() else {
        return false;
    };
    let saved = &replay.opened.saved;
    match tables::public_at(saved, replay.step) {
        Ok(table) => {
            table.show(app, language);
            let chrome = app.global::<GameChrome>();
            chrome.set_title(
                texts::say(
                    &ShellText::ReplayTitle {
                        game: replay.opened.title.clone(),
                    },
                    language,
                )
                .into(),
            );
            chrome.set_replaying(true);
            chrome.set_replay_step(replay.step as i32);
            chrome.set_replay_count(saved.actions.len() as i32);
            let said = move_line(saved, replay.step, language)
                .unwrap_or_else(|| texts::say(&ShellText::AsItBegan, language));
            chrome::show_message(app, &said, false);
            true
        }
        Err(e) => {
            crate::note!("the recorded game does not replay: {e}");
            c.replay = None;
            app.global::<GameChrome>().set_replaying(false);
            app.set_history_notice(
                texts::say(&ShellText::CannotReplay { why: e.to_string() }, language).into(),
            );
            false
        }
    }
}

/// Moves through the replay: -2 to the start, -1 back, 1 on, 2 to the end.
fn go(app: &AppWindow, c: &mut Controller, code: i32) {
    let Some(replay) = c.replay.as_mut() else {
        return;
    };
    let count = replay.opened.saved.actions.len();
    replay.step = match code {
        -2 => 0,
        -1 => replay.step.saturating_sub(1),
        1 => (replay.step + 1).min(count),
        _ => count,
    };
    show(app, c);
}

/// Leaves the replay for the history, where the game's moves are still open.
pub fn close(app: &AppWindow, c: &mut Controller) {
    c.replay = None;
    let chrome = app.global::<GameChrome>();
    chrome.set_replaying(false);
    chrome::show_message(app, "", false);
    app.set_screen(Screen::History);
}

/// Connects the replay bar.
pub fn wire(app: &AppWindow, controller: &Rc<RefCell<Controller>>) {
    let chrome = app.global::<GameChrome>();
    {
        let weak = app.as_weak();
        let controller = controller.clone();
        chrome.on_replay_go(move |code| {
            if let Some(app) = weak.upgrade() {
                go(&app, &mut controller.borrow_mut(), code);
            }
        });
    }
    let weak = app.as_weak();
    let controller = controller.clone();
    chrome.on_replay_close(move || {
        if let Some(app) = weak.upgrade() {
            close(&app, &mut controller.borrow_mut());
        }
    });
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_iota_pass_tells_how_many_cards_went_back_but_not_which() {
        assert_eq!(
            public_move(GameKind::Iota, "pass Rc2 Gt1", "en"),
            "pass, 2 cards back to the pile"
        );
        assert_eq!(
            public_move(GameKind::Iota, "pass Rc2", "en"),
            "pass, 1 card back to the pile"
        );
        assert_eq!(public_move(GameKind::Iota, "pass", "en"), "pass");
        assert_eq!(
            public_move(GameKind::Iota, "place Rc2@0,1", "en"),
            "place Rc2@0,1"
        );
        // Ovo and Omiga actions are public as they are.
        assert_eq!(public_move(GameKind::Ovo, "peek c4", "en"), "peek c4");
        assert_eq!(public_move(GameKind::Omiga, "discard", "en"), "discard");
    }
}
