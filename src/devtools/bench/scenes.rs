//! The screens the benches put on show: the home screen, the privacy cover, and the
//! busiest table of each game, each reached the way a player would see it.

use crate::devtools::screenshot;
use crate::games::Params;
use crate::ui::{build, omiga, play, AppWindow, Controller, Screen};
use std::cell::RefCell;
use std::rc::Rc;

/// Every scene, by name.
pub const SCENES: &[&str] = &[
    "home",
    "cover",
    "ovo4",
    "iota-crowded",
    "omiga-late",
    "omiga-end",
    "omiga-start",
];

/// The scenes whose frames are timed: the busiest table of each game.
pub const BUSIEST: &[&str] = &["ovo4", "iota-crowded", "omiga-late"];

/// Cards on the crowded IOTA table (a two-player game is about half over).
const IOTA_CARDS: usize = 36;
/// Rounds played ahead on the late Omiga table.
const OMIGA_ROUNDS: usize = 9;

/// A window built with no data folder, showing `scene`.
pub fn show(scene: &str) -> Result<(AppWindow, Rc<RefCell<Controller>>), String> {
    if !SCENES.contains(&scene) {
        return Err(format!(
            "unknown scene '{scene}' (scenes: {})",
            SCENES.join(", ")
        ));
    }
    let (app, controller) = build(None).map_err(|e| e.to_string())?;
    stage(&app, &controller, scene)?;
    Ok((app, controller))
}

fn stage(app: &AppWindow, controller: &Rc<RefCell<Controller>>, scene: &str) -> Result<(), String> {
    match scene {
        "iota-crowded" => {
            app.invoke_open_game("iota".into());
            let mut c = controller.borrow_mut();
            let language = c.language();
            let players = play::players(
                &c.setup.final_names(language),
                &c.setup.colors,
                &c.setup.levels(),
            );
            let table =
                crate::ui::iota::demo_table_with(players, IOTA_CARDS).map_err(|e| e.to_string())?;
            play::Table::show(&table, app, language);
            c.table = Some(Box::new(table));
            app.set_screen(Screen::Game);
        }
        "omiga-late" => {
            let language = controller.borrow().language();
            let players = play::players(&["Ana".into(), "Boris".into()], &[0, 1], &[]);
            // As many rounds as leave White a card to place (the move the bench times).
            let mut late = None;
            for rounds in (1..=OMIGA_ROUNDS).rev() {
                let mut table =
                    omiga::OmigaTable::start(Params::new().with("seed", 5), players.clone())
                        .map_err(|e| e.to_string())?;
                table.play_ahead(rounds);
                let fits = table.session().desk(0).is_some_and(|desk| {
                    desk.view()
                        .hand
                        .iter()
                        .any(|card| !desk.legal_cells(*card, false).is_empty())
                });
                if fits {
                    late = Some(table);
                    break;
                }
            }
            let table = late.ok_or("no Omiga table leaves White a move")?;
            play::Table::show(&table, app, language);
            controller.borrow_mut().table = Some(Box::new(table));
            app.set_screen(Screen::Game);
        }
        "omiga-start" => {
            app.invoke_open_game("omiga".into());
            app.invoke_start_game();
        }
        "home" => app.set_screen(Screen::Home),
        other => screenshot::stage(app, controller, other, "en"),
    }
    Ok(())
}
