//! Played as someone who cannot see the screen: only keys, accessible labels and
//! accessible actions (no coordinates), and what a screen reader would hear — the focused
//! board's label, the live region's announcement, the summary. Also: nothing private in
//! the accessibility tree while the cover is up, and no stale private text after it.
#![cfg(feature = "devtools")]

use hotseat::ui::{Access, AppWindow, GameChrome, OmigaBridge, Screen};
use i_slint_backend_testing::ElementQuery;
use slint::platform::{Key, WindowEvent};
use slint::ComponentHandle;

mod common;
use common::{labels, present, press};

/// The app on its home screen, in English, with a fresh data folder.
fn home(tag: &str) -> AppWindow {
    let (app, c) = common::english_app(tag);
    // The controller lives as long as the window in these tests.
    std::mem::forget(c);
    app
}

/// The setup of the game labelled `game_label`.
fn start(game_label: &str, tag: &str) -> AppWindow {
    let app = home(tag);
    press(&app, game_label);
    assert_eq!(app.get_screen(), Screen::Setup);
    app
}

fn key(app: &AppWindow, text: impl Into<slint::SharedString>) {
    let text = text.into();
    app.window()
        .dispatch_event(WindowEvent::KeyPressed { text: text.clone() });
    app.window()
        .dispatch_event(WindowEvent::KeyReleased { text });
}

/// What the focused board says: "Egg tray: b1, Anna's diamond egg, …".
fn board_says(app: &AppWindow, board: &str) -> String {
    labels(app)
        .into_iter()
        .find(|l| l.starts_with(board))
        .unwrap_or_else(|| panic!("no board '{board}' on screen"))
}

fn reveal(app: &AppWindow) -> String {
    assert!(app.get_cover_up(), "the cover is up");
    let name = app.get_cover_name().to_string();
    press(app, &format!("{name}, tap to reveal"));
    name
}

/// Moves the Ovo cursor with the arrow keys to cell `name` ("b1"), reading only what the
/// board says after each key.
fn ovo_cursor_to(app: &AppWindow, name: &str) {
    let target = name.as_bytes();
    for _ in 0..20 {
        let said = board_says(app, "Egg tray");
        let Some(cell) = said.strip_prefix("Egg tray: ").map(|s| s.as_bytes()) else {
            key(app, Key::RightArrow);
            continue;
        };
        let (file, rank) = (cell[0], cell[1]);
        if file < target[0] {
            key(app, Key::RightArrow);
        } else if file > target[0] {
            key(app, Key::LeftArrow);
        } else if rank < target[1] {
            key(app, Key::UpArrow);
        } else if rank > target[1] {
            key(app, Key::DownArrow);
        } else {
            return;
        }
    }
    panic!(
        "the cursor never reached {name}: {}",
        board_says(app, "Egg tray")
    );
}

#[test]
fn ovo_is_played_to_its_end_with_keys_and_labels() {
    let app = start("Ovo", "ovo");
    press(&app, "Start");
    let first = reveal(&app);
    let (from, to, other) = if first == "Player 1" {
        ("b1", "b2", "Player 2")
    } else {
        ("b6", "b5", "Player 1")
    };
    // The first arrow puts the cursor on the board; the board says the cell.
    key(&app, Key::RightArrow);
    assert!(board_says(&app, "Egg tray").starts_with("Egg tray: "));
    ovo_cursor_to(&app, from);
    key(&app, Key::Return);
    assert!(board_says(&app, "Egg tray").contains("picked up"));
    // Escape puts the egg down again.
    key(&app, Key::Escape);
    assert!(!board_says(&app, "Egg tray").contains("picked up"));
    key(&app, Key::Return);
    ovo_cursor_to(&app, to);
    assert!(board_says(&app, "Egg tray").contains("legal landing"));
    // S: the summary says whose turn it is and what to do.
    key(&app, "s");
    let summary = app.global::<Access>().get_summary().to_string();
    assert!(summary.starts_with(&format!("{first}'s turn")), "{summary}");
    key(&app, Key::Return);
    // The move is announced once, in words, in the live region the cover keeps.
    assert!(app.get_cover_up());
    let said = format!("{first} moved {from} to {to}");
    assert!(labels(&app).contains(&said), "{:?}", labels(&app));
    assert_eq!(app.global::<Access>().get_summary(), "", "no stale summary");
    // The next player declares «Ovo!» at once: wrong, so the first player wins.
    assert_eq!(reveal(&app), other);
    press(&app, "Declare «Ovo!»");
    press(&app, "Declare «Ovo!»");
    let banner = app.global::<GameChrome>().get_banner().to_string();
    assert_eq!(banner, format!("{first} wins!"));
    let heard = app.global::<Access>().get_announcement().to_string();
    assert!(
        heard.starts_with(&format!("{other} declared «Ovo!» — wrong")),
        "{heard}"
    );
    press(&app, "Back to home");
    assert_eq!(app.get_screen(), Screen::Home);
}

