//! The rules core: pure, deterministic, no UI, no I/O, no clock.
//!
//! Every game has the same shape (the [`Game`] trait): a state that starts from
//! [`Params`] or a position line, actions that parse from and print to the notation
//! of docs/rules.md §4, `legal_actions`, an `apply` that leaves the state untouched on
//! error, a per-seat `view` that holds only what that seat may know, and `outcome`.
//! Randomness comes only from a seed given at the start ([`rng_from_seed`]), so a game
//! replays exactly from its parameters and action list.

pub mod iota;
pub mod omiga;
pub mod ovo;
mod params;
pub mod registry;

pub use params::Params;

use rand::SeedableRng;
use rand_chacha::ChaCha8Rng;
use serde::{Deserialize, Serialize};
use std::fmt::{self, Debug, Display};
use std::str::FromStr;

/// The eight neighbours of a square cell, as (dx, dy): Ovo's steps and jumps, Omiga's
/// "next to a card".
pub(crate) const AROUND: [(i32, i32); 8] = [
    (-1, -1),
    (0, -1),
    (1, -1),
    (-1, 0),
    (1, 0),
    (-1, 1),
    (0, 1),
    (1, 1),
];

/// A seat at the table, numbered from 0 in turn order (Omiga: 0 = White, 1 = Black).
pub type Seat = usize;

/// Why an action, a command or a position was refused.
///
/// Every refusal a player can meet by tapping has its own variant carrying what varies
/// (seat, cell, card, line, counts), so that the UI can say it in the player's language
/// (`ui::refusals`). `Display` is the referee's English, which docs/referee.md and the
/// transcripts in tests/transcripts pin down to the character. Errors only the referee
/// and save files meet (notation, positions, parameters) stay [`RuleError::Other`].
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum RuleError {
    /// A seat number past the game's last seat (the check every game shares).
    #[error("there is no seat {seat} in this game (seats 0 to {last})")]
    NoSeat {
        /// The seat asked for.
        seat: Seat,
        /// The game's last seat.
        last: Seat,
    },
    /// A seat number past the game's last seat, where a game checks it itself.
    #[error("there is no seat {seat} in this game")]
    NoSuchSeat {
        /// The seat asked for.
        seat: Seat,
    },
    /// The game has ended.
    #[error("the game is over")]
    GameOver,
    /// Another seat is to act.
    #[error("it is not seat {seat}'s turn")]
    NotYourTurn {
        /// The seat that tried.
        seat: Seat,
    },
    /// The seat's private state is behind the cover.
    #[error("reveal the screen first")]
    RevealFirst,
    /// Fair play does not let the last action be taken back.
    #[error("that cannot be taken back now")]
    CannotTakeBack,
    /// An Ovo move refused.
    #[error(transparent)]
    Ovo(#[from] ovo::OvoError),
    /// An IOTA move refused.
    #[error(transparent)]
    Iota(#[from] iota::IotaError),
    /// An Omiga move refused.
    #[error(transparent)]
    Omiga(#[from] omiga::OmigaError),
    /// Anything else, in the referee's English: notation, positions, parameters, files.
    #[error("{0}")]
    Other(String),
}

impl RuleError {
    /// A refusal only the referee and save files meet, in English.
    pub fn new(message: impl Into<String>) -> Self {
        RuleError::Other(message.into())
    }

    /// One example of every refusal a player can meet, for tests/translations.rs, which
    /// proves each has a Russian text. The `match` below has no wildcard, so a new
    /// variant does not compile until it is listed there, next to the examples.
    pub fn examples() -> Vec<RuleError> {
        let mut all = vec![
            RuleError::NoSeat { seat: 5, last: 3 },
            RuleError::NoSuchSeat { seat: 5 },
            RuleError::GameOver,
            RuleError::NotYourTurn { seat: 2 },
            RuleError::RevealFirst,
            RuleError::CannotTakeBack,
        ];
        all.extend(ovo::OvoError::examples().into_iter().map(RuleError::Ovo));
        all.extend(iota::IotaError::examples().into_iter().map(RuleError::Iota));
        all.extend(
            omiga::OmigaError::examples()
                .into_iter()
                .map(RuleError::Omiga),
        );
        for e in &all {
            match e {
                RuleError::NoSeat { .. }
                | RuleError::NoSuchSeat { .. }
                | RuleError::GameOver
                | RuleError::NotYourTurn { .. }
                | RuleError::RevealFirst
                | RuleError::CannotTakeBack
                | RuleError::Ovo(_)
                | RuleError::Iota(_)
                | RuleError::Omiga(_) => {}
                // Not a player's refusal: it stays English by design.
                RuleError::Other(_) => {}
            }
        }
        all
    }
}

/// Shorthand for results of the rules core.
pub type RuleResult<T> = Result<T, RuleError>;

/// How a game stands: still going, or how it ended.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum Outcome {
    /// The game goes on.
    Ongoing,
    /// One seat won.
    Win {
        /// The winner.
        seat: Seat,
    },
    /// Several seats share the win (IOTA: equal highest scores), in seat order.
    SharedWin {
        /// The winners, ascending.
        seats: Vec<Seat>,
    },
    /// Nobody won.
    Draw,
}

impl Outcome {
    /// True once the game has ended.
    pub fn is_over(&self) -> bool {
        !matches!(self, Outcome::Ongoing)
    }

    /// The winning seats (empty while ongoing or on a draw).
    pub fn winners(&self) -> Vec<Seat> {
        match self {
            Outcome::Win { seat } => vec![*seat],
            Outcome::SharedWin { seats } => seats.clone(),
            Outcome::Ongoing | Outcome::Draw => Vec::new(),
        }
    }
}

/// The referee's spelling: `ongoing`, `win 1`, `wins 0 2`, `draw`.
impl Display for Outcome {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Outcome::Ongoing => f.write_str("ongoing"),
            Outcome::Win { seat } => write!(f, "win {seat}"),
            Outcome::SharedWin { seats } => {
                f.write_str("wins")?;
                for s in seats {
                    write!(f, " {s}")?;
                }
                Ok(())
            }
            Outcome::Draw => f.write_str("draw"),
        }
    }
}

