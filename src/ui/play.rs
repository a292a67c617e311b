//! What every game on screen is to the shell: the running table behind one trait, the
//! one frame every game shares around its own part, and the players a new table starts
//! with. The frame's pieces are `chrome` (cover, banner, message line) and `bots` (the
//! app's seats' time); which table plays which game is `tables`.

use super::{chrome, AppWindow, Controller};
use crate::ai::Opponents;
use crate::games::{Game, RuleError, RuleResult, Seat};
use crate::session::{AnySession, Finished, Job, Match, Player, Reply, SeatKind};
use std::any::Any;
use std::cell::RefCell;
use std::rc::Rc;

/// A line for the message line, and whether it is a refusal (`None`: clear it).
pub type Note = Option<(String, bool)>;

/// A game being played on screen, as the shell sees it. Every [`GameScreen`] is one (the
/// impl below); the controller keeps the running one as `Box<dyn Table>`, and each game's
/// callbacks reach theirs through [`with_table`].
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
    /// What the app's seats must do now (see `session::Match::job`); `None`: nothing.
    fn bot_job(&mut self) -> Option<Job>;
    /// Escape on the board: drop a half-made choice that lives only in the bridge.
    fn cancel_selection(&mut self);
    /// The app left the screen (see `mobile::suspend`): a real-time game stops the clock
    /// and counts down again when it is back.
    fn pause(&mut self);
    /// Omiga: an app seat's pace has passed.
    fn bot_wake(&mut self, token: u64);
    /// An app seat's answer arrived: apply it; the message line to show, if any.
    fn bot_done(&mut self, reply: Reply, language: &str) -> Note;
    /// Takes back the last action (see `Match::undo`), dropping any half-made choice.
    fn undo(&mut self) -> RuleResult<()>;
    /// What changed since `ear` last heard this table, as sound cues (public only).
    fn heard(&self, ear: &mut crate::sound::Ear) -> crate::sound::Heard;
    /// A table that wraps a game's table (a lesson's board) as itself, for its own code
    /// to downcast: `as_any_mut` reaches the game's table inside, as the game's callbacks
    /// need. Not named here, so that the shared frame knows no particular table.
    fn wrapper_mut(&mut self) -> Option<&mut dyn Any> {
        None
    }
    /// Whether this board is a lesson's: never saved, recorded or taken back.
    fn is_lesson(&self) -> bool {
        false
    }
    /// Whether this board is a puzzle's: never saved, recorded or taken back either.
    fn is_puzzle(&self) -> bool {
        false
    }
    /// What the board said of the last tap ([`with_table`]): its own words, or why it
    /// refused. A lesson judges a try by it; a game has shown it already.
    fn told(&mut self, _note: &Note) {}
}

/// One game's own part of a table on screen: its match, and how the views the gate
/// allows become that game's Slint models. The rest is the same for every game and lives
/// once, in the `Table` impl below: the banner and the cover (`chrome`), the app's seats
/// (`Match::job`, run by `bots`), their answers, take-backs, and what the shell saves.
pub trait GameScreen: Any {
    /// The game played.
    type Game: Opponents + crate::sound::Sounds;
    /// The title in the banner.
    const TITLE: &'static str;
    /// The app's seats wait their level's pace before each action (real-time Omiga).
    const PACED: bool = false;
    /// The match on this table.
    fn game_match(&self) -> &Match<Self::Game>;
    /// The match, to change it.
    fn game_match_mut(&mut self) -> &mut Match<Self::Game>;
    /// Fills the game's own models (after the frame: it may adjust the banner's mark).
    fn draw(&self, app: &AppWindow, language: &str);
    /// An app seat played `action` (`before`: the public view just before it); the
    /// message line to show, in public words.
    fn app_played(
        &mut self,
        seat: Seat,
        action: <Self::Game as Game>::Action,
        event: <Self::Game as Game>::Event,
        before: <Self::Game as Game>::View,
        language: &str,
    ) -> Note;
    /// The hint under the name on the cover.
    fn cover_hint(&self, _language: &str) -> String {
        String::new()
    }
    /// Whether the app's seats may act now (Omiga: not during "Ready?").
    fn app_may_act(&self) -> bool {
        true
    }
    /// The cover was lifted: drop what the previous person had half chosen.
    fn revealed(&mut self) {}
    /// The last action was taken back: drop what was half chosen or on its way.
    fn taken_back(&mut self) {}
    /// Escape on the board (see [`Table::cancel_selection`]).
    fn cancel(&mut self) {}
    /// The app left the screen (see [`Table::pause`]).
    fn paused(&mut self) {}
    /// Seconds of a "Ready?" countdown left (Omiga), else 0.
    fn countdown(&self) -> u8 {
        0
    }
}

