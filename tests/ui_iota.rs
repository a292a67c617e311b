//! IOTA played like a player would, without a display: start from setup, reveal, pick a
//! hand card and a cell by what a screen reader reads, and check the board, the banner,
//! the preview and the privacy of the hand.
#![cfg(feature = "ui")]

use hotseat::ui::{build, AppWindow, GameChrome, IotaBridge, Screen};
use i_slint_backend_testing::{init_no_event_loop, ElementHandle, ElementQuery};
use slint::ComponentHandle;
use std::path::PathBuf;

fn temp_data(tag: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("hotseat-iota-{tag}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    dir
}

/// Every accessible label in the element tree.
fn labels(app: &AppWindow) -> Vec<String> {
    ElementQuery::from_root(app)
        .match_descendants()
        .find_all()
        .into_iter()
        .filter_map(|e| e.accessible_label().map(|l| l.to_string()))
        .filter(|l| !l.is_empty())
        .collect::<std::collections::BTreeSet<_>>()
        .into_iter()
        .collect()
}

fn find(app: &AppWindow, label: &str) -> ElementHandle {
    ElementHandle::find_by_accessible_label(app, label)
        .next()
        .unwrap_or_else(|| panic!("no element labelled '{label}'"))
}

fn press(app: &AppWindow, label: &str) {
    find(app, label).invoke_accessible_default_action();
}

fn hand_labels(app: &AppWindow) -> Vec<String> {
    labels(app)
        .into_iter()
        .filter(|l| l.starts_with("Your card"))
        .collect()
}

/// Starts a two-player game of Anna and Boris from the setup screen.
fn start(tag: &str) -> AppWindow {
    init_no_event_loop();
    let (app, _c) = build(Some(temp_data(tag))).unwrap();
    app.show().unwrap();
    app.invoke_set_language("en".into());
    press(&app, "IOTA");
    press(&app, "2 players");
    app.invoke_rename(0, "Anna".into());
    app.invoke_rename(1, "Boris".into());
    press(&app, "Start");
    assert_eq!(app.get_screen(), Screen::Game);
    // Keep the controller alive with the window.
    std::mem::forget(_c);
    app
}

#[test]
fn the_hand_is_shown_only_to_its_seat_after_reveal() {
    let app = start("privacy");
    assert!(app.get_cover_up());
    assert!(
        hand_labels(&app).is_empty(),
        "a hand is in the tree under the cover"
    );
    press(&app, "Anna, tap to reveal");
    assert!(!app.get_cover_up());
    assert_eq!(app.get_playing(), "iota");
    assert_eq!(app.global::<GameChrome>().get_banner(), "Anna's turn");
    let anna = hand_labels(&app);
    assert_eq!(anna.len(), 4, "Anna sees her four cards: {anna:?}");
    // Board cells read as one item: position and content.
    let all = labels(&app);
    assert!(
        all.iter()
            .any(|l| l.starts_with("column 0, row 0: ") && !l.ends_with(": empty")),
        "the starter reads out: {all:?}"
    );
    assert!(all.iter().any(|l| l == "column 0, row minus 1: empty"));
    // Scores, hand sizes and the pile are public.
    assert!(labels(&app)
        .iter()
        .any(|l| l.starts_with("Boris: 0 points, 4 cards")));
    assert!(labels(&app).iter().any(|l| l.starts_with("Draw pile: ")));
    // Anna passes: the cover goes up for Boris, and Anna's cards are nowhere.
    press(&app, "Pass");
    assert!(app.get_cover_up());
    assert!(hand_labels(&app).is_empty());
    press(&app, "Boris, tap to reveal");
    assert_eq!(app.global::<GameChrome>().get_banner(), "Boris's turn");
    let all = labels(&app);
    let boris = hand_labels(&app);
    assert_eq!(boris.len(), 4);
    for card in &anna {
        let words = card.split(": ").nth(1).unwrap_or_default();
        if words == "wild" {
            continue; // two wilds exist: Boris may hold the other
        }
        assert!(
            !all.iter().any(|l| l.contains(words)),
            "Anna's {words} is readable on Boris's screen"
        );
    }
}

#[test]
fn staging_a_legal_card_previews_its_score_and_play_places_it() {
    let app = start("legal");
    press(&app, "Anna, tap to reveal");
    let before = app.global::<IotaBridge>().get_cells();
    let cards_before = slint::Model::iter(&before).filter(|c| c.filled).count();
    // Pick hand cards until one has a highlighted cell (highlights come from the rules core).
    let mut target = None;
    for i in 0..4 {
        let card = hand_labels(&app)[i].clone();
        press(&app, &card);
        target = labels(&app)
            .into_iter()
            .find(|l| l.ends_with("the selected card may go here"));
        if target.is_some() {
            break;
        }
        // Drop it again (tap the now-selected card).
        let selected = hand_labels(&app)[i].clone();
        assert!(selected.ends_with(", selected"), "{selected}");
        press(&app, &selected);
    }
    let Some(cell) = target else {
        // A hand with no legal card: passing is the player's move, and the test stops.
        press(&app, "Pass");
        return;
    };
    assert!(cell.starts_with("column "), "{cell}");
    press(&app, &cell);
    let bridge = app.global::<IotaBridge>();
    assert!(bridge.get_preview_ok(), "{}", bridge.get_preview());
    assert!(bridge.get_preview().starts_with("Scores "));
    let position = cell.split(": ").next().unwrap_or_default().to_string();
    assert!(
        labels(&app)
            .iter()
            .any(|l| l.starts_with(&format!("{position}: staged "))),
        "the staged card reads as staged"
    );
    press(&app, "Play");
    // The card now lies on the board, the score went up and Boris gets the device.
    let after = bridge.get_cells();
    let cards_after = slint::Model::iter(&after).filter(|c| c.filled).count();
    assert_eq!(cards_after, cards_before + 1);
    assert!(app.get_cover_up());
    assert!(app
        .global::<GameChrome>()
        .get_message()
        .starts_with("Anna scored "));
    press(&app, "Boris, tap to reveal");
    assert_eq!(app.global::<GameChrome>().get_banner(), "Boris's turn");
    assert!(!labels(&app).iter().any(|l| l.starts_with("Anna: 0 points")));
}

#[test]
fn an_illegal_staging_shows_the_reason_and_play_is_refused() {
    let app = start("illegal");
    press(&app, "Anna, tap to reveal");
    // Next to the lone starter any card fits, so stage a first card on a highlighted
    // cell, then a second one on a cell that is not highlighted for it.
    let card = hand_labels(&app)[0].clone();
    press(&app, &card);
    let good = labels(&app)
        .into_iter()
        .find(|l| l.ends_with("the selected card may go here"))
        .expect("next to the starter every card fits");
    press(&app, &good);
    let card = hand_labels(&app)
        .into_iter()
        .find(|l| !l.ends_with(", on the board"))
        .expect("a second card");
    press(&app, &card);
    // An empty cell that is not highlighted: the selected card may not go there.
    let bad = labels(&app)
        .into_iter()
        .find(|l| l.ends_with(": empty"))
        .expect("an empty cell that is not legal for this card");
    press(&app, &bad);
    let bridge = app.global::<IotaBridge>();
    assert!(!bridge.get_preview_ok());
    assert!(!bridge.get_preview().is_empty(), "a reason is shown");
    let reason = bridge.get_preview().to_string();
    let filled = slint::Model::iter(&bridge.get_cells())
        .filter(|c| c.filled)
        .count();
    press(&app, "Play");
    let chrome = app.global::<GameChrome>();
    assert!(chrome.get_message_is_warning());
    assert_eq!(chrome.get_message(), reason.as_str());
    assert!(!app.get_cover_up(), "still Anna's turn");
    let still = slint::Model::iter(&bridge.get_cells())
        .filter(|c| c.filled)
        .count();
    assert_eq!(still, filled, "nothing was placed");
    // Tapping the staged card takes it back to the hand.
    let position = bad.split(": ").next().unwrap_or_default().to_string();
    let staged = labels(&app)
        .into_iter()
        .find(|l| l.starts_with(&format!("{position}: staged ")))
        .expect("the staged card is on the board");
    press(&app, &staged);
    assert!(
        bridge.get_preview_ok(),
        "only the legal card is left staged"
    );
    press(&app, "Take back");
    assert!(bridge.get_preview().is_empty());
    // A tap on an empty cell with nothing picked says what to do.
    let empty = labels(&app)
        .into_iter()
        .find(|l| l.ends_with(": empty"))
        .expect("an empty cell");
    press(&app, &empty);
    assert!(chrome.get_message_is_warning());
    assert_eq!(chrome.get_message(), "Pick a card from your hand first");
}

#[test]
fn three_rounds_of_passes_end_the_game() {
    let app = start("end");
    // Anna passes and changes a card: pick it, then the pass button says so.
    press(&app, "Anna, tap to reveal");
    let card = hand_labels(&app)[2].clone();
    press(&app, &card);
    press(&app, "Pass, change card");
    assert_eq!(
        app.global::<GameChrome>().get_message(),
        "Anna passed and changed a card"
    );
    press(&app, "Boris, tap to reveal");
    press(&app, "Pass");
    for round in 1..3 {
        for name in ["Anna", "Boris"] {
            assert!(app.get_cover_up(), "round {round}: cover up for {name}");
            press(&app, &format!("{name}, tap to reveal"));
            press(&app, "Pass");
        }
    }
    // Nobody scored: the banner says so, the cover stays down and the buttons are off.
    assert!(!app.get_cover_up());
    assert_eq!(
        app.global::<GameChrome>().get_banner(),
        "Shared win: Anna, Boris"
    );
    assert!(!app.global::<IotaBridge>().get_can_pass());
    assert!(
        hand_labels(&app).is_empty(),
        "no hand shown once the game is over"
    );
}
