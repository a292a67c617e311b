//! The three games behind one object-safe face, so that the referee (and anything else
//! that picks a game by name at run time) needs no per-game code.

use super::{iota, omiga, ovo, Game, Outcome, Params, RuleError, RuleResult, Seat};

/// The names the registry knows, in the order the app lists them.
pub const GAME_NAMES: &[&str] = &["ovo", "iota", "omiga"];

/// Any game, driven by notation lines; implemented for every [`Game`].
pub trait AnyGame: Send {
    /// The game's name (`ovo`, `iota`, `omiga`).
    fn name(&self) -> &'static str;
    /// How many seats play.
    fn seats(&self) -> usize;
    /// Parses and plays one action for `seat`; returns the referee's report lines.
    fn play_line(&mut self, seat: Seat, action: &str) -> RuleResult<Vec<String>>;
    /// Every legal action of `seat`, in notation.
    fn legal_lines(&self, seat: Seat) -> RuleResult<Vec<String>>;
    /// `seat`'s view as one line of JSON.
    fn view_json(&self, seat: Seat) -> RuleResult<String>;
    /// The whole state as one line of JSON.
    fn state_line(&self) -> String;
    /// Each seat's score.
    fn score_list(&self) -> Vec<i64>;
    /// Whether and how the game has ended.
    fn result(&self) -> Outcome;
    /// The position line of RULES.md §5.
    fn position_line(&self) -> String;
}

impl<G: Game> AnyGame for G {
    fn name(&self) -> &'static str {
        G::NAME
    }
    fn seats(&self) -> usize {
        Game::seats(self)
    }
    fn play_line(&mut self, seat: Seat, action: &str) -> RuleResult<Vec<String>> {
        let action: G::Action = action.parse()?;
        let event = self.play(seat, &action)?;
        Ok(G::report(&event))
    }
    fn legal_lines(&self, seat: Seat) -> RuleResult<Vec<String>> {
        self.check_seat(seat)?;
        Ok(self
            .legal_actions(seat)
            .iter()
            .map(|a| a.to_string())
            .collect())
    }
    fn view_json(&self, seat: Seat) -> RuleResult<String> {
        self.check_seat(seat)?;
        serde_json::to_string(&self.view(seat))
            .map_err(|e| RuleError::new(format!("the view could not be written: {e}")))
    }
    fn state_line(&self) -> String {
        self.state_json().to_string()
    }
    fn score_list(&self) -> Vec<i64> {
        self.scores()
    }
    fn result(&self) -> Outcome {
        self.outcome()
    }
    fn position_line(&self) -> String {
        self.position()
    }
}

/// Starts a new game of the named kind.
pub fn new_game(name: &str, params: &Params) -> RuleResult<Box<dyn AnyGame>> {
    match name {
        "ovo" => Ok(Box::new(ovo::Ovo::new_game(params)?)),
        "iota" => Ok(Box::new(iota::Iota::new_game(params)?)),
        "omiga" => Ok(Box::new(omiga::Omiga::new_game(params)?)),
        _ => Err(unknown(name, params)),
    }
}

/// Sets up the named game from a position line.
pub fn from_position(name: &str, position: &str) -> RuleResult<Box<dyn AnyGame>> {
    match name {
        "ovo" => Ok(Box::new(ovo::Ovo::from_position(position)?)),
        "iota" => Ok(Box::new(iota::Iota::from_position(position)?)),
        "omiga" => Ok(Box::new(omiga::Omiga::from_position(position)?)),
        _ => Err(unknown(name, position)),
    }
}

fn unknown(name: &str, _: impl Sized) -> RuleError {
    RuleError::new(format!(
        "unknown game '{name}' (games: {})",
        GAME_NAMES.join(", ")
    ))
}