fn hand(app: &AppWindow) -> Vec<String> {
    labels(app)
        .into_iter()
        .filter(|l| l.starts_with("Your card"))
        // One element can be reached through several nested components.
        .collect::<std::collections::BTreeSet<_>>()
        .into_iter()
        .collect()
}

#[test]
fn iota_is_played_to_its_end_with_keys_and_labels_and_the_cover_hides_the_hand() {
    let app = start("IOTA", "iota");
    press(&app, "2 players");
    app.invoke_rename(0, "Anna".into());
    app.invoke_rename(1, "Boris".into());
    press(&app, "Start");
    // Under the cover: no hand anywhere in the tree, no summary, nothing private.
    assert!(app.get_cover_up());
    assert!(hand(&app).is_empty());
    key(&app, "s");
    assert_eq!(app.global::<Access>().get_summary(), "");
    let first = reveal(&app);
    let cards = hand(&app);
    assert_eq!(cards.len(), 4, "{cards:?}");
    // The summary speaks the hand to its own seat.
    key(&app, "s");
    let summary = app.global::<Access>().get_summary().to_string();
    assert!(summary.contains(&cards[0]), "{summary}");
    // Digit 1 picks the first card; Escape-free: the hint stages the best play, P plays.
    key(&app, "1");
    assert!(
        hand(&app).iter().any(|l| l.contains("selected")),
        "{:?}",
        hand(&app)
    );
    press(&app, "Hint: stage the best play");
    key(&app, "p");
    assert!(app.get_cover_up(), "the turn passed");
    let heard = app.global::<Access>().get_announcement().to_string();
    assert!(heard.starts_with(&format!("{first} placed ")), "{heard}");
    // Nothing of the first hand is left anywhere: labels, summary, cursor.
    let all = labels(&app);
    for card in &cards {
        assert!(!all.contains(card), "{card} still in the tree");
    }
    assert!(hand(&app).is_empty());
    assert_eq!(app.global::<Access>().get_summary(), "");
    // The board reads cell by cell with index and count, from the keyboard too.
    reveal(&app);
    key(&app, Key::DownArrow);
    let board = board_says(&app, "Table of cards");
    assert!(
        board.contains("column ") && board.contains("row "),
        "{board}"
    );
    let cell = common::elements(&app)
        .into_iter()
        .find(|e| {
            e.accessible_label()
                .is_some_and(|l| l.starts_with("column "))
        })
        .expect("a board cell");
    assert!(cell.accessible_item_count().unwrap_or(0) > 1);
    assert!(cell.accessible_item_index().is_some());
    // Three rounds of passes end the game.
    press(&app, "Pass");
    for _ in 0..5 {
        reveal(&app);
        press(&app, "Pass");
    }
    let banner = app.global::<GameChrome>().get_banner().to_string();
    assert_eq!(banner, format!("{first} wins!"));
    assert!(hand(&app).is_empty());
}

#[test]
fn omiga_places_a_card_from_the_keyboard_and_announces_it() {
    let app = start("Omiga", "omiga");
    app.invoke_start_game();
    let bridge = app.global::<OmigaBridge>();
    for _ in 0..3 {
        bridge.invoke_tick();
    }
    // Digits pick White's cards (near side); find one with a legal cell.
    let mut found = None;
    'cards: for digit in ["1", "2", "3"] {
        key(&app, digit);
        // Walk the whole table with the arrows, row by row, listening to the board.
        key(&app, Key::Return); // no cursor yet: Enter puts it on the table
        for _ in 0..bridge.get_rows() {
            key(&app, Key::UpArrow);
        }
        for _ in 0..bridge.get_columns() {
            key(&app, Key::LeftArrow);
        }
        for _ in 0..bridge.get_rows() {
            for _ in 0..bridge.get_columns() {
                if board_says(&app, "Omiga table").contains("White may place here") {
                    found = Some(board_says(&app, "Omiga table"));
                    break 'cards;
                }
                key(&app, Key::RightArrow);
            }
            for _ in 0..bridge.get_columns() {
                key(&app, Key::LeftArrow);
            }
            key(&app, Key::DownArrow);
        }
        key(&app, Key::Escape);
    }
    let cell = found.expect("some White card fits somewhere");
    key(&app, Key::Return);
    let heard = app.global::<Access>().get_announcement().to_string();
    let name = bridge.get_white_name().to_string();
    assert!(
        heard.starts_with(&format!("{name} placed at x ")),
        "{heard}"
    );
    // The cell it went to now reads as a white card.
    let place = cell
        .trim_start_matches("Omiga table: ")
        .split(':')
        .next()
        .unwrap_or_default()
        .to_string();
    assert!(heard.contains(&place), "{heard} vs {place}");
    assert!(board_says(&app, "Omiga table").contains("white card"));
}

