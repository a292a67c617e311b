//! Never lose a game: the app rebuilt from its save resumes behind the cover, a damaged
//! save is set aside with a clear notice and the backup offered, and an Ovo move can be
//! taken back from the cover before the next player looks.
#![cfg(feature = "devtools")]

use hotseat::ui::{build, AppWindow, GameChrome, Screen};
use i_slint_backend_testing::init_no_event_loop;
use slint::ComponentHandle;
use std::path::{Path, PathBuf};

mod common;
use common::{present, press, tap_cell as tap, temp_data};

/// The Ovo board as a screen reader reads it: the 36 cell labels, a1 to f6.
fn board(app: &AppWindow) -> Vec<String> {
    let mut cells: Vec<String> = common::elements(app)
        .iter()
        .filter_map(|e| e.accessible_label().map(|l| l.to_string()))
        .filter(|l| l.len() > 3 && l.as_bytes()[2] == b',' && l.as_bytes()[1].is_ascii_digit())
        .collect();
    cells.sort();
    cells.dedup();
    cells
}

/// Starts Ovo for Anna and Boris and plays one step for whoever goes first.
fn start_and_step(app: &AppWindow) -> (String, String) {
    press(app, "Ovo");
    app.invoke_rename(0, "Anna".into());
    app.invoke_rename(1, "Boris".into());
    press(app, "Start");
    let first = app.get_cover_name().to_string();
    let other = if first == "Anna" { "Boris" } else { "Anna" }.to_string();
    let (from, to) = if first == "Anna" {
        ("b1", "b2")
    } else {
        ("b6", "b5")
    };
    press(app, &format!("{first}, tap to reveal"));
    tap(app, from);
    tap(app, to);
    assert!(app.get_cover_up());
    assert_eq!(app.get_cover_name(), other.as_str());
    (first, other)
}

#[test]
fn a_rebuilt_app_continues_behind_the_cover_with_the_same_board() {
    init_no_event_loop();
    let dir = temp_data("continue");
    let (app, _c) = build(Some(dir.clone())).unwrap();
    app.invoke_set_language("en".into());
    assert!(!app.get_can_continue(), "nothing saved yet");
    let (_first, other) = start_and_step(&app);
    press(&app, &format!("{other}, tap to reveal"));
    let before = board(&app);
    assert_eq!(before.len(), 36);
    // The app is killed here.
    drop(app);
    let (again, _c) = build(Some(dir)).unwrap();
    assert!(again.get_can_continue());
    // A screen reader hears which game waits, not only that one does.
    assert!(present(&again, "Continue the saved game: Ovo, 2 players"));
    press(&again, "Continue the saved game: Ovo, 2 players");
    assert_eq!(again.get_screen(), Screen::Game);
    assert!(
        again.get_cover_up(),
        "a resumed game starts behind the cover"
    );
    assert_eq!(again.get_cover_name(), other.as_str());
    // The public board stays in the accessibility tree under the cover (a screen reader
    // keeps its cells' identities, docs/accessibility.md); nothing there is the seat's
    // own: no landing is offered and nothing is picked up.
    let covered = board(&again);
    assert_eq!(covered.len(), 36, "the public board under the cover");
    assert!(
        covered
            .iter()
            .all(|c| !c.contains("legal") && !c.contains("picked up")),
        "nothing of the seat's own under the cover: {covered:?}"
    );
    press(&again, &format!("{other}, tap to reveal"));
    assert_eq!(board(&again), before);
}

fn only_file_starting(dir: &Path, prefix: &str) -> Option<PathBuf> {
    std::fs::read_dir(dir)
        .ok()?
        .flatten()
        .map(|e| e.path())
        .find(|p| {
            p.file_name()
                .is_some_and(|n| n.to_string_lossy().starts_with(prefix))
        })
}

#[test]
fn a_damaged_save_is_kept_aside_and_the_backup_offered() {
    init_no_event_loop();
    let dir = temp_data("damaged");
    let (app, _c) = build(Some(dir.clone())).unwrap();
    app.invoke_set_language("en".into());
    let (_first, other) = start_and_step(&app);
    drop(app);
    // The save is cut short, as by a dying battery; the backup (the save before) is whole.
    let save = dir.join("current-game.json");
    let bytes = std::fs::read(&save).unwrap();
    std::fs::write(&save, &bytes[..bytes.len() / 2]).unwrap();
    let (again, _c) = build(Some(dir.clone())).unwrap();
    press(&again, "Continue the saved game");
    assert_eq!(again.get_screen(), Screen::Home, "no crash, still home");
    let notice = again.get_notice().to_string();
    assert!(
        notice.starts_with("This saved game could not be read; it was kept as "),
        "{notice}"
    );
    let kept = only_file_starting(&dir, "current-game.broken-").expect("the damaged file is kept");
    assert!(notice.contains(&kept.display().to_string()));
    assert_eq!(std::fs::read(&kept).unwrap(), &bytes[..bytes.len() / 2]);
    assert!(again.get_can_use_backup());
    press(&again, "Open the previous save");
    assert_eq!(again.get_screen(), Screen::Game);
    assert!(again.get_cover_up());
    assert_eq!(again.get_notice(), "");
    // The backup is the game as it started: the first player is still to move.
    assert_ne!(again.get_cover_name(), other.as_str());
}

