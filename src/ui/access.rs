//! What a player who cannot see the screen needs on top of the boards' own labels: the
//! keyboard cursor, the spoken summary (S key), and public announcements in a live region.
//! Everything here is read from the models the bridges already filled for the seat
//! holding the device, so it can say nothing the screen does not show.

use super::{AppWindow, Controller, IotaBridge, LessonBridge, OmigaBridge, OvoBridge};
use crate::games::registry::GameKind;
use crate::ui::{Access, GameChrome};
use slint::{ComponentHandle, Model};
use std::cell::RefCell;
use std::rc::Rc;

/// The cell the cursor moves to from `from` one step in direction (`dx`, `dy`) (screen
/// axes: y grows downwards), among cells at `positions`. The nearest cell strictly that
/// way wins, straight lines before diagonals; with no cursor yet, or no direction, the cell
/// nearest the middle. `None` only when there are no cells.
pub fn step(positions: &[(i32, i32)], from: Option<usize>, dx: i32, dy: i32) -> Option<usize> {
    let here = from.and_then(|i| positions.get(i).copied());
    let Some((x0, y0)) = here.filter(|_| dx != 0 || dy != 0) else {
        if let Some(i) = from.filter(|i| *i < positions.len()) {
            return Some(i);
        }
        // No cursor yet: start in the middle of the cells.
        let n = positions.len() as i32;
        if n == 0 {
            return None;
        }
        let (sx, sy) = positions
            .iter()
            .fold((0, 0), |(a, b), (x, y)| (a + x, b + y));
        let (mx, my) = (sx * 2 / n, sy * 2 / n);
        return (0..positions.len()).min_by_key(|i| {
            let (x, y) = positions[*i];
            ((x * 2 - mx).abs() + (y * 2 - my).abs(), *i)
        });
    };
    positions
        .iter()
        .enumerate()
        .filter_map(|(i, &(x, y))| {
            // Distance along the direction, and how far off its line.
            let along = (x - x0) * dx + (y - y0) * dy;
            let off = if dx != 0 {
                (y - y0).abs()
            } else {
                (x - x0).abs()
            };
            (along > 0).then_some((off, along, i))
        })
        .min()
        .map(|(_, _, i)| i)
        .or(from)
}

/// One cell of the board on screen, as the cursor sees it.
struct Spot {
    /// Where it is drawn (screen axes), for the arrows.
    pos: (i32, i32),
    /// Which cell of the table it is, whatever the list of cells does round it: the
    /// shown position on the fixed Ovo and Omiga grids, the table's own coordinates on
    /// IOTA's, whose list (and shown area) grows round the cards after each placement.
    place: (i32, i32),
    label: slint::SharedString,
}

/// The board on screen now: each cell's position and its spoken label.
fn board(app: &AppWindow) -> Vec<Spot> {
    match app.get_playing().parse::<GameKind>() {
        Ok(GameKind::Ovo) => app
            .global::<OvoBridge>()
            .get_cells()
            .iter()
            .enumerate()
            .map(|(i, c)| {
                let i = i as i32;
                let pos = (i % 6, 5 - i / 6);
                Spot {
                    pos,
                    place: pos,
                    label: c.label,
                }
            })
            .collect(),
        Ok(GameKind::Iota) => app
            .global::<IotaBridge>()
            .get_cells()
            .iter()
            .map(|c| Spot {
                pos: (c.col, c.row),
                place: (c.x, c.y),
                label: c.label,
            })
            .collect(),
        Ok(GameKind::Omiga) => {
            let bridge = app.global::<OmigaBridge>();
            let w = bridge.get_columns().max(1);
            bridge
                .get_cells()
                .iter()
                .enumerate()
                .map(|(i, c)| {
                    let i = i as i32;
                    let pos = (i % w, i / w);
                    Spot {
                        pos,
                        place: pos,
                        label: c.label,
                    }
                })
                .collect()
        }
        _ => Vec::new(),
    }
}

/// Puts the cursor on cell `index` of `cells` and remembers which table cell that is.
fn put_cursor(app: &AppWindow, cells: &[Spot], index: usize) {
    let access = app.global::<Access>();
    access.set_cursor(index as i32);
    if let Some(spot) = cells.get(index) {
        access.set_cursor_x(spot.place.0);
        access.set_cursor_y(spot.place.1);
    }
}

/// Keeps the cursor on a cell that exists and its label current (the board changes under
/// it after every action), and drops a summary that may be out of date. The cursor
/// stays on the same table cell: on IOTA a placement adds cells round the cards, so the
/// index it had would now name another cell.
pub fn refresh(app: &AppWindow) {
    let access = app.global::<Access>();
    let cells = board(app);
    let cursor = access.get_cursor();
    if cursor >= 0 && cells.is_empty() {
        access.set_cursor(-1);
    } else if cursor >= 0 {
        let place = (access.get_cursor_x(), access.get_cursor_y());
        let same = cells.iter().position(|s| s.place == place);
        let index = same.unwrap_or_else(|| (cursor as usize).min(cells.len() - 1));
        put_cursor(app, &cells, index);
    }
    let label = usize::try_from(access.get_cursor())
        .ok()
        .and_then(|i| cells.get(i))
        .map(|s| s.label.clone())
        .unwrap_or_default();
    access.set_cursor_label(label);
    if app.get_cover_up() {
        // Nothing private stays in the window while the device changes hands.
        access.set_summary("".into());
    }
}