/// A reproducible random source for a game: the same seed deals the same game.
pub fn rng_from_seed(seed: u64) -> ChaCha8Rng {
    ChaCha8Rng::seed_from_u64(seed)
}

/// One game's rules. Implemented by `ovo::Ovo`, `iota::Iota` and `omiga::Omiga`.
///
/// Contract for every implementation:
/// - `apply` either succeeds or returns an error and leaves `self` exactly as it was;
/// - `view(seat)` contains nothing that seat may not know (the UI, bots and the network
///   only ever see views, so a secret that is not in a view cannot leak);
/// - `position()` and `from_position()` round-trip (docs/referee.md, "Positions").
pub trait Game: Clone + Debug + Send + 'static {
    /// One action in the notation of docs/rules.md §4 (`b1xb3`, `place Bx2@1,0`, `discard`).
    type Action: Clone + Debug + PartialEq + Display + FromStr<Err = RuleError> + Send + 'static;
    /// What one seat may know of the state.
    type View: Clone + Debug + Serialize + Send + 'static;
    /// What an applied action did (a peek's symbol, a placement's score, a win).
    type Event: Clone + Debug + Serialize + Send + 'static;

    /// The game's name in commands and files: `ovo`, `iota`, `omiga`.
    const NAME: &'static str;

    /// A new game from the referee's `new` parameters (`players=4 first=1 seed=7`) or the
    /// app's setup, which uses the same keys.
    fn new_game(params: &Params) -> RuleResult<Self>;
    /// A game from a position line (docs/referee.md), checked for consistency.
    fn from_position(position: &str) -> RuleResult<Self>;
    /// The current position in the canonical spelling of docs/referee.md.
    fn position(&self) -> String;
    /// The whole state (every secret included), for the referee's `state` command.
    fn state_json(&self) -> serde_json::Value;

    /// How many seats play.
    fn seats(&self) -> usize;
    /// The seats that may act now: the seat on turn in turn-based games, both seats in
    /// real-time Omiga, nobody once the game is over.
    fn to_act(&self) -> Vec<Seat>;
    /// Every legal action of `seat` now, each once, in canonical spelling (docs/referee.md).
    fn legal_actions(&self, seat: Seat) -> Vec<Self::Action>;
    /// Applies `action` for `seat`, or refuses it with the reason and changes nothing.
    fn apply(&mut self, seat: Seat, action: &Self::Action) -> RuleResult<Self::Event>;
    /// What `seat` may know of the state now.
    fn view(&self, seat: Seat) -> Self::View;
    /// What everyone at the table may know: a view with every private part left out (no
    /// hand; the seat it names is only a point of view). The screen under the cover, the
    /// app while an opponent thinks, and replays show this.
    fn public_view(&self) -> Self::View;
    /// Whether and how the game has ended.
    fn outcome(&self) -> Outcome;
    /// Each seat's score (zeros in games without points).
    fn scores(&self) -> Vec<i64>;

    /// The referee's answer lines for an event, before `ok` (`symbol star`, `score 34`).
    fn report(event: &Self::Event) -> Vec<String>;
    /// The event as `seat` may learn of it: a peek's symbol reaches the peeker alone.
    fn event_for(event: &Self::Event, seat: Seat) -> Self::Event;
    /// The event as everyone may learn of it: what only its actor learned is left out.
    /// Every game's `event_for` keeps a private part for the actor alone, and no seat is
    /// `Seat::MAX`.
    fn public_event(event: &Self::Event) -> Self::Event {
        Self::event_for(event, Seat::MAX)
    }

    /// Whether `action`, just played, may be taken back under fair play: it revealed
    /// nothing hidden and drew nothing (Ovo: a move without a declaration). Most actions
    /// may not.
    fn undoable(action: &Self::Action) -> bool {
        let _ = action;
        false
    }

    /// Refuses a seat number this game does not have.
    fn check_seat(&self, seat: Seat) -> RuleResult<()> {
        if seat < self.seats() {
            Ok(())
        } else {
            Err(RuleError::NoSeat {
                seat,
                last: self.seats() - 1,
            })
        }
    }

    /// Applies `action` for `seat` after the checks every game shares (the seat exists,
    /// the game is not over, the seat may act now). Callers use this, not `apply`.
    fn play(&mut self, seat: Seat, action: &Self::Action) -> RuleResult<Self::Event> {
        self.check_seat(seat)?;
        if self.outcome().is_over() {
            return Err(RuleError::GameOver);
        }
        if !self.to_act().contains(&seat) {
            return Err(RuleError::NotYourTurn { seat });
        }
        self.apply(seat, action)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn outcome_prints_the_referee_spelling() {
        assert_eq!(Outcome::Ongoing.to_string(), "ongoing");
        assert_eq!(Outcome::Win { seat: 1 }.to_string(), "win 1");
        assert_eq!(
            Outcome::SharedWin { seats: vec![0, 2] }.to_string(),
            "wins 0 2"
        );
        assert_eq!(Outcome::Draw.to_string(), "draw");
        assert_eq!(
            Outcome::SharedWin { seats: vec![0, 2] }.winners(),
            vec![0, 2]
        );
        assert!(!Outcome::Ongoing.is_over());
    }

    #[test]
    fn the_same_seed_gives_the_same_numbers() {
        use rand::Rng;
        let (mut a, mut b, mut c) = (rng_from_seed(9), rng_from_seed(9), rng_from_seed(10));
        let (x, y, z): (u64, u64, u64) = (a.random(), b.random(), c.random());
        assert_eq!(x, y);
        assert_ne!(x, z);
    }
}