#[test]
// Starts from the Ovo example table of the developer tools.
#[cfg(feature = "devtools")]
fn a_peek_result_is_never_announced_nor_left_behind() {
    let (app, c) = common::english_app("peek");
    hotseat::ui::ovo::show_demo(&app, &c, "ovo");
    // Anna has the hidden egg on c1 picked up; she peeks.
    press(&app, "Peek at this egg");
    let private = "c1 is a star — remember it";
    assert!(labels(&app).iter().any(|l| l == private));
    // The public announcement says that she peeked, never what she saw.
    let heard = app.global::<Access>().get_announcement().to_string();
    assert_eq!(heard, "Anna peeked at c1");
    press(&app, "Got it");
    // Cover up for Boris: the whole tree, the summary and the announcement are clean.
    // The public board stays in the tree under the cover (its cells keep their identity
    // for a screen reader), with Boris's visible star eggs on it: what must be absent is
    // the peek result, and any star on c1.
    assert!(app.get_cover_up());
    key(&app, "s");
    let everything: Vec<String> = labels(&app)
        .into_iter()
        .chain([
            app.global::<Access>().get_summary().to_string(),
            app.global::<Access>().get_announcement().to_string(),
            app.global::<Access>().get_cursor_label().to_string(),
        ])
        .collect();
    assert!(
        everything
            .iter()
            .all(|l| !l.contains("is a star") && !l.contains("remember it")),
        "{everything:?}"
    );
    let c1: Vec<&String> = everything
        .iter()
        .filter(|l| l.starts_with("c1, "))
        .collect();
    assert!(
        !c1.is_empty()
            && c1
                .iter()
                .all(|l| l.contains("hidden egg") && !l.contains("star")),
        "{c1:?}"
    );
    press(&app, "Boris, tap to reveal");
    key(&app, "s");
    let summary = app.global::<Access>().get_summary().to_string();
    assert!(summary.starts_with("Boris's turn"), "{summary}");
    assert!(!summary.contains("star"), "{summary}");
}

#[test]
fn tab_and_enter_open_a_game_from_home_and_start_it() {
    let app = home("tab");
    // The first Tab lands on the first game tile; Enter opens its setup.
    key(&app, Key::Tab);
    key(&app, Key::Return);
    assert_eq!(app.get_screen(), Screen::Setup);
    let game = app.get_setup_game().to_string();
    assert_eq!(game, "ovo");
    // Tab k times from the top of the setup, then Enter: some k reaches Start. (Enter on
    // Back leaves the screen and drops the focus: come back and count from the top.)
    for k in 1..40 {
        if app.get_screen() == Screen::Game {
            break;
        }
        app.set_screen(Screen::Setup);
        for _ in 0..k {
            key(&app, Key::Tab);
        }
        key(&app, Key::Return);
    }
    assert_eq!(app.get_screen(), Screen::Game, "Start was reached by Tab");
}

/// Roles that a player acts on: each must say what it is.
fn unnamed_controls(app: &AppWindow) -> Vec<String> {
    use i_slint_backend_testing::AccessibleRole as R;
    common::elements(app)
        .iter()
        .filter(|e| {
            matches!(
                e.accessible_role(),
                Some(R::Button | R::Checkbox | R::Switch | R::ListItem | R::TextInput)
            )
        })
        .filter(|e| e.accessible_label().is_none_or(|l| l.trim().is_empty()))
        .map(|e| format!("{:?} {:?}", e.accessible_role(), e.id()))
        .collect()
}

/// Nodes a screen reader would stop on that say nothing in words: a lone glyph ("◆",
/// "★", "+"), a colour's letter ("G"), or an element with a role and no name.
fn glyph_nodes(app: &AppWindow) -> Vec<String> {
    use i_slint_backend_testing::AccessibleRole as R;
    common::elements(app)
        .iter()
        .filter(|e| matches!(e.accessible_role(), Some(r) if r != R::None))
        .filter_map(|e| {
            let label = e
                .accessible_label()
                .map(|l| l.to_string())
                .unwrap_or_default();
            let words = label.chars().filter(|c| c.is_alphanumeric()).count();
            let digits = !label.is_empty() && label.chars().all(|c| c.is_ascii_digit());
            // A number (Omiga's countdown) is words; a role with an empty name is a
            // stop with nothing to hear, except text that is empty for now (the live
            // region, the message line) and so is skipped by a reader.
            let empty_text = label.is_empty() && e.accessible_role() == Some(R::Text);
            (!digits && !empty_text && words < 2)
                .then(|| format!("{:?} {label:?} {:?}", e.accessible_role(), e.id()))
        })
        .collect()
}

