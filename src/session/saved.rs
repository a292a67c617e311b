//! A match as it is kept on disk: how it started and every action since, plus the
//! position it reached, so that a reload can check the replay arrived at the same place.

use super::{Player, Session, Sharing};
use crate::games::{Game, Params, RuleError, RuleResult, Seat};
use serde::{Deserialize, Serialize};

/// The marker of a Hotseat save file.
pub const SAVE_FORMAT: &str = "hotseat-save";
/// The newest save version this build writes and reads.
pub const SAVE_VERSION: u32 = 1;

/// A saved match: enough to replay it exactly and to check the replay.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct SavedGame {
    /// Always [`SAVE_FORMAT`].
    pub format: String,
    /// The version it was written with.
    pub version: u32,
    /// `ovo`, `iota` or `omiga`.
    pub game: String,
    /// The parameters the game started from (seed included), as `key=value` words.
    pub params: String,
    /// The players, by seat.
    pub players: Vec<Player>,
    /// How the device is shared.
    pub sharing: Sharing,
    /// Every action applied, in order, in notation.
    pub actions: Vec<(Seat, String)>,
    /// The position after the last action, to check the replay.
    pub position: String,
}

impl<G: Game> Session<G> {
    /// The match as it is saved.
    pub fn to_saved(&self) -> SavedGame {
        SavedGame {
            format: SAVE_FORMAT.to_string(),
            version: SAVE_VERSION,
            game: G::NAME.to_string(),
            params: self.params.to_string(),
            players: self.players.clone(),
            sharing: self.sharing,
            actions: self.actions.clone(),
            position: self.game.position(),
        }
    }

    /// Replays a saved match. The result starts behind the cover of whoever acts next,
    /// as after the app was closed. Refuses a save of another game or version, an action
    /// that no longer applies, or a replay that ends somewhere else than the save says.
    pub fn from_saved(saved: &SavedGame) -> RuleResult<Self> {
        let mut session = Self::replay_first(saved, saved.actions.len())?;
        if session.game.position() != saved.position {
            return Err(RuleError::new(
                "the replayed game does not reach the saved position",
            ));
        }
        session.cover();
        Ok(session)
    }

    /// The table as everyone saw it after the first `upto` actions of a saved match (all
    /// of them if there are fewer): for stepping through a game in the history. The gate
    /// is closed, so no seat's private state (a hand) can be viewed, and the session
    /// cannot be played on.
    pub fn public_at(saved: &SavedGame, upto: usize) -> RuleResult<Self> {
        let mut session = Self::replay_first(saved, upto.min(saved.actions.len()))?;
        session.gate = super::Gate::Closed;
        Ok(session)
    }

    /// Checks the save's header and replays its first `upto` actions.
    fn replay_first(saved: &SavedGame, upto: usize) -> RuleResult<Self> {
        if saved.format != SAVE_FORMAT {
            return Err(RuleError::new("this is not a Hotseat saved game"));
        }
        if saved.version > SAVE_VERSION {
            return Err(RuleError::new(format!(
                "this game was saved by a newer Hotseat (save version {}); update the app",
                saved.version
            )));
        }
        if saved.game != G::NAME {
            return Err(RuleError::new(format!(
                "this is a saved {} game, not {}",
                saved.game,
                G::NAME
            )));
        }
        let params = Params::parse(saved.params.split_whitespace())?;
        let mut session = Session::<G>::start(params, saved.players.clone(), saved.sharing)?;
        for (n, (seat, line)) in saved.actions.iter().take(upto).enumerate() {
            let replayed = line
                .parse::<G::Action>()
                .and_then(|action| session.game.play(*seat, &action).map(|e| (action, e)));
            match replayed {
                Ok((action, event)) => {
                    session.actions.push((*seat, action.to_string()));
                    session.events.push(event);
                }
                Err(e) => {
                    return Err(RuleError::new(format!(
                        "action {} ('{line}' by seat {seat}) does not replay: {e}",
                        n + 1
                    )))
                }
            }
        }
        Ok(session)
    }
}

/// A finished match as the history list keeps it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct FinishedGame {
    /// When it ended (seconds since 1970, UTC).
    pub finished_at: u64,
    /// `ovo`, `iota` or `omiga`.
    pub game: String,
    /// The players' names, by seat.
    pub names: Vec<String>,
    /// The winning seats (empty on a draw).
    pub winners: Vec<Seat>,
    /// How long it was played, when the app measured it.
    pub duration_secs: Option<u64>,
    /// Each seat's best single turn (IOTA points; 0 in games without points).
    pub best_turns: Vec<i64>,
    /// The whole match, to replay it.
    pub saved: SavedGame,
    /// The match stopped before its end (a LAN game whose other device never came
    /// back): `winners` is empty and means nobody won, not a draw.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub unfinished: bool,
}

impl<G: Game> Session<G> {
    /// The history entry of a finished match (`None` while it goes on).
    pub fn finished(&self, finished_at: u64, duration_secs: Option<u64>) -> Option<FinishedGame> {
        let outcome = self.game.outcome();
        if !outcome.is_over() {
            return None;
        }
        Some(FinishedGame {
            finished_at,
            game: G::NAME.to_string(),
            names: self.players.iter().map(|p| p.name.clone()).collect(),
            winners: outcome.winners(),
            duration_secs,
            best_turns: self.best_turns(),
            saved: self.to_saved(),
            unfinished: false,
        })
    }

    /// Each seat's best turn, from the referee's `score N` reports of the public log.
    fn best_turns(&self) -> Vec<i64> {
        let mut best = vec![0; self.players.len()];
        for (seat, _, event) in self.log() {
            for report in G::report(&event) {
                let points = report
                    .strip_prefix("score ")
                    .and_then(|n| n.parse::<i64>().ok());
                if let (Some(points), Some(b)) = (points, best.get_mut(seat)) {
                    *b = (*b).max(points);
                }
            }
        }
        best
    }
}