/// A new game (or none): no cursor, no summary, no announcement from the last one.
pub fn reset(app: &AppWindow) {
    let access = app.global::<Access>();
    access.set_cursor(-1);
    access.set_cursor_label("".into());
    access.set_summary("".into());
    access.set_announcement("".into());
    access.set_news("".into());
}

/// What the focused board says after its cell: the message line and the banner, as the
/// screen shows them, and in a lesson the panel's step or verdict. Orca 43 speaks a
/// change of the focused element's description, and the board holds the focus whenever a
/// seat plays, so this is how a move of another seat, a score, a refusal, the result or a
/// lesson's words are heard (the live region is for newer readers).
pub fn news(app: &AppWindow) {
    let chrome = app.global::<GameChrome>();
    // A refusal answers what the player just did: it comes first. An event (the last
    // seat's move) stays on the line all turn: it comes after what is new.
    let warning = chrome.get_message_is_warning();
    let mut parts = Vec::new();
    if warning {
        parts.push(chrome.get_message());
    }
    // IOTA's own line for the seat holding the device: the card a digit or a tap picked
    // and what the staged cards would score (the preview line under the board), so that
    // "Picked: red triangle two" and "Scores 8" are heard as they appear. Never under the
    // cover: nothing of a hand is said to the table.
    if app.get_playing().parse::<GameKind>() == Ok(GameKind::Iota) && !app.get_cover_up() {
        let iota = app.global::<IotaBridge>();
        if iota.get_trading() {
            parts.push(iota.get_trade_hint());
        } else {
            parts.push(iota.get_picked());
            parts.push(iota.get_preview());
        }
    }
    if !warning {
        parts.push(chrome.get_message());
    }
    parts.push(chrome.get_banner());
    // A lesson's panel (docs/lessons.md): the step's words and task until a try is
    // judged, then the verdict ("Well done…", "Try again. <hint>"), as the panel shows them.
    let lesson = app.global::<LessonBridge>();
    if lesson.get_active() {
        if lesson.get_verdict_kind() == 0 {
            parts.push(lesson_step(app).into());
        } else {
            parts.push(lesson.get_verdict());
        }
    }
    // A puzzle's panel: the goal until a try is judged, then the verdict and the answer.
    let puzzle = app.global::<super::PuzzleBridge>();
    if puzzle.get_active() {
        if puzzle.get_verdict_kind() == 0 {
            parts.push(puzzle.get_goal());
        } else {
            parts.push(puzzle.get_verdict());
            parts.push(puzzle.get_answer());
        }
    }
    let text: Vec<&str> = parts
        .iter()
        // The message line ends its sentence itself; the join adds one full stop.
        .map(|p| p.trim().trim_end_matches('.'))
        .filter(|p| !p.is_empty())
        .collect();
    let text = text.join(". ");
    let access = app.global::<Access>();
    if access.get_news() != text.as_str() {
        access.set_news(text.into());
    }
}

/// A lesson's step as it is heard: "Step k of n." with its words and task, as the lesson
/// panel shows them. Put together here only: entering a step announces it, and the
/// focused board describes it until a try is judged.
pub fn lesson_step(app: &AppWindow) -> String {
    let lesson = app.global::<LessonBridge>();
    super::texts::in_window(
        app,
        &super::texts::LessonText::Step {
            n: lesson.get_step().max(0) as usize,
            of: lesson.get_steps().max(0) as usize,
            words: lesson.get_words().into(),
            task: lesson.get_task().into(),
        },
    )
}

/// Puts a public event into the live region; a screen reader speaks it once, when it
/// changes. Only ever called with text every seat may hear.
pub fn announce(app: &AppWindow, text: &str) {
    let access = app.global::<Access>();
    if !text.is_empty() && access.get_announcement() != text {
        access.set_announcement(text.into());
    }
}

