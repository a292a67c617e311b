//! Playing against the app through the real screens: setup offers "Person" or "App:
//! easy / medium / hard" per seat, the app's seats act through the bot driver (here on its
//! synchronous path), and nothing private reaches the screen for the wrong seat.
#![cfg(feature = "devtools")]

use hotseat::ai::background::Decision;
use hotseat::ai::{Level, Opponents};
use hotseat::games::ovo::{Ovo, OvoAction};
use hotseat::games::{rng_from_seed, Game, Outcome, Params};
use hotseat::session::SeatKind;
use hotseat::ui::Screen;
use hotseat::ui::{
    bots, build, iota, omiga, ovo, Access, AppWindow, Controller, GameChrome, OmigaBridge,
};
use i_slint_backend_testing::init_no_event_loop;
use slint::{ComponentHandle, Model};
use std::cell::RefCell;
use std::rc::Rc;

mod common;
use common::{banner, labels, message, present, press, select_playable, tap_cell, temp_data};

fn kinds(app: &AppWindow) -> Vec<i32> {
    app.get_players().iter().map(|p| p.kind).collect()
}

fn start(tag: &str, game: &str, bot_level: &str) -> (AppWindow, Rc<RefCell<Controller>>) {
    init_no_event_loop();
    bots::set_synchronous(true);
    let (app, c) = build(Some(temp_data(tag))).unwrap();
    app.invoke_set_language("en".into());
    app.show().unwrap();
    // A phone's width (the levels take their own line in setup), tall enough that Start
    // is in view below Omiga's options.
    app.window()
        .set_size(slint::LogicalSize::new(412.0, 1400.0));
    app.invoke_open_game(game.into());
    press(&app, &format!("Player 2: the app, {bot_level}"));
    press(&app, "Start");
    assert_eq!(app.get_screen(), Screen::Game);
    (app, c)
}

#[test]
fn setup_offers_person_or_app_remembers_it_and_keeps_one_person() {
    init_no_event_loop();
    let dir = temp_data("setup");
    let (app, _c) = build(Some(dir.clone())).unwrap();
    app.invoke_set_language("en".into());
    app.show().unwrap();
    press(&app, "Ovo");
    assert_eq!(kinds(&app), vec![0, 0]);
    press(&app, "Player 2: the app, hard");
    assert_eq!(kinds(&app), vec![0, 3]);
    assert!(
        !present(&app, "Player 2 name"),
        "the app needs no name field"
    );
    // The last person cannot become the app.
    press(&app, "Player 1: the app, easy");
    assert_eq!(kinds(&app), vec![0, 3], "at least one person plays");
    press(&app, "4 players");
    press(&app, "Player 3: the app, medium");
    assert_eq!(kinds(&app), vec![0, 3, 2, 0]);
    press(&app, "2 players");
    bots::set_synchronous(true);
    press(&app, "Start");
    drop(app);
    // A new run of the app remembers who the app played.
    let (app, _c) = build(Some(dir)).unwrap();
    app.invoke_set_language("en".into());
    app.invoke_open_game("ovo".into());
    assert_eq!(kinds(&app), vec![0, 3]);
    app.invoke_open_game("iota".into());
    assert_eq!(kinds(&app)[1], 3);
}

/// Plays `action` for the person through the board, as taps.
fn play_through_board(app: &AppWindow, action: &OvoAction) {
    match action {
        OvoAction::Step { from, to, .. } => {
            tap_cell(app, &from.to_string());
            tap_cell(app, &to.to_string());
        }
        OvoAction::Jump { from, landings, .. } => {
            tap_cell(app, &from.to_string());
            for l in landings {
                tap_cell(app, &l.to_string());
            }
            if present(app, "Stop here") {
                press(app, "Stop here");
            }
        }
        OvoAction::Peek { cell, .. } => {
            tap_cell(app, &cell.to_string());
            press(app, "Peek at this egg");
            press(app, "Got it");
        }
        OvoAction::Pass => press(app, "Pass"),
        OvoAction::Ovo => unreachable!("the person here never declares"),
    }
}

