//! What every game on screen shares: the running table behind one trait, the privacy
//! cover filled from the session's gate, and the turn banner.

use super::{AppWindow, GameChrome, Words};
use crate::games::registry::GameKind;
use crate::games::{Game, Outcome};
use crate::session::{AnySession, Gate, Player, SeatKind, Session};
use slint::ComponentHandle;
use std::any::Any;

/// A game being played on screen. Each game's bridge (`ui/ovo.rs`, …) implements it; the
/// controller keeps one as `Box<dyn Table>` and each bridge's own callbacks downcast to it.
pub trait Table: Any {
    /// Fills the window: the game's own models, the banner and the cover.
    fn show(&self, app: &AppWindow, language: &str);
    /// The player named on the cover tapped reveal.
    fn reveal(&mut self);
    /// For downcasting in the game's own callbacks.
    fn as_any_mut(&mut self) -> &mut dyn Any;
    /// The match, for what the shell does with every game (save, history, undo, cover).
    fn session(&self) -> &dyn AnySession;
    /// The match, to change it.
    fn session_mut(&mut self) -> &mut dyn AnySession;
    /// What the app's seats must do now (see `bots::Seats::job`); `None`: nothing.
    fn bot_job(&mut self) -> Option<super::bots::Job> {
        None
    }
    /// Escape on the board: drop a half-made choice that lives only in the bridge.
    fn cancel_selection(&mut self) {}
    /// The app left the screen (see `mobile::suspend`): a real-time game stops the clock
    /// and counts down again when it is back.
    fn pause(&mut self) {}
    /// Omiga: an app seat's pace has passed.
    fn bot_wake(&mut self, _token: u64) {}
    /// An app seat's answer arrived: apply it; the message line to show, if any.
    fn bot_done(&mut self, _reply: Box<dyn Any + Send>, _language: &str) -> Option<(String, bool)> {
        None
    }
    /// Takes back the last action (see `Session::undo`), dropping any half-made choice.
    fn undo(&mut self) -> crate::games::RuleResult<()> {
        let seat = self
            .session()
            .undo_seat()
            .ok_or(crate::games::RuleError::CannotTakeBack)?;
        self.session_mut().take_back(seat)
    }
}

/// The players of a new game from the setup screen's names, colours and levels (`None`:
/// a person; a level: the app's opponent at that level).
pub fn players(
    names: &[String],
    colors: &[u8],
    levels: &[Option<crate::ai::Level>],
) -> Vec<Player> {
    names
        .iter()
        .zip(colors)
        .enumerate()
        .map(|(seat, (name, color))| {
            let level = levels.get(seat).copied().flatten();
            Player {
                name: name.clone(),
                color: *color,
                kind: if level.is_some() {
                    SeatKind::Bot
                } else {
                    SeatKind::Human
                },
                level: level.map(|l| l.name().to_string()),
            }
        })
        .collect()
}

/// Raises or lowers the cover from the session's gate. While it is up the game beneath
/// is not drawn, and holds nothing private: the bridges fill a hand or a peek result
/// only behind an open gate (the table stays in the accessibility tree, app.slint).
pub fn show_cover<G: Game>(app: &AppWindow, session: &Session<G>, hint: &str) {
    match session.gate() {
        Gate::Covered(seat) => {
            let player = &session.players()[seat.min(session.players().len() - 1)];
            app.set_cover_name(player.name.clone().into());
            app.set_cover_seat(seat as i32);
            app.set_cover_color(player.color as i32);
            app.set_cover_hint(hint.into());
            app.set_cover_up(true);
        }
        Gate::Open(_) | Gate::Shared | Gate::Closed => app.set_cover_up(false),
    }
}

/// Sets the banner: whose turn it is, or how the game ended, in the language the window
/// has selected (the words are in ui/words.slint).
pub fn show_banner<G: Game>(app: &AppWindow, session: &Session<G>, title: &str) {
    let chrome = app.global::<GameChrome>();
    chrome.set_title(title.into());
    let words = app.global::<Words>();
    let say = |id: &str, arg: &str| words.invoke_banner(id.into(), arg.into()).to_string();
    let players = session.players();
    let name = |s: usize| players.get(s).map(|p| p.name.clone()).unwrap_or_default();
    let (text, seat) = match session.outcome() {
        Outcome::Ongoing => match session.game().to_act().as_slice() {
            [seat] if players.get(*seat).map(|p| p.kind) == Some(SeatKind::Bot) => {
                (say("thinking", &name(*seat)), Some(*seat))
            }
            [seat] => (say("turn", &name(*seat)), Some(*seat)),
            _ => (say("play", ""), None),
        },
        Outcome::Win { seat } => (say("wins", &name(seat)), Some(seat)),
        Outcome::SharedWin { seats } => {
            let names: Vec<String> = seats.iter().map(|s| name(*s)).collect();
            (say("shared-win", &names.join(", ")), None)
        }
        Outcome::Draw => (say("draw", ""), None),
    };
    chrome.set_banner(text.into());
    chrome.set_banner_seat(seat.map_or(-1, |s| s as i32));
    chrome.set_banner_color(
        seat.and_then(|s| players.get(s))
            .map_or(0, |p| p.color as i32),
    );
    super::access::news(app);
}

