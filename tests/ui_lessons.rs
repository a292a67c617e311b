//! The lessons played through the real `.slint` screens (docs/lessons.md): opened from
//! "Learn to play", each step tried wrong first by the board's own taps (the words shown
//! are checked), then right; left and resumed; and the practice game at the end.
//!
//! Which try is wrong and which is right is found from the lessons core (a legal action
//! that misses the step's goal, or one the engine refuses; an action that meets it), and
//! then made by the board's taps: the same callbacks the cells' touch areas call.
#![cfg(feature = "devtools")]

use hotseat::games::iota;
use hotseat::games::omiga;
use hotseat::games::ovo::{Cell, OvoAction};
use hotseat::games::Game;
use hotseat::lessons::{Lesson, LessonRun, Verdict};
use hotseat::session::SeatKind;
use hotseat::ui::{
    build, Access, AppWindow, Controller, GameChrome, IotaBridge, LessonBridge, LessonStepTexts,
    OmigaBridge, OvoBridge, Screen,
};
use i_slint_backend_testing::init_no_event_loop;
use slint::ComponentHandle;
use slint::Model;
use std::cell::RefCell;
use std::rc::Rc;

mod common;
use common::{message, ovo_taps, press, temp_data};

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

fn lesson_bridge(app: &AppWindow) -> LessonBridge<'_> {
    app.global::<LessonBridge>()
}

/// The last announcement (the live region a screen reader speaks).
fn announcement(app: &AppWindow) -> String {
    app.global::<Access>().get_announcement().to_string()
}

/// The focused board's description (what Orca 43 speaks when it changes).
fn news(app: &AppWindow) -> String {
    app.global::<Access>().get_news().to_string()
}

