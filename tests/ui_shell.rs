//! The app shell driven like a player would, without a display: find elements by what a
//! screen reader reads, press them, and check what changed.
#![cfg(feature = "devtools")]

use hotseat::ui::{build, Screen};
use i_slint_backend_testing::init_no_event_loop;
use slint::{ComponentHandle, Model};

mod common;
use common::{labels_starting, present, press, temp_data};

#[test]
fn home_to_setup_and_back() {
    init_no_event_loop();
    let (app, _c) = build(Some(temp_data("nav"))).unwrap();
    app.show().unwrap();
    assert_eq!(app.get_screen(), Screen::Home);
    press(&app, "IOTA");
    assert_eq!(app.get_screen(), Screen::Setup);
    assert_eq!(app.get_setup_title(), "New game: IOTA");
    // IOTA takes 2 to 4 players: the count buttons say so, and picking 3 adds a row.
    assert!(present(&app, "3 players"));
    press(&app, "3 players");
    assert_eq!(app.get_player_count(), 3);
    assert!(present(&app, "Player 3 name"));
    press(&app, "Back");
    assert_eq!(app.get_screen(), Screen::Home);
    // Ovo offers only 2 or 4.
    press(&app, "Ovo");
    assert!(present(&app, "4 players"));
    assert!(!present(&app, "3 players"));
}

#[test]
fn switching_to_russian_changes_the_home_screen() {
    init_no_event_loop();
    let dir = temp_data("lang");
    let (app, _c) = build(Some(dir.clone())).unwrap();
    app.show().unwrap();
    app.invoke_set_language("en".into());
    assert!(present(&app, "Settings"));
    press(&app, "Settings");
    assert_eq!(app.get_screen(), Screen::Settings);
    press(&app, "Русский");
    press(&app, "Назад");
    assert_eq!(app.get_screen(), Screen::Home);
    assert!(present(&app, "Настройки"));
    assert!(present(&app, "Правила"));
    assert!(!present(&app, "Settings"));
    // The choice was saved: a new window starts in Russian.
    drop(app);
    let (again, _c) = build(Some(dir)).unwrap();
    again.show().unwrap();
    assert!(present(&again, "Настройки"));
    again.invoke_set_language("en".into());
    assert!(present(&again, "Settings"));
}

#[test]
fn the_cover_keeps_private_content_out_of_the_element_tree() {
    init_no_event_loop();
    let (app, _c) = build(Some(temp_data("cover"))).unwrap();
    app.show().unwrap();
    press(&app, "IOTA");
    app.invoke_rename(0, "Anna".into());
    press(&app, "Start");
    assert_eq!(app.get_screen(), Screen::Game);
    assert!(app.get_cover_up());
    // IOTA's first seat is chosen at random: the cover names whoever plays first.
    let first = app.get_cover_name().to_string();
    let pass_to = format!("Pass the device to {first}");
    assert!(present(&app, &pass_to));
    // The public game stays in the tree beneath the cover, so that a screen reader keeps
    // its elements (docs/accessibility.md); the hand, the one private thing, does not.
    assert!(
        labels_starting(&app, "Your card").is_empty(),
        "a hand card is in the tree while the cover is up"
    );
    press(&app, &format!("{first}, tap to reveal"));
    assert!(!app.get_cover_up());
    assert!(
        !labels_starting(&app, "Your card").is_empty(),
        "the revealed seat hears its hand"
    );
}

#[test]
fn names_are_remembered_for_the_next_game() {
    init_no_event_loop();
    let dir = temp_data("names");
    let (app, _c) = build(Some(dir.clone())).unwrap();
    press(&app, "Ovo");
    app.invoke_rename(0, "Вера".into());
    app.invoke_rename(1, "Tom".into());
    press(&app, "Start");
    drop(app);
    let (again, _c) = build(Some(dir)).unwrap();
    press(&again, "IOTA");
    let names: Vec<String> = again
        .get_players()
        .iter()
        .map(|p| p.name.to_string())
        .collect();
    assert_eq!(names, vec!["Вера", "Tom"]);
}