/// Shows a line under the banner (an event, or why an action was refused).
pub fn show_message(app: &AppWindow, text: &str, warning: bool) {
    let chrome = app.global::<GameChrome>();
    chrome.set_message(text.into());
    chrome.set_message_is_warning(warning);
    // Events are public words for everyone at the table; refusals are only for the
    // player who tried, and they hear them in the message line.
    if !warning {
        super::access::announce(app, text);
    }
    super::access::news(app);
}

/// A saved match back on screen, behind the cover of whoever acts next (Omiga: behind
/// its countdown).
pub fn restore(saved: &crate::session::SavedGame) -> crate::games::RuleResult<Box<dyn Table>> {
    table_of(saved, None)
}

/// The public table after the first `upto` actions of a saved match, for stepping through
/// it in the history: nobody's hand or peek is on it, and nothing can be played on it.
pub fn public_at(
    saved: &crate::session::SavedGame,
    upto: usize,
) -> crate::games::RuleResult<Box<dyn Table>> {
    table_of(saved, Some(upto))
}

/// The whole saved match (`None`: checked against its position, behind the cover), or its
/// public table after some actions.
fn table_of(
    saved: &crate::session::SavedGame,
    upto: Option<usize>,
) -> crate::games::RuleResult<Box<dyn Table>> {
    use crate::games::{iota::Iota, omiga::Omiga, ovo::Ovo, RuleResult};
    fn session<G: Game>(
        saved: &crate::session::SavedGame,
        upto: Option<usize>,
    ) -> RuleResult<Session<G>> {
        match upto {
            None => Session::from_saved(saved),
            Some(n) => Session::public_at(saved, n),
        }
    }
    // The edge where a saved game's name is read.
    match saved.game.parse::<GameKind>()? {
        GameKind::Ovo => Ok(Box::new(super::ovo::OvoTable::from_session(
            session::<Ovo>(saved, upto)?,
        ))),
        GameKind::Iota => Ok(Box::new(super::iota::IotaTable::from_session(session::<
            Iota,
        >(
            saved, upto,
        )?))),
        GameKind::Omiga => {
            let mut table = super::omiga::OmigaTable::from_session(session::<Omiga>(saved, upto)?);
            if upto.is_some() {
                // A replay has no "Ready?": play is already on in every position shown.
                table.skip_countdown();
            }
            Ok(Box::new(table))
        }
    }
}

/// Makes the model behind a repeater hold `rows`, changing only the rows that differ.
///
/// Replacing a repeater's whole model makes Slint drop and rebuild every element of it
/// and repaint all of them; after one move only a few cells change, so when `current` is
/// already a `VecModel` its rows are updated in place (and `set` is not called). Anything
/// else (the empty default model) is replaced once through `set`.
pub fn update_rows<T: Clone + PartialEq + 'static>(
    current: slint::ModelRc<T>,
    rows: Vec<T>,
    set: impl FnOnce(slint::ModelRc<T>),
) {
    use slint::Model;
    let Some(model) = current.as_any().downcast_ref::<slint::VecModel<T>>() else {
        set(slint::ModelRc::new(slint::VecModel::from(rows)));
        return;
    };
    let count = rows.len();
    for (i, row) in rows.into_iter().enumerate() {
        match model.row_data(i) {
            Some(old) if old == row => {}
            Some(_) => model.set_row_data(i, row),
            None => model.push(row),
        }
    }
    while model.row_count() > count {
        model.remove(model.row_count() - 1);
    }
}

#[cfg(test)]
mod tests {
    use super::update_rows;
    use slint::{Model, ModelRc, VecModel};
    use std::rc::Rc;

    #[test]
    fn rows_are_updated_in_place_not_replaced() {
        let model = Rc::new(VecModel::from(vec![1, 2, 3]));
        let current = ModelRc::from(model.clone());
        let mut replaced = false;
        update_rows(current.clone(), vec![1, 5, 3, 4], |_| replaced = true);
        assert!(!replaced, "a VecModel is updated where it stands");
        assert_eq!(model.iter().collect::<Vec<_>>(), vec![1, 5, 3, 4]);
        update_rows(current, vec![7], |_| replaced = true);
        assert!(!replaced);
        assert_eq!(model.iter().collect::<Vec<_>>(), vec![7]);
    }

    #[test]
    fn a_model_that_is_not_a_vec_model_is_replaced() {
        let mut set = None;
        update_rows(ModelRc::<i32>::default(), vec![1, 2], |m| set = Some(m));
        let set = set.expect("the empty default model is replaced");
        assert_eq!(set.iter().collect::<Vec<_>>(), vec![1, 2]);
    }
}
