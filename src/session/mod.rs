//! One match being played: who sits where, whose private state the screen may show
//! (the privacy gate), and the list of actions so far. Generic over [`Game`], so all
//! three games share the same turn flow and the same cover.

mod desk;
mod game_match;
mod gate;
mod opponents;
mod public;
mod saved;

pub use desk::Desk;
pub use game_match::Match;
pub use gate::Gate;
pub use opponents::{Finished, Job, JobKind, Reply};
pub use saved::{FinishedGame, SavedGame, SAVE_FORMAT, SAVE_VERSION};

use crate::games::{Game, Outcome, Params, RuleError, RuleResult, Seat};

/// Who plays a seat.
#[derive(Debug, Clone, Copy, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum SeatKind {
    /// A person at this device.
    Human,
    /// The app's opponent.
    Bot,
    /// A person on another device (LAN Omiga).
    Remote,
}

/// One player at the table.
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct Player {
    /// The name shown on the cover and in the banner.
    pub name: String,
    /// Index into the seat palette.
    pub color: u8,
    /// Who plays it.
    pub kind: SeatKind,
    /// The app's level for a [`SeatKind::Bot`] seat (`easy`, `medium`, `hard`); absent
    /// for people and in saves written before opponents existed.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub level: Option<String>,
}

impl Player {
    /// People at the device, one a seat in the order named, each in its seat's colour.
    pub fn people(names: &[&str]) -> Vec<Player> {
        names
            .iter()
            .enumerate()
            .map(|(i, name)| Player {
                name: name.to_string(),
                color: i as u8,
                kind: SeatKind::Human,
                level: None,
            })
            .collect()
    }
}

/// How the device is shared.
#[derive(Debug, Clone, Copy, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Sharing {
    /// One device passed from player to player: each seat's private state is shown only
    /// to that seat, behind the cover.
    PassAndPlay,
    /// Both players look at one screen at once (Omiga face to face): no cover, each
    /// seat's area shows its own hand.
    FaceToFace,
}

/// A match in progress.
#[derive(Debug, Clone)]
pub struct Session<G: Game> {
    game: G,
    params: Params,
    players: Vec<Player>,
    sharing: Sharing,
    gate: Gate,
    actions: Vec<(Seat, String)>,
    /// What each action did, whole (secrets included), in step with `actions`: the
    /// public log is read from it, and the app's opponents are told from it, each only
    /// what its seat may know. Never handed out whole.
    events: Vec<G::Event>,
    /// The person who last had the screen open: when only the app acted since, the screen
    /// returns to them without the cover (nobody else could have looked).
    last_open: Option<Seat>,
}

impl<G: Game> Session<G> {
    /// Starts a match. The cover is up for the first person to act (pass-and-play).
    pub fn start(params: Params, players: Vec<Player>, sharing: Sharing) -> RuleResult<Self> {
        let game = G::new_game(&params)?;
        if players.len() != game.seats() {
            return Err(RuleError::new(format!(
                "{} players given for {} seats",
                players.len(),
                game.seats()
            )));
        }
        let mut session = Session {
            game,
            params,
            players,
            sharing,
            gate: Gate::Closed,
            actions: Vec::new(),
            events: Vec::new(),
            last_open: None,
        };
        session.gate = session.next_gate();
        Ok(session)
    }

    /// The whole rules state, every secret included: for the referee's tests and the
    /// rules core's. A screen never holds a `Session` (it holds a [`Match`], which has no
    /// such call): it sees [`Session::public`] and, through the gate, a [`Desk`].
    pub fn game(&self) -> &G {
        &self.game
    }

    /// What everyone at the table may know now (no hand, no peek).
    pub fn public(&self) -> G::View {
        self.game.public_view()
    }

