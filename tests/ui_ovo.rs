//! Ovo played through the real `.slint` board, as a player would: find cells and buttons
//! by what a screen reader reads, press them, and check the board, banner and cover.
// Staged with the developer tools' fixtures (the example tables), hence `devtools`.
#![cfg(feature = "devtools")]

use hotseat::ui::{ovo, AppWindow, Controller, GameChrome, OvoBridge, Screen};
use i_slint_backend_testing::ElementHandle;
use slint::{ComponentHandle, Model};
use std::cell::RefCell;
use std::rc::Rc;

mod common;
use common::{banner, cell, english_app, labels, message, present, press, tap_cell as tap};

fn cell_label(app: &AppWindow, name: &str) -> String {
    cell(app, name)
        .and_then(|e| e.accessible_label())
        .map(|l| l.to_string())
        .unwrap_or_else(|| panic!("no cell {name} on screen"))
}

/// The example mid-game of the screenshots: Anna (◆, seat 0) to act, the hidden egg on
/// c1 picked up.
fn demo(tag: &str) -> (AppWindow, Rc<RefCell<Controller>>) {
    let (app, c) = english_app(tag);
    ovo::show_demo(&app, &c, "ovo");
    assert!(!app.get_cover_up());
    (app, c)
}

#[test]
fn a_game_starts_from_setup_and_a_step_moves_the_egg() {
    let (app, _c) = english_app("start");
    press(&app, "Ovo");
    press(&app, "Start");
    assert_eq!(app.get_screen(), Screen::Game);
    assert!(app.get_cover_up());
    // The public board stays in the accessibility tree under the (opaque) cover, so that
    // a screen reader keeps its cells' identity; nothing can be picked up there.
    assert!(
        cell(&app, "b1").is_some(),
        "the public board stays in the tree under the cover"
    );
    // The first seat is drawn at random: play whichever it is.
    let first = app.get_cover_name().to_string();
    let (from, to, other) = common::first_step(&first);
    press(&app, &format!("{first}, tap to reveal"));
    assert_eq!(banner(&app), format!("{first}'s turn"));
    let to_label = cell_label(&app, to);
    assert!(to_label.ends_with(", empty"), "{to_label}");
    tap(&app, from);
    assert!(cell_label(&app, from).contains("picked up"));
    assert!(
        cell_label(&app, to).contains("legal landing"),
        "{}",
        cell_label(&app, to)
    );
    // Landings come from the rules core: nothing two ranks away is lit for a step.
    assert!(!cell_label(&app, "b4").contains("legal"));
    tap(&app, to);
    // The device changes hands: the cover is up over the public board, which shows the
    // move and nothing can be picked up on it.
    assert!(app.get_cover_up());
    assert_eq!(app.get_cover_name(), other);
    assert!(!cell_label(&app, to).contains("empty"));
    assert!(!cell_label(&app, from).contains("picked up"));
    assert_eq!(message(&app), format!("{first} moved {from} to {to}"));
    // The same words wait in the live region for a screen reader, on the cover too.
    assert_eq!(
        app.global::<hotseat::ui::Access>().get_announcement(),
        format!("{first} moved {from} to {to}")
    );
    press(&app, &format!("{other}, tap to reveal"));
    assert_eq!(banner(&app), format!("{other}'s turn"));
    assert!(cell_label(&app, to).contains(&format!("{first} ")));
    assert!(cell_label(&app, from).contains("empty"));
    // The egg just moved is marked and may not move back.
    assert!(cell_label(&app, to).contains("moved last turn"));
}