#[test]
fn every_control_on_every_screen_has_a_name() {
    let app = start("Ovo", "audit");
    assert_eq!(unnamed_controls(&app), Vec::<String>::new(), "setup");
    assert_eq!(glyph_nodes(&app), Vec::<String>::new(), "setup");
    for screen in [
        Screen::Home,
        Screen::Settings,
        Screen::Rules,
        Screen::History,
    ] {
        app.set_screen(screen);
        assert_eq!(unnamed_controls(&app), Vec::<String>::new(), "{screen:?}");
        assert_eq!(glyph_nodes(&app), Vec::<String>::new(), "{screen:?}");
    }
    for game in ["Ovo", "IOTA", "Omiga"] {
        app.set_screen(Screen::Home);
        press(&app, game);
        // Omiga's Start lies below the fold at this size; see the Tab test for reaching it.
        app.invoke_start_game();
        assert_eq!(unnamed_controls(&app), Vec::<String>::new(), "{game} cover");
        if app.get_cover_up() {
            reveal(&app);
        }
        assert_eq!(unnamed_controls(&app), Vec::<String>::new(), "{game}");
        assert_eq!(glyph_nodes(&app), Vec::<String>::new(), "{game}");
        press(&app, "Leave the game");
    }
}

/// What the focused board would say besides its name: Orca 43 speaks a change of it.
fn board_describes(app: &AppWindow, board: &str) -> String {
    common::elements(app)
        .into_iter()
        .find({
            let board = board.to_string();
            move |e| {
                e.accessible_role() == Some(i_slint_backend_testing::AccessibleRole::List)
                    && e.accessible_label()
                        .is_some_and(|l| l.starts_with(board.as_str()))
            }
        })
        .and_then(|e| e.accessible_description())
        .map(|d| d.to_string())
        .unwrap_or_else(|| panic!("no board '{board}' on screen"))
}

#[test]
fn iota_says_the_picked_card_and_the_score_and_the_cursor_stays_on_its_cell() {
    let app = start("IOTA", "iota-cursor");
    press(&app, "2 players");
    press(&app, "Start");
    reveal(&app);
    // Digit 1 picks the first card without moving the focus: the board says which.
    let card = hand(&app)
        .into_iter()
        .find(|l| l.starts_with("Your card 1: "))
        .expect("a first card");
    let words = card.trim_start_matches("Your card 1: ").to_string();
    key(&app, "1");
    let said = board_describes(&app, "Table of cards");
    assert!(said.contains(&format!("Picked: {words}")), "{said}");
    // The first card lies alone: any card goes beside it. The cursor starts on it; one
    // step right is an empty cell where the picked card may go.
    key(&app, Key::Return);
    key(&app, Key::RightArrow);
    let before = board_says(&app, "Table of cards");
    assert!(before.contains("the selected card may go here"), "{before}");
    let place = before
        .trim_start_matches("Table of cards: ")
        .split(':')
        .next()
        .unwrap_or_default()
        .to_string();
    // Enter stages it there; the list of cells grows round it, the cursor stays put.
    key(&app, Key::Return);
    let after = board_says(&app, "Table of cards");
    assert!(
        after.starts_with(&format!("Table of cards: {place}: staged {words}")),
        "{after} (was on {place})"
    );
    // What it would score is said at once, as the preview line shows it.
    let said = board_describes(&app, "Table of cards");
    assert!(said.contains("Scores "), "{said}");
    assert!(!said.contains("Picked: "), "the card left the hand: {said}");
    // The cursor keeps its cell while the player moves off it and back.
    key(&app, Key::LeftArrow);
    key(&app, Key::RightArrow);
    assert!(
        board_says(&app, "Table of cards").starts_with(&format!("Table of cards: {place}: staged"))
    );
    // Under the next cover nothing of the hand is said.
    key(&app, "p");
    assert!(app.get_cover_up());
    let said = board_describes(&app, "Table of cards");
    assert!(
        !said.contains("Picked") && !said.contains("Scores "),
        "{said}"
    );
    assert!(!said.contains(&words), "{said}");
}

/// Every cell of a board, found as an item of the board's own list, with its set size.
fn list_items(app: &AppWindow, board: &str) -> (Option<usize>, Vec<(String, Option<usize>)>) {
    let board = board.to_string();
    let list = common::elements(app)
        .into_iter()
        .find(move |e| {
            e.accessible_role() == Some(i_slint_backend_testing::AccessibleRole::List)
                && e.accessible_label()
                    .is_some_and(|l| l.starts_with(board.as_str()))
        })
        .expect("the board's list");
    let items = list
        .query_descendants()
        .match_accessible_role(i_slint_backend_testing::AccessibleRole::ListItem)
        .find_all()
        .into_iter()
        .map(|e| {
            (
                e.accessible_label()
                    .map(|l| l.to_string())
                    .unwrap_or_default(),
                e.accessible_item_count(),
            )
        })
        .collect();
    (list.accessible_item_count(), items)
}

