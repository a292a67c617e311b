//! Omiga face to face, driven through the real `.slint` table as a player (or a screen
//! reader) would: find cards and cells by their accessible labels and press them.
#![cfg(feature = "devtools")]

use hotseat::ui::{AppWindow, GameChrome, OmigaBridge, Screen};
use i_slint_backend_testing::{AccessibleRole, ElementHandle};
use slint::platform::WindowEvent;
use slint::{ComponentHandle, Model};
use std::collections::BTreeMap;

mod common;
use common::{elements, focused_label, labels_starting, press, select_playable};

fn press_first(app: &AppWindow, prefix: &str) -> String {
    let label = labels_starting(app, prefix)
        .into_iter()
        .next()
        .unwrap_or_else(|| panic!("nothing labelled '{prefix}…'"));
    press(app, &label);
    label
}

fn start(tag: &str) -> AppWindow {
    let (app, c) = common::english_app(tag);
    std::mem::forget(c);
    press(&app, "Omiga");
    assert_eq!(app.get_screen(), Screen::Setup);
    app.invoke_start_game();
    assert_eq!(app.get_screen(), Screen::Game);
    assert_eq!(app.get_playing(), "omiga");
    app
}

fn count_down(app: &AppWindow) {
    let bridge = app.global::<OmigaBridge>();
    assert_eq!(bridge.get_countdown(), 3);
    for _ in 0..3 {
        bridge.invoke_tick();
    }
    assert_eq!(bridge.get_countdown(), 0);
}

#[test]
fn countdown_then_both_sides_place_with_separate_selections() {
    // The deal is random, and now and then one side holds no card that fits the two
    // starting cards: such a deal is dealt again (at most 12 times), since this test is
    // about two selections at once.
    let (app, black_cell, white_cell) = (0..12)
        .find_map(|deal| {
            let app = start(&format!("place-{deal}"));
            let chrome = app.global::<GameChrome>();
            // The table shows the two starting cards, read as one item each.
            assert_eq!(labels_starting(&app, "x ").len(), 90);
            assert!(labels_starting(&app, "x 4, y 4: white card").len() == 1);
            assert!(labels_starting(&app, "x 4, y 5: black card").len() == 1);
            // Nothing may be played during "Ready?".
            press_first(&app, "White card 1/3");
            assert!(chrome.get_message_is_warning());
            assert!(chrome.get_message().contains("countdown"));
            count_down(&app);
            assert_eq!(chrome.get_banner(), "Play!");
            // Black picks a card first; White's taps must not cancel it.
            let black_cell = select_playable(&app, "Black")?;
            let white_cell = select_playable(&app, "White")?;
            Some((app, black_cell, white_cell))
        })
        .expect("a deal where both sides can place, in 12 deals");
    let chrome = app.global::<GameChrome>();
    assert_eq!(
        labels_starting(&app, "Black card ")
            .iter()
            .filter(|l| l.contains("selected"))
            .count(),
        1
    );
    assert_eq!(
        labels_starting(&app, "White card ")
            .iter()
            .filter(|l| l.contains("selected"))
            .count(),
        1
    );
    let white_xy = white_cell.split(':').next().unwrap().to_string();
    press(&app, &white_cell);
    assert!(!chrome.get_message_is_warning(), "{}", chrome.get_message());
    assert!(labels_starting(&app, &format!("{white_xy}: white card")).len() == 1);
    assert_eq!(labels_starting(&app, "White card ").len(), 2);
    // Black's selection survived White's placement.
    assert_eq!(
        labels_starting(&app, "Black card ")
            .iter()
            .filter(|l| l.contains("selected"))
            .count(),
        1
    );
    let black_legal: Vec<String> = labels_starting(&app, "x ")
        .into_iter()
        .filter(|l| l.contains("Black may place here"))
        .collect();
    let target = if black_legal.contains(&black_cell.replace(", White may place here", "")) {
        black_cell.replace(", White may place here", "")
    } else {
        match black_legal.first() {
            Some(cell) => cell.clone(),
            // White's card took Black's only fit: Black picks again.
            None => select_playable(&app, "Black").expect("Black has a move"),
        }
    };
    let black_xy = target.split(':').next().unwrap().to_string();
    press(&app, &target);
    assert!(labels_starting(&app, &format!("{black_xy}: black card")).len() == 1);
    assert_eq!(labels_starting(&app, "Black card ").len(), 2);
}

