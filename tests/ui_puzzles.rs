//! The puzzle of the day played through the real `.slint` screens (docs/puzzles.md):
//! for each game, opened from "Puzzle of the day" on a pinned day, a wrong try made by
//! the board's own taps (its reason shown and heard, not solved), then the right one
//! (solved, the streak, the stored result, the text to share); giving up shows the
//! answer; a kiosk writes nothing.
//!
//! Which try is wrong and which is right is found from the puzzles core (a legal action
//! that misses the goal, and a proven answer); the board's taps then make it: the same
//! callbacks the cells' touch areas call.
#![cfg(feature = "devtools")]

use hotseat::games::iota;
use hotseat::games::omiga;
use hotseat::games::registry::GameKind;
use hotseat::games::Game;
use hotseat::puzzles::{daily, Day, Puzzle, PuzzleRun, Verdict};
use hotseat::store::puzzles::{DayResult, PuzzleBook, PUZZLES_FILE};
use hotseat::ui::puzzles::{answer_cells, AnswerCells};
use hotseat::ui::{
    build, Access, AppWindow, Controller, IotaBridge, OmigaBridge, OvoBridge, PuzzleBridge, Screen,
};
use i_slint_backend_testing::{init_no_event_loop, ElementHandle};
use slint::{ComponentHandle, Model, SharedString};
use std::cell::RefCell;
use std::path::{Path, PathBuf};
use std::rc::Rc;

mod common;
use common::{labels, labels_starting, message, ovo_taps, present, press, temp_data};

/// A Thursday (level 4): an IOTA play of two cards, an Ovo jump chain, a turned Omiga card.
fn day() -> Day {
    Day::from_ymd(2027, 3, 4).expect("a date")
}

fn app_in(dir: &Path) -> (AppWindow, Rc<RefCell<Controller>>) {
    init_no_event_loop();
    let (app, c) = build(Some(dir.to_path_buf())).expect("the window builds");
    c.borrow_mut().set_puzzle_day(day());
    app.invoke_set_language("en".into());
    app.window().set_size(slint::LogicalSize::new(412.0, 915.0));
    app.show().expect("the window shows");
    (app, c)
}

fn bridge(app: &AppWindow) -> PuzzleBridge<'_> {
    app.global::<PuzzleBridge>()
}

fn announcement(app: &AppWindow) -> String {
    app.global::<Access>().get_announcement().to_string()
}

/// What a screen reader says of the screen: the label of the element the focus lands on.
fn screen_name(app: &AppWindow) -> String {
    ElementHandle::find_by_element_id(app, "AppWindow::screen-name")
        .next()
        .and_then(|e| e.accessible_label())
        .map(|l| l.to_string())
        .unwrap_or_default()
}

/// A legal try the core judges as missing the goal, and the first proven answer.
fn tries<G: Game>(p: &Puzzle) -> (G::Action, G::Action) {
    let fresh = || PuzzleRun::<G>::new(p.clone()).expect("the puzzle sets up");
    let wrong = fresh()
        .legal_actions()
        .into_iter()
        .filter(|a| {
            // IOTA: a play that scores, not a pass.
            matches!(
                fresh().try_action(a),
                Verdict::Scored { score: 1.., .. } | Verdict::DoesNotWin
            )
        })
        // The simplest wrong try: the shortest in the notation (one step, one card).
        .min_by_key(|a| a.to_string().len())
        .expect("a legal try that misses");
    let Ok(right) = p.answers[0].parse() else {
        panic!("the answer {} parses", p.answers[0]);
    };
    (wrong, right)
}

