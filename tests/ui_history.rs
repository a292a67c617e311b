//! The history screen lists finished games with their result, opens a game's moves, and
//! counts each player's record.
#![cfg(feature = "ui")]

use hotseat::games::{ovo::Ovo, Params};
use hotseat::session::{Player, SeatKind, Session, Sharing};
use hotseat::store::history;
use hotseat::ui::{build, AppWindow, Screen};
use i_slint_backend_testing::{init_no_event_loop, ElementHandle};

fn present(app: &AppWindow, label: &str) -> bool {
    ElementHandle::find_by_accessible_label(app, label)
        .next()
        .is_some()
}

fn press(app: &AppWindow, label: &str) {
    ElementHandle::find_by_accessible_label(app, label)
        .next()
        .unwrap_or_else(|| panic!("no element labelled '{label}'"))
        .invoke_accessible_default_action();
}

#[test]
fn finished_games_are_listed_opened_and_counted() {
    init_no_event_loop();
    let dir = std::env::temp_dir().join(format!("hotseat-history-ui-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    let players = ["Anna", "Boris"]
        .iter()
        .enumerate()
        .map(|(i, n)| Player {
            name: n.to_string(),
            color: i as u8,
            kind: SeatKind::Human,
            level: None,
        })
        .collect();
    let mut s: Session<Ovo> = Session::start(
        Params::new().with("players", 2).with("first", 0),
        players,
        Sharing::PassAndPlay,
    )
    .unwrap();
    s.reveal();
    s.act(0, &"b1-b2".parse().unwrap()).unwrap();
    s.reveal();
    // Boris calls «Ovo!» too early: a wrong call loses a 2-player game.
    s.act(1, &"ovo".parse().unwrap()).unwrap();
    history::record(&dir, s.finished(1_795_910_400, Some(95)).unwrap()).unwrap();

    let (app, _c) = build(Some(dir)).unwrap();
    app.invoke_set_language("en".into());
    press(&app, "History");
    assert_eq!(app.get_screen(), Screen::History);
    let row = "Ovo — 2026-11-29, Anna, Boris, Anna won";
    assert!(present(&app, row));
    press(&app, row);
    assert!(present(&app, "1. Anna: b1-b2"));
    assert!(present(&app, "2. Boris: ovo"));
    press(&app, "Back");
    assert!(present(&app, row), "back from a game returns to the list");
    press(&app, "Statistics");
    assert!(present(&app, "Anna · Ovo: 1 played, 1 won"));
    assert!(present(&app, "Boris · Ovo: 1 played, 0 won"));
    press(&app, "Back");
    assert_eq!(app.get_screen(), Screen::Home);
}
