//! The three games behind one object-safe face, so that the referee (and anything else
//! that picks a game by name at run time) needs no per-game code.

use super::{iota, omiga, ovo, Game, Outcome, Params, RuleError, RuleResult, Seat};
use std::fmt;
use std::str::FromStr;

/// The names the registry knows, in the order the app lists them.
pub const GAME_NAMES: &[&str] = &GameKind::NAMES;

/// Which of the three games: the one place the games are listed with what the app needs
/// to know of each before one is started. A name from outside (command line, save file,
/// settings, the setup screen) becomes a `GameKind` once, through [`FromStr`]; past that
/// edge, code matches on this enum, never on the string.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum GameKind {
    /// Ovo (docs/rules.md §1), the first the app lists.
    #[default]
    Ovo,
    /// IOTA (docs/rules.md §2).
    Iota,
    /// Omiga (docs/rules.md §3).
    Omiga,
}

impl GameKind {
    /// Every game, in the order the app lists them.
    pub const ALL: [GameKind; 3] = [GameKind::Ovo, GameKind::Iota, GameKind::Omiga];
    /// Their names, in the same order (what `name` returns).
    pub const NAMES: [&'static str; 3] = ["ovo", "iota", "omiga"];

    /// The name used in notation, files and on the command line: `ovo`, `iota`, `omiga`.
    pub fn name(self) -> &'static str {
        Self::NAMES[self as usize]
    }

    /// The name as the box prints it (the same in English and Russian).
    pub fn title(self) -> &'static str {
        match self {
            GameKind::Ovo => "Ovo",
            GameKind::Iota => "IOTA",
            GameKind::Omiga => "Omiga",
        }
    }

    /// How many seats may play, smallest first.
    pub fn seat_counts(self) -> &'static [usize] {
        match self {
            GameKind::Ovo => &[2, 4],
            GameKind::Iota => &[2, 3, 4],
            GameKind::Omiga => &[2],
        }
    }

    /// The variant settings its setup offers, as `new` parameters (docs/referee.md).
    pub fn variants(self) -> &'static [&'static str] {
        match self {
            GameKind::Ovo => &["no_move_back"],
            GameKind::Iota => &[],
            GameKind::Omiga => &["table", "allow_rotation", "free_discard"],
        }
    }

    /// Whether the seats take turns (Omiga is played by both at once, in real time).
    pub fn has_turns(self) -> bool {
        self != GameKind::Omiga
    }

    /// Starts a new game of this kind.
    pub fn new_game(self, params: &Params) -> RuleResult<Box<dyn AnyGame>> {
        Ok(match self {
            GameKind::Ovo => Box::new(ovo::Ovo::new_game(params)?),
            GameKind::Iota => Box::new(iota::Iota::new_game(params)?),
            GameKind::Omiga => Box::new(omiga::Omiga::new_game(params)?),
        })
    }

    /// Sets up a game of this kind from a position line.
    pub fn from_position(self, position: &str) -> RuleResult<Box<dyn AnyGame>> {
        Ok(match self {
            GameKind::Ovo => Box::new(ovo::Ovo::from_position(position)?),
            GameKind::Iota => Box::new(iota::Iota::from_position(position)?),
            GameKind::Omiga => Box::new(omiga::Omiga::from_position(position)?),
        })
    }
}

impl FromStr for GameKind {
    type Err = RuleError;

    /// The one place a game's name is read.
    fn from_str(name: &str) -> RuleResult<GameKind> {
        GameKind::ALL
            .into_iter()
            .find(|k| k.name() == name)
            .ok_or_else(|| {
                RuleError::new(format!(
                    "unknown game '{name}' (games: {})",
                    GAME_NAMES.join(", ")
                ))
            })
    }
}

impl fmt::Display for GameKind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

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
    /// The position line of docs/referee.md.
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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn each_kind_reads_back_from_its_name_and_starts_its_own_game() {
        for kind in GameKind::ALL {
            assert_eq!(kind.name().parse::<GameKind>().ok(), Some(kind));
            assert_eq!(kind.to_string(), kind.name());
            let game = kind.new_game(&start(kind, 2)).expect("a game starts");
            assert_eq!(game.name(), kind.name());
            assert!(kind.seat_counts().contains(&game.seats()));
            let again = kind
                .from_position(&game.position_line())
                .expect("reads back");
            assert_eq!(again.position_line(), game.position_line());
        }
        assert_eq!(ovo::Ovo::NAME, GameKind::Ovo.name());
        assert_eq!(iota::Iota::NAME, GameKind::Iota.name());
        assert_eq!(omiga::Omiga::NAME, GameKind::Omiga.name());
    }

    #[test]
    fn an_unknown_name_is_refused_with_the_list() {
        for bad in ["chess", "Ovo", "", "ovo "] {
            let e = bad.parse::<GameKind>().unwrap_err();
            assert_eq!(
                e.to_string(),
                format!("unknown game '{bad}' (games: ovo, iota, omiga)")
            );
        }
    }

    #[test]
    fn the_seat_counts_are_the_ones_new_accepts() {
        for kind in GameKind::ALL {
            // Omiga takes no `players=`: it is always two, which its count must say.
            let tried = if kind == GameKind::Omiga {
                2..=2
            } else {
                1..=5
            };
            for players in tried {
                let started = kind.new_game(&start(kind, players));
                let expected = kind.seat_counts().contains(&players);
                assert_eq!(started.is_ok(), expected, "{kind} with {players} players");
            }
        }
    }

    /// `new` parameters for `players` seats (Omiga has no `players=`).
    fn start(kind: GameKind, players: usize) -> Params {
        match kind {
            GameKind::Ovo => Params::new().with("players", players),
            GameKind::Iota => Params::new().with("players", players).with("seed", 1),
            GameKind::Omiga => Params::new().with("seed", 1),
        }
    }
}