fn iota_taps(app: &AppWindow, p: &Puzzle, action: &iota::Action) {
    let b = app.global::<IotaBridge>();
    let hand = PuzzleRun::<iota::Iota>::new(p.clone())
        .expect("sets up")
        .view()
        .hand;
    let slot = |card: iota::Card| hand.iter().position(|c| *c == card).expect("in hand") as i32;
    let cell_index = |cell: iota::Cell| {
        let cells = b.get_cells();
        (0..cells.row_count())
            .find(|i| {
                cells
                    .row_data(*i)
                    .is_some_and(|c| c.x == cell.x && c.y == cell.y)
            })
            .expect("the cell is shown") as i32
    };
    match action {
        iota::Action::Place(cards) => {
            for (card, cell) in cards {
                b.invoke_tap_hand(slot(*card));
                b.invoke_tap_cell(cell_index(*cell));
            }
            b.invoke_play();
        }
        iota::Action::Swap { cell, card } => {
            b.invoke_tap_hand(slot(*card));
            b.invoke_tap_cell(cell_index(*cell));
        }
        iota::Action::Pass(cards) => {
            if !cards.is_empty() {
                b.invoke_trade();
                for card in cards {
                    b.invoke_tap_hand(slot(*card));
                }
            }
            b.invoke_pass();
        }
    }
}

/// Plays an Omiga action by the board's taps, as the puzzle's seat.
fn omiga_taps(app: &AppWindow, p: &Puzzle, action: &omiga::Action) {
    let run = PuzzleRun::<omiga::Omiga>::new(p.clone()).expect("sets up");
    common::omiga_taps(app, p.seat, &run.view().hand, action);
}

/// Yesterday solved, so that today's solve makes a streak of two.
fn yesterday_solved(dir: &Path, kind: GameKind) {
    let mut book = PuzzleBook::default();
    book.results.push(DayResult {
        game: kind.name().into(),
        day: day().previous().0,
        tries: 1,
        solved: true,
        ..DayResult::default()
    });
    book.save(Some(dir), day()).expect("written");
}

/// Opens today's puzzle of `kind` from the home screen; returns the puzzle.
fn open_from_home(app: &AppWindow, kind: GameKind) -> Puzzle {
    press(app, "Puzzle of the day");
    assert_eq!(app.get_screen(), Screen::Puzzles);
    assert_eq!(screen_name(app), "Puzzle of the day");
    let p = daily(kind, day()).expect("a puzzle");
    let tile = labels_starting(app, &format!("{}. ", kind.title()));
    assert_eq!(tile.len(), 1, "{tile:?}");
    press(app, &tile[0]);
    assert_eq!(app.get_screen(), Screen::Game);
    assert!(bridge(app).get_active());
    assert!(!app.get_cover_up(), "a puzzle has no cover to lift");
    assert_eq!(bridge(app).get_verdict_kind(), 0);
    assert_eq!(bridge(app).get_level(), "Level 4 of 7 · Thursday");
    p
}

/// Everything a screen reader can reach on the board, and what it is told.
fn heard_everything(app: &AppWindow) -> String {
    let mut all = labels(app);
    all.push(announcement(app));
    all.push(app.global::<Access>().get_news().to_string());
    all.push(screen_name(app));
    all.join("\n")
}

