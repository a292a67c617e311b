//! The history screen lists finished games with their result, opens a game's moves, and
//! counts each player's record.
#![cfg(feature = "devtools")]

use hotseat::games::{iota::Iota, ovo::Ovo, Params};
use hotseat::session::{Player, Session, Sharing};
use hotseat::store::{history, saves};
use hotseat::ui::{build, AppWindow, GameChrome, Screen};
use i_slint_backend_testing::init_no_event_loop;
use slint::ComponentHandle;

mod common;
use common::{labels, present, press, temp_data};

fn label_starting(app: &AppWindow, prefix: &str) -> Option<String> {
    labels(app).into_iter().find(|l| l.starts_with(prefix))
}

fn people() -> Vec<Player> {
    Player::people(&["Anna", "Boris"])
}

#[test]
fn finished_games_are_listed_opened_and_counted() {
    init_no_event_loop();
    let dir = temp_data("list");
    a_finished_ovo_game(&dir);

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

/// Anna steps b1-b2, Boris calls «Ovo!» too early and loses; the game is in the history.
fn a_finished_ovo_game(dir: &std::path::Path) {
    let mut s: Session<Ovo> = Session::start(
        Params::new().with("players", 2).with("first", 0),
        people(),
        Sharing::PassAndPlay,
    )
    .unwrap();
    s.reveal();
    s.act(0, &"b1-b2".parse().unwrap()).unwrap();
    s.reveal();
    s.act(1, &"ovo".parse().unwrap()).unwrap();
    history::record(dir, s.finished(1_795_910_400, Some(95)).unwrap()).unwrap();
}

#[test]
fn a_finished_game_steps_move_by_move_on_its_own_board() {
    init_no_event_loop();
    let dir = temp_data("replay-ovo");
    a_finished_ovo_game(&dir);
    let (app, _c) = build(Some(dir.clone())).unwrap();
    app.invoke_set_language("en".into());
    press(&app, "History");
    press(&app, "Ovo — 2026-11-29, Anna, Boris, Anna won");
    press(&app, "Replay on the board");
    assert_eq!(app.get_screen(), Screen::Game);
    assert_eq!(app.get_playing(), "ovo");
    assert!(!app.get_cover_up(), "a replay is public: no cover");
    let chrome = app.global::<GameChrome>();
    assert_eq!(chrome.get_title(), "Ovo · replay");
    assert!(present(&app, "Start"));
    assert_eq!(chrome.get_message(), "The game as it began.");
    assert!(
        label_starting(&app, "b1, Anna").is_some(),
        "Anna's egg starts on b1"
    );
    assert!(label_starting(&app, "b2, empty").is_some());

    press(&app, "Next move");
    assert!(present(&app, "Move 1 of 2"));
    assert_eq!(chrome.get_message(), "1. Anna: b1-b2");
    assert!(
        label_starting(&app, "b2, Anna").is_some(),
        "the egg stepped to b2"
    );
    assert!(label_starting(&app, "b1, empty").is_some());
    assert_eq!(chrome.get_banner(), "Boris's turn");

    // The board is a picture: tapping an egg picks nothing up and saves nothing.
    let b2 = label_starting(&app, "b2, Anna").unwrap();
    press(&app, &b2);
    assert!(label_starting(&app, "b2, Anna").is_some_and(|l| !l.contains("picked up")));
    assert!(
        !dir.join(saves::SAVE_FILE).exists(),
        "a replay is never saved"
    );

    press(&app, "Last position");
    assert!(present(&app, "Move 2 of 2"));
    assert_eq!(chrome.get_banner(), "Anna wins!");
    press(&app, "Previous move");
    assert!(present(&app, "Move 1 of 2"));
    press(&app, "First position");
    assert!(present(&app, "Start"));

    press(&app, "Back to the history");
    assert_eq!(app.get_screen(), Screen::History);
    assert!(
        present(&app, "2. Boris: ovo"),
        "the game's moves are still open"
    );
    // A move opens the board as it stood after it.
    press(&app, "1. Anna: b1-b2");
    assert_eq!(app.get_screen(), Screen::Game);
    assert!(present(&app, "Move 1 of 2"));
    press(&app, "Back to the history");
    press(&app, "Back");
    press(&app, "Back");
    assert_eq!(app.get_screen(), Screen::Home);
    let (games, _) = history::list(&dir);
    assert_eq!(games.len(), 1, "replaying recorded nothing new");
}

#[test]
fn the_game_in_progress_replays_without_anyones_cards() {
    init_no_event_loop();
    let dir = temp_data("replay-iota");
    let mut s: Session<Iota> = Session::start(
        Params::new()
            .with("players", 2)
            .with("seed", 7)
            .with("first", 0),
        people(),
        Sharing::PassAndPlay,
    )
    .unwrap();
    s.reveal();
    let hand = s.game().hand(0).to_vec();
    // Anna passes, returning her first two cards: which ones, only she knows.
    let pass = format!("pass {} {}", hand[0], hand[1]);
    s.act(0, &pass.parse().unwrap()).unwrap();
    saves::save(&dir, &s.to_saved()).unwrap();
    let secret: Vec<String> = hand[..2]
        .iter()
        .map(|c| hotseat::ui::iota::card_words(*c, "en"))
        .chain(hand[..2].iter().map(|c| c.to_string()))
        .collect();
    let before = std::fs::read(dir.join(saves::SAVE_FILE)).unwrap();

    let (app, _c) = build(Some(dir.clone())).unwrap();
    app.invoke_set_language("en".into());
    press(&app, "History");
    press(&app, "IOTA — in progress, Anna, Boris, In progress");
    assert!(present(&app, "1. Anna: pass, 2 cards back to the pile"));
    press(&app, "Replay on the board");
    assert_eq!(app.get_playing(), "iota");
    press(&app, "Last position");
    assert!(present(&app, "Move 1 of 1"));
    let all = labels(&app);
    assert!(
        !all.iter().any(|l| l.starts_with("Your card")),
        "no hand is on a replayed table: {all:?}"
    );
    for card in &secret {
        assert!(
            !all.iter().any(|l| l.contains(card.as_str())),
            "the returned card {card} is named: {all:?}"
        );
    }
    assert!(all.iter().any(|l| l.starts_with("column 0, row 0: ")));
    press(&app, "Back to the history");
    press(&app, "Back");
    press(&app, "Back");
    assert_eq!(
        std::fs::read(dir.join(saves::SAVE_FILE)).unwrap(),
        before,
        "looking at the game in progress leaves its save as it was"
    );
    assert!(app.get_can_continue());
}
