//! IOTA (docs/rules.md §2): cards on an unbounded grid, lines of up to four that are all the
//! same or all different in colour, shape and number; wilds; scoring with doublings.
//!
//! Choices where docs/rules.md is silent are listed in docs/rules-iota.md.

mod board;
mod cards;
mod error;
mod notation;
mod position;
mod rules;
mod view;

pub use board::Grid;
pub use cards::Card;
pub use error::{Attribute, IotaError};
pub use notation::{Action, Cell, COORD_LIMIT};
pub use view::{GridCard, IotaEvent, IotaView, LineScore, ScoreBreakdown};

use super::{rng_from_seed, Game, Outcome, Params, RuleError, RuleResult, Seat};
use rand::seq::SliceRandom;
use serde::Serialize;
use std::collections::VecDeque;

/// Cards in a full hand.
pub const HAND_SIZE: usize = 4;

/// The whole state of a game of IOTA, secrets included.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Iota {
    players: usize,
    turn: Seat,
    grid: Grid,
    /// Each seat's hand, oldest card first.
    hands: Vec<Vec<Card>>,
    /// The draw pile, top first.
    pile: VecDeque<Card>,
    scores: Vec<i64>,
    /// Pass turns in a row (a placement resets it).
    passes: u32,
}

impl Iota {
    /// Deals a game from `deck` (66 cards, top first): 4 cards to each seat in seat
    /// order, then the starter (wilds turned up go to the bottom), the rest is the pile.
    pub fn deal(players: usize, first: Seat, deck: Vec<Card>) -> RuleResult<Iota> {
        if !(2..=4).contains(&players) {
            return Err(RuleError::new(format!(
                "IOTA is for 2 to 4 players, not {players}"
            )));
        }
        if first >= players {
            return Err(RuleError::new(format!(
                "first must be a seat from 0 to {}",
                players - 1
            )));
        }
        check_full_deck(&deck)?;
        let mut pile: VecDeque<Card> = deck.into();
        let mut hands = Vec::with_capacity(players);
        for _ in 0..players {
            hands.push(pile.drain(..HAND_SIZE).collect());
        }
        // A full deck has 64 faces, so a face turns up before the pile runs dry.
        let starter = loop {
            match pile.pop_front() {
                Some(card) if card.is_wild() => pile.push_back(card),
                Some(card) => break card,
                None => return Err(RuleError::new("the deck has no card to start with")),
            }
        };
        let mut grid = Grid::new();
        grid.insert(Cell::new(0, 0), starter);
        Ok(Iota {
            players,
            turn: first,
            grid,
            hands,
            pile,
            scores: vec![0; players],
            passes: 0,
        })
    }

    /// The grid.
    pub fn grid(&self) -> &Grid {
        &self.grid
    }

    /// The seat on turn.
    pub fn turn(&self) -> Seat {
        self.turn
    }

    /// Cards left in the draw pile.
    pub fn pile_len(&self) -> usize {
        self.pile.len()
    }

    /// The hand of `seat` (empty for an unknown seat). Secret: for the referee, bots
    /// built on the full state in tests, and the session's own seat only.
    pub fn hand(&self, seat: Seat) -> &[Card] {
        self.hands.get(seat).map(Vec::as_slice).unwrap_or(&[])
    }

    /// Passes in a row so far.
    pub fn passes(&self) -> u32 {
        self.passes
    }
}

/// Refuses a `deck=` that is not exactly the 64 faces once each and two wilds.
fn check_full_deck(deck: &[Card]) -> RuleResult<()> {
    if deck.len() != 66 {
        return Err(RuleError::new(format!(
            "the deck must hold all 66 cards (64 and two W), not {}",
            deck.len()
        )));
    }
    let mut seen = [0u8; 65];
    for &card in deck {
        if let Some(n) = seen.get_mut(usize::from(card.id())) {
            *n += 1;
            let limit = if card.is_wild() { 2 } else { 1 };
            if *n > limit {
                return Err(RuleError::new(format!("the deck holds {card} too often")));
            }
        }
    }
    Ok(())
}