fn play_puzzle<G: Game>(
    tag: &str,
    kind: GameKind,
    taps: impl Fn(&AppWindow, &Puzzle, &G::Action),
    wrong_words: impl Fn(&Puzzle, &G::Action) -> String,
    secrets: impl Fn(&Puzzle) -> Vec<String>,
) {
    let dir = temp_data(tag);
    yesterday_solved(&dir, kind);
    let (app, _c) = app_in(&dir);
    let p = open_from_home(&app, kind);
    let goal = bridge(&app).get_goal().to_string();
    // The screen is named by the puzzle and its goal, and the goal is heard on opening.
    assert_eq!(
        screen_name(&app),
        format!("{} · puzzle of the day. {goal}", kind.title())
    );
    assert_eq!(announcement(&app), goal);
    // Nothing of the other seat's hand reaches a screen reader.
    let heard = heard_everything(&app);
    for secret in secrets(&p) {
        assert!(!heard.contains(&secret), "{tag}: '{secret}' is heard");
    }

    let (wrong, right) = tries::<G>(&p);
    taps(&app, &p, &wrong);
    let verdict = bridge(&app).get_verdict().to_string();
    assert_eq!(
        bridge(&app).get_verdict_kind(),
        1,
        "{tag}: {verdict}; {}",
        message(&app)
    );
    assert_eq!(verdict, wrong_words(&p, &wrong), "{tag}");
    assert_eq!(announcement(&app), verdict, "{tag}: the reason is heard");
    assert!(
        app.global::<Access>()
            .get_news()
            .ends_with(verdict.trim_end_matches('.')),
        "{tag}: the board says {}",
        app.global::<Access>().get_news()
    );
    assert_eq!(bridge(&app).get_tries(), "1 try");
    let (book, _) = PuzzleBook::load(&dir);
    let r = book.get(kind, day()).expect("the try is kept");
    assert_eq!((r.tries, r.solved), (1, false), "{tag}");

    // The board is as it was: the right try can be made on it now.
    taps(&app, &p, &right);
    assert_eq!(
        bridge(&app).get_verdict_kind(),
        2,
        "{tag}: {} ({})",
        bridge(&app).get_verdict(),
        message(&app)
    );
    assert!(bridge(&app).get_verdict().starts_with("Solved"), "{tag}");
    assert!(announcement(&app).contains("Solved"), "{tag}");
    let (book, _) = PuzzleBook::load(&dir);
    let r = book.get(kind, day()).expect("the solve is kept");
    assert_eq!((r.tries, r.solved, r.gave_up), (2, true, false), "{tag}");
    assert_eq!(book.streak(kind, day()), 2, "{tag}");

    press(&app, "Share the result");
    let shared = bridge(&app).get_share_text().to_string();
    assert!(
        shared.starts_with(&format!("Hotseat {} · 2027-03-04", kind.title()))
            && shared.contains("2 tries")
            && shared.ends_with("2 days in a row"),
        "{tag}: {shared}"
    );

    // Back on the puzzles screen the tile says so.
    press(&app, "Leave the game");
    assert_eq!(app.get_screen(), Screen::Puzzles);
    let row = bridge(&app)
        .get_today()
        .iter()
        .find(|r| r.game == kind.name())
        .expect("the game's row");
    assert!(row.solved, "{tag}");
    assert_eq!(row.status, "Solved in 2 tries", "{tag}");
    assert_eq!(row.streak, "Streak: 2 days");
}

#[test]
fn the_ovo_puzzle_is_tried_wrong_then_solved_on_the_board() {
    play_puzzle::<hotseat::games::ovo::Ovo>(
        "ovo",
        GameKind::Ovo,
        |app, _p, a| ovo_taps(app, a, || bridge(app).get_verdict_kind() != 0),
        |_p, _a| "Allowed, but it does not win. Try again.".into(),
        // Ovo has no hand; the solver's hidden eggs are the solver's own to know.
        |_p| Vec::new(),
    );
}

#[test]
fn the_iota_puzzle_is_tried_below_the_best_then_solved_on_the_board() {
    play_puzzle::<iota::Iota>(
        "iota",
        GameKind::Iota,
        iota_taps,
        |p, a| {
            let mut run = PuzzleRun::<iota::Iota>::new(p.clone()).expect("sets up");
            match run.try_action(a) {
                Verdict::Scored { score, best } => {
                    format!("{score} of {best} points: a good play, not the best. Try again.")
                }
                other => panic!("{other:?}"),
            }
        },
        |p| {
            // The other seat's cards, read out as a hand card would be ("Your card 1: …").
            let game = iota::Iota::from_position(&p.position).expect("a position");
            let mine = game.view(p.seat).hand;
            game.view(1 - p.seat)
                .hand
                .into_iter()
                .filter(|c| !c.is_wild() && !mine.contains(c))
                .map(|c| hotseat::ui::iota::card_words(c, "en"))
                .collect()
        },
    );
}

#[test]
fn the_omiga_puzzle_is_tried_wrong_then_solved_on_the_board() {
    play_puzzle::<omiga::Omiga>(
        "omiga",
        GameKind::Omiga,
        omiga_taps,
        |_p, _a| "Allowed, but it does not win. Try again.".into(),
        // Black's hand is drawn face down: none of its cards is named.
        |p| {
            let game = omiga::Omiga::from_position(&p.position).expect("a position");
            let black = game.view(1 - p.seat).hand;
            let n = black.len();
            black
                .into_iter()
                .enumerate()
                .map(|(i, c)| {
                    let parts = hotseat::ui::omiga_models::card_parts(c, "en");
                    format!("Black card {}/{n}: {parts}", i + 1)
                })
                .collect()
        },
    );
}

