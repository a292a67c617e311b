//! The history screen: the game in progress and the finished games, newest first, each
//! player's record, and a game's moves in notation (opening onto its board, `replay`).

use super::replay::{self, Opened};
use super::rows;
use super::{AppWindow, Controller, HistoryRow, StatsRow, Words};
use crate::games::registry::GameKind;
use crate::puzzles::Day;
use crate::session::FinishedGame;
use crate::store::{history, saves};
use slint::ComponentHandle;
use std::cell::RefCell;
use std::rc::Rc;

/// `2026-11-29` for a time in seconds since 1970 (UTC; days from the civil calendar).
pub fn date(secs: u64) -> String {
    let (year, month, day) = Day((secs / 86_400) as i64).ymd();
    format!("{year:04}-{month:02}-{day:02}")
}

/// The game's printed name; a name this version does not know (a newer file) shows as
/// it is written.
fn game_title(game: &str) -> String {
    game.parse::<GameKind>()
        .map_or_else(|_| game.to_string(), |kind| kind.title().to_string())
}

/// A text of the history screen in the language the window has selected (the words are
/// in ui/words.slint).
fn say(app: &AppWindow, id: &str, arg: &str) -> String {
    app.global::<Words>()
        .invoke_history(id.into(), arg.into())
        .to_string()
}

/// "Anna won", "Anna, Boris share the win", "A draw".
pub fn result(app: &AppWindow, g: &FinishedGame) -> String {
    let names: Vec<&str> = g
        .winners
        .iter()
        .filter_map(|s| g.names.get(*s).map(String::as_str))
        .collect();
    match names.as_slice() {
        [] => say(app, "draw", ""),
        [one] => say(app, "won", one),
        many => say(app, "share", &many.join(", ")),
    }
}

fn minutes(secs: u64) -> String {
    format!("{}:{:02}", secs / 60, secs % 60)
}

/// One game of the list: what its row says and what opening it shows.
struct Entry {
    row: HistoryRow,
    opened: Opened,
    heading: String,
}

/// The list as shown: the game in progress (if a save reads) first, then the finished
/// games, newest first; and the finished games for the statistics.
fn entries(app: &AppWindow, c: &Controller) -> (Vec<Entry>, Vec<FinishedGame>) {
    let (games, note) = c.data_dir.as_deref().map(history::list).unwrap_or_default();
    if let Some(note) = note {
        crate::note!("{note}");
    }
    let running = c.data_dir.as_deref().and_then(saves::peek).map(|saved| {
        let title = game_title(&saved.game);
        let names: Vec<&str> = saved.players.iter().map(|p| p.name.as_str()).collect();
        let going = say(app, "in-progress", "");
        Entry {
            row: HistoryRow {
                title: say(app, "title-in-progress", &title).into(),
                players: names.join(", ").into(),
                result: going.clone().into(),
            },
            heading: format!("{title} — {going}"),
            opened: Opened { saved, title },
        }
    });
    let finished = games.iter().rev().map(|g| Entry {
        row: HistoryRow {
            title: format!("{} — {}", game_title(&g.game), date(g.finished_at)).into(),
            players: g.names.join(", ").into(),
            result: result(app, g).into(),
        },
        heading: format!("{} — {}", game_title(&g.game), result(app, g)),
        opened: Opened {
            saved: g.saved.clone(),
            title: game_title(&g.game),
        },
    });
    (running.into_iter().chain(finished).collect(), games)
}

/// Fills the history screen from the data folder.
pub fn show(app: &AppWindow, c: &Controller) {
    let (entries, games) = entries(app, c);
    let rows: Vec<HistoryRow> = entries.into_iter().map(|e| e.row).collect();
    let stats: Vec<StatsRow> = history::statistics(&games)
        .into_iter()
        .map(|((name, game), s)| {
            let best = match game.parse::<GameKind>() {
                Ok(GameKind::Iota) if s.best_turn > 0 => {
                    say(app, "best-turn", &s.best_turn.to_string())
                }
                Ok(GameKind::Omiga) => s
                    .fastest_win_secs
                    .map(|d| say(app, "fastest-win", &minutes(d)))
                    .unwrap_or_default(),
                _ => String::new(),
            };
            StatsRow {
                name: name.into(),
                game: game_title(&game).into(),
                played: s.played as i32,
                won: s.won as i32,
                best: best.into(),
            }
        })
        .collect();
    // In place: rows made again would take recycled accessibility ids (a screen reader
    // holds those for defunct, docs/accessibility.md).
    rows::update_rows(app.get_history_games(), rows, |m| app.set_history_games(m));
    rows::update_rows(app.get_history_stats(), stats, |m| app.set_history_stats(m));
    app.set_history_opened(-1);
}

/// Opens the `index`-th game of the list: its moves, by player, each opening its board.
fn open(app: &AppWindow, c: &mut Controller, index: usize) {
    let language = c.language();
    let Some(entry) = entries(app, c).0.into_iter().nth(index) else {
        return;
    };
    let saved = &entry.opened.saved;
    let moves: Vec<slint::SharedString> = (1..=saved.actions.len())
        .filter_map(|n| replay::move_line(saved, n, language))
        .map(Into::into)
        .collect();
    app.set_history_opened_title(entry.heading.into());
    rows::update_rows(app.get_history_opened_moves(), moves, |m| {
        app.set_history_opened_moves(m)
    });
    app.set_history_notice("".into());
    app.set_history_opened(index as i32);
    c.history_opened = Some(entry.opened);
}

/// Connects the history screen.
pub fn wire(app: &AppWindow, controller: &Rc<RefCell<Controller>>) {
    let with = |f: fn(&AppWindow, &mut Controller, i32)| {
        let weak = app.as_weak();
        let controller = controller.clone();
        move |i: i32| {
            if let Some(app) = weak.upgrade() {
                f(&app, &mut controller.borrow_mut(), i);
            }
        }
    };
    let show_all = with(|app, c, _| show(app, c));
    app.on_show_history(move || show_all(0));
    app.on_open_history(with(|app, c, i| open(app, c, i.max(0) as usize)));
    let close = with(|app, c, _| {
        c.history_opened = None;
        app.set_history_opened(-1);
    });
    app.on_close_history(move || close(0));
    app.on_replay_history(with(|app, c, step| {
        if let Some(opened) = c.history_opened.clone() {
            replay::start(app, c, opened, step.max(0) as usize);
        }
    }));
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn dates_read_as_the_calendar_does() {
        assert_eq!(date(0), "1970-01-01");
        assert_eq!(date(951_782_400), "2000-02-29");
        assert_eq!(date(1_795_910_400), "2026-11-29");
    }
}
