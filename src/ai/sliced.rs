//! What the hard bots share to think in slices ([`Bot::think`](super::Bot::think)): a
//! decision is either made at once or becomes a search kept between calls, so that the
//! browser's page, which has no threads, draws its frames and answers taps in between.
//! IOTA's and Ovo's hard levels search differently; how they keep, resume and end a
//! search is the same and lives here once.

use super::{Budget, Deadline, Thought};
use crate::platform::time::{Duration, Instant};
use rand_chacha::ChaCha8Rng;

/// What a decision comes to before any search: an answer, or the search to run.
pub(crate) enum Plan<A, S> {
    /// Decided without a search.
    Decided(Option<A>),
    /// The search, not yet run.
    Search(Box<S>),
}

/// Where a slice of a kept search stopped.
pub(crate) enum Stop {
    /// Everything searched (or nothing to search): answer now.
    Finished,
    /// The level's deadline came first: answer with what was searched.
    Cut,
    /// The slice is used up: the search goes on in the next call.
    Paused,
}

/// A search a hard level runs, in pieces that a slice may stop between.
pub(crate) trait Search {
    type Action;
    /// Works on until everything is searched, the level's `deadline` passes or the
    /// `slice` is used up (after at least one piece, so that a decision advances however
    /// short the slices).
    fn advance(&mut self, rng: &mut ChaCha8Rng, deadline: &Deadline, slice: &Deadline) -> Stop;
    /// The answer from what was searched so far.
    fn best(&self) -> Option<Self::Action>;
    /// Pieces of work done so far, counted rather than timed.
    fn play_outs(&self) -> usize;
}

/// A hard bot's thinking: the search it keeps between two [`Bot::think`](super::Bot::think)
/// calls, and what its last decision did.
#[derive(Debug, Clone)]
pub(crate) struct Thinker<S> {
    kept: Option<Box<Kept<S>>>,
    hit_deadline: bool,
    play_outs: usize,
}

/// A search between two slices.
#[derive(Debug, Clone)]
struct Kept<S> {
    /// The random source as this decision left it: a call with a source in another state
    /// (a caller that dropped this decision and started a new one on the same view)
    /// starts afresh, so that an answer depends only on the view, the bot's memory and
    /// the seed.
    rng: ChaCha8Rng,
    /// The level's time limit, counted in thinking time from the decision's first slice.
    budget: Budget,
    search: S,
}

impl<S: Search> Thinker<S> {
    pub fn new() -> Self {
        Thinker {
            kept: None,
            hit_deadline: false,
            play_outs: 0,
        }
    }

    /// Starts a new decision: whatever was kept is dropped.
    pub fn start(&mut self) {
        self.kept = None;
        self.hit_deadline = false;
        self.play_outs = 0;
    }

    /// Says that the level's deadline cut the decision short while it was planned.
    pub fn cut(&mut self) {
        self.hit_deadline = true;
    }

    /// Whether the last decision was cut short by the level's deadline.
    pub fn hit_deadline(&self) -> bool {
        self.hit_deadline
    }

    /// Pieces of search in the current (or last) decision.
    pub fn play_outs(&self) -> usize {
        self.play_outs
    }

    /// Decides in one call: the plan's search runs as one slice as long as the whole
    /// decision, so that the answer is the sliced one's when no deadline cuts either.
    pub fn at_once(
        &mut self,
        plan: Plan<S::Action, S>,
        rng: &mut ChaCha8Rng,
        deadline: &Deadline,
    ) -> Option<S::Action> {
        let mut search = match plan {
            Plan::Decided(action) => return action,
            Plan::Search(search) => search,
        };
        let stop = search.advance(rng, deadline, &Deadline::after(None));
        self.hit_deadline = matches!(stop, Stop::Cut);
        self.play_outs = search.play_outs();
        search.best()
    }

    /// One more slice of the kept decision, if `same` says it was made for this call's
    /// view and `rng` is as it left it; `None` (the kept search dropped) otherwise.
    pub fn resume(
        &mut self,
        rng: &mut ChaCha8Rng,
        slice: Duration,
        started: Instant,
        same: impl FnOnce(&S) -> bool,
    ) -> Option<Thought<S::Action>> {
        let slice_end = Deadline::after(Some(slice));
        let mut kept = self
            .kept
            .take()
            .filter(|k| k.rng == *rng && same(&k.search))?;
        let stop = kept
            .search
            .advance(rng, &kept.budget.deadline(), &slice_end);
        self.play_outs = kept.search.play_outs();
        kept.budget.spend_since(started);
        Some(match stop {
            Stop::Paused => {
                kept.rng = rng.clone();
                self.kept = Some(kept);
                Thought::Thinking
            }
            Stop::Finished | Stop::Cut => {
                self.hit_deadline = matches!(stop, Stop::Cut);
                Thought::Decided(kept.search.best())
            }
        })
    }

    /// The first slice of a decision that began at `started`, under the level's
    /// `limit`: a plan's search is kept for the next call and not run yet, as nothing
    /// tells yet how long a piece of it takes and planning may have used the slice.
    pub fn first_slice(
        &mut self,
        plan: Plan<S::Action, S>,
        rng: &ChaCha8Rng,
        limit: Option<Duration>,
        started: Instant,
    ) -> Thought<S::Action> {
        match plan {
            Plan::Decided(action) => Thought::Decided(action),
            Plan::Search(search) => {
                let mut budget = Budget::new(limit);
                budget.spend_since(started);
                self.kept = Some(Box::new(Kept {
                    rng: rng.clone(),
                    budget,
                    search: *search,
                }));
                Thought::Thinking
            }
        }
    }
}
