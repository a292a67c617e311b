//! The Ovo opponent: a memory of the hidden eggs that fades with the level, a
//! determinized search that samples the owners it does not know, and a vote.
//!
//! Every hidden egg was once visible and every move is public, so a perfect memory would
//! know every owner; people forget, and so do these bots (per turn, each remembered
//! owner is forgotten with a level's probability). What is forgotten is sampled: each
//! determinization gives the unknown hidden eggs owners consistent with what the seat
//! still knows (egg counts, visible eggs, its own peeks, flips it watched). Each
//! determinization is searched (hard: its best moves through a whole round), and the
//! best move of each casts a vote. It declares "Ovo!" only when its memory is sure.

mod evaluate;
mod memory;
mod search;

use evaluate::{camp_of, dist, evaluate, moves, Geometry};
use memory::sample_state;
pub use memory::{Belief, Memory};
use search::{most_voted, RoundSearch};

use super::sliced::{Plan, Thinker};
use super::{Bot, Deadline, Level, Thought, Told};
use crate::games::ovo::Cell;
use crate::games::ovo::{eggs_per_seat, Happened, Ovo, OvoAction, OvoView, Symbol};
use crate::games::Game;
use crate::platform::time::{Duration, Instant};
use rand::seq::IndexedRandom;
use rand::Rng;
use rand_chacha::ChaCha8Rng;

/// How a level plays Ovo.
#[derive(Debug, Clone, Copy)]
struct Style {
    /// Chance per own turn of forgetting each remembered hidden owner.
    forget: f64,
    /// Determinizations searched (each votes).
    samples: usize,
    /// Look a whole round ahead ([`RoundSearch`]) instead of one ply.
    round: bool,
    /// Chance of a careless random move.
    careless: f64,
    /// Noise added to each evaluation.
    noise: f64,
}

fn style(level: Level) -> Style {
    match level {
        Level::Random => Style {
            forget: 1.0,
            samples: 1,
            round: false,
            careless: 1.0,
            noise: 0.0,
        },
        Level::Easy => Style {
            forget: 0.04,
            samples: 1,
            round: false,
            careless: 0.25,
            noise: 1.5,
        },
        Level::Medium => Style {
            forget: 0.02,
            samples: 4,
            round: false,
            careless: 0.0,
            noise: 0.3,
        },
        Level::Hard => Style {
            forget: 0.005,
            samples: 6,
            round: true,
            careless: 0.0,
            noise: 0.0,
        },
    }
}

/// An Ovo opponent.
#[derive(Debug, Clone)]
pub struct OvoBot {
    level: Level,
    limit: Option<Duration>,
    memory: Option<Memory>,
    /// The hard search between two slices of a decision made with [`Bot::think`], and
    /// the rounds played through in the current (or last) decision.
    thinker: Thinker<RoundSearch>,
}

impl OvoBot {
    /// A new opponent at `level`, thinking at most `limit` per decision.
    pub fn new(level: Level, limit: Option<Duration>) -> OvoBot {
        OvoBot {
            level,
            limit,
            memory: None,
            thinker: Thinker::new(),
        }
    }

    /// What the bot remembers now (for tests and the curious).
    pub fn memory(&self) -> Option<&Memory> {
        self.memory.as_ref()
    }

    /// Rounds played through in the current (or last) decision: what a slice of
    /// thinking did, counted rather than timed.
    pub fn play_outs(&self) -> usize {
        self.thinker.play_outs()
    }

    /// Brings the memory up to `view` and lets it fade, once per decision.
    fn remember(&mut self, view: &OvoView, rng: &mut ChaCha8Rng) {
        let memory = self.memory.get_or_insert_with(|| Memory::from_view(view));
        memory.reconcile(view);
        memory.fade(style(self.level).forget, rng);
    }
}

impl OvoBot {
    /// The decision, once the memory is up to date: an answer, or for hard the round
    /// search to run ([`RoundSearch`]).
    fn decide(
        &mut self,
        view: &OvoView,
        rng: &mut ChaCha8Rng,
        deadline: &Deadline,
    ) -> Plan<OvoAction, RoundSearch> {
        match self.decide_or_search(view, rng, deadline) {
            Ok(search) => Plan::Search(Box::new(search)),
            Err(action) => Plan::Decided(action),
        }
    }

