//! The lessons played through the real `.slint` screens (docs/lessons.md): opened from
//! "Learn to play", each step tried wrong first by the board's own taps (the words shown
//! are checked), then right; left and resumed; and the practice game at the end.
//!
//! Which try is wrong and which is right is found from the lessons core (a legal action
//! that misses the step's goal, or one the engine refuses; an action that meets it), and
//! then made by the board's taps: the same callbacks the cells' touch areas call.

use hotseat::games::ovo::{Cell, OvoAction};
use hotseat::lessons::{LessonRun, Verdict};
use hotseat::session::SeatKind;
use hotseat::ui::{build, AppWindow, Controller, GameChrome, LessonBridge, OvoBridge, Screen};
use i_slint_backend_testing::init_no_event_loop;
use slint::ComponentHandle;
use std::cell::RefCell;
use std::rc::Rc;

mod common;
use common::{press, temp_data};

fn app(tag: &str) -> (AppWindow, Rc<RefCell<Controller>>, std::path::PathBuf) {
    init_no_event_loop();
    let dir = temp_data(tag);
    let (app, c) = build(Some(dir.clone())).expect("the window builds");
    app.invoke_set_language("en".into());
    // A phone upright: the size every screen is laid out for first.
    app.window().set_size(slint::LogicalSize::new(412.0, 915.0));
    app.show().expect("the window shows");
    (app, c, dir)
}

fn lesson(app: &AppWindow) -> LessonBridge<'_> {
    app.global::<LessonBridge>()
}

fn message(app: &AppWindow) -> String {
    app.global::<GameChrome>().get_message().to_string()
}

/// The Ovo step `k` as the core sees it: a legal action that misses its goal (if any),
/// and one that meets it.
fn ovo_tries(k: usize) -> (Option<OvoAction>, OvoAction) {
    let fresh = || LessonRun::new(hotseat::lessons::ovo::lesson(), k).expect("the step sets up");
    let run = fresh();
    assert_eq!(run.index(), k);
    let mut wrong = None;
    let mut right = None;
    for action in run.legal_actions() {
        match fresh().try_action(&action) {
            Verdict::Passed if right.is_none() => right = Some(action),
            Verdict::NotTheGoal { .. } if wrong.is_none() => wrong = Some(action),
            _ => {}
        }
    }
    (wrong, right.expect("every step has a solution"))
}

/// Plays `action` by the Ovo board's taps: pick the egg, tap each landing, end a chain
/// that could go on; peek, pass and «Ovo!» by their buttons.
fn ovo_taps(app: &AppWindow, action: &OvoAction) {
    let ovo = app.global::<OvoBridge>();
    let tap = |cell: Cell| ovo.invoke_tap(cell.index() as i32);
    match action {
        OvoAction::Step {
            from,
            to,
            ovo: declare,
        } => {
            tap(*from);
            if *declare {
                ovo.invoke_set_declare_after(true);
            }
            tap(*to);
        }
        OvoAction::Jump {
            from,
            landings,
            ovo: declare,
        } => {
            tap(*from);
            if *declare {
                ovo.invoke_set_declare_after(true);
            }
            for landing in landings {
                tap(*landing);
            }
            // A chain that could go on waits for "Stop here".
            if lesson(app).get_verdict_kind() == 0 {
                ovo.invoke_stop();
            }
        }
        OvoAction::Peek { cell, .. } => {
            tap(*cell);
            ovo.invoke_peek();
        }
        OvoAction::Pass => ovo.invoke_pass(),
        OvoAction::Ovo => {
            ovo.invoke_ask_ovo();
            ovo.invoke_declare_ovo();
        }
    }
}

/// A try the board refuses itself: pass when passing is not allowed, else a tap on an
/// empty cell.
fn ovo_refused_tap(app: &AppWindow, k: usize) {
    let run = LessonRun::new(hotseat::lessons::ovo::lesson(), k).expect("the step sets up");
    let ovo = app.global::<OvoBridge>();
    if !run.legal_actions().contains(&OvoAction::Pass) {
        ovo.invoke_pass();
        return;
    }
    let view = run.view();
    let empty = (0..36)
        .filter_map(Cell::from_index)
        .find(|c| matches!(view.cell(*c), hotseat::games::ovo::CellView::Empty))
        .expect("a board with an empty cell");
    ovo.invoke_tap(empty.index() as i32);
}