#[test]
fn giving_up_shows_the_answer_and_settles_the_day() {
    let dir = temp_data("give-up");
    let (app, _c) = app_in(&dir);
    open_from_home(&app, GameKind::Omiga);
    press(&app, "Give up and show the answer");
    assert_eq!(bridge(&app).get_verdict_kind(), 3);
    assert_eq!(bridge(&app).get_verdict(), "The answer is on the board.");
    let answer = bridge(&app).get_answer().to_string();
    // NN-GKr@4,7: the card turned, on x 4, y 7.
    assert!(
        answer.starts_with("The answer: ") && answer.contains(", turned on x 4, y 7"),
        "{answer}"
    );
    assert_eq!(announcement(&app), answer);
    // And played on the board: White has won there.
    assert_eq!(common::banner(&app), "White wins!");
    let (book, _) = PuzzleBook::load(&dir);
    let r = book.get(GameKind::Omiga, day()).expect("kept");
    assert!(r.gave_up && !r.solved);
    press(&app, "Share the result");
    assert!(bridge(&app)
        .get_share_text()
        .contains("answer shown after 0 tries"));
    // The archive lists the day with its result, and opens it again.
    press(&app, "Leave the game");
    press(&app, "Past puzzles of Omiga");
    let days = bridge(&app).get_archive();
    assert_eq!(days.row_count(), 30);
    let first = days.row_data(0).expect("today");
    assert_eq!(first.date, "2027-03-04 · Thursday");
    assert_eq!(first.status, "Answer shown after 0 tries");
    press(&app, "2027-03-03 · Wednesday, Not tried yet");
    assert_eq!(app.get_screen(), Screen::Game);
    assert_eq!(bridge(&app).get_level(), "Level 3 of 7 · Wednesday");
    assert!(app.invoke_go_back());
    assert_eq!(app.get_screen(), Screen::Puzzles);
    assert!(app.invoke_go_back());
    assert_eq!(bridge(&app).get_archive_game(), "");
    assert!(app.invoke_go_back());
    assert_eq!(app.get_screen(), Screen::Home);
}

#[test]
fn a_kiosk_plays_puzzles_and_writes_nothing() {
    let dir: PathBuf = temp_data("kiosk");
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
    let (app, c) = app_in(&dir);
    hotseat::ui::kiosk::start(&app, &c);
    // From the kiosk's welcome, as a visitor would.
    press(&app, "Puzzle of the day");
    assert_eq!(app.get_screen(), Screen::Puzzles);
    // The clock may be turned on for the visit, but it is not written.
    press(&app, "Omiga against the clock");
    assert!(bridge(&app).get_clock_on());
    bridge(&app).invoke_open("iota".into(), -1);
    // No hint in a puzzle: it would stage the answer.
    assert!(!common::present(&app, "Hint: stage the best play"));
    let p = daily(GameKind::Iota, day()).expect("a puzzle");
    let (wrong, right) = tries::<iota::Iota>(&p);
    iota_taps(&app, &p, &wrong);
    assert_eq!(bridge(&app).get_verdict_kind(), 1);
    iota_taps(&app, &p, &right);
    assert_eq!(bridge(&app).get_verdict_kind(), 2);
    assert!(
        !dir.join(PUZZLES_FILE).exists(),
        "a kiosk wrote its puzzles"
    );
    assert!(
        !hotseat::store::Settings::load(&dir).0.puzzle_clock,
        "a kiosk wrote the clock's choice"
    );
    assert!(c
        .borrow_mut()
        .puzzle_book()
        .get(GameKind::Iota, day())
        .is_some_and(|r| r.solved));
}

