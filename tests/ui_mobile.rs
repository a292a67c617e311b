//! The mobile lifecycle on the desktop: the back button, the app leaving the screen and
//! coming back, and the safe area around a notch and a gesture bar.
#![cfg(feature = "devtools")]

use hotseat::ui::mobile::{go_back, resume, suspend, Back};
use hotseat::ui::{build, AppWindow, OmigaBridge, Screen};
use i_slint_backend_testing::{init_no_event_loop, AccessibleRole};
use slint::platform::{Key, WindowEvent};
use slint::{ComponentHandle, LogicalSize};

mod common;
use common::{present, press, temp_data};

/// Starts a two-player game of `game` from the home screen, as a player would.
fn start(app: &AppWindow, game: &str) {
    press(app, game);
    app.invoke_start_game();
    assert_eq!(app.get_screen(), Screen::Game);
}

fn back_key(app: &AppWindow) {
    let text: slint::SharedString = Key::Back.into();
    app.window()
        .dispatch_event(WindowEvent::KeyPressed { text: text.clone() });
    app.window()
        .dispatch_event(WindowEvent::KeyReleased { text });
}

#[test]
fn back_goes_one_screen_back_and_does_nothing_at_home() {
    init_no_event_loop();
    let (app, _c) = build(Some(temp_data("back"))).unwrap();
    app.show().unwrap();
    assert_eq!(go_back(&app), Back::Home);
    assert_eq!(app.get_screen(), Screen::Home);
    for label in ["Settings", "Rules", "History", "IOTA"] {
        press(&app, label);
        assert_ne!(app.get_screen(), Screen::Home, "{label} opens a screen");
        assert_eq!(go_back(&app), Back::Moved);
        assert_eq!(app.get_screen(), Screen::Home, "back from {label}");
    }
}

#[test]
fn the_back_key_goes_back_and_alt_left_too() {
    init_no_event_loop();
    let (app, _c) = build(Some(temp_data("key"))).unwrap();
    app.show().unwrap();
    press(&app, "Settings");
    back_key(&app);
    assert_eq!(app.get_screen(), Screen::Home);
    press(&app, "Rules");
    let left: slint::SharedString = Key::LeftArrow.into();
    let alt: slint::SharedString = Key::Alt.into();
    app.window()
        .dispatch_event(WindowEvent::KeyPressed { text: alt.clone() });
    app.window()
        .dispatch_event(WindowEvent::KeyPressed { text: left.clone() });
    app.window()
        .dispatch_event(WindowEvent::KeyReleased { text: left });
    app.window()
        .dispatch_event(WindowEvent::KeyReleased { text: alt });
    assert_eq!(app.get_screen(), Screen::Home);
}

#[test]
fn back_from_a_game_asks_and_the_game_stays_saved() {
    init_no_event_loop();
    let (app, _c) = build(Some(temp_data("leave"))).unwrap();
    app.show().unwrap();
    start(&app, "Ovo");
    back_key(&app);
    assert_eq!(
        app.get_screen(),
        Screen::Game,
        "back does not leave at once"
    );
    assert!(present(&app, "Leave the game?"));
    // Back again, or "Stay", answers: stay.
    back_key(&app);
    assert!(!present(&app, "Leave the game?"));
    assert_eq!(app.get_screen(), Screen::Game);
    back_key(&app);
    press(&app, "Stay");
    assert!(!present(&app, "Leave the game?"));
    assert_eq!(app.get_screen(), Screen::Game);
    back_key(&app);
    press(&app, "Leave");
    assert_eq!(app.get_screen(), Screen::Home);
    assert!(
        app.get_can_continue(),
        "the game left is offered to continue"
    );
    press(&app, "Continue the saved game: Ovo, 2 players");
    assert_eq!(app.get_screen(), Screen::Game);
}