impl<T: GameScreen> Table for T {
    fn show(&self, app: &AppWindow, language: &str) {
        app.set_playing(<T::Game as Game>::NAME.into());
        chrome::show_banner(app, self.game_match(), T::TITLE);
        chrome::show_cover(app, self.game_match(), &self.cover_hint(language));
        self.draw(app, language);
    }
    fn reveal(&mut self) {
        self.game_match_mut().reveal();
        self.revealed();
    }
    fn as_any_mut(&mut self) -> &mut dyn Any {
        self
    }
    fn session(&self) -> &dyn AnySession {
        self.game_match()
    }
    fn session_mut(&mut self) -> &mut dyn AnySession {
        self.game_match_mut()
    }
    fn bot_job(&mut self) -> Option<Job> {
        if !self.app_may_act() {
            return None;
        }
        self.game_match_mut().job(T::PACED)
    }
    fn cancel_selection(&mut self) {
        self.cancel();
    }
    fn pause(&mut self) {
        self.paused();
    }
    fn bot_wake(&mut self, token: u64) {
        self.game_match_mut().wake(token);
    }
    fn bot_done(&mut self, reply: Reply, language: &str) -> Note {
        let before = self.game_match().public();
        match self.game_match_mut().finish(reply)? {
            Finished::Played(seat, action, event) => {
                self.app_played(seat, action, event, before, language)
            }
            failed => Some((super::bots::bot_failed(&failed, language), true)),
        }
    }
    fn undo(&mut self) -> RuleResult<()> {
        let seat = self
            .game_match()
            .undo_for()
            .ok_or(RuleError::CannotTakeBack)?;
        self.game_match_mut().undo(seat)?;
        self.taken_back();
        Ok(())
    }
    fn heard(&self, ear: &mut crate::sound::Ear) -> crate::sound::Heard {
        ear.listen(self.game_match(), self.countdown())
    }
}

/// Runs `f` on the table on screen when it is a `T`, then redraws it, shows its note in
/// the message line and lets the shell follow (save, the app's seats, the take-back):
/// the one way every game's callbacks reach their table.
pub fn with_table<T: Table>(
    app: &AppWindow,
    controller: &Rc<RefCell<Controller>>,
    f: impl FnOnce(&mut T, &str) -> Note,
) {
    let mut guard = controller.borrow_mut();
    // One `&mut` to the controller, so that its table and its sound are borrowed apart.
    let c = &mut *guard;
    let language = c.language();
    let Some(table) = c
        .table
        .as_mut()
        .and_then(|t| t.as_any_mut().downcast_mut::<T>())
    else {
        return;
    };
    let note = f(table, language);
    if matches!(note, Some((_, true))) {
        c.sound.refused();
    }
    table.show(app, language);
    // Told is the table the controller holds, not the game's table found above: a lesson
    // or a puzzle wraps the board and judges what it said.
    if let Some(holder) = c.table.as_mut() {
        holder.told(&note);
    }
    match note {
        Some((text, warning)) => chrome::show_message(app, &text, warning),
        None => chrome::show_message(app, "", false),
    }
    guard.after_change(app);
}

/// A tap's result as a note: nothing to say, or why it was refused.
pub fn refused(result: Result<(), String>) -> Note {
    result.err().map(|reason| (reason, true))
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
