//! The IOTA opponent. It knows its hand and the open grid; the other hands and the pile
//! order are dealt at random from the cards it has not seen (a determinization) when it
//! needs the rules or a look at the next player.
//!
//! - easy plays like a beginner: most often a single card, not always the best one;
//! - medium takes a wild when it can and the best score now;
//! - hard does too, then plays its best placements (and a pass) through one round in
//!   many sampled deals: what each leaves open to the others, what it keeps for its own
//!   next turn, the end of the game ([`HardSearch`]).

use super::sliced::{Plan, Search, Stop, Thinker};
use super::{Bot, Deadline, Level, Thought, Told};
use crate::games::iota::{Action, Card, Cell, Iota, IotaView};
use crate::games::{Game, Outcome, RuleError, RuleResult};
use crate::platform::time::{Duration, Instant};
use rand::seq::{IndexedRandom, SliceRandom};
use rand::Rng;
use rand_chacha::ChaCha8Rng;

/// How many of its best-scoring placements the hard level searches at two players
/// (passes come on top).
const HARD_CANDIDATES: usize = 8;
/// The same at three or four players: the placement that keeps the best hand for the
/// next turn (which counts for more there) is often not among the 8 best scores now.
const HARD_CANDIDATES_MANY: usize = 12;
/// Determinizations the hard level searches at two players when it has the time.
pub const HARD_SAMPLES: usize = 12;
/// Determinizations at three or four players. Two or three sampled hands reply in every deal,
/// so a deal says less than at two and more of them are needed; each costs about twice
/// as much as at two, and 24 (over 12 candidates) still end inside the deadline (issue
/// 21: about 220 ms of processor time per decision at four players).
pub const HARD_SAMPLES_MANY: usize = 24;
/// How much the points the other seats make in the round after a placement count
/// against it, relative to the bot's own points.
const OPPONENT_WEIGHT: f64 = 1.0;
/// How much the bot's own next turn counts at two players (it is one round away and
/// may not happen).
const NEXT_TURN_WEIGHT: f64 = 0.8;
/// The same at three or four players, where it counts for more than the points now: the
/// next turn stands for the rest of the game (a hand kept strong, a spot only it can
/// use), and with three seats moving in between, what the bot keeps is most of what it
/// controls. Tuned by self-play (docs/opponents.md).
const NEXT_TURN_WEIGHT_MANY: f64 = 1.3;

/// The hard level's candidates, deals and next-turn weight for `players` seats.
fn hard_budget(players: usize) -> (usize, usize, f64) {
    if players > 2 {
        (
            HARD_CANDIDATES_MANY,
            HARD_SAMPLES_MANY,
            NEXT_TURN_WEIGHT_MANY,
        )
    } else {
        (HARD_CANDIDATES, HARD_SAMPLES, NEXT_TURN_WEIGHT)
    }
}

/// Points that a game won (lost) within the searched round is worth beyond its score.
const OUTCOME_VALUE: f64 = 200.0;

/// An IOTA opponent.
#[derive(Debug, Clone)]
pub struct IotaBot {
    level: Level,
    limit: Option<Duration>,
    /// The hard search between two slices of a decision made with [`Bot::think`].
    thinker: Thinker<HardSearch>,
}

impl IotaBot {
    /// A new opponent at `level`, thinking at most `limit` per decision.
    pub fn new(level: Level, limit: Option<Duration>) -> IotaBot {
        IotaBot {
            level,
            limit,
            thinker: Thinker::new(),
        }
    }
}

/// A full state consistent with `view`: the cards the seat has not seen (the full deck
/// but the grid and its hand) dealt at random into the other hands (their sizes are
/// public) and the pile (its count is public).
pub fn sample_state(view: &IotaView, rng: &mut ChaCha8Rng) -> RuleResult<Iota> {
    let mut unseen = Card::full_deck();
    let remove = |card: Card, unseen: &mut Vec<Card>| -> RuleResult<()> {
        let at = unseen
            .iter()
            .position(|&c| c == card)
            .ok_or_else(|| RuleError::new(format!("{card} is seen twice")))?;
        unseen.swap_remove(at);
        Ok(())
    };
    for g in &view.grid {
        remove(g.card, &mut unseen)?;
    }
    for &card in &view.hand {
        remove(card, &mut unseen)?;
    }
    unseen.sort();
    unseen.shuffle(rng);
    let mut next = unseen.into_iter();
    let mut hands = Vec::with_capacity(view.players);
    for seat in 0..view.players {
        if seat == view.seat {
            hands.push(list(view.hand.iter().copied()));
        } else {
            let n = view.hand_sizes.get(seat).copied().unwrap_or(0);
            let cards: Vec<Card> = next.by_ref().take(n).collect();
            if cards.len() != n {
                return Err(RuleError::new("too few unseen cards for the hands"));
            }
            hands.push(list(cards));
        }
    }
    let pile: Vec<Card> = next.by_ref().take(view.pile_count).collect();
    if pile.len() != view.pile_count {
        return Err(RuleError::new("too few unseen cards for the pile"));
    }
    let grid: Vec<String> = view
        .grid
        .iter()
        .map(|g| format!("{}:{}", g.cell, g.card))
        .collect();
    let scores: Vec<String> = view.scores.iter().map(|s| s.to_string()).collect();
    let mut line = format!(
        "players={} turn={} grid={} hands={} pile={} scores={}",
        view.players,
        view.turn,
        grid.join(";"),
        hands.join("|"),
        list(pile),
        scores.join(",")
    );
    if view.passes > 0 {
        line.push_str(&format!(" passes={}", view.passes));
    }
    Iota::from_position(&line)
}

