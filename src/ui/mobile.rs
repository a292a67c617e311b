//! The mobile lifecycle, in plain Rust so that the desktop tests it: the back button
//! (`go_back`), the app leaving the screen (`suspend`: home button, a call) and coming
//! back (`resume`). On Android `android_main` connects the activity's events to them
//! through [`on_pause`] / [`on_resume`]; Slint delivers the back button as `Key.Back`,
//! which `ui/app.slint` turns into the `go-back` callback.

use super::{AppWindow, Controller, GameChrome, LanBridge, Screen};
use slint::ComponentHandle;
use std::cell::RefCell;
use std::rc::{Rc, Weak};

/// What the back button did.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Back {
    /// Went back one screen, or closed what was open on it.
    Moved,
    /// A game is on screen: it asks "Leave the game?" first (or, asked already, stays).
    Asked,
    /// On the home screen there is nowhere to go: the system may close the app.
    Home,
}

/// The back button or gesture: one screen back; from a game, ask before leaving it (the
/// game stays saved either way). Goes through the same callbacks as the on-screen buttons.
pub fn go_back(app: &AppWindow) -> Back {
    match app.get_screen() {
        Screen::Home => Back::Home,
        Screen::Game if app.global::<GameChrome>().get_replaying() => {
            // A replay is not a game: back goes to the history it came from.
            app.global::<GameChrome>().invoke_replay_close();
            Back::Moved
        }
        Screen::Game
            if app.global::<super::LessonBridge>().get_active()
                || app.global::<super::PuzzleBridge>().get_active() =>
        {
            // A lesson keeps its step in the settings: back leaves it at once.
            app.global::<GameChrome>().invoke_leave();
            Back::Moved
        }
        Screen::Game => {
            // Back while asked answers "stay"; the question is the only way out of a game.
            app.set_leave_asked(!app.get_leave_asked());
            Back::Asked
        }
        Screen::Puzzles if app.global::<super::PuzzleBridge>().get_archive_game() != "" => {
            app.global::<super::PuzzleBridge>()
                .invoke_show_archive("".into());
            Back::Moved
        }
        Screen::History if app.get_history_opened() >= 0 => {
            app.invoke_close_history();
            Back::Moved
        }
        Screen::LanHost | Screen::LanJoin => {
            app.global::<LanBridge>().invoke_cancel();
            app.set_screen(Screen::Setup);
            Back::Moved
        }
        Screen::Setup | Screen::Settings | Screen::Rules | Screen::History | Screen::Puzzles => {
            app.set_screen(Screen::Home);
            Back::Moved
        }
    }
}

/// The app left the screen (home button, a call, the screen turned off): save the game
/// now and hide it behind the privacy cover, so that whoever picks the device up next
/// sees no hand; Omiga starts its "Ready?" countdown again.
pub fn suspend(app: &AppWindow, c: &mut Controller) {
    let language = c.language();
    let Some(table) = c.table.as_mut() else {
        return;
    };
    table.session_mut().raise_cover();
    table.pause();
    table.show(app, language);
    app.set_leave_asked(false);
    c.save_now();
}

/// The app is back on screen: show the game as `suspend` left it (behind the cover, or
/// counting down), and let the app's seats carry on.
pub fn resume(app: &AppWindow, c: &mut Controller) {
    let language = c.language();
    if let Some(table) = c.table.as_ref() {
        table.show(app, language);
        c.after_change(app);
    }
}

/// The window and controller running on this (the UI) thread.
type Running = (slint::Weak<AppWindow>, Weak<RefCell<Controller>>);

thread_local! {
    /// What the platform's lifecycle events act on; they arrive outside any Slint callback.
    static RUNNING: RefCell<Option<Running>> = const { RefCell::new(None) };
}

/// Remembers the running app for [`on_pause`] and [`on_resume`].
pub(crate) fn register(app: &AppWindow, controller: &Rc<RefCell<Controller>>) {
    RUNNING.with_borrow_mut(|r| *r = Some((app.as_weak(), Rc::downgrade(controller))));
}

fn with_running(f: fn(&AppWindow, &mut Controller)) {
    let running = RUNNING.with_borrow(|r| r.clone());
    let Some((app, controller)) = running else {
        return;
    };
    let (Some(app), Some(controller)) = (app.upgrade(), controller.upgrade()) else {
        return;
    };
    // Lifecycle events come between Slint's callbacks, so the controller is free; if it
    // is not, this event is skipped rather than risking a panic.
    match controller.try_borrow_mut() {
        Ok(mut c) => f(&app, &mut c),
        Err(_) => crate::note!("a lifecycle event arrived while busy; skipped"),
    };
}

/// The platform paused the app (Android `MainEvent::Pause` / `SaveState`).
pub fn on_pause() {
    with_running(suspend);
}

/// The platform resumed the app (Android `MainEvent::Resume`).
pub fn on_resume() {
    with_running(resume);
}

/// Connects the window's `go-back` callback (Back key, Alt+Left).
pub(crate) fn wire(app: &AppWindow) {
    let weak = app.as_weak();
    app.on_go_back(move || {
        // `false` lets Android finish the activity (Back on the home screen).
        weak.upgrade()
            .is_some_and(|app| go_back(&app) != Back::Home)
    });
}
