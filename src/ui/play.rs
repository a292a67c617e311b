//! What every game on screen is to the shell: the running table behind one trait, and
//! the players a new table starts with. The frame around it is `chrome`; which table
//! plays which game is `tables`.

use super::AppWindow;
use crate::session::{AnySession, Player, SeatKind};
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
