//! What the UI tests share: finding and pressing elements by what a screen reader reads,
//! and a fresh data folder for each test. Each test binary uses only some of it.
#![allow(dead_code)]

pub mod devices;

use hotseat::games::omiga;
use hotseat::games::ovo::{Cell, OvoAction};
use hotseat::ui::{build, AppWindow, Controller, GameChrome, OmigaBridge, OvoBridge, Stage};
use i_slint_backend_testing::{AccessibleRole, ElementHandle, ElementQuery};
use slint::ComponentHandle;
use std::cell::RefCell;
use std::path::PathBuf;
use std::rc::Rc;

/// An empty data folder of this test binary's own for the test `tag`.
pub fn temp_data(tag: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!(
        "hotseat-{}-{tag}-{}",
        env!("CARGO_CRATE_NAME"),
        std::process::id()
    ));
    let _ = std::fs::remove_dir_all(&dir);
    let _ = std::fs::create_dir_all(&dir);
    dir
}

/// A fresh app in English on show, keeping its files in `dir`, and its controller.
pub fn english_app_in(dir: PathBuf) -> (AppWindow, Rc<RefCell<Controller>>) {
    i_slint_backend_testing::init_no_event_loop();
    let (app, c) = build(Some(dir)).expect("the app builds");
    app.invoke_set_language("en".into());
    app.show().expect("the window shows");
    (app, c)
}

/// [`english_app_in`] an empty data folder of its own for the test `tag`.
pub fn english_app(tag: &str) -> (AppWindow, Rc<RefCell<Controller>>) {
    english_app_in(temp_data(tag))
}

/// Whether an element is on show. The screens a player comes back to stay in the
/// accessibility tree when not on show, parked at `Stage.away` beyond the window's right
/// edge (ui/widgets/stage.slint), where nobody can see or tap them; a control that does
/// not apply now is folded to nothing where it stands (Button's `folded`). An element that
/// a layout pushes off the window is still "on show" here, so that tests/ui_layout.rs
/// sees it.
pub fn on_screen(app: &AppWindow, e: &ElementHandle) -> bool {
    let size = e.size();
    e.absolute_position().x < app.global::<Stage>().get_away()
        && size.width > 0.0
        && size.height > 0.0
}

/// Every element on show, in tree order.
pub fn elements(app: &AppWindow) -> Vec<ElementHandle> {
    ElementQuery::from_root(app)
        .match_descendants()
        .find_all()
        .into_iter()
        .filter(|e| on_screen(app, e))
        .collect()
}

/// Every non-empty accessible label on screen, in tree order.
pub fn labels(app: &AppWindow) -> Vec<String> {
    elements(app)
        .into_iter()
        .filter_map(|e| e.accessible_label().map(|l| l.to_string()))
        .filter(|l| !l.is_empty())
        .collect()
}

/// Every accessible label on screen that starts with `prefix`, once each, in tree order.
pub fn labels_starting(app: &AppWindow, prefix: &str) -> Vec<String> {
    let prefix = prefix.to_string();
    ElementQuery::from_root(app)
        .match_descendants()
        .match_predicate(move |e| {
            e.accessible_role()
                .is_some_and(|r| r != AccessibleRole::None)
                && e.accessible_label()
                    .is_some_and(|l| l.starts_with(prefix.as_str()))
        })
        .find_all()
        .into_iter()
        .filter(|e| on_screen(app, e))
        .filter_map(|e| e.accessible_label().map(|l| l.to_string()))
        // One element may be reached through several of its inner items: count it once.
        .fold(Vec::new(), |mut seen, l| {
            if !seen.contains(&l) {
                seen.push(l);
            }
            seen
        })
}

/// Whether an element reads `label`.
pub fn present(app: &AppWindow, label: &str) -> bool {
    ElementHandle::find_by_accessible_label(app, label).any(|e| on_screen(app, &e))
}

/// Invokes the default action of the element reading `label`, as a screen reader's
/// double tap would; fails the test, listing what is on screen, when there is none.
pub fn press(app: &AppWindow, label: &str) {
    ElementHandle::find_by_accessible_label(app, label)
        .find(|e| on_screen(app, e))
        .unwrap_or_else(|| panic!("no element labelled '{label}' in {:?}", labels(app)))
        .invoke_accessible_default_action();
}

/// The board cell named `name` (its label starts "c4, "), if it is on screen.
pub fn cell(app: &AppWindow, name: &str) -> Option<ElementHandle> {
    let prefix = format!("{name}, ");
    elements(app).into_iter().find(move |e| {
        e.accessible_label()
            .is_some_and(|l| l.starts_with(prefix.as_str()))
    })
}