/// Each table cell's label and whether it is open to a screen reader (its
/// `accessible-enabled`: a Tab stop in the browser's layer). The query finds an element
/// once per path to it, so the cells are kept by their labels, unique on the table.
fn cells_open(app: &AppWindow) -> BTreeMap<String, bool> {
    elements(app)
        .into_iter()
        .filter(|e| e.accessible_role() == Some(AccessibleRole::ListItem))
        .filter_map(|e| {
            let label = e.accessible_label()?.to_string();
            label
                .starts_with("x ")
                .then(|| (label, e.accessible_enabled() != Some(false)))
        })
        .collect()
}

/// Issue 41: a player by keys lays a card at the app's pace. With a card chosen, the
/// cells it may not go to are closed to a screen reader (no Tab stop: Tab walks only
/// where it fits, instead of forty cells), those it fits are open, and once it is laid
/// every cell is open again.
#[test]
fn a_chosen_card_leaves_only_its_cells_open_to_a_reader() {
    let (app, cell) = (0..12)
        .find_map(|deal| {
            let app = start(&format!("open-{deal}"));
            count_down(&app);
            assert!(cells_open(&app).values().all(|open| *open));
            let cell = select_playable(&app, "White")?;
            Some((app, cell))
        })
        .expect("a deal where White can place, in 12 deals");
    let cells = cells_open(&app);
    assert_eq!(cells.len(), 90);
    for (label, open) in &cells {
        assert_eq!(
            *open,
            label.contains("White may place here"),
            "{label}: open {open}"
        );
    }
    assert!(cells.values().filter(|open| **open).count() < 20);
    press(&app, &cell);
    assert_eq!(labels_starting(&app, "White card ").len(), 2);
    assert!(cells_open(&app).values().all(|open| *open));
}

#[test]
fn an_illegal_tap_is_refused_near_the_player() {
    let app = start("illegal");
    count_down(&app);
    let chrome = app.global::<GameChrome>();
    let bridge = app.global::<OmigaBridge>();
    // A tap on the table with no card picked up.
    press(&app, "x 0, y 0: empty");
    assert!(chrome.get_message_is_warning());
    assert!(chrome.get_message().contains("Pick a card"));
    // A card picked, then a cell far from everything: the core's reason, shown to White.
    press_first(&app, "White card 1/3");
    press(&app, "x 0, y 0: empty");
    assert!(chrome.get_message_is_warning());
    assert_eq!(chrome.get_message(), "No neighbour of yours");
    assert_eq!(bridge.get_white_note(), "No neighbour of yours");
    assert!(bridge.get_white_note_warning());
    assert_eq!(bridge.get_black_note(), "");
    assert_eq!(
        labels_starting(&app, "White card ").len(),
        3,
        "the card stays in hand"
    );
    // Tapping the selected card again turns it.
    let turned = press_first(&app, "White card 1/3");
    assert!(turned.contains("selected"));
    assert!(labels_starting(&app, "White card 1/3")
        .iter()
        .any(|l| l.contains("turned")));
}

#[test]
fn each_hand_shows_only_its_own_cards_and_no_deck() {
    let app = start("secret");
    count_down(&app);
    let bridge = app.global::<OmigaBridge>();
    let white = labels_starting(&app, "White card ");
    let black = labels_starting(&app, "Black card ");
    assert_eq!((white.len(), black.len()), (3, 3));
    assert_eq!(bridge.get_white_hand().row_count(), 3);
    assert_eq!(bridge.get_black_hand().row_count(), 3);
    // Both hands are labelled as lists for their owners; nothing else names a hand card.
    assert!(labels_starting(&app, "Player 1's hand").len() == 1);
    assert!(labels_starting(&app, "Player 2's hand").len() == 1);
    assert!(labels_starting(&app, "card").is_empty());
    // Deck contents are never on screen: only the counts.
    assert_eq!(bridge.get_white_deck(), "32 in deck");
}

