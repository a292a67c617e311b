//! Omiga tables staged for the screenshots (the `devtools` feature): the middle of a game,
//! its end, and a game won by "behind".

use super::OmigaTable;
use crate::games::omiga::Action;
use crate::games::{Outcome, Params};
use crate::ui::play;
use crate::ui::{AppWindow, Controller};
use std::cell::RefCell;
use std::rc::Rc;

/// Puts a finished Omiga game on screen (the `omiga-end` screenshot): both sides play
/// their first legal action until the game ends.
pub fn stage_end(app: &AppWindow, controller: &Rc<RefCell<Controller>>, language: &str) {
    let players = play::players(&["Ana".to_string(), "Boris".to_string()], &[0, 1], &[]);
    let Ok(mut table) = OmigaTable::start(Params::new().with("seed", 5), players) else {
        return;
    };
    table.countdown = 0;
    for _ in 0..200 {
        for seat in 0..2 {
            if table.session.outcome().is_over() {
                break;
            }
            let first = table
                .session
                .desk(seat)
                .and_then(|d| d.legal_actions().into_iter().next());
            if let Some(action) = first {
                if table.session.act(seat, &action).is_ok() {
                    if let Action::Place { x, y, .. } = action {
                        table.last = u8::try_from(x).ok().zip(u8::try_from(y).ok());
                    }
                }
            }
        }
    }
    play::Table::show(&table, app, language);
    controller.borrow_mut().table = Some(Box::new(table));
    app.set_screen(crate::ui::Screen::Game);
}

/// Puts a game won by "behind" on screen (the `omiga-behind` screenshot): the first seed
/// whose random interleaving of both seats ends with a card placed behind an opponent's.
pub fn stage_behind(app: &AppWindow, controller: &Rc<RefCell<Controller>>, language: &str) {
    use rand::seq::IndexedRandom;
    let players = play::players(&["Ana".to_string(), "Boris".to_string()], &[0, 1], &[]);
    for seed in 1..200u64 {
        let Ok(mut table) = OmigaTable::start(Params::new().with("seed", seed), players.clone())
        else {
            return;
        };
        table.countdown = 0;
        let mut rng = crate::games::rng_from_seed(seed);
        let mut last = None;
        for _ in 0..400 {
            if table.session.outcome().is_over() {
                break;
            }
            let seat = if rand::Rng::random_bool(&mut rng, 0.5) {
                0
            } else {
                1
            };
            let legal = table
                .session
                .desk(seat)
                .map(|d| d.legal_actions())
                .unwrap_or_default();
            let places: Vec<_> = legal
                .iter()
                .filter(|a| matches!(a, Action::Place { .. }))
                .cloned()
                .collect();
            let Some(action) = places.choose(&mut rng).or(legal.first()).cloned() else {
                continue;
            };
            if table.session.act(seat, &action).is_ok() {
                if let Action::Place { x, y, .. } = action {
                    last = Some((seat, x, y));
                    table.last = u8::try_from(x).ok().zip(u8::try_from(y).ok());
                }
            }
        }
        let behind = match (table.session.outcome(), last) {
            (Outcome::Win { seat }, Some((placer, x, y))) if seat == placer => {
                let (dy, other) = if seat == 0 {
                    (-1, crate::games::omiga::Side::Black)
                } else {
                    (1, crate::games::omiga::Side::White)
                };
                table
                    .session
                    .board()
                    .get(x, y + dy)
                    .is_some_and(|p| p.side == other)
            }
            _ => false,
        };
        if behind {
            play::Table::show(&table, app, language);
            controller.borrow_mut().table = Some(Box::new(table));
            app.set_screen(crate::ui::Screen::Game);
            return;
        }
    }
}

/// Puts a mid-game Omiga table on screen (the `omiga` screenshot).
pub fn stage_midgame(app: &AppWindow, controller: &Rc<RefCell<Controller>>, language: &str) {
    let players = play::players(&["Ana".to_string(), "Boris".to_string()], &[0, 1], &[]);
    // The first seed whose table, a few rounds in, gives both sides a card to place.
    let mut staged = None;
    for seed in 1..64u64 {
        let Ok(mut table) = OmigaTable::start(Params::new().with("seed", seed), players.clone())
        else {
            return;
        };
        table.play_ahead(4);
        let ready = table.selected.iter().all(Option::is_some);
        staged = Some(table);
        if ready {
            break;
        }
    }
    let Some(table) = staged else {
        return;
    };
    play::Table::show(&table, app, language);
    controller.borrow_mut().table = Some(Box::new(table));
    app.set_screen(crate::ui::Screen::Game);
}
