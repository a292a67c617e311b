//! Omiga's puzzle against the clock, for those who want it (docs/puzzles.md): a toggle on
//! the puzzles screen (kept in the settings, off by default) gives each try of Omiga's
//! puzzle a minute, as Omiga is a game of about a minute. The panel's timer ticks once a
//! second ([`tick`]; tests call it themselves, as Omiga's "Ready?" countdown is tested).
//! When the minute runs out the try counts as one that missed, with its reason, and the
//! clock starts again; a solve keeps the seconds it took with the day's result, and the
//! share text says them.

use super::{on_table, put_back, PuzzleTable, Shown};
use crate::games::registry::GameKind;
use crate::ui::texts::{self, PuzzleText};
use crate::ui::{AppWindow, Controller, PuzzleBridge};
use slint::ComponentHandle;

/// Seconds for each try.
pub const LIMIT: u32 = 60;
/// Seconds left when the clock is said aloud once.
const WARN_AT: u32 = 10;

/// A puzzle's clock.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Clock {
    /// Seconds left for this try.
    pub left: u32,
    /// Seconds on the clock since the puzzle opened, all tries together.
    pub taken: u32,
    /// Running (stopped by a solve or a give-up).
    pub running: bool,
}

impl Clock {
    /// A clock for `kind`'s puzzle when the player wants one and the day is still open
    /// (a day already settled is replayed without it: its record stands).
    pub fn wanted(c: &mut Controller, kind: GameKind, day: crate::puzzles::Day) -> Option<Clock> {
        let settled = c
            .puzzle_book()
            .get(kind, day)
            .is_some_and(|r| r.solved || r.gave_up);
        (kind == GameKind::Omiga && c.settings.puzzle_clock && !settled).then_some(Clock {
            left: LIMIT,
            taken: 0,
            running: true,
        })
    }

    /// A try was made: the next one has a minute again.
    pub fn next_try(&mut self) {
        self.left = LIMIT;
    }

    /// Stops the clock; the seconds it ran.
    pub fn stop(&mut self) -> u32 {
        self.running = false;
        self.taken
    }
}

/// The clock's part of the panel.
pub fn fill(app: &AppWindow, clock: Option<&Clock>, finished: bool, language: &str) {
    let bridge = app.global::<PuzzleBridge>();
    bridge.set_clock_shown(clock.is_some());
    let Some(k) = clock else {
        bridge.set_clock_running(false);
        return;
    };
    let running = k.running && !finished;
    bridge.set_clock_running(running);
    bridge.set_clock_left(k.left as i32);
    let (text, label) = if running {
        (
            format!("{}:{:02}", k.left / 60, k.left % 60),
            PuzzleText::ClockLeft { n: k.left },
        )
    } else {
        (
            texts::say(&PuzzleText::ClockSeconds { seconds: k.taken }, language),
            PuzzleText::ClockTaken { n: k.taken },
        )
    };
    bridge.set_clock_text(text.into());
    bridge.set_clock_label(texts::say(&label, language).into());
}

/// One second of the clock passed.
pub fn tick(app: &AppWindow, c: &mut Controller) {
    let language = c.language();
    let Some(table) = on_table(c) else {
        return;
    };
    let finished = table.run.finished();
    let Some(clock) = table.clock.as_mut().filter(|k| k.running) else {
        return;
    };
    if finished {
        clock.running = false;
        return;
    }
    clock.left = clock.left.saturating_sub(1);
    clock.taken += 1;
    let (left, clock) = (clock.left, *clock);
    if left > 0 {
        fill(app, Some(&clock), false, language);
        if left == WARN_AT {
            crate::ui::access::announce(
                app,
                &texts::say(&PuzzleText::ClockLeft { n: left }, language),
            );
        }
        return;
    }
    time_up(app, c);
}

/// The minute ran out: a try that missed, with its reason; the board as it was; the clock
/// starts again.
fn time_up(app: &AppWindow, c: &mut Controller) {
    let language = c.language();
    let Some(table) = on_table(c) else {
        return;
    };
    let verdict = table.run.time_up();
    if let Some(k) = table.clock.as_mut() {
        k.next_try();
    }
    let text = texts::say(&PuzzleText::TimeUp, language);
    put_back(table, language);
    table.shown = Shown::Wrong(text.clone());
    let puzzle = table.puzzle().clone();
    crate::ui::chrome::show_message(app, "", false);
    c.puzzle_book().note_try(&puzzle, &verdict);
    c.save_puzzles();
    c.after_change(app);
    crate::ui::access::announce(app, &text);
}

/// The toggle on the puzzles screen: kept in the settings (not written in a kiosk).
pub fn set_wanted(app: &AppWindow, c: &mut Controller, on: bool) {
    c.settings.puzzle_clock = on;
    if c.kiosk.is_none() {
        c.save();
    }
    app.global::<PuzzleBridge>().set_clock_on(on);
}

impl PuzzleTable {
    /// The clock, if this puzzle is played against it.
    pub fn clock(&self) -> Option<&Clock> {
        self.clock.as_ref()
    }
}