#[test]
fn cells_read_as_one_item_with_position_and_content() {
    let (app, _c) = demo("a11y");
    let c1 = cell(&app, "c1").unwrap();
    assert_eq!(
        c1.accessible_label().unwrap(),
        "c1, hidden egg, picked up, Anna's camp"
    );
    assert_eq!(c1.accessible_item_index(), Some(2));
    assert_eq!(c1.accessible_item_count(), Some(36));
    assert_eq!(cell_label(&app, "a1"), "a1, Anna diamond egg, Anna's camp");
    assert_eq!(cell_label(&app, "c4"), "c4, empty");
    assert_eq!(cell_label(&app, "c2"), "c2, empty, legal landing");
    assert_eq!(
        cell_label(&app, "e1"),
        "e1, empty, legal jump landing, Anna's camp"
    );
    // 36 cells (the tree holds some elements more than once: count distinct labels),
    // and hidden eggs that say nothing but "hidden egg".
    let all: std::collections::BTreeSet<String> = labels(&app).into_iter().collect();
    let cells = all
        .iter()
        .filter(|l| l.len() > 4 && l.as_bytes()[2] == b',' && l.as_bytes()[1].is_ascii_digit())
        .count();
    assert_eq!(cells, 36);
    let hidden: Vec<&String> = all.iter().filter(|l| l.contains("hidden egg")).collect();
    assert_eq!(
        hidden,
        vec![
            "c1, hidden egg, picked up, Anna's camp",
            "d6, hidden egg, Boris's camp"
        ]
    );
}

#[test]
fn illegal_taps_are_refused_with_a_message() {
    let (app, _c) = demo("refuse");
    tap(&app, "c1"); // put the hidden egg down again
    assert!(!cell_label(&app, "c1").contains("picked up"));
    tap(&app, "c4");
    assert_eq!(
        message(&app),
        "c4 is empty: tap one of your eggs or a hidden egg."
    );
    assert!(app.global::<GameChrome>().get_message_is_warning());
    tap(&app, "a6");
    assert_eq!(
        message(&app),
        "That egg is Boris's: move your own eggs or a hidden one."
    );
    // Anna may still move, so there is no Pass, and nothing changed.
    assert!(!present(&app, "Pass"));
    assert_eq!(banner(&app), "Anna's turn");
    assert!(!app.get_cover_up());
}

#[test]
fn a_jump_chain_stops_where_the_player_says() {
    let (app, _c) = demo("chain");
    tap(&app, "d1"); // picks up Anna's egg on d1 instead of the hidden one
    assert!(cell_label(&app, "b1").contains("legal jump landing"));
    tap(&app, "b1");
    // The chain can go on to b3, or stop here.
    assert!(cell_label(&app, "b3").contains("legal jump landing"));
    assert!(present(&app, "Stop here"));
    press(&app, "Stop here");
    assert!(app.get_cover_up());
    assert_eq!(message(&app), "Anna jumped from d1 to b1");
}

#[test]
fn a_jump_chain_goes_on_to_its_end() {
    let (app, _c) = demo("chain2");
    tap(&app, "d1");
    tap(&app, "b1");
    tap(&app, "b3");
    assert!(app.get_cover_up());
    assert_eq!(message(&app), "Anna jumped from d1 to b1, then b3");
    press(&app, "Boris, tap to reveal");
    assert!(cell_label(&app, "b3").starts_with("b3, Anna diamond egg"));
    assert!(cell_label(&app, "d1").starts_with("d1, empty"));
}

#[test]
fn a_peek_is_shown_to_the_peeker_only_then_forgotten() {
    let (app, _c) = demo("peek");
    press(&app, "Peek at this egg");
    // Anna still holds the device: she sees the symbol, and nothing else of the board.
    // The banner names her, the peeker, not the next player.
    assert_eq!(banner(&app), "Anna's peek");
    assert!(!app.get_cover_up());
    assert!(present(&app, "c1 is a star — remember it"));
    // The public board stays in the tree under the result (drawn over); c1 is still a
    // hidden egg there.
    assert!(cell(&app, "c1").is_some());
    // The public line never says the symbol.
    assert_eq!(message(&app), "Anna peeked at c1");
    press(&app, "Got it");
    assert!(app.get_cover_up());
    assert_eq!(app.get_cover_name(), "Boris");
    assert!(!labels(&app).iter().any(|l| l.contains("star —")));
    press(&app, "Boris, tap to reveal");
    assert!(!labels(&app).iter().any(|l| l.contains("remember")));
    assert_eq!(cell_label(&app, "c1"), "c1, hidden egg, Anna's camp");
    assert_eq!(banner(&app), "Boris's turn");
}