#[test]
fn a_whole_ovo_game_against_the_app_without_a_cover_between_person_and_app() {
    let (app, c) = start("ovo-game", "ovo", "medium");
    // One person: the cover only at the start, when the person has not looked yet.
    if app.get_cover_up() {
        press(&app, "Player 1, tap to reveal");
    }
    assert!(!app.get_cover_up());
    let mut rng = rng_from_seed(5);
    let mut bot_moves = 0;
    for _ in 0..400 {
        let (legal, before, over) = {
            let mut guard = c.borrow_mut();
            let table = guard.table_as::<ovo::OvoTable>().expect("an Ovo table");
            let s = table.session();
            assert_eq!(s.players()[1].kind, SeatKind::Bot);
            assert_eq!(s.players()[1].name, "The app (medium)");
            (
                // No desk once the game is over (the gate closes).
                s.desk(0).map(|d| d.legal_actions()).unwrap_or_default(),
                s.actions().len(),
                s.outcome().is_over(),
            )
        };
        if over {
            break;
        }
        assert!(!app.get_cover_up(), "no cover between a person and the app");
        assert_eq!(banner(&app), "Player 1's turn", "the app answered at once");
        // A plain player: steps and jumps at random, never declaring.
        let choices: Vec<&OvoAction> = legal
            .iter()
            .filter(|a| !matches!(a, OvoAction::Ovo) && !a.to_string().contains("ovo"))
            .collect();
        let moves: Vec<&&OvoAction> = choices
            .iter()
            .filter(|a| matches!(a, OvoAction::Step { .. } | OvoAction::Jump { .. }))
            .collect();
        let pick = if moves.is_empty() {
            choices[rand::Rng::random_range(&mut rng, 0..choices.len())]
        } else {
            *moves[rand::Rng::random_range(&mut rng, 0..moves.len())]
        };
        play_through_board(&app, pick);
        let after = c
            .borrow_mut()
            .table_as::<ovo::OvoTable>()
            .unwrap()
            .session()
            .actions()
            .to_vec();
        assert!(
            after.len() > before,
            "{pick} was not played through the board"
        );
        if after.len() > before + 1 {
            bot_moves += 1;
            let m = message(&app);
            assert!(m.starts_with("The app (medium) "), "{m}");
            assert!(!m.contains(" is a "), "the app's peek stays secret: {m}");
        }
    }
    let outcome = c
        .borrow_mut()
        .table_as::<ovo::OvoTable>()
        .unwrap()
        .session()
        .outcome();
    assert!(outcome.is_over(), "the game ends");
    assert!(bot_moves > 5);
    if outcome == (Outcome::Win { seat: 1 }) {
        assert_eq!(banner(&app), "The app (medium) wins!");
    }
}

#[test]
fn an_illegal_tap_is_refused_while_playing_the_app() {
    let (app, _c) = start("ovo-illegal", "ovo", "easy");
    if app.get_cover_up() {
        press(&app, "Player 1, tap to reveal");
    }
    // The app's egg on b6 cannot be picked up by the person.
    tap_cell(&app, "b6");
    assert!(
        app.global::<GameChrome>().get_message_is_warning(),
        "{}",
        message(&app)
    );
    assert!(!message(&app).is_empty());
    assert_eq!(banner(&app), "Player 1's turn");
}

/// The driver's entry point: a bot, a VIEW, a seed.
type AskFromView = fn(
    Box<dyn hotseat::ai::Bot<Ovo>>,
    <Ovo as Game>::View,
    u64,
) -> hotseat::ai::background::Decision<Ovo>;

#[test]
fn the_bot_is_handed_only_a_view_of_its_seat() {
    // The driver's one way to make a bot decide takes the seat's `Game::View`; a bot's
    // memory is fed only through `Told` (what its seat was told). No driver function
    // takes the game state: this signature is the proof the compiler checks.
    let ask: AskFromView = |bot, view, seed| Decision::new(bot, view, rng_from_seed(seed));
    let game = Ovo::new_game(&Params::new().with("first", 1)).unwrap();
    let seat = game.turn();
    let a = ask(Ovo::bot(Level::Hard, None), game.view(seat), 3)
        .finish()
        .and_then(|(_, a)| a)
        .expect("an action");
    assert!(game.legal_actions(seat).contains(&a));
    // The same view, the same seed: the same choice (nothing else went in).
    let b = ask(Ovo::bot(Level::Hard, None), game.view(seat), 3)
        .finish()
        .and_then(|(_, a)| a);
    assert_eq!(Some(a), b);
}

