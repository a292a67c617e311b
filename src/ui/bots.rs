//! Where the app's opponents of the match on screen get their time: the glue between
//! a match's [`Job`]s (`session::Match::job`, UI-free) and this platform's event loop.
//!
//! A thinking job runs through `platform::work` (a worker thread on the desktop, turns of
//! the event loop in a browser); its [`Reply`] comes back to the UI thread through the
//! event loop (no polling timer) and goes to the table's `bot_done`. Omiga's pace is a
//! one-shot `slint::Timer`.
//!
//! In tests without an event loop, [`set_synchronous`] makes the driver think at once on
//! the calling thread, and [`wake_paced`] ends Omiga's waits.

use super::chrome;
use super::{AppWindow, Controller};
use crate::ai::Level;
use crate::platform::time::Duration;
use crate::session::{JobKind, Reply};
use slint::ComponentHandle;
use std::cell::{Cell, RefCell};
use std::rc::{Rc, Weak};

thread_local! {
    static SYNC: Cell<bool> = const { Cell::new(false) };
    static WAITING: RefCell<Vec<u64>> = const { RefCell::new(Vec::new()) };
    #[allow(clippy::type_complexity)]
    static CTX: RefCell<Option<(slint::Weak<AppWindow>, Weak<RefCell<Controller>>)>> =
        const { RefCell::new(None) };
}

/// Tests: think on the calling thread at once instead of on a worker thread, and hold
/// Omiga's paced waits until [`wake_paced`].
pub fn set_synchronous(on: bool) {
    SYNC.with(|s| s.set(on));
}

/// "The app (hard)" in the message line is the seat's name; this is its level's word.
pub fn level_word(level: Level, language: &str) -> String {
    use super::texts::ShellText;
    let word = match level {
        Level::Easy => ShellText::Easy,
        Level::Medium => ShellText::Medium,
        Level::Hard | Level::Random => ShellText::Hard,
    };
    super::texts::say(&word, language)
}

/// Why an app seat's answer was not played, for the message line (a bug: the app seats
/// go on, and the player is told).
pub fn bot_failed<G: crate::games::Game>(
    failed: &crate::session::Finished<G>,
    language: &str,
) -> String {
    use crate::session::Finished;
    match failed {
        Finished::Stuck => super::texts::say(&super::texts::ShellText::AppStuck, language),
        Finished::Refused(e) => super::refusals::say(e, language),
        Finished::Played(..) => String::new(),
    }
}

/// Remembers the window and controller, for answers arriving from worker threads.
pub fn wire(app: &AppWindow, controller: &Rc<RefCell<Controller>>) {
    CTX.with(|c| *c.borrow_mut() = Some((app.as_weak(), Rc::downgrade(controller))));
}

/// Starts whatever the app's seats of the table on screen must do now. Called after
/// every change of the table (`Controller::after_change`).
pub(crate) fn kick(app: &AppWindow, c: &mut Controller) {
    let Some(job) = c.table.as_mut().and_then(|t| t.bot_job()) else {
        return;
    };
    let sync = SYNC.with(|s| s.get());
    match job.kind {
        JobKind::Think(mut work) if sync => {
            let reply = loop {
                if let Some(reply) = work() {
                    break reply;
                }
            };
            deliver_to(app, c, reply);
        }
        JobKind::Think(work) => crate::platform::work::run_in_steps(work, deliver),
        JobKind::Wait(_) if sync => WAITING.with(|w| w.borrow_mut().push(job.token)),
        JobKind::Wait(pace) => {
            let token = job.token;
            slint::Timer::single_shot(pace, move || wake(token));
        }
    }
}

/// Runs `f` with the window and controller; `false` when the controller is busy (it never
/// is between events, but then the caller retries on the next turn of the event loop).
fn with_ctx(f: impl FnOnce(&AppWindow, &mut Controller)) -> bool {
    let ctx = CTX.with(|c| c.borrow().clone());
    let Some((app, controller)) = ctx else {
        return true;
    };
    let (Some(app), Some(controller)) = (app.upgrade(), controller.upgrade()) else {
        return true;
    };
    let Ok(mut guard) = controller.try_borrow_mut() else {
        return false;
    };
    f(&app, &mut guard);
    true
}

fn deliver(reply: Reply) {
    let slot = RefCell::new(Some(reply));
    let done = with_ctx(|app, c| {
        if let Some(reply) = slot.borrow_mut().take() {
            deliver_to(app, c, reply);
        }
    });
    if !done {
        if let Some(reply) = slot.into_inner() {
            let _ = slint::invoke_from_event_loop(move || deliver(reply));
        }
    }
}

fn wake(token: u64) {
    let done = with_ctx(|app, c| {
        if let Some(table) = c.table.as_mut() {
            table.bot_wake(token);
        }
        c.after_change(app);
    });
    if !done {
        slint::Timer::single_shot(Duration::from_millis(50), move || wake(token));
    }
}

/// Tests: ends every paced wait now (Omiga's bot places its next card).
pub fn wake_paced() {
    let tokens: Vec<u64> = WAITING.with(|w| std::mem::take(&mut *w.borrow_mut()));
    for token in tokens {
        wake(token);
    }
}

fn deliver_to(app: &AppWindow, c: &mut Controller, reply: Reply) {
    let language = c.language();
    let Some(table) = c.table.as_mut() else {
        return;
    };
    if let Some((text, warning)) = table.bot_done(reply, language) {
        table.show(app, language);
        chrome::show_message(app, &text, warning);
    } else {
        table.show(app, language);
    }
    c.after_change(app);
}