fn list(cards: impl IntoIterator<Item = Card>) -> String {
    cards
        .into_iter()
        .map(|c| c.to_string())
        .collect::<Vec<_>>()
        .join(",")
}

/// Placements with their score now, best first (ties in the canonical order).
fn scored(game: &Iota, seat: usize) -> Vec<(Vec<(Card, Cell)>, u32)> {
    let mut all: Vec<(Vec<(Card, Cell)>, u32)> = game
        .legal_placements(seat)
        .into_iter()
        .filter_map(|p| game.check_placement(seat, &p).ok().map(|s| (p, s)))
        .collect();
    all.sort_by_key(|p| std::cmp::Reverse(p.1));
    all
}

/// The pass of a player with nothing to place: every card but wilds goes back.
fn pass_keeping_wilds(view: &IotaView) -> Action {
    Action::Pass(view.hand.iter().copied().filter(|c| !c.is_wild()).collect())
}

impl IotaBot {
    /// Everything before the search: a sampled state for the legal actions, the easy,
    /// medium and random answers, and for hard the search over its candidates.
    fn plan(&self, view: &IotaView, rng: &mut ChaCha8Rng) -> Plan<Action, HardSearch> {
        let me = view.seat;
        let Ok(state) = sample_state(view, rng) else {
            return Plan::Decided(None);
        };
        let legal = state.legal_actions(me);
        if self.level == Level::Random {
            return Plan::Decided(legal.choose(rng).cloned());
        }
        if self.level >= Level::Medium {
            if let Some(swap) = legal.iter().find(|a| matches!(a, Action::Swap { .. })) {
                return Plan::Decided(Some(swap.clone()));
            }
        }
        let placements = scored(&state, me);
        if placements.is_empty() {
            return Plan::Decided(Some(match self.level {
                Level::Easy => Action::Pass(Vec::new()),
                _ => pass_keeping_wilds(view),
            }));
        }
        Plan::Decided(match self.level {
            Level::Random => None,
            Level::Easy => {
                let singles: Vec<&(Vec<(Card, Cell)>, u32)> =
                    placements.iter().filter(|(p, _)| p.len() == 1).collect();
                let pick = if !singles.is_empty() && rng.random_bool(0.7) {
                    // A beginner sees a good spot for one card, not always the best.
                    let top = singles.len().min(3);
                    singles
                        .get(rng.random_range(0..top))
                        .map(|(p, _)| p.clone())
                } else {
                    placements.choose(rng).map(|(p, _)| p.clone())
                };
                pick.map(Action::Place)
            }
            Level::Medium => placements.first().map(|(p, _)| Action::Place(p.clone())),
            Level::Hard => match HardSearch::new(view, placements) {
                Some(search) => return Plan::Search(Box::new(search)),
                None => None,
            },
        })
    }

    /// Candidate play-outs in the current (or last) decision: what a slice of thinking
    /// did, counted rather than timed.
    pub fn play_outs(&self) -> usize {
        self.thinker.play_outs()
    }
}

/// The hard level's search, resumable after every candidate: each deal is one more
/// determinization of the unknown cards, in which every candidate is played through one
/// round (each other seat's best placement in turn, then the bot's own best next
/// turn). A candidate's value is the bot's lead over the best other seat after that
/// round: its points, most of its next turn, less what it gave the others (a line left
/// one card from a lot, a doubled line), with a bonus or penalty when the game ends
/// within the round. The same deal serves every candidate, so they are compared on
/// equal luck, and a deal counts only once every candidate was played out in it.
///
/// [`HardSearch::play_out`] plays one candidate (dealing first when no deal is open) and
/// keeps the values of an unfinished deal, so a caller that thinks in slices (an event
/// loop: [`Bot::think`]) can stop after any candidate and go on in its next slice; a
/// deal finished across slices counts exactly as one finished at once.
/// [`HardSearch::step`] finishes a deal under a deadline. A caller runs until
/// [`HARD_SAMPLES`] (at more players [`HARD_SAMPLES_MANY`]) deals or its deadline and
/// takes [`HardSearch::best`].
#[derive(Debug, Clone)]
pub struct HardSearch {
    view: IotaView,
    candidates: Vec<(Action, u32)>,
    totals: Vec<f64>,
    samples: usize,
    /// The deal being searched and the values of the candidates played out in it so far
    /// (in candidate order); `None` between deals.
    open: Option<(Iota, Vec<f64>)>,
    /// Candidate play-outs so far.
    play_outs: usize,
    /// The longest one candidate's play-out took (with the dealing, for the first of a
    /// deal).
    longest: Duration,
}