#[test]
fn the_omiga_app_places_during_play_and_keeps_its_hand_face_down() {
    let (app, c) = start("omiga", "omiga", "hard");
    // Ready… 3, 2, 1.
    for _ in 0..3 {
        app.global::<OmigaBridge>().invoke_tick();
    }
    // The cards on the table, and every action played so far.
    let state = |c: &Rc<RefCell<Controller>>| {
        let mut c = c.borrow_mut();
        let session = c.table_as::<omiga::OmigaTable>().unwrap().session();
        (session.board().count(), session.actions().to_vec())
    };
    let filled = |c: &Rc<RefCell<Controller>>| state(c).0;
    let before = filled(&c);
    // The person's hand is at the bottom, face up; the app's is face down.
    let all = labels(&app);
    assert!(
        all.iter().any(|l| l.starts_with("White card 1/")),
        "{all:?}"
    );
    let black: Vec<&String> = all.iter().filter(|l| l.starts_with("Black card")).collect();
    assert!(!black.is_empty());
    assert!(black.iter().all(|l| l.ends_with("face down")), "{black:?}");
    // Its pace passes: it places a card while the person has not moved. The deal is
    // random: a hand that fits nowhere is first exchanged for a new one, and said so.
    bots::wake_paced();
    for _ in 0..5 {
        if state(&c).1.last().map(|(_, a)| a.as_str()) != Some("discard") {
            break;
        }
        assert!(
            message(&app).starts_with("The app (hard) drew a new hand"),
            "{}",
            message(&app)
        );
        bots::wake_paced();
    }
    assert_eq!(filled(&c), before + 1, "the app placed");
    assert!(
        message(&app).starts_with("The app (hard) placed"),
        "{}",
        message(&app)
    );
    // Tapping the app's hand is refused.
    app.global::<OmigaBridge>().invoke_tap_hand(1, 0, false);
    let acted = |c: &Rc<RefCell<Controller>>| state(c).1;
    let so_far = acted(&c).len();
    bots::wake_paced();
    // The deal is random: its next move is a placement, or a discard when no card fits.
    let now = acted(&c);
    assert_eq!(now.len(), so_far + 1, "and again at its pace");
    assert_eq!(now.last().map(|(seat, _)| *seat), Some(1), "{now:?}");
}

/// Omiga against the app to its end with the person playing too: the person lays a card
/// whenever one fits, the app acts at each of its paces, the game ends, the app never
/// stuck, and the end is announced with the move that made it (issue 41: once White had
/// laid a card by keys, Orca in the browser, its focus on the table, never heard the
/// end, which only the banner said).
#[test]
fn an_omiga_game_where_both_play_runs_to_its_end() {
    let (app, c) = start("omiga-both", "omiga", "easy");
    for deal in 0..3 {
        if deal > 0 {
            app.global::<OmigaBridge>().invoke_rematch();
        }
        for _ in 0..3 {
            app.global::<OmigaBridge>().invoke_tick();
        }
        let over = |c: &Rc<RefCell<Controller>>| {
            let mut c = c.borrow_mut();
            let session = c.table_as::<omiga::OmigaTable>().unwrap().session();
            session.outcome().is_over()
        };
        let mut paces = 0;
        while !over(&c) {
            if let Some(cell) = select_playable(&app, "White") {
                press(&app, &cell);
            }
            bots::wake_paced();
            assert!(
                !message(&app).contains("stuck"),
                "deal {deal}: {}",
                message(&app)
            );
            paces += 1;
            assert!(
                paces < 150,
                "deal {deal}: no end after {paces} paces: {}",
                message(&app)
            );
        }
        // The end is heard, with the move that made it.
        let heard = app.global::<Access>().get_announcement().to_string();
        let end = banner(&app);
        assert!(
            end.ends_with("wins!") || end == "A draw",
            "deal {deal}: {end}"
        );
        assert!(
            heard.ends_with(&end),
            "deal {deal}: heard {heard:?}, the end {end:?}"
        );
        assert!(
            heard.len() > end.len(),
            "deal {deal}: only the end heard: {heard:?}"
        );
    }
}

