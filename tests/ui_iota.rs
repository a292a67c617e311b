//! IOTA played like a player would, without a display: start from setup, reveal, pick a
//! hand card and a cell by what a screen reader reads, and check the board, the banner,
//! the preview and the privacy of the hand.
#![cfg(feature = "devtools")]

use hotseat::ui::{AppWindow, GameChrome, IotaBridge, Screen};
use i_slint_backend_testing::ElementHandle;
use slint::ComponentHandle;

mod common;
use common::{english_app, press};

/// Every accessible label in the element tree.
/// Every label on screen once, sorted.
fn labels(app: &AppWindow) -> Vec<String> {
    common::labels(app)
        .into_iter()
        .collect::<std::collections::BTreeSet<_>>()
        .into_iter()
        .collect()
}

fn find(app: &AppWindow, label: &str) -> ElementHandle {
    ElementHandle::find_by_accessible_label(app, label)
        .find(|e| common::on_screen(app, e))
        .unwrap_or_else(|| panic!("no element labelled '{label}'"))
}

fn hand_labels(app: &AppWindow) -> Vec<String> {
    labels(app)
        .into_iter()
        .filter(|l| l.starts_with("Your card"))
        .collect()
}

/// Reveals the screen for whoever the cover names (the first seat is random); returns
/// that player's name.
fn reveal(app: &AppWindow) -> String {
    assert!(app.get_cover_up(), "the cover is up");
    let name = app.get_cover_name().to_string();
    press(app, &format!("{name}, tap to reveal"));
    name
}

fn other(name: &str) -> &'static str {
    if name == "Anna" {
        "Boris"
    } else {
        "Anna"
    }
}

/// Starts a two-player game of Anna and Boris from the setup screen.
/// The points a staged play's preview says it scores ("Scores 7 …"), if it says one.
fn previewed_score(preview: &str) -> Option<u32> {
    preview
        .trim_start_matches("Scores ")
        .split(' ')
        .next()
        .and_then(|n| n.parse().ok())
}

fn start(tag: &str) -> AppWindow {
    let (app, _c) = english_app(tag);
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
    let first = reveal(&app);
    let second = other(&first);
    assert!(!app.get_cover_up());
    assert_eq!(app.get_playing(), "iota");
    assert_eq!(
        app.global::<GameChrome>().get_banner(),
        format!("{first}'s turn")
    );
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
        .any(|l| l.starts_with(&format!("{second}: 0 points, 4 cards"))));
    assert!(labels(&app).iter().any(|l| l.starts_with("Draw pile: ")));
    // Anna passes: the cover goes up for Boris, and Anna's cards are nowhere.
    press(&app, "Pass");
    assert!(app.get_cover_up());
    assert!(hand_labels(&app).is_empty());
    press(&app, &format!("{second}, tap to reveal"));
    assert_eq!(
        app.global::<GameChrome>().get_banner(),
        format!("{second}'s turn")
    );
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
            "{first}'s {words} is readable on {second}'s screen"
        );
    }
}

#[test]
fn staging_a_legal_card_previews_its_score_and_play_places_it() {
    let app = start("legal");
    let first = reveal(&app);
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
        .starts_with(&format!("{first} placed 1 and scored ")));
    let second = reveal(&app);
    assert_eq!(
        app.global::<GameChrome>().get_banner(),
        format!("{second}'s turn")
    );
    assert!(!labels(&app)
        .iter()
        .any(|l| l.starts_with(&format!("{first}: 0 points"))));
    // The scoreboard shows the last turn's score next to the total.
    assert!(
        labels(&app)
            .iter()
            .any(|l| l.starts_with(&format!("{first}: ")) && l.contains(", last turn +")),
        "{:?}",
        labels(&app)
    );
    // A refusal is heard over the last move's line; a tap that is fine brings it back.
    let chrome = app.global::<GameChrome>();
    let placed = chrome.get_message().to_string();
    let empty = labels(&app)
        .into_iter()
        .find(|l| l.ends_with(": empty"))
        .expect("an empty cell");
    press(&app, &empty);
    assert!(chrome.get_message_is_warning());
    assert_eq!(chrome.get_message(), "Pick a card from your hand first");
    press(&app, &hand_labels(&app)[0]);
    assert!(!chrome.get_message_is_warning());
    assert_eq!(chrome.get_message(), placed.as_str());
}