impl HardSearch {
    /// A search over `view`'s best placements (`placements`, scored, best first) and,
    /// while the pile has cards, a pass returning every card but wilds; `None` when there
    /// is nothing to choose between.
    pub fn new(view: &IotaView, placements: Vec<(Vec<(Card, Cell)>, u32)>) -> Option<Self> {
        let mut candidates: Vec<(Action, u32)> = placements
            .into_iter()
            .take(hard_budget(view.players).0)
            .map(|(p, s)| (Action::Place(p), s))
            .collect();
        let pass = pass_keeping_wilds(view);
        if view.pile_count > 0 && matches!(&pass, Action::Pass(r) if !r.is_empty()) {
            candidates.push((pass, 0));
        }
        if candidates.is_empty() {
            return None;
        }
        Some(HardSearch {
            view: view.clone(),
            totals: vec![0.0; candidates.len()],
            candidates,
            samples: 0,
            open: None,
            play_outs: 0,
            longest: Duration::ZERO,
        })
    }

    /// Deals searched to the end so far.
    pub fn samples(&self) -> usize {
        self.samples
    }

    /// Plays the next candidate out in the open deal, dealing one first when none is
    /// open; `Ok(true)` when that finished the deal (it now counts in
    /// [`HardSearch::samples`] and [`HardSearch::best`]), an error when no deal fits the
    /// view. A play-out takes a few milliseconds (more in the browser).
    pub fn play_out(&mut self, rng: &mut ChaCha8Rng) -> RuleResult<bool> {
        // Timed with the dealing: the first play-out of a deal is the longest, and the
        // longest predicts whether the next fits in a slice or before the deadline.
        let started = Instant::now();
        let (deal, mut values) = match self.open.take() {
            Some(open) => open,
            None => (
                sample_state(&self.view, rng)?,
                Vec::with_capacity(self.candidates.len()),
            ),
        };
        let Some((action, now)) = self.candidates.get(values.len()) else {
            // Cannot happen (a full deal is counted and closed below); close it anyway.
            return Ok(false);
        };
        values.push(round_value(
            deal.clone(),
            self.view.seat,
            action,
            *now,
            &self.view.scores,
            hard_budget(self.view.players).2,
        ));
        self.longest = self.longest.max(started.elapsed());
        self.play_outs += 1;
        if values.len() < self.candidates.len() {
            self.open = Some((deal, values));
            return Ok(false);
        }
        for (total, v) in self.totals.iter_mut().zip(values) {
            *total += v;
        }
        self.samples += 1;
        Ok(true)
    }

    /// Finishes the open deal (or searches a new one) candidate by candidate, unless
    /// `deadline` comes first; `Ok(false)` when it stopped (an unfinished deal is not
    /// counted, so every candidate is valued on the same deals; it stays open for the
    /// next call), an error when no deal fits the view. The longest play-out so far
    /// predicts the next.
    pub fn step(&mut self, rng: &mut ChaCha8Rng, deadline: &Deadline) -> RuleResult<bool> {
        loop {
            // Even the first deal may be cut: with none searched, `best` is the highest
            // score now (medium's choice), which beats overrunning the deadline.
            if !deadline.fits(self.longest) {
                return Ok(false);
            }
            if self.play_out(rng)? {
                return Ok(true);
            }
        }
    }
}

impl Search for HardSearch {
    type Action = Action;

    /// Plays out candidates until the budget of deals is searched, or the level's
    /// `deadline` or the `slice` would be overrun (both predicted by the longest
    /// play-out so far, so neither is overrun by more than a misjudged play-out). Each
    /// call plays out at least one candidate (unless the deadline or the budget says
    /// stop), so that a decision advances however short the slices.
    fn advance(&mut self, rng: &mut ChaCha8Rng, deadline: &Deadline, slice: &Deadline) -> Stop {
        let mut progressed = false;
        let (_, samples, _) = hard_budget(self.view.players);
        loop {
            if self.samples() >= samples {
                return Stop::Finished;
            }
            if !deadline.fits(self.longest) {
                return Stop::Cut;
            }
            if progressed && !slice.fits(self.longest) {
                return Stop::Paused;
            }
            match self.play_out(rng) {
                Ok(_) => progressed = true,
                // A view no deal fits: answer with what was searched.
                Err(_) => return Stop::Finished,
            }
        }
    }