    /// `seat`'s desk (its view and its rules questions), only while the gate shows that
    /// seat's private state.
    pub fn desk(&self, seat: Seat) -> Option<Desk<'_, G>> {
        self.shows(seat).then(|| Desk::new(&self.game, seat))
    }

    /// True when `seat`'s private state may be on screen: the gate shows it, and a
    /// person plays it here (face to face, the app's side stays face down).
    fn shows(&self, seat: Seat) -> bool {
        self.gate.shows(seat) && self.players.get(seat).map(|p| p.kind) == Some(SeatKind::Human)
    }

    /// The seats that may act now (public).
    pub fn to_act(&self) -> Vec<Seat> {
        self.game.to_act()
    }

    /// The public log: each action with its seat and what everyone learned of it.
    pub fn log(&self) -> impl Iterator<Item = (Seat, &str, G::Event)> + '_ {
        self.actions
            .iter()
            .zip(&self.events)
            .map(|((seat, line), event)| (*seat, line.as_str(), G::public_event(event)))
    }

    /// The parameters the game started from.
    pub fn params(&self) -> &Params {
        &self.params
    }

    /// The players, by seat.
    pub fn players(&self) -> &[Player] {
        &self.players
    }

    /// How the device is shared.
    pub fn sharing(&self) -> Sharing {
        self.sharing
    }

    /// The actions played so far, in notation, with their seats.
    pub fn actions(&self) -> &[(Seat, String)] {
        &self.actions
    }

    /// The privacy gate's state.
    pub fn gate(&self) -> Gate {
        self.gate
    }

    /// Raises the cover for whoever acts next (after the app was closed and reopened, or
    /// when a player hands the device on by hand).
    pub fn cover(&mut self) {
        self.gate = match self.next_gate() {
            Gate::Open(seat) => Gate::Covered(seat),
            other => other,
        };
        if self.sharing == Sharing::FaceToFace {
            self.gate = Gate::Shared;
        }
        self.last_open = None;
    }

    /// The player behind the cover tapped "reveal": the screen may now show their state.
    pub fn reveal(&mut self) {
        if let Gate::Covered(seat) = self.gate {
            self.gate = Gate::Open(seat);
            self.last_open = Some(seat);
        }
    }

    /// The view the screen may show now, for `seat`: only while the gate is open for that
    /// seat (or the table is shared face to face). `None` while the cover is up.
    pub fn view(&self, seat: Seat) -> Option<G::View> {
        self.shows(seat).then(|| self.game.view(seat))
    }

    /// The seat whose private state is on screen (`None` while covered or shared).
    pub fn viewer(&self) -> Option<Seat> {
        match self.gate {
            Gate::Open(seat) => Some(seat),
            _ => None,
        }
    }

    /// Plays `action` for `seat` from this device. Refused while that seat's state is not
    /// on screen. After the action the cover goes up if the next person to act is
    /// someone else. Returns the event as `seat` may know it.
    pub fn act(&mut self, seat: Seat, action: &G::Action) -> RuleResult<G::Event> {
        if !self.shows(seat) {
            return Err(RuleError::RevealFirst);
        }
        self.apply_from(seat, action)
    }

    /// Plays an action that did not come from this screen (a bot, the other device).
    pub fn act_remote(&mut self, seat: Seat, action: &G::Action) -> RuleResult<G::Event> {
        if self.players.get(seat).map(|p| p.kind) == Some(SeatKind::Human) {
            return Err(RuleError::new(format!("seat {seat} plays on this device")));
        }
        self.apply_from(seat, action)
    }

    fn apply_from(&mut self, seat: Seat, action: &G::Action) -> RuleResult<G::Event> {
        let event = self.game.play(seat, action)?;
        self.actions.push((seat, action.to_string()));
        self.events.push(event.clone());
        let next = self.next_gate();
        // The cover goes up only when the screen must change hands.
        self.gate = match (self.gate, next) {
            (Gate::Open(now), Gate::Covered(next)) if now == next => Gate::Open(now),
            // Only the app (or a remote player) acted since this person looked.
            (Gate::Closed, Gate::Covered(next)) if self.last_open == Some(next) => Gate::Open(next),
            (_, next) => next,
        };
        match self.gate {
            Gate::Open(seat) => self.last_open = Some(seat),
            Gate::Covered(_) | Gate::Shared => self.last_open = None,
            Gate::Closed => {}
        }
        Ok(G::event_for(&event, seat))
    }

    /// The seat that may take back the last action now, if any: it played that action,
    /// the game allows taking it back, nobody has acted since, and the game goes on.
    pub fn undo_for(&self) -> Option<Seat> {
        let (seat, line) = self.actions.last()?;
        let action: G::Action = line.parse().ok()?;
        let person = self.players.get(*seat).map(|p| p.kind) == Some(SeatKind::Human);
        let fair = person && G::undoable(&action) && !self.game.outcome().is_over();
        fair.then_some(*seat)
    }

    /// Takes back the last action for `seat` (see [`Session::undo_for`]) by replaying the
    /// match without it; the screen returns to that seat.
    pub fn undo(&mut self, seat: Seat) -> RuleResult<()> {
        if self.undo_for() != Some(seat) {
            return Err(RuleError::CannotTakeBack);
        }
        let mut game = G::new_game(&self.params)?;
        let keep = self.actions.len() - 1;
        let mut events = Vec::with_capacity(keep);
        for (s, line) in &self.actions[..keep] {
            events.push(game.play(*s, &line.parse()?)?);
        }
        self.game = game;
        self.actions.truncate(keep);
        self.events = events;
        self.gate = if self.sharing == Sharing::FaceToFace {
            Gate::Shared
        } else {
            self.last_open = Some(seat);
            Gate::Open(seat)
        };
        Ok(())
    }

    /// Whether and how the game has ended.
    pub fn outcome(&self) -> Outcome {
        self.game.outcome()
    }

    /// The gate the next moment calls for: shared, covered for the next person here to
    /// act, or closed (a bot or a remote player is thinking, or the game is over).
    fn next_gate(&self) -> Gate {
        if self.sharing == Sharing::FaceToFace {
            return Gate::Shared;
        }
        if self.game.outcome().is_over() {
            return Gate::Closed;
        }
        self.game
            .to_act()
            .into_iter()
            .find(|s| self.players.get(*s).map(|p| p.kind) == Some(SeatKind::Human))
            .map_or(Gate::Closed, Gate::Covered)
    }
}

#[cfg(test)]
mod tests;

/// What the app shell needs of any match, whatever the game: saving, history, undo,
/// the cover. Object-safe, so the shell can hold a table of any game.
pub trait AnySession {
    /// The match as it is saved.
    fn saved(&self) -> SavedGame;
    /// The history entry once the match is over.
    fn finished_entry(&self, finished_at: u64, duration_secs: Option<u64>) -> Option<FinishedGame>;
    /// The seat that may take back the last action now, if any.
    fn undo_seat(&self) -> Option<Seat>;
    /// Raises the cover for whoever acts next.
    fn raise_cover(&mut self);
    /// The players, by seat.
    fn seat_players(&self) -> &[Player];
    /// Whether the match has ended.
    fn is_over(&self) -> bool;
}

impl<G: Game> AnySession for Session<G> {
    fn saved(&self) -> SavedGame {
        self.to_saved()
    }
    fn finished_entry(&self, finished_at: u64, duration_secs: Option<u64>) -> Option<FinishedGame> {
        self.finished(finished_at, duration_secs)
    }
    fn undo_seat(&self) -> Option<Seat> {
        self.undo_for()
    }
    fn raise_cover(&mut self) {
        self.cover()
    }
    fn seat_players(&self) -> &[Player] {
        &self.players
    }
    fn is_over(&self) -> bool {
        self.game.outcome().is_over()
    }
}
