//! A match's life on screen beyond its rules: starting it from setup, saving it after
//! every change, recording it when it ends, resuming it ("Continue"), a damaged save, and
//! undo.

use super::{chrome, tables};
use super::{play, AppWindow, Controller, GameChrome, Screen, Words};
use crate::games::registry::GameKind;
use crate::games::{Params, RuleResult};
use crate::store::saves::{self, BadSave};
use crate::store::Keeping;
use slint::ComponentHandle;
use std::cell::RefCell;
use std::rc::Rc;

/// What the controller remembers about the match on screen.
#[derive(Debug, Default)]
pub struct Life {
    /// When the match is saved and recorded (the save policy, `store::Keeping`).
    keeping: Keeping,
    /// The save that could not be read, while the home screen tells about it.
    bad_save: Option<BadSave>,
}

/// A new match from the setup screen's choices.
pub fn start_table(c: &Controller) -> RuleResult<Box<dyn play::Table>> {
    let language = c.language();
    let mut players = play::players(
        &c.setup.final_names(language),
        &c.setup.colors,
        &c.setup.levels(),
    );
    let v = &c.setup.variants;
    let on_off = |b: bool| if b { "on" } else { "off" };
    match c.setup.game {
        GameKind::Ovo => {
            // docs/rules.md §1: the first seat is chosen at random.
            let first = rand::random_range(0..players.len().max(1));
            super::ovo::OvoTable::new(players, first, v.ovo_no_move_back)
                .map(|t| Box::new(t) as Box<dyn play::Table>)
        }
        GameKind::Iota => super::iota::start(players),
        GameKind::Omiga => {
            // Against the app the person sits at the bottom (White, seat 0).
            if players.first().map(|p| p.kind) == Some(crate::session::SeatKind::Bot) {
                players.reverse();
            }
            let params = Params::new()
                .with("table", v.omiga_table_param())
                .with("allow_rotation", on_off(v.omiga_allow_rotation))
                .with("free_discard", on_off(v.omiga_free_discard));
            super::omiga::OmigaTable::start(params, players)
                .map(|t| Box::new(t) as Box<dyn play::Table>)
        }
    }
}

impl Controller {
    /// A match starts or resumes on screen now.
    pub(crate) fn begin_match(&mut self) {
        self.life.keeping.begin();
    }

    /// After anything happened on the table: save the match if it changed, record it in the
    /// history when it ended, and show what may be taken back.
    pub(crate) fn after_change(&mut self, app: &AppWindow) {
        // The lesson panel goes with a lesson's board, whichever table came on screen.
        let lesson = self.table.as_ref().is_some_and(|t| t.is_lesson());
        app.global::<super::LessonBridge>().set_active(lesson);
        // A lesson judges the try first: a miss puts its board back before it is drawn.
        super::lessons::after_change(app, self);
        // So does a puzzle (src/ui/puzzles/).
        let puzzle = self.table.as_ref().is_some_and(|t| t.is_puzzle());
        app.global::<super::PuzzleBridge>().set_active(puzzle);
        super::puzzles::after_change(app, self);
        super::access::refresh(app);
        // The bridge has drawn the new state: the focused board says what changed.
        super::access::news(app);
        if let Some(problem) = self.save_if_changed() {
            // The player must know before they close the app: the game goes on in memory.
            chrome::show_message(app, &save_problem(app, &problem), true);
        }
        let Some(table) = self.table.as_ref() else {
            self.sound
                .after_change(None, &self.settings, self.kiosk.is_some(), false);
            return;
        };
        let session = table.session();
        // A lesson's step is never taken back (src/ui/lessons.rs).
        let undo = session
            .undo_seat()
            .filter(|_| !table.is_lesson() && !table.is_puzzle())
            .and_then(|seat| session.seat_players().get(seat))
            .map(|p| say(app, "take-back", &p.name));
        let label = undo.unwrap_or_default();
        app.global::<GameChrome>()
            .set_undo_label(label.clone().into());
        app.set_cover_undo_label(label.into());
        // The app's seats act (or start thinking) after every change; in a kiosk's demo
        // game they act on the kiosk's tick instead, at a pace people can follow.
        let demo = self.kiosk.as_ref().is_some_and(|k| k.demo_running());
        if !demo {
            super::bots::kick(app, self);
        }
        // After the kick, so that the app starting to think is heard with the move.
        self.sound.after_change(
            self.table.as_deref(),
            &self.settings,
            self.kiosk.is_some(),
            demo,
        );
    }

    /// Writes the match now, changed or not (the app is leaving the screen).
    pub(crate) fn save_now(&mut self) {
        self.life.keeping.force();
        // Nobody sees the screen now (the app is leaving it): the note is all there is.
        let _ = self.save_if_changed();
    }

    /// Saves the match if it changed since the last save, and records it in the history
    /// when it ended. Returns why the save failed, if it did.
    fn save_if_changed(&mut self) -> Option<std::io::Error> {
        let table = self.table.as_ref()?;
        if table.is_lesson() || table.is_puzzle() {
            // A lesson or a puzzle is not a game: nothing to continue, nothing for the
            // history (a puzzle keeps its result in its own book).
            return None;
        }
        let session = table.session();
        if let Some(kiosk) = self.kiosk.as_mut() {
            // Kiosk games are not kept beyond the running game: no save, no history;
            // only a count per title when staff turned counting on.
            if self.life.keeping.ended_now(session) {
                kiosk.count_finished(self.data_dir.as_deref(), self.setup.game.name());
            }
        } else if let Some(dir) = &self.data_dir {
            if let Err(e) = self.life.keeping.keep(session, dir) {
                crate::note!("the game could not be kept in {}: {e}", dir.display());
                return Some(e);
            }
        }
        None
    }
}