#[test]
fn the_ovo_lesson_is_played_by_taps_with_a_wrong_try_on_every_step() {
    let (app, _c, _dir) = app("ovo");
    press(&app, "Learn to play Ovo");
    assert_eq!(app.get_screen(), Screen::Game);
    assert!(lesson(&app).get_active());
    assert!(!app.get_cover_up(), "a lesson has no cover to lift");
    let steps = hotseat::lessons::ovo::lesson().steps;
    assert_eq!(lesson(&app).get_steps() as usize, steps.len());
    for (k, step) in steps.iter().enumerate() {
        assert_eq!(
            lesson(&app).get_step() as usize,
            k + 1,
            "step {}",
            step.name
        );
        assert_eq!(lesson(&app).get_words(), step.words);
        assert_eq!(lesson(&app).get_task(), step.task);
        assert_eq!(lesson(&app).get_verdict_kind(), 0);
        let (wrong, right) = ovo_tries(k);
        // The wrong try: a legal move that misses the task, or a tap the board refuses.
        match &wrong {
            Some(action) => {
                ovo_taps(&app, action);
                assert!(
                    lesson(&app)
                        .get_verdict()
                        .starts_with("Allowed, but not what this step asks."),
                    "step {}: {}",
                    step.name,
                    lesson(&app).get_verdict()
                );
            }
            None => {
                ovo_refused_tap(&app, k);
                assert!(lesson(&app).get_verdict().starts_with("Try again."));
                assert!(
                    app.global::<GameChrome>().get_message_is_warning()
                        && !message(&app).is_empty(),
                    "step {}: the board's refusal is in the message line",
                    step.name
                );
            }
        }
        assert_eq!(lesson(&app).get_verdict_kind(), 1, "step {}", step.name);
        assert!(
            lesson(&app).get_verdict().ends_with(step.hint),
            "step {}: the hint follows: {}",
            step.name,
            lesson(&app).get_verdict()
        );
        // The board is as it was: the same move works now.
        ovo_taps(&app, &right);
        assert_eq!(
            lesson(&app).get_verdict_kind(),
            2,
            "step {}: {} passes ({})",
            step.name,
            right,
            lesson(&app).get_verdict()
        );
        if k + 1 < steps.len() {
            assert!(!lesson(&app).get_last());
            press(&app, "Next step");
        } else {
            assert!(lesson(&app).get_last());
        }
    }
}

#[test]
fn a_lesson_left_at_a_step_resumes_there() {
    let (app, c, dir) = app("resume");
    press(&app, "Learn to play Ovo");
    for k in 0..2 {
        let (_, right) = ovo_tries(k);
        ovo_taps(&app, &right);
        press(&app, "Next step");
    }
    assert_eq!(lesson(&app).get_step(), 3);
    // Back leaves the lesson at once; nothing is saved as a game to continue.
    assert!(app.invoke_go_back());
    assert_eq!(app.get_screen(), Screen::Home);
    assert!(c.borrow().on_table().is_none());
    assert!(!app.get_can_continue());
    // The step is in the settings on disk, so a new run of the app resumes too.
    drop(c);
    drop(app);
    let (app, _c) = build(Some(dir)).expect("the window builds again");
    app.invoke_set_language("en".into());
    app.show().expect("the window shows");
    press(&app, "Learn to play Ovo");
    assert_eq!(lesson(&app).get_step(), 3);
    assert_eq!(lesson(&app).get_verdict_kind(), 0);
}

#[test]
fn the_last_step_offers_a_practice_game_against_the_easy_opponent() {
    // A learner who left the lesson at its last step (the settings as the app wrote them).
    let dir = temp_data("practice");
    let last = hotseat::lessons::ovo::lesson().steps.len() - 1;
    let mut settings = hotseat::store::Settings::default();
    settings.lessons.insert("ovo".into(), last);
    settings.save(&dir).expect("the settings are written");
    init_no_event_loop();
    let (app, c) = build(Some(dir)).expect("the window builds");
    app.invoke_set_language("en".into());
    app.window().set_size(slint::LogicalSize::new(412.0, 915.0));
    app.show().expect("the window shows");
    // From the setup screen's "Learn to play", this time.
    press(&app, "Ovo");
    press(&app, "Learn to play");
    assert_eq!(lesson(&app).get_step() as usize, last + 1);
    let (_, right) = ovo_tries(last);
    ovo_taps(&app, &right);
    assert!(lesson(&app).get_last());
    press(&app, "Practice game against the easy opponent");
    assert_eq!(app.get_screen(), Screen::Game);
    assert!(!lesson(&app).get_active());
    let c = c.borrow();
    let table = c.on_table().expect("a game is on the table");
    assert!(!table.is_lesson());
    let players = table.session().seat_players();
    assert_eq!(players.len(), 2);
    assert_eq!(players[0].kind, SeatKind::Human);
    assert_eq!(players[1].kind, SeatKind::Bot);
    assert_eq!(players[1].level.as_deref(), Some("easy"));
}