#[test]
fn an_ovo_move_is_taken_back_from_the_cover_before_the_next_player_looks() {
    init_no_event_loop();
    let (app, _c) = build(Some(temp_data("undo"))).unwrap();
    app.invoke_set_language("en".into());
    press(&app, "Ovo");
    app.invoke_rename(0, "Anna".into());
    app.invoke_rename(1, "Boris".into());
    press(&app, "Start");
    let first = app.get_cover_name().to_string();
    press(&app, &format!("{first}, tap to reveal"));
    let before = board(&app);
    assert_eq!(
        app.global::<GameChrome>().get_undo_label(),
        "",
        "nothing to take back yet"
    );
    let (from, to) = if first == "Anna" {
        ("b1", "b2")
    } else {
        ("b6", "b5")
    };
    tap(&app, from);
    tap(&app, to);
    assert!(app.get_cover_up());
    let undo = format!("Take back {first}'s move");
    assert!(present(&app, &undo), "the cover offers the mover an undo");
    press(&app, &undo);
    assert!(!app.get_cover_up(), "the mover has the screen again");
    assert_eq!(board(&app), before);
    assert!(!present(&app, &undo));
}

#[test]
fn a_save_that_fails_is_said_on_screen_and_the_game_goes_on() {
    init_no_event_loop();
    // The data folder cannot be made: a file stands where it should be (as a full disk or
    // a full browser storage refuses the write).
    let blocker = temp_data("save-fails").join("not-a-folder");
    std::fs::write(&blocker, b"").unwrap();
    let (app, _c) = build(Some(blocker.join("data"))).unwrap();
    app.invoke_set_language("en".into());
    let (_, other) = start_and_step(&app);
    let chrome = app.global::<GameChrome>();
    let message = chrome.get_message().to_string();
    assert!(message.starts_with("Not saved"), "{message}");
    assert!(message.contains("The game goes on"), "{message}");
    assert!(chrome.get_message_is_warning());
    // The game in memory goes on: the next player's turn, behind the cover.
    press(&app, &format!("{other}, tap to reveal"));
    assert_eq!(chrome.get_banner(), format!("{other}'s turn"));
    assert!(
        !app.get_can_continue(),
        "nothing was saved, so nothing to continue"
    );
}

/// The moves of `tests/fixtures/ovo-peek.json`: Player 1 (seat 0, first) walks an egg
/// into Player 2's camp, where it lands hidden on d6; Player 2 is to move and may peek at
/// it (not move it: it moved in the turn just before). The players have the setup's
/// default names, so the Orca test plays on from there as from a new game. The browser can stage a position
/// only by replaying a save (its storage, then Continue), so `tests/browser/phone.py`
/// and `tests/orca/browser.py` resume this one to peek.
const PEEK_SCRIPT: &[&str] = &[
    "c1-c2", "d6-d5", "c2-c3", "d5-d4", "c3xe5", "d4-d3", "e5-d6",
];

/// The save the engine writes after [`PEEK_SCRIPT`] (the session's own `to_saved`).
fn peek_save() -> hotseat::session::SavedGame {
    use hotseat::games::ovo::{Ovo, OvoAction};
    use hotseat::games::Params;
    use hotseat::session::{Player, Session, Sharing};
    let params = Params::new()
        .with("players", 2)
        .with("first", 0)
        .with("no_move_back", "on");
    let mut session: Session<Ovo> = Session::start(
        params,
        Player::people(&["Player 1", "Player 2"]),
        Sharing::PassAndPlay,
    )
    .expect("a new Ovo game");
    for notation in PEEK_SCRIPT {
        let action: OvoAction = notation.parse().expect("Ovo notation");
        let seat = session.public().turn;
        session.reveal();
        session.act(seat, &action).expect("a legal move");
    }
    session.to_saved()
}

/// `tests/fixtures/ovo-peek.json` is what the engine saves after its moves (rewrite it
/// with `HOTSEAT_WRITE_FIXTURES=1 cargo test --test ui_resume peek_fixture`), and the app
/// resumed from it puts Player 2 behind the cover with a hidden egg he may peek at.
#[test]
fn the_peek_fixture_is_the_engines_save_and_resumes_to_a_peek() {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/ovo-peek.json");
    let made = peek_save();
    if std::env::var_os("HOTSEAT_WRITE_FIXTURES").is_some() {
        let json = serde_json::to_string_pretty(&made).expect("a save serialises");
        std::fs::write(&path, json + "\n").expect("the fixture is written");
    }
    let kept: hotseat::session::SavedGame =
        serde_json::from_slice(&std::fs::read(&path).expect("the fixture is checked in"))
            .expect("the fixture reads as a save");
    assert_eq!(kept, made, "the fixture is not what the engine saves now");

    init_no_event_loop();
    let dir = temp_data("peek-fixture");
    std::fs::write(dir.join("current-game.json"), std::fs::read(&path).unwrap()).unwrap();
    let (app, _c) = build(Some(dir)).unwrap();
    app.invoke_set_language("en".into());
    press(&app, "Continue the saved game: Ovo, 2 players");
    assert!(app.get_cover_up(), "a resumed game starts behind the cover");
    assert_eq!(app.get_cover_name(), "Player 2");
    press(&app, "Player 2, tap to reveal");
    assert!(
        present(&app, "d6, hidden egg, moved last turn, Player 2's camp"),
        "{:?}",
        board(&app)
    );
    tap(&app, "d6");
    press(&app, "Peek at this egg");
    assert!(present(&app, "d6 is a diamond — remember it"));
    press(&app, "Got it");
    assert!(app.get_cover_up());
    assert_eq!(app.get_cover_name(), "Player 1");
}