#[test]
fn a_whole_game_ends_with_a_result_and_a_rematch() {
    let app = start("whole");
    count_down(&app);
    // Change handlers run at the event loop's turns: the board takes the focus now, as it
    // does at a real game's start.
    slint::platform::update_timers_and_animations();
    let bridge = app.global::<OmigaBridge>();
    let chrome = app.global::<GameChrome>();
    for _ in 0..200 {
        if bridge.get_over() {
            break;
        }
        for (side, seat) in [("White", 0), ("Black", 1)] {
            if bridge.get_over() {
                break;
            }
            let before = labels_starting(&app, &format!("{side} card "));
            match select_playable(&app, side) {
                Some(cell) => {
                    // The cards tried before the chosen one lit no cell either way up:
                    // they said they fit nowhere; the chosen one did not.
                    let chosen = labels_starting(&app, &format!("{side} card "))
                        .iter()
                        .position(|l| l.contains("selected"))
                        .expect("the chosen card");
                    for (j, card) in before.iter().enumerate().take(chosen + 1) {
                        assert_eq!(card.contains(", fits nowhere"), j < chosen, "{card}");
                    }
                    press(&app, &cell)
                }
                None => {
                    // No card fits, either way up: each says so, for a reader's player.
                    for card in labels_starting(&app, &format!("{side} card ")) {
                        assert!(card.contains(", fits nowhere"), "{card}");
                    }
                    assert!(
                        if seat == 0 {
                            bridge.get_white_can_discard()
                        } else {
                            bridge.get_black_can_discard()
                        },
                        "{side} has no move and may not discard"
                    );
                    press_first(&app, "Discard hand");
                }
            }
        }
    }
    assert!(bridge.get_over(), "the game ended");
    let result = bridge.get_result();
    assert!(result.ends_with("wins!") || result == "A draw", "{result}");
    assert_eq!(chrome.get_banner(), result);
    // The hand the focus was in is gone: the focus is on the result, so a screen reader
    // hears it from there, and a Return meant for a card deals no new game. (Change
    // handlers run at the event loop's next turn.)
    slint::platform::update_timers_and_animations();
    assert_eq!(focused_label(&app).as_deref(), Some(result.as_str()));
    for text in ["\n", " "] {
        app.window()
            .dispatch_event(WindowEvent::KeyPressed { text: text.into() });
        app.window()
            .dispatch_event(WindowEvent::KeyReleased { text: text.into() });
    }
    assert!(bridge.get_over(), "a key on the result dealt a new game");
    // The table is frozen. (The corner may hold a card at the end of a random deal.)
    let corner = labels_starting(&app, "x 0, y 0:")
        .into_iter()
        .next()
        .expect("the corner cell");
    press(&app, &corner);
    assert!(
        chrome.get_message().contains("over")
            || labels_starting(&app, "x 0, y 0:")
                .iter()
                .all(|l| !l.contains("empty"))
    );
    assert_eq!(labels_starting(&app, "Home").len(), 1);
    press(&app, "Rematch");
    assert!(!bridge.get_over());
    // The Rematch button folded away under the focus: the board has it, as at a new
    // game's start, and a reader hears the countdown there.
    slint::platform::update_timers_and_animations();
    assert_eq!(focused_label(&app).as_deref(), Some("Omiga table"));
    assert_eq!(bridge.get_countdown(), 3);
    assert_eq!(labels_starting(&app, "White card ").len(), 3);
    press(&app, "Leave the game");
    assert_eq!(app.get_screen(), Screen::Home);
}

#[test]
fn a_pointer_tap_repeated_at_once_is_not_a_turn() {
    let app = start("repeat");
    app.window().set_size(slint::LogicalSize::new(412., 915.));
    count_down(&app);
    // Where the card is, found once, so that two taps follow each other at once.
    let label = labels_starting(&app, "White card 1/3")
        .into_iter()
        .next()
        .expect("the card");
    let card = ElementHandle::find_by_accessible_label(&app, &label)
        .find(|e| common::on_screen(&app, e))
        .expect("the card");
    let (pos, size) = (card.absolute_position(), card.size());
    let at = slint::LogicalPosition::new(pos.x + size.width / 2., pos.y + size.height / 2.);
    let tap = || {
        use slint::platform::{PointerEventButton, WindowEvent};
        let button = PointerEventButton::Left;
        app.window().dispatch_event(WindowEvent::PointerPressed {
            position: at,
            button,
        });
        app.window().dispatch_event(WindowEvent::PointerReleased {
            position: at,
            button,
        });
    };
    // Slint can deliver one finger's tap twice when a second finger lands
    // (docs/omiga-touch.md): the echo must not turn the card.
    tap();
    tap();
    let now = &labels_starting(&app, "White card 1/3")[0];
    assert!(now.contains("selected") && !now.contains("turned"), "{now}");
    // A deliberate second tap, a moment later, turns it.
    std::thread::sleep(std::time::Duration::from_millis(300));
    tap();
    assert!(labels_starting(&app, "White card 1/3")[0].contains("turned"));
}

