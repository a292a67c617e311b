//! The app's opponents at a match: one [`Bot`] per seat the app plays, what each was
//! told, and the work it asks the platform to run.
//!
//! When a seat the app plays is to act, [`Opponents::job`] hands that seat's bot ONLY
//! `view(seat)` and returns the thinking as a [`Job`]: work in slices that the platform
//! seam runs (a worker thread on the desktop, turns of the event loop in a browser,
//! at once in tests). Its [`Reply`] comes back through [`super::Match::finish`]. Each bot
//! is told every event as its seat may know it (`Told::new`), read from the session's own
//! log: there is no second copy of the game. Omiga's bot first waits its level's pace
//! ([`JobKind::Wait`]), then decides from the view of that moment.

use super::{SeatKind, Session};
use crate::ai::{background, omiga_bot, Bot, Level, Opponents as HasBots, Told};
use crate::games::{rng_from_seed, Game, Seat};
use crate::platform::time::Duration;
use std::any::Any;
use std::sync::atomic::{AtomicU64, Ordering};

/// Work the platform runs for a match's opponents.
pub struct Job {
    /// Names the match (its answers and wake-ups carry it back).
    pub token: u64,
    /// What to run.
    pub kind: JobKind,
}

/// What a [`Job`] asks of the platform.
pub enum JobKind {
    /// Think, one slice per call (`Some` once decided), anywhere; the answer goes back
    /// to the match through [`super::Match::finish`].
    #[allow(clippy::type_complexity)]
    Think(Box<dyn FnMut() -> Option<Reply> + Send>),
    /// Omiga: wait this long, then call [`super::Match::wake`] with the token.
    Wait(Duration),
}

/// A bot's answer on its way back to its match (any game; the match checks its type).
pub struct Reply(Box<dyn Any + Send>);

/// The typed answer inside a [`Reply`].
struct Answer<G: Game> {
    token: u64,
    epoch: u64,
    seat: Seat,
    /// How many actions the match had when the bot started thinking, and the last one.
    actions: usize,
    last: Option<(Seat, String)>,
    answer: Option<background::Answer<G>>,
}

/// Every match gets its own token, so that an answer meant for an earlier match (a new
/// game was started while a bot thought) is recognised and dropped.
static NEXT_TOKEN: AtomicU64 = AtomicU64::new(1);

/// One app seat.
struct Slot<G: Game> {
    level: Level,
    /// `None` while it thinks elsewhere.
    bot: Option<Box<dyn Bot<G>>>,
}

/// The app's seats of one match, and how far each was told.
pub(super) struct Opponents<G: HasBots> {
    slots: Vec<Option<Slot<G>>>,
    /// Events of the session's log told to the bots so far.
    told: usize,
    /// Changes whenever the bots are rebuilt (take-back): older answers are dropped.
    epoch: u64,
    token: u64,
    /// Omiga: a seat is waiting for its pace.
    waiting: bool,
    /// Omiga: the pace has passed; the bot may decide now.
    awake: bool,
    seed: u64,
}

/// What became of a bot's answer.
pub enum Finished<G: Game> {
    /// Played: the seat, its action, and the event as that seat knows it.
    Played(Seat, G::Action, G::Event),
    /// The bot failed to decide (a bug): the app's seats start afresh, told the match.
    Stuck,
    /// The rules refused the bot's action (a bug): it decides again.
    Refused(crate::games::RuleError),
}

impl<G: HasBots> Opponents<G> {
    /// The app's seats of `session` (none when everybody is a person).
    pub(super) fn new(session: &Session<G>) -> Self {
        let mut seats = Opponents {
            slots: Vec::new(),
            told: 0,
            epoch: 0,
            token: NEXT_TOKEN.fetch_add(1, Ordering::Relaxed),
            waiting: false,
            awake: false,
            seed: rand::random(),
        };
        seats.rebuild(session);
        seats
    }

    fn rebuild(&mut self, session: &Session<G>) {
        self.slots = session
            .players()
            .iter()
            .map(|p| {
                (p.kind == SeatKind::Bot).then(|| {
                    let level = p
                        .level
                        .as_deref()
                        .and_then(|l| l.parse().ok())
                        .unwrap_or(Level::Medium);
                    Slot {
                        level,
                        bot: Some(G::bot(level, Some(level.think_limit()))),
                    }
                })
            })
            .collect();
        self.told = 0;
        self.epoch += 1;
        self.waiting = false;
        self.awake = false;
    }

    /// True when the app plays `seat`.
    pub(super) fn is_bot(&self, seat: Seat) -> bool {
        self.slots.get(seat).is_some_and(|s| s.is_some())
    }

