//! The IOTA opponent. It knows its hand and the open grid; the other hands and the pile
//! order are dealt at random from the cards it has not seen (a determinization) when it
//! needs the rules or a look at the next player.
//!
//! - easy plays like a beginner: most often a single card, not always the best one;
//! - medium takes a wild when it can and the best score now;
//! - hard does too, then weighs its best placements against what they leave open: the
//!   best reply of the next player, averaged over several sampled hands.

use super::{Bot, Deadline, Level, Told};
use crate::games::iota::{Action, Card, Cell, Iota, IotaView};
use crate::games::{Game, RuleError, RuleResult};
use rand::seq::{IndexedRandom, SliceRandom};
use rand::Rng;
use rand_chacha::ChaCha8Rng;
use std::time::Duration;

/// How many of its best placements the hard level looks past.
const HARD_CANDIDATES: usize = 8;
/// Sampled hands of the next player per candidate (hard).
const HARD_SAMPLES: usize = 3;
/// How much of the next player's best reply the hard level counts against a placement.
const REPLY_WEIGHT: f64 = 0.5;

/// An IOTA opponent.
#[derive(Debug, Clone)]
pub struct IotaBot {
    level: Level,
    limit: Option<Duration>,
    hit_deadline: bool,
}

impl IotaBot {
    /// A new opponent at `level`, thinking at most `limit` per decision.
    pub fn new(level: Level, limit: Option<Duration>) -> IotaBot {
        IotaBot {
            level,
            limit,
            hit_deadline: false,
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
    fn decide(&mut self, view: &IotaView, rng: &mut ChaCha8Rng) -> Option<Action> {
        let me = view.seat;
        let deadline = Deadline::after(self.limit);
        let state = sample_state(view, rng).ok()?;
        let legal = state.legal_actions(me);
        if self.level == Level::Random {
            return legal.choose(rng).cloned();
        }
        if self.level >= Level::Medium {
            if let Some(swap) = legal.iter().find(|a| matches!(a, Action::Swap { .. })) {
                return Some(swap.clone());
            }
        }
        let placements = scored(&state, me);
        if placements.is_empty() {
            return Some(match self.level {
                Level::Easy => Action::Pass(Vec::new()),
                _ => pass_keeping_wilds(view),
            });
        }
        match self.level {
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
            Level::Hard => {
                let mut best: Option<(f64, &Vec<(Card, Cell)>)> = None;
                let top = placements.first().map_or(0, |(_, s)| *s);
                let near_best = placements
                    .iter()
                    .take(HARD_CANDIDATES)
                    .filter(|(_, s)| *s * 4 >= top * 3);
                for (p, score) in near_best {
                    if deadline.passed() && best.is_some() {
                        self.hit_deadline = true;
                        break;
                    }
                    let reply = self.reply_estimate(view, p, rng, &deadline);
                    let value = f64::from(*score) - REPLY_WEIGHT * reply;
                    if best.is_none_or(|(v, _)| value > v) {
                        best = Some((value, p));
                    }
                }
                best.map(|(_, p)| Action::Place(p.clone()))
            }
        }
    }

    /// The next player's best score after `placement`, averaged over sampled hands.
    fn reply_estimate(
        &mut self,
        view: &IotaView,
        placement: &[(Card, Cell)],
        rng: &mut ChaCha8Rng,
        deadline: &Deadline,
    ) -> f64 {
        let me = view.seat;
        let mut total = 0.0;
        let mut n = 0u32;
        for _ in 0..HARD_SAMPLES {
            if n > 0 && deadline.passed() {
                self.hit_deadline = true;
                break;
            }
            let Ok(mut g) = sample_state(view, rng) else {
                break;
            };
            if g.apply(me, &Action::Place(placement.to_vec())).is_err() {
                break;
            }
            n += 1;
            if g.outcome().is_over() {
                continue;
            }
            let next = g.turn();
            total += scored(&g, next).first().map_or(0.0, |(_, s)| f64::from(*s));
        }
        if n == 0 {
            0.0
        } else {
            total / f64::from(n)
        }
    }
}

impl Bot<Iota> for IotaBot {
    fn choose(&mut self, view: &IotaView, rng: &mut ChaCha8Rng) -> Option<Action> {
        self.hit_deadline = false;
        if view.outcome.is_over() || view.turn != view.seat {
            return None;
        }
        self.decide(view, rng)
    }

    fn observe(&mut self, _told: &Told<Iota>) {
        // Everything an IOTA bot uses is in its view: the grid, its hand, the counts.
    }

    fn hit_deadline(&self) -> bool {
        self.hit_deadline
    }
}