    /// The best candidate so far (before any step: the highest score now).
    fn best(&self) -> Option<Action> {
        let mut best: Option<(f64, &Action)> = None;
        for ((action, now), total) in self.candidates.iter().zip(&self.totals) {
            let value = if self.samples == 0 {
                f64::from(*now)
            } else {
                total / self.samples as f64
            };
            if best.is_none_or(|(v, _)| value > v) {
                best = Some((value, action));
            }
        }
        best.map(|(_, a)| a.clone())
    }

    /// Candidate play-outs so far, in finished and unfinished deals.
    fn play_outs(&self) -> usize {
        self.play_outs
    }
}

/// The best placement of `seat` now and its score, or `None`.
fn best_placement(game: &Iota, seat: usize) -> Option<(Vec<(Card, Cell)>, u32)> {
    let mut best: Option<(Vec<(Card, Cell)>, u32)> = None;
    for p in game.legal_placements(seat) {
        if let Ok(s) = game.check_placement(seat, &p) {
            if best.as_ref().is_none_or(|(_, b)| s > *b) {
                best = Some((p, s));
            }
        }
    }
    best
}

/// Plays `first` for `me` in `game` (a determinization), then one round of greedy play
/// (as medium plays, the strongest simple model of a reply), and values it for `me`:
/// its lead over the best other seat after the round (at two players, its points minus
/// the other's; at more, what counts for finishing first is the leader, not the mean).
/// `next_turn` is the weight of the bot's own next turn.
fn round_value(
    mut game: Iota,
    me: usize,
    first: &Action,
    now: u32,
    scores: &[i64],
    next_turn: f64,
) -> f64 {
    if game.apply(me, first).is_err() {
        return f64::NEG_INFINITY;
    }
    let mut totals: Vec<f64> = scores.iter().map(|&s| s as f64).collect();
    if let Some(t) = totals.get_mut(me) {
        *t += f64::from(now);
    }
    while !game.outcome().is_over() {
        let seat = game.turn();
        let hand = game.hand(seat).to_vec();
        let (action, points) = match best_placement(&game, seat) {
            Some((p, s)) => (Action::Place(p), s),
            None => (
                Action::Pass(hand.into_iter().filter(|c| !c.is_wild()).collect()),
                0,
            ),
        };
        if game.apply(seat, &action).is_err() {
            break;
        }
        let weight = if seat == me {
            next_turn
        } else {
            OPPONENT_WEIGHT
        };
        if let Some(t) = totals.get_mut(seat) {
            *t += weight * f64::from(points);
        }
        if seat == me {
            break;
        }
    }
    let ending = match game.outcome() {
        Outcome::Win { seat } if seat == me => OUTCOME_VALUE,
        Outcome::Win { .. } => -OUTCOME_VALUE,
        Outcome::SharedWin { seats } if !seats.contains(&me) => -OUTCOME_VALUE,
        _ => 0.0,
    };
    let mine = totals.get(me).copied().unwrap_or(0.0);
    let leader = totals
        .iter()
        .enumerate()
        .filter(|&(s, _)| s != me)
        .map(|(_, &t)| t)
        .fold(f64::NEG_INFINITY, f64::max);
    mine - if leader.is_finite() { leader } else { 0.0 } + ending
}

impl Bot<Iota> for IotaBot {
    fn choose(&mut self, view: &IotaView, rng: &mut ChaCha8Rng) -> Option<Action> {
        self.thinker.start();
        if view.outcome.is_over() || view.turn != view.seat {
            return None;
        }
        let deadline = Deadline::after(self.limit);
        let plan = self.plan(view, rng);
        self.thinker.at_once(plan, rng, &deadline)
    }

    /// The hard level's search kept between calls, so that the browser's page stays
    /// responsive (issue 17): the first call deals and scores the candidates, each later
    /// one plays out at least one candidate and more while the slice lasts. For the same
    /// view and seed the answer is [`Bot::choose`]'s when no deadline cuts either.
    fn think(&mut self, view: &IotaView, rng: &mut ChaCha8Rng, slice: Duration) -> Thought<Action> {
        let started = Instant::now();
        if let Some(thought) = self
            .thinker
            .resume(rng, slice, started, |s| s.view == *view)
        {
            return thought;
        }
        self.thinker.start();
        if view.outcome.is_over() || view.turn != view.seat {
            return Thought::Decided(None);
        }
        let plan = self.plan(view, rng);
        self.thinker.first_slice(plan, rng, self.limit, started)
    }

    fn observe(&mut self, _told: &Told<Iota>) {
        // Everything an IOTA bot uses is in its view: the grid, its hand, the counts.
    }

    fn hit_deadline(&self) -> bool {
        self.thinker.hit_deadline()
    }
}