/// A text about saving, resuming or taking back, in the language the window has
/// selected (the words are in ui/words.slint).
fn say(app: &AppWindow, id: &str, arg: &str) -> String {
    app.global::<Words>()
        .invoke_life(id.into(), arg.into())
        .to_string()
}

/// What the player is told when the game could not be saved: a full device (or a full
/// browser storage) in plain words, anything else with the system's reason.
fn save_problem(app: &AppWindow, e: &std::io::Error) -> String {
    if e.kind() == std::io::ErrorKind::StorageFull {
        say(app, "storage-full", "")
    } else {
        say(app, "not-saved", &e.to_string())
    }
}

/// Shows "Continue" on the home screen when a match is saved, and any damaged save notice.
pub fn show_continue(app: &AppWindow, c: &Controller) {
    // A kiosk never offers an earlier group's game.
    let saved = c.kiosk.is_none() && c.data_dir.as_deref().map(saves::exists).unwrap_or(false);
    app.set_can_continue(saved);
    let label = say(app, "continue", "");
    // A screen reader hears which game waits: "Continue the saved game: IOTA, 2 players"
    // (the button shows the short text; a damaged save says no more than that).
    let what = c
        .data_dir
        .as_deref()
        .filter(|_| saved)
        .and_then(saves::peek)
        .and_then(|s| {
            let kind = s.game.parse::<GameKind>().ok()?;
            let count = s.players.len().to_string();
            let players = say(app, "players", &count);
            Some(format!("{label}: {}, {players}", kind.title()))
        });
    app.set_continue_access(what.unwrap_or_default().into());
    app.set_continue_label(label.into());
    match &c.life.bad_save {
        Some(bad) => {
            let kept = bad.kept_as.display().to_string();
            app.set_notice(say(app, "unreadable", &kept).into());
            app.set_can_use_backup(bad.backup_available);
        }
        None => {
            app.set_notice("".into());
            app.set_can_use_backup(false);
        }
    }
}

/// Resumes the save in `dir` (the backup when `backup`), or explains why it cannot.
fn resume(app: &AppWindow, c: &mut Controller, backup: bool) {
    let Some(dir) = c.data_dir.clone() else {
        return;
    };
    let loaded = if backup {
        saves::load_backup(&dir)
    } else {
        saves::load(&dir)
    };
    let file = if backup {
        saves::BACKUP_FILE
    } else {
        saves::SAVE_FILE
    };
    let outcome = match loaded {
        Ok(Some(saved)) => {
            tables::restore(&saved).map_err(|e| saves::set_aside(&dir, file, e.to_string()))
        }
        Ok(None) => {
            show_continue(app, c);
            return;
        }
        Err(bad) => Err(bad),
    };
    match outcome {
        Ok(mut table) => {
            table.session_mut().raise_cover();
            c.life.bad_save = None;
            let language = c.language();
            chrome::show_message(app, "", false);
            table.show(app, language);
            c.table = Some(table);
            c.begin_match();
            c.after_change(app);
            app.set_screen(Screen::Game);
        }
        Err(bad) => {
            crate::note!(
                "the saved game could not be resumed: {}; kept as {}",
                bad.reason,
                bad.kept_as.display()
            );
            c.life.bad_save = Some(bad);
            app.set_screen(Screen::Home);
        }
    }
    show_continue(app, c);
}

/// Connects Continue, the backup offer, undo and leaving a game.
pub fn wire(app: &AppWindow, controller: &Rc<RefCell<Controller>>) {
    let with = |f| super::on_tap(app, controller, f);
    app.on_continue_game(with(|app, c| resume(app, c, false)));
    app.on_use_backup(with(|app, c| resume(app, c, true)));
    let undo = |app: &AppWindow, c: &mut Controller| {
        let language = c.language();
        let Some(table) = c.table.as_mut() else {
            return;
        };
        match table.undo() {
            Ok(()) => {
                chrome::show_message(app, &say(app, "taken-back", ""), false);
                table.show(app, language);
            }
            Err(e) => chrome::show_message(app, &super::refusals::say(&e, language), true),
        }
        c.after_change(app);
    };
    app.global::<GameChrome>().on_undo(with(undo));
    app.on_cover_undo(with(undo));
    app.global::<GameChrome>().on_leave(with(|app, c| {
        let puzzle = c.table.as_ref().is_some_and(|t| t.is_puzzle());
        // The match stays saved: "Continue" brings it back behind the cover.
        c.table = None;
        c.replay = None;
        app.global::<GameChrome>().set_replaying(false);
        super::lan::leave(c);
        app.set_cover_up(false);
        if puzzle {
            // Back to the puzzles screen, the result just made on it.
            super::puzzles::back_to_list(app, c);
        } else {
            app.set_screen(Screen::Home);
        }
        show_continue(app, c);
    }));
}