#[test]
fn board_cells_are_items_of_the_board_list_with_its_size() {
    let app = start("Ovo", "items");
    press(&app, "Start");
    reveal(&app);
    let (count, cells) = list_items(&app, "Egg tray");
    assert_eq!(count, Some(36), "the list says how many cells it holds");
    assert_eq!(cells.len(), 36, "{cells:?}");
    assert!(
        cells.iter().any(|(l, _)| l.starts_with("b1, ")),
        "{cells:?}"
    );
    assert!(cells.iter().all(|(_, n)| *n == Some(36)), "{cells:?}");
    press(&app, "Leave the game");
    for (game, board) in [("IOTA", "Table of cards"), ("Omiga", "Omiga table")] {
        app.set_screen(Screen::Home);
        press(&app, game);
        app.invoke_start_game();
        if app.get_cover_up() {
            reveal(&app);
        }
        let (count, cells) = list_items(&app, board);
        assert!(!cells.is_empty(), "{game}: no cells in the list");
        assert_eq!(count, Some(cells.len()), "{game}: {cells:?}");
        press(&app, "Leave the game");
    }
}

#[test]
fn the_colour_button_says_which_colour() {
    let app = start("Ovo", "colour");
    let names = ["blue", "orange", "green", "pink"];
    let said = common::labels_starting(&app, "Player 1 colour: ");
    assert_eq!(said.len(), 1, "{said:?}");
    assert!(said[0].ends_with(", circle"), "{said:?}");
    assert!(names.iter().any(|c| said[0].contains(c)), "{said:?}");
    press(&app, &said[0]);
    let now = common::labels_starting(&app, "Player 1 colour: ");
    assert_eq!(now.len(), 1, "{now:?}");
    assert_ne!(now, said, "the next colour is said");
    assert!(common::labels_starting(&app, "Player 2 colour: ")[0].ends_with(", triangle"));
}

#[test]
fn a_new_setup_keeps_nothing_of_the_last_game_and_starts_silent() {
    let app = start("Ovo", "fresh-setup");
    press(&app, "Start");
    let first = reveal(&app);
    let (from, to) = if first == "Player 1" {
        ("b1", "b2")
    } else {
        ("b6", "b5")
    };
    key(&app, Key::RightArrow);
    ovo_cursor_to(&app, from);
    key(&app, Key::Return);
    ovo_cursor_to(&app, to);
    key(&app, Key::Return);
    let said = format!("{first} moved {from} to {to}");
    assert_eq!(app.global::<Access>().get_announcement(), said.as_str());
    press(&app, "Leave the game");
    press(&app, "IOTA");
    assert_eq!(app.get_screen(), Screen::Setup);
    assert!(
        labels(&app).iter().all(|l| !l.contains(&said)),
        "{:?}",
        labels(&app)
    );
    let access = app.global::<Access>();
    assert_eq!(access.get_announcement(), "");
    assert_eq!(access.get_news(), "");
    // An empty live text is no live region: clearing it announced nothing.
    let live = common::elements(&app)
        .into_iter()
        .filter(|e| {
            e.accessible_live_region()
                .is_some_and(|l| l != i_slint_backend_testing::AccessibleLiveness::Off)
                && e.accessible_label().is_none_or(|l| l.is_empty())
        })
        .collect::<Vec<_>>();
    assert!(live.is_empty(), "a live region with nothing to say");
    press(&app, "Start");
    assert_eq!(
        access.get_announcement(),
        "",
        "no announcement at the start"
    );
}

/// Every labelled element in the tree, on show or parked: what a screen reader can reach
/// by walking the tree, whatever is on the window.
fn every_label(app: &AppWindow) -> Vec<String> {
    ElementQuery::from_root(app)
        .match_descendants()
        .find_all()
        .into_iter()
        .filter_map(|e| e.accessible_label().map(|l| l.to_string()))
        .filter(|l| !l.is_empty())
        .collect()
}

