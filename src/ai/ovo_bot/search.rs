//! The hard bot's round search: each determinization searched through a whole round of
//! moves, in slices that a deadline may cut, each casting a vote for its best move.

use super::evaluate::{evaluate, moves, standing, value_of, Geometry, WIN};
use super::memory::{sample_state, Memory};
use crate::ai::sliced::{Search, Stop};
use crate::ai::Deadline;
use crate::games::ovo::{Ovo, OvoAction, OvoView};
use crate::games::{Game, Seat};
use crate::platform::time::{Duration, Instant};
use rand_chacha::ChaCha8Rng;

/// How many of its moves (the best by a one-ply look) the hard level plays through a
/// whole round. Tuned by self-play against three mediums (untimed, seed 11): the best 8,
/// 38 % of 40 games won; 12, 65 % of 60 (15 ms of processor a decision); 16, 68 % of 60
/// (22 ms). At two players 12 won 97 of 100 against medium in 7 ms, where the previous
/// search (every move and the next seat's reply) won 95 in 20 ms.
const ROUND_MOVES: usize = 12;

/// The hard level's search: in each determinization its best moves by a one-ply look
/// ([`ROUND_MOVES`] of them, in that order, so that a deadline cuts the least promising)
/// are each played through a whole round ([`round_value`]), and each determinization
/// votes for its best. At four players the next seat's reply, all the previous search
/// saw, is a third of what happens before the bot's next turn.
///
/// Resumable after every piece of work (dealing a determinization with its one-ply
/// look, or one candidate's round), so that [`Bot::think`] can stop between two and go
/// on in its next slice; run to the end in one call it is [`Bot::choose`]'s search.
#[derive(Debug, Clone)]
pub(super) struct RoundSearch {
    pub(super) view: OvoView,
    /// The memory the determinizations are sampled from (after this turn's fading).
    pub(super) memory: Memory,
    geo: Geometry,
    candidates: Vec<OvoAction>,
    /// Determinizations to search.
    samples: usize,
    /// The first determinization (sampled before the search, for the legal moves).
    first: Option<Ovo>,
    /// Determinizations dealt so far.
    dealt: usize,
    votes: Vec<usize>,
    sums: Vec<f64>,
    /// The determinization being searched.
    open: Option<Open>,
    /// Rounds played so far.
    pub(super) play_outs: usize,
    /// The longest piece of work so far: it predicts whether the next fits in a slice.
    longest: Duration,
}

/// A determinization part searched.
#[derive(Debug, Clone)]
struct Open {
    /// The candidates still to play through a round, with the position after each (the
    /// next one last).
    queue: Vec<(usize, Ovo)>,
    /// The best candidate so far and its value: this determinization's vote.
    best: Option<(usize, f64)>,
}

/// What one piece of [`RoundSearch`] work came to.
enum Work {
    /// Done; there is more.
    Did,
    /// Every determinization searched (or none more fits the memory): answer now.
    Finished,
    /// The deadline passed: answer with the votes so far.
    Cut,
}

impl RoundSearch {
    pub(super) fn new(
        view: &OvoView,
        memory: Memory,
        geo: Geometry,
        first: Ovo,
        candidates: Vec<OvoAction>,
        samples: usize,
    ) -> RoundSearch {
        RoundSearch {
            view: view.clone(),
            memory,
            geo,
            votes: vec![0; candidates.len()],
            sums: vec![0.0; candidates.len()],
            candidates,
            samples,
            first: Some(first),
            dealt: 0,
            open: None,
            play_outs: 0,
            longest: Duration::ZERO,
        }
    }

    fn finished(&self) -> bool {
        self.open.is_none() && self.dealt >= self.samples
    }

    /// The open determinization's vote, and it is closed.
    fn close(&mut self) {
        if let Some(Open {
            best: Some((i, _)), ..
        }) = self.open.take()
        {
            if let Some(v) = self.votes.get_mut(i) {
                *v += 1;
            }
        }
    }

