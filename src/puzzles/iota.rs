//! IOTA's daily puzzle: a table and a hand; score as many points as you can this turn.
//! The table is staged by playing a few turns of a dealt game (random legal placements,
//! no wild laid, so no swap can change the best); the engine then scores every legal
//! placement of the hand, so the best score and every play that reaches it are known.

use super::{pick, shuffle, stream, Day, Goal, Puzzle, PuzzleError, ATTEMPTS};
use crate::games::iota::{Action, Card, Cell, Iota};
use crate::games::registry::GameKind;
use crate::games::Game;
use rand_chacha::ChaCha8Rng;

/// Legal plays per best play, in tenths, by level (Monday first): inclusive, not overlapping.
pub const BANDS: [(u32, u32); 7] = [
    (30, 89),
    (90, 149),
    (150, 229),
    (230, 329),
    (330, 489),
    (490, 729),
    (730, 100_000),
];

/// The day's IOTA puzzle.
pub fn daily(day: Day) -> Result<Puzzle, PuzzleError> {
    let mut rng = stream(GameKind::Iota, day);
    let level = day.level();
    let (low, high) = super::band(GameKind::Iota, level);
    for attempt in 0..ATTEMPTS {
        let Some(p) = candidate(&mut rng, day, level, attempt, low) else {
            continue;
        };
        if (low..=high).contains(&p.difficulty) {
            return Ok(p);
        }
    }
    Err(PuzzleError::NoPuzzle {
        kind: "iota",
        day,
        attempts: ATTEMPTS,
    })
}

/// One candidate: a dealt game played for a few turns, judged by scoring every play.
/// None when the deal cannot make a fair puzzle (no play, or a trivial one).
pub(crate) fn candidate(
    rng: &mut ChaCha8Rng,
    day: Day,
    level: u8,
    attempt: u32,
    min_difficulty: u32,
) -> Option<Puzzle> {
    let mut deck = Card::full_deck();
    shuffle(rng, &mut deck);
    let mut game = Iota::deal(2, 0, deck).ok()?;
    // More turns, a larger table: more places to fit a hand (levels 1..7 → 1..7 turns,
    // plus up to two more at random so that neighbouring days differ in shape).
    let turns = usize::from(level) + pick(rng, 3);
    for _ in 0..turns {
        let seat = game.turn();
        let plays: Vec<Vec<(Card, Cell)>> = game
            .legal_placements(seat)
            .into_iter()
            .filter(|p| p.iter().all(|(c, _)| !c.is_wild()))
            .collect();
        let action = if plays.is_empty() {
            Action::Pass(Vec::new())
        } else {
            Action::Place(plays[pick(rng, plays.len())].clone())
        };
        game.play(seat, &action).ok()?;
    }
    if game.outcome().is_over() {
        return None;
    }
    let seat = game.turn();
    let plays = game.legal_placements(seat);
    // Tries per best play cannot exceed the plays: too few for the band, no need to score.
    if plays.len() * 10 < min_difficulty as usize {
        return None;
    }
    let scored: Vec<(u32, Vec<(Card, Cell)>)> = plays
        .into_iter()
        .filter_map(|p| game.check_placement(seat, &p).ok().map(|s| (s, p)))
        .collect();
    let best = scored.iter().map(|(s, _)| *s).max()?;
    let answers: Vec<&Vec<(Card, Cell)>> = scored
        .iter()
        .filter(|(s, _)| *s == best)
        .map(|(_, p)| p)
        .collect();
    // From Thursday on, the best play needs at least two cards.
    if level >= 4 && answers.iter().any(|p| p.len() < 2) {
        return None;
    }
    let difficulty = (scored.len() * 10 / answers.len()) as u32;
    Some(Puzzle {
        kind: GameKind::Iota,
        day,
        level,
        position: game.position(),
        seat,
        goal: Goal::BestScore { best },
        answers: answers
            .iter()
            .map(|p| Action::Place((*p).clone()).to_string())
            .collect(),
        legal: scored.len(),
        difficulty,
        known: Vec::new(),
        attempt,
    })
}