/// A left game stays in the accessibility tree, parked off the window, so that its
/// elements keep their identity for Orca when the player comes back (ui/widgets/stage.slint):
/// nothing private may stay there, and none of its controls may be reached.
#[test]
fn a_left_game_stays_in_the_tree_with_no_hand_and_no_control_to_reach() {
    let app = start("IOTA", "parked");
    press(&app, "Start");
    reveal(&app);
    let hand = common::labels_starting(&app, "Your card ");
    assert_eq!(hand.len(), 4, "the revealed hand is on show");
    key(&app, "1");
    assert!(app.global::<Access>().get_news().starts_with("Picked: "));

    let board = ElementQuery::from_root(&app)
        .match_descendants()
        .match_predicate(|e| {
            e.accessible_label()
                .is_some_and(|l| l.starts_with("Table of cards"))
        })
        .find_first()
        .expect("the board is on show");

    press(&app, "Leave the game");
    assert_eq!(app.get_screen(), Screen::Home);
    let all = every_label(&app);
    assert!(board.is_valid(), "the board stays in the tree");
    assert_eq!(
        board.accessible_label().as_deref(),
        Some(""),
        "a parked board says nothing"
    );
    assert!(
        !present(&app, "Hint: stage the best play"),
        "but not on show"
    );
    for private in hand
        .iter()
        .map(String::as_str)
        .chain(["Your card ", "Picked: "])
    {
        assert!(
            !all.iter().any(|l| l.contains(private)),
            "{private:?} stayed in the tree after the game was left: {all:?}"
        );
    }
    let parked = ElementQuery::from_root(&app)
        .match_descendants()
        .find_all()
        .into_iter()
        .filter(|e| !common::on_screen(&app, e))
        .collect::<Vec<_>>();
    assert!(!parked.is_empty(), "the setup and the game are parked");
    for e in &parked {
        use i_slint_backend_testing::AccessibleRole as R;
        if matches!(
            e.accessible_role(),
            Some(R::Button | R::Checkbox | R::TextInput)
        ) {
            assert_eq!(
                e.accessible_enabled(),
                Some(false),
                "a parked control can be reached: {:?}",
                e.accessible_label()
            );
        }
        assert!(
            e.accessible_description()
                .is_none_or(|d| !d.contains("Picked: ")),
            "a parked board still says the pick"
        );
    }
    // Coming back: the same tiles, the same Start.
    press(&app, "IOTA");
    assert_eq!(app.get_screen(), Screen::Setup);
    press(&app, "Start");
    assert_eq!(app.get_screen(), Screen::Game);
}

/// Every control in the window, on show or not (parked screens, folded buttons):
/// how many buttons and switches there are. A control made again with `if` would come
/// back under a recycled AccessKit id, which Orca 43 holds for defunct and never speaks
/// again (ui/widgets/stage.slint); so, as a turn goes on, controls may be enabled,
/// greyed or folded, but none is made or unmade.
fn controls(app: &AppWindow) -> usize {
    use i_slint_backend_testing::AccessibleRole as R;
    ElementQuery::from_root(app)
        .match_descendants()
        .find_all()
        .into_iter()
        .filter(|e| matches!(e.accessible_role(), Some(R::Button | R::Checkbox)))
        .count()
}

#[test]
fn ovo_turn_controls_are_made_once_and_a_folded_one_does_nothing() {
    let app = start("Ovo", "folded");
    press(&app, "Start");
    let first = reveal(&app);
    let made = controls(&app);
    assert!(present(&app, "Pass") || present(&app, "Declare «Ovo!»"));
    assert!(
        !present(&app, "Cancel"),
        "nothing picked up, nothing to cancel"
    );
    let (from, to, other) = if first == "Player 1" {
        ("b1", "b2", "Player 2")
    } else {
        ("b6", "b5", "Player 1")
    };
    key(&app, Key::RightArrow);
    ovo_cursor_to(&app, from);
    key(&app, Key::Return);
    assert!(board_says(&app, "Egg tray").contains("picked up"));
    assert_eq!(controls(&app), made, "picking up made or unmade a control");
    assert!(present(&app, "Cancel"));
    assert!(!present(&app, "Pass"), "Pass is folded while an egg is up");
    // A screen reader can still find the folded Pass in the tree; acting on it does nothing.
    for pass in all_labelled(&app, "Pass") {
        assert_eq!(pass.accessible_enabled(), Some(false));
        pass.invoke_accessible_default_action();
    }
    assert!(
        board_says(&app, "Egg tray").contains("picked up"),
        "a folded Pass passed the turn"
    );
    ovo_cursor_to(&app, to);
    key(&app, Key::Return);
    assert!(app.get_cover_up());
    assert_eq!(
        controls(&app),
        made,
        "the hand-off made or unmade a control"
    );
    assert_eq!(reveal(&app), other);
    press(&app, "Declare «Ovo!»");
    assert!(present(&app, "Not now"), "the question is asked");
    assert_eq!(controls(&app), made, "the question made a control");
    press(&app, "Declare «Ovo!»");
    // The end (a random deal may also leave the scores level: equal highest scores share
    // the win, RULES.md §2).
    let banner = app.global::<GameChrome>().get_banner();
    assert!(
        banner.ends_with("wins!") || banner.starts_with("Shared win: "),
        "the game ended: {banner}"
    );
    assert!(present(&app, "New game with the same players"));
    assert!(!present(&app, "Not now"), "the question is folded away");
    assert_eq!(controls(&app), made, "the end made or unmade a control");
}

