//! A match as a screen plays it: the [`Session`] (seats, privacy gate, public log) and
//! the app's opponents, behind one value with no UI in it. Every game's screen, the
//! kiosk's attract loop and the web build run their matches through it.
//!
//! A screen holds a `Match`, never a `Session`, and a `Match` gives out no rules state:
//! only the public view, the public log, and a seat's [`Desk`] while the gate shows it.

use super::opponents::{Finished, Opponents};
use super::{
    AnySession, Desk, FinishedGame, Gate, Job, Player, Reply, SavedGame, Session, Sharing,
};
use crate::ai::{Level, Opponents as HasBots};
use crate::games::{Outcome, Params, RuleResult, Seat};

/// One match being played on this device.
pub struct Match<G: HasBots> {
    pub(super) session: Session<G>,
    opponents: Opponents<G>,
}

impl<G: HasBots> Match<G> {
    /// Starts a match (see [`Session::start`]).
    pub fn start(params: Params, players: Vec<Player>, sharing: Sharing) -> RuleResult<Self> {
        Session::start(params, players, sharing).map(Self::around)
    }

    /// A saved match, behind the cover of whoever acts next (see [`Session::from_saved`]).
    pub fn from_saved(saved: &SavedGame) -> RuleResult<Self> {
        Session::from_saved(saved).map(Self::around)
    }

    /// The public table after the first `upto` actions of a saved match, for a replay:
    /// the gate stays closed, so no desk is ever open (see [`Session::public_at`]).
    pub fn public_at(saved: &SavedGame, upto: usize) -> RuleResult<Self> {
        Session::public_at(saved, upto).map(Self::around)
    }

    /// A lesson's board: the step's position (the `setup` format, read by the same
    /// `Game::from_position`), the learner's seat open on screen and the other seats
    /// played from outside this screen (`SeatKind::Remote`), so that no opponent acts on
    /// its own: a lesson's other seats move only by its scripted replies
    /// ([`Match::act_scripted`]).
    pub fn lesson(position: &str, players: Vec<Player>, learner: Seat) -> RuleResult<Self> {
        let game = G::from_position(position)?;
        if players.len() != game.seats() {
            return Err(crate::games::RuleError::new(format!(
                "{} players given for {} seats",
                players.len(),
                game.seats()
            )));
        }
        Ok(Self::around(Session {
            game,
            params: Params::new(),
            players,
            sharing: super::Sharing::PassAndPlay,
            // The learner holds the device from the start: no cover to lift.
            gate: Gate::Open(learner),
            actions: Vec::new(),
            events: Vec::new(),
            last_open: Some(learner),
        }))
    }

    /// A lesson's scripted reply of another seat (see [`Match::lesson`]).
    pub fn act_scripted(&mut self, seat: Seat, action: &G::Action) -> RuleResult<G::Event> {
        self.session.act_remote(seat, action)
    }

    fn around(session: Session<G>) -> Self {
        Match {
            opponents: Opponents::new(&session),
            session,
        }
    }

    /// The parameters the match started from (a rematch starts from the same).
    pub fn params(&self) -> &Params {
        self.session.params()
    }

    /// The players, by seat.
    pub fn players(&self) -> &[Player] {
        self.session.players()
    }

    /// How the device is shared.
    pub fn sharing(&self) -> Sharing {
        self.session.sharing()
    }

    /// The privacy gate's state.
    pub fn gate(&self) -> Gate {
        self.session.gate()
    }

    /// The seat whose private state is on screen (`None` while covered or shared).
    pub fn viewer(&self) -> Option<Seat> {
        self.session.viewer()
    }

    /// `seat`'s desk, while the gate shows it.
    pub fn desk(&self, seat: Seat) -> Option<Desk<'_, G>> {
        self.session.desk(seat)
    }

    /// `seat`'s view, while the gate shows it.
    pub fn view(&self, seat: Seat) -> Option<G::View> {
        self.session.view(seat)
    }

    /// What everyone may know now.
    pub fn public(&self) -> G::View {
        self.session.public()
    }

    /// The seats that may act now.
    pub fn to_act(&self) -> Vec<Seat> {
        self.session.to_act()
    }

    /// Whether and how the game has ended.
    pub fn outcome(&self) -> Outcome {
        self.session.outcome()
    }

    /// The actions so far, in notation, with their seats.
    pub fn actions(&self) -> &[(Seat, String)] {
        self.session.actions()
    }

    /// The public log: each action, its seat, and what everyone learned of it.
    pub fn log(&self) -> impl Iterator<Item = (Seat, &str, G::Event)> + '_ {
        self.session.log()
    }

    /// The seat that may take back the last action now, if any.
    pub fn undo_for(&self) -> Option<Seat> {
        self.session.undo_for()
    }

    /// The player behind the cover tapped reveal.
    pub fn reveal(&mut self) {
        self.session.reveal()
    }

    /// Raises the cover for whoever acts next.
    pub fn cover(&mut self) {
        self.session.cover()
    }

    /// Plays `action` for `seat` from this screen (refused while that seat is covered).
    /// Returns the event as `seat` may know it.
    pub fn act(&mut self, seat: Seat, action: &G::Action) -> RuleResult<G::Event> {
        self.session.act(seat, action)
    }

    /// Takes back the last action of `seat`. The app's opponents start their memories
    /// over from the shorter log when they next think.
    pub fn undo(&mut self, seat: Seat) -> RuleResult<()> {
        self.session.undo(seat)
    }

    /// True when the app plays `seat`.
    pub fn is_bot(&self, seat: Seat) -> bool {
        self.opponents.is_bot(seat)
    }

    /// The app's level at `seat`, if the app plays it.
    pub fn bot_level(&self, seat: Seat) -> Option<Level> {
        self.opponents.level(seat)
    }

    /// True while one of the app's seats thinks (or waits its pace).
    pub fn thinking(&self) -> bool {
        self.opponents.thinking()
    }

    /// What the platform must run for the app's seats now (`paced`: Omiga's bot first
    /// waits its level's pace); `None` when nothing.
    pub fn job(&mut self, paced: bool) -> Option<Job> {
        self.opponents.job(&self.session, paced)
    }

    /// Omiga: the pace named by `token` has passed.
    pub fn wake(&mut self, token: u64) {
        self.opponents.wake(token)
    }

    /// An app seat's answer: played (the seat, its action, the event as it knows it), a
    /// failure to report, or `None` when it is stale or for another match.
    pub fn finish(&mut self, reply: Reply) -> Option<Finished<G>> {
        self.opponents.finish(&mut self.session, reply)
    }
}

impl<G: HasBots> AnySession for Match<G> {
    fn saved(&self) -> SavedGame {
        self.session.to_saved()
    }
    fn finished_entry(&self, finished_at: u64, duration_secs: Option<u64>) -> Option<FinishedGame> {
        self.session.finished(finished_at, duration_secs)
    }
    fn undo_seat(&self) -> Option<Seat> {
        self.session.undo_for()
    }
    fn raise_cover(&mut self) {
        self.session.cover()
    }
    fn seat_players(&self) -> &[Player] {
        self.session.players()
    }
    fn is_over(&self) -> bool {
        self.session.outcome().is_over()
    }
}

#[cfg(test)]
impl<G: HasBots> Match<G> {
    /// Tests: the same seats, gate and empty log, from another position (a scripted
    /// scene: a jump that flips, a wild to swap).
    pub(crate) fn set_position(&mut self, position: &str) -> RuleResult<()> {
        self.session.game = G::from_position(position)?;
        self.session.gate = self.session.next_gate();
        self.opponents = Opponents::new(&self.session);
        Ok(())
    }
}