/// The person's (seat 0's) legal Ovo actions now, from their own desk.
fn person_legal(c: &Rc<RefCell<Controller>>) -> Vec<OvoAction> {
    c.borrow_mut()
        .table_as::<ovo::OvoTable>()
        .unwrap()
        .session()
        .desk(0)
        .expect("the person's desk")
        .legal_actions()
}

#[test]
fn a_game_against_the_app_is_saved_and_resumed_with_its_seat() {
    let (app, c) = start("resume", "ovo", "hard");
    if app.get_cover_up() {
        press(&app, "Player 1, tap to reveal");
    }
    let legal = person_legal(&c);
    let step = legal
        .iter()
        .find(|a| matches!(a, OvoAction::Step { ovo: false, .. }))
        .unwrap()
        .clone();
    play_through_board(&app, &step);
    app.global::<GameChrome>().invoke_leave();
    assert_eq!(app.get_screen(), Screen::Home);
    app.invoke_continue_game();
    assert_eq!(app.get_screen(), Screen::Game);
    let (players, n) = {
        let mut guard = c.borrow_mut();
        let s = guard.table_as::<ovo::OvoTable>().unwrap().session();
        (s.players().to_vec(), s.actions().len())
    };
    assert_eq!(players[1].kind, SeatKind::Bot);
    assert_eq!(players[1].level.as_deref(), Some("hard"));
    assert!(n >= 2);
    // Back behind the person's cover; then play on against the resumed app.
    press(&app, "Player 1, tap to reveal");
    let legal = person_legal(&c);
    let next = legal
        .iter()
        .find(|a| {
            matches!(
                a,
                OvoAction::Step { ovo: false, .. } | OvoAction::Jump { ovo: false, .. }
            )
        })
        .unwrap()
        .clone();
    play_through_board(&app, &next);
    let after = c
        .borrow_mut()
        .table_as::<ovo::OvoTable>()
        .unwrap()
        .session()
        .actions()
        .len();
    assert!(after >= n + 2, "the resumed app answered");
}

#[test]
fn iota_against_the_app_answers_each_turn_without_a_cover() {
    let (app, c) = start("iota", "iota", "medium");
    // IOTA starts with seat 0, the person: the cover once, before they look.
    press(&app, "Player 1, tap to reveal");
    for turn in 0..6 {
        let before = c
            .borrow_mut()
            .table_as::<iota::IotaTable>()
            .unwrap()
            .session()
            .actions()
            .len();
        press(&app, "Pass");
        let (table_actions, over) = {
            let mut guard = c.borrow_mut();
            let session = guard.table_as::<iota::IotaTable>().unwrap().session();
            (session.actions().len(), session.outcome().is_over())
        };
        if over {
            // Rounds of passes end an IOTA game (docs/rules.md §2); the app may pass too.
            break;
        }
        // The person's pass, then the app's turn: one action, or more when it first swaps
        // wilds on the grid (docs/rules.md §2): at least two in all, and the turn comes back.
        assert!(
            table_actions >= before + 2,
            "turn {turn}: the app answered ({before} → {table_actions} actions)"
        );
        assert!(!app.get_cover_up(), "no cover between a person and the app");
        assert_eq!(banner(&app), "Player 1's turn");
        let m = message(&app);
        assert!(m.starts_with("The app (medium) "), "{m}");
        // The person's four cards are back on screen; the app's never are.
        let hand = labels(&app)
            .into_iter()
            .filter(|l| l.starts_with("Your card"))
            .collect::<std::collections::BTreeSet<_>>()
            .len();
        assert_eq!(hand, 4, "turn {turn}: only the person's hand");
    }
}