#[test]
fn pausing_saves_and_hides_the_hand_behind_the_cover() {
    init_no_event_loop();
    let dir = temp_data("pause");
    let (app, c) = build(Some(dir.clone())).unwrap();
    app.show().unwrap();
    start(&app, "IOTA");
    app.invoke_reveal();
    assert!(!app.get_cover_up(), "the first player looks at their hand");
    let before = std::fs::metadata(dir.join("current-game.json")).is_ok();
    assert!(before, "the started game is saved");
    std::fs::remove_file(dir.join("current-game.json")).unwrap();
    suspend(&app, &mut c.borrow_mut());
    assert!(app.get_cover_up(), "the phone in a pocket shows no hand");
    assert!(
        std::fs::metadata(dir.join("current-game.json")).is_ok(),
        "pausing writes the save"
    );
    assert!(
        !common::elements(&app).iter().any(|e| e
            .accessible_label()
            .is_some_and(|l| l.starts_with("Your card"))),
        "no card of the hand is in the element tree while covered"
    );
    resume(&app, &mut c.borrow_mut());
    assert_eq!(app.get_screen(), Screen::Game);
    assert!(app.get_cover_up(), "coming back shows the cover first");
    app.invoke_reveal();
    assert!(!app.get_cover_up());
}

#[test]
fn pausing_omiga_counts_down_again_on_return() {
    init_no_event_loop();
    let (app, c) = build(Some(temp_data("omiga"))).unwrap();
    app.show().unwrap();
    start(&app, "Omiga");
    let bridge = app.global::<OmigaBridge>();
    while bridge.get_countdown() > 0 {
        bridge.invoke_tick();
    }
    suspend(&app, &mut c.borrow_mut());
    resume(&app, &mut c.borrow_mut());
    assert!(
        bridge.get_countdown() > 0,
        "both players get a \"Ready?\" countdown"
    );
    assert!(present(&app, "Ready?"));
}

#[test]
fn screens_keep_out_of_the_notch_and_the_gesture_bar() {
    init_no_event_loop();
    let (app, _c) = build(Some(temp_data("safe"))).unwrap();
    app.window().set_size(LogicalSize::new(412.0, 915.0));
    app.show().unwrap();
    let (top, bottom) = (48.0, 34.0);
    i_slint_core::window::WindowInner::from_pub(app.window()).set_window_item_safe_area(
        i_slint_core::lengths::LogicalEdges::new(top, bottom, 0.0, 0.0),
    );
    for screen in ["home", "settings", "setup"] {
        match screen {
            "settings" => press(&app, "Settings"),
            "setup" => press(&app, "Ovo"),
            _ => {}
        }
        let buttons: Vec<_> = common::elements(&app)
            .into_iter()
            .filter(|e| e.accessible_role() == Some(AccessibleRole::Button))
            .collect();
        assert!(!buttons.is_empty());
        for b in buttons {
            let (p, s) = (b.absolute_position(), b.size());
            assert!(
                p.y >= top && p.y + s.height <= 915.0 - bottom,
                "{screen}: '{:?}' at y {} height {} is under a system bar",
                b.accessible_label(),
                p.y,
                s.height
            );
        }
        go_back(&app);
    }
}

#[test]
fn pausing_on_a_finished_game_neither_saves_it_again_nor_records_it_twice() {
    init_no_event_loop();
    let dir = temp_data("pause-after-end");
    let (app, c) = build(Some(dir.clone())).unwrap();
    app.show().unwrap();
    // An Ovo game that has just ended (a declaration), its result on screen.
    hotseat::devtools::screenshot::stage(&app, &c, "ovo-end", "en");
    // The phone goes in a pocket on the result screen, comes back, goes again (a browser
    // tab hidden and reloaded does the same).
    suspend(&app, &mut c.borrow_mut());
    resume(&app, &mut c.borrow_mut());
    suspend(&app, &mut c.borrow_mut());
    assert!(
        !dir.join("current-game.json").exists(),
        "the finished game came back as a running save"
    );
    let history = std::fs::read_to_string(dir.join("history.json")).unwrap();
    let games: Vec<serde_json::Value> = serde_json::from_str(&history).unwrap();
    assert_eq!(games.len(), 1, "recorded once");
    drop(app);
    let (again, _c) = build(Some(dir)).unwrap();
    assert!(
        !again.get_can_continue(),
        "no Continue for a game that is over"
    );
}