/// Step `k` of a lesson as the core sees it: a legal action that misses its goal (if
/// any), and one that meets it.
fn tries<G: Game>(lesson: fn() -> Lesson<G>, k: usize) -> (Option<G::Action>, G::Action) {
    let fresh = || LessonRun::new(lesson(), k).expect("the step sets up");
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

fn ovo_tries(k: usize) -> (Option<OvoAction>, OvoAction) {
    tries(hotseat::lessons::ovo::lesson, k)
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

/// Plays a whole lesson from "Learn to play {title}": on every step the words shown are
/// the step's, a wrong try (a legal move that misses the task, or a tap the board refuses)
/// shows the hint and leaves the board as it was, and then the right try passes.
fn play_through<G: Game>(
    tag: &str,
    title: &str,
    lesson: fn() -> Lesson<G>,
    taps: fn(&AppWindow, usize, &G::Action),
    refused_tap: fn(&AppWindow, usize),
) {
    let (app, _c, _dir) = app(tag);
    press(&app, &format!("Learn to play {title}"));
    assert_eq!(app.get_screen(), Screen::Game);
    assert!(lesson_bridge(&app).get_active());
    assert!(!app.get_cover_up(), "a lesson has no cover to lift");
    let steps = lesson().steps;
    assert_eq!(lesson_bridge(&app).get_steps() as usize, steps.len());
    for (k, step) in steps.iter().enumerate() {
        let bridge = lesson_bridge(&app);
        assert_eq!(bridge.get_step() as usize, k + 1, "step {}", step.name);
        assert_eq!(bridge.get_words(), step.words);
        assert_eq!(bridge.get_task(), step.task);
        assert_eq!(bridge.get_verdict_kind(), 0);
        // The screen reader hears the step on entering it.
        let heard = announcement(&app);
        assert!(
            heard.starts_with(&format!(
                "Step {} of {}. {}",
                k + 1,
                steps.len(),
                step.words
            )) && heard.ends_with(step.task),
            "{tag} step {}: heard {heard}",
            step.name
        );
        // Orca 43 speaks no live region: the focused board's description says it too.
        assert!(
            news(&app).ends_with(heard.trim_end_matches('.')),
            "{tag} step {}: the board says {}",
            step.name,
            news(&app)
        );
        let (wrong, right) = tries(lesson, k);
        match &wrong {
            Some(action) => {
                taps(&app, k, action);
                assert!(
                    bridge
                        .get_verdict()
                        .starts_with("Allowed, but not what this step asks."),
                    "{tag} step {}: {}",
                    step.name,
                    bridge.get_verdict()
                );
            }
            None => {
                refused_tap(&app, k);
                assert!(
                    bridge.get_verdict().starts_with("Try again."),
                    "{tag} step {}: {}",
                    step.name,
                    bridge.get_verdict()
                );
                assert!(
                    app.global::<GameChrome>().get_message_is_warning()
                        && !message(&app).is_empty(),
                    "{tag} step {}: the board's refusal is in the message line",
                    step.name
                );
            }
        }
        assert_eq!(bridge.get_verdict_kind(), 1, "{tag} step {}", step.name);
        assert!(
            bridge.get_verdict().ends_with(step.hint),
            "{tag} step {}: the hint follows: {}",
            step.name,
            bridge.get_verdict()
        );
        // The result of the try is heard too.
        assert!(
            announcement(&app).ends_with(step.hint),
            "{tag} step {}: heard {}",
            step.name,
            announcement(&app)
        );
        assert!(
            news(&app).ends_with(bridge.get_verdict().trim_end_matches('.')),
            "{tag} step {}: the board says {}",
            step.name,
            news(&app)
        );
        // The board is as it was: the right move can be made on it now.
        taps(&app, k, &right);
        assert_eq!(
            bridge.get_verdict_kind(),
            2,
            "{tag} step {}: {} passes ({}; {})",
            step.name,
            right,
            bridge.get_verdict(),
            message(&app)
        );
        assert!(
            announcement(&app).contains("Well done"),
            "{tag} step {}: heard {}",
            step.name,
            announcement(&app)
        );
        assert!(
            news(&app).ends_with(bridge.get_verdict().trim_end_matches('.'))
                && news(&app).contains("Well done"),
            "{tag} step {}: the board says {}",
            step.name,
            news(&app)
        );
        if k + 1 < steps.len() {
            assert!(!bridge.get_last());
            press(&app, "Next step");
        } else {
            assert!(bridge.get_last());
            assert!(common::present(
                &app,
                "Practice game against the easy opponent"
            ));
        }
    }
}

#[test]
fn the_ovo_lesson_is_played_by_taps_with_a_wrong_try_on_every_step() {
    play_through(
        "ovo",
        "Ovo",
        hotseat::lessons::ovo::lesson,
        |app, _k, action| ovo_taps(app, action, || lesson_bridge(app).get_verdict_kind() != 0),
        ovo_refused_tap,
    );
}

/// The hand slot of `card` in the learner's hand at step `k`.
fn iota_hand_index(k: usize, card: iota::Card) -> i32 {
    let run = LessonRun::new(hotseat::lessons::iota::lesson(), k).expect("the step sets up");
    run.view()
        .hand
        .iter()
        .position(|c| *c == card)
        .expect("the card is in the hand") as i32
}

/// The shown cell at the table's `cell` (the shown area grows round staged cards).
fn iota_cell_index(app: &AppWindow, cell: iota::Cell) -> i32 {
    let cells = app.global::<IotaBridge>().get_cells();
    (0..cells.row_count())
        .find(|i| {
            cells
                .row_data(*i)
                .is_some_and(|c| c.x == cell.x && c.y == cell.y)
        })
        .expect("the cell is shown") as i32
}

/// Plays an IOTA action by the board's taps: pick a hand card, tap its cell, Play; a
/// swap by the card and the wild; a pass by choosing the cards to return, then Pass.
fn iota_taps(app: &AppWindow, k: usize, action: &iota::Action) {
    let bridge = app.global::<IotaBridge>();
    match action {
        iota::Action::Place(cards) => {
            for (card, cell) in cards {
                bridge.invoke_tap_hand(iota_hand_index(k, *card));
                bridge.invoke_tap_cell(iota_cell_index(app, *cell));
            }
            bridge.invoke_play();
        }
        iota::Action::Swap { cell, card } => {
            bridge.invoke_tap_hand(iota_hand_index(k, *card));
            bridge.invoke_tap_cell(iota_cell_index(app, *cell));
        }
        iota::Action::Pass(cards) => {
            if !cards.is_empty() {
                bridge.invoke_trade();
                for card in cards {
                    bridge.invoke_tap_hand(iota_hand_index(k, *card));
                }
            }
            bridge.invoke_pass();
        }
    }
}

#[test]
fn the_iota_lesson_is_played_by_taps_with_a_wrong_try_on_every_step() {
    play_through(
        "iota",
        "IOTA",
        hotseat::lessons::iota::lesson,
        iota_taps,
        // Play with nothing staged: the board refuses it.
        |app, _k| app.global::<IotaBridge>().invoke_play(),
    );
}

/// Plays an Omiga action by the board's taps, as the step's seat.
fn omiga_taps(app: &AppWindow, k: usize, action: &omiga::Action) {
    let run = LessonRun::new(hotseat::lessons::omiga::lesson(), k).expect("the step sets up");
    common::omiga_taps(app, run.step().seat, &run.view().hand, action);
}

#[test]
fn the_omiga_lesson_is_played_by_taps_with_a_wrong_try_on_every_step() {
    play_through(
        "omiga",
        "Omiga",
        hotseat::lessons::omiga::lesson,
        omiga_taps,
        // A cell tapped with no card picked: the board refuses it.
        |app, _k| app.global::<OmigaBridge>().invoke_tap_cell(0, 0),
    );
}

#[test]
fn a_lesson_left_at_a_step_resumes_there() {
    let (app, c, dir) = app("resume");
    press(&app, "Learn to play Ovo");
    for k in 0..2 {
        let (_, right) = ovo_tries(k);
        ovo_taps(&app, &right, || lesson_bridge(&app).get_verdict_kind() != 0);
        press(&app, "Next step");
    }
    assert_eq!(lesson_bridge(&app).get_step(), 3);
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
    assert_eq!(lesson_bridge(&app).get_step(), 3);
    assert_eq!(lesson_bridge(&app).get_verdict_kind(), 0);
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
    assert_eq!(lesson_bridge(&app).get_step() as usize, last + 1);
    let (_, right) = ovo_tries(last);
    ovo_taps(&app, &right, || lesson_bridge(&app).get_verdict_kind() != 0);
    assert!(lesson_bridge(&app).get_last());
    press(&app, "Practice game against the easy opponent");
    assert_eq!(app.get_screen(), Screen::Game);
    assert!(!lesson_bridge(&app).get_active());
    let c = c.borrow();
    let table = c.on_table().expect("a game is on the table");
    assert!(!table.is_lesson());
    let players = table.session().seat_players();
    assert_eq!(players.len(), 2);
    assert_eq!(players[0].kind, SeatKind::Human);
    assert_eq!(players[1].kind, SeatKind::Bot);
    assert_eq!(players[1].level.as_deref(), Some("easy"));
}

/// Every step's words, task and hint are in ui/texts/lesson-steps.slint word for word, so
/// that the translations find them (tests/translations.rs checks each has its Russian).
#[test]
fn every_step_text_is_in_the_translated_texts() {
    let (app, _c, _dir) = app("texts");
    let texts = app.global::<LessonStepTexts>();
    let mut all: Vec<(&str, &str, [&str; 3])> = Vec::new();
    for s in hotseat::lessons::ovo::lesson().steps {
        all.push(("ovo", s.name, [s.words, s.task, s.hint]));
    }
    for s in hotseat::lessons::iota::lesson().steps {
        all.push(("iota", s.name, [s.words, s.task, s.hint]));
    }
    for s in hotseat::lessons::omiga::lesson().steps {
        all.push(("omiga", s.name, [s.words, s.task, s.hint]));
    }
    for (game, name, english) in all {
        for (field, en) in ["words", "task", "hint"].into_iter().zip(english) {
            let id = format!("{game}-{name}-{field}");
            assert_eq!(texts.invoke_text(id.clone().into()), en, "{id}");
        }
    }
    // And in Russian the lesson speaks Russian.
    app.invoke_set_language("ru".into());
    press(&app, "Научиться играть в Ovo");
    let words = lesson_bridge(&app).get_words().to_string();
    assert!(words.starts_with("Ваши яйца"), "{words}");
}

/// A café's tablet: the kiosk's welcome opens the setup, whose "Learn to play" opens the
/// lesson; Back returns to the welcome, and the kiosk writes nothing of the lesson.
#[test]
fn a_kiosk_opens_a_lesson_from_the_setup_and_keeps_nothing_of_it() {
    init_no_event_loop();
    let dir = temp_data("kiosk");
    hotseat::store::kiosk::KioskConfig {
        pin: Some(hotseat::kiosk::PinRecord::with_salt(
            "2468",
            b"test-salt",
            100,
        )),
        ..Default::default()
    }
    .save(&dir)
    .expect("the kiosk's PIN is written");
    let (app, c) = build(Some(dir.clone())).expect("the window builds");
    app.invoke_set_language("en".into());
    app.window().set_size(slint::PhysicalSize::new(1280, 800));
    app.show().expect("the window shows");
    hotseat::ui::kiosk::start(&app, &c);
    press(&app, "IOTA");
    assert_eq!(app.get_screen(), Screen::Setup);
    press(&app, "Learn to play");
    assert_eq!(app.get_screen(), Screen::Game);
    assert!(lesson_bridge(&app).get_active());
    let (_, right) = tries(hotseat::lessons::iota::lesson, 0);
    iota_taps(&app, 0, &right);
    assert_eq!(lesson_bridge(&app).get_verdict_kind(), 2);
    assert!(app.invoke_go_back());
    assert_eq!(app.get_screen(), Screen::Home);
    assert!(common::present(&app, "Pick a game"));
    let (settings, _) = hotseat::store::Settings::load(&dir);
    assert!(settings.lessons.is_empty(), "{:?}", settings.lessons);
}