/// The game so far in a few sentences: whose turn, the seats (scores), the hand of the
/// seat holding the device (only while the cover is down), the pile, what changed last.
pub fn summary(app: &AppWindow, language: &str) -> String {
    if app.get_cover_up() {
        return String::new();
    }
    use super::texts::{say, ShellText};
    let mut parts: Vec<String> = Vec::new();
    let chrome = app.global::<GameChrome>();
    parts.push(chrome.get_banner().to_string());
    match app.get_playing().parse::<GameKind>() {
        Ok(GameKind::Ovo) => {
            let bridge = app.global::<OvoBridge>();
            let seats: Vec<String> = bridge
                .get_seats()
                .iter()
                .map(|s| {
                    if s.out {
                        let name = s.name.to_string();
                        say(&ShellText::Out { name }, language)
                    } else {
                        s.name.to_string()
                    }
                })
                .collect();
            let names = seats.join(", ");
            parts.push(say(&ShellText::Players { names }, language));
            if let Some(last) = bridge.get_log().row_data(0) {
                let line = last.to_string();
                parts.push(say(&ShellText::LastMove { line }, language));
            }
            parts.push(bridge.get_hint().to_string());
        }
        Ok(GameKind::Iota) => {
            let bridge = app.global::<IotaBridge>();
            parts.extend(bridge.get_seats().iter().map(|s| s.label.to_string()));
            let hand: Vec<String> = bridge
                .get_hand()
                .iter()
                .filter(|h| h.present)
                .map(|h| h.label.to_string())
                .collect();
            if !hand.is_empty() {
                parts.push(hand.join("; "));
            }
            parts.push(bridge.get_pile_label().to_string());
        }
        Ok(GameKind::Omiga) => {
            let bridge = app.global::<OmigaBridge>();
            let near = bridge.get_near_seat();
            let remote = bridge.get_remote();
            for (seat, label, hand, deck) in [
                (
                    0,
                    bridge.get_white_hand_label(),
                    bridge.get_white_hand(),
                    bridge.get_white_deck(),
                ),
                (
                    1,
                    bridge.get_black_hand_label(),
                    bridge.get_black_hand(),
                    bridge.get_black_deck(),
                ),
            ] {
                // Over the network only the near hand is this device's to read.
                if remote && seat != near {
                    parts.push(bridge.get_far_label().to_string());
                    continue;
                }
                let cards: Vec<String> = hand.iter().map(|c| c.label.to_string()).collect();
                parts.push(format!("{label}: {}; {deck}", cards.join("; ")));
            }
            let result = bridge.get_result();
            if !result.is_empty() {
                parts.push(result.to_string());
            }
        }
        _ => {}
    }
    let message = chrome.get_message();
    if !message.is_empty() {
        let message = message.to_string();
        parts.push(say(&ShellText::Last { message }, language));
    }
    parts.retain(|p| !p.trim().is_empty());
    parts.join(". ")
}

/// Connects the keyboard cursor, the summary key and Escape on Omiga to the controller.
pub fn wire(app: &AppWindow, controller: &Rc<RefCell<Controller>>) {
    let access = app.global::<Access>();
    {
        let weak = app.as_weak();
        access.on_move_cursor(move |dx, dy| {
            let Some(app) = weak.upgrade() else {
                return;
            };
            let access = app.global::<Access>();
            let cells = board(&app);
            let positions: Vec<(i32, i32)> = cells.iter().map(|s| s.pos).collect();
            let from = usize::try_from(access.get_cursor()).ok();
            if let Some(i) = step(&positions, from, dx.signum(), dy.signum()) {
                put_cursor(&app, &cells, i);
            }
            refresh(&app);
        });
    }
    {
        let weak = app.as_weak();
        let controller = controller.clone();
        access.on_speak_summary(move || {
            let Some(app) = weak.upgrade() else {
                return;
            };
            let language = controller.borrow().language();
            let said = summary(&app, language);
            let access = app.global::<Access>();
            // The focused board says it too: Orca 43 does not speak the live region.
            access.set_news(said.as_str().into());
            access.set_summary(said.into());
        });
    }
    {
        let weak = app.as_weak();
        let controller = controller.clone();
        access.on_cancel_selection(move || {
            let Some(app) = weak.upgrade() else {
                return;
            };
            let mut guard = controller.borrow_mut();
            let language = guard.language();
            if let Some(table) = guard.table.as_mut() {
                table.cancel_selection();
                table.show(&app, language);
            }
            refresh(&app);
        });
    }
}

#[cfg(test)]
mod tests {
    use super::step;

    fn grid(w: i32, h: i32) -> Vec<(i32, i32)> {
        (0..w * h).map(|i| (i % w, i / w)).collect()
    }

    #[test]
    fn arrows_walk_a_full_grid_and_stop_at_its_edges() {
        let g = grid(6, 6);
        assert_eq!(step(&g, Some(0), 1, 0), Some(1));
        assert_eq!(step(&g, Some(0), 0, 1), Some(6));
        assert_eq!(step(&g, Some(0), -1, 0), Some(0), "the left edge holds");
        assert_eq!(step(&g, Some(35), 0, 1), Some(35), "the bottom edge holds");
    }

    #[test]
    fn the_first_key_lands_in_the_middle() {
        let g = grid(3, 3);
        assert_eq!(step(&g, None, 1, 0), Some(4));
        assert_eq!(step(&[], None, 1, 0), None);
    }

    #[test]
    fn a_sparse_board_jumps_to_the_nearest_cell_that_way() {
        // An IOTA ring: a gap between (0,0) and (3,0); (2,1) lies off the line.
        let cells = [(0, 0), (3, 0), (2, 1), (0, 2)];
        assert_eq!(
            step(&cells, Some(0), 1, 0),
            Some(1),
            "straight before diagonal"
        );
        assert_eq!(step(&cells, Some(0), 0, 1), Some(3));
        assert_eq!(step(&cells, Some(1), 0, 1), Some(2), "nearest below");
    }
}