#[test]
fn an_illegal_staging_shows_the_reason_and_play_is_refused() {
    let app = start("illegal");
    reveal(&app);
    let bad = stage_off_the_line(
        &app,
        hand_labels,
        "the selected card may go here",
        ", on the board",
        ": empty",
    );
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
    assert!(!app.get_cover_up(), "still the same turn");
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
    // The first player passes returning two cards: choose them, then the pass says so.
    let first = reveal(&app);
    let before = hand_labels(&app);
    press(&app, "Choose cards to return with a pass");
    assert!(
        hand_labels(&app).iter().all(|l| l.ends_with(", to keep")),
        "{:?}",
        hand_labels(&app)
    );
    assert_eq!(
        app.global::<IotaBridge>().get_trade_hint(),
        "Tap the cards to return to the pile, then Pass"
    );
    for i in [1, 3] {
        let card = hand_labels(&app)[i].clone();
        press(&app, &card);
    }
    let marked: Vec<String> = hand_labels(&app)
        .into_iter()
        .filter(|l| l.ends_with(", to return"))
        .collect();
    assert_eq!(marked.len(), 2, "{marked:?}");
    // Tapping a marked card unmarks it; tapping it again marks it again.
    press(&app, &marked[0]);
    let card = hand_labels(&app)[1].clone();
    assert!(card.ends_with(", to keep"), "{card}");
    press(&app, &card);
    press(&app, "Pass, return 2 cards");
    assert_eq!(
        app.global::<GameChrome>().get_message(),
        format!("{first} passed and changed 2 cards")
    );
    assert!(app.get_cover_up());
    assert!(before.len() == 4);
    reveal(&app);
    press(&app, "Pass");
    for round in 1..3 {
        for _ in 0..2 {
            assert!(app.get_cover_up(), "round {round}: cover up");
            reveal(&app);
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

#[test]
fn the_end_shows_the_ranking_and_the_best_turn() {
    let app = start("ranking");
    // The first player takes the hint (the best play) and plays it; then everybody passes
    // three full rounds and the game ends.
    let first = reveal(&app);
    press(&app, "Hint: stage the best play");
    let bridge = app.global::<IotaBridge>();
    assert!(bridge.get_preview_ok(), "{}", bridge.get_preview());
    let points = previewed_score(&bridge.get_preview()).expect("the preview says the score");
    press(&app, "Play");
    assert!(!bridge.get_over());
    for _ in 0..6 {
        reveal(&app);
        press(&app, "Pass");
    }
    assert!(bridge.get_over());
    let all = labels(&app);
    assert!(
        all.contains(&format!("1. {first}: {points} points")),
        "{all:?}"
    );
    assert!(
        all.contains(&format!("2. {}: 0 points", other(&first))),
        "{all:?}"
    );
    assert_eq!(
        bridge.get_best_turn(),
        format!("Best turn: {first}, {points} points")
    );
    assert!(all.contains(&format!("Best turn: {first}, {points} points")));
    assert!(hand_labels(&app).is_empty());
}

#[test]
fn the_hint_stages_the_best_scoring_play() {
    let app = start("hint");
    reveal(&app);
    let bridge = app.global::<IotaBridge>();
    let before = slint::Model::iter(&bridge.get_cells())
        .filter(|c| c.staged)
        .count();
    assert_eq!(before, 0);
    press(&app, "Hint: stage the best play");
    let staged: Vec<_> = slint::Model::iter(&bridge.get_cells())
        .filter(|c| c.staged)
        .collect();
    // Next to the lone starter something always fits: the hint stages it and the preview
    // shows its score.
    assert!(!staged.is_empty());
    assert!(bridge.get_preview_ok());
    let hinted = previewed_score(&bridge.get_preview()).expect("a score");
    // No single card placed by hand beats it: try every hand card on every highlighted cell.
    press(&app, "Take back");
    for i in 0..4 {
        let card = hand_labels(&app)[i].clone();
        press(&app, &card);
        let cells: Vec<String> = labels(&app)
            .into_iter()
            .filter(|l| l.ends_with("the selected card may go here"))
            .collect();
        for cell in cells {
            press(&app, &cell);
            let preview = bridge.get_preview().to_string();
            let single = previewed_score(&preview).unwrap_or(0);
            assert!(single <= hinted, "{preview} beats the hint's {hinted}");
            press(&app, "Take back");
            let card = hand_labels(&app)[i].clone();
            press(&app, &card);
        }
        let card = hand_labels(&app)[i].clone();
        if card.ends_with(", selected") {
            press(&app, &card);
        }
    }
}

#[test]
fn zoom_and_recentre_controls_are_there_and_named() {
    let app = start("zoom");
    reveal(&app);
    for label in ["Zoom in", "Zoom out", "Centre the board"] {
        let e = find(&app, label);
        assert_eq!(
            e.accessible_role(),
            Some(i_slint_backend_testing::AccessibleRole::Button)
        );
    }
    // On a phone a cell is never smaller than a thumb; zooming in makes it larger, and
    // zooming out returns it, never below 48 px.
    app.window().set_size(slint::LogicalSize::new(412.0, 915.0));
    let starter = || {
        labels(&app)
            .into_iter()
            .find(|l| l.starts_with("column 0, row 0: "))
            .map(|l| find(&app, &l).size().width)
            .expect("the starter")
    };
    // The layout follows the width on the next tick (Theme.compact).
    slint::platform::update_timers_and_animations();
    let base = starter();
    assert!(base >= 48.0, "a cell is {base} px wide");
    press(&app, "Zoom in");
    let bigger = starter();
    assert!(bigger > base, "{bigger} > {base}");
    press(&app, "Centre the board");
    press(&app, "Zoom out");
    press(&app, "Zoom out");
    press(&app, "Zoom out");
    let smaller = starter();
    assert!(smaller >= 48.0 && smaller < bigger, "{smaller}");
}

#[test]
fn refusals_read_in_russian() {
    let app = start("russian");
    app.invoke_set_language("ru".into());
    let name = app.get_cover_name().to_string();
    press(&app, &format!("{name}, коснитесь, чтобы открыть"));
    // Stage a legal card, then a second one away from its line: the core's English
    // reason is shown in Russian.
    let bridge = app.global::<IotaBridge>();
    stage_off_the_line(
        &app,
        hand_labels_ru,
        "сюда можно выложить выбранную карту",
        ", на столе",
        ": пусто",
    );
    assert!(!bridge.get_preview_ok());
    let reason = bridge.get_preview().to_string();
    assert!(
        reason.chars().any(|c| ('а'..='я').contains(&c)),
        "the reason is in Russian: {reason}"
    );
}

/// Next to the lone starter any card fits: stages the hand's first card on a highlighted
/// cell, then a second card on an empty cell that is not highlighted for it, which the
/// rules refuse; returns the refused cell's label. The endings are the labels' in the
/// app's language: a cell the selected card may go to, a staged card, an empty cell.
fn stage_off_the_line(
    app: &AppWindow,
    hand: fn(&AppWindow) -> Vec<String>,
    may_go: &str,
    staged: &str,
    empty: &str,
) -> String {
    let card = hand(app)[0].clone();
    press(app, &card);
    let good = labels(app)
        .into_iter()
        .find(|l| l.ends_with(may_go))
        .expect("next to the starter every card fits");
    press(app, &good);
    let card = hand(app)
        .into_iter()
        .find(|l| !l.ends_with(staged))
        .expect("a second card");
    press(app, &card);
    let bad = labels(app)
        .into_iter()
        .find(|l| l.ends_with(empty))
        .expect("an empty cell that is not legal for this card");
    press(app, &bad);
    bad
}

fn hand_labels_ru(app: &AppWindow) -> Vec<String> {
    labels(app)
        .into_iter()
        .filter(|l| l.starts_with("Ваша карта"))
        .collect()
}

/// What the IOTA bridge itself says (not the rules core) reaches a Russian player in
/// Russian: a tap refused before any card is picked, the pile, the Pass button.
#[test]
fn the_bridges_own_words_read_in_russian() {
    let app = start("russian-words");
    app.invoke_set_language("ru".into());
    let name = app.get_cover_name().to_string();
    press(&app, &format!("{name}, коснитесь, чтобы открыть"));
    let empty = common::labels(&app)
        .into_iter()
        .find(|l| l.ends_with(": пусто"))
        .expect("an empty cell");
    press(&app, &empty);
    let chrome = app.global::<GameChrome>();
    assert_eq!(chrome.get_message(), "Сначала выберите карту в руке");
    assert!(chrome.get_message_is_warning());
    let bridge = app.global::<IotaBridge>();
    assert!(bridge.get_pile_label().starts_with("В колоде: "));
    assert_eq!(bridge.get_pass_text(), "Пас");
    assert!(
        hand_labels_ru(&app)[0].contains(' '),
        "{:?}",
        hand_labels_ru(&app)
    );
    app.invoke_set_language("en".into());
}
