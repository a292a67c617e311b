//! The example Ovo games for the screenshots and the UI tests (the `devtools` feature).

use super::OvoTable;
use crate::games::ovo::OvoAction;
use crate::games::RuleResult;
use crate::session::Player;
use crate::ui::play::{self};
use crate::ui::{AppWindow, Controller};
use std::cell::RefCell;

/// A realistic mid-game for the `screenshot` command: two players (an egg picked up, its
/// landings lit) or four (a jump chain under way).
pub fn demo(four: bool, language: &str) -> RuleResult<OvoTable> {
    let (names, script, picks): (&[&str], &[&str], &[usize]) = if four {
        (
            &["Anna", "Boris", "Chloé", "Dmitri"],
            &[
                "b2-c3", "b5-c4", "e5-d4", "e2-d3", "c3xe5", "c4-b3", "d4-c3", "f2-e2",
            ],
            // a2, then the first landing c4 of a longer chain.
            &[6, 20],
        )
    } else {
        (
            &["Anna", "Boris"],
            &[
                "c1-c2", "d6-d5", "c2-c3", "d5-d4", "c3xe5", "d4-d3", "e5-d6", "d3-d2", "b1-b2",
                "d2-c1", "e1-e2", "b6-b5",
            ],
            // The hidden egg on c1.
            &[2],
        )
    };
    let players = Player::people(names);
    let mut table = OvoTable::new(players, 0, true)?;
    for notation in script {
        let action: OvoAction = notation.parse()?;
        table.session.reveal();
        let seat = table.session.public().turn;
        table.session.act(seat, &action)?;
    }
    table.session.reveal();
    for &index in picks {
        table.tap(index, language);
    }
    Ok(table)
}

/// Puts the example game of [`demo`] on screen (the `screenshot` command and UI tests).
/// `screen` is `ovo`, `ovo4`, `ovo-peek` (the peek result before the cover) or `ovo-end`
/// (after a wrong «Ovo!»: every egg face up).
pub fn show_demo(app: &AppWindow, controller: &RefCell<Controller>, screen: &str) {
    let mut c = controller.borrow_mut();
    let language = c.language();
    match demo(screen == "ovo4", language) {
        Ok(mut table) => {
            let note = match screen {
                "ovo-peek" => table.peek(language),
                "ovo-end" => {
                    table.clear_selection();
                    table.declare(language)
                }
                _ => None,
            };
            let (text, warning) = note.unwrap_or_default();
            crate::ui::chrome::show_message(app, &text, warning);
            play::Table::show(&table, app, language);
            c.table = Some(Box::new(table));
            app.set_screen(crate::ui::Screen::Game);
        }
        Err(e) => crate::note!("the example game failed: {e}"),
    }
}
