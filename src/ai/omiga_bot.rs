//! The Omiga opponent. Omiga has no turns: the UI calls the bot on a timer, and the
//! bot's speed is part of its level ([`pace`]: how long it "thinks" before each card,
//! as a person would). Its choice: a winning card if it holds one; otherwise (hard) no
//! card that opens a win for the opponent, a block of the opponent's open wins, and the
//! most forward card. The opponent's hand is sampled from the cards it may still hold.

use super::{Bot, Deadline, Level, Told};
use crate::games::omiga::{full_deck, Act, Action, Card, Omiga, OmigaView, Side};
use crate::games::{Game, Outcome, RuleError, RuleResult, Seat};
use crate::platform::time::Duration;
use rand::seq::{IndexedRandom, SliceRandom};
use rand::Rng;
use rand_chacha::ChaCha8Rng;

/// How long a level waits before each card: the mean and the spread either side.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Pace {
    /// Mean think time before a card.
    pub think: Duration,
    /// Uniform spread either side of the mean.
    pub spread: Duration,
}

/// The think time per level, as data for the UI's timer and the self-play clock.
pub fn pace(level: Level) -> Pace {
    let (think, spread) = match level {
        Level::Random => (3500, 1000),
        Level::Easy => (3500, 1000),
        Level::Medium => (2200, 600),
        Level::Hard => (1400, 400),
    };
    Pace {
        think: Duration::from_millis(think),
        spread: Duration::from_millis(spread),
    }
}

/// Sampled opponent hands per hard decision.
const HARD_SAMPLES: usize = 4;

/// An Omiga opponent.
#[derive(Debug, Clone)]
pub struct OmigaBot {
    level: Level,
    limit: Option<Duration>,
    /// Cards this seat discarded (it knows them; they left the game).
    discarded: Vec<Card>,
    hit_deadline: bool,
}

impl OmigaBot {
    /// A new opponent at `level`, thinking at most `limit` per decision.
    pub fn new(level: Level, limit: Option<Duration>) -> OmigaBot {
        OmigaBot {
            level,
            limit,
            discarded: Vec::new(),
            hit_deadline: false,
        }
    }
}

/// The cards `side` may still hold in hand or deck, given its laid cards (a laid card
/// may be either card of the pair `{c, c turned}`) and the cards known to be gone.
fn still_held(view: &OmigaView, side: Side, gone: &[Card], rng: &mut ChaCha8Rng) -> Vec<Card> {
    let mut pool = Vec::new();
    for card in full_deck() {
        let turned = card.turned();
        if card.is_symmetric() {
            let laid = view.cells.iter().any(|p| p.side == side && p.card == card);
            if !laid && !gone.contains(&card) {
                pool.push(card);
            }
            continue;
        }
        // Each unordered pair once: from the member that sorts first.
        if turned.index() < card.index() {
            continue;
        }
        let laid = view
            .cells
            .iter()
            .filter(|p| p.side == side && (p.card == card || p.card == turned))
            .count();
        let mut left: Vec<Card> = [card, turned]
            .into_iter()
            .filter(|c| !gone.contains(c))
            .collect();
        let known_gone = 2 - left.len();
        let room = 2usize.saturating_sub(laid + known_gone);
        left.shuffle(rng);
        pool.extend(left.into_iter().take(room));
    }
    pool
}

/// A full state consistent with `view`: this seat's deck is what it may still hold but
/// its hand and discards, in random order; the opponent's hand and deck are dealt at
/// random from what it may still hold (its discards are unknown, so the pool may be
/// larger than needed).
pub fn sample_state(
    view: &OmigaView,
    discarded: &[Card],
    rng: &mut ChaCha8Rng,
) -> RuleResult<Omiga> {
    let me = Side::of_seat(view.seat).ok_or_else(|| RuleError::new("no such seat"))?;
    let them = me.opponent();
    let mut gone: Vec<Card> = discarded.to_vec();
    gone.extend(view.hand.iter().copied());
    let mut mine = still_held(view, me, &gone, rng);
    mine.shuffle(rng);
    let my_deck: Vec<Card> = mine.into_iter().take(view.deck_counts[me.seat()]).collect();
    let mut theirs = still_held(view, them, &[], rng);
    theirs.shuffle(rng);
    let (hn, dn) = (view.hand_sizes[them.seat()], view.deck_counts[them.seat()]);
    if theirs.len() < hn + dn || my_deck.len() < view.deck_counts[me.seat()] {
        return Err(RuleError::new("the view holds more cards than the decks"));
    }
    let their_hand: Vec<Card> = theirs.iter().take(hn).copied().collect();
    let their_deck: Vec<Card> = theirs.iter().skip(hn).take(dn).copied().collect();
    let (hands, decks) = if me == Side::White {
        ([view.hand.clone(), their_hand], [my_deck, their_deck])
    } else {
        ([their_hand, view.hand.clone()], [their_deck, my_deck])
    };
    let cells: Vec<String> = view
        .cells
        .iter()
        .map(|p| format!("{},{}:{}:{}", p.x, p.y, p.side.letter(), p.card))
        .collect();
    let pair = |l: &[Vec<Card>; 2]| format!("{}|{}", cards(&l[0]), cards(&l[1]));
    let mut line = format!(
        "table={}x{} cells={} hands={} decks={}",
        view.width,
        view.height,
        cells.join(";"),
        pair(&hands),
        pair(&decks)
    );
    if !view.allow_rotation {
        line.push_str(" allow_rotation=off");
    }
    if view.free_discard {
        line.push_str(" free_discard=on");
    }
    Omiga::from_position(&line)
}

