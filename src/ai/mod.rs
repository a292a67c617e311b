//! The app's opponents, for all three games, at four strengths (random, easy, medium,
//! hard), and the self-play bench that pits them against each other.
//!
//! Fair play is built into the types: a [`Bot`] is only ever handed its seat's `View`
//! and the events that seat was told ([`Told`], made only through `Game::event_for`).
//! It never receives the game state. Where a bot needs the rules (legal actions, a
//! look ahead) it builds a *determinized* state from its view and its own memory,
//! sampling everything it cannot know (see `docs/opponents.md`).

pub mod background;
pub mod iota_bot;
pub mod omiga_bot;
pub mod ovo_bot;
pub mod selfplay;
mod sliced;

use crate::games::{iota::Iota, omiga::Omiga, ovo::Ovo, Game, RuleError, RuleResult, Seat};
use crate::platform::time::{Duration, Instant};
use rand_chacha::ChaCha8Rng;
use std::fmt;
use std::str::FromStr;

/// How strong an opponent plays. `Random` is the baseline of the bench, not offered to
/// players.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Level {
    /// Uniform over the legal actions (Ovo: never declares, which would be suicide).
    Random,
    /// A beginner.
    Easy,
    /// A club player.
    Medium,
    /// The strongest, within [`Level::think_limit`].
    Hard,
}

impl Level {
    /// Every level, weakest first.
    pub const ALL: [Level; 4] = [Level::Random, Level::Easy, Level::Medium, Level::Hard];

    /// The name used on the command line and in tables.
    pub fn name(self) -> &'static str {
        match self {
            Level::Random => "random",
            Level::Easy => "easy",
            Level::Medium => "medium",
            Level::Hard => "hard",
        }
    }

    /// The most time one decision may take at this level (hard: under 1 s); the
    /// searches check it as a deadline.
    pub fn think_limit(self) -> Duration {
        Duration::from_millis(match self {
            Level::Random => 50,
            Level::Easy => 150,
            Level::Medium => 400,
            Level::Hard => 900,
        })
    }
}

impl fmt::Display for Level {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

impl FromStr for Level {
    type Err = RuleError;

    fn from_str(s: &str) -> RuleResult<Level> {
        Level::ALL
            .into_iter()
            .find(|l| l.name() == s)
            .ok_or_else(|| {
                RuleError::new(format!(
                    "unknown level '{s}' (levels: random, easy, medium, hard)"
                ))
            })
    }
}

/// An event as one seat was told of it. Made only by [`Told::new`], which goes through
/// `Game::event_for`, so a bot cannot be handed another seat's secrets.
#[derive(Debug, Clone)]
pub struct Told<G: Game> {
    event: G::Event,
    seat: Seat,
}

impl<G: Game> Told<G> {
    /// `event` as `seat` may learn of it.
    pub fn new(event: &G::Event, seat: Seat) -> Self {
        Told {
            event: G::event_for(event, seat),
            seat,
        }
    }

    /// The event, stripped for the seat.
    pub fn event(&self) -> &G::Event {
        &self.event
    }

    /// The seat it was told to.
    pub fn seat(&self) -> Seat {
        self.seat
    }
}

/// What one slice of thinking ([`Bot::think`]) came to.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Thought<A> {
    /// Not decided yet: call `think` again with the same view.
    Thinking,
    /// Decided, as [`Bot::choose`] would answer.
    Decided(Option<A>),
}

/// An opponent. It sees only its seat's view and what its seat was told; it cannot be
/// given the game state (there is no method that takes one).
pub trait Bot<G: Game>: Send {
    /// The action to play now, chosen from `view` (its seat's view) and the bot's
    /// memory; `None` when the view leaves it nothing to do (not its turn, game over).
    fn choose(&mut self, view: &G::View, rng: &mut ChaCha8Rng) -> Option<G::Action>;
    /// The same decision made in slices of about `slice` each, for a caller that must
    /// stay responsive between them (the browser has no threads: `platform::work`). The
    /// level's deadline still bounds the whole decision. A bot whose decisions are quick
    /// decides in one call (this default); one with a long search keeps it between calls
    /// (IOTA's and Ovo's hard levels), and a call with another view starts a new one.
    fn think(
        &mut self,
        view: &G::View,
        rng: &mut ChaCha8Rng,
        slice: Duration,
    ) -> Thought<G::Action> {
        let _ = slice;
        Thought::Decided(self.choose(view, rng))
    }
    /// Remembers what its seat was told of an action (anyone's, its own included).
    fn observe(&mut self, told: &Told<G>);
    /// Whether the last decision was cut short by the deadline.
    fn hit_deadline(&self) -> bool;
}

/// A game with opponents.
pub trait Opponents: Game {
    /// An opponent at `level`; `limit` is the deadline per decision (`None`: search its
    /// full budget, for reproducible tests).
    fn bot(level: Level, limit: Option<Duration>) -> Box<dyn Bot<Self>>;
}

impl Opponents for Ovo {
    fn bot(level: Level, limit: Option<Duration>) -> Box<dyn Bot<Self>> {
        Box::new(ovo_bot::OvoBot::new(level, limit))
    }
}

impl Opponents for Iota {
    fn bot(level: Level, limit: Option<Duration>) -> Box<dyn Bot<Self>> {
        Box::new(iota_bot::IotaBot::new(level, limit))
    }
}

impl Opponents for Omiga {
    fn bot(level: Level, limit: Option<Duration>) -> Box<dyn Bot<Self>> {
        Box::new(omiga_bot::OmigaBot::new(level, limit))
    }
}

/// A point in time after which a search stops and answers with what it has.
#[derive(Debug, Clone, Copy)]
pub struct Deadline(Option<Instant>);

impl Deadline {
    /// `limit` from now (`None`, or too far to tell the time of: never).
    pub fn after(limit: Option<Duration>) -> Deadline {
        // `checked_add`: a caller may pass `Duration::MAX` for "as long as it takes".
        Deadline(limit.and_then(|l| Instant::now().checked_add(l)))
    }

    /// True once the time is up.
    pub fn passed(&self) -> bool {
        self.0.is_some_and(|t| Instant::now() >= t)
    }

    /// Whether a piece of work as long as `step` would still end before the deadline
    /// (always, without one): searches made of slices stop before the slice that would
    /// overrun, not after it.
    pub fn fits(&self, step: Duration) -> bool {
        self.0.is_none_or(|t| Instant::now() + step < t)
    }
}

/// A decision's time limit counted in the time it spends thinking, for a decision made in
/// slices ([`Bot::think`]). In the browser the page draws its frames and answers taps
/// between two slices; were that time counted, the opponent would think less there than
/// on the desktop and play weaker.
#[derive(Debug, Clone, Copy)]
pub struct Budget {
    limit: Option<Duration>,
    spent: Duration,
}

impl Budget {
    /// `limit` of thinking in all (`None`: no limit).
    pub fn new(limit: Option<Duration>) -> Budget {
        Budget {
            limit,
            spent: Duration::ZERO,
        }
    }

    /// The deadline of a slice starting now, if it alone used what is left.
    pub fn deadline(&self) -> Deadline {
        Deadline::after(self.limit.map(|l| l.saturating_sub(self.spent)))
    }

    /// Counts a slice's thinking, from `started` to now.
    pub fn spend_since(&mut self, started: Instant) {
        self.spent = self.spent.saturating_add(started.elapsed());
    }
}

#[cfg(test)]
mod tests;