/// Every element labelled `label`, on show or not.
fn all_labelled(app: &AppWindow, label: &str) -> Vec<i_slint_backend_testing::ElementHandle> {
    i_slint_backend_testing::ElementHandle::find_by_accessible_label(app, label).collect()
}

#[test]
fn every_screen_is_made_once_and_parked_between_visits() {
    let app = home("screens");
    let made = controls(&app);
    for (open, inside) in [
        ("Settings", "High contrast"),
        ("Rules", "Omiga"),
        ("History", "Statistics"),
        ("Settings", "High contrast"),
        ("Rules", "IOTA"),
        ("History", "Games"),
    ] {
        press(&app, open);
        assert!(present(&app, inside), "{open} is not on show");
        press(&app, inside);
        assert_eq!(controls(&app), made, "{open} made or unmade a control");
        press(&app, "Back");
        assert_eq!(app.get_screen(), Screen::Home, "Back from {open}");
        for parked in ["High contrast", "Statistics"] {
            assert!(!present(&app, parked), "{parked} is on show at home");
        }
    }
    assert_eq!(controls(&app), made);
}

/// What a reader finds by walking the whole tree (object navigation, flat review, a
/// braille display) among the parked elements, beyond the window's right edge: every
/// label, description or value, with the element's role.
fn parked_words(app: &AppWindow) -> Vec<String> {
    let away = app.global::<hotseat::ui::Stage>().get_away();
    ElementQuery::from_root(app)
        .match_descendants()
        .find_all()
        .into_iter()
        .filter(|e| e.absolute_position().x >= away)
        .flat_map(|e| {
            let role = e.accessible_role();
            [
                e.accessible_label(),
                e.accessible_description(),
                e.accessible_value(),
            ]
            .into_iter()
            .flatten()
            .filter(|w| !w.trim().is_empty())
            .map(move |w| format!("{role:?}: {w}"))
        })
        .collect()
}

/// The accessible elements (any role but none) parked beyond the window's right edge.
fn parked_nodes(app: &AppWindow) -> Vec<i_slint_backend_testing::ElementHandle> {
    use i_slint_backend_testing::AccessibleRole as R;
    let away = app.global::<hotseat::ui::Stage>().get_away();
    ElementQuery::from_root(app)
        .match_descendants()
        .find_all()
        .into_iter()
        .filter(|e| e.absolute_position().x >= away)
        .filter(|e| e.accessible_role().is_some_and(|r| r != R::None))
        .collect()
}

/// Issue #29, point 7: on the home screen a walk of the tree found 114 controls of the
/// other screens, parked off the window, each with its words. The parked screens stay
/// in the tree (their ids must last, ui/widgets/stage.slint), but say nothing; the
/// screen on show says everything, and the same elements speak again when their screen
/// comes back.
#[test]
fn a_walk_of_the_tree_finds_words_only_on_the_screen_on_show() {
    use i_slint_backend_testing::AccessibleRole as R;
    let app = home("walk");
    let parked = parked_nodes(&app);
    assert!(
        parked
            .iter()
            .filter(|e| matches!(e.accessible_role(), Some(R::Button | R::Checkbox)))
            .count()
            > 50,
        "the other screens' controls stay in the tree: {}",
        parked.len()
    );
    assert_eq!(parked_words(&app), Vec::<String>::new(), "at home");
    // The home screen's own controls, held across the tour below.
    let settings = all_labelled(&app, "Settings");
    assert_eq!(settings.len(), 1, "one Settings button at home");
    let settings = settings.into_iter().next().unwrap();
    assert!(present(&app, "Ovo") && present(&app, "History"));

    press(&app, "Settings");
    assert!(present(&app, "High contrast"));
    assert_eq!(parked_words(&app), Vec::<String>::new(), "in Settings");
    assert_eq!(
        settings.accessible_label().as_deref(),
        Some(""),
        "home's Settings, parked, says nothing"
    );
    press(&app, "Back");
    for (open, inside) in [("Rules", "IOTA"), ("History", "Statistics")] {
        press(&app, open);
        assert!(present(&app, inside), "{open} is on show");
        assert_eq!(parked_words(&app), Vec::<String>::new(), "in {open}");
        press(&app, "Back");
    }
    press(&app, "IOTA");
    assert_eq!(parked_words(&app), Vec::<String>::new(), "in the setup");
    press(&app, "Start");
    assert_eq!(parked_words(&app), Vec::<String>::new(), "under the cover");
    reveal(&app);
    assert_eq!(common::labels_starting(&app, "Your card ").len(), 4);
    assert_eq!(parked_words(&app), Vec::<String>::new(), "in the game");
    press(&app, "Leave the game");
    assert_eq!(app.get_screen(), Screen::Home);
    assert_eq!(
        parked_words(&app),
        Vec::<String>::new(),
        "at home after a game"
    );
    // The same element, not a new one, says its word again.
    assert!(settings.is_valid(), "home's Settings was made again");
    assert_eq!(settings.accessible_label().as_deref(), Some("Settings"));
}

