//! What a puzzle adds to the game's own board and to its panel: the proven answer's
//! cells marked on the board after "Give up" (and said in their labels), and the text to
//! share drawn with the app's own squares, for screens without an emoji font.

use crate::games::registry::GameKind;
use crate::games::{iota, omiga, ovo};
use crate::ui::texts::{self, PuzzleText};
use crate::ui::{AppWindow, IotaBridge, OmigaBridge, OvoBridge};
use slint::{ComponentHandle, Model, SharedString};

/// The cells of `line` (an answer in the notation) on `kind`'s board: IOTA's and Omiga's
/// `x,y`, Ovo's names (the egg's cell first, then its landings).
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum AnswerCells {
    /// Table coordinates (IOTA, Omiga).
    At(Vec<(i32, i32)>),
    /// Ovo: the egg's cell, then each landing.
    Path(Vec<String>),
}

/// The cells `line` uses; `None` when it is not a placement or move of `kind`.
pub fn answer_cells(kind: GameKind, line: &str) -> Option<AnswerCells> {
    match kind {
        GameKind::Iota => match line.parse::<iota::Action>().ok()? {
            iota::Action::Place(cards) => Some(AnswerCells::At(
                cards.iter().map(|(_, cell)| (cell.x, cell.y)).collect(),
            )),
            _ => None,
        },
        GameKind::Omiga => match line.parse::<omiga::Action>().ok()? {
            omiga::Action::Place { x, y, .. } => Some(AnswerCells::At(vec![(x, y)])),
            omiga::Action::Discard => None,
        },
        GameKind::Ovo => match line.parse::<ovo::OvoAction>().ok()? {
            ovo::OvoAction::Step { from, to, .. } => {
                Some(AnswerCells::Path(vec![from.to_string(), to.to_string()]))
            }
            ovo::OvoAction::Jump { from, landings, .. } => Some(AnswerCells::Path(
                std::iter::once(from)
                    .chain(landings)
                    .map(|c| c.to_string())
                    .collect(),
            )),
            _ => None,
        },
    }
}

/// Marks the cells of a board `model` that stand at `at` as the answer, `here` naming
/// each one's label anew. A macro, not a function: IOTA's and Omiga's cells are distinct
/// Slint structs with the same fields.
macro_rules! mark_at {
    ($model:expr, $at:expr, $here:expr) => {{
        let model = $model;
        for i in 0..model.row_count() {
            if let Some(mut c) = model.row_data(i) {
                if $at.contains(&(c.x, c.y)) && !c.answer {
                    c.answer = true;
                    c.label = $here(&c.label);
                    model.set_row_data(i, c);
                }
            }
        }
    }};
}

/// Marks the cells of `line` on the board the game's bridge shows now (called after the
/// board has filled its models), each label saying so.
pub fn mark_answer(app: &AppWindow, kind: GameKind, line: &str, language: &str) {
    let Some(cells) = answer_cells(kind, line) else {
        return;
    };
    let here = |label: &SharedString| -> SharedString {
        texts::say(
            &PuzzleText::AnswerHere {
                label: label.to_string(),
            },
            language,
        )
        .into()
    };
    match (kind, &cells) {
        (GameKind::Iota, AnswerCells::At(at)) => {
            mark_at!(app.global::<IotaBridge>().get_cells(), at, here);
        }
        (GameKind::Omiga, AnswerCells::At(at)) => {
            mark_at!(app.global::<OmigaBridge>().get_cells(), at, here);
        }
        (GameKind::Ovo, AnswerCells::Path(path)) => {
            let model = app.global::<OvoBridge>().get_cells();
            for i in 0..model.row_count() {
                let Some(mut c) = model.row_data(i) else {
                    continue;
                };
                let Some(at) = path
                    .iter()
                    .position(|name| c.label.starts_with(&format!("{name}, ")))
                else {
                    continue;
                };
                if c.answer {
                    continue;
                }
                c.answer = true;
                let label = c.label.to_string();
                c.label = if at == 0 {
                    texts::say(&PuzzleText::AnswerFrom { label }, language).into()
                } else {
                    here(&c.label)
                };
                model.set_row_data(i, c);
            }
        }
        _ => {}
    }
}

/// The share text split for the screen: the lines before the squares, the squares
/// (`true`: the solve), the lines after. The copied text keeps its emoji.
pub fn share_lines(text: &str) -> (String, Vec<bool>, String) {
    let is_squares = |l: &str| !l.is_empty() && l.chars().all(|c| c == '⬜' || c == '🟩');
    let lines: Vec<&str> = text.lines().collect();
    match lines.iter().position(|l| is_squares(l)) {
        Some(at) => (
            lines[..at].join("\n"),
            lines[at].chars().map(|c| c == '🟩').collect(),
            lines[at + 1..].join("\n"),
        ),
        None => (text.to_string(), Vec::new(), String::new()),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_squares_are_taken_out_of_the_shown_text() {
        let (head, marks, tail) =
            share_lines("Hotseat Omiga · 2027-03-04\nsolved in 2 tries\n⬜🟩\n2 days in a row");
        assert_eq!(head, "Hotseat Omiga · 2027-03-04\nsolved in 2 tries");
        assert_eq!(marks, vec![false, true]);
        assert_eq!(tail, "2 days in a row");
        let (head, marks, tail) =
            share_lines("Hotseat IOTA · 2027-03-04\nanswer shown after 0 tries");
        assert_eq!(
            head,
            "Hotseat IOTA · 2027-03-04\nanswer shown after 0 tries"
        );
        assert!(marks.is_empty() && tail.is_empty());
    }

    #[test]
    fn an_answer_names_its_cells() {
        assert_eq!(
            answer_cells(GameKind::Omiga, "place NN-GKr@4,7"),
            Some(AnswerCells::At(vec![(4, 7)]))
        );
        assert_eq!(
            answer_cells(GameKind::Ovo, "c1xe3xc5 ovo"),
            Some(AnswerCells::Path(vec![
                "c1".into(),
                "e3".into(),
                "c5".into()
            ]))
        );
        assert_eq!(
            answer_cells(GameKind::Iota, "place Rs4@2,3 Yc4@2,4"),
            Some(AnswerCells::At(vec![(2, 3), (2, 4)]))
        );
        assert_eq!(answer_cells(GameKind::Iota, "nonsense"), None);
    }
}