#[test]
fn a_wrong_ovo_ends_a_two_player_game_and_reveals_every_egg() {
    let (app, _c) = demo("ovo");
    tap(&app, "c1"); // put it down: the Ovo! button is for a turn with nothing picked up
    press(&app, "Declare «Ovo!»");
    // A confirmation first; it says the rule, never whether the call would be right.
    assert!(present(&app, "Not now"));
    press(&app, "Declare «Ovo!»");
    assert_eq!(banner(&app), "Boris wins!");
    assert!(!app.get_cover_up());
    assert!(message(&app).contains("Anna declared «Ovo!» — wrong."));
    assert_eq!(
        cell_label(&app, "c1"),
        "c1, Boris star egg, was hidden, Anna's camp"
    );
    // The board is no longer live.
    tap(&app, "a1");
    assert_eq!(banner(&app), "Boris wins!");
    press(&app, "Back to home");
    assert_eq!(app.get_screen(), Screen::Home);
}

#[test]
fn declaring_after_a_move_is_a_switch_shown_before_the_move() {
    let (app, _c) = demo("after");
    tap(&app, "d1");
    press(&app, "Declare «Ovo!» after this action");
    tap(&app, "d2");
    assert_eq!(banner(&app), "Boris wins!");
    assert!(message(&app).starts_with("Anna moved d1 to d2. Anna declared «Ovo!» — wrong."));
}

#[test]
fn a_wrong_ovo_with_four_players_takes_that_seat_out_and_play_goes_on() {
    let (app, c) = english_app("four");
    ovo::show_demo(&app, &c, "ovo4");
    // Anna has a chain under way (a2 over b3 to c4): her egg is drawn faintly there.
    assert!(cell_label(&app, "c4").contains("the chain stands here"));
    press(&app, "Cancel");
    assert!(!cell_label(&app, "c4").contains("chain"));
    press(&app, "Declare «Ovo!»");
    press(&app, "Declare «Ovo!»");
    assert!(message(&app).contains("wrong: their eggs leave the board"));
    assert!(app.get_cover_up());
    assert_eq!(app.get_cover_name(), "Boris");
    press(&app, "Boris, tap to reveal");
    assert_eq!(banner(&app), "Boris's turn");
    assert!(present(&app, "Anna (out)"));
    for gone in ["a1", "b1", "a2"] {
        assert!(cell_label(&app, gone).starts_with(&format!("{gone}, empty")));
    }
}

/// Runs the app's timers and animations for `ms` milliseconds of mock time.
fn run_for(ms: u64) {
    for _ in 0..ms / 20 {
        i_slint_backend_testing::mock_elapsed_time(std::time::Duration::from_millis(20));
    }
}

fn element(app: &AppWindow, label: &str) -> ElementHandle {
    ElementHandle::find_by_accessible_label(app, label)
        .find(|e| common::on_screen(app, e))
        .unwrap_or_else(|| panic!("no element labelled '{label}'"))
}