/// The full state for the referee's `state` command.
#[derive(Serialize)]
struct StateJson<'a> {
    players: usize,
    turn: Seat,
    grid: Vec<GridCard>,
    hands: &'a [Vec<Card>],
    pile: Vec<Card>,
    scores: &'a [i64],
    passes: u32,
    outcome: Outcome,
}

impl Game for Iota {
    type Action = Action;
    type View = IotaView;
    type Event = IotaEvent;

    const NAME: &'static str = "iota";

    fn new_game(params: &Params) -> RuleResult<Self> {
        params.only(&["players", "first", "deck", "seed"])?;
        let players = params.number("players", Some(2))?;
        let first = params.number("first", Some(0))?;
        let players = usize::try_from(players).unwrap_or(usize::MAX);
        let first = usize::try_from(first).unwrap_or(usize::MAX);
        let deck = match (params.get("deck"), params.get("seed")) {
            (Some(_), Some(_)) => {
                return Err(RuleError::new("give either deck= or seed=, not both"));
            }
            (None, None) => return Err(RuleError::new("give deck=<66 cards> or seed=S")),
            (Some(deck), None) => cards::parse_list(deck)?,
            (None, Some(_)) => {
                let seed = params.number("seed", None)?;
                let mut deck = Card::full_deck();
                deck.shuffle(&mut rng_from_seed(seed));
                deck
            }
        };
        Iota::deal(players, first, deck)
    }

    fn from_position(position: &str) -> RuleResult<Self> {
        position::parse(position)
    }

    fn position(&self) -> String {
        position::print(self)
    }

    fn state_json(&self) -> serde_json::Value {
        let state = StateJson {
            players: self.players,
            turn: self.turn,
            grid: self.grid.listed(),
            hands: &self.hands,
            pile: self.pile.iter().copied().collect(),
            scores: &self.scores,
            passes: self.passes,
            outcome: self.outcome(),
        };
        serde_json::to_value(state).unwrap_or(serde_json::Value::Null)
    }

    fn seats(&self) -> usize {
        self.players
    }

    fn to_act(&self) -> Vec<Seat> {
        if self.outcome().is_over() {
            Vec::new()
        } else {
            vec![self.turn]
        }
    }

    fn legal_actions(&self, seat: Seat) -> Vec<Action> {
        self.legal(seat)
    }

    fn apply(&mut self, seat: Seat, action: &Action) -> RuleResult<IotaEvent> {
        self.apply_action(seat, action)
    }

    fn view(&self, seat: Seat) -> IotaView {
        self.make_view(seat)
    }

    /// The table from the seat on turn's side, without its hand.
    fn public_view(&self) -> IotaView {
        let mut view = self.make_view(self.turn);
        view.hand.clear();
        view
    }

    fn outcome(&self) -> Outcome {
        let pile_empty = self.pile.is_empty();
        let players = u32::try_from(self.players).unwrap_or(u32::MAX);
        let over = (pile_empty && (self.hands.iter().any(Vec::is_empty) || self.passes >= players))
            || self.passes >= players.saturating_mul(3);
        if !over {
            return Outcome::Ongoing;
        }
        let best = self.scores.iter().copied().max().unwrap_or(0);
        let winners: Vec<Seat> = (0..self.players)
            .filter(|&s| self.scores.get(s) == Some(&best))
            .collect();
        match winners.as_slice() {
            [seat] => Outcome::Win { seat: *seat },
            _ => Outcome::SharedWin { seats: winners },
        }
    }

    fn scores(&self) -> Vec<i64> {
        self.scores.clone()
    }

    fn report(event: &IotaEvent) -> Vec<String> {
        match event {
            IotaEvent::Placed { score, .. } => vec![format!("score {}", score.total)],
            IotaEvent::Swapped { .. } | IotaEvent::Passed { .. } => Vec::new(),
        }
    }

    fn event_for(event: &IotaEvent, seat: Seat) -> IotaEvent {
        event.for_seat(seat)
    }
}
