//! The pictures' puzzles (`hotseat screenshot puzzles`, `puzzle-ovo`, …; docs/puzzles.md):
//! besides the list, the archive and a try of each game, Omiga's clock running
//! (`puzzle-clock`) and each game's answer marked after giving up (`puzzle-answer-ovo`, …).

use super::{give_up, on_table, open, share, show_archive, show_list};
use crate::games::registry::GameKind;
use crate::puzzles::Day;
use crate::store::puzzles::DayResult;
use crate::ui::{AppWindow, Controller, PuzzleBridge, Screen};
use slint::ComponentHandle;
use std::cell::RefCell;

/// The pictures' puzzles (`hotseat screenshot puzzles`, `puzzle-ovo`, …): the puzzles of
/// 2027-03-04 (a Thursday); the list with a few results kept, Ovo and IOTA after a try
/// that missed, Omiga solved against the clock (23 s) with its text to share.
pub fn stage(app: &AppWindow, controller: &RefCell<Controller>, screen: &str) {
    let mut c = controller.borrow_mut();
    let c: &mut Controller = &mut c;
    let Some(day) = Day::from_ymd(2027, 3, 4) else {
        return;
    };
    c.set_puzzle_day(day);
    let result = |kind: GameKind, day: Day, tries: u32, solved: bool| DayResult {
        game: kind.name().into(),
        day: day.0,
        tries,
        solved,
        ..DayResult::default()
    };
    let book = c.puzzle_book();
    for back in 1..=3 {
        book.results
            .push(result(GameKind::Iota, Day(day.0 - back), 1, true));
    }
    book.results
        .push(result(GameKind::Omiga, day.previous(), 2, true));
    match screen {
        "puzzles" => {
            book.results.push(DayResult {
                score: Some(16),
                best: Some(16),
                ..result(GameKind::Iota, day, 2, true)
            });
            app.global::<PuzzleBridge>().set_archive_game("".into());
            show_list(app, c);
            app.set_screen(Screen::Puzzles);
        }
        "puzzle-archive" => {
            show_archive(app, c, "iota");
            app.set_screen(Screen::Puzzles);
        }
        _ => {
            let kind = match screen {
                "puzzle-iota" | "puzzle-answer-iota" => GameKind::Iota,
                "puzzle-omiga" | "puzzle-clock" | "puzzle-answer-omiga" => GameKind::Omiga,
                _ => GameKind::Ovo,
            };
            // Omiga's pictures are against the clock (the toggle's choice, in memory).
            c.settings.puzzle_clock =
                kind == GameKind::Omiga && !screen.starts_with("puzzle-answer");
            open(app, c, kind, day);
            if screen.starts_with("puzzle-answer") {
                give_up(app, c);
                return;
            }
            let line = on_table(c).and_then(|t| match screen {
                "puzzle-omiga" => t.run.puzzle().answers.first().cloned(),
                _ => t.run.a_wrong_try(),
            });
            if screen == "puzzle-omiga" {
                seconds(app, c, 23);
            }
            if let (Some(table), Some(line)) = (on_table(c), line) {
                table.run.play(table.board.as_mut(), &line);
            }
            c.after_change(app);
            match screen {
                "puzzle-omiga" => share(app, c),
                "puzzle-clock" => seconds(app, c, 18),
                _ => {}
            }
        }
    }
}

/// `n` seconds of a puzzle's clock.
fn seconds(app: &AppWindow, c: &mut Controller, n: u32) {
    for _ in 0..n {
        super::clock::tick(app, c);
    }
}