#[test]
fn the_whole_game_is_in_the_move_log_on_phone_and_tablet() {
    let (app, _c) = demo("log");
    for (w, h) in [(412, 915), (1280, 800)] {
        app.window().set_size(slint::PhysicalSize::new(w, h));
        run_for(40);
        // All twelve moves, not the last few; newest first, one item each.
        assert!(present(&app, "Moves (12)"), "{w}x{h}");
        assert_eq!(app.global::<OvoBridge>().get_log().row_count(), 12);
        let newest = element(&app, "12. ★ Boris: b6-b5");
        assert_eq!(newest.accessible_item_index(), Some(0));
        assert_eq!(newest.accessible_item_count(), Some(12));
        // The oldest line is a scroll away (the test's queries skip what is scrolled
        // out of sight, so scroll it into view as a player would).
        let at = newest.absolute_position();
        app.window()
            .dispatch_event(slint::platform::WindowEvent::PointerScrolled {
                position: slint::LogicalPosition::new(at.x + 20.0, at.y + 5.0),
                delta_x: 0.0,
                delta_y: -2000.0,
            });
        run_for(400);
        assert!(
            present(&app, "1. ◆ Anna: c1-c2"),
            "{w}x{h} {:?}",
            labels(&app)
        );
        app.window()
            .dispatch_event(slint::platform::WindowEvent::PointerScrolled {
                position: slint::LogicalPosition::new(at.x + 20.0, at.y + 5.0),
                delta_x: 0.0,
                delta_y: 2000.0,
            });
        run_for(400);
    }
    tap(&app, "d1");
    tap(&app, "d2");
    press(&app, "Boris, tap to reveal");
    assert!(present(&app, "Moves (13)"));
    assert!(present(&app, "13. ◆ Anna: d1-d2"));
}

#[test]
fn the_end_of_a_chain_with_one_path_plays_it_all_in_one_tap() {
    let (app, _c) = demo("direct");
    tap(&app, "d1");
    // b1 is the next landing; b3 lies beyond it, reachable one way only.
    assert!(cell_label(&app, "b1").contains("legal jump landing"));
    assert!(
        cell_label(&app, "b3").contains("end of a jump chain, one tap plays it all"),
        "{}",
        cell_label(&app, "b3")
    );
    tap(&app, "b3");
    assert!(app.get_cover_up());
    assert_eq!(message(&app), "Anna jumped from d1 to b1, then b3");
}

#[test]
fn the_moved_egg_flies_along_its_path_once_then_nothing_runs() {
    let (app, _c) = demo("fly");
    let bridge = app.global::<OvoBridge>();
    assert!(!bridge.get_anim_active(), "nothing moves, nothing animates");
    tap(&app, "d1");
    tap(&app, "b1");
    tap(&app, "b3");
    // Behind the cover nothing flies; Boris sees Anna's egg travel d1 → b1 → b3.
    assert!(!bridge.get_anim_active());
    press(&app, "Boris, tap to reveal");
    assert!(bridge.get_anim_active());
    let path: Vec<i32> = bridge.get_anim_path().iter().collect();
    assert_eq!(path, vec![3, 1, 13]);
    assert_eq!(
        bridge.get_anim_seg(),
        500,
        "a jump covers two cells, 250 ms each"
    );
    run_for(300);
    assert!(bridge.get_anim_active(), "still on its way");
    run_for(1200);
    assert!(!bridge.get_anim_active(), "the flight ends by itself");
    // Showing the board again does not replay it.
    tap(&app, "a6");
    assert!(!bridge.get_anim_active());
}

#[test]
fn a_finished_game_offers_a_new_game_with_the_same_players() {
    let (app, _c) = english_app("again");
    press(&app, "Ovo");
    press(&app, "Start");
    let first = app.get_cover_name().to_string();
    press(&app, &format!("{first}, tap to reveal"));
    press(&app, "Declare «Ovo!»");
    press(&app, "Declare «Ovo!»");
    assert!(banner(&app).ends_with(" wins!"));
    assert!(present(&app, "Back to home"));
    press(&app, "New game with the same players");
    assert_eq!(app.get_screen(), Screen::Game);
    assert!(app.get_cover_up());
    let next = app.get_cover_name().to_string();
    assert!(next == "Player 1" || next == "Player 2", "{next}");
    press(&app, &format!("{next}, tap to reveal"));
    assert!(present(&app, "Moves: none yet"));
    assert_eq!(banner(&app), format!("{next}'s turn"));
}