/// In Russian the screen and the text to share speak Russian, with the plural forms of
/// the .po file and the date day first.
#[test]
fn the_russian_share_text_takes_its_plurals_and_date() {
    let dir = temp_data("ru");
    let (app, _c) = app_in(&dir);
    app.invoke_set_language("ru".into());
    press(&app, "Задача дня");
    // Against the clock, whose words are Russian too.
    press(&app, "Omiga на время");
    bridge(&app).invoke_open("omiga".into(), -1);
    assert_eq!(bridge(&app).get_level(), "Уровень 4 из 7 · Четверг");
    assert_eq!(clock_state(&app).3, "осталось 60 секунд");
    let p = daily(GameKind::Omiga, day()).expect("a puzzle");
    let (wrong, right) = tries::<omiga::Omiga>(&p);
    omiga_taps(&app, &p, &wrong);
    assert_eq!(bridge(&app).get_tries(), "1 попытка");
    seconds(&app, 21);
    omiga_taps(&app, &p, &right);
    assert_eq!(bridge(&app).get_verdict(), "Решено за 21 секунду");
    press(&app, "Поделиться результатом");
    let shared = bridge(&app).get_share_text().to_string();
    assert!(
        shared.starts_with("Hotseat Omiga · 04.03.2027\nрешено: 2 попытки")
            && shared.ends_with("на время: 21 с"),
        "{shared}"
    );
    app.invoke_set_language("en".into());
}

fn clock_state(app: &AppWindow) -> (bool, bool, String, String) {
    let b = bridge(app);
    (
        b.get_clock_shown(),
        b.get_clock_running(),
        b.get_clock_text().to_string(),
        b.get_clock_label().to_string(),
    )
}

/// One second of the clock, `n` times (the panel's timer calls the same callback).
fn seconds(app: &AppWindow, n: u32) {
    for _ in 0..n {
        bridge(app).invoke_clock_tick();
    }
}

/// Omiga's clock is off until the player turns it on; then it is kept in the settings,
/// counts each try's minute down on the panel, judges a minute run out as a try that
/// missed (said why, aloud too), and keeps the seconds of the solve with the result and
/// in the share text. The other games have no clock.
#[test]
fn omiga_against_the_clock_times_out_a_try_then_keeps_the_solve_time() {
    let dir = temp_data("clock");
    let (app, _c) = app_in(&dir);
    // Off by default: the puzzle opens with no clock, and a tick changes nothing.
    press(&app, "Puzzle of the day");
    assert!(!bridge(&app).get_clock_on());
    bridge(&app).invoke_open("omiga".into(), -1);
    assert!(!clock_state(&app).0, "no clock unless asked for");
    seconds(&app, 61);
    assert_eq!(bridge(&app).get_verdict_kind(), 0);
    press(&app, "Leave the game");

    // Turned on from Omiga's tile, and remembered.
    press(&app, "Omiga against the clock");
    assert!(bridge(&app).get_clock_on());
    let (settings, _) = hotseat::store::Settings::load(&dir);
    assert!(settings.puzzle_clock, "the choice is kept");
    let p = daily(GameKind::Omiga, day()).expect("a puzzle");
    let (wrong, right) = tries::<omiga::Omiga>(&p);
    bridge(&app).invoke_open("omiga".into(), -1);
    assert_eq!(
        clock_state(&app),
        (true, true, "1:00".into(), "60 seconds left".into())
    );
    assert!(present(&app, "Time on the clock"));
    seconds(&app, 50);
    assert_eq!(clock_state(&app).2, "0:10");
    assert_eq!(announcement(&app), "10 seconds left", "heard once, at ten");
    seconds(&app, 10);
    // The minute is up: a try that missed, its reason shown and heard; a new minute.
    assert_eq!(bridge(&app).get_verdict_kind(), 1);
    let reason =
        "Time's up: the minute passed without the winning card. Try again; the clock starts again.";
    assert_eq!(bridge(&app).get_verdict(), reason);
    assert_eq!(announcement(&app), reason);
    assert_eq!(bridge(&app).get_tries(), "1 try");
    assert_eq!(clock_state(&app).2, "1:00");
    let (book, _) = PuzzleBook::load(&dir);
    let r = book.get(GameKind::Omiga, day()).expect("the try is kept");
    assert_eq!((r.tries, r.solved), (1, false));
    // A wrong card gives the next try its own minute.
    seconds(&app, 20);
    omiga_taps(&app, &p, &wrong);
    assert_eq!(bridge(&app).get_tries(), "2 tries");
    assert_eq!(clock_state(&app).2, "1:00");
    seconds(&app, 7);
    omiga_taps(&app, &p, &right);
    assert_eq!(bridge(&app).get_verdict_kind(), 2);
    assert_eq!(
        bridge(&app).get_verdict(),
        "Solved in 87 seconds on the clock"
    );
    assert_eq!(
        clock_state(&app),
        (
            true,
            false,
            "87 s".into(),
            "Solved in 87 seconds on the clock".into()
        )
    );
    seconds(&app, 5);
    assert_eq!(clock_state(&app).2, "87 s", "stopped by the solve");
    let (book, _) = PuzzleBook::load(&dir);
    let r = book.get(GameKind::Omiga, day()).expect("the solve is kept");
    assert_eq!((r.tries, r.solved, r.seconds), (3, true, Some(87)));
    press(&app, "Share the result");
    let shared = bridge(&app).get_share_text().to_string();
    assert!(
        shared.ends_with("solved in 3 tries\n⬜⬜🟩\nagainst the clock: 87 s"),
        "{shared}"
    );
    // The screen draws the squares itself; the copied text keeps the emoji.
    assert!(!bridge(&app).get_share_head().contains('⬜'));
    let marks: Vec<bool> = bridge(&app).get_share_marks().iter().collect();
    assert_eq!(marks, vec![false, false, true]);
    assert_eq!(bridge(&app).get_share_tail(), "against the clock: 87 s");

    // IOTA's puzzle has no clock, even with it on.
    press(&app, "Leave the game");
    bridge(&app).invoke_open("iota".into(), -1);
    assert!(!clock_state(&app).0);
}