    /// True when the app plays some seat.
    pub(super) fn any(&self) -> bool {
        self.slots.iter().any(|s| s.is_some())
    }

    /// The level of the app at `seat`.
    pub(super) fn level(&self, seat: Seat) -> Option<Level> {
        self.slots
            .get(seat)
            .and_then(|s| s.as_ref())
            .map(|s| s.level)
    }

    /// True while an app seat thinks (or waits its pace).
    pub(super) fn thinking(&self) -> bool {
        self.waiting || self.slots.iter().flatten().any(|s| s.bot.is_none())
    }

    /// Tells every bot what its seat learned from the events it has not heard of yet.
    /// Only called while every bot is at home (none thinks).
    fn catch_up(&mut self, session: &Session<G>) {
        if session.events.len() < self.told {
            // Taken back: start the bots' memories over from the shorter log.
            self.rebuild(session);
        }
        for event in session.events.iter().skip(self.told) {
            for (bot_seat, slot) in self.slots.iter_mut().enumerate() {
                if let Some(bot) = slot.as_mut().and_then(|s| s.bot.as_mut()) {
                    bot.observe(&Told::new(event, bot_seat));
                }
            }
        }
        self.told = session.events.len();
    }

    /// What the platform should run now: a bot that is to act thinks (or, when `paced`,
    /// first waits its pace). `None` while one thinks or none is to act.
    pub(super) fn job(&mut self, session: &Session<G>, paced: bool) -> Option<Job> {
        if !self.any() || session.outcome().is_over() || self.thinking() {
            return None;
        }
        self.catch_up(session);
        let seat = session.to_act().into_iter().find(|s| self.is_bot(*s))?;
        let level = self.level(seat)?;
        if paced && !self.awake {
            self.waiting = true;
            let pace = omiga_bot::pace(level);
            let spread = pace.spread.as_millis() as u64;
            let jitter = if spread == 0 {
                0
            } else {
                rand::random_range(0..=2 * spread)
            };
            let ms = (pace.think.as_millis() as u64 + jitter).saturating_sub(spread);
            return Some(Job {
                token: self.token,
                kind: JobKind::Wait(Duration::from_millis(ms)),
            });
        }
        self.awake = false;
        let bot = self.slots.get_mut(seat)?.as_mut()?.bot.take()?;
        self.seed = self.seed.wrapping_add(0x9e37_79b9_7f4a_7c15);
        // The one way a bot is asked to decide: with its seat's view, never the game.
        let mut decision =
            background::Decision::new(bot, session.game.view(seat), rng_from_seed(self.seed));
        let (token, epoch, actions) = (self.token, self.epoch, session.actions().len());
        let last = session.actions().last().cloned();
        Some(Job {
            token,
            kind: JobKind::Think(Box::new(move || {
                let background::Step::Done(answer) = decision.step() else {
                    return None;
                };
                Some(Reply(Box::new(Answer::<G> {
                    token,
                    epoch,
                    seat,
                    actions,
                    last: last.clone(),
                    answer,
                })))
            })),
        })
    }

    /// Omiga: the pace of the waiting seat has passed.
    pub(super) fn wake(&mut self, token: u64) {
        if token == self.token && self.waiting {
            self.waiting = false;
            self.awake = true;
        }
    }

    /// Applies a bot's answer through `Session::act_remote`. `None` when the answer is
    /// stale (the match moved on meanwhile) or not for this match.
    pub(super) fn finish(&mut self, session: &mut Session<G>, reply: Reply) -> Option<Finished<G>> {
        let reply = reply.0.downcast::<Answer<G>>().ok()?;
        if reply.token != self.token {
            return None;
        }
        let Some((bot, action)) = reply.answer else {
            // The bot failed (a bug): play on with a fresh bot of the same level, told
            // the whole match again.
            self.rebuild(session);
            return Some(Finished::Stuck);
        };
        if reply.epoch != self.epoch {
            return None;
        }
        if let Some(slot) = self.slots.get_mut(reply.seat).and_then(|s| s.as_mut()) {
            slot.bot = Some(bot);
        }
        if session.actions().len() != reply.actions
            || session.actions().last() != reply.last.as_ref()
        {
            // Someone acted while it thought (Omiga): decide again from the new view.
            self.awake = true;
            return None;
        }
        let action = action?;
        match session.act_remote(reply.seat, &action) {
            Ok(event) => Some(Finished::Played(reply.seat, action, event)),
            Err(e) => {
                self.awake = true;
                Some(Finished::Refused(e))
            }
        }
    }
}