/// Taps the board cell named `name`, as a screen reader's default action does.
pub fn tap_cell(app: &AppWindow, name: &str) {
    cell(app, name)
        .unwrap_or_else(|| panic!("no cell {name} on screen"))
        .invoke_accessible_default_action();
}

/// The game's message line.
pub fn message(app: &AppWindow) -> String {
    app.global::<GameChrome>().get_message().to_string()
}

/// The game's banner.
pub fn banner(app: &AppWindow) -> String {
    app.global::<GameChrome>().get_banner().to_string()
}

/// Plays `action` by the Ovo board's taps: pick the egg, tap each landing, end a chain
/// that could go on (`judged`: the lesson or puzzle has already judged the try, so the
/// chain ended by itself); peek, pass and «Ovo!» by their buttons.
pub fn ovo_taps(app: &AppWindow, action: &OvoAction, judged: impl Fn() -> bool) {
    let ovo = app.global::<OvoBridge>();
    let tap = |cell: Cell| ovo.invoke_tap(cell.index() as i32);
    match action {
        OvoAction::Step {
            from,
            to,
            ovo: declare,
        } => {
            tap(*from);
            if *declare {
                ovo.invoke_set_declare_after(true);
            }
            tap(*to);
        }
        OvoAction::Jump {
            from,
            landings,
            ovo: declare,
        } => {
            tap(*from);
            if *declare {
                ovo.invoke_set_declare_after(true);
            }
            for landing in landings {
                tap(*landing);
            }
            // A chain that could go on waits for "Stop here".
            if !judged() {
                ovo.invoke_stop();
            }
        }
        OvoAction::Peek { cell, .. } => {
            tap(*cell);
            ovo.invoke_peek();
        }
        OvoAction::Pass => ovo.invoke_pass(),
        OvoAction::Ovo => {
            ovo.invoke_ask_ovo();
            ovo.invoke_declare_ovo();
        }
    }
}

/// A two-player Ovo game's opening step for the seat named `first` (from its home row's
/// b-egg one cell forward), and the other seat's name.
pub fn first_step(first: &str) -> (&'static str, &'static str, &'static str) {
    if first == "Player 1" {
        ("b1", "b2", "Player 2")
    } else {
        ("b6", "b5", "Player 1")
    }
}

/// Plays an Omiga action by the board's taps for `seat`, whose hand is `hand`: the hand
/// card (tapped again to turn it), then the cell; a discard by its button.
pub fn omiga_taps(app: &AppWindow, seat: usize, hand: &[omiga::Card], action: &omiga::Action) {
    let bridge = app.global::<OmigaBridge>();
    let seat = seat as i32;
    match action {
        omiga::Action::Place {
            card,
            rotated,
            x,
            y,
        } => {
            let index = hand
                .iter()
                .position(|c| c == card)
                .expect("the card is in the hand") as i32;
            bridge.invoke_tap_hand(seat, index, false);
            if *rotated {
                bridge.invoke_tap_hand(seat, index, false);
            }
            bridge.invoke_tap_cell(*x, *y);
        }
        omiga::Action::Discard => bridge.invoke_discard(seat),
    }
}

/// Omiga: selects the first card of `side` ("White"/"Black") with a legal cell
/// (highlighted from the rules core), as held, then turned, and returns that cell's label;
/// `None` when no card of the hand fits.
pub fn select_playable(app: &AppWindow, side: &str) -> Option<String> {
    let count = labels_starting(app, &format!("{side} card ")).len();
    for i in 0..count {
        for _ in 0..2 {
            let label = labels_starting(app, &format!("{side} card "))[i].clone();
            press(app, &label);
            if let Some(cell) = labels_starting(app, "x ")
                .into_iter()
                .find(|l| l.contains(&format!("{side} may place here")))
            {
                return Some(cell);
            }
        }
    }
    None
}

/// A cell label's name, up to its colon: what stays when its contents change.
pub fn cell_prefix(label: &str) -> String {
    label.split(':').next().unwrap_or_default().to_string() + ":"
}

/// The accessible label of what holds the keyboard focus (the nearest element with an
/// accessible role around it): what a screen reader says when the focus lands.
pub fn focused_label(app: &AppWindow) -> Option<String> {
    use i_slint_core::accessibility::{nearest_accessible_item, AccessibleStringProperty};
    let inner = i_slint_core::window::WindowInner::from_pub(app.window());
    let item = inner.focus_item.borrow().upgrade()?;
    nearest_accessible_item(item)
        .accessible_string_property(AccessibleStringProperty::Label)
        .map(|l| l.to_string())
}