/// The IOTA hand's slots (role button, "Your card 1: …"), in tree order.
fn hand_slots(app: &AppWindow) -> Vec<i_slint_backend_testing::ElementHandle> {
    let mut slots: Vec<i_slint_backend_testing::ElementHandle> = Vec::new();
    for e in common::elements(app) {
        let is_slot = e.accessible_role() == Some(i_slint_backend_testing::AccessibleRole::Button)
            && e.accessible_label()
                .is_some_and(|l| l.starts_with("Your card "));
        // One element is reached through each of its inner items: keep it once.
        if is_slot
            && !slots
                .iter()
                .any(|s| s.absolute_position() == e.absolute_position())
        {
            slots.push(e);
        }
    }
    slots
}

/// Issue #29, point 7: the IOTA hand's slots came and went (emptied under every cover,
/// one fewer after a play), so that a screen reader's "Your card 1" became, a few turns
/// on, a defunct object or one naming another card. The same four slots now hold each
/// seat's hand for the whole game: under the cover and at the end they say nothing and
/// take no action, and none is ever made again.
#[test]
fn iota_hand_slots_keep_their_identity_across_turns() {
    let app = start("IOTA", "hand-ids");
    press(&app, "Start");
    reveal(&app);
    let slots = hand_slots(&app);
    assert_eq!(slots.len(), 4, "four cards on show");
    let first: Vec<String> = slots
        .iter()
        .map(|e| e.accessible_label().unwrap().to_string())
        .collect();
    let mut seen_other_hand = false;
    for turn in 0..4 {
        // Stage the best play and play it: the hand shrinks, then is dealt again.
        key(&app, "1");
        press(&app, "Hint: stage the best play");
        key(&app, "p");
        if !app.get_cover_up() {
            // A random deal may leave no card that fits: the seat passes instead, which
            // deals it new cards just the same.
            press(&app, "Pass");
        }
        assert!(app.get_cover_up(), "turn {turn} passed");
        for (n, slot) in slots.iter().enumerate() {
            assert!(slot.is_valid(), "turn {turn}: slot {} was unmade", n + 1);
            assert_eq!(
                slot.accessible_label().as_deref(),
                Some(""),
                "turn {turn}: slot {} speaks under the cover",
                n + 1
            );
            assert_eq!(slot.accessible_enabled(), Some(false));
        }
        reveal(&app);
        let now = hand_slots(&app);
        assert_eq!(now.len(), 4, "turn {turn}: a full hand on show");
        for (n, (slot, again)) in slots.iter().zip(&now).enumerate() {
            let label = slot.accessible_label().unwrap().to_string();
            assert!(
                label.starts_with(&format!("Your card {}: ", n + 1)),
                "turn {turn}: slot {} reads {label:?}",
                n + 1
            );
            assert_eq!(
                again.accessible_label().unwrap(),
                label,
                "turn {turn}: the slot on show is not the one held"
            );
            assert_eq!(again.absolute_position(), slot.absolute_position());
        }
        let words: Vec<String> = slots
            .iter()
            .map(|e| e.accessible_label().unwrap().to_string())
            .collect();
        seen_other_hand |= words != first;
    }
    assert!(seen_other_hand, "the slots never showed another hand");
    // Three rounds of passes end the game: the slots stay, folded, saying nothing. Turns
    // above that had to pass already count, so the end may come before six more.
    press(&app, "Pass");
    for _ in 0..5 {
        if !app.get_cover_up() {
            break;
        }
        reveal(&app);
        press(&app, "Pass");
    }
    // The end (a random deal may also leave the scores level: a shared win, or a draw at
    // no points).
    let banner = app.global::<GameChrome>().get_banner();
    assert!(
        banner.ends_with("wins!") || banner.starts_with("Shared win: ") || banner == "A draw",
        "the game ended: {banner}"
    );
    for slot in &slots {
        assert!(slot.is_valid(), "the end unmade a slot");
        assert_eq!(slot.accessible_label().as_deref(), Some(""));
        slot.invoke_accessible_default_action();
    }
    assert!(hand_slots(&app).is_empty());
}