/// The cells marked as the answer, each (answer, label, x, y) of a board's cells, in the
/// board's order; every marked cell's label must say so.
fn marked_at(cells: impl Iterator<Item = (bool, SharedString, i32, i32)>) -> Vec<(i32, i32)> {
    cells
        .filter(|(answer, ..)| *answer)
        .inspect(|(_, label, ..)| assert!(label.ends_with(", the answer"), "{label}"))
        .map(|(_, _, x, y)| (x, y))
        .collect()
}

/// After "Give up", the proven answer is played on the board and its cells (and only
/// those) are marked there, their labels saying so, for each game.
#[test]
fn giving_up_marks_exactly_the_answer_cells_on_each_board() {
    let dir = temp_data("marks");
    let (app, _c) = app_in(&dir);
    for kind in GameKind::ALL {
        bridge(&app).invoke_open(kind.name().into(), -1);
        let p = daily(kind, day()).expect("a puzzle");
        press(&app, "Give up and show the answer");
        let cells = answer_cells(kind, &p.answers[0]).expect("the answer's cells");
        match (kind, cells) {
            (GameKind::Iota, AnswerCells::At(mut want)) => {
                let cells = app.global::<IotaBridge>().get_cells();
                let mut marked = marked_at(cells.iter().map(|c| (c.answer, c.label, c.x, c.y)));
                marked.sort();
                want.sort();
                assert_eq!(marked, want, "IOTA");
            }
            (GameKind::Omiga, AnswerCells::At(want)) => {
                let cells = app.global::<OmigaBridge>().get_cells();
                let marked = marked_at(cells.iter().map(|c| (c.answer, c.label, c.x, c.y)));
                assert_eq!(marked, want, "Omiga");
            }
            (GameKind::Ovo, AnswerCells::Path(path)) => {
                let marked: Vec<String> = app
                    .global::<OvoBridge>()
                    .get_cells()
                    .iter()
                    .filter(|c| c.answer)
                    .map(|c| c.label.to_string())
                    .collect();
                assert_eq!(marked.len(), path.len(), "Ovo: {marked:?} for {path:?}");
                for (i, name) in path.iter().enumerate() {
                    let label = marked
                        .iter()
                        .find(|l| l.starts_with(&format!("{name}, ")))
                        .unwrap_or_else(|| panic!("{name} is not marked: {marked:?}"));
                    let said = if i == 0 {
                        ", where the answer's egg starts"
                    } else {
                        ", the answer"
                    };
                    assert!(label.ends_with(said), "{label}");
                }
            }
            other => panic!("{other:?}"),
        }
        // A screen reader finds the marked cells by their words.
        assert!(
            labels(&app).iter().any(|l| l.ends_with(", the answer")),
            "{kind:?}: no label says the answer"
        );
        press(&app, "Leave the game");
    }
}