fn cards(list: &[Card]) -> String {
    list.iter()
        .map(|c| c.to_string())
        .collect::<Vec<_>>()
        .join(",")
}

/// How far forward a placement goes, 0 at the seat's own edge.
fn forward(seat: Seat, height: u8, action: &Action) -> i32 {
    match *action {
        Action::Place { y, .. } if seat == 0 => y,
        Action::Place { y, .. } => i32::from(height) - 1 - y,
        Action::Discard => -1,
    }
}

/// Whether `seat` wins at once by playing `action` in `game`.
fn wins(game: &Omiga, seat: Seat, action: &Action) -> bool {
    let mut g = game.clone();
    g.apply(seat, action).is_ok() && g.outcome() == Outcome::Win { seat }
}

/// The opponent's winning placements in `game`.
fn winning_cells(game: &Omiga, seat: Seat) -> Vec<(i32, i32)> {
    game.legal_actions(seat)
        .iter()
        .filter(|a| wins(game, seat, a))
        .filter_map(|a| match *a {
            Action::Place { x, y, .. } => Some((x, y)),
            Action::Discard => None,
        })
        .collect()
}

impl OmigaBot {
    fn decide(&mut self, view: &OmigaView, rng: &mut ChaCha8Rng) -> Option<Action> {
        let me = view.seat;
        let deadline = Deadline::after(self.limit);
        let state = sample_state(view, &self.discarded, rng).ok()?;
        let them = Side::of_seat(me)?.opponent().seat();
        let legal = state.legal_actions(me);
        if self.level == Level::Random {
            return legal.choose(rng).copied();
        }
        let places: Vec<Action> = legal
            .iter()
            .filter(|a| matches!(a, Action::Place { .. }))
            .copied()
            .collect();
        if places.is_empty() {
            return legal.first().copied();
        }
        if let Some(win) = places.iter().find(|a| wins(&state, me, a)) {
            return Some(*win);
        }
        match self.level {
            Level::Random | Level::Easy => {
                // A beginner lays a card somewhere reasonable: forward more often than not.
                let best = places
                    .iter()
                    .map(|a| forward(me, view.height, a))
                    .max()
                    .unwrap_or(0);
                let forwardish: Vec<Action> = places
                    .iter()
                    .filter(|a| forward(me, view.height, a) + 1 >= best)
                    .copied()
                    .collect();
                if rng.random_bool(0.5) {
                    forwardish.choose(rng).copied()
                } else {
                    places.choose(rng).copied()
                }
            }
            Level::Medium => places
                .iter()
                .max_by_key(|a| (forward(me, view.height, a), rng.random_range(0..4u8)))
                .copied(),
            Level::Hard => {
                // Per sampled opponent hand: which placements open a win for them, and
                // where they could win now.
                let mut danger = vec![0u32; places.len()];
                let mut threats: Vec<(i32, i32)> = Vec::new();
                for d in 0..HARD_SAMPLES {
                    if d > 0 && deadline.passed() {
                        self.hit_deadline = true;
                        break;
                    }
                    let Ok(s) = sample_state(view, &self.discarded, rng) else {
                        break;
                    };
                    threats.extend(winning_cells(&s, them));
                    for (i, a) in places.iter().enumerate() {
                        let mut g = s.clone();
                        if g.apply(me, a).is_ok() && !winning_cells(&g, them).is_empty() {
                            danger[i] += 1;
                        }
                    }
                }
                let value = |i: usize, a: &Action| -> i32 {
                    let blocks = match *a {
                        Action::Place { x, y, .. } => threats.contains(&(x, y)),
                        Action::Discard => false,
                    };
                    forward(me, view.height, a) - 20 * danger[i] as i32
                        + if blocks { 30 } else { 0 }
                };
                places
                    .iter()
                    .enumerate()
                    .max_by_key(|(i, a)| (value(*i, a), rng.random_range(0..4u8)))
                    .map(|(_, a)| *a)
            }
        }
    }
}

impl Bot<Omiga> for OmigaBot {
    fn choose(&mut self, view: &OmigaView, rng: &mut ChaCha8Rng) -> Option<Action> {
        self.hit_deadline = false;
        if view.outcome.is_over() {
            return None;
        }
        self.decide(view, rng)
    }

    fn observe(&mut self, told: &Told<Omiga>) {
        let event = told.event();
        if event.seat == told.seat() {
            if let Act::Discarded {
                cards: Some(cards), ..
            } = &event.act
            {
                self.discarded.extend(cards.iter().copied());
            }
        }
    }

    fn hit_deadline(&self) -> bool {
        self.hit_deadline
    }
}