    /// [`OvoBot::decide`], with `Err` carrying an answer found before any round search
    /// (so that `?` ends the decision where the old one-call code returned).
    fn decide_or_search(
        &mut self,
        view: &OvoView,
        rng: &mut ChaCha8Rng,
        deadline: &Deadline,
    ) -> Result<RoundSearch, Option<OvoAction>> {
        let me = view.seat;
        let st = style(self.level);
        let memory = self.memory.clone().ok_or(None)?;
        let first = sample_state(view, &memory, rng).map_err(|_| None)?;
        let legal = first.legal_actions(me);
        if legal.is_empty() {
            return Err(None);
        }
        let plain: Vec<OvoAction> = legal.iter().filter(|a| !a.declares()).cloned().collect();
        if self.level == Level::Random || rng.random_bool(st.careless) {
            return Err(plain.choose(rng).cloned());
        }
        if memory.sure_home(me) {
            return Err(Some(OvoAction::Ovo));
        }
        let candidates = moves(legal);
        for m in &candidates {
            if memory.after(m).sure_home(me) {
                return Err(Some(m.with_ovo()));
            }
        }
        if let Some(peek) = self.peek_worth_it(view, &memory, rng) {
            return Err(Some(peek));
        }
        if candidates.is_empty() {
            return Err(plain.first().cloned());
        }
        let geo = Geometry::new(view.players);
        // With every hidden owner remembered, all determinizations are the same one.
        let samples = if Cell::all().any(|c| memory.get(c) == Belief::Hidden(None)) {
            st.samples
        } else {
            1
        };
        if st.round {
            return Ok(RoundSearch::new(
                view, memory, geo, first, candidates, samples,
            ));
        }
        let mut votes = vec![0usize; candidates.len()];
        let mut sums = vec![0.0f64; candidates.len()];
        for d in 0..samples {
            if d > 0 && deadline.passed() {
                self.thinker.cut();
                break;
            }
            let state = if d == 0 {
                first.clone()
            } else {
                match sample_state(view, &memory, rng) {
                    Ok(s) => s,
                    Err(_) => break,
                }
            };
            let mut best: Option<(usize, f64)> = None;
            for (i, m) in candidates.iter().enumerate() {
                if deadline.passed() && best.is_some() {
                    self.thinker.cut();
                    break;
                }
                let mut after = state.clone();
                if after.apply(me, m).is_err() {
                    continue;
                }
                let mut value = evaluate(&after, me, &geo);
                if st.noise > 0.0 {
                    value += rng.random_range(-st.noise..=st.noise);
                }
                sums[i] += value;
                if best.is_none_or(|(_, v)| value > v) {
                    best = Some((i, value));
                }
            }
            if let Some((i, _)) = best {
                votes[i] += 1;
            }
        }
        Err(most_voted(&votes, &sums).and_then(|i| candidates.get(i).cloned()))
    }

    /// A peek when the bot has lost track of its own eggs and it matters: an unknown
    /// hidden egg on its camp, or, once all its eggs are hidden, the unknown one
    /// nearest home.
    fn peek_worth_it(
        &self,
        view: &OvoView,
        memory: &Memory,
        rng: &mut ChaCha8Rng,
    ) -> Option<OvoAction> {
        let me = view.seat;
        let players = view.players;
        let unknown: Vec<Cell> = Cell::all()
            .filter(|&c| memory.get(c) == Belief::Hidden(None))
            .collect();
        if unknown.is_empty() {
            return None;
        }
        let known_mine = Cell::all()
            .filter(|&c| memory.get(c) == Belief::Hidden(Some(me)))
            .count();
        let visible_mine = Cell::all()
            .filter(|&c| memory.get(c) == Belief::Visible(me))
            .count();
        if known_mine + visible_mine >= eggs_per_seat(players) {
            return None;
        }
        let home = camp_of(players, me);
        if let Some(&cell) = unknown.iter().find(|&&c| home.contains(&c)) {
            if self.level != Level::Easy || rng.random_bool(0.5) {
                return Some(OvoAction::Peek { cell, ovo: false });
            }
        }
        if visible_mine == 0 {
            let cell = unknown
                .iter()
                .min_by_key(|&&c| home.iter().map(|&h| dist(c, h)).min().unwrap_or(0))?;
            return Some(OvoAction::Peek {
                cell: *cell,
                ovo: false,
            });
        }
        None
    }
}

impl Bot<Ovo> for OvoBot {
    fn choose(&mut self, view: &OvoView, rng: &mut ChaCha8Rng) -> Option<OvoAction> {
        self.thinker.start();
        if view.outcome.is_over() || view.turn != view.seat {
            return None;
        }
        let deadline = Deadline::after(self.limit);
        self.remember(view, rng);
        let plan = self.decide(view, rng, &deadline);
        self.thinker.at_once(plan, rng, &deadline)
    }

    /// The hard level's round search kept between calls (a 4-player decision is a few
    /// frames of work natively and more in the browser, issue 17): the first call
    /// prepares it, each later one does at least one piece and more while the slice
    /// lasts. For the same view, memory and seed the answer is [`Bot::choose`]'s when no
    /// deadline cuts either.
    fn think(
        &mut self,
        view: &OvoView,
        rng: &mut ChaCha8Rng,
        slice: Duration,
    ) -> Thought<OvoAction> {
        let started = Instant::now();
        let memory = self.memory.as_ref();
        let same = |s: &RoundSearch| s.view == *view && memory == Some(&s.memory);
        if let Some(thought) = self.thinker.resume(rng, slice, started, same) {
            return thought;
        }
        self.thinker.start();
        if view.outcome.is_over() || view.turn != view.seat {
            return Thought::Decided(None);
        }
        let deadline = Deadline::after(self.limit);
        self.remember(view, rng);
        let plan = self.decide(view, rng, &deadline);
        self.thinker.first_slice(plan, rng, self.limit, started)
    }

    fn observe(&mut self, told: &Told<Ovo>) {
        let Some(memory) = self.memory.as_mut() else {
            return;
        };
        let event = told.event();
        match &event.happened {
            Happened::Moved {
                from,
                landings,
                flipped,
                ..
            } => {
                if let Some(&to) = landings.last() {
                    memory.follow(*from, to, *flipped);
                }
            }
            Happened::Peeked {
                cell,
                symbol: Some(symbol),
            } => {
                let owner = (0..memory.players)
                    .find(|&s| Symbol::of_seat(memory.players, s) == Some(*symbol));
                memory.cells[cell.index()] = Belief::Hidden(owner);
            }
            Happened::Peeked { .. } | Happened::Passed | Happened::Nothing => {}
        }
        if let Some(d) = &event.declaration {
            for cell in &d.removed {
                memory.cells[cell.index()] = Belief::Empty;
            }
        }
    }

    fn hit_deadline(&self) -> bool {
        self.thinker.hit_deadline()
    }
}