#[test]
fn on_a_phone_the_board_seats_and_buttons_sit_together_at_the_bottom() {
    let (app, _c) = demo("phone");
    app.window().set_size(slint::PhysicalSize::new(412, 915));
    run_for(40);
    let bottom = |label: &str| {
        let e = element(&app, label);
        e.absolute_position().y + e.size().height
    };
    let top = |label: &str| element(&app, label).absolute_position().y;
    let seat_row = bottom("Boris");
    let hint = top("Tap a lit cell to move the egg on c1, or peek at it.");
    assert!(hint - seat_row < 40.0, "seat row {seat_row}, hint {hint}");
    let cancel = bottom("Cancel");
    assert!(915.0 - cancel < 140.0, "buttons end at {cancel}");
    let tray_bottom = bottom("a1, Anna diamond egg, Anna's camp");
    assert!(top("Boris") - tray_bottom < 60.0);
}

#[test]
fn a_flip_turns_the_egg_over_after_its_flight() {
    let (app, _c) = english_app("flip");
    press(&app, "Ovo");
    press(&app, "Start");
    let bridge = app.global::<OvoBridge>();
    // Player 1 starts on rank 1, Player 2 on rank 6; the first seat is drawn at random.
    let mut moves = vec![
        ("c1", "c2", "Player 2"),
        ("c6", "c5", "Player 1"),
        ("c2", "c3", "Player 2"),
        ("c5", "c4", "Player 1"),
        ("c3", "c5", "Player 2"),
        ("a6", "a5", "Player 1"),
        ("c5", "c6", "Player 2"),
    ];
    if app.get_cover_name() == "Player 2" {
        moves.insert(0, ("f6", "f5", "Player 1"));
    }
    press(&app, &format!("{}, tap to reveal", app.get_cover_name()));
    for (from, to, next) in moves {
        tap(&app, from);
        tap(&app, to);
        assert!(app.get_cover_up(), "{from}-{to}: {}", message(&app));
        press(&app, &format!("{next}, tap to reveal"));
        assert!(bridge.get_anim_active());
        assert_eq!(bridge.get_anim_flip(), to == "c6");
        run_for(1200);
        assert!(!bridge.get_anim_active());
    }
    assert_eq!(
        message(&app),
        "Player 1 moved c5 to c6; the egg was flipped"
    );
    assert!(cell_label(&app, "c6").starts_with("c6, hidden egg"));
    // Replay the last flight from its start to see the flip's phases.
    bridge.set_anim_step(0);
    bridge.set_anim_active(true);
    run_for(300); // 16 ms to start, 250 ms for the step
    assert_eq!(bridge.get_anim_step(), 2, "turning over");
    run_for(200);
    assert_eq!(bridge.get_anim_step(), 3, "face down");
    run_for(200);
    assert!(!bridge.get_anim_active());
}

/// A Russian player reads the board's refusals and cells in Russian (src/ui/ovo.rs words
/// them through ui/texts/ovo.slint).
#[test]
fn refusals_and_cells_read_in_russian() {
    let (app, _c) = demo("russian");
    app.invoke_set_language("ru".into());
    tap(&app, "c1"); // put the hidden egg down again
    tap(&app, "c4");
    assert_eq!(
        message(&app),
        "c4 пуста: коснитесь своего яйца или скрытого яйца."
    );
    assert!(app.global::<GameChrome>().get_message_is_warning());
    tap(&app, "a6");
    assert_eq!(
        message(&app),
        "Это яйцо игрока Boris: ходите своими яйцами или скрытыми."
    );
    assert_eq!(cell_label(&app, "c4"), "c4, пусто");
    assert!(cell_label(&app, "c1").contains("скрытое яйцо"));
    app.invoke_set_language("en".into());
}