/// A Russian player reads Omiga's refusals (the bridge's and the rules core's) and the
/// cards and cells in Russian.
#[test]
fn refusals_and_labels_read_in_russian() {
    let app = start("russian");
    app.invoke_set_language("ru".into());
    count_down(&app);
    let chrome = app.global::<GameChrome>();
    press(&app, "x 0, y 0: пусто");
    assert!(chrome.get_message_is_warning());
    assert_eq!(chrome.get_message(), "Сначала выберите карту в руке");
    let card = press_first(&app, "Белый: карта 1/3: ");
    assert!(card.contains("сверху"), "{card}");
    press(&app, "x 0, y 0: пусто");
    assert_eq!(chrome.get_message(), "Рядом нет вашей карты");
    let bridge = app.global::<OmigaBridge>();
    assert!(bridge.get_white_deck().starts_with("в колоде: "));
    app.invoke_set_language("en".into());
}

/// Where a card is on the screen, by its label. Black's hand is turned 180°
/// (`turned-to-black`): the testing backend places an element through that turn, so its
/// position is then the card's far corner on the screen.
fn card_centre(app: &AppWindow, label: &str) -> (f32, f32) {
    let label = labels_starting(app, label)
        .into_iter()
        .next()
        .expect("the card");
    let card = ElementHandle::find_by_accessible_label(app, &label)
        .find(|e| common::on_screen(app, e))
        .unwrap_or_else(|| panic!("no '{label}' on the screen"));
    let (pos, size) = (card.absolute_position(), card.size());
    let turned = if label.starts_with("Black") { -1. } else { 1. };
    (
        pos.x + turned * size.width / 2.,
        pos.y + turned * size.height / 2.,
    )
}

/// The desktop's touch path (src/platform/touch.rs): the fingers a winit window would
/// report go through the same router as the window event filter uses, and its pointer
/// events into the real window. Two and three fingers, either lifting first, and a finger
/// sliding off: every tap lands once on what it touched (with Slint's own touch path the
/// second finger down, lifting first, loses its tap).
#[test]
fn fingers_through_the_touch_router_each_tap_their_own_card() {
    use hotseat::platform::touch::{to_slint, OneFingerAtATime, Phase};
    let app = start("fingers");
    app.window().set_size(slint::LogicalSize::new(412., 915.));
    count_down(&app);
    let router = std::cell::RefCell::new(OneFingerAtATime::default());
    let finger = |id: u64, phase: Phase, at: (f32, f32)| {
        for pointer in router.borrow_mut().touch(id, phase, at) {
            app.window().dispatch_event(to_slint(pointer));
        }
    };
    let state =
        |side: &str, n: usize| labels_starting(&app, &format!("{side} card {n}/3"))[0].clone();
    let selected = |side: &str| {
        (1..=3)
            .filter(|&n| state(side, n).contains("selected"))
            .collect::<Vec<_>>()
    };
    let w1 = card_centre(&app, "White card 1/3");
    let b1 = card_centre(&app, "Black card 1/3");
    let w2 = card_centre(&app, "White card 2/3");
    let b2 = card_centre(&app, "Black card 2/3");
    let w3 = card_centre(&app, "White card 3/3");
    let b3 = card_centre(&app, "Black card 3/3");

    // The second finger down lifts first.
    finger(1, Phase::Down, w1);
    finger(2, Phase::Down, b1);
    finger(2, Phase::Up, b1);
    assert_eq!(
        selected("Black"),
        vec![1],
        "Black's tap lands at its own lift"
    );
    assert_eq!(
        selected("White"),
        Vec::<usize>::new(),
        "White's finger still rests"
    );
    finger(1, Phase::Up, w1);
    assert_eq!((selected("White"), selected("Black")), (vec![1], vec![1]));
    assert!(!state("White", 1).contains("turned") && !state("Black", 1).contains("turned"));

    // The first down lifts first; then three fingers, lifting in the reverse order.
    finger(1, Phase::Down, w2);
    finger(2, Phase::Down, b2);
    finger(1, Phase::Up, w2);
    finger(2, Phase::Up, b2);
    assert_eq!((selected("White"), selected("Black")), (vec![2], vec![2]));
    finger(1, Phase::Down, b3);
    finger(2, Phase::Down, w3);
    finger(3, Phase::Down, w1);
    finger(3, Phase::Up, w1);
    finger(2, Phase::Up, w3);
    finger(1, Phase::Up, b3);
    assert_eq!((selected("White"), selected("Black")), (vec![3], vec![3]));

    // A second finger sliding off its card before it lifts taps nothing.
    let off = (b1.0, b1.1 + 150.);
    finger(1, Phase::Down, w2);
    finger(2, Phase::Down, b1);
    finger(2, Phase::Moved, off);
    finger(2, Phase::Up, off);
    finger(1, Phase::Up, w2);
    assert_eq!((selected("White"), selected("Black")), (vec![2], vec![3]));
}