    /// One piece of work: deal the next determinization and rank its moves by a
    /// one-ply look, or play the next of its candidates through a round.
    fn work(&mut self, rng: &mut ChaCha8Rng, deadline: &Deadline) -> Work {
        let me = self.view.seat;
        let started = Instant::now();
        match self.open.as_mut() {
            None => {
                if self.dealt >= self.samples {
                    return Work::Finished;
                }
                if self.dealt > 0 && deadline.passed() {
                    return Work::Cut;
                }
                let state = match self.first.take() {
                    Some(first) => first,
                    None => match sample_state(&self.view, &self.memory, rng) {
                        Ok(s) => s,
                        Err(_) => return Work::Finished,
                    },
                };
                let mut shallow: Vec<(usize, f64, Ovo)> = Vec::with_capacity(self.candidates.len());
                for (i, m) in self.candidates.iter().enumerate() {
                    let mut after = state.clone();
                    if after.apply(me, m).is_ok() {
                        shallow.push((i, evaluate(&after, me, &self.geo), after));
                    }
                }
                shallow.sort_by(|a, b| b.1.total_cmp(&a.1).then(a.0.cmp(&b.0)));
                let mut queue: Vec<(usize, Ovo)> = shallow
                    .into_iter()
                    .take(ROUND_MOVES)
                    .map(|(i, _, after)| (i, after))
                    .collect();
                // Played from the back: the best by the one-ply look first.
                queue.reverse();
                self.dealt += 1;
                self.open = Some(Open { queue, best: None });
            }
            Some(Open { queue, best }) => {
                if deadline.passed() && best.is_some() {
                    self.close();
                    return Work::Cut;
                }
                if let Some((i, after)) = queue.pop() {
                    let v = round_value(&after, me, &self.geo);
                    if let Some(sum) = self.sums.get_mut(i) {
                        *sum += v;
                    }
                    if best.is_none_or(|(_, b)| v > b) {
                        *best = Some((i, v));
                    }
                    self.play_outs += 1;
                }
            }
        }
        if self.open.as_ref().is_some_and(|o| o.queue.is_empty()) {
            self.close();
        }
        self.longest = self.longest.max(started.elapsed());
        Work::Did
    }
}

impl Search for RoundSearch {
    type Action = OvoAction;

    /// Works until the search is finished, the `deadline` passes (as the one-call
    /// search always did: checked before each piece, a determinization cut short
    /// still votes) or the next piece would overrun the `slice` (predicted by the
    /// longest so far). Each call does at least one piece, so that a decision advances
    /// however short the slices.
    fn advance(&mut self, rng: &mut ChaCha8Rng, deadline: &Deadline, slice: &Deadline) -> Stop {
        let mut progressed = false;
        loop {
            if self.finished() {
                return Stop::Finished;
            }
            if progressed && !slice.fits(self.longest) {
                return Stop::Paused;
            }
            match self.work(rng, deadline) {
                Work::Did => progressed = true,
                Work::Finished => return Stop::Finished,
                Work::Cut => return Stop::Cut,
            }
        }
    }

    /// The most voted candidate.
    fn best(&self) -> Option<OvoAction> {
        self.candidates
            .get(most_voted(&self.votes, &self.sums)?)
            .cloned()
    }

    fn play_outs(&self) -> usize {
        self.play_outs
    }
}

/// The value for `me` of the position `after` its move, looking one round ahead: every
/// other seat in turn plays the move best for itself by the medium's evaluation (and
/// declares when that move brings all its eggs home: a loss for `me`, whichever seat
/// it is), then `me` is valued by its own best next move (a move that lets it declare
/// is worth half a win, since someone may still take it away). Without the round the
/// bot did not see a declaration two seats away, nor that the seats after the next one
/// undo what it leaves open; without its own next move it did not value a position
/// from which it can finish (self-play: 38 % of 40 games won with the round, 52 % with
/// the next move as well).
fn round_value(after: &Ovo, me: Seat, geo: &Geometry) -> f64 {
    let mut g = after.clone();
    for _ in 0..geo.players {
        if g.outcome().is_over() {
            return evaluate(&g, me, geo);
        }
        // The rules core has already skipped eliminated seats.
        let them = g.turn();
        let now = standing(&g, geo);
        if them == me {
            if now.all_home[me] {
                return WIN;
            }
            let mut best = value_of(&g, &now, me);
            for r in moves(g.legal_actions(me)) {
                let mut h = g.clone();
                if h.apply(me, &r).is_err() {
                    continue;
                }
                let st = standing(&h, geo);
                if st.all_home[me] {
                    return WIN / 2.0;
                }
                best = best.max(value_of(&h, &st, me));
            }
            return best;
        }
        if now.all_home[them] {
            return -WIN;
        }
        let mut best: Option<(f64, Ovo)> = None;
        for r in moves(g.legal_actions(them)) {
            let mut h = g.clone();
            if h.apply(them, &r).is_err() {
                continue;
            }
            let v = if h.outcome().is_over() {
                evaluate(&h, them, geo)
            } else {
                let st = standing(&h, geo);
                if st.all_home[them] {
                    return -WIN;
                }
                value_of(&h, &st, them)
            };
            if best.as_ref().is_none_or(|(b, _)| v > *b) {
                best = Some((v, h));
            }
        }
        match best {
            Some((_, h)) => g = h,
            // Only a peek or a pass: nothing moves.
            None => return value_of(&g, &now, me),
        }
    }
    evaluate(&g, me, geo)
}

/// The candidate the determinizations voted for most; a tie goes to the higher summed
/// value, then to the earlier candidate (the order is deterministic).
pub(super) fn most_voted<V: Ord>(votes: &[V], sums: &[f64]) -> Option<usize> {
    (0..votes.len().min(sums.len())).max_by(|&a, &b| {
        votes[a]
            .cmp(&votes[b])
            .then(sums[a].total_cmp(&sums[b]))
            .then(b.cmp(&a))
    })
}
